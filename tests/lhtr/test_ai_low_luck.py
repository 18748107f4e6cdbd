"""The heuristic's battle odds under Low Luck (rulesets/aarhe/ai/odds.py): a side's hits are
its total strength divided by six and one die for the rest, as the rules' `low_luck` has it,
so the odds it attacks by follow the game being played."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesets.aarhe.ai import HeuristicPlayer
from rulesets.aarhe.ai.odds import Slot, battle, low_luck_distribution
from rulesets.aarhe.ai.world import View
from tests.lhtr.play import situation


def side(*values: int, land: bool = True) -> tuple[Slot, ...]:
    return tuple(Slot(v / 6, 3.0, land) for v in values)


def test_a_total_of_eight_is_one_sure_hit_and_a_third_of_a_second() -> None:
    dist = low_luck_distribution([2 / 6, 2 / 6, 2 / 6, 2 / 6])
    assert [Fraction(p).limit_denominator(6) for p in dist] == [0, Fraction(2, 3), Fraction(1, 3)]


def test_low_luck_makes_a_sure_attack_sure() -> None:
    # 2 infantry with 2 artillery (2+2+2+2 = 8) against one infantry: under Low Luck the
    # attack scores its sure hit in round 1 and the defender can take one attacker at most
    att, dfn = side(2, 2, 2, 2), side(2)
    assert battle(att, dfn, True, low_luck=True).win == pytest.approx(1.0)
    dice = battle(att, dfn, True)
    assert dice.win < 0.999
    assert battle(att, dfn, True, low_luck=True).att_loss == pytest.approx(3.0 * 2 / 6)


def test_the_heuristic_reads_the_option() -> None:
    pieces = [("Infantry", "Germany", "Caucasus", 2), ("Artillery", "Germany", "Caucasus", 2),
              ("Infantry", "USSR", "Caucasus", 1)]
    odds = {}
    for ll in (True, False):
        g, _ = situation("Germany", pieces, step="conduct_combat", low_luck=ll)
        v = View(g.rs, g.state, "Germany")
        odds[ll] = HeuristicPlayer().odds(v, [p for p in g.at("Caucasus", "Germany")], "Caucasus")
    assert odds[True].win == pytest.approx(1.0)
    assert odds[False].win < odds[True].win
