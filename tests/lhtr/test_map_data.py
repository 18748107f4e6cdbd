"""The committed Axis & Allies Revised (LHTR 2.0) map and spring-1942 scenario.

Every test but the last three reads only the committed JSON in rulesets/aarhe/lhtr/.
The numbers in the spot checks were counted by hand from TripleA's lhtr.xml.  The rebuild
tests run scripts/build_lhtr_map.py in-process; they need the reference XML (outside the
repository) and are skipped without it.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rulesets" / "aarhe" / "lhtr"
MAP_PATH = DATA / "map.json"
SCENARIO_PATH = DATA / "scenario.json"
SCRIPT = ROOT / "scripts" / "build_lhtr_map.py"
XML = ROOT.parent / "shared" / "reference" / "triplea" / "lhtr.xml"

POWERS = {"USSR", "Germany", "UK", "Japan", "US"}
SIDE = {"USSR": "Allies", "UK": "Allies", "US": "Allies", "Germany": "Axis", "Japan": "Axis"}
KINDS = {
    "Infantry", "Artillery", "Tank", "Fighter", "Bomber", "Battleship", "AircraftCarrier",
    "Transport", "Submarine", "Destroyer", "AAGun", "IndustrialComplex",
}
SEA_KINDS = {"Battleship", "AircraftCarrier", "Transport", "Submarine", "Destroyer"}


@pytest.fixture(scope="module")
def board():
    return json.loads(MAP_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def scenario():
    return json.loads(SCENARIO_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def spaces(board):
    return {s["id"]: s for s in board["spaces"]}


@pytest.fixture(scope="module")
def adjacency(board):
    adj: dict[str, set[str]] = defaultdict(set)
    for link in board["links"]:
        adj[link["a"]].add(link["b"])
        adj[link["b"]].add(link["a"])
    return adj


def land(spaces):
    return {k: v for k, v in spaces.items() if v["kind"] == "land"}


def sea(spaces):
    return {k: v for k, v in spaces.items() if v["kind"] == "sea"}


# --- format and spaces --------------------------------------------------------------------


def test_headers(board, scenario):
    assert board["format"] == "wargame-map/1"
    assert board["fidelity"] == "exact"
    assert board["layout"]["kind"] == "world"
    assert board["layout"]["projection"] == "equirectangular"
    x0, y0, x1, y1 = board["layout"]["bounds"]
    assert x0 < x1 and y0 < y1 and x1 - x0 <= 360.0
    assert scenario["format"] == "wargame-scenario/1"
    assert scenario["name"] == "revised-1942"
    assert scenario["fidelity"] == "exact"
    assert scenario["map"] == "map.json"
    assert scenario["start"] == {"turn": 1}
    # each power's units bought and not yet placed wait in an area the players read by its name
    assert scenario["areas"] == [{"id": f"pending:{p}", "name": f"{p} mobilization pool"}
                                 for p in ("USSR", "Germany", "UK", "Japan", "US")]


def test_space_counts_and_ids(board, spaces):
    assert len(spaces) == len(board["spaces"]) == 143
    assert len(land(spaces)) == 79
    assert set(sea(spaces)) == {f"SZ {n}" for n in range(1, 65)}
    for sid, s in sea(spaces).items():
        assert s["name"] == f"Sea Zone {sid[3:]}"
        assert s["attrs"]["number"] == int(sid[3:])
        assert "ipc" not in s["attrs"] and "original_owner" not in s["attrs"]
    for sid, s in land(spaces).items():
        assert s["name"] == sid and not sid.startswith("SZ ")
        assert isinstance(s["attrs"]["ipc"], int) and s["attrs"]["ipc"] >= 0
        assert s["attrs"]["original_owner"] in POWERS | {""}
    assert {s["kind"] for s in board["spaces"]} == {"land", "sea"}


# --- connections --------------------------------------------------------------------------


def test_links_name_known_spaces_once(board, spaces):
    seen = set()
    for link in board["links"]:
        a, b = link["a"], link["b"]
        assert a in spaces and b in spaces, link
        assert a != b
        key = frozenset((a, b))
        assert key not in seen, f"link {a} -- {b} twice (perhaps in both directions)"
        seen.add(key)
        assert isinstance(link["attrs"], dict)
    assert len(board["links"]) == 348


def test_adjacency_symmetric(adjacency):
    for a, nbrs in adjacency.items():
        for b in nbrs:
            assert a in adjacency[b]


def test_every_space_is_connected(spaces, adjacency):
    for sid in spaces:
        assert adjacency[sid], f"{sid} has no connection"
    for sid in land(spaces):
        assert adjacency[sid], f"land territory {sid} links to nothing"
    # the whole board is one graph
    start = "Germany"
    seen, todo = set(), [start]
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo.extend(adjacency[x] - seen)
    assert seen == set(spaces)


def test_known_connections(adjacency):
    assert {"SZ 12", "SZ 13"} <= adjacency["Spain"]
    assert adjacency["Gibraltar"] == {"Spain", "SZ 13"}
    assert "Western Europe" in adjacency["SZ 5"]      # dropped by AARHE, present in LHTR
    assert "Western Canada" not in adjacency["SZ 63"]  # removed in TripleA's Aug 2025 file
    assert adjacency["SZ 4"] == {"Archangel", "Karelia S.S.R.", "SZ 3"}
    assert adjacency["Japan"] == {"SZ 60", "SZ 61"}
    assert "Turkey" in adjacency["Caucasus"] and "Balkans" not in adjacency["Turkey"]


def test_islands(spaces, adjacency):
    islands = {k for k, v in land(spaces).items() if v["attrs"].get("island")}
    assert {"United Kingdom", "Eire", "Japan", "Australia", "Hawaiian Islands", "Midway",
            "Wake Island", "Philipine Islands", "French Madagascar"} <= islands
    assert len(islands) == 18
    for t in islands:
        assert adjacency[t] & set(sea(spaces)), f"island {t} touches no sea zone"
        assert adjacency[t] & set(land(spaces)) <= islands
    assert "Germany" not in islands and "Spain" not in islands


# --- attributes ---------------------------------------------------------------------------


def test_victory_cities(spaces, scenario):
    vcs = {k: v["attrs"]["victory_city"] for k, v in spaces.items()
           if "victory_city" in v["attrs"]}
    assert vcs == {
        "United Kingdom": "London", "Eastern United States": "Washington",
        "Western United States": "San Francisco", "Russia": "Moscow",
        "Karelia S.S.R.": "Leningrad", "India": "Calcutta", "Germany": "Berlin",
        "Western Europe": "Paris", "Southern Europe": "Rome", "Japan": "Tokyo",
        "Kwantung": "Shanghai", "Philipine Islands": "Manila",
    }
    held = Counter(SIDE[scenario["control"][t]] for t in vcs)
    assert held == {"Allies": 6, "Axis": 6}


def test_capitals(spaces):
    caps = {v["attrs"]["original_owner"]: k for k, v in spaces.items()
            if v["attrs"].get("capital")}
    assert caps == {"USSR": "Russia", "Germany": "Germany", "UK": "United Kingdom",
                    "Japan": "Japan", "US": "Eastern United States"}
    for v in spaces.values():
        assert v["attrs"].get("capital", True) is True   # only present when true


def test_impassable_neutrals(spaces, scenario):
    imp = {k for k, v in spaces.items() if v["attrs"].get("impassable")}
    assert len(imp) == 16
    assert {"Turkey", "Spain", "Sweden", "Switzerland", "Eire", "Saudi Arabia",
            "Afghanistan", "Mongolia", "Sahara", "Himalaya"} <= imp
    neutral = {k for k, v in land(spaces).items() if not v["attrs"]["original_owner"]}
    assert neutral == imp
    assert not imp & set(scenario["control"])
    assert all(spaces[t]["attrs"]["ipc"] == 0 for t in imp)


def test_canals(board, spaces, adjacency):
    canals = {(lk["a"], lk["b"]): lk["attrs"] for lk in board["links"] if "canal" in lk["attrs"]}
    assert canals == {
        ("SZ 15", "SZ 34"): {"canal": "Suez", "canal_needs": ["Anglo Egypt", "Trans-Jordan"]},
        ("SZ 19", "SZ 20"): {"canal": "Panama", "canal_needs": ["Panama"]},
    }
    for (a, b), attrs in canals.items():
        assert spaces[a]["kind"] == spaces[b]["kind"] == "sea"
        for t in attrs["canal_needs"]:
            assert spaces[t]["kind"] == "land"
            assert a in adjacency[t] or b in adjacency[t]


def test_link_kinds_are_consistent(board, spaces):
    for lk in board["links"]:
        kinds = {spaces[lk["a"]]["kind"], spaces[lk["b"]]["kind"]}
        if "canal" in lk["attrs"]:
            assert kinds == {"sea"}
        else:
            assert lk["attrs"] == {}


# --- the starting position ----------------------------------------------------------------


def test_control_is_original_ownership(spaces, scenario):
    ctl = scenario["control"]
    assert all(spaces[t]["kind"] == "land" for t in ctl)
    assert ctl == {k: v["attrs"]["original_owner"] for k, v in land(spaces).items()
                   if v["attrs"]["original_owner"]}
    assert Counter(ctl.values()) == {"Germany": 11, "USSR": 10, "UK": 17, "Japan": 12, "US": 13}


def test_starting_incomes(spaces, scenario):
    income = Counter()
    for t, power in scenario["control"].items():
        income[power] += spaces[t]["attrs"]["ipc"]
    expected = {"USSR": 24, "Germany": 40, "UK": 30, "Japan": 30, "US": 42}
    assert dict(income) == expected
    assert scenario["resources"] == {p: {"ipc": n} for p, n in expected.items()}


def test_pieces_are_well_formed(spaces, scenario):
    pieces = scenario["pieces"]
    order = [(p["space"], p["owner"], p["kind"]) for p in pieces]
    assert len(set(order)) == len(order), "one entry per space, owner and kind"

    def key(p):
        sid = p["space"]
        return ((1, int(sid[3:]), "") if sid.startswith("SZ ") else (0, 0, sid),
                p["owner"], p["kind"])

    assert pieces == sorted(pieces, key=key)
    for p in pieces:
        assert p["space"] in spaces and p["owner"] in POWERS and p["kind"] in KINDS
        assert isinstance(p["count"], int) and p["count"] > 0
    assert {p["kind"] for p in pieces} == KINDS


def test_no_piece_on_the_wrong_ground(spaces, scenario):
    fighters_at_sea = Counter()
    carriers = Counter()
    for p in scenario["pieces"]:
        kind, where = p["kind"], spaces[p["space"]]
        if where["kind"] == "sea":
            assert kind in SEA_KINDS or kind == "Fighter", f"{kind} set up at sea: {p}"
            if kind == "Fighter":
                fighters_at_sea[(p["space"], SIDE[p["owner"]])] += p["count"]
            if kind == "AircraftCarrier":
                carriers[(p["space"], SIDE[p["owner"]])] += p["count"]
        else:
            assert kind not in SEA_KINDS, f"{kind} set up on land: {p}"
            owner = scenario["control"].get(p["space"])
            assert owner is not None and SIDE[owner] == SIDE[p["owner"]], p
            if kind == "IndustrialComplex":
                assert owner == p["owner"]
                assert where["attrs"].get("factory_start") is True
    for key, n in fighters_at_sea.items():
        assert n <= 2 * carriers[key], f"{n} fighters at sea in {key} without carriers"


def test_starting_units_spot_checks(scenario):
    by_power = defaultdict(Counter)
    for p in scenario["pieces"]:
        by_power[p["owner"]][p["kind"]] += p["count"]
    assert by_power["Germany"]["Infantry"] == 25
    assert by_power["Germany"]["Tank"] == 10
    assert by_power["Japan"]["Infantry"] == 21
    assert by_power["USSR"]["Infantry"] == 24
    assert by_power["UK"]["Fighter"] == 4
    assert by_power["US"]["Fighter"] == 5
    assert by_power["UK"]["Battleship"] == 2 and by_power["Japan"]["AircraftCarrier"] == 2
    assert {p: sum(c.values()) for p, c in by_power.items()} == {
        "Germany": 58, "Japan": 40, "USSR": 37, "UK": 36, "US": 34}
    ics = {p["space"]: p["owner"] for p in scenario["pieces"] if p["kind"] == "IndustrialComplex"}
    assert ics == {"Germany": "Germany", "Southern Europe": "Germany", "Russia": "USSR",
                   "Caucasus": "USSR", "United Kingdom": "UK", "Japan": "Japan",
                   "Eastern United States": "US", "Western United States": "US"}
    in_germany = {p["kind"]: p["count"] for p in scenario["pieces"]
                  if p["space"] == "Germany" and p["owner"] == "Germany"}
    assert in_germany == {"Infantry": 3, "Tank": 2, "Fighter": 1, "Bomber": 1, "AAGun": 1,
                          "IndustrialComplex": 1}
    sz37 = {p["kind"]: p["count"] for p in scenario["pieces"] if p["space"] == "SZ 37"}
    assert sz37 == {"Battleship": 1, "AircraftCarrier": 1, "Fighter": 2}


# --- shapes -------------------------------------------------------------------------------


def _inside(x: float, y: float, polygon: list) -> bool:
    """Even-odd rule over all rings (ring 0 the outline, the rest holes)."""
    inside = False
    for ring in polygon:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def test_every_space_has_a_shape_and_a_label(board):
    x0, y0, x1, y1 = board["layout"]["bounds"]
    for s in board["spaces"]:
        assert s["shape"], f"{s['id']} has no shape"
        for polygon in s["shape"]:
            assert polygon
            for ring in polygon:
                assert len(ring) >= 4 and ring[0] == ring[-1], s["id"]
                for x, y in ring:
                    assert x0 <= x <= x1 and y0 <= y <= y1
                    assert round(x, 2) == x and round(y, 2) == y
        lx, ly = s["label_at"]
        assert any(_inside(lx, ly, poly) for poly in s["shape"]), (
            f"label point of {s['id']} is outside its shape")


def test_map_file_is_small():
    assert MAP_PATH.stat().st_size < 1_500_000


# --- the files are what the script makes --------------------------------------------------


def _script():
    spec = importlib.util.spec_from_file_location("build_lhtr_map", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def _need_xml():
    if not XML.exists():
        pytest.skip("TripleA reference XML not available")


def test_build_is_deterministic():
    _need_xml()
    mod = _script()
    first = mod.build(XML, mod.load_shapes(MAP_PATH))
    second = mod.build(XML, mod.load_shapes(MAP_PATH))
    assert mod.dumps_map(first[0]) == mod.dumps_map(second[0])
    assert mod.dumps_scenario(first[1]) == mod.dumps_scenario(second[1])


def test_committed_files_are_up_to_date():
    _need_xml()
    mod = _script()
    map_doc, scenario_doc = mod.build(XML, mod.load_shapes(MAP_PATH))
    assert mod.dumps_map(map_doc) == MAP_PATH.read_text(encoding="utf-8"), (
        "map.json is stale: run python scripts/build_lhtr_map.py")
    assert mod.dumps_scenario(scenario_doc) == SCENARIO_PATH.read_text(encoding="utf-8"), (
        "scenario.json is stale: run python scripts/build_lhtr_map.py --reuse-shapes")


def test_shapes_rebuild_deterministically():
    """Only where the developer-only shape tools are installed (see SOURCES.md)."""
    _need_xml()
    shapely = pytest.importorskip("shapely")
    pytest.importorskip("shapefile")
    mod = _script()
    try:
        mod.natural_earth_path()
    except mod.BuildError as e:
        pytest.skip(str(e))
    first = mod.compute_shapes()
    assert mod.compute_shapes() == first
    if shapely.__version__ == mod.SHAPE_TOOLS["shapely"]:
        assert first == mod.load_shapes(MAP_PATH), "shapes are stale: rerun the full build"
