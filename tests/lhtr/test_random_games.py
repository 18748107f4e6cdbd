"""Random LHTR games: every option offered is accepted, the board stays sound, and a game
replays exactly from its actions (casualty and retreat answers included)."""

from __future__ import annotations

import pytest

from clients.players import RandomPlayer
from engine.game import Game
from tests.lhtr.play import SCENARIO, load


def check_board(game: Game) -> None:
    s = game.state
    units = s.rules.units
    for p in s.pieces.values():
        if ":" in p.space:
            assert p.space == f"pending:{p.owner}"
            continue
        sp = s.board.space(p.space)
        assert not sp.get("impassable"), p
        sea = sp.get("number") is not None
        tags = units[p.kind].tags
        if p.carrier is not None:
            carrier = s.pieces[p.carrier]
            assert carrier.space == p.space and "carries_land" in units[carrier.kind].tags, p
        elif "land" in tags or "factory" in tags:
            assert not sea, p
        elif "sea" in tags:
            assert sea, p
    for (owner, _), amount in s.resources.items():
        assert amount >= 0, owner


def play(seed: int, rounds: int) -> Game:
    game = Game(load(last_round=rounds), SCENARIO, seed)
    player = RandomPlayer(seed)
    while game.decision is not None:
        game.play(player.choose(game.ruleset, game.state, game.decision))
        if game.decision is None or game.decision.kind != "choose":
            check_board(game)
    return game


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_the_board_sound_and_end(seed: int) -> None:
    game = play(seed, rounds=2)
    assert game.result is not None
    assert game.result.reason in ("round 2 was the last: a draw",) or "victory cities" in game.result.reason
    assert any(a.kind == "fight" for a in game.actions)


def test_a_random_game_replays_exactly() -> None:
    game = play(3, rounds=1)
    assert any(a.kind == "choose" for a in game.actions)
    again = Game(load(last_round=1), SCENARIO, 3)
    for a in game.actions:
        again.play(a)
    assert again.state.signature() == game.state.signature()
    assert again.result == game.result
