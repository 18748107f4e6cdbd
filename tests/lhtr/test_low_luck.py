"""Low Luck (option `low_luck`, TripleA's reading): a group of units firing together scores one
sure hit for each 6 of its total strength and rolls one die for the rest. Each firing group is
its own total: shore bombardment, a submarine's first strike, each side's general fire, AA
fire. Played with fixed dice through the rules' own combat, in LHTR and in AARHE over it."""

from __future__ import annotations

import json

import pytest

from tests.aarhe.play import aarhe, at_aarhe
from tests.lhtr.play import destroyed, fight, load, rolls, situation
from tests.lhtr.soak import play


def test_a_total_of_eight_is_one_sure_hit_and_one_die_at_two() -> None:
    # 2 infantry (each lifted to 2 by an artillery) and 2 artillery: 2+2+2+2 = 8
    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 2), ("Artillery", "Germany", "Caucasus", 2),
                                 ("Infantry", "USSR", "Caucasus", 2)], step="conduct_combat", low_luck=True)
    # the one die for the remaining 2 shows 2: a hit, 2 hits in all. The defence, 2 infantry at
    # 2 (a total of 4), rolls one die at 4: 6 misses
    fight(g, "Caucasus", [2, 6])
    assert rolls(g) == [[2], [6]]
    assert destroyed(g) == ["USSR Infantry", "USSR Infantry"]
    assert g.state.control["Caucasus"] == "Germany"


def test_the_die_for_the_rest_misses_above_it() -> None:
    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 2), ("Artillery", "Germany", "Caucasus", 2),
                                 ("Infantry", "USSR", "Caucasus", 2)], step="conduct_combat", low_luck=True)
    # attack 8: one sure hit, the die at 2 shows 3 (a miss); the defence's die at 4 shows 5
    # round 2 (no retreat is offered: the attackers came from nowhere): attack 8 again (1 sure
    # hit, the die shows 6); the infantry left (2) shows 6
    fight(g, "Caucasus", [3, 5, 6, 6])
    assert rolls(g) == [[3], [5], [6], [6]]
    assert destroyed(g) == ["USSR Infantry", "USSR Infantry"]
    assert g.state.control["Caucasus"] == "Germany"


def test_a_total_of_six_needs_no_die() -> None:
    # 3 infantry and 1 artillery: 2+1+1+2 = 6, exactly one hit and no die; the defender's
    # infantry (2) rolls its one die
    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 3), ("Artillery", "Germany", "Caucasus", 1),
                                 ("Infantry", "USSR", "Caucasus", 1)], step="conduct_combat", low_luck=True)
    fight(g, "Caucasus", [6])
    assert rolls(g) == [[6]]
    assert destroyed(g) == ["USSR Infantry"]


def test_without_low_luck_every_unit_rolls() -> None:
    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 3), ("Artillery", "Germany", "Caucasus", 1),
                                 ("Infantry", "USSR", "Caucasus", 2)], step="conduct_combat")
    fight(g, "Caucasus", [6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1])
    assert rolls(g)[:2] == [[6, 6], [6, 6]]     # infantry at 1, then the 2s; the defence next


def test_aa_fire_is_low_luck_too() -> None:
    # 4 attacking fighters against one AA gun hitting on 1: a total of 4, one die at 4
    g, _ = situation("Germany", [("Fighter", "Germany", "Russia", 4), ("AAGun", "USSR", "Russia", 1),
                                 ("Infantry", "USSR", "Russia", 1)], step="conduct_combat", low_luck=True)
    fight(g, "Russia", [4, 6, 6])
    assert rolls(g)[0] == [4]
    assert destroyed(g)[0] == "Germany Fighter"


def test_low_luck_for_aa_alone_leaves_the_battle_dice() -> None:
    g, _ = situation("Germany", [("Fighter", "Germany", "Russia", 4), ("AAGun", "USSR", "Russia", 1),
                                 ("Infantry", "USSR", "Russia", 1)], step="conduct_combat", low_luck_aa=True)
    # AA: one die at 4 shows 5 (no hit); then the 4 fighters roll 4 dice at 3, the infantry 1
    fight(g, "Russia", [5, 6, 6, 6, 1, 6])
    assert rolls(g) == [[5], [6, 6, 6, 1], [6]]
    assert destroyed(g) == ["USSR Infantry"]


