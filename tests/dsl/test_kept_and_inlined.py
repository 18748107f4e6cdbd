"""Two things the compiler does for speed that a rules file must never notice: a procedure
that reads only the board keeps its answers (worked out once for each set of arguments, on
each board), and a procedure that only answers is written in place of its calls."""

from __future__ import annotations

import gc
import inspect
import weakref
from types import SimpleNamespace
from typing import Any

import pytest
from dsl_helpers import churned
from dsl_helpers import with_looked_at as _with_looked_at

import dsl

RULES = """
var flooded: list[str] = []

procedure big(s: str) -> bool { return size_of(s) > 2 }
procedure sizes(a: str, b: str) -> int { return size_of(a) + size_of(b) }
procedure big_ones(spaces: list[str]) -> int { return count(s in spaces where big(s)) }
procedure names() -> list[str] { return [s + "!" for s in ["a", "b"] where size_of(s) > 0] }
procedure longer_names() -> int {
    let xs = names()
    xs += ["c!"]
    return len(xs)
}
procedure busy(s: str) -> bool { return crowd(s) > 2 }
procedure wet(s: str) -> bool { return s in flooded }

procedure double(n: int) -> int { return n + n }
procedure sign(n: int) -> int {
    if n > 0 { return 1 }
    if n < 0 { return -1 }
    return 0
}
procedure doubled_tick() -> int { return double(tick()) }
procedure signs() -> list[int] { return [sign(5), sign(-2), sign(0)] }
# ways through an `if` with an `else`, and through one that does not return
procedure band(n: int) -> int {
    if n > 10 {
        if n > 100 {
            return 3
        }
    } else if n < 0 {
        return -1
    } else {
        if n == 0 {
            return 0
        }
    }
    return if n > 10 then 2 else 1
}
procedure bands() -> list[int] { return [band(500), band(50), band(-4), band(0), band(7)] }
procedure ratio(a: int, b: int) -> int { return a % b }
procedure broken() -> int { return ratio(1, 0) }

procedure crowded_over(x: str, n: int, spaces: list[str]) -> list[str] {
    let limit = n + 0
    return [s for s in spaces where crowd(s) > crowd(x) + limit]
}
procedure most_crowded(spaces: list[str]) -> list[str] {
    return [s for s in spaces where len(crowded_over(s, 0, spaces)) == 0]
}
procedure any_crowded_over(x: str) -> bool { return len(crowded_over(x, 1, ["a", "b", "c"])) > 0 }
"""


def _rules() -> tuple[Any, dict[str, int]]:
    asked = {"size_of": 0, "crowd": 0, "tick": 0}

    def size_of(ctx: Any, s: str) -> int:
        asked["size_of"] += 1
        return len(s) + ctx.board.extra

    def crowd(ctx: Any, s: str) -> int:
        asked["crowd"] += 1
        return ctx.crowds.get(s, 0)

    def tick(ctx: Any) -> int:
        asked["tick"] += 1
        return asked["tick"]

    reg = dsl.Registry()
    reg.primitive("size_of", size_of, [("s", "str")], "int", context=True, board=True)
    reg.primitive("crowd", crowd, [("s", "str")], "int", context=True)     # reads the game
    reg.primitive("tick", tick, [], "int", context=True)
    return dsl.load_rules([("kept.rules", RULES)], reg), asked


class _Game(SimpleNamespace):
    """(a game state's stand-in that a weak reference can follow)"""


def _game(board: object) -> SimpleNamespace:
    return _Game(board=board, vars={"flooded": ()}, crowds={})


def test_a_board_procedure_is_worked_out_once_for_each_argument_on_each_board() -> None:
    rules, asked = _rules()
    big, sizes = rules.procedure("big"), rules.procedure("sizes")
    one, other = _game(SimpleNamespace(extra=0)), _game(SimpleNamespace(extra=5))
    assert [big(one, s) for s in ["abc", "ab", "abc", "abc"]] == [True, False, True, True]
    assert asked["size_of"] == 2
    # (a board primitive's number is kept for each argument too: "ab" was asked by `big`)
    assert sizes(one, "ab", "abcd") == 6 and sizes(one, "ab", "abcd") == 6 and asked["size_of"] == 3
    assert rules.procedure("big_ones")(one, ["abc", "ab", "x"]) == 1 and asked["size_of"] == 4
    # another board (another scenario's map) works its answers out again, also where a
    # procedure looks them up in place of the call
    assert rules.procedure("big_ones")(other, ["abc", "ab", "x"]) == 3 and asked["size_of"] == 7
    assert big(other, "ab") is True and asked["size_of"] == 7
    assert rules.procedure("big_ones")(one, ["abc", "ab", "x"]) == 1 and asked["size_of"] == 10


