"""A prior on a question's answers (docs/rules-language.md, "Knowledge for the computer
player" and §9): `let to = choose(player, prompt, options) prior EXPR` says how promising each
answer `to` is for the player asked, as a move's `prior` says it of the move's options. The
search player's default policy answers the best prior; `wargame check` refuses a prior that is
not a number, that changes the game or asks a player, or that weighs anything but a
`choose`'s answers, at its line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from clients.cli import main
from clients.search import SearchPlayer
from engine import flow, plugins
from tests.conftest import LINE_MAP, LINE_SCENARIO

#: the race for the flag (tests/test_search.py) with the runner's field asked as a question:
#: a runner picked runs to a field next to it, or stays; whoever stands on the middle field
#: (f4) at the end of their turn wins
RACE = """
turns 12
turn order [Blue, Red]
phase run { steps [dash] }

unit Runner { }

var ran: bool = false each power "the runner has moved this turn"

step dash {
    move go(u: Unit in units_of(current_power())) label "run with the runner" prior 1 {
        require not ran else "the runner has run this turn"
        let to = choose(current_power(), "run to", neighbours(u.space) + [u.space])PRIOR
        move_to(u, to)
        ran = true
    }
    finish "stand" { }
}

rule flag_taken on power_end(t, p) {
    if any(u in units_at("f4") where u.owner == p) {
        end_game(p, p + " holds the flag")
    }
}
"""
#: nearer the flag is more promising
TOWARD = ' prior 10 - distance(to, "f4")'


def race(tmp_path: Path, prior: str = TOWARD, extra: str = "", name: str = "race") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "ruleset.json").write_text(json.dumps({
        "name": name, "title": "A race for the flag", "rules": ["race.rules"], "sides": ["Blue", "Red"],
        "scenarios": [{"name": "line", "title": "The line", "file": "scenario.json"}]}))
    (folder / "map.json").write_text(json.dumps(LINE_MAP))
    (folder / "scenario.json").write_text(json.dumps(LINE_SCENARIO))
    (folder / "race.rules").write_text(RACE.replace("PRIOR", prior) + extra)
    return folder


def blue_wins_by_turn_3(rs: Any, seed: int) -> bool:
    """Blue (the search player's default policy alone) against a random Red, three turns."""
    rng = random.Random(seed)
    blue = SearchPlayer(seed, policy=True)
    state = rs.logic.new_state("line", seed)
    decision = flow.start(rs, state)
    while decision is not None and state.turn <= 3:
        if rs.logic.side_of(decision.player) == "Blue":
            action = blue.choose(rs, state, decision)
        else:
            action = decision.sample(rng)
        state, decision = flow.apply(rs, state, action)
    return (state.result or {}).get("winner") == "Blue"


def the_question(rs: Any) -> tuple[Any, Any]:
    """Blue's first question (where its runner runs), and the state it is asked on."""
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    go = next(a for a in decision.options if a.kind == "go")
    state, decision = flow.apply(rs, state, go)
    assert decision is not None and decision.kind == "choose"
    return state, decision


def test_the_policy_answers_a_question_by_its_prior(tmp_path: Path) -> None:
    rs = plugins.load(race(tmp_path))
    state, decision = the_question(rs)
    # each answer weighed with `to` standing for it: f2 is 2 fields from the flag, f1 (stay) 3
    assert [a.args["choice"] for a in decision.options] == ["f2", "f1"]
    assert SearchPlayer(0).priors(rs, decision) == [8.0, 7.0]
    for seed in range(6):
        assert SearchPlayer(seed, policy=True).choose(rs, state, decision).args["choice"] == "f2"
    # so the runner runs straight to the flag, and Blue, who moves first, takes it in turn 3
    assert all(blue_wins_by_turn_3(rs, seed) for seed in range(6))


def test_without_a_prior_the_answer_is_anyones(tmp_path: Path) -> None:
    rs = plugins.load(race(tmp_path, prior="", name="plain"))
    state, decision = the_question(rs)
    assert type(decision.prompt) is str
    assert SearchPlayer(0).priors(rs, decision) is None
    answers = {SearchPlayer(seed, policy=True).choose(rs, state, decision).args["choice"] for seed in range(6)}
    assert answers == {"f1", "f2"}
    assert not all(blue_wins_by_turn_3(rs, seed) for seed in range(6))


def test_the_search_keeps_to_the_best_prior_answer(tmp_path: Path) -> None:
    rs = plugins.load(race(tmp_path))
    state, decision = the_question(rs)
    # (what quick games learnt of this race judges staying better at some seeds: samples that
    # are the same look again and again never overrule the prior's answer)
    for seed in range(8):
        assert SearchPlayer(seed, iterations=20).choose(rs, state, decision).args["choice"] == "f2", seed


def test_a_prior_reads_the_locals_as_they_were_when_asked(tmp_path: Path) -> None:
    # the runner's own field, read through the local `u`, makes staying the worst answer
    prior = ' prior (if to == u.space then -5 else 10 - distance(to, "f4"))'
    rs = plugins.load(race(tmp_path, prior=prior, name="locals"))
    state, decision = the_question(rs)
    assert SearchPlayer(0).priors(rs, decision) == [8.0, -5.0]


def test_check_accepts_a_question_with_a_prior(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(race(tmp_path))]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("prior, extra, said", [
    (' prior "near"', "", "a question's prior must be a number for each answer `to` (bigger: more promising), got `str`"),
    (' prior len(roll(1, 6))', "", "`roll` changes the game, which a question's prior, a query, cannot do"),
    (" prior counted(to)", """
var looks: int = 0 "how often a prior was read"
procedure counted(to: str) -> int {
    looks += 1
    return looks
}
""", "`counted` changes the game (at "),
    (" prior asked(to)", """
procedure asked(to: str) -> int {
    return choose(current_power(), "how promising?", [1, 2])
}
""", "`asked` asks a player (it calls `choose`), which a"),
    (" prior nearness(to)", "", "unknown procedure `nearness`"),
])
def test_check_refuses_a_broken_prior_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   prior: str, extra: str, said: str) -> None:
    folder = race(tmp_path, prior=prior, extra=extra)
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    line = next(i for i, text in enumerate((folder / "race.rules").read_text().splitlines(), 1) if prior in text)
    assert said in out, out
    assert f"race.rules:{line}:" in out, out


