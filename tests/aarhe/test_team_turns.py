"""Option `team_turns` (RULES.md B, Round order; S5, S7): the turn order of earlier AARHE
versions, USSR, then the Axis team (Germany, Japan), then the Allies team (UK, US). A team's
members play each phase in turn, and conduct combat together: their units attack a space as
one side, in one battle. `wargame info`, the game, the log, a save and the air
reinforcements all follow it; off, LHTR's order stays, each power playing its turn alone."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from clients import terminal
from clients.cli import main
from clients.odds_players import RulesOdds
from engine import save
from engine.game import Game
from rulesets.aarhe.ai import HeuristicPlayer
from tests.aarhe.play import aarhe, at_aarhe, new
from tests.lhtr.play import asked, fight, rolls, step
from tests.lhtr.soak import SCENARIO, play

LHTR_ORDER = ["USSR", "Germany", "UK", "Japan", "US"]
TEAM_ORDER = ["USSR", "Germany", "Japan", "UK", "US"]


def power_starts(game: Game) -> list[tuple[int, str]]:
    return [(e["turn"], e["power"]) for kind, e in game.log if kind == "power_start"]


@pytest.mark.parametrize(("argv", "order"), [([], LHTR_ORDER), (["--option", "team_turns=true"], TEAM_ORDER)],
                         ids=["default", "team_turns"])
def test_wargame_info_gives_the_turn_order_the_options_make(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                             order: list[str]) -> None:
    assert main(["info", "aarhe", "--json", *argv]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["turn_order"] == order
    if argv:
        assert facts["teams"] == ["Germany and Japan", "UK and US"]
        assert facts["played_together"] == ["mission_combat", "conduct_combat"]
    else:
        assert "teams" not in facts
    assert facts["options"]["team_turns"]["status"] == "unconfirmed"
    assert facts["options"]["team_turns"]["source"] == "RULES.md B, Round order; S5, S7"


def heuristic_game(last_round: int, seed: int, until: Callable[[Game], bool] = lambda game: False) -> Game:
    """A team-turn game the heuristic plays on both sides, to its end or until `until` holds."""
    rs = aarhe(team_turns=True, last_round=last_round)
    game = Game(rs, SCENARIO, seed)
    ai = HeuristicPlayer(seed, odds=RulesOdds())
    while game.decision is not None and not until(game):
        game.play(ai.choose(rs, game.state, game.decision))
    return game


def test_the_computer_players_play_ussr_then_the_axis_then_the_allies() -> None:
    game = heuristic_game(2, 4)
    assert power_starts(game) == [(t, p) for t in (1, 2) for p in TEAM_ORDER]
    assert game.result is not None


@pytest.mark.parametrize("bold", [False, True], ids=["uniform", "bold"])
def test_a_random_three_round_game_keeps_every_invariant(bold: bool) -> None:
    game, inv = play(aarhe(team_turns=True, last_round=3), 7, bold)
    assert game.result is not None
    rounds = game.state.turn
    assert power_starts(game)[:5 * rounds] == [(t, p) for t in range(1, rounds + 1) for p in TEAM_ORDER]
    assert inv.checked == len(game.actions) + 1
    assert {"fight", "reinforce"} <= {a.kind for a in game.actions}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("bold", [False, True], ids=["uniform", "bold"])
def test_random_six_round_team_games_keep_every_invariant(seed: int, bold: bool) -> None:
    game, inv = play(aarhe(team_turns=True, last_round=6), seed, bold)
    assert game.result is not None and game.state.turn == 6
    assert inv.checked == len(game.actions) + 1


def phases_played(game: Game) -> list[tuple[str, str]]:
    """("power", name) at each power's start and end, ("phase", name) at each phase played."""
    return [("phase", e["phase"]) if kind == "phase_start" else (kind, e["power"])
            for kind, e in game.log if kind in ("phase_start", "power_start", "power_end")]


