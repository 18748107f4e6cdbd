"""LHTR movement: one unit and one space at a time, in combat move and non-combat move
(RULES.md §A.2, §A.3, §A.7)."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from tests.lhtr.play import choices, fight, left, situation, step


# -- land ------------------------------------------------------------------------------------------
def test_a_unit_goes_one_space_at_a_time_and_the_player_picks_from_a_short_list() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 3), ("Tank", "Germany", "Germany", 1),
                                   ("Infantry", "USSR", "Caucasus", 1)])
    # three infantry in one place are one choice
    # (the spare infantry in Southern Europe has nothing to attack: combat move does not offer it)
    assert g.labels() == ["move Germany Infantry in Ukraine S.S.R. (1 left)", "move Germany Tank in Germany (2 left)",
                          "move Germany Infantry in Norway (1 left)", "end combat move"]
    inf = ids["Germany Infantry Ukraine S.S.R."][0]
    g.act("go", u=inf)
    # Turkey is impassable; the sea zone has no transport to board; Caucasus is enemy (USSR),
    # and the friendly territories lead to no attack for a unit of 1 move
    assert choices(g) == ["Caucasus", "Ukraine S.S.R."]
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
    g, ids = situation("Germany", [("Tank", "Germany", "Germany", 1), ("Fighter", "Germany", "Germany", 1),
                                   ("Infantry", "USSR", "Karelia S.S.R.", 1)],
                       control={"Eastern Europe": "USSR", "Karelia S.S.R.": "USSR"})
    tank, fighter = ids["Germany Tank Germany"][0], ids["Germany Fighter Germany"][0]
    step(g, tank, "Eastern Europe")          # empty: taken
    step(g, fighter, "Eastern Europe")
    step(g, fighter, "Karelia S.S.R.")       # a battle
    g.finish()
    fight(g, "Karelia S.S.R.", [1, 6])       # the fighter hits, the infantry misses
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
    assert g2.why_not("go", u=dd2) == ("the Destroyer in Sea Zone 5 (SZ 5) has nowhere to go: "
                                       "Sea Zone 6 (SZ 6) holds enemy warships: ships enter it only in combat move")


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
    pieces = [("Destroyer", "Germany", "SZ 15", 1), ("Transport", "UK", "SZ 34", 1), ("Transport", "UK", "SZ 14", 1)]
    g, ids = situation("Germany", pieces)
    g.act("go", u=ids["Germany Destroyer SZ 15"][0])
    assert "SZ 34" not in choices(g)     # Suez: the UK holds Anglo Egypt and Trans-Jordan
    g, ids = situation("Germany", pieces, control={"Anglo Egypt": "Germany", "Trans-Jordan": "Japan"})
    g.act("go", u=ids["Germany Destroyer SZ 15"][0])
    assert "SZ 34" in choices(g)


# -- air -------------------------------------------------------------------------------------------
def test_aircraft_fly_only_as_far_as_they_can_still_land() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "Germany", 1), ("Infantry", "USSR", "Eastern Europe", 1)],
                       control={"West Russia": "USSR", "Belorussia": "USSR", "Ukraine S.S.R.": "USSR",
                                "Eastern Europe": "USSR", "Karelia S.S.R.": "USSR", "Caucasus": "USSR"})
    fighter = ids["Germany Fighter Germany"][0]
    # Germany -> Eastern Europe -> Belorussia -> West Russia: 3 out, and Germany is 3 back
    step(g, fighter, "Eastern Europe")
    step(g, fighter, "Belorussia")
    g.act("go", u=fighter)
    assert "West Russia" not in choices(g)       # 1 left there, and no landing place within 1
    with pytest.raises(IllegalAction, match="the Fighter in Belorussia could not reach a landing place from West Russia"):
        g.choose("West Russia")
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
    g, ids = situation("Germany", [("Fighter", "Germany", "Germany", 1), ("Tank", "Germany", "Germany", 1),
                                   ("Infantry", "USSR", "Karelia S.S.R.", 1)],
                       control={"Eastern Europe": "USSR", "Karelia S.S.R.": "USSR"})
    fighter, tank = ids["Germany Fighter Germany"][0], ids["Germany Tank Germany"][0]
    step(g, tank, "Eastern Europe")                     # taken: it was empty
    assert g.state.control["Eastern Europe"] == "Germany"
    step(g, fighter, "Eastern Europe")
    step(g, fighter, "Karelia S.S.R.")
    g.finish()
    fight(g, "Karelia S.S.R.", [1, 6])
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
    # in combat move only the assault: Norway and Western Europe are friendly (nobody is asked)
    assert g.proc("unload_targets", g.piece(tp), True) == ["United Kingdom"]
    assert g.proc("unload_refusal", g.piece(tp), "Western Europe", True) == (
        "Western Europe is friendly territory: in combat move a transport unloads only in an amphibious assault "
        "(it unloads there in non-combat move)")
    g.act("land", t=tp)
    for u in (inf, tank1):
        assert g.piece(u).space == "United Kingdom"
        assert g.piece(u).carrier is None and g.piece(u).marked("amphibious")
    assert g.options("go") == [] or all(a["u"] != tp for a in g.options("go"))
    assert g.why_not("land", t=tp) == "that transport cannot unload now"


def test_a_loaded_transport_with_nowhere_to_unload_is_not_offered() -> None:
    # a German transport in SZ 5 with an infantry aboard, every coast of the zone friendly: in
    # combat move it has no assault to make (the land move's guard refuses it)
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "SZ 5", 1)],
                       control={"Karelia S.S.R.": "Germany"})
    tp, inf = ids["Germany Transport SZ 5"][0], ids["Germany Infantry SZ 5"][0]
    g.state.update(inf, carrier=tp)
    assert [t.id for t in g.proc("loaded_transports", "Germany", True)] == [tp]
    assert g.proc("unload_targets", g.piece(tp), True) == []
    assert [a for a in g.rs.logic.decision(g.state).options if a.kind == "land"] == []
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


# -- combat move is for attacks (RULES.md §A.2) ------------------------------------------------------
def test_combat_move_refuses_a_step_that_leads_to_no_attack_with_the_rules_reason() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 1), ("Infantry", "USSR", "Caucasus", 1)])
    inf = ids["Germany Infantry Ukraine S.S.R."][0]
    g.act("go", u=inf)
    assert "Belorussia" not in choices(g)
    with pytest.raises(IllegalAction, match=r"^in combat move land units move only to attack: Belorussia is friendly and "
                                            r"the Infantry in Ukraine S.S.R. could reach no enemy territory from there "
                                            r"\(it moves in non-combat move\)$"):
        g.choose("Belorussia")
    g.choose("Caucasus")
    assert g.piece(inf).space == "Caucasus"


def test_a_unit_with_nothing_to_attack_is_not_offered_in_combat_move_but_after() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Southern Europe", 1), ("Destroyer", "Germany", "SZ 14", 1),
                                   ("Fighter", "Germany", "Germany", 1)])
    tank, dd, fighter = ids["Germany Tank Southern Europe"][0], ids["Germany Destroyer SZ 14"][0], ids["Germany Fighter Germany"][0]
    offered = [a["u"] for a in g.options("go")]
    assert tank not in offered and dd not in offered and fighter not in offered
    assert g.why_not("go", u=tank) == "the Tank in Southern Europe has nothing to attack within reach: it moves in non-combat move"
    assert g.why_not("go", u=dd) == "the Destroyer in Sea Zone 14 (SZ 14) has nothing to attack within reach: it moves in non-combat move"
    g.finish()
    g.walk_to("Germany", "noncombat_move")
    offered = [a["u"] for a in g.options("go")]
    assert tank in offered and dd in offered and fighter in offered


def test_ships_and_aircraft_move_in_combat_move_only_toward_enemy_units() -> None:
    g, ids = situation("Germany", [("Destroyer", "Germany", "SZ 6", 1), ("Battleship", "UK", "SZ 5", 1),
                                   ("Fighter", "Germany", "Germany", 1), ("Infantry", "USSR", "Eastern Europe", 1)],
                       control={"Eastern Europe": "USSR"})
    dd, fighter = ids["Germany Destroyer SZ 6"][0], ids["Germany Fighter Germany"][0]
    g.act("go", u=dd)
    # SZ 3 and SZ 7 are out of the battleship's reach with the 1 move left there
    assert choices(g) == ["SZ 5", "SZ 6"]
    with pytest.raises(IllegalAction, match=r"^in combat move ships move only to attack: from Sea Zone 3 \(SZ 3\) the "
                                            r"Destroyer in Sea Zone 6 \(SZ 6\) could reach no enemy ships \(it moves"):
        g.choose("SZ 3")
    g.choose("SZ 6")                     # stays (not moved: nothing goes back)
    assert g.piece(dd).space == "SZ 6"
    g, ids = situation("Germany", [("Fighter", "Germany", "Germany", 1), ("Infantry", "USSR", "Kazakh S.S.R.", 1)],
                       control={"Eastern Europe": "USSR", "Ukraine S.S.R.": "USSR", "Caucasus": "USSR"})
    fighter = ids["Germany Fighter Germany"][0]
    g.act("go", u=fighter)
    # Kazakh S.S.R. is 3 from Eastern Europe, 5 from Western Europe
    assert "Eastern Europe" in choices(g) and "Western Europe" not in choices(g)
    with pytest.raises(IllegalAction, match=r"^in combat move aircraft fly only to attack: from Western Europe the "
                                            r"Fighter in Germany could reach no enemy units to fight \(it flies on"):
        g.choose("Western Europe")


def test_a_tank_crosses_friendly_land_to_attack_and_goes_back_if_it_stops_short() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Germany", 2), ("Infantry", "USSR", "Karelia S.S.R.", 1)],
                       control={"Karelia S.S.R.": "USSR"})
    t1, t2 = ids["Germany Tank Germany"]
    step(g, t1, "Eastern Europe")        # friendly, but Karelia is next to it
    assert g.piece(t1).space == "Eastern Europe" and left(g, t1) == 1
    g.act("go", u=t1)
    assert "go back to Germany (nothing to attack here)" in [a.label for a in g.decision.options]
    g.choose("Eastern Europe")           # that answer: it goes back at once, its moves unspent
    assert g.piece(t1).space == "Germany" and left(g, t1) == 2 and not g.piece(t1).marked("combat_moved")
    assert [a["u"] for a in g.options("go") if g.piece(a["u"]).kind == "Tank"] == [t1]     # alike again
    step(g, t1, "Eastern Europe")        # this time it is left there when combat move ends
    g.log = []
    g.finish()
    assert g.piece(t1).space == "Germany" and left(g, t1) == 2
    assert [e["message"] for k, e in g.log if k == "note"] == [
        "the Tank in Eastern Europe attacks nothing: it goes back to Germany and may move in non-combat move"]
    g.walk_to("Germany", "noncombat_move")
    assert t1 in [a["u"] for a in g.options("go")]
    assert [left(g, t) for t in (t1, t2)] == [2, 2] and not g.piece(t2).marked("combat_moved")


def test_cargo_boarded_for_an_assault_that_is_not_made_goes_back_ashore() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Infantry", "UK", "United Kingdom", 1)])
    inf, tp = ids["Germany Infantry Germany"][0], ids["Germany Transport SZ 5"][0]
    step(g, inf, "SZ 5")                 # the transport can take it to the United Kingdom
    step(g, tp, "SZ 6")
    assert g.piece(inf).carrier == tp
    g.finish()                           # but it never lands
    assert g.piece(inf).space == "Germany" and g.piece(inf).carrier is None
    assert g.piece(tp).space == "SZ 5" and left(g, tp) == 2


def test_a_second_assault_may_land_where_the_first_took_an_empty_territory() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 2), ("Infantry", "Germany", "Germany", 2)],
                       control={"Karelia S.S.R.": "USSR"})
    i1, i2 = ids["Germany Infantry Germany"]
    step(g, i1, "SZ 5")
    g.act("land", t=g.piece(i1).carrier)
    assert g.state.control["Karelia S.S.R."] == "Germany"        # empty: taken
    step(g, i2, "SZ 5")
    assert g.proc("unload_targets", g.piece(g.piece(i2).carrier), True) == ["Karelia S.S.R."]
    g.act("land", t=g.piece(i2).carrier)
    g.finish()
    assert g.kinds_at("Karelia S.S.R.", "Germany") == {"Infantry": 2}


def test_own_fighters_ride_a_carrier_outside_combat_move_and_fly_with_it_in_combat_move() -> None:
    # RULES.md S14: fighters on a carrier launch before it moves to attack; else they are cargo
    g, ids = situation("UK", [("AircraftCarrier", "UK", "SZ 7", 1), ("Fighter", "UK", "SZ 7", 2)], step="noncombat_move")
    carrier, (f1, f2) = ids["UK AircraftCarrier SZ 7"][0], ids["UK Fighter SZ 7"]
    step(g, carrier, "SZ 8")
    assert g.kinds_at("SZ 8") == {"AircraftCarrier": 1, "Fighter": 2} and g.piece(f1).carrier == carrier
    assert g.why_not("go", u=f1) == "that unit cannot move in non-combat move"
    g.finish()                                          # not lost: they are on the carrier
    assert g.kinds_at("SZ 8") == {"AircraftCarrier": 1, "Fighter": 2}
    g.walk_to("Japan", "purchase")
    assert g.piece(f1).carrier is None and g.piece(f2).space == "SZ 8"
    g, ids = situation("UK", [("AircraftCarrier", "UK", "SZ 7", 1), ("Fighter", "UK", "SZ 7", 2),
                              ("Submarine", "Germany", "SZ 8", 1)])
    carrier, (f1, f2) = ids["UK AircraftCarrier SZ 7"][0], ids["UK Fighter SZ 7"]
    step(g, carrier, "SZ 8")                            # an attack: the fighters fly themselves
    assert g.piece(f1).space == "SZ 7" and g.piece(f1).carrier is None
    step(g, f1, "SZ 8")
    assert left(g, f1) == 3


@pytest.mark.parametrize("kind", ["AAGun", "IndustrialComplex"])
def test_a_tank_stops_in_a_territory_holding_only_an_enemy_aa_gun_or_factory(kind: str) -> None:
    # Revised (and TripleA's Revised game, ww2v2: AA guns and factories stop a blitz): the tank
    # takes the territory and its move ends there
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), (kind, "USSR", "West Russia", 1),
                                   ("Infantry", "USSR", "Russia", 1)], control={"West Russia": "USSR"})
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    step(g, tank, "West Russia")
    assert g.state.control["West Russia"] == "Germany"
    assert g.kinds_at("West Russia", "Germany") == {kind: 1, "Tank": 1}
    assert left(g, tank) == 0
    assert g.why_not("go", u=tank) == "that unit cannot move in combat move"


# -- fighters waiting for a new carrier (issue 36 item 6) --------------------------------------------
def uk_buys_a_carrier(step_to: str = "noncombat_move"):
    g, ids = situation("UK", [("IndustrialComplex", "UK", "United Kingdom", 1), ("Fighter", "UK", "United Kingdom", 2)],
                       step="purchase", ipc=40)
    g.act("buy", kind="AircraftCarrier")
    g.walk_to("UK", step_to)
    return g, ids["UK Fighter United Kingdom"]


def test_a_fighter_waits_at_sea_for_the_carrier_bought_this_turn() -> None:
    # LHTR (TripleA's LHTR game notes, reference/triplea/lhtr.xml): air units no longer move
    # onto a carrier when it is placed; "you must move those air units to the [sea zone] where
    # the carrier will be placed during one of the movement phases, then place the carrier
    # under it during placement phase"
    g, (f1, f2) = uk_buys_a_carrier()
    step(g, f1, "SZ 7")
    g.act("go", u=f1)
    g.choose("SZ 7")                              # stops there, over where the carrier will go
    g.finish()                                    # non-combat move ends: it waits
    assert g.step == "mobilize" and g.piece(f1).space == "SZ 7"
    carrier = g.options("place")[0]["u"]
    g.act("place", u=carrier, at="United Kingdom", to="SZ 7")    # the last unit: mobilize ends
    assert g.kinds_at("SZ 7", "UK") == {"AircraftCarrier": 1, "Fighter": 1}


def test_a_fighter_waiting_where_no_new_carrier_is_placed_is_lost_when_mobilize_ends() -> None:
    g, (f1, f2) = uk_buys_a_carrier()
    for f in (f1, f2):
        step(g, f, "SZ 7")
    for f in (f1, f2):
        g.act("go", u=f)
        g.choose("SZ 7")
    g.finish()
    assert g.kinds_at("SZ 7") == {"Fighter": 2}
    carrier = g.options("place")[0]["u"]
    g.log = []
    g.act("place", u=carrier, at="United Kingdom", to="SZ 6")    # the last unit: mobilize ends
    assert g.kinds_at("SZ 7") == {} and g.piece(f1) is None and g.piece(f2) is None
    assert "UK Fighter" in [f'{e["owner"]} {e["kind"]}' for k, e in g.log if k == "destroyed"]


def test_no_more_fighters_wait_than_the_new_carriers_have_room_for() -> None:
    g, (f1, f2) = uk_buys_a_carrier()
    g.add("Fighter", "UK", "SZ 7")                # a third fighter there already
    g.restart_turn()
    for f in (f1, f2):
        step(g, f, "SZ 7")
        g.act("go", u=f)
        g.choose("SZ 7")
    g.finish()
    assert len(g.at("SZ 7", "UK", "Fighter")) == 2      # room for two on the carrier to come
