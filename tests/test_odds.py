"""`wargame odds`: a battle's odds from the ruleset's own combat rules, held against figures
worked out here by a small separate calculation, against sampling through the same rules, and
against properties every battle must have; bad input gets one line and a non-zero exit."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from functools import cache, lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clients import odds
from clients.cli import main
from clients.odds_setup import set_up
from clients.odds_units import unit_type
from engine import plugins


@lru_cache(maxsize=4)
def ruleset(name: str, **options: str):
    return plugins.load(name, dict(options))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- a separate calculation: a land battle of units that each roll one die ------------------------------
def _hits(values: tuple[int, ...]) -> list[Fraction]:
    dist = [Fraction(1)]
    for v in values:
        p = Fraction(v, 6)
        dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                for k in range(len(dist) + 1)]
    return dist


def by_hand(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, both destroyed) of units rolling at these values, each
    side losing its units in the order given, every round both sides firing together."""

    @cache
    def ends(a: int, d: int) -> tuple[Fraction, Fraction, Fraction]:
        if a == 0 or d == 0:
            return (Fraction(int(a > 0)), Fraction(int(d > 0)), Fraction(int(a == d == 0)))
        ha, hd = _hits(attack[len(attack) - a:]), _hits(defence[len(defence) - d:])
        stay = ha[0] * hd[0]
        total = [Fraction(0)] * 3
        for i, pa in enumerate(ha):
            for j, pd in enumerate(hd):
                if i == j == 0:
                    continue
                sub = ends(max(a - j, 0), max(d - i, 0))
                for n in range(3):
                    total[n] += pa * pd * sub[n]
        return (total[0] / (1 - stay), total[1] / (1 - stay), total[2] / (1 - stay))

    return ends(len(attack), len(defence))


@pytest.mark.parametrize("attacker, defender, attack, defence", [
    ("1 inf", "1 inf", (1,), (2,)),
    ("2 inf", "1 inf", (1, 1), (2,)),
    ("1 tank", "2 infantry", (3,), (2, 2)),
    ("2 inf, 1 tank", "1 inf, 1 tank", (1, 1, 3), (2, 3)),        # infantry lost first on both sides
    ("1 ftr, 1 bmb", "2 inf", (3, 4), (2, 2)),
])
def test_exact_odds_match_a_separate_calculation(attacker, defender, attack, defence) -> None:
    out = odds.odds(set_up(ruleset("lhtr"), attacker, defender))
    assert out.exact
    want = by_hand(attack, defence)
    assert out.attacker_wins == pytest.approx(float(want[0]), abs=1e-9)
    assert out.defender_wins == pytest.approx(float(want[1]), abs=1e-9)
    assert out.both_destroyed == pytest.approx(float(want[2]), abs=1e-9)


def test_one_infantry_against_one_by_hand() -> None:
    # a round: the attacker hits 1 in 6, the defender 2 in 6; something happens 4 in 9
    out = odds.odds(set_up(ruleset("lhtr"), "1 inf", "1 inf"))
    assert (out.attacker_wins, out.defender_wins, out.both_destroyed) == pytest.approx((1 / 4, 5 / 8, 1 / 8))
    assert out.rounds == pytest.approx(9 / 4)
    assert out.attacker_cost_lost == pytest.approx(3 * (5 / 8 + 1 / 8))


def test_aa_fire_shoots_each_aircraft_in_the_first_round() -> None:
    # the fighter survives AA 5 in 6, then fights the infantry at 3 against 2: half the time
    out = odds.odds(set_up(ruleset("lhtr"), "1 fighter", "1 infantry, 1 aa gun"))
    assert out.attacker_wins == pytest.approx(5 / 6 * 1 / 2)


