"""Under the map: the tracks (the turns, and the rules' own tracks such as VP) and the
off-board areas (reserves, reinforcement charts), in the window's own coordinates.

Nothing here knows a rule. The areas are those the scenario declares (`GameLogic.areas`)
and any other space off the board that holds pieces. An area's id, split at its `:`s, says
where it goes: when its last part is a whole number the area is one column of a chart, the
rest of the id naming the chart (`chart:Northern:3` is column 3 of chart `chart:Northern`);
columns go in the order of their numbers, which are turns: each is headed by the turn's
name, and the current turn's column is lit. Any other id is a box of its own. The pieces
there are the map's counters (gui_map.draw_counter), one a side and kind with how many,
and clicking one does what clicking a counter on the map does.

The turn track shows every turn of the game by name (in its colour when the name is a
colour's), the current one marked; each of the rules' tracks (`GameLogic.tracks`: name ->
value and target) is a bar of its value against its target.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyglet
from pyglet import shapes

from clients.gui_map import (
    FONT,
    HOVER,
    MENTIONED,
    SELECTED,
    Colour,
    SideColours,
    UnitLook,
    counter_width,
    draw_counter,
    framed,
    shade,
    symbol_for,
    text_colour_on,
)
from engine.state import GameState

Rect = tuple[float, float, float, float]
Counter = tuple[str, str, str, float, float, float, float]      # (space, owner, kind, x, y, w, h), as the map's

TRAY_BG: Colour = (30, 32, 36)
TRAY_EDGE: Colour = (84, 88, 98)
BOX_BG: Colour = (44, 47, 53)
BOX_EDGE: Colour = (78, 82, 92)
LATER_BG: Colour = (37, 39, 44)           # a chart column whose turn has not come
NOW_BG: Colour = (70, 62, 30)             # the current turn's column
NOW_EDGE: Colour = (255, 214, 0)
TITLE: tuple[int, int, int, int] = (214, 218, 226, 255)
DIM: tuple[int, int, int, int] = (146, 150, 160, 255)
BAR_BG: Colour = (56, 60, 68)
BAR_FILL: Colour = (236, 190, 40)
BAR_DONE: Colour = (255, 120, 60)
TARGET: tuple[int, int, int, int] = (0, 190, 120, 255)
SOURCE: tuple[int, int, int, int] = (255, 255, 255, 150)

#: the colour a turn named after one is drawn in
TURN_COLOURS: dict[str, Colour] = {
    "red": (192, 40, 36), "blue": (40, 86, 196), "green": (34, 138, 58), "yellow": (232, 200, 40),
    "black": (16, 16, 18), "gray": (128, 128, 132), "grey": (128, 128, 132), "purple": (122, 56, 166),
    "white": (240, 240, 236), "orange": (232, 124, 24), "brown": (124, 76, 36), "pink": (228, 132, 168),
    "violet": (140, 90, 200), "cyan": (40, 180, 200), "gold": (212, 170, 40), "silver": (180, 184, 190),
}

PAD = 6
GAP = 6                  # between boxes
TITLE_PT = 7.5
HEAD_PT = 7
ROW_MOST = 5             # counters in a row of an area of its own, at most
SIZES = (22.0, 20.0, 18.0, 17.0, 16.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0)


# -- what goes where ---------------------------------------------------------------------------------
def split_area(sid: str) -> tuple[str, int | None]:
    """An off-board area's chart and column: `GROUP:N` (N a whole number) is column N of
    chart GROUP; any other id is a box of its own: (the id, None)."""
    head, sep, last = sid.rpartition(":")
    if sep and head and re.fullmatch(r"-?\d+", last):
        return head, int(last)
    return sid, None


@dataclass(frozen=True)
class Column:
    """One off-board area: a box of its own, or one column of a chart."""

    id: str
    name: str
    index: int | None = None


@dataclass
class AreaGroup:
    """A box under the map: one area, or a chart's columns in order."""

    key: str
    title: str
    columns: list[Column] = field(default_factory=list)

    @property
    def charted(self) -> bool:
        return any(c.index is not None for c in self.columns)


def _fallback_name(sid: str) -> str:
    return sid.replace(":", " ")


