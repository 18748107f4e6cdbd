"""A battle for the calculator: two forces on a scratch state of the ruleset's own board,
in the space asked for (its terrain and rules apply), with the battle started by the rules.

The ruleset's battle is found by the names LHTR gives it: the repeating sequence
`battle(where)`, `start_battle(where)`, `attackers(where)`, `defenders(where)` and
`fights_in(unit, where)`. The attacker is the first power to play; the defender the first
power at war with it, holding the space when it is land."""

from __future__ import annotations

import difflib
import re
from typing import Any

from clients.odds import Battle, OddsError
from clients.odds_policy import policy
from clients.odds_units import force
from engine.board import fold_name

#: the most units a side may have: beyond, one battle takes minutes through the rules
MOST_UNITS = 200
_NEEDS = ("start_battle", "attackers", "defenders", "fights_in")


def _norm(text: str) -> str:
    t = fold_name(text.replace(".", ""))      # ("S.S.R." and "SSR" alike)
    m = re.fullmatch(r"(\d+) sea zone|sea zone (\d+)|sz ?(\d+)", t)
    if m:
        return "sz " + next(g for g in m.groups() if g)
    return t


def find_space(board: Any, text: str) -> str:
    """A space by its id, its name, its title as printed ("Sea Zone 7 (SZ 7)"), or TripleA's
    name ("7 Sea Zone"), in any case and with or without dots ("Karelia SSR")."""
    found = board.find(text)                    # as the terminal reads a space typed
    if found is not None:
        return str(found)
    want = _norm(text)
    names: dict[str, str] = {}
    for sid, sp in board.spaces.items():
        for form in (sid, getattr(sp, "name", sid), board.titles.get(sid, sid)):
            names.setdefault(_norm(form), sid)
        title = board.titles.get(sid, "")
        m = re.search(r"\(([^)]*)\)$", title)
        if m:
            names.setdefault(_norm(m.group(1)), sid)
    if want in names:
        return names[want]
    close = difflib.get_close_matches(want, list(names), n=1, cutoff=0.6)
    hint = f"; did you mean `{board.titles.get(names[close[0]], names[close[0]])}`?" if close else ""
    raise OddsError(f"no space `{text.strip()}` on this board{hint}")


def forces(units: Any, attacking: str, defending: str) -> tuple[dict[str, int], dict[str, int]]:
    """Both sides' units as players wrote them, each side with at least one unit and at most
    MOST_UNITS."""
    a_force, d_force = force(units, attacking), force(units, defending)
    for side, f in (("attacker", a_force), ("defender", d_force)):
        if not f:
            raise OddsError(f"the {side} has no units")
        if sum(f.values()) > MOST_UNITS:
            raise OddsError(f"the {side} has {sum(f.values()):,} units: at most {MOST_UNITS} a side")
    return a_force, d_force


def set_up(rs: Any, attacking: str, defending: str, where: str | None = None, order: str = "triplea",
           bombard: str | None = None, powers: tuple[str, str] | None = None) -> Battle:
    """The battle of these forces in `where`. With `bombard`, the attack is an amphibious
    assault from a sea zone next to it, where those ships stand to bombard (the rules'
    `amphibious` mark and `came_from`, as LHTR's combat move leaves them). With `powers`
    (attacker, defender), those powers fight (a battle of a game, its forces changed), else
    the first power to play and the first at war with it."""
    rules = rs.rules
    try:
        rules.round("battle")
        for name in _NEEDS:
            rules.procedure(name)
    except KeyError:
        raise OddsError(f"the rules of `{rs.info.name}` have no battle of the kind the calculator fights "
                        f"(a repeating sequence `battle(where)` with {', '.join(_NEEDS)})") from None
    a_force, d_force = forces(rules.units, attacking, defending)
    state = rs.logic.new_state(rs.info.scenarios[0].name, 0)
    order_ = list(rules.sequence.order) if rules.sequence is not None else []
    if not order_:
        raise OddsError(f"the rules of `{rs.info.name}` have no powers taking turns")
    at_war = rules.procedure("at_war") if rules.has_procedure("at_war") else (lambda s, a, b: a != b)
    if powers is not None and all(p in order_ for p in powers):
        attacker, defender = powers
    else:
        attacker = order_[0]
        enemies = [p for p in order_ if at_war(state, attacker, p)]
        if not enemies:
            raise OddsError(f"nobody is at war with {attacker} in these rules")
        defender = enemies[0]
    for p in list(state.pieces.values()):
        state.remove(p.id)
    state.power_index = order_.index(attacker)
    board = state.board
    fights_in = rules.procedure("fights_in")
    if where is not None:
        space = find_space(board, where)
    else:
        space = _fitting(board, state, fights_in, a_force, d_force, attacker, defender)
    kinds_sp = board.space(space).kind
    if kinds_sp not in ("land", "sea"):
        raise OddsError(f"{board.titles.get(space, space)} is no land territory or sea zone")
    if kinds_sp == "land":
        state.set_control(space, defender)
    for kind, n in a_force.items():
        for _ in range(n):
            state.add_piece(kind, attacker, space)
    for kind, n in d_force.items():
        for _ in range(n):
            state.add_piece(kind, defender, space)
    _check_fit(board, state, fights_in, space)
    if bombard:
        _assault(rs, state, space, attacker, bombard)
    rules.procedure("start_battle")(state, space)
    state.events.clear()
    state.answer_hook = answer = policy(order, rules.units, attacker)
    return Battle(rules, space, attacker, defender, state, answer, a_force, d_force,
                  board.titles.get(space, space))


