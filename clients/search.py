"""A computer player for every ruleset, mod and new game: it looks ahead with the engine itself.

For each decision it runs a flat Monte Carlo search with progressive widening (the design is
in docs/architecture.md, "The search player"): the options are the rules' own, each sample
plays one option on a copy of the state through `engine.flow.apply`, goes on with a cheap
default policy for a few decisions, no further than the end of the current power's turn (or of
the decision's step, where the next step's automatic work would change what the rules judge),
and judges where it got with the rules' own evaluation (clients.search_judge), as the step
leaves the position if it got to its end. Chance goes through the engine's dice: every sample rolls from a dice state drawn
from the player's own seeded generator, never from the game's. The same seed and the same
iteration budget give the same play.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from clients.search_cycles import Circles
from clients.search_judge import Judge
from clients.search_policy import BEYOND, GREEDY_ALL, DefaultPolicy, Moved
from dsl.runtime import OutOfTime
from engine import flow
from engine.actions import Action, Decision, IllegalAction
from engine.state import GameState

#: seconds of CPU a decision may take unless the player is told otherwise (`search:SECONDS`)
DEFAULT_SECONDS = 1.0
#: decisions with at most this many options have every option searched from the start
ALL_AT_ONCE = 12
#: a decision with more options starts with this many drawn at random (and its finish) ...
FIRST_DRAW = 8
#: ... and one more is drawn each time the samples pass WIDEN * options-searched ** 2
WIDEN = 0.5
#: decisions a sample plays past its option (the default policy's), at most, within the
#: current power's turn, when the rules judge positions (`evaluate` or a score by side)
HORIZON = 6
#: the same when they do not: a sample then plays on, across turns, toward the game's end
BLIND_HORIZON = 400
#: exploration constant of UCB1 on the (-1, 1) scale
EXPLORE = 0.7
#: where the rules judge positions, a decision first looks once at up to this many options
#: (each played with the search's dice and judged at once: its first sample) ...
SCREEN = 256
#: ... in at most this share of its time; the options that look best are searched first
SCREEN_SHARE = 0.5
#: after a screen, the best-looking options searched from the start (and the finish); the
#: others are drawn best first as the samples grow (progressive widening)
CANDIDATES = 3
#: where the moves give priors, the default policy's own option is answered unless another
#: option's samples beat it by more than this many standard errors of their difference (each
#: of the few others searched is tested against it: at 1.0 one of four equal options beat it
#: by chance about half the time, at 2.5 about one time in forty)
STANDS = 2.5
#: where the rules give no `evaluate`: the share of a decision's time spent playing games to
#: their end, to learn what goes with winning (clients.search_learn) ...
LEARN_SHARE = 0.5
#: ... or, for a budget of samples, the moves played so, for each sample of the budget
LEARN_MOVES = 4


class Arm:
    """One option being searched: its action and what its samples were worth."""

    __slots__ = ("action", "raws", "ends", "n", "total", "goes_on")

    def __init__(self, action: Action) -> None:
        self.action = action
        self.raws: list[float] = []     # unfinished positions: the rules' values
        self.ends: list[float] = []     # finished games: +1, 0, -1
        self.n = 0
        self.total = 0.0                # on the search's scale, for the current temperature
        #: where its option ends the step: the game was seen to go on past the step's end
        #: (the rules may refuse an action in what it leads to: `_Search.played`)
        self.goes_on = False

    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0


class SearchPlayer:
    """`search`: plays any ruleset by sampling the rules' own futures of each option."""

    name = "search"
    #: `--ai SIDE=search:SECONDS` gives it its time per decision
    takes_seconds = True

    def __init__(self, seed: int = 0, seconds: float | None = None, iterations: int | None = None,
                 horizon: int | None = None, learn: bool = True, policy: bool = False) -> None:
        if seconds is not None and not seconds > 0:
            raise ValueError(f"a search needs some time per decision, not {seconds} s")
        self.rng = random.Random(seed)
        self.seconds = DEFAULT_SECONDS if seconds is None else float(seconds)
        #: a fixed number of samples per decision instead of a time (deterministic play)
        self.iterations = iterations
        self.horizon = HORIZON if horizon is None else horizon
        #: where the rules give no evaluate, learn what goes with winning from games played
        #: to their end (False: judge by the score alone, or sample to the game's end)
        self.learn = learn
        #: answer every decision with the default policy alone, no samples (what the rules'
        #: knowledge of a game is worth by itself: clients.search_policy)
        self.policy_only = policy
        self._judges: dict[int, Judge] = {}
        #: what the last decisions cost: (samples, CPU seconds) each, for benchmarks
        self.spent: list[tuple[int, float]] = []
        #: decisions with one option, answered with no search
        self.answered_at_once = 0
        #: the choices of this step that led back where they were made (not made there again)
        self.circles = Circles()
        #: (rules, step) -> does a move of the step give a prior (see `priors`)
        self._prior_steps: dict[tuple[int, str], bool] = {}
        #: the last decision whose priors were asked for, and its priors (see `priors`)
        self._last_priors: tuple[Decision | None, list[float] | None] = (None, None)
        #: a decision's kind -> the longest the default policy took to move on a decision of
        #: that kind in the last search that moved on one (CPU seconds; a budget of time
        #: only): the priors of a big decision may take tens of milliseconds, and a sample
        #: or a look stops before a move that long would pass the deadline
        self.move_time: dict[str, float] = {}
        #: a decision's kind -> the longest look of the last screen of a decision of that kind
        #: (the screen stops before a look that long would pass its share of the time)
        self.look_time: dict[str, float] = {}

    def priors(self, rs: Any, decision: Decision, deadline: float | None = None) -> list[float] | None:
        """How promising each option of the decision is for its player, by the moves' own
        `prior` (docs/rules-language.md, "Knowledge for the computer player"): an option of
        a move with none and the finish count 0. A question's answers, by the rules' prior on
        them (`let x = choose(...) prior EXPR`: the question's prompt carries it, read on the
        state asked on). None where no move of the decision's step gives a prior, or for a
        question without one (the search then plays as it would without). Worked out once
        for a decision: the search and its default policy both ask for the decision searched
        (a big decision's priors can take a large share of a small budget). OutOfTime where
        the CPU clock passes `deadline` first (nothing is kept then)."""
        last, known = self._last_priors
        if decision is last:
            return known
        priors = self._priors(rs, decision, deadline)
        self._last_priors = (decision, priors)
        return priors

    def _priors(self, rs: Any, decision: Decision, deadline: float | None) -> list[float] | None:
        if decision.kind == "choose":
            weigh = getattr(decision.prompt, "priors", None)
            return None if weigh is None else weigh(decision.asked_on)
        key = (id(rs.rules), decision.kind)
        has = self._prior_steps.get(key)
        if has is None:
            spec = rs.rules.steps.get(decision.kind)
            has = self._prior_steps[key] = spec is not None and any(m.prior is not None for m in spec.moves)
        if not has:
            return None
        return priors_of(rs, decision.options, deadline)

    def judge(self, rs: Any) -> Judge:
        j = self._judges.get(id(rs.rules))
        if j is None:
            j = self._judges[id(rs.rules)] = Judge(rs, learn=self.learn)
        return j

    def choose(self, ruleset: Any, state: GameState, decision: Decision) -> Action:
        options = decision.options
        n = len(options)
        if n == 0:
            raise RuntimeError(f"decision `{decision.kind}` for {decision.player} offers no options")
        if n == 1:
            self.answered_at_once += 1
            return options[0]
        start = time.process_time()
        if self.iterations is None and not self.policy_only:
            keep_loaded()
        barred = self.circles.barred(state, decision)
        if n - len(barred) == 1:
            self.answered_at_once += 1
            action = next(a for a in options if a not in barred)
        elif self.policy_only:
            action = self.policy_choice(ruleset, state, decision, barred)
            self.spent.append((0, time.process_time() - start))
        else:
            learner = self.judge(ruleset).learner
            if learner is not None:
                if self.iterations is not None:
                    learner.play(state, decision, self.rng, None, self.iterations * LEARN_MOVES)
                else:
                    learner.play(state, decision, self.rng, self.seconds * LEARN_SHARE, None)
            action = _Search(self, ruleset, state, decision, n, barred, start).run()
        self.circles.chose(action)
        return action

    def policy_choice(self, rs: Any, state: GameState, decision: Decision, barred: frozenset[Action]) -> Action:
        """The default policy's option (a choice that led back here before is not made
        again: the step's finish, else the first option not barred, instead)."""
        moved = DefaultPolicy(self, rs, self.judge(rs), own_dice=True).move(state, decision)
        if moved is not None and moved[0] not in barred:
            return moved[0]
        finish = decision.finish
        if finish is not None and finish not in barred:
            return finish
        return next(a for a in decision.options if a not in barred)


