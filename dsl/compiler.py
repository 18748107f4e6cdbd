"""Checked rules -> Python source -> code objects, once, at load.

The generated module refers only to mangled rules names (``v_`` locals, ``f_`` procedures,
``t_`` tables, ``r_`` rules, ``w_`` phase conditions, ``o_`` options, ``c_`` constants,
``p_`` primitives), the unit dict ``U`` and the helpers in :mod:`dsl.runtime`. It runs with
``__builtins__`` empty. A line map ties every generated line back to its rules position so
runtime errors can name the rules statement.
"""

from __future__ import annotations

import keyword
import linecache
import re
from dataclasses import dataclass
from types import CodeType
from typing import Any

from . import ast as A
from .checker import Program
from .errors import Pos
from .model import unit_type_class
from .registry import Registry
from .runtime import HELPERS, frozen_value
from .types import UNIT_TYPE, ListType, MapType, RecordType, Type

__all__ = ["Artifact", "compile_program", "instantiate"]

_ATTR_RE = re.compile(r"[a-z][a-z0-9_]*\Z")

#: built-ins that only look at their one argument (a game variable there needs no copy)
_PEEKING = frozenset(("len", "keys", "values", "min", "max", "sum", "sorted", "any", "all"))


@dataclass
class Artifact:
    source: str
    code: CodeType
    filename: str
    linemap: list[Pos | None]
    program: Program


