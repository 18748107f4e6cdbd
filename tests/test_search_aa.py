"""The search player in Axis & Allies (LHTR, and AARHE over it): what rulesets/aarhe/lhtr/
knowledge.rules tells it, through `evaluate(side)`. A battle set up in combat move is worth its
likely outcome before it is fought (the search looks a few decisions ahead, seldom to the
battle), so a move into a battle the odds favour gains and one into a hopeless battle loses; a
purchase gains most in the units that fight best for their cost; land units next to an enemy
territory threaten it."""

from __future__ import annotations

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import Play, situation


def evaluate(g: Play, side: str) -> float:
    return float(g.rs.rules.procedure("evaluate")(g.state, side))


def after(g: Play, unit: int, to: str) -> float:
    """Axis's evaluation once `unit` has stepped to `to` (the game `g` is left as it was)."""
    state, decision = g.state, g.decision
    g.act("go", u=unit)
    g.choose(to)
    value = evaluate(g, "Axis")
    g.state, g.decision = state, decision
    return value


def test_a_battle_the_odds_favour_is_worth_more_before_it_is_fought_and_a_hopeless_one_less() -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 3), ("Infantry", "Germany", "Eastern Europe", 1),
                                   ("Infantry", "USSR", "Caucasus", 1), ("Tank", "USSR", "Karelia S.S.R.", 3)])
    before = evaluate(g, "Axis")
    assert evaluate(g, "Allies") == -before
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    infantry = ids["Germany Infantry Eastern Europe"][0]
    assert after(g, tank, "Caucasus") > before + 5         # likely taken, for a likely loss of less
    assert after(g, infantry, "Karelia S.S.R.") < before - 2     # an infantry thrown away


def test_an_attack_is_judged_with_the_units_that_may_still_join_it_until_combat_move_ends() -> None:
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 1), ("Tank", "Germany", "Ukraine S.S.R.", 4),
                                   ("Infantry", "USSR", "Caucasus", 3)])
    before = evaluate(g, "Axis")
    g.act("go", u=ids["Germany Infantry Ukraine S.S.R."][0])
    g.choose("Caucasus")
    hoped = evaluate(g, "Axis")
    assert hoped > before + 5                        # the tanks beside it may follow
    g.finish()                                       # they do not: the infantry attacks alone
    assert g.step == "conduct_combat"
    assert evaluate(g, "Axis") < hoped - 5


def test_a_purchase_gains_most_in_units_that_fight_best_for_their_cost() -> None:
    g, _ = situation("USSR", [], step="purchase", ipc=24)
    before = evaluate(g, "Allies")
    gains: dict[str, float] = {}
    for kind in ("Infantry", "Tank", "Transport", "AAGun"):
        state, decision = g.state, g.decision
        g.act("buy", kind=kind)
        gains[kind] = (evaluate(g, "Allies") - before) / g.rs.rules.procedure("price")(g.state, kind, "USSR")
        g.state, g.decision = state, decision
    assert gains["Infantry"] > gains["Tank"] > 0 > gains["Transport"] > gains["AAGun"]


def test_land_units_next_to_an_enemy_territory_threaten_it() -> None:
    guard = ("Infantry", "USSR", "Karelia S.S.R.", 2)
    g, _ = situation("Germany", [("Tank", "Germany", "Eastern Europe", 3), guard], step="noncombat_move")
    g2, _ = situation("Germany", [("Tank", "Germany", "Germany", 3), guard], step="noncombat_move")
    assert evaluate(g, "Axis") > evaluate(g2, "Axis") + 5      # next to Karelia, a victory city


def test_aarhe_weighs_a_battle_set_up_with_lhtrs_knowledge() -> None:
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 3), ("Infantry", "USSR", "Caucasus", 1)])
    assert after(g, ids["Germany Tank Ukraine S.S.R."][0], "Caucasus") > evaluate(g, "Axis") + 5


def test_land_units_aboard_a_transport_threaten_the_coasts_it_can_reach() -> None:
    pieces = [("Transport", "UK", "SZ 8", 1), ("Infantry", "UK", "United Kingdom", 2)]
    g, ids = situation("UK", pieces, step="noncombat_move")
    ashore = evaluate(g, "Allies")
    transport = g.state.piece(ids["UK Transport SZ 8"][0])
    for pid in ids["UK Infantry United Kingdom"]:
        g.state.update(pid, carrier=transport.id, space=transport.space)
    # two zones from Western Europe (through SZ 7): once aboard they threaten it
    assert evaluate(g, "Allies") > ashore + 3


