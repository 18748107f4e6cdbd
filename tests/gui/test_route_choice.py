"""Where the route matters the player chooses it: a German tank in Eastern Europe can reach an
empty West Russia through Belorussia (its own) or through an empty Karelia (the USSR's, taken
on the way, a blitz). The two routes are offered (the mouse on West Russia draws both and says
so); a click there asks which, each route drawn and numbered with a box of their words beside
them (never over the destination or the routes), a click on a route takes it, Esc takes none.
Where the routes leave the game the same (through Belorussia or Ukraine), no question. Decided by the rules' own states, not by
any rule of the client's. The screenshot goes to docs/screenshots when GUI_SCREENSHOTS=1."""

from __future__ import annotations

import os
from pathlib import Path

from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import bare_point, click, counter_centre, draw, zoom_on  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from clients import gui_moves, gui_route_chooser  # noqa: E402
from clients.routes import choices  # noqa: E402
from engine.game import Game  # noqa: E402
from tests.lhtr.play import situation  # noqa: E402


def blitz() -> tuple[Game, int]:
    g, ids = situation("Germany", [("Tank", "Germany", "Eastern Europe", 1)], control={"West Russia": "USSR"})
    game = Game(g.rs)
    game.state, game._decision = g.state, g.decision
    return game, ids["Germany Tank Eastern Europe"][0]


def test_the_routes_that_leave_the_game_different_are_offered() -> None:
    game, tank = blitz()
    offered = choices(game.ruleset, game.state, game.decision, tank, set(game.state.board.spaces))
    ways = [r.spaces[1:-1] for r in offered["West Russia"]]
    assert len(ways) == 2 and ("Karelia S.S.R.",) in ways             # through Karelia: a blitz
    assert ("Belorussia",) in ways or ("Ukraine S.S.R.",) in ways      # through its own: one of the two
    assert [len(r) for r in offered.values()].count(1) >= len(offered) - 2   # elsewhere: one route


def test_a_route_under_a_straits_guns_says_so_and_never_reads_the_games_dice() -> None:
    # AARHE: the UK's guns in the United Kingdom fire at a German ship crossing from SZ 7 to SZ 6
    from clients.routes import under_fire
    from tests.aarhe.play import at_aarhe

    g, ids = at_aarhe("Germany", [("Destroyer", "Germany", "SZ 7", 1)])
    dd = ids["Germany Destroyer SZ 7"][0]
    g.state.load_dice([1])                         # the game's next die would sink it
    offered = choices(g.rs, g.state, g.decision, dd, set(g.state.board.spaces))
    assert "crossing the strait" in " ".join(under_fire(offered["SZ 6"][0]))   # still offered, under fire
    assert under_fire(offered["SZ 8"][0]) == []
    assert g.state._loaded == [1]                  # the game's own dice untouched


def test_the_click_asks_which_route_and_the_mouse_picks_one(make_window, tmp_path) -> None:
    game, tank = blitz()
    win = make_window(game, computer={"Allies": None}, width=1280, height=720)
    zoom_on(win, "Belorussia", 2.5)
    click(win, *counter_centre(win, "Eastern Europe", "Germany", "Tank"))
    win.on_mouse_motion(*bare_point(win, "West Russia"), 0, 0)
    alts = gui_moves.alternatives(win, "West Russia")
    assert len(alts) == 2
    assert "2 routes to West Russia: a click asks which" in win.hover_text and "taking Karelia S.S.R." in win.hover_text
    lines = [i for i in win._overlay_items if type(i).__name__ == "Line"]
    assert len(lines) == 4                                             # both routes drawn, two legs each
    click(win, *bare_point(win, "West Russia"))                        # no move yet: the question
    choice = gui_route_chooser.current(win)
    assert choice is not None and game.state.pieces[tank].space == "Eastern Europe"
    draw(win)
    said = [getattr(i, "text", "") for i in win._panel_items]
    assert "Click a route on the map (Esc: cancel)" in said, said            # the panel says it too
    assert_box_clear(win, choice)
    draw(win, tmp_path / "route_choice_1280x720.png")
    karelia = next(i for i, r in enumerate(choice.routes) if "Karelia S.S.R." in r.spaces)
    win.dispatch_event("on_key_press", key.ESCAPE, 0)                   # Esc: no move, the tank still picked
    win.dispatch_events()
    assert gui_route_chooser.current(win) is None and gui_moves.movers(win)[1] == [tank]
    assert game.state.pieces[tank].space == "Eastern Europe" and "not chosen" in win.notice
    click(win, *bare_point(win, "West Russia"))
    choice = gui_route_chooser.current(win)
    assert choice is not None
    draw(win)
    x, y = on_route(win, choice, karelia)                              # a click on the Karelia route's line
    win.on_mouse_motion(x, y, 0, 0)
    assert choice.hover == karelia
    click(win, x, y)
    state = game.state
    assert state.pieces[tank].space == "West Russia" and state.control["West Russia"] == "Germany"
    assert state.control["Karelia S.S.R."] == "Germany"
    assert win.narration[-1].endswith("Eastern Europe -> Karelia S.S.R. -> West Russia")


