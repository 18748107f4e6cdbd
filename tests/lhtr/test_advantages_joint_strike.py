"""Joint Strike, the UK's National Advantage of Revised (rulesets/aarhe/lhtr/advantages.rules):
once a game, at the start of a round, the UK hands its units to the US player, who moves them
and fights with them beside his own in the US's combat move, conduct combat and non-combat
move; the UK skips those phases of its own turn."""

from __future__ import annotations

import pytest

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import Play, fight, situation, step


def declared() -> Play:
    """Round 1 of a new game, the UK having declared its joint strike as the USSR's turn begins."""
    g = Play.new(joint_strike=True)
    assert (g.power, g.step, g.decision.player) == ("USSR", "declare_joint_strike", "UK")
    g.act("declare_joint_strike")
    return g


def uk_units(g: Play) -> list[tuple[str, str]]:
    return sorted((p.kind, p.space) for p in g.state.pieces.values() if p.owner == "UK")


@pytest.mark.parametrize("on", [True, False])
def test_the_uk_is_asked_at_the_start_of_a_round_only_with_the_option(on: bool) -> None:
    g = Play.new(joint_strike=on)
    assert (g.step == "declare_joint_strike") is on
    if on:
        assert g.labels() == ["declare a joint strike: the US moves and fights the UK's units this round",
                              "no joint strike this round"]


def test_the_uk_skips_its_combat_and_moves() -> None:
    g = declared()
    g.walk_to("UK", "purchase", turn=1)
    before = uk_units(g)
    g.log = []
    g.finish()                          # nothing bought
    # combat move, conduct combat and non-combat move find nothing to do: on to Japan's turn
    ran = [e[1]["step"] for e in g.log if e[0] == "step_start"]
    assert ran[:3] == ["combat_move", "conduct_combat", "noncombat_move"]
    assert g.power == "Japan" and uk_units(g) == before
    assert not any(e[0] == "move" for e in g.log)


def test_the_us_player_moves_the_uks_units() -> None:
    g = declared()
    g.walk_to("US", "combat_move", turn=1)
    owners = {g.piece(a["u"]).owner for a in g.options("go")}
    assert owners == {"UK", "US"}
    assert g.decision.player == "US"
    # a UK fighter in the United Kingdom: the US player is asked where it goes
    fighter = g.at("United Kingdom", "UK", "Fighter")[0].id
    g.act("go", u=fighter)
    assert g.decision.kind == "choose" and g.decision.player == "US"


def test_uk_and_us_units_attack_as_one_side() -> None:
    g, ids = situation("US", [("Infantry", "UK", "Anglo Egypt", 1), ("Tank", "US", "Anglo Egypt", 1),
                              ("Infantry", "Germany", "Libya", 1)], step="purchase", joint_strike=True)
    g.state.vars["handed"] = {"UK": "US"}          # declared at the start of the round
    g.walk_to("US", "combat_move", turn=1)
    step(g, ids["UK Infantry Anglo Egypt"][0], "Libya")
    step(g, ids["US Tank Anglo Egypt"][0], "Libya")
    g.walk_to("US", "conduct_combat", turn=1)
    # one battle: the infantry (1) and the tank (3) roll 2 and 3, the tank hits; the defender misses (6)
    fight(g, "Libya", [2, 3, 6])
    assert g.kinds_at("Libya") == {"Infantry": 1, "Tank": 1}
    assert g.kinds_at("Libya", "UK") == {"Infantry": 1}
    # the side's speaker (most land units, the US on a tie) takes the territory
    assert g.state.control["Libya"] == "US"


def test_without_a_joint_strike_the_uks_units_are_its_own() -> None:
    g, _ = situation("US", [("Infantry", "UK", "Anglo Egypt", 1), ("Tank", "US", "Anglo Egypt", 1),
                            ("Infantry", "Germany", "Libya", 1)], joint_strike=True)
    assert {g.piece(a["u"]).owner for a in g.options("go")} == {"US"}


def test_the_joint_strike_lasts_a_round_and_comes_once() -> None:
    g = declared()
    asked_again = False
    for _ in range(300):
        if g.state.turn == 2 and g.power == "USSR" and g.step == "purchase":
            break
        asked_again = asked_again or (g.state.turn == 2 and g.step == "declare_joint_strike")
        g.finish()
    assert g.state.turn == 2 and not asked_again
    assert g.var("handed") == {} and g.var("joint_strike_declared") is True


def test_declining_keeps_it_for_a_later_round() -> None:
    g = Play.new(joint_strike=True)
    g.finish()
    assert g.var("handed") == {}
    for _ in range(300):
        if g.state.turn == 2 and g.step == "declare_joint_strike":
            break
        g.finish()
    assert (g.state.turn, g.power, g.decision.player) == (2, "USSR", "UK")


def test_aarhe_the_uks_aircraft_fly_no_missions_in_its_turn() -> None:
    g, _ = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1), ("Infantry", "Germany", "Western Europe", 1)],
                    step="purchase", joint_strike=True)
    g.state.vars["handed"] = {"UK": "US"}
    g.finish()                          # nothing bought: on to the air missions, then the moves
    assert g.power != "UK" or g.step not in ("declare_missions", "combat_move", "noncombat_move")
    assert g.kinds_at("United Kingdom", "UK") == {"Bomber": 1}
