"""AARHE conduct combat with fixed dice (RULES.md part B, Phase 4 "Air Units",
"Anti-aircraft"; Phase 3 "Terrain"): AA guns roll at most `aa_dice_per_gun` dice each,
aircraft fight an air combat first when both sides have them, and defenders in snow or
mountains defend one higher in the first round. Dice roll by strength, as in LHTR: the units
hitting on 1 first, then on 2..."""

from __future__ import annotations

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import asked, destroyed, fight, rolls


# -- anti-aircraft ----------------------------------------------------------------------------------
def test_one_aa_gun_rolls_at_most_three_dice() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Russia", 4), ("Tank", "Germany", "Russia", 1),
                                  ("AAGun", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1)],
                      step="conduct_combat")
    # AA: 4 attacking aircraft, one gun: 3 dice (LHTR rolls 4); a 1 hits. Then the tank and the
    # 3 fighters left roll at 3; the infantry defends at 2
    fight(g, "Russia", [1, 4, 5, 6, 6, 6, 2, 6])
    assert rolls(g) == [[1, 4, 5], [6, 6, 6, 2], [6]]
    assert destroyed(g) == ["Germany Fighter", "USSR Infantry"]
    assert g.kinds_at("Russia", "Germany") == {"AAGun": 1, "Fighter": 3, "Tank": 1}
    assert g.state.control["Russia"] == "Germany"


def test_several_aa_guns_add_up() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Russia", 4), ("Tank", "Germany", "Russia", 1),
                                  ("AAGun", "USSR", "Russia", 2), ("Infantry", "USSR", "Russia", 1)],
                      step="conduct_combat")
    # two guns may roll 6 dice: one for each of the 4 aircraft
    fight(g, "Russia", [2, 3, 4, 5, 6, 6, 6, 6, 6, 2])
    assert rolls(g)[0] == [2, 3, 4, 5]


def test_the_dice_per_gun_are_an_option() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Russia", 4), ("Tank", "Germany", "Russia", 1),
                                  ("AAGun", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1)],
                      step="conduct_combat", aa_dice_per_gun=2)
    fight(g, "Russia", [2, 3, 6, 6, 6, 6, 6, 2])
    assert rolls(g)[0] == [2, 3]


def test_with_a_die_for_every_aircraft_the_aircraft_whose_die_hit_is_lost() -> None:
    # one gun, three dice, two aircraft: each has its own die (LHTR's rule); the bomber's is a 1
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Russia", 1), ("Bomber", "Germany", "Russia", 1),
                                  ("Tank", "Germany", "Russia", 1),
                                  ("AAGun", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1)],
                      step="conduct_combat")
    fight(g, "Russia", [6, 1, 3, 3, 6])
    assert rolls(g)[:2] == [[6], [1]]
    assert destroyed(g) == ["Germany Bomber", "USSR Infantry"]


# -- air combat ---------------------------------------------------------------------------------------
def test_aircraft_fight_an_air_combat_first_and_its_hits_go_on_aircraft() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "West Russia", 2), ("Tank", "Germany", "West Russia", 1),
                                  ("Fighter", "USSR", "West Russia", 1), ("Infantry", "USSR", "West Russia", 2)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    # round 1, air combat: the German fighters at 2 roll 2 and 5 (a hit), the Soviet fighter
    # at 2 rolls 1 (a hit): each side loses a fighter, at once. General fire: the fighter and
    # the tank left at 3 roll 6, 6; the two infantry at 2 roll 6, 6.
    # Round 2: no Soviet aircraft, so no air combat: 1, 1 against 6, 6
    fight(g, "West Russia", [2, 5, 1, 6, 6, 6, 6, 1, 1, 6, 6])
    assert rolls(g) == [[2, 5], [1], [6, 6], [6, 6], [1, 1], [6, 6]]
    assert destroyed(g) == ["USSR Fighter", "Germany Fighter", "USSR Infantry", "USSR Infantry"]
    assert g.kinds_at("West Russia") == {"Fighter": 1, "Tank": 1}
    assert g.state.control["West Russia"] == "Germany"


def test_air_combat_hits_beyond_the_aircraft_fall_on_other_units() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "West Russia", 3), ("Tank", "Germany", "West Russia", 1),
                                  ("Fighter", "USSR", "West Russia", 1), ("Infantry", "USSR", "West Russia", 1)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    # air combat: 1, 1, 6 are two hits, one on the fighter and the other on the infantry; the
    # Soviet fighter misses. Nobody is left to defend: the attack's general fire hits nothing
    fight(g, "West Russia", [1, 1, 6, 6, 6, 6, 6, 6])
    assert rolls(g) == [[1, 1, 6], [6], [6, 6, 6, 6]]
    assert destroyed(g) == ["USSR Fighter", "USSR Infantry"]
    assert g.state.control["West Russia"] == "Germany"


