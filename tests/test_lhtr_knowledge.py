"""What rulesets/aarhe/lhtr/knowledge.rules tells the search player, each found in a traced game
against the random player (issue 31) where the old `evaluate` preferred the wrong of two options:
the position that misled it, and the option it should now prefer."""

from __future__ import annotations

from clients.search import SearchPlayer
from engine import flow
from engine.actions import Action
from tests.lhtr.play import Play, situation


def evaluate(g: Play, side: str) -> float:
    return float(g.rs.rules.procedure("evaluate")(g.state, side))


def test_a_unit_told_to_stop_here_no_longer_counts_as_joining_the_attack_beside_it() -> None:
    # Traced (seed 500, search Allies, round 1): the USSR sent one infantry and a fighter into
    # West Russia, told the 14 units beside it to stop where they were, and ended combat move
    # with an attack at 2% odds: while the held units counted as joining, holding them looked
    # free and moving them in gained nothing.
    g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", 1), ("Tank", "Germany", "Ukraine S.S.R.", 3),
                                   ("Infantry", "USSR", "Caucasus", 3)])
    g.act("go", u=ids["Germany Infantry Ukraine S.S.R."][0])
    g.choose("Caucasus")
    hoping = evaluate(g, "Axis")
    tank = ids["Germany Tank Ukraine S.S.R."][0]
    state, decision = g.state, g.decision
    g.act("go", u=tank)
    g.choose("Caucasus")
    joined = evaluate(g, "Axis")
    g.state, g.decision = state, decision
    g.act("go", u=tank)
    g.choose("Ukraine S.S.R.")                      # stop here: held for the rest of combat move
    assert g.why_not("go", u=tank) is not None
    held = evaluate(g, "Axis")
    assert held < hoping - 3                        # a tank that will not come
    assert joined > held + 3                        # so sending it in is the better of the two


def test_land_units_bought_in_the_americas_count_for_half_until_transports_can_ship_them() -> None:
    # Traced (seed 500, search Allies): the US bought 7 tanks a round and no transport, and
    # its tanks stood in the United States for eight rounds: the Americas hold no enemy
    # territory, so what the US builds there must be shipped, as Japan's buys must.
    def tank_gain(pieces: list[tuple[str, str, str, int]], control: dict[str, str] | None = None) -> float:
        g, _ = situation("US", pieces, control=control, step="purchase", ipc=42)
        before = evaluate(g, "Allies")
        g.act("buy", kind="Tank")
        return evaluate(g, "Allies") - before
    complex = ("IndustrialComplex", "US", "Eastern United States", 1)
    alone = tank_gain([complex])
    shipped = tank_gain([complex, ("Transport", "US", "SZ 10", 1)])
    assert shipped > alone + 6
    # once Germany holds Mexico, the Americas are no longer cut off: a tank counts whole
    invaded = tank_gain([complex], control={"Mexico": "Germany"})
    assert abs(invaded - shipped) < 1


def test_a_power_whose_land_units_must_wait_for_transports_buys_fighters_rather_than_keep_its_ipcs() -> None:
    # Traced (seed 500, search Allies, with land units bought in the Americas counting for
    # half): the US bought 3 tanks and kept 27 of its 42 IPCs, then 57: a fighter gained
    # nothing over the IPCs it cost.
    g, _ = situation("US", [("IndustrialComplex", "US", "Eastern United States", 1)], step="purchase", ipc=42)
    before = evaluate(g, "Allies")
    gains = {}
    for kind in ("Fighter", "Tank"):
        state, decision = g.state, g.decision
        g.act("buy", kind=kind)
        gains[kind] = evaluate(g, "Allies") - before
        g.state, g.decision = state, decision
    assert gains["Fighter"] > 1
    assert gains["Fighter"] > gains["Tank"]


