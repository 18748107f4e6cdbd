"""What examples/river-crossing/crossing.rules tells the search player: its `evaluate` counts the
danger of a unit left alone beside the enemy (the search's look-ahead ends with Blue's own
turn, before Red's attacks), and its moves' priors give the plan Blue keeps to. Deterministic:
the games are played by the priors alone or with budgets of samples."""

from __future__ import annotations

from typing import Any

import pytest

from clients.search import SearchPlayer
from engine import flow, plugins
from tests.test_search import RIVER, crossing_position, play, winner


@pytest.fixture(scope="module")
def river() -> Any:
    return plugins.load(RIVER)


def test_a_tank_alone_over_the_bridge_beside_the_enemy_is_worth_less_than_one_kept_back(river: Any) -> None:
    # a step over the bridge (0402 to 0502) brings a unit nearer the town 0602; beside the Red
    # infantry at 0603 a lone tank (one defence die) is what Red's attack next turn picks off,
    # a stack of three (five dice back) is not
    evaluate = river.rules.procedure("evaluate")
    red = [("Infantry", "Red", "0603")]

    def position(hex_: str, kinds: list[str]) -> Any:
        return crossing_position(river, [(k, "Blue", hex_) for k in kinds] + red, [])

    tank = ["Tank"]
    stack = ["Tank", "Infantry", "Infantry"]
    assert evaluate(position("0502", tank), "Blue") < evaluate(position("0402", tank), "Blue")
    assert evaluate(position("0502", stack), "Blue") > evaluate(position("0402", stack), "Blue")


def test_on_turn_1_the_plan_sends_the_infantry_over_first_and_no_tank_alone(river: Any) -> None:
    state = river.logic.new_state("sambre", 1)
    decision = flow.start(river, state)
    assert decision is not None
    priors = SearchPlayer(0).priors(river, decision)
    assert priors is not None
    best = decision.options[max(range(len(priors)), key=priors.__getitem__)]
    assert best.label.startswith("move Infantry"), best.label
    over_alone = [p for a, p in zip(decision.options, priors)
                  if a.label in ("move Tank #3 from 0402 to 0502", "move Tank #5 from 0405 to 0505")]
    assert len(over_alone) == 2 and all(p < 0 for p in over_alone)     # (worse than ending the movement)


def test_the_plan_alone_takes_the_towns_against_the_random_player(river: Any) -> None:
    # no samples: each decision answered by the priors (evaluate choosing among equals); the
    # rules without priors won 6 of these 10 so
    won = [winner(play(river, {"Blue": SearchPlayer(g, policy=True)}, g)[0]) for g in range(10)]
    assert won.count("Blue") >= 9, won
