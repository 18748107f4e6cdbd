"""Board upkeep, the turn's start, reinforcements and victory as a player meets them (RB §3.3
"Reinforcements", §3.4, §3.5; seed "Reinforcements", "Stacking", "Scoring"). The rules are in
rules/upkeep.rules, rules/reinforcements.rules and the stacking queries of rules/board.rules."""

from __future__ import annotations

import pytest

from engine import flow
from engine.actions import Action, IllegalAction
from tests.bulge.conftest import Table

ST_VITH = "1709"


def options(t: Table, kind: str) -> list[Action]:
    """The options of this kind asked now (none once the step is over)."""
    d = t.rs.logic.decision(t.state)
    return [o for o in d.options if o.kind == kind] if d is not None else []


def act(t: Table, kind: str, **args) -> None:
    """Play an action and stay in the step (no settling), to look at what it left."""
    t.rs.logic.decision(t.state)           # the step has begun
    t.rs.logic.apply(t.state, Action(kind, args))


# -- stacking ------------------------------------------------------------------------------------
def test_the_owner_destroys_only_when_no_unit_can_leave(table):
    t: Table = table(turn=2, step="stacking")
    t.put("Allies", ST_VITH, Infantry=5)
    for n in t.state.board.neighbours(ST_VITH):
        t.put("Axis", n, Infantry=1)        # enemy combat units all round: nowhere to go
    d = t.rs.logic.decision(t.state)
    assert d.player == "Allies" and {o.kind for o in d.options} == {"disband"}
    with pytest.raises(IllegalAction, match="no unit can leave"):
        act(t, "displace", piece=d.options[0]["piece"], to="1608")
    t.play(d.options[0])
    assert t.at(ST_VITH, "Allies").count("Infantry") == 4


def test_the_owner_may_not_destroy_a_unit_the_opponent_can_move_out(table):
    t: Table = table(turn=2, step="stacking")
    ids = t.put("Allies", ST_VITH, Infantry=5)
    with pytest.raises(IllegalAction, match="the opponent moves it"):
        act(t, "disband", piece=ids[0])
    with pytest.raises(IllegalAction, match="retreat rules"):
        act(t, "displace", piece=ids[0], to="1911")       # not next to St. Vith


def test_an_excess_unit_may_be_moved_into_a_hex_holding_only_enemy_supply(table):
    # Upkeep moves excess units "following the retreat rules" (RB §3.4), and a retreat may
    # enter a hex holding only enemy trucks or supply (RB §3.3 "Entering enemy hexes"), which
    # its combat unit then captures; the owner destroys units only when none can leave
    t: Table = table(turn=2, step="stacking")
    t.put("Allies", ST_VITH, Infantry=5)
    around = t.state.board.neighbours(ST_VITH)
    (token,) = t.put("Axis", around[0], Supply=1)
    for n in around[1:]:
        t.put("Allies", n, Infantry=4)                 # full: no room there
    d = t.rs.logic.decision(t.state)
    assert d.player == "Axis" and {o.kind for o in d.options} == {"displace"}
    assert {o["to"] for o in d.options} == {around[0]}
    t.rs.logic.apply(t.state, d.options[0])
    assert t.at(ST_VITH, "Allies").count("Infantry") == 4
    assert t.at(around[0], "Allies") == ["Infantry"]
    assert "captured" in t.state.pieces[token].status


def test_seed_stacking_counts_combat_units_only(table):
    t: Table = table(turn=2, step="stacking")
    t.put("Allies", ST_VITH, Infantry=4, Truck=3, Supply=5)
    assert not t.rs.rules.procedure("stack_excess")(t.state, ST_VITH, "Allies")
    d = t.rs.logic.decision(t.state)
    assert d is None or d.kind != "stacking"


