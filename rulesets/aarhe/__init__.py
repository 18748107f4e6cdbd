"""Axis & Allies Revised: LHTR 2.0, the base game, and the AARHE house rules over it. Each is
a folder ruleset of rules and data files with no Python, shipped in this package and
announced through its entry point exactly as a modder's folder would be read. The package's
own Python is the computer player (`ai/`), which the folders bring as theirs."""

from __future__ import annotations

from pathlib import Path

from engine.plugins import FolderRuleset

HERE = Path(__file__).parent

#: the heuristic computer player (rulesets/aarhe/ai) plays lhtr and every ruleset built on it
PLAYERS = {"heuristic": "rulesets.aarhe.ai:HeuristicPlayer"}

lhtr = FolderRuleset(HERE / "lhtr", builtin=True, players=PLAYERS)
aarhe = FolderRuleset(HERE / "aarhe", builtin=True)
