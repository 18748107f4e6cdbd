"""Computer players for Battle of the Bulge.

`HeuristicPlayer` scores the options of each decision with cheap, hand-written estimates
instead of searching:

* attacks by their expected value, with the odds of the attack it decides on taken from the
  rules (the `odds` it is given when seated: engine.odds_protocol, answered by
  clients.odds_players), and a quick estimate worked out analytically from the combat strips
  (each die hits with p = 1/2 and lands on a box by its face; held against the rules' exact
  odds in tests/test_odds_players.py) for what it weighs by the hundred (next turn's attacks
  from a hex), against the supply token they cost;
* activations (planned once per step, greedily, against the tokens within reach) and moves
  by a position value: a field that pulls units toward the towns that matter to their side,
  a bonus for taking or holding VP towns, what a unit adds to next turn's attack from its
  hex, standing where trucks can bring supply, a penalty for standing thin next to enemy
  stacks that have supply, and the stacking limit;
* trucks by where their cargo is worth most: each stack lists what one more token would buy
  it next turn (an attack, a tank run to a town, a move), trucks take a couple of tokens each
  to the best of those, and an empty truck takes an undefended enemy town;
* retreats, air units, initiative and upkeep displacements by small one-off scores.

The Axis's last turn counts only what it holds at the end, so then supply is cheap and
towns are everything.

It never changes the state it is given and always answers with one of the decision's own
options; whatever goes wrong inside, it falls back to a harmless option rather than raise.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import defaultdict
from typing import Any

from engine.actions import Action, Decision
from engine.hexgrid import distance as hex_distance
from engine.odds_protocol import BattleOdds
from engine.state import GameState
from rulesets.bulge import scenario

#: what a piece is worth to its side, in infantry units: a weight of the player's, tuned by
#: self-play, not a rule (a unit type it does not know is worth an infantry unit)
VALUE = {"Infantry": 1.0, "Tank": 1.6, "Artillery": 1.7, "Truck": 1.2, "Supply": 0.6}
SIDES = ("Axis", "Allies")
INF = 1e9


def enemy(side: str) -> str:
    return "Allies" if side == "Axis" else "Axis"


# -- the unit types, once per rules: what the player needs of them, by their stats and tags --------
class Kinds:
    """The unit types grouped as the player treats them, from their stats and tags."""

    def __init__(self, units: dict[str, Any]) -> None:
        def having(test: Any) -> frozenset[str]:
            return frozenset(k for k, u in units.items() if test(u))

        self.units = units
        self.combat = having(lambda u: "combat" in u.tags)
        self.ground = having(lambda u: "ground" in u.tags)
        self.air = having(lambda u: "air" in u.tags)
        self.supply = having(lambda u: "supply" in u.tags)
        self.truck = having(lambda u: u.capacity > 0)                           # carries cargo
        self.roadrunner = having(lambda u: "combat" in u.tags and u.road_move)  # any distance along roads
        self.blitz = having(lambda u: "blitz" in u.tags)
        self.crosses = having(lambda u: u.crosses_river)
        self.lifted = having(lambda u: "combat" in u.tags and "cargo" in u.tags)  # combat units trucks carry
        #: air units that add dice to an air attack beyond their one dogfight die
        self.strikers = sorted(having(lambda u: "air" in u.tags and u.attack > 1))
        self.escorts = sorted(self.air - set(self.strikers))
        self.dice = {k: int(units[k].attack) for k in self.combat}
        self.capacity = max((int(u.capacity) for u in units.values()), default=0)
        #: how a type moves, for distances: K on roads only, T far along roads, A not across
        #: river barriers, I anywhere a hex a turn
        self.cls = {k: "K" if u.road_move and u.move == 0 else "T" if k in self.roadrunner
                    else "A" if k in self.combat and not u.crosses_river else "I" for k, u in units.items()}


_KINDS: dict[int, Kinds] = {}


def kinds_of(rules: Any) -> Kinds:
    k = _KINDS.get(id(rules.units))
    if k is None or k.units is not rules.units:
        k = _KINDS[id(rules.units)] = Kinds(rules.units)
    return k


# -- the board, once per board ---------------------------------------------------------------
class Geo:
    """Static facts of a board the player looks up constantly: playable neighbours, roads,
    barriers, towns, and distances in 'turns of movement' for each kind of unit."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self.hexes = [s.id for s in board.spaces.values() if not s.get("partial")]
        hs = set(self.hexes)
        self.nb = {h: tuple(n for n in board.neighbours(h) if n in hs) for h in self.hexes}
        self.coord = {h: board.space(h).hex for h in self.hexes}
        self.vp = {h: int(board.space(h).get("vp") or 0) for h in self.hexes}
        self.towns = [h for h in self.hexes if self.vp[h]]
        self.col = {h: int(board.space(h).get("col") or 0) for h in self.hexes}
        self.edge = {h: tuple(board.space(h).get("edge") or ()) for h in self.hexes}
        self.town_size = {h: board.space(h).get("size") in ("city", "town") for h in self.hexes}
        self.barrier: set[frozenset[str]] = set()
        self.road: dict[str, tuple[str, ...]] = {}
        for h in self.hexes:
            rn = []
            for n in self.nb[h]:
                link = board.link(h, n)
                if link.get("barrier"):
                    self.barrier.add(frozenset((h, n)))
                elif link.get("road"):
                    rn.append(n)
            self.road[h] = tuple(rn)
        self._dist: dict[tuple[str, str], dict[str, float]] = {}

    def hd(self, a: str, b: str) -> int:
        return hex_distance(self.coord[a], self.coord[b])

    def dist(self, cls: str, src: str) -> dict[str, float]:
        """Movement cost from `src` to every hex for a unit class (I, A, T, K), ignoring
        units: a hex a turn off road; tanks go far on roads; trucks only on roads."""
        key = (cls, src)
        d = self._dist.get(key)
        if d is not None:
            return d
        out: dict[str, float] = {src: 0.0}
        heap = [(0.0, src)]
        while heap:
            c, h = heapq.heappop(heap)
            if c > out.get(h, INF):
                continue
            if cls == "K":
                steps = [(n, 0.15) for n in self.road[h]]
            else:
                road = set(self.road[h])
                steps = []
                for n in self.nb[h]:
                    if cls != "I" and frozenset((h, n)) in self.barrier:
                        continue
                    steps.append((n, 0.3 if (cls == "T" and n in road) else 1.0))
            for n, w in steps:
                nc = c + w
                if nc < out.get(n, INF):
                    out[n] = nc
                    heapq.heappush(heap, (nc, n))
        self._dist[key] = out
        return out


_GEO: dict[int, Geo] = {}


def geo_of(board: Any) -> Geo:
    g = _GEO.get(id(board))
    if g is None or g.board is not board:
        g = _GEO[id(board)] = Geo(board)
    return g


# -- combat odds ------------------------------------------------------------------------------
def box_probs(n_boxes: int, options: dict) -> list[float]:
    """Chance that one attack die puts a hit in each box of a strip of `n_boxes`."""
    die, hit_on, own = options["die"], options["hit_on"], options["max_boxes_for_own_faces"]
    p_hit = hit_on / die
    faces = range(1, hit_on + 1) if n_boxes <= own else range(1, max(die, n_boxes) + 1)    # as strip_hits
    nf = len(faces)
    counts = [0] * n_boxes
    for f in faces:
        counts[(f - 1) % n_boxes] += 1
    return [p_hit * c / nf for c in counts]


