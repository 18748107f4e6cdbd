"""Decisions the engine asks and the actions that answer them.

Every player input, from a human or a computer player, is an Action answering the current
Decision. Actions are plain data (a kind and JSON-able arguments) so that a game is its
scenario, seed and list of actions, and can be saved and replayed exactly.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, overload

from dsl.errors import Refused


class IllegalAction(Refused):
    """An action the rules refuse. `reason` is written for the player. It is the rules
    language's `Refused`, so `require ... else "reason"` in a rules file raises it too."""


class Action:
    """One answer to a decision: `kind` names what is done, `args` its JSON-able details.

    `label` is the words a player reads; it may be given as a function and is then made
    only when a client shows it (most options a computer player looks at are never shown).

    `offer` is set by the engine on the options it lists: the state whose decision listed
    the action and what the logic needs to play it again without checking it (see
    `GameLogic.apply_offered`). It is no part of the action: equality, saves and
    `normalise` ignore it.
    """

    __slots__ = ("kind", "args", "_label", "_labeler", "offer")

    def __init__(self, kind: str, args: Mapping[str, Any] | None = None, label: str = "",
                 labeler: Callable[[], str] | None = None) -> None:
        self.kind = kind
        self.args: Mapping[str, Any] = args if args is not None else {}
        self._label = label
        self._labeler = labeler
        self.offer: tuple[Any, Any] | None = None

    @property
    def label(self) -> str:
        if not self._label and self._labeler is not None:
            self._label = self._labeler()
            self._labeler = None
        return self._label

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind == other.kind and dict(self.args) == dict(other.args)

    def __hash__(self) -> int:
        return hash((self.kind, tuple(sorted((k, repr(v)) for k, v in self.args.items()))))

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {dict(self.args)!r})"

    def __getitem__(self, key: str) -> Any:
        return self.args[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": _jsonable(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        return cls(str(data["kind"]), _frozen(dict(data.get("args") or {})))

    def __str__(self) -> str:
        if self.label:
            return self.label
        if not self.args:
            return self.kind
        return self.kind + " " + " ".join(f"{k}={v}" for k, v in self.args.items())


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [_jsonable(v) for v in items]
    return value


def _frozen(value: Any) -> Any:
    """JSON lists come back as tuples so that loaded actions compare equal to live ones."""
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def normalise(action: Action) -> Action:
    """The action as it would come back from a save file."""
    return Action.from_json(action.to_json())


#: (a Pending whose functions take no state first)
_ALONE: Any = object()


class Pending:
    """One move's options not yet checked: the choices of its one parameter, and the test
    (its guard) each must pass. The rules compile a guard that only asks questions this way
    (see dsl.compiler, "questions only"), so that a decision can be answered at random by
    asking the guard of the choices drawn rather than of every one. A verdict, once asked,
    is kept."""

    __slots__ = ("candidates", "admits", "listing", "first_row", "_verdicts", "on")

    def __init__(self, candidates: Sequence[Any], admits: Callable[..., bool],
                 listing: Callable[..., list[tuple[Any]]] | None = None,
                 first_row: Callable[..., tuple[Any] | None] | None = None, on: Any = _ALONE) -> None:
        self.candidates = candidates
        #: `on`, where given, is the first argument of each of the three (the game state a
        #: move's guard reads: given so rather than as a functools.partial of each, since a
        #: decision of a move phase makes some of these for every move it lists)
        self.on = on
        self.admits = admits
        #: the rows of the choices given that pass (one run over them all, cheaper than
        #: asking `admits` of each when every one is wanted)
        self.listing = listing
        #: the row of the first of the choices given that passes, or None (one run that stops
        #: there: a decision asks whether it has an option at all before anything is drawn)
        self.first_row = first_row
        self._verdicts: list[bool | None] = [None] * len(candidates)

    def admitted(self, i: int) -> bool:
        v = self._verdicts[i]
        if v is None:
            on = self.on
            v = self._verdicts[i] = bool(self.admits(self.candidates[i]) if on is _ALONE
                                         else self.admits(on, self.candidates[i]))
        return v

    def _call(self, fn: Callable[..., Any], arg: Any) -> Any:
        return fn(arg) if self.on is _ALONE else fn(self.on, arg)

    def __len__(self) -> int:
        return len(self.candidates)

    def row(self, i: int) -> tuple[Any]:
        return (self.candidates[i],)

    def first(self) -> int | None:
        """The index of the first choice that passes, or None."""
        return self.one_passing(0)

    def one_passing(self, start: int) -> int | None:
        """The index of a choice that passes, or None. Whether a decision has an option at all
        is asked so, with `start` where the last decision of its step found one: the choices
        that pass stay much the same from one decision to the next, so that one is asked by
        itself first (three times in four it still passes, in random LHTR games). Then one
        already known to pass, if any; then, with `first_row`, one run over the choices not yet
        asked, from `start` on, going round to the beginning; without it, each in turn."""
        candidates, verdicts = self.candidates, self._verdicts
        n = len(candidates)
        if not n:
            return None
        if not 0 < start < n:
            start = 0
        if self.admitted(start):
            return start
        if True in verdicts:
            return verdicts.index(True)
        order = [i for i in chain(range(start + 1, n), range(start)) if verdicts[i] is None]
        if self.first_row is None:
            return next((i for i in order if self.admitted(i)), None)
        if not order:
            return None
        row = self._call(self.first_row, tuple(candidates[i] for i in order))
        if row is None:
            for i in order:
                verdicts[i] = False
            return None
        (value,) = row
        for i in order:
            if candidates[i] is value:
                verdicts[i] = True
                return i
            verdicts[i] = False     # (the run passed over it: it fails)
        raise AssertionError("a move's first passing row is one of the choices it was given")

    def passing(self) -> list[int]:
        """The indexes of every choice that passes, in order."""
        if self.listing is None:
            return [i for i in range(len(self.candidates)) if self.admitted(i)]
        rows, out, i = self._call(self.listing, self.candidates), [], 0
        for (value,) in rows:       # the rows are the passing choices themselves, in order
            while self.candidates[i] is not value:
                i += 1
            out.append(i)
            i += 1
        return out


class Options(Sequence[Action]):
    """The options of a decision, made only when they are looked at.

    It is given, for each kind of move, the raw rows of its arguments (what the rules'
    choices yield) and a function that makes one row's Action; an option's Action (and so its
    encoded arguments and its label) is made the first time it is indexed or iterated over,
    and kept. It behaves like a read-only list of Actions: `len`, indexing and slices,
    iteration, `in`, `index`, `count`, and `==` against a list. Asking a decision for its
    number of options, or for one option picked at random, costs nothing per option.

    A block's rows may also be `Pending`: its choices are checked only when the options are
    first counted or listed, and `sample` checks only those it draws.
    """

    __slots__ = ("_kinds", "_makers", "_rows", "_starts", "_made", "_len", "_pending", "_early")

    def __init__(self, blocks: Sequence[tuple[str, Callable[[Any], Action], Sequence[Any] | Pending]] = (),
                 tail: Sequence[Action] = ()) -> None:
        kinds: list[str | None] = []
        makers: list[Callable[[Any], Action] | None] = []
        rows: list[Sequence[Any] | Pending] = []
        starts: list[int] = []
        n = 0
        pending = False
        for kind, make, block_rows in blocks:
            if isinstance(block_rows, Pending):
                if not block_rows.candidates:
                    continue
                pending = True
            elif not block_rows:
                continue
            kinds.append(kind)
            makers.append(make)
            rows.append(block_rows)
            starts.append(n)
            n += len(block_rows)
        if tail:
            kinds.append(None)      # ready-made actions: the block's rows are the actions
            makers.append(None)
            rows.append(tuple(tail))
            starts.append(n)
            n += len(tail)
        self._kinds = kinds
        self._makers = makers
        self._rows = rows
        self._pending = pending
        #: Actions made from pending rows before the options were numbered: (block, choice) ->
        #: Action, so that the same option is the same Action once they are
        self._early: dict[tuple[int, int], Action] = {}
        # where each block begins among the options as given (a pending block counts all its
        # choices: `sample` draws among them so)
        self._starts = starts
        if not pending:
            # (every block checked already: numbered as given, with no copy)
            self._made: list[Action | None] = [None] * n
            self._len = n
        else:
            self._made = []
            self._len = 0

    def _lay_out(self) -> None:
        """Check every pending choice, then number the options."""
        kinds: list[str | None] = []
        makers: list[Callable[[Any], Action] | None] = []
        rows: list[Sequence[Any] | Pending] = []
        early: list[dict[int, Action]] = []
        for b, (kind, make, given) in enumerate(zip(self._kinds, self._makers, self._rows)):
            made: dict[int, Action] = {}
            if isinstance(given, Pending):
                block_rows: list[Any] = []
                for i in given.passing():
                    if (b, i) in self._early:
                        made[len(block_rows)] = self._early[(b, i)]
                    block_rows.append(given.row(i))
            else:
                block_rows = list(given)
                made = {i: a for (eb, i), a in self._early.items() if eb == b}
            if block_rows:
                kinds.append(kind)
                makers.append(make)
                rows.append(block_rows)
                early.append(made)
        starts, n = [], 0
        for laid in rows:
            starts.append(n)
            n += len(laid)
        self._made = [None] * n
        for start, made in zip(starts, early):
            for i, a in made.items():
                self._made[start + i] = a
        self._kinds, self._makers, self._rows, self._starts = kinds, makers, rows, starts
        self._len = n
        self._pending = False
        self._early = {}

    def _make_early(self, b: int, i: int) -> Action:
        """The Action of row (or choice) i of block b, made before the options are numbered
        and kept for when they are."""
        known = self._early.get((b, i))
        if known is not None:
            return known
        block_rows = self._rows[b]
        row = block_rows.row(i) if isinstance(block_rows, Pending) else block_rows[i]
        make = self._makers[b]
        a: Action = row if make is None else make(row)  # type: ignore[assignment]  # (ready-made rows are Actions)
        self._early[(b, i)] = a
        return a

    def __bool__(self) -> bool:
        if not self._pending:
            return self._len > 0
        # (the checked rows first: they need no question asked)
        return any(not isinstance(r, Pending) for r in self._rows) or \
            any(r.first() is not None for r in self._rows)  # type: ignore[union-attr]

    def sample(self, rng: Any) -> Action:
        """One option drawn at random, every option as likely as any other, as
        `rng.choice(self)` would draw it; a pending choice is checked only if it is drawn
        (one that fails is set aside and another drawn)."""
        if not self._pending:
            return self._make(rng.choice(range(self._len)))     # (the draw rng.choice(self) makes)
        starts = self._starts
        n = starts[-1] + len(self._rows[-1])
        # the options not yet set aside, made a list at the first that fails (most draws pass)
        alive: Sequence[int] = range(n)
        while alive:
            j = rng.randrange(len(alive))
            g = alive[j]
            b = bisect_right(starts, g) - 1
            i = g - starts[b]
            block_rows = self._rows[b]
            if not isinstance(block_rows, Pending) or block_rows.admitted(i):
                return self._make_early(b, i)
            if not isinstance(alive, list):
                alive = list(alive)
            alive[j] = alive[-1]
            alive.pop()
        raise IndexError("there are no options to draw from")

    def __len__(self) -> int:
        if self._pending:
            self._lay_out()
        return self._len

    def _make(self, i: int) -> Action:
        a = self._made[i]
        if a is None:
            b = bisect_right(self._starts, i) - 1
            row = self._rows[b][i - self._starts[b]]  # type: ignore[index]  # (laid out: no Pending)
            make = self._makers[b]
            a = row if make is None else make(row)
            self._made[i] = a
        return a

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if self._pending:
            self._lay_out()
        if isinstance(index, slice):
            return [self._make(i) for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("option index out of range")
        return self._make(index)

    def __iter__(self) -> Iterator[Action]:
        if self._pending:
            self._lay_out()
        made = self._made
        for i in range(self._len):
            a = made[i]
            yield a if a is not None else self._make(i)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, Action):
            return False
        return any(a == value for a in self._of_kind(value.kind))

    def _of_kind(self, kind: str) -> Iterator[Action]:
        """The options of one kind (and every ready-made one), without making the others."""
        if self._pending:
            self._lay_out()
        for b, k in enumerate(self._kinds):
            if k is None or k == kind:
                start = self._starts[b]
                for i in range(start, start + len(self._rows[b])):
                    yield self._make(i)

    def first_of(self, kinds: frozenset[str]) -> Action | None:
        """The first option whose kind is one of `kinds`, making no other."""
        if self._pending:
            for b, k in enumerate(self._kinds):
                rows = self._rows[b]
                if k is None:
                    for i, a in enumerate(rows):  # type: ignore[arg-type]
                        if a.kind in kinds:
                            return self._make_early(b, i)
                elif k in kinds:
                    first = rows.first() if isinstance(rows, Pending) else 0
                    if first is not None:
                        return self._make_early(b, first)
            return None
        for b, k in enumerate(self._kinds):
            if k is None:
                start = self._starts[b]
                for i in range(start, start + len(self._rows[b])):
                    if self._make(i).kind in kinds:
                        return self._make(i)
            elif k in kinds:
                return self._make(self._starts[b])
        return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Options, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Sequence[Action]) -> list[Action]:
        return [*self, *other]

    def __radd__(self, other: Sequence[Action]) -> list[Action]:
        return [*other, *self]

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"


