"""Options (overrides, coercion), the sandbox against hostile files, runtime errors with
rules positions, parse errors, sequence, and property tests."""

from __future__ import annotations

import pytest
from dsl_helpers import Ctx, Piece, make_registry
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl import MAX_RANGE, RulesError, RulesRuntimeError, check_rules, load_rules, parse_module

OPTIONS = """
option stacking_limit: int = 4 "seed: 4 combat units per hex; rulebook: 12"
option blitz: bool = true
option supply_rate: float = 1.5
option weather: str = "clear"
option supply_income: map[str, int] = { Axis: 9, Allies: 11 } "tokens per turn"
procedure limit() -> int { return stacking_limit }
"""


# ------------------------------------------------------------------ options


def test_option_defaults_and_specs(load) -> None:  # type: ignore[no-untyped-def]
    r = load(OPTIONS)
    assert r.options == {"stacking_limit": 4, "blitz": True, "supply_rate": 1.5, "weather": "clear",
                         "supply_income": {"Axis": 9, "Allies": 11}}
    spec = r.option_specs["stacking_limit"]
    assert (spec.name, str(spec.type), spec.default, spec.pos.line) == ("stacking_limit", "int", 4, 2)
    assert spec.doc.startswith("seed")


@pytest.mark.parametrize("name,raw,value", [
    ("stacking_limit", "12", 12), ("stacking_limit", 12, 12), ("blitz", "no", False), ("blitz", "1", True),
    ("blitz", "yes", True), ("supply_rate", "2", 2.0), ("supply_rate", 3, 3.0), ("weather", "snow", "snow"),
    ("supply_income", '{"Axis": 1, "Allies": 2}', {"Axis": 1, "Allies": 2}),
])
def test_option_override_coercion(load, name, raw, value) -> None:  # type: ignore[no-untyped-def]
    r = load(OPTIONS, options={name: raw})
    assert r.options[name] == value and type(r.options[name]) is type(value)


def test_option_override_reaches_compiled_code(load) -> None:  # type: ignore[no-untyped-def]
    r = load(OPTIONS)
    r12 = r.with_options({"stacking_limit": "12"})
    assert r.procedure("limit")(None) == 4 and r12.procedure("limit")(None) == 12
    assert r12.options["stacking_limit"] == 12 and r.options["stacking_limit"] == 4


@pytest.mark.parametrize("overrides,message", [
    ({"stacking_limt": 3}, "unknown option `stacking_limt`"),
    ({"stacking_limit": "many"}, "option `stacking_limit` is `int`: `many` is not a whole number"),
    ({"stacking_limit": 1.5}, "option `stacking_limit` is `int`: got float 1.5"),
    ({"blitz": "maybe"}, "option `blitz` is `bool`: `maybe` is not true/false/yes/no/1/0"),
    ({"blitz": 1}, "option `blitz` is `bool`: got int 1"),
])
def test_option_override_errors(load, overrides, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError) as info:
        load(OPTIONS, options=overrides)
    assert info.value.diagnostics[0].message == message


def test_unknown_option_hint(load) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError) as info:
        load(OPTIONS).with_options({"stacking_limt": 3})
    assert info.value.diagnostics[0].hint == "did you mean `stacking_limit`?"


# ------------------------------------------------------------------ sandbox


@pytest.mark.parametrize("src,needle", [
    ('procedure f() { __import__("os") }', "names starting with `_` are reserved"),
    ("procedure f(u: Unit) -> int { return u.__class__ }", "names starting with `_` are reserved"),
    ('procedure f() { open("f") }', "unknown procedure `open`"),
    ('procedure f() { eval("1") }', "unknown procedure `eval`"),
    ('procedure f() -> int { return _secret }', "names starting with `_` are reserved"),
    ("procedure f(x: int) -> int { return x.real }", "cannot read `.real` of a `int` value"),
    ('procedure f() -> str { return "a".upper() }', "only named procedures, tables and functions can be called"),
    ("procedure f(n: int) -> int { return f(n + 1) }", "recursion is not allowed"),
    ("procedure f() -> int { return 10**12 }", "unexpected `*`"),
    ("procedure f() { import os }", "this expression does nothing on its own"),
])
def test_hostile_files_are_refused(reg, src, needle) -> None:  # type: ignore[no-untyped-def]
    msgs = " | ".join(d.message for d in check_rules([("evil.rules", src)], reg))
    assert needle in msgs


