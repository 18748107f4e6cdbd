"""AARHE movement over LHTR's (RULES.md part B, Phase 3 and Phase 5): air movement and air
reinforcement, naval passage, co-occupation, submarines, straits, the Turkish straits and
Turkey, terrain, small islands, Stalinist xenophobia and Rome-Berlin-Tokyo co-operation. Each
rule is played in a small situation with fixed dice; each refused move gives its reason."""

from __future__ import annotations

from engine.game import Game
from tests.aarhe.play import Play, aarhe, at_aarhe
from tests.lhtr.play import left, step
from tests.lhtr.soak import SCENARIO, RandomPlay


def refused_step(g: Play, unit: int, to: str) -> str | None:
    """The reason the rules give for a step the unit is not offered (None if it is)."""
    g.act("go", u=unit)
    why = g.why_not("choose", choice=to)
    g.choose(g.piece(unit).space)                 # "stop here": nothing moved
    return why


def rolls(g: Play) -> list[list[int]]:
    return [e[1]["faces"] for e in g.log if e[0] == "roll"]


def to_step(g: Play, name: str) -> None:
    """Finish steps until `name` (of the same power's turn)."""
    for _ in range(50):
        if g.step == name:
            return
        g.finish()
    raise AssertionError(f"never reached {name}")


# -- air movement (Phase 3 and 5) --------------------------------------------------------------------
def test_aircraft_have_their_whole_movement_in_combat_move_and_again_after_and_aa_never_fires_on_the_way() -> None:
    soviet = {t: "USSR" for t in ("Belorussia", "West Russia", "Ukraine S.S.R.", "Eastern Europe", "Karelia S.S.R.",
                                  "Caucasus")}
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Germany", 1), ("AAGun", "USSR", "Belorussia", 1)],
                      control=soviet)
    fighter = ids["Germany Fighter Germany"][0]
    g.log = []
    for to in ("Eastern Europe", "Belorussia", "West Russia", "Russia"):     # 4 out: Germany is 4 back
        step(g, fighter, to)
    assert g.piece(fighter).space == "Russia" and left(g, fighter) == 0
    assert g.why_not("go", u=fighter) == "that unit cannot move in combat move"
    to_step(g, "noncombat_move")
    assert left(g, fighter) == 4                   # a whole allowance again
    for to in ("West Russia", "Belorussia", "Eastern Europe", "Germany"):
        step(g, fighter, to)
    g.finish()
    assert g.piece(fighter).space == "Germany"
    assert rolls(g) == []                          # the AA gun in Belorussia never fired at it


def test_with_one_allowance_a_turn_as_in_lhtr_aircraft_keep_the_moves_to_fly_home() -> None:
    soviet = {t: "USSR" for t in ("Belorussia", "West Russia", "Ukraine S.S.R.", "Eastern Europe", "Karelia S.S.R.",
                                  "Caucasus")}
    # a Soviet infantry in West Russia to attack: combat move is for attacks (LHTR, RULES.md A.2)
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Germany", 1), ("Infantry", "USSR", "West Russia", 1)],
                      control=soviet, air_moves_each_phase=False)
    fighter = ids["Germany Fighter Germany"][0]
    step(g, fighter, "Eastern Europe")
    step(g, fighter, "Belorussia")
    assert refused_step(g, fighter, "West Russia") == "the Fighter in Belorussia could not reach a landing place from West Russia"


