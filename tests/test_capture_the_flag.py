"""examples/capture-the-flag, a whole game written from the docs alone: it checks clean, random
games end, and its rules play as its README says (a unit that walks into the empty enemy base
takes the flag, carrying it home wins, a fallen carrier's flag goes back to its base)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main
from engine import plugins
from engine.actions import Action
from engine.game import Game
from tests.conftest import scenario_mod

FLAG = Path(__file__).resolve().parents[1] / "examples" / "capture-the-flag"


def test_it_checks_clean_and_random_games_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(FLAG)]) == 0
    assert "capture-the-flag: ok" in capsys.readouterr().out
    for seed in (1, 2, 3):
        assert main(["--mod", str(FLAG), "play", "capture-the-flag", "--ai", "all=random",
                     "--seed", str(seed), "--no-gui"]) == 0
        out = capsys.readouterr().out
        assert "result: winner:" in out or "result: draw" in out, out[-300:]


def _raid(tmp_path: Path, red: list[dict[str, object]]) -> Game:
    """A game of a scenario `raid` over capture-the-flag: a Blue scout one hex from the Red
    base, which holds only its flag; a Blue guard at home; `red`, the other pieces."""
    mod = scenario_mod(tmp_path / "raid", "capture-the-flag", {
        "format": "wargame-scenario/1", "name": "raid", "map": "capture-the-flag:map.json",
        "pieces": [{"kind": "Flag", "owner": "Blue", "space": "0103"},
                   {"kind": "Guard", "owner": "Blue", "space": "0103"},
                   {"kind": "Scout", "owner": "Blue", "space": "0603"},
                   {"kind": "Flag", "owner": "Red", "space": "0703"}, *red]}, title="A raid")
    return Game(plugins.load(mod, paths=[FLAG]), "raid", seed=1)


def _piece(game: Game, owner: str, kind: str) -> int:
    return next(p.id for p in game.state.pieces.values() if p.owner == owner and p.kind == kind)


def _finish(game: Game, side: str) -> None:
    """`side` ends its movement and its combat."""
    while game.decision is not None and game.decision.player == side:
        game.play(Action("finish"))


def test_a_scout_takes_the_flag_from_the_empty_base_and_wins_by_carrying_it_home(tmp_path: Path) -> None:
    game = _raid(tmp_path, [{"kind": "Soldier", "owner": "Red", "space": "0105"}])
    scout, red_flag = _piece(game, "Blue", "Scout"), _piece(game, "Red", "Flag")
    game.play(Action("go", {"u": scout, "to": "0703"}))
    assert game.state.pieces[red_flag].carrier == scout
    assert any("takes the Red flag" in data.get("message", "") for _, data in game.log)
    # home the long way round the pond, three hexes a turn; Red does nothing
    for hex_ in ("0402", "0203", "0103"):
        _finish(game, "Blue")
        _finish(game, "Red")
        game.play(Action("go", {"u": scout, "to": hex_}))
        assert game.state.pieces[red_flag].space == hex_
    result = game.result
    assert result is not None and result.winner == "Blue"
    assert result.reason == "Blue brought the Red flag home on turn 4"


def test_a_fallen_carrier_s_flag_goes_back_to_its_base(tmp_path: Path) -> None:
    game = _raid(tmp_path, [{"kind": "Soldier", "owner": "Red", "space": "0605"}])
    scout, red_flag = _piece(game, "Blue", "Scout"), _piece(game, "Red", "Flag")
    soldier = _piece(game, "Red", "Soldier")
    game.play(Action("go", {"u": scout, "to": "0703"}))
    _finish(game, "Blue")
    game.play(Action("go", {"u": soldier, "to": "0604"}))     # its only unit: movement is over
    game.state.load_dice([1, 1, 6])          # the soldier's two dice hit, the scout's misses
    game.play(Action("attack", {"from": "0604", "to": "0703"}))
    assert scout not in game.state.pieces
    flag = game.state.pieces[red_flag]
    assert (flag.space, flag.carrier) == ("0703", None)
    assert any("goes back to the Red base" in data.get("message", "") for _, data in game.log)
    assert game.result is None                # Blue still has its guard


def _reach(game: Game, space: str) -> set[str]:
    """Where the Blue unit in `space` may move."""
    decision = game.decision
    assert decision is not None
    unit = next(p.id for p in game.state.pieces.values() if p.space == space and p.owner == "Blue")
    return {o.args["to"] for o in decision.options if o.kind == "go" and o.args["u"] == unit}


def test_movement_stops_in_a_wood_and_beside_an_enemy_guard(tmp_path: Path) -> None:
    # a soldier (2 hexes) at 0201: 0303 is two hexes away only through the Oak wood (0202)
    game = _raid(tmp_path / "wood", [{"kind": "Soldier", "owner": "Blue", "space": "0201"},
                                     {"kind": "Soldier", "owner": "Red", "space": "0705"}])
    assert {"0202", "0302", "0203"} <= _reach(game, "0201") and "0303" not in _reach(game, "0201")
    # a scout (3 hexes) at 0101, a Red guard at 0303: 0204 is three hexes away only through
    # 0203 (next to the guard) or 0104, so the scout stops at 0203 and never gets there
    game = _raid(tmp_path / "watch", [{"kind": "Scout", "owner": "Blue", "space": "0101"},
                                      {"kind": "Guard", "owner": "Red", "space": "0303"}])
    assert {"0203", "0104", "0401"} <= _reach(game, "0101") and "0204" not in _reach(game, "0101")
    assert "0303" not in _reach(game, "0101")                # nobody enters a hex held by the enemy
