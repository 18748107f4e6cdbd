"""The map half of the window: where hexes sit on the screen, and the shapes that draw them.

Nothing here knows a rule. It draws what the board and the state say: who controls a space,
which pieces stand in it, the roads and rivers on the links, the towns and their VP. A
piece's counter carries a NATO-style symbol chosen from what the ruleset says of its kind
(the unit's tags, an optional `symbol` stat, the words of its name) against a generic
vocabulary of military symbols, or the kind's letter when nothing matches.
"""

from __future__ import annotations

import colorsys
import math
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet import shapes

from clients.textmap import space_noun
from clients.unit_shapes import placed, silhouette
from clients.view_frame import ViewFrame
from clients.words import spaced
from engine import hexgrid
from engine.board import Board
from engine.hexgrid import Hex
from engine.state import GameState

Colour = tuple[int, int, int]
Point = tuple[float, float]

FONT = ("DejaVu Sans", "Verdana", "Arial", "Helvetica")

BACKGROUND: Colour = (38, 40, 44)
NEUTRAL: Colour = (218, 212, 190)
ROAD: Colour = (150, 92, 40)
RIVER: Colour = (40, 100, 205)
BRIDGE: Colour = (150, 196, 240)
HOVER: tuple[int, int, int, int] = (255, 255, 255, 200)
SELECTED: tuple[int, int, int, int] = (255, 214, 0, 255)
VP_BADGE: Colour = (236, 190, 40)
MENTIONED: tuple[int, int, int, int] = (255, 120, 0, 240)
INK: tuple[int, int, int, int] = (24, 24, 28, 255)
SYMBOL: Colour = (250, 250, 246)

#: light fills for the territory of the sides, in the order the ruleset lists them, and the
#: dark, saturated colour of their counters: a counter stands out on any side's ground
PALETTE: tuple[tuple[Colour, Colour], ...] = (
    ((170, 184, 210), (40, 60, 104)),     # steel blue
    ((206, 206, 148), (72, 94, 24)),      # olive
    ((220, 172, 156), (146, 44, 28)),     # brick
    ((192, 176, 214), (86, 50, 136)),     # mauve
    ((160, 208, 200), (16, 104, 96)),     # teal
    ((226, 202, 140), (142, 98, 8)),      # ochre
    ((214, 170, 196), (128, 30, 90)),     # plum
    ((180, 204, 172), (40, 96, 40)),      # sage
)

#: sides named after a colour get that colour
NAMED: dict[str, tuple[Colour, Colour]] = {
    "red": ((226, 168, 158), (166, 32, 28)),
    "blue": ((166, 186, 226), (28, 62, 156)),
    "green": ((176, 210, 158), (30, 110, 40)),
    "yellow": ((232, 216, 136), (150, 120, 0)),
    "white": ((232, 232, 226), (90, 90, 96)),
    "black": ((168, 168, 172), (30, 30, 34)),
    "grey": ((190, 190, 190), (70, 70, 74)),
    "gray": ((190, 190, 190), (70, 70, 74)),
    "orange": ((236, 186, 140), (178, 82, 10)),
    "purple": ((196, 172, 220), (96, 40, 150)),
    "brown": ((206, 176, 146), (110, 66, 30)),
}


class SideColours(dict[str, Colour]):
    """Side -> territory fill; `counter(side)` -> its counters' colour. A side met only
    during play (an owner the ruleset did not list) gets the next free colours when first
    asked for."""

    def __init__(self, sides: Sequence[str] = ()) -> None:
        super().__init__()
        self._counters: dict[str, Colour] = {}
        for side in sides:
            named = NAMED.get(side.lower())
            if named is not None and named[0] not in self.values():
                self._set(side, named)
        for side in sides:
            if side not in self:
                self._set(side, self._next(side))

    def _set(self, side: str, pair: tuple[Colour, Colour]) -> None:
        self[side] = pair[0]
        self._counters[side] = pair[1]

    def _next(self, side: str) -> tuple[Colour, Colour]:
        used = set(self.values())
        return next((p for p in PALETTE if p[0] not in used), None) or _hashed(side)

    def __missing__(self, side: str) -> Colour:
        named = NAMED.get(side.lower())
        self._set(side, named if named is not None and named[0] not in self.values() else self._next(side))
        return self[side]

    def counter(self, side: str) -> Colour:
        if side not in self._counters:
            self[side]   # noqa: B018 - makes the colours
        return self._counters[side]


def side_colours(sides: Sequence[str]) -> SideColours:
    """Colours for every side: by name when the name is a colour, else from PALETTE."""
    return SideColours(sides)


def _hashed(name: str) -> tuple[Colour, Colour]:
    h = sum(ord(c) * 31 ** i for i, c in enumerate(name)) % 360 / 360

    def rgb(lightness: float, saturation: float) -> Colour:
        r, g, b = colorsys.hls_to_rgb(h, lightness, saturation)
        return int(r * 255), int(g * 255), int(b * 255)

    return rgb(0.76, 0.35), rgb(0.3, 0.6)


