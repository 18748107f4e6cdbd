"""Checked rules -> Python source -> code objects, once, at load.

The generated module refers only to mangled rules names (``v_`` locals, ``f_`` procedures,
``t_`` tables, ``r_`` rules, ``w_`` phase conditions, ``o_`` options, ``c_`` constants,
``p_`` primitives), the unit dict ``U`` and the helpers in :mod:`dsl.runtime`. It runs with
``__builtins__`` empty. A line map ties every generated line back to its rules position so
runtime errors can name the rules statement.

The step budget (see :mod:`dsl.runtime`) costs little: each loop pays for all its items when it
starts (``len(items) * weight`` off the module's counter ``_L``, inline), where the weight is the
size of its body plus the straight-line size of the procedures it calls, so a procedure call
itself costs nothing at run time. ``+`` on lists and strings and integer arithmetic go through
helpers that keep their sizes within the limits.
"""

from __future__ import annotations

import ast as pyast
import copy
import dataclasses
import functools
import keyword
import linecache
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType, MappingProxyType
from typing import Any, TypeGuard

from . import ast as A
from .checker import Program
from .errors import Pos, RulesRuntimeError
from .model import unit_type_class
from .registry import Registry
from .runtime import BUDGET, FREE_ITEMS, HELPERS, Later, Weigh, frozen_value
from .types import ANY, BOOL, FLOAT, INT, STR, UNIT_TYPE, ListType, MapType, RecordType, Type

#: the list of a counting twin whose procedure returns a comprehension (not a rules name)
_COMPREHENSION = "#"
#: (comparison, bound) -> whether it says "not empty" of a length (see _Gen.emptiness)
_NONEMPTY = {(">", 0): True, ("!=", 0): True, (">=", 1): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}

#: what a rule's `when` may be made of to be asked without entering the rules (see `gate`)
_GATE_NODES = (pyast.Expression, pyast.BoolOp, pyast.And, pyast.Or, pyast.UnaryOp, pyast.Not, pyast.Compare,
               pyast.Eq, pyast.NotEq, pyast.Lt, pyast.LtE, pyast.Gt, pyast.GtE, pyast.In, pyast.NotIn,
               pyast.Constant, pyast.Tuple, pyast.List, pyast.Load)

__all__ = ["Artifact", "compile_program", "instantiate"]

_ATTR_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
#: the most a loop's weight or a call's cost is counted as (beyond any budget)
_MAX_COST = 1 << 62
#: a loop with no loop inside over at most this many items (a hex's units, its neighbours)
#: pays nothing as it starts: the code around it counts it as this many rounds
SMALL_LOOP = 8
#: the most answers a board procedure keeps (past it they are forgotten and worked out again)
KEPT_MAX = 1 << 16
#: the kept answers of a board procedure that answers a map or is given a list (see `kept_answers`)
KEPT_MAPS = 1 << 9
#: a procedure whose answers are kept from one decision to the next stops keeping them if,
#: of its first KEEP_TRIAL calls, fewer than one in KEEP_FOUND was answered from before
KEEP_TRIAL = 256
KEEP_FOUND = 8
#: the same for answers remembered within an entry by units alike (see `alike_keys`): a
#: shorter trial, as each call of the trial pays for keeping a state's answer
ALIKE_TRIAL = 32
#: the same for answers kept by the spaces they read, counted in listings (see
#: `space_kept_answers`): LHTR's few such calls, about 110 a game, are mostly not found again
SPACE_TRIAL = 64
#: remember a question's answers for one entry into the rules (see `_Gen.remembers`)
REMEMBER = True
#: procedures a primitive calls back by name in the middle of the rules' work (engine.primitives
#: `end_game` asks `score`): never only the knowledge's (see `knowledge_only`)
CALLED_BACK = ("score",)
#: (in a procedure's variables read: it may read any)
ALL_VARS = "*"
#: a procedure written in place of its calls has at most this many parts (names, literals,
#: operators, calls), and at most this many are written one inside another
_INLINE_SIZE = 80
_INLINE_DEPTH = 3
#: integers within this pass the inline test of an integer result (one-digit integers for CPython)
_COMPACT = (1 << 30) - 1

#: built-ins that only look at their one argument (a game variable there needs no copy)
_PEEKING = frozenset(("len", "keys", "values", "min", "max", "sum", "sorted", "any", "all"))


