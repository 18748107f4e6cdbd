"""Shared fixtures: the skirmish test ruleset, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "tests" / "rulesets" / "skirmish"


def scenario_mod(folder: Path, base: str, scenario: dict[str, object], title: str = "A skirmish") -> Path:
    """A mod folder over the game `base` (an example's name) that adds one scenario and no
    rules: the way a test sets out a position of a rulebook example on the game's own map.
    `scenario` is the scenario file's content; its `name` names the scenario."""
    import json

    name = str(scenario["name"])
    folder.mkdir(parents=True)
    (folder / "ruleset.json").write_text(json.dumps({
        "name": folder.name, "extends": base, "rules": ["none.rules"],
        "scenarios": [{"name": name, "title": title, "file": f"{name}.json"}]}))
    (folder / "none.rules").write_text(f"extends {base}\n")
    (folder / f"{name}.json").write_text(json.dumps(scenario))
    return folder


#: a line of seven fields with a runner at either end, for small games written in a test
#: (the search player's tests: a race to a flag, a race to the other end)
LINE_MAP = {"format": "wargame-map/1", "name": "Line", "fidelity": "exact",
            "spaces": [{"id": f"f{i}", "name": f"Field {i}"} for i in range(1, 8)],
            "links": [{"a": f"f{i}", "b": f"f{i + 1}"} for i in range(1, 7)]}
LINE_SCENARIO = {"format": "wargame-scenario/1", "name": "line", "title": "The line", "map": "map.json",
                 "control": {}, "pieces": [{"kind": "Runner", "owner": "Blue", "space": "f1"},
                                           {"kind": "Runner", "owner": "Red", "space": "f7"}]}


@pytest.fixture(scope="session")
def skirmish():
    from engine import plugins

    return plugins.load(SKIRMISH, trust_code=True)    # its plugin.py is ours: trusted


def pytest_configure(config: pytest.Config) -> None:
    """The parsed rules files the suite's runs keep (dsl.parse_cache) go to a folder of its
    own, removed at the end, not to the user's cache: the commands the tests start share it."""
    import os
    import tempfile

    config._wargame_cache = tempfile.mkdtemp(prefix="wargame-parsed-")  # type: ignore[attr-defined]
    os.environ["WARGAME_CACHE_DIR"] = config._wargame_cache  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    folder = getattr(config, "_wargame_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `slow` (long self-play runs) are skipped unless asked for: `pytest -m slow`."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run: `pytest -m slow` runs it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


def random_start(rs, seed: int):
    """A new game of the ruleset's first scenario, dice seeded `seed`: (a `random.Random(seed)`
    to draw its answers with, the state, its first decision)."""
    import random

    from engine import flow

    state = rs.logic.new_state(rs.info.scenario(None).name, seed)
    return random.Random(seed), state, flow.start(rs, state)
