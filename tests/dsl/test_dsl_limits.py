"""The limits that keep shared rules from hanging a game or exhausting memory: the step budget
of a call into the rules, the length of lists, maps and strings, the size of integers, and
constants the checker refuses without computing them. Each hostile case must end in a clean
`file:line:col` error, quickly."""

from __future__ import annotations

import time

import pytest
from dsl_helpers import make_registry

import dsl
from dsl import RulesError, RulesLimitError, load_rules
from dsl.runtime import BUDGET, INT_MAX

#: these tests run under a smaller budget than the default, to be quick; one test checks
#: that the default stops a hostile loop as well
SMALL = 2_000_000


@pytest.fixture(autouse=True)
def small_budget():  # type: ignore[no-untyped-def]
    old = dsl.set_limits(steps=SMALL)
    yield
    dsl.set_limits(steps=old.steps, items=old.items)


def run(src: str, *args: object, name: str = "boom"):  # type: ignore[no-untyped-def]
    rules = load_rules([("hostile.rules", src)], make_registry())
    return rules.procedure(name)(None, *args)


def stopped(src: str, says: str, line: int, *args: object, seconds: float = 20.0) -> RulesLimitError:
    t0 = time.perf_counter()
    with pytest.raises(RulesLimitError) as info:
        run(src, *args)
    assert time.perf_counter() - t0 < seconds
    e = info.value
    assert e.pos is not None and e.pos.file == "hostile.rules" and e.pos.line == line, str(e)
    assert says in str(e), str(e)
    return e


def refused(src: str, says: str, seconds: float = 10.0) -> str:
    t0 = time.perf_counter()
    with pytest.raises(RulesError) as info:
        load_rules([("hostile.rules", src)], make_registry())
    assert time.perf_counter() - t0 < seconds
    assert says in str(info.value), str(info.value)
    return str(info.value)


# -- the step budget ---------------------------------------------------------------------------------
def test_two_nested_ranges_run_out_of_steps_and_say_how_to_raise_the_budget() -> None:
    e = stopped("procedure boom() -> int {\n    let n = 0\n    for i in range(0, 100000) {\n"
                "        for j in range(0, 100000) {\n            n += 1\n        }\n    }\n    return n\n}\n",
                f"more than {SMALL:,} steps in one call", 4)
    assert "--rules-budget" in str(e) and "dsl.set_limits(steps=" in str(e)


def test_the_default_budget_stops_a_hostile_loop_too() -> None:
    dsl.set_limits(steps=dsl.DEFAULT_STEPS)
    stopped("procedure boom() {\n    for i in range(0, 100000) {\n        for j in range(0, 100000) {\n"
            "            let x = i\n        }\n    }\n}\n", f"more than {dsl.DEFAULT_STEPS:,} steps", 3, seconds=60)


def test_nested_comprehensions_run_out_of_steps() -> None:
    stopped("procedure boom() -> int {\n    return count(i in range(100000) where "
            "count(j in range(100000) where j == i) > 0)\n}\n", "steps in one call", 2)


def test_a_long_list_searched_in_a_loop_pays_for_its_items() -> None:
    stopped("procedure boom() {\n    let xs = range(100000)\n    for i in range(100000) {\n"
            "        if i + 1000000 in xs {\n            return\n        }\n    }\n}\n", "steps in one call", 4)


_LOOP = "procedure boom() -> int {{\n{lets}    let n = 0\n    for i in range(100000) {{\n        if {test} {{\n" \
        "            n += 1\n        }}\n    }}\n    return n\n}}\n"


@pytest.mark.parametrize("lets, test", [
    ("    let a = range(100000)\n    let b = range(100000)\n", "a == b"),
    ("    let a = range(100000)\n    let b = range(100000)\n", "a != b"),
    ("    let a: map[int, int] = {}\n    for k in range(100000) {\n        a[k] = k\n    }\n    let b = a\n", "a == b"),
    ("    let a = [range(50000), range(50000)]\n    let b = [range(50000), range(50000)]\n", "a == b"),
    ("    let a = range(30000)\n    let b = [range(5), range(7), range(30000)]\n", "a in b"),
    ("    let a = range(30000)\n    let b = [range(5), range(7), range(30000)]\n", "a not in b"),
])
def test_long_lists_and_maps_compared_in_a_loop_pay_for_their_items(lets, test) -> None:  # type: ignore[no-untyped-def]
    line = 4 + lets.count("\n")
    stopped(_LOOP.format(lets=lets, test=test), "steps in one call", line)


