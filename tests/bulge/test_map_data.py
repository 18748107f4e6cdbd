"""Data checks for the approximate Ardennes hex map (rulesets/bulge/data/map.json).

The file is in the engine's generic map format (`wargame-map/1`); the JSON is loaded
directly and the engine is never imported. Most checks read it through `legacy_view`, the
hexes / roads / rivers it was written as before. The last test re-runs
scripts/build_bulge_map.py in-process and checks that the committed file is what the
script produces from the fact tables today.
"""

from __future__ import annotations

import importlib.util
import json
from collections import deque
from pathlib import Path

import pytest

from tests.bulge.legacy import legacy_view

ROOT = Path(__file__).resolve().parents[2]
MAP_PATH = ROOT / "rulesets" / "bulge" / "data" / "map.json"
SCRIPT = ROOT / "scripts" / "build_bulge_map.py"

RULEBOOK_NAMES = ("Prüm", "Martelange", "Bastogne", "Ortheuville", "Vielsalm")
ARMIES = ("6PzA", "5PzA", "7A")
HEX_KEYS = (
    "id",
    "q",
    "r",
    "col",
    "row",
    "lat",
    "lon",
    "partial",
    "country",
    "town",
    "also",
    "size",
    "vp",
    "historic_axis",
    "control",
    "edge",
    "army",
    "road_exit",
)


@pytest.fixture(scope="module")
def doc() -> dict:
    with MAP_PATH.open(encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def board(doc) -> dict:
    return legacy_view(doc)


@pytest.fixture(scope="module")
def hexes(board) -> dict[str, dict]:
    return {h["id"]: h for h in board["hexes"]}


@pytest.fixture(scope="module")
def towns(board) -> dict[str, dict]:
    return {h["town"]: h for h in board["hexes"] if h["town"]}


@pytest.fixture(scope="module")
def road_graph(board) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for a, b in board["roads"]:
        g.setdefault(a, set()).add(b)
        g.setdefault(b, set()).add(a)
    return g


@pytest.fixture(scope="module")
def river_edges(board) -> dict[frozenset, dict]:
    return {frozenset(e["hexes"]): e for e in board["rivers"]}


def adjacent(a: dict, b: dict) -> bool:
    return (b["q"] - a["q"], b["r"] - a["r"]) in {
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, 1),
        (0, 1),
    }


def road_path(graph: dict[str, set[str]], start: str, goal: str) -> list[str]:
    prev = {start: None}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        if cur == goal:
            break
        for n in sorted(graph.get(cur, ())):
            if n not in prev:
                prev[n] = cur
                todo.append(n)
    assert goal in prev, f"no road from {start} to {goal}"
    path = [goal]
    while prev[path[-1]] is not None:
        path.append(prev[path[-1]])
    return path[::-1]


# --- shape -----------------------------------------------------------------------------


def test_generic_format(doc):
    assert doc["format"] == "wargame-map/1"
    assert doc["link_hexes"] is True
    assert doc["layout"]["kind"] == "hex-pointy"
    assert set(doc) <= {"format", "name", "fidelity", "source", "notes", "layout", "link_hexes", "spaces", "links"}
    for s in doc["spaces"]:
        assert s["kind"] == "hex" and len(s["hex"]) == 2, s["id"]
        assert s["name"] == (s["attrs"]["town"] or s["id"])
        assert list(s["attrs"]) == [k for k in HEX_KEYS if k not in ("id", "q", "r")], s["id"]
    pairs = [(link["a"], link["b"]) for link in doc["links"]]
    assert pairs == sorted(set(pairs)) and all(a < b for a, b in pairs)
    for link in doc["links"]:
        attrs = link["attrs"]
        assert attrs and set(attrs) <= {"road", "river", "barrier", "bridge"}, link
        assert attrs.get("road", True) is True and attrs.get("bridge", True) is True, link
        assert ("river" in attrs) == ("barrier" in attrs), link
        assert "bridge" not in attrs or "river" in attrs, link


def test_top_level_shape(board):
    assert board["name"] == "Ardennes, December 1944"
    assert board["fidelity"] == "approximate"
    assert "not the printed A&A board" in board["source"]
    assert board["orientation"] == "pointy"
    assert 6.0 <= board["hex_km"] <= 7.0
    assert set(board["projection"]) == {"lat0", "lon0", "km_per_deg_lat", "km_per_deg_lon"}
    assert board["projection"]["km_per_deg_lat"] == 111.0
    assert board["projection"]["km_per_deg_lon"] == 71.5
    assert {"front_1944_12_16", "bulge_height", "border"} <= set(board["lines"])
    assert board["vp_note"]
    assert board["sources"]["GEO"] and board["sources"]["C81"]