def test_rulebook_stacking_sub_limits_and_pooled_supply(bulge_rulebook_stacking):
    t = Table(bulge_rulebook_stacking, turn=2, step="stacking")
    excess = bulge_rulebook_stacking.rules.procedure("stack_excess")
    t.put("Allies", ST_VITH, Infantry=6, Tank=5, Supply=10)      # 6 + 5 + all supply as one = 12
    assert excess(t.state, ST_VITH, "Allies") == []
    t.put("Allies", "1608", Artillery=4, Infantry=7)                # over the 3 Art and 6 Inf sub-limits
    assert sorted(p.kind for p in excess(t.state, "1608", "Allies")) == ["Artillery", "Infantry"]
    t.put("Allies", "1810", Infantry=6, Tank=6, Truck=1)            # 13 places: the last one in is over
    assert [p.kind for p in excess(t.state, "1810", "Allies")] == ["Truck"]
    d = t.rs.logic.decision(t.state)
    assert d.player == "Axis" and d.kind == "stacking"
    movers = {t.state.pieces[o["piece"]].kind for o in d.options}
    assert movers == {"Artillery", "Infantry"}                       # 1608 comes first; only the kinds over
    while d is not None and d.kind == "stacking":
        d = t.play(d.options[0])
    s = t.state
    assert t.at("1608", "Allies").count("Artillery") <= 3 and t.at("1608", "Allies").count("Infantry") <= 6
    assert not excess(s, "1810", "Allies")


def test_seed_stacking_ignores_the_rulebook_sub_limits(table):
    t: Table = table(turn=2, step="stacking")
    excess = t.rs.rules.procedure("stack_excess")
    t.put("Allies", ST_VITH, Artillery=4)
    assert len(excess(t.state, ST_VITH, "Allies")) == 0
    t.put("Allies", ST_VITH, Tank=1)
    assert len(excess(t.state, ST_VITH, "Allies")) == 1


# -- stacking during movement (issue 36 item 1) ------------------------------------------------------
def full_hex_and_a_mover(t: Table) -> int:
    """Four Axis Infantry in St. Vith, and an activated Infantry next to it (1608)."""
    for h in t.state.board.spaces:
        t.state.control[h] = "Axis"
    t.put("Axis", ST_VITH, Infantry=4)
    (mover,) = t.put_active("Axis", "1608", Infantry=1)
    t.put_active("Axis", "2001", Infantry=1)           # keeps the step open after the move
    return mover


def test_a_move_that_over_stacks_a_hex_is_played_with_a_warning(table):
    # default: RB §3.3's timing, the limit is checked at upkeep; the player is warned
    t: Table = table(turn=2, step="axis_move")
    mover = full_hex_and_a_mover(t)
    assert ST_VITH in {o["to"] for o in options(t, "move") if o["pieces"] == (mover,)}
    t.rs.logic.decision(t.state)
    t.state.events.clear()
    t.rs.logic.apply(t.state, Action("move", {"pieces": (mover,), "to": ST_VITH}))
    told = [t.rs.logic.narrate(e) for e in t.state.events]
    assert ("warning: Axis now has more than 4 combat units in St. Vith (1709): at upkeep the opponent moves "
            "the excess out, or they are destroyed (RB §3.4)") in told
    assert t.at(ST_VITH).count("Infantry") == 5


def test_with_stacking_on_move_a_move_or_reinforcement_into_a_full_hex_is_refused():
    from engine import plugins

    rs = plugins.load("bulge", options={"stacking_on_move": "true"})
    t = Table(rs, turn=2, step="axis_move")
    mover = full_hex_and_a_mover(t)
    assert ST_VITH not in {o["to"] for o in options(t, "move") if o["pieces"] == (mover,)}
    with pytest.raises(IllegalAction, match=r"St. Vith \(1709\) would hold more than 4 combat units of one side: "
                                            "with the option stacking_on_move"):
        act(t, "move", pieces=(mover,), to=ST_VITH)
    t = Table(rs, turn=2, step="axis_reinforce")
    inf = t.state.add_piece("Infantry", "Axis", "chart:Axis:2", group="9 SS Pz").id
    t.put("Axis", "2004", Infantry=4)
    assert "2004" not in {o["to"] for o in options(t, "place")}
    with pytest.raises(IllegalAction, match="would hold more than 4 combat units"):
        act(t, "place", piece=inf, to="2004")
    act(t, "place", piece=inf, to="2003")


# -- commandeering, the turn's start ------------------------------------------------------------
def test_captured_trucks_and_supply_are_commandeered_at_upkeep(table):
    t: Table = table(turn=2, step="front_line")
    s = t.state
    t.put("Axis", ST_VITH, Infantry=1)
    truck, token = t.put("Allies", ST_VITH, Truck=1, Supply=1)
    for pid in (truck, token):
        s.update(pid, status=s.pieces[pid].status | {"captured"})
    flow.settle(t.rs, s)
    for pid in (truck, token):
        assert s.pieces[pid].owner == "Axis" and "captured" not in s.pieces[pid].status


