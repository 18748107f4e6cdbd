"""Movement & reinforcement (RB §3.3): trucks going home, paying supply to activate hexes,
moving (roads, zones of control, rivers, blitz, trucks and their cargo, captures),
reinforcements from the charts, and the unload at the end.

Each side does its steps in turn: the Axis moves and reinforces, then the Allies.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Decision, IllegalAction
from engine.pieces import Piece
from engine.state import GameState
from rulesets.bulge import scenario, terrain
from rulesets.bulge.common import act, counted, flag, hex_name, mark, set_flag, unit_name
from rulesets.bulge.terrain import COMBAT, enemy

CARGO = frozenset(("Infantry", "Artillery", "Supply"))


def side_of_step(step: str) -> str:
    return "Axis" if step.startswith("axis") else "Allies"


def finished(state: GameState, step: str) -> bool:
    return step in flag(state, "done_steps", frozenset())


def finish(state: GameState, step: str) -> None:
    set_flag(state, "done_steps", flag(state, "done_steps", frozenset()) | {step})


# -- trucks home ------------------------------------------------------------------------------------
def decide_trucks_home(logic: Any, state: GameState, step: str) -> Decision | None:
    side = side_of_step(step)
    trucks = terrain.free_trucks(state, side)
    if finished(state, step) or not trucks:
        return None
    options = [act("truck_home", f"send {unit_name(t)} in {hex_name(state, t.space)} back off the board", piece=t.id)
               for t in trucks]
    options.append(act("done", "keep the other trucks on the board"))
    return Decision(side, "trucks_home", "Free trucks may go back to the off-board area before anyone moves", options)


def apply_trucks_home(logic: Any, state: GameState, step: str, action: Action) -> None:
    side = side_of_step(step)
    if action.kind == "done":
        return finish(state, step)
    if action.kind != "truck_home":
        raise IllegalAction(f"`{action.kind}` is not an answer now: trucks may go home, or `done`")
    truck = state.piece(action.get("piece"))
    if truck not in terrain.free_trucks(state, side):
        raise IllegalAction(f"{unit_name(truck)} is not a free truck of {side}: it needs a road to a friendly "
                            "board edge that avoids enemy zones of control and enemy towns")
    state.move(truck.id, scenario.OFFBOARD[side])


# -- activation ---------------------------------------------------------------------------------------
def activatable(state: GameState, side: str) -> list[str]:
    hexes = sorted({p.space for p in state.pieces_of(side)
                    if p.kind in COMBAT and terrain.on_board(p.space) and "active" not in p.status
                    and "moved" not in p.status})
    cost = state.rules.options["activation_cost"]
    return [h for h in hexes
            if len(terrain.spendable_supply(state, terrain.supply_sources(state, h, side), side)) >= cost]


def decide_activation(logic: Any, state: GameState, step: str) -> Decision | None:
    side = side_of_step(step)
    if finished(state, step):
        return None
    hexes = activatable(state, side)
    if not hexes:
        return None
    opts = logic.rules.options
    options = []
    for h in hexes:
        units = terrain.combat_units(state, h, side)
        supply = len(terrain.spendable_supply(state, terrain.supply_sources(state, h, side), side))
        options.append(act("activate", f"activate {hex_name(state, h)} ({counted(units)}; {opts['activation_cost']} supply)",
                           hex=h, blitz=False))
        if any(p.kind == "Tank" for p in units) and supply >= opts["activation_cost"] + opts["blitz_cost"]:
            options.append(act("activate", f"activate {hex_name(state, h)} with blitz "
                                           f"({opts['activation_cost'] + opts['blitz_cost']} supply)", hex=h, blitz=True))
    options.append(act("done", "done paying for movement"))
    return Decision(side, "activation", "Pay supply to activate hexes for movement (all payments come before any move)",
                    options)


def apply_activation(logic: Any, state: GameState, step: str, action: Action) -> None:
    side = side_of_step(step)
    if action.kind == "done":
        return finish(state, step)
    if action.kind != "activate":
        raise IllegalAction(f"`{action.kind}` is not an answer now: activate a hex, or `done`")
    h = action.get("hex")
    if not isinstance(h, str) or h not in state.board:
        raise IllegalAction(f"there is no hex `{h}`")
    units = [p for p in terrain.combat_units(state, h, side) if "active" not in p.status and "moved" not in p.status]
    if not units:
        raise IllegalAction(f"{side} has no combat units to activate in {hex_name(state, h)}")
    blitz = bool(action.get("blitz"))
    if blitz and not any(p.kind == "Tank" for p in units):
        raise IllegalAction("a blitz needs Tanks in the hex")
    opts = logic.rules.options
    cost = opts["activation_cost"] + (opts["blitz_cost"] if blitz else 0)
    pay(logic, state, side, h, cost, "activating this hex" + (" with blitz" if blitz else ""))
    for p in units:
        mark(state, p, "active", *(["blitz"] if blitz and p.kind == "Tank" else []))


def pay(logic: Any, state: GameState, side: str, at: str, amount: int, what: str) -> None:
    """Spend supply tokens for a hex: its own first, then adjacent ones (RB §3.2, §3.3)."""
    sources = terrain.supply_sources(state, at, side)
    tokens = terrain.spendable_supply(state, sources, side)
    if len(tokens) < amount:
        raise IllegalAction(f"{what} needs {amount} supply within reach of {hex_name(state, at)}; "
                            f"there {'is' if len(tokens) == 1 else 'are'} {len(tokens)}")
    rank = {s: i for i, s in enumerate(sources)}
    tokens.sort(key=lambda p: (rank[p.space], p.id))
    for p in tokens[:amount]:
        state.remove(p.id)
    state.emit("pay", side=side, hex=at, amount=amount, what=what)


# -- moving -------------------------------------------------------------------------------------------
def destinations(logic: Any, state: GameState, piece: Piece, enemy_zoc: frozenset[str]) -> dict[str, str]:
    """Where one unit may move now, and how ("step", "road" or "blitz")."""
    side, here = piece.owner, piece.space
    out: dict[str, str] = {}
    st = piece.status
    if piece.kind == "Truck":
        # a truck's move is one road journey; it pauses only to pick up cargo on the way
        if "stopped" in st or "captured" in st or "paused" in st:
            return out
        for h in terrain.road_reach(state, here, side, enemy_zoc):
            if h != here:
                out[h] = "road"
        return out
    if piece.kind not in COMBAT or piece.carrier is not None:
        return out
    if "moved" not in st and ("active" in st or "road_only" in st):
        if "road_only" not in st:
            for n in state.board.neighbours(here):
                if terrain.can_step(state, here, n, side, piece.kind):
                    out[n] = "step"
        if piece.kind == "Tank":
            for h in terrain.road_reach(state, here, side, enemy_zoc,
                                        stop_at_start="road_only" in st and here in enemy_zoc):
                if h != here:
                    out.setdefault(h, "road")
    elif "moved" in st and "blitz" in st and "blitzed" not in st:
        for n in state.board.neighbours(here):
            if terrain.can_step(state, here, n, side, piece.kind):
                out[n] = "blitz"
    return out


def movers(state: GameState, side: str) -> list[Piece]:
    return [p for p in state.pieces_of(side) if terrain.on_board(p.space) and p.carrier is None
            and "captured" not in p.status
            and (p.kind == "Truck" or "active" in p.status or "road_only" in p.status)]


def move_options(logic: Any, state: GameState, side: str) -> list[Action]:
    enemy_zoc = terrain.zoc(state, enemy(side))
    options: list[Action] = []
    groups: dict[tuple[str, str], list[tuple[Piece, dict[str, str]]]] = {}
    for p in movers(state, side):
        dests = destinations(logic, state, p, enemy_zoc)
        if dests:
            groups.setdefault((p.space, p.kind), []).append((p, dests))
    for (here, kind), members in sorted(groups.items()):
        common = set(members[0][1])
        for _, d in members[1:]:
            common &= set(d)
        if len(members) > 1:
            for to in sorted(common):
                options.append(act("move", f"move all {len(members)} {kind} from {hex_name(state, here)} to "
                                           f"{hex_name(state, to)}", pieces=tuple(p.id for p, _ in members), to=to))
        for p, dests in members:
            for to, how in sorted(dests.items()):
                options.append(act("move", f"move {unit_name(p)} from {hex_name(state, here)} to {hex_name(state, to)}"
                                           + (" (blitz)" if how == "blitz" else ""), pieces=(p.id,), to=to))
    for truck in [p for p in state.pieces_of(side) if p.kind == "Truck" and terrain.on_board(p.space)
                  and "stopped" not in p.status and "captured" not in p.status]:
        for cargo in loadable(state, truck):
            options.append(act("load", f"load {unit_name(cargo)} onto {unit_name(truck)} in {hex_name(state, truck.space)}",
                               truck=truck.id, piece=cargo.id))
    return options


def capacity(state: GameState) -> int:
    return int(state.rules.units["Truck"].capacity)


def loadable(state: GameState, truck: Piece) -> list[Piece]:
    """What a truck may pick up where it stands: its side's activated Inf/Art that have not
    moved, and supply tokens, while it has room."""
    if _cargo_count(state, truck) >= capacity(state):
        return []
    return [p for p in state.pieces_at(truck.space) if p.owner == truck.owner and p.carrier is None
            and "captured" not in p.status and p.kind in CARGO
            and (p.kind == "Supply" or ("active" in p.status and "moved" not in p.status))]


def _cargo_count(state: GameState, truck: Piece) -> int:
    return sum(1 for p in state.pieces.values() if p.carrier == truck.id)


def cargo_of(state: GameState, truck: Piece) -> list[Piece]:
    return [p for p in state.pieces.values() if p.carrier == truck.id]


def decide_move(logic: Any, state: GameState, step: str) -> Decision | None:
    side = side_of_step(step)
    if finished(state, step):
        return None
    options = move_options(logic, state, side)
    if not options:
        return None
    options.append(act("done", "end movement"))
    return Decision(side, "move", "Move activated units and trucks", options)


def apply_move(logic: Any, state: GameState, step: str, action: Action) -> None:
    side = side_of_step(step)
    if action.kind == "done":
        return finish(state, step)
    if action.kind == "load":
        return _load(state, side, action)
    if action.kind != "move":
        raise IllegalAction(f"`{action.kind}` is not a movement action")
    move_pieces(logic, state, side, action)


def move_pieces(logic: Any, state: GameState, side: str, action: Action) -> None:
    pids = action.get("pieces") or ()
    to = action.get("to")
    if not pids:
        raise IllegalAction("name the pieces to move")
    if not isinstance(to, str) or to not in state.board:
        raise IllegalAction(f"there is no hex `{to}`")
    enemy_zoc = terrain.zoc(state, enemy(side))
    pieces = [state.piece(pid) for pid in pids]
    for p in pieces:
        if p.owner != side:
            raise IllegalAction(f"{unit_name(p)} is not {side}'s")
        dests = destinations(logic, state, p, enemy_zoc)
        if to not in dests:
            raise IllegalAction(why_not_move(logic, state, p, to, enemy_zoc))
    for p in pieces:
        how = destinations(logic, state, p, enemy_zoc)[to]
        _move_one(state, p, to, how, enemy_zoc)
    _capture(state, side, to)


def _move_one(state: GameState, p: Piece, to: str, how: str, enemy_zoc: frozenset[str]) -> None:
    src = p.space
    if p.kind == "Truck":
        cargo = cargo_of(state, p)
        stop = to in enemy_zoc or terrain.enemy_town(state, to, p.owner)
        state.update(p.id, space=to, status=p.status | ({"stopped"} if stop else set()) | {"has_moved", "paused"})
        for c in cargo:
            state.move(c.id, to)
    else:
        marks = {"moved"} if how != "blitz" else {"blitzed"}
        state.update(p.id, space=to, status=(p.status | marks) - {"road_only"})
    state.emit("move", piece=p.id, kind=p.kind, owner=p.owner, src=src, to=to, how=how)


def _capture(state: GameState, side: str, at: str) -> None:
    """Combat units stopping in a hex of only enemy trucks and supply capture them."""
    here = state.pieces_at(at)
    if not any(p.owner == side and p.kind in COMBAT for p in here):
        return
    for p in here:
        if p.owner != side and p.kind in ("Truck", "Supply") and "captured" not in p.status:
            state.update(p.id, status=p.status | {"captured"}, carrier=None)
            state.emit("captured", piece=p.id, kind=p.kind, owner=p.owner, by=side, at=at)


def why_not_move(logic: Any, state: GameState, p: Piece, to: str, enemy_zoc: frozenset[str]) -> str:
    """The rule that stops a unit moving to `to`, in words."""
    name = unit_name(p)
    st = p.status
    if p.carrier is not None:
        return f"{name} is aboard a truck; it moves with the truck"
    if p.kind in COMBAT and not ({"active", "road_only"} & st):
        return f"{name} is not activated: pay 1 supply to activate its hex first"
    if p.kind == "Truck" and "stopped" in st:
        return f"{name} has stopped (it entered an enemy zone of control or town)"
    if "moved" in st and not ("blitz" in st and "blitzed" not in st):
        return f"{name} has already moved this turn"
    if terrain.is_partial(state, to):
        return "partial hexes at the board's edge cannot be entered"
    if terrain.has_combat(state, to, enemy(p.owner)):
        return "a unit cannot enter a hex holding enemy combat units"
    adjacent = state.board.adjacent(p.space, to)
    if adjacent and terrain.barrier(state, p.space, to) and p.kind != "Infantry":
        return f"only Infantry may cross a river barrier; {p.kind}s cannot"
    if p.kind == "Truck":
        return f"trucks move only along connected road; {hex_name(state, to)} is not on the road from here"
    if p.kind == "Tank":
        return (f"a Tank moves 1 hex off-road or along connected road, stopping when it enters an enemy zone of "
                f"control or town; {hex_name(state, to)} is out of reach")
    return f"{name} moves one hex; {hex_name(state, to)} is not next to {hex_name(state, p.space)}"


def _load(state: GameState, side: str, action: Action) -> None:
    truck = state.piece(action.get("truck"))
    cargo = state.piece(action.get("piece"))
    if truck.owner != side or truck.kind != "Truck":
        raise IllegalAction(f"#{truck.id} is not one of {side}'s trucks")
    if "stopped" in truck.status:
        raise IllegalAction(f"{unit_name(truck)} has stopped and cannot pick anything up")
    if cargo not in loadable(state, truck):
        if _cargo_count(state, truck) >= capacity(state):
            raise IllegalAction(f"{unit_name(truck)} is full ({capacity(state)} spaces)")
        raise IllegalAction(f"{unit_name(truck)} cannot pick up {unit_name(cargo)}: only activated Infantry or "
                            "Artillery that have not moved, and supply tokens, in the truck's hex")
    status = cargo.status | ({"moved"} if cargo.kind in COMBAT else set())
    state.update(cargo.id, carrier=truck.id, status=status)
    state.update(truck.id, status=truck.status - {"paused"})
    state.emit("load", truck=truck.id, piece=cargo.id, at=truck.space)


# -- reinforcements ---------------------------------------------------------------------------------
def available(state: GameState, side: str) -> list[Piece]:
    """Chart pieces whose turn has come, and the side's off-board pieces."""
    out = []
    for p in state.pieces_of(side):
        chart = scenario.parse_chart_space(p.space)
        if chart and chart[1] <= state.turn:
            out.append(p)
    return out


