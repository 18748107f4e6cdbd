"""AARHE phase 2, purchase, and phase 6, mobilize (RULES.md part B): industrial complexes
priced by their territory, infantry raised at victory cities at the city's price and up to
its income, other units at complexes, scorched earth and the Soviet factories."""

from __future__ import annotations

from typing import Any

from tests.aarhe.play import Play, at_aarhe

USSR_COMPLEXES = [("IndustrialComplex", "USSR", "Russia", 1), ("IndustrialComplex", "USSR", "Caucasus", 1)]


def buying(power: str, pieces: Any = (), control: Any = None, ipc: int = 100, **options: Any) -> Play:
    g, _ = at_aarhe(power, pieces, control, step="purchase", ipc=ipc, **options)
    return g


def city_prices(g: Play) -> dict[str, int]:
    return {a["city"]: int(a.label.split("(")[1].split()[0]) for a in g.options("buy_at_city")}


def pending(g: Play, power: str) -> list[int]:
    return [p.id for p in g.at("pending:" + power)]


def places(g: Play, u: int) -> list[tuple[str, str]]:
    return sorted((a["at"], a["to"]) for a in g.options("place") if a["u"] == u)


# -- industrial complexes -------------------------------------------------------------------------------
def test_an_industrial_complex_costs_15_minus_its_territorys_income_and_goes_there() -> None:
    g = buying("USSR", USSR_COMPLEXES)
    sites = {a["at"]: a.label for a in g.options("buy_factory")}
    assert sites["Karelia S.S.R."] == "buy an industrial complex for Karelia S.S.R. (13 IPCs)"
    assert sites["Soviet Far East"] == "buy an industrial complex for Soviet Far East (14 IPCs)"
    assert "Russia" not in sites and "Caucasus" not in sites           # they have one
    assert g.why_not("buy_factory", at="Russia") == \
        "an industrial complex goes into a territory with an income value that USSR has held since its turn began, and that has none"
    assert g.why_not("buy", kind="IndustrialComplex") == \
        "an industrial complex is bought for its territory: buy it with buy_factory, naming the territory"
    g.act("buy_factory", at="Karelia S.S.R.")
    assert g.ipc("USSR") == 87
    assert g.why_not("buy_factory", at="Karelia S.S.R.") is not None    # one is bought for it already
    g.walk_to("USSR", "mobilize")
    ic = pending(g, "USSR")[0]
    assert places(g, ic) == [("Karelia S.S.R.", "Karelia S.S.R.")]
    assert g.why_not("place", u=ic, at="Archangel", to="Archangel") == \
        "this IndustrialComplex was bought for Karelia S.S.R. and is placed there only"
    g.act("place", u=ic, at="Karelia S.S.R.", to="Karelia S.S.R.")
    assert g.kinds_at("Karelia S.S.R.") == {"IndustrialComplex": 1}


def test_a_complex_the_power_cannot_pay_for_is_refused() -> None:
    g = buying("USSR", USSR_COMPLEXES, ipc=12)
    assert "Karelia S.S.R." not in [a["at"] for a in g.options("buy_factory")]
    assert g.why_not("buy_factory", at="Karelia S.S.R.") == "USSR has 12 IPCs; an industrial complex for Karelia S.S.R. costs 13"
    assert g.why_not("buy_factory", at="Russia") is not None


# -- infantry at victory cities ---------------------------------------------------------------------------
def test_soviet_infantry_cost_2_at_moscow_3_at_a_connected_city_4_otherwise() -> None:
    g = buying("USSR", USSR_COMPLEXES)
    assert city_prices(g) == {"Karelia S.S.R.": 3, "Russia": 2}
    assert g.why_not("buy", kind="Infantry") == "Infantry is raised at a victory city: buy it with buy_at_city, naming the city"
    assert g.why_not("buy_at_city", kind="Infantry", city="India") == "India is no victory city USSR has held since its turn began"
    assert g.why_not("buy_at_city", kind="Tank", city="Russia") == "Tank is not raised at victory cities: buy it with buy"
    # Germany cuts Leningrad off from Moscow (West Russia and Archangel)
    g = buying("USSR", USSR_COMPLEXES, control={"West Russia": "Germany", "Archangel": "Germany"})
    assert city_prices(g) == {"Karelia S.S.R.": 4, "Russia": 2}


