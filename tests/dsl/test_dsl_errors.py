"""Every error kind a modder can meet: exact message, line:col, caret and hints."""

from __future__ import annotations

import pytest

from dsl import RulesError, check_rules, load_rules

PRELUDE = """stat attack: int = 0
stat move: int = 1
tag combat, zoc
unit Infantry [combat, zoc] { attack: 1 }
unit Tank [combat] { attack: 2 }
"""
N = PRELUDE.count("\n")  # lines before each case


def errors(reg, text: str) -> list[tuple[int, int, str]]:  # type: ignore[no-untyped-def]
    diags = check_rules([("t.rules", PRELUDE + text)], reg)
    return [(d.pos.line - N, d.pos.col, d.message) for d in diags]


CASES = [
    # (name, source, line, col, message)
    ("unknown stat", "unit Artillery { atack: 3 }", 1, 18, "unknown stat `atack` in unit `Artillery`"),
    ("stat wrong type", 'unit Artillery { attack: "3" }', 1, 26, "stat `attack` of unit `Artillery` must be `int`, got `str`"),
    ("stat default wrong type", 'stat strip: str = 1', 1, 19, "stat `strip` is `str` but its default is `int`"),
    ("option default wrong type", 'option limit: int = "4"', 1, 21, "option `limit` is `int` but its value is `str`"),
    ("unknown tag", "unit Art [artillery] { }", 1, 11, "unknown tag `artillery`"),
    ("unknown name", "procedure f() -> int { return atack }", 1, 31, "unknown name `atack`"),
    ("argument left open in a call", "procedure h(s: str) -> bool { return true }\nprocedure f() -> bool { return h(_) }", 2, 34,
     "`_` leaves an argument open only in a procedure passed to a primitive"),
    ("unknown procedure", "procedure f() { fire(1) }", 1, 17, "unknown procedure `fire`"),
    ("unknown field", "procedure f(b: Battle) -> str { return b.defender }", 1, 42, "`Battle` has no field `defender`"),
    ("unknown unit stat", "procedure f(u: Unit) -> int { return u.atack }", 1, 40, "`Unit` has no field or stat `atack`"),
    ("unknown event", "rule r on collect_incom(p) { }", 1, 11, "unknown event `collect_incom`"),
    ("unknown unit after is", "procedure f(u: Unit) -> bool { return u is Tnak }", 1, 44, "unknown unit `Tnak` after `is`"),
    ("unknown type", "procedure f(u: Unti) { }", 1, 16, "unknown type `Unti`"),
    ("if not bool", "procedure f(x: int) { if x { } }", 1, 26, "the condition of `if` must be `bool`, got `int`"),
    ("bad operands", 'procedure f() -> str { return "a" + 1 }', 1, 35, "cannot apply `+` to `str` and `int`"),
    ("compare mismatch", 'procedure f() -> bool { return "a" == 1 }', 1, 36, "cannot compare `str` with `int`"),
    ("wrong return type", 'procedure f() -> int { return "s" }', 1, 31, "procedure `f` must return `int`, not `str`"),
    ("return in no-return procedure", "procedure f() { return 1 }", 1, 17, "procedure `f` has no return type but returns a value"),
    ("missing return", "procedure f(x: bool) -> int { if x { return 1 } }", 1, 1, "procedure `f` may end without returning a value of type `int`"),
    ("rule returns value", "rule r on phase_start(p) { return 1 }", 1, 28, "a rule cannot return a value; only procedures return values"),
    ("arg count", "procedure f() { roll(1) }", 1, 17, "`roll` takes 2 arguments (n, sides), but 1 was given"),
    ("arg type", 'procedure f() { roll("a", 12) }', 1, 22, "argument 1 (`n`) of `roll` must be `int`, got `str`"),
    ("undeclared assignment", "procedure f() { total = 1 }", 1, 17, "assignment to undeclared variable `total`"),
    ("assign to option", "option k: int = 1\nprocedure f() { k = 2 }", 2, 17, "cannot assign to option `k`: only variables declared with `let` can change"),
    ("duplicate", "unit Tank { }", 1, 1, "`Tank` is defined twice; the first definition is at t.rules:5:1"),
    ("duplicate let", "procedure f() { let a = 1 let a = 2 }", 1, 27, "`a` is already defined here; choose another name or assign with `a = ...`"),
    ("recursion", "procedure a() { b() }\nprocedure b() { a() }", 2, 17, "`a` calls itself (a -> b -> a); recursion is not allowed"),
    ("self recursion", "procedure a(n: int) -> int { return a(n) }", 1, 37, "`a` calls itself (a -> a); recursion is not allowed"),
    ("range bounds", "procedure f() { for i in range(0, 2.5) { } }", 1, 35, "the bounds of `range` must be `int`, got `float`"),
    ("unreachable code", "procedure f() -> int { return 1 note(\"x\") }", 1, 33, "this statement can never run: it follows a `return`"),
    ("unreachable phase", "turns 8\nphase air when turn > 8 { }", 2, 21, "phase `air` can never run: its condition is false on every turn 1..8"),
    ("duplicate step", "phase air { steps [a, b, a] }", 1, 26, "step `a` appears twice in phase `air` (first at t.rules:6:20)"),
    ("unknown placement", "phase air { }\nphase b after ari { }", 2, 15, "phase `b` is placed after unknown phase `ari`"),
    ("reserved name", "procedure f() -> int { let _x = 1 return _x }", 1, 24, "names starting with `_` are reserved: `_x`"),
    ("attribute of non-record", "procedure f(x: int) -> int { return x.real }", 1, 39, "cannot read `.real` of a `int` value; only units and engine records have fields"),
    ("not a statement", "procedure f(x: int) { x }", 1, 23, "this expression does nothing on its own; only calls can stand alone as statements"),
    ("table key arity", 'table c(kind: str, power: str) -> int { "Tank" => 1 }', 1, 41, "table `c` has 2 parameters but this key has 1 value"),
    ("table duplicate key", "table c(n: int) -> int { 1 => 1, 1 => 2 }", 1, 34, "key 1 appears twice in table `c` (first at t.rules:6:26)"),
    ("event binds too many", "rule r on phase_start(a, b) { }", 1, 11, "event `phase_start` passes 1 value (phase), but the rule binds 2"),
    ("not constant", "option k: int = roll(1, 2)", 1, 17, "the value of option `k` must be a constant (a literal, a named constant)"),
    ("field assignment", "procedure f(u: Unit) { u.hits = 2 }", 1, 26, "cannot assign to `.hits`: game state changes only through engine primitives"),
    ("builtin redefinition", "procedure len() { }", 1, 1, "`len` is a built-in function and cannot be redefined"),
    ("tag on non-unit", "procedure f(x: int) -> bool { return x has zoc }", 1, 38, "`has` tests a unit's tags, but this is a `int`"),
    ("mixed list", 'procedure f() -> int { let xs = [1, "a"] return 0 }', 1, 37, "list items must have one type: `int` and `str` are mixed"),
    ("list as a map key type", "option x: map[list[int], int] = { [1]: 2 }", 1, 15,
     "a map's keys are numbers, strings, booleans or units, not `list[int]` (a list or a map changes)"),
    ("list as a map key", "procedure f() -> int { let m = {[1]: 2} return 0 }", 1, 33,
     "a map's keys are numbers, strings, booleans or units, not `list[int]` (a list or a map changes)"),
]


