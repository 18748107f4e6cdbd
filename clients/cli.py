"""The `wargame` command: list rulesets, show a scenario's facts, check rules files, play,
and replay saved games."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import dsl
from clients.seats import SeatError
from engine import plugins, save
from engine.actions import IllegalAction
from engine.game import Game, ScenarioError


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except dsl.RulesError as e:
        print(str(e), file=sys.stderr)
        return 1
    except (plugins.RulesetNotFound, plugins.ManifestError, save.SaveError, ScenarioError,
            LookupError, FileNotFoundError, OptionError, SeatError) as e:
        print(f"wargame: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


class OptionError(ValueError):
    pass


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wargame", description="Play turn-based board wargames from ruleset plugins.")
    p.add_argument("--mod", action="append", default=[], metavar="FOLDER",
                   help="also load the mod (rules folder with ruleset.json) in FOLDER")
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("rulesets", help="list the installed rulesets and their scenarios")
    s.set_defaults(func=cmd_rulesets)

    s = sub.add_parser("info", help="a scenario's facts: spaces, towns, pieces, resources, options")
    s.add_argument("ruleset")
    s.add_argument("--scenario")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=cmd_info)

    s = sub.add_parser("check", help="check a ruleset or mod folder, or one rules file")
    s.add_argument("path")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("play", help="play a game")
    s.add_argument("ruleset", nargs="?", default="bulge")
    s.add_argument("--scenario")
    s.add_argument("--ai", action="append", default=[], metavar="SIDE[=PLAYER]",
                   help="the computer plays SIDE (or 'all'); PLAYER picks which computer player")
    s.add_argument("--hotseat", action="store_true", help="people play every side (no computer player)")
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--save", metavar="FILE", help="save the game to FILE after every action and at the end")
    s.add_argument("--load", metavar="FILE", help="go on with a saved game")
    s.add_argument("--no-gui", action="store_true", help="play in the terminal even when a display is available")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    s.add_argument("--quiet", action="store_true", help="with every side played by the computer: print only the result")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("replay", help="replay a saved game and report whether it reproduces the saved state")
    s.add_argument("save")
    s.set_defaults(func=cmd_replay)
    return p


def parse_options(items: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option wants NAME=VALUE, not `{item}`")
        out[name.strip()] = value.strip()
    return out


# -- rulesets / info / check ------------------------------------------------------------------
def cmd_rulesets(args: argparse.Namespace) -> int:
    found = plugins.discover(args.mod)
    if not found:
        print("no rulesets installed")
        return 1
    for name, (_, info) in sorted(found.items()):
        base = f" (extends {info.extends})" if info.extends else ""
        print(f"{name}{base}: {info.title}")
        for s in info.scenarios:
            fid = f" [fidelity: {s.fidelity}]" if s.fidelity != "exact" else ""
            print(f"    {s.name}: {s.title}{fid}")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    rs = plugins.load(args.ruleset, parse_options(args.option), args.mod)
    scenario = rs.info.scenario(args.scenario)
    state = rs.logic.new_state(scenario.name, 0)
    facts: dict[str, Any] = {
        "ruleset": rs.name,
        "title": rs.info.title,
        "scenario": scenario.name,
        "scenario_title": scenario.title,
        "fidelity": scenario.fidelity,
        "options": {name: {"value": rs.options[name], "default": spec.default, "type": str(spec.type), "doc": spec.doc}
                    for name, spec in rs.rules.option_specs.items()},
    }
    facts.update(rs.logic.facts(state))
    if args.json:
        print(json.dumps(facts, indent=1, ensure_ascii=False, default=str))
    else:
        print(_facts_text(facts))
    return 0


def _facts_text(facts: dict[str, Any], indent: str = "") -> str:
    lines = []
    for k, v in facts.items():
        if isinstance(v, dict) and v and all(not isinstance(x, (dict, list)) for x in v.values()) and len(v) <= 12:
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
    diagnostics = plugins.check(args.path, args.mod)
    errors = [d for d in diagnostics if d.severity == "error"]
    sources = _sources(diagnostics)
    for d in diagnostics:
        print(d.render(sources))
    if errors:
        print(f"{len(errors)} error{'s' if len(errors) != 1 else ''}", file=sys.stderr)
        return 1
    print(f"{args.path}: ok")
    return 0


def _sources(diagnostics: Sequence[Any]) -> dict[str, str]:
    """The text of each file a diagnostic points into, so it can show the line and a caret."""
    out: dict[str, str] = {}
    for d in diagnostics:
        path = Path(d.pos.file)
        if d.pos.file not in out and path.is_file():
            out[d.pos.file] = path.read_text(encoding="utf-8")
    return out


def cmd_replay(args: argparse.Namespace) -> int:
    report = save.replay(args.save, args.mod)
    n = len(report.game.actions)
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


# -- play -----------------------------------------------------------------------------------------
def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")


def cmd_play(args: argparse.Namespace) -> int:
    from clients import seats

    if args.load:
        game = save.load(args.load, args.mod)
        rs = game.ruleset
    else:
        rs = plugins.load(args.ruleset, parse_options(args.option), args.mod)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
        game = Game(rs, args.scenario, seed)
    computer = seats.assign(rs, args.ai, hotseat=args.hotseat, seed=game.seed)
    saver = (lambda g: save.save(g, args.save, args.mod)) if args.save else None
    humans = [s for s in seats.sides(rs) if s not in computer]
    if not humans:
        return run_unattended(game, computer, saver, quiet=args.quiet)
    if not args.no_gui and has_display():
        try:
            from clients.gui import play_window
        except ImportError as e:   # pyglet or its system libraries missing: fall back
            print(f"(no window: {e}; playing in the terminal)", file=sys.stderr)
        else:
            return play_window(game, computer, saver)
    from clients.terminal import play_terminal

    return play_terminal(game, computer, saver)


def run_unattended(game: Game, computer: dict[str, Any], saver: Any, quiet: bool = False) -> int:
    from clients import seats

    while not game.over:
        decision = game.decision
        assert decision is not None
        player = computer[seats.seat_of(game.ruleset, decision.player)]
        action = player.choose(game.ruleset, game.state, decision)
        try:
            game.play(action)
        except IllegalAction as e:
            raise RuntimeError(f"computer player `{player.name}` chose a refused action {action}: {e.reason}") from e
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
