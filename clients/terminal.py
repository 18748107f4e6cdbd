"""Playing in a terminal: the board as text, the turn and score, and each decision asked in
words, answered by number or name. Computer players move by themselves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clients import seats, textmap
from engine.actions import Action, Decision, IllegalAction
from engine.game import Game

HELP = """\
Answer with the number of an option, or type part of its name to narrow the list.
  map           the whole board          map HEX   the hexes around HEX (id or town name)
  look HEX      what stands in a space   log       the last events
  undo          take back your last action in this step (not dice)
  save          save now (with --save)   quit      stop playing
"""

MAX_SHOWN = 40


def play_terminal(game: Game, computer: dict[str, Any], saver: Callable[[Game], None] | None,
                  read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> int:
    logic = game.ruleset.logic
    seen = 0
    write(f"{game.ruleset.info.title} — {game.scenario}   (type `help` for commands)")
    fidelity = game.ruleset.info.scenario(game.scenario).fidelity
    if fidelity != "exact":
        write(f"Map fidelity: {fidelity} (a designer's approximation, not the printed board)")
    write(textmap.hex_map(game.state, logic))
    while True:
        seen = _narrate(game, seen, write)
        if game.over:
            r = game.result
            assert r is not None
            score = ", ".join(f"{k} {v}" for k, v in r.score.items())
            write(f"Game over: {'winner: ' + r.winner if r.winner else 'draw'} — {r.reason}" + (f" ({score})" if score else ""))
            if saver:
                saver(game)
            return 0
        decision = game.decision
        assert decision is not None
        seat = seats.seat_of(game.ruleset, decision.player)
        if seat in computer:
            player = computer[seat]
            game.play(player.choose(game.ruleset, game.state, decision))
            continue
        action = _ask(game, decision, read, write)
        if action is None:
            if saver:
                saver(game)
                write("saved.")
            return 0
        try:
            game.play(action)
        except IllegalAction as e:
            write(f"refused: {e.reason}")
            continue
        if saver:
            saver(game)


def _narrate(game: Game, seen: int, write: Callable[[str], None]) -> int:
    logic = game.ruleset.logic
    for event in game.log[seen:]:
        text = logic.narrate(event)
        if text:
            write("  " + text)
    return len(game.log)


def _ask(game: Game, decision: Decision, read: Callable[[str], str], write: Callable[[str], None]) -> Action | None:
    logic = game.ruleset.logic
    shown = decision.options
    write("")
    focus = decision.context.get("hex") if decision.context else None
    if focus:
        write(textmap.hex_map(game.state, logic, around=focus, radius=3))
    write(logic.status(game.state))
    write(f"{decision.player}: {decision.prompt}")
    _list(shown, write)
    while True:
        try:
            line = read("> ").strip()
        except EOFError:
            return None
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("q", "quit", "exit"):
            return None
        if word in ("h", "help", "?"):
            write(HELP)
            continue
        if word in ("m", "map"):
            around = game.state.board.find(rest.strip()) if rest.strip() else None
            if rest.strip() and around is None:
                write(f"no space called `{rest.strip()}`")
                continue
            write(textmap.hex_map(game.state, logic, around=around))
            continue
        if word in ("look", "l") and rest.strip():
            sid = game.state.board.find(rest.strip())
            write(logic.describe_space(game.state, sid) if sid else f"no space called `{rest.strip()}`")
            continue
        if word == "log":
            for event in game.log[-15:]:
                text = logic.narrate(event)
                if text:
                    write("  " + text)
            continue
        if word in ("u", "undo"):
            try:
                game.undo()
            except IllegalAction as e:
                write(e.reason)
                continue
            return _ask(game, game.decision, read, write) if game.decision else None  # type: ignore[arg-type]
        if word == "save":
            write("use --save FILE when starting the game; it then saves after every action")
            continue
        if line.isdigit():
            n = int(line)
            if 1 <= n <= len(shown):
                return shown[n - 1]
            write(f"choose a number from 1 to {len(shown)}")
            continue
        exact = [a for a in shown if (a.label or str(a)).lower() == line.lower()]
        if exact:
            return exact[0]
        narrowed = [a for a in decision.options if line.lower() in (a.label or str(a)).lower()]
        if len(narrowed) == 1:
            return narrowed[0]
        if not narrowed:
            write(f"no option matches `{line}`; type `help` for commands")
            continue
        shown = narrowed
        _list(shown, write)


def _list(options: list[Action], write: Callable[[str], None]) -> None:
    for i, a in enumerate(options[:MAX_SHOWN], 1):
        write(f"  {i:>3}. {a.label or a}")
    if len(options) > MAX_SHOWN:
        write(f"  ... and {len(options) - MAX_SHOWN} more: type part of a name to narrow the list")
