#!/usr/bin/env python3
"""Build the approximate Ardennes hex map for the Battle of the Bulge ruleset.

Reads the committed fact tables in ``rulesets/bulge/data/facts/`` (transcribed from
``/work/shared/reference/bulge/GAZETTEER.md``, each row with its source key) and writes
``rulesets/bulge/data/map.json`` in the engine's generic map format (``wargame-map/1``, see
engine/mapfile.py): one space per hex whose ``attrs`` keep the map's facts, ``link_hexes``
for adjacency, and one link per hex side with a road or a river.  Standard library only
(and the engine's hex geometry), deterministic.

    python scripts/build_bulge_map.py            # write map.json
    python scripts/build_bulge_map.py --ascii    # also print a one-char-per-hex overview
    python scripts/build_bulge_map.py --png      # also write docs/bulge-map.png
    python scripts/build_bulge_map.py --check    # exit 1 if map.json is not up to date
    python scripts/build_bulge_map.py --report   # counts, VP table, §3.1 bridge check

This is NOT the printed Axis & Allies board (which is not available): it is a designer's
approximation with real towns at real coordinates.  Everything that is a design choice
rather than a gazetteer fact is a constant in the "DESIGN" section below.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import struct
import sys
import unicodedata
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine.hexgrid import DIRECTIONS, Hex, distance, hex_round  # noqa: E402  (the engine's own hex geometry)

ROOT = Path(__file__).resolve().parents[1]
FACTS = ROOT / "rulesets" / "bulge" / "data" / "facts"
OUT = ROOT / "rulesets" / "bulge" / "data" / "map.json"
PNG_OUT = ROOT / "docs" / "bulge-map.png"

SQRT3 = math.sqrt(3.0)

# ---------------------------------------------------------------------------------------
# DESIGN constants (choices, not facts)
# ---------------------------------------------------------------------------------------

#: Projection (given by the brief): equirectangular, km per degree at ~50° N.
KM_PER_DEG_LAT = 111.0
KM_PER_DEG_LON = 71.5

#: Distance between the centres of two adjacent hexes ("across the flats"), in km.
HEX_KM = 6.5

#: The board rectangle (north, south, west, east).  Covers Liège/Namur/Dinant/Givet in the
#: north-west, Arlon/Echternach in the south and the Eifel to Prüm/Schleiden in the east.
RECT_N, RECT_S, RECT_W, RECT_E = 50.68, 49.64, 4.72, 6.48

#: Centre of hex 0101 (q=0, r=0) relative to the rectangle's north-west corner, in km
#: (x east, y south).  x in (-w/2, 0] and y in (-s, s/2] keep column 1 and row 1 as the
#: first columns/rows that touch the rectangle.  Values picked by hand so that the
#: important towns fall in different hexes (no displacement was needed).
GRID_X0_KM = -1.6
GRID_Y0_KM = 1.5

#: Places that must get a hex of their own: the five names in the rulebook (NOTES §2b).
RULEBOOK_NAMES = ("Prüm", "Martelange", "Bastogne", "Ortheuville", "Vielsalm")

#: A place that must have its own hex but collides may move to a free neighbouring hex
#: whose centre lies within this distance of its true position.
DISPLACE_MAX_KM = 0.8 * HEX_KM

#: VP values (invented: the printed values are unknown, NOTES §2b/§7.4).  Every city and
#: town west of the German border carries VP; the villages/hamlets listed here are VP
#: sites picked by the designer.  Invariant (checked): the VP of hexes with
#: historic_axis == True sums to exactly 23 (NOTES §3.5, §7.4).
VP = {
    # historically German-held at some point 16 Dec - 2 Jan (GAZETTEER §1 status "yes")
    "St. Vith": 3,
    "Vielsalm": 2,
    "Houffalize": 2,
    "La Roche": 2,
    "Saint-Hubert": 2,
    "Wiltz": 2,
    "Clervaux": 1,
    "Rochefort": 1,
    "Stavelot": 1,
    "Echternach": 1,
    "Diekirch": 1,
    "Ettelbruck": 1,
    "Vianden": 1,
    "Martelange": 1,
    "Ortheuville": 1,
    "Manhay": 1,
    # never German-held (status "no"), or uncertain (Libramont)
    "Liège": 4,
    "Namur": 3,
    "Verviers": 2,
    "Bastogne": 4,
    "Dinant": 2,
    "Huy": 2,
    "Eupen": 2,
    "Spa": 1,
    "Malmedy": 2,
    "Marche": 2,
    "Neufchâteau": 1,
    "Arlon": 2,
    "Aywaille": 1,
    "Durbuy": 1,
    "Ciney": 1,
    "Givet": 1,
    "Libramont": 1,
    "Mersch": 1,
    "Hotton": 1,
    "Trois-Ponts": 1,
    "Elsenborn": 1,
}
HISTORIC_VP = 23
VP_NOTE = (
    "VP values are a designer's approximation: the printed values are not known. Cities are "
    "worth more than towns; every city and town west of the German border has VP, plus the "
    "VP villages Martelange and Ortheuville (named in the rulebook), Manhay, Hotton, "
    "Trois-Ponts and Elsenborn. Towns in Germany carry none. Checked invariant: "
    "the VP of hexes with historic_axis=true sums to exactly 23, the rulebook's historical "
    "German result, so reaching 24 means doing better than history. historic_axis for a town "
    "hex follows the gazetteer's checked held/not-held status (GAZETTEER §1, which corrects "
    "NOTES §6: Ettelbruck and Martelange were held, Libramont is uncertain and counted as not "
    "held); for other hexes it is the 24-26 Dec outline (§4.3) minus the Bastogne pocket "
    "(§4.4), plus everything east of the 16 Dec front."
)

#: Army sections on the east edge, north to south, as latitude bands (DESIGN, derived from
#: GAZETTEER §5.3 and §4.2): the 6th Pz Army's sector ran from Monschau to the Losheim Gap
#: (326th VGD at Höfen-Monschau, 3rd FJ at Losheim/Lanzerath; C87, C81); the 5th Pz Army's
#: from the Schnee Eifel (18th VGD; WSV) to Dasburg-Gemünd (XLVII Pz Corps; C174); the 7th
#: Army's from Vianden (5th FJ; PAT) to Echternach (212th VGD; C213).  Boundaries are put
#: between those anchors: 50.33 (between Losheim 50.36 and the Roth/Kobscheid outposts
#: 50.305) and 49.96 (between Gemünd 49.983 and Vianden 49.935).
ARMY_BANDS = (("6PzA", 50.33), ("5PzA", 49.96), ("7A", -90.0))

#: Where a gazetteer road continues off the board beyond its last listed place: the road
#: is extended in a straight hex line from the place toward the given point until it leaves
#: the board, and the last full hex becomes a road exit.  (road, place, lat, lon, source,
#: why)
ROAD_CONTINUATIONS = (
    ("R3", "Namur", 50.85, 4.35, "WN4", "the N4 runs Brussels-Namur (toward Brussels)"),
    (
        "R29",
        "Liège",
        50.85,
        5.69,
        "GAZ",
        "the Meuse valley continues north to Visé/Maastricht (§3 Meuse table)",
    ),
    (
        "R29",
        "Givet",
        49.991,
        4.708,
        "GEO",
        "the Meuse valley road continues upstream to Fumay (§3 Meuse point 2), just off the board",
    ),
    (
        "R15",
        "Eupen",
        50.777,
        6.083,
        "GAZ",
        "the Aachen-Eupen road (border vertex 2, Köpfchen); Aachen is off the board",
    ),
    (
        "R31",
        "Schleiden",
        50.529,
        6.80,
        "DESIGN",
        "R31 is the German supply axes behind the armies; Schleiden's rear road leaves eastward",
    ),
    (
        "R2",
        "Arlon",
        49.45,
        5.80,
        "DESIGN",
        "the Arlon roads continue south (III Corps came up from the south, C525)",
    ),
    (
        "R21",
        "Neufchâteau",
        49.45,
        5.30,
        "DESIGN",
        "the N85 continues south toward France; 101st Abn/11th Armd/87th Inf came from Reims via Neufchâteau (§5.6)",
    ),
)

#: River names in priority order (an edge crossed by two rivers is named after the first).
RIVER_ORDER = (
    "Meuse",
    "Our",
    "Sûre",
    "Ourthe",
    "Amblève",
    "Salm",
    "Lesse",
    "Clerve",
    "Wiltz",
    "Vesdre",
    "Warche",
    "Roer",
)
#: Rivers whose crossed hexsides are barriers (all of them: the brief's list).
BARRIER_RIVERS = frozenset(RIVER_ORDER)

#: Approximate country polygons (lat, lon), DESIGN, not from the gazetteer except where
#: noted.  DE is everything east of the §4.1 German border line.  LU: Ouren tripoint (§4.1
#: vertex 14) - west along the Luxembourg border - Martelange on the BE/LU border (WN4) -
#: LU/BE/FR tripoint near Athus - Schengen tripoint (§4.1 vertex 23) - back north along the
#: German border (§4.1 vertices 22..15).  FR: the Givet "pointe" and the south-west corner.
LU_WEST = (
    (50.140, 6.137),
    (50.175, 6.030),
    (50.130, 5.965),
    (50.060, 5.880),
    (50.000, 5.830),
    (49.940, 5.790),
    (49.870, 5.745),
    (49.832, 5.745),
    (49.780, 5.800),
    (49.720, 5.870),
    (49.640, 5.900),
    (49.546, 5.818),
)
FR_POLY = (
    (50.170, 4.835),
    (50.120, 4.880),
    (49.990, 4.870),
    (49.860, 4.900),
    (49.790, 5.020),
    (49.740, 5.150),
    (49.690, 5.280),
    (49.620, 5.450),
    (49.546, 5.818),
    (49.300, 5.818),
    (49.300, 4.400),
    (50.050, 4.400),
    (50.060, 4.690),
    (50.130, 4.770),
)

# ---------------------------------------------------------------------------------------
# Fact tables
# ---------------------------------------------------------------------------------------


def read_csv(name: str) -> list[dict[str, str]]:
    with (FACTS / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def load_facts() -> dict:
    places = read_csv("places.csv")
    extra = read_csv("extra_points.csv")
    rivers: dict[str, list[tuple[float, float]]] = {}
    river_name: dict[str, str] = {}
    for row in read_csv("rivers.csv"):
        rivers.setdefault(row["branch"], []).append((float(row["lat"]), float(row["lon"])))
        river_name[row["branch"]] = row["river"]
    lines: dict[str, list[tuple[float, float]]] = {}
    for row in read_csv("lines.csv"):
        lines.setdefault(row["line"], []).append((float(row["lat"]), float(row["lon"])))
    return {
        "places": places,
        "extra": extra,
        "roads": read_csv("roads.csv"),
        "rivers": rivers,
        "river_name": river_name,
        "lines": lines,
        "bridges": read_csv("bridges.csv"),
        "sources": read_csv("sources.csv"),
        "river_rows": read_csv("rivers.csv"),
        "line_rows": read_csv("lines.csv"),
    }


# ---------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------

SIZE_KM = HEX_KM / SQRT3  # circumradius of a pointy-top hex
ROW_KM = 1.5 * SIZE_KM  # vertical distance between rows

# hex 0101 centre in lat/lon: the projection origin written to map.json
LAT0 = RECT_N - GRID_Y0_KM / KM_PER_DEG_LAT
LON0 = RECT_W + GRID_X0_KM / KM_PER_DEG_LON


def to_xy(lat: float, lon: float) -> tuple[float, float]:
    """km east and south of the centre of hex 0101."""
    return (lon - LON0) * KM_PER_DEG_LON, (LAT0 - lat) * KM_PER_DEG_LAT


def to_latlon(x: float, y: float) -> tuple[float, float]:
    return LAT0 - y / KM_PER_DEG_LAT, LON0 + x / KM_PER_DEG_LON


def hex_xy(q: int, r: int) -> tuple[float, float]:
    return SIZE_KM * (SQRT3 * q + SQRT3 / 2 * r), SIZE_KM * 1.5 * r


def frac_axial(x: float, y: float) -> tuple[float, float]:
    q = (SQRT3 / 3 * x - y / 3) / SIZE_KM
    r = (2 / 3 * y) / SIZE_KM
    return q, r


def cube_round(q: float, r: float) -> tuple[int, int]:
    h = hex_round(q, r)
    return h.q, h.r


def hex_at(x: float, y: float) -> tuple[int, int]:
    return cube_round(*frac_axial(x, y))


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return distance(Hex(*a), Hex(*b))


DIRS = {name: (step.q, step.r) for name, step in DIRECTIONS.items()}


def neighbours(h: tuple[int, int]) -> list[tuple[int, int]]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRS.values()]


def cube_line(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """Hexes on the straight line between two hex centres: cube lerp and rounding with
    N = hex distance steps, nudged by (1e-6, 1e-6, -2e-6) so that lines running exactly
    along hex edges round the same way every time."""
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a[0] + 1e-6, a[1] + 1e-6
    bq, br = b[0] + 1e-6, b[1] + 1e-6
    return [cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def offset_of(q: int, r: int) -> tuple[int, int]:
    """Axial -> odd-r offset (0-based column, row)."""
    return q + (r - (r & 1)) // 2, r


def axial_of(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def hex_corners(q: int, r: int) -> list[tuple[float, float]]:
    cx, cy = hex_xy(q, r)
    return [
        (
            cx + SIZE_KM * math.cos(math.radians(60 * i - 30)),
            cy + SIZE_KM * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def poly_area(pts: list[tuple[float, float]]) -> float:
    a = 0.0
    for i in range(len(pts)):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % len(pts)]
        a += x1 * y2 - x2 * y1
    return abs(a) / 2


def clip_rect(pts, xmin, ymin, xmax, ymax):
    """Sutherland-Hodgman clip of a convex polygon to an axis-aligned rectangle."""

    def clip(poly, inside, inter):
        out = []
        for i in range(len(poly)):
            cur, prev = poly[i], poly[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(inter(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(inter(prev, cur))
        return out

    def ix(x0):
        return lambda p, c: (x0, p[1] + (c[1] - p[1]) * (x0 - p[0]) / (c[0] - p[0]))

    def iy(y0):
        return lambda p, c: (p[0] + (c[0] - p[0]) * (y0 - p[1]) / (c[1] - p[1]), y0)

    poly = list(pts)
    for inside, inter in (
        (lambda p: p[0] >= xmin, ix(xmin)),
        (lambda p: p[0] <= xmax, ix(xmax)),
        (lambda p: p[1] >= ymin, iy(ymin)),
        (lambda p: p[1] <= ymax, iy(ymax)),
    ):
        if not poly:
            break
        poly = clip(poly, inside, inter)
    return poly


def seg_intersect(p1, p2, p3, p4) -> bool:
    """Do the closed segments p1-p2 and p3-p4 intersect (proper or touching)?"""

    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)

    def on_seg(a, b, c):
        return (
            min(a[0], b[0]) - 1e-12 <= c[0] <= max(a[0], b[0]) + 1e-12
            and min(a[1], b[1]) - 1e-12 <= c[1] <= max(a[1], b[1]) + 1e-12
        )

    o1, o2 = orient(p1, p2, p3), orient(p1, p2, p4)
    o3, o4 = orient(p3, p4, p1), orient(p3, p4, p2)
    if o1 != o2 and o3 != o4:
        return True
    if o1 == 0 and on_seg(p1, p2, p3):
        return True
    if o2 == 0 and on_seg(p1, p2, p4):
        return True
    if o3 == 0 and on_seg(p3, p4, p1):
        return True
    return o4 == 0 and on_seg(p3, p4, p2)


def point_in_poly(lat: float, lon: float, poly) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (y1, x1), (y2, x2) = poly[i], poly[(i + 1) % n]
        if (y1 > lat) != (y2 > lat):
            xint = x1 + (lat - y1) * (x2 - x1) / (y2 - y1)
            if lon < xint:
                inside = not inside
    return inside


def lon_on_line(line, lat: float) -> float:
    """Longitude of a north-to-south polyline (latitude strictly decreasing) at `lat`,
    extended straight north/south of its ends."""
    for (la1, _lo1), (la2, _lo2) in zip(line, line[1:]):
        if la1 < la2:
            raise ValueError("polyline must run north to south")
    if lat >= line[0][0]:
        return line[0][1]
    if lat <= line[-1][0]:
        return line[-1][1]
    for (la1, lo1), (la2, lo2) in zip(line, line[1:]):
        if la2 <= lat <= la1:
            t = (la1 - lat) / (la1 - la2)
            return lo1 + (lo2 - lo1) * t
    raise AssertionError


def east_of(line, lat: float, lon: float) -> bool:
    return lon > lon_on_line(line, lat)


# ---------------------------------------------------------------------------------------
# The build
# ---------------------------------------------------------------------------------------

RANK = {"city": 3, "town": 2, "village": 1, "hamlet": 0, "crossroads": 0}


def hid(col0: int, row0: int) -> str:
    return f"{col0 + 1:02d}{row0 + 1:02d}"


def make_grid():
    """All hexes touching the rectangle: {(q, r): fraction inside}."""
    xmin, ymax_ = to_xy(RECT_S, RECT_W)
    xmax, ymin = to_xy(RECT_N, RECT_E)
    ymax = ymax_
    grid = {}
    rows = int((ymax + 2 * SIZE_KM) / ROW_KM) + 2
    cols = int((xmax - xmin + 2 * HEX_KM) / HEX_KM) + 2
    full_area = poly_area(hex_corners(0, 0))
    for row in range(-1, rows + 1):
        for col in range(-1, cols + 1):
            q, r = axial_of(col, row)
            clipped = clip_rect(hex_corners(q, r), xmin, ymin, xmax, ymax)
            frac = poly_area(clipped) / full_area if len(clipped) >= 3 else 0.0
            if frac > 1e-6:
                grid[(q, r)] = frac
    rows_present = sorted({offset_of(*h)[1] for h in grid})
    cols_present = sorted({offset_of(*h)[0] for h in grid})
    if rows_present[0] != 0 or cols_present[0] != 0:
        raise ValueError("GRID_X0_KM/GRID_Y0_KM must keep hex 0101 as the first row/column")
    for frac in grid.values():
        if abs(frac - 0.5) < 0.02:
            raise ValueError("a rim hex is almost exactly half inside; move the grid")
    return grid


def build_facts(return_debug: bool = False):
    """The map's facts: hexes with their attributes, road pairs and river edges, and the
    other facts (lines, notes, sources). `build()` turns them into the file's format."""
    facts = load_facts()
    grid = make_grid()
    full = {h for h, f in grid.items() if f >= 0.5}
    notes: list[str] = []
    unplaced: list[str] = []

    border = facts["lines"]["border"]
    front = facts["lines"]["front_1944_12_16"]
    bulge = facts["lines"]["bulge_height"]
    pocket = facts["lines"]["bastogne_pocket"]
    # the 16 Dec front ends at Wasserbillig; south of it the front followed the Moselle,
    # i.e. the border (its last vertex, the Schengen tripoint)
    front_ext = front + [border[-1]]
    # German gains by 24-26 Dec: the bulge outline closed back along the 16 Dec front
    i_ech = next(i for i, p in enumerate(front) if abs(p[0] - bulge[-1][0]) < 1e-9)
    i_hof = 3  # front vertex 4, Höfen-Monschau (the bulge's northern hinge)
    gains = bulge + list(reversed(front[i_hof : i_ech + 1]))

    def country_at(lat, lon):
        if east_of(border, lat, lon):
            return "DE"
        lu = list(LU_WEST) + [border[-1]] + [p for p in reversed(border) if p[0] <= 50.140][1:]
        if point_in_poly(lat, lon, lu):
            return "LU"
        if point_in_poly(lat, lon, FR_POLY):
            return "FR"
        return "BE"

    def axis_at_start(lat, lon):
        return east_of(front_ext, lat, lon)

    def historic_area(lat, lon):
        if point_in_poly(lat, lon, pocket):
            return False
        return axis_at_start(lat, lon) or point_in_poly(lat, lon, gains)

    # ---- places -> hexes -------------------------------------------------------------
    coords: dict[str, tuple[float, float]] = {}
    place_rows = {}
    for p in facts["places"]:
        coords[p["name"]] = (float(p["lat"]), float(p["lon"]))
        place_rows[p["name"]] = p
    for p in facts["extra"]:
        coords.setdefault(p["name"], (float(p["lat"]), float(p["lon"])))

    def nearest_full(lat, lon):
        x, y = to_xy(lat, lon)
        h = hex_at(x, y)
        if h in full:
            return h
        cands = [n for n in neighbours(h) if n in full]
        if not cands:
            return None
        return min(cands, key=lambda n: (math.dist(hex_xy(*n), (x, y)), n))

    def protected(name):
        p = place_rows[name]
        return name in RULEBOOK_NAMES or name in VP or RANK[p["size"]] >= 2

    order = sorted(
        place_rows,
        key=lambda n: (
            not protected(n),
            n not in RULEBOOK_NAMES,
            -RANK[place_rows[n]["size"]],
            -VP.get(n, 0),
            n,
        ),
    )
    primary: dict[tuple[int, int], str] = {}
    also: dict[tuple[int, int], list[str]] = {}
    place_hex: dict[str, tuple[int, int]] = {}
    for name in order:
        lat, lon = coords[name]
        if not (RECT_S <= lat <= RECT_N and RECT_W <= lon <= RECT_E):
            notes.append(f"{name} lies off the board")
            continue
        h = nearest_full(lat, lon)
        if h is None:
            unplaced.append(f"{name}: nearest hex is a partial rim hex")
            continue
        if h not in primary:
            primary[h] = name
            place_hex[name] = h
            continue
        if protected(name):
            x, y = to_xy(lat, lon)
            free = [
                n
                for n in neighbours(h)
                if n in full
                and n not in primary
                and math.dist(hex_xy(*n), (x, y)) <= DISPLACE_MAX_KM
            ]
            if free:
                n = min(free, key=lambda n: (math.dist(hex_xy(*n), (x, y)), n))
                primary[n] = name
                place_hex[name] = n
                d = math.dist(hex_xy(*n), (x, y))
                notes.append(
                    f"{name} collided with {primary[h]} and was moved to the neighbouring hex "
                    f"{hid(*offset_of(*n))} ({d:.1f} km from its true position)"
                )
                continue
            if name in RULEBOOK_NAMES or name in VP:
                raise ValueError(f"no hex of its own for {name} (collides with {primary[h]})")
        also.setdefault(h, []).append(name)
        place_hex[name] = h

    # ---- roads -----------------------------------------------------------------------
    road_pairs: set[frozenset] = set()
    exits: set[tuple[int, int]] = set()
    road_paths: dict[str, list[tuple[int, int]]] = {}
    italics: dict[str, list] = {}

    def on_board(lat, lon):
        return RECT_S <= lat <= RECT_N and RECT_W <= lon <= RECT_E

    def anchor_hex(name):
        if name in place_hex:
            return place_hex[name]
        lat, lon = coords[name]
        return nearest_full(lat, lon) if on_board(lat, lon) else None

    def rim_entry(inside, outside):
        """The full hex where the straight line from an on-board point to an off-board
        point crosses the board rectangle (Liang-Barsky clip, then a hair inside)."""
        (la0, lo0), (la1, lo1) = inside, outside
        t_out = 1.0
        for p0, d, lo, hi in ((la0, la1 - la0, RECT_S, RECT_N), (lo0, lo1 - lo0, RECT_W, RECT_E)):
            if d > 0:
                t_out = min(t_out, (hi - p0) / d)
            elif d < 0:
                t_out = min(t_out, (lo - p0) / d)
        t = max(0.0, t_out - 1e-4)
        h = nearest_full(la0 + (la1 - la0) * t, lo0 + (lo1 - lo0) * t)
        if h is None:
            raise ValueError(f"no full hex where {inside}->{outside} leaves the board")
        return h

    def add_path(key, path):
        for a, b in zip(path, path[1:]):
            if a in full and b in full:
                road_pairs.add(frozenset((a, b)))
            else:
                raise ValueError(f"{key}: road runs through a partial hex between anchors")

    for road in facts["roads"]:
        key = road["road"] + road["part"]
        names = [s.strip() for s in road["places"].split(">")]
        # resolve anchors, interpolate italic (*) places evenly between them
        pts: list[tuple[float, float] | None] = []
        for n in names:
            if n.startswith("*"):
                pts.append(None)
            elif n in coords:
                pts.append(coords[n])
            else:
                raise ValueError(f"{key}: unknown place {n!r}")
        if pts[0] is None or pts[-1] is None:
            raise ValueError(f"{key}: a road may not start or end with an italic place")
        i = 0
        while i < len(pts):
            if pts[i] is None:
                j = i
                while pts[j] is None:
                    j += 1
                a, b = pts[i - 1], pts[j]
                k = j - i + 1
                for m in range(i, j):
                    t = (m - i + 1) / k
                    pts[m] = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                i = j
            i += 1
        italics[key] = [
            (n[1:], round(la, 4), round(lo, 4))
            for n, (la, lo) in zip(names, pts)
            if n.startswith("*")
        ]
        # Italic places lie on the straight line between their anchors, so the hex line
        # between the anchors' hexes already passes through them: only anchors are walked.
        anchors = [(n, coords[n], anchor_hex(n)) for n in names if not n.startswith("*")]
        path: list[tuple[int, int]] = []
        legs = []
        for (na, pa, ha), (nb, pb, hb) in zip(anchors, anchors[1:]):
            if ha is None and hb is None:
                unplaced.append(f"{key} leg {na}-{nb}: both ends off the board")
                continue
            if ha is None:
                ha = rim_entry(pb, pa)
                exits.add(ha)
            elif hb is None:
                hb = rim_entry(pa, pb)
                exits.add(hb)
            legs.append(cube_line(ha, hb))
        for seg in legs:
            if path and path[-1] == seg[0]:
                seg = seg[1:]
            path.extend(seg)
            add_path(key, [path[-len(seg) - 1]] + seg if len(path) > len(seg) else seg)
        road_paths[key] = path

    for road, place, tlat, tlon, _src, _why in ROAD_CONTINUATIONS:
        if place not in place_hex:
            unplaced.append(f"continuation of {road} from {place}: place is off the board")
            continue
        if on_board(tlat, tlon):
            raise ValueError(f"continuation target of {road} from {place} is on the board")
        h = rim_entry(coords[place], (tlat, tlon))
        path = cube_line(place_hex[place], h)
        add_path(f"{road}>{place}", path)
        exits.add(h)
        road_paths[f"{road}>{place}"] = path

    # ---- rivers ------------------------------------------------------------------------
    edge_rivers: dict[frozenset, list[str]] = {}
    river_segments = []
    for branch, pts in facts["rivers"].items():
        name = facts["river_name"][branch]
        xy = [to_xy(lat, lon) for lat, lon in pts]
        for p, q in zip(xy, xy[1:]):
            river_segments.append((name, p, q))
    full_sorted = sorted(full, key=lambda h: (h[1], h[0]))
    for h in full_sorted:
        for n in (neighbours(h)[i] for i in (0, 4, 5)):  # E, SW, SE: each edge once
            if n not in full:
                continue
            c1, c2 = hex_xy(*h), hex_xy(*n)
            for name, p, q in river_segments:
                if seg_intersect(c1, c2, p, q):
                    lst = edge_rivers.setdefault(frozenset((h, n)), [])
                    if name not in lst:
                        lst.append(name)

    # ---- per-hex attributes ------------------------------------------------------------
    rim_dirs = {}
    for h in full:
        tags = []
        nb = dict(zip(DIRS, neighbours(h)))
        if nb["NW"] not in full and nb["NE"] not in full:
            tags.append("N")
        if nb["SW"] not in full and nb["SE"] not in full:
            tags.append("S")
        if nb["W"] not in full:
            tags.append("W")
        if nb["E"] not in full:
            tags.append("E")
        rim_dirs[h] = tags

    hexes = []
    by_hex = {}
    for h in sorted(grid, key=lambda h: (offset_of(*h)[1], offset_of(*h)[0])):
        col0, row0 = offset_of(*h)
        x, y = hex_xy(*h)
        lat, lon = to_latlon(x, y)
        town = primary.get(h)
        if town:
            prow = place_rows[town]
            tlat, tlon = coords[town]
            country = prow["cc"]
            control = "Axis" if axis_at_start(tlat, tlon) else "Allies"
            held = prow["held"]
            historic = True if held == "yes" else False if held == "no" else historic_area(lat, lon)
            size = prow["size"]
        else:
            country = country_at(lat, lon)
            control = "Axis" if axis_at_start(lat, lon) else "Allies"
            historic = historic_area(lat, lon)
            size = None
        vp = VP.get(town, 0) if town else 0
        if town and country != "DE" and RANK[size] >= 2 and vp <= 0:
            raise ValueError(f"{town} is a city/town west of the border without VP")
        if country == "DE" and vp:
            raise ValueError(f"{town} is in Germany and may not carry VP")
        is_full = h in full
        edge = rim_dirs.get(h, []) if is_full else []
        army = None
        if "E" in edge and country == "DE":
            army = next(a for a, south in ARMY_BANDS if lat > south)
        rec = {
            "id": hid(col0, row0),
            "q": h[0],
            "r": h[1],
            "col": col0 + 1,
            "row": row0 + 1,
            "lat": round(lat, 4),
            "lon": round(lon, 4),
            "partial": not is_full,
            "country": country,
            "town": town,
            "also": sorted(also.get(h, []), key=lambda n: (-RANK[place_rows[n]["size"]], n)),
            "size": size,
            "vp": vp,
            "historic_axis": historic,
            "control": control,
            "edge": edge,
            "army": army,
            "road_exit": bool(is_full and edge and h in exits),
        }
        hexes.append(rec)
        by_hex[h] = rec

    for n in VP:
        if n not in place_hex or primary.get(place_hex[n]) != n:
            if (
                n in coords
                and RECT_S <= coords[n][0] <= RECT_N
                and RECT_W <= coords[n][1] <= RECT_E
            ):
                raise ValueError(f"VP site {n} has no hex of its own")

    stray_exits = sorted(by_hex[h]["id"] for h in exits if not by_hex[h]["edge"])
    if stray_exits:
        raise ValueError(f"roads leave the board from non-rim hexes: {stray_exits}")

    def ident(h):
        return by_hex[h]["id"]

    roads = sorted(sorted(ident(h) for h in pair) for pair in road_pairs)

    # §3.1 crossings that no gazetteer road reaches (Ouren, Gemünd, Steinebrück, the Sûre
    # towns, the Meuse towns...): the bridge was there, so that hexside is no barrier, though
    # no road runs over it (DESIGN: the gazetteer lists the crossing, not its road).
    def midpoint(pair):
        a, b = tuple(pair)
        (xa, ya), (xb, yb) = hex_xy(*a), hex_xy(*b)
        return (xa + xb) / 2, (ya + yb) / 2

    crossings: set[frozenset] = set()
    for b in facts["bridges"]:
        place = b["place"]
        if not place or place not in coords:
            continue
        h0 = place_hex.get(place) or nearest_full(*coords[place])
        if h0 is None:
            continue
        near = {h0, *neighbours(h0)}
        local = [pair for pair, names in edge_rivers.items() if b["river"] in names and pair & near]
        if not local or any(pair in road_pairs and h0 in pair for pair in local):
            continue
        x, y = to_xy(*coords[place])
        crossings.add(min(local, key=lambda pair: (math.dist(midpoint(pair), (x, y)), sorted(pair))))

    rivers = []
    for pair, names in edge_rivers.items():
        names = sorted(names, key=RIVER_ORDER.index)
        bridge = pair in road_pairs or pair in crossings
        rivers.append(
            {
                "hexes": sorted(ident(h) for h in pair),
                "river": names[0],
                "barrier": (not bridge) and names[0] in BARRIER_RIVERS,
                "bridge": bridge,
            }
        )
    rivers.sort(key=lambda e: e["hexes"])

    # ---- checks on the design invariants --------------------------------------------
    hist_vp = sum(h["vp"] for h in hexes if h["historic_axis"] and h["country"] != "DE")
    if hist_vp != HISTORIC_VP:
        detail = sorted((h["town"], h["vp"]) for h in hexes if h["historic_axis"] and h["vp"])
        raise ValueError(f"historic-Axis VP is {hist_vp}, not {HISTORIC_VP}: {detail}")

    # gazetteer bridges (§3.1): where a listed road crosses, the crossing must be a bridge
    pair_roads: dict[frozenset, set[str]] = {}
    for key, path in road_paths.items():
        for a, b in zip(path, path[1:]):
            pair_roads.setdefault(frozenset((a, b)), set()).add(key.split(">")[0])
    bridge_report = []
    for b in facts["bridges"]:
        river, place = b["river"], b["place"]
        want = [r for r in b["roads"].split(";") if r]
        if not place:
            bridge_report.append((river, b["crossing"], "not placed: no coordinates", True))
            unplaced.append(f"bridge {b['crossing']} ({river}): no coordinates in the gazetteer")
            continue
        if river not in RIVER_ORDER:
            bridge_report.append(
                (
                    river,
                    b["crossing"],
                    "not placed: river not in the gazetteer's river tables",
                    True,
                )
            )
            unplaced.append(f"bridge {b['crossing']}: the {river} has no polyline in the gazetteer")
            continue
        h0 = place_hex.get(place) or nearest_full(*coords[place])
        near = {h0, *neighbours(h0)}
        local = [
            (pair, names) for pair, names in edge_rivers.items() if river in names and pair & near
        ]
        bridges_here = sorted(
            (sorted(ident(h) for h in pair), sorted(pair_roads.get(pair, ())))
            for pair, _n in local
            if pair in road_pairs and (h0 in pair or pair_roads[pair] & set(want))
        )
        if bridges_here:
            status = "bridge " + "; ".join(
                f"{'-'.join(e)} ({','.join(r)})" for e, r in bridges_here
            )
            ok = True
        elif not want:
            status = "no gazetteer road crosses here: " + (
                "barrier" if local else "river not on a hexside near here"
            )
            ok = True
        else:
            status = "MISSING: the listed road does not cross the river on a hexside near here"
            ok = False
        bridge_report.append((river, b["crossing"], status, ok))
    missing = [r for r in bridge_report if not r[3]]
    if missing:
        raise ValueError(f"gazetteer bridges missing on the map: {missing}")

    used_keys = set()
    for p in facts["places"]:
        used_keys.add(p["coord_source"])
        used_keys.update(k for k in p["held_source"].split(";") if k)
    for r in facts["roads"]:
        used_keys.update(r["source"].split(";"))
    for r in facts["river_rows"]:
        used_keys.update(r["source"].split(";"))
    for r in facts["line_rows"]:
        used_keys.update(r["source"].split(";"))
        used_keys.update(r["shape_source"].split(";"))
    for b in facts["bridges"]:
        used_keys.update(b["source"].split(";"))
    for e in facts["extra"]:
        used_keys.add(e["source"])
    for c in ROAD_CONTINUATIONS:
        used_keys.add(c[4])
    used_keys.update(["NOTES", "DESIGN", "GAZ"])
    used_keys.discard("GAZ-approximate")
    src_table = {s["key"]: s["source"] for s in facts["sources"]}
    sources = {}
    for k in sorted(used_keys):
        if k in src_table:
            sources[k] = src_table[k]
        elif k.startswith("CH") and k[2:].isdigit():
            sources[k] = src_table["CH##"]
        elif k.startswith("C") and k[1:].isdigit():
            sources[k] = src_table["C###"] + f" (page {k[1:]})"
        elif k.startswith("BOB"):
            sources[k] = src_table["BOB21, BOB23"]
        elif k.startswith("RF-"):
            sources[k] = src_table["RF-*"]
        elif k.startswith("WR-"):
            sources[k] = src_table["WR-*"]
        else:
            raise ValueError(f"unknown source key {k!r}")
    sources["GAZ-approximate"] = (
        "held/not-held status the gazetteer marks [approximate] (general knowledge, unchecked)"
    )

    col_max = max(h["col"] for h in hexes)
    row_max = max(h["row"] for h in hexes)
    notes_out = [
        "Designer approximation, NOT the printed Axis & Allies board: real places at real "
        "coordinates (GAZETTEER.md), hex size and VP chosen by the designer.",
        f"Grid: {col_max} columns x {row_max} rows of pointy-top hexes, {HEX_KM} km between "
        "adjacent centres; rows 2, 4, 6, ... (odd r) are shifted half a hex east (odd-r). Board "
        f"rectangle {RECT_N}N-{RECT_S}N, {RECT_W}E-{RECT_E}E; rim hexes less than half "
        "inside it are partial.",
        "Projection: x_km = (lon - lon0) * km_per_deg_lon, y_km = (lat0 - lat) * "
        "km_per_deg_lat (south positive); (lat0, lon0) is the centre of hex 0101; hex centre "
        "(q, r) = hex_km/sqrt(3) * (sqrt(3) q + sqrt(3)/2 r, 1.5 r).",
        "Towns snap to the hex containing them; when two places share a hex the more "
        "important keeps it and the other is listed under 'also'. Cities, towns, the five "
        "rulebook names and every VP site have a hex of their own (a colliding one may move "
        "to a neighbouring hex, listed below).",
        "Roads follow the gazetteer's ordered place lists (§2) as cube-coordinate hex lines; "
        "italic places are interpolated evenly between their named neighbours, which makes "
        "them straight lines between anchors. Routing between anchors is approximate.",
        "Rivers are the gazetteer's polylines (§3) with straight segments between points; an "
        "edge is a river edge when the segment between the two hex centres crosses the "
        "polyline. All listed rivers are barriers unless a road crosses the same edge "
        "(bridge). River-valley roads therefore get bridges where the hex line of the road "
        "and the river polyline happen to cross; blown bridges (Trois-Ponts, Salmchâteau, "
        "Martelange, Esch-sur-Sûre, Habiemont) are drawn as bridges because they existed at "
        "the start of play.",
        "Country: DE east of the German border line (§4.1); the BE/LU/FR split is a rough "
        "designer polygon (approximate); a town hex takes its town's country.",
        "Start control: Axis east of the 16 Dec 1944 front line (§4.2, extended south along "
        "the Moselle border); a town hex uses the town's true position. The line's vertices "
        "are the gazetteer author's placements (approximate).",
        "Army sections on the east edge (6PzA / 5PzA / 7A) are latitude bands cut at 50.33N "
        "and 49.96N, derived from the divisions' attack sectors in GAZETTEER §5.3 (design).",
        "Road exits: rim hexes where a road leaves the board. Where the gazetteer's road ends "
        "at a place near the rim, the road is continued straight to the rim (listed below).",
    ]
    notes_out += [
        f"Road continuation ({src}): {road} from {place} - {why}."
        for road, place, _la, _lo, src, why in ROAD_CONTINUATIONS
    ]
    notes_out += [
        "Rivers are barriers from their gazetteer source point on, so headwaters count too "
        "(e.g. the Wiltz rises in Bastogne and the Sûre near Vaux-sur-Sûre); where the Meuse "
        "valley road (R29) and the river interleave between Huy and Liège, the road crosses "
        "the river several times and each crossing is a bridge.",
        "Monschau and the other German towns carry no VP (NOTES §7.4's example gave Monschau 1); "
        "Luxembourg city, Aachen, Düren, Trier and Bitburg lie off the board.",
    ]
    for road in facts["roads"]:
        if "not placed" in road["note"] or "DESIGN" in road["note"]:
            notes_out.append(f"{road['road']}{road['part']} ({road['name']}): {road['note']}")
    notes_out += notes
    notes_out += [f"Not placed: {u}" for u in unplaced]

    data = {
        "name": "Ardennes, December 1944",
        "fidelity": "approximate",
        "source": "designer approximation from GAZETTEER.md (real towns at real coordinates); "
        "not the printed A&A board",
        "orientation": "pointy",
        "hex_km": HEX_KM,
        "projection": {
            "lat0": round(LAT0, 6),
            "lon0": round(LON0, 6),
            "km_per_deg_lat": KM_PER_DEG_LAT,
            "km_per_deg_lon": KM_PER_DEG_LON,
        },
        "hexes": hexes,
        "roads": roads,
        "rivers": rivers,
        "lines": {
            "front_1944_12_16": [list(p) for p in front],
            "bulge_height": [list(p) for p in bulge],
            "border": [list(p) for p in border],
            "bastogne_pocket": [list(p) for p in pocket],
        },
        "vp_note": VP_NOTE,
        "notes": notes_out,
        "sources": sources,
    }
    if return_debug:
        debug = {
            "facts": facts,
            "grid": grid,
            "full": full,
            "by_hex": by_hex,
            "coords": coords,
            "place_hex": place_hex,
            "road_paths": road_paths,
            "italics": italics,
            "bridge_report": bridge_report,
            "edge_rivers": edge_rivers,
            "road_pairs": road_pairs,
            "primary": primary,
        }
        return data, debug
    return data


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------