@dataclass
class Artifact:
    source: str
    code: CodeType
    filename: str
    linemap: list[Pos | None]
    program: Program
    #: entry point -> (the steps of the code it runs straight through, where it is)
    costs: dict[str, tuple[int, Pos | None]]
    #: the blocks that may ask a player (`m_STEP_MOVE_do`, `s_STEP_start`...): they run as tasks
    asking: frozenset[str] = frozenset()
    #: the recording twins of the procedures kept by the spaces they read (`recording_twins`)
    recording: CodeType | None = None


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
        self.costs: dict[str, tuple[int, Pos | None]] = {}
        #: inside a `lambda` (where `_L := ...` would make a local): loops pay through `_pay`
        self.in_lambda = 0
        self._temps = 0
        self.procrefs: set[str] = set()
        #: procedures whose counting twins (`f_NAME__count`) are called, and the list the
        #: twin under way counts instead of growing (see "a count compared with a bound")
        self.counted: set[str] = set()
        self.counting: str | None = None
        #: the list of the procedure written in place of a twin's loop, and that loop (`fuse`)
        self.fusing: tuple[str, A.For] | None = None
        self.fused = 0
        self._countable: dict[str, str | None] = {}
        self._proc_cost: dict[str, int] = {}
        self._innermost: dict[int, bool] = {}
        self._loopy: dict[str, bool] = {}
        self._board: dict[str, bool] = {}
        self._asks: dict[str, bool] = {}
        self._alone: dict[str, bool] = {}
        self._calls_ask: dict[str, bool] = {}
        self._resumable: dict[str, bool] = {}
        self.asking: set[str] = set()
        #: writing a task's generator (see "tasks")
        self.in_task = False
        #: lists of the function under way that nothing else holds (see `_own_lists`), and
        #: for each loop being written, those of them grown in it whose length is tested
        #: after it (None: a loop that tests as it goes)
        self.own_lists: dict[str, frozenset[str]] = {}
        #: syntax nodes the compiler made itself (see `grown_by_comprehension`)
        self.made: list[A.Stmt] = []
        self.grown: list[dict[str, Pos | None] | None] = []
        #: the body of the function under way (see `quiet`, `changed_in_place`)
        self.block: tuple[A.Stmt, ...] | None = None
        self._quiet: dict[int, tuple[Any, bool]] = {}
        self._changed: dict[int, tuple[Any, set[str]]] = {}
        self._decls: dict[str, Any] = {}
        #: `let x = choose(...) prior EXPR`: the `choose` call's id -> its let (see `answer_prior`)
        self.answer_priors: dict[int, A.Let] = {}
        for pr in program.procedures.values():
            self._decls[pr.name] = pr
        for compiled, pr in program.base_versions:
            self._decls[compiled] = pr
        for sq in program.sequences.values():
            self._decls[sq.name] = sq
        for tb in program.tables.values():
            self._decls["t:" + tb.name] = tb
        #: procedures whose answers are kept (see `keeps`), and those written in place of
        #: their calls (see `inline_body`): the parameters' code while one is written
        self.kept = {pr.name for pr in program.procedures.values() if self.keeps(pr)}
        #: procedures whose answers are remembered for one entry into the rules (see
        #: `remembers`), and for each game variable those of them that read it
        self._var_reads: dict[str, frozenset[str]] = {}
        #: of those, the ones that walk the board (they call `distances`, `reach`...): their
        #: every call remembers, not only the calls a primitive makes
        self.walkers = {name for name, pr in sorted(program.procedures.items())
                        if self.walks(pr) and self.remembers(pr)} if REMEMBER else set()
        #: procedures only the knowledge for the computer player reaches (see `knowledge_only`)
        self.knowing = self.knowledge_only() - self.walkers if REMEMBER else set()
        self.remembered = {name for name in sorted(self.info.passed)
                           if name in program.procedures and self.remembers(program.procedures[name])} \
            | self.walkers if REMEMBER else set()
        self._inline: dict[str, A.Expr | None] = {}
        self._searched: dict[tuple[str, bool], tuple[tuple[A.Let, ...], A.Generator] | None] = {}
        self.subst: list[dict[str, str]] = []
        #: and those given a unit of which they read only fields and stats, remembered by
        #: those (see `alike_keys`): the code of each argument's part of the key
        self.alike: dict[str, list[str]] = {}
        counted = {n.args[0].func.name for n in _nodes([*program.procedures.values(), *program.steps.values(), *program.rules])
                   if isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.name == "len" and n.args
                   and isinstance(n.args[0], A.Call) and isinstance(n.args[0].func, A.Name)}
        for name, pr in sorted(program.procedures.items()):
            keys = self.alike_keys(pr) if REMEMBER and name not in self.remembered else None
            if keys is None and name in self.knowing:
                keys = [f"v_{prm.name}.id" if prm.type.name == "Unit" and not prm.type.args
                        else f"tuple(v_{prm.name})" if prm.type.name == "list" else f"v_{prm.name}"
                        for prm in pr.params]
            # (not one written in place of its calls, nor one a count is asked of: its
            # counting twin, or its search in place, stops sooner than a remembered list)
            if keys is not None and self.inline_body(name) is None and not (name in counted and (
                    self.search_body(name) or self.search_body(name, True) or _builds_list(pr)
                    or pr.body and isinstance(pr.body[-1], A.Return) and isinstance(pr.body[-1].value, A.ListComp))):
                self.alike[name] = keys
        self.remembered |= set(self.alike)
        #: procedures whose answers are kept from one listing to the next by the spaces they
        #: read (see `space_reads`): the code of each argument's part of the key
        self._space_pure: dict[str, bool] = {}
        self._reach: dict[str, frozenset[str]] = {}
        self.space_kept: dict[str, list[str]] = self.space_kept_procedures() if REMEMBER else {}
        #: (those of them given a unit alike in what they read: on a state not listed, their
        #: answers are remembered for the entry as `alike` says, by `fa_NAME`)
        self.alike_kept = {name: self.alike[name] for name in self.space_kept if name in self.alike}
        for name in self.space_kept:
            self.alike.pop(name, None)
            self.remembered.discard(name)
            # (written as a call, to be kept)
            self._inline[name] = None
            self._searched[(name, False)] = self._searched[(name, True)] = None
        self.readers: dict[str, list[str]] = {}
        # (not those only the knowledge reaches: it leaves the game alone, so no variable is
        # set in an entry that asks them, and the entry's end forgets their answers)
        for name in sorted(self.remembered - self.knowing):
            reads = self.callee_var_reads(name)
            for var in (program.vars if ALL_VARS in reads else reads):
                self.readers.setdefault(var, []).append(name)
        #: procedures whose answers are kept from one decision to the next, with what of the
        #: state each reads (see `piece_reads`)
        self.piece_kept: dict[str, list[tuple[str, str, str]]] = {}
        for name, pr in sorted(program.procedures.items()):
            entries = self.piece_reads(pr)
            if entries is not None:
                self.piece_kept[name] = entries
        #: procedures whose answers are kept from one decision to the next by the game
        #: variables they read (see `var_reads_kept`): their variables and Unit parameters;
        #: and the procedures whose code marks a call into what reads more (`tracking`)
        self._tracked: dict[str, frozenset[str] | None] = {}
        self.var_kept: dict[str, tuple[list[str], list[str], list[str]]] = {}
        self.tracking: set[str] = set()
        for name, pr in sorted(program.procedures.items()):
            got = self.var_reads_kept(pr) if REMEMBER else None
            if got is not None:
                self.var_kept[name] = got
                self.tracking.add(name)
                self.tracking |= self.tracked_callees(pr.body)
        #: procedures remembered through one decision's listing (see `listed_procedures`),
        #: and the steps whose listing remembers them
        self.listed, self.listing_steps = self.listed_procedures() if REMEMBER else (set(), set())
        for name in self.listed:
            self._inline[name] = None       # (written as a call, to be remembered)
        #: the procedure whose function is being written (see `call`)
        self.emitting: str | None = None
        #: board primitives whose lists are kept (see `module`), and those read so
        self.board_lists: set[str] = set()
        self.board_lists_used: dict[tuple[str, tuple[str, ...]], str] = {}

    # ------------------------------------------------------------------ the sizes the budget charges
    def size(self, node: Any) -> int:
        """Steps to run `node` once, without its loops' bodies (each loop pays for those as
        it runs) and with the straight-line size of the procedures it calls."""
        if node is None:
            return 0
        if isinstance(node, (list, tuple)):
            return sum(self.size(x) for x in node)
        if isinstance(node, A.For):
            if self.innermost(node) and not self.is_range(node.iter):
                return min(1 + self.size(node.iter) + SMALL_LOOP * self.loop_weight(node), _MAX_COST)
            return 1 + self.size(node.iter)
        if isinstance(node, A.Generator):
            if self.innermost(node):
                return min(1 + self.size(node.iter) + SMALL_LOOP * self.gen_weight(node), _MAX_COST)
            return 1 + self.size(node.iter)
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            n = 1 + self.size(node.args) + (self.size(node.gen) if node.gen is not None else 0)
            kind = self.info.calls.get(id(node))
            if kind in ("procedure", "sequence"):
                n += self.callee_cost(node.func.name)
            elif kind == "base":
                n += self.callee_cost(self.info.names[id(node)])
            elif kind == "table":
                n += self.callee_cost("t:" + node.func.name)
            return min(n, _MAX_COST)
        if not hasattr(node, "__dataclass_fields__"):
            return 0
        n = 1
        for f in node.__dataclass_fields__:
            if f != "pos":
                n += self.size(getattr(node, f))
        return min(n, _MAX_COST)

    def innermost(self, loop: A.For | A.Generator) -> bool:
        """A loop with no loop inside it (nor in the procedures it calls): one over at most
        SMALL_LOOP items pays nothing at run time, as the code around it counts it as that
        many rounds."""
        key = id(loop)
        got = self._innermost.get(key)
        if got is None:
            inside = (loop.cond, loop.body) if isinstance(loop, A.For) else (loop.elt, loop.cond)
            got = self._innermost[key] = not self.loops_in(inside)
        return got

    def loops_in(self, node: Any) -> bool:
        if node is None:
            return False
        if isinstance(node, (list, tuple)):
            return any(self.loops_in(x) for x in node)
        if isinstance(node, (A.For, A.Generator)):
            return True
        if isinstance(node, A.Name) and self.info.names.get(id(node)) == "procref":
            return True
        if isinstance(node, A.Call) and id(node) in self.info.partials:
            return True
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            callee = self.callee(node)
            if callee is not None and self.callee_loops(callee):
                return True
        if not hasattr(node, "__dataclass_fields__"):
            return False
        return any(self.loops_in(getattr(node, f)) for f in node.__dataclass_fields__ if f != "pos")

    def callee(self, call: A.Call) -> str | None:
        """The declaration a call of a procedure, a base version, a sequence or a table runs
        (a table's as `t:NAME`, as `_decls` holds it); None for a built-in or a primitive."""
        assert isinstance(call.func, A.Name)
        kind, name = self.info.calls.get(id(call)), call.func.name
        if kind in ("procedure", "sequence"):
            return name
        if kind == "base":
            return self.info.names.get(id(call), "")
        return "t:" + name if kind == "table" else None

    def callee_loops(self, name: str) -> bool:
        return _memo(self._loopy, name, True, lambda: self._loops_of(self._decls.get(name)))

    def _loops_of(self, d: Any) -> bool:
        if isinstance(d, A.ProcedureDecl):
            return self.loops_in(d.body)
        if isinstance(d, A.SequenceDecl):
            return d.while_ is not None or any(self.callee_loops(s) for s, _ in d.steps)
        if isinstance(d, A.TableDecl):
            return self.loops_in([en.value for en in d.entries if en.keys is None])
        return False

    def is_range(self, e: A.Expr) -> bool:
        return isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.name == "range" \
            and self.info.calls.get(id(e)) == "builtin"

    def callee_cost(self, name: str) -> int:
        """The straight-line steps of a procedure, sequence or table (recursion is refused
        by the checker; the guard only keeps a broken program from looping here)."""
        got = self._proc_cost.get(name)
        if got is not None:
            return got
        self._proc_cost[name] = 1
        d = self._decls.get(name)
        if isinstance(d, A.ProcedureDecl):
            n = 1 + self.size(d.body)
        elif isinstance(d, A.SequenceDecl):
            n = 1 + (0 if d.while_ is not None else sum(self.callee_cost(s) for s, _ in d.steps))
        elif isinstance(d, A.TableDecl):
            n = 1 + max((self.size(en.value) for en in d.entries if en.keys is None), default=0)
        else:
            n = 1
        n = min(n, _MAX_COST)
        self._proc_cost[name] = n
        return n

    def loop_weight(self, st: A.For) -> int:
        return 1 + self.size(st.cond) + self.size(st.body)

    def gen_weight(self, g: A.Generator) -> int:
        return 1 + self.size(g.elt) + self.size(g.cond)

    def entry(self, name: str, node: Any, pos: Pos | None) -> None:
        self.costs[name] = (min(1 + self.size(node), _MAX_COST), pos)

    def charge(self, indent: int, items: str | None, weight: int, pos: Pos | None, small: bool = False) -> None:
        """Pay `weight` steps (for each item of `items`; with `small`, only past SMALL_LOOP
        items), inline: no call."""
        paid = str(weight) if items is None else f"len({items})" if weight == 1 else f"len({items}) * {weight}"
        test = f"len({items}) > {SMALL_LOOP} and " if small else ""
        self.emit(indent, f"if {test}(_L := _L - {paid}) < 0:\n    _spent()", pos)

    @staticmethod
    def pure(e: A.Expr) -> bool:
        """Reading `e` twice, or in another order, changes nothing (no call, no dice)."""
        while isinstance(e, (A.Attr, A.Index)):
            if isinstance(e, A.Index) and not _Gen.pure(e.index):
                return False
            e = e.obj
        return isinstance(e, (A.Name, A.IntLit, A.StrLit, A.BoolLit, A.FloatLit))

    def emit(self, indent: int, text: str, pos: Pos | None) -> None:
        for part in text.split("\n"):
            self.lines.append("    " * indent + part)
            self.linemap.append(pos)
        if indent == 0 and text.startswith("def "):
            # the steps left to the call under way live in the module's `_L` (see dsl.runtime)
            self.lines.append("    global _L")
            self.linemap.append(pos)

    def temp(self) -> str:
        """A fresh name for a value generated code keeps for a moment (`_t3 := ...`)."""
        self._temps += 1
        return f"_t{self._temps}"

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
        # the unit types of each tag (`u has combat`: is u's type one of them?)
        for tag in sorted({t for u in p.units.values() for t in u.tags}):
            kinds = ", ".join(repr(u.name) for u in p.units.values() if tag in u.tags)
            self.emit(0, f"_H_{tag} = _fs([{kinds}])", None)
        for tb in p.tables.values():
            self.table(tb)
        # A primitive whose answer is a list of the board's alone (`roads(h)`, a ruleset's;
        # `space_list(h, "edge")`), gone through where it is asked (`walked`), is read from its
        # answers kept as tuples for this board (forgotten with the board's kept answers): no
        # call, no list made. (Their dicts and helpers are written at the end, for those used.)
        self.board_lists = {name for name, spec in self.reg.primitives.items()
                            if spec.board and spec.context and not spec.peek and spec.returns.startswith("list[")
                            and spec.params and not any(t.startswith("fn(") for _, t in spec.params)}
        if self.listed:
            # a decision's listing, begun and ended by the engine (see `listed_procedures`)
            self.emit(0, "_LS = _listing()", None)
        if self.var_kept:
            # a call that reads more than variables, made while a walk kept by the variables
            # it reads is worked out (see "walks kept by the variables they read")
            self.emit(0, "_NT = {1}\n_NT.clear()\n_NTA = _NT.add", None)     # (a set: no builtins here)
        for pr in p.procedures.values():
            params = "".join(f", v_{prm.name}" for prm in pr.params)
            if pr.name in self.kept:
                self.kept_answers(pr, params)
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            elif pr.name in self.walkers:
                self.remembered_answers(pr, params, "f")
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            elif pr.name in self.space_kept:
                self.space_kept_answers(pr, params, f"f_{pr.name}", self.space_kept[pr.name])
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            elif pr.name in self.alike:
                self.remembered_answers(pr, params, "f", self.alike[pr.name])
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            elif pr.name in self.piece_kept:
                self.piece_kept_answers(pr, params)
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            elif pr.name in self.var_kept:
                self.var_kept_answers(pr, params)
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            elif pr.name in self.listed:
                self.listed_answers(pr, params)
                self.emit(0, f"def f_{pr.name}__work(ctx{params}):", pr.pos)
            else:
                self.emit(0, f"def f_{pr.name}(ctx{params}):", pr.pos)
            self.emitting = pr.name
            self.function_body(pr.body, 1, pr.params)
            self.emitting = None
            self.costs[f"f_{pr.name}"] = (self.callee_cost(pr.name), pr.pos)
        for name, keys in sorted(self.alike_kept.items()):
            pr = p.procedures[name]
            params = "".join(f", v_{prm.name}" for prm in pr.params)
            self.emit(0, f"fa_{name}__work = f_{name}__work", pr.pos)
            self.remembered_answers(pr, params, "fa", keys)
        self.emit(0, "def _forget(ctx):", None)
        self.emit(1, "global _KB\n_KB = ctx.board", None)
        for name in sorted(self.kept):
            self.emit(1, f"_K_{name}.clear()", None)
        for name in sorted(self.piece_kept):
            self.emit(1, f"_P_{name}.clear()", None)
        for name in sorted(self.var_kept):
            self.emit(1, f"_V_{name}.clear()", None)
        for name in sorted(self.space_kept):
            self.emit(1, f"_S_f_{name}.clear()", None)
            if name in self.counted:
                self.emit(1, f"_S_f_{name}__count.clear()", None)
        forget_at = len(self.lines)
        for compiled, pr in p.base_versions:
            params = "".join(f", v_{prm.name}" for prm in pr.params)
            self.emit(0, f"def f_{compiled}(ctx{params}):", pr.pos)
            self.emitting = compiled
            self.function_body(pr.body, 1, pr.params)
            self.emitting = None
        for compiled, pr in [(name, pr) for name, pr in p.procedures.items()] + list(p.base_versions):
            if self.callee_asks(compiled) and self.callee_resumable(compiled):
                params = "".join(f", v_{prm.name}" for prm in pr.params)
                self.emit(0, f"def h_{compiled}(ctx{params}):", pr.pos)
                self.task_body(pr.body, 1, pr.params)
        for sq in p.sequences.values():
            self.subsequence(sq)
            if self.callee_asks(sq.name) and self.callee_resumable(sq.name):
                self.subsequence(sq, task=True)
        for st in p.steps.values():
            self.step(st)
        for r in p.rules:
            params = "".join(f", v_{n}" for n, _ in r.params)
            self.emit(0, f"def r_{r.name}(ctx{params}, *_rest):", r.pos)
            self.entry(f"r_{r.name}", (r.when, r.body), r.pos)
            if r.when is not None:
                self.emit(1, f"if not {self.expr(r.when)}:\n    return", r.when.pos)
            self.function_body(r.body, 1)
            gate = self.gate(r) if r.when is not None else None
            if gate is not None:
                self.emit(0, f"def rg_{r.name}({''.join(f'v_{n}, ' for n, _ in r.params)}*_rest):\n    return {gate}",
                          r.pos)
        for ph in p.phases:
            if ph.when is not None:
                self.emit(0, f"def w_{ph.name}(ctx, v_turn):", ph.pos)
                self.entry(f"w_{ph.name}", ph.when, ph.pos)
                self.emit(1, f"return {self.expr(ph.when)}", ph.when.pos)
        done: set[str] = set()
        twins: set[str] = set()
        while self.procrefs - done or self.counted - twins:
            if self.counted - twins:
                name = min(self.counted - twins)
                twins.add(name)
                self.count_twin(p.procedures[name])
                continue
            # a procedure passed to a primitive (`reach`'s cost): a copy of it that pays for
            # each call the host makes
            name = min(self.procrefs - done)
            done.add(name)
            pr = p.procedures[name]
            params = "".join(f", v_{prm.name}" for prm in pr.params)
            if name in self.remembered:
                self.remembered_answers(pr, params)
                self.emit(0, f"def g_{name}__work(ctx{params}):", pr.pos)
            else:
                self.emit(0, f"def g_{name}(ctx{params}):", pr.pos)
            self.charge(1, None, self.callee_cost(name), pr.pos)
            self.function_body(pr.body, 1, pr.params)
        used = sorted(self.board_lists_used.values())
        if used:
            clears = [f"    {kept}.clear()" for kept in used]
            self.lines[forget_at:forget_at] = clears
            self.linemap[forget_at + 1:forget_at + 1] = [None] * len(clears)     # (1-based)
            for kept in used:
                self.emit(0, f"{kept} = {{}}", None)
            self.emit(0, "def _kv(ctx, kept, key, fn, *args):", None)
            self.emit(1, f"if len(kept) >= {KEPT_MAX}:\n    kept.clear()\n"
                         "_r = kept[key] = tuple(fn(ctx, *args))\nreturn _r", None)
            self.emit(0, "def _kvs(ctx, kept, key, fn, *args):", None)
            self.emit(1, f"if len(kept) >= {KEPT_MAX}:\n    kept.clear()\n"
                         "_r = kept[key] = fn(ctx, *args)\nreturn _r", None)
        names = ", ".join(self.expr(n) for n in p.turns.names) if p.turns else ""
        # a list of powers (`turn order [turn_order]`) is spliced in where it stands
        powers = ", ".join(("*" if isinstance(self.info.types.get(id(n)), ListType) else "") + self.expr(n)
                           for n in p.powers.powers) if p.powers else ""
        self.emit(0, f"SEQ_TURN_NAMES = [{names}]", p.turns.pos if p.turns else None)
        self.emit(0, f"SEQ_POWERS = [{powers}]", p.powers.pos if p.powers else None)
        # the powers in their turns' order, where they take turns (what `current_power` reads)
        in_order = p.powers is not None and p.powers.mode == "order"
        self.emit(0, f"SEQ_ORDER = {'tuple(SEQ_POWERS)' if in_order else '()'}", p.powers.pos if p.powers else None)
        # the teams (`teams`), each a list of powers, none when its `when` is false
        teams = ", ".join("[" + ", ".join(self.expr(n) for n in team) + "]" for team in p.teams.teams) if p.teams else ""
        when = self.expr(p.teams.when) if p.teams and p.teams.when is not None else "True"
        self.emit(0, f"SEQ_TEAMS = [{teams}] if {when} else []", p.teams.pos if p.teams else None)
        return "\n".join(self.lines) + "\n"

    # ------------------------------------------------------------------ short procedures
    # A procedure that only answers (`return e`, or `if c { return a }` ... `return z`) is
    # written in place of its calls as one expression: the rules read best as many small
    # procedures, and a call costs more than most of them do. Not one whose answers are kept,
    # nor one that makes a list or walks one itself (a comprehension's names could meet the
    # caller's); what it calls may loop.
    def inlined(self, name: str, call: A.Call, args: list[str], peek: bool = False) -> str:
        """The call written as the procedure's expression, or "" when it cannot be (not a
        short procedure). An argument that is a name, a literal or a field of one is written
        where the procedure names it; any other is worked out first, once, as the call would
        (`allied(controller(s), p)`: `(... if (_t1 := ctx.control.get(v_s, "")) is _t1 else
        None)`, the test always true). `peek`: the answer is only looked at (`peek_value`)."""
        if len(self.subst) >= _INLINE_DEPTH:
            return ""
        body = self.inline_body(name)
        if body is None:
            return ""
        pr = self._decls[name]
        codes, first = self.bind_arguments(call.args, args)
        self.subst.append({prm.name: code for prm, code in zip(pr.params, codes)})
        try:
            inner = self.peek_value(body) if peek else self.expr(body)
        finally:
            self.subst.pop()
        return f"({inner} if {' and '.join(first)} else None)" if first else f"({inner})"

    # A test that a procedure's list is empty or not (`len(defenders(s)) > 0`), where the
    # procedure only returns a comprehension, is written as a search over that comprehension
    # in place of the call (`any(True for u in ... if ...)`): no list is made, and the search
    # stops at the first item that passes. The rules say it the way that reads best.
    def emptiness(self, e: A.Compare) -> str | None:
        """`len(P(...)) > 0` and its like (`== 0`, `!= 0`, `>= 1`, `< 1`, either way round)
        as `any(...)` over P's comprehension, or None when it is not one."""
        found = self.emptied(e)
        if found is None:
            return None
        call, nonempty = found
        code = self.searched(call)
        if not code:
            return None
        return code if nonempty else f"(not {code})"

    def emptied(self, e: A.Compare, loops: bool = False) -> tuple[A.Call, bool] | None:
        """(P's call, whether the test says "not empty") for `len(P(...)) > 0` and its like,
        where P returns a comprehension that can be searched in its place (`search_body`;
        `loops`: by a loop of statements, `emptiness_into`)."""
        for size, op, bound in ((e.left, e.op, e.right), (e.right, _FLIPPED.get(e.op), e.left)):
            if not (isinstance(bound, A.IntLit) and isinstance(size, A.Call) and isinstance(size.func, A.Name)
                    and size.func.name == "len" and size.gen is None and len(size.args) == 1
                    and self.info.calls.get(id(size)) == "builtin"):
                continue
            nonempty = _NONEMPTY.get((op or "", bound.value))
            call = size.args[0]
            if nonempty is None or not (isinstance(call, A.Call) and isinstance(call.func, A.Name)
                                        and call.gen is None and self.info.calls.get(id(call)) == "procedure"):
                continue
            assert isinstance(call.func, A.Name)
            found = self.search_body(call.func.name, loops)
            if found is not None and len(self.subst) < _INLINE_DEPTH \
                    and (found[1].cond is None or all(self.loopable(c, fresh=True) for c in _conjuncts(found[1].cond)
                                                      if _searches(c))):
                return call, nonempty
        return None

    def searched(self, call: A.Call) -> str:
        """`any(...)` over the comprehension the called procedure returns, its arguments and
        `let`s bound as `inlined` binds arguments; "" when it cannot be."""
        assert isinstance(call.func, A.Name)
        name = call.func.name
        found = self.search_body(name)
        if found is None or len(self.subst) >= _INLINE_DEPTH:
            return ""
        lets, gen = found
        pr = self._decls[name]
        codes, first = self.bind_arguments(call.args, [self.expr(a) for a in call.args])
        names = {prm.name: code for prm, code in zip(pr.params, codes)}
        self.subst.append(names)
        try:
            for let in lets:        # (worked out first, in order, as the procedure would)
                tmp = self.temp()
                first.append(f"({tmp} := {self.expr(let.value)}) is {tmp}")
                names[let.name] = tmp
            # its variable named afresh: the caller's own unit of that name, and what the
            # caller looks up once for it (`_u_u`), stay the caller's
            names[gen.var] = loop = self.temp()
            inner = self.comp(gen, "any(...)", elt="True", var=loop)
        finally:
            self.subst.pop()
        return f"({inner} if {' and '.join(first)} else None)" if first else f"({inner})"

    def search_body(self, name: str, loops: bool = False) -> tuple[tuple[A.Let, ...], A.Generator] | None:
        """The comprehension a procedure does nothing but return (`return [u for u in
        units_at(s) where ...]`, after `let`s of its own), with those `let`s, if it only asks
        about the game, keeps and remembers no answers and holds no other list; else None.
        With `loops` (searched by a loop of statements, `emptiness_into`), its `where` may also
        search (`[n for n in neighbours(h) where any(u in units_at(n) where ...)]`, Bulge's
        `targets`): each such test is a loop of its own inside the search's loop."""
        if (name, loops) in self._searched:
            return self._searched[name, loops]
        self._searched[name, loops] = None
        pr = self._decls.get(name)
        found: tuple[tuple[A.Let, ...], A.Generator] | None = None
        if isinstance(pr, A.ProcedureDecl) and name not in self.kept and name not in self.remembered \
                and pr.name not in self.p.interactive and pr.ret is not None and _count_nodes(pr.body) <= _INLINE_SIZE \
                and pr.body and isinstance(pr.body[-1], A.Return) and isinstance(pr.body[-1].value, A.ListComp):
            gen = pr.body[-1].value.gen
            lets = tuple(st for st in pr.body[:-1] if isinstance(st, A.Let))
            local = {prm.name for prm in pr.params} | {let.name for let in lets}
            tests = _conjuncts(gen.cond) if gen.cond is not None else []
            inner = [c.gen for c in tests if loops and _searches(c) and c.gen is not None]
            if len(lets) == len(pr.body) - 1 and len(local) == len(pr.params) + len(lets) \
                    and gen.var not in local and not _makes_lists((gen.elt, gen.iter, lets)) \
                    and not _makes_lists([c for c in tests if not (loops and _searches(c))]) \
                    and all(g.var not in local and g.var != gen.var and not _makes_lists((g.elt, g.iter, g.cond))
                            for g in inner) \
                    and self.callee_leaves_game_alone(name):
                found = (lets, gen)
        self._searched[name, loops] = found
        return found

    def bind_arguments(self, args: tuple[A.Expr, ...], codes: list[str]) -> tuple[list[str], list[str]]:
        """A call's arguments (compiled: `codes`) as the procedure written in place of the call
        reads them: a cheap one as it is; any other bound to a temporary first, once. Gives
        what the procedure reads for each, and the tests (always true) that bind them, in order."""
        out, first = [], []
        for a, code in zip(args, codes):
            if self.cheap(a):
                out.append(code)
            else:
                tmp = self.temp()
                first.append(f"({tmp} := {code}) is {tmp}")
                out.append(tmp)
        return out, first

    def inline_body(self, name: str) -> A.Expr | None:
        if name in self._inline:
            return self._inline[name]
        self._inline[name] = None
        pr = self._decls.get(name)
        body = None
        if isinstance(pr, A.ProcedureDecl) and name not in self.kept and name not in self.walkers and name not in self.alike and pr.name not in self.p.interactive \
                and pr.ret is not None and _count_nodes(pr.body) <= _INLINE_SIZE \
                and not _makes_lists(pr.body) and not _asks_choose(pr.body):
            body = _as_expression(pr.body)
        self._inline[name] = body
        return body

    # ------------------------------------------------------------------ board procedures
    # A procedure that reads nothing but its arguments and the board (the map's spaces, links
    # and facts; options, constants, unit types and tables, which do not change in a game) has
    # one answer for each set of arguments: it is worked out once and kept, so that a rules
    # file may ask `is_sea(s)` or `land_spaces()` as often as it likes. The kept answers belong
    # to one board; a state on another board (another scenario's map) forgets them.
    def keeps(self, pr: A.ProcedureDecl) -> bool:
        """Are the procedure's answers kept? Only a board procedure whose arguments are text,
        whole numbers or truth values, or lists of them, answering one of those, a list of
        them or a map from one to another (LHTR's flight distances from a list of places)."""
        if pr.ret is None or not all(_plain(prm.type, lists=True) for prm in pr.params):
            return False
        ret = pr.ret
        if ret.name == "map" and len(ret.args) == 2:
            ok = _plain(ret.args[0]) and _plain(ret.args[1], floats=True)
        else:
            ok = _plain(ret, lists=True, floats=True)
        return ok and self.board_only(pr.name) and (self.loops_in(pr.body) or self.asks_board(pr.body))

    def callee_asks_board(self, name: str) -> bool:
        d = self._decls.get(name)
        return _memo(self._asks, name, False, lambda: isinstance(d, A.ProcedureDecl) and self.asks_board(d.body))

    def asks_board(self, node: Any) -> bool:
        """Does the code call a board primitive, itself or through the procedures it calls?
        (A procedure that only works on its arguments is cheaper done than looked up.)"""
        for n in _nodes(node):
            if isinstance(n, A.Call) and isinstance(n.func, A.Name):
                kind = self.info.calls.get(id(n))
                if kind == "primitive" and self.reg.primitives[n.func.name].board:
                    return True
                callee = self.callee(n) if kind in ("procedure", "base") else None
                if callee and self.callee_asks_board(callee):
                    return True
        return False

    def board_only(self, name: str) -> bool:
        d = self._decls.get(name)
        if isinstance(d, A.ProcedureDecl):
            return _memo(self._board, name, False,
                         lambda: name not in self.p.interactive and self.reads_board_only(d.body))
        if isinstance(d, A.TableDecl):
            return _memo(self._board, name, False,
                         lambda: self.reads_board_only([(en.keys, en.value) for en in d.entries]))
        return False

    def reads_board_only(self, node: Any) -> bool:
        for n in _nodes(node):
            if isinstance(n, A.Name):
                kind = self.info.names.get(id(n))
                if kind == "var" or (kind == "procref" and not self.board_only(n.name)):
                    return False
            if isinstance(n, A.Call) and isinstance(n.func, A.Name) and not self.board_call(n):
                return False
        return True

    def board_call(self, call: A.Call) -> bool:
        assert isinstance(call.func, A.Name)
        kind, name = self.info.calls.get(id(call)), call.func.name
        if kind == "builtin":
            return name != "choose"
        if kind == "primitive":
            return self.reg.primitives[name].board
        if kind in ("procedure", "base", "table"):
            return self.board_only(self.callee(call) or "")
        return False

    # ------------------------------------------------------------------ questions only
    # Code that only asks about the game (it sets no variable, calls no primitive that changes
    # the game, asks no player) may run later, or not at all, and nothing can tell: a move's
    # guard that is a question only is asked of each option only when that option is looked
    # at (see `offers`, and engine.actions.Options).
    def leaves_game_alone(self, node: Any) -> bool:
        for n in _nodes(node):
            if isinstance(n, A.Assign):
                root = _target_root(n.target)
                if not isinstance(root, A.Name) or self.info.names.get(id(root)) == "var":
                    return False
            elif isinstance(n, A.Name) and self.info.names.get(id(n)) == "procref":
                if not self.callee_leaves_game_alone(n.name):
                    return False
            elif isinstance(n, A.Call) and isinstance(n.func, A.Name):
                kind, name = self.info.calls.get(id(n)), n.func.name
                if kind == "builtin":
                    ok = name != "choose"
                elif kind == "primitive":
                    ok = not self.reg.primitives[name].changes
                elif kind in ("procedure", "base"):
                    ok = self.callee_leaves_game_alone(self.callee(n) or "")
                else:
                    ok = kind == "table"
                if not ok:
                    return False
        return True

    def callee_leaves_game_alone(self, name: str) -> bool:
        d = self._decls.get(name)
        return _memo(self._alone, name, False, lambda: isinstance(d, A.ProcedureDecl)
                     and name not in self.p.interactive and self.leaves_game_alone(d.body))

    # ------------------------------------------------------------------ answers remembered
    # A procedure passed to a primitive (`distances(places, budget, passable, may_fly_over)`)
    # is asked of space after space, and within one entry into the rules (a step's `start`,
    # a move's body) walk after walk asks the same spaces again: the flights of a phase's
    # start ask of each space whether aircraft may enter it once for every walk. Such a
    # procedure, if it only asks about the game, remembers its answers until the entry ends,
    # a primitive changes the game (each one counts a new generation, `_G`, and so does each
    # entry), or a game variable it reads, itself or through what it calls, is set (the
    # assignment forgets its readers' answers). Lists and maps are remembered as copies and
    # handed out as copies, so a caller may change what it was given. (Remembering every
    # question that loops was tried: most are asked once per entry, and keeping their answers
    # cost more than the few asked twice saved; AARHE's random games ran 20% slower.)
    def walks(self, pr: A.ProcedureDecl) -> bool:
        """Does the procedure itself call a primitive that walks the board, asking procedures
        it is given (`distances`, `reach`)? A walk costs hundreds of steps: remembering its
        answer costs one look-up."""
        for n in _nodes(pr.body):
            if isinstance(n, A.Call) and isinstance(n.func, A.Name) and self.info.calls.get(id(n)) == "primitive":
                spec = self.reg.primitives[n.func.name]
                if any(t.startswith("fn(") for _, t in spec.params):
                    return True
        return False

    # The knowledge a game gives the computer player (docs/rules-language.md, "Knowledge for
    # the computer player": the moves' and answers' priors, `evaluate`) runs only when a
    # computer player asks, never in the game itself, and a decision's priors are read in one
    # entry (dsl.runtime `priors_together`): the prior of each of hundreds of options asks the
    # same questions again (Bulge's Allied reinforcements: what the tokens a truck unloads in
    # a hex buy, a third as many different questions as asked). A procedure that only such
    # knowledge reaches, that leaves the game alone and loops, remembers its answers for the
    # entry (a unit by its identity: nothing changes the state in the entry): worked out once
    # for a decision, and nothing the game plays pays. Whether its answers are asked for again
    # the compiler cannot tell (LHTR's mostly are not: remembering them all made a game of its
    # policy 5% dearer), so it is tried as a procedure given units alike is (`alike_keys`), on
    # a longer trial: of its first KEEP_TRIAL calls, one that found fewer than one in
    # KEEP_FOUND stops (Bulge's `truck_spot` is found again two times in three, but not in the
    # first few decisions that ask it). The
    # knowledge leaves the game alone, so no game variable is set in an entry that asks such
    # a procedure: a variable set does not forget their answers (nor pay for it).
    def knowledge_only(self) -> set[str]:
        """The procedures that the priors and `evaluate` reach and nothing else in the rules
        does, that remember well (`remembers`) and go round a loop, themselves or through
        what they call (none where `evaluate` changes the game)."""
        p = self.p
        code = [p.rules, list(p.steps.values()), list(p.sequences.values()), list(p.tables.values()),
                p.phases, p.turns, p.powers, p.teams]
        priors = [n.prior for n in _nodes([*code, *p.procedures.values()])
                  if isinstance(n, (A.MoveDecl, A.Let)) and n.prior is not None]
        evaluate = p.procedures.get("evaluate")

        def reached(roots: list[Any], knowledge: bool) -> set[str]:
            """The procedures `roots` call, themselves or through what they call (the
            priors left out, where not `knowledge`)."""
            out: set[str] = set()
            todo = list(roots)
            while todo:
                for n in _nodes_but_priors(todo.pop()) if not knowledge else _nodes(todo.pop()):
                    name = None
                    if isinstance(n, A.Call) and isinstance(n.func, A.Name):
                        name = self.callee(n)
                    elif isinstance(n, A.Name) and self.info.names.get(id(n)) == "procref":
                        name = n.name
                    if name is not None and name not in out:
                        out.add(name)
                        if name in self._decls:
                            todo.append(self._decls[name])
            return out

        if evaluate is not None and not self.callee_leaves_game_alone("evaluate"):
            return set()
        known = reached(priors + ([evaluate] if evaluate is not None else []), True)
        if evaluate is not None:
            known.add("evaluate")
        others = reached(code + [p.procedures[n] for n in CALLED_BACK if n in p.procedures], False) \
            | set(CALLED_BACK)
        return {name for name in sorted(known - others)
                if name in p.procedures and self.remembers(p.procedures[name]) and self.callee_loops(name)}

    def remembers(self, pr: A.ProcedureDecl) -> bool:
        if pr.ret is None or pr.name in self.kept or pr.name in self.p.interactive:
            return False
        if not all(_rememberable(prm.type, param=True) for prm in pr.params) or not _rememberable(pr.ret):
            return False
        return self.callee_leaves_game_alone(pr.name)

    def callee_var_reads(self, name: str) -> frozenset[str]:
        """The game variables a procedure reads, itself or through what it calls (ALL_VARS:
        it calls a primitive a plugin registered, which may read any)."""
        got = self._var_reads.get(name)
        if got is None:
            self._var_reads[name] = frozenset([ALL_VARS])     # (recursion is refused: see _memo)
            d = self._decls.get(name)
            if isinstance(d, A.ProcedureDecl):
                got = self.var_reads(d.body)
            elif isinstance(d, A.TableDecl):
                got = self.var_reads([(en.keys, en.value) for en in d.entries])
            else:
                got = frozenset([ALL_VARS])
            self._var_reads[name] = got
        return got

    def var_reads(self, node: Any) -> frozenset[str]:
        out: set[str] = set()
        for n in _nodes(node):
            if isinstance(n, A.Name):
                kind = self.info.names.get(id(n))
                if kind == "var":
                    out.add(n.name)
                elif kind == "procref":
                    out |= self.callee_var_reads(n.name)
            elif isinstance(n, A.Call) and isinstance(n.func, A.Name):
                kind, name = self.info.calls.get(id(n)), n.func.name
                if kind == "primitive":
                    spec = self.reg.primitives[name]
                    if not spec.board and not getattr(spec.fn, "__module__", "").startswith("engine."):
                        out.add(ALL_VARS)
                elif kind in ("procedure", "base", "sequence", "table"):
                    out |= self.callee_var_reads(self.callee(n) or "")
        return frozenset(out)

    def remembered_answers(self, pr: A.ProcedureDecl, params: str, prefix: str = "g",
                           keys: list[str] | None = None) -> None:
        """`g_NAME`: the answer for these arguments if it was worked out (by `g_NAME__work`) in
        this entry, on this state, in this generation. (`f_NAME` for a walker, called
        directly: both share the answers.) With `keys` (`alike_keys`: the fields a unit is
        read by in place of the unit), after its first calls it stops remembering unless
        answers are found again, as answers kept between decisions do."""
        n = pr.name
        trial = keys is not None
        if keys is None:
            keys = [f"tuple(v_{prm.name})" if prm.type.name == "list" else f"v_{prm.name}" for prm in pr.params]
        key = {0: "()", 1: keys[0] if keys else ""}.get(len(keys), f"({', '.join(keys)})")
        copy = {"list": "list", "map": "dict"}.get(pr.ret.name if pr.ret is not None else "", "")
        self.emit(0, f"_A_{n} = {{}}", pr.pos)
        if trial:
            self.emit(0, f"_AC{n} = 0\n_AH{n} = 0", pr.pos)
        self.emit(0, f"def {prefix}_{n}(ctx{params}):", pr.pos)
        if trial:
            # after its first calls: on, or stopped (its name bound to its work; a caller
            # that holds this function, as the loader does, goes straight to the work)
            self.emit(1, f"global _AC{n}, _AH{n}, {prefix}_{n}\n_AC{n} += 1", pr.pos)
            self.trial(1, pr, f"{prefix}_{n}", f"_AC{n}", f"_AH{n}", KEEP_TRIAL if n in self.knowing else ALIKE_TRIAL,
                       held=(f"_A_{n}", f"{prefix}_{n}__work(ctx{params})"))
        self.emit(1, f"_k = {key}\n_r = _A_{n}.get(_k)\nif _r is not None and _r[0] is ctx and _r[1] == _G:", pr.pos)
        if trial:
            self.emit(2, f"_AH{n} += 1", pr.pos)
        self.emit(2, f"return {copy}(_r[2])" if copy else "return _r[2]", pr.pos)
        self.emit(1, f"_v = {prefix}_{n}__work(ctx{params})", pr.pos)
        # (a dict that holds answers is in `_AU`, and the entry's end empties it: see `instantiate`)
        self.emit(1, f"if not _A_{n}:\n    _AU.append(_A_{n})\nelif len(_A_{n}) >= {KEPT_MAX}:\n    _A_{n}.clear()", pr.pos)
        kept = {"list": "tuple(_v)", "dict": "dict(_v)"}.get(copy, "_v")
        self.emit(1, f"_A_{n}[_k] = (ctx, _G, {kept})", pr.pos)
        self.emit(1, "return _v", pr.pos)

    # A procedure given a unit that reads of it only its fields and stats (`u.space`,
    # `u.owner`, `u has combat`), never the unit itself (its marks, its identity, passing it
    # on), has one answer for all the units alike in those: Bulge's `entry_hexes(u)`, the
    # hexes a reinforcement may enter by, asked of each of a side's arrivals in one listing,
    # and most arrivals share a chart box, a side and a group. If it leaves the game alone and
    # goes round a loop on every way to its answer (`always_loops`), but not a loop inside a
    # loop (a walk: kept between decisions, if it can be), it remembers its answers for the
    # entry as above, keyed by those fields (`kind` for its stats and tags). Whether its
    # answers are found again the compiler cannot tell: one that, of its first ALIKE_TRIAL
    # calls, found fewer than one in KEEP_FOUND stops remembering (its name bound to its
    # work: the same answers).
    def always_loops(self, body: tuple[A.Stmt, ...]) -> bool:
        """Does the code go round a loop (its own or a callee's) on every way to its answer?
        (An answer found without one, `return u has combat`, costs less to work out again
        than to remember.)"""
        for st in body:
            if isinstance(st, A.Return):
                return st.value is not None and self.loops_in(st.value)
            if isinstance(st, A.If) and not self.loops_in(st.cond):
                if any(any(isinstance(n, A.Return) for n in _nodes(b)) and not self.always_loops(b)
                       for b in (st.body, st.orelse)):
                    return False
            elif self.loops_in(st):
                return True
        return False

    def alike_keys(self, pr: A.ProcedureDecl) -> list[str] | None:
        """The code of each argument's part of the key the procedure's answers are remembered
        by, if it is given a unit it reads only by fields other than its `id`; else None."""
        unit = self.unit_rec.name if self.unit_rec is not None else None
        units = {prm.name for prm in pr.params if prm.type.name == unit and not prm.type.args}
        if not units or not self.remembers(pr) or pr.name in self.kept or not self.always_loops(pr.body) \
                or _nested_loop(pr.body):     # (a walk: kept between decisions, if it can be)
            return None
        read: dict[str, set[str]] = {u: set() for u in units}
        parent: dict[int, Any] = {}
        for n in _nodes(pr.body):
            if isinstance(n, (A.Let, A.For, A.Generator)) and (n.name if isinstance(n, A.Let) else n.var) in units:
                return None
            for f in n.__dataclass_fields__:
                v = getattr(n, f)
                for c in v if isinstance(v, (list, tuple)) else (v,):
                    parent[id(c)] = n
        for n in _nodes(pr.body):
            if not (isinstance(n, A.Name) and n.name in units):
                continue
            up = parent.get(id(n))
            if isinstance(up, A.Attr) and up.obj is n and self.info.attrs.get(id(up)) in ("field", "stat", "tags"):
                read[n.name].add(up.name if self.info.attrs[id(up)] == "field" else "kind")
            elif isinstance(up, A.Compare) and up.left is n and up.op in ("has", "has not", "is", "is not"):
                read[n.name].add("kind")
            else:
                return None
        if any("id" in fields for fields in read.values()):
            return None
        keys = []
        for prm in pr.params:
            if prm.name in units:
                keys += [f"v_{prm.name}.{f}" for f in sorted(read[prm.name])]
            else:
                keys.append(f"tuple(v_{prm.name})" if prm.type.name == "list" else f"v_{prm.name}")
        return keys

    # ------------------------------------------------------------------ answers kept by what they read
    # A procedure that reads of the game only the pieces of an owner or a space its arguments
    # name (`units_of(side)`, `units_at(h)`), and the turn, keeps its answers from one
    # decision to the next: Bulge's `arrived(side)` goes through all of a side's pieces for
    # the few on a reinforcement chart, about once a decision, and the side's pieces are
    # mostly those of the decision before. The state's index entries are shared copy-on-write
    # by its copies (engine.state): an entry that is the same object, and not one the state
    # may still change in place (its key not in the state's `_own*` set), holds the same
    # pieces, and pieces are never changed in place. So an answer is kept with the entries it
    # read and the turn, and given again while those are the same. The engine leaves every
    # entry shared before it lists a decision's options (`GameState.share_entries`), so that
    # the answers worked out then are kept. Only procedures that go round a loop: a few
    # look-ups cost what checking them would (a test on Bulge's `supply_in_reach`, which
    # reads seven spaces, saved nothing).
    def piece_reads(self, pr: A.ProcedureDecl) -> list[tuple[str, str, str]] | None:
        """What of the state the procedure reads, as (index, own set, key code) for each
        index entry and ("turn", "", "") for the turn; None if its answers cannot be kept
        so (it reads anything else of the game, is given or answers anything but text,
        numbers, truth values or a list of those or of units, or reads no entry that holds
        many pieces, as an owner's does, and goes round no loop)."""
        if pr.ret is None or pr.name in self.p.interactive or pr.name in self.kept or pr.name in self.remembered \
                or pr.name in self.space_kept:
            return None
        if not all(_plain(prm.type) for prm in pr.params):
            return None
        unit = self.unit_rec.name if self.unit_rec is not None else None
        ret = pr.ret
        if not (_plain(ret, lists=True) or ret.name == "list" and len(ret.args) == 1 and ret.args[0].name == unit
                and not ret.args[0].args):
            return None
        if not self.loops_in(pr.body):
            return None
        params = {prm.name for prm in pr.params}
        reads: list[tuple[str, str, str]] = []
        many = False
        # a loop over every piece that looks only at some unit types reads the state's
        # entries of those types (`reads="_bk _own_bk kinds"`: Bulge's `air_hexes`, the hexes
        # with ground units, unchanged while only air units move)
        typed: dict[int, tuple[str, ...]] = {}
        for n in _nodes(pr.body):
            if isinstance(n, (A.For, A.Generator)) and isinstance(n.iter, A.Call) and n.cond is not None \
                    and isinstance(n.iter.func, A.Name) and self.info.calls.get(id(n.iter)) == "primitive" \
                    and self.reg.primitives[n.iter.func.name].reads.split()[2:] == ["kinds"]:
                kinds = self.kinds_passing(n.var, _first_of(n.cond, "and"))
                if kinds:
                    typed[id(n.iter)] = tuple(sorted(kinds))
        for n in _nodes(pr.body):
            if isinstance(n, A.Name):
                kind = self.info.names.get(id(n))
                if kind == "var" or (kind == "procref" and not self.board_only(n.name)):
                    return None
            if not (isinstance(n, A.Call) and isinstance(n.func, A.Name)):
                continue
            kind, name = self.info.calls.get(id(n)), n.func.name
            if kind == "builtin":
                if name == "choose":
                    return None
                continue
            if kind in ("procedure", "base", "table"):
                if not self.board_only(self.callee(n) or ""):
                    return None
                continue
            if kind != "primitive":
                return None
            spec = self.reg.primitives[name]
            # (every unit such a procedure holds is one of the pieces it read, as they are
            # now: reading a unit's own fields reads nothing more)
            if spec.board or spec.inline and "ctx" not in spec.inline.replace("ctx.pieces.get({0}.id, {0})", ""):
                continue
            read = spec.reads.split()
            if read[2:] == ["kinds"]:
                if id(n) not in typed:
                    return None
                entry = (read[0], read[1], f"kinds:{typed[id(n)]!r}")
                many = True
            elif len(read) == 1 and not n.args:
                entry = (read[0], "", "")
            elif len(read) >= 2 and n.args and (
                    isinstance(n.args[0], A.StrLit) or isinstance(n.args[0], A.Name) and (
                        n.args[0].name in params or self.info.names.get(id(n.args[0])) in ("constant", "option"))):
                entry = (read[0], read[1], self.expr(n.args[0]))
                many = many or read[2:] == ["many"]
            else:
                return None
            if entry not in reads:
                reads.append(entry)
        return reads if many else None

    def piece_kept_answers(self, pr: A.ProcedureDecl, params: str) -> None:
        """`f_NAME`: the answer kept for these arguments while what it read is the same
        (a list kept as a tuple and handed out as a fresh list), or worked out afresh by
        `f_NAME__work` and kept if the state shares every entry it read."""
        reads = self.piece_kept[pr.name]
        # (the entries of some unit types: a tuple of them, the same while each is the same
        # object, and shared while the state owns none of them: dsl.runtime `typed_entries`)
        now = [f"_typed(ctx.{index}, {k[6:]})" if k.startswith("kinds:") else
               f"ctx.{index}.get({k})" if own else f"ctx.{index}" for index, own, k in reads]
        same = [f"_r[{i}] {'==' if not own or k.startswith('kinds:') else 'is'} {code}"
                for i, (code, (_, own, k)) in enumerate(zip(now, reads))]
        shared = " and ".join(f"_untyped(ctx.{own}, {k[6:]})" if k.startswith("kinds:") else f"{k} not in ctx.{own}"
                              for _, own, k in reads if own)
        self.kept_wrapper(pr, params, "P", [f"v_{prm.name}" for prm in pr.params], now,
                          " and ".join(same + [shared]), keep=shared)

    # ------------------------------------------------------------------ answers kept by the spaces they read
    # A procedure that reads of the game only the pieces of spaces (`units_at(s)`) and who
    # controls them (`controller(s)`), and the fields and marks of those pieces, keeps its
    # answer from one listing to the next while none of the spaces it read has changed.
    # Bulge's `supply_in_reach(h, side)` (the hex and those of its neighbours on the side's
    # side of the front line) is asked of every hex a side holds at each activation decision,
    # and an activation changes the marks of one hex's units; `entry_hexes(u)` reads the
    # control and units of a board edge's hexes at every reinforcement decision, and a
    # placement changes one hex. Which spaces it read is noted while it is worked out, by a
    # recording twin of its work (see `recording_twins`); the engine stamps each listing, and
    # a state knows the number of the listing before it and the spaces whose pieces changed
    # since (engine.state, `share_entries`; a change of control forgets the stamp). An answer
    # is given again when it was worked out at this listing, or at the one before and none
    # of its spaces is among those that changed (then it takes this listing's number); on a
    # state changed since its listing (a move's own code) it is worked out afresh and not
    # kept (one given a unit alike in what it reads is remembered for the entry there, by
    # `fa_NAME`, as `alike_keys` says). Only a procedure that goes round a loop inside a loop
    # (its own or a callee's: a few look-ups cost what checking them would), given text,
    # numbers or truth values, or a unit it reads only fields of (`alike_keys`), that calls
    # nothing that keeps or remembers answers by other means (inside a recording twin the
    # twins of the procedures it calls are called, and nothing kept is given). Whether answers are found again the compiler cannot tell: one that, of its
    # first SPACE_TRIAL calls in listings, found fewer than one in KEEP_FOUND stops keeping.
    def space_kept_procedures(self) -> dict[str, list[str]]:
        """The procedures kept by the spaces they read, with their keys' code."""
        found: dict[str, list[str]] = {}
        unit = self.unit_rec.name if self.unit_rec is not None else None
        for name, pr in sorted(self.p.procedures.items()):
            if pr.ret is None or name in self.p.interactive or name in self.kept or name in self.knowing \
                    or (name in self.remembered and name not in self.alike):
                continue
            ret = pr.ret
            if not (_plain(ret, lists=True) or ret.name == "list" and len(ret.args) == 1 and ret.args[0].name == unit
                    and not ret.args[0].args):
                continue
            if name in self.alike:
                keys = self.alike[name]
            elif all(_plain(prm.type) for prm in pr.params):
                keys = [f"v_{prm.name}" for prm in pr.params]
            else:
                continue
            if self.board_only(name) or not self.callee_leaves_game_alone(name) or not self.loops_over_loops(pr.body) \
                    or not self.space_pure(name):
                continue
            found[name] = keys
        # (a callee remembered for an entry gives answers that read nothing: only one kept
        # by the spaces it reads may be called)
        while True:
            drop = {name for name in found if any(
                c in self.alike and c not in found for c in self.reached(self.p.procedures[name].body))}
            if not drop:
                return found
            for name in drop:
                del found[name]

    def space_pure(self, name: str) -> bool:
        """Does the procedure read of the game only spaces' pieces and control (and the
        fields and marks of those pieces), itself and through what it calls?"""
        if name in self._space_pure:
            return self._space_pure[name]
        self._space_pure[name] = False        # (recursion is refused: see _memo)
        d = self._decls.get(name)
        ok = isinstance(d, A.TableDecl) and self.board_only(name) or isinstance(d, A.ProcedureDecl) \
            and name not in self.p.interactive and name not in self.walkers \
            and (name not in self.remembered or name in self.alike) \
            and name not in getattr(self, "piece_kept", ()) and name not in getattr(self, "var_kept", ()) \
            and self.callee_leaves_game_alone(name) and self.reads_spaces_only(d.body)
        self._space_pure[name] = ok
        return ok

    def reads_spaces_only(self, body: Any) -> bool:
        for n in _nodes(body):
            if isinstance(n, A.Name):
                kind = self.info.names.get(id(n))
                if kind == "var" or (kind == "procref" and not self.board_only(n.name)):
                    return False
            if not isinstance(n, A.Call):
                continue
            if not isinstance(n.func, A.Name) or id(n) in self.info.partials:
                return False
            kind, name = self.info.calls.get(id(n)), n.func.name
            if kind == "builtin":
                if name == "choose":
                    return False
                continue
            if kind == "primitive":
                spec = self.reg.primitives[name]
                inline = spec.inline.replace("ctx.pieces.get({0}.id, {0})", "").replace("ctx.control.get(", "") \
                    .replace("ctx.board", "")
                if not (spec.board or spec.reads == "_at _own" or spec.inline and "ctx" not in inline):
                    return False
                continue
            if kind == "table" or kind in ("procedure", "base") and self.board_only(self.callee(n) or ""):
                continue
            if kind not in ("procedure", "base") or not self.space_pure(self.callee(n) or ""):
                return False
        return True

    def space_kept_answers(self, pr: A.ProcedureDecl, params: str, fn: str, parts: list[str]) -> None:
        """`fn` (`f_NAME`, or its counting twin): the answer kept for these arguments while
        no space it read has changed since (see above), or worked out afresh by the work's
        recording twin (`fn__work__rec`, see `recording_twins`), which notes the spaces it
        reads in `_rsa`'s set, and kept when the state is as it was listed."""
        kept, calls, hits = f"_S_{fn}", f"_SC_{fn}", f"_SH_{fn}"
        key = {0: "()", 1: "".join(parts)}.get(len(parts), f"({', '.join(parts)})")
        as_list = pr.ret is not None and pr.ret.name == "list" and not fn.endswith("__count")
        work = f"{fn}__work(ctx{params})"
        self.emit(0, f"{kept} = {{}}\n{calls} = 0\n{hits} = 0", pr.pos)
        self.emit(0, f"def {fn}(ctx{params}):", pr.pos)
        self.emit(1, f"global {calls}, {hits}, {fn}, _rsa", pr.pos)
        # (on a state not listed, or changed since: the work, or for units alike the answer
        # remembered for the entry, as `alike_keys` says)
        unlisted = f"fa_{pr.name}(ctx{params})" if pr.name in self.alike_kept and not fn.endswith("__count") else work
        self.emit(1, f"if ctx is None or ctx._own or (_s := ctx._stamp) is None:\n    return {unlisted}", pr.pos)
        self.emit(1, f"if ctx.board is not _KB:\n    _forget(ctx)\n_k = {key}\n_r = {kept}.get(_k)\n"
                     f"{calls} += 1", pr.pos)
        self.emit(1, "if _r is not None and (_r[0] == _s[0] or _r[0] == _s[1] and _s[2].isdisjoint(_r[1])):", pr.pos)
        self.emit(2, f"_r[0] = _s[0]\n{hits} += 1\nreturn {'list(_r[2])' if as_list else '_r[2]'}", pr.pos)
        self.trial(1, pr, fn, calls, hits, SPACE_TRIAL)
        self.emit(1, f"_o = _rsa\n_sp = _set()\n_rsa = _sp.add\n_v = {fn}__work__rec(ctx{params})\n_rsa = _o", pr.pos)
        self.emit(1, f"if len({kept}) >= {KEPT_MAX}:\n    {kept}.clear()", pr.pos)
        self.emit(1, f"{kept}[_k] = [_s[0], tuple(_sp), {'tuple(_v)' if as_list else '_v'}]\nreturn _v", pr.pos)

    def recording_renames(self) -> dict[str, str]:
        """For the recording twins (see `recording_twins`): each function of a procedure that
        reads only spaces, called from one, and the twin that a twin calls in its place."""
        out: dict[str, str] = {}
        if not self.space_kept:
            return out
        for name, pure in self._space_pure.items():
            if not pure or name.startswith("t:") or self.board_only(name):
                continue
            for fn in (f"f_{name}", f"f_{name}__count"):
                out[fn] = f"{fn}__work__rec" if name in self.space_kept else f"{fn}__rec"
        return out

    # ------------------------------------------------------------------ walks kept by the variables they read
    # A procedure that walks the board (a loop inside a loop: Bulge's `walk`, breadth first
    # along roads) and reads of the game only game variables, its arguments (text, numbers,
    # truth values, a unit: a piece is never changed in place, so the same object has the
    # same fields) and the board keeps its answer from one decision to the next while each
    # variable it read is the same object (a variable's value is never changed in place:
    # setting it, or an element of it, stores a new one). What it calls may read more
    # (`zoc_map(enemy(side))`, where a variable kept for the step does not serve): each such
    # call in its code, and in the procedures it calls that read only variables, is marked
    # (`(_NTA(1) or CALL)`: a mark in the set `_NT`), and an answer worked out through one is
    # not kept. Such a callee must be
    # one the compiler writes as a call, never in place of it.
    def tracked(self, name: str) -> frozenset[str] | None:
        """The game variables a procedure reads, itself or through the procedures it calls
        that read only variables, if it reads nothing else of the game but through calls
        that are marked (see above); None if it does."""
        if name in self._tracked:
            return self._tracked[name]
        self._tracked[name] = None        # (recursion is refused: see _memo)
        d = self._decls.get(name)
        got = None
        # (not one that remembers its answers for an entry: a remembered answer worked out
        # through a call that reads more would be given again unmarked)
        if isinstance(d, A.ProcedureDecl) and name not in self.p.interactive and name not in self.remembered \
                and name not in self.walkers and self.callee_leaves_game_alone(name):
            got = self.vars_read_only(d.body, frozenset())
        self._tracked[name] = got
        return got

    def vars_read_only(self, body: Any, units: frozenset[str]) -> frozenset[str] | None:
        """As `tracked`, for code; `units`: Unit parameters whose marks it may read (through
        `ctx.pieces`, checked by the caller)."""
        out: set[str] = set()
        for n in _nodes(body):
            if isinstance(n, A.Name):
                kind = self.info.names.get(id(n))
                if kind == "var":
                    out.add(n.name)
                elif kind == "procref" and not self.board_only(n.name):
                    return None
            if not isinstance(n, A.Call):
                continue
            if not isinstance(n.func, A.Name) or id(n) in self.info.partials:
                return None
            kind, name = self.info.calls.get(id(n)), n.func.name
            if kind == "builtin":
                if name == "choose":
                    return None
                continue
            if kind == "primitive":
                spec = self.reg.primitives[name]
                inline = spec.inline.replace("ctx.board", "")
                if units and n.args and isinstance(n.args[0], A.Name) and n.args[0].name in units:
                    inline = inline.replace("ctx.pieces.get({0}.id, {0})", "")
                if not (spec.board or spec.inline and "ctx" not in inline):
                    return None
                continue
            if kind == "table" or kind in ("procedure", "base") and self.board_only(self.callee(n) or ""):
                continue
            if kind not in ("procedure", "base"):
                return None
            callee = self.callee(n) or ""
            inner = self.tracked(callee)
            if inner is not None:
                out |= inner
            elif not self.written_as_call(callee):
                return None
        return frozenset(out)

    def written_as_call(self, name: str) -> bool:
        """Is every call of the procedure written as a call (never its body in place of it)?"""
        return self.inline_body(name) is None and self.search_body(name) is None \
            and self.search_body(name, loops=True) is None

    def untracked(self, e: A.Call) -> bool:
        """A call from a procedure that reads only variables into one that reads more."""
        kind = self.info.calls.get(id(e))
        if kind not in ("procedure", "base", "sequence"):
            return False
        callee = self.callee(e) or ""
        return not self.board_only(callee) and self.tracked(callee) is None

    def tracked_callees(self, body: Any) -> set[str]:
        out: set[str] = set()
        for n in _nodes(body):
            if isinstance(n, A.Call) and isinstance(n.func, A.Name) and self.info.calls.get(id(n)) in ("procedure", "base"):
                callee = self.callee(n) or ""
                if callee not in out and not self.board_only(callee) and self.tracked(callee) is not None:
                    out.add(callee)
                    d = self._decls.get(callee)
                    out |= self.tracked_callees(d.body if isinstance(d, A.ProcedureDecl) else ())
        return out

    def var_reads_kept(self, pr: A.ProcedureDecl) -> tuple[list[str], list[str], list[str]] | None:
        """For a procedure that walks and reads only variables (see above): the variables
        it reads, its Unit parameters, and those whose marks it reads; else None."""
        if pr.ret is None or pr.name in self.p.interactive or pr.name in self.kept or pr.name in self.remembered \
                or pr.name in self.walkers or pr.name in self.piece_kept or pr.name in self.space_kept:
            return None
        unit = self.unit_rec.name if self.unit_rec is not None else None
        units = [prm.name for prm in pr.params if prm.type.name == unit and not prm.type.args]
        if not all(_plain(prm.type) or prm.name in units for prm in pr.params):
            return None
        ret = pr.ret
        if not (_plain(ret, lists=True) or ret.name == "list" and len(ret.args) == 1 and ret.args[0].name == unit
                and not ret.args[0].args):
            return None
        if not _nested_loop(pr.body) or self.board_only(pr.name) or not self.callee_leaves_game_alone(pr.name):
            return None
        got = self.vars_read_only(pr.body, frozenset(units))
        if not got:
            return None     # (reading no variable, all it reads of the game is through marked calls)
        marks = [u for u in units if any(
            isinstance(n, A.Call) and isinstance(n.func, A.Name) and self.info.calls.get(id(n)) == "primitive"
            and "ctx.pieces" in self.reg.primitives[n.func.name].inline and n.args
            and isinstance(n.args[0], A.Name) and n.args[0].name == u for n in _nodes(pr.body))]
        return sorted(got), units, marks

    def var_kept_answers(self, pr: A.ProcedureDecl, params: str) -> None:
        """`f_NAME`: the answer kept for these arguments while the variables it read and its
        units are the same objects (a list kept as a tuple and handed out as a fresh list),
        or worked out afresh by `f_NAME__work` and kept if no marked call was made."""
        names, units, marks = self.var_kept[pr.name]
        now = [f"v_{u}" for u in units] + [f"_vs.get({v!r})" for v in names]
        current = [f"ctx.pieces.get(v_{u}.id) is v_{u}" for u in marks]
        same = " and ".join([f"_r[{i}] is {code}" for i, code in enumerate(now)] + current) or "True"
        self.kept_wrapper(pr, params, "V", [f"v_{prm.name}.id" if prm.name in units else f"v_{prm.name}"
                                            for prm in pr.params], now, same,
                          keep=" and ".join(["not _NT", *current]), read="\n_vs = ctx.vars",
                          marked=("_s = 1 in _NT\n_NT.clear()\n", "if _s:\n    _NTA(1)\n"))

    def kept_wrapper(self, pr: A.ProcedureDecl, params: str, prefix: str, parts: list[str], now: list[str],
                     same: str, keep: str, read: str = "", marked: tuple[str, str] = ("", "")) -> None:
        """`f_NAME` for an answer kept between decisions by what it read (`piece_kept_answers`,
        `var_kept_answers`): keyed by `parts`, the code of each argument's key; kept with
        `now`, what it read; given again when `same` holds of the kept `_r` (after `read`
        set up its names); else worked out by `f_NAME__work` (between `marked`'s two parts)
        and kept when `keep` holds. A list is kept as a tuple and handed out as a fresh list.
        The dict `_{prefix}_NAME`, its calls `_{prefix}C_NAME` and answers found `_{prefix}H_NAME`:
        after `KEEP_TRIAL` calls that found fewer than one in `KEEP_FOUND`, the name is bound
        to the work (answers seldom found again are not worth keeping)."""
        n = pr.name
        kept, calls, hits = f"_{prefix}_{n}", f"_{prefix}C_{n}", f"_{prefix}H_{n}"
        key = {0: "()", 1: "".join(parts)}.get(len(parts), f"({', '.join(parts)})")
        as_list = pr.ret is not None and pr.ret.name == "list"
        work = f"f_{n}__work(ctx{params})"
        self.emit(0, f"{kept} = {{}}\n{calls} = 0\n{hits} = 0", pr.pos)
        self.emit(0, f"def f_{n}(ctx{params}):", pr.pos)
        self.emit(1, f"global {calls}, {hits}, f_{n}", pr.pos)
        self.emit(1, f"if ctx is None:\n    return {work}", pr.pos)     # (rules run on no game)
        self.emit(1, f"if ctx.board is not _KB:\n    _forget(ctx)\n_k = {key}\n_r = {kept}.get(_k)\n"
                     f"{calls} += 1{read}", pr.pos)
        self.emit(1, f"if _r is not None and {same}:", pr.pos)
        self.emit(2, f"{hits} += 1\nreturn {'list(_r[-1])' if as_list else '_r[-1]'}", pr.pos)
        self.trial(1, pr, f"f_{n}", calls, hits, KEEP_TRIAL)
        self.emit(1, f"{marked[0]}_v = {work}", pr.pos)
        self.emit(1, f"if {keep}:", pr.pos)
        self.emit(2, f"if len({kept}) >= {KEPT_MAX}:\n    {kept}.clear()", pr.pos)
        self.emit(2, f"{kept}[_k] = ({', '.join(now + ['tuple(_v)' if as_list else '_v'])})", pr.pos)
        self.emit(1, f"{marked[1]}return _v", pr.pos)

    def trial(self, ind: int, pr: A.ProcedureDecl, name: str, calls: str, hits: str, trial: int,
              held: tuple[str, str] | None = None) -> None:
        """The end of a keeping wrapper's trial (`kept_wrapper`, `remembered_answers`), once
        `calls` (already counted) reaches `trial`: if fewer than one in `KEEP_FOUND` found its
        answer (`hits`), `name` is bound to its work (answers seldom found again are not worth
        keeping); either way the count is put out of reach, so that the test is made once.
        With `held` (the dict of answers, and the call of the work): on stopping, the answers
        are dropped, and the wrapper itself, which a caller such as the loader may hold, goes
        straight to the work from then on (its count stays past the trial)."""
        self.emit(ind, f"if {calls} >= {trial}:", pr.pos)
        if held is not None:
            self.emit(ind + 1, f"if {calls} > {trial}:\n    return {held[1]}", pr.pos)
        stop = f"\n    {held[0]}.clear()\n    return {held[1]}" if held is not None else ""
        self.emit(ind + 1, f"if {hits} * {KEEP_FOUND} < {calls}:\n    {name} = {name}__work{stop}\n"
                           f"{calls} = -(1 << 62)", pr.pos)

    # A decision's listing enters the rules several times on one state that nothing changes
    # meanwhile: its player (`by`), each move's choices and guards. Bulge's stacking step asks
    # `overstacked_hex()` and `movers_in(over)` (every unit of the hex, where it may retreat)
    # in all three. A procedure that two or more of a step's listing entries reach (through
    # what they call), if every one of those entries leaves the game alone, is remembered
    # through the listing: its answers, keyed by its arguments, are given again until the
    # listing ends (the engine begins and ends it: dsl.runtime.ListingSpan), on the state
    # listed only. Only one that leaves the game alone, is given text, numbers, truth values
    # or lists of them, goes round a loop inside a loop of its own (`loops_over_loops`), and is not kept or
    # remembered otherwise; it is written as a call, not in place. Whether its answers are
    # found again the compiler cannot tell: of its first ALIKE_TRIAL calls (in a listing or
    # not), one that found fewer than one in KEEP_FOUND stops remembering.
    def listed_procedures(self) -> tuple[set[str], set[str]]:
        """The procedures remembered through a listing, and the steps that remember them."""
        others = self.kept | self.remembered | set(self.piece_kept) | set(self.var_kept) | self.p.interactive \
            | set(self.space_kept)
        # (nor one that a procedure kept by the spaces it reads calls: a remembered answer
        # given within its work would read no space)
        for name in self.space_kept:
            others |= self.reached(self.p.procedures[name].body)
        listed: set[str] = set()
        steps: set[str] = set()
        for st in self.p.steps.values():
            entries: list[Any] = [st.by] if st.by is not None else []
            for mv in st.moves:
                guard_n = self.p.guards.get((st.name, mv.name), 0)
                entries.append(([prm.domain for prm in mv.params], mv.body[:guard_n]))
            if len(entries) < 2 or not all(self.leaves_game_alone(e) for e in entries):
                continue
            seen: dict[str, int] = {}
            for e in entries:
                for name in self.reached(e):
                    seen[name] = seen.get(name, 0) + 1
            found = set()
            for name, times in seen.items():
                pr = self._decls.get(name)
                if times >= 2 and name not in others and isinstance(pr, A.ProcedureDecl) \
                        and name in self.p.procedures and pr.ret is not None \
                        and all(_plain(prm.type, lists=True) for prm in pr.params) \
                        and self.callee_leaves_game_alone(name) and self.loops_over_loops(pr.body):
                    found.add(name)
            if found:
                listed |= found
                steps.add(st.name)
        return listed, steps

    def loops_over_loops(self, body: Any) -> bool:
        """Does the code go round a loop of its own in which it goes round another (its own or
        a callee's)? (One that does less costs less to work out again than to remember.)"""
        for n in _nodes(body):
            if isinstance(n, (A.For, A.Generator)):
                for m in _nodes((n.cond, n.body) if isinstance(n, A.For) else (n.elt, n.cond)):
                    if isinstance(m, (A.For, A.Generator)) or isinstance(m, A.Call) and isinstance(m.func, A.Name) \
                            and self.info.calls.get(id(m)) in ("procedure", "base") and self.callee_loops(self.callee(m) or ""):
                        return True
        return False

    def reached(self, node: Any) -> frozenset[str]:
        """The procedures a piece of code calls, and those they call, and so on."""
        out: set[str] = set()
        todo = [self.callee(n) for n in _nodes(node) if isinstance(n, A.Call) and isinstance(n.func, A.Name)]
        while todo:
            name = todo.pop()
            if name is None or name in out or name.startswith("t:"):
                continue
            out.add(name)
            d = self._decls.get(name)
            if name not in self._reach:
                self._reach[name] = frozenset(
                    c for c in (self.callee(n) for n in _nodes(d) if isinstance(n, A.Call) and isinstance(n.func, A.Name))
                    if c is not None)
            todo.extend(self._reach[name])
        return frozenset(out)

    def listed_answers(self, pr: A.ProcedureDecl, params: str) -> None:
        """`f_NAME`: within a listing of the state `ctx` (`_LS.state`), the answer remembered
        for these arguments, or worked out by `f_NAME__work` and remembered (a list as a
        tuple, handed out as a fresh list; a map as a copy); outside one, the work."""
        n = pr.name
        work = f"f_{n}__work(ctx{params})"
        parts = [f"tuple(v_{prm.name})" if prm.type.name == "list" else f"v_{prm.name}" for prm in pr.params]
        key = {0: "()", 1: "".join(parts)}.get(len(parts), f"({', '.join(parts)})")
        ret = pr.ret.name if pr.ret is not None else ""
        self.emit(0, f"_LM_{n} = {{}}\n_LC{n} = 0\n_LH{n} = 0", pr.pos)
        self.emit(0, f"def f_{n}(ctx{params}):", pr.pos)
        self.emit(1, f"global _LC{n}, _LH{n}, f_{n}", pr.pos)
        self.emit(1, f"_LC{n} += 1", pr.pos)
        self.trial(1, pr, f"f_{n}", f"_LC{n}", f"_LH{n}", ALIKE_TRIAL, held=(f"_LM_{n}", work))
        self.emit(1, f"if _LS.state is not ctx:\n    return {work}", pr.pos)
        self.emit(1, f"_k = {key}\n_r = _LM_{n}.get(_k, _MISS)\nif _r is not _MISS:", pr.pos)
        given = {"list": "list(_r)", "map": "dict(_r)"}.get(ret, "_r")
        self.emit(2, f"_LH{n} += 1\nreturn {given}", pr.pos)
        self.emit(1, f"_v = {work}", pr.pos)
        kept = {"list": "tuple(_v)", "map": "dict(_v)"}.get(ret, "_v")
        self.emit(1, f"if not _LM_{n}:\n    _LS.used.append(_LM_{n})\n_LM_{n}[_k] = {kept}\nreturn _v", pr.pos)

    def forget_readers(self, var: str, ind: int, pos: Pos | None) -> None:
        """After a game variable is set: its remembered readers' answers are forgotten."""
        for name in self.readers.get(var, ()):
            self.emit(ind, f"_A_{name}.clear()", pos)

    def kept_answers(self, pr: A.ProcedureDecl, params: str) -> None:
        """`f_NAME`: the kept answer for these arguments, worked out by `f_NAME__work` the
        first time (a list is kept as a tuple and handed out as a fresh list, a map handed
        out as a fresh copy; a list given is keyed as a tuple)."""
        n = pr.name
        parts = [f"tuple(v_{prm.name})" if prm.type.name == "list" else f"v_{prm.name}" for prm in pr.params]
        key = {0: "()", 1: "".join(parts)}.get(len(parts), f"({', '.join(parts)})")
        as_list = pr.ret is not None and pr.ret.name == "list"
        as_map = pr.ret is not None and pr.ret.name == "map"
        # a map, or an answer to a list, is larger to keep and met again less often: fewer are kept
        most = KEPT_MAPS if as_map or any(prm.type.name == "list" for prm in pr.params) else KEPT_MAX
        self.emit(0, f"_K_{n} = {{}}", pr.pos)
        self.emit(0, f"def f_{n}(ctx{params}):", pr.pos)
        work = f"f_{n}__work(ctx{params})"
        self.emit(1, f"if ctx is None:\n    return {work}", pr.pos)     # (rules run on no game)
        self.emit(1, f"if ctx.board is not _KB:\n    _forget(ctx)\n"
                     f"_k = {key}\n_r = _K_{n}.get(_k, _MISS)\nif _r is _MISS:", pr.pos)
        self.emit(2, f"_r = {'tuple(' + work + ')' if as_list else work}", pr.pos)
        self.emit(2, f"if len(_K_{n}) >= {most}:\n    _K_{n}.clear()\n_K_{n}[_k] = _r", pr.pos)
        self.emit(1, f"return {'list(_r)' if as_list else 'dict(_r)' if as_map else '_r'}", pr.pos)

    # ------------------------------------------------------------------ tasks
    # A block that asks a player (it calls `choose`, itself or through the procedures it
    # calls) is written a second time as a generator, `NAME_task`: at a `choose` it yields the
    # question, and the engine sends back the answer with the state to go on in, so that an
    # answer does not run the block again from its start (engine.rules_logic). Each procedure
    # on the way is written so too (`h_NAME`), and every function of a task gives back its
    # answer and the state it ended in. That is possible where every asking call is a whole
    # statement (`let x = choose(...)`, `take_hits(...)`, `return battle(...)`); a block with
    # one anywhere else (in a condition, inside an expression) is replayed instead.
    def asking_callee(self, n: Any) -> str | None:
        """For a call into code that asks: the generator it is made through in a task
        (`_choose`, or `h_NAME`); None for any other node."""
        if not (isinstance(n, A.Call) and isinstance(n.func, A.Name)):
            return None
        kind, name = self.info.calls.get(id(n)), n.func.name
        if kind == "builtin":
            return "_choose" if name == "choose" else None
        if kind == "base":
            name = self.info.names.get(id(n), "")
        elif kind not in ("procedure", "sequence"):
            return None
        return "h_" + name if self.callee_asks(name) else None

    def callee_asks(self, name: str) -> bool:
        d = self._decls.get(name)
        if isinstance(d, A.SequenceDecl):
            return _memo(self._calls_ask, name, False, lambda: name in self.p.interactive or any(
                self.callee_asks(step) for step, _ in d.steps))
        return _memo(self._calls_ask, name, False, lambda: isinstance(d, A.ProcedureDecl) and (
            name in self.p.interactive or any(self.asking_callee(n) for n in _nodes(d.body))))

    def asks_in(self, node: Any) -> bool:
        return any(self.asking_callee(n) or (isinstance(n, A.Name) and self.info.names.get(id(n)) == "procref"
                                             and n.name in self.p.interactive) for n in _nodes(node))

    def whole_call(self, e: A.Expr | None) -> bool:
        """Is `e` a call into asking code, with arguments that do not ask?"""
        target = self.asking_callee(e)
        return isinstance(e, A.Call) and target is not None and not self.asks_in(e.args) \
            and (target == "_choose" or self.callee_resumable(target[2:]))

    def resumable(self, stmts: tuple[A.Stmt, ...]) -> bool:
        for st in stmts:
            if isinstance(st, A.Let) and self.whole_call(st.value):
                continue
            if isinstance(st, A.ExprStmt) and self.whole_call(st.expr):
                continue
            if isinstance(st, A.Return) and self.whole_call(st.value):
                continue
            if isinstance(st, A.Assign) and self.local_set(st) and self.whole_call(st.value):
                continue
            if isinstance(st, A.If):
                if self.asks_in(st.cond) or not self.resumable(st.body) or not self.resumable(st.orelse):
                    return False
            elif isinstance(st, A.For):
                if self.asks_in((st.iter, st.cond)) or not self.resumable(st.body):
                    return False
            elif self.asks_in(st):
                return False
        return True

    def local_set(self, st: A.Stmt) -> bool:
        """`x = ...` for a local x."""
        return isinstance(st, A.Assign) and st.op == "=" and isinstance(st.target, A.Name) \
            and self.var_root(st.target) is None

    def callee_resumable(self, name: str) -> bool:
        d = self._decls.get(name)
        if isinstance(d, A.SequenceDecl):
            return _memo(self._resumable, name, False, lambda: not self.asks_in(d.while_) and all(
                self.callee_resumable(step) for step, _ in d.steps if self.callee_asks(step)))
        return _memo(self._resumable, name, False,
                     lambda: isinstance(d, A.ProcedureDecl) and self.resumable(d.body))

    def task(self, name: str, params: str, stmts: tuple[A.Stmt, ...], pos: Pos | None) -> None:
        """`NAME_task`, the generator of a block that asks (when it can be written so)."""
        if not self.asks_in(stmts):
            return
        self.asking.add(name)
        if self.resumable(stmts):
            self.emit(0, f"def {name}_task(ctx{params}):", pos)
            self.costs[f"{name}_task"] = self.costs.get(name, (1, pos))
            self.task_body(stmts, 1)

    def task_body(self, stmts: tuple[A.Stmt, ...], indent: int, params: tuple[A.Param, ...] = ()) -> None:
        self.in_task = True
        self.function_body(stmts, indent, params)
        self.emit(indent, "return None, ctx", None)
        self.in_task = False

    def task_call(self, e: A.Expr) -> str:
        """`yield from` the generator of an asking call (its answer and the state after it)."""
        assert isinstance(e, A.Call)
        target = self.asking_callee(e)
        if target == "_choose":
            code = self.call(e)
            assert code.startswith("ctx.choose(")
            return "(yield from _choose(ctx, " + code[len("ctx.choose("):] + ")"
        return f"(yield from {target}({', '.join(['ctx'] + [self.expr(a) for a in e.args])}))"

    # ------------------------------------------------------------------ steps and moves
    def subsequence(self, sq: A.SequenceDecl, task: bool = False) -> None:
        """`f_NAME`; with `task`, `h_NAME`, its generator in a task (see "tasks")."""
        params = "".join(f", v_{prm.name}" for prm in sq.params)
        args = "".join(f", v_{prm.name}" for prm in sq.params)
        self.emit(0, f"def {'h' if task else 'f'}_{sq.name}(ctx{params}):", sq.pos)
        self.costs[f"f_{sq.name}"] = (self.callee_cost(sq.name), sq.pos)

        def call(name: str) -> str:
            if task and self.callee_asks(name):
                return f"_r, ctx = yield from h_{name}(ctx{args})"
            return f"f_{name}(ctx{args})"

        if sq.while_ is None:
            for name, pos in sq.steps:
                self.emit(1, call(name), pos)
            if not sq.steps:
                self.emit(1, "pass", None)
        else:
            self.emit(1, "for _round in _rounds():", sq.pos)
            self.charge(2, None, 1 + self.size(sq.while_) + sum(self.callee_cost(name) for name, _ in sq.steps),
                        sq.pos)
            self.emit(2, f"if not {self.expr(sq.while_)}:\n    break", sq.while_.pos)
            for name, pos in sq.steps:
                self.emit(2, call(name), pos)
            # never silently: a battle still going on after MAX_ROUNDS rounds is a rules bug
            self.emit(1, f"else:\n    _endless({sq.name!r})", sq.while_.pos)
        if task:
            self.emit(1, "return None, ctx", None)
        elif sq.while_ is not None:
            # one round of it, for a caller that walks the rounds itself (a battle calculator
            # enumerating each round's dice): False, doing nothing, when its `while` says stop
            self.emit(0, f"def f_{sq.name}__round(ctx{params}):", sq.pos)
            self.costs[f"f_{sq.name}__round"] = (self.callee_cost(sq.name), sq.pos)
            self.emit(1, f"if not {self.expr(sq.while_)}:\n    return False", sq.while_.pos)
            for name, pos in sq.steps:
                self.emit(1, call(name), pos)
            self.emit(1, "return True", None)

    def step(self, st: A.StepDecl) -> None:
        n = st.name
        for part, node in (("by", st.by), ("while", st.while_), ("start", st.start), ("end", st.end)):
            if node is not None:
                self.entry(f"s_{n}_{part}", node, st.pos)
        if st.finish is not None:
            self.entry(f"s_{n}_finish", st.finish.body, st.finish.pos)
            self.entry(f"s_{n}_finish_label", st.finish.label, st.finish.pos)
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
                self.task(f"s_{n}_{part}", "", blk, st.pos)
        if st.finish is not None:
            self.emit(0, f"def s_{n}_finish(ctx):", st.finish.pos)
            self.function_body(st.finish.body, 1)
            self.task(f"s_{n}_finish", "", st.finish.body, st.finish.pos)
            self.emit(0, f"def s_{n}_finish_label(ctx):", st.finish.pos)
            self.emit(1, f"return {self.expr(st.finish.label)}", st.finish.label.pos)
        for mv in st.moves:
            self.move(st, mv)
        if n in self.listing_steps:
            self.emit(0, f"s_{n}_listed = True", st.pos)
        # a move whose first choices an earlier move of the step lists the same way, asking
        # nothing that changes the game: the engine may give it that move's (engine.rules_logic)
        for i, mv in enumerate(st.moves):
            if not mv.params or not self.leaves_game_alone(mv.params[0].domain):
                continue
            same = next((o for o in st.moves[:i] if o.params and _same_tree(o.params[0].domain, mv.params[0].domain)),
                        None)
            if same is not None:
                self.emit(0, f"m_{n}_{mv.name}_first_as = {same.name!r}", mv.pos)

    def move(self, st: A.StepDecl, mv: A.MoveDecl) -> None:
        base = f"m_{st.name}_{mv.name}"
        guard_n = self.p.guards.get((st.name, mv.name), 0)
        guard, rest = mv.body[:guard_n], mv.body[guard_n:]
        params = "".join(f", v_{prm.name}" for prm in mv.params)
        self.aliases = self.aliasable(mv.body)
        self.entry(f"{base}_check", ([prm.domain for prm in mv.params], [prm.reason for prm in mv.params], guard),
                   mv.pos)
        self.entry(f"{base}_do", mv.body, mv.pos)
        self.entry(f"{base}_label", mv.label, mv.pos)
        # the options: every combination of the parameters' choices that meets the guard
        self.offers(base, mv, guard)
        # the validation of one answer: the first rule it breaks, in the rules' words
        self.emit(0, f"def {base}_check(ctx{params}):", mv.pos)
        for prm in mv.params:
            reason = self.expr(prm.reason) if prm.reason is not None else f"_notin({prm.name!r}, v_{prm.name})"
            self.emit(1, f"if v_{prm.name} not in {self.expr(prm.domain)}:\n    return {reason}", prm.pos)
        self.guard(guard, lambda g: self.expr(g.reason))
        self.emit(1, "return None", None)
        # what the move does (its guard has been checked)
        self.emit(0, f"def {base}_do(ctx{params}):", mv.pos)
        for g in guard:
            if isinstance(g, A.Let):
                self.stmt(g, 1)
        self.body(rest, 1)
        self.aliases = set()
        self.task(f"{base}_do", params, tuple(g for g in guard if isinstance(g, A.Let)) + rest, mv.pos)
        self.emit(0, f"def {base}_label(ctx{params}):", mv.pos)
        if mv.label is not None:
            self.emit(1, f"return {self.expr(mv.label)}", mv.label.pos)
        else:
            parts = " + ' ' + ".join(f"_show(v_{prm.name})" for prm in mv.params)
            self.emit(1, f"return {mv.name.replace('_', ' ')!r}" + (f" + ' ' + {parts}" if parts else ""), mv.pos)
        self.prior(base, mv, params)

    def prior(self, base: str, mv: A.MoveDecl, params: str) -> None:
        """A move's `prior`, as its label is: `{base}_prior(ctx, *args)`, a number (none is
        made for a move without one: the loader then gives the move no prior)."""
        if mv.prior is None:
            return
        self.entry(f"{base}_prior", mv.prior, mv.pos)
        self.emit(0, f"def {base}_prior(ctx{params}):", mv.pos)
        self.emit(1, f"return {self.expr(mv.prior)}", mv.prior.pos)

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
        # the budget: the call pays for its first choice list and the guard that names no
        # parameter; the loop over parameter i pays, as it starts, for each of its choices:
        # the next choice list and the guard that names the parameters up to i (so a loop
        # pays for the hoisted work as if it ran every time: an upper bound)
        at_level = [self.size([g for g, lv in zip(guard, levels) if lv == d]) for d in range(n + 1)]
        self.entry(f"{base}_offers", (mv.params[0].domain if mv.params else None, [g for g, lv in zip(guard, levels) if lv == 0]),
                   mv.pos)
        if n == 2 and not guard and domains[1] == 0:
            self.pairs(base, mv, at_level)
            return
        name = f"{base}_offers"
        if n == 2 and all(isinstance(self.info.types.get(id(prm.domain)), ListType) for prm in mv.params):
            when = self.passes_by_options(guard)
            if when is not None:
                self.nested(base, mv, at_level, domains[1] == 0, when)
                if when == "True":
                    return
                name = f"{base}_offers__rows"      # (the rows one by one, with the guard asked)
        # (a lazy move's listing may be given its choices, already worked out: `_given`)
        lazy = n == 1 and all(lv == 1 for lv in levels) and self.leaves_game_alone(list(guard))
        self.emit(0, f"def {name}(ctx{', _given=None' if lazy else ''}):", mv.pos)

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
            weight = 1 + at_level[i + 1] + (self.size(mv.params[i + 1].domain) if i + 1 < n else 0)
            if i in cached:
                self.emit(ind, f"if _d{i} is None:\n    _d{i} = {self.iterable(prm.domain)}", prm.pos)
                self.charge(ind, f"_d{i}", weight, prm.pos)
                self.emit(ind, f"for v_{prm.name} in _d{i}:", prm.pos)
            else:
                choices = f"({self.iterable(prm.domain)}) if _given is None else _given" if lazy \
                    else self.iterable(prm.domain)
                self.emit(ind, f"_i = {choices}", prm.pos)
                self.charge(ind, "_i", weight, prm.pos)
                self.emit(ind, f"for v_{prm.name} in _i:", prm.pos)
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
        if lazy:
            self.lazy_offers(base, mv.params[0], guard)

    def pairs(self, base: str, mv: A.MoveDecl, at_level: list[int]) -> None:
        """A move of two parameters with no guard, whose second choices do not depend on the
        first: its rows are every first choice with every second (`_pairs`, a sequence that
        makes a row only when it is indexed), not a generator the engine makes a list of.
        The budget is paid as the two loops would pay it."""
        first, second = mv.params
        self.emit(0, f"def {base}_offers(ctx):", mv.pos)
        self.emit(1, f"_i = tuple({self.iterable(first.domain)})", first.pos)
        self.charge(1, "_i", 1 + at_level[1] + self.size(second.domain), first.pos)
        self.emit(1, "if not _i:\n    return ()", first.pos)
        self.emit(1, f"_d1 = tuple({self.iterable(second.domain)})", second.pos)
        self.emit(1, f"if (_L := _L - len(_i) * len(_d1) * {1 + at_level[2]}) < 0:\n    _spent()", second.pos)
        self.emit(1, "return _pairs(_i, _d1)", mv.pos)

    def nested(self, base: str, mv: A.MoveDecl, at_level: list[int], once: bool, when: str) -> None:
        """A move of two parameters whose guard passes whenever `when` holds (code that reads
        only options: "True" for a move with no guard): then its rows are each first choice
        with each of its own second choices (`_nested`, a sequence counted by the lengths of
        the second lists, that makes a row only when it is indexed), not a generator the
        engine makes a list of; else the rows of `{base}_offers__rows`, the guard asked of
        each. The second list is worked out for each first choice (`once`: the first time
        only, as it names no first choice) and the budget paid, as the two loops would."""
        first, second = mv.params
        self.emit(0, f"def {base}_offers(ctx):", mv.pos)
        if when != "True":
            self.emit(1, f"if not ({when}):\n    return list({base}_offers__rows(ctx))", mv.pos)
        self.emit(1, f"_i = {self.iterable(first.domain)}", first.pos)
        self.charge(1, "_i", 1 + at_level[1] + self.size(second.domain), first.pos)
        self.emit(1, "_s = []" + ("\n_d1 = None" if once else ""), mv.pos)
        self.emit(1, f"for v_{first.name} in _i:", first.pos)
        if once:
            self.emit(2, f"if _d1 is None:\n    _d1 = {self.iterable(second.domain)}", second.pos)
            self.charge(2, "_d1", 1 + at_level[2], second.pos)
            self.emit(2, "_s.append(_d1)", second.pos)
        else:
            self.emit(2, f"_d1 = {self.iterable(second.domain)}", second.pos)
            self.charge(2, "_d1", 1 + at_level[2], second.pos)
            self.emit(2, "_s.append(_d1)", second.pos)
        self.emit(1, "return _nested(_i, _s)", mv.pos)

    # A guard that an option turns off (Bulge's `require not stacking_refuses(to, side,
    # pieces)`, whose procedure answers `stacking_on_move and overstacks(...)`) passes for
    # every row when that option is off: the rows are then counted as they are, the guard
    # not asked of each (`nested`).
    def passes_by_options(self, guard: tuple[A.Stmt, ...]) -> str | None:
        """Code reading only options under which every statement of the guard passes with
        nothing but options read (its tests stop there), or None if there is none: a guard
        of `require`s only, each of whose tests an option settles."""
        parts = []
        for g in guard:
            if not isinstance(g, A.Require):
                return None
            code = self.settled_by_options(g.cond, True)
            if code is None:
                return None
            parts.append(code)
        return " and ".join(f"({c})" for c in parts) if parts else "True"

    def settled_by_options(self, e: A.Expr, want: bool) -> str | None:
        """Code reading only options under which `e` comes out `want` having read nothing but
        options (and literals), stopping where Python's `and`/`or` stop; None if none. A
        procedure written in place of its call is looked into, if its arguments cost nothing
        to leave unread (names, literals, fields, lists of them)."""
        if isinstance(e, A.BoolLit):
            return "True" if e.value == want else None
        if isinstance(e, A.Name):
            if self.info.names.get(id(e)) != "option" or self.info.types.get(id(e)) != BOOL:
                return None
            return f"o_{e.name}" if want else f"not o_{e.name}"
        if isinstance(e, A.UnaryOp) and e.op == "not":
            return self.settled_by_options(e.operand, not want)
        if isinstance(e, A.BinOp) and e.op in ("and", "or"):
            left = self.settled_by_options(e.left, want)
            right = self.settled_by_options(e.right, want)
            if (e.op == "and") == want:
                # both sides are read, and both must come out `want`
                return f"({left}) and ({right})" if left is not None and right is not None else None
            # the left side alone may settle it; the right only once the left is read in full
            whole = self.settled_by_options(e.left, not want)
            if right is not None and whole is not None and self.options_only(e.left):
                return f"({left}) or ({right})" if left is not None else f"({whole}) and ({right})"
            return left
        if isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.gen is None \
                and self.info.calls.get(id(e)) == "procedure" and all(_unread_ok(a) for a in e.args):
            body = self.inline_body(e.func.name)
            if body is not None and len(self.subst) < _INLINE_DEPTH:
                return self.settled_by_options(body, want)
        return None

    def options_only(self, e: A.Expr) -> bool:
        """`e` reads nothing but options and literals (truth values, `and`, `or`, `not`)."""
        if isinstance(e, A.BoolLit):
            return True
        if isinstance(e, A.Name):
            return self.info.names.get(id(e)) == "option" and self.info.types.get(id(e)) == BOOL
        if isinstance(e, A.UnaryOp) and e.op == "not":
            return self.options_only(e.operand)
        if isinstance(e, A.BinOp) and e.op in ("and", "or"):
            return self.options_only(e.left) and self.options_only(e.right)
        return False

    def lazy_offers(self, base: str, prm: A.MoveParam, guard: tuple[A.Stmt, ...]) -> None:
        """A move of one parameter whose guard is a question only (see `leaves_game_alone`)
        is also given as its choices (`_candidates`) and the test of one of them (`_admits`,
        when it has a guard): a decision can then be answered at random, fairly, by asking
        the guard of the few options drawn instead of every one (engine.actions.Options)."""
        self.entry(f"{base}_candidates", prm.domain, prm.pos)
        self.emit(0, f"def {base}_candidates(ctx):", prm.pos)
        self.emit(1, f"_i = {self.iterable(prm.domain)}", prm.pos)
        self.charge(1, "_i", 1, prm.pos)
        self.emit(1, "return tuple(_i)", prm.pos)
        if not guard:
            return
        self.entry(f"{base}_admits", list(guard), guard[0].pos)
        self.emit(0, f"def {base}_admits(ctx, v_{prm.name}):", guard[0].pos)
        self.guard(guard, lambda g: "False")
        self.emit(1, "return True", None)

    def guard(self, guard: tuple[A.Stmt, ...], refusal: Callable[[A.Require], str]) -> None:
        """A move's guard as the body of a function: its lets, and each require returning
        `refusal(require)` when it fails."""
        for g in guard:
            if isinstance(g, A.Require):
                self.emit(1, f"if not {self.expr(g.cond)}:\n    return {refusal(g)}", g.pos)
            else:
                self.stmt(g, 1)

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
        self.costs[f"t_{tb.name}"] = (self.callee_cost("t:" + tb.name), tb.pos)
        self.emit(1, f"try:\n    return t_{tb.name}_d[{key}]\nexcept KeyError:\n    pass", None)
        if default is not None:
            self.emit(1, f"return {self.expr(default.value)}", default.pos)
        else:
            self.emit(1, f"return _tmiss({tb.name!r}, ({params},))", None)

    def plain(self, e: A.Expr) -> bool:
        """A literal or a name other than a game variable: its code may be written twice."""
        if isinstance(e, (A.StrLit, A.IntLit, A.BoolLit, A.FloatLit)):
            return True
        return isinstance(e, A.Name) and self.info.names.get(id(e)) != "var"

    def cheap(self, e: A.Expr) -> bool:
        """Plain, or a field or stat of something plain (`u.owner`): written twice, it is read
        twice and nothing else happens."""
        while isinstance(e, A.Attr):
            e = e.obj
        return self.plain(e)

    def table_default(self, name: str) -> str | None:
        """The code of a one-key table's default if it is a literal (a string, number or
        truth value: the same each time, nothing to evaluate), else None."""
        tb = self.p.tables.get(name)
        if tb is None or len(tb.params) != 1:
            return None
        for en in tb.entries:
            if en.keys is None:
                if isinstance(en.value, (A.StrLit, A.IntLit, A.BoolLit, A.FloatLit)):
                    return self.expr(en.value)
                return None
        return None

    # ------------------------------------------------------------------ statements
    def function_body(self, stmts: tuple[A.Stmt, ...], indent: int, params: tuple[A.Param, ...] = ()) -> None:
        """The body of one generated function."""
        self.aliases = self.aliasable(stmts)
        block, self.block = self.block, stmts
        own, self.own_lists = self.own_lists, {name: group for name, group in
                                               _own_lists(stmts, {prm.name for prm in params}).items()
                                               if not group & self.aliases}
        grown, self.grown = self.grown, []
        start = len(self.lines)
        self.body(stmts, indent)
        self.hoist(start, indent, [prm.name for prm in params], stmts)
        self.block = block
        self.own_lists, self.grown = own, grown
        self.aliases = set()

    def quiet(self) -> bool:
        """Does the function under way only ask about the game (see `hoist`)?"""
        if self.in_task or self.block is None:
            return False
        return self.of_block(self._quiet, self.leaves_game_alone)

    def changed_in_place(self) -> set[str] | None:
        """The locals the function under way changes in place (None: not known)."""
        if self.block is None:
            return None
        return self.of_block(self._changed, _changed_in_place)

    def of_block(self, cache: dict[int, tuple[Any, Any]], work: Callable[[Any], Any]) -> Any:
        """A fact about the function under way's body, worked out once."""
        kept = cache.get(id(self.block))
        if kept is None or kept[0] is not self.block:     # (an id outlives a block made for the call)
            kept = cache[id(self.block)] = (self.block, work(self.block))
        return kept[1]

    def answer_prior(self, let: A.Let, prompt: str, options: str) -> list[str]:
        """The prompt and options of `let x = choose(...) prior EXPR`: the prompt carries the
        prior of each answer to the question the engine puts to the player (`dsl.runtime.Asked`:
        a `str` to everything else), worked out only when a computer player asks for it, on
        the state asked on (a closure: it reads the block's locals as they stand while the
        block waits for its answer). A question without a prior is compiled as before."""
        assert let.prior is not None
        q = self.temp()
        self.in_lambda += 1
        value = self.expr(let.prior)
        self.in_lambda -= 1
        return [f"_asked({prompt}, ({q} := {options}), _weigh(lambda ctx, v_{let.name}: {value}))", q]

    def captured(self, e: A.Expr) -> list[str] | None:
        """The locals a `choose`'s labels read, to be bound when it asks so that the labels can
        be made later (when a player reads them, if ever); None when they must be made now: a
        local the block changes in place (`xs += ...`, `m[k] = ...`) would be read as it is
        then, and in a procedure written in place of its call the names are the caller's."""
        changed = self.changed_in_place()
        if self.subst or changed is None:
            return None
        called = {id(n.func) for n in _nodes(e) if isinstance(n, A.Call)}
        names = {n.name for n in _names(e) if id(n) not in called
                 and self.info.names.get(id(n), "local") == "local"} - _bound(e)
        if names & changed:
            return None
        return [f"v_{n}" for n in sorted(names)]

    # ------------------------------------------------------------------ current pieces
    # A unit value is the piece as it was when it was read; marks and cargo are read from the
    # piece as it is now (`ctx.pieces.get(u.id, u)`). A loop or a comprehension over a
    # primitive that answers the pieces as they are now (`units_at`, marked *current* in the
    # registry) whose body only asks about the game reads its unit as it stands: nothing can
    # change the piece before the body is done with it.
    def as_it_stands(self, it: A.Expr, var: str, scope: Any, code: list[str], name: str | None = None) -> list[str]:
        """The generated `code` of a loop's body (`scope`) over `it`, its unit `var` (in Python
        `name`, `v_var` unless said) read as it stands if it stays current there (the text is
        searched first: most bodies never look a piece up)."""
        name = name or f"v_{var}"
        looked_up = f"ctx.pieces.get({name}.id, {name})"
        if not any(looked_up in line for line in code) or not self.stays_current(it, var, scope):
            return code
        return [line.replace(looked_up, name) for line in code]

    def stays_current(self, it: A.Expr, var: str, scope: Any) -> bool:
        if not (isinstance(it, A.Call) and isinstance(it.func, A.Name) and self.info.calls.get(id(it)) == "primitive"
                and self.reg.primitives[it.func.name].current):
            return False
        return var not in _bound(scope) and self.leaves_game_alone(scope)

    # A unit's type is looked up once where a unit's name stays bound to one unit: a parameter
    # the body never binds again, a loop's unit for one round. And in code that only asks
    # about the game, the unit as it is now (`fresh`, which marks and cargo read) is looked up
    # once too: nothing changes it meanwhile.
    def hoist(self, start: int, indent: int, names: list[str], scope: Any, loop: bool = False) -> None:
        lines = self.lines
        text = "\n".join(lines[start:])
        if loop and "_later(" in text:
            return      # (labels made later would read the local of a later round)
        bound: set[str] | None = None
        for name in names:
            v = f"v_{name}"
            shared = [(f"U[{v}.kind]", f"_u_{name}"), (f"ctx.pieces.get({v}.id, {v})", f"_f_{name}")]
            for code, local in shared:
                if text.count(code) < 2 or (local[1] == "f" and not self.quiet()):
                    continue
                if bound is None:
                    bound = _bound(scope)
                if name in bound:
                    break
                # (in a loop, after the tests that skip a round without it: a loop's `where`
                # turns most items down before their type is needed)
                at, pad = start, "    " * indent
                while loop and at + 1 < len(lines) and lines[at].startswith(pad + "if not ") and code not in lines[at] \
                        and lines[at + 1] == pad + "    continue":
                    at += 2
                for i in range(start, len(lines)):
                    if code in lines[i]:
                        lines[i] = lines[i].replace(code, local)
                lines.insert(at, pad + f"{local} = {code}")
                self.linemap.insert(at + 1, self.linemap[at + 1] if at + 1 < len(self.linemap) else None)

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
        return self.peeked_call(e) is not None

    # A short procedure that answers with a game variable (`return if moving_side == side then
    # zoc_hexes else zoc_map(side)`) is written in place of its calls, and the variable read
    # there is a copy, as any read of one that is kept is. Where the call's answer is only
    # looked at (`x in P(...)`, or a `let` the procedure never changes: see `aliasable`), the
    # variable is read as stored instead: a fresh answer (the other branch's call) is no one
    # else's either.
    def peeked_call(self, e: A.Expr) -> A.Expr | None:
        """The expression of the short procedure `e` calls, when `e` is such a call and
        that expression answers with a game variable (as a branch of an `if`, at least)."""
        if not (isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.gen is None
                and self.info.calls.get(id(e)) == "procedure" and not self.in_lambda):
            return None
        body = self.inline_body(e.func.name)
        return body if body is not None and self.answers_var(body) else None

    def answers_var(self, e: A.Expr) -> bool:
        """Does the expression answer with a list or map game variable as stored (in a branch
        of an `if`, at least, or through a short procedure's call)?"""
        if isinstance(e, A.IfExpr):
            return self.answers_var(e.then) or self.answers_var(e.else_)
        if isinstance(e, A.Name):
            return self.info.names.get(id(e)) == "var" and isinstance(self.p.vars[e.name].type, (ListType, MapType))
        return self.peeked_call(e) is not None

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
        if isinstance(st, A.Let) and st.prior is not None:
            self.answer_priors[id(st.value)] = st
        if self.in_task:
            if isinstance(st, A.Let) and self.whole_call(st.value):
                self.emit(ind, f"v_{st.name}, ctx = {self.task_call(st.value)}", st.pos)
                return
            if isinstance(st, A.ExprStmt) and self.whole_call(st.expr):
                self.emit(ind, f"_r, ctx = {self.task_call(st.expr)}", st.pos)
                return
            if isinstance(st, A.Assign) and self.local_set(st) and self.whole_call(st.value):
                self.emit(ind, f"{self.target(st.target)}, ctx = {self.task_call(st.value)}", st.pos)
                return
            if isinstance(st, A.Return):
                if st.value is not None and self.whole_call(st.value):
                    self.emit(ind, f"return {self.task_call(st.value)}", st.pos)
                else:
                    self.emit(ind, "return None, ctx" if st.value is None else f"return ({self.expr(st.value)}), ctx",
                              st.pos)
                return
        if self.counting is not None and self.count_stmt(st, ind):
            return
        if isinstance(st, A.Let) and st.name not in self.aliases and self.loopable(st.value):
            self.loop_to_local(st.name, st.value, ind, st.pos)
        elif isinstance(st, A.Let):
            value = self.peek_value(st.value) if st.name in self.aliases else self.expr(st.value)
            self.emit(ind, f"v_{st.name} = {value}", st.pos)
        elif isinstance(st, A.Assign) and self.local_set(st) and self.loopable(st.value):
            assert isinstance(st.target, A.Name)
            self.loop_to_local(st.target.name, st.value, ind, st.pos)
        elif isinstance(st, A.Assign) and self.grown_by_comprehension(st):
            # `out += [u for u in units_at(s) where ...]`: a loop that grows the list itself,
            # not a comprehension (a call of its own in Python 3.11) and then a list added
            assert isinstance(st.value, A.ListComp)
            g = st.value.gen
            assert g.elt is not None
            grow = A.Assign(st.pos, st.target, "+=", A.ListLit(st.pos, (g.elt,)))
            loop = A.For(st.pos, g.var, g.var_pos, g.iter, g.cond, (grow,))
            self.made.append(loop)      # (kept: what is worked out of a node is keyed by its id)
            self.stmt(loop, ind)
        elif isinstance(st, A.Assign):
            self.assign(st, ind)
        elif isinstance(st, A.If) and self.loopable(st.cond):
            # (`if any(...) {`: the search first, as a loop that stops at what answers it)
            tmp = self.temp()
            self.loop_into(tmp, st.cond, ind, st.pos)
            self.emit(ind, f"if {tmp}:", st.pos)
            self.body(st.body, ind + 1)
            if st.orelse:
                self.emit(ind, "else:", st.pos)
                self.body(st.orelse, ind + 1)
        elif isinstance(st, A.If):
            self.emit(ind, f"if {self.expr(st.cond)}:", st.pos)
            self.body(st.body, ind + 1)
            if st.orelse:
                self.emit(ind, "else:", st.pos)
                self.body(st.orelse, ind + 1)
        elif isinstance(st, A.For):
            w = self.loop_weight(st)
            it = self.iterable(st.iter, self.kinds_looked_at(st.var, st.cond, st.body))
            ranged = it.startswith("_rng(")
            if ranged:
                # a range is often a bound that is seldom reached: pay as it goes round
                self.emit(ind, f"for v_{st.var} in {it}:", st.pos)
                self.charge(ind + 1, None, w, st.pos)
            else:
                self.emit(ind, f"_i = {it}", st.pos)
                self.charge(ind, "_i", w, st.pos, small=self.innermost(st))
                self.emit(ind, f"for v_{st.var} in _i:", st.pos)
            # a list of the procedure's own grown by an item or a few each time round a
            # collection (not a range, nor one that returns from inside) can grow only by
            # that many times the collection's size: its length is tested once, after
            grown: dict[str, Pos | None] | None = None
            if not ranged and not any(isinstance(n, A.Return) for n in A.nodes(st.body)):
                # (a list gone through while it grows is tested as it goes: it has no end)
                grown = dict.fromkeys(self.own_lists.get(st.iter.name, {st.iter.name}), None) \
                    if isinstance(st.iter, A.Name) else {}
                # (and one made inside the loop may not be there after it)
                grown.update(dict.fromkeys(_bound_in(st), None))
            self.grown.append(grown)
            start = len(self.lines)
            for c in _conjuncts(st.cond) if st.cond is not None else ():
                self.emit(ind + 1, f"if not ({self.expr(c)}):\n    continue", c.pos)
            self.body(st.body, ind + 1)
            self.lines[start:] = self.as_it_stands(st.iter, st.var, (st.cond, st.body), self.lines[start:])
            self.hoist(start, ind + 1, [st.var], (st.cond, st.body), loop=True)
            self.grown.pop()
            for name, pos in (grown or {}).items():
                if pos is not None:
                    self.emit(ind, f"if len(v_{name}) > _I:\n    _long(v_{name})", pos)
        elif isinstance(st, A.Return):
            if st.value is not None and self.search_return(st.value, ind, st.pos):
                pass
            elif st.value is not None and self.loopable(st.value):
                tmp = self.temp()
                self.loop_into(tmp, st.value, ind, st.pos)
                self.emit(ind, f"return {tmp}", st.pos)
            else:
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

    # `return any(u.attack > 0 for u in units_at(s))` is written as a loop that returns at the
    # first unit found: Python's any() over a generator costs three times as much for the few
    # items a space holds. So is `return a and any(...)` (and all(), and `not` either).
    def search_return(self, e: A.Expr, ind: int, pos: Pos | None, negated: bool = False) -> bool:
        """Write `return e` as a loop if e is a search (any or all over a generator); False if
        it is not one, and nothing was written."""
        if isinstance(e, A.UnaryOp) and e.op == "not":
            return self.search_return(e.operand, ind, pos, not negated)
        if isinstance(e, A.BinOp) and e.op in ("and", "or") and not negated and self.searches(e.right):
            # (`a and any(...)`: false without searching when a is false; `or`: true when a is)
            stop = "not " if e.op == "and" else ""
            self.emit(ind, f"if {stop}{self.expr(e.left)}:\n    return {e.op == 'or'}", pos)
            return self.search_return(e.right, ind, pos)
        if not self.searches(e):
            return False
        assert isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.gen is not None
        g, found = e.gen, e.func.name == "any"
        # any: the first item (that passes `where`) whose test holds answers true; all: the
        # first whose test fails answers false
        # (each test of an `and` on its own line, the first ones skipping the item: what is
        # looked up once for the item is looked up after those that do without it, `hoist`)
        if g.elt is None:
            assert g.cond is not None
            parts = [self.expr(c) for c in _conjuncts(g.cond)]
        else:
            parts = ([self.expr(c) for c in _conjuncts(g.cond)] if g.cond is not None else []) \
                + ([self.expr(c) for c in _conjuncts(g.elt)] if found else [f"not {self.expr(g.elt)}"])
        tmp = self.temp()
        # (the units `any` looks at are those its test may hold for; `all` looks at every one)
        looked = g.cond if g.cond is not None or not found else g.elt
        self.emit(ind, f"{tmp} = {self.iterable(g.iter, self.kinds_looked_at(g.var, looked))}", pos)
        self.charge(ind, tmp, self.gen_weight(g), pos, small=self.innermost(g))
        self.emit(ind, f"for v_{g.var} in {tmp}:", pos)
        start = len(self.lines)
        for x in parts[:-1]:
            self.emit(ind + 1, f"if not ({x}):\n    continue", pos)
        self.emit(ind + 1, f"if ({parts[-1]}):\n    return {found != negated}", pos)
        self.lines[start:] = self.as_it_stands(g.iter, g.var, (g.elt, g.cond), self.lines[start:])
        self.hoist(start, ind + 1, [g.var], (g.elt, g.cond), loop=True)
        self.emit(ind, f"return {found == negated}", pos)
        return True

    # `let ok = any(u.attack > 0 for u in units_at(s))`, `if any(...) {`, `let n = sum(...)`,
    # `return first(...)`: an aggregate that a statement takes whole is written as a loop
    # before it (that stops at the first item that answers, for any, all and first), not as a
    # comprehension or a generator, which Python runs as a function call of its own and, for
    # a generator, resumes for every item: the few items a space holds cost more to set up
    # than to look at. Its loop's variable is the rules' own name, so it may only be one that
    # the block does not use elsewhere (a loop's own name would be left behind by it).
    def loopable(self, e: A.Expr, fresh: bool = False) -> bool:
        """Can the statement taking `e` whole work it out as a loop (`loop_into`)? (`fresh`: a
        search whose item will be named afresh, inside a procedure written in place.)"""
        if self.in_lambda or self.block is None:
            return False
        if isinstance(e, A.UnaryOp) and e.op == "not":
            return self.loopable(e.operand) and self.info.types.get(id(e.operand)) == BOOL
        if isinstance(e, A.BinOp) and e.op in ("and", "or"):
            parts = _chain(e, e.op)
            return all(self.info.types.get(id(c)) == BOOL for c in parts) and any(self.loopable(c) for c in parts)
        if isinstance(e, A.Compare):
            # (`len(P(...)) > 0`, P a comprehension searched in its place: see `emptiness`)
            return self.emptied(e, loops=True) is not None
        if isinstance(e, A.ListComp):
            # (a list whose `where` searches: `[n for n in neighbours(h) where any(...)]`)
            return not self.subst and e.gen.cond is not None and self.own_name(e.gen) \
                and any(self.loopable(c) for c in _conjuncts(e.gen.cond))
        if isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.gen is None:
            # (a test written in place of its call whose own test is one: `if can_attack_from(h, side)`)
            body = self.inline_body(e.func.name) if self.info.calls.get(id(e)) == "procedure" else None
            if body is None or self.subst or self.info.types.get(id(e)) != BOOL:
                return False
            self.subst.append({})
            try:
                return self.loopable(body)
            finally:
                self.subst.pop()
        if not (isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.gen is not None
                and self.info.calls.get(id(e)) == "builtin"):
            return False
        name = e.func.name
        if name in ("any", "all"):
            ok = e.gen.elt is not None or e.gen.cond is not None
        elif name == "first":
            ok = True
        else:
            ok = name == "sum" and self.info.types.get(id(e)) == INT
        return ok and (fresh or bool(self.subst) or self.own_name(e.gen))

    def grown_by_comprehension(self, st: A.Assign) -> bool:
        """Is the statement `out += [... for ...]`, out a list of the procedure's own (see
        `_own_lists`) that the comprehension does not name (it would see the list grow), and
        the comprehension's variable a name the block uses nowhere else?"""
        if not (st.op == "+=" and isinstance(st.target, A.Name) and isinstance(st.value, A.ListComp)
                and st.value.gen.elt is not None
                and isinstance(self.info.types.get(id(st.target)), ListType)) or self.in_task:
            return False
        group = self.own_lists.get(st.target.name)
        return group is not None and not any(n.name in group for n in _names(st.value)) \
            and self.loopable_here() and self.own_name(st.value.gen)

    def loopable_here(self) -> bool:
        return not self.in_lambda and self.block is not None

    def own_name(self, g: A.Generator) -> bool:
        """Is the generator's variable a name the block under way uses nowhere else (nor
        binds), so that a loop there may bind it?"""
        var = g.var

        def clash(node: Any) -> bool:
            if isinstance(node, (list, tuple)):
                return any(clash(x) for x in node)
            if node is g:
                return clash(g.iter)
            if isinstance(node, A.Generator) and node.var == var:
                return clash(node.iter)
            if isinstance(node, A.Name):
                return node.name == var
            if isinstance(node, A.Let) and node.name == var or isinstance(node, A.For) and node.var == var:
                return True
            if not hasattr(node, "__dataclass_fields__"):
                return False
            return any(clash(getattr(node, f)) for f in node.__dataclass_fields__ if f != "pos")

        return not clash(self.block)

    def loop_to_local(self, name: str, e: A.Expr, ind: int, pos: Pos | None) -> None:
        """`let name = e` (or `name = e`) with loops: into the local itself, unless the loop
        reads it (then into a temporary, assigned after)."""
        local = f"v_{name}"
        if all(n.name != name for n in _names(e)):
            self.loop_into(local, e, ind, pos)
            return
        tmp = self.temp()
        self.loop_into(tmp, e, ind, pos)
        self.emit(ind, f"{local} = {tmp}", pos)

    def loop_into(self, target: str, e: A.Expr, ind: int, pos: Pos | None) -> None:
        """Set the Python name `target` to `e`, one that `loopable` accepts, with loops."""
        if isinstance(e, A.UnaryOp):
            self.loop_into(target, e.operand, ind, pos)
            self.emit(ind, f"{target} = not {target}", pos)
            return
        if isinstance(e, A.BinOp):
            self.chain_into(target, e.op, _chain(e, e.op), ind, pos)
            return
        if isinstance(e, A.Compare):
            emptied = self.emptied(e, loops=True)
            assert emptied is not None
            self.emptiness_into(target, *emptied, ind, pos)
            return
        if isinstance(e, A.ListComp):
            self.list_into(target, e.gen, ind, pos)
            return
        assert isinstance(e, A.Call) and isinstance(e.func, A.Name)
        if e.gen is None:
            # a procedure written in place of its call: its test, its arguments bound first
            body = self.inline_body(e.func.name)
            assert body is not None
            pr = self._decls[e.func.name]
            codes, first = self.bind_arguments(e.args, [self.expr(a) for a in e.args])
            for bound in first:
                self.emit(ind, bound, pos)
            self.subst.append({prm.name: code for prm, code in zip(pr.params, codes)})
            try:
                self.loop_into(target, body, ind, pos)
            finally:
                self.subst.pop()
            return
        g, name = e.gen, e.func.name
        if self.subst:
            # a search inside a procedure written in place of its call (`emptiness_into`): its
            # item named afresh, so that no name of the caller's is bound by the loop
            scope = self.subst[-1]
            before = scope.get(g.var)
            scope[g.var] = item = self.temp()
            try:
                self.search_into(target, e, g, name, item, ind, pos)
            finally:
                if before is None:
                    del scope[g.var]
                else:
                    scope[g.var] = before
            return
        self.search_into(target, e, g, name, f"v_{g.var}", ind, pos)

    def search_into(self, target: str, e: A.Call, g: A.Generator, name: str, item: str, ind: int,
                    pos: Pos | None) -> None:
        """`loop_into` for a search (`any`, `all`, `first`, `sum`), its item `item` in Python."""
        conds = [self.expr(c) for c in _conjuncts(g.cond)] if g.cond is not None else []
        if name in ("any", "all"):
            found = name == "any"
            if g.elt is None:
                tests = conds
            else:
                tests = conds + ([self.expr(c) for c in _conjuncts(g.elt)] if found else [f"not {self.expr(g.elt)}"])
            looked = g.cond if g.cond is not None or not found else g.elt
            self.emit(ind, f"{target} = {not found}", pos)
            skips, last = tests[:-1], [f"if ({tests[-1]}):", f"    {target} = {found}", "    break"]
        elif name == "first":
            looked = g.cond
            skips = conds
            last = [f"{target} = {self.expr(g.elt) if g.elt is not None else item}", "break"]
        else:
            looked = g.cond
            skips = conds
            self.emit(ind, f"{target} = 0", pos)
            last = [f"{target} += {self.summed(g.elt) if g.elt is not None else item}"]
        tmp = self.temp()
        self.emit(ind, f"{tmp} = {self.iterable(g.iter, self.kinds_looked_at(g.var, looked))}", pos)
        self.charge(ind, tmp, self.gen_weight(g), pos, small=self.innermost(g))
        self.emit(ind, f"for {item} in {tmp}:", pos)
        start = len(self.lines)
        for x in skips:
            self.emit(ind + 1, f"if not ({x}):\n    continue", pos)
        self.emit(ind + 1, "\n".join(last), pos)
        self.lines[start:] = self.as_it_stands(g.iter, g.var, (g.elt, g.cond), self.lines[start:], item)
        if item == f"v_{g.var}":
            self.hoist(start, ind + 1, [g.var], (g.elt, g.cond), loop=True)
        if name == "first":
            self.emit(ind, "else:\n    _first(())", pos)
        elif name == "sum":
            self.emit(ind, f"if not -{_COMPACT} <= {target} <= {_COMPACT}:\n    _ci({target})", pos)

    def chain_into(self, target: str, op: str, parts: list[A.Expr], ind: int, pos: Pos | None) -> None:
        """`a and b and ...` (or `or`) into `target`, in order, each search a loop, the rest
        not looked at once the answer is known (`a and any(...)`: false without searching
        when a is false; `or`: true when a is); plain tests in a row are one expression."""
        plain = []
        while parts and not self.loopable(parts[0]):
            plain.append(self.expr(parts.pop(0)))
        if plain:
            self.emit(ind, f"{target} = {f' {op} '.join(plain) if len(plain) > 1 else plain[0]}", pos)
            if not parts:
                return
            self.emit(ind, f"if {'' if op == 'and' else 'not '}{target}:", pos)
            ind += 1
        self.loop_into(target, parts.pop(0), ind, pos)
        if parts:
            self.emit(ind, f"if {'' if op == 'and' else 'not '}{target}:", pos)
            self.chain_into(target, op, parts, ind + 1, pos)

    def emptiness_into(self, target: str, call: A.Call, nonempty: bool, ind: int, pos: Pos | None) -> None:
        """`len(P(...)) > 0` (or `== 0`) into `target` as a loop over P's comprehension that
        stops at the first item in it, P's arguments and `let`s bound first as `searched`
        binds them (its variable named afresh)."""
        assert isinstance(call.func, A.Name)
        found = self.search_body(call.func.name, loops=True)
        assert found is not None
        lets, g = found
        pr = self._decls[call.func.name]
        codes, first = self.bind_arguments(call.args, [self.expr(a) for a in call.args])
        for bound in first:
            self.emit(ind, bound, pos)
        names = {prm.name: code for prm, code in zip(pr.params, codes)}
        self.subst.append(names)
        try:
            for let in lets:
                tmp = self.temp()
                self.emit(ind, f"{tmp} = {self.expr(let.value)}", pos)
                names[let.name] = tmp
            names[g.var] = item = self.temp()
            self.emit(ind, f"{target} = False", pos)
            tmp = self.temp()
            self.emit(ind, f"{tmp} = {self.iterable(g.iter, self.kinds_looked_at(g.var, g.cond))}", pos)
            self.charge(ind, tmp, self.gen_weight(g), pos, small=self.innermost(g))
            self.emit(ind, f"for {item} in {tmp}:", pos)
            start = len(self.lines)
            for c in _conjuncts(g.cond) if g.cond is not None else []:
                if _searches(c):    # (a search in the `where`: a loop of its own, see `search_body`)
                    found_here = self.temp()
                    self.loop_into(found_here, c, ind + 1, pos)
                    self.emit(ind + 1, f"if not {found_here}:\n    continue", pos)
                else:
                    self.emit(ind + 1, f"if not ({self.expr(c)}):\n    continue", pos)
            self.emit(ind + 1, f"{target} = True\nbreak", pos)
            self.lines[start:] = self.as_it_stands(g.iter, g.var, (g.elt, g.cond), self.lines[start:], item)
        finally:
            self.subst.pop()
        if not nonempty:
            self.emit(ind, f"{target} = not {target}", pos)

    # A count compared with a bound (`len(supply_in_reach(h, side)) >= activation_cost`),
    # where the procedure only builds its list (`let out = []`, loops and tests that grow it
    # by `out += [...]`, `return out`) and leaves the game alone, is asked of a counting twin
    # of the procedure (`f_NAME__count(ctx, ..., bound)`): the same code, with a count in
    # place of the list, that returns as soon as the count reaches the bound (then the
    # comparison's answer is known). Below the bound its count is the list's length; at or
    # past it, some number at or past the bound. No list is made.
    def countable(self, name: str) -> str | None:
        """The name of the list a procedure does nothing but build from nothing and return,
        if it may be counted by a twin (`_COMPREHENSION` for one that returns a
        comprehension after `let`s of its own, `targets`); else None."""
        out = self.list_builder(name)
        pr = self._decls.get(name)
        if not isinstance(pr, A.ProcedureDecl):
            return None
        if out is not None:
            first = pr.body[0]
            return out if isinstance(first, A.Let) and isinstance(first.value, A.ListLit) and not first.value.items \
                else None
        if pr.ret is not None and pr.ret.name == "list" and name in self.p.procedures and self.p.procedures[name] is pr \
                and not any(name in s for s in (self.kept, self.walkers, self.remembered, self.piece_kept, self.var_kept)) \
                and pr.name not in self.p.interactive and pr.body and isinstance(pr.body[-1], A.Return) \
                and isinstance(pr.body[-1].value, A.ListComp) and all(isinstance(st, A.Let) for st in pr.body[:-1]) \
                and self.callee_leaves_game_alone(name) and not _asks_choose(pr.body):
            return _COMPREHENSION
        return None

    def list_builder(self, name: str) -> str | None:
        """The name of the list a procedure does nothing but build and return (`let out =
        [...]`, loops and tests that grow it, `return out`), if it leaves the game alone and
        keeps no answers; else None."""
        if name in self._countable:
            return self._countable[name]
        self._countable[name] = None
        pr = self._decls.get(name)
        out = None
        if isinstance(pr, A.ProcedureDecl) and pr.ret is not None and pr.ret.name == "list" \
                and name in self.p.procedures and self.p.procedures[name] is pr \
                and not any(name in s for s in (self.kept, self.walkers, self.remembered, self.piece_kept, self.var_kept)) \
                and pr.name not in self.p.interactive and len(pr.body) >= 3 \
                and isinstance(pr.body[0], A.Let) and isinstance(pr.body[0].value, A.ListLit) \
                and isinstance(pr.body[-1], A.Return) \
                and isinstance(pr.body[-1].value, A.Name) and pr.body[-1].value.name == pr.body[0].name \
                and pr.body[0].name not in {prm.name for prm in pr.params} \
                and self.callee_leaves_game_alone(name) and not _asks_choose(pr.body):
            name_out = pr.body[0].name
            if all(n.name != name_out for n in _names(pr.body[0].value)) \
                    and all(self.only_grows(st, name_out) for st in pr.body[1:-1]):
                out = name_out
        self._countable[name] = out
        return out

    def only_grows(self, st: A.Stmt, out: str) -> bool:
        """Does the statement do nothing with the list `out` but grow it by `out += [...]`
        (nor return, nor name it again)?"""
        def free(node: Any) -> bool:
            return all(n.name != out for n in _names(node))
        if isinstance(st, A.Assign) and isinstance(st.target, A.Name) and st.target.name == out:
            return st.op == "+=" and isinstance(st.value, (A.ListLit, A.ListComp)) and free(st.value)
        if isinstance(st, A.For):
            return st.var != out and free((st.iter, st.cond)) and all(self.only_grows(b, out) for b in st.body)
        if isinstance(st, A.If):
            return free(st.cond) and all(self.only_grows(b, out) for b in st.body + st.orelse)
        if isinstance(st, A.Let):
            return st.name != out and free(st.value)
        return isinstance(st, (A.Break, A.Continue))

    def count_compared(self, e: A.Compare) -> str:
        """`len(P(...)) >= n` and its like through P's counting twin, or "" when it is not one."""
        for size, op, bound in ((e.left, e.op, e.right), (e.right, _FLIPPED.get(e.op), e.left)):
            if not (op in (">=", ">", "<", "<=", "==", "!=") and isinstance(size, A.Call)
                    and isinstance(size.func, A.Name) and size.func.name == "len" and size.gen is None
                    and len(size.args) == 1 and self.info.calls.get(id(size)) == "builtin"):
                continue
            call = size.args[0]
            if not (isinstance(call, A.Call) and isinstance(call.func, A.Name) and call.gen is None
                    and self.info.calls.get(id(call)) == "procedure" and self.countable(call.func.name)
                    and self.info.types.get(id(bound)) == INT and self.leaves_game_alone(bound)):
                continue
            name = call.func.name
            self.counted.add(name)
            args = "".join(f"{self.expr(a)}, " for a in call.args)
            b = self.expr(bound)
            # (to tell n from n + 1, `>`, `<=`, `==` and `!=` count on to n + 1)
            more = op in (">", "<=", "==", "!=")
            if isinstance(bound, A.IntLit):
                args += str(bound.value + more)
            else:
                tmp = self.temp()
                args, b = f"{args}({tmp} := {b}){' + 1' if more else ''}", tmp
            code = f"f_{name}__count(ctx, {args})"
            if self.emitting in self.tracking and self.untracked(call):
                code = f"(_NTA(1) or {code})"
            return f"({code} {op} {b})"
        return ""

    def count_twin(self, pr: A.ProcedureDecl) -> None:
        """The counting twin of a procedure that only builds its list (see `countable`)."""
        params = "".join(f", v_{prm.name}" for prm in pr.params)
        if pr.name in self.space_kept:
            self.space_kept_answers(pr, params + ", _bound", f"f_{pr.name}__count",
                                    self.space_kept[pr.name] + ["_bound"])
            self.emit(0, f"def f_{pr.name}__count__work(ctx{params}, _bound):", pr.pos)
        else:
            self.emit(0, f"def f_{pr.name}__count(ctx{params}, _bound):", pr.pos)
        self.emitting = pr.name
        self.counting = self.countable(pr.name)
        if self.counting == _COMPREHENSION:
            self.emit(1, "_n = 0", pr.pos)
        try:
            self.function_body(pr.body, 1, pr.params)
        finally:
            self.counting = None
            self.emitting = None

    # In a counting twin, a loop over another procedure's list (`for s in
    # supply_sources(h, side)`), that procedure only building it (`list_builder`), goes
    # through the items as that procedure finds them: its code is written in place of the
    # call, and each item it would add to its list is gone round the loop's body at once,
    # so that the count may stop before the other items are looked for.
    def fusable(self, st: A.For) -> A.ProcedureDecl | None:
        """The procedure whose list the twin's loop may go through as it is built; else None."""
        it = st.iter
        if self.fusing is not None or self.fused or st.cond is not None or not (
                isinstance(it, A.Call) and isinstance(it.func, A.Name) and it.gen is None
                and self.info.calls.get(id(it)) == "procedure" and it.func.name != self.emitting
                and self.list_builder(it.func.name) is not None) \
                or any(isinstance(n, (A.Break, A.Continue, A.Return)) for n in _nodes(st.body)):
            return None
        q = self._decls[it.func.name]
        caller = self._decls.get(self.emitting or "")
        if not isinstance(caller, A.ProcedureDecl):
            return None
        # (the callee's own names, in Python `v_NAME` as the caller's are, must be none of
        # the caller's; nor may the loop bind a name its arguments read)
        mine = {n.name for n in _names(caller.body)} | _bound(caller.body) | {prm.name for prm in caller.params}
        # (a search's item is named afresh in code written in place, and a comprehension's is
        # its own in Python; the list itself is never a name)
        out = self.list_builder(it.func.name)
        theirs = {n.name for n in _nodes(q.body) if isinstance(n, A.Let) and n.name != out} \
            | {n.var for n in _nodes(q.body) if isinstance(n, A.For)} \
            | {n.value.gen.var for n in _nodes(q.body) if isinstance(n, A.Assign) and isinstance(n.value, A.ListComp)}
        args = {n.name for n in _names(it.args)}
        if theirs & mine or args & (_bound(st.body) | {st.var}):
            return None
        return q

    def fuse(self, st: A.For, q: A.ProcedureDecl, ind: int) -> None:
        """`for x in Q(...) { body }` in a counting twin, Q's code in place (see `fusable`)."""
        assert isinstance(st.iter, A.Call)
        codes, first = self.bind_arguments(st.iter.args, [self.expr(a) for a in st.iter.args])
        for bound in first:
            self.emit(ind, bound, st.pos)
        out = self.list_builder(q.name)
        assert out is not None
        self.fusing = (out, st)
        self.subst.append({prm.name: code for prm, code in zip(q.params, codes)})
        try:
            self.body(q.body[:-1], ind)
        finally:
            self.subst.pop()
            self.fusing = None

    def fused_item(self, item: A.Expr, ind: int, pos: Pos | None) -> None:
        """One item the procedure in place would add to its list: the caller's loop body
        gone round with it, paid for as the caller's loop would pay for it."""
        assert self.fusing is not None
        st = self.fusing[1]
        self.emit(ind, f"v_{st.var} = {self.expr(item)}", pos)
        self.charge(ind, None, self.loop_weight(st), pos)
        fusing, subst = self.fusing, self.subst
        self.fusing, self.subst = None, []
        self.fused += 1     # (its loops stay loops: the procedure's names are live around it)
        try:
            self.body(st.body, ind)
        finally:
            self.fusing, self.subst = fusing, subst
            self.fused -= 1

    def count_stmt(self, st: A.Stmt, ind: int) -> bool:
        """A statement of a counting twin that touches its list, written with the count
        `_n`; False for any other (written as it is)."""
        if self.fusing is not None:
            built = self.fusing[0]
            if isinstance(st, A.Let) and st.name == built:
                assert isinstance(st.value, A.ListLit)
                for item in st.value.items:
                    self.fused_item(item, ind, st.pos)
                return True
            if isinstance(st, A.Assign) and isinstance(st.target, A.Name) and st.target.name == built:
                if isinstance(st.value, A.ListLit):
                    for item in st.value.items:
                        self.fused_item(item, ind, st.pos)
                else:
                    assert isinstance(st.value, A.ListComp)
                    g = st.value.gen
                    grow = A.Assign(st.pos, st.target, "+=", A.ListLit(st.pos, (g.elt if g.elt is not None
                                                                                 else A.Name(g.var_pos, g.var),)))
                    loop = A.For(st.pos, g.var, g.var_pos, g.iter, g.cond, (grow,))
                    self.made.append(loop)
                    self.stmt(loop, ind)
                return True
            return False
        if isinstance(st, A.For):
            q = self.fusable(st)
            if q is not None:
                self.fuse(st, q, ind)
                return True
            return False
        out = self.counting
        if out == _COMPREHENSION and isinstance(st, A.Return) and isinstance(st.value, A.ListComp):
            # (`return [n for n in ... where ...]`: counted as `out += [...]` would be)
            grown = A.Assign(st.pos, A.Name(st.pos, out), "+=", st.value)
            self.made.append(grown)
            self.count_stmt(grown, ind)
            st = A.Return(st.pos, A.Name(st.pos, out))
            self.made.append(st)
        if isinstance(st, A.Let) and st.name == out:
            self.emit(ind, "_n = 0", st.pos)
        elif isinstance(st, A.Return) and isinstance(st.value, A.Name) and st.value.name == out:
            self.emit(ind, "if _n > _I:\n    _long(range(_n))\nreturn _n", st.pos)
        elif isinstance(st, A.Assign) and isinstance(st.target, A.Name) and st.target.name == out:
            enough = "if _n >= _bound:\n    if _n > _I:\n        _long(range(_n))\n    return _n"
            if isinstance(st.value, A.ListLit):
                # (an item that could fail is worked out, as the list would have it)
                for item in st.value.items:
                    if not self.pure(item):
                        self.emit(ind, f"_j = {self.expr(item)}", st.pos)
                self.emit(ind, f"_n += {len(st.value.items)}\n{enough}", st.pos)
            else:
                assert isinstance(st.value, A.ListComp)
                g = st.value.gen
                if self.loopable_here() and self.own_name(g):
                    # (a loop that counts each item the comprehension would give)
                    grow = A.Assign(st.pos, st.target, "+=", A.ListLit(st.pos, (g.elt,) if g.elt is not None
                                                                             else (A.IntLit(st.pos, 1),)))
                    loop = A.For(st.pos, g.var, g.var_pos, g.iter, g.cond, (grow,))
                    self.made.append(loop)
                    self.stmt(loop, ind)
                else:
                    self.emit(ind, f"_n += len({self.expr(st.value)})\n{enough}", st.pos)
        else:
            return False
        return True

    def list_into(self, target: str, g: A.Generator, ind: int, pos: Pos | None) -> None:
        """Set `target` to the list `[elt for var in iter where cond]` with a loop, each test
        of the `where` that searches (`loopable`) a loop of its own inside it."""
        assert g.cond is not None
        self.emit(ind, f"{target} = []", pos)
        tmp = self.temp()
        self.emit(ind, f"{tmp} = {self.iterable(g.iter, self.kinds_looked_at(g.var, g.cond))}", pos)
        self.charge(ind, tmp, self.gen_weight(g), pos, small=self.innermost(g))
        self.emit(ind, f"for v_{g.var} in {tmp}:", pos)
        start = len(self.lines)
        for c in _conjuncts(g.cond):
            if self.loopable(c):
                found = self.temp()
                self.loop_into(found, c, ind + 1, pos)
                self.emit(ind + 1, f"if not {found}:\n    continue", pos)
            else:
                self.emit(ind + 1, f"if not ({self.expr(c)}):\n    continue", pos)
        self.emit(ind + 1, f"{target}.append({self.expr(g.elt) if g.elt is not None else f'v_{g.var}'})", pos)
        self.lines[start:] = self.as_it_stands(g.iter, g.var, (g.elt, g.cond), self.lines[start:])
        self.hoist(start, ind + 1, [g.var], (g.elt, g.cond), loop=True)

    def searches(self, e: A.Expr) -> bool:
        return _any_or_all(e) and self.info.calls.get(id(e)) == "builtin" and not self.in_lambda

    def var_root(self, t: A.Expr) -> A.Name | None:
        while isinstance(t, A.Index):
            t = t.obj
        if isinstance(t, A.Name) and self.info.names.get(id(t)) == "var":
            return t
        return None

    def arith(self, op: str, t: Type | None, left: str, right: str, in_place: bool = False) -> str:
        """`left op right` within the size limits: lists and strings through `_cat` (`_ext`
        extends a list in place), integers checked for size."""
        if op == "+":
            if t == INT:
                return self.int_checked(f"{left} + {right}")
            if t == FLOAT:
                return f"({left} + {right})"
            if t == STR or isinstance(t, ListType):
                if in_place and isinstance(t, ListType):
                    return f"_ext({left}, {right})"
                # short results (most of them) pass with a length test, inline
                tmp = self.temp()
                return f"({tmp} if len({tmp} := {left} + {right}) <= {FREE_ITEMS} else _long({tmp}))"
            return f"_add({left}, {right})"
        if op in ("-", "*") and t == INT:
            return self.int_checked(f"{left} {op} {right}")
        return f"({left} {op} {right})"

    def transient(self, e: A.Expr) -> str:
        """An operand used at once and never kept (compared, looked for, or taken modulo): a
        sum or difference of integers, or a text joined with `+`, is not tested for size
        there. Its terms are kept values or literals, each within the limit, so it cannot
        grow beyond a few times the limit, and what is kept of it (a truth value, a
        remainder) is small (`p + "/" + tech in techs`: the text is only looked for)."""
        t = self.info.types.get(id(e))
        if isinstance(e, A.BinOp) and (e.op in ("+", "-") and t == INT or e.op == "+" and t == STR):
            return self.chain(e, t, checked=False)
        return self.expr(e)

    def summed(self, e: A.Expr) -> str:
        """An item of a sum of integers, never kept alone: its own `+`, `-` or `*` is not
        tested for size (the sum is). Its operands are kept values or tested, so an item is
        at most about the square of the limit, and the items of a list at most the item
        limit: the sum stays a few hundred bits before its test."""
        t = self.info.types.get(id(e))
        if isinstance(e, A.BinOp) and t == INT and e.op in ("+", "-"):
            return self.chain(e, INT, checked=False)
        if isinstance(e, A.BinOp) and t == INT and e.op == "*":
            return f"({self.expr(e.left)} * {self.expr(e.right)})"
        if isinstance(e, A.IfExpr) and t == INT and not self.looked_up(e):
            return f"({self.summed(e.then)} if {self.expr(e.cond)} else {self.summed(e.else_)})"
        return self.expr(e)

    def chain(self, e: A.BinOp, t: Type, checked: bool = True) -> str:
        """`a + b + c ...` of strings, lists or integers, checked once at the end (each step
        only grows what came before, so the end is the largest): most pass with one inline
        length test; a long string or list is paid for once for every `+` that built it."""
        ops: list[tuple[str, A.Expr]] = []
        node: A.Expr = e
        while isinstance(node, A.BinOp) and node.op in ("+", "-") and self.info.types.get(id(node)) == t \
                and (node.op == "+" or t == INT):
            ops.append((node.op, node.right))
            node = node.left
        if t == STR and len(ops) >= 2:
            code = self.formatted([node] + [right for _, right in reversed(ops)])
        else:
            code = self.expr(node)
            for op, right in reversed(ops):
                code = f"{code} {op} {self.expr(right)}"
        if t == INT:
            return self.int_checked(code) if checked else f"({code})"
        if not checked:
            return f"({code})"
        tmp = self.temp()
        if t == STR and self.bounded_str(e):
            return f"({code})"
        return f"({tmp} if len({tmp} := {code}) <= {FREE_ITEMS} else _long({tmp}, {len(ops)}))"

    def formatted(self, parts: list[A.Expr]) -> str:
        """Three or more strings joined, as one f-string (a third cheaper than `a + b + c`):
        literals are written in it, and `str(n)` of a number formats n itself. The `+` chain
        where a literal or a part's code cannot be written inside an f-string."""
        texts: list[str | None] = []     # a literal's text, or None for code
        codes: list[str] = []
        for part in parts:
            if isinstance(part, A.StrLit):
                texts.append(part.value)
                codes.append(repr(part.value))
            elif isinstance(part, A.Call) and isinstance(part.func, A.Name) and part.func.name == "str" \
                    and self.info.calls.get(id(part)) == "builtin" and len(part.args) == 1 \
                    and self.info.types.get(id(part.args[0])) in (INT, BOOL, FLOAT):
                texts.append(None)      # (an f-string formats a number as `str` writes it)
                codes.append(self.expr(part.args[0]))
            else:
                texts.append("")
                codes.append(self.expr(part))
        # (Python 3.11 takes no backslash in an f-string's code; a literal with a quote or a
        # backslash, or one not printable, stays a `+` chain's literal)
        fits = all("\\" not in c and "'''" not in c for c in codes) and \
            all(t is None or (t.isprintable() and "'" not in t and "\\" not in t) for t in texts)
        if not fits:
            return " + ".join(f"str({c})" if t is None else c for t, c in zip(texts, codes))
        out = []
        for t, c in zip(texts, codes):
            out.append(t.replace("{", "{{").replace("}", "}}") if t else "{(" + c + ")}")
        return "f'''" + "".join(out) + "'''"

    def bounded_str(self, e: A.Expr) -> bool:
        """A string made only of literals, the names the engine holds (a unit's kind, space,
        owner), options and constants, a primitive's text and `str` of a number: no longer
        than the data it comes from, however often it is built, so it needs no length test."""
        if isinstance(e, A.StrLit):
            return True
        if isinstance(e, A.Name):
            return self.info.names.get(id(e)) in ("option", "constant")
        if isinstance(e, A.Attr):
            return self.info.attrs.get(id(e)) in ("field", "uname") and self.info.types.get(id(e)) == STR
        if isinstance(e, A.IfExpr):
            return self.bounded_str(e.then) and self.bounded_str(e.else_)
        if isinstance(e, A.BinOp):
            return e.op == "+" and self.bounded_str(e.left) and self.bounded_str(e.right)
        if isinstance(e, A.Call) and isinstance(e.func, A.Name):
            kind = self.info.calls.get(id(e))
            if kind == "primitive":
                return self.info.types.get(id(e)) == STR
            if kind == "builtin" and e.func.name == "str" and len(e.args) == 1:
                return self.info.types.get(id(e.args[0])) in (INT, BOOL)
        return False

    def int_checked(self, code: str) -> str:
        """An integer result kept within 64 bits: the test is inline (integer arithmetic is
        everywhere in movement rules), the error a call."""
        tmp = self.temp()
        # the inline test is against 2^30 - 1, where CPython compares without a big-integer
        # compare; beyond it (seldom) `_ci` applies the real limit
        return f"({tmp} if -{_COMPACT} <= ({tmp} := {code}) <= {_COMPACT} else _ci({tmp}))"

    def grows(self, target: A.Expr, ind: int, pos: Pos, code: str, local: bool = True) -> None:
        """After `m[k] = v` on a map: it may not grow past the limit."""
        if isinstance(target, A.Index) and isinstance(self.info.types.get(id(target.obj)), MapType) \
                and self.pure(target.obj):
            # (a map grows by one key each time round a loop over a collection, and a loop
            # over the map goes over its keys as they were: tested once after the loop)
            if local and isinstance(target.obj, A.Name) and self.grown and self.grown[-1] is not None \
                    and self.grown[-1].setdefault(target.obj.name, pos) is not None:
                return
            self.emit(ind, f"if len({code}) > _I:\n    _long({code})", pos)

    def assign(self, st: A.Assign, ind: int) -> None:
        root = self.var_root(st.target)
        t = self.info.types.get(id(st.target))
        if root is None:
            tgt = self.target(st.target)
            if st.op == "=":
                self.emit(ind, f"{tgt} = {self.expr(st.value)}", st.pos)
                if isinstance(st.target, A.Index):
                    self.grows(st.target, ind, st.pos, self.expr(st.target.obj))
            elif st.op == "+=" and isinstance(t, ListType) and isinstance(st.target, A.Name):
                # a list grows in place: its new items are paid for (a literal's by the loop's
                # weight), and its length is kept within the limit
                # (one item is appended: `+=` of a list of one, as Python runs it, makes the
                # list first; a list is all `+=` takes here)
                grow = f"{tgt}.append({self.expr(st.value.items[0])})" \
                    if isinstance(st.value, A.ListLit) and len(st.value.items) == 1 \
                    else f"{tgt} += {self.expr(st.value)}"
                if isinstance(st.value, A.ListLit) and self.grown and self.grown[-1] is not None \
                        and st.target.name in self.own_lists \
                        and self.grown[-1].setdefault(st.target.name, st.pos) is not None:
                    self.emit(ind, grow, st.pos)
                elif isinstance(st.value, A.ListLit):
                    self.emit(ind, f"{grow}\nif len({tgt}) > _I:\n    _long({tgt})", st.pos)
                else:
                    self.emit(ind, f"_j = {self.expr(st.value)}\n{tgt} += _j\n"
                                   f"if len(_j) > {FREE_ITEMS} or len({tgt}) > _I:\n    _grew({tgt}, _j)", st.pos)
            else:
                if isinstance(st.target, A.Index) and not self.pure(st.target.index):
                    # `xs[i + 1] += n` works its index out once (a call in it runs once)
                    key = self.temp()
                    self.emit(ind, f"{key} = {self.expr(st.target.index)}", st.pos)
                    tgt = f"{self.expr(st.target.obj)}[{key}]"
                self.emit(ind, f"{tgt} = {self.arith(st.op[0], t, tgt, self.expr(st.value), in_place=True)}", st.pos)
            return
        var = self.p.vars[root.name]
        store = self.freeze(var.type, "_v")
        if isinstance(st.target, A.Name):
            value = self.expr(st.value)
            if st.op != "=":
                value = self.arith(st.op[0], t, self.var_read(root.name), value)
            self.emit(ind, f"_v = {value}\nctx.vars[{root.name!r}] = {store}", st.pos)
            self.forget_readers(root.name, ind, st.pos)
            return
        # an element of a variable: change a copy, then store it back (a map as it is: the
        # copy is this assignment's own, so it is not copied again)
        if isinstance(var.type, MapType):
            store = "_v"
        self.emit(ind, f"_v = {self.var_read(root.name)}", st.pos)
        inner = st.target
        path = []
        while isinstance(inner, A.Index):
            path.append(self.expr(inner.index))
            inner = inner.obj
        sub = "_v" + "".join(f"[{p}]" for p in reversed(path))
        if st.op == "=":
            self.emit(ind, f"{sub} = {self.expr(st.value)}", st.pos)
            self.grows(st.target, ind, st.pos, "_v" + "".join(f"[{p}]" for p in reversed(path[1:])), local=False)
        else:
            self.emit(ind, f"{sub} = {self.arith(st.op[0], t, sub, self.expr(st.value), in_place=True)}", st.pos)
        self.emit(ind, f"ctx.vars[{root.name!r}] = {store}", st.pos)
        self.forget_readers(root.name, ind, st.pos)

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
        if isinstance(t, (ListType, MapType)):
            # a copy (the state keeps the variable): a long one is paid for, a short one is tested inline
            tmp = self.temp()
            make = "list" if isinstance(t, ListType) else "dict"
            return f"{make}({tmp} if len({tmp} := ctx.vars[{name!r}]) <= {FREE_ITEMS} else _many({tmp}))"
        return f"ctx.vars[{name!r}]"

    def peek(self, e: A.Expr) -> str:
        """An expression only read, never kept nor changed (`x in v`, `v[k]`, `len(v)`, the
        list a `for` walks): a game variable is read as stored, without the copy that
        protects it from a local that changes it."""
        if isinstance(e, A.Name) and self.info.names.get(id(e)) == "var":
            return f"ctx.vars[{e.name!r}]"
        if self.peeked_call(e) is not None:
            assert isinstance(e, A.Call) and isinstance(e.func, A.Name)
            inlined = self.inlined(e.func.name, e, [self.expr(a) for a in e.args], peek=True)
            if inlined:
                return inlined
        return self.expr(e)

    def walked(self, e: A.Expr, kinds: tuple[str, ...] | None = None) -> str:
        """An expression only gone through (the list a loop walks, `x in v`, `len(v)`): as
        `peek`, and a primitive with a `peek` form, in code that changes nothing of the
        game, is read in that form (the state's own pieces of a space, not a list of them).
        `kinds`: the loop looks only at units of these types (`kinds_looked_at`), and the
        primitive's `peek_kinds` form lists only those. Each branch of an `if` is gone
        through so (`for n in (if by_road then roads(h) else neighbours(h))`)."""
        if isinstance(e, A.IfExpr):
            return f"({self.walked(e.then, kinds)} if {self.expr(e.cond)} else {self.walked(e.else_, kinds)})"
        if isinstance(e, A.Call) and isinstance(e.func, A.Name) and self.info.calls.get(id(e)) == "primitive":
            spec = self.reg.primitives[e.func.name]
            if spec.peek and spec.context and all(self.cheap(a) for a in e.args) and self.quiet():
                args = [self.expr(a) for a in e.args]
                if kinds is not None and spec.peek_kinds:
                    return spec.peek_kinds.format(*args, kinds=repr(kinds))
                return spec.peek.format(*args)
            free = [a for a in e.args if not isinstance(a, (A.StrLit, A.IntLit, A.BoolLit))]
            if e.func.name in self.board_lists and len(free) <= 1 and all(self.cheap(a) for a in free) \
                    and not self.in_lambda:
                # (a list of the board's, kept for each argument that is not a literal, one dict
                # for each call's literals: see `board_lists`)
                args = [self.expr(a) for a in e.args]
                combo = (e.func.name, tuple(code if a not in free else "" for a, code in zip(e.args, args)))
                kept = self.board_lists_used.setdefault(combo, f"_KV{len(self.board_lists_used)}")
                key = self.expr(free[0]) if free else "()"
                return f"({kept}[{key}] if {key} in {kept} else _kv(ctx, {kept}, {key}, p_{e.func.name}, {', '.join(args)}))"
        return self.peek(e)

    # ------------------------------------------------------------------ units of some types
    # A loop over a power's units whose every round begins by testing the unit's type or a
    # tag (`for t in units_of(p) where t has carries_land and ...`) goes through the units of
    # those types only: the state keeps its pieces by owner and type, in the order of their
    # ids, so the loop meets the same units in the same order without looking at the others
    # (an LHTR power holds some 40 units and 3 transports, and the transports it may unload are
    # asked for at every decision of its moves).
    def kinds_looked_at(self, var: str, cond: A.Expr | None, body: tuple[A.Stmt, ...] = ()) -> tuple[str, ...] | None:
        """The unit types a loop over units (`var`) looks at, when its `where` (`cond`)
        begins with a test of the unit's type or tags, or its body is one `if` that does, or
        begins with `if <such a test> or ... { continue }`. None when it may look at any
        unit, or at most types anyway."""
        passing: set[str] | None = None
        if cond is not None:
            passing = self.kinds_passing(var, _first_of(cond, "and"))
        elif body and isinstance(body[0], A.If) and not body[0].orelse:
            first = body[0]
            if len(body) == 1:
                passing = self.kinds_passing(var, _first_of(first.cond, "and"))
            elif len(first.body) == 1 and isinstance(first.body[0], A.Continue):
                skipped = self.kinds_passing(var, _first_of(first.cond, "or"))
                passing = None if skipped is None else set(self.p.units) - skipped
        if passing is None or len(passing) > max(2, len(self.p.units) // 4):
            return None
        return tuple(sorted(passing))

    def kinds_passing(self, var: str, e: A.Expr) -> set[str] | None:
        """The unit types for which `e`, a test of the unit `var`'s type or tag, holds; or of
        one of its stats against a literal (`t.capacity > 0`, `u.road_move`, `not u.road_move`),
        where every unit type's value of that stat is a literal: the stat is its type's."""
        stat = self.stat_test(var, e)
        if stat is not None:
            return stat
        if not (isinstance(e, A.Compare) and e.op in ("has", "has not", "is", "is not")
                and isinstance(e.left, A.Name) and e.left.name == var and isinstance(e.right, A.Name)
                and self.info.names.get(id(e.left), "local") == "local"
                and isinstance(self.info.types.get(id(e.left)), RecordType)):
            return None
        name = e.right.name
        if e.op in ("is", "is not"):
            if name not in self.p.units:
                return None
            holds = {name}
        else:
            holds = {u.name for u in self.p.units.values() if name in u.tags}
        return holds if e.op in ("has", "is") else set(self.p.units) - holds

    def stat_test(self, var: str, e: A.Expr) -> set[str] | None:
        """`kinds_passing` for a test of a stat of the unit `var` against a literal."""
        negated = False
        if isinstance(e, A.UnaryOp) and e.op == "not":
            negated, e = True, e.operand
        if isinstance(e, A.Compare) and e.op in _STAT_OPS and isinstance(e.right, _LITERALS):
            attr, op, value = e.left, e.op, e.right.value
        else:
            attr, op, value = e, "==", True
        if not (isinstance(attr, A.Attr) and isinstance(attr.obj, A.Name) and attr.obj.name == var
                and self.info.attrs.get(id(attr)) == "stat"
                and self.info.names.get(id(attr.obj), "local") == "local"
                and isinstance(self.info.types.get(id(attr.obj)), RecordType)):
            return None
        decl = self.p.stats.get(attr.name)
        if decl is None:
            return None
        holds: set[str] = set()
        for u in self.p.units.values():
            f = u.fields.get(attr.name)
            lit = f.value if f is not None else decl[0].default
            if not isinstance(lit, _LITERALS) or type(lit.value) is not type(value) and not (
                    isinstance(lit, (A.IntLit, A.FloatLit)) and isinstance(value, (int, float))
                    and not isinstance(value, bool) and not isinstance(lit.value, bool)):
                return None
            if _STAT_OPS[op](lit.value, value) is not negated:
                holds.add(u.name)
        return holds

    def target(self, t: A.Expr) -> str:
        if isinstance(t, A.Name):
            return f"v_{t.name}"
        assert isinstance(t, A.Index)
        return f"{self.expr(t.obj)}[{self.expr(t.index)}]"

    # ------------------------------------------------------------------ expressions
    def iterable(self, e: A.Expr, kinds: tuple[str, ...] | None = None) -> str:
        """An expression in a `for` position: `range` stays lazy there; a map is run over as
        a list of its keys (so that the loop may change it). `kinds`: see `walked`."""
        if isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.name == "range" \
                and self.info.calls.get(id(e)) == "builtin":
            return f"_rng({', '.join(self.expr(a) for a in e.args)})"
        if isinstance(self.info.types.get(id(e)), MapType):
            return f"list({self.peek(e)})"
        return self.walked(e, kinds)

    def comp(self, g: A.Generator, make: str, elt: str | None = None, filtered: bool = True,
             var: str | None = None) -> str:
        """A comprehension (`make` is "[...]" or "any(...)"...): its collection is paid for
        as it starts (inline, before the comprehension runs over it). `var`: the Python name
        of its variable, where it is not `v_` and the rules' name (see `searched`)."""
        tmp = self.temp()
        w = self.gen_weight(g)
        var = var or f"v_{g.var}"
        walked = self.iterable(g.iter, self.kinds_looked_at(g.var, g.cond) if filtered else None)
        paid = f"len({tmp} := {walked})" + ("" if w == 1 else f" * {w}")
        body = f"{elt if elt is not None else self.expr(g.elt) if g.elt is not None else var} for {var} in {tmp}"
        if g.cond is not None and filtered:
            body += f" if {self.expr(g.cond)}"
        body = self.as_it_stands(g.iter, g.var, (g.elt, g.cond), [body], var)[0]
        if self.in_lambda:
            return f"(_pay({paid}) and {make.replace('...', body)})"
        if self.innermost(g):
            paid = f"len({tmp})" + ("" if w == 1 else f" * {w}")
            return (f"((len({tmp} := {walked}) <= {SMALL_LOOP} or (_L := _L - {paid}) >= 0 "
                    f"or _spent()) and {make.replace('...', body)})")
        return f"(((_L := _L - {paid}) >= 0 or _spent()) and {make.replace('...', body)})"

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

    def gate(self, r: A.RuleDecl) -> str | None:
        """A rule's `when` as a plain test of the event's arguments, the options and the
        constants, when it is one (`when st == "mobilize" and not unplaced_units_wait`): the
        engine asks it before it enters the rules at all (`rg_NAME`, see CompiledRules.bound),
        since a rule bound to every step's start is asked hundreds of times a game and answers
        no to most. It reads nothing else and calls nothing, so it cannot fail; None when the
        `when` does more."""
        assert r.when is not None
        text = self.expr(r.when)
        allowed = {f"v_{n}" for n, _ in r.params}
        try:
            tree = pyast.parse(text, mode="eval")
        except SyntaxError:
            return None
        for node in pyast.walk(tree):
            if isinstance(node, pyast.Name):
                if node.id not in allowed and not node.id.startswith(("o_", "c_")):     # (options, constants)
                    return None
            elif not isinstance(node, _GATE_NODES):
                return None
        return text

    def expr(self, e: A.Expr) -> str:
        if isinstance(e, (A.IntLit, A.FloatLit, A.StrLit)):
            return repr(e.value)
        if isinstance(e, A.BoolLit):
            return "True" if e.value else "False"
        if isinstance(e, A.Name):
            kind = self.info.names.get(id(e), "local")
            if kind == "local":
                if self.subst and e.name in self.subst[-1]:
                    return self.subst[-1][e.name]
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
                self.procrefs.add(e.name)
                # (a board question: a walk may ask it once per board, dsl.runtime.BoardQuestion)
                return f"{'_board_ask' if self.board_only(e.name) else '_partial'}(g_{e.name}, ctx)"
            raise AssertionError(kind)
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, A.MapLit):
            return "{" + ", ".join(f"{self.expr(k)}: {self.expr(v)}" for k, v in e.entries) + "}"
        if isinstance(e, A.ListComp):
            return self.comp(e.gen, "[...]")
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
            if id(e) in self.info.partials:
                # a procedure with its first arguments given, passed to a primitive
                assert isinstance(e.func, A.Name)
                self.procrefs.add(e.func.name)
                given = [self.expr(a) for a in e.args if self.info.names.get(id(a)) != "open"]
                maker = "_board_ask" if self.board_only(e.func.name) else "_partial"
                return f"{maker}(g_{e.func.name}, ctx, {', '.join(given)})"
            return self.call(e)
        if isinstance(e, A.UnaryOp):
            return f"({e.op} {self.expr(e.operand)})"
        if isinstance(e, A.BinOp):
            if e.op in ("and", "or"):
                return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
            t = self.info.types.get(id(e))
            if e.op in ("+", "-") and (t == STR or t == INT or isinstance(t, ListType)):
                return self.chain(e, t)
            if e.op == "%" and t == INT:      # a remainder is smaller than its divisor
                return self.arith(e.op, t, self.transient(e.left), self.expr(e.right))
            return self.arith(e.op, t, self.expr(e.left), self.expr(e.right))
        if isinstance(e, A.Compare):
            searched = self.emptiness(e)
            if searched is not None:
                return searched
            counted = self.count_compared(e)
            if counted:
                return counted
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
                if self.info.types.get(id(e.left)) != UNIT_TYPE and e.right.name.isidentifier() \
                        and any(e.right.name in u.tags for u in self.p.units.values()):
                    # a unit's tag is its type's: one look-up in the types that carry it
                    return f"({self.expr(e.left)}.kind {op} _H_{e.right.name})"
                return f"({e.right.name!r} {op} {self.unit_of(e.left)}.tags)"
            if self.container(e.left):
                # a list or map compared whole: paid for by its size (comparing scalars costs nothing more)
                if e.op in ("==", "!="):
                    return f"_same({self.expr(e.left)}, {self.expr(e.right)}, {e.op == '=='})"
                if e.op in ("in", "not in") and not isinstance(self.info.types.get(id(e.right)), MapType):
                    return f"_inlist({self.expr(e.left)}, {self.walked(e.right)}, {e.op == 'in'})"
            elif e.op in ("==", "!=") and self.container(e.right):
                return f"_same({self.expr(e.left)}, {self.expr(e.right)}, {e.op == '=='})"
            if e.op in ("in", "not in") and self.info.types.get(id(e.right)) == STR and self.bounded_str(e.right):
                # text looked for in a name the engine holds (`"chart:" in u.space`): no
                # longer than the game's data, so nothing to pay and no length to test
                return f"({self.transient(e.left)} {e.op} {self.expr(e.right)})"
            if e.op in ("in", "not in") and not isinstance(e.right, (A.ListLit, A.MapLit)) \
                    and not isinstance(self.info.types.get(id(e.right)), MapType):
                # going through a long list (or text) is paid for; a short one passes inline
                left, right = self.transient(e.left), self.walked(e.right)
                if self.pure(e.right):
                    return f"({left} {e.op} {right} if len({right}) <= {FREE_ITEMS} else _inbig({left}, {right}, {e.op == 'in'}))"
                tr = self.temp()
                if self.pure(e.left):
                    return (f"({left} {e.op} {tr} if len({tr} := {right}) <= {FREE_ITEMS} "
                            f"else _inbig({left}, {tr}, {e.op == 'in'}))")
                tl = self.temp()
                return (f"({tl} {e.op} {tr} if (({tl} := {left}), ({tr} := {right})) and len({tr}) <= {FREE_ITEMS} "
                        f"else _inbig({tl}, {tr}, {e.op == 'in'}))")
            if e.op in ("in", "not in"):
                return f"({self.transient(e.left)} {e.op} {self.walked(e.right)})"
            return f"({self.transient(e.left)} {e.op} {self.transient(e.right)})"
        if isinstance(e, A.IfExpr):
            return self.looked_up(e) or f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.else_)})"
        raise AssertionError(e)

    # `if k in m then m[k] else 0`, the rules' way to read a map with a default, is one
    # look-up (`m.get(k, 0)`), not two: a side's power (`side_of`), a unit's moves spent. An
    # option's map is read through a plain dict of its (frozen) values, `_od_NAME`: a
    # read-only view's `get` costs more than its two look-ups.
    def looked_up(self, e: A.IfExpr) -> str:
        """`e` as a map's `get` with a default, or "" when it is not that shape (the key and
        the map plain reads, the same on both sides; the default a literal)."""
        cond, then = e.cond, e.then
        if not (isinstance(cond, A.Compare) and cond.op == "in" and isinstance(then, A.Index)
                and isinstance(e.else_, (A.StrLit, A.IntLit, A.BoolLit, A.FloatLit))
                and isinstance(self.info.types.get(id(cond.right)), MapType)
                and isinstance(self.info.types.get(id(then.obj)), MapType)
                and self.pure(cond.left) and self.pure(cond.right) and self.pure(then.obj)):
            return ""
        key, where = self.expr(then.index), self.peek(then.obj)
        if key != self.expr(cond.left) or where != self.peek(cond.right):
            return ""
        if isinstance(then.obj, A.Name) and self.info.names.get(id(then.obj)) == "option" and where == f"o_{then.obj.name}":
            where = f"_od_{then.obj.name}"
        return f"{where}.get({key}, {self.expr(e.else_)})"


    def container(self, e: A.Expr) -> bool:
        """A list or map (or a value whose type the checker left open) compared whole."""
        t = self.info.types.get(id(e))
        return isinstance(t, (ListType, MapType)) or t == ANY

    def call(self, e: A.Call) -> str:
        code = self.plain_call(e)
        if self.emitting in self.tracking and self.untracked(e):
            return f"(_NTA(1) or {code})"     # (see "walks kept by the variables they read")
        return code

    def plain_call(self, e: A.Call) -> str:
        assert isinstance(e.func, A.Name)
        name = e.func.name
        kind = self.info.calls[id(e)]
        args = [self.expr(a) for a in e.args]
        if kind == "builtin" and name in _PEEKING and len(e.args) == 1:
            args = [self.walked(e.args[0])]
        if kind == "builtin":
            if e.gen is not None:
                g = e.gen
                if name == "count":
                    if g.cond is None:
                        return f"len({self.walked(g.iter)})"
                    return f"len({self.comp(g, '[...]', elt='1')})"
                if name in ("any", "all"):
                    if g.elt is None:
                        assert g.cond is not None
                        return self.comp(g, f"{name}(...)", elt=self.expr(g.cond), filtered=False)
                    return self.comp(g, f"{name}(...)")
                if name == "first":
                    # (a generator: the items after the first found are not looked at)
                    return self.comp(g, "_first((...))")
                if name == "find":
                    assert g.cond is not None
                    return self.comp(g, "_find((...))", elt=self.expr(g.cond), filtered=False)
                if name == "sorted":
                    if g.elt is None:
                        return self.comp(g, "sorted([...])")
                    # (key, item) pairs sorted by the key alone: stable, and items never compared
                    return self.comp(g, "_sortby([...])", elt=f"({self.expr(g.elt)}, v_{g.var})")
                if name == "sum" and self.info.types.get(id(e)) == INT:
                    # (an item is tested for size only as part of the sum: see `summed`)
                    elt = self.summed(g.elt) if g.elt is not None else None
                    return self.int_checked(self.comp(g, 'sum([...])', elt=elt))
                return self.comp(g, f"{name}([...])")
            if name == "range":
                return f"_rngl({', '.join(args)})"
            if name == "keys":
                return f"list(_many({args[0]}).keys())"
            if name == "values":
                return f"list(_many({args[0]}).values())"
            if name == "choose":
                if len(args) >= 4:
                    # the labels are made only when a player is asked (not when one option is
                    # taken without asking, nor when a recorded answer is replayed)
                    # (inside a lambda `_L := ...` would bind a local of the lambda: its loops pay
                    # through a call)
                    self.in_lambda += 1
                    labels = self.expr(e.args[3])
                    self.in_lambda -= 1
                    kept = self.captured(e.args[3])
                    if kept is None:
                        args[3] = f"lambda: {labels}"
                    else:
                        # made only if a player reads them, from the locals as they are now and
                        # the state they are given (the one asked on: see dsl.runtime.Later)
                        bound = ''.join(f', {c}={c}' for c in kept)
                        args[3] = f"_later(lambda ctx{bound}: {labels})"
                if len(args) >= 5:
                    # and the reasons for refused answers only when an answer is refused
                    self.in_lambda += 1
                    args[4] = f"lambda: {self.expr(e.args[4])}"
                    self.in_lambda -= 1
                let = self.answer_priors.get(id(e))
                if let is not None:
                    args[1:3] = self.answer_prior(let, args[1], args[2])
                return f"ctx.choose({', '.join(args)})"
            if name == "int":
                return f"_int({args[0]})"
            if name in ("min", "max", "sum", "sorted", "any", "all") and len(args) == 1:
                code = f"{name}(_many({args[0]}))"
                return self.int_checked(code) if name == "sum" and self.info.types.get(id(e)) == INT else code
            if name in ("min", "max", "sum", "sorted", "len", "abs", "str", "float", "any", "all"):
                return f"{name}({', '.join(args)})"
            raise AssertionError(name)
        if kind == "primitive":
            spec = self.reg.primitives[name]
            if spec.inline and spec.context and all(self.cheap(a) for a in e.args):
                return spec.inline.format(*args)   # (a hot primitive, without the call)
            free = [a for a in e.args if not isinstance(a, (A.StrLit, A.IntLit, A.BoolLit))]
            if spec.board and spec.context and not spec.peek and spec.params and not self.in_lambda \
                    and spec.returns in ("str", "int", "float") and len(free) <= 1 \
                    and all(self.cheap(a) for a in free) and not any(t.startswith("fn(") for _, t in spec.params):
                # (a board primitive's text or number, kept for each argument that is not a
                # literal, one dict for each call's literals, as its lists are: see `board_lists`)
                combo = (name, tuple(code if a not in free else "" for a, code in zip(e.args, args)))
                held = self.board_lists_used.setdefault(combo, f"_KV{len(self.board_lists_used)}")
                key = self.expr(free[0]) if free else "()"
                return f"({held}[{key}] if {key} in {held} else _kvs(ctx, {held}, {key}, p_{name}, {', '.join(args)}))"
            if spec.context:
                args.insert(0, "ctx")
            return f"p_{name}({', '.join(args)})"
        if kind == "procedure" and name in self.kept and not self.in_lambda and all(self.cheap(a) for a in e.args) \
                and _plain(self._decls[name].ret, floats=True) and all(_plain(prm.type) for prm in self._decls[name].params):
            # a kept answer looked up where it is asked (the entry into the rules made sure the
            # answers are this board's; a label's lambda runs later, so it calls)
            key = {0: "()", 1: args[0] if args else ""}.get(len(args), f"({', '.join(args)})")
            if len(args) < 2:
                return f"(_K_{name}[{key}] if {key} in _K_{name} else f_{name}({', '.join(['ctx'] + args)}))"
            # (a key of several arguments is made, and hashed, once)
            found = self.temp()
            return f"({found} if ({found} := _K_{name}.get({key}, _MISS)) is not _MISS else f_{name}({', '.join(['ctx'] + args)}))"
        if kind == "procedure":
            inlined = self.inlined(name, e, args)
            if inlined:
                return inlined
        if kind in ("procedure", "sequence"):
            return f"f_{name}({', '.join(['ctx'] + args)})"
        if kind == "base":
            compiled = self.info.names[id(e)]
            inlined = self.inlined(compiled, e, args)
            return inlined or f"f_{compiled}({', '.join(['ctx'] + args)})"
        if kind == "table":
            default = self.table_default(name) if len(args) == 1 else None
            if default is not None:
                # a one-key table whose default is a literal: its lookup, without the call
                return f"t_{name}_d.get({args[0]}, {default})"
            return f"t_{name}({', '.join(args)})"
        raise AssertionError(kind)


