#!/usr/bin/env python3
"""Build AARHE's 1939 map and setup from the Revised map: France, Italy and China as powers.

Writes ``rulesets/aarhe/lhtr/aarhe-1939/map.json`` and ``scenario.json`` from the committed
Revised files (``rulesets/aarhe/lhtr/map.json``, ``scenario.json``) and the 1942 Italy map's
choices (``scripts/build_italy_1942.py``). Standard library only. Every choice below names its
source; ``rulesets/aarhe/lhtr/aarhe-1939/README.md`` lists them with their confidence.

Sources
    S1  the AARHE experimental text, intro (``shared/seeds/002_*.txt``): "Game starts in 1939
        with France, Italy, and China as separate players. The map contains a large number of
        changes from the original map adding important sites such as Malta, Tunisia, and Iwo
        Jima. Territories are also a bit more divided."
    S2  the AARHE Italy draft (see build_italy_1942.py): Italy holds Southern Europe and Libya;
        Germany's territory is worth 20.
    S3  the political map of the world in October 1939, after Poland was partitioned (Treaty
        of 28 September 1939) and before the Winter War: France held France and French North,
        West and Equatorial Africa, Madagascar and Indochina; Italy held Italy, Libya and Italian
        East Africa (and Albania); China (the Republic) held China and, nominally, Sinkiang,
        Japan held Manchuria, coastal China round Shanghai (from 1937), the Ryukyus, the Bonins
        (Iwo Jima) and the Mandate islands; the USSR held eastern Poland (Belorussia, West
        Ukraine); Norway, Finland, the Balkan states and the Netherlands were neutral; Malta was
        British; the Philippines and Wake American; Borneo, New Guinea and the Solomons British
        or Australian. Positions: Malta 14.4°E 35.9°N, Iwo Jima 141.3°E 24.8°N; the
        Algeria-Tunisia border from Cap Roux (8.62°E 36.94°N) south to the Libyan tripoint
        (9.5°E 30.2°N).

Usage (from the repository root)
    python scripts/build_aarhe_1939.py          # write the two files
    python scripts/build_aarhe_1939.py --check  # exit 1 if the committed files are stale
"""

from __future__ import annotations

import copy
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_italy_1942 import (  # noqa: E402
    FINLAND,
    FINLAND_CUT,
    ITALY_COLOURS,
    cut_ring,
    inside,
    mobilization_pools,
    run,
)

BASE = ROOT / "rulesets" / "aarhe" / "lhtr"
OUT = BASE / "aarhe-1939"

Point = tuple[float, float]

#: eight powers (S1); the order keeps LHTR's and puts each new power after its senior ally
#: (our reading: the AARHE 1939 order is lost)
TURN_ORDER = ["USSR", "Germany", "Italy", "UK", "France", "Japan", "China", "US"]
TEAM_TURN_ORDER = ["USSR", "Germany", "Italy", "Japan", "UK", "France", "China", "US"]
SIDES = {"USSR": "Allies", "Germany": "Axis", "Italy": "Axis", "UK": "Allies", "France": "Allies",
         "Japan": "Axis", "China": "Allies", "US": "Allies"}
#: French blue and Chinese teal (our choice); Italy as on the 1942 Italy map
COLOURS = {"France": ["#5b7fbf", "#1c2f66"], "China": ["#4f9e94", "#154a44"], "Italy": ITALY_COLOURS}

