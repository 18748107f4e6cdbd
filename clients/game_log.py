"""A game's log in players' words: the ruleset's narration of each event, moves of several
pieces between the same spaces told in one line, unit names spaced ("Aircraft Carrier"). The
terminal tells the events this way as they happen, and `wargame play --log` / `wargame replay
--log` print a whole game so."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from clients import words
from engine import asking
from engine.game import Game


def log_lines(game: Game, events: Iterable[tuple[str, Mapping[str, Any]]]) -> list[str]:
    """Words for events: the ruleset's, or for a move it leaves untold a plain line from the
    event's data. Moves told by no other line in between make one line a route of pieces:
    a piece's steps joined into its route, the pieces of one power along the same route
    counted together ("USSR 3 Infantry: Archangel -> Karelia S.S.R. -> Belorussia"). Losses
    told by no other line in between are counted so too, by power and space ("Germany 2
    Infantry, Artillery destroyed in West Russia")."""
    spaced = words.for_ruleset(game.ruleset)
    out: list[str] = []
    moving: list[tuple[Any, tuple[str, str, str], str]] = []
    losses: list[tuple[str, Mapping[str, Any]]] = []

    def flush() -> None:
        if moving:
            out.extend(_routes_lines(moving))
            moving.clear()
        if losses:
            out.extend(_losses_lines(game, losses))
            losses.clear()

    for i, event in enumerate(events):
        kind, data = event
        if kind == "destroyed" and not moving:
            losses.append(event)
            continue
        text = narrate(game, event)
        if not text and kind == "move":
            move = _move_of(game, data)
            if move is not None:
                if losses:
                    flush()
                piece = data.get("piece")
                moving.append((piece if piece is not None else ("event", i), *move))
                continue
        if text:
            flush()
            out.append(text)
    flush()
    return [spaced(line) for line in out]


def narrate(game: Game, event: tuple[str, Mapping[str, Any]]) -> str:
    """The ruleset's words for one event, with each space of the event that its words give by a
    bare id named as players read it: "Supply destroyed in 1907" -> "... in Losheim (1907)"."""
    text = game.ruleset.logic.narrate(event)   # type: ignore[arg-type]
    if not text:
        return ""
    board = game.state.board
    for value in _values(event[1]):
        if isinstance(value, str) and value in board and value in text:
            title = space_name(game, value)
            if title != value and title not in text:
                text = re.sub(rf"(?<![\w(]){re.escape(value)}(?![\w)])", lambda _, t=title: t, text)
    return text


def _losses_lines(game: Game, losses: list[tuple[str, Mapping[str, Any]]]) -> list[str]:
    """Lines for a run of losses: one a power and space, its kinds counted in the order they
    fell; a single loss in the ruleset's own words."""
    groups: dict[tuple[Any, Any], list[tuple[str, Mapping[str, Any]]]] = {}
    for event in losses:
        groups.setdefault((event[1].get("owner"), event[1].get("space")), []).append(event)
    out = []
    for (owner, _), group in groups.items():
        text = narrate(game, group[0])
        if len(group) == 1 or not text:          # (a ruleset that keeps losses untold keeps them so)
            out.extend(t for t in (narrate(game, e) for e in group) if t)
            continue
        counts: dict[str, int] = {}
        for _, data in group:
            name = str(data.get("kind")) + (f" ({data['group']})" if data.get("group") else "")
            counts[name] = counts.get(name, 0) + 1
        pieces = ", ".join(f"{n} {k}" if n > 1 else k for k, n in counts.items())
        where = group[0][1].get("where") or space_name(game, group[0][1].get("space"))
        out.append(f"{owner} {pieces} destroyed in {where}")
    return out


def _values(data: Mapping[str, Any]) -> list[Any]:
    out: list[Any] = []
    for v in data.values():
        out.extend(v if isinstance(v, (list, tuple)) else (v,))
    return out


def space_name(game: Game, sid: Any) -> str:
    """A space or an off-board area as players read it (its title: `Bastogne (x12)`, an area's
    name), never an internal id such as `offboard:Allies`."""
    return asking.space_name(game.state, sid) if isinstance(sid, str) else str(sid)


def _move_of(game: Game, data: Mapping[str, Any]) -> tuple[tuple[str, str, str], str] | None:
    src = data.get("src", data.get("from"))
    to = data.get("to", data.get("space"))
    if to is None:
        return None
    what = data.get("kind")
    piece = data.get("piece")
    who = data.get("owner") or data.get("side") or data.get("player")
    if (what is None or who is None) and piece in game.state.pieces:
        p = game.state.pieces[piece]
        what, who = what or p.kind, who or p.owner
    return (str(who or ""), space_name(game, src) if src is not None else "", space_name(game, to)), \
        str(what or "piece")


def _routes_lines(moves: list[tuple[Any, tuple[str, str, str], str]]) -> list[str]:
    """Lines for a run of moves: each piece's steps, where each starts where the last ended,
    joined into a route; the pieces of one power along one route in one line, in the order
    they first moved."""
    routes: dict[Any, tuple[str, list[str], str]] = {}      # piece -> (power, spaces, kind)
    order: list[Any] = []
    for piece, (who, src, to), what in moves:
        got = routes.get(piece)
        if got is not None and got[1][-1] == src and src:
            got[1].append(to)
            continue
        if got is not None:                                  # a step from elsewhere: a new route
            order.append(piece := (piece, len(order)))
        else:
            order.append(piece)
        routes[piece] = (who, [src, to], what)
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for piece in order:
        who, spaces, what = routes[piece]
        groups.setdefault((who, tuple(spaces)), []).append(what)
    out = []
    for (who, spaces), kinds in groups.items():
        if len(spaces) <= 2:
            out.append(_moves_line([((who, spaces[0], spaces[1]), k) for k in kinds]))
            continue
        counts: dict[str, int] = {}
        for k in kinds:
            counts[k] = counts.get(k, 0) + 1
        pieces = ", ".join(f"{n} {k}" if n > 1 else k for k, n in counts.items())
        out.append(f"{who + ' ' if who else ''}{pieces}: " + " -> ".join(spaces))
    return out


def _moves_line(moves: list[tuple[tuple[str, str, str], str]]) -> str:
    (who, src, to), _ = moves[0]
    counts: dict[str, int] = {}
    for _, what in moves:
        counts[what] = counts.get(what, 0) + 1
    pieces = ", ".join(f"{n} {k}" if n > 1 else k for k, n in counts.items())
    verb = "moves" if len(moves) == 1 else "move"
    where = f"from {src} to {to}" if src else f"to {to}"
    return f"{who + ' ' if who else ''}{pieces} {verb} {where}"
