"""Starting and loading games from inside a client (the window's new-game screen and its
"load a save" entry): the installed rulesets, their scenarios and sides, new games with the
computer at the sides asked for, saved games loaded with the command line's mods.

No pyglet here: the screen (clients/gui.py) shows what this finds and calls it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from clients import seats
from engine import plugins, save
from engine.game import Game
from engine.ruleset import RulesetInfo

Saver = Callable[[Game], None]


class Launcher:
    """What the window needs to start a game: the mods and trust of the command line, and
    the file it was told to save to (`save_path`, or None)."""

    def __init__(self, mods: Sequence[str | Path] = (), trust_code: bool = False,
                 save_path: str | Path | None = None) -> None:
        self.mods = tuple(mods)
        self.trust_code = trust_code
        self.save_path = save_path
        self._infos: list[RulesetInfo] | None = None
        self._sides: dict[str, list[str]] = {}
        #: one line for each ruleset found that cannot be offered, and why (a mod whose base is
        #: missing, a circle of rulesets extending each other...), for the screen to show
        self.problems: list[str] = []

    def rulesets(self) -> list[RulesetInfo]:
        """The rulesets there are to play, by name (the built-in ones and the mods, a layer
        over another ruleset with its base's scenarios and sides). One that cannot be played
        is left out and said in `problems`."""
        if self._infos is None:
            found = plugins.discover(self.mods, self.trust_code)
            infos, problems = [], []
            for name, (_, info) in sorted(found.items()):
                if info.extends:
                    try:           # a layer over another ruleset plays its base's scenarios
                        info = plugins.inherited_info(plugins.chain_of(name, found))
                    except (plugins.ManifestError, plugins.RulesetNotFound) as e:
                        problems.append(f"{name} cannot be played: {e}")
                        continue
                if info.scenarios:
                    infos.append(info)
                else:
                    problems.append(f"{name} cannot be played: it has no scenario")
            self._infos, self.problems = infos, problems
        return self._infos

    def default_ruleset(self) -> str:
        """The ruleset the new-game screen starts on: bulge when there is one."""
        names = [i.name for i in self.rulesets()]
        return "bulge" if "bulge" in names else (names[0] if names else "")

    def info(self, name: str) -> RulesetInfo:
        for info in self.rulesets():
            if info.name == name:
                return info
        raise plugins.RulesetNotFound(f"no ruleset called `{name}`")

    def sides(self, name: str) -> list[str]:
        """The sides of a ruleset (loading it when its manifest does not list them)."""
        if name not in self._sides:
            info = self.info(name)
            self._sides[name] = list(info.sides) if info.sides else seats.sides(self._load(name))
        return self._sides[name]

    def default_computer(self, name: str) -> set[str]:
        """The sides the computer plays unless told otherwise: all but the first."""
        return set(self.sides(name)[1:])

    def _load(self, name: str) -> Any:
        return plugins.load(name, {}, self.mods, trust_code=self.trust_code)

    def new_game(self, name: str, scenario: str | None, computer_sides: Iterable[str],
                 seed: int | None = None) -> tuple[Game, dict[str, Any], Saver | None]:
        """A new game of `name`, the computer playing `computer_sides`: the game, its computer
        players by side, and the saver (to the command line's --save file, if any)."""
        rs = self._load(name)
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        game = Game(rs, scenario, seed)
        computer = self.computer_for(game, computer_sides)
        path = self.save_path
        return game, computer, (None if path is None else _saver(path))

    def computer_for(self, game: Game, computer_sides: Iterable[str]) -> dict[str, Any]:
        wanted = [s for s in seats.sides(game.ruleset) if s in set(computer_sides)]
        return seats.assign(game.ruleset, wanted, hotseat=not wanted, seed=game.seed)

    def load(self, path: str | Path) -> Game:
        """A saved game (raises save.SaveError, OSError... with a message for the player)."""
        p = Path(path).expanduser()
        if p.is_dir():
            raise save.SaveError(f"{p} is a folder, not a saved game")
        return save.load(p, self.mods, trust_code=self.trust_code)

    @staticmethod
    def saver_to(path: str | Path) -> Saver:
        return _saver(Path(path).expanduser())


def _saver(path: str | Path) -> Saver:
    def saver(game: Game) -> None:
        save.save(game, path)

    return saver
