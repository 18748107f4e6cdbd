"""The --out file: a first line with the run's settings, then one JSON line per game written
(and flushed) as the game ends, so that a run that is stopped keeps every finished game;
--resume reads it back and goes on with the games it lacks, refusing a file whose settings
are not this run's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from clients.simulate import SimulateError

#: the first line's key, and the version of what follows it
MARK = "wargame simulate"
VERSION = 1


class Ledger:
    """Where finished games are written; none when there is no --out."""

    def __init__(self, path: Path | None, settings: dict[str, Any], resume: bool) -> None:
        self.path = path
        self.settings = settings
        self.kept: list[dict[str, Any]] = []
        self._file: TextIO | None = None
        if path is None:
            if resume:
                raise SimulateError("--resume goes on from the file --out names: give --out FILE")
            return
        if resume and path.exists():
            self.kept = self._read(path)
            self._file = path.open("a", encoding="utf-8")
        else:
            if path.exists() and path.stat().st_size:
                raise SimulateError(f"{path} already exists: add --resume to go on from it, or give another --out")
            self._file = path.open("w", encoding="utf-8")
            self._write({MARK: VERSION, "settings": settings})

    def _read(self, path: Path) -> list[dict[str, Any]]:
        """The games the file holds, after checking it was written with these settings. A
        last line cut short (the run was killed while writing it) is dropped."""
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        if not text.strip():
            raise SimulateError(f"{path} is empty: it is no simulation's --out file (leave out --resume to start one)")
        try:
            head = json.loads(lines[0])
        except json.JSONDecodeError:
            head = None
        if not isinstance(head, dict) or head.get(MARK) != VERSION:
            raise SimulateError(f"{path} is not a file `wargame simulate --out` wrote; refused")
        if head.get("settings") != self.settings:
            different = _differences(head.get("settings"), self.settings)
            raise SimulateError(f"{path} was written with other settings ({different}); give the same "
                                f"settings to resume it, or another --out")
        games: list[dict[str, Any]] = []
        good = [lines[0]]
        for i, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if i == len(lines):       # the last line, cut short: dropped, its game played again
                    break
                raise SimulateError(f"{path}:{i}: not a game's record; refused") from None
            if not _is_record(record):
                raise SimulateError(f"{path}:{i}: not a game's record; refused")
            games.append(record)
            good.append(line)
        kept = "\n".join(good) + "\n"
        if kept != text:                  # written anew without the broken line before appending
            spare = path.with_name(path.name + ".resume")
            spare.write_text(kept, encoding="utf-8")
            spare.replace(path)
        return games

    def write(self, record: dict[str, Any]) -> None:
        if self._file is not None:
            self._write(record)

    def _write(self, data: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _is_record(record: Any) -> bool:
    """Whether a line holds what the report reads of a game (as `games.play_game` writes it)."""
    if not isinstance(record, dict) or record.get("rules") not in ("tried", "base"):
        return False
    if not isinstance(record.get("seed"), int) or not isinstance(record.get("curves"), dict):
        return False
    if not all(isinstance(record.get(k), int | float) for k in ("turns", "actions", "seconds")):
        return False
    if "error" in record:
        return isinstance(record["error"], str)
    result = record.get("result")
    return isinstance(result, dict) and isinstance(result.get("ended"), bool)


def _differences(old: Any, new: dict[str, Any]) -> str:
    """The settings that differ, as `name: old -> new` (the first three)."""
    out: list[str] = []

    def walk(a: Any, b: Any, at: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in [*a, *(k for k in b if k not in a)]:
                walk(a.get(key), b.get(key), f"{at}.{key}" if at else str(key))
        elif a != b:
            out.append(f"{at or 'settings'}: {json.dumps(a)} here, {json.dumps(b)} now")

    walk(old, new, "")
    return "; ".join(out[:3]) + (f"; and {len(out) - 3} more" if len(out) > 3 else "")
