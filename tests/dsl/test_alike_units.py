"""A procedure given a unit that reads of it only fields and stats (its space, its owner, its
type) has one answer for every unit alike in those: within one entry into the rules it is
worked out once for them all. A rules file must never notice: the answers are those of
working each one out, one that reads the unit itself (its marks) is asked for each unit, and
nothing is given again once the game has changed."""

from __future__ import annotations

from typing import Any

import dsl

RULES = """
# the neighbours of a unit's hex that hold none of the enemy's units
procedure enemy_in(h: str, side: str) -> bool { return any(x in units_at(h) where x.owner != side) }
procedure open_ways(u: Unit) -> list[str] {
    return [n for n in neighbours(u.space) where looked_at(n) and not enemy_in(n, u.owner)]
}
procedure all_ways(side: str) -> list[list[str]] {
    let out: list[list[str]] = []
    for u in units_of(side) {
        out += [open_ways(u)]
    }
    return out
}
# the same, for a unit that is not tired: it reads the unit's marks
procedure fresh_ways(u: Unit) -> list[str] {
    return [n for n in neighbours(u.space) where looked_at(n) and not marked(u, "tired")]
}
procedure all_fresh(side: str) -> list[list[str]] {
    let out: list[list[str]] = []
    for u in units_of(side) {
        out += [fresh_ways(u)]
    }
    return out
}
# the same, but answered without a loop for one side: cheaper worked out again than remembered
procedure red_ways(u: Unit) -> list[str] {
    if u.owner != "red" {
        return []
    }
    return [n for n in neighbours(u.space) where looked_at(n)]
}
procedure all_red_ways(side: str) -> list[list[str]] {
    let out: list[list[str]] = []
    for u in units_of(side) {
        out += [red_ways(u)]
    }
    return out
}
# asked of one unit, then of another alike after an enemy moved next to them
procedure ways_around_a_move(side: str, enemy: Unit, to: str) -> list[list[str]] {
    let before = open_ways(units_of(side)[0])
    move_to(enemy, to)
    return [before, open_ways(units_of(side)[1])]
}
"""


def _rules() -> tuple[Any, list[str]]:
    from engine.primitives import register_core

    looked: list[str] = []

    def looked_at(ctx: Any, space: str) -> bool:
        looked.append(space)
        return True

    reg = dsl.Registry()
    register_core(reg)
    reg.primitive("looked_at", looked_at, [("space", "str")], "bool", context=True, board=True)
    return dsl.load_rules([("alike.rules", RULES)], reg), looked


def _state(rules: Any) -> Any:
    from engine.board import Board, Space
    from engine.state import GameState

    # a - b, a - c, c - d
    board = Board([Space(s, s.upper()) for s in "abcd"], [("a", "b", {}), ("a", "c", {}), ("c", "d", {})])
    return GameState(board, rules)


def test_units_alike_in_what_a_procedure_reads_of_them_share_its_answer_within_an_entry() -> None:
    rules, looked = _rules()
    state = _state(rules)
    for space in ("a", "a", "c", "a"):
        state.add_piece("Inf", "red", space)
    state.add_piece("Inf", "blue", "b")
    assert rules.procedure("all_ways")(state, "red") == [["c"], ["c"], ["a", "d"], ["c"]]
    # the three units in a are one question; the one in c another
    assert sorted(looked) == ["a", "b", "c", "d"]
    # a new entry asks again, and the other side's units are other questions
    looked.clear()
    assert rules.procedure("all_ways")(state, "blue") == [[]]
    assert rules.procedure("all_ways")(state, "red") == [["c"], ["c"], ["a", "d"], ["c"]]
    assert sorted(looked) == ["a", "a", "b", "c", "d"]


def test_a_procedure_that_reads_the_unit_itself_is_asked_for_each_unit() -> None:
    rules, looked = _rules()
    state = _state(rules)
    first = state.add_piece("Inf", "red", "a")
    state.add_piece("Inf", "red", "a")
    state.set_mark(first.id, "tired", True)
    assert rules.procedure("all_fresh")(state, "red") == [[], ["b", "c"]]
    assert sorted(looked) == ["b", "b", "c", "c"]


def test_a_procedure_that_answers_without_a_loop_on_some_way_is_asked_for_each_unit() -> None:
    rules, looked = _rules()
    state = _state(rules)
    state.add_piece("Inf", "red", "a")
    state.add_piece("Inf", "red", "a")
    assert rules.procedure("all_red_ways")(state, "red") == [["b", "c"], ["b", "c"]]
    assert sorted(looked) == ["b", "b", "c", "c"]


def test_an_answer_is_not_given_again_once_the_game_has_changed() -> None:
    rules, looked = _rules()
    state = _state(rules)
    state.add_piece("Inf", "red", "a")
    state.add_piece("Inf", "red", "a")
    blue = state.add_piece("Inf", "blue", "d")
    # the second unit is alike, but the enemy moved into b in between: worked out again
    assert rules.procedure("ways_around_a_move")(state, "red", blue, "b") == [["b", "c"], ["c"]]
    assert sorted(looked) == ["b", "b", "c", "c"]


def test_answers_seldom_shared_are_no_longer_remembered_and_stay_right() -> None:
    from dsl.compiler import ALIKE_TRIAL

    rules, looked = _rules()
    state = _state(rules)
    state.add_piece("Inf", "blue", "b")
    red = state.add_piece("Inf", "red", "a")
    ways = rules.procedure("all_ways")
    names = ways.__wrapped__.__globals__
    for i in range(ALIKE_TRIAL + 2):          # one red unit, moved between entries: never shared
        red = state.update(red.id, space="c" if i % 2 else "a")
        assert ways(state, "red") == [["a", "d"] if i % 2 else ["c"]]
    assert names["f_open_ways"] is names["f_open_ways__work"]
    looked.clear()
    state.add_piece("Inf", "red", "c")
    assert ways(state, "red") == [["a", "d"], ["a", "d"]] and len(looked) == 4
