"""Dice are seeded and logged; states copy cheaply and independently."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engine import dice
from engine.actions import IllegalAction
from engine.board import Board, Space
from engine.hexgrid import Hex
from engine.state import GameState


def small_board() -> Board:
    return Board.hex_map([Space(f"{q},{r}", f"{q},{r}", "hex", Hex(q, r)) for q in range(3) for r in range(3)])


@given(st.integers(0, 2**32), st.integers(0, 30), st.sampled_from([6, 12, 20]))
def test_same_seed_same_rolls_and_faces_in_range(seed, n, sides):
    s1, a = dice.roll(dice.seed_state(seed), n, sides)
    s2, b = dice.roll(dice.seed_state(seed), n, sides)
    assert a == b and s1 == s2
    assert all(1 <= f <= sides for f in a)


def test_d12_is_roughly_fair():
    state, faces = dice.roll(dice.seed_state(7), 120_000, 12)
    counts = [faces.count(f) for f in range(1, 13)]
    assert all(9_400 < c < 10_600 for c in counts), counts


def test_every_roll_is_logged_and_loaded_dice_come_first():
    st_ = GameState(small_board(), seed=3)
    st_.load_dice([1, 3, 3])
    faces = st_.roll(5, 12, why="test")
    assert faces[:3] == [1, 3, 3]
    assert st_.events[-1] == ("roll", {"n": 5, "sides": 12, "faces": faces, "why": "test"})


def test_copy_is_independent():
    a = GameState(small_board(), seed=1)
    p = a.add_piece("Infantry", "Red", "0,0")
    a.gain("Red", "supply", 3)
    a.ns("x")["k"] = 1
    b = a.copy()
    b.move(p.id, "1,1")
    b.spend("Red", "supply", 2)
    b.ns("x")["k"] = 2
    b.roll(3, 6)
    assert a.pieces_at("0,0")[0].id == p.id and a.pieces_at("1,1") == []
    assert b.pieces_at("1,1")[0].id == p.id and b.pieces_at("0,0") == []
    assert a.resource("Red", "supply") == 3 and b.resource("Red", "supply") == 1
    assert a.ns("x")["k"] == 1
    assert a.rng != b.rng


def test_spending_more_than_there_is_is_refused():
    s = GameState(small_board())
    s.gain("Axis", "supply", 2)
    try:
        s.spend("Axis", "supply", 3)
    except IllegalAction as e:
        assert "only 2 supply" in e.reason
    else:
        raise AssertionError("overspending was allowed")
    assert s.resource("Axis", "supply") == 2


def test_pieces_index_follows_moves_and_removals():
    s = GameState(small_board())
    ids = [s.add_piece("Tank", "Blue", "2,2").id for _ in range(3)]
    s.move(ids[0], "0,0")
    s.remove(ids[1])
    assert [p.id for p in s.pieces_at("2,2")] == [ids[2]]
    assert [p.id for p in s.pieces_at("0,0")] == [ids[0]]
    assert sorted(s.occupied()) == ["0,0", "2,2"]
    # occupied_spaces() in the rules: the board's spaces only, in the board's order
    # (the index met "2,2" first; the board lists "0,0" first)
    s.add_piece("Tank", "Blue", "offboard:Blue")
    assert list(s.occupied())[0] == "2,2" and list(s.board.spaces).index("0,0") < list(s.board.spaces).index("2,2")
    assert s.occupied_on_board() == ["0,0", "2,2"]


@given(st.lists(st.tuples(st.sampled_from(["add", "move", "own", "retype", "mark", "set_mark", "drop", "copy",
                                           "become"]),
                          st.integers(0, 50), st.sampled_from(["Red", "Blue", "Grey"])), max_size=60))
@example([("add", 0, "Red"), ("add", 0, "Blue"), ("own", 0, "Blue")])     # a capture: kept in id order
@example([("add", 1, "Red"), ("add", 0, "Red"), ("retype", 0, "Red")])    # and a piece that changes type
@example([("add", 0, "Red"), ("copy", 0, "Red"), ("set_mark", 0, "Red"), ("set_mark", 1, "Red")])   # on, then off
def test_each_owners_pieces_are_indexed_in_id_order_through_changes_and_copies(ops):
    # pieces_of reads an index by owner kept like the one by space (pieces_of_kinds one by
    # owner and unit type), and all of them hold the pieces themselves: whatever happens to
    # the pieces, and to copies taken along the way, they give the pieces as they are now, as
    # a walk over every piece would; and what one state does is seen by no other (they share
    # their pieces until one of them changes one). So does whether any piece carries a mark.
    states = [GameState(small_board())]
    seen = [{}]     # each state's pieces as they should be
    for op, n, owner in ops:
        i = n % len(states)
        s = states[i]
        ids = sorted(s.pieces)
        pid = ids[n % len(ids)] if ids else None
        if pid is None and op not in ("copy", "become"):
            op = "add"
        if op == "add":
            s.add_piece(KINDS[n % len(KINDS)], owner, "1,1")
        elif op == "move":
            s.move(pid, "0,0")
        elif op == "own":
            s.update(pid, owner=owner)
        elif op == "retype":
            s.update(pid, kind=KINDS[n % len(KINDS)])
        elif op == "mark":
            s.update(pid, status=s.pieces[pid].status ^ {owner})
        elif op == "set_mark":      # (mark and unmark's way: the mark put on, or taken off)
            s.set_mark(pid, owner, owner not in s.pieces[pid].status)
        elif op == "drop":
            s.remove(pid)
        elif op == "copy":
            states.append(s.copy())
            seen.append(dict(seen[i]))
        else:
            s.become(states[-1].copy())
            seen[i] = dict(seen[-1])
        if op not in ("copy", "become"):
            seen[i] = dict(s.pieces)
        for t, pieces in zip(states, seen):
            assert t.pieces == pieces
            for who in ("Red", "Blue", "Grey"):
                assert _same(t.pieces_of(who), [p for p in t.pieces.values() if p.owner == who])
                for kinds in (("Tank",), ("Tank", "Infantry"), ("Infantry", "Truck", "Tank"), ()):
                    assert _same(list(t.pieces_of_kinds(who, kinds)),
                                 [p for p in t.pieces.values() if p.owner == who and p.kind in kinds])
            for where in ("0,0", "1,1"):
                assert _same(sorted(t.pieces_at(where), key=lambda p: p.id),
                             [p for p in t.pieces.values() if p.space == where])
            for mark in ("Red", "Blue", "Grey"):    # (clear_marks asks before it looks at every piece)
                assert t.marked_any([mark]) == any(mark in p.status for p in t.pieces.values())


KINDS = ("Tank", "Infantry", "Truck")


def _same(a, b):
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def test_a_space_holding_many_pieces_is_cheap_to_add_to_and_copies_stay_apart():
    import time

    s = GameState(small_board())
    t0 = time.perf_counter()
    ids = [s.add_piece("Infantry", "Red", "1,1").id for _ in range(20_000)]   # was quadratic: 6 s
    assert time.perf_counter() - t0 < 2
    c = s.copy()
    for pid in ids[:10_000]:
        s.move(pid, "0,0")
    c.add_piece("Tank", "Red", "1,1")
    assert len(s.pieces_at("1,1")) == 10_000 and len(s.pieces_at("0,0")) == 10_000
    assert len(c.pieces_at("1,1")) == 20_001 and c.pieces_at("0,0") == []
    assert [p.id for p in s.pieces_at("1,1")] == ids[10_000:]       # the order pieces came in
    assert list(c.ids_at("1,1"))[:3] == ids[:3]
    d = c.copy()
    s.become(d)                           # takes a worked-on copy over (which is then dropped)
    s.remove(ids[0])
    assert len(c.pieces_at("1,1")) == 20_001 and len(s.pieces_at("1,1")) == 20_000


def test_signature_round_trips_through_json():
    s = GameState(small_board(), seed=5)
    s.add_piece("Tank", "Blue", "2,2", group="7 AD", status=frozenset({"moved"}))
    s.ns("bulge")["front"] = frozenset({"1,1", "0,2"})
    sig = s.signature()
    assert sig["pieces"][0]["group"] == "7 AD"
    assert sig["data"]["bulge"]["front"] == ["0,2", "1,1"]


def test_a_piece_changed_is_the_piece_replaced_field_by_field() -> None:
    import dataclasses

    from engine.pieces import Piece

    p = Piece(7, "tank", "Germany", "Poland", hits=1, group="7th", status=frozenset({"held"}), carrier=3)
    values = {"kind": "infantry", "owner": "Russia", "space": "Ukraine", "hits": 0, "group": "",
              "status": frozenset(), "carrier": None}
    assert set(values) == {f.name for f in dataclasses.fields(Piece)} - {"id"}
    for name, value in values.items():
        assert p.changed({name: value}) == dataclasses.replace(p, **{name: value})
    assert p.changed(values) == dataclasses.replace(p, **values)
    assert p.changed({}) == p and hash(p.changed({})) == hash(p)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.changed({"space": "Baltic"}).space = "x"  # type: ignore[misc]


def test_a_piece_written_past_the_state_is_caught_by_the_invariants() -> None:
    from engine.invariants import generic_problems

    s = GameState(small_board())
    tank = s.add_piece("Tank", "Red", "1,1")
    s.update(tank.id, status=frozenset({"held"}))
    assert generic_problems(s) == []
    s.pieces[tank.id] = tank        # (what no code may do: `pieces` is for reading)
    assert generic_problems(s) == [
        f"the index of 1,1 and `pieces` disagree on piece #{tank.id}",
        "the index of Red's pieces and `pieces` disagree (on a piece, or on their order)"]
