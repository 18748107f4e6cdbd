"""National Advantages of Revised, each an option (rulesets/aarhe/lhtr/advantages.rules):
Radar (UK AA guns hit aircraft on 2), Chinese Divisions (a free US infantry each turn in
China, Sinkiang or Kwantung) and the Nonaggression Treaty (four free Soviet infantry meet
Japan's first attack on a red territory), played through the rules, in LHTR and in AARHE over it;
and random games with every advantage on, Enigma Decoded, Joint Strike and those of the USSR,
Japan and the US too (their own tests: test_advantages_uk.py, test_advantages_joint_strike.py,
test_advantages_ussr.py, test_advantages_japan.py, test_advantages_us.py)."""

from __future__ import annotations

import pytest

from clients.odds_players import RulesOdds
from rulesets.aarhe.ai import HeuristicPlayer
from rulesets.aarhe.ai.world import View
from tests.aarhe.play import aarhe, at_aarhe
from tests.aarhe.play import new as new_aarhe
from tests.lhtr.play import Play, destroyed, fight, load, rolls, situation
from tests.lhtr.soak import play

RAID_ON_LONDON = [("Fighter", "Germany", "United Kingdom", 2), ("AAGun", "UK", "United Kingdom", 1),
                  ("Infantry", "UK", "United Kingdom", 1)]


@pytest.mark.parametrize(("radar", "lost"), [(True, ["Germany Fighter"]), (False, [])])
def test_radar_uk_aa_guns_hit_on_two(radar: bool, lost: list[str]) -> None:
    g, _ = situation("Germany", RAID_ON_LONDON, step="conduct_combat", radar=radar)
    # AA: one die per fighter, 2 and 3: with Radar the 2 hits. Then the fighters left miss (6)
    # and the infantry misses (6)
    fight(g, "United Kingdom", [2, 3, 6, 6, 6, 6])
    assert rolls(g)[0] == [2, 3]
    assert [d for d in destroyed(g) if d.startswith("Germany")] == lost


def test_radar_is_the_uks_alone() -> None:
    g, _ = situation("Germany", [("Fighter", "Germany", "Russia", 2), ("AAGun", "USSR", "Russia", 1),
                                 ("Infantry", "USSR", "Russia", 1)], step="conduct_combat", radar=True)
    fight(g, "Russia", [2, 3, 6, 6, 6])
    assert not any(d.startswith("Germany") for d in destroyed(g))


def test_aarhe_guns_have_radar_too() -> None:
    g, _ = at_aarhe("Germany", RAID_ON_LONDON, step="conduct_combat", radar=True)
    fight(g, "United Kingdom", [2, 3, 6, 6, 6, 6])
    assert rolls(g)[0] == [2, 3]
    assert "Germany Fighter" in destroyed(g)


def test_chinese_divisions_a_free_us_infantry_each_turn() -> None:
    g = Play.new(chinese_divisions=True)
    g.walk_to("US", "chinese_division", turn=1)
    assert sorted(a["to"] for a in g.options("place_division")) == ["China", "Sinkiang"]   # Kwantung is Japan's
    assert g.why_not("place_division", to="Kwantung") == "the US does not hold Kwantung"
    before = g.kinds_at("China", "US").get("Infantry", 0)
    ipcs = g.ipc("US")
    g.act("place_division", to="China")
    assert g.kinds_at("China", "US")["Infantry"] == before + 1
    # one a turn: the phase is over, and the US has collected its income, paying nothing
    assert g.step != "chinese_division"
    assert g.ipc("US") == ipcs + g.proc("income", "US")


@pytest.mark.parametrize("on", [True, False])
def test_the_chinese_divisions_come_only_with_the_option(on: bool) -> None:
    g = Play.new(chinese_divisions=on)
    while g.state.turn == 1:
        g.finish()
    steps = [e[1]["step"] for e in g.log if e[0] == "step_start"]
    assert ("chinese_division" in steps) is on and "collect_income" in steps


def test_aarhe_keeps_the_chinese_divisions() -> None:
    g = new_aarhe(chinese_divisions=True)
    g.walk_to("US", "chinese_division", turn=1)
    assert "China" in {a["to"] for a in g.options("place_division")}


BURYATIA, YAKUT = "Buryatia S.S.R.", "Yakut S.S.R."


def japan_attacks(*spaces: str, **options: object) -> Play:
    """Japan's conduct combat in round 1: a Japanese infantry attacks a Soviet infantry in each of `spaces`."""
    pieces = [p for s in spaces for p in (("Infantry", "Japan", s, 1), ("Infantry", "USSR", s, 1))]
    g, _ = situation("Japan", pieces, step="conduct_combat", **options)
    return g


