"""Battle of the Bulge as the engine drives it: every step is in the rules files (RulesLogic
plays them); what stays here picks the scenario file the options call for, and hands the
players' view to the rules (rules/views.rules) or to the board (`wargame info` facts)."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from typing import Any

from engine.rules_logic import RulesLogic
from engine.state import GameState
from rulesets.bulge import scenario

#: what the decisions of the steps declared in the rules files say to their player
PROMPTS = {
    "setup": "Custom setup: place your starting units (combat units first cover the front with their zone of control)",
    "reinforce": "Bring on reinforcements (free) and trucks from off the board",
    "stacking": "A hex is over the stacking limit: the opponent moves units out of it, one hex by the retreat "
                "rules; if none can go, the owner destroys units until it is within the limit",
}


class BulgeLogic(RulesLogic):
    """Bulge's rules are its rules files; this class only sets up and tells."""

    def new_state(self, scenario_name: str, seed: int) -> GameState:
        """The scenario's file, or the file beside it that the custom_setup and
        stacking_rulebook options choose (scenario.variant_file)."""
        info = self.info.scenario(scenario_name)
        path = scenario.variant_file(info.path, self.rules.options) if info.path is not None else None
        if path == info.path:
            return super().new_state(scenario_name, seed)
        chosen = copy.copy(self)
        chosen.info = replace(self.info, scenarios=(replace(info, path=path),))
        return super(BulgeLogic, chosen).new_state(scenario_name, seed)

    def scenario_file(self, info: Any) -> Any:
        return scenario.variant_file(info.path, self.rules.options) if info.path is not None else None

    def prompt(self, state: GameState, spec: Any) -> str:
        return PROMPTS.get(spec.name.split("_", 1)[-1], "") or super().prompt(state, spec)

    def status(self, state: GameState) -> str:
        return f"{self.structure.where(state)} | {self.rules.procedure('status_line')(state)}"

    def space_label(self, state: GameState, space: str) -> str:
        return str(self.rules.procedure("map_label")(state, space))

    def map_legend(self) -> str:
        return ("X3 = 3 Axis combat units, U2 = 2 Allied; * Axis-held town, o Allied town, "
                "x Axis side of the front, . Allied side; blank = partial hex")

    def describe_space(self, state: GameState, space: str) -> str:
        return str(self.rules.procedure("describe")(state, space))

    def facts(self, state: GameState) -> dict[str, Any]:
        """The scenario for `wargame info bulge`: the board, towns and VP, the front line, the
        pieces on the board, off it and on each reinforcement chart, and supply."""
        board, control, proc, sides = state.board, state.control, self.rules.procedure, self.info.sides
        hexes = list(board.spaces.values())
        towns = sorted(({"hex": s.id, "town": s.get("town"), "vp": int(s.get("vp") or 0), "country": s.get("country"),
                         "held_by": control.get(s.id), "historic_axis": bool(s.get("historic_axis"))}
                        for s in hexes if s.get("town")), key=lambda t: (-t["vp"], t["town"]))
        front = {h for a, b, _ in board.links() if control.get(a) and control.get(b) and control[a] != control[b]
                 for h in (a, b)}
        charts: dict[str, dict[int, list[dict[str, Any]]]] = {}
        for space in sorted({p.space for p in state.pieces.values() if scenario.chart_row(p.space)[0]}):
            chart, turn = scenario.chart_row(space)
            groups: dict[str, Counter[str]] = {}
            for p in state.pieces_at(space):
                groups.setdefault(p.group, Counter())[p.kind] += 1
            charts.setdefault(chart, {})[turn] = [{"formation": g, **k} for g, k in groups.items()]
        opts = self.rules.options
        return {
            "fidelity": board.meta.get("fidelity", "approximate"),
            "map_source": board.meta.get("source", ""),
            "hexes": {"total": len(hexes), "playable": sum(1 for s in hexes if not s.get("partial")),
                      "axis_side": sum(1 for s in hexes if control.get(s.id) == "Axis"),
                      "allied_side": sum(1 for s in hexes if control.get(s.id) == "Allies")},
            "towns": towns,
            "vp": {"total": sum(t["vp"] for t in towns),
                   "historic_axis": sum(t["vp"] for t in towns if t["historic_axis"]),
                   "axis_now": proc("axis_vp")(state), "to_win": opts["victory_vp"]},
            "front_line": sorted(front),
            "pieces_on_board": {s: dict(Counter(p.kind for p in state.pieces_of(s) if p.space in board)) for s in sides},
            "off_board": {s: dict(Counter(p.kind for p in state.pieces_at(proc("offboard")(state, s)))) for s in sides},
            "charts": charts,
            "supply": {"income": dict(opts["supply_income"]),
                       "on_board": {s: proc("supply_on_board")(state, s) for s in sides},
                       "off_board": {s: proc("supply_off_board")(state, s) for s in sides}},
        }