@pytest.mark.parametrize("test, want", [
    ("[1, 2] == [1, 2]", True), ("[1, 2] != [1, 2]", False), ("[1, 2] == [2, 1]", False),
    ("{1: 2} == {1: 2}", True), ("[[1], [2]] == [[1], [2]]", True), ("[1] in [[1], [2]]", True),
    ("[3] not in [[1], [2]]", True), ("range(1000) == range(1000)", True), ("range(1000) == range(999)", False),
])
def test_lists_and_maps_compare_as_before(test, want) -> None:  # type: ignore[no-untyped-def]
    assert run(f"procedure boom() -> bool {{\n    return {test}\n}}\n") is want


def test_calls_that_double_sixty_times_are_refused_before_they_run() -> None:
    procs = "".join(f"procedure p{i}() {{\n    p{i - 1}()\n    p{i - 1}()\n}}\n" for i in range(1, 61))
    src = procs + "procedure p0() {\n}\nprocedure boom() {\n    p60()\n}\n"
    t0 = time.perf_counter()
    with pytest.raises(RulesLimitError, match="steps in one call"):
        run(src)
    assert time.perf_counter() - t0 < 5


def test_a_procedure_passed_to_a_primitive_pays_for_each_call() -> None:
    reg = make_registry()
    reg.primitive("call_many", lambda ctx, n, f: sum(f(i) for i in range(n)), params=[("n", "int"), ("f", "fn(int) -> int")],
                  returns="int", context=True)
    rules = load_rules([("hostile.rules", "procedure one(i: int) -> int {\n    return 1\n}\n"
                                          "procedure boom(n: int) -> int {\n    return call_many(n, one)\n}\n")], reg)
    assert rules.procedure("boom")(None, 1000) == 1000
    with pytest.raises(RulesLimitError):
        rules.procedure("boom")(None, 10**8)


def test_a_recursive_procedure_is_refused_by_the_checker() -> None:
    refused("procedure boom() {\n    boom()\n}\n", "`boom` calls itself")


def test_each_call_gets_a_fresh_budget_and_a_bigger_one_goes_further() -> None:
    src = "procedure boom(n: int) -> int {\n    let k = 0\n    for i in range(n) {\n        k += 1\n    }\n    return k\n}\n"
    rules = load_rules([("hostile.rules", src)], make_registry())
    for _ in range(5):              # five calls, each well within its own budget
        assert rules.procedure("boom")(None, 90_000) == 90_000
    dsl.set_limits(steps=100_000)
    with pytest.raises(RulesLimitError):
        rules.procedure("boom")(None, 90_000)
    dsl.set_limits(steps=SMALL)
    assert rules.procedure("boom")(None, 90_000) == 90_000
    assert BUDGET.depth == 0


# -- sizes --------------------------------------------------------------------------------------------
def test_a_list_extended_while_it_is_iterated_stops_at_the_item_limit() -> None:
    dsl.set_limits(steps=10 * dsl.DEFAULT_ITEMS)
    e = stopped("procedure boom() {\n    let xs = [1]\n    for x in xs {\n        xs += [x]\n    }\n}\n",
                f"a list of {dsl.DEFAULT_ITEMS + 1:,} items is over the limit", 4)
    assert "--rules-max-items" in str(e)


def test_a_map_iterated_while_it_grows_runs_over_its_keys_as_they_were() -> None:
    src = ("procedure boom() -> int {\n    let m: map[int, int] = {1: 1, 2: 2}\n    for k in m {\n"
           "        m[k + 10] = k\n    }\n    return len(m)\n}\n")
    assert run(src) == 4


@pytest.mark.parametrize("kind, start, says", [("string", '"ab"', "a string of 1,048,576 characters"),
                                               ("list", "[1, 2]", "a list of 1,048,576 items")])
def test_doubling_in_a_loop_stops_at_the_item_limit(kind, start, says) -> None:  # type: ignore[no-untyped-def]
    stopped(f"procedure boom() {{\n    let s = {start}\n    for i in range(100) {{\n        s = s + s\n    }}\n}}\n",
            says, 4)


def test_a_string_grown_by_appending_pays_for_its_copies() -> None:
    stopped('procedure boom() {\n    let s = ""\n    for i in range(100000) {\n        s += "abcdefghij"\n    }\n}\n',
            "steps in one call", 4)


def test_a_map_grows_no_further_than_the_item_limit() -> None:
    dsl.set_limits(items=1000)
    stopped("procedure boom() {\n    let m: map[int, int] = {}\n    for i in range(100000) {\n        m[i] = i\n    }\n}\n",
            "a map of 1,001 items is over the limit of 1,000", 4)


def test_the_item_limit_can_be_raised() -> None:
    dsl.set_limits(items=1000)
    src = "procedure boom() -> int {\n    let xs: list[int] = []\n    for i in range(2000) {\n        xs += [i]\n    }\n    return len(xs)\n}\n"
    with pytest.raises(RulesLimitError):
        run(src)
    dsl.set_limits(items=5000)
    assert run(src) == 2000


