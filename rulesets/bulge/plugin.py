"""The Battle of the Bulge ruleset plugin: what it is, the board queries its rules files call,
its logic, the scenario checks and its computer player. Every rule is in rules/*.rules."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.board import Board
from engine.hookspecs import hookimpl
from engine.rules import structure_from_rules
from engine.ruleset import RulesetInfo, ScenarioInfo
from engine.state import GameState
from rulesets.bulge import scenario
from rulesets.bulge.logic import BulgeLogic

HERE = Path(__file__).parent
RULES = tuple(HERE / "rules" / f"{name}.rules" for name in (
    "units", "sequence", "board", "combat", "air", "movement", "upkeep", "setup", "reinforcements", "views", "priors"))

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
    data_files=(scenario.MAP_FILE, *scenario.SCENARIO_FILES, scenario.OOB_FILE),
    description="Hex map of the Ardennes, supply tokens, combat strips with twelve-sided dice.",
)


@hookimpl
def wargame_ruleset_info() -> RulesetInfo:
    return INFO


# -- board queries the rules files call often, in Python for speed (facts of a board that never
#    change are worked out once)
@lru_cache(maxsize=4)
def _board_facts(board: Board) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    roads = {h: tuple(n for n in board.neighbours(h) if board.link(h, n).get("road")
                      and not board.link(h, n).get("barrier")) for h in board.spaces}
    edges = {e: tuple(sorted(s.id for s in board.spaces.values() if e in (s.get("edge") or ()) and not s.get("partial")))
             for e in ("N", "S", "W", "E")}
    return roads, edges


def roads(state: GameState, h: str) -> list[str]:
    return list(_board_facts(state.board)[0][h])


def edge_hexes(state: GameState, edge: str) -> list[str]:
    return list(_board_facts(state.board)[1].get(edge, ()))


@lru_cache(maxsize=64)
def _hexes_with(board: Board, key: str) -> tuple[str, ...]:
    return tuple(s.id for s in board.spaces.values() if s.get(key))


def hexes_with(state: GameState, key: str) -> list[str]:
    """The board's hexes whose map entry sets `key` (true, non-zero, non-empty), in map order."""
    return list(_hexes_with(state.board, key))


def occupied(state: GameState, side: str) -> list[str]:
    """The board hexes holding the side's ground units (captured pieces are not theirs any more)."""
    units, spaces = state.rules.units, state.board.spaces
    # (the side's own pieces only, through the state's index by owner)
    return sorted({p.space for p in state.pieces_of(side) if p.space in spaces
                   and "ground" in units[p.kind].tags and "captured" not in p.status})


def chart_of(state: GameState, space: str) -> str:
    return scenario.chart_row(space)[0]


def chart_turn(state: GameState, space: str) -> int:
    return scenario.chart_row(space)[1]


def group_army(state: GameState, group: str) -> str:
    return scenario.armies().get(group, "")


def turn_name(state: GameState, turn: int) -> str:
    """The name the turn sequence gives a turn (`turns ... named [...]`), else its number."""
    sequence = getattr(state.rules, "sequence", None)
    return sequence.turn_name(turn) if sequence is not None else str(turn)


@hookimpl
def wargame_register(registry: Any, info: Any) -> None:
    registry.constant("Axis", "str", "Axis", doc="the Axis side (Germany)")
    registry.constant("Allies", "str", "Allies", doc="the Allied side (United States and United Kingdom)")
    P = registry.primitive
    P("roads", roads, board=True, params=[("hex", "str")], returns="list[str]", context=True,
      doc="the hexes a road leads to from a hex (over bridges, never across a river barrier)")
    P("edge_hexes", edge_hexes, board=True, params=[("edge", "str")], returns="list[str]", context=True,
      doc="the full hexes on one edge of the board (N, S, E, W)")
    P("turn_name", turn_name, params=[("turn", "int")], returns="str", context=True,
      doc="the name the turn sequence gives a turn (`turns ... named [...]`), else its number")
    P("hexes_with", hexes_with, params=[("key", "str")], returns="list[str]", context=True,
      doc="the hexes whose map entry sets a fact (true, non-zero, non-empty), in map order: `hexes_with(\"partial\")`")
    P("occupied", occupied, params=[("side", "str")], returns="list[str]", context=True,
      doc="the board hexes holding the side's ground units (not captured ones)")
    P("chart_of", chart_of, board=True, params=[("space", "str")], returns="str", context=True,
      doc="the reinforcement chart of a chart space (`chart:NAME:TURN`), \"\" for any other space")
    P("chart_turn", chart_turn, board=True, params=[("space", "str")], returns="int", context=True,
      doc="the turn of a reinforcement chart's row (`chart:NAME:TURN`), 0 for any other space")
    P("group_army", group_army, board=True, params=[("group", "str")], returns="str", context=True,
      doc="the army (a section of the board) a formation of the order of battle belongs to, \"\" if none")


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
