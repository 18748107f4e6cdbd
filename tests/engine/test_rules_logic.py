"""A whole game in the rules language: moves declared once, a battle that loops, casualties
chosen by the player whose turn it is not, and the game ending from the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

import dsl
from engine import flow, plugins
from engine.actions import Action, IllegalAction
from engine.game import Game
from engine.primitives import register_core
from engine.rules import structure_from_rules
from engine.rules_logic import RulesLogic
from engine.ruleset import LoadedRuleset, RulesetInfo, ScenarioInfo

DUEL = Path(__file__).parents[1] / "rulesets" / "duel"


def duel(folder: Path = DUEL) -> LoadedRuleset:
    """The duel game of `folder` (its duel.rules, map.json and scenario.json), loaded by hand."""
    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([folder / "duel.rules"], reg)
    info = RulesetInfo("duel", "Duel", folder, (folder / "duel.rules",),
                       (ScenarioInfo("road", "Meeting on the road", path=folder / "scenario.json"),), sides=("Red", "Blue"))
    logic = RulesLogic(rules, info, structure_from_rules(rules))
    return LoadedRuleset(info, (info,), plugins._manager(), rules, logic, rules.options)


@pytest.fixture
def game() -> Game:
    return Game(duel(), "road", seed=3)


def test_the_moves_a_step_offers_are_the_moves_it_accepts(game: Game) -> None:
    d = game.decision
    assert d.player == "Red" and d.kind == "advance"
    assert d.finish is not None and d.finish.label == "end movement"
    marches = [a for a in d.options if a.kind == "march"]
    # two Militia in A step to B; the Guard in B (speed 2) reaches A, C and D
    assert sorted((game.state.pieces[a["u"]].kind, a["to"]) for a in marches) == [
        ("Guard", "A"), ("Guard", "C"), ("Guard", "D"), ("Militia", "B"), ("Militia", "B")]
    guard = next(a["u"] for a in marches if a["to"] == "D")
    assert "march Guard to D" in [a.label for a in marches]
    with pytest.raises(IllegalAction, match="too far: a unit moves at most its speed"):
        game.play(Action("march", {"u": guard, "to": "E"}))
    assert flow.why_not(game.ruleset, game.state, Action("march", {"u": guard, "to": "E"})) == \
        "too far: a unit moves at most its speed"
    game.play(Action("march", {"u": guard, "to": "D"}))
    assert game.state.pieces[guard].space == "D"
    again = [a for a in game.decision.options if a.kind == "march" and a["u"] == guard]
    assert again == []          # it has moved this turn (a game variable remembers)


def test_a_battle_loops_and_the_defender_chooses_its_casualties(game: Game) -> None:
    s = game.state
    for p in list(s.pieces.values()):
        s.remove(p.id)
    guard = s.add_piece("Guard", "Red", "D").id
    m1, m2 = s.add_piece("Militia", "Blue", "D").id, s.add_piece("Militia", "Blue", "D").id
    s.load_dice([1, 6, 2])      # Red hits; the Militia left misses; Red hits again
    game.play(Action("finish"))     # Red ends movement: the battle in D begins
    d = game.decision
    assert (d.player, d.kind) == ("Blue", "choose")          # not Red's to choose
    assert sorted(a["choice"] for a in d.options) == sorted([m1, m2])
    assert d.prompt == "choose a casualty in D"
    game.play(Action("choose", {"choice": m2}))
    # the second hit had one target only, so nobody was asked; Blue has nothing left
    assert m1 not in game.state.pieces and m2 not in game.state.pieces
    assert game.state.pieces[guard].space == "D"
    assert game.state.vars["battles_fought"] == 1
    assert game.decision is None
    assert (game.result.winner, game.result.reason) == ("Red", "Blue has no units left")
    assert game.result.score == {"Red": 1, "Blue": 0}
    with pytest.raises(IllegalAction):
        Game(duel(), "road", seed=3).play(Action("choose", {"choice": m1}))


def test_a_question_in_the_middle_of_the_rules_replays_exactly() -> None:
    """Casualty choices are actions in the log: replaying them gives the same state."""
    import random

    for seed in range(40):
        game = Game(duel(), "road", seed=seed)
        rnd = random.Random(seed)
        while game.decision is not None:
            game.play(rnd.choice(game.decision.options))
        if any(a.kind == "choose" for a in game.actions):
            break
    else:
        raise AssertionError("no casualty was ever chosen in 40 games")
    again = Game(duel(), "road", seed=seed)
    for a in game.actions:
        again.play(a)
    assert again.state.signature() == game.state.signature()
    assert again.result == game.result


def test_the_game_ends_from_the_rules(game: Game) -> None:
    import random
    rnd = random.Random(1)
    while game.decision is not None:
        game.play(rnd.choice(game.decision.options))
    r = game.result
    assert r is not None
    assert r.winner in ("Red", "Blue", None)
    if r.winner:
        assert "no units left" in r.reason
    assert set(r.score) == {"Red", "Blue"}


def test_choose_is_refused_where_nobody_can_be_asked() -> None:
    reg = dsl.Registry()
    register_core(reg)
    text = (DUEL / "duel.rules").read_text() + '\nrule bad on turn_start(t) { let x = choose(Red, "?", [1, 2]) }\n'
    diags = dsl.check_rules([("duel.rules", text)], reg)
    assert any("`choose` asks a player, which a rule bound to an event cannot do" in d.message for d in diags)


def test_a_step_in_no_phase_is_an_error_with_a_hint() -> None:
    reg = dsl.Registry()
    register_core(reg)
    text = (DUEL / "duel.rules").read_text().replace("step battles {", "step batles {")
    diags = dsl.check_rules([("duel.rules", text)], reg)
    (d,) = [d for d in diags if "in no phase" in d.message]
    assert "battles" in (d.hint or "")


def test_a_require_past_the_guard_refuses_the_action_with_its_reason(tmp_path: Path) -> None:
    """`require` after a move's first statements (after a `choose`, say) refuses the whole
    action like one in its guard, and leaves the state as it was."""
    for f in ("map.json", "scenario.json"):
        (tmp_path / f).write_text((DUEL / f).read_text())
    text = (DUEL / "duel.rules").read_text().replace(
        "move_to(u, to)\n", "move_to(u, to)\n        require to != \"D\" else \"not into D today\"\n", 1)
    (tmp_path / "duel.rules").write_text(text)
    rs = duel(tmp_path)
    game = Game(rs, "road", seed=3)
    to_d = next(a for a in game.decision.options if a.kind == "march" and a["to"] == "D")
    before = game.state.signature()
    assert flow.why_not(rs, game.state, to_d) == "not into D today"
    with pytest.raises(IllegalAction, match="not into D today"):
        game.play(to_d)
    assert game.state.signature() == before


def test_a_scenario_may_start_later_and_event_rules_see_fresh_variables(tmp_path: Path) -> None:
    import json

    sc = json.loads((DUEL / "scenario.json").read_text())
    sc["start"] = {"turn": 3}
    (tmp_path / "scenario.json").write_text(json.dumps(sc))
    (tmp_path / "map.json").write_text((DUEL / "map.json").read_text())
    text = (DUEL / "duel.rules").read_text() + (
        '\nvar budget: int = 0 each step\n'
        'rule give on step_start(phase, step) when step == "advance" { budget = 5 }\n')
    (tmp_path / "duel.rules").write_text(text)
    game = Game(duel(tmp_path), "road", seed=3)
    assert game.state.turn == 3
    assert game.state.vars["budget"] == 5          # reset before the rule ran, not after


def test_an_answer_not_offered_is_refused_with_the_reason_the_rules_give(tmp_path: Path) -> None:
    """`choose(player, prompt, options, labels, refused)`: an answer among `refused`'s keys
    is refused with its reason, any other one with the engine's words."""
    for f in ("map.json", "scenario.json"):
        (tmp_path / f).write_text((DUEL / f).read_text())
    text = (DUEL / "duel.rules").read_text() + '''
phase scouting { steps [scout] }
var scouted: bool = false each turn
step scout {
    move look(u: Unit in movers(current_power())) {
        let shut: map[str, str] = {}
        for s in spaces() where s != "B" and s != "C" {
            shut[s] = "the road to " + s + " is closed"
        }
        let to = choose(current_power(), "scout where?", ["B", "C"], ["B", "C"], shut)
        scouted = true
    }
    finish "no scouting" { }
}
'''
    (tmp_path / "duel.rules").write_text(text)
    reg = dsl.Registry()
    register_core(reg)
    rules = dsl.load_rules([tmp_path / "duel.rules"], reg)
    info = RulesetInfo("duel", "Duel", tmp_path, (tmp_path / "duel.rules",),
                       (ScenarioInfo("road", "r", path=tmp_path / "scenario.json"),), sides=("Red", "Blue"))
    rs = LoadedRuleset(info, (info,), plugins._manager(), rules, RulesLogic(rules, info, structure_from_rules(rules)),
                       rules.options)
    game = Game(rs, "road", seed=3)
    game.play(game.decision.finish)                     # Red ends movement; battles run by themselves
    look = next(a for a in game.decision.options if a.kind == "look")
    game.play(look)
    assert [a["choice"] for a in game.decision.options] == ["B", "C"]
    assert flow.why_not(rs, game.state, Action("choose", {"choice": "E"})) == "the road to E is closed"
    assert flow.why_not(rs, game.state, Action("choose", {"choice": "Z"})) == "'Z' is not one of the choices: scout where?"
    game.play(Action("choose", {"choice": "C"}))
    assert game.state.vars["scouted"] is True


