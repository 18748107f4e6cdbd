"""`wargame simulate` as a player trying a house rule meets it: the report and its intervals,
the comparison on the same seeds, the --out file and --resume, the same games wherever they
run (here, in processes, on a Dask cluster), failing games, the plot, and every bad input
said in one line."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import dsl
from clients.cli import main
from clients.simulate import runner
from tests.conftest import ROOT

CROSSING = ["--mod", str(ROOT / "examples" / "river-crossing")]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def simulate_json(capsys, *argv):
    code, out, err = run(capsys, *CROSSING, "simulate", "river-crossing", "--json", *argv)
    assert code == 0, err
    return json.loads(out)


def games_of(path):
    """The game records of an --out file, by (rules, seed), without their seconds."""
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    records = {}
    for line in lines[1:]:
        r = json.loads(line)
        r.pop("seconds")
        records[(r["rules"], r["seed"])] = r
    return head, records


def in_group(group: int) -> list[int]:
    """The processes still alive (not zombies) in a process group, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue                    # gone meanwhile
        if fields[0] != "Z" and int(fields[2]) == group:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture()
def boom(tmp_path):
    """A mod over River Crossing whose rules, at the start of turn 3, divide by zero on the
    seeds whose die there shows 1 or 2, and spin through a billion steps on a 3."""
    mod = tmp_path / "boom"
    mod.mkdir()
    (mod / "ruleset.json").write_text(json.dumps({"name": "boom", "title": "River Crossing that fails",
                                                  "extends": "river-crossing", "rules": ["boom.rules"]}))
    (mod / "boom.rules").write_text(
        "extends river-crossing\n\n"
        "rule boom on turn_start(t) when t == 3 {\n"
        "    let die = roll(1, 6)[0]\n"
        "    if die <= 2 {\n"
        "        let zero = t - t\n"
        "        note(str(1 // zero))\n"
        "    } else if die == 3 {\n"
        "        let n = 0\n"
        "        for i in range(0, 100000) {\n"
        "            for j in range(0, 100000) {\n"
        "                n += 1\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n")
    return mod


def test_the_report_gives_wins_draws_length_and_the_measures_per_turn(capsys):
    code, out, _ = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "6", "--workers", "1")
    assert code == 0
    assert "6 games a rule set (seeds 0 to 5), scenario sambre, Blue=random, Red=random" in out
    assert "Blue wins" in out and "Red wins" in out and "draws" in out and "(95%: " in out
    assert "turns on average" in out and "s a game" in out
    # the rules' score (units left per side) followed turn by turn, 8 turns
    assert "turn  games" in out and "\n       8      6 " in out


def test_the_summary_counts_agree_with_the_games_and_wilson(capsys, tmp_path):
    out_file = tmp_path / "games.jsonl"
    s = simulate_json(capsys, "--games", "8", "--seed", "3", "--workers", "1", "--out", str(out_file))
    _, records = games_of(out_file)
    assert sorted(seed for _, seed in records) == list(range(3, 11))
    one = s["sets"][0]
    winners = [r["result"]["winner"] for r in records.values()]
    for side in ("Blue", "Red"):
        o = one["outcomes"][side]
        assert o["games"] == winners.count(side)
        lo, hi = o["ci95"]
        assert 0 <= lo <= o["rate"] <= hi <= 1 and hi - lo > 0.2     # 8 games: wide
    turns = [r["turns"] for r in records.values()]
    assert one["turns"]["mean"] == pytest.approx(sum(turns) / len(turns))
    first_turn = one["curves"]["Blue"][0]
    assert first_turn["games"] == 8
    assert first_turn["mean"] == pytest.approx(sum(r["curves"]["Blue"][0] for r in records.values()) / 8)


def test_a_game_is_the_game_wargame_play_plays_with_that_seed(capsys):
    s = simulate_json(capsys, "--games", "1", "--seed", "11", "--workers", "1", "--ai", "all=random")
    code, out, _ = run(capsys, *CROSSING, "play", "river-crossing", "--ai", "all=random", "--seed", "11", "--quiet")
    assert code == 0
    won = s["sets"][0]["outcomes"]
    winner = next(side for side in ("Blue", "Red") if won[side]["games"])
    assert f"result: winner: {winner}" in out
    assert f"actions: {round(s['sets'][0]['actions']['mean'])}" in out


