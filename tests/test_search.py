"""The search player (clients/search.py): it plays legal moves of any game to its end, the same
seed gives the same play, it beats the random player in a game it has never seen, and the
knowledge a rules file gives it is checked like any rule. Deterministic: budgets are counts
of samples, never times."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from clients.cli import main
from clients.search import SearchPlayer
from engine import flow, plugins
from engine.actions import IllegalAction
from tests.conftest import LINE_MAP, LINE_SCENARIO

ROOT = Path(__file__).resolve().parents[1]
RIVER = ROOT / "examples" / "river-crossing"

#: a game no player was written for: two runners on a line of seven fields, the flag in the
#: middle; whoever stands on it at the end of their turn wins. No evaluate, no score.
FLAG_RULES = """
TURNS
turn order [Blue, Red]
phase run { steps [dash] }

stat speed: int = 1 "fields a runner moves a turn"
unit Runner { speed: 1 }

var ran: bool = false each power "the runner has moved this turn"

step dash {
    move go(u: Unit in units_of(current_power()), to: str in neighbours(u.space))
            label "run to " + space_name(to) {
        require not ran else "the runner has run this turn"
        require u.speed > 0 else "this runner cannot run"
        move_to(u, to)
        ran = true
    }
    finish "stand" { }
}

ENDING
"""
FLAG_ENDING = """
rule flag_taken on power_end(t, p) {
    if any(u in units_at("f4") where u.owner == p) {
        end_game(p, p + " holds the flag")
    }
}
"""


def write_game(folder: Path, name: str, turns: str = "turns 12", ending: str = FLAG_ENDING) -> Path:
    folder.mkdir()
    (folder / "ruleset.json").write_text(json.dumps({
        "name": name, "title": "A race for the flag", "rules": ["flag.rules"], "sides": ["Blue", "Red"],
        "scenarios": [{"name": "line", "title": "The line", "file": "scenario.json"}]}))
    (folder / "map.json").write_text(json.dumps(LINE_MAP))
    (folder / "scenario.json").write_text(json.dumps(LINE_SCENARIO))
    (folder / "flag.rules").write_text(FLAG_RULES.replace("TURNS", turns).replace("ENDING", ending))
    return folder


def play(rs: Any, players: dict[str, Any], seed: int, max_turns: int = 99) -> tuple[Any, list[str]]:
    """A game with `players` (side -> player; random where none), every action checked to be
    one of the decision's options; the final state and the labels of the actions played."""
    rng = random.Random(seed + 7)
    state = rs.logic.new_state(rs.info.scenario(None).name, seed)
    decision = flow.start(rs, state)
    played: list[str] = []
    while decision is not None and state.turn <= max_turns:
        player = players.get(rs.logic.side_of(decision.player))
        action = player.choose(rs, state, decision) if player else decision.sample(rng)
        if player:
            assert action in list(decision.options), f"{action} is not an option of {decision.kind}"
        played.append(action.label)
        state, decision = flow.apply(rs, state, action)
    return state, played


def winner(state: Any) -> str | None:
    return (state.result or {}).get("winner") or None


@pytest.fixture(scope="module")
def river() -> Any:
    return plugins.load(RIVER)


def test_it_plays_legal_moves_to_the_end_of_a_game_on_both_sides(river: Any) -> None:
    state, played = play(river, {"Blue": SearchPlayer(1, iterations=6), "Red": SearchPlayer(2, iterations=6)}, 1)
    assert state.result is not None and played


def test_the_same_seed_gives_the_same_play(river: Any) -> None:
    first = play(river, {"Blue": SearchPlayer(5, iterations=8)}, 3)[1]
    again = play(river, {"Blue": SearchPlayer(5, iterations=8)}, 3)[1]
    assert first == again


def test_its_look_ahead_never_reads_the_games_own_dice(river: Any) -> None:
    state = river.logic.new_state("sambre", 4)
    decision = flow.start(river, state)
    before = state.rng
    SearchPlayer(0, iterations=20).choose(river, state, decision)
    assert state.rng == before


def test_it_crosses_the_river_against_the_random_player(river: Any) -> None:
    # the random player as Blue has never taken both towns in these games; the search has
    searched = [winner(play(river, {"Blue": SearchPlayer(g, iterations=30)}, g)[0]) for g in range(4)]
    randomly = [winner(play(river, {}, g)[0]) for g in range(4)]
    assert randomly.count("Blue") == 0
    assert searched.count("Blue") >= 2, searched