def shade(colour: Colour, factor: float) -> Colour:
    r, g, b = colour
    return (min(255, int(r * factor)), min(255, int(g * factor)), min(255, int(b * factor)))


def text_colour_on(colour: Colour) -> tuple[int, int, int, int]:
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 245, 255)


def font_pt(px: float) -> float:
    """Points for text `px` pixels tall (pyglet lays text out at 96 dpi)."""
    return px * 72 / 96


def abbreviations(kinds: Iterable[str]) -> dict[str, str]:
    """Short names for piece kinds: the initial, or more letters where initials clash."""
    kinds = sorted(set(kinds))
    out: dict[str, str] = {}
    n = 1
    todo = kinds
    while todo and n <= 4:
        first: dict[str, list[str]] = {}
        for k in todo:
            first.setdefault(k[:n].capitalize(), []).append(k)
        todo = []
        for ab, ks in first.items():
            if len(ks) == 1:
                out[ks[0]] = ab
            else:
                todo.extend(ks)
        n += 1
    for k in todo:
        out[k] = k[:4].capitalize()
    return out


# -- unit symbols ----------------------------------------------------------------------------

#: the NATO-style symbols the counters can show, and the words (in a unit's tags, its
#: `symbol` stat or its name) that call for each; the first match wins, tags before names
SYMBOL_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("aircraft", frozenset({"air", "aircraft", "plane", "airplane", "fighter", "bomber", "flying", "aviation"})),
    ("naval", frozenset({"naval", "sea", "ship", "fleet", "destroyer", "battleship", "cruiser", "submarine",
                         "carrier", "boat"})),
    ("armour", frozenset({"armour", "armor", "armoured", "armored", "tank", "tanks", "panzer", "mechanized",
                          "mechanised", "cavalry"})),
    ("artillery", frozenset({"artillery", "gun", "guns", "battery", "howitzer", "mortar"})),
    ("infantry", frozenset({"infantry", "foot", "rifle", "rifles", "militia", "paratroop", "paratroops",
                            "airborne", "marine", "marines", "grenadier", "grenadiers"})),
    ("transport", frozenset({"truck", "trucks", "transport", "lorry", "motor", "motorised", "motorized",
                             "wheeled", "wagon", "convoy"})),
    ("supply", frozenset({"supply", "supplies", "depot", "logistics", "ammunition", "fuel"})),
)
SYMBOL_NAMES = {
    "aircraft": "aircraft", "naval": "ship", "armour": "armour", "artillery": "artillery",
    "infantry": "infantry", "transport": "transport", "supply": "supply", "letter": "",
}


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z]+", text.lower()) if w}


def symbol_for(kind: str, unit: Any = None) -> str:
    """Which symbol a piece kind's counter carries (a key of SYMBOL_NAMES), from what the
    ruleset says of the kind: a `symbol` stat naming one, its tags, then its name."""
    stats = getattr(unit, "stats", None) or {}
    explicit = stats.get("symbol") if isinstance(stats, Mapping) else None
    tags = getattr(unit, "tags", None) or ()
    for words in (_words(str(explicit)) if explicit else set(), {t.lower() for t in tags}, _words(kind)):
        for symbol, vocabulary in SYMBOL_WORDS:
            if words & vocabulary:
                return symbol
    return "letter"


@dataclass(frozen=True)
class UnitLook:
    """How one piece kind is drawn: its symbol, and a letter (shown when the symbol is a
    letter, or when another kind shares the symbol)."""

    symbol: str
    letter: str
    tagged: bool = False
    shape: str = ""               # a ship's or an aircraft's silhouette (clients/unit_shapes.py)


def unit_looks(kinds: Iterable[str], units: Mapping[str, Any] | None = None) -> dict[str, UnitLook]:
    """A look for every piece kind; `units` is the ruleset's unit declarations by kind."""
    units = units or {}
    kinds = sorted(set(kinds) | set(units))
    letters = abbreviations(kinds)
    for k in kinds:
        short = getattr(units.get(k), "stats", {}).get("short") if units.get(k) is not None else None
        if isinstance(short, str) and 0 < len(short) <= 3:
            letters[k] = short
    symbols = {k: symbol_for(k, units.get(k)) for k in kinds}
    shapes_ = {k: silhouette(units.get(k)) for k in kinds}
    drawn = [shapes_[k] or symbols[k] for k in kinds]
    shared = {s for s in drawn if drawn.count(s) > 1}
    return {k: UnitLook(symbols[k], letters[k], (shapes_[k] or symbols[k]) in shared and symbols[k] != "letter",
                        shapes_[k]) for k in kinds}


