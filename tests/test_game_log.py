"""A game's log as players read it (clients.game_log), over random games of each ruleset:
every die rolled says whose it is and what for, no line names a space or an off-board area by
its internal id (`pending:USSR`, `offboard:Allies`, `chart:Axis:2`), a piece by its number or a
name twice ("Turn 1 (turn 1)"), and unit names are spaced ("Aircraft Carrier", as `wargame
play --log` prints them too)."""

from __future__ import annotations

import re

import pytest

from clients.game_log import log_lines
from clients.players import RandomPlayer
from clients.words import spaced
from engine import plugins
from engine.game import Game

INTERNAL_ID = re.compile(r"\b(offboard|chart|pending|dead):")
#: a name said twice ("Afghanistan (Afghanistan)", "Turn 1 (turn 1)"), a piece's number ("Truck #115")
DOUBLED = re.compile(r"\b(\w[\w .]*) \(\1\b", re.IGNORECASE)
NUMBERED = re.compile(r"#\d")


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
    assert [line for line in lines if DOUBLED.search(line) or NUMBERED.search(line)] == []
    assert any(line.startswith("== ") for line in lines)
    joined = [k for k in game.ruleset.rules.units if spaced(k) != k]
    assert [line for line in lines if any(re.search(rf"\b{k}\b", line) for k in joined)] == []


def test_a_route_is_one_line_and_the_pieces_along_it_are_counted_together() -> None:
    from clients.routes import reach

    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=1)
    while game.decision.kind != "combat_move":
        game.play(game.decision.finish)
    shown = set(game.state.board.spaces)
    start = len(game.log)
    tank = next(p.id for p in game.state.pieces.values() if p.kind == "Tank" and p.space == "Archangel")
    for action in reach(rs, game.state, game.decision, tank, shown)["Belorussia"].actions:
        game.play(action)
    assert log_lines(game, game.log[start:]) == ["USSR Tank: Archangel -> Karelia S.S.R. -> Belorussia"]
    start = len(game.log)
    for pid in [p.id for p in game.state.pieces_at("Karelia S.S.R.") if p.kind == "Infantry"]:
        for action in reach(rs, game.state, game.decision, pid, shown)["West Russia"].actions:
            game.play(action)
    assert log_lines(game, game.log[start:]) == ["USSR 3 Infantry move from Karelia S.S.R. to West Russia"]


def test_losses_of_one_power_in_one_space_are_counted_in_one_line() -> None:
    """A battle round's casualties read as players count them ("Germany 2 Infantry, Artillery
    destroyed in West Russia"), in the order they fell, never a line a piece; a loss after a
    move, or of another power, keeps its own line and its place."""
    game = Game(plugins.load("lhtr"), None, seed=1)
    lost = [("destroyed", {"piece": i, "kind": k, "owner": o, "space": "West Russia", "where": "West Russia"})
            for i, (k, o) in enumerate([("Infantry", "Germany"), ("Infantry", "Germany"), ("Infantry", "USSR"),
                                        ("Artillery", "Germany")])]
    retreat = ("move", {"kind": "Tank", "owner": "USSR", "src": "West Russia", "to": "Archangel"})
    assert log_lines(game, lost + [retreat, lost[2]]) == [
        "Germany 2 Infantry, Artillery destroyed in West Russia",
        "USSR Infantry destroyed in West Russia",
        "USSR Tank moves from West Russia to Archangel",
        "USSR Infantry destroyed in West Russia",
    ]


def test_a_round_of_a_and_a_is_called_a_round_in_the_log_as_on_the_status_line() -> None:
    """LHTR's sequence says `turns unlimited called "Round"`: the log's heading and the status
    line both say "Round 1", where a game that says nothing still says "Turn 1"."""
    game = random_game("lhtr", seed=1, actions=5)
    assert "== Round 1 ==" in log_lines(game, game.log)
    assert game.status().startswith("Round 1")
    assert game.ruleset.structure.turn_words(2, of_all=False) == "Round 2"