def test_hex_records_and_odd_r_labels(board):
    ids = [h["id"] for h in board["hexes"]]
    assert len(ids) == len(set(ids))
    for h in board["hexes"]:
        assert list(h) == list(HEX_KEYS), h["id"]
        assert h["id"] == f"{h['col']:02d}{h['row']:02d}"
        # odd-r offset from axial, 1-based labels
        assert h["row"] - 1 == h["r"]
        assert h["col"] - 1 == h["q"] + (h["r"] - (h["r"] & 1)) // 2
        assert h["country"] in {"BE", "LU", "DE", "FR"}
        assert h["control"] in {"Axis", "Allies"}
        assert set(h["edge"]) <= {"N", "S", "W", "E"}


def test_grid_is_a_full_rectangle_at_the_target_scale(board):
    cols = max(h["col"] for h in board["hexes"])
    rows = max(h["row"] for h in board["hexes"])
    assert 20 <= cols <= 26 and 18 <= rows <= 22
    cells = {(h["col"], h["row"]) for h in board["hexes"]}
    for row in range(1, rows + 1):
        present = sorted(c for c, r in cells if r == row)
        assert present == list(range(present[0], present[-1] + 1)), row
        assert present[0] == 1


def test_partial_hexes_are_inert(board):
    partial = {h["id"] for h in board["hexes"] if h["partial"]}
    assert partial, "a printed-style board has greyed rim hexes"
    for h in board["hexes"]:
        if h["partial"]:
            assert h["town"] is None and not h["edge"] and not h["road_exit"] and h["vp"] == 0
    for pair in board["roads"]:
        assert not partial & set(pair)
    for e in board["rivers"]:
        assert not partial & set(e["hexes"])


# --- places and VP -----------------------------------------------------------------------


def test_rulebook_and_main_towns_have_their_own_hex(towns):
    for name in RULEBOOK_NAMES + (
        "Liège",
        "Namur",
        "Dinant",
        "St. Vith",
        "La Roche",
        "Houffalize",
        "Marche",
        "Eupen",
        "Verviers",
        "Malmedy",
        "Stavelot",
        "Clervaux",
        "Wiltz",
        "Diekirch",
        "Ettelbruck",
        "Echternach",
        "Arlon",
        "Saint-Hubert",
        "Rochefort",
    ):
        assert name in towns, name


def test_coverage_of_the_board(towns):
    for name in ("Liège", "Namur", "Dinant", "Arlon", "Echternach", "Prüm", "Losheim"):
        assert name in towns, name


def test_historic_axis_vp_is_exactly_23(board):
    total = sum(h["vp"] for h in board["hexes"] if h["historic_axis"] and h["country"] != "DE")
    assert total == 23


def test_total_vp_leaves_room_for_an_axis_win(board):
    total = sum(h["vp"] for h in board["hexes"])
    assert total >= 40
    assert total - 23 > 0


def test_no_vp_in_germany(board):
    for h in board["hexes"]:
        if h["country"] == "DE":
            assert h["vp"] == 0, h["town"]


def test_every_city_and_town_west_of_the_border_has_vp(board):
    for h in board["hexes"]:
        if h["town"] and h["country"] != "DE" and h["size"] in ("city", "town"):
            assert h["vp"] > 0, h["town"]
        if h["vp"]:
            assert h["town"], h["id"]


def test_historic_status_of_checked_towns(towns):
    # GAZETTEER §1 corrections against NOTES §6
    assert towns["Ettelbruck"]["historic_axis"] is True
    assert towns["Martelange"]["historic_axis"] is True
    for held in (
        "St. Vith",
        "Vielsalm",
        "Houffalize",
        "La Roche",
        "Rochefort",
        "Celles",
        "Wiltz",
        "Clervaux",
        "Saint-Hubert",
        "Manhay",
    ):
        assert towns[held]["historic_axis"] is True, held
    for never in (
        "Bastogne",
        "Liège",
        "Dinant",
        "Marche",
        "Hotton",
        "Malmedy",
        "Trois-Ponts",
        "Elsenborn",
        "Bütgenbach",
        "Arlon",
        "Neufchâteau",
    ):
        assert towns[never]["historic_axis"] is False, never


# --- control, country, edges -----------------------------------------------------------


def test_axis_start_control(towns):
    assert towns["Prüm"]["control"] == "Axis"
    assert towns["Bastogne"]["control"] == "Allies"
    for name in ("Losheim", "Dasburg", "Schleiden"):
        assert towns[name]["control"] == "Axis", name
    for name in ("St. Vith", "Monschau", "Vianden", "Echternach", "Clervaux", "Vielsalm"):
        assert towns[name]["control"] == "Allies", name


def test_countries(towns):
    assert towns["Prüm"]["country"] == "DE"
    assert towns["Bastogne"]["country"] == "BE"
    assert towns["Wiltz"]["country"] == "LU"
    assert towns["Givet"]["country"] == "FR"


def test_all_three_army_sections_on_the_east_edge_north_to_south(board):
    rows: dict[str, list[int]] = {}
    for h in board["hexes"]:
        if h["army"] is not None:
            assert "E" in h["edge"] and not h["partial"] and h["country"] == "DE"
            rows.setdefault(h["army"], []).append(h["row"])
    assert set(rows) == set(ARMIES)
    assert max(rows["6PzA"]) < min(rows["5PzA"])
    assert max(rows["5PzA"]) < min(rows["7A"])
    for h in board["hexes"]:
        if "E" in h["edge"] and h["country"] == "DE":
            assert h["army"] in ARMIES


