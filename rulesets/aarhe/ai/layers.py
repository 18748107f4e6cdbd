"""The heuristic's answers to the decisions a layer over LHTR adds (AARHE's): Lend-Lease, naval
repair, air missions and the defenders' commitments against them, declared sea attacks, air
reinforcement, moving and destroying industrial complexes.

Each answer weighs what the rules' own procedures, options and the units' stats say: the
damage a bomber does is the rules' `raid_damage` (a night bomber's, `night_raid_damage`)
worked out over many throws of private dice, the upkeep of standing in a space is the rules'
`upkeep_at`, what enemy ships in a sea zone cost in convoy raids is the rules' `income` with
and without them, AA dice are the rules' `aa_dice`, the aircraft a defender may send up are the rules'
`air_defence_candidates`, the prices and rooms are the rules' own. It names the layer's steps,
moves, procedures and options, never a unit type; where a procedure is missing (another
layer), it falls back on LHTR's meaning or leaves the decision to its finish.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from engine.actions import Action, Decision
from engine.odds_protocol import BattleChance
from engine.pieces import Piece
from rulesets.aarhe.ai.world import View

if TYPE_CHECKING:
    from rulesets.aarhe.ai.player import HeuristicPlayer

#: an air mission is flown when its expected gain, in IPCs, is above this
MISSION_MARGIN = 1.0
#: throws of private dice to learn what a procedure that rolls gives on average
SAMPLES = 240


def stat(v: View, p: Piece, name: str) -> int:
    return int(v.t(p).stats.get(name, 0) or 0)


def option(v: View, name: str, default: Any) -> Any:
    return v.options.get(name, default)


def mean_of(v: View, proc: str, u: Piece, cache: dict[Any, float], post: Any = None) -> float:
    """What the rules' procedure `proc(u)`, which rolls dice, gives on average: played on a
    copy of the game with private dice (the game's own dice are not touched). Kept in `cache`
    (one game's: a technology or advantage of another game, played before in the same
    process, is not this one's), worked out once a turn for each kind and owner (a technology
    may change it from one turn to the next)."""
    key = (proc, u.kind, u.owner, v.state.turn, v.state.power_index, post is not None)
    if key in cache:
        return cache[key]
    scratch = v.state.copy()
    rng = random.Random(SAMPLES)
    scratch.dice_hook = lambda n, sides: [rng.randint(1, sides) for _ in range(n)]
    fn = v.proc(proc)
    total = 0.0
    for _ in range(SAMPLES):
        r = int(fn(scratch, u))
        total += post(r) if post is not None else r
        scratch.events.clear()
    if len(cache) > 256:
        cache.clear()
    cache[key] = total / SAMPLES
    return cache[key]


def aa_value(v: View, where: str) -> int:
    """What AA dice hit on in `where`: the rules' `aa_value` (Radar lifts the UK's guns), else
    the option `aa_hit`."""
    if v.rules.has_procedure("aa_value"):
        return int(v.call("aa_value", where))
    return int(option(v, "aa_hit", 1))


def hit_p(value: int) -> float:
    return min(max(int(value), 0), 6) / 6.0


# -- upkeep and convoy raids -------------------------------------------------------------------------
def upkeep_map(v: View, cache: dict[Any, dict[str, float]]) -> dict[str, float]:
    """The IPCs a unit standing in each land space pays at its power's next collect income:
    the rules' `upkeep_at` (AARHE's desert upkeep), the spaces that cost something only.
    Kept in `cache` (one game's), worked out once a turn."""
    if not v.rules.has_procedure("upkeep_at"):
        return {}
    got = cache.get(v.state.turn)
    if got is None:
        fn = v.proc("upkeep_at")
        got = cache[v.state.turn] = {s: float(c) for s in v.geo.land if (c := int(fn(v.state, s))) > 0}
    return got


def convoy_relief(v: View, z: str, cache: dict[Any, float] | None = None) -> float:
    """The IPCs a turn v's side would get back if the enemy units in sea zone z were gone:
    the rules' `income` of each friendly power, and the Lend-Lease the rules' `route_sunk`
    and `ussr_only_sunk` say is sunk, worked out on a copy of the game without them (AARHE's
    convoy raids; 0 under rules where ships cost no income). With a `cache` (one game's),
    once a power's turn for each zone and the enemy units in it (the missions' and the
    combat move's plans ask alike)."""
    foes = [p for p in v.at.get(z, ()) if p.owner in v.foes]
    if not foes or not v.rules.has_procedure("income"):
        return 0.0
    if cache is None:
        return _relief(v, [p.id for p in foes])
    key = (v.state.turn, v.state.power_index, v.me, z, tuple((p.id, p.kind) for p in foes))
    got = cache.get(key)
    if got is None:
        if len(cache) > 256:
            cache.clear()
        got = cache[key] = _relief(v, [p.id for p in foes])
    return got


def _relief(v: View, foes: list[int]) -> float:
    scratch = v.state.copy()
    for pid in foes:
        scratch.remove(pid)
    income = v.proc("income")
    gain = 0.0
    for p in v.friends:
        gain += int(income(scratch, p)) - int(income(v.state, p))
    for proc in ("route_sunk", "ussr_only_sunk"):
        if v.rules.has_procedure(proc):
            gain += int(v.proc(proc)(v.state)) - int(v.proc(proc)(scratch))
    scratch.events.clear()
    return max(0.0, gain)


# -- Lend-Lease --------------------------------------------------------------------------------------
def lend_lease(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """Send up to what the rules allow to the ally in more danger (the more short of defence
    at its capital, then the nearer the front), keeping what the sender needs to hold its own
    capital."""
    sends = [o for o in d.options if o.kind == "send"]
    if not sends:
        return d.finish
    most: dict[str, int] = {}
    for o in sends:
        to, n = o.get("to"), o.get("amount")
        if isinstance(to, str) and isinstance(n, int):
            most[to] = max(most.get(to, 0), n)
    money = v.state.resource(v.me, "ipc")
    spare = money - defence_cost(v, v.me, ai.HOLD_CAPITAL)
    if spare <= 0 or not most:
        return d.finish

    def danger(p: str) -> tuple[float, int, int, str]:
        pv = View(v.rs, v.state, p)
        cap = pv.capital()
        short = pv.threat().get(cap, 0.0) * ai.HOLD_CAPITAL - pv.defence_at(cap) if cap in pv.geo.land_set else 0.0
        return (-short, min(pv.front_dist(cap), 99), v.state.resource(p, "ipc"), p)

    to = min(most, key=danger)
    n = min(most[to], spare)
    for o in sends:
        if o.get("to") == to and o.get("amount") == n:
            return o
    return d.finish


def defence_cost(v: View, p: str, hold: float) -> int:
    """IPCs `p` needs to buy the defence its capital lacks against `hold` times the threat
    to it."""
    pv = View(v.rs, v.state, p)
    cap = pv.capital()
    if cap not in pv.geo.land_set:
        return 0
    short = pv.threat().get(cap, 0.0) * hold - pv.defence_at(cap)
    if short <= 0:
        return 0
    best = None
    for k, t in pv.types.items():
        if "land" not in t.tags or t.defence <= 0 or t.cost <= 0 or "factory" in t.tags:
            continue
        price = int(pv.call("price", k, p))
        if price > 0 and (best is None or t.defence / price > best[0]):
            best = (t.defence / price, price, min(int(t.defence), 6) / 6.0)
    if best is None:
        return 0
    return int(math.ceil(short / best[2])) * best[1]


# -- naval repair --------------------------------------------------------------------------------------
def naval_repair(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """Repair a damaged ship when the hit it gets back is worth more than the worst the repair
    may cost (the rules' `repair_cost_cap`), the most valuable ship first."""
    cap = int(v.call("repair_cost_cap")) if v.rules.has_procedure("repair_cost_cap") else 6
    best, best_worth = None, float(cap)
    for o in d.options:
        if o.kind != "repair_ship":
            continue
        u = v.state.pieces.get(o.get("u"))
        if u is None:
            continue
        t = v.t(u)
        worth = float(t.cost) / max(1, int(t.hits_to_kill)) * u.hits
        if worth > best_worth:
            best, best_worth = o, worth
    return best if best is not None else d.finish


# -- air missions -------------------------------------------------------------------------------------
def mission_kind_of(v: View, u: Piece) -> str | None:
    m = v.state.vars.get("mission_of") or {}
    return m.get(u.id) if isinstance(m, dict) else None


def on_mission(v: View, where: str, kinds: tuple[str, ...]) -> list[Piece]:
    return [p for p in v.at.get(where, ()) if p.owner == v.me and mission_kind_of(v, p) in kinds]


def aa_dice(v: View, where: str, planes: int) -> int:
    if planes <= 0:
        return 0
    if v.rules.has_procedure("aa_dice"):
        return int(v.call("aa_dice", where, planes))
    return planes if any("aa" in v.tags(p) for p in v.enemy_at(where)) else 0


def cheapest_first(costs: list[float], hits: float) -> float:
    """The expected cost of `hits` casualties taken cheapest first (a fraction of a hit counts
    a fraction of the next unit)."""
    out = 0.0
    for c in sorted(costs):
        if hits <= 0:
            break
        out += c * min(1.0, hits)
        hits -= 1.0
    return out


def bombing_value(v: View, u: Piece, kind: str, where: str, means: dict[Any, float]) -> float:
    """Expected income taken by one more bomber on a `kind` mission (sbr, night) over `where`,
    less the expected cost of the bombers lost to AA fire and interceptors (`means`: the
    game's cache of `mean_of`)."""
    owner = v.control.get(where, "")
    value = int(v.call("ipc_value", where))
    done = int(v.call("damage_on", where, owner)) if v.rules.has_procedure("damage_on") else 0
    cap = max(0, value - done)
    if cap <= 0:
        return -1.0
    aa = hit_p(aa_value(v, where))
    together = ("sbr", "escort") if kind == "sbr" else (kind,)
    flying = on_mission(v, where, together) + [u]
    n = len(flying)
    loss_share = aa_dice(v, where, n) * aa / n
    if kind == "sbr":
        if v.rules.has_procedure("air_defence_candidates"):
            up = list(v.call("air_defence_candidates", where, v.me, "sbr"))
        else:
            up = [p for p in v.enemy_at(where) if stat(v, p, "intercept") > 0]
        per = int(option(v, "interceptors_per_raider", 1))
        ints = sorted((stat(v, p, "intercept") for p in up), reverse=True)
        if per > 0:
            ints = ints[:per * n]
        loss_share += sum(hit_p(x) for x in ints) / n
    loss_share = min(1.0, loss_share)
    bombers = [p for p in flying if mission_kind_of(v, p) != "escort" or p is u]
    if kind == "night" and v.rules.has_procedure("night_raid_damage"):
        each = [mean_of(v, "night_raid_damage", b, means) for b in bombers]
    elif kind == "night":
        # a layer without AARHE's procedure: its option, if it has one, else the seed's 50%
        share = int(option(v, "night_bombing_share", 50))
        each = [mean_of(v, "raid_damage", b, means, post=lambda r: r * share // 100) for b in bombers]
    else:
        each = [mean_of(v, "raid_damage", b, means) for b in bombers]
    with_u = min(float(cap), sum(each) * (1.0 - loss_share))
    without = 0.0
    if len(bombers) > 1:
        share0 = min(1.0, loss_share * n / max(1, n - 1))
        without = min(float(cap), sum(each[:-1]) * (1.0 - share0))
    return (with_u - without) - loss_share * float(v.t(u).cost)


def counter_air_value(v: View, u: Piece, where: str) -> float:
    """Expected cost destroyed less expected cost lost by one more fighter on counter air over
    `where`: AA fire first, then the rules' rounds of air combat at the air-combat values,
    against every aircraft the defender may send up (it must send as many as attack)."""
    if v.rules.has_procedure("air_defence_candidates"):
        dfn = list(v.call("air_defence_candidates", where, v.me, "counter_air"))
    else:
        dfn = [p for p in v.enemy_at(where) if "air" in v.tags(p)]
    if not dfn:
        return -1.0
    rounds = int(option(v, "counter_air_rounds", 1))
    aa = hit_p(aa_value(v, where))

    def exchange(att: list[Piece]) -> float:
        if not att:
            return 0.0
        n = len(att)
        lost_aa = aa_dice(v, where, n) * aa
        standing = max(0.0, n - lost_aa)
        mine = sum(hit_p(stat(v, p, "air_combat")) for p in att) * standing / n * rounds
        theirs = sum(hit_p(stat(v, p, "air_combat")) for p in dfn) * rounds
        mine = min(mine, float(len(dfn)))
        theirs = min(theirs, standing)
        costs = [float(v.t(p).cost) for p in att]
        return (cheapest_first([float(v.t(p).cost) for p in dfn], mine)
                - cheapest_first(costs, lost_aa + theirs))

    att = on_mission(v, where, ("counter_air",))
    return exchange(att + [u]) - exchange(att)


def declare_missions(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """One mission at a time, the best still worth flying: a bombing run or night bombing
    where the income it takes beats what AA and interceptors cost, counter air where it
    destroys more than it loses. Aircraft the combat plan would attack with stay for it."""
    assert ai.plan is not None
    if fresh:
        busy: set[int] = set()
        try:
            for task in ai.plan_attacks(v):
                p = v.state.pieces.get(task.uid)
                if p is not None and "air" in v.tags(p):
                    busy.add(p.id)
        except Exception:
            if ai.debug:
                raise
        ai.plan.busy = busy
    best, best_value = None, MISSION_MARGIN
    for o in d.options:
        if o.kind != "fly_mission":
            continue
        u = v.state.pieces.get(o.get("u"))
        kind, to = o.get("kind"), o.get("to")
        if u is None or not isinstance(to, str) or u.id in ai.plan.busy:
            continue
        if kind in ("sbr", "night"):
            value = bombing_value(v, u, kind, to, ai._means)
        elif kind == "counter_air":
            value = counter_air_value(v, u, to)
        else:
            continue
        if value > best_value:
            best, best_value = o, value
    return best if best is not None else d.finish


def commit_question(ai: HeuristicPlayer, v: View, d: Decision, choices: dict[Any, Action]) -> Action | None:
    """The defender sends aircraft up against a mission over `where`: the ones that fight
    best in the air; beyond what it must, only where no land attack there needs them (the
    committed aircraft do not defend in the battle)."""
    ids = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
    units = [v.state.pieces[c] for c in ids if c >= 0 and c in v.state.pieces]
    if not units:
        return None
    where = units[0].space
    power = str(v.rs.structure.power(v.state))
    raiders = [p for p in v.at.get(where, ()) if p.owner == power and mission_kind_of(v, p) is not None]
    counter = any(mission_kind_of(v, p) == "counter_air" for p in raiders)
    role = "air_combat" if counter and not _counter_done(v, where, power) else "intercept"
    pick = max(units, key=lambda p: (stat(v, p, role), -float(v.t(p).cost), -p.id))
    if -1 not in choices:
        return choices[pick.id]
    # a free choice: send it up when it gains in the air and the battle there does not need it
    enemies = [p for p in v.at.get(where, ()) if p.owner == power]
    landing = any("land" in v.tags(p) and mission_kind_of(v, p) is None for p in enemies)
    if landing:
        return choices[-1]
    if role == "intercept":
        escorts = [p for p in raiders if mission_kind_of(v, p) == "escort"]
        gain = hit_p(stat(v, pick, "intercept")) * min(float(v.t(p).cost) for p in raiders) if raiders else 0.0
        risk = sum(hit_p(stat(v, p, "escort")) for p in escorts) * float(v.t(pick).cost) / max(1, len(escorts) + 1)
        return choices[pick.id] if gain > risk else choices[-1]
    return choices[pick.id]


def _counter_done(v: View, where: str, power: str) -> bool:
    """Have the counter-air commitments over `where` been made (the interceptors come after)?"""
    roles = v.state.vars.get("defence_role") or {}
    n = sum(1 for p in v.at.get(where, ()) if p.owner == power and mission_kind_of(v, p) == "counter_air")
    done = sum(1 for p in v.at.get(where, ()) if isinstance(roles, dict) and roles.get(p.id) == "counter_air")
    return done >= n


# -- declared sea attacks ------------------------------------------------------------------------------
def declare_sea_attacks(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """Attack a zone shared with the enemy where the odds are with it (the zones it sailed
    into to fight); leave the others co-occupied."""
    for o in d.options:
        if o.kind != "attack":
            continue
        z = o.get("z")
        if not isinstance(z, str):
            continue
        mine = [p for p in v.at.get(z, ()) if p.owner == v.me and "submerged" not in p.status]
        if not mine:
            continue
        odds = ai.odds(v, mine, z)
        if odds.win >= ai.MIN_WIN or (odds.win >= 0.5 and odds.gain > 0):
            return o
    return d.finish


# -- air reinforcement ---------------------------------------------------------------------------------
def air_reinforcement(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """A power not moving sends an aircraft into a territory of its side the mover attacks
    when its defence there lowers the attacker's chances by enough to be worth the risk."""
    mover = v.rs.structure.power(v.state)
    if not mover:
        return d.finish
    mv = View(v.rs, v.state, str(mover))
    best, best_value = None, 1.0
    cache: dict[str, tuple[list[Piece], list[Piece], BattleChance]] = {}
    for o in d.options:
        if o.kind != "reinforce":
            continue
        u = v.state.pieces.get(o.get("u"))
        to = o.get("to")
        if u is None or not isinstance(to, str) or to not in v.geo.land_set:
            continue
        if to not in cache:
            att = [p for p in v.at.get(to, ()) if p.owner == mover and mv.fights_in(p, to)]
            if not any("land" in v.tags(p) for p in att):
                cache[to] = ([], [], BattleChance(0.0, 0.0, 1.0, 0.0, 0.0))
            else:
                dfn = mv.defenders(to)
                cache[to] = (att, dfn, ai.odds(mv, att, to, dfn))
        att, dfn, before = cache[to]
        if not att:
            continue
        after = ai.odds(mv, att, to, dfn + [u])
        worth = v.value(to) + sum(float(v.t(p).cost) for p in dfn)
        value = (before.win - after.win) * worth + (after.att_loss - before.att_loss) \
            - (after.def_loss - before.def_loss)
        if value > best_value:
            best, best_value = o, value
    return best if best is not None else d.finish


# -- industrial complexes ------------------------------------------------------------------------------
def land_threat(v: View, s: str) -> float:
    """The hits a round the enemy's land units alone could bring against land s next turn
    (aircraft and cargo left out: what is surest to come)."""
    out = 0.0
    for n, d in v.geo.land_dist(s).items():
        if d > 3:
            continue
        for p in v.at.get(n, ()):
            t = v.t(p)
            if p.owner in v.foes and "land" in t.tags and t.attack > 0 and d <= int(t.move):
                out += v.attack_p(p)
    return out


def doomed(v: View, s: str, extra: float = 0.0) -> bool:
    """Will the enemy likely take s next turn: its land units next to s alone bring three
    times the defence there (and more than two hits a round)?"""
    near = land_threat(v, s)
    return near > 2.0 and near > 3.0 * (v.defence_at(s) + extra)


def relocate_factory(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """Move an industrial complex out of a territory the enemy will likely take, to the safe
    territory worth most (it places as much as that is worth)."""
    cap = v.capital()
    best, best_key = None, None
    for o in d.options:
        if o.kind != "relocate":
            continue
        src, to = o.get("from"), o.get("to")
        if not isinstance(src, str) or not isinstance(to, str) or src == cap or not doomed(v, src):
            continue
        if land_threat(v, to) > v.defence_at(to):
            continue
        key = (v.geo.ipc.get(to, 0), -min(v.front_dist(to), 99), to)
        if v.geo.ipc.get(to, 0) > 0 and (best_key is None or key > best_key):
            best, best_key = o, key
    return best if best is not None else d.finish


def scorch(ai: HeuristicPlayer, v: View, d: Decision) -> Action | None:
    """Scorched earth: destroy a complex (not the capital's) the enemy will likely take even
    with every unit waiting to be placed put there."""
    cap = v.capital()
    pools = set()
    for o in d.options:
        if o.kind == "place":
            u = v.state.pieces.get(o.get("u"))
            if u is not None:
                pools.add(u.space)
    for o in d.options:
        if o.kind != "scorch":
            continue
        s = o.get("at")
        if not isinstance(s, str) or s == cap:
            continue
        # the units that could still be placed there would defend it
        kinds = {v.state.pieces[o2.get("u")].kind for o2 in d.options
                 if o2.kind == "place" and o2.get("at") == s and o2.get("u") in v.state.pieces}
        waiting = sum(v.defence_p(u) for pool in sorted(pools) for u in v.state.pieces_at(pool)
                      if u.owner == v.me and u.kind in kinds and "land" in v.tags(u))
        if doomed(v, s, extra=waiting):
            return o
    return None


def resolve_missions(ai: HeuristicPlayer, v: View, d: Decision, fresh: bool) -> Action | None:
    """The order of the missions' territories changes nothing it weighs: all of them."""
    return d.finish


STEPS = {
    "lend_lease": lend_lease,
    "resolve_missions": resolve_missions,
    "naval_repair": naval_repair,
    "declare_missions": declare_missions,
    "declare_sea_attacks": declare_sea_attacks,
    "air_reinforcement": air_reinforcement,
    "relocate_factory": relocate_factory,
}
