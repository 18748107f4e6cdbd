"""Carriers and their cargo: the primitives load_onto, move_to, cargo and destroy."""

from __future__ import annotations

from engine import primitives as P
from engine.board import Board, Space
from engine.state import GameState


def test_cargo_goes_where_its_carrier_goes_and_dies_with_it() -> None:
    state = GameState(Board([Space("A", "A"), Space("B", "B")], [("A", "B", {})]))
    ship = state.add_piece("Transport", "Red", "A")
    soldier = state.add_piece("Infantry", "Red", "A")
    P.load_onto(state, soldier, ship)
    P.move_to(state, ship, "B")
    assert state.pieces[soldier.id].space == "B"
    assert [c.id for c in P.cargo(state, ship)] == [soldier.id]
    P.destroy(state, ship)
    assert state.pieces == {}
