"""The Battle of the Bulge computer player: it always answers with one of the decision's own
options, it beats the random player from both sides, and it never raises.

Everything is seeded (the dice, the players), so these games come out the same every run.
The long measurements (100+ games each way, heuristic against heuristic) are in
benchmarks/bulge_selfplay.py.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clients.odds_players import RulesOdds
from clients.players import RandomPlayer
from engine.game import Game
from rulesets.bulge.ai import HeuristicPlayer, step_kind


def play(rs, players: dict, seed: int, kinds: Counter | None = None) -> Game:
    """A full game; every answer must be one of the options offered."""
    game = Game(rs, None, seed)
    while not game.over:
        decision = game.decision
        action = players[decision.player].choose(rs, game.state, decision)
        assert action in decision.options, (decision.kind, action)
        if kinds is not None:
            kinds[(decision.player, decision.kind)] += 1
        game.play(action)
    return game


def test_heuristic_answers_every_decision_of_two_full_games(bulge):
    """Heuristic against heuristic, two seeds: every kind of decision comes up (air from turn
    5, retreats, splits...) and each answer is a listed option."""
    kinds: Counter = Counter()
    for seed in (1, 2):
        players = {"Axis": HeuristicPlayer(seed, debug=True, odds=RulesOdds()), "Allies": HeuristicPlayer(seed + 1, debug=True, odds=RulesOdds())}
        game = play(bulge, players, seed, kinds)
        assert game.result.winner in ("Axis", "Allies")
    seen = {step_kind(k) for _, k in kinds}      # `axis_reinforce` is a `reinforce`
    for kind in ("attacks", "choose", "trucks_home", "activation", "move", "reinforce",
                 "air_initiative", "air_placement", "air_resolution"):
        assert kind in seen, kind
    assert {side for side, _ in kinds} == {"Axis", "Allies"}


def test_heuristic_axis_beats_random(bulge):
    wins = 0
    for seed in range(10):
        players = {"Axis": HeuristicPlayer(seed, debug=True, odds=RulesOdds()), "Allies": RandomPlayer(seed)}
        wins += play(bulge, players, seed).result.winner == "Axis"
    assert wins >= 8, wins


@pytest.fixture(scope="module")
def bulge_short():
    """Five-turn games: the Allies' side of the comparison does not need the whole game."""
    from engine import plugins

    return plugins.load("bulge", options={"last_turn": "5"})


def test_heuristic_allies_beat_random(bulge_short):
    wins = 0
    for seed in range(10):
        players = {"Axis": RandomPlayer(seed), "Allies": HeuristicPlayer(seed, debug=True, odds=RulesOdds())}
        game = play(bulge_short, players, seed)
        wins += game.result.winner == "Allies"
        assert game.state.resource("Axis", "vp") <= 6      # random attackers get nowhere
    assert wins >= 8, wins


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 900), side=st.sampled_from(["Axis", "Allies"]))
def test_heuristic_never_raises(bulge, seed, steps, side):
    """From wherever random play leads (any phase, any decision kind), the heuristic player
    answers without raising, with a listed option, for a stretch of the game."""
    game = Game(bulge, None, seed)
    chaos = RandomPlayer(seed)
    for _ in range(steps):
        if game.over:
            return
        game.play(chaos.choose(bulge, game.state, game.decision))
    heuristic = HeuristicPlayer(seed, debug=True, odds=RulesOdds())      # debug: re-raise instead of falling back
    for _ in range(60):
        if game.over:
            return
        decision = game.decision
        player = heuristic if decision.player == side else chaos
        action = player.choose(bulge, game.state, decision)
        assert action in decision.options
        game.play(action)
