"""Reinforcements (RB §3.3 "Reinforcements"): units from the charts, trucks from off the
board and their cargo, the blitz of a division from off the board. Still Python until they
move to a rules file; what came on moves, and on-board trucks load, by the moves declared in
rules/movement.rules (the side's `*_move` step), so both steps play by the same rules.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.pieces import Piece
from engine.state import GameState
from rulesets.bulge import scenario, terrain
from rulesets.bulge.common import act, flag, hex_name, set_flag, unit_name
from rulesets.bulge.terrain import COMBAT, enemy

CARGO = frozenset(("Infantry", "Artillery", "Supply"))


def side_of_step(step: str) -> str:
    return "Axis" if step.startswith("axis") else "Allies"


def finished(state: GameState, step: str) -> bool:
    return step in flag(state, "done_steps", frozenset())


def finish(state: GameState, step: str) -> None:
    set_flag(state, "done_steps", flag(state, "done_steps", frozenset()) | {step})


def capacity(state: GameState) -> int:
    return int(state.rules.units["Truck"].capacity)


def _cargo_count(state: GameState, truck: Piece) -> int:
    return sum(1 for p in state.pieces.values() if p.carrier == truck.id)


def cargo_of(state: GameState, truck: Piece) -> list[Piece]:
    return [p for p in state.pieces.values() if p.carrier == truck.id]


# -- what came on moves by the rules of the movement step ----------------------------------------------
def begin(logic: Any, state: GameState, step: str) -> None:
    """The enemy does not move meanwhile: what stops a move (its zones of control, its towns,
    the hexes it closes) is worked out once for the step (rules/movement.rules)."""
    logic.rules.procedure("remember_enemy")(state, side_of_step(step))


def _rules_move(logic: Any, side: str, name: str) -> Any:
    return logic.rules.steps[("axis" if side == "Axis" else "allies") + "_move"].move(name)


def entered_moves(logic: Any, state: GameState, side: str) -> list[Action]:
    """The moves of the pieces that came on this step (rules/movement.rules)."""
    rules = logic.rules
    label = _rules_move(logic, side, "move").label
    options = []
    for group in rules.procedure("move_groups")(state, side):
        if not all("entered" in p.status for p in group):
            continue
        for to in rules.procedure("group_destinations")(state, group):
            options.append(Action("move", {"pieces": tuple(p.id for p in group), "to": to},
                                  labeler=_labeler(label, state, group, to)))
    # a truck that came on keeps loading as it goes
    label = _rules_move(logic, side, "load").label
    for truck in rules.procedure("trucks")(state, side):
        if "entered" in truck.status:
            for piece in rules.procedure("loadable")(state, truck):
                options.append(Action("load", {"truck": truck.id, "piece": piece.id},
                                      labeler=_labeler(label, state, truck, piece)))
    return options


def _labeler(label: Any, state: GameState, *args: Any) -> Any:
    return lambda: str(label(state, *args))


def _play_rules_move(logic: Any, state: GameState, side: str, name: str, args: list[Any]) -> None:
    mv = _rules_move(logic, side, name)
    reason = mv.check(state, *args)
    if reason is not None:
        raise IllegalAction(str(reason))
    mv.do(state, *args)


# -- reinforcements ---------------------------------------------------------------------------------
def available(state: GameState, side: str) -> list[Piece]:
    """Chart pieces whose turn has come, and the side's off-board pieces."""
    out = []
    for p in state.pieces_of(side):
        chart = scenario.parse_chart_space(p.space)
        if chart and chart[1] <= state.turn:
            out.append(p)
    return out


def offboard_trucks(state: GameState, side: str) -> list[Piece]:
    return [p for p in state.pieces_at(scenario.OFFBOARD[side]) if p.kind == "Truck"]


def decide_reinforce(logic: Any, state: GameState, step: str) -> Decision | None:
    side = side_of_step(step)
    if finished(state, step):
        return None
    options: list[Action] = []
    army_of = _army_of_group()
    seen: set[tuple[str, str, str]] = set()
    for p in available(state, side):
        if p.kind not in COMBAT or p.carrier is not None:
            continue
        chart, _ = scenario.parse_chart_space(p.space)  # type: ignore[misc]
        key = (p.group, p.kind, chart)
        if key in seen:
            continue
        seen.add(key)
        for h in terrain.entry_hexes(state, side, chart, army_of.get(p.group)):
            options.append(act("place", f"bring {p.kind} #{p.id} ({p.group}) on at {hex_name(state, h)}",
                               piece=p.id, to=h))
    trucks = offboard_trucks(state, side)
    for truck in trucks[:1]:        # off-board trucks are alike: offer loading the first
        if _cargo_count(state, truck) < capacity(state):
            seen_kinds: set[tuple[str, str]] = set()
            for p in available(state, side) + [q for q in state.pieces_at(scenario.OFFBOARD[side]) if q.kind == "Supply"]:
                if p.kind in CARGO and p.carrier is None and (p.group, p.kind) not in seen_kinds:
                    seen_kinds.add((p.group, p.kind))
                    options.append(act("load", f"load {unit_name(p)} onto an off-board truck", truck=truck.id, piece=p.id))
    for truck in trucks:
        for h in terrain.truck_entries(state, side):
            options.append(act("enter", f"bring {unit_name(truck)} ({_cargo_count(state, truck)} aboard) on at "
                                        f"{hex_name(state, h)}", truck=truck.id, to=h))
        break
    if any(q.kind == "Supply" for q in state.pieces_at(scenario.OFFBOARD[side])):
        for group in sorted({p.group for p in available(state, side) if p.kind == "Tank" and "blitz" not in p.status}):
            options.append(act("blitz_division", f"blitz the Tanks of {group} (1 off-board supply)", group=group))
    options += entered_moves(logic, state, side)
    if not options:
        return None
    options.append(act("done", "done with reinforcements"))
    return Decision(side, "reinforce", "Bring on reinforcements (free) and trucks from off the board", options)


