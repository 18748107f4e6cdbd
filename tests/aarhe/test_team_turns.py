"""Option `team_turns` (RULES.md B, Round order): the turn order of earlier AARHE versions,
played power by power. USSR, Germany, Japan, UK, US makes the USSR's opening turn, then the
Axis, then the Allies (UK, US and the next round's USSR). `wargame info`, the game, a save and
the air reinforcements all follow it; off, LHTR's order stays."""

from __future__ import annotations

import json

import pytest

from clients.cli import main
from engine import save
from engine.game import Game
from rulesets.aarhe.ai import HeuristicPlayer
from tests.aarhe.play import aarhe, new
from tests.lhtr.soak import SCENARIO, play

LHTR_ORDER = ["USSR", "Germany", "UK", "Japan", "US"]
TEAM_ORDER = ["USSR", "Germany", "Japan", "UK", "US"]


def power_starts(game: Game) -> list[tuple[int, str]]:
    return [(e["turn"], e["power"]) for kind, e in game.log if kind == "power_start"]


@pytest.mark.parametrize(("argv", "order"), [([], LHTR_ORDER), (["--option", "team_turns=true"], TEAM_ORDER)],
                         ids=["default", "team_turns"])
def test_wargame_info_gives_the_turn_order_the_options_make(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                             order: list[str]) -> None:
    assert main(["info", "aarhe", "--json", *argv]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["turn_order"] == order
    assert facts["options"]["team_turns"]["status"] == "unconfirmed"
    assert facts["options"]["team_turns"]["source"] == "RULES.md B, Round order; S5, S7"


def test_the_computer_players_play_ussr_then_the_axis_then_the_allies() -> None:
    rs = aarhe(team_turns=True, last_round=2)
    game = Game(rs, SCENARIO, 4)
    ai = HeuristicPlayer(4)
    while game.decision is not None:
        game.play(ai.choose(rs, game.state, game.decision))
    assert power_starts(game) == [(t, p) for t in (1, 2) for p in TEAM_ORDER]
    assert game.result is not None


@pytest.mark.parametrize("bold", [False, True], ids=["uniform", "bold"])
def test_a_random_three_round_game_keeps_every_invariant(bold: bool) -> None:
    game, inv = play(aarhe(team_turns=True, last_round=3), 7, bold)
    assert game.result is not None
    rounds = game.state.turn
    assert power_starts(game)[:5 * rounds] == [(t, p) for t in range(1, rounds + 1) for p in TEAM_ORDER]
    assert inv.checked == len(game.actions) + 1
    assert {"fight", "reinforce"} <= {a.kind for a in game.actions}


def test_a_save_goes_on_in_its_own_turn_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rs = aarhe(team_turns=True, last_round=2)
    game = Game(rs, SCENARIO, 2)
    ai = HeuristicPlayer(2)
    while game.ruleset.structure.power(game.state) != "Japan":
        game.play(ai.choose(rs, game.state, game.decision))
    path = tmp_path / "team.json"
    save.save(game, path)
    assert json.loads(path.read_text())["options"] == {"team_turns": True, "last_round": 2}
    again = save.load(path)
    assert again.ruleset.structure.powers == tuple(TEAM_ORDER)
    assert again.ruleset.structure.power(again.state) == "Japan" and again.state.turn == 1
    while again.decision is not None and again.ruleset.structure.power(again.state) == "Japan":
        again.play(ai.choose(again.ruleset, again.state, again.decision))
    assert again.ruleset.structure.power(again.state) == "UK"


@pytest.mark.parametrize(("options", "after_germany"), [({}, ["UK", "Japan", "US", "USSR"]),
                                                        ({"team_turns": True}, ["Japan", "UK", "US", "USSR"])],
                         ids=["default", "team_turns"])
def test_the_air_reinforcements_go_round_in_the_turn_order(options: dict[str, bool], after_germany: list[str]) -> None:
    g = new(**options)
    g.walk_to("Germany", "combat_move", turn=1)
    assert g.rs.rules.procedure("powers")(g.state) == list(g.rs.structure.powers)
    assert g.rs.rules.procedure("passive_powers")(g.state) == after_germany
