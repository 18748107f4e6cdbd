"""The pyglet window, driven headlessly: drawing, clicking options and hexes, refusals,
undo, computer players and a whole game."""

from __future__ import annotations

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

import pyglet  # noqa: E402
from gui_support import draw, pixel  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from clients.gui import GameWindow, mentions, run_computer  # noqa: E402
from clients.gui_map import NEUTRAL  # noqa: E402
from clients.players import RandomPlayer  # noqa: E402
from engine.actions import Action  # noqa: E402


def interior(win: GameWindow, sid: str) -> tuple[int, int]:
    """A point inside hex `sid`, clear of its labels and counters."""
    x, y = win.map.screen(sid)
    return int(x - win.map.size * 0.55), int(y - win.map.size * 0.2)


def click(win: GameWindow, x: float, y: float, button: int = mouse.LEFT) -> None:
    win.dispatch_event("on_mouse_press", int(x), int(y), button, 0)
    win.dispatch_event("on_mouse_release", int(x), int(y), button, 0)
    win.dispatch_events()


def row_centre(win: GameWindow, index: int) -> tuple[int, int]:
    for i, _, (x, y, w, h) in win.option_rows:
        if i == index:
            return int(x + w / 2), int(y + h / 2)
    raise AssertionError(f"option row {index} is not shown")


def to_kind(win: GameWindow, kind: str) -> None:
    """Answer decisions with their last option (pass / done) until one of `kind` comes."""
    game = win.game
    for _ in range(50):
        if game.decision.kind == kind and len(game.decision.options) > 1:
            return
        assert win.choose(game.decision.options[-1])
    raise AssertionError(f"no `{kind}` decision came")


def test_draws_control_colours_and_panel(game, make_window, tmp_path):
    win = make_window(game, height=900)          # tall enough for every option of Red's first move
    img = draw(win, tmp_path / "skirmish.png")
    assert (tmp_path / "skirmish.png").stat().st_size > 1000
    held = {sid: side for sid, side in game.state.control.items() if sid in win.map.hexes}
    assert set(held.values()) == {"Red", "Blue"}
    for sid, side in held.items():
        assert pixel(img, *interior(win, sid)) == win.side_colour(side), sid
    free = next(sid for sid in win.map.hexes if sid not in held and not game.state.board.space(sid).attrs)
    assert pixel(img, *interior(win, free)) == NEUTRAL
    assert win.side_colour("Red") != win.side_colour("Blue")
    # the panel: status, the question and its options
    assert win.status_label is not None and win.status_label.text == game.status()
    assert win.status_label.content_width > 0
    assert len(win.option_rows) == len(game.decision.options)
    # the map is left of the panel and fills its width
    xs = [win.map.screen(s)[0] for s in win.map.hexes]
    assert 0 < min(xs) and max(xs) < win.panel_x
    assert max(xs) - min(xs) > 0.7 * win.panel_x


def test_clicking_an_option_row_plays_it(game, make_window):
    win = make_window(game)
    draw(win)
    before = len(game.actions)
    option = game.decision.options[0]
    x, y = row_centre(win, 0)
    win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    draw(win)
    assert len(game.actions) == before + 1
    assert game.actions[-1] == option


def test_keyboard_chooses(game, make_window):
    win = make_window(game)
    to_kind(win, "move")
    n = len(game.actions)
    second = game.decision.options[1]
    win.dispatch_event("on_key_press", key.DOWN, 0)
    win.dispatch_event("on_key_press", key.ENTER, 0)
    draw(win)
    assert game.actions[n:] == [second]
    to_kind(win, "move")
    n = len(game.actions)
    first = game.decision.options[0]
    win.dispatch_event("on_key_press", key._1, 0)
    draw(win)
    assert game.actions[n:] == [first]


