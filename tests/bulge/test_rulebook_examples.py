"""The rulebook's worked examples (NOTES.md §3.4, §4.5), replayed with fixed dice and
checked to the unit."""

from __future__ import annotations

from engine.actions import Action
from tests.bulge.conftest import Table


def notes(state, text: str) -> list[str]:
    return [d["message"] for k, d in state.events if k == "note" and text in d["message"]]


def settle_retreats(t: Table) -> None:
    """The defender answers the retreat questions (which unit first, where to) with its first option."""
    for _ in range(20):
        d = t.rs.logic.decision(t.state)
        if d is None or d.kind != "choose":
            return
        t.play(d.options[0])
    raise AssertionError("the retreats never ended")


def test_example_a_martelange(table):
    t: Table = table()
    s = t.state
    target = t.hex("Martelange")
    attack_from = "1318"                  # the Axis hex to Martelange's east
    s.control[attack_from] = "Axis"
    s.control[target] = "Allies"
    inf1, inf2, tank, truck, supply = (t.put("Allies", target, Infantry=2) + t.put("Allies", target, Tank=1)
                                       + t.put("Allies", target, Truck=1) + t.put("Allies", target, Supply=1))
    t.put("Axis", attack_from, Infantry=1, Tank=2, Artillery=1, Supply=1)
    boxes = t.rs.rules.procedure("strip_boxes")(s, s.pieces_at(target))
    assert [[p.id for p in b] for b in boxes] == [[inf1], [inf2], [tank], [truck], [supply]]
    s.load_dice([1, 3, 3, 4, 5, 8, 8, 10])
    t.play(Action("attack", {"from": attack_from, "to": target}))
    s = t.state
    assert notes(s, "attacks Martelange")[0].endswith("with 1 Infantry, 2 Tank, 1 Artillery (8 dice) against "
                                                       "2 Infantry, 1 Tank, 1 Truck, 1 Supply")
    # 1 -> Inf1; 3, 3 -> the Tank; 4 -> the Truck; 5 -> the Supply
    assert notes(s, "hits on the strips") == ["  hits on the strips: Infantry in box 1: 1, Tank in box 3: 2, Truck in box 4: 1, "
                                                "Supply in box 5: 1"]
    assert tank not in s.pieces and truck not in s.pieces and supply not in s.pieces
    assert t.at(attack_from, "Axis").count("Supply") == 0            # the attack paid its 1 supply
    d = t.rs.logic.decision(s)
    if d.kind == "choose":                                            # the Allies choose where Inf1 goes
        assert d.player == "Allies" and "retreating" in s.pieces[inf1].status
    settle_retreats(t)
    s = t.state
    assert s.pieces[inf2].space == target
    assert s.pieces[inf1].space in s.board.neighbours(target)        # one Infantry retreats
    assert "retreating" not in s.pieces[inf1].status


def test_example_b_more_than_six_defenders(bulge_rulebook_stacking):
    t = Table(bulge_rulebook_stacking)
    target, attack_from, infs, tanks, arts, truck = t.example_b()
    t.play(Action("attack", {"from": attack_from, "to": target}))
    s = t.state
    # boxes Inf1 Inf2 Inf3 Tank1 Tank2 Tank3 Art1 Art2 Truck: hits 0 1 2 0 0 2 1 0 1
    assert notes(s, "hits on the strips") == [
        "  hits on the strips: Infantry in box 2: 1, Infantry in box 3: 2, Tank in box 6: 2, Artillery in box 7: 1, "
        "Truck in box 9: 1"]
    assert infs[2] not in s.pieces and tanks[2] not in s.pieces and truck not in s.pieces
    settle_retreats(t)
    s = t.state
    assert s.pieces[infs[0]].space == target
    assert s.pieces[tanks[0]].space == s.pieces[tanks[1]].space == s.pieces[arts[1]].space == target
    for moved in (infs[1], arts[0]):                                # Inf2 and Art1 retreat
        assert s.pieces[moved].space in s.board.neighbours(target)


def test_example_c_anti_aircraft(table):
    t: Table = table(turn=5, step="air_resolution")
    s = t.state
    h = t.hex("Bastogne")
    t.put("Allies", h, Infantry=1, Tank=1, Artillery=1, Truck=1)
    f1 = s.add_piece("Fighter", "Axis", h).id
    f2 = s.add_piece("Fighter", "Axis", h).id
    bomber = s.add_piece("Bomber", "Axis", h).id
    s.load_dice([1, 3, 4, 8] + [12])       # four AA dice (four unit types), then fighter 2's attack die
    t.play(Action("resolve_air", {"hex": h}))
    s = t.state
    # 1 -> fighter 1; 3 -> the bomber; 4 wraps to fighter 1 (wasted); 8 misses
    assert notes(s, "anti-aircraft") == [f"  Allies anti-aircraft fire over Bastogne ({h}), hits on the air strip: "
                                         "Fighter in box 1: 2, Bomber in box 3: 1"]
    assert s.pieces[f1].space == "offboard:Axis" and s.pieces[bomber].space == "offboard:Axis"
    assert notes(s, "air attack on Bastogne")[0].startswith("Axis air attack on Bastogne (1214) with 1 Fighter (1 dice)")
    assert notes(s, "hits on the strips") == ["  hits on the strips: none"]
    s = settle_air(t)
    assert s.pieces[f2].space == "offboard:Axis"             # air_return: every air unit flies home
    assert t.at(h, "Allies") == ["Infantry", "Tank", "Artillery", "Truck"]


