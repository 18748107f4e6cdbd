"""The 16 December 1944 scenario's places and files: the off-board areas, the reinforcement
charts and the set-up pools pieces stand in, the order of battle (`data/oob.json`), and the
scenario files the game starts from.

The starting position is data: `data/scenario.json` (engine/scenario.py's format), written
from the order of battle by scripts/build_bulge_scenario.py. Two options change it, each
with a file of its own beside it: `custom_setup` (the starting units wait in the set-up
pools) and `stacking_rulebook` (the same units packed under the rulebook's stacking).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulesets.bulge.mapdata import DATA

OOB_FILE = DATA / "oob.json"
SCENARIO_FILE = DATA / "scenario.json"
#: the options that choose another starting position, and the suffix of its file's name
VARIANTS = (("custom_setup", "custom-setup"), ("stacking_rulebook", "rulebook-stacking"))
#: the scenario file and its variants (part of the ruleset's identity)
SCENARIO_FILES = (SCENARIO_FILE, *(DATA / f"scenario-{suffix}.json" for _, suffix in VARIANTS))
CHARTS = ("Axis", "Northern", "Southern", "Western")
OFFBOARD = {"Axis": "offboard:Axis", "Allies": "offboard:Allies"}
#: where starting units wait under the Custom Setup optional rule
POOL = {"Axis": "setup:Axis", "Allies": "setup:Allies"}


def variant_file(path: Path, options: dict[str, Any]) -> Path:
    """The scenario file the options choose: `scenario-custom-setup.json` beside `path` for
    custom_setup, else `scenario-rulebook-stacking.json` for stacking_rulebook, else `path`
    (a scenario without such a file keeps its own)."""
    for option, suffix in VARIANTS:
        if options.get(option):
            other = path.with_name(f"{path.stem}-{suffix}{path.suffix}")
            if other.is_file():
                return other
    return path


def chart_space(chart: str, turn: int) -> str:
    return f"chart:{chart}:{turn}"


@lru_cache(maxsize=4096)
def parse_chart_space(space: str) -> tuple[str, int] | None:
    """(chart, turn) of a space `chart:NAME:TURN`, None for any other space (a pure function
    of the name, kept: the rules ask it of every piece each time they look for arrivals)."""
    if not space.startswith("chart:"):
        return None
    _, chart, turn = space.split(":")
    return chart, int(turn)


def side_of_chart(chart: str) -> str:
    return "Axis" if chart == "Axis" else "Allies"


@lru_cache(maxsize=1)
def load_oob(path: Path = OOB_FILE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))
