"""The house rule's own hook, to show that an extending ruleset's hooks run after its base's."""

from typing import Any

from engine.hookspecs import hookimpl

CALLS: list[str] = []


@hookimpl
def wargame_phase_start(state: Any, rules: Any, phase: str) -> None:
    CALLS.append(f"house phase_start {phase}")
    state.emit("hook", name=f"phase_start {phase}", by="skirmish-house")
