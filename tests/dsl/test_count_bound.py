"""A count compared with a bound (`len(P(...)) >= n`, P a procedure that only builds its
list in loops) is worked out by counting and stopping once the answer is known: the
answers must be those of the whole list, at, below and above the bound, whichever way the
comparison is written."""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import Any

import pytest

import dsl

RULES = """
# the spaces' tokens that are ready, the space itself first, then its listed neighbours
procedure near(s: str, others: list[str]) -> list[str] {
    let out = [s]
    for o in others {
        if crowd(o) >= 0 {
            out += [o]
        }
    }
    return out
}
procedure ready_tokens(s: str, others: list[str]) -> list[str] {
    let out: list[str] = []
    for x in near(s, others) {
        out += [x + "#" + str(i) for i in range(0, crowd(x)) where ready(x, i)]
    }
    return out
}
procedure at_least(s: str, others: list[str], n: int) -> bool { return len(ready_tokens(s, others)) >= n }
procedure more_than(s: str, others: list[str], n: int) -> bool { return len(ready_tokens(s, others)) > n }
procedure fewer_than(s: str, others: list[str], n: int) -> bool { return len(ready_tokens(s, others)) < n }
procedure at_most(s: str, others: list[str], n: int) -> bool { return len(ready_tokens(s, others)) <= n }
procedure exactly(s: str, others: list[str], n: int) -> bool { return len(ready_tokens(s, others)) == n }
procedure not_exactly(s: str, others: list[str], n: int) -> bool { return len(ready_tokens(s, others)) != n }
procedure flipped(s: str, others: list[str], n: int) -> bool { return n < len(ready_tokens(s, others)) }
procedure two_or_more(s: str, others: list[str]) -> bool { return len(ready_tokens(s, others)) >= 2 }
procedure none(s: str, others: list[str]) -> bool { return len(ready_tokens(s, others)) == 0 }
procedure how_many(s: str, others: list[str]) -> int { return len(ready_tokens(s, others)) }
procedure in_filter(spaces: list[str], n: int) -> list[str] {
    return [s for s in spaces where len(ready_tokens(s, [])) >= n]
}
"""

OTHERS = ["b", "c"]


def _rules() -> tuple[Any, dict[str, int]]:
    asked = {"ready": 0}
    return dsl.load_rules([("count.rules", RULES)], _registry(asked)), asked


def _registry(asked: dict[str, int]) -> Any:
    def crowd(ctx: Any, s: str) -> int:
        return ctx.crowds.get(s, 0)

    def ready(ctx: Any, s: str, i: int) -> bool:
        asked["ready"] += 1
        return (s, i) not in ctx.unready

    reg = dsl.Registry()
    reg.primitive("crowd", crowd, [("s", "str")], "int", context=True)          # reads the game
    reg.primitive("ready", ready, [("s", "str"), ("i", "int")], "bool", context=True)
    return reg


def _game(crowds: dict[str, int], unready: set[tuple[str, int]] = frozenset()) -> SimpleNamespace:  # type: ignore[assignment]
    return SimpleNamespace(vars={}, crowds=crowds, unready=set(unready))


# (each game's tokens: a 1, b 2, c 1, one of b's not ready: 3 ready in all, spread over
# three spaces, so that a count stopped a space too early or too late shows)
GAMES = [
    _game({}),
    _game({"a": 1}),
    _game({"a": 1, "b": 2}, {("b", 0)}),
    _game({"a": 1, "b": 2, "c": 1}, {("b", 0)}),
    _game({"a": 2, "b": 2, "c": 3}),
]

CASES = {
    "at_least": lambda c, n: c >= n,
    "more_than": lambda c, n: c > n,
    "fewer_than": lambda c, n: c < n,
    "at_most": lambda c, n: c <= n,
    "exactly": lambda c, n: c == n,
    "not_exactly": lambda c, n: c != n,
    "flipped": lambda c, n: n < c,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_count_compared_with_a_bound_answers_as_the_whole_list_would(name: str) -> None:
    rules, _ = _rules()
    proc, how_many = rules.procedure(name), rules.procedure("how_many")
    for game in GAMES:
        count = how_many(game, "a", OTHERS)
        assert count == len(rules.procedure("ready_tokens")(game, "a", OTHERS))
        # below, at and above the bound (and a bound of 0 or less)
        for n in range(-1, count + 3):
            assert proc(game, "a", OTHERS, n) is CASES[name](count, n), (name, game.crowds, n)


def test_a_literal_bound_and_a_count_in_a_comprehensions_where() -> None:
    rules, _ = _rules()
    two, none, inside = rules.procedure("two_or_more"), rules.procedure("none"), rules.procedure("in_filter")
    assert [two(g, "a", OTHERS) for g in GAMES] == [False, False, True, True, True]
    assert [none(g, "a", OTHERS) for g in GAMES] == [True, False, False, False, False]
    game = _game({"a": 1, "b": 2, "c": 3}, {("c", 1)})
    assert inside(game, ["a", "b", "c", "d"], 2) == ["b", "c"]
    assert inside(game, ["a", "b", "c", "d"], 0) == ["a", "b", "c", "d"]


def test_the_count_stops_once_the_answer_is_known() -> None:
    rules, asked = _rules()
    game = _game({"a": 2, "b": 2, "c": 3})
    assert rules.procedure("at_least")(game, "a", OTHERS, 1) is True
    assert asked["ready"] == 1            # the first token answers it
    asked["ready"] = 0
    assert rules.procedure("more_than")(game, "a", OTHERS, 2) is True
    assert asked["ready"] == 3            # two do not tell "more than 2": a third does
    asked["ready"] = 0
    assert rules.procedure("at_least")(game, "a", OTHERS, 9) is False
    assert asked["ready"] == 7            # every token, as the list would
    source = inspect.getsource(rules.procedure("at_least").__wrapped__)
    assert "f_ready_tokens__count(" in source



COMPREHENSION = """
procedure busy(spaces: list[str], least: int) -> list[str] {
    let floor = least + 0
    return [s for s in spaces where crowd(s) >= floor and ready(s, 0)]
}
procedure busy_enough(spaces: list[str], least: int, n: int) -> bool { return len(busy(spaces, least)) > n }
procedure too_few(spaces: list[str], least: int, n: int) -> bool { return n >= len(busy(spaces, least)) }
"""


def test_a_count_of_a_procedures_comprehension_compared_with_a_bound() -> None:
    rules, asked = _rules()
    more = dsl.load_rules([("count.rules", RULES + COMPREHENSION)], _registry(asked))
    game = _game({"a": 1, "b": 2, "c": 3, "d": 2}, {("c", 0)})
    spaces = ["a", "b", "c", "d"]
    for least in range(0, 5):
        count = len(more.procedure("busy")(game, spaces, least))
        for n in range(-1, 6):
            assert more.procedure("busy_enough")(game, spaces, least, n) is (count > n), (least, n)
            assert more.procedure("too_few")(game, spaces, least, n) is (n >= count), (least, n)
    asked["ready"] = 0
    assert more.procedure("busy_enough")(game, spaces, 0, 1) is True and asked["ready"] == 2     # a and b
