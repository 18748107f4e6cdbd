"""Unit names as players write them, read against the ruleset's own unit types: any case,
singular or plural, a type's words ("aircraft carrier", "carrier"), a prefix ("inf", "art"),
the letters of its name in order ("ftr", "bmb", "trn"), and the words A&A players and TripleA
use for a unit by what it is (its tags and stats, not its name: "arm" and "armour" for the
blitzing land unit, "dd" for the one that cancels submarines...). So a mod's new unit is
named the same ways. Anything else is refused with a did-you-mean."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from typing import Any

from clients.odds import OddsError


def _has(tag: str) -> Callable[[Any], bool]:
    return lambda t: tag in t.tags


def _stat(name: str, test: Callable[[int], bool]) -> Callable[[Any], bool]:
    return lambda t: test(int(getattr(t, name, 0) or 0)) if name in t.stats else False


#: players' words for a unit by what it is
WORDS: dict[str, Callable[[Any], bool]] = {
    "aa": _has("aa"), "aa gun": _has("aa"), "flak": _has("aa"),
    "arm": _has("blitz"), "armor": _has("blitz"), "armour": _has("blitz"), "tank": _has("blitz"),
    "dd": _has("cancels_subs"), "destroyer": _has("cancels_subs"),
    "bb": _stat("hits_to_kill", lambda n: n > 1), "battleship": _stat("hits_to_kill", lambda n: n > 1),
    "cv": _stat("carrier_capacity", lambda n: n > 0), "carrier": _stat("carrier_capacity", lambda n: n > 0),
    "tp": _has("carries_land"), "trn": _has("carries_land"), "transport": _has("carries_land"),
    "ic": _has("factory"), "factory": _has("factory"),
}


def words_of(name: str) -> list[str]:
    """`AircraftCarrier` -> ["aircraft", "carrier"]; `AAGun` -> ["aa", "gun"]."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]


def _singular(word: str) -> list[str]:
    out = [word]
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("es"):
        out.append(word[:-2])
    if word.endswith("s"):
        out.append(word[:-1])
    return out


def _letters_in_order(short: str, name: str) -> bool:
    if not name.startswith(short[0]):
        return False
    it = iter(name)
    return all(c in it for c in short)


def unit_type(units: Mapping[str, Any], text: str) -> str:
    """The unit type a player means by `text`; OddsError with a did-you-mean otherwise."""
    raw = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    if not raw:
        raise OddsError("a unit needs a name")
    names = {k: " ".join(words_of(k)) for k in units}
    for form in _singular(raw):
        squashed = form.replace(" ", "")
        for k, spaced in names.items():
            if form in (k.lower(), spaced) or squashed == k.lower():
                return k
    for form in _singular(raw):
        found = [k for k in units if form in WORDS and WORDS[form](units[k])]
        if len(found) == 1:
            return found[0]
        found = [k for k, spaced in names.items() if form in spaced.split()]
        if len(found) == 1:
            return found[0]
        if len(form) >= 3:
            found = [k for k in units if k.lower().startswith(form.replace(" ", ""))]
            if len(found) == 1:
                return found[0]
            found = [k for k in units if _letters_in_order(form.replace(" ", ""), k.lower())]
            if len(found) == 1:
                return found[0]
    known = sorted({k.lower() for k in units} | set(names.values()) | set(WORDS))
    close = difflib.get_close_matches(raw, known, n=1, cutoff=0.6)
    hint = f"; did you mean `{close[0]}`?" if close else ""
    raise OddsError(f"no unit `{text.strip()}` in these rules{hint} (units: {', '.join(sorted(units))})")


def force(units: Mapping[str, Any], text: str, most: int = 1_000) -> dict[str, int]:
    """"3 infantry, 1 artillery, tank" as {"Infantry": 3, "Artillery": 1, "Tank": 1}."""
    out: dict[str, int] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s*[x*]?\s*(.*)", part)
        n, name = (int(m.group(1)), m.group(2)) if m else (1, part)
        if n > most:
            raise OddsError(f"{n:,} {name.strip()} is too many: at most {most:,} units of a kind")
        if n == 0:
            continue
        kind = unit_type(units, name)
        out[kind] = out.get(kind, 0) + n
    return out
