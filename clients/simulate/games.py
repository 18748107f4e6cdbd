"""One game of a simulation, as a pure function of what it is played with: the rules (a
ruleset or mod, its options), the scenario, the computer players, the turn limit and the
seed. The same setup and seed give the same record in this process, a pool's worker or a
Dask worker, and the same game as `wargame play RULESET --ai SIDE=PLAYER... --seed SEED`.

The figures followed turn by turn are the rules' own (`GameLogic.measures`: the rules'
`procedure measures`, else their score); nothing here knows one game from another."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import dsl
from clients import seats
from engine import flow, plugins
from engine.actions import IllegalAction
from engine.ruleset import LoadedRuleset

#: the turns (rounds) a game is played for when the rules have no last turn (LHTR, AARHE) and
#: no --max-turns is given: computer players seldom end such a game sooner
ENDLESS_TURNS = 10


@dataclass(frozen=True)
class Setup:
    """Everything a game is played with but its seed; JSON-able and cheap to send to a worker."""

    ruleset: str                              # a ruleset's name or a mod folder (absolute)
    mods: tuple[str, ...] = ()                # --mod folders (absolute)
    trust_code: bool = False
    options: tuple[tuple[str, str], ...] = ()  # --option NAME=VALUE texts, as given
    scenario: str = ""
    players: tuple[tuple[str, str], ...] = ()  # side -> computer player, in side order
    max_turns: int | None = None
    rules_budget: int = dsl.DEFAULT_STEPS
    rules_max_items: int = dsl.DEFAULT_ITEMS

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(mods=list(self.mods), options=dict(self.options), players=dict(self.players))
        return data

    @property
    def label(self) -> str:
        """The rules in a player's words: `bulge` or `bulge (stacking_rulebook=true)`."""
        name = self.ruleset.rstrip("/").rsplit("/", 1)[-1]
        shown = ", ".join(f"{k}={v}" for k, v in self.options)
        return f"{name} ({shown})" if shown else name


def turn_limit(rs: LoadedRuleset, max_turns: int | None) -> int | None:
    """The turn after which games are stopped: --max-turns, else none where the rules end the
    game after some turn (`turns N`, or a `last_turn` option, as the window's turn track reads
    it), else ENDLESS_TURNS."""
    if max_turns is not None:
        return max_turns
    last = rs.options.get("last_turn")
    if rs.structure.turns is not None or (isinstance(last, int) and not isinstance(last, bool) and last > 0):
        return None
    return ENDLESS_TURNS


_LOADED: dict[tuple[Any, ...], LoadedRuleset] = {}


def loaded(setup: Setup) -> LoadedRuleset:
    """The setup's rules as its scenario plays them (the scenario file's own options: its
    powers, their order and sides, as `wargame play` takes them), loaded once per process
    (the rules files' parse is cached on disk too)."""
    key = _key(setup)
    rs = _LOADED.get(key)
    if rs is None:
        dsl.set_limits(steps=setup.rules_budget, items=setup.rules_max_items)
        rs = plugins.load(setup.ruleset, dict(setup.options), list(setup.mods), trust_code=setup.trust_code)
        rs = rs.for_scenario(setup.scenario or None)
        _LOADED[key] = rs
    return rs


def remember(setup: Setup, rs: LoadedRuleset) -> None:
    """Keep rules the command line has already loaded (a pool's forked workers inherit them)."""
    _LOADED[_key(setup)] = rs.for_scenario(setup.scenario or None)


def _key(setup: Setup) -> tuple[Any, ...]:
    """What the rules played depend on (not the players or the turn limit)."""
    return (setup.ruleset, setup.mods, setup.trust_code, setup.options, setup.scenario, setup.rules_budget,
            setup.rules_max_items)


def play_game(setup: Setup, seed: int, rules: str = "tried") -> dict[str, Any]:
    """Play one game to its end (or past `max_turns`) and return its record: the seed, the
    options, the players, the result (winner or None, the reason, whether the rules ended
    it), the turns and actions played, the seconds it took, and each of the rules' measures
    at the end of every turn. A game that fails (an error in the rules, the step budget
    spent, a computer player refused) is recorded with the error; it never raises."""
    record: dict[str, Any] = {"rules": rules, "seed": seed, "options": dict(setup.options),
                              "players": dict(setup.players)}
    started = time.perf_counter()
    rows: list[dict[str, float]] = []      # the measures at the end of each turn
    state: Any = None
    actions = 0
    rs: LoadedRuleset | None = None
    try:
        rs = loaded(setup)
        dsl.set_limits(steps=setup.rules_budget, items=setup.rules_max_items)
        started = time.perf_counter()
        computer = seats.assign(rs, [f"{side}={name}" for side, name in setup.players], seed=seed)
        state = rs.logic.new_state(setup.scenario, seed)
        decision = flow.start(rs, state)
        first = state.turn
        while decision is not None:
            while first + len(rows) < state.turn:    # a turn is over
                rows.append(rs.logic.measures(state))
            if setup.max_turns is not None and state.turn > setup.max_turns:
                break
            player = computer[seats.seat_of(rs, decision.player)]
            action = player.choose(rs, state, decision)
            try:
                state, decision = flow.apply(rs, state, action)
            except IllegalAction as e:
                raise IllegalAction(f"the computer player `{player.name}` chose an action the rules "
                                    f"refuse ({action}): {e.reason}") from e
            actions += 1
        if state.result is not None:
            while first + len(rows) <= state.turn:   # the turn the game ended in (and any it skipped to)
                rows.append(rs.logic.measures(state))
            result = dict(state.result)
            record["result"] = {"winner": result.get("winner") or None, "reason": result.get("reason", ""),
                                "ended": True, "score": result.get("score", {})}
        else:
            standing = rs.logic.standing(state)
            record["result"] = {"winner": None, "reason": f"stopped after turn {setup.max_turns}",
                                "ended": False, "score": standing, "leader": leader(standing, seats.sides(rs))}
    except Exception as e:  # noqa: BLE001 (any failure is the game's record, and the run goes on)
        record["error"] = _failure(rs, state, actions, e)
    record["turns"] = len(rows)
    record["actions"] = actions
    record["seconds"] = round(time.perf_counter() - started, 6)
    record["curves"] = {name: [row.get(name) for row in rows] for name in rows[0]} if rows else {}
    return record


def leader(standing: dict[str, Any], sides: list[str]) -> str | None:
    """The side ahead in the rules' score when it names the sides (LHTR: victory cities),
    for a game stopped before its end; None when level or when the score names no side."""
    scores = {side: standing[side] for side in sides if isinstance(standing.get(side), int | float)}
    if not scores:
        return None
    best = max(scores.values())
    ahead = [side for side, v in scores.items() if v == best]
    return ahead[0] if len(ahead) == 1 else None


def _failure(rs: LoadedRuleset | None, state: Any, actions: int, e: Exception) -> str:
    """Why a game stopped and where, in one line."""
    from clients.cli import _clip

    if isinstance(e, dsl.RulesRuntimeError):
        why = f"error in the rules: {e}"
    elif isinstance(e, IllegalAction):
        why = f"refused: {e.reason}"
    else:
        why = f"{type(e).__name__}: {e}"
    where = ""
    if rs is not None and state is not None:
        try:
            where = f" ({rs.structure.where(state)})"
        except Exception:  # noqa: BLE001
            where = f" (turn {state.turn})"
    return _clip(f"stopped after {actions} actions{where}: {why}", 500)