@pytest.mark.parametrize("attacker, defender, want", [
    # two destroyers at 3 against 3: each outcome a third
    ("1 dd", "1 dd", (1 / 3, 1 / 3, 1 / 3)),
    # a battleship (4, two hits) against a destroyer (3): worked out by hand from the states
    # "battleship whole" and "battleship damaged": 22/25, 1/25, 2/25
    ("1 bb", "1 dd", (22 / 25, 1 / 25, 2 / 25)),
    # a submarine's first strike (2) sinks the transport before it fires (1): 3/4 against 1/4
    ("1 sub", "1 trn", (3 / 4, 1 / 4, 0.0)),
])
def test_naval_battles_worked_out_by_hand(attacker: str, defender: str, want: tuple[float, float, float]) -> None:
    battle = set_up(ruleset("lhtr"), attacker, defender)
    assert battle.where.startswith("SZ")                 # ships fight at sea
    out = odds.odds(battle)
    assert (out.attacker_wins, out.defender_wins, out.both_destroyed) == pytest.approx(want)


# -- properties ------------------------------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2), st.integers(0, 2), st.integers(1, 4), st.integers(0, 2))
def test_the_chances_add_up_to_one(inf: int, art: int, tanks: int, d_inf: int, d_tanks: int) -> None:
    out = odds.odds(set_up(ruleset("lhtr"), f"{inf} inf, {art} art, {tanks} tank", f"{d_inf} inf, {d_tanks} tank"))
    assert out.attacker_wins + out.defender_wins + out.both_destroyed + out.both_standing == pytest.approx(1.0)
    assert sum(p for p, _ in out.attacker_survivors) == pytest.approx(1.0)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2), st.integers(1, 4), st.integers(0, 1))
def test_one_more_attacker_never_lowers_the_attackers_chance(inf: int, tanks: int, d_inf: int, d_art: int) -> None:
    rs = ruleset("lhtr")
    defender = f"{d_inf} inf, {d_art} art"
    before = odds.odds(set_up(rs, f"{inf} inf, {tanks} tank", defender)).attacker_wins
    after = odds.odds(set_up(rs, f"{inf + 1} inf, {tanks} tank", defender)).attacker_wins
    assert after >= before - 1e-12


def test_exact_and_sampled_agree_within_the_interval() -> None:
    battle = set_up(ruleset("lhtr"), "3 inf, 1 art, 1 tank", "3 inf")
    exact = odds.odds(battle)
    sampled = odds.odds(battle, samples=2_000, seed=3)
    assert exact.exact and not sampled.exact
    lo, hi = sampled.interval
    assert lo <= exact.attacker_wins <= hi
    lo, hi = sampled.defender_interval
    assert lo <= exact.defender_wins <= hi


def test_a_battle_past_the_budget_is_sampled_and_says_so() -> None:
    out = odds.odds(set_up(ruleset("lhtr"), "4 inf, 2 tank", "4 inf"), budget=50, fallback_samples=200)
    assert not out.exact and out.battles == 200 and "too large to enumerate" in out.note and out.interval is not None


def test_a_large_battle_is_sampled_at_once_and_in_bounded_time(monkeypatch) -> None:
    battle = set_up(ruleset("lhtr"), "60 inf", "60 inf")
    monkeypatch.setattr(odds, "exact", lambda *a, **k: pytest.fail("enumeration was tried"))
    began = time.process_time()
    out = odds.odds(battle, fallback_seconds=0.5)
    assert not out.exact and 100 <= out.battles < 2_000 and out.runs > 0
    assert time.process_time() - began < 30


# -- the rules change the odds ---------------------------------------------------------------------------
def test_aarhe_mountains_help_the_defender_in_the_first_round() -> None:
    mountain = odds.odds(set_up(ruleset("aarhe"), "3 inf, 1 tank", "3 inf", where="Caucasus")).attacker_wins
    flat = odds.odds(set_up(ruleset("aarhe", terrain_defence_bonus="0"), "3 inf, 1 tank", "3 inf",
                            where="Caucasus")).attacker_wins
    assert mountain < flat
    assert flat == pytest.approx(odds.odds(set_up(ruleset("lhtr"), "3 inf, 1 tank", "3 inf")).attacker_wins)


