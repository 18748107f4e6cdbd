"""Buying with quantities in the window: + and - for each thing offered, the running total and
what is left, one button to buy it all.

Which options are bought this way is read from the options, never from a rule: those of a
decision's options of one kind that name no piece and no space (the most of them), when they
stay offered after one of them is played (LHTR's `buy Infantry`, `buy Tank`...). Options that
name a space (AARHE's infantry raised at a city, a factory) are still played on the map. The total and what
is left are what the rules make of the basket: its options played in turn on copies of the
state (engine.flow.apply), the player's resources read before and after; a + the rules refuse
says why in their words. Buying plays the rules' own options, one a unit.
"""

from __future__ import annotations

from typing import Any, Literal

import pyglet
from pyglet import shapes

from engine import flow
from engine.actions import Action, Decision, IllegalAction
from engine.state import GameState

from .clicks import Reader

FONT = "DejaVu Sans"
BOX = (30, 33, 40, 240)
EDGE = (236, 196, 92, 255)
TEXT = (235, 235, 235, 255)
DIM = (160, 164, 172, 255)
BUTTON = (70, 76, 90)
GO = (60, 120, 70)
ROW_H = 21
Rect = tuple[float, float, float, float]


def repeatable(decision: Decision | None, state: GameState, rs: Any) -> list[Action]:
    """The options bought by quantity, or [] when the decision is not such a choice."""
    if decision is None:
        return []
    reader = Reader(decision, state, state.board)
    options = [a for a in decision.options if a != decision.finish
               and reader.named(a) == (frozenset(), frozenset())]      # what is bought on the map stays there
    kinds = {a.kind for a in options}
    options = [a for a in options if a.kind == max(kinds, key=lambda k: sum(o.kind == k for o in options))] \
        if kinds else []
    if len(options) < 2:
        return []
    try:
        _, again = flow.apply(rs, state, options[0])
    except IllegalAction:
        return []
    if again is None or again.kind != decision.kind or options[0] not in again.options:
        return []
    return options


def _left(state: GameState, player: str) -> dict[str, int]:
    return {res: n for (who, res), n in state.resources.items() if who == player}


