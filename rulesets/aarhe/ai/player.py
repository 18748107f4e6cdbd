"""A heuristic computer player for Axis & Allies Revised under LHTR 2.0 (and the layers over it).

It plans each phase of its power's turn once, when the phase asks its first question, and then
answers the phase's one-step-at-a-time decisions from that plan:

* purchase: a mix by the power's situation, read from unit stats and tags: the best defence
  for its cost while its capital is threatened, then attackers (units that are supported
  together with units that support them, and the best attack for its cost), and transports
  (with an escort when enemy ships are near) for a power whose factories have no land route
  to the enemy; never more than its factories can place;
* combat move: every enemy territory or fleet its units can reach, with the odds of the
  battle taken from the rules' own combat (the `odds` it is given when seated:
  engine.odds_protocol, answered by clients.odds_players), so AA fire, air combat, terrain
  and Low Luck count as the game plays them; it attacks where it wins often enough
  and gains by it, with the fewest units that give good odds, takes empty territories with
  its cheapest unit, lands amphibious assaults from its transports, and keeps enough units at
  home to hold its capital and factories against what the enemy could bring;
* conduct combat: sea battles first; casualties cheapest first, keeping a land unit to take
  the territory; it presses on while the odds are with it and retreats otherwise, its
  retreating aircraft flying to the nearest landing place the rules offer;
* non-combat move: units go where the enemy threatens what matters most, the rest toward the
  front; transports ferry the units of a power cut off by sea to friendly land at the front;
  warships keep with the transports; every aircraft lands where its side may land it, in
  the best such place in reach, flying only where a layer lets them enter (AARHE's
  `entry_refusal`);
* mobilize: land units at the factory nearest the front or most threatened, ships in the
  zone its transports sail from.

A layer's units bought for a place (AARHE's infantry raised at victory cities, at the rules'
`city_price`) are bought like any other, at the city most short of defence; the other
decisions AARHE adds (Lend-Lease, naval repair, air missions and the defenders' answers to
them, declared sea attacks, air reinforcement, moving and destroying industrial complexes)
are answered in layers.py.

It never names a unit type: what a unit is and does comes from its stats and tags. It may
name the lhtr and aarhe rules' step, move and procedure names. A decision it does not know
(another layer's new step or question) gets the decision's marked finish or a random legal
option, and anything that goes wrong inside falls back the same way, so it always answers
legally.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, Decision
from engine.odds_protocol import BattleChance, BattleOdds
from engine.pieces import Piece
from engine.state import GameState
from rulesets.aarhe.ai import layers
from rulesets.aarhe.ai.world import INF, View, bfs, paths

PlanKey = tuple[int, int, int, int, str]


@dataclass
class Task:
    """One unit's move: `go` steps it through `path`; `land` unloads transport `uid` into
    path[0]. `board`: the transport a land unit stepping into a sea zone boards."""

    kind: str
    uid: int
    path: list[str]
    board: int | None = None
    done: bool = False


@dataclass
class Plan:
    key: PlanKey
    tasks: list[Task] = field(default_factory=list)
    buys: list[Any] = field(default_factory=list)
    steps: int = 0
    #: aircraft the combat plan wants (they fly no air mission)
    busy: set[int] = field(default_factory=set)
    #: (unit, transport): a unit stepping into a sea zone to board the transport planned
    boarding: tuple[int, int] | None = None

    def pending(self) -> Task | None:
        for t in self.tasks:
            if not t.done:
                return t
        return None

    def swap(self, a: int, b: int) -> None:
        """Units a and b are interchangeable (the rules offer b for a): swap their orders."""
        for t in self.tasks:
            if t.done:
                continue
            if t.uid == a:
                t.uid = b
            elif t.uid == b:
                t.uid = a
            if t.board == a:
                t.board = b
            elif t.board == b:
                t.board = a


class HeuristicPlayer:
    """Plans each phase from the position, with battle odds from the rules' own combat."""

    name = "heuristic"
    #: seated with battle odds from the rules (clients.seats gives them)
    takes_odds = True

    #: attack when the attacker wins at least this often and gains by it ...
    MIN_WIN = 0.72
    #: ... and bring units until it wins this often (or has nothing more to bring)
    GOOD_WIN = 0.93
    #: how much of the threat to each kind of territory its defence should match
    HOLD_CAPITAL = 1.3
    HOLD_FACTORY = 1.0
    HOLD_CITY = 0.9
    HOLD_OTHER = 0.5
    #: a power cut off by sea stops buying transports when it has this many
    MOST_TRANSPORTS = 8
    #: most decisions one planned phase may take before the player ends it
    MAX_STEPS = 3000

    def __init__(self, seed: int = 0, debug: bool = False, *, odds: BattleOdds) -> None:
        self.rng = random.Random(seed)
        self.debug = debug
        self.plan: Plan | None = None
        self.active: Task | None = None
        self.battle_odds = odds
        #: layers.convoy_relief's answers in this game
        self._relief: dict[Any, float] = {}
        #: layers.mean_of's answers in this game
        self._means: dict[Any, float] = {}
        #: layers.upkeep_map's answers in this game, by turn
        self._upkeep: dict[Any, dict[str, float]] = {}

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
                raise RuntimeError(f"heuristic chose {action}, not an option of `{decision.kind}`")
            return self.fallback(decision)
        return action

    def fallback(self, decision: Decision) -> Action:
        """The safe answer to a decision it does not understand."""
        if decision.finish is not None:
            return decision.finish
        return decision.sample(self.rng)

    def _choose(self, rs: Any, state: GameState, decision: Decision) -> Action | None:
        if decision.kind == "choose":
            return self._question(rs, state, decision)
        handler = self._STEPS.get(decision.kind) or layers.STEPS.get(decision.kind)
        if handler is None:
            return None
        key = (state.turn, state.power_index, state.phase_index, state.step_index, decision.player)
        fresh = self.plan is None or self.plan.key != key
        if fresh:
            self.plan = Plan(key)
            self.active = None
        assert self.plan is not None
        self.plan.steps += 1
        if self.plan.steps > self.MAX_STEPS:
            return decision.finish
        view = View(rs, state, decision.player)
        return handler(self, view, decision, fresh)

    # -- purchase -------------------------------------------------------------------------------
    def _purchase(self, v: View, d: Decision, fresh: bool) -> Action | None:
        assert self.plan is not None
        buys = {o.get("kind"): o for o in d.options if o.kind == "buy"}
        at_city = self.city_offers(v, d)
        if fresh:
            kinds = [k for k in buys if isinstance(k, str)]
            self.plan.buys = self.shopping(v, kinds, at_city)
        money = v.state.resource(v.me, "ipc")
        while self.plan.buys:
            kind = self.plan.buys.pop(0)
            if isinstance(kind, tuple):
                # a unit raised at a city: the best city offered now, at its price now (a
                # city's price may have risen with what was bought there)
                k, _ = kind
                offers = [(self._city_rank(v, c), c) for (kk, c), (o, pr, _) in at_city.items()
                          if kk == k and pr <= money]
                if offers:
                    _, c = min(offers)
                    return at_city[(k, c)][0]
                if k in buys and v.call("price", k, v.me) <= money:
                    return buys[k]
                continue
            if kind in buys and v.call("price", kind, v.me) <= money:
                return buys[kind]
        return d.finish

    def city_offers(self, v: View, d: Decision) -> dict[tuple[str, str], tuple[Action, int, int]]:
        """Units a layer has bought for a place, not at a factory (AARHE's infantry raised at
        victory cities, `buy_at_city`): (kind, city) -> (the option, its price, the room the
        city has), prices and room as the rules' own `city_price` and `city_room` give them."""
        out: dict[tuple[str, str], tuple[Action, int, int]] = {}
        if not (v.rules.has_procedure("city_price") and v.rules.has_procedure("city_room")):
            return out
        for o in d.options:
            if o.kind != "buy_at_city":
                continue
            k, c = o.get("kind"), o.get("city")
            if not isinstance(k, str) or not isinstance(c, str):
                continue
            out[(k, c)] = (o, int(v.call("city_price", k, v.me, c)), max(0, int(v.call("city_room", c, v.me))))
        return out

    def _city_rank(self, v: View, city: str) -> tuple[float, int, str]:
        """Where a unit raised at a city is best bought: where the threat most exceeds the
        defence, then nearest the front."""
        short = v.threat().get(city, 0.0) - v.defence_at(city)
        return (-short, min(v.front_dist(city), 99), city)

    def shopping(self, v: View, kinds: list[str],
                 at_city: dict[tuple[str, str], tuple[Action, int, int]] | None = None) -> list[Any]:
        """What to buy this turn, in order: a kind bought at a factory, or (kind, None) for
        one raised at a city (the city chosen when it is bought)."""
        me = v.me
        money = v.state.resource(me, "ipc")
        at_city = at_city or {}
        price = {k: int(v.call("price", k, me)) for k in kinds}
        # units raised at cities: their cheapest price now, and each city's room
        city_price: dict[str, int] = {}
        city_room: dict[str, int] = {}
        for (k, c), (_, pr, r) in at_city.items():
            if r <= 0:
                continue
            city_price[k] = min(pr, city_price.get(k, pr))
            city_room[c] = r
        for k, pr in city_price.items():
            price[k] = min(pr, price.get(k, pr))
        types = v.types
        factories = list(v.call("factories_of", me))
        room = sum(max(0, int(v.call("room_at", f))) for f in factories)
        city_slots = {k: sum(r for (kk, c), (_, _, r) in at_city.items() if kk == k and r > 0) for k in city_price}
        if (room <= 0 and not any(city_slots.values())) or money <= 0:
            return []

        def ok(k: str) -> bool:
            t = types[k]
            return price[k] > 0 and "factory" not in t.tags

        land = [k for k in price if ok(k) and "land" in types[k].tags and types[k].move > 0
                and (types[k].attack > 0 or types[k].defence > 0)]
        if not land:
            return []
        defender = max(land, key=lambda k: (types[k].defence / price[k], -price[k]))
        supporters = [k for k in land if types[k].supports > 0]
        supported = [k for k in land if "supported" in types[k].tags]
        attacker = max(land, key=lambda k: (types[k].attack / price[k], types[k].move, -price[k]))
        plan: list[Any] = []
        budget = money

        def buy(k: str) -> bool:
            nonlocal budget, room
            if k in city_slots and city_slots[k] > 0 and city_price[k] <= budget:
                plan.append((k, None))
                budget -= city_price[k]
                city_slots[k] -= 1
                return True
            if room <= 0 or k not in kinds or int(v.call("price", k, me)) > budget:
                return False
            plan.append(k)
            budget -= int(v.call("price", k, me))
            room -= 1
            return True

        def slots_left() -> bool:
            return room > 0 or any(n > 0 for n in city_slots.values())

        threat = v.threat()
        cap = v.capital()
        # 1. hold the capital
        if cap and cap in v.geo.land_set and v.control.get(cap) in v.friends:
            deficit = threat.get(cap, 0.0) * self.HOLD_CAPITAL - v.defence_at(cap)
            per = max(1e-6, min(types[defender].defence, 6) / 6.0)
            for _ in range(max(0, math.ceil(deficit / per))):
                if budget < price[defender] * 1.0 or not buy(defender):
                    break
        # 2. a power cut off by sea needs transports (and an escort where enemy ships are)
        stranded = bool(factories) and all(v.front_dist(f) >= INF for f in factories)
        if stranded:
            plan_sea = self._naval_needs(v, kinds, price, factories, budget, room)
            for k in plan_sea:
                buy(k)
        # 3. the rest: attackers with the units that support them, and defenders
        pattern: list[str] = []
        if supported and supporters:
            sup = min(supported, key=lambda k: price[k])
            best_supporter = max(supporters, key=lambda k: (types[k].attack + types[k].support_bonus) / price[k])
            pattern = [sup, best_supporter, attacker, defender, best_supporter, sup]
        else:
            pattern = [attacker, defender]
        if v.front_dist(cap) <= 1 and threat.get(cap, 0.0) > v.defence_at(cap):
            pattern = [defender, defender] + pattern
        i = 0
        misses = 0
        cheapest = min(price[k] for k in land)
        while slots_left() and budget >= cheapest and misses < len(pattern):
            if buy(pattern[i % len(pattern)]):
                misses = 0
            else:
                misses += 1
            i += 1
        # money left over with no room: better units instead of cheaper ones
        if budget > 0 and room <= 0:
            for j, k in enumerate(plan):
                if k == defender and attacker != defender and attacker in kinds and price[attacker] - price[k] <= budget:
                    budget -= price[attacker] - price[k]
                    plan[j] = attacker
        return plan

    def _naval_needs(self, v: View, kinds: list[str], price: dict[str, int], factories: list[str],
                     budget: int, room: int) -> list[str]:
        types = v.types
        carriers = [k for k in kinds if "carries_land" in types[k].tags and price[k] > 0]
        if not carriers:
            return []
        transport = min(carriers, key=lambda k: price[k])
        geo = v.geo
        # (in a defined order: the danger below is a sum of floats in the walk's order)
        home = sorted({z for f in factories for z in geo.coast.get(f, ())})
        near = bfs(home, geo.sea_nb, limit=2)
        mine = [p for p in v.mine if "carries_land" in v.tags(p) and p.space in near]
        waiting = sum(1 for f in factories for p in v.at.get(f, ())
                      if p.owner == v.me and "land" in v.tags(p) and v.fights(p))
        out: list[str] = []
        # escort: enemy warships or bombers in striking distance of the home zones
        danger = 0.0
        for z in bfs(home, geo.sea_nb, limit=2):
            danger += sum(v.attack_p(p) for p in v.at.get(z, ()) if p.owner in v.foes and "sea" in v.tags(p))
        guard = sum(v.defence_p(p) for z in near for p in v.at.get(z, ())
                    if p.owner in v.friends and "sea" in v.tags(p) and "carries_land" not in v.tags(p))
        ships = [k for k in kinds if "sea" in types[k].tags and "carries_land" not in types[k].tags
                 and types[k].carrier_capacity == 0 and price[k] > 0 and types[k].defence > 0]
        spend = 0
        if danger > guard and ships:
            escort = max(ships, key=lambda k: (types[k].defence * types[k].hits_to_kill / price[k], -price[k]))
            if price[escort] <= budget * 0.5:
                out.append(escort)
                spend += price[escort]
        trips = len(mine)
        fleet = sum(1 for p in v.mine if "carries_land" in v.tags(p))
        for _ in range(3):
            if waiting + 2 * (room - len(out)) // 3 <= 2 * trips or spend + price[transport] > budget * 0.6:
                break
            if fleet >= self.MOST_TRANSPORTS:
                break
            fleet += 1
            out.append(transport)
            spend += price[transport]
            trips += 1
        return out[:max(0, room - 1)]

    # -- mobilize -------------------------------------------------------------------------------
    def _mobilize(self, v: View, d: Decision, fresh: bool) -> Action | None:
        burn = layers.scorch(self, v, d)
        if burn is not None:
            return burn
        best, best_score = None, -math.inf
        threat = v.threat()
        upkeep = layers.upkeep_map(v, self._upkeep)
        for o in d.options:
            if o.kind != "place":
                continue
            u = v.state.pieces.get(o.get("u"))
            if u is None:
                continue
            at, to = o.get("at"), o.get("to")
            tags = v.tags(u)
            if "factory" in tags:
                continue
            score = 0.0
            if to in v.geo.sea:
                score = self._zone_score(v, to, u)
            else:
                score = -2.0 * min(v.front_dist(at), 20)
                score += 3.0 * max(0.0, threat.get(at, 0.0) - v.defence_at(at))
                score -= upkeep.get(at, 0.0)
                if at == v.capital():
                    score += 1.0
                if "air" in tags and to != at:
                    score -= 5.0
            if score > best_score:
                best, best_score = o, score
        return best if best is not None else d.finish

    # -- bids (before round 1) -----------------------------------------------------------------
    def _place_bid(self, v: View, d: Decision, fresh: bool) -> Action | None:
        """Simply: the cheapest land unit that defends, in the offered territory where the enemy
        could bring the most against what stands there (nearer the front on a tie)."""
        bids = [o for o in d.options if o.kind == "bid"]
        land = [o for o in bids if "land" in v.types[o.get("kind")].tags and v.types[o.get("kind")].defence > 0]
        if not land:
            return d.finish
        cheapest = min(v.types[o.get("kind")].cost for o in land)
        return self._neediest(v, [o for o in land if v.types[o.get("kind")].cost == cheapest])

    def _neediest(self, v: View, options: list[Action]) -> Action:
        """Of options that put a unit somewhere (`to`), the one where the enemy could bring the
        most against what stands there (nearer the front on a tie)."""
        threat = v.threat()

        def need(o: Action) -> tuple[float, int, str]:
            s = str(o.get("to"))
            return (threat.get(s, 0.0) - v.defence_at(s), -min(v.front_dist(s), 99), s)

        return max(options, key=need)

    def _chinese_division(self, v: View, d: Decision, fresh: bool) -> Action | None:
        """A free infantry is always taken, where it is needed most."""
        places = [o for o in d.options if o.kind == "place_division"]
        return self._neediest(v, places) if places else d.finish

    def _zone_score(self, v: View, z: str, u: Piece) -> float:
        """Where a new ship goes: with its power's ships, on the way to the front, out of
        reach of enemy fleets."""
        geo = v.geo
        score = 0.0
        score += sum(1.0 for p in v.at.get(z, ()) if p.owner == v.me)
        dest = self._ferry_targets(v)
        if dest:
            dist = bfs([z], geo.sea_nb)
            score -= min((dist.get(zz, INF) for zz in dest), default=INF) * 0.5
        near = bfs([z], geo.sea_nb, limit=2)
        score -= sum(v.attack_p(p) for zz in near for p in v.at.get(zz, ())
                     if p.owner in v.foes and "sea" in v.tags(p))
        return score

    # -- combat move --------------------------------------------------------------------------------
    def _combat_move(self, v: View, d: Decision, fresh: bool) -> Action | None:
        assert self.plan is not None
        if fresh:
            self.plan.tasks = self.plan_attacks(v)
        return self._next_move(v, d)

    def plan_attacks(self, v: View) -> list[Task]:
        geo = v.geo
        movable = [u for u in v.mine if v.may_move(u, True)]
        keep = self.reserve(v, movable)
        free = [u for u in movable if u.id not in keep]
        reach: dict[int, dict[str, list[str]]] = {}
        # aircraft attack only where they can fly back to land: a carrier may yet move or sink
        back = v.state.vars.get("land_reach") or {}
        for u in free:
            tags = v.tags(u)
            left = v.moves_left(u)
            if v.attack_p(u) <= 0 or int(v.t(u).carrier_capacity) > 0:
                continue
            if "air" in tags:
                ps = paths(u.space, v.air_steps(u, True), left)
                home = v.air_home(u, back, False)
                reach[u.id] = {t: p for t, p in ps.items() if p and t in home and home[t] <= left - len(p)
                               and (v.is_enemy_land(t) or (t in geo.sea and v.hostile_sea(t)))}
            elif "sea" in tags:
                reach[u.id] = {t: p for t, p in self.sea_paths(v, u, left, True).items()
                               if p and v.hostile_sea(t)}
            elif "land" in tags:
                reach[u.id] = {t: p for t, p in self.land_paths(v, u, left, True).items()
                               if p and v.is_enemy_land(t)}
        by_id = {u.id: u for u in free}
        used: set[int] = set()
        tasks: list[Task] = []
        taken: set[str] = set()
        # battles: the most valuable first
        targets = {t for r in reach.values() for t in r}
        battles = []
        # a sea zone is worth the convoy raids its enemy ships cost the side each turn
        relief: dict[str, float] = {}
        for t in sorted(targets):
            defs = v.defenders(t)
            if not defs:
                continue
            if t not in geo.land_set:
                relief[t] = layers.convoy_relief(v, t, self._relief)
            worth = (v.value(t) if t in geo.land_set else relief[t]) + sum(v.t(p).cost for p in defs) * 0.5
            battles.append((worth, t))
        battles.sort(key=lambda x: (-x[0], x[1]))
        amphibious = self.amphibious_options(v, free, keep)
        for _, t in battles:
            cands = [by_id[i] for i, r in reach.items() if t in r and i not in used]
            sea_t = t in geo.sea
            extra: list[Piece] = []
            lift: list[tuple[Piece, list[Piece], list[str]]] = []
            if not sea_t:
                for tr, cargo, zone_path in amphibious.get(t, ()):
                    if tr.id in used or any(c.id in used for c in cargo):
                        continue
                    lift.append((tr, cargo, zone_path))
                    extra += cargo
            main = [u for u in cands if ("sea" in v.tags(u)) == sea_t and "air" not in v.tags(u)]
            air = [u for u in cands if "air" in v.tags(u)]
            direct = {u.id for u in main}
            extra = [u for u in extra if u.id not in direct]
            main.sort(key=lambda u: (-v.attack_p(u) / max(1, v.t(u).cost), v.t(u).cost, u.id))
            air.sort(key=lambda u: (-v.attack_p(u), v.t(u).cost, u.id))
            order = main + extra + air
            if not order or (not sea_t and not any("land" in v.tags(u) for u in order)):
                continue
            chosen, odds = self.fewest(v, order, t)
            if odds is None:
                continue
            value = v.value(t) if not sea_t else 2.0 + relief.get(t, 0.0)
            ev = odds.win * value + odds.gain
            if odds.win < self.GOOD_WIN and (odds.win < self.MIN_WIN or ev <= 0):
                continue
            ids = {u.id for u in chosen}
            for u in chosen:
                if u.id in reach and t in reach[u.id]:
                    used.add(u.id)
                    tasks.append(Task("go", u.id, list(reach[u.id][t])))
            for tr, cargo, zone_path in lift:
                aboard = [c for c in cargo if c.id in ids and c.id not in direct]
                if not aboard:
                    continue
                used.add(tr.id)
                for c in aboard:
                    used.add(c.id)
                    if c.carrier is None:
                        tasks.insert(0, Task("go", c.id, [tr.space], board=tr.id))
                tasks.append(Task("go", tr.id, list(zone_path)))
                tasks.append(Task("land", tr.id, [t]))
            taken.add(t)
        # empty enemy territory: the cheapest unit that can walk in
        empties = sorted((t for t in targets if t in geo.land_set and t not in taken and not v.defenders(t)),
                         key=lambda t: (-v.value(t), t))
        for t in empties:
            if t in taken:
                continue
            cands = [by_id[i] for i, r in reach.items() if t in r and i not in used and "land" in v.tags(by_id[i])]
            if not cands:
                continue
            u = min(cands, key=lambda u: (v.t(u).cost, -v.moves_left(u), u.id))
            path = reach[u.id][t]
            used.add(u.id)
            tasks.append(Task("go", u.id, list(path)))
            taken.update(s for s in path if v.is_enemy_land(s))
        # moves in order: boarding first, then ships, land units, aircraft
        def rank(task: Task) -> int:
            p = v.state.pieces.get(task.uid)
            if task.board is not None:
                return 0
            if p is None:
                return 5
            tags = v.tags(p)
            if "sea" in tags:
                return 1 if task.kind == "go" else 2
            return 3 if "land" in tags else 4

        tasks.sort(key=rank)
        return tasks

    def fewest(self, v: View, order: list[Piece], where: str) -> tuple[list[Piece], BattleChance | None]:
        """The shortest prefix of `order` that wins with GOOD_WIN (or all of it)."""
        full = self.odds(v, order, where)
        if full.win < self.MIN_WIN:
            return order, None
        if full.win < self.GOOD_WIN:
            return order, full
        lo, hi = 1, len(order)
        best = full
        while lo < hi:
            mid = (lo + hi) // 2
            o = self.odds(v, order[:mid], where)
            if o.win >= self.GOOD_WIN:
                hi, best = mid, o
            else:
                lo = mid + 1
        if hi == len(order):
            best = full
        return order[:hi], best

    def amphibious_options(self, v: View, free: list[Piece], keep: set[int]
                           ) -> dict[str, list[tuple[Piece, list[Piece], list[str]]]]:
        """For each enemy territory, the transports that could land units on it this combat
        move: (transport, the units it would carry, the zones it sails through)."""
        geo = v.geo
        out: dict[str, list[tuple[Piece, list[Piece], list[str]]]] = defaultdict(list)
        free_ids = {u.id for u in free}
        claimed: set[int] = set()
        for tr in v.mine:
            if "carries_land" not in v.tags(tr) or "unloaded" in tr.status:
                continue
            aboard = v.carried(tr)
            if not v.may_move(tr, True) and not aboard:
                continue
            room = int(v.t(tr).transport_capacity) - sum(int(v.t(c).transport_size) for c in aboard)
            cargo = [c for c in aboard if v.attack_p(c) > 0]
            if "combat_moved" not in tr.status:
                loaders = sorted((u for s in geo.shore.get(tr.space, ()) for u in v.at.get(s, ())
                                  if u.id in free_ids and u.id not in claimed and "land" in v.tags(u)
                                  and 0 < int(v.t(u).transport_size) and v.attack_p(u) > 0),
                                 key=lambda u: (-int(v.t(u).transport_size), -v.attack_p(u), u.id))
                for u in loaders:
                    size = int(v.t(u).transport_size)
                    if size <= room:
                        cargo.append(u)
                        room -= size
                        claimed.add(u.id)
            if not cargo:
                continue
            left = v.moves_left(tr) if v.may_move(tr, True) else 0
            zones = self.sea_paths(v, tr, left, False)
            seen: set[str] = set()
            for z, zp in sorted(zones.items(), key=lambda x: len(x[1])):
                if v.hostile_sea(z):
                    continue
                for t in geo.shore.get(z, ()):
                    if t not in seen and v.is_enemy_land(t):
                        seen.add(t)
                        out[t].append((tr, cargo, zp))
        return out

    def land_paths(self, v: View, u: Piece, left: int, combat: bool) -> dict[str, list[str]]:
        geo = v.geo
        blitz = "blitz" in v.tags(u)
        start = u.space

        def nb(s: str) -> list[str]:
            if s != start:
                if v.is_enemy_land(s) and not (blitz and not v.defenders(s)):
                    return []
                if v.defenders(s):
                    return []
            out = []
            for n in geo.land_nb.get(s, ()):
                if v.is_enemy_land(n):
                    if combat:
                        out.append(n)
                elif v.is_friendly_land(n) and not v.defenders(n):
                    out.append(n)
            return out

        return paths(start, nb, left)

    def sea_paths(self, v: View, u: Piece, left: int, combat: bool) -> dict[str, list[str]]:
        geo = v.geo
        start = u.space
        me = v.me

        def nb(s: str) -> list[str]:
            if s != start and v.hostile_sea(s):
                return []
            return [n for n in geo.sea_nb.get(s, ()) if (combat or not v.hostile_sea(n))
                    and v.call("canal_open", s, n, me)]

        if start not in geo.sea:
            return {}
        return paths(start, nb, left)

    def reserve(self, v: View, movable: list[Piece]) -> set[int]:
        """Units that stay home to hold the capital and the factories."""
        threat = v.threat()
        cap = v.capital()
        keep: set[int] = set()
        places = []
        if cap in v.geo.land_set:
            places.append((cap, self.HOLD_CAPITAL))
        for s in v.geo.land:
            if s != cap and v.control.get(s) == v.me and any("factory" in v.tags(p) for p in v.at.get(s, ())):
                places.append((s, self.HOLD_FACTORY))
        moving = {u.id for u in movable}
        for s, w in places:
            need = threat.get(s, 0.0) * w
            have = v.defence_at(s, without=frozenset(moving))
            here = sorted((u for u in movable if u.space == s and v.fights_in(u, s)),
                          key=lambda u: (-v.defence_p(u) / max(1, v.t(u).cost), u.id))
            for u in here:
                if have >= need:
                    break
                keep.add(u.id)
                have += v.defence_p(u)
        return keep

    # -- odds -------------------------------------------------------------------------------------
    def odds(self, v: View, attackers: list[Piece], where: str, defenders: list[Piece] | None = None) -> BattleChance:
        """The odds of `attackers` fighting in `where`, from the rules; the attacker wins a
        territory only with a land unit left to take it."""
        fighting = [u for u in attackers if v.fights_in(u, where)]
        # the enemy's pieces there that fire no shot in a round (an AA gun) still count
        owners = {u.owner for u in attackers}
        quiet = [p for p in v.enemy_at(where) if p.carrier is None and p.owner not in owners and not v.fights_in(p, where)]
        defs = (v.defenders(where) if defenders is None else list(defenders)) + quiet
        o = self.battle_odds.battle(v.rs, v.state, fighting, where, defs)
        if where in v.geo.land_set:
            o = dataclasses.replace(o, win=min(o.win, o.win_with(lambda kind: "land" in v.types[kind].tags)))
        return o

    # -- conduct combat ------------------------------------------------------------------------------
    def _conduct_combat(self, v: View, d: Decision, fresh: bool) -> Action | None:
        fights = [o for o in d.options if o.kind == "fight"]
        if fights:
            fights.sort(key=lambda o: (o.get("where") not in v.geo.sea, str(o.get("where"))))
            return fights[0]
        others = [o for o in d.options if o.kind != "rocket"]
        return (others or d.options)[0]

    # -- non-combat move ------------------------------------------------------------------------------
    def _noncombat_move(self, v: View, d: Decision, fresh: bool) -> Action | None:
        assert self.plan is not None
        if fresh:
            self.plan.tasks = self.plan_positions(v)
        return self._next_move(v, d)

    def plan_positions(self, v: View) -> list[Task]:
        geo = v.geo
        movable = [u for u in v.mine if v.may_move(u, False)]
        moving = frozenset(u.id for u in movable)
        threat = v.threat()
        cap = v.capital()
        factories = {s for s in geo.land if v.control.get(s) == v.me
                     and any("factory" in v.tags(p) for p in v.at.get(s, ()))}
        # what each friendly territory still needs, counting only the units that stay put
        need: dict[str, float] = {}
        weight: dict[str, float] = {}
        for s in geo.land:
            if not v.is_friendly_land(s) or threat.get(s, 0.0) <= 0:
                continue
            w = (self.HOLD_CAPITAL if s == cap else self.HOLD_FACTORY if s in factories
                 else self.HOLD_CITY if s in geo.vc else self.HOLD_OTHER if geo.ipc.get(s, 0) > 0 else 0.2)
            weight[s] = w
            need[s] = threat[s] * w - v.defence_at(s, without=moving)
        land_units = [u for u in movable if "land" in v.tags(u) and v.fights(u)]
        reach = {u.id: self.land_paths(v, u, v.moves_left(u), False) for u in land_units}
        assigned: dict[int, str] = {}
        # 1. defence, most valuable first
        for s in sorted(need, key=lambda s: (-v.value(s) * weight[s], s)):
            if need[s] <= 0:
                continue
            cands = [u for u in land_units if u.id not in assigned and s in reach[u.id]]
            cands.sort(key=lambda u: (len(reach[u.id][s]), -v.defence_p(u) / max(1, v.t(u).cost), u.id))
            for u in cands:
                if need[s] <= 0:
                    break
                assigned[u.id] = s
                need[s] -= v.defence_p(u)
        tasks: list[Task] = []
        # 2. transports ferry units that have no land route to the enemy
        stranded = [u for u in land_units if u.id not in assigned and v.front_dist(u.space) >= INF]
        ferry_tasks, ferried = self.plan_ferry(v, [u for u in movable if "carries_land" in v.tags(u)], stranded)
        tasks += ferry_tasks
        # 3. the rest of the land units toward the front
        vc_dist = bfs([s for s in geo.vc if v.is_enemy_land(s)], geo.land_nb)
        upkeep = layers.upkeep_map(v, self._upkeep)
        for u in land_units:
            if u.id in ferried:
                continue
            if u.id in assigned:
                s = assigned[u.id]
                if s != u.space:
                    tasks.append(Task("go", u.id, list(reach[u.id][s])))
                continue
            best, best_score = u.space, self._place_score(v, u.space, need, vc_dist, upkeep)
            for s, p in reach[u.id].items():
                score = self._place_score(v, s, need, vc_dist, upkeep) + 0.01 * len(p)
                if score < best_score - 1e-9:
                    best, best_score = s, score
            if best != u.space:
                need[best] = need.get(best, 0.0) - v.defence_p(u)
                tasks.append(Task("go", u.id, list(reach[u.id][best])))
        # 4. aircraft land where their side may land them (planned now, flown last)
        landings = self.plan_landings(v, [u for u in movable if "air" in v.tags(u)], need)
        decks = {t.path[-1] for t in landings if t.path} | {u.space for u in v.mine if "lands_on_carrier" in v.tags(u)}
        # 5. warships keep with the transports; carriers stay under the fighters they carry
        ends = [t.path[-1] for t in ferry_tasks if t.kind == "go" and t.path and t.path[-1] in geo.sea]
        ends += [p.space for p in v.mine if "carries_land" in v.tags(p)]
        for u in movable:
            tags = v.tags(u)
            if "sea" not in tags or "carries_land" in tags or not ends:
                continue
            if u.space in ends:
                continue
            if int(v.t(u).carrier_capacity) > 0 and u.space in decks:
                continue
            ps = self.sea_paths(v, u, v.moves_left(u), False)
            goal = [z for z in ends if z in ps]
            if goal:
                z = min(goal, key=lambda z: (len(ps[z]), z))
                tasks.append(Task("go", u.id, list(ps[z])))
        return tasks + landings

    def _place_score(self, v: View, s: str, need: dict[str, float], vc_dist: dict[str, int],
                     upkeep: dict[str, float] | None = None) -> float:
        """Lower is better: near the front, near enemy cities, where defence is short, and
        where standing costs no upkeep (the rules' `upkeep_at`: AARHE's deserts)."""
        f = v.front_dist(s)
        if f >= INF:
            return float(INF)
        cost = upkeep.get(s, 0.0) if upkeep else 0.0
        return 2.0 * f + 0.3 * min(vc_dist.get(s, 30), 30) - 0.5 * max(0.0, min(need.get(s, 0.0), 3.0)) + cost

    def _ferry_targets(self, v: View) -> set[str]:
        """Sea zones next to friendly land with a land route to the enemy."""
        geo = v.geo
        out = set()
        for s in geo.land:
            if v.is_friendly_land(s) and v.front_dist(s) <= 3:
                for z in geo.coast.get(s, ()):
                    if not v.hostile_sea(z):
                        out.add(z)
        return out

    def plan_ferry(self, v: View, transports: list[Piece], stranded: list[Piece]) -> tuple[list[Task], set[int]]:
        """Transports carry stranded units to friendly land at the front: sail to them,
        load, sail on and unload, as far as their moves go this turn."""
        geo = v.geo
        tasks: list[Task] = []
        ferried: set[int] = set()
        if not transports:
            return tasks, ferried
        dests: dict[str, str] = {}          # zone -> the best land next to it to unload into
        for s in geo.land:
            if v.is_friendly_land(s) and v.front_dist(s) < INF and not v.defenders(s):
                for z in geo.coast.get(s, ()):
                    if z in dests and v.front_dist(dests[z]) <= v.front_dist(s):
                        continue
                    dests[z] = s
        waiting: dict[str, list[Piece]] = defaultdict(list)
        for u in stranded:
            if int(v.t(u).transport_size) > 0:
                waiting[u.space].append(u)
        taken: set[int] = set()
        for tr in transports:
            if "unloaded" in tr.status:
                continue
            left = v.moves_left(tr)
            ps = self.sea_paths(v, tr, left, False)
            aboard = v.carried(tr)
            room = int(v.t(tr).transport_capacity) - sum(int(v.t(c).transport_size) for c in aboard)
            far = bfs([tr.space], geo.sea_nb, through=lambda z: not v.hostile_sea(z))
            load_path: list[str] = []
            load: list[Piece] = []
            if not aboard:
                best = None
                for z, p in ps.items():
                    n = sum(1 for s in geo.shore.get(z, ()) for u in waiting.get(s, ()) if u.id not in taken)
                    if n and (best is None or (n, -len(p)) > best[0]):
                        best = ((n, -len(p)), z, p)
                if best is None:
                    # nobody to carry within reach: go where the units wait
                    spots = [z for s, us in waiting.items() if any(u.id not in taken for u in us)
                             for z in geo.coast.get(s, ())]
                    spots = [z for z in spots if z in far and not v.hostile_sea(z)]
                    if spots:
                        z = min(spots, key=lambda z: (far[z], z))
                        route = self._route(v, tr, z, left)
                        if route:
                            tasks.append(Task("go", tr.id, route))
                    continue
                _, zl, load_path = best
                cands = sorted((u for s in geo.shore.get(zl, ()) for u in waiting.get(s, ()) if u.id not in taken),
                               key=lambda u: (-int(v.t(u).transport_size), -v.attack_p(u), u.id))
                for u in cands:
                    size = int(v.t(u).transport_size)
                    if size <= room:
                        load.append(u)
                        room -= size
                        taken.add(u.id)
                if load_path:
                    tasks.append(Task("go", tr.id, list(load_path)))
                for u in load:
                    tasks.append(Task("go", u.id, [zl], board=tr.id))
                    ferried.add(u.id)
                left -= len(load_path)
                here = zl
            else:
                here = tr.space
            if not aboard and not load:
                continue
            # sail on to the front and unload, or as near as the moves allow
            from_here = paths(here, lambda s: [n for n in geo.sea_nb.get(s, ()) if not v.hostile_sea(n)
                                               and v.call("canal_open", s, n, v.me)], left)
            done = False
            options = [(v.front_dist(dests[z]), len(p), z, p) for z, p in from_here.items() if z in dests]
            if options:
                _, _, z, p = min(options)
                if p:
                    tasks.append(Task("go", tr.id, list(p)))
                tasks.append(Task("land", tr.id, [dests[z]]))
                done = True
            if not done and dests:
                dist = bfs([here], geo.sea_nb, through=lambda z: not v.hostile_sea(z))
                goal = [z for z in dests if z in dist]
                if goal:
                    z = min(goal, key=lambda z: (dist[z] + v.front_dist(dests[z]), z))
                    route = self._route(v, tr, z, left, start=here)
                    if route:
                        tasks.append(Task("go", tr.id, route))
        return tasks, ferried

    def _route(self, v: View, u: Piece, goal: str, left: int, start: str | None = None) -> list[str]:
        """The first `left` zones of a safe shortest route from `start` to `goal`."""
        geo = v.geo
        start = start or u.space
        full = paths(start, lambda s: [n for n in geo.sea_nb.get(s, ()) if not v.hostile_sea(n)
                                       and v.call("canal_open", s, n, v.me)], 64)
        if goal not in full:
            return []
        return list(full[goal][:left])

    def plan_landings(self, v: View, planes: list[Piece], need: dict[str, float]) -> list[Task]:
        geo = v.geo
        tasks: list[Task] = []
        friendly = self._land_places(v)
        room: dict[str, int] = {}
        for z in geo.sea:
            if any(int(v.t(p).carrier_capacity) > 0 and p.owner in v.friends for p in v.at.get(z, ())):
                room[z] = int(v.call("carrier_room", z, v.me))
        for u in sorted(planes, key=lambda u: (v.moves_left(u), u.id)):
            tags = v.tags(u)
            left = v.moves_left(u)
            ps = paths(u.space, v.air_steps(u, False), left)
            spots = []
            for s in ps:
                if s in geo.land_set:
                    if s in friendly:
                        spots.append(s)
                elif "lands_on_carrier" in tags and s in room:
                    free_room = room[s] + (1 if s == u.space else 0)
                    if free_room >= 1:
                        spots.append(s)
            if not spots:
                continue

            def score(s: str, ps: dict[str, list[str]] = ps) -> float:
                sc = 2.0 * max(0.0, min(need.get(s, 0.0), 4.0))
                sc -= 0.3 * min(v.front_dist(s), 10) if s in geo.land_set else 1.5
                if s == v.capital():
                    sc += 0.5
                if s in geo.land_set and v.threat().get(s, 0.0) > v.defence_at(s) + 2 and need.get(s, 0.0) <= 0:
                    sc -= 1.0
                return sc - 0.01 * len(ps[s])

            best = max(spots, key=lambda s: (score(s), s == u.space, s))
            if best in geo.sea:
                room[best] = room[best] - (0 if best == u.space else 1)
            if best in need:
                need[best] -= v.defence_p(u)
            if best != u.space:
                tasks.append(Task("go", u.id, list(ps[best])))
        return tasks

    # -- carrying out a plan -------------------------------------------------------------------
    def _next_move(self, v: View, d: Decision) -> Action | None:
        assert self.plan is not None
        self._boarded(v)
        go = {o.get("u"): o for o in d.options if o.kind == "go"}
        land = {o.get("t"): o for o in d.options if o.kind == "land"}
        while True:
            task = self.plan.pending()
            if task is None:
                if v.rs.structure.step(v.state) == "noncombat_move":
                    # an aircraft the plan did not land (its carrier moved, its flight closed)
                    for uid, o in go.items():
                        p = v.state.pieces.get(uid) if isinstance(uid, int) else None
                        if p is not None and "air" in v.tags(p) and not self._landed(v, p):
                            self.active = Task("go", p.id, [])
                            return o
                return d.finish
            found: Action | None
            if task.kind == "go":
                if not task.path:
                    task.done = True
                    continue
                found = go.get(task.uid)
                if found is None:
                    twin = self._twin(v, task.uid, go)
                    if twin is None:
                        task.done = True
                        continue
                    self.plan.swap(task.uid, twin)
                    found = go[twin]
                self.active = task
                return found
            if task.kind == "land":
                found = land.get(task.uid)
                if found is None:
                    task.done = True
                    continue
                self.active = task
                return found
            task.done = True

    def _boarded(self, v: View) -> None:
        """The rules ask which transport a unit boards only when they differ (in cargo):
        among alike ones they take one themselves, maybe not the one planned. Then the
        two swap their orders, so that the cargo planned for each still fits."""
        assert self.plan is not None
        if self.plan.boarding is None:
            return
        uid, want = self.plan.boarding
        self.plan.boarding = None
        u = v.state.pieces.get(uid)
        got = v.state.pieces.get(u.carrier) if u is not None and u.carrier is not None else None
        if got is not None and got.id != want and got.owner == v.me:
            self.plan.swap(want, got.id)

    def _twin(self, v: View, uid: int, offered: dict[Any, Action]) -> int | None:
        """An offered unit the rules treat as the same as `uid` (same place, type, moves left
        and cargo)."""
        p = v.state.pieces.get(uid)
        if p is None:
            return None
        key = self._group_key(v, p)
        for other in offered:
            q = v.state.pieces.get(other) if isinstance(other, int) else None
            if q is not None and q.id != uid and self._group_key(v, q) == key:
                return q.id
        return None

    def _group_key(self, v: View, p: Piece) -> tuple[Any, ...]:
        cargo = tuple(sorted(c.kind for c in v.carried(p))) if "carries_land" in v.tags(p) else ()
        return (p.space, p.kind, p.owner, v.moves_left(p), cargo, p.carrier)

    # -- questions in the middle of the rules ------------------------------------------------------
    def _question(self, rs: Any, state: GameState, d: Decision) -> Action | None:
        task = state.task
        choices = {o.get("choice"): o for o in d.options}
        ints = all(isinstance(c, int) and not isinstance(c, bool) for c in choices)
        step = rs.structure.step(state)
        if step == "declare_missions" and ints and task:
            # the defenders' aircraft against the missions, asked when the declarations end
            return layers.commit_question(self, View(rs, state, d.player), d, choices)
        if not task or task[0] != "move" or len(task) < 3:
            return None
        move, args = task[1], task[2]
        v = View(rs, state, d.player)
        if step == "resolve_missions" and ints and all(c in state.pieces for c in choices):
            # casualties of an air mission: the rules list them cheapest first
            return d.options[0]
        spaces = all(isinstance(c, str) and (c in v.geo.land_set or c in v.geo.sea) for c in choices)
        attacking = d.player in rs.structure.acting(state)     # (a team fighting together: any member)
        if spaces and move == "fight" and attacking:
            # retreating aircraft fly to a landing place now: the rules list them nearest
            # first, which leaves them the most moves to fly on in non-combat move
            return d.options[0]
        if all(isinstance(c, str) and c in v.geo.land_set for c in choices) and move == "fight":
            # aircraft leaving a fallen territory: where they are safest
            return choices[min(choices, key=lambda s: (v.threat().get(s, 0.0) - v.defence_at(s), s))]
        if move == "go" and args:
            return self._step_question(v, d, args[0], choices)
        if move == "land" and args:
            return self._unload_question(v, d, args[0], choices)
        if move == "fight" and args:
            where = args[0]
            if all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
                return self._casualty(v, d, where)
            if "press on" in choices:
                return self._press_on(v, d, where, choices)
            if "submerge" in choices and "fight on" in choices:
                return self._submerge(v, d, where, choices)
        return None

    def _step_question(self, v: View, d: Decision, uid: int, choices: dict[Any, Action]) -> Action | None:
        task = self.active
        ints = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
        if ints and len(ints) == len(choices):
            # which transport to board: the planned one, else the one with the same load
            if self.plan is not None:
                self.plan.boarding = None          # asked: the answer keeps the plan right
            want = task.board if task is not None else None
            if want in choices:
                return choices[want]
            if want is not None and want in v.state.pieces:
                for c in ints:
                    if self._group_key(v, v.state.pieces[c]) == self._group_key(v, v.state.pieces[want]):
                        assert self.plan is not None
                        self.plan.swap(want, c)
                        return choices[c]
            return choices[ints[0]]
        u = v.state.pieces.get(uid)
        if task is not None and task.uid == uid and task.path:
            nxt = task.path[0]
            if nxt in choices:
                if task.board is not None and nxt in v.geo.sea and u is not None and "land" in v.tags(u):
                    assert self.plan is not None
                    self.plan.boarding = (uid, task.board)
                task.path.pop(0)
                if not task.path:
                    task.done = True
                return choices[nxt]
            task.done = True
        if u is not None and "air" in v.tags(u) and v.rs.structure.step(v.state) == "noncombat_move":
            return self._land_anyhow(v, u, choices)
        if u is not None and u.space in choices:
            return choices[u.space]
        return None

    def _land_places(self, v: View) -> set[str]:
        """The land where the power's aircraft may end the turn: the rules' own
        `landing_places` (a layer may bar some: AARHE's xenophobia and Axis co-operation),
        else what its side held when the turn began."""
        if v.rules.has_procedure("landing_places"):
            return {s for s in v.call("landing_places", v.me, False) if s in v.geo.land_set}
        return {s for s in v.state.vars.get("friendly_at_start") or () if v.is_friendly_land(s)}

    def _landed(self, v: View, u: Piece) -> bool:
        """Is the aircraft where it may end the turn?"""
        here = u.space
        if here in v.geo.land_set:
            return here in self._land_places(v)
        return "lands_on_carrier" in v.tags(u) and int(v.call("carrier_room", here, v.me)) >= 0

    def _land_anyhow(self, v: View, u: Piece, choices: dict[Any, Action]) -> Action | None:
        """The planned flight is no longer open (a carrier moved, say): stay if this is a
        landing place, else take the step nearest to one, by the rules' own reach."""
        here = u.space
        if here in choices and self._landed(v, u):
            return choices[here]
        reach = v.state.vars.get("carrier_reach" if "lands_on_carrier" in v.tags(u) else "land_reach") or {}
        reach = v.air_home(u, reach, False)
        steps = [c for c in choices if isinstance(c, str) and c != here and c in reach]
        if not steps:
            return choices.get(here)
        self.active = Task("go", u.id, [])
        return choices[min(steps, key=lambda c: (reach[c], c))]

    def _unload_question(self, v: View, d: Decision, tid: int, choices: dict[Any, Action]) -> Action | None:
        task = self.active
        if task is not None and task.kind == "land" and task.uid == tid:
            task.done = True
            if task.path and task.path[0] in choices:
                return choices[task.path[0]]
        friendly = [c for c in choices if isinstance(c, str) and v.is_friendly_land(c)]
        if friendly:
            return choices[min(friendly, key=lambda s: (v.front_dist(s), s))]
        return None

    def _casualty(self, v: View, d: Decision, where: str) -> Action | None:
        opts: list[tuple[Action, Piece]] = []
        for o in d.options:
            p = v.state.pieces.get(o.get("choice"))
            if p is not None:
                opts.append((o, p))
        if not opts:
            return None
        first_o, first = opts[0]
        acting = v.rs.structure.acting(v.state)
        attacking = d.player in acting
        if attacking and where in v.geo.land_set and "land" in v.tags(first):
            land_left = [p for p in v.state.pieces_at(where) if p.owner in acting and p.carrier is None
                         and "land" in v.tags(p) and v.fights(p) and "doomed" not in p.status
                         and "retreated" not in p.status]
            if len(land_left) <= 1:
                others = [o for o, p in opts if "land" not in v.tags(p)]
                if others:
                    return others[0]
        return first_o

    def _press_on(self, v: View, d: Decision, where: str, choices: dict[Any, Action]) -> Action | None:
        acting = v.rs.structure.acting(v.state) or (v.me,)      # a team fighting together: all of its units
        mine = [p for p in v.state.pieces_at(where) if p.owner in acting and p.carrier is None
                and "retreated" not in p.status and "submerged" not in p.status and "raiding" not in p.status]
        o = self.odds(v, mine, where)
        if o.win >= 0.45 or o.gain > 0:
            return choices["press on"]
        away = [c for c in choices if c != "press on"]
        return choices[away[0]] if away else choices["press on"]

    def _submerge(self, v: View, d: Decision, where: str, choices: dict[Any, Action]) -> Action | None:
        power = v.rs.structure.power(v.state)
        if d.player in v.rs.structure.acting(v.state):
            mine = [p for p in v.state.pieces_at(where) if p.owner == v.me and p.carrier is None
                    and "retreated" not in p.status and "submerged" not in p.status]
            good = self.odds(v, mine, where).win >= 0.5
        else:
            view = View(v.rs, v.state, str(power))
            theirs = [p for p in v.state.pieces_at(where) if p.owner == power and p.carrier is None
                      and "retreated" not in p.status and "submerged" not in p.status]
            good = self.odds(view, theirs, where).clear < 0.5
        return choices["fight on" if good else "submerge"]

    _STEPS = {
        "purchase": _purchase,
        "combat_move": _combat_move,
        "conduct_combat": _conduct_combat,
        "noncombat_move": _noncombat_move,
        "mobilize": _mobilize,
        "place_bid": _place_bid,
        "chinese_division": _chinese_division,
    }
