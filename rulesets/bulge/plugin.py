"""The Battle of the Bulge ruleset plugin: what it is, the primitives its rules files may
call, its logic, the scenario checks and its computer players."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.hexgrid import EASTERN
from engine.hookspecs import hookimpl
from engine.rules import structure_from_rules
from engine.ruleset import RulesetInfo, ScenarioInfo
from engine.state import GameState
from rulesets.bulge import mapdata, scenario, terrain
from rulesets.bulge.logic import BulgeLogic

HERE = Path(__file__).parent
RULES = tuple(HERE / "rules" / name for name in ("units.rules", "sequence.rules", "board.rules", "combat.rules",
                                                 "air.rules", "movement.rules", "upkeep.rules", "setup.rules",
                                                 "reinforcements.rules"))

INFO = RulesetInfo(
    name="bulge",
    title="Axis & Allies: Battle of the Bulge",
    root=HERE,
    rules_files=RULES,
    scenarios=(ScenarioInfo(
        "ardennes-1944", "The Ardennes offensive, 16 December 1944",
        "8 turns, Red to White. The Axis wins at once with 24 VP; the Allies win by holding to the end. "
        "The board is a designer's approximation from the historical record, not the printed map.",
        fidelity="approximate", path=scenario.SCENARIO_FILE),),
    version="1",
    sides=("Axis", "Allies"),
    data_files=(mapdata.MAP_FILE, *scenario.SCENARIO_FILES, scenario.OOB_FILE),
    description="Hex map of the Ardennes, supply tokens, combat strips with twelve-sided dice.",
)


@hookimpl
def wargame_ruleset_info() -> RulesetInfo:
    return INFO


# -- primitives for the rules files -------------------------------------------------------------------
def add_supply(state: GameState, side: str, n: int) -> None:
    for _ in range(n):
        state.add_piece("Supply", side, scenario.OFFBOARD[side])
    state.emit("income", side=side, amount=n)


def has_units(state: GameState, h: str, side: str, combat_only: bool) -> bool:
    kinds = terrain.COMBAT if combat_only else terrain.GROUND
    return any(p.owner == side and p.kind in kinds and "captured" not in p.status for p in state.pieces_at(h))


def occupied(state: GameState, side: str) -> list[str]:
    """Board hexes holding `side`'s ground units (captured pieces are not theirs any more)."""
    return sorted({p.space for p in state.pieces.values() if p.owner == side and p.kind in terrain.GROUND
                   and terrain.on_board(p.space) and "captured" not in p.status})


def eastern(state: GameState, h: str) -> list[str]:
    """The hexes on the three eastern sides (NE, E, SE) of a hex, toward Germany."""
    board = state.board
    return [n for n in board.neighbours(h) if board.direction(h, n) in EASTERN and not board.space(n).get("partial")]


def is_town(state: GameState, h: str) -> bool:
    return terrain.is_town(state, h)


def towns(state: GameState) -> list[str]:
    return sorted(s.id for s in state.board.spaces.values() if s.get("vp"))


def roads(state: GameState, h: str) -> list[str]:
    """The hexes a road leads to from a hex, over a bridge where it crosses a river; never
    across a river barrier (a board fact, worked out once per board)."""
    return list(terrain.facts(state).road_links[h])


def edges(state: GameState, h: str) -> list[str]:
    """The board edges (N, S, E, W) a hex lies on."""
    return list(state.board.space(h).get("edge") or ())


def chart_of(state: GameState, space: str) -> str:
    """The reinforcement chart a space of the form `chart:NAME:TURN` belongs to, "" for any other space."""
    where = scenario.parse_chart_space(space)
    return where[0] if where else ""


def chart_turn(state: GameState, space: str) -> int:
    """The turn of a reinforcement chart's row (`chart:NAME:TURN`), 0 for any other space."""
    where = scenario.parse_chart_space(space)
    return where[1] if where else 0


