"""Playing in a terminal: the board as text, the turn and score, and each decision asked in
words, answered by number or name. Computer players move by themselves, and what both sides
do is told as it happens.

Nothing here knows a game's rules: it shows the engine's decisions, sends it their options,
and reads the action arguments and events only for the spaces and pieces they name.
"""

from __future__ import annotations

import builtins
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from clients import game_log, seats, textmap
from clients.printable import printable
from engine import save as saves
from engine.actions import Action, Decision, IllegalAction
from engine.game import Game

HELP = """\
Answer with the number of an option, or type words from its name: one match is shown and
asked before it is done; several make a narrower list (`all` shows every option again).
  done          end this step (also `pass`, `finish`, `end`): the option marked `done`
  {map_line}
  {look_line}log        the last events
  undo          take back your last action in this step (and the computer's answers to it)
  save [FILE]   save now (to FILE, and after every action from then on)
  odds [SPACE]  the odds of a battle about to be fought (in SPACE), from the rules themselves
  quit          stop playing (saved first when there is a save file)
"""



def help_text(board: Any) -> str:
    """The commands, in the words of the board: "HEX" on a hex map, "SPACE" (or the one
    kind its spaces share: "TERRITORY"...) on another."""
    noun = textmap.space_noun(board)
    word = noun.upper().replace(" ", "_")
    if any(sp.hex is not None for sp in board.spaces.values()):
        map_line = f"map           the board            map {word:<6} the {textmap.plural(noun)} around {word} (id or name)"
    else:
        map_line = "map           the board (its spaces, each with its neighbours)"
    look_line = f"look {word}".ljust(14) + f"what stands in a {noun}".ljust(32)
    return HELP.format(map_line=map_line, look_line=look_line)


MAX_SHOWN = 40
FINISH_WORDS = frozenset(("done", "pass", "finish", "end"))
YES = frozenset(("y", "yes"))

Saver = Callable[[Game], None]


class _Quit(Exception):
    """The person quit, or the input ended."""


class _Undo:
    """What `_ask` returns when the person asks to undo."""


UNDO = _Undo()