# -- air reinforcement (Phase 3) ----------------------------------------------------------------------
def test_the_passive_powers_in_turn_move_air_units_next_door_and_they_defend_there() -> None:
    g, ids = at_aarhe("Germany", [("Infantry", "Germany", "Belorussia", 1), ("Infantry", "USSR", "West Russia", 1),
                                  ("Fighter", "USSR", "Russia", 1), ("Fighter", "USSR", "Archangel", 1),
                                  ("Fighter", "UK", "Persia", 1)],
                      control={"Belorussia": "Germany", "West Russia": "USSR"})
    inf = ids["Germany Infantry Belorussia"][0]
    red, uk = ids["USSR Fighter Russia"][0], ids["UK Fighter Persia"][0]
    step(g, inf, "West Russia")
    to_step(g, "air_reinforcement")                # no sea zone to attack: that step passed by itself
    # at the end of Germany's combat move: the UK first (the next in turn order), then the USSR
    assert g.step == "air_reinforcement" and g.decision.player == "UK"
    assert g.labels("reinforce") == ["air reinforcement: the UK Fighter in Persia to India",
                                     "air reinforcement: the UK Fighter in Persia to Trans-Jordan"]
    assert g.why_not("reinforce", u=uk, to="Caucasus") == \
        "Stalinist xenophobia: UK may not move units into Caucasus, an original Soviet territory the USSR holds"
    assert g.why_not("reinforce", u=uk, to="Turkey") == \
        "Turkey is neutral: only land units enter it, in combat move"
    g.finish()
    assert g.decision.player == "USSR"
    g.act("reinforce", u=red, to="West Russia")
    assert g.piece(red).space == "West Russia" and g.piece(red).marked("reinforced")
    assert g.why_not("reinforce", u=red, to="Russia") == \
        "only an air unit of USSR that has not yet reinforced, and is not in a battle, may reinforce"
    g.finish()                                     # the fighter in Archangel stays
    to_step(g, "conduct_combat")
    # the German infantry rolls 6 (miss); the Soviet infantry 6, the fighter 1: a hit
    g.state.load_dice([6, 6, 1])
    g.act("fight", where="West Russia")
    assert g.piece(inf) is None and g.piece(red) is not None
    assert g.state.control["West Russia"] == "USSR"


def test_air_units_in_a_space_the_mover_attacks_stay_to_defend_it() -> None:
    pieces = [("Infantry", "Germany", "Belorussia", 1), ("Fighter", "USSR", "West Russia", 1)]
    soviet = {"Belorussia": "Germany", "West Russia": "USSR"}
    g, ids = at_aarhe("Germany", pieces, control=soviet)
    fighter = ids["USSR Fighter West Russia"][0]
    step(g, ids["Germany Infantry Belorussia"][0], "West Russia")
    to_step(g, "conduct_combat")                   # nothing was offered to the USSR: it passed
    assert g.piece(fighter).space == "West Russia"
    g, ids = at_aarhe("Germany", pieces, control=soviet, reinforce_from_battles=True)
    step(g, ids["Germany Infantry Belorussia"][0], "West Russia")
    to_step(g, "air_reinforcement")
    assert g.decision.player == "USSR"
    assert ids["USSR Fighter West Russia"][0] in [a["u"] for a in g.options("reinforce")]


# -- naval movement (Phase 3 and 5) ----------------------------------------------------------------------
def test_ships_sail_through_zones_holding_only_enemy_submarines_and_transports() -> None:
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 5", 1), ("Submarine", "UK", "SZ 6", 1),
                                  ("Transport", "UK", "SZ 6", 1)])
    dd = ids["Germany Destroyer SZ 5"][0]
    step(g, dd, "SZ 6")
    assert left(g, dd) == 1                        # LHTR would stop it here
    step(g, dd, "SZ 3")
    assert g.piece(dd).space == "SZ 3"
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 5", 1), ("Transport", "UK", "SZ 6", 1),
                                  ("Destroyer", "UK", "SZ 6", 1)])
    dd = ids["Germany Destroyer SZ 5"][0]
    step(g, dd, "SZ 6")
    assert left(g, dd) == 0                        # an enemy warship ends its move


