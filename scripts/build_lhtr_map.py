#!/usr/bin/env python3
"""Build the Axis & Allies Revised (LHTR 2.0) world map and its spring-1942 start.

Writes ``rulesets/aarhe/lhtr/map.json`` and ``rulesets/aarhe/lhtr/scenario.json``.

Facts and where they come from
    TripleA's game file for LHTR (``lhtr.xml``, read with ``xml.etree`` only, never copied):
    the spaces, every connection, production (IPC), original owners, capitals, which
    territories hold a victory city, impassable neutrals, the two canals and what opens
    them, the starting units and the starting IPCs.  The names of the victory cities are not
    in the XML (it only flags the territory); they come from the rules notes
    (``shared/reference/aarhe/RULES.md`` §A.4, source S18) and are in VICTORY_CITIES below.
    Positions and shapes are this project's own, from real geography
    (``scripts/lhtr_geography.py``); connections never come from the shapes.

Space ids
    Land territories keep the XML's names (including its spellings, e.g. "Philipine
    Islands").  "N Sea Zone" becomes "SZ N" (name "Sea Zone N").  Spaces are listed land
    first, alphabetically, then sea zones by number; links and pieces use the same order.

Shapes (developer-only step; installing, playing and testing never need it)
    Land: Natural Earth 1:110m countries (public domain), read from the copy that
    geopandas < 1.0 ships inside its wheel (``geopandas/datasets/naturalearth_lowres``),
    with pyshp; every country is given to a territory whole or cut between several by
    Voronoi cells of our seed points (shapely.ops.voronoi_diagram).  Small islands missing
    at 1:110m (Midway, Wake, the Carolines, Okinawa) are drawn as small octagons at their
    real places, and Gibraltar is a small disk carved out of Spain.
    Sea: Voronoi cells of the sea-zone seeds clipped to the sea (the map box less land, less
    the Arctic and Hudson Bay, which are no sea zone).  The cells are built on a strip padded
    by 60° either side of the map, so zones that cross the cut are whole before they are
    clipped; a zone's pieces that hold none of its seeds (Voronoi leaks round a headland)
    are handed to the zone they share the longest border with.  Where a region came out
    wrong, the fix was more seed points in the geography tables, never hand-drawn outlines:
    e.g. extra seeds carry SZ 10 into the Gulf of Mexico, SZ 34 into the Persian Gulf and
    SZ 16 into the Aegean, keep Karelia/Archangel/Russia/West Russia apart, and pull the
    Sahara's border with Algeria and Libya south to ~29°N.
    Projection: equirectangular, x = longitude, y = latitude, rounded to 2 decimals.  The map
    is cut in the Bering Strait at 169°W (like the board, whose Pacific is split at its
    edges): x runs from -169 to 191, a longitude west of the cut is written lon + 360, and a
    Pacific zone that crosses the cut is drawn at both edges.  Ring 0 of a polygon is its
    outline, further rings are holes (islands inside a sea zone, for instance).

Usage (from the repository root)
    python scripts/build_lhtr_map.py [XML]          # full build: needs shapely, pyshp and
                                                    # the Natural Earth copy (see SOURCES.md)
    python scripts/build_lhtr_map.py --reuse-shapes # standard library only: facts from the
                                                    # XML, shapes from the committed map.json
    python scripts/build_lhtr_map.py --check        # exit 1 if the committed files are stale
    python scripts/build_lhtr_map.py --report       # shapes vs. XML adjacency report
    python scripts/build_lhtr_map.py --png          # also render docs/lhtr-map.png
                                                    # (needs matplotlib)

XML defaults to ``../shared/reference/triplea/lhtr.xml`` relative to the repository root.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_XML = ROOT.parent / "shared" / "reference" / "triplea" / "lhtr.xml"
OUT_DIR = ROOT / "rulesets" / "aarhe" / "lhtr"
MAP_OUT = OUT_DIR / "map.json"
SCENARIO_OUT = OUT_DIR / "scenario.json"
PNG_OUT = ROOT / "docs" / "lhtr-map.png"

#: The versions the committed shapes were built with (GEOS differences move vertices).
SHAPE_TOOLS = {"shapely": "2.2.0", "pyshp": "3.1.6", "geopandas (data only)": "0.14.4"}

#: TripleA player -> our power.
POWERS = {
    "Russians": "USSR",
    "Germans": "Germany",
    "British": "UK",
    "Japanese": "Japan",
    "Americans": "US",
}
#: TripleA alliance -> our side.
SIDES = {"Allies": "Allies", "Axis": "Axis"}

EXPECTED_SIDES = {"USSR": "Allies", "UK": "Allies", "US": "Allies", "Germany": "Axis",
                  "Japan": "Axis"}

#: TripleA unit type -> our unit kind.  An unknown type stops the build.
UNIT_KINDS = {
    "infantry": "Infantry",
    "artillery": "Artillery",
    "armour": "Tank",
    "fighter": "Fighter",
    "bomber": "Bomber",
    "battleship": "Battleship",
    "carrier": "AircraftCarrier",
    "transport": "Transport",
    "submarine": "Submarine",
    "destroyer": "Destroyer",
    "aaGun": "AAGun",
    "factory": "IndustrialComplex",
}
SEA_KINDS = {"Battleship", "AircraftCarrier", "Transport", "Submarine", "Destroyer"}

#: Victory-city names (RULES.md §A.4, from S18); the XML says only which territories.
#: Western US: RULES.md gives "Los Angeles/San Francisco"; the Revised rulebook's list has
#: San Francisco.
VICTORY_CITIES = {
    "Eastern United States": "Washington",
    "Germany": "Berlin",
    "India": "Calcutta",
    "Japan": "Tokyo",
    "Karelia S.S.R.": "Leningrad",
    "Kwantung": "Shanghai",
    "Philipine Islands": "Manila",
    "Russia": "Moscow",
    "Southern Europe": "Rome",
    "United Kingdom": "London",
    "Western Europe": "Paris",
    "Western United States": "San Francisco",
}

#: territoryAttachment options with a meaning of their own below; any other option is copied
#: into attrs under its snake_case name.
_HANDLED_OPTIONS = {"production", "capital", "victoryCity", "isImpassable"}

MAP_NAME = "Axis & Allies Revised world map (LHTR 2.0)"
SOURCE = (
    "Connections, production, owners, capitals, victory-city territories, impassable "
    "neutrals, canals and the starting position: TripleA's lhtr.xml "
    "(triplea-maps/world_war_ii_revised, map/games/lhtr.xml @ "
    "8f170528c71903b9bb25682e3fe4751c44aaa29c), facts about the published board game. "
    "Positions and shapes: this project's own, from real geography (Natural Earth 1:110m, "
    "public domain). See SOURCES.md."
)

_SZ = re.compile(r"(\d+) Sea Zone")


class BuildError(Exception):
    pass


# ---------------------------------------------------------------------------------------
# XML facts (standard library only)
# ---------------------------------------------------------------------------------------


def space_id(xml_name: str) -> str:
    m = _SZ.fullmatch(xml_name)
    return f"SZ {m.group(1)}" if m else xml_name


def order_key(sid: str) -> tuple:
    """Land alphabetically, then sea zones by number."""
    if sid.startswith("SZ "):
        return (1, int(sid[3:]), "")
    return (0, 0, sid)


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def read_xml(path: Path) -> dict:
    """Every fact the map and the scenario need, from TripleA's game XML."""
    root = ET.parse(path).getroot()

    spaces: dict[str, dict] = {}
    for t in root.iter("territory"):
        name = t.get("name")
        sid = space_id(name)
        water = t.get("water") == "true"
        if water != sid.startswith("SZ "):
            raise BuildError(f"territory {name!r}: water={water} but its name says otherwise")
        if sid in spaces:
            raise BuildError(f"territory {name!r} twice")
        spaces[sid] = {"xml": name, "sea": water}

    links: set[tuple[str, str]] = set()
    for c in root.iter("connection"):
        a, b = space_id(c.get("t1")), space_id(c.get("t2"))
        for s in (a, b):
            if s not in spaces:
                raise BuildError(f"connection to unknown territory {s!r}")
        if a == b:
            raise BuildError(f"connection of {a!r} to itself")
        links.add(tuple(sorted((a, b), key=order_key)))

    players = [p.get("name") for p in root.iter("player")]
    for p in players:
        if p not in POWERS:
            raise BuildError(f"unknown TripleA player {p!r}")
    alliances = {POWERS[a.get("player")]: SIDES[a.get("alliance")] for a in root.iter("alliance")}

    unit_types = [u.get("name") for u in root.find("unitList").iter("unit")]
    for u in unit_types:
        if u not in UNIT_KINDS:
            raise BuildError(f"unknown TripleA unit type {u!r}: add it to UNIT_KINDS")

    attachments: dict[str, dict[str, str]] = {}
    canals: dict[str, tuple[str, tuple[str, ...]]] = {}
    for att in root.iter("attachment"):
        options = {o.get("name"): o.get("value") for o in att.iter("option")}
        name = att.get("name")
        if name == "territoryAttachment":
            sid = space_id(att.get("attachTo"))
            if sid not in spaces:
                raise BuildError(f"territoryAttachment on unknown territory {sid!r}")
            attachments[sid] = options
        elif name == "canalAttachment":
            sid = space_id(att.get("attachTo"))
            lands = tuple(space_id(x) for x in options["landTerritories"].split(":"))
            canals[sid] = (options["canalName"], lands)

    owners: dict[str, str] = {}
    for o in root.iter("territoryOwner"):
        sid = space_id(o.get("territory"))
        if sid not in spaces or spaces[sid]["sea"]:
            raise BuildError(f"owner for {sid!r}, which is no land territory")
        owners[sid] = POWERS[o.get("owner")]

    units: dict[tuple[str, str, str], int] = {}
    for up in root.iter("unitPlacement"):
        kind = UNIT_KINDS.get(up.get("unitType"))
        if kind is None:
            raise BuildError(f"unknown TripleA unit type {up.get('unitType')!r}")
        sid = space_id(up.get("territory"))
        if sid not in spaces:
            raise BuildError(f"units placed in unknown territory {sid!r}")
        key = (sid, POWERS[up.get("owner")], kind)
        units[key] = units.get(key, 0) + int(up.get("quantity"))

    resources = {}
    for rg in root.iter("resourceGiven"):
        if rg.get("resource") != "PUs":
            raise BuildError(f"unknown resource {rg.get('resource')!r}")
        resources[POWERS[rg.get("player")]] = int(rg.get("quantity"))

    return {
        "spaces": spaces,
        "links": links,
        "players": [POWERS[p] for p in players],
        "alliances": alliances,
        "attachments": attachments,
        "canals": canals,
        "owners": owners,
        "units": units,
        "resources": resources,
    }