def test_the_log_shows_each_member_play_a_phase_in_turn_and_the_team_fight_once() -> None:
    seen = phases_played(heuristic_game(1, 4))
    axis = seen[seen.index(("power_start", "Germany")):seen.index(("power_end", "Japan")) + 1]
    twice = [[("phase", ph)] * 2 for ph in ("collect_income", "purchase", "air_missions", "combat_move",
                                             "end_of_combat_move")]
    after = [[("phase", ph)] * 2 for ph in ("noncombat_move", "mobilize")]
    # each member plays its phases in turn; the team resolves its air missions and fights once
    assert axis == [("power_start", "Germany"), ("power_start", "Japan"), *sum(twice, []),
                    ("phase", "mission_combat"), ("phase", "conduct_combat"), *sum(after, []),
                    ("power_end", "Germany"), ("power_end", "Japan")]
    allies = seen[seen.index(("power_start", "UK")):]
    assert allies.count(("phase", "conduct_combat")) == 1 and allies.count(("phase", "mission_combat")) == 1
    assert allies.count(("phase", "lend_lease")) == 1 and allies.count(("phase", "combat_move")) == 2
    assert allies[-2:] == [("power_end", "UK"), ("power_end", "US")]


def joint_attack_on_libya() -> tuple[object, int, int]:
    """The Allies' team turn of round 1: in their combat moves, a UK infantry from Anglo-Egypt
    and then a US tank from Algeria attack Libya, held by two German infantry."""
    g, ids = at_aarhe("UK", [("Infantry", "UK", "Anglo Egypt", 1), ("Tank", "US", "Algeria", 1),
                             ("Infantry", "Germany", "Libya", 2)],
                      control={"Libya": "Germany", "Algeria": "US", "Anglo Egypt": "UK"}, team_turns=True)
    uk, us = ids["UK Infantry Anglo Egypt"][0], ids["US Tank Algeria"][0]
    step(g, uk, "Libya")
    g.walk_to("US", "combat_move", turn=1)
    assert g.rs.structure.acting(g.state) == ("US",)
    assert g.rs.logic.status(g.state).startswith("Round 1, US of the UK and US team: combat move | IPCs: ")
    step(g, us, "Libya")
    g.walk_to("UK", "conduct_combat", turn=1)
    return g, uk, us


def test_uk_and_us_units_attack_one_territory_together_in_one_battle() -> None:
    g, uk, us = joint_attack_on_libya()
    assert g.rs.structure.acting(g.state) == ("UK", "US")
    assert g.rs.structure.where(g.state).endswith("the UK and US team's turn, together, conduct combat: conduct combat")
    assert g.rs.logic.status(g.state).startswith("Round 1, UK and US together: conduct combat | IPCs: ")
    # one battle, fought by the team (the UK speaks for it: a land unit each, the UK first)
    assert (g.decision.player, g.labels("fight")) == ("UK", ["battle in Libya"])
    # the UK infantry hits on its 1, the US tank on its 1; the Germans' 1 hits too, and the UK
    # chooses which of the team's units is lost
    fight(g, "Libya", [1, 1, 1, 6])
    assert rolls(g) == [[1], [1], [1, 6]]
    assert asked(g) == ("UK", "fire in Libya: choose a casualty (1 to take)", ["UK Infantry", "US Tank"])
    g.choose(next(a.args["choice"] for a in g.options() if a.label == "UK Infantry"))
    assert g.piece(uk) is None and g.piece(us) is not None and g.at("Libya", "Germany") == []
    # the US tank, alone left, takes Libya for the US
    assert g.state.control["Libya"] == "US"
    assert g.step == "noncombat_move" and g.power == "UK"


def test_the_team_resolves_both_members_air_missions_together() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1), ("Bomber", "US", "United Kingdom", 1),
                             ("AAGun", "Germany", "Western Europe", 1)], step="declare_missions", team_turns=True)
    uk, us = ids["UK Bomber United Kingdom"][0], ids["US Bomber United Kingdom"][0]
    g.act("fly_mission", u=uk, kind="sbr", to="Western Europe")
    assert (g.power, g.step) == ("US", "declare_missions")     # the UK has no more aircraft to send
    g.act("fly_mission", u=us, kind="sbr", to="Western Europe")
    g.walk_to("UK", "resolve_missions", turn=1)
    assert g.rs.structure.acting(g.state) == ("UK", "US")
    # one bombing run of both bombers: AA rolls a die for each (1 hits), the UK, first there,
    # chooses the casualty; the US bomber left rolls 4 against Western Europe's income
    g.state.load_dice([1, 6, 4])
    g.log = []
    g.act("resolve", where="Western Europe")
    assert asked(g) == ("UK", "anti-aircraft fire at the bombing run over Western Europe: choose a casualty (1 to take)",
                        ["UK Bomber", "US Bomber"])
    g.choose(uk)
    assert rolls(g) == [[1, 6], [4]] and g.piece(uk) is None and g.piece(us) is not None
    assert dict(g.var("income_damage")) == {"Western Europe": 4}


