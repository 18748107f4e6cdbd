"""The window's screens besides the game: the new-game screen (ruleset, scenario, which sides
the computer plays) and a one-line text entry (the file to load a game from, or to save it
to). Each builds its own batch for a window size and answers clicks and keys with what the
window should do; the window (clients/gui.py) does it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.window import key

from clients.gui_map import FONT, framed
from clients.launch import Launcher

Rect = tuple[float, float, float, float]

SCREEN_BG = (24, 26, 30)
BOX_BG = (34, 37, 42)
BOX_EDGE = (96, 102, 114)
TEXT = (226, 228, 232, 255)
DIM = (150, 154, 162, 255)
ACCENT = (255, 214, 0, 255)
REFUSED = (255, 110, 96, 255)
ROW = (44, 47, 54)
ROW_ON = (74, 88, 118)
BUTTON = (64, 80, 112)
GO = (46, 112, 60)
COMPUTER = (98, 70, 120)
PERSON = (40, 96, 120)


def inside(rect: Rect | None, x: float, y: float) -> bool:
    if rect is None:
        return False
    rx, ry, rw, rh = rect
    return rx <= x < rx + rw and ry <= y < ry + rh


class _Builder:
    """Labels and shapes into one batch, kept alive in `items`."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.items: list[Any] = []
        self.bg, self.mid, self.fg = (pyglet.graphics.Group(order=i) for i in (0, 1, 2))

    def label(self, text: str, x: float, y: float, *, size: float = 11, color: tuple[int, ...] = TEXT,
              bold: bool = False, width: float | None = None, anchor_x: str = "left",
              anchor_y: str = "top") -> pyglet.text.Label:
        lb = pyglet.text.Label(text, x=round(x), y=round(y), width=None if width is None else round(width),
                               multiline=width is not None, anchor_x=anchor_x, anchor_y=anchor_y, font_name=FONT,
                               font_size=size, weight="bold" if bold else "normal", color=color,
                               batch=self.batch, group=self.fg)
        self.items.append(lb)
        return lb

    def rect(self, x: float, y: float, w: float, h: float, color: tuple[int, ...], border: tuple[int, ...] | None = None,
             group: pyglet.graphics.Group | None = None) -> None:
        g = group or self.mid
        if border is None:
            self.items.append(shapes.Rectangle(x, y, w, h, color=color, batch=self.batch, group=g))
        else:
            self.items += framed(x, y, w, h, 1, color, border, self.batch, g)

    def button(self, text: str, x: float, y: float, w: float, h: float, color: tuple[int, ...],
               on: bool = True) -> Rect:
        self.rect(x, y, w, h, color if on else (46, 48, 54), (150, 158, 176) if on else (70, 72, 78))
        self.label(text, x + w / 2, y + h / 2, size=10.5, bold=True, anchor_x="center", anchor_y="center",
                   color=TEXT if on else DIM)
        return (x, y, w, h)


def _text_width(text: str, size: float, bold: bool = False) -> int:
    label = pyglet.text.Label(text, font_name=FONT, font_size=size, weight="bold" if bold else "normal")
    width = int(label.content_width)
    label.delete()
    return width


