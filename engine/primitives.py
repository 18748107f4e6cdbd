"""The primitives every ruleset's rules files can call: dice, pieces, spaces, resources and
the game log. A ruleset adds its own through the `wargame_register` hook.

Each primitive receives the game state as its first argument (the context the engine passes
when it runs a procedure or a rule); rules files never see the state itself.
"""

from __future__ import annotations

import functools
from typing import Any

from dsl.errors import RulesLimitError
from dsl.runtime import FREE_ITEMS, charge
from engine import graph
from engine.actions import IllegalAction
from engine.asking import space_name
from engine.pieces import Piece
from engine.state import GameState

#: the most pieces a game may hold (`create` refuses more)
MAX_PIECES = 100_000

UNIT_FIELDS = {"id": "int", "kind": "str", "owner": "str", "space": "str", "hits": "int", "group": "str"}

#: engine events rules files can bind to with `rule NAME on EVENT(...)`
EVENTS: dict[str, list[tuple[str, str]]] = {
    "game_start": [],
    "turn_start": [("turn", "int")],
    "turn_end": [("turn", "int")],
    "power_start": [("turn", "int"), ("power", "str")],
    "power_end": [("turn", "int"), ("power", "str")],
    "phase_start": [("phase", "str")],
    "phase_end": [("phase", "str")],
    "phase_skipped": [("phase", "str")],
    "step_start": [("phase", "str"), ("step", "str")],
    "step_end": [("phase", "str"), ("step", "str")],
    "game_end": [],
}


#: the most dice one `roll` may throw, and the most sides a die may have
MAX_DICE = 10_000
MAX_SIDES = 1_000
#: the most a `gain`, `pay`, `transfer` or `damage` may move at once
MAX_AMOUNT = 1_000_000_000


def _count(what: str, value: int, lo: int, hi: int) -> None:
    """A primitive's count is refused (as an error in the rules, at the call) outside lo..hi."""
    if not lo <= value <= hi:
        raise RulesLimitError(f"{what} must be from {lo:,} to {hi:,}, not {value:,}")


# A primitive that goes through more than FREE_ITEMS pieces or spaces pays for them from the
# step budget of the rules calling it (dsl.runtime.charge; tested inline: most lists are short).


def roll(state: GameState, n: int, sides: int) -> list[int]:
    if not (0 <= n <= MAX_DICE and 2 <= sides <= MAX_SIDES):     # (tested inline: dice are rolled often)
        _count("the number of dice to roll", n, 0, MAX_DICE)
        _count("the sides of a die", sides, 2, MAX_SIDES)
    if n > FREE_ITEMS:
        charge(n)
    return state.roll(n, sides)