@pytest.mark.parametrize("body, line", [
    ("let x = 3\n    for i in range(100) {\n        x = x * x\n    }", 4),
    ("let x = 3\n    for i in range(100) {\n        x += x\n    }", 4),
    (f"let x = {INT_MAX}\n    x = x + 1", 3),
    (f"let x = -{INT_MAX}\n    x -= 2", 3),
    ('let x = int("' + "9" * 50 + '")', 2),
])
def test_integers_stay_within_64_bits(body, line) -> None:  # type: ignore[no-untyped-def]
    stopped(f"procedure boom() {{\n    {body}\n}}\n", "integers in rules lie within", line)


def test_the_largest_integers_are_allowed() -> None:
    assert run(f"procedure boom() -> int {{\n    let x = {INT_MAX}\n    return x - 1 + 1\n}}\n") == INT_MAX


def test_a_sum_only_compared_or_taken_modulo_is_not_kept_so_not_limited() -> None:
    # what is kept is a truth value or a remainder; the sum itself never reaches a variable
    assert run(f"procedure boom() -> bool {{\n    let x = {INT_MAX}\n    return x + 1 > x\n}}\n") is True
    assert run(f"procedure boom() -> int {{\n    let x = {INT_MAX}\n    return (x + 3) % 10\n}}\n") == (INT_MAX + 3) % 10
    stopped(f"procedure boom() -> int {{\n    let x = {INT_MAX}\n    let y = (x + 3) * 2 % 10\n    return y\n}}\n",
            "integers in rules lie within", 3)


def test_a_sum_tests_its_items_for_size_only_as_part_of_the_sum() -> None:
    # each item is worked out only to be added: the sum is what is kept
    assert run(f"procedure boom() -> int {{\n    let xs = [{INT_MAX}, -{INT_MAX}]\n    return sum(x + 1 for x in xs)\n}}\n") == 2
    assert run(f"procedure boom() -> int {{\n    let xs = [{INT_MAX}, -{INT_MAX}]\n    return sum(x * 2 for x in xs)\n}}\n") == 0
    stopped(f"procedure boom() -> int {{\n    let xs = [{INT_MAX}, 1]\n    return sum(x + 1 for x in xs)\n}}\n",
            "integers in rules lie within", 3)


def test_a_text_joined_only_to_be_looked_for_is_not_kept_so_not_limited() -> None:
    # `p + "/" + tech in techs`: the joined text is looked for, then dropped
    dsl.set_limits(items=50)
    a = "x" * 40
    assert run(f'procedure boom() -> bool {{\n    let a = "{a}"\n    return a + "/" + a in ["y", "z"]\n}}\n') is False
    assert run(f'procedure boom() -> bool {{\n    let a = "{a}"\n    return a + a not in ["y", "z"]\n}}\n') is True
    stopped(f'procedure boom() -> bool {{\n    let a = "{a}"\n    let t = a + "/" + a\n    return t in ["y"]\n}}\n',
            "over the limit of 50 characters", 3)


def test_a_list_grown_while_going_through_a_collection_is_still_limited() -> None:
    # its length is tested once after the loop (the loop cannot run for ever), at the line
    # that grew it; a list gone through while it grows, or given back from inside, as it goes
    dsl.set_limits(items=1000)
    make = "    let src: list[int] = []\n    for i in range(600) {\n        src += [i]\n    }\n"
    grow = "        if x >= 0 {\n            out += [x, x]\n        }\n"
    stopped(f"procedure boom() -> int {{\n{make}    let out: list[int] = []\n    for x in src {{\n{grow}    }}\n"
            "    return len(out)\n}\n", "items is over the limit of 1,000", 9)
    stopped(f"procedure boom() -> int {{\n{make}    let out: list[int] = []\n    for x in src {{\n{grow}"
            "        if len(out) > 5000 {\n            return 0\n        }\n    }\n    return len(out)\n}\n",
            "a list of 1,002 items is over the limit of 1,000", 9)
    assert run(f"procedure boom() -> int {{\n{make}    let out: list[int] = []\n    for x in src {{\n"
               "        out += [x]\n    }\n    return len(out)\n}\n") == 600


def test_a_list_gone_through_under_another_name_while_it_grows_stops_at_the_item_limit() -> None:
    dsl.set_limits(steps=10 * dsl.DEFAULT_ITEMS)
    stopped("procedure boom() {\n    let xs: list[int] = [1]\n    let ys = xs\n    for y in ys {\n        xs += [y]\n    }\n}\n",
            f"a list of {dsl.DEFAULT_ITEMS + 1:,} items is over the limit", 5)