class NewGameScreen:
    """Choose a ruleset, a scenario and which sides the computer plays; start, or load a save.

    `click` and `on_key` change the choice themselves and return what the window must do:
    "start", "load", "back" or None."""

    def __init__(self, launcher: Launcher, can_go_back: bool = False, current: str | None = None,
                 unsaved: bool = False) -> None:
        self.launcher = launcher
        self.can_go_back = can_go_back
        self.unsaved = unsaved
        self.error = ""
        self.infos = []
        try:
            self.infos = launcher.rulesets()
        except Exception as e:  # noqa: BLE001 - a broken mod: say so, offer the rest
            self.error = f"could not list the rulesets: {e}"
        names = [i.name for i in self.infos]
        self.ruleset = current if current in names else (launcher.default_ruleset() if names else "")
        self.scenario = ""
        self.computer: set[str] = set()
        self.sides: list[str] = []
        if self.ruleset:
            self.choose_ruleset(self.ruleset)
        self.hits: list[tuple[Rect, tuple[str, str]]] = []
        self.builder = _Builder()

    @property
    def batch(self) -> pyglet.graphics.Batch:
        return self.builder.batch

    def choose_ruleset(self, name: str) -> None:
        self.ruleset = name
        info = self.launcher.info(name)
        self.scenario = info.default_scenario
        try:
            self.sides = self.launcher.sides(name)
            self.computer = self.launcher.default_computer(name)
            self.error = ""
        except Exception as e:  # noqa: BLE001 - a ruleset that cannot be loaded
            self.sides, self.computer = [], set()
            self.error = f"{name}: {e}"

    def toggle(self, side: str) -> None:
        self.computer ^= {side}

    # -- drawing ------------------------------------------------------------------------------------
    def build(self, width: int, height: int) -> None:
        b = self.builder = _Builder()
        self.hits = []
        b.rect(0, 0, width, height, SCREEN_BG, group=b.bg)
        bw = min(820, width - 40)
        bx = (width - bw) / 2
        top = height - 30
        title = b.label("New game", bx, top, size=20, bold=True, color=ACCENT)
        y = top - title.content_height - 4
        sub = b.label("Choose what to play, and which sides the computer plays. "
                      "Enter: start · Ctrl+O: load a saved game" + (" · Esc: back to the game" if self.can_go_back else ""),
                      bx, y, size=10, color=DIM, width=bw)
        y -= sub.content_height + 6
        if self.unsaved:
            warn = b.label("The game in the window has no save file: go back (Esc) and press Ctrl+S to keep it, "
                           "or it ends when another starts.", bx, y, size=10, color=ACCENT, width=bw)
            y -= warn.content_height + 6
        y -= 8

        col = (bw - 20) / 2
        # left: the rulesets
        b.label("Ruleset", bx, y, size=12, bold=True)
        ly = y - 24
        for info in self.infos:
            on = info.name == self.ruleset
            text = f"{info.title}"
            lb = b.label(text, bx + 10, ly - 6, size=10.5, width=col - 20, bold=on)
            lb2 = b.label(info.name, bx + 10, ly - 8 - lb.content_height, size=8.5, color=DIM)
            h = lb.content_height + lb2.content_height + 14
            b.rect(bx, ly - h, col, h - 3, ROW_ON if on else ROW)
            self.hits.append(((bx, ly - h, col, h - 3), ("ruleset", info.name)))
            ly -= h
        if not self.infos:
            b.label("(no rulesets installed)", bx + 10, ly - 6, size=10.5, color=DIM)
            ly -= 30
        for problem in self.launcher.problems:     # a mod left out is said, not silently missing
            lb = b.label(problem, bx + 10, ly - 6, size=9, color=REFUSED, width=col - 20)
            ly -= lb.content_height + 8

        # right: scenario and sides
        rx = bx + col + 20
        ry = y
        if self.ruleset:
            info = self.launcher.info(self.ruleset)
            b.label("Scenario", rx, ry, size=12, bold=True)
            ry -= 24
            for sc in info.scenarios:
                on = sc.name == self.scenario
                lb = b.label(sc.title, rx + 10, ry - 6, size=10.5, width=col - 20, bold=on)
                note = sc.name + ("" if sc.fidelity == "exact" else f" · map {sc.fidelity}")
                lb2 = b.label(note, rx + 10, ry - 8 - lb.content_height, size=8.5, color=DIM)
                h = lb.content_height + lb2.content_height + 14
                b.rect(rx, ry - h, col, h - 3, ROW_ON if on else ROW)
                self.hits.append(((rx, ry - h, col, h - 3), ("scenario", sc.name)))
                ry -= h
            ry -= 14
            b.label("Sides (click to change who plays)", rx, ry, size=12, bold=True)
            ry -= 24
            for side in self.sides:
                comp = side in self.computer
                h = 28
                b.rect(rx, ry - h, col, h - 3, ROW)
                b.label(side, rx + 10, ry - h / 2 - 1, size=10.5, anchor_y="center")
                tag_w = 120
                b.rect(rx + col - tag_w - 6, ry - h + 3, tag_w, h - 9, COMPUTER if comp else PERSON)
                b.label("computer" if comp else "person", rx + col - tag_w / 2 - 6, ry - h / 2 - 1, size=9.5,
                        bold=True, anchor_x="center", anchor_y="center")
                self.hits.append(((rx, ry - h, col, h - 3), ("side", side)))
                ry -= h
            if self.sides and not (set(self.sides) - self.computer):
                ry -= 4
                lb = b.label("The computer plays every side: you watch.", rx, ry, size=9.5, color=DIM, width=col)
                ry -= lb.content_height

        low = min(ly, ry) - 20
        bh = 34
        by = max(20, low - bh)
        x = bx
        self.hits.append((b.button("Start (Enter)", x, by, 170, bh, GO, bool(self.ruleset and self.sides)),
                          ("start", "")))
        x += 180
        self.hits.append((b.button("Load a save… (Ctrl+O)", x, by, 210, bh, BUTTON), ("load", "")))
        x += 220
        if self.can_go_back:
            self.hits.append((b.button("Back to the game (Esc)", x, by, 210, bh, BUTTON), ("back", "")))
        y = by - 12
        if self.error:
            err = b.label(self.error, bx, y, size=10.5, color=REFUSED, width=bw, bold=True)
            y -= err.content_height + 10
        if self.ruleset:                     # what the choice is about, in the ruleset's words
            info = self.launcher.info(self.ruleset)
            sc = next((s for s in info.scenarios if s.name == self.scenario), None)
            for text in (info.description, sc.description if sc else "", sc.summary if sc else ""):
                if text and y > 40:
                    lb = b.label(text, bx, y, size=9.5, color=DIM, width=bw)
                    y -= lb.content_height + 8

    # -- input ------------------------------------------------------------------------------------------
    def click(self, x: float, y: float) -> str | None:
        for rect, (what, arg) in self.hits:
            if not inside(rect, x, y):
                continue
            if what == "ruleset":
                self.choose_ruleset(arg)
            elif what == "scenario":
                self.scenario = arg
            elif what == "side":
                self.toggle(arg)
            elif what == "start":
                return "start" if self.ruleset and self.sides else None
            else:
                return what
            return "changed"
        return None

    def on_key(self, symbol: int, modifiers: int) -> str | None:
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER):
            return "start" if self.ruleset and self.sides else None
        if symbol == key.ESCAPE:
            return "back" if self.can_go_back else None
        if symbol in (key.UP, key.DOWN) and self.infos:
            names = [i.name for i in self.infos]
            i = names.index(self.ruleset) if self.ruleset in names else 0
            i = (i + (1 if symbol == key.DOWN else -1)) % len(names)
            self.choose_ruleset(names[i])
            return "changed"
        return None


