"""Ground combat (RB §3.2): who attacks when, choosing an attack, paying supply, the combat
strips, and retreats.

The numbers and the dice procedure (attack dice, placing hits on the strips, what a hit
does) are in rules/combat.rules; this module runs the phase: it asks the decisions and
applies the results.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Decision, IllegalAction
from engine.pieces import Piece
from engine.state import GameState
from rulesets.bulge import terrain
from rulesets.bulge.common import act, add_to, counted, flag, hex_name, mark, set_flag, unit_name
from rulesets.bulge.terrain import COMBAT, enemy


# -- the strips ---------------------------------------------------------------------------------
def strip_boxes(state: GameState, defenders: list[Piece], options: dict) -> list[list[Piece]]:
    """The boxes the combat strips show for a hex's defenders, in counting order: one per
    Infantry, Tank, Artillery (and Truck), and one for all Supply tokens (NOTES §4.3)."""
    order = {"Infantry": 1, "Tank": 2, "Artillery": 3, "Truck": 4, "Supply": 5}
    ground = sorted((p for p in defenders if p.kind in order), key=lambda p: (order[p.kind], p.id))
    boxes: list[list[Piece]] = []
    trucks = [p for p in ground if p.kind == "Truck"]
    supply = [p for p in ground if p.kind == "Supply"]
    boxes += [[p] for p in ground if p.kind in COMBAT]
    if trucks:
        boxes += [[p] for p in trucks] if options["truck_box_per_truck"] else [trucks]
    if supply:
        boxes += [supply] if options["supply_box_shared"] else [[p] for p in supply]
    return boxes


def fire_at_ground(logic: Any, state: GameState, dice: int, defenders: list[Piece], why: str) -> list[Piece]:
    """Roll `dice` at the defenders; destroy what the strips say, and return the units that
    must retreat."""
    rules = logic.rules
    boxes = strip_boxes(state, defenders, rules.options)
    if not boxes or dice <= 0:
        return []
    marks = rules.procedure("strip_hits")(state, dice, len(boxes))
    state.emit("strip", why=why, boxes=[[p.kind for p in b] for b in boxes], hits=list(marks))
    retreat: list[Piece] = []
    box_result = rules.procedure("box_result")
    for box, hits in zip(boxes, marks):
        if not hits:
            continue
        if len(box) > 1:        # a shared box: each hit destroys one of its pieces
            for p in box[:hits]:
                destroy(state, p, why)
            continue
        outcome = box_result(state, box[0], hits)
        if outcome == "destroyed":
            destroy(state, box[0], why)
        elif outcome == "retreat":
            retreat.append(box[0])
    return retreat


def destroy(state: GameState, piece: Piece, why: str = "") -> None:
    for cargo in [p for p in state.pieces_at(piece.space) if p.carrier == piece.id]:
        destroy(state, cargo, why)
    state.remove(piece.id)
    state.emit("destroyed", piece=piece.id, kind=piece.kind, owner=piece.owner, space=piece.space, why=why)


# -- retreats -------------------------------------------------------------------------------------
def retreat_options(state: GameState, piece: Piece, options: dict) -> list[str]:
    """Where a unit with one hit may retreat: one hex, not into enemy ZOC, nor a full hex,
    nor off the board or a partial hex, nor across a river barrier unless it is Infantry."""
    enemy_zoc = terrain.zoc(state, enemy(piece.owner))
    return [n for n in state.board.neighbours(piece.space)
            if n not in enemy_zoc and terrain.can_step(state, piece.space, n, piece.owner, piece.kind)
            and not any(q.owner != piece.owner for q in state.pieces_at(n))
            and terrain.stacking_room(state, n, piece.owner, piece.kind, options)]


def queue_retreats(logic: Any, state: GameState, pieces: list[Piece], why: str) -> None:
    """Units that must retreat: those with nowhere to go are destroyed now, those with one
    way out take it, the rest wait for their owner's choice."""
    waiting = list(flag(state, "retreats", ()))
    for piece in pieces:
        piece = state.pieces.get(piece.id, piece)
        if piece.id not in state.pieces:
            continue
        where = retreat_options(state, piece, logic.rules.options)
        if not where:
            state.emit("note", message=f"{unit_name(piece)} cannot retreat from {hex_name(state, piece.space)}")
            destroy(state, piece, "no retreat")
        elif len(where) == 1:
            retreat(state, piece, where[0])
        else:
            waiting.append(piece.id)
    set_flag(state, "retreats", tuple(waiting))