def crossing_position(rs: Any, pieces: list[tuple[str, str, str]], blue_holds: list[str]) -> Any:
    """The river-crossing at its start with only `pieces` (kind, owner, hex) on the board and
    the hexes `blue_holds` under Blue's control."""
    state = rs.logic.new_state("sambre", 1)
    for p in list(state.pieces.values()):
        state.remove(p.id)
    for kind, owner, space in pieces:
        state.add_piece(kind, owner, space)
    for space in blue_holds:
        state.control[space] = "Blue"
    return state


def test_the_river_crossings_evaluation_counts_a_tanks_way_round_by_the_bridge(river: Any) -> None:
    # 0404 and the bridge's end 0405 are both two hexes from the town 0605 as a crow flies, but
    # a tank, which cannot wade, is three steps from it at 0404 (by the bridge) and two at 0405
    evaluate = river.rules.procedure("evaluate")
    red = ("Infantry", "Red", "0806")
    at_bank, at_bridge = (crossing_position(river, [("Tank", "Blue", h), red], []) for h in ("0404", "0405"))
    assert evaluate(at_bridge, "Blue") > evaluate(at_bank, "Blue")
    assert evaluate(at_bridge, "Red") == -evaluate(at_bridge, "Blue")


def test_reach_costs_counts_the_steps_of_the_way_round(river: Any) -> None:
    # the primitive behind river-crossing's `steps`: a tank at 0404 needs three steps to the
    # town 0605 (round by the bridge), an infantry, which wades, two; where it stands is 0
    steps = river.rules.procedure("steps")
    state = crossing_position(river, [], [])
    assert steps(state, "0404", "0605", False) == 3
    assert steps(state, "0404", "0605", True) == 2
    assert steps(state, "0404", "0404", False) == 0


def test_a_spare_unit_in_a_town_blue_holds_goes_on_to_the_other(river: Any) -> None:
    # a town is held by control: with two infantry in the town 0602, Blue sends one toward
    # 0605 (it once ended every movement there, and lost on time)
    for seed in range(3):
        state = crossing_position(river, [("Infantry", "Blue", "0602"), ("Infantry", "Blue", "0602"),
                                          ("Infantry", "Red", "0801")], ["0602"])
        decision = flow.start(river, state)
        assert decision is not None
        action = SearchPlayer(seed, iterations=20).choose(river, state, decision)
        assert action.label.startswith("move Infantry") and "(0602)" in action.label.split(" to ")[0], action.label


def test_it_wins_a_game_it_has_never_seen_from_either_side(tmp_path: Path) -> None:
    # Blue runs first: it wins every game that it runs straight for the flag, and Red cannot
    # stop a random Blue that happens to; the search wins every other
    rs = plugins.load(write_game(tmp_path / "flag", "flag"))
    for side, least in (("Blue", 8), ("Red", 6)):
        searched = [winner(play(rs, {side: SearchPlayer(g, iterations=40)}, g)[0]) for g in range(8)]
        randomly = [winner(play(rs, {}, g)[0]) for g in range(8)]
        assert searched.count(side) >= least and searched.count(side) > randomly.count(side), (side, searched)


def test_a_game_whose_rules_never_end_stops_at_max_turns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_game(tmp_path / "endless", "endless", turns="turns unlimited", ending="")
    assert main(["--mod", str(folder), "play", "endless", "--ai", "all=search:0.01", "--max-turns", "2",
                 "--no-gui"]) == 0
    assert "stopped after Turn 2" in capsys.readouterr().out


def test_a_time_budget_that_is_no_time_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--mod", str(RIVER), "play", "river-crossing", "--ai", "Blue=search:soon", "--no-gui"]) != 0
    assert "is not a time per decision" in capsys.readouterr().err
    assert main(["--mod", str(RIVER), "play", "river-crossing", "--ai", "Blue=random:1", "--no-gui"]) != 0
    assert "the `random` player takes no time per decision" in capsys.readouterr().err