def test_in_non_combat_move_ships_pass_only_enemy_transports() -> None:
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 5", 2), ("Transport", "UK", "SZ 6", 1)],
                      step="noncombat_move")
    dd = ids["Germany Destroyer SZ 5"][0]
    step(g, dd, "SZ 6")
    assert left(g, dd) == 1
    step(g, dd, "SZ 3")
    assert g.piece(dd).space == "SZ 3"
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 6", 1), ("Submarine", "UK", "SZ 3", 1),
                                  ("Destroyer", "Germany", "SZ 3", 1)], step="noncombat_move")
    assert refused_step(g, ids["Germany Destroyer SZ 6"][0], "SZ 3") == (
        "in non-combat move ships pass only through sea zones holding enemy transports and/or friendly units: "
        "Sea Zone 3 (SZ 3) holds enemy warships")


def test_each_enemy_submarine_rolls_once_and_only_passing_transports_take_its_hits() -> None:
    g, ids = at_aarhe("UK", [("Destroyer", "UK", "SZ 2", 1), ("Transport", "UK", "SZ 2", 2),
                             ("Infantry", "UK", "United Kingdom", 1), ("Submarine", "Germany", "SZ 3", 2)])
    dd = ids["UK Destroyer SZ 2"][0]
    t1, t2 = ids["UK Transport SZ 2"]
    g.log = []
    step(g, dd, "SZ 3")
    step(g, dd, "SZ 4")                            # a warship passing: nothing fires at it
    assert g.piece(dd).space == "SZ 4" and rolls(g) == []
    step(g, t1, "SZ 3")
    g.state.load_dice([1, 5])                      # the two submarines (attack 2): one hit
    step(g, t1, "SZ 4")
    assert rolls(g) == [[1, 5]] and g.piece(t1) is None
    step(g, t2, "SZ 3")
    step(g, t2, "SZ 4")                            # they have rolled this turn: it gets by
    assert g.piece(t2).space == "SZ 4" and rolls(g) == [[1, 5]]


def test_each_enemy_destroyer_ends_one_submarines_move() -> None:
    g, ids = at_aarhe("Germany", [("Submarine", "Germany", "SZ 5", 2), ("Destroyer", "UK", "SZ 6", 1),
                                  ("Battleship", "UK", "SZ 6", 1)])
    s1, s2 = ids["Germany Submarine SZ 5"]
    step(g, s1, "SZ 6")
    assert left(g, s1) == 0                        # the destroyer stops it
    step(g, s2, "SZ 6")
    assert left(g, s2) == 1                        # LHTR would stop this one too
    step(g, s2, "SZ 3")
    assert g.piece(s2).space == "SZ 3"


# -- co-occupation (Phase 3) -----------------------------------------------------------------------------
def test_a_sea_zone_shared_with_enemy_ships_is_a_battle_only_if_the_mover_attacks_it() -> None:
    pieces = [("Destroyer", "Germany", "SZ 5", 1), ("Battleship", "UK", "SZ 6", 1)]
    g, ids = at_aarhe("Germany", pieces)
    dd = ids["Germany Destroyer SZ 5"][0]
    step(g, dd, "SZ 6")
    to_step(g, "declare_sea_attacks")
    assert g.labels() == ["attack the enemy units in Sea Zone 6 (SZ 6)",
                          "no more sea attacks: the other zones are co-occupied"]
    g.finish()                                     # they stay side by side
    to_step(g, "noncombat_move")                   # no battle was offered
    assert g.piece(dd).space == "SZ 6" and len(g.at("SZ 6", "UK")) == 1
    g, ids = at_aarhe("Germany", pieces)
    step(g, ids["Germany Destroyer SZ 5"][0], "SZ 6")
    to_step(g, "declare_sea_attacks")
    assert g.why_not("attack", z="SZ 3") == \
        "Sea Zone 3 (SZ 3) is no sea zone where your units meet enemy units you have not yet chosen to attack"
    g.act("attack", z="SZ 6")
    to_step(g, "conduct_combat")
    assert [a["where"] for a in g.options("fight")] == ["SZ 6"]


