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

What else the map shows, the rules say through view procedures (queries, all optional; see
`RuleViews` and rulesets/aarhe/aarhe/views.rules):

* `map_terrain(s: str) -> list[str]`: patterns drawn over a space's ground: "dunes"
  (desert), "snow" (a white hatch), "peaks" (mountains), "atoll" (a reef ring round a small
  island); any other name is drawn as a stipple;
* `map_marks() -> map[str, map[str, str]]`: marks beside a space's own, by kind: "loss" (a
  red badge with its text, the IPCs a territory will lose), "target" (a target with its
  text, the air missions flying against it); any other kind is a pale badge with its text;
* `map_lines() -> list[list[str]]`: lines [from, to, kind] between spaces' label points
  ("flight": dashed, with an arrow at `to`);
* `map_legend() -> map[str, str]`: the legend's words for the patterns, marks and lines;
* `power_notes(p: str) -> list[str]`: lines under a power in the panel's turn order.
"""

from __future__ import annotations

import logging
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
from clients.view_frame import ViewFrame
from clients.words import spaced
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

#: the rules' notes under a power in the turn order
NOTE: tuple[int, int, int, int] = (236, 196, 120, 255)

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


# -- what the rules show ----------------------------------------------------------------------------
#: the view procedures' failures already told on the console
_told: set[str] = set()


class RuleViews:
    """The rules' view procedures (see the module's docstring), read for the map: each is
    optional, and what one gives that is not of its shape is left out. A procedure that
    fails is left out too, its error kept in `errors` (the map shows what it can)."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.errors: list[str] = []

    def _call(self, name: str, state: GameState, *args: Any) -> Any:
        rules = self.rules
        if rules is None or not hasattr(rules, "has_procedure") or not rules.has_procedure(name):
            return None
        try:
            return rules.procedure(name)(state, *args)
        except Exception as exc:  # noqa: BLE001 - a view the rules cannot work out is left out
            message = f"procedure `{name}`: {exc}"
            if message not in self.errors:
                self.errors.append(message)
            if message not in _told:                 # once a run, on the console: the modder's clue
                _told.add(message)
                logging.getLogger("wargame.window").warning("the map leaves out what %s", message)
            return None

    def has(self, name: str) -> bool:
        rules = self.rules
        return rules is not None and hasattr(rules, "has_procedure") and rules.has_procedure(name)

    def terrain(self, state: GameState, spaces: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The patterns drawn over each space that has any."""
        if not self.has("map_terrain"):
            return {}
        out: dict[str, tuple[str, ...]] = {}
        for sid in spaces:
            got = self._call("map_terrain", state, sid)
            if isinstance(got, (list, tuple)):
                names = tuple(dict.fromkeys(str(g) for g in got if str(g)))
                if names:
                    out[sid] = names
        return out

    def marks(self, state: GameState) -> dict[str, tuple[tuple[str, str], ...]]:
        """Each space's rule marks: (kind, text), in the rules' order."""
        got = self._call("map_marks", state)
        out: dict[str, tuple[tuple[str, str], ...]] = {}
        if isinstance(got, Mapping):
            for sid, marks in got.items():
                if isinstance(marks, Mapping) and sid in state.board:
                    shown = tuple((str(k), str(v)) for k, v in marks.items() if str(k))
                    if shown:
                        out[str(sid)] = shown
        return out

    def lines(self, state: GameState) -> tuple[tuple[str, str, str], ...]:
        got = self._call("map_lines", state)
        out: list[tuple[str, str, str]] = []
        if isinstance(got, (list, tuple)):
            for line in got:
                if isinstance(line, (list, tuple)) and len(line) >= 2:
                    a, b = str(line[0]), str(line[1])
                    kind = str(line[2]) if len(line) > 2 else ""
                    if a in state.board and b in state.board and a != b and (a, b, kind) not in out:
                        out.append((a, b, kind))
        return tuple(out)

    def legend(self, state: GameState) -> dict[str, str]:
        got = self._call("map_legend", state)
        return {str(k): str(v) for k, v in got.items()} if isinstance(got, Mapping) else {}

    def notes(self, state: GameState, power: str) -> list[str]:
        got = self._call("power_notes", state, power)
        return [str(n) for n in got if str(n)] if isinstance(got, (list, tuple)) else []


#: the patterns the map draws over a space's ground (`map_terrain`), as the shader numbers them
PATTERNS: dict[str, float] = {"dunes": 1.0, "snow": 2.0, "peaks": 3.0}
#: any other name the rules give
OTHER_PATTERN = 4.0
#: the ground of a pattern's swatch in the legend
PATTERN_GROUND: dict[str, Colour] = {"dunes": (222, 196, 140), "snow": (128, 112, 106), "peaks": (176, 168, 150)}
#: drawn as a mark round the space, not over its ground
RING_PATTERNS = frozenset({"atoll"})

_TERRAIN_VERTEX = """#version 150 core
in vec2 position;
in float pattern;
out vec2 px;
out float vertex_pattern;

uniform WindowBlock
{
    mat4 projection;
    mat4 view;
} window;

uniform float scale;

void main()
{
    px = position * scale;
    gl_Position = window.projection * window.view * vec4(px, 0.0, 1.0);
    vertex_pattern = pattern;
}
"""

# Each pattern in pixels from the map's origin: it keeps its size at every zoom and moves with
# the map when it is dragged.
_TERRAIN_FRAGMENT = """#version 150 core
in vec2 px;
in float vertex_pattern;
out vec4 final_colors;

float segment(vec2 p, vec2 a, vec2 b)
{
    vec2 pa = p - a;
    vec2 ba = b - a;
    float h = clamp(dot(pa, ba) / dot(ba, ba), 0.0, 1.0);
    return length(pa - ba * h);
}

void main()
{
    int k = int(vertex_pattern + 0.5);
    vec2 p = px;
    if (k == 1) {
        // dunes: staggered rows of low humps, pale sand over a dark shadow, grains between
        float row = floor(p.y / 13.0);
        float x = mod(p.x + mod(row, 2.0) * 13.0, 26.0);
        float y = mod(p.y, 13.0);
        float t = (x - 8.0) / 6.5;
        float arc = y - 4.0 - 3.5 * (1.0 - t * t);
        if (abs(t) <= 1.0 && arc > -0.2 && arc < 1.3) {
            final_colors = vec4(0.98, 0.88, 0.56, 0.95);
            return;
        }
        if (abs(t) <= 1.0 && arc > -1.6 && arc <= -0.2) {
            final_colors = vec4(0.36, 0.22, 0.04, 0.9);
            return;
        }
        if ((x > 18.0 && x < 19.5 && y > 9.0 && y < 10.5) || (x > 22.0 && x < 23.5 && y > 3.0 && y < 4.5)) {
            final_colors = vec4(0.36, 0.22, 0.04, 0.8);
            return;
        }
        discard;
    }
    if (k == 2) {
        // snow: a white hatch, across the impassable land's
        if (mod(p.x - p.y, 8.0) < 1.7) {
            final_colors = vec4(1.0, 1.0, 1.0, 0.72);
            return;
        }
        discard;
    }
    if (k == 3) {
        // mountains: staggered rows of peaks, lit from the left: a pale face, a dark face,
        // a dark outline
        float row = floor(p.y / 15.0);
        vec2 c = vec2(mod(p.x + mod(row, 2.0) * 11.0, 22.0), mod(p.y, 15.0));
        float half_w = (12.0 - c.y) * 0.75;          // the peak: apex (11, 12), base y = 3
        float dx = c.x - 11.0;
        if (c.y >= 3.0 && c.y <= 12.0) {
            float inside = half_w - abs(dx);
            if (inside >= 0.0) {
                if (inside < 1.1 || c.y < 4.0) {
                    final_colors = vec4(0.1, 0.07, 0.04, 0.95);
                } else if (dx < 0.0) {
                    final_colors = vec4(0.93, 0.9, 0.84, 0.95);
                } else {
                    final_colors = vec4(0.45, 0.36, 0.27, 0.95);
                }
                return;
            }
        }
        discard;
    }
    // any other terrain: a dark stipple
    vec2 g = mod(p, 6.0);
    if (g.x < 1.5 && g.y < 1.5) {
        final_colors = vec4(0.1, 0.1, 0.1, 0.6);
        return;
    }
    discard;
}
"""


def terrain_program() -> Any:
    """The shader of the terrain patterns: positions times a `scale` uniform, a pattern
    number a vertex (PATTERNS)."""
    return gl.current_context.create_program((_TERRAIN_VERTEX, "vertex"), (_TERRAIN_FRAGMENT, "fragment"))


def pattern_code(name: str) -> float:
    return PATTERNS.get(name, OTHER_PATTERN)


# -- the polygons, on the GPU ----------------------------------------------------------------
class _Polygons:
    """Every space's fill (one vertex list a space) and every border, built once in map
    units; drawn scaled by the view's size."""

    def __init__(self, view: WorldView, terrain: Mapping[str, Sequence[str]] | None = None) -> None:
        self.batch = pyglet.graphics.Batch()
        prog = gui_mesh.program()

        def scale() -> float:
            return view.size

        back = ScaledGroup(prog, scale, 0)
        fill_group = ScaledGroup(prog, scale, 1)
        terrain_group = ScaledGroup(terrain_program(), scale, 2)
        sea_lines = ScaledGroup(prog, scale, 3)
        land_lines = ScaledGroup(prog, scale, 4)
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
        #: the terrain patterns over each space's ground (`map_terrain`): space -> pattern -> vertex list
        self.patterns: dict[str, dict[str, Any]] = {}
        for sid, names in (terrain or {}).items():
            ground = view.geo.spaces.get(sid)
            if ground is None:
                continue
            n = len(ground.vertices) // 2
            for name in names:
                if name in RING_PATTERNS:
                    continue
                self.patterns.setdefault(sid, {})[name] = terrain_group.program.vertex_list_indexed(
                    n, gl.GL_TRIANGLES, ground.indices, self.batch, terrain_group, position=("f", ground.vertices),
                    pattern=("f", (pattern_code(name),) * n))
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
class WorldView(ViewFrame):
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
        self._init_frame(1.0)
        #: the size that shows the whole map (a zoom out goes a little further)
        self.whole_size = 1.0
        self.polygons: _Polygons | None = None
        self._outlines: dict[tuple[Any, ...], Mesh] = {}
        self._outline_group: ScaledGroup | None = None
        #: the map as last drawn, copied to the frame while nothing on it changes
        self.picture = gui_mesh.FrameCache()
        #: the rules' view procedures, and the terrain patterns they give each space (read
        #: once, with the polygons)
        self.views: RuleViews | None = None
        self.terrain: dict[str, tuple[str, ...]] = {}
        #: the legend's rows as last drawn, by their words
        self.legend_rows: list[str] = []
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

    def bounds(self) -> tuple[float, float, float, float]:
        return self.geo.bounds

    def fit(self, area: tuple[int, int, int, int], margin: int | None = None) -> None:
        """Scale the map to the height of `area`: a world map is wider than the room beside
        the side panel, so it fills the height, its middle in the middle, and the rest is a
        pan away, as TripleA shows it (where the area is the wider, the whole map, centred).
        `whole_size` keeps the scale that shows the whole map, for a zoom out."""
        super().fit(area, margin)
        m = self.MARGIN if margin is None else margin
        self.whole_size = self.size
        x0, y0, x1, y1 = self.bounds()
        self.fit_size = self.size = max(self.size, (area[3] - 2 * m) / max(y1 - y0, 1e-6))
        self.offset = (round(area[0] + area[2] / 2 - (x0 + x1) / 2 * self.size),
                       round(area[1] + area[3] - m - y1 * self.size))
        self.keep_in_view()

    def zoom_limits(self) -> tuple[float, float]:
        """Out to the whole map (a little smaller), in to 18 times the height's fit."""
        return self.whole_size * MIN_ZOOM, self.fit_size * MAX_ZOOM

    def zoom(self, factor: float, about: Point) -> bool:
        done = super().zoom(factor, about)
        self.keep_in_view()
        return done

    def pan(self, dx: float, dy: float) -> None:
        super().pan(dx, dy)
        self.keep_in_view()

    def centre_on(self, sid: str) -> None:
        super().centre_on(sid)
        self.keep_in_view()

    def show_power(self, state: GameState, power: str) -> bool:
        """Pan across to the space where most of `power`'s units stand, when it is out of view
        (up and down the map is kept). Whether the map moved."""
        counts: dict[str, int] = {}
        for p in state.pieces_of(power):
            if p.space in self.geo.spaces:
                counts[p.space] = counts.get(p.space, 0) + 1
        if not counts:
            return False
        most = max(counts, key=lambda sid: (counts[sid], sid))
        x, _ = self.screen(most)
        ax, _, aw, _ = self.area
        if ax + aw * 0.1 <= x <= ax + aw * 0.9:
            return False
        before = self.offset
        self.pan(ax + aw / 2 - x, 0)
        return self.offset != before

    def keep_in_view(self) -> None:
        """No pan or zoom leaves a band of nothing where there is map to show: along each
        axis the map wider than the area covers it (to the margin), and one narrower is
        centred across (its top at the area's top, up and down, the legend under it)."""
        ax, ay, aw, ah = self.area
        m = self.MARGIN
        x0, y0, x1, y1 = (v * self.size for v in self.bounds())
        ox, oy = self.offset
        if x1 - x0 <= aw - 2 * m:
            ox = ax + aw / 2 - (x0 + x1) / 2
        else:
            ox = min(max(ox, ax + aw - m - x1), ax + m - x0)
        if y1 - y0 <= ah - 2 * m:
            oy = ay + ah - m - y1
        else:
            oy = min(max(oy, ay + ah - m - y1), ay + m - y0)
        self.offset = (round(ox), round(oy))

    # -- drawing -----------------------------------------------------------------------------
    def build(self, state: GameState, colours: SideColours, side_order: Sequence[str],
              looks: Mapping[str, UnitLook] | None = None, show_ids: bool = False) -> WorldLayer:
        """The labels and counters of the visible part of the map and a margin around it;
        the polygons are built on the first call and kept."""
        if self.views is None:
            self.views = RuleViews(state.rules)
            self.terrain = self.views.terrain(state, list(self.geo.spaces))
        if self.polygons is None:
            self.polygons = _Polygons(self, self.terrain)
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


# -- the rules' marks and lines ------------------------------------------------------------------
#: the prefix of a rule's mark among a space's marks
RULE = "rule:"
#: the smallest a rule's mark is drawn (its words must be read)
RULE_MIN = 12.0
#: the least height of a stack's badge with its count, where its counters do not fit
BADGE = 12.0
LOSS: Colour = (200, 24, 24)
TARGET_RED: Colour = (220, 34, 28)
TARGET_PALE: Colour = (255, 246, 222)
FLIGHT: Colour = (255, 222, 40)
EDGE_DARK: Colour = (18, 18, 20)


def rule_mark_width(kind: str, label: str, m: float) -> float:
    """How wide a rule's mark `m` pixels tall is (`rule_mark`)."""
    px = m * 0.68
    words = text_width(label, px, True) if label else 0.0
    if kind == "target":
        return m + (words + m * 0.6 if label else 0.0)
    return max(m * 1.2, words + m * 0.7)


def _mark_width(what: str, arg: Any, m: float) -> float:
    if what.startswith(RULE):
        return rule_mark_width(what[len(RULE):], str(arg), max(m, RULE_MIN))
    return m


def _pill(mesh: Mesh, x: float, y: float, w: float, h: float, colour: Sequence[int]) -> None:
    """A rounded bar, its left end at x, centred on y."""
    r = h / 2
    if w <= h:
        mesh.circle(x + w / 2, y, r, colour)
        return
    mesh.rect(x + r, y - r, w - h, h, colour)
    mesh.circle(x + r, y, r, colour)
    mesh.circle(x + w - r, y, r, colour)


def rule_mark(mesh: Mesh, text: GlyphText, kind: str, label: str, x: float, y: float, m: float) -> float:
    """A rule's mark (`map_marks`) `m` pixels tall, its left end at x, centred on y: "loss"
    a red badge with white words, "target" a red and white target and its words on a pale
    bar, any other kind a pale badge. Returns its width."""
    w = rule_mark_width(kind, label, m)
    edge = max(1.0, m * 0.1)
    px = m * 0.68
    if kind == "target":
        r = m / 2
        if label:
            _pill(mesh, x + r, y, w - r, m, EDGE_DARK)
            _pill(mesh, x + r + edge, y, w - r - 2 * edge, m - 2 * edge, TARGET_PALE)
            text.add(label, x + m + (w - m) / 2 - m * 0.05, y, px, (130, 12, 8, 255), bold=True)
        cx = x + r
        mesh.circle(cx, y, r, EDGE_DARK)
        mesh.circle(cx, y, r - edge, TARGET_RED)
        mesh.circle(cx, y, r * 0.64, (255, 255, 255))
        mesh.circle(cx, y, r * 0.64 - edge, TARGET_RED)
        mesh.circle(cx, y, max(1.0, r * 0.24), (255, 255, 255))
        return w
    fill, ink = (LOSS, (255, 255, 255, 255)) if kind == "loss" else (TARGET_PALE, (24, 24, 28, 255))
    _pill(mesh, x, y, w, m, EDGE_DARK)
    _pill(mesh, x + edge, y, w - 2 * edge, m - 2 * edge, fill)
    text.add(label, x + w / 2, y, px, ink, bold=True)
    return w


def line_mark(mesh: Mesh, ax: float, ay: float, bx: float, by: float, kind: str, stop: float = 4.0) -> None:
    """A rule's line (`map_lines`) from (ax, ay) to (bx, by), in pixels: dashed, dark edged,
    a dot where it starts and an arrow that stops `stop` pixels short of where it ends."""
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy)
    if d < 2 * stop + 6:
        return
    ux, uy = dx / d, dy / d
    ex, ey = bx - ux * stop, by - uy * stop
    length = d - stop
    colour = FLIGHT if kind in ("flight", "") else (240, 240, 240)
    head = 9.0
    mesh.circle(ax, ay, 3.6, EDGE_DARK)
    mesh.circle(ax, ay, 2.4, colour)
    for width, c in ((4.0, EDGE_DARK), (2.0, colour)):
        t = 3.0
        while t < length - head:
            t1 = min(t + 8.0, length - head)
            mesh.line(ax + ux * t, ay + uy * t, ax + ux * t1, ay + uy * t1, width, c)
            t = t1 + 5.0
    nx, ny = -uy, ux
    for grow, c in ((1.8, EDGE_DARK), (0.0, colour)):
        tip = (ex + ux * grow, ey + uy * grow)
        back = (ex - ux * (head + grow), ey - uy * (head + grow))
        w = head * 0.55 + grow
        mesh.triangle(tip, (back[0] + nx * w, back[1] + ny * w), (back[0] - nx * w, back[1] - ny * w), c)


