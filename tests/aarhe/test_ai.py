"""The LHTR heuristic playing AARHE's own decisions: it raises infantry at victory cities,
sends Lend-Lease to the ally in more danger, flies a bombing run where the damage beats the
losses and not into AA that costs more than it takes, declares the sea attacks it sailed to
fight, repairs its ships, and every answer it gives is one the rules offered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clients.odds_players import RulesOdds
from clients.players import RandomPlayer
from engine import flow
from engine.actions import Action, Decision
from rulesets.aarhe.ai import HeuristicPlayer
from tests.aarhe.play import Play, aarhe, at_aarhe, new

SCENARIO = "revised-1942"


def run_step(g: Play, ai: HeuristicPlayer, step: str, power: str | None = None) -> list[Action]:
    """Let the heuristic answer every decision of `step` (any player's, or `power`'s) to its
    end; the actions it took, each checked to be an option."""
    taken = []
    while g.decision is not None and g.step == step and (power is None or g.decision.player == power):
        a = ai.choose(g.rs, g.state, g.decision)
        assert a in g.decision.options, f"{a} is not an option of {g.decision.kind}"
        taken.append(a)
        g.act(a.kind, **dict(a.args))
    return taken


class Strict(HeuristicPlayer):
    """The heuristic that raises rather than fall back on a decision's finish or a random
    option: what it answers here, it answered by its own policy."""

    def fallback(self, decision: Decision) -> Action:
        raise AssertionError(f"the heuristic has no answer of its own to `{decision.kind}`: {decision.prompt}")


def heuristic() -> HeuristicPlayer:
    return Strict(0, debug=True, odds=RulesOdds())      # debug: it raises rather than hides a slip


# -- Lend-Lease -------------------------------------------------------------------------------------
def lend_lease_game(threatened: str, ipc: int, **options: object) -> Play:
    """The US's Lend-Lease in round 1 on a board holding the three Allied capitals' defenders,
    with a German army next to `threatened`'s capital."""
    g = new(**options)
    g.walk_to("US", "lend_lease", turn=1)
    g.clear()
    g.add("Infantry", "UK", "United Kingdom", 2)
    g.add("Infantry", "USSR", "Russia", 2)
    g.add("Infantry", "US", "Eastern United States", 4)
    if threatened == "USSR":
        g.add("Tank", "Germany", "West Russia", 6)
    else:
        g.add("Fighter", "Germany", "Western Europe", 5)
    g.set_ipc("US", ipc)
    g.restart_turn()
    assert g.step == "lend_lease" and g.power == "US"
    return g


def sent(taken: list[Action]) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in taken:
        if a.kind == "send":
            out[a["to"]] = out.get(a["to"], 0) + a["amount"]
    return out


@pytest.mark.parametrize("threatened", ["USSR", "UK"])
def test_the_us_sends_lend_lease_up_to_the_cap_to_the_ally_in_more_danger(threatened: str) -> None:
    g = lend_lease_game(threatened, ipc=40)
    before = {p: g.ipc(p) for p in ("USSR", "UK")}
    taken = run_step(g, heuristic(), "lend_lease", "US")
    cap = g.rs.rules.options["lend_lease_cap"]
    assert sent(taken) == {threatened: cap}
    assert g.ipc(threatened) == before[threatened] + cap        # no German ships: all of it arrives
    assert g.ipc("US") == 40 - cap


def test_lend_lease_follows_the_cap_option_and_what_the_us_has() -> None:
    g = lend_lease_game("USSR", ipc=40, lend_lease_cap=5)
    assert sent(run_step(g, heuristic(), "lend_lease", "US")) == {"USSR": 5}
    poor = lend_lease_game("USSR", ipc=7)
    assert sent(run_step(poor, heuristic(), "lend_lease", "US")) == {"USSR": 7}


def test_the_us_keeps_what_it_needs_to_hold_its_own_capital() -> None:
    g = lend_lease_game("USSR", ipc=14)
    g.clear()
    g.add("Infantry", "UK", "United Kingdom", 2)
    g.add("Infantry", "USSR", "Russia", 2)
    g.add("Fighter", "Japan", "Central United States", 6)        # the US capital itself in danger
    g.restart_turn()
    taken = run_step(g, heuristic(), "lend_lease", "US")
    assert sent(taken) == {} and g.ipc("US") == 14


