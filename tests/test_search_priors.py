"""The search player with the rules' priors over moves (clients/search.py): where a step's moves
give priors, its look-ahead plays the most promising option, and a big decision's options are
looked at most promising first; where none do, it plays as before. Deterministic: budgets are
counts of samples."""

from __future__ import annotations

import gc
import random
import time
from pathlib import Path
from typing import Any

import pytest

from clients.search import SearchPlayer, _Search, best_first, keep_loaded, prior_of, priors_of
from clients.search_policy import DefaultPolicy
from dsl import limits, set_limits
from dsl.errors import RulesRuntimeError
from dsl.runtime import OutOfTime
from engine import flow, plugins
from tests.dsl.test_priors import PRIOR, game_with, laps
from tests.test_search import play, write_game


@pytest.fixture(scope="module")
def bulge() -> Any:
    return plugins.load("bulge")


def test_best_first_puts_the_best_prior_last_and_draws_the_order_of_equals() -> None:
    orders = {tuple(best_first([0.0, 3.0, -1.0, 3.0, 1.0], random.Random(seed))) for seed in range(20)}
    assert orders == {(2, 0, 4, 1, 3), (2, 0, 4, 3, 1)}


def test_the_look_ahead_plays_the_option_of_the_best_prior(tmp_path: Path) -> None:
    primed = plugins.load(game_with(tmp_path, PRIOR))
    plain = plugins.load(write_game(tmp_path / "plain", "plain"))
    ran = {}
    for name, rs in (("primed", primed), ("plain", plain)):
        state = rs.logic.new_state("line", 0)
        decision = flow.start(rs, state)
        moved = 0
        for seed in range(20):
            player = SearchPlayer(seed, iterations=2, learn=False)   # no evaluate, no learning
            _, after, _ = DefaultPolicy(player, rs, player.judge(rs)).move(state, decision)
            moved += any(u.owner == "Blue" and u.space == "f2" for u in after.pieces.values())
        ran[name] = moved
    # the runner runs toward the flag every time; without a prior the finish is taken 9 times in 10
    assert ran["primed"] == 20 and ran["plain"] < 10, ran


def test_a_prior_toward_the_goal_wins_the_race_the_search_alone_does_not(tmp_path: Path) -> None:
    wins = {}
    for name, folder in (("primed", game_with(tmp_path, PRIOR)), ("plain", write_game(tmp_path / "plain", "plain"))):
        rs = plugins.load(folder)
        wins[name] = 0
        for seed in range(4):
            state, _ = play(rs, {"Blue": SearchPlayer(seed, iterations=6, learn=False)}, seed)
            wins[name] += (state.result or {}).get("winner") == "Blue"
    assert wins["primed"] == 4 and wins["plain"] < 4, wins


def big_axis_move(rs: Any) -> tuple[Any, Any]:
    """A Bulge Axis movement decision of more than 100 options, reached by random play."""
    state = rs.logic.new_state(rs.info.scenario(None).name, 0)
    decision = flow.start(rs, state)
    rng = random.Random(0)
    while not (decision.kind == "axis_move" and len(decision.options) > 100):
        state, decision = flow.apply(rs, state, decision.sample(rng))
    return state, decision


def test_a_big_decision_is_looked_at_best_prior_first(bulge: Any) -> None:
    rs = bulge
    state, decision = big_axis_move(rs)
    player = SearchPlayer(0, iterations=16)
    priors = player.priors(rs, decision)
    assert priors is not None and len(set(priors)) > 2
    search = _Search(player, rs, state, decision, len(decision.options))
    looked = [arm.action for arm in search.arms + search.ranked if arm.action != decision.finish]
    assert len(looked) == 7       # (half the samples: the screen, the finish one of them)
    best = sorted(priors, reverse=True)[:len(looked)]
    assert sorted((prior_of(a) for a in looked), reverse=True) == best


