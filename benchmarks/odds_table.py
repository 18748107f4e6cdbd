"""The battle calculator's table: the eight Revised battles TripleA's calculator is usually
shown with, each answered exactly through LHTR's own combat rules (clients.odds), in CPU time,
and battles sampled through the same rules per second. Run: python benchmarks/odds_table.py

Forces: the defenders are those standing there at the Revised start (revised-1942 scenario),
the attackers those of the neighbouring spaces a first-round attack usually brings. Sea zones
7 and 52: SZ 7 is empty at the start, so the Baltic fleet of SZ 5 stands in it; SZ 52 holds
the US Pacific carrier group, attacked by a Japanese task force. Timed with
`time.process_time` (CPU time of this process), each battle once after one warm-up run."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients import odds  # noqa: E402
from clients.odds_setup import set_up  # noqa: E402
from engine import plugins  # noqa: E402

BATTLES = [
    ("Karelia S.S.R.", "8 inf, 1 art, 2 tank, 2 ftr", "3 inf, 1 ftr"),
    ("Caucasus", "6 inf, 2 art, 2 tank, 1 ftr", "3 inf, 1 art, 1 tank, 1 aa"),
    ("India", "4 inf, 2 ftr, 1 bmb", "3 inf, 1 aa"),
    ("Anglo Egypt", "1 inf, 1 tank, 1 ftr, 1 bmb", "1 inf, 1 tank, 1 ftr"),
    ("West Russia", "9 inf, 2 art, 3 tank, 2 ftr", "3 inf, 1 art, 1 tank"),
    ("SZ 7", "2 ftr, 1 bmb, 1 dd", "2 sub, 1 dd, 1 trn"),
    ("SZ 52", "1 bb, 1 cv, 2 ftr, 1 dd", "1 cv, 1 ftr, 1 sub"),
    ("Kwantung", "2 inf, 1 ftr", "3 inf"),
]


def main() -> None:
    os.environ.setdefault("WARGAME_CACHE_DIR", "/tmp/wgcache-bench")
    rs = plugins.load("lhtr", {})
    print(f"{'battle':16} {'attacker wins':>13} {'rule runs':>10} {'CPU s':>7}")
    worst = 0.0
    for where, attacker, defender in BATTLES:
        battle = set_up(rs, attacker, defender, where)
        began = time.process_time()
        out = odds.exact(battle, budget=10_000_000)
        spent = time.process_time() - began
        worst = max(worst, spent)
        print(f"{where:16} {100 * out.attacker_wins:12.2f}% {out.runs:10,} {spent:7.3f}")
    print(f"slowest exact answer: {worst:.3f} s CPU (aim < 1 s)")
    battle = set_up(rs, "6 inf, 2 art, 2 tank, 1 ftr", "3 inf, 1 art, 1 tank, 1 aa", "Caucasus")
    n = 2_000
    began = time.process_time()
    odds.sampled(battle, n, seed=1)
    spent = time.process_time() - began
    print(f"sampled through the rules (Caucasus): {n / spent:,.0f} battles a second (aim 10,000)")


if __name__ == "__main__":
    main()