def _rememberable(t: A.TypeExpr, param: bool = False) -> bool:
    """Can a value of this type be part of a remembered answer's key (`param`) or the answer
    (a copy of a list or map of them is as good as the original)?"""
    simple = ("str", "int", "bool", "float", "Unit")
    if t.name in simple and not t.args:
        return True
    if t.name == "list" and len(t.args) == 1:
        return t.args[0].name in simple and not t.args[0].args
    return not param and t.name == "map" and len(t.args) == 2 \
        and all(a.name in simple and not a.args for a in t.args)


def _memo(cache: dict[str, bool], name: str, meanwhile: bool, work: Callable[[], bool]) -> bool:
    """A fact about a procedure, worked out once. While it is being worked out it reads as
    `meanwhile` (the checker refuses recursion: this only keeps a broken program finite)."""
    got = cache.get(name)
    if got is None:
        cache[name] = meanwhile
        got = cache[name] = work()
    return got


def _any_or_all(e: A.Expr) -> TypeGuard[A.Call]:
    """Is the expression `any(...)` or `all(...)` over a collection?"""
    return isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.name in ("any", "all") \
        and e.gen is not None


def _searches(e: A.Expr) -> TypeGuard[A.Call]:
    """Is the test a search over a collection that asks something of each item (`any(u in
    units_at(n) where ...)`, `all`)?"""
    return _any_or_all(e) and e.gen is not None and (e.gen.elt is not None or e.gen.cond is not None)


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    """The tests of a chain of `and`, in the order they are asked (`a and b and c`: a, b, c)."""
    if isinstance(e, A.BinOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _chain(e: A.Expr, op: str) -> list[A.Expr]:
    """The operands of a chain of `and` (or of `or`), in the order they are asked."""
    if isinstance(e, A.BinOp) and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]


