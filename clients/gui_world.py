"""The world map in the window: territories and sea zones drawn as their shapes.

A board whose layout is `{"kind": "world", ...}` (or whose spaces have shapes) is drawn by
`WorldView` instead of the hex view: every space is its polygons, filled with the colour of
the power that holds it (neutrals pale, impassable ones hatched, sea zones blue), with its
name or number, its production value, a star for a victory city, a roundel for a capital,
an industrial complex's mark, and the pieces as the hex view's counters, laid out in a box
that lies inside the space, at every zoom. A click finds the space under the mouse by its
polygons.

The polygons are built once, on the GPU, in map units, and scaled by a uniform: a zoom
rebuilds only the labels and counters (a few vertex lists a space, see gui_mesh), and a
move only the spaces whose holder or pieces changed. `WorldView` and `WorldLayer` answer
the window as `MapView` and `MapLayer` do.

Nothing here knows a rule: what a space is worth and who holds it are the map's attributes
and the state's control; a piece that is an industrial complex is known by its kind's
`factory` tag (or its name); a power's colours come from the map's layout (`colours`) when
it gives them.
"""

from __future__ import annotations

import math
from collections.abc import Container, Mapping, Sequence
from typing import Any

import pyglet
from pyglet import gl, shapes

from clients import gui_mesh
from clients.gui_map import (
    FONT,
    INK,
    Colour,
    MapView,
    SideColours,
    UnitLook,
    counter_width,
    framed,
    shade,
    symbol_for,
    text_colour_on,
)
from clients.gui_mesh import GlyphText, Mesh, ScaledGroup, text_width
from clients.world_geometry import WorldGeometry, geometry, is_world
from engine.board import Board
from engine.state import GameState

Point = tuple[float, float]

SEA: Colour = (158, 192, 222)
SEA_EDGE: Colour = (104, 138, 172)
SEA_INK: tuple[int, int, int, int] = (22, 52, 92, 255)
LAND_EDGE: Colour = (36, 36, 38)
NEUTRAL_LAND: Colour = (230, 224, 200)
IMPASSABLE: Colour = (214, 206, 182)
#: what is inside the map's bounds but no space (the Arctic, lakes)
OFF_MAP: Colour = (200, 210, 216)

#: the zoom range, in multiples of the scale that fits the whole map
MIN_ZOOM, MAX_ZOOM = 0.8, 18.0


def map_view_for(board: Board, colours: SideColours | None = None) -> MapView | WorldView:
    """The view that draws `board`: a world map for one with shapes, else the hex view.
    A world map's layout may give its powers' colours, which go into `colours`."""
    if is_world(board):
        view = WorldView(board)
        if colours is not None:
            view.apply_colours(colours)
        return view
    return MapView(board)


def _rgb(value: Any) -> Colour | None:
    if isinstance(value, str) and value.startswith("#") and len(value) == 7:
        try:
            return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
        except ValueError:
            return None
    if isinstance(value, (list, tuple)) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return value[0], value[1], value[2]
    return None


def is_factory(kind: str, units: Mapping[str, Any]) -> bool:
    """Whether pieces of `kind` are industrial complexes (drawn as a mark, not a counter):
    the kind's `factory` tag, or its name."""
    tags = getattr(units.get(kind), "tags", None) or ()
    if "factory" in {str(t).lower() for t in tags}:
        return True
    k = kind.lower()
    return "factory" in k or "industrial" in k