def test_range_bound_is_enforced(load) -> None:  # type: ignore[no-untyped-def]
    r = load("procedure spin() -> int {\n  let n = 0\n  for i in range(0, 1000000000000) { n += 1 }\n  return n\n}\n"
             "procedure ok() -> int { let n = 0 for i in range(0, 100000) { n += 1 } return n }")
    with pytest.raises(RulesRuntimeError) as info:
        r.procedure("spin")(None)
    assert info.value.pos is not None and (info.value.pos.line, info.value.pos.col) == (3, 3)
    assert f"the limit is {MAX_RANGE:,}" in str(info.value)
    assert r.procedure("ok")(None) == 100000


def test_python_code_in_a_string_is_just_a_string(load) -> None:  # type: ignore[no-untyped-def]
    r = load('procedure f() -> str { return "__import__(\\"os\\").system(\\"echo pwned\\")" }')
    assert r.procedure("f")(None) == '__import__("os").system("echo pwned")'


def test_generated_code_has_no_builtins(load) -> None:  # type: ignore[no-untyped-def]
    r = load("procedure f() -> int { return 1 }")
    fn = r.procedure("f").__wrapped__
    assert fn.__globals__["__builtins__"] == {}
    assert not any(k.startswith("__") and k != "__builtins__" for k in fn.__globals__)


# ------------------------------------------------------------------ runtime errors


def test_runtime_errors_carry_rules_positions(load) -> None:  # type: ignore[no-untyped-def]
    r = load(
        "table cost(kind: str) -> int { \"Infantry\" => 3 }\n"
        "procedure div(a: int, b: int) -> int {\n"
        "    let q = a // b\n"
        "    return q\n"
        "}\n"
        "procedure at(xs: list[int], i: int) -> int {\n"
        "    return xs[i]\n"
        "}\n"
        "procedure price(k: str) -> int {\n"
        "    let p = cost(k)\n"
        "    return p\n"
        "}\n",
        "runtime.rules",
    )
    cases = [("div", (1, 0), "runtime.rules:3:5: division by zero"),
             ("at", ([1, 2], 5), "runtime.rules:7:5: index out of range"),
             ("price", ("Tank",), "runtime.rules:10:5: table `cost` has no entry for 'Tank' and no `default`")]
    for name, args, text in cases:
        with pytest.raises(RulesRuntimeError) as info:
            r.procedure(name)(None, *args)
        assert str(info.value) == text
    with pytest.raises(RulesRuntimeError, match="no entry for 'Tank'"):
        r.tables["cost"]("Tank")


def test_host_bugs_are_not_disguised(reg) -> None:  # type: ignore[no-untyped-def]
    def broken(ctx: object) -> int:
        return 1 // 0

    reg.primitive("broken", broken, params=[], returns="int", context=True)
    r = load_rules([("t.rules", "procedure f() -> int { return broken() }")], reg)
    with pytest.raises(ZeroDivisionError):
        r.procedure("f")(None)


# ------------------------------------------------------------------ parse errors


@pytest.mark.parametrize("src,pos,message", [
    ("unit X { attack 1 }", (1, 17), "unexpected number `1`, expected `:`"),
    ("procedure f() {\n  let x = \n}", (3, 1), "unexpected `}`, expected an expression"),
    ("procedure f() {", (1, 16), "unexpected end of file, expected `}` or a statement"),
    ("unit X { a: 'x' }", (1, 13), "unexpected character `'`"),
    ("procedure f() -> int { return 1 < 2 < 3 }", (1, 37), "unexpected `<`, expected `and`, `or`, `}`, a statement or an operator"),
    ("stat attack int = 0", (1, 13), "unexpected name `int`, expected `:`"),
])
def test_parse_errors(src, pos, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError) as info:
        parse_module(src, "p.rules")
    d = info.value.diagnostics[0]
    assert ((d.pos.line, d.pos.col), d.message) == (pos, message)


def test_parse_errors_in_several_files_are_all_reported(reg) -> None:  # type: ignore[no-untyped-def]
    diags = check_rules([("a.rules", "unit {"), ("b.rules", "stat x int")], reg)
    assert [d.pos.file for d in diags] == ["a.rules", "b.rules"]


# ------------------------------------------------------------------ language features