def _first_of(e: A.Expr, op: str) -> A.Expr:
    """The leftmost operand of a chain of `and` (or of `or`): what is tested first."""
    while isinstance(e, A.BinOp) and e.op == op:
        e = e.left
    return e


_nodes = A.nodes


def _bound(node: Any) -> set[str]:
    """The names bound below a syntax node: by `let`, an assignment, a loop or a comprehension."""
    out: set[str] = set()
    for n in _nodes(node):
        if isinstance(n, A.Let):
            out.add(n.name)
        elif isinstance(n, (A.For, A.Generator)):
            out.add(n.var)
        elif isinstance(n, A.Assign):
            root = _target_root(n.target)
            if isinstance(root, A.Name):
                out.add(root.name)
    return out


def _changed_in_place(node: Any) -> set[str]:
    """The names below a syntax node whose values are changed in place: `xs += ...`,
    `xs -= ...`, `m[k] = ...` (compiled code changes a local list or map where it stands)."""
    out: set[str] = set()
    for n in _nodes(node):
        if isinstance(n, A.Assign) and (n.op != "=" or not isinstance(n.target, A.Name)):
            root = _target_root(n.target)
            if isinstance(root, A.Name):
                out.add(root.name)
    return out


def _target_root(target: A.Expr) -> A.Expr:
    """What an assignment's target is part of: `m` of `m[k][j] = ...` (or of `m.f = ...`)."""
    while isinstance(target, (A.Attr, A.Index)):
        target = target.obj
    return target


