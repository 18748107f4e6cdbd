"""A turn of LHTR and AARHE played with the mouse as a TripleA player plays it, at 1280x720 and
1600x1000 (in docs/screenshots, LHTR's, when GUI_SCREENSHOTS=1): two Artillery bought with + and one Buy, a tank sent two territories on with one
click on where it goes (no question: its routes are alike), the battle there fought with one
click, its dice and each side's units in the battle box (no piece ids), the panel's blocks and
the legend never over each other or the tray. Each step through synthetic mouse events; the
outcome is read from the game state."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import bare_point, click, counter_centre, draw, zoom_on  # noqa: E402
from test_panel_room import blocks, overlap  # noqa: E402

from clients import gui_route_chooser  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402


@pytest.fixture(scope="module", params=["lhtr", "aarhe"])
def ruleset(request):  # type: ignore[no-untyped-def]
    return plugins.load(request.param)


def press(win, label: str, sign: str) -> None:  # type: ignore[no-untyped-def]
    for (x, y, w, h), what, action in win.buying.buttons:
        if what == sign and (action is None or action.label.startswith(label)):
            click(win, x + w / 2, y + h / 2)
            return
    raise AssertionError(f"no {sign} for {label}")


def until(win, kind: str) -> None:  # type: ignore[no-untyped-def]
    """Ends each step (the person's with the window's finish) up to a decision of `kind`."""
    game = win.game
    for _ in range(200):
        if game.decision.kind == kind:
            return
        if win.human_turn():
            assert win.finish(), game.decision
        else:                                   # the Axis' own steps: ended as they stand
            d = game.decision
            game.play(d.finish or d.options[-1])
            win.refresh()
    raise AssertionError(f"no {kind}: {game.decision}")


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_buy_move_two_territories_and_fight(ruleset, make_window, tmp_path, size):
    shots = ruleset.info.name == "lhtr" and os.environ.get("GUI_SCREENSHOTS")
    out = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if shots else tmp_path
    tag = f"{ruleset.info.name}_{size[0]}x{size[1]}"
    game = Game(ruleset, None, seed=1)
    win = make_window(game, computer={"Axis": None}, width=size[0], height=size[1], autoplay=False)
    draw(win)
    assert game.decision.kind == "purchase" and game.decision.player == "USSR"
    ipcs = game.state.resources[("USSR", "ipc")]
    press(win, "buy Artillery", "+")
    press(win, "buy Artillery", "+")
    press(win, "", "buy")
    assert [a.get("kind") for a in game.actions] == ["Artillery", "Artillery"]
    assert game.state.resources[("USSR", "ipc")] == ipcs - 8

    until(win, "combat_move")
    zoom_on(win, "Archangel", 2.0)
    tank = next(p.id for p in game.state.pieces.values()
                if (p.kind, p.owner, p.space) == ("Tank", "USSR", "Archangel"))
    click(win, *counter_centre(win, "Archangel", "USSR", "Tank"))
    zoom_on(win, "Belorussia", 2.0)
    assert "Belorussia" in win.at_rest()[0]                     # two territories on: lit
    click(win, *bare_point(win, "Belorussia"))
    assert gui_route_chooser.current(win) is None               # its routes are alike: no question
    assert game.state.pieces[tank].space == "Belorussia"
    assert win.narration[-1].startswith("USSR Tank: Archangel -> ") and win.narration[-1].endswith(" -> Belorussia")
    draw(win)
    win.render_to_png(out / f"{tag}_moved.png")
    assert_no_overlaps(win)

    until(win, "conduct_combat")
    n_log = len(game.log)
    assert "Belorussia" in win.at_rest()[0]                     # the battle there: one click fights it
    click(win, *bare_point(win, "Belorussia"))
    assert any(kind == "roll" for kind, _ in game.log[n_log:])
    assert win.battles.battle is not None
    draw(win)
    win.render_to_png(out / f"{tag}_battle.png")
    # the battle box: each side's units with what they hit on, the dice, no piece ids
    assert win.battle_rect is not None
    texts = box_texts(win)
    assert texts[0].lower() == "battle in belorussia" and any(" destroyed: " in t for t in texts), texts
    said = " · ".join(texts)                                    # what became of each side's units, folded or not
    assert "Germany destroyed: " in said and ("USSR destroyed: Tank" in said or "USSR survived: Tank" in said), texts
    assert not [t for t in texts if re.search(r"#\d|\b(pending|offboard|chart):", t)]
    if size[1] >= 1000:                                         # room for the whole box: the sides and dice
        assert any(t.startswith("USSR ") and "Tank" in t for t in texts), texts
        assert win.dice_labels, texts
    assert_no_overlaps(win)


def box_texts(win) -> list[str]:  # type: ignore[no-untyped-def]
    x, y, w, h = win.battle_rect
    return [i.text for i in win._panel_items if hasattr(i, "text") and x <= i.x <= x + w and y <= i.y <= y + h]


def assert_no_overlaps(win) -> None:  # type: ignore[no-untyped-def]
    """The panel's blocks apart, and the legend clear of the tray and the buying box."""
    found = blocks(win)
    names = sorted(found)
    assert [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if overlap(found[a], found[b])] == []
    if win.legend_rect is not None:
        assert not overlap(win.legend_rect, win.tray.rect)
        if win.buying.rect is not None:
            assert not overlap(win.legend_rect, win.buying.rect)