@pytest.mark.parametrize("scenario", ["italy-1942", "aarhe-1939"])
def test_a_scenario_with_its_own_powers_is_played_as_wargame_play_plays_it(capsys, tmp_path, scenario):
    """A scenario's file gives its own powers, turn order and sides (Italy; France and China):
    simulate plays the game `wargame play` plays, every power of the scenario in its turn."""
    out_file = tmp_path / "games.jsonl"
    code, _, err = run(capsys, "simulate", "lhtr", "--scenario", scenario, "--games", "1", "--seed", "3",
                       "--max-turns", "1", "--ai", "all=random", "--workers", "1", "--out", str(out_file), "--json")
    assert code == 0, err
    _, records = games_of(out_file)
    record = records[("tried", 3)]
    assert "error" not in record, record["error"]
    code, out, _ = run(capsys, "play", "lhtr", "--scenario", scenario, "--no-gui", "--ai", "all=random", "--seed", "3",
                       "--max-turns", "1", "--quiet")
    assert code == 0
    assert f"actions: {record['actions']}" in out


def test_the_same_seeds_give_the_same_games_in_one_process_and_in_two(capsys, tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    simulate_json(capsys, "--games", "6", "--workers", "1", "--out", str(one), "--against-option", "hit_on=2")
    simulate_json(capsys, "--games", "6", "--workers", "2", "--out", str(two), "--against-option", "hit_on=2")
    assert games_of(one) == games_of(two)
    _, records = games_of(one)
    assert len(records) == 12 and {r for r, _ in records} == {"tried", "base"}
    assert records[("base", 0)]["options"] == {"hit_on": "2"}


def test_the_hand_written_player_plays_the_same_game_in_every_process(tmp_path):
    """`simulate`'s workers, and `wargame play --seed`, are processes of their own, each with
    its own string hash seed and memory: the hand-written AARHE player (its battle odds from
    the rules, held to a budget a decision) plays a seed's game alike in every one. (Seed 541
    over two rounds played 901 to 968 actions, one run to the next, while the odds' budget was
    read from the CPU clock and a decision was known by its state's id().)"""
    games = []
    for hash_seed in ("1", "2"):
        out_file = tmp_path / f"hash{hash_seed}.jsonl"
        argv = [sys.executable, "-m", "clients", "simulate", "aarhe", "--games", "1", "--seed", "541",
                "--max-turns", "2", "--workers", "1", "--json", "--out", str(out_file)]
        done = subprocess.run(argv, capture_output=True, cwd=ROOT, timeout=300,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr.decode()
        games.append(games_of(out_file)[1])
    assert games[0] == games[1]
    record = games[0][("tried", 541)]
    assert "error" not in record and record["turns"] == 2 and record["players"] == {"Allies": "heuristic",
                                                                                   "Axis": "heuristic"}


def test_a_dask_cluster_plays_the_same_games(capsys, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    simulate_json(capsys, "--games", "4", "--workers", "1", "--out", str(here))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        simulate_json(capsys, "--games", "4", "--cluster", cluster.scheduler_address, "--out", str(there))
    assert games_of(here) == games_of(there)


@pytest.mark.slow
def test_a_cluster_started_as_the_readme_says_plays_the_same_games(capsys, tmp_path):
    """`dask scheduler` and `dask worker` as separate processes on the loopback address (the
    games and their records cross a process boundary, as on a real cluster); then the
    scheduler without its worker is said in one line."""
    pytest.importorskip("dask.distributed")
    import socket

    dask = Path(sys.executable).parent / "dask"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": ROOT}
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], **quiet)
    worker = subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1",
                               "--no-dashboard"], **quiet)
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    try:
        simulate_json(capsys, "--games", "3", "--workers", "1", "--out", str(here))
        simulate_json(capsys, "--games", "3", "--cluster", address, "--out", str(there))
        worker.terminate()
        worker.wait(30)
        code, out, err = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "1", "--cluster", address)
    finally:
        for p in (worker, scheduler):
            p.terminate()
            p.wait(30)
    assert games_of(here)[1] == games_of(there)[1]
    assert code == 1 and err.count("\n") == 1 and f"has no workers: start one with `dask worker {address}`" in err


