"""The Ardennes board read from map.json (`wargame-map/1`) by the engine's generic loader is
the board the Bulge-specific loader built from the old file: the same hexes in the same
order with the same names, kinds, hexes and attributes, the same neighbours and the same
facts on every hex side.

The old file is rebuilt from the new one (`legacy_view`); to compare with a real old-format
file instead, point BULGE_LEGACY_MAP at one, e.g.
`git show 458dcc7:rulesets/bulge/data/map.json > /tmp/old-map.json`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import mapfile
from tests.bulge.legacy import legacy_board, legacy_view

MAP_PATH = Path(__file__).resolve().parents[2] / "rulesets" / "bulge" / "data" / "map.json"


def assert_same_board(new, old) -> None:
    assert list(new.spaces) == list(old.spaces)
    for sid, s in new.spaces.items():
        o = old.spaces[sid]
        assert (s.id, s.name, s.kind, s.hex) == (o.id, o.name, o.kind, o.hex), sid
        # the old loader turned the `edge` and `also` lists into tuples; JSON keeps lists
        want = {k: list(v) if k in ("edge", "also") else v for k, v in o.attrs.items()}
        assert list(s.attrs) == list(want) and dict(s.attrs) == want, sid
        for k, v in s.attrs.items():
            assert type(v) is type(want[k]), (sid, k)
        assert new.neighbours(sid) == old.neighbours(sid), sid
        for n in new.neighbours(sid):
            assert list(new.link(sid, n).items()) == list(old.link(sid, n).items()), (sid, n)
    assert sorted((a, b) for a, b, _ in new.links()) == sorted((a, b) for a, b, _ in old.links())
    for key in ("name", "fidelity", "source"):
        assert new.meta[key] == old.meta[key]
    assert new.meta["layout"]["hex_km"] == old.meta["hex_km"]


@pytest.fixture(scope="module")
def legacy() -> dict:
    path = os.environ.get("BULGE_LEGACY_MAP")
    if path:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    return legacy_view(json.loads(MAP_PATH.read_text(encoding="utf-8")))


def test_the_generic_board_is_the_board_the_old_loader_built(legacy):
    assert_same_board(mapfile.load_map(MAP_PATH), legacy_board(legacy))


def test_the_file_is_the_old_file_rewritten(legacy):
    """Nothing the old file said is lost: rebuilt from the new file, it is the old file."""
    assert legacy_view(json.loads(MAP_PATH.read_text(encoding="utf-8"))) == legacy


def test_a_rulebook_town_is_a_named_hex_with_its_facts():
    board = mapfile.load_map(MAP_PATH)
    sid = board.find("Bastogne")
    assert sid and board.space(sid).name == "Bastogne" and board.space(sid).get("vp") > 0
    roads = [n for n in board.neighbours(sid) if board.link(sid, n).get("road")]
    assert len(roads) >= 4


def test_the_ruleset_plays_on_the_board_of_the_generic_loader(legacy):
    from engine import plugins

    board = plugins.load("bulge").logic.new_state("ardennes-1944", 0).board
    assert_same_board(board, legacy_board(legacy))
    assert "front_1944_12_16" in board.meta["layout"]["lines"]


def test_a_link_between_hexes_that_do_not_touch_is_refused(tmp_path):
    doc = json.loads(MAP_PATH.read_text(encoding="utf-8"))
    doc["links"].append({"a": "0101", "b": "0505", "attrs": {"road": True}})
    bad = tmp_path / "map.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(mapfile.MapDataError, match=r"^map.json: links\[\d+\] \(0101-0505\): the hexes do not touch"):
        mapfile.load_map(bad)
