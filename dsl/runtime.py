"""What compiled rules need while they run: the few helper functions generated code may
call, and the translation of Python errors inside rules into :class:`RulesRuntimeError`
pointing at the rules statement that failed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import MappingProxyType, TracebackType
from typing import Any

from .errors import Pos, Refused, RulesRuntimeError

__all__ = ["MAX_RANGE", "bounded_range", "bounded_range_list", "table_miss", "translate_errors", "HELPERS"]

#: the largest number of steps one `range` may produce
MAX_RANGE = 100_000


def bounded_range(a: int, b: int | None = None) -> range:
    if b is None:
        a, b = 0, a
    if b - a > MAX_RANGE:
        raise RulesRuntimeError(f"range({a}, {b}) has {b - a} steps; the limit is {MAX_RANGE}")
    return range(a, b)


def bounded_range_list(a: int, b: int | None = None) -> list[int]:
    return list(bounded_range(a, b))


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


def table_miss(name: str, key: tuple[Any, ...]) -> Any:
    shown = key[0] if len(key) == 1 else key
    raise RulesRuntimeError(f"table `{name}` has no entry for {shown!r} and no `default`")


HELPERS: dict[str, Any] = {
    "_rng": bounded_range,
    "_rngl": bounded_range_list,
    "_tmiss": table_miss,
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
    "KeyError": KeyError,
}

_TRANSLATED = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError, AttributeError)


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


def translate_errors(fn: Callable[..., Any], filename: str, linemap: list[Pos | None]) -> Callable[..., Any]:
    """Wrap an entry point of compiled rules so that failures inside rules become
    RulesRuntimeError with a rules position. Errors raised inside host primitives pass
    through untouched: they are engine bugs, not rules bugs."""
    helper_file = __file__

    @functools.wraps(fn)
    def run(*args: Any) -> Any:
        try:
            return fn(*args)
        except RulesRuntimeError as exc:
            if exc.pos is not None:
                raise
            pos = _find_pos(exc.__traceback__, filename, linemap, helper_file, need_ours=False)
            raise exc.with_pos(pos) from None
        except _TRANSLATED as exc:
            pos = _find_pos(exc.__traceback__, filename, linemap, helper_file, need_ours=True)
            if pos is None:
                raise
            raise RulesRuntimeError(_message(exc), pos) from exc

    return run
