"""The Battle of the Bulge starting position as data: rulesets/bulge/data/scenario.json and
its two variants, written by scripts/build_bulge_scenario.py from oob.json.

The pieces per side, type and area are those the Python set-up (rulesets/bulge/scenario.setup,
deleted when the position became data) placed, frozen below; before it went, each file was
checked to be that set-up piece for piece (ids, spaces, groups, control in order). The files
are what the script writes today; the options choose them; the ruleset's own scenario
checks find nothing wrong; a broken file is refused in one line naming the file and the
entry.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from engine import plugins
from engine.scenario import ScenarioDataError

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rulesets" / "bulge" / "data"
SCRIPT = ROOT / "scripts" / "build_bulge_scenario.py"
FILES = {"default": "scenario.json", "rulebook_stacking": "scenario-rulebook-stacking.json",
         "custom_setup": "scenario-custom-setup.json"}
OPTIONS = {"default": {}, "rulebook_stacking": {"stacking_rulebook": "true"}, "custom_setup": {"custom_setup": "true"}}

# What the Python set-up put where (the same counts for every file; in the custom set-up the
# board's pieces wait in the pools): (side, type) -> pieces on the board / off board / on
# each reinforcement chart.
ON_BOARD = {("Axis", "Infantry"): 35, ("Axis", "Tank"): 5, ("Axis", "Artillery"): 18, ("Axis", "Truck"): 3,
            ("Axis", "Supply"): 52, ("Allies", "Infantry"): 12, ("Allies", "Tank"): 3, ("Allies", "Artillery"): 7,
            ("Allies", "Truck"): 2, ("Allies", "Supply"): 6}
OFF_BOARD = {("Axis", "Truck"): 2, ("Axis", "Fighter"): 3, ("Axis", "Bomber"): 1,
             ("Allies", "Truck"): 5, ("Allies", "Fighter"): 9, ("Allies", "Bomber"): 3}
ON_CHARTS = {("Axis", "Infantry", "Axis"): 13, ("Axis", "Tank", "Axis"): 7, ("Axis", "Artillery", "Axis"): 5,
             ("Axis", "Truck", "Axis"): 1,
             ("Allies", "Infantry", "Northern"): 13, ("Allies", "Tank", "Northern"): 9,
             ("Allies", "Artillery", "Northern"): 9, ("Allies", "Truck", "Northern"): 2,
             ("Allies", "Infantry", "Southern"): 11, ("Allies", "Tank", "Southern"): 8,
             ("Allies", "Artillery", "Southern"): 8, ("Allies", "Truck", "Southern"): 2,
             ("Allies", "Infantry", "Western"): 7, ("Allies", "Tank", "Western"): 4,
             ("Allies", "Artillery", "Western"): 5, ("Allies", "Truck", "Western"): 1}
CHART_TURNS = {"Axis": [2, 3, 4], "Northern": [3, 4, 5, 6, 8], "Southern": [3, 4, 5, 7, 8], "Western": [5, 6, 7, 8]}
#: board hexes holding pieces at the start: at most 4 combat units a hex, and packed under the rulebook
OCCUPIED_HEXES = {"default": 33, "rulebook_stacking": 23}
AXIS_HEXES, CONTROLLED_HEXES = 40, 409


def script():
    spec = importlib.util.spec_from_file_location("build_bulge_scenario", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


_LOADED: dict[str, object] = {}


def ruleset(variant: str):
    if variant not in _LOADED:
        _LOADED[variant] = plugins.load("bulge", options=OPTIONS[variant])
    return _LOADED[variant]


def start(variant: str):
    rs = ruleset(variant)
    return rs, rs.logic.new_state(rs.info.default_scenario, 0)


def where(space: str) -> str:
    if ":" not in space:
        return "board"
    return space if not space.startswith("chart:") else "chart"


@pytest.mark.parametrize("variant", list(FILES))
def test_the_pieces_per_side_type_and_area_are_the_old_set_up(variant):
    _, state = start(variant)
    pieces = list(state.pieces.values())
    pool = variant == "custom_setup"
    placed = Counter((p.owner, p.kind) for p in pieces if where(p.space) == ("board" if not pool else f"setup:{p.owner}"))
    assert placed == Counter(ON_BOARD)
    assert not pool or not [p for p in pieces if where(p.space) == "board"]
    assert Counter((p.owner, p.kind) for p in pieces if p.space == f"offboard:{p.owner}") == Counter(OFF_BOARD)
    assert Counter((p.owner, p.kind, p.space.split(":")[1]) for p in pieces if where(p.space) == "chart") \
        == Counter(ON_CHARTS)
    turns: dict[str, set[int]] = {}
    for p in pieces:
        if p.space.startswith("chart:"):
            turns.setdefault(p.space.split(":")[1], set()).add(int(p.space.split(":")[2]))
    assert {c: sorted(t) for c, t in turns.items()} == CHART_TURNS
    assert len(pieces) == sum(ON_BOARD.values()) + sum(OFF_BOARD.values()) + sum(ON_CHARTS.values())
    assert sorted(p.id for p in pieces) == list(range(1, len(pieces) + 1))
    if not pool:
        assert len({p.space for p in pieces if where(p.space) == "board"}) == OCCUPIED_HEXES[variant]
    assert len(state.control) == CONTROLLED_HEXES
    assert sum(1 for side in state.control.values() if side == "Axis") == AXIS_HEXES
    assert all(not state.board.space(h).get("partial") for h in state.control)
    assert dict(state.resources) == {} and state.turn == 1


@pytest.mark.parametrize("variant", list(FILES))
def test_every_piece_keeps_its_formation(variant):
    oob = json.loads((DATA / "oob.json").read_text(encoding="utf-8"))
    _, state = start(variant)
    want: Counter = Counter()
    for side in ("Axis", "Allies"):
        for entry in oob["setup"][side]:
            want.update({(side, entry["short"], k): n for k, n in entry["pieces"].items()})
    for chart, rows in oob["charts"].items():
        for entry in rows:
            want.update({("Axis" if chart == "Axis" else "Allies", entry["short"], k): n
                         for k, n in entry["pieces"].items()})
    have = Counter((p.owner, p.group, p.kind) for p in state.pieces.values() if p.group)
    assert have == want


@pytest.mark.parametrize("variant", list(FILES))
def test_the_rulesets_own_scenario_checks_pass(variant):
    from rulesets.bulge.checks import scenario_problems

    rs, state = start(variant)
    assert scenario_problems(state, rs.rules) == []


def test_the_historic_vp_invariant_and_the_axis_starts_short_of_victory():
    """The towns the Axis held at the height of the offensive sum to exactly 23 VP, so the
    Axis's 24 means "better than history"; at the start it holds none of them but German ones."""
    rs, state = start("default")
    board = state.board
    historic = sum(int(s.get("vp") or 0) for s in board.spaces.values() if s.get("historic_axis"))
    assert historic == 23 < rs.rules.options["victory_vp"]
    axis_vp = sum(int(board.space(h).get("vp") or 0) for h, side in state.control.items() if side == "Axis")
    assert axis_vp < historic
    assert all(board.space(h).get("country") == "DE" or not board.space(h).get("vp")
               for h, side in state.control.items() if side == "Axis")


