"""AARHE air missions with fixed dice (RULES.md part B, Phase 3 "Air Mission", Phase 4 "Air
Missions", "Strategic Bombing Run", "Night Bombing", "Counter Air"): declared before combat
move, the defenders' aircraft committed at the end of the declarations, all resolved before
the normal battles, in which neither side's mission aircraft fight."""

from __future__ import annotations

import random

from clients.players import RandomPlayer
from engine import flow
from engine.game import Game
from tests.aarhe.play import Play, aarhe, at_aarhe
from tests.lhtr.soak import bold_weight


def rolls(g: Play) -> list[list[int]]:
    return [e[1]["faces"] for e in g.log if e[0] == "roll"]


def destroyed(g: Play) -> list[str]:
    return [f'{e[1]["owner"]} {e[1]["kind"]}' for e in g.log if e[0] == "destroyed"]


def asked(g: Play) -> tuple[str, str, list[str]]:
    d = g.decision
    assert d is not None and d.kind == "choose"
    return d.player, d.prompt, [a.label for a in d.options]


def resolve(g: Play, where: str, dice: list[int]) -> None:
    """Walk on to the resolution of the missions and resolve those over `where`."""
    g.walk_to(g.power, "resolve_missions")
    g.state.load_dice(dice)
    g.log = []
    g.act("resolve", where=where)


def done(g: Play) -> None:
    """End the declarations (the step ends by itself once no aircraft has a mission left)."""
    if g.step == "declare_missions" and g.decision is not None and g.decision.kind != "choose":
        g.finish()


def damage(g: Play) -> dict[str, int]:
    return dict(g.var("income_damage"))


UK_RAID = [("Bomber", "UK", "United Kingdom", 1), ("Fighter", "UK", "United Kingdom", 1),
           ("Fighter", "Germany", "Western Europe", 2), ("AAGun", "Germany", "Western Europe", 1)]


# -- declaring ------------------------------------------------------------------------------------
def test_missions_are_declared_before_combat_move() -> None:
    g, ids = at_aarhe("UK", UK_RAID, step="declare_missions")
    bomber, fighter = ids["UK Bomber United Kingdom"][0], ids["UK Fighter United Kingdom"][0]
    assert g.rs.structure.phase(g.state).name == "air_missions"
    labels = g.labels("fly_mission")
    assert "strategic bombing run on Western Europe with the UK Bomber in United Kingdom" in labels
    assert "night bombing on Western Europe with the UK Bomber in United Kingdom" in labels
    assert "counter air on Western Europe with the UK Fighter in United Kingdom" in labels
    assert not any(label.startswith("escort") for label in labels)          # no bombing run yet
    g.act("fly_mission", u=bomber, kind="sbr", to="Western Europe")
    assert g.piece(bomber).space == "Western Europe"
    assert "escort on Western Europe with the UK Fighter in United Kingdom" in g.labels("fly_mission")
    g.act("fly_mission", u=fighter, kind="escort", to="Western Europe")
    assert g.options("fly_mission") == []
    # the defender is asked at the end of the declarations
    done(g)
    player, prompt, options = asked(g)
    assert player == "Germany"
    assert prompt == ("strategic bombing run on Western Europe by 2 aircraft: send fighters up to intercept, "
                      "at most 2 (0 so far)")
    assert options == ["no (more) interceptors", "Germany Fighter"]
    g.choose(-1)
    assert g.step == "combat_move"
    # mission aircraft take no other combat move
    assert g.why_not("go", u=bomber) == "that unit cannot move in combat move"