def test_a_landing_out_of_a_shared_zone_attacks_that_zone() -> None:
    g, ids = at_aarhe("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Eastern Europe", 1),
                                  ("Destroyer", "UK", "SZ 5", 1)])
    step(g, ids["Germany Infantry Eastern Europe"][0], "SZ 5")   # boards
    g.act("land", t=ids["Germany Transport SZ 5"][0])       # only the assault: nobody is asked where
    to_step(g, "conduct_combat")                   # nothing was left to declare: the step passed by itself
    assert list(g.var("sea_attacks")) == ["SZ 5"]
    assert [a["where"] for a in g.options("fight")] == ["SZ 5"]


# -- straits (Phase 3) ------------------------------------------------------------------------------------
def test_the_holder_of_a_strait_fires_one_die_at_each_hostile_ship_crossing_it() -> None:
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 7", 1), ("Transport", "Germany", "SZ 7", 1),
                                  ("Submarine", "Germany", "SZ 7", 1)])
    dd, tp, sub = ids["Germany Destroyer SZ 7"][0], ids["Germany Transport SZ 7"][0], ids["Germany Submarine SZ 7"][0]
    g.log = []
    g.state.load_dice([1])                         # the UK holds United Kingdom (hit 1): the destroyer is lost
    step(g, dd, "SZ 6")
    assert g.piece(dd) is None and rolls(g) == [[1]]
    g.state.load_dice([2])                         # 2 misses
    step(g, tp, "SZ 6")
    assert g.piece(tp).space == "SZ 6"
    step(g, sub, "SZ 6")                           # submarines are not fired at
    assert g.piece(sub).space == "SZ 6" and rolls(g) == [[1], [2]]


def test_gibraltars_guns_hit_on_two_and_sink_even_a_battleship() -> None:
    g, ids = at_aarhe("US", [("Battleship", "US", "SZ 13", 1)], control={"Gibraltar": "Germany"})
    bb = ids["US Battleship SZ 13"][0]
    g.state.load_dice([2])
    step(g, bb, "SZ 12")
    assert g.piece(bb) is None


def test_a_strait_the_enemy_holds_is_crossed_only_in_combat_move() -> None:
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 7", 1), ("Submarine", "Germany", "SZ 7", 1)],
                      step="noncombat_move")
    assert refused_step(g, ids["Germany Destroyer SZ 7"][0], "SZ 6") == (
        "the strait between Sea Zone 7 (SZ 7) and Sea Zone 6 (SZ 6) is held by the enemy (United Kingdom): "
        "ships cross it only in combat move")
    step(g, ids["Germany Submarine SZ 7"][0], "SZ 6")
    assert g.piece(ids["Germany Submarine SZ 7"][0]).space == "SZ 6"


# -- the Turkish straits and Turkey (Phase 3) ---------------------------------------------------------------
def test_ships_pass_the_turkish_straits_only_if_their_side_held_turkey_when_the_turn_began() -> None:
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 16", 1), ("Infantry", "Germany", "Balkans", 1)])
    dd, inf = ids["Germany Destroyer SZ 16"][0], ids["Germany Infantry Balkans"][0]
    step(g, inf, "Turkey")                         # taken this turn: the straits stay shut until the next
    assert g.state.control["Turkey"] == "Germany"
    assert "ships pass between Sea Zone 16 (SZ 16) and Sea Zone 15 (SZ 15) only when their side held Turkey " \
        "at the start of the turn" in g.why_not("go", u=dd)
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 16", 1)], control={"Turkey": "Germany"})
    step(g, ids["Germany Destroyer SZ 16"][0], "SZ 15")
    assert g.piece(ids["Germany Destroyer SZ 16"][0]).space == "SZ 15"


