"""The window as a player meets it: undo that never breaks the game, an idle window that
draws nothing, the button that ends the step, long option labels, hex ids on demand, the
legend, and a board whose counters and names stay readable at every zoom."""

from __future__ import annotations

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

import pyglet  # noqa: E402
from gui_demo import FirstOption, load_demo, load_duel  # noqa: E402
from gui_support import draw  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from clients.gui import run_computer, save_screenshot  # noqa: E402
from clients.gui_map import half_width, symbol_for, unit_looks  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.game import Game  # noqa: E402


@pytest.fixture
def duel():  # type: ignore[no-untyped-def]
    return Game(load_duel(), "ardennes", seed=1)


@pytest.fixture
def demo():  # type: ignore[no-untyped-def]
    return Game(load_demo(), "ardennes", seed=1)


def first_move(game: Game) -> Action:
    return next(a for a in game.decision.options if a.kind == "move")


# -- undo ------------------------------------------------------------------------------------
def test_undo_takes_back_the_computers_answer_with_the_persons_move(duel, make_window):
    saved = []
    win = make_window(duel, computer={"Allied": FirstOption()}, saver=lambda g: saved.append(list(g.actions)))
    before = duel.state.signature()
    assert win.choose(first_move(duel))
    assert win.computer_turn()                     # Allied must answer, in the same step
    assert win.step_computer()
    assert win.human_turn() and len(duel.actions) == 2
    draw(win)
    assert win.can_undo()
    win.dispatch_event("on_key_press", key.U, 0)
    draw(win)
    # both actions are taken back: the decision is the person's own again, nothing hangs
    assert duel.actions == [] and duel.state.signature() == before
    assert duel.decision.player == "Axis" and win.human_turn()
    assert "the computer is choosing" not in " ".join(getattr(i, "text", "") for i in win._panel_items)
    assert saved[-1] == []                          # the undo is saved at once
    assert not win.can_undo()
    # and play goes on
    assert win.choose(first_move(duel))
    assert win.step_computer()


def test_undo_while_the_computer_is_about_to_answer(duel, make_window):
    win = make_window(duel, computer={"Allied": FirstOption()}, autoplay=True, computer_delay=30.0)
    assert win.choose(first_move(duel))
    assert win.computer_turn() and win._computer_pending
    assert win.undo()
    assert win.human_turn() and duel.actions == [] and not win._computer_pending
    # the computer seat is scheduled again when it is its turn again
    assert win.choose(first_move(duel))
    assert win._computer_pending
    win.close()


def test_no_undo_of_the_computers_answer_alone_nor_past_dice(duel, make_window):
    win = make_window(duel, computer={"Allied": FirstOption()})
    assert win.choose(Action("roll"))               # dice: no undo past them
    assert win.choose(first_move(duel))
    run_computer(win)
    assert win.undo() and len(duel.actions) == 1   # the move and the answer; not the roll
    assert not win.can_undo() and not win.undo()
    assert win.human_turn()


def test_the_computer_resumes_after_an_undo_on_the_clock(duel, make_window):
    win = make_window(duel, computer={"Allied": FirstOption()}, autoplay=True, computer_delay=0.0)
    assert win.choose(first_move(duel))
    pyglet.clock.tick()
    assert win.human_turn() and len(duel.actions) == 2
    assert win.undo()
    assert win.choose(first_move(duel))
    pyglet.clock.tick()
    assert win.human_turn() and len(duel.actions) == 2
    win.close()


# -- idle --------------------------------------------------------------------------------------
def test_an_idle_window_draws_nothing(demo, make_window):
    win = make_window(demo)
    draw(win)                             # runs the events queued when the window was made
    pyglet.clock.tick()
    frames = win.frames
    for _ in range(5):
        pyglet.clock.tick()
    assert win.frames == frames and not win._draw_pending
    # moving the mouse over the panel where nothing changes draws nothing either
    win.dispatch_event("on_mouse_motion", win.panel_x + 5, 5, 1, 0)
    win.dispatch_events()
    pyglet.clock.tick()
    assert win.frames == frames
    # a change draws once
    win.dispatch_event("on_key_press", key.H, 0)
    win.dispatch_events()
    pyglet.clock.tick()
    pyglet.clock.tick()
    assert win.frames == frames + 1


