"""What became of each unit of the last battle, in its box: destroyed, damaged, retreated
(and where to), survived, or still fighting while the rules ask a question of the battle,
read from the events and the state. The rulebook's example A
(NOTES.md §4.5, Martelange) with its fixed dice; an LHTR sea battle where a battleship is
damaged."""

from __future__ import annotations

from typing import Any

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw  # noqa: E402

from clients import seats  # noqa: E402
from engine import plugins  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.game import Game  # noqa: E402
from tests.bulge.conftest import Table  # noqa: E402


@pytest.fixture(scope="module")
def bulge_rulebook_stacking():  # type: ignore[no-untyped-def]
    return plugins.load("bulge", options={"stacking_rulebook": "true"})


def game_on(table: Table) -> Game:
    """A game that goes on from a table set up by hand."""
    game = Game(table.rs, None, seed=0)
    game.state = table.state
    game._decision = table.rs.logic.decision(table.state)    # the step's start runs, as in play
    game.log.clear()
    return game


def box_texts(win: Any) -> list[str]:
    x, y, w, h = win.battle_rect
    return [i.text for i in win._panel_items if hasattr(i, "text") and x <= i.x <= x + w and y <= i.y <= y + h]


def test_example_a_each_unit_and_what_became_of_it(bulge_rs, make_window, tmp_path):
    t = Table(bulge_rs)
    s = t.state
    target, attack_from = t.hex("Martelange"), "1318"
    s.control[attack_from] = "Axis"
    s.control[target] = "Allies"
    inf1, inf2, tank, truck, supply = (t.put("Allies", target, Infantry=2) + t.put("Allies", target, Tank=1)
                                       + t.put("Allies", target, Truck=1) + t.put("Allies", target, Supply=1))
    attackers = t.put("Axis", attack_from, Infantry=1, Tank=2, Artillery=1)
    (paid,) = t.put("Axis", attack_from, Supply=1)
    s.load_dice([1, 3, 3, 4, 5, 8, 8, 10])
    game = game_on(t)
    win = make_window(game, computer={}, width=1400, height=880)
    assert win.choose(Action("attack", {"from": attack_from, "to": target}))
    battle = win.battles.battle
    assert battle is not None and battle.rolls[0].faces == (1, 3, 3, 4, 5, 8, 8, 10)
    fate = {pid: u.fate for pid, u in battle.units.items()}
    # 1 -> Inf1 (one hit: it must retreat); 3, 3 -> the Tank; 4 -> the Truck; 5 -> the Supply
    assert fate[tank] == fate[truck] == fate[supply] == "destroyed"
    assert fate[inf1] == fate[inf2] == "survived"           # Inf1's retreat is still to be asked
    assert paid not in fate                                  # paid for the attack, before the dice
    assert all(fate[a] == "survived" for a in attackers)
    draw(win, tmp_path / "example_a.png")
    texts = box_texts(win)
    # the boxes of the strip, counted Inf1, Inf2, Tank, Truck, Supply, and the hits in each
    assert {pid: (u.box, u.box_hits) for pid, u in battle.units.items() if u.box} == {
        inf1: ("box 1", 1), tank: ("box 3", 2), truck: ("box 4", 1), supply: ("box 5", 1)}
    assert "Allies destroyed: Tank (box 3: 2 hits), Truck (box 4: 1 hit), Supply (box 5: 1 hit)" in texts
    # Inf1's retreat is still to be asked: the battle is not over, and the box says so
    assert battle.undecided and game.decision.kind == "choose"
    assert "Allies fighting: Infantry (box 1: 1 hit), Infantry" in texts
    assert any(x.startswith("Axis fighting: Infantry") for x in texts)
    assert not [x for x in texts if "#" in x]                # names and counts, never a piece's id
    # the Allies say where the hit Infantry goes: it retreated, and where to
    answer_retreats(win, game)
    assert not battle.undecided                 # over: the others survived
    assert ("Allies", "survived", [battle.units[inf2]]) in battle.fates()
    assert [a for owner, fate, us in battle.fates() if fate == "survived" for a in us if owner == "Axis"]
    where = game.state.pieces[inf1].space
    assert where in game.state.board.neighbours(target)
    unit = battle.units[inf1]
    assert (unit.fate, unit.to) == ("retreated", where)
    assert battle.units[inf2].fate == "survived" and game.state.pieces[inf2].space == target


def answer_retreats(win: Any, game: Game, until: Any = None) -> None:
    """The person answers the rules' questions (which unit retreats first, where to) with
    the first option, until `until()` or there are none."""
    for _ in range(10):
        d = game.decision
        if d.kind != "choose" or (until is not None and until()):
            return
        assert win.choose(d.options[0])


