"""Random LHTR and AARHE games with tests/lhtr/invariants.py checked after every action.

Two random players: `uniform` picks among the options alike; `bold` weighs them by their
labels, so that more happens in a few rounds than a uniform player makes happen (it marches
into enemy territory, seldom stops a unit where it is, seldom destroys its own industrial
complexes). Both draw from their own generator, never the game's dice, so a game is its seed.
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action, Decision
from engine.game import Game
from engine.ruleset import LoadedRuleset
from tests.lhtr.invariants import Invariants

SCENARIO = "revised-1942"

#: (words in an option's label, weight); the first that matches counts, else 1
BOLD = (("(enemy)", 6.0), ("amphibious assault", 6.0), ("attack the enemy", 4.0), ("battle in", 3.0),
        ("press on", 2.0), ("stop here", 0.25), ("scorched earth", 0.02), ("repair no more", 0.5))


def bold_weight(action: Action) -> float:
    if action.kind == "finish":
        return 0.3
    label = action.label
    for words, w in BOLD:
        if words in label:
            return w
    return 1.0


class RandomPlay:
    def __init__(self, seed: int, bold: bool = False) -> None:
        self.rng = random.Random(seed)
        self.bold = bold

    def choose(self, decision: Decision) -> Action:
        options = decision.options
        if not self.bold:
            return self.rng.choice(options)
        return self.rng.choices(options, weights=[bold_weight(a) for a in options])[0]


#: actions a round may take before the game counts as stuck (a round of random play takes a
#: few hundred; a move offered without end, as rockets once were, takes them all)
MOST_IN_A_ROUND = 5000


def play(rs: LoadedRuleset, seed: int, bold: bool = False, check: bool = True,
         scenario: str = SCENARIO) -> tuple[Game, Invariants]:
    """One game of `rs` (give it a `last_round`) on `scenario`, checked after every action
    unless `check` is false. Raises AssertionError naming the seed, the action and the broken
    invariants, or the round that never ends."""
    game = Game(rs, scenario, seed)
    rs = game.ruleset                   # as the scenario plays it (its powers are options)
    inv = Invariants(rs)
    player = RandomPlay(seed, bold)
    if check:
        inv(game.state)
    round_began, turn = 0, game.state.turn
    while game.decision is not None:
        action = player.choose(game.decision)
        game.play(action)
        if game.state.turn != turn:
            round_began, turn = len(game.actions), game.state.turn
        assert len(game.actions) - round_began <= MOST_IN_A_ROUND, \
            f"{rs.name} seed {seed}{' bold' if bold else ''}: round {turn} never ends ({where(game)}, {action.label})"
        if check:
            problems = inv.problems(game.state, final=game.decision is None)
            assert not problems, (f"{rs.name} seed {seed}{' bold' if bold else ''}, action {len(game.actions)} "
                                  f"({action.label or action}), {where(game)}: " + "; ".join(problems))
    return game, inv


def where(game: Game) -> str:
    s = game.state
    return f"round {s.turn}, {game.ruleset.structure.power(s)}'s {game.ruleset.structure.step(s)}"


def replay(rs: LoadedRuleset, game: Game) -> Game:
    again = Game(rs, game.scenario, game.seed)
    for a in game.actions:
        again.play(a)
    return again


def summary(game: Game) -> dict[str, Any]:
    kinds: dict[str, int] = {}
    for a in game.actions:
        kinds[a.kind] = kinds.get(a.kind, 0) + 1
    return kinds
