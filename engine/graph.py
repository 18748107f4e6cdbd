"""Graph walks over a board that every kind of map needs: hops between spaces, and the
reach of a move whose every step a rules procedure prices (roads, rivers and zones of
control on a hex map; land, sea and air moves on a territory map)."""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from dsl.runtime import BoardQuestion
from engine.board import Board

#: a walk stops after looking at this many spaces (a rules procedure cannot make it endless)
MAX_VISITS = 200_000


#: the spaces a board keeps the walks of (`hops`); then it forgets them all and starts again
KEPT_WALKS = 512

#: the board questions a board keeps the answers of (`answers`); then it forgets them all
KEPT_QUESTIONS = 64


def hops(board: Board, a: str, b: str) -> int:
    """Fewest links from a to b; -1 when b cannot be reached.

    Links go both ways, so a walk from either end answers. The walk from a space is kept by
    the board, and one is made from the end asked about before (a rule that asks the distance
    from every empty hex to a few units walks from the units): a search that stopped at b was
    a walk of the board for every pair asked, 84,000 of them in one turn of a paratroopers mod."""
    if a == b:
        return 0
    walks = board.hop_walks
    for start, end in ((a, b), (b, a)):
        found = walks.get(start)
        if found is not None:
            return found.get(end, -1)
    if a not in board.spaces or b not in board.spaces:
        return -1       # (an off-board area: no way there)
    if len(walks) >= KEPT_WALKS:
        walks.clear()
        board.hop_asks.clear()
    asked = board.hop_asks
    na, nb = asked.get(a, 0) + 1, asked.get(b, 0) + 1
    asked[a], asked[b] = na, nb
    start, end = (b, a) if nb > na else (a, b)
    found = walks[start] = walk_all(board, start)
    return found.get(end, -1)


def walk_all(board: Board, start: str) -> dict[str, int]:
    """Fewest links from `start` to every space it reaches."""
    seen = {start: 0}
    queue = deque([start])
    adjacent = board.adjacency
    while queue:
        here = queue.popleft()
        k = seen[here] + 1
        for n in adjacent[here]:
            if n not in seen:
                seen[n] = k
                queue.append(n)
    return seen


def answers(board: Board, ask: Callable[[str], bool]) -> tuple[frozenset[str], Mapping[str, tuple[str, ...]]] | None:
    """If `ask` is a board question (dsl.runtime.BoardQuestion: its answers depend on the
    board alone), the spaces it says yes to and, for each space, its links to those, asked
    once per board; else None. None too where asking it of every space fails: the walks then
    ask it as they go, as of any procedure, and fail only if they reach such a space."""
    if not isinstance(ask, BoardQuestion):
        return None
    key = ask.key()
    if key is None:
        return None
    kept = board.kept_answers
    found = kept.get(key, _UNASKED)
    if found is _UNASKED:
        if len(kept) >= KEPT_QUESTIONS:
            kept.clear()
        try:
            yes = frozenset(s for s in board.spaces if ask(s))
        except Exception:  # noqa: BLE001 (a space no walk may reach fails: the walks ask as they go, and meet it only if they reach it)
            found = None
        else:
            found = (yes, {a: tuple(b for b in links if b in yes) for a, links in board.adjacency.items()})
        kept[key] = found
    return found


_UNASKED: Any = object()


def _walked(board: Board, enters: Callable[[str], bool] | None, goes_on: Callable[[str], bool] | None
            ) -> tuple[Mapping[str, tuple[str, ...]], Callable[[str], bool] | None, Callable[[str], bool] | None]:
    """The links a walk follows and the questions it still asks: a board question's answers
    are looked up (`enters`: only the links into the spaces it lets in are followed)."""
    adjacent = board.adjacency
    if enters is not None and (known := answers(board, enters)) is not None:
        adjacent, enters = known[1], None
    if goes_on is not None and (known := answers(board, goes_on)) is not None:
        goes_on = known[0].__contains__
    return adjacent, enters, goes_on


