"""What a board answers the rules at every step of a walk: a space's neighbours and whether
its map entry sets a fact, and NoSpace for a space it does not have."""

from __future__ import annotations

import pytest

from engine.board import Board, NoSpace, Space


def board() -> Board:
    return Board([Space("A", "Aachen", attrs={"town": "Aachen", "vp": 2, "partial": False, "roads": []}),
                  Space("B", "Bastogne", attrs={"vp": 0, "roads": ["A"]}), Space("C", "Clervaux")],
                 [("A", "B", {}), ("B", "C", {})])


def test_a_space_neighbours_are_the_spaces_linked_to_it():
    b = board()
    assert b.neighbours("B") == ("A", "C") and b.neighbours("A") == ("B",)


def test_a_fact_is_set_when_it_is_true_non_zero_or_non_empty():
    b = board()
    assert b.flag("A", "town") and b.flag("A", "vp") and b.flag("B", "roads")
    assert not b.flag("A", "partial") and not b.flag("A", "roads") and not b.flag("B", "vp")
    assert not b.flag("C", "town")


@pytest.mark.parametrize("ask", [lambda b: b.neighbours("nowhere"), lambda b: b.flag("nowhere", "town")])
def test_a_space_the_board_does_not_have_is_no_space(ask):
    with pytest.raises(NoSpace, match="no space `nowhere` on this board"):
        ask(board())
