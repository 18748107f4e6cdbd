"""The pluggy hook specifications: what a ruleset plugin can tell and do.

A ruleset is a plugin (a module or object with `@hookimpl` functions) found through the
entry-point group ``wargame.rulesets`` or in a folder (mods). When a game is loaded, the
engine makes one plugin manager for it holding the ruleset and every ruleset it extends.
They are registered most-derived first, so pluggy calls the **base ruleset first and the
extending ruleset last**: a house rule runs after, and can adjust, what its base did. Where
one answer is needed, the engine takes the **last** one, so the most-derived ruleset wins.

Hooks run at load time and at turn and phase boundaries, never inside dice loops: a pluggy
call costs about 3 µs against 0.1 µs for a plain call.
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "wargame"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def wargame_ruleset_info() -> Any:
    """Called at discovery on every installed plugin.

    Returns the plugin's :class:`engine.ruleset.RulesetInfo` (name, title, rules files,
    scenarios, the ruleset it extends), or None for a plugin that only adds hooks.
    All answers are collected."""


@hookspec
def wargame_register(registry: Any, info: Any) -> None:
    """Called once when a game's rules are loaded, base ruleset first, before the rules files
    are compiled.

    Adds the ruleset's primitives (functions rules files may call), record types, events
    and constants to the rules language's `registry`. Returns nothing."""


@hookspec
def wargame_logic(rules: Any, info: Any) -> Any:
    """Called once at load time. Returns an :class:`engine.ruleset.GameLogic` (or None).

    The engine uses the last answer, so an extending ruleset may return a subclass of its
    base's logic. The logic object's methods are the hot path: the engine calls them
    directly, not through pluggy."""


@hookspec
def wargame_check_scenario(state: Any, rules: Any, scenario: str) -> list[str] | None:
    """Called after a scenario is set up and before play. Returns the problems found (a
    scenario that does not add up), as sentences for the scenario's author. All answers are
    collected; any problem refuses the scenario."""


@hookspec
def wargame_invariants(ruleset: Any, state: Any, previous: Any) -> list[str] | None:
    """Called by the testing tools (the pytest plugin for mods) after every action of a
    checked game, never in play. Returns what the state breaks of what must hold of every
    state the rules reach (stacking, score and board agreeing...), as sentences. `previous`
    is the state before the action, None at the start. All answers are collected."""


@hookspec
def wargame_turn_start(state: Any, rules: Any, turn: int) -> None:
    """Called at the start of every turn (round), base ruleset first."""


@hookspec
def wargame_turn_end(state: Any, rules: Any, turn: int) -> None:
    """Called at the end of every turn (round), base ruleset first."""


@hookspec
def wargame_power_start(state: Any, rules: Any, turn: int, power: str) -> None:
    """Called when a power's turn starts, in sequences where powers take turns in order."""


@hookspec
def wargame_power_end(state: Any, rules: Any, turn: int, power: str) -> None:
    """Called when a power's turn ends, in sequences where powers take turns in order."""


@hookspec
def wargame_phase_start(state: Any, rules: Any, phase: str) -> None:
    """Called when a phase starts, base ruleset first, after the state is on its first step
    and before anyone is asked anything."""


@hookspec
def wargame_phase_end(state: Any, rules: Any, phase: str) -> None:
    """Called when a phase ends, base ruleset first."""


@hookspec
def wargame_game_end(state: Any, rules: Any) -> None:
    """Called once when the last turn ends (not when a sudden-death victory ends it)."""


@hookspec
def wargame_players(info: Any) -> dict[str, Any] | None:
    """Called when a game is set up. Returns computer players this ruleset offers, as
    name -> factory(seed) -> player (an object with `name` and `choose(ruleset, state,
    decision)`). A factory whose `takes_odds` is true is also given `odds=`, battle odds from
    the rules (engine.odds_protocol.BattleOdds). All answers are merged, the most derived
    ruleset's last; the first name of the last answer is the ruleset's default computer
    player."""
