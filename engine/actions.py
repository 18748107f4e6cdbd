"""Decisions the engine asks and the actions that answer them.

Every player input, from a human or a computer player, is an Action answering the current
Decision. Actions are plain data (a kind and JSON-able arguments) so that a game is its
scenario, seed and list of actions, and can be saved and replayed exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dsl.errors import Refused


class IllegalAction(Refused):
    """An action the rules refuse. `reason` is written for the player. It is the rules
    language's `Refused`, so `require ... else "reason"` in a rules file raises it too."""


class Action:
    """One answer to a decision: `kind` names what is done, `args` its JSON-able details.

    `label` is the words a player reads; it may be given as a function and is then made
    only when a client shows it (most options a computer player looks at are never shown).
    """

    __slots__ = ("kind", "args", "_label", "_labeler")

    def __init__(self, kind: str, args: Mapping[str, Any] | None = None, label: str = "",
                 labeler: Callable[[], str] | None = None) -> None:
        self.kind = kind
        self.args: Mapping[str, Any] = args if args is not None else {}
        self._label = label
        self._labeler = labeler

    @property
    def label(self) -> str:
        if not self._label and self._labeler is not None:
            self._label = self._labeler()
            self._labeler = None
        return self._label

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind == other.kind and dict(self.args) == dict(other.args)

    def __hash__(self) -> int:
        return hash((self.kind, tuple(sorted((k, repr(v)) for k, v in self.args.items()))))

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {dict(self.args)!r})"

    def __getitem__(self, key: str) -> Any:
        return self.args[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": _jsonable(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        return cls(str(data["kind"]), _frozen(dict(data.get("args") or {})))

    def __str__(self) -> str:
        if self.label:
            return self.label
        if not self.args:
            return self.kind
        return self.kind + " " + " ".join(f"{k}={v}" for k, v in self.args.items())


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [_jsonable(v) for v in items]
    return value


def _frozen(value: Any) -> Any:
    """JSON lists come back as tuples so that loaded actions compare equal to live ones."""
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def normalise(action: Action) -> Action:
    """The action as it would come back from a save file."""
    return Action.from_json(action.to_json())


_FINISH_KINDS = frozenset(("done", "pass", "finish"))


@dataclass(slots=True)
class Decision:
    """A question the engine asks one player.

    `options` lists every legal answer (rulesets keep decisions fine-grained so that this
    stays short); a client may also send an action that is not listed, and it is validated
    like any other.
    """

    player: str
    kind: str
    prompt: str
    options: list[Action]
    context: Mapping[str, Any] = field(default_factory=dict)
    #: the option that ends this decision's step ("done", "pass", "end movement"), so a
    #: client or computer player can find it without knowing its name; None if there is none
    finish: Action | None = None

    def __post_init__(self) -> None:
        if self.finish is None:
            # decisions written before `finish` existed mark their finish by kind
            self.finish = next((a for a in self.options if a.kind in _FINISH_KINDS), None)

    def find(self, text: str) -> Action | None:
        """The option whose label or number matches what a player typed."""
        t = text.strip().lower()
        if t.isdigit() and 1 <= int(t) <= len(self.options):
            return self.options[int(t) - 1]
        for a in self.options:
            if (a.label or str(a)).lower() == t:
                return a
        return None
