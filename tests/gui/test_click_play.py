"""Playing with the mouse, as a player does: click a unit or a stack, then a lit hex, and the
unit moves; the attacking hex, then its target, and the dice show; a truck, then its cargo;
a hex that is not lit, and the rules say why not. On Bulge, LHTR and a ruleset written in
Python, through synthetic mouse events; the outcome is read from the game state."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_demo import load_demo, load_duel  # noqa: E402
from gui_support import bare_point, click, counter_centre, draw, zoom_on  # noqa: E402

from clients import seats  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.game import Game  # noqa: E402


def bulge_at(rs, kind: str) -> Game:  # type: ignore[no-untyped-def]
    """Seed 1, the computer playing both sides up to the first decision of `kind`."""
    game = Game(rs, None, seed=1)
    players = seats.assign(rs, ["all"], seed=1)
    while game.decision.kind != kind:
        d = game.decision
        game.play(players[seats.seat_of(rs, d.player)].choose(rs, game.state, d))
    return game


SIZES = [(1280, 720), (1600, 1000)]


@pytest.mark.parametrize("size", SIZES)
def test_a_unit_then_a_lit_hex_moves_it_and_an_unlit_one_says_why_not(bulge_rs, make_window, tmp_path, size):
    game = bulge_at(bulge_rs, "axis_move")
    win = make_window(game, computer={"Allies": None}, width=size[0], height=size[1])
    zoom_on(win, "1712")
    art = game.state.pieces[43]
    assert (art.kind, art.space) == ("Artillery", "1712")
    n = len(game.actions)
    click(win, *counter_centre(win, "1712", "Axis", "Artillery"))
    assert win.pick is not None and win.pick.pieces == {43}
    lit, _ = win.targets()
    assert "1711" in lit and "1612" not in lit               # 1612 is across a river barrier
    assert all(43 in a["pieces"] for a in win.visible_options())
    draw(win, tmp_path / "selected.png")
    # a hex that is not lit: nothing is played, the rules say why
    click(win, *bare_point(win, "1612"))
    assert len(game.actions) == n and game.state.pieces[43].space == "1712"
    assert "river barrier" in win.why and "Artillery" in win.why
    assert win.why_label is not None and win.why in win.why_label.text
    assert win.pick is not None and win.pick.pieces == {43}    # still selected
    draw(win, tmp_path / "why_not.png")
    # a lit hex: the one move there is played
    click(win, *bare_point(win, "1711"))
    assert game.actions[n:] == [Action("move", {"pieces": (43,), "to": "1711"})]
    assert game.state.pieces[43].space == "1711"
    assert win.why == "" and win.refusal == ""


def test_a_stack_then_a_hex_several_moves_fit_lists_just_those(bulge_rs, make_window):
    game = bulge_at(bulge_rs, "axis_move")
    win = make_window(game, computer={"Allies": None}, width=1400, height=880)
    zoom_on(win, "1712")
    click(win, *bare_point(win, "1712"))                     # the hex, not a counter: the whole stack
    assert win.pick is not None and win.pick.pieces == set(game.state.ids_at("1712"))
    click(win, *bare_point(win, "1711"))
    going = [a for a in game.decision.options if a.get("to") == "1711"
             and set(a["pieces"]) <= set(game.state.ids_at("1712"))]
    assert len(going) > 1 and win.narrowed == going          # several: listed, none played
    draw(win)
    assert [a for _, a, _ in win.option_rows] == going
    assert win.finish_rect is not None                       # the finish is still there
    n = len(game.actions)
    x, y, w, h = win.option_rows[1][2]
    win.dispatch_event("on_mouse_press", int(x + w / 2), int(y + h / 2), 1, 0)
    win.dispatch_events()
    assert game.actions[n:] == [going[1]]
    assert all(game.state.pieces[p].space == "1711" for p in going[1]["pieces"])


@pytest.mark.parametrize("size", SIZES)
def test_the_attacking_hex_then_its_target_attacks_and_the_dice_show(bulge_rs, make_window, tmp_path, size):
    game = Game(bulge_rs, None, seed=1)
    assert game.decision.kind == "attacks"
    win = make_window(game, computer={"Allies": None}, width=size[0], height=size[1])
    zoom_on(win, "1713")
    click(win, *bare_point(win, "1713"))
    assert "1613" in win.targets()[0]
    n_log = len(game.log)
    click(win, *bare_point(win, "1613"))
    assert game.actions[-1] == Action("attack", {"from": "1713", "to": "1613"})
    rolls = [e[1]["faces"] for e in game.log[n_log:] if e[0] == "roll"]
    assert rolls
    draw(win, tmp_path / "battle.png")
    battle = win.battles.battle
    assert battle is not None and "Clervaux" in battle.title
    assert [list(r.faces) for r in battle.rolls] == rolls
    assert [lb.text for lb in win.dice_labels] == [str(f) for faces in rolls for f in faces]
    assert any("attacks" in line for line in battle.lines)    # who attacks with what, before the dice
    assert win.battle_rect is not None and win.battle_rect[0] >= win.panel_x


def test_a_truck_then_its_cargo_loads_it(bulge_rs, make_window):
    game = bulge_at(bulge_rs, "axis_move")
    win = make_window(game, computer={"Allies": None}, width=1400, height=880)
    zoom_on(win, "1713", 4.0)
    click(win, *counter_centre(win, "1713", "Axis", "Truck"))
    truck = next(iter(win.pick.pieces))
    _, cargo = win.targets()
    assert 34 in cargo                                         # the artillery is lit as cargo
    click(win, *counter_centre(win, "1713", "Axis", "Artillery"))
    assert game.actions[-1] == Action("load", {"truck": truck, "piece": 34})
    assert game.state.pieces[34].carrier == truck


def test_why_not_in_a_ruleset_written_in_python(make_window):
    """The duel's rules move a unit one hex an order and then ask the other side: no route
    goes further, and a far hex says why in the rules' words."""
    duel = Game(load_duel(), "ardennes", seed=1)
    win = make_window(duel, computer={"Allied": None})
    zoom_on(win, "8,4", 2.0)
    click(win, *counter_centre(win, "8,4", "Axis", "Tank"))
    tank = next(iter(win.pick.pieces))
    lit, _ = win.targets()
    far = next(s for s in ("6,4", "10,4", "8,2") if s not in lit)
    click(win, *bare_point(win, far))
    assert f"cannot move to {far}" in win.why and duel.actions == []
    near = next(iter(lit))
    click(win, *bare_point(win, near))
    assert duel.actions[0] == Action("move", {"piece": tank, "to": near})