def test_trucks_start_on_roads_and_the_axis_in_its_army_sections():
    from rulesets.bulge.plugin import roads  # the ruleset's own query: over bridges, not barriers

    oob = json.loads((DATA / "oob.json").read_text(encoding="utf-8"))
    army = {e["short"]: e["army"] for e in oob["setup"]["Axis"]}
    _, state = start("default")
    at = script().Placement(state.board, "default")
    trucks = [p for p in state.pieces.values() if p.kind == "Truck" and p.space in state.board]
    assert trucks and all(any(not state.board.space(n).get("partial") for n in roads(state, p.space)) for p in trucks)
    for p in state.pieces.values():
        if p.space not in state.board:
            continue
        assert state.control[p.space] == p.owner, p
        if p.owner == "Axis" and p.group:
            assert at.army_section(p.space) == army[p.group], p


@pytest.mark.parametrize("variant", list(FILES))
def test_the_committed_files_are_what_the_script_writes(variant):
    mod = script()
    text = mod.dumps(mod.build(variant))
    assert text == (DATA / FILES[variant]).read_text(encoding="utf-8"), (
        f"{FILES[variant]} is stale: run python scripts/build_bulge_scenario.py")
    assert mod.dumps(mod.build(variant)) == text  # same input, same output


# -- broken files --------------------------------------------------------------------------------------
def broken(tmp_path: Path, change) -> Path:
    doc = json.loads((DATA / "scenario.json").read_text(encoding="utf-8"))
    doc["map"] = str(DATA / "map.json")
    text = change(doc)
    path = tmp_path / "scenario.json"
    path.write_text(text if isinstance(text, str) else json.dumps(doc), encoding="utf-8")
    return path


