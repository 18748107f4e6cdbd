"""The heuristic LHTR computer player: it plays whole rounds for either side without a slip,
lands its aircraft, buys within its means, attacks only at good odds, holds its capital, and
keeps answering decisions it does not know. It is offered for lhtr and every ruleset over it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clients import cli, seats
from clients.odds_players import RulesOdds
from clients.players import RandomPlayer
from engine import flow, plugins
from engine.actions import Action, Decision
from rulesets.aarhe.ai import HeuristicPlayer
from tests.lhtr.play import LHTR, ROOT, SCENARIO, Play, load, load_layer, situation

HOUSE = Path(__file__).parent / "house"


def planes(state, power: str) -> list[int]:
    return sorted(p.id for p in state.pieces.values()
                  if p.owner == power and "air" in state.rules.units[p.kind].tags and ":" not in p.space)


def play_rounds(side: str, seed: int, rounds: int, ruleset=None) -> tuple[object, int]:
    """A game with the heuristic (debug: it raises rather than falls back) on `side` and the
    random player on the other. Checks that no aircraft of the heuristic's side is lost for
    want of a landing place. Returns the state and the number of battles it fought."""
    rs = ruleset or load()
    ai = HeuristicPlayer(seed, debug=True, odds=RulesOdds())
    rnd = RandomPlayer(seed)
    state = rs.logic.new_state(SCENARIO, seed)
    d = flow.start(rs, state)
    fought = 0
    while d is not None and state.turn <= rounds:
        mine = rs.logic.side_of(d.player) == side
        action = (ai if mine else rnd).choose(rs, state, d)
        assert action in d.options
        landing = mine and d.kind == "noncombat_move" and action == d.finish
        before = planes(state, d.player) if landing else []
        fought += mine and action.kind == "fight"
        power = d.player
        state, d = flow.apply(rs, state, action)
        if landing:
            assert planes(state, power) == before, f"{power} lost aircraft that had nowhere to land"
    return state, fought


@pytest.mark.parametrize("side", ["Axis", "Allies"])
def test_the_heuristic_plays_two_rounds_for_either_side_and_lands_its_aircraft(side: str) -> None:
    state, fought = play_rounds(side, seed=5, rounds=2)
    assert fought > 0
    assert state.turn > 2 or state.result is not None


def test_it_buys_within_its_ipcs_and_what_its_factories_can_place() -> None:
    g, _ = situation("Germany", [("IndustrialComplex", "Germany", "Germany", 1)], step="purchase", ipc=13)
    ai = HeuristicPlayer(0, debug=True, odds=RulesOdds())
    run_step(g, ai, "purchase", "Germany")
    bought = g.at("pending:Germany")
    assert bought and g.ipc("Germany") >= 0
    cost = sum(g.rs.rules.units[p.kind].cost for p in bought)
    assert 13 - 3 < cost <= 13                       # it spends what it can
    g2, _ = situation("Germany", [("IndustrialComplex", "Germany", "Norway", 1)], step="purchase", ipc=60)
    run_step(g2, HeuristicPlayer(0, debug=True, odds=RulesOdds()), "purchase", "Germany")
    assert len(g2.at("pending:Germany")) == g2.proc("placement_limit", "Norway")     # its IPC value: 3


def run_step(g: Play, ai: HeuristicPlayer, step: str, power: str) -> list[Action]:
    """Let the heuristic play `power`'s `step` to its end; the actions it took."""
    taken = []
    while g.decision is not None and g.power == power and g.step == step:
        a = ai.choose(g.rs, g.state, g.decision)
        assert a in g.decision.options
        taken.append(a)
        g.act(a.kind, **dict(a.args))
    return taken


def test_it_does_not_attack_at_bad_odds() -> None:
    g, _ = situation("Germany", [("Infantry", "Germany", "Belorussia", 2), ("Infantry", "USSR", "Karelia S.S.R.", 5)])
    taken = run_step(g, HeuristicPlayer(0, debug=True, odds=RulesOdds()), "combat_move", "Germany")
    assert not any(a.get("choice") == "Karelia S.S.R." for a in taken)
    assert g.kinds_at("Karelia S.S.R.") == {"Infantry": 5}
    assert g.kinds_at("Belorussia") == {"Infantry": 2}


def test_it_attacks_at_good_odds_with_enough_units() -> None:
    g, _ = situation("Germany", [("Tank", "Germany", "Belorussia", 3), ("Infantry", "Germany", "Belorussia", 2),
                                 ("Infantry", "USSR", "Karelia S.S.R.", 1)])
    ai = HeuristicPlayer(0, debug=True, odds=RulesOdds())
    run_step(g, ai, "combat_move", "Germany")
    went = g.kinds_at("Karelia S.S.R.", "Germany")
    assert went and sum(went.values()) < 5            # good odds without bringing everything
    run_step(g, ai, "conduct_combat", "Germany")
    assert g.state.control["Karelia S.S.R."] == "Germany"


