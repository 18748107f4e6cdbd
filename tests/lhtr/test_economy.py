"""LHTR: buying into the pending area, placing at industrial complexes, collecting income,
capitals and liberation, and victory by victory cities (RULES.md §A.2-A.4)."""

from __future__ import annotations

from typing import Any

from engine.asking import space_name
from tests.lhtr.play import Play


def ussr_turn(**options: Any) -> Play:
    return Play.new(**options)


def test_buying_pays_and_puts_the_unit_in_the_pending_area() -> None:
    g = ussr_turn()
    assert g.ipc("USSR") == 24
    buy_tank = next(a for a in g.options("buy") if a["kind"] == "Tank")
    assert buy_tank.label == "buy Tank (5 IPCs)"
    g.act("buy", kind="Tank")
    g.act("buy", kind="Infantry")
    assert g.ipc("USSR") == 16
    assert g.kinds_at("pending:USSR") == {"Infantry": 1, "Tank": 1}
    g.act("buy", kind="Infantry")
    assert g.step == "purchase"          # buying goes on until the power says it is done
    # the status line says what is bought so far, as the log will once the buying ends
    assert g.rs.logic.status(g.state).endswith(" | bought so far: Tank, 2 Infantry (11 IPCs)")
    # the purchase is told once, as it ends, each kind counted; the pending area is read by its name
    g.finish()
    notes = [e["message"] for k, e in g.log if k == "note"]
    assert "USSR buys Tank, 2 Infantry for 11 IPCs (13 left)" in notes
    assert not [n for n in notes if n.startswith("USSR buys") and n != "USSR buys Tank, 2 Infantry for 11 IPCs (13 left)"]
    assert space_name(g.state, "pending:USSR") == "USSR mobilization pool"


def test_a_power_that_buys_nothing_says_so_once() -> None:
    g = ussr_turn()
    g.finish()
    assert [e["message"] for k, e in g.log if k == "note" and "buys" in e["message"]] == ["USSR buys nothing (24 IPCs kept)"]


def test_only_what_the_power_can_pay_for_is_offered_and_the_rest_is_refused() -> None:
    g = ussr_turn()
    g.set_ipc("USSR", 4)
    g.restart_turn()
    assert [a["kind"] for a in g.options("buy")] == ["Infantry", "Artillery"]
    assert g.why_not("buy", kind="Tank") == "USSR has 4 IPCs; a Tank costs 5"
    assert g.why_not("buy", kind="Zeppelin") == "there is no such unit to buy"
    g.act("buy", kind="Artillery")
    assert g.ipc("USSR") == 0
    # nothing left to buy: the purchase ends by itself
    assert g.step != "purchase"


def test_a_power_without_its_capital_buys_nothing() -> None:
    g = ussr_turn()
    g.hold("Russia", "Germany")
    assert g.rs.rules.steps["purchase"].moves[0].check(g.state, "Infantry") == \
        "USSR cannot buy while the enemy holds its capital"
    g.restart_turn()
    # nothing to offer: the USSR's purchase passed by itself
    assert g.power == "USSR" and g.step == "combat_move"
    assert g.ipc("USSR") == 24 and g.at("pending:USSR") == []


def placing(bought: list[str], ipc: int = 100, **options: Any) -> Play:
    """The USSR at its mobilize step, having bought these."""
    g = ussr_turn(**options)
    g.set_ipc("USSR", ipc)
    for k in bought:
        g.act("buy", kind=k)
    g.walk_to("USSR", "mobilize")
    return g


def test_units_are_placed_at_a_complex_up_to_its_territory_value() -> None:
    g = placing(["Infantry"] * 5)
    # USSR complexes: Russia (8 IPCs) and Caucasus (4)
    assert sorted((a["at"], a["to"]) for a in g.options("place")) == [("Caucasus", "Caucasus"), ("Russia", "Russia")]
    russia_before = g.kinds_at("Russia", "USSR")["Infantry"]
    caucasus_before = g.kinds_at("Caucasus", "USSR")["Infantry"]
    pending = [p.id for p in g.at("pending:USSR")]
    for pid in pending[:4]:
        g.act("place", u=pid, at="Caucasus", to="Caucasus")
    assert g.kinds_at("Caucasus", "USSR")["Infantry"] == caucasus_before + 4
    # Caucasus has placed its 4: only Russia is left
    assert [(a["at"], a["to"]) for a in g.options("place")] == [("Russia", "Russia")]
    assert g.why_not("place", u=pending[4], at="Caucasus", to="Caucasus") == \
        "no industrial complex of yours can place it there"
    g.act("place", u=pending[4], at="Russia", to="Russia")
    assert g.kinds_at("Russia", "USSR")["Infantry"] == russia_before + 1
    assert g.at("pending:USSR") == []
    assert g.power == "Germany"      # nothing left to place: the turn went on by itself


def test_ships_go_into_a_sea_zone_next_to_the_complex() -> None:
    g = placing(["Submarine", "Tank"])
    sub = next(p.id for p in g.at("pending:USSR", kind="Submarine"))
    assert sorted((a["at"], a["to"]) for a in g.options("place") if a["u"] == sub) == [("Caucasus", "SZ 16")]
    assert g.why_not("place", u=sub, at="Caucasus", to="Caucasus") == "a unit placed at Caucasus cannot go to Caucasus"
    g.act("place", u=sub, at="Caucasus", to="SZ 16")
    assert g.kinds_at("SZ 16") == {"Submarine": 1}
    assert g.var("placed") == {"Caucasus": 1}


