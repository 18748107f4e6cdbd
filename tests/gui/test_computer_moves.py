"""The computer's moves on the map: when a computer seat acts, the spaces its action named
(where from, where to, what it attacked, and the spaces its events name) are lit in their own
colour and numbered, the newest few, until the person acts again; the log narrates them.
On the Bulge hex map and on the LHTR world map, with the computer playing one side."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw, pixel  # noqa: E402

from clients import seats  # noqa: E402
from clients.gui import COMPUTER_LIGHT, COMPUTER_MARKS  # noqa: E402
from engine.game import Game  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def named(action: Any, before: Any, events: list[Any]) -> set[str]:
    """The board's spaces an action names: an argument that is a space, or a piece (where it
    stood before the action), and every space its events name."""
    board = before.board
    out: set[str] = set()
    for value in action.args.values():
        for v in value if isinstance(value, (list, tuple, set, frozenset)) else (value,):
            if isinstance(v, str) and v in board:
                out.add(v)
            elif isinstance(v, int) and not isinstance(v, bool) and v in before.pieces:
                out.add(before.pieces[v].space)
    for kind, data in events:
        if not kind.endswith(("_start", "_end", "_skipped")):
            out |= {v for v in data.values() if isinstance(v, str) and v in board}
    return {s for s in out if s in board}


def play_computer(win: Any) -> list[tuple[Any, Any, set[str]]]:
    """Let the computer play until it is the person's turn: (decision, action, spaces named)
    for each of its actions."""
    played = []
    while win.computer_turn():
        game = win.game
        d, before, n = game.decision, game.state, len(game.log)
        assert win.step_computer()
        played.append((d, game.actions[-1], named(game.actions[-1], before, game.log[n:])))
    return played


def badge_point(win: Any, sid: str) -> tuple[float, float]:
    """A point of the number badge of `sid`, on the screen (beside the digit)."""
    bx, by, r = win.computer_badges[sid]
    ox, oy = win.map.offset
    return bx + ox + r * 0.75, by + oy


def badges_clear_of_counters(win: Any) -> None:
    """No badge lies on a counter of its space: the numbers hide no unit."""
    for sid, (bx, by, r) in win.computer_badges.items():
        for c in win.layer.counters:
            if c[0] != sid:
                continue
            x, y, w, h = c[3:]
            nx, ny = min(max(bx, x), x + w), min(max(by, y), y + h)      # the counter's nearest point
            assert (nx - bx) ** 2 + (ny - by) ** 2 >= (r * 0.9) ** 2, (sid, c[1:3])


def test_the_computers_attack_lights_where_from_and_where_to(bulge_rs, make_window, tmp_path):
    game = Game(bulge_rs, None, seed=1)
    computer = seats.assign(bulge_rs, ["Axis"])
    win = make_window(game, computer=computer, width=1400, height=880)
    draw(win)
    played = play_computer(win)
    (d, attack, spaces), = played                      # the surprise attack, then the Allies retreat
    assert d.kind == "attacks" and (attack["from"], attack["to"]) == ("1713", "1613")
    assert spaces == {"1713", "1613"}
    win.refresh()
    img = draw(win, tmp_path / "computer_attack.png")
    assert win.computer_lights == {"1713": 1, "1613": 1} and set(win.computer_badges) == {"1713", "1613"}
    # the badges are drawn in the computer's colour, on the map
    for sid in ("1713", "1613"):
        r, g, b = pixel(img, *badge_point(win, sid))
        assert abs(r - COMPUTER_LIGHT[0]) + abs(g - COMPUTER_LIGHT[1]) + abs(b - COMPUTER_LIGHT[2]) < 60, (sid, r, g, b)
    badges_clear_of_counters(win)
    # the log tells it, naming the same hexes; the panel lists it under its number
    told = "\n".join(win.narration)
    assert "Axis attacks Clervaux (1613) from Dasburg (1713)" in told
    assert [m.label for m in win.computer_moves] == [next(a.label for a in d.options if a == attack)]
    # the person's own lights are something else: the hexes a click plays are not the computer's
    direct, _ = win.at_rest()
    assert direct and win.human_turn()
    # the person acts: the computer's lights go
    assert win.choose_row(0)
    win.refresh()
    draw(win)
    assert win.computer_moves == [] and win.computer_lights == {}


def test_a_long_computer_turn_lights_its_newest_moves(bulge_rs, make_window):
    """The Axis computer through its movement: the newest COMPUTER_MARKS actions that moved
    something are lit, numbered in order; each lit hex is one of theirs."""
    game = Game(bulge_rs, None, seed=1)
    computer = seats.assign(bulge_rs, ["Axis"])
    win = make_window(game, computer=computer, width=1400, height=880)
    people = seats.assign(bulge_rs, ["Allies"], seed=5)["Allies"]
    longest: list[Any] = []
    for _ in range(40):
        played = play_computer(win)
        if len([p for p in played if p[2]]) > COMPUTER_MARKS:
            longest = played
            break
        if game.over:
            break
        d = game.decision
        assert win.choose(people.choose(bulge_rs, game.state, d))
    assert longest, "no computer turn of more than a few actions"
    win.refresh()
    draw(win)
    named_ones = [p for p in longest if p[2]]
    newest = named_ones[-COMPUTER_MARKS:]
    assert len(win.computer_moves) == COMPUTER_MARKS
    expected: dict[str, int] = {}
    for n, (_, _, spaces) in enumerate(newest, 1):
        expected.update({s: n for s in spaces})
    assert win.computer_lights == expected
    assert set(win.computer_lights) == set().union(*(p[2] for p in newest))
    # every move the log narrates names its hexes
    told = "\n".join(win.narration)
    for _, action, spaces in newest:
        for sid in spaces:
            assert sid in told or game.state.board.space(sid).name in told, (action, sid)


def test_the_world_map_lights_the_computers_moves(lhtr_rs, make_window, tmp_path):
    """LHTR with the computer as the Allies: the USSR plays its turn first; a move is two
    actions (the unit, then where it goes: the rules ask), lit as one, numbered."""
    game = Game(lhtr_rs, None, seed=1)
    computer = seats.assign(lhtr_rs, ["Allies"])
    win = make_window(game, computer=computer, width=1400, height=880)
    draw(win)
    played = play_computer(win)
    assert played and win.human_turn()
    # group the answers to the rules' questions with the action that raised them
    moves: list[tuple[str, set[str]]] = []
    for i, (d, _, spaces) in enumerate(played):
        if d.kind == "choose" and moves and played[i - 1][0].player == d.player and moves[-1][0] == d.player:
            moves[-1][1].update(spaces)
        elif spaces:
            moves.append((d.player, set(spaces)))
    newest = moves[-COMPUTER_MARKS:]
    win.refresh()
    img = draw(win, tmp_path / "world.png")
    assert set(win.computer_lights) == set().union(*(s for _, s in newest))
    last = played[-1]
    assert last[0].kind == "conduct_combat" and win.computer_lights[last[1]["where"]] == len(newest)
    told = "\n".join(win.narration)
    assert "USSR Fighter moves from Karelia S.S.R. to West Russia" in told
    assert "Karelia S.S.R." in win.computer_lights and "West Russia" in win.computer_lights
    badges_clear_of_counters(win)
    r, g, b = pixel(img, *badge_point(win, "West Russia"))
    assert abs(r - COMPUTER_LIGHT[0]) + abs(g - COMPUTER_LIGHT[1]) + abs(b - COMPUTER_LIGHT[2]) < 60, (r, g, b)
    # listed after the power's name, the power is not named again ("USSR: move USSR Fighter")
    assert any(m.label.startswith("move Fighter") and "→ West Russia" in m.label for m in win.computer_moves)
    assert not any(m.label.startswith(f"move {m.player} ") for m in win.computer_moves)


def test_screenshots_of_the_computers_moves(bulge_rs, lhtr_rs, make_window, tmp_path):
    """In docs/screenshots when GUI_SCREENSHOTS=1 (else to tmp): a Bulge computer turn's
    newest moves, whole map and close; the USSR's opening moves on the world map."""
    from gui_support import zoom_on

    out = SHOTS if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    game = Game(bulge_rs, None, seed=1)
    win = make_window(game, computer=seats.assign(bulge_rs, ["Axis"]), width=1400, height=880)
    people = seats.assign(bulge_rs, ["Allies"], seed=5)["Allies"]
    for _ in range(40):
        if len(play_computer(win)) > 3 * COMPUTER_MARKS:
            break
        assert win.choose(people.choose(bulge_rs, game.state, game.decision))
    win.refresh()
    draw(win)
    win.render_to_png(out / "bulge_computer_moves.png")
    newest = win.computer_moves[-1].spaces[0]
    zoom_on(win, newest, 2.2)
    badges_clear_of_counters(win)
    win.render_to_png(out / "bulge_computer_moves_close.png")

    game = Game(lhtr_rs, None, seed=1)
    win = make_window(game, computer=seats.assign(lhtr_rs, ["Allies"]), width=1400, height=880)
    draw(win)
    play_computer(win)
    win.refresh()
    draw(win)
    win.render_to_png(out / "lhtr_computer_moves.png")
    zoom_on(win, "West Russia", 3.0)
    badges_clear_of_counters(win)
    win.render_to_png(out / "lhtr_computer_moves_close.png")


