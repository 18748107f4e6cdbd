"""The loaded rules as the engine sees them: unit types, option and stat specs, the turn
sequence, and :class:`CompiledRules`, the handle the engine keeps.

Nothing here parses or checks; these are the plain runtime objects the loader builds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import Pos
from .types import Type

__all__ = ["UnitType", "StatSpec", "OptionSpec", "PhaseSpec", "SequenceDecl", "CompiledRules", "VarSpec",
           "StepSpec", "MoveSpec", "Declaration"]


class UnitType:
    """A declared unit. Each stat is an attribute (``Tank.attack``); the class made for one
    ruleset adds the stats to ``__slots__`` so reading a stat is a plain slot load. (It has
    no `__getattr__`: a class with one is read through the slow, general path on every
    attribute, a stat or the tags, which made the compiled rules' reads of a unit's stats about
    three times as slow. The checker names an undeclared stat in a rules file; Python code
    that reads one gets Python's own AttributeError.)"""

    __slots__ = ("name", "tags", "tag_list", "stats")

    name: str
    tags: frozenset[str]
    tag_list: tuple[str, ...]
    stats: dict[str, Any]

    def __init__(self, name: str, tags: frozenset[str], stats: dict[str, Any]):
        self.name = name
        self.tags = frozenset(tags)
        self.tag_list = tuple(sorted(self.tags))
        self.stats = dict(stats)
        for k, v in stats.items():
            object.__setattr__(self, k, v)

    def __repr__(self) -> str:
        stats = ", ".join(f"{k}={v!r}" for k, v in self.stats.items())
        return f"UnitType({self.name!r}, tags={sorted(self.tags)}, {stats})"


def unit_type_class(stat_names: list[str]) -> type[UnitType]:
    """A UnitType subclass with one slot per declared stat."""
    return type("UnitType", (UnitType,), {"__slots__": tuple(stat_names)})


@dataclass(frozen=True)
class StatSpec:
    name: str
    type: Type
    default: Any
    doc: str
    pos: Pos


@dataclass(frozen=True)
class OptionSpec:
    name: str
    type: Type
    default: Any
    doc: str
    pos: Pos
    #: (lowest, highest) for every number in the value, when the rules give a range
    bounds: tuple[Any, Any] | None = None
    #: how sure the default is (`confirmed`, `reconstructed`, `unconfirmed`, ...) and where it
    #: comes from, as the rules file says
    status: str = ""
    source: str = ""
    #: (where, default) for the declaration and each `override option`, base layer first:
    #: the first is the base's default, the last the one in force (`default`)
    layer_defaults: tuple[tuple[Pos, Any], ...] = ()


@dataclass(frozen=True)
class Declaration:
    """One thing the rules declare (a unit, an option, a procedure, a phase...), as the layers
    left it: its source text in force and where each layer declared or overrode it."""

    #: stat, tag, unit, option, table, procedure, rule, var, step, sequence, turns, powers, phase
    kind: str
    name: str
    #: the source text of the declaration in force (the last layer's: an `override unit`
    #: gives only the stats it changes)
    text: str
    #: where each layer wrote it, base first: the first declares it, the others override it
    layers: tuple[Pos, ...]
    #: a procedure a base means layers to override (`hook procedure`), its doc (the comment
    #: above it) and its signature, `income(p: str) -> int`
    hook: bool = False
    doc: str = ""
    signature: str = ""

    @property
    def pos(self) -> Pos:
        """The declaration in force."""
        return self.layers[-1]


@dataclass(frozen=True)
class VarSpec:
    """A game variable: part of the state, reset to `default` each turn, phase or step when
    `reset` says so."""

    name: str
    type: Type
    default: Any
    reset: str | None
    doc: str
    pos: Pos


@dataclass(frozen=True)
class MoveSpec:
    """One kind of move in a step, compiled from one declaration: `offers(ctx)` yields every
    legal tuple of arguments, `check(ctx, *args)` gives the reason one is refused (None if it
    is legal), `do(ctx, *args)` plays it and `label(ctx, *args)` words it for a player."""

    name: str
    params: tuple[tuple[str, Type], ...]
    offers: Callable[..., Any]
    check: Callable[..., Any]
    do: Callable[..., Any]
    label: Callable[..., Any]
    #: the move may ask a player something (it calls `choose`)
    asks: bool
    pos: Pos
    #: for a move of one parameter whose guard only asks questions: `candidates(ctx)`, the
    #: parameter's choices, and `admits(ctx, x)`, does one pass the guard (None: every one
    #: does); `offers` is exactly the candidates that pass, in order, and `offers(ctx, xs)`
    #: the choices xs (the candidates, already worked out) that pass
    candidates: Callable[..., Any] | None = None
    admits: Callable[..., Any] | None = None
    #: the body as a task that waits for its answers where it asks (None: it is replayed)
    task: TaskSpec | None = None
    #: with `admits`: `first(ctx, xs)`, the row of the first of the choices xs that passes
    #: (None if none does), in one entry into the rules instead of one for each choice asked
    first: Callable[..., Any] | None = None
    #: `prior(ctx, *args)`: how promising the option is for the move's player, a number
    #: (bigger: more promising; the search player's `prior`), None where the move gives none
    prior: Callable[..., Any] | None = None
    #: the earlier move of the step whose first parameter has the same choices, written the
    #: same way, asking nothing that changes the game (Bulge's `attack` and `attack_from`,
    #: both from `attack_sources(to_attack)`): a listing that has them from that move, as
    #: its rows' first choices, does not ask for them again (None: there is none)
    first_as: str | None = None
    #: a later move of the step takes this move's first choices (`first_as`)
    shares_firsts: bool = False
    #: it gives or takes first choices in a listing (`first_as`, `shares_firsts`)
    shares: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shares", self.first_as is not None or self.shares_firsts)


@dataclass(frozen=True)
class TaskSpec:
    """A block that asks a player, compiled as a generator (see dsl.compiler, "tasks"):
    `begin(ctx, *args)` runs it up to its first question and gives (the generator, the
    question), or None when it ran to its end without asking; `resume(ctx, gen, answer)`
    sends the answer and the state to go on in (a copy of the one asked on) and gives the
    next question, or None when the block is done."""

    begin: Callable[..., Any]
    resume: Callable[..., Any]


@dataclass(frozen=True)
class StepSpec:
    """A step of the turn declared in rules: who plays it, while when it goes on, its
    automatic work at the start and the end, its moves, and its marked finish."""

    name: str
    by: Callable[..., Any] | None
    while_: Callable[..., Any] | None
    start: Callable[..., Any] | None
    end: Callable[..., Any] | None
    moves: tuple[MoveSpec, ...]
    finish: Callable[..., Any] | None
    finish_label: Callable[..., Any] | None
    asks: frozenset[str]
    pos: Pos
    #: "start", "end", "finish": the block as a task (see TaskSpec), where it asks and can be one
    tasks: Mapping[str, TaskSpec] = field(default_factory=dict)
    #: its listing remembers what its entries share (begun and ended by CompiledRules.listing)
    listed: bool = False

    def move(self, name: str) -> MoveSpec | None:
        for m in self.moves:
            if m.name == name:
                return m
        return None


@dataclass(frozen=True)
class PhaseSpec:
    name: str
    steps: tuple[str, ...]
    pos: Pos
    condition: Callable[[Any, int], bool] | None = None

    def active(self, turn: int, ctx: Any = None) -> bool:
        """Does this phase run on ``turn``? (phases without `when` always run)"""
        return True if self.condition is None else bool(self.condition(ctx, turn))


@dataclass(frozen=True)
class SequenceDecl:
    """The turn sequence. ``mode`` is "shared" (all powers act inside each phase, as in
    Bulge) or "order" (each power takes a whole turn of phases, as in A&A)."""

    turns: int | None  # None: unlimited
    turn_names: tuple[str, ...]
    mode: str | None
    powers: tuple[str, ...]
    phases: tuple[PhaseSpec, ...]
    #: powers next to each other in the turn order who play their turns as one team (`teams`)
    teams: tuple[tuple[str, ...], ...] = ()
    #: the phases a team plays once, all its members at once (the others: each member in turn)
    together: tuple[str, ...] = ()
    #: what players call a turn without a name of its own (`turns unlimited called "Round"`)
    turn_word: str = "Turn"
    #: the powers in the order they take their turns ("order" mode; empty otherwise), which
    #: `current_power` reads at every call
    order: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: for each place in the turn order, the first and last place of its team (a power in no
    #: team is a team of its own)
    spans: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        order = tuple(self.powers) if self.mode == "order" else ()
        object.__setattr__(self, "order", order)
        spans = [(i, i) for i in range(len(order))]
        for team in self.teams:
            first, last = order.index(team[0]), order.index(team[-1])
            spans[first:last + 1] = [(first, last)] * (last - first + 1)
        object.__setattr__(self, "spans", tuple(spans))

    def team_powers(self, power_index: int) -> list[str]:
        """The powers of the team whose turn it is (the power to play alone, in no team)."""
        if not self.order:
            return []
        first, last = self.spans[power_index]
        return list(self.order[first:last + 1])

    def acting_powers(self, power_index: int, phase_index: int) -> list[str]:
        """The powers who play the current phase: the whole team in a phase it plays together,
        else the power to play."""
        if not self.order:
            return []
        if self.phases[phase_index].name in self.together:
            return self.team_powers(power_index)
        return [self.order[power_index]]

    def turn_name(self, turn: int) -> str:
        if 1 <= turn <= len(self.turn_names):
            return self.turn_names[turn - 1]
        return str(turn)


@dataclass
class CompiledRules:
    """Loaded, checked and compiled rules, ready for the engine."""

    units: dict[str, UnitType]
    stats: dict[str, StatSpec]
    options: dict[str, Any]
    option_specs: dict[str, OptionSpec]
    tables: dict[str, Callable[..., Any]]
    sequence: SequenceDecl | None
    constants: dict[str, Any]
    fingerprint: str
    files: list[str]
    steps: dict[str, StepSpec] = field(default_factory=dict)
    vars: dict[str, VarSpec] = field(default_factory=dict)
    #: (kind, name) -> the declaration's source text and the layers that wrote it
    declarations: dict[tuple[str, str], Declaration] = field(default_factory=dict)
    _procedures: dict[str, Callable[..., Any]] = field(repr=False, default_factory=dict)
    #: for each repeating sequence, one round of it (see `round`)
    _rounds: dict[str, Callable[..., Any]] = field(repr=False, default_factory=dict)
    _handlers: dict[str, list[Callable[..., Any]]] = field(repr=False, default_factory=dict)
    #: event -> (gate, handler) for each rule bound to it (see `bound`)
    _bound: dict[str, tuple[tuple[Callable[..., Any] | None, Callable[..., Any]], ...]] = \
        field(repr=False, default_factory=dict)
    _rebuild: Callable[[Mapping[str, Any]], CompiledRules] | None = field(repr=False, default=None)
    #: a decision's listing (dsl.runtime.ListingSpan), for the steps that are `listed`; None
    #: when no step's listing remembers anything
    listing: Any = field(repr=False, default=None)
    #: `weigh(state, calls)`: the priors of a decision's options in one call into the rules
    #: (dsl.runtime `priors_together`; `calls` pairs each option's move's `prior.__wrapped__`
    #: with the option's arguments)
    weigh: Any = field(repr=False, default=None)

    def procedure(self, name: str) -> Callable[..., Any]:
        """The procedure ``name`` as ``fn(ctx, *args)``. KeyError if there is none."""
        try:
            return self._procedures[name]
        except KeyError:
            raise KeyError(f"no procedure `{name}` in the rules") from None

    def round(self, name: str) -> Callable[..., Any]:
        """One round of the repeating sequence ``name`` as ``fn(ctx, *args) -> bool``: False,
        changing nothing, when its `while` says the sequence is over; else its steps are run
        once and True is returned. KeyError if there is no such sequence."""
        try:
            return self._rounds[name]
        except KeyError:
            raise KeyError(f"no repeating sequence `{name}` in the rules") from None

    def has_procedure(self, name: str) -> bool:
        return name in self._procedures

    @property
    def procedure_names(self) -> list[str]:
        return list(self._procedures)

    def handlers(self, event: str) -> list[Callable[..., Any]]:
        """The rules bound to ``event``, base layer first, each ``fn(ctx, *event_args)``."""
        return list(self._handlers.get(event, ()))

    def bound(self, event: str) -> tuple[tuple[Callable[..., Any] | None, Callable[..., Any]], ...]:
        """The rules bound to ``event`` as in `handlers`, each with its gate: where not None,
        ``gate(*event_args)`` is the rule's `when`, asked without entering the rules (it only
        compares the event's arguments, the options and the constants): the handler is called
        only if it says yes. (The rule asks its `when` again inside: a caller may skip gates.)"""
        return self._bound.get(event, ())

    def with_options(self, overrides: Mapping[str, Any]) -> CompiledRules:
        """The same rules with some options changed (validated and coerced like at load).
        Cheap: the compiled code is reused, only re-bound."""
        assert self._rebuild is not None
        merged = dict(self.options)
        merged.update(overrides)
        return self._rebuild(merged)
