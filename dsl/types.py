"""The types of the rules language and how they relate.

``int``, ``float``, ``bool``, ``str``, ``list[T]``, ``map[K, V]``, ``UnitType`` (a declared
unit), host record types (``Unit``, ``Battle``... given by the registry), ``none`` (the result
of a procedure without ``-> T``) and ``any`` (only for generic host primitives; also used
internally after an error so that one mistake is reported once).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Type",
    "Prim",
    "ListType",
    "MapType",
    "RecordType",
    "FnType",
    "INT",
    "FLOAT",
    "BOOL",
    "STR",
    "NONE",
    "ANY",
    "UNIT_TYPE",
    "assignable",
    "parse_type_text",
    "is_numeric",
    "unify",
]


class Type:
    """Base of every type. Types are immutable and compare by value."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Prim(Type):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class ListType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"list[{self.elem}]"


@dataclass(frozen=True, slots=True)
class MapType(Type):
    key: Type
    value: Type

    def __str__(self) -> str:
        return f"map[{self.key}, {self.value}]"


@dataclass(frozen=True, slots=True)
class RecordType(Type):
    """A host record type such as ``Unit``; its fields live in the registry."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class FnType(Type):
    """A procedure passed to a host primitive (`reach(h, 3, road_cost)`): its parameter types
    and result. Only names of procedures have this type; there are no anonymous functions."""

    params: tuple[Type, ...]
    ret: Type

    def __str__(self) -> str:
        return f"fn({', '.join(map(str, self.params))}) -> {self.ret}"


INT = Prim("int")
FLOAT = Prim("float")
BOOL = Prim("bool")
STR = Prim("str")
NONE = Prim("none")
ANY = Prim("any")
UNIT_TYPE = Prim("UnitType")

_SCALARS = {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR, "none": NONE, "any": ANY,
            "UnitType": UNIT_TYPE}


def is_numeric(t: Type) -> bool:
    return t in (INT, FLOAT, ANY)


def assignable(src: Type, dst: Type) -> bool:
    """Can a value of type ``src`` be used where ``dst`` is expected?"""
    if src == dst or src == ANY or dst == ANY:
        return True
    if src == INT and dst == FLOAT:
        return True
    if isinstance(src, ListType) and isinstance(dst, ListType):
        return assignable(src.elem, dst.elem)
    if isinstance(src, MapType) and isinstance(dst, MapType):
        return assignable(src.key, dst.key) and assignable(src.value, dst.value)
    return False


def unify(a: Type, b: Type) -> Type | None:
    """The common type of two branches/items, or None when they do not fit together."""
    if a == b:
        return a
    if a == ANY:
        return b
    if b == ANY:
        return a
    if {a, b} == {INT, FLOAT}:
        return FLOAT
    if isinstance(a, ListType) and isinstance(b, ListType):
        e = unify(a.elem, b.elem)
        return ListType(e) if e is not None else None
    if isinstance(a, MapType) and isinstance(b, MapType):
        k, v = unify(a.key, b.key), unify(a.value, b.value)
        return MapType(k, v) if k is not None and v is not None else None
    return None


def parse_type_text(text: str, records: set[str] | frozenset[str] = frozenset()) -> Type:
    """Parse a type written as text (registry declarations): ``list[int]``, ``map[str, Unit]``."""
    text = text.strip()
    if text.startswith("fn(") and ")" in text:
        close = text.index(")")
        inner, rest = text[3:close], text[close + 1:].strip()
        if not rest.startswith("->"):
            raise ValueError(f"bad type `{text}`: a function type needs `-> result`")
        params = tuple(parse_type_text(x, records) for x in _split_top(inner)) if inner.strip() else ()
        return FnType(params, parse_type_text(rest[2:], records))
    if "[" in text:
        if not text.endswith("]"):
            raise ValueError(f"bad type `{text}`")
        head, inner = text[: text.index("[")].strip(), text[text.index("[") + 1 : -1]
        parts = _split_top(inner)
        if head == "list" and len(parts) == 1:
            return ListType(parse_type_text(parts[0], records))
        if head == "map" and len(parts) == 2:
            return MapType(parse_type_text(parts[0], records), parse_type_text(parts[1], records))
        raise ValueError(f"bad type `{text}`")
    if text in _SCALARS:
        return _SCALARS[text]
    if text in records:
        return RecordType(text)
    raise ValueError(f"unknown type `{text}`")


def _split_top(s: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]
