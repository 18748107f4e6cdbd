"""The window's side panel: where the game stands, the question and its options as rows,
the buttons, the computer's last moves, the last battle's box, the log and the help line.

`Panel` is a part of `clients.gui.GameWindow` (a mixin: it reads the window's game, its
selection and its sizes, and draws into its `panel` batch); it has the panel's one job,
laying all that out, again after each change. Its labels are kept from one build to the
next where they show the same text in the same style (`_label`): laying out text is most
of what a rebuild costs. Nothing here knows a rule: the texts are the engine's and the
ruleset's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyglet
from pyglet import shapes

from clients.battles import Fate, Roll
from clients.clicks import Pick
from clients.gui_map import FONT, framed
from clients.textmap import plural
from engine.game import Game

PANEL_WIDTH = 440
PAD = 12
ROW_H = 24
ROW_LINES = 3                # an option's label wraps to this many lines at most (the rest in a tooltip)
LOG_LINES = 12
DIE = 20                     # a die's side, in pixels
ODDS_BAR = 9                 # the battle box's odds bar, its height

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
BATTLE_BG = (36, 32, 30)
BATTLE_EDGE = (120, 96, 70)
#: the words for what became of a unit in a battle, by its fate
FATE_INK = {"destroyed": (255, 120, 104, 255), "damaged": (236, 170, 60, 255), "retreated": (240, 220, 120, 255),
            "survived": (170, 200, 170, 255), "fighting": (200, 200, 214, 255)}
DICE = ((240, 236, 224), (206, 222, 240))        # alternate rolls in two tints
#: a die rolled to hit: a hit, a miss
DIE_HIT, DIE_MISS = (236, 96, 80), (150, 152, 160)
PIP = (28, 28, 32, 255)

#: the words of the computer's last moves
COMPUTER_INK = (255, 150, 240, 255)

#: the room the question and its options keep at least: the player, the prompt, the count
#: line and four rows. The blocks under them fold (see FOLDS) rather than take it.
MIN_ROWS = 4
MIN_OPTIONS = 64 + MIN_ROWS * ROW_H
#: how the blocks under the options fold when the window is short, one level after another
#: until the options keep MIN_OPTIONS: the log's most height (a share of the window's, at
#: least 40 px; None: as room allows, 0: none), the computer's moves listed (None: all), the
#: battle box's share of the height (0: its title and fates only), the help in full or one line
FOLDS: tuple[tuple[float | None, int | None, float, bool], ...] = (
    (None, None, 0.17, True),
    (0.06, 2, 0.12, True),
    (0.04, 1, 0.08, False),
    (0.0, 0, 0.0, False),
)



def help_text(noun: str, routes: bool = False) -> str:
    """The help line under the panel, in the words of the board (`noun`: "hex", "space"...);
    with `routes`, where a unit goes by a route of several steps (a world map): where the
    route matters, a click asks which."""
    return (f"Click a unit or stack (on the map or a chart under it), then a lit {noun}: move / attack / load "
            + ("(where the route matters, click the route) · " if routes else "· ") +
            f"click an unlit {noun}: why not · Up/Down Enter or 1-9: choose a row · E: end the step · U: undo · "
            f"Esc: clear · drag/Shift+arrows: pan · wheel/+/-: zoom · Home: fit · H: {noun} ids · L: legend · "
            "T: tracks and charts · F: fast computer · O: odds (battle calculator) · Y: history · "
            "Ctrl+S: save · Ctrl+O: load · Ctrl+N: new game")


def result_text(game: Game) -> str:
    r = game.result
    if r is None:
        return ""
    who = f"{r.winner} wins" if r.winner else "Draw"
    score = ", ".join(f"{k} {v}" for k, v in r.score.items())
    return f"{who} — {r.reason}" + (f" ({score})" if score else "")


class Panel:
    """The side panel's building, for `GameWindow` (see the module's docstring)."""

    #: whether this window plays the game: its Undo, Odds and end-the-step buttons (a history
    #: window only shows a game, and has none)
    plays = True

    # what the panel reads of the window (GameWindow sets or defines them)
    game: Game
    width: int
    height: int
    panel: pyglet.graphics.Batch
    map: Any
    colours: Any
    sides: list[str]
    battles: Any
    narration: list[str]
    computer_moves: list[Any]
    autoplay: bool
    _computer_stopped: bool
    pick: Pick | None
    second: Pick | None
    narrowed: list[Any] | None
    focus: Pick | None
    cursor: int
    scroll: int
    hover_row: int | None
    refusal: str
    notice: str
    why: str
    _heights: dict[tuple[str, int], tuple[int, str]]
    decision: Any
    seat: Callable[[], str | None]
    computer_turn: Callable[[], bool]
    human_turn: Callable[[], bool]
    can_undo: Callable[[], bool]
    visible_options: Callable[[], list[Any]]
    targets: Callable[[], tuple[dict[str, list[Any]], set[int]]]
    at_rest: Callable[[], tuple[set[str], set[str]]]
    place_name: Callable[[str], str]
    _noun: Callable[..., str]
    words: Callable[[str], str]
    _lit: Callable[[], list[str]]

    # what it keeps of its own (GameWindow.__init__ and set_game make them)
    _panel_items: list[Any]
    _labels: dict[Any, list[pyglet.text.Label]]
    _spare_labels: dict[Any, list[pyglet.text.Label]]
    _pooled: set[int]
    _row_shapes: dict[int, shapes.Rectangle]
    _row_full: dict[int, str]
    option_rows: list[tuple[int, Any, tuple[float, float, float, float]]]
    rows_fit: int
    dice_labels: list[pyglet.text.Label]
    chart_batch: pyglet.graphics.Batch
    _chart_items: list[Any]
    _chart_key: Any
    _chart_bottom: float
    undo_rect: tuple[float, float, float, float] | None
    odds_rect: tuple[float, float, float, float] | None
    battle_now: Callable[[bool], Any]      # clients.gui_calculator.CalculatorHooks: a BattleNow or None
    finish_rect: tuple[float, float, float, float] | None
    battle_rect: tuple[float, float, float, float] | None
    status_label: pyglet.text.Label | None
    refusal_label: pyglet.text.Label | None
    why_label: pyglet.text.Label | None
    finish_label: pyglet.text.Label | None
    fold: int                # how far the lower blocks are folded this build (an index of FOLDS)
    panel_fits: bool         # the options kept MIN_OPTIONS in this build

    @property
    def panel_x(self) -> int:
        """Where the panel begins: PANEL_WIDTH from the right, or half the window."""
        return max(self.width - PANEL_WIDTH, self.width // 2)

    def _label(self, text: str, x: float, y: float, *, size: float = 10, color: tuple[int, int, int, int] = TEXT,
               bold: bool = False, width: int | None = None, anchor_y: str = "top", anchor_x: str = "left",
               batch: pyglet.graphics.Batch | None = None, group: pyglet.graphics.Group | None = None,
               fit: float | None = None) -> pyglet.text.Label:
        """A label of the panel (or of `batch`), shortened with an ellipsis to `fit` pixels if
        given. A panel label the panel's last build made with the same text and style is
        moved rather than made again: laying text out is most of what a rebuild costs."""
        text = self.words(text)             # unit names spaced as players read them
        pooled = batch is None or batch is self.panel
        key = (text, size, color, bold, width, anchor_x, anchor_y, group.order if group is not None else None, fit)
        spare = self._spare_labels.get(key) if pooled else None
        if spare:
            label = spare.pop()
            if label.x != round(x) or label.y != round(y):
                label.position = (round(x), round(y), label.z)
        else:
            label = pyglet.text.Label(text, x=round(x), y=round(y), width=width, multiline=width is not None,
                                      anchor_x=anchor_x, anchor_y=anchor_y, font_name=FONT, font_size=size,
                                      weight="bold" if bold else "normal", color=color,
                                      batch=batch or self.panel, group=group)
            while fit is not None and label.content_width > fit and len(label.text) > 4:
                keep = max(3, int(len(label.text) * fit / label.content_width) - 2)
                label.text = label.text[:keep].rstrip() + "…"
        if pooled:
            self._labels.setdefault(key, []).append(label)
            self._pooled.add(id(label))
        self._panel_items.append(label)
        return label

    def _fit_text(self, text: str, width: float, **kw: Any) -> pyglet.text.Label:
        """A one-line label shortened with an ellipsis to fit `width` pixels."""
        return self._label(text, fit=width, **kw)

    def _drop_label(self, label: pyglet.text.Label) -> None:
        """Take a label of this build of the panel away again."""
        label.delete()
        self._panel_items.remove(label)
        self._pooled.discard(id(label))
        for labels in self._labels.values():
            if label in labels:
                labels.remove(label)

    def _build_panel(self) -> None:
        """The panel, made again for the game as it stands. Its shapes are made anew; its
        labels are kept where they show the same text in the same style (see `_label`)."""
        self._spare_labels, self._labels = self._labels, {}
        scroll, cursor = self.scroll, self.cursor       # each try starts from the same list position
        try:
            for fold in range(len(FOLDS)):        # fold the lower blocks until the options have room
                self.scroll, self.cursor = scroll, cursor
                for item in self._panel_items:
                    if id(item) not in self._pooled:
                        item.delete()
                self._pooled = set()
                self._panel_items = []
                self.fold = fold
                self._fill_panel()
                if self.panel_fits:
                    break
                for key, labels in self._labels.items():     # this build's labels serve the next
                    self._spare_labels.setdefault(key, []).extend(labels)
                self._labels = {}
        finally:
            for labels in self._spare_labels.values():
                for label in labels:
                    label.delete()
            self._spare_labels = {}

    def _fill_panel(self) -> None:
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
        chart = getattr(self.map, "build_chart", None)             # a world map's turn order and treasuries
        if chart is not None:
            y = self._chart(chart, lx, y - 4, inner)
        elif self._chart_items:                                      # another game's
            for item in self._chart_items:
                item.delete()
            self._chart_items, self._chart_key = [], None
        score = "" if chart is not None else self._score_line()
        if score:
            sl = self._label(score, lx, y, size=10, color=DIM, width=inner, group=fg)
            y -= sl.content_height + 3
        y -= 6
        items.append(shapes.Rectangle(lx, y, inner, 1, color=PANEL_EDGE, batch=self.panel, group=bg))
        y -= 8

        # bottom, upwards: help, log, the last battle, refusal, why not, undo, the finish button
        log_share, moves_most, battle_share, full_help = FOLDS[self.fold]
        yb = PAD
        if full_help:
            helpl = self._label(self.help_line(), lx, yb, size=8, color=DIM, width=inner, anchor_y="bottom",
                                group=fg)
        else:                   # a short window: the keys on one line, the rest when it is taller
            helpl = self._fit_text(self.help_line(), inner, x=lx, y=yb, size=8, color=DIM,
                                   anchor_y="bottom", group=fg)
        yb += helpl.content_height + 8
        battle = self.battles.battle
        if log_share != 0:
            log_top = self._build_log(lx, yb, inner, fg, short=battle is not None or bool(self.computer_moves),
                                      shorter=battle is not None and bool(self.computer_moves), share=log_share)
            yb = log_top + 6
        if self.computer_moves and moves_most != 0:
            most = moves_most if moves_most is not None else 3 if battle is not None else None
            yb = self._build_computer_moves(lx, yb, inner, fg, most=most) + 6
        self.battle_rect = None
        now = self.battle_now(self.human_turn())
        if battle is not None or now is not None:
            yb = self._build_battle(lx, yb, inner, bg, fg, share=battle_share, now=now) + 6
        items.append(shapes.Rectangle(lx, yb, inner, 1, color=PANEL_EDGE, batch=self.panel, group=bg))
        yb += 8
        self.refusal_label = None
        if self.refusal:
            self.refusal_label = self._label(f"Refused: {self.refusal}", lx, yb, size=10, color=REFUSED,
                                             bold=True, width=inner, anchor_y="bottom", group=fg)
            yb += self.refusal_label.content_height + 6
        self.why_label = None
        if self.why:
            self.why_label = self._label(self.why, lx, yb, size=10, color=WARN, bold=True, width=inner,
                                         anchor_y="bottom", group=fg)
            yb += self.why_label.content_height + 6
        can_undo = self.can_undo()
        bw, bh = 96, 26
        self.undo_rect = (lx, yb, bw, bh) if self.plays else None
        if self.plays:
            items += framed(lx, yb, bw, bh, 1, BUTTON if can_undo else BUTTON_OFF,
                            (120, 130, 150) if can_undo else (70, 72, 78), self.panel, bg)
            self._label("Undo (U)", lx + bw / 2, yb + bh / 2, size=10, bold=True, anchor_x="center",
                        anchor_y="center", color=TEXT if can_undo else DIM, group=fg)
        picked = self.pick is not None or self.focus is not None     # its words take the row
        self.odds_rect = None if picked or not self.plays else (lx + inner - bw, yb, bw, bh)   # the calculator (O)
        if self.odds_rect is not None:
            items += framed(lx + inner - bw, yb, bw, bh, 1, BUTTON, (120, 130, 150), self.panel, bg)
            self._label("Odds (O)", lx + inner - bw / 2, yb + bh / 2, size=10, bold=True, anchor_x="center",
                        anchor_y="center", group=fg)
        from clients.gui_route_chooser import current as choosing_route

        if choosing_route(self) is not None:      # the box on the map asks: say where to look
            self._fit_text(self.notice, inner - bw - 12, x=lx + bw + 12, y=yb + bh / 2, size=9, color=ACCENT,
                           anchor_y="center", group=fg)
        elif self.pick is not None:
            self._fit_text("Selected: " + self._pick_words(self.pick) + " · Esc: clear", inner - bw - 12,
                           x=lx + bw + 12, y=yb + bh / 2, size=9, color=ACCENT, anchor_y="center", group=fg)
        elif self.focus is not None:
            self._fit_text(self._pick_words(self.focus) + f": click a lit {self._noun(self._lit())}, or a row", inner - bw - 12,
                           x=lx + bw + 12, y=yb + bh / 2, size=9, color=ACCENT, anchor_y="center", group=fg)
        elif self.notice:
            self._fit_text(self.notice, inner - 2 * bw - 36, x=lx + bw + 12, y=yb + bh / 2, size=9, color=DIM,
                           anchor_y="center", group=fg)
        yb += bh + 8
        self.finish_rect, self.finish_label = None, None
        d = self.decision
        if d is not None and d.finish is not None and self.plays:
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

        self.panel_fits = y - yb >= MIN_OPTIONS
        if game.over:
            self.option_rows = []
            self._build_result(lx, y, inner, fg)
            return
        self._build_options(lx, y, inner, yb, bg, fg)
        # the question's rows as built (its prompt may take several lines): MIN_ROWS of them
        self.panel_fits = self.panel_fits and len(self.option_rows) >= min(MIN_ROWS, len(self.visible_options()))

    def help_line(self) -> str:
        """The keys and clicks the help line under the panel names."""
        return help_text(self._noun(), self._routes_help())

    def _routes_help(self) -> bool:
        """Whether the map is one where units go by routes a player chooses (a world map)."""
        return hasattr(self.map, "show_power")

    def _chart(self, chart: Callable[..., float], x: float, y: float, width: int) -> float:
        """A world map's chart (turn order, phases, treasuries) at (x, y), in a batch of its
        own made again only when the state's turn, step, treasuries or holdings changed, or
        its place. Returns its bottom."""
        state = self.game.state
        key = (x, y, width, self.height, id(self.map), state.turn, state.power_index, state.phase_index,
               state.step_index, self.game.over, tuple(sorted(state.resources.items())),
               tuple(sorted(state.control.items())))
        if key != self._chart_key:
            for item in self._chart_items:
                item.delete()
            self._chart_items = []
            self.chart_batch = pyglet.graphics.Batch()
            groups = (pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1))
            self._chart_bottom = chart(self.game, self.colours, x, y, width, self.chart_batch, groups,
                                       self._chart_items)
            self._chart_key = key
        self._panel_items += self._chart_items          # the panel's, kept (not made again) with it
        self._pooled |= {id(item) for item in self._chart_items}
        return self._chart_bottom

    def _pick_words(self, pick: Pick) -> str:
        """What a click took, in words."""
        where = self.place_name(pick.space)
        if pick.counter is not None:
            owner, kind = pick.counter
            n = len(pick.pieces)
            pieces = self.game.state.pieces
            kinds: dict[str, int] = {}
            for pid in sorted(pick.pieces):
                if pid in pieces:
                    kinds[pieces[pid].kind] = kinds.get(pieces[pid].kind, 0) + 1
            if len(kinds) > 1:             # a mixed stack is said as mixed, each kind counted
                what = (f"{owner} units ×{n} (" + ", ".join(f"{k} ×{c}" if c > 1 else k for k, c in kinds.items())
                        + f") in {where}")
            else:
                what = f"{owner} {kind or 'units'}" + (f" ×{n}" if n > 1 else "") + f" in {where}"
        else:
            what = where
        return what

    def _score_line(self) -> str:
        by_owner: dict[str, list[str]] = {}
        for (owner, name), value in sorted(self.game.state.resources.items()):
            by_owner.setdefault(owner, []).append(f"{name} {value}")
        if not by_owner:
            return ""
        order = sorted(by_owner, key=lambda o: self.sides.index(o) if o in self.sides else len(self.sides))
        return "   ".join(f"{o}: {', '.join(by_owner[o])}" for o in order)

    def _build_log(self, lx: float, y: float, inner: int, fg: pyglet.graphics.Group, short: bool = False,
                   shorter: bool = False, share: float | None = None) -> float:
        """The last narrated events, newest at the bottom, in less room when the panel holds
        more (`short`, `shorter`) or the window is short (`share` of its height, folded);
        returns the top of the block."""
        lines = self.narration[-LOG_LINES:]
        if share is None:
            share = 0.1 if shorter else 0.14 if short else 0.24
            budget = max(70, min(LOG_LINES * 16, int(self.height * share)))
        else:
            budget = max(40, int(self.height * share))
        top = y
        for i, text in enumerate(reversed(lines)):
            colour = TEXT if i == 0 else DIM
            label = self._label(text, lx, top, size=9, color=colour, width=inner, anchor_y="bottom", group=fg)
            if top + label.content_height - y > budget:
                self._drop_label(label)
                break
            top += label.content_height + 1
        head = self._label("Recent events", lx, top + 4, size=9, bold=True, color=DIM, anchor_y="bottom", group=fg)
        return top + 4 + head.content_height

    def _build_computer_moves(self, lx: float, y: float, inner: int, fg: pyglet.graphics.Group,
                              most: int | None = None) -> float:
        """What the numbers on the map stand for: the computer's last actions, one line each,
        the newest at the bottom (the `most` newest, when room is short); returns the top of
        the block."""
        top = y
        for n, move in list(reversed(list(enumerate(self.computer_moves, 1))))[:most]:
            label = self._fit_text(f"{n}. {move.player}: {move.label}", inner - 4, x=lx + 4, y=top, size=8.5,
                                   color=COMPUTER_INK if n == len(self.computer_moves) else DIM,
                                   anchor_y="bottom", group=fg)
            top += label.content_height + 1
        head = self._label(f"The computer's last moves (the magenta {plural(self._noun())}, by number)",
                           lx, top + 3, size=8.5, bold=True, color=COMPUTER_INK, anchor_y="bottom", group=fg)
        return top + 3 + head.content_height

    def _build_battle(self, lx: float, y: float, inner: int, bg: pyglet.graphics.Group,
                      fg: pyglet.graphics.Group, share: float = 0.17,
                      now: Any = None) -> float:
        """The battle box, its bottom at `y`: the battle's name (the action that began it),
        the battle standing now (`now`: each side's units with what they hit on, and the odds
        from the calculator), the dice
        rolled (faces drawn as dice, hits and misses coloured) and what came of them, the
        newest kept when it does not all fit in `share` of the window's height (0: what began
        it and what became of the units, the dice left to the log). Returns the top of the box."""
        battle = self.battles.battle
        if now is not None and now.about and not self.battles.open:
            battle = None                  # a new battle about to be fought: the last one is done
        self.dice_labels = []
        pad = 7
        width = inner - 2 * pad
        budget = max(90, int(self.height * share)) if share else 0
        blocks: list[tuple[str, Any]] = []          # ("text", str) or ("dice", [Roll, ...])
        for line in (now.lines if now is not None else ()):
            blocks.append(("sides", line))
        if now is not None and now.odds is not None:
            blocks.append(("odds", now.odds))
        for _, item in (battle.items if battle is not None else ()):
            if isinstance(item, Roll):
                if blocks and blocks[-1][0] == "dice" and not item.words:
                    blocks[-1][1].append(item)
                else:
                    if item.words and item.at is None:
                        blocks.append(("text", f"{item.words}:"))
                    blocks.append(("dice", [item]))     # dice rolled to hit carry their words
            else:
                blocks.append(("text", item))
        fates = [(f"{owner} {fate}: {self._unit_words(units)}", FATE_INK[fate])
                 for owner, fate, units in (battle.fates() if battle is not None else ())]   # last
        if not share and len(fates) > 1:         # folded to its fates: every side's, on one line
            fates = [(" · ".join(text for text, _ in fates), TEXT)]
        if fates:
            budget += int(self.height * 0.06)
        if now is not None and budget:           # the sides standing now: room of their own
            budget += sum(self._text_height(line, width) + 2 for line in now.lines)
        name = (battle.title + ("  (being fought)" if battle.undecided else "")) if battle is not None else \
            now.title if now is not None else "Battle"
        head = self._label(name,
                           lx + pad, 0, size=9.5, bold=True, color=ACCENT, width=width, group=fg)
        used = head.content_height + 2 * pad + 4
        tail: list[tuple[str, Any, float]] = []
        for text, ink in fates:
            fh = self._text_height(text, width)
            if used + fh + 2 > budget * 0.7 and tail:
                break
            tail.append(("fate", (text, ink), fh))
            used += fh + 2
        # then the dice, the newest first while they fit, then the words between them: a line
        # that does not fit is left to the log
        heights = [self._text_height(p, width) if w in ("text", "sides") else
                   self._text_height(self._odds_words(p), width) + ODDS_BAR + 4 if w == "odds" else
                   self._dice_height(p, width) for w, p in blocks]
        if now is not None and now.odds is not None:        # the odds show in the smallest box too
            budget += next(h for (w, _), h in zip(blocks, heights) if w == "odds") + 2
        keep: set[int] = set()
        for kinds in (("odds", "sides"), ("dice",), ("text",)):
            for i in reversed(range(len(blocks))):
                if blocks[i][0] not in kinds:
                    continue
                if used + heights[i] + 2 > budget and (keep or tail):
                    if kinds != ("text",):
                        break
                    continue
                keep.add(i)
                used += heights[i] + 2
        shown: list[tuple[str, Any, float]] = [(blocks[i][0], blocks[i][1], heights[i]) for i in sorted(keep)]
        cut = len(shown) < len(blocks) or len(tail) < len(fates)
        shown += tail
        if cut:
            used += 14
        box_h = used
        items = self._panel_items
        items += framed(lx, y, inner, box_h, 1, BATTLE_BG, BATTLE_EDGE, self.panel, bg)
        self.battle_rect = (lx, y, inner, box_h)
        ty = y + box_h - pad
        head.y = round(ty)
        ty -= head.content_height + 4
        if cut:
            self._label("(more in Recent events)" if FOLDS[self.fold][0] != 0 else "(more in a taller window)",
                        lx + pad, ty, size=8, color=DIM, group=fg)
            ty -= 14
        dice_group = pyglet.graphics.Group(order=2)
        face_group = pyglet.graphics.Group(order=3)
        for what, payload, h in shown:
            if what == "fate":
                self._label(payload[0], lx + pad, ty, size=9, width=width, color=payload[1], group=fg)
            elif what in ("text", "sides"):
                self._label(payload, lx + pad, ty, size=9, width=width, group=fg)
            elif what == "odds":
                self._draw_odds(payload, lx + pad, ty, width, bg, fg)
            else:
                words = payload[0].words if payload[0].at is not None else ""
                if words:                  # whose dice, what they hit on, how many hit: above them
                    self._label(words, lx + pad, ty, size=9, width=width, color=DIM, group=fg)
                    ty -= self._text_height(words, width) + 2
                self._draw_dice(payload, lx + pad, ty, width, dice_group, face_group)
                ty += (self._text_height(words, width) + 2) if words else 0
            ty -= h + 2
        return y + box_h

    @staticmethod
    def _odds_words(r: dict[str, Any]) -> str:
        from clients.gui_calculator import bars

        words = " · ".join(f"{w.replace('_', ' ')} {100 * p:.0f}%" for w, p in bars(r))
        return (f"Odds in {r['where']}" + (" (the units left, as a new battle)" if r.get("units_left") else "")
                + f": {words}")

    def _draw_odds(self, r: dict[str, Any], x: float, top: float, width: int, bg: pyglet.graphics.Group,
                   fg: pyglet.graphics.Group) -> None:
        """The calculator's odds of the battle about to be fought, as one bar in three parts."""
        from clients.gui_calculator import BAR_INK, bars

        text = self._odds_words(r)
        self._label(text, x, top, size=9, width=width, color=TEXT, group=fg)
        bar_y = top - self._text_height(text, width) - ODDS_BAR - 2
        left = 0.0
        group = pyglet.graphics.Group(order=2)
        for what, p in bars(r):
            if p > 0:
                self._panel_items.append(shapes.Rectangle(x + width * left, bar_y, max(1.0, width * p), ODDS_BAR,
                                                          color=BAR_INK[what], batch=self.panel, group=group))
            left += p

    def _unit_words(self, units: list[Fate]) -> str:
        """Units of one side that met one fate, in words: "Infantry (box 1: 1 hit) to 1514,
        Tank", several of a kind counted ("Infantry ×4"), the box the hits landed in and the
        hits a unit lived with in brackets. Names and counts only: a player never reads a
        piece's id."""
        groups: dict[tuple[str, str, str, int], list[Fate]] = {}
        for u in units:
            groups.setdefault((u.kind, u.to, u.box, u.box_hits), []).append(u)
        parts = []
        for (kind, to, box, box_hits), us in groups.items():
            words = kind if len(us) == 1 else f"{kind} ×{len(us)}"
            if box:
                words += f" ({box}: {box_hits} hit{'s' if box_hits != 1 else ''})"
            hits = sum(u.hits for u in us)
            if hits:
                words += f" ({hits} hit{'s' if hits != 1 else ''})"
            if to:
                words += f" to {self.place_name(to)}"
            parts.append(words)
        return ", ".join(parts)

    def _text_height(self, text: str, width: int) -> int:
        key_ = ("battle:" + text, width)
        got = self._heights.get(key_)
        if got is None:
            label = pyglet.text.Label(text, width=width, multiline=True, font_name=FONT, font_size=9)
            got = self._heights[key_] = (label.content_height, text)
            label.delete()
        return got[0]

    def _dice_height(self, rolls: list[Roll], width: int) -> int:
        """A block of dice: their rows, under the words of dice rolled to hit."""
        words = rolls[0].words if rolls[0].at is not None else ""
        return self._dice_rows(rolls, width) * (DIE + 3) + ((self._text_height(words, width) + 2) if words else 0)

    @staticmethod
    def _dice_rows(rolls: list[Roll], width: int) -> int:
        rows, x = 1, 0
        for n, roll in enumerate(rolls):
            for i, _ in enumerate(roll.faces):
                step = DIE + 3 + (6 if i == 0 and n else 0)
                if x + step > width and x:
                    rows, x = rows + 1, 0
                x += step
        return rows

    def _draw_dice(self, rolls: list[Roll], x0: float, top: float, width: int, group: pyglet.graphics.Group,
                   face_group: pyglet.graphics.Group) -> None:
        x, y = 0.0, top - DIE
        for n, roll in enumerate(rolls):
            for i, face in enumerate(roll.faces):
                colour = DICE[n % len(DICE)] if roll.at is None else DIE_HIT if face <= roll.at else DIE_MISS
                gap = 6 if i == 0 and n else 0
                if x + gap + DIE + 3 > width and x:
                    x, y, gap = 0.0, y - DIE - 3, 0
                x += gap
                self._panel_items += framed(x0 + x, y, DIE, DIE, 1, colour, (90, 90, 96), self.panel, group)
                label = self._label(str(face), x0 + x + DIE / 2, y + DIE / 2, size=9.5, bold=True, color=PIP,
                                    anchor_x="center", anchor_y="center", group=face_group)
                self.dice_labels.append(label)
                x += DIE + 3

    def _build_result(self, lx: float, y: float, inner: int, fg: pyglet.graphics.Group) -> None:
        head = self._label("Game over", lx, y, size=18, bold=True, color=ACCENT, group=fg)
        y -= head.content_height + 6
        self._label(result_text(self.game), lx, y, size=12, width=inner, group=fg)

    def _row_text(self, text: str, width: int) -> tuple[int, str]:
        """How tall an option row is with its label wrapped to `width`, and the label as shown:
        cut (with an ellipsis) past ROW_LINES lines. Cached."""
        key_ = (text, width)
        got = self._heights.get(key_)
        if got is None:
            label = pyglet.text.Label(text, width=width, multiline=True, font_name=FONT, font_size=10)
            most = self._lines_height(width)
            shown = text
            if label.content_height > most + 1:
                lo, hi = 1, len(text)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    label.text = text[:mid].rstrip() + "…"
                    if label.content_height <= most + 1:
                        lo = mid
                    else:
                        hi = mid - 1
                shown = text[:lo].rstrip() + "…"
                label.text = shown
            got = self._heights[key_] = (max(ROW_H, label.content_height + 8), shown)
            label.delete()
        return got

    def _lines_height(self, width: int) -> int:
        key_ = ("\n" * ROW_LINES, width)
        got = self._heights.get(key_)
        if got is None:
            label = pyglet.text.Label("\n".join("Ag" for _ in range(ROW_LINES)), width=width, multiline=True,
                                      font_name=FONT, font_size=10)
            got = self._heights[key_] = (label.content_height, "")
            label.delete()
        return got[0]

    def _row_height(self, text: str, width: int) -> int:
        return self._row_text(text, width)[0]

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
        if self.pick is not None:
            where = self.place_name(self.second.space if self.narrowed is not None and self.second
                                    else self.pick.space)
            if self.narrowed is not None:
                note = f"{len(options)} options go to {where}: choose one"
            elif options:
                lit = self.targets()[0]
                noun = self._noun(lit)
                note = (f"{len(options)} of {len(d.options)} options name {where}"
                        + ((f" · click the lit {noun}" if len(lit) == 1 else
                            f" · click one of the {len(lit)} lit {plural(noun)}")
                           if lit and self.human_turn() else ""))
            else:
                note = f"no option names {where}"
        elif self.computer_turn():
            note = ("the computer is choosing…" if self.autoplay and not self._computer_stopped
                    else "the computer's turn (stopped)" if self._computer_stopped else "the computer's turn")
        else:
            note = f"{len(d.options)} option{'s' if len(d.options) != 1 else ''}"
            direct, sources = self.at_rest()
            if direct or sources:
                note += f" · click a unit or an outlined {self._noun(direct | sources)} on the map"
        nl = self._fit_text(note, inner, x=lx, y=y, size=9, color=ACCENT if self.pick else DIM, group=fg)
        y -= nl.content_height + 6

        space = max(ROW_H, y - bottom)
        self.cursor = min(max(self.cursor, 0), max(0, len(options) - 1))
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
        self._row_full = {}
        enabled = self.human_turn()
        ry = y
        for index in range(self.scroll, self.scroll + fit):
            action = options[index]
            text = action.label or str(action)
            h, shown = self._row_text(text, text_w)
            if shown != text:
                self._row_full[index] = text
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
            self._label(shown, lx + 36, ry + h - 5, size=10, width=text_w, color=colour, anchor_y="top", group=fg)
            self.option_rows.append((index, action, (lx, ry, row_w, h)))
        if not options:
            self._label(f"(no option names this {self._noun([self.pick.space])})" if self.pick else "(no options)", lx + 8, y - 6,
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
