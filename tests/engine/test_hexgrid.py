"""Hex geometry: the facts a hex board relies on."""

from hypothesis import given
from hypothesis import strategies as st

from engine.hexgrid import (
    EASTERN,
    Hex,
    direction,
    distance,
    from_offset,
    from_pixel,
    line,
    neighbour,
    neighbours,
    ring,
    to_offset,
    to_pixel,
)

coords = st.integers(-40, 40)
hexes = st.builds(Hex, coords, coords)


def test_pointy_top_neighbours_face_the_six_compass_sides():
    h = Hex(3, 4)
    assert neighbour(h, "E") == Hex(4, 4)
    assert neighbour(h, "W") == Hex(2, 4)
    assert neighbour(h, "NE") == Hex(4, 3)
    assert neighbour(h, "SE") == Hex(3, 5)
    assert {direction(h, n) for n in neighbours(h)} == {"E", "NE", "NW", "W", "SW", "SE"}
    assert set(EASTERN) == {"NE", "E", "SE"}


def test_east_is_to_the_right_on_screen_and_north_is_up():
    x0, y0 = to_pixel(Hex(0, 0), 10)
    xe, ye = to_pixel(Hex(1, 0), 10)
    xn, yn = to_pixel(Hex(1, -1), 10)   # NE
    assert xe > x0 and ye == y0
    assert yn < y0 and xn > x0          # screen y grows downwards


@given(hexes, hexes)
def test_distance_is_a_metric_and_lines_are_connected(a, b):
    assert distance(a, b) == distance(b, a) >= 0
    path = line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == distance(a, b) + 1
    assert all(distance(p, q) == 1 for p, q in zip(path, path[1:]))


@given(hexes)
def test_pixel_and_offset_round_trips(h):
    assert from_pixel(*to_pixel(h, 17.0, (5, 9)), 17.0, (5, 9)) == h
    assert from_offset(*to_offset(h)) == h


def test_ring_has_six_times_radius_hexes():
    for r in range(1, 5):
        hs = ring(Hex(0, 0), r)
        assert len(hs) == 6 * r and all(distance(Hex(0, 0), h) == r for h in hs)


def test_a_space_is_found_as_a_player_types_its_name():
    from engine.board import Board, Space, fold_name

    board = Board([Space("1910", "Prüm", "hex"), Space("1709", "St. Vith", "hex"), Space("SZ 5", "Sea Zone 5", "sea")],
                  {})
    assert [board.find(t) for t in ("prum", "PRÜM", "st vith", "St.-Vith", "sz 5", "sz5", "sea zone 5", "1709")] == [
        "1910", "1910", "1709", "1709", "SZ 5", None, "SZ 5", "1709"]
    assert fold_name("  Anglo-Egypt ") == "anglo egypt" and board.find("...") is None
    soviet = Board([Space("Karelia S.S.R.", "Karelia S.S.R.", "land")], {})
    assert [soviet.find(t) for t in ("karelia ssr", "Karelia SSR", "karelia s.s.r", "karelia s s r")] == [
        "Karelia S.S.R."] * 4
    # the first words of one name alone; of several, none
    assert board.find("sea") == "SZ 5" and board.find("st") == "1709" and board.find("zone") is None
    two = Board([Space("a", "West Russia", "land"), Space("b", "Western Europe", "land"),
                 Space("c", "West Indies", "land")], {})
    assert two.find("west") is None and two.find("western") == "b"