def test_aarhe_air_combat_values_change_an_air_battle() -> None:
    low = odds.odds(set_up(ruleset("aarhe"), "2 ftr", "1 inf, 1 ftr")).attacker_wins
    high = odds.odds(set_up(ruleset("aarhe", fighter_air_combat="4"), "2 ftr", "1 inf, 1 ftr")).attacker_wins
    assert low != pytest.approx(high)


def test_the_casualty_policy_changes_what_is_left() -> None:
    rs = ruleset("lhtr")
    triplea = odds.odds(set_up(rs, "2 inf, 1 art, 1 ftr", "3 inf"))
    planes_first = odds.odds(set_up(rs, "2 inf, 1 art, 1 ftr", "3 inf", order="fighter, artillery, infantry"))
    assert triplea.attacker_cost_lost != pytest.approx(planes_first.attacker_cost_lost)
    assert triplea.attacker_wins > planes_first.attacker_wins


def test_the_policy_takes_a_damaged_battleship_after_a_fresh_one() -> None:
    # the policy keeps each unit's place in its order by kind, side and damage: a battleship
    # takes its first hit before anything is lost, but once damaged it is the costliest loss
    battle = set_up(ruleset("lhtr"), "1 bb, 1 dd", "2 sub", "SZ 7")
    state = battle.state
    bb = next(p for p in state.pieces.values() if p.kind == "Battleship")
    dd = next(p for p in state.pieces.values() if p.kind == "Destroyer")
    assert battle.answer(bb.owner, "", [dd, bb]) is bb
    damaged = state.update(bb.id, hits=1)
    assert battle.answer(bb.owner, "", [damaged, dd]) is dd
    assert battle.answer(bb.owner, "", [dd, bb]) is bb


# -- names as players write them -------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind", [
    ("inf", "Infantry"), ("Infantry", "Infantry"), ("INFANTRIES", "Infantry"), ("art", "Artillery"),
    ("arm", "Tank"), ("tanks", "Tank"), ("armour", "Tank"), ("ftr", "Fighter"), ("bmb", "Bomber"),
    ("sub", "Submarine"), ("dd", "Destroyer"), ("bb", "Battleship"), ("cv", "AircraftCarrier"),
    ("carrier", "AircraftCarrier"), ("aircraft carriers", "AircraftCarrier"), ("trn", "Transport"),
    ("aa", "AAGun"), ("aa gun", "AAGun"), ("AAGuns", "AAGun"),
])
def test_unit_names_as_players_write_them(text: str, kind: str) -> None:
    assert unit_type(ruleset("lhtr").rules.units, text) == kind


@pytest.mark.parametrize("text", ["SZ 7", "7 Sea Zone", "sea zone 7", "sz7", "Sea Zone 7 (SZ 7)"])
def test_spaces_as_the_game_and_triplea_write_them(text: str) -> None:
    assert set_up(ruleset("lhtr"), "1 dd", "1 dd", where=text).where == "SZ 7"


def test_karelia_in_any_case_and_without_dots() -> None:
    for text in ("Karelia S.S.R.", "karelia s.s.r.", "KARELIA SSR"):
        assert set_up(ruleset("lhtr"), "1 inf", "1 inf", where=text).where == "Karelia S.S.R."


# -- the command -------------------------------------------------------------------------------------------
def test_the_command_prints_the_odds(capsys) -> None:
    code, out, err = run(capsys, "odds", "lhtr", "--attacker", "3 infantry, 1 artillery", "--defender", "2 infantry")
    assert code == 0 and err == ""
    assert "attacker wins" in out and "exact" in out and "TripleA" in out and "IPC" in out


