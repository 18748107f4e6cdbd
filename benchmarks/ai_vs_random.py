"""How well a ruleset's computer player beats the random player: N games with the computer
player on one side and uniformly random choices on every other, each stopped after a number
of rounds and judged by the rules' standing (victory cities in Axis & Allies), or by the
result if the game ended sooner.

    python benchmarks/ai_vs_random.py lhtr --games 100 --side Axis [--player heuristic]
        [--max-turns 10] [--seed 0] [--json]

Game i has seed SEED + i for the dice; the computer player gets seed SEED + i and the random
player `random.Random(SEED + i + 1_000_003)`. A game is won when the side ends with more of
the standing than any other side (a tie is a draw). Prints wins, draws, losses, the win rate
with its 95% confidence interval (Wilson), how many games the rules ended sooner (a victory)
and the rounds played on average, the seconds (CPU) per game and in all, the computer player's CPU time per decision (mean and
longest), and what the computer
player did with each kind of decision (`taken`: for each step, how often it played each move,
and in how many games it played it at least once).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402

from clients import seats  # noqa: E402
from clients.simulate.stats import wilson  # noqa: E402
from engine import flow  # noqa: E402


def judge(rs: Any, state: Any) -> tuple[str | None, dict[str, Any]]:
    """The winning side (None: a draw) and the standing it was judged by."""
    standing = rs.logic.standing(state)
    if state.result is not None:
        return state.result.get("winner") or None, standing
    if not standing:
        return None, standing
    best = max(standing.values())
    leaders = [k for k, v in standing.items() if v == best]
    return (leaders[0] if len(leaders) == 1 else None), standing


def play(rs: Any, factory: Any, side: str, seed: int, rounds: int, scenario: str | None = None) -> dict[str, Any]:
    computer = seats.build(factory, seed)
    rng = random.Random(seed + 1_000_003)
    state = rs.logic.new_state(rs.info.scenario(scenario).name, seed)
    decision = flow.start(rs, state)
    actions = 0
    thinking = 0.0
    decisions = 0
    longest = 0.0
    taken: dict[str, dict[str, int]] = {}
    while decision is not None and state.turn <= rounds:
        if rs.logic.side_of(decision.player) == side:
            t0 = time.process_time()
            action = computer.choose(rs, state, decision)
            spent = time.process_time() - t0
            thinking += spent
            decisions += 1
            longest = max(longest, spent)
            if decision.kind != "choose":
                moves = taken.setdefault(decision.kind, {})
                moves[action.kind] = moves.get(action.kind, 0) + 1
        else:
            action = decision.sample(rng)
        state, decision = flow.apply(rs, state, action)
        actions += 1
    winner, standing = judge(rs, state)
    return {"seed": seed, "winner": winner, "standing": standing, "actions": actions, "turn": state.turn,
            "thinking_s": thinking, "decisions": decisions, "longest_s": longest, "ended": state.result is not None, "taken": taken}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    randplay.common_arguments(ap)
    ap.add_argument("--side", required=True, help="the side the computer player plays")
    ap.add_argument("--player", default=None, help="which computer player (default: the ruleset's own)")
    ap.add_argument("--verbose", action="store_true", help="one line per game")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    rs = randplay.load(args)
    players, default = seats.available_players(rs)
    name = args.player or default
    if name not in players:
        ap.error(f"no computer player `{name}` (this ruleset has: {', '.join(players)})")
    sides = seats.sides(rs)
    side = next((s for s in sides if s.lower() == args.side.lower()), None)
    if side is None:
        ap.error(f"no side `{args.side}` (the sides are: {', '.join(sides)})")
    rounds = args.max_turns if args.max_turns is not None else 10
    wins = draws = losses = 0
    thinking = 0.0
    games = []
    t0 = time.process_time()
    for i in range(args.games):
        g = play(rs, players[name], side, args.seed + i, rounds, args.scenario)
        games.append(g)
        thinking += g["thinking_s"]
        if g["winner"] == side:
            wins += 1
        elif g["winner"] is None:
            draws += 1
        else:
            losses += 1
        if args.verbose:
            shown = ", ".join(f"{k} {v}" for k, v in g["standing"].items())
            print(f"seed {g['seed']}: {g['winner'] or 'draw'} ({shown}), {g['actions']} actions, "
                  f"{g['thinking_s']:.2f}s thinking", file=sys.stderr)
    cpu = time.process_time() - t0
    lo, hi = wilson(wins, args.games)
    taken: dict[str, dict[str, dict[str, int]]] = {}
    for g in games:
        for step, moves in g["taken"].items():
            for move, n in moves.items():
                t = taken.setdefault(step, {}).setdefault(move, {"times": 0, "games": 0})
                t["times"] += n
                t["games"] += 1
    figures = {
        "ruleset": rs.name,
        "player": name,
        "side": side,
        "games": args.games,
        "rounds": rounds,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / args.games,
        "ci95_low": lo,
        "ci95_high": hi,
        "ended_by_result": sum(1 for g in games if g["ended"]),
        "mean_rounds": sum(min(g["turn"], rounds) for g in games) / args.games,
        "cpu_s": cpu,
        "s_per_game": cpu / args.games,
        "player_s_per_game": thinking / args.games,
        "player_ms_per_decision": 1000 * thinking / max(1, sum(g["decisions"] for g in games)),
        "player_longest_decision_s": max(g["longest_s"] for g in games),
        "seed": args.seed,
        "not_won": [{"seed": g["seed"], "winner": g["winner"], "standing": g["standing"]}
                    for g in games if g["winner"] != side],
        "taken": [f"{step}: " + ", ".join(f"{move} {t['times']}x in {t['games']} games" for move, t in sorted(moves.items()))
                  for step, moves in sorted(taken.items())] if not args.json else
                 {step: dict(sorted(moves.items())) for step, moves in sorted(taken.items())},
    }
    randplay.report(figures, args.json, ["ruleset", "player", "side", "games", "rounds", "wins", "draws",
                                         "losses", "win_rate", "ci95_low", "ci95_high", "ended_by_result", "mean_rounds",
                                         "cpu_s", "s_per_game",
                                         "player_s_per_game", "player_ms_per_decision",
                                         "player_longest_decision_s"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
