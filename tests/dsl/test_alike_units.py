"""A procedure given a unit that reads of it only fields and stats (its space, its owner, its
type) has one answer for every unit alike in those: within one entry into the rules it is
worked out once for them all. A rules file must never notice: the answers are those of
working each one out, one that reads the unit itself (its marks) is asked for each unit, and
nothing is given again once the game has changed."""

from __future__ import annotations

from typing import Any

import pytest
from dsl_helpers import with_looked_at

RULES = """
# the neighbours of a unit's hex that hold none of the enemy's units
procedure enemy_in(h: str, side: str) -> bool { return any(x in units_at(h) where x.owner != side) }
procedure open_ways(u: Unit) -> list[str] {
    return [n for n in neighbours(u.space) where looked_at(n) and not enemy_in(n, u.owner)]
}
# the same, for a unit that is not tired: it reads the unit's marks
procedure fresh_ways(u: Unit) -> list[str] {
    return [n for n in neighbours(u.space) where looked_at(n) and not marked(u, "tired")]
}
# the same, but answered without a loop for one side: cheaper worked out again than remembered
procedure red_ways(u: Unit) -> list[str] {
    if u.owner != "red" {
        return []
    }
    return [n for n in neighbours(u.space) where looked_at(n)]
}
# asked of one unit, then of another alike after an enemy moved next to them
procedure ways_around_a_move(side: str, enemy: Unit, to: str) -> list[list[str]] {
    let before = open_ways(units_of(side)[0])
    move_to(enemy, to)
    return [before, open_ways(units_of(side)[1])]
}
""" + "".join(f"""
# what {name} answers for each of a side's units, in one entry
procedure all_{name}(side: str) -> list[list[str]] {{
    let out: list[list[str]] = []
    for u in units_of(side) {{
        out += [{name}(u)]
    }}
    return out
}}
""" for name in ("open_ways", "fresh_ways", "red_ways"))


def _procedure(name: str) -> tuple[Any, list[str]]:
    return with_looked_at("alike.rules", RULES, name)


def _state() -> Any:
    from engine.board import Board, Space
    from engine.state import GameState

    # a - b, a - c, c - d
    board = Board([Space(s, s.upper()) for s in "abcd"], [("a", "b", {}), ("a", "c", {}), ("c", "d", {})])
    return GameState(board)


def test_units_alike_in_what_a_procedure_reads_of_them_share_its_answer_within_an_entry() -> None:
    ask, looked = _procedure("all_open_ways")
    state = _state()
    for space in ("a", "a", "c", "a"):
        state.add_piece("Inf", "red", space)
    state.add_piece("Inf", "blue", "b")
    assert ask(state, "red") == [["c"], ["c"], ["a", "d"], ["c"]]
    # the three units in a are one question; the one in c another
    assert sorted(looked) == ["a", "b", "c", "d"]
    # a new entry asks again, and the other side's units are other questions
    looked.clear()
    assert ask(state, "blue") == [[]]
    assert ask(state, "red") == [["c"], ["c"], ["a", "d"], ["c"]]
    assert sorted(looked) == ["a", "a", "b", "c", "d"]


@pytest.mark.parametrize(("procedure", "expected"), [
    ("all_fresh_ways", [[], ["b", "c"]]),       # it reads the unit's marks
    ("all_red_ways", [["b", "c"], ["b", "c"]]),  # it answers blue's units without a loop
])
def test_a_procedure_that_reads_the_unit_or_may_answer_without_a_loop_is_asked_for_each_unit(
        procedure: str, expected: list[list[str]]) -> None:
    ask, looked = _procedure(procedure)
    state = _state()
    first = state.add_piece("Inf", "red", "a")
    state.add_piece("Inf", "red", "a")
    state.set_mark(first.id, "tired", True)
    assert ask(state, "red") == expected
    assert sorted(looked) == ["b", "b", "c", "c"]


def test_an_answer_is_not_given_again_once_the_game_has_changed() -> None:
    ask, looked = _procedure("ways_around_a_move")
    state = _state()
    state.add_piece("Inf", "red", "a")
    state.add_piece("Inf", "red", "a")
    blue = state.add_piece("Inf", "blue", "d")
    # the second unit is alike, but the enemy moved into b in between: worked out again
    assert ask(state, "red", blue, "b") == [["b", "c"], ["c"]]
    assert sorted(looked) == ["b", "b", "c", "c"]


def test_answers_seldom_shared_are_no_longer_remembered_and_stay_right() -> None:
    from dsl.compiler import ALIKE_TRIAL

    ask, looked = _procedure("all_open_ways")
    state = _state()
    state.add_piece("Inf", "blue", "b")
    red = state.add_piece("Inf", "red", "a")
    names = ask.__wrapped__.__globals__
    for i in range(ALIKE_TRIAL + 2):          # one red unit, moved between entries: never shared
        red = state.update(red.id, space="c" if i % 2 else "a")
        assert ask(state, "red") == [["a", "d"] if i % 2 else ["c"]]
    # (kept by the spaces it reads in listings; on a state not listed, remembered for the entry)
    assert names.get("fa_open_ways", names["f_open_ways"]) is names["f_open_ways__work"]
    looked.clear()
    state.add_piece("Inf", "red", "c")
    assert ask(state, "red") == [["a", "d"], ["a", "d"]] and len(looked) == 4
