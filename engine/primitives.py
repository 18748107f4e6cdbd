"""The primitives every ruleset's rules files can call: dice, pieces, spaces, resources and
the game log. A ruleset adds its own through the `wargame_register` hook.

Each primitive receives the game state as its first argument (the context the engine passes
when it runs a procedure or a rule); rules files never see the state itself.
"""

from __future__ import annotations

from typing import Any

from engine.actions import IllegalAction
from engine.pieces import Piece
from engine.state import GameState

UNIT_FIELDS = {"id": "int", "kind": "str", "owner": "str", "space": "str", "hits": "int", "group": "str"}

#: engine events rules files can bind to with `rule NAME on EVENT(...)`
EVENTS: dict[str, list[tuple[str, str]]] = {
    "turn_start": [("turn", "int")],
    "turn_end": [("turn", "int")],
    "power_start": [("turn", "int"), ("power", "str")],
    "power_end": [("turn", "int"), ("power", "str")],
    "phase_start": [("phase", "str")],
    "phase_end": [("phase", "str")],
    "phase_skipped": [("phase", "str")],
    "step_start": [("phase", "str"), ("step", "str")],
    "step_end": [("phase", "str"), ("step", "str")],
    "game_end": [],
}


def roll(state: GameState, n: int, sides: int) -> list[int]:
    return state.roll(n, sides)


def pieces_at(state: GameState, space: str) -> list[Piece]:
    return state.pieces_at(space)


def destroy(state: GameState, unit: Piece) -> None:
    state.remove(unit.id)
    state.emit("destroyed", piece=unit.id, kind=unit.kind, owner=unit.owner, space=unit.space)


def move_to(state: GameState, unit: Piece, space: str) -> None:
    state.move(unit.id, space)


def controller(state: GameState, space: str) -> str:
    return state.control.get(space, "")


def resource(state: GameState, owner: str, name: str) -> int:
    return state.resource(owner, name)


def gain(state: GameState, owner: str, name: str, amount: int) -> None:
    state.gain(owner, name, amount)
    state.emit("gain", owner=owner, resource=name, amount=amount)


def pay(state: GameState, owner: str, name: str, amount: int) -> None:
    if state.resource(owner, name) < amount:
        raise IllegalAction(f"{owner} cannot pay {amount} {name}: only {state.resource(owner, name)} left")
    state.spend(owner, name, amount)
    state.emit("pay", owner=owner, resource=name, amount=amount)


def transfer(state: GameState, source: str, target: str, name: str, amount: int) -> int:
    """Move up to `amount` of a resource between owners; returns what actually moved."""
    moved = max(0, min(amount, state.resource(source, name)))
    state.spend(source, name, moved)
    state.gain(target, name, moved)
    state.emit("transfer", source=source, target=target, resource=name, amount=moved)
    return moved


def neighbours(state: GameState, space: str) -> list[str]:
    return list(state.board.neighbours(space))


def space_int(state: GameState, space: str, key: str) -> int:
    return int(state.board.space(space).get(key, 0) or 0)


def space_str(state: GameState, space: str, key: str) -> str:
    return str(state.board.space(space).get(key, "") or "")


def space_flag(state: GameState, space: str, key: str) -> bool:
    return bool(state.board.space(space).get(key, False))


def turn(state: GameState) -> int:
    return state.turn


def note(state: GameState, message: str) -> None:
    state.emit("note", message=message)


def register_core(registry: Any) -> None:
    """Add the engine's record types, events and primitives to a rules-language registry."""
    registry.record("Unit", fields=UNIT_FIELDS, unit_stats=True)
    for name, params in EVENTS.items():
        registry.event(name, params=params)
    P = registry.primitive
    P("roll", roll, params=[("n", "int"), ("sides", "int")], returns="list[int]", context=True,
      doc="roll n dice with the given number of sides; every roll is logged")
    P("pieces_at", pieces_at, params=[("space", "str")], returns="list[Unit]", context=True,
      doc="the pieces in a space or off-board area")
    P("destroy", destroy, params=[("unit", "Unit")], returns="none", context=True, doc="remove a piece from the game")
    P("move_to", move_to, params=[("unit", "Unit"), ("space", "str")], returns="none", context=True,
      doc="put a piece in another space (no rules checked: the caller's rules decide)")
    P("controller", controller, params=[("space", "str")], returns="str", context=True,
      doc="the side or power that controls a space, or \"\"")
    P("resource", resource, params=[("owner", "str"), ("name", "str")], returns="int", context=True,
      doc="how much of a resource (IPC, supply) an owner has")
    P("gain", gain, params=[("owner", "str"), ("name", "str"), ("amount", "int")], returns="none", context=True,
      doc="add to an owner's resource")
    P("pay", pay, params=[("owner", "str"), ("name", "str"), ("amount", "int")], returns="none", context=True,
      doc="take from an owner's resource; refused if there is not enough")
    P("transfer", transfer, params=[("source", "str"), ("target", "str"), ("name", "str"), ("amount", "int")],
      returns="int", context=True, doc="move up to amount of a resource between owners; returns what moved")
    P("neighbours", neighbours, params=[("space", "str")], returns="list[str]", context=True,
      doc="the spaces next to a space")
    P("space_int", space_int, params=[("space", "str"), ("key", "str")], returns="int", context=True,
      doc="a whole-number fact of a space (vp, ipc...), 0 when absent")
    P("space_str", space_str, params=[("space", "str"), ("key", "str")], returns="str", context=True,
      doc="a text fact of a space, \"\" when absent")
    P("space_flag", space_flag, params=[("space", "str"), ("key", "str")], returns="bool", context=True,
      doc="a yes/no fact of a space, false when absent")
    P("turn", turn, params=[], returns="int", context=True, doc="the current turn number, from 1")
    P("note", note, params=[("message", "str")], returns="none", context=True, doc="write a line in the game log")