def draw_counter(x: float, y: float, h: float, colour: Colour, look: UnitLook, count: int | None,
                 batch: pyglet.graphics.Batch, groups: Sequence[pyglet.graphics.Group],
                 items: list[Any]) -> float:
    """A unit counter with its lower-left corner at (x, y), `h` tall: the side's colour, a
    NATO frame holding the kind's symbol, and how many there are (unless `count` is None).
    Returns its width.
    `groups` are three groups drawn in order (body, frame and symbol, text)."""
    w = counter_width(h) if count is not None else h * 1.4
    add = items.append
    edge = max(1.0, h * 0.05)
    add(shapes.Rectangle(x, y, w, h, color=(16, 16, 18), batch=batch, group=groups[0]))
    add(shapes.Rectangle(x + edge, y + edge, w - 2 * edge, h - 2 * edge, color=colour, batch=batch, group=groups[1]))
    m = h * 0.16
    fx, fy, fw, fh = x + m, y + m, h * 1.08, h - 2 * m
    line = max(1.0, h * 0.07)
    if look.shape:                      # a silhouette needs no frame: it fills the frame's place
        _symbol(look, fx, fy - m * 0.3, fw, fh + m * 0.6, colour, line, batch, groups[2], groups[3], items)
    else:
        add(shapes.Box(fx, fy, fw, fh, thickness=line, color=SYMBOL, batch=batch, group=groups[2]))
        _symbol(look, fx + line, fy + line, fw - 2 * line, fh - 2 * line, colour, line, batch, groups[2], groups[3],
                items)
    if count is None:
        return w
    number = str(count)
    px = h * (0.62 if len(number) == 1 else 0.5)
    tx = fx + fw + (x + w - fx - fw) / 2
    add(pyglet.text.Label(number, x=round(tx), y=round(y + h / 2), anchor_x="center", anchor_y="center",
                          font_name=FONT, font_size=font_pt(px), weight="bold", color=(*SYMBOL, 255),
                          batch=batch, group=groups[3]))
    return w


def counter_width(h: float) -> float:
    return h * 1.95


def _symbol(look: UnitLook, x: float, y: float, w: float, h: float, colour: Colour, line: float,
            batch: pyglet.graphics.Batch, group: pyglet.graphics.Group, top: pyglet.graphics.Group,
            items: list[Any]) -> None:
    add = items.append
    cx, cy = x + w / 2, y + h / 2
    s = look.symbol if not look.shape else "shape"
    white = SYMBOL
    if look.shape:
        for poly in placed(look.shape, x, y, w, h):
            add(shapes.Polygon(*poly, color=white, batch=batch, group=group))
    elif s == "infantry":
        add(shapes.Line(x, y, x + w, y + h, thickness=line, color=white, batch=batch, group=group))
        add(shapes.Line(x, y + h, x + w, y, thickness=line, color=white, batch=batch, group=group))
    elif s == "armour":
        a, b = w * 0.36, h * 0.3
        segments = max(12, int(a / 1.25))         # pyglet's own count is 0 for a tiny ellipse
        add(shapes.Ellipse(cx, cy, a, b, segments=segments, color=white, batch=batch, group=group))
        add(shapes.Ellipse(cx, cy, max(0.5, a - line), max(0.5, b - line), segments=segments, color=colour,
                           batch=batch, group=top))
    elif s == "artillery":
        add(shapes.Circle(cx, cy, max(1.0, h * 0.24), color=white, batch=batch, group=group))
    elif s == "aircraft":
        add(shapes.Line(cx, y + h * 0.1, cx, y + h * 0.92, thickness=line, color=white, batch=batch, group=group))
        add(shapes.Line(x + w * 0.12, y + h * 0.62, x + w * 0.88, y + h * 0.62, thickness=line * 1.2, color=white,
                        batch=batch, group=group))
        add(shapes.Line(cx - w * 0.17, y + h * 0.18, cx + w * 0.17, y + h * 0.18, thickness=line, color=white,
                        batch=batch, group=group))
    elif s == "transport":
        r = max(1.0, h * 0.15)
        add(shapes.Line(x + w * 0.18, cy + h * 0.08, x + w * 0.82, cy + h * 0.08, thickness=line, color=white,
                        batch=batch, group=group))
        for wx in (x + w * 0.3, x + w * 0.7):
            add(shapes.Circle(wx, cy - h * 0.16, r, color=white, batch=batch, group=group))
            add(shapes.Circle(wx, cy - h * 0.16, max(0.5, r - line), color=colour, batch=batch, group=top))
    elif s == "supply":
        add(shapes.Rectangle(x, y, w, h * 0.3, color=white, batch=batch, group=group))
    elif s == "naval":
        add(shapes.Line(x + w * 0.1, cy, x + w * 0.9, cy, thickness=line * 1.2, color=white, batch=batch, group=group))
        add(shapes.Line(x + w * 0.1, cy, x + w * 0.25, cy - h * 0.25, thickness=line, color=white, batch=batch,
                        group=group))
        add(shapes.Line(x + w * 0.9, cy, x + w * 0.75, cy - h * 0.25, thickness=line, color=white, batch=batch,
                        group=group))
    if s == "letter" or look.tagged:
        px = h * (0.78 if s == "letter" else 0.42)
        lx, ly = (cx, cy) if s == "letter" else (x + px * 0.45, y + h - px * 0.5)
        if look.tagged:
            add(shapes.Rectangle(lx - px * 0.42, ly - px * 0.5, px * 0.84, px, color=colour, batch=batch, group=top))
        add(pyglet.text.Label(look.letter, x=round(lx), y=round(ly), anchor_x="center", anchor_y="center",
                              font_name=FONT, font_size=font_pt(px), weight="bold", color=(*white, 255),
                              batch=batch, group=pyglet.graphics.Group(order=top.order + 1)))


