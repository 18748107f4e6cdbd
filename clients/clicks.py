"""Playing by clicking the map, for any ruleset: what an option names, and what a click picks.

An option's arguments are read against the state, never by their names: a whole number that
is the id of a piece in `state.pieces` is that piece, a string that is a space of the board
is that space (a list or tuple of them names each). A parameter counts as pieces (or
spaces) only when every option of its kind holds pieces (or spaces) there, so an amount
that happens to equal a piece's id is not taken for a piece.

A click picks a place: a hex and the pieces it took (a counter's pieces, or all the hex's).
The first click selects: the options that name its pieces (or, when none does, the hex
itself) are its *candidates*, and the other things they name are the *targets* the map
lights up. The second click picks among the candidates: those naming what it hit. One left
is played; several are listed to choose from. Nothing here draws or knows a rule: the
window (clients/gui.py) asks, and the rules (engine.flow.why_not) say why a move is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Decision
from engine.state import GameState

PIECE, PIECES, SPACE, SPACES = "piece", "pieces", "space", "spaces"


@dataclass(frozen=True)
class Pick:
    """What one click took: a space and the pieces on it that the click means (a counter's
    pieces, or every piece of the hex); `counter` is the clicked counter's (owner, kind)."""

    space: str
    pieces: frozenset[int] = frozenset()
    counter: tuple[str, str] | None = None

    def same(self, other: Pick | None) -> bool:
        return other is not None and other.space == self.space and other.counter == self.counter


def _flat(value: Any) -> Iterable[Any]:
    if isinstance(value, (tuple, list, frozenset, set)):
        return value
    return (value,)