# -- the panel -----------------------------------------------------------------------------------
def test_the_finish_button_and_key_end_the_step(duel, make_window):
    win = make_window(duel, computer={"Allied": FirstOption()})
    draw(win)
    assert win.finish_rect is not None and "end the orders" in win.finish_label.text
    x, y, w, h = win.finish_rect
    others = len([a for a in duel.decision.options if a != duel.decision.finish])
    assert others
    # with other options open, the button asks first, as the terminal does for `done`
    win.dispatch_event("on_mouse_press", int(x + w / 2), int(y + h / 2), mouse.LEFT, 0)
    win.dispatch_events()
    assert duel.actions == [] and win.prompt is not None
    assert win.prompt.title == f"End the step: {duel.decision.finish.label}?"
    assert win.prompt.hint.startswith(f"{others} other option")
    win.dispatch_event("on_key_press", key.ESCAPE, 0)          # no: the step goes on
    win.dispatch_events()
    assert win.prompt is None and duel.actions == []
    win.dispatch_event("on_mouse_press", int(x + w / 2), int(y + h / 2), mouse.LEFT, 0)
    win.dispatch_event("on_key_press", key.ENTER, 0)           # yes
    win.dispatch_events()
    assert duel.actions[-1] == Action("done") and win.prompt is None
    # the next turn: the E key asks the same, and E again says yes
    win.dispatch_event("on_key_press", key.E, 0)
    win.dispatch_events()
    assert len(duel.actions) == 1 and win.prompt is not None
    win.dispatch_event("on_key_press", key.E, 0)
    win.dispatch_events()
    assert duel.actions[-1] == Action("done") and len(duel.actions) == 2


def test_the_finish_button_is_there_however_long_the_list(duel, make_window):
    win = make_window(duel, height=420)
    draw(win)
    d = duel.decision
    assert len(win.option_rows) < len(d.options)            # the list scrolls ...
    assert win.finish_rect is not None                        # ... the finish stays in view
    x, y, w, h = win.finish_rect
    assert 0 <= y and y + h <= win.height


def test_long_option_labels_wrap_and_show_in_full_in_a_tooltip(demo, make_window, tmp_path):
    win = make_window(demo)
    medium = Action("move", {"piece": 1, "to": "7,1"}, label="move " + "a long description " * 3 + "end")
    long = Action("move", {"piece": 1, "to": "7,3"}, label="move " + "a very long description " * 12 + "end")
    demo.decision.options[:0] = [long, medium]
    win.refresh()
    draw(win, tmp_path / "wrapped.png")
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert medium.label in texts                           # wrapped, whole
    index, action, (x, y, w, h) = win.option_rows[0]
    assert action is long and 2 * 24 < h < 5 * 16          # three lines, cut with an ellipsis ...
    assert long.label not in texts and any(t.endswith("…") and long.label.startswith(t[:-1]) for t in texts)
    win.dispatch_event("on_mouse_motion", int(x + w / 2), int(y + h / 2), 0, 0)
    draw(win, tmp_path / "tooltip.png")
    assert win.row_tip == long.label                       # ... and whole in the row's tooltip
    assert long.label in [getattr(i, "text", "") for i in win._top_items]
    win.dispatch_event("on_mouse_motion", win.panel_x + 5, 5, 0, 0)
    draw(win)
    assert win.row_tip == "" and long.label not in [getattr(i, "text", "") for i in win._top_items]


# -- the map -------------------------------------------------------------------------------------
def test_hex_ids_on_demand(demo, make_window):
    win = make_window(demo)
    draw(win)
    texts = {getattr(i, "text", None) for i in win.layer.items}
    assert "5,5" not in texts
    win.dispatch_event("on_key_press", key.H, 0)
    draw(win)
    texts = {getattr(i, "text", None) for i in win.layer.items}
    assert "5,5" in texts and "0,0" in texts


def test_the_legend_explains_the_map_and_hides(demo, make_window):
    win = make_window(demo)
    draw(win)
    texts = [getattr(i, "text", "") for i in win._legend_items]
    for t in ("Axis", "Allied", "road", "river (a barrier)", "bridge", "victory points"):
        assert t in texts, t
    assert any(t.startswith("Infantry") for t in texts) and any("armour" in t for t in texts)
    win.dispatch_event("on_key_press", key.L, 0)
    draw(win)
    assert win.legend_rect is None and win._legend_items == []


