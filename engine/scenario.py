"""Scenarios as data: a `scenario.json` gives a game's starting position on a map file.

    {"format": "wargame-scenario/1", "name": "meeting", "title": "...", "description": "...",
     "map": "map.json", "start": {"turn": 1},
     "control": {"A1": "Red"},  "control_from": "owner",   # or: each space's attrs[owner]
     "resources": {"Red": {"gold": 5}},
     "pieces": [{"kind": "Infantry", "owner": "Red", "space": "A1", "count": 2, "group": "", "marks": []}],
     "areas": [{"id": "offboard:Red", "name": "Red reserve"}],
     "vars": {"to_attack": "Red"},
     "options": {"turn_order": ["Red", "Blue"]}}

Off-board areas (reserves, reinforcement charts) are spaces with a `:` in their id; pieces
may start there. Everything is checked against the map and the rules: unknown unit types,
spaces and variables, and pieces of no power of the game, are refused with the file and the
entry named.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.mapfile import DataProblem, MapDataError, all_problems, pydantic_problem, read_json
from engine.state import GameState

FORMAT = "wargame-scenario/1"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PieceEntry(_Strict):
    kind: str
    owner: str
    space: str
    count: int = Field(default=1, ge=1, le=1000)
    group: str = ""
    hits: int = Field(default=0, ge=0, le=1000)
    marks: list[str] = Field(default_factory=list)


class AreaEntry(_Strict):
    id: str
    name: str = ""


class Start(_Strict):
    turn: int = Field(default=1, ge=1, le=10_000)


class ScenarioFile(_Strict):
    format: str = FORMAT
    name: str = Field(min_length=1, max_length=100)
    title: str = ""
    description: str = ""
    fidelity: str = "exact"
    map: str = "map.json"
    start: Start = Field(default_factory=Start)
    control: dict[str, str] = Field(default_factory=dict)
    control_from: str | None = None
    resources: dict[str, dict[str, int]] = Field(default_factory=dict)
    pieces: list[PieceEntry] = Field(default_factory=list, max_length=100_000)
    areas: list[AreaEntry] = Field(default_factory=list)
    vars: dict[str, Any] = Field(default_factory=dict)
    #: option values the scenario is played with unless the player gives others (its powers,
    #: their order and sides: `turn_order`, `power_sides`)
    options: dict[str, Any] = Field(default_factory=dict)


class ScenarioDataError(MapDataError):
    """A scenario file that does not add up (`problems`: each mistake, where several were
    looked for)."""


def read_scenario(path: Path) -> ScenarioFile:
    try:
        data = read_json(path)
    except MapDataError as exc:
        raise ScenarioDataError(str(exc)) from None
    try:
        sc = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        raise ScenarioDataError(pydantic_problem(path, exc, data)) from None
    if sc.format != FORMAT:
        raise ScenarioDataError(f"{path.name}: format `{sc.format}` is not `{FORMAT}`")
    return sc


def map_file(scenario_path: Path, map_name: str, roots: Mapping[str, Path]) -> Path:
    """The map file a scenario names: a file beside the scenario, or `RULESET:FILE`, a file of
    a ruleset its own extends (a mod's new scenario on its base's map)."""
    ruleset, sep, rest = map_name.partition(":")
    if not sep:
        return scenario_path.parent / map_name
    if ruleset not in roots:
        known = ", ".join(roots) or "none"
        raise ScenarioDataError(f"{scenario_path.name}: map `{map_name}`: `{ruleset}` is not a ruleset of this "
                                f"one's chain ({known})")
    root = roots[ruleset]
    path = root / rest
    if not path.resolve().is_relative_to(root.resolve()):
        raise ScenarioDataError(f"{scenario_path.name}: map `{map_name}`: outside the folder of `{ruleset}`")
    return path


def set_up(state: GameState, sc: ScenarioFile, rules: Any, name: str = "scenario", path: Path | None = None,
           powers: tuple[str, ...] = ()) -> None:
    """Put a scenario's starting position on a fresh state. A ScenarioDataError says every
    mistake of the file at once (an unknown unit type, a space the map lacks, a piece of no
    power of the game...), each with its entry (`pieces[3]`). `powers`: the game's powers
    (none: any owner is taken)."""
    from dsl.errors import did_you_mean
    from dsl.loader import coerce_option

    board = state.board
    areas = {a.id for a in sc.areas}
    problems: list[DataProblem] = []
    for a in sc.areas:          # what players read for an area (space_name): its name, not its id
        if a.name:
            board.titles.setdefault(a.id, a.name)

    def problem(entry: tuple[str | int, ...], text: str) -> None:
        problems.append(DataProblem(path, entry, f"{name}: {text}"))

    def placed(where: str, entry: tuple[str | int, ...], what: str) -> bool:
        if where in board or where in areas:
            return True
        hint = did_you_mean(where, [*board.spaces, *areas])
        problem(entry, f"{what}: no space or off-board area `{where}`" + (f" ({hint})" if hint else ""))
        return False

    state.turn = sc.start.turn
    if sc.control_from:
        for s in board.spaces.values():
            owner = s.get(sc.control_from)
            if owner:
                state.set_control(s.id, str(owner))
    for sid, owner in sc.control.items():
        if placed(sid, ("control", sid), f"control of `{sid}`"):
            state.set_control(sid, owner)
    for owner, stock in sc.resources.items():
        for res, amount in stock.items():
            if amount < 0:
                problem(("resources", owner, res), f"resources.{owner}.{res}: cannot start below 0")
            state.resources[(owner, res)] = amount
    units = getattr(rules, "units", {})
    for i, p in enumerate(sc.pieces):
        known = True
        if units and p.kind not in units:
            hint = did_you_mean(p.kind, units)
            problem(("pieces", i, "kind"), f"pieces[{i}]: unknown unit type `{p.kind}`" + (f" ({hint})" if hint else ""))
            known = False
        if powers and p.owner not in powers:
            hint = did_you_mean(p.owner, powers)
            problem(("pieces", i, "owner"), f"pieces[{i}] ({p.kind}): `{p.owner}` is not a power of the game "
                    f"({', '.join(powers)})" + (f" ({hint})" if hint else ""))
            known = False
        if placed(p.space, ("pieces", i, "space"), f"pieces[{i}] ({p.kind})") and known:
            for _ in range(p.count):
                piece = state.add_piece(p.kind, p.owner, p.space, group=p.group, hits=p.hits)
                if p.marks:
                    state.update(piece.id, status=frozenset(p.marks))
    declared = getattr(rules, "vars", {})
    for var, value in sc.vars.items():
        if var not in declared:
            hint = did_you_mean(var, declared)
            problem(("vars", var), f"vars: the rules declare no variable `{var}`" + (f" ({hint})" if hint else ""))
            continue
        try:
            value = coerce_option(declared[var].type, value)
        except ValueError as exc:
            problem(("vars", var), f"vars.{var}: the variable is `{declared[var].type}`: {exc}")
            continue
        state.vars[var] = tuple(value) if isinstance(value, list) else value
    all_problems(ScenarioDataError, problems)
