"""Random AARHE games: tests/lhtr/invariants.py holds after every action (with AARHE's own:
the small-island cap and Stalinist xenophobia), and a game replays exactly from its actions.
Two random players (tests/lhtr/soak.py): `uniform`, and `bold`, who marches on.

The 10-round games are `slow`: `pytest -m slow tests/aarhe` runs them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.aarhe.play import aarhe
from tests.lhtr.soak import play, replay

#: options that change what is played, for games beside the default ones
OTHER_RULES: list[dict[str, Any]] = [
    {"airborne_drops": True, "research": True, "lend_lease_losses_from_cap": True},
    {"reinforce_from_battles": True, "air_moves_each_phase": False, "collect_in_first_round": True,
     "small_island_cap": 2, "lend_lease_ussr_only_zones": "[3, 4]"},
]


@pytest.mark.parametrize(("seed", "bold"), [(1, False), (2, False), (3, True), (4, True)])
def test_short_random_games_keep_every_invariant_and_end(seed: int, bold: bool) -> None:
    game, inv = play(aarhe(last_round=3), seed, bold)
    assert game.result is not None
    assert game.result.reason == "round 3 was the last: a draw" or "victory cities" in game.result.reason
    kinds = {a.kind for a in game.actions}
    assert {"fight", "buy_at_city", "reinforce"} <= kinds, kinds
    assert inv.checked == len(game.actions) + 1


@pytest.mark.parametrize("options", OTHER_RULES, ids=["drops-research", "readings"])
def test_short_random_games_under_other_options_keep_every_invariant(options: dict[str, Any]) -> None:
    game, _ = play(aarhe(last_round=2, **options), 5, bold=True)
    assert game.result is not None


def test_a_random_game_replays_exactly() -> None:
    rs = aarhe(last_round=2)
    game, _ = play(rs, 6, bold=True, check=False)
    kinds = {a.kind for a in game.actions}
    assert {"choose", "fight", "send"} <= kinds, kinds          # answers to questions, battles, Lend-Lease
    again = replay(rs, game)
    assert again.state.signature() == game.state.signature()
    assert again.state.vars == game.state.vars
    assert again.result == game.result
    assert again.log == game.log


@pytest.mark.slow
@pytest.mark.parametrize("bold", [False, True], ids=["uniform", "bold"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_ten_round_random_games_keep_every_invariant(seed: int, bold: bool) -> None:
    game, _ = play(aarhe(last_round=10), seed, bold)
    assert game.result is not None
    assert game.state.turn == 10 or "victory cities" in game.result.reason


@pytest.mark.slow
@pytest.mark.parametrize("options", OTHER_RULES, ids=["drops-research", "readings"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_ten_round_random_games_under_other_options_keep_every_invariant(seed: int, options: dict[str, Any]) -> None:
    game, _ = play(aarhe(last_round=10, **options), seed, bold=True)
    assert game.result is not None


def test_answers_remembered_within_an_entry_change_nothing_that_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    # AARHE's flights ask each space whether aircraft may enter it, walk after walk: those
    # answers are remembered for one entry into the rules (dsl.compiler, "answers
    # remembered"); a game played without them is the same game, action for action
    import dsl.compiler
    from engine import plugins

    remembered, _ = play(aarhe(last_round=2), 6, bold=True, check=False)
    monkeypatch.setattr(dsl.compiler, "REMEMBER", False)
    asked_again, _ = play(plugins.load("aarhe", {"last_round": 2}), 6, bold=True, check=False)
    assert [a.to_json() for a in remembered.actions] == [a.to_json() for a in asked_again.actions]
    assert remembered.state.to_json() == asked_again.state.to_json()
