"""The AARHE standard map (RULES.md part B, intro and Phase 3): map-changes.json applied to the
LHTR map, with a reason for every change; terrain and small islands as the rules read them;
the straits and the Turkish straits on the board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import plugins
from engine.state import GameState

ROOT = Path(__file__).resolve().parents[2]
CHANGES = ROOT / "rulesets" / "aarhe" / "aarhe" / "map-changes.json"
TERRAINS = {"desert", "snow", "mountain"}


@pytest.fixture(scope="module")
def changes() -> dict[str, Any]:
    return json.loads(CHANGES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def state() -> GameState:
    return plugins.load("aarhe").logic.new_state("revised-1942", 0)


@pytest.fixture(scope="module")
def lhtr() -> GameState:
    return plugins.load("lhtr").logic.new_state("revised-1942", 0)


def test_every_change_says_why(changes: dict[str, Any]) -> None:
    assert changes["format"] == "wargame-map-changes/1"
    for part in ("remove_links", "links", "spaces"):
        for entry in changes[part]:
            assert len(entry.get("why", "")) > 20, entry


def test_the_two_changed_connections_and_the_turkish_straits(state: GameState, lhtr: GameState) -> None:
    board, base = state.board, lhtr.board
    assert base.adjacent("SZ 5", "Western Europe") and not board.adjacent("SZ 5", "Western Europe")
    assert not base.adjacent("Balkans", "Turkey") and board.adjacent("Balkans", "Turkey")
    # the link between 15 and 16 was there: it now carries the canal, held with Turkey
    assert base.adjacent("SZ 15", "SZ 16") and board.adjacent("SZ 15", "SZ 16")
    assert dict(board.link("SZ 15", "SZ 16")) == {"canal": "Turkish Straits", "canal_needs": ["Turkey"],
                                                  "held_at_turn_start": True}
    # and so does the Black Sea's other link, to 14 (the straits are its only way out)
    assert dict(board.link("SZ 14", "SZ 16")) == dict(board.link("SZ 15", "SZ 16"))
    # nothing else moved
    links = {frozenset((a, b)) for a, b, _ in board.links()}
    base_links = {frozenset((a, b)) for a, b, _ in base.links()}
    assert links ^ base_links == {frozenset(("SZ 5", "Western Europe")), frozenset(("Balkans", "Turkey"))}


def test_turkey_is_a_passable_neutral_that_starts_empty_and_uncontrolled(state: GameState, lhtr: GameState) -> None:
    assert lhtr.board.space("Turkey").get("impassable")
    turkey = state.board.space("Turkey")
    assert not turkey.get("impassable") and turkey.get("neutral_enterable")
    assert state.control.get("Turkey") in (None, "") and state.pieces_at("Turkey") == []
    rules = plugins.load("aarhe").rules
    assert rules.procedure("impassable")(state, "Turkey") is False
    assert rules.procedure("impassable")(state, "Spain") is True
    shut = plugins.load("aarhe", {"turkey_enterable": False})
    assert shut.rules.procedure("impassable")(shut.logic.new_state("revised-1942", 0), "Turkey") is True


def test_terrain_and_small_islands_are_what_the_rules_read(changes: dict[str, Any], state: GameState) -> None:
    rules = plugins.load("aarhe").rules
    terrain = {e["id"]: e["attrs"]["terrain"] for e in changes["spaces"] if "terrain" in e["attrs"]}
    assert set(terrain.values()) == TERRAINS
    for sid, kind in terrain.items():
        sp = state.board.space(sid)
        assert sp.get("number") is None and not sp.get("impassable"), sid       # land one can enter
        assert rules.procedure("is_desert")(state, sid) is (kind == "desert")
        assert rules.procedure("is_rough")(state, sid) is (kind in ("snow", "mountain"))
        assert rules.procedure("stops_blitz")(state, sid) is True
    assert rules.procedure("stops_blitz")(state, "Germany") is False
    islands = [e["id"] for e in changes["spaces"] if e["attrs"].get("small_island")]
    assert islands
    for sid in islands:
        assert state.board.space(sid).get("island"), sid                        # an island of the map
        assert rules.procedure("is_small_island")(state, sid) is True


def test_no_small_island_starts_over_the_cap(changes: dict[str, Any], state: GameState) -> None:
    rules = plugins.load("aarhe").rules
    cap = rules.options["small_island_cap"]
    for e in changes["spaces"]:
        if e["attrs"].get("small_island"):
            units = [p for p in state.pieces_at(e["id"]) if "factory" not in rules.units[p.kind].tags]
            assert len(units) <= cap, (e["id"], units)
            owner = state.control.get(e["id"]) or ""
            if owner:
                assert rules.procedure("island_room")(state, e["id"], owner) == cap - len(units)


def test_each_strait_lies_between_its_two_sea_zones(state: GameState) -> None:
    rules = plugins.load("aarhe").rules
    zones, hits = rules.options["strait_zones"], rules.options["strait_hit"]
    assert set(zones) == set(hits) == {"Gibraltar", "United Kingdom", "Western Europe"}
    for territory, (a, b) in zones.items():
        za, zb = f"SZ {a}", f"SZ {b}"
        assert state.board.adjacent(za, zb), territory
        near = state.board.adjacent(territory, za) or state.board.adjacent(territory, zb)
        assert near, territory
