"""What a ruleset's computer player asks of battle odds, so that it takes them from the rules.

The odds themselves are worked out through the ruleset's own combat rules by the clients
(clients.odds, clients.odds_attack), which a ruleset may not import: a computer player is
given an object answering this protocol (clients.odds_players.RulesOdds) when it is seated,
and asks it instead of keeping a second copy of combat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

#: survivors of one side: (chance, {unit kind: how many}), most likely first
Survivors = list[tuple[float, dict[str, int]]]


@dataclass(frozen=True)
class BattleChance:
    """How a battle fought to the end is likely to go, for the attacker."""

    #: the attacker is left standing and the defender is not
    win: float
    #: the defenders are all gone (won, or both sides destroyed)
    clear: float
    #: the attackers are all gone (lost, or both sides destroyed)
    lose: float
    #: expected cost of what each side loses (units where the rules give no cost)
    att_loss: float
    def_loss: float
    #: the attacker's survivors when it wins, and their chances (for "with a unit that can
    #: take the space")
    att_survivors: Survivors = field(default_factory=list)
    #: worked out exactly (else sampled through the rules)
    exact: bool = True

    @property
    def gain(self) -> float:
        """Expected cost destroyed minus expected cost lost."""
        return self.def_loss - self.att_loss

    def win_with(self, keeps: Any) -> float:
        """The chance the attacker wins with a survivor of a kind `keeps(kind)` accepts (a
        land unit, to take a territory)."""
        return sum(p for p, left in self.att_survivors if any(n and keeps(k) for k, n in left.items()))


@dataclass(frozen=True)
class AttackChance:
    """What one attack (a single roll at a hex's defenders) does, per defending piece."""

    #: piece id -> (chance destroyed, chance it retreats, chance untouched)
    fates: dict[int, tuple[float, float, float]]
    #: the chance no defender is left untouched
    cleared: float
    exact: bool = True


class BattleOdds(Protocol):
    """Battle odds from the rules, for a computer player deciding where to fight."""

    def battle(self, rs: Any, state: Any, attackers: Sequence[Any], where: str,
               defenders: Sequence[Any] | None = None) -> BattleChance:
        """The odds if `attackers` (pieces of the power to play, wherever they stand now)
        fought `defenders` (default: the enemy pieces in `where`) in `where` to the end."""
        ...

    def attack(self, rs: Any, state: Any, dice: int, where: str, defenders: Sequence[Any]) -> AttackChance:
        """The odds of one attack of `dice` dice at `defenders` in `where`."""
        ...