def retreat(state: GameState, piece: Piece, to: str) -> None:
    state.emit("retreat", piece=piece.id, kind=piece.kind, owner=piece.owner, src=piece.space, to=to)
    state.move(piece.id, to)


def retreat_decision(logic: Any, state: GameState) -> Decision | None:
    waiting = flag(state, "retreats", ())
    while waiting:
        piece = state.pieces.get(waiting[0])
        if piece is None:
            waiting = waiting[1:]
            continue
        where = retreat_options(state, piece, logic.rules.options)
        options = [act("retreat", f"retreat {unit_name(piece)} to {hex_name(state, n)}", piece=piece.id, to=n)
                   for n in where]
        if not options:
            options = [act("retreat", f"{unit_name(piece)} has nowhere to go: destroyed", piece=piece.id, to="")]
        return Decision(piece.owner, "retreat",
                        f"{unit_name(piece)} in {hex_name(state, piece.space)} took a hit and must retreat one hex",
                        options, {"hex": piece.space})
    return None


def apply_retreat(logic: Any, state: GameState, action: Any) -> None:
    waiting = flag(state, "retreats", ())
    if not waiting or action.get("piece") != waiting[0]:
        raise IllegalAction("no unit is waiting to retreat" if not waiting else
                            f"{unit_name(state.piece(waiting[0]))} must retreat first")
    piece = state.piece(waiting[0])
    where = retreat_options(state, piece, logic.rules.options)
    to = action.get("to")
    if not where:
        destroy(state, piece, "no retreat")
    elif to not in where:
        raise IllegalAction(f"{unit_name(piece)} cannot retreat to {to}: "
                            + _why_not_retreat(state, piece, to, logic.rules.options))
    else:
        retreat(state, piece, to)
    set_flag(state, "retreats", tuple(waiting[1:]))


def _why_not_retreat(state: GameState, piece: Piece, to: Any, options: dict) -> str:
    board = state.board
    if not isinstance(to, str) or to not in board or not board.adjacent(piece.space, to):
        return "a retreat is one hex, to an adjacent hex"
    if terrain.is_partial(state, to):
        return "partial hexes at the board's edge cannot be entered"
    if terrain.barrier(state, piece.space, to) and piece.kind != "Infantry":
        return "only Infantry may cross a river barrier"
    if to in terrain.zoc(state, enemy(piece.owner)):
        return "units cannot retreat into an enemy zone of control"
    if any(q.owner != piece.owner for q in state.pieces_at(to)):
        return "that hex holds enemy units"
    return "that hex is full (stacking limit)"


# -- the phase --------------------------------------------------------------------------------------
def begin(logic: Any, state: GameState) -> None:
    """Ground combat's initiative: on turn 1 only the Axis attacks (the surprise attack);
    later both roll and the higher attacks first (RB §3.2)."""
    first = "Axis" if state.turn == 1 else logic.rules.procedure("initiative")(state)
    set_flag(state, "to_attack", first)
    set_flag(state, "passes", 0)
    set_flag(state, "attack", None)
    state.emit("note", message=("Surprise attack: only the Axis attacks this turn" if state.turn == 1
                                else f"{first} wins the initiative and attacks first"))


def may_attack(state: GameState, side: str) -> bool:
    return not (side == "Allies" and state.turn == 1)


def attack_sources(logic: Any, state: GameState, side: str) -> list[str]:
    """Hexes `side` may attack from: not yet attacked this turn, holding combat units that
    have not attacked, next to enemy ground units, with supply within reach."""
    attacked = flag(state, "attacked_hexes", frozenset())
    out = []
    for sid in sorted(set(p.space for p in state.pieces_of(side) if p.kind in COMBAT and terrain.on_board(p.space))):
        if sid in attacked or not ready_attackers(state, sid, side):
            continue
        if not targets(state, sid, side):
            continue
        cost = logic.rules.options["attack_cost"]
        if len(terrain.spendable_supply(state, terrain.supply_sources(state, sid, side), side)) < cost:
            continue
        out.append(sid)
    return out


