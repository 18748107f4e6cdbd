"""Germany's National Advantages of Revised (rulesets/aarhe/lhtr/advantages_germany.rules),
each an option, played through the rules: U-Boat Interdiction (as the UK and the US collect
income, each loses 1 IPC for each German submarine on the board)."""

from __future__ import annotations

import pytest

from clients import cli
from tests.aarhe.play import new as new_aarhe
from tests.lhtr.play import Play


def german_subs(g: Play, zones: dict[str, int]) -> None:
    """Germany's submarines are exactly `zones` (sea zone: how many)."""
    for p in list(g.state.pieces.values()):
        if p.owner == "Germany" and p.kind == "Submarine":
            g.state.remove(p.id)
    for zone, n in zones.items():
        g.add("Submarine", "Germany", zone, n)


def collect(g: Play, power: str, then: str, turn: int = 1) -> tuple[int, int]:
    """From `power`'s purchase (buying nothing, fighting nothing) to the next power `then`'s
    purchase, LHTR's collect income ending the turn between: what the power would hold after
    collecting, and what it holds."""
    g.walk_to(power, "purchase", turn=1)
    before, income = g.ipc(power), g.proc("income", power)
    g.walk_to(then, "purchase", turn=turn)
    return before + income, g.ipc(power)


@pytest.mark.parametrize("on", [True, False])
def test_the_uk_loses_an_ipc_of_its_income_for_each_german_submarine(on: bool) -> None:
    g = Play.new(uboat_interdiction=on)
    g.walk_to("UK", "purchase", turn=1)
    german_subs(g, {"SZ 7": 2, "SZ 33": 1})     # one far from Britain counts as well
    collected, now = collect(g, "UK", "Japan")
    assert now == collected - (3 if on else 0)


def test_the_us_loses_them_too_and_the_other_powers_nothing() -> None:
    g = Play.new(uboat_interdiction=True)
    german_subs(g, {"SZ 7": 2})
    collected, now = collect(g, "USSR", "Germany")
    assert now == collected                    # the USSR's income is untouched
    collected, now = collect(g, "Germany", "UK")
    assert now == collected
    collected, now = collect(g, "US", "USSR", turn=2)
    assert now == collected - 2


def test_the_interdiction_cost_is_an_option() -> None:
    g = Play.new(uboat_interdiction=True, interdiction_ipcs=2)
    german_subs(g, {"SZ 7": 2})
    collected, now = collect(g, "UK", "Japan")
    assert now == collected - 4


def test_a_power_that_collects_nothing_loses_nothing() -> None:
    g = Play.new(uboat_interdiction=True)
    g.walk_to("UK", "purchase", turn=1)
    german_subs(g, {"SZ 7": 2})
    g.hold("United Kingdom", "Germany")        # the enemy holds the UK's capital
    before = g.ipc("UK")
    g.walk_to("Japan", "purchase", turn=1)
    assert g.ipc("UK") == before


def test_no_more_is_lost_than_was_collected() -> None:
    g = Play.new(uboat_interdiction=True, interdiction_ipcs=5)
    german_subs(g, {"SZ 7": 20})               # 100 IPCs of interdiction
    g.walk_to("UK", "purchase", turn=1)
    g.set_ipc("UK", 7)
    g.walk_to("Japan", "purchase", turn=1)
    assert g.ipc("UK") == 7


@pytest.mark.parametrize("on", [True, False])
def test_aarhe_keeps_u_boat_interdiction_as_its_collect_income_opens_the_turn(on: bool) -> None:
    g = new_aarhe(uboat_interdiction=on)
    german_subs(g, {"SZ 7": 2})
    g.walk_to("Germany", "purchase", turn=1)
    g.walk_to("UK", "purchase", turn=1)        # the UK has just collected
    lost = [e for e in g.log if e[0] == "pay" and e[1]["owner"] == "UK"]
    assert [e[1]["amount"] for e in lost] == ([2] if on else [])


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
def test_info_lists_u_boat_interdiction_with_its_source(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", ruleset]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in ("uboat_interdiction", "interdiction_ipcs", "interdicted_powers"):
        line = next((x for x in lines if x.strip().startswith(name + ":")), None)
        assert line is not None, name
        assert "source: " in line and "reconstructed" in line, line


def test_a_game_with_u_boat_interdiction_plays_with_the_computer_players(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", "lhtr", "--no-gui", "--ai", "Axis=heuristic", "--ai", "Allies=random", "--max-turns", "1",
                     "--seed", "2", "--option", "uboat_interdiction=true", "--log"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "U-Boat Interdiction: UK loses" in out and "U-Boat Interdiction: US loses" in out