def ring_mark(mesh: Mesh, cx: float, cy: float, r: float) -> None:
    """A small island's reef: a dashed ring of radius `r` round (cx, cy), in pixels."""
    n = max(16, min(48, int(r * 1.2)))
    for width, colour in ((3.4, EDGE_DARK), (1.6, (250, 250, 250))):
        for i in range(0, n, 2):
            a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
            mesh.line(cx + r * math.cos(a0), cy + r * math.sin(a0), cx + r * math.cos(a1), cy + r * math.sin(a1),
                      width, colour)


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
               n_marks: float, n_stacks: int, n_owners: int) -> Plan | None:
    """The best way to fit a space's name, marks and counters in one of its boxes (on the
    plane; `s` pixels a map unit): (the box in pixels, name px, name lines, mark px, one
    counter a side?, columns, rows, counter height). None if nothing fits. `n_marks` is
    the marks' width in marks (a rule's mark with words is wider than one)."""
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
        #: the rules' marks of each space (`map_marks`): space -> ((kind, text), ...)
        self.rule_marks: dict[str, tuple[tuple[str, str], ...]] = {}
        #: where each rule mark is drawn: space -> [(kind, text, (x, y, w, h))], pixels from the offset
        self.mark_boxes: dict[str, list[tuple[str, str, tuple[float, float, float, float]]]] = {}
        #: the rules' lines (`map_lines`), as drawn: (from, to, kind)
        self.rule_lines: tuple[tuple[str, str, str], ...] = ()
        self.line_group = gui_mesh.pixel_group(2)
        self._line_lists: list[Any] = []
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
        for vl in self._line_lists:
            vl.delete()
        self._line_lists = []

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
        views = self.view.views
        self.rule_marks = views.marks(state) if views is not None else {}
        lines = views.lines(state) if views is not None else ()
        rebuilt: set[str] = set()
        for sid in self.shown:
            key = (*self._key(state, sid), self.rule_marks.get(sid, ()))
            old = self._built.get(sid)
            if old is not None and old[0] == key:
                continue
            if old is not None:
                for vl in old[1]:
                    vl.delete()
            self.names.pop(sid, None)
            self._built[sid] = self._build_space(sid, key, colours)
            rebuilt.add(sid)
            self.version += 1
        if lines != self.rule_lines or any(b in rebuilt for _, b, _ in lines):
            self._build_lines(lines)

    def _build_lines(self, lines: tuple[tuple[str, str, str], ...]) -> None:
        """The rules' lines, from a space's label point to the mark drawn on the other (its
        label point when it has none)."""
        for vl in self._line_lists:
            vl.delete()
        self._line_lists = []
        self.rule_lines = lines
        self.version += 1
        if not lines:
            return
        mesh = Mesh()
        for a, b, kind in lines:
            if a not in self.view.geo.spaces or b not in self.view.geo.spaces:
                continue
            ax, ay = self.view.world(a)
            bx, by = self.view.world(b)
            end = next((box for k, _, box in self.mark_boxes.get(b, ()) if k == "target"), None)
            if end is not None:
                x, y, w, h = end
                bx, by = x + h / 2, y + h / 2
            line_mark(mesh, ax, ay, bx, by, kind, stop=(end[3] / 2 + 1) if end is not None else 4.0)
        vl = mesh.vertex_list(self.batch, self.line_group)
        if vl is not None:
            self._line_lists.append(vl)

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
        rule = key[2]
        marks += [(RULE + kind, label, (0, 0, 0)) for kind, label in rule]

        mesh, text = Mesh(), GlyphText()
        drawn: list[tuple[Any, ...]] = []
        self._mixed.pop(sid, None)
        self.mark_boxes.pop(sid, None)
        rings = [p for p in self.view.terrain.get(sid, ()) if p in RING_PATTERNS]
        if rings:
            ring_mark(mesh, shape.label[0] * s, shape.label[1] * s,
                      min(max(8.0, math.sqrt(shape.area) * s * 0.9 + 4.0), 18.0))
        # the marks' room in the marks' row, in marks (a rule's mark is wider than one)
        room = sum(_mark_width(what, arg, 12.0) / 12.0 for what, arg, _ in marks)
        plan = plan_space(shape.boxes, s, name, not shape.land, shape.land, room, len(stacks), len(owners))
        lx, ly = shape.label[0] * s, shape.label[1] * s
        if plan is None:
            # nothing fits inside (a small island): one mark a side at the label point
            totals = {o: sum(n for (who, _), n in counts.items() if who == o) for o in owners}
            self._stack_marks(mesh, text, sid, lx, ly, owners, totals, colours, drawn, BADGE)
        else:
            self._draw_plan(plan, mesh, text, sid, name, ink, not shape.land, marks, stacks, counts, owners,
                            colours, drawn)
        if rule and (plan is None or not plan[3]):
            # no room for the marks' row: the rules' marks are drawn all the same, small, over
            # the label point (a target without its words)
            m = RULE_MIN
            shown = [(k, "" if k == "target" else t) for k, t in rule]
            widths = [rule_mark_width(k, t, m) for k, t in shown]
            x = lx - (sum(widths) + 2 * (len(shown) - 1)) / 2
            y = ly + (m / 2 + 4 if plan is None and owners else 0.0)
            for (k, t), w in zip(shown, widths, strict=True):
                rule_mark(mesh, text, k, t, x, y, m)
                self.mark_boxes.setdefault(sid, []).append((k, t, (x, y - m / 2, w, m)))
                x += w + 2
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
            widths = [_mark_width(what, arg, m) for what, arg, _ in marks]
            mx = cx - (sum(widths) + (len(marks) - 1) * 2) / 2
            for (what, arg, ring), w in zip(marks, widths, strict=True):
                if what.startswith(RULE):
                    rm = max(m, RULE_MIN)
                    rule_mark(mesh, text, what[len(RULE):], str(arg), mx, top - m / 2, rm)
                    self.mark_boxes.setdefault(sid, []).append((what[len(RULE):], str(arg), (mx, top - m / 2 - rm / 2, w, rm)))
                else:
                    gui_mesh.mark(mesh, text, what, arg, mx + m / 2, top - m / 2, m, ring)
                mx += w + 2
            top -= m + gap
        if not ch:
            if owners:
                m = BADGE
                totals = {o: sum(n for (who, _), n in counts.items() if who == o) for o in owners}
                self._stack_marks(mesh, text, sid, cx, top - m / 2, owners, totals, colours, drawn, m)
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
    def _stack_marks(mesh: Mesh, text: GlyphText, sid: str, cx: float, cy: float, owners: Sequence[str],
                     totals: Mapping[str, int], colours: SideColours, drawn: list[tuple[Any, ...]], m: float) -> None:
        """Where counters do not fit: a badge a side, in its counters' colour, with how many
        units it has there, never smaller than BADGE pixels (legible at the world's zoom)."""
        widths = [max(m, text_width(str(totals.get(o, 0)), m * 0.72, True) + 5) for o in owners]
        x = cx - (sum(widths) + (len(owners) - 1) * 2) / 2
        for o, w in zip(owners, widths, strict=True):
            mesh.rect(x - 1, cy - m / 2 - 1, w + 2, m + 2, (16, 16, 18))
            mesh.rect(x, cy - m / 2, w, m, colours.counter(o))
            text.add(str(totals.get(o, 0)), x + w / 2, cy, m * 0.72, (255, 255, 255, 255), bold=True)
            drawn.append((sid, o, "", x, cy - m / 2, w, m))
            x += w + 2


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
    # the rules' terrain, marks and lines (their words from `map_legend`)
    words = view.views.legend(state) if view.views is not None else {}
    used = list(dict.fromkeys(p for names in view.terrain.values() for p in names))
    for name in sorted(used, key=lambda p: (list(PATTERNS).index(p) if p in PATTERNS else len(PATTERNS), p)):
        rows.append((words.get(name, name), ("pattern", name)))
    for kind, label in words.items():
        if kind in used or kind in PATTERNS or kind in RING_PATTERNS:
            continue
        rows.append((label, ("line" if kind == "flight" else "rule", kind)))
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
            rows.append((spaced(kind), ("unit", kind)))          # "AA Gun", not the rules' "AAGun"
    view.legend_rows = [label for label, _ in rows]
    row_h, pad, swatch, px = 18, 7, 36, 11.5
    note = "L: this legend   H: space ids   wheel: zoom   drag: pan"
    per_col = max(1, math.ceil(len(rows) / 3))
    cols = [rows[i:i + per_col] for i in range(0, len(rows), per_col)]
    widths = [swatch + pad + max(text_width(t, px) for t, _ in col) for col in cols]
    width = max(pad * (len(cols) + 1) + sum(widths) + 10 * (len(cols) - 1), text_width(note, 10.5) + 2 * pad)
    height = pad * 2 + row_h * (per_col + 1)
    mesh, text = Mesh(), GlyphText()
    patterns: list[tuple[float, float, float, float, float]] = []
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
            elif what == "pattern":
                if arg in RING_PATTERNS:
                    mesh.rect(cx, ty - 7, swatch - 1, 14, SEA)
                    mesh.circle(cx + swatch / 2, ty, 2.5, NEUTRAL_LAND)
                    ring_mark(mesh, cx + swatch / 2, ty, 6.0)
                else:
                    mesh.rect(cx, ty - 7, swatch - 1, 14, PATTERN_GROUND.get(arg, NEUTRAL_LAND))
                    patterns.append((cx, ty - 7, swatch - 1, 14, pattern_code(arg)))
            elif what == "rule":
                label = {"loss": "-2", "target": ""}.get(arg, "1")
                m = 13.0
                rule_mark(mesh, text, arg, label, cx + (swatch - rule_mark_width(arg, label, m)) / 2, ty, m)
            elif what == "line":
                line_mark(mesh, cx - 2, ty - 3, cx + swatch + 2, ty + 3, arg, stop=0.0)
            ty -= row_h
        cx += w + pad + 10
    vl = mesh.vertex_list(batch, gui_mesh.pixel_group(10))
    items.append(vl)
    if patterns:
        group = ScaledGroup(terrain_program(), lambda: 1.0, 11)
        pos: list[float] = []
        codes: list[float] = []
        idx: list[int] = []
        for px, py, pw, ph, code in patterns:
            base = len(pos) // 2
            pos += (px, py, px + pw, py, px + pw, py + ph, px, py + ph)
            codes += (code,) * 4
            idx += (base, base + 1, base + 2, base, base + 2, base + 3)
        items.append(group.program.vertex_list_indexed(len(pos) // 2, gl.GL_TRIANGLES, idx, batch, group,
                                                       position=("f", pos), pattern=("f", codes)))
    items += text.vertex_lists(batch, pyglet.graphics.Group(order=12))
    return x, y, width, height