def new_game_from(path: Path):
    from rulesets.bulge.logic import BulgeLogic

    rs = ruleset("default")
    info = rs.info.scenarios[0]
    logic = BulgeLogic(rs.rules, replace(rs.info, scenarios=(replace(info, path=path),)), rs.structure)
    return logic.new_state(info.name, 0)


def _unknown_type(doc):
    doc["pieces"][3]["kind"] = "Panzerfaust"


def _off_the_map(doc):
    doc["pieces"][5]["space"] = "9999"


def _no_such_area(doc):
    doc["pieces"][-1]["space"] = "chart:Eastern:2"


def _bad_count(doc):
    doc["pieces"][0]["count"] = 0


@pytest.mark.parametrize("change, message", [
    (_unknown_type, r"^scenario\.json: pieces\[3\]: unknown unit type `Panzerfaust`"),
    (_off_the_map, r"^scenario\.json: pieces\[5\] \(\w+\): no space or off-board area `9999`$"),
    (_no_such_area, r"^scenario\.json: pieces\[\d+\] \(\w+\): no space or off-board area `chart:Eastern:2`( \(did you mean `[^`]+`\?\))?$"),
    (_bad_count, r"^scenario\.json: pieces\[0\] \(\w+\)\.count: "),
    (lambda doc: json.dumps(doc)[:-40], r"^\S*scenario\.json: not valid JSON \("),
])
def test_a_broken_scenario_file_is_refused_in_one_line_naming_the_file_and_the_entry(tmp_path, change, message):
    path = broken(tmp_path, change)
    with pytest.raises(ScenarioDataError, match=message) as err:
        new_game_from(path)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("options, file", [
    ({}, "scenario.json"), ({"stacking_limit": "6"}, "scenario.json"),
    ({"stacking_rulebook": "true"}, "scenario-rulebook-stacking.json"),
    ({"custom_setup": "true"}, "scenario-custom-setup.json"),
    ({"custom_setup": "true", "stacking_rulebook": "true"}, "scenario-custom-setup.json"),
])
def test_the_options_choose_the_scenario_file(options, file):
    from rulesets.bulge import scenario

    info = ruleset("default").info
    assert info.scenarios[0].path == DATA / "scenario.json"
    assert scenario.variant_file(info.scenarios[0].path, options) == DATA / file
    assert {DATA / "map.json", DATA / "oob.json", *(DATA / f for f in FILES.values())} <= set(info.data_files)


def test_a_scenario_without_variant_files_keeps_its_own(tmp_path):
    from rulesets.bulge import scenario

    path = tmp_path / "scenario.json"
    assert scenario.variant_file(path, {"custom_setup": True, "stacking_rulebook": True}) == path


def test_a_stacking_limit_below_the_files_4_is_refused_before_play():
    """The set-up is a fixed position packed 4 combat units a hex: a looser limit keeps it, a
    stricter one is refused by the ruleset's checks (the players may set up with custom_setup)."""
    from engine.game import Game, ScenarioError

    with pytest.raises(ScenarioError, match="starts over the stacking limit"):
        Game(plugins.load("bulge", options={"stacking_limit": "3"}), None, seed=0)
    game = Game(plugins.load("bulge", options={"stacking_limit": "3", "custom_setup": "true"}), None, seed=0)
    assert game.decision.kind.endswith("setup")
