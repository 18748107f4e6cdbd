"""Playing, refusing, undoing, saving, loading and replaying a game of the test ruleset."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clients.players import RandomPlayer
from engine import plugins, save
from engine.actions import Action, IllegalAction
from engine.game import Game, ScenarioError
from tests.conftest import SKIRMISH

MODS = [SKIRMISH]      # a save names its mods; the player gives their folders


def play_out(game: Game, seed: int = 0, limit: int = 10_000) -> Game:
    player = RandomPlayer(seed)
    for _ in range(limit):
        if game.over:
            return game
        game.play(player.choose(game.ruleset, game.state, game.decision))
    raise AssertionError("the game did not end")


def test_a_random_game_ends_with_a_result(skirmish):
    game = play_out(Game(skirmish, "hill", seed=11), seed=11)
    assert game.result is not None and game.result.reason
    assert game.decision is None
    with pytest.raises(IllegalAction, match="the game is over"):
        game.play(Action("pass"))


def _calls(rs, house=False):
    return next(p.CALLS for p in rs.plugins.get_plugins()
                if hasattr(p, "CALLS") and ("house" in p.__name__) == house)


def test_the_hooks_are_called_at_each_boundary(skirmish):
    calls = _calls(skirmish)
    calls.clear()
    game = play_out(Game(skirmish, "hill", seed=1), seed=1)
    assert calls[:3] == ["check_scenario", "turn_start 1", "phase_start combat"]
    assert "phase_end combat" in calls and "turn_end 1" in calls
    assert calls.index("phase_start combat") < calls.index("phase_end combat") < calls.index("phase_start movement")
    if game.state.turn == 6 and "Red has no" not in game.result.reason and "Blue has no" not in game.result.reason:
        assert calls[-1] == "game_end" or game.result.reason.endswith("VP")


def test_an_extending_ruleset_overrides_options_and_its_hooks_run_after_the_base():
    house = plugins.load(SKIRMISH.parent / "skirmish_house", paths=[SKIRMISH], trust_code=True)
    assert house.options["win_vp"] == 1
    assert [i.name for i in house.chain] == ["skirmish", "skirmish-house"]
    game = Game(house, "hill", seed=1)
    hooks = [(d["by"], d["name"]) for kind, d in game.log if kind == "hook"]
    assert hooks[:2] == [("skirmish", "phase_start combat"), ("skirmish-house", "phase_start combat")]


def test_a_scenario_that_does_not_add_up_is_refused(skirmish):
    with pytest.raises(ScenarioError, match="not on the board"):
        Game(skirmish, "broken", seed=1)


def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing(skirmish):
    game = Game(skirmish, "hill", seed=2)
    assert game.decision.kind == "move"        # nobody can attack yet: Red's attacks passed by themselves
    before = game.state.signature()
    with pytest.raises(IllegalAction, match=r"^`attack` is not a move of move \(its moves: move, finish\)$"):
        game.play(Action("attack", {"from": "0,0", "to": "1,0"}))     # attacks are made in the combat phase
    with pytest.raises(IllegalAction, match=r"^`fly` is not a move of move"):
        game.play(Action("fly"))                                       # an unknown action
    with pytest.raises(IllegalAction, match=r"^piece #4 is not Red's$"):
        game.play(Action("move", {"piece": 4, "to": "3,0"}))
    with pytest.raises(IllegalAction, match=r"^Infantry #1 cannot move from 0,0 to 2,0$"):
        game.play(Action("move", {"piece": 1, "to": "2,0"}))
    assert game.state.signature() == before and game.actions == []


actions = st.one_of(
    st.builds(lambda p, c, r: Action("move", {"piece": p, "to": f"{c},{r}"}),
              st.integers(0, 8), st.integers(-1, 5), st.integers(-1, 4)),
    st.builds(lambda a, b: Action("attack", {"from": a, "to": b}),
              st.sampled_from(["0,0", "0,1", "4,1", "x"]), st.sampled_from(["1,1", "4,0", "2,1"])),
    st.sampled_from([Action("pass"), Action("done"), Action("nonsense")]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), moves=st.lists(actions, max_size=30))
def test_refused_actions_never_lose_a_unit(skirmish, seed, moves):
    """Whatever is thrown at it, a refused action leaves the state exactly as it was."""
    game = Game(skirmish, "hill", seed=seed)
    for action in moves:
        if game.over:
            break
        before = game.state.signature()
        n_pieces = len(game.state.pieces)
        try:
            game.play(action)
        except IllegalAction as e:
            assert e.reason
            assert game.state.signature() == before
            assert len(game.state.pieces) == n_pieces


def test_undo_takes_back_moves_within_the_step(skirmish):
    game = Game(skirmish, "hill", seed=4)
    while game.decision.kind != "move":
        game.play(game.decision.finish)
    before = game.state.signature()
    game.play(game.decision.options[0])
    assert game.can_undo()
    game.undo()
    assert game.state.signature() == before
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo()


def test_save_load_round_trip_and_exact_replay(skirmish, tmp_path):
    game = play_out(Game(skirmish, "hill", seed=5), seed=5)
    path = tmp_path / "game.json"
    save.save(game, path)
    report = save.replay(path, MODS, trust_code=True)
    assert report.matches and report.fingerprint_ok
    assert report.game.state.signature() == game.state.signature()
    assert len(report.game.actions) == len(game.actions)


def test_a_game_saved_midway_goes_on_identically(skirmish, tmp_path):
    game = Game(skirmish, "hill", seed=8)
    player = RandomPlayer(8)
    for _ in range(12):
        game.play(player.choose(skirmish, game.state, game.decision))
    path = tmp_path / "mid.json"
    save.save(game, path)
    loaded = save.load(path, MODS, trust_code=True)
    assert loaded.state.signature() == game.state.signature()
    for _ in range(10):
        if game.over:
            break
        action = player.choose(skirmish, game.state, game.decision)
        game.play(action)
        loaded.play(action)
    assert loaded.state.signature() == game.state.signature()


@pytest.mark.parametrize("mangle, message", [
    (lambda text: text[: len(text) // 2], "damaged save file, not valid JSON"),
    (lambda text: "[]", "not a wargame save file"),
    (lambda text: text.replace('"schema_version": 2', '"schema_version": 99'), "schema version 99"),
    (lambda text: text.replace('"seed": 5', '"seed": "five"'), "seed"),
    (lambda text: text.replace('"ruleset": "skirmish"', '"ruleset": "chess"'), "no ruleset called `chess`"),
])
def test_damaged_saves_are_refused_clearly(skirmish, tmp_path, mangle, message):
    game = play_out(Game(skirmish, "hill", seed=5), seed=5)
    path = tmp_path / "game.json"
    save.save(game, path)
    path.write_text(mangle(path.read_text()))
    with pytest.raises(save.SaveError, match=message):
        save.load(path, MODS, trust_code=True)


def test_a_tampered_state_is_detected(skirmish, tmp_path):
    game = play_out(Game(skirmish, "hill", seed=6), seed=6)
    path = tmp_path / "game.json"
    save.save(game, path)
    data = json.loads(path.read_text())
    data["state"]["turn"] += 1
    path.write_text(json.dumps(data))
    assert not save.replay(path, MODS, trust_code=True).matches
    with pytest.raises(save.SaveError, match="does not give the saved state"):
        save.load(path, MODS, trust_code=True)


def test_options_change_the_rules_and_are_saved(tmp_path):
    rs = plugins.load(SKIRMISH, options={"win_vp": "1"}, trust_code=True)
    assert rs.options["win_vp"] == 1
    game = play_out(Game(rs, "hill", seed=3), seed=3)
    path = tmp_path / "opt.json"
    save.save(game, path)
    assert json.loads(path.read_text())["options"] == {"win_vp": 1}
    assert save.replay(path, MODS, trust_code=True).matches


def test_a_save_names_its_mods_by_name_and_fingerprint_not_folder(skirmish, tmp_path):
    game = play_out(Game(skirmish, "hill", seed=5), seed=5)
    path = tmp_path / "game.json"
    save.save(game, path)
    data = json.loads(path.read_text())
    assert [(m["name"], m["version"]) for m in data["mods"]] == [("skirmish", "1")]
    assert str(SKIRMISH) not in path.read_text()
    with pytest.raises(save.SaveError, match="played with the mod `skirmish`.*--mod DIR"):
        save.replay(path)
    with pytest.raises(plugins.UntrustedCode, match="contains Python code"):
        save.replay(path, MODS)


def test_a_save_is_refused_with_a_mod_whose_files_differ(skirmish, tmp_path):
    import shutil

    game = play_out(Game(skirmish, "hill", seed=5), seed=5)
    path = tmp_path / "game.json"
    save.save(game, path)
    copy = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH, copy)
    (copy / "plugin.py").write_text((copy / "plugin.py").read_text() + "\n# changed\n")
    with pytest.raises(save.SaveError, match="is not the one this game was played with"):
        save.replay(path, [copy], trust_code=True)


@pytest.mark.parametrize("version, message", [
    (1, "schema version 1 by an older wargame"), (7, "by a newer wargame"), ("2", "damaged save file")])
def test_other_schema_versions_get_a_clear_message(skirmish, tmp_path, version, message):
    game = Game(skirmish, "hill", seed=1)
    path = tmp_path / "game.json"
    save.save(game, path)
    data = json.loads(path.read_text())
    data["schema_version"] = version
    path.write_text(json.dumps(data))
    with pytest.raises(save.SaveError, match=message):
        save.read(path)


def test_a_mod_folder_is_only_read_until_trusted(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "ruleset.json").write_text(json.dumps({"name": "m", "extends": "skirmish", "rules": ["m.rules"],
                                                     "plugin": "p.py"}))
    (folder / "m.rules").write_text("extends skirmish\n")
    (folder / "p.py").write_text("raise SystemExit('the plugin ran')\n")
    found = plugins.discover([folder, SKIRMISH])
    assert found["m"][0].has_code and not found["m"][0].trusted
    with pytest.raises(plugins.UntrustedCode):
        plugins.load(folder, paths=[SKIRMISH], trust_code=False)
    diagnostics = plugins.check(folder, [SKIRMISH])
    assert [d.severity for d in diagnostics if "was not imported" in d.message] == ["note", "note"]