def test_expressions_and_statements(load) -> None:  # type: ignore[no-untyped-def]
    r = load("""
stat attack: int = 0
tag zoc
unit Infantry [zoc] { attack: 1 }
unit Truck { }
table unit_cost(kind: str, power: str) -> int { ("Infantry", USSR) => 2, default => 3 }
procedure demo(us: list[Unit]) -> map[str, int] {
    let out = { "n": len(us) }
    out["inf"] = count(u in us where u is Infantry)
    out["notinf"] = count(u in us where u is not Infantry)
    out["zoc"] = count(u in us where u has zoc)
    out["best"] = max(u.attack for u in us)
    out["any"] = if any(u in us where u.hits > 0) then 1 else 0
    out["all"] = if all(u.attack >= 0 for u in us) then 1 else 0
    out["cost"] = unit_cost("Infantry", USSR) + unit_cost("Infantry", UK)
    let total = 0
    for i in range(len(us)) where i % 2 == 0 { total += i }
    for k in sorted(keys({ "b": 1, "a": 2 })) { if k == "a" { total -= 1 } else if k == "b" { total += 10 } else { total = 0 } }
    out["total"] = total
    out["div"] = int(7 / 2 * 2.0) + 7 // 2 + 7 % 3 + abs(-2) + min(1, 2)
    out["in"] = if "Axis" in [Axis, Allies] and not (3 not in [1, 2]) then 1 else 0
    out["str"] = len(str(42) + "x")
    out["type"] = if Infantry.attack == 1 and Infantry.name == "Infantry" and Infantry has zoc then 1 else 0
    return out
}
""")
    us = [Piece(1, "Infantry"), Piece(2, "Truck", hits=1), Piece(3, "Infantry")]
    out = r.procedure("demo")(Ctx(), us)
    assert out == {"n": 3, "inf": 2, "notinf": 1, "zoc": 2, "best": 1, "any": 1, "all": 1, "cost": 5,
                   "total": 11, "div": 7 + 3 + 1 + 2 + 1, "in": 0, "str": 3, "type": 1}


def test_sequence(load) -> None:  # type: ignore[no-untyped-def]
    r = load("""
turns 8 named ["Red", "Blue", "Green", "Yellow", "Black", "Gray", "Purple", "White"]
powers [Axis, Allies]
phase air_combat when turn >= 5 { steps [initiative, placement, resolution, return_home] }
phase ground_combat { steps [initiative, attacks] }
""")
    seq = r.sequence
    assert seq.turns == 8 and seq.turn_name(5) == "Black" and seq.mode == "shared"
    assert seq.powers == ("Axis", "Allies")
    air, ground = seq.phases
    assert air.steps[0] == "initiative" and not air.active(4) and air.active(5) and ground.active(1)


# ------------------------------------------------------------------ properties

_ints = st.integers(min_value=-50, max_value=50)


@st.composite
def arith(draw, depth: int = 0):  # type: ignore[no-untyped-def]
    if depth > 3 or draw(st.booleans()):
        n = draw(_ints)
        return str(n) if n >= 0 else f"({n})"
    op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
    left, right = draw(arith(depth + 1)), draw(arith(depth + 1))
    return f"({left} {op} {right})"


@settings(max_examples=150, deadline=None)
@given(arith())
def test_arithmetic_matches_python(expr: str) -> None:
    reg = make_registry()
    r = load_rules([("p.rules", f"procedure f() -> int {{ return {expr} }}")], reg)
    try:
        expected = eval(expr, {"__builtins__": {}})  # noqa: S307 - our own generated arithmetic
    except ZeroDivisionError:
        with pytest.raises(RulesRuntimeError, match="division by zero"):
            r.procedure("f")(None)
        return
    assert r.procedure("f")(None) == expected


