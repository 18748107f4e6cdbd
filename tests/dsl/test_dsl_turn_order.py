"""A `turn order` whose entries read an option: a layer reorders the powers of its base
(`if swap then Blue else Red`), each set of options gets its own order, an entry may be a
list of powers (an option a scenario sets), and a broken entry is a checker message at its
file:line:col."""

from __future__ import annotations

import pytest

import dsl
from dsl import RulesError, load_rules
from engine.primitives import register_core

BASE = "turn order [Red, Blue, Green]\nphase p { steps [s] }\nstep s { }\n"


def registry() -> dsl.Registry:
    """The engine's registry: it knows no power, so the rules' `turn order` names them."""
    reg = dsl.Registry()
    register_core(reg)
    return reg


def resolve(name: str) -> list[tuple[str, str]]:
    assert name == "base"
    return [("base.rules", BASE)]


def layer(order: str) -> list[tuple[str, str]]:
    return [("layer.rules", f"extends base\noption swap: bool = false\noverride turn order {order}\n")]


def problems(order: str) -> list[str]:
    with pytest.raises(RulesError) as info:
        load_rules(layer(order), registry(), resolve_extends=resolve)
    return [f"{d.pos}: {d.message}" for d in info.value.diagnostics]


def test_an_entry_may_choose_its_power_by_an_option() -> None:
    rules = load_rules(layer("[if swap then Blue else Red, if swap then Red else Blue, Green]"), registry(),
                       resolve_extends=resolve)
    assert rules.sequence.powers == ("Red", "Blue", "Green")
    assert rules.with_options({"swap": True}).sequence.powers == ("Blue", "Red", "Green")
    # the names in the branches are the rules' powers, usable anywhere in them
    assert rules.constants["Blue"] == "Blue"


def test_a_power_named_only_in_a_branch_is_a_power_too() -> None:
    rules = load_rules(layer("[Red, if swap then Yellow else Blue, Green]"), registry(), resolve_extends=resolve)
    assert rules.with_options({"swap": True}).sequence.powers == ("Red", "Yellow", "Green")
    assert "Yellow" not in registry().constants


@pytest.mark.parametrize(("order", "message"), [
    ("[if swap then 3 else Red, Blue, Green]",
     "layer.rules:3:22: both branches of `if ... then ... else` must have one type, got `int` and `str`"),
    ("[Red, swap, Green]", "layer.rules:3:27: a power must be `str` (or a `list[str]` of powers), got `bool`"),
    ("[if swp then Blue else Red, Blue, Green]", "layer.rules:3:25: unknown name `swp`"),
    ("[if swap then Blue else Red, if swap then 2 > 1 else Blue, Green]",
     "layer.rules:3:50: both branches of `if ... then ... else` must have one type, got `bool` and `str`"),
], ids=["number", "option", "misspelt option", "comparison"])
def test_an_entry_that_is_no_power_is_a_checker_message(order: str, message: str) -> None:
    assert message in problems(order)


def test_an_order_that_names_a_power_twice_with_some_options_is_refused() -> None:
    rules = load_rules(layer("[if swap then Blue else Red, Blue, Green]"), registry(), resolve_extends=resolve)
    assert rules.sequence.powers == ("Red", "Blue", "Green")
    with pytest.raises(RulesError, match=r"layer\.rules:3:1: the turn order names `Blue` twice with these options"):
        rules.with_options({"swap": True})


TEAMS_BASE = "turn order [Red, Blue, Green]\nphase p { steps [s] }\nphase q { steps [s2] }\nstep s { }\nstep s2 { }\n"


def teams(decl: str, options: dict[str, object] | None = None) -> dsl.CompiledRules:
    return load_rules([("t.rules", TEAMS_BASE + "option on: bool = true\n" + decl + "\n")], registry(),
                      options=options)


def test_teams_group_powers_of_the_turn_order_and_name_the_phases_they_play_together() -> None:
    rules = teams("teams [[Blue, Green]] together [q] when on")
    seq = rules.sequence
    assert (seq.teams, seq.together) == ((("Blue", "Green"),), ("q",))
    assert [seq.team_powers(i) for i in range(3)] == [["Red"], ["Blue", "Green"], ["Blue", "Green"]]
    assert seq.acting_powers(2, 0) == ["Green"] and seq.acting_powers(1, 1) == ["Blue", "Green"]
    # `when` reads the options: off, every power plays alone
    off = rules.with_options({"on": False}).sequence
    assert (off.teams, off.together, off.team_powers(2)) == ((), (), ["Green"])


@pytest.mark.parametrize(("decl", "message"), [
    ("teams [[Red, Green]]", "t.rules:7:1: `teams` ['Red', 'Green'] are not next to each other, in this order, in the turn order"),
    ("teams [[Blue, Yellow]]", "t.rules:7:15: unknown name `Yellow`"),
    ("teams [[Red, Blue], [Blue, Green]]", "t.rules:7:1: `teams` names `Blue` twice"),
    ("teams [[Blue, Green]] together [r]", "t.rules:7:33: `together [r]`: there is no phase `r`"),
    ("teams [[Blue, Green]] when 3", "t.rules:7:28: the `when` condition of `teams` must be `bool`, got `int`"),
], ids=["apart", "unknown", "twice", "no phase", "when"])
def test_a_team_that_is_no_run_of_the_turn_order_is_refused(decl: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        teams(decl)
    assert any(message in f"{d.pos}: {d.message}" for d in info.value.diagnostics), info.value.diagnostics


ORDERED = ('option order: list[str] = [Red, Blue] "the powers in turn order"\n'
           'turn order [order, Green]\nphase p { steps [s] }\nstep s { }\n')


def test_an_entry_that_is_a_list_of_powers_is_spliced_in_and_its_names_are_powers() -> None:
    rules = load_rules([("ordered.rules", ORDERED)], registry())
    assert rules.sequence.powers == ("Red", "Blue", "Green")
    assert rules.constants["Red"] == "Red" and rules.constants["Blue"] == "Blue"
    # a scenario with another power gives another list
    assert rules.with_options({"order": ["Blue", "Yellow", "Red"]}).sequence.powers == ("Blue", "Yellow", "Red", "Green")
    with pytest.raises(RulesError, match=r"names `Green` twice"):
        rules.with_options({"order": ["Green", "Red"]})
