"""The log names a Bulge hex as players read it, by name and id ("Losheim (1907)"), also where
the rules' own words for an event give only its id."""

from __future__ import annotations

import re

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


def test_the_log_and_the_options_name_pieces_as_players_do_never_by_number(bulge):
    """Two turns of the computer against itself (attacks, retreats, trucks coming on, the
    strips): no line of the log, no option and no question shows a piece's number ("Truck
    #115"); the strips tell two Infantry apart by their box, the formation names a piece.
    The supply each side receives is logged."""
    from rulesets.bulge.ai import HeuristicPlayer

    game = Game(bulge, None, seed=3)
    player = HeuristicPlayer(3)
    seen: list[str] = []
    while not game.over and game.state.turn <= 2:
        decision = game.decision
        seen.append(decision.prompt)
        seen += [o.label for o in decision.options if o.label]
        game.play(player.choose(bulge, game.state, decision))
    told = game_log.log_lines(game, game.log)
    assert any("hits on the strips" in line for line in told)
    assert any(re.search(r"Infantry \(\d+ ID\) in box \d", line) for line in told)
    assert any(" comes on at " in line for line in told)
    numbered = [line for line in told + seen if re.search(r"#\d", line)]
    assert numbered == []
    # a destroyed unit with its formation; each side's supply income
    assert any(re.search(r"^Allies Infantry \(\d+ ID\) destroyed in ", line) for line in told)
    assert "Axis receives 9 supply in the Axis off-board area" in told
    assert "Allies receives 11 supply in the Allies off-board area" in told


def test_a_piece_offered_by_the_rules_without_words_is_named_without_its_number(bulge):
    """A `choose` among pieces that gives no words of its own (engine.asking.describe) names
    each piece by owner, type, formation and place, as players see it: never "#12"."""
    from engine.asking import describe

    game = Game(bulge, None, seed=1)
    piece = next(p for p in game.state.pieces_at("1613") if p.kind == "Infantry")
    assert describe(game.state, piece) == f"Allies Infantry ({piece.group}) in Clervaux (1613)"
    assert piece.group
