"""The geometry of a world map (territories and sea zones drawn as polygons), without pyglet:
the shapes projected for the screen, triangulated once, the point-in-polygon test that
answers a click, and for each space the largest boxes around its label point that lie
inside it (where its name, marks and counters go, at any zoom).

A map says how it is drawn in its layout (`{"kind": "world", "projection": ...,
"bounds": [x0, y0, x1, y1]}`); spaces carry `shape` (polygons, each a list of rings of
[x, y] points, ring 0 the outline, further rings holes) and `label_at`. An equirectangular
map (x = longitude, y = latitude) is shown in Miller's projection, which gives the high
latitudes of Europe the room a board game's map gives them; any other layout is drawn as
its points say.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

Point = tuple[float, float]
Ring = list[Point]

#: the shapes of the boxes tried around a label point (width / height)
ASPECTS = (0.7, 1.1, 1.7, 2.6, 4.0)


def shapes_of(space: Any) -> list[list[Ring]]:
    """A space's `shape` as polygons of rings (a single polygon may be given as its rings)."""
    raw = space.get("shape") if hasattr(space, "get") else None
    if not raw:
        return []
    if raw and raw[0] and isinstance(raw[0][0][0], (int, float)):
        raw = [raw]                      # one polygon: a list of rings
    out = []
    for poly in raw:
        rings = [[(float(p[0]), float(p[1])) for p in ring] for ring in poly if len(ring) >= 3]
        if rings:
            out.append(rings)
    return out


def is_world(board: Any) -> bool:
    """Whether a board is drawn as a world map: its layout says so, or its spaces have shapes."""
    layout = (getattr(board, "meta", None) or {}).get("layout") or {}
    if layout.get("kind") == "world":
        return any(sp.get("shape") for sp in board.spaces.values())
    return bool(board.spaces) and any(sp.get("shape") for sp in board.spaces.values())


def projection(layout: Mapping[str, Any]) -> Callable[[float, float], Point]:
    """The map's points -> the plane the window draws (map units)."""
    if layout.get("projection") == "equirectangular":
        def miller(x: float, y: float) -> Point:
            lat = math.radians(max(-89.0, min(89.0, y)))
            return x, math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * lat)))
        return miller
    return lambda x, y: (x, y)


@dataclass
class SpaceShape:
    """One space on the plane: its polygons, triangles, bounding box and label point."""

    sid: str
    land: bool
    polygons: list[list[Ring]]
    #: the triangles: flat x, y of every vertex (all polygons), and indices into them
    vertices: list[float]
    indices: list[int]
    bbox: tuple[float, float, float, float]
    label: Point
    #: boxes around the label point that lie inside the space: (x0, y0, x1, y1)
    boxes: list[tuple[float, float, float, float]]
    area: float

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.bbox
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        inside = False
        for poly in self.polygons:
            for ring in poly:
                inside ^= _crossings(ring, x, y)
        return inside


def _crossings(ring: Ring, x: float, y: float) -> bool:
    odd = False
    px, py = ring[-1]
    for qx, qy in ring:
        if (qy > y) != (py > y) and x < (px - qx) * (y - qy) / (py - qy) + qx:
            odd = not odd
        px, py = qx, qy
    return odd


def _ring_area(ring: Ring) -> float:
    a = 0.0
    px, py = ring[-1]
    for qx, qy in ring:
        a += px * qy - qx * py
        px, py = qx, qy
    return a / 2


