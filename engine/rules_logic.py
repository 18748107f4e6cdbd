"""A game played from its rules files: the steps they declare become the decisions the
engine asks, and their moves validate the actions that answer them.

One declaration per move gives both the options a client lists (`offers`) and the check of
an action sent back (`check`), so the two cannot drift. A step goes through these stages,
kept in `state.started` beside the position in the turn it belongs to:

    start  -> its `start` block runs (it may ask players questions)
    run    -> its player is asked for a move while its `while` holds; with nothing to offer,
              its `finish` runs by itself (a side that cannot attack passes)
    done   -> its `end` block runs
    over   -> the engine moves the sequence on

A block that calls `choose` is a *task*: when it has to ask, the state keeps the task and
its answers so far, and the answer re-runs it from where it began (see engine.asking).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from dsl.errors import Refused, RulesRuntimeError
from dsl.model import MoveSpec, StepSpec, TaskSpec
from dsl.runtime import Nested, Offered
from dsl.types import ListType, RecordType, Type
from engine.actions import FIND_FINISH, Action, Decision, IllegalAction, Options, Pending
from engine.asking import AskPlayer, encode
from engine.mapfile import load_map
from engine.ruleset import GameLogic, Result, RulesetInfo, ScenarioInfo
from engine.scenario import ScenarioDataError, map_file, read_scenario, set_up
from engine.sequence import TurnStructure
from engine.state import GameState

#: how many times a step may go round by itself, with nobody asked, before the rules are stopped
MAX_AUTO = 10_000

FINISH = "finish"
#: the finish of a step whose rules give it no words of its own
_FINISH_ACTION = Action(FINISH, {}, label="finish")


#: (a listing in which no move shares its first choices: see `_offers`)
_NO_FIRSTS: dict[str, Any] = {}


class RulesLogic(GameLogic):
    """Drives the steps the rules files declare. A step they do not declare is handed to
    `host_decision` / `host_apply`, which a ruleset still written partly in Python overrides.
    A ruleset with no Python at all gets this logic and sets up its scenarios from their files."""

    def __init__(self, rules: Any, info: RulesetInfo, structure: TurnStructure) -> None:
        super().__init__(rules, info, structure)
        #: (step, move) -> the index of the choice the last decision of the step found passing
        #: (see _any_passes)
        self._found_at: dict[tuple[str, str], int] = {}
        #: reset kind (turn, power...) -> the rules' variables of that reset with their
        #: starting values, made once: boundaries come some 2,500 times a random AARHE game.
        #: The values are shared by every state they are set on: compiled rules never change
        #: a variable's value in place (a map or list is copied when written), as state
        #: copies, which share them too, rely on
        self._reset_vars: dict[str, dict[str, Any]] = {}

    # -- setting up -------------------------------------------------------------------------------
    def new_state(self, scenario: str, seed: int) -> GameState:
        info = self.info.scenario(scenario)
        if info.path is None:
            raise ScenarioDataError(f"scenario `{info.name}` of `{self.info.name}` names no scenario file")
        sc = read_scenario(info.path)
        path = map_file(info.path, sc.map, dict(self.info.roots))
        try:
            board = _board(path, self.info.map_changes)
        except ValueError as exc:
            raise ScenarioDataError(f"{info.path.name}: its map: {exc}", getattr(exc, "problems", ())) from None
        state = GameState(board, self.rules, seed)
        state.vars = initial_vars(self.rules)
        set_up(state, sc, self.rules, info.path.name, info.path, tuple(self.structure.powers))
        return state

    def result(self, state: GameState) -> Result | None:
        if state.result is None:
            return None
        r = state.result
        return Result(r.get("winner"), r.get("reason", ""), self.score(state))

    def score(self, state: GameState) -> dict[str, Any]:
        """The rules' `procedure score() -> map[str, int]`, if they have one."""
        if self.rules.has_procedure("score"):
            return dict(self.rules.procedure("score")(state))
        return {}

    def measures(self, state: GameState) -> dict[str, float]:
        """The rules' `procedure measures() -> map[str, int]` (or `map[str, float]`), if they
        have one: what decides the game, read by `wargame simulate` at the end of every turn;
        else the score."""
        if not self.rules.has_procedure("measures"):
            return super().measures(state)
        out: dict[str, float] = {}
        for name, value in dict(self.rules.procedure("measures")(state)).items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise RulesRuntimeError(f"procedure `measures`: `{name}` is {value!r}, not a number")
            out[str(name)] = value
        return out

    def final_result(self, state: GameState) -> Result:
        return Result(None, "the last turn was played: a draw", self.score(state))

    def status(self, state: GameState) -> str:
        """The line a player reads on where the game stands. A ruleset words it in its rules:
        `procedure status_line() -> str` gives the whole line; without it, the engine's line
        (turn, power, phase and step) is followed by `procedure power_summary(p: str) -> str`
        for each power in turn order, where the rules have one (an empty answer is left out)."""
        rules = self.rules
        if rules.has_procedure("status_line"):
            return str(rules.procedure("status_line")(state))
        line = super().status(state)
        if rules.has_procedure("power_summary"):
            summary = rules.procedure("power_summary")
            parts = [str(summary(state, p)) for p in self.structure.powers]
            line += " | " + ", ".join(part for part in parts if part)
        return line

    def facts(self, state: GameState) -> dict[str, Any]:
        """The engine's facts for `wargame info`; each power's starting resources (with `turn
        order`, in that order) and what the rules' `procedure income(p: str) -> int` gives it,
        where they have one (`powers`, for every scenario); then the rules' own words where they
        have a `procedure scenario_facts() -> map[str, list[str]]` (LHTR: each power's IPCs,
        income and capital, and the victory cities), each a heading and its lines."""
        facts = super().facts(state)
        owners = list(self.structure.powers) if self.structure.per_power else []
        owners += sorted({o for o, _ in state.resources} - set(owners))
        income = self.rules.procedure("income") if self.rules.has_procedure("income") else None
        powers: dict[str, dict[str, int]] = {}
        for o in owners:
            row = {name: v for (who, name), v in sorted(state.resources.items()) if who == o}
            if income is not None:
                row["income"] = int(income(state, o))
            if row:
                powers[o] = row
        if powers:
            facts["powers"] = powers
        if self.rules.has_procedure("scenario_facts"):
            for heading, lines in dict(self.rules.procedure("scenario_facts")(state)).items():
                facts[str(heading)] = [str(line) for line in lines]
        return facts

    def describe_space(self, state: GameState, space: str) -> str:
        """The engine's line on a space (its name, holder and pieces), followed by the rules'
        `procedure space_notes(s: str) -> list[str]` where they have one (AARHE: its terrain,
        the income it will lose and why, the air missions against it)."""
        text = super().describe_space(state, space)
        if self.rules.has_procedure("space_notes"):
            notes = [str(n) for n in self.rules.procedure("space_notes")(state, space) if str(n)]
            if notes:
                text += "; " + "; ".join(notes)
        return text

    def side_of(self, power: str) -> str:
        """The side a power plays on: the rules' `side_of` table or procedure, if they have
        one (five powers, two sides in Axis & Allies), else the power itself."""
        rules = self.rules
        fn = rules.tables.get("side_of")
        if fn is not None:
            return str(fn(power)) or power
        if rules.has_procedure("side_of"):
            return str(rules.procedure("side_of")(None, power)) or power
        return power

    # -- views for clients ----------------------------------------------------------------------------
    def areas(self, scenario: str | None) -> dict[str, str]:
        """The off-board areas the scenario's file declares: id -> name (the id when unnamed)."""
        path = self.scenario_file(self.info.scenario(scenario))
        if path is None:
            return {}
        return {a.id: a.name or a.id for a in read_scenario(path).areas}

    def scenario_file(self, info: ScenarioInfo) -> Path | None:
        """The file a scenario is set up from (a ruleset whose options choose another one says so)."""
        return info.path

    def tracks(self, state: GameState) -> dict[str, tuple[int, int]]:
        """The rules' `procedure tracks() -> map[str, list[int]]`, if they have one: each
        track's name -> (value, target), for the window to draw beside the map."""
        if not self.rules.has_procedure("tracks"):
            return {}
        out: dict[str, tuple[int, int]] = {}
        for name, pair in dict(self.rules.procedure("tracks")(state)).items():
            values = list(pair)
            if len(values) != 2:
                raise RulesRuntimeError(f"procedure `tracks`: `{name}` is {values!r}, not [value, target]")
            out[str(name)] = (int(values[0]), int(values[1]))
        return out

    # -- the steps the rules do not declare -------------------------------------------------------
    def host_decision(self, state: GameState) -> Decision | None:
        return None

    def host_apply(self, state: GameState, action: Action) -> None:
        raise IllegalAction(f"nothing is asked during {self.structure.step(state).replace('_', ' ')}")

    # -- asking ---------------------------------------------------------------------------------------
    def decision(self, state: GameState) -> Decision | None:
        if state.task is not None:
            return state.task_decision  # type: ignore[no-any-return]
        # (the step's blocks run below never move the sequence on: where the state stands is
        # worked out once)
        name = self.structure.step(state)
        spec = self.rules.steps.get(name)
        if spec is None:
            return self.host_decision(state)
        key = (state.turn, state.power_index, state.phase_index, state.step_index)
        for _ in range(MAX_AUTO):
            if state.task is not None:
                return state.task_decision  # type: ignore[no-any-return]
            started = state.started
            stage = started[1] if started is not None and started[0] == key else None
            if stage is None:
                state.started = (key, "start")
                if spec.start is not None and self._run(state, ("start",), spec.start, ()):
                    continue
                state.started = (key, "run")
            elif stage == "run":
                if spec.while_ is not None and not spec.while_(state):
                    state.started = (key, "done")
                    continue
                state.share_entries()
                # (the entries of the listing may share answers: dsl.runtime.ListingSpan)
                span = self.rules.listing if spec.listed else None
                if span is not None:
                    span.begin(state)
                try:
                    blocks, ready = self._offers(state, spec) if spec.moves else ([], False)
                    listed = ready or self._any_passes(name, blocks)
                    player = self._player(state, spec) if listed else ""
                finally:
                    if span is not None:
                        span.end()
                if listed:
                    finish = None
                    if spec.finish is not None:
                        # (its words made when a player reads them, as the moves' are; a finish
                        # that says only "finish" is one Action every decision shares)
                        finish = _FINISH_ACTION if spec.finish_label is None else \
                            Action(FINISH, {}, labeler=functools.partial(spec.finish_label, state))
                    # (a step with no finish of its own: the Decision looks among the moves for one)
                    return Decision(player, name, self.prompt(state, spec),
                                    Options(blocks, (finish,) if finish is not None else ()), _step_context(name),
                                    finish=finish if finish is not None else FIND_FINISH)
                if spec.finish is not None:
                    if self._run(state, ("finish",), spec.finish, ()):
                        continue
                    self._complete(state, "finish")
                else:
                    state.started = (key, "done")
            elif stage == "done":
                state.started = (key, "ending")
                if spec.end is not None and self._run(state, ("end",), spec.end, ()):
                    continue
                state.started = (key, "over")
            else:
                return None
        raise RulesRuntimeError(f"step `{self.structure.step(state)}` went round {MAX_AUTO} times without asking "
                                "anyone: does its `while` condition ever become false?")

    def _any_passes(self, step: str, blocks: list[tuple[str, Any, Any]]) -> bool:
        """Does any pending move's choice pass its guard? Each is looked for from where the
        last decision of the step found one (only the time it takes depends on that)."""
        hints = self._found_at
        for kind, _, rows in blocks:
            key = (step, kind)
            i = rows.one_passing(hints.get(key, 0))
            if i is not None:
                hints[key] = i
                return True
        return False

    def prompt(self, state: GameState, spec: StepSpec) -> str:
        """What a step's decision says to its player (a ruleset may word it better)."""
        return _step_words(spec.name)

    def _player(self, state: GameState, spec: StepSpec) -> str:
        if spec.by is not None:
            return str(spec.by(state))
        power = self.structure.power(state)
        if power is None:
            raise RulesRuntimeError(f"step `{spec.name}` has moves but no player: write `step {spec.name} by ...`")
        return power

    def _offers(self, state: GameState, spec: StepSpec) -> tuple[list[tuple[str, Callable[[Any], Action], Any]], bool]:
        """Each move's rows of arguments that pass its guard, with the maker of one row's
        Action: no Action, encoded argument or label is made until a client looks at it.
        A move whose guard only asks questions gives its choices as `Pending`: the guard is
        asked of each only when the options are counted or one is drawn. Also: is there a
        block of rows already checked (then there is an option without asking a guard)?"""
        out: list[tuple[str, Callable[[Any], Action], Any]] = []
        ready = False
        firsts: dict[str, Any] = _NO_FIRSTS     # (a move's first choices a later one takes: `first_as`)
        for mv in spec.moves:
            if mv.candidates is not None:
                if mv.shares:
                    if firsts is _NO_FIRSTS:
                        firsts = {}
                    choices = firsts.get(mv.first_as) if mv.first_as is not None else None
                    if choices is None:
                        choices = mv.candidates(state)
                    if mv.shares_firsts:
                        firsts[mv.name] = choices
                else:
                    choices = mv.candidates(state)
                if not choices:
                    continue
                if mv.admits is None:
                    rows: Any = [(c,) for c in choices]
                    ready = True
                else:
                    rows = Pending(choices, mv.admits, mv.offers, mv.first, state)
            else:
                rows = mv.offers(state)
                if mv.shares_firsts and type(rows) is Nested:
                    if firsts is _NO_FIRSTS:
                        firsts = {}
                    firsts[mv.name] = tuple(rows.firsts)
                if not rows:
                    continue
                ready = True
            out.append((mv.name, _Maker(mv, state), rows))
        return out, ready

    # -- answering ------------------------------------------------------------------------------------
    def apply(self, state: GameState, action: Action) -> None:
        try:
            self._apply(state, action)
        except IllegalAction:
            raise
        except Refused as exc:
            # a `require` past a move's guard (after a `choose`, say) refuses the whole action;
            # the engine applies actions to a copy, so nothing of it stays
            raise IllegalAction(exc.reason) from None

    def _apply(self, state: GameState, action: Action) -> None:
        if state.task is not None:
            if action.kind != "choose":
                raise IllegalAction(f"answer the question first: {state.task_decision.prompt}")
            _takes_only(action, ("choice",))
            self._resume(state, action.get("choice"))
            return
        name = self.structure.step(state)
        spec = self.rules.steps.get(name)
        if spec is None:
            self.host_apply(state, action)
            return
        if action.kind == FINISH:
            if spec.finish is None:
                raise IllegalAction(f"{name.replace('_', ' ')} has no finish: it ends when nothing is left to do")
            _takes_only(action, ())
            if not self._run(state, ("finish",), spec.finish, ()):
                self._complete(state, "finish")
            return
        mv = spec.move(action.kind)
        if mv is None:
            known = ", ".join([m.name for m in spec.moves] + ([FINISH] if spec.finish else [])) or "none"
            raise IllegalAction(f"`{action.kind}` is not a move of {name.replace('_', ' ')} (its moves: {known})")
        args = self._decode(state, mv, action)
        reason = mv.check(state, *args)
        if reason is not None:
            raise IllegalAction(str(reason))
        task = ("move", mv.name, tuple(encode(a) for a in args))
        if not self._run(state, task, mv.do, args):
            self._complete(state, "move")

    def apply_offered(self, state: GameState, action: Action, offer: Any,
                      asked: GameState | None = None) -> None:
        """A move this logic offered on the state `state` copies: its choices and guard held
        when it was listed, so only its body runs (a `require` there still refuses it). An
        offer that is a number is the choice of that index of the question a waiting task
        asks: the task goes on with it, without looking for it among the question's options."""
        try:
            self._apply_offered(state, action, offer, asked)
        except IllegalAction:
            raise
        except Refused as exc:
            raise IllegalAction(exc.reason) from None

    def _apply_offered(self, state: GameState, action: Action, offer: Any, asked: GameState | None) -> None:
        if isinstance(offer, int):
            if state.task is None:
                self._apply(state, action)
            else:
                given = action.args
                if len(given) != 1 or "choice" not in given:
                    _takes_only(action, ("choice",))
                self._resume(state, given.get("choice"), offered=offer)
            return
        mv, args = offer
        spec = self.rules.steps.get(self.structure.step(state))
        if state.task is not None or spec is None or spec.move(mv.name) is not mv:
            self._apply(state, action)       # not what was listed after all: check it
            return
        for a in args:
            if isinstance(a, list):
                args = [_fresh(a) for a in args]
                break
        if not mv.asks:
            mv.do(state, *args)         # (a move that never asks is no task: nothing to keep)
            return
        given = action.args
        task = ("move", mv.name, tuple([given[n] for n, _ in mv.params]))
        # (nothing has changed `state` yet: a task the move begins may keep `asked`, which
        # `state` copies and nothing changes, as the state it began in)
        if not self._begin(state, task, mv.do, args, asked, mv.task):
            self._complete(state, "move")

    def why_not(self, state: GameState, action: Action) -> str | None:
        """The rules' reason a move is not allowed now (None if it is): its checks only, with
        nothing played."""
        spec = self.rules.steps.get(self.structure.step(state))
        if spec is None or state.task is not None:
            return None
        mv = spec.move(action.kind)
        if mv is None:
            return f"`{action.kind}` is not a move now"
        try:
            args = self._decode(state, mv, action)
        except IllegalAction as exc:
            return exc.reason
        reason = mv.check(state, *args)
        return None if reason is None else str(reason)

    def _decode(self, state: GameState, mv: MoveSpec, action: Action) -> list[Any]:
        out = []
        for pname, ptype in mv.params:
            if pname not in action.args:
                raise IllegalAction(f"`{mv.name}` needs `{pname}`")
            out.append(decode(state, ptype, action.args[pname], pname))
        extra = set(action.args) - {p for p, _ in mv.params}
        if extra:
            raise IllegalAction(f"`{mv.name}` takes no `{sorted(extra)[0]}`")
        return out

    # -- tasks: blocks that may stop to ask a player ------------------------------------------------------
    def _run(self, state: GameState, task: tuple[Any, ...], fn: Callable[..., Any], args: Any,
             base: GameState | None = None) -> bool:
        """Run a block; True if it stopped to ask someone (the state then keeps the task,
        and the state it began in: `base`, if given, is one that reads as `state` does now
        and will never change)."""
        if not self._asks(state, task):
            fn(state, *args)
            return False
        return self._begin(state, task, fn, args, base, self._task_spec(state, task))

    def _begin(self, state: GameState, task: tuple[Any, ...], fn: Callable[..., Any], args: Any,
               base: GameState | None, waiting: TaskSpec | None) -> bool:
        """`_run` of a block that may ask, `waiting` its task spec (None: it is replayed)."""
        if base is None:
            base = state.copy()
        before = len(state.events)
        state.answers, state.answer_i = (), 0
        if waiting is not None:
            asked = waiting.begin(state, *args)
            if asked is None:
                return False
            decision = asked[1]
            state.task_gen = [(asked[0], waiting)]
        else:
            try:
                fn(state, *args)
                return False
            except AskPlayer as q:
                decision = q.decision
        state.task = task + ((),)
        state.task_base = base
        state.task_decision = decision
        state.task_events = len(state.events) - before
        return True

    def _task_spec(self, state: GameState, task: tuple[Any, ...]) -> TaskSpec | None:
        """The block of a task compiled as a generator, if it is one."""
        spec = self.rules.steps[self.structure.step(state)]
        if task[0] == "move":
            mv = spec.move(task[1])
            return mv.task if mv is not None else None
        return spec.tasks.get(task[0])

    def _asks(self, state: GameState, task: tuple[Any, ...]) -> bool:
        spec = self.rules.steps[self.structure.step(state)]
        key = task[0] if task[0] != "move" else "move:" + task[1]
        return key in spec.asks

    def _resume(self, state: GameState, answer: Any, offered: int | None = None) -> None:
        """Go on with the waiting task given `answer` (`offered`: its place among the options
        of the task's question, when it is one of them)."""
        waited: tuple[Any, ...] = state.task  # type: ignore[assignment]
        task = waited[:-1]
        answers = waited[-1] + (answer,)
        kind = task[0]
        waiting = state.task_gen
        state.task_gen = None
        if waiting is not None and waiting[0] is not None and (offered is not None
                                                               or _offered(state.task_decision, answer)):
            # the task goes on from its question; the cell is shared by every copy of the
            # state asked on, so a second answer from that state is replayed instead (an
            # answer that is not an option is refused by the replay, with the rules' reason)
            gen, resumable = waiting[0]
            waiting[0] = None
            decision = resumable.resume(state, gen, answer if offered is None else Offered(offered))
            if decision is not None:
                state.task = task + (answers,)
                state.task_decision = decision
                state.task_events += len(state.events)
                state.task_gen = [(gen, resumable)]
                return
            state.task = state.task_base = state.task_decision = None
            state.task_events, state.answers, state.answer_i = 0, (), 0
            self._complete(state, kind)
            return
        base = state.task_base
        assert base is not None, "a waiting task always keeps the state it began in"
        work = base.copy()
        work.answers, work.answer_i = answers, 0
        seen = state.task_events
        spec = self.rules.steps[self.structure.step(work)]
        if kind == "move":
            mv = spec.move(task[1])
            assert mv is not None
            fn: Callable[..., Any] = mv.do
            args = [decode(work, t, v, n) for (n, t), v in zip(mv.params, task[2])]
        else:
            fn, args = {"start": spec.start, "end": spec.end, "finish": spec.finish}[kind], []
        replayed = self._task_spec(work, task)
        try:
            if replayed is not None:
                # replayed as a generator, it waits at its next question to go on from there
                asked = replayed.begin(work, *args)
                if asked is not None:
                    work.task_gen = [(asked[0], replayed)]
                    raise AskPlayer(asked[1])
            else:
                fn(work, *args)
        except AskPlayer as q:
            events = work.events
            work.task = task + (answers,)
            work.task_base = base
            work.task_decision = q.decision
            work.task_events = len(events)
            state.become(work)
            state.events = events[seen:]
            return
        events = work.events
        work.task = work.task_base = work.task_decision = None
        work.task_events, work.answers, work.answer_i = 0, (), 0
        state.become(work)
        state.events = events[seen:]
        self._complete(state, kind)

    def _complete(self, state: GameState, kind: str) -> None:
        assert state.started is not None
        key = state.started[0]
        if kind == "start":
            state.started = (key, "run")
        elif kind == "finish":
            spec = self.rules.steps[self.structure.step(state)]
            state.started = (key, "run" if spec.while_ is not None else "done")
        elif kind == "end":
            state.started = (key, "over")

    # -- boundaries -------------------------------------------------------------------------------------
    def before_boundary(self, state: GameState, name: str, args: dict[str, Any]) -> None:
        reset = _RESETS.get(name)
        if reset is None:
            return
        known = self._reset_vars.get(reset)
        if known is None:
            known = self._reset_vars[reset] = {v.name: freeze(v.default) for v in self.rules.vars.values()
                                               if v.reset == reset}
        if known:
            state.vars.update(known)