def test_shore_bombardment_is_its_own_group() -> None:
    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 1), ("Infantry", "Germany", "Germany", 1),
                                   ("Battleship", "Germany", "SZ 5", 2), ("Infantry", "USSR", "Karelia S.S.R.", 2)],
                       low_luck=True)
    inf = ids["Germany Infantry Germany"][0]
    tp = ids["Germany Transport SZ 5"][0]
    g.act("go", u=inf)
    g.choose("SZ 5")
    g.act("land", t=tp)
    g.finish()
    # two battleships bombard at 4: a total of 8, one sure hit and a die at 2, which shows 2.
    # Both defenders are gone before they fire; the landing infantry (1) is a group of its own
    # (with the bombardment's 8 it would have been 9: a die at 3)
    fight(g, "Karelia S.S.R.", [2, 6])
    assert rolls(g)[0] == [2]
    assert destroyed(g) == ["USSR Infantry", "USSR Infantry"]
    assert g.state.control["Karelia S.S.R."] == "Germany"


def test_aarhe_inherits_low_luck() -> None:
    # AARHE over LHTR: the same option, the same combat rules. One gun rolls its 3 AA dice as a
    # total of 3; 2 infantry and 2 artillery attack with 8 as in LHTR
    g, _ = at_aarhe("Germany", [("Infantry", "Germany", "Caucasus", 2), ("Artillery", "Germany", "Caucasus", 2),
                                ("Infantry", "USSR", "Caucasus", 1)], step="conduct_combat", low_luck=True)
    fight(g, "Caucasus", [3, 5])
    assert rolls(g) == [[3], [5]]
    assert destroyed(g) == ["USSR Infantry"]


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
@pytest.mark.parametrize("option", ["low_luck", "low_luck_aa", "low_luck_bombing"])
def test_random_games_under_low_luck_keep_every_invariant(ruleset: str, option: str) -> None:
    options = {option: True, "last_round": 2}
    rs = load(**options) if ruleset == "lhtr" else aarhe(**options)
    game, _ = play(rs, 8, bold=True)
    assert game.result is not None
    assert any(a.kind == "fight" for a in game.actions)


def raid_on_russia(**options: object) -> tuple[object, int]:
    g, ids = situation("Germany", [("Bomber", "Germany", "West Russia", 2), ("IndustrialComplex", "USSR", "Russia", 1),
                                   ("AAGun", "USSR", "Russia", 1)], **options)
    for b in ids["Germany Bomber West Russia"]:
        g.act("go", u=b)
        g.choose("Russia")
        g.act("raid", b=b)
    g.finish()
    return g, g.ipc("USSR")


def test_low_luck_bombing_damage_is_two_plus_a_two_sided_die() -> None:
    g, ussr = raid_on_russia(low_luck_bombing=True)
    g.state.load_dice([3, 2, 1, 2])            # AA misses both; the bombers roll 1 and 2 on two-sided dice
    g.log = []
    g.act("bomb", where="Russia")
    assert rolls(g) == [[3, 2], [1], [2]]
    assert g.ipc("USSR") == ussr - (3 + 4)


def test_low_luck_keeps_the_bombing_dice() -> None:
    # `low_luck` alone (TripleA: only its "Low Luck for Bombing" switch changes bombing), with
    # the AA fire under Low Luck: 2 bombers at 1, a total of 2, one die at 2 showing 3
    g, ussr = raid_on_russia(low_luck=True)
    g.state.load_dice([3, 1, 5])
    g.log = []
    g.act("bomb", where="Russia")
    assert rolls(g) == [[3], [1], [5]]
    assert g.ipc("USSR") == ussr - 6


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
def test_the_battle_calculator_follows_low_luck(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`wargame odds` fights through the rules, so the option reaches it: six infantry attacking
    at 1 are a total of 6, one sure hit, and the lone defender falls in the first round; with
    ordinary dice all six can miss."""
    from clients.cli import main

    def odds(low_luck: bool) -> dict[str, float]:
        assert main(["odds", ruleset, "--attacker", "6 infantry", "--defender", "1 infantry",
                     "--option", f"low_luck={str(low_luck).lower()}", "--json"]) == 0
        answer: dict[str, float] = json.loads(capsys.readouterr().out)
        return answer

    low, dice = odds(True), odds(False)
    assert low["attacker_wins"] == 1.0 and low["rounds"] == 1.0
    assert low["attacker_losses"] == pytest.approx(1 / 3)        # the defender's own die, at 2
    assert dice["attacker_wins"] < 1.0 and dice["rounds"] > 1.0