def test_refused_missions_say_why() -> None:
    g, ids = at_aarhe("Germany", [("Bomber", "Germany", "Germany", 2), ("Fighter", "Germany", "Germany", 1),
                                  ("Infantry", "Germany", "Germany", 1), ("Fighter", "USSR", "Caucasus", 1)],
                      step="declare_missions")
    bomber, fighter = ids["Germany Bomber Germany"][0], ids["Germany Fighter Germany"][0]
    inf = ids["Germany Infantry Germany"][0]
    assert g.why_not("fly_mission", u=inf, kind="sbr", to="Russia") == "a Infantry flies no air missions"
    assert g.why_not("fly_mission", u=fighter, kind="sbr", to="Russia") == \
        "a Fighter cannot fly a strategic bombing run: only bombers do"
    assert g.why_not("fly_mission", u=bomber, kind="counter_air", to="Caucasus") == \
        "a Bomber cannot fly counter air: only fighters do"
    assert g.why_not("fly_mission", u=fighter, kind="night", to="Russia") == \
        "a Fighter cannot fly night bombing: only night bombers (bombers) do"
    assert g.why_not("fly_mission", u=bomber, kind="sbr", to="Southern Europe") == \
        "Southern Europe is not an enemy territory"
    assert g.why_not("fly_mission", u=bomber, kind="sbr", to="Gibraltar") == "Gibraltar has no income to bomb"
    assert g.why_not("fly_mission", u=bomber, kind="sbr", to="Western United States") == \
        "Western United States is out of the Bomber's range: it has 6 moves left"
    assert g.why_not("fly_mission", u=fighter, kind="escort", to="Russia") == \
        "no bomber of yours flies a strategic bombing run on Russia for the Fighter to escort"
    assert g.why_not("fly_mission", u=fighter, kind="counter_air", to="Russia") == \
        "there are no enemy aircraft in Russia for a counter-air mission to fight"
    assert g.why_not("fly_mission", u=bomber, kind="sbr", to="Russia") is None
    g.act("fly_mission", u=bomber, kind="sbr", to="Russia")
    assert g.why_not("fly_mission", u=bomber, kind="night", to="Karelia S.S.R.") == \
        "the Bomber already flies a strategic bombing run mission: an aircraft flies one mission a turn"
    done(g)
    g.walk_to("Germany", "resolve_missions")
    assert g.why_not("resolve", where="Karelia S.S.R.") == "no air mission of yours waits over Karelia S.S.R."


def test_a_mission_reaches_as_far_as_an_attack_since_aircraft_fly_home_on_a_whole_move() -> None:
    # RULES.md B, Phase 3 and 5, Air movement: aircraft use up to their movement in combat move
    # and again in non-combat move (option air_moves_each_phase), so a bomber may bomb what it
    # may attack, and a counter-air fighter needs its reach out only, its way back being flown
    # in non-combat move
    pieces = [("Bomber", "Germany", "Germany", 1), ("Fighter", "Germany", "Germany", 1),
              ("Fighter", "USSR", "Caucasus", 1)]
    g, ids = at_aarhe("Germany", pieces, step="declare_missions")
    bomber, fighter = ids["Germany Bomber Germany"][0], ids["Germany Fighter Germany"][0]
    assert g.why_not("fly_mission", u=bomber, kind="sbr", to="Eastern United States") is None
    assert g.why_not("fly_mission", u=fighter, kind="counter_air", to="Caucasus") is None
    g.act("fly_mission", u=fighter, kind="counter_air", to="Caucasus")
    g.act("fly_mission", u=bomber, kind="sbr", to="Eastern United States")
    # with LHTR's one allowance for the whole turn, the flight out leaves what the way home has
    g, ids = at_aarhe("Germany", pieces, step="declare_missions", air_moves_each_phase=False)
    bomber, fighter = ids["Germany Bomber Germany"][0], ids["Germany Fighter Germany"][0]
    assert g.why_not("fly_mission", u=bomber, kind="sbr", to="Eastern United States") == \
        "the Bomber could not land after flying to Eastern United States: no landing place is within 0 moves of it"
    assert g.why_not("fly_mission", u=fighter, kind="counter_air", to="Caucasus") == \
        "a counter-air Fighter must fly to Caucasus and back: 6 moves, and it has 4"


def test_lhtrs_raid_on_an_industrial_complex_is_not_offered() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "Western Europe", 1), ("IndustrialComplex", "Germany", "Western Europe", 1)])
    bomber = ids["UK Bomber Western Europe"][0]
    g.state.vars["spent"] = {**g.var("spent"), bomber: 2}
    assert g.options("raid") == []
    assert g.why_not("raid", b=bomber) == "only a bomber over an enemy industrial complex may raid it"


# -- strategic bombing run --------------------------------------------------------------------------
def test_a_strategic_bombing_run_with_escort_and_interceptors() -> None:
    g, ids = at_aarhe("UK", UK_RAID, step="declare_missions")
    bomber, escort = ids["UK Bomber United Kingdom"][0], ids["UK Fighter United Kingdom"][0]
    g.act("fly_mission", u=bomber, kind="sbr", to="Western Europe")
    g.act("fly_mission", u=escort, kind="escort", to="Western Europe")
    done(g)
    interceptor, spare = ids["Germany Fighter Western Europe"]
    g.choose(interceptor)
    assert asked(g)[1].endswith("(1 so far)")
    g.choose(-1)
    assert g.piece(interceptor).marked("air_defence") and not g.piece(spare).marked("air_defence")
    # AA: 2 aircraft, one gun: 3 and 4 miss. The air round: the interceptor at 2 rolls 2 (a
    # hit), the escort at 1 rolls 1 (a hit). The UK chooses its casualty: the escort. The
    # bomber left rolls 5: Western Europe's income drops by 5
    resolve(g, "Western Europe", [3, 4, 2, 1, 5])
    player, prompt, options = asked(g)
    assert player == "UK" and prompt == "interceptors over Western Europe: choose a casualty (1 to take)"
    assert options == ["UK Fighter", "UK Bomber"]
    g.choose(escort)
    assert rolls(g) == [[3, 4], [2], [1], [5]]
    assert sorted(destroyed(g)) == ["Germany Fighter", "UK Fighter"]
    assert g.piece(interceptor) is None and g.piece(spare) is not None and g.piece(bomber) is not None
    assert damage(g) == {"Western Europe": 5}


