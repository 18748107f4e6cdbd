"""The checker: every rule of the language that can be decided before running.

It merges the layers (base first), resolves every name, infers and checks every type,
refuses recursion, and records what the compiler needs to know (which attribute is a
stat, which call is a table...) in :class:`Info`. It collects *every* error it finds
instead of stopping at the first one.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from .errors import Diagnostic, Pos, did_you_mean
from .registry import Registry, valid_field_name
from .types import (
    ANY,
    BOOL,
    FLOAT,
    INT,
    NONE,
    STR,
    UNIT_TYPE,
    FnType,
    ListType,
    MapType,
    RecordType,
    Type,
    assignable,
    is_numeric,
    unify,
)

__all__ = ["check_program", "Program", "Info", "UnitInfo", "OptionInfo", "VarInfo", "BUILTINS", "static_eval",
           "NotStatic", "VAR_RESETS"]

#: procedures the engine's players call by name when the rules have them: name -> (parameter
#: types, the return types allowed, what it is for)
ENGINE_PROCEDURES: dict[str, tuple[tuple[Type, ...], tuple[Type, ...], str]] = {
    "evaluate": ((STR,), (INT, FLOAT), "is how the search player judges a position for a side"),
}
ENGINE_PARAM_NAMES = {"evaluate": ("side",)}

#: built-in functions of the language (not overridable, not shadowable)
BUILTINS = frozenset(
    {"len", "abs", "min", "max", "sum", "count", "any", "all", "range", "sorted", "str", "int",
     "float", "keys", "values", "choose", "first", "find"}
)
#: built-ins that came after rules had used their names: a local or a procedure of that name
#: is still allowed (and hides the built-in where it is seen)
SOFT_BUILTINS = frozenset({"first", "find"})
#: when a game variable goes back to its initial value
VAR_RESETS = ("turn", "power", "phase", "step")
_AGGREGATES = {"sum", "count", "any", "all", "min", "max", "first", "find", "sorted"}
_TYPE_NAMES = {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR, "UnitType": UNIT_TYPE}
_KIND_WORD = {"unit": "unit", "option": "option", "table": "table", "procedure": "procedure"}


class NotStatic(Exception):
    """The expression needs the game to be running to be evaluated."""


class TooBig(NotStatic):
    """A constant expression whose value would be beyond the limits of the rules (a huge
    integer, a list or string longer than the item limit): never computed."""

    def __init__(self, pos: Pos, message: str):
        super().__init__(message)
        self.pos = pos


#: the characters and items a load may spend on constant expressions (left-deep `+` chains
#: copy what they have built so far at every step)
STATIC_WORK = 10_000_000


@dataclass
class UnitInfo:
    name: str
    pos: Pos
    tags: tuple[str, ...]
    fields: dict[str, A.UnitField]


@dataclass
class OptionInfo:
    name: str
    type: Type
    value: A.Expr
    doc: str
    pos: Pos
    default: Any = None
    bounds: tuple[Any, Any] | None = None
    bounds_expr: tuple[A.Expr, A.Expr] | None = None
    status: str = ""
    source: str = ""


@dataclass
class VarInfo:
    name: str
    type: Type
    value: A.Expr
    reset: str | None
    doc: str
    pos: Pos
    default: Any = None


@dataclass
class Info:
    """What the checker proved, keyed by ``id(node)``; read by the compiler."""

    types: dict[int, Type] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # local/option/constant/unit
    attrs: dict[int, str] = field(default_factory=dict)  # field/stat/tags/ustat/utags/uname
    calls: dict[int, str] = field(default_factory=dict)  # builtin/primitive/procedure/table
    #: the procedures named as an argument (passed to a primitive, which asks them)
    passed: set[str] = field(default_factory=set)
    #: the calls written as such an argument with its last arguments left open, `_`
    #: (`distances(places, 9, passable, may_enter(p, _))`): ids of the Call nodes
    partials: set[int] = field(default_factory=set)


@dataclass
class Program:
    """The merged, checked declarations of all layers."""

    registry: Registry
    stats: dict[str, tuple[A.StatDecl, Type]] = field(default_factory=dict)
    tags: dict[str, Pos] = field(default_factory=dict)
    units: dict[str, UnitInfo] = field(default_factory=dict)
    options: dict[str, OptionInfo] = field(default_factory=dict)
    tables: dict[str, A.TableDecl] = field(default_factory=dict)
    procedures: dict[str, A.ProcedureDecl] = field(default_factory=dict)
    rules: list[A.RuleDecl] = field(default_factory=list)
    turns: A.TurnsDecl | None = None
    powers: A.PowersDecl | None = None
    teams: A.TeamsDecl | None = None
    phases: list[A.PhaseDecl] = field(default_factory=list)
    vars: dict[str, VarInfo] = field(default_factory=dict)
    steps: dict[str, A.StepDecl] = field(default_factory=dict)
    sequences: dict[str, A.SequenceDecl] = field(default_factory=dict)
    #: procedures and sequences that may ask a player (they call `choose`, directly or not)
    interactive: set[str] = field(default_factory=set)
    #: an overriding procedure -> the version it replaced, which `base(...)` calls
    base_of: dict[int, A.ProcedureDecl] = field(default_factory=dict)
    #: the replaced versions still called through `base`: (compiled name, declaration)
    base_versions: list[tuple[str, A.ProcedureDecl]] = field(default_factory=list)
    #: per move `(step, move)`: how many leading statements form its guard (lets and requires)
    guards: dict[tuple[str, str], int] = field(default_factory=dict)
    info: Info = field(default_factory=Info)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: (kind, name) -> every accepted declaration of it, base layer first: the first declares
    #: it, the others override it (kinds: stat, tag, unit, option, table, procedure, rule,
    #: var, step, sequence, turns, powers, phase)
    history: dict[tuple[str, str], list[Any]] = field(default_factory=dict)


@dataclass
class _Def:
    kind: str
    pos: Pos
    layer: int
    decl: Any


def _walk(node: Any) -> Any:
    """Every syntax node below `node`."""
    if isinstance(node, (list, tuple)):
        for x in node:
            yield from _walk(x)
    elif hasattr(node, "__dataclass_fields__"):
        yield node
        for f in node.__dataclass_fields__:
            yield from _walk(getattr(node, f))


def _numbers_in(t: Type) -> bool:
    if t in (INT, FLOAT):
        return True
    if isinstance(t, ListType):
        return _numbers_in(t.elem)
    if isinstance(t, MapType):
        return _numbers_in(t.value)
    return False


def out_of_bounds(value: Any, lo: Any, hi: Any) -> Any:
    """The first number in `value` (a number, list or map) outside lo..hi, else None."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, (list, tuple)):
            todo.extend(v)
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and not lo <= v <= hi:
            return v
    return None


def valid_power_name(name: str) -> bool:
    return name[:1].isalpha() and not name.startswith("_")


def power_names(e: A.Expr) -> list[A.Name]:
    """The bare names a `turn order` entry can give as its value: the entry itself, or the
    branches of its `if ... then ... else` (not the condition, which is no power)."""
    if isinstance(e, A.Name):
        return [e]
    if isinstance(e, A.IfExpr):
        return power_names(e.then) + power_names(e.else_)
    return []


# ============================================================================ static eval


def static_eval(e: A.Expr, env: dict[str, Any], work: list[int] | None = None) -> Any:
    """Evaluate a constant expression (literals, names from ``env``, operators), within the
    limits of the rules: no integer beyond ±INT_MAX, no list or string longer than the item
    limit, and no more than STATIC_WORK items built in all (`work` counts them down); `*` is
    for numbers only (the checker refuses `"a" * n`, and it is never computed)."""
    if work is None:
        work = [STATIC_WORK]
    if isinstance(e, (A.IntLit, A.FloatLit, A.StrLit, A.BoolLit)):
        return e.value
    if isinstance(e, A.Name):
        if e.name in env:
            return env[e.name]
        raise NotStatic(e.name)
    if isinstance(e, A.ListLit):
        return [static_eval(i, env, work) for i in e.items]
    if isinstance(e, A.MapLit):
        return {static_eval(k, env, work): static_eval(v, env, work) for k, v in e.entries}
    if isinstance(e, A.UnaryOp):
        v = static_eval(e.operand, env, work)
        return -v if e.op == "-" else not v
    if isinstance(e, A.IfExpr):
        return static_eval(e.then if static_eval(e.cond, env, work) else e.else_, env, work)
    if isinstance(e, A.BinOp):
        a = static_eval(e.left, env, work)
        if e.op == "and":
            return a and static_eval(e.right, env, work)
        if e.op == "or":
            return a or static_eval(e.right, env, work)
        b = static_eval(e.right, env, work)
        _static_size(e, a, b, work)
        try:
            return {
                "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "/": lambda: a / b, "//": lambda: a // b, "%": lambda: a % b,
            }[e.op]()
        except (ZeroDivisionError, TypeError, OverflowError) as exc:
            raise NotStatic(str(exc)) from None
    if isinstance(e, A.Compare):
        a, b = static_eval(e.left, env, work), static_eval(e.right, env, work)
        ops = {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
               ">": lambda: a > b, ">=": lambda: a >= b, "in": lambda: a in b,
               "not in": lambda: a not in b}
        if e.op in ops:
            try:
                return ops[e.op]()
            except TypeError as exc:
                raise NotStatic(str(exc)) from None
    raise NotStatic(type(e).__name__)