def _names(node: Any) -> Any:
    """Every name read below a syntax node."""
    return (n for n in _nodes(node) if isinstance(n, A.Name))


def _same_tree(a: Any, b: Any) -> bool:
    """Are two pieces of the rules written the same way (where they are written aside)?"""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same_tree(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a):
        return all(_same_tree(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a) if f.name != "pos")
    return bool(a == b)


def _unread_ok(e: A.Expr) -> bool:
    """An argument a call written in place may leave unread: working it out makes no call and
    cannot fail (a name, a literal, a field of one, a list of them)."""
    if isinstance(e, (A.IntLit, A.FloatLit, A.StrLit, A.BoolLit, A.Name)):
        return True
    if isinstance(e, A.Attr):
        return isinstance(e.obj, A.Name)
    if isinstance(e, A.ListLit):
        return all(_unread_ok(i) for i in e.items)
    return False


def _as_expression(body: tuple[A.Stmt, ...]) -> A.Expr | None:
    """`if c { return a }` ... `return z` as the expression `a if c else (... z)`, and an
    `if` with an `else`, or one whose branch does not return, as the expression of each way
    through it (the statements after it written into each branch that reaches them:
    Bulge's `may_move_now`); None for a body of any other shape, or one that grows past
    twice _INLINE_SIZE so written."""
    out = _ways(body)
    return out if out is not None and _count_nodes(out) <= 2 * _INLINE_SIZE else None


