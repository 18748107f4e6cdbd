"""Movement as a player meets it (RB §3.3; seed "Movement & Reinforcement", "Zones of
Control"): trucks home, activation, road moves and their stops, trucks and cargo, captures.
Each test sets up a table and plays actions; the rules are in rules/movement.rules."""

from __future__ import annotations

import pytest

from engine.actions import Action, IllegalAction
from tests.bulge.conftest import Table

BASTOGNE, LONGVILLY = "1214", "1314"
# a road east from Bastogne: 1214 - 1314 - 1414 - 1513; 1515 touches 1414 but not 1314 or 1513
EAST_1, EAST_2, EAST_3, BESIDE_EAST_2 = LONGVILLY, "1414", "1513", "1515"
AXIS_EXIT, ALLIED_EXIT = "2012", "0114"       # road exits on the east and west edges
ST_VITH = "1709"


def table_at(table, step: str, spare: bool = True) -> Table:
    """A table at `step` of turn 2 with no enemy-held towns in the way (control changes only
    at upkeep) and, with `spare`, an activated Axis unit far away that keeps the step open
    (a side with nothing left to move is done, and the game would go on)."""
    t: Table = table(turn=2, step=step)
    for h in t.state.board.spaces:
        t.state.control[h] = "Axis"
    if spare:
        t.put_active("Axis", ST_VITH, Infantry=1)
    return t


def options(t: Table) -> list[Action]:
    return t.rs.logic.decision(t.state).options


def destinations(t: Table, pid: int) -> set[str]:
    return {o["to"] for o in options(t) if o.kind == "move" and o["pieces"] == (pid,)}


def move(t: Table, pid: int, to: str):
    return t.play(Action("move", {"pieces": (pid,), "to": to}))


# -- trucks home ------------------------------------------------------------------------------------
def test_both_sides_send_free_trucks_home_before_anyone_moves(table):
    t: Table = table(turn=2, step="axis_trucks_home")
    (axis_truck,) = t.put("Axis", AXIS_EXIT, Truck=1)
    (allied_truck,) = t.put("Allies", ALLIED_EXIT, Truck=1)
    t.put("Axis", BASTOGNE, Infantry=1, Supply=1)           # the Axis has something to activate
    d = t.rs.logic.decision(t.state)
    assert (d.player, d.kind) == ("Axis", "axis_trucks_home")
    assert Action("truck_home", {"piece": axis_truck}) in d.options and d.finish in d.options
    d = t.play(Action("truck_home", {"piece": axis_truck}))
    assert t.state.pieces[axis_truck].space == "offboard:Axis"
    # the Allies send theirs home too, before the Axis activates or moves anything
    assert (d.player, d.kind) == ("Allies", "allies_trucks_home")
    d = t.play(Action("truck_home", {"piece": allied_truck}))
    assert t.state.pieces[allied_truck].space == "offboard:Allies"
    assert (d.player, d.kind) == ("Axis", "axis_activation")


def test_a_truck_in_an_enemy_zone_of_control_away_from_its_edge_is_not_free(table):
    t = table_at(table, "axis_trucks_home", spare=False)
    (truck,) = t.put("Axis", EAST_2, Truck=1)
    (free,) = t.put("Axis", BASTOGNE, Truck=1)           # the road east leads home
    t.put("Allies", BESIDE_EAST_2, Infantry=1)
    assert [o["piece"] for o in options(t) if o.kind == "truck_home"] == [free]
    with pytest.raises(IllegalAction, match="is not a free truck of Axis"):
        t.play(Action("truck_home", {"piece": truck}))


# -- activation -----------------------------------------------------------------------------------
def test_activation_pays_supply_before_anything_moves(table):
    t = table_at(table, "axis_activation", spare=False)
    inf = t.put("Axis", BASTOGNE, Infantry=2)
    t.put("Axis", LONGVILLY, Infantry=1)
    t.put("Axis", BASTOGNE, Supply=1)
    with pytest.raises(IllegalAction, match="is not a move of axis activation"):
        t.play(Action("move", {"pieces": (inf[0],), "to": "1114"}))
    with pytest.raises(IllegalAction, match="a blitz needs Tanks in the hex"):
        t.play(Action("activate", {"hex": BASTOGNE, "blitz": True}))
    with pytest.raises(IllegalAction, match="Axis has no combat units to activate in 1414"):
        t.play(Action("activate", {"hex": EAST_2, "blitz": False}))
    d = t.play(Action("activate", {"hex": BASTOGNE, "blitz": False}))
    assert all("active" in t.state.pieces[i].status for i in inf)
    assert "Supply" not in t.at(BASTOGNE)
    # Longvilly's only token within reach is spent: nothing else can pay, so on to moving
    assert d.kind == "axis_move"
    assert [o for o in d.options if o.kind == "move" and o["pieces"] == tuple(inf)]


