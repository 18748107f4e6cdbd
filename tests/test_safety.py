"""Never a traceback: damaged saves, broken manifests, bad command lines and closed pipes all
end in a `wargame: ...` message (and `--debug` shows the traceback for developers)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clients import cli
from clients.cli import main
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import fuzz_inputs  # noqa: E402

sys.path.remove(str(ROOT / "scripts"))

HOUSE = ROOT / "examples" / "bulge-house-rules"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def refused(capsys, *argv, says: str = "") -> str:
    """Run the command; it must fail with one clean `wargame:` message containing `says`."""
    code, out, err = run(capsys, *argv)
    assert code != 0, out
    assert err.startswith("wargame: "), err
    assert says in err, err
    return err


@pytest.fixture(scope="session")
def bulge_save(tmp_path_factory) -> dict:
    from clients.players import RandomPlayer
    from engine import plugins, save
    from engine.game import Game

    rs = plugins.load("bulge")
    game = Game(rs, None, 5)
    player = RandomPlayer(5)
    for _ in range(60):
        game.play(player.choose(rs, game.state, game.decision))
    path = tmp_path_factory.mktemp("saves") / "base.json"
    save.save(game, path)
    return json.loads(path.read_text())


def write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "damaged.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


# -- a closed pipe ---------------------------------------------------------------------------------
def test_a_closed_pipe_ends_quietly():
    """The reader hangs up before anything is written: no traceback, a quiet exit."""
    proc = subprocess.Popen([sys.executable, "-m", "clients", "info", "bulge"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, cli.EXIT_PIPE)
    assert err == ""


def test_info_piped_into_head_says_nothing_on_stderr():
    done = subprocess.run(["bash", "-c", f"'{sys.executable}' -m clients info bulge --json | head -1; "
                                         "echo \"rc=${PIPESTATUS[0]}\" >&2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout == "{\n"
    assert done.stderr.strip() in ("rc=0", f"rc={cli.EXIT_PIPE}")


def test_a_broken_pipe_in_process_returns_the_quiet_exit_code(capsys, monkeypatch):
    class Closed:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["rulesets"]) == cli.EXIT_PIPE
    assert capsys.readouterr().err == ""


# -- damaged saves ------------------------------------------------------------------------------------
def _with_pieces(data: dict, value) -> str:
    data = json.loads(json.dumps(data))
    action = next(a for a in data["actions"] if "pieces" in a["args"])
    action["args"]["pieces"] = value
    return json.dumps(data)


@pytest.mark.parametrize("damage, says", [
    (lambda d: json.dumps({**d, "state": "@"}).replace('"@"', "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    (lambda d: json.dumps({**d, "state": "@"}).replace('"@"', "[" * 500 + "]" * 500), "nested more than"),
    (lambda d: json.dumps({**d, "seed": 0}).replace('"seed": 0', '"seed": ' + "7" * 5000), "a number of 5000 digits (a save holds none over 4300)"),
    (lambda d: json.dumps({**d, "seed": 1 << 70}), "seed"),
    (lambda d: _with_pieces(d, 5), "action"),
    (lambda d: _with_pieces(d, {"a": 1}), "action"),
    (lambda d: json.dumps(d).encode("utf-8")[:100] + b"\xff\xfe" + json.dumps(d).encode("utf-8")[100:], "not UTF-8"),
    (lambda d: json.dumps(d)[:1000], "not valid JSON"),
    (lambda d: json.dumps({**d, "schema_version": 1}), "older wargame"),
    (lambda d: json.dumps({**d, "schema_version": 3}), "newer wargame"),
    (lambda d: json.dumps({**d, "mods": ["/tmp/some-folder"]}), "mods.0"),
    (lambda d: json.dumps({**d, "options": {"stacking_limit": 10**9}}), "beyond"),
    (lambda d: json.dumps({**d, "options": {"stacking_limit": 1}}), "does not add up"),
])
def test_a_damaged_save_is_refused_in_one_message(capsys, tmp_path, bulge_save, damage, says):
    path = write(tmp_path, damage(bulge_save))
    refused(capsys, "replay", path, says=says)
    refused(capsys, "play", "--load", path, "--ai", "all", says=says)


def test_a_huge_file_and_a_folder_are_not_saves(capsys, tmp_path):
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(100 << 20)
    refused(capsys, "replay", big, says="too big")
    refused(capsys, "replay", tmp_path, says="a folder")


def _wargame(*argv, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "clients", *map(str, argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("what, says", [("fifo", "a FIFO (named pipe), not a save file"),
                                        ("/dev/zero", "/dev/zero: a device, not a save file")])
def test_a_save_that_is_not_a_regular_file_is_refused_without_reading_it(tmp_path, what, says):
    import os

    path = tmp_path / "game.json"
    if what == "fifo":
        os.mkfifo(path)
    else:
        path = Path(what)
    for argv in (["replay", path], ["play", "--load", path, "--ai", "all", "--quiet"]):
        done = _wargame(*argv)
        assert done.returncode == 1 and done.stderr.startswith("wargame: ") and says in done.stderr, done.stderr


def _named_by_manifest(tmp_path: Path, key: str) -> tuple[Path, Path]:
    """A mod whose manifest names `odd` (made by the test) under `key`."""
    manifest = {**GOOD}
    if key == "rules":
        manifest["rules"] = ["odd"]
    elif key == "scenarios.file":
        manifest["scenarios"] = [{"name": "odd", "file": "odd"}]
    else:
        manifest[key] = ["odd"] if key == "data" else "odd"
    folder = mod(tmp_path, manifest)
    return folder, folder / "odd"


@pytest.mark.parametrize("key", ["rules", "data", "scenarios.file", "map_changes", "plugin"])
def test_a_mod_file_that_is_a_fifo_or_too_big_is_refused_before_it_is_read(tmp_path, key):
    import os

    folder, odd = _named_by_manifest(tmp_path, key)
    os.mkfifo(odd)
    done = _wargame("--mod", folder, "check", folder)
    assert done.returncode == 1 and f"`{key}`: `odd` is a FIFO (named pipe), not a file" in done.stderr, done.stderr
    odd.unlink()
    with odd.open("wb") as f:
        f.truncate(1 << 30)          # 1 GB (sparse): refused by its size, never read
    done = _wargame("--mod", folder, "check", folder, timeout=30)
    assert done.returncode == 1 and f"`{key}`: file `odd` is 1,073,741,824 bytes; a mod's" in done.stderr, done.stderr


def test_a_manifest_or_a_rules_file_that_is_a_fifo_is_refused(tmp_path):
    import os

    folder = tmp_path / "mod"
    folder.mkdir()
    os.mkfifo(folder / "ruleset.json")
    done = _wargame("--mod", folder, "check", folder)
    assert done.returncode == 1 and "ruleset.json: a FIFO (named pipe), not a manifest" in done.stderr, done.stderr
    os.mkfifo(tmp_path / "house.rules")
    done = _wargame("check", tmp_path / "house.rules")
    assert done.returncode == 1 and "house.rules: a FIFO (named pipe), not a file" in done.stderr, done.stderr


def test_a_mods_readme_past_its_limit_is_not_read_for_its_table(capsys, tmp_path):
    """`wargame info` reads a layer's README for its table of files: a README of gigabytes would
    be read whole, so one past its limit is left unread (its table is not shown)."""
    from engine.layer_docs import MAX_README_BYTES

    folder = mod(tmp_path, GOOD)
    table = "| file | holds |\n|---|---|\n| `house.rules` | the house rules of the mod |\n"
    (folder / "README.md").write_text(table)
    code, out, _ = run(capsys, "--mod", folder, "info", "fuzz-mod")
    assert code == 0 and "  - house.rules: the house rules of the mod" in out
    (folder / "README.md").write_text(table + "x" * MAX_README_BYTES + "\n")
    code, out, _ = run(capsys, "--mod", folder, "info", "fuzz-mod")
    assert code == 0 and "house.rules: the house rules" not in out and "(no table of files in fuzz-mod's README.md" in out


# -- broken manifests ----------------------------------------------------------------------------------
def mod(tmp_path: Path, manifest: dict | bytes, rules: str | None = "extends bulge\n") -> Path:
    folder = tmp_path / "mod"
    folder.mkdir()
    if rules is not None:
        (folder / "house.rules").write_text(rules)
    if isinstance(manifest, bytes):
        (folder / "ruleset.json").write_bytes(manifest)
    else:
        (folder / "ruleset.json").write_text(json.dumps(manifest))
    return folder


GOOD = {"name": "fuzz-mod", "extends": "bulge", "rules": ["house.rules"]}


@pytest.mark.parametrize("manifest, says", [
    ({**GOOD, "rules": 5}, "`rules`: input should be a valid list (got 5)"),
    ({**GOOD, "extends": ["bulge"]}, "`extends`: input should be a valid string"),
    (json.dumps(GOOD).encode()[:10] + b"\xff" + json.dumps(GOOD).encode()[10:], "not UTF-8 text"),
    ({**GOOD, "rules": ["missing.rules"]}, "`rules`: file `missing.rules` does not exist"),
    ({**GOOD, "rules": ["../../etc/passwd"]}, "outside the mod folder"),
    ({**GOOD, "rulez": ["house.rules"]}, "unknown key `rulez` (did you mean `rules`?)"),
    ({"extends": "bulge", "rules": ["house.rules"]}, "missing `name`"),
    ({**GOOD, "scenarios": [{"nam": "x"}]}, "scenarios.0"),
    ({**GOOD, "plugin": "missing.py"}, "`plugin`: file `missing.py` does not exist"),
])
def test_a_broken_manifest_names_the_file_and_the_field(capsys, tmp_path, manifest, says):
    folder = mod(tmp_path, manifest)
    for argv in (["check", folder], ["info", "fuzz-mod"], ["rulesets"]):
        err = refused(capsys, "--mod", folder, *argv, says=says)
        assert str(folder / "ruleset.json") in err


@pytest.mark.parametrize("manifest, says", [
    ({**GOOD, "extends": "nosuch"}, "no base ruleset (extended by `fuzz-mod`, {manifest}) called `nosuch`"),
    ({**GOOD, "extends": "fuzz-mod"}, "rulesets extend each other in a circle: fuzz-mod -> fuzz-mod"),
])
def test_a_manifest_extending_what_is_not_there_is_refused(capsys, tmp_path, manifest, says):
    folder = mod(tmp_path, manifest)
    for argv in (["check", folder], ["info", "fuzz-mod"]):
        refused(capsys, "--mod", folder, *argv, says=says.format(manifest=folder / "ruleset.json"))


def test_a_non_utf8_rules_file_is_refused_by_name(capsys, tmp_path):
    folder = mod(tmp_path, GOOD, rules=None)
    (folder / "house.rules").write_bytes(b"extends bulge\n\xff\n")
    refused(capsys, "--mod", folder, "check", folder, says="house.rules: not UTF-8 text")


# -- control characters and long values never reach the terminal as they are ------------------------
_RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")
_HOSTILE_TEXT = "\x1b]0;pwned\x07\x1b[2J\r\x9b31m\u202e"


def _said_safely(out: str, err: str, most: int = 3000) -> None:
    assert not any(c in out + err for c in _RAW), repr((out + err)[:500])
    assert len(out) + len(err) < most, f"{len(out) + len(err):,} characters"


def test_control_characters_from_a_rules_file_are_escaped(capsys, tmp_path):
    rules = tmp_path / "house.rules"
    rules.write_text(f"procedure p() -> int {{\n    return x{_HOSTILE_TEXT}\n}}\n")
    code, out, err = run(capsys, "check", rules)
    assert code == 1
    _said_safely(out, err)
    assert "\\x1b]0;pwned\\x07" in out


def test_a_100000_character_name_is_quoted_short(capsys, tmp_path):
    rules = tmp_path / "house.rules"
    rules.write_text("procedure p() -> int {\n    return " + "Q" * 100_000 + "\n}\n")
    code, out, err = run(capsys, "check", rules)
    assert code == 1 and "unknown name `QQQ" in out
    _said_safely(out, err)


def test_control_characters_from_a_manifest_are_escaped(capsys, tmp_path):
    folder = mod(tmp_path, {**GOOD, "title": f"House {_HOSTILE_TEXT} rules"})
    code, out, err = run(capsys, "--mod", folder, "rulesets")
    assert code == 0 and "fuzz-mod (extends bulge): House \\x1b]0;pwned" in out
    _said_safely(out, err)
    (tmp_path / "b").mkdir()
    folder = mod(tmp_path / "b", {**GOOD, "name": "x" * 100_000 + _HOSTILE_TEXT})
    code, out, err = run(capsys, "--mod", folder, "rulesets")
    assert code != 0
    _said_safely(out, err)


@pytest.mark.parametrize("option", [f"stacking_limit={_HOSTILE_TEXT}", f"{_HOSTILE_TEXT}=3", _HOSTILE_TEXT,
                                    "stacking_limit=" + "7" * 9000 + _HOSTILE_TEXT, "Q" * 100_000 + "=1"])
def test_control_characters_and_long_values_of_an_option_are_escaped_and_shortened(capsys, option):
    code, out, err = run(capsys, "info", "bulge", "--option", option)
    assert code != 0 and err.startswith("wargame: ")
    _said_safely(out, err)


@pytest.mark.parametrize("pieces", [[1] * 20_000, "x " * 30_000, [1, "x " * 30_000]])
def test_a_refusal_quotes_a_long_value_of_a_save_shortened(capsys, tmp_path, bulge_save, pieces):
    path = write(tmp_path, _with_pieces(bulge_save, pieces))
    code, out, err = run(capsys, "replay", path)
    assert code == 1 and err.startswith("wargame: ") and "`pieces`" in err, err[:300]
    _said_safely(out, err, most=1200)


def test_control_characters_and_long_values_from_a_save_are_escaped_and_shortened(capsys, tmp_path, bulge_save):
    data = json.loads(json.dumps(bulge_save))
    data["actions"][3]["args"]["pieces"] = "Q" * 100_000 + _HOSTILE_TEXT
    path = write(tmp_path, json.dumps(data))
    code, out, err = run(capsys, "replay", path)
    assert code != 0
    _said_safely(out, err)
    data["actions"][3] = {"kind": "march" + _HOSTILE_TEXT, "args": {}}
    path = write(tmp_path, json.dumps(data))
    code, out, err = run(capsys, "replay", path)
    assert code != 0 and "march\\x1b]0;pwned" in err
    _said_safely(out, err)


# -- bad command lines ---------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, says", [
    (["play", "bulge", "--ai", "all", "--seed", "1", "--option", "die=1"], "option `die` must lie in 2..100; 1 is outside"),
    (["info", "bulge", "--option", 'supply_income={"Axis": 10000000, "Allies": 11}'], "must lie in 0..30; 10000000 is outside"),
    (["info", "bulge", "--option", "stacking_limit=" + "9" * 5000], "not a whole number"),
    (["info", "bulge", "--option", "supply_income=" + "[" * 6000 + "]" * 6000], "over the limit of 10,000"),
    (["info", "bulge", "--option", "supply_income=[" + "1," * 4000 + "1]"], "supply_income"),
    (["info", "bulge", "--option", "stacking_limit"], "NAME=VALUE"),
    (["info", "bulge", "--option", "stacking_limt=3"], "did you mean `stacking_limit`?"),
    (["play", "bulge", "--seed", "-1"], "a seed is a whole number from 0 to"),
    (["play", "bulge", "--seed", "١٢"], "a seed is a whole number from 0 to"),
    (["play", "bulge", "--ai", "all", "--max-turns", "-5"], "--max-turns wants a whole number of at least 1, not `-5`"),
    (["play", "bulge", "--ai", "all", "--max-turns", "٣"], "--max-turns wants a whole number of at least 1"),
    (["--rules-budget", "1_000", "rulesets"], "--rules-budget wants a whole number"),
    (["info", "bulge", "--option", "stacking_limit=٣"], "option `stacking_limit` is `int`: `٣` is not a whole number"),
    (["info", "bulge", "--option", "stacking_limit=²"], "is not a whole number"),
    (["info", "bulge", "--option", 'supply_income={"Axis": 10}'],
     "option `supply_income` has no `Allies`: give every key of its default (Axis, Allies)"),
    (["play", "bulge", "--ai", "all", "--option", 'supply_income={"Axis": 10, "Allis": 5}'],
     "option `supply_income` has no `Allies`"),
    (["play", "bulge", "--seed", "9" * 5000], "a seed is a whole number from 0 to"),
    (["play", "bulge", "--seed", str(1 << 64)], "a seed is a whole number from 0 to"),
    (["play", "lhtr-nonexistent"], "no ruleset called `lhtr-nonexistent`"),
    (["info", "bulge", "--scenario", "nowhere"], "has no scenario `nowhere`"),
    (["play", "bulge", "--ai", "green"], "no side `green`"),
    (["frobnicate"], "invalid choice"),
    (["--mod", "/nonexistent/folder", "rulesets"], "no ruleset.json here"),
    (["check", "/nonexistent/file.rules"], "no such file"),
])
def test_a_bad_command_line_is_one_message(capsys, argv, says):
    refused(capsys, *argv, says=says)


#: every numeric option of LHTR and AARHE, with a value far outside any range a game could use
_ABSURD = {"lhtr": ["aa_hit", "most_rounds", "victory_cities", "research_cost", "rocket_range", "last_round"],
           "aarhe": ["lend_lease_cap", "desert_upkeep", "small_island_cap", "aa_dice_per_gun", "counter_air_rounds"]}


@pytest.mark.parametrize("ruleset, option", [(r, o) for r, opts in _ABSURD.items() for o in opts])
def test_lhtr_and_aarhe_options_have_ranges(capsys, ruleset, option):
    err = refused(capsys, "play", ruleset, "--ai", "all", "--no-gui", "--option", f"{option}=100000000",
                  says=f"option `{option}` must lie in ")
    assert "100000000 is outside" in err


def test_every_numeric_option_of_lhtr_and_aarhe_has_a_range():
    from engine import plugins

    for ruleset, listed in _ABSURD.items():
        specs = plugins.load(ruleset).rules.option_specs
        numeric = [n for n, sp in specs.items() if "int" in str(sp.type) or "float" in str(sp.type)]
        assert [n for n in numeric if specs[n].bounds is None] == []
        assert set(listed) <= set(numeric)


def test_an_option_value_outside_the_options_range_is_refused_with_the_range(capsys):
    # 100,000 supply tokens a turn is absurd for Bulge (they are pieces: a game takes minutes);
    # within the generic bound of ±1,000,000, but Bulge's options have ranges of their own
    refused(capsys, "info", "bulge", "--json", "--option", 'supply_income={"Axis": 100000, "Allies": 11}',
            says="option `supply_income` must lie in 0..30; 100000 is outside")
    code, out, _ = run(capsys, "info", "bulge", "--json", "--option", 'supply_income={"Axis": 30, "Allies": 11}')
    assert code == 0 and json.loads(out)["options"]["supply_income"]["value"] == {"Axis": 30, "Allies": 11}


def test_an_option_spec_with_bounds_is_kept_to_them():
    from engine import plugins

    class Spec:
        min, max = 2, 20

    assert plugins.option_bounds_problem(Spec(), 1) == "1 is outside the option's bounds (2 to 20)"
    assert plugins.option_bounds_problem(Spec(), {"Axis": 30}) is not None
    assert plugins.option_bounds_problem(Spec(), 12) is None
    assert plugins.option_bounds_problem(object(), 10**5) is None


# -- actions with keys no move takes ------------------------------------------------------------------
def _first_question(game, player) -> None:
    for _ in range(3000):
        if game.state.task is not None:
            return
        game.play(player.choose(game.ruleset, game.state, game.decision))
    raise AssertionError("no question asked")


@pytest.mark.parametrize("ruleset", ["bulge", "lhtr"])
def test_finish_and_choose_with_keys_they_do_not_take_are_refused(ruleset):
    from clients.players import RandomPlayer
    from engine import plugins
    from engine.actions import Action, IllegalAction
    from engine.game import Game

    game = Game(plugins.load(ruleset), None, 3)
    with pytest.raises(IllegalAction, match="`finish` takes no `junk`"):
        game.play(Action("finish", {"junk": 1}))
    _first_question(game, RandomPlayer(3))
    n = len(game.actions)
    answer = RandomPlayer(3).choose(game.ruleset, game.state, game.decision)
    with pytest.raises(IllegalAction, match=r"`choose` takes no `junk` \(it takes only `choice`\)"):
        game.play(Action("choose", {**answer.args, "junk": 2}))
    assert len(game.actions) == n
    game.play(Action("choose", dict(answer.args)))
    assert len(game.actions) == n + 1


def test_a_save_whose_finish_has_a_key_it_does_not_take_is_refused(capsys, tmp_path, bulge_save):
    data = json.loads(json.dumps(bulge_save))
    i = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "finish")
    data["actions"][i]["args"] = {"note": "x"}
    refused(capsys, "replay", write(tmp_path, json.dumps(data)), says="`finish` takes no `note`")


def test_int_in_rules_takes_ascii_digits_only() -> None:
    from dsl import RulesRuntimeError, load_rules
    from tests.dsl.dsl_helpers import make_registry

    rules = load_rules([("house.rules", "procedure n(s: str) -> int {\n    return int(s)\n}\n")], make_registry())
    assert rules.procedure("n")(None, " -12 ") == -12
    for text in ("١٢", "²", "1_000"):
        with pytest.raises(RulesRuntimeError):
            rules.procedure("n")(None, text)


# -- what `check` must find, so that playing never meets it as an internal error ---------------------
CROSSING = ROOT / "examples" / "river-crossing"


def crossing(tmp_path: Path, edit=lambda rules: rules, manifest=lambda m: m) -> Path:
    """A copy of the river-crossing mod (a game written in rules alone), edited."""
    import shutil

    folder = tmp_path / "crossing"
    shutil.copytree(CROSSING, folder)
    rules = folder / "crossing.rules"
    rules.write_text(edit(rules.read_text()))
    (folder / "ruleset.json").write_text(json.dumps(manifest(json.loads((folder / "ruleset.json").read_text()))))
    return folder


def _no_phases(rules: str) -> str:
    return "\n".join(line for line in rules.splitlines() if not line.startswith("phase "))


@pytest.mark.parametrize("edit, says", [
    (_no_phases, "the rules declare no phase: a game's turn is made of phases"),
    (lambda r: r.replace("phase combat { steps [assault] }", "phase combat { steps [assault] }\nphase idle { steps [] }"),
     "crossing.rules:9:1: phase `idle` lists no steps"),
])
def test_a_game_without_a_turn_is_refused_by_check_and_by_play(capsys, tmp_path, edit, says):
    folder = crossing(tmp_path, edit)
    code, out, err = run(capsys, "--mod", folder, "check", folder)
    assert code == 1 and says in out, out
    code, out, err = run(capsys, "--mod", folder, "play", "river-crossing", "--ai", "all", "--quiet")
    assert code == 1 and says in err and "internal error" not in err, err


def test_check_refuses_what_loading_refuses(capsys, tmp_path):
    """`check` says ok only where `play` would load: the `extends` line and a power named
    twice in the turn order are checked by both."""
    (tmp_path / "a").mkdir()
    folder = mod(tmp_path / "a", GOOD, rules="# house rules, with no extends line\n")
    for argv in (["check", folder], ["play", "fuzz-mod", "--ai", "all", "--quiet"]):
        refused(capsys, "--mod", folder, *argv, says="ruleset `fuzz-mod` extends `bulge`, so this file must begin "
                                                     "with `extends bulge`")
    folder = crossing(tmp_path, lambda r: r.replace("turn order [Blue, Red]", "turn order [Blue, Red, Blue]"))
    code, out, err = run(capsys, "--mod", folder, "check", folder)
    assert code == 1 and "crossing.rules:6:1: the turn order names `Blue` twice" in out, out
    code, out, err = run(capsys, "--mod", folder, "play", "river-crossing", "--ai", "all", "--quiet")
    assert code == 1 and "crossing.rules:6:1: the turn order names `Blue` twice" in err, err


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_a_rules_file_with_cr_or_crlf_line_endings_reads_as_its_lines(capsys, tmp_path, newline):
    rules = "# house rules\nextends bulge\n\noverride option stacking_limit = 5\n".replace("\n", newline)
    folder = mod(tmp_path, GOOD, rules=None)
    (folder / "house.rules").write_bytes(rules.encode())
    code, out, err = run(capsys, "--mod", folder, "check", folder)
    assert code == 0 and out.endswith(": ok\n"), out + err
    code, out, err = run(capsys, "--mod", folder, "rules", "diff", "bulge", folder)
    assert code == 0 and "stacking_limit: 4 -> 5 (house.rules:4)" in out, out
    (folder / "house.rules").write_bytes(rules.replace("= 5", "= ").encode())
    code, out, err = run(capsys, "--mod", folder, "check", folder)
    assert code == 1 and "house.rules:4:" in out, out


def test_a_scenario_without_a_file_is_refused_by_check_info_and_play(capsys, tmp_path):
    folder = crossing(tmp_path, manifest=lambda m: {**m, "scenarios": [*m["scenarios"], {"name": "nofile"}]})
    code, out, err = run(capsys, "--mod", folder, "check", folder)
    assert code == 1 and "scenario `nofile` names no scenario file (`file`)" in out, out
    for argv in (["info", "river-crossing"], ["play", "river-crossing", "--ai", "all", "--quiet"]):
        refused(capsys, "--mod", folder, *argv, "--scenario", "nofile",
                says="scenario `nofile` of `river-crossing` names no scenario file")


@pytest.mark.parametrize("ai", [["--ai", "all"], ["--ai", "Blue", "--no-gui"]])
def test_a_decision_for_a_power_no_seat_plays_is_an_error(capsys, tmp_path, monkeypatch, ai):
    import io

    folder = crossing(tmp_path, lambda r: r.replace("step march {", 'step march by "Green" {'))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    err = refused(capsys, "--mod", folder, "play", "river-crossing", *ai, "--seed", "1",
                  says="the rules ask `Green` to decide, but no seat plays `Green` (the seats: Blue, Red)")
    assert err.startswith("wargame: the game stopped after 0 actions")


def test_a_rules_file_of_an_installed_ruleset_that_is_not_utf8_is_a_diagnostic(tmp_path):
    from dsl import RulesError, load_rules
    from tests.dsl.dsl_helpers import make_registry

    path = tmp_path / "units.rules"
    path.write_bytes(b"stat attack: int = 0\n# caf\xe9\n")
    with pytest.raises(RulesError, match=r"units.rules` is not UTF-8 text \(byte 26\)"):
        load_rules([path], make_registry())


# -- errors while playing ----------------------------------------------------------------------------
def test_a_rules_runtime_error_while_playing_names_the_rules_position_and_saves_nothing(capsys, tmp_path):
    folder = mod(tmp_path, {"name": "boom", "extends": "bulge", "rules": ["house.rules"]},
                 rules="extends bulge\n\nrule boom on turn_start(t) when t == 2 {\n    let x = 10 / (t - 2)\n}\n")
    saved = tmp_path / "game.json"
    err = refused(capsys, "--mod", folder, "play", "boom", "--ai", "all", "--seed", "3", "--save", saved,
                  says="error in the rules: ")
    assert "house.rules:4:" in err and "division by zero" in err and "nothing was saved" in err
    assert not saved.exists() and not (tmp_path / "game.json.tmp").exists()


def test_save_does_not_follow_a_link_planted_beside_it(capsys, tmp_path):
    """`--save PATH` writes a new temporary file beside PATH: a `PATH.tmp` link planted there
    (by another user of a shared folder) sends nothing to its target."""
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    saved = tmp_path / "game.json"
    (tmp_path / "game.json.tmp").symlink_to(target)
    code, out, err = run(capsys, "play", "bulge", "--ai", "all", "--seed", "2", "--quiet", "--max-turns", "1",
                         "--save", saved)
    assert code == 0, err
    assert target.read_text() == "keep me"
    assert json.loads(saved.read_text())["format"] == "wargame-save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.tmp", "precious.txt"]


# -- hostile rules: they must end cleanly and quickly -----------------------------------------------
def hostile_mod(tmp_path: Path, rules: str) -> Path:
    return mod(tmp_path, {"name": "hostile", "extends": "bulge", "rules": ["house.rules"]},
               rules="extends bulge\n\n" + rules)


def stops_cleanly(capsys, folder: Path, says: str, where: str | None) -> str:
    import time

    t0 = time.perf_counter()
    code, out, err = run(capsys, "--mod", folder, "play", "hostile", "--ai", "all=random", "--quiet", "--seed", "1",
                         "--max-turns", "1")
    assert time.perf_counter() - t0 < 90
    assert code != 0 and says in err, err
    if where is not None:       # the rules position: a runtime error, or the compiler's block
        assert f"{folder / 'house.rules'}:{where}" in err, err
    return err


@pytest.mark.parametrize("case, says, where", [
    ("a list extended while it is iterated", "a list of 1,000,001 items is over the limit of 1,000,000", "6:9"),
    ("a string doubled in a loop", "a string of 1,048,576 characters is over the limit", "6:9"),
    ("a list doubled in a loop", "a list of 1,048,576 items is over the limit", "6:9"),
    ("two nested range(0, 100000)", "steps in one call", "6:9"),
    ("two long lists compared in a loop", "steps in one call", "8:9"),
    ("two long maps compared in a loop", "steps in one call", "10:9"),
    ("roll(100000000, 6)", "the number of dice to roll must be from 0 to 10,000, not 100,000,000", "4:5"),
    ("an integer squared in a loop", "integers in rules lie within", "6:9"),
])
def test_hostile_rules_stop_at_their_statement(capsys, tmp_path, case, says, where):
    rules = "rule boom on turn_start(t) {\n    " + fuzz_inputs.HOSTILE_RULES[case] + "\n}\n"
    err = stops_cleanly(capsys, hostile_mod(tmp_path, rules), says, where)
    assert err.startswith("wargame: ") and "error in the rules" in err
    assert "--rules-" in err or "fixed" in err or "roll" in err


@pytest.mark.parametrize("case", ["neighbours of a space not on the board", "space_int of a space not on the board",
                                  "space_flag of a space not on the board"])
def test_a_space_not_on_the_board_is_an_error_in_the_rules(capsys, tmp_path, case):
    rules = "rule boom on turn_start(t) {\n    " + fuzz_inputs.HOSTILE_RULES[case] + "\n}\n"
    err = stops_cleanly(capsys, hostile_mod(tmp_path, rules), "no space `nowhere` on this board", "4:5")
    assert err.startswith("wargame: error in the rules: ") and "internal error" not in err


def test_a_unit_rolling_100000000_dice_stops_the_game_cleanly(capsys, tmp_path):
    err = stops_cleanly(capsys, hostile_mod(tmp_path, fuzz_inputs.HOSTILE_FILES["a unit attacking with 100000000 dice"]),
                        "the number of dice to roll must be from 0 to 10,000, not", None)
    assert err.startswith("wargame: the game stopped after") and "combat.rules:" in err


@pytest.mark.parametrize("case, says", [
    ("a recursive procedure with no base case", "`boom` calls itself (boom -> boom); recursion is not allowed"),
    ('"a" * 1000000000', "cannot apply `*` to `str` and `int`"),
    ("a 4,301-digit integer literal", "(4,301 digits) is too big"),
])
def test_hostile_rules_are_refused_before_they_run(capsys, tmp_path, case, says):
    folder = hostile_mod(tmp_path, fuzz_inputs.HOSTILE_FILES[case])
    err = stops_cleanly(capsys, folder, says, "")
    assert len(err) < 2000          # the 4,301-digit line is shown cut short
    code, out, _ = run(capsys, "--mod", folder, "check", folder)
    assert code == 1 and says in out


def test_the_rules_budget_can_be_raised_and_lowered_from_the_command_line(capsys, tmp_path):
    folder = hostile_mod(tmp_path, "rule busy on turn_start(t) {\n    let n = 0\n    for i in range(0, 100000) {\n"
                                   "        n += 1\n    }\n}\n")
    code, out, err = run(capsys, "--rules-budget", "1000", "--mod", folder, "play", "hostile", "--ai", "all=random",
                         "--quiet", "--seed", "1", "--max-turns", "1")
    assert code == 1 and "more than 1,000 steps" in err and "--rules-budget" in err
    code, out, err = run(capsys, "--mod", folder, "play", "hostile", "--ai", "all=random", "--quiet", "--seed", "1",
                         "--max-turns", "1")
    assert code == 0, err
    refused(capsys, "--rules-budget", "0", "rulesets", says="--rules-budget wants a whole number of at least 1")


def test_a_computer_player_refused_by_the_rules_is_one_message():
    from engine import plugins
    from engine.actions import Action
    from engine.game import Game

    class Stubborn:
        name = "stubborn"

        def choose(self, rs, state, decision):
            return Action("fly")

    rs = plugins.load("bulge")
    with pytest.raises(cli.PlayError) as e:
        cli.run_unattended(Game(rs, None, 1), {"Axis": Stubborn(), "Allies": Stubborn()}, None)
    message = cli.error_message(e.value)
    assert message.startswith("wargame: the game stopped after 0 actions")
    assert "the computer player `stubborn` chose an action the rules refuse (fly)" in message


def test_debug_shows_the_traceback(capsys):
    assert main(["--debug", "play", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "wargame: no ruleset called `nosuch`" in err


def test_an_unexpected_error_is_an_internal_error_line(capsys, monkeypatch):
    def boom(args):
        raise TypeError("something the engine did not expect")

    monkeypatch.setattr(cli, "cmd_rulesets", boom)
    code, _, err = run(capsys, "rulesets")
    assert code == 1
    assert err.startswith("wargame: internal error: TypeError: something the engine did not expect")
    assert "--debug" in err


# -- the abuse harness --------------------------------------------------------------------------------
def test_forty_abusive_inputs_end_cleanly():
    summary = fuzz_inputs.fuzz(40, seed=2024, timeout=60)
    assert summary["cases"] == 40
    problems = json.dumps(summary["problems"], indent=1)
    for key in ("tracebacks", "hangs", "memory_blowups", "crashes", "code_ran", "unclear"):
        assert summary[key] == 0, f"{key}: {problems}"
    assert summary["clean_errors"] > 20


def test_the_harness_sees_a_hang_a_memory_blowup_and_a_traceback(monkeypatch):
    import time

    def hang(argv):
        time.sleep(30)

    def hog(argv):
        return len(bytearray(4 << 30))

    def crash(argv):
        raise RuntimeError("escaped main")

    seen = []
    for fake in (hang, hog, crash):
        monkeypatch.setattr(cli, "main", fake)     # the forked child calls it
        seen.append(fuzz_inputs.run_forked(fuzz_inputs.Case("test", fake.__name__, []), 1.5, 256).kind)
    assert seen == ["hang", "memory", "traceback"]
