"""Watching a saved game in the window, as TripleA's history view does: the map, the panel
and the battle box show the game as it stood after one action, and keys step forwards and
backwards, by an action or a turn (`wargame replay SAVE --watch`, or Y in a game's window).

`ReplayWindow` is the game window showing a `clients.history.History`: its game is a copy
whose state, question, log and actions are set to those of the step shown; nobody plays (no
option is taken, nothing undone, nothing asked to be saved). A banner over the map says which
action this is, who played it and the keys.
"""

from __future__ import annotations

from typing import Any

import pyglet
from pyglet.window import key

from clients.battles import BattleLog
from clients.gui import GameWindow, _window_size, mentioned_spaces, run_event_loop
from clients.gui_map import FONT, framed
from clients.gui_panel import ACCENT, DIM
from clients.history import History
from engine.game import Game

#: how many actions before the one shown the battle box reads (a battle spans its questions)
BATTLE_READ = 40
KEYS = "N or → the next action · B or ← back · with Shift (or PgDn, PgUp): a turn · Shift+Home: the start · End: the last"


class ReplayWindow(GameWindow):
    """A game's history in the window (see the module's docstring)."""

    def __init__(self, history: History, start: int = 0, **kwargs: Any) -> None:
        self.history = history
        self.at = max(0, min(start, history.last))
        g = history.game
        self.shown = Game(g.ruleset, g.scenario, g.seed)
        self._put(self.at)
        kwargs.setdefault("caption", f"{g.ruleset.info.title} — history")
        super().__init__(self.shown, None, None, autoplay=False, **kwargs)
        self.show(self.at)

    def _put(self, i: int) -> None:
        step, g = self.history.steps[i], self.shown
        g.state, g._decision = step.state, step.decision
        g.log = self.history.game.log[:step.log_end]
        g.actions = [s.action for s in self.history.steps[1:i + 1] if s.action is not None]
        g._undo = []

    def show(self, i: int) -> None:
        """Show the game after action i (0: as it began)."""
        self.at = max(0, min(i, self.history.last))
        self._put(self.at)
        if self.pick is not None:
            self.clear_selection()
        self.battles = BattleLog(self.logic.narrate)
        for s in self.history.steps[max(1, self.at - BATTLE_READ):self.at + 1]:
            before = self.history.steps[s.number - 1].state
            where = mentioned_spaces(s.action, before, before.board) if s.action is not None else []
            source = (s.answered.kind, s.player, s.words) if s.answered is not None else None
            self.battles.feed(self.shown.log[s.log_start:s.log_end], s.log_start, source, before=before,
                              after=s.state, where=where,
                              asking=s.decision is not None and s.decision.kind == "choose")
        self._narrate(rebuild=True)
        self.box_odds = None
        self.refresh()

    # nobody plays a history
    def human_turn(self) -> bool:
        return False

    def computer_turn(self) -> bool:
        return False

    def can_undo(self) -> bool:
        return False

    def _unsaved(self) -> bool:
        return False

    def _save(self) -> bool:
        return False

    def step(self, by: int) -> bool:
        """Go `by` actions forwards (or backwards); whether the step shown changed."""
        to = max(0, min(self.history.last, self.at + by))
        if to == self.at:
            return False
        self.show(to)
        return True

    def turn(self, by: int) -> bool:
        to = self.history.next_turn(self.at, by)
        if to == self.at:
            return False
        self.show(to)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if self.prompt is not None or self.calc is not None or self.menu is not None:
            return super().on_key_press(symbol, modifiers)
        shift = modifiers & key.MOD_SHIFT
        forward = symbol in (key.N, key.RIGHT, key.SPACE, key.PERIOD, key.PAGEDOWN)
        back = symbol in (key.B, key.LEFT, key.COMMA, key.PAGEUP)
        if forward or back:
            sign = 1 if forward else -1
            if shift or symbol in (key.PAGEUP, key.PAGEDOWN):
                self.turn(sign)
            else:
                self.step(sign)
            return True
        if symbol == key.HOME and shift:
            self.show(0)
            return True
        if symbol == key.END:
            self.show(self.history.last)
            return True
        return super().on_key_press(symbol, modifiers)

    def _build_top(self) -> None:
        super()._build_top()
        area_x, _, area_w, area_h = self.map_area()
        text = self.history.heading(self.at)
        group = pyglet.graphics.Group(order=1)
        head = pyglet.text.Label("History: " + self.words(text), x=round(area_x + 12), y=0, width=round(area_w - 24),
                                 multiline=True, anchor_y="top", font_name=FONT, font_size=11, weight="bold",
                                 color=ACCENT, batch=self.top, group=group)
        keys = pyglet.text.Label(KEYS, x=round(area_x + 12), y=0, anchor_y="top",
                                 font_name=FONT, font_size=8.5, color=DIM, batch=self.top, group=group)
        bh = head.content_height + keys.content_height + 16
        top = self.height - 4
        head.y = round(top - 6)
        keys.y = round(head.y - head.content_height - 2)
        self._top_items += framed(area_x + 4, top - bh, area_w - 8, bh, 1, (20, 22, 26), (110, 116, 128), self.top)
        self._top_items += [head, keys]


def open_history(window: GameWindow) -> ReplayWindow:
    """The history of the game in `window` so far, at its last action, in a window of its own
    (Y): the game goes on in the first."""
    from clients.history import record

    kw: dict[str, Any] = {"width": window.width, "height": window.height, "visible": window.visible}
    try:
        kw["config"] = window.config
    except AttributeError:
        pass
    h = record(window.game)
    try:
        return ReplayWindow(h, h.last, resizable=True, **kw)
    except pyglet.window.NoSuchConfigException:
        kw.pop("config", None)
        return ReplayWindow(h, h.last, resizable=True, **kw)


def watch_window(history: History, start: int = 0) -> int:
    """Watch `history` in a window until it is closed."""
    width, height = _window_size()
    ReplayWindow(history, start, width=width, height=height, resizable=True)
    run_event_loop()
    return 0
