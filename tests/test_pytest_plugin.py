"""`pytest --wargame-mod DIR`, the standard checks of a mod, as its author meets them: pytest
run (in this process, by pytester) on the shipped example mod and on mods written here."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "bulge-house-rules"
CROSSING = ROOT / "examples" / "river-crossing"


@pytest.fixture()
def modtest(pytester, monkeypatch):
    """pytest with the plugin and nothing else installed (as after `pip install wargame`, whether or
    not its entry point is installed yet), run in an empty folder."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")

    def run(*args: str):
        return pytester.runpytest_inprocess("-p", "clients.pytest_plugin", "-p", "no:cacheprovider", "-rfs", *args)

    return run


def write_mod(folder: Path, manifest: dict, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    (folder / "ruleset.json").write_text(json.dumps(manifest))
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_the_example_house_rules_pass_and_the_header_shows_the_rules_diff(modtest):
    result = modtest(f"--wargame-mod={HOUSE}", "--wargame-games=2", "-v")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines([
        f"wargame mod: bulge-house-rules ({HOUSE}, extends bulge)",
        "  bulge-house-rules against bulge (layers: bulge, bulge-house-rules)",
        "    stacking_rulebook: false -> true (house.rules:5)",
        "    aa_dice: changed (house.rules:12)",
        "*+    return min(base(ground) + 1, aa_max_dice)",
        "  3 changes: 2 options, 1 procedure",
        "*collected 5 items*",
        "wargame-mod:bulge-house-rules::check PASSED*",
        "wargame-mod:bulge-house-rules::scenario[[]ardennes-1944[]] PASSED*",
        "wargame-mod:bulge-house-rules::random_game[[]ardennes-1944-seed0[]] PASSED*",
        "wargame-mod:bulge-house-rules::random_game[[]ardennes-1944-seed1[]] PASSED*",
        "wargame-mod:bulge-house-rules::rules_diff PASSED*",
    ])


def test_a_broken_mod_fails_its_check_with_the_compilers_message(modtest, tmp_path):
    mod = write_mod(tmp_path / "jeeps", {"name": "jeeps", "extends": "bulge", "rules": ["house.rules"]}, {
        "house.rules": "extends bulge\n\nunit Jeep [combat] { atack: 1 }\n"})
    result = modtest(f"--wargame-mod={mod}")
    result.assert_outcomes(failed=1, skipped=4)     # 3 random games and the diff
    result.stdout.fnmatch_lines([
        "  rules diff: it does not load: *house.rules:3:22: unknown stat `atack` in unit `Jeep`",
        "*_ wargame mod jeeps: check _*",
        f"jeeps ({mod}): wargame check failed",
        f"{mod}/house.rules:3:22: unknown stat `atack` in unit `Jeep`",
        "unit Jeep [[]combat[]] { atack: 1 }",
        "                     ^",
        "hint: did you mean `attack`?",
        "1 error",
        "FAILED wargame-mod:jeeps::check*",
        "SKIPPED*jeeps does not load (see its check)",
    ])
    assert "Traceback" not in result.stdout.str()


def test_a_scenario_that_does_not_add_up_is_the_modders_error_said_at_check(modtest, tmp_path):
    mod = tmp_path / "st-vith"
    mod.mkdir()
    for f in (ROOT / "examples" / "bulge-st-vith").iterdir():
        (mod / f.name).write_bytes(f.read_bytes())
    data = json.loads((mod / "st-vith.json").read_text())
    data["pieces"][2]["kind"] = "Tanks"
    data["pieces"][4]["space"] = "9999"
    (mod / "st-vith.json").write_text(json.dumps(data, indent=2))
    result = modtest(f"--wargame-mod={mod}", "--wargame-games=1")
    result.assert_outcomes(failed=3, passed=2)    # check, the scenario and the random game fail
    result.stdout.fnmatch_lines([
        f"bulge-st-vith ({mod}): wargame check failed",
        f"{mod}/st-vith.json:*:15: pieces[[]2]: unknown unit type `Tanks` (did you mean `Tank`?)",
        f"{mod}/st-vith.json:*:16: pieces[[]4] (Artillery): no space or off-board area `9999`",
        "*^",
        "2 errors",
    ])
    out = result.stdout.str()
    assert "a bug in wargame" not in out and "internal error" not in out
    assert "scenario `st-vith`: wargame: the scenario `st-vith` cannot" not in out
    result.stdout.fnmatch_lines(["*scenario `st-vith`: wargame: st-vith.json: pieces[[]2]: unknown unit type `Tanks`*"])


def test_a_broken_manifest_reads_clearly(modtest, tmp_path):
    mod = write_mod(tmp_path / "typo", {"name": "typo", "extends": "bulge", "rulez": ["house.rules"]}, {})
    result = modtest(f"--wargame-mod={mod}")
    result.assert_outcomes(failed=1, skipped=4)
    result.stdout.fnmatch_lines([
        f"typo ({mod}): wargame check failed",
        f"wargame: {mod}/ruleset.json: missing `rules`",
        f"{mod}/ruleset.json: unknown key `rulez` (did you mean `rules`?)",
    ])


def test_a_random_game_that_breaks_an_invariant_says_how_to_replay_it(modtest, tmp_path):
    mod = write_mod(tmp_path / "tanks", {"name": "tanks", "extends": "bulge", "rules": ["house.rules"]}, {
        "house.rules": "extends bulge\n"
                       "# a tank from nowhere each turn: Bulge never creates combat units in play\n"
                       "rule more_tanks on phase_start(phase) when phase == \"movement\" {\n"
                       "    create(\"Tank\", Axis, \"offboard:Axis\")\n"
                       "}\n"})
    result = modtest(f"--wargame-mod={mod}", "--wargame-games=1", "-k", "random_game")
    result.assert_outcomes(failed=1, deselected=3)
    result.stdout.fnmatch_lines([
        f"tanks ({mod}): a random game failed",
        "random game of `ardennes-1944`, seed 0: after action * at *, the state breaks an invariant: "
        "Axis gained a Tank (* -> *)",
        f"replay it: wargame --mod {mod} play tanks --scenario ardennes-1944 --ai all=random --seed 0 "
        "--max-turns 2 --save game.json",
    ])


def test_a_whole_game_has_no_diff_and_a_game_too_long_is_caught(modtest):
    # a game that takes more actions than allowed (here 5) reads as a step that never ends
    result = modtest(f"--wargame-mod={CROSSING}", "--wargame-games=1", "--wargame-max-actions=5")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "  rules diff: a whole game (no `extends`): there is no base to compare it with",
        "random game of `sambre`, seed 0: still at * after 5 actions (a step that never ends?*",
        "SKIPPED*river-crossing is a whole game (no `extends`): there is no base to compare it with",
    ])


def test_a_folder_that_is_not_there_is_a_usage_error(modtest, tmp_path):
    result = modtest(f"--wargame-mod={tmp_path / 'nowhere'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wargame-mod */nowhere: no such folder*"])


def test_the_plugin_is_registered_under_its_module_name():
    """The `pytest11` entry point; named as the module, so `-p clients.pytest_plugin` given
    while it is installed loads one plugin, not two."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"clients.pytest_plugin": "clients.pytest_plugin"}
