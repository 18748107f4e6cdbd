"""The Ardennes map as it was before map.json moved to the engine's `wargame-map/1` format:
its hexes, roads and rivers (rebuilt from the generic file, for the data tests), and the
Bulge-specific loader that read them (the oracle the generic board is compared against).

Only `legacy_board` imports the engine.
"""

from __future__ import annotations

from typing import Any

#: top-level facts of the old file kept in the generic file's `layout`
LAYOUT_FACTS = ("orientation", "hex_km", "projection", "lines")


def legacy_view(doc: dict) -> dict:
    """The old map.json (hexes with id/q/r and their facts, road pairs, river edges, lines,
    notes, sources) from the generic map file it became."""
    hexes = [{"id": s["id"], "q": s["hex"][0], "r": s["hex"][1], **s["attrs"]} for s in doc["spaces"]]
    roads = [[link["a"], link["b"]] for link in doc["links"] if link["attrs"].get("road")]
    rivers = [{"hexes": [link["a"], link["b"]], "river": link["attrs"]["river"],
               "barrier": link["attrs"]["barrier"], "bridge": bool(link["attrs"].get("bridge"))}
              for link in doc["links"] if "river" in link["attrs"]]
    notes = list(doc["notes"])
    vp_note = notes.pop(0)
    sources = {}
    while notes and notes[-1].startswith("Source "):
        key, _, text = notes.pop()[len("Source "):].partition(": ")
        sources[key] = text
    out = {"name": doc["name"], "fidelity": doc["fidelity"], "source": doc["source"]}
    out.update({k: doc["layout"][k] for k in ("orientation", "hex_km", "projection")})
    out.update({"hexes": hexes, "roads": roads, "rivers": rivers, "lines": doc["layout"]["lines"],
                "vp_note": vp_note, "notes": notes, "sources": dict(reversed(sources.items()))})
    return out


def legacy_board(raw: dict) -> Any:
    """What the Bulge-specific loader (rulesets/bulge/mapdata.py, since removed) built from the
    old file (its code, unchanged but for reading a dict instead of the file)."""
    from engine.board import Board, Space
    from engine.hexgrid import Hex

    spaces = []
    for h in raw["hexes"]:
        attrs = {k: v for k, v in h.items() if k not in ("id", "q", "r")}
        attrs["edge"] = tuple(attrs.get("edge") or ())
        attrs["also"] = tuple(attrs.get("also") or ())
        name = h.get("town") or h["id"]
        spaces.append(Space(h["id"], name, "hex", Hex(h["q"], h["r"]), attrs))
    links: dict[frozenset[str], dict[str, Any]] = {}
    for a, b in raw["roads"]:
        links.setdefault(frozenset((a, b)), {})["road"] = True
    for river in raw["rivers"]:
        a, b = river["hexes"]
        attrs = links.setdefault(frozenset((a, b)), {})
        attrs["river"] = river["river"]
        attrs["barrier"] = bool(river.get("barrier"))
        if river.get("bridge"):
            attrs["bridge"] = True
    return Board.hex_map(spaces, links, meta={
        "name": raw.get("name"), "fidelity": raw.get("fidelity", "approximate"),
        "source": raw.get("source", ""), "hex_km": raw.get("hex_km")})
