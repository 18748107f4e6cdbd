"""The answers compiled rules remember through the listing of one decision (dsl.runtime.held)
are never stale: at every decision of random games, each question about the game as a whole
that the rules remember, asked once more after the listing within the same span, gives what it
gives asked fresh on a copy of the state outside any span."""

from __future__ import annotations

import random

import pytest

from dsl.runtime import held
from engine import flow, plugins


def _remembered_surveys(rs) -> list[str]:
    """The procedures given nothing whose answers the compiled rules remember."""
    out = []
    for name in rs.rules.procedure_names:
        fn = rs.rules.procedure(name)
        ns = getattr(getattr(fn, "__wrapped__", None), "__globals__", {})
        if f"_A_{name}" in ns and fn.__wrapped__.__code__.co_argcount == 1:
            out.append(name)
    return out


@pytest.mark.parametrize("ruleset, actions", [("bulge", 400), ("lhtr", 250)])
def test_answers_kept_through_a_listing_are_those_asked_fresh(ruleset: str, actions: int) -> None:
    rs = plugins.load(ruleset, {})
    names = _remembered_surveys(rs)
    assert names, "the rules remember some question about the whole game"
    rng = random.Random(3)
    state = rs.logic.new_state(rs.info.scenario(None).name, 3)
    decision = flow.start(rs, state)
    compared = 0
    for _ in range(actions):
        if decision is None:
            break
        with held():
            listed = rs.logic.decision(state)
            kept = {n: rs.rules.procedure(n)(state) for n in names}
        assert (listed is None) == (decision is None)
        fresh = {n: rs.rules.procedure(n)(state.copy()) for n in names}
        assert kept == fresh
        compared += len(names)
        state, decision = flow.apply(rs, state, decision.sample(rng))
    assert compared > 100