def test_a_broken_evaluate_is_reported_at_check_with_its_position(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_game(tmp_path / "judged", "judged", ending=FLAG_ENDING + """
procedure evaluate(side: str) -> str {
    return side
}
""")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "flag.rules:" in out and "procedure `evaluate` is how the search player judges a position" in out
    assert "procedure evaluate(side: str) -> int or float" in out


def test_an_option_the_rules_refuse_where_its_step_ends_or_after_is_never_answered(tmp_path: Path) -> None:
    # The search judges an option that ends its step as the step leaves the position (paused
    # there, `flow.ending`), not after what the next step starts with; the rules may refuse the
    # option in either, as `flow.apply` would. Here standing still is what the rules judge best,
    # and refused: at the end of the dash, or where the next phase begins.
    refusals = {"at its end": 'rule runs_first on step_end(ph, st) when st == "dash" {',
                "after it": 'rule runs_first on phase_start(ph) when ph == "rest" {'}
    for name, rule in refusals.items():
        folder = write_game(tmp_path / name.replace(" ", "_"), "lazy", ending=FLAG_ENDING + rule + """
    require ran else "a runner runs every turn"
}
phase rest { steps [nap] }
step nap { }
procedure evaluate(side: str) -> int {
    return count(u in units_at(if side == Blue then "f1" else "f7") where u.owner == side)
}
""")
        rs = plugins.load(folder)
        state = rs.logic.new_state("line", 0)
        decision = flow.start(rs, state)
        assert decision is not None and decision.finish is not None
        paused, after = flow.apply(rs, state, decision.finish, pause=True)
        assert after is None and paused.result is None
        with pytest.raises(IllegalAction, match="a runner runs every turn"):
            flow.ending(rs, paused) if name == "at its end" else flow.resume(rs, paused)
        for seed in range(4):
            answer = SearchPlayer(seed, iterations=12).choose(rs, state, decision)
            assert answer != decision.finish and flow.why_not(rs, state, answer) is None, (name, seed)


def test_a_game_with_no_evaluate_is_judged_by_its_score_by_side(tmp_path: Path) -> None:
    from clients.search_judge import Judge

    scored = write_game(tmp_path / "scored", "scored", ending=FLAG_ENDING + """
procedure score() -> map[str, int] {
    return {Blue: 3, Red: 1, "turn": 7}
}
""")
    rs = plugins.load(scored)
    state = rs.logic.new_state("line", 0)
    flow.start(rs, state)
    # (not learning what goes with winning: tests/test_search_learn.py)
    judge = Judge(rs, learn=False)
    assert judge.informed and judge.evaluate is None
    # the side's score less the best other side's (the turn is no side)
    assert judge.raw(state, "Blue") == 3 - 1 and judge.raw(state, "Red") == 1 - 3
    assert not Judge(plugins.load(write_game(tmp_path / "blind", "blind")), learn=False).informed


@pytest.mark.slow
def test_over_ten_games_blue_crosses_the_river_far_more_often_than_chance(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import search_vs

    assert search_vs.main([str(RIVER), "--side", "Blue", "--games", "10", "--iterations", "40", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["wins"] >= 7, figures     # the random player as Blue won no game of 200 (seeds 0-199)


def test_a_big_decision_looks_at_its_options_and_searches_the_best_looking_first(river: Any) -> None:
    from clients.search import _Search

    state = river.logic.new_state("sambre", 2)
    decision = flow.start(river, state)
    while len(decision.options) <= 2:       # (a decision with something to weigh)
        state, decision = flow.apply(river, state, decision.options[0])
    player = SearchPlayer(0, iterations=40)
    search = _Search(player, river, state, decision, len(decision.options))
    looked = [a for a in search.arms + search.ranked if a.raws or a.ends]
    assert looked, "the screen looked at no option"
    # what is left to draw is kept worst first: the next drawn is the best-looking
    worth = [a.raws[0] if a.raws else a.ends[0] * 1e12 for a in search.ranked]
    assert worth == sorted(worth)
    drawn = [a for a in search.arms if a.raws or a.ends]
    if drawn and search.ranked:
        assert max(a.raws[0] if a.raws else a.ends[0] * 1e12 for a in drawn) >= worth[-1]


def test_bulge_axis_activates_hexes_rather_than_end_its_movement_at_once() -> None:
    bulge = plugins.load("bulge")
    state = bulge.logic.new_state(bulge.info.scenario(None).name, 0)
    decision = flow.start(bulge, state)
    rng = random.Random(0)
    while decision.kind != "axis_activation":
        state, decision = flow.apply(bulge, state, decision.sample(rng))
    search, activated = SearchPlayer(0, iterations=20), 0
    while decision is not None and decision.kind == "axis_activation":
        action = search.choose(bulge, state, decision)
        activated += action != decision.finish
        state, decision = flow.apply(bulge, state, action)
    assert activated >= 5, activated


def test_bulge_allies_bring_their_reinforcements_on_rather_than_end_the_turn_at_once() -> None:
    # the Allies' reinforcement step is the turn's last: `evaluate` counted the Axis's
    # activated hexes until the turn's end, so ending the turn looked a gain, and the search
    # loaded one token and ended it; they count while the Axis moves, and the Axis's push
    # is toward the towns upkeep will not give it (not the towns it holds now)
    bulge, state, decision = _bulge_at("allies_reinforce")
    search, played = SearchPlayer(0, iterations=20), []
    while decision is not None and decision.kind == "allies_reinforce":
        action = search.choose(bulge, state, decision)
        played.append(action.kind)
        state, decision = flow.apply(bulge, state, action)
    assert played.count("enter") >= 3, played


def test_a_small_decision_is_looked_at_too_and_only_its_best_looking_options_are_searched_at_first(river: Any) -> None:
    from clients.search import CANDIDATES, _Search

    state = river.logic.new_state("sambre", 2)
    decision, rng = flow.start(river, state), random.Random(0)
    while not 2 * CANDIDATES <= len(decision.options) <= 12:
        state, decision = flow.apply(river, state, decision.sample(rng))
    search = _Search(SearchPlayer(0, iterations=40), river, state, decision, len(decision.options))
    looked = search.arms + search.ranked
    assert len(looked) == len(decision.options), "every option of a small decision is looked at once"

    def worth(arm: Any) -> float:
        return float(arm.raws[0] if arm.raws else arm.ends[0] * 1e12)

    # the options searched from the start are the best-looking ones
    assert len(search.arms) == CANDIDATES
    assert min(worth(a) for a in search.arms) >= max(worth(a) for a in search.ranked)


def _bulge_at(step: str, seed: int = 0) -> tuple[Any, Any, Any]:
    bulge = plugins.load("bulge")
    state = bulge.logic.new_state(bulge.info.scenario(None).name, seed)
    decision = flow.start(bulge, state)
    rng = random.Random(seed)
    while decision.kind != step:
        state, decision = flow.apply(bulge, state, decision.sample(rng))
    return bulge, state, decision


def test_bulge_evaluate_counts_an_empty_town_beside_axis_units_as_a_town_the_axis_may_take() -> None:
    bulge, state, _ = _bulge_at("axis_activation")
    evaluate = bulge.rules.procedure("evaluate")
    claims = bulge.rules.procedure("axis_claims")(state)
    combat = ("Infantry", "Tank", "Artillery")
    axis = {p.space for p in state.pieces_of("Axis") if p.kind in combat and ":" not in p.space}
    # an Allied town the Axis does not hold or claim, with no Allied combat unit in it, beside
    # an Axis combat unit; and an empty hex far from the front
    town = next(t for t in bulge.rules.procedure("towns")(state)
                if state.controller(t) != "Axis" and t not in claims and not any(p.owner == "Allies" and p.kind in combat for p in state.pieces_at(t))
                and any(h in axis for h in state.board.adjacency[t]))
    far = next(t for t in bulge.rules.procedure("towns")(state) if t[:2] in ("02", "03") and not state.pieces_at(t))
    defended, elsewhere = state.copy(), state.copy()
    defended.add_piece("Infantry", "Allies", town)
    elsewhere.add_piece("Infantry", "Allies", far)
    assert evaluate(elsewhere, "Axis") > evaluate(defended, "Axis"), "an empty town beside Axis units is theirs to take"


def test_bulge_evaluate_has_an_off_board_truck_loaded_full_before_it_comes_on() -> None:
    bulge, state, decision = _bulge_at("axis_reinforce", seed=1)
    evaluate = bulge.rules.procedure("evaluate")

    def supply_load(d: Any) -> Any:
        return next((a for a in d.options if a.kind == "load" and "Supply" in a.label), None)

    while supply_load(decision) is None:      # the reinforcements placed first, at random
        state, decision = flow.apply(bulge, state, decision.sample(random.Random(1)))
    state, decision = flow.apply(bulge, state, supply_load(decision))   # one token aboard
    enter = next(a for a in decision.options if a.kind == "enter")
    loaded, _ = flow.apply(bulge, state, supply_load(decision))
    came_on, _ = flow.apply(bulge, state, enter)
    assert evaluate(loaded, "Axis") > evaluate(came_on, "Axis")
