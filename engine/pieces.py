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
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"a piece has no field {sorted(unknown)[0]!r}")
        g = changes.get
        # made through the slots themselves: a frozen dataclass's __init__ sets each field with
        # object.__setattr__, twice as slow, and a piece changes at every step a unit takes
        p = _new(Piece)
        _set_id(p, self.id)
        _set_kind(p, g("kind", self.kind))
        _set_owner(p, g("owner", self.owner))
        _set_space(p, g("space", self.space))
        _set_hits(p, g("hits", self.hits))
        _set_group(p, g("group", self.group))
        _set_status(p, g("status", self.status))
        _set_carrier(p, g("carrier", self.carrier))
        return p

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
_new = object.__new__
_set_id, _set_kind, _set_owner, _set_space, _set_hits, _set_group, _set_status, _set_carrier = (
    Piece.__dict__[name].__set__ for name in ("id", "kind", "owner", "space", "hits", "group", "status", "carrier"))
