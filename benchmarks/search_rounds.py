"""Where an A&A game between the search player and another player stands, round by round: the
victory cities, income, IPCs in hand and units of each side at the start of every round, and
the end's standing. benchmarks/search_vs.py gives a game's result; this shows how it came about
(what the search's side buys, where it gains or loses ground), for LHTR and AARHE.

    python benchmarks/search_rounds.py lhtr --side Axis --games 2 --seconds 0.1 --max-turns 6
        [--against heuristic] [--seed 0] [--json]

Game i has the seeds of benchmarks/search_vs.py's game i. One line a round and power to stderr;
with --json, one JSON object a game (its rounds and its end) on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402
from ai_vs_random import judge  # noqa: E402

from clients import seats  # noqa: E402
from clients.players import RandomPlayer  # noqa: E402
from clients.search import SearchPlayer  # noqa: E402
from engine import flow  # noqa: E402


def standing(rs: Any, state: Any) -> dict[str, Any]:
    """Victory cities by side; income, IPCs and units by power."""
    rules = rs.rules
    victory = rules.procedure("victory_count")
    income = rules.procedure("income")
    out: dict[str, Any] = {"round": state.turn, "victory": {}, "powers": {},
                           "control": {s: c for s, c in state.control.items() if c}}
    for side in seats.sides(rs):
        out["victory"][side] = int(victory(state, side))
    for p in rs.structure.powers:
        kinds = Counter(u.kind for u in state.pieces_of(p) if u.space and not u.space.startswith("_"))
        out["powers"][p] = {"ipc": state.resource(p, "ipc"), "income": int(income(state, p)),
                            "units": sum(kinds.values()), "kinds": dict(kinds)}
    return out


def play(rs: Any, side: str, seed: int, rounds: int, search: SearchPlayer, opponent: Any) -> dict[str, Any]:
    state = rs.logic.new_state(rs.info.scenario(None).name, seed)
    decision = flow.start(rs, state)
    seen: list[dict[str, Any]] = []
    while decision is not None and state.turn <= rounds:
        if not seen or seen[-1]["round"] != state.turn:
            seen.append(standing(rs, state))
            s = seen[-1]
            print(f"seed {seed} round {s['round']}: victory cities {s['victory']}", file=sys.stderr)
            if len(seen) > 1:
                was = seen[-2]["control"]
                taken = sorted(f"{t} to {c}" for t, c in s["control"].items() if was.get(t) != c)
                print(f"   taken in round {s['round'] - 1}: {', '.join(taken) or 'nothing'}", file=sys.stderr)
            for p, f in s["powers"].items():
                print(f"   {p}: {f['ipc']} IPC, income {f['income']}, {f['units']} units {f['kinds']}", file=sys.stderr)
        player = search if rs.logic.side_of(decision.player) == side else opponent
        state, decision = flow.apply(rs, state, player.choose(rs, state, decision))
    winner, stand = judge(rs, state)
    end = standing(rs, state)
    print(f"seed {seed}: {winner or 'draw'} {stand}, round {state.turn}", file=sys.stderr)
    for p, f in end["powers"].items():
        print(f"   {p}: {f['ipc']} IPC, income {f['income']}, {f['units']} units {f['kinds']}", file=sys.stderr)
    return {"seed": seed, "winner": winner, "standing": stand, "rounds": seen, "end": end}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    randplay.common_arguments(ap)
    ap.add_argument("--side", required=True)
    ap.add_argument("--against", default="heuristic")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--iterations", type=int, default=None)
    args = ap.parse_args(argv)
    rs = randplay.load(args)
    side = next(s for s in seats.sides(rs) if s.lower() == args.side.lower())
    players, _ = seats.available_players(rs)
    rounds = randplay.turn_limit(rs, args) or 10
    for i in range(args.games):
        seed = args.seed + i
        search = SearchPlayer(seed, seconds=args.seconds, iterations=args.iterations)
        opponent = (RandomPlayer(seed + 1_000_003) if args.against == "random"
                    else seats.build(players[args.against], seed + 1_000_003))
        g = play(rs, side, seed, rounds, search, opponent)
        if args.json:
            print(json.dumps(g), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
