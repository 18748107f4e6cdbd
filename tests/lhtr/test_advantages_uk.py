"""Enigma Decoded, the UK's National Advantage of Revised (rulesets/aarhe/lhtr/advantages.rules):
once a game, between Germany's combat move and its combat, the UK moves units from one space
into a friendly sea zone Germany attacks, or out of it, leaving one behind."""

from __future__ import annotations

import pytest

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import Play, fight, situation

#: Germany's submarine attacks a UK destroyer in SZ 7; UK ships wait in SZ 8 and a carrier
#: with two fighters in SZ 6, both next to SZ 7; a fighter stands in the United Kingdom
CONVOY = [("Submarine", "Germany", "SZ 7", 1), ("Destroyer", "UK", "SZ 7", 1),
          ("Battleship", "UK", "SZ 8", 1), ("Transport", "UK", "SZ 8", 1),
          ("AircraftCarrier", "UK", "SZ 6", 1), ("Fighter", "UK", "SZ 6", 2),
          ("Fighter", "UK", "United Kingdom", 1)]


def after_combat_move(pieces: list[tuple[str, str, str, int]], **options: object) -> Play:
    """Germany's combat move of round 1 on a board holding `pieces`, just finished."""
    g, _ = situation("Germany", pieces, step="combat_move", **options)
    g.finish()
    return g


def moves(g: Play) -> list[tuple[str, str, str]]:
    """The special moves offered: (kind, from, to)."""
    out = []
    for a in g.options("enigma"):
        u = g.piece(a["u"])
        assert u is not None
        out.append((u.kind, u.space, a["to"]))
    return sorted(out)


def enigma(g: Play, kind: str, space: str, to: str) -> None:
    g.act("enigma", u=g.at(space, "UK", kind)[0].id, to=to)


def test_the_uk_is_asked_between_germanys_combat_move_and_its_combat() -> None:
    g = after_combat_move(CONVOY, enigma_decoded=True)
    assert (g.power, g.step, g.decision.player) == ("Germany", "enigma_move", "UK")
    # ships from a zone next to SZ 7; not the fighters (no carrier in SZ 7), not the lone destroyer
    assert moves(g) == [("AircraftCarrier", "SZ 6", "SZ 7"), ("Battleship", "SZ 8", "SZ 7"),
                        ("Transport", "SZ 8", "SZ 7")]


@pytest.mark.parametrize("on", [True, False])
def test_enigma_decoded_comes_only_with_the_option(on: bool) -> None:
    g = after_combat_move(CONVOY, enigma_decoded=on)
    assert g.step == ("enigma_move" if on else "conduct_combat")


def test_the_ships_that_came_defend_the_zone() -> None:
    g = after_combat_move(CONVOY, enigma_decoded=True)
    enigma(g, "Battleship", "SZ 8", "SZ 7")
    # one space to one space: now only the transport in SZ 8 may follow
    assert moves(g) == [("Transport", "SZ 8", "SZ 7")]
    g.finish()
    assert (g.power, g.step) == ("Germany", "conduct_combat")
    assert g.kinds_at("SZ 7", "UK") == {"Battleship": 1, "Destroyer": 1}
    # the submarine misses (6); the destroyer (3) and the battleship (4) roll 4 and 4: the battleship sinks it
    fight(g, "SZ 7", [6, 4, 4])
    assert g.kinds_at("SZ 7", "Germany") == {}
    assert g.var("enigma_spent") is True


def test_a_carrier_brings_its_fighters() -> None:
    g = after_combat_move(CONVOY, enigma_decoded=True)
    enigma(g, "AircraftCarrier", "SZ 6", "SZ 7")
    assert g.kinds_at("SZ 7", "UK") == {"AircraftCarrier": 1, "Destroyer": 1, "Fighter": 2}
    assert g.kinds_at("SZ 6", "UK") == {}


def test_units_may_leave_the_zone_but_one_stays() -> None:
    g = after_combat_move([("Submarine", "Germany", "SZ 7", 1), ("Destroyer", "UK", "SZ 7", 1),
                           ("Transport", "UK", "SZ 7", 1)], enigma_decoded=True)
    assert moves(g) == [("Destroyer", "SZ 7", "SZ 12"), ("Destroyer", "SZ 7", "SZ 6"), ("Destroyer", "SZ 7", "SZ 8"),
                        ("Transport", "SZ 7", "SZ 12"), ("Transport", "SZ 7", "SZ 6"), ("Transport", "SZ 7", "SZ 8")]
    enigma(g, "Transport", "SZ 7", "SZ 8")
    # the destroyer must stay behind: nothing more may move, and the special move is over
    assert g.step == "conduct_combat"
    assert g.kinds_at("SZ 8", "UK") == {"Transport": 1} and g.kinds_at("SZ 7", "UK") == {"Destroyer": 1}


def test_germany_moving_into_an_empty_zone_does_not_count() -> None:
    g = after_combat_move([("Submarine", "Germany", "SZ 7", 1), ("Battleship", "UK", "SZ 8", 1)], enigma_decoded=True)
    # no battle, nothing to move: the UK is not asked, and Germany goes on to non-combat move
    assert (g.power, g.step) == ("Germany", "noncombat_move")
    assert g.kinds_at("SZ 8", "UK") == {"Battleship": 1}


def test_enigma_decoded_is_once_a_game() -> None:
    g, _ = situation("Germany", CONVOY, step="combat_move", enigma_decoded=True)
    g.state.vars["enigma_spent"] = True                  # used in an earlier round
    g.finish()
    assert g.step == "conduct_combat"


def test_declining_keeps_it_for_later() -> None:
    g = after_combat_move(CONVOY, enigma_decoded=True)
    g.finish()
    assert g.step == "conduct_combat" and g.var("enigma_spent") is False
    assert any("does not use Enigma Decoded" in e[1]["message"] for e in g.log if e[0] == "note")


def test_aarhe_asks_after_germany_has_declared_its_sea_attacks() -> None:
    # under AARHE a zone shared with enemy ships is a battle only where an attack is declared
    g, _ = at_aarhe("Germany", CONVOY, step="combat_move", enigma_decoded=True)
    g.finish()
    assert g.step == "declare_sea_attacks"
    g.act("attack", z="SZ 7")
    g.finish()
    assert (g.step, g.decision.player) == ("enigma_move", "UK")
    assert ("Battleship", "SZ 8", "SZ 7") in moves(g)
