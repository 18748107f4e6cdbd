"""Bulge combat strips written in the rules language, replaying NOTES.md §4.5."""

from __future__ import annotations

import pytest
from dsl_helpers import Ctx, Piece

BULGE = """
stat attack: int = 0 "dice rolled when attacking"
stat move: int = 1
stat road_move: bool = false
stat strip: str = ""
tag combat, zoc, soft

unit Infantry [combat, zoc] { attack: 1  move: 1  strip: "Infantry" }
unit Tank [combat, zoc]     { attack: 2  move: 1  road_move: true  strip: "Tanks" }
unit Artillery [combat, zoc] { attack: 3  move: 1  strip: "Artillery" }
unit Truck [soft]           { move: 0  road_move: true  strip: "Trucks" }
unit Supply [soft]          { move: 0  strip: "Supplies" }

option strip_order: list[str] = ["Infantry", "Tanks", "Artillery", "Trucks", "Supplies"]

# the defenders in strip order: Infantry column first, then Tanks, Artillery, Trucks, Supply
procedure strip_boxes(defenders: list[Unit]) -> list[Unit] {
    let boxes = [defenders[0] for d in defenders where false]
    for s in strip_order {
        boxes = boxes + [d for d in defenders where d.strip == s]
    }
    return boxes
}

procedure strip_marks(attackers: list[Unit], boxes: list[Unit]) -> list[int] {
    let dice = sum(u.attack for u in attackers)
    let rolls = roll(dice, 12)
    let hits = count(d in rolls where d <= 6)
    let faces = if len(boxes) <= 6 then [d for d in rolls where d <= 6] else roll(hits, 12)
    let marks = [0 for b in boxes]
    for face in faces {
        let i = (face - 1) % len(boxes)
        marks[i] += 1
    }
    return marks
}

# what happens to each box: "destroyed", "retreats" or ""
procedure resolve(boxes: list[Unit], marks: list[int]) -> list[str] {
    let out = ["" for b in boxes]
    for i in range(0, len(boxes)) where marks[i] > 0 {
        if boxes[i] has soft or marks[i] >= 2 {
            out[i] = "destroyed"
        } else {
            out[i] = "retreats"
        }
    }
    return out
}
"""


@pytest.fixture
def rules(load):  # type: ignore[no-untyped-def]
    return load(BULGE, "bulge.rules")


def pieces(*kinds: str) -> list[Piece]:
    return [Piece(i, k) for i, k in enumerate(kinds)]


def test_example_a_martelange(rules) -> None:  # type: ignore[no-untyped-def]
    defenders = pieces("Supply", "Infantry", "Truck", "Tank", "Infantry")
    boxes = rules.procedure("strip_boxes")(Ctx(), defenders)
    assert [b.kind for b in boxes] == ["Infantry", "Infantry", "Tank", "Truck", "Supply"]
    attackers = pieces("Infantry", "Tank", "Tank", "Artillery")
    ctx = Ctx(dice=[1, 3, 3, 4, 5, 8, 8, 10])
    marks = rules.procedure("strip_marks")(ctx, attackers, boxes)
    assert marks == [1, 0, 2, 1, 1]
    result = rules.procedure("resolve")(ctx, boxes, marks)
    assert result == ["retreats", "", "destroyed", "destroyed", "destroyed"]


def test_example_b_more_than_six_boxes_rerolls_and_wraps(rules) -> None:  # type: ignore[no-untyped-def]
    defenders = pieces("Truck", "Tank", "Artillery", "Infantry", "Tank", "Infantry", "Tank", "Artillery", "Infantry")
    boxes = rules.procedure("strip_boxes")(Ctx(), defenders)
    assert len(boxes) == 9
    attackers = pieces("Infantry", "Infantry", "Tank", "Tank", "Tank", "Tank")
    ctx = Ctx(dice=[1, 2, 4, 4, 5, 6, 6, 7, 10, 11] + [3, 6, 6, 7, 9, 11, 12])
    marks = rules.procedure("strip_marks")(ctx, attackers, boxes)
    assert ctx.dice == []
    assert marks == [0, 1, 2, 0, 0, 2, 1, 0, 1]
    result = rules.procedure("resolve")(ctx, boxes, marks)
    assert result == ["", "retreats", "destroyed", "", "", "destroyed", "retreats", "", "destroyed"]


def test_unit_stats_and_tags_exposed(rules) -> None:  # type: ignore[no-untyped-def]
    tank = rules.units["Tank"]
    assert (tank.name, tank.attack, tank.road_move, tank.strip) == ("Tank", 2, True, "Tanks")
    assert tank.tags == frozenset({"combat", "zoc"})
    assert tank.stats["move"] == 1
    assert rules.units["Truck"].attack == 0  # the stat default
    assert rules.stats["attack"].doc == "dice rolled when attacking"
