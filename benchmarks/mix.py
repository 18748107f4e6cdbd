"""Ablation: a side played by the search's default policy (priors and `evaluate`) except the
decision kinds given to the ruleset's hand-written player; the other side hand-written.

    python3 benchmarks/mix.py [--side Axis] [--hand KIND,KIND | all | -KIND,...] [--turns 1-4]
        [--opt move,load] [--seed 960] [--games 10] [--ruleset bulge] [--kinds]

`--hand=-K1,K2` gives every kind but these to the hand-written player; `--turns` only on those
turns; `--opt` only where the hand-written player's choice is an option of those kinds (the
policy's otherwise). Game i has seed SEED + i; the hand-written opponent is seated as
search_vs.py seats it, so `--hand ""` plays search_vs.py's `--policy` games. Prints one line a
game (seed, winner, standing, last turn, the side's VP at each turn's start) and the wins.
"""

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import randplay  # noqa: E402
from ai_vs_random import judge  # noqa: E402

from clients import seats  # noqa: E402
from clients.search import SearchPlayer  # noqa: E402
from engine import flow  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--side", default="Axis")
ap.add_argument("--hand", default="")
ap.add_argument("--turns", default="1-999")
ap.add_argument("--opt", default="")
ap.add_argument("--seed", type=int, default=960)
ap.add_argument("--games", type=int, default=10)
ap.add_argument("--ruleset", default="bulge")
ap.add_argument("--kinds", action="store_true", help="list the side's decision kinds and how often they came")
a = ap.parse_args()
hand_kinds = set(k for k in a.hand.lstrip("-").split(",") if k)
except_kinds = hand_kinds if a.hand.startswith("-") else set()
lo, hi = map(int, a.turns.split("-"))
opts = set(k for k in a.opt.split(",") if k)


class Args:
    ruleset, mod, trust_code, option, scenario = a.ruleset, [], False, [], None


rs = randplay.load(Args())
players, _ = seats.available_players(rs)
wins = 0
kinds: collections.Counter = collections.Counter()
for i in range(a.games):
    seed = a.seed + i
    pol = SearchPlayer(seed, policy=True)
    mine = seats.build(players["heuristic"], seed + 7)
    opp = seats.build(players["heuristic"], seed + 1_000_003)
    state = rs.logic.new_state(rs.info.scenario(None).name, seed)
    d = flow.start(rs, state)
    track = []
    while d is not None:
        if len(track) < state.turn:
            track.append(state.resource(a.side, "vp"))
        if rs.logic.side_of(d.player) == a.side:
            kinds[d.kind] += 1
            use_hand = (d.kind not in except_kinds) if except_kinds else (d.kind in hand_kinds or "all" in hand_kinds)
            act = None
            if use_hand and lo <= state.turn <= hi:
                act = mine.choose(rs, state, d)
                if opts and act.kind not in opts:
                    act = None
            if act is None:
                act = pol.choose(rs, state, d)
        else:
            act = opp.choose(rs, state, d)
        state, d = flow.apply(rs, state, act)
    w, st = judge(rs, state)
    wins += w == a.side
    print(seed, w, st, state.turn, track[1:], flush=True)
print("won", wins, "of", a.games)
if a.kinds:
    print(kinds)
