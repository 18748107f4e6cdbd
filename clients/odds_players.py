"""Battle odds for the computer players, taken from the ruleset's own combat rules.

`RulesOdds` answers engine.odds_protocol.BattleOdds with the battle calculator (clients.odds,
clients.odds_attack): the forces are put on a copy of the game's state that holds only them
(the space's own rules apply: its terrain, the turn, the options such as Low Luck), the rules
start the battle, and the calculator fights it out. A computer player asks many battles a
decision, so an answer must be quick: a battle is worked out exactly when it takes few rule
runs, else sampled through the same rules with a few battles (both fewer once the decision
has used its share of time), and every answer is kept for the turn (the same forces in the same
space are asked again and again while a player plans).

A decision's time is counted from the work its odds did (rule runs and battles sampled, at
the rates below), never read from a clock: the same game and seed give the same answers on
any machine, under any load, in any process (`wargame simulate`'s workers, `play --seed`).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from clients import odds, odds_attack
from clients.odds_policy import policy
from engine.odds_protocol import AttackChance, BattleChance
from engine.state import GameState

#: CPU seconds a decision's odds may take before they are answered with few rule runs (as
#: counted from their work: RUNS_COUNTED, BATTLES_COUNTED)
DECISION_SECONDS = 0.3
#: rule runs an exact answer may take, and battles sampled when a battle is larger (fewer as
#: the decision's time runs out: the rules run some 6,000 rounds or 250 battles of a
#: middling LHTR or AARHE battle a second) ...
EXACT_RUNS = 2_500
RUNS_A_SECOND = 6_000
SAMPLES = 48
BATTLES_A_SECOND = 250
#: ... and once the decision has used its time (a few hundredths of a second a battle)
FEW_RUNS = 80
FEW_SAMPLES = 10
#: one attack (Bulge: one roll at a hex) is worked out exactly up to so many dice, within so
#: many rule runs ...
ATTACK_EXACT_DICE = 3
ATTACK_RUNS = 2_000
#: ... and sampled so many times when it has more dice (an attack's answer takes no share of
#: the decision's time)
ATTACK_SAMPLES = 200
#: what a decision's odds count as the CPU seconds they took: so many rule runs (of an exact
#: answer, or spent on one given up) and battles sampled a second, as measured in LHTR and
#: AARHE games (a decision's time is shared out by the lower figures above)
RUNS_COUNTED = 12_000
BATTLES_COUNTED = 1_500
#: answers kept before the cache is emptied
MOST_KEPT = 20_000


class RulesOdds:
    """engine.odds_protocol.BattleOdds through the rules: exact where small, sampled
    otherwise, each answer kept for the turn, each decision's odds held to a time budget
    counted from their work."""

    def __init__(self, exact_runs: int = EXACT_RUNS, samples: int = SAMPLES, few_runs: int = FEW_RUNS,
                 few_samples: int = FEW_SAMPLES, decision_seconds: float = DECISION_SECONDS) -> None:
        self.exact_runs = exact_runs
        self.samples = samples
        self.few_runs = min(few_runs, exact_runs)
        self.few_samples = few_samples
        self.decision_seconds = decision_seconds
        self._kept: dict[Any, Any] = {}
        self._turn: Any = None
        #: the state the last question was about, held: an id() would be given again to
        #: another state once this one is gone, and a question about that state taken for
        #: one of this decision (its scratch state, its clock, its answers of one attack)
        self._decision: Any = None
        self._question = 0                      # the decisions asked about so far
        self._spent = 0.0
        self._empty: GameState | None = None
        #: answers worked out and how: exact, sampled (for benchmarks and tests)
        self.counts: Counter[str] = Counter()

    # -- the protocol -------------------------------------------------------------------------
    def battle(self, rs: Any, state: Any, attackers: Sequence[Any], where: str,
               defenders: Sequence[Any] | None = None) -> BattleChance:
        self._new_question(state)
        if defenders is None:
            ids = {u.id for u in attackers}
            owners = {u.owner for u in attackers}
            defenders = [p for p in state.pieces_at(where)
                         if p.id not in ids and p.owner not in owners and p.carrier is None]
        if not attackers:
            return BattleChance(0.0, 0.0 if defenders else 1.0, 1.0, 0.0, 0.0)
        key = ("battle", id(rs), where, state.control.get(where), state.power_index,
               _force(attackers), _force(defenders))
        got = self._kept.get(key)
        if got is None:
            got = self._kept[key] = self._battle(rs, state, attackers, where, defenders, key)
        return got  # type: ignore[no-any-return]

    def attack(self, rs: Any, state: Any, dice: int, where: str, defenders: Sequence[Any]) -> AttackChance:
        self._new_question(state)
        key = ("attack", id(rs), self._question, where, dice, tuple(u.id for u in defenders))
        got = self._kept.get(key)
        if got is None:
            got = self._kept[key] = self._attack(rs, state, dice, where, defenders)
        return got  # type: ignore[no-any-return]

    # -- the work -----------------------------------------------------------------------------
    def _new_question(self, state: Any) -> None:
        """A question about another state is another decision: its clock starts again. A new
        turn (the units' positions, the turn's own rules) empties the cache."""
        if state is not self._decision:
            self._decision = state
            self._question += 1
            self._spent = 0.0
            self._empty = None
        turn = (state.turn, state.power_index)
        if turn != self._turn or len(self._kept) > MOST_KEPT:
            self._turn = turn
            self._kept.clear()

    def _scratch(self, state: Any) -> GameState:
        """The decision's state with no pieces on it (made once a decision)."""
        if self._empty is None:
            empty = state.snapshot()
            for pid in list(empty.pieces):
                empty.remove(pid)
            empty.answers, empty.answer_i = (), 0
            empty.events.clear()
            self._empty = empty
        return self._empty.copy()

    def _battle(self, rs: Any, state: Any, attackers: Sequence[Any], where: str, defenders: Sequence[Any],
                key: Any) -> BattleChance:
        rules = rs.rules
        s = self._scratch(state)
        for u in attackers:
            s.add_piece(u.kind, u.owner, where, hits=u.hits)
        for u in defenders:
            s.add_piece(u.kind, u.owner, where, hits=u.hits)
        attacker = attackers[0].owner
        defender = defenders[0].owner if defenders else ""
        rules.procedure("start_battle")(s, where)
        s.events.clear()
        s.answer_hook = answer = policy("triplea", rules.units, attacker)
        fight = odds.Battle(rules, where, attacker, defender, s, answer)
        # what the decision's time left allows: half of it for the rule runs of an exact
        # answer (a battle too large spends them before it is sampled), half for sampling
        left = max(0.0, self.decision_seconds - self._spent) / 2
        runs = max(self.few_runs, min(self.exact_runs, int(left * RUNS_A_SECOND)))
        samples = max(self.few_samples, min(self.samples, int(left * BATTLES_A_SECOND)))
        seed = zlib.crc32(repr(key[2:]).encode())
        out = odds.odds(fight, budget=runs, fallback_samples=samples, seed=seed, fallback_seconds=None)
        self.counts["exact" if out.exact else "sampled"] += 1
        # the time it took, counted from its work (a clock would make the same game play
        # otherwise on another machine, or in another run on this one)
        self._spent += (out.runs if out.exact else out.tried) / RUNS_COUNTED + out.battles / BATTLES_COUNTED
        a_loss = out.attacker_cost_lost if out.attacker_cost_lost is not None else out.attacker_losses
        d_loss = out.defender_cost_lost if out.defender_cost_lost is not None else out.defender_losses
        return BattleChance(out.attacker_wins, out.attacker_wins + out.both_destroyed,
                            out.defender_wins + out.both_destroyed, a_loss, d_loss,
                            [(p, left) for p, left in out.attacker_survivors if left], out.exact)

    def _attack(self, rs: Any, state: Any, dice: int, where: str, defenders: Sequence[Any]) -> AttackChance:
        s = state.snapshot()
        s.answers, s.answer_i = (), 0
        s.events.clear()
        attack = odds_attack.Attack(rs.rules, where, where, "", defenders[0].owner if defenders else "", dice, {},
                                    [(u.id, u.kind) for u in defenders], s)
        # every way a few dice fall; past that, a few hundred attacks sampled
        out = odds_attack.odds(attack, budget=ATTACK_RUNS, seed=dice) if dice <= ATTACK_EXACT_DICE else \
            odds_attack.odds(attack, samples=ATTACK_SAMPLES, seed=dice)
        self.counts[out["method"]] += 1
        fates = {pid: (u["destroyed"], u["retreats"], u["untouched"])
                 for (pid, _), u in zip(attack.defending, out["defenders"])}
        return AttackChance(fates, out["hex_cleared"], out["method"] == "exact")


def _force(units: Sequence[Any]) -> tuple[tuple[tuple[str, str, int], int], ...]:
    """A side as the battle sees it: how many of each (owner, kind, damage)."""
    return tuple(sorted(Counter((u.owner, u.kind, u.hits) for u in units).items()))


def takes_odds(factory: Any) -> bool:
    """Whether a computer player is to be given battle odds when it is seated."""
    return bool(getattr(factory, "takes_odds", False))
