"""What a mod changes against its base, in a player's words (`wargame rules diff BASE MOD`).

Both rulesets are loaded whole, every layer merged as for play, and their loaded rules
compared: so a mod over a mod over Bulge shows everything that differs from Bulge, and a
change its own base already made is not shown twice. The comparison covers stats, tags,
units (stat by stat, old -> new), options (their defaults), tables, procedures, rules,
steps and sub-sequences (a unified diff of their source text), phases and the turn
sequence, game variables, scenarios and their maps, and the data files.

It is also where a loaded ruleset says which layer set an option (`option_origin`), for
`wargame info`.
"""

from __future__ import annotations

import difflib
import json
import re
import textwrap
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dsl.errors import Pos
from engine import plugins
from engine.layer_docs import house_rules
from engine.ruleset import LoadedRuleset, RulesetInfo, ScenarioInfo

#: the sections of a diff, in the order they are shown, with their headings
#: a diff longer than this many lines is shown as a summary first (`--full`: all of it)
SCREEN_LINES = 60
#: the summary's widest line
SUMMARY_WIDTH = 100

SECTIONS = {
    "stats": "stats",
    "tags": "tags",
    "units": "units",
    "options": "options",
    "tables": "tables",
    "procedures": "procedures",
    "rules": "rules",
    "turns": "turns and powers",
    "phases": "phases",
    "steps": "steps",
    "sequences": "sub-sequences",
    "vars": "game variables",
    "scenarios": "scenarios",
    "map": "map",
    "data": "data files",
}
#: at most this many lines of a long list (a map's changed spaces) are shown
MAX_LINES = 20


@dataclass
class Change:
    """One thing that differs: `change` is "added", "removed" or "changed"."""

    section: str
    name: str
    change: str
    #: what changed, one line each, in a player's words ("attack: 2 -> 3")
    details: list[str] = field(default_factory=list)
    #: a unified diff of the source text, for procedures, rules, tables, steps
    diff: str = ""
    #: where the mod writes it (`house.rules:12`), when it comes from a rules file
    where: str = ""
    #: the value before and after, when it is one (an option's default)
    old: Any = None
    new: Any = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "change": self.change}
        if self.details:
            out["details"] = self.details
        if self.where:
            out["where"] = self.where
        if self.diff:
            out["diff"] = self.diff
        if self.change == "changed" and (self.old is not None or self.new is not None):
            out["old"], out["new"] = self.old, self.new
        elif self.change == "added" and self.new is not None:
            out["new"] = self.new
        elif self.change == "removed" and self.old is not None:
            out["old"] = self.old
        return out


@dataclass
class RulesDiff:
    base: str
    mod: str
    #: the chains of rulesets, base first
    base_chain: list[str]
    mod_chain: list[str]
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: what the mod's layers say they add, from their READMEs (engine.layer_docs)
    house: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.changes

    def section(self, name: str) -> list[Change]:
        return [c for c in self.changes if c.section == name]

    def find(self, section: str, name: str) -> Change | None:
        for c in self.changes:
            if c.section == section and c.name == name:
                return c
        return None

    def summary(self) -> str:
        """`3 changes: 2 options, 1 procedure`"""
        if not self.changes:
            return "no changes"
        counts = Counter(c.section for c in self.changes)
        parts = [f"{n} {_singular(SECTIONS[s]) if n == 1 else SECTIONS[s]}" for s, n in counts.items()]
        return f"{len(self.changes)} change{'s' if len(self.changes) != 1 else ''}: {', '.join(parts)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "mod": self.mod,
            "base_chain": self.base_chain,
            "mod_chain": self.mod_chain,
            "extends": self.base in self.mod_chain,
            "notes": self.notes,
            "house_rules": self.house,
            "summary": self.summary(),
            "changes": {s: [c.to_json() for c in self.section(s)] for s in SECTIONS if self.section(s)},
        }

    def render_summary(self, full_command: str = "", house: list[str] | None = None) -> str:
        """One screen for players: the house rules the mod's own README names (`house`, read
        with engine.layer_docs when not given), then each kind of change counted and named,
        and how to see them all (`full_command`)."""
        lines = [f"{self.mod} against {self.base} (layers: {', '.join(self.mod_chain)})"]
        lines += [f"note: {n}" for n in self.notes]
        if house is None:
            house = self.house
        if house:
            lines += ["", f"what {self.mod} adds, in its README's words:"]
            for h in house:
                lines += textwrap.wrap(h, SUMMARY_WIDTH, initial_indent="  ", subsequent_indent="      ")
        lines += ["", "what changes:"]
        for section, heading in SECTIONS.items():
            changes = self.section(section)
            if not changes:
                continue
            counts = Counter(c.change for c in changes)
            head = f"  {heading}: " + ", ".join(f"{n} {what}" for what, n in counts.items()) + ": "
            names, shown = [c.name for c in changes], ""
            for i, name in enumerate(names):
                more = f" and {len(names) - i} more"
                if len(head) + len(shown) + len(name) + 2 + len(more) > SUMMARY_WIDTH and shown:
                    shown += more
                    break
                shown += (", " if shown else "") + name
            lines.append(head + shown)
        lines += ["", *textwrap.wrap(self.summary(), SUMMARY_WIDTH, subsequent_indent="  ")]
        if full_command:
            lines.append(f"(every change with its rules text: {full_command})")
        return "\n".join(lines)

    def render(self) -> str:
        lines = [f"{self.mod} against {self.base} (layers: {', '.join(self.mod_chain)})"]
        lines += [f"note: {n}" for n in self.notes]
        if not self.changes:
            lines.append("no differences in the rules, the scenarios or the data files")
            return "\n".join(lines)
        for section, heading in SECTIONS.items():
            changes = self.section(section)
            if not changes:
                continue
            lines.append("")
            lines.append(f"{heading}:")
            for c in changes:
                at = f" ({c.where})" if c.where else ""
                if c.change == "changed" and len(c.details) == 1 and not c.diff:
                    lines.append(f"  {c.name}: {c.details[0]}{at}")
                    continue
                lines.append(f"  {c.name}: {c.change}{at}")
                lines += [f"    {d}" for d in _limit(c.details)]
                if c.diff:
                    lines += [f"    {d}" for d in c.diff.splitlines()]
        lines.append("")
        lines.append(self.summary())
        return "\n".join(lines)


