"""Every power of every AARHE scenario has its mobilization pool named: the units a power buys
wait there, and the window's tray and the log name the pool as players read it (the 1939 map's
Italy, France and China, and the 1942 Italy map's Italy, had none)."""

from __future__ import annotations

import pytest

from engine import plugins
from engine.game import Game


@pytest.fixture(scope="module")
def aarhe():  # type: ignore[no-untyped-def]
    return plugins.load("aarhe")


@pytest.mark.parametrize("scenario", ["italy-1942", "aarhe-1939"])
def test_each_power_with_units_has_a_named_pool(aarhe, scenario: str) -> None:
    game = Game(aarhe, scenario, seed=1)
    owners = {p.owner for p in game.state.pieces.values()}
    pools = aarhe.logic.areas(scenario)
    assert {"Italy"} <= owners
    missing = [p for p in owners if pools.get(f"pending:{p}") != f"{p} mobilization pool"]
    assert missing == []
