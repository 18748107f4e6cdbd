"""The rulebook's worked examples (NOTES.md §3.4, §4.5), replayed with fixed dice and
checked to the unit."""

from __future__ import annotations

from engine.actions import Action
from rulesets.bulge import air
from tests.bulge.conftest import Table


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
    s.load_dice([1, 3, 3, 4, 5, 8, 8, 10])
    t.play(Action("attack", {"from": attack_from, "to": target}))
    s = t.state
    strip = [d for k, d in s.events if k == "strip"][0]
    assert strip["boxes"] == [["Infantry"], ["Infantry"], ["Tank"], ["Truck"], ["Supply"]]
    assert strip["hits"] == [1, 0, 2, 1, 1]
    assert tank not in s.pieces and truck not in s.pieces and supply not in s.pieces
    assert inf2 in s.pieces and s.pieces[inf2].space == target
    retreated = [d for k, d in s.events if k == "retreat"]
    waiting = s.ns("bulge")["retreats"]
    assert [d["piece"] for d in retreated] == [inf1] or waiting == (inf1,)
    assert t.at(attack_from, "Axis").count("Supply") == 0            # the attack paid its 1 supply


def test_example_b_more_than_six_defenders(bulge_rulebook_stacking):
    t = Table(bulge_rulebook_stacking)
    s = t.state
    target, attack_from = t.hex("Bastogne"), "1314"
    s.control[attack_from] = "Axis"
    infs = t.put("Allies", target, Infantry=3)
    tanks = t.put("Allies", target, Tank=3)
    arts = t.put("Allies", target, Artillery=2)
    (truck,) = t.put("Allies", target, Truck=1)
    t.put("Axis", attack_from, Infantry=2, Tank=4, Supply=1)
    s.load_dice([1, 2, 4, 4, 5, 6, 6, 7, 10, 11] + [3, 6, 6, 7, 9, 11, 12])
    t.play(Action("attack", {"from": attack_from, "to": target}))
    s = t.state
    strip = [d for k, d in s.events if k == "strip"][0]
    assert strip["hits"] == [0, 1, 2, 0, 0, 2, 1, 0, 1]
    assert infs[2] not in s.pieces and tanks[2] not in s.pieces and truck not in s.pieces
    assert infs[0] in s.pieces and s.pieces[infs[0]].space == target
    assert tanks[0] in s.pieces and tanks[1] in s.pieces and arts[1] in s.pieces
    must_move = {d["piece"] for k, d in s.events if k == "retreat"} | set(s.ns("bulge")["retreats"])
    assert must_move == {infs[1], arts[0]}


def test_example_c_anti_aircraft(table):
    t: Table = table(turn=5, step="air_resolution")
    s = t.state
    h = t.hex("Bastogne")
    t.put("Allies", h, Infantry=1, Tank=1, Artillery=1, Truck=1)
    f1 = s.add_piece("Fighter", "Axis", h).id
    f2 = s.add_piece("Fighter", "Axis", h).id
    bomber = s.add_piece("Bomber", "Axis", h).id
    s.load_dice([1, 3, 4, 8] + [12])       # four AA dice (four unit types), then fighter 2's attack die
    air.resolve_hex(t.rs.logic, s, h)
    aa = [d for k, d in s.events if k == "strip"][0]
    assert aa["boxes"] == [["Fighter"], ["Fighter"], ["Bomber"]]
    assert aa["hits"] == [2, 0, 1]          # 1 -> fighter 1; 3 -> the bomber; 4 wraps to fighter 1 (wasted)
    assert s.pieces[f1].space == "offboard:Axis" and s.pieces[bomber].space == "offboard:Axis"
    assert s.pieces[f2].space == h
    assert [d["dice"] for k, d in s.events if k == "air_attack"] == [1]


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