def binom_tail(n: int, p: float) -> tuple[float, float]:
    """P(0 hits), P(1 hit) out of n dice each landing with probability p."""
    q = 1.0 - p
    p0 = q ** n
    p1 = n * p * q ** (n - 1) if n >= 1 else 0.0
    return p0, p1


def unit_fate(n: int, p: float, can_go: bool) -> tuple[float, float, float]:
    """The quick estimate of what `n` attack dice do to a combat unit alone in its box (each
    landing there with probability p): destroyed by two hits (or one, when it cannot
    retreat), pushed out by one, untouched by none."""
    p0, p1 = binom_tail(n, p)
    return (1 - p0 - p1 + (0 if can_go else p1), p1 if can_go else 0.0, p0)


def expected_supply_hits(n: int, p: float, tokens: int) -> float:
    """E[min(hits, tokens)] for a shared supply box."""
    q = 1.0 - p
    total = 0.0
    # P(k >= j) summed for j = 1..tokens
    pk = [0.0] * (tokens + 1)
    coef = 1.0
    for k in range(0, min(n, tokens) + 1):
        if k > 0:
            coef = coef * (n - k + 1) / k
        pk[k] = coef * p ** k * q ** (n - k)
    cum = 0.0
    for j in range(1, tokens + 1):
        cum += pk[j - 1]
        total += max(0.0, 1.0 - cum)
    return total


# -- the player -----------------------------------------------------------------------------------
class HeuristicPlayer:
    """Weighs attacks by their odds, keeps supply flowing and heads for VP."""

    name = "heuristic"
    #: seated with battle odds from the rules (clients.seats gives them)
    takes_odds = True

    # weights, tuned by self-play (benchmarks/bulge_selfplay.py); a subclass may change them
    SUPPLY_COST = 0.9         # value of one supply token spent on an attack or activation
    CAPTURE = 4.0             # per VP, taking an enemy-held town
    HOLD = 2.0                # per VP, a unit keeping a threatened town of ours
    OBJ = 3.0                 # weight of the objective field (progress toward the towns)
    DANGER = 0.35             # weight of the expected loss to an enemy attack next turn
    TRUCK_LOAD = 2            # supply tokens per truck coming on: more trucks reach more stacks
    INF_NEED = 0.25           # what a token to move an infantry/artillery unit is worth
    TANK_IDLE = 1.0           # ... a tank with no town in sight
    POTENTIAL = 0.4           # weight of what a unit adds to next turn's attack from its hex
    ACCESS = 0.6              # standing where our trucks can bring supply

    def __init__(self, seed: int = 0, debug: bool = False, odds: BattleOdds | None = None) -> None:
        self.rng = random.Random(seed)
        self.debug = debug
        #: the odds of an attack it decides on, from the rules (without: its own estimate)
        self.battle_odds = odds
        self._memo: dict[Any, Any] = {}
        self._memo_key: tuple | None = None
        self._attack_plan: dict[str, list[tuple[int, str]]] = {}
        self._deliveries: dict[tuple[int, str], list[tuple[str, int]]] = {}

    # -- entry point ---------------------------------------------------------------------------
    def choose(self, ruleset: Any, state: GameState, decision: Decision) -> Action:
        options = decision.options
        if not options:
            raise RuntimeError(f"decision `{decision.kind}` for {decision.player} offers no options")
        try:
            action = self._choose(ruleset, state, decision)
        except Exception:
            if self.debug:
                raise
            action = None
        if action is None or action not in options:
            if self.debug and action is not None:
                raise RuntimeError(f"illegal choice {action} for {decision.kind}")
            return self._fallback(decision)
        return action

    @staticmethod
    def _fallback(decision: Decision) -> Action:
        if decision.finish is not None:
            return decision.finish
        for kind in ("done", "pass", "finish", "resolve", "cancel", "hold"):
            for o in decision.options:
                if o.kind == kind:
                    return o
        return decision.options[0]

    def _choose(self, rs: Any, state: GameState, decision: Decision) -> Action | None:
        key = (state.turn, state.phase_index, state.step_index, decision.player)
        if key != self._memo_key:
            if self._memo_key is None or key[0] != self._memo_key[0]:
                self._deliveries = {}
            self._memo_key = key
            self._memo = {}
        ctx = Ctx(rs, state, decision.player, self)
        kind = step_kind(decision.kind)
        handler = getattr(self, "_on_" + kind, None)
        if handler is None:
            return decision.sample(self.rng)
        return handler(ctx, decision)

    # -- ground combat --------------------------------------------------------------------------
    def _on_attacks(self, ctx: Ctx, decision: Decision) -> Action | None:
        best, best_val = None, 0.0
        by_src: dict[str, list[Action]] = defaultdict(list)
        for o in decision.options:
            if o.kind == "attack":
                by_src[o["from"]].append(o)
        plans: dict[str, list[tuple[int, str]]] = {}
        for src, opts in by_src.items():
            attackers = ctx.ready_attackers(src)
            if not attackers:
                continue
            for o in opts:
                v = ctx.attack_value(src, o["to"], attackers) - ctx.supply_cost(src)
                if v > best_val:
                    best, best_val = o, v
            if len(opts) > 1 and len(attackers) > 1 and ctx.supply_in_reach(src) >= 2:
                plan, v = ctx.best_split(src, [o["to"] for o in opts], attackers)
                v -= 2 * ctx.supply_cost(src)
                if plan and v > best_val + 0.3:
                    split = next((o for o in decision.options
                                  if o.kind == "attack_from" and o["from"] == src), None)
                    if split is not None:
                        best, best_val = split, v
                        plans[src] = plan
        if best is None:
            return decision.finish
        if best.kind == "attack_from":
            self._attack_plan = {best["from"]: plans[best["from"]]}
        return best

    def _on_choose(self, ctx: Ctx, decision: Decision) -> Action | None:
        """A question the rules ask in the middle of a move: the unit it is about carries a
        mark (`assigning`: its target in a split attack; `retreating`: where it retreats)."""
        asked = {m: p for p in ctx.state.pieces.values() for m in ("assigning", "retreating") if m in p.status}
        if "assigning" in asked:
            return self._assign(ctx, decision, asked["assigning"])
        if "retreating" in asked:
            return self._retreat(ctx, decision, asked["retreating"])
        return decision.options[0]

    def _assign(self, ctx: Ctx, decision: Decision, piece: Any) -> Action | None:
        by_choice = {o.get("choice"): o for o in decision.options}
        plan = dict(self._attack_plan.get(piece.space, ()))
        to = plan.get(piece.id)
        if to is None and not plan:
            # nothing planned: everything at the best target
            attackers = ctx.ready_attackers(piece.space)
            hexes = [c for c in by_choice if c not in ("hold", "cancel")]
            to = max(hexes, key=lambda h: ctx.attack_value(piece.space, h, attackers), default=None)
        return by_choice.get(to) or by_choice.get("hold") or by_choice.get("cancel")

    def _retreat(self, ctx: Ctx, decision: Decision, piece: Any) -> Action | None:
        best, best_val = None, -INF
        for o in decision.options:
            to = o.get("choice")
            v = ctx.unit_value_at(piece.kind, to, ctx.count(ctx.side, to)) + 0.01 * self.rng.random()
            if v > best_val:
                best, best_val = o, v
        return best

    # -- movement -------------------------------------------------------------------------------
    def _on_trucks_home(self, ctx: Ctx, decision: Decision) -> Action | None:
        return ctx.trucks_home(decision)

    def _on_activation(self, ctx: Ctx, decision: Decision) -> Action | None:
        return ctx.activation(decision)

    def _on_move(self, ctx: Ctx, decision: Decision) -> Action | None:
        return ctx.move(decision)

    def _on_reinforce(self, ctx: Ctx, decision: Decision) -> Action | None:
        return ctx.reinforce(decision)

    # -- air ----------------------------------------------------------------------------------
    def _on_air_initiative(self, ctx: Ctx, decision: Decision) -> Action | None:
        for o in decision.options:
            if o.get("side") != ctx.side:
                return o            # placing second lets us answer the enemy's placement
        return decision.options[0]

    def _on_air_placement(self, ctx: Ctx, decision: Decision) -> Action | None:
        return ctx.air_placement(decision)

    def _on_air_resolution(self, ctx: Ctx, decision: Decision) -> Action | None:
        return decision.options[0]

    # -- upkeep ---------------------------------------------------------------------------------
    def _on_stacking(self, ctx: Ctx, decision: Decision) -> Action | None:
        best, best_val = None, -INF
        for o in decision.options:
            piece = ctx.state.pieces.get(o.get("piece"))
            if piece is None:
                continue
            if o.kind == "disband":
                v = -VALUE.get(piece.kind, 1.0)
            else:   # we move an enemy unit: put it where it is worth least to its owner
                foe_ctx = ctx.for_side(piece.owner)
                v = -foe_ctx.unit_value_at(piece.kind, o["to"], foe_ctx.count(piece.owner, o["to"]))
            if v > best_val:
                best, best_val = o, v
        return best