def test_road_exits_on_every_entry_edge(board):
    exits = [h for h in board["hexes"] if h["road_exit"]]
    for h in exits:
        assert h["edge"] and not h["partial"]
    for army in ARMIES:
        assert any(h["army"] == army and h["control"] == "Axis" for h in exits), army
    for side in ("N", "W", "S"):
        assert any(side in h["edge"] and h["control"] == "Allies" for h in exits), side


# --- roads and rivers --------------------------------------------------------------------


def test_every_road_pair_is_adjacent(board, hexes):
    assert board["roads"]
    for a, b in board["roads"]:
        assert adjacent(hexes[a], hexes[b]), (a, b)


def test_every_river_edge_is_between_adjacent_hexes(board, hexes):
    assert board["rivers"]
    for e in board["rivers"]:
        a, b = e["hexes"]
        assert adjacent(hexes[a], hexes[b]), e


def test_bridges_are_the_road_crossings_and_the_listed_crossings(board, river_edges):
    """A river hexside is a bridge where a road crosses it, or where the gazetteer lists a
    crossing that no road reaches (Ouren, Gemünd, Steinebrück...); every other one is a barrier."""
    roads = {frozenset(p) for p in board["roads"]}
    roadless = [e for edge, e in river_edges.items() if e["bridge"] and edge not in roads]
    for edge, e in river_edges.items():
        if edge in roads:
            assert e["bridge"], e
        assert e["barrier"] == (not e["bridge"]), e
    assert {e["river"] for e in roadless} >= {"Our", "Sûre"}
    assert len(roadless) <= 12


def test_the_german_assault_crossings_of_the_our_are_open(board, river_edges, towns):
    by_id = {h["id"]: h for h in board["hexes"]}
    our_crossings = [e for e in river_edges.values() if e["river"] == "Our" and e["bridge"]]
    # Dasburg and Schönberg by road; Ouren, Gemünd and Steinebrück without (GAZ §3.1)
    assert len(our_crossings) >= 5
    assert any(by_id[h].get("country") == "DE" for e in our_crossings for h in e["hexes"])


def test_main_roads_connect(road_graph, towns):
    for a, b in (
        ("Liège", "Bastogne"),
        ("Namur", "Bastogne"),
        ("Bastogne", "Arlon"),
        ("St. Vith", "Vielsalm"),
        ("Prüm", "St. Vith"),
        ("Clervaux", "Bastogne"),
        ("Malmedy", "Trois-Ponts"),
        ("Trois-Ponts", "Huy"),
        ("Salmchâteau", "La Roche"),
    ):
        road_path(road_graph, towns[a]["id"], towns[b]["id"])


def test_bastogne_ortheuville_road_crosses_the_ourthe_on_a_bridge(road_graph, river_edges, towns):
    path = road_path(road_graph, towns["Ortheuville"]["id"], towns["Bastogne"]["id"])
    crossings = [river_edges.get(frozenset(p)) for p in zip(path, path[1:])]
    assert any(e and e["river"] == "Ourthe" and e["bridge"] for e in crossings), path


@pytest.mark.parametrize(
    "town, river",
    [
        ("Stavelot", "Amblève"),
        ("Houffalize", "Ourthe"),
        ("Hotton", "Ourthe"),
        ("Martelange", "Sûre"),
        ("Dasburg", "Our"),
        ("Vielsalm", "Salm"),
        ("Trois-Ponts", "Salm"),
        ("La Gleize", "Amblève"),
    ],  # La Gleize hex holds Cheneux
)
def test_gazetteer_bridges_exist(board, towns, town, river):
    tid = towns[town]["id"]
    assert any(
        e["river"] == river and e["bridge"] and tid in e["hexes"] for e in board["rivers"]
    ), (town, river)


def test_our_between_germany_and_luxembourg_is_a_barrier(board, hexes):
    assert any(
        e["river"] == "Our"
        and e["barrier"]
        and {hexes[i]["country"] for i in e["hexes"]} == {"DE", "LU"}
        for e in board["rivers"]
    )


def test_meuse_is_a_barrier_with_bridges(board):
    meuse = [e for e in board["rivers"] if e["river"] == "Meuse"]
    assert any(e["barrier"] for e in meuse) and any(e["bridge"] for e in meuse)


# --- determinism -------------------------------------------------------------------------


def test_generated_file_is_up_to_date():
    spec = importlib.util.spec_from_file_location("build_bulge_map", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    text = mod.dumps(mod.build())
    assert text == MAP_PATH.read_text(encoding="utf-8"), (
        "map.json is stale: run python scripts/build_bulge_map.py"
    )
    assert mod.dumps(mod.build()) == text  # same input, same output