RENAMED = {"Southern Europe": "Italy"}
#: territory values that change (S2: Germany 20 so that it is not crippled by the split;
#: Norway 2 and Finland 1 as on the 1942 Italy map; Algeria 1 is shared with Tunisia)
IPC_CHANGES = {"Germany": 20, "Norway": 2}
#: who holds each territory in 1939 where it is not the Revised start (S3); "" is neutral,
#: impassable like Revised's neutrals
HOLDERS_1939 = {
    "Western Europe": "France", "Algeria": "France", "French West Africa": "France",
    "French Equatorial Africa": "France", "French Madagascar": "France", "French Indochina": "France",
    "Southern Europe": "Italy", "Libya": "Italy", "Italian East Africa": "Italy",
    "China": "China", "Sinkiang": "China",
    "Belorussia": "USSR", "Ukraine S.S.R.": "USSR", "West Russia": "USSR",
    "Philipine Islands": "US", "Wake Island": "US",
    "Borneo": "UK", "New Guinea": "UK", "Solomon Islands": "UK",
    # the Netherlands' colony; no Dutch power: the UK holds it, the Allies' nearest (our reading)
    "East Indies": "UK",
    "Balkans": "", "Norway": "",
}
#: capitals of the new powers (S3): Paris, Rome, and China's (Chungking, in our China territory)
CAPITALS = {"Western Europe": "France", "Southern Europe": "Italy", "China": "China"}
#: industrial complexes the new powers start with, so that each can build (our reading:
#: France's and China's industry; Italy has Revised Southern Europe's)
NEW_FACTORIES = {"Western Europe": "France", "China": "China"}
#: warships in the Mediterranean that were German on the Revised board are Italy's (the Regia
#: Marina; our reading, S2 names only land territories)
ITALIAN_ZONES = ("SZ 13", "SZ 14", "SZ 15", "SZ 16")
#: France's forces, which the Revised board has none of: a coarse order of battle (our
#: reading of S3's 1939 French Army and Navy at the board's scale: an army about Germany's
#: home army in infantry, weaker in armour and aircraft; the fleet at Toulon and Brest; the AA gun
#: of Paris is the one the Revised board has there)
FRENCH_OOB = [("Western Europe", "Infantry", 5), ("Western Europe", "Artillery", 1), ("Western Europe", "Tank", 1),
              ("Western Europe", "Fighter", 1), ("Algeria", "Infantry", 1),
              ("French Indochina", "Infantry", 1), ("SZ 13", "Battleship", 1), ("SZ 13", "Destroyer", 1),
              ("SZ 7", "Destroyer", 1)]

#: Tunisia cut from Algeria (which is Morocco, Algeria and Tunisia in our shapes) along the
#: Algeria-Tunisia border (S3); from the sea to Libya
TUNISIA_CUT: list[Point] = [(8.62, 37.6), (8.45, 36.4), (8.3, 35.3), (7.85, 34.4), (7.52, 33.9), (7.6, 33.3),
                            (9.06, 32.1), (9.3, 30.6), (10.2, 29.7)]
TUNISIA = {"id": "Tunisia", "kind": "land", "name": "Tunisia", "label_at": [9.5, 34.0],
           "attrs": {"ipc": 1, "original_owner": "France"}}
#: Tunisia's links: Algeria, Libya, and the western (13) and central (14) Mediterranean, whose
#: border runs past Cape Bon (S3)
TUNISIA_LINKS = ["Algeria", "Libya", "SZ 13", "SZ 14"]
#: small islands drawn as octagons carved out of their sea zone, as the Revised build draws
#: Midway and Wake (scripts/build_lhtr_map.py): id, centre, holder, IPCs, radius (smaller
#: than Midway's 0.8 where the island lies near its zone's edge or another island: Iwo Jima is
#: 0.53 from the edge of sea zone 51, Malta 0.96 from Sicily)
ISLANDS = [("Malta", (14.4, 35.9), "UK", 0, 0.6), ("Iwo Jima", (141.3, 24.8), "Japan", 0, 0.4)]
#: Finland, as on the 1942 Italy map (S3: neutral in October 1939)
FINLAND_LINKS = ["Norway", "Sweden", "Karelia S.S.R.", "SZ 3", "SZ 5"]
REMOVED_LINKS = [("Karelia S.S.R.", "Norway")]