def keep_loaded() -> None:
    """Once a process: the objects alive at a timed search's first decision (the loaded rules,
    their compiled code and map: some 80,000 in Bulge) are moved out of the garbage
    collector's reach (`gc.freeze`, after a collection). Python's full collection goes through
    every object it tracks, and with these it took tens of milliseconds at unforeseen moments
    of a decision (docs/architecture.md, "Time"); they live as long as the game anyway."""
    global _KEPT
    if not _KEPT:
        _KEPT = True
        gc.collect()
        gc.freeze()


#: whether `keep_loaded` has run in this process
_KEPT = False


def priors_of(rs: Any, options: Sequence[Action], deadline: float | None = None) -> list[float]:
    """Each option's prior (`prior_of`), worked out in one call into the rules where the
    rules can (`CompiledRules.weigh`): a question the priors of a decision share (a power's
    landing grounds, the towns at stake) is then answered once, not once an option. Raises
    OutOfTime where the CPU clock passes `deadline` before every prior is read (the rules
    look at the clock as they go: a big decision's priors can take a small budget several
    times over)."""
    weigh: Any = getattr(rs.rules, "weigh", None)
    calls: list[tuple[Any, tuple[Any, ...]]] = []
    where: list[int] = []
    listed: Any = None
    for i, action in enumerate(options):
        offer = action.offer
        if offer is None or not isinstance(offer[1], tuple):
            continue
        state, (mv, args) = offer
        entry = getattr(mv, "prior", None)
        if entry is None:
            continue
        prior = getattr(entry, "__wrapped__", None)
        if prior is None or weigh is None or (listed is not None and state is not listed):
            return [prior_of(a) for a in options]
        listed = state
        calls.append((prior, args))
        where.append(i)
    priors = [0.0] * len(options)
    if calls:
        for i, p in zip(where, weigh(listed, calls, deadline)):
            priors[i] = float(p)
    return priors