def triangulate(polygons: Sequence[Sequence[Ring]]) -> tuple[list[float], list[int]]:
    """Triangles for polygons with holes (ear clipping: pyglet's own earcut)."""
    from pyglet.extlibs import earcut

    vertices: list[float] = []
    indices: list[int] = []
    for poly in polygons:
        flat: list[float] = []
        holes: list[int] = []
        for i, ring in enumerate(poly):
            pts = ring[:-1] if len(ring) > 3 and ring[0] == ring[-1] else ring
            if i:
                holes.append(len(flat) // 2)
            for x, y in pts:
                flat += (x, y)
        base = len(vertices) // 2
        tris = earcut.earcut(flat, holes or None, 2)
        vertices += flat
        indices += [base + t for t in tris]
    return vertices, indices


def _linf_to_segment(ax: float, ay: float, bx: float, by: float, r: float) -> float:
    """The smallest t such that the box of half size (r t, t) centred on the origin touches
    the segment a-b: the segment's distance from the origin in a stretched L-infinity norm."""
    ax, bx = ax / r, bx / r
    dx, dy = bx - ax, by - ay
    cands = [0.0, 1.0]
    if dx:
        cands.append(-ax / dx)
    if dy:
        cands.append(-ay / dy)
    if dx - dy:
        cands.append((ay - ax) / (dx - dy))
    if dx + dy:
        cands.append(-(ax + ay) / (dx + dy))
    best = math.inf
    for s in cands:
        if 0.0 <= s <= 1.0:
            d = max(abs(ax + s * dx), abs(ay + s * dy))
            if d < best:
                best = d
    return best


_first = itemgetter(0)


def _edges(polygons: Sequence[Sequence[Ring]], at: Point) -> list[tuple[float, ...]]:
    """Every edge relative to `at`, with the L-infinity distance of its bounding box from
    `at` (sorted by it: the near edges first)."""
    lx, ly = at
    edges = []
    for poly in polygons:
        for ring in poly:
            px, py = ring[-1]
            for qx, qy in ring:
                ax, ay, bx, by = px - lx, py - ly, qx - lx, qy - ly
                x0, x1 = (ax, bx) if ax <= bx else (bx, ax)
                y0, y1 = (ay, by) if ay <= by else (by, ay)
                gx = 0.0 if x0 <= 0 <= x1 else (x0 if x0 > 0 else -x1)
                gy = 0.0 if y0 <= 0 <= y1 else (y0 if y0 > 0 else -y1)
                edges.append((gx if gx > gy else gy, gx, gy, ax, ay, bx, by, x0, x1, y0, y1))
                px, py = qx, qy
    edges.sort(key=_first)
    return edges


def _grow(edges: list[tuple[float, ...]], box: list[float], side: int, limit: float) -> None:
    """Move one side of `box` ([x0, y0, x1, y1], relative) out as far as no edge stops it,
    at most `limit`: side 0 left, 1 down, 2 right, 3 up."""
    bx0, by0, bx1, by1 = box
    best = limit
    horizontal = side in (0, 2)
    lo, hi = (by0, by1) if horizontal else (bx0, bx1)
    for _, _, _, ax, ay, bx, by, ex0, ex1, ey0, ey1 in edges:
        # the part of the edge inside the band the side sweeps
        if horizontal:
            if ey1 < lo or ey0 > hi:
                continue
            if side == 2 and ex1 < bx1 or side == 0 and ex0 > bx0:
                continue
            u0, v0, u1, v1 = ay, ax, by, bx          # along the band's axis (y), across it (x)
        else:
            if ex1 < lo or ex0 > hi:
                continue
            if side == 3 and ey1 < by1 or side == 1 and ey0 > by0:
                continue
            u0, v0, u1, v1 = ax, ay, bx, by
        if u0 == u1:
            vs = (v0, v1)
        else:
            t0, t1 = (lo - u0) / (u1 - u0), (hi - u0) / (u1 - u0)
            if t0 > t1:
                t0, t1 = t1, t0
            t0, t1 = max(t0, 0.0), min(t1, 1.0)
            if t0 > t1:
                continue
            vs = (v0 + (v1 - v0) * t0, v0 + (v1 - v0) * t1)
        if side == 2:
            d = min(vs) - bx1
        elif side == 0:
            d = bx0 - max(vs)
        elif side == 3:
            d = min(vs) - by1
        else:
            d = by0 - max(vs)
        if 0 <= d < best:
            best = d
    best *= 0.97
    if side == 0:
        box[0] -= best
    elif side == 1:
        box[1] -= best
    elif side == 2:
        box[2] += best
    else:
        box[3] += best


def _centred(edges: list[tuple[float, ...]], r: float) -> float:
    """The half height of the biggest box of aspect `r` centred on the edges' origin that
    none of them crosses."""
    best = math.inf
    shrink = min(1.0, 1.0 / r)
    for key, gx, gy, ax, ay, bx, by, *_ in edges:
        if key * shrink >= best:
            break
        if (gx / r if gx / r > gy else gy) >= best:
            continue
        d = _linf_to_segment(ax, ay, bx, by, r)
        if d < best:
            best = d
    return 0.0 if best == math.inf else best


def _grown(edges: list[tuple[float, ...]], at: Point, r: float, t: float) -> tuple[float, float, float, float]:
    hw, hh = t * r * 0.98, t * 0.98
    box = [-hw, -hh, hw, hh]
    if hw > 0:
        for side in (2, 0, 3, 1) if r >= 1 else (3, 1, 2, 0):
            _grow(edges, box, side, (hw if side in (0, 2) else hh))
    return box[0] + at[0], box[1] + at[1], box[2] + at[0], box[3] + at[1]


def inner_boxes(polygons: Sequence[Sequence[Ring]], at: Point, aspects: Sequence[float] = ASPECTS
                ) -> list[tuple[float, float, float, float]]:
    """For each aspect (width / height), a big box that holds `at` and crosses none of the
    polygons' edges (inside the space when `at` is): the biggest of that shape centred on
    `at`, then each side moved out as far as it goes (at most the box's own size again, so
    that what is drawn in it stays near `at`). Boxes are (x0, y0, x1, y1) on the plane."""
    edges = _edges(polygons, at)
    return [_grown(edges, at, r, _centred(edges, r)) for r in aspects]


def roomier_boxes(polygons: Sequence[Sequence[Ring]], at: Point, inside: Callable[[float, float], bool],
                  aspects: Sequence[float] = ASPECTS, grid: int = 6) -> list[tuple[float, float, float, float]]:
    """Where the boxes round `at` are small for the polygon that holds it (a label put on a
    coast, a thin peninsula), boxes round other points of that polygon: for each aspect the
    biggest found on a grid of points, less for the farther from `at`."""
    home = next((poly for poly in polygons if _crossings(poly[0], *at)), None)
    if home is None:
        return []
    xs = [p[0] for p in home[0]]
    ys = [p[1] for p in home[0]]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    diag = math.hypot(x1 - x0, y1 - y0) or 1.0
    best: list[tuple[float, Point, float, list[tuple[float, ...]]]] = [(0.0, at, 0.0, [])] * len(aspects)
    for i in range(grid):
        for j in range(grid):
            c = (x0 + (x1 - x0) * (i + 0.5) / grid, y0 + (y1 - y0) * (j + 0.5) / grid)
            if not inside(*c):
                continue
            edges = _edges(polygons, c)
            near = 1.0 - 0.5 * min(1.0, math.dist(c, at) / diag)
            for k, r in enumerate(aspects):
                t = _centred(edges, r)
                score = r * t * t * near
                if score > best[k][0]:
                    best[k] = (score, c, t, edges)
    return [_grown(edges, c, r, t) for r, (score, c, t, edges) in zip(aspects, best, strict=True) if score > 0]


@dataclass
class WorldGeometry:
    """Every space of a world map on the plane, and the map's bounds there."""

    spaces: dict[str, SpaceShape]
    bounds: tuple[float, float, float, float]
    #: land first: what a click finds first
    hit_order: list[str]

    def space_at(self, x: float, y: float) -> str | None:
        for sid in self.hit_order:
            if self.spaces[sid].contains(x, y):
                return sid
        return None


_CACHE: dict[str, WorldGeometry] = {}


def geometry(board: Any) -> WorldGeometry:
    """The world geometry of a board (computed once for a map's shapes, then cached)."""
    layout = dict((getattr(board, "meta", None) or {}).get("layout") or {})
    drawn = [(sid, sp) for sid, sp in board.spaces.items() if sp.get("shape")]
    key = json.dumps([layout, [(sid, sp.kind, sp.get("shape"), sp.get("label_at")) for sid, sp in drawn]],
                     sort_keys=True, default=str)
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = _compute(layout, drawn)
        while len(_CACHE) > 8:
            _CACHE.pop(next(iter(_CACHE)))
    return got


def _is_land(space: Any) -> bool:
    return space.kind != "sea" and not space.get("sea")


def _compute(layout: Mapping[str, Any], drawn: list[tuple[str, Any]]) -> WorldGeometry:
    proj = projection(layout)
    spaces: dict[str, SpaceShape] = {}
    xs: list[float] = []
    ys: list[float] = []
    for sid, sp in drawn:
        polys = [[[proj(x, y) for x, y in ring] for ring in poly] for poly in shapes_of(sp)]
        if not polys:
            continue
        px = [p[0] for poly in polys for p in poly[0]]
        py = [p[1] for poly in polys for p in poly[0]]
        bbox = (min(px), min(py), max(px), max(py))
        xs += (bbox[0], bbox[2])
        ys += (bbox[1], bbox[3])
        area = sum(abs(_ring_area(poly[0])) - sum(abs(_ring_area(h)) for h in poly[1:]) for poly in polys)
        at = sp.get("label_at")
        if at is not None:
            label = proj(float(at[0]), float(at[1]))
        else:
            biggest = max(polys, key=lambda poly: abs(_ring_area(poly[0])))
            bx = [p[0] for p in biggest[0]]
            by = [p[1] for p in biggest[0]]
            label = ((min(bx) + max(bx)) / 2, (min(by) + max(by)) / 2)
        vertices, indices = triangulate(polys)
        shape = SpaceShape(sid, _is_land(sp), polys, vertices, indices, bbox, label, [], area)
        if shape.contains(*label):
            shape.boxes = inner_boxes(polys, label)
            home = next(poly for poly in polys if _crossings(poly[0], *label))
            room = abs(_ring_area(home[0]))
            if max((b[2] - b[0]) * (b[3] - b[1]) for b in shape.boxes) < 0.3 * room:
                shape.boxes += roomier_boxes(polys, label, shape.contains)
        spaces[sid] = shape
    if "bounds" in layout and len(layout["bounds"]) == 4:
        x0, y0, x1, y1 = (float(v) for v in layout["bounds"])
        (x0, y0), (x1, y1) = proj(x0, y0), proj(x1, y1)
    elif xs:
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    else:
        x0, y0, x1, y1 = -1.0, -1.0, 1.0, 1.0
    # small spaces first, so that a territory drawn over a bigger one (an island in a lake of
    # sea) is found before it
    order = sorted(spaces, key=lambda s: (not spaces[s].land, spaces[s].area))
    return WorldGeometry(spaces, (x0, y0, x1, y1), order)