def test_bulge_priors_say_the_rulebook_plan(bulge: Any) -> None:
    """The Axis's first two turns, played by its priors alone: where a combat unit can enter
    a VP town the Allies hold with no combat unit in it and room for it, the most promising
    move is a combat unit's (into such a town, or where the plan values it more: a tank on to
    its blitz hex), or a truck's load, which moves nothing (not a truck's move, not the end
    of the step); a truck off the board comes on with two supply tokens at least where more
    wait to be loaded onto it (a truck that came on may drive its load on first; a truck on
    the board does not load in that step)."""
    rs = bulge
    state = rs.logic.new_state(rs.info.scenario(None).name, 0)
    decision = flow.start(rs, state)
    rng = random.Random(3)
    seen = set()
    units = rs.rules.units

    town_open = rs.rules.procedure("open_town")      # (a town of the other side, no combat unit in it)

    def open_town(h: str) -> bool:       # (one that carries VP, with room for one more unit)
        ours = sum(1 for p in state.pieces_at(h) if p.owner == "Axis" and "combat" in units[p.kind].tags)
        return bool(town_open(state, h, "Axis")) and bool(state.board.space(h).get("vp")) \
            and ours < rs.rules.options["stacking_limit"]

    def combat(a: Any) -> bool:
        return "combat" in units[state.pieces[a.args["pieces"][0]].kind].tags

    while decision is not None and state.turn <= 2:
        priors = SearchPlayer(0).priors(rs, decision)
        if priors is not None and decision.player == "Axis":
            best = decision.options[max(range(len(priors)), key=priors.__getitem__)]
            if decision.kind == "axis_move" and any(a.kind == "move" and open_town(a.args["to"]) and combat(a)
                                                    for a in decision.options):
                seen.add(decision.kind)
                assert best.kind == "load" or (best.kind == "move" and combat(best)), best.label
            if decision.kind == "axis_reinforce" and any(a.kind == "enter" for a in decision.options) \
                    and any(a.kind == "load" and "supply" in units[state.pieces[a.args["piece"]].kind].tags
                            and state.pieces[a.args["truck"]].space not in state.board for a in decision.options):
                seen.add(decision.kind)
                if best.kind == "enter":
                    truck = state.pieces[best.args["truck"]]
                    assert sum("supply" in units[c.kind].tags for c in state.pieces_at(truck.space)
                               if c.carrier == truck.id) >= 2, best.label
                else:           # (or a truck that came on drives its load on first)
                    assert best.kind in ("load", "move"), best.label
            action = best         # (the Axis played by its priors alone, the Allies at random)
        else:
            action = decision.sample(rng)
        state, decision = flow.apply(rs, state, action)
    assert seen == {"axis_move", "axis_reinforce"}


def test_where_no_move_gives_a_prior_the_search_sees_none(tmp_path: Path) -> None:
    rs = plugins.load(write_game(tmp_path / "plain", "plain"))    # (the flag race without a prior)
    state = rs.logic.new_state(rs.info.scenario(None).name, 0)
    decision = flow.start(rs, state)
    player = SearchPlayer(0)
    for _ in range(30):
        if decision is None:
            break
        assert player.priors(rs, decision) is None
        state, decision = flow.apply(rs, state, decision.options[0])


def test_a_prior_that_fails_while_the_game_runs_is_reported_at_its_line(tmp_path: Path) -> None:
    from dsl import RulesRuntimeError

    rs = plugins.load(game_with(tmp_path, 'prior [1, 2][distance(to, "f4") + 5]'))
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    with pytest.raises(RulesRuntimeError, match=r"flag\.rules:13:\d+: index out of range"):
        SearchPlayer(0, iterations=4, learn=False).choose(rs, state, decision)


def test_the_default_policy_alone_plays_a_game_by_its_priors(tmp_path: Path) -> None:
    """`SearchPlayer(policy=True)` (benchmarks/search_vs.py --policy) answers each decision
    with the default policy alone, no samples: the runner heads for the flag by its prior."""
    rs = plugins.load(game_with(tmp_path, PRIOR))
    for seed in range(4):
        player = SearchPlayer(seed, learn=False, policy=True)
        state, _ = play(rs, {"Blue": player}, seed)
        assert (state.result or {}).get("winner") == "Blue"
        assert player.spent and all(samples == 0 for samples, _ in player.spent)