def prior_of(action: Action) -> float:
    """One option's prior (0 for one of a move without a prior, the finish, an answer)."""
    offer = action.offer
    if offer is None or not isinstance(offer[1], tuple):
        return 0.0
    state, (mv, args) = offer
    prior = getattr(mv, "prior", None)
    return 0.0 if prior is None else float(prior(state, *args))


def best_first(priors: list[float], rng: random.Random) -> list[int]:
    """The options' indexes, the best prior LAST (they are popped from the end), ties in an
    order drawn from the search's own generator."""
    keys = [(p, rng.random(), i) for i, p in enumerate(priors)]
    keys.sort()
    return [i for _, _, i in keys]


class _Search:
    """The search of one decision."""

    def __init__(self, player: SearchPlayer, rs: Any, state: GameState, decision: Decision, n: int,
                 barred: frozenset[Action] = frozenset(), start: float | None = None) -> None:
        self.start = time.process_time() if start is None else start
        self.player, self.rs, self.state, self.decision = player, rs, state, decision
        self.rng = player.rng
        self.judge = player.judge(rs)
        #: the cheap player the samples play on (clients.search_policy)
        self.policy = DefaultPolicy(player, rs, self.judge)
        self.side = rs.logic.side_of(decision.player)
        self.where = (state.turn, state.power_index)
        self.reference = self.judge.raw(state, self.side) if self.judge.informed else 0.0
        #: when a decision searched for a time must be answered (CPU time); None for a
        #: budget of samples, whose play must not depend on the machine's speed
        self.deadline = self.start + player.seconds if player.iterations is None else None
        self.temperature: float | None = None
        self.options: Sequence[Action] = decision.options
        #: options chosen before at this same position of the step, which led back to it
        self.barred = barred
        #: where the moves give priors: the options are drawn best prior first (for the
        #: screen and progressive widening), not at random
        try:
            priors = player.priors(rs, decision, self.deadline)
        except OutOfTime:   # (searched without them: a rare decision at a small budget)
            priors = None
        self.priors = priors if n > ALL_AT_ONCE else None
        # the options not drawn yet, as indexes (drawn lazily, Fisher-Yates from the end; by
        # prior, the best last, where the moves give priors)
        self.undrawn = list(range(n)) if self.priors is None else best_first(self.priors, self.rng)
        self.arms: list[Arm] = []
        #: a big decision's finish is searched from the start (ending the step is always a
        #: candidate), so a draw passes over it
        self.finish = decision.finish if n > ALL_AT_ONCE else None
        self.samples = 0
        #: a decision's kind -> the longest a move of the default policy on one took in this
        #: search's looks and samples (what the next such move may take: `policy_move`)
        self.took: dict[str, float] = {}
        #: the longest look of the screen (a sample takes at least as long as its option's look)
        self.longest_look = 0.0
        #: screened options not searched yet, the best last (they are drawn before the others)
        self.ranked: list[Arm] = []
        #: where the moves give priors and the rules judge positions: the default policy's
        #: own option (the rulebook player's), searched from the start and answered unless
        #: the samples show another better (see `answer`)
        self.base: Arm | None = None
        #: does what follows the end of this decision's step change what the rules judge
        #: before anyone decides (the next step's automatic work: an income collected, a
        #: battle's first rolls)? Then every sample is judged no later than where the step
        #: ends, as it leaves the position, so that each option is weighed at a like point of
        #: the turn (one that ends the step would otherwise be judged after that work, and the
        #: others before it). Else samples play on past it (a Bulge activation is judged by the
        #: moves that follow it). Seen where an option ends the step (`played`)
        self.in_step = False
        if self.judge.informed and (priors is not None or n <= GREEDY_ALL):
            moved = DefaultPolicy(player, rs, self.judge, own_dice=True).move(state, decision, self.deadline)
            if moved is not None and moved[0] not in barred:
                self.base = Arm(moved[0])
        if self.judge.informed:
            self.screen()
        if self.finish is not None and not any(a.action == self.finish for a in self.arms):
            self.arms.append(Arm(self.finish))
        first = CANDIDATES if self.ranked else n if n <= ALL_AT_ONCE else FIRST_DRAW
        for _ in range(first):
            self.draw()
        if self.base is not None:
            self.base = self.searched(self.base)

    # -- the options searched ------------------------------------------------------------------------
    def screen(self) -> None:
        """Look once at up to SCREEN options, drawn at random, and the finish, within
        SCREEN_SHARE of the time (of the samples, for a budget of samples): most decisions have
        every option looked at, so the best look is what a greedy player would choose, and the
        samples after it only weigh the best few against each other. Each look is a sample
        that stops right after its option, or, where the option alone changes nothing the
        rules judge (a Bulge hex activated), after the default policy's next move of the same
        side in the same turn (not for the step's finish: ending a step is judged as it leaves
        the position, else it would borrow the next step's gains: `in_step`). The options are
        then drawn best first, each with its look as its first sample: CANDIDATES of them at
        once."""
        start = time.process_time()
        player = self.player
        most, limit = SCREEN, None
        if player.iterations is not None:
            most = min(SCREEN, int(player.iterations * SCREEN_SHARE))
        else:
            # (of the time left: learning what goes with winning may have taken some)
            limit = (player.seconds - (start - self.start)) * SCREEN_SHARE
        looked: list[tuple[float, int, Arm, tuple[str, float]]] = []
        first = [self.finish] if self.finish is not None else []
        # (the next look may take as long as the longest of this screen, or of the last
        # screen of a decision of this kind)
        longest = player.look_time.get(self.decision.kind, 0.0) if limit is not None else 0.0
        while len(looked) < most:
            if limit is not None and time.process_time() - start + longest > limit:
                break
            action = first.pop() if first else self.next_undrawn()
            if action is None:
                break
            arm = Arm(action)
            began = time.process_time()
            value = self.look(arm)
            self.longest_look = max(self.longest_look, time.process_time() - began)
            longest = max(longest, self.longest_look)
            if value is None:
                continue
            worth = value[1] * BEYOND if value[0] == "end" else value[1]
            looked.append((worth, -len(looked), arm, value))
        if limit is not None and self.longest_look > 0:
            player.look_time[self.decision.kind] = self.longest_look
        looked.sort(key=lambda t: (t[0], t[1]))
        self.ranked = [arm for _, _, arm, _ in looked]
        for _, _, arm, value in looked:
            self.record(arm, value)
        if self.finish is not None:
            for arm in self.ranked:
                if arm.action == self.finish:
                    self.ranked.remove(arm)
                    self.arms.append(arm)
                    break

    def look(self, arm: Arm) -> tuple[str, float] | None:
        """A sample of one option that stops at once (see `screen`); None if refused."""
        played = self.played(arm)
        if played is None:
            return None
        state, decision = played
        try:
            value = self.judge.worth(state, decision, self.side)
        except IllegalAction:
            return None
        if (value == ("raw", self.reference) and arm.action != self.decision.finish and decision is not None
                and decision.player == self.decision.player
                and (state.turn, state.power_index) == self.where):
            moved = self.policy_move(state, decision)
            if moved is not None:
                value = self.judge.worth(moved[1], moved[2], self.side)
        return value

    def played(self, arm: Arm) -> tuple[GameState, Decision | None] | None:
        """The arm's option played on a copy with dice of the search's own, paused where it
        ends the step (`flow.apply(..., pause=True)`); None where the rules refuse it. The first
        time it ends the step, the game is played on past the step's end on a copy of its own,
        for the rules may refuse the option in what follows (as `flow.apply` would), and where
        what follows changes what the rules judge, this decision's samples stop at the step's
        end (`in_step`)."""
        rs = self.rs
        try:
            state, decision = flow.apply(rs, self.state, arm.action, dice=self.rng.getrandbits(64), pause=True)
            if decision is None and state.result is None and not arm.goes_on:
                after = state.copy()
                went_on = flow.resume(rs, after)
                arm.goes_on = True
                if (not self.in_step and self.judge.informed
                        and self.judge.worth(after, went_on, self.side) != self.judge.worth(state, None, self.side)):
                    self.in_step = True
        except IllegalAction:
            return None
        return state, decision

    def searched(self, arm: Arm) -> Arm:
        """The arm of `arm`'s option among those searched, added if it is not one yet (with
        its look, if the screen looked at it)."""
        for a in self.arms:
            if a.action == arm.action:
                return a
        for a in self.ranked:
            if a.action == arm.action:
                self.ranked.remove(a)
                self.arms.append(a)
                return a
        self.arms.append(arm)
        return arm

    def next_undrawn(self) -> Action | None:
        """One option never looked at, at random (Fisher-Yates from the end), not the finish."""
        while self.undrawn:
            if self.priors is None:
                k = self.rng.randrange(len(self.undrawn))
                self.undrawn[k], self.undrawn[-1] = self.undrawn[-1], self.undrawn[k]
            action = self.options[self.undrawn.pop()]
            if self.finish is not None and action == self.finish or action in self.barred:
                continue
            return action
        return None

    def draw(self) -> bool:
        """Add one option not searched yet: the best screened one, else one at random; False
        when every option is searched."""
        if self.ranked:
            self.arms.append(self.ranked.pop())
            return True
        action = self.next_undrawn()
        if action is None:
            return False
        self.arms.append(Arm(action))
        return True

    def pick(self) -> Arm:
        """The arm to sample next: one never sampled first, else UCB1."""
        if (self.ranked or self.undrawn) and self.samples >= WIDEN * len(self.arms) ** 2:
            self.draw()
        for arm in self.arms:
            if arm.n == 0:
                return arm
        log_n = math.log(self.samples + 1)
        return max(self.arms, key=lambda a: a.mean() + EXPLORE * math.sqrt(log_n / a.n))

    # -- sampling -----------------------------------------------------------------------------------------
    def run(self) -> Action:
        player = self.player
        cap, deadline = player.iterations, self.deadline
        # the longest sample of the loop below so far: the next may take as long (samples
        # differ several times over in length, so their mean would let one run past the budget);
        # at first, the screen's longest look (an option ending a step may start the next)
        longest = self.longest_look
        while self.arms:
            before = time.process_time()
            if cap is not None:
                if self.samples >= cap:
                    break
            elif deadline is not None and before + longest > deadline:
                break
            arm = self.pick()
            value = self.sample(arm)
            longest = max(longest, time.process_time() - before)
            if value is None:
                self.arms.remove(arm)       # the rules refuse it when it is played
                continue
            self.record(arm, value)
        player.spent.append((self.samples, time.process_time() - self.start))
        player.move_time.update(self.took)
        if not self.arms:       # every option drawn was refused: let the rules' own first stand
            return next((a for a in self.options if a not in self.barred), self.options[0])
        return self.answer().action

    def answer(self) -> Arm:
        """The option searched best; where the default policy chose one (the moves give
        priors), that one unless the best beats it by more than STANDS standard errors of the
        difference of their samples' means: the rulebook player's move is not given up on the
        noise of a few samples (with many options, the best of a few samples each is mostly
        the luckiest, and a sample judges one position a few moves on, not the plan). Where the
        time ran out before the default policy's option was sampled (a big decision whose priors
        and screen took the budget), it stands: nothing was seen against it; and where neither
        option's samples differ from one another (no dice rolled, the same moves, judged where
        the step ends), they are one look each, which the default policy weighed already."""
        best = max(self.arms, key=lambda a: (a.n > 0, a.mean(), a.n))
        base = self.base
        if base is None or base is best or base not in self.arms:
            return best
        if best.n < 2 or base.n < 2:
            return base
        gap = best.mean() - base.mean()
        noise = math.sqrt(self.spread(best) / best.n + self.spread(base) / base.n)
        if noise < 1e-9:
            return base     # (samples that never differ are one look each, repeated)
        return best if gap > STANDS * noise else base

    def spread(self, arm: Arm) -> float:
        """The variance of an arm's samples on the search's scale."""
        t = self.temperature or 1.0
        values = arm.ends + [Judge.squash(r, self.reference, t) for r in arm.raws]
        mean = sum(values) / len(values)
        return sum((v - mean) ** 2 for v in values) / (len(values) - 1)

    def sample(self, arm: Arm) -> tuple[str, float] | None:
        """Play the arm's option with dice of the search's own, then the default policy for
        a few decisions; what it came to ("end", +1/0/-1) or ("raw", the rules' value).
        None when the rules refuse the option itself."""
        played = self.played(arm)
        if played is None:
            return None
        state, decision = played
        informed = self.judge.informed
        for _ in range(self.player.horizon if informed else BLIND_HORIZON):
            if decision is None and state.result is None:
                # paused where its step is over: judged there, where the options of this
                # decision are judged by the step they belong to, else played on
                if self.in_step:
                    break
                try:
                    decision = flow.resume(self.rs, state)
                except IllegalAction:
                    break   # (what the last move led to refused it: judged where it stood)
            if decision is None or (informed and (state.turn, state.power_index) != self.where):
                break
            moved = self.policy_move(state, decision)
            if moved is None:
                break   # (or no time for another move: this sample is judged where it got)
            _, state, decision = moved
        try:
            return self.judge.worth(state, decision, self.side)
        except IllegalAction:
            return None     # (the option's own step's end refused it: see `played`)

    def policy_move(self, state: GameState, decision: Decision) -> Moved | None:
        """The default policy's move on a sample's decision; None where it refuses every
        option, or where it would pass the deadline (a budget of time only): a move on a
        decision of this kind has taken that long before, or its priors are still being
        read at the deadline."""
        deadline = self.deadline
        if deadline is None:
            return self.policy.move(state, decision)
        kind = decision.kind
        now = time.process_time()
        if now + max(self.took.get(kind, 0.0), self.player.move_time.get(kind, 0.0)) > deadline:
            return None
        moved = self.policy.move(state, decision, deadline)
        took = time.process_time() - now
        if moved is not None and took > self.took.get(kind, 0.0):
            self.took[kind] = took
        return moved

    # -- values ---------------------------------------------------------------------------------------------
    def record(self, arm: Arm, value: tuple[str, float]) -> None:
        kind, v = value
        (arm.ends if kind == "end" else arm.raws).append(v)
        arm.n += 1
        self.samples += 1
        if self.temperature is None or self.samples & (self.samples - 1) == 0:
            self.rescale()
        elif kind == "end":
            arm.total += v
        else:
            arm.total += Judge.squash(v, self.reference, self.temperature)

    def rescale(self) -> None:
        """Choose the temperature from how far the samples so far moved the rules' value
        (on powers of two of the samples), and work every arm's total out again."""
        gaps = [abs(r - self.reference) for arm in self.arms + self.ranked for r in arm.raws]
        spread = sum(gaps) / len(gaps) if gaps else 0.0
        self.temperature = spread if spread > 0 else (self.temperature or 1.0)
        t = self.temperature
        for arm in self.arms + self.ranked:
            arm.total = sum(arm.ends) + sum(Judge.squash(r, self.reference, t) for r in arm.raws)
