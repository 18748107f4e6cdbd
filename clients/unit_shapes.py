"""Silhouettes that tell ships and aircraft apart at a glance on a counter: battleship, carrier,
destroyer, transport, submarine, fighter and bomber.

A NATO frame says "ship" or "aircraft" and no more; a player of a world map reads a fleet by its
ships. Which silhouette a unit type gets is read from what the ruleset says of it, never from its
name: a `silhouette` stat naming one, else its tags and stats (a sea unit carrying aircraft is a
carrier, one carrying land units a transport, one that submerges a submarine, one that bombards
or takes two hits a battleship, any other a destroyer; an air unit attacking better than it
defends is a bomber, any other a fighter). Shapes are polygons in a unit square, drawn into the
counter's frame by the hex view (pyglet shapes) and the world map (a mesh) alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Point = tuple[float, float]

_rect: Callable[[float, float, float, float], list[Point]] = lambda x0, y0, x1, y1: [  # noqa: E731
    (x0, y0), (x1, y0), (x1, y1), (x0, y1)]

#: each silhouette: convex polygons in the unit square, y up (ships side on, aircraft from above)
SHAPES: dict[str, tuple[list[Point], ...]] = {
    "battleship": (
        [(0.0, 0.36), (1.0, 0.36), (0.9, 0.12), (0.08, 0.12)],
        _rect(0.36, 0.36, 0.64, 0.56), _rect(0.46, 0.56, 0.54, 0.8),
        _rect(0.14, 0.36, 0.28, 0.47), _rect(0.72, 0.36, 0.86, 0.47),
        _rect(0.02, 0.42, 0.16, 0.45), _rect(0.84, 0.42, 0.98, 0.45),
    ),
    "carrier": (
        [(0.0, 0.44), (1.0, 0.44), (0.9, 0.16), (0.1, 0.16)],
        _rect(0.66, 0.44, 0.8, 0.68),
    ),
    "destroyer": (
        [(0.06, 0.32), (1.0, 0.32), (0.86, 0.14), (0.14, 0.14)],
        _rect(0.38, 0.32, 0.6, 0.46), _rect(0.5, 0.46, 0.57, 0.62),
    ),
    "transport": (
        [(0.04, 0.34), (0.96, 0.34), (0.9, 0.1), (0.1, 0.1)],
        _rect(0.14, 0.34, 0.68, 0.62), _rect(0.72, 0.34, 0.88, 0.74),
    ),
    "submarine": (
        [(0.04, 0.3), (0.16, 0.4), (0.86, 0.4), (0.98, 0.3), (0.86, 0.2), (0.16, 0.2)],
        _rect(0.42, 0.4, 0.58, 0.62), _rect(0.49, 0.62, 0.52, 0.78),
    ),
    "fighter": (
        _rect(0.46, 0.08, 0.54, 0.92),
        [(0.06, 0.46), (0.94, 0.46), (0.58, 0.66), (0.42, 0.66)],
        [(0.3, 0.08), (0.7, 0.08), (0.56, 0.2), (0.44, 0.2)],
        [(0.46, 0.92), (0.54, 0.92), (0.5, 0.98)],
    ),
    "bomber": (
        _rect(0.44, 0.06, 0.56, 0.94),
        _rect(0.0, 0.54, 1.0, 0.68),
        _rect(0.2, 0.46, 0.28, 0.56), _rect(0.72, 0.46, 0.8, 0.56),
        _rect(0.26, 0.06, 0.74, 0.16),
    ),
}


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def silhouette(unit: Any) -> str:
    """The silhouette (a key of SHAPES) of a unit type, or "" for one drawn by its NATO symbol."""
    if unit is None:
        return ""
    stats: Mapping[str, Any] = getattr(unit, "stats", None) or {}
    explicit = stats.get("silhouette") if isinstance(stats, Mapping) else None
    if isinstance(explicit, str):
        return explicit if explicit in SHAPES else ""

    def stat(name: str) -> float:
        return _number(stats.get(name, getattr(unit, name, 0)))

    tags = {str(t).lower() for t in (getattr(unit, "tags", None) or ())}
    if "air" in tags:
        return "bomber" if stat("attack") > stat("defence") else "fighter"
    if "sea" in tags:
        if stat("carrier_capacity") > 0:
            return "carrier"
        if stat("transport_capacity") > 0:
            return "transport"
        if any("submerge" in t or "submarine" in t for t in tags):
            return "submarine"
        if stat("bombard") > 0 or stat("hits_to_kill") > 1:
            return "battleship"
        return "destroyer"
    return ""


def placed(name: str, x: float, y: float, w: float, h: float) -> list[list[Point]]:
    """The polygons of silhouette `name` fitted into the box at (x, y), w by h."""
    return [[(x + px * w, y + py * h) for px, py in poly] for poly in SHAPES.get(name, ())]
