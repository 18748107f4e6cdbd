"""Sampled battles that run the rules once per distinct (battle state, dice outcome): a tree
remembers what each round did, so that a later sample reaching the same state and rolling the
same dice replays the remembered outcome instead of running the rules again.

A battle calculator samples thousands of battles of the same two forces; they pass through
few distinct states (who is still standing), and from each state a round's dice fall in few
ways that matter (a `roll_hits` is a number of hits). The tree is

    round state --dice of its first roll--> ... --dice of its last roll--> next round state

Each round state holds the first roll its round asks for (how many dice, hitting on what);
each outcome of that roll leads to the next roll the rules asked for after it, and the last
to the state the round left and whether the battle goes on. A sample walks it, drawing each
roll from its own random numbers exactly as a battle run through the rules would; where the
walk meets dice it has not seen, the round is run through the rules from its state, the
dice drawn so far given back to it, and the tree grows by what it did.

So with the same seed, remembering and running every round (`remember=False`) give the very
same battles. The tree assumes what the exact calculator assumes: a round depends on the
units standing in the battle (the state's `key`) and on whether it is the first round, and
on nothing else. Where the rules show otherwise (a round asks for dice other than the tree
remembers for the same state and dice so far: an unalike round), the tree stops
remembering and every later round is run through the rules. Its memory is bounded (rolls,
states and the pieces those states hold); when full, rounds it does not know are run
through the rules and not remembered.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Hashable
from typing import Any

from engine.chance import hit_counts
from engine.state import GameState

#: the outcomes of rolls remembered, the round states, and the pieces those states hold
MOST_ROLLS = 200_000
MOST_STATES = 20_000
MOST_PIECES = 2_000_000


class _Node:
    """A roll the rules ask for (`ask`: ("hits", values, sides) or ("dice", n, sides)) and
    where each of its outcomes leads; or, as a leaf, how the round ended (`end`)."""

    __slots__ = ("ask", "cdf", "kids", "end", "state", "after")

    def __init__(self, state: GameState | None = None) -> None:
        self.ask: tuple[Any, ...] | None = None
        #: a `roll_hits`' chance of at most 0, 1, ... hits (Battles._cdf), to draw it quickly
        self.cdf: list[float] | None = None
        self.kids: dict[Any, _Node] = {}
        #: (key, battle goes on, state) of the round's end
        self.end: tuple[Hashable, bool, GameState] | None = None
        #: a round state's own state, to run its round from (None in the other nodes)
        self.state: GameState = state  # type: ignore[assignment]
        #: a leaf's next round state, once looked up
        self.after: _Node | None = None


class Battles:
    """Battles of one starting state sampled round by round through `fight` (one round of
    the rules, true while the battle goes on), remembering rounds in a tree or not."""

    def __init__(self, fight: Callable[[GameState], Any], key: Callable[[GameState], Hashable],
                 start: GameState, remember: bool = True, most_rolls: int = MOST_ROLLS,
                 most_states: int = MOST_STATES, most_pieces: int = MOST_PIECES) -> None:
        self.fight, self.key, self.start = fight, key, start
        self.remember = remember
        self.most_rolls, self.most_states, self.most_pieces = most_rolls, most_states, most_pieces
        #: rounds run through the rules
        self.rule_runs = 0
        #: what was remembered: roll outcomes, round states, pieces those states hold
        self.rolls = self.states = self.pieces = 0
        #: why the tree stopped remembering, if it did ("full", "unalike")
        self.stopped = ""
        self._rounds: dict[Hashable, _Node] = {}
        self._root = _Node(start)
        self._cdfs: dict[tuple[tuple[int, ...], int], list[float]] = {}
        #: the differences between states of the same units already found harmless
        self._checked: set[str] = set()

    # -- drawing dice: the same random numbers whether a round is run or replayed ----------
    def _cdf(self, values: tuple[int, ...], sides: int) -> list[float]:
        """The chance of at most 0, 1, ... hits of a `roll_hits` of these values."""
        c = self._cdfs.get((values, sides))
        if c is None:
            c, total = [], 0.0
            for p in hit_counts(list(values), sides, 1.0):
                total += p
                c.append(total)
            c[-1] = math.inf                # (all hit at most: whatever the sum's rounding)
            self._cdfs[(values, sides)] = c
        return c

    def _draw(self, ask: tuple[Any, ...], rnd: random.Random) -> Any:
        """A roll's outcome (`_through_rules` draws the same, written out for speed)."""
        if ask[0] == "hits":
            return bisect_right(self._cdf(ask[1], ask[2]), rnd.random())
        sides = ask[2]
        r = rnd.random
        return tuple(int(r() * sides) + 1 for _ in range(ask[1]))

    def _run(self, state: GameState, rnd: random.Random, given: list[Any],
             rolls: list[tuple[tuple[Any, ...], Any]] | None = None,
             expected: list[tuple[Any, ...]] | None = None) -> tuple[Hashable, bool, GameState]:
        """One round through the rules from a copy of `state`: its first rolls take the
        outcomes `given` (while they ask for the `expected` rolls, when given), the others
        are drawn; each roll (ask, outcome) is noted in `rolls`."""
        work = state.copy()
        work.events = []
        script = list(reversed(given))
        draw = self._draw

        def roll(ask: tuple[Any, ...]) -> Any:
            if script and expected is not None and expected[len(given) - len(script)] != ask:
                script.clear()
            out = script.pop() if script else draw(ask, rnd)
            if rolls is not None:
                rolls.append((ask, out))
            return out

        work.hits_hook = lambda values, sides: roll(("hits", tuple(values), sides))
        work.dice_hook = lambda n, sides: list(roll(("dice", n, sides)))
        going = bool(self.fight(work))
        self.rule_runs += 1
        work.events.clear()
        return self.key(work), going, work

    # -- one battle ---------------------------------------------------------------------------
    def fight_one(self, rnd: random.Random, most_rounds: int) -> tuple[Hashable, GameState, int]:
        """One battle to its end or `most_rounds`: (its end's key, end state, rounds after
        which it went on)."""
        if not self.remember:
            return self._through_rules(self.start, rnd, most_rounds, 0)
        node = self._root
        rounds = 0
        r = rnd.random
        if self.stopped == "unalike":
            return self._through_rules(self.start, rnd, most_rounds, 0)
        while rounds < most_rounds:
            n = node
            given: list[Any] = []
            while n.end is None:
                c = n.cdf
                if c is not None:
                    out = bisect_right(c, r())
                elif n.ask is not None:
                    out = self._draw(n.ask, rnd)
                else:
                    break
                given.append(out)
                nxt = n.kids.get(out)
                if nxt is None:
                    break
                n = nxt
            leaf: _Node | None = n if n.end is not None else self._grow(node, given, rnd)
            if leaf is None:            # the tree is full: this round through the rules
                key, going, state = self._run(node.state, rnd, given)
            else:
                key, going, state = leaf.end  # type: ignore[misc]
            if not going:
                return key, state, rounds
            rounds += 1
            if self.stopped == "unalike":
                return self._through_rules(state, rnd, most_rounds, rounds)
            after = leaf.after if leaf is not None else None
            if after is None:
                after = self._rounds.get(key)
                if after is not None and not self._alike(state, after):
                    return self._through_rules(state, rnd, most_rounds, rounds)
                if after is None:
                    after = _Node(state)
                    if self._room(state):
                        self._rounds[key] = after
                        self.states += 1
                if leaf is not None and key in self._rounds:
                    leaf.after = after
            node = after
        return self.key(node.state), node.state, rounds

    def _through_rules(self, state: GameState, rnd: random.Random, most_rounds: int,
                       rounds: int) -> tuple[Hashable, GameState, int]:
        """The rest of a battle, every round through the rules, fought in place on one copy
        of `state` (the sampling loop the tree replaces, drawing the same dice)."""
        work = state.copy()
        work.events = []
        cdf, r = self._cdf, rnd.random
        work.hits_hook = lambda values, sides: bisect_right(cdf(tuple(values), sides), r())
        work.dice_hook = lambda n, sides: [int(r() * sides) + 1 for _ in range(n)]
        fight = self.fight
        while rounds < most_rounds:
            self.rule_runs += 1
            if not fight(work):
                break
            rounds += 1
            work.events.clear()
        return self.key(work), work, rounds

    def _alike(self, state: GameState, node: _Node) -> bool:
        """May `state` take the round remembered for `node`, whose state has the same units
        standing? Yes where the two states agree in everything else the rules keep (their
        variables and data); where they differ (LHTR's round counter), the first time each
        difference is met the round is run from `state` along a path the tree remembers, with
        dice of its own (the sampled battles' are not touched), and must ask for the same
        rolls and end the same way. Else the tree stops: the rounds are unalike."""
        other = node.state
        if other is None or other is state or (state.vars == other.vars and state.data == other.data):
            return True
        differs = repr([sorted((k, mine.get(k), theirs.get(k)) for k in mine.keys() | theirs.keys()
                               if mine.get(k) != theirs.get(k))
                        for mine, theirs in ((state.vars, other.vars), (state.data, other.data))])
        if differs in self._checked:
            return True
        self._checked.add(differs)
        path: list[tuple[tuple[Any, ...], Any]] = []
        n = node
        while n.end is None and n.ask is not None and n.kids:
            out, nxt = next(iter(n.kids.items()))
            path.append((n.ask, out))
            n = nxt
        if n.end is None:                   # (a round state never run: nothing to hold it to)
            return True
        rolls: list[tuple[tuple[Any, ...], Any]] = []
        key, going, _ = self._run(state, random.Random(0), [o for _, o in path], rolls, [a for a, _ in path])
        if rolls == path and (key, going) == n.end[:2]:
            return True
        self.stopped = "unalike"
        return False

    def _room(self, state: GameState) -> bool:
        if self.stopped:
            return False
        if (self.rolls >= self.most_rolls or self.states >= self.most_states
                or self.pieces + len(state.pieces) > self.most_pieces):
            self.stopped = "full"
            return False
        return True

    def _grow(self, node: _Node, given: list[Any], rnd: random.Random) -> _Node | None:
        """Run the round of `node` through the rules with the dice `given` and then drawn,
        remembering each roll it asked for and how it ended. None when the tree is full
        (the caller runs the round without remembering). An unalike round stops the tree:
        its end is given back, not remembered."""
        if not self._room(node.state):
            return None
        rolls: list[tuple[tuple[Any, ...], Any]] = []
        end = self._run(node.state, rnd, given, rolls)
        leaf = _Node()
        leaf.end = end
        # first where the round leaves the tree, and whether the rules asked what it remembers
        n, at = node, 0
        for ask, out in rolls:
            if n.end is not None or (n.ask is not None and n.ask != ask):
                self.stopped = "unalike"
                return leaf
            nxt = n.kids.get(out) if n.ask is not None else None
            if nxt is None:
                break
            n, at = nxt, at + 1
        else:
            if n.ask is not None or n.end is not None:
                self.stopped = "unalike"          # the round ended where the tree rolls on
                return leaf
        new = len(rolls) - at
        if self.rolls + new > self.most_rolls or self.pieces + len(end[2].pieces) > self.most_pieces:
            self.stopped = "full"
            return leaf
        for ask, out in rolls[at:]:
            if n.ask is None and ask[0] == "hits":
                n.cdf = self._cdf(ask[1], ask[2])
            n.ask = ask
            nxt = _Node()
            n.kids[out] = nxt
            n = nxt
        self.rolls += new
        n.end = end
        self.pieces += len(end[2].pieces)
        return n
