"""Finding rulesets and loading one for play.

Installed rulesets are plugins in the entry-point group ``wargame.rulesets``. A mod is a
folder with a ``ruleset.json`` manifest and rules files: it names the ruleset it extends, and
its rules files begin with ``extends <base>``.

A mod may also name a Python ``plugin`` file, for the rare mod that needs a new primitive.
Such code is **never imported unless the player trusts it** (``trust_code=True``, the command
line's ``--trust-code``): a shared mod folder is data until then. Installed packages are
trusted, since installing one already ran its code.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pluggy
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import dsl
from dsl.errors import Diagnostic, Pos, did_you_mean
from dsl.files import NotAFile, TooBig, check_file, read_bounded, unix_newlines, what_it_is
from dsl.loader import MAX_FILE_BYTES
from engine import hookspecs, primitives
from engine.hookspecs import hookimpl
from engine.mapfile import MAX_JSON_BYTES
from engine.ruleset import GameLogic, LoadedRuleset, RulesetInfo, ScenarioInfo

ENTRY_POINT_GROUP = "wargame.rulesets"
MANIFEST = "ruleset.json"
#: a manifest bigger than this is not a manifest
MAX_MANIFEST_BYTES = 1 << 20
#: the largest data, map, scenario or plugin file a mod may have (the largest shipped, LHTR's
#: map, is 216 KB)
MAX_DATA_BYTES = MAX_JSON_BYTES
TRUST_HINT = "--trust-code"


class RulesetNotFound(LookupError):
    pass


class ManifestError(ValueError):
    """A mod folder whose ruleset.json is missing or wrong."""


class UntrustedCode(Exception):
    """A mod with Python code was asked to load without the player trusting it."""


class FolderRuleset:
    """A mod: a folder of rules files described by ruleset.json. Its game logic is its base
    ruleset's, unless its optional Python plugin (imported only when trusted) brings one."""

    def __init__(self, folder: Path, trust_code: bool = False, builtin: bool = False,
                 players: Mapping[str, Any] | None = None) -> None:
        self.folder = folder
        self.info = read_manifest(folder)
        self.trusted = trust_code or builtin
        #: shipped inside an installed package (listed by its entry point), not a mod
        self.builtin = builtin
        if players and not builtin:
            raise ValueError(f"{folder}: only a built-in folder ruleset brings computer players "
                             f"(a mod's come from its trusted Python plugin)")
        #: computer players, name -> factory(seed) or "module:attribute" naming one (imported
        #: when the players are asked for); a ruleset extending this one inherits them
        self.players: dict[str, Any] = dict(players or {})
        self._module: Any = None
        self._fingerprint: str | None = None

    @hookimpl
    def wargame_ruleset_info(self) -> RulesetInfo:
        return self.info

    @hookimpl
    def wargame_players(self, info: Any) -> dict[str, Any] | None:
        """This ruleset's computer players. Every ruleset of a game's chain answers (base
        first), so a mod over this one offers them too."""
        if not self.players:
            return None
        return {name: _factory(spec) for name, spec in self.players.items()}

    @property
    def has_code(self) -> bool:
        return self.info.plugin is not None

    def untrusted_message(self) -> str:
        return (f"the mod `{self.info.name}` ({self.folder}) contains Python code "
                f"(`{self.info.plugin}`), which wargame does not run unless you trust it. If you "
                f"trust where it comes from, give {TRUST_HINT} before the command, e.g. "
                f"`wargame {TRUST_HINT} --mod {self.folder} ...`")

    def module(self) -> Any:
        """The mod's plugin module, imported on first use; UntrustedCode unless trusted."""
        if not self.has_code:
            return None
        if not self.trusted:
            raise UntrustedCode(self.untrusted_message())
        if self._module is None:
            self._module = _load_module(self.folder, self.info)
        return self._module

    @property
    def fingerprint(self) -> str:
        """Identifies this mod's content: its name, base, rules, data and plugin files."""
        if self._fingerprint is None:
            self._fingerprint = mod_fingerprint(self.folder, self.info)
        return self._fingerprint

    def __repr__(self) -> str:
        return f"<mod {self.info.name} at {self.folder}>"


