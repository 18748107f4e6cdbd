"""What must hold of every state a game reaches, whatever the rules: checked after every
action by the testing tools (the pytest plugin for mods, `pytest --wargame-mod DIR`), with a
ruleset's own invariants from its `wargame_invariants` hook."""

from __future__ import annotations

from typing import Any

from engine.ruleset import LoadedRuleset
from engine.state import GameState


def generic_problems(state: GameState) -> list[str]:
    """The invariants of any ruleset's state that are broken, as sentences: no piece in two
    places (the indexes by space and by owner hold every piece as `pieces` does), every piece
    on a board space or in an off-board area (`area:name`), cargo where its carrier is, no
    negative resource."""
    out: list[str] = []
    seen: dict[int, str] = {}
    for space in list(state.occupied()):
        for indexed in state.pieces_at(space):
            pid = indexed.id
            if pid in seen:
                out.append(f"piece #{pid} is in both {seen[pid]} and {space}")
            seen[pid] = space
            now = state.pieces.get(pid)
            if now is None:
                out.append(f"a removed piece #{pid} is still indexed in {space}")
            elif now.space != space:
                out.append(f"piece #{pid} is indexed in {space} but stands in {now.space}")
            elif now is not indexed:
                out.append(f"the index of {space} and `pieces` disagree on piece #{pid}")
    owned: dict[str, list[Any]] = {}
    for p in state.pieces.values():     # (in the order of their ids, as pieces are added)
        owned.setdefault(p.owner, []).append(p)
    for owner, pieces in owned.items():
        listed = state.pieces_of(owner)
        if len(listed) != len(pieces) or any(a is not b for a, b in zip(listed, pieces)):
            out.append(f"the index of {owner}'s pieces and `pieces` disagree (on a piece, or on their order)")
    if set(seen) != set(state.pieces):
        out.append("a piece is missing from the index by space")
    board = state.board
    for p in state.pieces.values():
        area, colon, name = p.space.partition(":")
        if not (p.space in board or (colon and area and name)):
            out.append(f"piece #{p.id} ({p.owner} {p.kind}) stands in `{p.space}`, neither a board space nor an "
                       f"off-board area")
        if p.carrier is not None:
            carrier = state.pieces.get(p.carrier)
            if carrier is None:
                out.append(f"piece #{p.id} rides a missing carrier #{p.carrier}")
            elif carrier.space in board and p.space != carrier.space:
                out.append(f"piece #{p.id} is not where its carrier #{carrier.id} is")
    negative = {f"{owner} {name}": v for (owner, name), v in state.resources.items() if v < 0}
    if negative:
        out.append(f"negative resource: {negative}")
    return out


def problems(rs: LoadedRuleset, state: GameState, previous: GameState | None = None) -> list[str]:
    """Every broken invariant of `state`: the generic ones, then each ruleset's of the chain
    (base first). `previous` is the state before the last action (None at the start)."""
    out = generic_problems(state)
    answers: list[Any] = rs.plugins.hook.wargame_invariants(ruleset=rs, state=state, previous=previous)
    for answer in answers:
        out.extend(answer or ())
    return out