def test_the_computers_retreats_are_listed_under_the_unit_that_retreated(bulge_rs, make_window):
    """The Allies computer defending: where two of a hex's units retreat one after the other,
    the second retreat is its own entry, not said of the first unit (the list named
    `Allies Infantry #138 → retreat to Beaufort` where #139 retreated there, when pieces
    were named by number)."""
    from clients.players import RandomPlayer

    game = Game(bulge_rs, None, seed=2)
    win = make_window(game, computer=seats.assign(bulge_rs, ["Allies"], seed=2), width=1280, height=720)
    person = RandomPlayer(2)
    retreat = re.compile(r"^(\w+ \w+(?: \([^)]*\))?) retreats from .+ to (.+)$")
    checked = 0
    for _ in range(300):
        if game.over or checked >= 4:
            break
        if not win.computer_turn():
            assert win.choose(person.choose(bulge_rs, game.state, game.decision))
            continue
        n, d = len(game.log), game.decision
        assert win.step_computer()
        told = [m for m in (retreat.match(bulge_rs.logic.narrate(e) or "") for e in game.log[n:]) if m]
        if d.kind != "choose" or len(told) != 1:
            continue
        unit, to = told[0].groups()
        label = win.computer_moves[-1].label
        assert label.endswith(f"retreat to {to}"), label
        alone = unit.removeprefix("Allies ")            # (the list names the player once, before the words)
        assert label.count("→") <= 1 and ("→" not in label or label.split(" →")[0].endswith(alone + " retreats first")), \
            (unit, label)
        checked += 1
    assert checked >= 4