class TextPrompt:
    """A one-line text entry over the window: a title, the text typed, a hint and the last
    error. `submit(text)` returns an error to show (the entry stays open) or None (done).

    With `entry=False` it is a question with no text to type (`submit("")` is the yes). Its
    buttons say what they do (`ok`, `cancel`); `ok_keys` are keys besides Enter that answer
    yes; `other` is a third answer: its words, its key (with Ctrl) and what it does."""

    def __init__(self, title: str, submit: Callable[[str], str | None], text: str = "", hint: str = "", *,
                 entry: bool = True, ok: str = "OK (Enter)", cancel: str = "Cancel (Esc)",
                 ok_keys: tuple[int, ...] = (), other: tuple[str, int, Callable[[], None]] | None = None) -> None:
        self.title = title
        self.submit = submit
        self.text = text
        self.hint = hint
        self.entry = entry
        self.ok, self.cancel = ok, cancel
        self.ok_keys = ok_keys
        self.other = other
        self.error = ""
        self.ok_rect: Rect | None = None
        self.cancel_rect: Rect | None = None
        self.other_rect: Rect | None = None
        self.builder = _Builder()

    @property
    def batch(self) -> pyglet.graphics.Batch:
        return self.builder.batch

    def build(self, width: int, height: int) -> None:
        b = self.builder = _Builder()
        b.rect(0, 0, width, height, (0, 0, 0, 150), group=b.bg)
        bw = min(640, width - 40)
        bx = (width - bw) / 2
        pad = 16
        labels = []
        title = b.label(self.title, bx + pad, 0, size=13, bold=True, color=ACCENT, width=bw - 2 * pad)
        labels.append(title)
        field_h = 30 if self.entry else 0
        shown = self.text
        entry = b.label(shown + "▏", bx + pad + 8, 0, size=11, anchor_y="center") if self.entry else None
        while entry is not None and entry.content_width > bw - 2 * pad - 16 and len(shown) > 1:
            shown = shown[1:]
            entry.text = "…" + shown + "▏"
        hint = b.label(self.hint, bx + pad, 0, size=9.5, color=DIM, width=bw - 2 * pad) if self.hint else None
        err = b.label(self.error, bx + pad, 0, size=10.5, color=REFUSED, bold=True, width=bw - 2 * pad) \
            if self.error else None
        button_h = 30
        bh = (pad + title.content_height + 10 + field_h + 10 + (hint.content_height + 8 if hint else 0)
              + (err.content_height + 8 if err else 0) + button_h + pad)
        by = (height - bh) / 2
        b.rect(bx, by, bw, bh, BOX_BG, BOX_EDGE, group=b.bg)
        y = by + bh - pad
        title.y = round(y)
        y -= title.content_height + 10
        if entry is not None:
            b.rect(bx + pad, y - field_h, bw - 2 * pad, field_h, (18, 20, 24), (140, 146, 160))
            entry.y = round(y - field_h / 2)
            y -= field_h + 10
        if hint:
            hint.y = round(y)
            y -= hint.content_height + 8
        if err:
            err.y = round(y)
            y -= err.content_height + 8
        x = bx + pad
        widths = [max(130, _text_width(t, 10.5, bold=True) + 24)
                  for t in (self.ok, self.cancel, self.other[0] if self.other else "")]
        self.ok_rect = b.button(self.ok, x, by + pad, widths[0], button_h, GO)
        x += widths[0] + 10
        self.cancel_rect = b.button(self.cancel, x, by + pad, widths[1], button_h, BUTTON)
        x += widths[1] + 10
        self.other_rect = b.button(self.other[0], x, by + pad, widths[2], button_h, BUTTON) if self.other else None

    def on_text(self, text: str) -> None:
        if self.entry:
            self.text += "".join(c for c in text if c.isprintable())

    def on_key(self, symbol: int, modifiers: int) -> str | None:
        """"submit", "cancel", "other", "changed" or None."""
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER) or symbol in self.ok_keys:
            return "submit"
        if symbol == key.ESCAPE:
            return "cancel"
        if self.other is not None and symbol == self.other[1] and modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return "other"
        if symbol == key.BACKSPACE and self.entry:
            self.text = self.text[:-1]
            return "changed"
        return None

    def click(self, x: float, y: float) -> str | None:
        if inside(self.ok_rect, x, y):
            return "submit"
        if inside(self.cancel_rect, x, y):
            return "cancel"
        if inside(self.other_rect, x, y):
            return "other"
        return None
