"""Battle odds taken from the ruleset's own combat rules, never from a second copy of them.

A battle is the rules' repeating sequence `battle(where)` (LHTR: AA fire, bombardment,
submarines, fire, casualties, press on or retreat), fought on a scratch state that holds only
the two forces (clients.odds_setup). Exact by default: a Markov chain over battle states,
the forces standing counted by owner, kind, damage and marks. Each round is run once for
every state still fighting, under every outcome of its dice (engine.chance: a `roll_hits`
is one branch per number of hits, the binomials added up), the rules' questions answered by
the casualty policy (clients.odds_policy); equal states are merged after each round, and a
state met again in a later round reuses its round (from the second round on a round depends
only on the units standing: the rules' own round counter is there for the first round's AA
fire, bombardment and terrain). Past a budget of rule runs the same battle is sampled through
the same rules instead, and the answer says so, with its interval: each round is run once
per distinct state and dice and replayed after (engine.dice_tree).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import chance, dice_tree
from engine.state import GameState

#: a battle state: (owner, kind, hits, marks) of each piece in the battle's space, counted
Key = tuple[tuple[tuple[str, str, int, tuple[str, ...]], int], ...]

#: rule runs (one round under one outcome of its dice) an exact answer may take
BUDGET = 6_000
#: rounds after which a battle still going on is counted as ended with both sides standing
MOST_ROUNDS = 60
#: CPU seconds the sampling a battle too large to enumerate may take (at least 100 battles)
FALLBACK_SECONDS = 5.0
#: live probability below which the chain stops
NEGLIGIBLE = 1e-14


class OddsError(ValueError):
    """A battle the calculator cannot set up: said to the player as one line."""


@dataclass
class Battle:
    """Two forces about to fight in `where`, on a scratch state with the battle started."""

    rules: Any
    where: str
    attacker: str
    defender: str
    state: GameState
    answer: Callable[[str, str, list[Any]], Any]
    #: the unit types of each side as the player gave them, and the space's name as printed
    attacking: dict[str, int] = field(default_factory=dict)
    defending: dict[str, int] = field(default_factory=dict)
    where_name: str = ""

    def key(self, state: GameState) -> Key:
        c = Counter((p.owner, p.kind, p.hits, tuple(sorted(p.status))) for p in state.pieces_at(self.where))
        return tuple(sorted(c.items()))

    def sides(self, state: GameState) -> tuple[Counter[str], Counter[str]]:
        """The units of each side still fighting, by kind (the rules' `attackers` and
        `defenders`)."""
        a = Counter(u.kind for u in self.rules.procedure("attackers")(state, self.where))
        d = Counter(u.kind for u in self.rules.procedure("defenders")(state, self.where))
        return a, d


@dataclass
class Outcome:
    """How a battle ends: the chance of each end, of each side's survivors, and the means."""

    attacker_wins: float
    defender_wins: float
    both_destroyed: float
    both_standing: float
    attacker_survivors: list[tuple[float, dict[str, int]]]
    defender_survivors: list[tuple[float, dict[str, int]]]
    attacker_losses: float
    defender_losses: float
    attacker_cost_lost: float | None
    defender_cost_lost: float | None
    rounds: float
    exact: bool
    battles: int = 0
    #: (low, high) 95% interval of the attacker's chance when sampled
    interval: tuple[float, float] | None = None
    #: the same for the defender's chance
    defender_interval: tuple[float, float] | None = None
    runs: int = 0
    #: sampled: the rule runs spent first on an exact answer given up past its budget
    tried: int = 0
    note: str = ""


def _round(battle: Battle) -> Callable[[GameState], Any]:
    fight = battle.rules.round("battle")
    where = battle.where

    def run(state: GameState) -> tuple[Key, bool, GameState]:
        going = fight(state, where)
        return battle.key(state), bool(going), state

    return run


def exact(battle: Battle, budget: int = BUDGET, retreat_after: int | None = None) -> Outcome:
    """The battle's odds by enumeration; chance.TooManyOutcomes past `budget` rule runs."""
    run = _round(battle)
    start = battle.state
    live: dict[Key, list[Any]] = {battle.key(start): [1.0, start]}
    ended: dict[Key, list[Any]] = {}     # key -> [probability, state, mean rounds * probability]
    cache: dict[Key, list[tuple[float, Key, bool, GameState]]] = {}
    runs = 0
    rnd = 0
    while live:
        rnd += 1
        if rnd > MOST_ROUNDS or (retreat_after is not None and rnd > retreat_after):
            for k, (p, s) in live.items():
                _end(ended, k, p, s, rnd - 1)
            break
        nxt: dict[Key, list[Any]] = {}
        for k, (p, s) in live.items():
            steps = cache.get(k) if rnd > 1 else None
            if steps is None:
                left = budget - runs
                if left <= 0:
                    raise chance.TooManyOutcomes(f"more than {budget:,} rule runs")
                counted = [0]

                def counting(state: GameState, counted: list[int] = counted) -> Any:
                    counted[0] += 1
                    return run(state)

                found = chance.outcomes(counting, s, key=lambda r: (r[0], r[1]), limit=left, exact=False)
                runs += counted[0]
                steps = [(q, r[0], r[1], r[2]) for q, r in found]
                if rnd > 1:
                    cache[k] = steps
            for q, k2, going, s2 in steps:
                if not going:
                    _end(ended, k2, p * q, s2, rnd - 1)
                    continue
                if q * p < NEGLIGIBLE:
                    _end(ended, k2, p * q, s2, rnd)
                    continue
                entry = nxt.get(k2)
                if entry is None:
                    nxt[k2] = [p * q, s2]
                else:
                    entry[0] += p * q
        live = nxt
    out = summarise(battle, [(p, s, r / p if p else 0.0) for p, s, r in ended.values()], exact=True)
    out.runs = runs
    return out


