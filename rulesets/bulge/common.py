"""Small shared pieces of the Battle of the Bulge logic: the ruleset's namespace in the game
state, marks on pieces, and how hexes and units are named to players."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.actions import Action
from engine.pieces import Piece
from engine.state import GameState

NS = "bulge"


def ns(state: GameState) -> dict[str, Any]:
    return state.ns(NS)


def flag(state: GameState, key: str, default: Any = None) -> Any:
    return state.ns(NS).get(key, default)


def set_flag(state: GameState, key: str, value: Any) -> None:
    state.ns(NS)[key] = value


def add_to(state: GameState, key: str, *items: Any) -> None:
    d = state.ns(NS)
    d[key] = frozenset(d.get(key, frozenset())) | frozenset(items)


def mark(state: GameState, piece: Piece, *marks: str) -> Piece:
    return state.update(piece.id, status=piece.status | frozenset(marks))


def unmark(state: GameState, piece: Piece, *marks: str) -> Piece:
    return state.update(piece.id, status=piece.status - frozenset(marks))


def hex_name(state: GameState, sid: str) -> str:
    sp = state.board.space(sid)
    town = sp.get("town")
    return f"{town} ({sid})" if town else sid


def unit_name(p: Piece) -> str:
    return f"{p.kind} #{p.id}" + (f" ({p.group})" if p.group else "")


def counted(pieces: Iterable[Piece]) -> str:
    """'2 Infantry, 1 Tank' for a list of pieces."""
    counts: dict[str, int] = {}
    for p in pieces:
        counts[p.kind] = counts.get(p.kind, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in counts.items()) or "nothing"


def act(action: str, label: str, /, **args: Any) -> Action:
    return Action(action, args, label=label)
