"""AARHE's other maps: the 1942 Italy map (rulesets/aarhe/lhtr/italy-1942, made by
scripts/build_italy_1942.py) and the 1939 map (aarhe-1939, scripts/build_aarhe_1939.py) add up, is listed and described by the command line, is played
by random and computer players with every invariant kept after every action, shows in the
terminal, and AARHE's rules files are the same on every map (the powers are the scenario's
options, not a copy of the rules)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clients.odds_players import RulesOdds
from engine import plugins
from engine.game import Game
from rulesets.aarhe.ai import HeuristicPlayer
from tests.aarhe.play import aarhe
from tests.lhtr.invariants import Invariants
from tests.lhtr.soak import play
from tests.test_terminal import play as play_in_terminal

ROOT = Path(__file__).resolve().parents[2]
ITALY = "italy-1942"
Y1939 = "aarhe-1939"
NEW_SCENARIOS = [ITALY, Y1939]
SCRIPTS = {ITALY: "scripts/build_italy_1942.py", Y1939: "scripts/build_aarhe_1939.py"}
POWERS = {ITALY: ["USSR", "Germany", "Italy", "UK", "Japan", "US"],
          Y1939: ["USSR", "Germany", "Italy", "UK", "France", "Japan", "China", "US"]}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clients.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


# -- the data adds up --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def italy() -> Game:
    return Game(aarhe(), ITALY, seed=1)


@pytest.mark.parametrize("scenario", NEW_SCENARIOS)
def test_the_committed_files_are_what_the_script_makes(scenario: str) -> None:
    done = subprocess.run([sys.executable, SCRIPTS[scenario], "--check"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("scenario", NEW_SCENARIOS)
def test_every_territory_is_held_by_a_power_of_the_game_and_every_unit_stands_on_a_real_space(scenario: str) -> None:
    game = Game(aarhe(), scenario, seed=1)
    state, rs = game.state, game.ruleset
    powers = set(rs.structure.powers)
    assert list(rs.structure.powers) == POWERS[scenario]
    assert {rs.logic.side_of(p) for p in powers} == {"Allies", "Axis"}
    # every power has a capital it holds and starts with its income
    income = rs.rules.procedure("income")
    for p in powers:
        capital = rs.rules.procedure("capital_of")(state, p)
        assert capital and state.control.get(capital) == p, p
        assert state.resource(p, "ipc") >= income(state, p) - 1 > 0, p       # (AARHE's UK loses 1 to a raid)
    for sid, sp in state.board.spaces.items():
        owner = sp.get("original_owner")
        if sp.kind == "land" and owner:
            assert owner in powers, sid
            assert state.control.get(sid) in powers, sid
    assert set(state.control) <= set(state.board.spaces)
    for p in state.pieces.values():
        assert p.space in state.board and p.owner in powers, p
        tags, kind = rs.rules.units[p.kind].tags, state.board.space(p.space).kind
        assert ("sea" not in tags or kind == "sea") and ("land" not in tags or kind == "land"), p


def test_incomes_keep_the_revised_map_and_italy_gets_the_drafts_ten(italy: Game) -> None:
    revised = Game(aarhe(), "revised-1942", seed=1)

    def incomes(game: Game) -> dict[str, int]:
        income = game.ruleset.rules.procedure("income")
        return {p: income(game.state, p) for p in game.ruleset.structure.powers}

    before, after = incomes(revised), incomes(italy)
    assert after["Italy"] == 10 and after["Germany"] == before["Germany"] == 40
    assert {p: v for p, v in after.items() if p not in ("Italy", "Germany")} == \
        {p: v for p, v in before.items() if p != "Germany"}
    assert {p: italy.state.resource(p, "ipc") for p in ("Italy", "Germany")} == {"Italy": 10, "Germany": 40}
    # Norway and Finland together are worth what Revised's Norway was
    ipc = {sid: italy.state.board.space(sid).get("ipc", 0) for sid in ("Norway", "Finland", "Italy")}
    assert ipc == {"Norway": 2, "Finland": 1, "Italy": 6}
    board = italy.state.board
    assert board.space("Italy").get("capital") and board.space("Italy").get("victory_city") == "Rome"
    assert "Karelia S.S.R." in board.neighbours("Finland") and "Karelia S.S.R." not in board.neighbours("Norway")


def test_the_powers_their_order_and_sides_come_from_the_scenario(italy: Game) -> None:
    rs = italy.ruleset
    assert list(rs.structure.powers) == ["USSR", "Germany", "Italy", "UK", "Japan", "US"]
    assert rs.logic.side_of("Italy") == "Axis" and rs.logic.side_of("UK") == "Allies"
    team = Game(aarhe(team_turns=True), ITALY, seed=1).ruleset
    assert list(team.structure.powers) == ["USSR", "Germany", "Italy", "Japan", "UK", "US"]
    # the teams are the scenario's too: Italy plays in the Axis team
    assert team.rules.sequence.teams == (("Germany", "Italy", "Japan"), ("UK", "US"))
    # the standard map keeps Revised's five
    assert list(Game(aarhe(), "revised-1942", seed=1).ruleset.structure.powers) == ["USSR", "Germany", "UK", "Japan", "US"]


def test_the_1939_map_adds_tunisia_malta_iwo_jima_and_finland_and_the_new_powers_hold_their_1939_ground() -> None:
    game = Game(aarhe(), Y1939, seed=1)
    board, control = game.state.board, game.state.control
    assert {"Tunisia", "Malta", "Iwo Jima", "Finland", "Italy"} <= set(board.spaces)
    assert set(board.neighbours("Tunisia")) >= {"Algeria", "Libya", "SZ 14"}
    assert board.neighbours("Malta") == ("SZ 14",) and board.neighbours("Iwo Jima") == ("SZ 51",)
    assert board.space("Finland").get("impassable") and board.space("Balkans").get("impassable")
    held = {p: sorted(s for s, h in control.items() if h == p) for p in ("France", "China", "Italy")}
    assert held["China"] == ["China", "Sinkiang"] and held["Italy"] == ["Italian East Africa", "Italy", "Libya"]
    assert {"Western Europe", "Tunisia", "French Indochina"} <= set(held["France"])
    assert (control["Malta"], control["Iwo Jima"], control["Belorussia"]) == ("UK", "Japan", "USSR")
    # no unit stands on neutral ground
    assert not [p for p in game.state.pieces.values() if board.space(p.space).get("impassable")]


def test_an_option_the_player_gives_wins_over_the_scenarios() -> None:
    mine = {"USSR": 3, "Germany": 3, "Japan": 3, "Italy": 1}
    game = Game(plugins.load("aarhe", {"infantry_price_capital": mine}), ITALY, seed=1)
    assert game.ruleset.options["infantry_price_capital"] == mine
    assert list(game.ruleset.structure.powers)[2] == "Italy"


def test_aarhes_files_are_the_same_on_every_map() -> None:
    rs = aarhe()
    games = {sc.name: Game(rs, sc.name, seed=1) for sc in rs.info.scenarios}
    assert set(NEW_SCENARIOS) < set(games)
    files = {name: [(str(p), p.read_bytes()) for p in g.ruleset.info.rules_files] for name, g in games.items()}
    first = next(iter(files.values()))
    assert all(f == first for f in files.values())
    assert len({g.ruleset.rules.fingerprint for g in games.values()}) == 1
    # nothing in AARHE's own folder names a scenario's new power
    for path in (ROOT / "rulesets" / "aarhe" / "aarhe").glob("*.rules"):
        assert "Italy" not in path.read_text(), path


# -- the command line ---------------------------------------------------------------------------------
def test_wargame_rulesets_lists_the_new_scenarios_with_their_fidelity() -> None:
    out = cli("rulesets").stdout
    for name in NEW_SCENARIOS:
        assert out.count(f"    {name}: ") == 2 and "[fidelity: approximate]" in out      # lhtr and aarhe


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
@pytest.mark.parametrize("scenario", ["revised-1942", ITALY, Y1939])
def test_wargame_info_shows_each_powers_ipcs_and_income(ruleset: str, scenario: str) -> None:
    done = cli("info", ruleset, "--scenario", scenario, "--json")
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    powers = facts["powers"]
    assert list(powers) == facts["turn_order"]
    assert powers["Germany"] == ({"ipc": 23, "income": 23} if scenario == Y1939 else {"ipc": 40, "income": 40})
    if scenario == ITALY:
        assert powers["Italy"] == {"ipc": 10, "income": 10}
    elif scenario == Y1939:
        assert powers["France"] == {"ipc": 14, "income": 14} and powers["China"] == {"ipc": 4, "income": 4}
    else:
        assert "Italy" not in powers and powers["USSR"] == {"ipc": 24, "income": 24}


# -- played ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", NEW_SCENARIOS)
@pytest.mark.parametrize(("seed", "bold"), [(1, False), (3, True)])
def test_short_random_games_on_the_new_maps_keep_every_invariant(scenario: str, seed: int, bold: bool) -> None:
    game, inv = play(aarhe(last_round=2), seed, bold, scenario=scenario)
    assert game.result is not None and inv.checked == len(game.actions) + 1
    assert set(POWERS[scenario]) <= {data.get("power") for kind, data in game.log if kind == "power_start"}


@pytest.mark.slow
@pytest.mark.parametrize("scenario", NEW_SCENARIOS)
@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ten_round_random_games_on_the_new_maps_keep_every_invariant(scenario: str, ruleset: str, seed: int) -> None:
    game, _ = play(plugins.load(ruleset, {"last_round": 10}), seed, bold=True, scenario=scenario)
    assert game.result is not None


def computer_game(rounds: int, seed: int, scenario: str = ITALY) -> tuple[Game, dict[str, dict[str, int]]]:
    """A game the heuristic plays for every power (debug: a slip raises), checked after every
    action; what each power did, by kind of action."""
    game = Game(aarhe(last_round=rounds), scenario, seed)
    inv = Invariants(game.ruleset)
    players: dict[str, HeuristicPlayer] = {}
    done: dict[str, dict[str, int]] = {}
    while game.decision is not None:
        d = game.decision
        action = players.setdefault(d.player, HeuristicPlayer(seed, debug=True, odds=RulesOdds())).choose(game.ruleset, game.state, d)
        assert action in d.options, action
        game.play(action)
        done.setdefault(d.player, {}).setdefault(action.kind, 0)
        done[d.player][action.kind] += 1
        problems = inv.problems(game.state, final=game.decision is None)
        assert not problems, (len(game.actions), action.label, problems)
    return game, done


def test_the_computer_plays_every_power_of_the_italy_map() -> None:
    game, done = computer_game(1, 5)
    assert game.result is not None
    assert set(done) == {"USSR", "Germany", "Italy", "UK", "Japan", "US"}
    assert done["Italy"].get("buy", 0) + done["Italy"].get("buy_at_city", 0) > 0 and done["Italy"].get("place", 0) > 0


def test_the_computer_plays_every_power_of_the_1939_map() -> None:
    game, done = computer_game(1, 5, Y1939)
    assert game.result is not None and set(done) == set(POWERS[Y1939])


@pytest.mark.slow
@pytest.mark.parametrize("scenario", NEW_SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_six_round_computer_games_on_the_new_maps(scenario: str, seed: int) -> None:
    game, done = computer_game(6, seed, scenario)
    assert game.result is not None and set(done) <= set(POWERS[scenario])


def test_the_terminal_shows_the_new_territories_and_italys_turn(italy: Game) -> None:
    game = Game(aarhe(), ITALY, seed=1)
    _, console = play_in_terminal(game, ["map Finland", "map Italy", "quit", "y"])
    text = console.text
    assert "Finland" in text and "Karelia S.S.R." in text and "Italy" in text
    assert "approximate" in text


def test_the_terminal_shows_the_1939_maps_new_territories() -> None:
    _, console = play_in_terminal(Game(aarhe(), Y1939, seed=1), ["map Tunisia", "map Iwo Jima", "quit", "y"])
    assert "Tunisia" in console.text and ("SZ 51" in console.text or "Sea Zone 51" in console.text)


@pytest.mark.parametrize(("options", "says"), [
    ({"power_sides": {"USSR": 3}}, "option `power_sides` is `map[str, str]`: got int 3"),
    ({"turn_order": ["USSR", "Germany", "UK", "Japan", "US", "USSR"]}, "names `USSR` twice"),
], ids=["wrong type", "power twice"])
def test_a_scenario_whose_options_do_not_fit_is_one_clear_line(tmp_path: Path, options: dict[str, object],
                                                                says: str) -> None:
    mod = tmp_path / "badmap"
    mod.mkdir()
    (mod / "ruleset.json").write_text(json.dumps({
        "name": "badmap", "extends": "lhtr", "rules": ["x.rules"], "sides": ["Allies", "Axis"],
        "scenarios": [{"name": "bad", "file": "scenario.json"}]}))
    (mod / "x.rules").write_text("extends lhtr\n")
    sc = json.loads((ROOT / "rulesets" / "aarhe" / "lhtr" / "scenario.json").read_text())
    (mod / "scenario.json").write_text(json.dumps({**sc, "name": "bad", "map": "lhtr:map.json", "options": options}))
    for command in (["info", "badmap"], ["play", "badmap", "--ai", "Allies", "--ai", "Axis", "--max-turns", "1"]):
        done = cli("--mod", str(mod), *command)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "scenario `bad` (scenario.json): its `options`:" in lines[0] and says in lines[0], lines
