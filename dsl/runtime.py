"""What compiled rules need while they run: the few helper functions generated code may
call, the limits every call into the rules runs under, and the translation of Python errors
inside rules into :class:`RulesRuntimeError` pointing at the rules statement that failed.

**The limits.** Mods are shared between players, so no rules file may hang a game or exhaust
memory. Every call into the rules (a rule on an event, a step's block, a move's options,
check or effect, a procedure the host calls) gets a budget of *steps*; loops, list and string
building and the engine's primitives spend it, and a call that spends it all stops with a
:class:`RulesLimitError` at the rules statement that went over. A step is about one operation:

* a loop (`for`, a comprehension, `any(...)`, `count(...)`...) is charged, when it starts,
  the size of its body (with the straight-line part of the procedures it calls) for every
  item it runs over: a loop that stops early has still paid for the rest;
* a `repeat while` round and each call of a procedure passed to a primitive (`reach`'s
  `cost`) is charged the size of what it runs;
* a call into the rules is charged, first, the size of the code it runs straight through;
* building a list with `+` (or `+=`) is charged its new items, a string one step per 8
  characters; `range(...)` as a list its length; a primitive over many pieces or spaces
  (more than 64) their number;
* comparing lists or maps (`==`, `!=`, a list looked for in a list) is charged the items
  compared, nested ones counted; comparing numbers, strings or units costs nothing extra.

Sizes: a list or a map holds at most ``limits().items`` items and a string as many
characters; integers stay within ±(2^63 - 1) (a fixed limit). The budget and the item limit
are raised with :func:`set_limits` (``wargame --rules-budget N --rules-max-items N``).
The counter is one per process: calls into the rules from several threads at once would share it.

**A deadline.** A caller in a hurry (a search player reading a big decision's priors with a
tenth of a second to answer) may give a call a deadline on the CPU clock: the call then
spends its steps CLOCK_STEPS at a time, looks at the clock each time, and stops with
:class:`OutOfTime` once past it (the steps limit stands as it is).
"""

from __future__ import annotations

import functools
import linecache
import re
import time
from bisect import bisect_right
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from types import CodeType, MappingProxyType, TracebackType
from typing import Any, overload

from .errors import Pos, Refused, RulesLimitError, RulesRuntimeError

__all__ = ["MAX_RANGE", "DEFAULT_STEPS", "DEFAULT_ITEMS", "INT_MAX", "Limits", "limits", "set_limits", "charge",
           "OutOfTime",
           "bounded_range", "bounded_range_list", "table_miss", "translate_errors", "HELPERS"]

#: the largest number of items one `range` may produce
MAX_RANGE = 100_000

#: the steps one call into the rules may take: 70 times the largest call measured in full
#: random games of Bulge (its movement: about 700,000 steps), 30 times LHTR's (a battle check
#: after 200 turns: 1,700,000; see docs/rules-language.md §13), and a few seconds of work for
#: rules that never stop
DEFAULT_STEPS = 50_000_000
#: the most items a list or a map may hold, and characters a string
DEFAULT_ITEMS = 1_000_000
#: integers in rules stay within -INT_MAX..INT_MAX (a fixed limit: 64-bit integers)
INT_MAX = (1 << 63) - 1
#: a primitive charges the pieces or spaces it goes through only past this many
FREE_ITEMS = 64

#: a call with a deadline looks at the clock each time it has spent this many steps (some
#: tenths of a millisecond of rules)
CLOCK_STEPS = 20_000

_HOW_STEPS = "raise it with `wargame --rules-budget N` (in Python: dsl.set_limits(steps=N))"
_HOW_ITEMS = "raise it with `wargame --rules-max-items N` (in Python: dsl.set_limits(items=N))"


@dataclass(frozen=True)
class Limits:
    """What one call into the rules may use: `steps` of work, lists and maps of at most
    `items` items, strings of at most `items` characters."""

    steps: int = DEFAULT_STEPS
    items: int = DEFAULT_ITEMS


