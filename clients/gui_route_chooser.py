"""Choosing a route with the mouse, where the route matters.

A click on a space the selection can reach by routes that leave the game different (a space
taken on the way, a strait's guns firing at the ship: clients/routes.py decides, from the
rules' own states) does not move yet: each route is drawn in a colour of its own with its
number, a box beside them says in words what each one does, and a click on a route (its line,
a space only it passes, or its row in the box) plays it. Esc, or a click elsewhere, cancels and
keeps the selection. Where the routes to a space leave the game the same, no question is
asked (clients/gui_moves.py moves by the shortest).

The box never covers the destination or the routes: it is put at the free place nearest the
destination (away from the legend too), and where the view has no such place the map is
moved or zoomed out until it has.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyglet
from pyglet import shapes

from clients.routes import Route

Point = tuple[float, float]
Rect = tuple[float, float, float, float]            # x, y, width, height (screen pixels)
Segment = tuple[float, float, float, float]

#: each route's own colour, in the order offered (the shortest first)
COLOURS = ((255, 214, 90), (90, 200, 255), (255, 120, 210), (140, 230, 110))
BOX_BG = (24, 28, 36, 235)
BOX_EDGE = (200, 200, 210, 255)
TEXT = (235, 235, 240, 255)
DIM = (170, 175, 185, 255)
FONT = "DejaVu Sans"
PAD = 8                 # inside the box
CLEAR = 12              # between the box and what it must not cover (a route number's badge is 10 in radius)
NEAR = 12               # how near a route's line a click takes it (pixels)


@dataclass
class Choice:
    """A route being chosen: where to, the routes offered, the selection they belong to, the
    row the mouse is on, and the box as last placed (pixels from the map's offset, so that it
    stays beside the routes when the map is dragged)."""

    to: str
    routes: list[Route]
    pick: Any
    hover: int | None = None
    box: Rect | None = None
    rows: list[Rect] = field(default_factory=list)
    placed_for: Any = None


def colour(i: int, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*COLOURS[i % len(COLOURS)], alpha)


# -- geometry ------------------------------------------------------------------------------------
def route_points(view: Any, route: Route) -> list[Point]:
    """The route's spaces on screen (those the map draws)."""
    return [view.screen(s) for s in route.spaces if s in view.hexes]


def segments(view: Any, route: Route) -> list[Segment]:
    pts = route_points(view, route)
    return [(x0, y0, x1, y1) for (x0, y0), (x1, y1) in zip(pts, pts[1:])]


def own_segments(view: Any, routes: Sequence[Route]) -> list[list[Segment]]:
    """Each route's legs that not every route shares (the start and the end are common to all:
    a click there says nothing about which route)."""
    legs = [[(a, b) for a, b in zip(r.spaces, r.spaces[1:]) if a in view.hexes and b in view.hexes] for r in routes]
    out: list[list[Segment]] = []
    for mine in legs:
        own = [leg for leg in mine if not all(leg in other for other in legs)] or mine
        out.append([(*view.screen(a), *view.screen(b)) for a, b in own])
    return out


def space_rings(view: Any, sid: str) -> list[list[Point]]:
    """The outline(s) of a space on screen: a world map's polygons, or a hex's corners."""
    ox, oy = view.offset
    geo = getattr(view, "geo", None)
    if geo is not None and sid in geo.spaces:
        s = view.size
        return [[(x * s + ox, y * s + oy) for x, y in poly[0]] for poly in geo.spaces[sid].polygons if poly]
    corners = getattr(view, "corners", None)
    if corners is not None:
        return [[(x + ox, y + oy) for x, y in corners(sid)]]
    x, y = view.screen(sid)
    r = view.size
    return [[(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]]


def distance(px: float, py: float, seg: Segment) -> float:
    """From a point to a segment."""
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / n))
    return math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


def _crosses(a: Segment, b: Segment) -> bool:
    def side(px: float, py: float, qx: float, qy: float, rx: float, ry: float) -> float:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    d1, d2 = side(bx0, by0, bx1, by1, ax0, ay0), side(bx0, by0, bx1, by1, ax1, ay1)
    d3, d4 = side(ax0, ay0, ax1, ay1, bx0, by0), side(ax0, ay0, ax1, ay1, bx1, by1)
    return (d1 * d2 < 0) and (d3 * d4 < 0)


