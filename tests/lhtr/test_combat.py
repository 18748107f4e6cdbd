"""LHTR conduct combat with fixed dice: the order of a round, casualties chosen by their
owner, two-hit battleships, submarines, bombardment, retreats and bombing raids
(RULES.md §A.5, §A.6). Dice roll by strength: the units hitting on 1 first, then on 2..."""

from __future__ import annotations

from tests.lhtr.play import asked, destroyed, fight, left, rolls, situation, step


def test_a_land_battle_and_the_attacker_choosing_its_casualty() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Caucasus", 2), ("Artillery", "Germany", "Caucasus", 1),
                                   ("Infantry", "USSR", "Caucasus", 2)], step="conduct_combat")
    assert [a["where"] for a in g.options("fight")] == ["Caucasus"]
    assert g.labels("fight") == ["battle in Caucasus"]
    # attack: the plain infantry at 1 rolls 1, the supported infantry and the artillery at 2
    # roll 2 and 6: two hits. Defence: two infantry at 2 roll 3 and 1: one hit
    fight(g, "Caucasus", [1, 2, 6, 3, 1])
    player, prompt, options = asked(g)
    assert player == "Germany"
    assert prompt == "fire in Caucasus: choose a casualty (1 to take)"
    assert options == ["Germany Infantry", "Germany Artillery"]        # the cheapest first
    art = ids["Germany Artillery Caucasus"][0]
    g.choose(art)
    assert rolls(g) == [[1], [2, 6], [3, 1]]
    # each roll in the log says whose dice, in which battle, what they hit on and how many hit
    said = [g.rs.logic.narrate(e) for e in g.log if e[0] == "roll"]
    assert said == ["Germany attacks in Caucasus: 1 die hitting on 1: 1 — 1 hit",
                    "Germany attacks in Caucasus: 2 dice hitting on 2 or less: 2 6 — 1 hit",
                    "USSR defends in Caucasus: 2 dice hitting on 2 or less: 3 1 — 1 hit"]
    assert g.kinds_at("Caucasus") == {"Infantry": 2}
    assert all(p.owner == "Germany" for p in g.at("Caucasus"))
    assert g.state.control["Caucasus"] == "Germany"       # taken by the land units left


def test_the_defender_chooses_its_own_casualties() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Caucasus", 2),
                                   ("Infantry", "USSR", "Caucasus", 1), ("Tank", "USSR", "Caucasus", 1)],
                       step="conduct_combat")
    # round 1: one hit on the USSR, none back; round 2: the infantry left is hit
    fight(g, "Caucasus", [1, 6, 6, 6, 2, 6, 6])
    player, _, options = asked(g)
    assert player == "USSR" and options == ["USSR Infantry", "USSR Tank"]
    g.choose(ids["USSR Tank Caucasus"][0])
    assert destroyed(g) == ["USSR Tank", "USSR Infantry"]
    assert g.state.control["Caucasus"] == "Germany"


def test_press_on_or_retreat_to_where_the_attack_came_from() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), ("Infantry", "USSR", "West Russia", 3)],
                       control={"West Russia": "USSR"})
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    g.act("go", u=tank)
    g.choose("West Russia")
    g.finish()
    fight(g, "West Russia", [6, 6, 6, 6])     # everybody misses
    player, prompt, options = asked(g)
    assert (player, prompt) == ("Germany", "press on or retreat from West Russia?")
    assert options == ["press on", "retreat to Ukraine S.S.R."]
    g.choose("Ukraine S.S.R.")
    assert g.piece(tank).space == "Ukraine S.S.R."
    assert g.state.control["West Russia"] == "USSR"
    assert g.options("fight") == [] or g.step != "conduct_combat"


