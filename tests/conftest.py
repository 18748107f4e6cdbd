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