def test_a_cluster_that_does_not_answer_is_one_line_that_says_how_to_start_one(capsys, monkeypatch):
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(runner, "CLUSTER_TIMEOUT", 1.0)
    code, out, err = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "2",
                         "--cluster", "tcp://127.0.0.1:1")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "no Dask scheduler answers at tcp://127.0.0.1:1" in err
    assert "`dask scheduler`" in err and "`dask worker tcp://127.0.0.1:1`" in err


def test_a_comparison_plays_the_same_seeds_and_finds_a_big_change(capsys):
    # with no town to take, Blue wins at the end of its first move: every game changes hands
    s = simulate_json(capsys, "--games", "10", "--workers", "1", "--option", "goal=[]", "--against", "river-crossing")
    c = s["comparison"]
    assert c["paired_games"] == 10
    assert c["sides"]["Blue"]["difference"] == pytest.approx(1.0 - c["sides"]["Blue"]["base"])
    lo, hi = c["sides"]["Blue"]["ci95"]
    assert 0 < lo <= hi <= 1
    assert c["found"] and c["verdict"].startswith("the balance moved: Blue wins")


def test_the_same_rules_twice_find_no_difference_and_say_how_many_games_would(capsys):
    code, out, _ = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "6", "--workers", "1",
                       "--against", "river-crossing")
    assert code == 0
    assert "paired on the same 6 seeds" in out and "0 seeds ended otherwise" in out
    assert "verdict: no difference found; about " in out and "games a side would find a 5-point change" in out


def test_a_failing_game_is_recorded_with_its_seed_and_the_run_goes_on(capsys, tmp_path, boom):
    out_file = tmp_path / "boom.jsonl"
    try:
        code, out, _ = run(capsys, *CROSSING, "--mod", str(boom), "--rules-budget", "1000000", "simulate", "boom",
                           "--games", "8", "--workers", "2", "--out", str(out_file))
    finally:
        dsl.set_limits(steps=dsl.DEFAULT_STEPS, items=dsl.DEFAULT_ITEMS)     # the budget as the next test expects
    assert code == 0
    _, records = games_of(out_file)
    failed = sorted(seed for (_, seed), r in records.items() if "error" in r)
    assert failed and len(failed) < 8
    errors = [records[("tried", seed)]["error"] for seed in failed]
    assert all("division by zero" in e or "took more than 1,000,000 steps" in e for e in errors)
    assert any("division by zero" in e for e in errors) and any("1,000,000 steps" in e for e in errors)
    assert f"failed: {len(failed)} game" in out and f"seeds {', '.join(map(str, failed))}" in out
    assert str(out_file) in out
    assert f"{8 - len(failed)} game" in out


def test_resume_goes_on_from_the_file_and_keeps_every_game(capsys, tmp_path):
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    simulate_json(capsys, "--games", "6", "--workers", "1", "--out", str(whole))
    simulate_json(capsys, "--games", "3", "--workers", "1", "--out", str(part))
    with part.open("a") as f:
        f.write('{"rules":"tried","seed":3,"opt')          # a run killed while writing a game
    s = simulate_json(capsys, "--games", "6", "--workers", "1", "--out", str(part), "--resume")
    assert s["sets"][0]["finished"] == 6
    assert games_of(part) == games_of(whole)


