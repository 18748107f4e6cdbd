"""Each special rule and each refusal, as a player meets it."""

from __future__ import annotations

import pytest

from engine.actions import Action, IllegalAction
from tests.bulge.conftest import Table

ST_VITH = "1709"


def barrier_and_bridge(state):
    """A hex with a river barrier on one side and a road bridge on another."""
    board = state.board
    for sid in sorted(board.spaces):
        links = {n: board.link(sid, n) for n in board.neighbours(sid) if not board.space(n).get("partial")}
        barrier = [n for n, link in links.items() if link.get("barrier")]
        bridge = [n for n, link in links.items() if link.get("bridge") and link.get("road")]
        if barrier and bridge and not board.space(sid).get("partial"):
            return sid, barrier[0], bridge[0]
    raise AssertionError("the map has no river barrier beside a bridge")


def test_a_tank_cannot_cross_a_river_barrier_but_infantry_can(table):
    t: Table = table(turn=2, step="axis_move")
    here, across, bridge = barrier_and_bridge(t.state)
    t.state.control.update({here: "Axis", across: "Axis", bridge: "Axis"})
    (tank,) = t.put_active("Axis", here, Tank=1)
    (inf,) = t.put_active("Axis", here, Infantry=1)
    with pytest.raises(IllegalAction, match="may cross a river barrier; Tanks cannot"):
        t.play(Action("move", {"pieces": (tank,), "to": across}))
    t.play(Action("move", {"pieces": (inf,), "to": across}))
    assert t.state.pieces[inf].space == across
    t.play(Action("move", {"pieces": (tank,), "to": bridge}))     # a bridge is road, not barrier
    assert t.state.pieces[tank].space == bridge


def hit_once(t: Table, src: str, target: str, **attackers: int) -> None:
    """The Axis attacks `target` from `src` with these units and one supply; the first die
    hits the first box, the rest miss."""
    t.state.control[src] = "Axis"
    t.put("Axis", src, Supply=1, **attackers)
    t.state.load_dice([1] + [12] * 20)
    t.play(Action("attack", {"from": src, "to": target}))


def test_a_retreat_into_an_enemy_zone_of_control_is_refused(table):
    t: Table = table()
    (inf,) = t.put("Allies", ST_VITH, Infantry=1)
    hit_once(t, "1608", ST_VITH, Infantry=1)        # Poteau's zone covers St. Vith's NE and W sides
    s = t.state
    d = t.rs.logic.decision(s)
    zoc = set(s.board.neighbours("1608"))
    assert d.player == "Allies" and d.kind == "choose" and "retreating" in s.pieces[inf].status
    where = {o["choice"] for o in d.options}
    assert where and not where & zoc and "1608" not in where
    bad = next(n for n in s.board.neighbours(ST_VITH) if n in zoc and n != "1608")
    with pytest.raises(IllegalAction, match="not one of the choices: .*not into an enemy zone of control"):
        t.play(Action("choose", {"choice": bad}))
    t.play(Action("choose", {"choice": sorted(where)[0]}))
    assert t.state.pieces[inf].space == sorted(where)[0]


def test_a_unit_with_no_way_out_is_destroyed(table):
    t: Table = table()
    (inf,) = t.put("Allies", ST_VITH, Infantry=1)
    t.put("Axis", "1608", Infantry=1)               # Poteau and 1610 block their hexes and zone the rest
    t.put("Axis", "1610", Infantry=1)
    hit_once(t, "1809", ST_VITH, Infantry=1)
    assert inf not in t.state.pieces
    assert t.rs.logic.decision(t.state).kind != "choose"


def test_a_fifth_unit_cannot_retreat_into_a_full_hex(table):
    t: Table = table()
    s = t.state
    (inf,) = t.put("Allies", ST_VITH, Infantry=1)
    full = "1609"
    retreat_options = t.rs.rules.procedure("retreat_options")
    assert full in retreat_options(s, s.pieces[inf])
    t.put("Allies", full, Infantry=4)
    assert full not in retreat_options(s, s.pieces[inf])
    hit_once(t, "1809", ST_VITH, Infantry=1)
    d = t.rs.logic.decision(t.state)
    assert d.kind == "choose" and {o["choice"] for o in d.options} == {"1608", "1610"}


