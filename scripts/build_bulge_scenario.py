#!/usr/bin/env python3
"""Build the Battle of the Bulge starting position from its order of battle.

Reads ``rulesets/bulge/data/oob.json`` (formations and the places they stood near on
16 December 1944), the committed place coordinates (``data/facts/places.csv`` and
``extra_points.csv``) and the board (``data/map.json``), and writes the engine's generic
scenario files (``wargame-scenario/1``, see engine/scenario.py):

    rulesets/bulge/data/scenario.json                    the historical placement
    rulesets/bulge/data/scenario-rulebook-stacking.json  the same, packed under the rulebook's
                                                         stacking (option stacking_rulebook)
    rulesets/bulge/data/scenario-custom-setup.json       the starting units in the players'
                                                         set-up pools (option custom_setup)

    python scripts/build_bulge_scenario.py            # write the three files
    python scripts/build_bulge_scenario.py --check    # exit 1 if one is not up to date

Placement: each piece goes to the nearest hex on its own side of the front line (for the
Axis, inside its army's section) that still has room under the stacking limit (the seed's
4 combat units a hex, or the rulebook's 12 units with 6 Infantry, 6 Tanks and 3 Artillery);
trucks go to the nearest such hex on a road, since they move only along roads. Supply
tokens on the board go near their place without regard to army sections. Off-board
pieces (trucks, air units, supply) wait in ``offboard:<side>``; reinforcements on
``chart:<chart>:<turn>``. Pieces are listed in the order they are placed, so the pieces'
ids in a game are the same every time. Deterministic.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from engine.board import Board  # noqa: E402
from engine.mapfile import load_map  # noqa: E402

DATA = ROOT / "rulesets" / "bulge" / "data"
OOB_FILE = DATA / "oob.json"
MAP_FILE = DATA / "map.json"
FACTS = DATA / "facts"
OUT = {
    "default": DATA / "scenario.json",
    "rulebook_stacking": DATA / "scenario-rulebook-stacking.json",
    "custom_setup": DATA / "scenario-custom-setup.json",
}

SIDES = ("Axis", "Allies")
COMBAT = ("Infantry", "Tank", "Artillery")
GROUND = (*COMBAT, "Truck", "Supply")
CHARTS = ("Axis", "Northern", "Southern", "Western")
OFFBOARD = {"Axis": "offboard:Axis", "Allies": "offboard:Allies"}
POOL = {"Axis": "setup:Axis", "Allies": "setup:Allies"}
#: the seed's stacking limit (option stacking_limit's default): combat units a hex
STACKING_LIMIT = 4
#: the rulebook's stacking (option stacking_rulebook): units a hex, and per type
RULEBOOK_UNITS = 12
RULEBOOK_TYPES = {"Infantry": 6, "Tank": 6, "Artillery": 3}

NAME = "ardennes-1944"
TITLE = "The Ardennes offensive, 16 December 1944"
DESCRIPTION = ("8 turns, Red to White. The Axis wins at once with 24 VP; the Allies win by holding to the end. "
               "The board is a designer's approximation from the historical record, not the printed map.")
VARIANT_NOTE = {
    "default": "Units stand where the order of battle places them, at most 4 combat units a hex.",
    "rulebook_stacking": "For the rulebook's stacking (stacking_rulebook): units placed as in scenario.json, "
                         "but packed up to 12 units a hex (6 Infantry, 6 Tanks, 3 Artillery).",
    "custom_setup": "For the Custom Setup optional rule (custom_setup): each side's starting units and supply "
                    "wait in its set-up pool (setup:Axis, setup:Allies) for the players to place them.",
}


def chart_space(chart: str, turn: int) -> str:
    return f"chart:{chart}:{turn}"


def side_of_chart(chart: str) -> str:
    return "Axis" if chart == "Axis" else "Allies"


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


def km(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot((a[0] - b[0]) * 111.0, (a[1] - b[1]) * 71.5)


class Placement:
    """The board, the front line and what has been placed so far."""

    def __init__(self, board: Board, variant: str) -> None:
        self.board = board
        self.variant = variant
        self.coords = place_coordinates()
        self.hexes = {s.id: (float(s.get("lat", 0.0)), float(s.get("lon", 0.0))) for s in board.spaces.values()
                      if not s.get("partial")}
        self.control = {sid: board.space(sid).get("control", "Allies") for sid in board.spaces if sid in self.hexes}
        partial = {sid for sid in board.spaces if sid not in self.hexes}
        self.roads = {sid: any(board.link(sid, n).get("road") and not board.link(sid, n).get("barrier")
                               and n not in partial for n in board.neighbours(sid)) for sid in board.spaces}
        self.edge = sorted((s.get("row", 0), s.get("army")) for s in board.spaces.values()
                           if s.get("army") and not s.get("partial"))
        self.here: dict[tuple[str, str], list[str]] = {}
        self.pieces: list[dict[str, Any]] = []

    def army_section(self, sid: str) -> str | None:
        """The Axis army section of a hex: that of the east-edge hex nearest its row."""
        if not self.edge:
            return None
        row = self.board.space(sid).get("row", 0)
        return min(self.edge, key=lambda e: (abs(e[0] - row), e[0]))[1]

    def where(self, names: list[str] | str) -> tuple[float, float]:
        names = [names] if isinstance(names, str) else names
        for n in names:
            if n in self.coords:
                return self.coords[n]
            sid = self.board.find(n)
            if sid:
                return self.hexes[sid]
        raise ValueError(f"oob.json: no coordinates for any of {names}")

    def candidates(self, side: str, army: str | None, near: tuple[float, float]) -> list[str]:
        out = [sid for sid in self.hexes if self.control.get(sid) == side
               and (army is None or self.army_section(sid) == army)]
        return sorted(out, key=lambda sid: (km(self.hexes[sid], near), sid))

    def room(self, sid: str, side: str, kind: str) -> bool:
        """May one more unit of `kind` stand in `sid` at the start?"""
        rulebook = self.variant == "rulebook_stacking"
        if kind not in COMBAT and not rulebook:
            return True
        pieces = [k for k in self.here.get((sid, side), ()) if k in GROUND]
        if rulebook:
            if kind == "Supply" and "Supply" in pieces:
                return True
            if kind in RULEBOOK_TYPES and pieces.count(kind) >= RULEBOOK_TYPES[kind]:
                return False
            return sum(1 for k in pieces if k != "Supply") + (1 if "Supply" in pieces else 0) < RULEBOOK_UNITS
        return sum(1 for k in pieces if k in COMBAT) < STACKING_LIMIT

    def add(self, kind: str, owner: str, space: str, group: str = "") -> None:
        self.here.setdefault((space, owner), []).append(kind)
        last = self.pieces[-1] if self.pieces else None
        if last and (last["kind"], last["owner"], last["space"], last.get("group", "")) == (kind, owner, space, group):
            last["count"] = last.get("count", 1) + 1
            return
        entry: dict[str, Any] = {"kind": kind, "owner": owner, "space": space}
        if group:
            entry["group"] = group
        self.pieces.append(entry)


def build(variant: str = "default", oob: dict | None = None, board: Board | None = None) -> dict:
    """The scenario file of one variant (`default`, `rulebook_stacking`, `custom_setup`)."""
    oob = oob if oob is not None else json.loads(OOB_FILE.read_text(encoding="utf-8"))
    board = board if board is not None else load_map(MAP_FILE)
    at = Placement(board, variant)
    pool = variant == "custom_setup"
    for side in SIDES:
        for entry in oob["setup"][side]:
            near = at.where(entry["near"])
            army = entry.get("army") if side == "Axis" else None
            spots = at.candidates(side, army, near) or at.candidates(side, None, near)
            for kind, n in entry["pieces"].items():
                for _ in range(n):
                    if pool:
                        at.add(kind, side, POOL[side], entry["short"])
                        continue
                    usable = spots if kind != "Truck" else [s for s in spots if at.roads[s]] or spots
                    spot = next((s for s in usable if at.room(s, side, kind)), None)
                    if spot is None:
                        raise ValueError(f"oob.json: no room for {entry['short']} near {entry['near']}")
                    at.add(kind, side, spot, entry["short"])
        for token in oob["supply_on_board"][side]:
            spots = at.candidates(side, None, at.where(token["near"]))
            for _ in range(token["tokens"]):
                if pool:
                    at.add("Supply", side, POOL[side])
                    continue
                spot = next((s for s in spots if at.room(s, side, "Supply")), None)
                if spot is None:
                    raise ValueError(f"oob.json: no room for {side} supply near {token['near']}")
                at.add("Supply", side, spot)
        for kind, n in oob["offboard"][side].items():
            kind = "Supply" if kind == "supply" else kind
            for _ in range(n):
                at.add(kind, side, OFFBOARD[side])
    charts = []
    for chart in CHARTS:
        for entry in oob["charts"].get(chart, ()):
            space = chart_space(chart, int(entry["turn"]))
            if space not in charts:
                charts.append(space)
            for kind, n in entry["pieces"].items():
                for _ in range(n):
                    at.add(kind, side_of_chart(chart), space, entry["short"])
    areas = [{"id": OFFBOARD[s], "name": f"{s} off-board area"} for s in SIDES]
    if pool:
        areas += [{"id": POOL[s], "name": f"{s} set-up pool"} for s in SIDES]
    areas += [{"id": c, "name": f"{c.split(':')[1]} reinforcement chart, turn {c.split(':')[2]}"}
              for c in sorted(charts, key=lambda c: (CHARTS.index(c.split(":")[1]), int(c.split(":")[2])))]
    return {
        "format": "wargame-scenario/1",
        "name": NAME,
        "title": TITLE,
        "description": DESCRIPTION + " " + VARIANT_NOTE[variant],
        "fidelity": "approximate",
        "map": MAP_FILE.name,
        "start": {"turn": 1},
        "control": at.control,
        "areas": areas,
        "pieces": at.pieces,
    }


def dumps(doc: dict) -> str:
    """Deterministic JSON: one piece or area per line, control eight hexes a line."""
    out = ["{"]
    keys = list(doc)
    for i, k in enumerate(keys):
        v = doc[k]
        comma = "," if i < len(keys) - 1 else ""
        if k in ("pieces", "areas") and isinstance(v, list):
            out.append(f"  {json.dumps(k)}: [")
            out += ["    " + json.dumps(item, ensure_ascii=False) + ("," if j < len(v) - 1 else "")
                    for j, item in enumerate(v)]
            out.append("  ]" + comma)
        elif k == "control" and isinstance(v, dict):
            items = [f"{json.dumps(sid)}: {json.dumps(side)}" for sid, side in v.items()]
            rows = [", ".join(items[j:j + 8]) for j in range(0, len(items), 8)]
            out.append(f"  {json.dumps(k)}: {{")
            out += ["    " + row + ("," if j < len(rows) - 1 else "") for j, row in enumerate(rows)]
            out.append("  }" + comma)
        else:
            out.append(f"  {json.dumps(k)}: " + json.dumps(v, ensure_ascii=False) + comma)
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if a scenario file is stale")
    args = ap.parse_args(argv)
    oob = json.loads(OOB_FILE.read_text(encoding="utf-8"))
    board = load_map(MAP_FILE)
    stale = []
    for variant, path in OUT.items():
        text = dumps(build(variant, oob, board))
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    for path in stale:
        print(f"{path} is out of date; run scripts/build_bulge_scenario.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