def _army_of_group() -> dict[str, str]:
    oob = scenario.load_oob()
    return {e["short"]: e.get("army") for e in oob["charts"].get("Axis", ())}


def apply_reinforce(logic: Any, state: GameState, step: str, action: Action) -> None:
    side = side_of_step(step)
    kind = action.kind
    if kind == "done":
        return finish(state, step)
    if kind == "place":
        p = state.piece(action.get("piece"))
        to = action.get("to")
        chart = scenario.parse_chart_space(p.space)
        if p.owner != side or chart is None or chart[1] > state.turn or p.kind not in COMBAT or p.carrier is not None:
            raise IllegalAction(f"{unit_name(p)} is not a reinforcement {side} may bring on now")
        allowed = terrain.entry_hexes(state, side, chart[0], _army_of_group().get(p.group))
        if to not in allowed:
            raise IllegalAction(f"{unit_name(p)} enters on a full {chart[0]} edge hex that is not enemy-held"
                                + (f" in the {_army_of_group().get(p.group)} section" if side == "Axis" else ""))
        enemy_zoc = terrain.zoc(state, enemy(side))
        marks = {"entered"}
        road_hex = any(terrain.road(state, to, n) for n in state.board.neighbours(to))
        if p.kind == "Tank" and road_hex and to not in enemy_zoc:
            marks.add("road_only")          # Tanks placed on a road keep moving along it
        else:
            marks.add("moved")
        if p.kind == "Tank" and p.group in flag(state, "blitz_groups", frozenset()):
            marks.add("blitz")
        state.update(p.id, space=to, status=p.status | marks)
        state.emit("reinforce", piece=p.id, kind=p.kind, owner=side, to=to, group=p.group)
        return
    if kind == "load":
        truck = state.piece(action.get("truck"))
        cargo = state.piece(action.get("piece"))
        if terrain.on_board(truck.space) and "entered" in truck.status:
            # a truck that came on keeps loading as it goes
            return _play_rules_move(logic, state, side, "load", [truck, cargo])
        if truck.space != scenario.OFFBOARD[side] or truck.kind != "Truck":
            raise IllegalAction("reinforcements are loaded onto off-board trucks")
        ok = cargo.kind in CARGO and cargo.owner == side and cargo.carrier is None and (
            cargo in available(state, side) or cargo.space == scenario.OFFBOARD[side])
        if not ok:
            raise IllegalAction(f"{unit_name(cargo)} cannot be loaded: off-board trucks carry available "
                                "Infantry, Artillery and off-board supply")
        if _cargo_count(state, truck) >= capacity(state):
            raise IllegalAction(f"{unit_name(truck)} is full ({capacity(state)} spaces)")
        # the cargo stays on its chart until the truck comes on; unloaded off-board, it is still there
        state.update(cargo.id, carrier=truck.id, status=cargo.status | {"moved", "entered"})
        return
    if kind == "enter":
        truck = state.piece(action.get("truck"))
        to = action.get("to")
        if truck.space != scenario.OFFBOARD[side] or truck.kind != "Truck":
            raise IllegalAction(f"{unit_name(truck)} is not an off-board truck of {side}")
        if to not in terrain.truck_entries(state, side):
            raise IllegalAction("trucks enter on a road hex of their own board edge that their side controls")
        enemy_zoc = terrain.zoc(state, enemy(side))
        stop = to in enemy_zoc
        state.update(truck.id, space=to, status=truck.status | {"entered"} | ({"stopped"} if stop else set()))
        for c in cargo_of(state, truck):
            state.move(c.id, to)
        state.emit("reinforce", piece=truck.id, kind="Truck", owner=side, to=to, group=truck.group)
        return
    if kind == "blitz_division":
        group = action.get("group")
        tanks = [p for p in available(state, side) if p.kind == "Tank" and p.group == group]
        if not tanks:
            raise IllegalAction(f"no Tanks of {group} wait on the charts")
        tokens = [q for q in state.pieces_at(scenario.OFFBOARD[side]) if q.kind == "Supply" and q.carrier is None]
        if not tokens:
            raise IllegalAction("blitzing a division from off the board costs 1 off-board supply token")
        state.remove(tokens[0].id)
        set_flag(state, "blitz_groups", flag(state, "blitz_groups", frozenset()) | {group})
        state.emit("pay", side=side, hex="off-board", amount=1, what=f"blitz of {group}")
        return
    if kind == "move":
        pids, to = action.get("pieces") or (), action.get("to")
        if not isinstance(pids, (list, tuple)) or not isinstance(to, str):
            raise IllegalAction("a move names its pieces (a list of piece numbers) and the hex they go to")
        pieces = [state.piece(pid) for pid in pids]
        for p in pieces:
            if "entered" not in p.status:
                raise IllegalAction("in this step only pieces that just came on may move")
        return _play_rules_move(logic, state, side, "move", [pieces, to])
    raise IllegalAction(f"`{kind}` is not a reinforcement action")
