"""AARHE is made as a modder's house rule is: a folder of rules and data over lhtr, no Python.
Its map changes apply to the LHTR map; every option says how sure it is and where it comes
from; a damaged map-changes file is refused with the file and the entry named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine import plugins

ROOT = Path(__file__).resolve().parents[2]
AARHE = ROOT / "rulesets" / "aarhe" / "aarhe"


@pytest.fixture(scope="module")
def aarhe():  # type: ignore[no-untyped-def]
    return plugins.load("aarhe")


def test_aarhe_is_a_layer_of_rules_and_data_over_lhtr(aarhe) -> None:  # type: ignore[no-untyped-def]
    assert [i.name for i in aarhe.chain] == ["lhtr", "aarhe"]
    assert aarhe.info.plugin is None and not list(AARHE.glob("*.py"))
    assert aarhe.info.default_scenario == "revised-1942"


def test_the_aarhe_standard_map_changes_two_connections(aarhe) -> None:  # type: ignore[no-untyped-def]
    lhtr = plugins.load("lhtr")
    base = lhtr.logic.new_state("revised-1942", 0).board
    board = aarhe.logic.new_state("revised-1942", 0).board
    assert base.adjacent("SZ 5", "Western Europe") and not board.adjacent("SZ 5", "Western Europe")
    assert not base.adjacent("Balkans", "Turkey") and board.adjacent("Balkans", "Turkey")


def test_every_option_says_how_sure_it_is(aarhe) -> None:  # type: ignore[no-untyped-def]
    own = {name: spec for name, spec in aarhe.rules.option_specs.items() if spec.pos.file.startswith(str(AARHE))}
    assert len(own) >= 20
    for name, spec in own.items():
        assert spec.status in ("confirmed", "reconstructed", "unconfirmed"), name
        assert spec.source, name


def test_a_broken_map_change_names_the_file_and_the_entry(tmp_path: Path) -> None:
    mod = tmp_path / "aarhe-copy"
    shutil.copytree(AARHE, mod)
    manifest = json.loads((mod / "ruleset.json").read_text())
    (mod / "ruleset.json").write_text(json.dumps({**manifest, "name": "aarhe-copy"}))
    changes = json.loads((mod / "map-changes.json").read_text())
    changes["remove_links"].append({"a": "SZ 5", "b": "Japan"})
    changes["spaces"].append({"id": "Atlantis", "attrs": {"terrain": "desert"}})
    (mod / "map-changes.json").write_text(json.dumps(changes))
    messages = [d.message for d in plugins.check(mod) if d.severity == "error"]
    # AARHE's map changes apply to every map it plays: each scenario says so
    assert messages == [f"scenario `{sc}`: map-changes.json: remove_links[1]: `SZ 5` and `Japan` are not linked on the map"
                        for sc in ("revised-1942", "italy-1942", "aarhe-1939")]
    changes["remove_links"].pop()
    (mod / "map-changes.json").write_text(json.dumps(changes))
    messages = [d.message for d in plugins.check(mod) if d.severity == "error"]
    last = len(changes["spaces"]) - 1
    assert messages == [f"scenario `{sc}`: map-changes.json: spaces[{last}]: the map has no space `Atlantis`"
                        for sc in ("revised-1942", "italy-1942", "aarhe-1939")]