def test_a_kept_list_is_handed_out_fresh_each_time() -> None:
    rules, asked = _rules()
    game = _game(SimpleNamespace(extra=0))
    assert rules.procedure("longer_names")(game) == 3
    assert rules.procedure("longer_names")(game) == 3
    assert rules.procedure("names")(game) == ["a!", "b!"] and asked["size_of"] == 2


def test_a_procedure_that_reads_the_game_is_asked_every_time() -> None:
    rules, asked = _rules()
    busy, wet = rules.procedure("busy"), rules.procedure("wet")
    game = _game(SimpleNamespace(extra=0))
    assert busy(game, "A") is False
    game.crowds["A"] = 3
    assert busy(game, "A") is True and asked["crowd"] == 2
    assert wet(game, "A") is False
    game.vars["flooded"] = ("A",)
    assert wet(game, "A") is True


def test_a_procedure_written_in_place_of_its_call_means_what_the_call_did() -> None:
    rules, asked = _rules()
    game = _game(SimpleNamespace(extra=0))
    # the argument is a call: it runs once, and the answer is twice what it gave
    assert rules.procedure("doubled_tick")(game) == 2 and asked["tick"] == 1
    assert rules.procedure("doubled_tick")(game) == 4 and asked["tick"] == 2
    # (and it is written in place: the compiled doubled_tick calls no `double`)
    source = inspect.getsource(rules.procedure("doubled_tick").__wrapped__)
    assert "p_tick(ctx)" in source and "f_double(" not in source
    assert rules.procedure("signs")(game) == [1, -1, 0]
    assert rules.procedure("bands")(game) == [3, 2, -1, 0, 1]
    assert "f_band(" not in inspect.getsource(rules.procedure("bands").__wrapped__)
    with pytest.raises(dsl.RulesRuntimeError, match=r"kept.rules:\d+:\d+: division by zero"):
        rules.procedure("broken")(game)


def test_whether_a_procedures_list_is_empty_is_a_search_that_stops_at_the_first_item() -> None:
    # `len(crowded_over(x, 1)) > 0` is written as a search over crowded_over's comprehension
    # (any(), or a loop where a statement takes it whole), in place of the call: no list is
    # made, and the search stops at the first item that passes
    rules, asked = _rules()
    game = _game(SimpleNamespace(extra=0))
    game.crowds = {"a": 1, "b": 3, "c": 2}
    assert rules.procedure("any_crowded_over")(game, "a") is True
    assert asked["crowd"] == 4      # a, then b passes: c is never asked about
    assert rules.procedure("any_crowded_over")(game, "b") is False
    source = inspect.getsource(rules.procedure("any_crowded_over").__wrapped__)
    assert ("any(True" in source or "break" in source) and "f_crowded_over(" not in source
    # the caller's own `s` is not the comprehension's `s`
    assert rules.procedure("most_crowded")(game, ["a", "b", "c"]) == ["b"]
    assert "f_crowded_over(" not in inspect.getsource(rules.procedure("most_crowded").__wrapped__)


# -- a walk over the board is a board question when what it is passed is one -------------------
FLIGHTS = """
var flooded: list[str] = []

procedure big(s: str) -> bool { return size_of(s) > 2 }
procedure wet(s: str) -> bool { return s in flooded }
procedure over_big(places: list[str]) -> map[str, int] { return walk(places, big) }
procedure over_dry(places: list[str]) -> map[str, int] { return walk(places, wet) }
procedure changed_copy(places: list[str]) -> int {
    let m = over_big(places)
    m["zz"] = 9
    return len(m)
}
"""


def test_a_walk_passed_board_procedures_is_walked_once_for_each_list_of_places() -> None:
    walked = {"walk": 0}

    def size_of(ctx: Any, s: str) -> int:
        return len(s)

    def walk(ctx: Any, places: list[str], enters: Any) -> dict[str, int]:
        walked["walk"] += 1
        return {s: i for i, s in enumerate(places) if enters(s)}

    reg = dsl.Registry()
    reg.primitive("size_of", size_of, [("s", "str")], "int", context=True, board=True)
    reg.primitive("walk", walk, [("places", "list[str]"), ("enters", "fn(str) -> bool")], "map[str, int]",
                  context=True, board=True)
    rules = dsl.load_rules([("flights.rules", FLIGHTS)], reg)
    game = _game(SimpleNamespace(extra=0))
    over_big, over_dry = rules.procedure("over_big"), rules.procedure("over_dry")
    assert over_big(game, ["abc", "ab", "abcd"]) == {"abc": 0, "abcd": 2} and walked["walk"] == 1
    assert over_big(game, ["abc", "ab", "abcd"]) == {"abc": 0, "abcd": 2} and walked["walk"] == 1
    assert over_big(game, ["ab", "abc"]) == {"abc": 1} and walked["walk"] == 2
    # the map handed out is a copy: changing it changes no later answer
    assert rules.procedure("changed_copy")(game, ["abc"]) == 2
    assert over_big(game, ["abc"]) == {"abc": 0} and walked["walk"] == 3
    # passed a procedure that reads the game, the walk is walked every time
    assert over_dry(game, ["abc"]) == {} and walked["walk"] == 4
    game.vars["flooded"] = ("abc",)
    assert over_dry(game, ["abc"]) == {"abc": 0} and walked["walk"] == 5


