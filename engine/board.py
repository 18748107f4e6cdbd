"""The map: spaces and what connects them.

A board is a generic graph of spaces (hexes, territories, sea zones) with attributes on the
spaces and on the links between them (a road along a hex side, a river barrier, a strait).
It is built once from scenario data and shared, never copied, by every game state.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dsl.errors import RulesRuntimeError
from engine.hexgrid import Hex, direction, neighbours

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class NoSpace(RulesRuntimeError, LookupError):
    """A space asked for by a name the board does not have: when rules ask (`neighbours`,
    `space_int`), an error in the rules at the statement that asked."""


def fold_name(text: str) -> str:
    """A name as players type it, to compare: lower case, accents dropped, punctuation a
    space, spaces single ("St.-Vith" and "st vith" are both "st vith", "Prüm" is "prum")."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in plain.lower()).split())


@dataclass(frozen=True, slots=True)
class Space:
    """One space of the map. `attrs` holds the ruleset's facts (terrain, VP, IPC value...)."""

    id: str
    name: str
    kind: str = "space"
    hex: Hex | None = None
    attrs: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def get(self, key: str, default: Any = None) -> Any:
        return self.attrs.get(key, default)


class _Adjacency(dict):  # type: ignore[type-arg]
    """Each space's neighbours; a space the board does not have is NoSpace."""

    def __missing__(self, sid: str) -> tuple[str, ...]:
        raise NoSpace(f"no space `{sid}` on this board")


class _Flags(dict):  # type: ignore[type-arg]
    """Each space's facts that are set; a space the board does not have is NoSpace."""

    def __missing__(self, sid: str) -> frozenset[str]:
        raise NoSpace(f"no space `{sid}` on this board")


