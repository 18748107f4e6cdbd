"""The battle calculator in the window, as TripleA players know it: a box over the game with a
row per unit kind, a count and -/+ for each side, and the odds drawn as bars (attacker wins,
defender wins, both destroyed) with each side's expected losses.

The model is `clients.calculator`; the odds are worked out by `clients.gui_reckon` in another
process, so that the window draws and takes input while they are: the box says "working it
out" until they come. `CalculatorScreen` builds its own batch and answers clicks and keys;
`CalculatorHooks` is the window's part (a mixin of `clients.gui.GameWindow`): O or the
panel's "Odds" button opens it, filled in from the battle about to be fought if there is one;
Esc closes it. It also keeps the odds of the battle about to be fought for the battle box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet.window import key

from clients import calculator
from clients.calculator import SIDES, Calculator
from clients.gui_reckon import Reckoner
from clients.gui_screens import BOX_BG, BOX_EDGE, BUTTON, DIM, REFUSED, TEXT, _Builder, inside
from clients.words import spaced

Rect = tuple[float, float, float, float]

ACCENT = (255, 214, 0, 255)
#: the bars' colours: attacker wins, defender wins, both destroyed, both still standing
BAR_INK = {"attacker_wins": (200, 70, 60), "defender_wins": (60, 110, 200), "both_destroyed": (130, 130, 138),
           "both_standing": (90, 90, 96)}
BAR_WORDS = {"attacker_wins": "attacker wins", "defender_wins": "defender wins", "both_destroyed": "both destroyed",
             "both_standing": "both standing"}
#: a defending unit's fates in one attack (Bulge)
FATE_BARS = (("destroyed", (200, 70, 60)), ("retreats", (220, 170, 60)), ("untouched", (90, 130, 90)))
ROW = 24
COUNT_W = 34
SIGN_W = 24


def bars(report: dict[str, Any]) -> list[tuple[str, float]]:
    """The shares a report's bars show, in order (both standing only when it may happen)."""
    out = [(k, float(report[k])) for k in ("attacker_wins", "defender_wins", "both_destroyed")]
    if report.get("both_standing", 0.0) > 1e-9:
        out.append(("both_standing", float(report["both_standing"])))
    return out


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def losses_line(report: dict[str, Any], side: str) -> str:
    """A side's expected losses in words: "attacker (Germany) loses 1.3 units, 4.2 IPC"."""
    power = report[side].get("power") or report[side].get("side") or ""
    line = f"{side}{f' ({power})' if power else ''} loses {report[side + '_losses']:.2f} units"
    cost = report.get(side + "_cost_lost")
    return line + (f", {cost:.1f} IPC" if cost is not None else "") + " on average"


def method_line(report: dict[str, Any]) -> str:
    if report["method"] == "exact":
        return "exact: every way the dice can fall, through the rules"
    lo, hi = report.get("attacker_wins_interval", (0.0, 1.0))
    n = report.get("battles", 0)
    return f"sampled: {n:,} battles through the rules" + (f", attacker wins {_pct(lo)} to {_pct(hi)}"
                                                          if report.get("kind") == "battle" else "")