def test_labels_of_choose_built_by_a_loop_are_made_when_the_player_is_asked(tmp_path: Path) -> None:
    """The labels are made lazily (only when a player is asked), and the loop that builds them
    still runs under the step budget."""
    for f in ("map.json", "scenario.json"):
        (tmp_path / f).write_text((DUEL / f).read_text())
    text = (DUEL / "duel.rules").read_text() + '''
phase scouting { steps [scout] }
step scout {
    move look(u: Unit in movers(current_power())) {
        let to = choose(current_power(), "scout where?", ["B", "C"], ["scout " + s for s in ["B", "C"] where any(t == s for t in spaces())])
    }
    finish "no scouting" { }
}
'''
    (tmp_path / "duel.rules").write_text(text)
    game = Game(duel(tmp_path), "road", seed=3)
    game.play(game.decision.finish)
    game.play(next(a for a in game.decision.options if a.kind == "look"))
    assert [a.label for a in game.decision.options] == ["scout B", "scout C"]


def test_the_refusals_of_choose_must_map_its_options_to_reasons() -> None:
    reg = dsl.Registry()
    register_core(reg)
    text = (DUEL / "duel.rules").read_text().replace(
        'let victim = choose(enemy(side), "choose a casualty in " + where, targets)',
        'let victim = choose(enemy(side), "choose a casualty in " + where, targets, ["x" for t in targets], {1: "no"})')
    diags = dsl.check_rules([("duel.rules", text)], reg)
    assert any("the refusals of `choose` must be a `map[Unit, str]`" in d.message for d in diags), diags


