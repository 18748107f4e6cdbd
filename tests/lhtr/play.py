"""Playing the lhtr ruleset in small situations: load it, walk to a power's turn, put a few
pieces on an emptied board, fix the dice and play actions through the engine's own flow."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import dsl
from engine import flow, plugins
from engine.actions import Action, Decision
from engine.pieces import Piece
from engine.rules import structure_from_rules
from engine.rules_logic import RulesLogic
from engine.ruleset import LoadedRuleset, ScenarioInfo
from engine.state import GameState

ROOT = Path(__file__).resolve().parents[2]
LHTR = ROOT / "rulesets" / "aarhe" / "lhtr"
SCENARIO = "revised-1942"


@functools.lru_cache(maxsize=8)
def _load(options: tuple[tuple[str, Any], ...]) -> LoadedRuleset:
    info = plugins.read_manifest(LHTR)
    if info.scenarios and info.scenarios[0].path is not None:
        return plugins.load(LHTR, dict(options))
    # This engine's manifest reader does not yet take a scenario's `file`, nor give a folder
    # without Python the rules-driven logic: build the same thing plugins.load will build.
    raw = json.loads((LHTR / "ruleset.json").read_text(encoding="utf-8"))
    scenarios = tuple(ScenarioInfo(s["name"], s.get("title", s["name"]), s.get("description", ""),
                                   s.get("fidelity", "exact"), s.get("summary", ""), LHTR / s["file"])
                      for s in raw["scenarios"])
    info = replace(info, scenarios=scenarios)
    pm = plugins._manager()
    registry = plugins.build_registry(pm, info)
    rules = dsl.load_rules(list(info.rules_files), registry, options=dict(options))
    logic = RulesLogic(rules, info, structure_from_rules(rules))
    return LoadedRuleset(info, (info,), pm, rules, logic, dict(rules.options))


def load(**options: Any) -> LoadedRuleset:
    return _load(tuple(sorted(options.items())))


@functools.lru_cache(maxsize=4)
def load_layer(folder: Path) -> LoadedRuleset:
    """A ruleset folder that extends lhtr (a house rule, AARHE), loaded over it."""
    base = load()
    info = plugins.read_manifest(folder)
    if base.info.scenarios[0].path is not None and plugins.read_manifest(LHTR).scenarios[0].path is not None:
        return plugins.load(folder, paths=[LHTR])
    info = replace(info, scenarios=base.info.scenarios, sides=base.info.sides)
    pm = plugins._manager()
    registry = plugins.build_registry(pm, info)
    rules = dsl.load_rules(list(info.rules_files), registry,
                           resolve_extends=lambda name: list(base.info.rules_files))
    logic = RulesLogic(rules, info, structure_from_rules(rules))
    return LoadedRuleset(info, (base.info, info), pm, rules, logic, dict(rules.options))


class Play:
    """A game state and its decision, moved on with the engine's flow (as Game does)."""

    def __init__(self, rs: LoadedRuleset, state: GameState, decision: Decision | None) -> None:
        self.rs = rs
        self.state = state
        self.decision = decision
        self.events: list[tuple[str, dict[str, Any]]] = []
        #: every event since the game was set up (or `log` was emptied)
        self.log: list[tuple[str, dict[str, Any]]] = []

    @classmethod
    def new(cls, seed: int = 0, ruleset: LoadedRuleset | None = None, **options: Any) -> Play:
        rs = ruleset if ruleset is not None else load(**options)
        state = rs.logic.new_state(SCENARIO, seed)
        decision = flow.start(rs, state)
        return cls(rs, state, decision)

    # -- playing ------------------------------------------------------------------------------------
    def act(self, move: str, /, **args: Any) -> list[tuple[str, dict[str, Any]]]:
        self.state, self.decision = flow.apply(self.rs, self.state, Action(move, args))
        self.events = list(self.state.events)
        self.log += self.events
        self.state.events.clear()
        return self.events

    def why_not(self, move: str, /, **args: Any) -> str | None:
        return flow.why_not(self.rs, self.state, Action(move, args))

    def arrived(self, units: Iterable[int], came_from: str) -> None:
        """As if these units had moved into their space from `came_from` (a retreat goes there)."""
        cf = dict(self.state.vars["came_from"])
        for u in units:
            cf[u] = came_from
        self.state.vars["came_from"] = cf

    def finish(self) -> None:
        self.act("finish")

    def choose(self, choice: Any) -> list[tuple[str, dict[str, Any]]]:
        return self.act("choose", choice=choice)

    @property
    def step(self) -> str:
        return self.rs.structure.step(self.state)

    @property
    def power(self) -> str:
        return self.rs.structure.power(self.state) or ""

    def options(self, kind: str | None = None) -> list[Action]:
        assert self.decision is not None
        return [a for a in self.decision.options if kind is None or a.kind == kind]

    def labels(self, kind: str | None = None) -> list[str]:
        return [a.label for a in self.options(kind)]

    def walk_to(self, power: str, step: str, turn: int | None = None) -> None:
        """Finish every step until it is `power`'s `step` (of `turn`, if given)."""
        for _ in range(500):
            if self.power == power and self.step == step and (turn is None or self.state.turn == turn):
                return
            assert self.decision is not None, "the game ended on the way"
            assert self.decision.finish is not None, f"{self.step} of {self.power} cannot be finished: {self.decision}"
            self.finish()
        raise AssertionError(f"never reached {power}'s {step}")

    # -- setting a situation up ---------------------------------------------------------------------
    def clear(self, keep: Iterable[str] = ()) -> None:
        """Take every piece off the board (but the kinds in `keep`)."""
        kept = set(keep)
        for p in list(self.state.pieces.values()):
            if p.kind not in kept:
                self.state.remove(p.id)

    def add(self, kind: str, owner: str, space: str, n: int = 1, hits: int = 0) -> list[int]:
        return [self.state.add_piece(kind, owner, space, hits=hits).id for _ in range(n)]

    def control(self, **spaces: str) -> None:
        for sid, owner in spaces.items():
            self.state.control[sid.replace("_", " ")] = owner

    def hold(self, space: str, owner: str) -> None:
        self.state.control[space] = owner

    def set_ipc(self, power: str, amount: int) -> None:
        self.state.resources[(power, "ipc")] = amount

    def ipc(self, power: str) -> int:
        return self.state.resource(power, "ipc")

    def restart_turn(self) -> None:
        """Run the rules bound to the start of the power's turn again, after a set-up, and ask
        the current step's question afresh."""
        for handler in self.rs.rules.handlers("power_start"):
            handler(self.state, self.state.turn, self.power)
        self.state.events.clear()
        self.decision = flow.settle(self.rs, self.state)

    # -- looking ------------------------------------------------------------------------------------
    def at(self, space: str, owner: str | None = None, kind: str | None = None) -> list[Piece]:
        return [p for p in self.state.pieces_at(space)
                if (owner is None or p.owner == owner) and (kind is None or p.kind == kind)]

    def kinds_at(self, space: str, owner: str | None = None) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.at(space, owner):
            out[p.kind] = out.get(p.kind, 0) + 1
        return dict(sorted(out.items()))

    def proc(self, name: str, *args: Any) -> Any:
        return self.rs.rules.procedure(name)(self.state, *args)

    def var(self, name: str) -> Any:
        return self.state.vars[name]

    def piece(self, pid: int) -> Piece | None:
        return self.state.pieces.get(pid)


