"""Unit names as players read them: a unit type's name in the rules is one word
("IndustrialComplex", "AAGun"); shown to players it is spaced ("Industrial Complex",
"AA Gun"). The names come from the ruleset's own unit types, so no game is known here: a
text is changed only where it names one of them as a whole word."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

_JOINS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def spaced(name: str) -> str:
    """A one-word name spaced where its capitals join words: "AircraftCarrier" is
    "Aircraft Carrier", "AAGun" "AA Gun"; "Infantry" stays."""
    return _JOINS.sub(" ", name)


def unit_words(kinds: Iterable[str]) -> Callable[[str], str]:
    """A function that spaces, in a text, every unit type name of `kinds` that reads as
    several words (a text without one is returned as it is)."""
    joined = {k: spaced(k) for k in kinds if spaced(k) != k}
    if not joined:
        return lambda text: text
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(joined, key=len, reverse=True)) + r")\b")

    def words(text: str) -> str:
        return pattern.sub(lambda m: joined[m.group(1)], text) if text else text

    return words


def without_own_name(kinds: Iterable[str], player: str, text: str) -> str:
    """Words of an action as said after the name of the player who played it: the player's
    name is dropped where the action names it again before one of its unit types ("USSR:
    move USSR Fighter in Karelia" reads "USSR: move Fighter in Karelia"); another power's
    unit, or a space named like the player, keeps its words."""
    names = sorted({k for k in kinds} | {spaced(k) for k in kinds}, key=len, reverse=True)
    if not player or not names or player not in text:
        return text
    pattern = rf"\b{re.escape(player)} (?=(?:{'|'.join(re.escape(n) for n in names)})\b)"
    return re.sub(pattern, "", text)


def said_by(rs: Any, player: str, text: str) -> str:
    """`without_own_name` for a loaded ruleset's unit types."""
    units = getattr(rs.rules, "units", None)
    return without_own_name(units if isinstance(units, dict) else (), player, text)


def for_ruleset(rs: Any) -> Callable[[str], str]:
    """`unit_words` for a loaded ruleset's unit types (none known: texts as they are)."""
    units = getattr(rs.rules, "units", None)
    return unit_words(units if isinstance(units, dict) else ())
