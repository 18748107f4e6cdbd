"""The standard checks of a mod, for its author: `pytest --wargame-mod ./my-mod`.

    pytest --wargame-mod ./my-mod [--wargame-games 3] [--wargame-max-turns 2] [--wargame-seed 0]

For each mod folder it adds these tests to whatever else pytest collects:

* `check`: what `wargame check` says of the mod (every error of its rules and data files,
  as file:line:col with the line and a caret), and that it loads;
* `scenario[NAME]`: each scenario sets up and passes the ruleset's scenario checks;
* `random_game[SCENARIO-seedN]`: a short game of random moves (seeded, stopped after
  `--wargame-max-turns` turns), every invariant checked after every action: the engine's
  own and those of the rulesets in the mod's chain (the `wargame_invariants` hook). A
  failure says how to replay the game with `wargame play`;
* `rules_diff`: what the mod changes against its base (`wargame rules diff`), also shown
  in the report's header.

Installed with wargame (the `pytest11` entry point), so `pytest --wargame-mod DIR` just works;
without the entry point, `pytest -p clients.pytest_plugin --wargame-mod DIR`.
"""

from __future__ import annotations

import shlex
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: a random game longer than this many actions has a step that never ends
DEFAULT_MAX_ACTIONS = 20_000


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("wargame", "checks of a wargame mod (see clients/pytest_plugin.py)")
    group.addoption("--wargame-mod", action="append", default=[], metavar="DIR",
                    help="check the mod in folder DIR: wargame check, its scenarios, random games, its rules diff "
                         "(may be given several times; each folder is also known to the others, as with --mod)")
    group.addoption("--wargame-games", type=int, default=3, metavar="N",
                    help="random games per mod (default 3)")
    group.addoption("--wargame-max-turns", type=int, default=2, metavar="T",
                    help="stop each random game after turn T (default 2)")
    group.addoption("--wargame-seed", type=int, default=0, metavar="S",
                    help="game i has seed S + i (default 0)")
    group.addoption("--wargame-max-actions", type=int, default=DEFAULT_MAX_ACTIONS, metavar="N",
                    help=f"a random game that takes more actions fails (default {DEFAULT_MAX_ACTIONS:,})")
    group.addoption("--wargame-trust-code", action="store_true",
                    help="run the Python plugin a mod may contain (never run otherwise)")


class ModCheckFailed(Exception):
    """A check of the mod failed; the message is the whole report."""


class ModUnderTest:
    """One --wargame-mod folder: what it is, and (once each) its loaded ruleset and rules diff."""

    def __init__(self, folder: Path, paths: list[Path], trust_code: bool) -> None:
        from engine import plugins

        self.folder = folder
        self.paths = paths
        self.trust_code = trust_code
        self.manifest_error: str | None = None
        self.name = folder.name
        self.extends: str | None = None
        self.scenarios: list[str] = []
        try:
            info = plugins.read_manifest(folder)
        except plugins.ManifestError as e:
            self.manifest_error = str(e)
        else:
            self.name, self.extends = info.name, info.extends
            self.scenarios = [s.name for s in info.scenarios]
        self._ruleset: Any = None
        self._load_error: str | None = None
        self._diff: Any = None
        self._diff_error: str | None = None

    def ruleset(self) -> Any:
        """The mod loaded as for play; ModCheckFailed (said once, cached) if it does not load."""
        if self._ruleset is None and self._load_error is None:
            from engine import plugins

            try:
                self._ruleset = plugins.load(self.folder, paths=self.paths, trust_code=self.trust_code)
            except Exception as e:
                self._load_error = _message(e)
        if self._load_error is not None:
            raise ModCheckFailed(self._load_error)
        return self._ruleset

    def loads(self) -> bool:
        try:
            self.ruleset()
        except ModCheckFailed:
            return False
        return True

    def scenario_names(self) -> list[str]:
        """The scenarios it plays (its own, or its base's)."""
        if self.loads():
            return [s.name for s in self._ruleset.info.scenarios]
        return self.scenarios

    def diff(self) -> Any:
        if self._diff is None and self._diff_error is None:
            from engine import plugins, rules_diff

            if self.extends is None:
                self._diff_error = "a whole game (no `extends`): there is no base to compare it with"
            else:
                try:
                    base = plugins.load(self.extends, paths=self.paths, trust_code=self.trust_code)
                    self._diff = rules_diff.diff(base, self.ruleset())
                except ModCheckFailed as e:
                    self._diff_error = f"it does not load: {_first_line(str(e))}"
                except Exception as e:
                    self._diff_error = f"its base `{self.extends}` does not load: {_first_line(_message(e))}"
        return self._diff

    def replay_command(self, scenario: str, seed: int, max_turns: int) -> str:
        mods = " ".join(f"--mod {shlex.quote(str(p))}" for p in self.paths)
        trust = "--trust-code " if self.trust_code else ""
        return (f"wargame {trust}{mods} play {self.name} --scenario {shlex.quote(scenario)} --ai all=random "
                f"--seed {seed} --max-turns {max_turns} --save game.json")


