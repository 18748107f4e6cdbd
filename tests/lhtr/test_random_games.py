"""Random LHTR games: every option offered is accepted, tests/lhtr/invariants.py holds after
every action, and a game replays exactly from its actions (casualty and retreat answers
included). Two random players (tests/lhtr/soak.py): `uniform`, and `bold`, who marches on.

The 10-round games are `slow`: `pytest -m slow tests/lhtr` runs them.
"""

from __future__ import annotations

import pytest

from tests.lhtr.play import load
from tests.lhtr.soak import play, replay


@pytest.mark.parametrize(("seed", "bold"), [(1, False), (2, False), (3, True), (4, True)])
def test_short_random_games_keep_every_invariant_and_end(seed: int, bold: bool) -> None:
    game, inv = play(load(last_round=2), seed, bold)
    assert game.result is not None
    assert game.result.reason == "round 2 was the last: a draw" or "victory cities" in game.result.reason
    assert any(a.kind == "fight" for a in game.actions)
    assert inv.checked == len(game.actions) + 1


def test_a_random_game_replays_exactly() -> None:
    rs = load(last_round=1)
    game, _ = play(rs, 3, bold=True, check=False)
    assert any(a.kind == "choose" for a in game.actions)
    again = replay(rs, game)
    assert again.state.signature() == game.state.signature()
    assert again.result == game.result


@pytest.mark.slow
@pytest.mark.parametrize("bold", [False, True], ids=["uniform", "bold"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_ten_round_random_games_keep_every_invariant(seed: int, bold: bool) -> None:
    game, _ = play(load(last_round=10), seed, bold)
    assert game.result is not None
    assert game.state.turn == 10 or "victory cities" in game.result.reason


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_ten_round_random_games_with_research_keep_every_invariant(seed: int) -> None:
    game, _ = play(load(last_round=10, research=True), seed, bold=True)
    assert game.result is not None
