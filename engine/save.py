"""Saved games: JSON files with a schema version and the rules' fingerprint.

A save keeps what a game *is* (ruleset, scenario, options, seed, actions) plus the final state
as a check. Loading replays the actions, so a save can never smuggle in a state the rules
would not reach; a damaged, foreign or tampered file is refused with a clear reason.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dsl.files import NotAFile, TooBig, read_bounded
from engine import plugins
from engine.actions import Action, IllegalAction
from engine.game import Game
from engine.ruleset import LoadedRuleset

#: 2: mods are named by name and fingerprint (1 recorded their folders, to be loaded from)
SCHEMA_VERSION = 2
FORMAT: Literal["wargame-save"] = "wargame-save"
#: a game's seed: what the dice's 64-bit state can tell apart
MAX_SEED = (1 << 64) - 1
MAX_SAVE_BYTES = 64 << 20
MAX_DEPTH = 64


class SavedAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(min_length=1, max_length=200)
    args: dict[str, Any] = Field(default_factory=dict)


class SavedMod(BaseModel):
    """A mod the game was played with: never a folder to load, only what to check the
    folder the player gives (--mod DIR) against."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100)
    version: str = Field(default="0", max_length=100)
    fingerprint: str = Field(pattern=r"^[0-9a-f]{64}$")


class SaveFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["wargame-save"]
    schema_version: int
    ruleset: str = Field(min_length=1, max_length=100)
    ruleset_fingerprint: str = Field(max_length=200)
    scenario: str = Field(max_length=200)
    seed: int = Field(ge=0, le=MAX_SEED)
    options: dict[str, Any] = Field(default_factory=dict)
    actions: list[SavedAction]
    state: dict[str, Any]
    result: dict[str, Any] | None = None
    mods: list[SavedMod] = Field(default_factory=list)


class SaveError(Exception):
    """A save file that cannot be loaded: says why, in words."""


def saved_mods(rs: LoadedRuleset) -> list[SavedMod]:
    """The mods in a loaded ruleset's chain, as a save names them."""
    return [SavedMod(name=m.info.name, version=m.info.version, fingerprint=m.fingerprint)
            for m in plugins.mods_of(rs)]


def to_json(game: Game, mods: Iterable[str] = ()) -> dict[str, Any]:
    """The save of `game`. Its mods are named from its ruleset; `mods` is ignored (it was the
    folders, which a save no longer records)."""
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
        mods=saved_mods(game.ruleset),
    ).model_dump()


def save(game: Game, path: Path | str, mods: Iterable[str] = ()) -> None:
    """Write the game to `path` atomically (a crash never leaves half a save). `mods` is
    ignored: the save names the game's mods itself."""
    path = Path(path)
    text = json.dumps(to_json(game), indent=1, sort_keys=True)
    tmp: Path | None = None
    try:
        tmp, fd = _new_beside(path)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:            # said about the save file, not its temporary twin
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise OSError(e.errno, f"cannot save the game here: {e.strerror}", str(path)) from e