def test_anti_aircraft_fire_comes_first_and_shot_down_bombers_do_no_damage() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 2), ("AAGun", "Germany", "Western Europe", 1)],
                      step="declare_missions")
    b1, b2 = ids["UK Bomber United Kingdom"]
    g.act("fly_mission", u=b1, kind="sbr", to="Western Europe")
    g.act("fly_mission", u=b2, kind="sbr", to="Western Europe")
    done(g)                                  # no fighters there: nothing to ask
    resolve(g, "Western Europe", [1, 6, 4])     # AA: one bomber down; the other rolls 4
    assert rolls(g) == [[1, 6], [4]]
    assert destroyed(g) == ["UK Bomber"]
    assert damage(g) == {"Western Europe": 4}


def test_interceptors_are_at_most_the_attacking_aircraft() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1), ("Fighter", "Germany", "Western Europe", 3)],
                      step="declare_missions")
    g.act("fly_mission", u=ids["UK Bomber United Kingdom"][0], kind="sbr", to="Western Europe")
    done(g)
    player, prompt, options = asked(g)
    assert prompt.endswith("at most 1 (0 so far)")
    g.choose(ids["Germany Fighter Western Europe"][0])
    assert g.step == "combat_move"             # no second question
    assert sum(1 for f in ids["Germany Fighter Western Europe"] if g.piece(f).marked("air_defence")) == 1
    # the interceptor at 2 rolls 3; the bomber rolls 6
    resolve(g, "Western Europe", [3, 6])
    assert rolls(g) == [[3], [6]] and damage(g) == {"Western Europe": 6}


def test_interceptors_that_came_by_air_reinforcement_may_not_go_up() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1), ("Fighter", "Germany", "Western Europe", 1)],
                      step="declare_missions")
    fighter = ids["Germany Fighter Western Europe"][0]
    g.state.update(fighter, status=g.state.pieces[fighter].status | {"reinforced"})
    g.act("fly_mission", u=ids["UK Bomber United Kingdom"][0], kind="sbr", to="Western Europe")
    done(g)
    assert g.step == "combat_move"             # nobody to ask


# -- night bombing --------------------------------------------------------------------------------
def test_night_bombing_takes_half_of_each_die_and_cannot_be_intercepted() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 2), ("Fighter", "Germany", "Western Europe", 2),
                             ("AAGun", "Germany", "Western Europe", 1)], step="declare_missions")
    b1, b2 = ids["UK Bomber United Kingdom"]
    g.act("fly_mission", u=b1, kind="night", to="Western Europe")
    g.act("fly_mission", u=b2, kind="night", to="Western Europe")
    done(g)
    assert g.step == "combat_move"             # the defender is asked nothing
    # AA misses both; the bombers roll 5 and 3: 2 + 1 (each halved, rounded down)
    resolve(g, "Western Europe", [2, 3, 5, 3])
    assert rolls(g) == [[2, 3], [5], [3]]
    assert damage(g) == {"Western Europe": 3}
    assert all(g.piece(f) is not None for f in ids["Germany Fighter Western Europe"])


def test_the_share_of_the_die_night_bombing_takes_is_an_option() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 2), ("AAGun", "Germany", "Western Europe", 1)],
                      step="declare_missions", night_bombing_share=75)
    for b in ids["UK Bomber United Kingdom"]:
        g.act("fly_mission", u=b, kind="night", to="Western Europe")
    done(g)
    # AA misses; 75% of 5 and of 3, each rounded down: 3 + 2 (at the default 50%: 2 + 1)
    resolve(g, "Western Europe", [2, 3, 5, 3])
    assert rolls(g) == [[2, 3], [5], [3]]
    assert damage(g) == {"Western Europe": 5}


