"""`wargame odds RULESET --attacker ... --defender ...`: a battle's odds from the ruleset's
own combat rules (clients.odds), printed for a player, as JSON, or drawn as a PNG."""

from __future__ import annotations

import argparse
import json
from typing import Any

from clients import odds, odds_attack
from clients.odds_policy import describe
from clients.odds_setup import set_up


def add_parser(sub: Any, seed: Any) -> None:
    s = sub.add_parser("odds", help="a battle's odds from the ruleset's own combat rules",
                       description="The odds of a battle, worked out exactly through the ruleset's own combat "
                                   "rules (a battle too large is sampled through them, and the answer says so).")
    s.add_argument("ruleset")
    s.add_argument("--attacker", required=True, metavar="UNITS", help='e.g. "3 infantry, 1 artillery, 2 arm"')
    s.add_argument("--defender", required=True, metavar="UNITS", help='e.g. "2 inf, 1 aa gun"')
    s.add_argument("--where", metavar="SPACE", help='the space fought in ("Karelia S.S.R.", "SZ 7", "7 Sea Zone"); '
                                                    "default a plain land territory, or a sea zone for ships")
    s.add_argument("--bombard", metavar="UNITS", help='an amphibious assault: these ships bombard from a sea zone '
                                                     'next to the territory (e.g. "1 bb")')
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    s.add_argument("--order", default="triplea", metavar="POLICY",
                   help="casualties: triplea (default: lowest combat value, then cost), cheapest, first "
                        '(the game\'s first option), or a list of units ("infantry, artillery, tank")')
    s.add_argument("--retreat-after", type=int, default=None, metavar="ROUNDS",
                   help="the attacker retreats after this many rounds")
    s.add_argument("--samples", type=int, default=None, metavar="N",
                   help="sample N battles through the rules instead of enumerating them")
    s.add_argument("--seed", type=seed, default=0)
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--plot", metavar="FILE.png", help="draw the distribution of survivors to FILE.png")
    s.set_defaults(func=cmd_odds)


def cmd_odds(args: argparse.Namespace) -> int:
    from clients.cli import OptionError, load_ruleset

    if args.samples is not None and not 1 <= args.samples <= 1_000_000:
        raise OptionError(f"--samples must be from 1 to 1,000,000, not {args.samples:,}")
    if args.retreat_after is not None and not 1 <= args.retreat_after <= odds.MOST_ROUNDS:
        raise OptionError(f"--retreat-after must be from 1 to {odds.MOST_ROUNDS}, not {args.retreat_after}")
    rs = load_ruleset(args, args.ruleset)
    if not rs.rules.has_procedure("start_battle") and odds_attack.fits(rs.rules):
        return one_attack(rs, args)
    try:
        battle = set_up(rs, args.attacker, args.defender, args.where, args.order, args.bombard)
        out = odds.odds(battle, args.samples, args.seed, args.retreat_after)
    except odds.OddsError as e:
        raise OptionError(str(e)) from None
    report = as_json(battle, out, args.order, args.retreat_after)
    if args.plot:
        plot(report, args.plot)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(as_text(report))
    return 0


def one_attack(rs: Any, args: argparse.Namespace) -> int:
    """A ruleset whose combat is one roll at a hex (Battle of the Bulge): one attack's odds."""
    from clients.cli import OptionError

    try:
        attack = odds_attack.set_up(rs, args.attacker, args.defender, args.where)
        report = odds_attack.odds(attack, args.samples, args.seed)
    except odds.OddsError as e:
        raise OptionError(str(e)) from None
    if args.plot:
        plot_attack(report, args.plot)
    print(json.dumps(report, indent=2) if args.json else odds_attack.as_text(report))
    return 0


def _force(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in units.items()) or "nobody"