def test_clicking_a_unit_selects_it_and_lights_where_it_can_go(game, make_window, tmp_path):
    win = make_window(game)
    to_kind(win, "move")
    draw(win)
    all_options = list(game.decision.options)
    tank = next(p for p in game.state.pieces_of("Red") if p.kind == "Tank")
    click(win, *win.map.screen(tank.space))
    assert win.selected == tank.space
    shown = win.visible_options()
    assert 0 < len(shown) < len(all_options)
    assert shown == [a for a in all_options if a.get("piece") == tank.id]     # its moves, not moves into its hex
    lit, _ = win.targets()
    assert set(lit) == {a["to"] for a in shown}
    draw(win, tmp_path / "selected.png")
    assert [a for _, a, _ in win.option_rows] == shown
    # clicking it again clears the selection; so does Escape
    click(win, *win.map.screen(tank.space))
    assert win.selected is None and win.visible_options() == all_options
    click(win, *win.map.screen(tank.space))
    win.dispatch_event("on_key_press", key.ESCAPE, 0)
    draw(win)
    assert win.selected is None and not win.has_exit
    # a hex no option names shows an empty list, not the whole one
    empty = next(s for s in win.map.hexes if not any(mentions(a, s) for a in all_options))
    click(win, *win.map.screen(empty))
    assert win.selected == empty and win.visible_options() == []


def test_refused_action_shows_the_reason(game, make_window, tmp_path):
    win = make_window(game)
    n = len(game.actions)
    assert not win.choose(Action("attack", {"from": "0,0", "to": "4,3"}))
    assert len(game.actions) == n
    assert win.refusal
    img = draw(win, tmp_path / "refused.png")
    label = win.refusal_label
    assert label is not None and win.refusal in label.text and label.content_width > 0
    assert label.color[:3] == (255, 92, 80)
    # some of its pixels are red
    reds = 0
    for x in range(int(label.x), int(label.x + label.content_width)):
        for y in range(int(label.y), int(label.y + label.content_height)):
            r, g, b = pixel(img, x, y)
            reds += r > 180 and g < 140 and b < 140
    assert reds > 20
    # the next good action clears it
    assert win.choose(game.decision.options[0])
    assert win.refusal == "" and win.refusal_label is None


def test_hover_describes_the_space(game, make_window):
    win = make_window(game)
    sid = "0,1"
    x, y = win.map.screen(sid)
    win.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
    draw(win)
    assert win.hovered == sid
    assert win.hover_text == game.ruleset.logic.describe_space(game.state, sid)
    win.dispatch_event("on_mouse_motion", win.panel_x + 20, 20, 0, 0)
    draw(win)
    assert win.hovered is None and win.hover_text == ""


def test_undo_button(game, make_window):
    saved = []
    win = make_window(game, saver=saved.append)
    to_kind(win, "move")
    n = len(game.actions)
    assert win.choose(game.decision.options[0])
    assert game.can_undo()
    draw(win)
    ux, uy, uw, uh = win.undo_rect
    win.dispatch_event("on_mouse_press", int(ux + uw / 2), int(uy + uh / 2), mouse.LEFT, 0)
    draw(win)
    assert len(game.actions) == n
    assert saved and saved[-1] is game
    assert not win.undo()         # nothing left to undo in this step


def test_saver_after_each_human_action(game, make_window):
    saved = []
    win = make_window(game, saver=saved.append)
    win.choose(game.decision.options[0])
    win.choose(game.decision.options[0])
    assert len(saved) == 2


def test_step_computer_plays_the_computer_seat(game, make_window):
    win = make_window(game, computer={"Red": RandomPlayer(3)})
    assert game.decision.player == "Red" and win.computer_turn()
    n = len(game.actions)
    assert win.step_computer()
    assert len(game.actions) == n + 1
    run_computer(win)
    assert game.decision.player == "Blue" and win.human_turn()
    assert not win.step_computer()
    # a person cannot answer for the computer, nor the computer for a person
    run_computer(win)
    assert not win.step_computer()


def test_a_person_cannot_play_the_computers_turn(game, make_window):
    win = make_window(game, computer={"Red": RandomPlayer(3)})
    draw(win)
    assert not win.choose(game.decision.options[0])
    assert "computer" in win.refusal


