"""Sampled odds through the rules, remembering each round's outcome for each state and dice
(engine.dice_tree): the same seed fights the very same battles as running every round, the
estimate agrees with the exact answer, and a tree that is full or meets a round it cannot
remember falls back to running the rules."""

from __future__ import annotations

import dataclasses
import json
import random
from functools import lru_cache

import pytest

from clients import odds
from clients.cli import main
from clients.odds_setup import set_up
from engine import dice_tree, plugins


@lru_cache(maxsize=4)
def ruleset(name: str):
    return plugins.load(name, {})


def figures(out: odds.Outcome) -> odds.Outcome:
    """An outcome without its count of rule runs (the one figure remembering changes)."""
    return dataclasses.replace(out, runs=0)


BATTLES = [
    ("lhtr", "2 inf, 1 ftr", "3 inf", "Kwantung", None),
    ("lhtr", "4 inf, 1 art, 1 tank, 1 ftr", "2 inf, 1 tank, 1 aa", "Caucasus", None),
    ("lhtr", "1 bb, 1 cv, 2 ftr, 1 dd", "1 cv, 1 ftr, 1 sub", "SZ 52", None),
    ("lhtr", "3 inf, 2 tank", "4 inf", None, 2),
    ("aarhe", "3 inf, 1 tank, 1 ftr", "3 inf, 1 art", "Caucasus", None),
    ("aarhe", "2 sub, 1 dd", "1 dd, 1 trn", "SZ 7", None),
]


@pytest.mark.parametrize("name, attacker, defender, where, retreat_after", BATTLES)
@pytest.mark.parametrize("seed", [0, 7])
def test_remembering_fights_the_same_battles_as_running_every_round(name, attacker, defender, where,
                                                                      retreat_after, seed) -> None:
    battle = set_up(ruleset(name), attacker, defender, where)
    every = odds.sampled(battle, 400, seed, retreat_after, remember=False)
    tree = odds.sampled(battle, 400, seed, retreat_after, remember=True)
    assert figures(tree) == figures(every)
    assert tree.runs < every.runs               # and the rules were run fewer times


def test_a_different_seed_fights_other_battles() -> None:
    battle = set_up(ruleset("lhtr"), "3 inf, 1 tank", "3 inf")
    assert odds.sampled(battle, 300, seed=1).attacker_survivors != odds.sampled(battle, 300, seed=2).attacker_survivors


@pytest.mark.parametrize("name, attacker, defender, where", [
    ("lhtr", "3 inf, 1 art, 1 tank", "3 inf", None),
    ("lhtr", "2 inf, 2 ftr, 1 bmb", "3 inf, 1 aa", "India"),
    ("lhtr", "1 bb, 1 cv, 2 ftr, 1 dd", "1 cv, 1 ftr, 1 sub", "SZ 52"),
    ("aarhe", "3 inf, 1 tank", "3 inf", "Caucasus"),
])
def test_exact_and_remembered_samples_agree_within_the_interval(name, attacker, defender, where) -> None:
    battle = set_up(ruleset(name), attacker, defender, where)
    exact = odds.exact(battle, budget=1_000_000)
    sampled = odds.sampled(battle, 4_000, seed=11)
    for p, (lo, hi) in ((exact.attacker_wins, sampled.interval), (exact.defender_wins, sampled.defender_interval)):
        assert lo <= p <= hi


def tree_for(battle: odds.Battle, **limits: int) -> dice_tree.Battles:
    fight = battle.rules.round("battle")
    return dice_tree.Battles(lambda s: fight(s, battle.where), battle.key, battle.state, **limits)


def fight_all(tree: dice_tree.Battles, n: int, seed: int) -> list[object]:
    rnd = random.Random(seed)
    return [tree.fight_one(rnd, odds.MOST_ROUNDS)[::2] for _ in range(n)]       # (end key, rounds)


@pytest.mark.parametrize("limit", [{"most_rolls": 40}, {"most_states": 2}, {"most_pieces": 30}])
def test_a_full_tree_runs_the_rules_and_fights_the_same_battles(limit) -> None:
    battle = set_up(ruleset("lhtr"), "4 inf, 1 art, 1 tank", "3 inf, 1 art")
    every = tree_for(battle, remember=False)
    full, roomy = tree_for(battle, **limit), tree_for(battle)
    want = fight_all(every, 300, 5)
    assert fight_all(full, 300, 5) == want == fight_all(roomy, 300, 5)
    assert full.stopped == "full" and not roomy.stopped
    assert full.rolls <= limit.get("most_rolls", 10**9) and full.states <= limit.get("most_states", 10**9)
    assert full.pieces <= limit.get("most_pieces", 10**9)
    assert roomy.rule_runs < full.rule_runs < every.rule_runs


def test_a_round_that_depends_on_more_than_the_units_standing_stops_the_tree() -> None:
    battle = set_up(ruleset("lhtr"), "3 inf, 1 tank", "4 inf")
    fight = battle.rules.round("battle")

    def third_round_rolls_a_die_first(state):
        if state.vars["battle_round"] >= 3:     # (not in the units standing: unalike rounds)
            state.roll(1, 6)
        return fight(state, battle.where)

    tree = dice_tree.Battles(third_round_rolls_a_die_first, battle.key, battle.state)
    rnd = random.Random(3)
    ends = [tree.fight_one(rnd, odds.MOST_ROUNDS) for _ in range(300)]
    assert tree.stopped == "unalike"
    runs = tree.rule_runs
    key, _, rounds = tree.fight_one(rnd, odds.MOST_ROUNDS)
    assert tree.rule_runs == runs + rounds + 1                 # every round through the rules now
    assert all(k == battle.key(s) for k, s, _ in ends)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_says_how_many_times_it_ran_the_rules(capsys) -> None:
    code, out, _ = run(capsys, "odds", "lhtr", "--attacker", "2 inf, 1 tank", "--defender", "2 inf",
                       "--samples", "2000", "--seed", "4", "--json")
    r = json.loads(out)
    assert code == 0 and r["method"] == "sampled" and r["battles"] == 2_000
    assert 0 < r["rule_runs"] < 2_000                          # far fewer than one per battle's round
    code, out, _ = run(capsys, "odds", "lhtr", "--attacker", "2 inf, 1 tank", "--defender", "2 inf")
    assert code == 0 and "rule runs" in out