# -- a procedure passed to a primitive remembers its answers for one entry into the rules ----------
WALKS = """
var flooded: list[str] = []

procedure dry(s: str) -> bool { return s not in flooded and crowd(s) < 3 }
procedure walks(spaces: list[str]) -> list[int] {
    let first = count_where(spaces, dry)
    let again = count_where(spaces, dry)
    flooded += [spaces[0]]          # a variable `dry` reads is set
    let after_var = count_where(spaces, dry)
    crowd_up(spaces[1])             # a primitive changes the game
    let after_change = count_where(spaces, dry)
    return [first, again, after_var, after_change]
}
procedure one_walk(spaces: list[str]) -> int { return count_where(spaces, dry) }
procedure walked_twice(spaces: list[str]) -> list[int] {
    let first = one_walk(spaces)
    let again = one_walk(spaces)
    let other = one_walk([spaces[0]])
    flooded += [spaces[0]]
    let after_var = one_walk(spaces)
    crowd_up(spaces[1])
    return [first, again, other, after_var, one_walk(spaces)]
}
"""


def _walking_rules() -> tuple[Any, dict[str, int]]:
    asked = {"crowd": 0, "walks": 0}

    def crowd(ctx: Any, s: str) -> int:
        asked["crowd"] += 1
        return ctx.crowds.get(s, 0)

    def crowd_up(ctx: Any, s: str) -> None:
        ctx.crowds[s] = 5

    def count_where(ctx: Any, spaces: list[str], ok: Any) -> int:
        asked["walks"] += 1
        return sum(1 for s in spaces if ok(s))

    reg = dsl.Registry()
    reg.primitive("crowd", crowd, [("s", "str")], "int", context=True)
    reg.primitive("crowd_up", crowd_up, [("s", "str")], context=True, changes=True)
    reg.primitive("count_where", count_where, [("spaces", "list[str]"), ("ok", "fn(str) -> bool")], "int",
                  context=True)
    return dsl.load_rules([("walks.rules", WALKS)], reg), asked


def test_a_question_passed_to_a_walk_is_asked_again_only_when_what_it_reads_may_have_changed() -> None:
    rules, asked = _walking_rules()
    game = _game(SimpleNamespace(extra=0))
    # the second walk is answered from the first's answers; setting `flooded` (which `dry`
    # reads) and crowding a space (a primitive that changes the game) make it ask again
    assert rules.procedure("walks")(game, ["a", "b", "c"]) == [3, 3, 2, 1]
    assert asked["crowd"] == 3 + 0 + 2 + 2
    assert game.vars["flooded"] == ("a",)


def test_a_procedure_that_walks_remembers_its_walk_for_the_entry_as_its_questions_do() -> None:
    rules, asked = _walking_rules()
    game = _game(SimpleNamespace(extra=0))
    # the second walk over the same spaces is not walked again; other spaces, a variable the
    # walk's question reads, and a primitive that changes the game each make it walk
    assert rules.procedure("walked_twice")(game, ["a", "b", "c"]) == [3, 3, 1, 2, 1]
    assert asked["walks"] == 4
    # a new entry walks again
    assert rules.procedure("one_walk")(game, ["a", "b", "c"]) == 1 and asked["walks"] == 5


def test_remembered_answers_end_with_the_entry_into_the_rules() -> None:
    rules, asked = _walking_rules()
    game = _game(SimpleNamespace(extra=0))
    one_walk = rules.procedure("one_walk")
    assert one_walk(game, ["a", "b"]) == 2 and asked["crowd"] == 2
    game.crowds["b"] = 9                # the game changed between two entries
    assert one_walk(game, ["a", "b"]) == 1 and asked["crowd"] == 4
    other = _game(SimpleNamespace(extra=0))     # another state: its own answers
    assert one_walk(other, ["a", "b"]) == 2 and asked["crowd"] == 6
    # and nothing of a state is kept once the entry is over
    gone = weakref.ref(other)
    del other
    gc.collect()
    assert gone() is None