# -- per-decision view of the state -----------------------------------------------------------------
class Ctx:
    """What one decision needs to know about the state, computed once per call."""

    def __init__(self, rs: Any, state: GameState, side: str, player: HeuristicPlayer,
                 shared: dict | None = None) -> None:
        self.rs = rs
        self.state = state
        self.side = side
        self.foe = enemy(side)
        self.player = player
        self.memo = player._memo
        self.opts = rs.rules.options
        self.k = kinds_of(rs.rules)
        self.geo = geo_of(state.board)
        self.limit = self.opts["stacking_limit"] if not self.opts["stacking_rulebook"] else 6
        self.last_turn = self.opts["campaign_turns"] if self.opts["ongoing_campaign"] else self.opts["last_turn"]
        if shared is None:
            shared = self._scan(state, self.k)
        self.shared = shared
        self.units = shared["units"]        # side -> hex -> [pieces]
        self.dice = shared["dice"]          # side -> hex -> attack dice
        self.supply = shared["supply"]      # side -> hex -> usable tokens
        self.other = shared["other"]        # side -> hex -> trucks/supply pieces
        self.zoc = shared["zoc"]            # side -> hexes in that side's ZOC
        self.control = state.control
        self._local: dict[Any, Any] = {}
        self.last = state.turn >= self.last_turn
        # on the last turn a token is worth only what it buys now
        self.base_cost = player.SUPPLY_COST * (0.15 if self.last else 1.0)

    @staticmethod
    def _scan(state: GameState, k: Kinds) -> dict:
        units: dict[str, dict[str, list]] = {"Axis": defaultdict(list), "Allies": defaultdict(list)}
        dice: dict[str, dict[str, int]] = {"Axis": defaultdict(int), "Allies": defaultdict(int)}
        supply: dict[str, dict[str, int]] = {"Axis": defaultdict(int), "Allies": defaultdict(int)}
        other: dict[str, dict[str, list]] = {"Axis": defaultdict(list), "Allies": defaultdict(list)}
        for p in state.pieces.values():
            if p.space not in state.board or p.carrier is not None or "captured" in p.status:
                continue
            if p.kind in k.combat:
                units[p.owner][p.space].append(p)
                dice[p.owner][p.space] += k.dice[p.kind]
            elif p.kind in k.supply:
                supply[p.owner][p.space] += 1
                other[p.owner][p.space].append(p)
            elif p.kind in k.truck:
                other[p.owner][p.space].append(p)
        board = state.board
        zoc = {}
        for side in SIDES:
            z: set[str] = set()
            for h in units[side]:
                z.update(board.neighbours(h))
            zoc[side] = z
        return {"units": units, "dice": dice, "supply": supply, "other": other, "zoc": zoc}

    def offboard(self) -> str:
        """Our off-board area, where trucks, air units and new supply wait."""
        return str(self.rs.rules.procedure("offboard")(self.state, self.side))

    def for_side(self, side: str) -> Ctx:
        return Ctx(self.rs, self.state, side, self.player, self.shared)

    def count(self, side: str, h: str) -> int:
        return len(self.units[side].get(h, ()))

    # -- supply -----------------------------------------------------------------------------------
    def sources(self, h: str) -> list[str]:
        out = [h]
        for n in self.geo.nb[h]:
            if self.control.get(n) == self.side and not self.units[self.foe].get(n) \
                    and not self.other[self.foe].get(n):
                out.append(n)
        return out

    def supply_in_reach(self, h: str) -> int:
        return sum(self.supply[self.side].get(s, 0) for s in self.sources(h))

    def supply_cost(self, h: str) -> float:
        """What a token spent at `h` is worth: more when few are within reach."""
        return token_cost(self.supply_in_reach(h), self.base_cost)

    # -- attacks ---------------------------------------------------------------------------------
    def ready_attackers(self, src: str) -> list:
        return self.rs.rules.procedure("ready_attackers")(self.state, src, self.side)

    def attack_value(self, src: str, tgt: str, attackers: list, simple: bool = False) -> float:
        """Expected worth of attacking `tgt` with `attackers`: units destroyed or pushed out,
        trucks and supply destroyed, and the chance to empty the hex (see clear_value)."""
        return self.attack_value_dice(tgt, sum(self.k.dice.get(p.kind, 0) for p in attackers), simple)

    def target_boxes(self, tgt: str) -> list[tuple[str, int, bool]]:
        """The strip boxes of an enemy hex: (kind, pieces in the box, may retreat)."""
        cache = self._local.setdefault("boxes", {})
        out = cache.get(tgt)
        if out is None:
            defenders = [p for p in self.state.pieces_at(tgt) if p.owner == self.foe and p.kind in self.k.ground]
            out = []
            rules = self.rs.rules
            for box in rules.procedure("strip_boxes")(self.state, defenders):
                first = box[0]
                can_go = first.kind in self.k.combat and bool(rules.procedure("retreat_options")(self.state, first))
                out.append((first.kind, len(box), can_go))
            cache[tgt] = out
        return out

    def attack_value_dice(self, tgt: str, n: int, simple: bool = False) -> float:
        if n <= 0:
            return 0.0
        cache = self._local.setdefault("attack_ev", {})
        key = (tgt, n, simple)
        v = cache.get(key)
        if v is not None:
            return v
        boxes = self.target_boxes(tgt)
        if not boxes:
            return 0.0
        odds = self.player.battle_odds
        if odds is not None and not simple:
            value = cache[key] = self.attack_value_rules(odds, tgt, n)
            return value
        probs = box_probs(len(boxes), self.opts)
        value = 0.0
        p_clear = 1.0
        any_combat = False
        for (kind, size, can_go), p in zip(boxes, probs):
            p0, _ = binom_tail(n, p)
            if size > 1:
                if kind in self.k.supply:
                    value += expected_supply_hits(n, p, size) * VALUE.get(kind, 1.0)
                else:
                    value += min(size, n * p) * VALUE.get(kind, 1.0)
                continue
            if kind not in self.k.combat:
                value += (1 - p0) * VALUE.get(kind, 1.0)
                continue
            any_combat = True
            p_destroy, p_retreat, _ = unit_fate(n, p, can_go)
            unit_v = VALUE.get(kind, 1.0)
            value += p_destroy * unit_v + p_retreat * 0.3 * unit_v
            p_clear *= (1 - p0)
        if any_combat:
            value += p_clear * self.clear_value(tgt, self.for_side(self.foe), simple)
        cache[key] = value
        return value

    def attack_value_rules(self, odds: BattleOdds, tgt: str, n: int) -> float:
        """attack_value_dice with the odds of the attack taken from the rules: each defender's
        chance to be destroyed or pushed out, and the chance the hex is cleared."""
        defenders = [p for p in self.state.pieces_at(tgt) if p.owner == self.foe and p.kind in self.k.ground]
        chance = odds.attack(self.rs, self.state, n, tgt, defenders)
        value = 0.0
        any_combat = False
        retreat_options = self.rs.rules.procedure("retreat_options")
        for p in defenders:
            destroyed, retreats, _ = chance.fates.get(p.id, (0.0, 0.0, 1.0))
            if retreats and not retreat_options(self.state, p):
                destroyed, retreats = destroyed + retreats, 0.0      # a unit with nowhere to go is lost
            unit_v = VALUE.get(p.kind, 1.0)
            value += destroyed * unit_v + retreats * 0.3 * unit_v
            any_combat = any_combat or p.kind in self.k.combat
        if any_combat:
            value += chance.cleared * self.clear_value(tgt, self.for_side(self.foe))
        return value

    def attack_potential(self, h: str, extra: int) -> float:
        """How much `extra` dice standing in `h` add to next turn's best attack from there."""
        cache = self._local.setdefault("potential", {})
        key = (h, extra)
        v = cache.get(key)
        if v is not None:
            return v
        base = self.dice[self.side].get(h, 0)
        v = 0.0
        for t in self.geo.nb[h]:
            if self.units[self.foe].get(t) or self.other[self.foe].get(t):
                v = max(v, self.attack_value_dice(t, min(base + extra, 16), simple=True)
                        - self.attack_value_dice(t, min(base, 16), simple=True))
        cache[key] = v
        return v

    def clear_value(self, tgt: str, foe_side: Ctx, simple: bool = False) -> float:
        """What emptying an enemy hex is worth to us: a town to take, and the road its zone
        of control no longer closes to our trucks and tanks."""
        geo = self.geo
        vp = geo.vp.get(tgt, 0)
        v = 0.3
        if vp:
            v += vp * self.player.CAPTURE * 0.6
        if simple:
            return v + 0.5
        base = self.road_net(None)
        opened = self.road_net(tgt)
        gain = 0.0
        need = self.supply_need() if not self.last else {}
        for h in sorted(opened.keys() - base.keys()):
            gain += 0.04 + 0.3 * min(need.get(h, 0.0), 3.0)
            if geo.vp.get(h) and self.control.get(h) != self.side:
                gain += geo.vp[h] * 0.5
        return v + min(gain, 5.0)

    def road_net(self, without: str | None) -> dict[str, int]:
        """Hexes our trucks could reach by road (from our edge and from where they stand),
        with the enemy units in `without` gone."""
        key = ("road_net", self.side, without)
        net = self.memo.get(key)
        if net is not None:
            return net
        geo, side, foe = self.geo, self.side, self.foe
        zoc: set[str] = set()
        for h, us in self.units[foe].items():
            if us and h != without:
                zoc.update(geo.nb[h])
        starts = set(self.truck_entries())
        starts |= {p.space for ps in self.other[side].values() for p in ps if p.kind in self.k.truck}
        net = {}
        frontier = []
        for s0 in starts:
            net[s0] = 0
            if s0 not in zoc:
                frontier.append(s0)
        control = self.control
        while frontier:
            nxt = []
            for h in frontier:
                for n in geo.road[h]:
                    if n in net or (self.units[foe].get(n) and n != without):
                        continue
                    net[n] = net[h] + 1
                    if n in zoc or (geo.vp.get(n) or geo.town_size.get(n)) and control.get(n) == foe:
                        continue
                    nxt.append(n)
            frontier = nxt
        self.memo[key] = net
        return net

    def truck_entries(self) -> list[str]:
        key = ("entries", self.side)
        e = self.memo.get(key)
        if e is None:
            e = self.memo[key] = self.rs.rules.procedure("truck_entries")(self.state, self.side)
        return e

    def best_split(self, src: str, targets: list[str], attackers: list) -> tuple[list, float]:
        """The best way to split the attackers of `src` over two targets."""
        best_plan: list = []
        best_v = -INF
        units = sorted(attackers, key=lambda p: p.id)
        if len(units) > 6:
            return [], -INF
        for i, a in enumerate(targets):
            for b in targets[i + 1:]:
                for mask in range(1, 2 ** len(units) - 1):
                    ga = [u for k, u in enumerate(units) if mask >> k & 1]
                    gb = [u for k, u in enumerate(units) if not mask >> k & 1]
                    v = self.attack_value(src, a, ga) + self.attack_value(src, b, gb)
                    if v > best_v:
                        best_v = v
                        best_plan = [(u.id, a) for u in ga] + [(u.id, b) for u in gb]
        return best_plan, best_v

    # -- positions ------------------------------------------------------------------------------
    def threat_dist(self, side: str) -> dict[str, int]:
        """Hex distance from each hex to the nearest combat unit of `side` (capped at 6)."""
        local = self._local.get(("threat", side))
        if local is not None:
            return local
        d = self._threat_dist(side)
        self._local[("threat", side)] = d
        return d

    def _threat_dist(self, side: str) -> dict[str, int]:
        key = ("threat", side)
        d = self.memo.get(key)
        if d is not None and self.memo.get(("threat_sig", side)) == self._sig(side):
            return d
        d = {}
        frontier = list(self.units[side].keys())
        for h in frontier:
            d[h] = 0
        k = 0
        while frontier and k < 6:
            k += 1
            nxt = []
            for h in frontier:
                for n in self.geo.nb[h]:
                    if n not in d:
                        d[n] = k
                        nxt.append(n)
            frontier = nxt
        self.memo[key] = d
        self.memo[("threat_sig", side)] = self._sig(side)
        return d

    def _sig(self, side: str) -> tuple:
        return tuple(sorted((h, len(v)) for h, v in self.units[side].items() if v))

    def targets(self) -> dict[str, float]:
        """The towns this side's units are drawn to, with their weight."""
        local = self._local.get("targets")
        if local is not None:
            return local
        out = self._local["targets"] = self._targets()
        return out

    def _targets(self) -> dict[str, float]:
        geo = self.geo
        out: dict[str, float] = {}
        foe_near = self.threat_dist(self.foe)
        for t in geo.towns:
            vp = geo.vp[t]
            held = self.control.get(t)
            d = foe_near.get(t, 7)
            if self.side == "Axis":
                if held != "Axis":
                    out[t] = vp + 1.0
                elif d <= 2 and not self.units["Axis"].get(t):
                    out[t] = (vp + 1.0) * 0.8
            else:
                if held == "Axis":
                    out[t] = (vp + 1.0) * 1.1
                else:
                    w = 1.0 if d <= 2 else 0.75 if d <= 4 else 0.35 if d <= 6 else 0.1
                    out[t] = (vp + 1.0) * w
        return out

    def field(self, cls: str) -> dict[str, float]:
        """Objective field: max over target towns of weight * 0.72^distance."""
        local = self._local.get(("field", cls))
        if local is not None:
            return local
        f = self._local[("field", cls)] = self._field(cls)
        return f

    def _field(self, cls: str) -> dict[str, float]:
        targets = self.targets()
        key = ("field", self.side, cls, tuple(sorted(targets.items())))
        f = self.memo.get(key)
        if f is not None:
            return f
        f = defaultdict(float)
        gamma = 0.72
        dcls = "A" if cls == "K" else cls
        for t, w in targets.items():
            dist = self.geo.dist(dcls, t)
            for h, c in dist.items():
                v = w * gamma ** c
                if v > f[h]:
                    f[h] = v
        self.memo[key] = f
        return f

    def threatened(self, t: str, side: str) -> bool:
        return self.threat_dist(enemy(side)).get(t, 7) <= 2

    def town_term(self, h: str, n: int) -> float:
        """Value of `n` of our combat units standing in town `h` at upkeep."""
        vp = self.geo.vp.get(h, 0)
        if not vp or n <= 0:
            return 0.0
        pl = self.player
        held = self.control.get(h)
        sat = 1 - 0.45 ** n
        if self.last:
            return vp * pl.CAPTURE * 3 if held != self.side else vp * pl.CAPTURE * 3 * sat
        threatened = self.threatened(h, self.side)
        if held != self.side:
            trucks_there = any(p.kind in self.k.truck for p in self.other[self.side].get(h, ()))
            cap = 0.0 if trucks_there else vp * pl.CAPTURE
            return cap + (vp * pl.HOLD * (sat - 0.55) if threatened else 0.0)
        if threatened:
            return vp * pl.HOLD * sat
        return vp * 0.3 * sat

    def attack_ev_near(self, h: str) -> float:
        """The best attack a stack drawing supply from around `h` could make next turn."""
        key = ("attack_ev_near", self.side, h)
        v = self.memo.get(key)
        if v is not None:
            return v
        geo, foe = self.geo, self.foe
        v = 0.0
        for s0 in (h,) + geo.nb[h]:
            us = self.units[self.side].get(s0)
            if not us or (s0 != h and self.control.get(s0) != self.side):
                continue
            for t in geo.nb[s0]:
                if self.units[foe].get(t) or self.other[foe].get(t):
                    v = max(v, self.attack_value(s0, t, list(us), simple=True))
        self.memo[key] = v
        return v

    def foe_supplied(self) -> set[str]:
        """Enemy stacks with a supply token within reach: the ones that can attack."""
        key = ("foe_supplied", self.side)
        out = self._local.get(key)
        if out is None:
            foe = self.for_side(self.foe)
            out = {h for h, us in self.units[self.foe].items() if us and foe.supply_in_reach(h) > 0}
            self._local[key] = out
        return out

    def threat_dice(self, h: str) -> float:
        """Dice the enemy could throw at `h` next turn (stacks without supply count little)."""
        cache = self._local.setdefault("threat_dice", {})
        d = cache.get(h)
        if d is not None:
            return d
        supplied = self.foe_supplied()
        d = 0.0
        for nb in self.geo.nb[h]:
            k = self.dice[self.foe].get(nb, 0)
            if k:
                d += k if nb in supplied else 0.25 * k
        cache[h] = d
        return d

    def danger(self, h: str, n_after: int) -> float:
        """Expected loss per unit in `h` (holding n_after units) to an attack next turn."""
        if self.state.turn >= self.last_turn:
            return 0.0
        d = round(self.threat_dice(h))
        if not d:
            return 0.0
        d = min(d, 12)
        m = max(1, n_after)
        p0, p1 = binom_tail(d, 0.5 / m)
        return (1 - p0 - p1) + 0.3 * p1

    def unit_value_at(self, kind: str, h: str, n_before: int, field_only: bool = False) -> float:
        """What one more `kind` of ours in `h` (which holds n_before of ours) is worth."""
        cache = self._local.setdefault("uva", {})
        key = (kind, h, n_before, field_only)
        v = cache.get(key)
        if v is None:
            v = cache[key] = self._unit_value_at(kind, h, n_before, field_only)
        return v

    def _unit_value_at(self, kind: str, h: str, n_before: int, field_only: bool = False) -> float:
        if self.units[self.foe].get(h):
            return -INF
        pl = self.player
        cls = self.k.cls.get(kind, "I")
        f = self.field(cls).get(h, 0.0) * pl.OBJ * (0.3 if self.last else 1.0) * (1.0 if kind in self.k.roadrunner else 0.6)
        if field_only:
            return f
        v = f
        n_after = n_before + 1
        if n_before == 0 and self.other[self.foe].get(h):
            # enemy trucks and supply alone in the hex: ours at upkeep
            v += sum(VALUE.get(p.kind, 1.0) * 1.5 for p in self.other[self.foe][h])
        if n_after > self.limit:
            v -= 50.0
        v += self.town_term(h, n_after) - self.town_term(h, n_before)
        v -= pl.DANGER * self.danger(h, n_after) * VALUE.get(kind, 1.0)
        if self.state.turn < self.last_turn and h in self.access():
            v += pl.ACCESS
        if not self.last and kind in self.k.dice and h in self.zoc[self.foe]:
            v += pl.POTENTIAL * self.attack_potential(h, self.k.dice[kind])
        # stacks next to the enemy want supply within reach for next turn's attacks
        if h in self.zoc[self.foe] and self.state.turn < self.last_turn:
            if self.supply_in_reach(h) > 0:
                v += 0.15
            v += 0.1 * min(n_before, 3)
        return v

    def move_gain(self, piece: Any, to: str, blitz_next: bool = False) -> float:
        """What moving `piece` to `to` gains (with a blitz step still to come, the best hex
        one step further counts too)."""
        src = piece.space
        n_src = self.count(self.side, src)
        n_dst = self.count(self.side, to)
        stay = self.unit_value_at(piece.kind, src, n_src - 1)
        go = self.unit_value_at(piece.kind, to, n_dst)
        if blitz_next:
            for n in self.geo.nb[to]:
                if self.can_step(to, n, piece.kind):
                    go = max(go, self.unit_value_at(piece.kind, n, self.count(self.side, n)) - 0.1)
        return go - stay

    # -- activation -----------------------------------------------------------------------------
    def can_step(self, a: str, b: str, kind: str) -> bool:
        """The rules' can_step on our scan of the board (b is a playable neighbour of a)."""
        if kind not in self.k.crosses and frozenset((a, b)) in self.geo.barrier:
            return False
        return not self.units[self.foe].get(b)

    def road_reach(self, start: str) -> set[str]:
        """Where a move along roads from `start` may end for our side, on our scan of the board."""
        key = ("road_reach", self.side, start)
        rr = self.memo.get(key)
        if rr is not None:
            return rr
        geo, foe = self.geo, self.foe
        zoc = self.zoc[foe]
        seen = {start}
        frontier = [start]
        starts_in_zoc = start in zoc
        while frontier:
            nxt = []
            for here in frontier:
                if here != start and (here in zoc or self.enemy_town(here) or starts_in_zoc):
                    continue
                for n in geo.road[here]:
                    if n in seen or self.units[foe].get(n):
                        continue
                    seen.add(n)
                    nxt.append(n)
            frontier = nxt
        self.memo[key] = seen
        return seen

    def enemy_town(self, h: str) -> bool:
        return self.control.get(h) == self.foe and (bool(self.geo.vp.get(h)) or self.geo.town_size.get(h, False))

    def reach(self, h: str, kind: str, blitz: bool = False) -> set[str]:
        """Where a unit of `kind` in `h` could end its move if activated (blitz: one more hex)."""
        out = {n for n in self.geo.nb[h] if self.can_step(h, n, kind)}
        if kind in self.k.roadrunner:
            out |= self.road_reach(h)
            if blitz:
                more = set()
                for r in out:
                    for n in self.geo.nb[r]:
                        if self.can_step(r, n, kind):
                            more.add(n)
                out |= more
        out.discard(h)
        return out

    def activation(self, decision: Decision) -> Action | None:
        """Pick the next hex to activate, from a plan made at the first call of the step."""
        plan = self.memo.get("act_plan")
        if plan is None:
            plan = self.plan_activation(decision)
            self.memo["act_plan"] = plan
        by_key = {(o.get("hex"), o.get("blitz")): o for o in decision.options if o.kind == "activate"}
        while plan:
            h, blitz = plan.pop(0)
            o = by_key.get((h, blitz)) or (by_key.get((h, False)) if blitz else None)
            if o is not None:
                return o
        return decision.finish

    def plan_activation(self, decision: Decision) -> list[tuple[str, bool]]:
        """Greedy: activate the hex whose units gain most by moving, net of the tokens it
        costs (dear when they are the last ones near a stack that could attack next turn),
        and repeat with the tokens left, counting the moves already planned."""
        cand: dict[str, bool] = {}
        for o in decision.options:
            if o.kind == "activate":
                cand[o["hex"]] = cand.get(o["hex"], False) or bool(o["blitz"])
        tokens = dict(self.supply[self.side])
        occupancy = {h: len(v) for h, v in self.units[self.side].items()}
        taken: set[str] = set()          # enemy towns someone already plans to enter
        plan: list[tuple[str, bool]] = []
        cost_a = self.opts["activation_cost"]
        cost_b = self.opts["blitz_cost"]
        evals: dict[tuple[str, bool], tuple[float, list, set]] = {}

        def hex_value(h: str, blitz: bool) -> tuple[float, list, set]:
            units = [p for p in self.units[self.side].get(h, ()) if "moved" not in p.status]
            total = 0.0
            moves = []
            local = dict(occupancy)
            seen = {h}
            for p in sorted(units, key=lambda u: -self.k.dice.get(u.kind, 0)):
                dests = self.reach(h, p.kind, blitz and p.kind in self.k.blitz)
                seen |= dests
                n_src = local.get(h, 0)
                stay = self.unit_value_at(p.kind, h, n_src - 1)
                best, best_g = None, 0.05
                for d in sorted(dests):
                    if d in taken and self.geo.vp.get(d) and self.control.get(d) != self.side:
                        g = self.unit_value_at(p.kind, d, max(1, local.get(d, 0))) - stay
                    else:
                        g = self.unit_value_at(p.kind, d, local.get(d, 0)) - stay
                    if g > best_g:
                        best, best_g = d, g
                if best is not None:
                    total += best_g
                    moves.append(best)
                    local[h] = local.get(h, 0) - 1
                    local[best] = local.get(best, 0) + 1
            return total, moves, seen

        budget = sum(tokens.values())
        while cand and budget > 0:
            best_key, best_net, best_moves = None, 0.0, []
            for h, can_blitz in cand.items():
                srcs = [s for s in self.sources(h) if tokens.get(s, 0) > 0]
                have = sum(tokens.get(s, 0) for s in srcs)
                for blitz in ((False, True) if can_blitz else (False,)):
                    need = cost_a + (cost_b if blitz else 0)
                    if have < need:
                        continue
                    hit = evals.get((h, blitz))
                    if hit is None:
                        hit = evals[(h, blitz)] = hex_value(h, blitz)
                    v, moves, _ = hit
                    reserve = 0.0 if self.last else 0.7 * self.attack_ev_near(h)
                    net = v - sum(max(token_cost(have - k, self.base_cost),
                                      reserve if have - k <= 2 else 0.0) for k in range(need))
                    if net > best_net:
                        best_key, best_net, best_moves = (h, blitz), net, moves
            if best_key is None:
                break
            h, blitz = best_key
            plan.append(best_key)
            del cand[h]
            need = cost_a + (cost_b if blitz else 0)
            for s in self.sources(h):
                while need and tokens.get(s, 0) > 0:
                    tokens[s] -= 1
                    need -= 1
                    budget -= 1
            changed = {h, *best_moves}
            for d in best_moves:
                occupancy[h] = occupancy.get(h, 0) - 1
                occupancy[d] = occupancy.get(d, 0) + 1
                if self.geo.vp.get(d):
                    taken.add(d)
            for k in [k for k, (_, _, seen) in evals.items() if seen & changed]:
                del evals[k]
        return plan

    # -- moves ---------------------------------------------------------------------------------
    def move(self, decision: Decision) -> Action | None:
        """The move that gains most (combat units first, then trucks), or `done`."""
        state = self.state
        skip = self.memo.setdefault("skip", set())
        best, best_g = None, 0.05
        truck_opts: dict[int, list[Action]] = defaultdict(list)
        loads: dict[int, list[Action]] = defaultdict(list)
        for o in decision.options:
            if o.kind == "load":
                loads[o["truck"]].append(o)
                continue
            if o.kind != "move":
                continue
            pids = o["pieces"]
            if len(pids) != 1:
                continue
            p = state.pieces[pids[0]]
            if p.kind in self.k.truck:
                truck_opts[p.id].append(o)
                continue
            if p.id in skip:
                continue
            blitz_next = p.kind in self.k.blitz and "blitz" in p.status and "moved" not in p.status
            g = self.move_gain(p, o["to"], blitz_next)
            if g > best_g:
                best, best_g = o, g
        if best is not None:
            return best
        # no combat unit wants to move: the trucks
        for tid in sorted(set(truck_opts) | set(loads)):
            if tid in skip:
                continue
            a = self.truck_action(state.pieces[tid], truck_opts.get(tid, []), loads.get(tid, []))
            if a is not None:
                return a
            skip.add(tid)
        return decision.finish

    # -- trucks -------------------------------------------------------------------------------
    def token_wants(self) -> dict[str, list[float]]:
        """What each of our stacks would do with one more supply token next turn, then a
        second, and so on (values, best first), after the tokens already within its reach
        and those our trucks are bringing this phase."""
        key = ("wants", self.side)
        wants = self.memo.get(key)
        if wants is not None:
            return wants
        side, foe = self.side, self.foe
        wants = {}
        for h, us in self.units[side].items():
            if not us:
                continue
            tanks = sum(1 for p in us if p.kind in self.k.roadrunner)
            move = self.player.INF_NEED * (len(us) - tanks) + tanks * self.tank_prospect(h)
            attack = 0.0
            if h in self.zoc[foe]:
                attack = max((self.attack_value(h, t, list(us), simple=True) for t in self.geo.nb[h]
                              if self.units[foe].get(t) or self.other[foe].get(t)), default=0.0)
            vals = sorted((v for v in (min(4.0, attack), min(6.0, move), 0.3 * min(6.0, move) if tanks else 0.0)
                           if v > 0.05), reverse=True)
            have = self.supply_in_reach(h)
            wants[h] = vals[have:]
        self.memo[key] = wants
        # cargo our trucks already carry toward stacks this phase (unloaded at its end)
        for h, k in self.player._deliveries.get((self.state.turn, side), ()):
            self.delivery_value(h, k, commit=True)
        return wants

    def served_by(self, h: str) -> list[str]:
        """Our stacks that could draw a token left in `h`."""
        side = self.side
        if self.units[self.foe].get(h):
            return []
        out = [h] if self.units[side].get(h) else []
        if self.control.get(h) == side or self.units[side].get(h):
            out += [n for n in self.geo.nb[h] if self.units[side].get(n)]
        return out

    def delivery_value(self, h: str, k: int, commit: bool = False) -> float:
        """What k tokens unloaded in `h` are worth: the best k uses among the stacks there
        and around (taken off their wants if `commit`)."""
        wants = self.token_wants()
        pool = []
        for s0 in self.served_by(h):
            for i, v in enumerate(wants.get(s0, ())):
                pool.append((v, s0, i))
        pool.sort(reverse=True)
        chosen = pool[:k]
        if commit:
            taken: dict[str, int] = defaultdict(int)
            for _, s0, _ in chosen:
                taken[s0] += 1
            for s0, n in taken.items():
                wants[s0] = wants[s0][n:]
            self._local.pop("need_map", None)
        return sum(v for v, _, _ in chosen)

    def supply_need(self) -> dict[str, float]:
        """What two tokens unloaded in each hex would be worth (for hexes near our stacks)."""
        need = self._local.get("need_map")
        if need is not None:
            return need
        need = {}
        for h, us in self.units[self.side].items():
            if not us:
                continue
            for x in (h,) + self.geo.nb[h]:
                if x not in need:
                    need[x] = self.delivery_value(x, 2)
        self._local["need_map"] = need
        return need

    def tank_prospect(self, h: str) -> float:
        """What a tank at `h` could take next turn: the best enemy town a road move away."""
        dist = self.geo.dist("T", h)
        best = self.player.TANK_IDLE
        for t in self.geo.towns:
            if self.control.get(t) != self.side and dist.get(t, INF) <= 2.2 and not self.units[self.foe].get(t):
                best = max(best, min(5.0, self.player.TANK_IDLE + 1.0 * self.geo.vp[t]))
        return best

    def note_delivery(self, h: str, tokens: int) -> None:
        if tokens:
            self.delivery_value(h, tokens, commit=True)
            self.player._deliveries.setdefault((self.state.turn, self.side), []).append((h, tokens))

    def access(self) -> set[str]:
        """Hexes a truck could bring supply next to: the road net our trucks reach from our
        board edge and from where they stand, plus hexes holding our tokens."""
        key = ("access", self.side)
        acc = self.memo.get(key)
        if acc is not None:
            return acc
        side = self.side
        reach: set[str] = set()
        starts = set(self.truck_entries())
        starts |= {p.space for ps in self.other[side].values() for p in ps if p.kind in self.k.truck}
        for e in sorted(starts):
            reach |= self.road_reach(e)
        reach |= {h for h, n in self.supply[side].items() if n}
        acc = set(reach)
        for h in reach:
            if self.control.get(h) == side or self.units[side].get(h):
                acc.update(self.geo.nb[h])
        self.memo[key] = acc
        return acc

    def truck_spot_value(self, truck: Any, h: str, cargo: list) -> float:
        """What the truck and its cargo are worth unloading at `h`."""
        key = (truck.id, h, tuple(sorted(c.kind for c in cargo)))
        cache = self._local.setdefault("spot", {})
        v = cache.get(key)
        if v is None:
            v = cache[key] = self._truck_spot_value(truck, h, cargo)
        return v

    def _truck_spot_value(self, truck: Any, h: str, cargo: list) -> float:
        v = 0.0
        last = self.state.turn >= self.last_turn
        in_foe_zoc = h in self.zoc[self.foe]
        n_supply = sum(1 for c in cargo if c.kind in self.k.supply)
        if n_supply and not last:
            v += self.delivery_value(h, n_supply)
            # tokens nobody can use yet: closer to the front is better than nothing
            v += 0.02 * n_supply * self.field("I").get(h, 0.0)
        n = self.count(self.side, h)
        for c in cargo:
            if c.kind in self.k.combat:
                v += self.unit_value_at(c.kind, h, n) * 0.8
                n += 1
        # a truck in an enemy town takes it for us at upkeep (any unit claims or retakes)
        vp = self.geo.vp.get(h, 0)
        if vp and self.control.get(h) != self.side and not self.units[self.side].get(h) and not any(
                p.kind in self.k.truck and p.id != truck.id for p in self.other[self.side].get(h, ())):
            v += vp * self.player.CAPTURE * (0.7 if not last else 3.0)
        if in_foe_zoc and not last:
            risk = min(1.0, self.threat_dice(h) / 3.0)
            v -= risk * (VALUE.get(truck.kind, 1.0) + sum(VALUE.get(c.kind, 1.0) for c in cargo if c.kind in self.k.supply)
                         + 0.8 * sum(1 for c in cargo if c.kind in self.k.combat))
        return v

    def truck_action(self, truck: Any, moves: list[Action], loads: list[Action]) -> Action | None:
        """Pick up supply it can carry somewhere better, or drive where its cargo (or the
        truck itself, taking an enemy town) is worth most; None to stay."""
        state = self.state
        cargo = [p for p in state.pieces_at(truck.space) if p.carrier == truck.id]
        here = self.truck_spot_value(truck, truck.space, cargo)
        # load supply if the truck can still drive it somewhere better
        room = self.k.capacity - len(cargo)
        supply_loads = [o for o in loads if state.pieces[o["piece"]].kind in self.k.supply]
        if supply_loads and room > 0 and "stopped" not in truck.status:
            tok = state.pieces[supply_loads[0]["piece"]]
            reach = self.road_reach(truck.space)
            need = self.supply_need()
            here_need = need.get(truck.space, 0.0)
            best_far = max((need.get(h, 0.0) for h in reach if h != truck.space), default=0.0)
            if best_far > here_need + 0.3:
                return next(o for o in supply_loads if o["piece"] == tok.id)
        best, best_v = None, here + 0.2
        for o in moves:
            v = self.truck_spot_value(truck, o["to"], cargo)
            if v > best_v:
                best, best_v = o, v
        n_supply = sum(1 for c in cargo if c.kind in self.k.supply)
        if best is not None:
            self.note_delivery(best["to"], n_supply)
        elif n_supply and not moves:
            self.note_delivery(truck.space, n_supply)
        return best

    def trucks_home(self, decision: Decision) -> Action | None:
        """Send home as many free trucks as the off-board supply and reinforcements need,
        the least useful first: off the board they load and come on again this phase."""
        state = self.state
        side = self.side
        off = self.offboard()
        off_supply = sum(1 for p in state.pieces_at(off) if p.kind in self.k.supply)
        off_trucks = sum(1 for p in state.pieces_at(off) if p.kind in self.k.truck)
        cargo_units = 0
        if side == "Allies":
            cargo_units = sum(1 for p in state.pieces_of(side) if p.kind in self.k.lifted
                              and 0 < scenario.chart_row(p.space)[1] <= state.turn)
        # a few tokens a truck: more trucks bring supply to more stacks
        wanted = math.ceil(off_supply / self.player.TRUCK_LOAD) + math.ceil(cargo_units / self.k.capacity)
        if off_trucks >= wanted or state.turn >= self.last_turn and side == "Axis":
            return decision.finish
        need = self.supply_need()
        best, best_v = None, -INF
        for o in decision.options:
            if o.kind != "truck_home":
                continue
            t = state.pieces[o["piece"]]
            # keep trucks that sit on supply they can carry on, and those holding towns
            stranded = self.supply[side].get(t.space, 0) > 0 and need.get(t.space, 0.0) < 0.5
            v = -self.field("K").get(t.space, 0.0) - (2.0 if stranded else 0.0)
            vp = self.geo.vp.get(t.space, 0)
            if vp and self.threatened(t.space, side):
                v -= 1.0
            if v > best_v:
                best, best_v = o, v
        return best or decision.finish

    # -- reinforcements -------------------------------------------------------------------------
    def reinforce(self, decision: Decision) -> Action | None:
        """Move what came on, then load and bring on the off-board trucks (supply spread over
        them, infantry and artillery with them), then place the rest from the charts."""
        state = self.state
        side = self.side
        opts = decision.options
        # 1. pieces that came on and may still move along the road
        moves = [o for o in opts if o.kind == "move"]
        if moves:
            a = self.move(Decision(decision.player, "move", "", moves + [Action("done")]))
            if a is not None and a.kind == "move":
                return a
        # 2. load the first off-board truck
        loads = [o for o in opts if o.kind == "load" and state.pieces[o["truck"]].space not in state.board]
        enters = [o for o in opts if o.kind == "enter"]
        if enters:
            truck = state.pieces[enters[0]["truck"]]
            cargo = [p for p in state.pieces.values() if p.carrier == truck.id]
            cap = self.k.capacity
            if self.last and side == "Axis":
                return self.best_entry(truck, cargo, enters)
            if len(cargo) < cap and loads:
                n_sup = sum(1 for p in cargo if p.kind in self.k.supply)
                sup_loads = [o for o in loads if state.pieces[o["piece"]].kind in self.k.supply]
                inf_loads = [o for o in loads if state.pieces[o["piece"]].kind in self.k.combat]
                off_trucks = sum(1 for p in state.pieces_at(self.offboard()) if p.kind in self.k.truck)
                share = math.ceil((len(sup_loads) + n_sup) / max(1, off_trucks))
                sup_target = min(cap, max(share, 2))
                if side == "Allies" and inf_loads:
                    sup_target = min(sup_target, 4)
                if sup_loads and n_sup < sup_target:
                    return sup_loads[0]
                if inf_loads:
                    # heavier first: artillery crawls, a lift helps it most
                    inf_loads.sort(key=lambda o: -self.k.dice.get(state.pieces[o["piece"]].kind, 0))
                    return inf_loads[0]
            if cargo:
                return self.best_entry(truck, cargo, enters)
        # 3. combat units from the charts
        places = [o for o in opts if o.kind == "place"]
        if places:
            return self.best_place(places)
        return decision.finish

    def best_entry(self, truck: Any, cargo: list, enters: list[Action]) -> Action:
        """Bring the truck on where the road leads to the best place for its cargo."""
        best, best_v = enters[0], -INF
        for o in enters:
            e = o["to"]
            reach = self.road_reach(e)
            v = max(self.truck_spot_value(truck, h, cargo) for h in reach)
            if v > best_v:
                best, best_v = o, v
        return best

    def best_place(self, places: list[Action]) -> Action:
        """The reinforcement and entry hex worth most (a tank by the best hex down its road)."""
        state = self.state
        best, best_v = places[0], -INF
        enemy_zoc = frozenset(self.zoc[self.foe])
        for o in places:
            p = state.pieces[o["piece"]]
            h = o["to"]
            v = self.unit_value_at(p.kind, h, self.count(self.side, h))
            if p.kind in self.k.roadrunner and h not in enemy_zoc:
                # a tank on a road keeps moving: judge it by the best hex down the road
                reach = self.reach(h, p.kind)
                if reach:
                    v = max(v, max(self.unit_value_at(p.kind, r, self.count(self.side, r)) for r in reach) - 0.2)
            if v > best_v:
                best, best_v = o, v
        return best

    # -- air ------------------------------------------------------------------------------------
    def air_placement(self, decision: Decision) -> Action | None:
        """Follow a plan made at our first placement: bombers and fighters together over the
        enemy stacks worth most (in VP towns, next to our units, not yet covered by their air)."""
        plan = self.memo.get("air_plan")
        if plan is None:
            plan = self.plan_air()
            self.memo["air_plan"] = plan
        by_key = {(o["kind"], o["to"]): o for o in decision.options}
        while plan:
            kind, h = plan.pop(0)
            o = by_key.get((kind, h))
            if o is not None:
                return o
        return decision.options[0]

    def plan_air(self) -> list[tuple[str, str]]:
        state = self.state
        side, foe = self.side, self.foe
        home = [p.kind for p in state.pieces_at(self.offboard()) if p.kind in self.k.air]
        bombers = sorted((k for k in home if k in self.k.strikers), key=self.k.strikers.index)
        fighters = sorted((k for k in home if k in self.k.escorts), key=self.k.escorts.index)
        scores = []
        for h, us in self.units[foe].items():
            if not us:
                continue
            val = sum(VALUE.get(p.kind, 1.0) for p in us) / len(us)
            vp = self.geo.vp.get(h, 0)
            w = val * (1 + 0.5 * len(us) ** 0.5)
            if vp:
                w *= 1 + 0.5 * vp
            if h in self.zoc[side]:
                w *= 1.5
            # enemy air already there (we place second): fighters to escort matter
            their_air = sum(1 for p in state.pieces_at(h) if p.kind in self.k.air and p.owner == foe)
            w /= 1 + 0.5 * their_air
            scores.append((w, h))
        scores.sort(reverse=True)
        if not scores:
            return []
        groups = max(1, min(len(scores), len(bombers) or 1))
        targets = [h for _, h in scores[:groups]]
        return [(kind, targets[i % len(targets)]) for group in (bombers, fighters) for i, kind in enumerate(group)]


def step_kind(kind: str) -> str:
    """A decision's kind without the side a rules step is named after (`axis_reinforce` -> `reinforce`)."""
    for side in ("axis_", "allies_"):
        if kind.startswith(side):
            return kind[len(side):]
    return kind


def token_cost(have: int, base: float) -> float:
    """The value of the next token spent out of `have` within reach: dear when it is the last."""
    if have >= 5:
        return 0.6 * base
    return (1.2, 1.2, 1.0, 0.8, 0.7)[max(0, have)] * base

