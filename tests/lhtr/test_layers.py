"""A layer over lhtr, as AARHE will be: options, procedures overridden (calling the base),
a new rule, all in a rules file that begins `extends lhtr`."""

from __future__ import annotations

from pathlib import Path

from tests.lhtr.play import Play, load_layer, situation

HOUSE = Path(__file__).parent / "house"


def test_a_layer_changes_an_option_a_price_and_ships_passage() -> None:
    rs = load_layer(HOUSE)
    assert rs.rules.options["victory_cities"] == 10
    g = Play.new(ruleset=rs)
    assert g.labels("buy")[:2] == ["buy Infantry (2 IPCs)", "buy Artillery (4 IPCs)"]
    g.act("buy", kind="Infantry")
    assert g.ipc("USSR") == 22
    g.walk_to("Germany", "purchase")
    assert g.labels("buy")[0] == "buy Infantry (3 IPCs)"       # the base price for the others


def test_a_layers_rule_runs_beside_the_base_rules() -> None:
    rs = load_layer(HOUSE)
    g = Play.new(ruleset=rs)
    g.clear(keep=["IndustrialComplex"])
    g.add("Submarine", "Germany", "SZ 7")           # next to the United Kingdom
    g.add("Submarine", "Germany", "SZ 8")
    uk = g.ipc("UK")
    g.walk_to("UK", "purchase")
    assert g.ipc("UK") == uk - 2
    assert g.var("owned_at_start")                    # the base's start-of-turn rule ran too


def test_a_layer_overrides_how_ships_move() -> None:
    pieces = [("Destroyer", "Germany", "SZ 5", 1), ("Submarine", "UK", "SZ 6", 1), ("Transport", "UK", "SZ 6", 1)]
    base, ids = situation("Germany", pieces, step="noncombat_move")
    house, hids = situation("Germany", pieces, step="noncombat_move", ruleset=load_layer(HOUSE))
    # in non-combat move, the base rules keep ships out of any zone with enemy ships
    assert base.why_not("go", u=ids["Germany Destroyer SZ 5"][0]) == (
        "the Destroyer in Sea Zone 5 (SZ 5) has nowhere to go: "
        "Sea Zone 6 (SZ 6) holds enemy warships: ships enter it only in combat move")
    house.act("go", u=hids["Germany Destroyer SZ 5"][0])
    assert sorted(a["choice"] for a in house.decision.options) == ["SZ 5", "SZ 6"]
