"""How much faster (or slower) this checkout plays random games than another revision: the
other revision is the baseline, measured in the same run.

    python benchmarks/compare.py lhtr --base HEAD~3 [--games 2] [--repeats 5] [--json]
    python benchmarks/compare.py lhtr --base HEAD~3 --games 1 --instructions

The baseline revision is checked out in a temporary git worktree. Each repeat plays the same
games (seeds 0..games-1, the random players of random_games.py) once in each tree, the two
in turn, each in its own process, timed in CPU time without loading the rules or the map.
The figure is the ratio of the fastest repeats, this tree's over the baseline's (below 1:
faster), so that a busy moment of a shared machine slows both alike or neither. It also checks that
both trees played the same number of actions (a change that alters the play is not a speed
change). Needs git; the working tree's changes count as this tree. A base revision older than
benchmarks/randplay.py (4476304, the Bulge baseline of issue 32) plays the same seeds by a loop
written out here.

With --play-differs (a change that draws the random players' answers otherwise, so that the
trees play other games), the figure is the ratio of CPU time per action, and different games
are expected: play more of them (--games 6 or more) so that their mix evens out.

Whether the trees play the same games is checked by a digest of every action and of each
game's end (its pieces, holdings, resources, turn and result), worked out in a run of its own
that is not timed: a speed change keeps it; the action counts alone can hide a change.

With --instructions the figure is the ratio of the instructions the games take, counted by
valgrind (each tree's games, less its loading, PYTHONHASHSEED=0): the same on every run, and
so able to tell a change of a few tenths of a percent, where CPU time on these machines moves
by several percent from one run to the next. It needs valgrind (Debian: apt-get install
valgrind) and is slow: about 25 s a ten-round LHTR game a tree. --repeats is not used.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: what both runs begin with: the tree first on the path and, for a revision older than this
#: environment's installed rulesets, only the entry points it can load (an old engine loads
#: every ruleset the environment lists, and the newer ones name modules it does not have)
PRELUDE = """
import importlib.metadata, sys
sys.path[:0] = [{tree!r}, {tree!r} + "/benchmarks"]
_listed = importlib.metadata.entry_points

def _loadable(**select):
    found = []
    for ep in _listed(**select):
        try:
            ep.load()
        except (ImportError, AttributeError):
            continue
        found.append(ep)
    return found

importlib.metadata.entry_points = _loadable
"""

#: what one process runs: load the ruleset, play the games, print CPU seconds and actions (a
#: revision older than benchmarks/randplay.py plays them by a loop written out here, each
#: decision's option drawn as `rng.choice` draws it from a list)
PLAY = PRELUDE + """
import random, time
from engine import flow, plugins
rs = plugins.load({ruleset!r}, {{}}, [])
try:
    import randplay
    turns = randplay.ENDLESS_TURNS if rs.structure.turns is None else None
    play = lambda seed: randplay.random_game(rs, seed, None, turns).actions
except ImportError:
    turns = 10 if getattr(rs.structure, "turns", 1) is None else None
    def play(seed):
        rng, n = random.Random(seed), 0
        state = rs.logic.new_state(rs.info.scenario(None).name, seed)
        decision = flow.start(rs, state)
        while decision is not None and (turns is None or state.turn <= turns):
            action = decision.sample(rng) if hasattr(decision, "sample") else rng.choice(decision.options)
            state, decision = flow.apply(rs, state, action)
            n += 1
        return n
rs.logic.new_state(rs.info.scenario(None).name, 0)      # (reads the map: not timed)
t, actions = time.process_time(), 0
for seed in range({games}):
    actions += play(seed)
print(time.process_time() - t, actions)
"""


#: what the digest run does: the same games, with every action and each end folded into a hash
#: (written out, not randplay.random_game, whose check is given no action: so that it runs on
#: any base revision)
DIGEST = PRELUDE + """
import hashlib, json, random
from engine import flow, plugins
rs = plugins.load({ruleset!r}, {{}}, [])
turns = 10 if getattr(rs.structure, "turns", 1) is None else None      # (randplay.ENDLESS_TURNS)
scenario = rs.info.scenario(None).name
h = hashlib.sha256()
for seed in range({games}):
    rng = random.Random(seed)
    state = rs.logic.new_state(scenario, seed)
    decision = flow.start(rs, state)
    while decision is not None and (turns is None or state.turn <= turns):
        action = decision.sample(rng) if hasattr(decision, "sample") else rng.choice(decision.options)
        h.update(json.dumps([action.kind, action.args], sort_keys=True, default=str).encode())
        state, decision = flow.apply(rs, state, action)
    end = [sorted(p.to_json().items()) for p in sorted(state.pieces.values(), key=lambda p: p.id)]
    h.update(json.dumps([end, sorted(state.control.items()), sorted(map(str, state.resources.items())),
                         state.turn, state.result], sort_keys=True, default=str).encode())
