"""What tournament players meet on the command line: `wargame info` lists Low Luck, the bids
and the National Advantages with their sources, for lhtr and for AARHE over it; a game with
them all on plays with the computer players; a bad value is one clear line."""

from __future__ import annotations

import pytest

from clients import cli

TOURNAMENT_OPTIONS = ["low_luck", "low_luck_aa", "low_luck_bombing", "bid_axis", "bid_allies", "bid_units_per_space",
                      "radar", "radar_hit", "chinese_divisions", "chinese_division_spaces", "nonaggression_treaty",
                      "treaty_infantry"]


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
def test_info_lists_every_tournament_option_with_its_source(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", ruleset]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in TOURNAMENT_OPTIONS:
        line = next((x for x in lines if x.strip().startswith(name + ":")), None)
        assert line is not None, name
        assert "source: " in line and "(lhtr)" in line, line


def test_a_game_with_every_tournament_option_plays(capsys: pytest.CaptureFixture[str]) -> None:
    options = ["low_luck=true", "low_luck_bombing=true", "bid_axis=12", "bid_allies=9", "radar=true",
               "chinese_divisions=true", "nonaggression_treaty=true"]
    args = ["play", "lhtr", "--no-gui", "--ai", "Axis=heuristic", "--ai", "Allies=random", "--max-turns", "1",
            "--seed", "2", "--quiet"]
    for o in options:
        args += ["--option", o]
    code = cli.main(args)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "standing: Axis" in out or "result:" in out


def test_a_bad_bid_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", "lhtr", "--no-gui", "--ai", "all", "--option", "bid_axis=2000", "--quiet"])
    captured = capsys.readouterr()
    assert code != 0
    message = (captured.err + captured.out).strip()
    assert len(message.splitlines()) == 1 and "bid_axis" in message and "Traceback" not in message