def test_a_fifth_unit_in_a_hex_is_moved_out_at_upkeep_by_the_opponent(table):
    t: Table = table(turn=2, step="stacking")
    s = t.state
    t.put("Allies", ST_VITH, Infantry=5)
    d = t.rs.logic.decision(s)
    assert d.player == "Axis" and d.kind == "stacking" and all(o.kind == "displace" for o in d.options)
    t.play(d.options[0])
    assert t.at(ST_VITH, "Allies").count("Infantry") == 4


def test_an_attack_without_supply_is_refused(table):
    t: Table = table()
    t.state.control["1809"] = "Axis"
    t.put("Axis", "1809", Infantry=2)
    t.put("Allies", ST_VITH, Infantry=1)
    with pytest.raises(IllegalAction, match="no supply within reach"):
        t.play(Action("attack", {"from": "1809", "to": ST_VITH}))
    assert t.at(ST_VITH) == ["Infantry"]


def test_supply_is_drawn_from_an_adjacent_friendly_hex(table):
    t: Table = table()
    s = t.state
    s.control.update({"1809": "Axis", "1909": "Axis"})
    t.put("Axis", "1809", Infantry=2)
    t.put("Axis", "1909", Supply=1)
    t.put("Allies", ST_VITH, Infantry=1)
    s.load_dice([12, 12])
    t.play(Action("attack", {"from": "1809", "to": ST_VITH}))
    assert "Supply" not in t.at("1909")


def test_the_allies_cannot_attack_on_turn_1(table):
    t: Table = table(turn=1, to_attack="Allies")
    t.state.control["1809"] = "Axis"
    t.put("Axis", "1809", Infantry=1)
    t.put("Allies", ST_VITH, Infantry=2, Supply=1)
    with pytest.raises(IllegalAction, match="on turn 1 \\(Red\\) only the Axis attacks"):
        t.play(Action("attack", {"from": ST_VITH, "to": "1809"}))


def test_the_allies_are_never_asked_to_attack_on_turn_1(bulge):
    from engine.game import Game

    game = Game(bulge, None, seed=3)
    seen = []
    while game.state.turn == 1 and not game.over:
        d = game.decision
        seen.append((d.player, d.kind))
        game.play(next((o for o in d.options if o.kind in ("pass", "done", "finish")), d.options[-1]))
    assert ("Axis", "attacks") in seen and ("Allies", "attacks") not in seen


def test_no_air_units_in_bad_weather(bulge):
    from engine.game import Game

    game = Game(bulge, None, seed=5)
    asked = []
    while game.state.turn < 6 and not game.over:
        d = game.decision
        if d.kind.startswith("air_"):
            asked.append((d.kind, d.player))
        if d.kind == "air_initiative":      # the winner of the initiative says who places first
            assert {o["side"] for o in d.options} == {"Axis", "Allies"}
            assert game.state.vars["air_chooser"] == d.player
        game.play(next((o for o in d.options if o.kind in ("pass", "done", "finish")), d.options[0]))
    placing = [p for k, p in asked if k == "air_placement"]
    assert placing == ["Axis"] * 4 + ["Allies"] * 12 or placing == ["Allies"] * 12 + ["Axis"] * 4
    assert game.state.turn == 6 and not [p for p in game.state.pieces.values()
                                         if p.kind in ("Fighter", "Bomber") and ":" not in p.space]
    skipped = [d["phase"] for k, d in game.log if k == "phase_skipped" and d["phase"] == "air_combat"]
    started_air = [k for k, d in game.log if k == "phase_start" and d["phase"] == "air_combat"]
    assert len(skipped) == 4
    assert started_air                          # turn 5: the weather clears


def test_air_units_cannot_be_placed_on_turn_3(table):
    t: Table = table(turn=3, step="attacks")
    t.put("Allies", ST_VITH, Infantry=1)
    with pytest.raises(IllegalAction):
        t.play(Action("place_air", {"kind": "Fighter", "to": ST_VITH}))