def as_json(battle: odds.Battle, out: odds.Outcome, order: str, retreat_after: int | None) -> dict[str, Any]:
    cost = out.attacker_cost_lost is not None
    r: dict[str, Any] = {
        "attacker": {"power": battle.attacker, "units": battle.attacking},
        "defender": {"power": battle.defender, "units": battle.defending},
        "where": battle.where_name,
        "attacker_wins": out.attacker_wins,
        "defender_wins": out.defender_wins,
        "both_destroyed": out.both_destroyed,
        "both_standing": out.both_standing,
        "attacker_survivors": [{"p": p, "units": u} for p, u in out.attacker_survivors[:5]],
        "defender_survivors": [{"p": p, "units": u} for p, u in out.defender_survivors[:5]],
        "attacker_losses": out.attacker_losses,
        "defender_losses": out.defender_losses,
        "attacker_cost_lost": out.attacker_cost_lost if cost else None,
        "defender_cost_lost": out.defender_cost_lost if cost else None,
        "rounds": out.rounds,
        "casualty_policy": describe(order, battle.rules.units),
        "retreat_after": retreat_after,
        "method": "exact" if out.exact else "sampled",
        "rule_runs": out.runs,
    }
    if not out.exact:
        r["battles"] = out.battles
        r["attacker_wins_interval"] = list(out.interval or (0.0, 1.0))
        r["defender_wins_interval"] = list(out.defender_interval or (0.0, 1.0))
    if out.note:
        r["note"] = out.note
    return r


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


def as_text(r: dict[str, Any]) -> str:
    lines = [f"{_force(r['attacker']['units'])} ({r['attacker']['power']}) attack "
             f"{_force(r['defender']['units'])} ({r['defender']['power']}) in {r['where']}"]
    if r["method"] == "exact":
        lines.append(f"exact: every outcome of the dice through the rules ({r['rule_runs']:,} rule runs)")
    else:
        lo, hi = r["attacker_wins_interval"]
        why = f"{r['note']}; " if "note" in r else ""
        lines.append(f"sampled: {why}{r['battles']:,} battles through the rules ({r['rule_runs']:,} rule runs), "
                     f"attacker wins {100 * lo:.1f}% to {100 * hi:.1f}% (95%)")
    lines.append(f"casualties: {r['casualty_policy']}")
    if r["retreat_after"]:
        lines.append(f"the attacker retreats after round {r['retreat_after']}")
    lines += [f"  attacker wins   {_pct(r['attacker_wins'])}",
              f"  defender wins   {_pct(r['defender_wins'])}",
              f"  both destroyed  {_pct(r['both_destroyed'])}"]
    if r["both_standing"] > 1e-9:
        lines.append(f"  both standing   {_pct(r['both_standing'])}")
    lines.append(f"  expected rounds {r['rounds']:.2f}")
    for side in ("attacker", "defender"):
        loss = f"{r[side + '_losses']:.2f} units"
        if r[side + "_cost_lost"] is not None:
            loss += f", {r[side + '_cost_lost']:.1f} IPC"
        lines.append(f"{side}: expected losses {loss}; most likely left:")
        for s in r[side + "_survivors"][:3]:
            lines.append(f"  {_pct(s['p'])}  {_force(s['units'])}")
    return "\n".join(lines)


def _pyplot() -> Any:
    from clients.cli import OptionError

    try:
        import matplotlib
    except ImportError:
        raise OptionError("--plot needs matplotlib: pip install 'wargame[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_attack(r: dict[str, Any], path: str) -> None:
    """Each defending unit's chances, destroyed, retreats and untouched, as stacked bars."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 1 + 0.4 * len(r["defenders"])))
    names = [u["unit"] for u in r["defenders"]]
    left = [0.0] * len(names)
    for what in ("destroyed", "retreats", "untouched"):
        vals = [100 * u[what] for u in r["defenders"]]
        ax.barh(names, vals, left=left, label=what)
        left = [a + b for a, b in zip(left, vals)]
    ax.set_xlabel("%")
    ax.legend()
    ax.set_title(f"the hex is cleared {100 * r['hex_cleared']:.1f}% ({r['method']})")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot(r: dict[str, Any], path: str) -> None:
    """The distribution of survivors, each side's most likely remnants as bars."""
    plt = _pyplot()

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, side in zip(axes, ("attacker", "defender")):
        rows = r[side + "_survivors"]
        ax.barh([_force(s["units"]) for s in rows][::-1], [100 * s["p"] for s in rows][::-1])
        ax.set_title(f"{side} ({r[side]['power']}) left")
        ax.set_xlabel("%")
    fig.suptitle(f"attacker wins {100 * r['attacker_wins']:.1f}%, defender {100 * r['defender_wins']:.1f}% "
                 f"({r['method']})")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
