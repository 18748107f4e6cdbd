"""Japan's National Advantages of Revised (rulesets/aarhe/lhtr/advantages_japan.rules), each an
option, played through the rules: Banzai Attack (infantry attack one higher in a battle's first
round), Long Lance Torpedoes (submarines attack one higher in a battle's first round) and
Kamikaze Attacks (six a game, at enemy ships sailing to within 2 sea zones of Japan) and
the Tokyo Express (destroyers carry one infantry and bombard at 2)."""

from __future__ import annotations

import pytest

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import Play, destroyed, fight, rolls, situation, step


@pytest.mark.parametrize(("banzai", "lost"), [(True, "US Infantry"), (False, "Japan Infantry")])
def test_banzai_japanese_infantry_attack_on_two_in_the_first_round(banzai: bool, lost: str) -> None:
    g, _ = situation("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "US", "China", 1)],
                     step="conduct_combat", banzai_attack=banzai)
    # round 1: the attacker rolls 2, the defender 6; round 2 (if any): 6 against 1
    fight(g, "China", [2, 6, 6, 1])
    assert destroyed(g) == [lost]


def test_the_banzai_is_for_the_first_round_only() -> None:
    g, _ = situation("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "US", "China", 1)],
                     step="conduct_combat", banzai_attack=True)
    fight(g, "China", [6, 6, 2, 1])          # round 2: the 2 misses, the defender's 1 hits
    assert destroyed(g) == ["Japan Infantry"]


def test_aarhe_keeps_the_banzai() -> None:
    g, _ = at_aarhe("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "US", "China", 1)],
                    step="conduct_combat", banzai_attack=True)
    fight(g, "China", [2, 6, 6, 1])
    assert destroyed(g) == ["US Infantry"]


@pytest.mark.parametrize(("long_lance", "lost"), [(True, "US Transport"), (False, "Japan Submarine")])
def test_long_lance_japanese_submarines_attack_on_three_in_the_first_round(long_lance: bool, lost: str) -> None:
    g, _ = situation("Japan", [("Submarine", "Japan", "SZ 61", 1), ("Transport", "US", "SZ 61", 1)],
                     step="conduct_combat", long_lance=long_lance)
    # the submarine's first strike rolls 3; if the transport is left, it rolls 1
    fight(g, "SZ 61", [3, 1])
    assert destroyed(g) == [lost]
    assert rolls(g)[0] == [3]


def test_long_lance_is_japans_alone() -> None:
    g, _ = situation("Germany", [("Submarine", "Germany", "SZ 7", 1), ("Transport", "UK", "SZ 7", 1)],
                     step="conduct_combat", long_lance=True)
    fight(g, "SZ 7", [3, 1])
    assert destroyed(g) == ["Germany Submarine"]


def us_fleet_sails_for_japan(**options: object) -> tuple[Play, dict[str, list[int]]]:
    """Round 1: a US destroyer and battleship sail from SZ 61 to SZ 60, next to Japan, to attack
    a Japanese transport; the US's combat move is over."""
    g, ids = situation("US", [("Destroyer", "US", "SZ 61", 1), ("Battleship", "US", "SZ 61", 1),
                              ("Transport", "Japan", "SZ 60", 1)], **options)
    for kind in ("Destroyer", "Battleship"):
        step(g, ids[f"US {kind} SZ 61"][0], "SZ 60")
    g.finish()
    return g, ids


@pytest.mark.parametrize("on", [True, False])
def test_kamikazes_come_only_with_the_option(on: bool) -> None:
    g, _ = us_fleet_sails_for_japan(kamikaze_attacks=on)
    assert g.step == ("kamikaze_attack" if on else "conduct_combat")


def test_kamikazes_strike_the_ships_named_before_the_battle() -> None:
    g, ids = us_fleet_sails_for_japan(kamikaze_attacks=True)
    assert g.decision is not None and g.decision.player == "Japan"
    dd, bb = ids["US Destroyer SZ 61"][0], ids["US Battleship SZ 61"][0]
    g.act("kamikaze", u=dd)
    g.act("kamikaze", u=bb)
    g.act("kamikaze", u=bb)
    g.state.load_dice([2, 1, 5])     # the destroyer's 2 hits; the battleship's 1 hits, its 5 misses
    g.log = []
    g.finish()
    assert rolls(g) == [[2], [1, 5]]
    assert destroyed(g) == ["US Destroyer"]
    assert g.piece(bb) is not None and g.piece(bb).hits == 1
    assert g.var("kamikazes_used") == 3
    assert g.step == "conduct_combat"


def test_six_kamikazes_a_game() -> None:
    g, ids = us_fleet_sails_for_japan(kamikaze_attacks=True, kamikaze_count=1)
    g.state.load_dice([6])
    g.act("kamikaze", u=ids["US Destroyer SZ 61"][0])
    # the last one named, nothing is left to name: it is launched (and misses)
    assert g.step == "conduct_combat" and g.var("kamikazes_used") == 1
    assert not any(e[0] == "destroyed" for e in g.events)


def test_ships_far_from_japan_are_out_of_reach() -> None:
    g, _ = situation("US", [("Destroyer", "US", "SZ 55", 1), ("Transport", "Japan", "SZ 54", 1)],
                     kamikaze_attacks=True)
    g.act("go", u=g.at("SZ 55", "US", "Destroyer")[0].id)
    if g.decision is not None and g.decision.kind == "choose":
        g.choose("SZ 54")
    g.finish()
    assert g.step == "conduct_combat"


BURYATIA = "Buryatia S.S.R."


def tokyo_express_run(**options: object) -> tuple[Play, dict[str, list[int]]]:
    """Round 1, Japan's combat move: a Japanese destroyer in SZ 60, two infantry and an
    artillery in Japan, a Soviet infantry in Buryatia across the zone."""
    return situation("Japan", [("Destroyer", "Japan", "SZ 60", 1), ("Infantry", "Japan", "Japan", 2),
                               ("Artillery", "Japan", "Japan", 1), ("Infantry", "USSR", BURYATIA, 1)], **options)


def test_tokyo_express_a_destroyer_lands_an_infantry_and_bombards_at_two() -> None:
    g, ids = tokyo_express_run(tokyo_express=True)
    inf, dd = ids["Japan Infantry Japan"][0], ids["Japan Destroyer SZ 60"][0]
    step(g, inf, "SZ 60")
    assert g.piece(inf).carrier == dd
    g.act("land", t=dd)                   # Buryatia is the one territory to assault
    g.finish()
    fight(g, BURYATIA, [2, 6])           # the destroyer bombards at 2: a hit
    assert rolls(g)[0] == [2] and destroyed(g) == ["USSR Infantry"]
    assert g.state.control[BURYATIA] == "Japan" and g.piece(inf).space == BURYATIA


def test_tokyo_express_room_for_one_infantry_only() -> None:
    g, ids = tokyo_express_run(tokyo_express=True)
    first, second = ids["Japan Infantry Japan"]
    step(g, first, "SZ 60")
    assert g.why_not("go", u=second) == "the Infantry in Japan has nowhere to go"
    assert g.why_not("go", u=ids["Japan Artillery Japan"][0]) == "the Artillery in Japan has nowhere to go"


def test_without_the_tokyo_express_a_destroyer_carries_nothing() -> None:
    g, ids = tokyo_express_run()
    assert g.why_not("go", u=ids["Japan Infantry Japan"][0]) == "the Infantry in Japan has nowhere to go"