def spread(board: Board, places: list[str], budget: int, enters: Callable[[str], bool],
           goes_on: Callable[[str], bool] | None) -> dict[str, int]:
    """The fewest links from any of `places` to each space within `budget`, breadth first:
    a space is counted if `enters(b)`, and the walk goes on from it if `goes_on(b)` too
    (None: from every space counted). In the order the walk finds them (places first), which
    a rules map keeps. Each question is asked once of a space (a board question, once of a
    board: `answers`)."""
    found = dict.fromkeys(places, 0)
    frontier = [s for s in found if s in board.spaces]     # (not an off-board area)
    adjacent, asks, goes_on = _walked(board, enters, goes_on)
    seen = set(found)           # (found, and those kept out: each space is asked about once)
    for k in range(1, budget + 1):
        further = []
        for a in frontier:
            for b in adjacent[a]:
                if b in seen:
                    continue
                seen.add(b)
                if asks is not None and not asks(b):
                    continue
                found[b] = k
                if goes_on is None or goes_on(b):
                    further.append(b)
        if not further:
            break
        frontier = further
    return found



def nearer(board: Board, known: dict[str, int], places: list[str], budget: int, enters: Callable[[str], bool],
           goes_on: Callable[[str], bool] | None) -> dict[str, int]:
    """`known`, the distances a `spread` with the same budget and questions found, with
    `places` as more places to start from: each space at its fewest links from the old places
    or the new ones, the same distances as one walk from all of them. Only the spaces that
    come nearer are walked from (a space `known` holds at k links or fewer is where the old
    walk already went on from), so a few places added near many cost a few steps, not a walk
    of the board. Spaces `known` lacks are asked `enters` (once each); those it holds entered
    the old walk. New spaces come after the old ones, in the order they are found.

    (`spread` is this walk with nothing known, written apart: asking a set whether a space was
    seen is quicker than comparing its distance, 49 µs against 64 for a walk of the world map,
    and `spread` runs hundreds of times a game.)"""
    found = dict(known)
    frontier = []
    for s in places:
        if found.get(s) != 0:
            found[s] = 0
            if s in board.spaces:
                frontier.append(s)
    adjacent, asks, goes_on = _walked(board, enters, goes_on)
    refused: set[str] = set()
    for k in range(1, budget + 1):
        further = []
        for a in frontier:
            for b in adjacent[a]:
                d = found.get(b)
                if d is not None:
                    if d <= k:
                        continue
                elif b in refused:
                    continue
                elif asks is not None and not asks(b):
                    refused.add(b)
                    continue
                found[b] = k
                if goes_on is None or goes_on(b):
                    further.append(b)
        if not further:
            break
        frontier = further
    return found


def reach(board: Board, start: str, budget: int, cost: Callable[[str, str, str], int],
          stops: Callable[[str, str, str], bool]) -> list[str]:
    """Every space reachable from `start` spending at most `budget` (cheapest first, then
    by id). A step a→b costs `cost(start, a, b)` (negative: not allowed); a move that
    enters b ends there if `stops(start, a, b)`."""
    best = reach_costs(board, start, budget, cost, stops)
    return sorted((s for s in best if s != start), key=lambda s: (best[s], s))


def reach_costs(board: Board, start: str, budget: int, cost: Callable[[str, str, str], int],
                stops: Callable[[str, str, str], bool]) -> dict[str, int]:
    """What `reach` walks: the least spent to reach each space within `budget`, `start`
    at 0."""
    best = {start: 0}
    ended: set[str] = set()
    heap = [(0, start)]
    visits = 0
    while heap:
        spent, here = heapq.heappop(heap)
        if spent > best.get(here, spent) or here in ended:
            continue
        visits += 1
        if visits > MAX_VISITS:
            break
        for n in board.neighbours(here):
            c = cost(start, here, n)
            if c < 0:
                continue
            total = spent + c
            if total > budget or total >= best.get(n, total + 1):
                continue
            best[n] = total
            if stops(start, here, n):
                ended.add(n)
            else:
                ended.discard(n)
            heapq.heappush(heap, (total, n))
    return best
