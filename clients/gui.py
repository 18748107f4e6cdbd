"""Playing in a window (pyglet): the hex map on the left, the game on the right.

The right-hand panel shows where the game stands, the question the engine asks and its
options as rows to click (or keys: up/down and Enter, 1-9), an Undo button, the last events
and why an action was refused. Clicking a hex narrows the options to those that name it.
Computer players move by themselves after a short pause, so a person can follow.

The window only shows what the engine says and sends it Actions: no rules live here.

`GameWindow` draws and reacts without `pyglet.app.run()` (tests dispatch its events
directly); `play_window` runs the event loop for a person.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

try:
    import pyglet
    from pyglet import shapes
    from pyglet.math import Mat4, Vec3
    from pyglet.window import key, mouse  # makes pyglet's hidden window: needs GL
except ImportError:
    raise
except Exception as e:  # noqa: BLE001 - no GL/EGL or no display: the caller falls back on ImportError
    raise ImportError(f"pyglet cannot open a window here ({type(e).__name__}: {e})") from e

from clients import seats
from clients.gui_map import (
    BACKGROUND,
    FONT,
    HOVER,
    MENTIONED,
    SELECTED,
    MapLayer,
    MapView,
    framed,
    side_colours,
)
from engine.actions import Action, Decision, IllegalAction
from engine.game import Game

Saver = Callable[[Game], None]

PANEL_WIDTH = 430
PAD = 12
ROW_H = 24
LOG_LINES = 12
COMPUTER_DELAY = 0.6

PANEL_BG = (28, 30, 34)
PANEL_EDGE = (70, 74, 82)
TEXT = (226, 228, 232, 255)
DIM = (150, 154, 162, 255)
ACCENT = (255, 214, 0, 255)
WARN = (236, 170, 60, 255)
REFUSED = (255, 92, 80, 255)
ROW_BG = (40, 43, 49)
ROW_ALT = (34, 37, 42)
ROW_HOVER = (58, 64, 76)
ROW_CURSOR = (74, 88, 118)
BUTTON = (64, 80, 112)
BUTTON_OFF = (46, 48, 54)

HELP = "Up/Down Enter or 1-9: choose · U: undo · click hex: filter · Esc: clear · drag/Shift+arrows: pan · wheel/+/-: zoom · Home: fit"


def play_window(game: Game, computer: dict[str, Any], saver: Saver | None) -> int:
    """Play `game` in a window until it is closed; the computer plays the sides in `computer`."""
    width, height = _window_size()
    window = None
    try:
        for config in (pyglet.gl.Config(sample_buffers=1, samples=4, double_buffer=True), None):
            try:
                window = GameWindow(game, computer, saver, width=width, height=height, resizable=True,
                                    config=config)
                break
            except pyglet.window.NoSuchConfigException:      # no multisampling here: plain config
                continue
    except Exception as e:  # noqa: BLE001 - no window after all: play on in the terminal
        window = None
        problem = f"{type(e).__name__}: {e}"
    else:
        problem = "no usable OpenGL configuration"
    if window is None:
        from clients.terminal import play_terminal

        print(f"(no window: {problem}; playing in the terminal)", file=sys.stderr)
        return play_terminal(game, computer, saver)
    pyglet.app.run()
    return 0


def _window_size() -> tuple[int, int]:
    """1400 x 880, or less on a smaller screen."""
    try:
        display = pyglet.display if hasattr(pyglet, "display") else pyglet.canvas  # 2.1 / 2.0
        screen = display.get_display().get_default_screen()
        return max(800, min(1400, screen.width - 60)), max(560, min(880, screen.height - 100))
    except Exception:  # noqa: BLE001 - no screen information: the default size
        return 1400, 880


def mentioned_spaces(action: Action, state: Any, spaces: Iterable[str] | Any) -> list[str]:
    """The spaces an action's arguments name: a value equal to a space id (or a list or tuple
    holding one), or the space of a piece named by an argument called piece, pieces, unit..."""
    out: list[str] = []
    for name, value in action.args.items():
        values = value if isinstance(value, (tuple, list, frozenset, set)) else (value,)
        for v in values:
            sid = None
            if isinstance(v, str) and v in spaces:
                sid = v
            elif _is_piece_ref(name, v) and v in state.pieces:
                sid = state.pieces[v].space
            if sid is not None and sid in spaces and sid not in out:
                out.append(sid)
    return out


def _is_piece_ref(name: str, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and ("piece" in name or "unit" in name)


def mentions(action: Action, space: str, pieces_here: frozenset[int] = frozenset()) -> bool:
    """Whether an action names `space` in its arguments, or (by an argument called piece,
    pieces, unit...) a piece standing there."""
    for name, value in action.args.items():
        values = value if isinstance(value, (tuple, list, frozenset, set)) else (value,)
        for v in values:
            if v == space:
                return True
            if _is_piece_ref(name, v) and v in pieces_here:
                return True
    return False


def result_text(game: Game) -> str:
    r = game.result
    if r is None:
        return ""
    who = f"{r.winner} wins" if r.winner else "Draw"
    score = ", ".join(f"{k} {v}" for k, v in r.score.items())
    return f"{who} — {r.reason}" + (f" ({score})" if score else "")


class GameWindow(pyglet.window.Window):
    """A game in a window. Everything it does is reachable without the event loop: draw with
    ``dispatch_event('on_draw')``, act with `choose`, `select_space`, `undo`, `step_computer`."""

    def __init__(self, game: Game, computer: dict[str, Any] | None = None, saver: Saver | None = None,
                 *, autoplay: bool = True, computer_delay: float = COMPUTER_DELAY, **kwargs: Any) -> None:
        kwargs.setdefault("width", 1280)
        kwargs.setdefault("height", 800)
        kwargs.setdefault("caption", f"{game.ruleset.info.title} — {game.scenario}")
        super().__init__(**kwargs)
        self.game = game
        self.computer = dict(computer or {})
        self.saver = saver
        self.autoplay = autoplay
        self.computer_delay = computer_delay
        self.logic = game.ruleset.logic
        self.sides = seats.sides(game.ruleset)
        powers = [p for p in game.ruleset.structure.powers if p not in self.sides]
        self.colours = side_colours(self.sides + powers)

        self.map = MapView(game.state.board)
        self.layer: MapLayer | None = None
        self.overlay = pyglet.graphics.Batch()
        self._overlay_items: list[Any] = []
        self.panel = pyglet.graphics.Batch()
        self._panel_items: list[Any] = []
        self.top = pyglet.graphics.Batch()       # tooltip and game-over banner
        self._top_items: list[Any] = []

        self.hovered: str | None = None
        self.selected: str | None = None
        self.hover_text = ""
        self.refusal = ""
        self.cursor = 0
        self.scroll = 0
        self.hover_row: int | None = None
        self.option_rows: list[tuple[int, Action, tuple[float, float, float, float]]] = []
        self.rows_fit = 10
        self.undo_rect: tuple[float, float, float, float] = (0, 0, 0, 0)
        self.banner_rect: tuple[float, float, float, float] | None = None
        self.narration: list[str] = []
        self.refusal_label: pyglet.text.Label | None = None
        self.status_label: pyglet.text.Label | None = None
        self._seen = 0
        self._press: tuple[int, int, bool] | None = None
        self._dragged = False
        self._mouse = (0, 0)
        self._computer_pending = False
        self._computer_stopped = False
        self._saved_end = False
        self._map_dirty = True

        self._narrate()
        self.map.fit(self.map_area())
        self.refresh()
        self._schedule_computer()

    # -- layout ------------------------------------------------------------------------------
    @property
    def panel_x(self) -> int:
        return max(self.width - PANEL_WIDTH, self.width // 2)

    def map_area(self) -> tuple[int, int, int, int]:
        return 0, 0, self.panel_x, self.height

    def in_map(self, x: float, y: float) -> bool:
        return 0 <= x < self.panel_x and 0 <= y < self.height

    # -- what the engine says ------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        return None if self.game.over else self.game.decision

    def seat(self) -> str | None:
        d = self.decision
        return seats.seat_of(self.game.ruleset, d.player) if d else None

    def computer_turn(self) -> bool:
        seat = self.seat()
        return seat is not None and seat in self.computer

    def human_turn(self) -> bool:
        return self.decision is not None and not self.computer_turn()

    def visible_options(self) -> list[Action]:
        """The current options, narrowed to the selected hex when one is selected."""
        d = self.decision
        if d is None:
            return []
        if self.selected is None:
            return list(d.options)
        here = frozenset(p.id for p in self.game.state.pieces_at(self.selected))
        return [a for a in d.options if mentions(a, self.selected, here)]

    def side_colour(self, side: str) -> tuple[int, int, int]:
        return self.colours[side]

    # -- acting ----------------------------------------------------------------------------------
    def choose(self, action: Action) -> bool:
        """Send a person's action. False (and the reason shown) if refused, or if it is not a
        person's turn."""
        if self.game.over:
            self.refusal = "the game is over"
            self.refresh(map_changed=False)
            return False
        if self.computer_turn():
            self.refusal = f"it is the computer's turn ({self.seat()})"
            self.refresh(map_changed=False)
            return False
        try:
            self.game.play(action)
        except IllegalAction as e:
            self.refusal = e.reason
            self.refresh(map_changed=False)
            return False
        self.refusal = ""
        self._after_action(human=True)
        return True

    def choose_row(self, index: int) -> bool:
        """Play the `index`-th (0-based) visible option."""
        options = self.visible_options()
        if not 0 <= index < len(options):
            return False
        return self.choose(options[index])

    def undo(self) -> bool:
        if not (self.game.can_undo() and self.human_turn()):
            return False
        try:
            self.game.undo()
        except IllegalAction as e:
            self.refusal = e.reason
            self.refresh(map_changed=False)
            return False
        self.refusal = ""
        self._narrate(rebuild=True)
        self.narration.append("(undone)")
        self._save()
        self.refresh()
        return True

    def step_computer(self) -> bool:
        """Let the computer play the current decision, if it is a computer's. True if it did."""
        if not self.computer_turn() or self._computer_stopped:
            return False
        d = self.decision
        assert d is not None
        player = self.computer[self.seat()]  # type: ignore[index]
        action = player.choose(self.game.ruleset, self.game.state, d)
        try:
            self.game.play(action)
        except IllegalAction as e:
            self._computer_stopped = True
            name = getattr(player, "name", "computer")
            self.refusal = f"computer player `{name}` chose a refused action ({action}): {e.reason}"
            self.refresh(map_changed=False)
            return False
        self._after_action(human=False)
        return True

    def select_space(self, sid: str | None) -> None:
        """Select a hex (filtering the options to it), or clear the selection with None or by
        selecting the selected hex again."""
        self.selected = None if sid is None or sid == self.selected else sid
        self.cursor = 0
        self.scroll = 0
        self.refresh(map_changed=False)

    def _after_action(self, human: bool) -> None:
        self._narrate()
        if self.selected is not None and not self.visible_options():
            self.selected = None
        self.cursor = min(self.cursor, max(0, len(self.visible_options()) - 1))
        if self.game.over:
            if not self._saved_end:
                self._save()
                self._saved_end = True
        elif human:
            self._save()
        self.refresh()
        self._schedule_computer()

    def _save(self) -> None:
        if self.saver is None:
            return
        try:
            self.saver(self.game)
        except OSError as e:
            self.refusal = f"could not save: {e}"

    def _schedule_computer(self) -> None:
        if self.autoplay and not self._computer_pending and self.computer_turn() and not self._computer_stopped:
            self._computer_pending = True
            pyglet.clock.schedule_once(self._computer_tick, self.computer_delay)

    def _computer_tick(self, dt: float) -> None:
        self._computer_pending = False
        try:
            self.step_computer()
        except Exception as e:  # noqa: BLE001 - show it rather than kill the event loop
            self._computer_stopped = True
            self.refusal = f"the computer player failed: {type(e).__name__}: {e}"
            self.refresh(map_changed=False)

    def _narrate(self, rebuild: bool = False) -> None:
        log = self.game.log
        if rebuild or self._seen > len(log):
            self.narration, self._seen = [], 0
        for event in log[self._seen:]:
            text = self.logic.narrate(event)
            if text:
                self.narration.append(text)
        self._seen = len(log)
        del self.narration[:-200]

    # -- drawing ---------------------------------------------------------------------------------
    def refresh(self, map_changed: bool = True) -> None:
        """Rebuild what is shown from the game (call after changing it from outside)."""
        if map_changed:
            self._map_dirty = True
        if self.hovered is not None:
            self.hover_text = self.logic.describe_space(self.game.state, self.hovered)
        self._build_overlay()
        self._build_panel()
        self._build_top()

    def _build_map(self) -> None:
        self.layer = self.map.build(self.game.state, self.colours, self.sides)
        self._map_dirty = False

    def _build_overlay(self) -> None:
        self.overlay = pyglet.graphics.Batch()
        items: list[Any] = []
        size = self.map.size
        options = self.visible_options()
        row = self.hover_row if self.hover_row is not None else (self.cursor if options else None)
        if row is not None and 0 <= row < len(options):
            for sid in mentioned_spaces(options[row], self.game.state, self.map.hexes):
                items.append(self.map.outline(sid, MENTIONED, max(2.0, size * 0.07), self.overlay, 0.86))
        if self.hovered is not None and self.hovered != self.selected:
            items.append(self.map.outline(self.hovered, HOVER, max(1.5, size * 0.05), self.overlay, 0.95))
        if self.selected is not None and self.selected in self.map.hexes:
            items.append(self.map.outline(self.selected, SELECTED, max(2.5, size * 0.1), self.overlay, 0.93))
        self._overlay_items = items

    def _label(self, text: str, x: float, y: float, *, size: float = 10, color: tuple[int, int, int, int] = TEXT,
               bold: bool = False, width: int | None = None, anchor_y: str = "top", anchor_x: str = "left",
               batch: pyglet.graphics.Batch | None = None, group: pyglet.graphics.Group | None = None,
               items: list[Any] | None = None) -> pyglet.text.Label:
        label = pyglet.text.Label(text, x=round(x), y=round(y), width=width, multiline=width is not None,
                                  anchor_x=anchor_x, anchor_y=anchor_y, font_name=FONT, font_size=size,
                                  weight="bold" if bold else "normal", color=color,
                                  batch=batch or self.panel, group=group)
        (self._panel_items if items is None else items).append(label)
        return label

    def _fit_text(self, text: str, width: float, **kw: Any) -> pyglet.text.Label:
        """A one-line label shortened with an ellipsis to fit `width` pixels."""
        label = self._label(text, **kw)
        while label.content_width > width and len(label.text) > 4:
            keep = max(3, int(len(label.text) * width / label.content_width) - 2)
            label.text = label.text[:keep].rstrip() + "…"
        return label

    def _build_panel(self) -> None:
        self.panel = pyglet.graphics.Batch()
        self._panel_items = []
        bg, fg = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        x0 = self.panel_x
        w = self.width - x0
        inner = w - 2 * PAD
        items = self._panel_items
        items.append(shapes.Rectangle(x0, 0, w, self.height, color=PANEL_BG, batch=self.panel, group=bg))
        items.append(shapes.Rectangle(x0, 0, 2, self.height, color=PANEL_EDGE, batch=self.panel, group=bg))
        lx = x0 + PAD
        game = self.game
        info = game.ruleset.info

        # top: title, fidelity, status, score, the question
        y = self.height - PAD
        scenario = info.scenario(game.scenario)
        title = self._label(info.title, lx, y, size=12.5, bold=True, width=inner, group=fg)
        y -= title.content_height + 2
        sub = self._label(f"Scenario: {scenario.title}", lx, y, size=9.5, color=DIM, width=inner, group=fg)
        y -= sub.content_height + 2
        if scenario.fidelity != "exact":
            note = self._label("Map: approximate" + (f" ({scenario.fidelity})" if scenario.fidelity != "approximate" else "")
                               + " — a designer's approximation, not the printed board",
                               lx, y, size=9, color=WARN, width=inner, group=fg)
            y -= note.content_height + 2
        y -= 6
        self.status_label = self._label(game.status(), lx, y, size=10.5, width=inner, group=fg)
        y -= self.status_label.content_height + 3
        score = self._score_line()
        if score:
            sl = self._label(score, lx, y, size=10, color=DIM, width=inner, group=fg)
            y -= sl.content_height + 3
        y -= 6
        items.append(shapes.Rectangle(lx, y, inner, 1, color=PANEL_EDGE, batch=self.panel, group=bg))
        y -= 8

        # bottom, upwards: help, log, refusal, undo
        yb = PAD
        helpl = self._label(HELP, lx, yb, size=8, color=DIM, width=inner, anchor_y="bottom", group=fg)
        yb += helpl.content_height + 8
        log_top = self._build_log(lx, yb, inner, fg)
        yb = log_top + 4
        items.append(shapes.Rectangle(lx, yb, inner, 1, color=PANEL_EDGE, batch=self.panel, group=bg))
        yb += 8
        self.refusal_label = None
        if self.refusal:
            self.refusal_label = self._label(f"Refused: {self.refusal}", lx, yb, size=10, color=REFUSED,
                                             bold=True, width=inner, anchor_y="bottom", group=fg)
            yb += self.refusal_label.content_height + 6
        can_undo = self.game.can_undo() and self.human_turn()
        bw, bh = 96, 26
        self.undo_rect = (lx, yb, bw, bh)
        items += framed(lx, yb, bw, bh, 1, BUTTON if can_undo else BUTTON_OFF,
                        (120, 130, 150) if can_undo else (70, 72, 78), self.panel, bg)
        self._label("Undo (U)", lx + bw / 2, yb + bh / 2, size=10, bold=True, anchor_x="center",
                    anchor_y="center", color=TEXT if can_undo else DIM, group=fg)
        if self.selected is not None:
            self._fit_text(f"Hex {self.selected} selected — Esc or click it again to clear", inner - bw - 12,
                           x=lx + bw + 12, y=yb + bh / 2, size=9, color=ACCENT, anchor_y="center", group=fg)
        yb += bh + 10

        if game.over:
            self.option_rows = []
            self._build_result(lx, y, inner, fg)
            return
        self._build_options(lx, y, inner, yb, bg, fg)

    def _score_line(self) -> str:
        by_owner: dict[str, list[str]] = {}
        for (owner, name), value in sorted(self.game.state.resources.items()):
            by_owner.setdefault(owner, []).append(f"{name} {value}")
        if not by_owner:
            return ""
        order = sorted(by_owner, key=lambda o: self.sides.index(o) if o in self.sides else len(self.sides))
        return "   ".join(f"{o}: {', '.join(by_owner[o])}" for o in order)

    def _build_log(self, lx: float, y: float, inner: int, fg: pyglet.graphics.Group) -> float:
        """The last narrated events, newest at the bottom; returns the top of the block."""
        lines = self.narration[-LOG_LINES:]
        budget = max(90, min(LOG_LINES * 16, int(self.height * 0.28)))
        top = y
        stack: list[pyglet.text.Label] = []
        for i, text in enumerate(reversed(lines)):
            colour = TEXT if i == 0 else DIM
            label = self._label(text, lx, top, size=9, color=colour, width=inner, anchor_y="bottom", group=fg)
            if top + label.content_height - y > budget:
                label.delete()
                self._panel_items.remove(label)
                break
            stack.append(label)
            top += label.content_height + 1
        head = self._label("Recent events", lx, top + 4, size=9, bold=True, color=DIM, anchor_y="bottom", group=fg)
        return top + 4 + head.content_height

    def _build_result(self, lx: float, y: float, inner: int, fg: pyglet.graphics.Group) -> None:
        head = self._label("Game over", lx, y, size=18, bold=True, color=ACCENT, group=fg)
        y -= head.content_height + 6
        self._label(result_text(self.game), lx, y, size=12, width=inner, group=fg)

    def _build_options(self, lx: float, y: float, inner: int, bottom: float, bg: pyglet.graphics.Group,
                       fg: pyglet.graphics.Group) -> None:
        d = self.decision
        assert d is not None
        seat = self.seat()
        who = self._label(f"{d.player}" + (" (computer)" if self.computer_turn() else ""), lx, y, size=12,
                          bold=True, color=self._side_ink(seat), group=fg)
        y -= who.content_height + 2
        prompt = self._label(d.prompt, lx, y, size=10.5, width=inner, group=fg)
        y -= prompt.content_height + 4
        options = self.visible_options()
        if self.selected is not None:
            note = f"{len(options)} of {len(d.options)} options name hex {self.selected}"
        elif self.computer_turn():
            note = "the computer is choosing…" + ("" if self.autoplay else " (waiting)")
        else:
            note = f"{len(d.options)} option{'s' if len(d.options) != 1 else ''}"
        nl = self._label(note, lx, y, size=9, color=ACCENT if self.selected else DIM, group=fg)
        y -= nl.content_height + 6

        rows_fit = max(1, int((y - bottom) // ROW_H))
        self.cursor = min(max(self.cursor, 0), max(0, len(options) - 1))
        if self.cursor < self.scroll:
            self.scroll = self.cursor
        if self.cursor >= self.scroll + rows_fit:
            self.scroll = self.cursor - rows_fit + 1
        self.scroll = min(max(0, self.scroll), max(0, len(options) - rows_fit))
        self.rows_fit = rows_fit
        self.option_rows = []
        enabled = self.human_turn()
        shown = options[self.scroll:self.scroll + rows_fit]
        scrollbar = len(options) > rows_fit
        row_w = inner - (10 if scrollbar else 0)
        for i, action in enumerate(shown):
            index = self.scroll + i
            ry = y - (i + 1) * ROW_H
            if index == self.hover_row and enabled:
                colour = ROW_HOVER
            elif index == self.cursor and enabled:
                colour = ROW_CURSOR
            else:
                colour = ROW_BG if index % 2 == 0 else ROW_ALT
            self._panel_items.append(shapes.Rectangle(lx, ry + 1, row_w, ROW_H - 2, color=colour,
                                                      batch=self.panel, group=bg))
            number = f"{index + 1}."
            self._label(number, lx + 30, ry + ROW_H / 2, size=9.5, color=DIM, anchor_x="right",
                        anchor_y="center", group=fg)
            self._fit_text(action.label or str(action), row_w - 40, x=lx + 36, y=ry + ROW_H / 2, size=10,
                           color=TEXT if enabled else DIM, anchor_y="center", group=fg)
            self.option_rows.append((index, action, (lx, ry, row_w, ROW_H)))
        if not options:
            self._label("(no option names this hex)" if self.selected else "(no options)", lx + 8, y - 6,
                        size=10, color=DIM, group=fg)
        if scrollbar:
            track_h = rows_fit * ROW_H
            knob_h = max(16, track_h * rows_fit / len(options))
            knob_y = y - track_h + (track_h - knob_h) * (1 - self.scroll / max(1, len(options) - rows_fit))
            self._panel_items.append(shapes.Rectangle(lx + inner - 6, y - track_h, 6, track_h, color=ROW_ALT,
                                                      batch=self.panel, group=bg))
            self._panel_items.append(shapes.Rectangle(lx + inner - 6, knob_y, 6, knob_h, color=(110, 116, 128),
                                                      batch=self.panel, group=fg))

    def _side_ink(self, side: str | None) -> tuple[int, int, int, int]:
        if side is None or side not in self.colours:
            return TEXT
        r, g, b = self.colours[side]
        # lighten for the dark panel
        return (min(255, r + 60), min(255, g + 60), min(255, b + 60), 255)

    def _build_top(self) -> None:
        self.top = pyglet.graphics.Batch()
        items: list[Any] = []
        self._top_items = items
        area_x, _, area_w, area_h = self.map_area()
        self.banner_rect = None
        if self.game.over:
            bw = min(area_w - 40, 640)
            bx = area_x + (area_w - bw) / 2
            winner = self.game.result.winner if self.game.result else None
            big = pyglet.text.Label(f"{winner} wins" if winner else "Draw", x=round(bx + bw / 2), y=0,
                                    anchor_x="center", anchor_y="top", font_name=FONT, font_size=26, weight="bold",
                                    color=ACCENT, batch=self.top, group=pyglet.graphics.Group(order=1))
            small = pyglet.text.Label(self._result_detail(), x=round(bx + 16), y=0, width=round(bw - 32),
                                      multiline=True, align="center", anchor_y="top", font_name=FONT, font_size=13,
                                      color=TEXT, batch=self.top, group=pyglet.graphics.Group(order=1))
            bh = big.content_height + small.content_height + 44
            by = area_h / 2 - bh / 2
            big.y = round(by + bh - 16)
            small.y = round(big.y - big.content_height - 8)
            self.banner_rect = (bx, by, bw, bh)
            items += framed(bx, by, bw, bh, 3, (20, 22, 26), ACCENT[:3], self.top)
            items += [big, small]
        if self.hover_text and self.hovered is not None:
            mx, my = self._mouse
            label = pyglet.text.Label(self.hover_text, x=0, y=0, width=340, multiline=True, anchor_y="top",
                                      font_name=FONT, font_size=9.5, color=TEXT, batch=self.top,
                                      group=pyglet.graphics.Group(order=3))
            tw = min(340, label.content_width + 4) + 16
            label.width = tw - 16
            th = label.content_height + 12
            tx = min(mx + 18, self.panel_x - tw - 4)
            ty = my - 18
            if ty - th < 4:
                ty = my + th + 18
            ty = min(ty, self.height - 4)
            label.x, label.y = round(tx + 8), round(ty - 6)
            items += framed(tx, ty - th, tw, th, 1, (16, 18, 22), (140, 146, 160), self.top,
                            pyglet.graphics.Group(order=2))
            items.append(label)

    def _result_detail(self) -> str:
        r = self.game.result
        if r is None:
            return ""
        score = ", ".join(f"{k} {v}" for k, v in r.score.items())
        return r.reason + (f"  ·  {score}" if score else "")

    def on_draw(self) -> None:
        if self._map_dirty or self.layer is None or not self.layer.covers(self.map):
            self._build_map()
        pyglet.gl.glClearColor(BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255, 1.0)
        self.clear()
        ox, oy = self.map.offset
        self.view = Mat4.from_translation(Vec3(ox, oy, 0))
        assert self.layer is not None
        self.layer.draw()
        self.overlay.draw()
        self.view = Mat4()
        self.panel.draw()
        self.top.draw()

    # -- input -----------------------------------------------------------------------------------
    def row_at(self, x: float, y: float) -> int | None:
        for index, _, (rx, ry, rw, rh) in self.option_rows:
            if rx <= x < rx + rw and ry <= y < ry + rh:
                return index
        return None

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self._mouse = (x, y)
        hovered = self.map.space_at(x, y) if self.in_map(x, y) else None
        row = self.row_at(x, y)
        hex_changed, row_changed = hovered != self.hovered, row != self.hover_row
        if hex_changed:
            self.hover_text = self.logic.describe_space(self.game.state, hovered) if hovered else ""
        self.hovered, self.hover_row = hovered, row
        if hex_changed or row_changed:
            self._build_overlay()
        if row_changed:
            self._build_panel()
        if hovered is not None or hex_changed:
            self._build_top()

    def on_mouse_leave(self, x: int, y: int) -> None:
        self.hovered, self.hover_row, self.hover_text = None, None, ""
        self.refresh(map_changed=False)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self._mouse = (x, y)
        if self.in_map(x, y):
            self._press = (x, y, button == mouse.LEFT)
            self._dragged = False
            return
        self._press = None
        if button != mouse.LEFT:
            return
        ux, uy, uw, uh = self.undo_rect
        if ux <= x < ux + uw and uy <= y < uy + uh:
            self.undo()
            return
        row = self.row_at(x, y)
        if row is not None and self.human_turn():
            self.cursor = row
            self.choose_row(row)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self._mouse = (x, y)
        if self._press is None:
            return
        px, py, _ = self._press
        if self._dragged or abs(x - px) + abs(y - py) > 4:
            if not self._dragged:
                dx, dy = x - px, y - py
            self._dragged = True
            self.map.pan(dx, dy)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        press, self._press = self._press, None
        if press is None or self._dragged:
            self._dragged = False
            return
        if button == mouse.RIGHT:
            self.select_space(None)
        elif button == mouse.LEFT:
            sid = self.map.space_at(x, y)
            self.select_space(sid if sid is not None else None)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        if self.in_map(x, y):
            if self.map.zoom(1.15 ** scroll_y, (x, y)):
                self.refresh()
        elif scroll_y:
            self.scroll = max(0, self.scroll - int(round(scroll_y * 3)))
            rows = self.rows_fit
            self.cursor = min(max(self.cursor, self.scroll), self.scroll + rows - 1)
            self._build_panel()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        shift = modifiers & key.MOD_SHIFT
        step = 60
        if symbol == key.ESCAPE:
            if self.selected is not None:
                self.select_space(None)
            return True                   # never close the window on Escape
        if symbol == key.Q and modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            self.dispatch_event("on_close")
            return True
        if symbol in (key.LEFT, key.RIGHT) or (shift and symbol in (key.UP, key.DOWN)):
            dx = {key.LEFT: step, key.RIGHT: -step}.get(symbol, 0)
            dy = {key.UP: -step, key.DOWN: step}.get(symbol, 0)
            self.map.pan(dx, dy)
            return True
        n = len(self.visible_options())
        if symbol in (key.UP, key.DOWN, key.PAGEUP, key.PAGEDOWN):
            rows = self.rows_fit
            delta = {key.UP: -1, key.DOWN: 1, key.PAGEUP: -rows, key.PAGEDOWN: rows}[symbol]
            self.cursor = min(max(0, self.cursor + delta), max(0, n - 1))
            self.hover_row = None
            self.refresh(map_changed=False)
            return True
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER):
            if self.human_turn():
                self.choose_row(self.cursor)
            return True
        digits = {getattr(key, f"_{i}"): i for i in range(1, 10)}
        digits.update({getattr(key, f"NUM_{i}"): i for i in range(1, 10)})
        if symbol in digits:
            if self.human_turn():
                self.cursor = digits[symbol] - 1
                self.choose_row(digits[symbol] - 1)
            return True
        if symbol in (key.U, key.BACKSPACE) or (symbol == key.Z and modifiers & (key.MOD_CTRL | key.MOD_COMMAND)):
            self.undo()
            return True
        if symbol in (key.PLUS, key.EQUAL, key.NUM_ADD, key.MINUS, key.NUM_SUBTRACT):
            ax, ay, aw, ah = self.map_area()
            factor = 1.2 if symbol in (key.PLUS, key.EQUAL, key.NUM_ADD) else 1 / 1.2
            if self.map.zoom(factor, (ax + aw / 2, ay + ah / 2)):
                self.refresh()
            return True
        if symbol == key.HOME:
            self.map.fit(self.map_area())
            self.refresh()
            return True
        return False

    def on_resize(self, width: int, height: int) -> None:
        if not hasattr(self, "game"):      # during pyglet's own __init__
            return
        self.map.fit(self.map_area())
        self.refresh()

    def on_close(self) -> None:
        if not self._saved_end:
            self._save()
        self.close()

    def close(self) -> None:
        pyglet.clock.unschedule(self._computer_tick)
        self._computer_pending = False
        super().close()


def run_computer(window: GameWindow, limit: int = 100_000) -> int:
    """Play computer decisions until a person must decide or the game ends; how many were
    played. (For tests and demos: under the event loop the window does this by itself.)"""
    n = 0
    while n < limit and window.step_computer():
        n += 1
    return n
