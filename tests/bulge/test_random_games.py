"""Random games from the first Red turn to the end, with the invariants checked after every
action: 50 in the suite, 200 more under `pytest -m slow` (about 1.3 s a game, checks
included: the 200 the suite played were a quarter of it), and more seeds outside it:
benchmarks/soak.py bulge. BULGE_RANDOM_GAMES sets the suite's number."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clients.players import RandomPlayer
from engine.actions import Action, IllegalAction
from engine.game import Game
from tests.bulge import invariants

GAMES = int(os.environ.get("BULGE_RANDOM_GAMES", "50"))
SLOW_GAMES = 200


def _play_block(bulge, block: int, first: int, last: int) -> None:
    for seed in range(first + block, last, 10):
        game = invariants.play_checked(bulge, seed)
        assert game.result.winner in ("Axis", "Allies")
        assert game.state.turn <= 9


@pytest.mark.parametrize("block", range(10))
def test_random_games_keep_every_invariant(bulge, block):
    _play_block(bulge, block, 0, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_more_random_games_keep_every_invariant(bulge, block):
    _play_block(bulge, block, GAMES, GAMES + SLOW_GAMES)


nonsense = st.one_of(
    st.builds(lambda k, h: Action(k, {"from": h, "to": h, "hex": h, "pieces": (1, 2), "piece": 3, "truck": 4}),
              st.sampled_from(["attack", "attack_from", "move", "activate", "load", "retreat", "place", "enter",
                               "place_air", "resolve_air", "displace", "disband", "fly"]),
              st.sampled_from(["1709", "1214", "0101", "nowhere", ""])),
    st.sampled_from([Action("pass"), Action("done"), Action("resolve"), Action("cancel"), Action("hold")]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 1000), steps=st.integers(0, 150), attempts=st.lists(nonsense, min_size=1, max_size=8))
def test_a_refused_action_never_loses_a_unit(bulge, seed, steps, attempts):
    game = Game(bulge, None, seed)
    player = RandomPlayer(seed)
    for _ in range(steps):
        if game.over:
            return
        game.play(player.choose(bulge, game.state, game.decision))
    for action in attempts:
        if game.over:
            return
        before = game.state.signature()
        try:
            game.play(action)
        except IllegalAction as e:
            assert e.reason and "Traceback" not in e.reason
            assert game.state.signature() == before
