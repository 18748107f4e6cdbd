"""What a modder reaches for while writing a mod (issue 36, items 18-20): the units and their
stats (`info --units`), the procedures a base means to be overridden (`rules hooks`), a game's
log (`play --log`, `replay --log`), every problem of a mod's scenarios at `check`, and hints
that point at the real mistake. Each is tried as a modder meets it: the CLI on a small mod
folder in tmp_path."""

from __future__ import annotations

import json

from clients.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_mod(folder, rules: str, name: str = "house", extends: str = "bulge", **manifest):
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.json").write_text(json.dumps(
        {"name": name, "extends": extends, "rules": ["house.rules"], **manifest}))
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


def test_rules_hooks_of_an_unknown_ruleset_is_one_line(capsys):
    code, _, err = run(capsys, "rules", "hooks", "nosuch")
    assert code == 1 and err.startswith("wargame: ") and len(err.strip().splitlines()) == 1