def test_pressing_on_fights_another_round() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), ("Infantry", "USSR", "West Russia", 1)],
                       control={"West Russia": "USSR"})
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    g.act("go", u=tank)
    g.choose("West Russia")
    g.finish()
    fight(g, "West Russia", [6, 6, 3, 6])     # round 1 misses; round 2 the tank hits
    g.choose("press on")
    assert rolls(g) == [[6], [6], [3], [6]]
    assert g.kinds_at("West Russia") == {"Tank": 1}
    assert g.state.control["West Russia"] == "Germany"


def test_anti_aircraft_fire_shoots_first_at_attacking_aircraft() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "Russia", 2), ("Tank", "Germany", "Russia", 1),
                                   ("AAGun", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1)],
                       step="conduct_combat")
    # AA: one die per aircraft, a 1 hits. Then the tank (3) and the fighter left (3) roll 5
    # and 2; the infantry defends with 6
    fight(g, "Russia", [1, 4, 5, 2, 6])
    assert rolls(g) == [[1, 4], [5, 2], [6]]
    said = [g.rs.logic.narrate(e) for e in g.log if e[0] == "roll"]
    assert said[0] == "USSR's AA guns in Russia: 2 dice hitting on 1: 1 4 — 1 hit"
    assert said[1] == "Germany attacks in Russia: 2 dice hitting on 3 or less: 5 2 — 1 hit"
    assert g.kinds_at("Russia", "Germany") == {"AAGun": 1, "Fighter": 1, "Tank": 1}    # AA gun captured
    assert g.state.control["Russia"] == "Germany"


def test_anti_aircraft_fire_destroys_the_aircraft_its_die_hit_without_a_choice() -> None:
    # Revised and TripleA ("Roll AA Individually", not "Choose AA Casualties"): a fighter and a
    # bomber attack Russia held by an AA gun; the bomber's die is a 1, so the bomber is lost
    # and nobody is asked which aircraft. The fighter at 3 then rolls 3; the infantry a 6.
    g, ids = situation("Germany", [("Fighter", "Germany", "Russia", 1), ("Bomber", "Germany", "Russia", 1),
                                   ("AAGun", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1)],
                       step="conduct_combat")
    fight(g, "Russia", [6, 1, 3, 6])
    assert rolls(g) == [[6], [1], [3], [6]]
    assert destroyed(g) == ["Germany Bomber", "USSR Infantry"]
    assert g.kinds_at("Russia", "Germany") == {"Fighter": 1}      # aircraft alone take nothing
    # the fighter's die hits instead: the fighter is lost
    g, ids = situation("Germany", [("Fighter", "Germany", "Russia", 1), ("Bomber", "Germany", "Russia", 1),
                                   ("AAGun", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1)],
                       step="conduct_combat")
    fight(g, "Russia", [1, 6, 4, 6])
    assert destroyed(g) == ["Germany Fighter", "USSR Infantry"]
    assert g.kinds_at("Russia", "Germany") == {"Bomber": 1}


def test_aircraft_alone_do_not_take_a_territory() -> None:
    g, ids = situation("Germany", [("Bomber", "Germany", "Caucasus", 1), ("Infantry", "USSR", "Caucasus", 1)],
                       step="conduct_combat")
    fight(g, "Caucasus", [4, 6])
    assert g.kinds_at("Caucasus") == {"Bomber": 1}
    assert g.state.control["Caucasus"] == "USSR"


