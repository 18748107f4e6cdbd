#!/usr/bin/env python3
"""Build AARHE's 1942 Italy map and setup from the Revised map: Italy as a sixth power.

Writes ``rulesets/aarhe/lhtr/italy-1942/map.json`` and ``scenario.json`` from the committed
Revised files (``rulesets/aarhe/lhtr/map.json``, ``scenario.json``, made by
``scripts/build_lhtr_map.py``). Standard library only. Every change below names its source;
``rulesets/aarhe/lhtr/italy-1942/README.md`` lists them with their confidence.

Sources
    S1  the AARHE experimental text (``shared/seeds/002_*.txt``, intro): "Game starts in 1942
        with Italy as 6th player. This map contains a small number of changes from original
        map adding territories such as Italy and Finland. Setup remains the same for other
        territories."
    S2  the AARHE Italy draft, "AARHE: Phase 2: Adding Italy to the game", axisandallies.org
        forums, topic 3270 (https://www.axisandallies.org/forums/topic/3270/
        aarhe-phase-2-adding-italy-to-the-game/37): "All German units located in Southern
        Europe, Balkans and Libya is now considered Italian ... That gives them a starting
        IPC value of 10 ... The Italian player plays following Germany's turn. The territory
        of Germany itself has a new value of 20 so their income is not affected." Italy's
        pieces are "light Grey".
    S3  real geography: the Norway-Finland border of 1942 from Treriksröset (20.55°E 69.06°N)
        along the Tana river to the Pasvik; in 1942 Finland held Petsamo, so Norway did not
        border the USSR (Treaty of Tartu 1920 to the armistice of 1944).
    S4  the seed's infantry-price table has a column "Japan and Italy" (RULES.md B, Phase 2).

Usage (from the repository root)
    python scripts/build_italy_1942.py          # write the two files
    python scripts/build_italy_1942.py --check  # exit 1 if the committed files are stale
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_lhtr_map import dumps_map, dumps_scenario  # noqa: E402  (the Revised files' layout)

BASE = ROOT / "rulesets" / "aarhe" / "lhtr"
OUT = BASE / "italy-1942"

Point = tuple[float, float]

#: the new power and its side (S1, S2); Italy plays after Germany (S2)
TURN_ORDER = ["USSR", "Germany", "Italy", "UK", "Japan", "US"]
#: with AARHE's team turns: the Axis (Germany, Italy, Japan), then the Allies
TEAM_TURN_ORDER = ["USSR", "Germany", "Italy", "Japan", "UK", "US"]
SIDES = {"USSR": "Allies", "Germany": "Axis", "Italy": "Axis", "UK": "Allies", "Japan": "Axis", "US": "Allies"}
#: purple: the light grey of S2 stood too near the neutrals' land (tests/gui/test_power_colours.py)
ITALY_COLOURS = ["#8e44ad", "#3e1450"]

#: the Revised territories that become Italy's, with their German units (S2)
ITALIAN = ("Southern Europe", "Balkans", "Libya")
#: Revised "Southern Europe" is the Italian peninsula, Sicily and Sardinia in our shapes
#: (scripts/lhtr_geography.py): the map's territory "Italy" (S1)
RENAMED = {"Southern Europe": "Italy"}
#: Germany's own territory is worth 20 so that its income stays 40 (S2)
IPC_CHANGES = {"Germany": 20, "Norway": 2}
#: Italy's starting IPCs: its income, as every Revised power starts with its income (S2: 10)
ITALY_IPC = 10

#: Finland, cut from Revised "Norway" (which is Norway and Finland in our shapes) along the
#: 1942 border (S3): from Sweden, past Treriksröset, along the Tana, to the Pasvik and into
#: the USSR. The ends lie outside Norway-and-Finland; the line crosses its outline twice.
FINLAND_CUT: list[Point] = [(20.7, 68.95), (21.3, 69.3), (22.4, 68.72), (24.9, 68.58), (25.85, 69.4),
                            (27.03, 69.91), (27.9, 70.08), (28.4, 69.8), (28.9, 69.3), (29.2, 68.9)]
FINLAND = {
    "id": "Finland", "kind": "land", "name": "Finland", "label_at": [26.0, 62.8],
    # a German-held Axis co-belligerent, no power of its own (S1 names no Finnish player);
    # 1 of Revised Norway's 3 IPCs
    "attrs": {"ipc": 1, "original_owner": "Germany"},
}
#: Finland's links (S3): its land borders and the Gulf of Bothnia and Barents Sea coasts
FINLAND_LINKS = ["Norway", "Sweden", "Karelia S.S.R.", "SZ 3", "SZ 5"]
#: in 1942 Finnish Petsamo lay between Norway and the USSR (S3)
REMOVED_LINKS = [("Karelia S.S.R.", "Norway")]
#: Revised Norway's garrison stood for Norway and Finland: one of its 3 infantry goes to
#: Finland (our reading; S1 keeps the setup of the other territories)
MOVED_PIECES = [("Norway", "Finland", "Infantry", "Germany", 1)]

#: AARHE's options the scenario gives for the new power: the infantry prices of the column
#: "Japan and Italy" (S4: 2 at the original capital, 4 at another victory city)
AARHE_OPTIONS = {
    "infantry_price_capital": {"USSR": 2, "Germany": 2, "Japan": 2, "Italy": 2},
    "infantry_price_other": {"USSR": 4, "Germany": 4, "Japan": 4, "Italy": 4, "UK": 4, "US": 4},
}


# -- cutting a polygon along a line -------------------------------------------------------------
def _cross(p: Point, q: Point, a: Point, b: Point) -> tuple[float, float] | None:
    """Where segment p-q meets segment a-b: (t along p-q, s along a-b), or None."""
    rx, ry = q[0] - p[0], q[1] - p[1]
    sx, sy = b[0] - a[0], b[1] - a[1]
    den = rx * sy - ry * sx
    if den == 0:
        return None
    t = ((a[0] - p[0]) * sy - (a[1] - p[1]) * sx) / den
    s = ((a[0] - p[0]) * ry - (a[1] - p[1]) * rx) / den
    return (t, s) if 0 <= t <= 1 and 0 <= s < 1 else None


def inside(ring: list[Point], x: float, y: float) -> bool:
    """Even-odd point-in-polygon test."""
    hit = False
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


def cut_ring(ring: list[Point], line: list[Point]) -> tuple[list[Point], list[Point]]:
    """Cut a ring (closed or not) in two along a polyline that starts and ends outside it
    and crosses its outline exactly twice. Returns the two rings (not closed)."""
    if ring[0] == ring[-1]:
        ring = ring[:-1]
    hits: list[tuple[int, float, int, Point]] = []
    for i, (p, q) in enumerate(zip(line, line[1:])):
        for j in range(len(ring)):
            a, b = ring[j], ring[(j + 1) % len(ring)]
            c = _cross(p, q, a, b)
            if c is not None:
                t = c[0]
                hits.append((i, t, j, (round(p[0] + t * (q[0] - p[0]), 2), round(p[1] + t * (q[1] - p[1]), 2))))
    if len(hits) != 2 or inside(ring, *line[0]) or inside(ring, *line[-1]):
        raise SystemExit(f"the cut crosses the outline {len(hits)} times (it must cross twice, from outside)")
    hits.sort()
    (i1, _, j1, x1), (i2, _, j2, x2) = hits
    inner = [x1] + list(line[i1 + 1:i2 + 1]) + [x2]

    def walk(start: int, stop: int) -> list[Point]:
        """The ring's points from edge `start`'s end to edge `stop`'s start, going round."""
        out, k = [], (start + 1) % len(ring)
        while True:
            out.append(ring[k])
            if k == stop:
                return out
            k = (k + 1) % len(ring)

    one = [x2] + walk(j2, j1) + inner[::1][:-1]       # from x2 round to x1, then the cut to x2
    two = [x1] + walk(j1, j2) + inner[::-1][:-1]      # from x1 round to x2, then the cut back
    return one, two


