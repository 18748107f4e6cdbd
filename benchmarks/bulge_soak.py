"""Soak test: many random Battle of the Bulge games with every invariant checked after every
action (the suite plays 200; this plays as many as you ask, on both cores).

    python benchmarks/bulge_soak.py --games 2000 [--start 0] [--option NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import plugins  # noqa: E402
from tests.bulge import invariants  # noqa: E402

_RS = None


def _play(args: tuple[int, tuple[tuple[str, str], ...]]) -> tuple[int, str, int, str]:
    global _RS
    seed, options = args
    if _RS is None:
        _RS = plugins.load("bulge", options=dict(options))
    rs = _RS
    try:
        game = invariants.play_checked(rs, seed)
        return seed, str(game.result.winner), len(game.actions), ""
    except Exception as e:  # a broken invariant or a crash: report the seed to replay it
        return seed, "error", 0, f"{type(e).__name__}: {e}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    options = tuple(tuple(o.split("=", 1)) for o in a.option)
    t0 = time.perf_counter()
    wins: Counter[str] = Counter()
    failures = []
    actions = 0
    with ProcessPoolExecutor(a.workers) as pool:
        for seed, winner, n, error in pool.map(_play, [(s, options) for s in range(a.start, a.start + a.games)]):
            wins[winner] += 1
            actions += n
            if error:
                failures.append((seed, error))
                print(f"seed {seed}: {error}", flush=True)
    dt = time.perf_counter() - t0
    print(f"{a.games} games in {dt:.1f} s ({dt / a.games:.2f} s a game, {actions / dt:.0f} actions/s): "
          f"Axis {wins['Axis']}, Allies {wins['Allies']}, errors {len(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