#: the hex facts kept as space attributes, in this order (rules, clients and the computer
#: player read them by these names)
HEX_ATTRS = ("col", "row", "lat", "lon", "partial", "country", "town", "also", "size", "vp",
             "historic_axis", "control", "edge", "army", "road_exit")
MAP_FORMAT = "wargame-map/1"


def build() -> dict:
    """The map file: the facts of `build_facts()` in the generic `wargame-map/1` format."""
    return to_map(build_facts())


def to_map(data: dict) -> dict:
    """Hexes become spaces (`hex: [q, r]`, the facts in `attrs`, the town as the name);
    every two touching hexes are linked (`link_hexes`), and a hex side with a road or a
    river carries `road`, `river`, `barrier` and `bridge` (only when there is one). The
    geometry (orientation, hex size, projection, the historical lines) goes in `layout`;
    the VP note, the design notes and the sources in `notes`."""
    spaces = []
    for h in data["hexes"]:
        extra = set(h) - {"id", "q", "r", *HEX_ATTRS}
        if extra:
            raise ValueError(f"hex {h['id']}: facts with no attribute name: {sorted(extra)}")
        spaces.append({"id": h["id"], "name": h["town"] or h["id"], "kind": "hex", "hex": [h["q"], h["r"]],
                       "attrs": {k: h[k] for k in HEX_ATTRS}})
    links: dict[tuple[str, str], dict] = {}
    for a, b in data["roads"]:
        links.setdefault(tuple(sorted((a, b))), {})["road"] = True
    for river in data["rivers"]:
        attrs = links.setdefault(tuple(sorted(river["hexes"])), {})
        attrs["river"] = river["river"]
        attrs["barrier"] = bool(river["barrier"])
        if river["bridge"]:
            attrs["bridge"] = True
    notes = [data["vp_note"], *data["notes"]]
    notes += [f"Source {key}: {text}" for key, text in data["sources"].items()]
    return {
        "format": MAP_FORMAT,
        "name": data["name"],
        "fidelity": data["fidelity"],
        "source": data["source"],
        "layout": {
            "kind": "hex-pointy",
            "orientation": data["orientation"],
            "hex_km": data["hex_km"],
            "projection": data["projection"],
            "lines": data["lines"],
        },
        "link_hexes": True,
        "notes": notes,
        "spaces": spaces,
        "links": [{"a": a, "b": b, "attrs": attrs} for (a, b), attrs in sorted(links.items())],
    }


