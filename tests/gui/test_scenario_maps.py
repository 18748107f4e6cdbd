"""AARHE's other maps in the window: the 1942 Italy map draws its new territories (Finland cut
from Norway, Italy) in their holders' colours from the map's data, Italy's pieces in its own
colours, and the panel lists Italy after Germany. Screenshots of the whole map and of Europe
go to docs/screenshots when GUI_SCREENSHOTS=1 (else to tmp)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw, pixel  # noqa: E402

from clients import seats  # noqa: E402
from clients.world_geometry import geometry  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def italy() -> Game:
    return Game(plugins.load("aarhe"), "italy-1942", seed=1)


def near(c: tuple[int, int, int], want: tuple[int, ...], tol: int = 3) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, want))


def test_the_new_territories_are_drawn_in_their_holders_colours(italy: Game, make_window, tmp_path: Path) -> None:
    out = ROOT / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    win = make_window(italy, computer=seats.assign(italy.ruleset, []), width=1400, height=880)
    draw(win, out / "aarhe-italy-1942-window.png")
    board = italy.state.board
    geo = geometry(board)
    assert {"Finland", "Italy", "Norway"} <= set(geo.spaces) and "Southern Europe" not in geo.spaces
    assert geo.space_at(*geo.spaces["Finland"].label) == "Finland"
    assert geo.space_at(*geo.spaces["Norway"].label) == "Norway"
    # Italy's colours are the map's (its data, not the window's code)
    assert win.side_colour("Italy") == (0x8E, 0x44, 0xAD) and win.colours.counter("Italy") == (0x3E, 0x14, 0x50)
    win.map.fit(win.map_area())
    win.map.zoom(3.0, win.map.screen("Germany"))
    win.map.centre_on("Germany")
    win.refresh()
    img = draw(win, out / "aarhe-italy-1942-europe.png")
    s, (ox, oy) = win.map.size, win.map.offset
    for sid, holder in (("Italy", "Italy"), ("Balkans", "Italy"), ("Finland", "Germany"), ("Norway", "Germany")):
        want = win.layer.fill(italy.state, sid, win.colours)
        assert want == win.layer.fill(italy.state, "Germany" if holder == "Germany" else "Libya", win.colours)
        x0, y0, x1, y1 = max(geo.spaces[sid].boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        corners = [(x * s + ox + dx, y * s + oy + dy) for x, dx in ((x0, 3), (x1, -3)) for y, dy in ((y0, 3), (y1, -3))]
        got = [pixel(img, px, py) for px, py in corners if win.in_map(px, py)]
        hatched = tuple(int(c * 0.74) for c in want)       # snow and mountains hatch a territory
        assert any(near(c, want) or near(c, hatched) for c in got), (sid, got, want)


def test_the_panel_lists_italy_after_germany_with_its_ipcs_and_income(italy: Game, make_window) -> None:
    win = make_window(italy, width=1400, height=880)
    draw(win)
    texts = [getattr(i, "text", "") for i in win._panel_items]
    order = [t.lstrip("▶ ") for t in texts if t.lstrip("▶ ") in italy.ruleset.structure.powers]
    assert order[:6] == ["USSR", "Germany", "Italy", "UK", "Japan", "US"]
    assert "10 IPC" in texts and "income 10" in texts


def test_the_1939_map_draws_its_new_powers_and_territories(make_window, tmp_path: Path) -> None:
    out = ROOT / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    game = Game(plugins.load("aarhe"), "aarhe-1939", seed=1)
    win = make_window(game, computer=seats.assign(game.ruleset, []), width=1400, height=880)
    draw(win, out / "aarhe-1939-window.png")
    geo = geometry(game.state.board)
    for sid in ("Tunisia", "Malta", "Iwo Jima", "Finland", "Algeria", "Italy"):
        assert geo.space_at(*geo.spaces[sid].label) == sid, sid
    texts = [getattr(i, "text", "") for i in win._panel_items]
    order = [t.lstrip("▶ ") for t in texts if t.lstrip("▶ ") in game.ruleset.structure.powers]
    assert order[:8] == ["USSR", "Germany", "Italy", "UK", "France", "Japan", "China", "US"]
    colours = {p: win.side_colour(p) for p in ("France", "China", "Italy")}
    assert colours == {"France": (0x5B, 0x7F, 0xBF), "China": (0x4F, 0x9E, 0x94), "Italy": (0x8E, 0x44, 0xAD)}
    for centre, name, zoom in (("Italy", "mediterranean", 4.0), ("Iwo Jima", "iwo-jima", 5.0)):
        win.map.fit(win.map_area())
        win.map.zoom(zoom, win.map.screen(centre))
        win.map.centre_on(centre)
        win.refresh()
        img = draw(win, out / f"aarhe-1939-{name}.png")
        s, (ox, oy) = win.map.size, win.map.offset
        for sid in ("Tunisia", "Malta") if centre == "Italy" else ("Iwo Jima",):
            # the island or territory shows its holder's colour somewhere round its label
            want = win.layer.fill(game.state, sid, win.colours)
            lx, ly = geo.spaces[sid].label
            ring = [(lx * s + ox + dx, ly * s + oy + dy) for dx in range(-14, 15, 2) for dy in range(-14, 15, 2)]
            got = [pixel(img, px, py) for px, py in ring if geo.spaces[sid].contains((px - ox) / s, (py - oy) / s)]
            assert got and any(near(c, want, 6) for c in got), (sid, got, want)
