"""Playing in a window (pyglet): the hex map on the left, the game on the right.

The right-hand panel shows where the game stands, the question the engine asks and its
options as rows to click (or keys: up/down and Enter, 1-9), the button that ends the step,
an Undo button, the last events and why an action was refused. Clicking a hex narrows the
options to those that name it. Computer players move by themselves, one action per clock
tick, so that a person can follow and the window stays responsive.

The window draws only when something changed (`invalidate`): an idle window costs nothing.

The window only shows what the engine says and sends it Actions: no rules live here.

`GameWindow` draws and reacts without `pyglet.app.run()` (tests dispatch its events
directly); `play_window` runs the event loop for a person; `save_screenshot` draws one
picture and returns.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("PYGLET_HEADLESS", "1")     # no X server: draw off-screen with EGL

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
    build_legend,
    framed,
    side_colours,
    unit_looks,
)
from engine.actions import Action, Decision, IllegalAction
from engine.game import Game

Saver = Callable[[Game], None]

PANEL_WIDTH = 440
PAD = 12
ROW_H = 24
LOG_LINES = 12
COMPUTER_DELAY = 0.25

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
FINISH = (112, 84, 20)

HELP = ("Up/Down Enter or 1-9: choose · E: end the step · U: undo · click hex: filter · Esc: clear · "
        "drag/Shift+arrows: pan · wheel/+/-: zoom · Home: fit · H: hex ids · L: legend · F: fast computer"
        " · Ctrl+S: save")


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
    run_event_loop()
    return 0


def run_event_loop() -> None:
    """pyglet's event loop with no redraw timer: windows draw when they are invalidated."""
    pyglet.app.run(None)


