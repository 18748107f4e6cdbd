"""The heuristic's battle odds under Low Luck come from the rules (its odds are the rules'
own, clients.odds_players): a side's hits are its total strength divided by six and one die
for the rest, as the rules' `low_luck` has it, so the odds it attacks by follow the game
being played."""

from __future__ import annotations

import pytest

from clients.odds_players import RulesOdds
from rulesets.aarhe.ai import HeuristicPlayer
from rulesets.aarhe.ai.world import View
from tests.lhtr.play import situation


def test_the_heuristic_reads_the_option() -> None:
    # 2 infantry with 2 artillery (2+2+2+2 = 8) against one infantry: under Low Luck the
    # attack scores its sure hit in round 1 and the defender can take one attacker at most
    pieces = [("Infantry", "Germany", "Caucasus", 2), ("Artillery", "Germany", "Caucasus", 2),
              ("Infantry", "USSR", "Caucasus", 1)]
    odds = {}
    for ll in (True, False):
        g, _ = situation("Germany", pieces, step="conduct_combat", low_luck=ll)
        v = View(g.rs, g.state, "Germany")
        odds[ll] = HeuristicPlayer(odds=RulesOdds()).odds(v, [p for p in g.at("Caucasus", "Germany")], "Caucasus")
    assert odds[True].win == pytest.approx(1.0)
    assert odds[True].exact
    assert odds[True].att_loss == pytest.approx(3.0 * 2 / 6)      # one infantry (3 IPC) a third of the time
    assert odds[False].win < odds[True].win
