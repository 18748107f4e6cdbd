"""The computer players take their battle odds from the rules (issue 35, item 5): the odds a
player is seated with (clients.odds_players.RulesOdds) are the battle calculator's own, a
battle too large for a player's decision is sampled within a stated tolerance of the exact
answer, and Bulge's quick estimate of an attack holds against the rules' exact odds."""

from __future__ import annotations

from functools import lru_cache

import pytest

from clients import odds, odds_attack, seats
from clients.odds_players import RulesOdds
from clients.odds_setup import set_up
from engine import plugins
from rulesets.aarhe.ai import HeuristicPlayer
from rulesets.aarhe.ai.world import View
from rulesets.bulge.ai import box_probs, unit_fate
from tests.lhtr.play import situation

#: a battle sampled with RulesOdds' few battles (48) is within this of the exact chance
#: (the 95% interval of 48 battles is at most +-0.14 wide)
SAMPLED_TOLERANCE = 0.15


@lru_cache(maxsize=4)
def ruleset(name: str):
    return plugins.load(name)


def caucasus(attackers: list[tuple[str, int]], defenders: list[tuple[str, int]]):
    pieces = [(k, "Germany", "Caucasus", n) for k, n in attackers] + [(k, "USSR", "Caucasus", n) for k, n in defenders]
    g, _ = situation("Germany", pieces, step="conduct_combat")
    return g, View(g.rs, g.state, "Germany"), g.at("Caucasus", "Germany")


def test_the_heuristic_plans_by_the_calculators_odds() -> None:
    g, v, mine = caucasus([("Infantry", 3), ("Artillery", 1)], [("Infantry", 2)])
    got = HeuristicPlayer(odds=RulesOdds()).odds(v, mine, "Caucasus")
    want = odds.odds(set_up(ruleset("lhtr"), "3 inf, 1 art", "2 inf", where="Caucasus"))
    assert got.exact and want.exact
    assert got.win == pytest.approx(want.attacker_wins, abs=1e-9)
    assert got.lose == pytest.approx(want.defender_wins + want.both_destroyed, abs=1e-9)
    assert got.att_loss == pytest.approx(want.attacker_cost_lost, abs=1e-9)
    assert got.def_loss == pytest.approx(want.defender_cost_lost, abs=1e-9)


def test_aircraft_alone_do_not_take_a_territory() -> None:
    g, v, mine = caucasus([("Fighter", 2)], [("Infantry", 1)])
    o = HeuristicPlayer(odds=RulesOdds()).odds(v, mine, "Caucasus")
    assert o.clear > 0.5
    assert o.win == 0.0


def test_a_battle_too_large_for_a_decision_is_sampled_close_to_the_exact_answer() -> None:
    g, v, mine = caucasus([("Infantry", 6), ("Artillery", 2), ("Tank", 2)], [("Infantry", 5), ("Tank", 1)])
    quick = RulesOdds(exact_runs=50)        # (as a decision past its time budget may)
    got = quick.battle(g.rs, g.state, mine, "Caucasus")
    assert not got.exact and quick.counts == {"sampled": 1}
    want = odds.odds(set_up(ruleset("lhtr"), "6 inf, 2 art, 2 tank", "5 inf, 1 tank", where="Caucasus"))
    assert want.exact
    assert abs(got.win - want.attacker_wins) <= SAMPLED_TOLERANCE


def test_an_answer_is_kept_while_the_player_plans() -> None:
    g, v, mine = caucasus([("Infantry", 3), ("Artillery", 1)], [("Infantry", 2)])
    rules_odds = RulesOdds()
    first = rules_odds.battle(g.rs, g.state, mine, "Caucasus")
    assert rules_odds.battle(g.rs, g.state, list(reversed(mine)), "Caucasus") is first
    assert rules_odds.counts == {"exact": 1}


@pytest.mark.parametrize("name, side", [("lhtr", "Axis"), ("bulge", "Allies")])
def test_a_seated_heuristic_is_given_the_rules_odds(name: str, side: str) -> None:
    rs = ruleset(name)
    players = seats.assign(rs, [f"{side}=heuristic"])
    assert isinstance(players[side].battle_odds, RulesOdds)


#: the quick estimate of an attack with more dice than are worked out exactly is held against
#: 200 attacks sampled through the rules (their 95% interval is at most +-0.07 wide)
ATTACK_TOLERANCE = 0.1


@pytest.mark.parametrize("dice", [1, 2, 3, 6])
@pytest.mark.parametrize("where", ["0101", "0205"])       # a corner, where nobody can retreat; an open hex
@pytest.mark.parametrize("defending", ["1 inf", "1 inf, 1 tank", "1 inf, 1 tank, 1 art"])
def test_bulges_quick_estimate_of_an_attack_holds_against_the_rules(dice: int, where: str, defending: str) -> None:
    """The estimate the Bulge player weighs next turn's attacks by (unit_fate) against the
    rules' odds of the same attack, for each defending unit alone in its box: exact up to 3
    dice, sampled beyond."""
    rs = ruleset("bulge")
    attack = odds_attack.set_up(rs, "1 inf", defending, where=where)
    state, rules = attack.state, rs.rules
    defenders = [state.pieces[pid] for pid, _ in attack.defending]
    chance = RulesOdds().attack(rs, state, dice, attack.where, defenders)
    assert chance.exact == (dice <= 3)
    tolerance = 1e-9 if chance.exact else ATTACK_TOLERANCE
    boxes = rules.procedure("strip_boxes")(state, defenders)
    probs = box_probs(len(boxes), rules.options)
    for box, p in zip(boxes, probs):
        (u,) = box
        can_go = bool(rules.procedure("retreat_options")(state, u))
        destroyed, retreats, untouched = chance.fates[u.id]
        if not can_go:       # (the rules order it to retreat; with nowhere to go it is lost)
            destroyed, retreats = destroyed + retreats, 0.0
        assert unit_fate(dice, p, can_go) == pytest.approx((destroyed, retreats, untouched), abs=tolerance)