# -- a unit taken from the pieces as they are now is read as it stands, where nothing changes it --
CURRENT = """
procedure tired_here(s: str) -> int { return count(u in units_at(s) where marked(u, "tired")) }
procedure tire_and_count(s: str) -> int {
    let n = 0
    for u in units_at(s) {
        mark(u, "tired")                # the unit of the loop is now an old value of its piece
        if marked(u, "tired") {
            n += 1
        }
    }
    return n
}
procedure rested_after(s: str) -> int {
    let before = units_at(s)
    for u in units_at(s) {
        unmark(u, "tired")
    }
    return count(u in before where marked(u, "tired"))
}
"""


def test_marks_are_read_as_they_stand_whether_or_not_the_loop_changes_the_piece() -> None:
    from engine.board import Board, Space
    from engine.primitives import register_core
    from engine.state import GameState

    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([("current.rules", CURRENT)], reg)
    state = GameState(Board([Space("A", "A")]), rules)
    for _ in range(3):
        state.add_piece("Scout", "Red", "A")
    assert rules.procedure("tired_here")(state, "A") == 0
    assert rules.procedure("tire_and_count")(state, "A") == 3
    assert rules.procedure("tired_here")(state, "A") == 3
    # units read before the loop changed them are read as they are now, marks and all
    assert rules.procedure("rested_after")(state, "A") == 0


# -- pieces read where they stand: code that only goes through them, and code that moves them ----
PIECES = """
procedure reds_at(s: str) -> int { return count(u in units_at(s) where u.owner == "red") }
procedure any_blue(s: str) -> bool { return any(u.owner == "blue" for u in units_at(s)) }
procedure pieces_of(p: str) -> int {
    let n = 0
    for u in units_of(p) {
        n += 1
    }
    return n
}
procedure clear_out(s: str, to: str) -> int {
    let n = 0
    for u in units_at(s) {
        move_to(u, to)
        n += 1
    }
    return n
}
procedure kept(s: str) -> list[Unit] { return units_at(s) }
"""


def test_pieces_gone_through_are_the_states_own_and_a_loop_that_moves_them_is_not_disturbed() -> None:
    from engine.board import Board, Space
    from engine.primitives import register_core
    from engine.state import GameState

    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([("pieces.rules", PIECES)], reg)
    state = GameState(Board([Space("a", "A"), Space("b", "B")], [("a", "b", {})]), rules)
    for owner in ("red", "red", "blue"):
        state.add_piece("infantry", owner, "a")
    p = rules.procedure
    assert (p("reds_at")(state, "a"), p("any_blue")(state, "a"), p("any_blue")(state, "b")) == (2, True, False)
    assert p("pieces_of")(state, "red") == 2 and p("pieces_of")(state, "green") == 0
    before = p("kept")(state, "a")
    assert p("clear_out")(state, "a", "b") == 3      # (moving them as it goes through them)
    assert p("reds_at")(state, "a") == 0 and p("reds_at")(state, "b") == 2
    assert [u.space for u in before] == ["a", "a", "a"]     # a list handed out stays as it was


# -- units of some types: a loop that first tests the unit's type or a tag goes through only
# the units of those types (the state keeps its pieces by owner and type) -----------------------
KINDS = """
tag flies
tag floats
tag walks
unit Plane [flies] { }
unit Boat [floats] { }
unit Ferry [floats] { }
unit Foot [walks] { }
unit Horse [walks] { }
unit Cart [walks] { }
unit Gun [walks] { }
unit Tower [walks] { }

procedure fliers(p: str) -> list[int] { return [u.id for u in units_of(p) where u has flies and u.space != "gone"] }
procedure ships(p: str) -> list[int] {
    let out: list[int] = []
    for u in units_of(p) {
        if u has floats and not marked(u, "sunk") {
            out += [u.id]
        }
    }
    return out
}
procedure afloat(p: str) -> list[int] {
    let out: list[int] = []
    for u in units_of(p) {
        if u has not floats or marked(u, "sunk") {
            continue
        }
        out += [u.id]
    }
    return out
}
procedure boats(p: str) -> int { return count(u in units_of(p) where u is Boat) }
procedure any_plane(p: str) -> bool { return any(u has flies and u.id > 0 for u in units_of(p)) }
procedure grounded(p: str) -> list[int] { return [u.id for u in units_of(p) where u has not flies] }
procedure all_fly(p: str) -> bool { return all(u has flies for u in units_of(p)) }
"""


