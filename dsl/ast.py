"""The syntax tree of a rules file.

Every node is a frozen, slotted dataclass whose first field is ``pos``: where it was
written, so that the checker and the runtime can point a modder at the exact spot.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import Pos

# ----------------------------------------------------------------------------- types


@dataclass(frozen=True, slots=True)
class TypeExpr:
    """A written type: ``int``, ``list[Unit]``, ``map[str, int]``."""

    pos: Pos
    name: str
    args: tuple[TypeExpr, ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}[{', '.join(str(a) for a in self.args)}]"


# ----------------------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Expr:
    pos: Pos


@dataclass(frozen=True, slots=True)
class IntLit(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class FloatLit(Expr):
    value: float


@dataclass(frozen=True, slots=True)
class StrLit(Expr):
    value: str


@dataclass(frozen=True, slots=True)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True, slots=True)
class Name(Expr):
    name: str


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class MapLit(Expr):
    entries: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True, slots=True)
class Generator(Expr):
    """``elt for var in iter where cond``; ``elt`` is None in ``count(x in xs where c)``."""

    elt: Expr | None
    var: str
    var_pos: Pos
    iter: Expr
    cond: Expr | None


@dataclass(frozen=True, slots=True)
class ListComp(Expr):
    gen: Generator


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...]
    gen: Generator | None = None


@dataclass(frozen=True, slots=True)
class UnaryOp(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(frozen=True, slots=True)
class BinOp(Expr):
    op: str  # + - * / // % and or
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    op: str  # == != < <= > >= in "not in" is "is not" has "has not"
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    else_: Expr


# ----------------------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class Stmt:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    name: str
    type: TypeExpr | None
    value: Expr
    #: `let x = choose(...) prior EXPR`: how promising each answer (`x`) is for the player
    #: asked (the search player's prior over a question's answers), or None
    prior: Expr | None = None


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    target: Expr
    op: str  # "=", "+=", "-="
    value: Expr


@dataclass(frozen=True, slots=True)
class If(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class For(Stmt):
    var: str
    var_pos: Pos
    iter: Expr
    cond: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Return(Stmt):
    value: Expr | None


@dataclass(frozen=True, slots=True)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Require(Stmt):
    """`require cond else reason`: in a move, a condition the move must meet (its reason is
    what a refused player is told); elsewhere, a check that stops the rules with the reason."""

    cond: Expr
    reason: Expr


@dataclass(frozen=True, slots=True)
class Break(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Continue(Stmt):
    pass


# ----------------------------------------------------------------------------- declarations


@dataclass(frozen=True, slots=True)
class Decl:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Extends(Decl):
    name: str


@dataclass(frozen=True, slots=True)
class StatDecl(Decl):
    name: str
    type: TypeExpr
    default: Expr
    doc: str
    override: bool


@dataclass(frozen=True, slots=True)
class TagDecl(Decl):
    names: tuple[tuple[str, Pos], ...]


@dataclass(frozen=True, slots=True)
class UnitField:
    pos: Pos
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class UnitDecl(Decl):
    name: str
    tags: tuple[tuple[str, Pos], ...] | None
    fields: tuple[UnitField, ...]
    override: bool


@dataclass(frozen=True, slots=True)
class OptionDecl(Decl):
    name: str
    type: TypeExpr | None  # None in `override option x = ...`
    value: Expr
    doc: str
    override: bool
    #: `option die: int in 2..100 = 12`: the lowest and highest value (of every number in it)
    bounds: tuple[Expr, Expr] | None = None
    #: how sure the value is (`confirmed`, `reconstructed`, `unconfirmed`, ...) and its source
    status: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class Param:
    pos: Pos
    name: str
    type: TypeExpr


@dataclass(frozen=True, slots=True)
class TableEntry:
    pos: Pos
    keys: tuple[Expr, ...] | None  # None: the `default` entry
    value: Expr


@dataclass(frozen=True, slots=True)
class TableDecl(Decl):
    name: str
    params: tuple[Param, ...]
    ret: TypeExpr
    entries: tuple[TableEntry, ...]
    override: bool


@dataclass(frozen=True, slots=True)
class TurnsDecl(Decl):
    count: int | None  # None: unlimited
    names: tuple[Expr, ...]
    override: bool
    #: what players call a turn ("Round"), where it is not "Turn"
    called: str = "Turn"


@dataclass(frozen=True, slots=True)
class PowersDecl(Decl):
    mode: str  # "shared" (powers [...]) or "order" (turn order [...])
    powers: tuple[Expr, ...]
    override: bool


@dataclass(frozen=True, slots=True)
class TeamsDecl(Decl):
    teams: tuple[tuple[Expr, ...], ...]  # each team's powers, as the turn order gives them
    together: tuple[tuple[str, Pos], ...]  # the phases a team plays once, all its members at once
    when: Expr | None  # read once per set of options: without it, or when false, no teams
    override: bool


@dataclass(frozen=True, slots=True)
class PhaseDecl(Decl):
    name: str
    place: tuple[str, str, Pos] | None  # ("before"|"after", phase, pos)
    when: Expr | None
    steps: tuple[tuple[str, Pos], ...]
    override: bool


@dataclass(frozen=True, slots=True)
class ProcedureDecl(Decl):
    name: str
    params: tuple[Param, ...]
    ret: TypeExpr | None
    body: tuple[Stmt, ...]
    override: bool
    #: `hook procedure`: a base ruleset means layers to override it; `doc` is the comment
    #: right above it
    hook: bool = False
    doc: str = ""


@dataclass(frozen=True, slots=True)
class RuleDecl(Decl):
    name: str
    event: str
    event_pos: Pos
    params: tuple[tuple[str, Pos], ...]
    when: Expr | None
    body: tuple[Stmt, ...]
    override: bool


@dataclass(frozen=True, slots=True)
class VarDecl(Decl):
    name: str
    type: TypeExpr
    value: Expr
    reset: tuple[str, Pos] | None  # ("turn" | "phase" | "step", pos)
    doc: str
    override: bool


@dataclass(frozen=True, slots=True)
class MoveParam:
    pos: Pos
    name: str
    type: TypeExpr
    domain: Expr
    reason: Expr | None


@dataclass(frozen=True, slots=True)
class MoveDecl:
    pos: Pos
    name: str
    params: tuple[MoveParam, ...]
    label: Expr | None
    body: tuple[Stmt, ...]
    #: how promising one of its options is for its player (the search player's prior), or None
    prior: Expr | None = None


@dataclass(frozen=True, slots=True)
class FinishDecl:
    pos: Pos
    label: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class StepDecl(Decl):
    name: str
    by: Expr | None
    while_: Expr | None
    start: tuple[Stmt, ...] | None
    end: tuple[Stmt, ...] | None
    moves: tuple[MoveDecl, ...]
    finish: FinishDecl | None
    override: bool


@dataclass(frozen=True, slots=True)
class SequenceDecl(Decl):
    name: str
    params: tuple[Param, ...]
    while_: Expr | None
    steps: tuple[tuple[str, Pos], ...]
    override: bool


@dataclass(frozen=True, slots=True)
class Module:
    """One parsed rules file."""

    pos: Pos
    file: str
    extends: Extends | None
    decls: tuple[Decl, ...]
    #: the source text of each declaration, as written (comments before it left out)
    texts: tuple[str, ...] = ()


def nodes(node: Any) -> Iterator[Any]:
    """Every syntax node below `node` (and it), parents first."""
    if isinstance(node, (list, tuple)):
        for x in node:
            yield from nodes(x)
    elif hasattr(node, "__dataclass_fields__") and not isinstance(node, TypeExpr):
        yield node
        for f in node.__dataclass_fields__:
            if f != "pos":
                yield from nodes(getattr(node, f))
