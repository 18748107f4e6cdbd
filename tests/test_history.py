"""A game's history as a player steps through it (TripleA's history view): `wargame replay SAVE
--history [TURN]` prints it, `--watch` steps forwards and backwards in the terminal, and the
terminal's `history [N]` shows the game being played so."""

from __future__ import annotations

from typing import Any

import pytest

from clients import history
from clients.cli import main
from engine.game import Game
from tests.conftest import SKIRMISH

MOD = ["--trust-code", "--mod", str(SKIRMISH)]


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def saved(tmp_path_factory: Any) -> Any:
    path = tmp_path_factory.mktemp("history") / "g.json"
    assert main([*MOD, "play", "skirmish", "--ai", "all", "--seed", "4", "--save", str(path)]) == 0
    return path


def test_each_step_is_the_game_after_that_many_actions(saved: Any) -> None:
    h = history.from_save(saved, [SKIRMISH], trust_code=True)
    actions = h.game.actions
    assert h.last == len(actions) > 10 and h.steps[0].number == 0 and h.steps[0].player == ""
    for n in (0, 1, len(actions) // 2, len(actions)):     # forwards and backwards alike: the state itself
        again = Game(h.game.ruleset, h.game.scenario, h.game.seed)
        for a in actions[:n]:
            again.play(a)
        assert h.steps[n].state.signature() == again.state.signature()
        assert h.game.log[:h.steps[n].log_end] == again.log
    step = h.steps[1]
    seen = next(a.label for a in h.steps[0].decision.options if a == actions[0])     # the option's words
    assert step.player == "Red" and step.words == seen == "Infantry #2 0,2 -> 0,1"
    # the turns: a turn's start is the state it begins with; the next and previous turn from there
    t2 = h.turn_start(2)
    assert h.steps[t2].turn == 2 and h.steps[t2 - 1].turn == 1
    assert h.next_turn(0, 1) == t2 and h.next_turn(t2, -1) == 0 and h.next_turn(t2 + 1, -1) == t2


def test_replay_history_prints_the_game_action_by_action(capsys: Any, saved: Any) -> None:
    code, out, _ = run(capsys, *MOD, "replay", str(saved), "--history")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("the start of the game · ")
    assert sum(1 for x in lines if x.startswith("action ")) == len(history.from_save(saved, [SKIRMISH], True).game.actions)
    assert "action 1 of " in out and "· turn 1 · Red: " in out and "  now: " in out
    code, out, _ = run(capsys, *MOD, "replay", str(saved), "--history", "3")
    assert code == 0 and out.startswith("action ") and "· turn 2 · " in out.splitlines()[0]
    assert "· turn 1 · " not in out
    code, out, err = run(capsys, *MOD, "replay", str(saved), "--history", "99")
    assert code == 1 and err.count("\n") == 1 and "--history 99: the game has turns 1 to 6" in err
    code, _, err = run(capsys, *MOD, "replay", str(saved), "--history", "x")
    assert code != 0 and "Traceback" not in err


def test_watch_steps_forwards_and_backwards_in_the_terminal(capsys: Any, saved: Any, monkeypatch: Any) -> None:
    typed = iter(["", "n", "b", ">", "<", "turn 3", "4", "999", "zz", "map", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    code, out, _ = run(capsys, *MOD, "replay", str(saved), "--watch", "--no-gui")
    assert code == 0
    shown = [x for x in out.splitlines() if x.startswith(("action ", "the start"))]
    h = history.from_save(saved, [SKIRMISH], trust_code=True)
    t2, t3 = h.turn_start(2), h.turn_start(3)
    want = [h.heading(i) for i in (0, 1, 2, 1, t2, 0, t3, 4)]
    assert shown == want
    assert "that is the last action" in out and "`zz`?" in out


def test_watch_ends_when_the_input_does(capsys: Any, saved: Any, monkeypatch: Any) -> None:
    def eof(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    assert run(capsys, *MOD, "replay", str(saved), "--watch", "--no-gui")[0] == 0


def test_the_terminal_history_shows_the_game_being_played(saved: Any) -> None:
    from tests.test_terminal import play

    h = history.from_save(saved, [SKIRMISH], trust_code=True)
    game = Game(h.game.ruleset, h.game.scenario, h.game.seed)
    for a in h.game.actions[:5]:
        game.play(a)
    code, console = play(game, ["history", "history 2", "history 77", "quit"])
    text = console.text
    mine = history.record(game)                 # the game being played: 5 actions so far
    assert mine.heading(5) in text and mine.heading(1) in text and "(history N shows action N)" in text
    assert mine.heading(5) == h.heading(5).replace(f" of {h.last} ", " of 5 ")
    assert "action 2 of 5 · turn 1 · Red: " in text
    assert "history N: N is an action's number, from 0 (the start) to 5" in text


def test_the_terminal_gives_the_odds_of_a_battle_being_fought() -> None:
    """Between a battle's rounds (a casualty to choose, press on or retreat) `odds` gives the
    odds of the units left, fought as a new battle, and says so."""
    from clients import odds
    from clients.odds_setup import set_up
    from tests.lhtr.play import situation
    from tests.test_terminal import play

    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 3), ("Tank", "Germany", "Caucasus", 2),
                                 ("Infantry", "USSR", "Caucasus", 4)], step="conduct_combat")
    game = Game(g.rs)
    game.state, game._decision = g.state, g.decision
    game.play(game.decision.options[0])                 # the battle in Caucasus: its first round
    assert game.decision is not None and game.decision.kind == "choose"
    from clients import calculator

    left = calculator.fighting(game, ["Caucasus"])
    assert left is not None
    code, console = play(game, ["odds", "odds Karelia", "quit"])
    text = console.text
    assert "the battle being fought: the units left, fought as a new battle" in text
    want = odds.odds(set_up(g.rs, calculator.count(left[1]), calculator.count(left[2]), "Caucasus")).attacker_wins
    assert f"attacker wins   {100 * want:6.2f}%" in text
    assert "no battle in Karelia" in text


def test_an_action_is_told_after_its_player_without_naming_the_player_again() -> None:
    """LHTR's options name the unit's power ("move USSR Infantry in Russia"); the history
    heading names the player first, so the words after it do not repeat the power (it read
    "USSR: move USSR Infantry"), and unit names are spaced ("AA Gun")."""
    import re

    from clients.players import RandomPlayer
    from engine import plugins

    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=2)
    player = RandomPlayer(2)
    while not any(a.label.startswith("move USSR ") for a in game.actions) and len(game.actions) < 200:
        decision = game.decision
        moves = [a for a in decision.options if a.label.startswith("move ")]
        game.play(moves[0] if moves else player.choose(rs, game.state, decision))
    h = history.record(game)
    headings = [h.heading(i) for i in range(1, h.last + 1)]
    assert any("· USSR: move " in line for line in headings)
    assert [line for line in headings if re.search(r"· (\w+): move \1 ", line)] == []
    assert not any("AAGun" in line for line in headings)