def test_no_ship_is_placed_where_enemy_warships_are() -> None:
    g = placing(["Destroyer"])
    g.add("Destroyer", "Germany", "SZ 16")
    g.restart_turn()
    assert g.options("place") == []


def test_a_new_complex_goes_where_there_is_none_in_a_territory_held_since_the_turn_began() -> None:
    g = placing(["IndustrialComplex"])
    ic = g.options("place")[0]["u"]
    sites = sorted(a["at"] for a in g.options("place"))
    assert "Russia" not in sites and "Caucasus" not in sites      # they have one
    assert "Karelia S.S.R." in sites and "Archangel" in sites
    assert all(g.proc("ipc_value", s) > 0 for s in sites)
    g.act("place", u=ic, at="Karelia S.S.R.", to="Karelia S.S.R.")
    assert g.kinds_at("Karelia S.S.R.", "USSR").get("IndustrialComplex") == 1
    assert g.var("placed") == {}          # a new complex uses no complex's capacity


def test_units_not_placed_are_lost_when_mobilize_ends_or_with_the_option_wait() -> None:
    g = placing(["Tank", "Infantry"])
    # the end of the step says what it loses before it is chosen: how many units, what they cost
    assert g.decision.finish.label == "done placing: 2 units not placed (8 IPCs) will be lost"
    g.log = []
    g.finish()
    assert g.kinds_at("pending:USSR") == {}
    assert [e["message"] for k, e in g.log if k == "note"][0] == "USSR could not place Tank, Infantry: lost"
    g = placing(["Tank"], unplaced_units_wait=True)
    assert g.decision.finish.label == "done placing"                 # they wait: nothing lost
    g.finish()
    assert g.kinds_at("pending:USSR") == {"Tank": 1}


def test_income_is_the_value_of_the_territories_held() -> None:
    g = ussr_turn()
    g.set_ipc("USSR", 0)
    g.hold("Karelia S.S.R.", "Germany")      # 2 IPCs
    g.walk_to("Germany", "purchase")
    assert g.ipc("USSR") == 22
    assert g.proc("income", "Germany") == 42
    assert "USSR collects 22 IPCs (now 22)" in [e["message"] for k, e in g.log if k == "note"]


def test_no_income_without_the_capital() -> None:
    g = ussr_turn()
    g.set_ipc("USSR", 0)
    g.hold("Russia", "Germany")
    g.walk_to("Germany", "purchase")
    assert g.ipc("USSR") == 0


def test_taking_a_capital_takes_its_owners_ipcs() -> None:
    g = ussr_turn()
    g.walk_to("Germany", "purchase")
    ussr, germany = g.ipc("USSR"), g.ipc("Germany")
    g.proc("conquer", "Russia", "Germany")
    assert g.state.control["Russia"] == "Germany"
    assert (g.ipc("USSR"), g.ipc("Germany")) == (0, germany + ussr)
    # the AA gun and the complex there change hands
    assert g.kinds_at("Russia", "Germany") == {"AAGun": 1, "IndustrialComplex": 1}


def test_liberated_territory_goes_back_to_its_owner_while_it_holds_its_capital() -> None:
    g = ussr_turn()
    g.hold("Karelia S.S.R.", "Germany")
    g.walk_to("UK", "purchase")
    g.proc("conquer", "Karelia S.S.R.", "UK")
    assert g.state.control["Karelia S.S.R."] == "USSR"
    # with Moscow lost, the liberator keeps it
    g.hold("Karelia S.S.R.", "Germany")
    g.hold("Russia", "Germany")
    g.proc("conquer", "Karelia S.S.R.", "UK")
    assert g.state.control["Karelia S.S.R."] == "UK"
    # a capital always goes back to its owner
    g.proc("conquer", "Russia", "UK")
    assert g.state.control["Russia"] == "USSR"


def test_a_side_with_enough_victory_cities_at_the_end_of_a_round_wins() -> None:
    g = ussr_turn()
    assert g.proc("score") == {"Axis": 6, "Allies": 6}
    g.hold("Karelia S.S.R.", "Germany")
    g.hold("India", "Japan")
    g.hold("Western United States", "Japan")       # 9 for the Axis
    g.walk_to("US", "purchase")
    assert g.state.result is None                   # not before the round ends
    while g.decision is not None:
        g.finish()
    assert g.state.result["winner"] == "Axis"
    assert g.state.result["reason"] == "the Axis hold 9 victory cities at the end of round 1"
    assert g.state.result["score"] == {"Axis": 9, "Allies": 3}


def test_the_victory_level_is_an_option() -> None:
    g = Play.new(victory_cities=10)
    g.hold("Karelia S.S.R.", "Germany")
    g.hold("India", "Japan")
    g.hold("Western United States", "Japan")
    g.walk_to("USSR", "purchase", turn=2)
    assert g.state.result is None


def test_the_game_may_stop_after_a_set_round() -> None:
    g = Play.new(last_round=1)
    while g.decision is not None:
        g.finish()
    assert g.state.result["winner"] is None
    assert g.state.result["reason"] == "round 1 was the last: a draw"