def touches(rect: Rect, seg: Segment, margin: float = 0.0) -> bool:
    """Whether a segment passes through the rectangle (grown by `margin`)."""
    x, y, w, h = rect[0] - margin, rect[1] - margin, rect[2] + 2 * margin, rect[3] + 2 * margin
    x0, y0, x1, y1 = seg
    if max(x0, x1) < x or min(x0, x1) > x + w or max(y0, y1) < y or min(y0, y1) > y + h:
        return False
    if x <= x0 <= x + w and y <= y0 <= y + h or x <= x1 <= x + w and y <= y1 <= y + h:
        return True
    sides = ((x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y))
    return any(_crosses(seg, s) for s in sides)


def inside(ring: Sequence[Point], px: float, py: float) -> bool:
    """Point in polygon (even-odd)."""
    hit = False
    n = len(ring)
    for i in range(n):
        x0, y0 = ring[i]
        x1, y1 = ring[(i + 1) % n]
        if (y0 > py) != (y1 > py) and px < x0 + (py - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def covers_space(rect: Rect, rings: Sequence[Sequence[Point]], margin: float = 0.0) -> bool:
    """Whether the rectangle (grown by `margin`) overlaps any of the rings."""
    x, y, w, h = rect[0] - margin, rect[1] - margin, rect[2] + 2 * margin, rect[3] + 2 * margin
    grown = (x, y, w, h)
    for ring in rings:
        if not ring:
            continue
        xs, ys = [p[0] for p in ring], [p[1] for p in ring]
        if max(xs) < x or min(xs) > x + w or max(ys) < y or min(ys) > y + h:
            continue
        if any(inside(ring, cx, cy) for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))):
            return True
        n = len(ring)
        if any(touches(grown, (*ring[i], *ring[(i + 1) % n])) for i in range(n)):
            return True
    return False


def overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def place(size: tuple[float, float], area: Rect, near: Point, segs: Iterable[Segment],
          rings: Sequence[Sequence[Point]], avoid: Iterable[Rect] = ()) -> Rect | None:
    """The free place for a box of `size` nearest `near`, inside `area`: it touches none of
    the segments, rings nor rectangles to avoid (CLEAR pixels round them). None when the area
    has none."""
    w, h = size
    ax, ay, aw, ah = area
    segs, avoid = list(segs), list(avoid)
    if w > aw - 2 * CLEAR or h > ah - 2 * CLEAR:
        return None
    step = 12
    spots: list[tuple[float, float, float]] = []
    y = ay + CLEAR
    while y + h <= ay + ah - CLEAR:
        x = ax + CLEAR
        while x + w <= ax + aw - CLEAR:
            cx, cy = x + w / 2, y + h / 2
            spots.append(((cx - near[0]) ** 2 + (cy - near[1]) ** 2, x, y))
            x += step
        y += step
    for _, x, y in sorted(spots):
        rect = (x, y, w, h)
        if any(overlaps(rect, (r[0] - CLEAR, r[1] - CLEAR, r[2] + 2 * CLEAR, r[3] + 2 * CLEAR)) for r in avoid):
            continue
        if any(touches(rect, s, CLEAR) for s in segs):
            continue
        if covers_space(rect, rings, CLEAR):
            continue
        return rect
    return None


# -- the window's side -------------------------------------------------------------------------
def rows_text(win: Any, choice: Choice) -> list[str]:
    """Each route in words: its number, the spaces it passes, what it takes or meets on the way."""
    from clients.gui_moves import way_words

    return [f"{i}. {way_words(win, r)}" for i, r in enumerate(choice.routes, 1)]


def title(win: Any, choice: Choice) -> str:
    return f"{len(choice.routes)} routes to {win.place_name(choice.to)}: click one (Esc: cancel)"


def _measure(text: str, size: float, width: float | None = None, bold: bool = False) -> tuple[float, float]:
    label = pyglet.text.Label(text, font_name=FONT, font_size=size, weight="bold" if bold else "normal",
                              multiline=width is not None, width=int(width) if width else None)
    return label.content_width, label.content_height


def layout(win: Any, choice: Choice) -> tuple[float, float, list[float], float]:
    """The box's width and height, each row's height and the title's, for the map's room."""
    area = win.map_area()
    most = max(220.0, min(460.0, area[2] * 0.42))
    words = [title(win, choice)] + rows_text(win, choice)
    widest = max(_measure(t, 9, bold=i == 0)[0] for i, t in enumerate(words))
    width = min(most, widest + 2 * PAD + 4)
    inner = width - 2 * PAD
    head = _measure(words[0], 9, inner, bold=True)[1]
    rows = [_measure(t, 9, inner - 9)[1] + 6 for t in words[1:]]
    return width, head + sum(rows) + 2 * PAD + 4, rows, head