def _closed(ring: list[Point]) -> list[list[float]]:
    return [list(p) for p in ring + ring[:1]]


# -- the build ----------------------------------------------------------------------------------
def mobilization_pools(order: list[str]) -> list[dict[str, str]]:
    """Where each power's purchases wait for mobilize (the rules' `pending:POWER`), named."""
    return [{"id": f"pending:{p}", "name": f"{p} mobilization pool"} for p in order]


def build() -> tuple[dict[str, Any], dict[str, Any]]:
    base_map = json.loads((BASE / "map.json").read_text())
    base_sc = json.loads((BASE / "scenario.json").read_text())
    m = copy.deepcopy(base_map)
    sc = copy.deepcopy(base_sc)

    def rename(s: str) -> str:
        return RENAMED.get(s, s)

    spaces = {s["id"]: s for s in m["spaces"]}
    for old, new in RENAMED.items():
        spaces[old]["id"] = spaces[old]["name"] = new
    for sid, ipc in IPC_CHANGES.items():
        spaces[sid]["attrs"]["ipc"] = ipc
    for sid in ITALIAN:
        spaces[sid]["attrs"]["original_owner"] = "Italy"
    spaces["Southern Europe"]["attrs"]["capital"] = True

    # Finland out of Norway's main outline; Norway keeps the rest and its islands
    norway = spaces["Norway"]
    main = [(float(x), float(y)) for x, y in norway["shape"][0][0]]
    one, two = cut_ring(main, FINLAND_CUT)
    fin, nor = (one, two) if inside(one, *FINLAND["label_at"]) else (two, one)
    if not inside(fin, *FINLAND["label_at"]) or not inside(nor, *norway["label_at"]):
        raise SystemExit("the Finland cut does not leave each label point in its own territory")
    norway["shape"][0] = [_closed(nor)]
    finland = dict(FINLAND, shape=[[_closed(fin)]])
    m["spaces"].append(finland)
    m["spaces"].sort(key=lambda s: (s["kind"] != "land", s["id"] if s["kind"] == "land" else int(s["id"].split()[1])))

    removed = {frozenset(p) for p in REMOVED_LINKS}
    links = []
    for link in m["links"]:
        if frozenset((link["a"], link["b"])) in removed:
            continue
        links.append(dict(link, a=rename(link["a"]), b=rename(link["b"])))
    links += [{"a": "Finland", "attrs": {}, "b": other} for other in FINLAND_LINKS]
    m["links"] = sorted(({**ln, "a": min(ln["a"], ln["b"]), "b": max(ln["a"], ln["b"])} for ln in links),
                        key=lambda ln: (ln["a"], ln["b"]))

    m["layout"]["colours"]["Italy"] = ITALY_COLOURS
    m["name"] = "AARHE 1942 Italy map (derived from the Axis & Allies Revised map)"
    m["fidelity"] = "approximate"
    m["source"] = ("Derived by scripts/build_italy_1942.py from the Revised map (rulesets/aarhe/lhtr/map.json); "
                   "the changes and their sources are in rulesets/aarhe/lhtr/italy-1942/README.md.")

    control = {rename(k): ("Italy" if k in ITALIAN else v) for k, v in sc["control"].items()}
    control["Finland"] = "Germany"
    sc["control"] = dict(sorted(control.items()))
    pieces = []
    for p in sc["pieces"]:
        p = dict(p, space=rename(p["space"]))
        if p["space"] in {rename(s) for s in ITALIAN} and p["owner"] == "Germany":
            p["owner"] = "Italy"
        pieces.append(p)
    for src, dst, kind, owner, n in MOVED_PIECES:
        row = next(p for p in pieces if (p["space"], p["kind"], p["owner"]) == (src, kind, owner))
        row["count"] -= n
        pieces.append({"count": n, "kind": kind, "owner": owner, "space": dst})
    sc["pieces"] = sorted((p for p in pieces if p["count"] > 0),
                          key=lambda p: (p["space"], p["owner"], p["kind"]))
    sc["resources"] = dict(sc["resources"], Italy={"ipc": ITALY_IPC})
    sc["name"] = "italy-1942"
    sc["title"] = "AARHE 1942 Italy map: Italy as a sixth power"
    sc["fidelity"] = "approximate"
    sc["description"] = ("AARHE's 1942 map with Italy as a sixth power (USSR, Germany, Italy, UK, Japan, US; the "
                         "Axis Germany, Italy and Japan): the Revised setup, Italy holding Italy, the Balkans and "
                         "Libya with the German units there, Finland cut from Norway. Derived from the Revised "
                         "map; see README.md beside this file.")
    sc["areas"] = mobilization_pools(TURN_ORDER)
    sc["options"] = {"turn_order": TURN_ORDER, "power_sides": SIDES, "team_turn_order": TEAM_TURN_ORDER,
                     "team_axis": ["Germany", "Italy", "Japan"], "team_allies": ["UK", "US"],
                     **AARHE_OPTIONS}
    return m, sc


def run(build_files: Any, out: Path, script: str, argv: list[str] | None = None) -> int:
    """Write the map and scenario `build_files()` makes into `out`, or with --check say
    whether the committed ones are stale (exit 1). The 1939 build runs the same way."""
    ap = argparse.ArgumentParser(description=f"write or check {out.relative_to(ROOT)}")
    ap.add_argument("--check", action="store_true", help="exit 1 if the committed files are stale")
    args = ap.parse_args(argv)
    m, sc = build_files()
    files = {out / "map.json": dumps_map(m), out / "scenario.json": dumps_scenario(sc)}
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, text in files.items() if not p.is_file() or p.read_text() != text]
        if stale:
            print("stale: " + ", ".join(stale) + f" (run {script})")
            return 1
        return 0
    out.mkdir(exist_ok=True)
    for p, text in files.items():
        p.write_text(text)
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(build, OUT, "scripts/build_italy_1942.py", argv)


if __name__ == "__main__":
    sys.exit(main())
