"""The `wargame` command as a player or modder meets it."""

from __future__ import annotations

import json

import pytest

from clients.cli import main
from tests.conftest import SKIRMISH

MOD = ["--trust-code", "--mod", str(SKIRMISH)]    # skirmish has a plugin.py: ours, trusted


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rulesets_lists_installed_and_mod_rulesets(capsys):
    code, out, _ = run(capsys, *MOD, "rulesets")
    assert code == 0
    assert "skirmish: Skirmish" in out and "hill: The hill" in out


def test_info_json_gives_the_scenario_facts_and_options(capsys):
    code, out, _ = run(capsys, *MOD, "info", "skirmish", "--json", "--option", "win_vp=5")
    facts = json.loads(out)
    assert code == 0
    assert facts["scenario"] == "hill" and facts["spaces"] == 20
    assert facts["options"]["win_vp"] == {"value": 5, "default": 3, "type": "int",
                                          "doc": "victory points that win at once",
                                          "base_default": 3, "declared_by": "skirmish", "set_by": "skirmish",
                                          "value_from": "--option"}


def test_unknown_option_is_a_clear_error(capsys):
    code, _, err = run(capsys, *MOD, "info", "skirmish", "--option", "win_pv=5")
    assert code == 1 and "win_pv" in err and "win_vp" in err


def test_play_with_every_side_computer_prints_the_result(capsys, tmp_path):
    save_file = tmp_path / "g.json"
    code, out, _ = run(capsys, *MOD, "play", "skirmish", "--ai", "all", "--seed", "4", "--save", str(save_file))
    assert code == 0
    assert "result: winner: " in out or "result: draw" in out
    code, out, _ = run(capsys, *MOD, "replay", str(save_file))
    assert code == 0 and "matches the save exactly" in out


def test_ai_for_an_unknown_side_is_refused(capsys):
    code, _, err = run(capsys, *MOD, "play", "skirmish", "--ai", "green")
    assert code == 1 and "no side `green`" in err and "Red, Blue" in err


def test_check_a_clean_ruleset(capsys):
    # its rules are clean; check sets up its scenarios too, and one (for the tests) does not add up
    code, out, err = run(capsys, "--trust-code", "check", str(SKIRMISH))
    assert code == 1 and err.strip() == "1 error"
    assert out.strip() == "scenario `broken`: piece #3 stands in `limbo:Red`, which is not on the board"
    code, out, _ = run(capsys, "check", "examples/bulge-house-rules")
    assert code == 0 and "ok" in out


def test_check_a_broken_mod_prints_every_error_with_its_position(capsys, tmp_path):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "ruleset.json").write_text(json.dumps(
        {"name": "broken-house", "extends": "skirmish", "rules": ["house.rules"]}))
    (mod / "house.rules").write_text(
        "extends skirmish\n"
        "override option win_vp = \"three\"\n"
        "unit Jeep [combat] { atack: 1 }\n")
    code, out, err = run(capsys, *MOD, "check", str(mod))
    assert code == 1
    assert "house.rules:2:" in out and "house.rules:3:" in out
    assert "did you mean `attack`?" in out
    assert "2 errors" in err