# -- priors over moves: what the hand-written player (rulesets/aarhe/ai) does first -------------------
def policy_turn(g: Play, step: str, seed: int = 0) -> list[Action]:
    """Play the power's `step` with the search's default policy alone (its priors, `evaluate`
    among equals); the actions it chose."""
    player = SearchPlayer(seed, policy=True)
    power, chosen = g.power, []
    while g.decision is not None and g.power == power and g.step == step:
        action = player.choose(g.rs, g.state, g.decision)
        chosen.append(action)
        g.state, g.decision = flow.apply(g.rs, g.state, action)
    return chosen


def test_a_power_spends_its_ipcs_on_a_mix_of_land_units_its_complexes_can_place() -> None:
    # Traced (seed 500, policy alone against the hand-written Axis): the USSR bought nothing in
    # round 1 (24 IPCs kept) and a battleship in round 2; Germany kept 85 then 127 IPCs and
    # bought three battleships. A purchase is one `buy` at a time, judged alone, and three of
    # the shop's twelve kinds were drawn for each.
    g = Play.new()
    g.walk_to("USSR", "purchase", turn=1)
    bought = [a.get("kind") for a in policy_turn(g, "purchase") if a.kind == "buy"]
    room = sum(g.proc("room_at", f) for f in g.proc("factories_of", "USSR"))
    assert g.ipc("USSR") < 3                          # nothing left that would buy an infantry
    assert 0 < len(bought) <= room
    assert set(bought) <= {"Infantry", "Artillery", "Tank"}
    assert len(set(bought)) >= 2                      # a mix, not one kind


def test_a_power_that_must_ship_its_land_units_buys_transports_with_them() -> None:
    # The US builds in the Americas, from which no enemy is reached by land: with no transport
    # of its own it buys one for each load of land units, not land units alone.
    g, _ = situation("US", [("IndustrialComplex", "US", "Eastern United States", 1)], step="purchase", ipc=42)
    assert g.proc("buy_prior", "Transport") > g.proc("buy_prior", "Infantry") > 0
    bought = [a.get("kind") for a in policy_turn(g, "purchase") if a.kind == "buy"]
    assert "Transport" in bought
    assert any(k in ("Infantry", "Artillery", "Tank") for k in bought)
    # ... but not a ship it could not place: enemy warships in every zone beside its complex
    g, _ = situation("US", [("IndustrialComplex", "US", "Eastern United States", 1),
                            ("Battleship", "Germany", "SZ 10", 1)],
                     step="purchase", ipc=42)
    assert g.proc("buy_prior", "Transport") < 0


def test_every_land_unit_beside_an_enemy_territory_is_weighed_in_combat_move() -> None:
    # Traced (seed 500, policy alone as the Allies): the USSR attacked nothing in round 1, and
    # Germany took Caucasus and Karelia, killing 11 to 14 Soviet units. A combat move decision
    # lists some 40 units; three drawn at random were weighed against ending the step.
    g = Play.new()
    g.walk_to("USSR", "combat_move", turn=1)
    front = [u for u in g.state.pieces_of("USSR") if u.space == "Karelia S.S.R." and u.kind == "Infantry"]
    assert g.proc("go_prior", g.piece(front[0].id)) > 0
    aircraft = [u for u in g.state.pieces_of("USSR") if u.kind == "Fighter"]
    assert g.proc("go_prior", aircraft[0]) == 0       # left to `evaluate` beside the finish
    policy_turn(g, "combat_move")
    attacking = [u for u in g.state.pieces_of("USSR") if u.space == "West Russia"]
    assert len(attacking) >= 5


def test_every_unit_bought_is_placed() -> None:
    # A unit not placed when mobilize ends is lost; options beyond 8 had three drawn and the
    # finish weighed, and Japan's transports stayed unplaced.
    g = Play.new()
    g.walk_to("USSR", "purchase", turn=1)
    policy_turn(g, "purchase")
    g.walk_to("USSR", "mobilize", turn=1)
    waiting = len(g.state.pieces_at(g.proc("pending", "USSR")))
    assert waiting > 0
    policy_turn(g, "mobilize")
    assert g.state.pieces_at(g.proc("pending", "USSR")) == []