class _Budget:
    """The limits, and the call into the rules under way (one for the process). The steps left
    to that call live in the compiled module's global `_L`, which generated code lowers
    inline (and `_I` holds the item limit); `depth` counts calls into the rules in progress,
    so that rules called from inside rules (a primitive calling back) share the budget of
    the outermost call, and `ns` is the module of that call."""

    __slots__ = ("depth", "steps", "items", "ns", "deadline", "owed")

    def __init__(self) -> None:
        self.steps = DEFAULT_STEPS
        self.items = DEFAULT_ITEMS
        self.depth = 0
        self.ns: dict[str, Any] | None = None
        #: the CPU time the call under way must stop by (None: no deadline), and the steps of
        #: its budget not yet handed to `_L` (handed CLOCK_STEPS at a time, see `spent`)
        self.deadline: float | None = None
        self.owed = 0


class OutOfTime(Exception):
    """A call into the rules given a deadline was still at work when the CPU clock passed it."""


BUDGET = _Budget()


def limits() -> Limits:
    return Limits(BUDGET.steps, BUDGET.items)


def set_limits(steps: int | None = None, items: int | None = None) -> Limits:
    """Change the limits of every later call into the rules; returns the previous ones."""
    old = limits()
    for name, value in (("steps", steps), ("items", items)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise ValueError(f"the {name} limit must be a whole number of at least 1, not {value!r}")
    if steps is not None:
        BUDGET.steps = steps
    if items is not None:
        BUDGET.items = items
    return old


def spent() -> bool:
    """The steps are all spent (generated code calls this when `_L` goes below 0); in a call
    with a deadline, the steps handed out so far: the clock is looked at and, before the
    deadline, more are handed out."""
    b = BUDGET
    if not b.depth:          # rules run outside any call into them (a test): no limit
        return True
    if b.deadline is not None:
        if time.process_time() > b.deadline:
            raise OutOfTime
        ns = b.ns
        if b.owed > 0 and ns is not None:
            while ns["_L"] < 0 and b.owed > 0:
                more = min(b.owed, CLOCK_STEPS)
                b.owed -= more
                ns["_L"] += more
            if ns["_L"] >= 0:
                return True
    raise RulesLimitError(f"the rules took more than {b.steps:,} steps in one call (a loop or calls that "
                          f"never end?); the budget of a call into the rules is {b.steps:,} steps: {_HOW_STEPS}")


def charge(n: int) -> None:
    """Spend `n` steps of the call under way (primitives call this for work that grows)."""
    ns = BUDGET.ns
    if ns is not None:
        left = ns["_L"] = ns["_L"] - n
        if left < 0:
            spent()


def pay(n: int) -> bool:
    """`charge` for generated code that cannot lower `_L` inline (inside a lambda): True."""
    charge(n)
    return True


def _too_long(what: str, n: int) -> RulesLimitError:
    unit = "characters" if what == "a string" else "items"
    return RulesLimitError(f"{what} of {n:,} {unit} is over the limit of {BUDGET.items:,} {unit}; {_HOW_ITEMS}")


def _kind(x: Any) -> str:
    return "a string" if isinstance(x, str) else "a map" if isinstance(x, dict) else "a list"


def long(x: Any, copies: int = 1) -> Any:
    """A new list or string longer than a few items (`a + b + ...`, built by `copies` `+`s):
    within the limit, and paid for (a string one step per 8 characters)."""
    n = len(x)
    if n > BUDGET.items:
        raise _too_long(_kind(x), n)
    ns = BUDGET.ns
    if ns is not None:
        left = ns["_L"] = ns["_L"] - copies * ((n >> 3) + 1 if isinstance(x, str) else n)
        if left < 0:
            spent()
    return x


def grew(xs: Any, added: Any) -> None:
    """After `xs += added` (in place): within the limit, and the new items paid for."""
    if len(xs) > BUDGET.items:
        raise _too_long("a list", len(xs))
    charge(len(added))


def extend(a: Any, b: Any) -> Any:
    """`a += b` for an element that is a list (`boxes[i] += [u]`)."""
    a += b
    grew(a, b)
    return a


def cat(a: Any, b: Any) -> Any:
    r = a + b
    return long(r) if len(r) > FREE_ITEMS else r


def add(a: Any, b: Any) -> Any:
    """`a + b` whose type the checker left open."""
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool):
        return check_int(a + b)
    if isinstance(a, (str, list, tuple)):
        return cat(a, b)
    return a + b