def test_activation_refuses_a_hex_without_enough_supply(table):
    t = table_at(table, "axis_activation", spare=False)
    t.put("Axis", BASTOGNE, Infantry=1, Tank=1, Supply=1)
    t.put("Axis", EAST_3, Infantry=1)
    with pytest.raises(IllegalAction, match="activating this hex with blitz needs 2 supply within reach"):
        t.play(Action("activate", {"hex": BASTOGNE, "blitz": True}))
    with pytest.raises(IllegalAction, match="activating this hex needs 1 supply within reach of 1513; there are 0"):
        t.play(Action("activate", {"hex": EAST_3, "blitz": False}))


# -- moving ----------------------------------------------------------------------------------------
def test_a_tank_stops_where_it_enters_an_enemy_zone_of_control(table):
    t = table_at(table, "axis_move")
    (tank,) = t.put_active("Axis", BASTOGNE, Tank=1)
    t.put("Allies", BESIDE_EAST_2, Infantry=1)
    move(t, tank, EAST_2)
    assert t.state.pieces[tank].space == EAST_2 and not destinations(t, tank)


def test_a_unit_starting_in_an_enemy_zone_of_control_stops_after_one_hex(table):
    t = table_at(table, "axis_move")
    (tank,) = t.put_active("Axis", EAST_2, Tank=1)
    t.put("Allies", BESIDE_EAST_2, Infantry=1)
    reach = destinations(t, tank)
    assert EAST_1 in reach and BASTOGNE not in reach
    assert BESIDE_EAST_2 not in reach           # nor into the enemy's hex
    with pytest.raises(IllegalAction, match="stopping when it enters an enemy zone of control or town"):
        move(t, tank, BASTOGNE)
    with pytest.raises(IllegalAction, match="cannot enter a hex holding enemy combat units"):
        move(t, tank, BESIDE_EAST_2)


@pytest.mark.parametrize("held_by", ["Axis", "Allies"])
def test_a_tank_on_a_road_stops_on_entering_an_enemy_held_town(table, held_by):
    t = table_at(table, "axis_move")
    t.state.control[BASTOGNE] = held_by          # a town; Longvilly, on the way, is not
    (tank,) = t.put_active("Axis", EAST_3, Tank=1)
    reach = destinations(t, tank)
    assert LONGVILLY in reach and BASTOGNE in reach
    assert ("1114" in reach) is (held_by == "Axis")


def test_units_move_one_at_a_time_or_all_of_a_kind_together(table):
    t = table_at(table, "axis_move")
    inf = t.put_active("Axis", BASTOGNE, Infantry=3)
    groups = [o for o in options(t) if o.kind == "move" and o["pieces"] == tuple(inf)]
    assert groups and groups[0].label.startswith("move all 3 Infantry from Bastogne")
    with pytest.raises(IllegalAction, match="move one unit, or all the units of one kind in a hex together"):
        t.play(Action("move", {"pieces": tuple(inf[:2]), "to": LONGVILLY}))
    t.play(Action("move", {"pieces": tuple(inf), "to": LONGVILLY}))
    assert t.at(LONGVILLY) == ["Infantry"] * 3
    with pytest.raises(IllegalAction, match="has already moved this turn"):
        move(t, inf[0], BASTOGNE)


def test_finish_ends_the_sides_movement(table):
    t = table_at(table, "axis_move")
    with pytest.raises(IllegalAction, match="`done` is not a move of axis move"):
        t.play(Action("done"))
    t.play(Action("finish"))
    assert t.rs.structure.step(t.state) != "axis_move"


# -- trucks -----------------------------------------------------------------------------------------
def test_a_truck_carries_its_cargo_and_unloads_it_where_it_stopped(table):
    t = table_at(table, "axis_activation")
    (truck,) = t.put("Axis", BASTOGNE, Truck=1)
    (inf,) = t.put("Axis", BASTOGNE, Infantry=1)
    supply = t.put("Axis", BASTOGNE, Supply=7)
    d = t.play(Action("activate", {"hex": BASTOGNE, "blitz": False}))      # spends one of the seven
    assert d.kind == "axis_move"                # nothing else to pay for
    t.play(Action("load", {"truck": truck, "piece": inf}))
    with pytest.raises(IllegalAction, match="aboard a truck; it moves with the truck"):
        move(t, inf, LONGVILLY)
    left = [s for s in supply if s in t.state.pieces]
    for token in left[:5]:
        t.play(Action("load", {"truck": truck, "piece": token}))
    with pytest.raises(IllegalAction, match="is full \\(6 spaces\\)"):
        t.play(Action("load", {"truck": truck, "piece": left[5]}))
    move(t, truck, EAST_3)
    aboard = [inf, *left[:5]]
    assert all(t.state.pieces[p].space == EAST_3 and t.state.pieces[p].carrier == truck for p in aboard)
    assert t.state.pieces[left[5]].space == BASTOGNE
    t.play(Action("finish"))                    # the Axis's movement ends: everything unloads
    assert all(t.state.pieces[p].space == EAST_3 and t.state.pieces[p].carrier is None for p in aboard)