def _islands(facts: dict) -> set[str]:
    """Land territories whose land-connected group (by the XML's land-land links) has
    fewer than three territories: reachable only by sea or air.  This makes the British
    Isles (United Kingdom + Eire) islands, as well as every one-territory island."""
    land = {s for s, v in facts["spaces"].items() if not v["sea"]}
    nbrs: dict[str, set[str]] = {s: set() for s in land}
    for a, b in facts["links"]:
        if a in land and b in land:
            nbrs[a].add(b)
            nbrs[b].add(a)
    out: set[str] = set()
    seen: set[str] = set()
    for s in sorted(land):
        if s in seen:
            continue
        group, todo = set(), [s]
        while todo:
            x = todo.pop()
            if x in group:
                continue
            group.add(x)
            todo.extend(nbrs[x] - group)
        seen |= group
        if len(group) < 3:
            out |= group
    return out


def build(xml_path: Path, shapes: dict[str, dict]) -> tuple[dict, dict]:
    """(map document, scenario document).  ``shapes``: space id -> {"shape", "label_at"}."""
    facts = read_xml(xml_path)
    spaces, att, owners, units = (
        facts["spaces"], facts["attachments"], facts["owners"], facts["units"])
    if facts["alliances"] != EXPECTED_SIDES:
        raise BuildError(f"alliances in the XML: {facts['alliances']}")
    factories = {s for (s, _o, k) in units if k == "IndustrialComplex"}
    islands = _islands(facts)

    vc_flags = {s for s, a in att.items() if a.get("victoryCity") not in (None, "0", "false")}
    if vc_flags != set(VICTORY_CITIES):
        raise BuildError(f"victory cities in the XML differ from VICTORY_CITIES: {vc_flags}")

    out_spaces = []
    for sid in sorted(spaces, key=order_key):
        v = spaces[sid]
        if sid not in shapes:
            raise BuildError(f"no shape for {sid!r}")
        sh = shapes[sid]
        a = att.get(sid, {})
        if v["sea"]:
            if a:
                raise BuildError(f"territoryAttachment on sea zone {sid!r}: {a}")
            attrs: dict = {"number": int(sid[3:])}
            entry = {"id": sid, "name": f"Sea Zone {sid[3:]}", "kind": "sea"}
        else:
            if "production" not in a:
                raise BuildError(f"no production for {sid!r}")
            attrs = {"ipc": int(a["production"]), "original_owner": owners.get(sid, "")}
            if "capital" in a:
                cap = POWERS[a["capital"]]
                if owners.get(sid) != cap:
                    raise BuildError(f"capital {sid!r} of {cap} is not owned by it at start")
                attrs["capital"] = True
            if sid in vc_flags:
                attrs["victory_city"] = VICTORY_CITIES[sid]
            if a.get("isImpassable") == "true":
                attrs["impassable"] = True
            if sid in islands:
                attrs["island"] = True
            if sid in factories:
                attrs["factory_start"] = True
            for k, val in sorted(a.items()):
                if k not in _HANDLED_OPTIONS:
                    attrs[snake(k)] = val
            entry = {"id": sid, "name": sid, "kind": "land"}
        entry["attrs"] = attrs
        entry["label_at"] = sh["label_at"]
        entry["shape"] = sh["shape"]
        out_spaces.append(entry)

    # Canals: a link between two sea zones that carry the same canal attachment.
    canal_links: dict[tuple[str, str], dict] = {}
    by_name: dict[str, list[str]] = {}
    for sid, (cname, _lands) in facts["canals"].items():
        by_name.setdefault(cname, []).append(sid)
    for cname, zones in sorted(by_name.items()):
        if len(zones) != 2:
            raise BuildError(f"canal {cname!r} on {zones}: expected two sea zones")
        lands = {facts["canals"][z][1] for z in zones}
        if len(lands) != 1:
            raise BuildError(f"canal {cname!r}: the two zones name different land territories")
        needs = sorted(lands.pop(), key=order_key)
        for t in needs:
            if t not in spaces or spaces[t]["sea"]:
                raise BuildError(f"canal {cname!r} needs {t!r}, which is no land territory")
        key = tuple(sorted(zones, key=order_key))
        short = cname[: -len(" Canal")] if cname.endswith(" Canal") else cname
        canal_links[key] = {"canal": short, "canal_needs": needs}
    links = set(facts["links"]) | set(canal_links)

    out_links = []
    for a, b in sorted(links, key=lambda ab: (order_key(ab[0]), order_key(ab[1]))):
        out_links.append({"a": a, "b": b, "attrs": canal_links.get((a, b), {})})

    xs = [p[0] for s in out_spaces for poly in s["shape"] for ring in poly for p in ring]
    ys = [p[1] for s in out_spaces for poly in s["shape"] for ring in poly for p in ring]
    bounds = [min(xs), min(ys), max(xs), max(ys)] if xs else [0.0, 0.0, 0.0, 0.0]

    map_doc = {
        "format": "wargame-map/1",
        "name": MAP_NAME,
        "fidelity": "exact",
        "source": SOURCE,
        "layout": {"kind": "world", "projection": "equirectangular", "bounds": bounds, "colours": LAYOUT_COLOURS},
        "spaces": out_spaces,
        "links": out_links,
    }

    # ---- scenario
    income = {p: 0 for p in facts["players"]}
    for sid, p in owners.items():
        income[p] += int(att[sid]["production"])
    resources = facts["resources"]
    for p in facts["players"]:
        if resources.get(p) != income[p]:
            raise BuildError(f"{p}: starting IPCs {resources.get(p)} != income {income[p]}")
    pieces = []
    for (sid, owner, kind), n in sorted(
        units.items(), key=lambda kv: (order_key(kv[0][0]), kv[0][1], kv[0][2])
    ):
        sea = spaces[sid]["sea"]
        if sea and kind not in SEA_KINDS and kind != "Fighter":
            raise BuildError(f"{n} {kind} of {owner} set up in sea zone {sid}")
        if not sea and kind in SEA_KINDS:
            raise BuildError(f"{n} {kind} of {owner} set up on land in {sid}")
        pieces.append({"kind": kind, "owner": owner, "space": sid, "count": n})
    scenario_doc = {
        "format": "wargame-scenario/1",
        "name": "revised-1942",
        "title": "Axis & Allies Revised, spring 1942 (LHTR 2.0)",
        "description": (
            "The standard Axis & Allies Revised setup of spring 1942 under Larry Harris "
            "Tournament Rules 2.0: five powers (USSR, Germany, UK, Japan, US in turn order; "
            "Allies USSR, UK and US against the Axis, Germany and Japan), 12 victory cities. "
            "Owners, units and starting IPCs from TripleA's lhtr.xml."
        ),
        "fidelity": "exact",
        "map": "map.json",
        "start": {"turn": 1},
        "control": {sid: owners[sid] for sid in sorted(owners, key=order_key)},
        "resources": {p: {"ipc": resources[p]} for p in facts["players"]},
        "pieces": pieces,
        # where a power's purchases wait for mobilize (the rules' `pending:POWER`), named as
        # players read them
        "areas": [{"id": f"pending:{p}", "name": f"{p} mobilization pool"} for p in facts["players"]],
    }
    return map_doc, scenario_doc


