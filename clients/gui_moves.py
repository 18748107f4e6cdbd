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
from clients.routes import Route, asking, choices, refusal
from clients.routes import taken as routes_taken
from engine.actions import IllegalAction

ROUTE = (255, 214, 90, 230)       # the route drawn to the space under the mouse
OTHER_ROUTE = (255, 214, 90, 110)  # the other routes there that leave the game different (Tab)


@dataclass
class Moving:
    """The window's state of a move by destination: how many of the selection go (None: all),
    and where each route played began in the game's actions (for undo)."""

    count: int | None = None
    starts: list[int] = field(default_factory=list)
    #: which of the routes to a space the click takes (Tab: the next), and to which space
    choice: int = 0
    choice_to: str | None = None


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


def _choices(win: Any) -> dict[int, dict[str, list[Route]]]:
    """For each piece of the selection: space -> the routes there that leave the game
    different (clients.routes.choices), the shortest first."""
    pick, pieces = movers(win)
    if pick is None or not pieces:
        return {}

    def make() -> dict[int, dict[str, list[Route]]]:
        g = win.game
        shown = win.reader().shown
        return {pid: choices(g.ruleset, g.state, g.decision, pid, shown) for pid in pieces}

    return win._cached(("routes", pick, tuple(pieces)), make)  # type: ignore[no-any-return]


def routes(win: Any) -> dict[str, list[Route]]:
    """Where the selection can go by a route, not counting the spaces one option reaches
    (those are lit already): space -> the shortest route there of each piece that can get there."""
    out: dict[str, list[Route]] = {}
    for _, to in sorted(_choices(win).items()):
        for sid, got in to.items():
            out.setdefault(sid, []).append(got[0])
    return {sid: rs for sid, rs in out.items() if any(r.steps > 1 or len(r.actions) > 1 for r in rs)}


def alternatives(win: Any, to: str) -> list[Route]:
    """The routes to `to` a player chooses between (Tab), those of the first piece of the
    selection that can get there: more than one only where the route matters."""
    if to not in routes(win):
        return []
    for _, got in sorted(_choices(win).items()):
        if to in got:
            return got[to]
    return []


def chosen(win: Any, to: str) -> Route | None:
    """The route to `to` a click takes: the one Tab came to, else the shortest."""
    alts = alternatives(win, to)
    if not alts:
        return None
    return alts[win.moving.choice % len(alts)] if win.moving.choice_to == to else alts[0]


def next_route(win: Any) -> bool:
    """Tab: the next route to the space under the mouse, where there are several. False when
    there is no choice to make there."""
    to = win.hovered
    alts = alternatives(win, to) if to is not None else []
    if len(alts) < 2:
        return False
    m = win.moving
    m.choice = (m.choice + 1) % len(alts) if m.choice_to == to else 1
    m.choice_to = to
    win.hover_text = win.describe(to)
    win._build_overlay()
    win.invalidate()
    return True


def route_words(win: Any, to: str) -> str:
    """What the routes to `to` are, where the route matters: which the click takes, the way
    each goes and what it takes on the way ("" where there is one route)."""
    alts = alternatives(win, to)
    if len(alts) < 2:
        return ""
    route = chosen(win, to)
    lines = [f"{len(alts)} routes to {win.place_name(to)} (Tab: the next):"]
    for i, r in enumerate(alts, 1):
        mark = "▶" if r == route else "  "
        lines.append(f"{mark} {i}. {_way(win, r)}")
    return "\n".join(lines)


def _way(win: Any, r: Route) -> str:
    """A route in words: the spaces it passes and those it takes on the way."""
    through = [win.place_name(s) for s in r.spaces[1:-1]]
    taken = [win.place_name(s) for s in routes_taken(r)]
    words = ("through " + ", ".join(through)) if through else "straight there"
    return words + (f", taking {', '.join(taken)}" if taken else "")


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
    way = chosen(win, sid)                  # the route Tab came to, else the shortest
    before, start = game.state, len(game.actions)
    moved: list[int] = []
    refused = ""
    last = None
    for pid in pieces:
        if len(moved) >= n:
            break
        if pid not in game.state.pieces or game.decision is None or game.decision.player != d.player:
            break
        offered = choices(game.ruleset, game.state, game.decision, pid, win.reader().shown).get(sid, [])
        route = next((r for r in offered if way is not None and r.spaces == way.spaces), offered[0] if offered else None)
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
    win.moving.choice, win.moving.choice_to = 0, None
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
    """The route to the space under the mouse, drawn from space to space, with a dot at each;
    where the route matters, the other routes there drawn fainter (Tab takes the next)."""
    hovered = win.hovered
    if hovered is None or win.map is None or hovered not in routes(win):
        return []
    route = chosen(win, hovered)
    if route is None:
        return []
    hexes = win.map.hexes
    width = max(2.5, min(5.0, win.map.size * 0.06))
    out: list[Any] = []
    for r in sorted(alternatives(win, hovered), key=lambda r: r == route):
        points = [win.map.world(s) for s in r.spaces if s in hexes]
        colour, w = (ROUTE, width) if r == route else (OTHER_ROUTE, width * 0.6)
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            out.append(shapes.Line(x0, y0, x1, y1, thickness=w, color=colour, batch=batch))
        for x, y in points[1:]:
            out.append(shapes.Circle(x, y, w * 1.4, color=colour, batch=batch))
    return out