def dumps(doc: dict) -> str:
    """Deterministic JSON: one space / link / note per line, one layout entry per line."""
    out = ["{"]
    keys = list(doc)
    for i, k in enumerate(keys):
        v = doc[k]
        comma = "," if i < len(keys) - 1 else ""
        if k in ("spaces", "links", "notes") and isinstance(v, list):
            out.append(f"  {json.dumps(k)}: [")
            for j, item in enumerate(v):
                c = "," if j < len(v) - 1 else ""
                out.append("    " + json.dumps(item, ensure_ascii=False) + c)
            out.append("  ]" + comma)
        elif k == "layout" and isinstance(v, dict):
            out.append(f"  {json.dumps(k)}: {{")
            sub = list(v)
            for j, sk in enumerate(sub):
                c = "," if j < len(sub) - 1 else ""
                if sk == "lines" and isinstance(v[sk], dict):
                    out.append(f"    {json.dumps(sk)}: {{")
                    names = list(v[sk])
                    for n, name in enumerate(names):
                        cc = "," if n < len(names) - 1 else ""
                        out.append(f"      {json.dumps(name)}: " + json.dumps(v[sk][name], ensure_ascii=False) + cc)
                    out.append("    }" + c)
                else:
                    out.append(f"    {json.dumps(sk)}: " + json.dumps(v[sk], ensure_ascii=False) + c)
            out.append("  }" + comma)
        else:
            out.append(f"  {json.dumps(k)}: " + json.dumps(v, ensure_ascii=False) + comma)
    out.append("}")
    return "\n".join(out) + "\n"


