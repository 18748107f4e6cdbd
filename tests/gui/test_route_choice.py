"""Where the route matters the player chooses it: a German tank in Eastern Europe can reach an
empty West Russia through Belorussia (its own) or through an empty Karelia (the USSR's, taken
on the way, a blitz). The two routes are offered (the mouse on West Russia draws both and says
so; Tab takes the other), and the click goes the way chosen. Where the routes leave the game
the same (through Belorussia or Ukraine), one route. Decided by the rules' own states, not by
any rule of the client's. The screenshot goes to docs/screenshots when GUI_SCREENSHOTS=1."""

from __future__ import annotations

import os
from pathlib import Path

from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import bare_point, click, counter_centre, draw, zoom_on  # noqa: E402
from pyglet.window import key  # noqa: E402

from clients import gui_moves  # noqa: E402
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


def test_tab_takes_the_other_route_and_the_click_goes_that_way(make_window, tmp_path) -> None:
    game, tank = blitz()
    win = make_window(game, computer={"Allies": None}, width=1280, height=720)
    zoom_on(win, "Belorussia", 2.5)
    click(win, *counter_centre(win, "Eastern Europe", "Germany", "Tank"))
    win.on_mouse_motion(*bare_point(win, "West Russia"), 0, 0)
    alts = gui_moves.alternatives(win, "West Russia")
    assert len(alts) == 2 and gui_moves.chosen(win, "West Russia") == alts[0]
    assert "2 routes to West Russia" in win.hover_text and "taking Karelia S.S.R." in win.hover_text
    lines = [i for i in win._overlay_items if type(i).__name__ == "Line"]
    assert len(lines) == 4                                             # both routes drawn, two legs each
    win.dispatch_event("on_key_press", key.TAB, 0)
    win.dispatch_events()
    route = gui_moves.chosen(win, "West Russia")
    assert route == alts[1] and "▶ 2." in win.hover_text
    shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    draw(win, shots / "lhtr_route_choice.png")
    through = route.spaces[1]
    click(win, *bare_point(win, "West Russia"))
    state = game.state
    assert state.pieces[tank].space == "West Russia" and state.control["West Russia"] == "Germany"
    assert (state.control["Karelia S.S.R."] == "Germany") == (through == "Karelia S.S.R.")
    assert win.narration[-1].endswith(f"Eastern Europe -> {through} -> West Russia")


def test_the_help_names_tab_where_routes_are_chosen(bulge_rs, lhtr_rs, make_window) -> None:
    def words(win) -> str:  # type: ignore[no-untyped-def]
        draw(win)
        return " ".join(getattr(i, "text", "") for i in win._panel_items)

    assert "Tab: another route" in words(make_window(Game(lhtr_rs, None, seed=1), width=1600, height=1000))
    assert "Tab" not in words(make_window(Game(bulge_rs, None, seed=1), width=1600, height=1000))
