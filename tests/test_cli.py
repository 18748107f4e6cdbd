"""The `wargame` command as a player or modder meets it."""

from __future__ import annotations

import json

import pytest

from clients.cli import main
from tests.conftest import SKIRMISH

MOD = ["--mod", str(SKIRMISH)]


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
                                          "doc": "victory points that win at once"}


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
    code, out, _ = run(capsys, "check", str(SKIRMISH))
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
    answers = iter(["help", "map", "1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, *MOD, "play", "skirmish", "--no-gui", "--seed", "1")
    assert code == 0
    assert "Red: Attack, or pass" in out and "map HEX" in out


@pytest.mark.parametrize("argv", [["replay", "/nonexistent.json"], ["info", "nosuchgame"]])
def test_bad_input_is_a_one_line_error_not_a_traceback(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 1 and err.startswith("wargame:") and "Traceback" not in err


def test_check_one_file_of_a_ruleset_checks_it_with_its_siblings(capsys):
    code, out, _ = run(capsys, "check", "rulesets/bulge/rules/combat.rules")
    assert code == 0 and out.strip().endswith("ok")
