"""How much faster (or slower) this checkout plays random games than another revision: the
other revision is the baseline, measured in the same run.

    python benchmarks/compare.py lhtr --base HEAD~3 [--games 2] [--repeats 5] [--json]

The baseline revision is checked out in a temporary git worktree. Each repeat plays the same
games (seeds 0..games-1, the random players of random_games.py) once in each tree, the two
in turn, each in its own process, timed in CPU time without loading the rules or the map.
The figure is the ratio of the fastest repeats, this tree's over the baseline's (below 1:
faster), so that a busy moment of a shared machine slows both alike or neither. It also checks that
both trees played the same number of actions (a change that alters the play is not a speed
change). Needs git; the working tree's changes count as this tree.

With --play-differs (a change that draws the random players' answers otherwise, so that the
trees play other games), the figure is the ratio of CPU time per action, and different games
are expected: play more of them (--games 6 or more) so that their mix evens out.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: what one process runs: load the ruleset, play the games, print CPU seconds and actions
PLAY = """
import sys, time
sys.path[:0] = [{tree!r}, {tree!r} + "/benchmarks"]
import randplay
from engine import plugins
rs = plugins.load({ruleset!r}, {{}}, [])
turns = randplay.ENDLESS_TURNS if rs.structure.turns is None else None
rs.logic.new_state(rs.info.scenario(None).name, 0)      # (reads the map: not timed)
t, actions = time.process_time(), 0
for seed in range({games}):
    actions += randplay.random_game(rs, seed, None, turns).actions
print(time.process_time() - t, actions)
"""


def play(tree: Path, ruleset: str, games: int) -> tuple[float, int]:
    code = PLAY.format(tree=str(tree), ruleset=ruleset, games=games)
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"compare.py: the games failed in {tree}:\n{done.stderr.strip()}")
    cpu, actions = done.stdout.split()
    return float(cpu), int(actions)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--base", required=True, help="the baseline revision (HEAD~1, a tag, a commit)")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--play-differs", action="store_true",
                    help="the trees play other games: compare CPU time per action")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        ap.error("--games and --repeats must be at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        made = subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.base], cwd=ROOT,
                              capture_output=True, text=True)
        if made.returncode != 0:
            raise SystemExit(f"compare.py: cannot check out `{args.base}`: {made.stderr.strip()}")
        try:
            times: dict[str, list[float]] = {"this": [], "base": []}
            actions: dict[str, int] = {}
            for _ in range(args.repeats):
                for side, tree in (("base", base), ("this", ROOT)):
                    cpu, n = play(tree, args.ruleset, args.games)
                    times[side].append(cpu)
                    actions[side] = n
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
    ratio = min(times["this"]) / min(times["base"])
    if args.play_differs:
        ratio *= actions["base"] / actions["this"]
    figures = {
        "ruleset": args.ruleset, "base": args.base, "games": args.games, "repeats": args.repeats,
        "this_cpu_s": min(times["this"]), "base_cpu_s": min(times["base"]),
        "ratio": ratio, "per": "action" if args.play_differs else "game",
        "actions": actions["this"], "base_actions": actions["base"],
    }
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key:14} {value:.4g}" if isinstance(value, float) else f"{key:14} {value}")
    if actions["this"] != actions["base"] and not args.play_differs:
        print(f"compare.py: the trees played different games ({actions['this']} and {actions['base']} actions): "
              "the change alters the play, so the ratio is not only speed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
