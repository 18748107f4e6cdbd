"""An aggregate a statement takes whole (`let ok = any(...)`, `if any(...) {`, `let n =
sum(...)`, `return first(...)`) is compiled as a loop written before the statement: a rules
file must never notice. Its answer, its short cuts, its loop's name, its limits and its
failures are those of the aggregate."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest
from dsl_helpers import make_registry

import dsl
from dsl import RulesLimitError, RulesRuntimeError, load_rules
from dsl.runtime import INT_MAX


def run(src: str, *args: object, name: str = "f"):  # type: ignore[no-untyped-def]
    rules = load_rules([("agg.rules", src)], make_registry())
    return rules.procedure(name)(None, *args)


@pytest.mark.parametrize("body, xs, want", [
    ("let ok = any(x > 2 for x in xs)\n    return ok", [1, 3], True),
    ("let ok = any(x > 2 for x in xs)\n    return ok", [1, 2], False),
    ("let ok = any(x in xs where x > 2)\n    return ok", [], False),
    ("let ok = all(x > 0 for x in xs)\n    return ok", [1, 2], True),
    ("let ok = all(x > 0 for x in xs where x != 5)\n    return ok", [1, 0], False),
    ("let ok = not any(x > 2 for x in xs)\n    return ok", [3], False),
    ("let ok = len(xs) > 1 and any(x > 2 for x in xs)\n    return ok", [3], False),
    ("let ok = len(xs) > 1 or all(x > 2 for x in xs)\n    return ok", [3], True),
    ("let ok = false\n    ok = any(x > 2 for x in xs) and ok\n    return ok", [3], False),
    ("if any(x > 2 for x in xs) {\n        return true\n    }\n    return false", [5], True),
    ("if not all(x > 2 for x in xs) {\n        return true\n    }\n    return false", [5], False),
])
def test_a_search_taken_whole_answers_as_any_and_all_do(body, xs, want) -> None:  # type: ignore[no-untyped-def]
    assert run(f"procedure f(xs: list[int]) -> bool {{\n    {body}\n}}\n", xs) is want


def test_a_sum_or_first_taken_whole_answers_as_before() -> None:
    src = ("procedure f(xs: list[int]) -> list[int] {\n"
           "    let n = sum(x * 2 for x in xs where x > 1)\n"
           "    let m = sum(x for x in xs where x > 100)\n"
           "    let y = first(x in xs where x > 1)\n"
           "    return [n, m, y]\n}\n")
    assert run(src, [1, 2, 3]) == [10, 0, 2]
    src = "procedure f(xs: list[int]) -> int {\n    return first(x in xs where x > 9)\n}\n"
    with pytest.raises(RulesRuntimeError) as info:
        run(src, [1])
    assert "`first` found no item" in str(info.value) and info.value.pos is not None and info.value.pos.line == 2


def test_a_list_whose_where_searches_holds_what_the_comprehension_held() -> None:
    src = ("procedure f(xs: list[int]) -> list[int] {\n"
           "    let near = [x * 10 for x in xs where x > 1 and any(y == x + 1 for y in xs) and not all(y > 1 for y in xs)]\n"
           "    return near + [x for x in xs where all(y <= x for y in xs)]\n}\n")
    assert run(src, [1, 2, 3, 5, 4]) == [20, 30, 40, 5]
    assert run(src, []) == []


def test_an_if_of_several_searches_asks_them_in_order_and_stops_at_the_answer() -> None:
    # `len(P(...)) > 0`, P returning a comprehension, is a search over it in P's place
    src = ("procedure above(xs: list[int], n: int) -> list[int] {\n"
           "    let m = n + 1\n"
           "    return [x for x in xs where x > m]\n}\n"
           "procedure f(xs: list[int], n: int) -> int {\n"
           "    let t = 0\n"
           "    for k in xs {\n"
           "        if k != n and len(above(xs, k)) > 0 and len(above(xs, k + 10)) == 0 and any(x == k for x in xs) {\n"
           "            t += k\n"
           "        }\n"
           "    }\n"
           "    let none = len(above(xs, n)) == 0 or all(x < 0 for x in xs)\n"
           "    return t * 10 + (if none then 1 else 0)\n}\n")
    assert run(src, [1, 4, 9], 1) == 40 + 0
    assert run(src, [1, 4, 9], 20) == 50 + 1


def test_emptiness_of_a_list_whose_where_searches_answers_as_the_list_would() -> None:
    # `len(near(...)) > 0`, near's `where` a search: a loop with a loop inside it; where the
    # caller names the inner search's item itself (`y`), the inner loop's item is named afresh
    # (near reads nothing of the game, so its answers are kept: what the statement does with
    # a procedure that does is `test_a_test_written_in_place_of_its_call_searches_...` below)
    src = ("procedure near(xs: list[int], n: int) -> list[int] {\n"
           "    return [x for x in xs where x > n and any(y in xs where y == x + 1)]\n}\n"
           "procedure f(xs: list[int], n: int) -> int {\n"
           "    let some = len(near(xs, n)) > 0\n"
           "    let none = n > 100 or len(near(xs, n + 1)) == 0\n"
           "    return (if some then 10 else 0) + (if none then 1 else 0)\n}\n"
           "procedure g(xs: list[int], n: int) -> int {\n"
           "    let y = 0\n"
           "    let some = len(near(xs, n)) > 0\n"
           "    return y + (if some then 10 else 0)\n}\n")
    assert run(src, [1, 2, 3, 7], 0) == 10
    assert run(src, [1, 2, 3, 7], 1) == 10 + 1
    assert run(src, [1, 3, 7], 0) == 1
    assert run(src, [], 0) == 1
    assert run(src, [1, 2, 3], 1, name="g") == 10 and run(src, [1, 3], 0, name="g") == 0
    rules = load_rules([("agg.rules", src)], make_registry())
    assert "f_near(" not in inspect.getsource(rules.procedure("f").__wrapped__)


def test_a_test_written_in_place_of_its_call_searches_as_the_call_would() -> None:
    # `if ready(xs, y)`, ready a short test whose `len(near(...)) > 0` searches: the statement
    # works ready's test out as loops in place of the call, in order, stopping where the answer
    # is known; the caller's `y` is not near's `y` (both read a game variable, so that neither
    # is a board procedure whose answers are kept)
    src = ("var skip: int = 5\n"
           "procedure near(xs: list[int], n: int) -> list[int] {\n"
           "    return [x for x in xs where x > n + skip - 5 and any(y in xs where y == x + 1)]\n}\n"
           "procedure ready(xs: list[int], n: int) -> bool {\n"
           "    return n >= 0 and len(near(xs, n)) > 0 and n != skip\n}\n"
           "procedure h(xs: list[int]) -> int {\n"
           "    let total = 0\n"
           "    for y in xs {\n"
           "        if ready(xs, y) {\n"
           "            total += y\n"
           "        }\n"
           "    }\n"
           "    return total\n}\n")
    rules = load_rules([("agg.rules", src)], make_registry())
    h = rules.procedure("h")
    game = SimpleNamespace(vars={"skip": 5}, board=None)
    assert h(game, [1, 2, 3, 7]) == 1
    assert h(game, [1, 2, 3, 4]) == 1 + 2
    assert h(game, [-1, 5, 1, 2, 6, 7]) == 1 + 2
    assert h(game, []) == 0
    source = inspect.getsource(h.__wrapped__)
    assert "f_near(" not in source and "f_ready(" not in source and "break" in source


def test_the_loops_name_leaves_the_rules_own_locals_alone() -> None:
    # `x` is the search's item, and after it a local of the procedure and a loop's item
    src = ("procedure f(xs: list[int]) -> int {\n"
           "    let ok = any(x > 2 for x in xs)\n"
           "    let t = 0\n"
           "    for x in xs {\n"
           "        if any(x > y for y in xs) {\n"
           "            t += x\n"
           "        }\n"
           "    }\n"
           "    let x = 7\n"
           "    let n = sum(y for y in xs)\n"
           "    return t * 100 + x + n + (if ok then 1000 else 0)\n}\n")
    assert run(src, [1, 5, 3]) == 1000 + 800 + 7 + 9


def test_a_sum_taken_whole_stays_within_the_limits() -> None:
    src = "procedure f(xs: list[int]) -> int {\n    let n = sum(x + 1 for x in xs)\n    return n\n}\n"
    assert run(src, [INT_MAX, -INT_MAX]) == 2
    with pytest.raises(RulesLimitError) as info:
        run(src, [INT_MAX, 1])
    assert info.value.pos is not None and info.value.pos.line == 2
    old = dsl.set_limits(steps=1000)
    try:
        src = "procedure f(n: int) -> bool {\n    let ok = any(i < 0 for i in range(n))\n    return ok\n}\n"
        assert run(src, 10) is False
        with pytest.raises(RulesLimitError):
            run(src, 100_000)
    finally:
        dsl.set_limits(steps=old.steps)


@pytest.mark.parametrize("grow, want", [
    ("out += [x * 2 for x in xs where x > 1]", [0, 4, 6, 4]),
    # (a comprehension that reads the list it is added to sees it as it was: not a loop)
    ("out += [x for x in xs where x not in out]", [0, 1, 2, 3, 2]),
    ("for y in [1, 2] {\n        out += [x + y for x in xs where x == y]\n    }", [0, 2, 4, 4]),
])
def test_a_list_grown_by_a_comprehension_grows_as_the_comprehension_says(grow, want) -> None:  # type: ignore[no-untyped-def]
    src = f"procedure f(xs: list[int]) -> list[int] {{\n    let out: list[int] = [0]\n    {grow}\n    return out\n}}\n"
    assert run(src, [1, 2, 3, 2]) == want


def test_a_list_grown_by_comprehensions_in_a_loop_stops_at_the_item_limit() -> None:
    old = dsl.set_limits(items=1000)
    try:
        src = ("procedure f(xs: list[int]) -> int {\n    let out: list[int] = []\n    for y in xs {\n"
               "        out += [x for x in xs where x >= 0]\n    }\n    return len(out)\n}\n")
        assert run(src, list(range(30))) == 900
        with pytest.raises(RulesLimitError) as info:
            run(src, list(range(40)))
        assert "over the limit of 1,000" in str(info.value)
    finally:
        dsl.set_limits(items=old.items)