class _Gen:
    def __init__(self, program: Program):
        self.p = program
        self.info = program.info
        self.reg: Registry = program.registry
        self.lines: list[str] = []
        self.linemap: list[Pos | None] = [None]  # generated lines are 1-based
        self.unit_rec = self.reg.unit_record
        #: locals of the function being generated that may hold a game variable as stored
        self.aliases: set[str] = set()

    def emit(self, indent: int, text: str, pos: Pos | None) -> None:
        for part in text.split("\n"):
            self.lines.append("    " * indent + part)
            self.linemap.append(pos)

    # ------------------------------------------------------------------ module
    def module(self) -> str:
        p = self.p
        self.emit(0, "# generated from rules files; do not edit", None)
        defaults = ", ".join(f"{n!r}: {self.expr(sd.default)}" for n, (sd, _) in p.stats.items())
        self.emit(0, f"_SD = {{{defaults}}}", None)
        for u in p.units.values():
            stats = ", ".join(f"{f.name!r}: {self.expr(f.value)}" for f in u.fields.values())
            tags = ", ".join(repr(t) for t in u.tags)
            self.emit(0, f"U[{u.name!r}] = _UT({u.name!r}, _fs([{tags}]), {{**_SD, {stats}}})", u.pos)
        for tb in p.tables.values():
            self.table(tb)
        for pr in p.procedures.values():
            params = "".join(f", v_{prm.name}" for prm in pr.params)
            self.emit(0, f"def f_{pr.name}(ctx{params}):", pr.pos)
            self.function_body(pr.body, 1)
        for compiled, pr in p.base_versions:
            params = "".join(f", v_{prm.name}" for prm in pr.params)
            self.emit(0, f"def f_{compiled}(ctx{params}):", pr.pos)
            self.function_body(pr.body, 1)
        for sq in p.sequences.values():
            self.subsequence(sq)
        for st in p.steps.values():
            self.step(st)
        for r in p.rules:
            params = "".join(f", v_{n}" for n, _ in r.params)
            self.emit(0, f"def r_{r.name}(ctx{params}, *_rest):", r.pos)
            if r.when is not None:
                self.emit(1, f"if not {self.expr(r.when)}:\n    return", r.when.pos)
            self.function_body(r.body, 1)
        for ph in p.phases:
            if ph.when is not None:
                self.emit(0, f"def w_{ph.name}(ctx, v_turn):", ph.pos)
                self.emit(1, f"return {self.expr(ph.when)}", ph.when.pos)
        names = ", ".join(self.expr(n) for n in p.turns.names) if p.turns else ""
        powers = ", ".join(self.expr(n) for n in p.powers.powers) if p.powers else ""
        self.emit(0, f"SEQ_TURN_NAMES = [{names}]", p.turns.pos if p.turns else None)
        self.emit(0, f"SEQ_POWERS = [{powers}]", p.powers.pos if p.powers else None)
        return "\n".join(self.lines) + "\n"

    # ------------------------------------------------------------------ steps and moves
    def subsequence(self, sq: A.SequenceDecl) -> None:
        params = "".join(f", v_{prm.name}" for prm in sq.params)
        args = "".join(f", v_{prm.name}" for prm in sq.params)
        self.emit(0, f"def f_{sq.name}(ctx{params}):", sq.pos)
        if sq.while_ is None:
            for name, pos in sq.steps:
                self.emit(1, f"f_{name}(ctx{args})", pos)
            if not sq.steps:
                self.emit(1, "pass", None)
            return
        self.emit(1, "for _round in _rounds():", sq.pos)
        self.emit(2, f"if not {self.expr(sq.while_)}:\n    break", sq.while_.pos)
        for name, pos in sq.steps:
            self.emit(2, f"f_{name}(ctx{args})", pos)
        # never silently: a battle still going on after MAX_ROUNDS rounds is a rules bug
        self.emit(1, f"else:\n    _endless({sq.name!r})", sq.while_.pos)

    def step(self, st: A.StepDecl) -> None:
        n = st.name
        if st.by is not None:
            self.emit(0, f"def s_{n}_by(ctx):", st.pos)
            self.emit(1, f"return {self.expr(st.by)}", st.by.pos)
        if st.while_ is not None:
            self.emit(0, f"def s_{n}_while(ctx):", st.pos)
            self.emit(1, f"return {self.expr(st.while_)}", st.while_.pos)
        for part, blk in (("start", st.start), ("end", st.end)):
            if blk is not None:
                self.emit(0, f"def s_{n}_{part}(ctx):", st.pos)
                self.function_body(blk, 1)
        if st.finish is not None:
            self.emit(0, f"def s_{n}_finish(ctx):", st.finish.pos)
            self.function_body(st.finish.body, 1)
            self.emit(0, f"def s_{n}_finish_label(ctx):", st.finish.pos)
            self.emit(1, f"return {self.expr(st.finish.label)}", st.finish.label.pos)
        for mv in st.moves:
            self.move(st, mv)

    def move(self, st: A.StepDecl, mv: A.MoveDecl) -> None:
        base = f"m_{st.name}_{mv.name}"
        guard_n = self.p.guards.get((st.name, mv.name), 0)
        guard, rest = mv.body[:guard_n], mv.body[guard_n:]
        params = "".join(f", v_{prm.name}" for prm in mv.params)
        self.aliases = self.aliasable(mv.body)
        # the options: every combination of the parameters' choices that meets the guard
        self.offers(base, mv, guard)
        # the validation of one answer: the first rule it breaks, in the rules' words
        self.emit(0, f"def {base}_check(ctx{params}):", mv.pos)
        for prm in mv.params:
            reason = self.expr(prm.reason) if prm.reason is not None else f"_notin({prm.name!r}, v_{prm.name})"
            self.emit(1, f"if v_{prm.name} not in {self.expr(prm.domain)}:\n    return {reason}", prm.pos)
        for g in guard:
            if isinstance(g, A.Require):
                self.emit(1, f"if not {self.expr(g.cond)}:\n    return {self.expr(g.reason)}", g.pos)
            else:
                self.stmt(g, 1)
        self.emit(1, "return None", None)
        # what the move does (its guard has been checked)
        self.emit(0, f"def {base}_do(ctx{params}):", mv.pos)
        for g in guard:
            if isinstance(g, A.Let):
                self.stmt(g, 1)
        self.body(rest, 1)
        self.aliases = set()
        self.emit(0, f"def {base}_label(ctx{params}):", mv.pos)
        if mv.label is not None:
            self.emit(1, f"return {self.expr(mv.label)}", mv.label.pos)
        else:
            parts = " + ' ' + ".join(f"_show(v_{prm.name})" for prm in mv.params)
            self.emit(1, f"return {mv.name.replace('_', ' ')!r}" + (f" + ' ' + {parts}" if parts else ""), mv.pos)

    def offers(self, base: str, mv: A.MoveDecl, guard: tuple[A.Stmt, ...]) -> None:
        """A move's options: a generator over every combination of its parameters' choices
        that meets its guard. Work that does not depend on every parameter is done once per
        combination of the parameters it does depend on, the first time it would have run
        (so it fails, or not, as it would have): a choice list that does not name the
        parameters before it, and the leading guard statements that name only the first
        parameters (a guard naming none runs once per listing)."""
        params = [prm.name for prm in mv.params]
        n = len(params)
        # the level of a piece of code: how many of the leading parameters it needs
        level_of: dict[str, int] = {name: i + 1 for i, name in enumerate(params)}

        def level(node: Any) -> int:
            return max((level_of.get(x.name, 0) for x in _names(node)), default=0)

        levels: list[int] = []
        for g in guard:
            lv = max([level(g.cond if isinstance(g, A.Require) else g), *levels[-1:]])
            if isinstance(g, A.Let):
                level_of[g.name] = max(lv, level_of.get(g.name, 0))
            levels.append(lv)
        # hoisted guard levels (a guard at level n runs for every combination, as it did)
        hoisted = sorted({lv for lv in levels if lv < n}) if n else []
        domains = [level(prm.domain) for prm in mv.params]
        cached = {i for i in range(1, n) if domains[i] < i}
        self.emit(0, f"def {base}_offers(ctx):", mv.pos)

        def resets(depth: int, ind: int) -> None:
            # at the top of the body that binds the first `depth` parameters
            for lv in hoisted:
                if lv == depth:
                    self.emit(ind, f"_g{lv} = None", mv.pos)
            for i in sorted(cached):
                if domains[i] == depth:
                    self.emit(ind, f"_d{i} = None", mv.params[i].pos)

        ind = 1
        resets(0, ind)
        for i, prm in enumerate(mv.params):
            if i in cached:
                self.emit(ind, f"if _d{i} is None:\n    _d{i} = {self.expr(prm.domain)}", prm.pos)
                self.emit(ind, f"for v_{prm.name} in _d{i}:", prm.pos)
            else:
                self.emit(ind, f"for v_{prm.name} in {self.iterable(prm.domain)}:", prm.pos)
            ind += 1
            resets(i + 1, ind)
        skip = "continue" if n else "return"
        for lv in hoisted:
            stmts = [g for g, gl in zip(guard, levels) if gl == lv]
            self.emit(ind, f"if _g{lv} is None:\n    _g{lv} = False", mv.pos)
            inner = ind + 1
            for g in stmts:
                if isinstance(g, A.Require):
                    self.emit(inner, f"if {self.expr(g.cond)}:", g.pos)
                    inner += 1
                else:
                    self.stmt(g, inner)
            self.emit(inner, f"_g{lv} = True", mv.pos)
            self.emit(ind, f"if not _g{lv}:\n    {'return' if lv == 0 else 'continue'}", mv.pos)
        for g, lv in zip(guard, levels):
            if lv in hoisted:
                continue
            if isinstance(g, A.Require):
                self.emit(ind, f"if not {self.expr(g.cond)}:\n    {skip}", g.pos)
            else:
                self.stmt(g, ind)
        tup = "(" + "".join(f"v_{name}, " for name in params) + ")"
        self.emit(ind, f"yield {tup}", mv.pos)

    def table(self, tb: A.TableDecl) -> None:
        entries = []
        default: A.TableEntry | None = None
        for en in tb.entries:
            if en.keys is None:
                default = en
                continue
            key = self.expr(en.keys[0]) if len(en.keys) == 1 else "(" + ", ".join(self.expr(k) for k in en.keys) + ",)"
            entries.append(f"{key}: {self.expr(en.value)}")
        self.emit(0, f"t_{tb.name}_d = {{{', '.join(entries)}}}", tb.pos)
        params = ", ".join(f"v_{prm.name}" for prm in tb.params)
        key = params if len(tb.params) == 1 else f"({params},)"
        self.emit(0, f"def t_{tb.name}({params}):", None)
        self.emit(1, f"try:\n    return t_{tb.name}_d[{key}]\nexcept KeyError:\n    pass", None)
        if default is not None:
            self.emit(1, f"return {self.expr(default.value)}", default.pos)
        else:
            self.emit(1, f"return _tmiss({tb.name!r}, ({params},))", None)

    # ------------------------------------------------------------------ statements
    def function_body(self, stmts: tuple[A.Stmt, ...], indent: int) -> None:
        """The body of one generated function."""
        self.aliases = self.aliasable(stmts)
        self.body(stmts, indent)
        self.aliases = set()

    def aliasable(self, stmts: tuple[A.Stmt, ...]) -> set[str]:
        """The locals of a function body that may hold a game variable as it is stored,
        without a copy: bound once by `let x = v` (or `if c then v else w`) and then only
        looked at (`a in x`, `x[k]`, `len(x)`, the list a `for` walks), never assigned,
        changed, returned or passed on. Stored variables are never changed in place."""
        lets: dict[str, int] = {}
        candidates: set[str] = set()
        unsafe: set[str] = set()

        def visit(node: Any, peek: bool = False) -> None:
            if isinstance(node, (list, tuple)):
                for x in node:
                    visit(x)
                return
            if not hasattr(node, "__dataclass_fields__"):
                return
            if isinstance(node, A.Name):
                if not peek and self.info.names.get(id(node), "local") == "local":
                    unsafe.add(node.name)
                return
            if isinstance(node, A.Let):
                lets[node.name] = lets.get(node.name, 0) + 1
                if self.peekable(node.value):
                    candidates.add(node.name)
                visit(node.value)
            elif isinstance(node, A.Assign):
                root = node.target
                while isinstance(root, A.Index):
                    visit(root.index)
                    root = root.obj
                if isinstance(root, A.Name):
                    unsafe.add(root.name)
                visit(node.value)
            elif isinstance(node, A.For):
                unsafe.add(node.var)
                visit(node.iter, True)
                visit(node.cond)
                visit(node.body)
            elif isinstance(node, A.Generator):
                visit(node.iter, True)
                visit(node.elt)
                visit(node.cond)
            elif isinstance(node, A.Compare) and node.op in ("in", "not in"):
                visit(node.left)
                visit(node.right, True)
            elif isinstance(node, A.Index):
                visit(node.obj, True)
                visit(node.index)
            elif isinstance(node, A.Call):
                only_read = (isinstance(node.func, A.Name) and node.func.name in _PEEKING
                             and self.info.calls.get(id(node)) == "builtin" and len(node.args) == 1)
                for a in node.args:
                    visit(a, only_read)
                visit(node.gen)
            else:
                for f in node.__dataclass_fields__:
                    visit(getattr(node, f))

        visit(stmts)
        return {n for n in candidates if lets.get(n) == 1 and n not in unsafe}

    def peekable(self, e: A.Expr) -> bool:
        if isinstance(e, A.Name):
            return self.info.names.get(id(e)) == "var" and isinstance(self.p.vars[e.name].type, (ListType, MapType))
        if isinstance(e, A.IfExpr):
            return self.peekable(e.then) and self.peekable(e.else_)
        return False

    def peek_value(self, e: A.Expr) -> str:
        if isinstance(e, A.IfExpr):
            return f"({self.peek_value(e.then)} if {self.expr(e.cond)} else {self.peek_value(e.else_)})"
        return self.peek(e)

    def body(self, stmts: tuple[A.Stmt, ...], indent: int) -> None:
        if not stmts:
            self.emit(indent, "pass", None)
        for st in stmts:
            self.stmt(st, indent)

    def stmt(self, st: A.Stmt, ind: int) -> None:
        if isinstance(st, A.Let):
            value = self.peek_value(st.value) if st.name in self.aliases else self.expr(st.value)
            self.emit(ind, f"v_{st.name} = {value}", st.pos)
        elif isinstance(st, A.Assign):
            self.assign(st, ind)
        elif isinstance(st, A.If):
            self.emit(ind, f"if {self.expr(st.cond)}:", st.pos)
            self.body(st.body, ind + 1)
            if st.orelse:
                self.emit(ind, "else:", st.pos)
                self.body(st.orelse, ind + 1)
        elif isinstance(st, A.For):
            self.emit(ind, f"for v_{st.var} in {self.iterable(st.iter)}:", st.pos)
            if st.cond is not None:
                self.emit(ind + 1, f"if not {self.expr(st.cond)}:\n    continue", st.cond.pos)
            self.body(st.body, ind + 1)
        elif isinstance(st, A.Return):
            self.emit(ind, "return" if st.value is None else f"return {self.expr(st.value)}", st.pos)
        elif isinstance(st, A.ExprStmt):
            self.emit(ind, self.expr(st.expr), st.pos)
        elif isinstance(st, A.Require):
            self.emit(ind, f"if not {self.expr(st.cond)}:\n    _refuse({self.expr(st.reason)})", st.pos)
        elif isinstance(st, A.Break):
            self.emit(ind, "break", st.pos)
        elif isinstance(st, A.Continue):
            self.emit(ind, "continue", st.pos)
        else:
            raise AssertionError(st)

    def var_root(self, t: A.Expr) -> A.Name | None:
        while isinstance(t, A.Index):
            t = t.obj
        if isinstance(t, A.Name) and self.info.names.get(id(t)) == "var":
            return t
        return None

    def assign(self, st: A.Assign, ind: int) -> None:
        root = self.var_root(st.target)
        if root is None:
            self.emit(ind, f"{self.target(st.target)} {st.op} {self.expr(st.value)}", st.pos)
            return
        var = self.p.vars[root.name]
        store = self.freeze(var.type, "_v")
        if isinstance(st.target, A.Name):
            value = self.expr(st.value)
            if st.op != "=":
                value = f"{self.var_read(root.name)} {st.op[0]} {value}"
            self.emit(ind, f"_v = {value}\nctx.vars[{root.name!r}] = {store}", st.pos)
            return
        # an element of a variable: change a copy, then store it back
        self.emit(ind, f"_v = {self.var_read(root.name)}", st.pos)
        inner = st.target
        path = []
        while isinstance(inner, A.Index):
            path.append(self.expr(inner.index))
            inner = inner.obj
        sub = "_v" + "".join(f"[{p}]" for p in reversed(path))
        self.emit(ind, f"{sub} {st.op} {self.expr(st.value)}\nctx.vars[{root.name!r}] = {store}", st.pos)

    @staticmethod
    def freeze(t: Type, code: str) -> str:
        """Variables live in the game state, which copies share: store lists as tuples."""
        if isinstance(t, ListType):
            return f"tuple({code})"
        if isinstance(t, MapType):
            return f"dict({code})"
        return code

    def var_read(self, name: str) -> str:
        t = self.p.vars[name].type
        if isinstance(t, ListType):
            return f"list(ctx.vars[{name!r}])"
        if isinstance(t, MapType):
            return f"dict(ctx.vars[{name!r}])"
        return f"ctx.vars[{name!r}]"

    def peek(self, e: A.Expr) -> str:
        """An expression only read, never kept nor changed (`x in v`, `v[k]`, `len(v)`, the
        list a `for` walks): a game variable is read as stored, without the copy that
        protects it from a local that changes it."""
        if isinstance(e, A.Name) and self.info.names.get(id(e)) == "var":
            return f"ctx.vars[{e.name!r}]"
        return self.expr(e)

    def target(self, t: A.Expr) -> str:
        if isinstance(t, A.Name):
            return f"v_{t.name}"
        assert isinstance(t, A.Index)
        return f"{self.expr(t.obj)}[{self.expr(t.index)}]"

    # ------------------------------------------------------------------ expressions
    def iterable(self, e: A.Expr) -> str:
        """An expression in a `for` position: `range` stays lazy there."""
        if isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.name == "range" \
                and self.info.calls.get(id(e)) == "builtin":
            return f"_rng({', '.join(self.expr(a) for a in e.args)})"
        return self.peek(e)

    def gen(self, g: A.Generator, elt: str | None = None) -> str:
        out = f"{elt if elt is not None else self.expr(g.elt) if g.elt is not None else 'v_' + g.var} for v_{g.var} in {self.iterable(g.iter)}"
        if g.cond is not None:
            out += f" if {self.expr(g.cond)}"
        return out

    def attr_name(self, obj: str, name: str) -> str:
        assert _ATTR_RE.match(name), name  # proven by the checker; never a dunder
        if keyword.iskeyword(name):
            return f"_ga({obj}, {name!r})"
        return f"{obj}.{name}"

    def unit_of(self, obj: A.Expr) -> str:
        """The UnitType of a unit-typed expression (a host unit record or a UnitType)."""
        t = self.info.types.get(id(obj))
        code = self.expr(obj)
        if t == UNIT_TYPE:
            return code
        return f"U[{code}.kind]"

    def expr(self, e: A.Expr) -> str:
        if isinstance(e, (A.IntLit, A.FloatLit, A.StrLit)):
            return repr(e.value)
        if isinstance(e, A.BoolLit):
            return "True" if e.value else "False"
        if isinstance(e, A.Name):
            kind = self.info.names.get(id(e), "local")
            if kind == "local":
                return f"v_{e.name}"
            if kind == "option":
                return f"o_{e.name}"
            if kind == "constant":
                return f"c_{e.name}"
            if kind == "unit":
                return f"U[{e.name!r}]"
            if kind == "var":
                return self.var_read(e.name)
            if kind == "procref":
                return f"(lambda *_a: f_{e.name}(ctx, *_a))"
            raise AssertionError(kind)
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, A.MapLit):
            return "{" + ", ".join(f"{self.expr(k)}: {self.expr(v)}" for k, v in e.entries) + "}"
        if isinstance(e, A.ListComp):
            return f"[{self.gen(e.gen)}]"
        if isinstance(e, A.Attr):
            kind = self.info.attrs[id(e)]
            if kind == "field":
                return self.attr_name(self.expr(e.obj), e.name)
            if kind == "stat":
                return self.attr_name(f"U[{self.expr(e.obj)}.kind]", e.name)
            if kind == "ustat":
                return self.attr_name(self.expr(e.obj), e.name)
            if kind == "tags":
                return f"list(U[{self.expr(e.obj)}.kind].tag_list)"
            if kind == "utags":
                return f"list({self.expr(e.obj)}.tag_list)"
            if kind == "uname":
                return f"{self.expr(e.obj)}.name"
            raise AssertionError(kind)
        if isinstance(e, A.Index):
            return f"{self.peek(e.obj)}[{self.expr(e.index)}]"
        if isinstance(e, A.Call):
            return self.call(e)
        if isinstance(e, A.UnaryOp):
            return f"({e.op} {self.expr(e.operand)})"
        if isinstance(e, A.BinOp):
            return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
        if isinstance(e, A.Compare):
            if e.op in ("is", "is not"):
                assert isinstance(e.right, A.Name)
                op = "==" if e.op == "is" else "!="
                t = self.info.types.get(id(e.left))
                if isinstance(t, RecordType):
                    return f"({self.expr(e.left)}.kind {op} {e.right.name!r})"
                return f"({self.expr(e.left)}.name {op} {e.right.name!r})"
            if e.op in ("has", "has not"):
                assert isinstance(e.right, A.Name)
                op = "in" if e.op == "has" else "not in"
                return f"({e.right.name!r} {op} {self.unit_of(e.left)}.tags)"
            if e.op in ("in", "not in"):
                return f"({self.expr(e.left)} {e.op} {self.peek(e.right)})"
            return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
        if isinstance(e, A.IfExpr):
            return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.else_)})"
        raise AssertionError(e)

    def call(self, e: A.Call) -> str:
        assert isinstance(e.func, A.Name)
        name = e.func.name
        kind = self.info.calls[id(e)]
        args = [self.expr(a) for a in e.args]
        if kind == "builtin" and name in _PEEKING and len(e.args) == 1:
            args = [self.peek(e.args[0])]
        if kind == "builtin":
            if e.gen is not None:
                g = e.gen
                if name == "count":
                    if g.cond is None:
                        return f"len({self.peek(g.iter)})"
                    return f"len([{self.gen(g, elt='1')}])"
                if name in ("any", "all"):
                    if g.elt is None:
                        assert g.cond is not None
                        return f"{name}({self.expr(g.cond)} for v_{g.var} in {self.iterable(g.iter)})"
                    return f"{name}({self.gen(g)})"
                return f"{name}([{self.gen(g)}])"
            if name == "range":
                return f"_rngl({', '.join(args)})"
            if name == "keys":
                return f"list({args[0]}.keys())"
            if name == "values":
                return f"list({args[0]}.values())"
            if name == "choose":
                if len(args) >= 4:
                    # the labels are made only when a player is asked (not when one option is
                    # taken without asking, nor when a recorded answer is replayed)
                    args[3] = f"lambda: {args[3]}"
                if len(args) >= 5:
                    # and the reasons for refused answers only when an answer is refused
                    args[4] = f"lambda: {args[4]}"
                return f"ctx.choose({', '.join(args)})"
            if name in ("min", "max", "sum", "sorted", "len", "abs", "str", "int", "float", "any", "all"):
                return f"{name}({', '.join(args)})"
            raise AssertionError(name)
        if kind == "primitive":
            spec = self.reg.primitives[name]
            if spec.context:
                args.insert(0, "ctx")
            return f"p_{name}({', '.join(args)})"
        if kind in ("procedure", "sequence"):
            return f"f_{name}({', '.join(['ctx'] + args)})"
        if kind == "base":
            return f"f_{self.info.names[id(e)]}({', '.join(['ctx'] + args)})"
        if kind == "table":
            return f"t_{name}({', '.join(args)})"
        raise AssertionError(kind)


