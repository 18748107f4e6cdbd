"""Listing a decision's options cheaply: options made only when looked at, offered actions
played without being checked twice, and a move's work that does not depend on all its
parameters done once per listing (or once per value of the parameters it depends on)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dsl
from engine import flow
from engine.actions import Action, Decision, IllegalAction, Options, normalise
from engine.game import Game
from tests.engine.test_rules_logic import duel


def logged_registry(log: list[str]) -> dsl.Registry:
    """Rules' primitives that note in `log` each time they are asked: `seen(tag, xs)` gives
    back `xs`, `ok(tag, value)` gives back `value` (what a listing asks, and how often)."""
    def seen(ctx: Any, tag: str, xs: list[int]) -> list[int]:
        log.append(tag)
        return xs

    def ok(ctx: Any, tag: str, value: bool) -> bool:
        log.append(tag)
        return value

    reg = dsl.Registry()
    reg.primitive("seen", seen, [("tag", "str"), ("xs", "list[int]")], "list[int]", context=True)
    reg.primitive("ok", ok, [("tag", "str"), ("value", "bool")], "bool", context=True)
    return reg


def test_options_behave_like_a_list_and_make_each_action_when_it_is_looked_at() -> None:
    made: list[Any] = []

    def make(row: tuple[str, int]) -> Action:
        made.append(row)
        return Action("go", {"to": row[0], "n": row[1]}, label=f"go to {row[0]}")

    done = Action("finish", {}, label="done")
    opts = Options([("go", make, [("A", 1), ("B", 2)]), ("skip", make, []), ("go", make, [("C", 3)])], (done,))
    assert len(opts) == 4 and made == []
    assert opts[1] == Action("go", {"to": "B", "n": 2}) and made == [("B", 2)]
    assert opts[1] is opts[1] and len(made) == 1                 # made once, then kept
    assert opts[-1] is done and opts[-4]["to"] == "A"
    with pytest.raises(IndexError):
        opts[4]
    assert [a.label for a in opts] == ["go to A", "go to B", "go to C", "done"]
    assert opts[1:3] == [Action("go", {"to": "B", "n": 2}), Action("go", {"to": "C", "n": 3})]
    assert opts == list(opts) and list(opts) == opts
    assert Action("go", {"to": "C", "n": 3}) in opts and Action("go", {"to": "D", "n": 4}) not in opts
    assert opts.index(done) == 3 and opts.count(done) == 1
    assert opts + [done] == [*opts, done]
    assert bool(Options()) is False and len(Options()) == 0
    d = Decision("Red", "advance", "", opts)
    assert d.finish is done and d.find("2") == opts[1] and d.find("go to C") == opts[2]


def test_a_decision_finds_its_finish_without_making_the_other_options() -> None:
    made: list[Any] = []

    def make(row: Any) -> Action:
        made.append(row)
        return Action("march" if row else "pass", {})

    d = Decision("Red", "advance", "", Options([("march", make, [1, 2, 3]), ("pass", make, [0])]))
    assert d.finish == Action("pass") and made == [0]
    # a decision told it has none (a question asked in the middle of the rules) looks for none
    made.clear()
    none = Decision("Red", "advance", "", Options([("march", make, [1, 2, 3]), ("pass", make, [0])]), finish=None)
    assert none.finish is None and made == []


def test_an_offered_action_is_played_as_a_checked_one_would_be() -> None:
    game = Game(duel(), "road", seed=3)
    state, decision = game.state, game.decision
    assert decision is not None and isinstance(decision.options, Options)
    for option in decision.options:
        if option is not decision.finish:
            assert option.offer is not None and option.offer[0] is state
        fast, fast_next = flow.apply(game.ruleset, state, option)
        slow, slow_next = flow.apply(game.ruleset, state, normalise(option))       # checked
        assert normalise(option).offer is None
        assert fast.signature() == slow.signature() and fast.events == slow.events
        assert (fast_next and [a.to_json() for a in fast_next.options]) == \
            (slow_next and [a.to_json() for a in slow_next.options])


def test_an_action_offered_on_another_state_is_checked() -> None:
    game = Game(duel(), "road", seed=3)
    rs, state, decision = game.ruleset, game.state, game.decision
    assert decision is not None
    march = next(a for a in decision.options if a.kind == "march")
    after, _ = flow.apply(rs, state, march)           # that unit has moved now
    with pytest.raises(IllegalAction):
        flow.apply(rs, after, march)


HOISTING = """
phase p { steps [s] }
procedure zero() -> int { return 0 }
step s {
    move m(a: int in seen("a", [1, 2]), b: int in seen("b", [10, 20, 30])) {
        require ok("g_none", true) else "no"
        let k = a * 10
        require ok("g_a", a != 2 or k > 100) else "no"
        require ok("g_ab", b != 20) else "no"
    }
    move n(a: int in seen("a2", [1, 2]), b: int in seen("b2", [a, a + 1])) {
        require ok("ab2", a + b > 0) else "no"
    }
    move closed(a: int in seen("a3", [1, 2]), b: int in seen("b3", [1, 2])) {
        require ok("never", false) else "no"
        require ok("not reached", true) else "no"
    }
    move nothing(a: int in seen("a4", [])) {
        require 1 / zero() > 0 else "no"
    }
    move broken(a: int in seen("a5", [1])) {
        require 1 / zero() > 0 else "no"
    }
    move priced(a: int in seen("a6", [1, 2])) {
        require ok("g6", a > 0) else "no"
        let cost = seen("cost", [a])
    }
}
"""


def _hoisting_rules() -> tuple[Any, list[str]]:
    log: list[str] = []

    reg = logged_registry(log)
    return dsl.load_rules([("hoisting.rules", HOISTING)], reg), log


def test_a_guard_or_choice_list_that_needs_fewer_parameters_runs_once_per_their_values() -> None:
    rules, log = _hoisting_rules()
    moves = {m.name: m for m in rules.steps["s"].moves}
    assert moves["m"].offers(None) == [(1, 10), (1, 30)]
    # the choices of b do not depend on a; the first require on nothing; the second on a
    assert log == ["a", "b", "g_none", "g_a", "g_ab", "g_ab", "g_ab", "g_a"]
    log.clear()
    assert moves["n"].offers(None) == [(1, 1), (1, 2), (2, 2), (2, 3)]
    assert log == ["a2", "b2", "ab2", "ab2", "b2", "ab2", "ab2"]        # b's choices name a
    log.clear()
    assert moves["closed"].offers(None) == []
    assert log == ["a3", "b3", "never"]                                 # once, then nothing
    # the checks still see every rule, in order
    log.clear()
    assert moves["m"].check(None, 2, 10) is not None and moves["m"].check(None, 1, 10) is None


def test_a_let_after_the_last_require_is_worked_out_when_the_move_is_played_not_listed() -> None:
    rules, log = _hoisting_rules()
    priced = next(m for m in rules.steps["s"].moves if m.name == "priced")
    assert priced.offers(None) == [(1,), (2,)] and priced.check(None, 2) is None
    assert "cost" not in log                            # (AARHE's city prices, once a row)
    priced.do(None, 2)
    assert log[-1] == "cost"


def test_a_hoisted_guard_fails_only_where_it_would_have_run() -> None:
    rules, _ = _hoisting_rules()
    moves = {m.name: m for m in rules.steps["s"].moves}
    assert moves["nothing"].offers(None) == []          # no choices: its guard never runs
    with pytest.raises(dsl.RulesRuntimeError, match="division by zero"):
        moves["broken"].offers(None)


VARS = """
var moved: list[int] = []
var spent: map[int, int] = {}
procedure snapshot_then_change() -> bool {
    let before = moved
    moved = moved + [7]
    return 7 not in before and len(before) == 0 and 7 in moved
}
procedure local_changes_stay_local() -> int {
    let mine = moved
    mine += [8]
    let sp = spent
    sp[1] = 5
    return len(mine)
}
procedure looked_at(k: int) -> int {
    let sp = spent
    return if k in sp then sp[k] else 0
}
"""


def test_a_variable_read_without_a_copy_still_behaves_as_a_copy() -> None:
    from types import SimpleNamespace

    rules = dsl.load_rules([("vars.rules", VARS)], dsl.Registry())
    ctx = SimpleNamespace(vars={"moved": (), "spent": {}})
    assert rules.procedure("snapshot_then_change")(ctx) is True
    assert ctx.vars["moved"] == (7,)
    assert rules.procedure("local_changes_stay_local")(ctx) == 2
    assert ctx.vars["moved"] == (7,) and ctx.vars["spent"] == {}
    ctx.vars["spent"] = {3: 2}
    assert rules.procedure("looked_at")(ctx, 3) == 2 and rules.procedure("looked_at")(ctx, 4) == 0


def test_a_move_of_every_kind_to_every_place_is_counted_and_drawn_without_making_its_rows() -> None:
    log: list[str] = []

    reg = logged_registry(log)
    rules = dsl.load_rules([("pairs.rules", """