def framed(x: float, y: float, w: float, h: float, border: float, color: tuple[int, ...],
           border_color: tuple[int, ...], batch: pyglet.graphics.Batch,
           group: pyglet.graphics.Group | None = None) -> list[shapes.Rectangle]:
    """A filled rectangle with a crisp border (two rectangles: pyglet's BorderedRectangle
    blends its border into the fill). Translucent fills show the border colour through."""
    edge = shapes.Rectangle(x, y, w, h, color=border_color, batch=batch, group=group)
    inner_group = pyglet.graphics.Group(order=group.order if group else 0, parent=group)
    inner = shapes.Rectangle(x + border, y + border, max(0.0, w - 2 * border), max(0.0, h - 2 * border),
                             color=color, batch=batch, group=inner_group)
    return [edge, inner]


# -- the view ------------------------------------------------------------------------------------
class MapView(ViewFrame):
    """Hex geometry on screen: pointy-top hexes of circumradius `size` pixels, the map's
    origin at `offset`. World coordinates grow upwards (pyglet's), the board's rows go down."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.hexes: dict[str, Hex] = {}
        for sid, sp in board.spaces.items():
            if sp.hex is not None:
                self.hexes[sid] = sp.hex
        if not self.hexes and board.spaces:
            # a map without hexes (a graph of areas): lay its spaces out on a grid of hexes
            cols = max(1, math.ceil(math.sqrt(len(board.spaces))))
            for i, sid in enumerate(board.spaces):
                self.hexes[sid] = hexgrid.from_offset(i % cols, i // cols)
        self.by_hex = {h: sid for sid, h in self.hexes.items()}
        self._init_frame(30.0)

    MIN_FIT = 4.0
    MARGIN = 16

    def zoom_limits(self) -> tuple[float, float]:
        return max(self.fit_size * 0.5, 6.0), max(self.fit_size * 6, 160.0)

    # -- geometry --------------------------------------------------------------------------
    def world(self, sid: str) -> Point:
        x, y = hexgrid.to_pixel(self.hexes[sid], self.size)
        return x, -y

    def screen(self, sid: str) -> Point:
        x, y = self.world(sid)
        return x + self.offset[0], y + self.offset[1]

    def corners(self, sid: str, scale: float = 1.0) -> list[Point]:
        cx, cy = self.world(sid)
        out = []
        for i in range(6):
            a = math.radians(60 * i + 30)
            out.append((cx + self.size * scale * math.cos(a), cy + self.size * scale * math.sin(a)))
        return out

    def shared_edge(self, a: str, b: str) -> tuple[Point, Point] | None:
        """The side two neighbouring hexes share, in world coordinates."""
        cb = self.corners(b)
        eps = self.size * 1e-3
        common = [p for p in self.corners(a) if any(abs(p[0] - q[0]) < eps and abs(p[1] - q[1]) < eps for q in cb)]
        if len(common) != 2:
            return None
        return common[0], common[1]

    def space_at(self, sx: float, sy: float) -> str | None:
        """The space under a screen point, if any."""
        x, y = sx - self.offset[0], sy - self.offset[1]
        return self.by_hex.get(hexgrid.from_pixel(x, -y, self.size))

    def bounds(self) -> tuple[float, float, float, float]:
        """min x, min y, max x, max y of the board for hexes of size 1."""
        xs, ys = [], []
        for h in self.hexes.values():
            x, y = hexgrid.to_pixel(h, 1.0)
            xs += [x - hexgrid.SQRT3 / 2, x + hexgrid.SQRT3 / 2]
            ys += [-y - 1.0, -y + 1.0]
        if not xs:
            return -1.0, -1.0, 1.0, 1.0
        return min(xs), min(ys), max(xs), max(ys)

    # -- drawing -----------------------------------------------------------------------------
    def build(self, state: GameState, colours: SideColours, side_order: Sequence[str],
              looks: Mapping[str, UnitLook] | None = None, show_ids: bool = False) -> MapLayer:
        """The map's shapes for the visible part of the board and a margin around it (half a
        map area each way), so that panning a little needs no rebuild."""
        x0, y0, x1, y1 = self.visible_rect()
        mx, my = (x1 - x0) / 2 + self.size, (y1 - y0) / 2 + self.size
        return MapLayer(self, state, colours, side_order, (x0 - mx, y0 - my, x1 + mx, y1 + my),
                        looks=looks, show_ids=show_ids)

    def outline(self, sid: str, colour: tuple[int, int, int, int], thickness: float,
                batch: pyglet.graphics.Batch, scale: float = 1.0) -> shapes.MultiLine:
        return shapes.MultiLine(*self.corners(sid, scale), closed=True, thickness=thickness, color=colour, batch=batch)


#: the order of importance of a place's size, where a board says it in words
_PLACE_RANK = {"capital": 5, "city": 4, "town": 3, "village": 2, "hamlet": 1}


def place_name(space: Any) -> str:
    """The name a space's label shows: its town's, or its own where the map gives it one (a
    name that is not its id: a mod's "Oak wood" or "Blue base" as much as a town)."""
    town = space.get("town")
    if town:
        return str(town) if town is not True else space.name
    return space.name if space.name != space.id else ""


def _importance(space: Any) -> tuple[float, ...]:
    vp = space.get("vp")
    size = space.get("size")
    rank = _PLACE_RANK.get(str(size).lower(), 0) if isinstance(size, str) else (size or 0)
    return (float(vp or 0), float(rank) if isinstance(rank, (int, float)) else 0.0)


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def half_width(size: float, dy: float) -> float:
    """Half the width of a pointy-top hex of circumradius `size` at height `dy` from its
    centre."""
    dy = abs(dy)
    if dy <= size / 2:
        return hexgrid.SQRT3 / 2 * size
    return max(0.0, hexgrid.SQRT3 * (size - dy))


def counter_layout(n: int, size: float, lo: float, hi: float, cap: float) -> tuple[int, int, float]:
    """Columns, rows and counter height for `n` counters inside a hex of circumradius
    `size`, between heights `lo` and `hi` from its centre: the biggest (at most `cap`) that
    stays inside the hex."""
    best = (max(1, n), 1, 0.0)
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        if cols * rows - n >= cols:      # a whole empty row
            continue
        hmin, hmax = 0.0, cap
        for _ in range(18):
            h = (hmin + hmax) / 2
            gap = h * 0.1
            width = cols * counter_width(h) + (cols - 1) * gap
            height = rows * h + (rows - 1) * gap
            mid = (lo + hi) / 2
            top, bottom = mid + height / 2, mid - height / 2
            ok = (height <= hi - lo and width / 2 <= 0.94 * min(half_width(size, top), half_width(size, bottom)))
            hmin, hmax = (h, hmax) if ok else (hmin, h)
        if hmin > best[2]:
            best = (cols, rows, hmin)
    return best


class MapLayer:
    """Every shape and label of the map for one state, in world coordinates (the window
    translates them by the view's offset when it draws)."""

    def __init__(self, view: MapView, state: GameState, colours: SideColours,
                 side_order: Sequence[str], bounds: tuple[float, float, float, float] | None = None,
                 looks: Mapping[str, UnitLook] | None = None, show_ids: bool = False) -> None:
        self.batch = pyglet.graphics.Batch()
        groups = [pyglet.graphics.Group(order=i) for i in range(10)]
        self.fills: dict[str, shapes.Polygon] = {}
        self.items: list[Any] = []
        #: per space shown with pieces: what its counters were drawn from, their shapes, where
        #: they are, and the owners whose one counter stands for several kinds
        self._drawn: dict[str, tuple[Any, list[Any], list[tuple[str, str, str, float, float, float, float]],
                                     set[str]]] = {}
        self._counters_cache: list[tuple[str, str, str, float, float, float, float]] | None = None
        self._mixed_cache: set[tuple[str, str]] | None = None
        #: the place names drawn, with their boxes in world coordinates
        self.names: dict[str, tuple[float, float, float, float]] = {}
        size = view.size
        board = view.board
        add = self.items.append
        self.size = size
        self.bounds = bounds
        self.show_ids = show_ids
        self.looks = dict(looks) if looks is not None else unit_looks(p.kind for p in state.pieces.values())
        if bounds is None:
            shown = list(view.hexes)
        else:
            bx0, by0, bx1, by1 = bounds
            shown = [sid for sid in view.hexes
                     if bx0 <= (p := view.world(sid))[0] <= bx1 and by0 <= p[1] <= by1]
        shown_set = set(shown)
        inset = 1 - min(0.045, 1.6 / size)      # the gap between hexes: their outlines

        self.view, self.shown, self.side_order, self.groups = view, shown, side_order, groups
        for sid in shown:
            poly = shapes.Polygon(*view.corners(sid, inset), color=self._fill(state, sid, colours), batch=self.batch,
                                  group=groups[0])
            self.fills[sid] = poly

        for a, b, attrs in board.links():
            if a not in view.hexes or b not in view.hexes or (a not in shown_set and b not in shown_set):
                continue
            if attrs.get("road"):
                (x1, y1), (x2, y2) = view.world(a), view.world(b)
                add(shapes.Line(x1, y1, x2, y2, thickness=max(1.5, size * 0.075), color=ROAD,
                                batch=self.batch, group=groups[1]))
            if attrs.get("river") or attrs.get("barrier"):
                edge = view.shared_edge(a, b)
                if edge is None:
                    continue
                (x1, y1), (x2, y2) = edge
                if attrs.get("bridge") or not attrs.get("barrier", True):
                    colour, thick = BRIDGE, max(2.0, size * 0.07)
                else:
                    colour, thick = RIVER, max(2.5, size * 0.12)
                add(shapes.Line(x1, y1, x2, y2, thickness=thick, color=colour, batch=self.batch, group=groups[2]))

        # place names, the most important first; a lesser one that would overlap is shrunk,
        # then left out
        name_px = min(max(size * 0.23, 8.5), 17.0)
        placed: list[tuple[float, float, float, float]] = []
        if size >= 12:
            named = [(sid, place_name(board.spaces[sid])) for sid in shown]
            named = [(sid, n) for sid, n in named if n]
            named.sort(key=lambda t: _importance(board.spaces[t[0]]), reverse=True)
            for sid, name in named:
                cx, cy = view.world(sid)
                y = cy + size * 0.47
                for px in (name_px, name_px * 0.82):
                    if px < 7:
                        break
                    label = pyglet.text.Label(name, x=round(cx), y=round(y), anchor_x="center", anchor_y="center",
                                              font_name=FONT, font_size=font_pt(px), weight="bold", color=INK,
                                              batch=self.batch, group=groups[4])
                    w, h = label.content_width, px * 1.05
                    box = (cx - w / 2 - 2, y - h / 2, cx + w / 2 + 2, y + h / 2)
                    if not any(_overlaps(box, other) for other in placed):
                        placed.append(box)
                        self.names[sid] = box
                        add(label)
                        break
                    label.delete()
        for sid in shown:
            vp = board.spaces[sid].attrs.get("vp")
            if not vp or size < 9:
                continue
            cx, cy = view.world(sid)
            r = min(max(5.5, size * 0.13), 12.0)
            bx, by = cx, cy + size * 0.79
            add(shapes.Circle(bx, by, r + max(1.0, r * 0.12), color=(30, 30, 30), batch=self.batch, group=groups[3]))
            add(shapes.Circle(bx, by, r, color=VP_BADGE, batch=self.batch, group=groups[3]))
            if r >= 5:
                add(pyglet.text.Label(str(vp), x=round(bx), y=round(by), anchor_x="center", anchor_y="center",
                                      font_name=FONT, font_size=font_pt(r * 1.3), weight="bold", color=INK,
                                      batch=self.batch, group=groups[4]))
        if show_ids:
            id_px = min(max(size * 0.15, 7.0), 12.0)
            if size >= 20:
                for sid in shown:
                    cx, cy = view.world(sid)
                    add(pyglet.text.Label(sid, x=round(cx), y=round(cy - size * 0.8), anchor_x="center",
                                          anchor_y="center", font_name=FONT, font_size=font_pt(id_px),
                                          color=(20, 20, 20, 190), batch=self.batch, group=groups[4]))
        self.pieces = pyglet.graphics.Batch()
        self.piece_items: list[Any] = []       # the shapes of the space being drawn
        self._space_counters: list[tuple[str, str, str, float, float, float, float]] = []
        self._space_mixed: set[str] = set()
        self._place_counters(state, colours)

    def _fill(self, state: GameState, sid: str, colours: SideColours) -> Colour:
        owner = state.control.get(sid)
        fill = colours[owner] if owner else NEUTRAL
        if self.view.board.spaces[sid].attrs.get("partial"):
            fill = shade(fill, 0.72)
        return fill

    def update(self, state: GameState, colours: SideColours) -> None:
        """Show another state of the same board at the same scale: the hexes' colours and
        the counters (the roads, rivers and names stay)."""
        for sid, poly in self.fills.items():
            fill = self._fill(state, sid, colours)
            if poly.color[:3] != fill:
                poly.color = fill
        self._place_counters(state, colours)

    @property
    def counters(self) -> list[tuple[str, str, str, float, float, float, float]]:
        """Where each drawn counter is, in world coordinates: (space, owner, kind, x, y, w, h)
        (kind "" for a mark standing for a side's pieces, where no counter fits)."""
        if self._counters_cache is None:
            self._counters_cache = [c for sid in self.shown if sid in self._drawn for c in self._drawn[sid][2]]
        return self._counters_cache

    @property
    def mixed(self) -> set[tuple[str, str]]:
        """(space, owner) whose one counter stands for all the owner's pieces there."""
        if self._mixed_cache is None:
            self._mixed_cache = {(sid, o) for sid, drawn in self._drawn.items() for o in drawn[3]}
        return self._mixed_cache

    @staticmethod
    def _stack_key(state: GameState, sid: str) -> tuple[tuple[tuple[str, str], int], ...]:
        counts: dict[tuple[str, str], int] = {}
        for p in state.pieces_at(sid):
            counts[(p.owner, p.kind)] = counts.get((p.owner, p.kind), 0) + 1
        return tuple(sorted(counts.items()))

    def _place_counters(self, state: GameState, colours: SideColours) -> None:
        """The counters of every space shown, drawn again only where the pieces changed (who
        and how many of each kind)."""
        for sid in self.shown:
            key = self._stack_key(state, sid)
            old = self._drawn.get(sid)
            if old is not None and old[0] == key:
                continue
            if old is not None:
                for item in old[1]:
                    item.delete()
                del self._drawn[sid]
            self._counters_cache = self._mixed_cache = None
            if not key:
                continue
            self.piece_items, self._space_counters, self._space_mixed = [], [], set()
            self._counters(state, sid, self.view, colours, self.side_order, self.groups)
            self._drawn[sid] = (key, self.piece_items, self._space_counters, self._space_mixed)
        self.piece_items = []

    def _counters(self, state: GameState, sid: str, view: MapView, colours: SideColours,
                  side_order: Sequence[str], groups: list[pyglet.graphics.Group]) -> None:
        pieces = state.pieces_at(sid)
        if not pieces:
            return
        size = view.size
        cx, cy = view.world(sid)
        counts: dict[tuple[str, str], int] = {}
        for p in pieces:
            counts[(p.owner, p.kind)] = counts.get((p.owner, p.kind), 0) + 1
        rank = {s: i for i, s in enumerate(side_order)}
        stacks = sorted(counts, key=lambda ok: (rank.get(ok[0], len(rank)), ok[0], self._kind_rank(ok[1]), ok[1]))
        named = sid in self.names or bool(state.board.spaces[sid].attrs.get("vp") and size >= 9)
        lo = -size * (0.64 if self.show_ids else 0.78)
        hi = size * (0.33 if named else 0.7)
        cap = min(44.0, max(size * 0.36, min(15.0, size * 0.62)))
        cols, rows, h = counter_layout(len(stacks), size, lo, hi, cap)
        mixed: set[str] = set()
        if h < 12 and len(stacks) > 1:
            # too small to read one counter a kind: one a side, showing its first kind's
            # symbol and how many pieces the side has here
            by_owner: dict[str, tuple[str, int]] = {}
            for owner, kind in stacks:
                first, n = by_owner.get(owner, (kind, 0))
                by_owner[owner] = (first, n + counts[(owner, kind)])
            mixed = {o for o in by_owner if sum(1 for ok in stacks if ok[0] == o) > 1}
            self._space_mixed |= mixed
            counts = {(o, k): n for o, (k, n) in by_owner.items()}
            stacks = [(o, k) for o, (k, _) in by_owner.items()]
            cols, rows, h = counter_layout(len(stacks), size, lo, hi, cap)
        if h < 5.5:
            self._stack_marks(state, sid, cx, cy, size, colours, side_order, groups)
            return
        gap = h * 0.1
        w = counter_width(h)
        total_h = rows * h + (rows - 1) * gap
        top = cy + (lo + hi) / 2 + total_h / 2
        for i, (owner, kind) in enumerate(stacks):
            row, col = divmod(i, cols)
            in_row = min(cols, len(stacks) - row * cols)
            row_w = in_row * w + (in_row - 1) * gap
            x = cx - row_w / 2 + col * (w + gap)
            y = top - (row + 1) * h - row * gap
            look = self.looks.get(kind) or UnitLook(symbol_for(kind), kind[:1].upper())
            colour = colours.counter(owner)
            if owner in mixed:
                # several kinds under one counter: drawn as a stack, a second counter behind
                small = h * 0.84
                sw = counter_width(small)
                self.piece_items.append(shapes.Rectangle(x + w - sw, y, sw, small, color=(16, 16, 18), batch=self.pieces,
                                                   group=groups[4]))
                e = max(1.0, small * 0.05)
                self.piece_items.append(shapes.Rectangle(x + w - sw + e, y + e, sw - 2 * e, small - 2 * e, color=colour,
                                                   batch=self.pieces, group=groups[4]))
                draw_counter(x, y + h - small, small, colour, look, counts[(owner, kind)], self.pieces,
                             groups[5:9], self.piece_items)
            else:
                draw_counter(x, y, h, colour, look, counts[(owner, kind)], self.pieces, groups[5:9], self.piece_items)
            self._space_counters.append((sid, owner, kind, x, y, w, h))

    def _kind_rank(self, kind: str) -> int:
        order = ("infantry", "armour", "artillery", "aircraft", "naval", "transport", "supply", "letter")
        look = self.looks.get(kind)
        return order.index(look.symbol) if look and look.symbol in order else len(order)

    def _stack_marks(self, state: GameState, sid: str, cx: float, cy: float, size: float, colours: SideColours,
                     side_order: Sequence[str], groups: list[pyglet.graphics.Group]) -> None:
        """At a small scale: one square a side, in its counters' colour, for a hex's pieces."""
        owners: dict[str, int] = {}
        for p in state.pieces_at(sid):
            owners[p.owner] = owners.get(p.owner, 0) + 1
        order = sorted(owners, key=lambda o: side_order.index(o) if o in side_order else len(side_order))
        s = max(3.0, size * 0.42)
        x = cx - (len(order) * s + (len(order) - 1) * 2) / 2
        for owner in order:
            self.piece_items.append(shapes.Rectangle(x - 1, cy - s / 2 - 1, s + 2, s + 2, color=(16, 16, 18),
                                               batch=self.pieces, group=groups[5]))
            self.piece_items.append(shapes.Rectangle(x, cy - s / 2, s, s, color=colours.counter(owner),
                                               batch=self.pieces, group=groups[6]))
            self._space_counters.append((sid, owner, "", x, cy - s / 2, s, s))
            x += s + 2

    def counter_at(self, x: float, y: float) -> tuple[str, str, str, float, float, float, float] | None:
        """The counter drawn at a world point, if any."""
        for c in reversed(self.counters):
            _, _, _, cx, cy, w, h = c
            if cx <= x < cx + w and cy <= y < cy + h:
                return c
        return None

    def counter_pieces(self, state: GameState, counter: Sequence[Any]) -> frozenset[int]:
        """The pieces a counter stands for: its owner's pieces of its kind in its space (all
        the owner's pieces there, for a counter that stands for several kinds)."""
        sid, owner, kind = counter[0], counter[1], counter[2]
        every = kind == "" or (sid, owner) in self.mixed
        return frozenset(p.id for p in state.pieces_at(sid) if p.owner == owner and (every or p.kind == kind))

    def counters_of(self, state: GameState, pieces: Container[int]
                    ) -> list[tuple[str, str, str, float, float, float, float]]:
        """The counters standing for any of `pieces`."""
        return [c for c in self.counters if any(p in pieces for p in self.counter_pieces(state, c))]

    def covers(self, view: MapView) -> bool:
        """Whether this layer was built for the view's scale and holds all it shows."""
        if abs(self.size - view.size) > 1e-9:
            return False
        if self.bounds is None:
            return True
        x0, y0, x1, y1 = view.visible_rect()
        bx0, by0, bx1, by1 = self.bounds
        return bx0 <= x0 - view.size and by0 <= y0 - view.size and x1 + view.size <= bx1 and y1 + view.size <= by1

    def draw(self) -> None:
        self.batch.draw()
        self.pieces.draw()


# -- the legend -----------------------------------------------------------------------------------
def build_legend(x: float, y: float, sides: Sequence[str], colours: SideColours,
                 looks: Mapping[str, UnitLook], kinds: Sequence[str], board: Board,
                 batch: pyglet.graphics.Batch, items: list[Any]) -> tuple[float, float, float, float]:
    """A legend box with its lower-left corner at (x, y): the sides' ground and counters,
    the unit symbols of `kinds`, roads, rivers, bridges and VP where the board has them, and
    the keys that change the map. Returns the box (x, y, w, h)."""
    bg, mid, fg = (pyglet.graphics.Group(order=i) for i in (10, 11, 12))
    counter_groups = [pyglet.graphics.Group(order=i) for i in (12, 13, 14, 15)]
    rows: list[tuple[str, Any]] = []
    for side in sides:
        rows.append((side, ("side", side)))
    for kind in kinds:
        look = looks.get(kind)
        if look is not None:
            name = SYMBOL_NAMES.get(look.symbol, "")
            shown = spaced(kind)            # "AA Gun", not the rules' one word "AAGun"
            text = shown if not name or name.lower() == kind.lower() else f"{shown} ({name})"
            rows.append((text, ("unit", kind)))
    links = [a for _, _, a in board.links() if a]
    if any(a.get("road") for a in links):
        rows.append(("road", ("line", ROAD)))
    if any(a.get("river") or a.get("barrier") for a in links):
        rows.append(("river (a barrier)", ("line", RIVER)))
    if any(a.get("bridge") for a in links):
        rows.append(("bridge", ("line", BRIDGE)))
    if any(sp.get("vp") for sp in board.spaces.values()):
        rows.append(("victory points", ("vp", None)))
    rows.append((f"H: {space_noun(board)} ids   L: this legend", ("note", None)))
    row_h, pad, swatch = 19, 8, 38
    labels = []
    for text, _ in rows:
        labels.append(pyglet.text.Label(text, x=0, y=0, anchor_y="center", font_name=FONT, font_size=9,
                                        color=(232, 232, 236, 255), batch=batch, group=fg))
    width = pad * 3 + swatch + max(lb.content_width for lb in labels)
    height = pad * 2 + row_h * len(rows)
    items += framed(x, y, width, height, 1, (24, 26, 30, 235), (110, 116, 128, 255), batch, bg)
    ty = y + height - pad - row_h / 2
    for (_, (what, arg)), label in zip(rows, labels, strict=True):
        sx = x + pad
        label.x, label.y = round(sx + swatch + pad), round(ty)
        if what == "note":
            label.x = round(x + pad)
            label.color = (170, 174, 184, 255)
        elif what == "side":
            items.append(shapes.Rectangle(sx, ty - 7, 16, 14, color=colours[arg], batch=batch, group=mid))
            items.append(shapes.Rectangle(sx + 20, ty - 7, 16, 14, color=colours.counter(arg), batch=batch, group=mid))
        elif what == "unit":
            side = sides[0] if sides else ""
            draw_counter(sx + 4, ty - 7.5, 15, colours.counter(side), looks[arg], None, batch, counter_groups,
                         items)
        elif what == "line":
            items.append(shapes.Line(sx, ty, sx + swatch - 4, ty, thickness=4, color=arg, batch=batch, group=mid))
        elif what == "vp":
            items.append(shapes.Circle(sx + 8, ty, 7, color=VP_BADGE, batch=batch, group=mid))
            items.append(pyglet.text.Label("2", x=round(sx + 8), y=round(ty), anchor_x="center", anchor_y="center",
                                           font_name=FONT, font_size=7.5, weight="bold", color=INK, batch=batch,
                                           group=fg))
        items.append(label)
        ty -= row_h
    return x, y, width, height
