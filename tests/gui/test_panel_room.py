"""The side panel from 1280x720 up: its blocks never draw over each other, and the last
battle's box, the computer's moves and the log fold (less of each, then one line of help)
rather than leave the question one row. The rulebook's example A (a battle with its dice and
fates) played at both sizes, with the computer's last moves and a full log beside it."""

from __future__ import annotations

from typing import Any

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw  # noqa: E402
from test_battle_fates import answer_retreats, game_on  # noqa: E402

from clients.gui import Played  # noqa: E402
from clients.gui_panel import ROW_H  # noqa: E402
from engine.actions import Action  # noqa: E402
from tests.bulge.conftest import Table  # noqa: E402

Rect = tuple[float, float, float, float]


def overlap(a: Rect, b: Rect) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def blocks(win: Any) -> dict[str, Rect]:
    """The panel's blocks as rectangles: the status line, each option row, the buttons, the
    battle box, the help and log lines under it."""
    out: dict[str, Rect] = {}
    s = win.status_label
    out["status"] = (s.x, s.y - s.content_height, s.content_width, s.content_height)
    for index, _, rect in win.option_rows:
        out[f"row {index + 1}"] = rect
    out["undo"] = win.undo_rect
    if win.finish_rect is not None:
        out["finish"] = win.finish_rect
    if win.battle_rect is not None:
        out["battle"] = win.battle_rect
    x0, _, w, _ = win.battle_rect or win.undo_rect
    for item in win._panel_items:           # the lines under the battle box: the log and the help
        if hasattr(item, "text") and item.anchor_y == "bottom" and item.y < (win.battle_rect or win.undo_rect)[1]:
            out[f"line {item.text[:30]}"] = (item.x, item.y, item.content_width, item.content_height)
    return out


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_the_panel_never_draws_over_itself(bulge_rs, make_window, tmp_path, size):
    t = Table(bulge_rs)
    s = t.state
    target, attack_from = t.hex("Martelange"), "1318"
    s.control[attack_from], s.control[target] = "Axis", "Allies"
    t.put("Allies", target, Infantry=2, Tank=1, Truck=1, Supply=1)
    t.put("Axis", attack_from, Infantry=1, Tank=2, Artillery=1, Supply=1)
    for other in sorted(s.board.neighbours(target)):     # Axis stacks that may still attack after
        if other != attack_from:
            s.control[other] = "Axis"
            t.put("Axis", other, Infantry=2, Tank=1, Supply=1)
    s.load_dice([1, 3, 3, 4, 5, 8, 8, 10])
    game = game_on(t)
    width, height = size
    win = make_window(game, computer={}, width=width, height=height)
    assert win.choose(Action("attack", {"from": attack_from, "to": target}))
    answer_retreats(win, game)
    assert win.battles.battle is not None and len(game.decision.options) > 5
    # a panel as full as play makes it: the computer's last moves and a long log
    win.computer_moves = [Played(0, "Allies", f"move Infantry #{n} from 0101 to 0102", ("0101",)) for n in range(5)]
    win.narration += [f"Allies Infantry #{n} moves from 0101 to 0102 on the road past the river" for n in range(12)]
    win.refresh()
    draw(win, tmp_path / f"panel_{width}x{height}.png")
    found = blocks(win)
    assert "battle" in found and "finish" in found
    names = sorted(found)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if overlap(found[a], found[b])]
    assert clashes == []
    # the question keeps four rows at least, under the status line
    assert len(win.option_rows) >= 4
    assert win.panel_fits
    assert all(r[1] + r[3] <= found["status"][1] for _, _, r in win.option_rows)
    assert all(r[3] >= ROW_H - 2 for _, _, r in win.option_rows)
    if height >= 1000:
        assert win.fold == 0                       # a tall window folds nothing


def test_a_mixed_stack_is_said_as_mixed(bulge_rs, make_window):
    from engine.game import Game

    game = Game(bulge_rs, None, seed=1)
    win = make_window(game, width=1280, height=720)
    draw(win)
    dasburg = game.state.board.find("Dasburg")
    counters = [c for c in win.layer.counters if c[0] == dasburg]
    assert counters
    pick = win.pick_at(dasburg, counters[0][:3])
    kinds = {game.state.pieces[p].kind for p in pick.pieces}
    assert len(kinds) > 1                                   # Dasburg holds several kinds of unit
    words = win._pick_words(pick)
    assert f"units ×{len(pick.pieces)} (" in words and all(k in words for k in kinds)


