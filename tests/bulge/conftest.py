"""Fixtures for Bulge tests: the ruleset, and a blank board to set up rulebook situations."""

from __future__ import annotations

import pytest

from engine import flow, plugins


@pytest.fixture(scope="session")
def bulge():
    return plugins.load("bulge")


@pytest.fixture(scope="session")
def bulge_rulebook_stacking():
    return plugins.load("bulge", options={"stacking_rulebook": "true"})


class Table:
    """A board with nothing on it, at a chosen point of the turn, for rulebook situations."""

    def __init__(self, rs, turn: int = 2, step: str = "attacks", to_attack: str = "Axis"):
        self.rs = rs
        state = rs.logic.new_state("ardennes-1944", 0)
        for pid in list(state.pieces):
            state.remove(pid)
        structure = rs.structure
        flow.fire(rs, state, structure.begin(state))
        for _ in range(500):
            if state.turn == turn and structure.step(state) == step:
                break
            flow.fire(rs, state, structure.advance(state))
        else:
            raise AssertionError(f"never reached turn {turn}, step {step}")
        state.events.clear()
        # in the middle of the step: its `start` has run (a rules step) and its moves are asked
        state.started = ((state.turn, state.power_index, state.phase_index, state.step_index), "run")
        self.state = state
        if step == "attacks":
            state.vars["to_attack"] = to_attack

    def hex(self, name: str) -> str:
        sid = self.state.board.find(name)
        assert sid, name
        return sid

    def put(self, side: str, where: str, **kinds: int) -> list[int]:
        sid = self.hex(where) if not where[:1].isdigit() else where
        self.state.control.setdefault(sid, side)
        ids = []
        for kind, n in kinds.items():
            for _ in range(n):
                ids.append(self.state.add_piece(kind, side, sid).id)
        return ids

    def put_active(self, side: str, where: str, **kinds: int) -> list[int]:
        """Units whose hex has paid to move (as if activated in the step before)."""
        ids = self.put(side, where, **kinds)
        for pid in ids:
            p = self.state.pieces[pid]
            self.state.update(pid, status=p.status | {"active"})
        return ids

    def example_b(self) -> tuple[str, str, list[int], list[int], list[int], int]:
        """The rulebook's example B (NOTES.md §4.5): 3 Infantry, 3 Tanks, 2 Artillery and a
        Truck in Bastogne attacked from 1314 by 2 Infantry and 4 Tanks, with its dice loaded.
        Returns the target, where the attack comes from, and the defenders' ids by kind."""
        s = self.state
        target, attack_from = self.hex("Bastogne"), "1314"
        s.control[attack_from] = "Axis"
        infs = self.put("Allies", target, Infantry=3)
        tanks = self.put("Allies", target, Tank=3)
        arts = self.put("Allies", target, Artillery=2)
        (truck,) = self.put("Allies", target, Truck=1)
        self.put("Axis", attack_from, Infantry=2, Tank=4, Supply=1)
        s.load_dice([1, 2, 4, 4, 5, 6, 6, 7, 10, 11] + [3, 6, 6, 7, 9, 11, 12])
        return target, attack_from, infs, tanks, arts, truck

    def at(self, where: str, side: str | None = None) -> list[str]:
        sid = self.hex(where) if not where[:1].isdigit() else where
        return [p.kind for p in self.state.pieces_at(sid) if side is None or p.owner == side]

    def play(self, action):
        if self.rs.structure.step(self.state) in self.rs.rules.steps:
            # as in a game, a step of the rules files is asked before it is answered: its
            # `start` runs now, on the table as it was set up
            self.rs.logic.decision(self.state)
        new, decision = flow.apply(self.rs, self.state, action)
        self.state = new
        return decision


@pytest.fixture
def table(bulge):
    return lambda **kw: Table(bulge, **kw)
