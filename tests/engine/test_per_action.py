"""What the engine does once per action, kept small (issue 32) without changing what a game
is: a question's options read the state that asks it, answering leaves that state as it was,
and an option the engine offered plays as the same action sent from outside plays."""

from __future__ import annotations

from engine import flow
from engine.actions import Action
from tests.conftest import random_start
from tests.lhtr.play import load as load_lhtr


def _reading(state):
    return (dict(state.control), dict(state.resources), dict(state.vars), dict(state._marks),
            {pid: p.to_json() for pid, p in state.pieces.items()}, state.turn, state.step_index)


def test_a_question_reads_the_state_that_asks_it_and_answering_changes_neither() -> None:
    rs = load_lhtr()
    rng, state, d = random_start(rs, 3)
    asked = 0
    for _ in range(600):
        assert d is not None
        if state.task is not None:
            asked += 1
            view = d.asked_on
            before = _reading(state)
            assert _reading(view) == before
            labels = [a.label for a in d.options]          # (labels read the view)
            for a in d.options:
                flow.apply(rs, state, a)                   # each answer on a copy of its own
            assert _reading(state) == before and _reading(view) == before
            assert [a.label for a in d.options] == labels
        state, d = flow.apply(rs, state, d.sample(rng))
    assert asked > 50


def test_an_offered_option_and_the_same_action_sent_from_outside_play_alike() -> None:
    rs = load_lhtr()
    rng, state, d = random_start(rs, 4)
    for _ in range(300):
        assert d is not None
        action = d.sample(rng)
        offered, _ = flow.apply(rs, state, action)
        sent, _ = flow.apply(rs, state, Action(action.kind, dict(action.args)))
        assert sent.signature() == offered.signature()
        state, d = flow.apply(rs, state, action)


def test_moves_and_marks_taken_off_keep_every_index_as_a_rebuild_would() -> None:
    from collections import Counter

    from engine.invariants import generic_problems

    rs = load_lhtr()
    rng, state, d = random_start(rs, 6)
    moved = cleared = 0
    for _ in range(700):
        assert d is not None
        before = _reading(state)
        new, d = flow.apply(rs, state, d.sample(rng))
        assert _reading(state) == before            # (the state played from is untouched)
        moved += sum(1 for e in new.events if e[0] == "move")
        cleared += sum(1 for a, b in zip(sorted(state._marks.items()), sorted(new._marks.items())) if a != b)
        state = new
        assert generic_problems(state) == []
        kinds: dict[tuple[str, str], list[int]] = {}
        for p in state.pieces.values():
            kinds.setdefault((p.owner, p.kind), []).append(p.id)
        assert {k: list(v) for k, v in state._bk.items()} == kinds
        assert all(state._bk[(p.owner, p.kind)][p.id] is p for p in state.pieces.values())
        assert dict(state._marks) == dict(Counter(m for p in state.pieces.values() for m in p.status))
    assert moved > 100 and cleared > 10
