"""The battle calculator in the window, as a player meets it: opened empty with a key, or from
the Odds button filled in with the battle about to be fought; units added and taken away with
-/+ per kind and side; the odds read from the bars' box, worked out in another process while
the window goes on drawing; and the battle box showing the odds before the battle."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from gui_support import require_gl

require_gl()

from pyglet.window import key, mouse  # noqa: E402

from clients import calculator, odds  # noqa: E402
from clients.odds_setup import set_up  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402

SIZES = [(1280, 720), (1600, 1000)]
#: where the screenshots go with GUI_SCREENSHOTS=1 (docs/screenshots/README.md), else a temporary folder
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shots(tmp_path: Path) -> Path:
    out = SHOTS if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def press(win: Any, symbol: int, modifiers: int = 0) -> None:
    win.dispatch_event("on_key_press", symbol, modifiers)
    win.dispatch_events()


def click(win: Any, rect: tuple[float, float, float, float]) -> None:
    x, y, w, h = rect
    win.dispatch_event("on_mouse_press", int(x + w / 2), int(y + h / 2), mouse.LEFT, 0)
    win.dispatch_event("on_mouse_release", int(x + w / 2), int(y + h / 2), mouse.LEFT, 0)
    win.dispatch_events()


def plus(win: Any, side: str, kind: str, sign: int = 1) -> tuple[float, float, float, float]:
    """The -/+ button of `kind` for `side` in the calculator's box."""
    return next(r for r, (what, s, by, k) in win.calc.hits if what == "change" and s == side and k == kind
                and by == sign)


