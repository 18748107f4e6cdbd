"""Battle of the Bulge as the engine drives it: every step is in the rules files (RulesLogic
plays them); what stays here picks the scenario file the options call for and words the
game for players (prompts, status line, map labels, narration)."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from engine.rules_logic import RulesLogic
from engine.state import GameState
from rulesets.bulge import mapdata, scenario, terrain
from rulesets.bulge.common import hex_name
from rulesets.bulge.terrain import COMBAT

#: what the decisions of the steps declared in the rules files say to their player
PROMPTS = {
    "setup": "Custom setup: place your starting units (combat units first cover the front with their zone of control)",
    "reinforce": "Bring on reinforcements (free) and trucks from off the board",
    "stacking": "A hex is over the stacking limit: the opponent moves units out of it, one hex by the retreat "
                "rules; if none can go, the owner destroys units until it is within the limit",
}


class BulgeLogic(RulesLogic):
    """Bulge's rules are its rules files; this class only sets up and tells."""

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

    def scenario_file(self, info: Any) -> Any:
        return scenario.variant_file(info.path, self.rules.options) if info.path is not None else None

    # -- the steps ------------------------------------------------------------------------------------
    def prompt(self, state: GameState, spec: Any) -> str:
        return PROMPTS.get(spec.name.split("_", 1)[-1], "") or super().prompt(state, spec)

    def on_boundary(self, state: GameState, name: str, args: dict[str, Any]) -> None:
        super().on_boundary(state, name, args)
        if state.result is not None and not state.result.get("score"):
            state.result["score"] = self.score(state)

    # -- the end ---------------------------------------------------------------------------------------
    # The rules end the game (rules/upkeep.rules: victory); this adds the score to their result.
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
        if kind == "reinforce":
            return f"{d['owner']} {d['kind']} ({d['group']}) arrives at {d['to']}"
        return super().narrate(event)

    def facts(self, state: GameState) -> dict[str, Any]:
        from rulesets.bulge.facts import scenario_facts

        return scenario_facts(self, state)
