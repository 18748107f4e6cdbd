"""The window speaks of the board's spaces in the board's words: "hex" on the Bulge's hex map,
"territory", "sea zone" or "space" on the LHTR world map, in the panel's notes, its help
line, the legend and the hints under a selection."""

from __future__ import annotations

import re
from typing import Any

from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import click, counter_centre, draw  # noqa: E402

from clients.textmap import plural, space_noun  # noqa: E402
from engine.game import Game  # noqa: E402

HEX = re.compile(r"\bhex(es)?\b", re.IGNORECASE)


def panel_texts(win: Any) -> list[str]:
    return [item.text for item in win._panel_items + win._legend_items if hasattr(item, "text")]


def test_the_nouns_follow_the_kinds_of_the_spaces(bulge_rs, lhtr_rs):
    bulge = Game(bulge_rs, None, seed=1).state.board
    world = Game(lhtr_rs, None, seed=1).state.board
    assert space_noun(bulge) == "hex" and plural("hex") == "hexes"
    assert space_noun(world) == "space"
    assert space_noun(world, ["Archangel", "Karelia S.S.R."]) == "territory" and plural("territory") == "territories"
    assert space_noun(world, ["SZ 4"]) == "sea zone" and plural("sea zone") == "sea zones"
    assert space_noun(world, ["SZ 4", "Archangel"]) == "space"


def test_the_bulge_window_says_hex(bulge_rs, make_window):
    win = make_window(Game(bulge_rs, None, seed=1), computer={"Allies": None}, width=1400, height=880)
    draw(win)
    texts = panel_texts(win)
    assert any("then a lit hex" in t and "H: hex ids" in t for t in texts)       # the help line
    assert any("H: hex ids" in t for t in texts)                                  # the legend
    assert any("outlined hex on the map" in t for t in texts)
    assert not any("territor" in t for t in texts)


def test_the_world_map_never_says_hex(lhtr_rs, make_window):
    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer={"Axis": None}, width=1400, height=880)
    while game.decision.kind != "combat_move":
        assert win.finish()
    draw(win)
    texts = panel_texts(win)
    assert not [t for t in texts if HEX.search(t)]
    assert any("then a lit space" in t for t in texts)
    click(win, *counter_centre(win, "Archangel", "USSR", "Tank"))      # the tank goes: where to?
    draw(win)
    texts = panel_texts(win)
    assert not [t for t in texts if HEX.search(t)], [t for t in texts if HEX.search(t)]
    lit = win._lit()
    assert lit and all(game.state.board.space(s).kind == "land" for s in lit)
    assert any("click a lit territory" in t for t in texts), texts


def test_the_terminal_help_speaks_of_the_boards_spaces(bulge_rs, lhtr_rs):
    from clients.terminal import help_text

    assert "look HEX" in help_text(Game(bulge_rs, None, seed=1).state.board)
    world = help_text(Game(lhtr_rs, None, seed=1).state.board)
    assert "look SPACE" in world and not HEX.search(world)
