"""A game's log as players read it (clients.game_log), over random games of each ruleset:
every die rolled says whose it is and what for, no line names a space or an off-board area by
its internal id (`pending:USSR`, `offboard:Allies`, `chart:Axis:2`), and unit names are spaced
("Aircraft Carrier", as `wargame play --log` prints them too)."""

from __future__ import annotations

import re

import pytest

from clients.game_log import log_lines
from clients.players import RandomPlayer
from clients.words import spaced
from engine import plugins
from engine.game import Game

INTERNAL_ID = re.compile(r"\b(offboard|chart|pending|dead):")


def random_game(name: str, seed: int, actions: int) -> Game:
    rs = plugins.load(name)
    game, player = Game(rs, None, seed), RandomPlayer(seed)
    for _ in range(actions):
        if game.over:
            break
        game.play(player.choose(rs, game.state, game.decision))
    return game


@pytest.mark.parametrize("name", ["bulge", "lhtr", "aarhe"])
def test_the_log_says_whose_each_die_is_and_names_things_as_players_do(name: str) -> None:
    game = random_game(name, seed=1, actions=1500)
    rolls = [data for kind, data in game.log if kind == "roll"]
    assert rolls and all(data.get("why") for data in rolls), [d for d in rolls if not d.get("why")][:3]
    lines = log_lines(game, game.log)
    told = [line for line in lines if line.startswith("rolled ")]
    assert all(" for " in line for line in told), told[:3]
    assert [line for line in lines if INTERNAL_ID.search(line)] == []
    joined = [k for k in game.ruleset.rules.units if spaced(k) != k]
    assert [line for line in lines if any(re.search(rf"\b{k}\b", line) for k in joined)] == []
