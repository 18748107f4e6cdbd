"""How strong the search player is: N games with `search` on one side and another player (the
random one, or a ruleset's hand-written heuristic) on every other, each judged by the result,
or by the rules' standing when stopped at --max-turns (as benchmarks/ai_vs_random.py does).

    python benchmarks/search_vs.py river-crossing --side Blue --games 20 [--seconds 1 |
        --iterations 30 | --policy] [--against random|heuristic] [--max-turns T] [--seed 0] [--json]

Game i has seed SEED + i for the dice; the search player gets seed SEED + i, the opponent
SEED + i + 1_000_003. Prints wins, draws and losses with the win rate's 95% Wilson interval,
the search's CPU seconds per decision it searched (mean, 95th percentile, the largest, and how
many went past the budget by more than 10%), the decisions answered at once (one option), and
the process's peak memory. With --policy the search player answers with its default policy
alone (the rules' priors and `evaluate`, one look ahead), no samples: a game in seconds.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402
from ai_vs_random import judge, wilson  # noqa: E402

from clients import seats  # noqa: E402
from clients.players import RandomPlayer  # noqa: E402
from clients.search import SearchPlayer  # noqa: E402
from engine import flow  # noqa: E402


def play(rs: Any, side: str, seed: int, rounds: int | None, search: SearchPlayer, opponent: Any) -> dict[str, Any]:
    state = rs.logic.new_state(rs.info.scenario(None).name, seed)
    decision = flow.start(rs, state)
    actions = 0
    while decision is not None and (rounds is None or state.turn <= rounds):
        if rs.logic.side_of(decision.player) == side:
            action = search.choose(rs, state, decision)
        else:
            action = opponent.choose(rs, state, decision)
        state, decision = flow.apply(rs, state, action)
        actions += 1
    winner, standing = judge(rs, state)
    return {"seed": seed, "winner": winner, "standing": standing, "actions": actions, "turn": state.turn,
            "ended": state.result is not None, "reason": (state.result or {}).get("reason") or ""}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    randplay.common_arguments(ap)
    ap.add_argument("--side", required=True, help="the side the search player plays")
    ap.add_argument("--against", default="random", help="the other sides' player (random, or the ruleset's own)")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="CPU seconds a decision (default 1)")
    budget.add_argument("--iterations", type=int, default=None, help="samples a decision instead of a time")
    ap.add_argument("--verbose", action="store_true", help="one line per game")
    ap.add_argument("--policy", action="store_true",
                    help="the search's default policy alone, no samples: what the rules' knowledge (priors, "
                         "evaluate) is worth by itself")
    ap.add_argument("--no-learn", action="store_true",
                    help="where the rules give no evaluate, judge by the score alone (as before learning)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    rs = randplay.load(args)
    sides = seats.sides(rs)
    side = next((s for s in sides if s.lower() == args.side.lower()), None)
    if side is None:
        ap.error(f"no side `{args.side}` (the sides are: {', '.join(sides)})")
    players, _ = seats.available_players(rs)
    if args.against != "random" and args.against not in players:
        ap.error(f"no computer player `{args.against}` (this ruleset has: {', '.join(players)})")
    rounds = randplay.turn_limit(rs, args)
    tally = {"wins": 0, "draws": 0, "losses": 0}
    times: list[float] = []
    searched = at_once = 0
    t0 = time.process_time()
    for i in range(args.games):
        seed = args.seed + i
        search = SearchPlayer(seed, seconds=args.seconds, iterations=args.iterations, learn=not args.no_learn,
                              policy=args.policy)
        opponent = RandomPlayer(seed + 1_000_003) if args.against == "random" else seats.build(players[args.against], seed + 1_000_003)
        g = play(rs, side, seed, rounds, search, opponent)
        times += [cpu for _, cpu in search.spent]
        searched += len(search.spent)
        at_once += search.answered_at_once
        tally["wins" if g["winner"] == side else "draws" if g["winner"] is None else "losses"] += 1
        if args.verbose:
            shown = ", ".join(f"{k} {v}" for k, v in g["standing"].items())
            why = f": {g['reason']}" if g["reason"] else ""
            print(f"seed {seed}: {g['winner'] or 'draw'} ({shown}), turn {g['turn']}, {g['actions']} actions{why}",
                  file=sys.stderr)
    wins = tally["wins"]
    low, high = wilson(wins, args.games)
    times.sort()
    limit = (args.seconds or 1.0) * 1.1
    figures: dict[str, Any] = {
        "ruleset": rs.name, "side": side, "against": args.against,
        "budget": "policy alone" if args.policy else f"{args.iterations} samples" if args.iterations
                  else f"{args.seconds or 1.0} s",
        "games": args.games, "rounds": rounds, **tally,
        "win_rate": wins / args.games, "ci95_low": low, "ci95_high": high,
        "decisions_searched": searched, "decisions_at_once": at_once,
        "s_per_decision_mean": sum(times) / len(times) if times else 0.0,
        "s_per_decision_p95": times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "s_per_decision_max": times[-1] if times else 0.0,
        "over_budget_10pct": sum(1 for t in times if t > limit) if not args.iterations else None,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cpu_s": time.process_time() - t0,
    }
    randplay.report(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