def _is_id(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Reader:
    """What the options of one decision name, read from the state.

    `kinds[kind][param]` says what a parameter holds in every option of that kind: PIECE, PIECES
    (a list of pieces), SPACE or SPACES; a parameter holding anything else is left out.
    `shown` are the spaces a player can click (the map's)."""

    def __init__(self, decision: Decision | None, state: GameState, shown: Container[str]) -> None:
        self.state = state
        self.shown = shown
        self.options: list[Action] = list(decision.options) if decision is not None else []
        self.finish = decision.finish if decision is not None else None
        self.kinds: dict[str, dict[str, str]] = {}
        seen: dict[str, dict[str, str | None]] = {}
        for a in self.options:
            params = seen.setdefault(a.kind, {})
            for name, value in a.args.items():
                params[name] = _merge(params.get(name, ""), self._what(value))
            for name in list(params):
                if name not in a.args:
                    params[name] = None
        for kind, params in seen.items():
            self.kinds[kind] = {n: t for n, t in params.items() if t and t != "empty"}
        self._named: dict[int, tuple[frozenset[int], frozenset[str]]] = {}

    def _what(self, value: Any) -> str | None:
        many = isinstance(value, (tuple, list, frozenset, set))
        values = list(_flat(value))
        if not values:
            return "empty"
        pieces, board = self.state.pieces, self.state.board
        if all(_is_id(v) and v in pieces for v in values):
            return PIECES if many else PIECE
        if all(isinstance(v, str) and (v in board or v in self.shown) for v in values):
            return SPACES if many else SPACE
        return None

    def named(self, action: Action) -> tuple[frozenset[int], frozenset[str]]:
        """The pieces and the spaces an option names."""
        key = id(action)
        got = self._named.get(key)
        if got is not None:
            return got
        types = self.kinds.get(action.kind, {})
        pieces: set[int] = set()
        spaces: set[str] = set()
        for name, value in action.args.items():
            t = types.get(name)
            if t in (PIECE, PIECES):
                pieces.update(v for v in _flat(value) if _is_id(v) and v in self.state.pieces)
            elif t in (SPACE, SPACES):
                spaces.update(v for v in _flat(value) if isinstance(v, str))
        got = self._named[key] = (frozenset(pieces), frozenset(spaces))
        return got

    def place_of(self, pid: int) -> str | None:
        """The clickable space a piece stands in, if it is on the map."""
        p = self.state.pieces.get(pid)
        return p.space if p is not None and p.space in self.shown else None

    def places(self, action: Action) -> frozenset[str]:
        """The clickable spaces an option names, directly or through its pieces."""
        pieces, spaces = self.named(action)
        out = {s for s in spaces if s in self.shown}
        out.update(s for s in (self.place_of(p) for p in pieces) if s is not None)
        return frozenset(out)

    # -- clicking --------------------------------------------------------------------------------
    def playable(self) -> list[Action]:
        return [a for a in self.options if a != self.finish]

    def by_pieces(self, pick: Pick) -> list[Action]:
        """The options naming any of the picked pieces."""
        if not pick.pieces:
            return []
        return [a for a in self.playable() if self.named(a)[0] & pick.pieces]

    def candidates(self, pick: Pick) -> list[Action]:
        """What a first click on `pick` selects: the options naming its pieces, or when none
        does, those naming its space."""
        return self.by_pieces(pick) or [a for a in self.playable() if pick.space in self.named(a)[1]]

    def further(self, action: Action, pick: Pick) -> tuple[frozenset[int], frozenset[str]]:
        """The clickable things an option names besides what `pick` took: pieces on the map
        and spaces."""
        pieces, spaces = self.named(action)
        more_pieces = frozenset(p for p in pieces - pick.pieces if self.place_of(p) is not None)
        more_spaces = frozenset(s for s in spaces if s != pick.space and s in self.shown)
        return more_pieces, more_spaces

    def targets(self, options: Iterable[Action], pick: Pick) -> tuple[dict[str, list[Action]], set[int]]:
        """Where a second click can go: space -> the options a click there would pick, and the
        pieces (counters) those options name."""
        spaces: dict[str, list[Action]] = {}
        pieces: set[int] = set()
        for a in options:
            more_pieces, more_spaces = self.further(a, pick)
            where = set(more_spaces)
            for p in more_pieces:
                pieces.add(p)
                where.add(self.place_of(p))  # type: ignore[arg-type]
            for s in where:
                spaces.setdefault(s, []).append(a)
        return spaces, pieces

    def second(self, options: Iterable[Action], first: Pick, click: Pick) -> list[Action]:
        """The options (of the first click's candidates) that a second click picks: those
        naming, besides what the first click took, the clicked space or a clicked piece."""
        out = []
        for a in options:
            more_pieces, more_spaces = self.further(a, first)
            if click.space in more_spaces or more_pieces & click.pieces:
                out.append(a)
        return out

    def settled(self, options: Sequence[Action], pick: Pick) -> bool:
        """Whether a click that left `options` needs no further click: none of them names
        anything clickable besides what `pick` took."""
        return all(self.further(a, pick) == (frozenset(), frozenset()) for a in options)

    def at_rest(self) -> tuple[set[str], set[str]]:
        """With nothing selected, where a first click does something: the spaces where it
        settles (plays the one option, or lists the few there are: "direct"), and those
        where it selects something to take further ("sources")."""
        direct: set[str] = set()
        sources: set[str] = set()
        places: set[str] = set()
        for a in self.playable():
            places |= self.places(a)
        for sid in places:
            pick = Pick(sid, frozenset(self.state.ids_at(sid)))
            options = self.candidates(pick)
            if options:
                (direct if self.settled(options, pick) else sources).add(sid)
        return direct, sources

    # -- why not ------------------------------------------------------------------------------------
    def probes(self, first: Pick, click: Pick, own: Callable[[int], bool], most: int = 8) -> list[Action]:
        """Actions doing with the selection what the click asks, for the rules to say why they
        are refused: for each kind of option with a parameter for the selected pieces (or
        space) and a space parameter for the clicked space, an option of that kind with its
        values put in. The selection's pieces that `own(piece)` are tried first."""
        out: list[Action] = []
        chosen = [p for p in sorted(first.pieces) if own(p)] or sorted(first.pieces)
        for kind, params in self.kinds.items():
            of_kind = [a for a in self.playable() if a.kind == kind]
            if not of_kind:
                continue
            piece_ps = [n for n, t in params.items() if t in (PIECE, PIECES)]
            space_ps = [n for n, t in params.items() if t in (SPACE, SPACES)]
            fills: list[tuple[str, Any, Action]] = []      # (param, value, template)
            if piece_ps and chosen:
                for a in of_kind:
                    for n in piece_ps:
                        if set(_flat(a.args[n])) & first.pieces and (n, a.args[n]) not in [(f[0], f[1]) for f in fills]:
                            fills.append((n, a.args[n], a))
                if not fills:
                    n = piece_ps[0]
                    template = of_kind[0]
                    many = params[n] == PIECES
                    for p in chosen:
                        fills.append((n, (p,) if many else p, template))
            elif space_ps:
                naming = [(n, a) for a in of_kind for n in space_ps if a.args.get(n) == first.space]
                n, template = naming[0] if naming else (space_ps[0], of_kind[0])
                fills.append((n, first.space, template))
            for sel_param, value, template in fills:
                dests = [n for n in space_ps if n != sel_param]
                if not dests:
                    continue
                dest = max(dests, key=lambda n: (len({repr(a.args.get(n)) for a in of_kind}), dests.index(n)))
                args = dict(template.args)
                args[sel_param] = value
                args[dest] = (click.space,) if params[dest] == SPACES else click.space
                probe = Action(kind, args)
                if probe not in out and probe not in self.options:
                    out.append(probe)
                if len(out) >= most:
                    return out
        return out


def _merge(old: str | None, new: str | None) -> str | None:
    """What a parameter holds, over the options seen so far ("" before the first)."""
    if old is None or new is None:
        return None
    if old in ("", "empty"):
        return new
    if new == "empty" or new == old:
        return old
    return None