def _message(e: BaseException) -> str:
    """An error as `wargame` would say it (the rules compiler's file:line:col blocks)."""
    from clients.cli import error_message

    return error_message(e)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


_MODS = pytest.StashKey[list[ModUnderTest]]()


def pytest_configure(config: pytest.Config) -> None:
    folders = [Path(f) for f in config.getoption("wargame_mod") or []]
    for f in folders:
        if not f.is_dir():
            raise pytest.UsageError(f"--wargame-mod {f}: no such folder (give the folder of the mod's ruleset.json)")
    paths = [f.resolve() for f in folders]
    trust = bool(config.getoption("wargame_trust_code"))
    config.stash[_MODS] = [ModUnderTest(f.resolve(), paths, trust) for f in folders]


def _mods(config: pytest.Config) -> list[ModUnderTest]:
    return config.stash.get(_MODS, [])


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines: list[str] = []
    for mod in _mods(config):
        base = f", extends {mod.extends}" if mod.extends else ""
        lines.append(f"wargame mod: {mod.name} ({mod.folder}{base})")
        if mod.manifest_error:
            lines.append(f"  {_first_line(mod.manifest_error)}")
            continue
        d = mod.diff()
        if d is None:
            lines.append(f"  rules diff: {mod._diff_error}")
            continue
        lines += [f"  {ln}" if ln else "" for ln in d.render().splitlines()]
    return lines


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The mods' checks join the collected tests before `-k` and `-m` select among them."""
    for mod in _mods(config):
        name = f"wargame-mod:{mod.name}"
        checks = ModChecks.from_parent(session, name=name, nodeid=name, mod=mod)
        # collected as pytest collects any node, so it is counted and reported alike
        session.ihook.pytest_collectstart(collector=checks)
        report = session.ihook.pytest_make_collect_report(collector=checks)
        session.ihook.pytest_collectreport(report=report)
        if report.passed:
            items.extend(x for x in report.result if isinstance(x, pytest.Item))


class ModChecks(pytest.Collector):
    def __init__(self, *, mod: ModUnderTest, **kw: Any) -> None:
        super().__init__(**kw)
        self.mod = mod

    def collect(self) -> Iterator[pytest.Item]:
        config = self.config
        yield ModCheckItem.from_parent(self, name="check", mod=self.mod)
        for sc in self.mod.scenario_names():
            yield ScenarioItem.from_parent(self, name=f"scenario[{sc}]", mod=self.mod, scenario=sc)
        scenarios = self.mod.scenario_names() or [""]
        seed0 = int(config.getoption("wargame_seed"))
        for i in range(max(int(config.getoption("wargame_games")), 0)):
            sc = scenarios[i % len(scenarios)]
            yield RandomGameItem.from_parent(self, name=f"random_game[{sc}-seed{seed0 + i}]" if sc else
                                             f"random_game[seed{seed0 + i}]", mod=self.mod, scenario=sc or None,
                                             seed=seed0 + i)
        yield DiffItem.from_parent(self, name="rules_diff", mod=self.mod)


class _ModItem(pytest.Item):
    what = "check"

    def __init__(self, *, mod: ModUnderTest, **kw: Any) -> None:
        super().__init__(**kw)
        self.mod = mod

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.mod.folder / "ruleset.json", None, f"wargame mod {self.mod.name}: {self.name}"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ModCheckFailed):
            return f"{self.mod.name} ({self.mod.folder}): {self.what} failed\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def needs_ruleset(self) -> Any:
        """The loaded mod; a mod that does not load skips what needs it (its `check` fails)."""
        if self.mod.manifest_error:
            pytest.skip(f"{self.mod.name} does not load (see its check)")
        if not self.mod.loads():
            pytest.skip(f"{self.mod.name} does not load (see its check)")
        return self.mod.ruleset()


class ModCheckItem(_ModItem):
    """`wargame check DIR`, then loading it as for play."""

    what = "wargame check"

    def runtest(self) -> None:
        from clients.cli import render_diagnostics
        from engine import plugins

        if self.mod.manifest_error:
            raise ModCheckFailed(f"wargame: {self.mod.manifest_error}")
        try:
            diagnostics = plugins.check(self.mod.folder, self.mod.paths, trust_code=self.mod.trust_code)
        except Exception as e:
            raise ModCheckFailed(_message(e)) from None
        text, errors = render_diagnostics(diagnostics)
        if errors:
            raise ModCheckFailed(f"{text}\n{errors} error{'s' if errors != 1 else ''}")
        if text:
            self.add_report_section("call", "wargame check", text)
        self.mod.ruleset()          # ModCheckFailed with wargame's message if it does not load


