"""Time the rules language's `first`, `find`, `sorted(x in xs by KEY)` and f-strings against
the same work written with the language's older means (a `for` loop with `break`, `+` and
`str()`) and by hand in Python. Run: python benchmarks/bench_dsl_search.py

Timed in CPU time (`time.process_time`), interleaved, best of 7, so that another process on
a shared machine slows all sides alike; each ratio is against the hand-written Python
measured in the same run."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsl import Registry, load_rules  # noqa: E402

RULES = """
stat attack: int = 0
unit Infantry { attack: 1 }
unit Tank { attack: 2 }
unit Artillery { attack: 3 }

procedure first_new(us: list[Unit]) -> int { return first(u.id for u in us where u.attack == 3) }
procedure first_old(us: list[Unit]) -> int {
    for u in us where u.attack == 3 {
        return u.id
    }
    return -1
}
procedure find_new(us: list[Unit]) -> int { return find(u in us where u.attack == 3) }
procedure find_old(us: list[Unit]) -> int {
    let i = 0
    for u in us {
        if u.attack == 3 {
            return i
        }
        i += 1
    }
    return -1
}
procedure sorted_new(us: list[Unit]) -> list[Unit] { return sorted(u in us by [-u.attack, u.id]) }
procedure text_new(u: Unit, n: int) -> str { return f"{u.kind} #{u.id} rolls {n} dice in {u.space}" }
procedure text_old(u: Unit, n: int) -> str { return u.kind + " #" + str(u.id) + " rolls " + str(n) + " dice in " + u.space }
"""


class Piece:
    __slots__ = ("id", "kind", "owner", "space", "hits")

    def __init__(self, id: int, kind: str):
        self.id, self.kind, self.owner, self.space, self.hits = id, kind, "Axis", "h", 0


ATTACK = {"Infantry": 1, "Tank": 2, "Artillery": 3}


def by_hand() -> dict[str, object]:
    def first_(us: list[Piece]) -> int:
        return next((u.id for u in us if ATTACK[u.kind] == 3), -1)

    def find_(us: list[Piece]) -> int:
        return next((i for i, u in enumerate(us) if ATTACK[u.kind] == 3), -1)

    def sorted_(us: list[Piece]) -> list[Piece]:
        return sorted(us, key=lambda u: (-ATTACK[u.kind], u.id))

    def text_(u: Piece, n: int) -> str:
        return f"{u.kind} #{u.id} rolls {n} dice in {u.space}"

    return {"first": first_, "find": find_, "sorted": sorted_, "text": text_}


def main() -> None:
    reg = Registry()
    reg.record("Unit", fields={"id": "int", "kind": "str", "owner": "str", "space": "str", "hits": "int"},
               unit_stats=True)
    rules = load_rules([("bench.rules", RULES)], reg)
    kinds = ["Infantry", "Tank"] * 20 + ["Artillery"] + ["Tank"] * 10
    us = [Piece(i, k) for i, k in enumerate(kinds)]
    hand = by_hand()
    cases = {
        "first": [("first(... where ...)", lambda: rules.procedure("first_new")(None, us)),
                  ("for ... where ... return", lambda: rules.procedure("first_old")(None, us)),
                  ("Python", lambda: hand["first"](us))],  # type: ignore[operator]
        "find": [("find(... where ...)", lambda: rules.procedure("find_new")(None, us)),
                 ("for ... i += 1", lambda: rules.procedure("find_old")(None, us)),
                 ("Python", lambda: hand["find"](us))],  # type: ignore[operator]
        "sorted": [("sorted(... by [k1, k2])", lambda: rules.procedure("sorted_new")(None, us)),
                   ("Python sorted(key=...)", lambda: hand["sorted"](us))],  # type: ignore[operator]
        "text": [('f"..."', lambda: rules.procedure("text_new")(None, us[3], 7)),
                 ("+ and str()", lambda: rules.procedure("text_old")(None, us[3], 7)),
                 ("Python f-string", lambda: hand["text"](us[3], 7))],  # type: ignore[operator]
    }
    assert rules.procedure("first_new")(None, us) == rules.procedure("first_old")(None, us) == hand["first"](us)  # type: ignore[operator]
    assert rules.procedure("find_new")(None, us) == rules.procedure("find_old")(None, us) == hand["find"](us)  # type: ignore[operator]
    assert [u.id for u in rules.procedure("sorted_new")(None, us)] == [u.id for u in hand["sorted"](us)]  # type: ignore[operator]
    n = 20_000
    for name, variants in cases.items():
        best = [float("inf")] * len(variants)
        for _ in range(7):
            for i, (_, fn) in enumerate(variants):
                t0 = time.process_time()
                for _ in range(n):
                    fn()
                best[i] = min(best[i], time.process_time() - t0)
        base = best[-1]
        for (label, _), t in zip(variants, best, strict=True):
            print(f"{name:7} {label:28} {t / n * 1e6:7.2f} µs/call  {t / base:5.2f}x Python")


if __name__ == "__main__":
    main()