def test_the_black_sea_is_left_only_through_the_turkish_straits() -> None:
    # sea zone 16 (the Black Sea) touches 14 as well as 15 on the Revised board: both links
    # cross the straits, and both are shut to a side that did not hold Turkey when the turn began
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 16", 1)], step="noncombat_move")
    dd = ids["Germany Destroyer SZ 16"][0]
    assert g.why_not("go", u=dd) == (
        "the Destroyer in Sea Zone 16 (SZ 16) has nowhere to go: "
        "ships pass between Sea Zone 16 (SZ 16) and Sea Zone 14 (SZ 14) only when their side held Turkey "
        "at the start of the turn; "
        "ships pass between Sea Zone 16 (SZ 16) and Sea Zone 15 (SZ 15) only when their side held Turkey "
        "at the start of the turn")
    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 16", 1)], control={"Turkey": "Germany"},
                      step="noncombat_move")
    step(g, ids["Germany Destroyer SZ 16"][0], "SZ 14")
    assert g.piece(ids["Germany Destroyer SZ 16"][0]).space == "SZ 14"


def test_turkey_is_a_neutral_land_units_enter_in_combat_move_and_take() -> None:
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Balkans", 1), ("Fighter", "Germany", "Balkans", 1)])
    tank, fighter = ids["Germany Tank Balkans"][0], ids["Germany Fighter Balkans"][0]
    assert g.state.control.get("Turkey", "") == ""
    assert refused_step(g, fighter, "Turkey") == "Turkey is neutral: only land units enter it, in combat move"
    step(g, tank, "Turkey")
    assert g.state.control["Turkey"] == "Germany" and left(g, tank) == 1   # as an empty enemy territory: on it may go
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Balkans", 1)], step="noncombat_move")
    assert refused_step(g, ids["Germany Tank Balkans"][0], "Turkey") == \
        "Turkey is neutral: land units enter it only in combat move, and take it"
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Balkans", 1)], turkey_enterable=False)
    assert refused_step(g, ids["Germany Tank Balkans"][0], "Turkey") == "Turkey is impassable"


# -- terrain (Phase 3) -------------------------------------------------------------------------------------------
def test_a_tank_taking_desert_snow_or_mountains_may_not_blitz_on() -> None:
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Germany", 2), ("Tank", "Germany", "Libya", 1)],
                      control={"Balkans": "USSR", "Eastern Europe": "USSR", "Algeria": "Germany"})
    t1, t2 = ids["Germany Tank Germany"]
    step(g, t1, "Balkans")                         # mountains
    assert g.state.control["Balkans"] == "Germany" and left(g, t1) == 0
    step(g, t2, "Eastern Europe")                  # plain: LHTR's blitz
    assert left(g, t2) == 1
    desert = ids["Germany Tank Libya"][0]
    to_step(g, "noncombat_move")                   # combat move is for attacks: Algeria is friendly
    step(g, desert, "Algeria")                     # a friendly desert is crossed at full move
    assert left(g, desert) == 1


# -- small islands (Phase 3) ---------------------------------------------------------------------------------------
def with_cargo(power: str, pieces: list[tuple[str, str, str, int]], transport: str, cargo: list[str],
               step: str = "combat_move") -> tuple[Play, dict[str, list[int]], int]:
    """`at_aarhe`, with the first transport in `transport` carrying `cargo` (unit kinds)."""
    g, ids = at_aarhe(power, pieces, step="purchase")
    tp = next(p.id for p in g.at(transport) if p.kind == "Transport")
    for kind in cargo:
        (c,) = g.add(kind, g.piece(tp).owner, transport)
        g.state.update(c, carrier=tp)
    g.restart_turn()
    g.walk_to(power, step, turn=1)
    return g, ids, tp


def test_no_more_than_three_units_of_a_side_may_occupy_a_small_island() -> None:
    pieces = [("Infantry", "Japan", "Wake Island", 2), ("Fighter", "Japan", "SZ 51", 1),
              ("AircraftCarrier", "Japan", "SZ 51", 1)]
    g, ids = at_aarhe("Japan", pieces)
    assert g.proc("island_room", "Wake Island", "Japan") == 1
    assert g.proc("island_room", "Japan", "Japan") == 999          # not a small island (mobilize asks this)
    fighter = ids["Japan Fighter SZ 51"][0]
    step(g, fighter, "Wake Island")                # the third unit: there is room for it
    assert g.piece(fighter).space == "Wake Island" and g.proc("island_room", "Wake Island", "Japan") == 0
    g, ids = at_aarhe("Japan", [("Infantry", "Japan", "Wake Island", 3), *pieces[1:]])
    assert refused_step(g, ids["Japan Fighter SZ 51"][0], "Wake Island") == \
        "Wake Island is a small island: no more than 3 units may occupy it"