def test_a_loop_over_units_of_some_types_meets_the_same_units_in_the_same_order() -> None:
    from engine.board import Board, Space
    from engine.primitives import register_core
    from engine.state import GameState

    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([("kinds.rules", KINDS)], reg)
    p = rules.procedure
    kinds = ["Plane", "Boat", "Ferry", "Foot", "Horse", "Cart", "Gun", "Tower"]
    tags = {"Plane": "flies", "Boat": "floats", "Ferry": "floats"}
    start = GameState(Board([Space("a", "A"), Space("gone", "Gone")], [("a", "gone", {})]), rules)
    for state in churned(start, kinds, 120, seed=4, field="owner", values=["red", "blue"], mark="sunk"):
        for who in ("red", "blue"):
            mine = [u for u in state.pieces.values() if u.owner == who]
            afloat = [u.id for u in mine if tags.get(u.kind) == "floats" and "sunk" not in u.status]
            assert p("fliers")(state, who) == [u.id for u in mine if u.kind == "Plane"]
            assert p("ships")(state, who) == afloat and p("afloat")(state, who) == afloat
            assert p("boats")(state, who) == sum(u.kind == "Boat" for u in mine)
            assert p("any_plane")(state, who) == any(u.kind == "Plane" for u in mine)
            assert p("grounded")(state, who) == [u.id for u in mine if u.kind != "Plane"]
            assert p("all_fly")(state, who) == all(u.kind == "Plane" for u in mine)
    # and the loops that look at few types were written over those types alone
    def by_kinds(name: str) -> bool:
        fn = p(name).__wrapped__
        fn = fn.__globals__.get(fn.__name__ + "__work", fn)     # (answers kept: the work)
        return "pieces_of_kinds" in fn.__code__.co_names

    assert all(by_kinds(n) for n in ("fliers", "ships", "afloat", "boats", "any_plane"))
    assert not by_kinds("grounded")      # (7 of the 8 types: no quicker than all of them)
    assert not by_kinds("all_fly")       # (it must meet the first unit that does not fly)


# -- answers kept from one decision to the next by the pieces they read ---------------------------
ARRIVED = """
procedure arrived(side: str) -> list[int] {
    let out: list[int] = []
    for u in units_of(side) where looked_at(u.space) {
        if u.space == "chart" and turn() >= 2 {
            out += [u.id]
        }
    }
    return out
}
"""

def test_an_answer_read_from_a_sides_pieces_is_kept_while_they_and_the_turn_are_the_same() -> None:
    from engine.board import Board, Space
    from engine.state import GameState

    arrived, looked = _with_looked_at("arrived.rules", ARRIVED, "arrived")
    state = GameState(Board([Space("a", "A"), Space("chart", "Chart")], [("a", "chart", {})]))
    red = state.add_piece("inf", "red", "chart")
    state.add_piece("inf", "red", "a")
    blue = state.add_piece("inf", "blue", "a")
    state.turn = 2

    def ask(st: GameState, who: str = "red") -> tuple[list[int], int]:
        looked.clear()
        return arrived(st, who), len(looked)

    # a state that may still change its pieces in place works its answer out each time
    assert ask(state) == ([red.id], 2) and ask(state) == ([red.id], 2)
    state.share_entries()                       # (as the engine does before listing options)
    assert ask(state) == ([red.id], 2)
    assert ask(state) == ([red.id], 0)          # kept
    later = state.copy()
    later.update(blue.id, space="chart")        # another side's piece moved: still kept
    assert ask(later) == ([red.id], 0) and ask(later, "blue") == ([blue.id], 1)
    later.update(red.id, space="a")             # one of its own moved: worked out again
    assert ask(later) == ([], 2)
    assert ask(state) == ([red.id], 0)          # (the state before is as it was)
    after = state.copy()
    after.turn = 1
    assert ask(after) == ([], 2) and ask(state) == ([red.id], 2)


GROUNDED = """
tag ground
tag flies
unit Foot [ground] { }
unit Plane [flies] { }
# the spaces that hold ground units: read from every piece, looking only at ground units
procedure held() -> list[str] {
    let out: list[str] = []
    for u in all_units() where u has ground and looked_at(u.space) {
        if u.space not in out {
            out += [u.space]
        }
    }
    return sorted(out)
}
"""


