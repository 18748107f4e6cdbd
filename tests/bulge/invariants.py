"""Invariants of a Battle of the Bulge game, checked after every action by the random-game
tests: the engine's (engine/invariants.py), the ruleset's own (its `wargame_invariants` hook,
rulesets/bulge/checks.py: stacking in combat, VP and the front line, piece totals), and that
cargo rides a unit that carries cargo."""

from __future__ import annotations

from typing import Any

from engine import invariants


def check(rs: Any, state: Any, previous: Any = None) -> None:
    """Raise AssertionError naming every broken invariant; `previous` is the state before the
    last action."""
    broken = invariants.problems(rs, state, previous)
    units = rs.rules.units
    broken += [f"#{p.id} rides #{p.carrier}, which carries nothing" for p in state.pieces.values()
               if p.carrier in state.pieces and units[state.pieces[p.carrier].kind].capacity == 0]
    assert not broken, "\n".join(broken)


def play_checked(rs: Any, seed: int) -> Any:
    """A whole game between two random players, every invariant checked after every action."""
    from clients.players import RandomPlayer
    from engine.game import Game

    game = Game(rs, None, seed)
    players = {"Axis": RandomPlayer(seed), "Allies": RandomPlayer(seed + 10_000)}
    check(rs, game.state)
    while not game.over:
        d, before = game.decision, game.state
        game.play(players[d.player].choose(rs, game.state, d))
        check(rs, game.state, before)
    return game