def _names(node: Any) -> Any:
    """Every name read below a syntax node."""
    if isinstance(node, (list, tuple)):
        for x in node:
            yield from _names(x)
    elif hasattr(node, "__dataclass_fields__"):
        if isinstance(node, A.Name):
            yield node
        for f in node.__dataclass_fields__:
            yield from _names(getattr(node, f))


def compile_program(program: Program, fingerprint: str) -> Artifact:
    """Generate and compile the Python module for a checked program (no diagnostics left)."""
    g = _Gen(program)
    source = g.module()
    filename = f"<rules {fingerprint[:12]}>"
    code = compile(source, filename, "exec", dont_inherit=True, optimize=2)
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    return Artifact(source, code, filename, g.linemap, program)


def instantiate(artifact: Artifact, option_values: dict[str, Any]) -> dict[str, Any]:
    """Run the compiled module with the given option values; returns its namespace."""
    p = artifact.program
    reg = p.registry
    ns: dict[str, Any] = {"__builtins__": {}}
    ns.update(HELPERS)
    ns["U"] = {}
    ns["_UT"] = unit_type_class(list(p.stats))
    for name, spec in reg.primitives.items():
        ns[f"p_{name}"] = spec.fn
    for name, c in reg.constants.items():
        ns[f"c_{name}"] = c.value
    for name, value in option_values.items():
        ns[f"o_{name}"] = frozen_value(value)
    exec(artifact.code, ns)
    return ns