def test_an_answer_read_from_every_piece_of_some_types_is_kept_while_those_are_the_same() -> None:
    from engine.board import Board, Space
    from engine.state import GameState

    held, looked = _with_looked_at("grounded.rules", GROUNDED, "held")
    state = GameState(Board([Space(s, s.upper()) for s in "abc"], [("a", "b", {}), ("b", "c", {})]))
    foot = state.add_piece("Foot", "red", "a")
    state.add_piece("Foot", "blue", "b")
    plane = state.add_piece("Plane", "blue", "b")

    def ask(st: GameState) -> tuple[list[str], int]:
        looked.clear()
        return held(st), len(looked)

    assert ask(state) == (["a", "b"], 2) and ask(state) == (["a", "b"], 2)     # (may change in place)
    state.share_entries()
    assert ask(state) == (["a", "b"], 2)
    assert ask(state) == (["a", "b"], 0)                                        # kept
    later = state.copy()
    later.update(plane.id, space="c")           # an air unit moved: still kept
    assert ask(later) == (["a", "b"], 0)
    later.update(foot.id, space="c")            # a ground unit moved: worked out again
    assert ask(later) == (["b", "c"], 2)
    newcomer = state.copy()
    newcomer.add_piece("Foot", "green", "c")    # a ground unit of another owner came
    assert ask(newcomer) == (["a", "b", "c"], 3)
    assert ask(state) == (["a", "b"], 0)        # (the state before is as it was)


def test_answers_seldom_found_again_are_no_longer_kept_and_stay_right() -> None:
    from dsl.compiler import KEEP_TRIAL
    from engine.board import Board, Space
    from engine.state import GameState

    arrived, _ = _with_looked_at("arrived.rules", ARRIVED, "arrived")
    state = GameState(Board([Space("a", "A"), Space("chart", "Chart")], [("a", "chart", {})]))
    state.turn = 2
    red = state.add_piece("inf", "red", "a")
    work = arrived.__wrapped__.__globals__["f_arrived__work"]
    for i in range(KEEP_TRIAL + 2):           # the side's pieces change before every question
        state = state.copy()
        state.update(red.id, space="chart" if i % 2 else "a")
        state.share_entries()
        assert arrived(state, "red") == ([red.id] if i % 2 else [])
    assert arrived.__wrapped__.__globals__["f_arrived"] is work


# -- walks kept from one decision to the next by the game variables they read -------------------
REACH = """
var mover: str = ""
var blocked: map[str, bool] = {}

procedure enemy_spaces(side: str) -> map[str, bool] {
    let out: map[str, bool] = {}
    for u in units_of(if side == "red" then "blue" else "red") {
        out[u.space] = true
    }
    return out
}

procedure shut_for(side: str) -> map[str, bool] {
    return if mover == side then blocked else enemy_spaces(side)
}

procedure ground(u: Unit, limit: int) -> list[str] {
    let shut = shut_for(u.owner)
    let seen: map[str, bool] = {}
    seen[u.space] = true
    let out: list[str] = []
    let frontier = [u.space]
    for layer in range(0, limit) {
        let further: list[str] = []
        for here in frontier {
            for n in neighbours(here) where looked_at(n) {
                if n in seen or n in shut {
                    continue
                }
                seen[n] = true
                out += [n]
                further += [n]
            }
        }
        frontier = further
    }
    return out
}
"""


def test_a_walk_is_kept_while_the_variables_it_read_and_its_unit_are_the_same() -> None:
    from engine.board import Board, Space
    from engine.state import GameState

    reach, looked = _with_looked_at("reach.rules", REACH, "ground")
    names = ["a", "b", "c", "d"]
    state = GameState(Board([Space(n, n.upper()) for n in names], [("a", "b", {}), ("b", "c", {}), ("c", "d", {})]))
    red = state.add_piece("inf", "red", "a")
    blue = state.add_piece("inf", "blue", "d")
    state.vars.update(mover="red", blocked={})

    def ask(st: GameState, unit: Any, limit: int = 9) -> tuple[list[str], int]:
        looked.clear()
        return reach(st, unit, limit), len(looked)

    assert ask(state, red) == (["b", "c", "d"], 6)
    assert ask(state, red) == (["b", "c", "d"], 0)              # kept
    assert ask(state, red, 1) == (["b"], 1)                     # (other arguments: its own answer)
    later = state.copy()
    later.vars["blocked"] = {"c": True}                         # a variable it read is set
    assert ask(later, red) == (["b"], 3)
    assert ask(later, red) == (["b"], 0)
    assert ask(state, red) == (["b", "c", "d"], 6)              # (the state before is as it was)
    moved = later.move(red.id, "b")                             # the unit itself moved
    assert ask(later, moved) == (["a"], 3)
    assert ask(later, red) == (["b"], 3)                       # (the unit as it stood: one answer a unit)
    # the enemy's pieces are read when the variables do not serve: nothing kept then
    later.vars["mover"] = "blue"
    assert ask(later, moved) == (["a", "c"], 5)
    assert ask(later, moved) == (["a", "c"], 5)
    later.move(blue.id, "a")
    assert ask(later, moved) == (["c", "d"], 5)


