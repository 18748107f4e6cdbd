"""Sampled battles through the rules per second: each round run once per distinct state and
dice and then replayed (engine.dice_tree), against every round of every battle run through the
rules, for a small, a medium and a large Revised battle in LHTR and AARHE (and with --table the
eight battles of benchmarks/odds_table.py), in CPU time, in one run.

    python benchmarks/odds_speed.py [--samples 2000] [--seed 1] [--table] [--json]

Both ways fight the same battles (same seed): the benchmark checks it and says so. Timed with
`time.process_time` (CPU time of this process) after one short warm-up of each ruleset."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients import odds  # noqa: E402
from clients.odds_setup import set_up  # noqa: E402
from engine import plugins  # noqa: E402

#: (size, space, attacker, defender): the battle calculator's usual examples
BATTLES = [
    ("small", "Kwantung", "2 inf, 1 ftr", "3 inf"),
    ("medium", "Caucasus", "6 inf, 2 art, 2 tank, 1 ftr", "3 inf, 1 art, 1 tank, 1 aa"),
    ("large", "West Russia", "9 inf, 2 art, 3 tank, 2 ftr", "3 inf, 1 art, 1 tank"),
]


def table() -> list[tuple[str, str, str, str]]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from odds_table import BATTLES as TABLE

    return [("table", where, a, d) for where, a, d in TABLE]


def timed(battle: odds.Battle, samples: int, seed: int, remember: bool) -> tuple[float, odds.Outcome]:
    began = time.process_time()
    out = odds.sampled(battle, samples, seed, remember=remember)
    return time.process_time() - began, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default="lhtr,aarhe", help="comma-separated (default lhtr,aarhe)")
    ap.add_argument("--table", action="store_true", help="also the eight battles of odds_table.py (LHTR)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not 1 <= args.samples <= 1_000_000:
        print(f"odds_speed: --samples must be from 1 to 1,000,000, not {args.samples:,}", file=sys.stderr)
        return 2
    os.environ.setdefault("WARGAME_CACHE_DIR", "/tmp/wgcache-bench")
    rows = []
    for name in [r.strip() for r in args.rulesets.split(",") if r.strip()]:
        try:
            rs = plugins.load(name, {})
        except Exception as e:      # an unknown ruleset: one line
            print(f"odds_speed: {e}", file=sys.stderr)
            return 2
        battles = BATTLES + (table() if args.table and name == "lhtr" else [])
        warm = set_up(rs, "1 inf", "1 inf")
        odds.sampled(warm, 50, 0, remember=False)
        for size, where, attacker, defender in battles:
            battle = set_up(rs, attacker, defender, where)
            every_s, every = timed(battle, args.samples, args.seed, remember=False)
            tree_s, tree = timed(battle, args.samples, args.seed, remember=True)
            rows.append({
                "ruleset": name, "size": size, "where": where, "attacker": attacker, "defender": defender,
                "samples": args.samples,
                "every_round_per_s": args.samples / every_s, "remembered_per_s": args.samples / tree_s,
                "ratio": every_s / tree_s,
                "rule_runs_every_round": every.runs, "rule_runs_remembered": tree.runs,
                "same_battles": dataclasses.replace(every, runs=0) == dataclasses.replace(tree, runs=0),
            })
    if args.json:
        print(json.dumps({"cpu": "time.process_time", "battles": rows}, indent=2))
        return 0
    print(f"{'ruleset':7} {'size':7} {'battle':14} {'every round/s':>13} {'remembered/s':>13} {'ratio':>6} "
          f"{'rule runs':>17}  same")
    for r in rows:
        runs = f"{r['rule_runs_every_round']:,} -> {r['rule_runs_remembered']:,}"
        print(f"{r['ruleset']:7} {r['size']:7} {r['where']:14} {r['every_round_per_s']:13,.0f} "
              f"{r['remembered_per_s']:13,.0f} {r['ratio']:6.1f} {runs:>17}  {'yes' if r['same_battles'] else 'NO'}")
    print(f"{args.samples:,} sampled battles each, CPU time (aim: 10,000 a second)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