def test_the_defender_chooses_which_aircraft_the_air_combat_hits() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "West Russia", 1), ("Tank", "Germany", "West Russia", 1),
                                  ("Fighter", "USSR", "West Russia", 1), ("Bomber", "USSR", "West Russia", 1),
                                  ("Infantry", "USSR", "West Russia", 1)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    # the German fighter (2) rolls 2; the Soviet bomber (1) rolls 6 and its fighter (2) 6
    fight(g, "West Russia", [2, 6, 6, 6, 6, 6, 6, 6])
    player, prompt, options = asked(g)
    assert player == "USSR" and prompt == "air combat in West Russia: choose a casualty (1 to take)"
    assert options == ["USSR Fighter", "USSR Bomber"]        # no infantry while aircraft are left
    g.choose(ids["USSR Bomber West Russia"][0])
    assert destroyed(g)[0] == "USSR Bomber"


def test_bombers_fight_in_the_air_at_1() -> None:
    g, ids = at_aarhe("Germany", [("Bomber", "Germany", "West Russia", 1), ("Tank", "Germany", "West Russia", 1),
                                  ("Fighter", "USSR", "West Russia", 1), ("Infantry", "USSR", "West Russia", 1)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    # the bomber at 1 rolls 2: a miss (it would hit at 2); the fighter misses too
    fight(g, "West Russia", [2, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    assert rolls(g)[:2] == [[2], [6]]
    assert "USSR Fighter" not in destroyed(g)


def test_no_air_combat_when_only_one_side_has_aircraft() -> None:
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "West Russia", 1), ("Infantry", "USSR", "West Russia", 1)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    fight(g, "West Russia", [3, 6])             # straight to the general fire: the fighter at 3 hits
    assert rolls(g) == [[3], [6]]
    assert destroyed(g) == ["USSR Infantry"]


def test_air_combat_in_every_round_or_in_the_first_only() -> None:
    units = [("Fighter", "Germany", "West Russia", 1), ("Tank", "Germany", "West Russia", 1),
             ("Fighter", "USSR", "West Russia", 1), ("Infantry", "USSR", "West Russia", 1)]
    dice = [6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6]
    g, ids = at_aarhe("Germany", units, control={"West Russia": "USSR"}, step="conduct_combat")
    # round 1: air combat (a die each), then the attack at 3 and the defence at 2 and at 4;
    # everyone misses, and round 2 is alike
    fight(g, "West Russia", dice)
    assert rolls(g)[:10] == [[6], [6], [6, 6], [6], [6], [6], [6], [6, 6], [6], [6]]
    g, ids = at_aarhe("Germany", units, control={"West Russia": "USSR"}, step="conduct_combat",
                      air_combat_first_cycle_only=True)
    fight(g, "West Russia", dice)
    assert rolls(g)[:8] == [[6], [6], [6, 6], [6], [6], [6, 6], [6], [6]]


# -- terrain --------------------------------------------------------------------------------------------
def test_defenders_in_the_mountains_defend_one_higher_in_the_first_round() -> None:
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Caucasus", 2), ("Infantry", "USSR", "Caucasus", 1)],
                      step="conduct_combat")
    assert g.proc("is_rough", "Caucasus")
    # round 1: the infantry defends at 3 and rolls 3: a hit. Round 2: at 2, its 3 misses;
    # round 3: the tank left hits
    fight(g, "Caucasus", [6, 6, 3, 6, 3, 1, 6])
    assert rolls(g) == [[6, 6], [3], [6], [3], [1], [6]]
    assert destroyed(g) == ["Germany Tank", "USSR Infantry"]
    assert g.state.control["Caucasus"] == "Germany"


def test_no_terrain_bonus_in_the_open() -> None:
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "West Russia", 2), ("Infantry", "USSR", "West Russia", 1)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    assert not g.proc("is_rough", "West Russia")
    fight(g, "West Russia", [6, 6, 3, 1, 6])      # the 3 misses at 2
    assert destroyed(g) == ["USSR Infantry"]


def test_the_terrain_bonus_is_for_land_units_and_an_option() -> None:
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Caucasus", 1), ("Fighter", "USSR", "Caucasus", 1)],
                      step="conduct_combat")
    # the fighter defends at 4, not 5: its 5 misses; in round 2 the tank hits
    fight(g, "Caucasus", [6, 5, 1, 6])
    assert destroyed(g) == ["USSR Fighter"]
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Caucasus", 1), ("Infantry", "USSR", "Caucasus", 1)],
                      step="conduct_combat", terrain_defence_bonus=2)
    fight(g, "Caucasus", [6, 4])                 # at 2 + 2 the infantry's 4 hits
    assert destroyed(g) == ["Germany Tank"]


def test_after_a_battle_the_mountains_still_help_a_defender_in_the_battles_to_come() -> None:
    """A defence asked for outside a battle (the computer player weighing an attack) is that of
    a battle's first round, whatever round the last battle ended in: Caucasus's infantry
    defends at 3 after a battle in West Russia that lasted three rounds, as before it."""
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "West Russia", 2), ("Infantry", "USSR", "West Russia", 1),
                                  ("Infantry", "USSR", "Caucasus", 1), ("Tank", "Germany", "Caucasus", 1)],
                      control={"West Russia": "USSR"}, step="conduct_combat")
    caucasus = [g.state.piece(pid) for pid in ids["USSR Infantry Caucasus"]]
    before = g.proc("defence_values", caucasus)
    fight(g, "West Russia", [6, 6, 6, 6, 6, 6, 1, 1])
    assert len(rolls(g)) == 6                    # three rounds fought
    assert before == [3] and g.proc("defence_values", caucasus) == [3]