def test_a_free_moving_unit_goes_by_a_route_in_a_ruleset_written_in_python(make_window):
    """The demo's rules let a unit move hex by hex as long as it likes: a hex two away is lit,
    and a click there plays the two moves."""
    demo = Game(load_demo(), "ardennes", seed=1)
    win = make_window(demo)
    zoom_on(win, "7,2", 2.0)
    click(win, *counter_centre(win, "7,2", "Axis", "Tank"))
    tank = next(iter(win.pick.pieces))
    lit, _ = win.targets()
    far = next(s for s in lit if s not in demo.state.board.neighbours("7,2") and s != "7,2")
    click(win, *bare_point(win, far))
    assert demo.state.pieces[tank].space == far and len(demo.actions) >= 2
    assert all(a.kind == "move" and a["piece"] == tank for a in demo.actions)


def test_lhtr_a_unit_then_a_territory(lhtr_rs, make_window, tmp_path):
    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer={"Axis": None}, width=1400, height=880)
    while game.decision.kind != "combat_move":
        assert win.finish()
    zoom_on(win, "Archangel", 2.0)
    click(win, *counter_centre(win, "Archangel", "USSR", "Tank"))
    # one option named the tank and nothing else to click: played, and its question asked
    assert game.actions[-1].kind == "go" and game.decision.kind == "choose"
    tank = game.actions[-1]["u"]
    assert win.focus is not None and tank in win.focus.pieces     # the tank stays marked while it is asked where
    direct, _ = win.at_rest()
    choices = {a["choice"] for a in game.decision.options}
    assert direct >= {c for c in choices if c in win.map.hexes}      # where it can go, lit
    assert "Belorussia" in direct - choices                          # and two steps away, by a route
    draw(win, tmp_path / "lhtr_choose.png")
    to = next(c for c in choices if c != "Archangel" and c in win.map.hexes)
    zoom_on(win, to, 2.0)
    click(win, *bare_point(win, to))
    assert game.actions[-1] == Action("choose", {"choice": to})
    assert game.state.pieces[tank].space == to