def _end(ended: dict[Key, list[Any]], k: Key, p: float, s: GameState, rounds: int) -> None:
    e = ended.get(k)
    if e is None:
        ended[k] = [p, s, p * rounds]
    else:
        e[0] += p
        e[2] += p * rounds


def sampled(battle: Battle, battles: int, seed: int = 0, retreat_after: int | None = None,
            cpu_seconds: float | None = None, remember: bool = True) -> Outcome:
    """The battle's odds estimated from `battles` battles fought through the same rules; with
    `cpu_seconds`, fewer (at least 100) when they would take longer. With `remember` (the
    default) each round is run through the rules once per distinct state and dice and then
    replayed (engine.dice_tree); without, every round of every battle is run: the same seed
    gives the same battles either way."""
    fight = battle.rules.round("battle")
    where = battle.where
    tree = dice_tree.Battles(lambda s: fight(s, where), battle.key, battle.state, remember=remember)
    last = MOST_ROUNDS if retreat_after is None else min(retreat_after, MOST_ROUNDS)
    rnd = random.Random(seed)
    ends: dict[Key, list[Any]] = {}
    began = time.process_time()
    fought = 0
    # a round of the rules leaves no cycles of garbage: the collector, which would walk the
    # ruleset's objects and the tree again and again, rests while the battles are fought
    collecting = gc.isenabled()
    gc.disable()
    try:
        for fought in range(1, battles + 1):
            if cpu_seconds is not None and fought > 100 and time.process_time() - began > cpu_seconds:
                fought -= 1
                break
            key, s, rounds = tree.fight_one(rnd, last)
            e = ends.get(key)  # type: ignore[call-overload]
            if e is None:
                ends[key] = [1, s, rounds]  # type: ignore[index]
            else:
                e[0] += 1
                e[2] += rounds
    finally:
        if collecting:
            gc.enable()
    battles = fought
    share = 1.0 / battles
    out = summarise(battle, [(c * share, s, r / c) for c, s, r in ends.values()], exact=False)
    out.battles = battles
    out.runs = tree.rule_runs
    out.interval = wilson(out.attacker_wins, battles)
    out.defender_interval = wilson(out.defender_wins, battles)
    return out


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share `p` of `n` trials."""
    if n <= 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def summarise(battle: Battle, ends: list[tuple[float, GameState, float]], exact: bool) -> Outcome:
    """The figures a player reads from the battle's end states (probability, state, rounds)."""
    a0, d0 = battle.sides(battle.state)
    cost = _costs(battle)
    aw = dw = both = stand = 0.0
    a_left: dict[tuple[tuple[str, int], ...], float] = {}
    d_left: dict[tuple[tuple[str, int], ...], float] = {}
    a_loss = d_loss = rounds = 0.0
    a_cost = d_cost = 0.0
    total = sum(p for p, _, _ in ends) or 1.0
    for p, s, r in ends:
        p /= total
        a, d = battle.sides(s)
        if a and not d:
            aw += p
        elif d and not a:
            dw += p
        elif not a and not d:
            both += p
        else:
            stand += p
        ka, kd = tuple(sorted(a.items())), tuple(sorted(d.items()))
        a_left[ka] = a_left.get(ka, 0.0) + p
        d_left[kd] = d_left.get(kd, 0.0) + p
        a_loss += p * (sum(a0.values()) - sum(a.values()))
        d_loss += p * (sum(d0.values()) - sum(d.values()))
        if cost is not None:
            a_cost += p * sum(cost(k) * (n - a.get(k, 0)) for k, n in a0.items())
            d_cost += p * sum(cost(k) * (n - d.get(k, 0)) for k, n in d0.items())
        rounds += p * r

    def ranked(left: dict[tuple[tuple[str, int], ...], float]) -> list[tuple[float, dict[str, int]]]:
        return sorted(((p, dict(k)) for k, p in left.items()), key=lambda pk: (-pk[0], sorted(pk[1].items())))

    return Outcome(aw, dw, both, stand, ranked(a_left), ranked(d_left), a_loss, d_loss,
                   a_cost if cost is not None else None, d_cost if cost is not None else None, rounds, exact)


def _costs(battle: Battle) -> Callable[[str], int] | None:
    """A unit type's cost, where the rules give units a `cost` stat (IPCs)."""
    if "cost" not in battle.rules.stats:
        return None
    units = battle.rules.units
    return lambda kind: int(getattr(units[kind], "cost", 0) or 0)


def odds(battle: Battle, samples: int | None = None, seed: int = 0, retreat_after: int | None = None,
         budget: int = BUDGET, fallback_samples: int = 2_000,
         fallback_seconds: float | None = FALLBACK_SECONDS) -> Outcome:
    """Exact when the battle can be enumerated within `budget` rule runs (and no `samples`
    are asked for), else `fallback_samples` battles sampled through the same rules (fewer if
    they would take more than `fallback_seconds` of CPU; None: all of them). A battle whose states and dice,
    counted roughly (((attackers + 1) * (defenders + 1)) ** 2 rule runs), are far past the
    budget is sampled without trying."""
    if samples is None:
        a, d = battle.sides(battle.state)
        guess = ((sum(a.values()) + 1) * (sum(d.values()) + 1)) ** 2
        why = f"too large to enumerate within {budget:,} rule runs"
        tried = 0
        if guess <= 4 * budget:
            try:
                return exact(battle, budget, retreat_after)
            except chance.TooManyOutcomes:
                tried = budget
        out = sampled(battle, fallback_samples, seed, retreat_after, fallback_seconds)
        out.note = why
        out.tried = tried
        return out
    return sampled(battle, samples, seed, retreat_after)
