"""The world map uses the window's height beside the side panel (it was fitted to the width and
left a third of the room empty): at 1280x720, 1366x768 and 1600x1000, for LHTR and AARHE, the
map fills the map area from top to bottom (to the margin); a zoom and a pan still move it, a
zoom out still shows the whole world, and no pan or centring leaves a band of nothing above or
beside it."""

from __future__ import annotations

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw  # noqa: E402

from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402

SIZES = [(1280, 720), (1366, 768), (1600, 1000)]


def edges(win):  # type: ignore[no-untyped-def]
    """The map's edges on screen: left, bottom, right, top."""
    x0, y0, x1, y1 = win.map.bounds()
    s, (ox, oy) = win.map.size, win.map.offset
    return x0 * s + ox, y0 * s + oy, x1 * s + ox, y1 * s + oy


@pytest.mark.parametrize("name", ["lhtr", "aarhe"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_world_map_fills_the_height_beside_the_panel(name, size, make_window):  # type: ignore[no-untyped-def]
    win = make_window(Game(plugins.load(name), None, seed=1), width=size[0], height=size[1])
    draw(win)
    ax, ay, aw, ah = win.map_area()
    m = win.map.MARGIN
    left, bottom, right, top = edges(win)
    assert abs(top - (ay + ah - m)) <= 1 and abs(bottom - (ay + m)) <= 1      # top to bottom
    assert left <= ax + m and right >= ax + aw - m                             # and across
    # a zoom in about the middle, then a pan, move the map; Home fits it again
    fit = win.map.size
    assert win.map.zoom(2.0, (ax + aw / 2, ay + ah / 2)) and win.map.size == pytest.approx(2 * fit)
    before = win.map.offset
    win.map.pan(-40, 30)
    assert win.map.offset == (before[0] - 40, before[1] + 30)
    # centred on a space at the map's edge: the map still covers the area, no empty band
    for sid in ("Greenland", "SZ 42", "Alaska"):
        if sid in win.map.hexes:
            win.map.centre_on(sid)
            left, bottom, right, top = edges(win)
            assert top > ay + ah - m - 1 and bottom < ay + m + 1 and left < ax + m + 1 and right > ax + aw - m - 1, sid
    # zoomed out as far as it goes: the whole world in view
    while win.map.zoom(1 / 1.2, (ax + aw / 2, ay + ah / 2)):
        pass
    left, bottom, right, top = edges(win)
    assert left >= ax and right <= ax + aw and bottom >= ay and top <= ay + ah


def test_the_map_turns_to_a_persons_power_when_none_of_it_is_in_view(make_window):  # type: ignore[no-untyped-def]
    """At 1280x720 Japan's home is a pan away from the opening view: when Japan's turn comes
    the map pans across to where most of its units stand."""
    game = Game(plugins.load("lhtr"), None, seed=1)
    win = make_window(game, computer={}, width=1280, height=720)
    draw(win)
    ax, _, aw, _ = win.map_area()
    start = win.map.offset
    japan = {p.space for p in game.state.pieces_of("Japan") if p.space in win.map.hexes}
    counts = {s: len([p for p in game.state.pieces_of("Japan") if p.space == s]) for s in japan}
    most = max(counts, key=lambda s: (counts[s], s))
    assert not ax <= win.map.screen(most)[0] <= ax + aw                      # out of view
    for _ in range(300):
        if game.decision.player == "Japan":
            break
        assert win.finish(), game.decision
    assert game.decision.player == "Japan" and win.map.offset != start
    assert win.map.size == pytest.approx(win.map.fit_size)                      # panned, not zoomed
    assert ax <= win.map.screen(most)[0] <= ax + aw