def check_int(x: Any) -> Any:
    if -INT_MAX <= x <= INT_MAX:
        return x
    raise RulesLimitError(f"an integer of {x.bit_length()} bits: integers in rules lie within ±{INT_MAX:,} "
                          "(2^63 - 1), a fixed limit")


def to_int(x: Any) -> int:
    """The rules' `int(x)`."""
    if isinstance(x, str):
        if len(x) > 40:
            raise RulesLimitError(f"int() of a text of {len(x):,} characters: integers in rules lie within ±{INT_MAX:,}")
        return check_int(whole_number(x))  # type: ignore[no-any-return]
    return check_int(int(x))  # type: ignore[no-any-return]


_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*\Z")


def whole_number(text: str) -> int:
    """A whole number written in ASCII digits (`int()` alone also takes `١٢`, `1_000`, `²`
    is refused by it): ValueError for anything else."""
    if not _WHOLE.match(text):
        raise ValueError(f"invalid literal for int() with base 10: {text!r}")
    return int(text)


def many(xs: Any) -> Any:
    """What a builtin goes through whole (sorted, keys, values, min, max, sum, a game
    variable's copy): a long one pays for its items."""
    n = len(xs)
    if n > FREE_ITEMS:
        charge(n)
    return xs


def in_big(x: Any, xs: Any, is_in: bool) -> bool:
    """`x in xs` for a long list or text: paid for."""
    charge(len(xs))
    return (x in xs) == is_in


_CONTAINERS = (list, tuple, dict)


def size(x: Any) -> int:
    """How many items a comparison of `x` may go through: a list's or map's items, and the
    items of the lists, maps and (one step per 8 characters) strings inside it. The rules'
    lists and maps hold one type, so the first item says whether the rest need counting."""
    if isinstance(x, dict):
        n = len(x)
        if n:
            if isinstance(next(iter(x)), _CONTAINERS + (str,)):
                n += sum(size(k) for k in x)
            if isinstance(next(iter(x.values())), _CONTAINERS + (str,)):
                n += sum(size(v) for v in x.values())
        return n
    if isinstance(x, (list, tuple)):
        n = len(x)
        if n and isinstance(x[0], _CONTAINERS + (str,)):
            n += sum(size(y) for y in x)
        return n
    if isinstance(x, str):
        return len(x) >> 3
    return 0


def same(a: Any, b: Any, is_eq: bool) -> bool:
    """`a == b` (or `!=`) of lists or maps: paid for the items compared (lists or maps of
    different lengths differ at once)."""
    if isinstance(a, _CONTAINERS) and isinstance(b, _CONTAINERS) and len(a) == len(b):
        n = size(a)
        if n > FREE_ITEMS:
            charge(n)
    return (a == b) == is_eq


def in_list(x: Any, xs: Any, is_in: bool) -> bool:
    """`x in xs` where `x` is a list or map: each item of `xs` may be compared with it whole."""
    charge(len(xs) * (size(x) + 1))
    return (x in xs) == is_in


def bounded_range(a: int, b: int | None = None) -> range:
    if b is None:
        a, b = 0, a
    if b - a > MAX_RANGE:
        raise RulesLimitError(f"range({a}, {b}) has {b - a:,} items; the limit is {MAX_RANGE:,} (a fixed limit)")
    return range(a, b)


def bounded_range_list(a: int, b: int | None = None) -> list[int]:
    r = bounded_range(a, b)
    if len(r) > FREE_ITEMS:
        charge(len(r))
    return list(r)


#: how many times a `repeat while` sequence may go round before the rules are stopped
MAX_ROUNDS = 10_000


