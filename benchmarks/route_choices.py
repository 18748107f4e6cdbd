"""What offering a choice of routes costs the window: for each of Germany's units that move in its
first LHTR combat move, the routes found by clients.routes.reach (the shortest route a space)
and by clients.routes.choices (every route that leaves the game different), in CPU time, in one
run, with how many spaces had more than one route.

    python benchmarks/route_choices.py [--repeat 3]

Timed with `time.process_time` (CPU time of this process) after one warm-up."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients.routes import choices, reach  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rs = plugins.load("lhtr")
    game = Game(rs, None, seed=1)
    while not (game.decision.kind == "combat_move" and game.decision.player == "Germany"):
        game.play(game.decision.finish)
    state, d = game.state, game.decision
    shown = set(state.board.spaces)
    units = sorted({(p.kind, p.space): p.id for p in state.pieces_of("Germany")
                    if p.space in shown}.values())
    reach(rs, state, d, units[0], shown)                      # warm-up
    t = time.process_time()
    for _ in range(args.repeat):
        plain = [reach(rs, state, d, u, shown) for u in units]
    t_reach = (time.process_time() - t) / args.repeat
    t = time.process_time()
    for _ in range(args.repeat):
        chosen = [choices(rs, state, d, u, shown) for u in units]
    t_choices = (time.process_time() - t) / args.repeat
    spaces = sum(len(r) for r in plain)
    several = sum(1 for c in chosen for got in c.values() if len(got) > 1)
    assert sum(len(c) for c in chosen) == spaces, "choices and reach disagree on where the units can go"
    print(f"load {os.getloadavg()[0]:.1f}; {len(units)} German stacks' first unit, {spaces} destinations, "
          f"{several} with a choice of route")
    print(f"reach:   {t_reach * 1000:.1f} ms CPU for all")
    print(f"choices: {t_choices * 1000:.1f} ms CPU for all ({t_choices / t_reach:.2f}x reach)")


if __name__ == "__main__":
    main()
