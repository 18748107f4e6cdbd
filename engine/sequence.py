"""The turn sequence: turns, the powers' order, phases and steps.

A ruleset declares its sequence (in its rules files); the engine walks it and reports every
boundary it crosses as an event, so rules can act at "the start of the upkeep phase" without
the engine knowing what upkeep is. Two shapes are supported: shared phases that every side
acts in (Battle of the Bulge), and turns where each power in order plays all the phases
(Axis & Allies). In the second, powers next to each other in the order may play as a team
(AARHE's team turns): the team's turn walks each phase once, played by each member in turn,
or once by the whole team for a phase it plays together (a joint conduct combat).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.state import GameState

Boundary = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class PhaseSpec:
    name: str
    steps: tuple[str, ...]
    #: the phase is skipped when this says no (e.g. no air combat in bad weather)
    when: Callable[[GameState], bool] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TurnStructure:
    phases: tuple[PhaseSpec, ...]
    powers: tuple[str, ...]
    turns: int | None = None
    per_power: bool = False
    turn_names: tuple[str, ...] = ()
    #: what players call a turn without a name of its own ("Round" in A&A)
    turn_word: str = "Turn"
    #: for each place in the turn order, the first and last place of its team (empty: every
    #: power plays alone)
    spans: tuple[tuple[int, int], ...] = ()
    #: the phases a team plays once, all its members at once
    together: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.phases:
            raise ValueError("a turn sequence needs at least one phase")
        for p in self.phases:
            if not p.steps:
                raise ValueError(f"phase `{p.name}` has no steps")

    # -- where are we -----------------------------------------------------------------------
    def phase(self, state: GameState) -> PhaseSpec:
        return self.phases[state.phase_index]

    def step(self, state: GameState) -> str:
        return self.phases[state.phase_index].steps[state.step_index]

    def power(self, state: GameState) -> str | None:
        """The power whose turn it is, for sequences where each power plays in order."""
        return self.powers[state.power_index] if self.per_power else None

    def team(self, state: GameState) -> tuple[str, ...]:
        """The powers of the team whose turn it is (the power alone when it plays in no team)."""
        if not self.per_power:
            return ()
        first, last = self._span(state.power_index)
        return self.powers[first:last + 1]

    def acting(self, state: GameState) -> tuple[str, ...]:
        """The powers who play the current phase: the team in a phase it plays together."""
        if self.per_power and self.phase(state).name not in self.together:
            return (self.powers[state.power_index],)
        return self.team(state)

    def turn_name(self, turn: int) -> str:
        if 1 <= turn <= len(self.turn_names):
            return self.turn_names[turn - 1]
        return f"{self.turn_word} {turn}"

    def turn_words(self, turn: int, of_all: bool = True) -> str:
        """A turn as players read it: its name with its number ("Red (turn 1 of 8)"), or, for
        a turn named only by its number, the number once ("Turn 3 of 6", not "Turn 3 (turn 3)");
        without "of 8" where `of_all` is false (the log's heading of a turn)."""
        of = f" of {self.turns}" if self.turns and of_all else ""
        name = self.turn_name(turn)
        return f"{name}{of}" if name == f"{self.turn_word} {turn}" else f"{name} ({self.turn_word.lower()} {turn}{of})"

    def where(self, state: GameState) -> str:
        parts = [self.turn_words(state.turn)]
        team = self.team(state)
        if len(team) > 1 and self.phase(state).name in self.together:
            parts.append(f"the {' and '.join(team)} team's turn, together")
        elif len(team) > 1:
            parts.append(f"the {' and '.join(team)} team's turn, {self.power(state)} playing")
        elif self.per_power:
            parts.append(f"{self.power(state)}'s turn")
        parts.append(f"{self.phase(state).name.replace('_', ' ')}: {self.step(state).replace('_', ' ')}")
        return ", ".join(parts)

    # -- walking ----------------------------------------------------------------------------
    # The walkers are generators: the state's position changes between the boundaries they
    # yield, so whatever runs at a boundary sees the turn, phase and step it belongs to, and
    # a game that ends at a boundary stops right there.
    def begin(self, state: GameState) -> Iterator[Boundary]:
        """Put the state on the first step of the game, yielding the boundaries crossed."""
        # a scenario may start later than turn 1
        state.turn, state.power_index, state.phase_index, state.step_index = max(1, state.turn), 0, 0, 0
        yield ("turn_start", self._turn_args(state))
        if self.per_power:
            yield from self._team_start(state)
        yield from self._enter_phase(state, 0)

    def advance(self, state: GameState) -> Iterator[Boundary]:
        """Move past the current step, yielding the boundaries crossed, in order.

        Ends with ("game_end", {}) after the last step of the last turn."""
        phase = self.phases[state.phase_index]
        yield ("step_end", self._step_args(state))
        if state.step_index + 1 < len(phase.steps):
            state.step_index += 1
            yield ("step_start", self._step_args(state))
            return
        yield ("phase_end", self._phase_args(state))
        yield from self._enter_phase(state, self._following(state, state.phase_index))

    def _span(self, index: int) -> tuple[int, int]:
        return self.spans[index] if self.spans else (index, index)

    def _following(self, state: GameState, index: int) -> int:
        """The phase that comes after phase `index` as the power to play played it: the same
        phase for the next member of its team, or the next phase for the team's first (the
        whole team after a phase it played together)."""
        first, last = self._span(state.power_index)
        if self.phases[index].name not in self.together and state.power_index < last:
            state.power_index += 1
            return index
        state.power_index = first
        return index + 1

    def _team_start(self, state: GameState) -> Iterator[Boundary]:
        """Each member's turn begins (a power alone: its turn), the first left to play."""
        first, last = self._span(state.power_index)
        for i in range(first, last + 1):
            state.power_index = i
            yield ("power_start", self._turn_args(state))
        state.power_index = first

    def _team_end(self, state: GameState) -> Iterator[Boundary]:
        """Each member's turn ends, the last left as the power to play."""
        first, last = self._span(state.power_index)
        for i in range(first, last + 1):
            state.power_index = i
            yield ("power_end", self._turn_args(state))

    def _enter_phase(self, state: GameState, index: int) -> Iterator[Boundary]:
        while True:
            while index < len(self.phases):
                spec = self.phases[index]
                state.phase_index, state.step_index = index, 0
                if spec.when is None or spec.when(state):
                    yield ("phase_start", self._phase_args(state))
                    yield ("step_start", self._step_args(state))
                    return
                yield ("phase_skipped", self._phase_args(state))
                index = self._following(state, index)
            # past the last phase: the next power or team, or the next turn
            index = 0
            state.phase_index, state.step_index = len(self.phases) - 1, len(self.phases[-1].steps) - 1
            if self.per_power:
                yield from self._team_end(state)
                if state.power_index + 1 < len(self.powers):
                    state.power_index += 1
                    yield from self._team_start(state)
                    continue
            yield ("turn_end", self._turn_args(state))
            if self.turns is not None and state.turn >= self.turns:
                yield ("game_end", {})
                return
            state.turn += 1
            state.power_index = 0
            yield ("turn_start", self._turn_args(state))
            if self.per_power:
                yield from self._team_start(state)

    def _turn_args(self, state: GameState) -> dict[str, Any]:
        args: dict[str, Any] = {"turn": state.turn}
        if self.per_power:
            args["power"] = self.powers[state.power_index]
        return args

    def _phase_args(self, state: GameState) -> dict[str, Any]:
        return {"phase": self.phases[state.phase_index].name}

    def _step_args(self, state: GameState) -> dict[str, Any]:
        spec = self.phases[state.phase_index]
        return {"phase": spec.name, "step": spec.steps[state.step_index]}