def test_play_in_the_terminal_reads_answers(monkeypatch, capsys):
    answers = iter(["help", "map", "1", "quit", "n"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, *MOD, "play", "skirmish", "--no-gui", "--seed", "1")
    assert code == 0
    assert "Red: Move" in out and "map HEX" in out
    assert "not saved" in out                  # a move no file keeps: quitting asked, and said so


@pytest.mark.parametrize("argv", [["replay", "/nonexistent.json"], ["info", "nosuchgame"]])
def test_bad_input_is_a_one_line_error_not_a_traceback(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 1 and err.startswith("wargame:") and "Traceback" not in err


def test_check_one_file_of_a_ruleset_checks_it_with_its_siblings(capsys):
    code, out, _ = run(capsys, "check", "rulesets/bulge/rules/combat.rules")
    assert code == 0 and out.strip().endswith("ok")


# -- a mod's Python runs only when trusted -------------------------------------------------------------
def _mod_with_code(tmp_path):
    mod = tmp_path / "coded"
    mod.mkdir()
    marker = tmp_path / "the-plugin-ran"
    (mod / "ruleset.json").write_text(json.dumps(
        {"name": "coded", "extends": "bulge", "rules": ["house.rules"], "plugin": "p.py"}))
    (mod / "house.rules").write_text("extends bulge\noverride option stacking_limit = 5\n")
    (mod / "p.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    return mod, marker


def test_a_mods_python_is_never_run_without_trust_code(capsys, tmp_path):
    mod, marker = _mod_with_code(tmp_path)
    code, out, _ = run(capsys, "--mod", str(mod), "rulesets")
    assert code == 0 and "coded (extends bulge)" in out and "needs --trust-code" in out
    code, out, _ = run(capsys, "--mod", str(mod), "check", str(mod))
    assert code == 0 and out.strip().endswith("ok")
    assert "note: " in out and "`p.py` was not imported" in out
    for argv in (["info", "coded"], ["play", "coded", "--ai", "all"]):
        code, _, err = run(capsys, "--mod", str(mod), *argv)
        assert code == 1 and err.startswith("wargame: the mod `coded`")
        assert "contains Python code (`p.py`)" in err and "--trust-code" in err
    assert not marker.exists()
    code, out, _ = run(capsys, "--trust-code", "--mod", str(mod), "info", "coded", "--json")
    assert code == 0 and json.loads(out)["options"]["stacking_limit"]["value"] == 5
    assert marker.exists()


# -- saves name their mods, never folders ---------------------------------------------------------------
HOUSE = SKIRMISH.parents[2] / "examples" / "bulge-house-rules"


def test_a_modded_save_names_its_mod_and_needs_the_folder_given(capsys, tmp_path):
    saved = tmp_path / "house.json"
    code, _, _ = run(capsys, "--mod", str(HOUSE), "play", "bulge-house-rules", "--ai", "all=random", "--seed", "3",
                     "--quiet", "--option", "last_turn=2", "--save", str(saved))
    assert code == 0
    text = saved.read_text()
    data = json.loads(text)
    assert data["schema_version"] == 2
    assert [(m["name"], len(m["fingerprint"])) for m in data["mods"]] == [("bulge-house-rules", 64)]
    assert str(HOUSE) not in text and "examples" not in text
    for argv in (["replay", str(saved)], ["play", "--load", str(saved), "--ai", "all"]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "played with the mod `bulge-house-rules`" in err and "--mod DIR" in err
    code, out, _ = run(capsys, "--mod", str(HOUSE), "replay", str(saved))
    assert code == 0 and "matches the save exactly" in out
    code, out, _ = run(capsys, "--mod", str(HOUSE), "play", "--load", str(saved), "--ai", "all", "--quiet")
    assert code == 0 and "result:" in out


def test_a_mod_whose_files_changed_is_refused_for_a_save(capsys, tmp_path):
    import shutil

    saved = tmp_path / "house.json"
    run(capsys, "--mod", str(HOUSE), "play", "bulge-house-rules", "--ai", "all=random", "--seed", "3",
        "--quiet", "--option", "last_turn=1", "--save", str(saved))
    changed = tmp_path / "house-copy"
    shutil.copytree(HOUSE, changed)
    assert run(capsys, "--mod", str(changed), "replay", str(saved))[0] == 0   # a copy is the same mod
    with (changed / "house.rules").open("a") as f:
        f.write("\n# one more line\n")
    code, _, err = run(capsys, "--mod", str(changed), "replay", str(saved))
    assert code == 1 and "is not the one this game was played with" in err and "refused" in err


def test_info_tells_the_powers_the_victory_cities_and_a_layers_house_rules(capsys):
    assert main(["info", "lhtr"]) == 0
    out = capsys.readouterr().out
    assert "  - Germany (Axis): 40 IPCs, income 40, capital Germany" in out
    assert "  - Berlin in Germany, held by Germany" in out and "holding 9 of them" in out
    assert "house_rules" not in out
    assert main(["info", "aarhe"]) == 0
    out = capsys.readouterr().out
    rules = out.split("house_rules:\n")[1]
    assert "  - economy.rules: phase 1: income first, economic damage" in rules
    assert "scorched earth" in rules and "xenophobia" in rules