print(h.hexdigest())
"""

#: what an --instructions run does: load the ruleset and set up a game, then play the games
#: (none, to count the loading alone)
COUNTED = """
import sys
sys.path[:0] = [{tree!r}, {tree!r} + "/benchmarks"]
import randplay
from engine import plugins
rs = plugins.load({ruleset!r}, {{}}, [])
turns = randplay.ENDLESS_TURNS if rs.structure.turns is None else None
rs.logic.new_state(rs.info.scenario(None).name, 0)
for seed in range(int(sys.argv[1])):
    randplay.random_game(rs, seed, None, turns)
"""


def _run(tree: Path, code: str, what: str, *argv: str, prefix: tuple[str, ...] = (),
         env: dict[str, str] | None = None) -> str:
    done = subprocess.run([*prefix, sys.executable, "-c", code, *argv], cwd=tree, capture_output=True, text=True,
                          env=env)
    if done.returncode != 0:
        raise SystemExit(f"compare.py: {what} failed in {tree}:\n{done.stderr.strip()[-2000:]}")
    return done.stderr if prefix else done.stdout


def play(tree: Path, ruleset: str, games: int) -> tuple[float, int]:
    cpu, actions = _run(tree, PLAY.format(tree=str(tree), ruleset=ruleset, games=games), "the games").split()
    return float(cpu), int(actions)


def digest(tree: Path, ruleset: str, games: int) -> str:
    return _run(tree, DIGEST.format(tree=str(tree), ruleset=ruleset, games=games), "the digest run").strip()


def instructions(tree: Path, ruleset: str, games: int) -> int:
    """The instructions `games` random games take in `tree`, less those of loading them."""
    valgrind = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")
    env = dict(os.environ, PYTHONHASHSEED="0")
    code = COUNTED.format(tree=str(tree), ruleset=ruleset)
    # loaded once uncounted first: a rules file not yet in the parse cache (dsl.parse_cache) is
    # parsed by the first load alone, which would count the parsing against the loading
    _run(tree, code, "the loading", "0", env=env)
    counts = []
    for n in (0, games):
        out = _run(tree, code, "the counted games", str(n), prefix=valgrind, env=env)
        found = re.search(r"I\s+refs:\s+([\d,]+)", out)
        if found is None:
            raise SystemExit(f"compare.py: valgrind gave no instruction count in {tree}:\n{out.strip()[-2000:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return counts[1] - counts[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--base", required=True, help="the baseline revision (HEAD~1, a tag, a commit)")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--play-differs", action="store_true",
                    help="the trees play other games: compare CPU time per action")
    ap.add_argument("--instructions", action="store_true",
                    help="compare the instructions the games take (valgrind), not CPU time")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        ap.error("--games and --repeats must be at least 1")
    if args.instructions and shutil.which("valgrind") is None:
        ap.error("--instructions counts with valgrind, which is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        made = subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.base], cwd=ROOT,
                              capture_output=True, text=True)
        if made.returncode != 0:
            raise SystemExit(f"compare.py: cannot check out `{args.base}`: {made.stderr.strip()}")
        try:
            times: dict[str, list[float]] = {"this": [], "base": []}
            actions: dict[str, int] = {}
            counted: dict[str, int] = {}
            for _ in range(1 if args.instructions else args.repeats):
                for side, tree in (("base", base), ("this", ROOT)):
                    cpu, n = play(tree, args.ruleset, args.games)
                    times[side].append(cpu)
                    actions[side] = n
                    if args.instructions:
                        counted[side] = instructions(tree, args.ruleset, args.games)
            same_play = digest(base, args.ruleset, args.games) == digest(ROOT, args.ruleset, args.games)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
    if args.instructions:
        ratio = counted["this"] / counted["base"]
    else:
        ratio = min(times["this"]) / min(times["base"])
    if args.play_differs:
        ratio *= actions["base"] / actions["this"]
    figures: dict[str, Any] = {
        "ruleset": args.ruleset, "base": args.base, "games": args.games, "repeats": args.repeats,
        "this_cpu_s": min(times["this"]), "base_cpu_s": min(times["base"]),
        "ratio": ratio, "per": "action" if args.play_differs else "game",
        "measure": "instructions" if args.instructions else "cpu",
        "actions": actions["this"], "base_actions": actions["base"], "same_play": same_play,
    }
    if args.instructions:
        figures["this_instructions"], figures["base_instructions"] = counted["this"], counted["base"]
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key:14} {value:.4g}" if isinstance(value, float) else f"{key:14} {value}")
    if not same_play and not args.play_differs:
        print(f"compare.py: the trees played different games ({actions['this']} and {actions['base']} actions, "
              "and the digests of their actions and ends differ): the change alters the play, so the ratio is "
              "not only speed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