def _ways(body: tuple[A.Stmt, ...]) -> A.Expr | None:
    if not body:
        return None
    st = body[0]
    if isinstance(st, A.Return):
        return st.value         # (what follows it is never reached)
    if not isinstance(st, A.If):
        return None
    then = _ways(st.body + body[1:])
    other = _ways(st.orelse + body[1:])
    if then is None or other is None:
        return None
    return A.IfExpr(st.pos, st.cond, then, other)


def _bound_in(loop: A.For) -> set[str]:
    """The names a loop, its body or a loop inside it binds."""
    return {loop.var} | {n.name for n in A.nodes(loop.body) if isinstance(n, A.Let)} \
        | {n.var for n in A.nodes((loop.cond, loop.body)) if isinstance(n, (A.For, A.Generator))}


def _own_lists(stmts: tuple[A.Stmt, ...], params: set[str]) -> dict[str, frozenset[str]]:
    """The local lists of a body that nothing but local names can hold, each with the names
    that may hold the same list (`frontier = further`): each is made afresh (`let out:
    list[Unit] = []`, a comprehension) or given one of those names, and otherwise only grown
    (`out += ...`), measured (`len(out)`), searched (`x in out`), gone through (`for x in
    out`) or returned whole. So no loop goes through such a list unless it names one of them."""
    made: set[str] = set()
    spoilt = set(params)
    allowed: set[int] = set()
    same: dict[str, set[str]] = {}

    def alias(a: str, b: str) -> None:
        group = same.setdefault(a, {a}) | same.setdefault(b, {b})
        for name in group:
            same[name] = group

    for n in A.nodes(stmts):
        if isinstance(n, A.Let):
            if isinstance(n.value, (A.ListLit, A.ListComp)):
                made.add(n.name)
            elif isinstance(n.value, A.Name):
                allowed.add(id(n.value))
                alias(n.name, n.value.name)
            else:
                spoilt.add(n.name)
        elif isinstance(n, (A.For, A.Generator)):
            spoilt.add(n.var)
            if isinstance(n.iter, A.Name):
                allowed.add(id(n.iter))
        elif isinstance(n, A.Assign) and isinstance(n.target, A.Name):
            allowed.add(id(n.target))
            if n.op == "=" and isinstance(n.value, A.Name):
                allowed.add(id(n.value))
                alias(n.target.name, n.value.name)
            elif n.op == "=" and not isinstance(n.value, (A.ListLit, A.ListComp)):
                spoilt.add(n.target.name)
        elif isinstance(n, A.Return) and isinstance(n.value, A.Name):
            allowed.add(id(n.value))
        elif isinstance(n, A.Compare) and n.op in ("in", "not in") and isinstance(n.right, A.Name):
            allowed.add(id(n.right))
        elif isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.name == "len" \
                and len(n.args) == 1 and isinstance(n.args[0], A.Name):
            allowed.add(id(n.args[0]))
    for n in A.nodes(stmts):
        if isinstance(n, A.Name) and id(n) not in allowed:
            spoilt.add(n.name)
    out: dict[str, frozenset[str]] = {}
    for name in made:
        group = frozenset(same.get(name, {name}))
        if not group & spoilt:
            for member in group:
                out[member] = group
    return out