_TOKENS = ["unit", "stat", "procedure", "rule", "let", "for", "in", "if", "else", "return", "x", "u", "Tank",
           "attack", "(", ")", "{", "}", "[", "]", ":", ",", "=", "+", "-", "*", "//", "==", "<=", "and", "not",
           "1", "2.5", '"s"', "true", "where", "->", "int", "list", ".", "__class__", "override", "table", "=>",
           "default", "option", "has", "is", "phase", "turns", "8", "\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=40))
def test_token_soup_never_crashes(tokens: list[str]) -> None:
    reg = make_registry()
    src = " ".join(tokens)
    try:
        load_rules([("soup.rules", src)], reg)
    except RulesError:
        pass


# ------------------------------------------------------------------ strings joined

JOINED = """
procedure braces(s: str, n: int) -> str { return "{" + s + "}" + str(n) + "%d {}" }
procedure quoted(s: str, b: bool) -> str { return "it's " + s + " " + str(b) }
procedure numbers(n: int, f: float) -> str { return str(n) + "/" + str(f) + "/" + str(n > 0) }
procedure nested(s: str) -> str { return s + "-" + (if s == "" then "none" else s + "+" + s) + "." }
"""


@settings(max_examples=60, deadline=None)
@given(s=st.text(max_size=12), n=st.integers(-10**6, 10**6), f=st.floats(allow_nan=False, allow_infinity=False),
       b=st.booleans())
def test_strings_joined_are_what_plus_and_str_make(s: str, n: int, f: float, b: bool) -> None:
    # three or more strings joined are compiled as one f-string: any text, braces and quotes
    # in the literals and the values, and numbers formatted as `str` writes them
    r = _joined()
    assert r.procedure("braces")(None, s, n) == "{" + s + "}" + str(n) + "%d {}"
    assert r.procedure("quoted")(None, s, b) == "it's " + s + " " + str(b)
    assert r.procedure("numbers")(None, n, f) == str(n) + "/" + str(f) + "/" + str(n > 0)
    assert r.procedure("nested")(None, s) == s + "-" + ("none" if s == "" else s + "+" + s) + "."


_JOINED: list[object] = []


def _joined():  # type: ignore[no-untyped-def]
    if not _JOINED:
        _JOINED.append(load_rules([("joined.rules", JOINED)], make_registry()))
    return _JOINED[0]


# ------------------------------------------------------------------ searches

SEARCHES = """
procedure some_big(xs: list[int]) -> bool { return any(x > 5 for x in xs) }
procedure some_big_even(xs: list[int]) -> bool { return any(x > 5 for x in xs where x % 2 == 0) }
procedure some_where(xs: list[int]) -> bool { return any(x in xs where x < 0) }
procedure all_small(xs: list[int]) -> bool { return all(x <= 5 for x in xs) }
procedure all_small_odd(xs: list[int]) -> bool { return all(x <= 5 for x in xs where x % 2 == 1) }
procedure none_big(xs: list[int]) -> bool { return not any(x > 5 for x in xs) }
procedure not_all_small(xs: list[int]) -> bool { return not all(x <= 5 for x in xs) }
procedure guarded(flag: bool, xs: list[int]) -> bool { return flag and any(x > 5 for x in xs) }
procedure either(flag: bool, xs: list[int]) -> bool { return flag or all(x <= 5 for x in xs) }
procedure both(a: bool, b: bool, xs: list[int]) -> bool { return a and b and not any(x > 5 for x in xs) }
procedure first_safe(xs: list[int]) -> bool { return any(100 // x > 10 for x in xs) }
"""


@settings(max_examples=80, deadline=None)
@given(xs=st.lists(st.integers(-20, 20), max_size=12), a=st.booleans(), b=st.booleans())
def test_searches_answer_as_python_any_and_all_do(xs: list[int], a: bool, b: bool) -> None:
    # `return any(...)` and its kin are compiled as loops that stop at the first item found
    r = _searches()
    p = r.procedure
    assert p("some_big")(None, xs) == any(x > 5 for x in xs)
    assert p("some_big_even")(None, xs) == any(x > 5 for x in xs if x % 2 == 0)
    assert p("some_where")(None, xs) == any(x < 0 for x in xs)
    assert p("all_small")(None, xs) == all(x <= 5 for x in xs)
    assert p("all_small_odd")(None, xs) == all(x <= 5 for x in xs if x % 2 == 1)
    assert p("none_big")(None, xs) == (not any(x > 5 for x in xs))
    assert p("not_all_small")(None, xs) == (not all(x <= 5 for x in xs))
    assert p("guarded")(None, a, xs) == (a and any(x > 5 for x in xs))
    assert p("either")(None, a, xs) == (a or all(x <= 5 for x in xs))
    assert p("both")(None, a, b, xs) == (a and b and not any(x > 5 for x in xs))


def test_a_search_stops_at_the_first_item_found() -> None:
    # as any() does: the items after the first found are never looked at (here, a zero)
    p = _searches().procedure("first_safe")
    assert p(None, [5, 0]) is True
    with pytest.raises(RulesRuntimeError, match="division by zero"):
        p(None, [50, 0])


_SEARCHES: list[object] = []


def _searches():  # type: ignore[no-untyped-def]
    if not _SEARCHES:
        _SEARCHES.append(load_rules([("searches.rules", SEARCHES)], make_registry()))
    return _SEARCHES[0]