#: a gamble: Blue may bet its runner on one die (a 6 wins the game, anything else loses it) or
#: stand; the rules judge every unfinished position alike
GAMBLE = """
step dash {
    move bet() label "bet on a six" {
        if roll(1, 6)[0] == 6 {
            end_game("Blue", "Blue rolled a six")
        } else {
            end_game("Red", "Blue rolled less")
        }
    }
    finish "stand" { }
}
procedure evaluate(side: str) -> int {
    return 0
}
"""


def test_the_default_policy_alone_never_reads_the_games_dice(tmp_path: Path) -> None:
    """Its look at a bet rolls dice of its own: were it the game's, it would bet exactly when
    the game's die is about to be a six, and win every bet."""
    folder = write_game(tmp_path / "gamble", "gamble", turns="turns 1")
    rules = (folder / "flag.rules").read_text()
    start = rules.index("step dash")
    (folder / "flag.rules").write_text(rules[:start] + GAMBLE)
    rs = plugins.load(folder)
    bets = won = 0
    for seed in range(60):
        state = rs.logic.new_state("line", seed)
        decision = flow.start(rs, state)
        action = SearchPlayer(seed, policy=True).choose(rs, state, decision)
        if action.label == "bet on a six":
            bets += 1
            won += (flow.apply(rs, state, action)[0].result or {}).get("winner") == "Blue"
    assert bets > 3 and won < bets, (bets, won)


#: rules that judge every position alike
FLAT = "\nprocedure evaluate(side: str) -> int {\n    return 0\n}\n"


def first_choices_on_a_flat_board(tmp_path: Path, iterations: int) -> set[str]:
    """The search's first choice at 12 seeds, in the race with priors toward the flag and
    rules that judge every position alike."""
    rs = plugins.load(game_with(tmp_path, PRIOR, extra=FLAT))
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    return {SearchPlayer(seed, iterations=iterations).choose(rs, state, decision).label for seed in range(12)}


def test_the_search_keeps_the_rulebook_move_unless_its_samples_show_a_better(tmp_path: Path) -> None:
    """Where the moves give priors, the default policy's option (the best prior) is answered
    unless another option's samples beat it beyond their noise: with rules that judge every
    position alike, no sample can, and the runner runs toward the flag at every seed."""
    chosen = first_choices_on_a_flat_board(tmp_path, iterations=8)
    assert chosen == {"run to Field 2 (f2)"}, chosen


def test_the_rulebook_move_stands_where_the_budget_ran_out_before_it_was_sampled(tmp_path: Path) -> None:
    """A budget spent before the default policy's option has a sample of its own (a big
    decision whose priors and screen take the time) is no evidence against it: the option
    that happened to be sampled does not win by default."""
    chosen = first_choices_on_a_flat_board(tmp_path, iterations=1)
    assert chosen == {"run to Field 2 (f2)"}, chosen


def test_where_no_move_gives_a_prior_a_small_decisions_policy_move_stands_too(tmp_path: Path) -> None:
    """A decision of a few options whose moves give no prior, in rules that judge positions:
    the default policy weighs every option one look ahead, and its option is answered unless
    another's samples beat it beyond their noise (LHTR's casualty choices and retreats were
    answered by the best of a few noisy samples each). With rules that judge every position
    alike no sample can, so the search answers as the policy alone does at every seed."""
    rs = plugins.load(game_with(tmp_path, "", extra=FLAT, name="plain"))
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    assert SearchPlayer(0).priors(rs, decision) is None and 1 < len(decision.options) <= 8
    searched = [SearchPlayer(seed, iterations=8).choose(rs, state, decision).label for seed in range(12)]
    policy = [SearchPlayer(seed, policy=True).choose(rs, state, decision).label for seed in range(12)]
    assert searched == policy and len(set(policy)) > 1, (searched, policy)