def ascii_map(data: dict) -> str:
    """One character per hex, odd-r rows indented by half a cell:
    T town (Allied at start), t town (Axis at start), A Axis hex, a Axis hex with a
    river-barrier side, ~ Allied hex with a river-barrier side, . other Allied hex,
    blank = partial rim hex."""
    barrier_ids = set()
    for e in data["rivers"]:
        if e["barrier"]:
            barrier_ids.update(e["hexes"])
    rows: dict[int, dict[int, str]] = {}
    for h in data["hexes"]:
        if h["partial"]:
            ch = " "
        elif h["town"]:
            ch = "T" if h["control"] == "Allies" else "t"
        elif h["control"] == "Axis":
            ch = "a" if h["id"] in barrier_ids else "A"
        else:
            ch = "~" if h["id"] in barrier_ids else "."
        rows.setdefault(h["row"], {})[h["col"]] = ch
    ncol = max(h["col"] for h in data["hexes"])
    lines = ["    " + " ".join(str(c % 10) for c in range(1, ncol + 1))]
    for r in sorted(rows):
        pad = " " if r % 2 == 0 else ""
        lines.append(f"{r:02d}  " + pad + " ".join(rows[r].get(c, " ") for c in range(1, ncol + 1)))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ascii", action="store_true", help="print a text overview")
    ap.add_argument("--png", action="store_true", help="also write docs/bulge-map.png")
    ap.add_argument("--check", action="store_true", help="fail if map.json is stale")
    ap.add_argument("--report", action="store_true", help="print build statistics")
    args = ap.parse_args(argv)
    data, debug = build_facts(return_debug=True)
    text = dumps(to_map(data))
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is out of date; run scripts/build_bulge_map.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    if args.report:
        print_report(data, debug)
    if args.ascii:
        print(ascii_map(data))
    if args.png:
        write_png(data, debug, PNG_OUT)
        print(f"wrote {PNG_OUT.relative_to(ROOT)}")
    return 0


