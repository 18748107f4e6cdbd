"""A small made-up ruleset whose map has everything the window draws: towns with VP, roads,
a river with a bridge, partial hexes at the edge, three sides. Pure Python (no rules file),
so the map drawing is tested whatever state the rules language is in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pluggy

from engine import hookspecs
from engine.actions import Action, Decision, IllegalAction
from engine.board import Board, Space
from engine.hexgrid import Hex, from_offset, line, neighbours, to_offset
from engine.ruleset import GameLogic, LoadedRuleset, RulesetInfo, ScenarioInfo
from engine.sequence import PhaseSpec, TurnStructure
from engine.state import GameState

COLS, ROWS = 12, 9
TOWNS = {"3,4": ("Bastogne", 2), "7,2": ("St. Vith", 1), "9,6": ("Marche", 0)}
ROADS = [("0,4", "3,4", "7,2", "11,1"), ("3,4", "6,5", "9,6", "11,8")]
RIVER_WEST = 5          # the river runs between columns 5 and 6


def sid(c: int, r: int) -> str:
    return f"{c},{r}"


def _hex(space: str) -> Hex:
    c, r = space.split(",")
    return from_offset(int(c), int(r))


def _sid(h: Hex) -> str:
    return sid(*to_offset(h))


def make_board() -> Board:
    spaces = []
    for c in range(COLS):
        for r in range(ROWS):
            attrs: dict[str, Any] = {}
            name = sid(c, r)
            if name in TOWNS:
                town, vp = TOWNS[name]
                attrs["town"] = town
                if vp:
                    attrs["vp"] = vp
            if c == 0 or r == 0:
                attrs["partial"] = True
            spaces.append(Space(name, TOWNS.get(name, (name,))[0], "hex", from_offset(c, r), attrs))
    links: dict[frozenset[str], dict[str, Any]] = {}
    for waypoints in ROADS:
        path: list[Hex] = []
        for a, b in zip(waypoints, waypoints[1:], strict=False):
            path += line(_hex(a), _hex(b))[(1 if path else 0):]
        for a, b in zip(path, path[1:], strict=False):
            links[frozenset((_sid(a), _sid(b)))] = {"road": True}
    for sp in spaces:
        c, _ = to_offset(sp.hex)
        if c != RIVER_WEST:
            continue
        for n in neighbours(sp.hex):
            if to_offset(n)[0] == RIVER_WEST + 1 and 0 <= to_offset(n)[1] < ROWS:
                links.setdefault(frozenset((sp.id, _sid(n))), {}).update({"river": "Our", "barrier": True})
    for attrs in links.values():
        if attrs.get("road") and attrs.get("river"):
            attrs["bridge"] = True      # where a road crosses the river
    return Board.hex_map(spaces, links)


class DemoLogic(GameLogic):
    def new_state(self, scenario: str, seed: int) -> GameState:
        state = GameState(make_board(), self.rules, seed)
        for c in range(COLS):
            for r in range(ROWS):
                if c >= 7:
                    state.control[sid(c, r)] = "Axis"
                elif c <= 3:
                    state.control[sid(c, r)] = "Allied"
        state.control["9,8"] = "Neutral"
        state.control["10,8"] = "Neutral"
        for kind in ("Infantry", "Infantry", "Tank"):
            state.add_piece(kind, "Axis", "7,2")
        state.add_piece("Artillery", "Axis", "8,4")
        state.add_piece("Infantry", "Allied", "3,4")
        state.add_piece("Tank", "Allied", "3,4")
        state.add_piece("Infantry", "Allied", "6,5")
        state.add_piece("Infantry", "Axis", "6,5")
        state.gain("Axis", "vp", 1)
        state.gain("Allied", "vp", 2)
        return state

    def decision(self, state: GameState) -> Decision | None:
        if state.ns("demo").get("done"):
            return None
        options = [Action("move", {"piece": p.id, "to": n}, label=f"{p.kind} #{p.id} {p.space} -> {n}")
                   for p in state.pieces_of("Axis") for n in state.board.neighbours(p.space)]
        return Decision("Axis", "move", "Move a piece, or end the turn", options + [Action("done", label="done")])

    def apply(self, state: GameState, action: Action) -> None:
        if action.kind == "done":
            state.ns("demo")["done"] = True
            return
        pid, to = action.get("piece"), action.get("to")
        piece = state.piece(pid)
        if to not in state.board.neighbours(piece.space):
            raise IllegalAction(f"{piece.kind} #{pid} cannot reach {to}")
        state.move(pid, to)


class _Rules:
    fingerprint = "demo"
    options: dict[str, Any] = {}

    def handlers(self, name: str) -> list[Any]:
        return []


def load_demo() -> LoadedRuleset:
    info = RulesetInfo(
        name="demo", title="Demo: roads, rivers and towns", root=Path("."), rules_files=(),
        scenarios=(ScenarioInfo("ardennes", "A corner of the Ardennes", fidelity="approximate"),),
        sides=("Axis", "Allied", "Neutral"))
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    rules = _Rules()
    structure = TurnStructure(phases=(PhaseSpec("movement", ("axis_move",)),), powers=("Axis", "Allied"), turns=1)
    return LoadedRuleset(info=info, chain=(info,), plugins=pm, rules=rules,
                         logic=DemoLogic(rules, info, structure), options={})
