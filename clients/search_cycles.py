"""Why the search player does not go round in circles within a step.

A step of the rules often lets a player undo what it did: in A&A's combat move a unit that
moved may go back where it began. The search judges a move and its undoing alike (neither
changes what the rules value), while ending the step leads to battles and their dice, so it
could choose the move and its undoing again and again, and the step never ended (LHTR's
Allies: a destroyer out and back, 34,800 actions in round 1). So the player remembers, for
the step it is in, each position it decided at and what it chose there. A position that
comes back was left the last time by a choice that led back to it: that choice is not made
there again. Each return bars one more choice, so the step ends (a step's finish never
leads back into the same step), and the same seed still gives the same play.
"""

from __future__ import annotations

import hashlib
import json

from engine.actions import Action, Decision
from engine.state import GameState


def position(state: GameState, decision: Decision) -> bytes:
    """What makes two moments of a step the same for the deciding player: the pieces, control,
    resources, the rules' variables and any question waiting, not the dice to come."""
    seen = state.to_json()
    del seen["rng"]
    seen["decision"] = [decision.player, decision.kind]
    text = json.dumps(seen, sort_keys=True, default=repr)
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class Circles:
    """The positions one player decided at within the current step, and what it chose at each."""

    def __init__(self) -> None:
        self.step: tuple[int, int, int, int] | None = None
        self.chosen: dict[bytes, set[Action]] = {}
        self.here = b""

    def barred(self, state: GameState, decision: Decision) -> frozenset[Action]:
        """The options of `decision` chosen before at this same position of this step (each
        led back here); the step's finish never is. Empty if that would bar every option."""
        step = (state.turn, state.power_index, state.phase_index, state.step_index)
        if step != self.step:
            self.step = step
            self.chosen = {}
        self.here = position(state, decision)
        barred = frozenset(self.chosen.get(self.here, ()))
        if decision.finish is not None:
            barred -= {decision.finish}
        if len(barred) >= len(decision.options):
            return frozenset()
        return barred

    def chose(self, action: Action) -> None:
        """Remember what was chosen at the position `barred` last looked at."""
        self.chosen.setdefault(self.here, set()).add(action)