def print_report(data, debug):
    hexes = data["hexes"]
    full = [h for h in hexes if not h["partial"]]
    print(
        f"hexes {len(hexes)} (full {len(full)}, partial {len(hexes) - len(full)}); "
        f"grid {max(h['col'] for h in hexes)} x {max(h['row'] for h in hexes)}; "
        f"hex_km {data['hex_km']}"
    )
    print(
        f"road pairs {len(data['roads'])}; river edges {len(data['rivers'])}; "
        f"barriers {sum(e['barrier'] for e in data['rivers'])}; "
        f"bridges {sum(e['bridge'] for e in data['rivers'])}"
    )
    tot = sum(h["vp"] for h in hexes)
    hist = sum(h["vp"] for h in hexes if h["historic_axis"])
    print(f"VP total {tot}; historic-Axis VP {hist}")
    for h in sorted((h for h in hexes if h["vp"]), key=lambda h: (-h["vp"], h["town"])):
        print(
            f"  {h['id']} {h['town']:<14} vp {h['vp']} historic_axis {h['historic_axis']} "
            f"{h['control']} {h['country']}"
        )
    print("towns:")
    for h in hexes:
        if h["town"]:
            print(
                f"  {h['id']} {h['town']} {h['also'] or ''} {h['control']} "
                f"hist={h['historic_axis']} edge={h['edge']}"
            )
    print("bridges (§3.1):")
    for river, crossing, status, _ok in debug["bridge_report"]:
        print(f"  {river:<8} {crossing:<32} {status}")
    print("edges:")
    for h in hexes:
        if h["edge"]:
            print(
                f"  {h['id']} {h['edge']} army={h['army']} exit={h['road_exit']} "
                f"{h['control']} {h['town'] or ''}"
            )
    for n in data["notes"]:
        print("NOTE", n)


