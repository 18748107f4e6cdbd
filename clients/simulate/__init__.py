"""`wargame simulate`: many games of a ruleset (and of another to compare it with) played by
computer players on every local core or a Dask cluster, summed up with confidence intervals.

Its parts, each with one job: `games` (one game as a pure function of its setup and seed),
`ledger` (the --out file of one JSON line a game, and --resume), `runner` (where the games
run: here, in processes, or on a cluster), `stats` (Wilson intervals and the paired
difference), `report` (the summary and its text), `plot` (the PNG) and `command` (the
command line)."""


class SimulateError(Exception):
    """A simulation that cannot start or go on, said in one line for the player."""