def _factory(spec: Any) -> Any:
    """A computer player's factory, from itself or from "module:attribute"."""
    if not isinstance(spec, str):
        return spec
    import importlib

    module, _, attr = spec.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def mod_fingerprint(folder: Path, info: RulesetInfo) -> str:
    h = hashlib.sha256()
    h.update(f"{info.name}\0{info.extends or ''}\0".encode())
    files = [*info.rules_files, *info.data_files]
    if info.plugin:
        files.append(folder / info.plugin)
    for path in files:
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _load_module(folder: Path, info: RulesetInfo) -> Any:
    """A mod's Python plugin module (named by "plugin" in ruleset.json). Runs its code."""
    import importlib.util

    path = folder / str(info.plugin)
    name = "wargame_mod_" + re.sub(r"\W", "_", info.name)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ManifestError(f"{folder / MANIFEST}: plugin file `{info.plugin}` cannot be imported")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the mod's own code failed: say which file, --debug shows where
        raise ManifestError(f"{path}: the mod's Python plugin failed to import: {type(e).__name__}: {e}") from e
    return module


def _register(pm: pluggy.PluginManager, plugin: Any, notes: list[str] | None = None) -> None:
    """Register a ruleset's plugin and, for a mod, its Python module. An untrusted module
    raises UntrustedCode, or (with `notes`, when only checking) is left out and noted."""
    pm.register(plugin)
    if isinstance(plugin, FolderRuleset) and plugin.has_code:
        if not plugin.trusted and notes is not None:
            notes.append(f"{plugin.folder / MANIFEST}: the Python plugin `{plugin.info.plugin}` was not "
                         f"imported (wargame runs a mod's code only with {TRUST_HINT}); its hooks and "
                         f"primitives were left out of this check")
            return
        pm.register(plugin.module())


# -- the manifest -----------------------------------------------------------------------------
_NAME = r"^[A-Za-z_][A-Za-z0-9_-]*$"


class _ScenarioEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=100)
    title: str | None = Field(default=None, max_length=1000)
    description: str = Field(default="", max_length=10_000)
    fidelity: str = Field(default="exact", max_length=100)
    summary: str = Field(default="", max_length=10_000)
    #: the scenario file (engine/scenario.py) with the starting position and the map it uses
    file: str | None = Field(default=None, max_length=1000)