def test_computer_moves_by_itself_on_the_clock(game, make_window):
    win = make_window(game, computer={"Red": RandomPlayer(3)}, autoplay=True, computer_delay=0.0)
    n = len(game.actions)
    pyglet.clock.tick()
    assert len(game.actions) > n
    win.close()                      # and closing stops it
    n = len(game.actions)
    pyglet.clock.tick()
    assert len(game.actions) == n


def test_whole_game_by_computer_steps(game, make_window, tmp_path):
    saved = []
    win = make_window(game, computer={"Red": RandomPlayer(1), "Blue": RandomPlayer(2)}, saver=saved.append)
    played = 0
    while not game.over:
        assert win.step_computer()
        played += 1
        if played % 25 == 0:
            draw(win)
        assert played < 5000
    assert not win.step_computer()
    assert saved == [game]                 # saved once, at the end
    img = draw(win, tmp_path / "over.png")
    r = game.result
    assert r is not None
    assert win.option_rows == []
    texts = [getattr(i, "text", "") for i in win._top_items]
    assert any((f"{r.winner} wins" if r.winner else "Draw") == t for t in texts)
    assert any(r.reason in t for t in texts)
    # the banner, with its yellow border, is drawn over the map
    assert win.banner_rect is not None
    bx, by, bw, bh = win.banner_rect
    assert win.in_map(bx, by) and win.in_map(bx + bw - 1, by + bh - 1)
    edge = [pixel(img, int(bx + bw / 2), int(by + dy)) for dy in range(4)]
    assert any(c[0] > 220 and c[1] > 180 and c[2] < 60 for c in edge), edge


def test_zoom_and_pan(game, make_window):
    win = make_window(game)
    draw(win)
    sid = "2,1"
    x, y = win.map.screen(sid)
    size = win.map.size
    win.dispatch_event("on_mouse_scroll", int(x), int(y), 0, 2)
    draw(win)
    assert win.map.size > size
    assert win.map.space_at(int(x), int(y)) == sid       # the hex under the mouse stays put
    ox, oy = win.map.offset
    win.dispatch_event("on_mouse_press", 100, 100, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_drag", 140, 120, 40, 20, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_release", 140, 120, mouse.LEFT, 0)
    draw(win)
    assert win.map.offset == (ox + 40, oy + 20)
    assert win.selected is None                           # a drag is not a click
    win.dispatch_event("on_key_press", key.LEFT, key.MOD_SHIFT)
    draw(win)
    assert win.map.offset[0] == ox + 40 + 60
    win.dispatch_event("on_key_press", key.HOME, 0)
    draw(win)
    assert win.map.size == pytest.approx(size)


def test_scrolling_a_long_option_list(game, make_window):
    win = make_window(game, height=420)
    to_kind(win, "move")
    draw(win)
    n = len(game.decision.options)
    assert len(win.option_rows) < n, "the window is too tall for this test"
    for _ in range(n - 1):
        win.dispatch_event("on_key_press", key.DOWN, 0)
    draw(win)
    shown = [i for i, _, _ in win.option_rows]
    assert n - 1 in shown and 0 not in shown
    win.dispatch_event("on_mouse_scroll", win.panel_x + 40, 200, 0, 50)
    draw(win)
    assert win.option_rows[0][0] == 0


def test_play_window_runs_the_loop(game, monkeypatch):
    from clients import gui

    seen = []
    intervals = []

    def fake_run(interval: float | None = 1 / 60) -> None:
        intervals.append(interval)
        for w in list(pyglet.app.windows):
            if isinstance(w, gui.GameWindow):
                seen.append(w)
                w.close()

    monkeypatch.setattr(pyglet.app, "run", fake_run)
    assert gui.play_window(game, {}, None) == 0
    assert seen and seen[0].game is game
    assert intervals == [None]          # no redraw timer: the window draws when something changed


def test_resize_refits_the_map(game, make_window):
    # a headless surface cannot change size, so this only checks the handler refits the map
    win = make_window(game)
    draw(win)
    fit = win.map.size
    win.dispatch_event("on_mouse_scroll", 200, 300, 0, 3)
    draw(win)
    assert win.map.size > fit
    win.dispatch_event("on_resize", win.width, win.height)
    draw(win)
    assert win.map.size == pytest.approx(fit)
