"""The `wargame` command: list rulesets, show a scenario's facts, check rules files, play,
and replay saved games.

Every error reaches the player as one `wargame: ...` message (or the rules compiler's
`file:line:col` block), never a Python traceback; `--debug` shows the traceback as well."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import dsl
from clients import odds_cli
from clients.printable import Escaping, printable, shortened
from clients.seats import SeatError
from clients.simulate import SimulateError
from clients.simulate.games import ENDLESS_TURNS
from dsl.runtime import whole_number
from engine import plugins, save
from engine.actions import IllegalAction
from engine.game import Game, ScenarioError
from engine.mapfile import MapDataError
from engine.scenario import ScenarioDataError

#: what `main` returns when its output was closed (`wargame info bulge | head -1`): 128 + SIGPIPE
EXIT_PIPE = 141
OUT_OF_MEMORY = "out of memory"


class OptionError(ValueError):
    pass


class PlayError(Exception):
    """A game that could not go on: the rules failed, or a computer player broke them."""


#: errors whose message is written for the player as it is (a data file's mistakes are the
#: modder's, said with the file and the entry: never "a bug in wargame")
_CLEAN: tuple[type[BaseException], ...] = (
    plugins.RulesetNotFound, plugins.ManifestError, plugins.UntrustedCode, save.SaveError, ScenarioError,
    OptionError, SeatError, PlayError, SimulateError, ScenarioDataError, MapDataError)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # --help, or a bad command line (already said)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    dsl.set_limits(steps=args.rules_budget, items=args.rules_max_items)
    streams = sys.stdout, sys.stderr
    if sys.stdout is not None and sys.stderr is not None:      # (None under pythonw)
        sys.stdout, sys.stderr = Escaping(sys.stdout), Escaping(sys.stderr)   # type: ignore[assignment]
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()           # a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except KeyboardInterrupt:
        _say("\nwargame: interrupted")
        return 130
    except Exception as e:
        if args.debug:
            traceback.print_exception(e)
        _say(error_message(e))
        return 1
    finally:
        sys.stdout, sys.stderr = streams


def error_message(e: BaseException) -> str:
    """What the player reads for an error: one `wargame: ...` message (or the rules'
    diagnostics), never a traceback."""
    if isinstance(e, dsl.RulesError):
        if any(d.pos.line for d in e.diagnostics):
            return str(e)            # the compiler's file:line:col blocks
        # no place in a file (an --option value): one wargame: line each, values cut short
        return "\n".join("wargame: " + "\n".join(_clip(line) for line in d.render().splitlines())
                         for d in e.diagnostics)
    if isinstance(e, dsl.RulesRuntimeError):
        return f"wargame: error in the rules: {e}"
    if isinstance(e, IllegalAction):
        return f"wargame: refused: {e.reason}"
    if isinstance(e, OSError) and e.strerror:      # from the system: a file, a disk, a pipe
        where = f"{e.filename}: " if e.filename else ""
        return f"wargame: {where}{e.strerror}"
    if isinstance(e, _CLEAN + (OSError,)) or (isinstance(e, LookupError) and not isinstance(e, KeyError | IndexError)):
        return f"wargame: {e}"
    if isinstance(e, MemoryError):
        return f"wargame: {OUT_OF_MEMORY}"
    if isinstance(e, RecursionError):
        return "wargame: internal error: nested too deeply (run with --debug for the traceback)"
    return (f"wargame: internal error: {type(e).__name__}: {_clip(str(e))}\n"
            f"(a bug in wargame or in a ruleset; `wargame --debug ...` shows where)")


def _clip(text: str, most: int = 300) -> str:
    """A message cut to `most` characters, a long `quoted` value (an echoed option) first.

    Backticks pair from the left, so the words between two quoted values (a path, a
    sentence) are never taken for a value."""
    parts = text.split("`")
    for i in range(1, len(parts) - 1, 2):  # the odd parts are quoted; an unpaired backtick quotes nothing
        if len(parts[i]) >= 80:
            parts[i], parts[i + 1] = f"{parts[i][:40]}...", f" ({len(parts[i]):,} characters){parts[i + 1]}"
    text = "`".join(parts)
    return text if len(text) <= most else text[:most - 3] + "..."


def _say(text: str) -> None:
    """An error message on stderr: control characters escaped, long values shortened."""
    try:
        print(printable(shortened(text)), file=sys.stderr)
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """Point stdout at the null device so that Python's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors said as `wargame: ...`."""

    def error(self, message: str) -> NoReturn:
        _say(f"wargame: {message} (see `{self.prog} --help`)")
        raise SystemExit(2)


