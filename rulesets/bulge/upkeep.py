"""Board upkeep steps that are not in the rules files (RB §3.4): commandeering captured
trucks and supply, and enforcing the stacking limit. The front line and the VP tally are in
rules/upkeep.rules."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.pieces import Piece
from engine.primitives import destroy
from engine.state import GameState
from rulesets.bulge import terrain
from rulesets.bulge.common import act, hex_name, unit_name
from rulesets.bulge.terrain import enemy


def commandeer(state: GameState) -> None:
    """Captured trucks and supply become the captor's, usable from the next turn."""
    for p in list(state.pieces.values()):
        if "captured" in p.status:
            new_owner = enemy(p.owner)
            state.update(p.id, owner=new_owner, status=p.status - {"captured"}, carrier=None)
            state.emit("commandeered", piece=p.id, kind=p.kind, by=new_owner, at=p.space)


def overstacked_hexes(logic: Any, state: GameState) -> list[tuple[str, str]]:
    opts = logic.rules.options
    return [(sid, side) for sid in sorted(s for s in state.occupied() if terrain.on_board(s))
            for side in terrain.SIDES if terrain.overstacked(state, sid, side, opts)]


def _movable(logic: Any, state: GameState, sid: str, side: str) -> list[tuple[Piece, list[str]]]:
    """The side's units in an over-stacked hex that could leave it by the retreat rules
    (only the kinds that are over a limit)."""
    opts = logic.rules.options
    kinds = {p.kind for p in terrain.overstacked(state, sid, side, opts)}
    if not opts["stacking_rulebook"]:
        kinds = set(terrain.COMBAT)
    out = []
    for p in state.pieces_at(sid):
        if p.owner == side and p.kind in kinds:
            where = logic.rules.procedure("retreat_options")(state, p)
            if where:
                out.append((p, where))
    return out


def decide_stacking(logic: Any, state: GameState) -> Decision | None:
    """The opponent moves units out of an over-stacked hex one hex, by the retreat rules;
    where none can go, the owner destroys units until the hex is within the limit."""
    hexes = overstacked_hexes(logic, state)
    if not hexes:
        return None
    sid, side = hexes[0]
    movable = _movable(logic, state, sid, side)
    if movable:
        options = [act("displace", f"move {unit_name(p)} from {hex_name(state, sid)} to {hex_name(state, n)}",
                       piece=p.id, to=n) for p, where in movable for n in where]
        return Decision(enemy(side), "stacking",
                        f"{hex_name(state, sid)} is over the stacking limit: move an enemy unit out, one hex",
                        options, {"hex": sid})
    excess = terrain.overstacked(state, sid, side, logic.rules.options)
    kinds = {p.kind for p in excess}
    options = [act("disband", f"destroy {unit_name(p)}", piece=p.id)
               for p in state.pieces_at(sid) if p.owner == side and p.kind in kinds]
    return Decision(side, "stacking", f"{hex_name(state, sid)} is over the stacking limit and no unit can leave "
                                      "it: choose a unit to destroy", options, {"hex": sid})


def apply_stacking(logic: Any, state: GameState, action: Action) -> None:
    hexes = overstacked_hexes(logic, state)
    if not hexes:
        raise IllegalAction("no hex is over the stacking limit")
    sid, side = hexes[0]
    piece = state.piece(action.get("piece"))
    if action.kind == "displace":
        where = dict((p.id, w) for p, w in _movable(logic, state, sid, side))
        if piece.id not in where:
            raise IllegalAction(f"{unit_name(piece)} is not a unit that can be moved out of {hex_name(state, sid)}")
        to = action.get("to")
        if to not in where[piece.id]:
            raise IllegalAction(f"{unit_name(piece)} cannot be moved to {to}: the retreat rules apply")
        state.move(piece.id, to)
        state.emit("displaced", piece=piece.id, src=sid, to=to)
    elif action.kind == "disband":
        if _movable(logic, state, sid, side):
            raise IllegalAction("a unit can still be moved out of this hex; the opponent moves it")
        kinds = {p.kind for p in terrain.overstacked(state, sid, side, logic.rules.options)}
        if piece.space != sid or piece.owner != side or piece.kind not in kinds:
            raise IllegalAction(f"{unit_name(piece)} is not one of the units over the limit in {hex_name(state, sid)}")
        destroy(state, piece)
    else:
        raise IllegalAction(f"`{action.kind}` is not an answer now")