def _new_beside(path: Path) -> tuple[Path, int]:
    """A new file of a name no one chose beside `path`, opened for writing: created, never
    found (O_EXCL), so that a link planted there cannot send the save elsewhere. Its mode is
    what the user's umask makes of 0666, as a file written in place would have."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(path.parent))


def _changed_options(rs: LoadedRuleset) -> dict[str, Any]:
    specs = rs.rules.option_specs
    return {k: v for k, v in rs.options.items() if k in specs and specs[k].default != v}


def _depth_over(value: Any, limit: int) -> bool:
    todo = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, dict | list):
            if depth >= limit:
                return True
            todo.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def read(path: Path | str) -> SaveFile:
    """Parse and validate a save file, without loading any rules."""
    path = Path(path)
    try:
        data = read_bounded(path, MAX_SAVE_BYTES)
    except TooBig as e:
        raise SaveError(f"{path}: {e.size:,} bytes is too big for a save file (at most {MAX_SAVE_BYTES:,})") from None
    except NotAFile as e:
        raise SaveError(f"{path}: {e.kind}, not a save file") from None
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except OSError as e:
        raise SaveError(f"{path}: cannot read it ({e.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a save file (not UTF-8 text)") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(f"{path}:{e.lineno}:{e.colno}: damaged save file, not valid JSON ({e.msg})") from None
    except RecursionError:
        raise SaveError(f"{path}: damaged save file: nested too deeply") from None
    except ValueError as e:      # a number of thousands of digits (Python refuses to read it)
        digits = re.search(r"value has (\d+) digits", str(e))
        what = (f"a number of {digits[1]} digits (a save holds none over {sys.get_int_max_str_digits()})"
                if digits else str(e))
        raise SaveError(f"{path}: damaged save file: {what}") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{path}: not a wargame save file (no \"format\": \"{FORMAT}\")")
    version = raw.get("schema_version")
    if version != SCHEMA_VERSION:
        raise SaveError(_version_message(path, version))
    if _depth_over(raw, MAX_DEPTH):
        raise SaveError(f"{path}: damaged save file: nested more than {MAX_DEPTH} deep")
    try:
        saved = SaveFile.model_validate(raw)
    except ValidationError as e:
        lines = [f"  {'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors()[:10]]
        raise SaveError(f"{path}: damaged save file:\n" + "\n".join(lines)) from None
    for name, value in saved.options.items():
        problem = plugins.option_size_problem(value)
        if problem:
            raise SaveError(f"{path}: damaged save file: option `{name}`: {problem}")
    return saved


def _version_message(path: Path, version: Any) -> str:
    if isinstance(version, int) and not isinstance(version, bool) and 0 < version < SCHEMA_VERSION:
        return (f"{path}: saved with schema version {version} by an older wargame, which recorded mods as "
                f"folders to load; this wargame reads version {SCHEMA_VERSION} only. Replay it with the "
                f"wargame that made it")
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        return (f"{path}: saved with schema version {version} by a newer wargame; this wargame reads "
                f"version {SCHEMA_VERSION}. Upgrade wargame to load it")
    shown = json.dumps(version)[:40]
    return f"{path}: damaged save file: schema version {shown} (this wargame reads version {SCHEMA_VERSION})"


class ReplayReport:
    def __init__(self, game: Game, matches: bool, differences: list[str], fingerprint_ok: bool) -> None:
        self.game = game
        self.matches = matches
        self.differences = differences
        self.fingerprint_ok = fingerprint_ok


def _check_mods(path: Path, data: SaveFile, available: dict[str, tuple[Any, Any]]) -> None:
    """Every mod the save names must be given (--mod DIR), with the same fingerprint."""
    for mod in data.mods:
        plugin = available.get(mod.name, (None, None))[0]
        if not isinstance(plugin, plugins.FolderRuleset):
            raise SaveError(f"{path}: this game was played with the mod `{mod.name}` (version {mod.version}); "
                            f"give its folder with --mod DIR before the command (a save never loads "
                            f"a mod by itself)")
        if plugin.fingerprint != mod.fingerprint:
            raise SaveError(f"{path}: the mod `{mod.name}` in {plugin.folder} is not the one this game was "
                            f"played with (its files differ: fingerprint {plugin.fingerprint[:12]}, the save "
                            f"has {mod.fingerprint[:12]}); refused, since its rules could replay differently")


def replay(path: Path | str, paths: Iterable[Path | str] = (),
           progress: Callable[[int, int], None] | None = None, trust_code: bool = False) -> ReplayReport:
    """Replay a save from its seed and actions; report whether it reproduces the saved state.

    The save's mods are looked for only in `paths` (the --mod folders) and must have the
    fingerprints the save records."""
    path = Path(path)
    data = read(path)
    paths = list(paths)
    try:
        _check_mods(path, data, plugins.discover(paths))
        rs = plugins.load(data.ruleset, options=data.options, paths=paths, trust_code=trust_code)
    except plugins.RulesetNotFound as e:
        raise SaveError(f"{path}: {e}") from None
    got_mods = {m.name for m in saved_mods(rs)}
    named = {m.name for m in data.mods}
    if got_mods != named:
        raise SaveError(f"{path}: damaged save file: it names the mods {sorted(named)}, but the ruleset "
                        f"`{rs.name}` is made of the mods {sorted(got_mods)}")
    fingerprint_ok = rs.fingerprint == data.ruleset_fingerprint
    try:
        game = Game(rs, data.scenario, data.seed)
    except (LookupError, ValueError) as e:     # no such scenario, or one these options cannot set up
        raise SaveError(f"{path}: the game cannot be set up again: {e}") from e
    other = "" if fingerprint_ok else " (the save was made with other rules)"
    for i, saved in enumerate(data.actions, 1):
        try:
            action = Action.from_json(saved.model_dump())
            game.play(action)
        except IllegalAction as e:
            raise SaveError(f"{path}: action {i} of {len(data.actions)} ({saved.kind}) is refused by the rules: "
                            f"{e.reason}{other}") from None
        except Exception as e:  # a damaged action's arguments can break anything
            raise SaveError(f"{path}: damaged save file: action {i} of {len(data.actions)} ({saved.kind}) "
                            f"cannot be played ({_short_error(e)}){other}") from e
        if progress:
            progress(i, len(data.actions))
    want = json.loads(json.dumps(data.state, sort_keys=True))
    got = game.state.signature()
    diffs = [f"{k}: saved {_short(want.get(k))}, replayed {_short(got.get(k))}"
             for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
    return ReplayReport(game, not diffs, diffs, fingerprint_ok)


def load(path: Path | str, paths: Iterable[Path | str] = (), trust_code: bool = False) -> Game:
    """Load a saved game to go on playing it. Refused if the replay does not reproduce it."""
    report = replay(path, paths, trust_code=trust_code)
    if not report.matches:
        raise SaveError(f"{path}: damaged save file: replaying its actions does not give the saved state ("
                        + "; ".join(report.differences[:3]) + ")")
    return report.game


def _short_error(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 120 else text[:117] + "..."


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
