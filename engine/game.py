"""One game being played: the state, the actions so far, the event log and undo.

A game is its ruleset, scenario, options, seed and actions; everything else is derived, which
is what makes saves small and replays exact."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import flow
from engine.actions import Action, Decision, IllegalAction, normalise
from engine.ruleset import LoadedRuleset, Result
from engine.state import Event, GameState


class Game:
    def __init__(self, ruleset: LoadedRuleset, scenario: str | None = None, seed: int = 0) -> None:
        # a scenario's own options (its powers and their order) are part of its rules
        ruleset = ruleset.for_scenario(scenario)
        self.ruleset = ruleset
        self.scenario = ruleset.info.scenario(scenario).name
        self.seed = seed
        state = ruleset.logic.new_state(self.scenario, seed)
        problems = [p for ps in ruleset.plugins.hook.wargame_check_scenario(
            state=state, rules=ruleset.rules, scenario=self.scenario) if ps for p in ps]
        if problems:
            raise ScenarioError(self.scenario, problems)
        self.log: list[Event] = list(state.events)
        state.events.clear()
        self.actions: list[Action] = []
        self._decision = flow.start(ruleset, state)
        self.state = state
        self._drain()
        self._undo: list[tuple[GameState, Decision | None, int, int]] = []
        self.listeners: list[Callable[[Event], None]] = []

    # -- asking and answering -------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """What the engine asks now; None when the game is over."""
        return self._decision

    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> Result | None:
        return flow.result_of(self.state)

    def play(self, action: Action) -> list[Event]:
        """Validate and apply a player's action. Raises IllegalAction with the reason, leaving
        the game exactly as it was. Returns the events it caused."""
        action = normalise(action)
        new, decision = flow.apply(self.ruleset, self.state, action)
        events = list(new.events)
        new.events.clear()
        snapshot = (self.state, self._decision, len(self.actions), len(self.log))
        before = self._step_key()
        self.state, self._decision = new, decision
        self.actions.append(action)
        self.log.extend(events)
        if self._step_key() != before or any(kind == "roll" for kind, _ in events):
            self._undo.clear()       # no undo across a step, nor of anything the dice decided
        else:
            self._undo.append(snapshot)
        for listener in self.listeners:
            for e in events:
                listener(e)
        return events

    def can_undo(self, mine: Callable[[str], bool] | None = None) -> bool:
        """Whether `undo(mine)` would take something back: an action of the current step, not
        decided by dice, answered by a player for whom `mine(player)` is true (any player
        when `mine` is None)."""
        return any(mine is None or (d is not None and mine(d.player)) for _, d, _, _ in self._undo)

    def undo(self, mine: Callable[[str], bool] | None = None) -> int:
        """Take back the last action of the current step (not dice rolls) answered by a player
        for whom `mine(player)` is true, and every action after it (the computer's answers
        to what that action asked), so that the decision is again that player's own.
        `mine=None` takes back the very last action. Returns how many actions were taken
        back; raises IllegalAction (changing nothing) when there is none."""
        if not self.can_undo(mine):
            raise IllegalAction("there is nothing to undo in this step" if not self._undo else
                                "there is nothing of yours to undo in this step")
        taken = 0
        while True:
            state, decision, n_actions, n_log = self._undo.pop()
            taken += len(self.actions) - n_actions
            del self.actions[n_actions:]
            del self.log[n_log:]
            self.state, self._decision = state, decision
            if mine is None or (decision is not None and mine(decision.player)):
                break
        self.log.append(("undo", {"actions": taken}))
        for listener in self.listeners:
            listener(self.log[-1])
        return taken

    # -- telling -----------------------------------------------------------------------------------
    def status(self) -> str:
        return self.ruleset.logic.status(self.state)

    def facts(self) -> dict[str, Any]:
        return self.ruleset.logic.facts(self.state)

    @property
    def options(self) -> Mapping[str, Any]:
        return self.ruleset.options

    def _step_key(self) -> tuple[int, int, int, int]:
        s = self.state
        return (s.turn, s.power_index, s.phase_index, s.step_index)

    def _drain(self) -> None:
        self.log.extend(self.state.events)
        self.state.events.clear()


class ScenarioError(Exception):
    """A scenario that does not add up."""

    def __init__(self, scenario: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"scenario `{scenario}` does not add up:\n" + "\n".join(f"  - {p}" for p in problems))