# -- buying infantry at victory cities ----------------------------------------------------------------
def test_it_raises_cheap_infantry_at_its_threatened_capital() -> None:
    g, _ = at_aarhe("USSR", [("IndustrialComplex", "USSR", "Russia", 1), ("Infantry", "USSR", "Russia", 1),
                             ("Tank", "Germany", "West Russia", 5)], control={"Karelia S.S.R.": "Germany"},
                    step="purchase", ipc=12)
    taken = run_step(g, heuristic(), "purchase", "USSR")
    at_city = [a for a in taken if a.kind == "buy_at_city"]
    assert at_city and all(a["city"] == "Russia" for a in at_city)
    assert g.ipc("USSR") >= 0
    # the rules' own price: the capital's (option infantry_price_capital)
    assert 12 - g.ipc("USSR") == len(at_city) * g.rs.rules.options["infantry_price_capital"]["USSR"] + sum(
        g.proc("price", a["kind"], "USSR") for a in taken if a.kind == "buy")


# -- air missions ---------------------------------------------------------------------------------------
def raid_board(guard_target: bool) -> tuple[Play, int]:
    """The UK's bomber in the United Kingdom; every Axis territory it could bomb has an AA gun
    but Western Europe, which has an industrial complex (and, with `guard_target`, an AA gun
    and two fighters to intercept)."""
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1),
                             ("IndustrialComplex", "Germany", "Western Europe", 1)], step="declare_missions")
    bomber = ids["UK Bomber United Kingdom"][0]
    targets = g.proc("mission_targets", g.piece(bomber), "sbr")
    assert "Western Europe" in targets and len(targets) > 3
    for s in targets:
        if s != "Western Europe":
            g.add("AAGun", g.state.control[s], s)
    if guard_target:
        g.add("AAGun", "Germany", "Western Europe")
        g.add("Fighter", "Germany", "Western Europe", 2)
    g.restart_turn()
    return g, bomber


def test_a_bomber_flies_a_bombing_run_against_an_undefended_factory() -> None:
    g, bomber = raid_board(guard_target=False)
    taken = run_step(g, heuristic(), "declare_missions", "UK")
    flown = [a for a in taken if a.kind == "fly_mission"]
    assert [(a["u"], a["kind"], a["to"]) for a in flown] == [(bomber, "sbr", "Western Europe")]
    assert g.piece(bomber).space == "Western Europe"


def test_no_mission_into_heavy_aa_where_the_expected_loss_exceeds_the_damage() -> None:
    g, bomber = raid_board(guard_target=True)
    taken = run_step(g, heuristic(), "declare_missions", "UK")
    assert not any(a.kind == "fly_mission" for a in taken)
    assert g.piece(bomber).space == "United Kingdom"


def test_a_fighter_flies_counter_air_against_a_lone_bomber() -> None:
    # air combat: a fighter at 2 against a bomber at 1, and a bomber is worth more
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Eastern Europe", 1), ("Bomber", "USSR", "Belorussia", 1),
                                  ("Infantry", "USSR", "Belorussia", 6)], control={"Belorussia": "USSR"},
                      step="declare_missions")
    fighter = ids["Germany Fighter Eastern Europe"][0]
    taken = run_step(g, heuristic(), "declare_missions", "Germany")
    assert [(a["u"], a["kind"], a["to"]) for a in taken if a.kind == "fly_mission"] == [
        (fighter, "counter_air", "Belorussia")]


def test_the_defender_sends_its_fighters_up_against_an_unescorted_bombing_run() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1), ("Fighter", "Germany", "Western Europe", 2)],
                      step="declare_missions")
    g.act("fly_mission", u=ids["UK Bomber United Kingdom"][0], kind="sbr", to="Western Europe")
    if g.decision is not None and g.decision.kind != "choose":
        g.finish()                      # (the step ends by itself once no aircraft is left)
    ai = heuristic()
    answered = []
    while g.decision is not None and g.decision.kind == "choose" and g.decision.player == "Germany":
        a = ai.choose(g.rs, g.state, g.decision)
        assert a in g.decision.options
        answered.append(a["choice"])
        g.act(a.kind, **dict(a.args))
    # one raider: the rules let one fighter up (interceptors_per_raider), and it goes
    assert answered and answered[0] in ids["Germany Fighter Western Europe"]
    assert g.var("defence_role") == {answered[0]: "sbr"}