def test_the_command_gives_json_and_a_plot(capsys, tmp_path) -> None:
    png = tmp_path / "odds.png"
    code, out, _ = run(capsys, "odds", "lhtr", "--attacker", "2 inf, 1 tank", "--defender", "2 inf", "--json",
                       "--where", "karelia s.s.r.", "--plot", str(png))
    assert code == 0
    r = json.loads(out)
    assert r["where"] == "Karelia S.S.R." and r["method"] == "exact"
    assert r["attacker_wins"] + r["defender_wins"] + r["both_destroyed"] + r["both_standing"] == pytest.approx(1)
    assert r["attacker_survivors"][0]["units"] and r["attacker_cost_lost"] > 0 and r["rounds"] > 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sampling_gives_its_interval(capsys) -> None:
    code, out, _ = run(capsys, "odds", "lhtr", "--attacker", "2 inf", "--defender", "1 inf", "--samples", "300",
                       "--seed", "5", "--json")
    r = json.loads(out)
    assert code == 0 and r["method"] == "sampled" and r["battles"] == 300
    lo, hi = r["attacker_wins_interval"]
    assert lo <= r["attacker_wins"] <= hi


def test_retreating_after_a_round_leaves_both_standing(capsys) -> None:
    code, out, _ = run(capsys, "odds", "lhtr", "--attacker", "2 inf", "--defender", "2 inf", "--retreat-after", "1",
                       "--json")
    r = json.loads(out)
    assert code == 0 and r["both_standing"] > 0.5 and r["rounds"] <= 1