# ---------------------------------------------------------------------------------------
# PNG (pure stdlib)
# ---------------------------------------------------------------------------------------


# 5x7 glyphs, one byte per column, least significant bit at the top (classic LCD font).
FONT = {
    "0": (0x3E, 0x51, 0x49, 0x45, 0x3E),
    "1": (0x00, 0x42, 0x7F, 0x40, 0x00),
    "2": (0x42, 0x61, 0x51, 0x49, 0x46),
    "3": (0x21, 0x41, 0x45, 0x4B, 0x31),
    "4": (0x18, 0x14, 0x12, 0x7F, 0x10),
    "5": (0x27, 0x45, 0x45, 0x45, 0x39),
    "6": (0x3C, 0x4A, 0x49, 0x49, 0x30),
    "7": (0x01, 0x71, 0x09, 0x05, 0x03),
    "8": (0x36, 0x49, 0x49, 0x49, 0x36),
    "9": (0x06, 0x49, 0x49, 0x29, 0x1E),
    "A": (0x7E, 0x11, 0x11, 0x11, 0x7E),
    "B": (0x7F, 0x49, 0x49, 0x49, 0x36),
    "C": (0x3E, 0x41, 0x41, 0x41, 0x22),
    "D": (0x7F, 0x41, 0x41, 0x22, 0x1C),
    "E": (0x7F, 0x49, 0x49, 0x49, 0x41),
    "F": (0x7F, 0x09, 0x09, 0x09, 0x01),
    "G": (0x3E, 0x41, 0x49, 0x49, 0x7A),
    "H": (0x7F, 0x08, 0x08, 0x08, 0x7F),
    "I": (0x00, 0x41, 0x7F, 0x41, 0x00),
    "J": (0x20, 0x40, 0x41, 0x3F, 0x01),
    "K": (0x7F, 0x08, 0x14, 0x22, 0x41),
    "L": (0x7F, 0x40, 0x40, 0x40, 0x40),
    "M": (0x7F, 0x02, 0x0C, 0x02, 0x7F),
    "N": (0x7F, 0x04, 0x08, 0x10, 0x7F),
    "O": (0x3E, 0x41, 0x41, 0x41, 0x3E),
    "P": (0x7F, 0x09, 0x09, 0x09, 0x06),
    "Q": (0x3E, 0x41, 0x51, 0x21, 0x5E),
    "R": (0x7F, 0x09, 0x19, 0x29, 0x46),
    "S": (0x46, 0x49, 0x49, 0x49, 0x31),
    "T": (0x01, 0x01, 0x7F, 0x01, 0x01),
    "U": (0x3F, 0x40, 0x40, 0x40, 0x3F),
    "V": (0x1F, 0x20, 0x40, 0x20, 0x1F),
    "W": (0x3F, 0x40, 0x38, 0x40, 0x3F),
    "X": (0x63, 0x14, 0x08, 0x14, 0x63),
    "Y": (0x07, 0x08, 0x70, 0x08, 0x07),
    "Z": (0x61, 0x51, 0x49, 0x45, 0x43),
    ".": (0x00, 0x60, 0x60, 0x00, 0x00),
    "-": (0x08, 0x08, 0x08, 0x08, 0x08),
    "'": (0x00, 0x05, 0x03, 0x00, 0x00),
    "/": (0x20, 0x10, 0x08, 0x04, 0x02),
    "(": (0x00, 0x1C, 0x22, 0x41, 0x00),
    ")": (0x00, 0x41, 0x22, 0x1C, 0x00),
    ":": (0x00, 0x36, 0x36, 0x00, 0x00),
    "=": (0x14, 0x14, 0x14, 0x14, 0x14),
    "&": (0x36, 0x49, 0x55, 0x22, 0x50),
    ",": (0x00, 0x50, 0x30, 0x00, 0x00),
    "+": (0x08, 0x08, 0x3E, 0x08, 0x08),
    " ": (0, 0, 0, 0, 0),
}


