"""How much of listing a decision's options repeats the decision before: the most that keeping
a move's options between decisions could save (issue 32), before paying to know what they read.

    python benchmarks/listing_repeats.py bulge --games 10 [--seed 0] [--json]

Plays the random games of random_games.py; at each decision of a step its rules declare, lists
each move's rows once more (CPU time) and compares them with the rows the move gave at the
decision before in the same step. Prints, for each move and in all, the CPU seconds of its
listings and of those that gave the same rows (an exact cache would have answered them). The
games played are the benchmark's own: the listing looked at is the engine's, untouched.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import randplay  # noqa: E402

from engine import rules_logic  # noqa: E402


def rows(mv: Any, state: Any) -> tuple[Any, ...]:
    """A move's rows as the engine lists them: its choices (each asked of its guard), or its offers."""
    if mv.candidates is None:
        return tuple(mv.offers(state))
    choices = tuple(mv.candidates(state))
    return choices if mv.admits is None else tuple(c for c in choices if mv.admits(state, c))


def main(argv: list[str] | None = None) -> int:
    args, rs, max_turns = randplay.set_up(__doc__.splitlines()[0], argv)
    spent: Counter[str] = Counter()     # (of CPU seconds)
    repeated: Counter[str] = Counter()
    last: dict[str, tuple[Any, str]] = {}
    listed = rules_logic.RulesLogic._offers

    def offers(logic: Any, state: Any, spec: Any) -> Any:
        where = (state.turn, state.power_index, state.phase_index, state.step_index)
        for mv in spec.moves:
            t = time.process_time()
            got = repr(rows(mv, state))
            cpu = time.process_time() - t
            name = f"{spec.name}.{mv.name}"
            spent[name] += cpu  # type: ignore[assignment]
            if last.get(name) == (where, got):
                repeated[name] += cpu  # type: ignore[assignment]
            last[name] = (where, got)
        return listed(logic, state, spec)

    rules_logic.RulesLogic._offers = offers  # type: ignore[method-assign,assignment]
    try:
        for i in range(args.games):
            randplay.random_game(rs, args.seed + i, args.scenario, max_turns)
    finally:
        rules_logic.RulesLogic._offers = listed  # type: ignore[method-assign]
    total = sum(spent.values())
    figures = {
        "ruleset": rs.name, "games": args.games,
        "listing_cpu_s": total, "repeated_cpu_s": sum(repeated.values()),
        "repeated_share": sum(repeated.values()) / total if total else 0.0,
        "moves": {name: {"cpu_s": spent[name], "repeated_cpu_s": repeated[name]} for name, _ in spent.most_common()},
    }
    if args.json:
        randplay.report(figures, True)
        return 0
    randplay.report({k: v for k, v in figures.items() if k != "moves"}, False)
    for name, _ in spent.most_common(12):
        print(f"  {name:40} {spent[name]:8.3f} s  repeated {repeated[name]:8.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
