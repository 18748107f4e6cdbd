"""The battle calculator a player keeps open while planning: two forces counted by unit kind,
the space they fight in, and their odds from the ruleset's own combat rules (clients.odds, or
clients.odds_attack where combat is one attack at a hex, as in Battle of the Bulge).

It opens empty, or filled in from the battle about to be fought in a game; then units are
added and taken away per kind on either side. While the forces are still the game's own, the
odds are those of the battle as it stands in the game (its damage, its round, its space);
once changed, of the forces counted, fought in the same space. `job()` is the calculation,
to run away from the window (clients.gui_reckon); it returns the report `wargame odds --json`
prints, with "kind" "battle" or "attack". No pyglet here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from clients import odds, odds_attack
from clients.odds_setup import MOST_UNITS, from_game, pending_battles, set_up

SIDES = ("attacker", "defender")


def one_attack(rs: Any) -> bool:
    """Whether the ruleset's combat is one attack at a hex (Bulge), not rounds of a battle."""
    return not rs.rules.has_procedure("start_battle") and odds_attack.fits(rs.rules)


@dataclass
class Calculator:
    rs: Any
    #: the unit kinds a player can add, in the rules' order
    kinds: list[str]
    attacking: dict[str, int] = field(default_factory=dict)
    defending: dict[str, int] = field(default_factory=dict)
    #: the space fought in (None: a fitting one, as `wargame odds` picks)
    where: str | None = None
    #: the game's state while the forces are the battle's own in it (None once changed)
    state: Any = None
    #: the battle's space as players read it, and the powers, when filled in from a game
    where_name: str = ""
    powers: tuple[str, str] = ("", "")

    def side(self, side: str) -> dict[str, int]:
        return self.attacking if side == "attacker" else self.defending

    def change(self, side: str, kind: str, by: int) -> bool:
        """Add (`by` > 0) or take away units of `kind` on `side`; whether anything changed."""
        force = self.side(side)
        n = min(MOST_UNITS, max(0, force.get(kind, 0) + by))
        if n == force.get(kind, 0):
            return False
        if n:
            force[kind] = n
        else:
            force.pop(kind, None)
        if kind not in self.kinds:
            self.kinds.append(kind)
        self.state = None                  # no longer the game's battle as it stands
        return True

    def clear(self) -> None:
        self.attacking.clear()
        self.defending.clear()
        self.state = None

    def text(self, side: str) -> str:
        """A side's units as `wargame odds` reads them ("3 Infantry, 1 Tank")."""
        return ", ".join(f"{n} {k}" for k, n in self.side(side).items() if n)

    def job(self) -> Callable[[], dict[str, Any]]:
        """The calculation of the odds as the forces stand now (for clients.gui_reckon)."""
        rs, state, where = self.rs, self.state, self.where
        attacking, defending = self.text("attacker"), self.text("defender")
        powers = self.powers if all(self.powers) else None

        def run() -> dict[str, Any]:
            return reckon(rs, attacking, defending, where, state, powers)

        return run


def reckon(rs: Any, attacking: str, defending: str, where: str | None = None, state: Any = None,
           powers: tuple[str, str] | None = None) -> dict[str, Any]:
    """The odds of a battle as `wargame odds --json` gives them, with "kind". With `state`,
    the battle in `where` as it stands in that game; with `powers` (attacker, defender), the
    forces counted fight as those powers (a game's battle once changed keeps its sides). Raises odds.OddsError with a player's
    line when there is no such battle (an empty side, a unit that cannot fight there)."""
    from clients.odds_cli import as_json

    if one_attack(rs):
        report = odds_attack.odds(odds_attack.set_up(rs, attacking, defending, where, powers))
        report["kind"] = "attack"
        return report
    if state is not None and where is not None:
        battle = from_game(rs, state, where)
    else:
        battle = set_up(rs, attacking, defending, where, powers=powers)
    report = as_json(battle, odds.odds(battle), "triplea", None)
    report["kind"] = "battle"
    return report


def unit_kinds(rs: Any) -> list[str]:
    """The unit kinds of the rules, in their order."""
    return list(rs.rules.units)


def empty(rs: Any, where: str | None = None) -> Calculator:
    """A calculator with no units yet (in `where`, else a fitting space)."""
    return Calculator(rs, unit_kinds(rs), where=where)


def pending(game: Any) -> list[str]:
    """The spaces where the game's current decision is about to fight a battle."""
    d = game.decision
    if d is None or one_attack(game.ruleset):
        return []
    return pending_battles(game.ruleset, game.state, d.options)


def for_battle(game: Any, where: str) -> Calculator:
    """A calculator filled in from the battle about to be fought in `where` of `game`."""
    battle = from_game(game.ruleset, game.state, where)
    kinds = unit_kinds(game.ruleset)
    return Calculator(game.ruleset, kinds, dict(battle.attacking), dict(battle.defending), where, game.state,
                      battle.where_name, (battle.attacker, battle.defender))


def for_game(game: Any) -> Calculator:
    """The calculator a player opens in a game: the battle about to be fought, if there is
    one, else empty."""
    for where in pending(game):
        try:
            return for_battle(game, where)
        except odds.OddsError:
            continue
    return empty(game.ruleset)


def fighting(game: Any, spaces: Iterable[str]) -> tuple[str, list[Any], list[Any]] | None:
    """The first of `spaces` where a battle stands in the game now: the space, its attackers
    and its defenders (the rules' `attackers` and `defenders`)."""
    rules = game.ruleset.rules
    if not all(rules.has_procedure(n) for n in ("attackers", "defenders")):
        return None
    s = game.state.snapshot()
    for sid in spaces:
        if sid not in s.board:
            continue
        a, d = rules.procedure("attackers")(s, sid), rules.procedure("defenders")(s, sid)
        if a and d:
            return sid, list(a), list(d)
    return None


def to_hit(game: Any, units: list[Any], attacking: bool) -> list[tuple[str, int | None, int]]:
    """(kind, the value it hits on or under, how many) for a side's units, from the rules'
    `attack_values` or `defence_values` (support and technology included); None where the
    rules have no such procedure."""
    rules = game.ruleset.rules
    name = "attack_values" if attacking else "defence_values"
    values: list[Any] = [None] * len(units)
    if rules.has_procedure(name):
        values = list(rules.procedure(name)(game.state.snapshot(), units))
    counts: dict[tuple[str, int | None], int] = {}
    for u, v in zip(units, values):
        counts[(u.kind, v)] = counts.get((u.kind, v), 0) + 1
    return [(k, v, n) for (k, v), n in counts.items()]


def now(game: Any, spaces: Iterable[str] = ()) -> tuple[str, list[Any], list[Any], bool] | None:
    """The battle of the game now: about to be fought (True), else going on in one of
    `spaces` (the battle being followed; False)."""
    for where in pending(game):
        found = fighting(game, [where])
        if found is not None:
            return (*found, True)
    found = fighting(game, spaces)
    return None if found is None else (*found, False)


def count(units: list[Any]) -> str:
    """Units as `wargame odds` reads them ("2 Infantry, 1 Tank")."""
    c: dict[str, int] = {}
    for u in units:
        c[u.kind] = c.get(u.kind, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in c.items())
