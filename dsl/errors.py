"""Positions, diagnostics and the exceptions of the rules language.

A modder meets the language through its error messages, so they are rendered like a
compiler's: ``file:line:col: message``, the offending source line, a caret, and an
optional hint (often "did you mean ...?").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Pos",
    "Diagnostic",
    "RulesError",
    "RulesRuntimeError",
    "RulesLimitError",
    "Refused",
    "did_you_mean",
    "NO_POS",
]


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in a rules file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_POS = Pos("<rules>", 0, 0)
#: the most characters of a source line a diagnostic shows
_WIDE = 160


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in the rules, with where it is and how to fix it."""

    pos: Pos
    message: str
    hint: str | None = None
    severity: str = "error"

    def render(self, sources: dict[str, str] | None = None) -> str:
        head = f"{self.pos}: {self.message}" if self.pos.line else self.message
        if self.severity != "error":
            head = f"{head} [{self.severity}]"
        lines = [head]
        text = (sources or {}).get(self.pos.file)
        if text is not None and self.pos.line >= 1:
            src_lines = text.splitlines()
            if self.pos.line <= len(src_lines):
                src = src_lines[self.pos.line - 1].expandtabs(1)
                col = max(self.pos.col - 1, 0)
                if len(src) > _WIDE:
                    # a very long line (a 5,000-digit number): the part around the caret
                    start = max(col - _WIDE // 2, 0)
                    shown = src[start:start + _WIDE]
                    src = ("..." if start else "") + shown + ("..." if start + _WIDE < len(src) else "")
                    col = col - start + (3 if start else 0)
                lines.append(src)
                lines.append(" " * col + "^")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, or None when nothing is close."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{matches[0]}`?" if matches else None


class RulesError(Exception):
    """The rules could not be loaded. Holds every diagnostic found, not just the first."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(self.render())

    def render(self) -> str:
        parts = [d.render(self.sources) for d in self.diagnostics]
        n = sum(1 for d in self.diagnostics if d.severity == "error")
        if n > 1:
            parts.append(f"{n} errors")
        return "\n\n".join(parts)

    def __str__(self) -> str:
        return self.render()


class RulesRuntimeError(Exception):
    """A rule failed while running (division by zero, index out of range, missing table
    entry, loop bound exceeded...). ``pos`` is the rules statement that failed."""

    def __init__(self, message: str, pos: Pos | None = None):
        self.message = message
        self.pos = pos
        super().__init__(f"{pos}: {message}" if pos is not None else message)

    def with_pos(self, pos: Pos | None) -> RulesRuntimeError:
        return type(self)(self.message, pos)


class RulesLimitError(RulesRuntimeError):
    """Rules went past one of the limits that keep shared rules from hanging a game or
    exhausting memory: the step budget of one call, the length of a list or a string, the size
    of an integer (see :mod:`dsl.runtime`). The message says which, and how to raise it."""


class Refused(Exception):
    """The rules refuse what a player asked (`require cond else reason`). The engine's
    IllegalAction is this exception: a player reads `reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