def _assault(rs: Any, state: Any, space: str, attacker: str, bombard: str) -> None:
    board = state.board
    if board.space(space).kind != "land" or "came_from" not in state.vars:
        raise OddsError(f"there is no amphibious assault on {board.titles.get(space, space)} in these rules")
    zone = next((n for n in board.neighbours(space) if board.space(n).kind == "sea"), None)
    if zone is None:
        raise OddsError(f"{board.titles.get(space, space)} has no coast to bombard from")
    ships = force(rs.rules.units, bombard)
    came = dict(state.vars["came_from"])
    for u in list(state.pieces_at(space)):
        if u.owner == attacker:
            state.update(u.id, status=u.status | {"amphibious"})
            came[u.id] = zone
    for kind, n in ships.items():
        for _ in range(n):
            state.add_piece(kind, attacker, zone)
    state.vars["came_from"] = came


def _probe(state: Any, fights_in: Any, kind: str, owner: str, space: str) -> bool:
    s = state.copy()
    u = s.add_piece(kind, owner, space)
    return bool(fights_in(s, u, space))


def _fitting(board: Any, state: Any, fights_in: Any, a_force: dict[str, int], d_force: dict[str, int],
             attacker: str, defender: str) -> str:
    """A plain space where every unit that fights somewhere fights: a land territory for a
    land battle, a sea zone for a naval one (the one with the fewest facts of its own)."""
    for want in ("land", "sea"):
        spaces = sorted((s for s in board.spaces.values() if s.kind == want), key=lambda s: len(s.attrs))
        if not spaces:
            continue
        sid = spaces[0].id
        if want == "land":
            state.set_control(sid, defender)
        if all(_probe(state, fights_in, k, attacker, sid) or not _fights_anywhere(board, state, fights_in, k, attacker)
               for k in a_force) and \
           all(_probe(state, fights_in, k, defender, sid) or not _fights_anywhere(board, state, fights_in, k, defender)
               for k in d_force):
            return sid
    raise OddsError("no space where all these units fight together: give one with --where")


def _fights_anywhere(board: Any, state: Any, fights_in: Any, kind: str, owner: str) -> bool:
    for want in ("land", "sea"):
        sid = next((s.id for s in board.spaces.values() if s.kind == want), None)
        if sid is not None and _probe(state, fights_in, kind, owner, sid):
            return True
    return False


def _check_fit(board: Any, state: Any, fights_in: Any, space: str) -> None:
    """Refuse a unit that fights elsewhere but not here (a battleship in a land territory)."""
    seen: set[tuple[str, str]] = set()
    for u in state.pieces_at(space):
        if (u.kind, u.owner) in seen:
            continue
        seen.add((u.kind, u.owner))
        if not fights_in(state, u, space) and _fights_anywhere(board, state, fights_in, u.kind, u.owner):
            raise OddsError(f"a {u.kind} cannot fight in {board.titles.get(space, space)}")


def pending_battles(rs: Any, state: Any, options: Any) -> list[str]:
    """The spaces the decision's options name where a battle would be fought now: both the
    rules' `attackers` and `defenders` there (a game's battles about to be resolved)."""
    rules = rs.rules
    if not all(rules.has_procedure(n) for n in ("attackers", "defenders")):
        return []
    out: list[str] = []
    for a in options:
        for v in a.args.values():
            if isinstance(v, str) and v in state.board and v not in out:
                s = state.snapshot()
                if rules.procedure("attackers")(s, v) and rules.procedure("defenders")(s, v):
                    out.append(v)
    return out


def from_game(rs: Any, state: Any, where: str, order: str = "triplea") -> Battle:
    """The battle about to be fought in `where` of a game, as it stands: its forces, its
    space, the power to play attacking."""
    rules = rs.rules
    try:
        rules.round("battle")
    except KeyError:
        raise OddsError(f"the rules of `{rs.info.name}` have no battle the calculator fights") from None
    s = state.snapshot()
    s.answers, s.answer_i = (), 0
    from engine.primitives import current_power

    attacker = current_power(s)
    rules.procedure("start_battle")(s, where)
    s.events.clear()
    s.answer_hook = answer = policy(order, rules.units, attacker)
    defenders = rules.procedure("defenders")(s, where)
    defender = defenders[0].owner if defenders else ""
    battle = Battle(rules, where, attacker, defender, s, answer, where_name=state.board.titles.get(where, where))
    a, d = battle.sides(s)
    battle.attacking, battle.defending = dict(a), dict(d)
    return battle
