"""The scenario's facts for `wargame info bulge`: the board, towns and VP, the front line,
the pieces of each side on the board, off it and on each reinforcement chart, supply and
the map's fidelity."""

from __future__ import annotations

from typing import Any

from engine.state import GameState
from rulesets.bulge import scenario, terrain


def scenario_facts(logic: Any, state: GameState) -> dict[str, Any]:
    board = state.board
    hexes = [s for s in board.spaces.values()]
    towns = sorted(({"hex": s.id, "town": s.get("town"), "vp": int(s.get("vp") or 0), "country": s.get("country"),
                     "held_by": state.control.get(s.id), "historic_axis": bool(s.get("historic_axis"))}
                    for s in hexes if s.get("town")), key=lambda t: (-t["vp"], t["town"]))
    front = sorted({a for a, b, _ in board.links() if state.control.get(a) != state.control.get(b)
                    and state.control.get(a) and state.control.get(b)}
                   | {b for a, b, _ in board.links() if state.control.get(a) != state.control.get(b)
                      and state.control.get(a) and state.control.get(b)})

    def pieces(where: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in state.pieces_at(where):
            out[p.kind] = out.get(p.kind, 0) + 1
        return out

    on_board: dict[str, dict[str, int]] = {s: {} for s in terrain.SIDES}
    for p in state.pieces.values():
        if terrain.on_board(p.space):
            on_board[p.owner][p.kind] = on_board[p.owner].get(p.kind, 0) + 1
    charts: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for space in sorted({p.space for p in state.pieces.values() if p.space.startswith("chart:")}):
        chart, turn = scenario.parse_chart_space(space)  # type: ignore[misc]
        groups: dict[str, dict[str, int]] = {}
        for p in state.pieces_at(space):
            groups.setdefault(p.group, {})
            groups[p.group][p.kind] = groups[p.group].get(p.kind, 0) + 1
        charts.setdefault(chart, {})[turn] = [{"formation": g, **k} for g, k in groups.items()]
    meta = board.meta
    opts = logic.rules.options
    return {
        "fidelity": meta.get("fidelity", "approximate"),
        "map_source": meta.get("source", ""),
        "hexes": {"total": len(hexes), "playable": sum(1 for s in hexes if not s.get("partial")),
                  "axis_side": sum(1 for s in hexes if state.control.get(s.id) == "Axis"),
                  "allied_side": sum(1 for s in hexes if state.control.get(s.id) == "Allies")},
        "towns": towns,
        "vp": {"total": sum(t["vp"] for t in towns),
               "historic_axis": sum(t["vp"] for t in towns if t["historic_axis"]),
               "axis_now": logic.rules.procedure("axis_vp")(state), "to_win": opts["victory_vp"]},
        "front_line": front,
        "pieces_on_board": on_board,
        "off_board": {s: pieces(scenario.OFFBOARD[s]) for s in terrain.SIDES},
        "charts": charts,
        "supply": {"income": dict(opts["supply_income"]),
                   "on_board": {s: on_board[s].get("Supply", 0) for s in terrain.SIDES},
                   "off_board": {s: pieces(scenario.OFFBOARD[s]).get("Supply", 0) for s in terrain.SIDES}},
    }