def edge_hexes(state: GameState, edge: str) -> list[str]:
    """The full hexes on one edge of the board (N, S, E or W)."""
    return list(terrain.facts(state).edge_hexes.get(edge, ()))


def group_army(state: GameState, group: str) -> str:
    """The army (section of the board) a formation of the order of battle belongs to, "" if none."""
    return _armies().get(group, "")


@lru_cache(maxsize=1)
def _armies() -> dict[str, str]:
    oob = scenario.load_oob()
    return {e["short"]: e["army"] for chart in oob["charts"].values() for e in chart if e.get("army")} | \
        {e["short"]: e["army"] for side in oob["setup"].values() for e in side if e.get("army")}


def set_control(state: GameState, h: str, side: str) -> None:
    if state.control.get(h) != side:
        state.control[h] = side
        state.emit("control", hex=h, side=side)


@hookimpl
def wargame_register(registry: Any, info: Any) -> None:
    registry.constant("Axis", "str", "Axis", doc="the Axis side (Germany)")
    registry.constant("Allies", "str", "Allies", doc="the Allied side (United States and United Kingdom)")
    P = registry.primitive
    P("add_supply", add_supply, params=[("side", "str"), ("n", "int")], context=True,
      doc="put n new supply tokens in a side's off-board area")
    P("has_units", has_units, params=[("hex", "str"), ("side", "str"), ("combat_only", "bool")], returns="bool",
      context=True, doc="does the hex hold the side's ground units (only Inf/Tank/Art if combat_only)?")
    P("occupied", occupied, params=[("side", "str")], returns="list[str]", context=True,
      doc="the hexes holding the side's ground units")
    P("eastern", eastern, params=[("hex", "str")], returns="list[str]", context=True,
      doc="the hexes on a hex's NE, E and SE sides")
    P("is_town", is_town, params=[("hex", "str")], returns="bool", context=True, doc="is there a city or town?")
    P("towns", towns, returns="list[str]", context=True, doc="the hexes of the towns that carry VP")
    P("roads", roads, params=[("hex", "str")], returns="list[str]", context=True,
      doc="the hexes a road leads to from a hex (over bridges, never across a river barrier)")
    P("edges", edges, params=[("hex", "str")], returns="list[str]", context=True,
      doc="the board edges (N, S, E, W) a hex lies on")
    P("chart_of", chart_of, params=[("space", "str")], returns="str", context=True,
      doc="the reinforcement chart of a chart space (`chart:NAME:TURN`), \"\" for any other space")
    P("chart_turn", chart_turn, params=[("space", "str")], returns="int", context=True,
      doc="the turn of a reinforcement chart's row (`chart:NAME:TURN`), 0 for any other space")
    P("edge_hexes", edge_hexes, params=[("edge", "str")], returns="list[str]", context=True,
      doc="the full hexes on one edge of the board (N, S, E, W)")
    P("group_army", group_army, params=[("group", "str")], returns="str", context=True,
      doc="the army (a section of the board) a formation of the order of battle belongs to, \"\" if none")
    P("set_control", set_control, params=[("hex", "str"), ("side", "str")], context=True,
      doc="put a hex on a side's side of the front line")


@hookimpl
def wargame_logic(rules: Any, info: Any) -> BulgeLogic:
    return BulgeLogic(rules, info, structure_from_rules(rules))


@hookimpl
def wargame_check_scenario(state: GameState, rules: Any, scenario: str) -> list[str]:
    from rulesets.bulge.checks import scenario_problems

    return scenario_problems(state, rules)


@hookimpl
def wargame_invariants(ruleset: Any, state: GameState, previous: GameState | None) -> list[str]:
    from rulesets.bulge.checks import state_problems

    return state_problems(ruleset, state, previous)


@hookimpl
def wargame_players(info: Any) -> dict[str, Any]:
    from rulesets.bulge.ai import HeuristicPlayer

    return {"heuristic": HeuristicPlayer}