def build_turn_chart(game: Any, colours: SideColours, x: float, y: float, width: float,
                     batch: pyglet.graphics.Batch, groups: tuple[pyglet.graphics.Group, pyglet.graphics.Group],
                     items: list[Any]) -> float:
    """The powers in turn order, the one to play marked (▶; with teams, every member who plays
    this phase, and ▷ the team's others), with their side, treasury and income (the rules'
    `income` procedure, where they have one), and the phases of the turn, the current one
    marked. Its top-left at (x, y); returns the y below it."""
    structure = game.ruleset.structure
    state = game.state
    if not structure.per_power or not structure.powers:
        return y
    bg, fg = groups
    logic = game.ruleset.logic
    rules = game.ruleset.rules
    views = RuleViews(rules)
    income = None
    if hasattr(rules, "has_procedure") and rules.has_procedure("income"):
        income = rules.procedure("income")
    acting = () if game.over else structure.acting(state)
    team = () if game.over else structure.team(state)
    names = {name for (_, name) in state.resources}
    money = "ipc" if "ipc" in names else (sorted(names)[0] if names else None)
    title = f"Turn order — round {state.turn}" + (f" — team {' and '.join(team)}" if len(team) > 1 else "")
    head = pyglet.text.Label(title, x=round(x), y=round(y), anchor_y="top",
                             font_name=FONT, font_size=9, weight="bold", color=(150, 154, 162, 255), batch=batch,
                             group=fg)
    items.append(head)
    y -= head.content_height + 3
    cols = (18, 110, 176, 262)
    row_h = 17
    for power in structure.powers:
        on = power in acting
        mark = "▶ " if on else "▷ " if power in team else ""
        if on:
            items.append(shapes.Rectangle(x, y - row_h, width, row_h, color=(74, 88, 118), batch=batch, group=bg))
        ty = y - row_h / 2
        items.append(shapes.Rectangle(x + 4, ty - 5, 10, 10, color=colours[power], batch=batch, group=fg))
        r, g, b = colours[power]
        ink = (min(255, r + 50), min(255, g + 50), min(255, b + 50), 255)
        texts = [(mark + power, cols[0], ink if not on else (255, 255, 255, 255), True),
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
        # the rules' notes on the power (`power_notes`): what its next income loses, say
        for note in views.notes(state, power):
            label = pyglet.text.Label(note, x=round(x + cols[0]), y=round(y - 1), anchor_y="top", font_name=FONT,
                                      font_size=8, color=NOTE, batch=batch, group=fg)
            room = width - cols[0] - 4
            while label.content_width > room and len(label.text) > 8:     # one line: the rest in the tooltips
                keep = max(6, int(len(label.text) * room / label.content_width) - 2)
                label.text = label.text[:keep].rstrip(" ,;:(") + "…"
            items.append(label)
            y -= label.content_height + 1
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
