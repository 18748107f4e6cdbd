"""Who is lost first: the casualty policy a battle calculator answers the rules' questions by.

The rules ask each side for its casualties one hit at a time, offering one unit of each kind
(LHTR's `take_hits`). A policy picks among them by the units' own stats:
- `triplea` (the default): the order TripleA's calculator uses, the lowest combat value first
  (attack for the attacker, defence for the defender), then the cheapest;
- `cheapest`: the cheapest first, then the lowest combat value;
- `first`: the option the game itself offers first (the rules' own sound default);
- a list of unit names ("infantry, artillery, tank"): in that order, unnamed kinds last.
In every policy but `first` a hit a unit survives (a battleship's first) is taken first.
Every other question (press on or retreat, submerge) takes the game's first option, which the
rules make the one that fights on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from clients.odds import OddsError
from clients.odds_units import unit_type
from engine.pieces import Piece

NAMED = {"triplea": "TripleA's: the lowest combat value first, then the cheapest",
         "cheapest": "the cheapest first, then the lowest combat value",
         "first": "the option the game offers first"}


def _stat(units: Mapping[str, Any], kind: str, name: str, default: int = 0) -> int:
    t = units.get(kind)
    if t is None or name not in t.stats:
        return default
    return int(getattr(t, name) or 0)


def describe(order: str, units: Mapping[str, Any]) -> str:
    """The policy in words, a list with the units' own names."""
    if order.strip().lower() in NAMED:
        return NAMED[order.strip().lower()]
    names = [unit_type(units, w) for w in order.split(",") if w.strip()]
    return "in the order " + ", ".join(names) + ", then the others"


def policy(order: str, units: Mapping[str, Any], attacker: str) -> Callable[[str, str, list[Any]], Any]:
    """An answer hook (GameState.answer_hook) that answers by the policy named `order`."""
    order = order.strip()
    ranks: dict[str, int] = {}
    if order.lower() not in NAMED:
        names = [unit_type(units, w) for w in order.split(",") if w.strip()]
        if not names:
            raise OddsError(f"no casualty order `{order}`: give triplea, cheapest, first or a list of units")
        ranks = {k: i for i, k in enumerate(names)}
    how = order.lower()
    # each kind's stats read once (the policy is asked at every hit of every battle)
    stats = {k: (_stat(units, k, "attack"), _stat(units, k, "defence"), _stat(units, k, "cost"),
                 _stat(units, k, "hits_to_kill", 1)) for k in units}

    def value(p: Piece) -> int:
        return stats[p.kind][0 if p.owner == attacker else 1]

    def absorbs(p: Piece) -> bool:
        return p.hits + 1 < stats[p.kind][3]

    def key(i: int, p: Piece) -> tuple[Any, ...]:
        cost = stats[p.kind][2]
        if how == "triplea":
            return (not absorbs(p), value(p), cost, i)
        if how == "cheapest":
            return (not absorbs(p), cost, value(p), i)
        return (not absorbs(p), ranks.get(p.kind, len(ranks)), i)

    # a unit's place in the order depends only on its kind, side and damage: worked out once
    # for each (the policy is asked at every hit of every battle sampled)
    ranked: dict[tuple[str, str, int], tuple[Any, ...]] = {}

    def answer(player: str, prompt: str, options: list[Any]) -> Any:
        if how == "first":
            return options[0]
        best: tuple[Any, ...] | None = None
        chosen = options[0]
        for o in options:
            if not isinstance(o, Piece):
                return options[0]
            r = ranked.get((o.kind, o.owner, o.hits))
            if r is None:
                r = ranked[(o.kind, o.owner, o.hits)] = key(0, o)[:-1]
            if best is None or r < best:      # (the first of equals, as min over (rank, i))
                best, chosen = r, o
        return chosen

    return answer
