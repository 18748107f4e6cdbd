"""Buying with quantities in the window: + and - for each thing offered, the running total and
what is left, one button to buy it all. The box is docked along the bottom of the map (its
southern seas, above the tray), in columns, so that it hides none of the land a player buys
for; it takes the legend's place there while open; fold makes it one line (the legend above).

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
ROW_H = 22
HEAD_H = 30             # the box's title row: who buys, the total, Buy, Clear and fold
CELL_W = 215            # the least width of a thing offered with its - and +
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
        total = sum(self.counts.values())
        add = self._items.append
        # docked along the map's bottom edge, over the tray's top: the southern seas, no map
        # the player buys for; its own width, its cells in as many columns as fit
        ax, ay, aw, _ = win.map_area()
        x, w = ax + 8, aw - 16
        head = (f"{player} buys: {total} unit{'s' if total != 1 else ''} · "
                + (", ".join(f"{n} {r.upper() if len(r) <= 3 else r}" for r, n in spent.items()) or "nothing")
                + f" spent · {money} left")
        cols = max(1, min(len(options), int(w - 16) // CELL_W))
        rows = 0 if self.folded else -(-len(options) // cols)
        h = HEAD_H + rows * ROW_H + (8 if rows else 0) + (18 if self.why and rows else 0)
        y = ay + 6
        self.rect = (x, y, w, h)
        add(shapes.Rectangle(x, y, w, h, color=BOX, batch=self.batch))
        add(shapes.Box(x, y, w, h, thickness=2, color=EDGE, batch=self.batch))
        ty = y + h - HEAD_H + 8
        fold = (x + w - 66, ty - 4, 56.0, 20.0)
        add(shapes.Rectangle(*fold, color=BUTTON, batch=self.batch))
        add(self._label("open" if self.folded else "fold", fold[0] + fold[2] / 2, ty, 9, anchor="center"))
        self.buttons.append((fold, "fold", None))
        right = fold[0] - 8
        if not self.folded:
            clear = (right - 70, ty - 5, 70.0, 22.0)
            buy = (clear[0] - 8 - 130, ty - 5, 130.0, 22.0)
            add(shapes.Rectangle(*buy, color=GO if total else BUTTON, batch=self.batch))
            add(self._label(f"Buy {total} (Enter)" if total else "Buy", buy[0] + buy[2] / 2, ty, 10, bold=True,
                            anchor="center"))
            add(shapes.Rectangle(*clear, color=BUTTON, batch=self.batch))
            add(self._label("Clear", clear[0] + clear[2] / 2, ty, 10, anchor="center"))
            self.buttons += [(buy, "buy", None), (clear, "clear", None)]
            right = buy[0] - 8
        add(self._label(head, x + 10, ty, 10, bold=True, color=EDGE, width=right - x - 14))
        if self.folded:
            return
        cw = (w - 16) / cols
        for i, action in enumerate(options):
            cx = x + 8 + (i % cols) * cw
            ry = y + h - HEAD_H - (i // cols + 1) * ROW_H
            n = self.counts.get(action, 0)
            text = win.words((action.label or str(action)).removeprefix(f"{action.kind} "))
            add(self._label(text, cx + 2, ry + 7, 9, color=TEXT if n else DIM, width=cw - 92))
            minus = (cx + cw - 80, ry + 3, 22.0, 17.0)
            plus = (cx + cw - 28, ry + 3, 22.0, 17.0)
            for rect, sign, by in ((minus, "−", -1), (plus, "+", 1)):
                add(shapes.Rectangle(*rect, color=BUTTON, batch=self.batch))
                add(self._label(sign, rect[0] + rect[2] / 2, ry + 7, 11, bold=True, anchor="center"))
                self.buttons.append((rect, "+" if by > 0 else "-", action))
            add(self._label(str(n), cx + cw - 42, ry + 7, 10.5, bold=bool(n), anchor="center"))
        if self.why:
            add(self._label(self.why, x + 10, y + 8, 9, color=(255, 150, 130, 255), width=w - 20))

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
                    win.refresh(map_changed=False)          # the legend goes above it, or away
                elif what == "clear":
                    self.counts, self.why = {}, ""
                    self.build(win, force=True)
                elif action is not None:
                    self.change(win, action, 1 if what == "+" else -1)
                win.invalidate()
                break
        return True
