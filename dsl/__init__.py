"""The rules language: a small, typed, sandboxed language for wargame rules files.

Rules files declare unit stats, tables, options, procedures, rules bound to engine events
and the turn sequence; :func:`load_rules` checks them (collecting every error) and compiles
them to Python code objects once, at load.
"""

from .errors import Diagnostic, Pos, RulesError, RulesLimitError, RulesRuntimeError
from .loader import check_rules, coerce_option, load_rules
from .model import CompiledRules, OptionSpec, PhaseSpec, SequenceDecl, StatSpec, UnitType
from .parser import parse_module
from .registry import Registry
from .runtime import DEFAULT_ITEMS, DEFAULT_STEPS, MAX_RANGE, Limits, limits, set_limits
from .types import Type

__all__ = [
    "CompiledRules",
    "DEFAULT_ITEMS",
    "DEFAULT_STEPS",
    "Diagnostic",
    "Limits",
    "MAX_RANGE",
    "OptionSpec",
    "PhaseSpec",
    "Pos",
    "Registry",
    "RulesError",
    "RulesLimitError",
    "RulesRuntimeError",
    "SequenceDecl",
    "StatSpec",
    "Type",
    "UnitType",
    "check_rules",
    "coerce_option",
    "limits",
    "load_rules",
    "parse_module",
    "set_limits",
]