def place_box(win: Any, choice: Choice) -> Rect | None:
    """Where the box goes on screen: beside the routes, never on them, on the destination nor
    on the legend. When the view has no room, the map is centred on the routes, then zoomed
    out a step at a time (at most three), and placed again."""
    view = win.map
    width, height, _, _ = layout(win, choice)
    area = win.map_area()
    avoid = [r for r in (getattr(win, "legend_rect", None),) if r is not None]
    for attempt in range(5):
        segs = [s for r in choice.routes for s in segments(view, r)]
        rings = space_rings(view, choice.to)
        near = view.screen(choice.to)
        rect = place((width, height), area, near, segs, rings, avoid)
        if rect is not None:
            return rect
        pts = [p for r in choice.routes for p in route_points(view, r)]
        if attempt == 0 and pts:
            cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
            view.pan(area[0] + area[2] / 2 - cx, area[1] + area[3] / 2 - cy)
        elif not view.zoom(1 / 1.3, (area[0] + area[2] / 2, area[1] + area[3] / 2)):
            break
        win._map_dirty = True
    return None


def open_choice(win: Any, to: str, routes: list[Route]) -> None:
    """Ask which route: the routes drawn, the box placed (the map moved if it must)."""
    win.moving.asking = Choice(to, list(routes), win.pick)
    win.notice = "Click a route on the map (Esc: cancel)"
    win.hover_text = ""
    win.refresh()


def current(win: Any) -> Choice | None:
    """The route being chosen, if the selection is still the one it was asked for."""
    from clients.gui_moves import movers

    choice: Choice | None = getattr(win.moving, "asking", None)
    if choice is None:
        return None
    if win.pick is not choice.pick or win.game is None or not win.human_turn() \
            or choice.routes[0].piece not in movers(win)[1]:
        win.moving.asking = None            # the selection cleared or changed, the turn passed
        return None
    return choice


def cancel(win: Any) -> bool:
    """Esc: no route taken, the selection kept. False when no route was being chosen."""
    if current(win) is None:
        return False
    win.moving.asking = None
    win.notice = "No move made: the route was not chosen"
    win.refresh(map_changed=False)
    return True


def which(win: Any, choice: Choice, x: float, y: float) -> int | None:
    """The route at a screen point: its row in the box, its own line near, or a space only it
    passes. None for none."""
    ox, oy = win.map.offset
    for i, (rx, ry, rw, rh) in enumerate(choice.rows):
        if rx + ox <= x < rx + ox + rw and ry + oy <= y < ry + oy + rh:
            return i
    legs = own_segments(win.map, choice.routes)
    near = sorted((min((distance(x, y, s) for s in segs), default=math.inf), i) for i, segs in enumerate(legs))
    if near and near[0][0] <= NEAR and (len(near) < 2 or near[1][0] - near[0][0] > 2):
        return near[0][1]
    sid = win.map.space_at(x, y) if win.in_map(x, y) else None
    if sid is not None and sid != choice.to:
        on = [i for i, r in enumerate(choice.routes) if sid in r.spaces[1:-1]]
        if len(on) == 1:
            return on[0]
    return None


def in_box(win: Any, choice: Choice, x: float, y: float) -> bool:
    if choice.box is None:
        return False
    bx, by, bw, bh = choice.box
    ox, oy = win.map.offset
    return bx + ox <= x < bx + ox + bw and by + oy <= y < by + oy + bh


def hover(win: Any, x: float, y: float) -> bool:
    """The mouse over a route or its row lights it. Whether what is lit changed."""
    choice = current(win)
    if choice is None:
        return False
    at = which(win, choice, x, y)
    if at == choice.hover:
        return False
    choice.hover = at
    return True


def click(win: Any, x: float, y: float) -> bool:
    """A click while a route is being chosen: on a route, play it; on the box or the
    destination, nothing (the question stays); elsewhere, cancel. False when no route is being
    chosen (the click is the window's as usual)."""
    from clients.gui_moves import take

    choice = current(win)
    if choice is None:
        return False
    at = which(win, choice, x, y)
    if at is not None:
        win.moving.asking = None
        take(win, choice.to, way=choice.routes[at])
        return True
    if in_box(win, choice, x, y) or (win.in_map(x, y) and win.map.space_at(x, y) == choice.to):
        win.notice = f"Click one of the {len(choice.routes)} routes (or its row in the box); Esc: cancel"
        win.refresh(map_changed=False)
        return True
    return cancel(win)


