"""Drawing a board as text: a hex map as offset rows of cells, a graph as a list."""

from __future__ import annotations

from engine.hexgrid import to_offset
from engine.ruleset import GameLogic
from engine.state import GameState


def hex_map(state: GameState, logic: GameLogic, around: str | None = None, radius: int = 4,
            width: int = 4) -> str:
    """The hexes of the board (or those within `radius` of `around`) as text rows.
    Odd rows are shifted half a cell, as on a printed board with pointy-top hexes."""
    board = state.board
    cells: dict[tuple[int, int], str] = {}
    for sp in board.spaces.values():
        if sp.hex is None:
            continue
        # a printed board's own column-row numbering where the map gives it
        col, row = (sp.get("col"), sp.get("row")) if sp.get("col") is not None else to_offset(sp.hex)
        cells[(int(col), int(row))] = sp.id
    if not cells:
        return graph_list(state, logic)
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
    if around is not None and around in cells.values():
        cc, rr = next(k for k, v in cells.items() if v == around)
        c0, c1 = max(c0, cc - radius), min(c1, cc + radius)
        r0, r1 = max(r0, rr - radius), min(r1, rr + radius)
    half = width // 2
    shift = r0 % 2       # rows with the parity of the first row sit to the left
    lines = ["    " + "".join(f"{c:<{width}}"[:width] for c in range(c0, c1 + 1))]
    for r in range(r0, r1 + 1):
        row = [f"{r:>3} " + (" " * half if (r % 2) != shift else "")]
        for c in range(c0, c1 + 1):
            sid = cells.get((c, r))
            label = logic.space_label(state, sid) if sid else ""
            row.append(f"{label:<{width}}"[:width])
        lines.append("".join(row).rstrip())
    legend = logic.map_legend()
    return "\n".join(lines + ([legend] if legend else []))


def graph_list(state: GameState, logic: GameLogic) -> str:
    return "\n".join(logic.describe_space(state, sid) for sid in state.board.spaces)