def _singular(word: str) -> str:
    return {"tags": "tag", "turns and powers": "turn sequence change", "phases": "phase", "game variables":
            "game variable", "sub-sequences": "sub-sequence", "data files": "data file", "map": "map",
            "stats": "stat", "units": "unit", "options": "option", "tables": "table",
            "procedures": "procedure", "rules": "rule", "steps": "step", "scenarios": "scenario"}.get(word, word)


# -- loading ----------------------------------------------------------------------------------
def load_pair(base: str | Path, mod: str | Path, paths: Iterable[Path | str] = (),
              trust_code: bool = False) -> tuple[LoadedRuleset, LoadedRuleset]:
    """BASE (a ruleset's name or a folder) and MOD (a mod folder, or the name of one given
    in `paths`), each loaded whole with its default options. Raises what `plugins.load`
    raises: RulesetNotFound, ManifestError, UntrustedCode, dsl.RulesError."""
    paths = list(paths)
    for p in (base, mod):
        if Path(p).is_dir():
            paths.append(Path(p))
    return (plugins.load(base, paths=paths, trust_code=trust_code),
            plugins.load(mod, paths=paths, trust_code=trust_code))


def diff_rulesets(base: str | Path, mod: str | Path, paths: Iterable[Path | str] = (),
                  trust_code: bool = False) -> RulesDiff:
    """Load both and compare them (see `diff`)."""
    return diff(*load_pair(base, mod, paths, trust_code))


# -- which layer wrote what --------------------------------------------------------------------
def layer_of(rs: LoadedRuleset, pos: Pos) -> RulesetInfo | None:
    """The ruleset of `rs`'s chain whose rules file `pos` is in."""
    for info in rs.chain:
        if any(str(f) == pos.file for f in info.rules_files):
            return info
    for info in rs.chain:         # the same file named another way
        try:
            if any(Path(f).resolve() == Path(pos.file).resolve() for f in info.rules_files):
                return info
        except OSError:
            pass
    return None


def where(rs: LoadedRuleset, pos: Pos, with_layer: bool = False) -> str:
    """`house.rules:12` (the file relative to its ruleset's folder), or with the layer's
    name: `bulge-house-rules: house.rules:12`."""
    info = layer_of(rs, pos)
    path = Path(pos.file)
    if info is not None:
        try:
            path = path.resolve().relative_to(info.root.resolve())
        except (ValueError, OSError):
            path = Path(path.name)
    text = f"{path.as_posix()}:{pos.line}"
    return f"{info.name}: {text}" if with_layer and info is not None else text


def option_origin(rs: LoadedRuleset, name: str) -> dict[str, Any]:
    """Where an option's default comes from: `base_default` (the default of the ruleset that
    declares it), `declared_by` (that ruleset), `set_by` (the layer whose declaration or
    `override option` gives the default in force) and `layers` (each layer's default, base
    first)."""
    spec = rs.rules.option_specs[name]
    history = list(getattr(spec, "layer_defaults", ()) or ((spec.pos, spec.default),))

    def layer_name(pos: Pos) -> str:
        info = layer_of(rs, pos)
        return info.name if info is not None else pos.file

    return {
        "base_default": history[0][1],
        "declared_by": layer_name(history[0][0]),
        "set_by": layer_name(history[-1][0]),
        "layers": [{"ruleset": layer_name(p), "default": v, "where": where(rs, p)} for p, v in history],
    }


