"""`wargame simulate --plot FILE.png`: the win rates with their 95% intervals for each rule set
compared, and each of the rules' measures per turn (the mean, and the band where the middle
80% of the games stood), drawn with matplotlib off screen."""

from __future__ import annotations

import math
from typing import Any

#: a colour per rule set (the one tried, the one it is compared against), colour-blind safe
COLOURS = {"tried": "#0072B2", "base": "#D55E00"}


def draw(summary: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sets = summary["sets"]
    measures = list(dict.fromkeys(m for one in sets for m in one["curves"]))
    panels = 1 + len(measures)
    cols = panels if panels <= 3 else math.ceil(math.sqrt(panels))
    rows = math.ceil(panels / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.0 * rows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    _win_rates(flat[0], sets)
    for ax, measure in zip(flat[1:], measures):
        _curve(ax, measure, sets)
    for ax in flat[panels:]:
        ax.set_visible(False)
    title = f"{summary['ruleset']}: {summary['games']} games a rule set"
    comparison = summary.get("comparison")
    if comparison:
        title += f"\n{comparison['verdict']}"
    fig.suptitle(title, fontsize=11)
    handles, labels = flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _label(one: dict[str, Any], many: bool) -> str:
    if not many:
        return str(one["label"])
    return f"{'tried' if one['rules'] == 'tried' else 'against'}: {one['label']}"


def _win_rates(ax: Any, sets: list[dict[str, Any]]) -> None:
    outcomes = list(dict.fromkeys(o for one in sets for o in one["outcomes"]))
    width = 0.8 / len(sets)
    for i, one in enumerate(sets):
        xs = [j + (i - (len(sets) - 1) / 2) * width for j in range(len(outcomes))]
        rates, below, above = [], [], []
        for o in outcomes:
            got = one["outcomes"].get(o, {"rate": 0.0, "ci95": [0.0, 0.0]})
            rates.append(got["rate"] * 100)
            below.append(max(0.0, got["rate"] - got["ci95"][0]) * 100)
            above.append(max(0.0, got["ci95"][1] - got["rate"]) * 100)
        ax.bar(xs, rates, width * 0.92, yerr=[below, above], capsize=4, color=COLOURS.get(one["rules"], "grey"),
               alpha=0.85, label=_label(one, len(sets) > 1), error_kw={"elinewidth": 1.2})
        for x, r, up in zip(xs, rates, above):      # above the interval's cap, clear of it
            ax.annotate(f"{r:.0f}%", (x, r + up), xytext=(0, 3), textcoords="offset points", ha="center",
                        va="bottom", fontsize=8)
    ax.set_xticks(range(len(outcomes)))
    ax.set_xticklabels([{"draw": "draws", "stopped": "no result"}.get(o, f"{o} wins") for o in outcomes])
    ax.set_ylim(0, 112)
    ax.set_ylabel("games (%), with 95% interval")
    ax.set_title("results", fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def _curve(ax: Any, measure: str, sets: list[dict[str, Any]]) -> None:
    for one in sets:
        rows = [r for r in one["curves"].get(measure, []) if r["games"]]
        if not rows:
            continue
        turns = [r["turn"] for r in rows]
        colour = COLOURS.get(one["rules"], "grey")
        ax.plot(turns, [r["mean"] for r in rows], marker="o", markersize=3, color=colour,
                label=_label(one, len(sets) > 1))
        ax.fill_between(turns, [r["p10"] for r in rows], [r["p90"] for r in rows], color=colour, alpha=0.15,
                        linewidth=0)
    ax.set_title(measure, fontsize=10)
    ax.set_xlabel("end of turn")
    ax.set_ylabel("mean; band: the middle 80% of games", fontsize=8)
    ax.grid(alpha=0.3)
    ax.xaxis.get_major_locator().set_params(integer=True)
