"""The log names a Bulge hex as players read it, by name and id ("Losheim (1907)"), also where
the rules' own words for an event give only its id."""

from __future__ import annotations

from clients import game_log
from engine.game import Game


def test_an_event_told_with_a_bare_hex_id_names_the_hex(bulge):
    game = Game(bulge, None, seed=1)
    event = ("destroyed", {"piece": 0, "kind": "Supply", "owner": "Axis", "space": "1907"})
    told = bulge.logic.narrate(event)
    assert told and "1907" in told and "Losheim" not in told      # the rules' words: the id alone
    assert game_log.narrate(game, event) == told.replace("1907", "Losheim (1907)")
    assert game_log.log_lines(game, [event]) == [told.replace("1907", "Losheim (1907)")]


def test_a_hex_without_a_name_and_one_already_named_are_left_as_they_are(bulge):
    game = Game(bulge, None, seed=1)
    unnamed = ("destroyed", {"piece": 0, "kind": "Supply", "owner": "Axis", "space": "1712"})
    assert game_log.narrate(game, unnamed) == bulge.logic.narrate(unnamed)
    moved = game_log.log_lines(game, [("move", {"kind": "Tank", "owner": "Axis", "src": "1907", "to": "1808"})])
    assert moved == ["Axis Tank moves from Losheim (1907) to 1808"]