# -- comparing ------------------------------------------------------------------------------
def show(value: Any) -> str:
    """A value as a player writes it on the command line (JSON: true, "text", {"Axis": 9})."""
    try:
        return json.dumps(_plain(value), ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def diff(base: LoadedRuleset, mod: LoadedRuleset) -> RulesDiff:
    """What `mod` changes against `base`, both loaded rulesets."""
    out = RulesDiff(base.name, mod.name, [i.name for i in base.chain], [i.name for i in mod.chain])
    if base.name not in out.mod_chain:
        out.notes.append(f"`{mod.name}` does not extend `{base.name}`: this compares two separate rulesets")
    for info in mod.chain:
        if info.plugin and info.name not in out.base_chain:
            out.notes.append(f"`{info.name}` has a Python plugin (`{info.plugin}`): it may change the game "
                             f"beyond what its rules and data files show")
    for info in mod.chain:
        if info.name not in out.base_chain:
            out.house += house_rules(info)
    d = _Differ(base, mod, out)
    d.stats()
    d.tags()
    d.units()
    d.options()
    d.texts("table", "tables")
    d.texts("procedure", "procedures")
    d.texts("rule", "rules")
    d.turns()
    d.phases()
    d.texts("step", "steps")
    d.texts("sequence", "sequences")
    d.variables()
    d.scenarios()
    d.maps()
    d.data_files()
    return out


_SPACES = re.compile(r"\s+")
_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _same_text(a: str, b: str) -> bool:
    return _SPACES.sub(" ", _strip_override(a)).strip() == _SPACES.sub(" ", _strip_override(b)).strip()


def _strip_override(text: str) -> str:
    """A declaration's text without `override` (and `hook`, a procedure's marker: the code is
    what a diff compares)."""
    for word in ("override", "hook"):
        if re.match(rf"{word}\s", text):
            text = text[len(word):].lstrip()
    return text


def text_diff(old: str, new: str, old_name: str, new_name: str, old_line: int = 1, new_line: int = 1) -> str:
    """A unified diff of two declarations' texts (without `override`), its line numbers
    those of the files they are in."""
    lines = list(difflib.unified_diff(_strip_override(old).splitlines(), _strip_override(new).splitlines(),
                                      old_name, new_name, lineterm="", n=3))

    def shift(m: re.Match[str]) -> str:
        a, b = int(m.group(1)) + old_line - 1, int(m.group(3)) + new_line - 1
        return f"@@ -{a}{m.group(2) or ''} +{b}{m.group(4) or ''} @@"

    return "\n".join(_HUNK.sub(shift, ln) if ln.startswith("@@") else ln for ln in lines)


class _Differ:
    def __init__(self, base: LoadedRuleset, mod: LoadedRuleset, out: RulesDiff) -> None:
        self.base, self.mod, self.out = base, mod, out
        self.a, self.b = base.rules, mod.rules

    def add(self, section: str, name: str, change: str, details: Iterable[str] = (), **kw: Any) -> None:
        self.out.changes.append(Change(section, name, change, list(details), **kw))

    def at(self, pos: Pos) -> str:
        """Where the mod's chain writes something: `house.rules:12`, or with the layer's name
        when another layer than the mod itself wrote it (`ford: ford.rules:3`)."""
        info = layer_of(self.mod, pos)
        return where(self.mod, pos, with_layer=info is not None and info.name != self.mod.name)

    def where(self, kind: str, name: str) -> str:
        decl = self.b.declarations.get((kind, name))
        return self.at(decl.pos) if decl is not None else ""

    def changed_here(self, kind: str, name: str) -> str:
        """Where the mod writes it, if a layer the base does not have wrote it last."""
        decl = self.b.declarations.get((kind, name))
        if decl is None:
            return ""
        info = layer_of(self.mod, decl.pos)
        if info is not None and info.name in self.out.base_chain:
            return ""
        return self.at(decl.pos)

    # -- stats and tags -----------------------------------------------------------------------
    def stats(self) -> None:
        a, b = self.a.stats, self.b.stats
        for name in b:
            if name not in a:
                s = b[name]
                self.add("stats", name, "added", [f"{s.type} = {show(s.default)}" + (f' "{s.doc}"' if s.doc else "")],
                         where=self.where("stat", name), new=s.default)
        for name in a:
            if name not in b:
                self.add("stats", name, "removed", old=a[name].default)
                continue
            if name not in b:
                continue
            old, new = a[name], b[name]
            details = []
            if str(old.type) != str(new.type):
                details.append(f"type: {old.type} -> {new.type}")
            if old.default != new.default:
                details.append(f"default: {show(old.default)} -> {show(new.default)}")
            if old.doc != new.doc:
                details.append(f'doc: "{old.doc}" -> "{new.doc}"')
            if details:
                self.add("stats", name, "changed", details, where=self.changed_here("stat", name),
                         old=old.default, new=new.default)

    def tags(self) -> None:
        a = {n for k, n in self.a.declarations if k == "tag"}
        b = {n for k, n in self.b.declarations if k == "tag"}
        for name in sorted(b - a):
            self.add("tags", name, "added", [f"carried by: {', '.join(self._tagged(self.b, name)) or 'no unit'}"],
                     where=self.where("tag", name))
        for name in sorted(a - b):
            self.add("tags", name, "removed")

    @staticmethod
    def _tagged(rules: Any, tag: str) -> list[str]:
        return [u.name for u in rules.units.values() if tag in u.tags]

    # -- units --------------------------------------------------------------------------------
    def units(self) -> None:
        a, b = self.a.units, self.b.units
        for name, u in b.items():
            if name not in a:
                tags = f"[{', '.join(u.tag_list)}]" if u.tag_list else "no tags"
                own = [f"{k} {show(v)}" for k, v in u.stats.items()
                       if k not in self.b.stats or v != self.b.stats[k].default]
                self.add("units", name, "added", [tags + (": " + ", ".join(own) if own else "")],
                         where=self.where("unit", name), new={"tags": list(u.tag_list), "stats": _plain(u.stats)})
        for name, old in a.items():
            if name not in b:
                self.add("units", name, "removed", old={"tags": list(old.tag_list), "stats": _plain(old.stats)})
                continue
            new = b[name]
            details = []
            for stat, value in new.stats.items():
                if stat in old.stats and old.stats[stat] != value:
                    details.append(f"{stat}: {show(old.stats[stat])} -> {show(value)}")
                elif stat not in old.stats and stat in self.b.stats and value != self.b.stats[stat].default:
                    details.append(f"{stat}: {show(value)} (a new stat)")
            for stat in old.stats:
                if stat not in new.stats:
                    details.append(f"{stat}: {show(old.stats[stat])} -> (no such stat any more)")
            if old.tags != new.tags:
                plus = [f"+{t}" for t in sorted(new.tags - old.tags)]
                minus = [f"-{t}" for t in sorted(old.tags - new.tags)]
                details.append(f"tags: {' '.join(plus + minus)} (now [{', '.join(new.tag_list)}])")
            if details:
                self.add("units", name, "changed", details, where=self.changed_here("unit", name),
                         old={k: _plain(v) for k, v in old.stats.items() if new.stats.get(k) != v},
                         new={k: _plain(v) for k, v in new.stats.items() if old.stats.get(k) != v})

    # -- options ------------------------------------------------------------------------------
    def options(self) -> None:
        a, b = self.a.option_specs, self.b.option_specs
        for name, s in b.items():
            if name not in a:
                rng = f" in {s.bounds[0]}..{s.bounds[1]}" if s.bounds else ""
                self.add("options", name, "added", [f"{s.type}{rng} = {show(s.default)}" + (f' "{s.doc}"' if s.doc else "")],
                         where=self.where("option", name), new=s.default)
        for name, old in a.items():
            if name not in b:
                self.add("options", name, "removed", old=old.default)
                continue
            new = b[name]
            details = []
            if old.default != new.default:
                details.append(f"{show(old.default)} -> {show(new.default)}")
            if str(old.type) != str(new.type):
                details.append(f"type: {old.type} -> {new.type}")
            if old.bounds != new.bounds:
                details.append(f"range: {_range(old.bounds)} -> {_range(new.bounds)}")
            if old.doc != new.doc:
                details.append(f'doc: "{old.doc}" -> "{new.doc}"')
            for attr in ("status", "source"):      # how sure the default is, and where it comes from
                x, y = getattr(old, attr, ""), getattr(new, attr, "")
                if x != y:
                    details.append(f"{attr}: {_clip(x) if x else '(none)'} -> {_clip(y) if y else '(none)'}")
            if details:
                self.add("options", name, "changed", details, where=self.changed_here("option", name),
                         old=old.default, new=new.default)

    # -- declarations compared by their text ---------------------------------------------------
    def texts(self, kind: str, section: str) -> None:
        a = {n: d for (k, n), d in self.a.declarations.items() if k == kind}
        b = {n: d for (k, n), d in self.b.declarations.items() if k == kind}
        for name, d in b.items():
            if name not in a:
                self.add(section, name, "added", where=self.at(d.pos),
                         diff=text_diff("", d.text, "/dev/null", where(self.mod, d.pos, True), 1, d.pos.line))
        for name, old in a.items():
            if name not in b:
                self.add(section, name, "removed", where="",
                         diff=text_diff(old.text, "", where(self.base, old.pos, True), "/dev/null", old.pos.line, 1))
                continue
            new = b[name]
            if old.pos == new.pos or _same_text(old.text, new.text):
                continue
            self.add(section, name, "changed", where=self.at(new.pos),
                     diff=text_diff(old.text, new.text, where(self.base, old.pos, True), where(self.mod, new.pos, True),
                                    old.pos.line, new.pos.line))

    # -- the turn sequence --------------------------------------------------------------------
    def turns(self) -> None:
        a, b = self.a.sequence, self.b.sequence
        if a is None and b is None:
            return
        if a is None or b is None:
            self.add("turns", "sequence", "added" if a is None else "removed")
            return
        if a.turns != b.turns:
            self.add("turns", "turns", "changed", [f"{_turns(a.turns)} -> {_turns(b.turns)}"],
                     where=self.changed_here("turns", "turns"), old=a.turns, new=b.turns)
        if a.turn_names != b.turn_names:
            self.add("turns", "turn names", "changed", [f"{', '.join(a.turn_names) or '(none)'} -> "
                                                        f"{', '.join(b.turn_names) or '(none)'}"],
                     where=self.changed_here("turns", "turns"), old=list(a.turn_names), new=list(b.turn_names))
        if a.turn_word != b.turn_word:
            self.add("turns", "what a turn is called", "changed", [f"{a.turn_word} -> {b.turn_word}"],
                     where=self.changed_here("turns", "turns"), old=a.turn_word, new=b.turn_word)
        if a.mode != b.mode or a.powers != b.powers:
            self.add("turns", "powers", "changed", [f"{_powers(a.mode, a.powers)} -> {_powers(b.mode, b.powers)}"],
                     where=self.changed_here("powers", "powers"), old=list(a.powers), new=list(b.powers))
        if a.teams != b.teams or a.together != b.together:
            self.add("turns", "teams", "changed", [f"{_teams(a.teams, a.together)} -> {_teams(b.teams, b.together)}"],
                     where=self.changed_here("teams", "teams"), old=[list(t) for t in a.teams],
                     new=[list(t) for t in b.teams])

    def phases(self) -> None:
        a = {p.name: p for p in self.a.sequence.phases} if self.a.sequence else {}
        b = {p.name: p for p in self.b.sequence.phases} if self.b.sequence else {}
        order_b = list(b)
        for i, (name, ph) in enumerate(b.items()):
            if name not in a:
                place = f"after {order_b[i - 1]}" if i else "first"
                cond = _phase_condition(self.b.declarations.get(("phase", name)))
                self.add("phases", name, "added", [f"{place}, steps: {', '.join(ph.steps) or '(none)'}"
                                                   + (f", when {cond}" if cond else "")],
                         where=self.where("phase", name), new=list(ph.steps))
        for name, old in a.items():
            if name not in b:
                self.add("phases", name, "removed", [f"steps: {', '.join(old.steps) or '(none)'}"], old=list(old.steps))
                continue
            new = b[name]
            details = []
            if old.steps != new.steps:
                added = [s for s in new.steps if s not in old.steps]
                removed = [s for s in old.steps if s not in new.steps]
                words = ([f"added {', '.join(added)}"] if added else []) + ([f"removed {', '.join(removed)}"] if removed else [])
                details.append(f"steps: {', '.join(old.steps)} -> {', '.join(new.steps)}"
                               + (f" ({'; '.join(words)})" if words else " (reordered)"))
            ca = _phase_condition(self.a.declarations.get(("phase", name)))
            cb = _phase_condition(self.b.declarations.get(("phase", name)))
            if ca != cb:
                details.append(f"when: {ca or '(always)'} -> {cb or '(always)'}")
            if details:
                self.add("phases", name, "changed", details, where=self.changed_here("phase", name),
                         old=list(old.steps), new=list(new.steps))
        common_a = [n for n in a if n in b]
        common_b = [n for n in b if n in a]
        if common_a != common_b:
            self.add("phases", "order", "changed", [f"{', '.join(common_a)} -> {', '.join(common_b)}"],
                     old=list(a), new=list(b))

    def variables(self) -> None:
        a, b = self.a.vars, self.b.vars
        for name, v in b.items():
            if name not in a:
                reset = f" each {v.reset}" if v.reset else ""
                self.add("vars", name, "added", [f"{v.type} = {show(v.default)}{reset}" + (f' "{v.doc}"' if v.doc else "")],
                         where=self.where("var", name), new=v.default)
        for name, old in a.items():
            if name not in b:
                self.add("vars", name, "removed", old=old.default)
                continue
            new = b[name]
            details = []
            if str(old.type) != str(new.type):
                details.append(f"type: {old.type} -> {new.type}")
            if old.default != new.default:
                details.append(f"starts at: {show(old.default)} -> {show(new.default)}")
            if old.reset != new.reset:
                details.append(f"reset: {_reset(old.reset)} -> {_reset(new.reset)}")
            if details:
                self.add("vars", name, "changed", details, where=self.changed_here("var", name),
                         old=old.default, new=new.default)

    # -- scenarios, maps and data -------------------------------------------------------------
    def scenarios(self) -> None:
        a = {s.name: s for s in self.base.info.scenarios}
        b = {s.name: s for s in self.mod.info.scenarios}
        for name, s in b.items():
            if name not in a:
                details = [s.title] if s.title != name else []
                if s.fidelity != "exact":
                    details.append(f"fidelity: {s.fidelity}")
                details += _scenario_summary(s, self.mod.info.map_changes)
                self.add("scenarios", name, "added", details, where=_rel(self.mod, s.path))
        for name, old in a.items():
            if name not in b:
                self.add("scenarios", name, "removed", [old.title] if old.title != name else [])
                continue
            new = b[name]
            details = []
            for attr in ("title", "fidelity", "description"):
                x, y = getattr(old, attr), getattr(new, attr)
                if x != y:
                    details.append(f"{attr}: {_clip(x)} -> {_clip(y)}")
            if (old.path is None) != (new.path is None):
                details.append("set up by a scenario file now" if new.path else "set up by the ruleset's code now")
            elif old.path is not None and new.path is not None and old.path.resolve() != new.path.resolve():
                x, y = _json(old.path), _json(new.path)
                if isinstance(x, dict) and isinstance(y, dict):
                    details += _scenario_data_changes(x, y)
            if details:
                self.add("scenarios", name, "changed", details, where=_rel(self.mod, new.path))

    def maps(self) -> None:
        """The map each scenario both rulesets have is played on, as every layer's map
        changes leave it, space by space and link by link."""
        a = {s.name: s for s in self.base.info.scenarios}
        done: set[tuple[Any, ...]] = set()
        why = _reasons([f for f in self.mod.info.map_changes if f not in self.base.info.map_changes])
        for s in self.mod.info.scenarios:
            old = a.get(s.name)
            if old is None or old.path is None or s.path is None:
                continue
            ma, mb = _map_path(old.path), _map_path(s.path)
            if ma is None or mb is None:
                continue
            key = (ma, tuple(self.base.info.map_changes), mb, tuple(self.mod.info.map_changes))
            if key in done:
                continue
            done.add(key)
            x = _effective_map(ma, self.base.info.map_changes)
            y = _effective_map(mb, self.mod.info.map_changes)
            if x is None or y is None or x == y:
                continue
            name = mb.name if len(self.mod.info.scenarios) == 1 else f"{mb.name} (scenario {s.name})"
            changers = [_rel(self.mod, f) for f in self.mod.info.map_changes if f not in self.base.info.map_changes]
            self.add("map", name, "changed", _map_changes(x, y, why),
                     where=", ".join(changers) if changers else _rel(self.mod, mb))

    def data_files(self) -> None:
        """Other data files the mod's chain has and the base's does not, or has otherwise.
        Scenario files, maps and map changes are told of under scenarios and map."""
        told: set[Path] = {f.resolve() for rs in (self.base, self.mod) for f in rs.info.map_changes}
        for rs in (self.base, self.mod):
            for s in rs.info.scenarios:
                if s.path is not None:
                    told.add(s.path.resolve())
                    mp = _map_path(s.path)
                    if mp is not None:
                        told.add(mp)
        base_files = {f.resolve(): info for info in self.base.chain for f in info.data_files}
        twins = {(info.name, _rel_path(info, f)): f.resolve() for info in self.base.chain for f in info.data_files}
        mod_names = {(i.name, _rel_path(i, f)) for i in self.mod.chain for f in i.data_files}
        mod_files: set[Path] = set()
        for info in self.mod.chain:
            for f in info.data_files:
                full = f.resolve()
                if full in mod_files or full in base_files:
                    mod_files.add(full)
                    continue
                mod_files.add(full)
                if full in told:
                    continue
                rel = _rel_path(info, f)
                twin = twins.get((info.name, rel))
                if twin is not None:
                    if twin.read_bytes() != full.read_bytes():
                        self.add("data", f"{info.name}: {rel}", "changed", [_size_change(twin, full)])
                else:
                    self.add("data", f"{info.name}: {rel}", "added", [_file_summary(full)])
        for full, info in base_files.items():
            rel = _rel_path(info, full)
            if full not in mod_files and full not in told and (info.name, rel) not in mod_names:
                self.add("data", f"{info.name}: {rel}", "removed")


def _range(bounds: Any) -> str:
    return f"{bounds[0]}..{bounds[1]}" if bounds else "(any)"


def _turns(n: int | None) -> str:
    return "unlimited" if n is None else str(n)


def _powers(mode: str | None, powers: tuple[str, ...]) -> str:
    word = {"shared": "powers", "order": "turn order"}.get(mode or "", "powers")
    return f"{word} [{', '.join(powers)}]"


def _teams(teams: tuple[tuple[str, ...], ...], together: tuple[str, ...]) -> str:
    if not teams:
        return "no teams"
    return (f"teams [{', '.join('[' + ', '.join(t) + ']' for t in teams)}]"
            + (f" together [{', '.join(together)}]" if together else ""))


def _reset(reset: str | None) -> str:
    return f"each {reset}" if reset else "never"


def _clip(text: str, most: int = 80) -> str:
    text = " ".join(str(text).split())
    return json.dumps(text if len(text) <= most else text[:most - 3] + "...", ensure_ascii=False)


_WHEN = re.compile(r"\bwhen\b(.*?)\{", re.DOTALL)


def _phase_condition(decl: Any) -> str:
    if decl is None:
        return ""
    m = _WHEN.search(decl.text)
    return " ".join(m.group(1).split()) if m else ""


def _rel_path(info: RulesetInfo, path: Path) -> str:
    try:
        return path.resolve().relative_to(info.root.resolve()).as_posix()
    except (ValueError, OSError):
        return path.name


def _rel(rs: LoadedRuleset, path: Path | None) -> str:
    """A file as its ruleset's folder names it (`map.json`, `data/scenario.json`)."""
    if path is None:
        return ""
    for info in reversed(rs.chain):
        try:
            return path.resolve().relative_to(info.root.resolve()).as_posix()
        except (ValueError, OSError):
            continue
    return path.name


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


def _map_path(scenario_path: Path | None) -> Path | None:
    """The map file a scenario file names."""
    if scenario_path is None:
        return None
    data = _json(scenario_path)
    if not isinstance(data, dict):
        return None
    return (scenario_path.parent / str(data.get("map", "map.json"))).resolve()


def _effective_map(path: Path, changes: Iterable[Path]) -> dict[str, Any] | None:
    """A map file as the layers' map-changes files leave it (None if it cannot be read)."""
    from engine.mapfile import MapDataError, MapFile, apply_changes, read_changes, read_json

    try:
        m = MapFile.model_validate(read_json(path))
        for c in changes:
            m = apply_changes(m, read_changes(c), c.name)
    except (MapDataError, ValueError):
        return None
    return m.model_dump()


def _reasons(change_files: Iterable[Path]) -> dict[Any, str]:
    """What map-changes files say each change is for: by space id, and by link (a frozenset
    of its two ends; removed links under ("removed", ends))."""
    from engine.mapfile import MapDataError, read_changes

    out: dict[Any, str] = {}
    for f in change_files:
        try:
            c = read_changes(f)
        except (MapDataError, ValueError):
            continue
        for s in c.spaces:
            if s.why:
                out[s.id] = s.why
        for link in c.links:
            if link.why:
                out[frozenset((link.a, link.b))] = link.why
        for link in c.remove_links:
            if link.why:
                out[("removed", frozenset((link.a, link.b)))] = link.why
    return out


def _file_summary(path: Path) -> str:
    data = _json(path)
    if isinstance(data, dict) and str(data.get("format", "")).startswith("wargame-map/"):
        return _map_summary(data, path.name)
    if isinstance(data, dict) and str(data.get("format", "")).startswith("wargame-scenario/"):
        return f"a scenario, {len(data.get('pieces') or [])} piece entries"
    size = path.stat().st_size if path.is_file() else 0
    return f"{size:,} bytes"


def _size_change(old: Path, new: Path) -> str:
    return f"its content changed ({old.stat().st_size:,} -> {new.stat().st_size:,} bytes)"


def _map_summary(data: dict[str, Any], name: str) -> str:
    spaces = data.get("spaces") or []
    kinds = Counter(str(s.get("kind", "space")) for s in spaces if isinstance(s, dict))
    shown = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
    title = f" \"{data['name']}\"" if data.get("name") else ""
    return f"{name}{title}: {len(spaces)} spaces ({shown}), {len(data.get('links') or [])} links"


def _limit(lines: list[str]) -> list[str]:
    """A long list cut for the text view (the JSON keeps it whole)."""
    if len(lines) <= MAX_LINES + 5:
        return lines
    return lines[:MAX_LINES] + [f"... and {len(lines) - MAX_LINES} more (see --json)"]


def _because(why: dict[Any, str], key: Any) -> str:
    return f" ({why[key]})" if key in why else ""


def _map_changes(a: dict[str, Any], b: dict[str, Any], why: dict[Any, str] | None = None) -> list[str]:
    """One map against another, space by space and link by link, with the reason a
    map-changes file gives."""
    why = why or {}
    sa = {str(s.get("id")): s for s in a.get("spaces") or [] if isinstance(s, dict)}
    sb = {str(s.get("id")): s for s in b.get("spaces") or [] if isinstance(s, dict)}
    out: list[str] = []
    for key in ("name", "fidelity", "link_hexes"):
        if a.get(key) != b.get(key):
            out.append(f"{key}: {show(a.get(key))} -> {show(b.get(key))}")
    added = [k for k in sb if k not in sa]
    removed = [k for k in sa if k not in sb]
    if added:
        out.append(f"{len(added)} spaces added: {_names(added)}")
    if removed:
        out.append(f"{len(removed)} spaces removed: {_names(removed)}")
    la = {_link_key(x): x for x in a.get("links") or [] if isinstance(x, dict)}
    lb = {_link_key(x): x for x in b.get("links") or [] if isinstance(x, dict)}
    links: list[str] = []
    for pair in lb:
        if pair not in la:
            links.append(f"link added: {' - '.join(pair)}{_because(why, frozenset(pair))}")
    for pair in la:
        if pair not in lb:
            links.append(f"link removed: {' - '.join(pair)}{_because(why, ('removed', frozenset(pair)))}")
    for pair in la:
        if pair in lb and (la[pair].get("attrs") or {}) != (lb[pair].get("attrs") or {}):
            links.append(f"link {' - '.join(pair)}: "
                         f"{_attr_changes(la[pair].get('attrs') or {}, lb[pair].get('attrs') or {})}"
                         f"{_because(why, frozenset(pair))}")
    changed: list[str] = []
    for k in sa:
        if k not in sb:
            continue
        x, y = sa[k], sb[k]
        what = []
        for field_ in ("name", "kind", "hex"):
            if x.get(field_) != y.get(field_):
                what.append(f"{field_} {show(x.get(field_))} -> {show(y.get(field_))}")
        if (x.get("attrs") or {}) != (y.get("attrs") or {}):
            what.append(_attr_changes(x.get("attrs") or {}, y.get("attrs") or {}))
        if x.get("shape") != y.get("shape") or x.get("label_at") != y.get("label_at"):
            what.append("drawn differently")
        if what:
            changed.append(f"{k}: {', '.join(what)}{_because(why, k)}")
    out += links + changed
    if a.get("layout") != b.get("layout"):
        out.append("layout (how it is drawn) changed")
    return out or ["the same map, written differently"]


def _attr_changes(x: dict[str, Any], y: dict[str, Any]) -> str:
    return ", ".join(f"{k} {show(x[k]) if k in x else '(none)'} -> {show(y[k]) if k in y else '(none)'}"
                     for k in dict.fromkeys([*x, *y]) if x.get(k) != y.get(k) or (k in x) != (k in y))


def _link_key(link: dict[str, Any]) -> tuple[str, str]:
    a, b = str(link.get("a")), str(link.get("b"))
    return (a, b) if a <= b else (b, a)


def _names(items: Iterable[str], most: int = 8) -> str:
    items = list(items)
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def _pieces(data: dict[str, Any]) -> Counter[str]:
    c: Counter[str] = Counter()
    for p in data.get("pieces") or []:
        if isinstance(p, dict):
            c[f"{p.get('owner')} {p.get('kind')}"] += int(p.get("count", 1) or 1)
    return c


def _scenario_summary(s: ScenarioInfo, changes: Iterable[Path]) -> list[str]:
    if s.path is None:
        return []
    data = _json(s.path)
    if not isinstance(data, dict):
        return []
    out = []
    mp = _map_path(s.path)
    m = _effective_map(mp, changes) if mp is not None else None
    if mp is not None:
        out.append("map: " + (_map_summary(m, mp.name) if m is not None else mp.name))
    pieces = _pieces(data)
    out.append(f"pieces: {sum(pieces.values())}" + (f" ({_names((f'{n} {k}' for k, n in pieces.most_common()), 6)})"
                                                     if pieces else ""))
    return out


def _scenario_data_changes(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """One scenario file against another: start, pieces, control, resources, variables."""
    out = []
    ta, tb = (a.get("start") or {}).get("turn", 1), (b.get("start") or {}).get("turn", 1)
    if ta != tb:
        out.append(f"starts on turn {ta} -> {tb}")
    pa, pb = _pieces(a), _pieces(b)
    for k in dict.fromkeys([*pa, *pb]):
        if pa[k] != pb[k]:
            out.append(f"pieces: {k} {pa[k]} -> {pb[k]}")

    def placed(d: dict[str, Any]) -> Counter[tuple[str, str, str]]:
        c: Counter[tuple[str, str, str]] = Counter()
        for p in d.get("pieces") or []:
            if isinstance(p, dict):
                c[(str(p.get("owner")), str(p.get("kind")), str(p.get("space")))] += int(p.get("count", 1) or 1)
        return c

    if pa == pb and placed(a) != placed(b):
        moved = sum((placed(a) - placed(b)).values())
        out.append(f"pieces: the same, {moved} set up elsewhere")
    ca, cb = a.get("control") or {}, b.get("control") or {}
    flips = [k for k in dict.fromkeys([*ca, *cb]) if ca.get(k) != cb.get(k)]
    if flips:
        out.append(f"control: {len(flips)} spaces start with another side ({_names(flips)})")
    ra, rb = a.get("resources") or {}, b.get("resources") or {}
    for who in dict.fromkeys([*ra, *rb]):
        for res in dict.fromkeys([*(ra.get(who) or {}), *(rb.get(who) or {})]):
            x, y = (ra.get(who) or {}).get(res, 0), (rb.get(who) or {}).get(res, 0)
            if x != y:
                out.append(f"resources: {who} {res} {x} -> {y}")
    if (a.get("vars") or {}) != (b.get("vars") or {}):
        out.append(f"game variables set: {show(a.get('vars') or {})} -> {show(b.get('vars') or {})}")
    if a.get("map", "map.json") != b.get("map", "map.json"):
        out.append(f"map file: {a.get('map', 'map.json')} -> {b.get('map', 'map.json')}")
    return out