def test_a_transport_unloads_onto_a_small_island_only_with_room_for_all_its_cargo() -> None:
    g, ids, tp = with_cargo("Japan", [("Infantry", "Japan", "Wake Island", 2), ("Transport", "Japan", "SZ 51", 1)],
                            "SZ 51", ["Infantry", "Infantry"], step="noncombat_move")
    assert g.why_not("land", t=tp) == "that transport cannot unload now"
    assert g.proc("unload_refusal", g.piece(tp), "Wake Island", False) == \
        "Wake Island is a small island: no more than 3 units may occupy it"
    g, ids, tp = with_cargo("Japan", [("Infantry", "Japan", "Wake Island", 1), ("Transport", "Japan", "SZ 51", 1)],
                            "SZ 51", ["Infantry", "Infantry"], step="noncombat_move")
    g.act("land", t=tp)
    assert g.kinds_at("Wake Island") == {"Infantry": 3}
    # an assault: the attackers count apart from the three defenders
    g, ids, tp = with_cargo("US", [("Infantry", "Japan", "Wake Island", 3), ("Transport", "US", "SZ 51", 1)],
                            "SZ 51", ["Infantry", "Infantry"])
    g.act("land", t=tp)
    assert g.kinds_at("Wake Island", "US") == {"Infantry": 2}


def test_an_aa_gun_captured_on_a_full_small_island_is_destroyed() -> None:
    g, ids, t1 = with_cargo("US", [("AAGun", "Japan", "Wake Island", 1), ("Infantry", "Japan", "Wake Island", 1),
                                   ("Transport", "US", "SZ 51", 1)], "SZ 51", ["Infantry", "Infantry"])
    g.act("land", t=t1)
    g.walk_to("US", "conduct_combat")
    g.state.load_dice([1, 1, 6])
    g.act("fight", where="Wake Island")
    assert g.state.control["Wake Island"] == "US"
    assert g.kinds_at("Wake Island") == {"AAGun": 1, "Infantry": 2}        # room for the gun: captured
    g, ids, t1 = with_cargo("US", [("AAGun", "Japan", "Wake Island", 1), ("Infantry", "Japan", "Wake Island", 1),
                                   ("Transport", "US", "SZ 51", 1), ("Transport", "US", "SZ 52", 1)],
                            "SZ 51", ["Infantry", "Infantry"])
    t2 = next(p.id for p in g.at("SZ 52") if p.kind == "Transport")
    (c,) = g.add("Infantry", "US", "SZ 52")
    g.state.update(c, carrier=t2)
    g.act("land", t=t1)
    step(g, t2, "SZ 51")
    g.act("land", t=t2)
    g.walk_to("US", "conduct_combat")
    g.state.load_dice([1, 1, 1, 6])
    g.act("fight", where="Wake Island")
    assert g.state.control["Wake Island"] == "US"
    assert g.kinds_at("Wake Island") == {"Infantry": 3}                    # three took it: no room for a fourth
    assert "the AAGun US captured in Wake Island is destroyed" in " ".join(
        e["message"] for k, e in g.log if k == "note")