def group_title(key: str, names: Sequence[str]) -> str:
    """A chart's title from its columns' names: what they have in common ("Northern
    reinforcement chart, turn 3" and "..., turn 4" -> "Northern reinforcement chart")."""
    names = [n for n in names if n]
    if not names:
        return _fallback_name(key)
    if len(names) == 1:
        common = re.sub(r"[\s,;:(\-–]*\S*\d+\S*\s*$", "", names[0]) or names[0]
    else:
        common = os.path.commonprefix(list(names))
        if not all(n == common for n in names):
            common = re.sub(r"\S*$", "", common)                    # back to a whole word
    common = common.rstrip(" ,;:-–(")
    if ", " in common:
        head, _, tail = common.rpartition(", ")
        if len(tail.split()) == 1:                                  # "..., turn": the column's word
            common = head
    return common or _fallback_name(key)


def area_groups(declared: Mapping[str, str], occupied: Iterable[str]) -> list[AreaGroup]:
    """The boxes under the map: the declared areas (id -> name) in their order, then the
    other off-board spaces that hold pieces; the columns of a chart together, by number."""
    ids = list(declared)
    ids += sorted(s for s in set(occupied) if s not in declared)
    groups: dict[str, AreaGroup] = {}
    for sid in ids:
        key, index = split_area(sid)
        group = groups.setdefault(key, AreaGroup(key, ""))
        group.columns.append(Column(sid, declared.get(sid) or _fallback_name(sid), index))
    for g in groups.values():
        g.columns.sort(key=lambda c: (c.index is None, c.index or 0))
        if g.charted:
            g.title = group_title(g.key, [declared.get(c.id, "") for c in g.columns if c.index is not None])
        else:
            g.title = g.columns[0].name
    standalone = [g for g in groups.values() if not g.charted]
    charts = [g for g in groups.values() if g.charted]
    return standalone + charts


def turn_track(turn_names: Sequence[str], turns: int | None, options: Mapping[str, Any], turn: int) -> list[str]:
    """The names of every turn the track shows: 1 to the last (the `last_turn` option if the
    rules have one, else the turns the sequence declares or names), or to the current turn
    when the game has gone past it. Empty when the game says nothing of its length."""
    last = options.get("last_turn")
    if not isinstance(last, int) or isinstance(last, bool) or last <= 0:
        last = turns or len(turn_names)
    if not last:
        return []
    n = max(last, turn)
    return [turn_names[i] if i < len(turn_names) else f"Turn {i + 1}" for i in range(n)]


def turn_colour(name: str) -> Colour | None:
    """The colour a turn's name names, if it does (`Red`, `Blue turn`)."""
    words = re.split(r"[^a-z]+", name.lower())
    return next((TURN_COLOURS[w] for w in words if w in TURN_COLOURS), None)


@dataclass
class TrayContent:
    """What the tray shows: the area boxes, the turn track and the rules' tracks."""

    groups: list[AreaGroup]
    turns: list[str]
    turn: int
    tracks: dict[str, tuple[int, int]]
    turn_name: Callable[[int], str] = str

    @property
    def empty(self) -> bool:
        return not self.groups and not self.turns and not self.tracks


# -- drawing ---------------------------------------------------------------------------------------
_widths: dict[tuple[str, float, bool], float] = {}


def text_width(text: str, pt: float, bold: bool = False) -> float:
    key = (text, pt, bold)
    got = _widths.get(key)
    if got is None:
        label = pyglet.text.Label(text, font_name=FONT, font_size=pt, weight="bold" if bold else "normal")
        got = _widths[key] = float(label.content_width)
        label.delete()
    return got


def _kind_rank(looks: Mapping[str, UnitLook], kind: str) -> int:
    order = ("infantry", "armour", "artillery", "aircraft", "naval", "transport", "supply", "letter")
    look = looks.get(kind)
    return order.index(look.symbol) if look and look.symbol in order else len(order)


def stacks_at(state: GameState, sid: str, side_order: Sequence[str],
              looks: Mapping[str, UnitLook]) -> list[tuple[str, str, int]]:
    """The counters of an area: (owner, kind, how many), the sides in order, then by kind."""
    counts: dict[tuple[str, str], int] = {}
    for p in state.pieces_at(sid):
        counts[(p.owner, p.kind)] = counts.get((p.owner, p.kind), 0) + 1
    rank = {s: i for i, s in enumerate(side_order)}
    keys = sorted(counts, key=lambda ok: (rank.get(ok[0], len(rank)), ok[0], _kind_rank(looks, ok[1]), ok[1]))
    return [(o, k, counts[(o, k)]) for o, k in keys]


