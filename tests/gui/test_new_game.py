"""The window without a game: the new-game screen (ruleset, scenario, which sides the
computer plays), loading a saved game from the window (a damaged save is said and loses
nothing), and saving to a file asked for in the window."""

from __future__ import annotations

import json

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

import pyglet  # noqa: E402
from gui_support import click, draw  # noqa: E402
from pyglet.window import key  # noqa: E402

from clients.gui import GameWindow  # noqa: E402
from clients.launch import Launcher  # noqa: E402
from engine import plugins, save  # noqa: E402
from engine.game import Game  # noqa: E402


@pytest.fixture
def make_bare(make_window):  # type: ignore[no-untyped-def]
    """A window opened with no game, on the new-game screen."""
    def make(**kw):  # type: ignore[no-untyped-def]
        return make_window(None, launcher=kw.pop("launcher", Launcher()), width=1400, height=880, **kw)

    return make


def hit(win: GameWindow, what: str, arg: str = "") -> tuple[int, int]:
    """The middle of the new-game screen's row or button for (what, arg)."""
    for (x, y, w, h), (kind, value) in win.menu.hits:
        if kind == what and (not arg or value == arg):
            return int(x + w / 2), int(y + h / 2)
    raise AssertionError(f"no {what} {arg} on the screen: {[k for _, k in win.menu.hits]}")


def type_text(win: GameWindow, text: str) -> None:
    win.dispatch_event("on_text", text)
    win.dispatch_events()


def press(win: GameWindow, symbol: int, modifiers: int = 0) -> None:
    win.dispatch_event("on_key_press", symbol, modifiers)
    win.dispatch_events()


def test_the_new_game_screen_starts_the_game_chosen(make_bare, tmp_path):
    win = make_bare()
    img = draw(win, tmp_path / "new_game.png")
    assert win.game is None and win.menu is not None and img.width == 1400
    texts = [getattr(i, "text", "") for i in win.menu.builder.items]
    assert "New game" in texts and any("Battle of the Bulge" in t for t in texts)
    assert win.menu.ruleset == "bulge" and win.menu.computer == {"Allies"}   # the default: all but the first side
    # nothing plays while the screen is up: no computer, no map
    pyglet.clock.tick()
    click(win, *hit(win, "ruleset", "lhtr"))
    assert win.menu.ruleset == "lhtr" and win.menu.scenario == "revised-1942"
    assert win.menu.sides == ["Allies", "Axis"] and win.menu.computer == {"Axis"}
    click(win, *hit(win, "side", "Allies"))                 # the computer plays both: a game to watch
    click(win, *hit(win, "side", "Axis"))                   # ... and then Axis is a person's again
    assert win.menu.computer == {"Allies"}
    draw(win, tmp_path / "new_game_lhtr.png")
    click(win, *hit(win, "start"))
    assert win.menu is None and win.game is not None
    assert win.game.ruleset.name == "lhtr" and win.game.scenario == "revised-1942"
    assert set(win.computer) == {"Allies"}
    draw(win)
    assert win.layer is not None and win.option_rows
    # Ctrl+N comes back to the screen; Esc goes back to the same game
    game = win.game
    press(win, key.N, key.MOD_CTRL)
    assert win.menu is not None and win.menu.can_go_back and win.menu.ruleset == "lhtr"
    press(win, key.ESCAPE)
    assert win.menu is None and win.game is game


def test_loading_a_save_from_the_window_and_a_damaged_one(make_window, tmp_path):
    rs = plugins.load("bulge")
    saved = Game(rs, None, seed=5)
    saved.play(saved.decision.finish)
    good = tmp_path / "good.json"
    save.save(saved, good)
    damaged = tmp_path / "damaged.json"
    damaged.write_text(good.read_text()[:200])
    other = tmp_path / "other.json"
    data = json.loads(good.read_text())
    data["actions"] = [{"kind": "attack", "args": {"from": "0101", "to": "0102"}}]
    other.write_text(json.dumps(data))

    current = Game(rs, None, seed=9)
    win = make_window(current, launcher=Launcher(), width=1400, height=880)
    draw(win)
    for bad, says in ((damaged, "could not load it"), (tmp_path / "missing.json", "could not load it"),
                      (tmp_path, "folder"), (other, "could not load it")):
        press(win, key.O, key.MOD_CTRL)
        assert win.prompt is not None
        type_text(win, str(bad))
        press(win, key.ENTER)
        assert win.prompt is not None and says in win.prompt.error, (bad, win.prompt.error)
        draw(win, tmp_path / "load_error.png")
        texts = [getattr(i, "text", "") for i in win.prompt.builder.items]
        assert win.prompt.error in texts
        press(win, key.ESCAPE)
        assert win.prompt is None
        assert win.game is current and current.actions == []    # nothing lost
    assert damaged.read_text() == good.read_text()[:200]       # nor written over
    # typing goes to the entry, not to the game's keys (u is not undo, e not the end of the step)
    press(win, key.O, key.MOD_CTRL)
    type_text(win, "ue")
    press(win, key.BACKSPACE)
    press(win, key.BACKSPACE)
    assert win.prompt.text == "" and current.actions == []
    type_text(win, str(good))
    press(win, key.ENTER)
    assert win.prompt is None and win.game is not current
    assert win.game.actions == saved.actions and win.game.state.signature() == saved.state.signature()
    assert "Loaded" in win.notice
    # the save is not written over unasked: a move leaves it as it was ...
    n, before = len(win.game.actions), good.read_text()
    win.computer.clear()
    assert win.choose(win.game.decision.options[0])
    assert good.read_text() == before
    # ... and Ctrl+S offers it, saying so; Enter is the player's yes, and from then on it is saved there
    press(win, key.S, key.MOD_CTRL)
    assert win.prompt is not None and win.prompt.text == str(good) and "writes over it" in win.prompt.hint
    press(win, key.ENTER)
    assert win.prompt is None and len(save.load(good).actions) == n + 1
    assert win.choose(win.game.decision.options[0])
    assert len(save.load(good).actions) == n + 2