@functools.lru_cache(maxsize=16)
def _board(path: Path, changes: tuple[Path, ...] = ()) -> Any:
    """Boards are shared by every game of a map: load each map file (with the layers' changes
    to it) once."""
    return load_map(path, changes)


_RESETS = {"turn_start": "turn", "power_start": "power", "phase_start": "phase", "step_start": "step"}


def freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return dict(value)
    return value


@functools.cache
def _step_words(name: str) -> str:
    """A step's name as a prompt ("combat_move": "Combat move"), made once a step."""
    return name.replace("_", " ").capitalize()


def initial_vars(rules: Any) -> dict[str, Any]:
    return {v.name: freeze(v.default) for v in rules.vars.values()}


class _Maker:
    """Makes the Action of one row of a move's arguments, its label made when first read
    (called itself: a decision makes one for each move it lists)."""

    __slots__ = ("mv", "state")

    def __init__(self, mv: MoveSpec, state: GameState) -> None:
        self.mv, self.state = mv, state

    def __call__(self, args: tuple[Any, ...]) -> Action:
        mv, state = self.mv, self.state
        label = mv.label
        params = mv.params
        a = Action(mv.name, {params[0][0]: encode(args[0])} if len(params) == 1 else
                   {n: encode(v) for (n, _), v in zip(params, args)},
                   labeler=lambda: str(label(state, *args)))
        a.offer = (state, (mv, args))
        return a

    make = __call__


