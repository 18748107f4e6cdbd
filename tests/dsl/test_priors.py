"""A move's `prior` (docs/rules-language.md, "Knowledge for the computer player"): how
promising one of its options is for its player, read with the move's parameters; a number,
and a query: `wargame check` refuses one that is not a number or that changes the game, at
its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main
from dsl import limits
from engine import flow, plugins
from tests.test_search import write_game

#: the race for the flag (tests/test_search.py), its runner's move with a prior: nearer the flag
PRIOR = 'prior 10 - distance(to, "f4")'
GO = '''            label "run to " + space_name(to) {'''


def game_with(tmp_path: Path, prior: str, extra: str = "", name: str = "primed") -> Path:
    folder = write_game(tmp_path / name, name)
    rules = folder / "flag.rules"
    text = rules.read_text()
    assert GO in text
    rules.write_text(text.replace(GO, GO[:-2] + " " + prior + " {") + extra)
    return folder


def test_a_prior_is_read_with_the_moves_parameters(tmp_path: Path) -> None:
    rs = plugins.load(game_with(tmp_path, PRIOR))
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    go = rs.rules.steps["dash"].move("go")
    assert go.prior is not None
    runner = next(u for u in state.pieces.values() if u.owner == "Blue")
    assert go.prior(state, runner, "f2") == 10 - 2
    assert go.prior(state, runner, "f1") == 10 - 3
    # the options the decision lists carry what the prior is read with
    from clients.search import prior_of
    assert sorted(prior_of(a) for a in decision.options) == [0.0, 8.0]     # the finish counts 0


def test_a_move_without_a_prior_has_none(tmp_path: Path) -> None:
    rs = plugins.load(write_game(tmp_path / "plain", "plain"))
    assert rs.rules.steps["dash"].move("go").prior is None


def test_check_accepts_a_game_with_priors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(game_with(tmp_path, PRIOR))]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("prior, extra, said", [
    ('prior "near"', "", "a move's prior must be a number (bigger: more promising), got `str`"),
    ("prior bump(u)", """
procedure bump(u: Unit) -> int {
    move_to(u, "f2")
    return 1
}
""", "`bump` changes the game (at "),
    ("prior counted()", """
var looks: int = 0 "how often a prior was read"
procedure counted() -> int {
    looks += 1
    return looks
}
""", "`counted` changes the game (at "),
    ("prior outer(u)", """
procedure inner(u: Unit) {
    destroy(u)
}
procedure outer(u: Unit) -> int {
    inner(u)
    return 0
}
""", "`outer` changes the game (through the procedures it calls)"),
    ('prior len(roll(1, 6))', "", "`roll` changes the game, which a move's prior, a query, cannot do"),
    ('prior asked(u)', """
procedure asked(u: Unit) -> int {
    return choose(u.owner, "how promising?", [1, 2])
}
""", "`asked` asks a player (it calls `choose`), which a query"),
])
def test_check_refuses_a_prior_that_is_no_number_or_changes_the_game_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], prior: str, extra: str, said: str) -> None:
    folder = game_with(tmp_path, prior, extra)
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    line = next(i for i, text in enumerate((folder / "flag.rules").read_text().splitlines(), 1) if prior in text)
    assert said in out, out
    assert f"flag.rules:{line}:" in out, out


def laps(rounds: int, length: int) -> str:
    """Rules text with `laps()`: a question of the game (the laps run so far this turn,
    counted out) that takes many steps, `rounds` laps of `length`."""
    return f"""
procedure lap(k: int) -> int {{
    let n = if current_power() == "Blue" then k else k + 1
    for j in range({length}) {{
        n += 1
    }}
    return n
}}

procedure laps() -> int {{
    let n = 0
    for i in range({rounds}) {{
        n = lap(n)
    }}
    return n
}}
"""


def test_a_question_only_the_knowledge_asks_is_worked_out_once_for_a_call(tmp_path: Path) -> None:
    """A procedure that only priors (and `evaluate`) reach remembers its answers for a call
    into the rules, and a decision's priors are read in one call: a question the prior of
    every option asks again (Bulge's what a truck's tokens buy in a hex) is worked out once.
    Asked twice in one prior, `laps()` costs the steps of one."""
    steps = {}
    for prior in ('prior laps() - distance(to, "f4")', 'prior laps() + laps() - distance(to, "f4")'):
        folder = tmp_path / str(len(steps))
        folder.mkdir()
        rs = plugins.load(game_with(folder, prior, laps(100, 1000)))
        state = rs.logic.new_state("line", 0)
        go = rs.rules.steps["dash"].move("go")
        runner = next(u for u in state.pieces.values() if u.owner == "Blue")
        assert go.prior is not None
        answer = go.prior(state, runner, "f2")
        steps[prior] = (answer, limits().steps - go.prior.__wrapped__.__globals__["_L"])
    (once, one), (twice, two) = steps.values()
    assert once == 100_000 - 2 and twice == 200_000 - 2
    assert one > 100_000 and two < one * 1.01, steps