@pytest.mark.parametrize("name,src,line,col,msg", CASES, ids=[c[0] for c in CASES])
def test_error_kind(reg, name, src, line, col, msg):  # type: ignore[no-untyped-def]
    found = errors(reg, src)
    assert (line, col, msg) in found, found


def test_at_least_30_distinct_error_kinds() -> None:
    assert len({c[4].split("`")[0] for c in CASES}) >= 15
    assert len(CASES) >= 30


def test_caret_rendering_and_hint(reg) -> None:  # type: ignore[no-untyped-def]
    text = "stat attack: int = 0\nunit Infantry {\n    atack: 1\n}\n"
    with pytest.raises(RulesError) as info:
        load_rules([("units.rules", text)], reg)
    assert str(info.value) == (
        "units.rules:3:5: unknown stat `atack` in unit `Infantry`\n"
        "    atack: 1\n"
        "    ^\n"
        "hint: did you mean `attack`?"
    )


def test_three_mistakes_all_reported(reg) -> None:  # type: ignore[no-untyped-def]
    text = (
        "stat attack: int = 0\n"
        "unit Infantry { atack: 1 }\n"
        "procedure f(x: int) -> int { if x { return 1 } return 0 }\n"
        "rule r on phase_strat(p) { }\n"
    )
    with pytest.raises(RulesError) as info:
        load_rules([("three.rules", text)], reg)
    err = info.value
    assert [(d.pos.line, d.pos.col) for d in err.diagnostics] == [(2, 17), (3, 33), (4, 11)]
    rendered = str(err)
    assert "unknown stat `atack`" in rendered
    assert "the condition of `if` must be `bool`, got `int`" in rendered
    assert "unknown event `phase_strat`" in rendered
    assert "hint: did you mean `phase_start`?" in rendered
    assert rendered.endswith("3 errors")


def test_did_you_mean_for_names_and_procedures(reg) -> None:  # type: ignore[no-untyped-def]
    diags = check_rules([("t.rules", "procedure f() { rol(1, 2) }")], reg)
    assert diags[0].hint == "did you mean `roll`?"
    diags = check_rules([("t.rules", "option limit: int = 1\nprocedure f() -> int { return limt }")], reg)
    assert diags[0].hint == "did you mean `limit`?"


def test_python_names_get_a_sandbox_hint(reg) -> None:  # type: ignore[no-untyped-def]
    diags = check_rules([("t.rules", 'procedure f() { open("f") }')], reg)
    assert diags[0].message == "unknown procedure `open`"
    assert "cannot reach Python" in (diags[0].hint or "")


def test_a_file_read_again_is_not_parsed_again_and_its_mistakes_are_still_told(reg) -> None:  # type: ignore[no-untyped-def]
    """Parsed trees are kept by file name and text: the same file gives the same tree, a file
    of the same text under another name has its own positions, and a file with a mistake is
    reported every time it is read."""
    from dsl.parser import parse_module

    text = "procedure two() -> int {\n    return 2\n}\n"
    first = parse_module(text, "a.rules")
    assert parse_module(text, "a.rules") is first
    other = parse_module(text, "b.rules")
    assert other is not first and other.decls[0].pos.file == "b.rules" and first.decls[0].pos.file == "a.rules"
    broken = [("house.rules", "procedure two() -> int {\n    return 2 +\n}\n")]
    for _ in range(2):
        with pytest.raises(RulesError) as e:
            load_rules(broken, reg)
        assert e.value.diagnostics[0].pos.file == "house.rules" and e.value.diagnostics[0].pos.line == 3
