"""How fast the engine plays: N games in which every decision is answered by a uniformly
random choice among its options, with no invariant checks, timed in CPU time.

    python benchmarks/random_games.py bulge --games 20 [--seed 0] [--max-turns T] [--json]
    python benchmarks/random_games.py aarhe --games 5 --json      # 10-round games

Game i has seed SEED + i for the dice and `random.Random(SEED + i)` for the choices, so a run
is reproducible. Loading the rules and reading the map are not timed. A ruleset of unlimited
turns (lhtr, aarhe) plays 10 turns (rounds) a game unless --max-turns says otherwise. Prints
games_per_s, actions_per_s, decisions_per_game (mean), cpu_s and games.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    args, rs, max_turns = randplay.set_up(__doc__.splitlines()[0], argv)
    actions = 0
    failures = []
    t0 = time.process_time()
    for i in range(args.games):
        run = randplay.random_game(rs, args.seed + i, args.scenario, max_turns)
        actions += run.actions
        if run.failure:
            failures.append({"seed": run.seed, "action_index": run.failure[0], "error": run.failure[1]})
    cpu = max(time.process_time() - t0, 1e-9)
    figures = {
        "ruleset": rs.name,
        "games": args.games,
        "games_per_s": args.games / cpu,
        "actions_per_s": actions / cpu,
        "decisions_per_game": actions / args.games,
        "cpu_s": cpu,
        "actions": actions,
        "seed": args.seed,
        "max_turns": max_turns,
        "failures": failures,
    }
    randplay.report(figures, args.json, ["ruleset", "games", "games_per_s", "actions_per_s",
                                         "decisions_per_game", "cpu_s"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
