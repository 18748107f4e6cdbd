"""A stand-in for the skirmish test ruleset, for when its rules file cannot be compiled (the
rules language being unfinished): the same plugin and game logic, with the few things the
rules file provides (the turn sequence, the attack procedure, the hill rule) written here in
Python. The window tests use the real ruleset whenever it loads."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pluggy

from engine import hookspecs, plugins
from engine.ruleset import LoadedRuleset
from engine.sequence import PhaseSpec, TurnStructure
from engine.state import GameState

FOLDER = Path(__file__).resolve().parents[1] / "rulesets" / "skirmish"


class FakeRules:
    fingerprint = "fake-skirmish"

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = {"hit_on": 3, "win_vp": 3, **(options or {})}

    def handlers(self, name: str) -> list[Any]:
        return [self._hold_the_hill] if name == "phase_end" else []

    def procedure(self, name: str) -> Any:
        assert name == "attack", name
        return self._attack

    def _hold_the_hill(self, state: GameState, phase: str) -> None:
        if phase == "upkeep":
            holder = state.control.get("2,1", "")
            if holder:
                state.gain(holder, "vp", 1)

    def _attack(self, state: GameState, attackers: list[Any], defenders: list[Any]) -> int:
        dice = sum(2 if u.kind == "Tank" else 1 for u in attackers)
        hits = sum(1 for d in state.roll(dice, 6, "attack") if d <= self.options["hit_on"])
        killed = 0
        for u in defenders:
            if killed < hits:
                state.remove(u.id)
                state.emit("destroyed", owner=u.owner, kind=u.kind, space=u.space)
                killed += 1
        return killed


def load_fake() -> LoadedRuleset:
    info = plugins.read_manifest(FOLDER)
    spec = importlib.util.spec_from_file_location("fake_skirmish_plugin", FOLDER / "plugin.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(module)
    rules = FakeRules()
    structure = TurnStructure(
        phases=(PhaseSpec("combat", ("red_attack", "blue_attack")),
                PhaseSpec("movement", ("red_move", "blue_move")),
                PhaseSpec("upkeep", ("score",))),
        powers=("Red", "Blue"), turns=6)
    logic = module.SkirmishLogic(rules, info, structure)
    return LoadedRuleset(info=info, chain=(info,), plugins=pm, rules=rules, logic=logic,
                         options=dict(rules.options))
