"""The search player ends a step whose moves can be undone (clients/search_cycles.py): a choice
that led back to a position of the step is not made there again. Without it, a search that
judges a move and its undoing alike, and ending the step worse, goes round for ever (as LHTR's
Allies did in combat move: a destroyer out and back, 34,800 actions in round 1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clients.search import SearchPlayer
from engine import flow, plugins

#: a scout may walk between two fields as often as it likes; once it halts, a storm kills it on
#: a roll of 1-3. Walking changes nothing the rules judge, halting risks the scout: only the
#: rules' own end of the step stops a search that prefers walking.
RULES = """
turn order [Blue, Red]
turns 2
phase day { steps [walk, storm] }

unit Scout { }

procedure evaluate(side: str) -> int {
    return len(units_of(side))
}

step walk {
    move go(u: Unit in units_of(current_power()), to: str in neighbours(u.space))
            label "walk to " + space_name(to) {
        move_to(u, to)
    }
    finish "halt" { }
}

step storm {
    start {
        for u in units_of(current_power()) {
            if roll(1, 6)[0] <= 3 {
                destroy(u)
            }
        }
    }
    finish "weather it" { }
}
"""


def scouts(folder: Path) -> Any:
    folder.mkdir()
    (folder / "ruleset.json").write_text(json.dumps({
        "name": "scouts", "title": "Scouts in a storm", "rules": ["scouts.rules"], "sides": ["Blue", "Red"],
        "scenarios": [{"name": "field", "title": "Two fields", "file": "scenario.json"}]}))
    (folder / "map.json").write_text(json.dumps({
        "format": "wargame-map/1", "name": "Fields", "fidelity": "exact",
        "spaces": [{"id": "a", "name": "Field A"}, {"id": "b", "name": "Field B"}],
        "links": [{"a": "a", "b": "b"}]}))
    (folder / "scenario.json").write_text(json.dumps({
        "format": "wargame-scenario/1", "name": "field", "title": "Two fields", "map": "map.json", "control": {},
        "pieces": [{"kind": "Scout", "owner": "Blue", "space": "a"}, {"kind": "Scout", "owner": "Red", "space": "b"}]}))
    (folder / "scouts.rules").write_text(RULES)
    return plugins.load(folder)


def test_a_step_whose_moves_undo_each_other_still_ends(tmp_path: Path) -> None:
    rs = scouts(tmp_path / "scouts")
    state = rs.logic.new_state("field", 0)
    decision = flow.start(rs, state)
    search = SearchPlayer(0, iterations=12)
    walked = 0
    while decision is not None and decision.player == "Blue" and walked < 40:
        assert decision.kind == "walk"
        action = search.choose(rs, state, decision)
        walked += action != decision.finish
        state, decision = flow.apply(rs, state, action)
    assert decision is None or decision.kind == "storm" or decision.player == "Red", f"still walking after {walked} walks"
    assert 1 <= walked <= 3     # it walked (halting looks worse), came back, and halted