def octagon(cx: float, cy: float, r: float) -> list[list[float]]:
    pts = [[round(cx + r * math.sin(k * math.pi / 4), 2), round(cy - r * math.cos(k * math.pi / 4), 2)]
           for k in range(8)]
    return pts + pts[:1]


def build() -> tuple[dict[str, Any], dict[str, Any]]:
    m = copy.deepcopy(json.loads((BASE / "map.json").read_text()))
    sc = copy.deepcopy(json.loads((BASE / "scenario.json").read_text()))
    spaces = {s["id"]: s for s in m["spaces"]}

    # who holds what in 1939
    control: dict[str, str] = dict(sc["control"])
    for sid, holder in HOLDERS_1939.items():
        attrs = spaces[sid]["attrs"]
        if holder:
            control[sid] = attrs["original_owner"] = holder
        else:
            control.pop(sid, None)
            attrs.update(original_owner="", impassable=True)
    for sid in CAPITALS:
        spaces[sid]["attrs"]["capital"] = True
    for sid, ipc in IPC_CHANGES.items():
        spaces[sid]["attrs"]["ipc"] = ipc

    # Finland (neutral) out of Norway; Tunisia out of Algeria
    def split(sid: str, line: list[Point], new: dict[str, Any]) -> dict[str, Any]:
        old = spaces[sid]
        main = [(float(x), float(y)) for x, y in old["shape"][0][0]]
        one, two = cut_ring(main, line)
        mine, theirs = (one, two) if inside(one, *new["label_at"]) else (two, one)
        if not inside(mine, *new["label_at"]) or not inside(theirs, *old["label_at"]):
            raise SystemExit(f"the cut of {sid} does not leave each label point in its own territory")
        old["shape"][0] = [[list(p) for p in theirs + theirs[:1]]]
        return dict(copy.deepcopy(new), shape=[[[list(p) for p in mine + mine[:1]]]])

    finland = split("Norway", FINLAND_CUT, FINLAND)
    finland["attrs"] = {"ipc": 0, "original_owner": "", "impassable": True}
    tunisia = split("Algeria", TUNISIA_CUT, TUNISIA)
    control["Tunisia"] = "France"
    links = [ln for ln in m["links"] if frozenset((ln["a"], ln["b"])) not in {frozenset(p) for p in REMOVED_LINKS}]
    links += [{"a": "Finland", "attrs": {}, "b": o} for o in FINLAND_LINKS]
    links += [{"a": "Tunisia", "attrs": {}, "b": o} for o in TUNISIA_LINKS]
    new_spaces = [finland, tunisia]
    for name, (x, y), holder, ipc, radius in ISLANDS:
        ring = octagon(x, y, radius)
        zone = next(z for z, sp in spaces.items() if sp["kind"] == "sea"
                    and any(inside([tuple(p) for p in poly[0]], x, y) for poly in sp["shape"]))
        poly = next(p for p in spaces[zone]["shape"] if inside([tuple(q) for q in p[0]], x, y))
        poly.append(ring[::-1])               # a hole in the sea zone (clockwise, as the Revised holes are)
        new_spaces.append({"id": name, "kind": "land", "name": name, "label_at": [x, y], "shape": [[ring]],
                           "attrs": {"ipc": ipc, "island": True, "original_owner": holder}})
        links.append({"a": name, "attrs": {}, "b": zone})
        control[name] = holder
    m["spaces"] += new_spaces

    def rename(s: str) -> str:
        return RENAMED.get(s, s)

    for old, new in RENAMED.items():
        spaces[old]["id"] = spaces[old]["name"] = new
    m["spaces"].sort(key=lambda s: (s["kind"] != "land", s["id"] if s["kind"] == "land" else int(s["id"].split()[1])))
    m["links"] = sorted(({**ln, "a": min(rename(ln["a"]), rename(ln["b"])), "b": max(rename(ln["a"]), rename(ln["b"]))}
                         for ln in links), key=lambda ln: (ln["a"], ln["b"]))
    m["layout"]["colours"].update(COLOURS)
    m["name"] = "AARHE 1939 map (derived from the Axis & Allies Revised map)"
    m["fidelity"] = "approximate"
    m["source"] = ("Derived by scripts/build_aarhe_1939.py from the Revised map (rulesets/aarhe/lhtr/map.json); "
                   "the changes and their sources are in rulesets/aarhe/lhtr/aarhe-1939/README.md.")

    # the pieces: a garrison on ground its side holds in 1939 is the holder's; one on ground an
    # enemy or a neutral holds goes home to its power's capital; complexes and AA guns stay
    # with their ground (and are the holder's, or gone on neutral ground)
    sides = SIDES
    capital_of = {p: s for s, p in CAPITALS.items()} | {"Germany": "Germany", "Japan": "Japan", "UK": "United Kingdom",
                                                       "USSR": "Russia", "US": "Eastern United States"}
    fixed = ("IndustrialComplex", "AAGun")
    pieces: dict[tuple[str, str, str], int] = {}

    def add(space: str, owner: str, kind: str, n: int) -> None:
        key = (rename(space), owner, kind)
        pieces[key] = pieces.get(key, 0) + n

    for p in sc["pieces"]:
        space, owner, kind, n = p["space"], p["owner"], p["kind"], p["count"]
        if space.startswith("SZ "):
            add(space, "Italy" if owner == "Germany" and space in ITALIAN_ZONES else owner, kind, n)
            continue
        holder = control.get(space, "")
        if kind in fixed:
            if holder:
                add(space, holder, kind, n)
        elif holder and sides[holder] == sides[owner]:
            add(space, holder, kind, n)
        else:
            add(capital_of[owner], owner, kind, n)
    for space, power in NEW_FACTORIES.items():
        add(space, power, "IndustrialComplex", 1)
    for space, kind, n in FRENCH_OOB:
        add(space, "France", kind, n)
    sc["pieces"] = [{"count": n, "kind": k, "owner": o, "space": s} for (s, o, k), n in sorted(pieces.items())]
    sc["control"] = dict(sorted((rename(k), v) for k, v in control.items()))

    # starting IPCs: each power's income (as every Revised power starts with its income)
    income: dict[str, int] = {}
    for sid, holder in sc["control"].items():
        sp = next(s for s in m["spaces"] if s["id"] == sid)
        income[holder] = income.get(holder, 0) + int(sp["attrs"].get("ipc", 0))
    sc["resources"] = {p: {"ipc": income.get(p, 0)} for p in sorted(SIDES)}
    sc["name"] = "aarhe-1939"
    sc["title"] = "AARHE 1939 map: France, Italy and China as powers"
    sc["fidelity"] = "approximate"
    sc["description"] = ("AARHE's 1939 map with eight powers (USSR, Germany, Italy, UK, France, Japan, China, US; "
                         "the Axis Germany, Italy and Japan): the world of October 1939 on the Revised board, "
                         "Tunisia, Malta, Iwo Jima and Finland added. Derived from the Revised map; see README.md "
                         "beside this file.")
    sc["areas"] = mobilization_pools(TURN_ORDER)
    sc["options"] = {"turn_order": TURN_ORDER, "power_sides": SIDES, "team_turn_order": TEAM_TURN_ORDER,
                     "team_axis": ["Germany", "Italy", "Japan"], "team_allies": ["UK", "France", "China", "US"],
                     "infantry_price_capital": {"USSR": 2, "Germany": 2, "Japan": 2, "Italy": 2},
                     "infantry_price_other": {"USSR": 4, "Germany": 4, "Japan": 4, "Italy": 4, "UK": 4, "US": 4}}
    return m, sc


def main(argv: list[str] | None = None) -> int:
    return run(build, OUT, "scripts/build_aarhe_1939.py", argv)


if __name__ == "__main__":
    sys.exit(main())