def test_the_rules_may_word_the_status_line(tmp_path: Path) -> None:
    """`procedure status_line() -> str` gives the whole line; without it, `power_summary(p)`
    follows the engine's line for each power in turn order (an empty one left out)."""
    for f in ("map.json", "scenario.json"):
        (tmp_path / f).write_text((DUEL / f).read_text())
    rules = (DUEL / "duel.rules").read_text()
    assert Game(duel(), "road", seed=3).status() == "Turn 1 of 6, Red's turn, movement: advance"
    summary = ('\nprocedure power_summary(p: str) -> str {\n'
               '    return if p == Blue then "" else p + " has " + str(len(units_of(p))) + " units"\n}\n')
    (tmp_path / "duel.rules").write_text(rules + summary)
    game = Game(duel(tmp_path), "road", seed=3)
    assert game.status() == "Turn 1 of 6, Red's turn, movement: advance | Red has 3 units"
    line = ('\nprocedure status_line() -> str {\n'
            '    return current_power() + " to play, " + current_phase() + "/" + current_step() + " of turn " + str(turn())\n}\n')
    (tmp_path / "duel.rules").write_text(rules + summary + line)
    game = Game(duel(tmp_path), "road", seed=3)
    assert game.status() == "Red to play, movement/advance of turn 1"
    game.play(game.decision.finish)
    assert game.status() == "Blue to play, movement/advance of turn 1"
