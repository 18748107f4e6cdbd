"""Computer players, and what every player is to the engine: something that answers
decisions.

A player sees the ruleset, the state and the decision, and returns an action. The uniformly
random player and the search player (clients.search, which looks ahead through the rules)
work for every ruleset; a ruleset may offer its own through the `wargame_players` hook.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.actions import Action, Decision


class Player(Protocol):
    name: str

    def choose(self, ruleset: Any, state: Any, decision: Decision) -> Action: ...


class RandomPlayer:
    """Picks uniformly among the legal options. Its own generator, never the game's dice,
    so a computer player's whims cannot change what the dice say."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ruleset: Any, state: Any, decision: Decision) -> Action:
        if not decision.options:
            raise RuntimeError(f"decision `{decision.kind}` for {decision.player} offers no options")
        return decision.sample(self.rng)


def _search(seed: int = 0, seconds: float | None = None) -> Player:
    from clients.search import SearchPlayer  # (loaded when a game seats it)

    return SearchPlayer(seed, seconds)


_search.takes_seconds = True  # type: ignore[attr-defined]  # (`--ai SIDE=search:SECONDS`)

#: players every ruleset has; rulesets add theirs through the wargame_players hook
BUILTIN_PLAYERS: dict[str, Any] = {"random": RandomPlayer, "search": _search}