def test_without_team_turns_the_uk_fights_alone() -> None:
    g, ids = at_aarhe("UK", [("Infantry", "UK", "Anglo Egypt", 1), ("Tank", "US", "Libya", 1),
                             ("Infantry", "Germany", "Libya", 2)],
                      control={"Libya": "Germany", "Anglo Egypt": "UK"})
    step(g, ids["UK Infantry Anglo Egypt"][0], "Libya")
    g.walk_to("UK", "conduct_combat", turn=1)
    assert g.rs.structure.acting(g.state) == ("UK",)
    fight(g, "Libya", [6, 6, 6])
    assert rolls(g) == [[6], [6, 6]]    # the UK infantry alone attacks; the US tank stands by


def test_the_other_reading_plays_each_members_whole_turn_alone() -> None:
    g = new(team_turns=True, team_combat_together=False)
    assert g.rs.structure.powers == tuple(TEAM_ORDER) and g.rs.structure.spans == ()
    g.walk_to("Germany", "noncombat_move", turn=1)
    assert g.rs.structure.team(g.state) == ("Germany",)
    g.walk_to("Japan", "purchase", turn=1)
    assert g.rs.structure.team(g.state) == ("Japan",)
    assert "Japan's turn" in g.rs.structure.where(g.state)


def test_the_terminal_says_whose_turn_it_is_in_a_team_turn() -> None:
    def at_japans_purchase(game: Game) -> bool:
        return game.ruleset.structure.power(game.state) == "Japan" and game.ruleset.structure.step(game.state) == "purchase"

    game = heuristic_game(1, 3, at_japans_purchase)
    out: list[str] = []
    lines = ["1"]

    def read(prompt: str) -> str:
        out.append(prompt)
        if not lines:
            raise EOFError     # the player leaves, as at the end of the input
        return lines.pop(0)

    terminal.play_terminal(game, {}, None, read=read, write=out.append)
    text = "\n".join(out)
    assert "Round 1, Japan of the Germany and Japan team: purchase | IPCs: " in text
    assert "Japan: " in text


def test_a_save_in_the_middle_of_a_team_turn_replays_exactly_and_goes_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rs = aarhe(team_turns=True, last_round=2)
    game = Game(rs, SCENARIO, 2)
    ai = HeuristicPlayer(2, odds=RulesOdds())
    structure = rs.structure
    while not (structure.power(game.state) == "Japan" and structure.phase(game.state).name == "combat_move"):
        game.play(ai.choose(rs, game.state, game.decision))
    path = tmp_path / "team.json"
    save.save(game, path)
    assert json.loads(path.read_text())["options"] == {"team_turns": True, "last_round": 2}
    report = save.replay(path)
    assert report.matches, report.differences
    again = save.load(path)
    assert again.ruleset.structure.powers == tuple(TEAM_ORDER)
    assert structure.team(again.state) == ("Germany", "Japan") and again.state.turn == 1
    while again.decision is not None and structure.phase(again.state).name != "conduct_combat":
        again.play(ai.choose(again.ruleset, again.state, again.decision))
    assert structure.acting(again.state) == ("Germany", "Japan")
    while again.decision is not None:
        again.play(ai.choose(again.ruleset, again.state, again.decision))
    assert again.result is not None
    path2 = tmp_path / "team-end.json"
    save.save(again, path2)
    assert main(["replay", str(path2)]) == 0


@pytest.mark.parametrize(("options", "after_germany"), [({}, ["UK", "Japan", "US", "USSR"]),
                                                        ({"team_turns": True}, ["Japan", "UK", "US", "USSR"])],
                         ids=["default", "team_turns"])
def test_the_air_reinforcements_go_round_in_the_turn_order(options: dict[str, bool], after_germany: list[str]) -> None:
    g = new(**options)
    g.walk_to("Germany", "combat_move", turn=1)
    assert g.rs.rules.procedure("powers")(g.state) == list(g.rs.structure.powers)
    assert g.rs.rules.procedure("passive_powers")(g.state) == after_germany
