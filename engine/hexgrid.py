"""Hex-grid geometry for hex maps: axial coordinates, neighbours, distance, lines and the
pixel layout of pointy-top hexes.

Pointy-top hexes have sides facing E, NE, NW, W, SW and SE; the Battle of the Bulge rules
speak of those directions ("the three hexes on its eastern sides").  Offset labels use the
"odd-r" layout that printed boards number as column-row.
"""

from __future__ import annotations

import math
from typing import NamedTuple


class Hex(NamedTuple):
    """A hex in axial coordinates (q to the east, r to the south-east)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: tuple[int, ...]) -> Hex:  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])


#: Direction name -> axial step, for pointy-top hexes, anticlockwise from east.
DIRECTIONS: dict[str, Hex] = {
    "E": Hex(1, 0),
    "NE": Hex(1, -1),
    "NW": Hex(0, -1),
    "W": Hex(-1, 0),
    "SW": Hex(-1, 1),
    "SE": Hex(0, 1),
}
_STEP_NAME = {step: name for name, step in DIRECTIONS.items()}
EASTERN = ("NE", "E", "SE")
WESTERN = ("NW", "W", "SW")


def neighbour(h: Hex, direction: str) -> Hex:
    d = DIRECTIONS[direction]
    return Hex(h.q + d.q, h.r + d.r)


def neighbours(h: Hex) -> list[Hex]:
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS.values()]


def direction(a: Hex, b: Hex) -> str | None:
    """The side of `a` that faces `b`, or None when they are not adjacent."""
    return _STEP_NAME.get(Hex(b.q - a.q, b.r - a.r))


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_round(q: float, r: float) -> Hex:
    """The hex that contains fractional axial coordinates (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from `a` to `b`, both included."""
    n = distance(a, b)
    if n == 0:
        return [a]
    # a tiny nudge keeps lines that run exactly along hex edges deterministic
    aq, ar = a.q + 1e-6, a.r + 1e-6
    bq, br = b.q + 1e-6, b.r + 1e-6
    return [hex_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def ring(center: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [center]
    h = Hex(center.q + DIRECTIONS["SW"].q * radius, center.r + DIRECTIONS["SW"].r * radius)
    out = []
    for name in ("E", "NE", "NW", "W", "SW", "SE"):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, name)
    return out


SQRT3 = math.sqrt(3.0)


def to_pixel(h: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius `size`; y grows downwards (screen rows)."""
    x = size * (SQRT3 * h.q + SQRT3 / 2 * h.r)
    y = size * (1.5 * h.r)
    return origin[0] + x, origin[1] + y


def from_pixel(x: float, y: float, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> Hex:
    px, py = (x - origin[0]) / size, (y - origin[1]) / size
    q = SQRT3 / 3 * px - py / 3
    r = 2 / 3 * py
    return hex_round(q, r)


def corners(h: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    cx, cy = to_pixel(h, size, origin)
    return [
        (cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial -> (col, row) in the odd-r offset layout (odd rows shoved right)."""
    col = h.q + (h.r - (h.r & 1)) // 2
    return col, h.r


def from_offset(col: int, row: int) -> Hex:
    return Hex(col - (row - (row & 1)) // 2, row)