def test_a_map_grown_while_going_through_a_collection_is_still_limited() -> None:
    dsl.set_limits(items=1000)
    src = ("procedure boom() -> int {\n    let src: list[int] = []\n    for i in range(600) {\n        src += [i]\n    }\n"
           "    let m: map[int, bool] = {}\n    for x in src {\n        m[x] = true\n        m[x + 5000] = false\n    }\n"
           "    return len(m)\n}\n")
    stopped(src, "a map of 1,200 items is over the limit of 1,000", 8)
    dsl.set_limits(items=5000)
    assert run(src) == 1200


def test_text_looked_for_in_a_unit_s_space_needs_no_length_test() -> None:
    # a name the engine holds is no longer than the game's data: looked for without a test
    from dsl_helpers import Piece

    boom = load_rules([("hostile.rules", 'procedure boom(u: Unit) -> bool {\n    return "chart:" in u.space\n}\n')],
                      make_registry()).procedure("boom")
    assert boom(None, Piece(1, "inf", space="x" * 100 + "chart:east:3")) is True
    assert boom(None, Piece(2, "inf", space="h0101")) is False


def test_an_index_in_a_compound_assignment_is_worked_out_once() -> None:
    from dsl_helpers import Ctx

    src = ("procedure at(i: int) -> int {\n    note(\"at\")\n    return i\n}\n"
           "procedure boom() -> list[int] {\n    let xs = [0, 0, 0]\n    xs[at(1)] += 5\n    return xs\n}\n")
    ctx = Ctx()
    assert load_rules([("hostile.rules", src)], make_registry()).procedure("boom")(ctx) == [0, 5, 0]
    assert ctx.log == ["at"]


# -- constants: refused without being computed ---------------------------------------------------------
def test_a_string_times_a_billion_is_refused_and_never_computed() -> None:
    text = refused('option huge: str = "a" * 1000000000\n', "cannot apply `*` to `str` and `int`", seconds=2)
    assert "1 error" not in text or text.count("hostile.rules") == 1


def test_a_4301_digit_literal_is_a_parse_error() -> None:
    text = refused("option huge: int = " + "7" * 4301 + "\n", "(4,301 digits) is too big", seconds=2)
    assert "hostile.rules:1:20:" in text
    assert max(len(line) for line in text.splitlines()) < 400     # the line is shown cut short


@pytest.mark.parametrize("src, says", [
    (f"option huge: int = {INT_MAX + 1}\n", "is too big"),
    (f"option huge: int = {INT_MAX} * {INT_MAX}\n", "beyond the integers of the rules"),
    ("option s: str = " + " + ".join(['"' + "x" * 100 + '"'] * 1100) + "\n", "nest too deeply"),
    ("option s: str = " + " + ".join(['"' + "x" * 1000 + '"'] * 300) + "\n", "bytes; a rules file may have"),
    ("stat attack: int = 0\nunit A { attack: 9223372036854775807 + 1 }\n", "beyond the integers"),
    ("option huge: float = 1" + "0" * 400 + ".5\n", "is too big: numbers with a point in rules lie within ±1.8e+308"),
])
def test_constants_beyond_the_limits_are_refused(src, says) -> None:  # type: ignore[no-untyped-def]
    refused(src, says)


def test_a_long_constant_is_refused_without_being_built() -> None:
    from dsl import ast as A
    from dsl import checker
    from dsl.errors import Pos

    at = Pos("x.rules", 1, 1)
    huge = A.BinOp(at, "+", A.StrLit(at, "x" * 600_000), A.StrLit(at, "y" * 600_000))
    with pytest.raises(checker.TooBig, match="1,200,000 characters long; the limit is 1,000,000"):
        checker.static_eval(huge, {})
    small = A.BinOp(at, "+", A.StrLit(at, "x" * 1000), A.StrLit(at, "y" * 1000))
    with pytest.raises(checker.TooBig, match="build too much"):
        checker.static_eval(small, {}, [1000])      # what a whole load may build is counted down
    times = A.BinOp(at, "*", A.StrLit(at, "a"), A.IntLit(at, 10**9))
    with pytest.raises(checker.NotStatic):
        checker.static_eval(times, {})


@pytest.mark.parametrize("src", [
    "procedure p() -> int {\n    return " + "1" + " + (1" * 300 + ")" * 300 + "\n}\n",
    "procedure p() {\n" + "if true {\n" * 200 + "}\n" * 200 + "}\n",
    "procedure p() -> int {\n    return " + " + ".join(["1"] * 20_000) + "\n}\n",
])
def test_rules_nested_too_deeply_are_one_error(src) -> None:  # type: ignore[no-untyped-def]
    refused(src, "the rules nest too deeply", seconds=30)
    assert any("nest too deeply" in d.message for d in dsl.check_rules([("hostile.rules", src)], make_registry()))


def test_set_limits_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        dsl.set_limits(steps=0)
    with pytest.raises(ValueError):
        dsl.set_limits(items=-5)