def test_unit_names_are_spaced_in_the_world_map_legend_and_the_options(lhtr_rs, make_window):
    from engine.game import Game

    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, width=1280, height=720)
    draw(win)
    assert win.legend_rect is None                          # the open buying box takes its corner
    win.buying.folded = True
    win.refresh(map_changed=False)
    draw(win)
    assert {"AA Gun", "Aircraft Carrier"} <= set(win.map.legend_rows) and "AAGun" not in win.map.legend_rows
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert not any("AAGun" in t or "IndustrialComplex" in t for t in texts)


@pytest.mark.parametrize("name", ["lhtr", "aarhe"])
@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_a_world_map_panel_after_a_battle_keeps_its_blocks_apart(make_window, tmp_path, name, size):
    from clients import seats
    from engine import plugins
    from engine.game import Game

    rs = plugins.load(name)
    game = Game(rs, None, seed=1)
    width, height = size
    win = make_window(game, computer=seats.assign(rs, ["all"]), width=width, height=height)
    for _ in range(400):                     # the computer plays to the first battle, and on a little
        assert win.step_computer()
        if win.battles.battle is not None and len(win.computer_moves) >= 3 and len(game.decision.options) > 4:
            break
    assert win.battles.battle is not None
    win.computer = {}                        # a person's turn now: the question and its rows
    win.refresh()
    draw(win, tmp_path / f"{name}_{width}x{height}.png")
    found = blocks(win)
    names = sorted(found)
    assert [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if overlap(found[a], found[b])] == []
    assert len(win.option_rows) >= 4 and win.panel_fits


def test_a_move_that_over_stacks_a_hex_is_warned_of_in_the_panel(bulge_rs, make_window, tmp_path):
    """Bulge's default: a move may over-stack a hex until upkeep, and the player is warned
    when it is made, in the panel above the buttons (not only in the log, which a full panel
    folds), until the next click."""
    from gui_support import bare_point, click, counter_centre, zoom_on

    t = Table(bulge_rs, turn=2, step="axis_move")
    for h in t.state.board.spaces:
        t.state.control[h] = "Axis"
    st_vith = t.hex("St. Vith")
    t.put("Axis", st_vith, Infantry=4)
    (mover,) = t.put_active("Axis", "1608", Infantry=1)
    t.put_active("Axis", "2001", Infantry=1)           # keeps the step open after the move
    game = game_on(t)
    win = make_window(game, computer={}, width=1280, height=720)
    zoom_on(win, "1608")
    click(win, *counter_centre(win, "1608", "Axis", "Infantry"))
    click(win, *bare_point(win, st_vith))
    assert game.state.pieces[mover].space == st_vith
    assert win.why.startswith("Warning: Axis now has more than 4 combat units in St. Vith (1709)")
    draw(win, tmp_path / "overstacked.png")
    assert win.why_label is not None and win.why_label.text == win.why
    click(win, *bare_point(win, "1608"))                 # the next click: the warning has been read
    assert win.why == ""


def test_ending_mobilize_with_units_unplaced_asks_saying_what_is_lost(lhtr_rs, make_window):
    """E at mobilize with a bought unit not placed: the question says how many units and
    IPCs are lost with the step, before anything is lost."""
    from pyglet.window import key

    from engine.game import Game

    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer={}, width=1280, height=720)
    assert win.choose(next(a for a in game.decision.options if "Infantry" in a.label))
    while game.decision.kind != "mobilize":
        assert win.choose(game.decision.finish)
    win.dispatch_event("on_key_press", key.E, 0)
    win.dispatch_events()
    assert win.prompt is not None and "1 unit not placed (3 IPCs) will be lost" in win.prompt.title
    assert game.state.pieces_at("pending:USSR")                     # nothing lost yet
    win.dispatch_event("on_key_press", key.ESCAPE, 0)
    win.dispatch_events()
    assert win.prompt is None and game.decision.kind == "mobilize"