# -- a list of the board's, gone through, is read from the answers kept for the board -----------
LANES = """
var closed: list[str] = []

procedure open_lanes(h: str) -> int {
    let n = 0
    for x in lanes(h) where x not in closed {
        n += 1
    }
    return n
}

procedure has_lane(h: str, to: str) -> bool { return to in lanes(h) and to not in closed }

procedure lanes_changed(h: str) -> list[str] {
    let xs = lanes(h)
    xs += ["zz"]
    return xs
}
"""


def test_a_board_list_gone_through_is_asked_once_for_each_argument_on_each_board() -> None:
    asked: list[str] = []

    def lanes(ctx: Any, h: str) -> list[str]:
        asked.append(h)
        return list(ctx.board.lanes[h])

    reg = dsl.Registry()
    reg.primitive("lanes", lanes, [("h", "str")], "list[str]", context=True, board=True)
    rules = dsl.load_rules([("lanes.rules", LANES)], reg)
    board = SimpleNamespace(lanes={"a": ("b", "c"), "b": ("a",)})
    game = _game(board)
    game.vars["closed"] = ("c",)
    count, has = rules.procedure("open_lanes"), rules.procedure("has_lane")
    assert count(game, "a") == 1 and count(game, "b") == 1 and asked == ["a", "b"]
    assert count(game, "a") == 1 and has(game, "a", "b") and not has(game, "a", "c") and asked == ["a", "b"]
    game.vars["closed"] = ()
    assert count(game, "a") == 2 and asked == ["a", "b"]      # (the game read afresh; the board's list kept)
    # a list the rules keep and change is theirs: made afresh, the board's untouched
    assert rules.procedure("lanes_changed")(game, "a") == ["b", "c", "zz"] and count(game, "a") == 2
    other = _game(SimpleNamespace(lanes={"a": ("d",)}))
    other.vars["closed"] = ()
    assert count(other, "a") == 1 and asked[-1] == "a" and len(asked) == 4    # another board: asked again


# -- a procedure passed to a walk with its first arguments given: `held_by(p, _)` ------------------
PARTIAL = """
procedure held_by(p: str, s: str) -> bool { return controller(s) == p }
procedure lands_of(p: str) -> map[str, int] { return distances(["a"], 9, held_by(p, _), held_by(p, _)) }
procedure both() -> list[int] { return [len(lands_of("red")), len(lands_of("blue"))] }
"""


def test_a_procedure_passed_with_its_first_arguments_given_is_asked_with_them() -> None:
    from engine.board import Board, Space
    from engine.primitives import register_core
    from engine.state import GameState

    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([("partial.rules", PARTIAL)], reg)
    spaces = "abcde"
    state = GameState(Board([Space(s, s.upper()) for s in spaces], [(a, b, {}) for a, b in zip(spaces, spaces[1:])]),
                      rules)
    state.control.update({"a": "red", "b": "red", "c": "blue", "d": "red", "e": "red"})
    assert rules.procedure("lands_of")(state, "red") == {"a": 0, "b": 1}       # c is blue's: the walk stops
    assert rules.procedure("lands_of")(state, "blue") == {"a": 0}
    # within one entry the answers are remembered for each argument given, not mixed up
    assert rules.procedure("both")(state) == [2, 1]


@pytest.mark.parametrize(("call", "message"), [
    ("held_by(_, s)", "only the last arguments of `held_by` may be left open with `_`: give the others first"),
    ("held_by(p, s, _)", "`held_by` takes 2 arguments (p, s), but 3 were written"),
    ("held_by(1, _)", "argument 1 (`p`) of `held_by` must be `str`, got `int`"),
    ("count_of(p, _)", "`count_of` with 1 argument given is `fn(str) -> int`, but `fn(str) -> bool` is needed here"),
    ("nothing(p, _)", "`nothing(..., _)` leaves arguments of a procedure open, but `nothing` is no procedure"),
])
def test_a_procedure_passed_with_arguments_left_open_is_checked(call: str, message: str) -> None:
    from engine.primitives import register_core

    reg = dsl.Registry()
    register_core(reg)
    text = f"""
procedure held_by(p: str, s: str) -> bool {{ return controller(s) == p }}
procedure count_of(p: str, s: str) -> int {{ return len(units_at(s)) }}
procedure walk(p: str, s: str) -> map[str, int] {{ return distances([s], 3, passable_here, {call}) }}
procedure passable_here(s: str) -> bool {{ return true }}
"""
    diags = dsl.check_rules([("open.rules", text)], reg)
    assert message in [d.message for d in diags], [d.message for d in diags]


