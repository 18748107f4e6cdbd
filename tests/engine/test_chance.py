"""Exact odds from the ruleset's own combat rules (chance as enumerable outcomes)."""

from __future__ import annotations

from fractions import Fraction

from engine import plugins
from engine.chance import outcomes, sample
from engine.state import GameState


def test_the_odds_of_a_bulge_strip_come_from_its_rules() -> None:
    rs = plugins.load("bulge")
    state = rs.logic.new_state("ardennes-1944", 0)
    strip = rs.rules.procedure("strip_hits")
    odds = dict((tuple(r), p) for p, r in outcomes(lambda s: strip(s, 1, 4), state))
    # one die on a strip of four boxes: faces 1-6 hit, each lands on box (face-1) % 4
    assert odds == {(0, 0, 0, 0): Fraction(1, 2), (1, 0, 0, 0): Fraction(1, 6), (0, 1, 0, 0): Fraction(1, 6),
                    (0, 0, 1, 0): Fraction(1, 12), (0, 0, 0, 1): Fraction(1, 12)}
    assert sum(odds.values()) == 1
    two = outcomes(lambda s: sum(strip(s, 2, 3)), state)
    assert dict((r, p) for p, r in two) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_sampling_agrees_with_the_exact_odds() -> None:
    rs = plugins.load("bulge")
    state: GameState = rs.logic.new_state("ardennes-1944", 0)
    strip = rs.rules.procedure("strip_hits")
    est = dict((r, p) for p, r in sample(lambda s: sum(strip(s, 2, 3)), state, 4000, seed=1))
    assert abs(est[1] - 0.5) < 0.04 and abs(est[0] - 0.25) < 0.04