def test_example_b_the_box_says_who_retreated_where(bulge_rulebook_stacking, make_window, tmp_path):
    t = Table(bulge_rulebook_stacking)
    target, attack_from, infs, tanks, arts, truck = t.example_b()
    game = game_on(t)
    win = make_window(game, computer={}, width=1400, height=880)
    assert win.choose(Action("attack", {"from": attack_from, "to": target}))
    battle = win.battles.battle
    assert [r.faces for r in battle.rolls] == [(1, 2, 4, 4, 5, 6, 6, 7, 10, 11), (3, 6, 6, 7, 9, 11, 12)]
    # Inf3 destroyed, Inf2 retreats, Tank3 destroyed, Art1 retreats, Truck destroyed
    assert {p for p, u in battle.units.items() if u.fate == "destroyed"} == {infs[2], tanks[2], truck}
    answer_retreats(win, game, until=lambda: any(u.fate == "retreated" for u in battle.units.values()))
    gone = [p for p, u in battle.units.items() if u.fate == "retreated"]
    assert len(gone) == 1 and gone[0] in (infs[1], arts[0])
    draw(win, tmp_path / "example_b.png")
    texts = box_texts(win)
    # NOTES §4.5: 3 -> Inf3, 6 6 -> Tank3, 7 -> Art1, 9 -> the Truck, 11 -> box 2 (Inf2), 12 -> box 3 (Inf3)
    assert {pid: (u.box, u.box_hits) for pid, u in battle.units.items() if u.box} == {
        infs[1]: ("box 2", 1), infs[2]: ("box 3", 2), tanks[2]: ("box 6", 2), arts[0]: ("box 7", 1),
        truck: ("box 9", 1)}
    first = battle.units[gone[0]]
    assert f"Allies retreated: {first.kind} ({first.box}: 1 hit) to {win.place_name(first.to)}" in texts
    assert "Allies destroyed: Infantry (box 3: 2 hits), Tank (box 6: 2 hits), Truck (box 9: 1 hit)" in texts
    answer_retreats(win, game)
    assert {p for p, u in battle.units.items() if u.fate == "retreated"} == {infs[1], arts[0]}
    assert {p for p, u in battle.units.items() if u.owner == "Allies" and u.fate == "survived"} == {
        infs[0], tanks[0], tanks[1], arts[1]}


def test_an_lhtr_battle_tells_the_damaged_ships(make_window):
    """The computer plays every power; the first battle in which a unit took a hit and lived
    (a battleship) shows it damaged, and its other units as the state has them."""
    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=1)
    win = make_window(game, computer=seats.assign(rs, ["all"]), width=1400, height=880)
    damaged, state, texts = None, game.state, []
    for _ in range(600):
        before, last = game.state, win.battles.battle
        shown = box_texts(win) if win.battle_rect else []      # the panel as the last action left it
        assert win.step_computer()
        if last is not None and win.battles.battle is not last and any(u.fate == "damaged"
                                                                       for u in last.units.values()):
            damaged, state, texts = last, before, shown     # a battle over: the state it left, its box
            break
    assert damaged is not None, "no battle with a damaged unit in the first 600 actions"
    for u in damaged.units.values():
        if u.fate == "destroyed":
            assert u.piece not in state.pieces
        elif u.fate == "damaged":
            assert state.pieces[u.piece].hits == u.hits > 0 and state.pieces[u.piece].space == u.space
        elif u.fate == "retreated":
            assert state.pieces[u.piece].space == u.to != u.space
        else:
            assert state.pieces[u.piece].space == u.space
    assert any(u.fate == "destroyed" for u in damaged.units.values())
    assert any(" damaged: " in x and "(1 hit)" in x for x in texts), texts


def test_the_battle_box_shows_no_piece_ids_nor_area_ids(make_window):
    """LHTR, the computer playing every power through its first battles: every line the battle
    box shows names units by their names and counts ("Infantry ×3", "Battleship (1 hit)"),
    never a piece's id ("#115") nor an area's id ("pending:USSR")."""
    import re

    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=1)
    win = make_window(game, computer=seats.assign(rs, ["all"]), width=1366, height=768)
    seen: set[str] = set()
    fates = 0
    battles: set[int] = set()
    for _ in range(450):
        if win.battle_rect:
            battles.add(id(win.battles.battle))
            for text in box_texts(win):
                if text not in seen:
                    seen.add(text)
                    fates += " destroyed: " in text or " fighting: " in text
        assert win.step_computer()
    assert len(battles) >= 3 and fates >= 3, sorted(seen)
    leaked = [t for t in seen if re.search(r"#\d|\b(pending|offboard|chart):", t)]
    assert leaked == []