# -- battle odds under AARHE's rules -----------------------------------------------------------------------
def test_its_battle_odds_count_air_combat_and_aa_dice_per_gun() -> None:
    """AARHE's aircraft fight each other at their air-combat values too, and an AA gun rolls
    for at most so many aircraft: the odds the heuristic attacks by are the rules' own (the
    battle calculator's), so they follow both."""
    from clients import odds as calculator
    from clients.odds_setup import set_up
    from engine import plugins
    from rulesets.aarhe.ai.world import View
    from tests.lhtr.play import situation

    pieces = [("Fighter", "Germany", "Eastern Europe", 2), ("Infantry", "USSR", "Belorussia", 1),
              ("Fighter", "USSR", "Belorussia", 2), ("Infantry", "Germany", "Eastern Europe", 2)]
    odds = {}
    for name, (g, _) in {"lhtr": situation("Germany", pieces, control={"Belorussia": "USSR"}),
                         "aarhe": at_aarhe("Germany", pieces, control={"Belorussia": "USSR"})}.items():
        v = View(g.rs, g.state, "Germany")
        odds[name] = Strict(0, debug=True, odds=RulesOdds(decision_seconds=2.0)).odds(  # (time to be exact)
            v, v.at["Eastern Europe"], "Belorussia")
        want = calculator.odds(set_up(plugins.load(name), "2 ftr, 2 inf", "1 inf, 2 ftr", where="Belorussia"))
        assert odds[name].clear == pytest.approx(want.attacker_wins + want.both_destroyed, abs=1e-9)
        assert odds[name].def_loss == pytest.approx(want.defender_cost_lost, abs=1e-9)
    assert odds["aarhe"].clear != pytest.approx(odds["lhtr"].clear, abs=0.01)
    # four fighters over one AA gun: LHTR rolls four dice, AARHE at most aa_dice_per_gun
    pieces = [("Fighter", "Germany", "Eastern Europe", 4), ("Infantry", "Germany", "Eastern Europe", 1),
              ("AAGun", "USSR", "Belorussia", 1), ("Infantry", "USSR", "Belorussia", 1)]
    loss = {}
    for name, (g, _) in {"lhtr": situation("Germany", pieces, control={"Belorussia": "USSR"}),
                         "aarhe": at_aarhe("Germany", pieces, control={"Belorussia": "USSR"}, aa_dice_per_gun=1)}.items():
        v = View(g.rs, g.state, "Germany")
        loss[name] = heuristic().odds(v, v.at["Eastern Europe"], "Belorussia").att_loss
    assert loss["aarhe"] < loss["lhtr"]


# -- sea attacks and naval repair ------------------------------------------------------------------------
@pytest.mark.parametrize("ships, attacks", [(4, True), (1, False)])
def test_it_declares_a_sea_attack_only_at_good_odds(ships: int, attacks: bool) -> None:
    g, _ = at_aarhe("UK", [("Destroyer", "UK", "SZ 7", ships), ("Destroyer", "Germany", "SZ 7", 2)],
                    step="declare_sea_attacks")
    taken = run_step(g, heuristic(), "declare_sea_attacks", "UK")
    assert any(a.kind == "attack" and a["z"] == "SZ 7" for a in taken) == attacks


def test_it_repairs_a_damaged_battleship_next_to_its_factory() -> None:
    g, _ = at_aarhe("UK", [("IndustrialComplex", "UK", "United Kingdom", 1)], step="purchase", ipc=30)
    ship = g.add("Battleship", "UK", "SZ 7", hits=1)[0]
    g.walk_to("UK", "naval_repair", turn=2)
    ipc = g.ipc("UK")
    taken = run_step(g, heuristic(), "naval_repair", "UK")
    assert [(a.kind, a["u"]) for a in taken if a.kind != "finish"] == [("repair_ship", ship)]
    assert ipc - 6 <= g.ipc("UK") < ipc
    assert g.piece(ship).space == "United Kingdom"