_FINISH_KINDS = frozenset(("done", "pass", "finish"))
#: a Decision's finish when none is given: it looks for one among its options
FIND_FINISH: Any = object()


@dataclass(slots=True)
class Decision:
    """A question the engine asks one player.

    `options` lists every legal answer (rulesets keep decisions fine-grained so that this
    stays short); a client may also send an action that is not listed, and it is validated
    like any other.
    """

    player: str
    kind: str
    prompt: str
    #: a list, or an `Options` that makes each Action only when it is looked at
    options: Sequence[Action]
    context: Mapping[str, Any] = field(default_factory=dict)
    #: the option that ends this decision's step ("done", "pass", "end movement"), so a
    #: client or computer player can find it without knowing its name; None if there is none
    #: (when not given, the first option of kind done, pass or finish, if any)
    finish: Action | None = FIND_FINISH
    #: a question asked in the middle of the rules: the state its options read and name as
    #: their offer (a snapshot of the state that asks it, `GameState.snapshot`)
    asked_on: Any = None

    def __post_init__(self) -> None:
        if self.finish is FIND_FINISH:
            # decisions written before `finish` existed mark their finish by kind
            if isinstance(self.options, Options):
                self.finish = self.options.first_of(_FINISH_KINDS)
            else:
                self.finish = next((a for a in self.options if a.kind in _FINISH_KINDS), None)

    def sample(self, rng: Any) -> Action:
        """One option drawn at random, each as likely as any other (a random player's
        answer): `rng.choice(options)`, without checking every option first."""
        if isinstance(self.options, Options):
            return self.options.sample(rng)
        return rng.choice(self.options)  # type: ignore[no-any-return]

    def find(self, text: str) -> Action | None:
        """The option whose label or number matches what a player typed."""
        t = text.strip().lower()
        if t.isdigit() and 1 <= int(t) <= len(self.options):
            return self.options[int(t) - 1]
        for a in self.options:
            if (a.label or str(a)).lower() == t:
                return a
        return None
