"""Shared fixtures: the skirmish test ruleset, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "tests" / "rulesets" / "skirmish"


@pytest.fixture(scope="session")
def skirmish():
    from engine import plugins

    return plugins.load(SKIRMISH, trust_code=True)    # its plugin.py is ours: trusted


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `slow` (long self-play runs) are skipped unless asked for: `pytest -m slow`."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run: `pytest -m slow` runs it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