# -- every answer legal ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_every_decision_it_answers_in_aarhe_is_an_option(seed: int) -> None:
    """Two rounds with the heuristic (debug) for every power, then for one side against the
    random player: each answer is one the rules offered, and it takes AARHE's decisions."""
    rs = aarhe()
    for sides in (("Axis", "Allies"), ("Axis",) if seed == 1 else ("Allies",)):
        ai = HeuristicPlayer(seed, debug=True, odds=RulesOdds())
        rnd = RandomPlayer(seed)
        state = rs.logic.new_state(SCENARIO, seed)
        d = flow.start(rs, state)
        moves: set[str] = set()
        while d is not None and state.turn <= 2:
            mine = rs.logic.side_of(d.player) in sides
            a = (ai if mine else rnd).choose(rs, state, d)
            assert a in d.options, f"{a} is not an option of {d.kind}"
            if mine:
                moves.add(a.kind)
            state, d = flow.apply(rs, state, a)
        if sides == ("Axis", "Allies"):
            assert {"buy_at_city", "send", "attack"} <= moves


# -- against the random player ----------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]


def benchmark(*args: str) -> dict:
    done = subprocess.run([sys.executable, "benchmarks/ai_vs_random.py", "aarhe", *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_benchmark_counts_the_aarhe_decisions_the_heuristic_took() -> None:
    figures = benchmark("--games", "1", "--side", "Allies", "--max-turns", "1")
    taken = figures["taken"]
    assert taken["lend_lease"]["send"]["games"] == 1                    # the US sent Lend-Lease
    assert taken["purchase"]["buy_at_city"]["times"] > 0
    assert set(taken["declare_missions"]) <= {"fly_mission", "finish"}


@pytest.mark.slow
@pytest.mark.parametrize("side", ["Axis", "Allies"])
def test_the_heuristic_wins_nine_aarhe_games_in_ten_against_random(side: str) -> None:
    figures = benchmark("--games", "100", "--side", side)
    assert figures["games"] == 100 and figures["win_rate"] >= 0.9, figures


@pytest.mark.parametrize("side", ["Axis", "Allies"])
def test_its_aircraft_land_after_missions_and_battles_in_aarhe(side: str) -> None:
    from tests.lhtr.test_ai import play_rounds

    state, fought = play_rounds(side, seed=3, rounds=3, ruleset=aarhe())    # checks every landing
    assert fought > 0


# -- retreating aircraft ----------------------------------------------------------------------------
def test_its_retreating_aircraft_fly_to_the_nearest_landing_place() -> None:
    from tests.lhtr.play import asked, fight, step

    # a tank and a fighter against three infantry: when everybody misses, the odds are
    # against it, and it retreats; the fighter is asked where it flies (RULES.md A.5 step 6)
    g, ids = at_aarhe("Germany", [("Tank", "Germany", "Ukraine S.S.R.", 1), ("Fighter", "Germany", "Eastern Europe", 1),
                                  ("Infantry", "USSR", "West Russia", 4)], control={"West Russia": "USSR"})
    tank, fighter = ids["Germany Tank Ukraine S.S.R."][0], ids["Germany Fighter Eastern Europe"][0]
    step(g, tank, "West Russia")
    step(g, fighter, "Belorussia")
    step(g, fighter, "West Russia")
    g.walk_to("Germany", "conduct_combat")
    fight(g, "West Russia", [6] * 6)                # everybody misses
    ai = heuristic()
    flights = []
    while g.decision is not None and g.decision.kind == "choose":
        player, prompt, labels = asked(g)
        a = ai.choose(g.rs, g.state, g.decision)
        assert a in g.decision.options
        if "retreating" in prompt:
            flights.append((prompt, labels, a.label))
        g.act(a.kind, **dict(a.args))
    assert [(p, chosen) for p, _, chosen in flights] == \
        [("where do the 1 retreating Fighter from West Russia fly?", "Belorussia (1 away)")]
    assert flights[0][1][0] == "Belorussia (1 away)"          # the rules' first option, nearest
    assert g.piece(fighter).space == "Belorussia" and g.piece(tank).space == "Ukraine S.S.R."


# -- what the rules' options make of a decision ---------------------------------------------------------
@pytest.mark.parametrize(("share", "mean"), [(50, 1.5), (100, 3.5), (0, 0.0)])
def test_night_bombing_is_valued_at_the_rules_share_of_the_die(share: int, mean: float) -> None:
    """A night bomber takes `night_bombing_share` per cent of its die (rounded down): the
    heuristic values it by the rules' `night_raid_damage`, not a half of its own."""
    from rulesets.aarhe.ai import layers
    from rulesets.aarhe.ai.world import View

    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1),
                             ("IndustrialComplex", "Germany", "Western Europe", 1)], step="declare_missions",
                      night_bombing_share=share)
    bomber = g.piece(ids["UK Bomber United Kingdom"][0])
    v = View(g.rs, g.state, "UK")
    assert layers.mean_of(v, "night_raid_damage", bomber, {}) == pytest.approx(mean, abs=0.3)
    # no AA, no interceptor over Western Europe: the whole value is the damage
    assert layers.bombing_value(v, bomber, "night", "Western Europe", {}) == pytest.approx(mean, abs=0.3)


