"""Computer players for Battle of the Bulge."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision


class HeuristicPlayer:
    """Weighs attacks by their odds, keeps supply flowing and heads for VP (being written)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, ruleset: Any, state: Any, decision: Decision) -> Action:
        return self.rng.choice(decision.options)
