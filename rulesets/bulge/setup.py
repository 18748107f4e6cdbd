"""The optional rule "Custom Setup" (RB, NOTES §5): instead of the historical placement, the
Allies place their starting units and supply anywhere on their side of the front line, then
the Axis inside its three army sections.

The rule asks that each side's combat units' zone of control cover the front. It is built
in by the order of placement: while a front hex across the line is not yet covered, combat
units go only where they cover one; after that, anywhere on the side's own ground.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.state import GameState
from rulesets.bulge import scenario, terrain
from rulesets.bulge.common import act, hex_name
from rulesets.bulge.terrain import COMBAT, enemy


def pool(state: GameState, side: str) -> list[Any]:
    return state.pieces_at(scenario.POOL[side])


def front_hexes(state: GameState, side: str) -> set[str]:
    """Hexes on the enemy's side of the front line that touch this side's ground."""
    out = set()
    for a, b, _ in state.board.links():
        for x, y in ((a, b), (b, a)):
            if state.control.get(x) == side and state.control.get(y) == enemy(side) \
                    and not terrain.is_partial(state, y):
                out.add(y)
    return out


def uncovered(state: GameState, side: str) -> set[str]:
    return front_hexes(state, side) - terrain.zoc(state, side)


def own_ground(state: GameState, side: str) -> list[str]:
    out = []
    for sp in state.board.spaces.values():
        if sp.get("partial") or state.control.get(sp.id) != side:
            continue
        if side == "Axis" and sp.get("country") != "DE":
            continue
        out.append(sp.id)
    return sorted(out)


def legal_hexes(logic: Any, state: GameState, side: str, kind: str) -> list[str]:
    opts = logic.rules.options
    hexes = [h for h in own_ground(state, side) if terrain.stacking_room(state, h, side, kind, opts)]
    gaps = uncovered(state, side)
    if kind in COMBAT and gaps:
        covering = [h for h in hexes if set(state.board.neighbours(h)) & gaps]
        if covering:
            return covering
    return hexes


def decide(logic: Any, state: GameState, step: str) -> Decision | None:
    side = "Axis" if step.startswith("axis") else "Allies"
    waiting = pool(state, side)
    if not waiting:
        return None
    options: list[Action] = []
    seen: set[tuple[str, str]] = set()
    near_front = {h for f in front_hexes(state, side) for h in state.board.neighbours(f)}
    for p in waiting:
        if (p.kind, p.group) in seen:
            continue
        seen.add((p.kind, p.group))
        hexes = legal_hexes(logic, state, side, p.kind)
        shown = [h for h in hexes if h in near_front] or hexes     # the hexes worth listing
        for h in shown:
            options.append(act("set_up", f"set up {p.kind} ({p.group or 'supply'}) in {hex_name(state, h)}",
                               piece=p.id, to=h))
    gaps = len(uncovered(state, side))
    prompt = (f"Custom setup: place your starting units ({len(waiting)} left"
              + (f"; {gaps} front hexes still outside your zone of control)" if gaps else ")"))
    return Decision(side, "setup", prompt, options)


def apply(logic: Any, state: GameState, step: str, action: Action) -> None:
    side = "Axis" if step.startswith("axis") else "Allies"
    if action.kind != "set_up":
        raise IllegalAction("place your starting units first")
    p = state.piece(action.get("piece"))
    if p.space != scenario.POOL[side]:
        raise IllegalAction(f"{p.kind} #{p.id} is not one of {side}'s units waiting to be set up")
    to = action.get("to")
    if to not in legal_hexes(logic, state, side, p.kind):
        where = "inside the Axis army sections" if side == "Axis" else "on the Allied side of the front line"
        raise IllegalAction(f"{p.kind} #{p.id} cannot be set up at {to}: units go {where}, within the stacking "
                            "limit, and combat units must first cover the front with their zone of control")
    state.move(p.id, to)
