"""What playing in place could gain at most: the same random games played twice in one
run, once as the engine plays them (each action on a copy of the state) and once with every
copy of a state taken away (`GameState.copy` gives back the state itself, its event list
emptied), which is as cheap as an in-place playout with undo could ever be. Prints both CPU
times, their ratio and whether the two played the same games.

    python benchmarks/in_place_ceiling.py lhtr --games 4 [--repeats 3] [--json]

Only a measurement: a random game drops each state once it has the next one, so it plays
the same with no copies; a search keeps its states and could not.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402

from engine.state import GameState  # noqa: E402


def play(rs: Any, args: Any, max_turns: int | None) -> tuple[float, str]:
    """CPU time of the games and a digest of how each ended."""
    ends = []
    t0 = time.process_time()
    for i in range(args.games):
        run = randplay.random_game(rs, args.seed + i, args.scenario, max_turns)
        ends.append((run.actions, run.result, run.failure))
    return time.process_time() - t0, hashlib.sha256(repr(ends).encode()).hexdigest()


def no_copy(self: GameState) -> GameState:
    self.events = []
    return self


def repeats(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--repeats", type=int, default=3, help="each way played this often; the fastest counts")


def main(argv: list[str] | None = None) -> int:
    args, rs, max_turns = randplay.set_up(__doc__.splitlines()[0], argv, repeats)
    copying = GameState.copy
    with_copies, in_place = [], []
    digests = set()
    for _ in range(args.repeats):
        cpu, digest = play(rs, args, max_turns)
        with_copies.append(cpu)
        digests.add(digest)
        GameState.copy = no_copy  # type: ignore[method-assign]
        try:
            cpu, digest = play(rs, args, max_turns)
        finally:
            GameState.copy = copying  # type: ignore[method-assign]
        in_place.append(cpu)
        digests.add(digest)
    figures = {
        "ruleset": rs.name,
        "games": args.games,
        "repeats": args.repeats,
        "with_copies_cpu_s": min(with_copies),
        "in_place_cpu_s": min(in_place),
        "ratio": min(in_place) / max(min(with_copies), 1e-9),
        "same_play": len(digests) == 1,
    }
    randplay.report(figures, args.json, list(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