def offboard_trucks(state: GameState, side: str) -> list[Piece]:
    return [p for p in state.pieces_at(scenario.OFFBOARD[side]) if p.kind == "Truck"]


def decide_reinforce(logic: Any, state: GameState, step: str) -> Decision | None:
    side = side_of_step(step)
    if finished(state, step):
        return None
    options: list[Action] = []
    army_of = _army_of_group()
    seen: set[tuple[str, str, str]] = set()
    for p in available(state, side):
        if p.kind not in COMBAT or p.carrier is not None:
            continue
        chart, _ = scenario.parse_chart_space(p.space)  # type: ignore[misc]
        key = (p.group, p.kind, chart)
        if key in seen:
            continue
        seen.add(key)
        for h in terrain.entry_hexes(state, side, chart, army_of.get(p.group)):
            options.append(act("place", f"bring {p.kind} #{p.id} ({p.group}) on at {hex_name(state, h)}",
                               piece=p.id, to=h))
    trucks = offboard_trucks(state, side)
    for truck in trucks[:1]:        # off-board trucks are alike: offer loading the first
        if _cargo_count(state, truck) < capacity(state):
            seen_kinds: set[tuple[str, str]] = set()
            for p in available(state, side) + [q for q in state.pieces_at(scenario.OFFBOARD[side]) if q.kind == "Supply"]:
                if p.kind in CARGO and p.carrier is None and (p.group, p.kind) not in seen_kinds:
                    seen_kinds.add((p.group, p.kind))
                    options.append(act("load", f"load {unit_name(p)} onto an off-board truck", truck=truck.id, piece=p.id))
    for truck in trucks:
        for h in terrain.truck_entries(state, side):
            options.append(act("enter", f"bring {unit_name(truck)} ({_cargo_count(state, truck)} aboard) on at "
                                        f"{hex_name(state, h)}", truck=truck.id, to=h))
        break
    if any(q.kind == "Supply" for q in state.pieces_at(scenario.OFFBOARD[side])):
        for group in sorted({p.group for p in available(state, side) if p.kind == "Tank" and "blitz" not in p.status}):
            options.append(act("blitz_division", f"blitz the Tanks of {group} (1 off-board supply)", group=group))
    options += [o for o in move_options(logic, state, side) if _entered_this_step(state, o)]
    if not options:
        return None
    options.append(act("done", "done with reinforcements"))
    return Decision(side, "reinforce", "Bring on reinforcements (free) and trucks from off the board", options)


