"""AARHE phase 1, collect income (RULES.md part B, Phase 1): income at the start of a power's
turn (from round 2), economic damage, convoy raids, Soviet partisans, upkeep and its debt,
Lend-Lease and naval repair; each played in a small situation with fixed dice."""

from __future__ import annotations

from typing import Any

from tests.aarhe.play import Play, aarhe, at_aarhe, new


def notes(g: Play, about: str = "") -> list[str]:
    """The log's notes that name `about`, but for what a power bought (told as its purchase ends)."""
    return [e["message"] for k, e in g.log if k == "note" and about in e["message"] and " buys " not in e["message"]]


def collected(power: str, pieces: Any = (), control: Any = None, **options: Any) -> tuple[Play, dict[str, list[int]]]:
    """`power` with 100 IPCs on a board of `pieces` in round 1, played on to its purchase in
    round 2 (its collect income done); `g.log` holds what happened since round 1."""
    g, ids = at_aarhe(power, pieces, control, step="purchase", ipc=100, **options)
    g.log = []
    g.walk_to(power, "purchase", turn=2)
    return g, ids


# -- the turn -------------------------------------------------------------------------------------------
def test_collect_income_is_the_first_phase_of_a_turn() -> None:
    phases = [p.name for p in aarhe().rules.sequence.phases]
    # RULES.md B's six phases, with the air missions declared before combat move and flown
    # before conduct combat, and the air reinforcement at the end of combat move; LHTR's
    # optional phases stay around them: the bids (round 1, before anything), the National
    # Advantages' Joint Strike (as a round begins), Enigma Decoded (between Germany's combat
    # move and its combat), Kamikaze Attacks (between an enemy of Japan's combat move and its
    # combat), Mobile Industry (after non-combat move), Chinese Divisions (after mobilize) and
    # Russian Winter (after LHTR's collect income, the end of the turn), each skipped unless its
    # option is on
    assert phases == ["bid", "joint_strike", "collect_income", "lend_lease", "research_phase", "purchase",
                      "air_missions", "combat_move", "end_of_combat_move", "enigma_decoded", "kamikaze",
                      "mission_combat", "conduct_combat", "noncombat_move", "mobile_industry", "mobilize",
                      "chinese_divisions", "russian_winter"]
    g = new()
    assert [e["message"] for k, e in g.state.events if k == "note"] == \
        ["USSR collects no income in round 1: the starting IPCs are this turn's income"]
    g.walk_to("USSR", "purchase", turn=2)
    # the USSR collected at the start of its second turn, before buying
    assert notes(g, "USSR collects") == ["USSR collects 24 IPCs"]
    assert g.ipc("USSR") == 48


def test_round_1_collects_nothing_unless_the_option_says_so() -> None:
    g = new()
    g.walk_to("USSR", "purchase", turn=1)
    assert g.ipc("USSR") == 24
    g = new(collect_in_first_round=True)
    g.walk_to("USSR", "purchase", turn=1)
    assert g.ipc("USSR") == 48


# -- economic damage ---------------------------------------------------------------------------------------
def rocket_attack(dice: list[int], guns: int = 1) -> Play:
    """Germany, with Rockets, fires its AA guns in Western Europe at the UK's complex in its
    round 2 turn (just before the UK's)."""
    g, _ = at_aarhe("Germany", [("AAGun", "Germany", "Western Europe", guns), ("IndustrialComplex", "UK", "United Kingdom", 1)],
                    step="purchase")
    g.walk_to("Germany", "purchase", turn=2)
    g.state.vars["techs"] = ("Germany/Rockets",)
    g.walk_to("Germany", "conduct_combat")
    g.state.load_dice(dice)
    for _ in range(guns):
        g.act("rocket", site="Western Europe", target="United Kingdom")
    return g


def test_a_rocket_damages_the_territorys_income_at_its_owners_next_collect_income() -> None:
    g = rocket_attack([5])
    assert g.ipc("UK") == 30                       # the treasury is not touched
    assert g.var("income_damage") == {"United Kingdom": 5}
    assert g.var("damage_causes") == {"United Kingdom": ["rocket"]}     # what the window tells
    assert g.proc("income", "UK") == 25
    g.log = []
    g.walk_to("UK", "purchase", turn=2)
    assert notes(g, "UK ") == ["UK income -5: economic damage to United Kingdom (bombing, rockets in the enemy's last turn)",
                               "UK collects 25 IPCs"]
    assert g.ipc("UK") == 30 + 25
    assert g.var("income_damage") == {}            # taken once


