"""Where a unit can go this step, and the options that take it there: a route.

The rules move a unit one step per option (LHTR: `go` a unit, then choose one neighbour; again
for the next space). A player clicks the destination, so the client composes the route from the
rules' own options: it tries the options that name the unit, and the questions they ask, on
copies of the state (engine.flow.apply), breadth first, until the unit stands in the space and
the rules ask no more about it. Nothing here knows a rule: what the unit may do next is always
what the rules offer in the state the route has reached, so a route is legal because each of its
options was offered on the way. The window (clients/gui_moves.py) lights and plays them.

The copies roll their own dice (never the game's, which a search must not read ahead), and a
die rolled on the way (a strait's guns, a submarine run past) is part of what a route leaves
different: a route under fire is a choice of its own, never taken silently for a safe one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass

from engine import flow
from engine.actions import Action, Decision, IllegalAction
from engine.ruleset import LoadedRuleset
from engine.state import GameState

from .clicks import Reader

MOST_TRIES = 600        # options tried for one unit before the search stops (a bomber's six moves)
MOST_CHOICES = 4        # routes offered to one space where the route matters
#: the dice states a route's copies roll from, tried in turn while the dice end the unit on
#: the way (a route the dice may end is still a route); none of them is the game's own
ROUTE_DICE = (0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004, 0x5EED_0005, 0x5EED_0006)


@dataclass(frozen=True)
class Route:
    """The options that take `piece` to `to`, and the spaces it passes (its start first)."""

    piece: int
    to: str
    actions: tuple[Action, ...]
    spaces: tuple[str, ...]
    #: what the route leaves different in the game (see `outcome`; empty when not asked)
    outcome: tuple[str, ...] = ()

    @property
    def steps(self) -> int:
        return len(self.spaces) - 1


def asking(decision: Decision | None) -> bool:
    """Whether a decision is a question the rules ask on the way of an option (where the unit
    goes, which cargo), not a step's own decision."""
    return decision is not None and (decision.kind == "choose" or bool(decision.context.get("asked")))


def reach(rs: LoadedRuleset, state: GameState, decision: Decision | None, piece: int,
          shown: Container[str], most: int = MOST_TRIES) -> dict[str, Route]:
    """Every space `piece` can end in by options of `decision`'s player, with the shortest route
    there: the options naming the piece (and, in a question on the way, every answer) tried on
    copies of the state. Its own space is left out."""
    routes: dict[str, Route] = {}
    for route, _ in _walk(rs, state, decision, piece, shown, most, distinct=False):
        routes.setdefault(route.to, route)
    return routes


def choices(rs: LoadedRuleset, state: GameState, decision: Decision | None, piece: int,
            shown: Container[str], most: int = MOST_TRIES, most_each: int = MOST_CHOICES) -> dict[str, list[Route]]:
    """Every space `piece` can end in, with the routes there that leave the game different:
    the shortest first, then each route whose resulting state differs from those before it in
    more than the piece's own record of its move (`outcome`: a space taken on the way, another
    unit's state, a treasury...). Where the route does not matter, one route."""
    out: dict[str, list[Route]] = {}
    for route, _ in _walk(rs, state, decision, piece, shown, most, distinct=True):
        got = out.setdefault(route.to, [])
        if len(got) < most_each and all(r.outcome != route.outcome for r in got):
            got.append(route)
    return out


def under_fire(route: Route) -> list[str]:
    """Why dice are rolled on the way, in the rules' words (the strait's guns at the ship...)."""
    return [e.split("\t", 1)[1] for e in route.outcome if e.startswith("roll\t")]


def taken(route: Route) -> list[str]:
    """The spaces whose holder the route changes, but its end (taken on the way: a blitz)."""
    return [e.split("\t")[1] for e in route.outcome if e.startswith("control\t") and e.split("\t")[1] != route.to]


def outcome(before: GameState, after: GameState, piece: int) -> tuple[str, ...]:
    """What a move leaves different in the game, but for the piece itself and the rules'
    record of it alone (values kept by its id: the moves it spent, where it came from): other
    pieces, who holds what, treasuries, the rules' other variables. Two routes with the same
    outcome are one choice for the player."""
    out: list[str] = []
    for pid, p in after.pieces.items():
        q = before.pieces.get(pid)
        if pid != piece and q is not p and q != p:
            out.append(f"piece {p!r}")
    out += [f"gone {pid}" for pid in before.pieces if pid not in after.pieces and pid != piece]
    out += [f"control\t{k}\t{v}" for k, v in after.control.items() if before.control.get(k) != v]
    out += [f"resource {k} {v}" for k, v in after.resources.items() if before.resources.get(k) != v]
    for ns, d in after.data.items():
        if before.data.get(ns) != d:
            out.append(f"data {ns} {_without(d, piece)!r}" if _without(d, piece) != _without(before.data.get(ns), piece)
                       else "")
    for k, v in after.vars.items():
        w = before.vars.get(k)
        if w != v and _without(v, piece) != _without(w, piece):
            out.append(f"var {k} {v!r}")
    return tuple(sorted(x for x in out if x))