class Board:
    """Spaces and adjacency. Links are undirected; each may carry attributes."""

    __slots__ = ("spaces", "_adj", "_links", "_pairs", "_by_hex", "meta", "titles", "hop_walks", "hop_asks",
                 "kept_answers", "neighbours", "flags")

    def __init__(
        self,
        spaces: Iterable[Space],
        links: Iterable[tuple[str, str, Mapping[str, Any]]] = (),
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.spaces: dict[str, Space] = {}
        for s in spaces:
            if s.id in self.spaces:
                raise ValueError(f"space `{s.id}` is defined twice")
            self.spaces[s.id] = s
        adj: dict[str, list[str]] = {sid: [] for sid in self.spaces}
        self._links: dict[frozenset[str], Mapping[str, Any]] = {}
        for a, b, attrs in links:
            for sid in (a, b):
                if sid not in self.spaces:
                    raise ValueError(f"link {a}-{b} names unknown space `{sid}`")
            key = frozenset((a, b))
            if key in self._links:
                merged = dict(self._links[key])
                merged.update(attrs)
                self._links[key] = MappingProxyType(merged)
                continue
            self._links[key] = MappingProxyType(dict(attrs)) if attrs else _EMPTY
            adj[a].append(b)
            adj[b].append(a)
        self._adj: dict[str, tuple[str, ...]] = _Adjacency({k: tuple(v) for k, v in adj.items()})
        #: a space's neighbours (NoSpace for a space the board does not have): the adjacency's
        #: own lookup, with no call of a method of ours around it (rules ask it at every step
        #: of every walk, some 9,000 times a Bulge game)
        self.neighbours: Callable[[str], tuple[str, ...]] = self._adj.__getitem__
        #: each space's facts that are set (true, non-zero, non-empty), for `flag` (NoSpace for a
        #: space the board does not have); compiled rules read it directly (`space_flag`)
        self.flags: dict[str, frozenset[str]] = _Flags(
            {s.id: frozenset(k for k, v in s.attrs.items() if v) for s in self.spaces.values()})
        #: each link's attributes under both orders of its ends (a tuple is quicker to look up
        #: than a frozenset is to make: rules ask links at every step a ship takes)
        self._pairs: dict[tuple[str, str], Mapping[str, Any]] = {}
        for key, attrs in self._links.items():
            a, b = tuple(key) if len(key) == 2 else (next(iter(key)),) * 2
            self._pairs[a, b] = self._pairs[b, a] = attrs
        self._by_hex: dict[Hex, str] = {s.hex: s.id for s in self.spaces.values() if s.hex is not None}
        self.meta: Mapping[str, Any] = MappingProxyType(dict(meta or {}))
        #: what players read for each space: its name, and its id too where the two differ
        self.titles: dict[str, str] = {
            s.id: s.name if s.name == s.id else f"{s.name} ({s.id})" for s in self.spaces.values()}
        #: engine.graph.hops keeps here the fewest links from the spaces it has walked from
        #: (a board never changes once made)
        self.hop_walks: dict[str, dict[str, int]] = {}
        self.hop_asks: dict[str, int] = {}
        #: engine.graph keeps here the answers of board questions (dsl.runtime.BoardQuestion)
        #: the walks have asked: the spaces that pass, and the links into them from each space
        self.kept_answers: dict[Any, tuple[frozenset[str], dict[str, tuple[str, ...]]] | None] = {}

    @classmethod
    def hex_map(
        cls,
        spaces: Iterable[Space],
        link_attrs: Mapping[frozenset[str], Mapping[str, Any]] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Board:
        """A hex board: every pair of hexes that touch is linked; `link_attrs` adds facts
        (road, river) to particular sides."""
        spaces = list(spaces)
        by_hex = {s.hex: s.id for s in spaces if s.hex is not None}
        link_attrs = link_attrs or {}
        links = []
        for s in spaces:
            assert s.hex is not None, f"hex board space `{s.id}` has no hex"
            for n in neighbours(s.hex):
                other = by_hex.get(n)
                if other is not None and s.id < other:
                    links.append((s.id, other, link_attrs.get(frozenset((s.id, other)), _EMPTY)))
        for key in link_attrs:
            a, b = tuple(key)
            if a not in by_hex.values() or b not in by_hex.values():
                raise ValueError(f"link {a}-{b} names an unknown hex")
        return cls(spaces, links, meta)

    def __contains__(self, sid: object) -> bool:
        return sid in self.spaces

    def __len__(self) -> int:
        return len(self.spaces)

    def space(self, sid: str) -> Space:
        try:
            return self.spaces[sid]
        except KeyError:
            raise NoSpace(f"no space `{sid}` on this board") from None

    def flag(self, sid: str, key: str) -> bool:
        """Does the space's map entry set `key` (true, non-zero, non-empty)?"""
        return key in self.flags[sid]

    @property
    def adjacency(self) -> Mapping[str, tuple[str, ...]]:
        """Each space's neighbours, for a walk that asks them of space after space."""
        return self._adj

    def adjacent(self, a: str, b: str) -> bool:
        return (a, b) in self._pairs

    def link(self, a: str, b: str) -> Mapping[str, Any]:
        """Attributes of the link between two spaces (empty when plain or absent)."""
        return self._pairs.get((a, b), _EMPTY)

    def links(self) -> Iterable[tuple[str, str, Mapping[str, Any]]]:
        for key, attrs in self._links.items():
            a, b = sorted(key)
            yield a, b, attrs

    def at_hex(self, h: Hex) -> str | None:
        return self._by_hex.get(h)

    def direction(self, a: str, b: str) -> str | None:
        """Compass side of `a` facing `b` on a hex board (E, NE, NW, W, SW, SE)."""
        ha, hb = self.spaces[a].hex, self.spaces[b].hex
        if ha is None or hb is None:
            return None
        return direction(ha, hb)

    def find(self, name: str) -> str | None:
        """The id of the space with this id or name, as a player types it: exactly, or
        without case, accents or punctuation ("prum" is Prüm, "st vith" St. Vith, "sz 5"
        SZ 5, "karelia ssr" Karelia S.S.R.), or the first words of one space's name alone ("karelia")."""
        if name in self.spaces:
            return name
        low = name.lower()
        for s in self.spaces.values():
            if s.name.lower() == low:
                return s.id
        folded = fold_name(name)
        if not folded:
            return None
        for s in self.spaces.values():
            if folded in (fold_name(s.name), fold_name(s.id)):
                return s.id
        undotted = fold_name(name.replace(".", ""))      # "karelia ssr" is Karelia S.S.R.
        for s in self.spaces.values():
            if undotted in (fold_name(s.name.replace(".", "")), fold_name(s.id.replace(".", ""))):
                return s.id
        # the first words of one name only ("karelia" is Karelia S.S.R.; "west" is no one space)
        starts = [s.id for s in self.spaces.values() if fold_name(s.name).startswith(folded + " ")]
        return starts[0] if len(starts) == 1 else None
