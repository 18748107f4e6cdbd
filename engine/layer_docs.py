"""What a layer over another ruleset says it adds, in its own words: the table of its files
in its README.md (`| file | holds |`), each row naming one of its rules or data files and
what that file holds ("economy.rules: phase 1: income first, convoy raids, partisans...").
`wargame info` and `wargame rules diff` show it, so that the house rules are named by the
layer's author, never by a list kept in Python."""

from __future__ import annotations

from pathlib import Path

from dsl.files import read_bounded
from engine.ruleset import RulesetInfo

README = "README.md"
#: a README longer than this is not read for its table (a mod's README is someone else's file)
MAX_README_BYTES = 1 << 20


def house_rules(info: RulesetInfo) -> list[str]:
    """"FILE: what it holds", one line for each row of the layer's README table whose first
    column names a file of the layer; empty when it has no README or no such table, and when
    the README is not a regular file of at most MAX_README_BYTES (it is then not read)."""
    root = Path(info.root) if info.root else None
    if root is None or not (root / README).is_file():
        return []
    try:
        text = read_bounded(root / README, MAX_README_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if len(cells) < 2:
            continue
        name = cells[0].strip("`")
        if name and "/" not in name and (root / name).is_file():
            out.append(f"{name}: {cells[1]}")
    return out
