"""Battle of the Bulge as the engine drives it: which module answers which step, what
happens by itself at the boundaries, when the game is over, and how it is shown."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.rules_logic import RulesLogic
from engine.ruleset import Result
from engine.state import GameState
from rulesets.bulge import mapdata, movement, scenario, setup, terrain, upkeep
from rulesets.bulge.common import hex_name, set_flag
from rulesets.bulge.terrain import COMBAT

TURN_MARKS = frozenset(("active", "blitz", "moved", "blitzed", "road_only", "entered", "stopped",
                        "has_moved", "paused"))


class BulgeLogic(RulesLogic):
    """Steps declared in the rules files are played by RulesLogic; the steps still written in
    Python are dispatched here (host_decision / host_apply) until they move to rules files."""

    # -- setting up ---------------------------------------------------------------------------------
    def new_state(self, scenario_name: str, seed: int) -> GameState:
        """The scenario's file (data/scenario.json), set up by the generic RulesLogic; the
        custom_setup and stacking_rulebook options choose the file beside it that holds their
        starting position (scenario.variant_file)."""
        info = self.info.scenario(scenario_name)
        path = scenario.variant_file(info.path, self.rules.options) if info.path is not None else None
        if path == info.path:
            return super().new_state(scenario_name, seed)
        chosen = copy.copy(self)
        chosen.info = replace(self.info, scenarios=(replace(info, path=path),))
        return super(BulgeLogic, chosen).new_state(scenario_name, seed)

    # -- the steps ------------------------------------------------------------------------------------
    def host_decision(self, state: GameState) -> Decision | None:
        step = self.structure.step(state)
        if step.endswith("_setup"):
            return setup.decide(self, state, step)
        if step.endswith("trucks_home"):
            return movement.decide_trucks_home(self, state, step)
        if step.endswith("activation"):
            return movement.decide_activation(self, state, step)
        if step.endswith("_move"):
            return movement.decide_move(self, state, step)
        if step.endswith("reinforce"):
            return movement.decide_reinforce(self, state, step)
        if step == "stacking":
            return upkeep.decide_stacking(self, state)
        return None

    def host_apply(self, state: GameState, action: Action) -> None:
        step = self.structure.step(state)
        if step.endswith("_setup"):
            return setup.apply(self, state, step, action)
        if step.endswith("trucks_home"):
            return movement.apply_trucks_home(self, state, step, action)
        if step.endswith("activation"):
            if action.kind == "move":
                raise IllegalAction("all supply is paid before any unit moves: activate hexes, then say `done`")
            return movement.apply_activation(self, state, step, action)
        if step.endswith("_move"):
            if action.kind in ("attack", "attack_from"):
                raise IllegalAction("attacks happen in the ground combat phase")
            return movement.apply_move(self, state, step, action)
        if step.endswith("reinforce"):
            return movement.apply_reinforce(self, state, step, action)
        if step == "stacking":
            return upkeep.apply_stacking(self, state, action)
        raise IllegalAction(f"nothing is asked during {step.replace('_', ' ')}")

    def on_boundary(self, state: GameState, name: str, args: dict[str, Any]) -> None:
        super().on_boundary(state, name, args)
        if name == "turn_start":
            self._start_turn(state)
        elif name == "step_start":
            step = args["step"]
            if step == "commandeer":
                upkeep.commandeer(state)
        elif name == "step_end":
            step = args["step"]
            if step.endswith("unload"):
                movement.unload(state, movement.side_of_step(step))

    def _start_turn(self, state: GameState) -> None:
        for p in list(state.pieces.values()):
            if p.status & TURN_MARKS:
                state.update(p.id, status=p.status - TURN_MARKS)
        for key in ("done_steps", "blitz_groups"):
            set_flag(state, key, frozenset())
        # trucks on the charts join the off-board area on their turn
        for p in list(state.pieces.values()):
            where = scenario.parse_chart_space(p.space)
            if where and p.kind == "Truck" and where[1] <= state.turn:
                state.move(p.id, scenario.OFFBOARD[p.owner])

    # -- the end ---------------------------------------------------------------------------------------
    def result(self, state: GameState) -> Result | None:
        """The victory conditions are in rules/upkeep.rules; this only words them."""
        need = self.rules.options["victory_vp"]
        vp = state.resource("Axis", "vp")
        if self.rules.procedure("axis_has_won")(state):
            return Result("Axis", f"the Axis holds {vp} VP (needs {need})", self.score(state))
        if state.resource("Allies", "turns_held"):
            return Result("Allies", f"the Allies held: the Axis has {vp} VP at the end of turn {state.turn} "
                                    f"(needs {need})", self.score(state))
        return None

    def score(self, state: GameState) -> dict[str, Any]:
        return {"Axis VP": state.resource("Axis", "vp"), "turn": state.turn}

    # -- telling -----------------------------------------------------------------------------------------
    def status(self, state: GameState) -> str:
        supply = {s: sum(1 for p in state.pieces_of(s) if p.kind == "Supply" and terrain.on_board(p.space))
                  for s in terrain.SIDES}
        off = {s: sum(1 for p in state.pieces_at(scenario.OFFBOARD[s]) if p.kind == "Supply") for s in terrain.SIDES}
        return (f"{self.structure.where(state)} | Axis VP {state.resource('Axis', 'vp')}/"
                f"{self.rules.options['victory_vp']} | supply on board: Axis {supply['Axis']}, Allies "
                f"{supply['Allies']}; off board: Axis {off['Axis']}, Allies {off['Allies']}")

    def space_label(self, state: GameState, space: str) -> str:
        sp = state.board.space(space)
        if sp.get("partial"):
            return ""
        units = [p for p in state.pieces_at(space) if p.kind in COMBAT]
        owner = state.control.get(space, "")
        if units:
            side = units[0].owner
            return ("X" if side == "Axis" else "U") + str(len(units))
        mark = "x" if owner == "Axis" else "."
        if sp.get("town"):
            mark = "*" if owner == "Axis" else "o"
        return mark

    def map_legend(self) -> str:
        return ("X3 = 3 Axis combat units, U2 = 2 Allied; * Axis-held town, o Allied town, "
                "x Axis side of the front, . Allied side; blank = partial hex")

    def describe_space(self, state: GameState, space: str) -> str:
        sp = state.board.space(space)
        text = hex_name(state, space)
        facts = []
        if sp.get("vp"):
            facts.append(f"{sp.get('vp')} VP")
        if sp.get("partial"):
            facts.append("partial hex: cannot be entered")
        held = state.control.get(space)
        if held:
            facts.append(f"{held} side of the front")
        pieces = state.pieces_at(space)
        for side in terrain.SIDES:
            mine = [p for p in pieces if p.owner == side]
            if mine:
                facts.append(f"{side}: " + ", ".join(
                    f"{sum(1 for p in mine if p.kind == k)} {k}" for k in sorted({p.kind for p in mine})))
        for n in state.board.neighbours(space):
            link = state.board.link(space, n)
            if link.get("barrier"):
                facts.append(f"river barrier ({link['river']}) toward {hex_name(state, n)}")
        return text + (": " + "; ".join(facts) if facts else "")

    def _name(self, sid: str) -> str:
        board, _ = mapdata.load_map()
        town = board.space(sid).get("town") if sid in board else None
        return f"{town} ({sid})" if town else sid

    def narrate(self, event: tuple[str, dict[str, Any]]) -> str | None:
        kind, d = event
        d = {k: (self._name(v) if k in ("src", "to", "target", "at", "space", "hex") and isinstance(v, str)
                 and v[:1].isdigit() else v) for k, v in d.items()}
        if kind == "move":
            return None
        if kind == "pay":
            return f"{d['side']} pays {d['amount']} supply for {d['what']}"
        if kind == "captured":
            return f"{d['by']} captures an enemy {d['kind']} in {d['at']}"
        if kind == "reinforce":
            return f"{d['owner']} {d['kind']} ({d['group']}) arrives at {d['to']}"
        return super().narrate(event)

    def facts(self, state: GameState) -> dict[str, Any]:
        from rulesets.bulge.facts import scenario_facts

        return scenario_facts(self, state)
