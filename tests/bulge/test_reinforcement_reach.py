"""Pieces that came on from off the board move on along the road (RB §3.3). The rules work the
road reach out once per hex and step (reinforcements.rules' remember_onward); what they offer
must still be, at every decision, the reach of the board as it stands: along road links, never
across a barrier, into a partial hex or into enemy combat units, stopping on entering an enemy
zone of control or enemy town, and one hex only from inside an enemy zone of control."""

from __future__ import annotations

import random

from engine import flow


def road_reach(rs, state, piece) -> list[str]:
    board, units = state.board, rs.rules.units
    foe = "Allies" if piece.owner == "Axis" else "Axis"

    def has(h: str, tag: str) -> bool:
        return any(p.owner == foe and tag in units[p.kind].tags for p in state.pieces_at(h))

    def in_zoc(h: str) -> bool:
        return any(has(n, "zoc") for n in board.neighbours(h))

    def enemy_town(h: str) -> bool:
        s = board.spaces[h]
        return ((s.get("vp") or 0) > 0 or s.get("size") in ("city", "town")) and state.control.get(h) == foe

    def step_ok(a: str, b: str) -> bool:
        link = board.link(a, b)
        return bool(link.get("road")) and not link.get("barrier") and not board.spaces[b].get("partial") \
            and not has(b, "combat")

    start = piece.space
    if in_zoc(start):
        return sorted(n for n in board.neighbours(start) if step_ok(start, n))
    seen, frontier, out = {start}, [start], set()
    while frontier:
        further = []
        for h in frontier:
            if h != start and (in_zoc(h) or enemy_town(h)):
                continue
            for n in board.neighbours(h):
                if n not in seen and step_ok(h, n):
                    seen.add(n)
                    out.add(n)
                    further.append(n)
        frontier = further
    return sorted(out)


def test_what_reinforcements_are_offered_is_the_road_reach_of_the_board_as_it_stands(bulge) -> None:
    looked = 0
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        state = bulge.logic.new_state("ardennes-1944", seed)
        decision = flow.start(bulge, state)
        while decision is not None and state.turn <= 4:
            if decision.kind in ("axis_reinforce", "allies_reinforce"):
                offered: dict[int, set[str]] = {}
                for o in decision.options:
                    if o.kind == "move" and len(o["pieces"]) == 1:
                        offered.setdefault(o["pieces"][0], set()).add(o["to"])
                for pid, tos in offered.items():
                    piece = state.pieces[pid]
                    if "moved" in piece.status and bulge.rules.units[piece.kind].capacity == 0:
                        continue            # a blitzed tank's one extra hex, not a road move
                    assert sorted(tos) == road_reach(bulge, state, piece), (seed, state.turn, pid)
                    looked += 1
            state, decision = flow.apply(bulge, state, rng.choice(decision.options))
    assert looked > 20