def test_a_row_of_the_box_picks_its_route(make_window, tmp_path) -> None:
    game, tank = blitz()
    win = make_window(game, computer={"Allies": None}, width=1366, height=768)
    zoom_on(win, "Belorussia", 2.5)
    click(win, *counter_centre(win, "Eastern Europe", "Germany", "Tank"))
    click(win, *bare_point(win, "West Russia"))
    choice = gui_route_chooser.current(win)
    assert choice is not None
    draw(win)
    assert_box_clear(win, choice)
    ox, oy = win.map.offset
    rx, ry, rw, rh = choice.rows[1]
    win.on_mouse_motion(int(rx + ox + rw / 2), int(ry + oy + rh / 2), 0, 0)     # the mouse on row 2 lights route 2
    assert choice.hover == 1
    shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    draw(win, shots / "lhtr_route_choice.png")
    other = next(i for i, r in enumerate(choice.routes) if "Karelia S.S.R." not in r.spaces)
    ox, oy = win.map.offset
    rx, ry, rw, rh = choice.rows[other]
    click(win, rx + ox + rw / 2, ry + oy + rh / 2)
    state = game.state
    assert state.pieces[tank].space == "West Russia" and state.control["Karelia S.S.R."] == "USSR"


def test_a_right_click_clears_the_unit_and_the_question(make_window) -> None:
    game, tank = blitz()
    win = make_window(game, computer={"Allies": None}, width=1280, height=720)
    zoom_on(win, "Belorussia", 2.5)
    click(win, *counter_centre(win, "Eastern Europe", "Germany", "Tank"))
    click(win, *bare_point(win, "West Russia"))
    assert gui_route_chooser.current(win) is not None
    click(win, *bare_point(win, "West Russia"), button=mouse.RIGHT)
    assert gui_route_chooser.current(win) is None and not gui_moves.movers(win)[1]
    assert not [i for i in win._overlay_items if type(i).__name__ == "Line"]      # no routes left drawn
    assert game.state.pieces[tank].space == "Eastern Europe"


def test_where_the_routes_are_alike_no_question_is_asked(make_window) -> None:
    g, ids = situation("Germany", [("Tank", "Germany", "Eastern Europe", 1)],
                       control={"West Russia": "USSR", "Karelia S.S.R.": "Germany"})
    game = Game(g.rs)
    game.state, game._decision = g.state, g.decision
    tank = ids["Germany Tank Eastern Europe"][0]
    win = make_window(game, computer={"Allies": None}, width=1280, height=720)
    zoom_on(win, "Belorussia", 2.5)
    click(win, *counter_centre(win, "Eastern Europe", "Germany", "Tank"))
    assert len(gui_moves.alternatives(win, "West Russia")) == 1        # Karelia Germany's own: the ways are alike
    click(win, *bare_point(win, "West Russia"))
    assert gui_route_chooser.current(win) is None and game.state.pieces[tank].space == "West Russia"


def assert_box_clear(win, choice) -> None:  # type: ignore[no-untyped-def]
    """The box covers neither the destination nor any route offered (nor the legend)."""
    ox, oy = win.map.offset
    bx, by, bw, bh = choice.box
    rect = (bx + ox, by + oy, bw, bh)
    ax, ay, aw, ah = win.map_area()
    assert ax <= rect[0] and rect[0] + bw <= ax + aw and ay <= rect[1] and rect[1] + bh <= ay + ah
    assert not gui_route_chooser.covers_space(rect, gui_route_chooser.space_rings(win.map, choice.to))
    for r in choice.routes:
        for seg in gui_route_chooser.segments(win.map, r):
            assert not gui_route_chooser.touches(rect, seg), (r.spaces, rect)
    if win.legend_rect is not None:
        assert not gui_route_chooser.overlaps(rect, win.legend_rect)


def on_route(win, choice, i: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """A screen point on route i's own line, on no other route's."""
    x0, y0, x1, y1 = gui_route_chooser.own_segments(win.map, choice.routes)[i][0]
    return int(x0 + (x1 - x0) * 0.4), int(y0 + (y1 - y0) * 0.4)


def test_the_help_says_the_route_is_clicked_where_it_matters(bulge_rs, lhtr_rs, make_window) -> None:
    def words(win) -> str:  # type: ignore[no-untyped-def]
        draw(win)
        return " ".join(getattr(i, "text", "") for i in win._panel_items)

    assert "click the route" in words(make_window(Game(lhtr_rs, None, seed=1), width=1600, height=1000))
    assert "click the route" not in words(make_window(Game(bulge_rs, None, seed=1), width=1600, height=1000))


def test_close_in_with_no_room_beside_the_routes_the_map_makes_room(make_window) -> None:
    game, tank = blitz()
    win = make_window(game, computer={"Allies": None}, width=1280, height=720)
    zoom_on(win, "Belorussia", 2.5)
    click(win, *counter_centre(win, "Eastern Europe", "Germany", "Tank"))
    at = win.map.screen("Belorussia")
    win.map.zoom(6.0, at)                                              # the routes and West Russia fill the view
    win.refresh()
    click(win, *bare_point(win, "West Russia"))
    choice = gui_route_chooser.current(win)
    assert choice is not None
    draw(win)
    assert_box_clear(win, choice)


def test_the_box_goes_to_the_free_place_nearest_the_destination_or_nowhere() -> None:
    place, touches = gui_route_chooser.place, gui_route_chooser.touches
    area = (0.0, 0.0, 400.0, 300.0)
    leg = (50.0, 150.0, 350.0, 150.0)                                  # a route across the middle
    square = [[(300.0, 200.0), (360.0, 200.0), (360.0, 260.0), (300.0, 260.0)]]   # the destination
    rect = place((120, 40), area, (330, 230), [leg], square)
    assert rect is not None and not touches(rect, leg, 10) and not gui_route_chooser.covers_space(rect, square, 10)
    assert rect[1] > 150                                               # on the destination's side of the route
    crossed = [(0.0, y, 400.0, y) for y in range(20, 300, 40)]         # routes everywhere: no room
    assert place((120, 40), area, (330, 230), crossed, square) is None