def test_japanese_infantry_cost_2_at_tokyo_and_4_elsewhere() -> None:
    g = buying("Japan")
    assert city_prices(g) == {"Japan": 2, "Kwantung": 4, "Philipine Islands": 4}
    g = buying("Japan", ipc=3)
    assert city_prices(g) == {"Japan": 2}
    assert g.why_not("buy_at_city", kind="Infantry", city="Kwantung") == "Japan has 3 IPCs; a Infantry at Kwantung costs 4"


def test_uk_infantry_at_london_cost_more_with_each_one_bought_there_in_the_turn() -> None:
    g = buying("UK")
    assert city_prices(g) == {"India": 4, "United Kingdom": 2}
    for price in [2, 3, 4, 4]:
        assert city_prices(g)["United Kingdom"] == price
        before = g.ipc("UK")
        g.act("buy_at_city", kind="Infantry", city="United Kingdom")
        assert g.ipc("UK") == before - price
    assert g.ipc("UK") == 100 - 13
    assert city_prices(g)["India"] == 4


def test_uk_and_us_prices_may_rise_with_the_round_instead() -> None:
    g = buying("US", infantry_price_counts_rounds=True)
    for _ in range(3):
        g.act("buy_at_city", kind="Infantry", city="Eastern United States")
    assert g.ipc("US") == 100 - 6                  # round 1: 2 each
    assert city_prices(g) == {"Eastern United States": 2, "Western United States": 4}


def test_a_city_raises_at_most_its_income_value_a_turn() -> None:
    g = buying("USSR", USSR_COMPLEXES)
    g.act("buy_at_city", kind="Infantry", city="Karelia S.S.R.")
    g.act("buy_at_city", kind="Infantry", city="Karelia S.S.R.")
    assert g.why_not("buy_at_city", kind="Infantry", city="Karelia S.S.R.") == \
        "Karelia S.S.R. raises at most 2 infantry a turn (its income value)"
    assert g.ipc("USSR") == 94


def test_infantry_go_to_their_city_and_leave_the_complexs_room_to_other_units() -> None:
    g = buying("USSR", USSR_COMPLEXES)
    for _ in range(8):
        g.act("buy", kind="Tank")
    g.act("buy_at_city", kind="Infantry", city="Russia")
    g.act("buy_at_city", kind="Infantry", city="Karelia S.S.R.")
    g.walk_to("USSR", "mobilize")
    leningrad = next(u for u in pending(g, "USSR") if g.var("bound_for").get(u) == "Karelia S.S.R.")
    assert places(g, leningrad) == [("Karelia S.S.R.", "Karelia S.S.R.")]
    assert g.why_not("place", u=leningrad, at="Russia", to="Russia") == \
        "this Infantry was bought for Karelia S.S.R. and is placed there only"
    # Russia's complex places 8 (its value); its infantry are raised beside them
    for u in pending(g, "USSR"):
        at = g.var("bound_for").get(u, "Russia")
        g.act("place", u=u, at=at, to=at)
    assert g.kinds_at("Russia", "USSR") == {"IndustrialComplex": 1, "Infantry": 1, "Tank": 8}
    assert g.kinds_at("Karelia S.S.R.", "USSR") == {"Infantry": 1}
    assert g.at("pending:USSR") == []


# -- scorched earth ----------------------------------------------------------------------------------------
def test_scorched_earth_destroys_a_complex_and_nothing_is_placed_there() -> None:
    g = buying("USSR", USSR_COMPLEXES)
    g.act("buy", kind="Tank")
    g.act("buy_at_city", kind="Infantry", city="Russia")
    g.walk_to("USSR", "mobilize")
    assert sorted(a["at"] for a in g.options("scorch")) == ["Caucasus", "Russia"]
    assert g.why_not("scorch", at="Germany") == "you may destroy only an industrial complex of your own, in a territory you hold"
    g.act("scorch", at="Russia")
    assert g.at("Russia", kind="IndustrialComplex") == []
    tank, inf = sorted(pending(g, "USSR"), key=lambda u: g.piece(u).kind != "Tank")
    assert places(g, tank) == [("Caucasus", "Caucasus")]
    assert places(g, inf) == []                  # not even infantry at Moscow this turn
    assert g.why_not("place", u=inf, at="Russia", to="Russia") == \
        "nothing is placed in Russia this turn (its complex was destroyed)"


