"""Chance that can be enumerated: run a piece of the rules under every outcome of the dice
it rolls, each with its probability (OpenSpiel's chance nodes), so a battle calculator gets
its odds from the ruleset's own combat rules rather than from a second copy of them.

    odds = outcomes(lambda s: rules.procedure("strip_hits")(s, 3, 4), state)
    # -> [(probability, result), ...] over every distinct result

Rolls go through GameState.roll, which asks `dice_hook` when it is set: the walk replays the
rules from a copy of the state with the faces chosen so far, and branches on the next die.
A `roll_hits` (dice whose order does not matter, only how many hit) asks `hits_hook`, and the
walk branches on the count of hits, each with its probability (binomials added up), instead
of on every face: n dice are n + 1 branches, not 6^n.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from engine.state import GameState


class TooManyOutcomes(Exception):
    """The rules roll more dice than can be enumerated; sample() them instead."""


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _NeedHits(Exception):
    def __init__(self, values: list[int], sides: int) -> None:
        super().__init__(len(values))
        self.values, self.sides = values, sides


def hit_counts(values: list[int], sides: int, one: Any = 1.0) -> list[Any]:
    """The chance of each number of hits (0..len(values)) when each value rolls one die of
    `sides` faces and hits on that value or less (`roll_hits`): `one` is Fraction(1) for
    exact fractions, 1.0 for floats."""
    dist = [one]
    for v in values:
        p = one * min(max(v, 0), sides) / sides
        q = one - p
        nxt = [d * q for d in dist] + [one * 0]
        for k, d in enumerate(dist):
            nxt[k + 1] += d * p
        dist = nxt
    return dist


def frozen(value: Any) -> Hashable:
    """A result as a key: lists become tuples, maps sorted tuples of pairs."""
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, frozen(v)) for k, v in value.items()))
    return value  # type: ignore[no-any-return]


class _NeedRoll(Exception):
    def __init__(self, n: int, sides: int) -> None:
        super().__init__(n)
        self.n, self.sides = n, sides


def _alike_rolls(n: int, sides: int, one: Any) -> list[tuple[tuple[int, ...], Any]]:
    """Every multiset of `n` faces of a die of `sides`, with its probability."""
    out = []
    total = one / sides ** n
    for faces in itertools.combinations_with_replacement(range(1, sides + 1), n):
        ways = math.factorial(n)
        for c in Counter(faces).values():
            ways //= math.factorial(c)
        out.append((faces, total * ways))
    return out


def outcomes(run: Callable[[GameState], Any], state: GameState, key: Callable[[Any], Hashable] = frozen,
             limit: int = 200_000, exact: bool = True, alike: bool = False) -> list[tuple[Any, Any]]:
    """Every distinct result of `run(copy of state)` over all the dice it may roll, with its
    probability (a Fraction; a float when not `exact`), most likely first. Raises
    TooManyOutcomes past `limit` runs. With `alike`, the caller says the rules use the faces
    of one roll only as a multiset (which faces, not in which order): a roll of n dice then
    branches on its multisets of faces (C(n + sides - 1, n) of them), not on every sequence."""
    one: Any = Fraction(1) if exact else 1.0
    totals: dict[Hashable, list[Any]] = {}
    stack: list[tuple[tuple[Any, ...], Any]] = [((), one)]
    runs = 0
    while stack:
        script, p = stack.pop()
        runs += 1
        if runs > limit:
            raise TooManyOutcomes(f"more than {limit} ways the dice can fall; sample instead")
        work = state.copy()
        faces = list(script)
        faces.reverse()

        def dice(n: int, sides: int, faces: list[Any] = faces) -> list[int]:
            if alike:
                if not faces:
                    raise _NeedRoll(n, sides)
                return list(faces.pop())
            out = []
            for _ in range(n):
                if not faces:
                    raise _NeedDie(sides)
                out.append(faces.pop())
            return out

        def hits(values: list[int], sides: int, faces: list[Any] = faces) -> int:
            if not faces:
                raise _NeedHits(values, sides)
            return faces.pop()

        work.dice_hook = dice
        work.hits_hook = hits
        try:
            result = run(work)
        except _NeedDie as need:
            share = p / need.sides
            for face in range(need.sides, 0, -1):
                stack.append((script + (face,), share))
            continue
        except _NeedRoll as need:
            for roll, q in _alike_rolls(need.n, need.sides, one):
                stack.append((script + (roll,), p * q))
            continue
        except _NeedHits as need:
            for n, q in enumerate(hit_counts(need.values, need.sides, one)):
                if q:
                    stack.append((script + (n,), p * q))
            continue
        k = key(result)
        if k in totals:
            totals[k][0] += p
        else:
            totals[k] = [p, result]
    return sorted(((p, r) for p, r in totals.values()), key=lambda pr: -pr[0])


def sample(run: Callable[[GameState], Any], state: GameState, trials: int, seed: int = 0,
           key: Callable[[Any], Hashable] = frozen) -> list[tuple[float, Any]]:
    """The same estimated by `trials` random runs (for battles too long to enumerate)."""
    rnd = random.Random(seed)
    counts: dict[Hashable, list[Any]] = {}
    for _ in range(trials):
        work = state.copy()
        work.dice_hook = lambda n, sides: [rnd.randint(1, sides) for _ in range(n)]
        result = run(work)
        k = key(result)
        if k in counts:
            counts[k][0] += 1
        else:
            counts[k] = [1, result]
    return sorted(((c / trials, r) for c, r in counts.values()), key=lambda pr: -pr[0])
