"""Maps as data: a ruleset's or a mod's `map.json`, validated, becomes a Board.

The format (``"format": "wargame-map/1"``) serves hex maps and territory graphs alike:

    {"format": "wargame-map/1", "name": "...", "fidelity": "exact" | "approximate",
     "layout": {"kind": "hex-pointy" | "world" | ..., ...},
     "link_hexes": true,                       # hex maps: every two touching hexes are linked
     "spaces": [{"id": "1709", "name": "St. Vith", "kind": "hex", "hex": [q, r],
                 "label_at": [x, y], "shape": [[[x, y], ...]], "attrs": {"vp": 3}}],
     # shape: a list of rings of points, or a list of polygons each a list of rings (ring 0
     # the outline, any further rings its holes), as the LHTR world map draws its territories
     "links": [{"a": "1709", "b": "1710", "attrs": {"road": true}}]}

Every mistake names the file and the entry (`map.json: spaces[12] (St. Vith): ...`).

A layer (a house rule, a mod) changes its base's map without copying it with a map-changes
file (``"format": "wargame-map-changes/1"``), named by its ruleset.json as `map_changes`:

    {"format": "wargame-map-changes/1", "notes": ["..."],
     "remove_links": [{"a": "5 Sea Zone", "b": "Western Europe", "why": "AARHE standard map"}],
     "links": [{"a": "Balkans", "b": "Turkey", "attrs": {}, "why": "..."}],
     "spaces": [{"id": "Libya", "attrs": {"terrain": "desert"}, "why": "..."}]}

Each layer's changes apply in turn, base first, to every map its scenarios use.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dsl.errors import did_you_mean
from dsl.files import NotAFile, TooBig, read_bounded
from engine.board import Board, Space
from engine.hexgrid import Hex
from engine.hexgrid import neighbours as hex_neighbours

FORMAT = "wargame-map/1"
CHANGES_FORMAT = "wargame-map-changes/1"
_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True)
class DataProblem:
    """One mistake in a data file: the file, the entry (`("pieces", 3)`: where
    engine.json_places finds its line) and the whole message (`st-vith.json: pieces[3] ...`)."""

    file: Path | None
    entry: tuple[str | int, ...]
    text: str


class MapDataError(ValueError):
    """A map file that does not describe a board. `problems` holds each mistake found, where
    more than one was looked for (the message says them all, one a line)."""

    def __init__(self, message: str, problems: Sequence[DataProblem] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)


def all_problems(error: type[MapDataError], problems: list[DataProblem]) -> None:
    """Raise `error` with every problem found (none: nothing is raised)."""
    if problems:
        raise error("\n".join(p.text for p in problems), problems)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SpaceEntry(_Strict):
    id: str = Field(min_length=1, max_length=100)
    name: str = ""
    kind: str = "space"
    hex: tuple[int, int] | None = None
    label_at: tuple[float, float] | None = None
    shape: list[list[tuple[float, float]]] | list[list[list[tuple[float, float]]]] | None = None
    attrs: dict[str, Any] = Field(default_factory=dict)


class LinkEntry(_Strict):
    a: str
    b: str
    attrs: dict[str, Any] = Field(default_factory=dict)


class MapFile(_Strict):
    format: str = FORMAT
    name: str = ""
    fidelity: str = "exact"
    source: str = ""
    notes: list[str] = Field(default_factory=list)
    layout: dict[str, Any] = Field(default_factory=dict)
    link_hexes: bool = False
    spaces: list[SpaceEntry] = Field(max_length=100_000)
    links: list[LinkEntry] = Field(default_factory=list, max_length=1_000_000)


class LinkChange(_Strict):
    a: str
    b: str
    attrs: dict[str, Any] = Field(default_factory=dict)
    #: why the layer makes the change, and its source
    why: str = ""


class SpaceChange(_Strict):
    id: str
    #: attributes set (a value of null removes the attribute)
    attrs: dict[str, Any] = Field(default_factory=dict)
    why: str = ""


class MapChanges(_Strict):
    format: str = CHANGES_FORMAT
    notes: list[str] = Field(default_factory=list)
    remove_links: list[LinkChange] = Field(default_factory=list, max_length=100_000)
    links: list[LinkChange] = Field(default_factory=list, max_length=100_000)
    spaces: list[SpaceChange] = Field(default_factory=list, max_length=100_000)


#: the largest map, scenario or map-changes file read (a mod's are held to less when loaded)
MAX_JSON_BYTES = 16 << 20


def read_json(path: Path) -> Any:
    """A data file's JSON, or a MapDataError that names the file."""
    try:
        text = read_bounded(path, MAX_JSON_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise MapDataError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise MapDataError(f"{path}: not UTF-8 text") from None
    except (NotAFile, TooBig) as exc:
        raise MapDataError(f"{path}: {exc.strerror}") from None
    except OSError as exc:
        raise MapDataError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MapDataError(f"{path}: not valid JSON ({exc})") from None


def pydantic_problem(path: Path, exc: ValidationError, data: Any) -> str:
    """The first validation error, placed: `file: spaces[3] (Bastogne): field: message`."""
    err = exc.errors()[0]
    loc = err.get("loc", ())
    where = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            where += f"[{part}]"
            try:
                node = node[part]
            except (IndexError, KeyError, TypeError):
                node = None
            if isinstance(node, dict) and isinstance(node.get("id") or node.get("name") or node.get("kind"), str):
                where += f" ({node.get('id') or node.get('name') or node.get('kind')})"
        else:
            where += ("." if where else "") + str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return f"{path.name}: {where or 'top level'}: {err.get('msg', 'invalid')}"


def _read(path: Path, model: type[_M], fmt: str) -> _M:
    """File `path` read as `model`, whose `format` must be `fmt`; MapDataError names the entry."""
    data = read_json(path)
    try:
        m = model.model_validate(data)
    except ValidationError as exc:
        raise MapDataError(pydantic_problem(path, exc, data)) from None
    if m.format != fmt:  # type: ignore[attr-defined]
        raise MapDataError(f"{path.name}: format `{m.format}` is not `{fmt}`")  # type: ignore[attr-defined]
    return m


def load_map(path: Path, changes: Sequence[Path] = ()) -> Board:
    """The board of map file `path`, with each map-changes file in `changes` applied in turn."""
    m = _read(path, MapFile, FORMAT)
    for change_file in changes:
        m = apply_changes(m, read_changes(change_file), change_file.name)
    return board_from(m, path.name, path)


def read_changes(path: Path) -> MapChanges:
    return _read(path, MapChanges, CHANGES_FORMAT)


def apply_changes(m: MapFile, c: MapChanges, name: str) -> MapFile:
    """`m` as the layer's changes `c` leave it; a change naming what the map lacks is refused."""
    ids = {s.id for s in m.spaces}

    def known(where: str, sid: str) -> None:
        if sid not in ids:
            hint = did_you_mean(sid, ids)
            raise MapDataError(f"{name}: {where}: the map has no space `{sid}`" + (f" ({hint})" if hint else ""))

    links = list(m.links)
    for i, gone in enumerate(c.remove_links):
        known(f"remove_links[{i}]", gone.a)
        known(f"remove_links[{i}]", gone.b)
        pair = {gone.a, gone.b}
        kept = [link for link in links if {link.a, link.b} != pair]
        if len(kept) == len(links):
            raise MapDataError(f"{name}: remove_links[{i}]: `{gone.a}` and `{gone.b}` are not linked on the map")
        links = kept
    for i, new in enumerate(c.links):
        known(f"links[{i}]", new.a)
        known(f"links[{i}]", new.b)
        links.append(LinkEntry(a=new.a, b=new.b, attrs=new.attrs))
    spaces = list(m.spaces)
    at = {s.id: i for i, s in enumerate(spaces)}
    for i, ch in enumerate(c.spaces):
        known(f"spaces[{i}]", ch.id)
        old = spaces[at[ch.id]]
        attrs = {**old.attrs, **ch.attrs}
        spaces[at[ch.id]] = old.model_copy(update={"attrs": {k: v for k, v in attrs.items() if v is not None}})
    return m.model_copy(update={"links": links, "spaces": spaces, "notes": [*m.notes, *c.notes]})


def board_from(m: MapFile, name: str = "map", path: Path | None = None) -> Board:
    """The board a map describes; a MapDataError says every mistake found in its spaces and
    links at once (a space's id or hex used twice, a link to no space...)."""
    problems: list[DataProblem] = []

    def problem(entry: tuple[str | int, ...], text: str) -> None:
        problems.append(DataProblem(path, entry, f"{name}: {text}"))

    spaces = []
    seen: set[str] = set()
    hexes: dict[tuple[int, int], str] = {}
    for i, s in enumerate(m.spaces):
        if s.id in seen:
            problem(("spaces", i), f"spaces[{i}] ({s.id}): the id is used twice")
            continue
        seen.add(s.id)
        if s.hex is not None:
            if s.hex in hexes:
                problem(("spaces", i, "hex"), f"spaces[{i}] ({s.id}): hex {list(s.hex)} is also the hex of "
                                              f"`{hexes[s.hex]}`")
            hexes.setdefault(s.hex, s.id)
        attrs = dict(s.attrs)
        if s.label_at is not None:
            attrs["label_at"] = s.label_at
        if s.shape is not None:
            attrs["shape"] = s.shape
        spaces.append(Space(s.id, s.name or s.id, s.kind, Hex(*s.hex) if s.hex is not None else None, attrs))
    meta = {"name": m.name, "fidelity": m.fidelity, "source": m.source, "layout": m.layout}
    links: dict[frozenset[str], dict[str, Any]] = {}
    for i, link in enumerate(m.links):
        missing = [end for end in (link.a, link.b) if end not in seen]
        if missing:
            hint = did_you_mean(missing[0], seen)
            problem(("links", i), f"links[{i}] ({link.a}-{link.b}): no space `{missing[0]}`" + (f" ({hint})" if hint else ""))
        elif link.a == link.b:
            problem(("links", i), f"links[{i}]: a space cannot be linked to itself")
        else:
            links.setdefault(frozenset((link.a, link.b)), {}).update(link.attrs)
    at = {s.id: s.hex for s in spaces if s.hex is not None}
    if m.link_hexes:
        no_hex = [i for i, s in enumerate(m.spaces) if s.hex is None]
        if no_hex:
            problem(("spaces", no_hex[0]), f"`link_hexes` needs a hex for every space; `{m.spaces[no_hex[0]].id}` "
                                           f"has none" + (f" (nor have {len(no_hex) - 1} more)" if len(no_hex) > 1 else ""))
        for i, link in enumerate(m.links):
            if link.a in at and link.b in at and at[link.b] not in hex_neighbours(at[link.a]):
                problem(("links", i), f"links[{i}] ({link.a}-{link.b}): the hexes do not touch, "
                                      "so nothing can lie between them")
    all_problems(MapDataError, problems)
    try:
        if m.link_hexes:
            return Board.hex_map(spaces, links, meta)
        return Board(spaces, [(*sorted(k), v) for k, v in links.items()], meta)  # type: ignore[misc]
    except MapDataError:
        raise
    except ValueError as exc:
        raise MapDataError(f"{name}: {exc}") from None
