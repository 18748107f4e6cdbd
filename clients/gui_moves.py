"""Moving by the destination in the window: a unit or a stack is selected, every space it can
reach this step is lit, and one click there moves it (or N of the stack) along a route.

The rules offer one step at a time; clients/routes.py composes the routes from those options.
This module is the window's side of it: which pieces the selection moves, where they can go
(lit), the route drawn under the mouse, how many of the stack go ([ and ]), and playing the
routes, one unit after another, each from the state the last one left. Undo takes a whole route
back at once (`undo_route`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyglet import shapes

from clients.clicks import Pick
from clients.routes import Route, asking, reach, reach_all, refusal
from engine.actions import IllegalAction

ROUTE = (255, 214, 90, 230)       # the route drawn to the space under the mouse


@dataclass
class Moving:
    """The window's state of a move by destination: how many of the selection go (None: all),
    and where each route played began in the game's actions (for undo)."""

    count: int | None = None
    starts: list[int] = field(default_factory=list)


def movers(win: Any) -> tuple[Pick | None, list[int]]:
    """The selection a destination click moves, and its pieces the rules can move now: the
    picked stack's, or the unit the rules are asking about (after a click played its `go`)."""
    d = win.decision
    if d is None or not win.human_turn():
        return None, []
    if win.pick is not None and not asking(d):
        r = win.reader()
        named: set[int] = set()
        for a in win.candidates():
            named |= r.named(a)[0]
        return win.pick, sorted(named & win.pick.pieces)
    focus = win.focus
    if win.pick is None and focus is not None and asking(d):
        here = set(win.game.state.ids_at(focus.space))
        return focus, sorted(p for p in focus.pieces if p in here)
    return None, []


def routes(win: Any) -> dict[str, list[Route]]:
    """Where the selection can go by a route, not counting the spaces one option reaches
    (those are lit already): space -> the routes of the pieces that can get there."""
    pick, pieces = movers(win)
    if pick is None or not pieces:
        return {}

    def make() -> dict[str, list[Route]]:
        g = win.game
        got = reach_all(g.ruleset, g.state, g.decision, pieces, win.reader().shown)
        return {sid: rs for sid, rs in got.items() if any(r.steps > 1 or len(r.actions) > 1 for r in rs)}

    return win._cached(("routes", pick, tuple(pieces)), make)  # type: ignore[no-any-return]


def how_many(win: Any, to: str) -> int:
    """How many of the selection a click on `to` moves."""
    n = len(routes(win).get(to, []))
    count = win.moving.count
    return n if count is None else max(1, min(count, n))


def change_count(win: Any, by: int) -> bool:
    """[ and ]: move one more or one fewer of the selected stack. False when nothing to count."""
    _, pieces = movers(win)
    if len(pieces) < 2:
        return False
    now = win.moving.count if win.moving.count is not None else len(pieces)
    win.moving.count = max(1, min(len(pieces), now + by))
    win.notice = f"Moving {win.moving.count} of {len(pieces)}: click where they go ([ and ] to change)"
    win.refresh(map_changed=False)
    return True


def take(win: Any, sid: str) -> bool:
    """A click on `sid`: when the selection can get there only by a route, play it (for as many
    units as are counted) and say so. False when the click is not such a destination."""
    if sid not in routes(win):
        return False
    pick, pieces = movers(win)
    game = win.game
    d = game.decision
    n = how_many(win, sid)
    before, start = game.state, len(game.actions)
    moved: list[int] = []
    refused = ""
    last = None
    for pid in pieces:
        if len(moved) >= n:
            break
        if pid not in game.state.pieces or game.decision is None or game.decision.player != d.player:
            break
        route = reach(game.ruleset, game.state, game.decision, pid, win.reader().shown).get(sid)
        if route is None:
            continue
        mark = len(game.actions)
        try:
            for action in route.actions:
                game.play(action)
                last = action
        except IllegalAction as e:
            refused = e.reason
            while len(game.actions) > mark and game.can_undo():
                game.undo()
            break
        moved.append(pid)
    if not moved:
        win.refusal = refused or f"no route to {win.place_name(sid)}"
        win.refresh(map_changed=False)
        return True
    win.moving.starts.append(start)
    win.moving.count = None
    win.refusal = refused
    win.why = ""
    win.notice = ""
    win.computer_moves = []
    win._after_action(human=True, source=(d.kind, d.player, _told(win, moved, sid)), before=before, action=last)
    if win.pick is None and pick is not None and win.focus is None:
        win.focus = None
    return True


def refuse(win: Any, click: Pick) -> bool:
    """A click on a space the selection cannot go to (not lit, and no units of the player's to
    pick there): say why, in the rules' words where they have any, and keep the selection.
    False when there is no selection to move, or the click picks something else."""
    pick, pieces = movers(win)
    if pick is None or not pieces or click.space == pick.space:
        return False
    if win.reader().by_pieces(click) or click.space in routes(win):
        return False
    lit = win.targets()[0] if win.pick is not None else win.at_rest()[0]
    if click.space in lit:
        return False
    g = win.game
    first = g.state.pieces[pieces[0]]
    reason = refusal(g.ruleset, g.state, g.decision, pieces[0], click.space, win.reader().shown)
    if reason is None:
        unit = win.words(first.kind)
        here = win.place_name(first.space)
        reason = (f"the {unit} in {here} cannot get there this step"
                  + (f" (it can reach the {len(lit)} lit)" if lit else ""))
    win.why = f"Not to {win.place_name(click.space)}: {reason}"
    win.refresh(map_changed=False)
    return True


def _told(win: Any, moved: list[int], to: str) -> str:
    state = win.game.state
    kinds: dict[str, int] = {}
    for pid in moved:
        p = state.pieces.get(pid)
        if p is not None:
            kinds[p.kind] = kinds.get(p.kind, 0) + 1
    what = ", ".join(f"{n} {k}" if n > 1 else k for k, n in kinds.items())
    return f"move {what} to {win.place_name(to)}"


def undo_route(win: Any) -> int:
    """Take back the last route played whole (its several options). 0 when the last thing to
    undo is no route of this step (U then undoes as usual)."""
    game = win.game
    starts = win.moving.starts
    while starts and starts[-1] >= len(game.actions):
        starts.pop()
    if not starts:
        return 0
    start = starts.pop()
    taken = 0
    while len(game.actions) > start and game.can_undo(win.mine):
        taken += game.undo(win.mine)
    return taken


def lines(win: Any, batch: Any) -> list[Any]:
    """The route to the space under the mouse, drawn from space to space, with a dot at each."""
    hovered = win.hovered
    if hovered is None:
        return []
    got = routes(win).get(hovered)
    if not got or win.map is None:
        return []
    route = got[0]
    hexes = win.map.hexes
    points = [win.map.world(s) for s in route.spaces if s in hexes]
    width = max(2.5, min(5.0, win.map.size * 0.06))
    out: list[Any] = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        out.append(shapes.Line(x0, y0, x1, y1, thickness=width, color=ROUTE, batch=batch))
    for x, y in points[1:]:
        out.append(shapes.Circle(x, y, width * 1.4, color=ROUTE, batch=batch))
    return out