def test_resume_refuses_a_file_from_other_settings(capsys, tmp_path):
    out_file = tmp_path / "games.jsonl"
    simulate_json(capsys, "--games", "2", "--workers", "1", "--out", str(out_file))
    before = out_file.read_text()
    code, out, err = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "2", "--workers", "1",
                         "--option", "hit_on=4", "--out", str(out_file), "--resume")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "written with other settings" in err and "hit_on" in err
    assert out_file.read_text() == before
    code, _, err = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "2", "--out", str(out_file))
    assert code == 1 and "already exists: add --resume" in err and out_file.read_text() == before
    with out_file.open("a") as f:
        f.write('{"rules": "tried", "seed": 7}\n{"rules": "tried", "seed": 8')
    code, _, err = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "9", "--workers", "1",
                       "--out", str(out_file), "--resume")
    assert code == 1 and f"{out_file}:4: not a game's record" in err


def test_the_rules_own_measures_are_followed_in_bulge_and_lhtr(capsys):
    code, out, _ = run(capsys, "simulate", "bulge", "--games", "1", "--max-turns", "1", "--ai", "all=random",
                       "--workers", "1", "--json")
    assert code == 0
    curves = json.loads(out)["sets"][0]["curves"]
    assert set(curves) == {"Axis VP", "Axis supply on board", "Allies supply on board"}
    code, out, _ = run(capsys, "simulate", "lhtr", "--games", "1", "--max-turns", "1", "--ai", "all=random",
                       "--workers", "1", "--json")
    s = json.loads(out)
    stopped = s["sets"][0]["outcomes"]["stopped"]
    assert code == 0 and s["max_turns"] == 1 and stopped["games"] == 1
    assert sum(stopped["leading"].values()) == 1 and set(stopped["leading"]) == {"Axis", "Allies", "none"}
    assert set(s["sets"][0]["curves"]) == {"Axis income", "Allies income", "Axis victory cities",
                                           "Allies victory cities"}


def test_the_plot_is_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "balance.png"
    code, out, _ = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "4", "--workers", "1",
                       "--against-option", "hit_on=2", "--plot", str(png))
    assert code == 0 and f"plot: {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000


@pytest.mark.parametrize("argv, said", [
    (["--games", "0"], "--games wants a whole number of at least 1"),
    (["--games", "2", "--ai", "Blue=genius"], "no computer player `genius`"),
    (["--games", "2", "--ai", "Green=random"], "no side `Green`"),
    (["--games", "2", "--option", "hit_on=x"], "`x` is not a whole number"),
    (["--games", "2", "--against-option", "hit_on=99999999"], "--against-option `hit_on`"),
    (["--games", "2", "--option", "nope=1"], "unknown option `nope`"),
    (["--games", "2", "--scenario", "moon"], "no scenario `moon`"),
    (["--games", "2", "--against", "bulge"], "a comparison needs the same sides"),
    (["--games", "2", "--against", "nosuch"], "no ruleset called `nosuch`"),
    (["--games", "2", "--resume"], "--resume goes on from the file --out names"),
    (["--games", "2", "--plot", "x.jpg"], "give a file name ending in .png"),
    (["--games", "2", "--cluster", "nowhere"], "not a scheduler's address"),
    (["--games", "2", "--workers", "100000"], "at most 256 processes"),
    (["--games", "99999999999"], "at most 1,000,000 games a run"),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(capsys, argv, said):
    code, out, err = run(capsys, *CROSSING, "simulate", "river-crossing", *argv)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and said in err and "Traceback" not in err


def test_an_unknown_mod_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "--mod", str(tmp_path / "none"), "simulate", "bulge", "--games", "2")
    assert code == 1 and err.count("\n") == 1 and "ruleset.json" in err


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path):
    argv = [sys.executable, "-m", "clients", *CROSSING, "simulate", "river-crossing", "--games", "3", "--workers", "1"]
    env = {**os.environ, "COLUMNS": "100"}
    leader, follower = pty.openpty()
    done = subprocess.run(argv, stdout=follower, stderr=subprocess.PIPE, cwd=ROOT, env=env, timeout=120)
    os.close(follower)
    os.close(leader)
    assert done.returncode == 0 and "3/3" in done.stderr.decode() and "game/s" in done.stderr.decode()
    piped = subprocess.run([*argv, "--json"], capture_output=True, cwd=ROOT, env=env, timeout=120)
    assert piped.returncode == 0 and piped.stderr == b"" and json.loads(piped.stdout)["games"] == 3


