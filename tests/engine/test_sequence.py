"""The turn sequence walks turns, powers, phases and steps, and reports every boundary."""

from engine.board import Board, Space
from engine.sequence import PhaseSpec, TurnStructure
from engine.state import GameState


def state() -> GameState:
    return GameState(Board([Space("a", "a")]))


def names(boundaries):
    return [(n, *a.values()) for n, a in list(boundaries)]


def test_shared_phases_with_a_skipped_phase_and_game_end():
    ts = TurnStructure(
        phases=(PhaseSpec("air", ("place",), when=lambda s: s.turn >= 2), PhaseSpec("ground", ("attack", "move"))),
        powers=("Axis", "Allies"), turns=2)
    s = state()
    assert names(ts.begin(s)) == [("turn_start", 1), ("phase_skipped", "air"), ("phase_start", "ground"),
                                  ("step_start", "ground", "attack")]
    assert names(ts.advance(s)) == [("step_end", "ground", "attack"), ("step_start", "ground", "move")]
    assert names(ts.advance(s)) == [("step_end", "ground", "move"), ("phase_end", "ground"), ("turn_end", 1),
                                    ("turn_start", 2), ("phase_start", "air"), ("step_start", "air", "place")]
    list(ts.advance(s))
    list(ts.advance(s))
    last = names(ts.advance(s))
    assert last[-2:] == [("turn_end", 2), ("game_end",)]


def test_each_power_plays_all_phases_in_order():
    ts = TurnStructure(phases=(PhaseSpec("purchase", ("buy",)), PhaseSpec("combat", ("fight",))),
                       powers=("USSR", "Germany"), per_power=True, turns=None, turn_names=())
    s = state()
    list(ts.begin(s))
    seen = []
    for _ in range(6):
        seen.append((s.turn, ts.power(s), ts.phase(s).name))
        list(ts.advance(s))
    assert seen == [(1, "USSR", "purchase"), (1, "USSR", "combat"), (1, "Germany", "purchase"),
                    (1, "Germany", "combat"), (2, "USSR", "purchase"), (2, "USSR", "combat")]
    assert "Turn 3" == ts.turn_name(3)
