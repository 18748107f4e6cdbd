"""Soak test: many random games with invariants checked after every action.

    python benchmarks/soak.py bulge --games 2000 [--seed 0] [--workers 2] [--option NAME=VALUE] [--json]

Each decision is answered by a uniformly random choice (game i: seed SEED + i, as in
random_games.py). After every action the generic invariants hold for any ruleset: no piece
in two places (the index by space agrees with every piece), every piece stands on a board
space or in an off-board area (`area:name`, e.g. "offboard:Axis"), no resource is negative,
and cargo is in its carrier's space (engine/invariants.py); then each ruleset's of the chain,
from its `wargame_invariants` hook (Battle of the Bulge: stacking in combat, VP and the front
line, piece totals), and for lhtr and the layers over it (aarhe) those of
tests/lhtr/invariants.py (IPCs, the kind of space each unit is on, cargo, aircraft landed at
the end of each turn, placement, and AARHE's small islands and xenophobia). Reports games,
actions and every failure with its seed and action index; exits 1 if there was one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402

from engine import invariants  # noqa: E402
from engine.state import GameState  # noqa: E402


def generic_check(state: GameState, _n: int = 0) -> None:
    """The invariants of any ruleset's state; AssertionError names the ones broken."""
    broken = invariants.generic_problems(state)
    assert not broken, "; ".join(broken)


def checks_for(rs: Any) -> randplay.Check:
    """A fresh checker for one game of `rs`: the generic invariants, plus the rulesets' own."""
    previous: list[GameState | None] = [None]
    lhtr = None
    if "lhtr" in {i.name for i in rs.chain}:
        from tests.lhtr.invariants import Invariants  # plain code, no pytest

        lhtr = Invariants(rs)

    def check(state: GameState, n: int) -> None:
        broken = invariants.problems(rs, state, previous[0])
        previous[0] = state
        assert not broken, "; ".join(broken)
        if lhtr is not None:
            lhtr(state, n)

    return check


_RS: Any = None


def _play(job: tuple[argparse.Namespace, int]) -> randplay.Run:
    global _RS
    args, seed = job
    if _RS is None:
        _RS = randplay.load(args)
    return randplay.random_game(_RS, seed, args.scenario, randplay.turn_limit(_RS, args), check=checks_for(_RS))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    randplay.common_arguments(ap)
    ap.add_argument("--workers", type=int, default=1, help="games played in parallel processes")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    rs = randplay.load(args)          # a clean message now, not in a worker
    jobs = [(args, args.seed + i) for i in range(args.games)]
    t0, c0 = time.perf_counter(), time.process_time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            runs = list(pool.map(_play, jobs, chunksize=4))
    else:
        global _RS
        _RS = rs
        runs = [_play(job) for job in jobs]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    winners = Counter(str((r.result or {}).get("winner")) for r in runs if r.failure is None)
    failures = [{"seed": r.seed, "action_index": r.failure[0], "error": r.failure[1]}
                for r in runs if r.failure]
    figures = {
        "ruleset": rs.name,
        "games": len(runs),
        "actions": sum(r.actions for r in runs),
        "failures": failures,
        "winners": dict(winners),
        "wall_s": wall,
        "cpu_s": cpu if args.workers <= 1 else None,
        "seed": args.seed,
    }
    if not args.json:
        for f in failures:
            print(f"seed {f['seed']}, action {f['action_index']}: {f['error']}")
    randplay.report(figures, args.json, ["ruleset", "games", "actions", "failures"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