def test_a_decisions_priors_read_in_one_call_are_each_options_own(bulge: Any) -> None:
    """The priors of a decision's options are read in one call into the rules (what the
    rules remember within a call, such as a walk of the board, is then worked out once for
    them all): each is what the option's own prior gives."""
    rs = bulge
    state = rs.logic.new_state(rs.info.scenario(None).name, 0)
    decision = flow.start(rs, state)
    rng = random.Random(1)
    seen = set()
    while decision is not None and state.turn <= 2:
        if decision.kind in ("axis_move", "axis_activation", "axis_reinforce", "attacks") and len(decision.options) > 3:
            together = priors_of(rs, decision.options)
            assert together == [prior_of(a) for a in decision.options], decision.kind
            if len(set(together)) > 1:
                seen.add(decision.kind)
        state, decision = flow.apply(rs, state, decision.sample(rng))
    assert seen == {"axis_move", "axis_activation", "axis_reinforce", "attacks"}


def test_a_prior_that_fails_is_reported_at_its_line_when_read_with_the_others(tmp_path: Path) -> None:
    rs = plugins.load(game_with(tmp_path, 'prior 10 // (distance(to, "f4") - 2)'))
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    with pytest.raises(RulesRuntimeError) as failed:
        SearchPlayer(0).priors(rs, decision)
    assert "flag.rules:" in str(failed.value) and "zero" in str(failed.value)


def test_each_prior_read_with_the_others_has_the_steps_of_a_call_of_its_own(bulge: Any) -> None:
    """A decision of hundreds of options reads its priors in one call into the rules, but the
    rules' step budget (`wargame --rules-budget`) is each prior's, as when read one by one:
    with a budget each prior fits alone and all of them together do not, they are all read."""
    rs = bulge
    state, decision = big_axis_move(rs)
    spec = rs.rules.steps["axis_move"].move("move")
    assert spec.prior is not None
    rules = spec.prior.__wrapped__.__globals__
    alone, used = [], []
    for a in decision.options:
        alone.append(prior_of(a))
        used.append(limits().steps - rules["_L"])
    assert sum(used) > 2 * max(used)
    old = set_limits(steps=max(used) + 10)
    try:
        assert priors_of(rs, decision.options) == alone
    finally:
        set_limits(steps=old.steps)


@pytest.fixture(scope="module")
def slow_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, float]:
    """The race for the flag whose runner's prior takes long, and how long one prior takes."""
    # (a prior of some 9,000,000 rounds of a loop)
    rs = plugins.load(game_with(tmp_path_factory.mktemp("slow"), 'prior laps() - distance(to, "f4")', laps(3000, 3000)))
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    began = time.process_time()
    prior_of(decision.options[0])
    return rs, time.process_time() - began


def test_priors_read_with_a_deadline_stop_soon_after_it_and_leave_the_rules_whole(slow_game: tuple[Any, float]) -> None:
    """A caller in a hurry gives the priors' call a deadline on the CPU clock: the rules stop
    at it (dsl.runtime: the clock is looked at every CLOCK_STEPS steps, inside a prior too),
    not after the prior, and answer as before when asked again without one."""
    rs, one = slow_game
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    began = time.process_time()
    with pytest.raises(OutOfTime):
        priors_of(rs, decision.options, began + one / 10)
    assert time.process_time() - began < one / 2
    assert priors_of(rs, decision.options) == [prior_of(a) for a in decision.options]


def test_a_search_answers_in_its_time_when_one_prior_takes_longer(slow_game: tuple[Any, float]) -> None:
    """Its time per decision is kept within its budget where the rules' priors are slow: the
    decision's own are given up at the deadline (it is searched without them), and so is a
    sample's move whose priors are still being read."""
    rs, one = slow_game
    state = rs.logic.new_state("line", 0)
    decision = flow.start(rs, state)
    keep_loaded()       # (once a process: a collection of everything a test run holds)
    player = SearchPlayer(0, seconds=one / 10)
    began = time.process_time()
    action = player.choose(rs, state, decision)
    assert action in list(decision.options)
    assert time.process_time() - began < one / 2
    assert gc.get_freeze_count() > 0
