"""Where an entry of a JSON data file is written: the line and column of `pieces[3]` in a
scenario file, so that `wargame check` can point a modder at it as it points into rules
files. Python's json module keeps no positions; this walks the text once (it is only asked
when something is wrong)."""

from __future__ import annotations

import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # (not in the stubs)

Path_ = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


class _Found(Exception):
    def __init__(self, at: int) -> None:
        self.at = at


def place(text: str, where: Path_) -> tuple[int, int] | None:
    """The (line, column), both from 1, of the value at `where` (`("pieces", 3)`), or None when
    the text has no such entry or is not JSON."""
    try:
        _value(text, 0, (), where)
    except _Found as found:
        line = text.count("\n", 0, found.at) + 1
        return line, found.at - (text.rfind("\n", 0, found.at) + 1) + 1
    except (ValueError, IndexError, RecursionError):
        return None
    return None


def _value(text: str, i: int, path: Path_, want: Path_) -> int:
    i = _WS.match(text, i).end()  # type: ignore[union-attr]
    if path == want:
        raise _Found(i)
    inside = want[:len(path)] == path      # (only the way to `want` is looked into)
    c = text[i]
    if c == "{":
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if text[i] == "}":
            return i + 1
        while True:
            if text[i] != '"':
                raise ValueError(i)
            key, i = scanstring(text, i + 1)
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i] != ":":
                raise ValueError(i)
            i = _value(text, i + 1, path + (key,) if inside else path + ("",), want if inside else ())
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i] == ",":
                i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                continue
            if text[i] != "}":
                raise ValueError(i)
            return i + 1
    if c == "[":
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if text[i] == "]":
            return i + 1
        n = 0
        while True:
            i = _value(text, i, path + (n,) if inside else path + ("",), want if inside else ())
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            n += 1
            if text[i] == ",":
                i += 1
                continue
            if text[i] != "]":
                raise ValueError(i)
            return i + 1
    if c == '"':
        return scanstring(text, i + 1)[1]
    m = _SCALAR.match(text, i)
    if m is None:
        raise ValueError(i)
    return m.end()