def test_check_refuses_a_prior_on_anything_but_a_question(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = race(tmp_path, prior="")
    rules = folder / "race.rules"
    rules.write_text(rules.read_text().replace("        move_to(u, to)", "        let n = len(neighbours(to)) prior 1\n"
                                                                         "        move_to(u, to)"))
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "a `prior` after `let n = ...` weighs the answers of a question: the value must be a call of `choose`" in out
    line = next(i for i, text in enumerate(rules.read_text().splitlines(), 1) if "let n =" in text)
    assert f"race.rules:{line}:" in out, out


def test_a_prior_in_a_procedure_that_asks(tmp_path: Path) -> None:
    # the question asked in a procedure the move calls, its prior reading the procedure's locals
    folder = race(tmp_path, prior="")
    rules = folder / "race.rules"
    text = rules.read_text().replace(
        '        let to = choose(current_power(), "run to", neighbours(u.space) + [u.space])\n', "        let to = where_to(u)\n")
    rules.write_text(text + """
procedure where_to(u: Unit) -> str {
    let goal = "f4"
    let to = choose(current_power(), "run to", neighbours(u.space) + [u.space]) prior 10 - distance(to, goal)
    return to
}
""")
    rs = plugins.load(folder)
    state, decision = the_question(rs)
    assert SearchPlayer(0).priors(rs, decision) == [8.0, 7.0]
    assert all(blue_wins_by_turn_3(rs, seed) for seed in range(4))
