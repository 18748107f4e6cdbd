"""A block that asks a player goes on from its question when the answer comes (a task
compiled as a generator), instead of running again from its start. Nothing may notice: the
game after an answer is the one the replay gives, a second answer from the same state is
replayed, an answer that is not an option is refused with the rules' reason, and a block
whose `choose` sits inside an expression is still replayed as before."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest

import dsl
from engine import flow, plugins
from engine.actions import Action, Decision, IllegalAction
from engine.game import Game
from engine.primitives import register_core
from engine.rules import structure_from_rules
from engine.rules_logic import RulesLogic
from engine.ruleset import LoadedRuleset, RulesetInfo, ScenarioInfo
from engine.state import GameState
from tests.conftest import random_start
from tests.engine.test_rules_logic import DUEL, duel
from tests.lhtr.play import load as load_lhtr


def _with(tmp_path: Path, extra: str) -> LoadedRuleset:
    for f in ("map.json", "scenario.json"):
        (tmp_path / f).write_text((DUEL / f).read_text())
    (tmp_path / "duel.rules").write_text((DUEL / "duel.rules").read_text() + extra)
    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([tmp_path / "duel.rules"], reg)
    info = RulesetInfo("duel", "Duel", tmp_path, (tmp_path / "duel.rules",),
                       (ScenarioInfo("road", "r", path=tmp_path / "scenario.json"),), sides=("Red", "Blue"))
    return LoadedRuleset(info, (info,), plugins._manager(), rules, RulesLogic(rules, info, structure_from_rules(rules)),
                         rules.options)


def _seen(state: GameState) -> tuple[object, ...]:
    return (state.to_json(), state.events, state.task, state.started)


def _both_ways(rs: LoadedRuleset, state: GameState, answer: Action) -> tuple[GameState, Decision | None]:
    """Answer a waiting task twice from `state`: the first goes on from the question, the
    second (its generator spent) is replayed; both must give the same game."""
    assert state.task_gen is not None and state.task_gen[0] is not None
    live, d1 = flow.apply(rs, state, answer)
    assert state.task_gen[0] is None                  # spent: the state asked on cannot go on twice
    replayed, d2 = flow.apply(rs, state, answer)
    assert _seen(live) == _seen(replayed)
    assert (d1 is None) == (d2 is None)
    if d1 is not None and d2 is not None:
        assert [a.to_json() for a in d1.options] == [a.to_json() for a in d2.options]
        assert [a.label for a in d1.options] == [a.label for a in d2.options]
    return live, d1


def _random_play(rs: LoadedRuleset, seed: int, decisions: int) -> int:
    """Play at random; every answer to a waiting task is checked both ways. Gives how many were."""
    rng, state, d = random_start(rs, seed)
    tasks = 0
    for _ in range(decisions):
        if d is None:
            break
        action = d.sample(rng)
        if state.task is not None and state.task_gen is not None:
            tasks += 1
            state, d = _both_ways(rs, state, action)
        else:
            state, d = flow.apply(rs, state, action)
    return tasks


def test_a_battle_goes_on_from_each_casualty_choice_as_its_replay_would() -> None:
    rs = duel()
    assert rs.rules.steps["battles"].tasks or any(m.task for m in rs.rules.steps["battles"].moves)
    assert sum(_random_play(rs, seed, 300) for seed in range(10)) > 0


def _scouting(tmp_path: Path, body: str) -> tuple[LoadedRuleset, Game]:
    """The duel with a step after its battles whose one move's body is `body`; the game is
    at that move's question."""
    rs = _with(tmp_path, """
phase scouting { steps [scout] }
var scouted: str = "" each turn
step scout {
    move look(u: Unit in movers(current_power())) {
""" + body + """
    }
    finish "no scouting" { }
}
""")
    game = Game(rs, "road", seed=3)
    game.play(game.decision.finish)
    game.play(next(a for a in game.decision.options if a.kind == "look"))
    assert game.state.task is not None
    return rs, game


def test_a_refused_answer_leaves_the_task_waiting_where_it_stands(tmp_path: Path) -> None:
    rs, game = _scouting(tmp_path, """
        note("looking")
        let to = choose(current_power(), "scout where?", ["B", "C"], ["B", "C"], {"E": "the road to E is closed"})
        scouted = to""")
    assert rs.rules.steps["scout"].move("look").task is not None
    waiting = game.state
    with pytest.raises(IllegalAction, match="the road to E is closed"):
        flow.apply(rs, waiting, Action("choose", {"choice": "E"}))
    assert waiting.task_gen is not None and waiting.task_gen[0] is not None    # not spent by a refusal
    after, _ = _both_ways(rs, waiting, Action("choose", {"choice": "C"}))
    assert after.vars["scouted"] == "C" and after.task is None
    assert [e for e in after.events if e[0] == "note"] == []     # the note before the question is not made again


