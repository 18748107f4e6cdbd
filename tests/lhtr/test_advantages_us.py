"""The United States' National Advantages of Revised (rulesets/aarhe/lhtr/advantages_us.rules),
each an option, played through the rules: Marines (infantry landing in an amphibious assault
attack one higher in the first round) and Superfortresses (bombers defend on 2, AA guns do not
fire at them, and they roll one more damage die in a raid)."""

from __future__ import annotations

import pytest

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import Play, destroyed, fight, rolls, situation

MEXICO = "Mexico"


def us_lands_in_mexico(**options: object) -> Play:
    """Round 1: a US infantry in Western United States goes aboard a transport in SZ 54 and
    lands in Mexico, which Japan holds with one infantry; up to the US's conduct combat."""
    g, ids = situation("US", [("Transport", "US", "SZ 54", 1), ("Infantry", "US", "Western United States", 1),
                              ("Infantry", "Japan", MEXICO, 1)], control={MEXICO: "Japan"}, **options)
    g.act("go", u=ids["US Infantry Western United States"][0])
    g.choose("SZ 54")
    g.act("land", t=ids["US Transport SZ 54"][0])          # Mexico is the one territory to assault
    g.finish()
    return g


@pytest.mark.parametrize(("marines", "lost"), [(True, "Japan Infantry"), (False, "US Infantry")])
def test_marines_landing_attack_on_two_in_the_first_round(marines: bool, lost: str) -> None:
    g = us_lands_in_mexico(marines=marines)
    fight(g, MEXICO, [2, 6, 6, 1])       # round 1: 2 against 6; round 2 (if any): 6 against 1
    assert destroyed(g) == [lost]


def test_the_islands_reading_gives_marines_nothing_on_the_mainland() -> None:
    g = us_lands_in_mexico(marines=True, marines_islands_only=True)
    fight(g, MEXICO, [2, 6, 6, 1])
    assert destroyed(g) == ["US Infantry"]


@pytest.mark.parametrize(("superfortresses", "lost"), [(True, "Japan Infantry"), (False, "US Bomber")])
def test_superfortresses_defend_on_two(superfortresses: bool, lost: str) -> None:
    g, _ = situation("Japan", [("Infantry", "Japan", "China", 1), ("Bomber", "US", "China", 1)],
                     step="conduct_combat", superfortresses=superfortresses)
    fight(g, "China", [6, 2, 1, 6])      # round 1: 6 against the bomber's 2; round 2: 1 against 6
    assert destroyed(g) == [lost]


def raid_on_manchuria(**options: object) -> Play:
    g, ids = situation("US", [("Bomber", "US", "China", 1), ("IndustrialComplex", "Japan", "Manchuria", 1),
                              ("AAGun", "Japan", "Manchuria", 1)], **options)
    b = ids["US Bomber China"][0]
    g.act("go", u=b)
    g.choose("Manchuria")
    g.act("raid", b=b)
    g.finish()
    return g


@pytest.mark.parametrize("superfortresses", [True, False])
def test_aa_guns_do_not_fire_at_superfortresses_and_each_rolls_two_damage_dice(superfortresses: bool) -> None:
    g = raid_on_manchuria(superfortresses=superfortresses)
    japan = g.ipc("Japan")
    g.state.load_dice([1, 2])
    g.log = []
    g.act("bomb", where="Manchuria")
    if superfortresses:       # no AA die; damage 1 + 2
        assert rolls(g) == [[1], [2]] and g.ipc("Japan") == japan - 3
    else:                     # the AA die hits the bomber
        assert rolls(g) == [[1]] and destroyed(g) == ["US Bomber"] and g.ipc("Japan") == japan


def test_superfortresses_can_wait_for_heavy_bombers() -> None:
    g = raid_on_manchuria(superfortresses=True, superfortresses_need_heavy_bombers=True)
    g.state.load_dice([1, 2])
    g.log = []
    g.act("bomb", where="Manchuria")
    assert destroyed(g) == ["US Bomber"]


def test_aarhe_keeps_the_superfortresses() -> None:
    g, ids = at_aarhe("US", [("Infantry", "Japan", "China", 1), ("Bomber", "US", "China", 1)],
                      step="purchase", superfortresses=True)
    assert g.proc("defence_values", [g.piece(ids["US Bomber China"][0])]) == [2]