def ready_attackers(state: GameState, sid: str, side: str) -> list[Piece]:
    """The side's combat units in a hex that may still attack this turn."""
    once = state.rules.options["unit_attacks_once"]
    return [p for p in terrain.combat_units(state, sid, side)
            if "held" not in p.status and not (once and "attacked" in p.status)]


def targets(state: GameState, sid: str, side: str) -> list[str]:
    return [n for n in state.board.neighbours(sid)
            if any(p.owner != side and p.kind in terrain.GROUND for p in state.pieces_at(n))]


def decide(logic: Any, state: GameState) -> Decision | None:
    d = retreat_decision(logic, state)
    if d is not None:
        return d
    attack = flag(state, "attack")
    if attack is not None:
        return _assignment_decision(logic, state, attack)
    if flag(state, "passes", 0) >= 2:
        return None
    side = flag(state, "to_attack")
    for _ in range(2):
        sources = attack_sources(logic, state, side) if may_attack(state, side) else []
        if sources:
            break
        # a side that cannot attack passes without being asked
        _pass(state, side)
        if flag(state, "passes", 0) >= 2:
            return None
        side = flag(state, "to_attack")
    else:
        return None
    options = []
    for sid in sources:
        near = targets(state, sid, side)
        for t in near:
            options.append(act("attack", f"attack {hex_name(state, t)} from {hex_name(state, sid)} with everything",
                               **{"from": sid, "to": t}))
        if len(near) > 1:
            options.append(act("attack_from", f"plan a split attack from {hex_name(state, sid)}", **{"from": sid}))
    options.append(act("pass", "pass (let the other side attack)"))
    return Decision(side, "attack", "Choose an attack, or pass", options)


def _assignment_decision(logic: Any, state: GameState, attack: tuple) -> Decision:
    src, assigned, held = attack
    side = flag(state, "to_attack")
    done = {pid for pid, _ in assigned} | set(held)
    free = [p for p in ready_attackers(state, src, side) if p.id not in done]
    chosen = {t for _, t in assigned}
    cost = logic.rules.options["attack_cost"]
    supply = len(terrain.spendable_supply(state, terrain.supply_sources(state, src, side), side))
    options = []
    for t in targets(state, src, side):
        if t not in chosen and (len(chosen) + 1) * cost > supply:
            continue        # not enough supply within reach for another target hex
        if free:
            options.append(act("assign_all", f"all remaining units attack {hex_name(state, t)}", to=t))
        for p in free:
            options.append(act("assign", f"{unit_name(p)} attacks {hex_name(state, t)}", piece=p.id, to=t))
    for p in free:
        options.append(act("hold", f"hold back {unit_name(p)} (it cannot attack this turn)", piece=p.id))
    if assigned:
        n = len({t for _, t in assigned})
        options.append(act("resolve", f"roll the attack ({n} target hex{'es' if n > 1 else ''}, "
                                      f"{n * logic.rules.options['attack_cost']} supply)"))
    options.append(act("cancel", "cancel this attack"))
    prompt = f"Attack from {hex_name(state, src)}: assign units to targets, then roll"
    return Decision(side, "assign", prompt, options, {"hex": src})


def _pass(state: GameState, side: str) -> None:
    set_flag(state, "passes", flag(state, "passes", 0) + 1)
    set_flag(state, "to_attack", enemy(side))
    if may_attack(state, side):
        state.emit("pass", side=side)