def test_land_units_cut_off_board_a_transport_beside_them_and_unload_at_the_front() -> None:
    g, ids = situation("Japan", [("Infantry", "Japan", "Japan", 2), ("Transport", "Japan", "SZ 60", 1),
                                 ("Infantry", "Japan", "Kwantung", 1)], step="noncombat_move")
    inf = g.piece(ids["Japan Infantry Japan"][0])
    at_front = g.piece(ids["Japan Infantry Kwantung"][0])
    assert g.proc("go_prior", inf) > g.proc("go_prior", at_front) > 0
    # aboard, the transport sails (an empty one waits to be loaded first) and unloads where the
    # enemy can be reached by land, not back onto the island
    g.act("go", u=inf.id)
    g.choose("SZ 60")
    t = g.piece(ids["Japan Transport SZ 60"][0])
    assert g.proc("go_prior", t) > 1
    assert g.proc("land_prior", t) < 0              # only Japan beside SZ 60


def test_an_empty_transport_is_worth_more_where_its_land_units_wait() -> None:
    # Traced (seed 500, policy alone as the Axis): Japan's transports unloaded once and stayed
    # where they had, while 15 to 19 land units stood in Japan.
    def japan_with_transport_in(zone: str) -> float:
        g, _ = situation("Japan", [("Infantry", "Japan", "Japan", 4), ("IndustrialComplex", "Japan", "Japan", 1),
                                   ("Transport", "Japan", zone, 1)], step="noncombat_move")
        return evaluate(g, "Axis")
    home = japan_with_transport_in("SZ 60")
    away = japan_with_transport_in("SZ 48")
    assert home > away + 3


def test_units_beside_an_attack_join_it_only_as_many_as_it_needs() -> None:
    # Traced (seed 500, policy alone as the Allies): every Soviet unit beside an attack went
    # in, one after another (holding one made the attack look weaker by the units it could
    # have brought), and Germany's counterattack took 17 of them in round 5. The hand-written
    # player sends the fewest units that win often enough: so a battle set up is judged with
    # as many of the units beside it as it needs, and more beside it add nothing.
    def outlook(beside: int) -> float:
        g, ids = situation("Germany", [("Infantry", "Germany", "Ukraine S.S.R.", beside), ("Tank", "Germany", "Ukraine S.S.R.", 1),
                                       ("Infantry", "USSR", "Caucasus", 2)])
        g.act("go", u=ids["Germany Tank Ukraine S.S.R."][0])
        g.choose("Caucasus")
        return float(g.proc("battle_outlook", "Caucasus"))
    assert abs(outlook(12) - outlook(6)) < 1


# -- priors over a question's answers: where a unit moves (`step_prior`, move_one's question) ----------
def answer_priors(g: Play) -> dict[str, float]:
    """The priors of the question open now, by answer."""
    assert g.decision is not None and g.decision.kind == "choose"
    priors = SearchPlayer(0).priors(g.rs, g.decision)
    assert priors is not None
    return {a.args["choice"]: p for a, p in zip(g.decision.options, priors)}


def test_in_non_combat_move_a_land_unit_goes_to_land_the_enemy_would_take_and_does_not_leave_it() -> None:
    # Traced (seed 500, policy alone as the Allies): after the USSR's round-1 moves Caucasus
    # held two tanks and two artillery, and Germany took it and Karelia; a unit's destination
    # (a question) had no prior, so `evaluate` one look ahead weighed three of its steps.
    g, ids = situation("USSR", [("Infantry", "USSR", "Kazakh S.S.R.", 1), ("Infantry", "USSR", "Caucasus", 1),
                                ("Tank", "Germany", "Ukraine S.S.R.", 4)], step="noncombat_move")
    g.act("go", u=ids["USSR Infantry Kazakh S.S.R."][0])
    priors = answer_priors(g)
    assert priors["Caucasus"] == max(priors.values()) > 0
    assert priors["Kazakh S.S.R."] == 0                      # staying: the step's finish's worth
    chosen = SearchPlayer(0, policy=True).choose(g.rs, g.state, g.decision)
    assert chosen.args["choice"] == "Caucasus"
    # the infantry that holds Caucasus stays there: without it the Germans would take it
    g, ids = situation("USSR", [("Infantry", "USSR", "Caucasus", 2), ("Infantry", "Germany", "Ukraine S.S.R.", 2)],
                       step="noncombat_move")
    g.act("go", u=ids["USSR Infantry Caucasus"][0])
    priors = answer_priors(g)
    assert max(priors.values()) == priors["Caucasus"] == 0
    assert all(p < 0 for s, p in priors.items() if s != "Caucasus")


