"""f-strings (values written into text), `first`/`find` (the first item that meets a
condition, or its place) and `sorted(x in xs by KEY)`: what they give, what the checker
refuses, and the runtime error of a `first` that finds nothing."""

from __future__ import annotations

import pytest
from dsl_helpers import Ctx, Piece

from dsl import Diagnostic, RulesRuntimeError, check_rules

UNITS = """
stat attack: int = 1
stat speed: int = 1
tag soldier
unit Militia [soldier] { attack: 2 }
unit Guard [soldier] { attack: 3  speed: 2 }
unit Truck { attack: 0  speed: 3 }
"""


class _Ctx(Ctx):
    """The host's context, on a board (procedures that read only the board keep answers per board)."""

    board = object()


def _errors(text: str, reg) -> list[Diagnostic]:  # type: ignore[no-untyped-def]
    return [d for d in check_rules([("f.rules", text)], reg) if d.severity == "error"]


def _pieces() -> list[Piece]:
    return [Piece(1, "Militia", "Red", "A"), Piece(2, "Truck", "Red", "B"), Piece(3, "Guard", "Blue", "C"),
            Piece(4, "Militia", "Blue", "C")]


def test_fstring_writes_values_into_text(load) -> None:  # type: ignore[no-untyped-def]
    r = load(UNITS + """
procedure words(u: Unit, n: int, x: float, ok: bool) -> str {
    return f"{u.kind} #{u.id} in {u.space}: {n * 2} dice, {x}, {ok} {{braces}} \\"quoted\\""
}
procedure bare(n: int) -> str { return f"{n}" }
procedure plain() -> str { return f"no values" }
""")
    assert r.procedure("words")(_Ctx(), Piece(7, "Guard", "Red", "B"), 3, 1.5, True) == \
        'Guard #7 in B: 6 dice, 1.5, True {braces} "quoted"'
    assert r.procedure("bare")(_Ctx(), 12) == "12"
    assert r.procedure("plain")(_Ctx()) == "no values"


@pytest.mark.parametrize("body,message,col", [
    ('return f"{u} moved"', "`str` converts a number, string or bool, not a `Unit`", 15),
    ('return f"{nope} moved"', "unknown name `nope`", 15),
    ('return f"{u.id +} moved"', "(in an f-string's `{...}`)", 21),
    ('return f"{} moved"', "an empty `{}` in an f-string", 15),
    ('return f"{u.id moved"', "a `{` with no `}` after it", 14),
    ('return f"u.id} moved"', "a `}` with no `{` before it", 18),
])
def test_fstring_errors_point_inside_the_string(reg, body, message, col) -> None:  # type: ignore[no-untyped-def]
    text = UNITS + "procedure words(u: Unit) -> str {\n    " + body + "\n}\n"
    d = _errors(text, reg)[0]
    assert message in d.message
    if "`Unit`" in message:
        assert d.hint is not None and "`{u.kind}`" in d.hint
    assert (d.pos.line, d.pos.col) == (text.count("\n", 0, text.index(body)) + 1, col), d


def test_first_and_find(load) -> None:  # type: ignore[no-untyped-def]
    r = load(UNITS + """
procedure strongest_blue(us: list[Unit]) -> Unit { return first(u in us where u.owner == "Blue") }
procedure where_first(us: list[Unit], kind: str) -> int { return find(u in us where u.kind == kind) }
procedure first_space(us: list[Unit]) -> str { return first(u.space for u in us where u.attack == 0) }
procedure head(xs: list[int]) -> int { return first(x in xs) }
procedure first_key(m: map[str, int]) -> str { return first(k in m where m[k] > 1) }
procedure shadow(xs: list[int]) -> int {
    let first = xs[0]
    return first
}
""")
    us = _pieces()
    assert r.procedure("strongest_blue")(_Ctx(), us).id == 3
    assert [r.procedure("where_first")(_Ctx(), us, k) for k in ("Truck", "Militia", "Tank")] == [1, 0, -1]
    assert r.procedure("first_space")(_Ctx(), us) == "B"
    assert r.procedure("head")(_Ctx(), [5, 6]) == 5
    assert r.procedure("first_key")(_Ctx(), {"a": 1, "b": 2, "c": 3}) == "b"
    assert r.procedure("shadow")(_Ctx(), [9]) == 9
    with pytest.raises(RulesRuntimeError) as info:
        r.procedure("strongest_blue")(_Ctx(), us[:2])
    assert "`first` found no item" in str(info.value) and info.value.pos.line == UNITS.count("\n") + 2


