"""Computer players, and what every player is to the engine: something that answers
decisions.

A player sees the ruleset, the state and the decision, and returns an action. The uniformly
random player works for every ruleset; a ruleset may offer cleverer ones through the
`wargame_players` hook.
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


#: players every ruleset has; rulesets add theirs through the wargame_players hook
BUILTIN_PLAYERS = {"random": RandomPlayer}
