"""Setting up the 16 December 1944 scenario from `data/oob.json` on the generated board.

The order of battle names formations and the places they stood near; this module turns that
into pieces on hexes: each piece goes to the nearest hex on its own side of the front line
(for the Axis, inside its army's section) that still has room under the stacking limit (trucks: the nearest hex on a road, since
they move only along roads).
"""

from __future__ import annotations

import csv
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.board import Board
from engine.state import GameState
from rulesets.bulge.mapdata import DATA

OOB_FILE = DATA / "oob.json"
FACTS = DATA / "facts"
COMBAT = ("Infantry", "Tank", "Artillery")
CHARTS = ("Axis", "Northern", "Southern", "Western")
OFFBOARD = {"Axis": "offboard:Axis", "Allies": "offboard:Allies"}
#: where starting units wait under the Custom Setup optional rule
POOL = {"Axis": "setup:Axis", "Allies": "setup:Allies"}


class ScenarioDataError(ValueError):
    pass


def chart_space(chart: str, turn: int) -> str:
    return f"chart:{chart}:{turn}"


def parse_chart_space(space: str) -> tuple[str, int] | None:
    if not space.startswith("chart:"):
        return None
    _, chart, turn = space.split(":")
    return chart, int(turn)


def side_of_chart(chart: str) -> str:
    return "Axis" if chart == "Axis" else "Allies"


@lru_cache(maxsize=1)
def load_oob(path: Path = OOB_FILE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def place_coordinates() -> dict[str, tuple[float, float]]:
    """lat/lon of every named place in the committed fact tables."""
    out: dict[str, tuple[float, float]] = {}
    for name in ("places.csv", "extra_points.csv"):
        path = FACTS / name
        if not path.is_file():
            continue
        with path.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                try:
                    out.setdefault(row["name"], (float(row["lat"]), float(row["lon"])))
                except (KeyError, ValueError):
                    continue
    return out


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot((a[0] - b[0]) * 111.0, (a[1] - b[1]) * 71.5)


def army_section(board: Board, sid: str) -> str | None:
    """The Axis army section of a hex: that of the east-edge hex nearest its row."""
    edge = _edge_sections(board)
    if not edge:
        return None
    row = board.space(sid).get("row", 0)
    return min(edge, key=lambda e: (abs(e[0] - row), e[0]))[1]


@lru_cache(maxsize=4)
def _edge_sections(board: Board) -> tuple[tuple[int, str], ...]:
    return tuple(sorted((s.get("row", 0), s.get("army")) for s in board.spaces.values()
                        if s.get("army") and not s.get("partial")))


def setup(state: GameState, options: dict[str, Any]) -> None:
    """Put the order of battle on the board, the charts and the off-board areas."""
    oob = load_oob()
    board = state.board
    coords = place_coordinates()
    hexes = {s.id: (float(s.get("lat", 0.0)), float(s.get("lon", 0.0))) for s in board.spaces.values()
             if not s.get("partial")}
    for sid in board.spaces:
        if sid in hexes:
            state.control[sid] = board.space(sid).get("control", "Allies")

    def where(names: list[str] | str) -> tuple[float, float]:
        names = [names] if isinstance(names, str) else names
        for n in names:
            if n in coords:
                return coords[n]
            sid = board.find(n)
            if sid:
                return hexes[sid]
        raise ScenarioDataError(f"oob.json: no coordinates for any of {names}")

    def candidates(side: str, army: str | None, near: tuple[float, float]) -> list[str]:
        out = [sid for sid in hexes if state.control.get(sid) == side
               and (army is None or army_section(board, sid) == army)]
        return sorted(out, key=lambda sid: (_km(hexes[sid], near), sid))

    from rulesets.bulge.terrain import facts, stacking_room

    for side in ("Axis", "Allies"):
        for entry in oob["setup"][side]:
            near = where(entry["near"])
            army = entry.get("army") if side == "Axis" else None
            spots = candidates(side, army, near) or candidates(side, None, near)
            for kind, n in entry["pieces"].items():
                for _ in range(n):
                    if options.get("custom_setup"):
                        state.add_piece(kind, side, POOL[side], group=entry["short"])
                        continue
                    usable = spots if kind != "Truck" else [s for s in spots if facts(state).roads[s]] or spots
                    spot = next((s for s in usable if stacking_room(state, s, side, kind, options)), None)
                    if spot is None:
                        raise ScenarioDataError(f"no room for {entry['short']} near {entry['near']}")
                    state.add_piece(kind, side, spot, group=entry["short"])
        for token in oob["supply_on_board"][side]:
            spots = candidates(side, None, where(token["near"]))
            for _ in range(token["tokens"]):
                if options.get("custom_setup"):
                    state.add_piece("Supply", side, POOL[side])
                    continue
                spot = next(s for s in spots if stacking_room(state, s, side, "Supply", options))
                state.add_piece("Supply", side, spot)
        for kind, n in oob["offboard"][side].items():
            kind = "Supply" if kind == "supply" else kind
            for _ in range(n):
                state.add_piece(kind, side, OFFBOARD[side])
    for chart in CHARTS:
        for entry in oob["charts"].get(chart, ()):
            for kind, n in entry["pieces"].items():
                for _ in range(n):
                    state.add_piece(kind, side_of_chart(chart), chart_space(chart, int(entry["turn"])),
                                    group=entry["short"])
