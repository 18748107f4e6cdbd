"""Layering with `extends` and `override`; handlers run base layer first."""

from __future__ import annotations

import pytest
from dsl_helpers import Ctx, Piece

from dsl import RulesError, load_rules

LHTR = """
stat attack: int = 0
stat cost: int = 0
tag warship, transport
unit Infantry { attack: 1 cost: 3 }
unit Submarine [warship] { attack: 2 cost: 8 }
unit Destroyer [warship] { attack: 3 cost: 12 }
unit Transport [transport] { attack: 0 cost: 8 }
option starting_income: map[str, int] = { USSR: 24, Germany: 40, UK: 30, Japan: 30, US: 42 }
table factory_cost(ipc: int) -> int { default => 15 }
procedure hits_needed(n: int) -> int { return n * 2 }
rule base_income on collect_income(power) {
    adjust_income(power, starting_income[power])
    note("base " + power)
}
turn order [USSR, Germany, UK, Japan, US]
phase collect_income { }
phase purchase { }
"""

AARHE = """
extends lhtr
option lend_lease_cap: int = 12 "US IPCs sent a turn at most" status unconfirmed source "seed: up to 1? IPC"
override unit Infantry { cost: 2 }
override table factory_cost(ipc: int) -> int { default => 15 - ipc }
override procedure hits_needed(n: int) -> int { return n * 3 }
phase purchase_upkeep after collect_income { steps [desert_upkeep] }

rule convoy_raid on collect_income(power) when power == UK {
    adjust_income(power, -count(u in units_in_sea_zones([7, 8, 11, 12]) where u.owner == Germany and u has warship))
    note("convoy")
}
"""


def resolver(name: str):  # type: ignore[no-untyped-def]
    assert name == "lhtr"
    return [("lhtr.rules", LHTR)]


def test_extends_and_overrides(reg) -> None:  # type: ignore[no-untyped-def]
    rules = load_rules([("aarhe.rules", AARHE)], reg, resolve_extends=resolver)
    assert rules.files == ["lhtr.rules", "aarhe.rules"]
    assert rules.units["Infantry"].cost == 2 and rules.units["Infantry"].attack == 1
    assert rules.tables["factory_cost"](4) == 11
    assert rules.procedure("hits_needed")(None, 2) == 6
    assert rules.options["lend_lease_cap"] == 12
    assert [p.name for p in rules.sequence.phases] == ["collect_income", "purchase_upkeep", "purchase"]
    assert rules.sequence.mode == "order" and rules.sequence.powers[0] == "USSR"


def test_handlers_run_base_first_and_convoy_raid(reg) -> None:  # type: ignore[no-untyped-def]
    rules = load_rules([("aarhe.rules", AARHE)], reg, resolve_extends=resolver)
    ctx = Ctx()
    ctx.units = [Piece(1, "Submarine", "Germany", "7"), Piece(2, "Transport", "Germany", "8"),  # type: ignore[attr-defined]
                 Piece(3, "Destroyer", "Germany", "12"), Piece(4, "Destroyer", "UK", "11"),
                 Piece(5, "Submarine", "Germany", "3")]
    for h in rules.handlers("collect_income"):
        h(ctx, "UK")
    assert ctx.log == ["base UK", "convoy"]
    assert ctx.income["UK"] == 30 - 2
    ctx.log.clear()
    for h in rules.handlers("collect_income"):
        h(ctx, "USSR")
    assert ctx.log == ["base USSR"]  # the `when` guard


def messages(reg, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError) as info:
        load_rules([("top.rules", "extends lhtr\n" + text)], reg, resolve_extends=resolver)
    return [f"{d.pos.line}:{d.pos.col}: {d.message}" for d in info.value.diagnostics]


def test_redefinition_without_override(reg) -> None:  # type: ignore[no-untyped-def]
    assert messages(reg, "unit Infantry { attack: 2 }") == [
        "2:1: `Infantry` is already defined at lhtr.rules:5:1; write `override unit Infantry` to change it"
    ]


def test_override_of_missing_thing(reg) -> None:  # type: ignore[no-untyped-def]
    assert messages(reg, "override unit Infantri { attack: 2 }") == [
        "2:1: `override unit Infantri`: no base layer defines unit `Infantri`"
    ]
    assert messages(reg, "override option lend_lease = 3") == [
        "2:1: `override option lend_lease`: no base layer defines option `lend_lease`"
    ]


def test_override_must_keep_signature(reg) -> None:  # type: ignore[no-untyped-def]
    assert messages(reg, "override procedure hits_needed(n: int, m: int) -> int { return n }") == [
        "2:1: `override procedure hits_needed` must keep the signature (n: int) -> int, not (n: int, m: int) -> int"
    ]


def test_override_option_value_and_type(reg) -> None:  # type: ignore[no-untyped-def]
    rules = load_rules([("top.rules", "extends lhtr\noverride option starting_income = { USSR: 1 }")], reg,
                       resolve_extends=resolver)
    assert rules.options["starting_income"] == {"USSR": 1}
    assert messages(reg, 'override option starting_income = "x"') == [
        "2:35: option `starting_income` is `map[str, int]` but its value is `str`"
    ]


