"""Invariants of a Battle of the Bulge game, checked after every action by the random-game
tests and the soak script (benchmarks/soak.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulesets.bulge import terrain

COMBAT_PHASES = ("air_combat", "ground_combat")


def totals(state: Any) -> Counter:
    return Counter((p.owner, p.kind) for p in state.pieces.values())


def check(rs: Any, state: Any, before: Counter | None = None) -> Counter:
    """Raise AssertionError naming the broken invariant; returns the piece totals."""
    # no piece in two places: the index by space agrees with every piece
    seen: dict[int, str] = {}
    for space in list(state.occupied()):
        for pid in state.ids_at(space):
            assert pid not in seen, f"piece #{pid} is in both {seen[pid]} and {space}"
            seen[pid] = space
            assert state.pieces[pid].space == space, f"piece #{pid} is indexed in {space}"
    assert set(seen) == set(state.pieces), "a piece is missing from the board index"
    # supply and every other resource never negative
    assert all(v >= 0 for v in state.resources.values()), f"negative resource: {state.resources}"
    # cargo rides a truck that exists, in the truck's space
    for p in state.pieces.values():
        if p.carrier is not None:
            truck = state.pieces.get(p.carrier)
            assert truck is not None and truck.kind == "Truck", f"#{p.id} rides a missing truck"
            if terrain.on_board(truck.space):
                assert p.space == truck.space, f"#{p.id} is not where its truck is"
    phase = rs.structure.phase(state).name
    if phase in COMBAT_PHASES and state.result is None:
        opts = rs.rules.options
        for space in list(state.occupied()):
            if terrain.on_board(space):
                for side in terrain.SIDES:
                    assert not terrain.overstacked(state, space, side, opts), f"{space} over the stacking limit"
        # VP as tallied agrees with the front line (control changes only at upkeep)
        if state.turn > 1:
            assert state.resource("Axis", "vp") == rs.rules.procedure("axis_vp")(state), "VP and front line disagree"
    # piece totals: combat units and air units are never created in play; only supply is
    now = totals(state)
    if before is not None:
        for (side, kind), n in now.items():
            if kind in terrain.COMBAT:
                assert n <= before.get((side, kind), 0), f"{side} gained a {kind}"
            if kind in terrain.AIR:
                assert n == before.get((side, kind), 0), f"{side} {kind}s changed in number"
    return now


def play_checked(rs: Any, seed: int) -> Any:
    """A whole game between two random players, every invariant checked after every action."""
    from clients.players import RandomPlayer
    from engine.game import Game

    game = Game(rs, None, seed)
    players = {"Axis": RandomPlayer(seed), "Allies": RandomPlayer(seed + 10_000)}
    totals = check(rs, game.state)
    while not game.over:
        d = game.decision
        game.play(players[d.player].choose(rs, game.state, d))
        totals = check(rs, game.state, totals)
    return game
