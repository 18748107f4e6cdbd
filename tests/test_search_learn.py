"""Where the rules give no `evaluate`, the search player learns what goes with winning from
games played to their end (clients/search_learn.py), so a goal several turns away is worth
something before it is reached. Deterministic: budgets are counts of samples, never times."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from clients.search import SearchPlayer
from clients.search_judge import Judge
from clients.search_learn import Learner, features
from engine import flow, plugins
from tests.conftest import LINE_MAP, LINE_SCENARIO

#: a race no player was written for: a runner each at either end of a line of seven fields;
#: whoever brings theirs to the other end first wins. Its score is the runners left (always
#: one each), so the score says nothing of the race until it is won, some turns past what a
#: sample looks at.
RULES = """
turns 16
turn order [Blue, Red]
phase run { steps [dash] }

unit Runner { }

var ran: bool = false each power "the runner has moved this turn"

procedure goal(side: str) -> str {
    return if side == Blue then "f7" else "f1"
}

step dash {
    move go(u: Unit in units_of(current_power()), to: str in neighbours(u.space))
            label "run to " + space_name(to) {
        require not ran else "the runner has run this turn"
        move_to(u, to)
        ran = true
    }
    finish "stand" { }
}

rule arrived on power_end(t, p) {
    if any(u in units_at(goal(p)) where u.owner == p) {
        end_game(p, p + " reached the far end")
    }
}

procedure score() -> map[str, int] {
    return {Blue: len(units_of(Blue)), Red: len(units_of(Red))}
}
"""


@pytest.fixture(scope="module")
def race(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("race")
    (folder / "ruleset.json").write_text(json.dumps({
        "name": "race", "title": "A race", "rules": ["race.rules"], "sides": ["Blue", "Red"],
        "scenarios": [{"name": "line", "title": "The line", "file": "scenario.json"}]}))
    (folder / "map.json").write_text(json.dumps(LINE_MAP))
    (folder / "scenario.json").write_text(json.dumps(LINE_SCENARIO))
    (folder / "race.rules").write_text(RULES)
    return plugins.load(folder)


def play(rs: Any, side: str, player: Any, seed: int) -> tuple[Any, list[str]]:
    rng = random.Random(seed + 7)
    state = rs.logic.new_state("line", seed)
    decision = flow.start(rs, state)
    played: list[str] = []
    while decision is not None:
        mine = rs.logic.side_of(decision.player) == side
        action = player.choose(rs, state, decision) if mine else decision.sample(rng)
        if mine:
            played.append(action.label)
        state, decision = flow.apply(rs, state, action)
    return state, played


def test_judged_by_its_score_alone_it_does_not_run_and_learning_it_wins_the_race(race: Any) -> None:
    learnt = [(play(race, "Blue", SearchPlayer(g, iterations=20), g)[0].result or {}).get("winner")
              for g in range(8)]
    scored = [(play(race, "Blue", SearchPlayer(g, iterations=20, learn=False), g)[0].result or {}).get("winner")
              for g in range(8)]
    # by the score alone every move looks alike: it won none of these 8 (the random Red 3);
    # learning, it won 6 (one drawn, one lost)
    assert learnt.count("Blue") >= 4 and scored.count("Blue") <= 1, (learnt, scored)


def test_what_it_learnt_says_the_runner_nearer_the_goal_is_worth_more(race: Any) -> None:
    player = SearchPlayer(3, iterations=20)
    play(race, "Red", player, 3)
    learner = player.judge(race).learner
    assert learner is not None and learner.decided > 0
    state = race.logic.new_state("line", 0)
    flow.start(race, state)
    worth = {}
    for field in ("f2", "f4", "f6"):
        moved = state.copy()
        moved.move(next(p.id for p in moved.pieces.values() if p.owner == "Red"), field)
        worth[field] = learner.value(moved, "Red")
    assert worth["f2"] > worth["f4"] > worth["f6"], worth


def test_the_same_seed_gives_the_same_play_while_it_learns(race: Any) -> None:
    assert play(race, "Red", SearchPlayer(8, iterations=10), 2)[1] == play(race, "Red", SearchPlayer(8, iterations=10), 2)[1]


def test_a_game_with_an_evaluate_learns_nothing(tmp_path: Path) -> None:
    rs = plugins.load(Path(__file__).resolve().parents[1] / "examples" / "river-crossing")
    assert Judge(rs).learner is None


def test_features_name_pieces_with_what_they_carry_control_variables_and_the_score(race: Any) -> None:
    state = race.logic.new_state("line", 0)
    flow.start(race, state)
    seen = features(state, "Blue", race.rules.procedure("score"), ("Blue", "Red"))
    assert ("Blue", "Runner", "f1", False) in seen and ("Red", "", "f7") in seen
    assert ("score", 0) in seen
    learner = Learner(race, ("Blue", "Red"))
    assert learner.value(state, "Blue") == 0.0      # nothing learnt before a game has ended
