"""What a ruleset is to the engine: its facts (RulesetInfo), its game logic (GameLogic), and
the loaded whole (LoadedRuleset) a game is played with."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pluggy

from engine.actions import Action, Decision
from engine.sequence import TurnStructure
from engine.state import GameState


@dataclass(frozen=True)
class ScenarioInfo:
    name: str
    title: str
    description: str = ""
    fidelity: str = "exact"
    #: what the scenario adds up to; shown by `wargame rulesets`
    summary: str = ""
    #: its scenario file (engine/scenario.py), for rulesets whose set-up is data
    path: Path | None = None


@dataclass(frozen=True)
class RulesetInfo:
    """A ruleset's facts, as its plugin announces them at discovery."""

    name: str
    title: str
    root: Path
    rules_files: tuple[Path, ...]
    scenarios: tuple[ScenarioInfo, ...]
    version: str = "0"
    extends: str | None = None
    sides: tuple[str, ...] = ()
    #: data files whose content is part of the ruleset's identity (maps, orders of battle)
    data_files: tuple[Path, ...] = ()
    description: str = ""
    #: a mod folder's optional Python plugin file
    plugin: str | None = None
    #: map-changes files (engine/mapfile.py) applied to every scenario's map, base layer first
    map_changes: tuple[Path, ...] = ()
    #: (name, folder) of every layer of the chain, base first, as the ruleset is played
    roots: tuple[tuple[str, Path], ...] = ()

    @property
    def default_scenario(self) -> str:
        return self.scenarios[0].name if self.scenarios else ""

    def scenario(self, name: str | None) -> ScenarioInfo:
        if not self.scenarios:
            raise LookupError(f"ruleset `{self.name}` has no scenarios")
        if name is None:
            return self.scenarios[0]
        for s in self.scenarios:
            if s.name == name:
                return s
        known = ", ".join(s.name for s in self.scenarios)
        raise LookupError(f"ruleset `{self.name}` has no scenario `{name}` (it has: {known})")


@dataclass(frozen=True)
class Result:
    """How a game ended: the winner (a side, or None for a draw) and why."""

    winner: str | None
    reason: str
    score: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "score": dict(self.score)}


class GameLogic:
    """A ruleset's game, as the engine drives it. Subclass per ruleset.

    The engine asks `decision(state)`; None means the current step has nothing left to ask,
    and the engine moves the sequence on. A player's answer goes to `apply(state, action)`,
    which must raise :class:`IllegalAction` (with a reason for the player) before changing
    anything it cannot finish; the engine applies actions to a copy in any case, so a refused
    action never leaves a trace.
    """

    def __init__(self, rules: Any, info: RulesetInfo, structure: TurnStructure) -> None:
        self.rules = rules
        self.info = info
        self.structure = structure

    # -- setting up ---------------------------------------------------------------------------
    def new_state(self, scenario: str, seed: int) -> GameState:  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__} must set up a scenario")

    # -- playing ------------------------------------------------------------------------------
    def decision(self, state: GameState) -> Decision | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply(self, state: GameState, action: Action) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply_offered(self, state: GameState, action: Action, offer: Any,
                      asked: GameState | None = None) -> None:
        """Play an action that this logic listed among the options of `state`'s decision
        (`state` is a fresh copy of the state that was asked, `asked`, which stays as it is;
        `offer` is what the logic put in `action.offer` beside it). The options already
        passed the rules' checks, so a logic may skip them here; by default the action is
        checked like any other."""
        self.apply(state, action)

    def before_boundary(self, state: GameState, name: str, args: dict[str, Any]) -> None:
        """Called at every boundary before anything is bound to it runs (game variables go
        back to their starting values here, so rules bound to the boundary see them fresh)."""

    def on_boundary(self, state: GameState, name: str, args: dict[str, Any]) -> None:
        """Called at every sequence boundary (turn_start, phase_start, step_start, ...), after
        the plugins' hooks and the rules files' handlers. For automatic work in Python that
        the rules language cannot express; a plain method call, cheap in look-ahead."""

    def result(self, state: GameState) -> Result | None:
        """The result if the game is over (checked after every action and boundary)."""
        return None

    def final_result(self, state: GameState) -> Result:
        """The result when the last turn has been played."""
        return Result(None, "the last turn was played")

    # -- telling ------------------------------------------------------------------------------
    def facts(self, state: GameState) -> dict[str, Any]:
        """The scenario's facts for `wargame info`: JSON-able. By default, how many spaces
        the board has and how many pieces each side starts with."""
        pieces: dict[str, int] = {}
        for p in state.pieces.values():
            pieces[p.owner] = pieces.get(p.owner, 0) + 1
        return {"spaces": len(state.board), "pieces": pieces}

    def status(self, state: GameState) -> str:
        """One line on where the game stands (turn, phase, score)."""
        return self.structure.where(state)

    def standing(self, state: GameState) -> dict[str, Any]:
        """Where the game stands when it is stopped before its end (`--max-turns`): the
        ruleset's score if it keeps one."""
        score = getattr(self, "score", None)
        return dict(score(state)) if callable(score) else {}

    def measures(self, state: GameState) -> dict[str, float]:
        """The figures that decide the game, as numbers by name, for `wargame simulate` to
        follow turn by turn (VP in Battle of the Bulge, each side's income and victory
        cities in Axis & Allies). By default the standing, where its values are numbers."""
        return {str(k): v for k, v in self.standing(state).items() if isinstance(v, int | float)}

    def side_of(self, power: str) -> str:
        """The side (team) a power plays on; the same name where powers are sides."""
        return power

    # -- views for clients (no rules here, only how things are called) ----------------------
    def space_label(self, state: GameState, space: str) -> str:
        """A short label for a space on a text map (at most 4 characters)."""
        pieces = state.pieces_at(space)
        owner = state.control.get(space, "")
        mark = owner[:1].upper() if owner else "."
        return f"{mark}{len(pieces)}" if pieces else mark

    def map_legend(self) -> str:
        """What the text map's labels mean."""
        return "labels: first letter of the side holding a space, and the number of pieces there"

    def areas(self, scenario: str | None) -> dict[str, str]:
        """The off-board areas a scenario declares (reserves, reinforcement charts: space ids
        with a `:`), id -> name, for a client to draw beside the map."""
        return {}

    def tracks(self, state: GameState) -> dict[str, tuple[int, int]]:
        """Tracks a client draws beside the map: name -> (value, target), say the VP a side
        holds against the VP that win."""
        return {}

    def describe_space(self, state: GameState, space: str) -> str:
        """A line or two on a space: its name, facts and what stands there."""
        sp = state.board.space(space)
        pieces = state.pieces_at(space)
        counts: dict[str, int] = {}
        for p in pieces:
            key = f"{p.owner} {p.kind}"
            counts[key] = counts.get(key, 0) + 1
        held = state.control.get(space)
        text = state.board.titles.get(sp.id, sp.name) + (f", held by {held}" if held else "")
        if counts:
            text += ": " + ", ".join(f"{n} {k}" for k, n in counts.items())
        return text

    def narrate(self, event: tuple[str, dict[str, Any]]) -> str | None:
        """Words for a logged event, or None to keep it out of the players' view."""
        kind, data = event
        if kind == "roll":
            faces = " ".join(map(str, data["faces"]))
            if data.get("at") is not None:          # rolled to hit: whose, at what, how many hit
                hits = sum(1 for f in data["faces"] if f <= data["at"])
                who = f"{data['why']}: " if data.get("why") else ""
                return (f"{who}{data['n']} {'die' if data['n'] == 1 else 'dice'} {hitting_words(data['at'])}: "
                        f"{faces} — {hits} hit{'' if hits == 1 else 's'}")
            why = f" for {data['why']}" if data.get("why") else ""
            return f"rolled {data['n']}d{data['sides']}{why}: {faces}"
        if kind == "note":
            return str(data.get("message", ""))
        if kind == "warning":
            return f"warning: {data.get('message', '')}"
        if kind == "destroyed":
            formation = f" ({data['group']})" if data.get("group") else ""
            return f"{data['owner']} {data['kind']}{formation} destroyed in {data.get('where', data['space'])}"
        if kind == "phase_start":
            return f"-- {str(data['phase']).replace('_', ' ')} --"
        if kind == "turn_start":
            return f"== {self.structure.turn_words(int(data['turn']), of_all=False)} =="
        return None