def test_damage_never_takes_a_territory_below_zero() -> None:
    g = rocket_attack([6, 5], guns=2)              # 11 on a territory of 8
    assert notes(g, "rocket") == ["a rocket from Western Europe takes 6 IPCs in United Kingdom",
                                  "a rocket from Western Europe takes 2 IPCs in United Kingdom"]
    assert g.var("income_damage") == {"United Kingdom": 8}
    g.walk_to("UK", "purchase", turn=2)
    assert g.ipc("UK") == 30 + 22


def test_damage_falls_on_the_power_that_held_the_territory() -> None:
    g, _ = at_aarhe("Germany", [], step="purchase")
    g.proc("damage_income", "India", 2, "strategic bombing run")   # how the air missions damage an income
    g.proc("damage_income", "India", 5, "night bombing")
    assert g.var("income_damage") == {"India": 3}  # India's value
    assert g.var("damage_owner") == {"India": "UK"}
    assert g.var("damage_causes") == {"India": ["strategic bombing run", "night bombing"]}
    g.hold("India", "Japan")                       # taken before the UK collects: Japan does not pay it
    assert g.proc("income", "Japan") == 30 + 3
    g.walk_to("UK", "purchase", turn=2)
    assert g.var("income_damage") == {}
    assert g.var("damage_causes") == {}


# -- convoy raids and partisans ----------------------------------------------------------------------------
def test_uk_convoy_raid_by_german_warships_but_not_transports() -> None:
    g, _ = collected("UK", [("Destroyer", "Germany", "SZ 7", 1), ("Submarine", "Germany", "SZ 12", 1),
                            ("Transport", "Germany", "SZ 8", 1), ("Battleship", "Germany", "SZ 13", 1)])
    assert notes(g, "UK ") == ["UK income -2: convoy raid (2 German warships in sea zones 7, 8, 11, 12)",
                               "UK collects 28 IPCs"]
    assert g.ipc("UK") == 128
    assert g.var("income_losses")["UK"] == ["UK income -2: convoy raid (2 German warships in sea zones 7, 8, 11, 12)"]
    # the status line shows the power to play what its collect income lost, and why
    assert g.rs.logic.status(g.state) == ("Round 2, UK: purchase | IPCs: USSR 48, Germany 80, UK 128 (next income -2), Japan 30, US 42"
                                          " | UK income -2: convoy raid (2 German warships in sea zones 7, 8, 11, 12)")


def test_pacific_islands_lose_one_per_enemy_submarine_in_their_sea_zones() -> None:
    # Philippines (3) and Okinawa (1); Japan itself (8) touches sea zones 60 and 61
    g, _ = collected("Japan", [("Submarine", "US", "SZ 49", 2), ("Submarine", "US", "SZ 58", 3),
                               ("Submarine", "US", "SZ 60", 1), ("Submarine", "US", "SZ 61", 1),
                               ("Destroyer", "US", "SZ 48", 1)])
    assert notes(g, "Japan ") == [
        "Japan income -2: convoy raid on Japan (2 enemy submarines in its sea zones)",
        "Japan income -1: convoy raid on Okinawa (3 enemy submarines in its sea zones)",
        "Japan income -2: convoy raid on Philipine Islands (2 enemy submarines in its sea zones)",
        "Japan collects 25 IPCs"]
    assert g.ipc("Japan") == 125


def test_the_ipcs_each_raider_costs_are_options() -> None:
    # uk_convoy_ipcs 3: two German warships take 6 from the UK
    g, _ = collected("UK", [("Destroyer", "Germany", "SZ 7", 1), ("Submarine", "Germany", "SZ 12", 1)], uk_convoy_ipcs=3)
    assert notes(g, "UK ") == ["UK income -6: convoy raid (2 German warships in sea zones 7, 8, 11, 12)",
                               "UK collects 24 IPCs"]
    # island_convoy_ipcs 2: one US submarine beside the Philippines (3) takes 2, beside Okinawa (1) all of it
    g, _ = collected("Japan", [("Submarine", "US", "SZ 49", 1), ("Submarine", "US", "SZ 58", 1)], island_convoy_ipcs=2)
    assert notes(g, "Japan ") == ["Japan income -1: convoy raid on Okinawa (1 enemy submarine in its sea zones)",
                                  "Japan income -2: convoy raid on Philipine Islands (1 enemy submarine in its sea zones)",
                                  "Japan collects 27 IPCs"]
    assert g.ipc("Japan") == 127
    # 0: the raiders cost nothing
    g, _ = collected("UK", [("Destroyer", "Germany", "SZ 7", 1)], uk_convoy_ipcs=0)
    assert g.ipc("UK") == 130 and notes(g, "UK ") == ["UK collects 30 IPCs"]


