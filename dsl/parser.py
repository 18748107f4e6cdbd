"""Source text -> syntax tree.

The LALR parser is built once per process (and cached on disk by lark); a Transformer
turns lark's parse tree into :mod:`dsl.ast` nodes that keep their positions. Lark's
exceptions are turned into :class:`~dsl.errors.Diagnostic` s that say, in words, what was
expected.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import sys
from pathlib import Path
from typing import Any

import lark
from lark import Token, Transformer, v_args
from lark.lexer import PatternStr

from . import ast as A
from . import parse_cache
from .errors import Diagnostic, Pos, RulesError
from .files import unix_newlines
from .runtime import INT_MAX

__all__ = ["parse", "parse_module"]

_GRAMMAR = Path(__file__).with_name("grammar.lark")

_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a whole number",
    "FLOAT": "a decimal number",
    "STRING": "a string",
    "FSTRING": "a string",
    "ADD_OP": "an operator",
    "MUL_OP": "an operator",
    "PLACE": "`before` or `after`",
    "$END": "end of file",
}


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
        start=["start", "expr"],     # (an expression alone: a value written into an f"..." string)
    )


class _SyntaxProblem(Exception):
    def __init__(self, pos: Pos, message: str, hint: str | None = None):
        super().__init__(message)
        self.diag = Diagnostic(pos, message, hint)


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        term = _parser().get_terminal(name)
    except KeyError:
        return name.lower()
    if isinstance(term.pattern, PatternStr):
        return f"`{term.pattern.value}`"
    return name.lower()


_EXPR_START = {"a whole number", "a decimal number", "a string", "a name", "`(`", "`[`", "`{`",
               "`-`", "`not`", "`if`", "`true`", "`false`"}
_STMT_START = {"`let`", "`for`", "`if`", "`return`", "`require`", "`break`", "`continue`", "a name"}


def _expected_words(expected: set[str]) -> str:
    found = {_describe_terminal(t) for t in expected}
    if {"a whole number", "a string", "`(`"} <= found:
        if _STMT_START <= found:
            found = (found - _EXPR_START - _STMT_START) | {"a statement"}
        else:
            found = (found - _EXPR_START) | {"an expression"}
    # keywords and punctuation first, then the general classes
    words = sorted(found, key=lambda w: (not w.startswith("`"), w))
    if len(words) > 14:
        words = words[:14] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _token_words(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    if tok.type == "NAME":
        return f"name `{tok.value}`"
    if tok.type in ("INT", "FLOAT"):
        return f"number `{tok.value}`"
    if tok.type == "STRING":
        return f"string {tok.value}"
    return f"`{tok.value}`"


class _ToAst(Transformer):
    """Lark tree -> dsl.ast. Tokens are kept for positions until the last moment."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    # --- helpers
    def p(self, x: Any) -> Pos:
        if isinstance(x, Token):
            return Pos(self.file, x.line or 0, x.column or 0)
        if hasattr(x, "pos"):
            return x.pos  # type: ignore[no-any-return]
        return Pos(self.file, getattr(x, "line", 0) or 0, getattr(x, "column", 0) or 0)

    def _names(self, toks: list[Any]) -> tuple[tuple[str, Pos], ...]:
        return tuple((str(t), self.p(t)) for t in toks if t is not None)

    # --- module
    @v_args(meta=True)
    def start(self, meta: Any, items: list[Any]) -> A.Module:
        ext = items[0] if items and isinstance(items[0], A.Extends) else None
        decls = tuple(i for i in items if not isinstance(i, A.Extends))
        for d in decls:
            if isinstance(d, A.Extends):
                raise _SyntaxProblem(d.pos, "`extends` must be the first line of a file")
        return A.Module(Pos(self.file, 1, 1), self.file, ext, decls)

    def extends_decl(self, items: list[Any]) -> A.Extends:
        return A.Extends(self.p(items[0]), "".join(str(t) for t in items))

    def _decl_pos(self, ovr: Token | None, name: Token, meta: Any) -> Pos:
        return Pos(self.file, meta.line, meta.column) if not meta.empty else self.p(name)

    @v_args(meta=True)
    def stat_decl(self, meta: Any, items: list[Any]) -> A.StatDecl:
        ovr, name, typ, default, doc = items
        return A.StatDecl(self._decl_pos(ovr, name, meta), str(name), typ, default, doc or "", ovr is not None)

    @v_args(meta=True)
    def tag_decl(self, meta: Any, items: list[Any]) -> A.TagDecl:
        return A.TagDecl(Pos(self.file, meta.line, meta.column), self._names(items))

    @v_args(meta=True)
    def unit_decl(self, meta: Any, items: list[Any]) -> A.UnitDecl:
        ovr, name, tags, *fields = items
        return A.UnitDecl(self._decl_pos(ovr, name, meta), str(name), tags, tuple(fields), ovr is not None)

    def tag_list(self, items: list[Any]) -> tuple[tuple[str, Pos], ...]:
        return self._names(items)

    def unit_field(self, items: list[Any]) -> A.UnitField:
        return A.UnitField(self.p(items[0]), str(items[0]), items[1])

    @v_args(meta=True)
    def option_decl(self, meta: Any, items: list[Any]) -> A.OptionDecl:
        name, typ, bounds, value, doc, status, source = items
        return A.OptionDecl(Pos(self.file, meta.line, meta.column), str(name), typ, value, doc or "", False, bounds,
                            status or "", source or "")

    def option_range(self, items: list[Any]) -> tuple[A.Expr, A.Expr]:
        return items[0], items[2]

    @v_args(meta=True)
    def option_override(self, meta: Any, items: list[Any]) -> A.OptionDecl:
        _ovr, name, value, doc, status, source = items
        return A.OptionDecl(Pos(self.file, meta.line, meta.column), str(name), None, value, doc or "", True,
                            None, status or "", source or "")

    def option_status(self, items: list[Any]) -> str:
        return str(items[0])

    def option_source(self, items: list[Any]) -> str:
        return self._string(items[0])

    def doc(self, items: list[Any]) -> str:
        return self._string(items[0])

    @v_args(meta=True)
    def table_decl(self, meta: Any, items: list[Any]) -> A.TableDecl:
        ovr, name, params, ret, *entries = items
        entries = [e for e in entries if e is not None]
        return A.TableDecl(self._decl_pos(ovr, name, meta), str(name), params or (), ret, tuple(entries), ovr is not None)

    def table_entry(self, items: list[Any]) -> A.TableEntry:
        key, value = items
        if key is None:
            return A.TableEntry(value.pos, None, value)
        keys, pos = key
        return A.TableEntry(pos, keys, value)

    def key_single(self, items: list[Any]) -> tuple[tuple[A.Expr, ...], Pos]:
        return (items[0],), items[0].pos

    @v_args(meta=True)
    def key_tuple(self, meta: Any, items: list[Any]) -> tuple[tuple[A.Expr, ...], Pos]:
        return tuple(items), Pos(self.file, meta.line, meta.column)

    def key_default(self, items: list[Any]) -> None:
        return None

    @v_args(meta=True)
    def turns_decl(self, meta: Any, items: list[Any]) -> A.TurnsDecl:
        ovr, count, *names, called = items
        n = None if count.type == "UNLIMITED" else self._int(count)
        return A.TurnsDecl(Pos(self.file, meta.line, meta.column), n, tuple(x for x in names if x is not None), ovr is not None,
                           self._string(called) if called is not None else "Turn")

    @v_args(meta=True)
    def powers_decl(self, meta: Any, items: list[Any]) -> A.PowersDecl:
        ovr, *powers = items
        return A.PowersDecl(Pos(self.file, meta.line, meta.column), "shared", tuple(x for x in powers if x is not None), ovr is not None)

    @v_args(meta=True)
    def turn_order_decl(self, meta: Any, items: list[Any]) -> A.PowersDecl:
        ovr, *powers = items
        return A.PowersDecl(Pos(self.file, meta.line, meta.column), "order", tuple(x for x in powers if x is not None), ovr is not None)

    @v_args(meta=True)
    def teams_decl(self, meta: Any, items: list[Any]) -> A.TeamsDecl:
        ovr, *teams, together, when = items
        return A.TeamsDecl(Pos(self.file, meta.line, meta.column), tuple(teams), together or (), when, ovr is not None)

    def team(self, items: list[Any]) -> tuple[A.Expr, ...]:
        return tuple(items)

    def teams_together(self, items: list[Any]) -> tuple[tuple[str, Pos], ...]:
        return self._names(items)

    @v_args(meta=True)
    def phase_decl(self, meta: Any, items: list[Any]) -> A.PhaseDecl:
        ovr, name, place, when, steps = items
        return A.PhaseDecl(self._decl_pos(ovr, name, meta), str(name), place, when, steps or (), ovr is not None)

    def phase_place(self, items: list[Any]) -> tuple[str, str, Pos]:
        return str(items[0]), str(items[1]), self.p(items[1])

    def steps(self, items: list[Any]) -> tuple[tuple[str, Pos], ...]:
        return self._names(items)

    @v_args(meta=True)
    def procedure_decl(self, meta: Any, items: list[Any]) -> A.ProcedureDecl:
        ovr, hook, name, params, ret, body = items
        return A.ProcedureDecl(self._decl_pos(ovr, name, meta), str(name), params or (), ret, body, ovr is not None,
                               hook is not None)

    @v_args(meta=True)
    def rule_decl(self, meta: Any, items: list[Any]) -> A.RuleDecl:
        ovr, name, event, *rest = items
        body = rest[-1]
        when = rest[-2]
        params = self._names(rest[:-2])
        return A.RuleDecl(self._decl_pos(ovr, name, meta), str(name), str(event), self.p(event), params, when, body, ovr is not None)

    @v_args(meta=True)
    def var_decl(self, meta: Any, items: list[Any]) -> A.VarDecl:
        ovr, name, typ, value, reset, doc = items
        return A.VarDecl(self._decl_pos(ovr, name, meta), str(name), typ, value, reset, doc or "", ovr is not None)

    def var_reset(self, items: list[Any]) -> tuple[str, Pos]:
        return str(items[0]), self.p(items[0])

    @v_args(meta=True)
    def step_decl(self, meta: Any, items: list[Any]) -> A.StepDecl:
        ovr, name, by, while_, *parts = items
        pos = self._decl_pos(ovr, name, meta)
        start = end = None
        moves: list[A.MoveDecl] = []
        finish = None
        for kind, part in parts:
            if kind == "start":
                if start is not None:
                    raise _SyntaxProblem(part[1], f"step `{name}` has two `start` blocks")
                start = part[0]
            elif kind == "end":
                if end is not None:
                    raise _SyntaxProblem(part[1], f"step `{name}` has two `end` blocks")
                end = part[0]
            elif kind == "finish":
                if finish is not None:
                    raise _SyntaxProblem(part.pos, f"step `{name}` has two `finish` declarations")
                finish = part
            else:
                moves.append(part)
        return A.StepDecl(pos, str(name), by, while_, start, end, tuple(moves), finish, ovr is not None)

    def step_by(self, items: list[Any]) -> A.Expr:
        return items[0]  # type: ignore[no-any-return]

    step_while = step_by
    move_label = step_by
    move_prior = step_by
    let_prior = step_by
    move_else = step_by
    repeat_while = step_by

    @v_args(meta=True)
    def start_block(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "start", (items[0], Pos(self.file, meta.line, meta.column))

    @v_args(meta=True)
    def end_block(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "end", (items[0], Pos(self.file, meta.line, meta.column))

    @v_args(meta=True)
    def move_decl(self, meta: Any, items: list[Any]) -> tuple[str, A.MoveDecl]:
        name, *rest = items
        body, prior, label = rest[-1], rest[-2], rest[-3]
        params = tuple(p for p in rest[:-3] if p is not None)
        return "move", A.MoveDecl(Pos(self.file, meta.line, meta.column), str(name), params, label, body, prior)

    def move_param(self, items: list[Any]) -> A.MoveParam:
        name, typ, domain, reason = items
        return A.MoveParam(self.p(name), str(name), typ, domain, reason)

    @v_args(meta=True)
    def finish_decl(self, meta: Any, items: list[Any]) -> tuple[str, A.FinishDecl]:
        label, body = items
        return "finish", A.FinishDecl(Pos(self.file, meta.line, meta.column), label, body or ())

    @v_args(meta=True)
    def sequence_decl(self, meta: Any, items: list[Any]) -> A.SequenceDecl:
        ovr, name, params, while_, steps = items
        return A.SequenceDecl(self._decl_pos(ovr, name, meta), str(name), params or (), while_, steps or (),
                              ovr is not None)

    def require_stmt(self, items: list[Any]) -> A.Require:
        return A.Require(self.p(items[0]), items[1], items[2])

    def break_stmt(self, items: list[Any]) -> A.Break:
        return A.Break(self.p(items[0]))

    def continue_stmt(self, items: list[Any]) -> A.Continue:
        return A.Continue(self.p(items[0]))

    def params(self, items: list[Any]) -> tuple[A.Param, ...]:
        return tuple(items)

    def param(self, items: list[Any]) -> A.Param:
        return A.Param(self.p(items[0]), str(items[0]), items[1])

    def type(self, items: list[Any]) -> A.TypeExpr:
        name, *args = items
        return A.TypeExpr(self.p(name), str(name), tuple(a for a in args if a is not None))

    # --- statements
    def block(self, items: list[Any]) -> tuple[A.Stmt, ...]:
        return tuple(items)

    @v_args(meta=True)
    def let_stmt(self, meta: Any, items: list[Any]) -> A.Let:
        name, typ, value, prior = items
        return A.Let(Pos(self.file, meta.line, meta.column), str(name), typ, value, prior)

    def assign_stmt(self, items: list[Any]) -> A.Assign:
        target, op, value = items
        return A.Assign(target.pos, target, op, value)

    def assign_op(self, items: list[Any]) -> str:
        return str(items[0])

    @v_args(meta=True)
    def if_stmt(self, meta: Any, items: list[Any]) -> A.If:
        cond, body, orelse = items
        if orelse is None:
            orelse = ()
        elif isinstance(orelse, A.If):
            orelse = (orelse,)
        return A.If(Pos(self.file, meta.line, meta.column), cond, body, orelse)

    @v_args(meta=True)
    def for_stmt(self, meta: Any, items: list[Any]) -> A.For:
        var, it, cond, body = items
        return A.For(Pos(self.file, meta.line, meta.column), str(var), self.p(var), it, cond, body)

    def return_stmt(self, items: list[Any]) -> A.Return:
        return A.Return(self.p(items[0]), items[1])

    def expr_stmt(self, items: list[Any]) -> A.ExprStmt:
        return A.ExprStmt(items[0].pos, items[0])

    # --- expressions
    @v_args(meta=True)
    def if_expr(self, meta: Any, items: list[Any]) -> A.IfExpr:
        return A.IfExpr(Pos(self.file, meta.line, meta.column), *items)

    def _binop(self, items: list[Any]) -> A.BinOp:
        left, op, right = items
        return A.BinOp(self.p(op), str(op), left, right)

    or_expr = and_expr = sum = product = _binop

    def unary(self, items: list[Any]) -> A.UnaryOp:
        op, operand = items
        return A.UnaryOp(self.p(op), str(op), operand)

    def comparison(self, items: list[Any]) -> A.Compare:
        left, (op, pos), right = items
        return A.Compare(pos, op, left, right)

    def comp_op(self, items: list[Any]) -> tuple[str, Pos]:
        return " ".join(str(t) for t in items), self.p(items[0])

    def call(self, items: list[Any]) -> A.Call:
        func, args = items
        pos = func.pos
        if args is None:
            return A.Call(pos, func, ())
        kind, payload = args
        if kind == "plain":
            if (
                isinstance(func, A.Name)
                and func.name in ("count", "any", "all", "first")
                and len(payload) == 1
                and isinstance(payload[0], A.Compare)
                and payload[0].op == "in"
                and isinstance(payload[0].left, A.Name)
            ):
                c = payload[0]
                assert isinstance(c.left, A.Name)
                gen = A.Generator(c.pos, None, c.left.name, c.left.pos, c.right, None)
                return A.Call(pos, func, (), gen)
            return A.Call(pos, func, tuple(payload))
        if kind == "where":
            binding, cond = payload
            if not (isinstance(binding, A.Compare) and binding.op == "in" and isinstance(binding.left, A.Name)):
                raise _SyntaxProblem(
                    binding.pos,
                    "`where` needs a binding on its left, like `x in collection where ...`",
                    "write `count(u in units where u.hits > 0)` or `sum(u.attack for u in units where ...)`",
                )
            gen = A.Generator(binding.pos, None, binding.left.name, binding.left.pos, binding.right, cond)
            return A.Call(pos, func, (), gen)
        if kind == "by":
            # `sorted(u in us [where c] by key)`: the generator's value is the key the items sort by
            binding, cond, key = payload
            if not (isinstance(func, A.Name) and func.name == "sorted"):
                raise _SyntaxProblem(key.pos, "only `sorted` takes `by`", "write `sorted(u in units by u.attack)`")
            if not (isinstance(binding, A.Compare) and binding.op == "in" and isinstance(binding.left, A.Name)):
                raise _SyntaxProblem(binding.pos, "`by` needs a binding on its left, like `u in units by u.attack`",
                                     "write `sorted(u in units by u.attack)` or `sorted(u in units where ... by ...)`")
            gen = A.Generator(binding.pos, key, binding.left.name, binding.left.pos, binding.right, cond)
            return A.Call(pos, func, (), gen)
        if isinstance(func, A.Name) and func.name == "sorted":
            # `sorted(e for x in xs)` sorts the values: the list of them, sorted
            assert isinstance(payload, A.Generator)
            return A.Call(pos, func, (A.ListComp(payload.pos, payload),))
        return A.Call(pos, func, (), payload)

    def plain_args(self, items: list[Any]) -> tuple[str, list[Any]]:
        return "plain", items

    def gen_args(self, items: list[Any]) -> tuple[str, A.Generator]:
        elt, var, it, cond = items
        return "gen", A.Generator(elt.pos, elt, str(var), self.p(var), it, cond)

    def where_args(self, items: list[Any]) -> tuple[str, tuple[Any, Any]]:
        return "where", (items[0], items[1])

    def by_args(self, items: list[Any]) -> tuple[str, tuple[Any, Any, Any]]:
        return "by", (items[0], items[1], items[2])

    def index(self, items: list[Any]) -> A.Index:
        return A.Index(items[0].pos, items[0], items[1])

    def attr(self, items: list[Any]) -> A.Attr:
        return A.Attr(self.p(items[1]), items[0], str(items[1]))

    def _int(self, tok: Token) -> int:
        """A whole number as written; one beyond the integers of the rules is refused without
        being converted (a 5,000-digit number would be slow to, and Python refuses 4,301)."""
        text = str(tok)
        digits = text.lstrip("0") or "0"
        if len(digits) > len(str(INT_MAX)) or int(digits) > INT_MAX:
            shown = text if len(text) <= 30 else f"{text[:12]}...{text[-6:]} ({len(text):,} digits)"
            raise _SyntaxProblem(self.p(tok), f"the number {shown} is too big: integers in rules lie within "
                                              f"±{INT_MAX:,} (2^63 - 1)")
        return int(digits)

    def int_lit(self, items: list[Any]) -> A.IntLit:
        return A.IntLit(self.p(items[0]), self._int(items[0]))

    def float_lit(self, items: list[Any]) -> A.FloatLit:
        text = str(items[0])
        value = float(text)
        if not math.isfinite(value):        # (Python reads a number past the float range as inf)
            shown = text if len(text) <= 30 else f"{text[:12]}...{text[-6:]} ({len(text):,} characters)"
            raise _SyntaxProblem(self.p(items[0]), f"the number {shown} is too big: numbers with a point in rules "
                                                   f"lie within ±{sys.float_info.max:.3g}")
        return A.FloatLit(self.p(items[0]), value)

    def _string(self, tok: Token) -> str:
        try:
            value = json.loads(str(tok))
        except ValueError:
            raise _SyntaxProblem(self.p(tok), "bad escape in string", 'use \\" \\\\ \\n or \\t') from None
        return str(value)

    def str_lit(self, items: list[Any]) -> A.StrLit:
        return A.StrLit(self.p(items[0]), self._string(items[0]))

    def fstr_lit(self, items: list[Any]) -> A.Expr:
        """`f"{n} units in {space_name(s)}"`: the text and the values joined with `+`, each
        value through `str(...)` (so the checker and the compiler see what they know: a
        string built with `+`, paid for and bounded as any other)."""
        tok = items[0]
        pos = self.p(tok)
        body = str(tok)[2:-1]
        parts: list[A.Expr] = []
        text, i = "", 0
        while i < len(body):
            ch = body[i]
            if ch == "\\":
                text += body[i:i + 2]
                i += 2
            elif body.startswith("{{", i) or body.startswith("}}", i):
                text += ch
                i += 2
            elif ch == "}":
                raise _SyntaxProblem(Pos(self.file, pos.line, pos.col + 2 + i), "a `}` with no `{` before it in an "
                                     "f-string", "write `}}` for the character itself")
            elif ch == "{":
                end = _closing_brace(body, i)
                if end is None:
                    raise _SyntaxProblem(Pos(self.file, pos.line, pos.col + 2 + i), "a `{` with no `}` after it in "
                                         "an f-string", "write `{{` for the character itself")
                if text:
                    parts.append(A.StrLit(pos, self._string(Token("STRING", f'"{text}"', line=pos.line,
                                                                   column=pos.col))))
                    text = ""
                value = self._embedded(body[i + 1:end], pos.line, pos.col + 2 + i + 1)
                parts.append(A.Call(value.pos, A.Name(value.pos, "str"), (value,)))
                i = end + 1
            else:
                text += ch
                i += 1
        if text or not parts:
            parts.append(A.StrLit(pos, self._string(Token("STRING", f'"{text}"', line=pos.line, column=pos.col))))
        out = parts[0]
        if not isinstance(out, A.StrLit):
            out = A.BinOp(pos, "+", A.StrLit(pos, ""), out)     # (the sum is a `str` from its first part)
        for part in parts[1:]:
            out = A.BinOp(pos, "+", out, part)
        return out

    def _embedded(self, code: str, line: int, col: int) -> A.Expr:
        """An expression written inside an f-string at (line, col), parsed with its place in
        the file (the text before it is blank space)."""
        where = Pos(self.file, line, col)
        if not code.strip():
            raise _SyntaxProblem(where, "an empty `{}` in an f-string", "write a value inside: `{u.kind}`")
        try:
            tree = _parser().parse("\n" * (line - 1) + " " * (col - 1) + code, start="expr")
        except lark.UnexpectedInput as exc:
            d = _diagnostic_for(exc, self.file, "\n" * (line - 1) + " " * (col - 1) + code)
            problem = _SyntaxProblem(d.pos, d.message + " (in an f-string's `{...}`)", d.hint)
            raise problem from None
        value = _ToAst(self.file).transform(tree)
        assert isinstance(value, A.Expr)
        return value

    def true_lit(self, items: list[Any]) -> A.BoolLit:
        return A.BoolLit(self.p(items[0]), True)

    def false_lit(self, items: list[Any]) -> A.BoolLit:
        return A.BoolLit(self.p(items[0]), False)

    def name(self, items: list[Any]) -> A.Name:
        return A.Name(self.p(items[0]), str(items[0]))

    @v_args(meta=True)
    def list_lit(self, meta: Any, items: list[Any]) -> A.ListLit:
        return A.ListLit(Pos(self.file, meta.line, meta.column), tuple(i for i in items if i is not None))

    @v_args(meta=True)
    def list_comp(self, meta: Any, items: list[Any]) -> A.ListComp:
        elt, var, it, cond = items
        pos = Pos(self.file, meta.line, meta.column)
        return A.ListComp(pos, A.Generator(elt.pos, elt, str(var), self.p(var), it, cond))

    @v_args(meta=True)
    def map_lit(self, meta: Any, items: list[Any]) -> A.MapLit:
        return A.MapLit(Pos(self.file, meta.line, meta.column), tuple(i for i in items if i is not None))

    def map_entry(self, items: list[Any]) -> tuple[A.Expr, A.Expr]:
        return items[0], items[1]


def parse_module(text: str, file: str = "<rules>") -> A.Module:
    """Parse one rules file. Raises :class:`RulesError` with one diagnostic on a syntax error.

    A file is parsed once in a process: the same name and text give the same tree again (its
    nodes are frozen). A ruleset loaded with other options, a layer over it, `rules diff` and
    a new game in the window read the same files again, and parsing is most of loading. The
    tree is kept on disk for the next run too (dsl.parse_cache). Lines may end in `\\r\\n` or
    `\\r` as well as `\\n`."""
    return _parsed(unix_newlines(text), file)


@functools.lru_cache(maxsize=256)
def _parsed(text: str, file: str) -> A.Module:
    module = parse_cache.load(file, text)
    if module is None:
        module = _parse(text, file)
        parse_cache.store(file, text, module)
    return module


def _parse(text: str, file: str) -> A.Module:
    try:
        tree = _parser().parse(text, start="start")
    except lark.UnexpectedInput as exc:
        raise RulesError([_diagnostic_for(exc, file, text)], {file: text}) from None
    try:
        module = _ToAst(file).transform(tree)
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, _SyntaxProblem):
            raise RulesError([exc.orig_exc.diag], {file: text}) from None
        if isinstance(exc.orig_exc, RecursionError):
            raise RulesError([too_deep(Pos(file, 1, 1))], {file: text}) from None
        raise
    except RecursionError:
        raise RulesError([too_deep(Pos(file, 1, 1))], {file: text}) from None
    assert isinstance(module, A.Module)
    if any(isinstance(d, A.ProcedureDecl) and d.hook for d in module.decls):
        lines = text.splitlines()
        decls = tuple(dataclasses.replace(d, doc=doc_comment(lines, d.pos.line))
                      if isinstance(d, A.ProcedureDecl) and d.hook else d for d in module.decls)
        module = dataclasses.replace(module, decls=decls)
    return dataclasses.replace(module, texts=_decl_texts(tree, text, len(module.decls)))


def doc_comment(lines: list[str], line: int) -> str:
    """The doc of the declaration on `line` (1-based): the `#` lines right above it, joined
    (a section's rule, `# -- combat ---`, is not part of it)."""
    out: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith("#") and not lines[i].lstrip().startswith("# --"):
        out.append(lines[i].lstrip()[1:].strip())
        i -= 1
    return " ".join(reversed(out)).strip()


def _decl_texts(tree: lark.Tree, text: str, n: int) -> tuple[str, ...]:
    """The source text of each top-level declaration (what `wargame rules diff` shows)."""
    spans = [c.meta for c in tree.children
             if isinstance(c, lark.Tree) and c.data != "extends_decl" and not c.meta.empty]
    if len(spans) != n:         # not one span per declaration: keep no texts rather than wrong ones
        return ()
    return tuple(text[m.start_pos:m.end_pos] for m in spans)


parse = parse_module


def too_deep(pos: Pos) -> Diagnostic:
    return Diagnostic(pos, "the rules nest too deeply (expressions, parentheses or blocks within each other)",
                      "split a long expression with `let`, or a deep block into procedures")


def _closing_brace(body: str, at: int) -> int | None:
    """Where the `}` that closes the `{` at `at` is (a map literal inside may nest)."""
    depth = 0
    for j in range(at, len(body)):
        if body[j] == "{":
            depth += 1
        elif body[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return None


def _diagnostic_for(exc: lark.UnexpectedInput, file: str, text: str) -> Diagnostic:
    line = getattr(exc, "line", 0) or 0
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, lark.UnexpectedCharacters):
        at = exc.pos_in_stream or 0
        ch = text[at] if at < len(text) else "?"
        hint = None
        if ch == "'":
            hint = 'strings use double quotes: "like this"'
        elif ch in "*&|!^~":
            hint = "the language has + - * / // % and `and`, `or`, `not`; there is no `**`"
        return Diagnostic(Pos(file, line, col), f"unexpected character `{ch}`", hint)
    if isinstance(exc, lark.UnexpectedToken):
        tok = exc.token
        expected = set(exc.accepts or exc.expected)
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        hint = None
        if str(tok.value) == "*":
            hint = "there is no `**` power operator"
        elif str(tok.value) in ("<", "<=", ">", ">=", "==", "!="):
            hint = "comparisons do not chain: write `a < b and b < c`"
        msg = f"unexpected {_token_words(tok)}, expected {_expected_words(expected)}"
        return Diagnostic(Pos(file, line, col), msg, hint)
    if isinstance(exc, lark.UnexpectedEOF):
        lines = text.splitlines() or [""]
        return Diagnostic(
            Pos(file, len(lines), len(lines[-1]) + 1),
            f"unexpected end of file, expected {_expected_words(set(exc.expected))}",
        )
    return Diagnostic(Pos(file, line, col), str(exc))
