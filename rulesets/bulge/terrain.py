"""What the board says about moving and fighting: zones of control, roads, river barriers,
towns, the front line's sides and where supply may be drawn from.

Pure queries on a game state; the rules of *when* these matter are in the rules files and
in the phase modules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.pieces import Piece
from engine.state import GameState

COMBAT = frozenset(("Infantry", "Tank", "Artillery"))
GROUND = frozenset(("Infantry", "Tank", "Artillery", "Truck", "Supply"))
AIR = frozenset(("Fighter", "Bomber"))
SIDES = ("Axis", "Allies")


class BoardFacts:
    """What never changes on a board, worked out once: road neighbours, partial hexes,
    towns, and the edge hexes where units and trucks enter."""

    def __init__(self, board: Any) -> None:
        spaces = board.spaces
        self.partial = frozenset(s.id for s in spaces.values() if s.get("partial"))
        self.towns = frozenset(s.id for s in spaces.values() if s.get("vp") or s.get("size") in ("city", "town"))
        self.road_links = {sid: tuple(n for n in board.neighbours(sid)
                                      if board.link(sid, n).get("road") and not board.link(sid, n).get("barrier"))
                           for sid in spaces}
        self.roads = {sid: tuple(n for n in board.neighbours(sid)
                                 if board.link(sid, n).get("road") and not board.link(sid, n).get("barrier")
                                 and n not in self.partial)
                      for sid in spaces}
        self.edge_hexes: dict[str, tuple[str, ...]] = {}
        for edge in ("N", "S", "W", "E"):
            self.edge_hexes[edge] = tuple(sorted(s.id for s in spaces.values()
                                                 if edge in (s.get("edge") or ()) and s.id not in self.partial))
        self.road_exits = frozenset(s.id for s in spaces.values() if s.get("road_exit") and s.id not in self.partial)


_FACTS: dict[int, BoardFacts] = {}


def facts(state: GameState) -> BoardFacts:
    f = _FACTS.get(id(state.board))
    if f is None:
        f = _FACTS[id(state.board)] = BoardFacts(state.board)
    return f


def enemy(side: str) -> str:
    return "Allies" if side == "Axis" else "Axis"


def on_board(space: str) -> bool:
    return ":" not in space


def usable(p: Piece) -> bool:
    """A piece its owner may use (not captured, not riding a truck)."""
    return p.carrier is None and "captured" not in p.status


def combat_units(state: GameState, sid: str, side: str) -> list[Piece]:
    return [p for p in state.pieces_at(sid) if p.owner == side and p.kind in COMBAT]


def ground_units(state: GameState, sid: str, side: str) -> list[Piece]:
    return [p for p in state.pieces_at(sid) if p.owner == side and p.kind in GROUND]


def has_combat(state: GameState, sid: str, side: str) -> bool:
    pieces = state.pieces
    return any(pieces[i].owner == side and pieces[i].kind in COMBAT for i in state.ids_at(sid))


def zoc(state: GameState, side: str) -> frozenset[str]:
    """Hexes in the zone of control of `side`'s combat units (the six hexes around each)."""
    board = state.board
    out: set[str] = set()
    for sid in list(state.occupied()):
        if on_board(sid) and has_combat(state, sid, side):
            out.update(board.neighbours(sid))
    return frozenset(out)


def is_partial(state: GameState, sid: str) -> bool:
    return sid in facts(state).partial


def is_town(state: GameState, sid: str) -> bool:
    """A city or town (they stop movement and resist front-line claims); villages and
    crossroads named on the map are not."""
    return sid in facts(state).towns


def vp(state: GameState, sid: str) -> int:
    return int(state.board.space(sid).get("vp") or 0)


def enemy_town(state: GameState, sid: str, side: str) -> bool:
    return is_town(state, sid) and state.control.get(sid) == enemy(side)


def barrier(state: GameState, a: str, b: str) -> bool:
    return bool(state.board.link(a, b).get("barrier"))


def road(state: GameState, a: str, b: str) -> bool:
    return bool(state.board.link(a, b).get("road"))


def stacking_room(state: GameState, sid: str, side: str, kind: str, options: dict) -> bool:
    """May one more unit of `kind` stand in `sid` (used for retreats and upkeep)?"""
    if kind not in COMBAT and not options["stacking_rulebook"]:
        return True
    pieces = [p for p in state.pieces_at(sid) if p.owner == side and p.kind in GROUND]
    if options["stacking_rulebook"]:
        count = sum(1 for p in pieces if p.kind != "Supply") + (1 if any(p.kind == "Supply" for p in pieces) else 0)
        if kind == "Supply" and any(p.kind == "Supply" for p in pieces):
            return True
        limits = {"Infantry": 6, "Tank": 6, "Artillery": 3}
        if kind in limits and sum(1 for p in pieces if p.kind == kind) >= limits[kind]:
            return False
        return count < 12
    return sum(1 for p in pieces if p.kind in COMBAT) < options["stacking_limit"]


def overstacked(state: GameState, sid: str, side: str, options: dict) -> list[Piece]:
    """The units of `side` beyond the stacking limit in `sid` (the last ones first)."""
    pieces = [p for p in state.pieces_at(sid) if p.owner == side and p.kind in GROUND and usable(p)]
    excess: list[Piece] = []
    if options["stacking_rulebook"]:
        for kind, limit in (("Infantry", 6), ("Tank", 6), ("Artillery", 3)):
            same = [p for p in pieces if p.kind == kind]
            excess += same[limit:]
        rest = [p for p in pieces if p not in excess and p.kind != "Supply"]
        supply = 1 if any(p.kind == "Supply" for p in pieces) else 0
        over = len(rest) + supply - 12
        if over > 0:
            excess += rest[-over:]
        return excess
    combat = [p for p in pieces if p.kind in COMBAT]
    return combat[options["stacking_limit"]:]


def can_step(state: GameState, a: str, b: str, side: str, kind: str) -> bool:
    """May a ground unit of `kind` move (or retreat) one hex from a to b, terrain-wise?"""
    if is_partial(state, b):
        return False
    if barrier(state, a, b) and kind != "Infantry":
        return False
    return not has_combat(state, b, enemy(side))


def supply_sources(state: GameState, sid: str, side: str) -> list[str]:
    """Where supply for a unit in `sid` may be drawn: the hex itself, then adjacent hexes on
    `side`'s side of the front line that hold no enemy units (RB §3.2, §3.3)."""
    out = [sid]
    for n in state.board.neighbours(sid):
        if state.control.get(n) == side and not any(p.owner != side for p in state.pieces_at(n)):
            out.append(n)
    return out


def spendable_supply(state: GameState, spaces: Iterable[str], side: str) -> list[Piece]:
    return [p for s in spaces for p in state.pieces_at(s)
            if p.kind == "Supply" and p.owner == side and usable(p)]


def truck_entries(state: GameState, side: str) -> list[str]:
    """Road hexes of a side's own edges where its trucks come onto the board."""
    edges = ("E",) if side == "Axis" else ("N", "S", "W")
    f = facts(state)
    hexes = {sid for e in edges for sid in f.edge_hexes[e] if sid in f.road_exits}
    return sorted(sid for sid in hexes
                  if state.control.get(sid) == side and not has_combat(state, sid, enemy(side)))