phase p { steps [s] }
step s {
    move place(kind: int in seen("kinds", [7, 8]), to: int in seen("places", [1, 2, 3])) {
    }
    move none(kind: int in seen("no kinds", []), to: int in seen("no places", [1])) {
    }
}
""")], reg)
    moves = {m.name: m for m in rules.steps["s"].moves}
    rows = moves["place"].offers(None)
    assert not isinstance(rows, list) and len(rows) == 6 and log == ["kinds", "places"]
    assert list(rows) == [(7, 1), (7, 2), (7, 3), (8, 1), (8, 2), (8, 3)]     # the two loops' order
    assert rows[4] == (8, 2) and rows[-1] == (8, 3) and rows[1:3] == [(7, 2), (7, 3)]
    with pytest.raises(IndexError):
        rows[6]
    log.clear()
    assert not moves["none"].offers(None) and log == ["no kinds"]

    made: list[Any] = []

    def make(row: tuple[int, int]) -> Action:
        made.append(row)
        return Action("place", {"kind": row[0], "to": row[1]})

    opts = Options([("place", make, rows)])
    assert len(opts) == 6 and made == []
    drawn = opts.sample(random.Random(1))
    assert made == [(drawn["kind"], drawn["to"])] and drawn == opts[opts.index(drawn)]


NESTED = """
option strict: bool = false "a move may not end on a place its piece has been"
phase p { steps [s] }
# a piece's places: its own, not every piece's
procedure places(kind: int) -> list[int] {
    let none: list[int] = []
    return seen("places", if kind == 7 then [1, 2] else if kind == 8 then [3] else none)
}
procedure refused(kind: int, to: int) -> bool { return strict and ok("guard", to == 2) }
step s {
    move go(kind: int in seen("kinds", [7, 8, 9]), to: int in places(kind)) {
        require not refused(kind, to) else "been there"
    }
}
"""


def test_a_move_whose_guard_an_option_turns_off_is_counted_from_its_choices_without_asking_the_guard() -> None:
    log: list[str] = []

    reg = logged_registry(log)
    rules = dsl.load_rules([("nested.rules", NESTED)], reg)
    go = rules.steps["s"].moves[0]
    rows = go.offers(None)
    # the option is off: the guard is never asked; 9's places are none
    assert not isinstance(rows, list) and len(rows) == 3 and log == ["kinds", "places", "places", "places"]
    assert list(rows) == [(7, 1), (7, 2), (8, 3)]                        # the two loops' order
    assert rows[2] == (8, 3) and rows[-3] == (7, 1) and rows[0:2] == [(7, 1), (7, 2)]
    with pytest.raises(IndexError):
        rows[3]
    opts = Options([("go", lambda row: Action("go", {"kind": row[0], "to": row[1]}), rows)])
    assert [(a["kind"], a["to"]) for a in opts] == [(7, 1), (7, 2), (8, 3)]
    # the option on: the guard is asked of each row, and refuses one
    log.clear()
    strict = dsl.load_rules([("nested.rules", NESTED)], reg, options={"strict": True})
    assert strict.steps["s"].moves[0].offers(None) == [(7, 1), (8, 3)] and log.count("guard") == 3


SAME_FIRST = """
phase p { steps [s] }
step s {
    move attack(from: int in seen("sources", [1, 2]), to: int in seen("targets", [from + 10])) {
    }
    move split(from: int in seen("sources", [1, 2])) {
        require ok("split", from > 1) else "one target only"
    }
    move other(from: int in seen("others", [1, 2])) {
        require ok("other", from > 1) else "no"
    }
}
"""


def test_a_move_whose_first_choices_an_earlier_move_lists_the_same_way_takes_them_from_it() -> None:
    from pathlib import Path

    from engine.rules import structure_from_rules
    from engine.rules_logic import RulesLogic
    from engine.ruleset import RulesetInfo

    log: list[str] = []

    reg = logged_registry(log)
    rules = dsl.load_rules([("same.rules", SAME_FIRST)], reg)
    logic = RulesLogic(rules, RulesetInfo("same", "Same", Path("."), (), ()), structure_from_rules(rules))
    blocks, _ = logic._offers(None, rules.steps["s"])
    opts = Options(blocks)
    # `split` takes the sources `attack` listed; `other` is written otherwise and asks its own
    assert log == ["sources", "targets", "targets", "others"]
    assert [(a.kind, a.args) for a in opts] == [
        ("attack", {"from": 1, "to": 11}), ("attack", {"from": 2, "to": 12}),
        ("split", {"from": 2}), ("other", {"from": 2})]


LISTED = """
phase p { steps [s] }
# asked by the step's player and by both its moves' choices: a loop over loops
procedure found(n: int) -> list[int] {
    return [x for x in seen("found", [n, n + 1]) where any(y in [x, 0] where y > 0)]
}
procedure who() -> str {
    return if 2 in found(1) then "Red" else "Blue"
}
step s by who() {
    move a(x: int in found(1)) {
    }
    move b(y: int in found(1), z: int in seen("z", [y])) {
    }
}
"""


def test_what_a_listings_entries_share_is_worked_out_once_a_listing() -> None:
    from types import SimpleNamespace

    log: list[str] = []

    reg = logged_registry(log)
    rules = dsl.load_rules([("listed.rules", LISTED)], reg)
    step = rules.steps["s"]
    assert step.listed and rules.listing is not None

    def listing(state: Any) -> tuple[Any, ...]:
        return step.by(state), step.moves[0].offers(state), list(step.moves[1].offers(state))

    state, other = SimpleNamespace(), SimpleNamespace()
    expected = ("Red", [(1,), (2,)], [(1, 1), (2, 2)])
    assert listing(state) == expected and log.count("found") == 3       # no listing: asked each time
    log.clear()
    rules.listing.begin(state)
    assert listing(state) == expected and log.count("found") == 1       # once in the listing
    assert listing(other) == expected and log.count("found") == 4       # (another state: asked)
    rules.listing.end()
    log.clear()
    assert listing(state) == expected and log.count("found") == 3       # forgotten at its end