def save_screenshot(game: Game, computer: dict[str, Any] | None, path: str | Path, width: int = 1400,
                    height: int = 880) -> int:
    """Draw the game as it stands (the opening position of a new game) into a PNG at `path`."""
    config = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, double_buffer=True)
    try:
        window = GameWindow(game, computer, None, width=width, height=height, visible=False, config=config,
                            autoplay=False)
    except pyglet.window.NoSuchConfigException:
        window = GameWindow(game, computer, None, width=width, height=height, visible=False, autoplay=False)
    try:
        window.render_to_png(path)
    finally:
        window.close()
    print(f"wrote {path}")
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
    holding one), or the space of a piece whose id an argument holds."""
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


#: argument names whose whole numbers are amounts, never pieces
_AMOUNTS = frozenset(("n", "count", "amount", "number", "dice", "hits", "value", "cost", "vp", "turn", "index"))


def _is_piece_ref(name: str, value: Any) -> bool:
    """Whether an argument's value may be a piece id: a whole number not named as an amount
    (the caller checks that such a piece exists)."""
    return isinstance(value, int) and not isinstance(value, bool) and name.lower() not in _AMOUNTS


def mentions(action: Action, space: str, pieces_here: frozenset[int] = frozenset()) -> bool:
    """Whether an action names `space` in its arguments, or the id of a piece standing there
    (`pieces_here`)."""
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
        self._ready = False
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
        units = getattr(game.ruleset.rules, "units", None)
        self.units: dict[str, Any] = dict(units) if isinstance(units, dict) else {}
        self.looks = unit_looks([p.kind for p in game.state.pieces.values()], self.units)

        self.map = MapView(game.state.board)
        self.layer: MapLayer | None = None
        self.show_ids = False
        self.show_legend = True
        self.overlay = pyglet.graphics.Batch()
        self._overlay_items: list[Any] = []
        self.panel = pyglet.graphics.Batch()
        self._panel_items: list[Any] = []
        self.top = pyglet.graphics.Batch()       # tooltip and game-over banner
        self._top_items: list[Any] = []
        self.legend = pyglet.graphics.Batch()
        self._legend_items: list[Any] = []
        self.legend_rect: tuple[float, float, float, float] | None = None

        self.hovered: str | None = None
        self.selected: str | None = None
        self.hover_text = ""
        self.refusal = ""
        self.notice = ""
        self.cursor = 0
        self.scroll = 0
        self.hover_row: int | None = None
        self.option_rows: list[tuple[int, Action, tuple[float, float, float, float]]] = []
        self._row_shapes: dict[int, shapes.Rectangle] = {}
        self.rows_fit = 10
        self.undo_rect: tuple[float, float, float, float] = (0, 0, 0, 0)
        self.finish_rect: tuple[float, float, float, float] | None = None
        self.banner_rect: tuple[float, float, float, float] | None = None
        self.narration: list[str] = []
        self.refusal_label: pyglet.text.Label | None = None
        self.status_label: pyglet.text.Label | None = None
        self.finish_label: pyglet.text.Label | None = None
        self._heights: dict[tuple[str, int], int] = {}
        self._seen = 0
        self._press: tuple[int, int, bool] | None = None
        self._dragged = False
        self._mouse = (0, 0)
        self._computer_pending = False
        self._computer_stopped = False
        self._saved_end = False
        self._map_dirty = True
        self._draw_pending = False
        self._closed = False
        self.frames = 0                          # how many times the window was drawn

        self._ready = True
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

    def mine(self, player: str) -> bool:
        """Whether a person (not a computer player) answers for `player`."""
        return seats.seat_of(self.game.ruleset, player) not in self.computer

    def can_undo(self) -> bool:
        return not self.game.over and self.game.can_undo(self.mine)

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
        self.notice = ""
        self._after_action(human=True)
        return True

    def choose_row(self, index: int) -> bool:
        """Play the `index`-th (0-based) visible option."""
        options = self.visible_options()
        if not 0 <= index < len(options):
            return False
        return self.choose(options[index])

    def finish(self) -> bool:
        """Play the option that ends the step (the decision's `finish`), if there is one."""
        d = self.decision
        if d is None or d.finish is None or not self.human_turn():
            return False
        return self.choose(d.finish)

    def undo(self) -> bool:
        """Take back the person's last action of this step and the computer's answers to it.
        The decision is then the person's own again; a computer seat to move moves again."""
        if not self.can_undo():
            return False
        pyglet.clock.unschedule(self._computer_tick)
        self._computer_pending = False
        try:
            n = self.game.undo(self.mine)
        except IllegalAction as e:
            self.refusal = e.reason
            self.refresh(map_changed=False)
            self._schedule_computer()
            return False
        self.refusal = ""
        self._narrate(rebuild=True)
        self.notice = f"Undone: {n} action{'s' if n != 1 else ''}" + (" (yours and the computer's answers)"
                                                                        if n > 1 else "")
        self.narration.append(f"({self.notice.lower()})")
        if self.selected is not None and not self.visible_options():
            self.selected = None
        self._save()
        self.refresh()
        self._schedule_computer()
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

    def save_now(self) -> bool:
        if self.saver is None:
            self.notice = "no save file: start with --save FILE to save"
            self.refresh(map_changed=False)
            return False
        if self._save():
            self.notice = "Saved."
        self.refresh(map_changed=False)
        return True

    def _after_action(self, human: bool) -> None:
        self._narrate()
        if self.selected is not None and not self.visible_options():
            self.selected = None
        self.cursor = min(self.cursor, max(0, len(self.visible_options()) - 1))
        if self.game.over:
            if not self._saved_end:
                self._save()
                self._saved_end = True
        elif human or not self.computer_turn():
            self._save()                 # after a person's action, and when the computer hands back
        self.refresh()
        self._schedule_computer()

    def _save(self) -> bool:
        if self.saver is None:
            return False
        try:
            self.saver(self.game)
        except OSError as e:
            self.refusal = f"could not save: {e}"
            return False
        return True

    def _schedule_computer(self) -> None:
        if self.autoplay and not self._computer_pending and self.computer_turn() and not self._computer_stopped:
            self._computer_pending = True
            pyglet.clock.schedule_once(self._computer_tick, self.computer_delay)

    def _computer_tick(self, dt: float) -> None:
        self._computer_pending = False
        if self._closed:
            return
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
            if not text and event[0] == "move":
                text = self._move_text(event[1])
            if text:
                self.narration.append(text)
        self._seen = len(log)
        del self.narration[:-200]

    def _move_text(self, data: Any) -> str:
        board = self.game.state.board

        def name(sid: Any) -> str:
            if isinstance(sid, str) and sid in board:
                sp = board.space(sid)
                return f"{sp.name} ({sid})" if sp.name != sid else sid
            return str(sid)

        to = data.get("to")
        if to is None:
            return ""
        who = data.get("owner") or data.get("side") or ""
        what = data.get("kind") or "piece"
        src = data.get("src", data.get("from"))
        return f"{who} {what} moves" + (f" from {name(src)}" if src is not None else "") + f" to {name(to)}"

    # -- drawing ---------------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Something shown changed: draw once, soon (under the event loop)."""
        if self._closed or self._draw_pending:
            return
        self._draw_pending = True
        pyglet.clock.schedule_once(self._draw_now, 0)

    def _draw_now(self, dt: float) -> None:
        self._draw_pending = False
        if self._closed:
            return
        self.switch_to()
        self.on_draw()
        self.flip()

    def refresh(self, map_changed: bool = True) -> None:
        """Rebuild what is shown from the game (call after changing it from outside)."""
        if not self._ready:
            return
        if map_changed:
            self._map_dirty = True
        if self.hovered is not None:
            self.hover_text = self.logic.describe_space(self.game.state, self.hovered)
        self._build_overlay()
        self._build_panel()
        self._build_top()
        self._build_legend()
        self.invalidate()

    def _build_map(self) -> None:
        kinds = [p.kind for p in self.game.state.pieces.values() if p.kind not in self.looks]
        if kinds:
            self.looks = unit_looks(list(self.looks) + kinds, self.units)
        self.layer = self.map.build(self.game.state, self.colours, self.sides, self.looks, self.show_ids)
        self._map_dirty = False

    def _build_overlay(self) -> None:
        self.overlay = pyglet.graphics.Batch()
        items: list[Any] = []
        size = self.map.size
        options = self.visible_options()
        row = self.hover_row if self.hover_row is not None else (self.cursor if options else None)
        if row is not None and 0 <= row < len(options):
            for sid in mentioned_spaces(options[row], self.game.state, self.map.hexes):
                items.append(self.map.outline(sid, MENTIONED, max(2.0, size * 0.08), self.overlay, 0.86))
        if self.hovered is not None and self.hovered != self.selected:
            items.append(self.map.outline(self.hovered, HOVER, max(1.5, size * 0.05), self.overlay, 0.95))
        if self.selected is not None and self.selected in self.map.hexes:
            items.append(self.map.outline(self.selected, SELECTED, max(2.5, size * 0.1), self.overlay, 0.93))
        self._overlay_items = items

    def _build_legend(self) -> None:
        self.legend = pyglet.graphics.Batch()
        self._legend_items = []
        self.legend_rect = None
        if not self.show_legend:
            return
        state = self.game.state
        order = {k: i for i, k in enumerate(self.units)}
        kinds = sorted({p.kind for p in state.pieces.values() if p.space in self.map.hexes},
                       key=lambda k: (order.get(k, len(order)), k))
        owners = [s for s in self.sides if s in set(state.control.values()) | {p.owner for p in state.pieces.values()}]
        self.legend_rect = build_legend(10, 10, owners or self.sides, self.colours, self.looks, kinds, state.board,
                                        self.legend, self._legend_items)

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
        self._row_shapes = {}
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

        # bottom, upwards: help, log, refusal, undo, the finish button
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
        can_undo = self.can_undo()
        bw, bh = 96, 26
        self.undo_rect = (lx, yb, bw, bh)
        items += framed(lx, yb, bw, bh, 1, BUTTON if can_undo else BUTTON_OFF,
                        (120, 130, 150) if can_undo else (70, 72, 78), self.panel, bg)
        self._label("Undo (U)", lx + bw / 2, yb + bh / 2, size=10, bold=True, anchor_x="center",
                    anchor_y="center", color=TEXT if can_undo else DIM, group=fg)
        if self.selected is not None:
            self._fit_text(f"Hex {self.selected} selected — Esc or click it again to clear", inner - bw - 12,
                           x=lx + bw + 12, y=yb + bh / 2, size=9, color=ACCENT, anchor_y="center", group=fg)
        elif self.notice:
            self._fit_text(self.notice, inner - bw - 12, x=lx + bw + 12, y=yb + bh / 2, size=9, color=DIM,
                           anchor_y="center", group=fg)
        yb += bh + 8
        self.finish_rect, self.finish_label = None, None
        d = self.decision
        if d is not None and d.finish is not None:
            on = self.human_turn()
            text = f"End the step: {d.finish.label or d.finish}   (E)"
            label = self._label(text, lx + 10, yb + 6, size=10, bold=True, width=inner - 20, anchor_y="bottom",
                                color=TEXT if on else DIM, group=fg)
            fh = label.content_height + 12
            self.finish_rect = (lx, yb, inner, fh)
            self.finish_label = label
            items += framed(lx, yb, inner, fh, 1, FINISH if on else BUTTON_OFF,
                            (200, 160, 60) if on else (70, 72, 78), self.panel, bg)
            yb += fh + 8

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
        budget = max(90, min(LOG_LINES * 16, int(self.height * 0.24)))
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

    def _row_height(self, text: str, width: int) -> int:
        """How tall an option row is with its label wrapped to `width` (cached)."""
        key_ = (text, width)
        h = self._heights.get(key_)
        if h is None:
            label = pyglet.text.Label(text, width=width, multiline=True, font_name=FONT, font_size=10)
            h = self._heights[key_] = max(ROW_H, label.content_height + 8)
            label.delete()
        return h

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
            note = ("the computer is choosing…" if self.autoplay and not self._computer_stopped
                    else "the computer's turn (stopped)" if self._computer_stopped else "the computer's turn")
        else:
            note = f"{len(d.options)} option{'s' if len(d.options) != 1 else ''}"
        nl = self._label(note, lx, y, size=9, color=ACCENT if self.selected else DIM, group=fg)
        y -= nl.content_height + 6

        space = max(ROW_H, y - bottom)
        self.cursor = min(max(self.cursor, 0), max(0, len(options) - 1))
        scrollbar = True
        row_w = inner - 10
        text_w = int(row_w - 44)

        def fits_from(start: int) -> int:
            used, n = 0, 0
            for a in options[start:]:
                h = self._row_height(a.label or str(a), text_w)
                if used + h > space and n:
                    break
                used += h
                n += 1
            return n

        self.scroll = min(max(0, self.scroll), max(0, len(options) - 1))
        if self.cursor < self.scroll:
            self.scroll = self.cursor
        while self.scroll < self.cursor and self.scroll + fits_from(self.scroll) <= self.cursor:
            self.scroll += 1
        fit = fits_from(self.scroll)
        # no empty space at the end of a list that is scrolled
        while self.scroll > 0 and fits_from(self.scroll - 1) > fit:
            self.scroll -= 1
            fit = fits_from(self.scroll)
        self.rows_fit = max(1, fit)
        scrollbar = len(options) > fit
        if not scrollbar:
            row_w = inner
        self.option_rows = []
        enabled = self.human_turn()
        ry = y
        for index in range(self.scroll, self.scroll + fit):
            action = options[index]
            text = action.label or str(action)
            h = self._row_height(text, text_w)
            ry -= h
            rect = shapes.Rectangle(lx, ry + 1, row_w, h - 2, color=self._row_colour(index, enabled),
                                    batch=self.panel, group=bg)
            self._panel_items.append(rect)
            self._row_shapes[index] = rect
            self._label(f"{index + 1}.", lx + 30, ry + h - 6, size=9.5, color=DIM, anchor_x="right",
                        anchor_y="top", group=fg)
            colour = TEXT if enabled else DIM
            if d.finish is not None and action == d.finish:
                colour = ACCENT if enabled else DIM
            self._label(text, lx + 36, ry + h - 5, size=10, width=text_w, color=colour, anchor_y="top", group=fg)
            self.option_rows.append((index, action, (lx, ry, row_w, h)))
        if not options:
            self._label("(no option names this hex)" if self.selected else "(no options)", lx + 8, y - 6,
                        size=10, color=DIM, group=fg)
        if scrollbar and options:
            track_h = y - ry
            knob_h = max(16, track_h * fit / len(options))
            knob_y = y - knob_h - (track_h - knob_h) * self.scroll / max(1, len(options) - fit)
            self._panel_items.append(shapes.Rectangle(lx + inner - 6, ry, 6, track_h, color=ROW_ALT,
                                                      batch=self.panel, group=bg))
            self._panel_items.append(shapes.Rectangle(lx + inner - 6, knob_y, 6, knob_h, color=(110, 116, 128),
                                                      batch=self.panel, group=fg))

    def _row_colour(self, index: int, enabled: bool) -> tuple[int, int, int]:
        if index == self.hover_row and enabled:
            return ROW_HOVER
        if index == self.cursor and enabled:
            return ROW_CURSOR
        return ROW_BG if index % 2 == 0 else ROW_ALT

    def _recolour_rows(self) -> None:
        enabled = self.human_turn()
        for index, rect in self._row_shapes.items():
            rect.color = self._row_colour(index, enabled)

    def _side_ink(self, side: str | None) -> tuple[int, int, int, int]:
        if side is None or side not in self.colours:
            return TEXT
        r, g, b = self.colours[side]
        # lighten for the dark panel
        return (min(255, r + 40), min(255, g + 40), min(255, b + 40), 255)

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
            hint = pyglet.text.Label(f"{len(self.game.actions)} actions played · close the window to leave",
                                     x=round(bx + bw / 2), y=0, anchor_x="center", anchor_y="top", font_name=FONT,
                                     font_size=9.5, color=DIM, batch=self.top, group=pyglet.graphics.Group(order=1))
            bh = big.content_height + small.content_height + hint.content_height + 56
            by = area_h / 2 - bh / 2
            big.y = round(by + bh - 16)
            small.y = round(big.y - big.content_height - 8)
            hint.y = round(small.y - small.content_height - 10)
            self.banner_rect = (bx, by, bw, bh)
            items += framed(bx, by, bw, bh, 3, (20, 22, 26), ACCENT[:3], self.top)
            items += [big, small, hint]
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
        new_kinds = self._map_dirty and any(p.kind not in self.looks for p in self.game.state.pieces.values())
        if self.layer is None or not self.layer.covers(self.map) or self.layer.show_ids != self.show_ids or new_kinds:
            self._build_map()
        elif self._map_dirty:
            self.layer.update(self.game.state, self.colours)       # the same scale: colours and counters
            self._map_dirty = False
        self.frames += 1
        pyglet.gl.glClearColor(BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255, 1.0)
        self.clear()
        ox, oy = self.map.offset
        self.view = Mat4.from_translation(Vec3(ox, oy, 0))
        assert self.layer is not None
        self.layer.draw()
        self.overlay.draw()
        self.view = Mat4()
        self.legend.draw()
        self.panel.draw()
        self.top.draw()

    def render_to_png(self, path: str | Path) -> None:
        """Draw a frame into an off-screen buffer and save it as a PNG (no window needed)."""
        from pyglet.image import Framebuffer, Texture

        self.switch_to()
        texture = Texture.create(self.width, self.height)
        fbo = Framebuffer()
        fbo.attach_texture(texture)
        fbo.bind()
        try:
            self.on_draw()
        finally:
            fbo.unbind()
        texture.get_image_data().save(str(path))

    def on_expose(self) -> None:
        self.invalidate()

    def on_show(self) -> None:
        self.invalidate()

    # -- input -----------------------------------------------------------------------------------
    def row_at(self, x: float, y: float) -> int | None:
        for index, _, (rx, ry, rw, rh) in self.option_rows:
            if rx <= x < rx + rw and ry <= y < ry + rh:
                return index
        return None

    @staticmethod
    def _inside(rect: tuple[float, float, float, float] | None, x: float, y: float) -> bool:
        if rect is None:
            return False
        rx, ry, rw, rh = rect
        return rx <= x < rx + rw and ry <= y < ry + rh

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self._mouse = (x, y)
        hovered = self.map.space_at(x, y) if self.in_map(x, y) and not self._inside(self.legend_rect, x, y) else None
        row = self.row_at(x, y)
        hex_changed, row_changed = hovered != self.hovered, row != self.hover_row
        if hex_changed:
            self.hover_text = self.logic.describe_space(self.game.state, hovered) if hovered else ""
        self.hovered, self.hover_row = hovered, row
        if hex_changed or row_changed:
            self._build_overlay()
        if row_changed:
            self._recolour_rows()
        if hovered is not None or hex_changed:
            self._build_top()              # the tooltip follows the mouse
        if hex_changed or row_changed or hovered is not None:
            self.invalidate()

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
        if self._inside(self.undo_rect, x, y):
            self.undo()
            return
        if self._inside(self.finish_rect, x, y):
            self.finish()
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
            self.invalidate()

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        press, self._press = self._press, None
        if press is None or self._dragged:
            self._dragged = False
            return
        if button == mouse.RIGHT:
            self.select_space(None)
        elif button == mouse.LEFT:
            if self._inside(self.legend_rect, x, y):
                return
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
            self.invalidate()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        shift = modifiers & key.MOD_SHIFT
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        step = 60
        if symbol == key.ESCAPE:
            if self.selected is not None:
                self.select_space(None)
            return True                   # never close the window on Escape
        if symbol == key.Q and ctrl:
            self.dispatch_event("on_close")
            return True
        if symbol == key.S and ctrl:
            self.save_now()
            return True
        if symbol in (key.LEFT, key.RIGHT) or (shift and symbol in (key.UP, key.DOWN)):
            dx = {key.LEFT: step, key.RIGHT: -step}.get(symbol, 0)
            dy = {key.UP: -step, key.DOWN: step}.get(symbol, 0)
            self.map.pan(dx, dy)
            self.invalidate()
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
        if symbol in (key.U, key.BACKSPACE) or (symbol == key.Z and ctrl):
            self.undo()
            return True
        if symbol == key.E:
            self.finish()
            return True
        if symbol == key.H:
            self.show_ids = not self.show_ids
            self.refresh()
            return True
        if symbol == key.L:
            self.show_legend = not self.show_legend
            self.refresh(map_changed=False)
            return True
        if symbol == key.F:
            self.computer_delay = 0.0 if self.computer_delay else COMPUTER_DELAY
            self.notice = "the computer plays at full speed" if not self.computer_delay else "the computer plays slowly"
            self.refresh(map_changed=False)
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
        super().on_resize(width, height)
        if not getattr(self, "_ready", False):      # during pyglet's own __init__
            return
        self.map.fit(self.map_area())
        self.refresh()

    def on_close(self) -> None:
        if not self._saved_end:
            self._save()
        self.close()

    def close(self) -> None:
        self._closed = True
        pyglet.clock.unschedule(self._computer_tick)
        pyglet.clock.unschedule(self._draw_now)
        self._computer_pending = False
        self._draw_pending = False
        super().close()


def run_computer(window: GameWindow, limit: int = 100_000) -> int:
    """Play computer decisions until a person must decide or the game ends; how many were
    played. (For tests and demos: under the event loop the window does this by itself.)"""
    n = 0
    while n < limit and window.step_computer():
        n += 1
    return n
