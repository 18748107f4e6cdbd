"""Bids (options `bid_axis`, `bid_allies`, `bid_units_per_space`): before round 1 each side's
powers, in turn order, buy and place extra units with their side's bid, under TripleA's bid
placement (no industrial complex needed; land units in a territory the power holds, ships in
a sea zone where it has a unit and the enemy none). What a side leaves unspent goes to its last
power to place. The computer players place bids too."""

from __future__ import annotations

import pytest

from clients.odds_players import RulesOdds
from clients.players import RandomPlayer
from engine import flow
from rulesets.aarhe.ai import HeuristicPlayer
from tests.aarhe.play import aarhe
from tests.aarhe.play import new as new_aarhe
from tests.lhtr.play import SCENARIO, Play, load
from tests.lhtr.soak import play, replay


def test_no_bid_no_bid_phase() -> None:
    g = Play.new()
    assert (g.power, g.step) == ("USSR", "purchase")


def test_the_allies_place_their_bid_before_the_ussr_moves() -> None:
    g = Play.new(bid_allies=8)
    assert (g.power, g.step, g.decision.player) == ("USSR", "place_bid", "USSR")
    kinds = {a["kind"] for a in g.options("bid")}
    # what 8 IPCs buy (the USSR has ships at sea, so submarines and transports too)
    assert kinds == {"Infantry", "Artillery", "Tank", "AAGun", "Submarine", "Transport"}
    before = g.kinds_at("Karelia S.S.R.", "USSR")
    g.act("bid", kind="Infantry", to="Karelia S.S.R.")
    assert g.kinds_at("Karelia S.S.R.", "USSR")["Infantry"] == before.get("Infantry", 0) + 1
    assert g.labels("bid")[0] == "place Infantry in Archangel with the bid (3 of 5 IPCs left)"
    g.finish()                                  # the USSR leaves 5 to the UK
    assert (g.decision.player, g.step) == ("UK", "place_bid")
    g.act("bid", kind="Artillery", to="United Kingdom")
    # 1 IPC is left and buys nothing: the US, last of the Allies to place, keeps it
    assert (g.power, g.step) == ("USSR", "purchase")
    assert g.ipc("US") == 42 + 1 and g.ipc("UK") == 30 and g.ipc("USSR") == 24
    assert g.kinds_at("United Kingdom", "UK")["Artillery"] >= 1


def test_placement_limits() -> None:
    g = Play.new(bid_axis=20)
    # no Allied bid: Germany, the first Axis power in turn order, places first, in the USSR's turn
    assert (g.power, g.step, g.decision.player) == ("USSR", "place_bid", "Germany")
    assert g.why_not("bid", kind="Infantry", to="Russia") == "a bid Infantry cannot be placed in Russia"
    assert g.why_not("bid", kind="Battleship", to="SZ 5") == "the bid left does not buy a Battleship"
    # a ship: only into a sea zone holding a German unit and no enemy
    zones = {a["to"] for a in g.options("bid") if a["kind"] == "Submarine"}
    assert zones and all(any(p.owner == "Germany" for p in g.at(z)) for z in zones)
    assert all(not any(p.owner in ("USSR", "UK", "US") for p in g.at(z)) for z in zones)
    # land units: into territories Germany holds, whether or not they have a factory
    lands = {a["to"] for a in g.options("bid") if a["kind"] == "Infantry"}
    assert "Libya" in lands and all(g.state.control[s] == "Germany" for s in lands)
    g.act("bid", kind="Submarine", to=sorted(zones)[0])
    assert g.decision.player == "Germany"


def test_a_cap_on_bid_units_per_space() -> None:
    g = Play.new(bid_allies=9, bid_units_per_space=1)
    g.act("bid", kind="Infantry", to="Karelia S.S.R.")
    assert g.why_not("bid", kind="Infantry", to="Karelia S.S.R.") == \
        "a bid Infantry cannot be placed in Karelia S.S.R."
    g.act("bid", kind="Infantry", to="Caucasus")


def test_options_are_checked() -> None:
    with pytest.raises(Exception, match="bid_axis"):
        load(bid_axis=-1)


def test_aarhe_plays_the_bid_too() -> None:
    g = new_aarhe(bid_axis=6)
    assert (g.step, g.decision.player) == ("place_bid", "Germany")
    g.act("bid", kind="Infantry", to="Libya")
    g.act("bid", kind="Infantry", to="Libya")
    assert g.kinds_at("Libya", "Germany")["Infantry"] >= 2
    assert g.power == "USSR" and g.step != "place_bid"


def test_the_heuristic_places_a_bid_and_plays_on() -> None:
    rs = load(bid_axis=12, bid_allies=9, last_round=1)
    state = rs.logic.new_state(SCENARIO, 3)
    d = flow.start(rs, state)
    ai = HeuristicPlayer(3, debug=True, odds=RulesOdds())
    placed = 0
    while d is not None and state.turn == 1 and d.kind == "place_bid":
        action = ai.choose(rs, state, d)
        assert action in d.options
        placed += action.kind == "bid"
        state, d = flow.apply(rs, state, action)
    assert placed == 3 + 4       # 9 Allied IPCs: 3 infantry; 12 Axis IPCs: 4 infantry
    assert d is not None and d.kind != "place_bid"
    rnd = RandomPlayer(3)
    for _ in range(200):
        if d is None:
            break
        state, d = flow.apply(rs, state, (ai if rs.logic.side_of(d.player) == "Axis" else rnd).choose(rs, state, d))


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
def test_random_games_with_bids_keep_every_invariant(ruleset: str) -> None:
    rs = load(bid_axis=12, bid_allies=7, last_round=1) if ruleset == "lhtr" else \
        aarhe(bid_axis=12, bid_allies=7, last_round=1)
    game, _ = play(rs, 4, bold=True)
    assert game.result is not None
    assert sum(a.kind == "bid" for a in game.actions) > 0
    again = replay(rs, game)                       # and it replays exactly from its actions
    assert again.state.signature() == game.state.signature()
