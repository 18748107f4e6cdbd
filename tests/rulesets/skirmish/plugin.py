"""Skirmish: the smallest complete ruleset, used by the engine's tests to exercise every hook.

Red and Blue squads on a 5 x 4 hex board; the side holding the hill at each upkeep scores.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.board import Board, Space
from engine.hexgrid import from_offset
from engine.hookspecs import hookimpl
from engine.rules import structure_from_rules
from engine.ruleset import GameLogic, Result
from engine.state import GameState

COLS, ROWS = 5, 4
HILL = "2,1"
SIDES = ("Red", "Blue")
CALLS: list[str] = []          # the hooks called, in order, for the tests to read


def make_board() -> Board:
    spaces = []
    for c in range(COLS):
        for r in range(ROWS):
            sid = f"{c},{r}"
            spaces.append(Space(sid, "Hill" if sid == HILL else sid, "hex", from_offset(c, r),
                                {"vp": 1} if sid == HILL else {}))
    return Board.hex_map(spaces)


class SkirmishLogic(GameLogic):
    def new_state(self, scenario: str, seed: int) -> GameState:
        state = GameState(make_board(), self.rules, seed)
        for sid in ("0,0", "0,2"):
            state.add_piece("Infantry", "Red", sid)
        state.add_piece("Tank", "Red", "0,1")
        for sid in ("4,0", "4,2"):
            state.add_piece("Infantry", "Blue", sid)
        state.add_piece("Tank", "Blue", "4,1")
        if scenario == "broken":
            state.add_piece("Infantry", "Red", "nowhere")
        for p in state.pieces.values():
            state.control[p.space] = p.owner
        return state

    def _side(self, state: GameState) -> str:
        step = self.structure.step(state)
        return "Red" if step.startswith("red") else "Blue"

    def decision(self, state: GameState) -> Decision | None:
        step = self.structure.step(state)
        flags = state.ns("skirmish")
        if step == "score" or flags.get("done_" + step):
            return None
        side = self._side(state)
        if step.endswith("attack"):
            options = [Action("attack", {"from": a, "to": b}, label=f"attack {b} from {a}")
                       for a, b in self._attacks(state, side)]
            return Decision(side, "attack", "Attack, or pass", options + [Action("pass", label="pass")])
        options = [Action("move", {"piece": p.id, "to": n}, label=f"{p.kind} #{p.id} {p.space} -> {n}")
                   for p, n in self._moves(state, side)]
        return Decision(side, "move", "Move a piece, or end movement", options + [Action("done", label="done")])

    def _attacks(self, state: GameState, side: str) -> list[tuple[str, str]]:
        out = []
        attacked = state.ns("skirmish").get("attacked", frozenset())
        for sid in sorted(set(p.space for p in state.pieces_of(side))):
            if sid in attacked:
                continue
            for n in state.board.neighbours(sid):
                if any(q.owner != side for q in state.pieces_at(n)):
                    out.append((sid, n))
        return out

    def _moves(self, state: GameState, side: str) -> list[tuple[Any, str]]:
        out = []
        for p in state.pieces_of(side):
            if p.marked("moved"):
                continue
            for n in state.board.neighbours(p.space):
                if not any(q.owner != side for q in state.pieces_at(n)):
                    out.append((p, n))
        return out

    def apply(self, state: GameState, action: Action) -> None:
        step = self.structure.step(state)
        side = self._side(state)
        flags = state.ns("skirmish")
        if action.kind in ("pass", "done"):
            expected = "pass" if step.endswith("attack") else "done"
            if action.kind != expected or step == "score":
                raise IllegalAction(f"`{action.kind}` is not an answer during {step.replace('_', ' ')}")
            flags["done_" + step] = True
            return
        if action.kind == "attack":
            if not step.endswith("attack"):
                raise IllegalAction("attacks are made in the combat phase")
            src, dst = action.get("from"), action.get("to")
            if (src, dst) not in self._attacks(state, side):
                raise IllegalAction(f"{side} cannot attack {dst} from {src}")
            attackers = [p for p in state.pieces_at(src) if p.owner == side]
            defenders = [p for p in state.pieces_at(dst) if p.owner != side]
            self.rules.procedure("attack")(state, attackers, defenders)
            flags["attacked"] = flags.get("attacked", frozenset()) | {src}
            return
        if action.kind == "move":
            if not step.endswith("move"):
                raise IllegalAction("pieces move in the movement phase")
            pid, dst = action.get("piece"), action.get("to")
            piece = state.piece(pid)
            if piece.owner != side:
                raise IllegalAction(f"piece #{pid} is not {side}'s")
            if (piece, dst) not in self._moves(state, side):
                raise IllegalAction(f"{piece.kind} #{pid} cannot move from {piece.space} to {dst}")
            state.update(pid, space=dst, status=piece.status | {"moved"})
            state.control[dst] = side
            return
        raise IllegalAction(f"unknown action `{action.kind}`")

    def result(self, state: GameState) -> Result | None:
        win = self.rules.options["win_vp"]
        for side in SIDES:
            if state.resource(side, "vp") >= win:
                return Result(side, f"{side} reached {win} VP", self._score(state))
        for side in SIDES:
            if not state.pieces_of(side):
                other = SIDES[1 - SIDES.index(side)]
                return Result(other, f"{side} has no pieces left", self._score(state))
        return None

    def final_result(self, state: GameState) -> Result:
        red, blue = state.resource("Red", "vp"), state.resource("Blue", "vp")
        winner = "Red" if red > blue else "Blue" if blue > red else None
        return Result(winner, "more VP after the last turn" if winner else "equal VP", self._score(state))

    def _score(self, state: GameState) -> dict[str, int]:
        return {s: state.resource(s, "vp") for s in SIDES}

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"spaces": len(state.board), "pieces": {s: len(state.pieces_of(s)) for s in SIDES}}


class GreedyPlayer:
    """Attacks whenever it can, otherwise moves toward the hill."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, ruleset: Any, state: GameState, decision: Decision) -> Action:
        return decision.options[0]