# -- counter air ----------------------------------------------------------------------------------
CA = [("Fighter", "UK", "United Kingdom", 2), ("Fighter", "Germany", "Western Europe", 1),
      ("Bomber", "Germany", "Western Europe", 1), ("Infantry", "Germany", "Western Europe", 1),
      ("AAGun", "Germany", "Western Europe", 1)]


def declare_counter_air(g: Play, ids: dict[str, list[int]]) -> None:
    for f in ids["UK Fighter United Kingdom"]:
        g.act("fly_mission", u=f, kind="counter_air", to="Western Europe")
    done(g)


def test_counter_air_makes_the_defender_commit_as_many_aircraft() -> None:
    g, ids = at_aarhe("UK", CA, step="declare_missions")
    declare_counter_air(g, ids)
    player, prompt, options = asked(g)
    assert player == "Germany"
    assert prompt == ("counter air over Western Europe: commit air units to fight the 2 attacking fighters, "
                      "at least 2 (0 so far)")
    assert options == ["Germany Fighter", "Germany Bomber"]          # no "no more" before 2
    g.choose(ids["Germany Fighter Western Europe"][0])
    # the bomber is the only one left, and must go: nothing more to ask
    assert g.step == "combat_move"
    committed = ids["Germany Fighter Western Europe"] + ids["Germany Bomber Western Europe"]
    assert all(g.piece(u).marked("air_defence") for u in committed)
    assert not any(g.proc("may_reinforce", g.state.pieces[u]) for u in committed)
    assert g.proc("may_reinforce", g.state.pieces[ids["Germany Infantry Western Europe"][0]])


def test_the_defender_may_commit_more_than_it_must() -> None:
    g, ids = at_aarhe("UK", [("Fighter", "UK", "United Kingdom", 1), ("Fighter", "Germany", "Western Europe", 2)],
                      step="declare_missions")
    declare_counter_air(g, ids)
    # the first fighter must go up (both are alike: nothing to ask); the second may
    player, prompt, options = asked(g)
    assert options == ["no more", "Germany Fighter"] and prompt.endswith("at least 1 (1 so far)")
    g.choose(ids["Germany Fighter Western Europe"][1])
    assert all(g.piece(u).marked("air_defence") for u in ids["Germany Fighter Western Europe"])


def test_counter_air_anti_aircraft_fire_then_air_combat() -> None:
    g, ids = at_aarhe("UK", CA, step="declare_missions")
    declare_counter_air(g, ids)
    g.choose(ids["Germany Fighter Western Europe"][0])
    # AA: 2 dice, a 1 hits a UK fighter. Air combat: the UK fighter left (2) rolls 2, a hit;
    # the German bomber (1) rolls 1, a hit, and its fighter (2) rolls 4. Germany chooses its
    # casualty
    resolve(g, "Western Europe", [1, 6, 2, 1, 4])
    player, prompt, options = asked(g)
    assert player == "Germany" and prompt == "counter air over Western Europe: choose a casualty (1 to take)"
    assert options == ["Germany Fighter", "Germany Bomber"]
    g.choose(ids["Germany Bomber Western Europe"][0])
    assert rolls(g) == [[1, 6], [2], [1], [4]]
    assert destroyed(g) == ["UK Fighter", "Germany Bomber", "UK Fighter"]
    assert g.kinds_at("Western Europe") == {"AAGun": 1, "Fighter": 1, "Infantry": 1}
    assert damage(g) == {}


def test_counter_air_fighters_return_to_where_they_took_off() -> None:
    g, ids = at_aarhe("UK", CA, step="declare_missions")
    declare_counter_air(g, ids)
    g.choose(ids["Germany Fighter Western Europe"][0])
    resolve(g, "Western Europe", [6, 6, 6, 6, 6])         # everybody misses
    g.walk_to("UK", "noncombat_move")
    for f in ids["UK Fighter United Kingdom"]:
        assert g.piece(f).space == "United Kingdom"
        assert g.why_not("go", u=f) == "that unit cannot move in non-combat move"
    g.walk_to("Japan", "purchase")
    assert all(g.piece(f) is not None for f in ids["UK Fighter United Kingdom"])


def test_bombers_fly_home_after_their_mission() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 1)], step="declare_missions")
    bomber = ids["UK Bomber United Kingdom"][0]
    g.act("fly_mission", u=bomber, kind="sbr", to="Germany")    # 3 moves there, 3 left
    resolve(g, "Germany", [2])
    assert damage(g) == {"Germany": 2}
    g.walk_to("UK", "noncombat_move")
    assert g.piece(bomber).space == "Germany"
    g.act("go", u=bomber)
    assert "SZ 5" in [a["choice"] for a in g.options()]


