"""A loop over a side's units whose first test compares a stat of the unit's type with a
literal (`t.capacity > 0`) goes through the units of the types that pass it alone: what the
compiler does for speed, which a rules file must never notice."""

from __future__ import annotations

from dsl_helpers import churned

import dsl

# -- a stat compared with a literal tells unit types apart -----------------------------------------
STATS = """
stat seats: int = 0
stat heavy: bool = false
unit Foot { }
unit Horse { }
unit Cart { seats: 2 }
unit Truck { seats: 6  heavy: true }
unit Gun { heavy: true }
unit Tower { }
unit Wall { }
unit Gate { }

procedure carriers(p: str) -> list[int] { return [u.id for u in units_of(p) where u.seats > 0 and u.space != "gone"] }
procedure big_carriers(p: str) -> list[int] { return [u.id for u in units_of(p) where u.seats >= 6] }
procedure heavies(p: str) -> list[int] {
    let out: list[int] = []
    for u in units_of(p) where u.heavy and not marked(u, "broken") {
        out += [u.id]
    }
    return out
}
procedure light_carts(p: str) -> int { return count(u in units_of(p) where u.seats == 2 and not u.heavy) }
procedure not_heavy(p: str) -> int { return count(u in units_of(p) where not u.heavy) }
procedure seatless(p: str) -> list[int] { return [u.id for u in units_of(p) where u.seats == 0] }
"""


def test_a_loop_that_first_compares_a_stat_with_a_number_goes_through_those_types_alone() -> None:
    from engine.board import Board, Space
    from engine.primitives import register_core
    from engine.state import GameState

    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([("stats.rules", STATS)], reg)
    p = rules.procedure
    kinds = ["Foot", "Horse", "Cart", "Truck", "Gun", "Tower", "Wall", "Gate"]
    seats = {"Cart": 2, "Truck": 6}
    heavy = {"Truck", "Gun"}
    start = GameState(Board([Space("a", "A"), Space("gone", "Gone")], [("a", "gone", {})]), rules)
    for state in churned(start, kinds, 150, seed=7, field="space", values=["a", "gone"], mark="broken"):
        for who in ("red", "blue"):
            mine = [u for u in state.pieces.values() if u.owner == who]
            assert p("carriers")(state, who) == [u.id for u in mine if seats.get(u.kind, 0) > 0 and u.space != "gone"]
            assert p("big_carriers")(state, who) == [u.id for u in mine if seats.get(u.kind, 0) >= 6]
            assert p("heavies")(state, who) == [u.id for u in mine if u.kind in heavy and "broken" not in u.status]
            assert p("light_carts")(state, who) == sum(u.kind not in heavy and seats.get(u.kind, 0) == 2 for u in mine)
            assert p("seatless")(state, who) == [u.id for u in mine if seats.get(u.kind, 0) == 0]
            assert p("not_heavy")(state, who) == sum(u.kind not in heavy for u in mine)

    def by_kinds(name: str) -> bool:
        fn = p(name).__wrapped__
        fn = fn.__globals__.get(fn.__name__ + "__work", fn)
        return "pieces_of_kinds" in fn.__code__.co_names

    assert all(by_kinds(n) for n in ("carriers", "big_carriers", "heavies", "light_carts"))
    assert not by_kinds("seatless") and not by_kinds("not_heavy")     # (6 of the 8 types: no quicker than all)
