"""The computer players of Axis & Allies Revised (LHTR 2.0 and the layers over it)."""

from rulesets.aarhe.ai.player import HeuristicPlayer

__all__ = ["HeuristicPlayer"]
