"""Self-play for the Battle of the Bulge computer player.

    python benchmarks/bulge_selfplay.py --games 100 --mode vs-random
    python benchmarks/bulge_selfplay.py --games 100 --mode balance

`vs-random` plays the heuristic player against the uniformly random player, N games with the
heuristic as the Axis and N as the Allies, and prints its win rate each way with a 95%
confidence interval (Wilson), the average Axis VP and the average game length. `balance`
plays heuristic against heuristic and prints the Axis win rate the same way.

Game i uses seed `--seed + i` for the dice and for both players, so a run is reproducible.
`--option name=value` (repeatable) plays with a house rule, e.g.
`--option 'supply_income={"Axis": 11, "Allies": 11}'`, to measure a suggested default.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients import seats  # noqa: E402
from clients.players import RandomPlayer  # noqa: E402
from clients.simulate.stats import wilson  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402
from rulesets.bulge.ai import HeuristicPlayer  # noqa: E402

_RS = None
_OPTIONS: dict[str, str] = {}


def _ruleset():
    global _RS
    if _RS is None:
        _RS = plugins.load("bulge", options=_OPTIONS or None)
    return _RS


def _init(options: dict[str, str]) -> None:
    global _OPTIONS, _RS
    _OPTIONS = options
    _RS = None


def play_one(job: tuple[str, str, int]) -> dict:
    """One game. job = (axis player, allies player, seed); players are 'heuristic' or 'random'."""
    axis, allies, seed = job
    rs = _ruleset()
    make = {"heuristic": HeuristicPlayer, "random": RandomPlayer}
    players = {"Axis": seats.build(make[axis], seed), "Allies": seats.build(make[allies], seed + 7919)}
    t0 = time.perf_counter()
    game = Game(rs, None, seed)
    decisions = 0
    thinking: list[float] = []      # CPU seconds of each of the heuristic's decisions
    while not game.over:
        d = game.decision
        c0 = time.process_time()
        action = players[d.player].choose(rs, game.state, d)
        if (axis if d.player == "Axis" else allies) == "heuristic":
            thinking.append(time.process_time() - c0)
        game.play(action)
        decisions += 1
    result = game.result
    return {
        "axis": axis, "allies": allies, "seed": seed, "winner": result.winner,
        "vp": game.state.resource("Axis", "vp"), "turns": min(game.state.turn, rs.options["last_turn"]),
        "decisions": decisions, "seconds": time.perf_counter() - t0,
        "thinking": sum(thinking), "thought": len(thinking), "longest": max(thinking, default=0.0),
    }


def report(title: str, games: list[dict], winner_side: str) -> None:
    n = len(games)
    k = sum(1 for g in games if g["winner"] == winner_side)
    lo, hi = wilson(k, n)
    vp = statistics.mean(g["vp"] for g in games)
    turns = statistics.mean(g["turns"] for g in games)
    secs = statistics.mean(g["seconds"] for g in games)
    per = 1000 * sum(g["thinking"] for g in games) / max(1, sum(g["thought"] for g in games))
    longest = max(g["longest"] for g in games)
    print(f"{title}: {winner_side} wins {k}/{n} = {k / n:.1%} (95% CI {lo:.1%}-{hi:.1%}); "
          f"average Axis VP {vp:.1f}; average length {turns:.2f} turns; "
          f"{secs:.2f} s per game (one core); heuristic {per:.2f} ms CPU per decision, longest {longest:.3f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    ap.add_argument("--mode", choices=("vs-random", "balance"), default="vs-random")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="play with a house rule (repeatable)")
    ap.add_argument("--verbose", action="store_true", help="one line per game")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)

    if args.mode == "vs-random":
        pairings = [("heuristic", "random", "heuristic Axis vs random Allies", "Axis"),
                    ("random", "heuristic", "random Axis vs heuristic Allies", "Allies")]
    else:
        pairings = [("heuristic", "heuristic", "heuristic vs heuristic", "Axis")]
    jobs = [(a, b, args.seed + i) for a, b, _, _ in pairings for i in range(args.games)]
    t0 = time.perf_counter()
    with Pool(args.workers, initializer=_init, initargs=(options,)) as pool:
        results = []
        for r in pool.imap(play_one, jobs, chunksize=2):
            results.append(r)
            if args.verbose:
                print(f"  {r['axis']:>9} vs {r['allies']:<9} seed {r['seed']:>4}: {r['winner']:<6} "
                      f"VP {r['vp']:>2} turns {r['turns']} ({r['seconds']:.2f} s)", flush=True)
    if options:
        print("options:", ", ".join(f"{k}={v}" for k, v in options.items()))
    for a, b, title, side in pairings:
        report(title, [r for r in results if r["axis"] == a and r["allies"] == b], side)
    print(f"{len(results)} games in {time.perf_counter() - t0:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