def _asks_choose(node: Any) -> bool:
    return any(isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.name == "choose" for n in _nodes(node))


def _plain(t: Any, lists: bool = False, floats: bool = False) -> bool:
    """Is the type text, a whole number or a truth value (a float too if `floats`), or a list
    of one of those if `lists`? (What a kept answer may be keyed by or be.)"""
    if lists and t.name == "list" and len(t.args) == 1:
        t = t.args[0]
    return t.name in ("str", "int", "bool", *(("float",) if floats else ())) and not t.args


def _nested_loop(body: Any) -> bool:
    """Does the code hold a loop inside a loop (its own, not its callees')?"""
    return any(isinstance(n, (A.For, A.Generator)) and any(
        isinstance(m, (A.For, A.Generator)) and m is not n for m in _nodes(n)) for n in _nodes(body))


#: the comparisons of a stat with a literal that tell unit types apart (`kinds_passing`)
_STAT_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_LITERALS = (A.IntLit, A.FloatLit, A.StrLit, A.BoolLit)


def _nodes_but_priors(node: Any) -> Iterator[Any]:
    """`_nodes`, without the priors of moves and answers (see `knowledge_only`)."""
    if isinstance(node, (list, tuple)):
        for x in node:
            yield from _nodes_but_priors(x)
    elif hasattr(node, "__dataclass_fields__") and not isinstance(node, A.TypeExpr):
        yield node
        for f in node.__dataclass_fields__:
            if f != "pos" and f != "prior":
                yield from _nodes_but_priors(getattr(node, f))