class CalculatorScreen:
    """The calculator's box: `click` and `on_key` change the forces themselves and return
    "changed" (the odds must be worked out again), "close", "redraw" or None."""

    def __init__(self, calc: Calculator, title: str = "") -> None:
        self.calc = calc
        self.title = title
        self.reckoner = Reckoner()
        self.report: dict[str, Any] | None = None
        self.error = ""
        self.cursor = 0                     # the kind row the keys change
        self.side = "attacker"              # the side the keys change
        self.hits: list[tuple[Rect, tuple[str, str, int, str]]] = []
        self.builder = _Builder()
        self.reckon()

    @property
    def batch(self) -> pyglet.graphics.Batch:
        return self.builder.batch

    @property
    def working(self) -> bool:
        return self.reckoner.busy

    def reckon(self) -> None:
        """Work out the odds of the forces as they stand (away from the window)."""
        self.error = ""
        if not self.calc.attacking or not self.calc.defending:
            self.reckoner.stop()
            self.report = None
            self.error = "add units to both sides (+) to see the odds"
            return
        self.reckoner.ask(self.calc.job())

    def poll(self) -> bool:
        """Take the answer if it came; whether the box must be drawn again."""
        got = self.reckoner.poll()
        if got is None:
            return False
        what, value = got
        if what == "ok":
            self.report, self.error = value, ""
        else:
            self.report, self.error = None, str(value)
        return True

    def close(self) -> None:
        self.reckoner.stop()

    def fight_in(self, text: str, board: Any) -> str | None:
        """Fight the forces in the space a player typed (its name as the game prints it or as
        TripleA writes it; nothing: a fitting space): an error to show, or None."""
        from clients import odds
        from clients.odds_setup import find_space

        calc = self.calc
        if not text.strip():
            calc.where, calc.where_name = None, ""
        else:
            try:
                sid = find_space(board, text)
            except odds.OddsError as e:
                return str(e)
            calc.where, calc.where_name = sid, str(board.titles.get(sid, sid))
        calc.state = None                    # no longer the game's battle as it stands
        self.reckon()
        return None

    def heading(self) -> str:
        if self.title:
            return self.title
        where = self.calc.where_name
        return f"Battle calculator — the battle in {where}" if where else "Battle calculator"

    # -- drawing -----------------------------------------------------------------------------------
    def build(self, width: int, height: int) -> None:
        b = self.builder = _Builder()
        self.hits = []
        calc = self.calc
        b.rect(0, 0, width, height, (0, 0, 0, 140), group=b.bg)
        bw = min(820, width - 40)
        kinds = calc.kinds
        result_h = 170
        bh = min(height - 30, 14 + 26 + 22 + ROW * (len(kinds) + 1) + result_h + 46 + 6)
        bx, by = (width - bw) / 2, (height - bh) / 2
        b.rect(bx, by, bw, bh, BOX_BG, BOX_EDGE, group=b.bg)
        pad = 14
        y = by + bh - pad
        b.label(self.heading(), bx + pad, y, size=13, bold=True, color=ACCENT, width=bw - 2 * pad)
        y -= 26
        powers = calc.powers
        sub = ("the battle as it stands in the game" if calc.state is not None else
               f"fought in {calc.where_name}" if calc.where_name else
               "fought in a fitting space (a land territory, a sea zone for ships)")
        b.label(sub + " · the odds from the rules' own combat", bx + pad, y, size=9, color=DIM)
        y -= 22
        name_w = 170
        col_w = (bw - 2 * pad - name_w) / 2
        col_x = {"attacker": bx + pad + name_w, "defender": bx + pad + name_w + col_w}
        for side in SIDES:
            power = powers[0 if side == "attacker" else 1]
            on = side == self.side
            b.label(f"{side.capitalize()}{f' ({power})' if power else ''}", col_x[side] + 4, y, size=10, bold=True,
                    color=ACCENT if on else TEXT)
        y -= ROW
        # the rows: as many kinds as fit above the result, the rest scrolled to the cursor
        room = max(1, int((y - (by + result_h + 46)) // ROW))
        first = min(max(0, self.cursor - room + 1), max(0, len(kinds) - room))
        for i, kind in enumerate(kinds[first:first + room], first):
            ry = y - ROW + 3
            if i == self.cursor:
                b.rect(bx + pad - 4, ry - 1, bw - 2 * pad + 8, ROW - 2, (52, 58, 70), group=b.bg)
            b.label(spaced(kind), bx + pad, ry + ROW / 2 - 2, size=10, anchor_y="center")
            for side in SIDES:
                n = calc.side(side).get(kind, 0)
                x = col_x[side] + 4
                self.hits.append((b.button("−", x, ry, SIGN_W, ROW - 4, BUTTON, n > 0), ("change", side, -1, kind)))
                b.label(str(n), x + SIGN_W + COUNT_W / 2, ry + ROW / 2 - 2, size=11, bold=bool(n),
                        color=TEXT if n else DIM, anchor_x="center", anchor_y="center")
                self.hits.append((b.button("+", x + SIGN_W + COUNT_W, ry, SIGN_W, ROW - 4, BUTTON),
                                  ("change", side, 1, kind)))
            y -= ROW
        self._build_result(b, bx + pad, by + 46 + result_h - 6, bw - 2 * pad)
        x = bx + pad
        self.hits.append((b.button("Clear", x, by + 10, 100, 28, BUTTON), ("clear", "", 0, "")))
        self.hits.append((b.button("Where… (W)", x + 110, by + 10, 120, 28, BUTTON), ("where", "", 0, "")))
        self.hits.append((b.button("Close (Esc)", x + 240, by + 10, 130, 28, BUTTON), ("close", "", 0, "")))
        b.label("click −/+, or Up/Down a kind, Left/Right a side, +/− a unit", x + 382, by + 24, size=8.5,
                color=DIM, anchor_y="center", width=bw - 2 * pad - 382)

    def _build_result(self, b: _Builder, x: float, top: float, width: float) -> None:
        b.rect(x, top + 4, width, 1, (80, 84, 92))
        y = top - 4
        r = self.report
        if self.working:
            b.label("working out the odds…", x, y, size=10.5, color=DIM)
            y -= 20
        if r is None:
            if self.error and not self.working:
                b.label(self.error, x, y, size=10.5, bold=True, color=REFUSED, width=width)
            return
        if r.get("kind") == "attack":
            self._attack_bars(b, r, x, y, width)
            return
        label_w = 130
        bar_w = width - label_w - 70
        for what, p in bars(r):
            b.label(BAR_WORDS[what], x, y - 9, size=10, anchor_y="center")
            b.rect(x + label_w, y - 17, bar_w, 16, (44, 46, 52))
            if p > 0:
                b.rect(x + label_w, y - 17, max(1.0, bar_w * p), 16, BAR_INK[what])
            b.label(_pct(p), x + label_w + bar_w + 8, y - 9, size=10, bold=True, anchor_y="center")
            y -= 24
        y -= 2
        for side in SIDES:
            b.label(losses_line(r, side), x, y, size=9.5, width=width)
            y -= 17
        b.label(f"{method_line(r)} · {r['rounds']:.1f} rounds on average · casualties {r['casualty_policy']}",
                x, y, size=8.5, color=DIM, width=width)

    def _attack_bars(self, b: _Builder, r: dict[str, Any], x: float, y: float, width: float) -> None:
        label_w = 150
        bar_w = width - label_w - 70
        rows = [("the hex is cleared", [(r["hex_cleared"], (200, 70, 60))], r["hex_cleared"])]
        for u in r["defenders"][:5]:
            rows.append((u["unit"], [(u[w], ink) for w, ink in FATE_BARS], u["destroyed"]))
        for words, parts, p in rows:
            b.label(words, x, y - 9, size=10, anchor_y="center")
            b.rect(x + label_w, y - 17, bar_w, 16, (44, 46, 52))
            left = 0.0
            for share, ink in parts:
                if share > 0:
                    b.rect(x + label_w + bar_w * left, y - 17, max(1.0, bar_w * share), 16, ink)
                left += share
            b.label(_pct(p), x + label_w + bar_w + 8, y - 9, size=10, bold=True, anchor_y="center")
            y -= 22
        b.label("red: destroyed · amber: retreats · green: untouched · " + method_line(r), x, y, size=8.5,
                color=DIM, width=width)

    # -- input -------------------------------------------------------------------------------------
    def click(self, x: float, y: float) -> str | None:
        for rect, (what, side, by, kind) in self.hits:
            if not inside(rect, x, y):
                continue
            if what in ("close", "where"):
                return what
            if what == "clear":
                self.calc.clear()
                self.reckon()
                return "changed"
            self.side, self.cursor = side, self.calc.kinds.index(kind)
            if self.calc.change(side, kind, by):
                self.reckon()
                return "changed"
            return "redraw"
        return None

    def on_key(self, symbol: int, modifiers: int) -> str | None:
        kinds = self.calc.kinds
        if symbol == key.ESCAPE:
            return "close"
        if symbol == key.W:
            return "where"
        if symbol in (key.UP, key.DOWN):
            self.cursor = min(max(0, self.cursor + (1 if symbol == key.DOWN else -1)), len(kinds) - 1)
            return "redraw"
        if symbol in (key.LEFT, key.RIGHT, key.TAB):
            self.side = {key.LEFT: "attacker", key.RIGHT: "defender"}.get(
                symbol, "defender" if self.side == "attacker" else "attacker")
            return "redraw"
        if symbol in (key.PLUS, key.EQUAL, key.NUM_ADD, key.MINUS, key.NUM_SUBTRACT) and kinds:
            by = 1 if symbol in (key.PLUS, key.EQUAL, key.NUM_ADD) else -1
            if self.calc.change(self.side, kinds[self.cursor], by):
                self.reckon()
                return "changed"
            return None
        return None


@dataclass
class BattleNow:
    """The battle standing in the game now, as the battle box shows it."""

    title: str
    #: each side's units with what they hit on
    lines: list[str]
    #: its odds, once worked out
    odds: dict[str, Any] | None = None
    #: about to be fought (not yet begun)
    about: bool = True


def side_line(power: str, does: str, values: list[tuple[str, int | None, int]]) -> str:
    """A side of a battle with what its units hit on: "Germany attacks: 2 Infantry @1, Tank @3"."""
    units = ", ".join(f"{f'{n} ' if n > 1 else ''}{spaced(k)}{f' @{v}' if v is not None else ''}"
                      for k, v, n in values)
    return f"{power} {does}: {units}"


class CalculatorHooks:
    """The window's part of the calculator (a mixin of GameWindow): open it (O, the Odds
    button), route its input, take its answers; and the battle box's odds."""

    game: Any
    width: int
    height: int
    prompt: Any
    calc: CalculatorScreen | None = None
    #: the panel's Odds button (set when the panel is laid out)
    odds_rect: Rect | None = None
    #: the odds of the battle about to be fought, for the battle box: (state, report)
    box_odds: tuple[Any, dict[str, Any] | None] | None = None
    _box_view: BattleNow | None = None
    _box_reckoner: Reckoner | None = None

    def invalidate(self) -> None: ...       # GameWindow's
    def refresh(self, map_changed: bool = True) -> None: ...

    def open_calculator(self, empty: bool = False) -> CalculatorScreen:
        """Open the calculator: filled in from the battle about to be fought (unless `empty`)."""
        if self.calc is not None:
            self.calc.close()
        game = self.game
        calc = calculator.empty(game.ruleset) if empty else calculator.for_game(game)
        self.calc = CalculatorScreen(calc)
        self.calc.build(self.width, self.height)
        pyglet.clock.schedule_interval(self._calculator_tick, 0.1)
        self.invalidate()
        return self.calc

    def ask_where(self) -> None:
        """Ask where the calculator's battle is fought (W, the Where… button)."""
        from clients.gui_screens import TextPrompt

        screen = self.calc
        if screen is None:
            return

        def submit(text: str) -> str | None:
            error = screen.fight_in(text, self.game.state.board)
            if error is None:
                self.prompt = None
                screen.build(self.width, self.height)
                self.invalidate()
            return error

        self.prompt = TextPrompt("Where is the battle fought?", submit, text=screen.calc.where_name,
                                 hint="A territory or sea zone as the game prints it or as TripleA writes it "
                                      "(\"Karelia S.S.R.\", \"SZ 7\"); nothing: a fitting space (a land territory, "
                                      "a sea zone for ships). Its own rules apply (terrain).")
        self.prompt.build(self.width, self.height)
        self.invalidate()

    def close_calculator(self) -> None:
        if self.calc is not None:
            self.calc.close()
        self.calc = None
        pyglet.clock.unschedule(self._calculator_tick)
        self.refresh(map_changed=False)

    def calculator_do(self, what: str | None) -> None:
        if what is None or self.calc is None:
            return
        if what == "close":
            self.close_calculator()
            return
        if what == "where":
            self.ask_where()
            return
        self.calc.build(self.width, self.height)
        self.invalidate()

    def _calculator_tick(self, dt: float = 0.0) -> bool:
        """Take the calculator's and the battle box's answers when they come."""
        changed = False
        if self.calc is not None and self.calc.poll():
            self.calc.build(self.width, self.height)
            changed = True
        if self._box_reckoner is not None and self.box_odds is not None:
            got = self._box_reckoner.poll()
            if got is not None:
                report = got[1] if got[0] == "ok" else None
                self.box_odds = (self.box_odds[0], report)
                if self._box_view is not None:
                    self._box_view.odds = report
                if not self._box_reckoner.busy:
                    pyglet.clock.unschedule(self._box_tick)
                self.refresh(map_changed=False)
                changed = True
        if changed:
            self.invalidate()
        return changed

    def _box_tick(self, dt: float) -> None:
        self._calculator_tick(dt)

    def battle_now(self, with_odds: bool = True) -> BattleNow | None:
        """The battle about to be fought, or being fought, in the game as it stands, for the
        battle box: each side's units with the values they hit on (from the rules), and its
        odds (with `with_odds`), worked out away from the window the first time they are
        asked for a state (None until they come). None when no battle stands."""
        game = self.game
        if game is None:
            return None
        state = game.state
        if self.box_odds is not None and self.box_odds[0] is state:
            return self._box_view
        self.box_odds = (state, None)
        self._box_view = None
        if self._box_reckoner is not None:
            self._box_reckoner.stop()              # the odds of a state gone by are not wanted
        last = getattr(self, "battles", None)
        going = last.battle.spaces if last is not None and last.battle is not None and last.open else ()
        try:
            found = calculator.now(game, going)
        except Exception:  # noqa: BLE001 - a ruleset without the calculator's battle: nothing to add
            found = None
        if found is None:
            return None
        where, att, dfn, about = found
        lines = [side_line(att[0].owner, "attacks", calculator.to_hit(game, att, True)),
                 side_line(dfn[0].owner, "defends", calculator.to_hit(game, dfn, False))]
        name = getattr(self, "place_name", str)(where)
        self._box_view = BattleNow(f"Battle in {name}" + ("" if about else "  (being fought)"), lines, None, about)
        if not with_odds:
            return self._box_view
        if self._box_reckoner is None:
            self._box_reckoner = Reckoner()
        rs = game.ruleset
        if about:                                  # the battle as the game will fight it
            self._box_reckoner.ask(lambda: calculator.reckon(rs, "", "", where, state))
        else:                                      # going on: the units left, as a new battle
            a_text, d_text = calculator.count(att), calculator.count(dfn)

            def job() -> dict[str, Any]:
                r = calculator.reckon(rs, a_text, d_text, where)
                r["units_left"] = True
                return r

            self._box_reckoner.ask(job)
        pyglet.clock.unschedule(self._box_tick)
        pyglet.clock.schedule_interval(self._box_tick, 0.1)
        return self._box_view

    def stop_calculators(self) -> None:
        """The window closes: stop the work still going on."""
        for r in (self.calc.reckoner if self.calc is not None else None, self._box_reckoner):
            if r is not None:
                r.stop()
        pyglet.clock.unschedule(self._calculator_tick)
        pyglet.clock.unschedule(self._box_tick)
