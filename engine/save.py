"""Saved games: JSON files with a schema version and the rules' fingerprint.

A save keeps what a game *is* (ruleset, scenario, options, seed, actions) plus the final state
as a check. Loading replays the actions, so a save can never smuggle in a state the rules
would not reach; a damaged, foreign or tampered file is refused with a clear reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import plugins
from engine.actions import Action, IllegalAction
from engine.game import Game
from engine.ruleset import LoadedRuleset

SCHEMA_VERSION = 1
FORMAT: Literal["wargame-save"] = "wargame-save"


class SavedAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)


class SaveFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["wargame-save"]
    schema_version: int
    ruleset: str = Field(min_length=1)
    ruleset_fingerprint: str
    scenario: str
    seed: int
    options: dict[str, Any] = Field(default_factory=dict)
    actions: list[SavedAction]
    state: dict[str, Any]
    result: dict[str, Any] | None = None
    mods: list[str] = Field(default_factory=list)


class SaveError(Exception):
    """A save file that cannot be loaded: says why, in words."""


def to_json(game: Game, mods: Iterable[str] = ()) -> dict[str, Any]:
    return SaveFile(
        format=FORMAT,
        schema_version=SCHEMA_VERSION,
        ruleset=game.ruleset.name,
        ruleset_fingerprint=game.ruleset.fingerprint,
        scenario=game.scenario,
        seed=game.seed,
        options=_changed_options(game.ruleset),
        actions=[SavedAction(**a.to_json()) for a in game.actions],
        state=game.state.to_json(),
        result=game.state.result,
        mods=[str(m) for m in mods],
    ).model_dump()


def save(game: Game, path: Path | str, mods: Iterable[str] = ()) -> None:
    """Write the game to `path` atomically (a crash never leaves half a save)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(to_json(game, mods), indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def _changed_options(rs: LoadedRuleset) -> dict[str, Any]:
    specs = rs.rules.option_specs
    return {k: v for k, v in rs.options.items() if k in specs and specs[k].default != v}


def read(path: Path | str) -> SaveFile:
    """Parse and validate a save file, without loading any rules."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a save file (not text)") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(f"{path}:{e.lineno}:{e.colno}: damaged save file, not valid JSON ({e.msg})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{path}: not a wargame save file (no \"format\": \"{FORMAT}\")")
    if raw.get("schema_version") != SCHEMA_VERSION:
        raise SaveError(f"{path}: saved with schema version {raw.get('schema_version')}, "
                        f"this wargame reads version {SCHEMA_VERSION}")
    try:
        return SaveFile.model_validate(raw)
    except ValidationError as e:
        lines = [f"  {'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors()]
        raise SaveError(f"{path}: damaged save file:\n" + "\n".join(lines)) from None


class ReplayReport:
    def __init__(self, game: Game, matches: bool, differences: list[str], fingerprint_ok: bool) -> None:
        self.game = game
        self.matches = matches
        self.differences = differences
        self.fingerprint_ok = fingerprint_ok


def replay(path: Path | str, paths: Iterable[Path | str] = (),
           progress: Callable[[int, int], None] | None = None) -> ReplayReport:
    """Replay a save from its seed and actions; report whether it reproduces the saved state."""
    data = read(path)
    mods = list(paths) + [m for m in data.mods if Path(m).is_dir()]
    try:
        rs = plugins.load(data.ruleset, options=data.options, paths=mods)
    except plugins.RulesetNotFound as e:
        raise SaveError(f"{path}: {e}") from None
    fingerprint_ok = rs.fingerprint == data.ruleset_fingerprint
    game = Game(rs, data.scenario, data.seed)
    for i, saved in enumerate(data.actions, 1):
        try:
            game.play(Action.from_json(saved.model_dump()))
        except IllegalAction as e:
            raise SaveError(f"{path}: action {i} of {len(data.actions)} ({saved.kind}) is refused by the rules: "
                            f"{e.reason}" + ("" if fingerprint_ok else " (the save was made with other rules)")) from None
        if progress:
            progress(i, len(data.actions))
    want = json.loads(json.dumps(data.state, sort_keys=True))
    got = game.state.signature()
    diffs = [f"{k}: saved {_short(want.get(k))}, replayed {_short(got.get(k))}"
             for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
    return ReplayReport(game, not diffs, diffs, fingerprint_ok)


def load(path: Path | str, paths: Iterable[Path | str] = ()) -> Game:
    """Load a saved game to go on playing it. Refused if the replay does not reproduce it."""
    report = replay(path, paths)
    if not report.matches:
        raise SaveError(f"{path}: damaged save file: replaying its actions does not give the saved state ("
                        + "; ".join(report.differences[:3]) + ")")
    return report.game


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
