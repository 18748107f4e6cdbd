"""Buying as a TripleA player does: + and - for each unit, the running total and what is left,
one Buy; a + the treasury cannot pay says why in the rules' words. Through synthetic clicks on
LHTR's purchase; the outcome is read from the game state."""

from __future__ import annotations

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import click, draw  # noqa: E402

from engine.game import Game  # noqa: E402


def press(win, label: str, sign: str) -> None:  # type: ignore[no-untyped-def]
    """Press the + or - of the row whose option's label starts `label`."""
    for (x, y, w, h), what, action in win.buying.buttons:
        if what == sign and action is not None and action.label.startswith(label):
            click(win, x + w / 2, y + h / 2)
            return
    raise AssertionError(f"no {sign} for {label}")


def press_named(win, what: str) -> None:  # type: ignore[no-untyped-def]
    (x, y, w, h) = next(rect for rect, name, _ in win.buying.buttons if name == what)
    click(win, x + w / 2, y + h / 2)


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_plus_and_minus_then_one_buy(lhtr_rs, make_window, tmp_path, size):
    game = Game(lhtr_rs, None, seed=1)
    assert game.decision.kind == "purchase" and game.decision.player == "USSR"
    win = make_window(game, computer={"Axis": None}, width=size[0], height=size[1])
    draw(win)
    assert win.buying.options                                   # the box is up for the purchase
    # docked at the map's bottom (its southern seas): it hides none of the USSR's territories
    ax, ay, aw, ah = win.map_area()
    bx, by, bw, bh = win.buying.rect
    assert ax <= bx and bx + bw <= ax + aw and ay <= by and by + bh < ay + ah / 3
    held = [sid for sid, who in game.state.control.items() if who == "USSR" and sid in win.map.hexes]
    assert held and not [sid for sid in held if win.buying.contains(*win.map.screen(sid))]
    ipcs = game.state.resources[("USSR", "ipc")]
    for _ in range(3):
        press(win, "buy Infantry", "+")
    press(win, "buy Tank", "+")
    press(win, "buy Tank", "+")
    press(win, "buy Tank", "-")
    assert game.actions == []                                   # nothing bought yet
    texts = [getattr(i, "text", "") for i in win.buying._items]
    assert any(f"14 IPC spent · {ipcs - 14} IPC left" in t for t in texts), texts
    draw(win, tmp_path / f"buy_{size[0]}.png")
    press(win, "buy Battleship", "+")                            # 24 more than the 10 left
    assert win.buying.why and game.actions == []
    assert win.buying.counts.get(next(a for a in win.buying.options if "Battleship" in a.label)) is None
    press_named(win, "buy")
    assert [a["kind"] for a in game.actions] == ["Infantry"] * 3 + ["Tank"]
    assert game.state.resources[("USSR", "ipc")] == ipcs - 14
    assert game.decision.kind == "purchase" and not win.buying.counts


def test_a_step_that_is_not_a_purchase_has_no_box(lhtr_rs, make_window):
    game = Game(lhtr_rs, None, seed=1)
    while game.decision.kind != "combat_move":
        game.play(game.decision.finish)
    win = make_window(game, computer={"Axis": None})
    draw(win)
    assert not win.buying.options and win.buying.rect is None


def test_the_box_folds_to_its_title_and_opens_again(lhtr_rs, make_window):
    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer={"Axis": None}, width=1280, height=720)
    draw(win)
    press(win, "buy Infantry", "+")
    high = win.buying.rect[3]
    press_named(win, "fold")
    assert win.buying.folded and win.buying.rect[3] < high / 3
    assert win.legend_rect is not None and win.legend_rect[1] >= sum(win.buying.rect[1::2])   # the legend above
    assert any("1 unit" in getattr(i, "text", "") for i in win.buying._items)    # the basket kept
    press_named(win, "fold")
    assert not win.buying.folded and sum(win.buying.counts.values()) == 1
