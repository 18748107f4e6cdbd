"""Every mod in examples/ checks clean and plays to the end, computer against computer; each
example's own change is seen in play."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main
from tests.conftest import scenario_mod

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"
EXAMPLES = sorted(p for p in EXAMPLES_DIR.iterdir() if (p / "ruleset.json").is_file())


@pytest.mark.parametrize("mod", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_an_example_mod_checks_and_plays_to_the_end(mod: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    manifest = json.loads((mod / "ruleset.json").read_text())
    name = manifest["name"]
    assert main(["check", str(mod)]) == 0
    capsys.readouterr()
    # a world war has no end in sight after a few rounds: those stop and print the standing
    rounds = ["--max-turns", "3"] if manifest.get("extends") in ("lhtr", "aarhe") else []
    assert main(["--mod", str(mod), "play", name, "--ai", "all", "--seed", "2", *rounds]) == 0
    out = capsys.readouterr().out
    assert "result: winner:" in out or "result: draw" in out or ("standing:" in out and rounds), out[-500:]


def test_the_skies_may_clear_on_turn_three() -> None:
    from clients.players import RandomPlayer
    from engine import plugins
    from engine.game import Game

    rs = plugins.load(EXAMPLES_DIR / "bulge-early-air")
    flown: dict[int, list[int]] = {}
    for seed in range(4):
        game, player = Game(rs, None, seed=seed), RandomPlayer(seed)
        while game.decision is not None and game.state.turn <= 4:
            game.play(player.choose(rs, game.state, game.decision))
        turns = []
        for kind, data in game.log:
            if kind == "turn_start":
                turn = data["turn"]
            elif kind == "phase_start" and data["phase"] == "air_combat":
                turns.append(turn)
        clear = [n for k, n in game.log if k == "note" and "weather die" in n["message"]]
        assert len(clear) == 2          # rolled on turns 3 and 4 only
        flown[seed] = turns
        assert all(t in (3, 4) for t in turns[:-1]) and turns[-1] == 5
        assert len(turns) - 1 == sum("skies clear" in n["message"] for n in clear)
    assert any(len(t) > 1 for t in flown.values()) and any(len(t) == 1 for t in flown.values())


def test_the_doubled_lend_lease_is_one_number_with_its_own_provenance() -> None:
    from engine import plugins

    rs = plugins.load(EXAMPLES_DIR / "aarhe-lend-lease-doubled")
    spec = rs.rules.option_specs["lend_lease_cap"]
    assert (rs.options["lend_lease_cap"], spec.status) == (24, "house")
    assert plugins.load("aarhe").options["lend_lease_cap"] == 12


def test_the_river_crossing_is_a_game_without_python() -> None:
    folder = Path(__file__).resolve().parents[1] / "examples" / "river-crossing"
    assert not list(folder.rglob("*.py"))
    lines = (folder / "crossing.rules").read_text().splitlines()
    assert not [line for line in lines if line.startswith("extends")]


def _scenario_mod(tmp_path: Path, map_name: str) -> Path:
    """A mod of river-crossing that adds one scenario, `skirmish` (5 pieces), on the map `map_name`."""
    import json

    base = json.loads((EXAMPLES_DIR / "river-crossing" / "scenario.json").read_text())
    return scenario_mod(tmp_path / "crossing-skirmish", "river-crossing",
                        {**base, "name": "skirmish", "map": map_name,
                         "pieces": base["pieces"][:2] + base["pieces"][-2:]}, title="A skirmish at the ford")


def test_a_mod_adds_a_scenario_on_its_base_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine import plugins

    mod = _scenario_mod(tmp_path, "river-crossing:map.json")
    crossing = EXAMPLES_DIR / "river-crossing"
    rs = plugins.load(mod, paths=[crossing])
    assert [s.name for s in rs.info.scenarios] == ["skirmish", "sambre"]     # its own first, then the base's
    small = rs.logic.new_state("skirmish", 0)
    assert len(small.pieces) == 5 and set(small.board.spaces) == set(rs.logic.new_state("sambre", 0).board.spaces)
    assert main(["--mod", str(crossing), "--mod", str(mod), "play", "crossing-skirmish", "--ai", "all", "--seed", "1"]) == 0
    assert "result:" in capsys.readouterr().out


def test_a_scenario_naming_a_map_outside_its_chain_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mod = _scenario_mod(tmp_path, "bulge:data/map.json")
    crossing = str(EXAMPLES_DIR / "river-crossing")
    assert main(["--mod", crossing, "check", str(mod)]) == 1
    assert ("skirmish.json: map `bulge:data/map.json`: `bulge` is not a ruleset of this one's chain "
            "(river-crossing, crossing-skirmish)") in capsys.readouterr().out
    assert main(["--mod", crossing, "--mod", str(mod), "play", "crossing-skirmish", "--ai", "all"]) != 0
    err = capsys.readouterr().err
    assert "is not a ruleset of this one's chain" in err and "Traceback" not in err


def test_st_vith_is_won_or_lost_at_the_road_junction(capsys: pytest.CaptureFixture[str]) -> None:
    mod = str(EXAMPLES_DIR / "bulge-st-vith")
    assert main(["--mod", mod, "play", "bulge-st-vith", "--ai", "all", "--seed", "3", "--no-gui"]) == 0
    assert "result: winner: Axis — St. Vith fell on turn 2" in capsys.readouterr().out
    assert main(["--mod", mod, "play", "bulge-st-vith", "--ai", "all", "--seed", "1", "--no-gui"]) == 0
    assert "result: winner: Allies" in capsys.readouterr().out


def test_paratroopers_drop_behind_the_lines_on_the_drop_turn_only() -> None:
    from clients.players import RandomPlayer
    from engine import flow, plugins
    from engine.actions import Action
    from engine.game import Game

    rs = plugins.load(EXAMPLES_DIR / "bulge-paratroopers")
    game, player = Game(rs, None, seed=1), RandomPlayer(1)
    waiting = [p.id for p in game.state.pieces.values() if p.kind == "Paratrooper"]
    assert len(waiting) == 2 and all(game.state.pieces[p].space == "offboard:Axis" for p in waiting)
    while game.decision is not None and game.decision.kind != "axis_airdrop":
        assert game.state.turn < 3
        game.play(player.choose(rs, game.state, game.decision))
    assert game.state.turn == 2
    drops = [a for a in game.decision.options if a.kind == "drop"]
    zones = {a["to"] for a in drops}
    assert zones and all(not game.state.pieces_at(h) for h in zones)
    crowded = next(p.space for p in game.state.pieces.values() if p.owner == "Allies" and p.space[:1].isdigit())
    why = flow.why_not(rs, game.state, Action("drop", {"u": waiting[0], "to": crowded}))
    assert why == "a paratrooper lands on an empty hex at most 4 hexes from a friendly combat unit"
    game.play(drops[0])
    assert game.state.pieces[drops[0]["u"]].space == drops[0]["to"]
    game.play(game.decision.finish)
    while game.decision is not None and game.state.turn == 2:
        game.play(player.choose(rs, game.state, game.decision))
    while game.decision is not None and game.state.turn <= 4:
        assert game.decision.kind != "axis_airdrop"
        game.play(player.choose(rs, game.state, game.decision))


def test_a_paratrooper_waiting_for_the_drop_does_not_ride_a_truck_on() -> None:
    # issue 36 item 21: on turn 1 an off-board Axis truck could load a Paratrooper (it is
    # cargo, like infantry) and drive it onto the board, skipping the drop
    from engine import flow, plugins
    from engine.actions import Action
    from engine.game import Game

    rs = plugins.load(EXAMPLES_DIR / "bulge-paratroopers")
    game = Game(rs, None, seed=1)
    waiting = [p.id for p in game.state.pieces.values() if p.kind == "Paratrooper"]
    while game.decision is not None and game.decision.kind != "axis_reinforce":
        game.play(game.decision.finish)
    assert game.state.turn == 1
    loads = [a for a in game.decision.options if a.kind == "load"]
    assert loads and not any(a["piece"] in waiting for a in loads)       # the truck loads, but no paratrooper
    truck = loads[0]["truck"]
    why = flow.why_not(rs, game.state, Action("load", {"truck": truck, "piece": waiting[0]}))
    assert why is not None and "cannot be loaded" in why


def test_st_vith_falling_on_the_last_turn_is_an_axis_win() -> None:
    # issue 36 item 21: the Allies' win at the end of the last turn came first, and the Axis
    # win when St. Vith fell on that turn was never heard
    from engine import flow, plugins

    rs = plugins.load(EXAMPLES_DIR / "bulge-st-vith")
    state = rs.logic.new_state("st-vith", 0)
    for pid in list(state.pieces):
        state.remove(pid)
    structure = rs.structure
    flow.fire(rs, state, structure.begin(state))
    while not (state.turn == 6 and structure.step(state) == "allies_unload"):
        flow.fire(rs, state, structure.advance(state))
    state.add_piece("Infantry", "Axis", "1709")          # the Axis ends the last turn's movement in St. Vith
    flow.settle(rs, state)
    assert state.result["winner"] == "Axis" and state.result["reason"] == "St. Vith fell on turn 6"
