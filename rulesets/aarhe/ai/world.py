"""What the LHTR computer player knows of a game: the map's static facts (read once per map
through the rules' own board procedures) and a per-phase view of the position.

Everything about units comes from their stats and tags as units.rules declares them, and
everything about the board from the rules' procedures (`is_sea`, `enemy_land`, `hostile_sea`,
`canal_open`, ...), so a layer that overrides one of them is played by its own rules.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from typing import Any

from engine.pieces import Piece
from engine.state import GameState

INF = 1 << 20


# -- the map --------------------------------------------------------------------------------------
class Geo:
    """Static facts of one map under one set of rules: land, sea, impassable spaces, values,
    victory cities, and who neighbours whom by land, by sea and by air."""

    def __init__(self, state: GameState) -> None:
        rules = state.rules
        proc = rules.procedure
        board = state.board
        self.board = board
        self.rules = rules
        spaces = list(board.spaces)
        is_sea, impassable = proc("is_sea"), proc("impassable")
        self.sea = frozenset(s for s in spaces if is_sea(state, s))
        self.blocked = frozenset(s for s in spaces if s not in self.sea and impassable(state, s))
        self.land = tuple(s for s in spaces if s not in self.sea and s not in self.blocked)
        land = frozenset(self.land)
        self.land_set = land
        ipc, vc = proc("ipc_value"), proc("is_victory_city")
        self.ipc = {s: int(ipc(state, s)) for s in self.land}
        self.vc = frozenset(s for s in self.land if vc(state, s))
        nb = {s: tuple(board.neighbours(s)) for s in spaces}
        self.nb = nb
        self.land_nb = {s: tuple(n for n in nb[s] if n in land) for s in self.land}
        self.sea_nb = {z: tuple(n for n in nb[z] if n in self.sea) for z in self.sea}
        self.air_nb = {s: tuple(n for n in nb[s] if n not in self.blocked) for s in spaces}
        self.coast = {s: tuple(z for z in nb[s] if z in self.sea) for s in self.land}
        self.shore = {z: tuple(n for n in nb[z] if n in land) for z in self.sea}
        self._air: dict[str, dict[str, int]] = {}
        self._landd: dict[str, dict[str, int]] = {}

    def air_dist(self, src: str) -> dict[str, int]:
        d = self._air.get(src)
        if d is None:
            d = self._air[src] = bfs([src], self.air_nb)
        return d

    def land_dist(self, src: str) -> dict[str, int]:
        """Land steps from `src` over passable land, whoever holds it."""
        d = self._landd.get(src)
        if d is None:
            d = self._landd[src] = bfs([src], self.land_nb)
        return d


_GEO: dict[tuple[int, int], Geo] = {}


def geo_of(state: GameState) -> Geo:
    key = (id(state.board), id(state.rules))
    g = _GEO.get(key)
    if g is None or g.board is not state.board or g.rules is not state.rules:
        if len(_GEO) > 16:
            _GEO.clear()
        g = _GEO[key] = Geo(state)
    return g


def bfs(sources: Iterable[str], nb: dict[str, tuple[str, ...]], limit: int = INF,
        through: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Steps from the nearest source; `through(s)`: may the walk go on from s (it may still
    end there)."""
    dist: dict[str, int] = {}
    todo: deque[str] = deque()
    for s in sources:
        if s not in dist:
            dist[s] = 0
            todo.append(s)
    while todo:
        s = todo.popleft()
        k = dist[s]
        if k >= limit or (k > 0 and through is not None and not through(s)):
            continue
        for n in nb.get(s, ()):
            if n not in dist:
                dist[n] = k + 1
                todo.append(n)
    return dist


def paths(src: str, nb: Callable[[str], Iterable[str]], limit: int) -> dict[str, list[str]]:
    """Shortest paths (the spaces after `src`) to every space within `limit` steps, where
    `nb(s)` lists the spaces one may step to from s."""
    out: dict[str, list[str]] = {src: []}
    todo: deque[str] = deque([src])
    while todo:
        s = todo.popleft()
        path = out[s]
        if len(path) >= limit:
            continue
        for n in nb(s):
            if n not in out:
                out[n] = path + [n]
                todo.append(n)
    return out