class Manifest(BaseModel):
    """ruleset.json, as a mod folder must write it (see docs/modding.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(pattern=_NAME, max_length=100)
    rules: list[str] = Field(min_length=1, max_length=1000)
    extends: str | None = Field(default=None, pattern=_NAME, max_length=100)
    title: str | None = Field(default=None, max_length=1000)
    description: str = Field(default="", max_length=10_000)
    version: str | int = "0"
    scenarios: list[_ScenarioEntry] = Field(default_factory=list, max_length=1000)
    sides: list[str] = Field(default_factory=list, max_length=100)
    data: list[str] = Field(default_factory=list, max_length=1000)
    #: a wargame-map-changes/1 file (engine/mapfile.py): what this layer changes on its base's map
    map_changes: str | None = Field(default=None, max_length=1000)
    plugin: str | None = None


def _field_problem(err: Mapping[str, Any]) -> str:
    loc = ".".join(str(x) for x in err["loc"])
    if err["type"] == "extra_forbidden":
        hint = did_you_mean(str(err["loc"][-1]), Manifest.model_fields if len(err["loc"]) == 1
                            else _ScenarioEntry.model_fields)
        return f"unknown key `{loc}`" + (f" ({hint})" if hint else "")
    if err["type"] == "missing":
        return f"missing `{loc}`"
    shown = json.dumps(err.get("input"), ensure_ascii=False, default=str)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"`{loc}`: {err['msg'][0].lower()}{err['msg'][1:]} (got {shown})"


def _inside(folder: Path, path: str, manifest: Path, key: str) -> Path:
    """A file the manifest names: relative, inside the mod folder, and there."""
    if not path or Path(path).is_absolute() or "\x00" in path:
        raise ManifestError(f"{manifest}: `{key}`: `{path}` must be a file name relative to the mod folder")
    full = folder / path
    try:
        inside = full.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        raise ManifestError(f"{manifest}: `{key}`: `{path}` is outside the mod folder")
    most = MAX_FILE_BYTES if key == "rules" else MAX_DATA_BYTES
    try:
        check_file(full, most)
    except TooBig as e:
        raise ManifestError(f"{manifest}: `{key}`: file `{path}` is {e.size:,} bytes; a mod's "
                            f"{'rules' if key == 'rules' else 'data'} file may have {most:,}") from None
    except NotAFile as e:
        raise ManifestError(f"{manifest}: `{key}`: `{path}` is {e.kind}, not a file") from None
    except OSError:
        raise ManifestError(f"{manifest}: `{key}`: file `{path}` does not exist in {folder}") from None
    return full


def read_manifest(folder: Path) -> RulesetInfo:
    """Read and validate a mod folder's ruleset.json. ManifestError names the file and the
    field of every problem. Imports nothing."""
    path = folder / MANIFEST
    if not path.exists():
        raise ManifestError(f"{folder}: no {MANIFEST} here; a mod folder needs one (see docs/modding.md)")
    try:
        data = read_bounded(path, MAX_MANIFEST_BYTES)
    except TooBig as e:
        raise ManifestError(f"{path}: {e.size} bytes is too big for a manifest (at most {MAX_MANIFEST_BYTES})") from None
    except NotAFile as e:
        raise ManifestError(f"{path}: {e.kind}, not a manifest") from None
    except OSError as e:
        raise ManifestError(f"{path}: cannot read it ({e.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ManifestError(f"{path}: not UTF-8 text (byte {e.start})") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise ManifestError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:
        raise ManifestError(f"{path}: not a usable manifest ({e})") from None
    if not isinstance(raw, dict):
        raise ManifestError(f"{path}: expected a JSON object, got {type(raw).__name__}")
    try:
        m = Manifest.model_validate(raw)
    except ValidationError as e:
        problems = [_field_problem(err) for err in e.errors()]
        raise ManifestError("\n".join(f"{path}: {p}" for p in problems[:10])) from None
    rules = tuple(_inside(folder, r, path, "rules") for r in m.rules)
    for r in rules:
        try:
            read_bounded(r, MAX_FILE_BYTES).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ManifestError(f"{r}: not UTF-8 text (byte {e.start}); rules files are text") from None
    data_files = tuple(_inside(folder, d, path, "data") for d in m.data)
    if m.plugin is not None:
        _inside(folder, m.plugin, path, "plugin")
    scenarios = tuple(ScenarioInfo(s.name, s.title or s.name, s.description, s.fidelity, s.summary,
                                   _inside(folder, s.file, path, "scenarios.file") if s.file else None)
                      for s in m.scenarios)
    data_files += _scenario_data(folder, scenarios, path)
    map_changes = (_inside(folder, m.map_changes, path, "map_changes"),) if m.map_changes else ()
    data_files += map_changes
    return RulesetInfo(
        name=m.name,
        title=m.title or m.name,
        root=folder,
        rules_files=rules,
        scenarios=scenarios,
        version=str(m.version),
        extends=m.extends,
        description=m.description,
        sides=tuple(m.sides),
        plugin=m.plugin,
        data_files=data_files,
        map_changes=map_changes,
    )


def _scenario_data(folder: Path, scenarios: tuple[ScenarioInfo, ...], manifest: Path) -> tuple[Path, ...]:
    """Scenario files and the maps they name: part of the mod's identity (its fingerprint)."""
    from engine.scenario import ScenarioDataError, read_scenario

    out: list[Path] = []
    for sc in scenarios:
        if sc.path is None:
            continue
        out.append(sc.path)
        try:
            map_name = read_scenario(sc.path).map
            if ":" in map_name:
                continue            # a base ruleset's map (RULESET:FILE): part of the base's identity
            out.append(_inside(folder, map_name, manifest, f"the map of scenario `{sc.name}`"))
        except ScenarioDataError as exc:
            raise ManifestError(str(exc)) from None
    return tuple(dict.fromkeys(out))


