"""The air phase (RB §3.1; turns 5-8 by default, when the weather clears): initiative, both
sides place all their air units, then hex by hex dogfights, anti-aircraft fire and air
attacks; at the end every air unit goes home, and destroyed ones are back next turn.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.pieces import Piece
from engine.state import GameState
from rulesets.bulge import scenario, terrain
from rulesets.bulge.combat import apply_retreat, fire_at_ground, queue_retreats, retreat_decision
from rulesets.bulge.common import act, counted, flag, hex_name, set_flag
from rulesets.bulge.terrain import AIR, GROUND, enemy


def air_units(state: GameState, sid: str, side: str | None = None) -> list[Piece]:
    return [p for p in state.pieces_at(sid) if p.kind in AIR and (side is None or p.owner == side)]


def begin(logic: Any, state: GameState) -> None:
    winner = logic.rules.procedure("initiative")(state)
    set_flag(state, "air_chooser", winner)
    set_flag(state, "air_first", None)
    set_flag(state, "air_resolved", frozenset())
    state.emit("note", message=f"{winner} wins the air initiative")


# -- initiative and placement -------------------------------------------------------------------------
def decide_initiative(logic: Any, state: GameState) -> Decision | None:
    if flag(state, "air_first") is not None:
        return None
    chooser = flag(state, "air_chooser")
    return Decision(chooser, "air_initiative", "You won the air initiative: who places air units first?", [
        act("first", "we place first (and pick the first hex to resolve)", side=chooser),
        act("first", f"{enemy(chooser)} places first", side=enemy(chooser)),
    ])


def apply_initiative(logic: Any, state: GameState, action: Action) -> None:
    if action.kind != "first" or action.get("side") not in terrain.SIDES:
        raise IllegalAction("say which side places first")
    set_flag(state, "air_first", action.get("side"))
    set_flag(state, "air_placing", action.get("side"))


def placement_targets(state: GameState) -> list[str]:
    """Hexes worth an air unit: those with ground units of either side (air units may go
    anywhere, but elsewhere they can neither fight nor be fought)."""
    return sorted({p.space for p in state.pieces.values() if p.kind in GROUND and terrain.on_board(p.space)})


def decide_placement(logic: Any, state: GameState) -> Decision | None:
    side = flag(state, "air_placing")
    if side is None:
        return None
    home = [p for p in state.pieces_at(scenario.OFFBOARD[side]) if p.kind in AIR]
    if not home:
        return None
    options = []
    for kind in sorted({p.kind for p in home}):
        for h in placement_targets(state):
            whose = "enemy" if any(q.owner != side for q in state.pieces_at(h) if q.kind in GROUND) else "own"
            options.append(act("place_air", f"place a {kind} over {hex_name(state, h)} ({whose} units)", kind=kind, to=h))
    left = ", ".join(f"{sum(1 for p in home if p.kind == k)} {k}" for k in sorted({p.kind for p in home}))
    return Decision(side, "air_placement", f"Place all your air units ({left} left)", options)


def apply_placement(logic: Any, state: GameState, action: Action) -> None:
    side = flag(state, "air_placing")
    if action.kind != "place_air":
        raise IllegalAction("place your air units first")
    to = action.get("to")
    if not isinstance(to, str) or to not in state.board or terrain.is_partial(state, to):
        raise IllegalAction(f"air units go over a hex of the board, not `{to}`")
    home = [p for p in state.pieces_at(scenario.OFFBOARD[side]) if p.kind == action.get("kind")]
    if not home:
        raise IllegalAction(f"{side} has no {action.get('kind')} left to place")
    state.move(home[0].id, to)
    if not any(p.kind in AIR for p in state.pieces_at(scenario.OFFBOARD[side])):
        first = flag(state, "air_first")
        set_flag(state, "air_placing", enemy(side) if side == first else None)
        if side != first:
            set_flag(state, "air_picker", first)


# -- resolution ------------------------------------------------------------------------------------------
def unresolved(state: GameState) -> list[str]:
    done = flag(state, "air_resolved", frozenset())
    return sorted({p.space for p in state.pieces.values() if p.kind in AIR and terrain.on_board(p.space)} - done)


def decide_resolution(logic: Any, state: GameState) -> Decision | None:
    d = retreat_decision(logic, state)
    if d is not None:
        return d
    hexes = unresolved(state)
    if not hexes:
        return None
    picker = flag(state, "air_picker") or flag(state, "air_first")
    options = [act("resolve_air", f"resolve {hex_name(state, h)}: {counted(air_units(state, h))} aloft", hex=h)
               for h in hexes]
    return Decision(picker, "air_resolution", "Pick the next hex to resolve", options)


def apply_resolution(logic: Any, state: GameState, action: Action) -> None:
    if action.kind == "retreat":
        return apply_retreat(logic, state, action)
    if flag(state, "retreats", ()):
        raise IllegalAction("the retreats come first")
    h = action.get("hex")
    if action.kind != "resolve_air" or h not in unresolved(state):
        raise IllegalAction("pick a hex with air units that has not been resolved")
    resolve_hex(logic, state, h)
    set_flag(state, "air_resolved", flag(state, "air_resolved", frozenset()) | {h})
    set_flag(state, "air_picker", enemy(flag(state, "air_picker") or flag(state, "air_first")))


def resolve_hex(logic: Any, state: GameState, h: str) -> None:
    """I. dogfight, II. anti-aircraft fire, III. air attack on the ground units."""
    rules = logic.rules
    for _ in range(100):                       # rounds until one side has no air units here
        axis, allies = air_units(state, h, "Axis"), air_units(state, h, "Allies")
        if not axis or not allies:
            break
        hits_on_allies = _air_strip(logic, state, len(axis), allies, f"dogfight over {h}")
        hits_on_axis = _air_strip(logic, state, len(allies), axis, f"dogfight over {h}")
        for p in hits_on_allies + hits_on_axis:
            shoot_down(state, p)
    for side in terrain.SIDES:
        ground = terrain.ground_units(state, h, side)
        raiders = air_units(state, h, enemy(side))
        if ground and raiders:
            dice = rules.procedure("aa_dice")(state, ground)
            for p in _air_strip(logic, state, dice, raiders, f"anti-aircraft fire over {h}"):
                shoot_down(state, p)
    for side in terrain.SIDES:
        raiders = air_units(state, h, side)
        targets = [p for p in terrain.ground_units(state, h, enemy(side))]
        if raiders and targets:
            dice = rules.procedure("attack_dice")(state, raiders)
            state.emit("air_attack", side=side, target=h, dice=dice, attackers=counted(raiders))
            queue_retreats(logic, state, fire_at_ground(logic, state, dice, targets, f"air attack on {h}"), "air")


def _air_strip(logic: Any, state: GameState, dice: int, targets: list[Piece], why: str) -> list[Piece]:
    """Air units hit: Fighters down the first column, then Bombers; one hit destroys."""
    order = sorted(targets, key=lambda p: (logic.rules.units[p.kind].air_strip, p.id))
    if not order or dice <= 0:
        return []
    marks = logic.rules.procedure("air_strip_hits")(state, dice, len(order))
    state.emit("strip", why=why, boxes=[[p.kind] for p in order], hits=list(marks))
    return [p for p, m in zip(order, marks) if m]


def shoot_down(state: GameState, p: Piece) -> None:
    """A destroyed air unit goes home and flies again next turn (RB §3.1)."""
    state.emit("shot_down", piece=p.id, kind=p.kind, owner=p.owner, space=p.space)
    state.move(p.id, scenario.OFFBOARD[p.owner])


def return_home(state: GameState) -> None:
    for p in list(state.pieces.values()):
        if p.kind in AIR and terrain.on_board(p.space):
            state.move(p.id, scenario.OFFBOARD[p.owner])