class Basket:
    """The buying box: counts by option, its shapes, and where its buttons are."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.counts: dict[Action, int] = {}
        self.options: list[Action] = []
        self.key: Any = None
        self.why = ""
        self.folded = False                 # folded to its title, to see the map under it
        self.rect: Rect | None = None
        self.buttons: list[tuple[Rect, str, Action | None]] = []
        self._items: list[Any] = []

    # -- what the rules make of the basket ----------------------------------------------------
    def tried(self, win: Any, counts: dict[Action, int]) -> tuple[GameState | None, str]:
        """The state after the basket is bought, or None and the rules' reason it cannot be."""
        g = win.game
        state, d = g.state, g.decision
        for action, n in counts.items():
            for _ in range(n):
                if d is None or action not in d.options:
                    return None, f"{action.label or action} is no longer offered"
                try:
                    state, d = flow.apply(g.ruleset, state, action)
                except IllegalAction as e:
                    return None, e.reason
        return state, ""

    def change(self, win: Any, action: Action, by: int) -> None:
        counts = dict(self.counts)
        counts[action] = max(0, counts.get(action, 0) + by)
        if by > 0:
            after, why = self.tried(win, counts)
            if after is None:
                self.why = why
                self.build(win, force=True)
                return
        self.counts = {a: n for a, n in counts.items() if n}
        self.why = ""
        self.build(win, force=True)

    def buy(self, win: Any) -> None:
        """Play the basket: each option as many times as counted, in the order offered."""
        if not self.counts:
            return
        basket = [a for a in self.options for _ in range(self.counts.get(a, 0))]
        self.counts = {}
        for action in basket:
            if not win.choose(action):
                break
        self.build(win, force=True)

    # -- the box ----------------------------------------------------------------------------------
    def build(self, win: Any, force: bool = False) -> None:
        g = win.game
        d = win.decision if g is not None else None
        options = repeatable(d, g.state, g.ruleset) if d is not None and win.human_turn() else []
        key = (id(d), len(g.actions) if g is not None else 0, win.width, win.height, win.panel_x if g else 0,
               self.folded)
        if key == self.key and not force:
            return
        if options != self.options:
            self.counts, self.why = {}, ""
        self.key, self.options = key, options
        for item in self._items:
            item.delete()
        self._items = []
        self.buttons = []
        self.rect = None
        if not options:
            return
        player = d.player  # type: ignore[union-attr]
        before = _left(g.state, player)
        after_state, _ = self.tried(win, self.counts)
        after = _left(after_state, player) if after_state is not None else before
        spent = {r: before[r] - after.get(r, 0) for r in before if before[r] != after.get(r, 0)}
        money = ", ".join(f"{n} {r.upper() if len(r) <= 3 else r}" for r, n in after.items()) or "-"
        w = 300
        total = sum(self.counts.values())
        add = self._items.append
        if self.folded:
            h = 28
            x, y = max(8, win.panel_x - w - 12), win.height - h - 12
            self.rect = (x, y, w, h)
            add(shapes.Rectangle(x, y, w, h, color=BOX, batch=self.batch))
            add(shapes.Box(x, y, w, h, thickness=2, color=EDGE, batch=self.batch))
            add(self._label(f"{player} buys: {total} unit{'s' if total != 1 else ''} · {money} left   [open]",
                            x + 10, y + 9, 9.5, color=EDGE, width=w - 20))
            self.buttons = [((x, y, float(w), float(h)), "fold", None)]
            return
        rows = len(options)
        h = 64 + rows * ROW_H + 44 + (18 if self.why else 0)
        x, y = max(8, win.panel_x - w - 12), win.height - h - 12     # over the map's top right: the Pacific
        self.rect = (x, y, w, h)
        add(shapes.Rectangle(x, y, w, h, color=BOX, batch=self.batch))
        add(shapes.Box(x, y, w, h, thickness=2, color=EDGE, batch=self.batch))
        ty = y + h - 20
        add(self._label(f"{player} buys", x + 10, ty, 11, bold=True))
        fold = (x + w - 60, ty - 4, 50.0, 20.0)
        add(shapes.Rectangle(*fold, color=BUTTON, batch=self.batch))
        add(self._label("fold", fold[0] + fold[2] / 2, ty, 9, anchor="center"))
        self.buttons.append((fold, "fold", None))
        ty -= 22
        add(self._label(f"{total} unit{'s' if total != 1 else ''} · "
                        + (", ".join(f"{n} {r.upper() if len(r) <= 3 else r}" for r, n in spent.items()) or "nothing")
                        + f" spent · {money} left", x + 10, ty, 9.5, color=EDGE))
        ry = ty - 10
        for action in options:
            ry -= ROW_H
            n = self.counts.get(action, 0)
            text = win.words((action.label or str(action)).removeprefix(f"{action.kind} "))
            add(self._label(text, x + 10, ry + 7, 9.5, color=TEXT if n else DIM, width=w - 110))
            minus = (x + w - 92, ry + 3, 24.0, 18.0)
            plus = (x + w - 34, ry + 3, 24.0, 18.0)
            for rect, sign, by in ((minus, "−", -1), (plus, "+", 1)):
                add(shapes.Rectangle(*rect, color=BUTTON, batch=self.batch))
                add(self._label(sign, rect[0] + rect[2] / 2, ry + 7, 11, bold=True, anchor="center"))
                self.buttons.append((rect, "+" if by > 0 else "-", action))
            add(self._label(str(n), x + w - 50, ry + 7, 10.5, bold=bool(n), anchor="center"))
        by_ = y + 10
        if self.why:
            add(self._label(self.why, x + 10, y + 40, 9, color=(255, 150, 130, 255), width=w - 20))
        buy = (x + 10, by_, 150.0, 24.0)
        clear = (x + 170, by_, 80.0, 24.0)
        add(shapes.Rectangle(*buy, color=GO if total else BUTTON, batch=self.batch))
        add(self._label(f"Buy {total} (Enter)" if total else "Buy", buy[0] + buy[2] / 2, by_ + 7, 10, bold=True,
                        anchor="center"))
        add(shapes.Rectangle(*clear, color=BUTTON, batch=self.batch))
        add(self._label("Clear", clear[0] + clear[2] / 2, by_ + 7, 10, anchor="center"))
        self.buttons += [(buy, "buy", None), (clear, "clear", None)]

    def _label(self, text: str, x: float, y: float, size: float, bold: bool = False,
               color: tuple[int, int, int, int] = TEXT, width: float | None = None,
               anchor: Literal["left", "center", "right"] = "left") -> Any:
        label = pyglet.text.Label(text, x=round(x), y=round(y), font_name=FONT, font_size=size,
                                  weight="bold" if bold else "normal", color=color, anchor_x=anchor,
                                  batch=self.batch)
        if width is not None and label.content_width > width:
            while len(text) > 4 and label.content_width > width:
                text = text[:-2]
                label.text = text + "…"
        return label

    def contains(self, x: float, y: float) -> bool:
        r = self.rect
        return r is not None and r[0] <= x < r[0] + r[2] and r[1] <= y < r[1] + r[3]

    def click(self, win: Any, x: float, y: float) -> bool:
        """A click in the box: a button pressed (True), or nothing of the box's (False)."""
        if not self.contains(x, y):
            return False
        for (bx, by, bw, bh), what, action in self.buttons:
            if bx <= x < bx + bw and by <= y < by + bh:
                if what == "buy":
                    self.buy(win)
                elif what == "fold":
                    self.folded = not self.folded
                    self.build(win, force=True)
                elif what == "clear":
                    self.counts, self.why = {}, ""
                    self.build(win, force=True)
                elif action is not None:
                    self.change(win, action, 1 if what == "+" else -1)
                win.invalidate()
                break
        return True