def settle_air(t: Table):
    """Go on to the end of the air phase (nothing else is asked there)."""
    from engine import flow

    for _ in range(50):
        if t.rs.structure.phase(t.state).name != "air_combat":
            return t.state
        d = flow.settle(t.rs, t.state)
        assert d is None or t.rs.structure.phase(t.state).name != "air_combat", d
    return t.state


def test_front_line_example_vielsalm_and_bastogne(table):
    t: Table = table(turn=1, step="attacks")
    s = t.state
    vielsalm, bastogne = t.hex("Vielsalm"), t.hex("Bastogne")
    noville, se, east = "1313", "1315", "1314"       # Bastogne's NE, SE and E neighbours
    for h in (vielsalm, bastogne, noville, se, east):
        s.control[h] = "Allies"
    t.put("Axis", vielsalm, Tank=2)
    t.put("Axis", bastogne, Infantry=1)
    t.put("Allies", noville, Supply=1)
    t.rs.rules.handlers("step_start")            # the front line is a rule in upkeep.rules
    claims = t.rs.rules.procedure("axis_claims")(s)
    assert vielsalm in claims and bastogne in claims
    assert se in claims and east in claims
    assert noville not in claims
    for handler in t.rs.rules.handlers("step_start"):
        handler(s, "upkeep", "front_line")
    assert s.control[vielsalm] == s.control[bastogne] == s.control[se] == "Axis"
    assert s.control[noville] == "Allies"


def test_an_unoccupied_allied_town_resists_a_claim(table):
    t: Table = table(turn=1, step="attacks")
    s = t.state
    bastogne = t.hex("Bastogne")
    west = "1114"                                # Bastogne is on the west hex's eastern side
    s.control[bastogne] = "Allies"
    t.put("Axis", west, Infantry=1)
    assert bastogne not in t.rs.rules.procedure("axis_claims")(s)
    t.put("Axis", bastogne, Infantry=1)          # an Axis combat unit in the town lifts it
    assert bastogne in t.rs.rules.procedure("axis_claims")(s)


# -- more boxes than the placement die has faces (issue 36 item 2) --------------------------------
def test_every_truck_of_a_hex_of_four_combat_units_and_nine_trucks_can_be_hit(table):
    # seed stacking allows 4 combat units and any number of trucks; the seed's strips show "up
    # to 12 boxes", so the trucks then share one box and each hit on it destroys one truck
    t: Table = table()
    s = t.state
    target, attack_from = t.hex("Bastogne"), "1314"
    s.control[attack_from] = "Axis"
    t.put("Allies", target, Infantry=4)
    trucks = t.put("Allies", target, Truck=9)
    boxes = t.rs.rules.procedure("strip_boxes")(s, s.pieces_at(target))
    assert len(boxes) <= 12 and sorted(p.id for p in boxes[-1]) == trucks
    t.put("Axis", attack_from, Artillery=4, Supply=1)
    s.load_dice([5] * 12 + [12] * 12)        # 12 hits; the faces place them if there is no reroll
    t.play(Action("attack", {"from": attack_from, "to": target}))
    s = t.state
    assert notes(s, "hits on the strips") == ["  hits on the strips: Truck ×9 in box 5: 12"]
    assert not any(pid in s.pieces for pid in trucks)
    assert t.at(target, "Allies") == ["Infantry"] * 4


def test_with_more_boxes_than_the_die_has_faces_the_last_box_can_be_hit():
    # a house rule's stacking limit of 20 combat units: the placement reroll has as many
    # faces as there are boxes, so the 14th box is as likely as the first
    from engine import plugins

    rs = plugins.load("bulge", options={"stacking_limit": "20"})
    t = Table(rs)
    s = t.state
    target, attack_from = t.hex("Bastogne"), "1314"
    s.control[attack_from] = "Axis"
    infs = t.put("Allies", target, Infantry=14)
    t.put("Axis", attack_from, Infantry=1, Supply=1)
    s.load_dice([1, 14])                      # one hit; its reroll lands in box 14
    t.play(Action("attack", {"from": attack_from, "to": target}))
    assert "retreating" in t.state.pieces[infs[13]].status or t.state.pieces[infs[13]].space != target