def draw(win: Any, batch: Any) -> list[Any]:
    """The routes, each in its colour and numbered, and the box of their words (in pixels
    from the map's offset: the overlay is drawn moved by it). The box is placed first: the
    map may move to make room for it."""
    choice = current(win)
    if choice is None:
        return []
    view = win.map
    key = (view.offset, view.size, win.map_area(), getattr(win, "legend_rect", None))
    if choice.placed_for != key or choice.box is None:
        rect = place_box(win, choice)
        if rect is None:                             # no room at all: the corner, the routes drawn over it
            ax, ay, aw, ah = win.map_area()
            bw, bh, _, _ = layout(win, choice)
            rect = (ax + CLEAR, ay + ah - bh - CLEAR, bw, bh)
        choice.box = (rect[0] - view.offset[0], rect[1] - view.offset[1], rect[2], rect[3])
        choice.placed_for = (view.offset, view.size, win.map_area(), getattr(win, "legend_rect", None))
    ox, oy = view.offset
    out: list[Any] = []
    width = max(3.0, min(6.0, view.size * 0.07))
    order = sorted(range(len(choice.routes)), key=lambda i: i == choice.hover)   # the lit one on top
    legs = own_segments(view, choice.routes)
    for i in order:
        lit = choice.hover is None or choice.hover == i
        w = width * (1.4 if choice.hover == i else 1.0)
        c = colour(i, 255 if lit else 150)
        pts = route_points(view, choice.routes[i])
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            out.append(shapes.Line(x0 - ox, y0 - oy, x1 - ox, y1 - oy, thickness=w, color=c, batch=batch))
        for x, y in pts[1:]:
            out.append(shapes.Circle(x - ox, y - oy, w * 1.3, color=c, batch=batch))
        if legs[i]:
            x0, y0, x1, y1 = legs[i][0]
            mx, my = (x0 + x1) / 2 - ox, (y0 + y1) / 2 - oy
            out.append(shapes.Circle(mx, my, 10, color=(20, 20, 24, 235), batch=batch))
            out.append(shapes.Circle(mx, my, 8, color=c, batch=batch))
            out.append(pyglet.text.Label(str(i + 1), x=mx, y=my, anchor_x="center", anchor_y="center",
                                         font_name=FONT, font_size=9, weight="bold", color=(20, 20, 24, 255),
                                         batch=batch, group=pyglet.graphics.Group(order=5)))
    return out + _box(win, choice, batch)


def _box(win: Any, choice: Choice, batch: Any) -> list[Any]:
    out: list[Any] = []
    assert choice.box is not None
    bx, by, bw, bh = choice.box
    width, height, rows, head = layout(win, choice)
    back, front = pyglet.graphics.Group(order=4), pyglet.graphics.Group(order=5)
    out.append(shapes.Rectangle(bx, by, bw, bh, color=BOX_BG, batch=batch, group=back))
    out.append(shapes.Box(bx, by, bw, bh, thickness=1, color=BOX_EDGE, batch=batch, group=back))
    inner = bw - 2 * PAD
    top = by + bh - PAD
    out.append(pyglet.text.Label(title(win, choice), x=bx + PAD, y=top, anchor_y="top", multiline=True,
                                 width=int(inner), font_name=FONT, font_size=9, weight="bold", color=TEXT,
                                 batch=batch, group=front))
    top -= head + 4
    choice.rows = []
    for i, (text, h) in enumerate(zip(rows_text(win, choice), rows)):
        lit = choice.hover == i
        if lit:
            out.append(shapes.Rectangle(bx + 2, top - h, bw - 4, h, color=(*COLOURS[i % len(COLOURS)], 70),
                                        batch=batch, group=back))
        out.append(shapes.Rectangle(bx + PAD, top - h + 5, 4, h - 8, color=colour(i), batch=batch, group=front))
        out.append(pyglet.text.Label(text, x=bx + PAD + 9, y=top - 3, anchor_y="top", multiline=True,
                                     width=int(inner - 9), font_name=FONT, font_size=9,
                                     color=TEXT if lit or choice.hover is None else DIM, batch=batch, group=front))
        choice.rows.append((bx, top - h, bw, h))
        top -= h
    return out