#: where `situation` puts a spare infantry of the power to play, free to move in both move
#: phases, so that a phase does not end by itself when the units under test have done
SPARE = {"Germany": "Southern Europe", "USSR": "Kazakh S.S.R.", "UK": "Eastern Canada", "Japan": "Manchuria",
         "US": "Central United States"}


def situation(power: str, pieces: Iterable[tuple[str, str, str, int]], control: Mapping[str, str] | None = None,
              step: str = "combat_move", ipc: int | None = None, spare: bool = True,
              ruleset: LoadedRuleset | None = None, **options: Any) -> tuple[Play, dict[str, list[int]]]:
    """`power`'s turn in round 1 on a board holding only `pieces` ((kind, owner, space, count))
    and a spare infantry (see SPARE), with the scenario's control changed by `control`,
    played on to `step`. Returns the game and the piece ids by "owner kind space"."""
    g = Play.new(ruleset=ruleset, **options)
    g.walk_to(power, "purchase", turn=1)
    g.clear()
    ids: dict[str, list[int]] = {}
    if spare:
        pieces = [*pieces, ("Infantry", power, SPARE[power], 1)]
    for kind, owner, space, n in pieces:
        ids.setdefault(f"{owner} {kind} {space}", []).extend(g.add(kind, owner, space, n))
    for space, owner in (control or {}).items():
        g.hold(space, owner)
    if ipc is not None:
        g.set_ipc(power, ipc)
    g.restart_turn()
    if step != "purchase":
        g.walk_to(power, step, turn=1)
    return g, ids


def option_args(actions: Iterable[Action]) -> list[Mapping[str, Any]]:
    return [dict(a.args) for a in actions]


# -- reading what happened (shared by the lhtr and aarhe tests) ----------------------------------------
def rolls(g: Play) -> list[list[int]]:
    """The dice rolled since `g.log` was last emptied."""
    return [e[1]["faces"] for e in g.log if e[0] == "roll"]


def destroyed(g: Play) -> list[str]:
    return [f'{e[1]["owner"]} {e[1]["kind"]}' for e in g.log if e[0] == "destroyed"]


def fight(g: Play, where: str, dice: list[int]) -> None:
    """Fight the battle at `where` with these dice, the log emptied first."""
    g.state.load_dice(dice)
    g.log = []
    g.act("fight", where=where)


def asked(g: Play) -> tuple[str, str, list[str]]:
    """The question being asked: who, what, and the answers' labels."""
    d = g.decision
    assert d is not None and d.kind == "choose"
    return d.player, d.prompt, [a.label for a in d.options]


def choices(g: Play) -> list[str]:
    """The answers offered to the question being asked (a unit's next space, say)."""
    assert g.decision is not None and g.decision.kind == "choose"
    return sorted(str(a["choice"]) for a in g.decision.options)


def step(g: Play, unit: int, to: str) -> None:
    """Move `unit` one step to `to` (`go`, then the space asked for)."""
    g.act("go", u=unit)
    if g.decision is not None and g.decision.kind == "choose":
        g.choose(to)


def left(g: Play, unit: int) -> int:
    return int(g.proc("moves_left", g.piece(unit)))
