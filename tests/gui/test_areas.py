"""Under the map: the turn track, the rules' tracks (Bulge's VP) and the off-board areas and
reinforcement charts with their counters. Bulge played with the mouse alone: a stack, then a
lit hex, then the finish button, for a few turns; a reinforcement brought on from its chart
by clicking it in the chart, then a lit entry hex; a truck off the board loaded by clicking
it, then its cargo on a chart."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import bare_point, click, draw, pixel, zoom_on  # noqa: E402

from clients.gui import run_computer  # noqa: E402
from clients.gui_areas import (  # noqa: E402
    NOW_EDGE,
    TRAY_BG,
    TURN_COLOURS,
    area_groups,
    group_title,
    split_area,
    turn_colour,
    turn_track,
)
from clients.players import RandomPlayer  # noqa: E402
from engine.game import Game  # noqa: E402


def bulge_window(rs, make_window, seed: int = 1):  # type: ignore[no-untyped-def]
    """A Bulge game, the Axis played by clicks and the Allies by a (quick) random player."""
    game = Game(rs, None, seed=seed)
    win = make_window(game, computer={"Allies": RandomPlayer(seed + 2)}, width=1400, height=880)
    draw(win)
    return game, win


def centre(rect) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    x, y, w, h = rect
    return int(x + w / 2), int(y + h / 2)


def tray_counter(win, sid: str, owner: str, kind: str):  # type: ignore[no-untyped-def]
    """The tray's counter of `owner`'s `kind` in area `sid` (as the map layer's counters)."""
    for c in win.tray.counters:
        if c[:3] == (sid, owner, kind):
            return c
    raise AssertionError(f"no {owner} {kind} counter in {sid}: {[c[:3] for c in win.tray.counters if c[0] == sid]}")


def counter_point(c) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    _, _, _, x, y, w, h = c
    return int(x + w / 2), int(y + h / 2)


def click_finish(win) -> None:  # type: ignore[no-untyped-def]
    """The finish button, and when it asks (other options still open), its yes."""
    draw(win)
    assert win.finish_rect is not None, win.decision
    click(win, *centre(win.finish_rect))
    if win.prompt is not None:
        draw(win)
        click(win, *centre(win.prompt.ok_rect))
        assert win.prompt is None


def click_row(win, index: int = 0) -> None:  # type: ignore[no-untyped-def]
    draw(win)
    click(win, *centre(win.option_rows[index][2]))


def move_a_stack(win) -> str | None:  # type: ignore[no-untyped-def]
    """Select a stack that can move (a bare point of its hex), then click a lit hex in view:
    where it went (None if no stack had a lit hex to click)."""
    game = win.game
    _, sources = win.at_rest()
    for sid in sorted(s for s in sources if s in win.map.hexes):
        zoom_on(win, sid, 2.5)
        try:
            click(win, *bare_point(win, sid))
        except AssertionError:
            continue
        if win.pick is None or win.pick.space != sid:
            continue
        for to in sorted(win.targets()[0]):
            try:
                point = bare_point(win, to)
            except AssertionError:
                continue                             # out of view, or covered by counters
            n = len(game.actions)
            click(win, *point)
            if len(game.actions) == n and win.narrowed:
                click_row(win, 0)                    # several moves go there: the first listed
            if len(game.actions) > n:
                return to
        click(win, *bare_point(win, sid))            # the same hex again: nothing selected
    return None


def play_axis_by_clicks(win, until) -> list[str]:  # type: ignore[no-untyped-def]
    """The Axis by the mouse alone until `until()`: in each movement a stack to a lit hex,
    then the finish button; the finish button (or the first row) for every other decision.
    The hexes the Axis moved to."""
    game = win.game
    moved: list[str] = []
    for _ in range(400):
        run_computer(win)
        if until() or game.over:
            return moved
        d = win.decision
        assert d is not None and d.player == "Axis"
        if d.kind == "axis_move" and not any(m.startswith(f"{game.state.turn}:") for m in moved):
            to = move_a_stack(win)
            if to is not None:
                moved.append(f"{game.state.turn}:{to}")
                continue
        if d.finish is not None:
            click_finish(win)
        else:
            click_row(win, 0)
    raise AssertionError("the game did not get there")


# -- what goes where -----------------------------------------------------------------------------------
def test_area_ids_give_charts_and_their_columns():
    assert split_area("chart:Northern:3") == ("chart:Northern", 3)
    assert split_area("offboard:Axis") == ("offboard:Axis", None)
    assert split_area("reserve") == ("reserve", None)
    declared = {"offboard:Red": "Red reserve", "chart:Red:4": "Red chart, turn 4", "chart:Red:2": "Red chart, turn 2"}
    groups = area_groups(declared, ["offboard:Red", "dead:Blue", "chart:Red:3"])
    assert [g.key for g in groups] == ["offboard:Red", "dead:Blue", "chart:Red"]       # areas, then charts
    chart = groups[-1]
    assert [c.index for c in chart.columns] == [2, 3, 4] and chart.title == "Red chart"
    assert [c.name for c in chart.columns] == ["Red chart, turn 2", "chart Red 3", "Red chart, turn 4"]
    assert groups[1].title == "dead Blue"                                   # not declared: its id
    assert group_title("chart:X", ["Northern reinforcement chart, turn 3"]) == "Northern reinforcement chart"
    assert group_title("chart:X", []) == "chart X"


def test_the_turn_track_runs_to_the_last_turn_named_by_colour():
    names = ("Red", "Blue", "Green")
    assert turn_track(names, None, {"last_turn": 5}, 1) == ["Red", "Blue", "Green", "Turn 4", "Turn 5"]
    assert turn_track(names, None, {}, 2) == list(names)
    assert turn_track(names, None, {}, 4) == [*names, "Turn 4"]              # played on past the last
    assert turn_track((), 6, {}, 1) == [f"Turn {i}" for i in range(1, 7)]
    assert turn_track((), None, {}, 3) == []                                 # no length: no track
    assert turn_colour("Gray") == TURN_COLOURS["gray"] and turn_colour("Dawn") is None


# -- the tray as drawn -----------------------------------------------------------------------------------
def test_the_off_board_areas_and_charts_under_the_map(bulge_rs, make_window, tmp_path):
    game, win = bulge_window(bulge_rs, make_window)
    tray, state = win.tray, game.state
    declared = bulge_rs.logic.areas(game.scenario)
    assert len(declared) == 19 and set(tray.boxes) == set(declared)          # every area, clickable
    assert list(tray.group_rects) == ["offboard:Axis", "offboard:Allies", "chart:Axis", "chart:Northern",
                                      "chart:Southern", "chart:Western"]
    # a chart's columns left to right in the order of their turns
    xs = [tray.boxes[f"chart:Northern:{t}"][0] for t in (3, 4, 5, 6, 8)]
    assert xs == sorted(xs)
    # the counters: one a side and kind, with how many (as on the map)
    c = tray_counter(win, "chart:Axis:2", "Axis", "Infantry")
    assert tray.counter_pieces(state, c) == {p.id for p in state.pieces_at("chart:Axis:2") if p.kind == "Infantry"}
    assert len(tray.counter_pieces(state, c)) == 5
    for sid in declared:
        kinds = {(p.owner, p.kind) for p in state.pieces_at(sid)}
        assert {cc[1:3] for cc in tray.counters if cc[0] == sid} == kinds, sid
    # under the map: the map's area starts above the tray, and the legend too
    assert win.map_area()[1] == win.tray_height > 60 and win.tray_height <= 0.3 * win.height
    assert win.legend_rect is not None and win.legend_rect[1] >= win.tray_height
    img = draw(win, tmp_path / "opening.png")
    assert pixel(img, 3, 3) == TRAY_BG
    x, y = counter_point(c)
    assert pixel(img, x, y) != TRAY_BG
    # its tooltip says what waits there, by formation
    win.dispatch_event("on_mouse_motion", x, y, 0, 0)
    win.dispatch_events()
    assert win.hovered == "chart:Axis:2"
    assert "Axis reinforcement chart, turn 2" in win.hover_text and "9 SS Pz" in win.hover_text


def test_the_turn_track_and_the_vp_track(bulge_rs, make_window):
    game, win = bulge_window(bulge_rs, make_window)
    tray = win.tray
    assert [name for _, name, _ in tray.turn_boxes] == list(bulge_rs.structure.turn_names)
    assert tray.current_turn == tray.turn_boxes[0][2]                      # Red, turn 1
    img = draw(win)
    x, y, w, h = tray.current_turn
    assert pixel(img, x + w / 2, y + 1) == NOW_EDGE                          # its frame
    assert pixel(img, x + 4, y + 4) == TURN_COLOURS["red"]
    value, target, rect = tray.tracks["Axis VP"]
    assert (value, target) == (0, 24) and tray.track_labels["Axis VP"].text == "0 / 24"
    # the rules' hook, and the window following the state
    assert bulge_rs.logic.tracks(game.state) == {"Axis VP": (0, 24)}
    game.state.resources[("Axis", "vp")] = 6
    win.refresh()
    img = draw(win)
    assert tray.track_labels["Axis VP"].text == "6 / 24"
    bx, by, bw, bh = tray.tracks["Axis VP"][2]
    assert pixel(img, bx + bw * 0.1, by + bh / 2) != pixel(img, bx + bw * 0.5, by + bh / 2)   # a quarter filled
    # T hides the tray (a small screen), and brings it back
    from pyglet.window import key

    shown = win.tray_height
    win.dispatch_event("on_key_press", key.T, 0)
    win.dispatch_events()
    assert win.tray_height == 0 and win.map_area() == (0, 0, win.panel_x, win.height)
    win.dispatch_event("on_key_press", key.T, 0)
    win.dispatch_events()
    assert win.tray_height == shown and tray.track_labels["Axis VP"].text == "6 / 24"


# -- playing with the mouse ------------------------------------------------------------------------------------
def test_a_few_turns_of_bulge_by_clicks_alone(bulge_rs, make_window):
    game, win = bulge_window(bulge_rs, make_window)
    moved = play_axis_by_clicks(win, lambda: game.state.turn >= 3)
    assert game.state.turn == 3 and not game.over
    assert [m.split(":")[0] for m in moved] == ["1", "2"]                    # a stack moved each turn
    img = draw(win)
    tray = win.tray
    assert tray.current_turn == tray.turn_boxes[2][2]                       # the marker on Green
    assert tray.track_labels["Axis VP"].text == f"{game.state.resource('Axis', 'vp')} / 24"
    # the charts' columns of turn 3 are lit as the current turn's, those of turn 2 no more
    for sid, now in (("chart:Axis:3", True), ("chart:Northern:3", True), ("chart:Axis:2", False)):
        x, y, w, h = tray.boxes[sid]
        assert (pixel(img, x + 1, y + h / 2) == NOW_EDGE) == now, sid


@pytest.fixture(scope="module")
def to_reinforce(bulge_rs):  # type: ignore[no-untyped-def]
    """The actions up to the Axis reinforcements of turn 2 (Blue): the Axis ends each step,
    the Allies play at random (the clicks of a few turns are tested above)."""
    game = Game(bulge_rs, None, seed=1)
    allies = RandomPlayer(3)
    while not (game.state.turn == 2 and game.decision.kind == "axis_reinforce"):
        d = game.decision
        game.play(allies.choose(bulge_rs, game.state, d) if d.player == "Allies" else d.finish or d.options[0])
    return list(game.actions)


def reinforce_step(rs, make_window, actions, size=(1400, 880)):  # type: ignore[no-untyped-def]
    game = Game(rs, None, seed=1)
    for a in actions:
        game.play(a)
    win = make_window(game, computer={"Allies": RandomPlayer(3)}, width=size[0], height=size[1])
    draw(win)
    return game, win


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])        # Bulge's purchase: its charts
def test_a_reinforcement_from_its_chart_by_clicks(bulge_rs, to_reinforce, make_window, tmp_path, size):
    game, win = reinforce_step(bulge_rs, make_window, to_reinforce, size)
    state = game.state
    chart = "chart:Axis:2"
    before = {p.id for p in state.pieces_at(chart)}
    c = tray_counter(win, chart, "Axis", "Infantry")
    x, y, w, h = win.tray.boxes[chart]
    assert pixel(draw(win), x + 1, y + h / 2) == NOW_EDGE                   # the current turn's column
    click(win, *counter_point(c))
    assert win.pick is not None and win.pick.space == chart and win.pick.counter == ("Axis", "Infantry")
    lit, _ = win.targets()
    entries = {a["to"] for a in game.decision.options if a.kind == "place" and a["piece"] in win.pick.pieces}
    assert entries and entries <= set(lit)                                  # the entry hexes are lit
    draw(win, tmp_path / "chart_selected.png")
    to = sorted(entries)[len(entries) // 2]
    zoom_on(win, to, 2.5)
    n = len(game.actions)
    click(win, *bare_point(win, to))
    if len(game.actions) == n:                                              # infantry of two divisions: a row each
        assert win.narrowed and all(a.kind == "place" and a["to"] == to for a in win.narrowed)
        click_row(win, 0)
    played = game.actions[n]
    assert played.kind == "place" and played["to"] == to and played["piece"] in before
    state = game.state                                                     # (a new state after each action)
    assert state.pieces[played["piece"]].space == to
    draw(win)
    assert len(win.tray.counter_pieces(state, tray_counter(win, chart, "Axis", "Infantry"))) == 4


def test_an_off_board_truck_then_its_cargo_on_a_chart(bulge_rs, to_reinforce, make_window):
    game, win = reinforce_step(bulge_rs, make_window, to_reinforce)
    state = game.state
    trucks = [p.id for p in state.pieces_at("offboard:Axis") if p.kind == "Truck"]
    assert trucks
    click(win, *counter_point(tray_counter(win, "offboard:Axis", "Axis", "Truck")))
    _, cargo = win.targets()
    art = {p.id for p in state.pieces_at("chart:Axis:2") if p.kind == "Artillery"}
    assert art & cargo                                                       # the artillery on the chart is lit
    click(win, *counter_point(tray_counter(win, "chart:Axis:2", "Axis", "Artillery")))
    if win.narrowed:
        click_row(win, 0)
    played = game.actions[-1]
    assert played.kind == "load" and played["truck"] in trucks and played["piece"] in art
    assert game.state.pieces[played["piece"]].carrier == played["truck"]


def test_screenshots_of_the_tray(bulge_rs, to_reinforce, make_window, tmp_path):
    """The opening at the map's full view, and a reinforcement selected on its chart with
    its entry hexes lit, zoomed in; in docs/screenshots when GUI_SCREENSHOTS=1."""
    out = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    game, win = reinforce_step(bulge_rs, make_window, to_reinforce)
    win.map.fit(win.map_area())
    win.refresh()
    click(win, *counter_point(tray_counter(win, "chart:Axis:2", "Axis", "Tank")))
    draw(win)
    win.render_to_png(out / "bulge_chart_selected.png")
    win.map.zoom(2.2, win.map.screen("2008"))
    win.map.centre_on("2008")
    win.refresh()
    draw(win)
    win.render_to_png(out / "bulge_chart_zoomed.png")
    for png in ("bulge_chart_selected.png", "bulge_chart_zoomed.png"):
        assert (out / png).stat().st_size < 500_000