def _static_size(e: A.BinOp, a: Any, b: Any, work: list[int]) -> None:
    """Refuse, before computing it, a constant `a op b` beyond the limits of the rules."""
    from .runtime import DEFAULT_ITEMS, INT_MAX

    def num(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    if e.op == "*" and not (num(a) and num(b)):
        raise NotStatic("`*` is for numbers")
    if e.op in ("+", "-", "*") and isinstance(a, int) and isinstance(b, int):
        # both are within ±INT_MAX already (literals are), so this is cheap to compute
        if abs(a * b if e.op == "*" else a + b if e.op == "+" else a - b) > INT_MAX:
            raise TooBig(e.pos, f"this constant is beyond the integers of the rules (±{INT_MAX:,}, 2^63 - 1)")
    if e.op == "+" and isinstance(a, (str, list)) and isinstance(b, (str, list)):
        n = len(a) + len(b)
        if n > DEFAULT_ITEMS:
            raise TooBig(e.pos, f"this constant would be {n:,} {'characters' if isinstance(a, str) else 'items'} "
                                f"long; the limit is {DEFAULT_ITEMS:,}")
        work[0] -= n
        if work[0] < 0:
            raise TooBig(e.pos, "the constant expressions of these rules build too much: write the value out")


# ============================================================================ the checker


class _Checker:
    def __init__(self, layers: list[list[A.Module]], registry: Registry, report_unread: bool = False):
        self.report_unread = report_unread
        self.static_work = [STATIC_WORK]
        self.layers = layers
        # the rules' powers become constants: on a copy, so the host's registry stays as it was
        registry = registry.copy()
        self.reg = registry
        self.p = Program(registry)
        self.info = self.p.info
        self.diags = self.p.diagnostics
        self.defs: dict[tuple[str, str], _Def] = {}
        self.calls: dict[str, list[tuple[str, Pos]]] = {}  # procedure/table -> callees
        self.current: tuple[str, str] | None = None  # ("procedure", name) / ("rule", name)...
        self.ret_type: Type | None = None
        self.unit_rec = registry.unit_record
        self.loops = 0
        #: (context kind, callee, pos): "task" contexts may ask players, "query" ones may not
        self.call_sites: list[tuple[str, str, Pos]] = []
        self.context = "task"
        #: procedures that change the game themselves (a changing primitive called, a game
        #: variable set): where, first; and the calls a move's prior makes (see check_priors)
        self.changers: dict[str, Pos] = {}
        self.prior_calls: list[tuple[str, Pos, str]] = []
        #: whose prior is being checked ("a move's prior", "a question's prior")
        self.prior_what = "a move's prior"
        self.stats_read: set[str] = set()
        self.tags_read: set[str] = set()

    # ------------------------------------------------------------------ helpers
    def err(self, pos: Pos, msg: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(pos, msg, hint))

    def check_name_ok(self, name: str, pos: Pos, what: str) -> bool:
        if name == "_" and what == "name":
            self.err(pos, "`_` leaves an argument open only in a procedure passed to a primitive",
                     "as in `distances(places, 3, held_by(p, _), held_by(p, _))`; here, give the argument")
            return False
        if name.startswith("_"):
            self.err(pos, f"names starting with `_` are reserved: `{name}`",
                     "rules files cannot reach Python internals; pick a plain name")
            return False
        if keyword.iskeyword(name) and what in ("stat",):
            self.err(pos, f"`{name}` cannot be used as a {what} name")
            return False
        return True

    def value_kind(self, name: str) -> str | None:
        d = self.defs.get(("value", name))
        if d is not None:
            return d.kind
        if name in self.reg.constants:
            return "constant"
        if name in self.reg.primitives:
            return "primitive"
        if name in BUILTINS:
            return "builtin"
        return None

    # ------------------------------------------------------------------ layering
    def declare(self, ns: str, kind: str, name: str, pos: Pos, layer: int, override: bool, decl: Any,
                what: str) -> bool:
        """Register a declaration; False if it must be ignored."""
        if ns == "value":
            if name in BUILTINS and name not in SOFT_BUILTINS:
                self.err(pos, f"`{name}` is a built-in function and cannot be redefined")
                return False
            if name in self.reg.constants or name in self.reg.primitives:
                src = "constant" if name in self.reg.constants else "primitive"
                self.err(pos, f"`{name}` is already a {src} provided by the engine")
                return False
        prev = self.defs.get((ns, name))
        if override:
            if prev is None or prev.layer == layer or prev.kind != kind:
                names = [n for (s, n), d in self.defs.items() if s == ns and d.kind == kind and d.layer < layer]
                if prev is not None and prev.kind != kind:
                    self.err(pos, f"`override {what} {name}`: `{name}` is a {prev.kind}, not a {kind}")
                elif prev is not None:
                    self.err(pos, f"`override {what} {name}`: `{name}` is defined in this same layer at {prev.pos}, not in a base layer",
                             "remove `override`, or move it to the layer that extends this one")
                elif layer == 0 and len(self.layers) == 1:
                    # nothing is under these rules: most likely the file forgot its `extends` line
                    self.err(pos, f"`override {what} {name}`: these rules build on no base ruleset, so there is no "
                                  f"{kind} `{name}` to override",
                             "begin the file with `extends BASE` (the ruleset it changes, as its ruleset.json's "
                             "`extends` names it); or remove `override` to define something new")
                else:
                    self.err(pos, f"`override {what} {name}`: no base layer defines {kind} `{name}`",
                             did_you_mean(name, names) or "remove `override` to define something new")
                return False
            self.defs[(ns, name)] = _Def(kind, pos, layer, decl)
            self.p.history.setdefault((kind, name), []).append(decl)
            return True
        if prev is not None:
            if ns == "tag":
                self.err(pos, f"tag `{name}` is already declared at {prev.pos}")
            elif prev.layer == layer:
                self.err(pos, f"`{name}` is defined twice; the first definition is at {prev.pos}")
            elif prev.kind == kind:
                self.err(pos, f"`{name}` is already defined at {prev.pos}; write `override {what} {name}` to change it")
            else:
                self.err(pos, f"`{name}` is already a {prev.kind} defined at {prev.pos}")
            return False
        self.defs[(ns, name)] = _Def(kind, pos, layer, decl)
        self.p.history.setdefault((kind, name), []).append(decl)
        return True

    def merge(self) -> None:
        for li, modules in enumerate(self.layers):
            for m in modules:
                for d in m.decls:
                    self.merge_decl(d, li)

    def merge_decl(self, d: A.Decl, li: int) -> None:
        p = self.p
        if isinstance(d, A.StatDecl):
            if not self.check_name_ok(d.name, d.pos, "stat"):
                return
            if not valid_field_name(d.name):
                self.err(d.pos, f"stat name `{d.name}` must be lowercase letters, digits and `_`")
                return
            if d.name in ("name", "tags", "stats", "tag_list"):
                self.err(d.pos, f"`{d.name}` is reserved on units and cannot be a stat name")
                return
            if self.unit_rec is not None and d.name in self.unit_rec.fields:
                self.err(d.pos, f"stat `{d.name}` clashes with the engine field `{self.unit_rec.name}.{d.name}`",
                         "choose another stat name")
                return
            if self.declare("stat", "stat", d.name, d.pos, li, d.override, d, "stat"):
                t = self.resolve_type(d.type)
                if d.override and d.name in p.stats and t != p.stats[d.name][1] and t != ANY:
                    self.err(d.type.pos, f"`override stat {d.name}` must keep its type `{p.stats[d.name][1]}`, not `{t}`")
                p.stats[d.name] = (d, t)
        elif isinstance(d, A.TagDecl):
            for name, pos in d.names:
                if self.check_name_ok(name, pos, "tag") and self.declare("tag", "tag", name, pos, li, False, d, "tag"):
                    p.tags[name] = pos
        elif isinstance(d, A.UnitDecl):
            if not self.check_name_ok(d.name, d.pos, "unit"):
                return
            if self.declare("value", "unit", d.name, d.pos, li, d.override, d, "unit"):
                if d.override and d.name in p.units:
                    u = p.units[d.name]
                    fields = dict(u.fields)
                    seen: set[str] = set()
                    for f in d.fields:
                        if f.name in seen:
                            self.err(f.pos, f"stat `{f.name}` is given twice in unit `{d.name}`")
                        seen.add(f.name)
                        fields[f.name] = f
                    tags = u.tags if d.tags is None else tuple(t for t, _ in d.tags)
                    p.units[d.name] = UnitInfo(d.name, u.pos, tags, fields)
                else:
                    fields = {}
                    for f in d.fields:
                        if f.name in fields:
                            self.err(f.pos, f"stat `{f.name}` is given twice in unit `{d.name}`")
                        fields[f.name] = f
                    p.units[d.name] = UnitInfo(d.name, d.pos, tuple(t for t, _ in (d.tags or ())), fields)
                for tag, tpos in d.tags or ():
                    self.pending_tags.append((tag, tpos))
        elif isinstance(d, A.OptionDecl):
            if not self.check_name_ok(d.name, d.pos, "option"):
                return
            if self.declare("value", "option", d.name, d.pos, li, d.override, d, "option"):
                if d.override and d.name in p.options:
                    o = p.options[d.name]
                    p.options[d.name] = OptionInfo(d.name, o.type, d.value, d.doc or o.doc, o.pos,
                                                   bounds_expr=o.bounds_expr, status=d.status or o.status,
                                                   source=d.source or o.source)
                else:
                    assert d.type is not None
                    p.options[d.name] = OptionInfo(d.name, self.resolve_type(d.type), d.value, d.doc, d.pos,
                                                   bounds_expr=d.bounds, status=d.status, source=d.source)
        elif isinstance(d, A.TableDecl):
            if self.check_name_ok(d.name, d.pos, "table") and self.declare("value", "table", d.name, d.pos, li, d.override, d, "table"):
                if d.override and d.name in p.tables and not self.same_signature(d, p.tables[d.name], "table"):
                    return      # (the base's stays, so its callers are not reported against the new one)
                p.tables[d.name] = d
        elif isinstance(d, A.ProcedureDecl):
            if self.check_name_ok(d.name, d.pos, "procedure") and self.declare("value", "procedure", d.name, d.pos, li, d.override, d, "procedure"):
                if d.override and d.name in p.procedures:
                    if not self.same_signature(d, p.procedures[d.name], "procedure"):
                        # the base's stays: its callers (in the base's files) are not reported
                        # against the new signature, only this override is
                        return
                    p.base_of[id(d)] = p.procedures[d.name]
                p.procedures[d.name] = d
        elif isinstance(d, A.RuleDecl):
            if self.check_name_ok(d.name, d.pos, "rule") and self.declare("rule", "rule", d.name, d.pos, li, d.override, d, "rule"):
                for i, r in enumerate(p.rules):
                    if r.name == d.name:
                        p.rules[i] = d
                        break
                else:
                    p.rules.append(d)
        elif isinstance(d, A.VarDecl):
            if self.check_name_ok(d.name, d.pos, "variable") and self.declare("value", "var", d.name, d.pos, li, d.override, d, "var"):
                if d.override and d.name in p.vars:
                    v = p.vars[d.name]
                    p.vars[d.name] = VarInfo(d.name, v.type, d.value, d.reset[0] if d.reset else v.reset, d.doc or v.doc, v.pos)
                else:
                    p.vars[d.name] = VarInfo(d.name, self.resolve_type(d.type), d.value,
                                             d.reset[0] if d.reset else None, d.doc, d.pos)
                if d.reset is not None and d.reset[0] not in VAR_RESETS:
                    self.err(d.reset[1], f"`each {d.reset[0]}`: a variable is reset each turn, phase or step",
                             did_you_mean(d.reset[0], VAR_RESETS))
        elif isinstance(d, A.StepDecl):
            if self.check_name_ok(d.name, d.pos, "step") and self.declare("step", "step", d.name, d.pos, li, d.override, d, "step"):
                p.steps[d.name] = d
        elif isinstance(d, A.SequenceDecl):
            if self.check_name_ok(d.name, d.pos, "sequence") and self.declare("value", "sequence", d.name, d.pos, li, d.override, d, "sequence"):
                p.sequences[d.name] = d
        elif isinstance(d, A.TurnsDecl):
            if self.declare("seq", "turns", "turns", d.pos, li, d.override, d, "turns"):
                p.turns = d
        elif isinstance(d, A.PowersDecl):
            if self.declare("seq", "powers", "powers", d.pos, li, d.override, d, "powers" if d.mode == "shared" else "turn order"):
                p.powers = d
        elif isinstance(d, A.TeamsDecl):
            if self.declare("seq", "teams", "teams", d.pos, li, d.override, d, "teams"):
                p.teams = d
        elif isinstance(d, A.PhaseDecl):
            if self.check_name_ok(d.name, d.pos, "phase") and self.declare("phase", "phase", d.name, d.pos, li, d.override, d, "phase"):
                self.place_phase(d)

    def place_phase(self, d: A.PhaseDecl) -> None:
        phases = self.p.phases
        names = [ph.name for ph in phases]
        if d.override and d.name in names:
            i = names.index(d.name)
            if d.place is None:
                phases[i] = d
                return
            del phases[i]
            names.pop(i)
        if d.place is None:
            phases.append(d)
            return
        where, target, tpos = d.place
        if target not in names:
            self.err(tpos, f"phase `{d.name}` is placed {where} unknown phase `{target}`", did_you_mean(target, names))
            phases.append(d)
            return
        i = names.index(target)
        phases.insert(i if where == "before" else i + 1, d)

    def same_signature(self, new: A.TableDecl | A.ProcedureDecl, old: A.TableDecl | A.ProcedureDecl, what: str) -> bool:
        def sig(x: A.TableDecl | A.ProcedureDecl) -> str:
            params = ", ".join(f"{p.name}: {p.type}" for p in x.params)
            return f"({params})" + (f" -> {x.ret}" if x.ret is not None else "")
        if sig(new) != sig(old):
            self.err(new.pos, f"`override {what} {new.name}` must keep the signature {sig(old)}, not {sig(new)}",
                     f"the base layer's callers expect {sig(old)}; to pass more, declare a new {what} and call "
                     f"it from this one")
            return False
        return True

    # ------------------------------------------------------------------ types
    def resolve_type(self, t: A.TypeExpr) -> Type:
        if t.name in ("list", "map"):
            want = 1 if t.name == "list" else 2
            if len(t.args) != want:
                self.err(t.pos, f"`{t.name}` needs {want} type argument{'s' if want > 1 else ''}, like `{'list[int]' if want == 1 else 'map[str, int]'}`")
                return ANY
            args = [self.resolve_type(a) for a in t.args]
            if t.name == "map" and isinstance(args[0], (ListType, MapType)):
                self.err(t.args[0].pos, _CONTAINER_KEY.format(args[0]))
                return ANY
            return ListType(args[0]) if t.name == "list" else MapType(args[0], args[1])
        if t.args:
            self.err(t.pos, f"type `{t.name}` takes no arguments")
            return ANY
        if t.name in _TYPE_NAMES:
            return _TYPE_NAMES[t.name]
        if t.name in self.reg.records:
            return RecordType(t.name)
        cands = list(_TYPE_NAMES) + list(self.reg.records) + ["list", "map"]
        self.err(t.pos, f"unknown type `{t.name}`", did_you_mean(t.name, cands))
        return ANY

    # ------------------------------------------------------------------ declarations
    def run(self) -> Program:
        self.pending_tags: list[tuple[str, Pos]] = []
        self.pending_names: list[tuple[A.RuleDecl, dict[str, str]]] = []
        self.merge()
        p = self.p
        if p.powers is not None:
            # a game written only in rules names its powers here: each becomes a text constant
            # (and so does each name an entry can give: `if team_turns then Japan else UK`)
            # and so does each name in the value of an option an entry gives: `turn order
            # [turn_order]` with `option turn_order: list[str] = [USSR, Germany, ...]`
            listed = [n for e in p.powers.powers for n in power_names(e)]
            values = [p.options[n.name].value for n in listed if n.name in p.options]
            listed += [i for v in values if isinstance(v, A.ListLit) for i in v.items if isinstance(i, A.Name)]
            for n in listed:
                if self.value_kind(n.name) is None and valid_power_name(n.name):
                    self.reg.constant(n.name, "str", n.name, doc="a power of this game")
        for tag, tpos in self.pending_tags:
            if tag not in p.tags:
                self.err(tpos, f"unknown tag `{tag}`", did_you_mean(tag, p.tags) or "declare it with `tag " + tag + "`")
        const_env = {n: c.value for n, c in self.reg.constants.items()}
        for name, (sd, st) in p.stats.items():
            t = self.const_expr(sd.default, f"the default of stat `{name}`", allow_options=False)
            if not assignable(t, st):
                self.err(sd.default.pos, f"stat `{name}` is `{st}` but its default is `{t}`")
        for o in p.options.values():
            seen = len(self.diags)
            t = self.const_expr(o.value, f"the value of option `{o.name}`", allow_options=False)
            if not assignable(t, o.type):
                self.err(o.value.pos, f"option `{o.name}` is `{o.type}` but its value is `{t}`")
            if len(self.diags) == seen:  # a value refused is not computed (`"a" * 1000000000`)
                try:
                    o.default = self.static(o.value, const_env)
                except NotStatic:
                    pass
            if o.bounds_expr is not None:
                self.option_bounds(o, const_env)
        for u in p.units.values():
            for f in u.fields.values():
                if f.name not in p.stats:
                    self.err(f.pos, f"unknown stat `{f.name}` in unit `{u.name}`",
                             did_you_mean(f.name, p.stats) or f"declare it with `stat {f.name}: int = 0`")
                    continue
                st = p.stats[f.name][1]
                seen = len(self.diags)
                t = self.const_expr(f.value, f"stat `{f.name}` of unit `{u.name}`", allow_options=True)
                if not assignable(t, st):
                    self.err(f.value.pos, f"stat `{f.name}` of unit `{u.name}` must be `{st}`, got `{t}`")
                if len(self.diags) == seen:  # beyond the limits of the rules with the options' defaults?
                    try:
                        self.static(f.value, {**{k: o.default for k, o in p.options.items()}, **const_env})
                    except NotStatic:
                        pass
        for tb in p.tables.values():
            self.check_table(tb, const_env)
        for pr in p.procedures.values():
            self.check_procedure(pr)
        for v in p.vars.values():
            seen = len(self.diags)
            t = self.const_expr(v.value, f"the initial value of variable `{v.name}`", allow_options=True)
            if not assignable(t, v.type):
                self.err(v.value.pos, f"variable `{v.name}` is `{v.type}` but its initial value is `{t}`")
            if len(self.diags) == seen:
                try:
                    v.default = self.static(v.value, const_env)
                except NotStatic:
                    pass
        for sq in p.sequences.values():
            self.check_subsequence(sq)
        for pr in p.procedures.values():
            decl, k = pr, 0
            while id(decl) in p.base_of:
                k += 1
                base = p.base_of[id(decl)]
                compiled = f"{pr.name}__base{k}"
                p.base_versions.append((compiled, base))
                self.info.names[id(base)] = compiled
                decl = base
        for pr in p.procedures.values():
            self.check_procedure(pr)
        for _, base in p.base_versions:
            self.check_procedure(base)
        for r in p.rules:
            self.context = "rule"
            self.check_rule(r)
            self.context = "task"
        self.check_sequence(const_env)
        for step_decl in p.steps.values():
            self.check_step(step_decl)
        self.check_recursion()
        self.check_interactive()
        self.check_priors()
        self.check_sequence_names()
        self.check_engine_procedures()
        if self.report_unread:
            self.check_unread()
            self.check_endings()
        return p

    def check_engine_procedures(self) -> None:
        """A procedure the engine or its players call by name must take and give what they
        pass and expect (the search player's `evaluate(side: str) -> int`)."""
        for name, (params, returns, use) in ENGINE_PROCEDURES.items():
            pr = self.p.procedures.get(name)
            if pr is None:
                continue
            got = [self.resolve_type(prm.type) for prm in pr.params]
            ret = self.resolve_type(pr.ret) if pr.ret is not None else NONE
            if got != list(params) or ret not in returns:
                want = f"procedure {name}({', '.join(f'{n}: {t}' for n, t in zip(ENGINE_PARAM_NAMES[name], params))})"
                self.err(pr.pos, f"procedure `{name}` {use}, so it must be `{want} -> "
                         f"{' or '.join(str(r) for r in returns)}`",
                         "see docs/rules-language.md, \"Knowledge for the computer player\"")

    # ------------------------------------------------------------------ steps and moves
    def check_step(self, st: A.StepDecl) -> None:
        p = self.p
        placed = [ph.name for ph in p.phases if any(s == st.name for s, _ in ph.steps)]
        if p.phases and not placed:
            # a name a phase lists that no step declares may be this one misspelt: the mistake
            # is there, in the phase (a listed step that is declared is right as it is)
            undeclared = [(s, spos, ph.name) for ph in p.phases for s, spos in ph.steps if s not in p.steps]
            hint = did_you_mean(st.name, [s for s, _, _ in undeclared])
            if hint:
                wrong, wpos, phase = next((s, spos, ph) for s, spos, ph in undeclared if f"`{s}`" in hint)
                step_def, phase_def = self.defs.get(("step", st.name)), self.defs.get(("phase", phase))
                if step_def is not None and phase_def is not None and step_def.layer < phase_def.layer:
                    # a layer's phase names its base's step: the misspelling is the layer's
                    self.err(wpos, f"phase `{phase}` lists `{wrong}`, which no step declares, and step "
                                   f"`{st.name}` is in no phase", f"did you mean `{st.name}`? (declared at {st.pos})")
                else:
                    self.err(st.pos, f"step `{st.name}` is in no phase, so it would never run",
                             f"phase `{phase}` lists `{wrong}` ({wpos}), which no step declares: is one of the two "
                             f"names misspelt?")
            else:
                # a phase an override replaced may have listed it: the override left it out
                dropped = next(((ph, versions[-1]) for ph in p.phases
                                for versions in [self.p.history.get(("phase", ph.name), [])]
                                if len(versions) > 1 and versions[-1] is ph
                                and any(s == st.name for v in versions[:-1] for s, _ in v.steps)), None)
                if dropped is not None:
                    ph, _ = dropped
                    self.err(ph.pos, f"`override phase {ph.name}` leaves out step `{st.name}`, which the base's "
                                     f"phase lists, so it would never run",
                             f"list `{st.name}` in its steps (declared at {st.pos})")
                else:
                    self.err(st.pos, f"step `{st.name}` is in no phase, so it would never run",
                             "list it in a phase: `phase NAME { steps [" + st.name + "] }`")
        self.current = ("step", st.name)
        self.ret_type = NONE
        self.context = "query"
        if st.by is not None:
            self.expect_type(st.by, [], STR, "the player of a step (`by`)")
        if st.while_ is not None:
            self.expect_bool(st.while_, [], "the `while` condition of a step")
        self.context = "task"
        for blk in (st.start, st.end):
            if blk is not None:
                self.block(blk, [{}])
        names: dict[str, Pos] = {}
        for mv in st.moves:
            if mv.name in names:
                self.err(mv.pos, f"move `{mv.name}` is declared twice in step `{st.name}` (first at {names[mv.name]})")
            names[mv.name] = mv.pos
            if mv.name == "choose":
                self.err(mv.pos, "`choose` is the name of the answers to `choose(...)`; name the move otherwise")
            self.check_move(st, mv)
        if st.finish is not None:
            self.context = "query"
            self.expect_type(st.finish.label, [], STR, "the label of `finish`")
            self.context = "task"
            self.block(st.finish.body, [{}])
        if st.moves and st.finish is None and st.while_ is not None:
            self.err(st.pos, f"step `{st.name}` repeats `while` a condition holds but has no `finish`",
                     "add `finish \"pass\" { ... }` so a player can end their turn in it")
        self.current = None
        self.ret_type = None

    def check_move(self, st: A.StepDecl, mv: A.MoveDecl) -> None:
        self.context = "query"
        scope: dict[str, Type] = {}
        for prm in mv.params:
            want = self.resolve_type(prm.type)
            dt = self.expr(prm.domain, [scope])
            if isinstance(dt, ListType):
                if not assignable(dt.elem, want):
                    self.err(prm.domain.pos, f"`{prm.name}` is `{want}` but its choices are `{dt}`")
            elif dt != ANY:
                self.err(prm.domain.pos, f"the choices for `{prm.name}` must be a list, got `{dt}`")
            if prm.reason is not None:
                self.expect_type(prm.reason, [scope | {prm.name: want}], STR, "the reason after `else`")
            if self.check_name_ok(prm.name, prm.pos, "parameter"):
                if prm.name in scope:
                    self.err(prm.pos, f"parameter `{prm.name}` is given twice")
                elif self.value_kind(prm.name) is not None:
                    self.err(prm.pos, f"parameter `{prm.name}` hides the {self.value_kind(prm.name)} `{prm.name}`; choose another name")
                scope[prm.name] = want
        if mv.label is not None:
            self.expect_type(mv.label, [scope], STR, "a move's label")
        if mv.prior is not None:
            self.check_prior(mv.prior, scope)
        # the guard: the leading lets and requires, up to the first statement that asks a player,
        # and of those up to the last require (a `let` after it decides no option: it is worked
        # out when the move is played, not for every option listed)
        guard = leading = 0
        for s_ in mv.body:
            if isinstance(s_, A.Require) or (isinstance(s_, A.Let) and not self.asks(s_.value)):
                leading += 1
                if isinstance(s_, A.Require):
                    guard = leading
            else:
                break
        self.p.guards[(st.name, mv.name)] = guard
        scopes = [scope, {}]
        for s_ in mv.body[:guard]:
            self.stmt(s_, scopes)
        self.context = "task"
        # the rest of the body sees the guard's variables
        rest_scopes = scopes + [{}]
        returned = False
        for s_ in mv.body[guard:]:
            if returned:
                self.err(s_.pos, "this statement can never run: it follows a `return`")
                break
            returned = self.stmt(s_, rest_scopes)

    def note_change(self, pos: Pos) -> None:
        if self.current and self.current[0] in ("procedure", "table"):
            self.changers.setdefault(self.current[1], pos)

    def check_prior(self, prior: A.Expr, scope: dict[str, Type]) -> None:
        """A move's `prior`: a number, read with the move's parameters, that must not change
        the game (what it calls is judged through the call graph, in `check_priors`)."""
        self.context = "prior"
        t = self.expr(prior, [scope])
        self.context = "query"
        if t != ANY and not is_numeric(t):
            self.err(prior.pos, f"a move's prior must be a number (bigger: more promising), got `{t}`")

    def check_answer_prior(self, st: A.Let, t: Type, scopes: list[dict[str, Type]]) -> None:
        """`let x = choose(...) prior EXPR`: a number for each answer, read with `x` standing
        for it, that must not change the game (as a move's prior)."""
        v = st.value
        if not (isinstance(v, A.Call) and isinstance(v.func, A.Name) and v.func.name == "choose"
                and self.lookup_local(scopes, "choose") is None and self.value_kind("choose") == "builtin"):
            self.err(st.prior.pos if st.prior is not None else st.pos,
                     f"a `prior` after `let {st.name} = ...` weighs the answers of a question: the value must be "
                     "a call of `choose`", f"write `let {st.name} = choose(player, prompt, options) prior ...`")
        saved = self.context
        self.context, self.prior_what = "prior", "a question's prior"
        assert st.prior is not None
        pt = self.expr(st.prior, scopes)
        self.context, self.prior_what = saved, "a move's prior"
        if pt != ANY and not is_numeric(pt):
            self.err(st.prior.pos, f"a question's prior must be a number for each answer `{st.name}` "
                                   f"(bigger: more promising), got `{pt}`")

    def check_priors(self) -> None:
        """A prior is read for every option the search player weighs: it may call nothing that
        changes the game (a primitive that moves, marks or rolls, a game variable set, a player
        asked), directly or through the procedures it calls."""
        changing = self.callers_of(set(self.changers))
        asking = self.callers_of({k for k, v in self.calls.items() if any(c == "choose" for c, _ in v)})
        for callee, pos, what in self.prior_calls:
            why = None
            spec = self.reg.primitives.get(callee)
            if (callee == "choose" or callee in asking) and ("prior", callee, pos) not in self.call_sites:
                # (one in a procedure's question: a move's is said by check_interactive)
                why = "`choose` asks a player" if callee == "choose" else f"`{callee}` asks a player (it calls `choose`)"
            elif spec is not None and spec.changes:
                why = f"`{callee}` changes the game"
            elif callee in self.changers:
                why = f"`{callee}` changes the game (at {self.changers[callee]})"
            elif callee in changing:
                why = f"`{callee}` changes the game (through the procedures it calls)"
            if why is not None:
                self.err(pos, f"{why}, which {what}, a query, cannot do",
                         "a prior only reads the game: compute it with procedures that change nothing")

    def asks(self, node: Any) -> bool:
        """Does this code call `choose`, or a procedure that may (judged by name: the call
        graph is complete only at the end)?"""
        for n in _walk(node):
            if isinstance(n, A.Call) and isinstance(n.func, A.Name):
                if n.func.name == "choose" or self.may_ask(n.func.name):
                    return True
        return False

    def may_ask(self, name: str, seen: set[str] | None = None) -> bool:
        pr = self.p.procedures.get(name)
        sq = self.p.sequences.get(name)
        if pr is None and sq is None:
            return False
        seen = seen if seen is not None else set()
        if name in seen:
            return False
        seen.add(name)
        if sq is not None:
            return any(self.may_ask(s, seen) for s, _ in sq.steps)
        assert pr is not None
        for n in _walk(pr.body):
            if isinstance(n, A.Call) and isinstance(n.func, A.Name):
                if n.func.name == "choose" or self.may_ask(n.func.name, seen):
                    return True
        return False

    def check_subsequence(self, sq: A.SequenceDecl) -> None:
        self.current = ("procedure", sq.name)
        self.calls.setdefault(sq.name, [])
        scope = self.check_params(sq.params)
        self.ret_type = NONE
        if sq.while_ is not None:
            self.expect_bool(sq.while_, [scope], "the `repeat while` condition")
        want = [self.resolve_type_quiet(prm.type) for prm in sq.params]
        for name, pos in sq.steps:
            pr = self.p.procedures.get(name)
            if pr is None:
                cands = list(self.p.procedures)
                self.err(pos, f"the steps of sequence `{sq.name}` are procedures; `{name}` is not one",
                         did_you_mean(name, cands))
                continue
            got = [self.resolve_type_quiet(prm.type) for prm in pr.params]
            if got != want:
                self.err(pos, f"procedure `{name}` takes ({', '.join(map(str, got))}); the steps of `{sq.name}` "
                              f"get ({', '.join(map(str, want))})")
            self.note_call(name, pos)
        self.current = None
        self.ret_type = None

    def check_sequence_names(self) -> None:
        """`rule r on step_start(phase, step) when step == "front_lin"` would silently never
        run: a step or phase name compared with an event's `step`/`phase` must exist."""
        known = {"step": sorted({s for ph in self.p.phases for s, _ in ph.steps}),
                 "phase": sorted(ph.name for ph in self.p.phases)}
        if not self.p.phases:
            return
        for r, bound in self.pending_names:
            watched = {n: ev for n, ev in bound.items() if ev in known}
            if not watched:
                continue
            for node in _walk((r.when, r.body)):
                if not isinstance(node, A.Compare) or node.op not in ("==", "!=", "in", "not in"):
                    continue
                for name_side, other in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(name_side, A.Name) and name_side.name in watched:
                        what = watched[name_side.name]
                        lits = [other] if isinstance(other, A.StrLit) else \
                            list(other.items) if isinstance(other, A.ListLit) else []
                        for lit in lits:
                            if isinstance(lit, A.StrLit) and lit.value not in known[what]:
                                self.err(lit.pos, f"there is no {what} `{lit.value}`, so this rule would never run",
                                         did_you_mean(lit.value, known[what]))

    def callers_of(self, seeds: set[str]) -> set[str]:
        """`seeds` and every procedure, table or sequence that calls one of them, directly or
        through others."""
        graph = {k: {c for c, _ in v} for k, v in self.calls.items()}
        found = set(seeds)
        changed = True
        while changed:
            changed = False
            for k, v in graph.items():
                if k not in found and v & found:
                    found.add(k)
                    changed = True
        return found

    def check_interactive(self) -> None:
        asking = self.callers_of({k for k, v in self.calls.items() if any(c == "choose" for c, _ in v)})
        self.p.interactive = asking
        for ctx, callee, pos in self.call_sites:
            if ctx in ("query", "prior", "rule") and (callee == "choose" or callee in asking):
                where = ("a rule bound to an event" if ctx == "rule"
                         else "a query (a step's `by` or `while`, a move's choices, label, prior or requirements)")
                what = "`choose` asks a player" if callee == "choose" else f"`{callee}` asks a player (it calls `choose`)"
                self.err(pos, f"{what}, which {where} cannot do",
                         "ask in a step's `start` or `end`, in a move's body after its requirements, in `finish`, "
                         "or in a procedure called from there")

    def check_endings(self) -> None:
        """Warn of two rules that end the game (`end_game`, themselves or through the procedures
        they call) on the same event: when both would, the first to run decides and the other's
        ending is ignored, which a layer adding its own victory rule rarely means."""
        def calls_end_game(body: Any) -> bool:
            return any(isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.name == "end_game"
                       for n in A.nodes(body))

        ending = self.callers_of({name for name, pr in self.p.procedures.items() if calls_end_game(pr.body)})
        first: dict[str, A.RuleDecl] = {}
        for r in self.p.rules:
            ends = any(isinstance(n, A.Call) and isinstance(n.func, A.Name)
                       and (n.func.name == "end_game" or n.func.name in ending) for n in A.nodes(r.body))
            if not ends:
                continue
            if r.event in first:
                other = first[r.event]
                self.diags.append(Diagnostic(
                    r.pos, f"rules `{other.name}` and `{r.name}` both end the game on `{r.event}`: when both "
                           f"would at once, `{other.name}` runs first ({other.pos}) and this one's ending is ignored",
                    f"end the game in one rule that weighs both: `override rule {other.name}` to decide there",
                    "warning"))
            else:
                first[r.event] = r

    def check_unread(self) -> None:
        host = set(getattr(self.reg, "host_stats", ()))
        for name, (sd, _) in self.p.stats.items():
            if name not in self.stats_read and name not in host:
                self.diags.append(Diagnostic(sd.pos, f"stat `{name}` is declared but no rule reads it",
                                             "a stat that nothing reads changes nothing: read it in a rule, or remove it",
                                             "warning"))
        host_tags = set(getattr(self.reg, "host_tags", ()))
        for name, pos in self.p.tags.items():
            if name not in self.tags_read and name not in host_tags:
                self.diags.append(Diagnostic(pos, f"tag `{name}` is declared but no rule tests it",
                                             "test it with `u has " + name + "`, or remove it", "warning"))

    def static(self, e: A.Expr, env: dict[str, Any]) -> Any:
        """static_eval, within what one load may build; a value beyond the limits of the rules
        is an error here (and raises NotStatic)."""
        try:
            return static_eval(e, env, self.static_work)
        except TooBig as exc:
            self.err(exc.pos, str(exc))
            raise

    def const_expr(self, e: A.Expr, what: str, allow_options: bool) -> Type:
        bad = self.first_non_const(e, allow_options)
        if bad is not None:
            self.err(bad.pos, f"{what} must be a constant (a literal, a named constant{' or an option' if allow_options else ''})")
            return ANY
        return self.expr(e, [])

    def option_bounds(self, o: OptionInfo, const_env: dict[str, Any]) -> None:
        """`option die: int in 2..100 = 12`: every number in the value must lie in the range,
        for the default here and for any value a player or a layer gives."""
        assert o.bounds_expr is not None
        lo_e, hi_e = o.bounds_expr
        nums = _numbers_in(o.type)
        if not nums:
            self.err(lo_e.pos, f"option `{o.name}` is `{o.type}`: only numbers (or lists and maps of them) have a range")
            return
        try:
            lo, hi = self.static(lo_e, const_env), self.static(hi_e, const_env)
        except NotStatic:
            self.err(lo_e.pos, f"the range of option `{o.name}` must be two constant numbers, like `in 2..100`")
            return
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi)) or lo > hi:
            self.err(lo_e.pos, f"the range of option `{o.name}` must be two numbers, the lower first, like `in 2..100`")
            return
        o.bounds = (lo, hi)
        bad = out_of_bounds(o.default, lo, hi)
        if bad is not None:
            self.err(o.value.pos, f"option `{o.name}` must lie in {lo}..{hi}, but its value holds {bad}")

    def first_non_const(self, e: A.Expr, allow_options: bool) -> A.Expr | None:
        if isinstance(e, (A.IntLit, A.FloatLit, A.StrLit, A.BoolLit)):
            return None
        if isinstance(e, A.Name):
            k = self.value_kind(e.name)
            if k in ("constant", "unit") or (k == "option" and allow_options) or k is None:
                return None  # unknown names are reported by expr()
            return e
        if isinstance(e, A.ListLit):
            return next((b for b in (self.first_non_const(i, allow_options) for i in e.items) if b), None)
        if isinstance(e, A.MapLit):
            for key, v in e.entries:
                b = self.first_non_const(key, allow_options) or self.first_non_const(v, allow_options)
                if b:
                    return b
            return None
        if isinstance(e, A.UnaryOp):
            return self.first_non_const(e.operand, allow_options)
        if isinstance(e, A.BinOp) and e.op in ("+", "-", "*"):
            return self.first_non_const(e.left, allow_options) or self.first_non_const(e.right, allow_options)
        return e

    def check_table(self, tb: A.TableDecl, const_env: dict[str, Any]) -> None:
        self.current = ("table", tb.name)
        self.calls.setdefault(tb.name, [])
        ptypes = [self.resolve_type(p.type) for p in tb.params]
        self.check_params(tb.params)
        for prm, pt in zip(tb.params, ptypes, strict=True):
            if pt not in (INT, STR, BOOL, FLOAT, ANY):
                self.err(prm.type.pos, f"table keys must be `int`, `str`, `bool` or `float`, not `{pt}`")
        ret = self.resolve_type(tb.ret)
        seen: dict[Any, Pos] = {}
        default_seen = False
        for en in tb.entries:
            if en.keys is None:
                if default_seen:
                    self.err(en.pos, f"table `{tb.name}` has two `default` entries")
                default_seen = True
                scope = [{p.name: t for p, t in zip(tb.params, ptypes, strict=True)}]
                vt = self.expr(en.value, scope)
            else:
                if len(en.keys) != len(tb.params):
                    self.err(en.pos, f"table `{tb.name}` has {len(tb.params)} parameter{'s' if len(tb.params) != 1 else ''} but this key has {len(en.keys)} value{'s' if len(en.keys) != 1 else ''}")
                else:
                    for k, pt, prm in zip(en.keys, ptypes, tb.params, strict=True):
                        kt = self.const_expr(k, f"a key of table `{tb.name}`", allow_options=False)
                        if not assignable(kt, pt):
                            self.err(k.pos, f"key for `{prm.name}` in table `{tb.name}` must be `{pt}`, got `{kt}`")
                    try:
                        kv = tuple(self.static(k, const_env) for k in en.keys)
                        if kv in seen:
                            shown = kv[0] if len(kv) == 1 else kv
                            self.err(en.pos, f"key {shown!r} appears twice in table `{tb.name}` (first at {seen[kv]})")
                        else:
                            seen[kv] = en.pos
                    except (NotStatic, TypeError):
                        pass
                vt = self.const_expr(en.value, f"a value of table `{tb.name}`", allow_options=True)
            if not assignable(vt, ret):
                self.err(en.value.pos, f"table `{tb.name}` returns `{ret}` but this value is `{vt}`")
        self.current = None

    def check_params(self, params: tuple[A.Param, ...]) -> dict[str, Type]:
        scope: dict[str, Type] = {}
        for prm in params:
            t = self.resolve_type(prm.type)
            if not self.check_name_ok(prm.name, prm.pos, "parameter"):
                continue
            if prm.name in scope:
                self.err(prm.pos, f"parameter `{prm.name}` is given twice")
            elif self.value_kind(prm.name) is not None:
                self.err(prm.pos, f"parameter `{prm.name}` hides the {self.value_kind(prm.name)} `{prm.name}`; choose another name")
            scope[prm.name] = t
        return scope

    def check_procedure(self, pr: A.ProcedureDecl) -> None:
        self.current_decl = pr
        self.current = ("procedure", pr.name)
        self.calls.setdefault(pr.name, [])
        scope = self.check_params(pr.params)
        self.ret_type = self.resolve_type(pr.ret) if pr.ret is not None else NONE
        returns = self.block(pr.body, [scope])
        if self.ret_type != NONE and not returns:
            self.err(pr.pos, f"procedure `{pr.name}` may end without returning a value of type `{self.ret_type}`",
                     "make sure every path ends with `return`")
        self.current = None
        self.ret_type = None

    def check_rule(self, r: A.RuleDecl) -> None:
        self.current = ("rule", r.name)
        ev = self.reg.events.get(r.event)
        scope: dict[str, Type] = {}
        if ev is None:
            self.err(r.event_pos, f"unknown event `{r.event}`", did_you_mean(r.event, self.reg.events))
            for n, _ in r.params:
                scope[n] = ANY
        else:
            if len(r.params) > len(ev.params):
                names = ", ".join(n for n, _ in ev.params) or "nothing"
                self.err(r.event_pos, f"event `{r.event}` passes {len(ev.params)} value{'s' if len(ev.params) != 1 else ''} ({names}), but the rule binds {len(r.params)}")
            for (n, npos), (_, t) in zip(r.params, ev.params, strict=False):
                if self.check_name_ok(n, npos, "parameter"):
                    if self.value_kind(n) is not None:
                        self.err(npos, f"parameter `{n}` hides the {self.value_kind(n)} `{n}`; choose another name")
                    scope[n] = self.reg.type_of(t)
        if ev is not None:
            self.pending_names.append((r, {n: en for (n, _), (en, _) in zip(r.params, ev.params, strict=False)}))
        if r.when is not None:
            self.expect_bool(r.when, [scope], "the `when` condition of a rule")
        self.ret_type = NONE
        self.block(r.body, [scope])
        self.ret_type = None
        self.current = None

    def check_sequence(self, const_env: dict[str, Any]) -> None:
        p = self.p
        # Options are left out on purpose: a house rule or --option may change them, so a
        # phase whose condition reads an option (`when custom_setup`) may run after all.
        env = dict(const_env)
        if p.turns is not None:
            for n in p.turns.names:
                self.expect_type(n, [], STR, "a turn name")
            if p.turns.count is not None and p.turns.names and len(p.turns.names) != p.turns.count:
                self.err(p.turns.pos, f"{p.turns.count} turns but {len(p.turns.names)} turn names")
        if p.powers is not None:
            # an entry is a power, or a list of powers given in their order (an option a
            # scenario sets: `turn order [turn_order]`), spliced in where it stands
            for n in p.powers.powers:
                t = self.expr(n, [])
                if not (assignable(t, STR) or assignable(t, ListType(STR))):
                    self.err(n.pos, f"a power must be `str` (or a `list[str]` of powers), got `{t}`")
            named: list[Any] = []
            try:        # (an entry that reads an option is checked when the options are known)
                for n in p.powers.powers:
                    value = self.static(n, env)
                    named += list(value) if isinstance(value, (list, tuple)) else [value]
            except (NotStatic, TypeError):
                named = []
            twice = sorted({x for x in named if named.count(x) > 1})
            if twice:
                word = "powers" if p.powers.mode == "shared" else "turn order"
                self.err(p.powers.pos, f"the {word} names {', '.join(f'`{x}`' for x in twice)} twice",
                         "each power plays once a turn")
        if self.reg.needs_turns and not p.phases and self.layers and all(self.layers):
            # (a layer with no file parsed has said why; its base and phases may be missing for it)
            where = self.layers[-1][0].pos
            self.err(where, "the rules declare no phase: a game's turn is made of phases",
                     "declare the turn: `phase movement { steps [march] }` (see rules-language.md, the turn sequence)")
        if p.teams is not None:
            if p.powers is None or p.powers.mode != "order":
                self.err(p.teams.pos, "`teams` needs a `turn order`: a team is powers next to each other in it")
            for team in p.teams.teams:      # a power, or a list of powers spliced in (an option)
                for n in team:
                    t = self.expr(n, [])
                    if not (assignable(t, STR) or assignable(t, ListType(STR))):
                        self.err(n.pos, f"a power of a team must be `str` (or a `list[str]` of powers), got `{t}`")
            if p.teams.when is not None:
                self.expect_type(p.teams.when, [], BOOL, "the `when` condition of `teams`")
            names = [ph.name for ph in p.phases]
            for ph_name, ph_pos in p.teams.together:
                if ph_name not in names:
                    self.err(ph_pos, f"`together [{ph_name}]`: there is no phase `{ph_name}`", did_you_mean(ph_name, names))
        seen: dict[str, Pos] = {}
        for ph in p.phases:
            if ph.name in seen:
                self.err(ph.pos, f"phase `{ph.name}` is defined twice")
            seen[ph.name] = ph.pos
            if not ph.steps and self.reg.needs_turns:
                self.err(ph.pos, f"phase `{ph.name}` lists no steps", "list the steps it runs, or remove it")
            steps: dict[str, Pos] = {}
            for s, spos in ph.steps:
                if s in steps:
                    self.err(spos, f"step `{s}` appears twice in phase `{ph.name}` (first at {steps[s]})")
                steps[s] = spos
            if ph.when is not None:
                self.current = ("phase", ph.name)
                ok = self.expect_bool(ph.when, [{"turn": INT}], "the `when` condition of a phase")
                self.current = None
                if not ok:
                    continue
                # (the first 1,000 turns: a longer game is no reason to check for ever)
                turns = range(1, min(p.turns.count if p.turns and p.turns.count else 100, 1000) + 1)
                try:
                    if not any(self.static(ph.when, {**env, "turn": t}) for t in turns):
                        self.err(ph.when.pos, f"phase `{ph.name}` can never run: its condition is false on every turn {turns.start}..{turns.stop - 1}")
                except (NotStatic, TypeError):
                    pass
        self.current = None

    def check_recursion(self) -> None:
        graph = {k: [c for c, _ in v if c in self.calls] for k, v in self.calls.items()}
        reported: set[frozenset[str]] = set()
        for start in graph:
            # depth-first search for a path back to start
            stack: list[tuple[str, list[str]]] = [(start, [start])]
            visited: set[str] = set()
            while stack:
                node, path = stack.pop()
                for nxt in graph.get(node, []):
                    if nxt == start:
                        cyc = frozenset(path)
                        if cyc not in reported:
                            reported.add(cyc)
                            pos = next(pp for c, pp in self.calls[path[-1]] if c == start)
                            chain = " -> ".join(path + [start])
                            self.err(pos, f"`{start}` calls itself ({chain}); recursion is not allowed",
                                     "rules must terminate: use a `for` loop over a collection or a bounded `range`")
                    elif nxt not in visited:
                        visited.add(nxt)
                        stack.append((nxt, path + [nxt]))

    # ------------------------------------------------------------------ statements
    def lookup_local(self, scopes: list[dict[str, Type]], name: str) -> Type | None:
        for s in reversed(scopes):
            if name in s:
                return s[name]
        return None

    def block(self, stmts: tuple[A.Stmt, ...], scopes: list[dict[str, Type]]) -> bool:
        """Check a block; True if it always returns."""
        scopes = scopes + [{}]
        returned = False
        for st in stmts:
            if returned:
                self.err(st.pos, "this statement can never run: it follows a `return`")
                break
            returned = self.stmt(st, scopes)
        return returned

    def new_local(self, name: str, pos: Pos, t: Type, scopes: list[dict[str, Type]]) -> None:
        if not self.check_name_ok(name, pos, "variable"):
            return
        if self.lookup_local(scopes, name) is not None:
            self.err(pos, f"`{name}` is already defined here; choose another name or assign with `{name} = ...`")
        elif self.value_kind(name) is not None and name not in SOFT_BUILTINS:
            self.err(pos, f"`{name}` would hide the {self.value_kind(name)} `{name}`; choose another name")
        scopes[-1][name] = t

    def stmt(self, st: A.Stmt, scopes: list[dict[str, Type]]) -> bool:
        if isinstance(st, A.Let):
            t = self.expr(st.value, scopes)
            if t == NONE:
                self.err(st.value.pos, "this call returns no value")
                t = ANY
            if st.type is not None:
                want = self.resolve_type(st.type)
                if not assignable(t, want):
                    self.err(st.value.pos, f"`{st.name}` is declared `{want}` but the value is `{t}`")
                t = want
            self.new_local(st.name, st.pos, t, scopes)
            if st.prior is not None:
                self.check_answer_prior(st, t, scopes)
            return False
        if isinstance(st, A.Assign):
            self.assign(st, scopes)
            return False
        if isinstance(st, A.If):
            self.expect_bool(st.cond, scopes, "the condition of `if`")
            a = self.block(st.body, scopes)
            b = self.block(st.orelse, scopes) if st.orelse else False
            return a and b
        if isinstance(st, A.For):
            it = self.expr(st.iter, scopes)
            elem = self.elem_type(it, st.iter.pos, "loop over")
            inner = scopes + [{}]
            self.new_local(st.var, st.var_pos, elem, inner)
            if st.cond is not None:
                self.expect_bool(st.cond, inner, "a `where` condition")
            self.loops += 1
            self.block(st.body, inner)
            self.loops -= 1
            return False
        if isinstance(st, A.Require):
            self.expect_bool(st.cond, scopes, "the condition of `require`")
            self.expect_type(st.reason, scopes, STR, "the reason of `require` (after `else`)")
            return False
        if isinstance(st, (A.Break, A.Continue)):
            if self.loops == 0:
                word = "break" if isinstance(st, A.Break) else "continue"
                self.err(st.pos, f"`{word}` outside a `for` loop")
            return False
        if isinstance(st, A.Return):
            self.ret(st, scopes)
            return True
        if isinstance(st, A.ExprStmt):
            if not isinstance(st.expr, A.Call):
                self.err(st.pos, "this expression does nothing on its own; only calls can stand alone as statements")
            else:
                self.expr(st.expr, scopes)
            return False
        raise AssertionError(st)

    def ret(self, st: A.Return, scopes: list[dict[str, Type]]) -> None:
        kind = self.current[0] if self.current else "?"
        if st.value is None:
            if self.ret_type not in (None, NONE):
                self.err(st.pos, f"`return` needs a value of type `{self.ret_type}` here")
            return
        t = self.expr(st.value, scopes)
        if kind == "rule":
            self.err(st.pos, "a rule cannot return a value; only procedures return values",
                     "write a bare `return` to stop the rule, or move the computation into a procedure")
        elif self.ret_type == NONE:
            name = self.current[1] if self.current else "?"
            self.err(st.pos, f"procedure `{name}` has no return type but returns a value", f"declare it with `-> {t}`")
        elif self.ret_type is not None and not assignable(t, self.ret_type):
            name = self.current[1] if self.current else "?"
            self.err(st.value.pos, f"procedure `{name}` must return `{self.ret_type}`, not `{t}`")

    def assign(self, st: A.Assign, scopes: list[dict[str, Type]]) -> None:
        tgt = st.target
        vt = self.expr(st.value, scopes)
        if isinstance(tgt, A.Name):
            t = self.lookup_local(scopes, tgt.name)
            if t is None and self.value_kind(tgt.name) == "var":
                self.note_change(tgt.pos)
                if self.context == "query" or (self.current and self.current[0] in ("table", "phase")):
                    self.err(tgt.pos, f"`{tgt.name}` is a game variable; a query (a condition, a move's choices "
                                      "or requirements, a label) cannot change it")
                t = self.p.vars[tgt.name].type
                self.info.names[id(tgt)] = "var"
                self.info.types[id(tgt)] = t
            elif t is None:
                k = self.value_kind(tgt.name)
                if k is not None:
                    self.err(tgt.pos, f"cannot assign to {k} `{tgt.name}`: only variables declared with `let` can change")
                else:
                    self.err(tgt.pos, f"assignment to undeclared variable `{tgt.name}`",
                             did_you_mean(tgt.name, self.all_locals(scopes)) or f"declare it first with `let {tgt.name} = ...`")
                return
            else:
                self.info.names[id(tgt)] = "local"
                self.info.types[id(tgt)] = t
        elif isinstance(tgt, A.Index):
            t = self.expr(tgt, scopes)
            root = tgt.obj
            while isinstance(root, A.Index):
                root = root.obj
            kind = self.info.names.get(id(root)) if isinstance(root, A.Name) else None
            if kind == "var":
                self.note_change(tgt.pos)
            if kind in ("option", "constant"):
                assert isinstance(root, A.Name)
                self.err(tgt.pos, f"cannot change {kind} `{root.name}`: {kind}s keep their value for the whole game",
                         "copy it into a variable first: `let x = [v for v in ...]`, or declare a `var`")
                return
        elif isinstance(tgt, A.Attr):
            self.err(tgt.pos, f"cannot assign to `.{tgt.name}`: game state changes only through engine primitives")
            return
        else:
            self.err(tgt.pos, "can only assign to a variable or an element `xs[i]`")
            return
        if st.op == "=":
            if not assignable(vt, t):
                self.err(st.value.pos, f"cannot assign `{vt}` to `{self.describe_target(tgt)}` of type `{t}`")
        else:
            res = self.arith("+" if st.op == "+=" else "-", t, vt, st.pos)
            if res != ANY and not assignable(res, t):
                self.err(st.value.pos, f"`{st.op}` would make `{self.describe_target(tgt)}` a `{res}`, but it is `{t}`")

    @staticmethod
    def describe_target(t: A.Expr) -> str:
        return t.name if isinstance(t, A.Name) else "this element"

    @staticmethod
    def all_locals(scopes: list[dict[str, Type]]) -> list[str]:
        return [n for s in scopes for n in s]

    # ------------------------------------------------------------------ expressions
    def expect_bool(self, e: A.Expr, scopes: list[dict[str, Type]], what: str) -> bool:
        t = self.expr(e, scopes)
        if t not in (BOOL, ANY):
            self.err(e.pos, f"{what} must be `bool`, got `{t}`")
            return False
        return True

    def expect_type(self, e: A.Expr, scopes: list[dict[str, Type]], want: Type, what: str) -> None:
        t = self.expr(e, scopes)
        if not assignable(t, want):
            self.err(e.pos, f"{what} must be `{want}`, got `{t}`")

    def elem_type(self, t: Type, pos: Pos, verb: str) -> Type:
        if isinstance(t, ListType):
            return t.elem
        if isinstance(t, MapType):
            return t.key
        if t == ANY:
            return ANY
        self.err(pos, f"cannot {verb} a `{t}`; expected a list or a map")
        return ANY

    def expr(self, e: A.Expr, scopes: list[dict[str, Type]]) -> Type:
        t = self._expr(e, scopes)
        self.info.types[id(e)] = t
        return t

    def _expr(self, e: A.Expr, scopes: list[dict[str, Type]]) -> Type:
        if isinstance(e, A.IntLit):
            return INT
        if isinstance(e, A.FloatLit):
            return FLOAT
        if isinstance(e, A.StrLit):
            return STR
        if isinstance(e, A.BoolLit):
            return BOOL
        if isinstance(e, A.Name):
            return self.name(e, scopes)
        if isinstance(e, A.ListLit):
            elem: Type = ANY
            for i in e.items:
                it = self.expr(i, scopes)
                u = unify(elem, it)
                if u is None:
                    self.err(i.pos, f"list items must have one type: `{elem}` and `{it}` are mixed")
                else:
                    elem = u
            return ListType(elem)
        if isinstance(e, A.MapLit):
            kt: Type = ANY
            vt: Type = ANY
            for k, v in e.entries:
                a, b = self.expr(k, scopes), self.expr(v, scopes)
                if isinstance(a, (ListType, MapType)):
                    self.err(k.pos, _CONTAINER_KEY.format(a))
                    return ANY
                ku, vu = unify(kt, a), unify(vt, b)
                if ku is None:
                    self.err(k.pos, f"map keys must have one type: `{kt}` and `{a}` are mixed")
                else:
                    kt = ku
                if vu is None:
                    self.err(v.pos, f"map values must have one type: `{vt}` and `{b}` are mixed")
                else:
                    vt = vu
            return MapType(kt, vt)
        if isinstance(e, A.ListComp):
            t = self.generator(e.gen, scopes)
            return ListType(t)
        if isinstance(e, A.Attr):
            return self.attr(e, scopes)
        if isinstance(e, A.Index):
            ot = self.expr(e.obj, scopes)
            it = self.expr(e.index, scopes)
            if isinstance(ot, ListType):
                if not assignable(it, INT):
                    self.err(e.index.pos, f"a list index must be `int`, got `{it}`")
                return ot.elem
            if isinstance(ot, MapType):
                if not assignable(it, ot.key):
                    self.err(e.index.pos, f"this map's keys are `{ot.key}`, got `{it}`")
                return ot.value
            if ot != ANY:
                self.err(e.pos, f"cannot index a `{ot}`; only lists and maps have elements")
            return ANY
        if isinstance(e, A.Call):
            return self.call(e, scopes)
        if isinstance(e, A.UnaryOp):
            t = self.expr(e.operand, scopes)
            if e.op == "not":
                if t not in (BOOL, ANY):
                    self.err(e.operand.pos, f"`not` needs a `bool`, got `{t}`")
                return BOOL
            if not is_numeric(t):
                self.err(e.pos, f"cannot negate a `{t}`")
                return ANY
            return t
        if isinstance(e, A.BinOp):
            a = self.expr(e.left, scopes)
            b = self.expr(e.right, scopes)
            if e.op in ("and", "or"):
                for side, st in ((e.left, a), (e.right, b)):
                    if st not in (BOOL, ANY):
                        self.err(side.pos, f"`{e.op}` needs `bool` on both sides, got `{st}`")
                return BOOL
            return self.arith(e.op, a, b, e.pos)
        if isinstance(e, A.Compare):
            return self.compare(e, scopes)
        if isinstance(e, A.IfExpr):
            self.expect_bool(e.cond, scopes, "the condition of `if`")
            a, b = self.expr(e.then, scopes), self.expr(e.else_, scopes)
            u = unify(a, b)
            if u is None:
                self.err(e.pos, f"both branches of `if ... then ... else` must have one type, got `{a}` and `{b}`")
                return ANY
            return u
        if isinstance(e, A.Generator):
            raise AssertionError("bare generator")
        raise AssertionError(e)

    def arith(self, op: str, a: Type, b: Type, pos: Pos) -> Type:
        if a == ANY or b == ANY:
            return ANY
        if op == "+" and a == b == STR:
            return STR
        if op == "+" and isinstance(a, ListType) and isinstance(b, ListType):
            u = unify(a, b)
            if u is not None:
                return u
        if is_numeric(a) and is_numeric(b):
            if op == "/":
                return FLOAT
            return INT if a == b == INT else FLOAT
        self.err(pos, f"cannot apply `{op}` to `{a}` and `{b}`")
        return ANY

    def compare(self, e: A.Compare, scopes: list[dict[str, Type]]) -> Type:
        lt = self.expr(e.left, scopes)
        if e.op in ("is", "is not"):
            if not isinstance(e.right, A.Name) or self.value_kind(e.right.name) != "unit":
                name = e.right.name if isinstance(e.right, A.Name) else "?"
                self.err(e.right.pos, f"unknown unit `{name}` after `{e.op}`", did_you_mean(name, self.p.units))
            else:
                self.info.names[id(e.right)] = "unit"
            if not (lt in (UNIT_TYPE, ANY) or self.is_unit_record(lt)):
                self.err(e.left.pos, f"`{e.op}` tests a unit's type, but this is a `{lt}`")
            return BOOL
        if e.op in ("has", "has not"):
            if isinstance(e.right, A.Name):
                self.tags_read.add(e.right.name)
            if not isinstance(e.right, A.Name) or e.right.name not in self.p.tags:
                name = e.right.name if isinstance(e.right, A.Name) else "?"
                self.err(e.right.pos, f"unknown tag `{name}`", did_you_mean(name, self.p.tags))
            if not (lt in (UNIT_TYPE, ANY) or self.is_unit_record(lt)):
                self.err(e.left.pos, f"`{e.op}` tests a unit's tags, but this is a `{lt}`")
            return BOOL
        rt = self.expr(e.right, scopes)
        if e.op in ("in", "not in"):
            if isinstance(rt, ListType):
                want = rt.elem
            elif isinstance(rt, MapType):
                want = rt.key
            elif rt == STR:
                want = STR
            elif rt == ANY:
                want = ANY
            else:
                self.err(e.right.pos, f"`{e.op}` needs a list, map or string on its right, got `{rt}`")
                return BOOL
            if not assignable(lt, want) and not assignable(want, lt):
                self.err(e.pos, f"cannot look for a `{lt}` in a `{rt}`")
            return BOOL
        if unify(lt, rt) is None:
            self.err(e.pos, f"cannot compare `{lt}` with `{rt}`")
        elif e.op not in ("==", "!=") and not (is_numeric(lt) and is_numeric(rt)) and not (lt == rt == STR):
            self.err(e.pos, f"`{e.op}` compares numbers or strings, not `{lt}`")
        return BOOL

    def is_unit_record(self, t: Type) -> bool:
        return isinstance(t, RecordType) and self.unit_rec is not None and t.name == self.unit_rec.name

    def name(self, e: A.Name, scopes: list[dict[str, Type]]) -> Type:
        if not self.check_name_ok(e.name, e.pos, "name"):
            return ANY
        t = self.lookup_local(scopes, e.name)
        if t is not None:
            self.info.names[id(e)] = "local"
            return t
        k = self.value_kind(e.name)
        if k == "option":
            self.info.names[id(e)] = "option"
            return self.p.options[e.name].type
        if k == "var":
            self.info.names[id(e)] = "var"
            return self.p.vars[e.name].type
        if k == "constant":
            self.info.names[id(e)] = "constant"
            return self.reg.type_of(self.reg.constants[e.name].type)
        if k == "unit":
            self.info.names[id(e)] = "unit"
            return UNIT_TYPE
        if k in ("table", "procedure", "primitive", "builtin", "sequence"):
            self.err(e.pos, f"`{e.name}` is a {k}; call it with `{e.name}(...)`")
            return ANY
        cands = self.all_locals(scopes) + [n for (s, n) in self.defs if s == "value"] + list(self.reg.constants)
        self.err(e.pos, f"unknown name `{e.name}`", did_you_mean(e.name, cands))
        return ANY

    def attr(self, e: A.Attr, scopes: list[dict[str, Type]]) -> Type:
        ot = self.expr(e.obj, scopes)
        name = e.name
        if name.startswith("_"):
            self.err(e.pos, f"names starting with `_` are reserved: `.{name}`",
                     "rules files cannot reach Python internals")
            return ANY
        if ot == ANY:
            return ANY
        stats = self.p.stats
        if name in stats:
            self.stats_read.add(name)
        if ot == UNIT_TYPE:
            if name in stats:
                self.info.attrs[id(e)] = "ustat"
                return stats[name][1]
            if name == "tags":
                self.info.attrs[id(e)] = "utags"
                return ListType(STR)
            if name == "name":
                self.info.attrs[id(e)] = "uname"
                return STR
            self.err(e.pos, f"a unit type has no stat `{name}`", did_you_mean(name, list(stats) + ["tags", "name"]))
            return ANY
        if isinstance(ot, RecordType):
            spec = self.reg.records[ot.name]
            if name in spec.fields:
                self.info.attrs[id(e)] = "field"
                return self.reg.type_of(spec.fields[name])
            if spec.unit_stats:
                if name in stats:
                    self.info.attrs[id(e)] = "stat"
                    return stats[name][1]
                if name == "tags":
                    self.info.attrs[id(e)] = "tags"
                    return ListType(STR)
                self.err(e.pos, f"`{ot.name}` has no field or stat `{name}`",
                         did_you_mean(name, list(spec.fields) + list(stats) + ["tags"]))
                return ANY
            self.err(e.pos, f"`{ot.name}` has no field `{name}`", did_you_mean(name, spec.fields))
            return ANY
        self.err(e.pos, f"cannot read `.{name}` of a `{ot}` value; only units and engine records have fields")
        return ANY

    def generator(self, g: A.Generator, scopes: list[dict[str, Type]]) -> Type:
        it = self.expr(g.iter, scopes)
        elem = self.elem_type(it, g.iter.pos, "loop over")
        inner = scopes + [{}]
        self.new_local(g.var, g.var_pos, elem, inner)
        if g.cond is not None:
            self.expect_bool(g.cond, inner, "a `where` condition")
        if g.elt is None:
            return elem
        return self.expr(g.elt, inner)

    def note_call(self, callee: str, pos: Pos) -> None:
        if self.context == "prior":
            self.prior_calls.append((callee, pos, self.prior_what))
        if self.current and self.current[0] in ("procedure", "table"):
            self.calls.setdefault(self.current[1], []).append((callee, pos))
        ctx = self.context
        if self.current and self.current[0] in ("table", "phase"):
            ctx = "query"
        if self.current and self.current[0] in ("procedure",):
            ctx = "inner"  # judged through the call graph
        self.call_sites.append((ctx, callee, pos))

    def call(self, e: A.Call, scopes: list[dict[str, Type]]) -> Type:
        if not isinstance(e.func, A.Name):
            self.err(e.pos, "only named procedures, tables and functions can be called")
            return ANY
        name = e.func.name
        if not self.check_name_ok(name, e.func.pos, "function"):
            for a in e.args:
                self.expr(a, scopes)
            return ANY
        if self.lookup_local(scopes, name) is not None:
            self.err(e.pos, f"`{name}` is a variable, not a procedure")
            return ANY
        k = self.value_kind(name)
        if name == "base" and k is None:
            return self.base_call(e, scopes)
        if k == "builtin":
            self.info.calls[id(e)] = "builtin"
            return self.builtin(e, name, scopes)
        if e.gen is not None:
            self.err(e.pos, f"`{name}(... for ...)` only works with sum, count, any, all, min, max, first, find and sorted")
            self.generator(e.gen, scopes)
            return ANY
        if k == "primitive":
            spec = self.reg.primitives[name]
            if spec.changes:
                self.note_change(e.pos)
                if self.context == "prior":
                    self.prior_calls.append((name, e.pos, self.prior_what))
            params = [(n, self.reg.type_of(t)) for n, t in spec.params]
            ret = self.reg.type_of(spec.returns)
        elif k == "procedure":
            pr = self.p.procedures[name]
            params = [(p.name, self.resolve_type_quiet(p.type)) for p in pr.params]
            ret = self.resolve_type_quiet(pr.ret) if pr.ret is not None else NONE
            self.note_call(name, e.pos)
        elif k == "sequence":
            sq = self.p.sequences[name]
            params = [(p.name, self.resolve_type_quiet(p.type)) for p in sq.params]
            ret = NONE
            self.note_call(name, e.pos)
        elif k == "table":
            tb = self.p.tables[name]
            params = [(p.name, self.resolve_type_quiet(p.type)) for p in tb.params]
            ret = self.resolve_type_quiet(tb.ret)
            self.note_call(name, e.pos)
        elif k is None:
            cands = [n for (s, n), d in self.defs.items() if s == "value" and d.kind in ("procedure", "table")]
            cands += list(self.reg.primitives) + list(BUILTINS)
            hint = did_you_mean(name, cands)
            if name in ("open", "eval", "exec", "print", "input", "getattr", "setattr", "compile", "globals"):
                hint = "rules files cannot reach Python; the engine offers its primitives instead"
            self.err(e.func.pos, f"unknown procedure `{name}`", hint)
            for a in e.args:
                self.expr(a, scopes)
            return ANY
        else:
            self.err(e.func.pos, f"`{name}` is a{'n' if k[0] in 'aeiou' else ''} {k}, not something you can call")
            return ANY
        self.info.calls[id(e)] = k
        self.check_args(e, name, params, scopes)
        return ret

    def choose(self, e: A.Call, scopes: list[dict[str, Type]]) -> Type:
        """`choose(player, prompt, options[, labels[, refused]])`: asks `player` to pick one
        of `options` (at once, without asking, when there is only one) and returns it.
        `refused` maps answers that are not options to the reason they are refused."""
        self.note_call("choose", e.pos)
        types = [self.expr(a, scopes) for a in e.args]
        if len(types) not in (3, 4, 5):
            self.err(e.pos, "`choose` takes 3 to 5 arguments (player, prompt, options[, labels[, refused]]), "
                            f"but {len(types)} were given")
            return ANY
        if len(types) == 5:
            want = MapType(types[2].elem, STR) if isinstance(types[2], ListType) else None
            if want is not None and not assignable(types[4], want):
                self.err(e.args[4].pos, f"the refusals of `choose` must be a `{want}` (an answer not offered, and why), "
                                        f"got `{types[4]}`")
        if not assignable(types[0], STR):
            self.err(e.args[0].pos, f"the player who chooses must be a `str`, got `{types[0]}`")
        if not assignable(types[1], STR):
            self.err(e.args[1].pos, f"the prompt of `choose` must be a `str`, got `{types[1]}`")
        if len(types) == 4 and not assignable(types[3], ListType(STR)):
            self.err(e.args[3].pos, f"the labels of `choose` must be a `list[str]`, got `{types[3]}`")
        t = types[2]
        if isinstance(t, ListType):
            return t.elem
        if t != ANY:
            self.err(e.args[2].pos, f"the options of `choose` must be a list, got `{t}`")
        return ANY

    def base_call(self, e: A.Call, scopes: list[dict[str, Type]]) -> Type:
        """`base(...)` in an `override procedure`: the version it replaced (a house rule that
        adds one die calls the base and adds one)."""
        decl = getattr(self, "current_decl", None) if self.current and self.current[0] == "procedure" else None
        base = self.p.base_of.get(id(decl)) if decl is not None else None
        if base is None:
            self.err(e.func.pos, "`base(...)` calls the version an `override procedure` replaces; there is none here")
            for a in e.args:
                self.expr(a, scopes)
            return ANY
        params = [(p.name, self.resolve_type_quiet(p.type)) for p in base.params]
        self.info.calls[id(e)] = "base"
        self.info.names[id(e)] = self.info.names.get(id(base), "")
        self.check_args(e, "base", params, scopes)
        return self.resolve_type_quiet(base.ret) if base.ret is not None else NONE

    def resolve_type_quiet(self, t: A.TypeExpr) -> Type:
        n = len(self.diags)
        r = self.resolve_type(t)
        del self.diags[n:]  # reported once, at the declaration
        return r

    def check_args(self, e: A.Call, name: str, params: list[tuple[str, Type]], scopes: list[dict[str, Type]]) -> None:
        types = []
        for i, a in enumerate(e.args):
            pt = params[i][1] if i < len(params) else None
            if isinstance(pt, FnType):
                types.append(self.proc_ref(a, pt, scopes))
            else:
                types.append(self.expr(a, scopes))
        if len(types) != len(params):
            plist = ", ".join(n for n, _ in params)
            n = len(params)
            self.err(e.pos, f"`{name}` takes {n} argument{'s' if n != 1 else ''} ({plist}), but {len(types)} {'was' if len(types) == 1 else 'were'} given")
            return
        for i, ((pn, pt), at, a) in enumerate(zip(params, types, e.args, strict=True), 1):
            if not assignable(at, pt):
                self.err(a.pos, f"argument {i} (`{pn}`) of `{name}` must be `{pt}`, got `{at}`")

    def proc_ref(self, a: A.Expr, want: FnType, scopes: list[dict[str, Type]]) -> Type:
        """A procedure named as an argument (`reach(h, 3, road_cost)`), or one with its first
        arguments given and the rest left open (`may_enter(p, _)`)."""
        if isinstance(a, A.Call) and isinstance(a.func, A.Name) and a.gen is None \
                and any(_is_open(x) for x in a.args):
            return self.partial_ref(a, want, scopes)
        if not isinstance(a, A.Name) or self.value_kind(a.name) != "procedure" or self.lookup_local(scopes, a.name):
            self.err(a.pos, f"expected the name of a procedure of type `{want}` here")
            return ANY
        pr = self.p.procedures[a.name]
        got = FnType(tuple(self.resolve_type_quiet(p.type) for p in pr.params),
                     self.resolve_type_quiet(pr.ret) if pr.ret is not None else NONE)
        ok = len(got.params) == len(want.params) and all(assignable(w, g) for g, w in zip(got.params, want.params, strict=True)) \
            and assignable(got.ret, want.ret)
        if not ok:
            self.err(a.pos, f"procedure `{a.name}` is `{got}`, but `{want}` is needed here")
        self.info.names[id(a)] = "procref"
        self.info.passed.add(a.name)
        self.info.types[id(a)] = want
        self.note_call(a.name, a.pos)
        return want

    def partial_ref(self, a: A.Call, want: FnType, scopes: list[dict[str, Type]]) -> Type:
        """`may_enter(p, _)` where a `fn(str) -> bool` is wanted: the procedure with its first
        arguments given here, and the ones left open (`_`, the last ones) given by the
        primitive at each call."""
        assert isinstance(a.func, A.Name)
        name = a.func.name
        if self.value_kind(name) != "procedure" or self.lookup_local(scopes, name):
            self.err(a.func.pos, f"`{name}(..., _)` leaves arguments of a procedure open, but `{name}` is no procedure")
            return ANY
        pr = self.p.procedures[name]
        given = [x for x in a.args if not _is_open(x)]
        if any(not _is_open(x) for x in a.args[len(given):]):
            self.err(a.pos, f"only the last arguments of `{name}` may be left open with `_`: give the others first")
            return ANY
        params = [(prm.name, self.resolve_type_quiet(prm.type)) for prm in pr.params]
        if len(a.args) != len(params):
            n = len(params)
            self.err(a.pos, f"`{name}` takes {n} argument{'s' if n != 1 else ''} "
                            f"({', '.join(pn for pn, _ in params)}), but {len(a.args)} were written")
            return ANY
        for i, (x, (pn, pt)) in enumerate(zip(given, params), 1):
            at = self.expr(x, scopes)
            if not assignable(at, pt):
                self.err(x.pos, f"argument {i} (`{pn}`) of `{name}` must be `{pt}`, got `{at}`")
        open_types = tuple(pt for _, pt in params[len(given):])
        ret = self.resolve_type_quiet(pr.ret) if pr.ret is not None else NONE
        got = FnType(open_types, ret)
        ok = len(open_types) == len(want.params) and all(assignable(w, g) for g, w in zip(open_types, want.params, strict=True)) \
            and assignable(ret, want.ret)
        if not ok:
            self.err(a.pos, f"`{name}` with {len(given)} argument{'s' if len(given) != 1 else ''} given is `{got}`, "
                            f"but `{want}` is needed here")
        for x, (_, pt) in zip(a.args[len(given):], params[len(given):]):
            self.info.names[id(x)] = "open"
            self.info.types[id(x)] = pt
        self.info.calls[id(a)] = "procedure"
        self.info.partials.add(id(a))
        self.info.passed.add(name)
        self.info.types[id(a)] = want
        self.note_call(name, a.pos)
        return want

    def builtin(self, e: A.Call, name: str, scopes: list[dict[str, Type]]) -> Type:
        if e.gen is not None:
            if name not in _AGGREGATES:
                self.err(e.pos, f"`{name}` does not take `for`/`where`")
            t = self.generator(e.gen, scopes)
            if name == "first":
                return t
            if name == "find":
                if e.gen.elt is not None or e.gen.cond is None:
                    self.err(e.pos, "`find` gives the place of the first item that meets a condition: "
                                    "write `find(x in xs where ...)`")
                elif not isinstance(self.info.types.get(id(e.gen.iter)), ListType) \
                        and self.info.types.get(id(e.gen.iter)) != ANY:
                    self.err(e.gen.iter.pos, "`find` gives a place in a list: the items must be a list")
                return INT
            if name == "sorted":
                # (`sorted(x in xs where c by key)`: the generator's value is the key, if any)
                if not _sortable(t):
                    where = e.gen.elt.pos if e.gen.elt is not None else e.gen.pos
                    self.err(where, f"`sorted` orders by a number, a string or a list of them; `{t}` has no order"
                             + ("" if e.gen.elt is not None else ": write `sorted(x in xs by KEY)`"))
                it = self.info.types.get(id(e.gen.iter), ANY)
                return ListType(it.elem if isinstance(it, ListType) else it.key if isinstance(it, MapType) else ANY)
            if name == "count":
                if e.gen.elt is not None:
                    self.err(e.pos, "`count` counts items: write `count(x in xs where ...)`")
                return INT
            if name in ("any", "all"):
                if e.gen.elt is None:
                    if e.gen.cond is None:
                        self.err(e.pos, f"`{name}(x in xs)` needs a `where` condition")
                    return BOOL
                if t not in (BOOL, ANY):
                    self.err(e.gen.elt.pos, f"`{name}` needs `bool` values, got `{t}`")
                return BOOL
            if e.gen.elt is None:
                self.err(e.pos, f"`{name}` needs a value to {'add' if name == 'sum' else 'compare'}: write `{name}(expr for x in xs)`")
                return ANY
            if not is_numeric(t) and not (name in ("min", "max") and t == STR):
                self.err(e.gen.elt.pos, f"`{name}` needs numbers, got `{t}`")
                return ANY
            return t
        if name == "choose":
            return self.choose(e, scopes)
        types = [self.expr(a, scopes) for a in e.args]
        n = len(types)

        def arity(*ok: int) -> bool:
            if n not in ok:
                want = " or ".join(str(o) for o in ok)
                self.err(e.pos, f"`{name}` takes {want} argument{'s' if ok != (1,) else ''}, but {n} {'was' if n == 1 else 'were'} given")
                return False
            return True

        if name == "len":
            if arity(1) and not (isinstance(types[0], (ListType, MapType)) or types[0] in (STR, ANY)):
                self.err(e.args[0].pos, f"`len` needs a list, map or string, got `{types[0]}`")
            return INT
        if name == "abs":
            if arity(1) and not is_numeric(types[0]):
                self.err(e.args[0].pos, f"`abs` needs a number, got `{types[0]}`")
                return ANY
            return types[0] if n == 1 else ANY
        if name in ("min", "max", "sum"):
            if n == 1:
                t = types[0]
                if isinstance(t, ListType) and (is_numeric(t.elem) or (name != "sum" and t.elem == STR)):
                    return t.elem
                if t != ANY:
                    self.err(e.args[0].pos, f"`{name}` needs a list of numbers, got `{t}`")
                return ANY
            if name == "sum" or n == 0:
                arity(1)
                return ANY
            res: Type = ANY
            for a, t in zip(e.args, types, strict=True):
                if not is_numeric(t):
                    self.err(a.pos, f"`{name}` needs numbers, got `{t}`")
                    return ANY
                res = unify(res, t) or ANY
            return res
        if name in ("any", "all"):
            if arity(1) and not assignable(types[0], ListType(BOOL)):
                self.err(e.args[0].pos, f"`{name}` needs a list of `bool`, got `{types[0]}`")
            return BOOL
        if name == "count":
            self.err(e.pos, "`count` counts items: write `count(x in xs where ...)`; use `len(xs)` for a size")
            return INT
        if name == "range":
            if arity(1, 2):
                for a, t in zip(e.args, types, strict=True):
                    if not assignable(t, INT):
                        self.err(a.pos, f"the bounds of `range` must be `int`, got `{t}`")
            return ListType(INT)
        if name == "sorted":
            if arity(1):
                t = types[0]
                if isinstance(t, ListType) and (is_numeric(t.elem) or t.elem == STR):
                    return t
                if t != ANY:
                    self.err(e.args[0].pos, f"`sorted` needs a list of numbers or strings, got `{t}`")
            return types[0] if n == 1 else ANY
        if name in ("str", "int", "float"):
            if arity(1) and types[0] not in (INT, FLOAT, STR, BOOL, ANY):
                self.err(e.args[0].pos, f"`{name}` converts a number, string or bool, not a `{types[0]}`",
                         "write the field you mean (`u.kind`, `u.id`); in an f-string too: `{u.kind}`"
                         if isinstance(types[0], RecordType) or types[0] == UNIT_TYPE else None)
            return {"str": STR, "int": INT, "float": FLOAT}[name]
        if name in ("keys", "values"):
            if arity(1):
                t = types[0]
                if isinstance(t, MapType):
                    return ListType(t.key if name == "keys" else t.value)
                if t != ANY:
                    self.err(e.args[0].pos, f"`{name}` needs a map, got `{t}`")
            return ListType(ANY)
        raise AssertionError(name)


def check_program(layers: list[list[A.Module]], registry: Registry, report_unread: bool = False) -> Program:
    """Check all layers (base first). The diagnostics are in ``program.diagnostics``.
    With ``report_unread``, stats and tags that no rule reads are reported as warnings."""
    return _Checker(layers, registry, report_unread).run()


_CONTAINER_KEY = "a map's keys are numbers, strings, booleans or units, not `{}` (a list or a map changes)"


def _sortable(t: Type) -> bool:
    """Can values of `t` order a list (`sorted(x in xs by KEY)`)? Numbers, strings, bools, and
    lists of them (compared item by item: `by [-u.attack, u.id]`)."""
    if isinstance(t, ListType):
        t = t.elem
    return is_numeric(t) or t in (STR, BOOL, ANY)


def _is_open(e: A.Expr) -> bool:
    """`_`: an argument left open in a procedure passed to a primitive (`may_enter(p, _)`)."""
    return isinstance(e, A.Name) and e.name == "_"