def play_terminal(game: Game, computer: Mapping[str, Any], saver: Saver | None,
                  read: Callable[[str], str] | None = None, write: Callable[[str], None] | None = None) -> int:
    """Play `game` in the terminal until it ends or the person quits; the computer plays the
    sides in `computer`. `saver` (if any) is called after every change. `read` and `write`
    default to `input` and `print` (looked up when called)."""
    console = write is None
    session = TerminalGame(game, computer, saver, read or (lambda prompt: builtins.input(printable(prompt))),
                           write or (lambda text: builtins.print(text)))
    try:
        return session.run()
    except BrokenPipeError:
        # the output was closed (`wargame play | head`): stop quietly, keeping the game
        session.save(quiet=True)
        if console:
            _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """Point stdout at the null device so that Python's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class TerminalGame:
    def __init__(self, game: Game, computer: Mapping[str, Any], saver: Saver | None,
                 read: Callable[[str], str], write: Callable[[str], None]) -> None:
        self.game = game
        self.computer = dict(computer)
        self.saver = saver
        self.read = read
        self.write = write
        self.logic = game.ruleset.logic
        self.seen = len(game.log)
        self.changes = 0             # actions played and taken back, to know when to save
        self.saved_at = -1           # the value of `changes` when last saved

    # -- the game ----------------------------------------------------------------------------
    def run(self) -> int:
        game = self.game
        info = game.ruleset.info
        self.write(f"{info.title} — {game.scenario}   (type `help` for commands)")
        fidelity = info.scenario(game.scenario).fidelity
        if fidelity != "exact":
            self.write(f"Map fidelity: {fidelity} (a designer's approximation, not the printed board)")
        self.write(textmap.hex_map(game.state, self.logic))
        self.narrate()
        while True:
            if game.over:
                r = game.result
                assert r is not None
                score = ", ".join(f"{k} {v}" for k, v in r.score.items())
                self.write(f"Game over: {'winner: ' + r.winner if r.winner else 'draw'} — {r.reason}"
                           + (f" ({score})" if score else ""))
                self.save(quiet=True)
                return 0
            decision = game.decision
            assert decision is not None
            seat = seats.deciding(game.ruleset, decision.player)
            if seat in self.computer:
                if not self.play_computer(decision, self.computer[seat]):
                    return 1
                continue
            self.save(quiet=True)       # the computer's moves are kept before a person is asked
            try:
                answer = self._ask(decision)
            except _Quit:
                if self.save(quiet=True):
                    self.write("saved.")
                return 0
            if answer is UNDO:
                self.undo()
                continue
            assert isinstance(answer, Action)
            try:
                game.play(answer)
            except IllegalAction as e:
                self.write(f"refused: {e.reason}")
                continue
            self.changes += 1
            self.save(quiet=True)
            self.narrate()

    def play_computer(self, decision: Decision, player: Any) -> bool:
        action = player.choose(self.game.ruleset, self.game.state, decision)
        try:
            self.game.play(action)
        except IllegalAction as e:
            name = getattr(player, "name", "computer")
            self.write(f"the computer player `{name}` chose a refused action ({action}): {e.reason}")
            self.save(quiet=True)
            return False
        self.changes += 1
        if not self.narrate():
            # nothing its events say: tell what it chose
            self.write(f"  {decision.player} (computer): {action.label or action}")
        return True

    def mine(self, player: str) -> bool:
        """Whether a person (not a computer player) answers for `player`."""
        return seats.seat_of(self.game.ruleset, player) not in self.computer

    def undo(self) -> None:
        try:
            n = self.game.undo(self.mine)
        except IllegalAction as e:
            self.write(e.reason)
            return
        self.changes += 1
        self.seen = len(self.game.log)
        self.write(f"  (undone: {n} action{'s' if n != 1 else ''}"
                   + (" — yours and the computer's answers to it)" if n > 1 else ")"))
        self.save(quiet=True)

    def save(self, quiet: bool = False) -> bool:
        """Save if there is somewhere to and something changed since (or always when not
        `quiet`). True if saved."""
        if self.saver is None or (quiet and self.saved_at == self.changes):
            return False
        try:
            self.saver(self.game)
        except OSError as e:
            self.write(f"could not save: {e}")
            return False
        self.saved_at = self.changes
        return True

    def save_to(self, path: str) -> None:
        def saver(game: Game) -> None:
            saves.save(game, path)        # as the command line's --save does

        try:
            saver(self.game)
        except OSError as e:
            self.write(f"could not save to {path}: {e}")
            return
        self.saver = saver
        self.saved_at = self.changes
        self.write(f"saved to {path} (and from now on after every action)")

    # -- telling what happened ---------------------------------------------------------------------
    def narrate(self) -> bool:
        """Tell the events logged since last time. True if anything was told."""
        log = self.game.log
        if self.seen > len(log):
            self.seen = len(log)
        lines = self.event_lines(log[self.seen:])
        self.seen = len(log)
        for line in lines:
            self.write("  " + line)
        return bool(lines)

    def event_lines(self, events: Iterable[tuple[str, Mapping[str, Any]]]) -> list[str]:
        return game_log.log_lines(self.game, events)

    def space_name(self, sid: Any) -> str:
        return game_log.space_name(self.game, sid)

    # -- asking ----------------------------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise _Quit from None

    def _confirm(self, question: str) -> bool:
        while True:
            answer = self._read(question).strip().lower()
            if answer in YES:
                return True
            if answer in ("n", "no", ""):
                return False
            if answer in ("q", "quit", "exit"):
                raise _Quit

    def _focus(self, decision: Decision) -> str | None:
        """The space a decision is about, when its context names one."""
        board = self.game.state.board
        context = decision.context or {}
        value = context.get("hex", context.get("space"))
        if isinstance(value, str) and value in board:
            return value
        for v in context.values():
            if isinstance(v, str) and v in board:
                return v
        return None

    def _ask(self, decision: Decision) -> Action | _Undo:
        game, logic, write = self.game, self.logic, self.write
        write("")
        focus = self._focus(decision)
        if focus:
            write(textmap.hex_map(game.state, logic, around=focus, radius=3, legend=False))
        write(logic.status(game.state))
        write(f"{decision.player}: {decision.prompt}")
        shown = list(decision.options)
        narrowed = False
        self._list(decision, shown, narrowed)
        while True:
            line = self._read("> ").strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word, rest = word.lower(), rest.strip()
            if word in ("q", "quit", "exit"):
                raise _Quit
            if word in ("h", "help", "?"):
                write(help_text(game.state.board))
                continue
            if word in ("m", "map"):
                around = game.state.board.find(rest) if rest else None
                if rest and around is None:
                    write(f"no space called `{rest}`")
                    continue
                write(textmap.hex_map(game.state, logic, around=around))
                continue
            if word in ("look", "l") and rest:
                sid = game.state.board.find(rest)
                write(logic.describe_space(game.state, sid) if sid else f"no space called `{rest}`")
                continue
            if word == "odds":
                write(self.odds(decision, rest))
                continue
            if word == "log":
                for text in self.event_lines(game.log[-40:])[-15:]:
                    write("  " + text)
                continue
            if word in ("u", "undo") and not rest:
                if not game.can_undo(self.mine):
                    write("there is nothing of yours to undo in this step (dice rolled or the step began since)"
                          if game.can_undo() else "there is nothing to undo in this step")
                    continue
                return UNDO
            if word == "save":
                if rest:
                    self.save_to(rest)
                elif self.saver is not None:
                    if self.save():
                        write("saved.")
                else:
                    write("save FILE: name the file to save to, e.g. `save game.json`")
                continue
            if word in ("all", "list", "options") and not rest:
                shown, narrowed = list(decision.options), False
                self._list(decision, shown, narrowed)
                continue
            if word in FINISH_WORDS and not rest:
                if decision.finish is None:
                    write(f"there is no `{word}` here: choose one of the options")
                    continue
                if self._may_finish(decision, by_word=True):
                    return decision.finish
                continue
            if line.isascii() and line.isdigit():       # (`²` and `١` are digits too, to isdigit)
                n = int(line) if len(line) <= 9 else 0
                if not 1 <= n <= len(shown):
                    write(f"choose a number from 1 to {len(shown)}")
                    continue
                action = shown[n - 1]
                if self._is_finish(decision, action) and not self._may_finish(decision, by_word=False):
                    continue
                return action
            low = line.lower()
            exact = [a for a in decision.options if _label(a).lower() == low]
            if exact:
                action = exact[0]
                if self._is_finish(decision, action) and not self._may_finish(decision, by_word=True):
                    continue
                return action
            words = low.split()
            matches = [a for a in decision.options if all(w in _label(a).lower() for w in words)]
            if not matches:
                write(f"no option matches `{line}`; type `help` for commands")
                continue
            if len(matches) == 1:
                action = matches[0]
                if self._is_finish(decision, action):
                    if self._may_finish(decision, by_word=True):
                        return action
                    continue
                number = decision.options.index(action) + 1
                write(f"  that is: {number}. {_label(action)}")
                if self._confirm("  do it? (y/n) "):
                    return action
                continue
            shown, narrowed = matches, True
            write(f"  {len(matches)} of {len(decision.options)} options match `{line}` — a narrowed list: "
                  "its numbers are the ones below (`all` lists every option again)")
            self._list(decision, shown, narrowed)

    def odds(self, decision: Decision, rest: str) -> str:
        """The odds of a battle the decision offers to fight (clients.odds, from the rules)."""
        from clients import odds, odds_cli, odds_setup

        rs, state = self.game.ruleset, self.game.state
        sites = odds_setup.pending_battles(rs, state, decision.options)
        if not sites:
            return "there is no battle about to be fought here"
        if rest:
            try:
                where = odds_setup.find_space(state.board, rest)
            except odds.OddsError as e:
                return str(e)
            if where not in sites:
                return f"no battle in {self.space_name(where)}: " + ", ".join(self.space_name(s) for s in sites)
        elif len(sites) == 1:
            where = sites[0]
        else:
            return "odds SPACE: which battle? " + ", ".join(self.space_name(s) for s in sites)
        try:
            battle = odds_setup.from_game(rs, state, where)
            out = odds.odds(battle)
        except odds.OddsError as e:
            return str(e)
        return odds_cli.as_text(odds_cli.as_json(battle, out, "triplea", None))

    @staticmethod
    def _is_finish(decision: Decision, action: Action) -> bool:
        return decision.finish is not None and action == decision.finish

    def _may_finish(self, decision: Decision, by_word: bool) -> bool:
        """Whether to end the step: at once when nothing else is open or the person chose it
        by number; otherwise once they confirm."""
        others = [a for a in decision.options if a != decision.finish]
        wanted = bool(decision.context.get("confirm_finish")) if decision.context else False
        if not others or not (by_word or wanted):
            return True
        finish = decision.finish
        assert finish is not None
        n = len(others)
        return self._confirm(f"  {_label(finish)}: this ends the step with {n} other option"
                             f"{'s' if n != 1 else ''} unused — really end? (y/n) ")

    def _list(self, decision: Decision, options: list[Action], narrowed: bool) -> None:
        write = self.write
        finish = decision.finish
        listed_finish = False
        for i, a in enumerate(options[:MAX_SHOWN], 1):
            mark = ""
            if finish is not None and a == finish:
                mark, listed_finish = "   (or type `done`)", True
            write(f"  {i:>3}. {_label(a)}{mark}")
        if len(options) > MAX_SHOWN:
            write(f"  ... and {len(options) - MAX_SHOWN} more: type words from a name to narrow the list")
        if finish is not None and not listed_finish:
            if not narrowed and finish in options:
                write(f"  {options.index(finish) + 1:>3}. {_label(finish)}   (or type `done`)")
            else:
                write(f"  done: {_label(finish)}")


def _label(action: Action) -> str:
    return action.label or str(action)