def _entered_this_step(state: GameState, option: Action) -> bool:
    pids = option.get("pieces") or (option.get("truck"),)
    return all("entered" in state.pieces[pid].status for pid in pids if pid in state.pieces)


def _army_of_group() -> dict[str, str]:
    oob = scenario.load_oob()
    return {e["short"]: e.get("army") for e in oob["charts"].get("Axis", ())}


def apply_reinforce(logic: Any, state: GameState, step: str, action: Action) -> None:
    side = side_of_step(step)
    kind = action.kind
    if kind == "done":
        return finish(state, step)
    if kind == "place":
        p = state.piece(action.get("piece"))
        to = action.get("to")
        chart = scenario.parse_chart_space(p.space)
        if p.owner != side or chart is None or chart[1] > state.turn or p.kind not in COMBAT or p.carrier is not None:
            raise IllegalAction(f"{unit_name(p)} is not a reinforcement {side} may bring on now")
        allowed = terrain.entry_hexes(state, side, chart[0], _army_of_group().get(p.group))
        if to not in allowed:
            raise IllegalAction(f"{unit_name(p)} enters on a full {chart[0]} edge hex that is not enemy-held"
                                + (f" in the {_army_of_group().get(p.group)} section" if side == "Axis" else ""))
        enemy_zoc = terrain.zoc(state, enemy(side))
        marks = {"entered"}
        road_hex = any(terrain.road(state, to, n) for n in state.board.neighbours(to))
        if p.kind == "Tank" and road_hex and to not in enemy_zoc:
            marks.add("road_only")          # Tanks placed on a road keep moving along it
        else:
            marks.add("moved")
        if p.kind == "Tank" and p.group in flag(state, "blitz_groups", frozenset()):
            marks.add("blitz")
        state.update(p.id, space=to, status=p.status | marks)
        state.emit("reinforce", piece=p.id, kind=p.kind, owner=side, to=to, group=p.group)
        return
    if kind == "load":
        truck = state.piece(action.get("truck"))
        cargo = state.piece(action.get("piece"))
        if terrain.on_board(truck.space) and "entered" in truck.status:
            return _load(state, side, action)      # a truck that came on keeps loading as it goes
        if truck.space != scenario.OFFBOARD[side] or truck.kind != "Truck":
            raise IllegalAction("reinforcements are loaded onto off-board trucks")
        ok = cargo.kind in CARGO and cargo.owner == side and cargo.carrier is None and (
            cargo in available(state, side) or cargo.space == scenario.OFFBOARD[side])
        if not ok:
            raise IllegalAction(f"{unit_name(cargo)} cannot be loaded: off-board trucks carry available "
                                "Infantry, Artillery and off-board supply")
        if _cargo_count(state, truck) >= capacity(state):
            raise IllegalAction(f"{unit_name(truck)} is full ({capacity(state)} spaces)")
        # the cargo stays on its chart until the truck comes on; unloaded off-board, it is still there
        state.update(cargo.id, carrier=truck.id, status=cargo.status | {"moved", "entered"})
        return
    if kind == "enter":
        truck = state.piece(action.get("truck"))
        to = action.get("to")
        if truck.space != scenario.OFFBOARD[side] or truck.kind != "Truck":
            raise IllegalAction(f"{unit_name(truck)} is not an off-board truck of {side}")
        if to not in terrain.truck_entries(state, side):
            raise IllegalAction("trucks enter on a road hex of their own board edge that their side controls")
        enemy_zoc = terrain.zoc(state, enemy(side))
        stop = to in enemy_zoc
        state.update(truck.id, space=to, status=truck.status | {"entered"} | ({"stopped"} if stop else set()))
        for c in cargo_of(state, truck):
            state.move(c.id, to)
        state.emit("reinforce", piece=truck.id, kind="Truck", owner=side, to=to, group=truck.group)
        return
    if kind == "blitz_division":
        group = action.get("group")
        tanks = [p for p in available(state, side) if p.kind == "Tank" and p.group == group]
        if not tanks:
            raise IllegalAction(f"no Tanks of {group} wait on the charts")
        tokens = [q for q in state.pieces_at(scenario.OFFBOARD[side]) if q.kind == "Supply" and q.carrier is None]
        if not tokens:
            raise IllegalAction("blitzing a division from off the board costs 1 off-board supply token")
        state.remove(tokens[0].id)
        set_flag(state, "blitz_groups", flag(state, "blitz_groups", frozenset()) | {group})
        state.emit("pay", side=side, hex="off-board", amount=1, what=f"blitz of {group}")
        return
    if kind == "move":
        for pid in action.get("pieces") or ():
            if "entered" not in state.piece(pid).status:
                raise IllegalAction("in this step only pieces that just came on may move")
        return move_pieces(logic, state, side, action)
    raise IllegalAction(f"`{kind}` is not a reinforcement action")


# -- end of the side's movement ------------------------------------------------------------------------
def unload(state: GameState, side: str) -> None:
    """Every truck unloads all its cargo where it stopped, even in an enemy ZOC (RB §3.3)."""
    for p in list(state.pieces_of(side)):
        if p.carrier is not None:
            state.update(p.id, carrier=None, status=p.status - {"entered"})
            if terrain.on_board(p.space):
                state.emit("unload", piece=p.id, at=p.space)
        elif p.kind == "Truck" and p.status & {"stopped", "entered", "has_moved", "paused"}:
            state.update(p.id, status=p.status - {"stopped", "entered", "has_moved", "paused"})
