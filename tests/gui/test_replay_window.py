"""Watching a saved game in the window (`wargame replay SAVE --watch`): the map and the panel
show the game after one action; N and B step forwards and backwards, with Shift a turn; a
banner says which action, whose and what; nobody can play or undo in it."""

from __future__ import annotations

from typing import Any

import pytest
from gui_support import config, require_gl

require_gl()

from pyglet.window import key  # noqa: E402

from clients import history  # noqa: E402
from clients.cli import main  # noqa: E402
from tests.conftest import SKIRMISH  # noqa: E402


@pytest.fixture(scope="module")
def saved(tmp_path_factory: Any) -> Any:
    path = tmp_path_factory.mktemp("replay") / "g.json"
    assert main(["--trust-code", "--mod", str(SKIRMISH), "play", "skirmish", "--ai", "all", "--seed", "4",
                 "--save", str(path)]) == 0
    return history.from_save(path, [SKIRMISH], trust_code=True)


def press(win: Any, symbol: int, modifiers: int = 0) -> None:
    win.dispatch_event("on_key_press", symbol, modifiers)
    win.dispatch_events()


def banner(win: Any) -> str:
    return " ".join(i.text for i in win._top_items if hasattr(i, "text"))


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_stepping_through_a_saved_game_in_the_window(saved, size, tmp_path):
    from clients.gui_replay import ReplayWindow

    h = saved
    win = ReplayWindow(h, 0, width=size[0], height=size[1], visible=False, config=config())
    try:
        win.render_to_png(tmp_path / "start.png")
        assert win.at == 0 and "the start of the game" in banner(win)
        for want in (1, 2, 3):
            press(win, key.N)
            assert win.at == want and win.game.state is h.steps[want].state
            assert h.heading(want) in banner(win)
        press(win, key.B)
        assert win.at == 2 and win.game.state is h.steps[2].state and len(win.game.actions) == 2
        assert win.game.log == h.game.log[:h.steps[2].log_end]
        press(win, key.N, key.MOD_SHIFT)                      # the next turn
        assert win.at == h.turn_start(2) and h.steps[win.at].turn == 2
        press(win, key.B, key.MOD_SHIFT)                      # back to the start of the turn before
        assert win.at == 0
        press(win, key.END)
        assert win.at == h.last and win.game.over
        # nobody plays a history: no row is taken, nothing undone, nothing asked on closing
        assert not win.human_turn() and not win.can_undo() and not win._unsaved()
        press(win, key.U)
        press(win, key._1)
        assert win.at == h.last and len(win.game.actions) == h.last
        win.render_to_png(tmp_path / "end.png")
    finally:
        win.close()


def test_an_lhtr_battle_in_the_history_shows_in_the_battle_box(tmp_path):
    """The computer plays LHTR to its first battle; the history shown at an action of the
    battle has its box: the battle being fought, the dice, who hits on what."""
    import os
    from pathlib import Path

    from clients import seats
    from clients.gui_replay import ReplayWindow
    from engine import plugins
    from engine.game import Game

    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=1)
    players = seats.assign(rs, ["all"])
    rolled = 0
    while rolled < 3:                       # to the third action that rolled dice
        d = game.decision
        assert d is not None and len(game.actions) < 300
        events = game.play(players[seats.seat_of(rs, d.player)].choose(rs, game.state, d))
        rolled += any(kind == "roll" for kind, _ in events)
    h = history.record(game)
    win = ReplayWindow(h, h.last, width=1600, height=1000, visible=False, config=config())
    try:
        assert win.battle_rect is not None
        words = " ".join(i.text for i in win._panel_items if hasattr(i, "text"))
        assert "(being fought)" in words and " attacks: " in words and " defends: " in words and "@" in words
        assert f"History: action {h.last} of {h.last} · turn 1 · " in banner(win)
        out = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") \
            else tmp_path
        win.render_to_png(out / "lhtr_history.png")
    finally:
        win.close()


def test_y_opens_the_history_of_the_game_being_played(game, make_window):
    """Y in a game's window: its history so far in a window of its own, at the last action;
    stepping back there leaves the game as it is."""
    win = make_window(game, width=1280, height=720)
    for _ in range(3):
        assert win.choose_row(0)
    n, state = len(game.actions), game.state
    press(win, key.Y)
    hist = win.history_window
    try:
        assert hist.at == hist.history.last == n and hist.game is not game
        press(hist, key.B)
        press(hist, key.B)
        assert hist.at == n - 2 and hist.game.state is hist.history.steps[n - 2].state
        assert game.state is state and len(game.actions) == n        # the game itself goes on as it was
        assert f"History: action {n - 2} of {n} · " in banner(hist)
    finally:
        hist.close()


def panel_words(win: Any) -> str:
    return " ".join(i.text for i in win._panel_items if hasattr(i, "text"))


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_the_history_has_no_control_that_changes_the_game(size):
    """Bulge's history in the window: no Undo, Odds or end-the-step button and no option rows
    (the panel says what was asked and what was chosen), the keys that play, undo, end a step,
    save, load, start a game or open the calculator do nothing; the banner's buttons step
    (first, back, next, last) and close the window."""
    from clients import seats
    from clients.gui_replay import ReplayWindow
    from engine import plugins
    from engine.game import Game

    rs = plugins.load("bulge")
    game = Game(rs, None, seed=1)
    players = seats.assign(rs, ["all"])
    while len(game.actions) < 12:
        d = game.decision
        game.play(players[seats.seat_of(rs, d.player)].choose(rs, game.state, d))
    h = history.record(game)
    at = next(s.number for s in h.steps[1:-1] if s.decision is not None and s.decision.finish is not None)
    win = ReplayWindow(h, at, width=size[0], height=size[1], visible=False, config=config())
    try:
        assert win.decision.finish is not None            # (the game window would offer to end the step)
        words = panel_words(win)
        for button in ("Undo", "Odds", "End the step"):
            assert button not in words
        assert win.undo_rect is None and win.odds_rect is None and win.finish_rect is None
        assert win.option_rows == [] and f"{win.decision.player} was asked" in words
        assert "and chose: " + h.said(h.steps[at + 1]) in words
        assert "E: end the step" not in words and "History: N or" in words         # the help line
        for symbol, mods in ((key.O, 0), (key.O, key.MOD_SHIFT), (key.E, 0), (key.U, 0), (key.ENTER, 0),
                             (key._1, 0), (key.Y, 0), (key.S, key.MOD_CTRL), (key.N, key.MOD_CTRL),
                             (key.O, key.MOD_CTRL)):
            press(win, symbol, mods)
            assert win.calc is None and win.menu is None and win.prompt is None and win.at == at
            assert not hasattr(win, "history_window") and len(win.game.actions) == at
        # the banner's buttons
        assert list(win.nav_rects) == ["first", "turn_back", "back", "next", "turn_next", "last", "quit"]

        def click(what: str) -> None:
            x, y, w, hh = win.nav_rects[what]
            win.dispatch_event("on_mouse_press", x + w / 2, y + hh / 2, 1, 0)   # (1: the left button)
            win.dispatch_event("on_mouse_release", x + w / 2, y + hh / 2, 1, 0)
            win.dispatch_events()

        click("next")
        assert win.at == at + 1 and f"History: action {at + 1} of {h.last}" in banner(win)
        click("back")
        click("back")
        assert win.at == at - 1
        click("last")
        assert win.at == h.last
        click("first")
        assert win.at == 0
        click("quit")
        assert win._closed
    finally:
        win.close()
