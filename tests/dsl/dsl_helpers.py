"""Helpers shared by the rules-language tests: a host registry like the engine's, a fake
dice primitive, pieces and a context object, a game state's pieces changed at random."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dsl import Registry, load_rules


@dataclass
class Piece:
    id: int
    kind: str
    owner: str = "Axis"
    space: str = "h1"
    hits: int = 0


@dataclass
class Ctx:
    """What the host passes to rules: here, a queue of fixed dice and an income ledger."""

    dice: list[int] = field(default_factory=list)
    income: dict[str, int] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)


def fake_roll(ctx: Ctx, n: int, sides: int) -> list[int]:
    out, ctx.dice[:] = ctx.dice[:n], ctx.dice[n:]
    assert len(out) == n, "test ran out of fixed dice"
    return out


def adjust_income(ctx: Ctx, power: str, amount: int) -> None:
    ctx.income[power] = ctx.income.get(power, 0) + amount


def note(ctx: Ctx, text: str) -> None:
    ctx.log.append(text)


def make_registry() -> Registry:
    reg = Registry()
    reg.record("Unit", fields={"id": "int", "kind": "str", "owner": "str", "space": "str", "hits": "int"},
               unit_stats=True)
    reg.record("Battle", fields={"attacker": "str", "space": "str"})
    reg.primitive("roll", fake_roll, params=[("n", "int"), ("sides", "int")], returns="list[int]",
                  context=True, doc="roll n dice with the given sides")
    reg.primitive("adjust_income", adjust_income, params=[("power", "str"), ("amount", "int")], context=True)
    reg.primitive("note", note, params=[("text", "str")], context=True)
    reg.primitive("units_in_sea_zones", lambda ctx, zones: [u for u in ctx.units if int(u.space) in zones],
                  params=[("zones", "list[int]")], returns="list[Unit]", context=True)
    reg.event("collect_income", params=[("power", "str")], doc="a power collects its income")
    reg.event("phase_start", params=[("phase", "str")])
    for name in ("Axis", "Allies", "UK", "Germany", "USSR", "US", "Japan"):
        reg.constant(name, "str", name)
    return reg


def with_looked_at(name: str, source: str, procedure: str) -> tuple[Any, list[str]]:
    """A procedure of rules that may call `looked_at(space)`, a board question that records
    the spaces it is asked about (and answers yes), and that record."""
    from engine.primitives import register_core

    looked: list[str] = []

    def looked_at(ctx: Any, space: str) -> bool:
        looked.append(space)
        return True

    reg = Registry()
    register_core(reg)
    reg.primitive("looked_at", looked_at, [("space", "str")], "bool", context=True, board=True)
    return load_rules([(name, source)], reg).procedure(procedure), looked


def churned(state: Any, kinds: list[str], steps: int, seed: int, field: str, values: list[str],
            mark: str) -> Iterator[Any]:
    """The state after each of `steps` random changes of its pieces (one added, a kind, a
    `field` or a mark changed, or the state copied), for tests that ask the compiled rules
    and a plain reading of the pieces the same question after every change."""
    rng = random.Random(seed)
    for _ in range(steps):
        ids = sorted(state.pieces)
        what = rng.randrange(5)
        if what == 0 or not ids:
            state.add_piece(rng.choice(kinds), rng.choice(["red", "blue"]), "a")
        elif what == 1:
            state.update(rng.choice(ids), kind=rng.choice(kinds))
        elif what == 2:
            state.update(rng.choice(ids), **{field: rng.choice(values)})
        elif what == 3:
            state.update(rng.choice(ids), status=frozenset([mark]) if rng.random() < 0.5 else frozenset())
        else:
            state = state.copy()
        yield state
