"""What must hold of every state an LHTR or AARHE game reaches, checked after every action
of a random game (tests/lhtr/test_random_games.py, tests/aarhe/test_random_games.py).

Plain code, no pytest: `Invariants(rs)` is one game's checker (it remembers what was placed
this turn and whose turn it was); call it with each new state, and it raises AssertionError
naming every invariant broken. It reads the map's facts from the board, not from the rules'
procedures, wherever the board says them, so that a rule that forgets a case is caught
rather than repeated:

* nobody's IPCs are negative;
* land units and industrial complexes stand on land (cargo aboard a transport aside), ships
  at sea (a ship in naval repair aside, under AARHE), and nothing on an impassable space;
* cargo is aboard a transport of its own space, at sea, within the transport's room;
* at the end of a power's turn (of a team's, when powers play as a team) every aircraft has landed: on land its side holds, or at sea
  on its side's carriers with room for it (bombers never at sea);
* a power places no more units at an industrial complex in a turn than its territory's
  income value (ships and fighters placed at sea count for an adjacent complex), and, under
  AARHE, no more infantry at a victory city than its territory's income value;
* under AARHE: no side has more than `small_island_cap` units (complexes aside) on a small
  island, and no UK or US unit stands in an original Soviet territory the USSR holds
  (Stalinist xenophobia).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.ruleset import LoadedRuleset
from engine.state import GameState, Piece


class Invariants:
    def __init__(self, rs: LoadedRuleset) -> None:
        self.rs = rs
        self.units = rs.rules.units
        self.aarhe = "aarhe" in {i.name for i in rs.chain}
        self.island_cap = int(rs.options.get("small_island_cap", 0)) if self.aarhe else 0
        self.turn_key: tuple[int, str] | None = None
        self.pending: set[int] = set()               # the pieces waiting to be placed
        self.placed: list[tuple[str, str]] = []      # (kind, space) of each piece placed this turn
        self.factories: set[str] = set()             # where the power to play had a complex this turn
        self.checked = 0

    # -- the map -----------------------------------------------------------------------------
    def is_sea(self, state: GameState, space: str) -> bool:
        return state.board.space(space).get("number") is not None

    def impassable(self, state: GameState, space: str) -> bool:
        return bool(self.rs.rules.procedure("impassable")(state, space))

    def troop_room(self, state: GameState, ship: Piece) -> int:
        """Room for land units a National Advantage gives a ship that is no transport (the
        rules' `troop_room`: Japan's destroyers with the Tokyo Express)."""
        return int(self.rs.rules.procedure("troop_room")(state, ship))

    def ipc(self, state: GameState, space: str) -> int:
        return int(state.board.space(space).get("ipc") or 0)

    def side(self, power: str | None) -> str:
        return self.rs.logic.side_of(power) if power else ""

    def tags(self, kind: str) -> frozenset[str]:
        return self.units[kind].tags

    def stat(self, kind: str, name: str) -> int:
        return int(self.units[kind].stats.get(name, 0))

    # -- checking ----------------------------------------------------------------------------
    def __call__(self, state: GameState, _n: int = 0) -> None:
        problems = self.problems(state)
        assert not problems, "; ".join(problems)

    def problems(self, state: GameState, final: bool = False) -> list[str]:
        """Every invariant `state` breaks. `final`: the game is over, so the last power's turn
        has ended too."""
        self.checked += 1
        out: list[str] = []
        # (a team's members play their turns together: the team's turn is the one that ends)
        key = (state.turn, " and ".join(self.rs.structure.team(state)))
        before = self.turn_key or key
        out += self.placement(state, before[1])       # what the last action placed was the last power's
        if key != before:
            out += [f"at the end of {before[1]}'s turn {before[0]}: {p}" for p in self.unlanded(state)]
            self.placed, self.factories = [], set()
        self.turn_key = key
        out += self.ipcs(state)
        out += self.spaces(state)
        out += self.cargo(state)
        if self.aarhe:
            out += self.small_islands(state)
            out += self.xenophobia(state)
        if final:
            out += [f"at the end of the game: {p}" for p in self.unlanded(state)]
        return out

    def ipcs(self, state: GameState) -> list[str]:
        return [f"{owner} has {amount} {name}" for (owner, name), amount in state.resources.items() if amount < 0]

    def in_repair(self, state: GameState) -> Iterable[int]:
        return state.vars.get("in_repair", {}) if self.aarhe else ()

    def spaces(self, state: GameState) -> list[str]:
        out: list[str] = []
        repairing = set(self.in_repair(state))
        for p in state.pieces.values():
            what = f"{p.owner} {p.kind} #{p.id}"
            if p.space not in state.board:
                if p.space != f"pending:{p.owner}":
                    out.append(f"{what} stands in `{p.space}`")
                continue
            if self.impassable(state, p.space):
                out.append(f"{what} is in impassable {p.space}")
            sea = self.is_sea(state, p.space)
            tags = self.tags(p.kind)
            if p.carrier is not None:
                continue                                 # cargo: see `cargo`
            if ("land" in tags or "factory" in tags) and sea:
                out.append(f"{what} is at sea in {p.space}, aboard nothing")
            if "sea" in tags and not sea and p.id not in repairing:
                out.append(f"{what} is a ship on land in {p.space}")
        return out

    def cargo(self, state: GameState) -> list[str]:
        out: list[str] = []
        aboard: dict[int, int] = {}
        for p in state.pieces.values():
            if p.carrier is None:
                continue
            what = f"{p.owner} {p.kind} #{p.id}"
            t = state.pieces.get(p.carrier)
            if t is None:
                out.append(f"{what} rides a transport #{p.carrier} that is gone")
                continue
            fighter = "lands_on_carrier" in self.tags(p.kind) and self.stat(t.kind, "carrier_capacity") > 0
            if "carries_land" not in self.tags(t.kind) and not fighter and self.troop_room(state, t) <= 0:
                out.append(f"{what} rides a {t.kind}, not a transport")
            if t.space != p.space:
                out.append(f"{what} is in {p.space}, its transport #{t.id} in {t.space}")
            elif t.space in state.board and not self.is_sea(state, t.space):
                out.append(f"{what} is aboard transport #{t.id} on land in {t.space}")
            if fighter:                                 # an ally's fighter aboard a carrier
                aboard[t.id] = aboard.get(t.id, 0) + 1
                continue
            size = self.stat(p.kind, "transport_size")
            if size <= 0:
                out.append(f"{what} cannot go aboard a transport")
            aboard[t.id] = aboard.get(t.id, 0) + size
        for tid, load in aboard.items():
            t = state.pieces.get(tid)
            room = (self.stat(t.kind, "transport_capacity") or self.stat(t.kind, "carrier_capacity")
                    or self.troop_room(state, t)) if t else 0
            if t is not None and load > room:
                out.append(f"{t.kind} #{tid} in {t.space} carries {load}, more than its room")
        return out

    def unlanded(self, state: GameState) -> list[str]:
        """The aircraft that have not landed: each power's own turn ends with all of its
        aircraft landed, and nothing in another power's turn unlands them."""
        out: list[str] = []
        at_sea: dict[tuple[str, str], list[Any]] = {}
        for p in state.pieces.values():
            if p.space not in state.board or "air" not in self.tags(p.kind):
                continue
            if self.is_sea(state, p.space):
                if "lands_on_carrier" not in self.tags(p.kind):
                    out.append(f"{p.owner} {p.kind} #{p.id} is at sea in {p.space}")
                at_sea.setdefault((p.space, self.side(p.owner)), []).append(p)
            elif self.side(state.control.get(p.space)) != self.side(p.owner):
                out.append(f"{p.owner} {p.kind} #{p.id} is in {p.space}, held by {state.control.get(p.space) or 'nobody'}")
        for (zone, side), planes in at_sea.items():
            room = sum(self.stat(q.kind, "carrier_capacity") for q in state.pieces_at(zone)
                       if self.side(q.owner) == side)
            fighters = [q for q in planes if "lands_on_carrier" in self.tags(q.kind)]
            if len(fighters) > room:
                out.append(f"{len(fighters)} {side} fighters in {zone} with room for {room} on carriers")
        return out

    def placement(self, state: GameState, power: str) -> list[str]:
        """Track the pieces placed from the pending area this turn, and check they fit (`power`:
        the power to play, or a team's, "Germany and Japan", each placing at its own complexes)."""
        now = {pid for pid, p in state.pieces.items() if p.space == f"pending:{p.owner}"}
        for pid in self.pending:
            p = state.pieces.get(pid)
            if pid not in now and p is not None and p.space in state.board:
                self.placed.append((p.kind, p.space))
        self.pending = now
        for s in state.occupied():
            if s in state.board and any(q.owner in power.split(" and ") and "factory" in self.tags(q.kind)
                                        for q in state.pieces_at(s)):
                self.factories.add(s)
        if not self.placed:
            return []
        out: list[str] = []
        city: dict[str, int] = {}
        at_complexes: list[tuple[str, str]] = []
        for kind, space in self.placed:
            tags = self.tags(kind)
            if "factory" in tags:
                continue
            if self.aarhe and "raised_at_cities" in tags:
                if not state.board.space(space).get("victory_city"):
                    out.append(f"{power} placed {kind} in {space}, no victory city")
                city[space] = city.get(space, 0) + 1
            else:
                at_complexes.append((kind, space))
        for s, n in city.items():
            if n > self.ipc(state, s):
                out.append(f"{power} raised {n} infantry at {s} this turn, worth {self.ipc(state, s)}")
        short = self.unassigned(state, at_complexes)
        if short:
            out.append(f"{power} placed {', '.join(f'{k} in {s}' for k, s in short)} beyond what its industrial "
                       f"complexes ({', '.join(sorted(self.factories)) or 'none'}) may place this turn")
        return out

    def unassigned(self, state: GameState, placed: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The placed units that no complex with room can account for (a matching of units to
        complexes, each taking up to its territory's value: augmenting paths)."""
        room = {f: self.ipc(state, f) for f in self.factories}
        homes = [[s] if not self.is_sea(state, s) else [f for f in state.board.neighbours(s)] for _, s in placed]
        homes = [[f for f in h if f in room] for h in homes]
        slots: dict[tuple[str, int], int] = {}       # (complex, slot) -> the unit in it

        def place(u: int, seen: set[tuple[str, int]]) -> bool:
            for f in homes[u]:
                for k in range(room[f]):
                    slot = (f, k)
                    if slot in seen:
                        continue
                    seen.add(slot)
                    if slot not in slots or place(slots[slot], seen):
                        slots[slot] = u
                        return True
            return False

        return [placed[u] for u in range(len(placed)) if not place(u, set())]

    def small_islands(self, state: GameState) -> list[str]:
        out: list[str] = []
        for s in state.occupied():
            if s not in state.board or not state.board.space(s).get("small_island"):
                continue
            sides: dict[str, int] = {}
            for p in state.pieces_at(s):
                if "factory" not in self.tags(p.kind):
                    sides[self.side(p.owner)] = sides.get(self.side(p.owner), 0) + 1
            for side, n in sides.items():
                if n > self.island_cap:
                    out.append(f"{n} {side} units on the small island {s} (at most {self.island_cap})")
        return out

    def xenophobia(self, state: GameState) -> list[str]:
        out: list[str] = []
        for s in state.occupied():
            if s not in state.board or state.control.get(s) != "USSR":
                continue
            if state.board.space(s).get("original_owner") != "USSR":
                continue
            for p in state.pieces_at(s):
                if p.owner in ("UK", "US"):
                    out.append(f"{p.owner} {p.kind} #{p.id} is in {s}, an original Soviet territory the USSR holds")
        return out
