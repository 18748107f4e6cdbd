"""Bulge's status line is the rules' `procedure status_line()` (rules/views.rules), all of it:
the turn by its colour, the phase and step in words, the VP track and the supply tokens. A mod
that overrides it words the whole line."""

from __future__ import annotations

from pathlib import Path

from engine import flow, plugins
from engine.game import Game


def test_the_whole_line_comes_from_the_rules(bulge) -> None:
    game = Game(bulge, "ardennes-1944", seed=1)
    line = game.status()
    assert line == bulge.rules.procedure("status_line")(game.state)
    assert line == ("Red (turn 1 of 8), ground combat: attacks | Axis VP 0/24 | supply on board: Axis 52, "
                    "Allies 6; off board: Axis 0, Allies 0")


def test_the_line_follows_the_turn_the_phase_and_the_step(bulge) -> None:
    state = bulge.logic.new_state("ardennes-1944", 0)
    flow.fire(bulge, state, bulge.structure.begin(state))
    seen = set()
    for _ in range(200):
        if state.turn == 2:
            seen.add(bulge.logic.status(state).split(" | ")[0])
        flow.fire(bulge, state, bulge.structure.advance(state))
        if state.turn > 2:
            break
    assert {"Blue (turn 2 of 8), ground combat: initiative", "Blue (turn 2 of 8), movement: Allies reinforcements",
            "Blue (turn 2 of 8), upkeep: front line"} <= seen, seen
    assert not any("_" in s for s in seen), seen            # every phase and step in words


def test_a_mod_words_the_whole_line(tmp_path: Path) -> None:
    (tmp_path / "ruleset.json").write_text('{"name": "terse", "extends": "bulge", "rules": ["terse.rules"]}')
    (tmp_path / "terse.rules").write_text(
        'extends bulge\n\n'
        'override procedure status_line() -> str {\n'
        '    return turn_name(turn()) + ": " + str(resource(Axis, "vp")) + " VP"\n'
        '}\n\n'
        'override procedure turn_words(name: str) -> str {\n'
        '    return if name == "attacks" then "the attacks" else base(name)\n'
        '}\n')
    rs = plugins.load(tmp_path)
    game = Game(rs, None, seed=1)
    assert game.status() == "Red: 0 VP"
    assert rs.rules.procedure("turn_words")(game.state, "attacks") == "the attacks"
    assert rs.rules.procedure("turn_words")(game.state, "front_line") == "front line"


def test_off_board_areas_are_read_by_their_names() -> None:
    from engine import plugins
    from engine.asking import space_name
    from engine.game import Game

    game = Game(plugins.load("bulge"), None, seed=1)
    assert space_name(game.state, "offboard:Allies") == "Allies off-board area"
    assert space_name(game.state, "chart:Axis:2") == "Axis reinforcement chart, turn 2"
