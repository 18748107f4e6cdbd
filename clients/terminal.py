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

from clients import game_log, seats, textmap, words
from clients.printable import printable
from engine import save as saves
from engine.actions import Action, Decision, IllegalAction
from engine.board import fold_name
from engine.game import Game

HELP = """\
Answer with the number of an option (an option keeps its number while the question is
asked), or type words from its name, in any case, with or without accents and punctuation:
one match is shown and asked before it is done; several make a narrower list (`all` shows
every option again). A space's id or name alone lists the options that name it.
  done          end this step (also `pass`, `finish`, `end`): the option marked `done`
  {map_line}
  {look_line}log           the last events
  undo          take back your last action in this step (and the computer's answers to it)
  save [FILE]   save now (to FILE, and after every action from then on)
  odds [SPACE]  the odds of a battle about to be fought (in SPACE), from the rules themselves
  history [N]   the game's last actions, numbered; with N, action N: what it caused, where the game stood
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
        map_line = (f"map           the board (its {textmap.plural(noun)}, one a line)   map {word}   that {noun} "
                    "and its neighbours")
    look_line = f"look {word}".ljust(14) + f"what stands in a {noun}, its worth, its neighbours" + "\n  "
    return HELP.format(map_line=map_line, look_line=look_line)


MAX_SHOWN = 40
#: a board drawn at the start at most this tall; a longer one is only offered (`map`)
START_MAP_LINES = 60
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
        self.words = words.for_ruleset(game.ruleset)        # unit names spaced as players read them
        self.write = lambda text: write(self.words(text))
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
        board = textmap.hex_map(game.state, self.logic)
        if board.count("\n") < START_MAP_LINES:
            self.write(board)
        else:                       # a long list of spaces (a world map): said how to see it
            noun = textmap.space_noun(game.state.board)
            self.write(f"The board has {len(game.state.board.spaces)} spaces: `map` lists them, `map NAME` "
                       f"shows one {noun} and its neighbours, `look NAME` what stands there.")
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
                else:
                    self.keep_on_quit()
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
            said = words.said_by(self.game.ruleset, decision.player, action.label or str(action))
            self.write(f"  {decision.player} (computer): {said}")
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

    def keep_on_quit(self) -> None:
        """Quitting a game whose moves no file keeps: ask where to save it (a file named
        after the ruleset and the time is offered), or say that they are not kept."""
        if self.saver is not None or self.changes == 0 or self.game.over:
            return
        import time

        n = self.changes
        name = f"{self.game.ruleset.name}-{time.strftime('%Y%m%d-%H%M')}.json"
        try:
            answer = self.read(f"this game's moves ({n}) are in no file: save them to {name}? "
                               "(y, n, or a file name) ").strip()
        except (EOFError, KeyboardInterrupt):
            answer = "n"
        if answer.lower() in ("n", "no", ""):
            self.write("not saved (`wargame play --save FILE` keeps a game as it is played)")
            return
        self.save_to(name if answer.lower() in YES else answer)

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
            self.write(f"  `{answer}`? answer y (yes) or n (no)")     # (an option's number is no answer here)

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
        options = list(decision.options)         # numbered 1.. while this question is asked
        self._list(decision, options, options)
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
                if around is not None and game.state.board.space(around).hex is None:
                    write(self.look(around))           # a space of a world map: it and its neighbours
                    continue
                write(textmap.hex_map(game.state, logic, around=around))
                continue
            if word in ("look", "l") and rest:
                sid = game.state.board.find(rest)
                write(self.look(sid) if sid else f"no space called `{rest}`")
                continue
            if word == "odds":
                write(self.odds(decision, rest))
                continue
            if word == "history":
                write(self.history(rest))
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
                self._list(decision, options, options)
                continue
            if word in FINISH_WORDS and not rest:
                if decision.finish is None:
                    write(f"there is no `{word}` here: choose one of the options")
                    continue
                if self._may_finish(decision, by_word=True):
                    return decision.finish
                continue
            sid = self._space_typed(line, len(options))
            if line.isascii() and line.isdigit() and sid is None:       # (`²` and `١` are digits too, to isdigit)
                n = int(line) if len(line) <= 9 else 0
                if not 1 <= n <= len(options):
                    write(f"choose a number from 1 to {len(options)}")
                    continue
                action = options[n - 1]
                if self._is_finish(decision, action) and not self._may_finish(decision, by_word=False):
                    continue
                return action
            low = line.lower()
            exact = [a for a in options if _label(a).lower() == low or self.words(_label(a)).lower() == low]
            if exact:
                action = exact[0]
                if self._is_finish(decision, action) and not self._may_finish(decision, by_word=True):
                    continue
                return action
            if sid is not None:           # a space alone: the options that name it
                matches = [a for a in options if self._names_space(a, sid)]
                if not matches:
                    write(f"no option names {self.space_name(sid)} (`look {line}` shows what is there)")
                    continue
            else:
                typed = fold_name(line).split()
                matches = [a for a in options if all(w in _typed_words(_label(a)) for w in typed)]
            if not matches:
                write(f"no option matches `{line}`; type `help` for commands")
                continue
            if len(matches) == 1:
                action = matches[0]
                if self._is_finish(decision, action):
                    if self._may_finish(decision, by_word=True):
                        return action
                    continue
                number = options.index(action) + 1
                write(f"  that is: {number}. {_label(action)}")
                if self._confirm("  do it? (y/n) "):
                    return action
                continue
            write(f"  {len(matches)} of {len(options)} options match `{line}` — a narrowed list, each "
                  "option with its own number (`all` lists every option again)")
            self._list(decision, options, matches)

    def _space_typed(self, line: str, n_options: int) -> str | None:
        """The space a line names when it is a space's id or name: a number is an option's
        while it could be one (1 to the options' count, no leading zero), else a space id
        ("1318", "0101")."""
        board = self.game.state.board
        if line.isascii() and line.isdigit() and not line.startswith("0") and len(line) <= 9 and 1 <= int(line) <= n_options:
            return None
        return board.find(line)

    def _names_space(self, action: Action, sid: str) -> bool:
        """Whether an option names space `sid`: in its arguments, or its id or name in its words."""
        for value in action.args.values():
            if value == sid or (isinstance(value, (list, tuple, frozenset, set)) and sid in value):
                return True
        words = f" {fold_name(_label(action))} "
        sp = self.game.state.board.space(sid)
        return f" {fold_name(sid)} " in words or (bool(sp.name) and f" {fold_name(sp.name)} " in words)

    def look(self, sid: str) -> str:
        """A space in words (the rules' line on it: what stands there, its worth) and its
        neighbours."""
        board = self.game.state.board
        around = ", ".join(sorted(self.space_name(n) for n in board.neighbours(sid)))
        return self.logic.describe_space(self.game.state, sid) + (f"\n  next to: {around}" if around else "")

    def odds(self, decision: Decision, rest: str) -> str:
        """The odds of a battle the decision offers to fight (clients.odds, from the rules)."""
        from clients import odds, odds_cli, odds_setup

        rs, state = self.game.ruleset, self.game.state
        sites = odds_setup.pending_battles(rs, state, decision.options)
        if not sites:
            return self._odds_going_on(rest)
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

    def _odds_going_on(self, rest: str) -> str:
        """The odds of a battle being fought (its question asked: a casualty, press on or
        retreat): the units left there, fought as a new battle."""
        from clients import calculator, odds, odds_cli, odds_setup

        state = self.game.state
        if rest:
            try:
                spaces = [odds_setup.find_space(state.board, rest)]
            except odds.OddsError as e:
                return str(e)
        else:
            spaces = list(state.board.spaces)
        found = calculator.fighting(self.game, spaces)
        if found is None:
            return "there is no battle about to be fought here" if not rest else \
                f"no battle in {self.space_name(spaces[0])}"
        where, att, dfn = found
        try:
            battle = odds_setup.set_up(self.game.ruleset, calculator.count(att), calculator.count(dfn), where)
            out = odds.odds(battle)
        except odds.OddsError as e:
            return str(e)
        return ("the battle being fought: the units left, fought as a new battle\n"
                + odds_cli.as_text(odds_cli.as_json(battle, out, "triplea", None)))

    def history(self, rest: str) -> str:
        """The game's last actions, one a line, numbered (TripleA's history); with a number,
        that action: what it caused and where the game stood after it."""
        from clients import history

        h = history.record(self.game)
        if not h.last:
            return "no action has been played yet"
        if not rest:
            return "\n".join(h.heading(i) for i in range(max(1, h.last - 9), h.last + 1)) + \
                "\n(history N shows action N)"
        if not (rest.isascii() and rest.isdigit() and len(rest) <= 9 and int(rest) <= h.last):
            return f"history N: N is an action's number, from 0 (the start) to {h.last}"
        return "\n".join(h.lines(int(rest), lambda ev: game_log.log_lines(h.game, ev)))

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

    def _list(self, decision: Decision, options: list[Action], shown: list[Action]) -> None:
        """The options `shown` (all of them, or a narrowed list), each by its number among
        all the `options`, so that a number means the same option all the question long."""
        write = self.write
        finish = decision.finish
        listed_finish = False
        numbers = _numbers(options, shown)
        for n, a in zip(numbers[:MAX_SHOWN], shown[:MAX_SHOWN], strict=True):
            mark = ""
            if finish is not None and a == finish:
                mark, listed_finish = "   (or type `done`)", True
            write(f"  {n:>3}. {_label(a)}{mark}")
        if len(shown) > MAX_SHOWN:
            write(f"  ... and {len(shown) - MAX_SHOWN} more: type words from a name to narrow the list")
        if finish is not None and not listed_finish:
            if finish in options:
                write(f"  {options.index(finish) + 1:>3}. {_label(finish)}   (or type `done`)")
            else:
                write(f"  done: {_label(finish)}")


def _numbers(options: list[Action], shown: list[Action]) -> list[int]:
    """The number of each shown option among all the options (1 the first)."""
    if shown is options:
        return list(range(1, len(options) + 1))
    out, start = [], 0
    for a in shown:                 # a narrowed list keeps the options' order: look on from the last
        i = next((j for j in range(start, len(options)) if options[j] == a), None)
        if i is None:
            i = options.index(a)
        out.append(i + 1)
        start = i + 1
    return out


def _label(action: Action) -> str:
    return action.label or str(action)


def _typed_words(text: str) -> str:
    """An option's words as a player may type them: folded (engine.board.fold_name), and
    again without the dots of abbreviations ("karelia ssr" for "Karelia S.S.R.")."""
    return fold_name(text) + " " + fold_name(text.replace(".", ""))
