"""Playing in a window (pyglet): the hex map on the left, the game on the right.

Click to play: clicking a stack or a counter selects it, and the spaces its options can take
it to light up; clicking a lit space plays the option that goes there (or lists the few that
do). The same two clicks attack (the attacking hex, then its target) or load a truck (the
truck, then its cargo): whatever the ruleset's options name, pieces and spaces, read from the
state (clients/clicks.py). A click on a space that is not lit says why the rules refuse the
move there. Everything else is in the right-hand panel: where the game stands, the question
the engine asks and its options as rows to click (or keys: up/down and Enter, 1-9), the
button that ends the step, Undo, the dice of the last battle and the last events. O (or the
Odds button) opens the battle calculator over the game (`clients.gui_calculator`).

Without a game the window opens on the new-game screen (ruleset, scenario, who plays which
side); Ctrl+N comes back to it and Ctrl+O loads a saved game. Computer players move by
themselves, one action per clock tick, so that a person can follow and the window stays
responsive. The window draws only when something changed (`invalidate`): an idle window
costs nothing.

The window only shows what the engine says and sends it Actions: no rules live here. The
side panel is laid out by `clients.gui_panel` (a part of the window), the map by
`clients.gui_map` and `clients.gui_world`, the tracks and charts under it by
`clients.gui_areas`.

`GameWindow` draws and reacts without `pyglet.app.run()` (tests dispatch its events
directly); `play_window` runs the event loop for a person; `save_screenshot` draws one
picture and returns.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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

from clients import game_log, gui_buy, gui_moves, gui_route_chooser, seats, words
from clients.battles import BattleLog
from clients.clicks import Pick, Reader
from clients.gui_areas import Tray
from clients.gui_calculator import CalculatorHooks
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
from clients.gui_panel import ACCENT, DIM, TEXT, Panel
from clients.gui_screens import NewGameScreen, TextPrompt
from clients.gui_world import map_view_for
from clients.launch import Launcher
from clients.textmap import space_noun
from engine import flow
from engine.actions import Action, Decision, IllegalAction
from engine.asking import space_name
from engine.game import Game
from engine.primitives import current_power

Saver = Callable[[Game], None]
Rect = tuple[float, float, float, float]

COMPUTER_DELAY = 0.25

#: the computer's last actions on the map: how many stay lit (until the person acts), and their
#: light, a colour none of the person's lights use, newest brightest, each numbered
COMPUTER_MARKS = 5
COMPUTER_LIGHT = (236, 56, 216)

#: the map's lights: where the selection can go, and where a click does something
TARGET: tuple[int, int, int, int] = (0, 190, 120, 255)
TARGET_FILL: tuple[int, int, int, int] = (40, 230, 150, 80)
SOURCE: tuple[int, int, int, int] = (255, 255, 255, 150)


def play_window(game: Game | None, computer: dict[str, Any] | None, saver: Saver | None,
                launcher: Launcher | None = None) -> int:
    """Play `game` in a window until it is closed; the computer plays the sides in `computer`.
    With no game the window opens on the new-game screen (which needs `launcher`)."""
    width, height = _window_size()
    window = None
    try:
        for config in (pyglet.gl.Config(sample_buffers=1, samples=4, double_buffer=True), None):
            try:
                window = GameWindow(game, computer, saver, launcher=launcher, width=width, height=height,
                                    resizable=True, config=config)
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
        if game is None:
            assert launcher is not None
            name = launcher.default_ruleset()
            game, computer, saver = launcher.new_game(name, None, launcher.default_computer(name))
        return play_terminal(game, computer or {}, saver)
    run_event_loop()
    return 0


def run_event_loop() -> None:
    """pyglet's event loop with no redraw timer: windows draw when they are invalidated."""
    pyglet.app.run(None)


def save_screenshot(game: Game | None, computer: dict[str, Any] | None, path: str | Path, width: int = 1400,
                    height: int = 880, launcher: Launcher | None = None) -> int:
    """Draw the game as it stands (the opening position of a new game), or the new-game
    screen when there is no game, into a PNG at `path`."""
    config = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, double_buffer=True)
    kw: dict[str, Any] = dict(launcher=launcher, width=width, height=height, visible=False, autoplay=False)
    try:
        window = GameWindow(game, computer, None, config=config, **kw)
    except pyglet.window.NoSuchConfigException:
        window = GameWindow(game, computer, None, **kw)
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


def _values(value: Any) -> Iterable[Any]:
    return value if isinstance(value, (tuple, list, frozenset, set)) else (value,)


