"""Finding rulesets and loading one for play.

Installed rulesets are plugins in the entry-point group ``wargame.rulesets``. A mod is a
folder with a ``ruleset.json`` manifest and rules files, and no Python at all: it names the
ruleset it extends, and its rules files begin with ``extends <base>``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pluggy

import dsl
from engine import hookspecs, primitives
from engine.hookspecs import hookimpl
from engine.ruleset import GameLogic, LoadedRuleset, RulesetInfo, ScenarioInfo

ENTRY_POINT_GROUP = "wargame.rulesets"
MANIFEST = "ruleset.json"


class RulesetNotFound(LookupError):
    pass


class ManifestError(ValueError):
    """A mod folder whose ruleset.json is missing or wrong."""


class FolderRuleset:
    """A mod: a folder of rules files described by ruleset.json. It brings rules, not Python;
    its game logic is its base ruleset's."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.info = read_manifest(folder)
        self.module = _load_module(folder, self.info) if self.info.plugin else None

    @hookimpl
    def wargame_ruleset_info(self) -> RulesetInfo:
        return self.info

    def __repr__(self) -> str:
        return f"<mod {self.info.name} at {self.folder}>"


def _load_module(folder: Path, info: RulesetInfo) -> Any:
    """A mod's optional Python plugin module (named by "plugin" in ruleset.json)."""
    import importlib.util

    path = folder / str(info.plugin)
    if not path.is_file():
        raise ManifestError(f"{folder / MANIFEST}: plugin file `{info.plugin}` does not exist")
    spec = importlib.util.spec_from_file_location(f"wargame_mod_{info.name.replace('-', '_')}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _register(pm: pluggy.PluginManager, plugin: Any) -> None:
    pm.register(plugin)
    module = getattr(plugin, "module", None)
    if module is not None:
        pm.register(module)


def read_manifest(folder: Path) -> RulesetInfo:
    path = folder / MANIFEST
    if not path.is_file():
        raise ManifestError(f"{folder}: no {MANIFEST} here; a mod folder needs one (see docs/modding.md)")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ManifestError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    if not isinstance(raw, dict):
        raise ManifestError(f"{path}: expected a JSON object")
    for key in ("name", "rules"):
        if key not in raw:
            raise ManifestError(f"{path}: missing `{key}`")
    rules = tuple(folder / r for r in raw["rules"])
    for r in rules:
        if not r.is_file():
            raise ManifestError(f"{path}: rules file `{r.name}` does not exist")
    scenarios = tuple(
        ScenarioInfo(s["name"], s.get("title", s["name"]), s.get("description", ""), s.get("fidelity", "exact"))
        for s in raw.get("scenarios", ())
    )
    return RulesetInfo(
        name=str(raw["name"]),
        title=str(raw.get("title", raw["name"])),
        root=folder,
        rules_files=rules,
        scenarios=scenarios,
        version=str(raw.get("version", "0")),
        extends=raw.get("extends"),
        description=str(raw.get("description", "")),
        sides=tuple(raw.get("sides", ())),
        plugin=raw.get("plugin"),
        data_files=tuple(folder / d for d in raw.get("data", ())),
    )


def _manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def discover(paths: Iterable[Path | str] = ()) -> dict[str, tuple[Any, RulesetInfo]]:
    """Every ruleset available: installed plugins and the mod folders in `paths`.
    Returns name -> (plugin, info)."""
    found: dict[str, tuple[Any, RulesetInfo]] = {}
    plugins: list[Any] = [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    plugins += [FolderRuleset(p) for p in dict.fromkeys(Path(p).resolve() for p in paths)]
    for plugin in plugins:
        info_fn = getattr(plugin, "wargame_ruleset_info", None)
        info = info_fn() if info_fn else None
        if info is None:
            continue
        if info.name in found and found[info.name][0] is not plugin:
            raise ManifestError(f"two rulesets are called `{info.name}`: {found[info.name][1].root} and {info.root}")
        found[info.name] = (plugin, info)
    return found


def chain_of(name: str, available: Mapping[str, tuple[Any, RulesetInfo]]) -> list[tuple[Any, RulesetInfo]]:
    """The ruleset and every ruleset it extends, base first."""
    out: list[tuple[Any, RulesetInfo]] = []
    seen: set[str] = set()
    current: str | None = name
    while current is not None:
        if current in seen:
            raise ManifestError(f"rulesets extend each other in a circle: {' -> '.join([*seen, current])}")
        seen.add(current)
        if current not in available:
            known = ", ".join(sorted(available)) or "none"
            what = "ruleset" if current == name else f"base ruleset (extended by `{out[0][1].name}`)"
            raise RulesetNotFound(f"no {what} called `{current}` (installed: {known})")
        out.insert(0, available[current])
        current = available[current][1].extends
    return out


def _inherit_scenarios(chain: list[tuple[Any, RulesetInfo]]) -> RulesetInfo:
    from dataclasses import replace

    info = chain[-1][1]
    if info.scenarios:
        return info
    for _, base in reversed(chain):
        if base.scenarios:
            return replace(info, scenarios=base.scenarios, sides=info.sides or base.sides)
    return info


def build_registry(pm: pluggy.PluginManager, info: RulesetInfo) -> dsl.Registry:
    registry = dsl.Registry()
    primitives.register_core(registry)
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
         paths: Iterable[Path | str] = ()) -> LoadedRuleset:
    """Load a ruleset (by name, or a mod folder) with its rules compiled and options set.

    Raises RulesetNotFound, ManifestError, or dsl.RulesError with every problem in the rules."""
    paths = list(paths)
    name = str(name_or_path)
    if Path(name).is_dir():
        paths.append(Path(name))
        name = read_manifest(Path(name)).name
    available = discover(paths)
    chain = chain_of(name, available)
    info = _inherit_scenarios(chain)
    pm = _manager()
    for plugin, _ in reversed(chain):     # most derived first: pluggy calls the base first
        _register(pm, plugin)
    registry = build_registry(pm, info)
    _check_extends_line(chain)
    rules = dsl.load_rules(list(info.rules_files), registry, resolve_extends=_resolver(chain),
                           options=dict(options or {}))
    answers = [a for a in pm.hook.wargame_logic(rules=rules, info=info) if a is not None]
    if not answers:
        raise RulesetNotFound(f"ruleset `{info.name}` has no game logic (no plugin in its chain answers wargame_logic)")
    logic: GameLogic = answers[-1]
    return LoadedRuleset(info=info, chain=tuple(i for _, i in chain), plugins=pm, rules=rules,
                         logic=logic, options=dict(rules.options))


_EXTENDS = re.compile(r"^\s*extends\s+([A-Za-z_][\w-]*)", re.MULTILINE)


def declared_base(path: Path) -> str | None:
    """The ruleset a rules file says it extends (its `extends` line), if any."""
    m = _EXTENDS.search(path.read_text(encoding="utf-8"))
    return m.group(1) if m else None


def _check_extends_line(chain: list[tuple[Any, RulesetInfo]]) -> None:
    info = chain[-1][1]
    if info.extends and info.rules_files:
        first = info.rules_files[0]
        if declared_base(first) != info.extends:
            raise ManifestError(
                f"{first}:1:1: ruleset `{info.name}` extends `{info.extends}`, so this file must begin with "
                f"`extends {info.extends}`")


def check(path: Path | str, paths: Iterable[Path | str] = ()) -> list[Any]:
    """Check a ruleset folder, a mod folder or one rules file; every diagnostic found."""
    path = Path(path)
    paths = list(paths)
    if path.is_dir():
        if (path / MANIFEST).is_file():
            paths.append(path)
            info = read_manifest(path)
            name = info.name
        else:
            available = discover(paths)
            match = [n for n, (_, i) in available.items() if i.root.resolve() == path.resolve()]
            if not match:
                raise ManifestError(f"{path}: not a ruleset folder (no {MANIFEST}, and no installed ruleset lives here)")
            name = match[0]
        available = discover(paths)
        chain = chain_of(name, available)
        files = list(chain[-1][1].rules_files)
    else:
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file or folder")
        available = discover(paths)
        owner = [n for n, (_, i) in available.items() if path.resolve() in {f.resolve() for f in i.rules_files}]
        if owner:       # one file of a ruleset: it is checked with the files it is written beside
            chain = chain_of(owner[0], available)
            files = list(chain[-1][1].rules_files)
        else:
            base = declared_base(path)
            chain = chain_of(base, available) if base else []
            files = [path]
    pm = _manager()
    for plugin, _ in reversed(chain):
        _register(pm, plugin)
    info = chain[-1][1] if chain else RulesetInfo("(file)", "(file)", path.parent, (path,), ())
    registry = build_registry(pm, info)
    return list(dsl.check_rules(files, registry, resolve_extends=_resolver(chain) if chain else None))
