"""Every mod in examples/ checks clean and plays to the end, computer against computer; each
example's own change is seen in play."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main

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