def test_units_must_be_activated_with_supply_before_moving(table):
    t: Table = table(turn=2, step="axis_move")
    t.state.control["1809"] = "Axis"
    (inf,) = t.put("Axis", "1809", Infantry=1)
    with pytest.raises(IllegalAction, match="not activated"):
        t.play(Action("move", {"pieces": (inf,), "to": "1909"}))


@pytest.mark.parametrize("enemy", [False, True])
def test_zone_of_control_stops_road_movement(table, enemy):
    t: Table = table(turn=2, step="axis_move")
    s = t.state
    start, ahead, beyond, beside = "1214", "1414", "1513", "1515"   # Bastogne, two and three road hexes east
    for h in s.board.spaces:
        s.control[h] = "Axis"
    (tank,) = t.put_active("Axis", start, Tank=1)
    if enemy:
        t.put("Allies", beside, Infantry=1)     # its zone covers `ahead`, not the road before it
    d = t.rs.logic.decision(s)
    reach = {o["to"] for o in d.options if o.kind == "move" and o["pieces"] == (tank,)}
    assert len(reach) > len(s.board.neighbours(start)), "a tank on a road goes further than one hex"
    assert ahead in reach, "a unit may enter an enemy zone of control..."
    assert (beyond in reach) is not enemy, "...but not go on"


def test_blitz_gives_tanks_one_more_hex(table):
    t: Table = table(turn=2, step="axis_activation")
    s = t.state
    for h in s.board.spaces:
        s.control[h] = "Axis"
    (tank,) = t.put("Axis", "1508", Tank=1)
    t.put("Axis", "1508", Supply=2)
    t.play(Action("activate", {"hex": "1508", "blitz": True}))
    assert {"active", "blitz"} <= t.state.pieces[tank].status
    assert t.at("1508").count("Supply") == 0      # activation 1 + blitz 1; nothing left to pay, so on to moving
    t.play(Action("move", {"pieces": (tank,), "to": "1509"}))
    d = t.rs.logic.decision(t.state)
    blitz = [o for o in d.options if o.kind == "move" and o["pieces"] == (tank,)]
    assert blitz and all("(blitz)" in o.label for o in blitz)


def test_custom_setup_covers_the_front_and_keeps_the_axis_in_its_sections():
    from clients.players import RandomPlayer
    from engine import plugins
    from engine.game import Game

    rs = plugins.load("bulge", options={"custom_setup": "true"})
    gaps, pool = rs.rules.procedure("setup_gaps"), rs.rules.procedure("setup_pool")
    game = Game(rs, None, seed=9)
    player = RandomPlayer(9)
    assert game.decision.player == "Allies" and game.decision.kind == "allies_setup"
    assert {o.kind for o in game.decision.options} == {"set_up"}
    while game.decision.kind == "allies_setup":
        game.play(player.choose(rs, game.state, game.decision))
    assert not gaps(game.state, "Allies")
    assert game.decision.player == "Axis" and game.decision.kind == "axis_setup"
    with pytest.raises(IllegalAction, match="cannot be set up"):
        game.play(Action("set_up", {"piece": game.state.pieces_at(pool(game.state, "Axis"))[0].id, "to": "1214"}))
    while game.decision.kind == "axis_setup":
        game.play(player.choose(rs, game.state, game.decision))
    s = game.state
    assert not s.pieces_at(pool(s, "Axis")) and not s.pieces_at(pool(s, "Allies"))
    assert not gaps(s, "Axis")
    assert all(s.board.space(p.space).get("country") == "DE"
               for p in s.pieces_of("Axis") if p.space[:1].isdigit())


