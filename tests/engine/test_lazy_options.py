"""Answering a decision at random without checking every option: a move of one parameter
whose guard only asks questions lists its choices unchecked (`Pending`), and a random draw
asks the guard of the choices it draws. Nothing else may notice: listing gives the same
options as before, every option is as likely as any other, and a guard that changes the
game is still asked of every option as the decision is made."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import dsl
from engine import flow
from engine.actions import Action, Decision, Options, Pending
from engine.primitives import register_core
from engine.rules_logic import _Maker
from tests.conftest import random_start
from tests.lhtr.play import load as load_lhtr


def _make(row: tuple[Any, ...]) -> Action:
    return Action("go", {"to": row[0]})


def _options(asked: list[str], tail: bool = True) -> Options:
    """Six choices of which B, D and F pass the guard, then one ready-made finish."""
    def admits(c: str) -> bool:
        asked.append(c)
        return c in "BDF"
    done = Action("finish", {}, label="done")
    return Options([("go", _make, Pending(tuple("ABCDEF"), admits))], (done,) if tail else ())


def test_pending_options_list_as_the_checked_ones_would() -> None:
    asked: list[str] = []
    opts = _options(asked)
    assert asked == []
    assert bool(opts) and asked == []                   # the finish is an option: nothing asked
    assert [a.to_json() for a in opts] == [{"kind": "go", "args": {"to": c}} for c in "BDF"] + \
        [{"kind": "finish", "args": {}}]
    assert sorted(asked) == list("ABCDEF") and len(opts) == 4
    no_finish: list[str] = []
    assert bool(_options(no_finish, tail=False)) and no_finish == ["A", "B"]     # up to the first that passes
    none_pass = Options([("go", _make, Pending(("A", "C"), lambda c: False))])
    assert not none_pass and len(none_pass) == 0


def test_a_random_draw_asks_only_the_choices_it_draws() -> None:
    rng = random.Random(5)
    for _ in range(50):
        asked: list[str] = []
        opts = _options(asked)
        a = opts.sample(rng)
        assert a.kind == "finish" or a["to"] in "BDF"
        assert len(asked) == len(set(asked)) and set(asked) <= set("ABCDEF")
        assert all(c in "ACE" for c in asked[:-1])      # every choice asked before the last failed
        # the option drawn is the very Action the listing then holds
        assert any(x is a for x in opts)


def test_every_option_is_as_likely_as_any_other() -> None:
    rng = random.Random(11)
    draws = Counter(str(_options([]).sample(rng)) for _ in range(4000))
    assert set(draws) == {"go to=B", "go to=D", "go to=F", "done"}
    for n in draws.values():
        assert abs(n - 1000) < 120, draws               # 1000 each; 120 is over 4 standard deviations


def test_a_decision_finds_a_pending_finish_without_checking_the_rest() -> None:
    asked: list[str] = []

    def admits(c: int) -> bool:
        asked.append(str(c))
        return c > 1
    d = Decision("Red", "advance", "", Options([("march", _make, [("X",)]),
                                                ("pass", lambda row: Action("pass", {"n": row[0]}), Pending((1, 2, 3), admits))]))
    assert d.finish == Action("pass", {"n": 2}) and asked == ["1", "2"]
    assert d.options[1] is d.finish


RULES = """
var seen: list[int] = []
procedure quiet(n: int) -> bool { return n % 2 == 0 }
procedure noisy(n: int) -> bool {
    seen += [n]
    return true
}
phase p { steps [s] }
step s {
    move asks(n: int in [1, 2, 3, 4]) {
        let half = n / 2
        require quiet(n) and half > 0 else "odd"
    }
    move plain(n: int in [1, 2]) { }
    move writes(n: int in [1, 2]) {
        require noisy(n) else "no"
    }
    move rolls(n: int in [1, 2]) {
        require sum(roll(1, 6)) > 0 else "no"
    }
    move two(n: int in [1, 2], m: int in [3]) {
        require quiet(n) else "odd"
    }
}
"""


def test_whether_a_decision_has_an_option_is_asked_in_one_run_over_the_choices() -> None:
    # a decision asks first whether any choice passes: the first choice by itself, then one
    # run of the move's own loop over the rest (the rules entered once, not once a choice);
    # what the run passed over fails
    asked: list[str] = []
    runs: list[tuple[str, ...]] = []

    def first_row(choices: tuple[str, ...]) -> tuple[str] | None:
        runs.append(choices)
        return next(((c,) for c in choices if c in "DF"), None)

    def admits(c: str) -> bool:
        asked.append(c)
        return c in "DF"

    pending = Pending(tuple("ABCDEF"), admits, None, first_row)
    assert pending.first() == 3 and asked == ["A"] and runs == [tuple("BCDEF")]
    assert [pending.admitted(i) for i in range(4)] == [False, False, False, True] and asked == ["A"]
    assert pending.admitted(5) and asked == ["A", "F"]
    assert Pending(("A", "B"), admits, None, lambda cs: None).first() is None
    # the run goes over the choices not asked yet; one known to pass is taken without a run
    again = Pending(tuple("ABCDEF"), admits, None, first_row)
    again.admitted(4)
    assert again.first() == 3 and runs[-1] == tuple("BCDF")
    known = Pending(tuple("ABCDEF"), admits, None, first_row)
    known.admitted(5)
    assert known.first() == 5 and len(runs) == 2


def test_a_decision_looks_for_an_option_from_where_the_last_one_found_one() -> None:
    runs: list[tuple[str, ...]] = []
    asked: list[str] = []

    def first_row(choices: tuple[str, ...]) -> tuple[str] | None:
        runs.append(choices)
        return next(((c,) for c in choices if c in "BE"), None)

    def admits(c: str) -> bool:
        asked.append(c)
        return c in "BE"

    # the choice found last time still passes: it alone is asked
    assert Pending(tuple("ABCDEF"), admits, None, first_row).one_passing(4) == 4 and asked == ["E"] and runs == []
    pending = Pending(tuple("ABCDEF"), admits, None, first_row)
    assert pending.one_passing(3) == 4 and asked[-1] == "D" and runs == [tuple("EFABC")]
    assert [pending.admitted(i) for i in (3, 4)] == [False, True] and pending._verdicts[:3] == [None] * 3
    wrapped = Pending(tuple("ABCDEF"), admits, None, first_row)
    assert wrapped.one_passing(5) == 1 and runs[-1] == tuple("ABCDE")
    assert wrapped._verdicts == [False, True, None, None, None, False]
    assert Pending(tuple("ACD"), lambda c: False, None, first_row).one_passing(1) is None
    assert Pending((), admits, None, first_row).one_passing(2) is None
    # the listing does not depend on where the options were looked for
    assert [a["to"] for a in Options([("go", _make, pending)])] == ["B", "E"]


def test_only_a_guard_that_asks_questions_is_asked_later() -> None:
    reg = dsl.Registry()
    register_core(reg)
    moves = {m.name: m for m in dsl.load_rules([("lazy.rules", RULES)], reg).steps["s"].moves}
    asks = moves["asks"]
    assert asks.candidates is not None and asks.admits is not None
    assert asks.candidates(None) == (1, 2, 3, 4)
    assert [n for n in asks.candidates(None) if asks.admits(None, n)] == [n for (n,) in asks.offers(None)] == [2, 4]
    assert asks.first is not None and asks.first(None, (1, 2, 3, 4)) == (2,) and asks.first(None, (1, 3)) is None
    assert moves["plain"].candidates is not None and moves["plain"].admits is None and moves["plain"].first is None
    # a guard that sets a variable or rolls dice changes the game: every option is checked
    # as the decision is made, as before; so is a move of two parameters
    for name in ("writes", "rolls", "two"):
        assert moves[name].candidates is None and moves[name].admits is None, name


def test_lhtr_offers_the_same_options_drawn_at_random_or_listed() -> None:
    """The first 400 decisions of a random LHTR game: each listing equals the one its moves'
    full `offers` give, and each option drawn is one of them."""
    rs = load_lhtr()
    rng, state, decision = random_start(rs, 3)
    pending_seen = 0
    for _ in range(400):
        assert decision is not None
        opts = decision.options
        if isinstance(opts, Options) and opts._pending:
            pending_seen += 1
        drawn = decision.sample(rng)
        spec = rs.rules.steps.get(rs.structure.step(state))
        if state.task is None and spec is not None:
            eager = [_Maker(mv, state).make(row).to_json() for mv in spec.moves for row in mv.offers(state)]
            listed = [a.to_json() for a in opts if a is not decision.finish]
            assert listed == eager
        assert drawn in opts
        state, decision = flow.apply(rs, state, drawn)
    assert pending_seen > 100
