"""Pieces on (and off) the board.

A piece is immutable; changing one replaces it in the state. That keeps copying a state a
shallow dict copy, which the computer players and the battle calculator do constantly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Piece:
    """One unit or marker: its type (`kind`), owner and where it is.

    `space` is a board space id or an off-board area such as "offboard:Axis" or
    "chart:Northern". `group` names the formation (division, brigade) where a ruleset cares.
    `status` holds per-turn marks such as "activated" or "attacked".
    """

    id: int
    kind: str
    owner: str
    space: str
    hits: int = 0
    group: str = ""
    status: frozenset[str] = field(default=frozenset())
    carrier: int | None = None

    def changed(self, changes: dict[str, Any]) -> Piece:
        """This piece with some fields changed: `dataclasses.replace`, without its
        introspection (pieces change at every step a unit takes)."""
        if not changes.keys() <= _FIELDS:
            raise TypeError(f"a piece has no field {sorted(changes.keys() - _FIELDS)[0]!r}")
        g = changes.get
        p = _Draft(self.id, g("kind", self.kind), g("owner", self.owner), g("space", self.space),
                   g("hits", self.hits), g("group", self.group), g("status", self.status), g("carrier", self.carrier))
        p.__class__ = Piece      # type: ignore[assignment]
        return p  # type: ignore[return-value]

    def changed_status(self, status: frozenset[str]) -> Piece:
        """This piece with other marks (`changed` for the commonest change)."""
        p = _Draft(self.id, self.kind, self.owner, self.space, self.hits, self.group, status, self.carrier)
        p.__class__ = Piece      # type: ignore[assignment]
        return p  # type: ignore[return-value]

    def changed_space(self, space: str) -> Piece:
        """This piece in another space (`changed` for a move)."""
        p = _Draft(self.id, self.kind, self.owner, space, self.hits, self.group, self.status, self.carrier)
        p.__class__ = Piece      # type: ignore[assignment]
        return p  # type: ignore[return-value]

    def marked(self, mark: str) -> bool:
        return mark in self.status

    def with_mark(self, mark: str) -> Piece:
        return replace(self, status=self.status | {mark})

    def without_mark(self, mark: str) -> Piece:
        return replace(self, status=self.status - {mark})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "owner": self.owner, "space": self.space}
        if self.hits:
            out["hits"] = self.hits
        if self.group:
            out["group"] = self.group
        if self.status:
            out["status"] = sorted(self.status)
        if self.carrier is not None:
            out["carrier"] = self.carrier
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Piece:
        return cls(
            id=int(data["id"]),
            kind=str(data["kind"]),
            owner=str(data["owner"]),
            space=str(data["space"]),
            hits=int(data.get("hits", 0)),
            group=str(data.get("group", "")),
            status=frozenset(data.get("status", ())),
            carrier=data.get("carrier"),
        )


_FIELDS = frozenset(("kind", "owner", "space", "hits", "group", "status", "carrier"))


class _Draft:
    """A changed piece while it is made: the fields of a Piece in the same slots, set as a
    plain object's, then made a Piece by taking its class (which the two slot layouts allow).
    A frozen dataclass sets each field through object.__setattr__, and setting each slot
    through its descriptor is not much quicker: this is three times as quick as either, and a
    piece changes at every step a unit takes."""

    __slots__ = Piece.__slots__

    def __init__(self, id: int, kind: str, owner: str, space: str, hits: int, group: str,  # noqa: A002
                 status: frozenset[str], carrier: int | None) -> None:
        self.id, self.kind, self.owner, self.space = id, kind, owner, space
        self.hits, self.group, self.status, self.carrier = hits, group, status, carrier
