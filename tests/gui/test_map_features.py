"""The map drawing: roads, rivers and bridges, towns and VP, partial hexes, a third side and
the fidelity note, on a made-up map that has them all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_demo import load_demo  # noqa: E402
from gui_support import draw, pixel  # noqa: E402

from clients.gui_map import BRIDGE, RIVER, ROAD, VP_BADGE, shade  # noqa: E402
from engine.game import Game  # noqa: E402


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
    names = [getattr(i, "text", None) for i in win.layer.items + win.layer.piece_items]
    assert "Bastogne" in names and "St. Vith" in names and "Marche" in names
    bx, by = win.map.screen("3,4")
    r = min(max(5.5, win.map.size * 0.13), 12.0)
    badge = (bx - r * 0.75, by + win.map.size * 0.79)     # beside the digit
    assert near(pixel(img, *badge), VP_BADGE, 12)
    # three sides, three colours
    assert len({win.side_colour(s) for s in ("Axis", "Allied", "Neutral")}) == 3
    # a counter for each side's kind in a hex, with how many there are
    drawn = {(sid, owner, kind) for sid, owner, kind, *_ in win.layer.counters}
    assert {("7,2", "Axis", "Infantry"), ("7,2", "Axis", "Tank"), ("8,4", "Axis", "Artillery"),
            ("3,4", "Allied", "Infantry"), ("3,4", "Allied", "Tank"), ("6,5", "Allied", "Infantry"),
            ("6,5", "Axis", "Infantry")} <= drawn
    assert "2" in names and "1" in names
    # a counter is its side's dark colour, which stands out on its own side's ground
    sid, owner, kind, x, y, w, h = next(c for c in win.layer.counters if c[:2] == ("3,4", "Allied"))
    ox, oy = win.map.offset
    body = pixel(img, x + ox + w - h * 0.15, y + oy + h * 0.12)
    assert near(body, win.colours.counter("Allied"), 6), body
    ground = win.side_colour("Allied")
    assert sum(abs(a - b) for a, b in zip(body, ground, strict=True)) > 200
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
    while not (game.state.turn >= 2 and game.decision.kind == "move" and game.decision.player == "Red"):
        if win2.human_turn():
            win2.choose(me.choose(game.ruleset, game.state, game.decision))
        run_computer(win2)
    tank = next(p for p in game.state.pieces_of("Red") if p.kind == "Tank")
    win2.select_space(tank.space)
    x, y = win2.option_rows[1][2][:2]
    win2.dispatch_event("on_mouse_motion", int(x + 40), int(y + 10), 0, 0)
    draw(win2, out / "gui_skirmish.png")
    win2.computer["Red"] = RandomPlayer(7)
    run_computer(win2)
    draw(win2, out / "gui_game_over.png")
    assert game.over


def test_bulge_screenshots_for_the_docs(make_window, tmp_path):
    """The Battle of the Bulge at three zooms, with hex ids, and after a turn of play;
    in docs/screenshots when GUI_SCREENSHOTS=1 (else to tmp)."""
    from clients import seats
    from engine import plugins

    out = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    rs = plugins.load("bulge")
    game = Game(rs, None, seed=1)
    win = make_window(game, computer=seats.assign(rs, []), width=1400, height=880)
    draw(win)
    win.render_to_png(out / "bulge_opening.png")
    for zoom, name, centre in ((2.2, "bulge_zoom_front.png", "1710"), (4.0, "bulge_zoom_close.png", "1613")):
        win.map.fit(win.map_area())
        win.map.zoom(zoom, win.map.screen(centre))
        win.map.centre_on(centre)
        win.refresh()
        if name == "bulge_zoom_close.png":
            x, y = win.map.screen("1713")
            win.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
        draw(win)
        win.render_to_png(out / name)
    win.dispatch_event("on_mouse_leave", 0, 0)
    win.show_ids = True
    win.refresh()
    draw(win)
    win.render_to_png(out / "bulge_hex_ids.png")
    # a turn of the computer against itself, up to a person's decision
    win.show_ids = False
    players = seats.assign(rs, ["all"], seed=3)
    while (game.state.turn < 2 or win.computer_turn()) and not game.over:
        d = game.decision
        game.play(players[seats.seat_of(rs, d.player)].choose(rs, game.state, d))
    win._narrate()
    win.map.fit(win.map_area())
    win.refresh()
    draw(win)
    win.render_to_png(out / "bulge_turn2.png")
    for png in out.glob("bulge_*.png"):
        assert png.stat().st_size < 500_000, png


def test_an_owner_the_ruleset_did_not_list_gets_its_own_colour(demo, make_window):
    win = make_window(demo)
    demo.state.control["11,4"] = "Partisans"
    win.refresh()
    img = draw(win)
    x, y = win.map.screen("11,4")
    colour = pixel(img, x - win.map.size * 0.5, y - win.map.size * 0.2)
    assert colour == win.side_colour("Partisans")
    assert colour not in {win.side_colour(s) for s in ("Axis", "Allied", "Neutral")}


def test_a_space_the_map_names_carries_its_name_on_the_map():
    # a mod's map names a wood and a base (no town, no VP): the player reads them on the map;
    # a hex known only by its id shows none (its id is shown with H)
    from clients.gui_map import place_name
    from engine.board import Space
    assert place_name(Space("0202", "Oak wood", "hex")) == "Oak wood"
    assert place_name(Space("0103", "Blue base", "hex", attrs={"base": "Blue"})) == "Blue base"
    assert place_name(Space("0302", "0302", "hex")) == ""
    assert place_name(Space("1709", "1709", "hex", attrs={"town": "St. Vith", "vp": 3})) == "St. Vith"
