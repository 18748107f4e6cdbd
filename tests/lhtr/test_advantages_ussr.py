"""The Soviet Union's National Advantages of Revised (rulesets/aarhe/lhtr/advantages_ussr.rules),
each an option: Russian Winter (once a game the USSR declares a severe winter, and until its
next turn its infantry in red territories defend on 3)."""

from __future__ import annotations

import pytest

from tests.aarhe.play import aarhe
from tests.lhtr.play import Play, destroyed, fight, load

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
