"""`wargame rules diff BASE MOD` and the layers `wargame info` names, as a modder meets them:
the CLI run on the shipped example mods and on small mods written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "bulge-house-rules"
CROSSING = ROOT / "examples" / "river-crossing"
LHTR_HOUSE = ROOT / "tests" / "lhtr" / "house"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_mod(folder: Path, manifest: dict, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    (folder / "ruleset.json").write_text(json.dumps(manifest))
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


# -- the shipped example mods ----------------------------------------------------------------
def test_the_bulge_house_rules_diff_names_each_change_in_a_players_words(capsys):
    code, out, err = run(capsys, "rules", "diff", "bulge", str(HOUSE))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "bulge-house-rules against bulge (layers: bulge, bulge-house-rules)"
    assert "  stacking_rulebook: false -> true (house.rules:5)" in lines
    assert '  supply_income: {"Axis": 9, "Allies": 11} -> {"Axis": 9, "Allies": 12} (house.rules:8)' in lines
    assert "  aa_dice: changed (house.rules:12)" in lines
    # the procedure's body as a unified diff, numbered as the two files are
    assert any(ln.startswith("    --- bulge: rules/air.rules:") for ln in lines)
    assert "    +++ bulge-house-rules: house.rules:12" in lines
    assert "    +    return min(base(ground) + 1, aa_max_dice)" in lines
    assert any(ln.startswith("    @@ -") and ln.endswith(" +12,3 @@") for ln in lines)
    # nothing the mod leaves alone
    assert "units:" not in lines and "phases:" not in lines and "map:" not in lines
    assert lines[-1] == "3 changes: 2 options, 1 procedure"


def test_the_diff_as_json_and_the_mod_by_name(capsys):
    code, out, _ = run(capsys, "--mod", str(HOUSE), "rules", "diff", "bulge", "bulge-house-rules", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["base"] == "bulge" and d["mod"] == "bulge-house-rules" and d["extends"] is True
    assert d["summary"] == "3 changes: 2 options, 1 procedure"
    assert set(d["changes"]) == {"options", "procedures"}
    stacking = next(c for c in d["changes"]["options"] if c["name"] == "stacking_rulebook")
    assert stacking == {"name": "stacking_rulebook", "change": "changed", "details": ["false -> true"],
                        "where": "house.rules:5", "old": False, "new": True}
    (aa,) = d["changes"]["procedures"]
    assert aa["name"] == "aa_dice" and aa["change"] == "changed" and "+    return min(base(ground) + 1, aa_max_dice)" in aa["diff"]


def test_the_lhtr_house_layer_diff(capsys):
    code, out, _ = run(capsys, "rules", "diff", "lhtr", str(LHTR_HOUSE))
    assert code == 0
    assert "  victory_cities: 9 -> 10 (house.rules:4)" in out
    assert "  price: changed (house.rules:7)" in out and "+    return base(kind, p)" in out
    assert "  sea_step_ok: changed (house.rules:15)" in out
    assert "  blocks_ships: added (house.rules:22)" in out
    assert "rules:\n  convoy_levy: added (house.rules:27)" in out
    assert out.rstrip().endswith("5 changes: 1 option, 3 procedures, 1 rule")


def test_a_ruleset_against_itself_has_no_differences(capsys):
    code, out, _ = run(capsys, "rules", "diff", "bulge", "bulge")
    assert code == 0 and "no differences" in out


# -- layering: a mod over a mod -------------------------------------------------------------
@pytest.fixture()
def layered(tmp_path):
    """`outpost` over `ford` over river-crossing: units, tags, options, the turns, a phase and
    its step, a procedure, a rule, a variable and a map change."""
    base = CROSSING
    ford = write_mod(tmp_path / "ford", {"name": "ford", "extends": "river-crossing", "rules": ["ford.rules"]}, {
        "ford.rules": "extends river-crossing\n"
                      "override option stack = 4\n"
                      "override unit Tank { attack: 4 }\n"
                      "override procedure enemy(side: str) -> str {\n"
                      "    return if side == Red then Blue else Red\n"
                      "}\n"
                      "override turns 10\n"})
    outpost = write_mod(tmp_path / "outpost", {
        "name": "outpost", "extends": "ford", "rules": ["outpost.rules"], "map_changes": "map-changes.json"}, {
        "outpost.rules": "extends ford\n"
                         "override option stack = 3\n"
                         "tag elite\n"
                         "unit Guard [elite] { attack: 2  defence: 3 }\n"
                         "override unit Infantry { move: 2 }\n"
                         "phase rally after movement { steps [rally] }\n"
                         "step rally {\n    start {\n        note(\"rally\")\n    }\n}\n"
                         "rule cheer on turn_start(t) {\n    note(\"turn \" + str(t))\n}\n"
                         "var cheers: int = 0 each turn \"cheers this turn\"\n",
        "map-changes.json": json.dumps({
            "format": "wargame-map-changes/1",
            "remove_links": [{"a": "0401", "b": "0501", "why": "the ford is flooded"}],
            "spaces": [{"id": "0702", "attrs": {"fort": True}, "why": "an outpost"}]})})
    return base, ford, outpost


def test_a_mod_over_a_mod_shows_everything_against_the_first_base(capsys, layered):
    base, ford, outpost = layered
    code, out, _ = run(capsys, "--mod", str(ford), "rules", "diff", str(base), str(outpost))
    assert code == 0, out
    assert out.startswith("outpost against river-crossing (layers: river-crossing, ford, outpost)")
    # ford raised `stack` to 4, outpost set it back: no change against river-crossing
    assert "stack:" not in out
    assert "tags:\n  elite: added (outpost.rules:3)\n    carried by: Guard" in out
    assert "  Guard: added (outpost.rules:4)\n    [elite]: attack 2, defence 3" in out
    assert "  Tank: attack: 3 -> 4 (ford: ford.rules:3)" in out     # another layer than the mod
    assert "  Infantry: move: 1 -> 2 (outpost.rules:5)" in out
    assert "  enemy: changed (ford: ford.rules:4)" in out and "+    return if side == Red then Blue else Red" in out
    assert "  rally: added (outpost.rules:6)\n    after movement, steps: rally" in out
    assert "steps:\n  rally: added (outpost.rules:7)" in out
    assert "rules:\n  cheer: added (outpost.rules:12)" in out
    assert "  order: movement, combat -> movement, rally, combat" not in out   # common phases keep their order
    assert "turns and powers:\n  turns: 8 -> 10 (ford: ford.rules:7)" in out
    assert 'game variables:\n  cheers: added (outpost.rules:15)\n    int = 0 each turn "cheers this turn"' in out
    assert "map:\n  map.json: changed (map-changes.json)" in out
    assert "    link removed: 0401 - 0501 (the ford is flooded)" in out
    assert "    0702: fort (none) -> true (an outpost)" in out


def test_against_its_own_base_a_mod_shows_only_its_own_changes(capsys, layered):
    base, ford, outpost = layered
    code, out, _ = run(capsys, "--mod", str(base), "--mod", str(ford), "rules", "diff", "ford", str(outpost), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["base_chain"] == ["river-crossing", "ford"]
    assert [c["name"] for c in d["changes"]["options"]] == ["stack"]
    assert d["changes"]["options"][0]["old"] == 4 and d["changes"]["options"][0]["new"] == 3
    assert [c["name"] for c in d["changes"]["units"]] == ["Guard", "Infantry"]     # not ford's Tank
    assert "procedures" not in d["changes"]                                         # not ford's enemy


def test_a_new_scenario_is_told_with_its_map_and_pieces(capsys, tmp_path):
    scenario = json.loads((CROSSING / "scenario.json").read_text())
    scenario.update(name="night", title="A night crossing", pieces=scenario["pieces"][:3])
    mod = write_mod(tmp_path / "night", {
        "name": "night", "extends": "river-crossing", "rules": ["n.rules"],
        "scenarios": [{"name": "night", "title": "A night crossing", "file": "night.json"}]}, {
        "n.rules": "extends river-crossing\n", "night.json": json.dumps(scenario),
        "map.json": (CROSSING / "map.json").read_text()})
    code, out, _ = run(capsys, "rules", "diff", str(CROSSING), str(mod))
    assert code == 0, out
    assert "scenarios:\n  night: added (night.json)\n    A night crossing\n    map: map.json \"The Sambre crossing\": 48 spaces" in out
    assert "    pieces: 4 (3 Blue Infantry, 1 Blue Tank)" in out
    assert "sambre" not in out          # the base's scenario is still played


# -- errors are wargame: lines -----------------------------------------------------------------
def test_errors_are_one_line_not_tracebacks(capsys, tmp_path):
    code, _, err = run(capsys, "rules", "diff", "bulgee", str(HOUSE))
    assert code == 1 and err.startswith("wargame: no ruleset called `bulgee`") and "bulge" in err
    code, _, err = run(capsys, "rules", "diff", "bulge", "no-such-mod")
    assert code == 1 and err.startswith("wargame: no ruleset called `no-such-mod`")
    code, _, err = run(capsys, "rules", "diff", "bulge", str(tmp_path))
    assert code == 1 and err.startswith("wargame: ") and "no ruleset.json here" in err
    code, _, err = run(capsys, "rules")
    assert code == 2 and "diff" in err
    assert "Traceback" not in err


def test_a_broken_mod_shows_its_rules_errors(capsys, tmp_path):
    mod = write_mod(tmp_path / "broken", {"name": "broken", "extends": "bulge", "rules": ["b.rules"]},
                    {"b.rules": "extends bulge\noverride unit Tank { atack: 3 }\n"})
    code, out, err = run(capsys, "rules", "diff", "bulge", str(mod))
    assert code == 1 and out == ""
    assert "b.rules:2:" in err and "unknown stat `atack`" in err and "Traceback" not in err


# -- wargame info: each option's value, its base default and the layer that set it -------------
def test_info_says_which_layer_set_an_option(capsys):
    code, out, _ = run(capsys, "--mod", str(HOUSE), "info", "bulge-house-rules", "--option", "stacking_limit=5")
    assert code == 0
    lines = out.splitlines()
    assert "  die: int = 12 (bulge): sides of the combat die" in lines
    line = next(ln for ln in lines if ln.startswith("  stacking_rulebook:"))
    assert line.startswith("  stacking_rulebook: bool = true (set by bulge-house-rules; bulge's default: false): ")
    line = next(ln for ln in lines if ln.startswith("  stacking_limit:"))
    assert line.startswith("  stacking_limit: int = 5 (--option; default 4 set by bulge): ")


def test_info_json_keeps_its_keys_and_adds_the_layers(capsys):
    code, out, _ = run(capsys, "--mod", str(HOUSE), "info", "bulge-house-rules", "--json")
    assert code == 0
    o = json.loads(out)["options"]["supply_income"]
    assert o["value"] == o["default"] == {"Axis": 9, "Allies": 12}
    assert o["base_default"] == {"Axis": 9, "Allies": 11}
    assert o["declared_by"] == "bulge" and o["set_by"] == "bulge-house-rules" and "value_from" not in o
    assert [x["ruleset"] for x in o["layers"]] == ["bulge", "bulge-house-rules"]
    assert o["layers"][0]["where"].startswith("rules/units.rules:") and o["layers"][1]["where"] == "house.rules:8"
    die = json.loads(out)["options"]["die"]
    assert die["set_by"] == die["declared_by"] == "bulge" and "layers" not in die


def test_a_mod_with_python_needs_trust_and_the_diff_says_it_may_do_more(capsys, tmp_path):
    mod = write_mod(tmp_path / "coded", {"name": "coded", "extends": "bulge", "rules": ["c.rules"], "plugin": "p.py"},
                    {"c.rules": "extends bulge\noverride option stacking_limit = 5\n", "p.py": "X = 1\n"})
    code, _, err = run(capsys, "rules", "diff", "bulge", str(mod))
    assert code == 1 and err.startswith("wargame: the mod `coded`") and "--trust-code" in err
    code, out, _ = run(capsys, "--trust-code", "rules", "diff", "bulge", str(mod))
    assert code == 0 and "  stacking_limit: 4 -> 5 (c.rules:2)" in out
    assert "note: `coded` has a Python plugin (`p.py`): it may change the game beyond what its rules" in out


def test_an_option_says_how_sure_its_new_value_is(capsys):
    code, out, _ = run(capsys, "rules", "diff", "aarhe", str(ROOT / "examples" / "aarhe-lend-lease-doubled"))
    assert code == 0
    assert "  lend_lease_cap: changed (lend-lease.rules:6)\n    12 -> 24\n" in out
    assert any(ln.startswith("    status: ") and ln.endswith(' -> "house"') for ln in out.splitlines())
    assert '    source: ' in out and '-> "our table\'s house rule"' in out


def test_a_mod_that_makes_teams_names_them_and_the_phases_played_together(capsys, tmp_path):
    mod = write_mod(tmp_path / "allies", {"name": "allies", "extends": "river-crossing", "rules": ["allies.rules"]}, {
        "allies.rules": "extends river-crossing\nteams [[Blue, Red]] together [combat]\n"})
    code, out, _ = run(capsys, "rules", "diff", str(CROSSING), str(mod))
    assert code == 0, out
    assert "  teams: no teams -> teams [[Blue, Red]] together [combat] (allies.rules:2)" in out


def test_a_long_diff_opens_with_a_one_screen_summary_for_players(capsys):
    code, out, _ = run(capsys, "rules", "diff", "lhtr", "aarhe")
    lines = out.splitlines()
    assert code == 0 and len(lines) <= 60 and max(len(ln) for ln in lines) <= 100
    # the house rules in the layer's own words (its README's table of files), then each kind of change
    assert any(ln.startswith("  economy.rules: phase 1: income first") for ln in lines)
    assert any("convoy raids, partisans" in ln for ln in lines)
    assert "what changes:" in lines and any(ln.startswith("  procedures: ") for ln in lines)
    assert lines[-1] == "(every change with its rules text: wargame rules diff lhtr aarhe --full)"
    assert "--- " not in out                                   # no procedure's text
    code, full, _ = run(capsys, "rules", "diff", "lhtr", "aarhe", "--full")
    assert full.count("\n") > 1000 and "    +++ aarhe: " in full
