"""The 16 December 1944 scenario's files: the starting position (`data/scenario.json`,
written from the order of battle `data/oob.json` by scripts/build_bulge_scenario.py), the
files beside it that two options choose, and the reinforcement charts' spaces."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
MAP_FILE = DATA / "map.json"
OOB_FILE = DATA / "oob.json"
SCENARIO_FILE = DATA / "scenario.json"
#: the options that choose another starting position, and the suffix of its file's name:
#: custom_setup (the starting units wait in the set-up pools), stacking_rulebook (the same
#: units packed under the rulebook's stacking)
VARIANTS = (("custom_setup", "custom-setup"), ("stacking_rulebook", "rulebook-stacking"))
#: the scenario file and its variants (part of the ruleset's identity)
SCENARIO_FILES = (SCENARIO_FILE, *(DATA / f"scenario-{suffix}.json" for _, suffix in VARIANTS))


def variant_file(path: Path, options: dict[str, Any]) -> Path:
    """The scenario file the options choose: `scenario-custom-setup.json` beside `path` for
    custom_setup, else `scenario-rulebook-stacking.json` for stacking_rulebook, else `path`
    (a scenario without such a file keeps its own)."""
    for option, suffix in VARIANTS:
        other = path.with_name(f"{path.stem}-{suffix}{path.suffix}")
        if options.get(option) and other.is_file():
            return other
    return path


@lru_cache(maxsize=4096)
def chart_row(space: str) -> tuple[str, int]:
    """The reinforcement chart and turn of a chart space (`chart:NAME:TURN`), ("", 0) for any
    other (a pure function of the name, cached: the rules ask it of every piece each time they
    look for arrivals)."""
    if not space.startswith("chart:"):
        return "", 0
    _, chart, turn = space.split(":")
    return chart, int(turn)


@lru_cache(maxsize=1)
def load_oob() -> dict[str, Any]:
    return json.loads(OOB_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def armies() -> dict[str, str]:
    """The army (section of the board) of each formation of the order of battle that has one."""
    oob = load_oob()
    entries = [e for rows in (*oob["charts"].values(), *oob["setup"].values()) for e in rows]
    return {e["short"]: e["army"] for e in entries if e.get("army")}