@pytest.mark.parametrize("upkeep", [1, 3, 0])
def test_units_are_kept_out_of_deserts_by_the_rules_upkeep(upkeep: int) -> None:
    """Standing in a desert costs `desert_upkeep` IPCs a turn (the rules' `upkeep_at`): the
    heuristic adds it to where it places and parks its land units."""
    from rulesets.aarhe.ai import layers
    from rulesets.aarhe.ai.world import View

    g = new(desert_upkeep=upkeep)
    v = View(g.rs, g.state, "UK")
    deserts = {"Libya", "Algeria", "Anglo Egypt", "Trans-Jordan", "Persia", "Sinkiang"}
    assert layers.upkeep_map(v, {}) == ({s: float(upkeep) for s in deserts} if upkeep else {})
    ai = HeuristicPlayer(0, odds=RulesOdds())
    plain = ai._place_score(v, "Trans-Jordan", {}, {})
    assert ai._place_score(v, "Trans-Jordan", {}, {}, layers.upkeep_map(v, {})) == plain + upkeep
    assert ai._place_score(v, "India", {}, {}, layers.upkeep_map(v, {})) == ai._place_score(v, "India", {}, {})


@pytest.mark.parametrize(("kind", "options", "relief"), [
    ("Destroyer", {}, 1), ("Destroyer", {"uk_convoy_ipcs": 3}, 3), ("Transport", {}, 0)])
def test_a_german_warship_in_a_convoy_zone_is_worth_what_it_costs_the_uk(kind: str, options: dict[str, int],
                                                                          relief: int) -> None:
    """The rules' income with and without the enemy ships in a zone: a German warship in sea
    zone 7 costs the UK `uk_convoy_ipcs` a turn, a transport nothing; sinking it is worth that."""
    from rulesets.aarhe.ai import layers
    from rulesets.aarhe.ai.world import View

    g = new(**options)
    zone = g.proc("zones_numbered", [7])[0]
    g.add(kind, "Germany", zone)
    assert layers.convoy_relief(View(g.rs, g.state, "UK"), zone) == relief
    assert layers.convoy_relief(View(g.rs, g.state, "Germany"), zone) == 0


def test_a_bombers_mean_damage_is_its_own_games() -> None:
    """What a raid takes on average is worked out once a turn, and kept by the game's player:
    a game played before in the same process (a simulation's worker plays one after
    another), whose bombers had Heavy Bombers at the same turn, does not lend it its mean."""
    from rulesets.aarhe.ai import layers
    from rulesets.aarhe.ai.world import View

    means = []
    for techs in (("UK/Heavy Bombers",), ()):
        g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1),
                                 ("IndustrialComplex", "Germany", "Western Europe", 1)], step="declare_missions")
        g.state.vars["techs"] = techs
        ai = HeuristicPlayer(0, odds=RulesOdds())
        bomber = g.piece(ids["UK Bomber United Kingdom"][0])
        means.append(layers.bombing_value(View(g.rs, g.state, "UK"), bomber, "sbr", "Western Europe", ai._means))
    heavy, plain = means
    assert plain == pytest.approx(3.5, abs=0.3) and heavy > plain + 1.0
