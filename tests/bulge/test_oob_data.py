"""Data checks for the Battle of the Bulge order of battle (rulesets/bulge/data/oob.json)
and the starting positions written from it (data/scenario.json and its variants, by
scripts/build_bulge_scenario.py).

These tests load the JSON directly and never import the engine. The gazetteer checks read
/work/shared/reference/bulge/GAZETTEER.md (or the file named by $BULGE_GAZETTEER) when it
exists and skip with a reason when it does not; the committed "places_used" list inside
oob.json is always checked.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OOB_PATH = ROOT / "rulesets" / "bulge" / "data" / "oob.json"
SCENARIOS = tuple(ROOT / "rulesets" / "bulge" / "data" / name for name in
                  ("scenario.json", "scenario-rulebook-stacking.json", "scenario-custom-setup.json"))
MAP_PATH = ROOT / "rulesets" / "bulge" / "data" / "map.json"
GAZETTEER = Path(
    os.environ.get("BULGE_GAZETTEER", "/work/shared/reference/bulge/GAZETTEER.md")
)

SIDES = ("Axis", "Allies")
COMBAT = ("Infantry", "Tank", "Artillery")
KNOWN_TYPES = (*COMBAT, "Truck")
ALLIED_CHARTS = ("Northern", "Southern", "Western")
AXIS_ARMIES = {"6PzA", "5PzA", "7A"}

# NOTES.md §1 (box contents) and the seed summary (off-board start pools).
BOX = {
    "Axis": {"Infantry": 20, "Tank": 16, "Artillery": 12, "Truck": 6, "Fighter": 3, "Bomber": 1},
    "Allies": {"Infantry": 29, "Tank": 14, "Artillery": 13, "Truck": 12, "Fighter": 9, "Bomber": 3},
}
OFFBOARD = {
    "Axis": {"Truck": 2, "Fighter": 3, "Bomber": 1},
    "Allies": {"Truck": 5, "Fighter": 9, "Bomber": 3},
}
CHIP_UNITS = 125 * 1 + 10 * 5  # grey = +1, red = +5, shared by both sides

# A place within this many degrees of longitude of the 16 Dec line counts as "on the line"
# (≈3 km); Monschau, Losheimergraben, Dasburg, Vianden and Echternach are such anchors.
LINE_TOLERANCE = 0.04


@pytest.fixture(scope="module")
def oob() -> dict:
    with OOB_PATH.open(encoding="utf-8") as f:
        return json.load(f)


def charts_of(side: str) -> tuple[str, ...]:
    return ("Axis",) if side == "Axis" else ALLIED_CHARTS


def entries(oob: dict, side: str, *, setup: bool = True, charts: bool = True) -> list[dict]:
    out: list[dict] = []
    if setup:
        out += oob["setup"][side]
    if charts:
        for c in charts_of(side):
            out += oob["charts"][c]
    return out


def piece_totals(items: list[dict]) -> Counter:
    tot: Counter = Counter()
    for e in items:
        tot.update(e["pieces"])
    return tot


def source_keys(entry: dict) -> list[str]:
    return [k.strip() for k in entry["source"].split(",") if k.strip()]


def near_places(oob: dict, side: str) -> list[str]:
    names = [p for e in oob["setup"][side] for p in e["near"]]
    names += [s["near"] for s in oob["supply_on_board"][side]]
    return names


# ---------------------------------------------------------------- gazetteer parsing


def _table_rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not cells or set(cells[0]) <= set("-: "):
            continue
        rows.append(cells)
    return rows


@pytest.fixture(scope="module")
def gazetteer() -> dict:
    if not GAZETTEER.exists():
        pytest.skip(f"gazetteer not found at {GAZETTEER}; only the committed places_used list is checked")
    text = GAZETTEER.read_text(encoding="utf-8")
    m = re.search(r"^## 1\. Places\s*$(.*?)^## ", text, re.S | re.M)
    if not m:
        pytest.skip("GAZETTEER.md has no '## 1. Places' section")
    places: dict[str, tuple[str, float, float]] = {}
    for cells in _table_rows(m.group(1)):
        if cells[0].lower().startswith("place") or len(cells) < 5:
            continue
        name = re.sub(r"\s*\(.*\)\s*$", "", cells[0]).strip()
        places[name] = (cells[1], float(cells[3]), float(cells[4]))
    line: list[tuple[float, float]] = []
    m = re.search(r"^### 4\.2 .*?$(.*?)^### ", text, re.S | re.M)
    if m:
        for cells in _table_rows(m.group(1)):
            if cells[0].isdigit():
                line.append((float(cells[2]), float(cells[3])))
    return {"places": places, "front": line}


def front_lon(front: list[tuple[float, float]], lat: float) -> float:
    """Longitude of the 16 Dec line at a latitude (the line runs strictly north to south)."""
    if lat >= front[0][0]:
        return front[0][1]
    if lat <= front[-1][0]:
        return front[-1][1]
    for (lat1, lon1), (lat2, lon2) in zip(front, front[1:], strict=False):
        if lat1 >= lat >= lat2:
            return lon1 + (lat1 - lat) / (lat1 - lat2) * (lon2 - lon1)
    raise AssertionError("unreachable")


def offset(gaz: dict, name: str) -> float:
    """Degrees of longitude east (+) or west (-) of the 16 Dec front line."""
    _, lat, lon = gaz["places"][name]
    return lon - front_lon(gaz["front"], lat)


# ---------------------------------------------------------------- shape


def test_top_level_shape(oob):
    for key in ("scale", "fidelity", "turn_dates", "box", "chip_budget", "setup",
                "supply_on_board", "offboard", "income", "charts", "sources", "places_used"):
        assert key in oob, key
    assert oob["fidelity"] == "approximate"
    assert set(oob["charts"]) == {"Axis", *ALLIED_CHARTS}
    assert set(oob["setup"]) == set(SIDES)
    assert set(oob["turn_dates"]) == {str(t) for t in range(1, 9)}
    assert oob["turn_dates"]["1"] == "16 Dec"
    assert oob["turn_dates"]["5"].startswith("23")  # weather clears 23 Dec = first air turn


def test_box_and_pools_match_notes(oob):
    for side in SIDES:
        assert oob["box"][side] == BOX[side]
        for k, v in OFFBOARD[side].items():
            assert oob["offboard"][side][k] == v
        assert oob["offboard"][side]["supply"] >= 0
    assert oob["box"]["chips_grey"] == 125
    assert oob["box"]["chips_red"] == 10
    assert oob["income"]["Axis"] == 9 and oob["income"]["Allies"] == 11


# ---------------------------------------------------------------- entries


@pytest.mark.parametrize("side", SIDES)
def test_entries_well_formed(oob, side):
    for e in entries(oob, side):
        assert isinstance(e["formation"], str) and e["formation"].strip(), e
        assert isinstance(e["short"], str) and 0 < len(e["short"]) <= 10, e["short"]
        pieces = e["pieces"]
        assert pieces, e["formation"]
        for typ, n in pieces.items():
            assert typ in KNOWN_TYPES, (e["formation"], typ)
            assert isinstance(n, int) and not isinstance(n, bool) and n > 0, (e["formation"], typ, n)
        keys = source_keys(e)
        assert keys, e["formation"]
        for k in keys:
            assert k in oob["sources"], (e["formation"], k)
        if side == "Axis":
            assert e["army"] in AXIS_ARMIES, e["formation"]


def test_setup_entries_have_places(oob):
    for side in SIDES:
        for e in oob["setup"][side]:
            assert isinstance(e["near"], list) and e["near"], e["formation"]
            assert all(isinstance(p, str) and p for p in e["near"]), e["formation"]


def test_grouped_by_division(oob):
    """One entry per formation and turn on each chart (the off-board blitz is paid per division)."""
    for chart, rows in oob["charts"].items():
        keys = [(r["turn"], r["formation"]) for r in rows]
        assert len(keys) == len(set(keys)), chart
    for side in SIDES:
        names = [e["formation"] for e in oob["setup"][side]]
        assert len(names) == len(set(names)), side


def test_sources_are_strings(oob):
    assert oob["sources"]
    for k, v in oob["sources"].items():
        assert isinstance(k, str) and isinstance(v, str) and v.strip(), k


# ---------------------------------------------------------------- the box


@pytest.mark.parametrize("side", SIDES)
def test_totals_within_box_plus_chips(oob, side):
    tot = piece_totals(entries(oob, side))
    tot["Truck"] += oob["offboard"][side]["Truck"]
    use = oob["chip_use"][side]
    for typ in KNOWN_TYPES:
        assert tot[typ] <= BOX[side][typ] + use.get(typ, 0), (side, typ, tot[typ])
        # chip_use states the real overflow, not a loose allowance
        assert use.get(typ, 0) == max(0, tot[typ] - BOX[side][typ]), (side, typ)
    assert sum(use.values()) <= oob["chip_budget"][side]


def test_chip_budget_fits_the_chips(oob):
    assert sum(oob["chip_budget"].values()) <= CHIP_UNITS
    assert all(isinstance(v, int) and v >= 0 for v in oob["chip_budget"].values())


def test_air_units_only_offboard(oob):
    for side in SIDES:
        for e in entries(oob, side):
            assert not {"Fighter", "Bomber"} & set(e["pieces"]), e["formation"]


# ---------------------------------------------------------------- turns and shape


def test_chart_turns_in_range(oob):
    for chart, rows in oob["charts"].items():
        for r in rows:
            assert isinstance(r["turn"], int) and 1 <= r["turn"] <= 8, (chart, r["formation"])


def test_axis_reinforcements_turns_1_to_4(oob):
    for r in oob["charts"]["Axis"]:
        assert 1 <= r["turn"] <= 4, r["formation"]


def test_allied_reinforcements_heavier_than_axis(oob):
    axis = sum(piece_totals(oob["charts"]["Axis"]).values())
    allies = sum(piece_totals([r for c in ALLIED_CHARTS for r in oob["charts"][c]]).values())
    assert allies > axis
    # in combat units too, not just trucks
    axis_c = sum(piece_totals(oob["charts"]["Axis"])[t] for t in COMBAT)
    allies_c = sum(piece_totals([r for c in ALLIED_CHARTS for r in oob["charts"][c]])[t] for t in COMBAT)
    assert allies_c > 2 * axis_c


def test_allied_reinforcements_almost_every_turn(oob):
    turns = {r["turn"] for c in ALLIED_CHARTS for r in oob["charts"][c]}
    assert len(turns) >= 6, sorted(turns)
    for c in ALLIED_CHARTS:
        assert oob["charts"][c], c


def test_big_axis_start_thin_allied_line(oob):
    axis = sum(piece_totals(oob["setup"]["Axis"])[t] for t in COMBAT)
    allies = sum(piece_totals(oob["setup"]["Allies"])[t] for t in COMBAT)
    assert axis >= 2 * allies
    axis_ch = sum(piece_totals(oob["charts"]["Axis"])[t] for t in COMBAT)
    assert axis > axis_ch  # the Axis strength is on the board, not on its chart


def test_every_axis_army_section_is_set_up(oob):
    assert {e["army"] for e in oob["setup"]["Axis"]} == AXIS_ARMIES


# ---------------------------------------------------------------- supply


def test_supply_on_board(oob):
    for side in SIDES:
        rows = oob["supply_on_board"][side]
        assert rows, side
        for s in rows:
            assert isinstance(s["near"], str)
            assert isinstance(s["tokens"], int) and s["tokens"] > 0
    # The German stockpile for the offensive is the balance knob tuned by self-play
    # (OOB.md §8): at most six turns of income. The Allies start with about one turn's worth.
    axis = sum(s["tokens"] for s in oob["supply_on_board"]["Axis"])
    allies = sum(s["tokens"] for s in oob["supply_on_board"]["Allies"])
    assert axis <= 6 * oob["income"]["Axis"]
    assert allies <= 1.5 * oob["income"]["Allies"]
    # 100 one-tokens + 10 fives in the box
    assert sum(s["tokens"] for side in SIDES for s in oob["supply_on_board"][side]) <= 150


# ---------------------------------------------------------------- places


def test_near_places_in_committed_list(oob):
    used = oob["places_used"]
    assert len(used) == len(set(used))
    for side in SIDES:
        for name in near_places(oob, side):
            assert name in used, name
    # no stale names
    all_near = {n for side in SIDES for n in near_places(oob, side)}
    assert set(used) == all_near


def test_places_exist_in_gazetteer(oob, gazetteer):
    places = gazetteer["places"]
    assert len(places) >= 50, "gazetteer table parse looks wrong"
    for name in oob["places_used"]:
        assert name in places, f"{name!r} is not a first-column place of GAZETTEER.md §1"


def test_axis_setup_in_germany_east_of_line(oob, gazetteer):
    if len(gazetteer["front"]) < 10:
        pytest.skip("GAZETTEER.md §4.2 front line not found")
    for e in oob["setup"]["Axis"]:
        offs = {p: offset(gazetteer, p) for p in e["near"]}
        for p, d in offs.items():
            assert d >= -LINE_TOLERANCE, f"{e['formation']}: {p} lies {d:.3f} deg west of the 16 Dec line"
        german = [p for p in e["near"] if gazetteer["places"][p][0] == "DE" and offs[p] >= 0]
        assert german, f"{e['formation']}: no German place east of the line among {e['near']}"
    for s in oob["supply_on_board"]["Axis"]:
        assert offset(gazetteer, s["near"]) >= -LINE_TOLERANCE, s


def test_allied_setup_west_of_line(oob, gazetteer):
    if len(gazetteer["front"]) < 10:
        pytest.skip("GAZETTEER.md §4.2 front line not found")
    for e in oob["setup"]["Allies"]:
        offs = [offset(gazetteer, p) for p in e["near"]]
        assert all(d <= LINE_TOLERANCE for d in offs), (e["formation"], offs)
        assert min(offs) < -0.02, f"{e['formation']}: no place clearly west of the line"
    for s in oob["supply_on_board"]["Allies"]:
        assert offset(gazetteer, s["near"]) <= LINE_TOLERANCE, s


# ---------------------------------------------------------------- the scenario files


def scenario_pieces(path: Path) -> list[dict]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "wargame-scenario/1" and doc["name"] == "ardennes-1944" and doc["map"] == "map.json"
    return doc["pieces"]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_holds_exactly_the_order_of_battle(oob, path):
    want: Counter = Counter()
    for side in SIDES:
        for e in oob["setup"][side]:
            want.update({(side, k, e["short"], "start"): n for k, n in e["pieces"].items()})
        want[(side, "Supply", "", "start")] += sum(t["tokens"] for t in oob["supply_on_board"][side])
        for k, n in oob["offboard"][side].items():
            if n:
                want[(side, "Supply" if k == "supply" else k, "", f"offboard:{side}")] += n
    for chart, rows in oob["charts"].items():
        for e in rows:
            side = "Axis" if chart == "Axis" else "Allies"
            want.update({(side, k, e["short"], f"chart:{chart}:{e['turn']}"): n for k, n in e["pieces"].items()})
    have: Counter = Counter()
    for p in scenario_pieces(path):
        space = p["space"]
        area = space if space.startswith(("offboard:", "chart:")) else "start"
        have[(p["owner"], p["kind"], p.get("group", ""), area)] += p.get("count", 1)
    assert have == want


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_pieces_stand_on_the_map_or_in_a_declared_area(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    spaces = {s["id"]: s for s in json.loads(MAP_PATH.read_text(encoding="utf-8"))["spaces"]}
    areas = [a["id"] for a in doc["areas"]]
    assert len(areas) == len(set(areas)) and {"offboard:Axis", "offboard:Allies"} <= set(areas)
    used = set()
    for p in doc["pieces"]:
        if ":" in p["space"]:
            assert p["space"] in areas, p
            used.add(p["space"])
        else:
            assert p["space"] in spaces and not spaces[p["space"]]["attrs"]["partial"], p
            assert doc["control"][p["space"]] == p["owner"], p
    assert used == set(areas)
    assert set(doc["control"]) == {sid for sid, s in spaces.items() if not s["attrs"]["partial"]}
    assert all(doc["control"][sid] == s["attrs"]["control"] for sid, s in spaces.items() if sid in doc["control"])
    pool = path.name == "scenario-custom-setup.json"
    assert pool == any(p["space"].startswith("setup:") for p in doc["pieces"])
