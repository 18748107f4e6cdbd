"""Every AARHE option's default and how sure it is, against the reference
(shared/reference/aarhe/RULES.md, part B, and part C for what is still unknown).

The table below is written from RULES.md, not from options.rules: a default or a status
changed in options.rules that RULES.md does not back fails here. An option holding several
numbers is as sure as its least sure one (strait_hit: United Kingdom and Western Europe 1 are
CONFIRMED, Gibraltar's 2 UNCONFIRMED, so the option is unconfirmed). A reading of our own
that RULES.md leaves open (collect_in_first_round, air_moves_each_phase...) is UNCONFIRMED.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

from clients import cli
from tests.aarhe.play import aarhe
from tests.conftest import ROOT

C, R, U = "confirmed", "reconstructed", "unconfirmed"

PACIFIC = ["Japan", "Okinawa", "Philipine Islands", "Wake Island", "Midway", "Hawaiian Islands", "Caroline Islands",
           "Solomon Islands", "New Guinea", "East Indies", "Borneo", "New Zealand"]

#: option -> (default, status, where RULES.md says so)
REFERENCE: dict[str, tuple[Any, str, str]] = {
    # The round
    "team_turns": (False, U, "B Round order: LHTR's order; earlier versions' team turns (S5, S7), UNCONFIRMED"),
    "team_combat_together": (True, U, "B Round order: 'all Axis together, then all Allies together' (S5, S7); "
                                      "how together (S5/S7: each phase at its own speed, conduct combat jointly) "
                                      "is not in RULES.md"),
    "team_turn_order": (["USSR", "Germany", "Japan", "UK", "US"], U,
                        "B Round order: with team turns, the USSR, then the Axis, then the Allies (S5, S7)"),
    "team_axis": (["Germany", "Japan"], U, "B Round order: all Axis together (S5, S7)"),
    "team_allies": (["UK", "US"], U, "B Round order: all Allies together, the USSR alone (S5, S7)"),
    # Phase 1: collect income
    "lend_lease_cap": (12, U, "B1 Lend-Lease: UNCONFIRMED, best value 12 (12, 13, 14, 21, 31 or 41)"),
    "lend_lease_losses_from_cap": (False, U, "C2: whether convoy losses come off the cap or the amount sent"),
    "uk_convoy_zones": ([7, 8, 11, 12], R, "B1 Convoy raid: the 12 is RECONSTRUCTED from S3"),
    "lend_lease_convoy_zones": ([1, 2, 3, 4, 9, 10], R, "B1 Convoy raid: RECONSTRUCTED, S3 gives 1, 2, 3, 4, 9, 10"),
    "lend_lease_ussr_only_zones": ([], U, "B1 Convoy raid: S3's clause is not in the experimental wording; optional"),
    "desert_upkeep": (1, C, "B1 Upkeep: 1 IPC for each unit in a desert territory (seed)"),
    "airborne_drops": (False, U, "C6: the seed has no drop rule; S7 lets bombers carry 1 infantry, UNCONFIRMED"),
    "airborne_upkeep": (1, C, "B1 Upkeep: 1 IPC for each land unit put down by airborne drop (seed)"),
    "collect_in_first_round": (False, U, "B intro: income at the start of the turn; round 1 is not said"),
    "pacific_islands": (PACIFIC, U, "B1 Convoy raid: the rule is CONFIRMED, but the seed names no islands"),
    "island_convoy_ipcs": (1, C, "B1 Convoy raid: the owner collects 1 IPC less per enemy submarine, CONFIRMED"),
    "uk_convoy_ipcs": (1, C, "B1 Convoy raid: the UK collects 1 IPC less per German warship; only the zone 12 is lost"),
    "lend_lease_convoy_ipcs": (1, C, "B1 Convoy raid: 1 IPC less of Lend-Lease per German warship; only the zones are lost"),
    "repair_dice": (1, C, "B1 Naval repair: roll 1 die and pay that many IPCs (seed; S4)"),
    "airborne_capacity": (1, U, "C6: no drop rule in the seed; S7 says bombers may carry 1 infantry, UNCONFIRMED"),
    # Phase 2: purchase
    "factory_base_cost": (15, C, "B2: industrial complex cost = 15 - the territory's income (CONFIRMED)"),
    "infantry_price_capital": ({"USSR": 2, "Germany": 2, "Japan": 2}, R, "B2 first table: RECONSTRUCTED from S5"),
    "infantry_price_connected": ({"USSR": 3, "Germany": 3}, R, "B2 first table: RECONSTRUCTED; Japan has no column"),
    "infantry_price_other": ({"USSR": 4, "Germany": 4, "Japan": 4, "UK": 4, "US": 4}, U,
                             "B2: RECONSTRUCTED for Germany, USSR, Japan; the UK/US table is UNCONFIRMED"),
    "infantry_prices_at_capital": ({"UK": [2, 3, 4], "US": [2, 3, 4]}, U, "B2 second table: UNCONFIRMED, 2, 3, 4"),
    "infantry_price_counts_rounds": (False, U, "B2, C1: per infantry in a turn is the best reading; per round possible"),
    # Phase 3: combat move
    "small_island_cap": (3, U, "B3 Small islands: UNCONFIRMED, best value 3"),
    "strait_hit": ({"Gibraltar": 2, "United Kingdom": 1, "Western Europe": 1}, U,
                   "B3 Strait table: UK and Western Europe 1 CONFIRMED; Gibraltar 2 UNCONFIRMED"),
    "strait_zones": ({"Gibraltar": [12, 13], "United Kingdom": [6, 7], "Western Europe": [6, 7]}, R,
                     "B3 Strait table: UK and Western Europe 6 & 7 CONFIRMED; Gibraltar 12 & 13 RECONSTRUCTED"),
    "turkey_enterable": (True, U, "B3 Canal and C4: the canal rule implies Turkey can be held; how is unknown"),
    # Phase 4: conduct combat
    "fighter_air_combat": (2, U, "B4 Air combat: F UNCONFIRMED, best value 2"),
    "bomber_air_combat": (1, C, "B4 Air combat: bombers at 1 (seed)"),
    "aa_dice_per_gun": (3, U, "B4 Anti-aircraft: N UNCONFIRMED, best value 3"),
    "interceptor_value": (2, R, "B4 SBR: defending fighters at 2, RECONSTRUCTED from S6"),
    "escort_value": (1, C, "B4 SBR: attacking fighters at 1 (seed: only the 2 was lost)"),
    "night_bombing_share": (50, C, "B4 Night bombing: 50% of the roll, rounded down, CONFIRMED"),
    "terrain_defence_bonus": (1, C, "B3 Terrain: +1 defence in the first combat cycle, CONFIRMED"),
    # Phase 3 and 5: readings of movement
    "air_moves_each_phase": (True, U, "B3, B5: full movement in combat move and in non-combat move; a reading"),
    "reinforce_from_battles": (False, U, "B3 Air reinforcement: the seed does not say"),
    # Phase 4: air combat and missions, readings
    "air_combat_first_cycle_only": (False, U, "B4 Air combat: no limit to a cycle is given"),
    "counter_air_rounds": (1, U, "B4 Counter Air: no number given"),
    "interceptors_per_raider": (1, R, "B4 SBR: S6 limits the defenders to the number of attacking aircraft"),
    # Phase 6: mobilize
    "factory_relocation": (["USSR"], C, "B6 Soviet factories: the USSR may move one complex a turn (seed)"),
    "factory_relocations": (1, C, "B6 Soviet factories: one industrial complex per turn (seed)"),
}


def aarhe_options() -> dict[str, Any]:
    """The options the aarhe layer declares (not LHTR's)."""
    folder = str(ROOT / "rulesets" / "aarhe" / "aarhe")
    return {name: spec for name, spec in aarhe().rules.option_specs.items() if spec.pos.file.startswith(folder)}


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))


def test_every_aarhe_option_is_in_the_reference_table() -> None:
    assert sorted(aarhe_options()) == sorted(REFERENCE)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_each_default_and_status_agrees_with_rules_md(name: str) -> None:
    spec = aarhe_options()[name]
    default, status, where = REFERENCE[name]
    assert as_json(spec.default) == default, f"{name}: RULES.md {where}"
    assert spec.status == status, f"{name}: RULES.md {where}"
    assert spec.source, name


def test_wargame_info_lists_every_aarhe_option_with_its_value_default_status_and_source() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["info", "aarhe", "--json", "--option", "small_island_cap=4"]) == 0
    options = json.loads(out.getvalue())["options"]
    for name, (default, status, _) in REFERENCE.items():
        o = options[name]
        assert o["default"] == default and o["status"] == status and o["source"], name
        assert o["declared_by"] == "aarhe", name
        assert o["value"] == (4 if name == "small_island_cap" else default), name
    assert options["small_island_cap"]["value_from"] == "--option"
    assert options["last_round"]["declared_by"] == "lhtr"      # LHTR's options are listed too