def _is_id(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def mentioned_spaces(action: Action, state: Any, spaces: Iterable[str] | Any) -> list[str]:
    """The spaces an action's arguments name: a value equal to a space id (or a list or tuple
    holding one), or the space of a piece whose id an argument holds. Read from the state,
    never from the arguments' names."""
    out: list[str] = []
    for value in action.args.values():
        for v in _values(value):
            sid = None
            if isinstance(v, str) and v in spaces:
                sid = v
            elif _is_id(v) and v in state.pieces:
                sid = state.pieces[v].space
            if sid is not None and sid in spaces and sid not in out:
                out.append(sid)
    return out


#: events that say where the game is in its sequence, not where something happened
_SEQUENCE_EVENTS = ("_start", "_end", "_skipped")


def touched_spaces(action: Action, before: Any, events: Iterable[tuple[str, dict[str, Any]]],
                   spaces: Iterable[str] | Any) -> list[str]:
    """The spaces an action played on: those its arguments name (read against the state
    `before` it, so that a piece names the space it left), then those the events it caused
    name (where a piece went, where one was destroyed, a space that changed hands). Generic:
    any value equal to a space id counts, whatever its key."""
    out = mentioned_spaces(action, before, spaces)
    for kind, data in events:
        if kind.endswith(_SEQUENCE_EVENTS) or not isinstance(data, dict):
            continue
        for value in data.values():
            for v in _values(value):
                if isinstance(v, str) and v in spaces and v not in out:
                    out.append(v)
    return out


@dataclass(frozen=True)
class Played:
    """A computer player's action as the map shows it: its index in the game's actions, who
    played it, its words and the spaces it played on; `answered` when a question the rules
    asked on its way (where the unit it picked goes) is joined to it already."""

    index: int
    player: str
    label: str
    spaces: tuple[str, ...]
    answered: bool = False


def mentions(action: Action, space: str, pieces_here: frozenset[int] = frozenset()) -> bool:
    """Whether an action names `space` in its arguments, or the id of a piece standing there
    (`pieces_here`)."""
    for value in action.args.values():
        for v in _values(value):
            if v == space or (_is_id(v) and v in pieces_here):
                return True
    return False



class _Clickable:
    """The spaces a click can take: the map's hexes and the tray's areas."""

    __slots__ = ("hexes", "areas")

    def __init__(self, hexes: Any, areas: Any) -> None:
        self.hexes, self.areas = hexes, areas

    def __contains__(self, sid: object) -> bool:
        return sid in self.hexes or sid in self.areas


class GameWindow(Panel, CalculatorHooks, pyglet.window.Window):
    """A game in a window. Everything it does is reachable without the event loop: draw with
    ``dispatch_event('on_draw')``, act with `choose`, `click_space`, `select_space`, `undo`,
    `step_computer`. With `game=None` it opens on the new-game screen (`launcher` says what
    can be played)."""

    def __init__(self, game: Game | None, computer: dict[str, Any] | None = None, saver: Saver | None = None,
                 *, launcher: Launcher | None = None, autoplay: bool = True, computer_delay: float = COMPUTER_DELAY,
                 **kwargs: Any) -> None:
        kwargs.setdefault("width", 1280)
        kwargs.setdefault("height", 800)
        kwargs.setdefault("caption", self._title_of(game))
        self._ready = False
        super().__init__(**kwargs)
        self.launcher = launcher
        self.autoplay = autoplay
        self.computer_delay = computer_delay
        self.show_ids = False
        self.show_legend = True
        self.show_tray = True                    # the tracks and off-board areas under the map
        self.overlay = pyglet.graphics.Batch()
        self._overlay_items: list[Any] = []
        self.panel = pyglet.graphics.Batch()
        self._panel_items: list[Any] = []
        #: the panel's labels by what they show, this build's and the last one's (to reuse)
        self._labels: dict[Any, list[pyglet.text.Label]] = {}
        self._spare_labels: dict[Any, list[pyglet.text.Label]] = {}
        self._pooled: set[int] = set()
        self._legend_key: Any = None
        self.chart_batch = pyglet.graphics.Batch()        # a world map's turn chart, in the panel
        self._chart_items: list[Any] = []
        self._chart_key: Any = None
        self._chart_bottom = 0.0
        self.top = pyglet.graphics.Batch()       # tooltip and game-over banner
        self._top_items: list[Any] = []
        self.legend = pyglet.graphics.Batch()
        self._legend_items: list[Any] = []
        self.legend_rect: Rect | None = None
        self.menu: NewGameScreen | None = None
        self.prompt: TextPrompt | None = None
        self._heights: dict[tuple[str, int], tuple[int, str]] = {}
        self._press: tuple[int, int, bool] | None = None
        self._dragged = False
        self._mouse = (0, 0)
        self._computer_pending = False
        self._draw_pending = False
        self._closed = False
        self.frames = 0                          # how many times the window was drawn
        self.game: Game = None  # type: ignore[assignment]  # set by set_game, None on the new-game screen
        self._ready = True
        if game is not None:
            self.set_game(game, computer, saver)
        else:
            self.open_new_game()

    @staticmethod
    def _title_of(game: Game | None) -> str:
        return f"{game.ruleset.info.title} — {game.scenario}" if game is not None else "wargame — new game"

    def set_game(self, game: Game, computer: dict[str, Any] | None = None, saver: Saver | None = None) -> None:
        """Show and play `game` (the one shown before, if any, is left as it is)."""
        pyglet.clock.unschedule(self._computer_tick)
        self._computer_pending = False
        self.stop_calculators()
        self.calc = None
        self.game = game
        self.computer = dict(computer or {})
        self.saver = saver
        self.logic = game.ruleset.logic
        self.words = words.for_ruleset(game.ruleset)      # unit names as players read them
        self.sides = seats.sides(game.ruleset)
        powers = [p for p in game.ruleset.structure.powers if p not in self.sides]
        self.colours = side_colours(self.sides + powers)
        units = getattr(game.ruleset.rules, "units", None)
        self.units: dict[str, Any] = dict(units) if isinstance(units, dict) else {}
        self.looks = unit_looks([p.kind for p in game.state.pieces.values()], self.units)
        self.map: MapView | Any = map_view_for(game.state.board, self.colours)   # hexes, or a world map
        self.layer: MapLayer | None = None
        self.tray = Tray()                        # under the map: the tracks and the off-board areas
        try:
            self.areas: dict[str, str] = dict(self.logic.areas(game.scenario))
        except Exception:  # noqa: BLE001 - a scenario file that cannot be read again: its pieces still show
            self.areas = {}

        self.hovered: str | None = None
        self.hover_text = ""
        self.row_tip = ""
        self.refusal = ""
        self.notice = ""
        self.why = ""                             # why the clicked move is not offered
        self.cursor = 0
        self.scroll = 0
        self.hover_row: int | None = None
        self.option_rows: list[tuple[int, Action, Rect]] = []
        self._row_shapes: dict[int, shapes.Rectangle] = {}
        self._row_full: dict[int, str] = {}       # rows whose label was cut: their whole label
        self.rows_fit = 10
        self.undo_rect: Rect | None = (0, 0, 0, 0)
        self.finish_rect: Rect | None = None
        self.banner_rect: Rect | None = None
        self.battle_rect: Rect | None = None
        self.narration: list[str] = []
        self.battles = BattleLog(self.logic.narrate)
        self.refusal_label: pyglet.text.Label | None = None
        self.why_label: pyglet.text.Label | None = None
        self.status_label: pyglet.text.Label | None = None
        self.finish_label: pyglet.text.Label | None = None
        self.dice_labels: list[pyglet.text.Label] = []
        # the selection: what the first click took, and the options a second click narrowed to
        self.pick: Pick | None = None
        self.second: Pick | None = None
        self.narrowed: list[Action] | None = None
        #: what a click played, while the rules ask about it (where the unit it moves goes)
        self.focus: Pick | None = None
        self.moving = gui_moves.Moving()          # a move by destination: how many go, undo
        self.buying = gui_buy.Basket()            # buying by quantities
        self._shown_turn: tuple[int, int] | None = None   # the turn the map was last turned to
        #: the computer's last actions since the person's last one, oldest first (lit on the map)
        self.computer_moves: list[Played] = []
        #: the spaces lit for them as last drawn: space -> its number (1 the oldest shown), and
        #: where its number's badge is (centre and radius, in the map's coordinates)
        self.computer_lights: dict[str, int] = {}
        self.computer_badges: dict[str, tuple[float, float, float]] = {}
        self._reader: Reader | None = None
        self._reader_key: Any = None
        self._cache: dict[Any, Any] = {}
        self._seen = 0
        self._computer_stopped = False
        self._saved_end = False
        #: the actions as last loaded or saved to a file (closing asks when they changed)
        self._kept_actions: list[Action] = []
        #: the file a loaded game came from, offered (never used unasked) to save it to
        self.save_target = ""
        self._map_dirty = True
        self.menu = None
        self.set_caption(self._title_of(game))
        self._narrate()
        self._build_tray()
        self.map.fit(self.map_area())
        self.refresh()
        self._schedule_computer()

    # -- layout ------------------------------------------------------------------------------
    @property
    def tray_height(self) -> int:
        tray = getattr(self, "tray", None) if self.game is not None else None
        return int(round(tray.height)) if tray is not None else 0

    def map_area(self) -> tuple[int, int, int, int]:
        th = self.tray_height
        return 0, th, self.panel_x, self.height - th

    def in_map(self, x: float, y: float) -> bool:
        return 0 <= x < self.panel_x and self.tray_height <= y < self.height

    def in_tray(self, x: float, y: float) -> bool:
        return self.game is not None and x < self.panel_x and self.tray.contains(x, y)

    # -- what the engine says ------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        if self.game is None or self.game.over:
            return None
        return self.game.decision

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
        return self.game is not None and not self.game.over and self.game.can_undo(self.mine)

    def side_colour(self, side: str) -> tuple[int, int, int]:
        return self.colours[side]

    def reader(self) -> Reader:
        """What the current options name (made again when the decision changes)."""
        d = self.decision
        k = (id(d), len(self.game.actions), len(self.game.log))
        if self._reader is None or self._reader_key != k:
            self._reader = Reader(d, self.game.state, _Clickable(self.map.hexes, self.tray.boxes))
            self._reader_key = k
            self._cache = {}
        return self._reader

    def _cached(self, name: Any, make: Callable[[], Any]) -> Any:
        self.reader()
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]

    # -- the selection -----------------------------------------------------------------------------
    @property
    def selected(self) -> str | None:
        """The selected space, if any."""
        return self.pick.space if self.pick is not None else None

    @selected.setter
    def selected(self, sid: str | None) -> None:
        if sid is None:
            self.pick = self.second = self.narrowed = None
        else:
            self.pick, self.second, self.narrowed = self.pick_at(sid), None, None

    def candidates(self) -> list[Action]:
        """The options the selection names (its pieces', or its space's)."""
        pick = self.pick
        if pick is None or self.decision is None:
            return []
        return self._cached(("candidates", pick), lambda: self.reader().candidates(pick))  # type: ignore[no-any-return]

    def targets(self) -> tuple[dict[str, list[Action]], set[int]]:
        """Where the selection can go: lit space -> the options a click there picks, and the
        pieces a click can pick (a truck's cargo)."""
        pick = self.pick
        if pick is None:
            return {}, set()
        def make() -> tuple[dict[str, list[Action]], set[int]]:
            spaces, pieces = self.reader().targets(self.candidates(), pick)
            for sid, routes in gui_moves.routes(self).items():      # further, by a route
                spaces.setdefault(sid, [routes[0].actions[0]])
            return spaces, pieces

        return self._cached(("targets", pick), make)  # type: ignore[no-any-return]

    def at_rest(self) -> tuple[set[str], set[str]]:
        """With nothing selected: where one click plays (or lists) options, and where it selects."""
        if self.decision is None:
            return set(), set()
        def make() -> tuple[set[str], set[str]]:
            direct, sources = self.reader().at_rest()
            return direct | set(gui_moves.routes(self)), sources    # where the asked unit goes by a route

        return self._cached(("rest", self.focus), make)  # type: ignore[no-any-return]

    def visible_options(self) -> list[Action]:
        """The current options; with a selection, those it names (and after a second click
        that several options fit, just those)."""
        d = self.decision
        if d is None:
            return []
        if self.pick is None:
            return list(d.options)
        if self.narrowed is not None:
            return list(self.narrowed)
        return self.candidates()

    def pick_at(self, sid: str, counter: Any = None) -> Pick:
        """What a click on `sid` takes: the pieces of the clicked counter, or all the hex's."""
        state = self.game.state
        if counter is not None and sid not in self.map.hexes:
            return Pick(sid, self.tray.counter_pieces(state, counter), (counter[1], counter[2]))
        if counter is not None and self.layer is not None:
            return Pick(sid, self.layer.counter_pieces(state, counter), (counter[1], counter[2]))
        return Pick(sid, frozenset(state.ids_at(sid)))

    def counter_at(self, x: float, y: float) -> Any:
        """The counter under a screen point, if any."""
        if self.layer is None:
            return None
        ox, oy = self.map.offset
        return self.layer.counter_at(x - ox, y - oy)

    def select(self, pick: Pick | None) -> None:
        self.pick, self.second, self.narrowed = pick, None, None
        self.focus = None
        self.cursor = 0
        self.scroll = 0
        self.refresh(map_changed=False)

    def clear_selection(self) -> None:
        self.why = ""
        self.select(None)

    def select_space(self, sid: str | None) -> None:
        """Select a hex (narrowing the options to those naming it or its pieces), or clear the
        selection with None or by selecting the selected hex again. Plays nothing."""
        if sid is None or (self.pick is not None and self.pick.space == sid and self.pick.counter is None):
            self.clear_selection()
        else:
            self.why = ""
            self.select(self.pick_at(sid))

    def click_space(self, sid: str | None, counter: Any = None) -> None:
        """A click on the map: on space `sid` (None: off the board), on `counter` if one was
        hit (an entry of the map layer's `counters`).

        With nothing selected the click selects what it hit; when that leaves one option
        naming nothing else to click, it plays it. With a selection, a click on what its
        options name besides it (a lit space, a cargo's counter) picks those options: one is
        played, several are listed. A click elsewhere selects the units hit, or says why the
        rules refuse to take the selection there."""
        if sid is None:
            self.clear_selection()
            return
        self.why = ""
        if gui_moves.take(self, sid):            # a destination further than one option goes
            return
        click = self.pick_at(sid, counter)
        playing = self.human_turn()
        r = self.reader()
        first = self.pick
        if first is not None:
            matched = r.second(self.candidates(), first, click)
            if matched:
                if len(matched) == 1 and playing:
                    self._play_click(matched[0])
                    return
                self.second, self.narrowed = click, matched
                self.cursor = self.scroll = 0
                self.refresh(map_changed=False)
                return
            if click.same(first):
                self.clear_selection()
                return
            if not r.by_pieces(click) and playing:
                reasons = self._why_not(first, click)
                if reasons:
                    self.why = f"Not to {self.place_name(sid)}: " + "; ".join(reasons)
                    self.second, self.narrowed = None, None
                    self.refresh(map_changed=False)
                    return
        if playing and gui_moves.refuse(self, click):     # not lit: why not, the selection kept
            return
        self.select(click)
        options = self.candidates()
        if playing and len(options) == 1 and r.settled(options, click):
            self._play_click(options[0])

    def _play_click(self, action: Action) -> None:
        """Play what a click picked. When the rules then ask its player a question on the way
        (where the unit goes, which cargo...), what was clicked stays marked."""
        focus = self.pick
        self.second, self.narrowed = None, None
        if not self.choose(action):
            self.refresh(map_changed=False)
            return
        d = self.decision
        if (focus is not None and d is not None and self.human_turn() and self.pick is None
                and (d.kind == "choose" or d.context.get("asked"))):
            here = focus.pieces & frozenset(self.game.state.ids_at(focus.space))
            self.focus = Pick(focus.space, here, focus.counter) if here or focus.counter is None else None
            self.refresh(map_changed=False)

    def _why_not(self, first: Pick, click: Pick) -> list[str]:
        """The rules' reasons the selection cannot do at `click` what its options do elsewhere."""
        rs, state = self.game.ruleset, self.game.state
        d = self.decision
        if d is None:
            return []
        side = seats.seat_of(rs, d.player)

        def own(pid: int) -> bool:
            return seats.seat_of(rs, state.pieces[pid].owner) == side

        reasons: list[str] = []
        for probe in self.reader().probes(first, click, own):
            try:
                why = flow.why_not(rs, state, probe)
            except Exception as e:  # noqa: BLE001 - a probe the rules cannot even read: say so, go on
                why = f"{type(e).__name__}: {e}"
            if why and why not in reasons:
                reasons.append(why)
            if len(reasons) >= 2:
                break
        return reasons

    def _keep_pick(self, kind: str | None) -> None:
        """After an action: keep the selection while the same kind of decision still has
        options for its pieces (the rest of a stack, after some of it moved)."""
        self.second, self.narrowed = None, None
        pick = self.pick
        d = self.decision
        if pick is None:
            return
        if d is None or d.kind != kind:
            self.pick = None
            return
        here = frozenset(self.game.state.ids_at(pick.space))
        pieces = here if pick.counter is None else pick.pieces & here
        self.pick = Pick(pick.space, pieces, pick.counter) if pieces else None
        if self.pick is not None and not self.reader().by_pieces(self.pick):
            self.pick = None

    # -- acting ----------------------------------------------------------------------------------
    def choose(self, action: Action) -> bool:
        """Send a person's action. False (and the reason shown) if refused, or if it is not a
        person's turn."""
        if self.game is None:
            return False
        if self.game.over:
            self.refusal = "the game is over"
            self.refresh(map_changed=False)
            return False
        if self.computer_turn():
            self.refusal = f"it is the computer's turn ({self.seat()})"
            self.refresh(map_changed=False)
            return False
        source = self._source(action)
        before = self.game.state
        try:
            events = self.game.play(action)
        except IllegalAction as e:
            self.refusal = e.reason
            self.refresh(map_changed=False)
            return False
        self.refusal = ""
        self.notice = ""
        # the rules' warnings (a hex over-stacked by this move) stay in sight until the next
        # click, not only in a log the panel may have folded
        self.why = " ".join(f"Warning: {d.get('message', '')}" for kind, d in events if kind == "warning")
        self.computer_moves = []                 # the person has seen them: a fresh start
        self._after_action(human=True, source=source, before=before, action=action)
        return True

    def _source(self, action: Action) -> tuple[str, str, str]:
        """What the battle box says of an action: the decision it answers, who, its words."""
        d = self.decision
        label = action.label
        if not label and d is not None:
            label = next((a.label for a in d.options if a == action), "") or str(action)
        return (d.kind if d else "", d.player if d else "", label)

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

    def ask_finish(self) -> bool:
        """E or the finish button: end the step, first asking when other options are still
        open (as the terminal does when `done` is typed), in the rules' words for the step's
        end (what it loses) and with how many options go unused. True if it ended at once."""
        d = self.decision
        if d is None or d.finish is None or not self.human_turn():
            return False
        others = sum(1 for a in d.options if a != d.finish)
        if not others:
            return self.finish()
        finish = d.finish

        def yes(_: str) -> str | None:
            self.prompt = None
            if self.decision is d:
                self.choose(finish)
            return None

        self.prompt = TextPrompt(f"End the step: {finish.label or finish}?", yes, entry=False,
                                 hint=f"{others} other option{'s' if others != 1 else ''} of {d.player} "
                                      f"{'are' if others != 1 else 'is'} still open and will not be played.",
                                 ok="End the step (Enter, E)", cancel="Go on playing (Esc)", ok_keys=(key.E,))
        self.prompt.build(self.width, self.height)
        self.invalidate()
        return False

    def undo(self) -> bool:
        """Take back the person's last action of this step and the computer's answers to it.
        The decision is then the person's own again; a computer seat to move moves again."""
        if not self.can_undo():
            if self.game is not None:           # U always says what happened: here, why nothing
                self.notice = ("Nothing to undo: the game is over" if self.game.over else
                               "Nothing of yours to undo in this step (dice were rolled or the step began since)"
                               if self.game.can_undo() else "Nothing to undo in this step")
                self.refresh(map_changed=False)
            return False
        pyglet.clock.unschedule(self._computer_tick)
        self._computer_pending = False
        d = self.decision
        kind = d.kind if d is not None else None
        try:
            n = gui_moves.undo_route(self) or self.game.undo(self.mine)
        except IllegalAction as e:
            self.refusal = e.reason
            self.refresh(map_changed=False)
            self._schedule_computer()
            return False
        self.refusal = ""
        self.why = ""
        self.focus = None
        self.computer_moves = [m for m in self.computer_moves if m.index < len(self.game.actions)]
        self._narrate(rebuild=True)
        self.notice = gui_moves.undone_words(self, n)
        self.narration.append(f"({self.notice[:1].lower()}{self.notice[1:]})")
        self._keep_pick(kind)
        self._save()
        self.refresh()
        self._schedule_computer()
        return True

    def step_computer(self) -> bool:
        """Let the computer play the current decision, if it is a computer's. True if it did."""
        if self.game is None or not self.computer_turn() or self._computer_stopped:
            return False
        d = self.decision
        assert d is not None
        player = self.computer[self.seat()]  # type: ignore[index]
        action = player.choose(self.game.ruleset, self.game.state, d)
        source = self._source(action)
        before, n_log = self.game.state, len(self.game.log)
        try:
            self.game.play(action)
        except IllegalAction as e:
            self._computer_stopped = True
            name = getattr(player, "name", "computer")
            self.refusal = f"computer player `{name}` chose a refused action ({action}): {e.reason}"
            self.refresh(map_changed=False)
            return False
        self._note_computer_move(d, action, source[2], before, n_log)
        self._after_action(human=False, source=source, before=before, action=action)
        return True

    def _note_computer_move(self, d: Decision, action: Action, label: str, before: Any, n_log: int) -> None:
        """Keep the spaces a computer action just played on, to light them. The answer to a
        question the rules asked on the way of the same player's previous action (a
        `choose` decision: where the unit it picked goes) belongs to that action; the next
        question (another unit's retreat) is an entry of its own, not said of that unit."""
        index = len(self.game.actions) - 1
        label = words.said_by(self.game.ruleset, d.player, label)      # listed after the player's name
        spaces = touched_spaces(action, before, self.game.log[n_log:], self.map.hexes)
        moves = self.computer_moves
        last = moves[-1] if moves else None
        if (last is not None and d.kind == "choose" and last.player == d.player and last.index == index - 1
                and not last.answered):
            merged = last.spaces + tuple(s for s in spaces if s not in last.spaces)
            moves[-1] = Played(index, d.player, f"{last.label} → {label}", merged, answered=True)
            return
        if spaces:
            moves.append(Played(index, d.player, label, tuple(spaces)))
            del moves[:-COMPUTER_MARKS]

    def save_now(self) -> bool:
        """Save at once (Ctrl+S); with no save file yet, ask for one."""
        if self.game is None:
            return False
        if self.saver is None:
            self.ask_save_file()
            return False
        n = len(self.game.actions)
        if self._save():
            self.notice = (f"Saved ({n} action{'s' if n != 1 else ''})"
                           + (f" to {self.save_target}" if self.save_target else ""))
        else:
            self.notice = "Not saved: " + (self.refusal or "the save file could not be written")
        self.refresh(map_changed=False)
        return True

    def _after_action(self, human: bool, source: tuple[str, str, str] | None = None, before: Any = None,
                      action: Action | None = None) -> None:
        self.focus = None
        where = mentioned_spaces(action, before, before.board) if action is not None and before is not None else []
        self._narrate(source=source, before=before, where=where)
        self._keep_pick(source[0] if source else None)
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
        if self.saver is None or self.game is None:
            return False
        try:
            self.saver(self.game)
        except OSError as e:
            self.refusal = f"could not save: {e}"
            return False
        return True

    def _schedule_computer(self) -> None:
        if (self.autoplay and self.game is not None and not self._computer_pending and self.computer_turn()
                and not self._computer_stopped and self.menu is None):
            self._computer_pending = True
            pyglet.clock.schedule_once(self._computer_tick, self.computer_delay)

    def _computer_tick(self, dt: float) -> None:
        self._computer_pending = False
        if self._closed or self.menu is not None:
            return
        try:
            self.step_computer()
        except Exception as e:  # noqa: BLE001 - show it rather than kill the event loop
            self._computer_stopped = True
            self.refusal = f"the computer player failed: {type(e).__name__}: {e}"
            self.refresh(map_changed=False)

    def _narrate(self, rebuild: bool = False, source: tuple[str, str, str] | None = None, before: Any = None,
                 where: Iterable[str] = ()) -> None:
        """Tell the events logged since last time (all of them again with `rebuild`), and
        follow the battle they belong to."""
        log = self.game.log
        if rebuild or self._seen > len(log):
            self.narration, self._seen = [], 0
            self.battles.forget_from(max(0, len(log) - 1))
            start = len(log)
        else:
            start = self._seen
        self.narration.extend(game_log.log_lines(self.game, log[self._seen:]))     # a route: one line
        if start < len(log):
            decision = self.game.decision
            self.battles.feed(log[start:], start, source, before=before, after=self.game.state, where=where,
                              asking=decision is not None and decision.kind == "choose")
        self._seen = len(log)
        del self.narration[:-200]

    # -- other games: new, loaded -------------------------------------------------------------------
    def open_new_game(self) -> bool:
        """Show the new-game screen (Ctrl+N). Needs a launcher."""
        if self.launcher is None:
            if self.game is not None:
                self.notice = "no new game from here: start the window with `wargame play`"
                self.refresh(map_changed=False)
            return False
        pyglet.clock.unschedule(self._computer_tick)
        self._computer_pending = False
        current = self.game.ruleset.name if self.game is not None else None
        self.menu = NewGameScreen(self.launcher, can_go_back=self.game is not None, current=current,
                                  unsaved=self._unsaved())
        self.menu.build(self.width, self.height)
        self.invalidate()
        return True

    def close_new_game(self) -> None:
        """Back to the game from the new-game screen."""
        if self.game is None:
            return
        self.menu = None
        self.refresh()
        self._schedule_computer()

    def start_new_game(self) -> bool:
        """Start the game the new-game screen describes."""
        screen = self.menu
        if screen is None or self.launcher is None:
            return False
        try:
            game, computer, saver = self.launcher.new_game(screen.ruleset, screen.scenario, screen.computer)
        except Exception as e:  # noqa: BLE001 - said on the screen, nothing lost
            from clients.cli import error_message

            screen.error = error_message(e).removeprefix("wargame: ")
            screen.build(self.width, self.height)
            self.invalidate()
            return False
        self.menu = None
        self.launcher.save_path = None            # one game to the command line's --save file, not the next
        self.set_game(game, computer, saver)
        self.notice = "New game" + (" (saved after every action)" if saver is not None else
                                    " — Ctrl+S saves it")
        self.refresh(map_changed=False)
        return True

    def _unsaved(self) -> bool:
        """Whether the game in the window would be lost by another, or by closing: going on,
        no save file, and its actions not as they were when it was loaded or last saved."""
        return bool(self.game is not None and self.saver is None and not self.game.over
                    and list(self.game.actions) != self._kept_actions)

    def _default_save_name(self) -> str:
        """Where a game with no save file is offered to be saved: the file it was loaded from,
        or a new file in the current folder named after the ruleset and the time."""
        if self.save_target:
            return self.save_target
        import time

        stem = f"{self.game.ruleset.name}-{time.strftime('%Y%m%d-%H%M')}"
        name, n = f"{stem}.json", 1
        while Path(name).exists():
            n += 1
            name = f"{stem}-{n}.json"
        return name

    def ask_load_file(self) -> None:
        """Ask for a saved game's file name (Ctrl+O)."""
        hint = ("A file name, relative to " + os.getcwd() + " (~ for your home). "
                + ("The game in the window has no save file: Ctrl+S first to keep it." if self._unsaved() else ""))
        self.prompt = TextPrompt("Load a saved game", self.load_file, hint=hint)
        self.prompt.build(self.width, self.height)
        self.invalidate()

    def load_file(self, name: str) -> str | None:
        """Load the saved game in file `name` and play it (saving to the same file); an error
        to show when it cannot be loaded (the game in the window is left as it is)."""
        name = name.strip()
        if not name:
            return "type the name of a saved game's file"
        launcher = self.launcher or Launcher()
        try:
            game = launcher.load(name)
        except Exception as e:  # noqa: BLE001 - a damaged or foreign save: say why, lose nothing
            from clients.cli import error_message

            return "could not load it: " + error_message(e).removeprefix("wargame: ")
        if self.game is not None and self.game.ruleset.name == game.ruleset.name:
            sides = set(self.computer)
        else:
            sides = set(seats.sides(game.ruleset)[1:])
        computer = launcher.computer_for(game, sides)
        self.prompt = None
        self.menu = None
        # the save is written over only when the player says so (Ctrl+S offers it)
        self.set_game(game, computer, None)
        self._kept_actions, self.save_target = list(game.actions), name
        self.notice = f"Loaded {name} ({len(game.actions)} actions); Ctrl+S saves your moves (it asks where)"
        self.refresh(map_changed=False)
        return None

    def ask_save_file(self) -> None:
        """Ask for the file to save the game to (Ctrl+S with no save file yet)."""
        target = self._default_save_name()
        over = (f" {target} is the save it was loaded from: Enter writes over it." if self.save_target
                and target == self.save_target and Path(target).exists() else "")
        self.prompt = TextPrompt("Save the game to a file", self.save_file, text=target,
                                 hint="A file name, relative to " + os.getcwd()
                                      + ". The game is saved there after every action from now on." + over)
        self.prompt.build(self.width, self.height)
        self.invalidate()

    def save_file(self, name: str) -> str | None:
        name = name.strip()
        if not name:
            return "type a file name"
        saver = Launcher.saver_to(name)
        try:
            saver(self.game)
        except Exception as e:  # noqa: BLE001 - a folder that is not there, no permission...
            from clients.cli import error_message

            return "could not save: " + error_message(e).removeprefix("wargame: ")
        self.saver = saver
        self._kept_actions = list(self.game.actions)
        self.save_target = name
        self.prompt = None
        self.notice = f"Saved to {name} (and after every action from now on)"
        self.refresh(map_changed=False)
        return None

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
        if self.menu is not None:
            self.menu.build(self.width, self.height)
        if self.prompt is not None:
            self.prompt.build(self.width, self.height)
        if self.calc is not None:
            self.calc.build(self.width, self.height)
        if self.game is None:
            self.invalidate()
            return
        if self._turn_to_show():
            map_changed = True
        if map_changed:
            self._map_dirty = True
        self._build_tray()
        self._reader = None                      # the options may have changed in place
        if self.hovered is not None:
            self.hover_text = self.describe(self.hovered)
        self._build_overlay()
        self._build_panel()
        self.buying.build(self)
        self._build_top()
        self._build_legend()
        self.invalidate()

    def _turn_to_show(self) -> bool:
        """When a person's power begins its turn and the world map shows none of it (the map
        fills the height, the rest is a pan away: Japan's turn at 1280x720), pan to where most
        of its units stand; never for a question to another power within a turn (a defender's
        casualties). Whether the map moved."""
        d, state = self.decision, self.game.state
        turn = (state.turn, state.power_index)
        if turn == self._shown_turn or d is None:
            return False
        first = self._shown_turn is None
        self._shown_turn = turn
        show = getattr(self.map, "show_power", None)
        return bool(not first and show is not None and d.player == current_power(state) and self.human_turn()
                    and show(state, d.player))

    def _build_map(self) -> None:
        kinds = [p.kind for p in self.game.state.pieces.values() if p.kind not in self.looks]
        if kinds:
            self.looks = unit_looks(list(self.looks) + kinds, self.units)
        self.layer = self.map.build(self.game.state, self.colours, self.sides, self.looks, self.show_ids)
        self._map_dirty = False

    def _ensure_layer(self) -> None:
        """The map's shapes, made or updated for the state and the view (the overlay needs
        the counters' places)."""
        state = self.game.state
        new_kinds = self._map_dirty and any(p.kind not in self.looks for p in state.pieces.values())
        if self.layer is None or not self.layer.covers(self.map) or self.layer.show_ids != self.show_ids or new_kinds:
            self._build_map()
        elif self._map_dirty:
            self.layer.update(state, self.colours)       # the same scale: colours and counters
            self._map_dirty = False

    def _build_overlay(self) -> None:
        """The map's lights: the selection, where it can go, the hexes the hovered option
        names, the hex under the mouse."""
        self.overlay = pyglet.graphics.Batch()
        for item in self._overlay_items:
            if getattr(item, "batch", None) is not None and self.layer is not None and item.batch is self.layer.batch:
                item.delete()                     # the tints drawn with the map
        items: list[Any] = []
        self._overlay_items = items
        if self.game is None:
            return
        self._ensure_layer()
        assert self.layer is not None
        tint = pyglet.graphics.Group(order=2)     # over the hexes and roads, under names and counters
        size = self.map.size
        state = self.game.state
        hexes = self.map.hexes
        playing = self.human_turn()
        if self.pick is None and playing and self.hover_row is None:
            direct, sources = self.at_rest()
            for sid in sources - direct:
                if sid in hexes:
                    items.append(self.map.outline(sid, SOURCE, max(1.2, size * 0.035), self.overlay, 0.84))
            for sid in direct:                     # one click there plays (or lists) what it names
                if sid in hexes:
                    items.append(self._tint(sid, tint))
                    items.append(self.map.outline(sid, TARGET, max(2.5, size * 0.08), self.overlay, 0.88))
        elif self.pick is not None:
            spaces, pieces = self.targets()
            if self.narrowed is not None and self.second is not None:
                spaces = {self.second.space: self.narrowed}
            for sid in spaces:
                if sid not in hexes:
                    continue
                items.append(self._tint(sid, tint))
                items.append(self.map.outline(sid, TARGET, max(2.5, size * 0.08), self.overlay, 0.88))
            if self.layer is not None:
                line = max(1.5, size * 0.04)
                for c in self.layer.counters_of(state, pieces):
                    _, _, _, x, y, w, h = c
                    items.append(shapes.Box(x - line, y - line, w + 2 * line, h + 2 * line, thickness=line,
                                            color=TARGET, batch=self.overlay))
                if self.pick.counter is not None:
                    for c in self.layer.counters_of(state, self.pick.pieces):
                        _, _, _, x, y, w, h = c
                        items.append(shapes.Box(x - line, y - line, w + 2 * line, h + 2 * line, thickness=line,
                                                color=SELECTED, batch=self.overlay))
        focus = self.focus if self.pick is None else None
        if focus is not None and focus.space in hexes:
            items.append(self.map.outline(focus.space, SELECTED, max(2.0, size * 0.08), self.overlay, 0.93))
            if focus.counter is not None and self.layer is not None:
                line = max(1.5, size * 0.04)
                for c in self.layer.counters_of(state, focus.pieces):
                    _, _, _, x, y, w, h = c
                    items.append(shapes.Box(x - line, y - line, w + 2 * line, h + 2 * line, thickness=line,
                                            color=SELECTED, batch=self.overlay))
        options = self.visible_options()
        row = self.hover_row if self.hover_row is not None else (self.cursor if options and self.pick is not None
                                                                 else None)
        if row is not None and 0 <= row < len(options):
            for sid in mentioned_spaces(options[row], state, hexes):
                if sid != self.selected:
                    items.append(self.map.outline(sid, MENTIONED, max(2.0, size * 0.08), self.overlay, 0.8))
        if self.hovered is not None and self.hovered != self.selected and self.hovered in hexes:
            items.append(self.map.outline(self.hovered, HOVER, max(1.5, size * 0.05), self.overlay, 0.95))
        if self.selected is not None and self.selected in hexes:
            items.append(self.map.outline(self.selected, SELECTED, max(2.5, size * 0.1), self.overlay, 0.93))
        items.extend(gui_moves.lines(self, self.overlay))
        self._light_computer(items)
        self._light_tray(playing, options, row)

    def _light_computer(self, items: list[Any]) -> None:
        """The spaces the computer's last actions played on: an outline inside the space's
        edge (the person's lights are on it) in COMPUTER_LIGHT, brighter the newer, and a
        badge with the action's number (1 the oldest shown). A space two actions touched
        shows the newer."""
        self.computer_lights = {}
        self.computer_badges = {}
        moves = self.computer_moves
        if not moves:
            return
        hexes, size = self.map.hexes, self.map.size
        for n, move in enumerate(moves, 1):
            for sid in move.spaces:
                if sid in hexes:
                    self.computer_lights[sid] = n
        ring, badge, digits = (pyglet.graphics.Group(order=i) for i in (5, 6, 7))
        on_hexes = isinstance(self.map, MapView)
        r = min(11.0, max(6.5, size * 0.16)) if on_hexes else 8.0
        for sid, n in self.computer_lights.items():
            alpha = round(255 - 130 * (len(moves) - n) / max(1, COMPUTER_MARKS - 1))
            items.append(self.map.outline(sid, (*COMPUTER_LIGHT, alpha), max(2.5, size * 0.075), self.overlay, 0.8))
            cx, cy = self.map.world(sid)
            name = None if on_hexes or self.layer is None else self.layer.names.get(sid)
            here = [c for c in self.layer.counters if c[0] == sid] if self.layer is not None else []
            if name is not None:
                bx, by = name[0] - r - 2, (name[1] + name[3]) / 2     # before the space's name
            elif here:
                left = min(here, key=lambda c: c[3])                  # before its counters
                bx, by = left[3] - r - 2, left[4] + left[6] / 2
            elif on_hexes:
                bx, by = cx - size * 0.6, cy - size * 0.05            # the hex's west corner
            else:
                bx, by = cx - 12, cy + 12
            self.computer_badges[sid] = (bx, by, r)
            items.append(shapes.Circle(bx, by, r + 1.5, color=(20, 20, 24, alpha), batch=self.overlay, group=ring))
            items.append(shapes.Circle(bx, by, r, color=(*COMPUTER_LIGHT, alpha), batch=self.overlay, group=badge))
            items.append(pyglet.text.Label(str(n), x=round(bx), y=round(by), anchor_x="center", anchor_y="center",
                                           font_name=FONT, font_size=r * 0.95, weight="bold",
                                           color=(255, 255, 255, 255), batch=self.overlay, group=digits))

    def _light_tray(self, playing: bool, options: list[Action], row: int | None) -> None:
        """The tray's lights: the map's, for the off-board areas."""
        state = self.game.state
        lights: dict[str, Any] = {"hovered": self.hovered, "focus": self.focus if self.pick is None else None}
        if self.pick is None and playing and self.hover_row is None:
            lights["direct"], lights["sources"] = self.at_rest()
        elif self.pick is not None:
            spaces, pieces = self.targets()
            if self.narrowed is not None and self.second is not None:
                spaces = {self.second.space: self.narrowed}
            lights.update(targets=spaces, target_pieces=pieces, selected=self.pick)
        if row is not None and 0 <= row < len(options):
            lights["mentioned"] = [s for s in mentioned_spaces(options[row], state, self.tray.boxes)
                                   if s != self.selected]
        self.tray.light(state, **lights)

    def _build_tray(self) -> None:
        """The tray under the map, drawn again when what it shows changed; the map's area
        follows its height."""
        if self.game is None:
            return
        before = self.tray_height
        self.tray.show(self.game, self.areas, 0, self.panel_x, self.height * 0.3, self.colours, self.looks,
                       self.sides, hidden=not self.show_tray)
        if self.tray_height != before:
            self.map.area = self.map_area()
            self._map_dirty = True

    def describe(self, sid: str) -> str:
        """A tooltip for a space of the map, or an area under it."""
        state = self.game.state
        if sid in state.board:
            if gui_route_chooser.current(self) is not None:
                return ""                         # the box says it: no tooltip over the routes
            ways = gui_moves.route_words(self, sid)      # where the route matters: the choice
            text = self.logic.describe_space(state, sid)
            return f"{ways}\n{text}" if ways else text
        return self.tray.describe(state, sid, self.game.ruleset.structure.turn_name)

    def place_name(self, sid: str) -> str:
        """What a space is called: the board's name, or the area's."""
        if sid in self.game.state.board:
            return space_name(self.game.state, sid)
        return self.tray.names.get(sid) or space_name(self.game.state, sid)

    def _noun(self, sids: Iterable[str] | None = None) -> str:
        """What the players call these spaces of the map (all of them when None): "hex",
        "territory", "sea zone", or "space" for several kinds or an area off the map."""
        board = self.game.state.board
        if sids is not None:
            sids = list(sids)
            if not sids or any(s not in board for s in sids):
                return space_noun(board) if not sids else "space"
        return space_noun(board, sids)

    def _lit(self) -> list[str]:
        """The spaces lit for the person to click, with or without a selection."""
        if self.pick is not None:
            return list(self.targets()[0])
        direct, _ = self.at_rest()
        return list(direct)

    def _tint(self, sid: str, group: pyglet.graphics.Group) -> Any:
        """A lit space's fill, drawn with the map (over its ground, under names and counters)."""
        assert self.layer is not None
        own = getattr(self.layer, "tint", None)                  # a world map tints its polygons
        if own is not None:
            return own(sid, TARGET_FILL)
        return shapes.Polygon(*self.map.corners(sid, 0.93), color=TARGET_FILL, batch=self.layer.batch, group=group)

    def _build_legend(self) -> None:
        """The legend, made again only when what it shows changed: who holds or has pieces,
        the kinds on the map, where it stands."""
        state = self.game.state
        own_legend = getattr(self.map, "build_legend", None)       # a world map's legend, at the bottom left
        box = self.buying.rect        # the buying box docked in its corner: folded, the legend above it
        floor = self.tray_height + 10 if box is None else round(box[1] + box[3]) + 6
        buying = box is not None and not self.buying.folded       # open, it takes the legend's place
        key = (self.show_legend and not buying, id(self.map), floor, len(self.looks),
               frozenset(state.control.values()) | {p.owner for p in state.pieces.values()},
               frozenset(p.kind for p in state.pieces.values() if p.space in self.map.hexes))
        if key == self._legend_key:
            return
        self._legend_key = key
        self.legend = pyglet.graphics.Batch()
        self._legend_items = []
        self.legend_rect = None
        if not self.show_legend or buying:
            return
        order = {k: i for i, k in enumerate(self.units)}
        kinds = sorted({p.kind for p in state.pieces.values() if p.space in self.map.hexes},
                       key=lambda k: (order.get(k, len(order)), k))
        if own_legend is not None:
            self.legend_rect = own_legend(10, floor, state, self.colours, self.looks, self.legend,
                                          self._legend_items)            # above the tray, never over it
            return
        owners = [s for s in self.sides if s in set(state.control.values()) | {p.owner for p in state.pieces.values()}]
        self.legend_rect = build_legend(10, floor, owners or self.sides, self.colours, self.looks,
                                        kinds, state.board, self.legend, self._legend_items)

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
            hint = pyglet.text.Label(f"{len(self.game.actions)} actions played · Ctrl+N: a new game · "
                                     "close the window to leave",
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
        tip = self.words(self.hover_text if self.hovered is not None else self.row_tip)
        if tip:
            mx, my = self._mouse
            label = pyglet.text.Label(tip, x=0, y=0, width=340, multiline=True, anchor_y="top",
                                      font_name=FONT, font_size=9.5, color=TEXT, batch=self.top,
                                      group=pyglet.graphics.Group(order=3))
            tw = min(340, label.content_width + 4) + 16
            label.width = tw - 16
            th = label.content_height + 12
            if self.hovered is not None:
                tx = min(mx + 18, self.panel_x - tw - 4)
            else:
                tx = max(4, mx - tw - 12)       # a row's tooltip: left of the mouse, over the map
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
        self.frames += 1
        pyglet.gl.glClearColor(BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255, 1.0)
        self.clear()
        if self.menu is not None or self.game is None:
            if self.menu is not None:
                self.menu.batch.draw()
            if self.prompt is not None:
                self.prompt.batch.draw()
            return
        if self._map_dirty or self.layer is None or not self.layer.covers(self.map) \
                or self.layer.show_ids != self.show_ids:
            self._ensure_layer()
            self._build_overlay()      # the counters may have moved: the lights follow them
        ox, oy = self.map.offset
        self.view = Mat4.from_translation(Vec3(ox, oy, 0))
        assert self.layer is not None
        self.layer.draw()
        self.overlay.draw()
        self.view = Mat4()
        self.tray.draw()
        self.legend.draw()
        self.panel.draw()
        self.buying.batch.draw()
        if self._chart_items:
            self.chart_batch.draw()
        self.top.draw()
        if self.calc is not None:
            self.calc.batch.draw()
        if self.prompt is not None:
            self.prompt.batch.draw()

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
    def _inside(rect: Rect | None, x: float, y: float) -> bool:
        if rect is None:
            return False
        rx, ry, rw, rh = rect
        return rx <= x < rx + rw and ry <= y < ry + rh

    def _modal(self) -> bool:
        """Whether a screen or an entry takes the input (not the game)."""
        return self.menu is not None or self.prompt is not None or self.game is None or self.calc is not None

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self._mouse = (x, y)
        if self._modal():
            return
        hovered = self.map.space_at(x, y) if self.in_map(x, y) and not self._inside(self.legend_rect, x, y) else None
        if self.in_tray(x, y):
            hovered = self.tray.space_at(x, y)
        row = self.row_at(x, y)
        hex_changed, row_changed = hovered != self.hovered, row != self.hover_row
        if hex_changed:
            self.hover_text = self.describe(hovered) if hovered else ""
        self.hovered, self.hover_row = hovered, row
        tip = self._row_full.get(row, "") if row is not None else ""
        tip_changed = tip != self.row_tip
        self.row_tip = tip
        if gui_route_chooser.hover(self, x, y) or hex_changed or row_changed:
            self._build_overlay()
        if row_changed:
            self._recolour_rows()
        if hovered is not None or hex_changed or tip_changed or tip:
            self._build_top()              # the tooltip follows the mouse
        if hex_changed or row_changed or hovered is not None or tip_changed or tip:
            self.invalidate()

    def on_mouse_leave(self, x: int, y: int) -> None:
        if self._modal():
            return
        self.hovered, self.hover_row, self.hover_text, self.row_tip = None, None, "", ""
        self.refresh(map_changed=False)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self._mouse = (x, y)
        self._press = None
        if self.prompt is not None:
            if button == mouse.LEFT:
                self._prompt_do(self.prompt.click(x, y))
            return
        if self.menu is not None:
            if button == mouse.LEFT:
                self._screen_do(self.menu.click(x, y))
            return
        if self.calc is not None:
            if button == mouse.LEFT:
                self.calculator_do(self.calc.click(x, y))
            return
        if self.game is None:
            return
        if button == mouse.LEFT and self.buying.click(self, x, y):
            return
        if self.in_map(x, y) or self.in_tray(x, y):
            self._press = (x, y, button == mouse.LEFT)
            self._dragged = False
            return
        if button != mouse.LEFT:
            return
        if self._inside(self.undo_rect, x, y):
            self.undo()
            return
        if self._inside(self.odds_rect, x, y):
            self.open_calculator()
            return
        if self._inside(self.finish_rect, x, y):
            self.ask_finish()
            return
        row = self.row_at(x, y)
        if row is not None and self.human_turn():
            self.cursor = row
            self.choose_row(row)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self._mouse = (x, y)
        if self._press is None or self._modal():
            return
        px, py, _ = self._press
        if self.in_tray(px, py):
            return                                # the tray does not pan: a click there stays a click
        if self._dragged or abs(x - px) + abs(y - py) > 4:
            if not self._dragged:
                dx, dy = x - px, y - py
            self._dragged = True
            self.map.pan(dx, dy)
            self.invalidate()

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        press, self._press = self._press, None
        if press is None or self._dragged or self._modal():
            self._dragged = False
            return
        if button == mouse.RIGHT:
            self.clear_selection()
        elif button == mouse.LEFT:
            if gui_route_chooser.click(self, x, y):
                return                            # a route picked (or the choice cancelled)
            if self.in_tray(x, y):
                sid = self.tray.space_at(x, y)
                self.click_space(sid, self.tray.counter_at(x, y) if sid is not None else None)
                return
            if self._inside(self.legend_rect, x, y):
                return
            sid = self.map.space_at(x, y)
            self.click_space(sid, self.counter_at(x, y) if sid is not None else None)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        if self._modal() or self.in_tray(x, y):
            return
        if self.in_map(x, y):
            if self.map.zoom(1.15 ** scroll_y, (x, y)):
                self.refresh()
        elif scroll_y:
            self.scroll = max(0, self.scroll - int(round(scroll_y * 3)))
            rows = self.rows_fit
            self.cursor = min(max(self.cursor, self.scroll), self.scroll + rows - 1)
            self._build_panel()
            self.invalidate()

    def on_text(self, text: str) -> None:
        if self.prompt is not None:
            self.prompt.on_text(text)
            self.prompt.build(self.width, self.height)
            self.invalidate()

    def _prompt_do(self, what: str | None) -> None:
        prompt = self.prompt
        if prompt is None or what is None:
            return
        if what == "cancel":
            self.prompt = None
            self._schedule_computer()
        elif what == "other" and prompt.other is not None:
            self.prompt = None
            prompt.other[2]()
            if self._closed:
                return
        elif what == "submit":
            error = prompt.submit(prompt.text)
            if error is not None and self.prompt is prompt:
                prompt.error = error
        if self.prompt is not None:
            self.prompt.build(self.width, self.height)
        if not self._closed:
            self.invalidate()

    def _screen_do(self, what: str | None) -> None:
        if what is None or self.menu is None:
            return
        if what == "start":
            self.start_new_game()
        elif what == "load":
            self.ask_load_file()
        elif what == "back":
            self.close_new_game()
        else:
            self.menu.build(self.width, self.height)
            self.invalidate()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        shift = modifiers & key.MOD_SHIFT
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if symbol == key.Q and ctrl:
            self.dispatch_event("on_close")
            return True
        if self.prompt is not None:
            self._prompt_do(self.prompt.on_key(symbol, modifiers))
            return True                   # never close the window on Escape
        if symbol == key.O and ctrl:
            self.ask_load_file()
            return True
        if symbol == key.N and ctrl:
            self.open_new_game()
            return True
        if self.menu is not None:
            self._screen_do(self.menu.on_key(symbol, modifiers))
            return True
        if self.game is None:
            return True
        if self.calc is not None:
            self.calculator_do(self.calc.on_key(symbol, modifiers))
            return True
        if symbol == key.O:
            self.open_calculator(empty=bool(shift))
            return True
        if symbol == key.Y:                    # the game's history, in a window of its own
            from clients.gui_replay import open_history

            self.history_window = open_history(self)
            return True
        step = 60
        if symbol == key.ESCAPE:
            if gui_route_chooser.cancel(self):
                pass                          # the route not chosen: no move, the selection kept
            elif self.narrowed is not None:
                self.second, self.narrowed = None, None
                self.refresh(map_changed=False)
            elif self.pick is not None or self.why:
                self.clear_selection()
            return True                   # never close the window on Escape
        if symbol == key.S and ctrl:
            self.save_now()
            return True
        if symbol in (key.BRACKETLEFT, key.BRACKETRIGHT) and gui_moves.change_count(
                self, 1 if symbol == key.BRACKETRIGHT else -1):
            return True                   # [ and ]: one fewer or one more of the stack moves
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
            if self.buying.counts:
                self.buying.buy(self)             # the basket counted in the buying box
            elif self.human_turn():
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
            self.ask_finish()
            return True
        if symbol == key.H:
            self.show_ids = not self.show_ids
            self.refresh()
            return True
        if symbol == key.L:
            self.show_legend = not self.show_legend
            self.refresh(map_changed=False)
            return True
        if symbol == key.T:
            self.show_tray = not self.show_tray
            self._build_tray()
            self.map.fit(self.map_area())
            self.refresh()
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
        if self.game is not None:
            self._build_tray()
            self.map.fit(self.map_area())
        self.refresh()

    def on_close(self) -> None:
        """Close the window; a game with moves that no file keeps is not lost unasked: the
        player saves it to a file it names, closes without saving (asked a second time), or
        goes back to it."""
        if self.game is not None and not self._saved_end:
            self._save()
        asked = self.prompt is not None and self.prompt.other is not None and self.prompt.other[1] == key.Q
        if asked or not self._unsaved():
            self.close()
            return
        pyglet.clock.unschedule(self._computer_tick)
        self._computer_pending = False
        self.menu = None
        n = len(self.game.actions)

        def save_and_close(name: str) -> str | None:
            error = self.save_file(name)
            if error is None:
                self.close()
            return error

        self.prompt = TextPrompt("Save the game before closing?", save_and_close, text=self._default_save_name(),
                                 hint=f"This game ({n} action{'s' if n != 1 else ''}) has moves no file keeps. "
                                      "Enter saves it to this file (relative to " + os.getcwd() + ") and closes.",
                                 ok="Save and close (Enter)", cancel="Back to the game (Esc)",
                                 other=("Close without saving (Ctrl+Q)", key.Q, self.close))
        self.prompt.build(self.width, self.height)
        self.invalidate()

    def close(self) -> None:
        self._closed = True
        self.stop_calculators()
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