@pytest.mark.parametrize("argv, said", [
    (["--attacker", "3 infantery", "--defender", "2 inf"], "did you mean `infantry`?"),
    (["--attacker", "1 battleship", "--defender", "2 inf", "--where", "Karelia S.S.R."], "cannot fight in Karelia"),
    (["--attacker", "", "--defender", "2 inf"], "the attacker has no units"),
    (["--attacker", "1 inf", "--defender", "2 inf", "--where", "Atlantis"], "no space `Atlantis`"),
    (["--attacker", "10000 inf", "--defender", "10000 inf"], "too many"),
    (["--attacker", "100 inf, 100 art, 100 tank", "--defender", "300 inf"], "at most"),
    (["--attacker", "1 inf", "--defender", "1 inf", "--order", "nonsense"], "no unit `nonsense`"),
    (["--attacker", "1 inf", "--defender", "1 inf", "--samples", "0"], "--samples"),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(capsys, argv, said) -> None:
    began = time.process_time()
    code, out, err = run(capsys, "odds", "lhtr", *argv)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("wargame: ") and said in err and "Traceback" not in err
    assert time.process_time() - began < 10


def test_a_ruleset_without_a_battle_or_an_attack_says_so(capsys) -> None:
    from tests.conftest import ROOT

    code, _, err = run(capsys, "--mod", str(ROOT / "examples" / "river-crossing"), "odds", "river-crossing",
                       "--attacker", "1 inf", "--defender", "1 inf")
    assert code != 0 and err.count("\n") == 1 and err.startswith("wargame: ") and "Traceback" not in err


# -- Battle of the Bulge: one attack ---------------------------------------------------------------------
def test_one_bulge_attack_by_hand(capsys) -> None:
    # two dice of 12 at two infantry boxes: a die misses 1/2 (7-12), else its face places it,
    # odd faces on the first box, even on the second: a box takes both dice 1/16 (destroyed),
    # one 2 * 1/4 * 3/4 (it retreats); both boxes are hit 2 * 1/4 * 1/4 (the hex is cleared)
    code, out, _ = run(capsys, "odds", "bulge", "--attacker", "2 inf", "--defender", "2 inf", "--json")
    r = json.loads(out)
    assert code == 0 and r["method"] == "exact" and r["attacker"]["dice"] == 2
    for u in r["defenders"]:
        assert (u["destroyed"], u["retreats"], u["untouched"]) == pytest.approx((1 / 16, 3 / 8, 9 / 16))
    assert r["hex_cleared"] == pytest.approx(1 / 8)
    assert r["attack_power_destroyed"] == pytest.approx(2 * 1 / 16)


def test_a_bulge_option_changes_one_attack(capsys) -> None:
    _, out, _ = run(capsys, "odds", "bulge", "--attacker", "1 tank", "--defender", "1 supply", "--json")
    plain = json.loads(out)
    assert plain["supply_destroyed"] == pytest.approx(1 - (1 / 2) ** 2)       # any hit destroys supply
    _, out, _ = run(capsys, "odds", "bulge", "--attacker", "1 tank", "--defender", "1 supply", "--json",
                    "--option", "hit_on=3")
    assert json.loads(out)["supply_destroyed"] == pytest.approx(1 - (3 / 4) ** 2)
    code, out, _ = run(capsys, "odds", "bulge", "--attacker", "1 tank", "--defender", "2 inf", "--where", "Bastogne")
    assert code == 0 and "Bastogne" in out and "the hex is cleared" in out


# -- a modder's new unit -----------------------------------------------------------------------------------
def test_a_mods_new_unit_is_named_and_fights_by_its_stats(capsys, tmp_path) -> None:
    mod = tmp_path / "commandos"
    mod.mkdir()
    (mod / "ruleset.json").write_text(json.dumps({"name": "commandos", "title": "Commandos", "extends": "lhtr",
                                                  "rules": ["commandos.rules"]}))
    (mod / "commandos.rules").write_text("extends lhtr\n"
                                         "unit Commando [land] { cost: 6  attack: 6  defence: 1  move: 1 }\n")
    code, out, err = run(capsys, "--mod", str(mod), "odds", "commandos", "--attacker", "1 commandos",
                         "--defender", "1 inf", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["attacker"]["units"] == {"Commando": 1}
    # it hits on 6, always, in the first round; the infantry hits back 1 in 3
    assert (r["attacker_wins"], r["both_destroyed"]) == pytest.approx((2 / 3, 1 / 3))


# -- the terminal: odds on the battle about to be fought ------------------------------------------------
def test_the_terminal_gives_the_odds_of_the_pending_battle() -> None:
    from engine.game import Game
    from tests.lhtr.play import situation
    from tests.test_terminal import play

    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 2), ("Tank", "Germany", "Caucasus", 1),
                                 ("Infantry", "USSR", "Caucasus", 2)], step="conduct_combat")
    game = Game(g.rs)
    game.state, game._decision = g.state, g.decision
    before = g.state.signature()
    code, console = play(game, ["odds", "odds Atlantis", "quit"])
    text = console.text
    assert "2 Infantry, 1 Tank (Germany) attack 2 Infantry (USSR) in Caucasus" in text
    want = odds.odds(set_up(ruleset("lhtr"), "2 inf, 1 tank", "2 inf")).attacker_wins
    assert f"attacker wins   {100 * want:6.2f}%" in text
    assert "no space `Atlantis`" in text
    assert game.state.signature() == before            # asking the odds changes nothing


def test_an_amphibious_assaults_bombardment(capsys) -> None:
    # the battleship hits 4 in 6 before the defender fires (its casualty does not fire back);
    # else it is one infantry against one: the attacker wins 1 in 4
    code, out, _ = run(capsys, "odds", "lhtr", "--attacker", "1 inf", "--defender", "1 inf", "--bombard", "1 bb",
                       "--where", "Karelia S.S.R.", "--json")
    assert code == 0 and json.loads(out)["attacker_wins"] == pytest.approx(2 / 3 + 1 / 3 * 1 / 4)
    code, _, err = run(capsys, "odds", "lhtr", "--attacker", "1 inf", "--defender", "1 inf", "--bombard", "1 bb",
                       "--where", "Russia")
    assert code != 0 and "no coast" in err
