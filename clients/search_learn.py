"""What goes with winning, learnt from games played to their end, for a game whose rules give
no `evaluate`.

A game written without knowledge for the computer player (docs/modding.md, "Knowledge for the
computer player") is judged by its `score`, if any, to the end of the side's turn: a goal
several turns away (a flag to bring home, a hill to hold, a line to break through) is then
worth nothing until it is reached, so the search stands still. So, where the rules give no
`evaluate`, the player spends a share of each decision playing quick games from the real
position to their end (every move drawn at random, the rules' own dice; a game not finished
when the time runs out goes on at the next decision) and keeps, for each feature of a position
seen at each turn's end, how those games ended for each side. A feature is general: a piece
(its owner, kind and space, and the kinds it carries or that it is carried; and coarser: the
owner's pieces in a space, a piece that carries wherever it is), a space's
controller, a scalar variable of the rules and its value, and the rules' score for the side
(the side's entry less the best other's, clipped). What a position is worth to a side is then
the sum over its features of how much better the games with it ended than the games on
average (shrunk toward nothing while a feature has been seen in few positions), so a scout
carrying the enemy flag near home, a unit on the hill, or an enemy unit beside the side's base
weigh as the games played showed them weighing. Nothing in it names a game; the same seed and
the same budget of samples give the same play.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable
from typing import Any

from engine import flow
from engine.actions import Decision, IllegalAction
from engine.state import GameState

#: a feature's worth is shrunk toward nothing by n / (n + SHRINK), n the positions it was seen in
SHRINK = 3.0
#: a position seen this many turns (of any power) before its game's end counts DISCOUNT ** t
DISCOUNT = 0.9
#: a game played further than this many moves is given up (its rules may never end it)
LONGEST = 5000
#: the score enters the features clipped to -CLIP .. CLIP
CLIP = 3


def features(state: GameState, side: str, score: Any = None, sides: Iterable[str] = ()) -> list[Hashable]:
    """The general features of a position, as seen by `side` (only the score depends on it)."""
    out: list[Hashable] = []
    pieces = state.pieces
    cargo: dict[int, list[str]] = {}
    for p in pieces.values():
        if p.carrier is not None:
            cargo.setdefault(p.carrier, []).append(p.owner + ":" + p.kind)
    for p in pieces.values():
        held = cargo.get(p.id)
        load = tuple(sorted(held)) if held else p.carrier is not None
        out.append((p.owner, p.kind, p.space, load))
        # coarser ones, so that what a few games show carries over: any of the owner's
        # pieces in the space, and a piece that carries (or is carried) wherever it is
        out.append((p.owner, "", p.space))
        if load:
            out.append((p.owner, p.kind, "", load))
    for space, owner in state.control.items():
        out.append(("control", space, owner))
    for name, value in state.vars.items():
        if isinstance(value, (bool, int, str, float)):
            out.append(("var", name, value))
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, (bool, int, str, float)) and isinstance(k, Hashable):
                    out.append(("var", name, k, v))
    if score is not None:
        table = dict(score(state))
        if side in table:
            others = [float(v) for k, v in table.items() if k != side and k in sides]
            gap = float(table[side]) - (max(others) if others else 0.0)
            out.append(("score", max(-CLIP, min(CLIP, round(gap)))))
    return out


class Learner:
    """How games played to their end from the real positions ended, by feature of a position."""

    def __init__(self, rs: Any, sides: Iterable[str], score: Any = None) -> None:
        self.rs = rs
        self.sides = tuple(sides)
        self.score = score
        #: per side: feature -> [weighted positions, weighted outcome for the side]
        self.seen: dict[str, dict[Hashable, list[float]]] = {s: {} for s in self.sides}
        #: per side: all positions, and their outcomes (weighted)
        self.total: dict[str, list[float]] = {s: [0.0, 0.0] for s in self.sides}
        self.games = 0
        self.decided = 0
        #: a game being played: (state, decision, the positions at its turns' ends so far)
        self.playing: tuple[GameState, Decision | None, list[dict[str, list[Hashable]]]] | None = None
        self.moves = 0
        #: the worth of each feature, per side, worked out again after each game learnt from
        self._worth: dict[str, dict[Hashable, float]] = {}

    # -- playing ------------------------------------------------------------------------------
    def play(self, state: GameState, decision: Decision, rng: Any, seconds: float | None,
             moves: int | None) -> None:
        """Play on (or start from this real position) quick games, for `seconds` of CPU or
        `moves` moves, whichever is given."""
        start = time.process_time()
        done = 0
        longest = 0.0       # the longest move so far: the next may take as long
        rs = self.rs
        while True:
            if moves is not None:
                if done >= moves:
                    return
            else:
                now = time.process_time()
                if now - start + longest >= seconds:   # type: ignore[operator]
                    return
            if self.playing is None:
                self.playing = (state, decision, [])
                self.moves = 0
            s, d, seen = self.playing
            done += 1
            if d is None or self.moves >= LONGEST:
                self.playing = None
                continue
            where, asked = (s.turn, s.power_index), d
            try:
                action = asked.sample(rng)
                try:
                    # (the first move rolls the player's own dice, never the game's)
                    s, d = flow.apply(rs, s, action, dice=rng.getrandbits(64)) if self.moves == 0 \
                        else flow.apply(rs, s, action)
                except IllegalAction:
                    if asked.finish is None or action == asked.finish:
                        raise
                    s, d = flow.apply(rs, s, asked.finish)
            except IllegalAction:
                self.playing = None         # (given up: the next starts from the real position)
                continue
            self.moves += 1
            if d is None or (s.turn, s.power_index) != where:
                seen.append({side: features(s, side, self.score, self.sides) for side in self.sides})
            if d is None:
                self.learn(s, seen)
                self.playing = None
            else:
                self.playing = (s, d, seen)
            if moves is None:
                longest = max(longest, time.process_time() - now)

    def learn(self, end: GameState, seen: list[dict[str, list[Hashable]]]) -> None:
        """Count a finished game's positions toward their features."""
        self.games += 1
        result = end.result or {}
        winner = result.get("winner") or None
        if winner is not None:
            self.decided += 1
        logic = self.rs.logic
        for side in self.sides:
            if winner is None:
                outcome = 0.0
            else:
                outcome = 1.0 if winner == side or logic.side_of(winner) == side else -1.0
            table, total = self.seen[side], self.total[side]
            weight = 1.0
            for position in reversed(seen):
                total[0] += weight
                total[1] += weight * outcome
                for f in position[side]:
                    entry = table.get(f)
                    if entry is None:
                        entry = table[f] = [0.0, 0.0]
                    entry[0] += weight
                    entry[1] += weight * outcome
                weight *= DISCOUNT
        self._worth = {}

    # -- judging ------------------------------------------------------------------------------
    def worth(self, side: str) -> dict[Hashable, float]:
        w = self._worth.get(side)
        if w is None:
            n, total = self.total.get(side, (0.0, 0.0))
            mean = total / n if n else 0.0
            w = self._worth[side] = {f: (s - c * mean) / (c + SHRINK)
                                     for f, (c, s) in self.seen.get(side, {}).items()}
        return w

    def value(self, state: GameState, side: str) -> float:
        """What the games played say a position is worth to `side` (0 before any ended)."""
        if not self.decided:
            return 0.0
        w = self.worth(side)
        get = w.get
        return sum(get(f, 0.0) for f in features(state, side, self.score, self.sides))