def _manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def discover(paths: Iterable[Path | str] = (), trust_code: bool = False) -> dict[str, tuple[Any, RulesetInfo]]:
    """Every ruleset available: installed plugins and the mod folders in `paths`.
    Returns name -> (plugin, info). Reads manifests only: no mod's code is imported here,
    whatever `trust_code` says (it is remembered for when the mod is loaded)."""
    found: dict[str, tuple[Any, RulesetInfo]] = {}
    plugins: list[Any] = [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    plugins += [FolderRuleset(p, trust_code) for p in dict.fromkeys(Path(p).resolve() for p in paths)]
    for plugin in plugins:
        info_fn = getattr(plugin, "wargame_ruleset_info", None)
        info = info_fn() if info_fn else None
        if info is None:
            continue
        if info.name in found and found[info.name][1].root.resolve() == info.root.resolve():
            continue            # a built-in folder also named with --mod or by its path
        if info.name in found and found[info.name][0] is not plugin:
            raise ManifestError(f"two rulesets are called `{info.name}`: {found[info.name][1].root} and {info.root}")
        found[info.name] = (plugin, info)
    return found


def chain_of(name: str, available: Mapping[str, tuple[Any, RulesetInfo]]) -> list[tuple[Any, RulesetInfo]]:
    """The ruleset and every ruleset it extends, base first."""
    out: list[tuple[Any, RulesetInfo]] = []
    seen: list[str] = []
    current: str | None = name
    while current is not None:
        if current in seen:
            raise ManifestError(f"rulesets extend each other in a circle: {' -> '.join([*seen, current])}")
        seen.append(current)
        if current not in available:
            known = ", ".join(sorted(available)) or "none"
            if current == name:
                raise RulesetNotFound(f"no ruleset called `{current}` (installed: {known})")
            by = out[0][1]
            where = f", {by.root / MANIFEST}" if (by.root / MANIFEST).is_file() else ""
            raise RulesetNotFound(f"no base ruleset (extended by `{by.name}`{where}) called `{current}` "
                                  f"(installed: {known})")
        out.insert(0, available[current])
        current = available[current][1].extends
    return out


def inherited_info(chain: list[tuple[Any, RulesetInfo]]) -> RulesetInfo:
    """The most derived ruleset's facts as it is played: its own scenarios first, then its
    base's (a mod may add a scenario on its base's map), every layer's map changes base first,
    and where each layer's files are (a scenario may name `RULESET:FILE`, a base's map)."""
    from dataclasses import replace

    info = chain[-1][1]
    changes = tuple(p for _, layer in chain for p in layer.map_changes)
    roots = tuple((layer.name, layer.root) for _, layer in chain)
    scenarios = list(info.scenarios)
    for _, base in reversed(chain[:-1]):
        scenarios += [s for s in base.scenarios if s.name not in {x.name for x in scenarios}]
    sides = info.sides or next((b.sides for _, b in reversed(chain) if b.sides), ())
    return replace(info, scenarios=tuple(scenarios), sides=sides, map_changes=changes, roots=roots)


def build_registry(pm: pluggy.PluginManager, info: RulesetInfo) -> dsl.Registry:
    registry = dsl.Registry()
    primitives.register_core(registry)
    registry.needs_turns = True         # (the engine plays the rules' phases: a plugin may say otherwise)
    pm.hook.wargame_register(registry=registry, info=info)
    return registry


def _resolver(chain: list[tuple[Any, RulesetInfo]]):  # type: ignore[no-untyped-def]
    by_name = {info.name: info for _, info in chain}

    def resolve(name: str) -> list[Path]:
        if name not in by_name:
            raise RulesetNotFound(f"`extends {name}`: no such ruleset in this ruleset's chain ({', '.join(by_name)})")
        return list(by_name[name].rules_files)

    return resolve


def load(name_or_path: str | Path, options: Mapping[str, Any] | None = None,
         paths: Iterable[Path | str] = (), trust_code: bool = False) -> LoadedRuleset:
    """Load a ruleset (by name, or a mod folder) with its rules compiled and options set.

    A mod in the chain that has Python code raises UntrustedCode unless `trust_code`.
    Raises RulesetNotFound, ManifestError, or dsl.RulesError with every problem in the rules."""
    paths = list(paths)
    name = str(name_or_path)
    if Path(name).is_dir():
        paths.append(Path(name))
        name = read_manifest(Path(name)).name
    available = discover(paths, trust_code)
    chain = chain_of(name, available)
    info = inherited_info(chain)
    pm = _manager()
    for plugin, _ in reversed(chain):     # most derived first: pluggy calls the base first
        _register(pm, plugin)
        if isinstance(plugin, FolderRuleset):
            _ = plugin.fingerprint        # the files as they are loaded, for saves to name
    registry = build_registry(pm, info)
    _check_extends_line(chain)
    rules = dsl.load_rules(list(info.rules_files), registry, resolve_extends=_resolver(chain),
                           options=dict(options or {}))
    answers = [a for a in pm.hook.wargame_logic(rules=rules, info=info) if a is not None]
    logic: GameLogic
    if answers:
        logic = answers[-1]
    else:
        # a game written only in rules and data: its rules files drive it
        from engine.rules import structure_from_rules
        from engine.rules_logic import RulesLogic

        logic = RulesLogic(rules, info, structure_from_rules(rules))
    return LoadedRuleset(info=info, chain=tuple(i for _, i in chain), plugins=pm, rules=rules,
                         logic=logic, options=dict(rules.options))


# -- option values: sane sizes and the spec's bounds --------------------------------------------
#: option values given from outside the rules (a command line, a save) are refused beyond these
MAX_OPTION_INT = 1_000_000
MAX_OPTION_ITEMS = 10_000
_MAX_OPTION_DEPTH = 20


def _number(v: int | float) -> str:
    if isinstance(v, int) and v.bit_length() > 64:
        return f"a number of about {int(v.bit_length() * 0.30103) + 1} digits"
    return f"{v:,}" if isinstance(v, int) else repr(v)


def option_size_problem(value: Any) -> str | None:
    """Why an option value from outside the rules is absurdly big, or None: integers beyond
    ±1,000,000, texts and lists over 10,000 items, values nested more than 20 deep."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if depth > _MAX_OPTION_DEPTH:
            return f"values nested more than {_MAX_OPTION_DEPTH} deep"
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, int | float):
            if v != v or abs(v) > MAX_OPTION_INT:
                return f"{_number(v)} is beyond ±{MAX_OPTION_INT:,}"
        elif isinstance(v, str):
            if len(v) > MAX_OPTION_ITEMS:
                return f"a text of {len(v):,} characters is over the limit of {MAX_OPTION_ITEMS:,}"
        elif isinstance(v, list | tuple | dict):
            if len(v) > MAX_OPTION_ITEMS:
                return f"{len(v):,} entries are over the limit of {MAX_OPTION_ITEMS:,}"
            items = [*v.keys(), *v.values()] if isinstance(v, dict) else list(v)
            todo.extend((x, depth + 1) for x in items)
    return None


def option_bounds(spec: Any) -> tuple[Any, Any]:
    """The (lowest, highest) an option's spec allows, where it says (None: no bound)."""
    bounds = getattr(spec, "bounds", None)
    if bounds:
        return bounds[0], bounds[1]
    return getattr(spec, "min", None), getattr(spec, "max", None)


def option_bounds_problem(spec: Any, value: Any) -> str | None:
    """Why a value breaks the bounds its option's spec offers (every number inside a list
    or map counts), or None."""
    lo, hi = option_bounds(spec)
    if lo is None and hi is None:
        return None
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, list | tuple):
            todo.extend(v)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                span = f"{lo if lo is not None else '...'} to {hi if hi is not None else '...'}"
                return f"{_number(v)} is outside the option's bounds ({span})"
    return None


