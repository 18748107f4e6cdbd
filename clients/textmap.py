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
        cells[to_offset(sp.hex)] = sp.id
    if not cells:
        return graph_list(state, logic)
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
    if around is not None and around in board.spaces and board.spaces[around].hex is not None:
        cc, rr = to_offset(board.spaces[around].hex)  # type: ignore[arg-type]
        c0, c1 = max(c0, cc - radius), min(c1, cc + radius)
        r0, r1 = max(r0, rr - radius), min(r1, rr + radius)
    half = width // 2
    lines = ["    " + " " * half + "".join(f"{c:<{width}}"[:width] for c in range(c0, c1 + 1))]
    for r in range(r0, r1 + 1):
        row = [f"{r:>3} " + (" " * half if r % 2 else "")]
        for c in range(c0, c1 + 1):
            sid = cells.get((c, r))
            label = logic.space_label(state, sid) if sid else ""
            row.append(f"{label:<{width}}"[:width])
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def graph_list(state: GameState, logic: GameLogic) -> str:
    return "\n".join(logic.describe_space(state, sid) for sid in state.board.spaces)
