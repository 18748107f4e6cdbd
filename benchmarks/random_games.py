"""How fast the engine plays: N games in which every decision is answered by a uniformly
random choice among its options, with no invariant checks, timed in CPU time.

    python benchmarks/random_games.py bulge --games 20 [--seed 0] [--max-turns T] [--json]
    python benchmarks/random_games.py aarhe --games 5 --json      # 10-round games

Game i has seed SEED + i for the dice and `random.Random(SEED + i)` for the choices, so a run
is reproducible. Loading the rules is not timed. A ruleset of unlimited turns (lhtr, aarhe)
plays 10 turns (rounds) a game unless --max-turns says otherwise. Prints games_per_s,
actions_per_s, decisions_per_game (mean), cpu_s and games.

These machines are shared and noisy, so the run also times a baseline between the games: a
fixed piece of plain Python of the kind the compiled rules run (look-ups, small calls, short
comprehensions), in CPU time, interleaved so that a busy machine slows both alike. It prints
`game_in_baselines`, what one game costs in runs of the baseline: the figure to compare from
one run, or one change, to another (lower is faster). `--no-baseline` leaves it out.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402


def _step(n: int) -> int:
    return n + 1 if n & 1 else n >> 1


def baseline() -> int:
    """The baseline: about as much work as a few of a game's decisions, always the same."""
    table = {f"s{i}": i for i in range(150)}
    keys = [f"s{i}" for i in range(0, 300, 7)]
    total = 0
    for _ in range(60):
        for k in keys:
            total += table.get(k, 0)
        total += sum([_step(v) for v in range(40) if v & 1])
        total += len([k for k in keys if k in table])
    return total


#: baseline runs after each game
BASELINE_RUNS = 80


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    randplay.common_arguments(ap)
    ap.add_argument("--no-baseline", action="store_true", help="do not time the baseline between the games")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    rs = randplay.load(args)
    max_turns = randplay.turn_limit(rs, args)
    actions = 0
    failures = []
    cpu = base = 0.0
    for i in range(args.games):
        t0 = time.process_time()
        run = randplay.random_game(rs, args.seed + i, args.scenario, max_turns)
        cpu += time.process_time() - t0
        actions += run.actions
        if run.failure:
            failures.append({"seed": run.seed, "action_index": run.failure[0], "error": run.failure[1]})
        if not args.no_baseline:
            t0 = time.process_time()
            for _ in range(BASELINE_RUNS):
                baseline()
            base += time.process_time() - t0
    cpu = max(cpu, 1e-9)
    figures = {
        "ruleset": rs.name,
        "games": args.games,
        "games_per_s": args.games / cpu,
        "actions_per_s": actions / cpu,
        "decisions_per_game": actions / args.games,
        "cpu_s": cpu,
        "actions": actions,
        "seed": args.seed,
        "max_turns": max_turns,
        "failures": failures,
    }
    if not args.no_baseline:
        figures["baseline_s"] = base / (args.games * BASELINE_RUNS)
        figures["game_in_baselines"] = (cpu / args.games) / max(figures["baseline_s"], 1e-12)
    randplay.report(figures, args.json, ["ruleset", "games", "games_per_s", "game_in_baselines", "actions_per_s",
                                         "decisions_per_game", "cpu_s"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