def option_problems(rs: LoadedRuleset, names: Iterable[str]) -> list[str]:
    """`--option NAME: why` for every option in `names` whose loaded value is out of bounds
    or absurdly big."""
    out = []
    for name in names:
        if name not in rs.options:
            continue
        value = rs.options[name]
        problem = option_size_problem(value) or option_bounds_problem(rs.rules.option_specs.get(name), value)
        if problem:
            out.append(f"option `{name}`: {problem}")
    return out


def mods_of(rs: LoadedRuleset) -> list[FolderRuleset]:
    """The mods (folder rulesets) in a loaded ruleset's chain, base first."""
    folders = {p.info.name: p for p in rs.plugins.get_plugins()
               if isinstance(p, FolderRuleset) and not p.builtin}
    return [folders[i.name] for i in rs.chain if i.name in folders]


_EXTENDS = re.compile(r"^\s*extends\s+([A-Za-z_][\w-]*)", re.MULTILINE)


def declared_base(path: Path) -> str | None:
    """The ruleset a rules file says it extends (its `extends` line), if any."""
    try:
        text = read_bounded(path, MAX_FILE_BYTES).decode("utf-8-sig")
    except TooBig:
        return None                     # (loading it says it is too big, with a hint)
    except UnicodeDecodeError as e:
        raise ManifestError(f"{path}: not UTF-8 text (byte {e.start}); rules files are text") from None
    m = _EXTENDS.search(unix_newlines(text))
    return m.group(1) if m else None


