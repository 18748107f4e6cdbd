"""What the random-game benchmark and the soak script share: loading a ruleset from their
command line, and one game in which every decision is answered by a uniformly random choice
among its options (straight on the engine's states: `flow.start` and `flow.apply`).

Not a script; `random_games.py`, `listing_repeats.py`, `soak.py` and others import it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clients.cli import error_message, parse_options  # noqa: E402
from engine import flow, plugins  # noqa: E402
from engine.actions import normalise  # noqa: E402
from engine.state import GameState  # noqa: E402

#: called after every action with the state and the number of actions so far; raises
#: AssertionError naming a broken invariant
Check = Callable[[GameState, int], None]


@dataclass
class Run:
    seed: int
    actions: int = 0
    result: dict[str, Any] | None = None
    turns: int = 0
    #: (action index, what went wrong) when a check or the engine failed
    failure: tuple[int, str] | None = None


def random_game(rs: Any, seed: int, scenario: str | None = None, max_turns: int | None = None,
                check: Check | None = None) -> Run:
    """One game with seed `seed`, each decision answered by `random.Random(seed)`'s uniform
    choice among its options. Stops when the game ends or `state.turn > max_turns` (a game
    stopped so is finished all the same). With `check`, actions go through a save's round
    trip (`normalise`) as a replayed game's do, and `check` runs after every one; a failure
    is recorded, not raised."""
    rng = random.Random(seed)
    run = Run(seed)
    scenario = rs.info.scenario(scenario).name
    state: GameState | None = None
    try:
        state = rs.logic.new_state(scenario, seed)
        decision = flow.start(rs, state)
        if check:
            check(state, 0)
        while decision is not None and (max_turns is None or state.turn <= max_turns):
            action = decision.sample(rng)
            if check:
                action = normalise(action)
            state, decision = flow.apply(rs, state, action)
            run.actions += 1
            if check:
                check(state, run.actions)
    except AssertionError as e:
        run.failure = (run.actions, f"invariant broken: {e}")
    except Exception as e:  # a crash: the seed and the action index replay it
        run.failure = (run.actions, f"{type(e).__name__}: {e}")
    if state is not None:
        run.result = None if run.failure else state.result
        run.turns = state.turn
    return run


def set_up_once(rs: Any, scenario: str | None = None) -> None:
    """Set up one game of the scenario before a clock starts: its map file is read once per
    process and shared by every game, as the rules are loaded once, so neither is timed."""
    try:
        rs.logic.new_state(rs.info.scenario(scenario).name, 0)
    except Exception:  # noqa: BLE001 (the games themselves report what is wrong, as failures)
        pass


def common_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("ruleset", help="an installed ruleset's name, or a mod folder")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0, help="game i has seed SEED + i")
    ap.add_argument("--max-turns", type=int, default=None, metavar="T",
                    help="stop a game when its turn passes T (counted as finished); a ruleset of unlimited "
                         f"turns (lhtr, aarhe) is stopped after {ENDLESS_TURNS} unless this says otherwise")
    ap.add_argument("--scenario")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--mod", action="append", default=[], metavar="FOLDER")
    ap.add_argument("--trust-code", action="store_true", help="run a mod folder's Python plugin")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")


#: the turns (rounds) a game of a ruleset with `turns unlimited` is played for, without
#: --max-turns: random players seldom end such a game (a random LHTR game went past 160,000 actions)
ENDLESS_TURNS = 10


def turn_limit(rs: Any, args: argparse.Namespace) -> int | None:
    """--max-turns, or ENDLESS_TURNS for a ruleset whose turns are unlimited."""
    if args.max_turns is not None:
        return int(args.max_turns)
    return ENDLESS_TURNS if rs.structure.turns is None else None


def set_up(description: str, argv: list[str] | None,
           more: Callable[[argparse.ArgumentParser], None] | None = None,
           ) -> tuple[argparse.Namespace, Any, int | None]:
    """What a script that plays random games begins with: its command line read (the
    `common_arguments` and those `more` adds, at least one game), the ruleset loaded and one
    game of the scenario set up before any clock starts. Gives (the arguments, the ruleset,
    the turn limit)."""
    ap = argparse.ArgumentParser(description=description)
    common_arguments(ap)
    if more is not None:
        more(ap)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    rs = load(args)
    max_turns = turn_limit(rs, args)
    set_up_once(rs, args.scenario)
    return args, rs, max_turns


def load(args: argparse.Namespace) -> Any:
    """The ruleset the command line names, as its --scenario plays it (a scenario file's own
    options: its powers, their order and sides, as `wargame play` takes them); a clean message
    and exit 2 if it cannot be had."""
    try:
        rs = plugins.load(args.ruleset, parse_options(args.option), args.mod, trust_code=args.trust_code)
        return rs.for_scenario(getattr(args, "scenario", None))
    except Exception as e:
        print(error_message(e).replace("wargame: ", f"{Path(sys.argv[0]).name}: ", 1), file=sys.stderr)
        raise SystemExit(2) from None


def report(figures: dict[str, Any], as_json: bool, order: Sequence[str] = ()) -> None:
    if as_json:
        print(json.dumps(figures, indent=1))
        return
    for key in [*order, *(k for k in figures if k not in order)]:
        value = figures[key]
        if isinstance(value, float):
            value = f"{value:.4g}"
        elif isinstance(value, list):
            value = f"{len(value)}" + "".join(f"\n    {v}" for v in value)
        print(f"{key:20} {value}")
