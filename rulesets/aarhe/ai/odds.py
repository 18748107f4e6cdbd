"""Battle odds for the LHTR computer player, worked out exactly (up to a cut-off) rather than
sampled.

A side is a list of *slots* in the order its casualties are taken: each slot is one hit the
side can take and fires with probability `p` each round while it stands. A unit that takes two
hits (a battleship) is two slots: a first one that fires nothing (the hit it absorbs) and the
unit itself further back. So the slots standing are always the last `k` of the list, and the
battle is a Markov chain over (attacker slots standing, defender slots standing).

Under Low Luck (the rules' option `low_luck`) a side's hits are its total strength divided by
six and one die for the rest: `battle(..., low_luck=True)` works the chain out so.

The numbers come from the rules (each unit's attack or defence value as the rules' own
`attack_values`/`defence_values` give them); nothing here knows a unit by its name.
"""

from __future__ import annotations

from dataclasses import dataclass

#: probabilities below this are dropped (the chain stays small; the error is far below 1%)
CUT = 1e-6
#: rounds worked out; what is still undecided then counts as neither side winning
ROUNDS = 12


@dataclass(frozen=True, slots=True)
class Slot:
    p: float          # chance of a hit each round while it stands
    cost: float       # what losing it costs its side (0 for a hit a unit survives)
    land: bool        # a land unit (only land units take a territory)


@dataclass(frozen=True, slots=True)
class Odds:
    win: float        # the attacker is left standing alone (with a land unit, where that matters)
    clear: float      # the defenders are all gone
    lose: float       # the attackers are all gone
    att_loss: float   # expected cost the attacker loses
    def_loss: float   # expected cost the defender loses
    att_left: float   # expected attacker slots standing

    @property
    def gain(self) -> float:
        """Expected cost destroyed minus expected cost lost."""
        return self.def_loss - self.att_loss


def hit_distribution(ps: list[float]) -> list[float]:
    """P(k hits) for dice hitting with these probabilities (a Poisson binomial)."""
    dist = [1.0]
    for p in ps:
        if p <= 0.0:
            continue
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            if v:
                nxt[k] += v * q
                nxt[k + 1] += v * p
        dist = nxt
    return _trim(dist)


def _trim(dist: list[float]) -> list[float]:
    n = len(dist)
    while n > 1 and dist[n - 1] < CUT:
        n -= 1
    return dist[:n]


def low_luck_distribution(ps: list[float]) -> list[float]:
    """P(k hits) under Low Luck: a sure hit for each 6 of the total strength (a unit hitting
    with probability p has strength 6p), one die for the rest."""
    power = round(sum(min(p, 1.0) for p in ps if p > 0.0) * 6)
    sure, rest = divmod(power, 6)
    dist = [0.0] * (sure + 2)
    dist[sure] = 1.0 - rest / 6
    dist[sure + 1] = rest / 6
    return _trim(dist)


def _suffix_distributions(slots: tuple[Slot, ...], low_luck: bool = False) -> list[list[float]]:
    """For each k, the hit distribution of the last k slots."""
    if low_luck:
        return [low_luck_distribution([s.p for s in slots[len(slots) - k:]]) if k else [1.0]
                for k in range(len(slots) + 1)]
    out = [[1.0]]
    dist = [1.0]
    for s in reversed(slots):
        p = s.p
        if p > 0.0:
            q = 1.0 - p
            nxt = [0.0] * (len(dist) + 1)
            for k, v in enumerate(dist):
                if v:
                    nxt[k] += v * q
                    nxt[k + 1] += v * p
            dist = _trim(nxt)
        out.append(dist)
    return out


def battle(att: tuple[Slot, ...], dfn: tuple[Slot, ...], need_land: bool, low_luck: bool = False) -> Odds:
    """The odds of a battle fought to the end (no retreat). `need_land`: the attacker wins
    only with a land unit left (a land battle); `low_luck`: the rules' Low Luck."""
    na, nd = len(att), len(dfn)
    if nd == 0:
        return Odds(1.0, 1.0, 0.0, 0.0, 0.0, float(na))
    if na == 0:
        return Odds(0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
    adist = _suffix_distributions(att, low_luck)
    ddist = _suffix_distributions(dfn, low_luck)
    # cost lost when only the last k slots stand
    acost = [0.0] * (na + 1)
    dcost = [0.0] * (nd + 1)
    for k in range(na - 1, -1, -1):
        acost[k] = acost[k + 1] + att[na - 1 - k].cost
    for k in range(nd - 1, -1, -1):
        dcost[k] = dcost[k + 1] + dfn[nd - 1 - k].cost
    # land standing among the last k attacker slots
    land_left = [False] * (na + 1)
    for k in range(1, na + 1):
        land_left[k] = land_left[k - 1] or att[na - k].land
    state: dict[tuple[int, int], float] = {(na, nd): 1.0}
    ends: dict[tuple[int, int], float] = {}
    for _ in range(ROUNDS):
        nxt: dict[tuple[int, int], float] = {}
        for (i, j), pr in state.items():
            a = adist[i]        # hits the attacker scores
            d = ddist[j]        # hits the defender scores
            if len(a) == 1 and len(d) == 1:       # nobody can hurt anybody: it stops
                ends[(i, j)] = ends.get((i, j), 0.0) + pr
                continue
            for x, px in enumerate(d):
                w = pr * px
                if w < CUT:
                    continue
                ni = i - x if x < i else 0
                for y, py in enumerate(a):
                    v = w * py
                    if v < CUT:
                        continue
                    nj = j - y if y < j else 0
                    key = (ni, nj)
                    if ni == 0 or nj == 0:
                        ends[key] = ends.get(key, 0.0) + v
                    else:
                        nxt[key] = nxt.get(key, 0.0) + v
        state = nxt
        if not state:
            break
    for key, pr in state.items():          # undecided after ROUNDS: counted where it stands
        ends[key] = ends.get(key, 0.0) + pr
    total = sum(ends.values()) or 1.0
    win = clear = lose = aloss = dloss = aleft = 0.0
    for (i, j), pr in ends.items():
        pr /= total
        aloss += pr * acost[i]
        dloss += pr * dcost[j]
        aleft += pr * i
        if j == 0:
            clear += pr
            if i > 0 and (land_left[i] or not need_land):
                win += pr
        if i == 0:
            lose += pr
    return Odds(win, clear, lose, aloss, dloss, aleft)