def test_a_turn_starts_without_last_turns_marks_and_with_the_charts_trucks_off_board(table):
    t: Table = table(turn=2, step="victory_points")
    s = t.state
    (inf,) = t.put("Axis", "2001", Infantry=1)
    s.update(inf, status=frozenset({"moved", "attacked", "active"}))
    truck = s.add_piece("Truck", "Allies", "chart:Northern:3", group="1 ID").id
    later = s.add_piece("Truck", "Allies", "chart:Northern:4", group="82 Abn").id
    d = flow.settle(t.rs, s)
    assert s.turn == 3 and d.kind == "allies_reinforce"
    assert not s.pieces[inf].status
    assert s.pieces[truck].space == "offboard:Allies" and s.pieces[later].space == "chart:Northern:4"
    assert {o["truck"] for o in d.options if o.kind == "enter"} == {truck}


# -- victory -------------------------------------------------------------------------------------
def test_the_axis_wins_at_once_with_24_vp(table):
    t: Table = table(turn=3, step="front_line")
    s = t.state
    towns = sorted((sid for sid in s.board.spaces if s.board.space(sid).get("vp")),
                   key=lambda sid: -s.board.space(sid).get("vp"))
    vp = 0
    for sid in towns:
        if vp >= 24:
            break
        s.control[sid] = "Axis"
        vp += s.board.space(sid).get("vp")
    assert flow.settle(t.rs, s) is None
    assert s.result["winner"] == "Axis" and s.result["reason"] == f"the Axis holds {vp} VP (needs 24)"
    assert s.result["score"] == {"Axis VP": vp, "turn": 3}


def test_23_vp_is_not_enough(table):
    t: Table = table(turn=8, step="front_line")
    s = t.state
    vp = 0
    for sid in sorted(s.board.spaces):
        v = s.board.space(sid).get("vp") or 0
        if v and vp + v <= 23:
            s.control[sid] = "Axis"
            vp += v
    assert vp == 23
    flow.settle(t.rs, s)
    assert s.result["winner"] == "Allies" and "the Axis has 23 VP at the end of turn 8" in s.result["reason"]


# -- reinforcements ------------------------------------------------------------------------------
def test_reinforcements_come_on_by_their_chart_turn_and_army_section(table):
    t: Table = table(turn=2, step="axis_reinforce")
    s = t.state
    inf = s.add_piece("Infantry", "Axis", "chart:Axis:2", group="9 SS Pz").id       # 6th Panzer Army
    later = s.add_piece("Infantry", "Axis", "chart:Axis:3", group="PzBde 150").id
    t.put("Allies", "2002", Infantry=1)        # an entry hex with enemy combat units in it
    places = options(t, "place")
    assert {o["piece"] for o in places} == {inf}
    assert {o["to"] for o in places} == {"2001", "2003", "2004", "2005", "2006", "2007"}
    with pytest.raises(IllegalAction, match="6PzA section"):
        act(t, "place", piece=inf, to="2012")
    with pytest.raises(IllegalAction, match="comes on in turn 3"):
        act(t, "place", piece=later, to="2004")
    act(t, "place", piece=inf, to="2004")
    assert s.pieces[inf].space == "2004" and "moved" in s.pieces[inf].status     # Infantry ends its move there
    assert not options(t, "move")


def test_a_tank_placed_on_a_road_keeps_moving_along_it(table):
    t: Table = table(turn=2, step="axis_reinforce")
    s = t.state
    road = s.add_piece("Tank", "Axis", "chart:Axis:2", group="9 SS Pz").id
    off = s.add_piece("Tank", "Axis", "chart:Axis:2", group="2 SS Pz").id
    act(t, "place", piece=off, to="2001")              # no road there: it stops
    act(t, "place", piece=road, to="2004")
    assert "road_only" in s.pieces[road].status and "moved" in s.pieces[off].status
    moves = options(t, "move")
    assert moves and {o["pieces"] for o in moves} == {(road,)}
    reach = t.rs.rules.procedure("onward_reach")(s, s.pieces[road])
    assert {o["to"] for o in moves} == set(reach) and all(h[:1].isdigit() for h in reach)
    to = moves[-1]["to"]
    act(t, "move", pieces=(road,), to=to)
    assert s.pieces[road].space == to and "moved" in s.pieces[road].status
    assert not options(t, "move")