class Canvas:
    def __init__(self, w: int, h: int, bg=(255, 255, 255)):
        self.w, self.h = w, h
        self.px = bytearray(bytes(bg) * (w * h))

    def set(self, x: int, y: int, c) -> None:
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            self.px[i : i + 3] = bytes(c)

    def span(self, y: int, x0: int, x1: int, c) -> None:
        if not 0 <= y < self.h:
            return
        x0, x1 = max(0, x0), min(self.w - 1, x1)
        if x1 >= x0:
            i = 3 * (y * self.w + x0)
            self.px[i : i + 3 * (x1 - x0 + 1)] = bytes(c) * (x1 - x0 + 1)

    def hexagon(self, cx: float, cy: float, rad: float, c) -> None:
        for y in range(int(math.floor(cy - rad)), int(math.ceil(cy + rad)) + 1):
            dy = abs(y + 0.5 - cy)
            if dy > rad:
                continue
            half = rad * SQRT3 / 2 if dy <= rad / 2 else (rad - dy) * SQRT3
            self.span(y, int(round(cx - half)), int(round(cx + half)) - 1, c)

    def line(self, x0, y0, x1, y1, c, width: float = 1.0, dash: tuple | None = None) -> None:
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) * 2))
        r = width / 2
        travelled, step = 0.0, math.hypot(x1 - x0, y1 - y0) / n
        for i in range(n + 1):
            if dash and (travelled % (dash[0] + dash[1])) >= dash[0]:
                travelled += step
                continue
            travelled += step
            x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
            if r <= 0.6:
                self.set(int(x), int(y), c)
                continue
            for yy in range(int(y - r), int(y + r) + 1):
                for xx in range(int(x - r), int(x + r) + 1):
                    if (xx + 0.5 - x) ** 2 + (yy + 0.5 - y) ** 2 <= r * r:
                        self.set(xx, yy, c)

    def rect(self, x0, y0, x1, y1, c) -> None:
        for y in range(int(y0), int(y1) + 1):
            self.span(y, int(x0), int(x1), c)

    def text(self, x: int, y: int, s: str, c, scale: int = 1, halo=None) -> None:
        s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().upper()
        if halo is not None:
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)):
                self.text(x + dx, y + dy, s, halo, scale)
        for k, ch in enumerate(s):
            cols = FONT.get(ch, FONT[" "])
            for i, bits in enumerate(cols):
                for j in range(7):
                    if bits >> j & 1:
                        self.rect(
                            x + (6 * k + i) * scale,
                            y + j * scale,
                            x + (6 * k + i) * scale + scale - 1,
                            y + j * scale + scale - 1,
                            c,
                        )

    def png(self) -> bytes:
        raw = b"".join(
            b"\x00" + bytes(self.px[3 * y * self.w : 3 * (y + 1) * self.w]) for y in range(self.h)
        )

        def chunk(tag: bytes, body: bytes) -> bytes:
            return (
                struct.pack(">I", len(body))
                + tag
                + body
                + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
            )

        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b"")
        )


def text_width(s: str, scale: int = 1) -> int:
    return 6 * len(s) * scale - scale


def write_png(data, debug, path: Path, px_per_km: float = 10.0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render(data, debug, px_per_km).png())


