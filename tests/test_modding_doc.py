"""docs/modding.md is a tutorial the suite follows: every file it shows (```json file=PATH,
```rules file=PATH) is written into a fresh folder, every command of its ```console blocks is
run there, and what it prints must match the lines shown (`...` stands for any lines, and a
line starting or ending with `...` for any text there)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from clients.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "modding.md"
FILE_BLOCK = re.compile(r"```(\w+) file=(\S+)\n(.*?)```", re.S)
CONSOLE_BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def commands() -> list[tuple[str, list[str]]]:
    """Each `$ wargame ...` line of the doc and the lines shown after it."""
    out: list[tuple[str, list[str]]] = []
    for block in CONSOLE_BLOCK.findall(DOC.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            else:
                out[-1][1].append(line)
    return out


def matches(expected: list[str], lines: list[str]) -> bool:
    """Do `lines` read as `expected`, with `...` lines standing for any lines and a leading
    or trailing `...` in a line for any text?"""
    def line_ok(want: str, got: str) -> bool:
        core = want.strip(".").strip() if want.startswith("...") or want.endswith("...") else None
        if core is None:
            return want.rstrip() == got.rstrip()
        if want.startswith("...") and want.endswith("..."):
            return core in got
        return got.rstrip().endswith(core) if want.startswith("...") else got.startswith(core)

    def at(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(lines)
        if expected[i] == "...":
            return any(at(i + 1, k) for k in range(j, len(lines) + 1))
        return j < len(lines) and line_ok(expected[i], lines[j]) and at(i + 1, j + 1)

    return at(0, 0)


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tutorial")
    for _lang, name, text in FILE_BLOCK.findall(DOC.read_text(encoding="utf-8")):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def test_the_tutorial_shows_files_and_commands() -> None:
    assert len(FILE_BLOCK.findall(DOC.read_text(encoding="utf-8"))) >= 6
    assert len(commands()) >= 6


@pytest.mark.parametrize("command,expected", commands(), ids=[c for c, _ in commands()])
def test_every_command_of_the_tutorial_prints_what_it_shows(tutorial: Path, command: str, expected: list[str],
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tutorial)
    argv = shlex.split(command)
    assert argv[0] == "wargame"
    main(argv[1:])
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert matches(expected, lines), "\n".join(lines[:60])


def test_the_matcher_is_not_lenient() -> None:
    assert matches(["a", "...", "c"], ["a", "b", "b", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["...tail", "head..."], ["x tail", "head y"])
    assert not matches(["...", "result: winner: Axis..."], ["result: winner: Allies"])


# -- what the walk-through's new unit and new game do in play --------------------------------------

def test_the_paratroopers_jump_on_turn_two_near_their_side(tutorial: Path) -> None:
    """The unit of §3: on turn 2 the Axis is offered a drop for each paratrooper off the board,
    onto empty full hexes within its drop range of an Axis combat unit, and the drop lands."""
    from clients.players import RandomPlayer
    from engine import plugins
    from engine.game import Game
    from engine.graph import hops
    from engine.primitives import space_name

    rs = plugins.load(tutorial / "paratroopers")
    assert rs.rules.units["Paratrooper"].drop_range == 3
    game, player = Game(rs, None, seed=1), RandomPlayer(1)
    assert len([p for p in game.state.pieces.values() if p.kind == "Paratrooper"]) == 2
    while game.decision is not None and game.decision.kind != "axis_airdrop":
        assert game.state.turn <= 2, "no drop was offered on turn 2"
        game.play(player.choose(rs, game.state, game.decision))
    assert game.state.turn == 2 and "Axis airdrop" in game.status()
    drops = [o for o in game.decision.options if o.kind == "drop"]
    state = game.state
    axis = {p.space for p in state.pieces.values() if p.owner == "Axis" and p.space in state.board
            and "combat" in rs.rules.units[p.kind].tags}
    assert drops and all(not state.pieces_at(o["to"]) and not state.board.spaces[o["to"]].get("partial")
                         and any(hops(state.board, o["to"], h) <= 3 for h in axis) for o in drops[:40])
    jumper, to = drops[0]["u"], drops[0]["to"]
    game.play(drops[0])
    assert game.state.pieces[jumper].space == to
    # (the hex as players read it: "Longvilly (1314)", or its id where it has no name)
    assert any(k == "note" and d["message"] == f"Axis paratroopers land at {space_name(game.state, to)}"
               for k, d in game.log)


def test_the_new_game_ends_and_either_side_can_win_and_tanks_keep_out_of_the_wood(tutorial: Path) -> None:
    """The game of §7, played by random players: every game ends by its victory rules, Blue
    and Red both win some, and nothing with `tracks` is ever in the wood."""
    from clients.players import RandomPlayer
    from engine import plugins
    from engine.game import Game

    rs = plugins.load(tutorial / "hill")
    winners = set()
    for seed in range(12):
        game, player = Game(rs, None, seed=seed), RandomPlayer(seed)
        while game.decision is not None:
            game.play(player.choose(rs, game.state, game.decision))
            assert not any(p.kind == "Tank" for p in game.state.pieces_at("wood"))
        assert game.result is not None and game.result.winner in ("Blue", "Red")
        winners.add(game.result.winner)
    assert winners == {"Blue", "Red"}
