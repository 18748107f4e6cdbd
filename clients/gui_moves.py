"""Moving by the destination in the window: a unit or a stack is selected, every space it can
reach this step is lit, and one click there moves it (or N of the stack) along a route.

The rules offer one step at a time; clients/routes.py composes the routes from those options.
This module is the window's side of it: which pieces the selection moves, where they can go
(lit), the route drawn under the mouse, how many of the stack go ([ and ]), and playing the
routes, one unit after another, each from the state the last one left. Where the route matters
the click asks which, with the mouse (clients/gui_route_chooser.py). Undo takes a whole route
back at once (`undo_route`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyglet import shapes

from clients import gui_route_chooser
from clients.clicks import Pick
from clients.routes import Route, asking, choices, refusal, under_fire
from clients.routes import taken as routes_taken
from engine.actions import IllegalAction

ROUTE = (255, 214, 90, 230)       # the route drawn to the space under the mouse


@dataclass
class Moving:
    """The window's state of a move by destination: how many of the selection go (None: all),
    where each route played began in the game's actions and what it moved (for undo), and the
    route being chosen, where the route matters."""

    count: int | None = None
    starts: list[int] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    undone: str = ""
    asking: gui_route_chooser.Choice | None = None


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
    """The routes to `to` a player chooses between, those of the first piece of the selection
    that can get there: more than one only where the route matters."""
    if to not in routes(win):
        return []
    for _, got in sorted(_choices(win).items()):
        if to in got:
            return got[to]
    return []


def route_words(win: Any, to: str) -> str:
    """What the routes to `to` are, where the route matters, and that a click asks which
    ("" where there is one route)."""
    alts = alternatives(win, to)
    if len(alts) < 2 or gui_route_chooser.current(win) is not None:
        return ""
    lines = [f"{len(alts)} routes to {win.place_name(to)}: a click asks which"]
    lines += [f"  {i}. {way_words(win, r)}" for i, r in enumerate(alts, 1)]
    return "\n".join(lines)


def way_words(win: Any, r: Route) -> str:
    """A route in words: the spaces it passes, those it takes on the way, the dice it meets."""
    through = [win.place_name(s) for s in r.spaces[1:-1]]
    taken = [win.place_name(s) for s in routes_taken(r)]
    fire = under_fire(r)
    words = ("through " + ", ".join(through)) if through else "straight there"
    words += f" ({r.steps} space{'s' if r.steps != 1 else ''})"
    words += f", taking {', '.join(taken)}" if taken else ""
    words += "".join(f"; under fire: {f}" for f in fire)
    return words


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


def take(win: Any, sid: str, way: Route | None = None) -> bool:
    """A click on `sid`: when the selection can get there only by a route, play it (for as many
    units as are counted) and say so; where the route matters and `way` is not given, ask
    which first (the mouse picks one of the routes drawn). False when the click is not such a
    destination."""
    if sid not in routes(win):
        return False
    if way is None:
        alts = alternatives(win, sid)
        if len(alts) > 1:
            gui_route_chooser.open_choice(win, sid, alts)
            return True
        way = alts[0] if alts else None
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
    win.moving.told.append(_told(win, moved, sid, before))
    win.moving.count = None
    win.moving.asking = None
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


def _told(win: Any, moved: list[int], to: str, before: Any = None) -> str:
    """The move in words: "move 2 Infantry from Karelia S.S.R. to West Russia" (where from, given
    the state before it)."""
    state = win.game.state
    kinds: dict[str, int] = {}
    froms: set[str] = set()
    for pid in moved:
        p = state.pieces.get(pid) or (before.pieces.get(pid) if before is not None else None)
        if p is None:
            continue
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
        if before is not None and pid in before.pieces:
            froms.add(before.pieces[pid].space)
    what = ", ".join(f"{n} {k}" if n > 1 else k for k, n in kinds.items())
    start = f" from {win.place_name(froms.pop())}" if len(froms) == 1 else ""
    return f"move {what}{start} to {win.place_name(to)}"


def undo_route(win: Any) -> int:
    """Take back the last route played whole (its several options), and say which in
    `win.moving.undone` ("" for none). 0 when the last thing to undo is no route of this step
    (U then undoes as usual)."""
    game = win.game
    starts, told = win.moving.starts, win.moving.told
    win.moving.undone = ""
    while starts and starts[-1] >= len(game.actions):
        starts.pop()
        if told:
            told.pop()
    if not starts:
        return 0
    start = starts.pop()
    what = told.pop() if told else ""
    taken = 0
    while len(game.actions) > start and game.can_undo(win.mine):
        taken += game.undo(win.mine)
    if taken:
        win.moving.undone = what
    return taken


def undone_words(win: Any, n: int) -> str:
    """What U just took back, for the panel and the log: the route move by name ("Undone: move
    Tank from Eastern Europe to West Russia (2 actions)"), else how many actions."""
    what = win.moving.undone
    win.moving.undone = ""
    count = f"{n} action{'s' if n != 1 else ''}"
    if what:
        return f"Undone: {what} ({count})"
    return f"Undone: {count}" + (" (yours and the computer's answers)" if n > 1 else "")


def lines(win: Any, batch: Any) -> list[Any]:
    """The route to the space under the mouse, drawn from space to space, with a dot at each;
    where the route matters, every route there in a colour of its own (a click asks which).
    While a route is being chosen, the routes offered and the box of their words."""
    if gui_route_chooser.current(win) is not None:
        return gui_route_chooser.draw(win, batch)
    hovered = win.hovered
    if hovered is None or win.map is None or hovered not in routes(win):
        return []
    alts = alternatives(win, hovered)
    if not alts:
        return []
    hexes = win.map.hexes
    width = max(2.5, min(5.0, win.map.size * 0.06))
    out: list[Any] = []
    for i, r in reversed(list(enumerate(alts))):           # the shortest drawn last, on top
        points = [win.map.world(s) for s in r.spaces if s in hexes]
        colour = ROUTE if len(alts) == 1 else gui_route_chooser.colour(i, 230)
        w = width if i == 0 else width * 0.75
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            out.append(shapes.Line(x0, y0, x1, y1, thickness=w, color=colour, batch=batch))
        for x, y in points[1:]:
            out.append(shapes.Circle(x, y, w * 1.4, color=colour, batch=batch))
    return out