@dataclass
class _Box:
    """One box's size: a chart (`col_w`: its columns' widths, `per_col` counters each) or an
    area of its own (`per_row` counters a row)."""

    group: AreaGroup
    w: float
    h: float
    col_w: list[float]
    per_col: int = 1
    per_row: int = 1
    numbers: bool = False            # a chart's columns headed by their numbers, not the turns' names


@dataclass
class _Slot:
    """Boxes stacked one above the other in a line of the tray (small areas share a slot)."""

    boxes: list[_Box]

    @property
    def w(self) -> float:
        return max(b.w for b in self.boxes)

    @property
    def h(self) -> float:
        return sum(b.h for b in self.boxes) + GAP * (len(self.boxes) - 1)


class Tray:
    """The strip under the map: a line of tracks, then the area boxes, flowing left to right
    and wrapping; the biggest counters that fit in the height it may take. Every shape is
    in window coordinates. `counters` are the drawn counters as the map layer's (space,
    owner, kind, x, y, w, h); `boxes` the area (or chart column) a click at a point takes."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.lights = pyglet.graphics.Batch()
        self._items: list[Any] = []
        self._light_items: list[Any] = []
        self.rect: Rect = (0.0, 0.0, 0.0, 0.0)
        self.height = 0.0
        self.counters: list[Counter] = []
        self.boxes: dict[str, Rect] = {}
        self.names: dict[str, str] = {}
        self.group_rects: dict[str, Rect] = {}
        #: the turn track: (turn, name, rect); the current turn's rect
        self.turn_boxes: list[tuple[int, str, Rect]] = []
        self.current_turn: Rect | None = None
        #: the rules' tracks: name -> (value, target, the bar's rect), and the labels saying them
        self.tracks: dict[str, tuple[int, int, Rect]] = {}
        self.track_labels: dict[str, pyglet.text.Label] = {}
        self.counter_h = 0.0
        self._key: Any = None
        self._rows = 1                # the most counters a column has held: the tray only grows
        #: the parts drawn: name -> (what they were drawn from, their shapes, what they said)
        self._parts: dict[str, tuple[Any, list[Any], Any]] = {}
        self._used: set[str] = set()
        #: the tray, its boxes, a chart's columns, text, what goes over text; then the counters
        self._groups = [pyglet.graphics.Group(order=i) for i in (0, 1, 2, 3, 4)]
        self._counter_groups = [pyglet.graphics.Group(order=i) for i in (5, 6, 7, 8)]

    # -- geometry -------------------------------------------------------------------------------
    def contains(self, x: float, y: float) -> bool:
        rx, ry, rw, rh = self.rect
        return self.height > 0 and rx <= x < rx + rw and ry <= y < ry + rh

    def space_at(self, x: float, y: float) -> str | None:
        """The area (or chart column) under a window point, if any."""
        for sid, (bx, by, bw, bh) in self.boxes.items():
            if bx <= x < bx + bw and by <= y < by + bh:
                return sid
        return None

    def counter_at(self, x: float, y: float) -> Counter | None:
        for c in reversed(self.counters):
            _, _, _, cx, cy, w, h = c
            if cx <= x < cx + w and cy <= y < cy + h:
                return c
        return None

    @staticmethod
    def counter_pieces(state: GameState, counter: Sequence[Any]) -> frozenset[int]:
        """The pieces a counter stands for: its owner's pieces of its kind in its area."""
        sid, owner, kind = counter[0], counter[1], counter[2]
        return frozenset(p.id for p in state.pieces_at(sid) if p.owner == owner and (not kind or p.kind == kind))

    def counters_of(self, state: GameState, pieces: Container[int]) -> list[Counter]:
        return [c for c in self.counters if any(p in pieces for p in self.counter_pieces(state, c))]

    def describe(self, state: GameState, sid: str, turn_name: Callable[[int], str] = str) -> str:
        """A tooltip for an area: its name and what waits there, by formation."""
        name = self.names.get(sid) or _fallback_name(sid)
        _, index = split_area(sid)
        if index is not None and turn_name(index) not in name:
            name += f" ({turn_name(index)})"
        by: dict[tuple[str, str], dict[str, int]] = {}
        for p in state.pieces_at(sid):
            groups = by.setdefault((p.owner, p.kind), {})
            groups[p.group] = groups.get(p.group, 0) + 1
        if not by:
            return f"{name}: empty"
        parts = []
        for (owner, kind), groups in by.items():
            n = sum(groups.values())
            named = ", ".join(f"{g} {k}" for g, k in groups.items() if g)
            parts.append(f"{owner} {kind} ×{n}" + (f" ({named})" if named else ""))
        return f"{name}: " + "; ".join(parts)

    # -- layout ---------------------------------------------------------------------------------
    def _boxes(self, content: TrayContent, counts: Mapping[str, int], h: float, rows: int,
               numbers: bool) -> list[_Box]:
        out = []
        cw = counter_width(h)
        for g in content.groups:
            title_w = text_width(g.title, TITLE_PT, True) + 2 * PAD
            if g.charted:
                col_w = [max(cw + 6, text_width(self._head(content, c, numbers), HEAD_PT, True) + 5)
                         for c in g.columns]
                w = max(title_w, sum(col_w) + 2 * PAD - 2)
                extra = (w - 2 * PAD + 2 - sum(col_w)) / len(col_w)
                col_w = [c + extra for c in col_w]
                out.append(_Box(g, w, 30 + rows * (h + 2) + PAD + 2, col_w, per_col=rows, numbers=numbers))
            else:
                n = max(1, counts.get(g.columns[0].id, 0))
                w = max(title_w, min(n, ROW_MOST) * (cw + 4) - 4 + 2 * PAD)     # a row, while it is short
                per_row = max(1, int((w - 2 * PAD + 4) // (cw + 4)))
                lines = math.ceil(n / per_row)
                out.append(_Box(g, w, 15 + lines * (h + 2) + PAD + 2, [w - 2 * PAD], per_row=per_row))
        return out

    @staticmethod
    def _head(content: TrayContent, col: Column, numbers: bool) -> str:
        if col.index is None:
            return col.name
        return str(col.index) if numbers else content.turn_name(col.index)

    @staticmethod
    def _slots(boxes: list[_Box]) -> list[_Slot]:
        """Small areas one above the other, as high as the charts' boxes."""
        tall = max((b.h for b in boxes if b.group.charted), default=0.0)
        slots: list[_Slot] = []
        for b in boxes:
            last = slots[-1] if slots else None
            if (last is not None and not b.group.charted and not last.boxes[-1].group.charted
                    and last.h + GAP + b.h <= tall):
                last.boxes.append(b)
            else:
                slots.append(_Slot([b]))
        return slots

    @staticmethod
    def _flow(slots: list[_Slot], width: float) -> list[list[_Slot]]:
        lines: list[list[_Slot]] = [[]]
        used = 0.0
        for b in slots:
            if lines[-1] and used + GAP + b.w > width:
                lines.append([])
                used = 0.0
            used += (GAP if lines[-1] else 0) + b.w
            lines[-1].append(b)
        return [ln for ln in lines if ln]

    def _layout(self, content: TrayContent, counts: Mapping[str, int], rows: int, width: float,
                max_height: float, track_h: float) -> tuple[float, list[list[_Slot]]]:
        """The biggest counters that leave the fewest lines of boxes (the turns' names over a
        chart's columns, or their numbers where the names do not fit) within `max_height`."""
        tried: list[tuple[int, float, list[list[_Slot]]]] = []
        for h in SIZES:
            for numbers in (False, True):
                lines = self._flow(self._slots(self._boxes(content, counts, h, rows, numbers)), width)
                if self._height(lines, track_h) <= max_height or h == SIZES[-1]:
                    tried.append((len(lines), h, lines))
                    break
        fewest = min(n for n, _, _ in tried)
        _, h, lines = next(t for t in tried if t[0] == fewest)
        return h, lines

    def _track_line_h(self, content: TrayContent) -> float:
        return 24.0 if content.turns or content.tracks else 0.0

    # -- building -------------------------------------------------------------------------------
    def show(self, game: Any, areas: Mapping[str, str], x: float, width: float, max_height: float,
             colours: SideColours, looks: Mapping[str, UnitLook], side_order: Sequence[str],
             hidden: bool = False) -> bool:
        """Show where `game` stands (its scenario's `areas`: id -> name), built again only when
        something shown changed: the turn, the tracks, the pieces off the board, the size.
        True if it was."""
        state, rs = game.state, game.ruleset
        try:
            tracks = dict(rs.logic.tracks(state))
        except Exception:  # noqa: BLE001 - a track the rules cannot work out is left out, the game goes on
            tracks = {}
        board = state.board
        off = sorted((p.space, p.owner, p.kind, p.id) for p in state.pieces.values() if p.space not in board)
        key = (id(game), state.turn, tuple(tracks.items()), tuple(off), x, width, max_height, hidden)
        if key == self._key:
            return False                              # most moves are on the map
        self._key = key
        if hidden:
            content = TrayContent([], [], state.turn, {})
        else:
            options = getattr(rs.rules, "options", None) or {}
            structure = rs.structure
            content = TrayContent(area_groups(areas, {sid for sid, _, _, _ in off}),
                                  turn_track(structure.turn_names, structure.turns, options, state.turn),
                                  state.turn, tracks, structure.turn_name)
        self.build(x, width, max_height, state, content, colours, looks, side_order)
        return True

    def build(self, x: float, width: float, max_height: float, state: GameState, content: TrayContent,
              colours: SideColours, looks: Mapping[str, UnitLook], side_order: Sequence[str]) -> float:
        """Lay the tray out along the bottom of the window, from `x`, `width` wide and at most
        `max_height` tall (its boxes wrap and shrink to fit); returns its height (0: nothing
        to show). Only the parts that changed are drawn again (text is slow to lay out)."""
        self._used: set[str] = set()
        self.counters, self.boxes, self.group_rects = [], {}, {}
        self.names = {c.id: c.name for g in content.groups for c in g.columns}
        self.turn_boxes, self.current_turn, self.tracks, self.track_labels = [], None, {}, {}
        if content.empty:
            self._drop_unused()
            self.height, self.rect = 0.0, (x, 0.0, width, 0.0)
            return 0.0
        counts = {c.id: len(stacks_at(state, c.id, side_order, looks)) for g in content.groups for c in g.columns}
        charted = [counts[c.id] for g in content.groups if g.charted for c in g.columns]
        alone = [counts[g.columns[0].id] for g in content.groups if not g.charted]
        rows = max(charted) if charted else min(4, max(alone, default=1))
        self._rows = rows = max(self._rows, rows, 1)
        inner = width - 2 * PAD
        track_h = self._track_line_h(content)
        h, lines = self._layout(content, counts, rows, inner, max_height, track_h)
        self.counter_h = h
        height = self._height(lines, track_h)
        self.height = height
        self.rect = (x, 0.0, width, height)
        self._part("bg", (x, width, height), lambda: self._build_bg(x, width, height))
        top = height - PAD
        if track_h:
            ty = top - track_h
            key = (x, ty, inner, tuple(content.turns), content.turn, tuple(content.tracks.items()))
            self.turn_boxes, self.current_turn, self.tracks, self.track_labels = self._part(
                "tracks", key, lambda: self._build_tracks(x + PAD, ty, inner, track_h, content))
            top -= track_h + PAD
        for line in lines:
            line_h = max(slot.h for slot in line)
            sx = x + PAD
            for slot in line:
                by = top
                for box in slot.boxes:
                    if box.group.charted or len(slot.boxes) == 1:
                        box.h = line_h           # as tall as its line
                    self._build_box(box, sx, by - box.h, h, state, content, colours, looks, side_order)
                    by -= box.h + GAP
                sx += slot.w + GAP
            top -= line_h + GAP
        self._drop_unused()
        return height

    def _part(self, name: str, key: Any, draw: Callable[[], Any]) -> Any:
        """A part of the tray, drawn again only when its `key` changed; what `draw` returned."""
        self._used.add(name)
        old = self._parts.get(name)
        if old is not None and old[0] == key:
            return old[2]
        if old is not None:
            for item in old[1]:
                item.delete()
        self._items = []
        meta = draw()
        self._parts[name] = (key, self._items, meta)
        return meta

    def _drop_unused(self) -> None:
        for name in [n for n in self._parts if n not in self._used]:
            for item in self._parts.pop(name)[1]:
                item.delete()

    def _build_bg(self, x: float, width: float, height: float) -> None:
        b, bg = self.batch, self._groups[0]
        self._items.append(shapes.Rectangle(x, 0, width, height, color=TRAY_BG, batch=b, group=bg))
        self._items.append(shapes.Rectangle(x, height - 2, width, 2, color=TRAY_EDGE, batch=b, group=bg))

    @staticmethod
    def _height(lines: list[list[_Slot]], track_h: float) -> float:
        boxes = sum(max(b.h for b in ln) for ln in lines) + GAP * max(0, len(lines) - 1)
        return PAD + (track_h + PAD if track_h else 0) + boxes + (PAD if lines else 0)

    def _label(self, text: str, x: float, y: float, pt: float, color: tuple[int, int, int, int], group: Any,
               bold: bool = False, anchor_x: str = "left", anchor_y: str = "baseline") -> pyglet.text.Label:
        label = pyglet.text.Label(text, x=round(x), y=round(y), anchor_x=anchor_x, anchor_y=anchor_y, font_name=FONT,
                                  font_size=pt, weight="bold" if bold else "normal", color=color, batch=self.batch,
                                  group=group)
        self._items.append(label)
        return label

    def _fit(self, text: str, width: float, pt: float, bold: bool = False) -> str:
        if text_width(text, pt, bold) <= width:
            return text
        while len(text) > 3 and text_width(text + "…", pt, bold) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def _build_box(self, box: _Box, x: float, y: float, h: float, state: GameState, content: TrayContent,
                   colours: SideColours, looks: Mapping[str, UnitLook], side_order: Sequence[str]) -> None:
        """A box's frame (a part of its own) and each area's counters (a part each)."""
        g = box.group
        self.group_rects[g.key] = (x, y, box.w, box.h)
        cw = counter_width(h)
        places: list[tuple[str, float, float, int, bool]] = []        # area, x, top, per, by rows
        if not g.charted:
            col = g.columns[0]
            self.boxes[col.id] = (x, y, box.w, box.h - 15)
            places.append((col.id, x + PAD, y + box.h - 17, box.per_row, True))
        else:
            cx = x + PAD - 1
            body_top = y + box.h - 16
            for col, w in zip(g.columns, box.col_w, strict=True):
                self.boxes[col.id] = (cx, y + PAD - 2, w, body_top - (y + PAD - 2))
                places.append((col.id, cx + (w - cw) / 2, body_top - 17, box.per_col, False))
                cx += w
        key = (x, y, box.w, box.h, tuple(box.col_w), box.numbers, content.turn, g.title,
               tuple(c.id for c in g.columns))
        self._part("box:" + g.key, key, lambda: self._build_frame(box, x, y, content))
        for sid, px, top, per, by_rows in places:
            stacks = self._places(state, sid, px, top, h, per, by_rows, looks, side_order)
            self.counters += [(sid, owner, kind, sx, sy, cw, h) for owner, kind, _, sx, sy in stacks]
            self._part("counters:" + sid, (h, tuple(stacks)),
                       lambda stacks=stacks: self._draw_counters(stacks, h, colours, looks))

    def _build_frame(self, box: _Box, x: float, y: float, content: TrayContent) -> None:
        g = box.group
        b = self.batch
        _, mid, cols, fg, top = self._groups
        self._items += framed(x, y, box.w, box.h, 1, BOX_BG, BOX_EDGE, b, mid)
        self._label(self._fit(g.title, box.w - 2 * PAD, TITLE_PT, True), x + PAD, y + box.h - 12, TITLE_PT, TITLE,
                    fg, bold=True)
        if not g.charted:
            return
        cx = x + PAD - 1
        body_top = y + box.h - 16
        for col, w in zip(g.columns, box.col_w, strict=True):
            rect = (cx, y + PAD - 2, w, body_top - (y + PAD - 2))
            now = col.index == content.turn
            later = col.index is not None and col.index > content.turn
            fill = NOW_BG if now else LATER_BG if later else BOX_BG
            edge = NOW_EDGE if now else (62, 66, 74)
            self._items += framed(*rect, 2 if now else 1, fill, edge, b, cols)
            head = self._head(content, col, box.numbers)
            hc = turn_colour(content.turn_name(col.index)) if col.index is not None else None
            hx, hy = cx + w / 2, body_top - 9
            if hc is not None:
                sw = min(w - 4, text_width(head, HEAD_PT, True) + 6)
                self._items.append(shapes.Rectangle(hx - sw / 2, hy - 6, sw, 12,
                                                    color=shade(hc, 0.7) if later else hc, batch=b, group=fg))
                ink = text_colour_on(hc)
            else:
                ink = TITLE if not later else DIM
            self._label(self._fit(head, w - 4, HEAD_PT, True), hx, hy, HEAD_PT, ink, top, bold=True,
                        anchor_x="center", anchor_y="center")
            cx += w

    @staticmethod
    def _places(state: GameState, sid: str, x: float, top: float, h: float, per: int, by_rows: bool,
                looks: Mapping[str, UnitLook], side_order: Sequence[str]) -> list[tuple[str, str, int, float, float]]:
        """Where an area's counters go from (x, top): `per` a column, or with `by_rows` `per`
        a row; (owner, kind, how many, x, y) each."""
        cw = counter_width(h)
        out = []
        for i, (owner, kind, n) in enumerate(stacks_at(state, sid, side_order, looks)):
            row, col = divmod(i, per) if by_rows else divmod(i, per)[::-1]
            out.append((owner, kind, n, x + col * (cw + 4), top - (row + 1) * h - row * 2))
        return out

    def _draw_counters(self, stacks: list[tuple[str, str, int, float, float]], h: float, colours: SideColours,
                       looks: Mapping[str, UnitLook]) -> None:
        for owner, kind, n, cx, cy in stacks:
            look = looks.get(kind) or UnitLook(symbol_for(kind), kind[:1].upper())
            draw_counter(cx, cy, h, colours.counter(owner), look, n, self.batch, self._counter_groups, self._items)

    def _build_tracks(self, x: float, y: float, width: float, h: float, content: TrayContent) -> tuple[Any, ...]:
        """The turn track and the rules' tracks, in a line; returns what they show where:
        (turn boxes, the current turn's box, tracks, the tracks' labels)."""
        b = self.batch
        _, mid, _, fg, top_group = self._groups
        turn_boxes: list[tuple[int, str, Rect]] = []
        current: Rect | None = None
        tracks: dict[str, tuple[int, int, Rect]] = {}
        labels: dict[str, pyglet.text.Label] = {}
        cy = y + h / 2
        tx = x
        if content.turns:
            label = self._label("Turn", tx, cy, TITLE_PT, TITLE, fg, bold=True, anchor_y="center")
            tx += label.content_width + 6
            n = len(content.turns)
            box_w = max(text_width(t, HEAD_PT, True) for t in content.turns) + 10
            room = width * (0.62 if content.tracks else 1.0) - (tx - x)
            box_w = max(18.0, min(box_w, room / n - 2))
            for i, name in enumerate(content.turns):
                turn = i + 1
                bx = tx + i * (box_w + 2)
                rect = (bx, y + 2, box_w, h - 4)
                colour = turn_colour(name)
                past = turn < content.turn
                fill = colour if colour is not None else (66, 70, 80)
                if past:
                    fill = shade(fill, 0.45) if colour is None or sum(fill) > 60 else (40, 40, 44)
                now = turn == content.turn
                self._items += framed(*rect, 2 if now else 1, fill, NOW_EDGE if now else (20, 20, 22), b, mid)
                ink = text_colour_on(fill) if colour is not None else TITLE
                if past:
                    ink = (ink[0], ink[1], ink[2], 150)
                self._label(self._fit(name, box_w - 4, HEAD_PT, True), bx + box_w / 2, cy, HEAD_PT, ink, top_group,
                            bold=now, anchor_x="center", anchor_y="center")
                turn_boxes.append((turn, name, rect))
                if now:
                    current = rect
                    # a marker under the current turn, as the turn counter on a printed track
                    self._items.append(shapes.Triangle(bx + box_w / 2 - 5, y - 3, bx + box_w / 2 + 5, y - 3,
                                                       bx + box_w / 2, y + 3, color=NOW_EDGE, batch=b, group=top_group))
            tx += n * (box_w + 2) + 16
        for name, (value, target) in content.tracks.items():
            label = self._label(name, tx, cy, TITLE_PT, TITLE, fg, bold=True, anchor_y="center")
            tx += label.content_width + 6
            text = f"{value} / {target}"
            room = x + width - tx - text_width(text, TITLE_PT, True) - 16
            bar_w = max(40.0, min(room, 10.0 * max(target, 1), 260.0))
            rect = (tx, y + 5, bar_w, h - 10)
            self._items += framed(*rect, 1, BAR_BG, (20, 20, 22), b, mid)
            if target > 0:
                share = max(0.0, min(1.0, value / target))
                if share:
                    self._items.append(shapes.Rectangle(tx + 1, y + 6, (bar_w - 2) * share, h - 12,
                                                        color=BAR_DONE if value >= target else BAR_FILL,
                                                        batch=b, group=fg))
                if target <= 60:
                    step = 1 if target <= 30 else 5
                    for v in range(step, target, step):
                        mx = tx + 1 + (bar_w - 2) * v / target
                        self._items.append(shapes.Rectangle(mx, y + 6, 1, (h - 12) if v % 5 == 0 else (h - 12) / 2,
                                                            color=(24, 24, 28), batch=b, group=top_group))
            tracks[name] = (value, target, rect)
            tx += bar_w + 6
            labels[name] = self._label(text, tx, cy, TITLE_PT, TITLE, fg, bold=True, anchor_y="center")
            tx += text_width(text, TITLE_PT, True) + 18
        return turn_boxes, current, tracks, labels

    # -- the lights -------------------------------------------------------------------------------
    def light(self, state: GameState, *, sources: Iterable[str] = (), direct: Iterable[str] = (),
              targets: Iterable[str] = (), target_pieces: Container[int] = frozenset(),
              selected: Any = None, focus: Any = None, hovered: str | None = None,
              mentioned: Iterable[str] = ()) -> None:
        """The lights on the tray, as on the map: where a first click selects (`sources`) or
        plays (`direct`), where the selection can go (`targets`, and the counters of
        `target_pieces`), the selection and the focus (clients.clicks.Pick), the area under
        the mouse and those the hovered option names."""
        for item in self._light_items:
            item.delete()
        self.lights = pyglet.graphics.Batch()
        items: list[Any] = []
        self._light_items = items
        if self.height <= 0:
            return
        b = self.lights

        def box(rect: Rect, colour: tuple[int, int, int, int], line: float, inset: float = 0.0) -> None:
            rx, ry, rw, rh = rect
            items.append(shapes.Box(rx + inset, ry + inset, rw - 2 * inset, rh - 2 * inset, thickness=line,
                                    color=colour, batch=b))

        def around(counter: Counter, colour: tuple[int, int, int, int]) -> None:
            _, _, _, cx, cy, w, h = counter
            line = 2.0
            items.append(shapes.Box(cx - line, cy - line, w + 2 * line, h + 2 * line, thickness=line, color=colour,
                                    batch=b))

        direct = set(direct)
        for sid in set(sources) - direct:
            if sid in self.boxes:
                box(self.boxes[sid], SOURCE, 1.5, 3)       # inside the current turn's frame
        for sid in direct | set(targets):
            if sid in self.boxes:
                rx, ry, rw, rh = self.boxes[sid]
                items.append(shapes.Rectangle(rx, ry, rw, rh, color=(40, 230, 150, 60), batch=b))
                box(self.boxes[sid], TARGET, 2.5)
        for c in self.counters_of(state, target_pieces):
            around(c, TARGET)
        for sid in mentioned:
            if sid in self.boxes:
                box(self.boxes[sid], MENTIONED, 2, 2)
        for pick in (focus, selected):
            if pick is None or pick.space not in self.boxes:
                continue
            if pick.counter is not None:
                for c in self.counters_of(state, pick.pieces):
                    around(c, SELECTED)
            else:
                box(self.boxes[pick.space], SELECTED, 2.5, 1)
        if hovered is not None and hovered in self.boxes:
            box(self.boxes[hovered], HOVER, 1.5, 4)

    def draw(self) -> None:
        if self.height > 0:
            self.batch.draw()
            self.lights.draw()
