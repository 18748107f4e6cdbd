"""The Soviet Union's National Advantages of Revised (rulesets/aarhe/lhtr/advantages_ussr.rules),
each an option: Russian Winter (once a game the USSR declares a severe winter, and until its
next turn its infantry in red territories defend on 3) and Mobile Industry (Soviet industrial
complexes move to an adjacent red territory as non-combat move ends)."""

from __future__ import annotations

import pytest

from tests.aarhe.play import aarhe, at_aarhe
from tests.lhtr.play import Play, destroyed, fight, load, situation

KARELIA, ANGLO_EGYPT = "Karelia S.S.R.", "Anglo Egypt"


def german_attack(where: str, declare: bool, ruleset: str = "lhtr", **options: object) -> Play:
    """Round 1: the USSR declares a severe winter (or not) as its collect income phase ends;
    then, on a board holding only them, a German infantry attacks a Soviet infantry in `where`,
    up to Germany's conduct combat."""
    options = {"russian_winter": True, **options}
    g = Play.new(ruleset=load(**options) if ruleset == "lhtr" else aarhe(**options))
    g.walk_to("USSR", "declare_winter", turn=1)
    g.act("declare_winter") if declare else g.finish()
    g.walk_to("Germany", "purchase", turn=1)
    g.clear()
    g.add("Infantry", "Germany", where)
    g.add("Infantry", "USSR", where)
    g.add("Infantry", "Germany", "Southern Europe")     # a spare, so that non-combat move waits
    g.hold(where, "USSR")
    g.restart_turn()
    g.walk_to("Germany", "conduct_combat", turn=1)
    return g


@pytest.mark.parametrize(("declare", "lost"), [(True, "Germany Infantry"), (False, "USSR Infantry")])
def test_in_a_severe_winter_soviet_infantry_defend_on_three(declare: bool, lost: str) -> None:
    g = german_attack(KARELIA, declare)
    # round 1: the attacker misses, the defender rolls 3; round 2 (if any): the attacker hits
    fight(g, KARELIA, [6, 3, 1, 6])
    assert destroyed(g) == [lost]


def test_the_winter_is_only_in_red_territories() -> None:
    g = german_attack(ANGLO_EGYPT, True)
    fight(g, ANGLO_EGYPT, [6, 3, 1, 6])
    assert destroyed(g) == ["USSR Infantry"]


def test_the_other_reading_brings_the_winter_everywhere() -> None:
    g = german_attack(ANGLO_EGYPT, True, winter_everywhere=True)
    fight(g, ANGLO_EGYPT, [6, 3, 1, 6])
    assert destroyed(g) == ["Germany Infantry"]


def test_the_winter_is_once_a_game_and_ends_as_the_ussrs_next_turn_begins() -> None:
    g = Play.new(russian_winter=True)
    g.walk_to("USSR", "declare_winter", turn=1)
    g.act("declare_winter")
    assert g.var("severe_winter") is True
    g.walk_to("USSR", "purchase", turn=2)
    assert g.var("severe_winter") is False
    steps = []
    while g.state.turn == 2:
        steps.append(g.step)
        g.finish()
    assert "declare_winter" not in steps           # declared once, never asked again


def test_aarhe_keeps_the_russian_winter() -> None:
    g = german_attack(KARELIA, True, ruleset="aarhe")
    fight(g, KARELIA, [6, 3, 1, 6])
    assert destroyed(g) == ["Germany Infantry"]


def soviet_turn(**options: object) -> tuple[Play, int]:
    """Round 1, the USSR's turn on a board holding a Soviet complex in Karelia: three infantry
    bought, up to the end of non-combat move. Returns the game and the complex's id."""
    g, ids = situation("USSR", [("IndustrialComplex", "USSR", KARELIA, 1)], step="purchase", **options)
    for _ in range(3):
        g.act("buy", kind="Infantry")
    g.walk_to("USSR", "noncombat_move", turn=1)
    g.finish()
    return g, ids[f"USSR IndustrialComplex {KARELIA}"][0]


def test_mobile_industry_a_soviet_complex_moves_and_places_where_it_arrives() -> None:
    g, complex_id = soviet_turn(mobile_industry=True)
    # Karelia's neighbours: West Russia is Germany's, Belorussia and Eastern Europe are not red
    assert [a["to"] for a in g.options("move_industry")] == ["Archangel"]
    g.act("move_industry", u=complex_id, to="Archangel")
    assert g.kinds_at("Archangel", "USSR") == {"IndustrialComplex": 1} and not g.at(KARELIA)
    # once a turn, so the step is over; the complex places up to Archangel's value, 2
    assert g.step == "mobilize"
    assert {a["at"] for a in g.options("place")} == {"Archangel"}
    for _ in range(2):
        g.act("place", u=g.options("place")[0]["u"], at="Archangel", to="Archangel")
    assert g.kinds_at("Archangel", "USSR") == {"IndustrialComplex": 1, "Infantry": 2}
    assert g.options("place") == []


@pytest.mark.parametrize("on", [True, False])
def test_mobile_industry_comes_only_with_the_option(on: bool) -> None:
    g, _ = soviet_turn(mobile_industry=on)
    assert g.step == ("move_industry" if on else "mobilize")


def test_a_complex_moves_only_into_a_red_territory_the_ussr_holds() -> None:
    g, _ = situation("USSR", [("IndustrialComplex", "USSR", KARELIA, 1)], control={"Archangel": "Germany"},
                     step="purchase", mobile_industry=True)
    g.act("buy", kind="Infantry")
    g.walk_to("USSR", "noncombat_move", turn=1)
    g.finish()
    assert g.step == "mobilize"        # nowhere to go: there is no step to play


def test_aarhe_keeps_mobile_industry() -> None:
    g, ids = at_aarhe("USSR", [("IndustrialComplex", "USSR", KARELIA, 1)], step="noncombat_move", mobile_industry=True)
    g.finish()
    g.act("move_industry", u=ids[f"USSR IndustrialComplex {KARELIA}"][0], to="Archangel")
    assert g.kinds_at("Archangel", "USSR") == {"IndustrialComplex": 1}