def test_pacific_islands_are_an_option() -> None:
    g, _ = collected("Japan", [("Submarine", "US", "SZ 49", 2)], pacific_islands='["Okinawa"]')
    assert g.ipc("Japan") == 130


def test_soviet_partisans_leave_germany_nothing_from_unoccupied_soviet_territory() -> None:
    # Germany holds Karelia (2), Archangel (2) and Caucasus (4), original Soviet territories (the
    # map's `original_owner`: the USSR held them at the start); only Karelia has German infantry
    g, _ = collected("Germany", [("Infantry", "Germany", "Karelia S.S.R.", 1), ("Fighter", "Germany", "Archangel", 1),
                                 ("Infantry", "Japan", "Caucasus", 1)],
                     control={"Karelia S.S.R.": "Germany", "Archangel": "Germany", "Caucasus": "Germany"})
    assert notes(g, "Germany ") == [
        "Germany income -2: Soviet partisans in Archangel (no German land unit occupies it)",
        "Germany income -4: Soviet partisans in Caucasus (no German land unit occupies it)",
        "Germany collects 42 IPCs"]
    assert g.ipc("Germany") == 100 + 48 - 6


# -- upkeep and debt ----------------------------------------------------------------------------------------
def test_desert_and_airborne_upkeep_are_paid_and_a_shortfall_is_carried() -> None:
    # The UK holds only the United Kingdom (8) and Anglo Egypt (2), has 9 units in Anglo Egypt
    # (and a complex, which pays nothing) and dropped 2 land units from the air last turn
    g, _ = at_aarhe("UK", [("Infantry", "UK", "Anglo Egypt", 8), ("Fighter", "UK", "Anglo Egypt", 1),
                           ("IndustrialComplex", "UK", "Anglo Egypt", 1)], step="purchase", ipc=50, spare=False)
    for s, o in list(g.state.control.items()):
        if o == "UK" and s not in ("United Kingdom", "Anglo Egypt"):
            g.hold(s, "Germany")
    g.proc("airborne_dropped", "UK", 2)            # how the airborne-drop rule reports a drop
    g.log = []
    g.walk_to("UK", "purchase", turn=2)
    assert notes(g, "UK ") == ["UK income -9: upkeep of 9 units in desert territories",
                               "UK income -2: upkeep of 2 land units dropped from the air last turn",
                               "UK collects nothing and carries 1 IPC of upkeep to its next turn"]
    # upkeep comes off the income: the treasury is not touched, the rest is a debt
    assert g.ipc("UK") == 50
    assert g.var("upkeep_debt")["UK"] == 1 and g.var("dropped")["UK"] == 0
    g.hold("India", "UK")                          # 3 more next turn
    g.log = []
    g.walk_to("UK", "purchase", turn=3)
    assert notes(g, "UK ") == ["UK income -9: upkeep of 9 units in desert territories",
                               "UK income -1: upkeep carried from the last turn",
                               "UK collects 3 IPCs"]
    assert g.ipc("UK") == 53 and g.var("upkeep_debt")["UK"] == 0


# -- Lend-Lease ---------------------------------------------------------------------------------------------
def lend_lease(pieces: Any = (), **options: Any) -> Play:
    g, _ = at_aarhe("US", pieces, step="purchase", **options)
    g.walk_to("US", "lend_lease", turn=2)
    g.log = []
    return g


def test_the_us_sends_lend_lease_up_to_the_cap() -> None:
    g = lend_lease()
    assert g.ipc("US") == 84 and g.decision.finish.label == "send nothing more"
    assert len(g.options("send")) == 24            # 1 to 12 IPCs, to the USSR or the UK
    ussr, uk = g.ipc("USSR"), g.ipc("UK")
    g.act("send", to="USSR", amount=5)
    assert g.why_not("send", to="UK", amount=8) == "the US may send UK at most 7 more IPCs of Lend-Lease this turn"
    assert g.why_not("send", to="Germany", amount=1) == "Lend-Lease goes to the USSR or the UK"
    g.act("send", to="UK", amount=7)
    # the cap is used up: the step ends by itself, and the IPCs arrive
    assert g.step == "purchase"
    assert (g.ipc("US"), g.ipc("USSR"), g.ipc("UK")) == (72, ussr + 5, uk + 7)
    assert notes(g, "Lend-Lease") == ["USSR receives 5 IPCs of Lend-Lease from the US (5 sent)",
                                      "UK receives 7 IPCs of Lend-Lease from the US (7 sent)"]