def roll_for(state: GameState, n: int, sides: int, who: str) -> list[int]:
    """`roll`, in the name of `who` and what for ("the Axis initiative", "Germany's Bomber
    over Russia"): the log says whose dice they are, as `roll_to_hit`'s do."""
    if not (0 <= n <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        _count("the number of dice to roll", n, 0, MAX_DICE)
        _count("the sides of a die", sides, 2, MAX_SIDES)
    if n > FREE_ITEMS:
        charge(n)
    return state.roll(n, sides, why=who)


def roll_hits(state: GameState, values: list[int], sides: int, who: str) -> int:
    """One die for each value, those of one value rolled together, the lowest value first
    (as a player rolls by strength); how many show their value or less. A value above
    `sides` hits without a die, one below 1 misses without one. Only the count matters, so a
    battle calculator (`GameState.hits_hook`, engine.chance) may give the count from its
    distribution (binomials added up) instead of enumerating every face. `who` says whose
    dice they are in the log ("Germany attacks"), as `roll_to_hit`'s."""
    if not (len(values) <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        _count("the number of dice to roll", len(values), 0, MAX_DICE)
        _count("the sides of a die", sides, 2, MAX_SIDES)
    if len(values) > FREE_ITEMS:
        charge(len(values))
    if state.hits_hook is not None:
        return int(state.hits_hook(values, sides))
    groups: dict[int, int] = {}
    hits = 0
    for v in values:
        if v > sides:
            hits += 1
        elif v >= 1:
            groups[v] = groups.get(v, 0) + 1
    for v in sorted(groups):
        hits += sum(1 for d in state.roll(groups[v], sides, why=who, at=v) if d <= v)
    return hits


def roll_to_hit(state: GameState, n: int, sides: int, at: int, who: str) -> list[int]:
    """Dice rolled to hit on `at` or less, in the name of `who` ("Germany attacks"): the log
    says whose dice they are, what they hit on and how many hit."""
    if not (0 <= n <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        _count("the number of dice to roll", n, 0, MAX_DICE)
        _count("the sides of a die", sides, 2, MAX_SIDES)
    if n > FREE_ITEMS:
        charge(n)
    return state.roll(n, sides, why=who, at=at)


def pieces_at(state: GameState, space: str) -> list[Piece]:
    found = state.pieces_at(space)
    if len(found) > FREE_ITEMS:
        charge(len(found))
    return found


def destroy(state: GameState, unit: Piece) -> None:
    """Remove a piece, and whatever it carries with it."""
    if unit.id not in state.pieces:
        return
    for c in cargo(state, unit):
        destroy(state, c)
    unit = state.pieces[unit.id]
    state.remove(unit.id)
    formation = {"group": unit.group} if unit.group else {}     # (the log names it: "Infantry (106 ID)")
    state.emit("destroyed", piece=unit.id, kind=unit.kind, owner=unit.owner, space=unit.space,
               where=space_name(state, unit.space), **formation)     # as players read it: never `pending:USSR`


def move_to(state: GameState, unit: Piece, space: str) -> None:
    """Put a piece (and its cargo) in another space; the caller's rules decide if it may."""
    src = state.piece(unit.id).space
    aboard = cargo(state, unit)         # found where the carrier is, so before it goes
    state.move(unit.id, space)
    for c in aboard:
        state.move(c.id, space)
    state.events.append(("move", {"piece": unit.id, "kind": unit.kind, "owner": unit.owner, "src": src, "to": space}))


def _check_space(state: GameState, space: str) -> None:
    if space not in state.board.spaces and ":" not in space:
        raise IllegalAction(f"there is no space `{space}`")


def _check_spaces(state: GameState, places: list[str]) -> None:
    """`_check_space` of each place, in one loop (a walk is given its places at every call)."""
    spaces = state.board.spaces
    for s in places:
        if s not in spaces and ":" not in s:
            raise IllegalAction(f"there is no space `{s}`")


def create(state: GameState, kind: str, owner: str, space: str) -> Piece:
    if state.rules is not None and kind not in state.rules.units:
        raise IllegalAction(f"there is no unit type `{kind}`")
    _check_space(state, space)
    if len(state.pieces) >= MAX_PIECES:
        raise RulesLimitError(f"the game already has {MAX_PIECES:,} pieces; no more can be created (a fixed limit)")
    return state.add_piece(kind, owner, space)


def fresh(state: GameState, unit: Piece) -> Piece:
    """The piece as it is now (a unit value is the piece as it was when it was read)."""
    return state.pieces.get(unit.id, unit)


def unit_name(state: GameState, unit: Piece) -> str:
    """A piece as players read it: its type, and its formation where it has one ("Tank (2 SS
    Pz)"). Never its number: players tell like pieces apart by where they stand, which the
    rules' words say beside the name ("a Truck in Bastogne")."""
    return f"{unit.kind} ({unit.group})" if unit.group else unit.kind


def units_at(state: GameState, space: str) -> list[Piece]:
    at = state._at.get(space)
    if not at:
        return []
    found = list(at.values())   # (LHTR asks this 40,000 times a game)
    if len(found) > FREE_ITEMS:
        charge(len(found))
    return found


def units_of(state: GameState, owner: str) -> list[Piece]:
    if len(state.pieces) > FREE_ITEMS:
        charge(len(state.pieces))
    return state.pieces_of(owner)


def all_units(state: GameState) -> list[Piece]:
    if len(state.pieces) > FREE_ITEMS:
        charge(len(state.pieces))
    return list(state.pieces.values())


def set_owner(state: GameState, unit: Piece, owner: str) -> None:
    state.update(unit.id, owner=owner)


def mark(state: GameState, unit: Piece, name: str) -> None:
    state.set_mark(unit.id, name, True)


def unmark(state: GameState, unit: Piece, name: str) -> None:
    state.set_mark(unit.id, name, False)


def marked(state: GameState, unit: Piece, name: str) -> bool:
    p = state.pieces.get(unit.id, unit)
    return name in p.status


def clear_marks(state: GameState, names: list[str]) -> None:
    """Take these marks off every piece (marks that last a turn, a phase...)."""
    drop = frozenset(names)
    if not state.marked_any(drop):
        return
    if len(state.pieces) > FREE_ITEMS:
        charge(len(state.pieces))
    # (most pieces carry no mark: they are passed over without making a set)
    for p in [p for p in state.pieces.values() if p.status and not drop.isdisjoint(p.status)]:
        state.set_status(p.id, p.status - drop)


def damage(state: GameState, unit: Piece, hits: int) -> None:
    if not -MAX_AMOUNT <= hits <= MAX_AMOUNT:
        _count("the hits of `damage`", hits, -MAX_AMOUNT, MAX_AMOUNT)
    p = state.piece(unit.id)
    state.update(p.id, hits=p.hits + hits)


def repair(state: GameState, unit: Piece) -> None:
    state.update(unit.id, hits=0)


def load_onto(state: GameState, unit: Piece, carrier: Piece) -> None:
    c = state.piece(carrier.id)
    state.update(unit.id, carrier=c.id, space=c.space)


def unload(state: GameState, unit: Piece) -> None:
    state.update(unit.id, carrier=None)


def cargo(state: GameState, unit: Piece) -> list[Piece]:
    p = state.pieces.get(unit.id, unit)
    here = state.pieces_at(p.space)
    if len(here) > FREE_ITEMS:
        charge(len(here))
    return [q for q in here if q.carrier == p.id]


def carried(state: GameState, unit: Piece) -> bool:
    return state.pieces.get(unit.id, unit).carrier is not None


def spaces(state: GameState) -> list[str]:
    every = list(state.board.spaces)
    if len(every) > FREE_ITEMS:
        charge(len(every))
    return every


def occupied_spaces(state: GameState) -> list[str]:
    found = state.occupied_on_board()
    if len(found) > FREE_ITEMS:
        charge(len(found))
    return found


def on_board(state: GameState, space: str) -> bool:
    return space in state.board.spaces


def adjacent(state: GameState, a: str, b: str) -> bool:
    return state.board.adjacent(a, b)


def link_flag(state: GameState, a: str, b: str, key: str) -> bool:
    return bool(state.board.link(a, b).get(key, False))


def link_str(state: GameState, a: str, b: str, key: str) -> str:
    v = state.board.link(a, b).get(key, "")
    return "" if v is None or v is False else str(v)


def direction(state: GameState, a: str, b: str) -> str:
    return state.board.direction(a, b) or ""


def distance(state: GameState, a: str, b: str) -> int:
    """Fewest links from a to b, or -1 if there is no way."""
    return graph.hops(state.board, a, b)


def reach(state: GameState, start: str, budget: int, cost: Any, stops: Any) -> list[str]:
    """Spaces a piece at `start` can reach spending at most `budget`: `cost(start, a, b)`
    prices each step from a to b (negative: not allowed), and `stops(start, a, b)` says the
    move must end on entering b (a zone of control, an enemy town)."""
    return graph.reach(state.board, start, budget, cost, stops)


def reach_costs(state: GameState, start: str, budget: int, cost: Any, stops: Any) -> dict[str, int]:
    """What it costs to reach each space `reach` finds (and `start`, at 0): the steps a way
    round takes, where `distance` counts links as a crow flies."""
    found = graph.reach_costs(state.board, start, budget, cost, stops)
    if len(found) > FREE_ITEMS:
        charge(len(found))
    return found


def distances(state: GameState, places: list[str], budget: int, enters: Any, goes_on: Any) -> dict[str, int]:
    """The fewest links from `places` to each space within `budget` (engine.graph.spread):
    a space is counted if `enters(s)`, and the walk goes on from it if `goes_on(s)`."""
    _check_spaces(state, places)
    if not -MAX_AMOUNT <= budget <= MAX_AMOUNT:
        _count("the budget of `distances`", budget, -MAX_AMOUNT, MAX_AMOUNT)
    if _same_call(enters, goes_on):
        goes_on = None      # (the same question twice: asked once)
    found = graph.spread(state.board, places, budget, enters, goes_on)
    if len(found) > FREE_ITEMS:
        charge(len(found))
    return found


def nearer(state: GameState, known: dict[str, int], places: list[str], budget: int, enters: Any,
           goes_on: Any) -> dict[str, int]:
    """`known` (the answer of `distances` with the same budget and procedures) with `places`
    walked from as well (engine.graph.nearer): what `distances` from both lists of places
    answers, for the price of the spaces that come nearer."""
    _check_spaces(state, places)
    if not -MAX_AMOUNT <= budget <= MAX_AMOUNT:
        _count("the budget of `nearer`", budget, -MAX_AMOUNT, MAX_AMOUNT)
    if _same_call(enters, goes_on):
        goes_on = None
    found = graph.nearer(state.board, known, places, budget, enters, goes_on)
    if len(found) - len(known) > FREE_ITEMS:
        charge(len(found) - len(known))
    return found


def _same_call(f: Any, g: Any) -> bool:
    """Are two procedures passed from the rules the same one (each name passed is a new
    `functools.partial` over the state)?"""
    if f is g:
        return True
    return isinstance(f, functools.partial) and isinstance(g, functools.partial) and f.func is g.func \
        and f.args == g.args and f.keywords == g.keywords


def unit_reach(state: GameState, unit: Piece, budget: int, cost: Any, stops: Any) -> list[str]:
    """The same for one unit: `cost(unit, a, b)` and `stops(unit, a, b)` see the unit, so its
    stats decide (who crosses rivers, who keeps to roads)."""
    p = state.pieces.get(unit.id, unit)
    return graph.reach(state.board, p.space, budget, lambda _s, a, b: cost(p, a, b), lambda _s, a, b: stops(p, a, b))


def set_control(state: GameState, space: str, owner: str) -> None:
    if state.control.get(space) != owner:
        state.set_control(space, owner)
        state.emit("control", space=space, owner=owner)


def current_power(state: GameState) -> str:
    seq = getattr(state.rules, "sequence", None)
    order = seq.order if seq is not None else ()
    return order[state.power_index] if order else ""


def team_powers(state: GameState) -> list[str]:
    seq = getattr(state.rules, "sequence", None)
    return seq.team_powers(state.power_index) if seq is not None else []


def acting_powers(state: GameState) -> list[str]:
    seq = getattr(state.rules, "sequence", None)
    return seq.acting_powers(state.power_index, state.phase_index) if seq is not None else []


def end_game(state: GameState, winner: str, reason: str) -> None:
    """The game is over: `winner` wins (\"\" for a draw) because of `reason`."""
    if state.result is None:
        rules = state.rules
        score = dict(rules.procedure("score")(state)) if rules is not None and rules.has_procedure("score") else {}
        state.result = {"winner": winner or None, "reason": reason, "score": score}
        state.emit("game_over", winner=winner, reason=reason)


def controller(state: GameState, space: str) -> str:
    return state.control.get(space, "")


def resource(state: GameState, owner: str, name: str) -> int:
    return state.resource(owner, name)


def gain(state: GameState, owner: str, name: str, amount: int) -> None:
    if not -MAX_AMOUNT <= amount <= MAX_AMOUNT:
        _count("the amount of `gain`", amount, -MAX_AMOUNT, MAX_AMOUNT)
    state.gain(owner, name, amount)
    state.emit("gain", owner=owner, resource=name, amount=amount)


def pay(state: GameState, owner: str, name: str, amount: int) -> None:
    if not -MAX_AMOUNT <= amount <= MAX_AMOUNT:
        _count("the amount of `pay`", amount, -MAX_AMOUNT, MAX_AMOUNT)
    if state.resource(owner, name) < amount:
        raise IllegalAction(f"{owner} cannot pay {amount} {name}: only {state.resource(owner, name)} left")
    state.spend(owner, name, amount)
    state.emit("pay", owner=owner, resource=name, amount=amount)


def transfer(state: GameState, source: str, target: str, name: str, amount: int) -> int:
    """Move up to `amount` of a resource between owners; returns what actually moved."""
    if not -MAX_AMOUNT <= amount <= MAX_AMOUNT:
        _count("the amount of `transfer`", amount, -MAX_AMOUNT, MAX_AMOUNT)
    moved = max(0, min(amount, state.resource(source, name)))
    state.spend(source, name, moved)
    state.gain(target, name, moved)
    state.emit("transfer", source=source, target=target, resource=name, amount=moved)
    return moved


def neighbours(state: GameState, space: str) -> list[str]:
    return list(state.board.neighbours(space))


def _attrs(state: GameState, space: str) -> Any:
    """A space's facts; the board's own error for a space it does not have."""
    sp = state.board.spaces.get(space)
    return sp.attrs if sp is not None else state.board.space(space).attrs


def space_int(state: GameState, space: str, key: str) -> int:
    sp = state.board.spaces.get(space)     # (_attrs, without the call: LHTR asks this 100k times a game)
    v = (sp if sp is not None else state.board.space(space)).attrs.get(key)
    return v if type(v) is int else int(v or 0)


def space_str(state: GameState, space: str, key: str) -> str:
    v = _attrs(state, space).get(key)
    return v if type(v) is str else str(v or "")


def space_list(state: GameState, space: str, key: str) -> list[str]:
    v = state.board.space(space).get(key) if space in state.board.spaces else None
    if v is None or v is False or v == "":
        return []
    return [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v)]


def link_list(state: GameState, a: str, b: str, key: str) -> list[str]:
    v = state.board.link(a, b).get(key)
    if v is None or v is False or v == "":
        return []
    return [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v)]


def space_kind(state: GameState, space: str) -> str:
    """What a space is on its map ("hex", "land", "sea"...); "" for an off-board area."""
    return state.board.space(space).kind if space in state.board.spaces else ""


def space_flag(state: GameState, space: str, key: str) -> bool:
    return state.board.flag(space, key)


def turn(state: GameState) -> int:
    return state.turn


def current_phase(state: GameState) -> str:
    seq = getattr(state.rules, "sequence", None)
    if seq is None or not seq.phases:
        return ""
    return str(seq.phases[state.phase_index].name)


def current_step(state: GameState) -> str:
    seq = getattr(state.rules, "sequence", None)
    if seq is None or not seq.phases:
        return ""
    return str(seq.phases[state.phase_index].steps[state.step_index])


def note(state: GameState, message: str) -> None:
    state.emit("note", message=message)


def warn(state: GameState, message: str) -> None:
    """A line in the game log that the player should not miss: what a move allowed will cost
    later (clients show it as "warning: ...")."""
    state.emit("warning", message=message)


def hits_on(state: GameState, units: list[Piece], hits: int, box: str) -> None:
    """Where a battle's hits landed, for the clients: `units` (one box of a combat strip, a
    target group) took `hits` hits. Changes nothing; the rules still apply the hits."""
    state.emit("hits_on", pieces=[u.id for u in units], hits=hits, box=box)


def register_core(registry: Any) -> None:
    """Add the engine's record types, events and primitives to a rules-language registry."""
    registry.record("Unit", fields=UNIT_FIELDS, unit_stats=True)
    registry.host_stats |= {"short", "symbol"}      # the clients draw counters from these
    for name, params in EVENTS.items():
        registry.event(name, params=params)
    P = registry.primitive
    P("roll", roll, changes=True, params=[("n", "int"), ("sides", "int")], returns="list[int]", context=True,
      doc="roll n dice with the given number of sides; every roll is logged")
    P("roll_for", roll_for, changes=True, params=[("n", "int"), ("sides", "int"), ("who", "str")], returns="list[int]",
      context=True, doc="`roll`, for `who` and what for (\"the Axis initiative\"): the log says whose dice they are")
    P("roll_hits", roll_hits, changes=True, params=[("values", "list[int]"), ("sides", "int"), ("who", "str")],
      returns="int", context=True,
      doc="one die for each value (rolled by value, the lowest first), for `who` (\"Germany attacks\"): how many "
          "show their value or less; a value above the sides hits without a die")
    P("roll_to_hit", roll_to_hit, changes=True, params=[("n", "int"), ("sides", "int"), ("at", "int"), ("who", "str")],
      returns="list[int]", context=True,
      doc="roll n dice that hit on `at` or less, for `who` (\"Germany attacks\"): the log says whose dice, "
          "what they hit on and how many hit")
    P("pieces_at", pieces_at, current=True, params=[("space", "str")], returns="list[Unit]", context=True,
      doc="the pieces in a space or off-board area")
    P("destroy", destroy, changes=True, params=[("unit", "Unit")], returns="none", context=True, doc="remove a piece from the game")
    P("move_to", move_to, changes=True, params=[("unit", "Unit"), ("space", "str")], returns="none", context=True,
      doc="put a piece in another space (no rules checked: the caller's rules decide)")
    P("controller", controller, params=[("space", "str")], returns="str", context=True,
      doc="the side or power that controls a space, or \"\"", inline='ctx.control.get({0}, "")')
    P("resource", resource, params=[("owner", "str"), ("name", "str")], returns="int", context=True,
      doc="how much of a resource (IPC, supply) an owner has")
    P("gain", gain, changes=True, params=[("owner", "str"), ("name", "str"), ("amount", "int")], returns="none", context=True,
      doc="add to an owner's resource")
    P("pay", pay, changes=True, params=[("owner", "str"), ("name", "str"), ("amount", "int")], returns="none", context=True,
      doc="take from an owner's resource; refused if there is not enough")
    P("transfer", transfer, changes=True, params=[("source", "str"), ("target", "str"), ("name", "str"), ("amount", "int")],
      returns="int", context=True, doc="move up to amount of a resource between owners; returns what moved")
    P("neighbours", neighbours, params=[("space", "str")], returns="list[str]", context=True, board=True,
      doc="the spaces next to a space", inline="list(ctx.board.neighbours({0}))", peek="ctx.board.neighbours({0})")
    P("space_int", space_int, params=[("space", "str"), ("key", "str")], returns="int", context=True, board=True,
      doc="a whole-number fact of a space (vp, ipc...), 0 when absent")
    P("space_str", space_str, params=[("space", "str"), ("key", "str")], returns="str", context=True, board=True,
      doc="a text fact of a space, \"\" when absent")
    P("space_flag", space_flag, params=[("space", "str"), ("key", "str")], returns="bool", context=True, board=True,
      doc="a yes/no fact of a space, false when absent", inline="({1} in ctx.board.flags[{0}])")
    P("turn", turn, params=[], returns="int", context=True, doc="the current turn number, from 1", reads="turn")
    P("current_phase", current_phase, params=[], returns="str", context=True,
      doc="the name of the phase being played (\"\" without a turn sequence)")
    P("current_step", current_step, params=[], returns="str", context=True,
      doc="the name of the step being played (\"\" without a turn sequence)")
    P("space_list", space_list, params=[("space", "str"), ("key", "str")], returns="list[str]", context=True, board=True,
      doc="a list fact of a space (e.g. the board edges it lies on), [] when absent")
    P("link_list", link_list, params=[("a", "str"), ("b", "str"), ("key", "str")], returns="list[str]", context=True, board=True,
      doc="a list fact of a link (e.g. the territories that open a canal), [] when absent")
    P("space_kind", space_kind, params=[("space", "str")], returns="str", context=True, board=True,
      doc="what a space is on its map: \"hex\", \"land\", \"sea\"...; \"\" for an off-board area")
    P("create", create, changes=True, params=[("kind", "str"), ("owner", "str"), ("space", "str")], returns="Unit", context=True,
      doc="a new piece of a unit type for an owner in a space (or off-board area)")
    P("unit_name", unit_name, params=[("unit", "Unit")], returns="str", context=True,
      doc="a piece as players read it: its type, and its formation where it has one (\"Tank (2 SS Pz)\"), "
          "never its number", inline='({0}.kind + (" (" + {0}.group + ")" if {0}.group else ""))')
    P("fresh", fresh, params=[("unit", "Unit")], returns="Unit", context=True,
      doc="the piece as it is now (a unit value keeps what it was when it was read)")
    # (read only, by code that changes nothing meanwhile: the state's own indexes, uncopied)
    P("units_at", units_at, current=True, params=[("space", "str")], returns="list[Unit]", context=True,
      doc="the pieces in a space or off-board area", peek="ctx._at.get({0}, _EMPTY).values()", reads="_at _own")
    P("units_of", units_of, current=True, params=[("owner", "str")], returns="list[Unit]", context=True,
      doc="an owner's pieces", peek="ctx._by.get({0}, _EMPTY).values()", reads="_by _own_by many",
      peek_kinds="ctx.pieces_of_kinds({0}, {kinds})")
    P("all_units", all_units, current=True, params=[], returns="list[Unit]", context=True, doc="every piece in the game",
      peek="ctx.pieces.values()", reads="_bk _own_bk kinds")
    P("set_owner", set_owner, changes=True, params=[("unit", "Unit"), ("owner", "str")], context=True,
      doc="the piece changes hands (captured trucks, commandeered supply)")
    P("mark", mark, changes=True, params=[("unit", "Unit"), ("mark", "str")], context=True, doc="put a mark on a piece")
    P("unmark", unmark, changes=True, params=[("unit", "Unit"), ("mark", "str")], context=True, doc="take a mark off a piece")
    P("marked", marked, params=[("unit", "Unit"), ("mark", "str")], returns="bool", context=True,
      doc="does the piece carry this mark now?",
      inline='({1} in ctx.pieces.get({0}.id, {0}).status)')
    P("clear_marks", clear_marks, changes=True, params=[("marks", "list[str]")], context=True,
      doc="take these marks off every piece")
    P("damage", damage, changes=True, params=[("unit", "Unit"), ("hits", "int")], context=True, doc="add hits to a piece")
    P("repair", repair, changes=True, params=[("unit", "Unit")], context=True, doc="a piece loses all its hits")
    P("load_onto", load_onto, changes=True, params=[("unit", "Unit"), ("carrier", "Unit")], context=True,
      doc="a piece boards a carrier (it moves with it from now on)")
    P("unload", unload, changes=True, params=[("unit", "Unit")], context=True, doc="a piece leaves its carrier, where it stands")
    P("cargo", cargo, current=True, params=[("unit", "Unit")], returns="list[Unit]", context=True, doc="what a carrier carries",
      peek="[_cq for _cq in ctx._at.get(ctx.pieces.get({0}.id, {0}).space, _EMPTY).values() if _cq.carrier == {0}.id]")
    P("carried", carried, params=[("unit", "Unit")], returns="bool", context=True, doc="is the piece aboard a carrier?",
      inline='(ctx.pieces.get({0}.id, {0}).carrier is not None)')
    P("spaces", spaces, params=[], returns="list[str]", context=True, board=True, doc="every space of the board")
    P("occupied_spaces", occupied_spaces, params=[], returns="list[str]", context=True,
      doc="the spaces of the board that hold a piece, in the board's order (a search for units need not look at empty spaces)")
    P("space_name", space_name, params=[("space", "str")], returns="str", context=True, board=True,
      doc="a space's name as players read it", inline='(ctx.board.titles.get({0}) or {0}.replace(":", " "))')
    P("on_board", on_board, params=[("space", "str")], returns="bool", context=True, board=True,
      doc="is this a space of the board (not an off-board area)?",
      inline='({0} in ctx.board.spaces)')
    P("adjacent", adjacent, params=[("a", "str"), ("b", "str")], returns="bool", context=True, board=True,
      doc="are two spaces linked?")
    P("link_flag", link_flag, params=[("a", "str"), ("b", "str"), ("key", "str")], returns="bool", context=True, board=True,
      doc="a yes/no fact of the link between two spaces (road, barrier, canal), false when absent")
    P("link_str", link_str, params=[("a", "str"), ("b", "str"), ("key", "str")], returns="str", context=True, board=True,
      doc="a text fact of the link between two spaces, \"\" when absent")
    P("direction", direction, params=[("a", "str"), ("b", "str")], returns="str", context=True, board=True,
      doc="the compass side of hex a that faces hex b (E, NE, NW, W, SW, SE), \"\" off a hex map")
    P("distance", distance, params=[("a", "str"), ("b", "str")], returns="int", context=True, board=True,
      doc="the fewest links from a to b, -1 if there is no way")
    P("reach", reach, params=[("start", "str"), ("budget", "int"), ("cost", "fn(str, str, str) -> int"),
                              ("stops", "fn(str, str, str) -> bool")], returns="list[str]", context=True, board=True,
      doc="the spaces reachable from start within budget; cost(start, a, b) prices a step (negative: "
          "forbidden), stops(start, a, b) ends the move on entering b")
    P("reach_costs", reach_costs, params=[("start", "str"), ("budget", "int"), ("cost", "fn(str, str, str) -> int"),
                                          ("stops", "fn(str, str, str) -> bool")], returns="map[str, int]",
      context=True, board=True,
      doc="what it costs to reach each space reach finds, start at 0: the steps of a way round, where "
          "distance counts links as a crow flies")
    P("distances", distances, params=[("places", "list[str]"), ("budget", "int"), ("enters", "fn(str) -> bool"),
                                      ("goes_on", "fn(str) -> bool")], returns="map[str, int]", context=True, board=True,
      doc="the fewest links from any of places to each space within budget, breadth first: a space is "
          "counted if enters(s), and the walk goes on from it if goes_on(s) too")
    P("nearer", nearer, params=[("known", "map[str, int]"), ("places", "list[str]"), ("budget", "int"),
                                ("enters", "fn(str) -> bool"), ("goes_on", "fn(str) -> bool")],
      returns="map[str, int]", context=True, board=True,
      doc="known, the distances of a walk with the same budget, enters and goes_on, with places walked "
          "from too: the answer of distances from both, walking only the spaces that come nearer")
    P("unit_reach", unit_reach, params=[("unit", "Unit"), ("budget", "int"), ("cost", "fn(Unit, str, str) -> int"),
                                        ("stops", "fn(Unit, str, str) -> bool")], returns="list[str]", context=True,
      doc="the spaces a unit can reach within budget from where it stands; cost(unit, a, b) prices a step "
          "(negative: forbidden), stops(unit, a, b) ends the move on entering b")
    P("set_control", set_control, changes=True, params=[("space", "str"), ("owner", "str")], context=True,
      doc="a space passes to an owner")
    P("current_power", current_power, params=[], returns="str", context=True,
      doc="the power whose turn it is, where powers take turns in order (\"\" otherwise)",
      inline='(SEQ_ORDER[ctx.power_index] if SEQ_ORDER else "")')
    P("team_powers", team_powers, params=[], returns="list[str]", context=True,
      doc="the powers of the team whose turn it is, in turn order (`teams`); the power to play alone "
          "when it plays in no team (empty without `turn order`)",
      inline='([SEQ_ORDER[ctx.power_index]] if SEQ_ORDER and not SEQ_TEAMS else '
             'ctx.rules.sequence.team_powers(ctx.power_index))')
    P("acting_powers", acting_powers, params=[], returns="list[str]", context=True,
      doc="the powers who play the current phase: the whole team in a phase it plays `together`, "
          "else the power whose turn it is (empty without `turn order`)",
      inline='([SEQ_ORDER[ctx.power_index]] if SEQ_ORDER and not SEQ_TEAMS else '
             'ctx.rules.sequence.acting_powers(ctx.power_index, ctx.phase_index))')
    P("end_game", end_game, changes=True, params=[("winner", "str"), ("reason", "str")], context=True,
      doc="the game is over: winner wins (\"\" for a draw) because of reason")
    P("note", note, changes=True, params=[("message", "str")], returns="none", context=True, doc="write a line in the game log")
    P("warn", warn, changes=True, params=[("message", "str")], returns="none", context=True,
      doc="write a warning in the game log: a line the player should not miss (clients show it as \"warning: ...\")")
    P("hits_on", hits_on, changes=True, params=[("units", "list[Unit]"), ("hits", "int"), ("box", "str")], returns="none",
      context=True, doc="tell the clients that units (a box of a combat strip, a target group) took hits there; "
                        "changes nothing, the rules apply the hits themselves")