@pytest.mark.parametrize("once", [True, False])
def test_a_unit_that_attacked_and_retreated_attacks_again_only_if_the_option_allows(once):
    from engine import plugins

    rs = plugins.load("bulge", options={"unit_attacks_once": str(once).lower()})
    t = Table(rs)
    s = t.state
    s.control.update({"1809": "Axis", "1708": "Axis"})
    (inf,) = t.put("Axis", "1809", Infantry=1)
    t.put("Axis", "1809", Supply=1)
    t.put("Allies", ST_VITH, Infantry=1)
    s.load_dice([12])
    rs.logic.apply(s, Action("attack", {"from": "1809", "to": ST_VITH}))    # no settling: stay in this step
    assert "attacked" in s.pieces[inf].status and s.vars["to_attack"] == "Allies"
    s.move(inf, "1708")               # as if a counter-attack had made it retreat
    t.put("Axis", "1708", Supply=1)
    sources = rs.rules.procedure("attack_sources")(s, "Axis")
    assert ("1708" in sources) is (not once)


@pytest.mark.parametrize("options, last", [({}, 8), ({"ongoing_campaign": "true", "campaign_turns": "9"}, 9)])
def test_the_allies_win_at_the_end_of_the_last_turn_or_play_on_in_a_campaign(options, last):
    from clients.players import RandomPlayer
    from engine import plugins
    from engine.game import Game

    rs = plugins.load("bulge", options=options)
    game = Game(rs, None, seed=1)
    player = RandomPlayer(1)
    while not game.over:
        game.play(player.choose(rs, game.state, game.decision))
    assert game.result.winner == "Allies"             # random Axis play never gets near 24 VP
    assert game.state.turn == last and f"end of turn {last}" in game.result.reason


def test_a_unit_may_retreat_into_a_hex_of_only_enemy_supply_and_captures_it(table):
    t: Table = table()
    s = t.state
    (inf,) = t.put("Allies", ST_VITH, Infantry=1)
    (token,) = t.put("Axis", "1610", Supply=1)      # an Axis supply token alone, out of any Axis zone
    hit_once(t, "1809", ST_VITH, Infantry=1)
    d = t.rs.logic.decision(t.state)
    assert d.player == "Allies" and "1610" in {o["choice"] for o in d.options}
    t.play(Action("choose", {"choice": "1610"}))
    s = t.state
    assert s.pieces[inf].space == "1610"
    assert any(k == "note" and d["message"].startswith("Allies captures Axis Supply") for k, d in s.events)
    # captured, it is the Allies' once they commandeer it at upkeep
    assert "captured" in s.pieces[token].status or s.pieces[token].owner == "Allies"


def test_a_unit_may_retreat_into_a_hex_of_only_enemy_air_units_which_attack_it_again(table):
    t: Table = table(turn=5, step="air_resolution")
    s = t.state
    (inf,) = t.put("Allies", ST_VITH, Infantry=1)
    s.add_piece("Bomber", "Axis", ST_VITH)
    fighter = s.add_piece("Fighter", "Axis", "1610").id     # 1610 holds only an enemy air unit
    s.load_dice([12] + [1, 12, 12, 12])     # St. Vith: the AA die misses; the bomber's first die hits
    t.play(Action("resolve_air", {"hex": ST_VITH}))
    d = t.rs.logic.decision(t.state)
    assert d.player == "Allies" and d.kind == "choose" and "1610" in {o["choice"] for o in d.options}
    t.play(Action("choose", {"choice": "1610"}))
    s = t.state
    assert s.pieces[inf].space == "1610"
    d = t.rs.logic.decision(s)
    assert d.kind == "air_resolution" and d.player == "Allies"
    assert [o["hex"] for o in d.options] == ["1610"]
    s.load_dice([12] + [1])                 # 1610: the AA die misses; the fighter hits the infantry again
    t.play(Action("resolve_air", {"hex": "1610"}))
    s = t.state
    assert s.pieces[fighter].space == "1610"             # the anti-aircraft die missed it
    said = [d["message"] for k, d in s.events if k == "note"]
    assert any(m.startswith("Axis air attack on 1610 with 1 Fighter (1 dice) against 1 Infantry") for m in said)
    assert "  hits on the strips: Infantry in box 1: 1" in said        # hit again: it must retreat once more


