"""What a position is worth to a side, as the search player reads it from the rules.

A rules file gives its game's knowledge as `procedure evaluate(side: str) -> int` (or
`-> float`): the bigger, the better the position for that side. A game that gives none is
judged by what games played to their end from its positions showed going with winning
(clients.search_learn), with its own `procedure score() -> map[str, int]`, where the score is
kept by side, one of those features (and, a little, on its own: the side's entry less the best
other side's; entries that are not sides are left out). A game that is over is worth more
(or less) than any position: a win is +1, a loss -1, a draw 0, on the search's scale.
"""

from __future__ import annotations

import math
from typing import Any

from clients.search_learn import Learner
from engine import flow
from engine.actions import Decision
from engine.state import GameState

#: the name of the rules' evaluation (see docs/rules-language.md, "Knowledge for the computer")
EVALUATE = "evaluate"
#: where the rules give no evaluate: a unit of the score by side, beside what the games played
#: learnt (which decides alone once they say anything; the score breaks its ties)
SCORE_WEIGHT = 0.01


class Judge:
    """Worth of states for one ruleset: `raw` in the rules' own units, `scaled` on the search's
    scale (-1 .. 1), relative to a reference value and a temperature."""

    def __init__(self, rs: Any, learn: bool = True) -> None:
        self.rs = rs
        rules = rs.rules
        self.evaluate = rules.procedure(EVALUATE) if rules.has_procedure(EVALUATE) else None
        self.score = rules.procedure("score") if rules.has_procedure("score") else None
        #: the sides, whose entries of a score count against each other (not, say, the turn)
        self.sides = frozenset(rs.info.sides or rs.structure.powers)
        #: where the rules give no evaluate: what games played to their end showed
        self.learner = Learner(rs, sorted(self.sides), self.score) \
            if self.evaluate is None and learn else None

    @property
    def informed(self) -> bool:
        """Do the rules say anything about a position before the game's end?"""
        return self.evaluate is not None or self.score is not None or self.learner is not None

    def raw(self, state: GameState, side: str) -> float:
        """The rules' value of an unfinished position for `side` (where they give no evaluate,
        what the games played to their end learnt, and the score by side)."""
        if self.evaluate is not None:
            return float(self.evaluate(state, side))
        value = 0.0
        if self.score is not None:
            score = dict(self.score(state))
            if side in score:
                others = [float(v) for k, v in score.items() if k != side and k in self.sides]
                value = float(score[side]) - (max(others) if others else 0.0)
        if self.learner is not None:
            value = self.learner.value(state, side) + SCORE_WEIGHT * value
        return value

    def outcome(self, state: GameState, side: str) -> float | None:
        """+1, -1 or 0 for a game that is over (won, lost, drawn for `side`); None if it goes on."""
        result = state.result
        if result is None:
            return None
        winner = result.get("winner") or None
        if winner is None:
            return 0.0
        return 1.0 if self.rs.logic.side_of(winner) == side or winner == side else -1.0

    def worth(self, state: GameState, decision: Decision | None, side: str) -> tuple[str, float]:
        """What a state that `flow.apply` or `flow.settle` left, with `decision`, comes to for
        `side`: ("end", its outcome) or ("raw", its value). One paused where its step is over
        (no decision, the game not over) is judged as the step leaves it (`flow.ending`; an
        IllegalAction where the rules refuse what is bound to the step's end)."""
        if decision is None and state.result is None:
            state = flow.ending(self.rs, state)
        end = self.outcome(state, side)
        return ("end", end) if end is not None else ("raw", self.raw(state, side))

    @staticmethod
    def squash(value: float, reference: float, temperature: float) -> float:
        """A position's raw value as a gain over `reference`, on (-1, 1): positions never
        reach a finished game's worth."""
        return 0.95 * math.tanh((value - reference) / temperature)