def test_first_stops_at_the_first_item_found(load) -> None:  # type: ignore[no-untyped-def]
    # the condition rolls a die: only the dice up to the first success are rolled
    r = load(UNITS + """
procedure lucky(xs: list[int]) -> int { return first(x in xs where roll(1, 6)[0] >= 5) }
procedure lucky_at(xs: list[int]) -> int { return find(x in xs where roll(1, 6)[0] >= 5) }
""")
    ctx = _Ctx(dice=[1, 6, 2, 3])
    assert r.procedure("lucky")(ctx, [10, 20, 30, 40]) == 20 and ctx.dice == [2, 3]
    ctx = _Ctx(dice=[5, 1])
    assert r.procedure("lucky_at")(ctx, [10, 20]) == 0 and ctx.dice == [1]


def test_sorted_by_a_key(load) -> None:  # type: ignore[no-untyped-def]
    r = load(UNITS + """
procedure by_attack(us: list[Unit]) -> list[int] { return [u.id for u in sorted(u in us by -u.attack)] }
procedure by_two(us: list[Unit]) -> list[int] { return [u.id for u in sorted(u in us by [u.speed, -u.id])] }
procedure reds(us: list[Unit]) -> list[str] { return [u.kind for u in sorted(u in us where u.owner == "Red" by u.kind)] }
procedure attacks(us: list[Unit]) -> list[int] { return sorted(u.attack for u in us) }
procedure small(xs: list[int]) -> list[int] { return sorted(x in xs where x < 5) }
""")
    us = _pieces()
    # stable: the two Militia (attack 2) keep their order
    assert r.procedure("by_attack")(_Ctx(), us) == [3, 1, 4, 2]
    assert r.procedure("by_two")(_Ctx(), us) == [4, 1, 3, 2]
    assert r.procedure("reds")(_Ctx(), us) == ["Militia", "Truck"]
    assert r.procedure("attacks")(_Ctx(), us) == [0, 2, 2, 3]
    assert r.procedure("small")(_Ctx(), [7, 3, 1, 9]) == [1, 3]


@pytest.mark.parametrize("body,message", [
    ("return sorted(u in us by u)", "`sorted` orders by a number, a string or a list of them; `Unit` has no order"),
    ("return sorted(u in us where u.id > 1)", "write `sorted(x in xs by KEY)`"),
    ("return count(u in us by u.id)", "only `sorted` takes `by`"),
    ("return sorted(us, u.id)", "`sorted` takes 1 argument"),
])
def test_sorted_by_refusals(reg, body, message) -> None:  # type: ignore[no-untyped-def]
    text = UNITS + "procedure f(us: list[Unit]) -> list[Unit] {\n    " + body + "\n}\n"
    assert message in "\n".join(d.render() for d in _errors(text, reg))


@pytest.mark.parametrize("body,message", [
    ("return find(u.id for u in us)", "write `find(x in xs where ...)`"),
    ("return find(k in m where k > 1)", "`find` gives a place in a list"),
])
def test_find_refusals(reg, body, message) -> None:  # type: ignore[no-untyped-def]
    text = UNITS + "procedure f(us: list[Unit], m: map[int, int]) -> int {\n    " + body + "\n}\n"
    assert message in "\n".join(d.render() for d in _errors(text, reg))


def test_a_long_search_is_paid_for(load) -> None:  # type: ignore[no-untyped-def]
    import dsl

    r = load("""
procedure late(n: int) -> int { return first(x in range(n) where x == n - 1) }
procedure order(n: int) -> list[int] { return sorted(x in range(n) by -x) }
""")
    old = dsl.set_limits(steps=1000)
    try:
        assert r.procedure("late")(_Ctx(), 50) == 49
        for name in ("late", "order"):
            with pytest.raises(dsl.RulesLimitError):
                r.procedure(name)(_Ctx(), 5000)
    finally:
        dsl.set_limits(steps=old.steps)