def test_a_truck_pauses_after_a_road_move_and_drives_on_after_a_pickup(table):
    t = table_at(table, "axis_move")
    (truck,) = t.put("Axis", BASTOGNE, Truck=1)
    (token,) = t.put("Axis", EAST_2, Supply=1)
    move(t, truck, EAST_2)
    assert not destinations(t, truck)
    with pytest.raises(IllegalAction, match="drives on only after picking something up"):
        move(t, truck, EAST_3)
    t.play(Action("load", {"truck": truck, "piece": token}))
    move(t, truck, EAST_3)
    assert t.state.pieces[token].space == EAST_3


def test_a_truck_leaving_an_enemy_zone_of_control_stops(table):
    t = table_at(table, "axis_move")
    (truck,) = t.put("Axis", EAST_2, Truck=1)
    t.put("Allies", BESIDE_EAST_2, Infantry=1)
    (token,) = t.put("Axis", EAST_1, Supply=1)
    reach = destinations(t, truck)
    assert EAST_1 in reach and BASTOGNE not in reach       # one hex out of the zone...
    move(t, truck, EAST_1)
    # ...and there it stops: no pickup, no driving on (seed: "entering or leaving")
    assert not [o for o in options(t) if o.get("truck") == truck or o.get("pieces") == (truck,)]
    with pytest.raises(IllegalAction, match="has stopped and cannot pick anything up"):
        t.play(Action("load", {"truck": truck, "piece": token}))


def test_trucks_move_only_along_roads(table):
    t = table_at(table, "axis_move")
    (truck,) = t.put("Axis", BASTOGNE, Truck=1)
    board = t.state.board
    off_road = next(n for n in board.neighbours(BASTOGNE) if not board.link(BASTOGNE, n).get("road"))
    with pytest.raises(IllegalAction, match="moves only along connected road"):
        move(t, truck, off_road)


# -- captures ---------------------------------------------------------------------------------------
def test_combat_units_capture_enemy_trucks_and_supply_where_they_stop(table):
    t = table_at(table, "axis_move")
    (inf,) = t.put_active("Axis", BASTOGNE, Infantry=1)
    (tank,) = t.put_active("Axis", BASTOGNE, Tank=1)
    truck, token = t.put("Allies", LONGVILLY, Truck=1, Supply=1)
    move(t, tank, EAST_2)                       # along the road through Longvilly: no capture
    assert "captured" not in t.state.pieces[truck].status
    move(t, inf, LONGVILLY)                     # stopping there captures both
    assert "captured" in t.state.pieces[truck].status and "captured" in t.state.pieces[token].status
    assert any(k == "note" and "Axis captures Truck" in d["message"] for k, d in t.state.events)


# -- what came on ------------------------------------------------------------------------------------
def test_a_blitzing_tank_placed_off_the_road_is_offered_its_blitz_hex(table):
    t = table_at(table, "axis_reinforce")
    (tank,) = t.put("Axis", "1413", Tank=1)      # no road: it ends its move there, then blitzes
    t.state.update(tank, status=frozenset({"entered", "moved", "blitz"}))
    d = t.rs.logic.decision(t.state)
    blitz = {o["to"] for o in d.options if o.kind == "move" and o["pieces"] == (tank,)}
    assert blitz and blitz <= set(t.state.board.neighbours("1413"))
    t.play(Action("move", {"pieces": (tank,), "to": sorted(blitz)[0]}))
    assert "blitzed" in t.state.pieces[tank].status


def test_a_truck_whose_roads_home_all_end_in_an_enemy_zone_of_control_is_not_free(table):
    # RB §3.3 "Start of phase": a free truck traces a road to a friendly board edge that
    # avoids enemy zones of control; an edge hex in one is no way home for a truck outside it
    t = table_at(table, "axis_trucks_home", spare=False)
    (truck,) = t.put("Axis", "2011", Truck=1)                 # one road hex from the exit 2012
    t.put("Axis", BASTOGNE, Infantry=1, Supply=1)
    t.put("Allies", "2013", Infantry=1)                       # next to the exit 2012, not to 2011
    t.put("Allies", "2003", Infantry=1)                       # and to the other Axis exits
    assert truck in [o["piece"] for o in options(t) if o.kind == "truck_home"]
    t.put("Allies", "2015", Infantry=1)
    assert t.rs.logic.decision(t.state) is None               # no free truck: nothing to ask
    with pytest.raises(IllegalAction, match="is not a free truck of Axis"):
        t.rs.logic.apply(t.state, Action("truck_home", {"piece": truck}))