class ScenarioItem(_ModItem):
    what = "setting up a scenario"

    def __init__(self, *, scenario: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.scenario = scenario

    def runtest(self) -> None:
        from engine.game import Game

        rs = self.needs_ruleset()
        try:
            Game(rs, self.scenario, 0)
        except Exception as e:
            raise ModCheckFailed(f"scenario `{self.scenario}`: {_message(e)}") from None


class RandomGameItem(_ModItem):
    what = "a random game"

    def __init__(self, *, scenario: str | None, seed: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.scenario = scenario
        self.seed = seed

    def runtest(self) -> None:
        rs = self.needs_ruleset()
        max_turns = int(self.config.getoption("wargame_max_turns"))
        max_actions = int(self.config.getoption("wargame_max_actions"))
        report = play_checked(rs, self.scenario, self.seed, max_turns, max_actions)
        if report.failure:
            scenario = self.scenario or rs.info.default_scenario
            raise ModCheckFailed(f"{report.failure}\nreplay it: {self.mod.replay_command(scenario, self.seed, max_turns)}")
        self.add_report_section("call", "random game", report.summary)


class DiffItem(_ModItem):
    what = "the rules diff"

    def runtest(self) -> None:
        if self.mod.extends is None and not self.mod.manifest_error:
            pytest.skip(f"{self.mod.name} is a whole game (no `extends`): there is no base to compare it with")
        self.needs_ruleset()
        d = self.mod.diff()
        if d is None:
            raise ModCheckFailed(str(self.mod._diff_error))
        self.add_report_section("call", f"rules diff against {d.base}", d.render())


# -- a random game, every invariant checked -----------------------------------------------------
class GameReport:
    def __init__(self) -> None:
        self.failure: str | None = None
        self.summary = ""


def play_checked(rs: Any, scenario: str | None, seed: int, max_turns: int,
                 max_actions: int = DEFAULT_MAX_ACTIONS) -> GameReport:
    """A game as `wargame play NAME --ai all=random --seed SEED --max-turns T` plays it (the
    same players, the same dice), with the engine's and the rulesets' invariants checked
    after every action. A failure is reported, not raised."""
    from clients import seats
    from engine import invariants
    from engine.actions import IllegalAction
    from engine.game import Game

    report = GameReport()
    name = scenario or rs.info.default_scenario
    try:
        game = Game(rs, scenario, seed)
    except Exception as e:
        report.failure = f"scenario `{name}` cannot be set up: {_message(e)}"
        return report
    computer = seats.assign(rs, ["all=random"], seed=seed)

    def where() -> str:
        try:
            return str(rs.structure.where(game.state))
        except Exception:
            return f"turn {game.state.turn}"

    broken = invariants.problems(rs, game.state, None)
    if broken:
        report.failure = (f"random game of `{name}`, seed {seed}: at the start ({where()}) the state breaks "
                          f"{_invariants(broken)}")
        return report
    action: Any = None
    try:
        while not game.over and game.state.turn <= max_turns:
            if len(game.actions) >= max_actions:
                report.failure = (f"random game of `{name}`, seed {seed}: still at {where()} after {max_actions:,} "
                                  f"actions (a step that never ends? its `while` must become false, or its "
                                  f"`finish` end it)")
                return report
            decision = game.decision
            assert decision is not None
            player = computer[seats.deciding(rs, decision.player)]
            action = player.choose(rs, game.state, decision)
            previous = game.state
            try:
                game.play(action)
            except IllegalAction as e:
                report.failure = (f"random game of `{name}`, seed {seed}, action {len(game.actions) + 1} ({where()}): "
                                  f"the rules offered {action} and then refused it: {e.reason}")
                return report
            broken = invariants.problems(rs, game.state, previous)
            if broken:
                report.failure = (f"random game of `{name}`, seed {seed}: after action {len(game.actions)} "
                                  f"({action}), at {where()}, the state breaks {_invariants(broken)}")
                return report
    except Exception as e:
        report.failure = (f"random game of `{name}`, seed {seed}, action {len(game.actions) + 1} ({where()}"
                          + (f", playing {action}" if action is not None else "") + f"): {_message(e)}")
        if "internal error" in report.failure:
            report.failure += "\n" + "".join(traceback.format_exception(e)[-6:])
        return report
    r = game.result
    ended = (f"ended after {len(game.actions)} actions: " + (f"{r.winner} won" if r.winner else "a draw")
             + f" ({r.reason})") if r else f"stopped after turn {max_turns} ({len(game.actions)} actions), no result yet"
    report.summary = f"random game of `{name}`, seed {seed}: {ended}"
    return report


def _invariants(broken: list[str]) -> str:
    if len(broken) == 1:
        return f"an invariant: {broken[0]}"
    return f"{len(broken)} invariants:\n" + "\n".join(f"  - {b}" for b in broken)