# -- missions and normal combat -------------------------------------------------------------------
def test_mission_aircraft_and_their_defenders_take_no_part_in_normal_combat() -> None:
    g, ids = at_aarhe("USSR", [("Fighter", "USSR", "Russia", 1), ("Tank", "USSR", "Russia", 1),
                               ("Fighter", "Germany", "West Russia", 1), ("Infantry", "Germany", "West Russia", 1)],
                      step="declare_missions")
    ca, tank = ids["USSR Fighter Russia"][0], ids["USSR Tank Russia"][0]
    defender = ids["Germany Fighter West Russia"][0]
    g.act("fly_mission", u=ca, kind="counter_air", to="West Russia")
    done(g)                                    # the German fighter must go up: no question
    assert g.piece(defender).marked("air_defence")
    g.act("go", u=tank)
    g.choose("West Russia")
    g.finish()
    resolve(g, "West Russia", [6, 6])             # the air combat: both miss
    g.walk_to("USSR", "conduct_combat")
    g.state.load_dice([1, 6])
    g.log = []
    g.act("fight", where="West Russia")           # only the tank and the infantry roll
    assert rolls(g) == [[1], [6]]
    assert destroyed(g) == ["Germany Infantry"]
    assert g.state.control["West Russia"] == "USSR"
    # the committed fighter must leave the fallen territory: Germany chooses where
    player, prompt, options = asked(g)
    assert player == "Germany"
    assert prompt == ("West Russia has fallen: where does the Germany Fighter that defended it against "
                      "an air mission retreat to?")
    assert options == ["Belorussia", "Ukraine S.S.R."]
    g.choose("Ukraine S.S.R.")
    assert g.piece(defender).space == "Ukraine S.S.R."
    # no other battle: non-combat move begins, and the counter-air fighter is back home
    assert g.step == "noncombat_move" and g.piece(ca).space == "Russia"


def test_committed_aircraft_retreat_only_where_their_power_may_move() -> None:
    # found by a random game: a US fighter retreated from a fallen territory into a Soviet one
    g, ids = at_aarhe("Germany", [("Fighter", "Germany", "Ukraine S.S.R.", 1), ("Tank", "Germany", "Caucasus", 1),
                                  ("Fighter", "UK", "Persia", 1)],
                      control={"Caucasus": "Germany"}, step="declare_missions")
    g.act("fly_mission", u=ids["Germany Fighter Ukraine S.S.R."][0], kind="counter_air", to="Persia")
    done(g)
    g.act("go", u=ids["Germany Tank Caucasus"][0])
    g.choose("Persia")
    g.finish()
    resolve(g, "Persia", [6, 6])
    g.walk_to("Germany", "conduct_combat")
    g.act("fight", where="Persia")
    assert g.state.control["Persia"] == "Germany"
    player, _, options = asked(g)
    # not Kazakh S.S.R. (Stalinist xenophobia), nor German Caucasus
    assert player == "UK" and options == ["India", "Trans-Jordan"]


def test_committed_aircraft_alone_do_not_hold_a_territory() -> None:
    g, ids = at_aarhe("USSR", [("Fighter", "USSR", "Russia", 1), ("Tank", "USSR", "Russia", 1),
                               ("Fighter", "Germany", "West Russia", 1)],
                      control={"Belorussia": "USSR", "Ukraine S.S.R.": "USSR"}, step="declare_missions")
    g.act("fly_mission", u=ids["USSR Fighter Russia"][0], kind="counter_air", to="West Russia")
    done(g)
    g.act("go", u=ids["USSR Tank Russia"][0])
    g.choose("West Russia")
    g.finish()
    resolve(g, "West Russia", [6, 6])
    g.walk_to("USSR", "conduct_combat")
    assert [a["where"] for a in g.options("fight")] == ["West Russia"]
    g.log = []
    g.act("fight", where="West Russia")
    assert rolls(g) == []
    assert g.state.control["West Russia"] == "USSR"
    # no friendly territory next to it: the fighter is lost
    assert destroyed(g) == ["Germany Fighter"]


def test_without_normal_combat_committed_aircraft_stay() -> None:
    g, ids = at_aarhe("USSR", [("Fighter", "USSR", "Russia", 1), ("Fighter", "Germany", "West Russia", 1)],
                      step="declare_missions")
    g.act("fly_mission", u=ids["USSR Fighter Russia"][0], kind="counter_air", to="West Russia")
    done(g)
    resolve(g, "West Russia", [6, 6])
    g.walk_to("USSR", "noncombat_move")          # no battle to fight
    assert g.piece(ids["Germany Fighter West Russia"][0]).space == "West Russia"