def _check_extends_line(chain: list[tuple[Any, RulesetInfo]]) -> None:
    info = chain[-1][1]
    if info.extends and info.rules_files:
        first = info.rules_files[0]
        if declared_base(first) != info.extends:
            raise ManifestError(
                f"{first}:1:1: ruleset `{info.name}` extends `{info.extends}`, so this file must begin with "
                f"`extends {info.extends}`")


def check(path: Path | str, paths: Iterable[Path | str] = (), trust_code: bool = False) -> list[Any]:
    """Check a ruleset folder, a mod folder or one rules file; every diagnostic found.

    A mod's Python plugin is imported only with `trust_code`; without it the rules and data
    files are checked all the same and a diagnostic of severity "note" says the plugin was
    left out."""
    path = Path(path)
    paths = list(paths)
    if path.is_dir():
        if (path / MANIFEST).is_file():
            paths.append(path)
            info = read_manifest(path)
            name = info.name
        else:
            available = discover(paths, trust_code)
            match = [n for n, (_, i) in available.items() if i.root.resolve() == path.resolve()]
            if not match:
                raise ManifestError(f"{path}: not a ruleset folder (no {MANIFEST}, and no installed ruleset lives here)")
            name = match[0]
        available = discover(paths, trust_code)
        chain = chain_of(name, available)
        files = list(chain[-1][1].rules_files)
        _check_extends_line(chain)              # (as loading does)
    else:
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file or folder")
        kind = what_it_is(path.stat().st_mode)
        if kind is not None:                    # a FIFO, a device: refused, never opened
            raise NotAFile(path, kind)
        available = discover(paths, trust_code)
        owner = [n for n, (_, i) in available.items() if path.resolve() in {f.resolve() for f in i.rules_files}]
        if owner:       # one file of a ruleset: it is checked with the files it is written beside
            chain = chain_of(owner[0], available)
            files = list(chain[-1][1].rules_files)
        else:
            base = declared_base(path)
            chain = chain_of(base, available) if base else []
            files = [path]
    pm = _manager()
    notes: list[str] = []
    for plugin, _ in reversed(chain):
        _register(pm, plugin, notes)
    info = chain[-1][1] if chain else RulesetInfo("(file)", "(file)", path.parent, (path,), ())
    registry = build_registry(pm, info)
    registry.needs_turns = registry.needs_turns and bool(chain)   # (a file on its own is no game yet)
    diagnostics = list(dsl.check_rules(files, registry, resolve_extends=_resolver(chain) if chain else None,
                                       report_unread=True))
    # warnings are for the files being checked: a mod's author cannot act on its base's
    own = {str(Path(f)) for f in files}
    diagnostics = [d for d in diagnostics if d.severity != "warning" or str(Path(d.pos.file)) in own]
    if chain:
        diagnostics += _check_data_files(chain[-1][1])
        diagnostics += _check_maps(inherited_info(chain))
        if not any(d.severity == "error" for d in diagnostics) and not notes:
            diagnostics += _check_scenarios(chain[-1][1].name, paths, trust_code)
    return diagnostics + [Diagnostic(Pos(str(path), 0, 0), n, severity="note") for n in notes]


