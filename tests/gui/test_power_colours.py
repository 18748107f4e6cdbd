"""Every world map's powers can be told apart on the map: each power's colour (the map's own
data) far enough from the neutrals', the impassable land's, the sea's and every other power's
that a player does not take one for another (Italy was a pale grey-beige close to the neutrals'
on the italy-1942 and aarhe-1939 maps). Far enough: a CIE76 colour difference of 25."""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path

import pytest

from clients.gui_world import IMPASSABLE, NEUTRAL_LAND, SEA, _rgb

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted(p for p in (ROOT / "rulesets").rglob("map.json") if '"colours"' in p.read_text()[:4000])
#: the least difference between two colours a player must tell apart (2.3 is just noticeable)
APART = 25.0


def lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """sRGB to CIE L*a*b* (D65)."""
    def linear(u: float) -> float:
        u /= 255
        return ((u + 0.055) / 1.055) ** 2.4 if u > 0.04045 else u / 12.92

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_the_world_maps_are_found() -> None:
    names = {p.parent.name for p in MAPS}
    assert {"lhtr", "italy-1942", "aarhe-1939"} <= names


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.parent.name)
def test_every_power_is_distinct_from_the_neutrals_and_from_each_other(path: Path) -> None:
    raw = json.loads(path.read_text())["layout"]["colours"]
    colours = {f"power {p}": _rgb(v[0] if isinstance(v, list) else v) for p, v in raw.items()}
    fixed = {"neutral land": NEUTRAL_LAND, "impassable land": IMPASSABLE, "sea": SEA}
    close = [(a, b, round(math.dist(lab(ca), lab(cb)), 1))
             for (a, ca), (b, cb) in combinations({**colours, **fixed}.items(), 2)
             if (a in colours or b in colours) and math.dist(lab(ca), lab(cb)) < APART]
    assert not close, close