def test_a_battleship_takes_two_hits_and_is_repaired_at_the_end_of_the_turn() -> None:
    g, ids = situation("Germany", [("Battleship", "Germany", "SZ 6", 1), ("Destroyer", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    bb = ids["Germany Battleship SZ 6"][0]
    g.arrived([bb], "SZ 5")
    # round 1: the destroyer hits the battleship; round 2: both hit: the destroyer sinks, so
    # does the battleship. (All the dice are loaded first: an answer replays the battle from
    # its start, dice included.)
    fight(g, "SZ 6", [6, 1, 1, 1])
    assert g.piece(bb).hits == 1
    assert asked(g)[2] == ["press on", "retreat to Sea Zone 5 (SZ 5)"]
    g.choose("press on")
    assert g.piece(bb) is None and g.kinds_at("SZ 6") == {}

    g, ids = situation("Germany", [("Battleship", "Germany", "SZ 6", 1), ("Destroyer", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    bb = ids["Germany Battleship SZ 6"][0]
    g.arrived([bb], "SZ 5")
    fight(g, "SZ 6", [6, 1, 2, 6])
    g.choose("press on")
    assert g.kinds_at("SZ 6") == {"Battleship": 1} and g.piece(bb).hits == 1
    g.walk_to("UK", "purchase")
    assert g.piece(bb).hits == 0


def test_a_battleships_first_hit_is_the_default_casualty() -> None:
    g, ids = situation("Germany", [("Battleship", "Germany", "SZ 6", 1), ("Transport", "Germany", "SZ 6", 1),
                                   ("Fighter", "UK", "SZ 6", 1), ("AircraftCarrier", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    fight(g, "SZ 6", [6, 1, 6])               # the battleship misses; the fighter hits
    player, _, options = asked(g)
    assert player == "Germany" and options == ["Germany Battleship (damaged, not sunk)", "Germany Transport"]


def test_a_submarine_strikes_first_and_its_victims_do_not_fire_back() -> None:
    g, ids = situation("Germany", [("Submarine", "Germany", "SZ 6", 1), ("Transport", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    fight(g, "SZ 6", [2])
    assert rolls(g) == [[2]]                  # the transport was gone before it could roll
    assert g.kinds_at("SZ 6") == {"Submarine": 1}


def test_a_destroyer_cancels_the_first_strike() -> None:
    g, ids = situation("Germany", [("Submarine", "Germany", "SZ 6", 1),
                                   ("Transport", "UK", "SZ 6", 1), ("Destroyer", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    fight(g, "SZ 6", [2, 1, 1])               # sub hits; then the transport and destroyer roll 1, 1
    player, prompt, options = asked(g)
    assert player == "UK" and prompt.startswith("submarine strike in ")
    assert options == ["UK Transport", "UK Destroyer"]
    g.choose(ids["UK Destroyer SZ 6"][0])
    # the destroyer hit still fires with the transport: the lone submarine is sunk
    assert rolls(g) == [[2], [1], [1]]
    assert sorted(destroyed(g)) == ["Germany Submarine", "UK Destroyer"]
    assert g.kinds_at("SZ 6") == {"Transport": 1}


def test_submarines_may_submerge_and_leave_the_battle() -> None:
    g, ids = situation("Germany", [("Submarine", "Germany", "SZ 6", 1), ("Battleship", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    fight(g, "SZ 6", [6, 6])
    player, prompt, options = asked(g)
    assert (player, prompt, options) == ("Germany", "submerge your submarines in Sea Zone 6 (SZ 6)?", ["fight on", "submerge"])
    g.choose("submerge")
    assert g.kinds_at("SZ 6") == {"Battleship": 1, "Submarine": 1}
    assert not g.piece(ids["Germany Submarine SZ 6"][0]).marked("submerged")    # surfaced after the battle
    assert rolls(g) == [[6], [6]]


def test_no_submerging_next_to_an_enemy_destroyer() -> None:
    g, ids = situation("Germany", [("Submarine", "Germany", "SZ 6", 1), ("Destroyer", "UK", "SZ 6", 1)],
                       step="conduct_combat")
    # round 1: both miss and nobody is asked (no retreat either: the sub came from nowhere);
    # round 2: the destroyer sinks it
    fight(g, "SZ 6", [6, 6, 6, 1])
    assert g.decision.kind != "choose"
    assert destroyed(g) == ["Germany Submarine"]


def test_an_amphibious_assault_with_shore_bombardment() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Battleship", "Germany", "SZ 5", 1), ("Infantry", "USSR", "Karelia S.S.R.", 2)])
    inf = ids["Germany Infantry Germany"][0]
    tp = ids["Germany Transport SZ 5"][0]
    g.act("go", u=inf)
    g.choose("SZ 5")
    g.act("land", t=tp)                 # Karelia is the one territory to assault (nobody is asked)
    g.finish()
    # bombardment at 4 rolls 3: a hit, removed before it fires. Then the infantry (1) rolls 6;
    # the infantry left (2) rolls 6
    # round 2 (no retreat was offered: the only attacker came from the sea): 1 against 6
    fight(g, "Karelia S.S.R.", [3, 6, 6, 1, 6])
    assert rolls(g) == [[3], [6], [6], [1], [6]]
    assert destroyed(g) == ["USSR Infantry", "USSR Infantry"]
    assert g.state.control["Karelia S.S.R."] == "Germany"


def test_an_assault_from_a_contested_zone_lands_once_the_sea_battle_is_won() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Battleship", "Germany", "SZ 5", 1), ("Destroyer", "UK", "SZ 5", 1),
                                   ("Infantry", "USSR", "Karelia S.S.R.", 1), ("Tank", "Germany", "Belorussia", 1)])
    inf, tp = ids["Germany Infantry Germany"][0], ids["Germany Transport SZ 5"][0]
    tank = ids["Germany Tank Belorussia"][0]
    g.act("go", u=inf)
    g.choose("SZ 5")
    g.act("land", t=tp)                 # Karelia is the only territory to assault from there
    g.act("go", u=tank)
    g.choose("Karelia S.S.R.")
    g.finish()
    assert [a["where"] for a in g.options("fight")] == ["SZ 5"]          # the sea battle first
    assert g.why_not("fight", where="Karelia S.S.R.") == \
        "first fight the sea battle in Sea Zone 5 (SZ 5): the assault on Karelia S.S.R. waits for it"
    # the sea battle: the transport (defence 1 in attack: 0) does not roll; the battleship hits
    fight(g, "SZ 5", [1, 6])
    assert rolls(g) == [[1], [6]]
    assert g.piece(inf).space == "Karelia S.S.R." and g.piece(inf).marked("amphibious")
    # ashore; the battleship fought at sea, so it does not bombard: the infantry (1) rolls 6,
    # the tank (3) 2; the defender 6
    fight(g, "Karelia S.S.R.", [6, 2, 6])
    assert rolls(g) == [[6], [2], [6]]
    assert g.state.control["Karelia S.S.R."] == "Germany"


def test_amphibious_units_cannot_retreat() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Infantry", "USSR", "Karelia S.S.R.", 1)])
    inf = ids["Germany Infantry Germany"][0]
    g.act("go", u=inf)
    g.choose("SZ 5")
    g.act("land", t=ids["Germany Transport SZ 5"][0])     # into Karelia, the one assault
    g.finish()
    fight(g, "Karelia S.S.R.", [6, 6, 1, 6])     # round 1 misses, round 2 the infantry hits
    assert g.kinds_at("Karelia S.S.R.") == {"Infantry": 1}
    assert g.state.control["Karelia S.S.R."] == "Germany"


def test_a_strategic_bombing_raid_costs_the_owner_at_most_the_territorys_value() -> None:
    g, ids = situation("Germany", [("Bomber", "Germany", "West Russia", 2), ("IndustrialComplex", "USSR", "Russia", 1),
                                   ("AAGun", "USSR", "Russia", 1)])
    b1, b2 = ids["Germany Bomber West Russia"]
    for b in (b1, b2):
        g.act("go", u=b)
        g.choose("Russia")
        g.act("raid", b=b)
    g.finish()
    ussr = g.ipc("USSR")
    assert [a["where"] for a in g.options("bomb")] == ["Russia"]
    assert g.options("fight") == []            # raiding bombers fight no battle
    g.state.load_dice([3, 2, 6, 5])            # AA misses both; 6 + 5 = 11, capped at Russia's 8
    g.act("bomb", where="Russia")
    assert rolls(g) == [[3, 2], [6], [5]]
    assert g.ipc("USSR") == ussr - 8
    assert g.var("raided") == {"Russia": 8}


def test_anti_aircraft_guns_fire_at_raiding_bombers() -> None:
    g, ids = situation("Germany", [("Bomber", "Germany", "West Russia", 1), ("IndustrialComplex", "USSR", "Russia", 1),
                                   ("AAGun", "USSR", "Russia", 1)])
    b = ids["Germany Bomber West Russia"][0]
    g.act("go", u=b)
    g.choose("Russia")
    g.act("raid", b=b)
    g.finish()
    ussr = g.ipc("USSR")
    g.state.load_dice([1])
    g.act("bomb", where="Russia")
    assert g.piece(b) is None and g.ipc("USSR") == ussr


def test_casualties_are_replayed_exactly() -> None:
    """A battle that stops to ask is run again from its start with the answers so far."""
    g, ids = situation("Germany", [("Infantry", "Germany", "Caucasus", 3), ("Tank", "Germany", "Caucasus", 1),
                                   ("Infantry", "USSR", "Caucasus", 2), ("Tank", "USSR", "Caucasus", 1)],
                       step="conduct_combat")
    fight(g, "Caucasus", [1, 1, 6, 3, 1, 6, 6])
    answers = 0
    while g.decision is not None and g.decision.kind == "choose" and answers < 20:
        g.choose(g.decision.options[0]["choice"])
        answers += 1
    assert answers >= 2
    assert g.step == "noncombat_move" or g.options("fight") == []


def test_retreating_aircraft_fly_to_a_friendly_territory_in_range() -> None:
    # RULES.md §A.5 step 6 (S12): land units retreat together; air units to any friendly
    # territory in range
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), ("Fighter", "Germany", "Eastern Europe", 1),
                                   ("Infantry", "USSR", "West Russia", 3)], control={"West Russia": "USSR"})
    tank, fighter = ids["Germany Tank Ukraine S.S.R."][0], ids["Germany Fighter Eastern Europe"][0]
    step(g, tank, "West Russia")
    step(g, fighter, "Belorussia")
    step(g, fighter, "West Russia")
    g.finish()
    fight(g, "West Russia", [6, 6, 6, 6, 6])       # everybody misses
    g.choose("Ukraine S.S.R.")                     # the tank goes back where it came from
    player, prompt, options = asked(g)
    assert (player, prompt) == ("Germany", "where do the 1 retreating Fighter from West Russia fly?")
    assert options[:2] == ["Belorussia (1 away)", "Ukraine S.S.R. (1 away)"]
    assert all(not o.startswith("Karelia") and not o.startswith("West Russia") for o in options)   # not friendly
    assert len(options) > 2 and all(o.endswith(("(1 away)", "(2 away)")) for o in options)         # 2 moves left
    g.choose("Belorussia")
    assert g.piece(fighter).space == "Belorussia" and left(g, fighter) == 1
    assert g.piece(tank).space == "Ukraine S.S.R." and g.state.control["West Russia"] == "USSR"


def test_aircraft_alone_retreat_too() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "Eastern Europe", 1), ("Infantry", "USSR", "Belorussia", 1)],
                       control={"Belorussia": "USSR"})
    fighter = ids["Germany Fighter Eastern Europe"][0]
    step(g, fighter, "Belorussia")
    g.finish()
    fight(g, "Belorussia", [6, 6])
    player, prompt, options = asked(g)
    assert options == ["press on", "retreat: the aircraft fly away"]
    g.choose("Belorussia")
    assert asked(g)[1] == "where do the 1 retreating Fighter from Belorussia fly?"
    g.choose("Eastern Europe")
    assert g.piece(fighter).space == "Eastern Europe" and left(g, fighter) == 2 and g.piece(fighter).marked("retreated")