def test_in_combat_move_an_aircraft_flies_to_a_battle_it_can_join_and_come_back_from() -> None:
    # Traced (lkp, policy alone as the Allies): a fighter or bomber was never sent into an
    # attack: its first step changed nothing `evaluate` sees.
    g, ids = situation("USSR", [("Infantry", "USSR", "Karelia S.S.R.", 3), ("Fighter", "USSR", "Kazakh S.S.R.", 1),
                                ("Infantry", "Germany", "West Russia", 1)])
    fighter = ids["USSR Fighter Kazakh S.S.R."][0]
    assert g.proc("go_prior", g.piece(fighter)) == 0          # no battle yet
    for u in ids["USSR Infantry Karelia S.S.R."]:
        g.act("go", u=u)
        g.choose("West Russia")
    assert g.proc("air_targets", g.piece(fighter)) == ["West Russia"]
    assert g.proc("go_prior", g.piece(fighter)) > 0
    g.act("go", u=fighter)
    priors = answer_priors(g)
    toward = [s for s, p in priors.items() if p > 0]
    def flight(s: str) -> int:
        return int(g.proc("nearest", s, ["West Russia"], "air"))
    assert toward and all(flight(s) < flight("Kazakh S.S.R.") for s in toward)
    assert priors["Kazakh S.S.R."] == 0


# -- the Allies against the hand-written Axis (lka2) ---------------------------------------------------
def test_land_units_waiting_at_home_for_transports_have_transports_bought_for_them() -> None:
    # Traced (seed 540, policy alone as the Allies against the hand-written Axis): at round 8 the
    # UK had 35 land units in the United Kingdom and two transports, the US some 40 in the
    # Americas: a transport was bought only when the land units bought that turn filled the
    # empty ones, and those already waiting were not counted.
    g, _ = situation("US", [("IndustrialComplex", "US", "Eastern United States", 1),
                            ("Infantry", "US", "Eastern United States", 8), ("Transport", "US", "SZ 10", 1)],
                     step="purchase", ipc=42)
    assert g.proc("buy_prior", "Transport") > g.proc("buy_prior", "Infantry") > 0
    bought = [a.get("kind") for a in policy_turn(g, "purchase") if a.kind == "buy"]
    ships = bought.count("Transport")
    assert ships >= 2
    assert len(bought) - ships >= ships - 1         # never more transports than what else it buys, and one


def test_a_loaded_transport_unloads_near_a_victory_city_at_stake_not_at_any_front() -> None:
    # Traced (seed 540, the same runs): once shipped, the UK's and the US's land units were
    # unloaded on the first friendly coast from which the enemy was reached by land (Algeria,
    # Anglo Egypt, Trans-Jordan), far from Karelia and India, where the game was being lost.
    def loaded(zone: str) -> tuple[Play, int]:
        g, ids = situation("US", [("Transport", "US", zone, 1), ("Infantry", "US", zone, 2)],
                           control={"Karelia S.S.R.": "Germany", "Algeria": "US"}, step="noncombat_move")
        t = ids[f"US Transport {zone}"][0]
        for u in ids[f"US Infantry {zone}"]:
            g.state.update(u, carrier=t)
        return g, t
    g, t = loaded("SZ 12")                          # beside Algeria only: a front, but no city near
    assert g.proc("unload_targets", g.piece(t), False) == ["Algeria"]
    assert g.proc("land_prior", g.piece(t)) < 0
    coasts = g.proc("front_coasts", "US")
    assert "SZ 4" in coasts and "SZ 12" not in coasts
    g, t = loaded("SZ 4")                           # beside Archangel, next to Karelia
    assert g.proc("land_prior", g.piece(t)) > 0


