"""What a simulation found, from its games' records: for each rule set, wins per side and
draws with their 95% intervals, the games' length, the measures per turn (mean and spread),
the seconds a game and the games that failed; with a comparison, the difference in each
side's win rate on the same seeds with its interval, and a verdict in plain words. As a
JSON-able summary (`--json`) and as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.simulate.stats import Paired, spread, wilson

#: the change in a win rate the verdict says how many games would find
CHANGE = 0.05


def summarise(records: Sequence[dict[str, Any]], sides: Sequence[str], sets: dict[str, str],
              seeds: Sequence[int], header: dict[str, Any]) -> dict[str, Any]:
    """The summary of the games of each set (`tried`, and `base` when compared; name ->
    label) among `seeds`."""
    wanted = set(seeds)
    by_set: dict[str, dict[int, dict[str, Any]]] = {name: {} for name in sets}
    for r in records:
        if r.get("rules") in by_set and r["seed"] in wanted:
            by_set[r["rules"]][r["seed"]] = r
    summary: dict[str, Any] = dict(header)
    summary["sets"] = [_one_set(name, label, by_set[name], sides) for name, label in sets.items()]
    if "base" in sets:
        summary["comparison"] = _compare(by_set["tried"], by_set["base"], sides)
    return summary


def outcome(record: dict[str, Any]) -> str | None:
    """A finished game's outcome: the winning side, `draw`, or `stopped` (past the turn
    limit with no result); None for a game that failed."""
    if "error" in record:
        return None
    result = record["result"]
    if not result.get("ended"):
        return "stopped"
    return str(result["winner"]) if result.get("winner") else "draw"


def _one_set(name: str, label: str, games: dict[int, dict[str, Any]], sides: Sequence[str]) -> dict[str, Any]:
    ok = [g for _, g in sorted(games.items()) if "error" not in g]
    failed = [g for _, g in sorted(games.items()) if "error" in g]
    n = len(ok)
    outcomes: dict[str, Any] = {}
    counted = [outcome(g) for g in ok]
    extra = [o for o in ("draw", "stopped") if o in counted or o == "draw"]
    others = sorted({o for o in counted if o not in sides and o not in ("draw", "stopped") and o is not None})
    for what in [*sides, *others, *extra]:
        k = counted.count(what)
        lo, hi = wilson(k, n)
        outcomes[what] = {"games": k, "rate": k / n if n else 0.0, "ci95": [lo, hi]}
    if "stopped" in outcomes:
        # who was ahead in the rules' score when the turn limit stopped them (None: level, or no side's score)
        leaders = [g["result"].get("leader") for g in ok if outcome(g) == "stopped"]
        outcomes["stopped"]["leading"] = {**{side: leaders.count(side) for side in sides},
                                          "none": sum(1 for x in leaders if x not in sides)}
    curves: dict[str, list[dict[str, Any]]] = {}
    for g in ok:
        for measure, series in g["curves"].items():
            rows = curves.setdefault(measure, [])
            for turn, value in enumerate(series, start=1):
                while len(rows) < turn:
                    rows.append({"turn": len(rows) + 1, "values": []})
                if value is not None:
                    rows[turn - 1]["values"].append(value)
    return {
        "rules": name,
        "label": label,
        "games": len(games),
        "finished": n,
        "outcomes": outcomes,
        "turns": spread([g["turns"] for g in ok]),
        "actions": spread([g["actions"] for g in ok]),
        "seconds": {**spread([g["seconds"] for g in games.values()]),
                    "total": sum(g["seconds"] for g in games.values())},
        "failed": len(failed),
        "failed_games": [{"seed": g["seed"], "error": g["error"]} for g in failed],
        "curves": {m: [{"turn": row["turn"], "games": len(row["values"]), **spread(row["values"])}
                       for row in rows] for m, rows in curves.items()},
    }


def _compare(tried: dict[int, dict[str, Any]], base: dict[int, dict[str, Any]], sides: Sequence[str]) -> dict[str, Any]:
    seeds = sorted(s for s in tried if s in base and outcome(tried[s]) is not None and outcome(base[s]) is not None)
    out: dict[str, Any] = {"paired_games": len(seeds), "sides": {}}
    found: list[str] = []
    needed = 0
    for side in sides:
        cells = [0, 0, 0, 0]
        for s in seeds:
            a, b = outcome(tried[s]) == side, outcome(base[s]) == side
            cells[0 if a and b else 1 if a else 2 if b else 3] += 1
        pair = Paired(*cells)
        lo, hi = pair.interval()
        n = pair.n
        games = pair.games_to_find(CHANGE)
        needed = max(needed, games)
        out["sides"][side] = {"tried": (cells[0] + cells[1]) / n if n else 0.0,
                              "base": (cells[0] + cells[2]) / n if n else 0.0,
                              "difference": pair.difference, "ci95": [lo, hi],
                              "seeds_differing": cells[1] + cells[2], "games_for_5_points": games}
        if n and (lo > 0 or hi < 0):
            found.append(f"{side} wins {_points(pair.difference)} {'more' if pair.difference > 0 else 'less'} "
                         f"often ({_points(lo, sign=True)} to {_points(hi, sign=True)} points, 95%)")
    out["games_for_5_points"] = needed
    if not seeds:
        out["verdict"] = "nothing to compare: no seed was played through under both rule sets"
    elif all(outcome(tried[s]) == outcome(base[s]) == "stopped" for s in seeds):
        out["verdict"] = ("no game reached a result under either rule set before the turn limit: compare the "
                          "measures per turn, or give a higher --max-turns")
    elif found:
        out["verdict"] = "the balance moved: " + "; ".join(found)
    else:
        out["verdict"] = (f"no difference found; about {needed:,} games a side would find a "
                          f"{round(CHANGE * 100)}-point change")
    out["found"] = bool(found)
    return out


def _points(x: float, sign: bool = False) -> str:
    value = f"{x * 100:+.1f}" if sign else f"{abs(x) * 100:.1f}"
    return value if sign else f"{value} points"


# -- as text --------------------------------------------------------------------------------------
def render(summary: dict[str, Any]) -> str:
    lines = [_heading(summary)] + [f"note: {n}" for n in summary.get("notes") or []]
    for one in summary["sets"]:
        lines.append("")
        lines += _set_text(one, compared="comparison" in summary, out=summary.get("out"))
    comparison = summary.get("comparison")
    if comparison:
        lines.append("")
        lines.append(f"difference in win rate (tried - base), paired on the same {comparison['paired_games']} seeds:")
        for side, d in comparison["sides"].items():
            lo, hi = d["ci95"]
            lines.append(f"  {side:<12} {_points(d['difference'], sign=True):>6} points  (95%: {_points(lo, sign=True)} "
                         f"to {_points(hi, sign=True)}; {d['seeds_differing']} seeds ended otherwise)")
        lines.append(f"verdict: {comparison['verdict']}")
    return "\n".join(lines)


def _heading(s: dict[str, Any]) -> str:
    players = ", ".join(f"{k}={v}" for k, v in s["players"].items())
    limit = f"stopped after turn {s['max_turns']}" if s.get("max_turns") else "played to the end"
    return (f"{_games(s['games'])} a rule set (seeds {s['seed']} to {s['seed'] + s['games'] - 1}), "
            f"scenario {s['scenario']}, {players}, {limit}")


def _games(n: int) -> str:
    return f"{n:,} game" + ("" if n == 1 else "s")


def _set_text(one: dict[str, Any], compared: bool, out: str | None) -> list[str]:
    name = {"tried": "tried", "base": "against"}.get(one["rules"], one["rules"])
    lines = [f"{name + ': ' if compared else ''}{one['label']}: {_games(one['finished'])} played"
             + (f" ({one['failed']} failed)" if one["failed"] else "")]
    for what, o in one["outcomes"].items():
        lo, hi = o["ci95"]
        said = {"draw": "draws", "stopped": "stopped, no result"}.get(what, f"{what} wins")
        lead = o.get("leading")
        ahead = ""
        if lead and any(lead[side] for side in lead if side != "none"):
            ahead = "; ahead in the score: " + ", ".join(f"{side} {k}" for side, k in lead.items() if side != "none") \
                + (f", level {lead['none']}" if lead["none"] else "")
        lines.append(f"  {said:<20} {o['games']:>5}  {o['rate'] * 100:5.1f}%  (95%: {lo * 100:.1f}-{hi * 100:.1f}%)"
                     + ahead)
    t = one["turns"]
    if t:
        lines.append(f"  length: {t['mean']:.1f} turns on average (sd {t['sd']:.1f}; {t['min']:g} to {t['max']:g}), "
                     f"{one['actions']['mean']:.0f} actions")
    sec = one["seconds"]
    if sec.get("mean") is not None:
        lines.append(f"  time: {sec['mean']:.2f} s a game, {sec['total']:.1f} s in all")
    if one["failed"]:
        seeds = ", ".join(str(g["seed"]) for g in one["failed_games"][:20])
        more = f" and {one['failed'] - 20} more" if one["failed"] > 20 else ""
        where = f"; each one's error is in {out}" if out else ""
        lines.append(f"  failed: {_games(one['failed'])}, seeds {seeds}{more} (the first: "
                     f"{one['failed_games'][0]['error']}{where})")
    if one["curves"]:
        lines += _curves_text(one["curves"])
    return lines


def _curves_text(curves: dict[str, list[dict[str, Any]]]) -> list[str]:
    names = list(curves)
    width = max(12, *(len(n) for n in names))
    lines = ["  at the end of each turn, mean ± sd over the games still playing:",
             "    turn  games  " + "  ".join(f"{n:>{width}}" for n in names)]
    turns = max(len(rows) for rows in curves.values())
    for t in range(turns):
        cells = []
        games = 0
        for n in names:
            rows = curves[n]
            row = rows[t] if t < len(rows) else None
            if row and row["games"]:
                games = max(games, row["games"])
                cells.append(f"{row['mean']:.1f} ± {row['sd']:.1f}".rjust(width))
            else:
                cells.append("-".rjust(width))
        lines.append(f"    {t + 1:>4}  {games:>5}  " + "  ".join(cells))
    return lines