def test_sending_nothing_more_ends_lend_lease() -> None:
    g = lend_lease()
    g.act("send", to="UK", amount=3)
    g.finish()
    assert g.step == "purchase" and g.ipc("US") == 81


def test_german_warships_sink_lend_lease_the_ussrs_share_first() -> None:
    g = lend_lease([("Destroyer", "Germany", "SZ 2", 1), ("Submarine", "Germany", "SZ 4", 1),
                    ("Transport", "Germany", "SZ 3", 1), ("Submarine", "Germany", "SZ 7", 1)])
    ussr, uk = g.ipc("USSR"), g.ipc("UK")
    g.act("send", to="USSR", amount=1)
    assert g.rs.logic.status(g.state).endswith("| Lend-Lease this turn: USSR 1 so far")
    g.act("send", to="UK", amount=6)
    g.finish()
    assert (g.ipc("USSR"), g.ipc("UK")) == (ussr, uk + 5)
    assert g.rs.logic.status(g.state).startswith("Round 2, US: purchase | IPCs: ")
    assert g.rs.logic.status(g.state).endswith(" | Lend-Lease this turn: USSR 1 (0 arrived), UK 6 (5 arrived)")
    assert notes(g, "Lend-Lease") == [
        "Lend-Lease to USSR -1: convoy raid (German warships in sea zones 1, 2, 3, 4, 9, 10)",
        "USSR receives 0 IPCs of Lend-Lease from the US (1 sent)",
        "Lend-Lease to UK -1: convoy raid (German warships in sea zones 1, 2, 3, 4, 9, 10)",
        "UK receives 5 IPCs of Lend-Lease from the US (6 sent)"]


def test_each_german_warship_sinks_lend_lease_ipcs_an_option_gives() -> None:
    # lend_lease_convoy_ipcs 2: two warships sink 4, the USSR's 3 first, then 1 of the UK's
    g = lend_lease([("Destroyer", "Germany", "SZ 2", 1), ("Submarine", "Germany", "SZ 9", 1)], lend_lease_convoy_ipcs=2)
    ussr, uk = g.ipc("USSR"), g.ipc("UK")
    g.act("send", to="USSR", amount=3)
    g.act("send", to="UK", amount=6)
    g.finish()
    assert (g.ipc("USSR"), g.ipc("UK")) == (ussr, uk + 5)
    assert notes(g, "Lend-Lease to") == [
        "Lend-Lease to USSR -3: convoy raid (German warships in sea zones 1, 2, 3, 4, 9, 10)",
        "Lend-Lease to UK -1: convoy raid (German warships in sea zones 1, 2, 3, 4, 9, 10)"]
    # with the losses off the cap: 12 - 2 x 2
    g = lend_lease([("Destroyer", "Germany", "SZ 10", 2)], lend_lease_losses_from_cap=True, lend_lease_convoy_ipcs=2)
    assert g.proc("lend_lease_room", "UK") == 8


def test_losses_in_the_ussr_only_zones_fall_on_the_ussr() -> None:
    g = lend_lease([("Submarine", "Germany", "SZ 4", 2)], lend_lease_ussr_only_zones="[3, 4]")
    ussr, uk = g.ipc("USSR"), g.ipc("UK")
    g.act("send", to="USSR", amount=1)
    g.act("send", to="UK", amount=6)
    g.finish()
    assert (g.ipc("USSR"), g.ipc("UK")) == (ussr, uk + 6)


def test_losses_may_cut_the_cap_instead() -> None:
    g = lend_lease([("Destroyer", "Germany", "SZ 10", 2)], lend_lease_losses_from_cap=True)
    uk = g.ipc("UK")
    assert len(g.options("send")) == 20            # a cap of 12 - 2
    g.act("send", to="UK", amount=10)
    assert g.step == "purchase" and g.ipc("UK") == uk + 10


def test_no_lend_lease_to_a_power_without_its_capital() -> None:
    g = lend_lease(control={"Russia": "Germany"})
    assert g.why_not("send", to="USSR", amount=1) == "USSR receives no Lend-Lease while the enemy holds its capital"
    assert g.proc("lend_lease_room", "UK") == 12