def test_an_off_board_blitz_is_bought_per_division(table):
    t: Table = table(turn=2, step="axis_reinforce")
    s = t.state
    tank = s.add_piece("Tank", "Axis", "chart:Axis:2", group="9 SS Pz").id
    other = s.add_piece("Tank", "Axis", "chart:Axis:2", group="2 SS Pz").id
    supply = len(s.pieces_at("offboard:Axis"))
    assert {o["group"] for o in options(t, "blitz_division")} == {"9 SS Pz", "2 SS Pz"}
    act(t, "blitz_division", group="9 SS Pz")
    assert len(s.pieces_at("offboard:Axis")) == supply - 1
    assert {o["group"] for o in options(t, "blitz_division")} == {"2 SS Pz"}
    with pytest.raises(IllegalAction, match="blitzed already"):
        act(t, "blitz_division", group="9 SS Pz")
    act(t, "place", piece=tank, to="2001")
    act(t, "place", piece=other, to="2003")
    assert "blitz" in s.pieces[tank].status and "blitz" not in s.pieces[other].status
    blitz = options(t, "move")
    assert blitz and {o["pieces"] for o in blitz} == {(tank,)} and all("(blitz)" in o.label for o in blitz)
    act(t, "move", pieces=(tank,), to=blitz[0]["to"])
    assert "blitzed" in s.pieces[tank].status and not options(t, "move")


def test_off_board_trucks_load_and_come_on_by_a_road_of_their_edge(table):
    t: Table = table(turn=2, step="axis_reinforce")
    s = t.state
    truck = s.add_piece("Truck", "Axis", "offboard:Axis").id
    second = s.add_piece("Truck", "Axis", "offboard:Axis").id
    inf = s.add_piece("Infantry", "Axis", "chart:Axis:2", group="9 SS Pz").id
    loads = options(t, "load")
    assert {o["truck"] for o in loads} == {truck}                 # one truck at a time
    kinds = sorted(s.pieces[o["piece"]].kind for o in loads)
    assert kinds == ["Infantry", "Supply"]                        # one option per kind: the tokens are alike
    with pytest.raises(IllegalAction, match="another one is first"):
        act(t, "load", truck=second, piece=inf)
    act(t, "load", truck=truck, piece=inf)
    token = next(o["piece"] for o in options(t, "load") if s.pieces[o["piece"]].kind == "Supply")
    act(t, "load", truck=truck, piece=token)
    assert {o["to"] for o in options(t, "enter")} == {"2004", "2012", "2016"}
    with pytest.raises(IllegalAction, match="road hex of their own board edge"):
        act(t, "enter", truck=truck, to="2001")
    act(t, "enter", truck=truck, to="2012")
    assert [s.pieces[p].space for p in (truck, inf, token)] == ["2012"] * 3
    assert s.pieces[inf].carrier == truck
    # it keeps going along the road, and then pauses until it loads again
    moves = [o for o in options(t, "move") if o["pieces"] == (truck,)]
    assert moves
    act(t, "move", pieces=(truck,), to=moves[0]["to"])
    assert s.pieces[inf].space == moves[0]["to"]
    assert not [o for o in options(t, "move") if o["pieces"] == (truck,)]


def test_cargo_of_a_truck_that_stays_off_board_goes_back_to_its_chart(table):
    t: Table = table(turn=2, step="axis_reinforce")
    s = t.state
    truck = s.add_piece("Truck", "Axis", "offboard:Axis").id
    inf = s.add_piece("Infantry", "Axis", "chart:Axis:2", group="9 SS Pz").id
    act(t, "load", truck=truck, piece=inf)
    act(t, "finish")
    t.rs.logic.decision(s)                 # the step's end
    assert s.pieces[inf].space == "chart:Axis:2" and s.pieces[inf].carrier is None


def test_allied_reinforcements_use_their_charts_edge(table):
    t: Table = table(turn=3, step="allies_reinforce")
    s = t.state
    north = s.add_piece("Tank", "Allies", "chart:Northern:3", group="7 AD").id
    south = s.add_piece("Tank", "Allies", "chart:Southern:3", group="10 AD").id
    places = options(t, "place")
    assert {o["to"][2:] for o in places if o["piece"] == north} == {"01"}
    assert {o["to"][2:] for o in places if o["piece"] == south} == {"21"}


def test_wargame_info_lists_the_stacking_option_with_its_source(capsys):
    from clients.cli import main

    assert main(["info", "bulge"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("stacking_on_move:"))
    assert "bool = false" in line and "status: reading" in line and "RB §3.3 checks it at Board Upkeep" in line