@pytest.mark.parametrize(("treaty", "soviets"), [(True, 1 + 4), (False, 1)])
def test_nonaggression_treaty_four_soviet_infantry_meet_japans_first_attack(treaty: bool, soviets: int) -> None:
    g = japan_attacks(BURYATIA, nonaggression_treaty=treaty)
    fight(g, BURYATIA, [6, 1, 1, 1, 1, 1])     # the attacker misses and the defenders' first die hits it
    assert g.kinds_at(BURYATIA, "USSR") == {"Infantry": soviets}


def test_the_treaty_is_once_a_game_and_costs_the_ussr_nothing() -> None:
    g = japan_attacks(BURYATIA, YAKUT, nonaggression_treaty=True)
    ipcs = g.ipc("USSR")
    fight(g, YAKUT, [6, 1, 1, 1, 1, 1])
    fight(g, BURYATIA, [6, 1])
    assert g.kinds_at(YAKUT, "USSR") == {"Infantry": 5}      # the first battle Japan fights in a red territory
    assert g.kinds_at(BURYATIA, "USSR") == {"Infantry": 1}
    assert g.ipc("USSR") == ipcs and g.var("treaty_over") is True


def test_a_territory_that_is_not_red_brings_no_treaty_infantry() -> None:
    g, _ = situation("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "USSR", "China", 1)],
                     control={"China": "USSR"}, step="conduct_combat", nonaggression_treaty=True)
    fight(g, "China", [6, 1])
    assert g.kinds_at("China", "USSR") == {"Infantry": 1} and g.var("treaty_over") is False


def test_the_ussr_attacking_japan_first_loses_the_treaty() -> None:
    g, _ = situation("USSR", [("Infantry", "USSR", "Manchuria", 1), ("Infantry", "Japan", "Manchuria", 1)],
                     step="conduct_combat", nonaggression_treaty=True)
    fight(g, "Manchuria", [6, 1])
    assert g.var("treaty_over") is True
    assert any("Nonaggression Treaty is lost" in e[1]["message"] for e in g.log if e[0] == "note")


def test_aarhe_keeps_the_nonaggression_treaty() -> None:
    g, _ = at_aarhe("Japan", [("Infantry", "Japan", BURYATIA, 1), ("Infantry", "USSR", BURYATIA, 1)],
                    step="conduct_combat", nonaggression_treaty=True)
    fight(g, BURYATIA, [6, 1, 1, 1, 1, 1])
    assert g.kinds_at(BURYATIA, "USSR").get("Infantry") == 5


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
def test_random_games_with_every_advantage_keep_every_invariant(ruleset: str) -> None:
    options = {"radar": True, "chinese_divisions": True, "nonaggression_treaty": True, "enigma_decoded": True,
               "joint_strike": True, "russian_winter": True, "mobile_industry": True, "banzai_attack": True,
               "long_lance": True, "marines": True, "superfortresses": True, "kamikaze_attacks": True,
               "tokyo_express": True,
               "last_round": 2}
    rs = load(**options) if ruleset == "lhtr" else aarhe(**options)
    placed = decoded = struck = wintered = moved = False
    for seed in (7, 8, 9):  # a game in which the US keeps a place for its division plays one
        game, _ = play(rs, seed, bold=True)
        assert game.result is not None
        placed = placed or any(a.kind == "place_division" for a in game.actions)
        decoded = decoded or any(a.kind == "enigma" for a in game.actions)
        struck = struck or any(a.kind == "declare_joint_strike" for a in game.actions)
        wintered = wintered or any(a.kind == "declare_winter" for a in game.actions)
        moved = moved or any(a.kind == "move_industry" for a in game.actions)
    assert placed and decoded and struck and wintered and moved


def test_the_heuristic_weighs_radar() -> None:
    losses = {}
    for radar in (True, False):
        g, _ = situation("Germany", RAID_ON_LONDON, step="conduct_combat", radar=radar)
        v = View(g.rs, g.state, "Germany")
        losses[radar] = HeuristicPlayer(odds=RulesOdds()).odds(v, g.at("United Kingdom", "Germany"), "United Kingdom").att_loss
    assert losses[True] > losses[False]


def test_the_heuristic_takes_its_free_infantry() -> None:
    g = Play.new(chinese_divisions=True)
    g.walk_to("US", "chinese_division", turn=1)
    action = HeuristicPlayer(1, debug=True, odds=RulesOdds()).choose(g.rs, g.state, g.decision)
    assert action.kind == "place_division" and action["to"] in ("China", "Sinkiang")