def test_it_keeps_its_capital_held_against_a_threat() -> None:
    pieces = [("Infantry", "Germany", "Germany", 3), ("Tank", "USSR", "Eastern Europe", 4)]
    g, _ = situation("Germany", pieces, control={"Eastern Europe": "USSR", "Western Europe": "UK"}, spare=False)
    ai = HeuristicPlayer(0, debug=True, odds=RulesOdds())
    taken = run_step(g, ai, "combat_move", "Germany")
    assert not any(a.get("choice") == "Western Europe" for a in taken)   # an empty enemy territory
    assert g.kinds_at("Germany", "Germany") == {"Infantry": 3}


def test_it_lands_an_aircraft_that_is_out_at_sea() -> None:
    g, ids = situation("Germany", [("Fighter", "Germany", "SZ 5", 1)], step="noncombat_move")
    fighter = ids["Germany Fighter SZ 5"][0]
    g.state.vars["spent"] = {fighter: 2}              # two of its four moves used in combat
    run_step(g, HeuristicPlayer(0, debug=True, odds=RulesOdds()), "noncombat_move", "Germany")
    p = g.piece(fighter)
    assert p is not None and g.state.control.get(p.space) in ("Germany", "Japan")


def test_a_decision_it_does_not_know_gets_its_finish_or_a_legal_option() -> None:
    g = Play.new()
    ai = HeuristicPlayer(3, odds=RulesOdds())
    opts = [Action("choose", {"choice": n}) for n in range(5)]
    asked = Decision("US", "lend_lease", "Lend-Lease: IPCs for the USSR", opts)
    assert ai.choose(g.rs, g.state, asked) in opts
    done = Action("finish", {}, label="no more")
    step = Decision("US", "convoy_raids", "raid", [Action("raid", {"zone": "SZ 7"}), done], finish=done)
    assert ai.choose(g.rs, g.state, step) == done


def test_lhtr_and_a_layer_over_it_offer_the_heuristic() -> None:
    players, default = seats.available_players(load())
    assert players["heuristic"] is HeuristicPlayer and default == "heuristic"
    layer = load_layer(HOUSE)
    players, default = seats.available_players(layer)
    assert players["heuristic"] is HeuristicPlayer and default == "heuristic"
    state, fought = play_rounds("Axis", seed=2, rounds=1, ruleset=layer)
    assert fought > 0
    chosen = seats.assign(load(), ["Axis=heuristic"], seed=1)
    assert isinstance(chosen["Axis"], HeuristicPlayer) and "Allies" not in chosen


def test_a_mod_over_bulge_offers_bulges_heuristic() -> None:
    from rulesets.bulge.ai import HeuristicPlayer as BulgeHeuristic

    players, default = seats.available_players(plugins.load(ROOT / "examples" / "bulge-house-rules"))
    assert players["heuristic"] is BulgeHeuristic and default == "heuristic"


def test_only_a_built_in_folder_ruleset_brings_players() -> None:
    with pytest.raises(ValueError, match="built-in"):
        plugins.FolderRuleset(LHTR, players={"heuristic": HeuristicPlayer})
    built_in = plugins.FolderRuleset(LHTR, builtin=True, players={"h": "rulesets.aarhe.ai:HeuristicPlayer"})
    assert built_in.wargame_players(info=None) == {"h": HeuristicPlayer}


def test_the_command_line_plays_lhtr_with_the_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", "lhtr", "--no-gui", "--ai", "Axis=heuristic", "--ai", "Allies=random",
                     "--max-turns", "1", "--seed", "4", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "standing: Axis" in out or "result:" in out


@pytest.mark.slow
@pytest.mark.parametrize("side", ["Axis", "Allies"])
def test_the_heuristic_wins_nine_games_in_ten_against_random(side: str) -> None:
    done = subprocess.run([sys.executable, "benchmarks/ai_vs_random.py", "lhtr", "--games", "100", "--side", side,
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["games"] == 100 and figures["win_rate"] >= 0.9, figures


def test_a_unit_boarding_another_alike_transport_than_planned_lands_with_that_one() -> None:
    # the rules ask which transport a unit boards only among transports that differ: of two
    # empty ones they take one themselves. The plan says the other: their orders swap
    from rulesets.aarhe.ai.player import Task

    g, ids = situation("Germany", [("Transport", "Germany", "SZ 5", 2), ("Infantry", "Germany", "Germany", 1),
                                   ("Infantry", "UK", "Norway", 1)], control={"Norway": "UK"}, spare=False)
    inf = ids["Germany Infantry Germany"][0]
    taken = g.proc("transports_for", g.piece(inf), "SZ 5")
    assert len(taken) == 1                          # alike: not asked
    planned = next(t for t in ids["Germany Transport SZ 5"] if t != taken[0].id)
    ai = HeuristicPlayer(0, debug=True, odds=RulesOdds())
    ai.choose(g.rs, g.state, g.decision)           # it plans the phase ...
    assert ai.plan is not None
    ai.plan.tasks = [Task("go", inf, ["SZ 5"], board=planned), Task("land", planned, ["Norway"])]   # ... to this
    run_step(g, ai, "combat_move", "Germany")
    assert g.piece(inf).space == "Norway" and g.piece(inf).carrier is None
    assert g.kinds_at("Norway", "Germany") == {"Infantry": 1}