def test_every_mission_is_resolved_before_the_normal_battles() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 2)], step="declare_missions")
    b1, b2 = ids["UK Bomber United Kingdom"]
    g.act("fly_mission", u=b1, kind="sbr", to="Western Europe")
    g.act("fly_mission", u=b2, kind="night", to="Germany")
    g.walk_to("UK", "resolve_missions")
    assert sorted(a["where"] for a in g.options("resolve")) == ["Germany", "Western Europe"]
    g.state.load_dice([4, 5])
    g.finish()                                   # "resolve the other air missions": all of them
    assert damage(g) == {"Western Europe": 4, "Germany": 2}
    assert g.step == "conduct_combat" or g.step == "noncombat_move"


# -- computer players --------------------------------------------------------------------------------
def test_random_players_fly_missions_and_finish_the_game() -> None:
    game = Game(aarhe(last_round=1), "revised-1942", 1)
    player = RandomPlayer(1)
    while game.decision is not None:
        game.play(player.choose(game.ruleset, game.state, game.decision))
    assert game.result is not None
    assert any(a.kind == "fly_mission" for a in game.actions)
    assert any(a.kind == "resolve" or a.kind == "finish" for a in game.actions)


class FinishingPlayer:
    """Random, but on the resolution of missions it takes the decision's finish (as a computer
    player does with a decision it does not know), and answers questions with their first
    option (the sound default)."""

    name = "finishing"

    def __init__(self, seed: int) -> None:
        self.random = RandomPlayer(seed)

    def choose(self, ruleset, state, decision):  # type: ignore[no-untyped-def]
        if decision.kind == "choose":
            return decision.options[0]
        if decision.kind == "resolve_missions":
            assert decision.finish is not None
            return decision.finish
        return self.random.choose(ruleset, state, decision)


def test_a_player_that_finishes_the_mission_steps_resolves_every_mission() -> None:
    game = Game(aarhe(last_round=1), "revised-1942", 2)
    player = FinishingPlayer(2)
    resolved = 0
    while game.decision is not None:
        action = player.choose(game.ruleset, game.state, game.decision)
        if game.decision.kind == "resolve_missions":
            resolved += 1
        game.play(action)
        if game.decision is not None and game.decision.kind == "conduct_combat":
            assert game.state.vars["missions_done"] == game.state.vars["mission_sites"]
    assert game.result is not None and resolved > 0


# -- airborne drops ----------------------------------------------------------------------------------
DROP = [("Bomber", "UK", "United Kingdom", 2), ("Infantry", "UK", "United Kingdom", 1),
        ("Infantry", "Germany", "Western Europe", 1)]


def test_airborne_drops_are_off_by_default() -> None:
    g, ids = at_aarhe("UK", DROP, step="declare_missions")
    bomber, inf = ids["UK Bomber United Kingdom"][0], ids["UK Infantry United Kingdom"][0]
    assert g.options("airborne_drop") == []
    assert g.why_not("airborne_drop", b=bomber, u=inf, to="Western Europe") == \
        "airborne drops are not played (option airborne_drops)"


def test_a_bomber_drops_an_infantry_into_a_territory_it_attacks() -> None:
    g, ids = at_aarhe("UK", DROP, step="declare_missions", airborne_drops=True)
    b1, b2 = ids["UK Bomber United Kingdom"]
    inf = ids["UK Infantry United Kingdom"][0]
    assert "airborne drop of the UK Infantry in United Kingdom on Western Europe by the Bomber" in g.labels("airborne_drop")
    g.act("airborne_drop", b=b1, u=inf, to="Western Europe")
    assert g.piece(b1).space == "Western Europe" and g.piece(inf).space == "Western Europe"
    assert g.var("dropped") == {"UK": 1}
    assert g.why_not("fly_mission", u=b1, kind="sbr", to="Germany") == \
        "the Bomber flies an airborne drop this turn, not a mission"
    assert g.why_not("airborne_drop", b=b2, u=inf, to="Germany") == \
        "there is no unit in United Kingdom for the Bomber to carry"
    done(g)
    assert g.why_not("go", u=b1) == "that unit cannot move in combat move"
    assert g.why_not("go", u=inf) == "that unit cannot move in combat move"
    g.walk_to("UK", "conduct_combat")
    # the dropped infantry (1) and the bomber (4) attack; 1 and 6, against the defence's 6
    g.state.load_dice([1, 6, 6])
    g.log = []
    g.act("fight", where="Western Europe")
    assert rolls(g) == [[1], [6], [6]]
    assert g.state.control["Western Europe"] == "UK"


