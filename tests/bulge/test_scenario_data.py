"""The Battle of the Bulge starting position as data: rulesets/bulge/data/scenario.json and
its two variants, written by scripts/build_bulge_scenario.py from oob.json.

The pieces per side, type and area are those the Python set-up placed before the position
became data (frozen below); the files are what the script writes today; the ruleset's own
scenario checks find nothing wrong; a broken file is refused in one line naming the file
and the entry.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from engine import plugins

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rulesets" / "bulge" / "data"
SCRIPT = ROOT / "scripts" / "build_bulge_scenario.py"
FILES = {"default": "scenario.json", "rulebook_stacking": "scenario-rulebook-stacking.json",
         "custom_setup": "scenario-custom-setup.json"}
OPTIONS = {"default": {}, "rulebook_stacking": {"stacking_rulebook": "true"}, "custom_setup": {"custom_setup": "true"}}

# What the Python set-up (rulesets/bulge/scenario.setup, before this file) put where, for the
# default options: (side, type) -> pieces on the board / on each reinforcement chart / off board.
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
def test_the_files_are_the_python_set_up_piece_for_piece(variant):
    """Run while rulesets/bulge/scenario.setup() still existed; removed with it."""
    from engine.rules_logic import initial_vars
    from engine.scenario import read_scenario, scenario_board, set_up
    from engine.state import GameState
    from rulesets.bulge import mapdata, scenario

    rs = ruleset(variant)
    old = GameState(mapdata.load_map()[0], rs.rules, 0)
    old.vars = initial_vars(rs.rules)
    scenario.setup(old, rs.rules.options)
    path = DATA / FILES[variant]
    sc = read_scenario(path)
    new = GameState(scenario_board(path, sc), rs.rules, 0)
    new.vars = initial_vars(rs.rules)
    set_up(new, sc, rs.rules, path.name)

    def pieces(state):
        return [(p.id, p.kind, p.owner, p.space, p.group, p.hits, p.status, p.carrier) for p in state.pieces.values()]

    assert pieces(new) == pieces(old)
    assert list(new.control.items()) == list(old.control.items())
    assert dict(new.resources) == dict(old.resources) and new.vars == old.vars and new.turn == old.turn
    assert [(s, new.ids_at(s)) for s in new.occupied()] == [(s, old.ids_at(s)) for s in old.occupied()]


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
    from rulesets.bulge import terrain

    oob = json.loads((DATA / "oob.json").read_text(encoding="utf-8"))
    army = {e["short"]: e["army"] for e in oob["setup"]["Axis"]}
    _, state = start("default")
    at = script().Placement(state.board, "default")
    for p in state.pieces.values():
        if not terrain.on_board(p.space):
            continue
        assert state.control[p.space] == p.owner, p
        if p.kind == "Truck":
            assert terrain.facts(state).roads[p.space], p
        if p.owner == "Axis" and p.group:
            assert at.army_section(p.space) == army[p.group], p


@pytest.mark.parametrize("variant", list(FILES))
def test_the_committed_files_are_what_the_script_writes(variant):
    mod = script()
    text = mod.dumps(mod.build(variant))
    assert text == (DATA / FILES[variant]).read_text(encoding="utf-8"), (
        f"{FILES[variant]} is stale: run python scripts/build_bulge_scenario.py")
    assert mod.dumps(mod.build(variant)) == text  # same input, same output