def render(data, debug, px_per_km: float = 10.0) -> Canvas:
    """Hexes coloured by start control (and the historic bulge), river barriers and
    bridges on hexsides, roads between hex centres, towns with VP."""
    margin_l, margin_t, legend_h = 28, 24, 120
    xmin, _ = to_xy(RECT_N, RECT_W)
    xmax, _ = to_xy(RECT_N, RECT_E)
    _, ymin = to_xy(RECT_N, RECT_W)
    _, ymax = to_xy(RECT_S, RECT_W)
    w = int((xmax - xmin) * px_per_km) + margin_l + 70
    h = int((ymax - ymin) * px_per_km) + margin_t + 10 + legend_h
    cv = Canvas(w, h, (250, 250, 245))

    def P(x_km: float, y_km: float) -> tuple[float, float]:
        return margin_l + (x_km - xmin) * px_per_km, margin_t + (y_km - ymin) * px_per_km

    def PL(lat: float, lon: float) -> tuple[float, float]:
        return P(*to_xy(lat, lon))

    rad = SIZE_KM * px_per_km
    colours = {
        ("Allies", False): (214, 226, 190),
        ("Allies", True): (240, 206, 150),  # Allied at start, German-held by 24-26 Dec
        ("Axis", True): (205, 190, 190),
        ("Axis", False): (205, 190, 190),
    }
    by_id = {hx["id"]: hx for hx in data["hexes"]}
    centre = {hx["id"]: P(*hex_xy(hx["q"], hx["r"])) for hx in data["hexes"]}
    for hx in data["hexes"]:
        cx, cy = centre[hx["id"]]
        if hx["partial"]:
            col = (200, 200, 200)
        else:
            col = colours[(hx["control"], hx["historic_axis"])]
            if hx["country"] == "DE" and hx["control"] == "Axis":
                col = (190, 170, 170)
        cv.hexagon(cx, cy, rad - 0.6, col)
    # hex outlines
    for hx in data["hexes"]:
        pts = [P(x, y) for x, y in hex_corners(hx["q"], hx["r"])]
        for a, b in zip(pts, pts[1:] + pts[:1]):
            cv.line(a[0], a[1], b[0], b[1], (160, 160, 150), 1)
    # board rectangle
    x0, y0 = P(xmin, ymin)
    x1, y1 = P(xmax, ymax)
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        cv.line(a[0], a[1], b[0], b[1], (60, 60, 60), 1)
    # thin river course (the gazetteer polylines), for reference
    for pts in debug["facts"]["rivers"].values():
        xy = [PL(la, lo) for la, lo in pts]
        for a, b in zip(xy, xy[1:]):
            cv.line(a[0], a[1], b[0], b[1], (120, 170, 230), 1)
    # lines: German border (purple dash-dot), 16 Dec front (black), bulge (red dashes)
    for name, col, width, dash in (
        ("border", (130, 60, 160), 1.5, (6, 4)),
        ("bulge_height", (200, 30, 30), 2, (8, 5)),
        ("bastogne_pocket", (200, 30, 30), 1.5, (4, 3)),
        ("front_1944_12_16", (0, 0, 0), 2.5, None),
    ):
        xy = [PL(la, lo) for la, lo in data["lines"][name]]
        for a, b in zip(xy, xy[1:]):
            cv.line(a[0], a[1], b[0], b[1], col, width, dash)
    # river hexsides
    for e in data["rivers"]:
        a, b = (by_id[i] for i in e["hexes"])
        ca, cb = hex_xy(a["q"], a["r"]), hex_xy(b["q"], b["r"])
        mx, my = (ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2
        dx, dy = cb[0] - ca[0], cb[1] - ca[1]
        ln = math.hypot(dx, dy)
        px_, py_ = -dy / ln * SIZE_KM / 2, dx / ln * SIZE_KM / 2
        p1, p2 = P(mx + px_, my + py_), P(mx - px_, my - py_)
        if e["barrier"]:
            cv.line(p1[0], p1[1], p2[0], p2[1], (20, 70, 200), 4)
        else:
            cv.line(p1[0], p1[1], p2[0], p2[1], (120, 170, 240), 2)
    # roads
    for a, b in data["roads"]:
        (xa, ya), (xb, yb) = centre[a], centre[b]
        cv.line(xa, ya, xb, yb, (150, 60, 20), 2.5)
    # bridges: a small dark bar across the hexside on the road
    for e in data["rivers"]:
        if e["bridge"]:
            (xa, ya), (xb, yb) = (centre[i] for i in e["hexes"])
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            cv.rect(mx - 2, my - 2, mx + 2, my + 2, (20, 20, 20))
    # road exits and army sections
    for hx in data["hexes"]:
        cx, cy = centre[hx["id"]]
        if hx["road_exit"]:
            cv.rect(cx - 3, cy - 14, cx + 3, cy - 8, (150, 60, 20))
        if hx["army"]:
            cv.text(int(cx + 6), int(cy - 3), hx["army"], (90, 0, 0), 1, halo=(255, 255, 255))
    # towns
    for hx in data["hexes"]:
        if not hx["town"]:
            continue
        cx, cy = centre[hx["id"]]
        tx, ty = P(*to_xy(*debug["coords"][hx["town"]]))
        size = {"city": 5, "town": 4}.get(hx["size"], 2)
        colour = (0, 0, 0) if hx["control"] == "Allies" else (140, 0, 0)
        cv.rect(cx - size, cy - size, cx + size, cy + size, colour)
        cv.line(cx, cy, tx, ty, (90, 90, 90), 1)
        label = hx["town"] + (f" {hx['vp']}" if hx["vp"] else "")
        cv.text(
            int(cx - text_width(label) / 2),
            int(cy + size + 2),
            label,
            colour,
            1,
            halo=(255, 255, 255),
        )
    # column / row numbers
    for hx in data["hexes"]:
        cx, cy = centre[hx["id"]]
        if hx["row"] == 1:
            s = str(hx["col"])
            cv.text(int(cx - text_width(s) / 2), 4, s, (80, 80, 80))
        if hx["col"] == 1:
            s = str(hx["row"])
            cv.text(2, int(cy - 3), s, (80, 80, 80))
    # legend
    ly = h - legend_h + 8
    items = [
        ((214, 226, 190), "ALLIED AT START"),
        ((240, 206, 150), "ALLIED AT START, GERMAN-HELD 24-26 DEC (HISTORIC_AXIS)"),
        ((205, 190, 190), "AXIS AT START (EAST OF THE 16 DEC FRONT)"),
        ((190, 170, 170), "GERMANY"),
        ((200, 200, 200), "PARTIAL HEX"),
    ]
    for k, (col, label) in enumerate(items):
        cv.rect(10, ly + 14 * k, 22, ly + 14 * k + 9, col)
        cv.text(28, ly + 14 * k + 1, label, (0, 0, 0))
    lx = w // 2 + 20
    cv.line(lx, ly + 5, lx + 20, ly + 5, (20, 70, 200), 4)
    cv.text(lx + 28, ly + 1, "RIVER BARRIER HEXSIDE", (0, 0, 0))
    cv.line(lx, ly + 19, lx + 20, ly + 19, (150, 60, 20), 2.5)
    cv.rect(lx + 8, ly + 17, lx + 12, ly + 21, (20, 20, 20))
    cv.text(lx + 28, ly + 15, "ROAD / BRIDGE", (0, 0, 0))
    cv.line(lx, ly + 33, lx + 20, ly + 33, (0, 0, 0), 2.5)
    cv.text(lx + 28, ly + 29, "FRONT 16 DEC 1944", (0, 0, 0))
    cv.line(lx, ly + 47, lx + 20, ly + 47, (200, 30, 30), 2, (8, 5))
    cv.text(lx + 28, ly + 43, "BULGE 24-26 DEC / BASTOGNE POCKET", (0, 0, 0))
    cv.line(lx, ly + 61, lx + 20, ly + 61, (130, 60, 160), 1.5, (6, 4))
    cv.text(lx + 28, ly + 57, "GERMAN BORDER", (0, 0, 0))
    cv.text(
        10,
        h - 22,
        f"ARDENNES DEC 1944 - APPROXIMATE (NOT THE PRINTED BOARD). "
        f"HEX = {HEX_KM} KM. TOWN NAME + VP.",
        (0, 0, 0),
    )
    return cv


if __name__ == "__main__":
    raise SystemExit(main())
