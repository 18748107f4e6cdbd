"""How `wargame simulate` scales and what it costs, in one run on the same games:

    python benchmarks/simulate_scale.py [RULESET] [--games 8] [--ai SIDE=PLAYER] [--max-turns T] [--json]

1. the games played directly, a plain loop of the computer players' choices and
   `engine.flow.apply` (no records, no measures, no file), timed in CPU seconds;
2. the same games through simulate's game function in this process (`runner.run_here`),
   each right after its direct twin, in CPU seconds: `overhead` = (2) / (1) - 1, what simulate adds to a game (aim: at most 5%);
3. the same games through simulate with one worker and with two (`runner.run_local`), in
   wall seconds: `speedup_2_workers` = one / two (aim: at least 1.8 on two cores).

Game i has seed i, as `wargame simulate --seed 0` plays it; the players are the ruleset's
own unless --ai says otherwise. Checks that (1) and (2) played the same games (the same
winners and actions). `cores_used_by_2_workers` is the workers' CPU seconds over their wall
seconds: below 2, the machine did not give them two whole cores; `cpu_efficiency_2_workers`
is the CPU the games took in this process over what they took in the two workers (1: the
pool costs nothing; twice it bounds the speedup on two free cores). Wall time is shared
with whatever else runs on the machine, and Linux's autogroup scheduling (on where
/proc/sys/kernel/sched_autogroup_enabled is 1) gives one terminal session one share of a busy
machine however many processes it starts: run it on a quiet machine for figures to quote.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clients import seats  # noqa: E402
from clients.simulate.games import Setup, loaded, play_game, turn_limit  # noqa: E402
from clients.simulate.runner import run_here, run_local  # noqa: E402
from engine import flow  # noqa: E402


def direct(rs: Any, setup: Setup, seed: int) -> tuple[str | None, int]:
    """One game played straight on the engine: the winner (None: none) and the actions."""
    computer = seats.assign(rs, [f"{side}={name}" for side, name in setup.players], seed=seed)
    state = rs.logic.new_state(setup.scenario, seed)
    decision = flow.start(rs, state)
    actions = 0
    while decision is not None and (setup.max_turns is None or state.turn <= setup.max_turns):
        action = computer[seats.seat_of(rs, decision.player)].choose(rs, state, decision)
        state, decision = flow.apply(rs, state, action)
        actions += 1
    return (state.result or {}).get("winner") or None, actions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default="bulge")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--ai", action="append", default=[], metavar="SIDE=PLAYER")
    ap.add_argument("--max-turns", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error("--games must be at least 2 (two workers need two games)")
    probe = Setup(ruleset=args.ruleset)
    rs = loaded(probe)
    _, default = seats.available_players(rs)
    wanted = seats.chosen(rs, ["all=" + default, *args.ai])
    max_turns = turn_limit(rs, args.max_turns)
    setup = Setup(ruleset=args.ruleset, scenario=rs.info.scenario(None).name,
                  players=tuple((s, wanted[s]) for s in seats.sides(rs)), max_turns=max_turns)
    seeds = list(range(args.games))
    play_game(setup, 0)           # the map read and the players' tables made once, before any clock

    # each game played both ways one after the other, so that both see the machine alike
    plain: list[tuple[str | None, int]] = []
    records: list[dict[str, Any]] = []
    direct_cpu = simulate_cpu = 0.0
    for seed in seeds:
        t0 = time.process_time()
        plain.append(direct(rs, setup, seed))
        t1 = time.process_time()
        run_here([(setup, seed, "tried")], records.append)
        direct_cpu += t1 - t0
        simulate_cpu += time.process_time() - t1
    same = [(r["result"]["winner"], r["actions"]) for r in records] == plain

    walls = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        run_local([(setup, seed, "tried") for seed in seeds], workers, lambda r: None)
        walls[workers] = time.perf_counter() - t0
    # the two workers' CPU seconds (reaped when the pool shut down), to tell a slow machine from a slow pool
    workers_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)

    figures = {
        "ruleset": args.ruleset,
        "games": args.games,
        "players": dict(setup.players),
        "max_turns": max_turns,
        "direct_cpu_s": direct_cpu,
        "simulate_cpu_s": simulate_cpu,
        "overhead": simulate_cpu / direct_cpu - 1,
        "wall_1_worker_s": walls[1],
        "wall_2_workers_s": walls[2],
        "speedup_2_workers": walls[1] / walls[2],
        "cpu_2_workers_s": workers_cpu.ru_utime + workers_cpu.ru_stime,
        "cores_used_by_2_workers": (workers_cpu.ru_utime + workers_cpu.ru_stime) / walls[2],
        "cpu_efficiency_2_workers": simulate_cpu / (workers_cpu.ru_utime + workers_cpu.ru_stime),
        "same_games": same,
    }
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key:20} {value:.4g}" if isinstance(value, float) else f"{key:20} {value}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
