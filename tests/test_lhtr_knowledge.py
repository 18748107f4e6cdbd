"""What rulesets/aarhe/lhtr/knowledge.rules tells the search player, each found in a traced game
against the random player (issue 31) where the old `evaluate` preferred the wrong of two options:
the position that misled it, and the option it should now prefer."""

from __future__ import annotations

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
