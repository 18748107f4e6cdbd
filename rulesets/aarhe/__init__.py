"""Axis & Allies Revised: LHTR 2.0, the base game, and the AARHE house rules over it. Each is
a folder ruleset of rules and data files with no Python, shipped in this package and
announced through its entry point exactly as a modder's folder would be read."""

from __future__ import annotations

from pathlib import Path

from engine.plugins import FolderRuleset

HERE = Path(__file__).parent

lhtr = FolderRuleset(HERE / "lhtr", builtin=True)
aarhe = FolderRuleset(HERE / "aarhe", builtin=True)
