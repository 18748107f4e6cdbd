"""Moving by the destination on the world map, as a TripleA player does: a unit, then a space two
steps away, and it goes there along the route the rules allow; a stack, then a space, and all of
it (or the number counted with [ and ]) goes; U takes the route back at once. Through synthetic
mouse events on LHTR; the outcome is read from the game state, and U says what it took back."""

from __future__ import annotations

from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import bare_point, click, counter_centre, draw, zoom_on  # noqa: E402

from clients import gui_moves  # noqa: E402
from clients.routes import reach  # noqa: E402
from engine.game import Game  # noqa: E402


def combat_move(rs) -> Game:  # type: ignore[no-untyped-def]
    game = Game(rs, None, seed=1)
    while game.decision.kind != "combat_move":
        game.play(game.decision.finish)
    return game


def test_the_rules_routes_reach_two_steps_and_no_further_than_the_unit_moves(lhtr_rs):
    game = combat_move(lhtr_rs)
    state = game.state
    tank = next(p.id for p in state.pieces.values() if p.kind == "Tank" and p.space == "Archangel")
    infantry = next(p.id for p in state.pieces.values() if p.kind == "Infantry" and p.space == "Archangel")
    shown = set(state.board.spaces)
    tank_to = reach(lhtr_rs, state, game.decision, tank, shown)
    assert tank_to["Karelia S.S.R."].steps == 1 and tank_to["Belorussia"].steps == 2
    assert max(r.steps for r in tank_to.values()) == 2
    assert tank_to["Belorussia"].spaces[0] == "Archangel"
    assert all(r.steps == 1 for r in reach(lhtr_rs, state, game.decision, infantry, shown).values())
    assert game.state is state                                  # tried on copies only


def test_a_unit_then_a_space_two_steps_away_moves_it_there(lhtr_rs, make_window, tmp_path):
    game = combat_move(lhtr_rs)
    win = make_window(game, computer={"Axis": None}, width=1280, height=720)
    zoom_on(win, "Archangel", 2.0)
    click(win, *counter_centre(win, "Archangel", "USSR", "Tank"))
    tank = game.actions[-1]["u"]
    direct, _ = win.at_rest()
    assert "Belorussia" in direct and "Karelia S.S.R." in direct           # two steps away: lit too
    win.on_mouse_motion(*bare_point(win, "Belorussia"), 0, 0)
    assert any(type(item).__name__ == "Line" for item in win._overlay_items)  # the route drawn
    draw(win, tmp_path / "route.png")
    n = len(game.actions)
    click(win, *bare_point(win, "Belorussia"))
    assert game.state.pieces[tank].space == "Belorussia"
    assert len(game.actions) - n == 3                          # choose, go, choose: the rules' own steps
    assert win.refusal == "" and game.decision.kind == "combat_move"
    assert win.narration[-1] == "USSR Tank: Archangel -> Karelia S.S.R. -> Belorussia"    # a route: one line
    win.undo()                                                  # the whole route at once, and says which
    assert game.state.pieces[tank].space == "Archangel" and len(game.actions) == n
    assert win.notice == "Undone: move Tank from Archangel to Belorussia (3 actions)"
    assert win.narration[-1] == "(undone: move Tank from Archangel to Belorussia (3 actions))"
    draw(win)
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert any("undone: move Tank from Archangel to Belorussia" in t for t in texts), texts


def test_a_stack_then_a_space_moves_the_units_that_can_get_there(lhtr_rs, make_window):
    game = combat_move(lhtr_rs)
    win = make_window(game, computer={"Axis": None}, width=1600, height=1000)
    zoom_on(win, "Karelia S.S.R.", 2.0)
    here = set(game.state.ids_at("Karelia S.S.R."))
    click(win, *bare_point(win, "Karelia S.S.R."))
    assert win.pick is not None and win.pick.pieces == here
    lit, _ = win.targets()
    assert "West Russia" in lit and "Belorussia" in lit
    can = [r.piece for r in gui_moves.routes(win)["West Russia"]]
    assert len(can) >= 2
    click(win, *bare_point(win, "West Russia"))
    assert all(game.state.pieces[p].space == "West Russia" for p in can)
    assert game.decision.kind == "combat_move" and win.refusal == ""
    win.undo()                                                  # every unit of the stack's route back
    assert all(game.state.pieces[p].space == "Karelia S.S.R." for p in can)
    assert win.notice.startswith("Undone: move ") and "from Karelia S.S.R. to West Russia" in win.notice


def test_square_brackets_count_how_many_of_the_stack_go(lhtr_rs, make_window):
    from pyglet.window import key

    game = combat_move(lhtr_rs)
    win = make_window(game, computer={"Axis": None}, width=1280, height=720)
    zoom_on(win, "Karelia S.S.R.", 2.0)
    click(win, *bare_point(win, "Karelia S.S.R."))
    can = [r.piece for r in gui_moves.routes(win)["West Russia"]]
    assert len(can) >= 2
    for _ in range(len(can)):
        win.dispatch_event("on_key_press", key.BRACKETLEFT, 0)
        win.dispatch_events()
    assert "Moving 1 of" in win.notice
    click(win, *bare_point(win, "West Russia"))
    assert sum(game.state.pieces[p].space == "West Russia" for p in can) == 1


def test_a_space_out_of_reach_says_why_and_keeps_the_unit_asked(lhtr_rs, make_window):
    game = combat_move(lhtr_rs)
    win = make_window(game, computer={"Axis": None}, width=1280, height=720)
    zoom_on(win, "Archangel", 2.0)
    click(win, *counter_centre(win, "Archangel", "USSR", "Tank"))
    n = len(game.actions)
    click(win, *bare_point(win, "SZ 4"))                        # the sea next door: the rules' reason
    assert len(game.actions) == n
    assert win.why.startswith("Not to ") and "to sea only aboard a transport" in win.why
    assert win.focus is not None and game.decision.kind == "choose"
    zoom_on(win, "Ukraine S.S.R.", 2.0)
    click(win, *bare_point(win, "Ukraine S.S.R."))              # beyond West Russia, where it must stop
    assert "cannot get there this step" in win.why and len(game.actions) == n
    assert win.why_label is not None and win.why in win.why_label.text
