"""From compiled rules to the engine's own structures (the turn sequence)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.sequence import PhaseSpec, TurnStructure
from engine.state import GameState


def structure_from_rules(rules: Any) -> TurnStructure:
    """The turn sequence a ruleset's rules files declare (`turns`, `powers` or `turn order`,
    `teams`, `phase`)."""
    seq = rules.sequence
    if seq is None:
        raise ValueError("the rules declare no turn sequence (no `phase` declarations)")
    phases = tuple(PhaseSpec(p.name, tuple(p.steps), _condition(p)) for p in seq.phases)
    return TurnStructure(
        phases=phases,
        powers=tuple(seq.powers),
        turns=seq.turns,
        per_power=seq.mode == "order",
        turn_names=tuple(seq.turn_names or ()),
        turn_word=seq.turn_word,
        spans=seq.spans if seq.teams else (),
        together=tuple(seq.together),
    )


def _condition(phase: Any) -> Callable[[GameState], bool] | None:
    if phase.condition is None:
        return None
    return lambda state: phase.active(state.turn, state)
