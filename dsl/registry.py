"""What the host (the engine and a ruleset's Python plugin) offers to rules files.

The rules language knows nothing of the engine: every record type, primitive function,
engine event and named constant a rules file may use is declared here by the host. The
``dsl`` package never imports ``engine`` or ``rulesets``.
"""

from __future__ import annotations

import copy as _copy
import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .types import RecordType, Type, parse_type_text

__all__ = ["Registry", "RecordSpec", "PrimitiveSpec", "EventSpec", "ConstantSpec", "valid_field_name"]

_FIELD_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def valid_field_name(name: str) -> bool:
    """Field and stat names: lowercase, never starting with `_` (so never a dunder)."""
    return bool(_FIELD_RE.match(name))


@dataclass(frozen=True)
class RecordSpec:
    name: str
    fields: dict[str, str]
    unit_stats: bool = False
    doc: str = ""


@dataclass(frozen=True)
class PrimitiveSpec:
    name: str
    fn: Callable[..., Any]
    params: tuple[tuple[str, str], ...]
    returns: str = "none"
    context: bool = False
    doc: str = ""
    #: the same as a Python expression the compiler may write in place of the call when each
    #: argument is a name, a literal or a field of one: ``{0}``, ``{1}``... the arguments,
    #: ``ctx`` the state; it must mean exactly what `fn` does
    inline: str = ""
    #: its answer depends on its arguments and the board alone (never on the pieces, control,
    #: resources or variables of a game): the compiler keeps the answers of procedures that
    #: call only such primitives (see dsl.compiler, "board procedures"). A primitive that is
    #: passed procedures (`distances`) is so when they are board procedures too.
    board: bool = False
    #: it changes the game (moves or marks pieces, rolls dice, logs): code that calls it, or a
    #: procedure that does, is not "a question only" (see dsl.compiler, "questions only")
    changes: bool = False
    #: it answers a list of the game's pieces as they are now (`units_at`): in code that only
    #: asks, a unit taken from it needs no looking up again (see dsl.compiler, "current pieces")
    current: bool = False
    #: the answer as Python code (like `inline`) for code that only goes through it (a loop
    #: over it, `in`, `len`) and changes nothing of the game meanwhile: a view of what the
    #: state holds, where `fn` makes a list the caller may change
    peek: str = ""
    #: the `peek` form for a loop that looks only at units of some types (see dsl.compiler,
    #: "units of some types"): ``{kinds}`` is a tuple of their names; the units must come in
    #: the order `peek` gives them
    peek_kinds: str = ""
    #: what of the game state its answer reads, for answers kept from one decision to the
    #: next (see dsl.compiler, "answers kept by what they read"): "ATTR", a value of the state
    #: (`turn`); or "INDEX OWN", the pieces of one entry of an index of the state, keyed by its
    #: first argument, an entry shared copy-on-write that the state changes in place only while
    #: the key is in its set OWN (`units_at`: "_at _own"); "INDEX OWN many" for entries that
    #: hold many pieces, worth keeping the answers of a loop over them (`units_of`, an owner's)
    reads: str = ""


@dataclass(frozen=True)
class EventSpec:
    name: str
    params: tuple[tuple[str, str], ...]
    doc: str = ""


@dataclass(frozen=True)
class ConstantSpec:
    name: str
    type: str
    value: Any
    doc: str = ""


@dataclass
class Registry:
    """Collects the host's declarations. Types are written as text: ``"list[Unit]"``."""

    records: dict[str, RecordSpec] = field(default_factory=dict)
    primitives: dict[str, PrimitiveSpec] = field(default_factory=dict)
    events: dict[str, EventSpec] = field(default_factory=dict)
    constants: dict[str, ConstantSpec] = field(default_factory=dict)
    #: unit stats the host itself reads (a client draws a counter from `short`), so the
    #: checker does not report them as read by nothing
    host_stats: set[str] = field(default_factory=set)
    #: the host plays the turn the rules declare: they need a phase, and every phase a step
    needs_turns: bool = False

    # -- declaring
    def record(self, name: str, fields: dict[str, str], *, unit_stats: bool = False, doc: str = "") -> None:
        self._check_name(name)
        for f in fields:
            if not valid_field_name(f) or keyword.iskeyword(f):
                raise ValueError(f"record field `{name}.{f}` must be lowercase letters, digits and `_`")
        if unit_stats and "kind" not in fields:
            raise ValueError(f"record `{name}` carries unit stats, so it needs a `kind: str` field naming its unit")
        if unit_stats and any(r.unit_stats for r in self.records.values() if r.name != name):
            raise ValueError("only one record type may carry unit stats")
        self.records[name] = RecordSpec(name, dict(fields), unit_stats, doc)

    def primitive(
        self,
        name: str,
        fn: Callable[..., Any],
        params: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        returns: str = "none",
        *,
        context: bool = False,
        doc: str = "",
        inline: str = "",
        board: bool = False,
        changes: bool = False,
        current: bool = False,
        peek: str = "",
        peek_kinds: str = "",
        reads: str = "",
    ) -> None:
        self._check_name(name)
        if current and returns != "list[Unit]":
            raise ValueError(f"primitive `{name}` answers `{returns}`: only a list of units can be current pieces")
        self.primitives[name] = PrimitiveSpec(name, fn, tuple(params), returns, context, doc, inline, board, changes,
                                              current, peek, peek_kinds, reads)

    def event(self, name: str, params: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (), doc: str = "") -> None:
        self._check_name(name)
        self.events[name] = EventSpec(name, tuple(params), doc)

    def constant(self, name: str, type: str, value: Any, doc: str = "") -> None:
        self._check_name(name)
        self.constants[name] = ConstantSpec(name, type, value, doc)

    def copy(self) -> Registry:
        """A copy that can take more declarations without changing this one: checking a
        ruleset adds its powers as constants, and must not leak them into the next one."""
        new = _copy.copy(self)
        new.records, new.primitives = dict(self.records), dict(self.primitives)
        new.events, new.constants = dict(self.events), dict(self.constants)
        new.host_stats = set(self.host_stats)
        return new

    # -- reading
    @property
    def unit_record(self) -> RecordSpec | None:
        for r in self.records.values():
            if r.unit_stats:
                return r
        return None

    def type_of(self, text: str) -> Type:
        return parse_type_text(text, set(self.records))

    def field_type(self, record: RecordType, name: str) -> Type | None:
        spec = self.records.get(record.name)
        if spec is None or name not in spec.fields:
            return None
        return self.type_of(spec.fields[name])

    def validate(self) -> None:
        """Raise ValueError if a declared type names an unknown record."""
        for r in self.records.values():
            for t in r.fields.values():
                self.type_of(t)
        for p in self.primitives.values():
            self.type_of(p.returns)
            for _, t in p.params:
                self.type_of(t)
        for e in self.events.values():
            for _, t in e.params:
                self.type_of(t)
        for c in self.constants.values():
            self.type_of(c.type)

    @staticmethod
    def _check_name(name: str) -> None:
        if not _NAME_RE.match(name) or keyword.iskeyword(name):
            raise ValueError(f"`{name}` is not a valid rules-language name")
