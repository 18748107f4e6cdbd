"""The terminal client, driven through its input and output: undo that never hands a person
the computer's decision, the finish option, confirmation before a partial name acts, narrowed
lists, the text map, saving, narration and a closed pipe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from clients import terminal, textmap
from engine import save
from engine.actions import Action
from engine.board import Board, Space
from engine.game import Game
from engine.hexgrid import from_offset
from engine.state import GameState
from tests.conftest import SKIRMISH
from tests.gui.gui_demo import FirstOption, load_demo, load_duel


class Console:
    """Feeds lines to the client and keeps everything it writes (prompts included)."""

    def __init__(self, lines: Iterable[str], interrupt: bool = False) -> None:
        self.lines = list(lines)
        self.out: list[str] = []
        self.interrupt = interrupt

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        if not self.lines:
            if self.interrupt:
                raise KeyboardInterrupt
            raise EOFError
        line = self.lines.pop(0)
        self.out[-1] += line
        return line

    def write(self, text: str) -> None:
        self.out.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def play(game: Game, lines: Iterable[str], computer: dict[str, Any] | None = None, saver: Any = None,
         interrupt: bool = False) -> tuple[int, Console]:
    console = Console(lines, interrupt)
    code = terminal.play_terminal(game, computer or {}, saver, read=console.read, write=console.write)
    return code, console


@pytest.fixture
def duel() -> Game:
    return Game(load_duel(), "ardennes", seed=1)


def move_number(game: Game) -> str:
    return str(next(i for i, a in enumerate(game.decision.options, 1) if a.kind == "move"))


# -- undo ------------------------------------------------------------------------------------
def test_undo_after_the_computers_answer_takes_back_both(duel):
    saved: list[list[Action]] = []
    code, c = play(duel, [move_number(duel), "undo"], computer={"Allied": FirstOption()},
                   saver=lambda g: saved.append(list(g.actions)))
    assert code == 0
    assert duel.actions == [] and duel.decision.player == "Axis"
    assert "undone: 2 actions" in c.text
    assert "Allied (computer): hold against #1" in c.text
    # the person was never asked the computer's question
    assert "Allied: Axis piece" not in c.text
    after = c.text.split("undone: 2 actions")[1]
    assert "Axis: Give orders" in after
    assert saved[-1] == []                    # written to the save at once


def test_nothing_of_yours_to_undo_after_dice(duel):
    code, c = play(duel, ["roll", "y", "undo"], computer={"Allied": FirstOption()})
    assert [a.kind for a in duel.actions] == ["roll"]
    assert "nothing" in c.text.split("> undo")[1]


def test_an_interrupt_after_undo_keeps_the_undo(skirmish, tmp_path):
    path = tmp_path / "game.json"
    game = Game(skirmish, "hill", seed=4)
    saver = lambda g: save.save(g, path)  # noqa: E731
    while game.decision.kind != "move":          # the attack steps: pass
        game.play(game.decision.finish)
    n = len(game.actions)
    lines = ["1", "undo"]
    with pytest.raises(KeyboardInterrupt):
        play(game, lines, saver=saver, interrupt=True)
    assert len(game.actions) == n
    loaded = save.load(path, [SKIRMISH], trust_code=True)
    assert len(loaded.actions) == n and loaded.state.signature() == game.state.signature()


# -- the finish option ------------------------------------------------------------------------------
@pytest.mark.parametrize("word", ["done", "pass", "finish", "end"])
def test_the_finish_answers_to_its_words_after_confirmation(duel, word):
    code, c = play(duel, [word, "n", word, "y"], computer={"Allied": FirstOption()})
    assert duel.actions[:1] == [Action("done")] and len(duel.actions) == 1
    assert c.text.count("really end? (y/n)") == 2


def test_an_answer_that_is_not_yes_or_no_says_what_is_asked(duel):
    code, c = play(duel, ["done", "1", "y"], computer={"Allied": FirstOption()})
    assert duel.actions[:1] == [Action("done")]
    assert "`1`? answer y (yes) or n (no)" in c.text and c.text.count("really end? (y/n)") == 2


def test_the_finish_by_number_needs_no_confirmation(duel):
    n = str(duel.decision.options.index(duel.decision.finish) + 1)
    code, c = play(duel, [n])
    assert duel.actions == [Action("done")] and "really end" not in c.text


@pytest.mark.parametrize("typed", ["²", "١", "9" * 5000])
def test_a_number_that_is_not_ascii_digits_is_no_option_number(duel, typed):
    code, c = play(duel, [typed])
    assert duel.actions == [] and "Traceback" not in c.text


def test_the_finish_is_always_listed(duel, monkeypatch):
    monkeypatch.setattr(terminal, "MAX_SHOWN", 3)
    code, c = play(duel, [])
    listing = c.text.split("Axis: Give orders")[1]
    assert "... and" in listing
    n = duel.decision.options.index(duel.decision.finish) + 1
    assert f"{n:>3}. end the orders   (or type `done`)" in listing


# -- names, narrowing ---------------------------------------------------------------------------------
def test_a_partial_name_shows_what_it_will_do_and_asks(duel):
    code, c = play(duel, ["roll", "n"])
    assert duel.actions == [] and not any(k == "roll" for k, _ in duel.log)     # no dice rolled
    assert "that is:" in c.text and "roll a die for the weather" in c.text and "do it? (y/n)" in c.text
    code, c = play(duel, ["weather", "y"])
    assert [a.kind for a in duel.actions] == ["roll"]


def test_a_narrowed_list_says_so_and_resets_after_an_action(duel):
    options = list(duel.decision.options)
    tanks = [a for a in options if a.kind == "move" and "Tank" in a.label]
    second = tanks[1]
    number = options.index(second) + 1
    code, c = play(duel, ["MOVE tank", str(number)], computer={"Allied": FirstOption()})
    assert "options match `MOVE tank`" in c.text and "narrowed" in c.text
    # the narrowed list numbers each option as the whole list did: the number typed is the one seen
    narrowed = c.text.split("options match `MOVE tank`")[1].split("> ")[0]
    assert f"{number:>3}. {second.label}" in narrowed and "  1. " not in narrowed
    assert duel.actions[0] == second
    # the next question lists every option again, numbered from the full list
    after = c.text.split("Allied (computer)")[1]
    assert f"{len(duel.decision.options):>3}." in after


def test_a_space_typed_lists_the_options_that_name_it(duel):
    options = list(duel.decision.options)
    code, c = play(duel, ["7,3"])
    narrowed = c.text.split("options match `7,3`")[1]
    for n, a in enumerate(options, 1):           # the two moves into 7,3, by their own numbers
        assert (f"{n:>3}. {a.label}" in narrowed) == (a.args.get("to") == "7,3" or a == duel.decision.finish)
    # a name, without case, accents or punctuation, is read the same way: St. Vith is 7,2
    code, c = play(duel, ["st vith"])
    assert "options match `st vith`" in c.text and "move Infantry #1 from 7,2 to 6,1" in c.text


def test_look_and_map_name_a_space_with_its_neighbours(duel):
    code, c = play(duel, ["look ST-VITH", "map nowhere"])
    assert "St. Vith (7,2)" in c.text
    near = duel.state.board.neighbours("7,2")
    line = c.text.split("next to: ")[1].split("\n")[0]
    assert all(duel.state.board.space(n).name in line for n in near)
    assert "no space called `nowhere`" in c.text


def test_quitting_with_moves_no_file_keeps_asks(skirmish, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = Game(skirmish, "hill", seed=2)
    code, c = play(game, ["1", "quit", "n"])
    assert "are in no file: save them to" in c.text and "not saved" in c.text
    assert list(tmp_path.iterdir()) == []
    game = Game(skirmish, "hill", seed=2)
    code, c = play(game, ["1", "quit", "kept.json"])
    assert save.load(tmp_path / "kept.json", [SKIRMISH], trust_code=True).actions == game.actions
    # nothing played: nothing asked
    code, c = play(Game(skirmish, "hill", seed=2), ["quit"])
    assert "no file" not in c.text


def test_an_exact_name_acts(duel):
    option = next(a for a in duel.decision.options if a.kind == "move")
    code, c = play(duel, [option.label.upper()], computer={"Allied": FirstOption()})
    assert duel.actions[0] == option
    assert "do it?" not in c.text


# -- telling ----------------------------------------------------------------------------------------
def test_both_sides_moves_are_told(duel):
    code, c = play(duel, [move_number(duel)], computer={"Allied": FirstOption()})
    move = duel.actions[0]
    assert f"Axis Infantry moves from St. Vith (7,2) to {move['to']}" in c.text
    assert "Allied (computer): hold against #1" in c.text


def test_save_file_saves_now_and_after_every_action(skirmish, tmp_path):
    path = tmp_path / "mine.json"
    game = Game(skirmish, "hill", seed=2)
    code, c = play(game, [f"save {path}", "1"])
    assert f"saved to {path}" in c.text
    loaded = save.load(path, [SKIRMISH], trust_code=True)
    assert len(loaded.actions) == len(game.actions) >= 1


def test_save_without_a_file_says_how(duel):
    code, c = play(duel, ["save"])
    assert "save FILE" in c.text


def test_a_closed_pipe_ends_quietly(duel):
    saved = []

    def write(text: str) -> None:
        if len(written) > 5:
            raise BrokenPipeError
        written.append(text)

    written: list[str] = []
    code = terminal.play_terminal(duel, {}, saved.append, read=lambda p: "1", write=write)
    assert code == 0 and saved


def test_the_end_of_the_input_quits(duel):
    code, c = play(duel, [])
    assert code == 0


# -- the text map -----------------------------------------------------------------------------------
def test_the_text_map_shows_roads_rivers_and_explains_the_ids():
    game = Game(load_demo(), "ardennes", seed=1)
    text = textmap.hex_map(game.state, game.ruleset.logic)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "=" in text and ("|" in text or "~" in text) and "#" in text
    assert "= / \\ road" in text and "| ~ river" in text and "# bridge" in text
    assert "hex ids are column,row" in text
    # the road from 0,4 east: two road hexes of row 4 side by side are joined by `=`
    row4 = next(line for line in lines if line.startswith("  4 "))
    assert "=" in row4


def _big_board(cols: int, rows: int) -> Board:
    spaces = [Space(f"{c:02d}{r:02d}", f"{c:02d}{r:02d}", "hex", from_offset(c, r), {"col": c, "row": r})
              for c in range(1, cols + 1) for r in range(1, rows + 1)]
    return Board.hex_map(spaces, {frozenset(("0101", "0201")): {"road": True}})


def test_a_wide_map_is_windowed_to_80_columns():
    game = Game(load_demo(), "ardennes", seed=1)
    big = _big_board(40, 12)
    wide = GameState(big, game.ruleset.rules, 1)
    wide.add_piece("Infantry", "Axis", "3005")
    text = textmap.hex_map(wide, game.ruleset.logic)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "part of the map" in text
    assert "hex ids are column then row, two digits each" in text
    around = textmap.hex_map(wide, game.ruleset.logic, around="0505", radius=3)
    assert max(len(line) for line in around.splitlines()) <= 80


def test_the_bulge_map_fits_80_columns():
    from engine import plugins

    rs = plugins.load("bulge")
    game = Game(rs, None, 1)
    text = textmap.hex_map(game.state, rs.logic)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "road" in text and "river" in text and "column then row" in text


# -- the engine's undo, as both clients use it ----------------------------------------------------
def test_game_undo_for_a_player_takes_back_the_answers_after_it(duel):
    def mine(player: str) -> bool:
        return player == "Axis"

    start = duel.state.signature()
    duel.play(next(a for a in duel.decision.options if a.kind == "move"))
    duel.play(duel.decision.options[0])          # Allied answers
    assert duel.decision.player == "Axis"
    assert duel.can_undo() and duel.can_undo(mine) and not duel.can_undo(lambda p: p == "Nobody")
    assert duel.undo(mine) == 2
    assert duel.actions == [] and duel.state.signature() == start and duel.decision.player == "Axis"
    assert duel.log[-1] == ("undo", {"actions": 2})
    # with no player given, only the very last action goes
    duel.play(next(a for a in duel.decision.options if a.kind == "move"))
    duel.play(duel.decision.options[0])
    assert duel.undo() == 1 and duel.decision.player == "Allied"


def test_a_world_map_game_starts_short_and_looks_at_a_territory():
    from engine import plugins

    game = Game(plugins.load("lhtr"), None, seed=1)
    code, c = play(game, ["look germany", "map sz 5", "look afghanistan"])
    before = c.text.split("> ")[0]
    assert before.count("\n") < 40 and "`map NAME`" in before       # no list of every space at the start
    germany = c.text.split("> look germany")[1]
    assert "worth 10 IPCs" in germany and "victory city (Berlin)" in germany and "capital of Germany" in germany
    assert "next to: " in germany and "Western Europe" in germany.split("next to: ")[1].split("\n")[0]
    assert "Sea Zone 5" in c.text.split("> map sz 5")[1].split("\n")[0] + c.text.split("> map sz 5")[1]
    assert "no space called" not in c.text
    # unit names spaced as players read them, a name said once
    assert "1 Germany Industrial Complex" in germany and "1 Germany AA Gun" in germany
    assert "IndustrialComplex" not in c.text and "AAGun" not in c.text
    assert "Afghanistan (Afghanistan)" not in c.text and "Afghanistan; impassable" in c.text


def test_a_name_typed_without_the_dots_of_an_abbreviation_is_read():
    """"karelia ssr" is Karelia S.S.R., looked at or typed among an option's words."""
    from engine import plugins

    game = Game(plugins.load("lhtr"), None, seed=1)
    while (game.decision.player, game.decision.kind) != ("Germany", "combat_move"):     # (no "USSR" in its words)
        game.play(game.decision.finish)
    code, c = play(game, ["look ukraine ssr", "tank ukraine ssr", "n"])
    assert "no space called" not in c.text and "no option matches" not in c.text
    assert "Ukraine S.S.R., held by Germany" in c.text
    assert "that is: " in c.text and "move Germany Tank in Ukraine S.S.R." in c.text.split("that is: ")[1]