def test_ctrl_c_keeps_the_finished_games_and_leaves_nothing_running(tmp_path):
    out_file = tmp_path / "games.jsonl"
    argv = [sys.executable, "-m", "clients", "simulate", "bulge", "--games", "60", "--ai", "all=random",
            "--workers", "2", "--out", str(out_file)]

    def own_group_with_ctrl_c() -> None:      # as a terminal's Ctrl+C reaches a command and its workers
        os.setpgrp()
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                         preexec_fn=own_group_with_ctrl_c)
    try:
        deadline = time.monotonic() + 60
        while (not out_file.exists() or out_file.read_text().count("\n") < 3) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130 and b"wargame: interrupted" in err and b"Traceback" not in err
    time.sleep(0.2)
    assert in_group(p.pid) == []
    _, records = games_of(out_file)
    assert 2 <= len(records) < 60 and all("result" in r for r in records.values())


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_run_killed_keeps_the_finished_games_and_leaves_no_worker_running(tmp_path, how):
    """`kill PID` (or kill -9) of the command alone, as a batch system or a user stops it: the
    finished games stay in the file, and its workers end too."""
    out_file = tmp_path / "games.jsonl"
    argv = [sys.executable, "-m", "clients", "simulate", "bulge", "--games", "60", "--ai", "all=random",
            "--workers", "2", "--out", str(out_file)]
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                         preexec_fn=os.setpgrp)
    try:
        deadline = time.monotonic() + 60
        while (not out_file.exists() or out_file.read_text().count("\n") < 3) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(p.pid, how)                 # the command's process alone, not its group
        _, err = p.communicate(timeout=30)
        deadline = time.monotonic() + 10
        while in_group(p.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = in_group(p.pid)
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert left == []
    assert b"Traceback" not in err
    _, records = games_of(out_file)
    assert 2 <= len(records) < 60 and all("result" in r for r in records.values())


def test_a_player_given_time_a_decision_is_said_to_depend_on_the_machine(capsys):
    """The search player with seconds a decision searches as far as the CPU it gets allows, so
    the report does not let its games pass for repeatable; the other players are silent."""
    code, out, _ = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "1", "--workers", "1",
                       "--ai", "Blue=search:0.01", "--ai", "Red=random")
    assert code == 0
    assert "note: search:0.01 searches for 0.01 s of CPU a decision, so its games depend on the machine's" in out
    assert simulate_json(capsys, "--games", "1", "--workers", "1")["notes"] == []


def test_games_all_stopped_at_the_turn_limit_give_no_win_rate_verdict(capsys):
    code, out, _ = run(capsys, *CROSSING, "simulate", "river-crossing", "--games", "3", "--workers", "1",
                       "--max-turns", "1", "--against-option", "hit_on=2")
    assert code == 0 and "stopped, no result" in out
    assert "verdict: no game reached a result under either rule set before the turn limit" in out


def test_wilsons_interval_has_its_textbook_values():
    from clients.simulate.stats import wilson

    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
@example(1, 0, 0, 1)              # every seed agreeing: still an interval, not a point
def test_the_paired_difference_lies_inside_its_interval(a, b, c, d):
    from clients.simulate.stats import Paired

    pair = Paired(a, b, c, d)
    lo, hi = pair.interval()
    assert -1 <= lo <= pair.difference + 1e-12 and pair.difference - 1e-12 <= hi <= 1
    if pair.n and b == c:           # no more seeds one way than the other: an interval around 0
        assert lo < 0 < hi or pair.n == 0
    assert pair.games_to_find(0.05) >= 1
    more = Paired(4 * a, 4 * b, 4 * c, 4 * d)    # four times the seeds, the same rates: a narrower interval
    if pair.n:
        mlo, mhi = more.interval()
        assert mhi - mlo < hi - lo


def test_help_lists_simulate_and_its_options(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "simulate" in out and "95% intervals" in out
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "--against-option NAME=VALUE" in out and "--cluster tcp://HOST:PORT" in out