def test_a_choose_inside_an_expression_is_replayed(tmp_path: Path) -> None:
    rs, game = _scouting(tmp_path, """
        if choose(current_power(), "scout?", ["yes", "no"]) == "yes" {
            scouted = "yes"
        }""")
    assert rs.rules.steps["scout"].move("look").task is None
    assert game.state.task_gen is None
    game.play(Action("choose", {"choice": "yes"}))
    assert game.state.vars["scouted"] == "yes"


@pytest.mark.parametrize("name", ["lhtr", "bulge"])
def test_random_play_goes_on_from_questions_exactly_as_replays(name: str) -> None:
    """Moves, battles, casualties and retreats of a real game: every answer to a waiting task
    gives the same game whether the task goes on or is replayed."""
    rs = load_lhtr() if name == "lhtr" else plugins.load("bulge")
    assert _random_play(rs, 7, 1500) > (50 if name == "lhtr" else 5)


def _question_labels(rs: LoadedRuleset, seed: int, decisions: int, late: bool) -> list[list[str]]:
    """The labels of every question a random game asks, read when it is asked or (`late`)
    only after the answer has been played on."""
    rng, state, d = random_start(rs, seed)
    seen: list[list[str]] = []
    for _ in range(decisions):
        if d is None:
            break
        asked = d if state.task is not None else None
        if asked is not None and not late:
            seen.append([a.label for a in asked.options])
        state, d = flow.apply(rs, state, d.sample(rng))
        if asked is not None and late:
            seen.append([a.label for a in asked.options])
    return seen


@pytest.mark.parametrize("name", ["lhtr", "bulge"])
def test_labels_read_after_the_answer_are_those_of_the_question(name: str) -> None:
    # a question's labels are made when a player first reads them, from the game as it was
    # asked: the task has gone on by then, in a copy, and its locals may have changed
    rs = load_lhtr() if name == "lhtr" else plugins.load("bulge")
    early = _question_labels(rs, 3, 1200, late=False)
    assert len(early) > 50 if name == "lhtr" else early
    assert _question_labels(rs, 3, 1200, late=True) == early


def test_an_answer_typed_goes_on_as_the_option_drawn_and_only_the_drawn_option_is_made() -> None:
    """A random player's answer to a question is the option it drew, and only that option's
    Action is made; the same answer typed by a player (an Action of its own, not one of the
    options) is looked for among the choices and gives the same game."""
    rs = load_lhtr()
    rng, state, d = random_start(rs, 3)
    compared = 0
    for _ in range(600):
        assert d is not None
        action = d.sample(rng)
        if state.task is not None and state.task_gen is not None and len(d.options) > 1:
            made = [a for a in d.options._made if a is not None]  # type: ignore[attr-defined]
            assert made == [action]
            typed = Action("choose", {"choice": action["choice"]})
            assert typed.offer is None and action.offer is not None
            once_typed, _ = flow.apply(rs, state, typed)     # (goes on from the question)
            drawn, d = flow.apply(rs, state, action)         # (replayed: the same game)
            assert _seen(once_typed) == _seen(drawn)
            compared += 1
            state = drawn
        else:
            state, d = flow.apply(rs, state, action)
    assert compared > 30


def test_a_question_and_the_state_that_asks_it_do_not_keep_each_other_alive() -> None:
    """The state that waits for an answer holds its question, so the question reads (and its
    options name) a snapshot of that state instead of the state itself: a state nobody holds
    any more is freed at once, not left for the cycle collector. A random LHTR game asks some
    1,300 questions; when each made a cycle, the collector's passes took 6.6% of its time."""
    rs = load_lhtr()
    rng = random.Random(5)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.disable()
    try:
        state = rs.logic.new_state(rs.info.scenario(None).name, 5)
        d = flow.start(rs, state)
        asked = 0
        for _ in range(800):
            assert d is not None
            if state.task is not None:
                asked += 1
                assert d.asked_on is not None and d.asked_on is not state and d.asked_on.task_decision is None
            state, d = flow.apply(rs, state, d.sample(rng))
        del state, d
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, (GameState, Decision))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert asked > 100
    assert left == []