def _without(value: object, piece: int) -> object:
    """A variable's value but for what it keeps by the piece's id."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != piece}
    return value


def _walk(rs: LoadedRuleset, state: GameState, decision: Decision | None, piece: int, shown: Container[str],
          most: int, distinct: bool) -> Iterator[tuple[Route, GameState]]:
    """The routes of `piece` breadth first, each as it ends in a space (the rules asking no more
    about it), with the state it leaves. With `distinct`, a state reached a second way is
    walked on from again when its outcome differs (a space taken on the way)."""
    if decision is None or piece not in state.pieces:
        return
    player, start = decision.player, state.pieces[piece].space
    queue: deque[tuple[GameState, Decision, tuple[Action, ...], tuple[str, ...], tuple[str, ...]]] = deque(
        [(state, decision, (), (start,), ())])
    seen: set[tuple[object, ...]] = set()
    tries = 0
    while queue and tries < most:
        here, d, done, path, fired = queue.popleft()
        for tried in _tried(rs, here, d, piece, shown, player):
            tries += 1
            if tried is None:
                continue
            option, after, nd = tried
            p = after.pieces[piece]
            where = p.space
            trail = path if where == path[-1] else path + (where,)
            actions = done + (option,)
            rolled = fired + tuple(f"roll\t{e[1].get('why') or 'dice'}" for e in after.events if e[0] == "roll")
            differs = tuple(sorted(set(outcome(state, after, piece) + rolled))) if distinct else ()
            if not asking(nd) and where != start and where in shown:
                yield Route(piece, where, actions, trail, differs), after
            key = (repr(p), nd.kind, frozenset(nd.options), differs)
            if key in seen:
                continue
            seen.add(key)
            queue.append((after, nd, actions, trail, rolled))


def refusal(rs: LoadedRuleset, state: GameState, decision: Decision | None, piece: int, target: str,
            shown: Container[str], most: int = MOST_TRIES) -> str | None:
    """Why `piece` cannot end in `target` this step, in the rules' words where they have any:
    from each space the unit can stand in next to `target`, the last step there tried as
    an answer of its own (a question on the way, its space put in) for the rules' refusal.
    None when no step towards `target` is near enough to ask the rules about."""
    if decision is None or piece not in state.pieces:
        return None
    board = state.board
    player = decision.player
    queue: deque[tuple[GameState, Decision]] = deque([(state, decision)])
    seen: set[tuple[object, ...]] = set()
    tries = 0
    while queue and tries < most:
        here, d = queue.popleft()
        p = here.pieces.get(piece)
        if p is None:
            continue
        if asking(d) and target in board and p.space in board and board.adjacent(p.space, target):
            for probe in _put(d, target):
                try:
                    flow.apply(rs, here, probe, dice=ROUTE_DICE[0])
                except IllegalAction as e:
                    return e.reason
        for tried in _tried(rs, here, d, piece, shown, player):
            tries += 1
            if tried is None:
                continue
            _, after, nd = tried
            key = (repr(after.pieces[piece]), nd.kind, frozenset(nd.options))
            if key not in seen:
                seen.add(key)
                queue.append((after, nd))
    return None


def _tried(rs: LoadedRuleset, state: GameState, d: Decision, piece: int, shown: Container[str],
           player: str) -> Iterator[tuple[Action, GameState, Decision] | None]:
    """Each option of `piece` tried on a copy: the option, the state after it and the next
    decision; None for one the rules refuse, or after which the piece is gone or the player's
    turn has passed (yielded still, since each option tried counts against the walk's limit)."""
    for option in _next(rs, state, d, piece, shown):
        got = _play(rs, state, option)
        if got is None:
            yield None
            continue
        after, nd = got
        if nd is None or nd.player != player or piece not in after.pieces:
            yield None
            continue
        yield option, after, nd


def _play(rs: LoadedRuleset, state: GameState, option: Action) -> tuple[GameState, Decision | None] | None:
    """`option` played on a copy rolling dice of its own (ROUTE_DICE), again with the next while
    the dice take a piece that stood (the unit sunk by a strait's guns); None if refused."""
    after: GameState | None = None
    nd: Decision | None = None
    if state._loaded:                      # noqa: SLF001 - dice fixed for the game (a test's) are the game's own
        state = state.copy()
        state._loaded = []                 # noqa: SLF001
    for dice in ROUTE_DICE:
        try:
            after, nd = flow.apply(rs, state, option, dice=dice)
        except IllegalAction:
            return None
        if not any(e[0] == "roll" for e in after.events) or all(pid in after.pieces for pid in state.pieces):
            break
    return None if after is None else (after, nd)


def _put(d: Decision, target: str) -> list[Action]:
    """Answers of a question with `target` put for the space its options give."""
    out: list[Action] = []
    for a in d.options:
        for name, value in a.args.items():
            if isinstance(value, str):
                probe = Action(a.kind, {**a.args, name: target})
                if probe not in out and probe not in d.options:
                    out.append(probe)
    return out[:4]


def _next(rs: LoadedRuleset, state: GameState, d: Decision, piece: int, shown: Container[str]) -> Iterable[Action]:
    """The options that go on with the piece: in a question on the way every answer, else those
    of the step's options that name it."""
    playable = [a for a in d.options if a != d.finish]
    if asking(d):
        return playable
    reader = Reader(d, state, shown)
    return [a for a in playable if piece in reader.named(a)[0]]


def reach_all(rs: LoadedRuleset, state: GameState, decision: Decision | None, pieces: Iterable[int],
              shown: Container[str]) -> dict[str, list[Route]]:
    """For a stack: space -> the routes of those of its pieces that can get there."""
    out: dict[str, list[Route]] = {}
    for pid in sorted(pieces):
        for sid, route in reach(rs, state, decision, pid, shown).items():
            out.setdefault(sid, []).append(route)
    return out
