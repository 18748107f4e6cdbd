"""The benchmark scripts run and report their figures (their speed is not asserted)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def bench(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_random_games_reports_its_figures_as_json():
    done = bench("benchmarks/random_games.py", "bulge", "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for key in ("games_per_s", "actions_per_s", "decisions_per_game", "cpu_s"):
        assert figures[key] > 0, key
    assert figures["games"] == 2 and figures["failures"] == []


def test_random_games_stops_at_max_turns():
    done = bench("benchmarks/random_games.py", "bulge", "--games", "1", "--max-turns", "1", "--json")
    whole = bench("benchmarks/random_games.py", "bulge", "--games", "1", "--json")
    assert done.returncode == 0 == whole.returncode
    assert 0 < json.loads(done.stdout)["decisions_per_game"] < json.loads(whole.stdout)["decisions_per_game"]


def test_a_ruleset_of_unlimited_rounds_plays_ten_of_them():
    done = bench("benchmarks/random_games.py", "aarhe", "--games", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["max_turns"] == 10 and figures["games_per_s"] > 0 and figures["failures"] == []


def test_soak_checks_lhtrs_invariants_for_lhtr_and_its_layers():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from soak import checks_for
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from engine import plugins

    rs = plugins.load("lhtr")
    state = rs.logic.new_state("revised-1942", 0)
    check = checks_for(rs)
    check(state, 0)
    tank = state.add_piece("Tank", "UK", "SZ 7")
    try:
        check(state, 1)
    except AssertionError as e:
        assert f"UK Tank #{tank.id} is at sea in SZ 7, aboard nothing" in str(e)
    else:
        raise AssertionError("a tank at sea went unseen")


def test_soak_checks_invariants_and_reports_as_json():
    done = bench("benchmarks/soak.py", "bulge", "--games", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["games"] == 1 and figures["actions"] > 0
    assert figures["failures"] == []


def test_an_unknown_ruleset_is_a_clean_message():
    done = bench("benchmarks/random_games.py", "lhtr-nonexistent", "--games", "1")
    assert done.returncode == 2
    assert "no ruleset called `lhtr-nonexistent`" in done.stderr and "Traceback" not in done.stderr


def test_a_soak_failure_names_its_seed_and_action():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import randplay
        from soak import generic_check
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from engine import plugins

    rs = plugins.load("bulge")

    def broken(state, n):
        generic_check(state)
        assert n < 5, "five actions are too many"

    run = randplay.random_game(rs, 7, check=broken)
    assert run.seed == 7 and run.failure[0] == 5
    assert run.failure[1].startswith("invariant broken: five actions are too many")


def test_ai_vs_random_reports_wins_and_their_interval():
    done = bench("benchmarks/ai_vs_random.py", "lhtr", "--games", "2", "--side", "Axis", "--max-turns", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["games"] == 2 and figures["wins"] + figures["draws"] + figures["losses"] == 2
    assert 0 <= figures["ci95_low"] <= figures["win_rate"] <= figures["ci95_high"] <= 1
    assert figures["player"] == "heuristic" and figures["s_per_game"] > 0


def test_compare_times_this_tree_against_a_baseline_revision_in_the_same_run():
    done = bench("benchmarks/compare.py", "bulge", "--base", "HEAD", "--games", "1", "--repeats", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["actions"] == figures["base_actions"] > 0       # the same games in both trees
    assert figures["same_play"] is True                             # (by the digest of every action and end)
    assert figures["ratio"] == pytest.approx(figures["this_cpu_s"] / figures["base_cpu_s"])
    no_valgrind = subprocess.run([sys.executable, "benchmarks/compare.py", "bulge", "--base", "HEAD", "--instructions"],
                                 cwd=ROOT, capture_output=True, text=True, timeout=60, env={"PATH": ""})
    assert no_valgrind.returncode == 2 and "valgrind, which is not installed" in no_valgrind.stderr
    bad = bench("benchmarks/compare.py", "bulge", "--base", "no-such-revision")
    assert bad.returncode != 0 and "cannot check out `no-such-revision`" in bad.stderr and "Traceback" not in bad.stderr


def test_listing_repeats_says_how_much_listing_repeats_the_decision_before():
    done = bench("benchmarks/listing_repeats.py", "bulge", "--games", "1", "--max-turns", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert 0 < figures["repeated_cpu_s"] <= figures["listing_cpu_s"]
    assert figures["repeated_share"] == pytest.approx(figures["repeated_cpu_s"] / figures["listing_cpu_s"])
    assert sum(m["cpu_s"] for m in figures["moves"].values()) == pytest.approx(figures["listing_cpu_s"])
    assert "axis_move.move" in figures["moves"]
    bad = bench("benchmarks/listing_repeats.py", "no-such-ruleset")
    assert bad.returncode == 2 and "no ruleset called `no-such-ruleset`" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("script", ["random_games.py", "listing_repeats.py"])
def test_the_random_game_scripts_refuse_no_games(script):
    done = bench(f"benchmarks/{script}", "bulge", "--games", "0")
    assert done.returncode == 2 and "--games must be at least 1" in done.stderr


@pytest.mark.slow
def test_compare_measures_against_a_revision_older_than_its_random_player():
    # 4476304, issue 32's Bulge baseline, has no benchmarks/randplay.py, and its engine loads
    # every ruleset this environment lists; its random player draws as rng.choice, so the
    # games differ: the figure is per action
    done = bench("benchmarks/compare.py", "bulge", "--base", "4476304", "--games", "1", "--repeats", "1",
                 "--play-differs", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["per"] == "action" and figures["base_actions"] > 0 and figures["ratio"] > 0


def test_the_odds_table_answers_the_eight_revised_battles():
    done = bench("benchmarks/odds_table.py")
    assert done.returncode == 0, done.stderr
    for where in ("Karelia", "Caucasus", "India", "Anglo Egypt", "West Russia", "SZ 7", "SZ 52", "Kwantung"):
        assert where in done.stdout
    assert "battles a second" in done.stdout


def test_odds_speed_reports_sampled_battles_a_second_both_ways_on_the_same_battles():
    done = bench("benchmarks/odds_speed.py", "--samples", "30", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["battles"]
    assert {(r["ruleset"], r["size"]) for r in rows} == {(n, s) for n in ("lhtr", "aarhe")
                                                         for s in ("small", "medium", "large")}
    for r in rows:
        assert r["same_battles"] is True and r["remembered_per_s"] > 0 and r["every_round_per_s"] > 0
        assert 0 < r["rule_runs_remembered"] <= r["rule_runs_every_round"]


def test_simulate_scale_reports_overhead_and_speedup_on_the_same_games():
    done = bench("benchmarks/simulate_scale.py", "bulge", "--games", "2", "--ai", "all=random", "--max-turns", "1",
                 "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["same_games"] is True and figures["games"] == 2
    for key in ("direct_cpu_s", "simulate_cpu_s", "wall_1_worker_s", "wall_2_workers_s", "speedup_2_workers"):
        assert figures[key] > 0, key


def test_a_benchmark_plays_a_scenario_with_its_own_powers():
    """--scenario aarhe-1939 brings its eight powers, their order and sides, as `wargame play` does."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import randplay
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    ap = argparse.ArgumentParser()
    randplay.common_arguments(ap)
    rs = randplay.load(ap.parse_args(["lhtr", "--scenario", "aarhe-1939"]))
    assert rs.options["turn_order"] == ["USSR", "Germany", "Italy", "UK", "France", "Japan", "China", "US"]
    assert rs.logic.side_of("France") == "Allies" and rs.logic.side_of("Italy") == "Axis"
    run = randplay.random_game(rs, 1, "aarhe-1939", max_turns=1)
    assert run.failure is None


def test_route_choices_reports_its_figures():
    done = bench("benchmarks/route_choices.py", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert "reach:" in done.stdout and "x reach" in done.stdout


def test_the_in_place_ceiling_plays_the_same_games_both_ways():
    done = bench("benchmarks/in_place_ceiling.py", "bulge", "--games", "1", "--repeats", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["same_play"] is True and figures["with_copies_cpu_s"] > 0 < figures["in_place_cpu_s"]
