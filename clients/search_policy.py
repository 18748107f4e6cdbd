"""The search player's default policy: the cheap player its samples play on, one decision at a
time, from the rules' own knowledge (priors over moves and `evaluate`) and nothing else.

It is a module of its own because it is also a player in its own right: `SearchPlayer(policy=
True)` answers every decision with it alone, no samples, which measures what the rules'
knowledge of a game is worth by itself (`benchmarks/search_vs.py --policy`) in a second a game
where a search takes minutes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from clients.search_judge import Judge
from dsl.runtime import OutOfTime
from engine import flow
from engine.actions import Action, Decision, IllegalAction
from engine.state import GameState

#: how often the default policy ends a step where it can, rather than play a random move,
#: in a game whose rules do not judge positions
FINISH_RATE = 0.9
#: options the default policy draws and weighs with the rules' evaluation (besides the finish)
GREEDY_DRAWS = 3
#: a decision with at most this many options has every one weighed by the default policy
GREEDY_ALL = 8
#: a finished game's worth to the default policy, in the rules' units: beyond any position
BEYOND = 1e12

#: an option played: the action and what it led to (the state, the next decision; no decision
#: in a game not over: the state is paused where the option ended its step, see `greedy`)
Moved = tuple[Action, GameState, "Decision | None"]


class DefaultPolicy:
    """One ruleset's default policy for a search player (its priors, its generator)."""

    def __init__(self, player: Any, rs: Any, judge: Judge, own_dice: bool = False) -> None:
        self.player, self.rs, self.judge = player, rs, judge
        self.rng: random.Random = player.rng
        #: roll each option it plays with dice of the player's own: where the state is the
        #: game's (a decision's own, not a sample's), so that its look ahead never reads the
        #: game's dice (a battle's outcome would be known before the attack is chosen)
        self.own_dice = own_dice

    def apply(self, state: GameState, action: Action, pause: bool = False) -> tuple[GameState, Decision | None]:
        if self.own_dice:
            return flow.apply(self.rs, state, action, dice=self.rng.getrandbits(64), pause=pause)
        return flow.apply(self.rs, state, action, pause=pause)

    def move(self, state: GameState, decision: Decision, deadline: float | None = None) -> Moved | None:
        """The option the policy plays, and where it leads. Where the rules judge positions,
        the better for the deciding side of a few options drawn at random and the step's
        finish (one look ahead each: a unit activated is then moved); else the finish most
        of the time, or a random option. Where the moves give priors, the best prior first
        (`by_priors`). None if the rules refuse every option it tried, or where the CPU
        clock passes `deadline` before the decision's priors are read."""
        rng, rs = self.rng, self.rs
        try:
            priors = self.player.priors(rs, decision, deadline)
        except OutOfTime:
            return None
        if not self.judge.informed:
            if priors is not None:
                return self.by_priors(state, decision, priors, "")
            for tries in range(3):
                finish = tries == 0 and decision.finish is not None and rng.random() < FINISH_RATE
                action = decision.finish if finish and decision.finish is not None else decision.sample(rng)
                try:
                    return (action, *self.apply(state, action))
                except IllegalAction:
                    continue
            return None
        side = rs.logic.side_of(decision.player)
        if priors is not None:
            return self.by_priors(state, decision, priors, side)
        options = decision.options
        if len(options) <= GREEDY_ALL:
            tried = list(options)
            rng.shuffle(tried)      # (ties go to any of them, not always the first listed)
        else:
            tried = [decision.sample(rng) for _ in range(GREEDY_DRAWS)]
            if decision.finish is not None:
                tried.append(decision.finish)
        return self.greedy(state, tried, side)

    def greedy(self, state: GameState, tried: Sequence[Action], side: str) -> Moved | None:
        """The option of `tried` that the rules' evaluation, one look ahead, likes best for
        `side` (the first of equals); None if the rules refuse them all. An option that ends
        the step is judged as the step leaves the position, like the others within it (not
        after the next step's automatic work, an income say); its Moved is left paused there
        (no decision, the game not over: `flow.resume` goes on)."""
        best: tuple[float, Moved] | None = None
        for action in tried:
            try:
                after = self.apply(state, action, pause=True)
                kind, v = self.judge.worth(*after, side)
            except IllegalAction:
                continue
            value = v * BEYOND if kind == "end" else v
            if best is None or value > best[0]:
                best = (value, (action, *after))
        return best[1] if best else None

    def by_priors(self, state: GameState, decision: Decision, priors: list[float], side: str) -> Moved | None:
        """As a rulebook player would: the option of the best prior; among equals, the
        better by the rules' evaluation of a few (every one of at most GREEDY_ALL, else
        GREEDY_DRAWS drawn and the finish, if it is one of them), or, where the rules judge
        nothing, the finish most of the time. If the rules refuse them all, the next best
        prior."""
        rng, options = self.rng, decision.options
        for p in sorted(set(priors), reverse=True):
            tied = [options[i] for i, q in enumerate(priors) if q == p]
            if len(tied) > GREEDY_ALL:
                finish = decision.finish if decision.finish in tied else None
                tried = [tied[rng.randrange(len(tied))] for _ in range(GREEDY_DRAWS)]
                if finish is not None:
                    tried.append(finish)
            else:
                tried = tied
                rng.shuffle(tried)
            if not self.judge.informed:
                if decision.finish in tried and rng.random() < FINISH_RATE:
                    tried = [decision.finish] + [a for a in tried if a != decision.finish]
                for action in tried:
                    try:
                        return (action, *self.apply(state, action))
                    except IllegalAction:
                        continue
                continue
            if len(tried) == 1:
                try:
                    return (tried[0], *self.apply(state, tried[0]))
                except IllegalAction:
                    continue
            moved = self.greedy(state, tried, side)
            if moved is not None:
                return moved
        return None