def test_air_units_may_be_placed_over_any_hex(table):
    t: Table = table(turn=5, step="air_placement")
    s = t.state
    s.vars.update({"air_first": "Axis", "air_placing": "Axis"})
    fighter = s.add_piece("Fighter", "Axis", "offboard:Axis").id
    empty = next(h for h in sorted(s.board.spaces) if not s.board.space(h).get("partial") and not s.pieces_at(h))
    partial = next(h for h in sorted(s.board.spaces) if s.board.space(h).get("partial"))
    d = t.rs.logic.decision(s)
    assert d.player == "Axis" and Action("place_air", {"kind": "Fighter", "to": empty}) in d.options
    with pytest.raises(IllegalAction, match="air units go over a full hex of the board"):
        t.play(Action("place_air", {"kind": "Fighter", "to": partial}))
    with pytest.raises(IllegalAction, match="Axis has no Bomber left to place"):
        t.play(Action("place_air", {"kind": "Bomber", "to": empty}))
    t.play(Action("place_air", {"kind": "Fighter", "to": empty}))
    assert t.state.pieces[fighter].space == empty
    assert t.state.vars["air_placing"] == ""         # the Allies have nothing to place


def test_a_split_attack_names_each_units_target_and_pays_per_target_hex(table):
    t: Table = table()
    s = t.state
    s.control["1809"] = "Axis"
    inf1, inf2, inf3 = t.put("Axis", "1809", Infantry=3)
    t.put("Axis", "1809", Supply=2)
    t.put("Allies", ST_VITH, Infantry=1)
    t.put("Allies", "1810", Infantry=1)
    d = t.rs.logic.decision(s)
    assert Action("attack_from", {"from": "1809"}) in d.options
    t.play(Action("attack_from", {"from": "1809"}))
    d = t.rs.logic.decision(t.state)
    assert d.player == "Axis" and d.kind == "choose" and "assigning" in t.state.pieces[inf1].status
    assert {o["choice"] for o in d.options} == {ST_VITH, "1810", "hold", "cancel"}
    t.play(Action("choose", {"choice": ST_VITH}))
    t.play(Action("choose", {"choice": "hold"}))
    # St. Vith's die hits, so its defender must retreat: the attack waits there, with its marks on
    t.state.load_dice([1, 12])
    t.play(Action("choose", {"choice": "1810"}))
    s = t.state
    assert s.task is not None and "retreat" in t.rs.logic.decision(s).prompt.lower()
    assert "Supply" not in t.at("1809")                       # two target hexes, two supply tokens
    assert "attacked" in s.pieces[inf1].status and "attacked" in s.pieces[inf3].status
    assert "held" in s.pieces[inf2].status                    # held back: it cannot attack this turn
    assert not any("assigning" in p.status for p in s.pieces.values())
    assert "1809" in s.vars["attacked_hexes"]


def test_a_split_attack_offers_only_the_targets_its_supply_pays_for(table):
    t: Table = table()
    s = t.state
    s.control["1809"] = "Axis"
    t.put("Axis", "1809", Infantry=2, Supply=1)
    t.put("Allies", ST_VITH, Infantry=1)
    t.put("Allies", "1810", Infantry=1)
    t.play(Action("attack_from", {"from": "1809"}))
    t.play(Action("choose", {"choice": "1810"}))
    d = t.rs.logic.decision(t.state)
    assert {o["choice"] for o in d.options} == {"1810", "hold", "cancel"}
    t.play(Action("choose", {"choice": "cancel"}))           # nothing happens: the plan is dropped
    assert t.at("1809").count("Supply") == 1 and t.state.vars["attacked_hexes"] == ()
    assert t.rs.logic.decision(t.state).kind == "attacks"


def test_ground_combat_ends_after_two_passes_in_a_row(table):
    t: Table = table()
    s = t.state
    s.control.update({"1809": "Axis", ST_VITH: "Allies"})
    t.put("Axis", "1809", Infantry=1, Supply=1)
    t.put("Allies", ST_VITH, Infantry=1, Supply=1)
    d = t.rs.logic.decision(s)
    assert d.player == "Axis" and d.finish is not None and d.finish.kind == "finish"
    t.play(d.finish)
    d = t.rs.logic.decision(t.state)
    assert d.player == "Allies" and d.kind == "attacks"
    t.play(d.finish)
    assert t.rs.structure.phase(t.state).name != "ground_combat"
