"""Who sits at which side: people or computer players, from the command line's --ai."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.odds_players import RulesOdds, takes_odds
from clients.players import BUILTIN_PLAYERS
from engine.ruleset import LoadedRuleset


class SeatError(ValueError):
    pass


def sides(rs: LoadedRuleset) -> list[str]:
    return list(rs.info.sides or rs.structure.powers)


def seat_of(rs: LoadedRuleset, player: str) -> str:
    return rs.logic.side_of(player)


def deciding(rs: LoadedRuleset, player: str) -> str:
    """The seat that answers a decision for `player`; SeatError if no seat plays it (the
    rules ask a power that is no side's), which no player can answer."""
    seat = seat_of(rs, player)
    if seat not in sides(rs):
        raise SeatError(f"the rules ask `{player}` to decide, but no seat plays `{seat}` "
                        f"(the seats: {', '.join(sides(rs))})")
    return seat


def available_players(rs: LoadedRuleset) -> tuple[dict[str, Any], str]:
    """Computer players for this ruleset (name -> factory) and the default one."""
    players: dict[str, Any] = dict(BUILTIN_PLAYERS)
    default = "random"
    for answer in rs.plugins.hook.wargame_players(info=rs.info):
        if answer:
            players.update(answer)
            default = next(iter(answer))
    return players, default


def assign(rs: LoadedRuleset, ai: Sequence[str], hotseat: bool = False, seed: int = 0) -> dict[str, Any]:
    """side -> computer player. With no --ai and no --hotseat the computer takes every side
    but the first."""
    players, _ = available_players(rs)
    wanted = chosen(rs, ai, hotseat)
    return {side: make_player(players, kind, seed + i + 1) for i, (side, kind) in enumerate(sorted(wanted.items()))}


def make_player(players: dict[str, Any], kind: str, seed: int) -> Any:
    """The computer player `kind` names (`search`, or `search:0.5` with its seconds a
    decision, as `chosen` checked them) with its own seed."""
    name, _, seconds = kind.partition(":")
    return build(players[name], seed, float(seconds) if seconds else None)


def build(factory: Any, seed: int, seconds: float | None = None) -> Any:
    """A computer player from its factory; one whose class says `takes_odds` is given battle
    odds from the rules (clients.odds_players), which a ruleset's player cannot import."""
    extra: dict[str, Any] = {"odds": RulesOdds()} if takes_odds(factory) else {}
    return factory(seed, seconds, **extra) if seconds is not None else factory(seed, **extra)


def chosen(rs: LoadedRuleset, ai: Sequence[str], hotseat: bool = False) -> dict[str, str]:
    """side -> the name of the computer player --ai gives it (see `assign`)."""
    all_sides = sides(rs)
    players, default = available_players(rs)
    wanted: dict[str, str] = {}
    if hotseat and ai:
        raise SeatError("--hotseat and --ai do not go together")
    if not ai and not hotseat:
        wanted = {s: default for s in all_sides[1:]}
    budgets: dict[str, float] = {}
    for item in ai:
        side, _, kind = item.partition("=")
        kind, _, seconds = (kind.strip() or default).partition(":")
        kind = kind.strip()
        if kind not in players:
            raise SeatError(f"no computer player `{kind}` (this ruleset has: {', '.join(players)})")
        if seconds:
            if not getattr(players[kind], "takes_seconds", False):
                raise SeatError(f"--ai {item}: the `{kind}` player takes no time per decision")
            try:
                budget = float(seconds)
            except ValueError:
                budget = -1.0
            if not 0 < budget <= 3600:
                raise SeatError(f"--ai {item}: `{seconds}` is not a time per decision in seconds (say 0.5)")
            kind = f"{kind}:{seconds}"
            budgets[kind] = budget
        if side.strip().lower() == "all":
            wanted.update({s: kind for s in all_sides})
            continue
        match = [s for s in all_sides if s.lower() == side.strip().lower()]
        if not match:
            raise SeatError(f"--ai {item}: no side `{side}` (the sides are: {', '.join(all_sides)}, or all)")
        wanted[match[0]] = kind
    return wanted
