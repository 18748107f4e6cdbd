"""The odds of one attack, for a ruleset whose combat is one roll at a hex's defenders
(Battle of the Bulge: the attack's dice placed on the defenders' combat strips), taken from the
ruleset's own rules: `attack_dice(attackers)` and `fire_at_ground(dice, defenders)`, which
destroys the units it kills and returns those that must retreat. Every way the dice can fall
is run through them (engine.chance; the faces of one roll are placed as a multiset, so a roll
branches on which faces came up, not their order), or, past a budget, sampled.

For each defending unit: the chance it is destroyed, retreats or is untouched; the chance the
hex is cleared (nobody left untouched); the expected attack power and supply destroyed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clients.odds import OddsError
from clients.odds_setup import find_space, forces
from engine import chance

NEEDS = ("attack_dice", "fire_at_ground")
#: rule runs an exact answer may take
BUDGET = 20_000


def fits(rules: Any) -> bool:
    return all(rules.has_procedure(n) for n in NEEDS)


@dataclass
class Attack:
    rules: Any
    where: str
    where_name: str
    attacker: str
    defender: str
    dice: int
    attacking: dict[str, int]
    defending: list[tuple[int, str]]      # (piece id, kind), in the order of the pieces
    state: Any


def set_up(rs: Any, attacking: str, defending: str, where: str | None = None,
           powers: tuple[str, str] | None = None) -> Attack:
    rules = rs.rules
    a_force, d_force = forces(rules.units, attacking, defending)
    state = rs.logic.new_state(rs.info.scenarios[0].name, 0)
    sides = list(rules.sequence.powers) if rules.sequence is not None else []
    if len(sides) < 2:
        raise OddsError(f"the rules of `{rs.info.name}` have no two sides")
    attacker, defender = powers if powers is not None and all(p in sides for p in powers) else (sides[0], sides[1])
    for p in list(state.pieces.values()):
        state.remove(p.id)
    board = state.board
    space = find_space(board, where) if where is not None else \
        min(board.spaces.values(), key=lambda s: (len(s.attrs), s.id)).id
    near = board.neighbours(space)
    if not near:
        raise OddsError(f"{board.titles.get(space, space)} has no neighbour to attack from")
    attackers = [state.add_piece(k, attacker, near[0]) for k, n in a_force.items() for _ in range(n)]
    defenders = [state.add_piece(k, defender, space) for k, n in d_force.items() for _ in range(n)]
    dice = int(rules.procedure("attack_dice")(state, attackers))
    state.events.clear()
    return Attack(rules, space, board.titles.get(space, space), attacker, defender, dice, a_force,
                  [(u.id, u.kind) for u in defenders], state)


def odds(attack: Attack, samples: int | None = None, seed: int = 0, budget: int = BUDGET) -> dict[str, Any]:
    fire = attack.rules.procedure("fire_at_ground")
    ids = [pid for pid, _ in attack.defending]

    def run(s: Any) -> tuple[str, ...]:
        retreat = {u.id for u in fire(s, attack.dice, [s.pieces[i] for i in ids])}
        return tuple("destroyed" if i not in s.pieces else "retreats" if i in retreat else "untouched" for i in ids)

    method, note = "exact", ""
    found: list[tuple[Any, Any]] = []
    if samples is None:
        try:
            found = chance.outcomes(run, attack.state, limit=budget, exact=False, alike=True)
        except chance.TooManyOutcomes:
            samples, note = 20_000, f"too many ways for {attack.dice} dice to fall within {budget:,} rule runs: sampled"
    if samples is not None:
        method = "sampled"
        found = chance.sample(run, attack.state, samples, seed)
    units = attack.rules.units
    per = []
    for i, (pid, kind) in enumerate(attack.defending):
        share = {w: sum(p for p, r in found if r[i] == w) for w in ("destroyed", "retreats", "untouched")}
        per.append({"unit": f"{kind} #{pid}", "kind": kind, **share})
    power = sum(p * sum(int(getattr(units[k], "attack", 0) or 0) for (_, k), w in zip(attack.defending, r)
                        if w == "destroyed") for p, r in found)
    supply = sum(p * sum(1 for (_, k), w in zip(attack.defending, r) if w == "destroyed" and "supply" in units[k].tags)
                 for p, r in found)
    out: dict[str, Any] = {
        "attacker": {"side": attack.attacker, "units": attack.attacking, "dice": attack.dice},
        "defender": {"side": attack.defender, "units": dict(_count(attack.defending))},
        "where": attack.where_name, "defenders": per,
        "hex_cleared": sum(p for p, r in found if "untouched" not in r),
        "attack_power_destroyed": power, "supply_destroyed": supply, "method": method,
    }
    if method == "sampled":
        out["battles"] = samples
    if note:
        out["note"] = note
    return out


def _count(defending: list[tuple[int, str]]) -> dict[str, int]:
    c: dict[str, int] = {}
    for _, k in defending:
        c[k] = c.get(k, 0) + 1
    return c


def as_text(r: dict[str, Any]) -> str:
    a, d = r["attacker"], r["defender"]
    force_a = ", ".join(f"{n} {k}" for k, n in a["units"].items())
    force_d = ", ".join(f"{n} {k}" for k, n in d["units"].items())
    lines = [f"{force_a} ({a['side']}, {a['dice']} {'die' if a['dice'] == 1 else 'dice'}) attack {force_d} ({d['side']}) in {r['where']}",
             "exact: every way the dice fall, through the rules" if r["method"] == "exact" else
             f"sampled: {r.get('note', '')} {r['battles']:,} attacks through the rules".replace(":  ", ": "),
             f"{'unit':16} {'destroyed':>9} {'retreats':>9} {'untouched':>9}"]
    for u in r["defenders"]:
        lines.append(f"{u['unit']:16} {100 * u['destroyed']:8.2f}% {100 * u['retreats']:8.2f}% {100 * u['untouched']:8.2f}%")
    lines += [f"the hex is cleared {100 * r['hex_cleared']:.2f}%",
              f"expected attack power destroyed {r['attack_power_destroyed']:.2f}, supply destroyed {r['supply_destroyed']:.2f}"]
    return "\n".join(lines)