def _check_scenarios(name: str, paths: list[Any], trust_code: bool) -> list[Diagnostic]:
    """Load the ruleset as for play and set up each of its scenarios as a new game does: every
    mistake of each scenario file (unknown unit types, spaces the map lacks, a hex used
    twice...) with the file, line and column of its entry, and what the rulesets' scenario
    checks and the rules' first steps find."""
    from engine.game import Game, ScenarioError
    from engine.mapfile import MapDataError

    try:
        rs = load(name, paths=paths, trust_code=trust_code)
    except dsl.RulesError as e:
        return list(e.diagnostics)
    except (ManifestError, RulesetNotFound, ValueError, LookupError) as e:
        return [Diagnostic(Pos(name, 0, 0), f"ruleset `{name}` does not load: {e}")]
    out: list[Diagnostic] = []
    for sc in rs.info.scenarios:
        where = Pos(str(sc.path) if sc.path else name, 0, 0)
        try:
            Game(rs, sc.name, 0)
        except MapDataError as e:
            out += [_data_diagnostic(p) for p in e.problems] or [Diagnostic(where, f"scenario `{sc.name}`: {e}")]
        except ScenarioError as e:
            out += [Diagnostic(where, f"scenario `{sc.name}`: {p}") for p in e.problems]
        except dsl.RulesRuntimeError as e:
            out.append(Diagnostic(e.pos or where, f"scenario `{sc.name}` cannot start: error in the rules: "
                                                  f"{e.message}"))
        except (ValueError, LookupError) as e:
            out.append(Diagnostic(where, f"scenario `{sc.name}` cannot be set up: {e}"))
    return out


def _data_diagnostic(problem: Any) -> Diagnostic:
    """A data file's mistake at its entry's line and column, where they can be found."""
    from engine.json_places import place

    text, file = problem.text, problem.file
    if file is None:
        return Diagnostic(Pos("", 0, 0), text)
    try:
        source = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        source = ""
    entry = tuple(problem.entry)
    at = None
    while entry and at is None:
        at = place(source, entry)
        entry = entry[:-1]
    if at is None:
        return Diagnostic(Pos(str(file), 0, 0), text)
    prefix = f"{Path(file).name}: "
    return Diagnostic(Pos(str(file), *at), text[len(prefix):] if text.startswith(prefix) else text)


def _check_maps(info: RulesetInfo) -> list[Diagnostic]:
    """The map of every scenario the ruleset plays must be there, with every layer's map
    changes applying to it."""
    from engine.mapfile import MapDataError, load_map
    from engine.scenario import ScenarioDataError, map_file, read_scenario

    out = []
    for sc in info.scenarios:
        if sc.path is None:         # (every logic sets a scenario up from its file)
            out.append(Diagnostic(Pos(str(info.root / MANIFEST), 0, 0),
                                  f"{info.root / MANIFEST}: scenario `{sc.name}` names no scenario file (`file`)"))
            continue
        try:
            load_map(map_file(sc.path, read_scenario(sc.path).map, dict(info.roots)), info.map_changes)
        except (MapDataError, ScenarioDataError) as e:
            out += [_data_diagnostic(p) for p in e.problems] or [Diagnostic(Pos(str(sc.path), 0, 0),
                                                                            f"scenario `{sc.name}`: {e}")]
    return out


def _check_data_files(info: RulesetInfo) -> list[Diagnostic]:
    """The data files a ruleset names: JSON ones must parse."""
    out = []
    for f in info.data_files:
        if f.suffix.lower() != ".json":
            continue
        try:
            json.loads(read_bounded(f, MAX_DATA_BYTES).decode("utf-8-sig"))
        except UnicodeDecodeError as e:
            out.append(Diagnostic(Pos(str(f), 0, 0), f"{f}: not UTF-8 text (byte {e.start})"))
        except json.JSONDecodeError as e:
            out.append(Diagnostic(Pos(str(f), e.lineno, e.colno), f"not valid JSON: {e.msg}"))
        except (ValueError, RecursionError) as e:
            out.append(Diagnostic(Pos(str(f), 0, 0), f"{f}: not usable JSON ({e})"))
    return out
