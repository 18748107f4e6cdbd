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

    def bound(self, name: str) -> tuple[Any, ...]:
        return ()


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


# -- a game where the computer answers within the person's step ------------------------------
class DuelLogic(GameLogic):
    """Axis (a person) moves pieces one at a time; after each move Allied (the computer)
    must answer at once, in the same step, without dice: the case where undo must take back
    the computer's answer together with the person's move. `roll` rolls a die (no undo past
    it); `done` ends the step; two turns."""

    def new_state(self, scenario: str, seed: int) -> GameState:
        state = GameState(make_board(), self.rules, seed)
        for c in range(COLS):
            for r in range(ROWS):
                state.control[sid(c, r)] = "Axis" if c >= 6 else "Allied"
        state.add_piece("Infantry", "Axis", "7,2")
        state.add_piece("Tank", "Axis", "8,4")
        state.add_piece("Infantry", "Allied", "3,4")
        return state

    def decision(self, state: GameState) -> Decision | None:
        flags = state.ns("duel")
        if flags.get("done"):
            return None
        pending = flags.get("pending")
        if pending is not None:
            options = [Action("hold", {"piece": pending}, label=f"hold against #{pending}"),
                       Action("fall_back", {"piece": pending}, label=f"fall back before #{pending}")]
            return Decision("Allied", "answer", f"Axis piece #{pending} moved: hold or fall back?", options,
                            context={"hex": state.piece(pending).space})
        options = [Action("move", {"piece": p.id, "to": n}, label=f"move {p.kind} #{p.id} from {p.space} to {n}")
                   for p in state.pieces_of("Axis") for n in state.board.neighbours(p.space)]
        finish = Action("done", label="end the orders")
        return Decision("Axis", "orders", "Give orders: move, roll, or end the orders",
                        options + [Action("roll", label="roll a die for the weather"), finish], finish=finish)

    def apply(self, state: GameState, action: Action) -> None:
        flags = state.ns("duel")
        if flags.get("pending") is not None:
            if action.kind not in ("hold", "fall_back"):
                raise IllegalAction("Allied must answer the move first")
            flags["answers"] = flags.get("answers", ()) + (action.kind,)
            flags["pending"] = None
            return
        if action.kind == "done":
            flags["done"] = True
        elif action.kind == "roll":
            state.roll(1, 6, "the weather")
        elif action.kind == "move":
            piece = state.piece(action["piece"])
            if piece.owner != "Axis" or action["to"] not in state.board.neighbours(piece.space):
                raise IllegalAction(f"#{piece.id} cannot move to {action['to']}")
            state.move(piece.id, action["to"])
            state.emit("move", piece=piece.id, kind=piece.kind, owner=piece.owner, src=piece.space, to=action["to"])
            flags["pending"] = piece.id
        else:
            raise IllegalAction(f"unknown order `{action.kind}`")

    def on_boundary(self, state: GameState, name: str, args: dict[str, Any]) -> None:
        if name == "turn_start":
            state.ns("duel").clear()


def load_duel() -> LoadedRuleset:
    info = RulesetInfo(
        name="duel", title="Duel: the computer answers every move", root=Path("."), rules_files=(),
        scenarios=(ScenarioInfo("ardennes", "A corner of the Ardennes"),), sides=("Axis", "Allied"))
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    rules = _Rules()
    structure = TurnStructure(phases=(PhaseSpec("orders", ("axis_orders",)),), powers=("Axis", "Allied"), turns=2)
    return LoadedRuleset(info=info, chain=(info,), plugins=pm, rules=rules,
                         logic=DuelLogic(rules, info, structure), options={})


class FirstOption:
    """A computer player that always takes the first option (predictable in tests)."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        self.calls = 0

    def choose(self, ruleset: Any, state: Any, decision: Decision) -> Action:
        self.calls += 1
        return decision.options[0]