def _seed(text: str) -> int:
    try:
        value = whole_number(text) if len(text) <= 30 else -1
    except ValueError:
        value = -1
    if not 0 <= value <= save.MAX_SEED:
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {save.MAX_SEED}, not `{shown}`")
    return value


def _limit(flag: str) -> Any:
    def parse(text: str) -> int:
        try:
            value = whole_number(text) if len(text) <= 30 else 0
        except ValueError:
            value = 0
        if not 1 <= value <= 1 << 62:
            shown = text if len(text) <= 30 else text[:27] + "..."
            raise argparse.ArgumentTypeError(f"{flag} wants a whole number of at least 1, not `{shown}`")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="wargame", description="Play turn-based board wargames from ruleset plugins.")
    p.add_argument("--mod", action="append", default=[], metavar="FOLDER",
                   help="also load the mod (rules folder with ruleset.json) in FOLDER")
    p.add_argument("--trust-code", action="store_true",
                   help="run the Python plugin a --mod folder may contain (never run otherwise)")
    p.add_argument("--debug", action="store_true", help="show the Python traceback of an error")
    p.add_argument("--rules-budget", type=_limit("--rules-budget"), default=dsl.DEFAULT_STEPS, metavar="STEPS",
                   help=f"the steps one call into the rules may take (default {dsl.DEFAULT_STEPS:,}); rules that "
                        "take more are stopped, so that no mod can hang a game")
    p.add_argument("--rules-max-items", type=_limit("--rules-max-items"), default=dsl.DEFAULT_ITEMS, metavar="N",
                   help=f"the longest list or map (items) and string (characters) rules may build "
                        f"(default {dsl.DEFAULT_ITEMS:,})")
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("rulesets", help="list the installed rulesets and their scenarios")
    s.set_defaults(func=cmd_rulesets)

    s = sub.add_parser("info", help="a scenario's facts: spaces, towns, pieces, resources, options")
    s.add_argument("ruleset")
    s.add_argument("--scenario")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--units", action="store_true",
                   help="the units instead: each with its tags and stats (and each stat's doc), from the rules")
    s.set_defaults(func=cmd_info)

    s = sub.add_parser("check", help="check a ruleset or mod folder, or one rules file")
    s.add_argument("path")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("rules", help="look at rulesets' rules: `rules diff BASE MOD`, `rules hooks RULESET`")
    rules_sub = s.add_subparsers(dest="rules_command", metavar="{diff,hooks}")
    s.set_defaults(func=lambda args, rules=s: _missing_subcommand(rules))
    d = rules_sub.add_parser("diff", help="what a mod changes against its base, in a player's words",
                             description="What MOD changes against BASE: stats, tags, units, options, tables, "
                                         "procedures, rules, phases, steps, scenarios and maps. BASE is a ruleset's "
                                         "name or a folder; MOD a mod folder, or the name of one given with --mod.")
    d.add_argument("diff_base", metavar="BASE")
    d.add_argument("diff_mod", metavar="MOD")
    d.add_argument("--json", action="store_true", help="print JSON")
    d.add_argument("--full", action="store_true",
                   help="every change with its rules text (a long diff otherwise shows a one-screen summary)")
    d.set_defaults(func=cmd_rules_diff)
    h = rules_sub.add_parser("hooks", help="the procedures a ruleset means layers to override, with their docs",
                             description="The procedures RULESET (or its bases) marks `hook procedure`: those a "
                                         "layer is meant to override, each with its signature, its doc, where it "
                                         "is declared and which layers override it.")
    h.add_argument("hooks_ruleset", metavar="RULESET")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.set_defaults(func=cmd_rules_hooks)

    s = sub.add_parser("play", help="play a game")
    s.add_argument("ruleset", nargs="?", default=None,
                   help="what to play (with none, the window opens on its new-game screen; the terminal plays bulge)")
    s.add_argument("--scenario")
    s.add_argument("--ai", action="append", default=[], metavar="SIDE[=PLAYER]",
                   help="the computer plays SIDE (or 'all'); PLAYER picks which computer player "
                        "(random, search or search:SECONDS a decision, or the ruleset's own)")
    s.add_argument("--hotseat", action="store_true", help="people play every side (no computer player)")
    s.add_argument("--seed", type=_seed, default=None)
    s.add_argument("--save", metavar="FILE", help="save the game to FILE after every action and at the end")
    s.add_argument("--load", metavar="FILE", help="go on with a saved game (give its mods with --mod)")
    s.add_argument("--no-gui", action="store_true", help="play in the terminal even when a display is available")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    s.add_argument("--quiet", action="store_true", help="with every side played by the computer: print only the result")
    s.add_argument("--max-turns", type=_limit("--max-turns"), default=None, metavar="N",
                   help="stop after N turns (rounds) and print the standing")
    s.add_argument("--screenshot", metavar="FILE.png", help="draw the opening position (the window's view) to FILE.png and exit")
    s.add_argument("--log", action="store_true",
                   help="print the game's log in players' words when the game ends (or stops)")
    s.set_defaults(func=cmd_play)

    odds_cli.add_parser(sub, _seed)

    s = sub.add_parser("simulate", help="many computer games of a ruleset (against another): win rates with 95%% intervals",
                       description="Play many games of RULESET between computer players and report the wins per "
                                   "side with their 95% intervals, the games' length and the rules' measures per "
                                   "turn; with --against (or --against-option), the same seeds under other rules "
                                   "and the difference in win rate.")
    s.add_argument("ruleset", help="a ruleset's name or a mod folder")
    s.add_argument("--games", type=_limit("--games"), required=True, metavar="N", help="games for each rule set")
    s.add_argument("--scenario")
    s.add_argument("--ai", action="append", default=[], metavar="SIDE=PLAYER",
                   help="the computer player of SIDE (or all); every side plays the ruleset's own by default")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="an option of the rules tried")
    s.add_argument("--against", metavar="BASE", help="also play the same seeds under BASE (a ruleset or mod folder)")
    s.add_argument("--against-option", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of the rules compared against (alone: RULESET with these options)")
    s.add_argument("--seed", type=_seed, default=0, help="game i plays seed SEED + i (default 0)")
    s.add_argument("--max-turns", type=_limit("--max-turns"), default=None, metavar="N",
                   help=f"stop a game after turn N (default: the rules' last turn; {ENDLESS_TURNS} for rules with none)")
    s.add_argument("--workers", type=_limit("--workers"), default=None, metavar="N",
                   help="processes playing games (default: every core)")
    s.add_argument("--cluster", metavar="tcp://HOST:PORT", help="play the games on this Dask scheduler's workers")
    s.add_argument("--out", metavar="FILE", help="write each game to FILE as one JSON line as it ends")
    s.add_argument("--resume", action="store_true", help="go on from --out FILE, playing only the games it lacks")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--plot", metavar="FILE.png", help="draw the win rates and the measures per turn to FILE.png")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("replay", help="replay a saved game and report whether it reproduces the saved state")
    s.add_argument("save")
    s.add_argument("--log", action="store_true", help="print the game's log in players' words")
    s.add_argument("--history", nargs="?", const=0, type=_limit("--history"), default=None, metavar="TURN",
                   help="print the game action by action (who played what, what it caused, where the game "
                        "stood), from the start of TURN if given")
    s.add_argument("--watch", action="store_true",
                   help="step through the game forwards and backwards, in a window (or the terminal)")
    s.add_argument("--no-gui", action="store_true", help="with --watch: in the terminal even when a display is available")
    s.set_defaults(func=cmd_replay)
    return p


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """`--option NAME=VALUE`s as name -> text. Texts over 10,000 characters are refused
    here; the values' types, bounds and sizes are checked once the rules are loaded."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            shown = item if len(item) <= 60 else item[:57] + "..."
            raise OptionError(f"--option wants NAME=VALUE, not `{shown}`")
        if len(value) > plugins.MAX_OPTION_ITEMS:
            raise OptionError(f"--option {name.strip()}: a value of {len(value):,} characters is over the "
                              f"limit of {plugins.MAX_OPTION_ITEMS:,}")
        out[name.strip()] = value.strip()
    return out


def load_ruleset(args: argparse.Namespace, name: str) -> Any:
    """The ruleset `name` with the command line's mods, trust and options, every option
    value checked against its bounds and for absurd sizes."""
    options = parse_options(args.option)
    rs = plugins.load(name, options, args.mod, trust_code=args.trust_code)
    problems = plugins.option_problems(rs, options)
    if problems:
        raise OptionError("--" + "\n--".join(problems))
    return rs


# -- rulesets / info / check ------------------------------------------------------------------
def cmd_rulesets(args: argparse.Namespace) -> int:
    found = plugins.discover(args.mod, args.trust_code)
    if not found:
        print("no rulesets installed")
        return 1
    for name, (plugin, info) in sorted(found.items()):
        base = f" (extends {info.extends})" if info.extends else ""
        code = ""
        if isinstance(plugin, plugins.FolderRuleset) and plugin.has_code and not plugin.trusted:
            code = f" [contains Python: playing it needs {plugins.TRUST_HINT}]"
        print(f"{name}{base}: {info.title}{code}")
        scenarios = info.scenarios
        try:
            if info.extends:
                scenarios = plugins.inherited_info(plugins.chain_of(name, found)).scenarios
        except (plugins.ManifestError, plugins.RulesetNotFound):
            pass            # a broken chain shows when the mod is loaded or checked
        for s in scenarios:
            fid = f" [fidelity: {s.fidelity}]" if s.fidelity != "exact" else ""
            print(f"    {s.name}: {s.title}{fid}")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from engine.rules_diff import option_origin

    rs = load_ruleset(args, args.ruleset)
    if args.units:
        return _units_info(rs, args.json)
    given = parse_options(args.option)
    scenario = rs.info.scenario(args.scenario)
    rs = rs.for_scenario(scenario.name)
    state = rs.logic.new_state(scenario.name, 0)
    options: dict[str, Any] = {}
    for name, spec in rs.rules.option_specs.items():
        origin = option_origin(rs, name)
        options[name] = {"value": rs.options[name], "default": spec.default, "type": str(spec.type), "doc": spec.doc,
                         **_provenance(spec), "base_default": origin["base_default"],
                         "declared_by": origin["declared_by"], "set_by": origin["set_by"]}
        if name in given:
            options[name]["value_from"] = "--option"
        if len(origin["layers"]) > 1:
            options[name]["layers"] = origin["layers"]
    facts: dict[str, Any] = {
        "ruleset": rs.name,
        "title": rs.info.title,
        "scenario": scenario.name,
        "scenario_title": scenario.title,
        "fidelity": scenario.fidelity,
        "options": options,
    }
    if rs.structure.per_power and rs.structure.powers:
        # as the options given make it (a layer's `turn order` may read an option)
        facts["turn_order"] = list(rs.structure.powers)
        teams = dict.fromkeys(rs.structure.powers[a:b + 1] for a, b in rs.structure.spans if b > a)
        if teams:
            # the powers who play as a team (`teams`), and the phases a team plays together
            facts["teams"] = [" and ".join(t) for t in teams]
            facts["played_together"] = list(rs.structure.together)
    facts.update(rs.logic.facts(state))
    if rs.info.extends:              # a layer: the house rules it adds, in its own README's words
        from engine.layer_docs import house_rules

        facts["house_rules"] = house_rules(rs.info) or [f"(no table of files in {rs.name}'s README.md: "
                                                         f"`wargame rules diff {rs.info.extends} {rs.name}` "
                                                         "lists what it changes)"]
    if args.json:
        print(json.dumps(facts, indent=1, ensure_ascii=False, default=str))
    else:
        print(_facts_text(facts))
    return 0


def _units_info(rs: Any, as_json: bool) -> int:
    """`info RULESET --units`: the stats (type, default, doc) and every unit with its tags and
    its stats, as the rules (with the options given) make them, and the layer that declares it."""
    from engine.rules_diff import _plain, layer_of, show, where

    rules = rs.rules
    stats = {name: {"type": str(spec.type), "default": _plain(spec.default), "doc": spec.doc}
             for name, spec in rules.stats.items()}
    units: dict[str, Any] = {}
    for name, u in rules.units.items():
        decl = rules.declarations.get(("unit", name))
        entry: dict[str, Any] = {"tags": list(u.tag_list), "stats": _plain(u.stats)}
        if decl is not None:
            first = layer_of(rs, decl.layers[0])
            entry["declared_by"] = first.name if first else decl.layers[0].file
            entry["where"] = where(rs, decl.layers[0])
            entry["changed_by"] = [where(rs, p, with_layer=True) for p in decl.layers[1:]]
        units[name] = entry
    if as_json:
        print(json.dumps({"ruleset": rs.name, "stats": stats, "units": units}, indent=1, ensure_ascii=False))
        return 0
    print(f"{rs.name}: {len(units)} unit{'s' if len(units) != 1 else ''}")
    print("stats:")
    for name, st in stats.items():
        print(f"  {name}: {st['type']} = {show(st['default'])}" + (f": {st['doc']}" if st["doc"] else ""))
    print("units:")
    for name, entry in units.items():
        tags = f" [{', '.join(entry['tags'])}]" if entry["tags"] else ""
        place = f" ({entry['declared_by']}: {entry['where']}" if "where" in entry else ""
        if place and entry["changed_by"]:
            place += f"; changed by {', '.join(entry['changed_by'])}"
        print(f"  {name}{tags}{place + ')' if place else ''}")
        print(textwrap.fill(", ".join(f"{k} {show(v)}" for k, v in entry["stats"].items()), 100,
                            initial_indent="      ", subsequent_indent="      "))
    return 0


def _options_text(options: dict[str, Any], indent: str) -> list[str]:
    """`name: type = value (who set it; the base's default): doc`, one option a line."""
    from engine.rules_diff import show

    lines = []
    for name, o in options.items():
        value = show(o["value"])
        if o.get("value_from"):
            where = f"{o['value_from']}; default {show(o['default'])} set by {o['set_by']}"
        elif o["set_by"] != o["declared_by"]:
            where = f"set by {o['set_by']}"
        else:
            where = o["set_by"]
        if o["set_by"] != o["declared_by"] or (o.get("value_from") and o["default"] != o["base_default"]):
            where += f"; {o['declared_by']}'s default: {show(o['base_default'])}"
        sure = ", ".join(f"{k}: {o[k]}" for k in ("status", "source") if o.get(k))
        lines.append(f"{indent}{name}: {o['type']} = {value} ({where})" + (f" [{sure}]" if sure else "")
                     + (f": {o['doc']}" if o.get("doc") else ""))
    return lines


def _provenance(spec: Any) -> dict[str, str]:
    """How sure an option's default is and where it comes from, where the rules say."""
    return {k: v for k, v in (("status", spec.status), ("source", spec.source)) if v}


def _facts_text(facts: dict[str, Any], indent: str = "") -> str:
    lines = []
    for k, v in facts.items():
        if k == "options" and not indent and isinstance(v, dict) and all(
                isinstance(o, dict) and "set_by" in o for o in v.values()):
            lines.append("options:" if v else "options: none")
            lines += _options_text(v, "  ")
        elif isinstance(v, dict) and v and all(not isinstance(x, (dict, list)) for x in v.values()) and len(v) <= 12:
            lines.append(f"{indent}{k}: " + ", ".join(f"{a}={b}" for a, b in v.items()))
        elif isinstance(v, dict):
            lines.append(f"{indent}{k}:")
            lines.append(_facts_text(v, indent + "  "))
        elif isinstance(v, list):
            if len(v) > 20:
                lines.append(f"{indent}{k}: {len(v)} entries (see --json)")
            else:
                lines.append(f"{indent}{k}:")
                for x in v:
                    lines.append(f"{indent}  - {x if not isinstance(x, dict) else ', '.join(f'{a}={b}' for a, b in x.items())}")
        else:
            lines.append(f"{indent}{k}: {v}")
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    diagnostics = plugins.check(args.path, args.mod, trust_code=args.trust_code)
    text, errors = render_diagnostics(diagnostics)
    if text:
        print(text)
    if errors:
        print(f"{errors} error{'s' if errors != 1 else ''}", file=sys.stderr)
        return 1
    print(f"{args.path}: ok")
    return 0


def render_diagnostics(diagnostics: Sequence[Any]) -> tuple[str, int]:
    """What `wargame check` prints of its diagnostics (file:line:col, the line, a caret, a
    hint; notes as `note: ...`), and how many are errors."""
    sources = _sources(diagnostics)
    text = "\n".join(f"note: {d.message}" if d.severity == "note" else d.render(sources) for d in diagnostics)
    return shortened(text), sum(1 for d in diagnostics if d.severity == "error")


def _sources(diagnostics: Sequence[Any]) -> dict[str, str]:
    """The text of each file a diagnostic points into, so it can show the line and a caret."""
    out: dict[str, str] = {}
    for d in diagnostics:
        path = Path(d.pos.file)
        if d.pos.file not in out and d.pos.line and path.is_file():
            out[d.pos.file] = path.read_text(encoding="utf-8", errors="replace")
    return out


def _missing_subcommand(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def cmd_rules_diff(args: argparse.Namespace) -> int:
    from engine import rules_diff

    d = rules_diff.diff_rulesets(args.diff_base, args.diff_mod, args.mod, trust_code=args.trust_code)
    if args.json:
        print(json.dumps(d.to_json(), indent=1, ensure_ascii=False, default=str))
    else:
        full = d.render()
        print(full if args.full or full.count("\n") < rules_diff.SCREEN_LINES else
              d.render_summary(f"wargame rules diff {args.diff_base} {args.diff_mod} --full"))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from clients.simulate.command import cmd_simulate as simulate

    return simulate(args)


def cmd_rules_hooks(args: argparse.Namespace) -> int:
    from engine.rules_diff import layer_of, where

    name = args.hooks_ruleset
    paths = list(args.mod) + ([Path(name)] if Path(name).is_dir() else [])
    rs = plugins.load(name, paths=paths, trust_code=args.trust_code)
    hooks = []
    for (kind, _name), d in sorted(rs.rules.declarations.items()):
        if kind != "procedure" or not d.hook:
            continue
        first = layer_of(rs, d.layers[0])
        hooks.append({"name": d.name, "signature": d.signature, "doc": d.doc,
                      "declared_by": first.name if first else d.layers[0].file, "where": where(rs, d.layers[0]),
                      "overridden_by": [where(rs, p, with_layer=True) for p in d.layers[1:]]})
    if args.json:
        print(json.dumps({"ruleset": rs.name, "hooks": hooks}, indent=1, ensure_ascii=False))
        return 0
    if not hooks:
        print(f"{rs.name}: no procedure is marked `hook procedure` (see docs/rules-language.md, §2 Layers)")
        return 0
    print(f"{rs.name}: {len(hooks)} procedure{'s' if len(hooks) != 1 else ''} meant to be overridden "
          f"(`override procedure NAME(...)`; `base(...)` calls the one replaced)")
    for h in hooks:
        over = f"; overridden by {', '.join(h['overridden_by'])}" if h["overridden_by"] else ""
        print(f"  {h['signature']}  [{h['declared_by']}: {h['where']}{over}]")
        if h["doc"]:
            print(textwrap.fill(h["doc"], 100, initial_indent="      ", subsequent_indent="      "))
    return 0


def _print_log(game: Game, events: Sequence[Any]) -> None:
    """The events in players' words, one a line (see clients.game_log)."""
    from clients.game_log import log_lines

    for line in log_lines(game, events):
        print(f"  {line}")


def cmd_replay(args: argparse.Namespace) -> int:
    if args.watch or args.history is not None:
        return _watch(args)
    report = save.replay(args.save, args.mod, trust_code=args.trust_code)
    n = len(report.game.actions)
    if args.log:
        _print_log(report.game, report.game.log)
    if not report.fingerprint_ok:
        print("note: the save was made with a different version of the rules")
    if report.matches:
        print(f"{args.save}: replayed {n} actions; the state matches the save exactly")
        r = report.game.result
        if r:
            print(f"result: {_result_text(r)}")
        return 0
    print(f"{args.save}: replayed {n} actions; the state DIFFERS from the save:")
    for d in report.differences:
        print(f"  {d}")
    return 1


def _watch(args: argparse.Namespace) -> int:
    """`replay --history [TURN]` prints the game action by action; `replay --watch` steps
    through it, in a window where there is a display, else in the terminal."""
    from clients import history

    h = history.from_save(args.save, args.mod, trust_code=args.trust_code)
    turns = h.turns()
    turn = args.history or 0
    if turn and turn > turns[-1]:
        raise OptionError(f"--history {turn}: the game has turns {turns[0]} to {turns[-1]}")
    if not args.watch:
        for line in history.text(h, turn):
            print(line)
        return 0
    start = h.turn_start(turn) if turn else 0
    if not args.no_gui and has_display():
        try:
            from clients.gui_replay import watch_window
        except ImportError as e:   # pyglet or its system libraries missing: the terminal
            print(f"(no window: {e}; watching in the terminal)", file=sys.stderr)
        else:
            return watch_window(h, start)

    def read(prompt: str) -> str:
        return input(prompt)

    return history.watch(h, read, print, start)


# -- play -----------------------------------------------------------------------------------------
def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")


def cmd_play(args: argparse.Namespace) -> int:
    from clients import seats
    from clients.launch import Launcher

    launcher = Launcher(args.mod, args.trust_code)
    if not args.load and args.ruleset is None:
        launcher.save_path = args.save        # the game started on the new-game screen saves there
        said = args.scenario or args.ai or args.hotseat or args.option or args.seed is not None
        if not said and (args.screenshot or (not args.no_gui and has_display())):
            try:
                from clients.gui import play_window, save_screenshot
            except ImportError as e:   # pyglet or its system libraries missing: bulge in the terminal
                print(f"(no window: {e}; playing in the terminal)", file=sys.stderr)
            else:
                if args.screenshot:
                    return save_screenshot(None, None, args.screenshot, launcher=launcher)
                return play_window(None, None, None, launcher)
        args.ruleset = "bulge"
    if args.load:
        if args.option:
            raise OptionError("--option does not go with --load: a saved game keeps the options it was played with")
        game = save.load(args.load, args.mod, trust_code=args.trust_code)
        rs = game.ruleset
    else:
        rs = load_ruleset(args, args.ruleset)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
        game = new_game(rs, args.scenario, seed)
    computer = seats.assign(rs, args.ai, hotseat=args.hotseat, seed=game.seed)
    saver = (lambda g: save.save(g, args.save)) if args.save else None
    humans = [s for s in seats.sides(rs) if s not in computer]
    if args.screenshot:
        from clients.gui import save_screenshot

        return save_screenshot(game, computer, args.screenshot)
    try:
        if not humans:
            return run_unattended(game, computer, saver, quiet=args.quiet, max_turns=args.max_turns, log=args.log)
        if not args.no_gui and has_display():
            try:
                from clients.gui import play_window
            except ImportError as e:   # pyglet or its system libraries missing: fall back
                print(f"(no window: {e}; playing in the terminal)", file=sys.stderr)
            else:
                return _logged(args, game, play_window(game, computer, saver, launcher))
        from clients.terminal import play_terminal

        return _logged(args, game, play_terminal(game, computer, saver))
    except (PlayError, OSError, KeyboardInterrupt, MemoryError):
        raise
    except Exception as e:
        if args.log:         # (what happened up to the error)
            _print_log(game, game.log)
        kept = "" if not saver else ("the save file keeps the game up to the last action that worked"
                                      if humans else "nothing was saved")
        raise PlayError(_stopped(game, e, kept)) from e


def _logged(args: argparse.Namespace, game: Game, code: int) -> int:
    """With --log, the whole log of a game people played, once it is over (or left)."""
    if args.log:
        print("the game's log:")
        _print_log(game, game.log)
    return code


def new_game(rs: Any, scenario: str | None, seed: int) -> Game:
    """A new game; a scenario that cannot be set up (with these options) is a PlayError."""
    try:
        return Game(rs, scenario, seed)
    except (ScenarioError, LookupError):
        raise
    except ValueError as e:
        changed = save._changed_options(rs)
        note = (" (options changed: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items()) + ")"
                if changed else "")
        name = scenario or rs.info.default_scenario
        raise PlayError(f"the scenario `{name}` cannot be set up: {_clip(str(e))}{note}") from e


def _stopped(game: Game, e: Exception, kept: str = "") -> str:
    """Why a game stopped, where, and what became of its save."""
    try:
        where = game.ruleset.structure.where(game.state)
    except Exception:
        where = f"turn {game.state.turn}"
    if isinstance(e, dsl.RulesRuntimeError):
        why = f"error in the rules: {e}"
    elif isinstance(e, IllegalAction):
        why = f"refused: {e.reason}"
    else:
        text = _clip(str(e))
        why = f"{type(e).__name__}: {text}" if not isinstance(e, ValueError | LookupError) else text
    changed = save._changed_options(game.ruleset)
    note = ("; options changed for this game: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items())
            if changed else "")
    return f"the game stopped after {len(game.actions)} actions ({where}): {why}{note}" + (f"; {kept}" if kept else "")


def run_unattended(game: Game, computer: dict[str, Any], saver: Any, quiet: bool = False,
                   max_turns: int | None = None, log: bool = False) -> int:
    """Play a game every side of which the computer plays; print its result (with `log`, the
    game's log before it, also when a computer player breaks the rules)."""
    from clients import seats

    while not game.over:
        if max_turns is not None and game.state.turn > max_turns:
            if log:
                _print_log(game, game.log)
            if saver:
                saver(game)
            if not quiet:
                print(game.status())
            standing = game.ruleset.logic.standing(game.state)
            shown = ", ".join(f"{k} {v}" for k, v in standing.items())
            last = game.ruleset.structure.turn_words(max_turns, of_all=False)
            print(f"stopped after {last}: no result yet" + (f"; standing: {shown}" if shown else ""))
            print(f"seed: {game.seed}, actions: {len(game.actions)}")
            return 0
        decision = game.decision
        assert decision is not None
        player = computer[seats.deciding(game.ruleset, decision.player)]
        action = player.choose(game.ruleset, game.state, decision)
        try:
            game.play(action)
        except IllegalAction as e:
            if log:
                _print_log(game, game.log)
            raise PlayError(_stopped(game, IllegalAction(
                f"the computer player `{player.name}` chose an action the rules refuse ({action}): {e.reason}"),
                "nothing was saved" if saver else "")) from e
    if log:
        _print_log(game, game.log)
    if saver:
        saver(game)
    r = game.result
    assert r is not None
    if not quiet:
        print(game.status())
    print(f"result: {_result_text(r)}")
    print(f"seed: {game.seed}, actions: {len(game.actions)}")
    return 0


def _result_text(r: Any) -> str:
    who = f"winner: {r.winner}" if r.winner else "draw"
    score = ", ".join(f"{k} {v}" for k, v in r.score.items())
    return f"{who} — {r.reason}" + (f" ({score})" if score else "")


if __name__ == "__main__":
    sys.exit(main())