MAP_RULES = """
option sides: map[str, str] = {"Germany": "Axis", "UK": "Allies"} "each power's side"
var spent: map[str, int] = {}

procedure side_of(p: str) -> str { return if p in sides then sides[p] else "" }
procedure spent_by(p: str) -> int { return if p in spent then spent[p] else 0 }
procedure spent_or(p: str, other: str) -> int { return if p in spent then spent[p] else len(other) }
procedure spent_of_other(p: str, q: str) -> int { return if p in spent then spent[q] else 0 }
"""


def test_a_map_read_with_a_default_is_one_look_up_and_means_what_the_rules_say() -> None:
    rules = dsl.load_rules([("maps.rules", MAP_RULES)], dsl.Registry(), options={"sides": {"Germany": "Axis", "UK": "Allies", "Japan": "Axis"}})
    game = _game(SimpleNamespace(extra=0))
    game.vars = {"spent": {"UK": 2}}
    side_of, spent_by = rules.procedure("side_of"), rules.procedure("spent_by")
    assert [side_of(game, p) for p in ["Japan", "UK", "USSR", ""]] == ["Axis", "Allies", "", ""]
    assert [spent_by(game, p) for p in ["UK", "USSR"]] == [2, 0]
    assert rules.procedure("spent_or")(game, "USSR", "abc") == 3
    # the key looked for and the key read differ: not a default, the rules' error stands
    assert rules.procedure("spent_of_other")(game, "Japan", "UK") == 0
    with pytest.raises(dsl.RulesRuntimeError, match="maps.rules"):
        rules.procedure("spent_of_other")(game, "UK", "Japan")
    # (one look-up: the map is not asked whether it holds the key first)
    for name in ("side_of", "spent_by"):
        source = inspect.getsource(rules.procedure(name).__wrapped__)
        assert ".get(v_p, " in source and " in " not in source, source


TYPES_LOOKED_UP = """
stat move: int = 0 "spaces moved"
stat attack: int = 0 "attack value"
unit Tank { move: 2  attack: 3 }
procedure strong_reds(s: str) -> int {
    let n = 0
    for u in units_at(s) where u.owner == "Red" and u.attack > 2 {
        if u.move > 1 { n += 1 }
    }
    return n
}
procedure any_fast_red(s: str) -> bool { return any(u.owner == "Red" and u.attack > 2 and u.move > 1 for u in units_at(s)) }
"""


def test_a_loop_looks_up_a_units_kind_only_for_the_units_its_first_tests_let_through() -> None:
    # the Blue pieces here are of a kind these rules do not know: the loops turn them down by
    # owner, and their type is never looked up (it is looked up once for each Red tank)
    from engine.board import Board, Space
    from engine.primitives import register_core
    from engine.state import GameState

    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([("types.rules", TYPES_LOOKED_UP)], reg)
    state = GameState(Board([Space("A", "A")]), rules)
    state.add_piece("Tank", "Red", "A")
    for _ in range(2):
        state.add_piece("Ghost", "Blue", "A")
    state.add_piece("Tank", "Red", "A")
    assert rules.procedure("strong_reds")(state, "A") == 2
    assert rules.procedure("any_fast_red")(state, "A") is True


SHARED = """
var flooded: list[str] = []
var marsh: map[str, bool] = {}
var sands: list[str] = []

procedure wet_places(dry: bool) -> list[str] { return if dry then sands else flooded }
procedure soggy() -> map[str, bool] { return marsh }
procedure wet_or_soggy(s: str) -> bool {
    let w = wet_places(false)
    return s in w or s in soggy()
}
procedure wetter(s: str) -> list[str] {
    let w = wet_places(false)
    w += [s]
    return w
}
procedure walk_wet(dry: bool) -> int {
    let n = 0
    for s in (if dry then wet_places(true) else wet_places(false)) { n += 1 }
    return n
}
"""


def test_a_game_variable_a_procedure_answers_with_is_read_as_the_caller_uses_it() -> None:
    """(only looked at, it is read as stored; kept and changed, it is the caller's copy)"""
    rules = dsl.load_rules([("shared.rules", SHARED)], dsl.Registry())
    game = _game(SimpleNamespace(extra=0))
    game.vars.update(flooded=("A", "B"), marsh={"C": True}, sands=("E",))
    assert rules.procedure("wet_or_soggy")(game, "B") is True
    assert rules.procedure("wet_or_soggy")(game, "C") is True
    assert rules.procedure("wet_or_soggy")(game, "D") is False
    assert rules.procedure("wetter")(game, "D") == ["A", "B", "D"]
    assert game.vars["flooded"] == ("A", "B")
    assert rules.procedure("walk_wet")(game, False) == 2 and rules.procedure("walk_wet")(game, True) == 1