# -- naval repair ----------------------------------------------------------------------------------------------
def damaged_fleet(ipc: int = 100, **options: Any) -> tuple[Play, int, int]:
    """The UK in round 2 at its naval repair, with a damaged battleship and a destroyer in sea
    zone 7 (next to its complex in the United Kingdom, and to Western Europe)."""
    g, ids = at_aarhe("UK", [("IndustrialComplex", "UK", "United Kingdom", 1), ("Destroyer", "UK", "SZ 7", 1)],
                      step="purchase", ipc=ipc, **options)
    bb = g.add("Battleship", "UK", "SZ 7", hits=1)[0]
    g.walk_to("UK", "naval_repair", turn=2)
    return g, bb, ids["UK Destroyer SZ 7"][0]


def test_a_damaged_ship_next_to_a_friendly_complex_is_repaired_for_a_die_of_ipcs() -> None:
    g, bb, dd = damaged_fleet()
    # LHTR's free repair at the end of the turn is gone: the battleship is still damaged
    assert g.piece(bb).hits == 1
    assert [dict(a.args) for a in g.options("repair_ship")] == [{"u": bb, "at": "United Kingdom"}]
    assert g.why_not("repair_ship", u=dd, at="United Kingdom") == \
        "only a damaged ship of yours next to a friendly industrial complex may be repaired"
    assert g.why_not("repair_ship", u=bb, at="Western Europe") == \
        "Western Europe is no friendly industrial complex next to Sea Zone 7 (SZ 7)"
    ipc = g.ipc("UK")
    g.state.load_dice([4])
    g.act("repair_ship", u=bb, at="United Kingdom")
    assert g.ipc("UK") == ipc - 4
    assert g.piece(bb).space == "United Kingdom" and g.piece(bb).hits == 1
    # out of play this turn: it does not move
    g.walk_to("UK", "combat_move")
    assert bb not in [a["u"] for a in g.options("go")]
    g.walk_to("UK", "mobilize")
    assert g.piece(bb).space == "SZ 7" and g.piece(bb).hits == 0
    assert notes(g, "Battleship") == [
        "UK pays 4 IPCs to repair its Battleship at United Kingdom; it returns to Sea Zone 7 (SZ 7) in mobilize",
        "UK Battleship returns repaired to Sea Zone 7 (SZ 7)"]


def test_a_ship_is_repaired_only_where_its_power_may_move() -> None:
    # found by a random game: a US battleship was put in a Soviet territory to be repaired
    g, ids = at_aarhe("US", [("IndustrialComplex", "USSR", "Caucasus", 1), ("IndustrialComplex", "UK", "Persia", 1)],
                      step="purchase", ipc=100)
    bb = g.add("Battleship", "US", "SZ 16", hits=1)[0]
    g.walk_to("US", "purchase", turn=2)             # no naval repair: nothing may be repaired
    assert g.proc("repair_yards", "SZ 16", "US") == [] and g.proc("repairable", "US") == []
    assert g.piece(bb).space == "SZ 16" and g.piece(bb).hits == 1
    assert g.proc("repair_yards", "SZ 34", "US") == ["Persia"]


def test_a_repair_needs_ipcs_for_any_roll() -> None:
    g, bb, _ = damaged_fleet(ipc=0)
    g.set_ipc("UK", 5)
    assert g.why_not("repair_ship", u=bb, at="United Kingdom") == "UK has 5 IPCs; a repair may cost up to 6"


def test_the_dice_a_repair_costs_are_an_option() -> None:
    g, bb, _ = damaged_fleet(ipc=0, repair_dice=2)
    assert g.labels("repair_ship") == ["repair the UK Battleship (damaged) in Sea Zone 7 (SZ 7) at United Kingdom"
                                       " (roll 2 dice, pay that many IPCs)"]
    g.set_ipc("UK", 11)
    assert g.why_not("repair_ship", u=bb, at="United Kingdom") == "UK has 11 IPCs; a repair may cost up to 12"
    g.set_ipc("UK", 12)
    g.state.load_dice([4, 5])
    g.act("repair_ship", u=bb, at="United Kingdom")
    assert g.ipc("UK") == 3 and g.piece(bb).space == "United Kingdom"
    assert notes(g, "repair") == ["UK pays 9 IPCs to repair its Battleship at United Kingdom;"
                                  " it returns to Sea Zone 7 (SZ 7) in mobilize"]


def test_a_ship_not_repaired_stays_damaged() -> None:
    g, bb, _ = damaged_fleet()
    g.finish()
    g.walk_to("UK", "purchase", turn=3)
    assert g.piece(bb).hits == 1