def test_the_units_a_bomber_carries_are_an_option() -> None:
    g, ids = at_aarhe("UK", [*DROP, ("Infantry", "UK", "United Kingdom", 2)], step="declare_missions",
                      airborne_drops=True, airborne_capacity=2)
    b1, b2 = ids["UK Bomber United Kingdom"]
    i1, i2, i3 = ids["UK Infantry United Kingdom"]
    g.act("airborne_drop", b=b1, u=i1, to="Western Europe")
    # the bomber has room for one more: it drops it on the same target, from where it took off
    assert [a["to"] for a in g.options("airborne_drop") if a["b"] == b1] == ["Western Europe"]
    assert g.why_not("airborne_drop", b=b1, u=i2, to="Norway") == \
        "the Bomber flew its drop to Western Europe: it drops its other units there"
    g.act("airborne_drop", b=b1, u=i2, to="Western Europe")
    assert g.kinds_at("Western Europe", "UK") == {"Bomber": 1, "Infantry": 2}
    assert g.var("dropped") == {"UK": 2}
    assert g.why_not("airborne_drop", b=b1, u=i3, to="Western Europe") == \
        "a Bomber carries at most 2 units to drop (option airborne_capacity)"
    # the other bomber takes the last one
    g.act("airborne_drop", b=b2, u=i3, to="Norway")
    assert g.kinds_at("Norway", "UK") == {"Bomber": 1, "Infantry": 1}
    # at the default of 1, a bomber that has dropped carries no more
    g, ids = at_aarhe("UK", [*DROP, ("Infantry", "UK", "United Kingdom", 1)], step="declare_missions", airborne_drops=True)
    b1 = ids["UK Bomber United Kingdom"][0]
    i1, i2 = ids["UK Infantry United Kingdom"]
    g.act("airborne_drop", b=b1, u=i1, to="Western Europe")
    assert g.why_not("airborne_drop", b=b1, u=i2, to="Western Europe") == \
        "a Bomber carries at most 1 unit to drop (option airborne_capacity)"


def test_a_drop_into_an_empty_enemy_territory_takes_it() -> None:
    g, ids = at_aarhe("UK", DROP, step="declare_missions", airborne_drops=True)
    g.act("airborne_drop", b=ids["UK Bomber United Kingdom"][0], u=ids["UK Infantry United Kingdom"][0], to="Norway")
    assert g.state.control["Norway"] == "UK"


def test_drops_and_missions_keep_to_the_small_island_cap() -> None:
    # without it, four bombers dropped four infantry onto Wake Island: eight US units there
    g, ids = at_aarhe("US", [("Bomber", "US", "Hawaiian Islands", 3), ("Infantry", "US", "Hawaiian Islands", 3),
                             ("Infantry", "Japan", "Wake Island", 1)],
                      control={"Wake Island": "Japan"}, step="declare_missions", airborne_drops=True)
    b1, b2, _ = ids["US Bomber Hawaiian Islands"]
    g.act("airborne_drop", b=b1, u=ids["US Infantry Hawaiian Islands"][0], to="Wake Island")
    assert g.kinds_at("Wake Island", "US") == {"Bomber": 1, "Infantry": 1}
    assert g.why_not("airborne_drop", b=b2, u=ids["US Infantry Hawaiian Islands"][1], to="Wake Island") == \
        "Wake Island is a small island: no more than 3 units may occupy it"
    assert "Wake Island" not in [a["to"] for a in g.options("airborne_drop")]
    assert g.proc("island_room", "Wake Island", "US") == 1          # a bomber and its infantry need 2


def test_a_counter_air_fighters_place_on_a_small_island_is_kept_for_its_return() -> None:
    g, ids = at_aarhe("Japan", [("Fighter", "Japan", "Okinawa", 1), ("Infantry", "Japan", "Okinawa", 2),
                                ("Fighter", "USSR", "Buryatia S.S.R.", 1), ("Transport", "Japan", "SZ 58", 1)],
                      step="purchase")
    tp = ids["Japan Transport SZ 58"][0]
    (c,) = g.add("Infantry", "Japan", "SZ 58")
    g.state.update(c, carrier=tp)
    g.state.vars["techs"] = ("Japan/Long-Range Aircraft",)            # a fighter flies 6: Buryatia and back
    g.restart_turn()
    g.walk_to("Japan", "declare_missions", turn=1)
    g.act("fly_mission", u=ids["Japan Fighter Okinawa"][0], kind="counter_air", to="Buryatia S.S.R.")
    done(g)
    assert g.step == "combat_move" and g.proc("island_room", "Okinawa", "Japan") == 0
    assert g.why_not("land", t=tp) == "that transport cannot unload now"
    g.state.load_dice([6, 6])                                          # the air combat: both miss
    g.walk_to("Japan", "noncombat_move")
    assert g.kinds_at("Okinawa") == {"Fighter": 1, "Infantry": 2}


