"""After an action the window makes again only what changed: the counters of the spaces the
action touched, the panel's labels whose text changed, the legend and a world map's chart
when what they show changed; and what it shows is what a window made from scratch shows."""

from __future__ import annotations

from typing import Any

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw  # noqa: E402

from clients import seats  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402


def drawn_counters(win: Any) -> set[tuple[Any, ...]]:
    return {tuple(round(v, 3) if isinstance(v, float) else v for v in c) for c in win.layer.counters}


def shown(win: Any, state: Any) -> tuple[set[str], set[str]]:
    """What a legend tells: the holders and owners, the kinds of the pieces on the map."""
    return (set(state.control.values()) | {p.owner for p in state.pieces.values()},
            {p.kind for p in state.pieces.values() if p.space in win.map.hexes})


@pytest.mark.parametrize("ruleset", ["bulge", "lhtr"])
def test_an_action_remakes_only_what_it_changed(ruleset, make_window):
    rs = plugins.load(ruleset)
    game = Game(rs, None, seed=1)
    players = seats.assign(rs, ["all"], seed=1)
    win = make_window(game, computer={}, width=1400, height=880)
    draw(win)
    moved = 0
    for _ in range(80):
        d = game.decision
        before = game.state
        action = players[seats.seat_of(rs, d.player)].choose(rs, before, d)
        drawn = dict(getattr(win.layer, "_drawn", None) or getattr(win.layer, "_built", {}))
        labels = {id(i): i for i in win._panel_items if hasattr(i, "text")}
        legend, tray = list(win._legend_items), win.tray_height
        assert win.choose(action)
        draw(win)
        after = game.state
        changed = {sid for sid in win.map.hexes
                   if sorted((p.owner, p.kind) for p in before.pieces_at(sid))
                   != sorted((p.owner, p.kind) for p in after.pieces_at(sid))}
        now = dict(getattr(win.layer, "_drawn", None) or getattr(win.layer, "_built", {}))
        kept = {sid for sid in drawn if sid in now and now[sid][1] is drawn[sid][1]}
        # the spaces whose pieces did not change keep their shapes; those that did are remade
        assert not (kept & changed)
        if ruleset == "bulge":
            assert kept == {sid for sid in drawn if sid not in changed and sid in now}
        moved += bool(changed)
        # a label showing the same text in the same place style is the same label
        same = [i for i in win._panel_items if id(i) in labels]
        assert same, "no panel label was kept"
        # the legend is remade only when who holds or owns, or the kinds on the map, changed
        if legend and shown(win, before) == shown(win, after) and (tray == win.tray_height or ruleset == "lhtr"):
            assert win._legend_items == legend
    assert moved >= 5
    # what is drawn is what a layer made from scratch draws
    kept_counters = drawn_counters(win)
    win.layer = None
    draw(win)
    assert drawn_counters(win) == kept_counters


def test_the_world_chart_is_kept_until_the_turn_moves_on(make_window):
    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=1)
    win = make_window(game, computer={}, width=1400, height=880)
    draw(win)
    chart = list(win._chart_items)
    assert chart
    win.refresh()
    draw(win)
    assert win._chart_items == chart                    # nothing changed: the same chart
    assert win.finish()                                  # the step ends: the chart shows the next
    draw(win)
    assert win._chart_items and win._chart_items != chart
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert "combat move" in texts and "▶ USSR" in texts
