"""Skirmish's Python: none of its rules (they are skirmish.rules, on map.json and
scenario.json), only the hooks, recorded in CALLS in the order they are called for the
engine's tests, and the ruleset's own scenario check."""

from __future__ import annotations

from typing import Any

from engine.hookspecs import hookimpl

CALLS: list[str] = []          # the hooks called, in order, for the tests to read


@hookimpl
def wargame_register(registry: Any, info: Any) -> None:
    CALLS.append("register")


@hookimpl
def wargame_check_scenario(state: Any, rules: Any, scenario: str) -> list[str]:
    CALLS.append("check_scenario")
    return [f"piece #{p.id} stands in `{p.space}`, which is not on the board"
            for p in state.pieces.values() if p.space not in state.board]


@hookimpl
def wargame_turn_start(state: Any, rules: Any, turn: int) -> None:
    CALLS.append(f"turn_start {turn}")


@hookimpl
def wargame_phase_start(state: Any, rules: Any, phase: str) -> None:
    CALLS.append(f"phase_start {phase}")
    state.emit("hook", name=f"phase_start {phase}", by="skirmish")


@hookimpl
def wargame_phase_end(state: Any, rules: Any, phase: str) -> None:
    CALLS.append(f"phase_end {phase}")


@hookimpl
def wargame_turn_end(state: Any, rules: Any, turn: int) -> None:
    CALLS.append(f"turn_end {turn}")


@hookimpl
def wargame_game_end(state: Any, rules: Any) -> None:
    CALLS.append("game_end")