def test_a_complex_where_units_were_placed_this_turn_is_not_destroyed() -> None:
    g = buying("USSR", USSR_COMPLEXES)
    g.act("buy", kind="Tank")
    g.walk_to("USSR", "mobilize")
    g.act("place", u=pending(g, "USSR")[0], at="Caucasus", to="Caucasus")
    assert g.why_not("scorch", at="Caucasus") == "units were placed in Caucasus this turn: its complex cannot be destroyed now"


# -- Soviet factories -----------------------------------------------------------------------------------------
def relocating() -> Play:
    g = buying("USSR", USSR_COMPLEXES, control={"Eastern Europe": "USSR"})
    g.act("buy", kind="Tank")
    g.act("buy", kind="Tank")
    g.walk_to("USSR", "relocate_factory")
    return g


def test_the_ussr_moves_one_complex_a_turn_between_original_soviet_territories() -> None:
    g = relocating()
    assert g.decision.finish.label == "keep the industrial complexes where they are"
    assert g.why_not("relocate", **{"from": "Caucasus", "to": "Eastern Europe"}) == \
        "Eastern Europe is no original territory of USSR it holds without a complex"
    assert g.why_not("relocate", **{"from": "Caucasus", "to": "Russia"}) == \
        "Russia is no original territory of USSR it holds without a complex"
    g.act("relocate", **{"from": "Caucasus", "to": "Kazakh S.S.R."})
    assert g.at("Kazakh S.S.R.", kind="IndustrialComplex") != [] and g.at("Caucasus") == []
    # one a turn: the step is over, and nothing is placed at the moved complex this turn
    assert g.step == "mobilize"
    tank = pending(g, "USSR")[0]
    assert places(g, tank) == [("Russia", "Russia")]
    assert g.why_not("place", u=tank, at="Kazakh S.S.R.", to="Kazakh S.S.R.") == \
        "nothing is placed in Kazakh S.S.R. this turn (its complex was moved there)"
    g.finish()
    # next turn it places as any complex does
    g.walk_to("USSR", "mobilize", turn=2)
    assert ("Kazakh S.S.R.", "Kazakh S.S.R.") in places(g, tank)


def test_only_the_ussr_moves_its_complexes() -> None:
    g = buying("Germany", [("IndustrialComplex", "Germany", "Germany", 1)])
    g.act("buy", kind="Tank")
    g.walk_to("Germany", "noncombat_move")
    g.finish()
    # Germany is not asked: the relocation step passed by itself
    assert g.step == "mobilize"
    assert g.proc("relocation_sources", "Germany") == []
    g = buying("Germany", [("IndustrialComplex", "Germany", "Germany", 1)], factory_relocation='["USSR", "Germany"]')
    g.act("buy", kind="Tank")
    g.walk_to("Germany", "noncombat_move")
    g.finish()
    assert g.step == "relocate_factory"


def test_no_unit_is_mobilized_onto_a_small_island_its_side_fills() -> None:
    # Okinawa is a small island (3 units at most): with 3 Japanese infantry there, its complex
    # places nothing more; Japan's own complex still does
    g = buying("Japan", [("IndustrialComplex", "Japan", "Okinawa", 1), ("IndustrialComplex", "Japan", "Japan", 1),
                         ("Infantry", "Japan", "Okinawa", 2)])
    g.act("buy", kind="Artillery")
    g.walk_to("Japan", "mobilize")
    art = pending(g, "Japan")[0]
    assert ("Okinawa", "Okinawa") in places(g, art)         # two infantry: room for one more
    g.add("Infantry", "Japan", "Okinawa")
    g.decision = g.rs.logic.decision(g.state)
    assert ("Okinawa", "Okinawa") not in places(g, art) and ("Japan", "Japan") in places(g, art)
    assert g.why_not("place", u=art, at="Okinawa", to="Okinawa") == "a unit placed at Okinawa cannot go to Okinawa"
