"""Playing AARHE in small situations: tests/lhtr/play.py's tools, with the aarhe ruleset."""

from __future__ import annotations

import functools
from typing import Any

from engine import plugins
from engine.ruleset import LoadedRuleset
from tests.lhtr.play import SPARE, Play, option_args, situation

__all__ = ["SPARE", "Play", "aarhe", "new", "option_args", "at_aarhe"]


@functools.lru_cache(maxsize=8)
def _load(options: tuple[tuple[str, Any], ...]) -> LoadedRuleset:
    return plugins.load("aarhe", dict(options))


def aarhe(**options: Any) -> LoadedRuleset:
    """The aarhe ruleset (loaded once per set of options)."""
    return _load(tuple(sorted(options.items(), key=lambda kv: kv[0])))


def new(seed: int = 0, **options: Any) -> Play:
    """A new AARHE game on the standard set-up."""
    return Play.new(seed, ruleset=aarhe(**options))


def at_aarhe(power: str, pieces: Any, control: Any = None, step: str = "combat_move", ipc: int | None = None,
             spare: bool = True, **options: Any) -> tuple[Play, dict[str, list[int]]]:
    """tests/lhtr/play.py's `situation`, played under AARHE."""
    return situation(power, pieces, control, step=step, ipc=ipc, spare=spare, ruleset=aarhe(**options))