def test_aarhe_counts_the_mountains_for_the_defender_of_a_battle_set_up() -> None:
    # Caucasus is mountains: its infantry defends one higher in the first round
    pieces = [("Tank", "Germany", "Ukraine S.S.R.", 2), ("Infantry", "USSR", "Caucasus", 2)]
    worth = {}
    for bonus in (0, 1):
        g, ids = at_aarhe("Germany", pieces, terrain_defence_bonus=bonus)
        worth[bonus] = after(g, ids["Germany Tank Ukraine S.S.R."][0], "Caucasus") - evaluate(g, "Axis")
    assert worth[1] < worth[0] - 2


def test_a_capital_is_guarded_before_another_victory_city_for_it_carries_its_powers_economy() -> None:
    # German tanks in West Russia threaten both Moscow (Russia, the Soviet capital) and
    # Leningrad (Karelia); the Allies would rather the thin guard stood in Karelia
    def allies_with(russia: int, karelia: int) -> float:
        g, _ = situation("Germany", [("Tank", "Germany", "West Russia", 3), ("Infantry", "USSR", "Russia", russia),
                                     ("Infantry", "USSR", "Karelia S.S.R.", karelia)],
                         control={"West Russia": "Germany"}, step="noncombat_move")
        return evaluate(g, "Allies")
    assert allies_with(russia=3, karelia=1) > allies_with(russia=1, karelia=3) + 6


def test_a_power_whose_capital_is_lost_counts_no_income() -> None:
    g, _ = situation("Germany", [], step="noncombat_move")
    held = evaluate(g, "Allies")
    g.state.control["Russia"] = "Germany"
    # Moscow's victory city and Russia's 8 IPCs lost, and the rest of the Soviet income besides
    assert evaluate(g, "Allies") < held - 2 * 40 - 2 * 3 * 8 - 3 * 10


def test_an_aircraft_out_in_non_combat_move_counts_as_lost_until_it_lands() -> None:
    aloft, _ = situation("Germany", [("Fighter", "Germany", "Archangel", 1), ("Bomber", "Germany", "Karelia S.S.R.", 1)],
                         step="noncombat_move")
    landed, _ = situation("Germany", [("Fighter", "Germany", "Germany", 1), ("Bomber", "Germany", "Germany", 1)],
                          step="noncombat_move")
    # a fighter's worth (3 + 4 pips) and a bomber's (4 + 1), each with its hit
    assert evaluate(landed, "Axis") > evaluate(aloft, "Axis") + 2 * 7 + 2 * 5


def test_a_threat_weighs_more_for_the_side_that_plays_next() -> None:
    def threat(power: str) -> float:
        guard = ("Infantry", "USSR", "Karelia S.S.R.", 1)
        g, _ = situation(power, [("Tank", "Germany", "Belorussia", 3), guard], step="noncombat_move")
        g0, _ = situation(power, [guard], step="noncombat_move")
        return evaluate(g, "Axis") - evaluate(g0, "Axis")
    # German tanks next to Leningrad: while the UK plays, the Axis strike next; while Germany
    # plays, the Allies answer them first
    assert threat("UK") > threat("Germany") + 5


def test_land_units_bought_for_islands_count_for_half_until_transports_can_ship_them() -> None:
    def tank_gain(power: str, pieces: list[tuple[str, str, str, int]]) -> float:
        g, _ = situation(power, pieces, step="purchase", ipc=30)
        side = g.rs.logic.side_of(power)
        before = evaluate(g, side)
        g.act("buy", kind="Tank")
        return evaluate(g, side) - before
    germany = tank_gain("Germany", [("IndustrialComplex", "Germany", "Germany", 1)])
    complex = ("IndustrialComplex", "Japan", "Japan", 1)      # on Japan's home islands
    japan = tank_gain("Japan", [complex])
    shipped = tank_gain("Japan", [complex, ("Transport", "Japan", "SZ 60", 1)])
    assert germany > japan + 6
    assert abs(shipped - germany) < 1
