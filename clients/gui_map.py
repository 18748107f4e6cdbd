"""The map half of the window: where hexes sit on the screen, and the shapes that draw them.

Nothing here knows a rule. It draws what the board and the state say: who controls a space,
which pieces stand in it, the roads and rivers on the links, the towns and their VP.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pyglet
from pyglet import shapes

from engine import hexgrid
from engine.board import Board
from engine.hexgrid import Hex
from engine.state import GameState

Colour = tuple[int, int, int]
Point = tuple[float, float]

FONT = ("DejaVu Sans", "Verdana", "Arial", "Helvetica")

BACKGROUND: Colour = (38, 40, 44)
NEUTRAL: Colour = (196, 190, 168)
ROAD: Colour = (128, 84, 44)
RIVER: Colour = (52, 104, 196)
BRIDGE: Colour = (150, 190, 235)
HOVER: tuple[int, int, int, int] = (255, 255, 255, 200)
SELECTED: tuple[int, int, int, int] = (255, 214, 0, 255)
VP_BADGE: Colour = (236, 196, 64)
MENTIONED: tuple[int, int, int, int] = (255, 140, 0, 235)

#: muted fills for the sides, in the order the ruleset lists them: a grey-blue for the
#: first side (the Axis of most games), an olive for the second, then a few more
PALETTE: tuple[Colour, ...] = (
    (126, 138, 160),   # grey-blue
    (136, 148, 92),    # olive
    (168, 118, 96),    # brick
    (128, 112, 156),   # mauve
    (92, 146, 140),    # teal
    (170, 150, 92),    # ochre
    (150, 106, 130),   # plum
    (110, 130, 110),   # sage
)

#: sides named after a colour get a muted version of that colour
NAMED: dict[str, Colour] = {
    "red": (184, 110, 100),
    "blue": (112, 136, 182),
    "green": (120, 156, 100),
    "yellow": (196, 178, 98),
    "white": (214, 214, 206),
    "black": (96, 96, 100),
    "grey": (150, 150, 150),
    "gray": (150, 150, 150),
    "orange": (204, 140, 84),
    "purple": (136, 108, 164),
    "brown": (148, 112, 82),
}


class SideColours(dict[str, Colour]):
    """Side -> fill colour. A side met only during play (an owner the ruleset did not list)
    gets the next free palette colour when first asked for."""

    def __init__(self, sides: Sequence[str] = ()) -> None:
        super().__init__()
        for side in sides:
            named = NAMED.get(side.lower())
            if named is not None and named not in self.values():
                self[side] = named
        for side in sides:
            if side not in self:
                self[side] = self._next(side)

    def _next(self, side: str) -> Colour:
        used = set(self.values())
        return next((c for c in PALETTE if c not in used), None) or _hashed(side)

    def __missing__(self, side: str) -> Colour:
        colour = self[side] = NAMED.get(side.lower()) or self._next(side)
        return colour


def side_colours(sides: Sequence[str]) -> SideColours:
    """A fill colour for every side: by name when the name is a colour, else from PALETTE."""
    return SideColours(sides)


def _hashed(name: str) -> Colour:
    h = sum(ord(c) * 31 ** i for i, c in enumerate(name)) % 360
    r, g, b = colorsys.hls_to_rgb(h / 360, 0.55, 0.25)
    return int(r * 255), int(g * 255), int(b * 255)


def shade(colour: Colour, factor: float) -> Colour:
    r, g, b = colour
    return (min(255, int(r * factor)), min(255, int(g * factor)), min(255, int(b * factor)))


def counter_colour(fill: Colour) -> Colour:
    """A stronger, darker version of a side's fill, for its pieces' counters."""
    r, g, b = (c / 255 for c in fill)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    r, g, b = colorsys.hsv_to_rgb(h, min(1.0, s * 1.9 + 0.08), v * 0.62)
    return int(r * 255), int(g * 255), int(b * 255)


def text_colour_on(colour: Colour) -> tuple[int, int, int, int]:
    r, g, b = colour
    return (20, 20, 20, 255) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 245, 255)


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


class MapView:
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
        self.size = 30.0
        self.offset: Point = (0.0, 0.0)
        self.fit_size = 30.0
        self.area = (0, 0, 100, 100)

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

    def _bounds(self) -> tuple[float, float, float, float]:
        """min x, min y, max x, max y of the board for hexes of size 1."""
        xs, ys = [], []
        for h in self.hexes.values():
            x, y = hexgrid.to_pixel(h, 1.0)
            xs += [x - hexgrid.SQRT3 / 2, x + hexgrid.SQRT3 / 2]
            ys += [-y - 1.0, -y + 1.0]
        if not xs:
            return -1.0, -1.0, 1.0, 1.0
        return min(xs), min(ys), max(xs), max(ys)

    def fit(self, area: tuple[int, int, int, int], margin: int = 16) -> None:
        """Scale and centre the board in `area` (x, y, width, height)."""
        self.area = area
        x0, y0, x1, y1 = self._bounds()
        ax, ay, aw, ah = area
        bw, bh = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        self.fit_size = max(4.0, min((aw - 2 * margin) / bw, (ah - 2 * margin) / bh))
        self.size = self.fit_size
        self.offset = (round(ax + aw / 2 - (x0 + x1) / 2 * self.size), round(ay + ah / 2 - (y0 + y1) / 2 * self.size))

    def zoom(self, factor: float, about: Point) -> bool:
        """Zoom by `factor` keeping the screen point `about` still. False if at a limit."""
        new = min(max(self.size * factor, self.fit_size * 0.5, 6.0), max(self.fit_size * 6, 160.0))
        if abs(new - self.size) < 1e-6:
            return False
        f = new / self.size
        mx, my = about
        self.offset = (round(mx - (mx - self.offset[0]) * f), round(my - (my - self.offset[1]) * f))
        self.size = new
        return True

    def pan(self, dx: float, dy: float) -> None:
        self.offset = (round(self.offset[0] + dx), round(self.offset[1] + dy))

    # -- drawing -----------------------------------------------------------------------------
    def visible_rect(self) -> tuple[float, float, float, float]:
        """The part of the world the map area shows: x0, y0, x1, y1."""
        ax, ay, aw, ah = self.area
        ox, oy = self.offset
        return ax - ox, ay - oy, ax + aw - ox, ay + ah - oy

    def build(self, state: GameState, colours: Mapping[str, Colour], side_order: Sequence[str]) -> MapLayer:
        """The map's shapes for the visible part of the board and a margin around it (half a
        map area each way), so that panning a little needs no rebuild."""
        x0, y0, x1, y1 = self.visible_rect()
        mx, my = (x1 - x0) / 2 + self.size, (y1 - y0) / 2 + self.size
        return MapLayer(self, state, colours, side_order, (x0 - mx, y0 - my, x1 + mx, y1 + my))

    def outline(self, sid: str, colour: tuple[int, int, int, int], thickness: float,
                batch: pyglet.graphics.Batch, scale: float = 1.0) -> shapes.MultiLine:
        return shapes.MultiLine(*self.corners(sid, scale), closed=True, thickness=thickness, color=colour, batch=batch)


class MapLayer:
    """Every shape and label of the map for one state, in world coordinates (the window
    translates them by the view's offset when it draws)."""

    def __init__(self, view: MapView, state: GameState, colours: Mapping[str, Colour],
                 side_order: Sequence[str], bounds: tuple[float, float, float, float] | None = None) -> None:
        self.batch = pyglet.graphics.Batch()
        groups = [pyglet.graphics.Group(order=i) for i in range(8)]
        self.fills: dict[str, shapes.Polygon] = {}
        self.items: list[Any] = []
        size = view.size
        board = view.board
        add = self.items.append
        self.size = size
        self.bounds = bounds
        if bounds is None:
            shown = list(view.hexes)
        else:
            bx0, by0, bx1, by1 = bounds
            shown = [sid for sid in view.hexes
                     if bx0 <= (p := view.world(sid))[0] <= bx1 and by0 <= p[1] <= by1]
        shown_set = set(shown)
        inset = 1 - min(0.045, 2.2 / size)      # the gap between hexes: their outlines

        for sid in shown:
            sp = board.spaces[sid]
            owner = state.control.get(sid)
            fill = colours[owner] if owner else NEUTRAL
            if sp.attrs.get("partial"):
                fill = shade(fill, 0.72)
            poly = shapes.Polygon(*view.corners(sid, inset), color=fill, batch=self.batch, group=groups[0])
            self.fills[sid] = poly

        for a, b, attrs in board.links():
            if a not in view.hexes or b not in view.hexes or (a not in shown_set and b not in shown_set):
                continue
            if attrs.get("road"):
                (x1, y1), (x2, y2) = view.world(a), view.world(b)
                add(shapes.Line(x1, y1, x2, y2, thickness=max(2.0, size * 0.09), color=ROAD,
                                batch=self.batch, group=groups[1]))
            if attrs.get("river") or attrs.get("barrier"):
                edge = view.shared_edge(a, b)
                if edge is None:
                    continue
                (x1, y1), (x2, y2) = edge
                if attrs.get("bridge"):
                    colour, thick = BRIDGE, max(2.0, size * 0.07)
                else:
                    colour, thick = RIVER, max(3.0, size * 0.14)
                add(shapes.Line(x1, y1, x2, y2, thickness=thick, color=colour, batch=self.batch, group=groups[2]))

        kinds = abbreviations(p.kind for p in state.pieces.values())
        name_px = min(max(10.0, size * 0.2), 15.0)
        id_px = min(size * 0.16, 13.0)
        for sid in shown:
            sp = board.spaces[sid]
            cx, cy = view.world(sid)
            fill = self.fills[sid].color[:3]
            ink = text_colour_on(fill)
            town = sp.attrs.get("town")
            vp = sp.attrs.get("vp")
            name = (str(town) if town is not True else sp.name) if town else (sp.name if vp and sp.name != sid else "")
            if name and size >= 14:
                add(pyglet.text.Label(name, x=round(cx), y=round(cy + size * (0.40 if vp else 0.5)), anchor_x="center",
                                      anchor_y="center", font_name=FONT, font_size=font_pt(name_px),
                                      weight="bold", color=ink, batch=self.batch, group=groups[6]))
            if vp and size >= 10:
                r = min(max(7.0, size * 0.15), 16.0)
                bx, by = cx, cy + size * 0.66
                add(shapes.Circle(bx, by, r + 1, color=(30, 30, 30), batch=self.batch, group=groups[6]))
                add(shapes.Circle(bx, by, r, color=VP_BADGE, batch=self.batch, group=groups[6]))
                add(pyglet.text.Label(str(vp), x=round(bx), y=round(by), anchor_x="center", anchor_y="center",
                                      font_name=FONT, font_size=font_pt(r * 1.15), weight="bold",
                                      color=(20, 20, 20, 255), batch=self.batch, group=groups[7]))
            if id_px >= 8:
                faint = (ink[0], ink[1], ink[2], 140)
                add(pyglet.text.Label(sid, x=round(cx), y=round(cy - size * 0.6), anchor_x="center",
                                      anchor_y="center", font_name=FONT, font_size=font_pt(id_px),
                                      color=faint, batch=self.batch, group=groups[3]))
            self._counters(state, sid, cx, cy, size, colours, side_order, kinds, groups)

    def _counters(self, state: GameState, sid: str, cx: float, cy: float, size: float,
                  colours: Mapping[str, Colour], side_order: Sequence[str], kinds: Mapping[str, str],
                  groups: list[pyglet.graphics.Group]) -> None:
        pieces = state.pieces_at(sid)
        if not pieces:
            return
        by_owner: dict[str, dict[str, int]] = {}
        for p in pieces:
            counts = by_owner.setdefault(p.owner, {})
            counts[p.kind] = counts.get(p.kind, 0) + 1
        order = sorted(by_owner, key=lambda o: side_order.index(o) if o in side_order else len(side_order))
        px = min(max(9.0, size * 0.24), 20.0)
        h = px * 1.55
        gap = max(1.0, size * 0.05)
        total = len(order) * h + (len(order) - 1) * gap
        y = cy + total / 2 - h
        for owner in order:
            text = " ".join(f"{kinds.get(k, k[:1])}{n}" for k, n in sorted(by_owner[owner].items()))
            base = counter_colour(colours[owner])
            label = pyglet.text.Label(text, x=round(cx), y=round(y + h / 2), anchor_x="center",
                                      anchor_y="center", font_name=FONT, font_size=font_pt(px),
                                      weight="bold", color=text_colour_on(base), batch=self.batch,
                                      group=groups[5])
            w = min(max(label.content_width + px * 0.9, h * 1.2), size * 1.6)
            self.items += framed(cx - w / 2, y, w, h, max(1.0, round(size * 0.025)), base, (20, 20, 20),
                                 self.batch, groups[4])
            self.items.append(label)
            y -= h + gap

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