@pytest.mark.parametrize("zoom", [0.5, 1.0, 1.7, 3.0, 6.0])
def test_counters_stay_inside_their_hex_and_names_do_not_overlap(demo, make_window, zoom):
    for kind in ("Infantry", "Tank", "Artillery", "Truck", "Supply", "Fighter"):
        demo.state.add_piece(kind, "Allied", "3,4")          # a town hex with six kinds
        demo.state.add_piece(kind, "Axis", "9,6")
    win = make_window(demo)
    draw(win)                             # runs the events queued when the window was made
    win.map.zoom(zoom, win.map.screen("3,4"))
    win.refresh()
    draw(win)
    size = win.map.size
    assert win.layer.counters
    for sid, _, _, x, y, w, h in win.layer.counters:
        cx, cy = win.map.world(sid)
        for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            assert abs(px - cx) <= half_width(size, py - cy) + 0.5, (sid, zoom)
    boxes = list(win.layer.names.values())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_labels_scale_with_zoom(demo, make_window):
    win = make_window(demo)
    draw(win)

    def name_size() -> float:
        return next(i.font_size for i in win.layer.items if getattr(i, "text", "") == "Bastogne")

    small = name_size()
    win.map.zoom(2.0, win.map.screen("3,4"))
    win.refresh()
    draw(win)
    assert name_size() > small


def test_unit_symbols_come_from_what_the_ruleset_says():
    class Unit:
        def __init__(self, tags, **stats):  # type: ignore[no-untyped-def]
            self.tags = frozenset(tags)
            self.stats = stats

    assert symbol_for("Infantry") == "infantry"
    assert symbol_for("Panzer Grenadiers", Unit({"armor"})) == "armour"
    assert symbol_for("Stuka", Unit({"air"})) == "aircraft"
    assert symbol_for("Widget", Unit({"thing"})) == "letter"
    assert symbol_for("Widget", Unit((), symbol="artillery")) == "artillery"
    looks = unit_looks(["Fighter", "Bomber", "Widget"], {"Fighter": Unit({"air"}, short="F"),
                                                         "Bomber": Unit({"air"}, short="B")})
    assert looks["Fighter"].tagged and looks["Bomber"].letter == "B"    # two kinds, one symbol: lettered
    assert looks["Widget"].symbol == "letter" and looks["Widget"].letter == "W"


def test_ships_and_aircraft_get_a_silhouette_each_from_their_stats_not_their_names():
    from engine import plugins

    units = plugins.load("lhtr").rules.units
    looks = unit_looks(list(units), dict(units))
    shapes = {k: looks[k].shape for k in ("Battleship", "AircraftCarrier", "Destroyer", "Transport", "Submarine",
                                           "Fighter", "Bomber")}
    assert shapes == {"Battleship": "battleship", "AircraftCarrier": "carrier", "Destroyer": "destroyer",
                      "Transport": "transport", "Submarine": "submarine", "Fighter": "fighter", "Bomber": "bomber"}
    assert not any(looks[k].tagged for k in shapes)              # told apart without a letter
    assert looks["Infantry"].shape == "" and looks["Tank"].shape == ""      # land keeps its NATO symbol
    renamed = unit_looks(["Kreuzer", "Zerstoerer"], {"Kreuzer": units["Battleship"], "Zerstoerer": units["Destroyer"]})
    assert (renamed["Kreuzer"].shape, renamed["Zerstoerer"].shape) == ("battleship", "destroyer")


def test_save_key(demo, make_window):
    saved = []
    win = make_window(demo, saver=saved.append)
    win.dispatch_event("on_key_press", key.S, key.MOD_CTRL)
    win.dispatch_events()
    assert saved == [demo] and win.notice == "Saved (0 actions)"      # what it did, always said


def test_save_screenshot_writes_a_png(demo, tmp_path, capsys):
    path = tmp_path / "opening.png"
    assert save_screenshot(demo, {}, path, width=900, height=600) == 0
    img = pyglet.image.load(str(path))
    assert (img.width, img.height) == (900, 600)
    assert path.stat().st_size > 10_000


def test_play_screenshot_on_the_command_line(tmp_path, capsys):
    from clients.cli import main

    path = tmp_path / "bulge.png"
    assert main(["play", "bulge", "--seed", "1", "--screenshot", str(path)]) == 0
    img = pyglet.image.load(str(path))
    assert (img.width, img.height) == (1400, 880)
    assert 10_000 < path.stat().st_size < 500_000
    assert f"wrote {path}" in capsys.readouterr().out
