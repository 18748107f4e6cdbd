"""The world map's legend never covers the pending-units tray (the mobilization pools under the
map), at the laptop sizes 1280x720 and 1366x768: with units bought and waiting in the pool, in
mobilize where they are placed from it, and with the buying box folded in its corner. Read
from the rectangles the window drew and from the pixels of the pool's counters."""

from __future__ import annotations

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw  # noqa: E402

from engine.game import Game  # noqa: E402

SIZES = [(1280, 720), (1366, 768)]


def overlap(a, b) -> bool:  # type: ignore[no-untyped-def]
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def bought(rs, step: str) -> Game:  # type: ignore[no-untyped-def]
    """The USSR's first turn with 3 Infantry and a Tank bought, played on to `step`."""
    game = Game(rs, None, seed=1)
    d = game.decision
    for kind, n in (("Infantry", 3), ("Tank", 1)):
        option = next(a for a in d.options if a != d.finish and a.args.get("kind") == kind)
        for _ in range(n):
            game.play(option)
    while game.decision.kind != step:
        game.play(game.decision.finish)
    return game


def assert_tray_clear(win) -> None:  # type: ignore[no-untyped-def]
    """The legend (when shown) is over no part of the tray, and the pool's counters show."""
    draw(win)
    tray = win.tray
    assert tray.height > 0 and win.legend_rect is not None
    assert not overlap(win.legend_rect, tray.rect), (win.legend_rect, tray.rect)
    for name, rect in tray.group_rects.items():
        assert not overlap(win.legend_rect, rect), (name, rect, win.legend_rect)
    pool = [c for c in tray.counters if c[0] == "pending:USSR"]
    assert pool, [c[:3] for c in tray.counters]
    for c in pool:
        x, y, w, h = c[-4:]
        assert not overlap(win.legend_rect, (x, y, w, h)), c
    assert win.legend_rect[1] >= win.tray_height               # above it, the map's area starting there too


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("step", ["combat_move", "mobilize"])
def test_the_legend_stands_above_the_pool_of_bought_units(lhtr_rs, make_window, size, step) -> None:
    game = bought(lhtr_rs, step)
    win = make_window(game, computer={"Axis": None}, width=size[0], height=size[1])
    assert_tray_clear(win)


@pytest.mark.parametrize("size", SIZES)
def test_the_legend_above_the_folded_buying_box_is_clear_of_the_tray(lhtr_rs, make_window, size) -> None:
    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer={"Axis": None}, width=size[0], height=size[1])
    draw(win)
    (x, y, w, h) = next(rect for rect, name, _ in win.buying.buttons if name == "fold")
    win.dispatch_event("on_mouse_press", int(x + w / 2), int(y + h / 2), 1, 0)
    win.dispatch_event("on_mouse_release", int(x + w / 2), int(y + h / 2), 1, 0)
    win.dispatch_events()
    assert win.buying.folded
    draw(win)
    assert win.legend_rect is not None and not overlap(win.legend_rect, win.buying.rect)
    assert not overlap(win.legend_rect, win.tray.rect)
