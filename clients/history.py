"""A game's history, action by action, as TripleA's history view shows it: the game as it
stood at the start and after each action, who played the action, its words and what it
caused, so that a client can step through a saved game forwards and backwards and jump to a
turn. The states come from playing the game's actions again from its seed, as a replay does
(a state shares its unchanged pieces with the one before, so keeping them all is cheap).

`wargame replay SAVE --history [TURN]` prints it, `--watch` steps through it (the window,
clients/gui_replay.py, or the terminal, `watch` here); the terminal's `history [N]` shows
the game being played so. No pyglet here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clients import words
from engine.actions import Action, Decision
from engine.game import Game
from engine.state import GameState


@dataclass
class Step:
    """The game after action `number` (0: as it began)."""

    number: int
    #: who played the action, and its words ("" for the start)
    player: str
    words: str
    #: the turn the game is in after the action (a turn's first step is the state it begins
    #: with), and the turn the action was played in
    turn: int
    state: GameState
    decision: Decision | None
    #: the game's log up to here (its length), and where this action's events begin in it
    log_end: int
    log_start: int
    action: Action | None = None
    #: the decision the action answered (its kind: "choose" continues a battle)
    answered: Decision | None = None
    played_in: int = 0


@dataclass
class History:
    """Every step of one game (see the module's docstring)."""

    game: Game                       # the game, played to its last action (its log whole)
    steps: list[Step] = field(default_factory=list)
    _spaced: Callable[[str], str] | None = field(default=None, repr=False)

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def turns(self) -> list[int]:
        return sorted({s.turn for s in self.steps})

    def turn_start(self, turn: int) -> int:
        """The first step of `turn` (the start of the game for turn 0; the last step when the
        game never reached it)."""
        for s in self.steps:
            if s.turn >= turn:
                return s.number
        return self.last

    def next_turn(self, i: int, by: int) -> int:
        """The start of the next turn (`by` 1), or of this turn or the one before (`by` -1:
        as a player steps back, the start of the turn first)."""
        turn = self.steps[i].turn
        if by > 0:
            return self.turn_start(turn + 1)
        here = self.turn_start(turn)
        return here if i > here else max(0, self.turn_start(turn - 1)) if i > 0 else 0

    def events(self, i: int) -> list[tuple[str, Any]]:
        s = self.steps[i]
        return list(self.game.log[s.log_start:s.log_end])

    def heading(self, i: int) -> str:
        """One line for step i: "action 12 of 340 · turn 1 · Germany: attack Karelia"."""
        s = self.steps[i]
        if s.number == 0:
            return f"the start of the game · {self.last} action{'s' if self.last != 1 else ''} in all"
        return f"action {s.number} of {self.last} · turn {s.played_in} · {s.player}: {self.said(s)}"

    def said(self, s: Step) -> str:
        """A step's action in players' words after the player's name: unit names spaced, the
        player not named twice ("USSR: move Fighter", not "USSR: move USSR Fighter")."""
        rs = self.game.ruleset
        if self._spaced is None:
            self._spaced = words.for_ruleset(rs)
        return self._spaced(words.said_by(rs, s.player, s.words))

    def lines(self, i: int, words: Callable[[Sequence[tuple[str, Any]]], list[str]] | None = None) -> list[str]:
        """Step i in players' words: its heading, what the action caused, where the game stands."""
        from clients.game_log import log_lines

        out = [self.heading(i)]
        told = (words or (lambda ev: log_lines(self.game, ev)))(self.events(i))
        out += [f"  {t}" for t in told]
        out.append("  now: " + self.game.ruleset.logic.status(self.steps[i].state))
        return out


def record(game: Game) -> History:
    """The history of `game`: its actions played again from its seed, each state kept."""
    again = Game(game.ruleset, game.scenario, game.seed)
    return _played(again, game.actions)


def _played(game: Game, actions: Iterable[Action]) -> History:
    h = History(game)
    h.steps.append(Step(0, "", "", game.state.turn, game.state, game.decision, len(game.log), 0))
    for n, action in enumerate(actions, 1):
        asked, turn = game.decision, game.state.turn
        start = len(game.log)
        game.play(action)
        h.steps.append(Step(n, asked.player if asked is not None else "", _words(action, asked),
                            game.state.turn, game.state, game.decision, len(game.log), start, action, asked, turn))
    return h


def _words(action: Action, asked: Decision | None) -> str:
    """An action in the words the player saw: its label, or the label of the option it was."""
    if action.label:
        return action.label
    if asked is not None:
        same = next((a.label for a in asked.options if a == action and a.label), "")
        if same:
            return same
    return str(action)


def from_save(path: str | Path, mods: Iterable[str | Path] = (), trust_code: bool = False) -> History:
    """The history of a saved game (checked as `wargame replay` checks it: save.SaveError
    when it cannot be replayed)."""
    from engine import save

    report = save.replay(path, list(mods), trust_code=trust_code)
    return record(report.game)


def text(h: History, from_turn: int = 0) -> list[str]:
    """The whole history from the start of `from_turn`, a block of lines a step."""
    out: list[str] = []
    for i in range(h.turn_start(from_turn) if from_turn else 0, len(h.steps)):
        out += h.lines(i)
    return out


HELP = ("Enter or n: the next action · b: back one · N (a number): that action · turn T: the start of turn T · "
        "> / <: the next / previous turn · map [SPACE]: the map · q: quit")


def watch(h: History, read: Callable[[str], str], write: Callable[[str], None], start: int = 0) -> int:
    """Step through the history in a terminal, forwards and backwards; returns 0 when the
    player quits (or the input ends)."""
    from clients import textmap

    i = max(0, min(start, h.last))
    write(HELP)
    for line in h.lines(i):
        write(line)
    while True:
        try:
            cmd = read(f"[{i}/{h.last}] > ").strip().lower()
        except EOFError:
            return 0
        word, _, rest = cmd.partition(" ")
        if word in ("q", "quit", "exit"):
            return 0
        if word in ("h", "help", "?"):
            write(HELP)
            continue
        if word in ("m", "map"):
            state = h.steps[i].state
            around = state.board.find(rest) if rest else None
            if rest and around is None:
                write(f"no space called `{rest}`")
                continue
            write(textmap.hex_map(state, h.game.ruleset.logic, around=around))
            continue
        if word in ("", "n", "next"):
            to = i + 1
        elif word in ("b", "back", "p", "prev"):
            to = i - 1
        elif word == ">":
            to = h.next_turn(i, 1)
        elif word == "<":
            to = h.next_turn(i, -1)
        elif word == "turn" and rest.isdigit():
            to = h.turn_start(int(rest))
        elif cmd.isdigit() and len(cmd) <= 9:
            to = int(cmd)
        else:
            write(f"`{cmd}`? {HELP}")
            continue
        if not 0 <= to <= h.last:
            write("that is the last action" if to > h.last else "that is the start of the game")
            continue
        i = to
        for line in h.lines(i):
            write(line)
