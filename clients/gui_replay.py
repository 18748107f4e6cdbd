"""Watching a saved game in the window, as TripleA's history view does: the map, the panel
and the battle box show the game as it stood after one action, and keys step forwards and
backwards, by an action or a turn (`wargame replay SAVE --watch`, or Y in a game's window).

`ReplayWindow` is the game window showing a `clients.history.History`: its game is a copy
whose state, question, log and actions are set to those of the step shown; nobody plays (no
option is taken, nothing undone, nothing asked to be saved). A banner over the map says which
action this is, who played it and the keys, with buttons to step (first, back, next, last)
and to quit. The game window's controls that play, undo, end a step, save, load or open the
battle calculator are not in it: the panel shows the question asked and what was chosen,
in place of its options and buttons.
"""

from __future__ import annotations

from typing import Any

import pyglet
from pyglet.window import key, mouse

from clients.battles import BattleLog
from clients.gui import GameWindow, _window_size, mentioned_spaces, run_event_loop
from clients.gui_map import FONT, framed
from clients.gui_panel import ACCENT, DIM, TEXT
from clients.history import History
from engine.game import Game

#: how many actions before the one shown the battle box reads (a battle spans its questions)
BATTLE_READ = 40
KEYS = ("N or → the next action · B or ← back · with Shift (or PgDn, PgUp): a turn · Shift+Home: the start · "
        "End: the last · Q: close")
#: the help line under the panel, in place of the game's (which names the keys that play)
HELP = ("History: " + KEYS + " · drag/Shift+Up/Down: pan · wheel/+/-: zoom · Home: fit · H: ids · L: legend · "
        "T: tracks and charts")
#: the banner's buttons: what each does (a step, a turn or an end) and its words
BUTTONS = (("first", "|< First"), ("turn_back", "<< Turn"), ("back", "< Back"), ("next", "Next >"),
           ("turn_next", "Turn >>"), ("last", "Last >|"), ("quit", "Close (Q)"))
#: keys of the game window that only change the view, which a history keeps
VIEW_KEYS = frozenset({key.H, key.L, key.T, key.PLUS, key.EQUAL, key.NUM_ADD, key.MINUS, key.NUM_SUBTRACT})


class ReplayWindow(GameWindow):
    """A game's history in the window (see the module's docstring)."""

    plays = False

    def __init__(self, history: History, start: int = 0, **kwargs: Any) -> None:
        self.history = history
        self.at = max(0, min(start, history.last))
        g = history.game
        self.shown = Game(g.ruleset, g.scenario, g.seed)
        self.nav_rects: dict[str, tuple[float, float, float, float]] = {}
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

    def visible_options(self) -> list[Any]:
        return []

    def click_space(self, sid: str | None, counter: Any = None) -> None:
        """A click on the map selects nothing: no unit of a history goes anywhere (the
        tooltip still says what stands in a space)."""

    def help_line(self) -> str:
        return HELP                              # the keys of a history, not those that play

    def _build_options(self, lx: float, y: float, inner: int, bottom: float, bg: Any, fg: Any) -> None:
        """In place of the options: who was asked what at this point, and what they chose (the
        next action), or that the game stops here."""
        self.option_rows, self._row_full, self.rows_fit = [], {}, 1
        d = self.decision
        assert d is not None
        who = self._label(f"{d.player} was asked", lx, y, size=12, bold=True, color=self._side_ink(self.seat()),
                          group=fg)
        y -= who.content_height + 2
        prompt = self._label(d.prompt, lx, y, size=10.5, width=inner, group=fg)
        y -= prompt.content_height + 6
        h = self.history
        chose = (f"and chose: {h.said(h.steps[self.at + 1])}" if self.at < h.last
                 else "the game stops here: this is the last action saved")
        self._label(chose, lx, y, size=10.5, width=inner, color=ACCENT, group=fg)

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

    def go(self, what: str) -> bool:
        """A banner button's (or its key's) step: `first`, `back`, `next`, `last`, a turn
        `turn_back` / `turn_next`; `quit` closes the window."""
        if what == "quit":
            self.close()
            return True
        if what in ("first", "last"):
            to = 0 if what == "first" else self.history.last
            if to == self.at:
                return False
            self.show(to)
            return True
        if what.startswith("turn_"):
            return self.turn(1 if what == "turn_next" else -1)
        return self.step(1 if what == "next" else -1)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == mouse.LEFT and self.prompt is None:
            for what, rect in self.nav_rects.items():
                if self._inside(rect, x, y):
                    self.go(what)
                    return
        super().on_mouse_press(x, y, button, modifiers)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if self.prompt is not None or self.calc is not None or self.menu is not None:
            return super().on_key_press(symbol, modifiers)
        shift = modifiers & key.MOD_SHIFT
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if symbol == key.Q or (ctrl and symbol == key.W):
            return self.go("quit")
        if ctrl:                        # save, load, a new game, undo: none in a history
            return True
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
        # the view's keys (pan, zoom, fit, ids, legend, charts); none that plays, undoes, ends
        # a step, saves, loads, starts a game or opens the calculator
        if (symbol in VIEW_KEYS and not ctrl) or (symbol == key.HOME and not shift) or (
                shift and symbol in (key.UP, key.DOWN)):
            return super().on_key_press(symbol, modifiers)
        return True

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
        bw, bh_button, gap = 72, 22, 6
        bh = head.content_height + keys.content_height + bh_button + 22
        top = self.height - 4
        head.y = round(top - 6)
        keys.y = round(head.y - head.content_height - 2)
        self._top_items += framed(area_x + 4, top - bh, area_w - 8, bh, 1, (20, 22, 26), (110, 116, 128), self.top)
        self._top_items += [head, keys]
        by = keys.y - keys.content_height - 6 - bh_button
        self.nav_rects = {}
        for n, (what, words) in enumerate(BUTTONS):
            bx = area_x + 12 + n * (bw + gap)
            if bx + bw > area_x + area_w - 8:
                break
            self.nav_rects[what] = (bx, by, bw, bh_button)
            self._top_items += framed(bx, by, bw, bh_button, 1, (44, 50, 62), (120, 130, 150), self.top, group)
            self._top_items.append(pyglet.text.Label(words, x=round(bx + bw / 2), y=round(by + bh_button / 2),
                                                     anchor_x="center", anchor_y="center", font_name=FONT,
                                                     font_size=9, weight="bold", color=TEXT, batch=self.top,
                                                     group=pyglet.graphics.Group(order=2)))


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