def rounds() -> range:
    return range(MAX_ROUNDS)


def endless(name: str) -> None:
    raise RulesRuntimeError(f"sequence `{name}` went round {MAX_ROUNDS} times: does its `repeat while` "
                            "condition ever become false?")


def refuse(reason: str) -> None:
    raise Refused(str(reason))


def not_in(param: str, value: Any) -> str:
    return f"{show(value)} is not one of the choices for `{param}`"


def show(value: Any) -> str:
    """A value in a default move label: a unit by its kind and number, the rest as text."""
    kind = getattr(value, "kind", None)
    if kind is not None and hasattr(value, "id"):
        return f"{kind} #{value.id}"
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value)
    return str(value)


class FrozenList(tuple):  # type: ignore[type-arg]
    """A list that belongs to an option: it reads like any list (and `+` gives a new list),
    but no rule can change it, so one game's rules never change the next game's options."""

    __slots__ = ()

    def __add__(self, other: Any) -> list[Any]:  # type: ignore[override]
        return list(self) + list(other)

    def __radd__(self, other: Any) -> list[Any]:
        return list(other) + list(self)


def frozen_value(value: Any) -> Any:
    """An option's value made read-only all the way down."""
    if isinstance(value, dict):
        return MappingProxyType({k: frozen_value(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return FrozenList(frozen_value(v) for v in value)
    return value


class Offered:
    """An answer sent to a waiting `choose` that is one of the options it asked with, by its
    place among them (the engine knows which option it listed): taken from there, without
    comparing the answer with each option (some 1,300 questions a random LHTR game)."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


def choose_in_task(ctx: Any, player: str, prompt: str, options: list[Any], labels: Any = None,
                   refused: Any = None) -> Generator[Any, Any, tuple[Any, Any]]:
    """`choose` in a task compiled as a generator (see dsl.compiler, "tasks"): when the player
    must be asked it yields the question, and the engine sends back the answer (as it travels
    in an action, or `Offered`) with the game state to go on in (a copy of the one asked on).
    Gives (the option chosen, that state)."""
    answered, value = ctx.question(player, prompt, options, labels, refused)
    if answered:
        return value, ctx
    answer, ctx = yield value
    if type(answer) is Offered:
        return options[answer.index], ctx
    return ctx.take_answer(prompt, options, refused, answer), ctx


class Later:
    """The labels of a `choose`, made only when a player reads them (dsl.compiler binds the
    locals they read when the question is asked), given the game state to read: the one
    asked on, as it was then (the engine gives a snapshot of it, so that the question does
    not hold the state that holds the question). Made as an entry into the rules, so that a
    failure in them is reported at its place in the rules files."""

    __slots__ = ("fn", "ns", "where")

    def __init__(self, fn: Callable[[Any], Any], ns: dict[str, Any], where: tuple[str, list[Pos | None]]) -> None:
        self.fn, self.ns, self.where = fn, ns, where

    def __call__(self, ctx: Any) -> Any:
        return translate_errors(self.fn, *self.where, ns=self.ns)(ctx)


class Weigh:
    """A question's prior (`let x = choose(...) prior EXPR`) for one answer, given the state
    asked on and the answer; made as an entry into the rules, as `Later` is."""

    __slots__ = ("fn", "ns", "where")

    def __init__(self, fn: Callable[[Any, Any], Any], ns: dict[str, Any], where: tuple[str, list[Pos | None]]) -> None:
        self.fn, self.ns, self.where = fn, ns, where

    def __call__(self, ctx: Any, answer: Any) -> Any:
        return translate_errors(self.fn, *self.where, ns=self.ns)(ctx, answer)

    def each(self, ctx: Any, answers: Sequence[Any]) -> list[Any]:
        """The prior of every answer, in one call into the rules (see `priors_together`)."""
        calls = [(self.fn, (x,)) for x in answers]
        return translate_errors(priors_together(self.ns), *self.where, ns=self.ns)(ctx, calls)


def priors_together(ns: dict[str, Any]) -> Callable[..., list[Any]]:
    """`weigh(ctx, calls)`: the priors of a decision's options (`calls`: each option's compiled
    prior and its arguments), worked out in one call into the rules of `ns`, as the priors of a
    question's answers are (`Weigh.each`): what the rules remember within a call (dsl.compiler,
    "answers remembered") is then worked out once for them all, not again for each option
    (LHTR's landing grounds of a power, asked by the prior of every unload). Each prior has the
    steps a call of its own would have (a decision of hundreds of options would otherwise
    share one call's budget). With a `deadline` (CPU time), OutOfTime once the clock passes it,
    looked at before each prior and every CLOCK_STEPS steps within one."""
    b = BUDGET

    def weigh(ctx: Any, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]],
              deadline: float | None = None) -> list[Any]:
        out = []
        clock, first = time.process_time, min(b.steps, CLOCK_STEPS)
        b.deadline = deadline
        try:
            for fn, args in calls:
                if deadline is None:
                    ns["_L"] = b.steps
                else:
                    if clock() > deadline:
                        raise OutOfTime
                    ns["_L"], b.owed = first, b.steps - first
                out.append(fn(ctx, *args))
        finally:
            b.deadline, b.owed = None, 0
        return out
    return weigh


class Asked(str):
    """The prompt of a question whose answers the rules weigh (`let x = choose(...) prior
    EXPR`): a `str` to the engine and the players, and to a computer player that asks for
    it, how promising each option is (`priors(state)`, on the state asked on; a list as long
    as the options, made once)."""

    options: Sequence[Any]
    weigh: Weigh | Sequence[Any]
    made: list[float] | None

    def __new__(cls, prompt: str, options: Sequence[Any] = (), weigh: Weigh | Sequence[Any] = ()) -> Asked:
        self = super().__new__(cls, prompt)
        self.options, self.weigh = options, weigh
        self.made = None
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # copied or saved, it is the prompt alone (the prior is read on the question as asked)
        return (str, (str(self),))

    def priors(self, state: Any) -> list[float]:
        if self.made is None:
            weigh = self.weigh
            if isinstance(weigh, Weigh):
                self.made = [float(p) for p in weigh.each(state, self.options)]
            else:
                self.made = [float(p) for p in weigh]
        return self.made


class BoardQuestion(functools.partial):  # type: ignore[type-arg]
    """A procedure that reads only the board (and the rules' options and constants), passed to
    a primitive with the game state and its other given arguments: its answer for a space is
    the same on every state of that board. A walk (engine.graph) asks it once per board and
    space, and then looks its answers up, instead of calling it at every space of every walk
    (a random LHTR game walks the world map some 50 times over `passable`)."""

    __slots__ = ()

    def key(self) -> Any:
        """What names these questions apart on one board: the procedure and its given
        arguments past the state (None if one cannot be a key)."""
        key = (self.func, self.args[1:], tuple(sorted(self.keywords.items())))
        try:
            hash(key)
        except TypeError:
            return None
        return key


def first(found: Any) -> Any:
    """`first(x in xs where c)`: the first item found; none is a runtime error."""
    for x in found:
        return x
    raise RulesRuntimeError("`first` found no item: none meets its condition (ask `any(...)` first, "
                            "or use `find`, which answers -1)")


def find(tests: Any) -> int:
    """`find(x in xs where c)`: the place of the first item whose test holds, or -1."""
    for i, t in enumerate(tests):
        if t:
            return i
    return -1


def _key(pair: tuple[Any, Any]) -> Any:
    return pair[0]


def sort_by(pairs: list[tuple[Any, Any]]) -> list[Any]:
    """`sorted(x in xs by key)`: the items of (key, item) pairs in the keys' order, ties as
    they came."""
    pairs.sort(key=_key)
    return [p[1] for p in pairs]


def table_miss(name: str, key: tuple[Any, ...]) -> Any:
    shown = key[0] if len(key) == 1 else key
    raise RulesRuntimeError(f"table `{name}` has no entry for {shown!r} and no `default`")


class Pairs(Sequence[tuple[Any, Any]]):
    """The rows of a move of two parameters whose choices do not depend on each other and
    that has no guard: every first choice with every second, in the order the two loops
    over them would give (engine.actions.Options numbers, counts and draws them without
    making the rows: Bulge's air units placed, their kinds by the free hexes)."""

    __slots__ = ("firsts", "seconds")

    def __init__(self, firsts: Sequence[Any], seconds: Sequence[Any]) -> None:
        self.firsts = firsts
        self.seconds = seconds

    def __len__(self) -> int:
        return len(self.firsts) * len(self.seconds)

    @overload
    def __getitem__(self, i: int) -> tuple[Any, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[Any, Any]]: ...

    def __getitem__(self, i: int | slice) -> tuple[Any, Any] | list[tuple[Any, Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self.seconds)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return (self.firsts[i // n], self.seconds[i % n])

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        seconds = self.seconds
        for a in self.firsts:
            for b in seconds:
                yield (a, b)


class Nested(Sequence[tuple[Any, Any]]):
    """The rows of a move of two parameters whose second choices depend on the first and
    that has no guard (or one its options turn off): each first choice with each of its own
    second choices, in the order the two loops over them would give (Bulge's reinforcements
    and their entry hexes). Counted from the lengths of the second lists, a row made only
    when it is indexed (engine.actions.Options draws from it by index, as from the list)."""

    __slots__ = ("firsts", "seconds", "starts", "n")

    def __init__(self, firsts: Sequence[Any], seconds: list[Sequence[Any]]) -> None:
        self.firsts = firsts
        self.seconds = seconds
        starts = []
        n = 0
        for s in seconds:
            starts.append(n)
            n += len(s)
        self.starts = starts
        self.n = n

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> tuple[Any, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[Any, Any]]: ...

    def __getitem__(self, i: int | slice) -> tuple[Any, Any] | list[tuple[Any, Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        b = bisect_right(self.starts, i) - 1
        return (self.firsts[b], self.seconds[b][i - self.starts[b]])

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        for a, seconds in zip(self.firsts, self.seconds):
            for b in seconds:
                yield (a, b)


class ListingSpan:
    """A decision's listing, through which the compiled rules remember the answers of the
    procedures its entries share (dsl.compiler `listed_procedures`): the engine gives it the
    state it lists (`begin`) and takes it away once listed (`end`), which forgets them all.
    Nothing changes the state meanwhile: only steps whose listing leaves the game alone use it."""

    __slots__ = ("state", "used")

    def __init__(self) -> None:
        #: the state being listed (None: no listing)
        self.state: Any = None
        #: the dicts of answers remembered in this listing
        self.used: list[dict[Any, Any]] = []

    def begin(self, state: Any) -> None:
        self.state = state

    def end(self) -> None:
        self.state = None
        used = self.used
        if used:
            for answers in used:
                answers.clear()
            used.clear()


def typed_entries(entries: dict[tuple[str, str], Any], kinds: tuple[str, ...]) -> tuple[Any, ...]:
    """The state's entries (by owner and unit type) of these unit types, in its order: a
    procedure that looks only at those units reads these (dsl.compiler `piece_reads`)."""
    return tuple([e for k, e in entries.items() if k[1] in kinds])


def untyped(own: set[tuple[str, str]], kinds: tuple[str, ...]) -> bool:
    """Does the state share (never change in place) each of its entries of these types?"""
    for k in own:
        if k[1] in kinds:
            return False
    return True


HELPERS: dict[str, Any] = {
    "_typed": typed_entries,
    "_untyped": untyped,
    "_listing": ListingSpan,
    "_nested": Nested,
    "_pairs": Pairs,
    "_EMPTY": MappingProxyType({}),     # (what a primitive's `peek` may give for nothing)
    "_spent": spent,
    "_pay": pay,
    "_partial": functools.partial,
    "_board_ask": BoardQuestion,
    "_long": long,
    "_grew": grew,
    "_ext": extend,
    "_add": add,
    "_ci": check_int,
    "_int": to_int,
    "_many": many,
    "_inbig": in_big,
    "_same": same,
    "_inlist": in_list,
    "_rng": bounded_range,
    "_rngl": bounded_range_list,
    "_tmiss": table_miss,
    "_first": first,
    "_find": find,
    "_sortby": sort_by,
    "_choose": choose_in_task,
    "_asked": Asked,
    "_rounds": rounds,
    "_endless": endless,
    "_refuse": refuse,
    "_notin": not_in,
    "_show": show,
    "_ga": getattr,  # only emitted for checked field/stat names that are Python keywords
    "len": len,
    "abs": abs,
    "min": min,
    "max": max,
    "sum": sum,
    "any": any,
    "all": all,
    "sorted": sorted,
    "str": str,
    "int": int,
    "float": float,
    "list": list,
    "tuple": tuple,
    "dict": dict,
    "_fs": frozenset,
    "_set": set,
    "KeyError": KeyError,
}

_TRANSLATED = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError, AttributeError)
#: what an entry into the rules catches: its own errors, and those it translates
_CAUGHT = (RulesRuntimeError, *_TRANSLATED)


def _message(exc: BaseException) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, KeyError):
        return f"no entry for key {exc.args[0]!r}" if exc.args else "missing key"
    if isinstance(exc, RecursionError):
        return "too deeply nested calls"
    if isinstance(exc, ValueError) and "empty" in str(exc):
        return "min/max of an empty collection"
    return f"{type(exc).__name__}: {exc}"


def _find_pos(tb: TracebackType | None, filename: str, linemap: list[Pos | None], helper_file: str,
              need_ours: bool) -> Pos | None:
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    if not frames:
        return None
    innermost = frames[-1].tb_frame.f_code.co_filename
    if need_ours and innermost not in (filename, helper_file) and not _is_builtin_failure(frames[-1], filename):
        return None
    for f in reversed(frames):
        if f.tb_frame.f_code.co_filename == filename:
            line = f.tb_lineno
            if 0 < line < len(linemap) and linemap[line] is not None:
                return linemap[line]
    return None


def _is_builtin_failure(tb: TracebackType, filename: str) -> bool:
    # errors raised by C builtins (min([]), int("x")) have the generated frame innermost
    return tb.tb_frame.f_code.co_filename == filename


def translate_errors(fn: Callable[..., Any], filename: str, linemap: list[Pos | None], cost: int = 1,
                     pos: Pos | None = None, ns: dict[str, Any] | None = None,
                     on_state: bool = False) -> Callable[..., Any]:
    """Wrap an entry point of compiled rules so that failures inside rules become
    RulesRuntimeError with a rules position, and so that the call runs under the step budget:
    an outermost call starts a fresh budget and pays `cost` (the steps of the code it runs
    straight through, at `pos`); a call made from inside rules shares its caller's.
    Errors raised inside host primitives pass through untouched: they are engine bugs, not
    rules bugs.

    `on_state`: the entry's first argument is the game state. On a state of another board
    than the last one, the board procedures' kept answers are forgotten first (compiled code
    looks them up where it calls them; see dsl.compiler, "board procedures"). When an
    outermost call ends, the answers its procedures passed to primitives remembered are
    forgotten (see dsl.compiler, "answers remembered"): they hold the state they were asked on."""
    helper_file = __file__
    b = BUDGET
    g: dict[str, Any] = ns if ns is not None else {"_L": 0}
    g.setdefault("_G", 0)
    remembered: list[dict[Any, Any]] = g.get("_AS") or []
    #: of those, the ones that hold answers (a procedure puts its dict there when it first
    #: keeps an answer in it): an entry's end empties them, not every one there is
    used: list[dict[Any, Any]] = g["_AU"] if "_AU" in g else []     # (the module's own list)

    def translated(exc: Exception) -> BaseException | None:
        """What a failure inside the rules is raised as (None: as it is)."""
        if isinstance(exc, RulesRuntimeError):
            if exc.pos is not None:
                return None
            where = _find_pos(exc.__traceback__, filename, linemap, helper_file, need_ours=False)
            return exc.with_pos(where or pos)
        where = _find_pos(exc.__traceback__, filename, linemap, helper_file, need_ours=True)
        return None if where is None else RulesRuntimeError(_message(exc), where)

    def inner_call(args: tuple[Any, ...]) -> Any:
        """A call from inside the same rules: it shares the budget of the call under way."""
        left = g["_L"] = g["_L"] - cost
        b.depth += 1
        try:
            if left < 0:
                spent()
            return fn(*args)
        except _CAUGHT as exc:
            raise_as = translated(exc)
            if raise_as is None:
                raise
            raise raise_as from (None if isinstance(exc, RulesRuntimeError) else exc)
        finally:
            b.depth -= 1

    code = fn.__code__ if isinstance(getattr(fn, "__code__", None), CodeType) else None
    arity = code.co_argcount if code is not None and not code.co_flags & _VARIABLE_ARGS \
        and not code.co_kwonlyargcount and not getattr(fn, "__defaults__", None) else None
    make = _entry_maker(arity, on_state, bool(remembered))
    return functools.wraps(fn)(make(fn, g, b, cost, inner_call, translated, used))


#: a code object's flags for `*args` and `**kwargs`
_VARIABLE_ARGS = 0x04 | 0x08


@functools.cache
def _entry_maker(arity: int | None, on_state: bool, generations: bool) -> Callable[..., Callable[..., Any]]:
    """What makes the entry `translate_errors` gives, written for the entry's number of
    arguments (None: any), whether its first is the game state, and whether its rules
    remember answers (their generation `_G` is kept only then). Every call into the rules
    goes through an entry (some 14,000 a random LHTR game), so its common case, an
    outermost call, is straight code: its arguments passed on as they came (not packed and
    unpacked), nothing looked at that these rules do not need."""
    params = "*args" if arity is None else ", ".join(f"a{i}" for i in range(arity))
    packed = "args" if arity is None else f"({params}{',' if arity == 1 else ''})"
    first = "args[0]" if arity is None else "a0"
    lines = [f"def run({params}):"]
    if on_state and arity != 0:
        guard = "args and " if arity is None else ""
        lines += [f"    if {guard}(board := getattr({first}, 'board', None)) is not g['_KB'] and board is not None:",
                  f"        g['_forget']({first})"]
    lines += ["    caller = b.ns",
              "    if caller is g and b.depth:",
              f"        return inner_call({packed})"]
    if generations:
        lines += ["    g['_G'] += 1"]
    lines += ["    left = g['_L'] = b.steps - cost",
              "    g['_I'] = b.items",
              "    b.ns = g",
              "    b.depth += 1",
              "    try:",
              "        if left < 0:",
              "            spent()",
              f"        return fn({'*args' if arity is None else params})",
              "    except CAUGHT as exc:",
              "        raise_as = translated(exc)",
              "        if raise_as is None:",
              "            raise",
              "        raise raise_as from (None if isinstance(exc, RulesRuntimeError) else exc)",
              "    finally:",
              "        b.depth -= 1",
              "        b.ns = caller"]
    if generations:
        lines += ["        if used:",
                  "            for answers in used:",
                  "                answers.clear()",
                  "            used.clear()"]
    lines += ["        if caller is not None and caller is not g:",
              "            caller['_G'] += 1",
              "return run"]
    source = "def make(fn, g, b, cost, inner_call, translated, used):\n" + "\n".join("    " + x for x in lines)
    scope: dict[str, Any] = {"spent": spent, "CAUGHT": _CAUGHT, "RulesRuntimeError": RulesRuntimeError}
    filename = f"<dsl.runtime entry: {arity} arguments, on_state={on_state}, generations={generations}>"
    exec(compile(source, filename, "exec"), scope)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)    # (for tracebacks)
    return scope["make"]  # type: ignore[no-any-return]