@hookimpl
def wargame_register(registry: Any, info: Any) -> None:
    CALLS.append("register")
    registry.constant("Red", "str", "Red")
    registry.constant("Blue", "str", "Blue")
    registry.primitive("hill", lambda state: HILL, params=[], returns="str", context=True, doc="the hill's space")


@hookimpl
def wargame_logic(rules: Any, info: Any) -> GameLogic:
    CALLS.append("logic")
    return SkirmishLogic(rules, info, structure_from_rules(rules))


@hookimpl
def wargame_check_scenario(state: GameState, rules: Any, scenario: str) -> list[str]:
    CALLS.append("check_scenario")
    return [f"piece #{p.id} stands in `{p.space}`, which is not on the board"
            for p in state.pieces.values() if p.space not in state.board]


@hookimpl
def wargame_turn_start(state: GameState, rules: Any, turn: int) -> None:
    CALLS.append(f"turn_start {turn}")


@hookimpl
def wargame_phase_start(state: GameState, rules: Any, phase: str) -> None:
    CALLS.append(f"phase_start {phase}")
    state.emit("hook", name=f"phase_start {phase}", by="skirmish")
    flags = state.ns("skirmish")
    flags.clear()
    if phase == "movement":
        for p in list(state.pieces.values()):
            if p.status:
                state.update(p.id, status=frozenset())


@hookimpl
def wargame_phase_end(state: GameState, rules: Any, phase: str) -> None:
    CALLS.append(f"phase_end {phase}")


@hookimpl
def wargame_turn_end(state: GameState, rules: Any, turn: int) -> None:
    CALLS.append(f"turn_end {turn}")


@hookimpl
def wargame_game_end(state: GameState, rules: Any) -> None:
    CALLS.append("game_end")


@hookimpl
def wargame_players(info: Any) -> dict[str, Any]:
    return {"greedy": GreedyPlayer}
