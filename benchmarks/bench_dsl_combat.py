"""Time one Bulge ground-combat round written in the rules language against the same round
written by hand in Python. Run: python benchmarks/bench_dsl_combat.py

Timed in CPU time (`time.process_time`), interleaved, best of 7, so that another process on
a shared machine slows both sides alike; the ratio is against the hand-written baseline
measured in the same run."""

from __future__ import annotations

import random
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsl import Registry, load_rules  # noqa: E402

RULES = """
stat attack: int = 0 "dice rolled when attacking"
tag combat, soft
unit Infantry [combat] { attack: 1 }
unit Tank [combat] { attack: 2 }
unit Artillery [combat] { attack: 3 }
unit Truck [soft] { }
unit Supply [soft] { }

procedure ground_round(attackers: list[Unit], boxes: list[Unit]) -> list[int] {
    let dice = sum(u.attack for u in attackers)
    let rolls = roll(dice, 12)
    let hits = count(d in rolls where d <= 6)
    let faces = if len(boxes) <= 6 then [d for d in rolls where d <= 6] else roll(hits, 12)
    let marks = [0 for b in boxes]
    let n = len(boxes)
    for face in faces {
        marks[(face - 1) % n] += 1
    }
    # 2 = destroyed, 1 = retreats, 0 = untouched
    let result = [0 for b in boxes]
    for i in range(0, n) {
        if marks[i] > 0 {
            if boxes[i] has soft or marks[i] >= 2 { result[i] = 2 } else { result[i] = 1 }
        }
    }
    return result
}
"""


class Piece:
    __slots__ = ("id", "kind", "owner", "space", "hits")

    def __init__(self, id: int, kind: str):
        self.id, self.kind, self.owner, self.space, self.hits = id, kind, "Axis", "h", 0


RNG = random.Random(1944)


def roll(ctx: object, n: int, sides: int) -> list[int]:
    r = RNG.randint
    return [r(1, sides) for _ in range(n)]


# ---------------------------------------------------------------- hand-written Python
ATTACK = {"Infantry": 1, "Tank": 2, "Artillery": 3, "Truck": 0, "Supply": 0}
SOFT = {"Truck", "Supply"}


def ground_round_py(ctx: object, attackers: list[Piece], boxes: list[Piece]) -> list[int]:
    dice = sum([ATTACK[u.kind] for u in attackers])
    rolls = roll(ctx, dice, 12)
    hits = len([1 for d in rolls if d <= 6])
    faces = [d for d in rolls if d <= 6] if len(boxes) <= 6 else roll(ctx, hits, 12)
    marks = [0 for _ in boxes]
    n = len(boxes)
    for face in faces:
        marks[(face - 1) % n] += 1
    result = [0 for _ in boxes]
    for i in range(n):
        if marks[i] > 0:
            result[i] = 2 if boxes[i].kind in SOFT or marks[i] >= 2 else 1
    return result


def main() -> None:
    reg = Registry()
    reg.record("Unit", fields={"id": "int", "kind": "str", "owner": "str", "space": "str", "hits": "int"},
               unit_stats=True)
    reg.primitive("roll", roll, params=[("n", "int"), ("sides", "int")], returns="list[int]", context=True)
    rules = load_rules([("bench.rules", RULES)], reg)
    ground_round_dsl = rules.procedure("ground_round")

    kinds_a = ["Infantry", "Tank", "Tank", "Artillery", "Tank", "Infantry"]
    kinds_d = ["Infantry", "Infantry", "Infantry", "Tank", "Tank", "Tank", "Artillery", "Artillery", "Truck"]
    attackers = [Piece(i, k) for i, k in enumerate(kinds_a)]
    big = [Piece(100 + i, k) for i, k in enumerate(kinds_d)]
    small = big[:5]

    # same answers for the same dice
    for boxes in (small, big):
        RNG.seed(7)
        a = ground_round_dsl(None, attackers, boxes)
        RNG.seed(7)
        b = ground_round_py(None, attackers, boxes)
        assert a == b, (a, b)

    def run_dsl() -> None:
        ground_round_dsl(None, attackers, small)
        ground_round_dsl(None, attackers, big)

    def run_py() -> None:
        ground_round_py(None, attackers, small)
        ground_round_py(None, attackers, big)

    number, repeat = 2000, 7
    best_dsl = best_py = float("inf")
    for _ in range(repeat):  # interleaved, best of N
        best_dsl = min(best_dsl, timeit.Timer(run_dsl, timer=time.process_time).timeit(number))
        best_py = min(best_py, timeit.Timer(run_py, timer=time.process_time).timeit(number))
    per = 2 * number
    print(f"rules language : {best_dsl / per * 1e6:8.2f} us per combat round (CPU time)")
    print(f"hand Python    : {best_py / per * 1e6:8.2f} us per combat round")
    print(f"ratio          : {best_dsl / best_py:8.3f}  (aim <= 1.25)")


if __name__ == "__main__":
    main()
