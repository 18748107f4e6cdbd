"""Does the scenario add up? Checked before play: pieces on playable hexes, stacking, the box
totals, and the VP invariant (historic Axis towns sum to 23). And what every state of a game
keeps (`state_problems`, for the testing tools)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.state import GameState
from rulesets.bulge import scenario, terrain

HISTORIC_VP = 23


def scenario_problems(state: GameState, rules: Any) -> list[str]:
    problems: list[str] = []
    board = state.board
    opts = rules.options
    for p in state.pieces.values():
        if terrain.on_board(p.space):
            if p.space not in board:
                problems.append(f"{p.owner} {p.kind} #{p.id} stands on `{p.space}`, which is not on the map")
            elif board.space(p.space).get("partial"):
                problems.append(f"{p.owner} {p.kind} #{p.id} stands on partial hex {p.space}")
            elif state.control.get(p.space) != p.owner:
                problems.append(f"{p.owner} {p.kind} #{p.id} starts on the enemy side of the front line at {p.space}")
        elif not (p.space in scenario.OFFBOARD.values() or p.space in scenario.POOL.values()
                  or scenario.parse_chart_space(p.space)):
            problems.append(f"{p.owner} {p.kind} #{p.id} is in `{p.space}`, neither on the map, off-board nor on a chart")
    for sid in list(state.occupied()):
        if terrain.on_board(sid) and sid in board:
            for side in terrain.SIDES:
                if terrain.overstacked(state, sid, side, opts):
                    problems.append(f"{sid} starts over the stacking limit for {side}")
    historic = sum(int(s.get("vp") or 0) for s in board.spaces.values() if s.get("historic_axis"))
    if historic != HISTORIC_VP:
        problems.append(f"the towns the Axis held at the height of the offensive carry {historic} VP; "
                        f"the game's victory condition needs exactly {HISTORIC_VP}")
    box = scenario.load_oob().get("box", {})
    chips = scenario.load_oob().get("chip_budget", {})
    for side in terrain.SIDES:
        for kind in ("Infantry", "Tank", "Artillery", "Truck", "Fighter", "Bomber"):
            have = sum(1 for p in state.pieces_of(side) if p.kind == kind)
            limit = box.get(side, {}).get(kind)
            if limit is not None and have > limit + chips.get(side, 0):
                problems.append(f"{side} has {have} {kind}, more than the box's {limit} pieces and "
                                f"{chips.get(side, 0)} chips")
    return problems


COMBAT_PHASES = ("air_combat", "ground_combat")


def state_problems(rs: Any, state: GameState, previous: GameState | None) -> list[str]:
    """What a state of a Bulge game breaks of Bulge's invariants: no hex over the stacking
    limit in the combat phases, VP as tallied agreeing with the front line, no combat unit
    gained and no air unit gained or lost in play (only supply is created)."""
    out: list[str] = []
    if state.result is None and rs.structure.phase(state).name in COMBAT_PHASES:
        opts = rs.rules.options
        for space in list(state.occupied()):
            if terrain.on_board(space):
                for side in terrain.SIDES:
                    if terrain.overstacked(state, space, side, opts):
                        out.append(f"{space} is over the stacking limit for {side} in the combat phase")
        if state.turn > 1 and rs.rules.has_procedure("axis_vp"):
            vp, front = state.resource("Axis", "vp"), rs.rules.procedure("axis_vp")(state)
            if vp != front:
                out.append(f"the Axis has {vp} VP but the front line gives {front}")
    if previous is not None:
        before = Counter((p.owner, p.kind) for p in previous.pieces.values())
        now = Counter((p.owner, p.kind) for p in state.pieces.values())
        for (side, kind), n in now.items():
            if kind in terrain.COMBAT and n > before.get((side, kind), 0):
                out.append(f"{side} gained a {kind} ({before.get((side, kind), 0)} -> {n})")
        for side, kind in {*now, *before}:
            if kind in terrain.AIR and now.get((side, kind), 0) != before.get((side, kind), 0):
                out.append(f"{side} {kind}s changed in number ({before.get((side, kind), 0)} -> "
                           f"{now.get((side, kind), 0)})")
    return out