def test_unit_names_are_spaced_only_where_a_unit_type_is_named():
    from clients.words import spaced, unit_words

    assert [spaced(k) for k in ("AAGun", "IndustrialComplex", "Infantry", "B17Bomber")] == [
        "AA Gun", "Industrial Complex", "Infantry", "B17 Bomber"]
    words = unit_words(["AAGun", "Infantry", "AircraftCarrier"])
    assert words("2 AAGun, 1 AircraftCarrier; AAGunner") == "2 AA Gun, 1 Aircraft Carrier; AAGunner"


def test_units_lost_at_the_end_of_mobilize_are_told_in_players_words():
    """Ending mobilize with a bought unit not placed says what is lost first, and the log
    names the pool it is lost from as players read it, never by its id (`pending:USSR`)."""
    from engine import plugins

    game = Game(plugins.load("lhtr"), None, seed=1)
    code, c = play(game, ["1"] + ["done", "y"] * 4)
    assert "done placing: 1 unit not placed (3 IPCs) will be lost" in c.text
    assert "USSR Infantry destroyed in USSR mobilization pool" in c.text
    assert "USSR could not place Infantry: lost" in c.text
    assert "pending:" not in c.text


def test_a_bulge_hex_id_typed_is_a_hex_and_names_fold_accents():
    """On the Bulge map a hex id is a number too: `1910` (Prüm) is read as the hex, since no
    option has that number, and `prum` finds Prüm without its accent."""
    from engine import plugins

    game = Game(plugins.load("bulge"), None, seed=1)
    options = list(game.decision.options)
    assert len(options) < 1910
    code, c = play(game, ["1910", "n", "look prum", "12"])
    assert "that is: " in c.text and "from Prüm (1910)" in c.text.split("> 1910")[1].split("> ")[0]
    assert "Prüm (1910):" in c.text.split("> look prum")[1]
    # a number that can be an option's is the option's: 12 plays the twelfth option listed
    assert game.actions == [options[11]]


def test_help_lists_each_command_with_its_words_in_one_column(duel):
    code, c = play(duel, ["help"])
    shown = c.text.split("> help")[1]
    rows = [line for line in shown.split("\n") if line.startswith("  ") and line[2:3].isalpha()]
    names = [row.split()[0] for row in rows]
    assert {"done", "map", "look", "log", "undo", "save", "odds", "quit"} <= set(names)
    assert all(row[16] != " " and row[15] == " " for row in rows), rows
    assert all(row == row.rstrip() for row in rows)