def test_right_click_and_escape_clear(bulge_rs, make_window):
    game = bulge_at(bulge_rs, "axis_move")
    win = make_window(game, computer={"Allies": None}, width=1400, height=880)
    zoom_on(win, "1712")
    click(win, *bare_point(win, "1712"))
    click(win, *bare_point(win, "1711"))
    assert win.narrowed
    from pyglet.window import key, mouse

    win.dispatch_event("on_key_press", key.ESCAPE, 0)          # back to the stack's options
    win.dispatch_events()
    assert win.narrowed is None and win.pick is not None
    click(win, *bare_point(win, "1712"), mouse.RIGHT)
    assert win.pick is None and win.visible_options() == game.decision.options


def test_screenshots_for_the_docs(bulge_rs, lhtr_rs, make_window, tmp_path):
    """Playing by clicking, as a player sees it; in docs/screenshots when GUI_SCREENSHOTS=1
    (else to tmp): a Bulge unit selected with where it can go lit and why it cannot cross a
    river, an attack's dice, an LHTR unit asked where it goes, the new-game screen."""
    from gui_support import config

    from clients.gui import GameWindow
    from clients.launch import Launcher

    out = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    game = bulge_at(bulge_rs, "axis_move")
    win = make_window(game, computer={"Allies": None}, width=1400, height=880)
    zoom_on(win, "1712", 2.4)
    click(win, *counter_centre(win, "1712", "Axis", "Artillery"))
    click(win, *bare_point(win, "1612"))
    assert "river" in win.why
    win.render_to_png(out / "bulge_unit_selected.png")

    game = Game(bulge_rs, None, seed=1)
    win = make_window(game, computer={"Allies": None}, width=1400, height=880)
    zoom_on(win, "1713", 2.4)
    click(win, *bare_point(win, "1713"))
    win.render_to_png(out / "bulge_attack_from.png")
    click(win, *bare_point(win, "1613"))
    assert win.battles.battle is not None
    draw(win)
    win.render_to_png(out / "bulge_battle_dice.png")

    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer={"Axis": None}, width=1400, height=880)
    while game.decision.kind != "combat_move":
        assert win.finish()
    draw(win)                                                  # the whole world: where the tank may go is lit
    click(win, *counter_centre(win, "Archangel", "USSR", "Tank"))
    assert win.focus is not None
    draw(win)
    win.render_to_png(out / "lhtr_unit_moving.png")
    zoom_on(win, "Karelia S.S.R.", 2.0)                        # the route to a territory two away, drawn
    win.on_mouse_motion(*bare_point(win, "Belorussia"), 0, 0)
    draw(win)
    win.render_to_png(out / "lhtr_route.png")

    game = Game(lhtr_rs, None, seed=1)                         # buying with quantities, at 1280x720
    win = make_window(game, computer={"Axis": None}, width=1280, height=720)
    draw(win)
    for label, n in (("buy Infantry", 3), ("buy Tank", 1)):
        for _ in range(n):
            (x, y, w, h) = next(r for r, what, a in win.buying.buttons if what == "+" and a.label.startswith(label))
            click(win, x + w / 2, y + h / 2)
    draw(win)
    win.render_to_png(out / "lhtr_buy_1280x720.png")

    screen = GameWindow(None, launcher=Launcher(), width=1400, height=880, visible=False, config=config(),
                        autoplay=False)
    try:
        screen.render_to_png(out / "new_game_screen.png")
    finally:
        screen.close()
    for png in out.glob("*.png"):
        assert png.stat().st_size < 500_000, png