def hitting_words(at: int) -> str:
    """What dice rolled to hit hit on: "hitting on 1", "hitting on 3 or less"."""
    return f"hitting on {at}" + (" or less" if at > 1 else "")


@dataclass
class LoadedRuleset:
    """A ruleset ready to play: its chain of plugins, compiled rules and logic."""

    info: RulesetInfo
    chain: tuple[RulesetInfo, ...]
    plugins: pluggy.PluginManager
    rules: Any
    logic: GameLogic
    options: dict[str, Any]

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def structure(self) -> TurnStructure:
        return self.logic.structure

    @property
    def fingerprint(self) -> str:
        """Identifies these rules: the rules sources and the ruleset's data files."""
        h = hashlib.sha256(str(self.rules.fingerprint).encode())
        for info in self.chain:
            for path in sorted(info.data_files):
                h.update(path.name.encode())
                h.update(path.read_bytes())
        return h.hexdigest()

    def for_scenario(self, scenario: str | None) -> LoadedRuleset:
        """These rules as the scenario plays them: a scenario file's `options` (its powers and
        their order, on a map with other powers) are its defaults, so each option still at its
        declared default takes the scenario's value; one given otherwise (--option) is kept.
        The same ruleset when the scenario sets nothing new."""
        info = self.info.scenario(scenario) if self.info.scenarios else None
        if info is None or info.path is None:
            return self
        from engine.scenario import read_scenario

        # an option these rules do not declare is a layer's (a base's scenario may set the
        # options of the house rules played over it): left out
        specs = self.rules.option_specs
        wanted = {k: v for k, v in read_scenario(info.path).options.items()
                  if k in specs and self.options.get(k) == specs[k].default}
        if all(self.rules.options.get(k) == v for k, v in wanted.items()):
            return self
        try:
            rules = self.rules.with_options(wanted)
        except Exception as e:          # a value of the wrong type, an order naming a power twice
            from engine.scenario import ScenarioDataError

            raise ScenarioDataError(f"scenario `{info.name}` ({info.path.name}): its `options`: {e}") from None
        answers = [a for a in self.plugins.hook.wargame_logic(rules=rules, info=self.info) if a is not None]
        if answers:
            logic: GameLogic = answers[-1]
        else:
            from engine.rules import structure_from_rules
            from engine.rules_logic import RulesLogic

            logic = RulesLogic(rules, self.info, structure_from_rules(rules))
        return replace(self, rules=rules, logic=logic, options=dict(rules.options))
