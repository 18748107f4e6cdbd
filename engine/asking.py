"""Asking a player in the middle of the rules: the rules language's `choose`.

Most blocks that ask are compiled twice (dsl.compiler, "tasks"): as plain Python, and as a
generator that waits at its `choose` for the answer and goes on from there (`question`,
`take_answer`). A block that cannot be written so, or a waiting task answered a second time
from the same state (a computer player trying answers), is answered by replaying: the rules
run again from the state the task started in, and each `choose` takes the next recorded
answer (`ask`). The dice replay too, since their state is part of the game state, so the
second run is the first one continued. Answers are ordinary actions in the log, which keeps
saves, replays, undo and state copies exact.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from dsl.errors import RulesRuntimeError
from dsl.runtime import Later
from engine.actions import Action, Decision, IllegalAction, Options
from engine.pieces import Piece


class AskPlayer(Exception):
    """Raised by `choose` when a player must answer before the rules can go on."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.prompt)
        self.decision = decision


def encode(value: Any) -> Any:
    """A rules value as it travels in an action: a piece by its id, lists as tuples."""
    if isinstance(value, Piece):
        return value.id
    if isinstance(value, (list, tuple)):
        return tuple(encode(v) for v in value)
    return value


def describe(state: Any, value: Any) -> str:
    """Words for a value a player picks: a piece by kind, formation and place (never by its
    number: players do not see one); a space by name."""
    if isinstance(value, Piece):
        group = f" ({value.group})" if value.group else ""
        return f"{value.owner} {value.kind}{group} in {space_name(state, value.space)}"
    if isinstance(value, str) and value in state.board:
        return space_name(state, value)
    if isinstance(value, (list, tuple)):
        return ", ".join(describe(state, v) for v in value)
    return str(value)


def space_name(state: Any, sid: str) -> str:
    title = state.board.titles.get(sid)
    return title if title is not None else sid.replace(":", " ")


def ask(state: Any, player: str, prompt: str, options: list[Any],
        labels: list[str] | Callable[[], list[str]] | None,
        refused: dict[Any, str] | Callable[[], dict[Any, str]] | None = None) -> Any:
    """`labels` may be given as a function (compiled rules do): it is called only when the
    player is asked, not when one option is taken or a recorded answer is replayed. So may
    `refused`: it is called only when an answer that is not an option is refused."""
    answered, value = question(state, player, prompt, options, labels, refused)
    if answered:
        return value
    raise AskPlayer(value)


def question(state: Any, player: str, prompt: str, options: list[Any],
             labels: list[str] | Callable[[], list[str]] | None,
             refused: dict[Any, str] | Callable[[], dict[Any, str]] | None = None) -> tuple[bool, Any]:
    """`choose` without stopping: (True, the answer) when there is one without asking (a
    single option, or the next recorded answer of a replay), else (False, the Decision to
    put to the player). A resumable task (dsl.runtime's `_choose`) waits for the answer
    where it stands; other rules are stopped by `ask` and replayed."""
    if not options:
        raise RulesRuntimeError(f"`choose` for {player} ({prompt!r}) has nothing to choose from")
    if labels is not None and not callable(labels) and len(labels) != len(options):
        raise RulesRuntimeError(f"`choose` got {len(options)} options but {len(labels)} labels")
    if len(options) == 1:
        return True, options[0]
    if state.answer_hook is not None:
        # a battle calculator answers for both sides by its stated policy (clients.odds)
        return True, state.answer_hook(player, prompt, options)
    if state.answer_i < len(state.answers):
        answer = state.answers[state.answer_i]
        state.answer_i += 1
        return True, take_answer(prompt, options, refused, answer)
    if callable(labels) and not isinstance(labels, Later):
        labels = labels()
        if len(labels) != len(options):
            raise RulesRuntimeError(f"`choose` got {len(options)} options but {len(labels)} labels")
    view = state.view()
    choices = _Choices(view, tuple(options), labels)
    # each option's Action is made only when it is looked at (a random player draws one)
    return False, Decision(player, "choose", prompt, Options((("choose", choices.make, range(len(options))),)),
                           _ASKED, asked_on=view, finish=None)


def take_answer(prompt: str, options: list[Any], refused: dict[Any, str] | Callable[[], dict[Any, str]] | None,
                answer: Any) -> Any:
    """The option a player's answer (as it travels in an action) names; an answer that is not
    one is refused with its reason in `refused`, if it has one."""
    for o in options:
        if encode(o) == answer:
            return o
    if callable(refused):
        refused = refused()
    for value, reason in (refused or {}).items():
        if encode(value) == answer and reason:
            raise IllegalAction(str(reason))
    raise IllegalAction(f"{answer!r} is not one of the choices: {prompt}")


#: the context of every question asked in the middle of the rules (read-only, made once)
_ASKED = MappingProxyType({"asked": True})


class _Choices:
    """The options of one question, each made an Action when it is first looked at."""

    __slots__ = ("state", "options", "labels")

    def __init__(self, state: Any, options: tuple[Any, ...], labels: Sequence[Any] | Later | None) -> None:
        self.state, self.options = state, options
        self.labels: Any = _Labels(labels, len(options), state) if isinstance(labels, Later) else \
            tuple(labels) if labels is not None else None

    def make(self, i: int) -> Action:
        o, labels = self.options[i], self.labels
        if labels is None:
            a = Action("choose", {"choice": encode(o)}, labeler=_labeler(self.state, o))
        elif isinstance(labels, _Labels):
            a = Action("choose", {"choice": encode(o)}, labeler=functools.partial(labels.label, i))
        else:
            a = Action("choose", {"choice": encode(o)}, label=str(labels[i]))
        # the i-th choice of the question asked on this state: answered from the state that
        # asks it (or a copy), it needs no looking for among the options (RulesLogic.apply_offered)
        a.offer = (self.state, i)
        return a


class _Labels:
    """The labels of one question, made when the first of them is read."""

    __slots__ = ("make", "n", "state", "made")

    def __init__(self, make: Later, n: int, state: Any) -> None:
        self.make, self.n, self.state = make, n, state
        self.made: list[Any] | None = None

    def label(self, i: int) -> str:
        if self.made is None:
            made = list(self.make(self.state))
            if len(made) != self.n:
                raise RulesRuntimeError(f"`choose` got {self.n} options but {len(made)} labels")
            self.made = made
        return str(self.made[i])


def _labeler(state: Any, value: Any) -> Any:
    return lambda: describe(state, value)