def test_save_asks_for_a_file_when_there_is_none(make_window, tmp_path):
    game = Game(plugins.load("bulge"), None, seed=2)
    win = make_window(game, width=1400, height=880)
    press(win, key.S, key.MOD_CTRL)
    offered = win.prompt.text          # a new file named after the ruleset and the time
    assert win.prompt is not None and offered.startswith("bulge-") and offered.endswith(".json")
    for _ in range(len(offered)):
        press(win, key.BACKSPACE)
    type_text(win, str(tmp_path / "no" / "such" / "folder.json"))
    press(win, key.ENTER)
    assert win.prompt is not None and "could not save" in win.prompt.error
    win.prompt.text = ""
    path = tmp_path / "mine.json"
    type_text(win, str(path))
    press(win, key.ENTER)
    assert win.prompt is None and path.is_file() and win.saver is not None
    assert win.choose(game.decision.options[0])
    assert len(save.load(path).actions) == 1
    # Ctrl+S and U always say what they did
    press(win, key.S, key.MOD_CTRL)
    assert win.notice == f"Saved (1 action) to {path}"
    win.refusal = ""
    game2 = Game(plugins.load("bulge"), None, seed=2)
    win2 = make_window(game2, width=1280, height=720)
    press(win2, key.U)
    assert win2.notice == "Nothing to undo in this step"
    draw(win2)
    assert any(getattr(i, "text", "") == "Nothing to undo in this step" for i in win2._panel_items)


def test_play_with_no_ruleset_draws_the_new_game_screen(tmp_path, capsys):
    from clients.cli import main

    path = tmp_path / "new.png"
    assert main(["play", "--screenshot", str(path)]) == 0
    img = pyglet.image.load(str(path))
    assert (img.width, img.height) == (1400, 880)
    assert f"wrote {path}" in capsys.readouterr().out


def test_the_save_file_of_the_command_line_goes_to_the_first_game_only(make_bare, tmp_path):
    first = tmp_path / "first.json"
    win = make_bare(launcher=Launcher(save_path=first))
    press(win, key.ENTER)                                     # bulge, the computer the Allies
    assert win.game is not None and win.saver is not None
    assert win.choose(win.game.decision.options[0])
    saved = first.read_text()
    press(win, key.N, key.MOD_CTRL)
    assert not win.menu.unsaved                               # it has its file
    press(win, key.ENTER)
    assert win.saver is None and first.read_text() == saved   # the next game does not write over it
    assert win.choose(win.game.decision.options[0])
    assert first.read_text() == saved
    press(win, key.N, key.MOD_CTRL)
    assert win.menu.unsaved                                   # played, no file: the screen says so
    assert any("no save file" in getattr(i, "text", "") for i in win.menu.builder.items)


def test_the_screen_offers_aarhe_and_says_which_mod_it_cannot(make_bare, tmp_path):
    orphan = tmp_path / "orphan"
    orphan.mkdir()
    (orphan / "orphan.rules").write_text("")
    (orphan / "ruleset.json").write_text('{"name": "orphan", "title": "An orphan", "extends": "nowhere", '
                                         '"rules": ["orphan.rules"]}')
    win = make_bare(launcher=Launcher(mods=[orphan]))
    draw(win, tmp_path / "new_game_mods.png")
    click(win, *hit(win, "ruleset", "aarhe"))
    assert win.menu.ruleset == "aarhe" and win.menu.scenario == "revised-1942"
    texts = [getattr(i, "text", "") for i in win.menu.builder.items]
    assert any(t.startswith("orphan cannot be played: no base ruleset") for t in texts)
    click(win, *hit(win, "start"))
    assert win.game is not None and win.game.ruleset.name == "aarhe"


def test_closing_a_game_no_file_keeps_asks(make_window, tmp_path):
    game = Game(plugins.load("bulge"), None, seed=2)
    win = make_window(game, width=1280, height=720)
    win.dispatch_event("on_close")
    win.dispatch_events()                   # nothing played: nothing to lose, it closes
    assert win.has_exit or win._closed
    game = Game(plugins.load("bulge"), None, seed=2)
    win = make_window(game, width=1280, height=720)
    assert win.choose(game.decision.options[0])
    win.dispatch_event("on_close")
    win.dispatch_events()
    assert not win._closed and win.prompt is not None and win.prompt.title == "Save the game before closing?"
    assert "1 action" in win.prompt.hint and win.prompt.text.startswith("bulge-")
    draw(win, tmp_path / "close_asks.png")
    press(win, key.ESCAPE)                           # back to the game
    assert win.prompt is None and not win._closed
    win.dispatch_event("on_close")
    win.dispatch_events()
    win.prompt.text = str(tmp_path / "kept.json")
    press(win, key.ENTER)                            # saved where it says, then closed
    assert win._closed and save.load(tmp_path / "kept.json").actions == game.actions
    # a second close (Ctrl+Q) closes without saving
    game = Game(plugins.load("bulge"), None, seed=2)
    win = make_window(game, width=1280, height=720)
    assert win.choose(game.decision.options[0])
    press(win, key.Q, key.MOD_CTRL)
    assert win.prompt is not None and not win._closed
    press(win, key.Q, key.MOD_CTRL)
    assert win._closed
