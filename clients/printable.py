"""What `wargame` writes to a terminal is text, never control sequences.

Names, titles and values come from files anyone may share (rules files, manifests, saves) and
from `--option`: an escape character among them could recolour, retitle or rewrite the player's
terminal, a carriage return hide what came before it, a bidirectional override reverse what is
read. Every character that is not text (except newline and tab) is written as an escape
(`\\x1b`, `\\u202e`) by a wrapper around the command's stdout and stderr, so no message needs to
remember it; and an error message shortens what it quotes past a few hundred characters (and
any line past a thousand), so a 100,000-character value is one line, not a screenful.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

#: C0 controls but newline and tab, DEL, C1 controls, and the bidirectional marks, embeddings,
#: overrides and isolates
_CONTROLS = [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F,
             *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
#: (past ASCII as `\\u0085`, which JSON reads too: `info --json` stays JSON)
_ESCAPES = {c: (f"\\x{c:02x}" if c < 0x7F else f"\\u{c:04x}") for c in _CONTROLS}
_ANY_CONTROL = re.compile("[" + "".join(re.escape(chr(c)) for c in _CONTROLS) + "]")
#: a run of characters with no space in it this long is a hostile value, not a word
_LONG_RUN = re.compile(r"\S{200,}")


def printable(text: str) -> str:
    """`text` with every control character written as an escape."""
    return text.translate(_ESCAPES) if _ANY_CONTROL.search(text) else text


#: the longest line of an error message
MOST_IN_A_LINE = 1000


def shortened(text: str, keep: int = 60) -> str:
    """`text` with every run of 200 or more characters without a space cut to its first
    `keep`, and its length said; and a line still longer than MOST_IN_A_LINE (a value with
    spaces, `[1, 1, 1, ...]`) cut there."""
    text = _LONG_RUN.sub(lambda m: f"{m[0][:keep]}... ({len(m[0]):,} characters)", text)
    if len(text) <= MOST_IN_A_LINE:
        return text
    return "\n".join(line if len(line) <= MOST_IN_A_LINE else f"{line[:MOST_IN_A_LINE - 50]}... (a line of "
                     f"{len(line):,} characters)" for line in text.split("\n"))


class Escaping:
    """A text stream that writes through to `stream` with control characters escaped."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:      # flush, fileno, isatty, encoding...
        return getattr(self.stream, name)