@functools.cache
def _step_context(name: str) -> Mapping[str, Any]:
    """A step's decision's context ({"step": name}), made once a step and read-only."""
    return MappingProxyType({"step": name})


def _offered(decision: Decision, answer: Any) -> bool:
    """Is `answer` one of the choices a waiting task's question offers?"""
    return any(a.args.get("choice") == answer for a in decision.options)


def _takes_only(action: Action, names: tuple[str, ...]) -> None:
    """`finish` takes nothing and `choose` its `choice`: any other key is refused, not recorded."""
    extra = sorted(k for k in action.args if k not in names)
    if extra:
        raise IllegalAction(f"`{action.kind}` takes no `{_short(str(extra[0]))}`"
                            + (f" (it takes only `{names[0]}`)" if names else ""))


def _short(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def _fresh(value: Any) -> Any:
    """A move's argument as `decode` would give it: lists are the move's own (its body may
    change them), pieces and other values are shared."""
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


def decode(state: GameState, t: Type, value: Any, name: str) -> Any:
    """An action's argument as the rules value it names, checked against the move's type."""
    if isinstance(t, RecordType):
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"`{name}` names a piece by its number, not {_short(repr(value))}")
        piece = state.pieces.get(value)
        if piece is None:
            raise IllegalAction(f"there is no piece #{_short(repr(value))}")
        return piece
    if isinstance(t, ListType):
        if not isinstance(value, (list, tuple)):
            raise IllegalAction(f"`{name}` is a list, not {_short(repr(value))}")
        if len(value) > 10_000:
            raise IllegalAction(f"`{name}` lists {len(value):,} items; an action's list has at most 10,000")
        return [decode(state, t.elem, v, name) for v in value]
    kind = str(t)
    ok = {"str": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool),
          "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)}.get(kind)
    if ok is not None and not ok(value):
        raise IllegalAction(f"`{name}` must be a {kind}, not {_short(repr(value))}")
    return value
