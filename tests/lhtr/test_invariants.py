"""The random games' invariants (tests/lhtr/invariants.py) see each kind of unsound state."""

from __future__ import annotations

from tests.aarhe.play import at_aarhe
from tests.lhtr.invariants import Invariants
from tests.lhtr.play import Play, situation


def problems(g: Play, turn_ended: bool = False) -> list[str]:
    inv = Invariants(g.rs)
    if turn_ended:
        inv.turn_key = (g.state.turn, "somebody else")
    return inv.problems(g.state)


def test_a_sound_board_breaks_nothing() -> None:
    g = Play.new(1)
    assert problems(g) == [] and problems(g, turn_ended=True) == []
    g, _ = at_aarhe("UK", [("Infantry", "UK", "United Kingdom", 3)])
    assert problems(g) == [] and problems(g, turn_ended=True) == []


def test_negative_ipcs() -> None:
    g, _ = situation("UK", [])
    g.set_ipc("Japan", -2)
    assert problems(g) == ["Japan has -2 ipc"]


def test_units_on_the_wrong_kind_of_space() -> None:
    g, ids = situation("UK", [("Tank", "UK", "SZ 7", 1), ("Battleship", "UK", "United Kingdom", 1),
                              ("Infantry", "UK", "Turkey", 1), ("IndustrialComplex", "UK", "SZ 2", 1)])
    found = problems(g)
    assert f"UK Tank #{ids['UK Tank SZ 7'][0]} is at sea in SZ 7, aboard nothing" in found
    assert f"UK Battleship #{ids['UK Battleship United Kingdom'][0]} is a ship on land in United Kingdom" in found
    assert f"UK Infantry #{ids['UK Infantry Turkey'][0]} is in impassable Turkey" in found
    assert any("IndustrialComplex" in p and "at sea" in p for p in found)
    assert len(found) == 4


def test_cargo_away_from_its_transport_or_aboard_a_warship() -> None:
    g, ids = situation("UK", [("Transport", "UK", "SZ 7", 1), ("Battleship", "UK", "SZ 2", 1),
                              ("Infantry", "UK", "SZ 2", 1), ("Infantry", "UK", "SZ 7", 2), ("Tank", "UK", "SZ 7", 1)])
    tp, bb = ids["UK Transport SZ 7"][0], ids["UK Battleship SZ 2"][0]
    g.state.update(ids["UK Infantry SZ 2"][0], carrier=bb)
    for u in ids["UK Infantry SZ 7"] + ids["UK Tank SZ 7"]:
        g.state.update(u, carrier=tp)
    found = problems(g)
    assert any("rides a Battleship, not a transport" in p for p in found)
    assert f"Transport #{tp} in SZ 7 carries 7, more than its room" in found
    g.state.update(ids["UK Infantry SZ 2"][0], carrier=tp)
    assert any(f"is in SZ 2, its transport #{tp} in SZ 7" in p for p in problems(g))


def test_aircraft_not_landed_when_a_turn_ends() -> None:
    g, ids = situation("UK", [("Fighter", "UK", "SZ 7", 1), ("Bomber", "UK", "SZ 2", 1),
                              ("Fighter", "UK", "Western Europe", 1), ("Fighter", "UK", "SZ 3", 2),
                              ("AircraftCarrier", "US", "SZ 3", 1), ("Fighter", "Germany", "SZ 3", 1)])
    assert problems(g) == []                        # in the middle of a turn aircraft fly
    found = problems(g, turn_ended=True)
    assert len(found) == 4, found
    assert any("Bomber" in p and "at sea in SZ 2" in p for p in found)
    assert any("Western Europe, held by Germany" in p for p in found)
    assert any("1 Allies fighters in SZ 7 with room for 0" in p for p in found)
    assert not any("Allies fighters in SZ 3" in p for p in found)      # two on an ally's carrier: room for them
    assert any("1 Axis fighters in SZ 3 with room for 0" in p for p in found)


def test_more_placed_at_a_complex_than_it_may_mobilize() -> None:
    g, _ = situation("UK", [("IndustrialComplex", "UK", "United Kingdom", 1)])
    pending = [g.state.add_piece("Infantry", "UK", "pending:UK").id for _ in range(9)]
    ships = [g.state.add_piece("Destroyer", "UK", "pending:UK").id for _ in range(2)]
    inv = Invariants(g.rs)
    assert inv.problems(g.state) == []
    for u in pending[:7] + ships[:1]:                # 8: the United Kingdom's value
        g.state.move(u, "United Kingdom" if u in pending else "SZ 2")
    assert inv.problems(g.state) == []
    g.state.move(ships[1], "SZ 3")
    assert inv.problems(g.state)[0].startswith("UK placed Destroyer in SZ 3 beyond what its industrial complexes")


def test_aarhe_small_islands_and_xenophobia() -> None:
    g, ids = at_aarhe("UK", [("Infantry", "Japan", "Wake Island", 4), ("Infantry", "US", "Wake Island", 3),
                             ("Infantry", "UK", "Caucasus", 1), ("Infantry", "UK", "Persia", 1)])
    found = problems(g)
    assert "4 Axis units on the small island Wake Island (at most 3)" in found
    assert f"UK Infantry #{ids['UK Infantry Caucasus'][0]} is in Caucasus, an original Soviet territory the USSR holds" \
        in found
    assert len(found) == 2


def test_aarhe_infantry_raised_at_a_city_beyond_its_value() -> None:
    g, _ = at_aarhe("UK", [])
    pending = [g.state.add_piece("Infantry", "UK", "pending:UK").id for _ in range(9)]
    inv = Invariants(g.rs)
    inv.problems(g.state)
    for u in pending:
        g.state.move(u, "United Kingdom")
    assert inv.problems(g.state) == ["UK raised 9 infantry at United Kingdom this turn, worth 8"]
