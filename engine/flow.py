"""Driving a game state forward: apply an action to a copy, then walk the sequence until
someone has to decide something. Shared by the Game controller and the computer players'
look-ahead, so both play by exactly the same rules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import takewhile
from typing import Any

from dsl.errors import Refused
from engine.actions import Action, Decision, IllegalAction
from engine.dice import MASK
from engine.ruleset import GameLogic, LoadedRuleset, Result
from engine.sequence import Boundary
from engine.state import GameState

#: boundaries with a pluggy hook of the same name (wargame_<name>)
_HOOKED = {"turn_start", "turn_end", "power_start", "power_end", "phase_start", "phase_end", "game_end"}


def fire(rs: LoadedRuleset, state: GameState, boundaries: Iterable[Boundary]) -> Boundary | None:
    """Log each boundary and run what is bound to it: the plugins' hooks, then the rules
    files' `rule ... on <event>` handlers (base ruleset first in both), then the logic's
    own `on_boundary`. Stops at the boundary where the game ends. Returns the last boundary
    crossed."""
    hooks = rs.plugins.hook
    rules = rs.rules
    logic = rs.logic
    # (a logic with no automatic work of its own at boundaries is not called for each)
    on_boundary = logic.on_boundary if type(logic).on_boundary is not GameLogic.on_boundary else None
    last: Boundary | None = None
    for last in boundaries:
        name, args = last
        logic.before_boundary(state, name, args)
        # (the boundary's arguments are a dict of its own, made by the turn structure and
        # changed by nobody: the event keeps it, as `state.emit(name, **args)` would a copy)
        state.events.append(last)
        if name in _HOOKED:
            hook = getattr(hooks, "wargame_" + name)
            if hook.get_hookimpls():     # (a call that no plugin answers still costs microseconds)
                hook(state=state, rules=rules, **args)
        bound = rules.bound(name)
        if bound:
            values = args.values()
            for gate, handler in bound:
                if gate is None or gate(*values):    # (a `when` on the event's arguments alone)
                    handler(state, *values)
        if on_boundary is not None:
            on_boundary(state, name, args)
        if state.result is None:
            result = logic.result(state)
            if result is not None:
                state.result = result.to_json()
        if state.result is not None:
            break
    return last


def start(rs: LoadedRuleset, state: GameState) -> Decision | None:
    """Enter the first step of a freshly set-up game; returns the first decision."""
    fire(rs, state, [("game_start", {})])
    fire(rs, state, rs.structure.begin(state))
    return settle(rs, state)


def settle(rs: LoadedRuleset, state: GameState, pause: bool = False) -> Decision | None:
    """Walk the sequence until a player must decide; None when the game is over.

    With `pause`, stop instead where the current step is over (nobody has anything left to
    decide in it), before its end is crossed: None then, with the game not over. `ending`
    shows the position as the step leaves it; `resume` goes on from there."""
    logic = rs.logic
    while state.result is None:
        result = logic.result(state)
        if result is not None:
            state.result = result.to_json()
            break
        decision = logic.decision(state)
        if decision is not None:
            return decision
        if pause:
            return None
        last = fire(rs, state, rs.structure.advance(state))
        if state.result is None and last is not None and last[0] == "game_end":
            result = logic.result(state) or logic.final_result(state)
            state.result = result.to_json()
    return None


def apply(rs: LoadedRuleset, state: GameState, action: Action,
          dice: int | None = None, pause: bool = False) -> tuple[GameState, Decision | None]:
    """Play `action` on a settled state. Returns the new state, settled, and its decision
    (None when the game is over); `state` itself is never changed. With `dice`, the new
    state rolls from that dice state instead of `state`'s (a search's look-ahead samples
    its own dice, so the game's own are never read ahead). With `pause`, the new state
    stops where the action ends its step, as `settle` does with it.

    Raises IllegalAction when the game is over or the rules refuse the action."""
    if state.result is not None:
        raise IllegalAction("the game is over")
    new = state.copy()
    if dice is not None:
        new.rng = dice & MASK
    offer = action.offer
    try:    # (`_refused_as_illegal` written out: a playout's every action passes here)
        if offer is not None and (offer[0] is state or (state.task_decision is not None
                                                        and offer[0] is state.task_decision.asked_on)):
            # one of the options this very state's decision listed (or the question it asks,
            # which names the snapshot it was asked on): it passed the rules' checks when it
            # was listed, so it is played without checking it again
            rs.logic.apply_offered(new, action, offer[1], state)
        else:
            rs.logic.apply(new, action)
        return new, settle(rs, new, pause)
    except IllegalAction:
        raise
    except Refused as exc:
        raise IllegalAction(exc.reason) from None


@contextmanager
def _refused_as_illegal() -> Iterator[None]:
    """A rules file's `require ... else "reason"` met while an action's consequences run (the
    next step's `start`, an event rule, a step's end): the whole action is refused."""
    try:
        yield
    except IllegalAction:
        raise
    except Refused as exc:
        raise IllegalAction(exc.reason) from None


#: the boundaries where what comes after a step begins
_BEGINNINGS = frozenset({"step_start", "phase_start", "phase_skipped", "power_start", "turn_start"})


def ending(rs: LoadedRuleset, state: GameState) -> GameState:
    """A copy of a state paused where its step is over (`settle` with `pause`), as the step
    leaves it: what is bound to the step's end done, and to its phase's, its power's turn's
    and its round's where they end with it (units not placed lost, aircraft with nowhere to
    land lost), and nothing of what comes next (the next step's automatic work, an income
    collected, a battle fought). A search compares its options there, each at the same point
    of the turn."""
    new = state.copy()
    with _refused_as_illegal():
        last = fire(rs, new, takewhile(lambda b: b[0] not in _BEGINNINGS, rs.structure.advance(new)))
    if new.result is None and last is not None and last[0] == "game_end":
        new.result = (rs.logic.result(new) or rs.logic.final_result(new)).to_json()
    return new


def resume(rs: LoadedRuleset, state: GameState) -> Decision | None:
    """Go on from a state paused where its step is over (`settle` with `pause`), as `settle`
    does. Raises IllegalAction where the rules refuse what follows (a `require` met in the next
    step's start): the action that ended the step is refused, as `apply` would have said."""
    with _refused_as_illegal():
        return settle(rs, state)


def why_not(rs: LoadedRuleset, state: GameState, action: Action) -> str | None:
    """Why the rules refuse `action` now, in the rules' words; None if it would be accepted.
    Nothing changes: the action is tried on a copy."""
    try:
        apply(rs, state, action)
    except IllegalAction as exc:
        return exc.reason
    return None


def result_of(state: GameState) -> Result | None:
    if state.result is None:
        return None
    r: dict[str, Any] = state.result
    return Result(r.get("winner"), r.get("reason", ""), r.get("score", {}))