# -- the polygons, on the GPU ----------------------------------------------------------------
class _Polygons:
    """Every space's fill (one vertex list a space) and every border, built once in map
    units; drawn scaled by the view's size."""

    def __init__(self, view: WorldView) -> None:
        self.batch = pyglet.graphics.Batch()
        prog = gui_mesh.program()

        def scale() -> float:
            return view.size

        back = ScaledGroup(prog, scale, 0)
        fill_group = ScaledGroup(prog, scale, 1)
        sea_lines = ScaledGroup(prog, scale, 2)
        land_lines = ScaledGroup(prog, scale, 3)
        self.fills: dict[str, Any] = {}
        self.colour: dict[str, Colour] = {}
        self.version = 0
        x0, y0, x1, y1 = view.geo.bounds
        self.back = prog.vertex_list_indexed(4, gl.GL_TRIANGLES, (0, 1, 2, 0, 2, 3), self.batch, back,
                                             position=("f", (x0, y0, x1, y0, x1, y1, x0, y1)),
                                             colors=("Bn", (*OFF_MAP, 255) * 4), hatch=("f", (0.0,) * 4))
        board = view.board
        sea_pts: list[float] = []
        land_pts: list[float] = []
        for sid, shape in view.geo.spaces.items():
            n = len(shape.vertices) // 2
            hatch = 1.0 if shape.land and board.spaces[sid].get("impassable") else 0.0
            colour = SEA if not shape.land else NEUTRAL_LAND
            self.fills[sid] = prog.vertex_list_indexed(
                n, gl.GL_TRIANGLES, shape.indices, self.batch, fill_group,
                position=("f", shape.vertices), colors=("Bn", (*colour, 255) * n), hatch=("f", (hatch,) * n))
            self.colour[sid] = colour
            out = land_pts if shape.land else sea_pts
            for poly in shape.polygons:
                for ring in poly:
                    px, py = ring[-1]
                    for qx, qy in ring:
                        if (qx, qy) != (px, py):
                            out += (px, py, qx, qy)
                        px, py = qx, qy
        self.lines = []
        for pts, colour, group in ((sea_pts, SEA_EDGE, sea_lines), (land_pts, LAND_EDGE, land_lines)):
            n = len(pts) // 2
            if n:
                self.lines.append(prog.vertex_list(n, gl.GL_LINES, self.batch, group, position=("f", pts),
                                                   colors=("Bn", (*colour, 255) * n), hatch=("f", (0.0,) * n)))

    def paint(self, sid: str, colour: Colour) -> None:
        if self.colour.get(sid) != colour:
            vl = self.fills[sid]
            vl.colors[:] = (*colour, 255) * (len(vl.colors) // 4)
            self.colour[sid] = colour
            self.version += 1


class _Tint:
    """A lit space's fill (its polygons again, in a translucent colour), drawn with the map;
    `batch` is the layer's, as the window's tints of hexes are. The window deletes its tints
    and makes them again whenever its lights change: the layer keeps a tint deleted and made
    again as it was, so that the map's picture need not be drawn again (see WorldLayer.tint)."""

    def __init__(self, layer: WorldLayer, key: tuple[Any, ...]) -> None:
        self.layer = layer
        self.batch = layer.batch
        self.key: tuple[Any, ...] | None = key

    def delete(self) -> None:
        if self.key is not None:
            self.layer.release_tint(self.key)
            self.key = None


class _Outline:
    """A space's outlines (ring 0 of each of its polygons), as one overlay item."""

    def __init__(self, vertex_list: Any) -> None:
        self.vertex_list = vertex_list

    def delete(self) -> None:
        if self.vertex_list is not None:
            self.vertex_list.delete()
            self.vertex_list = None


# -- the view ------------------------------------------------------------------------------
class WorldView:
    """A world map on screen: the plane of world_geometry (map units) times `size` pixels,
    its origin at `offset`. Answers the window as `MapView` does."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.geo: WorldGeometry = geometry(board)
        #: the spaces drawn (by the hex view's name for them)
        self.hexes: dict[str, int] = {sid: i for i, sid in enumerate(self.geo.spaces)}
        layout = board.meta.get("layout") or {}
        raw = layout.get("colours") or layout.get("colors") or {}
        #: the powers' colours the map gives (territory, counters), in the map's order
        self.power_colours: dict[str, tuple[Colour, Colour | None]] = {}
        if isinstance(raw, Mapping):
            for power, value in raw.items():
                fill, counter = (value[0], value[1]) if isinstance(value, list) and len(value) == 2 else (value, None)
                rgb = _rgb(fill)
                if rgb is not None:
                    self.power_colours[str(power)] = (rgb, _rgb(counter))
        self.size = 1.0
        self.offset: Point = (0.0, 0.0)
        self.fit_size = 1.0
        self.area = (0, 0, 100, 100)
        self.polygons: _Polygons | None = None
        self._outlines: dict[tuple[Any, ...], Mesh] = {}
        self._outline_group: ScaledGroup | None = None
        #: the map as last drawn, copied to the frame while nothing on it changes
        self.picture = gui_mesh.FrameCache()
        #: whether to draw through `picture` (False: draw every shape every frame)
        self.cache = True

    def apply_colours(self, colours: SideColours) -> None:
        """Give the powers the map's layout names the colours it gives them (and take the
        order of the powers from the window's: the turn order)."""
        known = [p for p in colours if p in self.power_colours]
        self.power_colours = {p: self.power_colours[p] for p in known + [p for p in self.power_colours
                                                                           if p not in known]}
        for power, (fill, counter) in self.power_colours.items():
            colours._set(power, (fill, counter or shade(fill, 0.55)))   # noqa: SLF001 - the map's own choice

    # -- geometry --------------------------------------------------------------------------
    def world(self, sid: str) -> Point:
        """A space's label point, in pixels from the offset."""
        x, y = self.geo.spaces[sid].label
        return x * self.size, y * self.size

    def screen(self, sid: str) -> Point:
        x, y = self.world(sid)
        return x + self.offset[0], y + self.offset[1]

    def space_at(self, sx: float, sy: float) -> str | None:
        """The space under a screen point, if any (by its polygons)."""
        return self.geo.space_at((sx - self.offset[0]) / self.size, (sy - self.offset[1]) / self.size)

    def fit(self, area: tuple[int, int, int, int], margin: int = 12) -> None:
        """Scale and centre the whole map in `area` (x, y, width, height)."""
        self.area = area
        x0, y0, x1, y1 = self.geo.bounds
        ax, ay, aw, ah = area
        bw, bh = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        self.fit_size = max(0.05, min((aw - 2 * margin) / bw, (ah - 2 * margin) / bh))
        self.size = self.fit_size
        self.offset = (round(ax + aw / 2 - (x0 + x1) / 2 * self.size), round(ay + ah / 2 - (y0 + y1) / 2 * self.size))

    def zoom(self, factor: float, about: Point) -> bool:
        """Zoom by `factor` keeping the screen point `about` still. False if at a limit."""
        new = min(max(self.size * factor, self.fit_size * MIN_ZOOM), self.fit_size * MAX_ZOOM)
        if abs(new - self.size) < 1e-9:
            return False
        f = new / self.size
        mx, my = about
        self.offset = (round(mx - (mx - self.offset[0]) * f), round(my - (my - self.offset[1]) * f))
        self.size = new
        return True

    def centre_on(self, sid: str) -> None:
        ax, ay, aw, ah = self.area
        x, y = self.world(sid)
        self.offset = (round(ax + aw / 2 - x), round(ay + ah / 2 - y))

    def pan(self, dx: float, dy: float) -> None:
        self.offset = (round(self.offset[0] + dx), round(self.offset[1] + dy))

    def visible_rect(self) -> tuple[float, float, float, float]:
        """The part of the plane the map area shows, in pixels from the offset."""
        ax, ay, aw, ah = self.area
        ox, oy = self.offset
        return ax - ox, ay - oy, ax + aw - ox, ay + ah - oy

    # -- drawing -----------------------------------------------------------------------------
    def build(self, state: GameState, colours: SideColours, side_order: Sequence[str],
              looks: Mapping[str, UnitLook] | None = None, show_ids: bool = False) -> WorldLayer:
        """The labels and counters of the visible part of the map and a margin around it;
        the polygons are built on the first call and kept."""
        if self.polygons is None:
            self.polygons = _Polygons(self)
        x0, y0, x1, y1 = self.visible_rect()
        mx, my = (x1 - x0) / 3, (y1 - y0) / 3
        return WorldLayer(self, state, colours, side_order, (x0 - mx, y0 - my, x1 + mx, y1 + my), looks=looks,
                          show_ids=show_ids)

    def outline(self, sid: str, colour: tuple[int, int, int, int], thickness: float,
                batch: pyglet.graphics.Batch, scale: float = 1.0) -> _Outline:
        """The outline of a space (for hover, selection and the spaces an option names), in
        pixels from the offset. `scale` (a hex's inset) is not used: a territory's outline is
        its border."""
        s = self.size
        thick = min(max(1.5, thickness), 4.0)
        key = (sid, tuple(colour), round(thick, 2), s)
        mesh = self._outlines.get(key)
        if mesh is None:
            if len(self._outlines) > 400 or any(k[3] != s for k in self._outlines):
                self._outlines.clear()
            mesh = self._outlines[key] = Mesh()
            half = thick / 2
            for poly in self.geo.spaces[sid].polygons:
                ring = poly[0]
                pts = [(x * s, y * s) for x, y in (ring[:-1] if ring[0] == ring[-1] else ring)]
                if len(pts) < 2:
                    continue
                px, py = pts[-1]
                for qx, qy in pts:
                    if abs(qx - px) + abs(qy - py) > 0.5 or (qx, qy) == pts[0]:
                        mesh.line(px, py, qx, qy, thick, colour)
                        mesh.rect(qx - half, qy - half, thick, thick, colour)      # the joint
                        px, py = qx, qy
        if self._outline_group is None:
            self._outline_group = gui_mesh.pixel_group(0)
        return _Outline(mesh.vertex_list(batch, self._outline_group))

    # -- the window's extras -------------------------------------------------------------------
    def build_legend(self, x: float, y: float, state: GameState, colours: SideColours,
                     looks: Mapping[str, UnitLook], batch: pyglet.graphics.Batch,
                     items: list[Any]) -> tuple[float, float, float, float]:
        return build_world_legend(self, x, y, state, colours, looks, batch, items)

    def build_chart(self, game: Any, colours: SideColours, x: float, y: float, width: float,
                    batch: pyglet.graphics.Batch, groups: tuple[pyglet.graphics.Group, pyglet.graphics.Group],
                    items: list[Any]) -> float:
        return build_turn_chart(game, colours, x, y, width, batch, groups, items)


# -- laying out a space ---------------------------------------------------------------------------
def _two_lines(name: str) -> list[str] | None:
    words = name.split()
    if len(words) < 2:
        return None
    best = None
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        if best is None or max(len(a), len(b)) < max(len(best[0]), len(best[1])):
            best = (a, b)
    return list(best) if best else None


def _counter_fit(n: int, w: float, h: float, cap: float) -> tuple[int, int, float]:
    """Columns, rows and height of `n` counters in a w x h box (at most `cap` tall)."""
    best = (n, 1, 0.0)
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        if cols * rows - n >= cols:
            continue
        ch = min(h / (rows + (rows - 1) * 0.1), w / (cols * counter_width(1) + (cols - 1) * 0.1), cap)
        if ch > best[2]:
            best = (cols, rows, ch)
    return best


Plan = tuple[tuple[float, float, float, float], float, list[str], float, bool, int, int, float]


def plan_space(boxes: Sequence[tuple[float, float, float, float]], s: float, name: str, bold: bool, two_lines: bool,
               n_marks: int, n_stacks: int, n_owners: int) -> Plan | None:
    """The best way to fit a space's name, marks and counters in one of its boxes (on the
    plane; `s` pixels a map unit): (the box in pixels, name px, name lines, mark px, one
    counter a side?, columns, rows, counter height). None if nothing fits."""
    top_px = min(max(6.0 + s * 0.5, 8.0), 14.0)
    sizes = []
    px = top_px
    while px >= 7.0:
        sizes.append(px)
        px *= 0.86
    cap = min(max(s * 1.1, 13.0), 26.0)
    names: list[tuple[float, list[str]]] = []
    two = _two_lines(name) if two_lines else None
    for px in sizes:
        names.append((px, [name]))
        if two:
            names.append((px, two))
    names.append((0.0, []))
    best: tuple[float, Plan] | None = None
    for x0, y0, x1, y1 in boxes:
        box = (x0 * s + 1, y0 * s + 1, x1 * s - 1, y1 * s - 1)
        bw, bh = box[2] - box[0], box[3] - box[1]
        if bw < 4 or bh < 4:
            continue
        for px, lines in names:
            if lines and max(text_width(line, px, bold) for line in lines) > bw:
                continue
            name_h = len(lines) * px * 1.12
            mark_px = min(max((px or 7.0) * 1.35, 9.0), 18.0)
            for with_marks in ((True, False) if n_marks else (False,)):
                marks_h = mark_px if with_marks else 0.0
                if with_marks and n_marks * mark_px + (n_marks - 1) * 2 > bw:
                    continue
                rest = bh - name_h - marks_h - 2.0 * (bool(name_h) + bool(marks_h))
                if rest < 0:
                    continue
                score = (2.5 + px / 100 + (0.2 if len(lines) == 1 else 0.0)) if lines else 0.0
                score += 3.0 if with_marks else 0.0
                cols, rows, ch, per_owner = 0, 0, 0.0, False
                if n_stacks:
                    cols, rows, ch = _counter_fit(n_stacks, bw, rest, cap)
                    if ch < 11 and n_stacks > 1:
                        cols, rows, ch = _counter_fit(n_owners, bw, rest, cap)
                        per_owner = True
                    if ch >= (9 if per_owner else 11):
                        score += (2.0 if per_owner else 3.0) + min(ch, cap) / cap
                    elif rest >= 4:
                        cols, rows, ch = 0, 0, 0.0
                        score += 0.5
                    else:
                        continue
                # a little for a bigger box: the content sits better in it
                score += min(bw * bh, 40000) / 400000
                plan = (box, px, lines, mark_px if with_marks else 0.0, per_owner, cols, rows, ch)
                if best is None or score > best[0]:
                    best = (score, plan)
    return best[1] if best else None


# -- the layer -----------------------------------------------------------------------------------
class WorldLayer:
    """The names, marks and counters of a world map at one scale (in pixels from the
    offset). `update` redoes only the spaces whose holder or pieces changed."""

    def __init__(self, view: WorldView, state: GameState, colours: SideColours, side_order: Sequence[str],
                 bounds: tuple[float, float, float, float] | None = None,
                 looks: Mapping[str, UnitLook] | None = None, show_ids: bool = False) -> None:
        self.view = view
        self.size = view.size
        self.bounds = bounds
        self.show_ids = show_ids
        self.looks = dict(looks or {})
        self.side_order = list(view.power_colours) + [s for s in side_order if s not in view.power_colours]
        self.batch = pyglet.graphics.Batch()
        self.mesh_group = gui_mesh.pixel_group(0)
        self.text_group = pyglet.graphics.Group(order=1)
        units = getattr(state.rules, "units", None)
        self.units: Mapping[str, Any] = units if isinstance(units, Mapping) else {}
        self.version = 0
        #: per space: what it was built from, its vertex lists, its texts, its counters
        self._built: dict[str, tuple[Any, list[Any], list[str], list[tuple[Any, ...]]]] = {}
        #: the names drawn, with their boxes (x0, y0, x1, y1)
        self.names: dict[str, tuple[float, float, float, float]] = {}
        self._tint_group: ScaledGroup | None = None
        self._mixed: dict[str, set[str]] = {}
        #: the tints drawn: (space, colour) -> [vertex list, how many of the window's tints use it]
        self._tints: dict[tuple[Any, ...], list[Any]] = {}
        if bounds is None:
            self.shown = list(view.geo.spaces)
        else:
            bx0, by0, bx1, by1 = bounds
            s = self.size
            self.shown = [sid for sid, sh in view.geo.spaces.items()
                          if sh.bbox[0] * s <= bx1 and sh.bbox[2] * s >= bx0 and sh.bbox[1] * s <= by1
                          and sh.bbox[3] * s >= by0]
        self.update(state, colours)

    @property
    def texts(self) -> dict[str, list[str]]:
        """What is written in each space built (its name or number, values, counts)."""
        return {sid: built[2] for sid, built in self._built.items()}

    @property
    def counters(self) -> list[tuple[Any, ...]]:
        """Where each counter is drawn: (space, owner, kind, x, y, w, h), pixels from the
        offset (kind "" for a side's mark where no counter fits)."""
        return [c for built in self._built.values() for c in built[3]]

    @property
    def mixed(self) -> set[tuple[str, str]]:
        """(space, owner) whose one counter stands for all the owner's pieces there."""
        return {(sid, o) for sid, owners in self._mixed.items() for o in owners}

    def counter_at(self, x: float, y: float) -> tuple[Any, ...] | None:
        """The counter drawn at a point (pixels from the offset), if any."""
        for c in reversed(self.counters):
            _, _, _, cx, cy, w, h = c
            if cx <= x < cx + w and cy <= y < cy + h:
                return c
        return None

    def counter_pieces(self, state: GameState, counter: Sequence[Any]) -> frozenset[int]:
        """The pieces a counter stands for: its owner's pieces of its kind in its space (all
        the owner's pieces there, industrial complexes aside, for a counter that stands for
        several kinds or a side's mark)."""
        sid, owner, kind = counter[0], counter[1], counter[2]
        every = kind == "" or (sid, owner) in self.mixed
        return frozenset(p.id for p in state.pieces_at(sid) if p.owner == owner
                         and (p.kind == kind or every and not is_factory(p.kind, self.units)))

    def counters_of(self, state: GameState, pieces: Container[int]) -> list[tuple[Any, ...]]:
        """The counters standing for any of `pieces`."""
        return [c for c in self.counters if any(p in pieces for p in self.counter_pieces(state, c))]

    def tint_group(self) -> ScaledGroup:
        if self._tint_group is None:
            self._tint_group = ScaledGroup(gui_mesh.program(), lambda: self.view.size, -1)
        return self._tint_group

    def tint(self, sid: str, colour: Sequence[int]) -> _Tint:
        """Fill space `sid` again in a translucent `colour`, over its ground and under its
        names and counters (delete() takes it away)."""
        rgba = (*colour[:3], colour[3] if len(colour) > 3 else 255)
        key = (sid, rgba)
        entry = self._tints.get(key)
        if entry is None:
            shape = self.view.geo.spaces[sid]
            n = len(shape.vertices) // 2
            group = self.tint_group()
            vl = group.program.vertex_list_indexed(n, gl.GL_TRIANGLES, shape.indices, self.batch, group,
                                                   position=("f", shape.vertices), colors=("Bn", rgba * n),
                                                   hatch=("f", (0.0,) * n))
            entry = self._tints[key] = [vl, 0]
            self.version += 1
        entry[1] += 1
        return _Tint(self, key)

    def release_tint(self, key: tuple[Any, ...]) -> None:
        """A tint's delete(): it goes at the next draw, unless it is made again before."""
        entry = self._tints.get(key)
        if entry is not None:
            entry[1] -= 1

    def _purge_tints(self) -> None:
        for key, (vl, uses) in list(self._tints.items()):
            if uses <= 0:
                vl.delete()
                del self._tints[key]
                self.version += 1

    @property
    def fills(self) -> dict[str, Any]:
        """The polygons' vertex lists, one a space (all spaces: the polygons are kept)."""
        return self.view.polygons.fills if self.view.polygons is not None else {}

    def covers(self, view: WorldView) -> bool:
        """Whether this layer was built for the view's scale and holds all it shows."""
        if abs(self.size - view.size) > 1e-9:
            return False
        if self.bounds is None:
            return True
        x0, y0, x1, y1 = view.visible_rect()
        bx0, by0, bx1, by1 = self.bounds
        return bx0 <= x0 and by0 <= y0 and x1 <= bx1 and y1 <= by1

    def draw(self) -> None:
        """Draw the map: the polygons, names, marks and counters, through the view's
        picture of them (drawn again only when something on the map changed)."""
        view = self.view
        self._purge_tints()
        if not view.cache:
            self._draw()
            return
        version = view.polygons.version if view.polygons is not None else 0
        view.picture.draw((id(self), self.version, version, view.offset, view.size, view.area), self._draw, view.area)

    def _draw(self) -> None:
        if self.view.polygons is not None:
            self.view.polygons.batch.draw()
        self.batch.draw()

    def delete(self) -> None:
        for built in self._built.values():
            for vl in built[1]:
                vl.delete()
        self._built.clear()

    # -- what a space shows ---------------------------------------------------------------------
    def fill(self, state: GameState, sid: str, colours: SideColours) -> Colour:
        if not self.view.geo.spaces[sid].land:
            return SEA
        owner = state.control.get(sid)
        if owner:
            return colours[owner]
        return IMPASSABLE if self.view.board.spaces[sid].get("impassable") else NEUTRAL_LAND

    def update(self, state: GameState, colours: SideColours) -> None:
        """Show another state at the same scale: the fills' colours, and the names, marks
        and counters of the spaces whose holder or pieces changed."""
        polygons = self.view.polygons
        if polygons is not None:
            for sid in self.view.geo.spaces:
                polygons.paint(sid, self.fill(state, sid, colours))
        for sid in self.shown:
            key = self._key(state, sid)
            old = self._built.get(sid)
            if old is not None and old[0] == key:
                continue
            if old is not None:
                for vl in old[1]:
                    vl.delete()
            self.names.pop(sid, None)
            self._built[sid] = self._build_space(sid, key, colours)
            self.version += 1

    @staticmethod
    def _key(state: GameState, sid: str) -> Any:
        counts: dict[tuple[str, str], int] = {}
        for p in state.pieces_at(sid):
            counts[(p.owner, p.kind)] = counts.get((p.owner, p.kind), 0) + 1
        return state.control.get(sid), tuple(sorted(counts.items()))

    def _stacks(self, counts: Mapping[tuple[str, str], int]) -> list[tuple[str, str]]:
        rank = {s: i for i, s in enumerate(self.side_order)}
        order = ("infantry", "artillery", "armour", "letter", "aircraft", "naval", "transport", "supply")

        def kind_rank(kind: str) -> int:
            look = self.looks.get(kind)
            return order.index(look.symbol) if look and look.symbol in order else len(order)

        return sorted(counts, key=lambda ok: (rank.get(ok[0], len(rank)), ok[0], kind_rank(ok[1]), ok[1]))

    def _build_space(self, sid: str, key: Any, colours: SideColours
                     ) -> tuple[Any, list[Any], list[str], list[tuple[Any, ...]]]:
        view = self.view
        shape = view.geo.spaces[sid]
        sp = view.board.spaces[sid]
        s = self.size
        owner = key[0]
        counts: dict[tuple[str, str], int] = {}
        factory_owners: list[str] = []
        for (o, kind), n in key[1]:
            if is_factory(kind, self.units):
                factory_owners.append(o)
            else:
                counts[(o, kind)] = n
        stacks = self._stacks(counts)
        owners: list[str] = []
        for o, _ in stacks:
            if o not in owners:
                owners.append(o)

        # the name, and the marks: a capital's roundel or a victory city's star, the
        # production value, an industrial complex
        if shape.land:
            name = sid if self.show_ids else sp.name
            ink = INK if not owner else text_colour_on(colours[owner])
        else:
            number = sp.get("number")
            name = sid if self.show_ids else (str(number) if number is not None else sp.name)
            ink = SEA_INK
        marks: list[tuple[str, Any, Colour]] = []
        if sp.get("capital"):
            power = sp.get("original_owner") or owner
            marks.append(("capital", None, colours.counter(power) if power else (60, 60, 60)))
        elif sp.get("victory_city"):
            marks.append(("victory", None, (0, 0, 0)))
        ipc = sp.get("ipc")
        if isinstance(ipc, (int, float)) and not isinstance(ipc, bool) and ipc > 0:
            marks.append(("ipc", ipc, (0, 0, 0)))
        for o in factory_owners:
            marks.append(("factory", None, shade(colours.counter(o), 0.85) if o else gui_mesh.FACTORY))

        mesh, text = Mesh(), GlyphText()
        drawn: list[tuple[Any, ...]] = []
        self._mixed.pop(sid, None)
        plan = plan_space(shape.boxes, s, name, not shape.land, shape.land, len(marks), len(stacks), len(owners))
        if plan is None:
            # nothing fits inside (a small island): one mark a side at the label point
            lx, ly = shape.label[0] * s, shape.label[1] * s
            self._stack_marks(mesh, sid, lx, ly, owners, colours, drawn, max(3.0, min(7.0, s * 1.2)))
        else:
            self._draw_plan(plan, mesh, text, sid, name, ink, not shape.land, marks, stacks, counts, owners,
                            colours, drawn)
        lists = []
        vl = mesh.vertex_list(self.batch, self.mesh_group)
        if vl is not None:
            lists.append(vl)
        lists += text.vertex_lists(self.batch, self.text_group)
        return key, lists, text.texts, drawn

    def _draw_plan(self, plan: Plan, mesh: Mesh, text: GlyphText, sid: str, name: str,
                   ink: tuple[int, int, int, int], bold: bool, marks: Sequence[tuple[str, Any, Colour]],
                   stacks: Sequence[tuple[str, str]], counts: Mapping[tuple[str, str], int], owners: Sequence[str],
                   colours: SideColours, drawn: list[tuple[Any, ...]]) -> None:
        box, px, lines, mark_px, per_owner, cols, rows, ch = plan
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        name_h = len(lines) * px * 1.12
        units_h = rows * ch + (rows - 1) * ch * 0.1 if ch else 0.0
        gap = 2.0
        parts = [h for h in (name_h, mark_px, units_h) if h]
        total = sum(parts) + gap * (len(parts) - 1)
        top = cy + total / 2
        if lines:
            w = 0.0
            for i, line in enumerate(lines):
                w = max(w, text.add(line, cx, top - px * 1.12 * (i + 0.5), px, ink, bold=bold))
            self.names[sid] = (cx - w / 2, top - name_h, cx + w / 2, top)
            top -= name_h + gap
        if mark_px:
            m = mark_px
            mx = cx - (len(marks) * m + (len(marks) - 1) * 2) / 2 + m / 2
            for what, arg, ring in marks:
                gui_mesh.mark(mesh, text, what, arg, mx, top - m / 2, m, ring)
                mx += m + 2
            top -= m + gap
        if not ch:
            if owners:
                m = 6.0
                self._stack_marks(mesh, sid, cx, top - m / 2, owners, colours, drawn, m)
            return
        mixed: set[str] = set()
        if per_owner:
            by_owner: dict[str, tuple[str, int]] = {}
            for o, kind in stacks:
                first, n = by_owner.get(o, (kind, 0))
                by_owner[o] = (first, n + counts[(o, kind)])
            mixed = {o for o in by_owner if sum(1 for ok in stacks if ok[0] == o) > 1}
            shown = [(o, k, n) for o, (k, n) in by_owner.items()]
            if mixed:
                self._mixed[sid] = mixed
        else:
            shown = [(o, k, counts[(o, k)]) for o, k in stacks]
        w = counter_width(ch)
        gap_c = ch * 0.1
        for i, (o, kind, n) in enumerate(shown):
            row, col = divmod(i, cols)
            in_row = min(cols, len(shown) - row * cols)
            x = cx - (in_row * w + (in_row - 1) * gap_c) / 2 + col * (w + gap_c)
            y = top - (row + 1) * ch - row * gap_c
            look = self.looks.get(kind) or UnitLook(symbol_for(kind), kind[:1].upper())
            colour = colours.counter(o)
            if o in mixed:
                # several kinds under one counter: drawn as a stack, a second counter behind
                small = ch * 0.84
                sw = counter_width(small)
                e = max(1.0, small * 0.05)
                mesh.rect(x + w - sw, y, sw, small, (16, 16, 18))
                mesh.rect(x + w - sw + e, y + e, sw - 2 * e, small - 2 * e, colour)
                gui_mesh.counter(mesh, text, x, y + ch - small, small, colour, look, n)
            else:
                gui_mesh.counter(mesh, text, x, y, ch, colour, look, n)
            drawn.append((sid, o, kind, x, y, w, ch))

    @staticmethod
    def _stack_marks(mesh: Mesh, sid: str, cx: float, cy: float, owners: Sequence[str], colours: SideColours,
                     drawn: list[tuple[Any, ...]], m: float) -> None:
        """One small square a side, in its counters' colour, where counters do not fit."""
        x = cx - (len(owners) * m + (len(owners) - 1) * 2) / 2
        for o in owners:
            mesh.rect(x - 1, cy - m / 2 - 1, m + 2, m + 2, (16, 16, 18))
            mesh.rect(x, cy - m / 2, m, m, colours.counter(o))
            drawn.append((sid, o, "", x, cy - m / 2, m, m))
            x += m + 2


# -- the legend and the turn chart -----------------------------------------------------------------
def build_world_legend(view: WorldView, x: float, y: float, state: GameState, colours: SideColours,
                       looks: Mapping[str, UnitLook], batch: pyglet.graphics.Batch,
                       items: list[Any]) -> tuple[float, float, float, float]:
    """A legend box with its lower-left corner at (x, y), in columns: the powers' ground and
    counters, neutral and impassable land, sea zones, the marks, the units on the map."""
    board = view.board
    holders = set(state.control.values()) | {p.owner for p in state.pieces.values()}
    powers = [p for p in view.power_colours if p in holders] + sorted(h for h in holders
                                                                        if h and h not in view.power_colours)
    rows: list[tuple[str, tuple[str, Any]]] = [(p, ("side", p)) for p in powers]
    spaces = board.spaces.values()
    rows.append(("neutral", ("fill", NEUTRAL_LAND)))
    if any(sp.get("impassable") for sp in spaces):
        rows.append(("impassable", ("hatch", IMPASSABLE)))
    if any(not view.geo.spaces[s].land for s in view.geo.spaces):
        rows.append(("sea zone", ("sea", None)))
    if any(sp.get("capital") for sp in spaces):
        rows.append(("capital", ("capital", powers[0] if powers else "")))
    if any(sp.get("victory_city") for sp in spaces):
        rows.append(("victory city", ("victory", None)))
    if any(sp.get("ipc") for sp in spaces):
        rows.append(("production (IPCs)", ("ipc", 3)))
    layer_units = getattr(state.rules, "units", None)
    units: Mapping[str, Any] = layer_units if isinstance(layer_units, Mapping) else {}
    kinds_here = {p.kind for p in state.pieces.values() if p.space in view.hexes}
    if any(is_factory(k, units) for k in kinds_here):
        rows.append(("industrial complex", ("factory", "")))
    order = {k: i for i, k in enumerate(units)}
    for kind in sorted((k for k in kinds_here if not is_factory(k, units)), key=lambda k: (order.get(k, len(order)), k)):
        if kind in looks:
            rows.append((kind, ("unit", kind)))
    row_h, pad, swatch, px = 18, 7, 36, 11.5
    note = "L: this legend   H: space ids   wheel: zoom   drag: pan"
    per_col = max(1, math.ceil(len(rows) / 3))
    cols = [rows[i:i + per_col] for i in range(0, len(rows), per_col)]
    widths = [swatch + pad + max(text_width(t, px) for t, _ in col) for col in cols]
    width = max(pad * (len(cols) + 1) + sum(widths) + 10 * (len(cols) - 1), text_width(note, 10.5) + 2 * pad)
    height = pad * 2 + row_h * (per_col + 1)
    mesh, text = Mesh(), GlyphText()
    mesh.rect(x, y, width, height, (110, 116, 128))
    mesh.rect(x + 1, y + 1, width - 2, height - 2, (24, 26, 30, 240))
    text.add(note, x + pad, y + pad + row_h / 2, 10.5, (170, 174, 184, 255), anchor_x="left")
    cx = x + pad
    for col, w in zip(cols, widths, strict=True):
        ty = y + height - pad - row_h / 2
        for label, (what, arg) in col:
            text.add(label, cx + swatch + pad, ty, px, (232, 232, 236, 255), anchor_x="left")
            if what == "side":
                mesh.rect(cx, ty - 7, 16, 14, colours[arg])
                mesh.rect(cx + 19, ty - 7, 16, 14, colours.counter(arg))
            elif what in ("fill", "hatch", "sea"):
                mesh.hatching = 1.0 if what == "hatch" else 0.0
                mesh.rect(cx, ty - 7, swatch - 1, 14, SEA if what == "sea" else arg)
                mesh.hatching = 0.0
                if what == "sea":
                    text.add("12", cx + swatch / 2, ty, 10.5, SEA_INK, bold=True)
            elif what in ("capital", "victory", "ipc", "factory"):
                ring = colours.counter(arg) if what == "capital" and arg else gui_mesh.FACTORY
                gui_mesh.mark(mesh, text, what, 3 if what == "ipc" else None, cx + swatch / 2, ty, 14, ring)
            elif what == "unit":
                side = powers[0] if powers else ""
                gui_mesh.counter(mesh, text, cx + 2, ty - 7, 14, colours.counter(side), looks[arg], None)
            ty -= row_h
        cx += w + pad + 10
    vl = mesh.vertex_list(batch, gui_mesh.pixel_group(10))
    items.append(vl)
    items += text.vertex_lists(batch, pyglet.graphics.Group(order=11))
    return x, y, width, height


def build_turn_chart(game: Any, colours: SideColours, x: float, y: float, width: float,
                     batch: pyglet.graphics.Batch, groups: tuple[pyglet.graphics.Group, pyglet.graphics.Group],
                     items: list[Any]) -> float:
    """The powers in turn order, the one to play marked, with their side, treasury and
    income (the rules' `income` procedure, where they have one), and the phases of the turn,
    the current one marked. Its top-left at (x, y); returns the y below it."""
    structure = game.ruleset.structure
    state = game.state
    if not structure.per_power or not structure.powers:
        return y
    bg, fg = groups
    logic = game.ruleset.logic
    rules = game.ruleset.rules
    income = None
    if hasattr(rules, "has_procedure") and rules.has_procedure("income"):
        income = rules.procedure("income")
    current = None if game.over else structure.power(state)
    names = {name for (_, name) in state.resources}
    money = "ipc" if "ipc" in names else (sorted(names)[0] if names else None)
    head = pyglet.text.Label(f"Turn order — round {state.turn}", x=round(x), y=round(y), anchor_y="top",
                             font_name=FONT, font_size=9, weight="bold", color=(150, 154, 162, 255), batch=batch,
                             group=fg)
    items.append(head)
    y -= head.content_height + 3
    cols = (18, 110, 176, 262)
    row_h = 17
    for power in structure.powers:
        on = power == current
        if on:
            items.append(shapes.Rectangle(x, y - row_h, width, row_h, color=(74, 88, 118), batch=batch, group=bg))
        ty = y - row_h / 2
        items.append(shapes.Rectangle(x + 4, ty - 5, 10, 10, color=colours[power], batch=batch, group=fg))
        r, g, b = colours[power]
        ink = (min(255, r + 50), min(255, g + 50), min(255, b + 50), 255)
        texts = [(("▶ " if on else "") + power, cols[0], ink if not on else (255, 255, 255, 255), True),
                 (logic.side_of(power), cols[1], (150, 154, 162, 255), False)]
        if money is not None:
            texts.append((f"{state.resource(power, money)} {money.upper() if len(money) <= 3 else money}", cols[2],
                          (226, 228, 232, 255), True))
        if income is not None:
            try:
                value = income(state, power)
            except Exception:  # noqa: BLE001 - the chart shows what it can
                value = None
            if value is not None:
                texts.append((f"income {value}", cols[3], (150, 154, 162, 255), False))
        for text, cx, colour, bold in texts:
            items.append(pyglet.text.Label(text, x=round(x + cx), y=round(ty), anchor_y="center", font_name=FONT,
                                           font_size=9.5, weight="bold" if bold else "normal", color=colour,
                                           batch=batch, group=fg))
        y -= row_h
    # the phases of the turn, the current one marked
    phases = [p for p in structure.phases if p.when is None or _safe(p.when, state)]
    now = None if game.over else structure.phase(state).name
    y -= 4
    px = x
    line_h = 16
    for p in phases:
        text = p.name.replace("_", " ")
        label = pyglet.text.Label(text, x=0, y=0, anchor_y="center", font_name=FONT, font_size=8.5,
                                  weight="bold" if p.name == now else "normal",
                                  color=(255, 214, 0, 255) if p.name == now else (150, 154, 162, 255), batch=batch,
                                  group=fg)
        w = label.content_width + 10
        if px + w > x + width and px > x:
            px = x
            y -= line_h + 2
        label.x, label.y = round(px + 5), round(y - line_h / 2)
        if p.name == now:
            items += framed(px, y - line_h, w, line_h, 1, (60, 52, 20), (200, 160, 60), batch, bg)
        items.append(label)
        px += w + 3
    return y - line_h - 4


def _safe(fn: Any, state: GameState) -> bool:
    try:
        return bool(fn(state))
    except Exception:  # noqa: BLE001 - a phase whose condition cannot be read is shown
        return True