def _count_nodes(node: Any) -> int:
    return sum(1 for _ in _nodes(node))


def _builds_list(pr: A.ProcedureDecl) -> bool:
    """Is the procedure of the shape of one that builds its list (`let out = []` ... `return
    out`: see `list_builder`)?"""
    first, last = pr.body[0] if pr.body else None, pr.body[-1] if pr.body else None
    return isinstance(first, A.Let) and isinstance(first.value, A.ListLit) and isinstance(last, A.Return) \
        and isinstance(last.value, A.Name) and last.value.name == first.name


def _makes_lists(node: Any) -> bool:
    """Does the code hold a comprehension, a generator or a list or map literal?"""
    return any(isinstance(n, (A.Generator, A.ListComp, A.ListLit, A.MapLit)) or (isinstance(n, A.Call) and n.gen is not None)
               for n in _nodes(node))


def compile_program(program: Program, fingerprint: str) -> Artifact:
    """Generate and compile the Python module for a checked program (no diagnostics left)."""
    g = _Gen(program)
    source = g.module()
    filename = f"<rules {fingerprint[:12]}>"
    try:
        code = compile(source, filename, "exec", dont_inherit=True, optimize=2)
    except SyntaxError as exc:  # nested past Python's limits: the caller says where
        exc.linemap = g.linemap  # type: ignore[attr-defined]
        raise
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    recording = recording_twins(source, g.recording_renames(), filename)
    return Artifact(source, code, filename, g.linemap, program, g.costs, frozenset(g.asking), recording)


# A procedure kept by the spaces it reads (see `_Gen.space_kept_answers`) is worked out, when
# its answer is not kept, by a recording twin of its work: the same code, in which every read
# of the pieces of a space or of its control (`ctx._at.get(s, ...)`, `ctx.control.get(s,
# ...)`, `p_units_at(ctx, s)`) first adds the space to a set (`_rsa`, that set's `add`: a C
# call), and every call of a procedure that reads only spaces calls that procedure's twin
# (the work of one that is kept: inside a recording, nothing kept is given). The twins are
# made from the generated code (Python's own syntax trees), each keeping its lines, so that
# an error in one is placed in the rules as the original's is.
_READ_TABLES = ("_at", "control")
_READ_CALLS = ("p_units_at", "p_controller")


def recording_twins(source: str, renames: dict[str, str], filename: str) -> CodeType | None:
    """The code of the recording twins `renames` asks for (see above), or None for none."""
    if not renames:
        return None
    starts: dict[str, int] = {}
    lines = source.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("def f_"):
            starts[line[4:line.index("(")]] = i
    wanted = {twin: (twin[:-len("__rec")]) for twin in renames.values()}
    made: list[pyast.stmt] = []
    todo = sorted(t for t, src in wanted.items() if src in starts and src.endswith("__work"))
    done: set[str] = set()
    while todo:
        twin = todo.pop()
        if twin in done:
            continue
        done.add(twin)
        src = wanted.get(twin, twin[:-len("__rec")])
        i = starts[src]
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or lines[j][0] in " \t"):
            j += 1
        tree = pyast.parse("".join(lines[i:j]))
        pyast.increment_lineno(tree, i)
        fn = tree.body[0]
        assert isinstance(fn, pyast.FunctionDef)
        fn.name = twin
        recorder = _Recorder(renames)
        recorder.visit(fn)
        if recorder.unknown:
            raise AssertionError(f"{src} reads the state otherwise than by space: no recording twin")
        made.append(fn)
        todo.extend(t for t in recorder.called if t not in done and wanted.get(t, "") in starts)
    module = pyast.Module(body=made, type_ignores=[])
    pyast.fix_missing_locations(module)
    return compile(module, filename, "exec", dont_inherit=True, optimize=2)


class _Recorder(pyast.NodeTransformer):
    """Makes a function a recording twin (see `recording_twins`)."""

    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames
        self.called: set[str] = set()
        self.unknown = False

    def visit_Name(self, node: pyast.Name) -> pyast.AST:
        twin = self.renames.get(node.id)
        if twin is not None and isinstance(node.ctx, pyast.Load):
            self.called.add(twin)
            return pyast.copy_location(pyast.Name(twin, pyast.Load()), node)
        return node

    def visit_Attribute(self, node: pyast.Attribute) -> pyast.AST:
        if isinstance(node.value, pyast.Name) and node.value.id == "ctx" and node.attr in _READ_TABLES:
            self.unknown = True     # (read otherwise than by `get`: see visit_Call)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: pyast.Call) -> pyast.AST:
        f = node.func
        at = None
        if isinstance(f, pyast.Attribute) and f.attr == "get" and isinstance(f.value, pyast.Attribute) \
                and isinstance(f.value.value, pyast.Name) and f.value.value.id == "ctx" \
                and f.value.attr in _READ_TABLES and node.args:
            at = 0
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
        elif isinstance(f, pyast.Name) and f.id in _READ_CALLS and len(node.args) >= 2:
            at = 1
            self.generic_visit(node)
        else:
            self.generic_visit(node)
            return node
        space = node.args[at]
        noted = pyast.Call(pyast.Name("_rsa", pyast.Load()), [space], [])
        node.args[at] = pyast.copy_location(pyast.BoolOp(pyast.Or(), [noted, copy.deepcopy(space)]), space)
        return node


def instantiate(artifact: Artifact, option_values: dict[str, Any]) -> dict[str, Any]:
    """Run the compiled module with the given option values; returns its namespace."""
    p = artifact.program
    reg = p.registry
    ns: dict[str, Any] = {"__builtins__": {}}
    ns.update(HELPERS)
    ns["U"] = {}
    ns["_L"] = BUDGET.steps   # the steps left to the call under way (dsl.runtime)
    ns["_I"] = BUDGET.items
    ns["_MISS"] = object()   # (no kept answer: see _Gen.kept_answers)
    ns["_KB"] = None         # the board whose answers are kept
    ns["_G"] = 0             # the generation of remembered answers (see _Gen.remembers)
    ns["_AU"] = []           # the dicts of remembered answers that hold some (see dsl.runtime)
    ns["_rsa"] = None        # where a recording twin notes the spaces it reads (see _Gen.space_kept_answers)
    ns["_UT"] = unit_type_class(list(p.stats))
    ns["_later"] = functools.partial(Later, ns=ns, where=(artifact.filename, artifact.linemap))
    ns["_weigh"] = functools.partial(Weigh, ns=ns, where=(artifact.filename, artifact.linemap))
    for name, spec in reg.primitives.items():
        ns[f"p_{name}"] = spec.fn
    for name, c in reg.constants.items():
        ns[f"c_{name}"] = c.value
    for name, value in option_values.items():
        ns[f"o_{name}"] = frozen = frozen_value(value)
        if isinstance(frozen, MappingProxyType):
            ns[f"_od_{name}"] = dict(frozen)    # (read by `_Gen.looked_up` alone)
    try:
        exec(artifact.code, ns)
        if artifact.recording is not None:
            exec(artifact.recording, ns)
    except RulesRuntimeError as exc:
        raise exc.with_pos(_module_pos(exc, artifact)) from None
    # the remembered answers (see _Gen.remembers): forgotten when the entry that asked them
    # ends (dsl.runtime), so that no old state is kept alive by them
    ns["_AS"] = [v for k, v in ns.items() if k.startswith("_A_")]
    if ns["_AS"]:
        for name, spec in reg.primitives.items():
            if spec.changes:
                ns[f"p_{name}"] = _new_generation(spec.fn, ns)
    return ns


def _new_generation(fn: Callable[..., Any], ns: dict[str, Any]) -> Callable[..., Any]:
    """A primitive that changes the game: answers remembered before it (or during it, should
    it ask the rules anything) are not given again."""
    def changes(*args: Any) -> Any:
        ns["_G"] += 1
        try:
            return fn(*args)
        finally:
            ns["_G"] += 1
    return changes


def _module_pos(exc: BaseException, artifact: Artifact) -> Pos | None:
    """Where in the rules the module's own code (unit stats, tables) failed."""
    tb = exc.__traceback__
    pos = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == artifact.filename and 0 < tb.tb_lineno < len(artifact.linemap):
            pos = artifact.linemap[tb.tb_lineno] or pos
        tb = tb.tb_next
    return pos