def answer(win: Any, timeout: float = 60.0) -> dict[str, Any] | None:
    """Wait for the calculator's answer, drawing the window meanwhile (it never waits on it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        win._calculator_tick()
        if not win.calc.working:
            return win.calc.report
        win.dispatch_event("on_draw")
        win.dispatch_events()
        time.sleep(0.05)
    raise AssertionError("no answer from the calculator")


def box_words(win: Any) -> str:
    return " ".join(i.text for i in win.calc.builder.items if hasattr(i, "text"))


@pytest.fixture(scope="module")
def lhtr() -> Any:
    return plugins.load("lhtr")


@pytest.mark.parametrize("size", SIZES)
def test_opened_empty_units_added_and_taken_away_and_the_odds_read(lhtr, make_window, size):
    win = make_window(Game(lhtr, None, seed=1), width=size[0], height=size[1])
    win.dispatch_event("on_draw")
    press(win, key.O)                                  # no battle about to be fought: empty
    assert win.calc is not None and not win.calc.calc.attacking and not win.calc.calc.defending
    assert "add units to both sides" in box_words(win)
    for _ in range(3):
        click(win, plus(win, "attacker", "Infantry"))
    click(win, plus(win, "attacker", "Tank"))
    click(win, plus(win, "attacker", "Infantry", -1))   # one taken away again: 2 infantry, 1 tank
    for _ in range(2):
        click(win, plus(win, "defender", "Infantry"))
    assert win.calc.calc.attacking == {"Infantry": 2, "Tank": 1}
    assert win.calc.working                             # worked out elsewhere: the window draws on
    frames = win.frames
    win.dispatch_event("on_draw")
    win.dispatch_events()
    assert win.frames == frames + 1 and "working out the odds" in box_words(win)
    r = answer(win)
    assert r is not None
    want = odds.odds(set_up(lhtr, "2 inf, 1 tank", "2 inf"))
    assert r["attacker_wins"] == pytest.approx(want.attacker_wins)
    assert r["defender_wins"] == pytest.approx(want.defender_wins)
    words = box_words(win)
    assert f"{100 * want.attacker_wins:.1f}%" in words and "attacker wins" in words and "both destroyed" in words
    assert "loses" in words and "IPC" in words
    for (rx, ry, rw, rh), _ in win.calc.hits:      # every button inside the window
        assert 0 <= rx and rx + rw <= size[0] and 0 <= ry and ry + rh <= size[1]
    # the keys do the same: Left the attacker's side, Down to Artillery, + adds one, Right the defender's
    press(win, key.LEFT)
    press(win, key.DOWN)
    press(win, key.PLUS)
    assert win.calc.calc.attacking == {"Infantry": 2, "Tank": 1, "Artillery": 1}
    press(win, key.RIGHT)
    press(win, key.PLUS)
    assert win.calc.calc.defending == {"Infantry": 2, "Artillery": 1}
    assert answer(win) is not None
    press(win, key.ESCAPE)
    assert win.calc is None


def test_the_odds_button_fills_in_the_battle_about_to_be_fought(make_window, tmp_path):
    from tests.lhtr.play import situation

    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 2), ("Tank", "Germany", "Caucasus", 1),
                                 ("Infantry", "USSR", "Caucasus", 2)], step="conduct_combat")
    game = Game(g.rs)
    game.state, game._decision = g.state, g.decision
    win = make_window(game, width=1280, height=720)
    win.dispatch_event("on_draw")
    click(win, win.odds_rect)
    calc = win.calc.calc
    assert (calc.attacking, calc.defending) == ({"Infantry": 2, "Tank": 1}, {"Infantry": 2})
    assert calc.where_name == "Caucasus" and "the battle in Caucasus" in box_words(win)
    r = answer(win)
    want = odds.odds(set_up(g.rs, "2 inf, 1 tank", "2 inf", "Caucasus"))
    assert r is not None and r["attacker_wins"] == pytest.approx(want.attacker_wins)
    win.render_to_png(shots(tmp_path) / "lhtr_calculator.png")
    click(win, plus(win, "defender", "Infantry"))       # changed: the same space, the forces counted
    assert calc.state is None
    r = answer(win)
    assert r is not None and r["attacker_wins"] < want.attacker_wins and r["where"] == "Caucasus"
    # the sides keep their powers (not the first in the turn order, the USSR, attacking)
    assert (r["attacker"]["power"], r["defender"]["power"]) == ("Germany", "USSR")
    assert "Attacker (Germany)" in box_words(win) and "Defender (USSR)" in box_words(win)
    press(win, key.ESCAPE)
    assert win.calc is None
    press(win, key.O, key.MOD_SHIFT)                    # Shift+O: an empty calculator, even here
    assert win.calc is not None and not win.calc.calc.attacking and win.calc.calc.where is None
    press(win, key.ESCAPE)
    # the battle box shows the same odds before the battle is fought
    win.refresh(map_changed=False)
    end = time.monotonic() + 60
    while win.box_odds is None or win.box_odds[1] is None:
        assert time.monotonic() < end, "the battle box never got its odds"
        win._calculator_tick()
        time.sleep(0.05)
    words = " ".join(i.text for i in win._panel_items if hasattr(i, "text"))
    assert f"Odds in Caucasus: attacker wins {100 * want.attacker_wins:.0f}%" in words
    assert win.battle_rect is not None and "Germany attacks: 2 Infantry @1, Tank @3" in words
    assert "USSR defends: 2 Infantry @2" in words and "Battle in Caucasus" in words
    win.render_to_png(shots(tmp_path) / "lhtr_battle_box.png")


def test_the_battle_box_during_a_battle_gives_the_odds_of_the_units_left(make_window, tmp_path):
    from tests.lhtr.play import situation

    g, _ = situation("Germany", [("Infantry", "Germany", "Caucasus", 3), ("Tank", "Germany", "Caucasus", 2),
                                 ("Infantry", "USSR", "Caucasus", 4)], step="conduct_combat")
    game = Game(g.rs)
    game.state, game._decision = g.state, g.decision
    win = make_window(game, width=1600, height=1000)
    win.choose_row(0)                                   # the battle in Caucasus: its first round
    assert game.decision is not None and game.decision.kind == "choose"     # a casualty or press on
    end = time.monotonic() + 60
    while win.box_odds is None or win.box_odds[1] is None:
        assert time.monotonic() < end, "the battle box never got its odds"
        win._calculator_tick()
        time.sleep(0.05)
    words = " ".join(i.text for i in win._panel_items if hasattr(i, "text"))
    assert "(being fought)" in words and "Germany attacks: " in words and "USSR defends: " in words
    assert "Odds in Caucasus (the units left, as a new battle): attacker wins " in words
    r = win.box_odds[1]
    left = calculator.fighting(game, ["Caucasus"])
    assert left is not None
    want = odds.odds(set_up(g.rs, calculator.count(left[1]), calculator.count(left[2]), "Caucasus"))
    assert r["attacker_wins"] == pytest.approx(want.attacker_wins)
    win.render_to_png(shots(tmp_path) / "lhtr_battle_fought.png")


def test_the_calculator_of_a_game_fought_as_one_attack(bulge_rs, make_window):
    """Battle of the Bulge: one attack at a hex; the calculator gives what becomes of each
    defending unit and the chance the hex is cleared."""
    from clients import odds_attack

    win = make_window(Game(bulge_rs, None, seed=1), width=1280, height=720)
    press(win, key.O)
    for _ in range(2):
        click(win, plus(win, "attacker", "Infantry"))
    click(win, plus(win, "defender", "Infantry"))
    r = answer(win)
    want = odds_attack.odds(odds_attack.set_up(bulge_rs, "2 Infantry", "1 Infantry"))
    assert r is not None and r["kind"] == "attack"
    assert r["hex_cleared"] == pytest.approx(want["hex_cleared"])
    words = box_words(win)
    assert "the hex is cleared" in words and f"{100 * want['hex_cleared']:.1f}%" in words


def _slow() -> str:
    time.sleep(30)
    return "too late"


def _fails() -> str:
    raise ValueError("the attacker has no units")


def test_the_reckoner_never_makes_the_window_wait_and_keeps_only_the_newest_answer():
    from clients.gui_reckon import Reckoner

    r = Reckoner()
    began = time.monotonic()
    r.ask(_slow)                                  # a calculation of half a minute...
    assert time.monotonic() - began < 2 and r.busy and r.poll() is None     # ...and the caller goes on
    r.ask(lambda: {"attacker_wins": 0.5})         # asked again: the first is stopped, its answer unwanted
    assert r.wait(20) == ("ok", {"attacker_wins": 0.5})
    assert time.monotonic() - began < 20 and not r.busy and r.poll() is None
    r.ask(_fails)
    assert r.wait(20) == ("error", "the attacker has no units")
    r.ask(_slow)
    r.stop()
    assert not r.busy and r.poll() is None


def test_where_the_calculators_battle_is_fought(lhtr, make_window):
    """W (or Where…) asks for the space: its own rules apply; a space that does not exist is
    refused in one line and the question stays; nothing typed is a fitting space again."""
    win = make_window(Game(lhtr, None, seed=1), width=1280, height=720)
    press(win, key.O)
    click(win, plus(win, "attacker", "Battleship"))
    click(win, plus(win, "defender", "Destroyer"))
    assert answer(win) is not None and win.calc.report["where"].startswith("Sea Zone")
    click(win, next(r for r, (what, *_) in win.calc.hits if what == "where"))
    assert win.prompt is not None
    win.prompt.text = "Atlantis"
    press(win, key.ENTER)
    assert win.prompt is not None and "no space `Atlantis`" in win.prompt.error
    win.prompt.text = "sz 7"
    press(win, key.ENTER)
    assert win.prompt is None and (win.calc.calc.where, win.calc.calc.where_name) == ("SZ 7", "Sea Zone 7 (SZ 7)")
    r = answer(win)
    assert r is not None and r["where"] == "Sea Zone 7 (SZ 7)"
    assert "Battle calculator — the battle in Sea Zone 7 (SZ 7)" in box_words(win)
    press(win, key.W)
    win.prompt.text = "Karelia"                          # a battleship cannot fight on land: said in one line
    press(win, key.ENTER)
    assert win.prompt is None
    answer(win)
    assert win.calc.report is None and win.calc.error == "a Battleship cannot fight in Karelia S.S.R."
    assert win.calc.error in box_words(win)
    press(win, key.W)
    win.prompt.text = ""
    press(win, key.ENTER)
    assert win.calc.calc.where is None and answer(win) is not None
