"""examples/beacon-hill, a king-of-the-hill game written as a mod, played as its README tells a
player: it loads and checks, a side that holds the beacon for three of its turns wins, the rules
of terrain, guns and the turn limit do what the README says, and computer players play it to
the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main
from engine import plugins
from engine.actions import Action, IllegalAction
from engine.game import Game
from tests.conftest import scenario_mod

BEACON = Path(__file__).resolve().parents[1] / "examples" / "beacon-hill"


def _play(game: Game, label: str) -> None:
    """Play the option a player reads as `label` (the finish of the step when it is "finish")."""
    decision = game.decision
    assert decision is not None
    if label == "finish":
        assert decision.finish is not None, decision.prompt
        game.play(decision.finish)
        return
    options = {a.label: a for a in decision.options}
    assert label in options, (label, sorted(options))
    game.play(options[label])


def _labels(game: Game) -> list[str]:
    assert game.decision is not None
    return [a.label for a in game.decision.options]


def _pass_turn(game: Game) -> None:
    """The side to play ends its movement and its combat without doing anything."""
    side = game.decision.player if game.decision is not None else ""
    while game.decision is not None and game.decision.player == side:
        _play(game, "finish")


def _skirmish(tmp_path: Path, pieces: list[dict[str, object]]) -> plugins.LoadedRuleset:
    """beacon-hill with one scenario of its own on the same map, holding only `pieces`."""
    mod = scenario_mod(tmp_path / "beacon-skirmish", "beacon-hill", {
        "format": "wargame-scenario/1", "name": "skirmish", "map": "beacon-hill:map.json",
        "pieces": pieces})
    return plugins.load(mod, paths=[BEACON])


def test_beacon_hill_checks_clean_and_is_a_game_without_python(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(BEACON)]) == 0
    assert capsys.readouterr().out.strip().endswith("beacon-hill: ok")
    assert not list(BEACON.rglob("*.py"))
    assert not any(line.startswith("extends") for line in (BEACON / "beacon.rules").read_text().splitlines())
    rs = plugins.load(BEACON)
    game = Game(rs, None, seed=0)
    assert len(game.state.board.spaces) == 37
    kinds = sorted((p.owner, p.kind) for p in game.state.pieces.values())
    assert kinds.count(("North", "Infantry")) == kinds.count(("South", "Infantry")) == 3
    assert {k for _, k in kinds} == {"Infantry", "Cavalry", "Guns"}
    assert game.decision is not None and game.decision.player == "North"


def test_the_cavalry_that_holds_the_beacon_three_turns_wins_it_for_north() -> None:
    rs = plugins.load(BEACON)
    game = Game(rs, None, seed=0)
    # turn 1: the cavalry rides two hexes, round the wood
    _play(game, "move Cavalry from 0501 to 0503")
    _pass_turn(game)
    _pass_turn(game)                                   # South waits
    # turn 2: onto the beacon
    _play(game, "move Cavalry from 0503 to Beacon Hill (0404)")
    _pass_turn(game)
    assert game.result is None
    _pass_turn(game)
    # turns 3 and 4: North stays there; the third turn held wins
    _pass_turn(game)
    assert game.result is None
    _pass_turn(game)
    _pass_turn(game)
    result = game.result
    assert result is not None
    assert (result.winner, result.reason) == ("North", "North held the beacon for 3 turns")
    assert result.score == {"North": 3, "South": 0}
    notes = [d["message"] for k, d in game.log if k == "note"]
    assert notes == [f"North holds the beacon ({n} of 3)" for n in (1, 2, 3)]


def test_nobody_holds_the_beacon_and_turn_twelve_ends_it_drawn() -> None:
    rs = plugins.load(BEACON)
    game = Game(rs, None, seed=0)
    while game.decision is not None:
        _pass_turn(game)
    assert game.state.turn == 12
    result = game.result
    assert result is not None and result.winner is None
    assert result.reason == "nobody held the beacon for 3 turns by the end of turn 12"


def test_cavalry_keeps_out_of_woods_where_infantry_goes() -> None:
    game = Game(plugins.load(BEACON), None, seed=0)
    offered = _labels(game)
    assert "move Infantry from 0401 to Ash Wood (0502)" in offered
    assert not any(label.startswith("move Cavalry") and label.endswith("(0502)") for label in offered)
    cavalry = next(a for a in game.decision.options if a.label.startswith("move Cavalry"))
    with pytest.raises(IllegalAction, match="out of reach this turn"):
        game.play(Action(cavalry.kind, {**cavalry.args, "to": "0502"}))


def test_a_marsh_ends_a_units_move(tmp_path: Path) -> None:
    rs = _skirmish(tmp_path, [{"kind": "Cavalry", "owner": "North", "space": "0704"},
                              {"kind": "Infantry", "owner": "South", "space": "0207"}])
    reach = [label.rsplit(" to ", 1)[1] for label in _labels(Game(rs, "skirmish", seed=0))
             if label.startswith("move")]
    assert "East Marsh (0604)" in reach     # into the marsh
    assert "0504" not in reach             # beyond it, two hexes away, only through the marsh
    assert {"0603", "0605", "0503", "0602", "0606"} <= set(reach)


def _rolls(game: Game, since: int) -> list[int]:
    return [data["n"] for kind, data in game.log[since:] if kind == "roll"]


def test_guns_fire_from_two_hexes_and_draw_no_fire_back(tmp_path: Path) -> None:
    rs = _skirmish(tmp_path, [{"kind": "Guns", "owner": "North", "space": "0303"},
                              {"kind": "Infantry", "owner": "North", "space": "0303"},
                              {"kind": "Infantry", "owner": "South", "space": "0405"}])
    game = Game(rs, "skirmish", seed=0)
    _play(game, "finish")                              # North's movement
    assert _labels(game) == ["attack 0405 from 0303", "end combat"]
    since = len(game.log)
    _play(game, "attack 0405 from 0303")
    assert _rolls(game, since) == [2]                  # the guns' 2 dice (not the infantry's), and none back


def test_a_side_left_with_no_units_loses_at_the_end_of_the_turn(tmp_path: Path) -> None:
    rs = _skirmish(tmp_path, [{"kind": "Guns", "owner": "North", "space": "0303"},
                              {"kind": "Infantry", "owner": "South", "space": "0405"}])
    won = 0
    for seed in range(12):
        game = Game(rs, "skirmish", seed=seed)
        _play(game, "finish")
        _play(game, "attack 0405 from 0303")
        if not any(p.owner == "South" for p in game.state.pieces.values()):
            result = game.result                       # North has nothing left to do: its turn is over
            assert result is not None and (result.winner, result.reason) == ("North", "South has no units left")
            won += 1
    assert 0 < won < 12                                # 2 dice hitting on 3 or less: 3 games in 4


def test_a_hill_gives_its_defenders_one_die_more(tmp_path: Path) -> None:
    rs = _skirmish(tmp_path, [{"kind": "Infantry", "owner": "North", "space": "0303"},
                              {"kind": "Infantry", "owner": "South", "space": "0404"},
                              {"kind": "Infantry", "owner": "South", "space": "0304"}])
    game = Game(rs, "skirmish", seed=0)
    _play(game, "finish")
    since = len(game.log)
    _play(game, "attack Beacon Hill (0404) from 0303")
    assert _rolls(game, since) == [1, 3]              # 1 attack die; defence 2 and the hill's 1
    # the same attack on open ground, on another game
    game = Game(rs, "skirmish", seed=0)
    _play(game, "finish")
    since = len(game.log)
    _play(game, "attack 0304 from 0303")
    assert _rolls(game, since) == [1, 2]


def test_random_players_play_beacon_hill_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (1, 2, 3):
        assert main(["--mod", str(BEACON), "play", "beacon-hill", "--ai", "all", "--seed", str(seed),
                     "--no-gui", "--quiet"]) == 0
        out = capsys.readouterr().out
        assert "result: winner:" in out or "result: draw" in out, out[-500:]