# -- the position ---------------------------------------------------------------------------------
class View:
    """The position as one power sees it at one moment: whose units stand where, what its
    enemies could bring against each territory, how far each territory is from the front."""

    def __init__(self, rs: Any, state: GameState, me: str) -> None:
        self.rs = rs
        self.state = state
        self.me = me
        rules = state.rules
        self.rules = rules
        self.proc = rules.procedure
        self.types = rules.units
        self.geo = geo_of(state)
        self.options = rules.options
        self.side = rs.logic.side_of(me)
        powers = list(self.call("powers")) if rules.has_procedure("powers") else list(rs.structure.powers)
        self.powers = powers
        allied, at_war = self.proc("allied"), self.proc("at_war")
        self.friends = frozenset(p for p in powers if allied(state, me, p))
        self.foes = frozenset(p for p in powers if at_war(state, me, p))
        self.control = state.control
        # units standing for themselves (not aboard), on the board
        self.at: dict[str, list[Piece]] = defaultdict(list)
        self.mine: list[Piece] = []
        board = state.board
        for p in state.pieces.values():
            if p.carrier is not None or p.space not in board:
                continue
            self.at[p.space].append(p)
            if p.owner == me:
                self.mine.append(p)
        self._threat: dict[str, float] | None = None
        self._front: dict[str, int] | None = None
        self._enters: dict[tuple[str, str, bool, str], bool] = {}

    # -- rules ------------------------------------------------------------------------------------
    def call(self, name: str, *args: Any) -> Any:
        return self.proc(name)(self.state, *args)

    def t(self, p: Piece) -> Any:
        return self.types[p.kind]

    def tags(self, p: Piece) -> frozenset[str]:
        return self.types[p.kind].tags  # type: ignore[no-any-return]

    def fights(self, p: Piece) -> bool:
        t = self.types[p.kind]
        return bool(t.attack > 0 or t.defence > 0)

    def fights_in(self, p: Piece, where: str) -> bool:
        tags = self.types[p.kind].tags
        if not self.fights(p) or "submerged" in p.status:
            return False
        return "air" in tags or (("sea" in tags) if where in self.geo.sea else ("land" in tags))

    def enemy_at(self, s: str) -> list[Piece]:
        return [p for p in self.at.get(s, ()) if p.owner in self.foes]

    def defenders(self, s: str) -> list[Piece]:
        """The enemy units that would fight an attack of ours on s."""
        return [p for p in self.at.get(s, ()) if p.owner in self.foes and self.fights_in(p, s)]

    def friendly_at(self, s: str) -> list[Piece]:
        return [p for p in self.at.get(s, ()) if p.owner in self.friends]

    def is_enemy_land(self, s: str) -> bool:
        return s in self.geo.land_set and self.control.get(s, "") in self.foes

    def is_friendly_land(self, s: str) -> bool:
        return s in self.geo.land_set and self.control.get(s, "") in self.friends

    def hostile_sea(self, z: str) -> bool:
        return any(p.owner in self.foes and "sea" in self.tags(p) and "submerged" not in p.status
                   for p in self.at.get(z, ()))

    def carried(self, t: Piece) -> list[Piece]:
        return [p for p in self.state.pieces.values() if p.carrier == t.id]

    def enters(self, u: Piece, s: str, combat: bool) -> bool:
        """May u step into s at all, wherever it comes from? A layer's bars on entering a
        space (AARHE's `entry_refusal`: xenophobia, co-operation, neutrals, small islands);
        the map's impassable spaces are already out of its neighbours."""
        if not self.rules.has_procedure("entry_refusal"):
            return True
        key = (u.owner, u.kind, combat, s)
        ok = self._enters.get(key)
        if ok is None:
            ok = self._enters[key] = self.call("entry_refusal", u, s, combat) == ""
        return ok

    def air_steps(self, u: Piece, combat: bool) -> Callable[[str], list[str]]:
        """Where aircraft u may fly from a space, one step (see `enters`)."""
        nb = self.geo.air_nb
        return lambda s: [n for n in nb[s] if self.enters(u, n, combat)]

    def air_home(self, u: Piece, dist: dict[str, int], combat: bool) -> dict[str, int]:
        """The rules' distances to a landing place (`land_reach`, `carrier_reach`: the map's,
        flying over anything passable) walked again where u may fly: the fewest steps from
        each space to one of the places at distance 0 in `dist`."""
        if not self.rules.has_procedure("entry_refusal"):
            return dist
        homes = [s for s, k in dist.items() if k == 0]
        return bfs(homes, self.geo.air_nb, limit=max(dist.values(), default=0),
                   through=lambda s: self.enters(u, s, combat))

    def moves_left(self, p: Piece) -> int:
        return int(self.call("moves_left", p))

    def may_move(self, p: Piece, combat: bool) -> bool:
        return bool(self.call("may_move", p, combat)) and bool(self.call("can_step", p, combat))

    def value(self, s: str) -> float:
        """What holding land s is worth to anyone: its income, more for a victory city or a
        capital."""
        v = float(self.geo.ipc.get(s, 0))
        if s in self.geo.vc:
            v += 8.0
        if self.is_capital(s):
            v += 12.0
        return v

    def is_capital(self, s: str) -> bool:
        return bool(self.call("capital_of", self.call("original_owner", s)) == s)

    def capital(self, p: str | None = None) -> str:
        return str(self.call("capital_of", p or self.me))

    # -- strength ------------------------------------------------------------------------------------
    def attack_p(self, p: Piece) -> float:
        return min(int(self.types[p.kind].attack), 6) / 6.0

    def defence_p(self, p: Piece) -> float:
        t = self.types[p.kind]
        return min(int(t.defence), 6) / 6.0 * max(1, int(t.hits_to_kill) - p.hits)

    def defence_at(self, s: str, extra: Iterable[Piece] = (), without: frozenset[int] = frozenset()) -> float:
        units = [p for p in self.friendly_at(s) if p.id not in without and self.fights_in(p, s)]
        units += [p for p in extra if self.fights_in(p, s)]
        return sum(self.defence_p(p) for p in units)

    def threat(self) -> dict[str, float]:
        """For each land space, the hits a round the enemy could bring against it next turn
        (every enemy unit counted wherever it could go: an overestimate, on purpose)."""
        if self._threat is not None:
            return self._threat
        geo = self.geo
        out: dict[str, float] = defaultdict(float)
        for s, units in self.at.items():
            for p in units:
                if p.owner not in self.foes:
                    continue
                t = self.types[p.kind]
                if t.attack <= 0 or t.move <= 0:
                    continue
                a = self.attack_p(p)
                if "air" in t.tags:
                    reach = max(1, (int(t.move) + 1) // 2 + 1)
                    for n, d in geo.air_dist(s).items():
                        if d <= reach and n in geo.land_set:
                            out[n] += a
                elif "land" in t.tags and s in geo.land_set:
                    for n, d in geo.land_dist(s).items():
                        if d > t.move:
                            continue
                        out[n] += a
                elif "carries_land" in t.tags:
                    cargo = self.carried(p)
                    if not cargo:
                        continue
                    ca = sum(self.attack_p(c) for c in cargo)
                    zones = bfs([s], geo.sea_nb, limit=int(t.move))
                    for z in zones:
                        for n in geo.shore[z]:
                            out[n] += ca / 2
        self._threat = out
        return out

    def front(self) -> dict[str, int]:
        """Land steps from each land space to the nearest enemy-held land."""
        if self._front is None:
            geo = self.geo
            self._front = bfs([s for s in geo.land if self.is_enemy_land(s)], geo.land_nb)
        return self._front

    def front_dist(self, s: str) -> int:
        return self.front().get(s, INF)