# ---------------------------------------------------------------------------------------
# Deterministic JSON
# ---------------------------------------------------------------------------------------


def _line(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _dumps_lists(doc: dict, one_per_line: tuple[str, ...]) -> str:
    """Pretty top level, one list element per line for the big lists."""
    parts = []
    for key in sorted(doc):
        val = doc[key]
        if key in one_per_line and isinstance(val, list) and val:
            body = ",\n".join("  " + _line(x) for x in val)
            parts.append(f" {json.dumps(key)}: [\n{body}\n ]")
        else:
            parts.append(f" {json.dumps(key)}: {_line(val)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def dumps_map(doc: dict) -> str:
    return _dumps_lists(doc, ("spaces", "links"))


def dumps_scenario(doc: dict) -> str:
    return _dumps_lists(doc, ("pieces",))


def load_shapes(map_path: Path = MAP_OUT) -> dict[str, dict]:
    """Shapes and label points from an existing map.json (the --reuse-shapes mode)."""
    doc = json.loads(map_path.read_text(encoding="utf-8"))
    return {s["id"]: {"shape": s["shape"], "label_at": s["label_at"]} for s in doc["spaces"]}


# ---------------------------------------------------------------------------------------
# Shapes (developer-only: shapely, pyshp and geopandas' Natural Earth copy)
# ---------------------------------------------------------------------------------------


#: Precision grid (degrees) for the overlay operations; coordinates end up at 0.01.
GRID = 1e-4


def _rnd(v: float) -> float:
    r = round(v, 2)
    return 0.0 if r == 0 else r


def natural_earth_path() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("geopandas")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError(
            "geopandas (< 1.0, for its bundled Natural Earth data) is not installed; "
            "see rulesets/aarhe/lhtr/SOURCES.md, or pass --natural-earth"
        )
    base = Path(list(spec.submodule_search_locations)[0])
    p = base / "datasets" / "naturalearth_lowres" / "naturalearth_lowres.shp"
    if not p.exists():
        raise BuildError(f"{p} not found: geopandas >= 1.0 no longer ships it; use 0.14.4")
    return p


def compute_shapes(natural_earth: Path | None = None, report: list | None = None) -> dict:
    """space id -> {"shape": [...], "label_at": [x, y]}, from lhtr_geography + Natural Earth.

    ``report``, if a list, receives the shapely geometry of every space (by id) for the
    adjacency report."""
    import shapefile  # pyshp
    import shapely
    from shapely import affinity
    from shapely.geometry import MultiPoint, Point, Polygon, box, shape
    from shapely.geometry.polygon import orient
    from shapely.ops import unary_union

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import lhtr_geography as geo

    cut = geo.CUT_LON
    lat0, lat1 = geo.LAT_RANGE
    east = cut + 360.0
    board = box(cut, lat0, east, lat1)

    def shift_lon(lon: float) -> float:
        return lon + 360.0 if lon < cut else lon

    def pt(lonlat) -> tuple[float, float]:
        return (shift_lon(lonlat[0]), lonlat[1])

    def polys(g) -> list:
        if g.is_empty:
            return []
        if g.geom_type == "Polygon":
            return [g]
        if g.geom_type in ("MultiPolygon", "GeometryCollection"):
            return [p for x in g.geoms for p in polys(x)]
        return []

    # ---- countries, moved onto the board's x range
    path = natural_earth or natural_earth_path()
    reader = shapefile.Reader(str(path.with_suffix("")))
    countries: dict[str, list] = {}
    for sr in reader.iterShapeRecords():
        name = sr.record["name"]
        g = shape(sr.shape.__geo_interface__)
        parts = []
        for p in polys(g):
            minx, _, maxx, _ = p.bounds
            if maxx <= cut:
                parts.append(affinity.translate(p, 360.0))
            elif minx < cut:
                parts += polys(p.intersection(box(cut, -90, 180, 90)))
                parts += polys(affinity.translate(p.intersection(box(-180, -90, cut, 90)), 360))
            else:
                parts.append(p)
        countries[name] = [q for q in parts if not q.is_empty]

    # ---- who takes which country
    whole: dict[str, str] = {}
    split: dict[str, list[str]] = {}
    for t, d in geo.LAND.items():
        for c in d.get("countries", ()):
            if c in whole:
                raise BuildError(f"country {c!r} given to both {whole[c]!r} and {t!r}")
            whole[c] = t
        for c in d.get("split", ()):
            split.setdefault(c, []).append(t)
    by_parts = {c for c, _p, _t, _n in geo.PARTS}
    for c in countries:
        n = (c in whole) + (c in split) + (c in geo.UNASSIGNED)
        if n > 1 or (n == 0 and c not in by_parts):
            raise BuildError(f"Natural Earth country {c!r}: assigned {n} times (need 1)")
    for c, ts in split.items():
        if len(ts) < 2:
            raise BuildError(f"country {c!r} is split but only {ts} take part")
    for c in list(whole) + list(split):
        if c not in countries:
            raise BuildError(f"no Natural Earth country named {c!r}")

    pieces: dict[str, list] = {t: [] for t in geo.LAND}

    for c, p0, t, _note in geo.PARTS:
        x, y = pt(p0)
        here = Point(x, y)
        best = min(countries[c], key=lambda q: q.distance(here))
        if best.distance(here) > 1.0:
            raise BuildError(f"PARTS: no part of {c!r} near {p0}")
        countries[c].remove(best)
        if t is not None:
            pieces[t].append(best)

    for c in by_parts - set(whole) - set(split):
        if countries[c]:
            raise BuildError(f"{c!r}: parts left over that no territory takes")
    for c, t in whole.items():
        pieces[t].extend(countries[c])

    def seeds_of_land(t: str) -> list[tuple[float, float]]:
        d = geo.LAND[t]
        return [pt(d["at"])] + [pt(s) for s in d.get("seeds", ())]

    def cells(seed_owner: list[tuple[tuple[float, float], object]], envelope) -> list:
        """[(cell polygon, owner)] for the Voronoi diagram of the seed points
        (shapely.voronoi_polygons, the function behind shapely.ops.voronoi_diagram, with
        ordered=True so that cell i belongs to seed i)."""
        pts = [s for s, _ in seed_owner]
        if len(set(pts)) != len(pts):
            raise BuildError("two seed points at the same place")
        diagram = shapely.voronoi_polygons(MultiPoint(pts), extend_to=envelope, ordered=True)
        out = []
        for cell, (s, o) in zip(diagram.geoms, seed_owner, strict=True):
            if not cell.contains(Point(s)):
                raise BuildError("a Voronoi cell does not hold its seed")
            out.append((cell.intersection(envelope), o))
        return out

    for c, ts in sorted(split.items()):
        geom = unary_union(countries[c])
        seeds = [(s, t) for t in sorted(ts) for s in seeds_of_land(t)]
        env = box(*geom.buffer(5).bounds).union(MultiPoint([s for s, _ in seeds]).envelope)
        for cell, t in cells(seeds, box(*env.buffer(5).bounds)):
            piece = cell.intersection(geom)
            if not piece.is_empty:
                pieces[t].append(piece)

    for t, isl in geo.ISLANDS.items():
        for lon, lat, r, _note in isl:
            x, y = pt((lon, lat))
            pieces[t].append(Point(x, y).buffer(r, quad_segs=2))

    land = {t: shapely.union_all(ps, grid_size=GRID) for t, ps in pieces.items()}
    for t, disks in geo.CARVED.items():
        everything = unary_union(list(land.values()))
        for lon, lat, r, _note in disks:
            x, y = pt((lon, lat))
            disk = Point(x, y).buffer(r, quad_segs=2).intersection(everything)
            for o in land:
                if o != t:
                    land[o] = land[o].difference(disk, grid_size=GRID)
            land[t] = shapely.union_all([land[t], disk], grid_size=GRID)
    for t in land:
        # slivers left where pieces meet along a border: drop holes smaller than 0.05 deg²
        land[t] = shapely.union_all(
            [Polygon(p.exterior, [r for r in p.interiors if Polygon(r).area > 0.05])
             for p in polys(land[t].intersection(board, grid_size=GRID))], grid_size=GRID)
        if land[t].is_empty:
            raise BuildError(f"territory {t!r} has no shape")

    # ---- sea zones, on a strip padded either side so that zones crossing the cut are whole
    pad = 60.0
    strip = box(cut - pad, lat0, east + pad, lat1)
    all_land = unary_union(list(land.values()))
    land_strip = unary_union(
        [affinity.translate(all_land, dx) for dx in (-360.0, 0.0, 360.0)]
    ).intersection(strip)
    masks = []
    for w, s, e, n, _note in geo.NO_SEA_ZONE:
        for dx in (-360.0, 0.0, 360.0):
            masks.append(box(w + dx, s, e + dx, n))
    sea = strip.difference(land_strip).difference(unary_union(masks))

    seed_list: list[tuple[tuple[float, float], int]] = []
    for n, d in sorted(geo.SEA.items()):
        for s in [d["at"], *d.get("seeds", ())]:
            x, y = pt(s)
            for dx in (-360.0, 0.0, 360.0):
                if cut - pad - 20 <= x + dx <= east + pad + 20:
                    seed_list.append(((x + dx, y), n))
    zone_cells: dict[int, list] = {n: [] for n in geo.SEA}
    for cell, n in cells(seed_list, box(cut - pad - 40, lat0 - 40, east + pad + 40, lat1 + 40)):
        zone_cells[n].append(cell)
    zones = {n: unary_union(cs).intersection(sea) for n, cs in zone_cells.items()}

    # pieces of a zone that hold none of its seeds go to the neighbour with the longest border
    seeds_by_zone: dict[int, list] = {}
    for s, n in seed_list:
        seeds_by_zone.setdefault(n, []).append(Point(s))
    for _round in range(5):
        orphans = []
        for n in sorted(zones):
            keep = []
            for p in polys(zones[n]):
                if any(p.intersects(s) for s in seeds_by_zone[n]):
                    keep.append(p)
                else:
                    orphans.append((n, p))
            zones[n] = unary_union(keep) if keep else Polygon()
        if not orphans:
            break
        for n, p in orphans:
            best, best_len = None, 0.0
            for m in sorted(zones):
                if m == n or zones[m].is_empty:
                    continue
                shared = p.boundary.intersection(zones[m].boundary).length
                if shared > best_len:
                    best, best_len = m, shared
            if best is not None:
                zones[best] = unary_union([zones[best], p])
                seeds_by_zone[best].append(p.representative_point())
    sea_geom = {f"SZ {n}": zones[n].intersection(board) for n in zones}
    land_geom = {t: g for t, g in land.items()}

    # ---- to JSON: oriented, rounded, de-duplicated rings; label points checked
    def rings_of(g) -> list:
        out = []
        for p in sorted(polys(g), key=lambda q: (-round(q.area, 6), q.bounds)):
            p = orient(p, 1.0)
            rings = []
            for ring in [p.exterior, *p.interiors]:
                pts = []
                for x, y in ring.coords:
                    q = [_rnd(x), _rnd(y)]
                    if not pts or pts[-1] != q:
                        pts.append(q)
                if len(pts) >= 4 and pts[0] == pts[-1]:
                    rings.append(pts)
                elif len(pts) >= 3:
                    rings.append(pts + [pts[0]])
                if not rings:
                    break
            if rings:
                out.append(rings)
        return out

    result: dict[str, dict] = {}
    labels = {t: pt(d["at"]) for t, d in geo.LAND.items()}
    labels.update({f"SZ {n}": pt(d["at"]) for n, d in geo.SEA.items()})
    bad = []
    for sid, g in sorted({**land_geom, **sea_geom}.items()):
        if g.is_empty:
            raise BuildError(f"{sid!r} has no shape")
        lx, ly = labels[sid]
        if not g.contains(Point(lx, ly)):
            rp = g.representative_point()
            bad.append(f"{sid!r}: label point {labels[sid]} is outside its shape "
                       f"(a point inside: {rp.x:.2f}, {rp.y:.2f})")
        result[sid] = {"shape": rings_of(g), "label_at": [_rnd(lx), _rnd(ly)]}
    if bad:
        raise BuildError("\n".join(bad))
    if report is not None:
        report.append({**land_geom, **sea_geom})
    return result


# ---------------------------------------------------------------------------------------
# Checks and preview (developer-only)
# ---------------------------------------------------------------------------------------


def adjacency_report(geoms: dict, map_doc: dict) -> list[str]:
    """Which XML links the shapes do not show (the shapes never decide adjacency)."""
    from shapely import affinity

    lines = []
    for link in map_doc["links"]:
        a, b = geoms[link["a"]], geoms[link["b"]]
        d = min(a.distance(affinity.translate(b, dx)) for dx in (-360.0, 0.0, 360.0))
        if d > 0.3:
            lines.append(f"  {link['a']} -- {link['b']}: shapes {d:.1f} deg apart")
    return lines


POWER_COLOURS = {
    "USSR": "#b5533c", "Germany": "#6b6b6b", "UK": "#c9a66b", "Japan": "#e0a030",
    "US": "#6b8e4e", "": "#e8e0c8",
}


#: the powers' colours for the window (wargame play): [territory, counters], the board's
#: colours as POWER_COLOURS, in turn order
LAYOUT_COLOURS = {
    "USSR": ["#b5533c", "#6a1c12"], "Germany": ["#6b6b6b", "#1e1e20"], "UK": ["#c9a66b", "#6e4a1c"],
    "Japan": ["#e0a030", "#a04a00"], "US": ["#6b8e4e", "#26421a"],
}


def render_png(map_doc: dict, out: Path, view: tuple | None = None, width: float = 24) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MPath

    x0, y0, x1, y1 = view or map_doc["layout"]["bounds"]
    fig = plt.figure(figsize=(width, width * (y1 - y0) / (x1 - x0)), dpi=80)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.axis("off")
    for s in sorted(map_doc["spaces"], key=lambda s: s["kind"] == "land"):
        if s["kind"] == "sea":
            face, edge, lw = "#a9c8e0", "#5d7f9c", 0.6
        else:
            a = s["attrs"]
            face = POWER_COLOURS[a.get("original_owner", "")]
            if a.get("impassable"):
                face = "#d8d2bc"
            edge, lw = "#222222", 0.5
        for poly in s["shape"]:
            verts, codes = [], []
            for ring in poly:
                verts += [tuple(p) for p in ring]
                codes += [MPath.MOVETO] + [MPath.LINETO] * (len(ring) - 2) + [MPath.CLOSEPOLY]
            ax.add_patch(PathPatch(MPath(verts, codes), facecolor=face, edgecolor=edge, lw=lw))
    for s in map_doc["spaces"]:
        x, y = s["label_at"]
        if s["kind"] == "sea":
            ax.text(x, y, s["id"][3:], ha="center", va="center", fontsize=8, color="#1d3d5c",
                    weight="bold")
        else:
            a = s["attrs"]
            label = s["id"] + (f"\n{a['ipc']}" if a.get("ipc") else "")
            if a.get("victory_city"):
                label = "★ " + label
            ax.text(x, y, label, ha="center", va="center", fontsize=6.5, color="black")
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=80)
    plt.close(fig)
    try:  # a palette PNG is a fraction of the size
        from PIL import Image
    except ImportError:
        return
    with Image.open(out) as im:
        small = im.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(out, optimize=True)


# ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("xml", nargs="?", type=Path, default=DEFAULT_XML)
    ap.add_argument("--reuse-shapes", action="store_true",
                    help="take shapes from the committed map.json (standard library only)")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if the committed files differ")
    ap.add_argument("--report", action="store_true", help="shapes vs. XML adjacency report")
    ap.add_argument("--png", action="store_true", help=f"also write {PNG_OUT.relative_to(ROOT)}")
    ap.add_argument("--natural-earth", type=Path, help="naturalearth_lowres.shp to use")
    args = ap.parse_args(argv)

    if not args.xml.exists():
        print(f"reference XML not found: {args.xml}", file=sys.stderr)
        return 2
    geoms: list = []
    try:
        if args.reuse_shapes:
            shapes = load_shapes()
        else:
            shapes = compute_shapes(args.natural_earth, report=geoms if args.report else None)
        map_doc, scenario_doc = build(args.xml, shapes)
    except ImportError as e:
        print(f"{e}: the shape build needs shapely, pyshp and geopandas 0.14 (see "
              f"{(OUT_DIR / 'SOURCES.md').relative_to(ROOT)}); or use --reuse-shapes",
              file=sys.stderr)
        return 2
    except BuildError as e:
        print(f"build_lhtr_map: {e}", file=sys.stderr)
        return 1
    texts = {MAP_OUT: dumps_map(map_doc), SCENARIO_OUT: dumps_scenario(scenario_doc)}
    if args.check:
        stale = [p for p, t in texts.items()
                 if not p.exists() or p.read_text(encoding="utf-8") != t]
        for p in stale:
            print(f"stale: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for p, t in texts.items():
        p.write_text(t, encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)} ({len(t.encode('utf-8')):,} bytes)")
    if args.report and geoms:
        lines = adjacency_report(geoms[0], map_doc)
        print(f"{len(lines)} XML links whose shapes do not touch:")
        print("\n".join(lines))
    if args.png:
        render_png(map_doc, PNG_OUT)
        print(f"wrote {PNG_OUT.relative_to(ROOT)} ({PNG_OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