# -- Stalinist xenophobia (Phase 3) -------------------------------------------------------------------------------
def test_the_other_allies_keep_out_of_soviet_territory_and_soviet_units() -> None:
    g, ids = at_aarhe("UK", [("Tank", "UK", "Persia", 2), ("Infantry", "UK", "India", 1),
                             ("Infantry", "USSR", "Trans-Jordan", 1), ("Fighter", "UK", "India", 1)])
    (t1, t2), inf = ids["UK Tank Persia"], ids["UK Infantry India"][0]
    assert refused_step(g, t1, "Caucasus") == \
        "Stalinist xenophobia: UK may not move units into Caucasus, an original Soviet territory the USSR holds"
    assert refused_step(g, t2, "Trans-Jordan") == \
        "Stalinist xenophobia: UK may not move units into Trans-Jordan, where Soviet units are"
    to_step(g, "noncombat_move")                   # combat move is for attacks: Persia is the UK's
    step(g, inf, "Persia")                         # a UK territory without Soviet units
    assert g.piece(inf).space == "Persia"
    fighter = ids["UK Fighter India"][0]
    step(g, fighter, "Persia")
    assert refused_step(g, fighter, "Kazakh S.S.R.").startswith("Stalinist xenophobia")   # nor fly over it


def test_a_territory_the_ussr_takes_is_soviet_not_liberated() -> None:
    # Persia is the UK's, held by Germany; the UK holds its capital, so LHTR would hand it back
    g, ids = at_aarhe("USSR", [("Infantry", "USSR", "Caucasus", 1)], control={"Persia": "Germany"})
    step(g, ids["USSR Infantry Caucasus"][0], "Persia")
    assert g.state.control["Persia"] == "USSR"
    g, ids = at_aarhe("US", [("Infantry", "US", "India", 1)], control={"Persia": "Germany"})
    step(g, ids["US Infantry India"][0], "Persia")
    assert g.state.control["Persia"] == "UK"       # the other Allies still liberate


def test_the_other_allies_keep_an_original_soviet_territory_they_take_rather_than_liberate_it() -> None:
    # found by a random game: a UK army that freed Karelia stood in a Soviet-held original Soviet territory
    g, ids = at_aarhe("UK", [("Infantry", "UK", "Archangel", 1)], control={"Karelia S.S.R.": "Germany",
                                                                          "Archangel": "UK"})
    step(g, ids["UK Infantry Archangel"][0], "Karelia S.S.R.")
    assert g.state.control["Karelia S.S.R."] == "UK"
    assert g.proc("new_owner", "Karelia S.S.R.", "US") == "US"
    assert g.proc("new_owner", "Karelia S.S.R.", "USSR") == "USSR"


# -- Rome-Berlin-Tokyo co-operation (Phase 3) ------------------------------------------------------------------------
def test_japan_keeps_out_of_spaces_holding_other_axis_units() -> None:
    g, ids = at_aarhe("Japan", [("Tank", "Japan", "India", 2), ("Infantry", "Germany", "Persia", 1)],
                      control={"India": "Japan", "Persia": "Germany", "French Indochina": "Germany"})
    t1, t2 = ids["Japan Tank India"]
    assert refused_step(g, t1, "Persia") == \
        "Rome-Berlin-Tokyo co-operation: Japan may not move units into Persia, where other Axis units are"
    step(g, t2, "French Indochina")                # a German territory with no German units in it
    assert g.piece(t2).space == "French Indochina"


def test_the_spaces_closed_to_a_powers_flights_are_those_air_may_enter_refuses() -> None:
    """`closed_skies` lists, once a walk, what `air_may_enter` says of each space (the flights
    look the list up instead of asking): the two must say the same, for every power and every
    passable space, as a game goes (neutrals taken, Soviet land and units, Axis units moving)."""
    rs = aarhe(last_round=3)
    rules = rs.rules
    closed_skies, may_enter, passable = (rules.procedure(n) for n in ("closed_skies", "air_may_enter", "passable"))
    game = Game(rs, SCENARIO, 3)
    player, compared = RandomPlay(3, bold=True), 0
    while game.decision is not None:
        if len(game.actions) % 61 == 0:
            state = game.state
            for p in rs.structure.powers:
                closed = closed_skies(state, p)
                for s in state.board.spaces:
                    if passable(state, s):
                        assert (s in closed) == (not may_enter(state, p, s)), (p, s, len(game.actions))
                        compared += 1
        game.play(player.choose(game.decision))
    assert compared > 5_000