def test_the_dropped_units_are_counted_for_one_turn() -> None:
    g, ids = at_aarhe("UK", DROP, step="declare_missions", airborne_drops=True)
    g.act("airborne_drop", b=ids["UK Bomber United Kingdom"][0], u=ids["UK Infantry United Kingdom"][0], to="Norway")
    g.walk_to("Japan", "purchase")
    assert g.proc("dropped_by", "UK") == 1
    g.walk_to("UK", "declare_missions", turn=2)
    assert g.proc("dropped_by", "UK") == 0


def test_aircraft_committed_against_a_mission_make_no_air_reinforcement() -> None:
    g, ids = at_aarhe("UK", [*CA, ("Fighter", "Germany", "Germany", 1)], step="declare_missions")
    declare_counter_air(g, ids)
    g.choose(ids["Germany Fighter Western Europe"][0])
    for _ in range(40):                       # on to Germany's part of the air reinforcement
        if g.step == "air_reinforcement" and g.decision.player == "Germany":
            break
        g.finish()
    assert g.step == "air_reinforcement" and g.decision.player == "Germany"
    movers = {g.state.pieces[a["u"]].space for a in g.options("reinforce")}
    assert movers == {"Germany"}              # the fighter and bomber over Western Europe stay committed


# -- the flights combat move starts with --------------------------------------------------------------
CARRIER_FULL = [("AircraftCarrier", "UK", "SZ 7", 1), ("Fighter", "UK", "SZ 7", 2),
                ("Infantry", "Germany", "Western Europe", 1), ("Bomber", "UK", "United Kingdom", 1)]


def fresh_flights(g: Play) -> tuple[dict[str, int], dict[str, int]]:
    reach = g.rs.rules.procedure("landing_reach")
    return dict(reach(g.state, "UK", False)), dict(reach(g.state, "UK", True))


def test_combat_move_keeps_the_declared_flights_when_nothing_flew() -> None:
    g, _ = at_aarhe("UK", CARRIER_FULL, step="declare_missions")
    declared = dict(g.var("land_reach")), dict(g.var("carrier_reach"))
    assert declared[1]["SZ 7"] == 1         # the carrier is full: its fighters land a zone away
    g.walk_to("UK", "combat_move")
    assert (dict(g.var("land_reach")), dict(g.var("carrier_reach"))) == declared == fresh_flights(g)


def test_a_mission_flown_makes_combat_move_work_the_flights_out_again() -> None:
    g, ids = at_aarhe("UK", CARRIER_FULL + [("Fighter", "Germany", "Western Europe", 1)], step="declare_missions")
    g.act("fly_mission", u=ids["UK Fighter SZ 7"][0], kind="counter_air", to="Western Europe")
    done(g)
    while g.step != "combat_move":
        g.choose(-1)                    # (Germany commits no defenders)
    assert g.var("carrier_reach")["SZ 7"] == 0      # a fighter left the carrier: room for one
    assert (dict(g.var("land_reach")), dict(g.var("carrier_reach"))) == fresh_flights(g)


def test_the_flights_kept_while_missions_are_declared_are_those_a_fresh_walk_finds() -> None:
    """declare_missions walks each mission aircraft's flights once, when it begins, and every
    listing of its options reads them (`mission_walks`): after missions flown and airborne
    drops (some of which take a territory), a kept walk is still what walking afresh finds."""
    rs = aarhe(airborne_drops=True, last_round=4)
    walk = rs.rules.procedure("flight_distances")
    compared = drops = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = rs.logic.new_state("revised-1942", seed)
        d = flow.start(rs, state)
        while d is not None:
            if rs.structure.step(state) == "declare_missions" and state.task is None:
                for key, kept in state.vars["mission_walks"].items():
                    start, budget = key.rsplit("/", 1)
                    assert dict(kept) == dict(walk(state, [start], int(budget))), (seed, key)
                    compared += 1
            options = list(d.options)
            action = rng.choices(options, weights=[bold_weight(a) for a in options])[0]
            drops += action.kind == "airborne_drop"
            state, d = flow.apply(rs, state, action)
    assert compared > 100 and drops > 5, (compared, drops)
