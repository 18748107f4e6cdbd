"""Drawing a board as text: a hex map as offset rows of cells, a graph as a list.

A hex map is drawn as rows of labels (the ruleset's `space_label`, at most four characters)
with what links neighbours drawn between them: between two hexes of a row, and on a line of
its own between two rows for the diagonal sides. A road is `=` (or `/` `\\` on a diagonal),
a river barrier `|` (or `~`), a bridge `#`. The board's own links say where they are;
nothing here knows a game. A map wider than the screen is windowed around the area of
interest.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

from engine.board import Board
from engine.hexgrid import to_offset
from engine.ruleset import GameLogic
from engine.state import GameState

WIDTH = 80          # the terminal's columns
PREFIX = 4          # the row numbers on the left


# -- what the players call a space ----------------------------------------------------------------
#: a space's word by its kind on the board (`Space.kind`); any other kind is a "space"
NOUNS = {"hex": "hex", "land": "territory", "sea": "sea zone", "area": "area", "zone": "zone", "box": "box"}


def space_noun(board: Board, sids: Iterable[str] | None = None) -> str:
    """What the players call the spaces `sids` of `board` (all its spaces when None): the
    word for their kind ("hex", "territory", "sea zone"...) when they share one, else
    "space". A map whose spaces are hexes says "hex"; a world map of land and sea says
    "territory" of a land, "sea zone" of a sea, and "space" of both at once."""
    spaces = board.spaces
    kinds = {spaces[s].kind for s in (spaces if sids is None else sids) if s in spaces}
    if len(kinds) != 1:
        return "space"
    return NOUNS.get(next(iter(kinds)), "space")


def plural(noun: str) -> str:
    """The plural of a space noun: hexes, territories, sea zones, boxes."""
    if noun.endswith(("x", "s", "sh", "ch")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def hex_map(state: GameState, logic: GameLogic, around: str | None = None, radius: int = 4,
            width: int = WIDTH, legend: bool = True) -> str:
    """The hexes of the board (or those within `radius` rows and columns of `around`) as
    text at most `width` characters wide, with roads, rivers and a legend."""
    board = state.board
    spaces = [sp for sp in board.spaces.values() if sp.hex is not None]
    if not spaces:
        return graph_list(state, logic)
    labels = {sp.id: _clip(logic.space_label(state, sp.id)) for sp in spaces}
    lw = max(1, max((len(t) for t in labels.values()), default=1))     # a label's width
    cw = lw + 1                                                        # a cell: label and a gap
    # half-cell columns: hexes of a row are two apart, the next row is shifted by one
    pos = {sp.id: (2 * sp.hex.q + sp.hex.r, sp.hex.r) for sp in spaces}   # type: ignore[union-attr]
    by_pos = {p: sid for sid, p in pos.items()}
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = int((width - PREFIX - lw) // (cw / 2))         # half-cells that fit in `width`
    note = ""
    centre = pos.get(around) if around else None
    if centre is not None:
        y0, y1 = max(y0, centre[1] - radius), min(y1, centre[1] + radius)
        x0, x1 = max(x0, centre[0] - 2 * radius - 1), min(x1, centre[0] + 2 * radius + 1)
    if x1 - x0 > span:
        if centre is None:
            centre = _centre_of_interest(state, pos) or ((x0 + x1) // 2, (y0 + y1) // 2)
        lo = min(max(x0, centre[0] - span // 2), x1 - span)
        note = "(part of the map: `map HEX` shows the hexes around another one)"  # a hex map only
        x0, x1 = lo, lo + span

    def start(x: int) -> int:
        return PREFIX + int((x - x0) * cw // 2)

    def centre_of(x: int) -> float:
        return start(x) + (lw - 1) / 2

    cols, rows = _numbering(board, pos)
    lines = [_header(cols, x0, x1, y0, start, lw)]
    for y in range(y0, y1 + 1):
        line = [" "] * (start(x1) + lw + 1)
        line[:PREFIX] = f"{rows.get(y, ''):>3} "[:PREFIX]
        for x in range(x0, x1 + 1):
            sid = by_pos.get((x, y))
            if sid is None:
                continue
            s = start(x)
            line[s:s + lw] = f"{labels[sid]:^{lw}}"
            east = by_pos.get((x + 2, y))
            if east is not None and x + 2 <= x1 and board.adjacent(sid, east):
                line[s + lw] = _glyph(board.link(sid, east), "E")
        lines.append("".join(line).rstrip())
        if y == y1:
            break
        between = [" "] * (start(x1) + lw + 2)
        for x in range(x0, x1 + 1):
            sid = by_pos.get((x, y))
            if sid is None:
                continue
            for dx, way in ((1, "SE"), (-1, "SW")):
                other = by_pos.get((x + dx, y + 1))
                if other is None or not x0 <= x + dx <= x1 or not board.adjacent(sid, other):
                    continue
                glyph = _glyph(board.link(sid, other), way)
                if glyph != " ":
                    between[int((centre_of(x) + centre_of(x + dx)) // 2)] = glyph
        lines.append("".join(between).rstrip())
    if legend:
        lines += _legend(board, logic, width, note)
    return "\n".join(lines)


def _clip(label: str) -> str:
    return (label or "")[:4]


def _glyph(attrs: Mapping[str, Any], way: str) -> str:
    river = bool(attrs.get("river") or attrs.get("barrier"))
    road = bool(attrs.get("road"))
    if attrs.get("bridge") or (river and road and not attrs.get("barrier")):
        return "#"
    if river:
        return "|" if way == "E" else "~"
    if road:
        return {"E": "=", "SE": "\\", "SW": "/"}[way]
    return " "


def _centre_of_interest(state: GameState, pos: Mapping[str, tuple[int, int]]) -> tuple[int, int] | None:
    """Where the pieces on the board are, on average."""
    at = [pos[p.space] for p in state.pieces.values() if p.space in pos]
    if not at:
        return None
    return round(sum(x for x, _ in at) / len(at)), round(sum(y for _, y in at) / len(at))


def _numbering(board: Board, pos: Mapping[str, tuple[int, int]]) -> tuple[dict[int, int], dict[int, int]]:
    """The column number of each half-cell column and the row number of each row, as the
    board numbers them (its spaces' `col` and `row`, or the odd-r offset layout)."""
    cols: dict[int, int] = {}
    rows: dict[int, int] = {}
    for sid, (x, y) in pos.items():
        sp = board.spaces[sid]
        c, r = to_offset(sp.hex)       # type: ignore[arg-type]
        if isinstance(sp.get("col"), int) and isinstance(sp.get("row"), int):
            c, r = sp.get("col"), sp.get("row")
        cols.setdefault(x, c)
        rows.setdefault(y, r)
    return cols, rows


def _header(cols: Mapping[int, int], x0: int, x1: int, y0: int, start: Any, lw: int) -> str:
    """Column numbers over the cells of the first row's parity."""
    line = [" "] * (start(x1) + lw + 3)
    for x in range(x0, x1 + 1):
        if (x - y0) % 2 or x not in cols:
            continue
        text = str(cols[x])
        s = start(x)
        line[s:s + len(text)] = text
    return "".join(line).rstrip()


def id_scheme(board: Board) -> str:
    """How the board's hex ids are made, in words, worked out from the spaces themselves."""
    hexes = [sp for sp in board.spaces.values() if sp.hex is not None]
    if not hexes:
        return ""
    ordered = sorted(hexes, key=lambda sp: sp.id)
    sample = ordered[len(ordered) // 2]

    def cr(sp: Any) -> tuple[int, int]:
        if isinstance(sp.get("col"), int) and isinstance(sp.get("row"), int):
            return sp.get("col"), sp.get("row")
        return to_offset(sp.hex)

    if all(sp.id == f"{cr(sp)[0]:02d}{cr(sp)[1]:02d}" for sp in hexes):
        c, r = cr(sample)
        return (f"hex ids are column then row, two digits each ({sample.id} = column {c}, row {r}); "
                "columns are numbered along the top, rows down the left")
    m = re.fullmatch(r"(\d+)(\D+)(\d+)", sample.id)
    if m and all(sp.id == f"{cr(sp)[0]}{m.group(2)}{cr(sp)[1]}" for sp in hexes):
        c, r = cr(sample)
        return (f"hex ids are column{m.group(2)}row ({sample.id} = column {c}, row {r}); "
                "columns are numbered along the top, rows down the left")
    return "a hex's id and name: `look HEX`"


def _legend(board: Board, logic: GameLogic, width: int, note: str) -> list[str]:
    links = [attrs for _, _, attrs in board.links() if attrs]
    keys = []
    if any(a.get("road") for a in links):
        keys.append("= / \\ road")
    if any(a.get("river") or a.get("barrier") for a in links):
        keys.append("| ~ river")
    if any(_glyph(a, "E") == "#" for a in links):
        keys.append("# bridge")
    parts = []
    if keys:
        parts.append("between hexes: " + ", ".join(keys))
    scheme = id_scheme(board)
    if scheme:
        parts.append(scheme)
    own = logic.map_legend()
    if own:
        parts.append(own)
    if note:
        parts.append(note)
    out: list[str] = []
    for p in parts:
        out += textwrap.wrap(p, width=width - 1, subsequent_indent="  ")
    return out


def graph_list(state: GameState, logic: GameLogic) -> str:
    return "\n".join(logic.describe_space(state, sid) for sid in state.board.spaces)
