"""The map drawing: roads, rivers and bridges, towns and VP, partial hexes, a third side and
the fidelity note, on a made-up map that has them all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import draw, pixel
from demo_ruleset import load_demo

from clients.gui_map import BRIDGE, RIVER, ROAD, VP_BADGE, shade
from engine.game import Game


@pytest.fixture
def demo():  # type: ignore[no-untyped-def]
    return Game(load_demo(), "ardennes", seed=1)


def near(c, want, tol=8) -> bool:  # type: ignore[no-untyped-def]
    return all(abs(a - b) <= tol for a, b in zip(c, want, strict=True))


def test_roads_rivers_towns_partial(demo, make_window, tmp_path):
    win = make_window(demo)
    img = draw(win, tmp_path / "features.png")
    board = demo.state.board
    links = list(board.links())
    road = next((a, b) for a, b, t in links if t.get("road") and not t.get("river"))
    river = next((a, b) for a, b, t in links if t.get("river") and not t.get("bridge") and not t.get("road"))
    bridge = next((a, b) for a, b, t in links if t.get("bridge"))
    (ax, ay), (bx, by) = win.map.screen(road[0]), win.map.screen(road[1])
    assert near(pixel(img, (ax + bx) / 2, (ay + by) / 2), ROAD)
    for pair, colour in ((river, RIVER), (bridge, BRIDGE)):
        (x1, y1), (x2, y2) = win.map.shared_edge(*pair)
        ox, oy = win.map.offset
        assert near(pixel(img, (x1 + x2) / 2 + ox, (y1 + y2) / 2 + oy), colour), pair
    # partial hexes are darker than whole ones of the same side
    partial = next(s for s in win.map.hexes if board.space(s).attrs.get("partial") and s in demo.state.control
                   and not demo.state.pieces_at(s))
    x, y = win.map.screen(partial)
    side = demo.state.control[partial]
    assert near(pixel(img, x - win.map.size * 0.5, y - win.map.size * 0.2), shade(win.side_colour(side), 0.72), 2)
    # a town's name and its VP badge
    names = [getattr(i, "text", None) for i in win.layer.items]
    assert "Bastogne" in names and "St. Vith" in names and "Marche" in names
    bx, by = win.map.screen("3,4")
    badge = (bx + win.map.size * 0.56, by + win.map.size * 0.12 + win.map.size * 0.12)
    assert near(pixel(img, *badge), VP_BADGE, 12)
    # three sides, three colours
    assert len({win.side_colour(s) for s in ("Axis", "Allied", "Neutral")}) == 3
    # the counters say kind and count
    assert "I2 T1" in names and "I1 T1" in names and "A1" in names
    # the scenario is approximate, and the panel says so
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert any(t.startswith("Map: approximate") for t in texts)
    assert any("Axis: vp 1" in t for t in texts)


def test_screenshots_for_the_docs(demo, game, make_window, tmp_path):
    """Writes the screenshots in docs/screenshots when GUI_SCREENSHOTS=1 (else to tmp)."""
    from clients.gui import run_computer
    from clients.players import RandomPlayer

    out = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    win = make_window(demo, width=1280, height=800)
    win.select_space("7,2")
    x, y = win.map.screen("3,4")
    win.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
    draw(win, out / "gui_map_features.png")

    win2 = make_window(game, computer={"Blue": RandomPlayer(2)}, width=1280, height=800)
    me = RandomPlayer(5)
    while game.state.turn < 3 and not game.over:
        if win2.human_turn():
            win2.choose(me.choose(game.ruleset, game.state, game.decision))
        run_computer(win2)
    to_move = next(p.space for p in game.state.pieces_of("Red"))
    win2.select_space(to_move)
    draw(win2, out / "gui_skirmish.png")
    win2.computer["Red"] = RandomPlayer(7)
    run_computer(win2)
    draw(win2, out / "gui_game_over.png")
    assert game.over
