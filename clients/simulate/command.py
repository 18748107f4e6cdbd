"""`wargame simulate RULESET --games N ...`: check the command line (the rules, options,
scenario, players, against what), plan the games (game i of each rule set plays seed SEED + i),
run them here, on every local core or on a cluster, write each one to --out as it ends,
and report."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from clients import seats
from clients.simulate import SimulateError, report
from clients.simulate.games import Setup, remember, turn_limit
from clients.simulate.ledger import Ledger
from clients.simulate.runner import Job, local_cores, run_cluster, run_local
from engine import save

#: the most processes --workers may start, and the most games a run plans
MAX_WORKERS = 256
MAX_GAMES = 1_000_000


def cmd_simulate(args: argparse.Namespace) -> int:
    tried, rs = _setup(args, args.ruleset, args.option, "--option")
    sides = seats.sides(rs)
    sets = {"tried": tried.label}
    setups = {"tried": tried}
    if args.against is not None or args.against_option:
        base, base_rs = _setup(args, args.against or args.ruleset, args.against_option,
                                "--against-option")
        if seats.sides(base_rs) != sides:
            raise SimulateError(f"--against {base.label}: its sides ({', '.join(seats.sides(base_rs))}) are not "
                                f"those of {tried.label} ({', '.join(sides)}); a comparison needs the same sides")
        setups["base"] = base
        sets["base"] = base.label
    if args.games > MAX_GAMES:
        raise SimulateError(f"--games {args.games:,}: at most {MAX_GAMES:,} games a run")
    if args.workers is not None and args.workers > MAX_WORKERS:
        raise SimulateError(f"--workers {args.workers}: at most {MAX_WORKERS} processes (this machine has "
                            f"{local_cores()} cores)")
    last = args.seed + args.games - 1
    if last > save.MAX_SEED:
        raise SimulateError(f"--seed {args.seed} with --games {args.games} goes past the largest seed, {save.MAX_SEED}")
    seeds = list(range(args.seed, last + 1))
    settings = json.loads(json.dumps({"seed": args.seed, **{k: s.to_json() for k, s in setups.items()}}))
    if args.plot:
        _check_plot(args.plot)
    ledger = Ledger(Path(args.out) if args.out else None, settings, args.resume)
    try:
        records = list(ledger.kept)
        have = {(r.get("rules"), r["seed"]) for r in records}
        # the two rule sets' games of a seed one after the other, so that a stopped run is paired
        jobs: list[Job] = [(setup, seed, name) for seed in seeds for name, setup in setups.items()
                           if (name, seed) not in have]
        bar = _progress(len(seeds) * len(setups), len(seeds) * len(setups) - len(jobs),
                        show=not args.json and sys.stdout.isatty())

        def done(record: dict[str, Any]) -> None:
            records.append(record)
            ledger.write(record)
            if bar is not None:
                bar.update(1)

        try:
            with _stopped_by_kill():
                if args.cluster:
                    run_cluster(args.cluster, jobs, done)
                else:
                    run_local(jobs, args.workers or local_cores(), done)
        finally:
            if bar is not None:
                bar.close()
    finally:
        ledger.close()
    header = {"ruleset": tried.label, "games": args.games, "seed": args.seed, "scenario": tried.scenario,
              "players": dict(tried.players), "max_turns": tried.max_turns,
              "out": args.out, "notes": _timed_players(setups.values())}
    summary = report.summarise(records, sides, sets, seeds, header)
    if args.plot:
        from clients.simulate.plot import draw

        draw(summary, args.plot)
        summary["plot"] = args.plot
    if args.json:
        print(json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        print(report.render(summary))
        if args.plot:
            print(f"plot: {args.plot}")
    finished = sum(one["finished"] for one in summary["sets"])
    return 0 if finished else 1


def _setup(args: argparse.Namespace, ruleset: str, option_texts: list[str], flag: str) -> tuple[Setup, Any]:
    """The games' setup for `ruleset` with these --option texts, every part of it checked:
    the rules load, the options are known and in bounds, the scenario exists and adds up,
    the players and sides are known."""
    from clients.cli import OptionError, new_game, parse_options

    try:
        options = parse_options(option_texts)
    except OptionError as e:
        raise OptionError(str(e).replace("--option", flag, 1)) from None
    mods = tuple(str(Path(m).resolve()) for m in args.mod)
    name = str(Path(ruleset).resolve()) if Path(ruleset).is_dir() else ruleset
    from engine import plugins

    rs = plugins.load(name, options, list(mods), trust_code=args.trust_code)
    problems = plugins.option_problems(rs, options)
    if problems:
        raise OptionError("\n".join(flag.removesuffix("option") + p for p in problems))
    new_game(rs, args.scenario, 0)        # an unknown scenario, or one that does not add up, is said now
    scenario = rs.info.scenario(args.scenario).name
    _, default = seats.available_players(rs)
    wanted = seats.chosen(rs, ["all=" + default, *args.ai])
    chosen = tuple((side, wanted[side]) for side in seats.sides(rs))
    max_turns = turn_limit(rs, args.max_turns)
    setup = Setup(ruleset=name, mods=mods, trust_code=args.trust_code, options=tuple(sorted(options.items())),
                  scenario=scenario, players=chosen, max_turns=max_turns,
                  rules_budget=args.rules_budget, rules_max_items=args.rules_max_items)
    remember(setup, rs)
    return setup, rs


def _timed_players(setups: Any) -> list[str]:
    """What the report says of players given a time a decision (`search:SECONDS`): how much
    they search depends on the CPU they get, so their games are not the same on every machine."""
    timed = sorted({kind for s in setups for _, kind in s.players if ":" in kind})
    return [f"{kind} searches for {kind.partition(':')[2]} s of CPU a decision, so its games depend on the "
            f"machine's speed and load: the same seeds may give other games elsewhere" for kind in timed]


def _check_plot(path: str) -> None:
    """--plot: matplotlib installed, and a .png to write; said before the games are played."""
    if not path.lower().endswith(".png"):
        raise SimulateError(f"--plot draws a PNG: give a file name ending in .png, not `{path}`")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SimulateError("--plot needs matplotlib: pip install 'wargame[plot]'") from None
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise SimulateError(f"--plot {path}: there is no folder {folder}")


@contextlib.contextmanager
def _stopped_by_kill() -> Iterator[None]:
    """`kill PID` (SIGTERM) stops the run as Ctrl+C does: the workers are ended and the
    finished games are already in --out."""
    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:                   # not the main thread: the default stays
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _progress(total: int, done: int, show: bool) -> Any:
    """A progress bar with the rate and the time left (tqdm), on a terminal only."""
    if not show:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    tqdm.monitor_interval = 0      # no monitor thread: the pool's workers are forked after the bar is made
    return tqdm(total=total, initial=done, unit="game", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)
