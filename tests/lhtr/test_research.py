"""LHTR research, played only with the `research` option (RULES.md §A.6)."""

from __future__ import annotations

from tests.lhtr.play import Play, situation


def with_techs(g: Play, *techs: str) -> None:
    g.state.vars["techs"] = tuple(techs)


def test_research_dice_and_a_breakthrough_that_takes_effect_at_the_end_of_the_turn() -> None:
    g = Play.new(research=True)
    assert (g.power, g.step) == ("USSR", "develop_weapons")
    assert g.labels("research")[0] == "roll a research die for Jet Power (5 IPCs)"
    assert len(g.options("research")) == 6
    g.state.load_dice([4])
    g.act("research", tech="Rockets")
    assert g.ipc("USSR") == 19 and g.var("breakthroughs") == ()
    g.state.load_dice([6])
    g.act("research", tech="Rockets")
    assert g.var("breakthroughs") == ("USSR/Rockets",)
    assert g.why_not("research", tech="Rockets") == "USSR already has Rockets"
    assert not g.proc("has_tech", "USSR", "Rockets")
    g.walk_to("Germany", "develop_weapons")
    assert g.proc("has_tech", "USSR", "Rockets") and g.var("breakthroughs") == ()


def test_research_needs_the_ipcs() -> None:
    g = Play.new(research=True)
    g.set_ipc("USSR", 7)
    g.state.load_dice([3])
    g.act("research", tech="Jet Power")
    # with 2 IPCs left there is nothing more to do: research ended by itself
    assert g.ipc("USSR") == 2 and g.step == "combat_move"
    research = g.rs.rules.steps["develop_weapons"].move("research")
    assert research.check(g.state, "Heavy Bombers") == "USSR has 2 IPCs; a research die costs 5"


def test_technologies_change_units() -> None:
    g = Play.new()
    ids = {k: g.add(k, "Germany", "SZ 5" if k in ("Submarine", "Destroyer") else "Germany")[0]
           for k in ("Fighter", "Submarine", "Destroyer", "Bomber")}
    unit = {k: g.piece(i) for k, i in ids.items()}
    assert g.proc("allowance", unit["Fighter"]) == 4
    assert g.proc("defence_values", [unit["Fighter"], unit["Submarine"]]) == [4, 2]
    with_techs(g, "Germany/Long-Range Aircraft", "Germany/Jet Power", "Germany/Super Submarines",
               "Germany/Combined Bombardment")
    assert g.proc("allowance", unit["Fighter"]) == 6 and g.proc("allowance", unit["Bomber"]) == 8
    assert g.proc("defence_values", [unit["Fighter"], unit["Submarine"]]) == [5, 3]
    assert g.proc("attack_values", [unit["Submarine"], unit["Fighter"]]) == [3, 3]
    assert g.proc("bombard_value", unit["Destroyer"]) == 3
    assert g.proc("allowance", g.piece(g.add("Fighter", "UK", "United Kingdom")[0])) == 4   # Germany's only


def test_heavy_bombers_roll_two_dice_and_keep_the_better() -> None:
    g, ids = situation("Germany", [("Bomber", "Germany", "Caucasus", 1), ("Infantry", "USSR", "Caucasus", 1)],
                       step="conduct_combat")
    with_techs(g, "Germany/Heavy Bombers")
    g.state.load_dice([6, 4, 6])               # the bomber's 6 and 4: a hit; the infantry misses
    g.log = []
    g.act("fight", where="Caucasus")
    assert [e[1]["faces"] for e in g.log if e[0] == "roll"] == [[6, 4], [6]]
    assert g.kinds_at("Caucasus") == {"Bomber": 1}


def test_rockets_take_ipcs_from_a_complex_within_three() -> None:
    g, ids = situation("Germany", [("AAGun", "Germany", "Eastern Europe", 1), ("IndustrialComplex", "USSR", "Russia", 1),
                                   ("Infantry", "Germany", "Eastern Europe", 1), ("Infantry", "USSR", "Belorussia", 1)],
                       control={"Belorussia": "USSR"}, step="combat_move")
    with_techs(g, "Germany/Rockets")
    inf = ids["Germany Infantry Eastern Europe"][0]
    g.act("go", u=inf)
    g.choose("Belorussia")                   # a battle keeps conduct combat open
    g.finish()
    assert [(a["site"], a["target"]) for a in g.options("rocket")] == [("Eastern Europe", "Russia")]
    ussr = g.ipc("USSR")
    g.state.load_dice([5])
    g.act("rocket", site="Eastern Europe", target="Russia")
    assert g.ipc("USSR") == ussr - 5
    assert g.options("rocket") == []         # one rocket a gun a turn


def test_an_aa_gun_aboard_a_transport_fires_no_rockets() -> None:
    # found by a random game: a gun aboard a transport fired rockets without end (it was never marked as fired)
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("IndustrialComplex", "USSR", "Karelia S.S.R.", 1),
                                   ("Infantry", "Germany", "Eastern Europe", 1), ("Infantry", "USSR", "Belorussia", 1)],
                       control={"Belorussia": "USSR"}, step="purchase")
    (gun,) = g.add("AAGun", "Germany", "SZ 5")
    g.state.update(gun, carrier=ids["Germany Transport SZ 5"][0])
    g.walk_to("Germany", "combat_move")
    with_techs(g, "Germany/Rockets")
    g.act("go", u=ids["Germany Infantry Eastern Europe"][0])
    g.choose("Belorussia")                   # a battle keeps conduct combat open
    g.finish()
    assert g.proc("rocket_sites", "Germany") == [] and g.options("rocket") == []