def test_a_threatened_complex_has_infantry_bought_and_placed_there_first() -> None:
    # Traced (seed 540, the same runs): the UK placed three units a round at India's complex in
    # a mix of tanks, artillery and infantry, and Japan took India in round 1 to 4 of every
    # game. A defence is its dice times its hits: an infantry gives twice a tank's for its cost.
    pieces = [("IndustrialComplex", "USSR", "Russia", 1), ("IndustrialComplex", "USSR", "Caucasus", 1),
              ("Infantry", "USSR", "Russia", 15), ("Infantry", "USSR", "Caucasus", 1)]
    g, _ = situation("USSR", pieces, step="purchase", ipc=24)
    assert not g.proc("threatened", "Caucasus", "USSR", -1)
    calm = g.proc("buy_prior", "Infantry") - g.proc("buy_prior", "Tank")
    g, _ = situation("USSR", [*pieces, ("Tank", "Germany", "Ukraine S.S.R.", 6)], step="purchase", ipc=24)
    assert g.proc("threatened", "Caucasus", "USSR", -1) and not g.proc("threatened", "Russia", "USSR", -1)
    assert g.proc("buy_prior", "Infantry") - g.proc("buy_prior", "Tank") > calm + 1
    bought = [a.get("kind") for a in policy_turn(g, "purchase") if a.kind == "buy"]
    assert bought[:4] == ["Infantry"] * 4            # as many as Caucasus's complex can place
    g.walk_to("USSR", "mobilize", turn=1)
    placed = [a.get("at") for a in policy_turn(g, "mobilize") if a.kind == "place"]
    assert placed[:4] == ["Caucasus"] * 4


def test_ending_mobilize_is_judged_as_it_leaves_the_position_not_after_the_income() -> None:
    # Traced (seed 1330, search Axis at 0.05 s against the hand-written Allies): "done placing:
    # 4 units not placed (20 IPCs) will be lost" chosen over placing an Artillery. A sample of
    # ending mobilize went on through collect income, one of placing a unit stopped a few
    # placements later, before it: the income, which comes whichever option is taken, counted
    # for the finish alone. Here Germany's income (59 IPCs) is worth more than its eight
    # infantry waiting to be placed.
    held = ["Karelia S.S.R.", "Caucasus", "Ukraine S.S.R.", "West Russia", "Belorussia", "Archangel",
            "Kazakh S.S.R.", "Novosibirsk", "Evenki National Okrug", "Yakut S.S.R.", "Buryatia S.S.R.",
            "Soviet Far East", "India", "Egypt"]
    g, _ = situation("Germany", [("Infantry", "Germany", "Germany", 2), ("IndustrialComplex", "Germany", "Germany", 1)],
                     control={t: "Germany" for t in held}, step="purchase", ipc=24)
    for _ in range(8):
        g.act("buy", kind="Infantry")
    g.walk_to("Germany", "mobilize", turn=1)
    finish = g.decision.finish
    assert finish is not None and finish.label.startswith("done placing: 8 units")
    paused, decision = flow.apply(g.rs, g.state, finish, pause=True)
    assert decision is None and paused.result is None and g.step == g.rs.structure.step(paused) == "mobilize"
    ended = flow.ending(g.rs, paused)
    assert ended.pieces_at(g.proc("pending", "Germany")) == []      # the eight are lost ...
    assert ended.resource("Germany", "ipc") == 0                     # ... and no income yet
    assert float(g.rs.rules.procedure("evaluate")(ended, "Axis")) < evaluate(g, "Axis") - 50
    assert flow.settle(g.rs, paused) is not None                     # play goes on from there
    assert paused.resource("Germany", "ipc") == 59
    for seed in range(3):
        for player in (SearchPlayer(seed, policy=True), SearchPlayer(seed, iterations=40)):
            assert player.choose(g.rs, g.state, g.decision).label == "place Infantry in Germany"
