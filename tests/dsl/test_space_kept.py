"""Answers kept from one listing to the next by the spaces they read: what the compiler and
the engine do for speed, which a rules file must never notice."""

from __future__ import annotations

import random
from typing import Any

from dsl_helpers import with_looked_at as _with_looked_at

# -- answers kept from one listing to the next by the spaces they read ----------------------------
REACH = """
# the side's tokens in a hex and in those of its neighbours it holds that hold no enemy
procedure tokens_near(h: str, side: str) -> list[int] {
    let out: list[int] = []
    for s in [h] + neighbours(h) where looked_at(s) {
        if s == h or (controller(s) == side and not any(u in units_at(s) where u.owner != side)) {
            out += [u.id for u in units_at(s) where u.owner == side and u.kind == "Token" and not marked(u, "spent")]
        }
    }
    return out
}
"""


def _reach_state() -> Any:
    from engine.board import Board, Space
    from engine.state import GameState

    spaces = [Space(s, s.upper()) for s in "abcde"]
    return GameState(Board(spaces, [("a", "b", {}), ("a", "c", {}), ("c", "d", {}), ("d", "e", {})]))


def test_an_answer_is_kept_between_listings_while_no_space_it_read_changed() -> None:
    tokens_near, looked = _with_looked_at("reach.rules", REACH, "tokens_near")
    state = _reach_state()
    state.control.update({"a": "red", "b": "red", "c": "red", "d": "blue", "e": "blue"})
    t1 = state.add_piece("Token", "red", "a")
    t2 = state.add_piece("Token", "red", "b")
    far = state.add_piece("Inf", "red", "e")

    def ask(st: Any) -> tuple[list[int], int]:
        looked.clear()
        return tokens_near(st, "a", "red"), len(looked)

    # a state not yet listed (or changed since) works its answer out each time
    assert ask(state) == ([t1.id, t2.id], 3) and ask(state) == ([t1.id, t2.id], 3)
    state.share_entries()                       # (as the engine does before listing options)
    assert ask(state) == ([t1.id, t2.id], 3)
    assert ask(state) == ([t1.id, t2.id], 0)    # kept in this listing
    later = state.copy()
    later.move(far.id, "d")                     # a piece moved where it does not look
    later.share_entries()
    assert ask(later) == ([t1.id, t2.id], 0)    # kept into the next listing
    spent = later.copy()
    spent.set_mark(t2.id, "spent", True)        # a piece it read was changed
    assert ask(spent) == ([t1.id], 3)           # (changed since its listing: worked out)
    spent.share_entries()
    assert ask(spent) == ([t1.id], 3) and ask(spent) == ([t1.id], 0)
    assert ask(later) == ([t1.id, t2.id], 3)    # (another line of states: worked out again)
    # a piece that enters a space it read, and one taken from a space (left empty)
    entered = later.copy()
    foe = entered.add_piece("Inf", "blue", "b")
    entered.share_entries()
    assert ask(entered) == ([t1.id], 3)
    gone = entered.copy()
    gone.remove(foe.id)
    gone.share_entries()
    assert ask(gone) == ([t1.id, t2.id], 3)
    emptied = gone.copy()
    emptied.remove(t1.id)                       # (space "a" left empty)
    emptied.share_entries()
    assert ask(emptied) == ([t2.id], 3)
    # the control of a space it read changed
    lost = emptied.copy()
    lost.share_entries()
    assert ask(lost) == ([t2.id], 0)
    taken = lost.copy()
    from engine.primitives import set_control
    set_control(taken, "b", "blue")
    taken.share_entries()
    assert ask(taken) == ([], 3)
    # a copy changed by hand (a client's snapshot) starts from no listing
    snap = taken.snapshot()
    snap.control["a"] = "blue"
    snap.share_entries()
    assert ask(snap) == ([], 3)


def test_an_answer_kept_by_the_spaces_it_read_is_right_whatever_changes() -> None:
    tokens_near, _ = _with_looked_at("reach.rules", REACH, "tokens_near")
    from engine.primitives import set_control

    rng = random.Random(11)
    state = _reach_state()
    lines = [state]
    for _ in range(600):
        state = rng.choice(lines[-4:])
        state = state.copy() if rng.random() < 0.7 else state
        for _ in range(rng.randrange(3)):
            ids = sorted(state.pieces)
            what = rng.randrange(6)
            space = rng.choice("abcde")
            if what == 0 or not ids:
                state.add_piece(rng.choice(["Token", "Inf"]), rng.choice(["red", "blue"]), space)
            elif what == 1:
                state.move(rng.choice(ids), space)
            elif what == 2:
                state.set_mark(rng.choice(ids), "spent", rng.random() < 0.5)
            elif what == 3:
                state.remove(rng.choice(ids))
            elif what == 4:
                set_control(state, space, rng.choice(["red", "blue"]))
        if rng.random() < 0.8:
            state.share_entries()
        lines.append(state)
        for h in "abcde":
            for side in ("red", "blue"):
                foe = "blue" if side == "red" else "red"
                near = [h] + list(state.board.neighbours(h))
                want = [u.id for s in near
                        if s == h or state.control.get(s) == side and not any(u.owner == foe for u in state.pieces_at(s))
                        for u in state.pieces_at(s) if u.owner == side and u.kind == "Token" and "spent" not in u.status]
                assert tokens_near(state, h, side) == want
