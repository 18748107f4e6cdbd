"""Every mod in examples/ checks clean and plays to the end, computer against computer."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main

EXAMPLES = sorted(p for p in (Path(__file__).resolve().parents[1] / "examples").iterdir() if (p / "ruleset.json").is_file())


@pytest.mark.parametrize("mod", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_an_example_mod_checks_and_plays_to_the_end(mod: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    name = json.loads((mod / "ruleset.json").read_text())["name"]
    assert main(["check", str(mod)]) == 0
    capsys.readouterr()
    assert main(["--mod", str(mod), "play", name, "--ai", "all", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "result: winner:" in out or "result: draw" in out, out[-500:]


def test_the_river_crossing_is_a_game_without_python() -> None:
    folder = Path(__file__).resolve().parents[1] / "examples" / "river-crossing"
    assert not list(folder.rglob("*.py"))
    lines = (folder / "crossing.rules").read_text().splitlines()
    assert not [line for line in lines if line.startswith("extends")]