def apply(logic: Any, state: GameState, action: Any) -> None:
    kind = action.kind
    if kind == "retreat":
        return apply_retreat(logic, state, action)
    if flag(state, "retreats", ()):
        raise IllegalAction("the retreats of the last attack come first")
    side = flag(state, "to_attack")
    attack = flag(state, "attack")
    if kind == "pass":
        if attack is not None:
            raise IllegalAction("finish or cancel the attack being planned first")
        _pass(state, side)
        return
    if kind in ("attack", "attack_from"):
        if attack is not None:
            raise IllegalAction("finish or cancel the attack being planned first")
        if not may_attack(state, side):
            raise IllegalAction("on turn 1 (Red) only the Axis attacks: the surprise attack")
        src = action.get("from")
        why = _why_not_source(logic, state, side, src)
        if why:
            raise IllegalAction(why)
        if kind == "attack_from":
            set_flag(state, "attack", (src, (), ()))
            return
        t = action.get("to")
        if t not in targets(state, src, side):
            raise IllegalAction(f"{hex_name(state, t) if isinstance(t, str) and t in state.board else t} "
                                f"is not an adjacent hex with enemy units")
        assigned = tuple((p.id, t) for p in ready_attackers(state, src, side))
        return _resolve(logic, state, side, src, assigned, ())
    if attack is None:
        raise IllegalAction(f"`{kind}` needs an attack being planned; choose an attack first")
    src, assigned, held = attack
    done = {pid for pid, _ in assigned} | set(held)
    free = {p.id: p for p in ready_attackers(state, src, side) if p.id not in done}
    if kind == "cancel":
        set_flag(state, "attack", None)
        return
    if kind == "assign_all" or kind == "assign":
        t = action.get("to")
        if t not in targets(state, src, side):
            raise IllegalAction(f"{t} is not an adjacent hex with enemy units")
        if kind == "assign_all":
            pids = list(free)
        else:
            pid = action.get("piece")
            if pid not in free:
                raise IllegalAction(f"unit #{pid} is not a free attacker in {hex_name(state, src)}")
            pids = [pid]
        set_flag(state, "attack", (src, assigned + tuple((pid, t) for pid in pids), held))
        return
    if kind == "hold":
        pid = action.get("piece")
        if pid not in free:
            raise IllegalAction(f"unit #{pid} is not a free attacker in {hex_name(state, src)}")
        set_flag(state, "attack", (src, assigned, held + (pid,)))
        return
    if kind == "resolve":
        if not assigned:
            raise IllegalAction("assign at least one unit to a target before rolling")
        return _resolve(logic, state, side, src, assigned, held)
    raise IllegalAction(f"`{kind}` is not an action of ground combat")


def _why_not_source(logic: Any, state: GameState, side: str, src: Any) -> str | None:
    if not isinstance(src, str) or src not in state.board:
        return f"there is no hex `{src}`"
    if src in flag(state, "attacked_hexes", frozenset()):
        return f"{hex_name(state, src)} has already attacked this turn"
    if not ready_attackers(state, src, side):
        return f"{side} has no combat unit in {hex_name(state, src)} that may still attack"
    if not targets(state, src, side):
        return f"no enemy units are next to {hex_name(state, src)}"
    if not terrain.spendable_supply(state, terrain.supply_sources(state, src, side), side):
        return (f"no supply within reach of {hex_name(state, src)}: an attack needs a supply token in the hex "
                f"or in an adjacent hex on your side of the front line")
    return None


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


def _resolve(logic: Any, state: GameState, side: str, src: str, assigned: tuple, held: tuple) -> None:
    rules = logic.rules
    target_list: list[str] = []
    for _, t in assigned:
        if t not in target_list:
            target_list.append(t)
    pay(logic, state, side, src, len(target_list) * rules.options["attack_cost"], "this attack")
    for pid, _ in assigned:
        mark(state, state.pieces[pid], "attacked")
    for pid in held:
        mark(state, state.pieces[pid], "held")        # announced before the roll: no attack this turn
    add_to(state, "attacked_hexes", src)
    set_flag(state, "attack", None)
    for t in target_list:
        attackers = [state.pieces[pid] for pid, tt in assigned if tt == t]
        defenders = [p for p in state.pieces_at(t) if p.owner != side and p.kind in terrain.GROUND]
        dice = rules.procedure("attack_dice")(state, attackers)
        state.emit("attack", side=side, src=src, target=t, dice=dice, attackers=counted(attackers),
                   defenders=counted(defenders))
        must_retreat = fire_at_ground(logic, state, dice, defenders, f"attack on {t}")
        queue_retreats(logic, state, must_retreat, "attack")
    set_flag(state, "passes", 0)
    set_flag(state, "to_attack", enemy(side))
