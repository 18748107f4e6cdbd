"""LHTR movement: one unit and one space at a time, in combat move and non-combat move
(RULES.md §A.2, §A.3, §A.7)."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from tests.lhtr.play import choices, left, situation, step


# -- land ------------------------------------------------------------------------------------------
def test_a_unit_goes_one_space_at_a_time_and_the_player_picks_from_a_short_list() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 3), ("Tank", "Germany", "Germany", 1),
                                   ("Infantry", "USSR", "Caucasus", 1)])
    # three infantry in one place are one choice
    assert g.labels() == ["move Germany Infantry in Ukraine S.S.R. (1 left)", "move Germany Tank in Germany (2 left)",
                          "move Germany Infantry in Southern Europe (1 left)", "end combat move"]
    inf = ids["Germany Infantry Ukraine S.S.R."][0]
    g.act("go", u=inf)
    # Turkey is impassable; the sea zone has no transport to board; Caucasus is enemy (USSR)
    assert choices(g) == ["Balkans", "Belorussia", "Caucasus", "Eastern Europe", "Ukraine S.S.R.", "West Russia"]
    assert "Caucasus (enemy)" in [a.label for a in g.decision.options]
    g.choose("Caucasus")
    assert g.piece(inf).space == "Caucasus" and left(g, inf) == 0
    assert g.state.control["Caucasus"] == "USSR"        # enemy units there: a battle, not a capture


def test_an_empty_enemy_territory_is_taken_at_once_and_ends_an_infantry_move() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 1), ("AAGun", "USSR", "Caucasus", 1)])
    inf = ids["Germany Infantry Ukraine S.S.R."][0]
    step(g, inf, "Caucasus")
    assert g.state.control["Caucasus"] == "Germany"
    assert g.kinds_at("Caucasus", "Germany") == {"AAGun": 1, "Infantry": 1}     # the AA gun is captured
    assert left(g, inf) == 0
    assert g.why_not("go", u=inf) == "that unit cannot move in combat move"


def test_a_tank_blitzes_through_an_empty_enemy_territory() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), ("Infantry", "USSR", "Russia", 1)],
                       control={"West Russia": "USSR"})
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    step(g, tank, "West Russia")
    assert g.state.control["West Russia"] == "Germany" and left(g, tank) == 1
    g.act("go", u=tank)
    assert "Russia" in choices(g)
    g.choose("Russia")
    assert g.piece(tank).space == "Russia" and left(g, tank) == 0


def test_a_tank_stops_where_enemy_units_are() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), ("Infantry", "USSR", "West Russia", 1)],
                       control={"West Russia": "USSR"})
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    step(g, tank, "West Russia")
    assert left(g, tank) == 0 and g.state.control["West Russia"] == "USSR"


def test_stop_here_ends_a_units_move_for_the_phase() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Germany", 1)])
    tank = ids["Germany Tank Germany"][0]
    g.act("go", u=tank)
    assert "stop here" in [a.label for a in g.decision.options]
    g.choose("Germany")                   # "stop here"
    assert g.piece(tank).space == "Germany" and left(g, tank) == 2
    assert tank not in [a["u"] for a in g.options("go")]
    # the next phase it may move again
    g.finish()
    g.walk_to("Germany", "noncombat_move")
    assert tank in [a["u"] for a in g.options("go")]


def test_anti_aircraft_guns_never_attack() -> None:
    g, ids = situation("Germany", [("AAGun", "Germany", "Germany", 1)])
    assert [g.piece(a["u"]).kind for a in g.options("go")] == ["Infantry"]
    assert g.why_not("go", u=ids["Germany AAGun Germany"][0]) == "that unit cannot move in combat move"


def test_in_non_combat_move_land_units_stay_on_friendly_land() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 1), ("Infantry", "USSR", "Russia", 1)],
                       step="noncombat_move", control={"West Russia": "USSR"})
    g.act("go", u=ids["Germany Infantry Ukraine S.S.R."][0])
    assert choices(g) == ["Balkans", "Belorussia", "Eastern Europe", "Ukraine S.S.R."]


def test_what_moved_in_combat_move_does_not_move_again_but_aircraft() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Germany", 1), ("Fighter", "Germany", "Germany", 1)])
    tank, fighter = ids["Germany Tank Germany"][0], ids["Germany Fighter Germany"][0]
    step(g, tank, "Eastern Europe")
    step(g, fighter, "Eastern Europe")
    g.finish()
    g.walk_to("Germany", "noncombat_move")
    assert fighter in [a["u"] for a in g.options("go")] and tank not in [a["u"] for a in g.options("go")]
    assert g.why_not("go", u=tank) == "that unit cannot move in non-combat move"


# -- sea -------------------------------------------------------------------------------------------
def test_ships_stop_on_entering_enemy_warships_and_avoid_them_after_combat() -> None:
    g, ids = situation("Germany", [("Destroyer", "Germany", "SZ 5", 1), ("Battleship", "UK", "SZ 6", 1)])
    dd = ids["Germany Destroyer SZ 5"][0]
    g.act("go", u=dd)
    assert choices(g) == ["SZ 5", "SZ 6"]
    g.choose("SZ 6")
    assert left(g, dd) == 0
    g2, ids2 = situation("Germany", [("Destroyer", "Germany", "SZ 5", 1), ("Battleship", "UK", "SZ 6", 1)],
                         step="noncombat_move")
    dd2 = ids2["Germany Destroyer SZ 5"][0]
    assert dd2 not in [a["u"] for a in g2.options("go")]
    assert g2.why_not("go", u=dd2) == "the Destroyer in Sea Zone 5 (SZ 5) has nowhere to go"


def test_a_submarine_sails_on_through_enemy_warships_without_a_destroyer() -> None:
    g, ids = situation("Germany", [("Submarine", "Germany", "SZ 5", 2), ("Battleship", "UK", "SZ 6", 1),
                                   ("Destroyer", "UK", "SZ 3", 1)])
    sub1, sub2 = ids["Germany Submarine SZ 5"]
    step(g, sub1, "SZ 6")
    assert left(g, sub1) == 1            # through the battleship
    step(g, sub2, "SZ 6")
    # the two are alike now: one of them stands for both
    assert [a["u"] for a in g.options("go") if g.piece(a["u"]).kind == "Submarine"] == [sub1]
    assert g.why_not("go", u=sub2) == "that unit cannot move in combat move"
    step(g, sub1, "SZ 3")
    assert left(g, sub1) == 0            # the destroyer stops it


def test_a_canal_is_open_only_to_the_side_holding_its_territories() -> None:
    g, ids = situation("Germany", [("Destroyer", "Germany", "SZ 15", 1)])
    g.act("go", u=ids["Germany Destroyer SZ 15"][0])
    assert "SZ 34" not in choices(g)     # Suez: the UK holds Anglo Egypt and Trans-Jordan
    g, ids = situation("Germany", [("Destroyer", "Germany", "SZ 15", 1)],
                       control={"Anglo Egypt": "Germany", "Trans-Jordan": "Japan"})
    g.act("go", u=ids["Germany Destroyer SZ 15"][0])
    assert "SZ 34" in choices(g)


# -- air -------------------------------------------------------------------------------------------
def test_aircraft_fly_only_as_far_as_they_can_still_land() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "Germany", 1), ("Infantry", "USSR", "Russia", 1)],
                       control={"West Russia": "USSR", "Belorussia": "USSR", "Ukraine S.S.R.": "USSR",
                                "Eastern Europe": "USSR", "Karelia S.S.R.": "USSR", "Caucasus": "USSR"})
    fighter = ids["Germany Fighter Germany"][0]
    # Germany -> Eastern Europe -> Belorussia -> West Russia: 3 out, and Germany is 3 back
    step(g, fighter, "Eastern Europe")
    step(g, fighter, "Belorussia")
    g.act("go", u=fighter)
    assert "West Russia" not in choices(g)       # 1 left there, and no landing place within 1
    assert "Eastern Europe" in choices(g)
    g.choose("Eastern Europe")
    assert left(g, fighter) == 1


def test_aircraft_that_do_not_land_are_lost() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "Eastern Europe", 1), ("Bomber", "Germany", "SZ 5", 1),
                                   ("Fighter", "Germany", "SZ 6", 3), ("AircraftCarrier", "Germany", "SZ 6", 1),
                                   ("Fighter", "Germany", "Germany", 1)],
                       control={"Eastern Europe": "USSR"}, step="noncombat_move")
    # they are not moved at all: the fighter in (enemy) Eastern Europe, the bomber at sea and
    # the third fighter on a carrier of two are lost
    g.finish()
    assert g.kinds_at("Eastern Europe") == {}
    assert g.kinds_at("SZ 5") == {}
    assert g.kinds_at("SZ 6") == {"AircraftCarrier": 1, "Fighter": 2}
    assert g.kinds_at("Germany") == {"Fighter": 1}


def test_aircraft_do_not_land_where_their_side_took_over_this_turn() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "Germany", 1), ("Tank", "Germany", "Germany", 1)],
                       control={"Eastern Europe": "USSR", "Karelia S.S.R.": "USSR"})
    fighter, tank = ids["Germany Fighter Germany"][0], ids["Germany Tank Germany"][0]
    step(g, tank, "Eastern Europe")                     # taken: it was empty
    assert g.state.control["Eastern Europe"] == "Germany"
    step(g, fighter, "Eastern Europe")
    step(g, fighter, "Karelia S.S.R.")
    g.finish()
    g.walk_to("Germany", "noncombat_move")
    step(g, fighter, "Eastern Europe")
    g.act("go", u=fighter)
    g.choose("Eastern Europe")           # stops there: not a landing place
    g.finish()
    assert g.piece(fighter) is None


def test_an_allys_fighters_sail_with_the_carrier_they_are_on_and_land_when_the_turn_ends() -> None:
    # found by a random game: a US fighter on a UK carrier was left at sea when the carrier sailed
    g, ids = situation("UK", [("AircraftCarrier", "UK", "SZ 7", 1), ("Fighter", "US", "SZ 7", 2),
                              ("AircraftCarrier", "UK", "SZ 2", 1), ("AircraftCarrier", "US", "SZ 2", 1),
                              ("Fighter", "US", "SZ 2", 2)], step="noncombat_move")
    carrier, (f1, f2) = ids["UK AircraftCarrier SZ 7"][0], ids["US Fighter SZ 7"]
    assert g.labels("go")[0] == "move UK AircraftCarrier in Sea Zone 7 (SZ 7) (2 left)"
    step(g, carrier, "SZ 8")
    assert g.kinds_at("SZ 7") == {} and g.kinds_at("SZ 8") == {"AircraftCarrier": 1, "Fighter": 2}
    assert g.piece(f1).carrier == carrier == g.piece(f2).carrier
    assert g.why_not("go", u=f1) == "that unit cannot move in non-combat move"      # not the UK's to fly
    # in SZ 2 the US carrier stays: the US fighters are on it, and the UK carrier sails alone
    step(g, ids["UK AircraftCarrier SZ 2"][0], "SZ 3")
    assert g.kinds_at("SZ 2", "US") == {"AircraftCarrier": 1, "Fighter": 2} and g.kinds_at("SZ 3", "US") == {}
    g.walk_to("Japan", "purchase")
    assert g.kinds_at("SZ 8") == {"AircraftCarrier": 1, "Fighter": 2}
    assert g.piece(f1).carrier is None and g.piece(f2).carrier is None


# -- transports ------------------------------------------------------------------------------------
def test_land_units_board_a_transport_that_carries_them_and_unloads_them_together() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Tank", "Germany", "Germany", 2), ("Infantry", "UK", "United Kingdom", 1)])
    tp = ids["Germany Transport SZ 5"][0]
    inf, (tank1, tank2) = ids["Germany Infantry Germany"][0], ids["Germany Tank Germany"]
    g.act("go", u=inf)
    assert "board a transport in Sea Zone 5 (SZ 5)" in [a.label for a in g.decision.options]
    g.choose("SZ 5")
    step(g, tank1, "SZ 5")
    assert g.piece(inf).carrier == tp and g.piece(tank1).carrier == tp
    g.act("go", u=tank2)
    assert "SZ 5" not in choices(g)                     # no room: infantry 2 + tank 3 of 5
    g.choose("Germany")
    step(g, tp, "SZ 6")
    assert g.piece(inf).space == "SZ 6" and g.piece(tank1).space == "SZ 6"
    g.act("land", t=tp)
    assert choices(g) == ["Norway", "United Kingdom", "Western Europe"]
    assert "United Kingdom (amphibious assault)" in [a.label for a in g.decision.options]
    g.choose("United Kingdom")
    for u in (inf, tank1):
        assert g.piece(u).space == "United Kingdom"
        assert g.piece(u).carrier is None and g.piece(u).marked("amphibious")
    assert g.options("go") == [] or all(a["u"] != tp for a in g.options("go"))
    assert g.why_not("land", t=tp) == "that transport cannot unload now"


def test_from_a_zone_with_enemy_warships_a_transport_only_unloads_to_assault() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Destroyer", "UK", "SZ 5", 1), ("Infantry", "USSR", "Karelia S.S.R.", 1)])
    inf, tp = ids["Germany Infantry Germany"][0], ids["Germany Transport SZ 5"][0]
    step(g, inf, "SZ 5")
    assert g.proc("unload_targets", g.piece(tp), True) == ["Karelia S.S.R."]
    g.act("land", t=tp)         # not friendly Germany, Norway...: only the assault, so nobody is asked
    # the infantry stays aboard until the sea battle is won
    assert g.piece(inf).carrier == tp and g.piece(tp).marked("lands_in:Karelia S.S.R.")


def test_a_bomber_over_an_enemy_complex_may_raid_it() -> None:
    g, ids = situation("Germany", [("Bomber", "Germany", "Eastern Europe", 1), ("IndustrialComplex", "USSR", "Karelia S.S.R.", 1)],
                       control={"Belorussia": "USSR"})
    bomber = ids["Germany Bomber Eastern Europe"][0]
    assert g.options("raid") == []
    assert g.why_not("raid", b=bomber) == "only a bomber over an enemy industrial complex may raid it"
    step(g, bomber, "Karelia S.S.R.")
    assert [a["b"] for a in g.options("raid")] == [bomber]
    g.act("raid", b=bomber)
    assert g.piece(bomber).marked("raiding")


def test_a_move_of_another_powers_unit_is_refused() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Germany", 1), ("Tank", "USSR", "Russia", 1)])
    with pytest.raises(IllegalAction, match="that unit cannot move in combat move"):
        g.act("go", u=ids["USSR Tank Russia"][0])
