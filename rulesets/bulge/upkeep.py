"""Board upkeep steps that are not in the rules files (RB §3.4): commandeering captured
trucks and supply, and enforcing the stacking limit. The front line and the VP tally are in
rules/upkeep.rules."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.pieces import Piece
from engine.state import GameState
from rulesets.bulge import terrain
from rulesets.bulge.combat import destroy, retreat_options
from rulesets.bulge.common import act, hex_name, unit_name
from rulesets.bulge.terrain import enemy


def commandeer(state: GameState) -> None:
    """Captured trucks and supply become the captor's, usable from the next turn."""
    for p in list(state.pieces.values()):
        if "captured" in p.status:
            new_owner = enemy(p.owner)
            state.update(p.id, owner=new_owner, status=p.status - {"captured"}, carrier=None)
            state.emit("commandeered", piece=p.id, kind=p.kind, by=new_owner, at=p.space)


def excess(logic: Any, state: GameState) -> list[Piece]:
    out = []
    opts = logic.rules.options
    for sid in sorted(s for s in state.occupied() if terrain.on_board(s)):
        for side in terrain.SIDES:
            out += terrain.overstacked(state, sid, side, opts)
    return out


def decide_stacking(logic: Any, state: GameState) -> Decision | None:
    """The opponent moves each unit over the limit one hex, by the retreat rules; where
    there is no such hex, the owner destroys units until the hex is within the limit."""
    over = excess(logic, state)
    if not over:
        return None
    piece = over[0]
    where = retreat_options(state, piece, logic.rules.options)
    if where:
        options = [act("displace", f"move {unit_name(piece)} from {hex_name(state, piece.space)} to {hex_name(state, n)}",
                       piece=piece.id, to=n) for n in where]
        return Decision(enemy(piece.owner), "stacking",
                        f"{hex_name(state, piece.space)} is over the stacking limit: move the extra enemy unit one hex",
                        options, {"hex": piece.space})
    victims = [p for p in state.pieces_at(piece.space) if p.owner == piece.owner and p.kind == piece.kind]
    options = [act("disband", f"destroy {unit_name(p)}", piece=p.id) for p in victims[:1]]
    others = {p.kind: p for p in terrain.combat_units(state, piece.space, piece.owner)}
    options += [act("disband", f"destroy {unit_name(p)}", piece=p.id) for k, p in sorted(others.items()) if k != piece.kind]
    return Decision(piece.owner, "stacking", f"{hex_name(state, piece.space)} is over the stacking limit and no unit "
                                             "can leave it: choose a unit to destroy", options, {"hex": piece.space})


def apply_stacking(logic: Any, state: GameState, action: Action) -> None:
    over = excess(logic, state)
    if not over:
        raise IllegalAction("no hex is over the stacking limit")
    hexes = {p.space for p in over}
    piece = state.piece(action.get("piece"))
    if piece.space not in hexes or piece.kind not in terrain.COMBAT and not logic.rules.options["stacking_rulebook"]:
        raise IllegalAction(f"{unit_name(piece)} is not in an over-stacked hex")
    if action.kind == "displace":
        to = action.get("to")
        if to not in retreat_options(state, piece, logic.rules.options):
            raise IllegalAction(f"{unit_name(piece)} cannot be moved to {to}: the retreat rules apply")
        state.move(piece.id, to)
        state.emit("displaced", piece=piece.id, src=piece.space, to=to)
    elif action.kind == "disband":
        if any(retreat_options(state, p, logic.rules.options) for p in over if p.space == piece.space):
            raise IllegalAction("a unit can still be moved out of this hex; the opponent moves it")
        destroy(state, piece, "stacking")
    else:
        raise IllegalAction(f"`{action.kind}` is not an answer now")