def test_an_option_says_how_sure_it_is_and_an_override_may_say_its_own(reg) -> None:  # type: ignore[no-untyped-def]
    rules = load_rules([("aarhe.rules", AARHE)], reg, resolve_extends=resolver)
    spec = rules.option_specs["lend_lease_cap"]
    assert (spec.status, spec.source) == ("unconfirmed", "seed: up to 1? IPC")
    assert rules.option_specs["starting_income"].status == ""

    def top(text: str):  # type: ignore[no-untyped-def]
        return load_rules([("top.rules", "extends aarhe\n" + text)], reg,
                          resolve_extends=lambda n: [("lhtr.rules", LHTR)] if n == "lhtr" else [("aarhe.rules", AARHE)])

    kept = top("override option lend_lease_cap = 24").option_specs["lend_lease_cap"]
    assert (kept.default, kept.status, kept.source) == (24, "unconfirmed", "seed: up to 1? IPC")
    own = top('override option lend_lease_cap = 24 "doubled" status house source "our club"').option_specs["lend_lease_cap"]
    assert (own.doc, own.status, own.source) == ("doubled", "house", "our club")


def test_unknown_base_and_missing_resolver(reg) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError, match="no way to find base rulesets"):
        load_rules([("t.rules", "extends lhtr\n")], reg)
    with pytest.raises(RulesError, match="unknown base ruleset `nope`"):
        load_rules([("t.rules", "extends nope\n")], reg, resolve_extends=lambda n: [])


def test_fingerprint_changes_with_sources(reg) -> None:  # type: ignore[no-untyped-def]
    a = load_rules([("lhtr.rules", LHTR)], reg)
    b = load_rules([("lhtr.rules", LHTR + "\n# comment")], reg)
    assert len(a.fingerprint) == 64 and a.fingerprint != b.fingerprint


def test_real_files_and_multi_file_layers(reg, tmp_path) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path / "lhtr"
    base.mkdir()
    (base / "units.rules").write_text("stat attack: int = 0\nstat cost: int = 0\ntag warship, transport\n"
                                      "unit Infantry { attack: 1 cost: 3 }\n")
    (base / "economy.rules").write_text("procedure price(n: int) -> int { return n * Infantry.cost }\n")
    top = tmp_path / "aarhe.rules"
    top.write_text("extends lhtr\noverride unit Infantry { cost: 2 }\n")
    rules = load_rules(top, reg, resolve_extends=lambda name: sorted((tmp_path / name).glob("*.rules"), reverse=True))
    assert rules.procedure("price")(None, 3) == 6
    assert [p.rsplit("/", 1)[-1] for p in rules.files] == ["units.rules", "economy.rules", "aarhe.rules"]


def test_an_override_calls_the_version_it_replaces() -> None:
    """A house rule adds one anti-aircraft die without copying the procedure."""
    from dsl import Registry, load_rules

    base = ("base.rules", "procedure aa_dice(n: int) -> int { return min(n, 5) }\n"
                          "procedure total(n: int) -> int { return aa_dice(n) * 10 }\n")
    house = ("house.rules", "extends base\noverride procedure aa_dice(n: int) -> int { return base(n) + 1 }\n")
    top = ("top.rules", "extends house\noverride procedure aa_dice(n: int) -> int { return base(n) * 2 }\n")
    layers = {"base": [base], "house": [house]}
    rules = load_rules([house], Registry(), resolve_extends=lambda name: layers[name])
    assert rules.procedure("aa_dice")(None, 9) == 6
    assert rules.procedure("total")(None, 2) == 30          # base callers get the house rule
    rules = load_rules([top], Registry(), resolve_extends=lambda name: layers[name])
    assert rules.procedure("aa_dice")(None, 9) == 12


def test_base_outside_an_override_is_an_error() -> None:
    from dsl import Registry, check_rules

    diags = check_rules([("a.rules", "procedure f(n: int) -> int { return base(n) }")], Registry())
    assert [d.message for d in diags] == ["`base(...)` calls the version an `override procedure` replaces; there is none here"]


def test_a_misspelt_step_in_an_event_rule_is_an_error_with_a_hint() -> None:
    from dsl import Registry, check_rules
    from engine.primitives import register_core

    reg = Registry()
    register_core(reg)
    src = ('powers ["A", "B"]\nphase upkeep { steps [front_line, tally] }\n'
           'rule r on step_start(phase, step) when step == "front_lin" { note("x") }\n'
           'rule s on phase_end(p) when p in ["upkep"] { note("y") }\n')
    diags = check_rules([("u.rules", src)], reg)
    assert [(d.message, d.hint) for d in diags] == [
        ("there is no step `front_lin`, so this rule would never run", "did you mean `front_line`?"),
        ("there is no phase `upkep`, so this rule would never run", "did you mean `upkeep`?")]


GATED = """
option quiet: bool = false "say nothing"
procedure loud(p: str) -> bool { return len(p) > 2 }
rule plain on collect_income(power) { note("plain " + power) }
rule uk_only on collect_income(power) when power == UK and not quiet { note("uk " + power) }
rule asks_more on collect_income(power) when loud(power) { note("loud " + power) }
turn order [USSR, UK]
phase collect_income { }
"""


def test_a_when_on_the_events_arguments_alone_is_asked_without_entering_the_rules(reg) -> None:  # type: ignore[no-untyped-def]
    # the engine asks a rule's gate first (flow.fire): a `when` that only compares the event's
    # arguments and the options; one that calls a procedure has none, and is asked inside
    for quiet in (False, True):
        rules = load_rules([("gated.rules", GATED)], reg).with_options({"quiet": quiet})
        (g_plain, plain), (g_uk, uk), (g_loud, loud) = rules.bound("collect_income")
        assert [plain, uk, loud] == rules.handlers("collect_income")
        assert g_plain is None and g_loud is None
        assert g_uk("UK") is (not quiet) and g_uk("USSR") is False
        ctx = Ctx()
        for gate, handler in rules.bound("collect_income"):
            for power in ("UK", "USSR"):
                if gate is None or gate(power):
                    handler(ctx, power)
        assert ctx.log == ["plain UK", "plain USSR"] + ([] if quiet else ["uk UK"]) + ["loud USSR"]
