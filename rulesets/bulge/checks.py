"""Does the scenario add up? Checked before play: pieces on playable hexes of their own side,
stacking, the box totals, and the VP invariant (historic Axis towns sum to 23). And what every
state of a game keeps (`state_problems`, for the testing tools). Stacking is the rules' own
(`stack_excess`, rules/board.rules)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.state import GameState
from rulesets.bulge import scenario

HISTORIC_VP = 23
COMBAT_PHASES = ("air_combat", "ground_combat")


def overstacked(state: GameState, rules: Any) -> list[tuple[str, str]]:
    """The (hex, side) pairs over the stacking limit."""
    excess = rules.procedure("stack_excess")
    return [(h, side) for h in list(state.occupied()) if h in state.board for side in ("Axis", "Allies")
            if excess(state, h, side)]


def scenario_problems(state: GameState, rules: Any) -> list[str]:
    problems: list[str] = []
    board = state.board
    for p in state.pieces.values():
        if p.space in board:
            if board.space(p.space).get("partial"):
                problems.append(f"{p.owner} {p.kind} #{p.id} stands on partial hex {p.space}")
            elif state.control.get(p.space) != p.owner:
                problems.append(f"{p.owner} {p.kind} #{p.id} starts on the enemy side of the front line at {p.space}")
        elif p.space.partition(":")[0] not in ("offboard", "setup", "chart"):
            problems.append(f"{p.owner} {p.kind} #{p.id} is in `{p.space}`, neither on the map, off-board nor on a chart")
    problems += [f"{h} starts over the stacking limit for {side}" for h, side in overstacked(state, rules)]
    historic = sum(int(s.get("vp") or 0) for s in board.spaces.values() if s.get("historic_axis"))
    if historic != HISTORIC_VP:
        problems.append(f"the towns the Axis held at the height of the offensive carry {historic} VP; "
                        f"the game's victory condition needs exactly {HISTORIC_VP}")
    box, chips = scenario.load_oob().get("box", {}), scenario.load_oob().get("chip_budget", {})
    have = Counter((p.owner, p.kind) for p in state.pieces.values())
    for side in ("Axis", "Allies"):
        for kind in rules.units:
            limit = box.get(side, {}).get(kind)
            if limit is not None and have[side, kind] > limit + chips.get(side, 0):
                problems.append(f"{side} has {have[side, kind]} {kind}, more than the box's {limit} pieces and "
                                f"{chips.get(side, 0)} chips")
    return problems


def state_problems(rs: Any, state: GameState, previous: GameState | None) -> list[str]:
    """What a state of a Bulge game breaks of Bulge's invariants: no hex over the stacking
    limit in the combat phases, VP as tallied agreeing with the front line, no combat unit
    gained and no air unit gained or lost in play (only supply is created)."""
    out: list[str] = []
    rules = rs.rules
    if state.result is None and rs.structure.phase(state).name in COMBAT_PHASES:
        out += [f"{h} is over the stacking limit for {side} in the combat phase" for h, side in overstacked(state, rules)]
        if state.turn > 1 and state.resource("Axis", "vp") != rules.procedure("axis_vp")(state):
            out.append(f"the Axis has {state.resource('Axis', 'vp')} VP but the front line gives "
                       f"{rules.procedure('axis_vp')(state)}")
    if previous is not None:
        before = Counter((p.owner, p.kind) for p in previous.pieces.values())
        now = Counter((p.owner, p.kind) for p in state.pieces.values())
        for side, kind in sorted({*now, *before}):
            tags = rules.units[kind].tags
            if "combat" in tags and now[side, kind] > before[side, kind]:
                out.append(f"{side} gained a {kind} ({before[side, kind]} -> {now[side, kind]})")
            if "air" in tags and now[side, kind] != before[side, kind]:
                out.append(f"{side} {kind}s changed in number ({before[side, kind]} -> {now[side, kind]})")
    return out
