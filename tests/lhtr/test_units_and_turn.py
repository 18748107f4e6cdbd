"""LHTR: the unit table, artillery support, and the turn: five powers in order, each with
its phases (RULES.md §A.1-A.3)."""

from __future__ import annotations

import pytest

from tests.lhtr.play import Play, load

UNITS = {  # cost, attack, defence, move (RULES.md §A.3)
    "Infantry": (3, 1, 2, 1),
    "Artillery": (4, 2, 2, 1),
    "Tank": (5, 3, 3, 2),
    "Fighter": (10, 3, 4, 4),
    "Bomber": (15, 4, 1, 6),
    "Battleship": (24, 4, 4, 2),
    "AircraftCarrier": (16, 1, 3, 2),
    "Destroyer": (12, 3, 3, 2),
    "Transport": (8, 0, 1, 2),
    "Submarine": (8, 2, 2, 2),
    "AAGun": (5, 0, 0, 1),
    "IndustrialComplex": (15, 0, 0, 0),
}


def test_the_unit_table() -> None:
    units = load().rules.units
    assert set(units) == set(UNITS)
    for name, (cost, att, dfn, mv) in UNITS.items():
        u = units[name]
        assert (u.cost, u.attack, u.defence, u.move) == (cost, att, dfn, mv), name


def test_abilities_are_stats_and_tags() -> None:
    u = load().rules.units
    assert u["Battleship"].hits_to_kill == 2 and u["Battleship"].bombard == 4
    assert all(u[k].hits_to_kill == 1 for k in UNITS if k != "Battleship")
    assert u["AircraftCarrier"].carrier_capacity == 2
    assert u["Transport"].transport_capacity == 5 and "carries_land" in u["Transport"].tags
    assert (u["Infantry"].transport_size, u["Artillery"].transport_size, u["Tank"].transport_size,
            u["AAGun"].transport_size) == (2, 3, 3, 3)
    assert u["Fighter"].transport_size == 0 and u["IndustrialComplex"].transport_size == 0
    assert {"first_strike", "submerges", "sea"} <= u["Submarine"].tags
    assert "cancels_subs" in u["Destroyer"].tags
    assert {"aa", "captured", "land"} <= u["AAGun"].tags
    assert {"factory", "captured"} <= u["IndustrialComplex"].tags
    assert "blitz" in u["Tank"].tags and "blitz" not in u["Infantry"].tags
    assert "lands_on_carrier" in u["Fighter"].tags and "lands_on_carrier" not in u["Bomber"].tags
    assert "strategic_bomber" in u["Bomber"].tags
    assert {k for k in UNITS if "air" in u[k].tags} == {"Fighter", "Bomber"}
    assert {k for k in UNITS if "sea" in u[k].tags} == {"Battleship", "AircraftCarrier", "Destroyer", "Transport",
                                                          "Submarine"}


@pytest.mark.parametrize("kinds, values", [
    (["Infantry", "Infantry", "Artillery"], [2, 1, 2]),           # one artillery, one infantry lifted
    (["Infantry", "Artillery", "Infantry", "Artillery"], [2, 2, 2, 2]),
    (["Artillery", "Artillery", "Infantry"], [2, 2, 2]),          # a spare artillery lifts nobody
    (["Infantry", "Tank"], [1, 3]),
    (["Tank", "Artillery", "Fighter"], [3, 2, 3]),                # only infantry is supported
])
def test_artillery_supports_one_infantry_each(kinds: list[str], values: list[int]) -> None:
    g = Play.new()
    ids = [g.add(k, "Germany", "Ukraine S.S.R.")[0] for k in kinds]
    units = [g.piece(i) for i in ids]
    assert g.proc("attack_values", units) == values
    assert g.proc("defence_values", units) == [load().rules.units[k].defence for k in kinds]


def test_the_powers_play_in_turn_order_and_a_round_ends_after_the_us() -> None:
    g = Play.new()
    seen = []
    while g.state.turn == 1 or g.power != "Germany":
        if not seen or seen[-1] != (g.state.turn, g.power):
            seen.append((g.state.turn, g.power))
        g.finish()
    assert seen == [(1, "USSR"), (1, "Germany"), (1, "UK"), (1, "Japan"), (1, "US"), (2, "USSR")]


def test_each_power_plays_its_phases_in_order() -> None:
    g = Play.new()
    steps = [g.step]
    while g.power == "USSR":
        g.finish()
        steps += [e[1]["step"] for e in g.events if e[0] == "step_start"]
    # combat with no battle, mobilize with nothing bought and income ask nobody anything
    assert steps == ["purchase", "combat_move", "conduct_combat", "noncombat_move", "mobilize", "collect_income",
                     "purchase"]
    assert g.power == "Germany"


def test_research_is_an_option_off_by_default() -> None:
    assert load().rules.options["research"] is False
    g = Play.new()
    assert g.step == "purchase"
    with_research = load(research=True).rules
    # first in a turn, after the bids before round 1 (bids.rules) and the UK's declaration of
    # a Joint Strike as a round begins (advantages.rules; both skipped unless their options are on)
    assert [p.name for p in with_research.sequence.phases][:3] == ["bid", "joint_strike", "research_phase"]


def test_the_status_line_names_the_round_the_power_its_step_and_every_powers_ipcs() -> None:
    from clients import terminal
    from engine.game import Game
    from tests.lhtr.play import SCENARIO

    game = Game(load(), SCENARIO, 1)
    out: list[str] = []
    answers = iter(["quit"])
    terminal.play_terminal(game, {}, None, read=lambda prompt: next(answers), write=out.append)
    assert "Round 1, USSR: purchase | IPCs: USSR 24, Germany 40, UK 30, Japan 30, US 42" in out
    g = Play.new(1)
    g.walk_to("Germany", "combat_move")
    assert g.rs.logic.status(g.state) == "Round 1, Germany: combat move | IPCs: USSR 48, Germany 40, UK 30, Japan 30, US 42"
