"""What a modder reaches for while writing a mod (issue 36, items 18-20): the units and their
stats (`info --units`), the procedures a base means to be overridden (`rules hooks`), a game's
log (`play --log`, `replay --log`), every problem of a mod's scenarios at `check`, and hints
that point at the real mistake. Each is tried as a modder meets it: the CLI on a small mod
folder in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

from clients.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_mod(folder, rules: str, name: str = "house", extends: str = "bulge", **manifest):
    folder.mkdir(exist_ok=True)
    base = {"extends": extends} if extends else {}
    (folder / "ruleset.json").write_text(json.dumps(
        {"name": name, **base, "rules": ["house.rules"], **manifest}))
    (folder / "house.rules").write_text(rules)
    return folder


# -- rules hooks ---------------------------------------------------------------------------------
def test_rules_hooks_lists_the_procedures_a_base_means_to_be_overridden(capsys, tmp_path):
    code, out, _ = run(capsys, "rules", "hooks", "bulge")
    assert code == 0
    assert "aa_dice(ground: list[Unit]) -> int  [bulge: rules/air.rules:" in out
    assert "one die per type of ground unit" in out          # its doc: the comment above it
    assert "turn_words(name: str) -> str" in out
    code, out, _ = run(capsys, "rules", "hooks", "aarhe", "--json")
    hooks = {h["name"]: h for h in json.loads(out)["hooks"]}
    assert code == 0 and hooks["income"]["declared_by"] == "lhtr"
    assert hooks["income"]["overridden_by"][0].startswith("aarhe: economy.rules:")
    assert "IPC value of the territories it holds" in hooks["income"]["doc"]


def test_a_mod_marks_its_own_hooks_and_its_overrides_show(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "extends bulge\n"
                    "# How many dice a flak battery adds.\n"
                    "# (one line more of doc)\n"
                    "hook procedure flak_bonus() -> int {\n    return 1\n}\n"
                    "override procedure aa_dice(ground: list[Unit]) -> int {\n    return base(ground) + flak_bonus()\n}\n")
    code, out, _ = run(capsys, "rules", "hooks", str(mod))
    assert code == 0, out
    assert "flak_bonus() -> int  [house: house.rules:4]" in out
    assert "How many dice a flak battery adds. (one line more of doc)" in out
    assert "aa_dice(ground: list[Unit]) -> int  [bulge: rules/air.rules:" in out and "overridden by house: house.rules:7" in out
    # the marker is no change of the code: `rules diff` shows the signature as the same line
    code, out, _ = run(capsys, "rules", "diff", "bulge", str(mod))
    assert code == 0 and "\n     procedure aa_dice(ground: list[Unit]) -> int {\n" in out and "-hook" not in out


def test_rules_hooks_of_an_unknown_ruleset_is_one_line(capsys):
    code, _, err = run(capsys, "rules", "hooks", "nosuch")
    assert code == 1 and err.startswith("wargame: ") and len(err.strip().splitlines()) == 1


# -- info --units -------------------------------------------------------------------------------
def test_info_units_lists_each_unit_with_its_stats_and_tags(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "extends bulge\n"
                    'stat drop_range: int = 0 "hexes from the side\'s units a paratrooper may land"\n'
                    "unit Paratrooper [combat, zoc] { attack: 1  move: 1  drop_range: 3 }\n"
                    "override unit Tank { attack: 3 }\n")
    code, out, _ = run(capsys, "--mod", str(mod), "info", "house", "--units")
    assert code == 0, out
    assert "house: 8 units" in out
    assert "  drop_range: int = 0: hexes from the side's units a paratrooper may land" in out
    assert "  Paratrooper [combat, zoc] (house: house.rules:3)" in out
    assert "  Tank [blitz, combat, ground, zoc] (bulge: rules/units.rules:" in out and "changed by house: house.rules:4" in out
    block = out[out.index("  Tank ["):]
    assert "attack 3, move 1, road_move true" in " ".join(block.split("\n")[1:3]).replace("      ", " ").strip()
    code, out, _ = run(capsys, "--mod", str(mod), "info", "house", "--units", "--json")
    units = json.loads(out)["units"]
    assert units["Paratrooper"]["stats"]["drop_range"] == 3 and units["Infantry"]["stats"]["drop_range"] == 0
    assert units["Tank"]["tags"] == ["blitz", "combat", "ground", "zoc"] and units["Tank"]["stats"]["attack"] == 3
    assert units["Tank"]["declared_by"] == "bulge" and units["Tank"]["changed_by"] == ["house: house.rules:4"]


def test_info_units_follows_the_options_given(capsys):
    # a unit's stat may read an option: the units are those of the options given
    code, out, _ = run(capsys, "info", "lhtr", "--units", "--json")
    assert code == 0 and json.loads(out)["units"]["Infantry"]["stats"]["cost"] == 3


# -- the game's log -------------------------------------------------------------------------------
def test_play_log_and_replay_log_tell_the_same_game(capsys, tmp_path):
    saved = tmp_path / "g.json"
    code, out, _ = run(capsys, "play", "bulge", "--ai", "all", "--seed", "3", "--max-turns", "1", "--log",
                       "--save", str(saved))
    assert code == 0
    played = [line for line in out.splitlines() if line.startswith("  ")]
    assert "  Surprise attack: only the Axis attacks this turn" in played
    assert any(line.startswith("  Axis attacks ") and "dice) against" in line for line in played)
    code, out, _ = run(capsys, "replay", str(saved), "--log")
    assert code == 0 and "the state matches the save exactly" in out
    assert [line for line in out.splitlines() if line.startswith("  ")] == played
    code, out, _ = run(capsys, "replay", str(saved))
    assert code == 0 and len(out.strip().splitlines()) == 1      # (no log unless asked)


def test_play_log_of_a_terminal_game_prints_the_log_at_the_end(capsys, monkeypatch):
    answers = iter(["1", "quit", "n"])        # (quitting asks whether to save the moves)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "bulge", "--no-gui", "--seed", "1", "--log")
    assert code == 0
    assert "the game's log:" in out
    told = out.split("the game's log:")[1].splitlines()
    assert "  == Red (turn 1) ==" in told


# -- hints that point at the real mistake ----------------------------------------------------------
def test_an_override_in_a_file_without_extends_says_to_add_the_line(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "override option stacking_limit = 5\n")
    code, out, err = run(capsys, "check", str(mod))
    assert code != 0      # the manifest names the base: the file is told the line it must begin with
    assert "house.rules:1:1: ruleset `house` extends `bulge`, so this file must begin with `extends bulge`" in out + err
    mod = write_mod(tmp_path / "lone", "override option stacking_limit = 5\n", name="lone", extends=None)
    code, out, _ = run(capsys, "check", str(mod))
    assert code == 1
    assert "house.rules:1:1: `override option stacking_limit`: these rules build on no base ruleset" in out
    assert "hint: begin the file with `extends BASE`" in out and "remove `override` to define" in out.split("hint:")[1]


def test_a_changed_override_signature_is_the_one_error_reported(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "extends bulge\n"
                    "override procedure aa_dice(ground: list[Unit], extra: int) -> int {\n    return extra\n}\n")
    code, out, err = run(capsys, "check", str(mod))
    assert code == 1 and err.strip() == "1 error"
    assert out.startswith(f"{mod / 'house.rules'}:2:1: `override procedure aa_dice` must keep the signature "
                          "(ground: list[Unit]) -> int")
    assert "air.rules" not in out                    # no knock-on errors in the base's files


def check_movement_override(capsys, tmp_path, first_line: str, second_line: str):
    """`wargame check` of a mod whose `override phase movement` lists these steps (two lines)."""
    mod = write_mod(tmp_path / "house", "extends bulge\noverride phase movement {\n"
                    f"    steps [{first_line}\n           {second_line}]\n}}\n")
    code, out, err = run(capsys, "check", str(mod))
    assert code == 1 and err.strip() == "1 error"
    return mod, out


def test_a_misspelt_step_in_a_phase_is_reported_there_with_the_right_name(capsys, tmp_path):
    mod, out = check_movement_override(
        capsys, tmp_path, "axis_trucks_home, allies_trucks_home, axis_activation, axis_move, axis_reinforce,",
        "axis_unlaod, allies_activation, allies_move, allies_reinforce, allies_unload")
    assert f"{mod / 'house.rules'}:4:12: phase `movement` lists `axis_unlaod`, which no step declares" in out
    assert "hint: did you mean `axis_unload`? (declared at " in out
    assert "allies_move`?" not in out


def test_an_override_phase_that_leaves_a_step_out_says_so(capsys, tmp_path):
    mod, out = check_movement_override(
        capsys, tmp_path, "axis_trucks_home, axis_activation, axis_move, axis_reinforce,",
        "axis_unload, allies_activation, allies_move, allies_reinforce, allies_unload")
    assert (f"{mod / 'house.rules'}:2:1: `override phase movement` leaves out step `allies_trucks_home`, which the "
            "base's phase lists") in out


# -- check sets up every scenario -----------------------------------------------------------------
ST_VITH = Path(__file__).resolve().parents[1] / "examples" / "bulge-st-vith"


def broken_st_vith(folder: Path) -> Path:
    """The St. Vith example with three mistakes in its scenario file."""
    folder.mkdir()
    for f in ST_VITH.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    data = json.loads((folder / "st-vith.json").read_text())
    data["pieces"][2]["kind"] = "Tanks"
    data["pieces"][4]["space"] = "9999"
    data["pieces"][6]["kind"] = "Paratrooper"
    (folder / "st-vith.json").write_text(json.dumps(data, indent=2))
    return folder


def test_check_sets_up_the_scenarios_and_reports_every_problem_with_its_place(capsys, tmp_path):
    mod = broken_st_vith(tmp_path / "st-vith")
    code, out, err = run(capsys, "check", str(mod))
    assert code == 1 and err.strip() == "3 errors"
    scenario = mod / "st-vith.json"
    lines = (scenario.read_text().splitlines())
    tanks = next(i for i, line in enumerate(lines, 1) if '"Tanks"' in line)
    assert f"{scenario}:{tanks}:15: pieces[2]: unknown unit type `Tanks` (did you mean `Tank`?)" in out
    assert "pieces[4] (Artillery): no space or off-board area `9999`" in out
    assert "pieces[6]: unknown unit type `Paratrooper`" in out
    assert '      "kind": "Tanks",\n              ^' in out          # the line and a caret, as for rules


def test_check_finds_a_hex_used_twice_and_a_link_to_no_space_in_a_mods_map(capsys, tmp_path):
    mod = tmp_path / "hill"
    mod.mkdir()
    (mod / "ruleset.json").write_text(json.dumps({
        "name": "hill", "title": "Hill", "rules": ["hill.rules"],
        "scenarios": [{"name": "hill", "title": "Hill", "file": "scenario.json"}]}))
    (mod / "hill.rules").write_text('turn order [Red, Blue]\nturns 2\nstat attack: int = 1\nunit Soldier { attack: 2 }\n'
                                    'procedure strength(u: Unit) -> int { return u.attack }\n'
                                    'phase fight { steps [fight] }\nstep fight { }\n')
    (mod / "map.json").write_text(json.dumps({"format": "wargame-map/1", "name": "hill", "link_hexes": True,
        "spaces": [{"id": "A", "hex": [0, 0]}, {"id": "B", "hex": [1, 0]}, {"id": "C", "hex": [1, 0]}],
        "links": [{"a": "A", "b": "D"}]}, indent=1))
    (mod / "scenario.json").write_text(json.dumps({"format": "wargame-scenario/1", "name": "hill",
        "pieces": [{"kind": "Soldier", "owner": "Red", "space": "A"}]}, indent=1))
    code, out, err = run(capsys, "check", str(mod))
    assert code == 1 and err.strip() == "2 errors", out
    assert f"{mod / 'map.json'}:" in out
    assert "spaces[2] (C): hex [1, 0] is also the hex of `B`" in out
    assert "links[0] (A-D): no space `D`" in out


def test_check_finds_a_piece_of_no_power_of_the_game(capsys, tmp_path):
    """A piece whose owner is misspelt belongs to no one who plays: it would stand on the map
    for the whole game, never moved (or, in Bulge, be told to be on the wrong side of the front)."""
    folder = tmp_path / "st-vith"
    folder.mkdir()
    for f in ST_VITH.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    data = json.loads((folder / "st-vith.json").read_text())
    data["pieces"][3]["owner"] = "Axsi"
    (folder / "st-vith.json").write_text(json.dumps(data, indent=1))
    code, out, err = run(capsys, "check", str(folder))
    assert code == 1 and err.strip() == "1 error", out
    assert "pieces[3] (Infantry): `Axsi` is not a power of the game (Axis, Allies) (did you mean `Axis`?)" in out


def test_play_says_every_problem_of_a_scenario_as_the_modders_not_as_a_bug(capsys, tmp_path):
    mod = broken_st_vith(tmp_path / "st-vith")
    code, _, err = run(capsys, "--mod", str(mod), "play", "bulge-st-vith", "--ai", "all")
    assert code == 1 and "internal error" not in err and "a bug in wargame" not in err
    assert "unknown unit type `Tanks`" in err and "`9999`" in err and "`Paratrooper`" in err


def test_check_warns_of_two_rules_that_end_the_game_on_one_event(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "extends bulge\n"
                    "procedure bastogne_falls(t: int) {\n"
                    '    end_game(Axis, "Bastogne fell on turn " + str(t))\n}\n'
                    'rule bastogne on turn_end(t) when controller("1503") == Axis {\n    bastogne_falls(t)\n}\n'
                    'rule noted on turn_end(t) {\n    note("turn over")\n}\n')
    code, out, _ = run(capsys, "check", str(mod))
    assert code == 0 and out.strip().endswith("ok")
    assert (f"{mod / 'house.rules'}:5:1: rules `allies_hold_to_the_end` and `bastogne` both end the game on "
            "`turn_end`: when both would at once, `allies_hold_to_the_end` runs first") in out
    assert "[warning]" in out and "`noted`" not in out


# -- the language: f-strings, first/find, sorted by a key -----------------------------------------
def test_a_mod_written_with_fstrings_first_and_sorted_by_checks_and_plays(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "extends bulge\n"
                    "# the strongest ground unit under the flak fires one die more\n"
                    "override procedure aa_dice(ground: list[Unit]) -> int {\n"
                    "    let strongest = sorted(u in ground where u.attack > 0 by [-u.attack, u.id])\n"
                    "    let lead = find(u in strongest where u has combat)\n"
                    "    if lead < 0 {\n        return base(ground)\n    }\n"
                    "    let first_one = first(u in strongest where u has combat)\n"
                    '    note(f"{first_one.kind} #{first_one.id} leads the flak ({len(strongest)} {{armed}})")\n'
                    "    return min(base(ground) + 1, aa_max_dice)\n}\n")
    code, out, _ = run(capsys, "check", str(mod))
    assert code == 0 and out.strip().endswith("ok"), out
    code, out, _ = run(capsys, "--mod", str(mod), "play", "house", "--ai", "all", "--seed", "2", "--max-turns", "2",
                       "--option", "air_from_turn=1", "--log")
    assert code == 0, out
    assert any(" leads the flak (" in line and "{armed})" in line for line in out.splitlines())


def test_a_mistake_inside_an_fstring_is_reported_where_it_is(capsys, tmp_path):
    mod = write_mod(tmp_path / "house", "extends bulge\n"
                    "override procedure turn_words(name: str) -> str {\n"
                    '    return f"{base(name)} ({len(nam)})"\n}\n')
    code, out, err = run(capsys, "check", str(mod))
    assert code == 1 and err.strip() == "1 error"
    assert out.startswith(f"{mod / 'house.rules'}:3:33: unknown name `nam`")
    assert "hint: did you mean `name`?" in out
