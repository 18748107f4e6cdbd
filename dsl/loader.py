"""Loading rules: files -> layers (following ``extends``) -> checked program -> compiled
:class:`~dsl.model.CompiledRules`, with option overrides validated and coerced.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from . import ast as A
from .checker import OptionInfo, Program, check_program
from .compiler import Artifact, compile_program, instantiate
from .errors import Diagnostic, Pos, RulesError, RulesRuntimeError, did_you_mean
from .files import NotAFile, TooBig, read_bounded
from .model import (
    CompiledRules,
    Declaration,
    MoveSpec,
    OptionSpec,
    PhaseSpec,
    SequenceDecl,
    StatSpec,
    StepSpec,
    TaskSpec,
    VarSpec,
)
from .parser import parse_module, too_deep
from .registry import Registry
from .runtime import priors_together, translate_errors, whole_number
from .types import BOOL, FLOAT, INT, STR, ListType, MapType, Type

__all__ = ["load_rules", "check_rules", "coerce_option", "RulesSource"]

RulesSource = str | PathLike[str] | tuple[str, str]
Files = RulesSource | Sequence[RulesSource]
ResolveExtends = Callable[[str], Sequence[RulesSource]]

_OPT_POS = Pos("<options>", 0, 0)

#: the largest rules file, and all the files of one load together (the biggest file shipped
#: is about 24 KB; parsing takes about 30 ms a kilobyte, so these keep a load within seconds)
MAX_FILE_BYTES = 256 << 10
MAX_TOTAL_BYTES = 1 << 20


def _as_list(files: Files) -> list[RulesSource]:
    if isinstance(files, (str, PathLike)):
        return [files]
    if _is_pair(files):
        return [files]  # type: ignore[list-item]
    return list(files)  # type: ignore[arg-type]


def _is_pair(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) and isinstance(x[1], str) \
        and not x[1].endswith(".rules")


def _read(src: RulesSource) -> tuple[str, str]:
    if isinstance(src, tuple):
        return src[0], src[1]
    path = Path(src)
    return str(path), read_bounded(path, MAX_FILE_BYTES).decode("utf-8")


class _Loaded:
    def __init__(self) -> None:
        self.layers: list[list[A.Module]] = []
        self.texts: list[tuple[str, str]] = []
        self.diags: list[Diagnostic] = []
        self.size = 0


def _load_layers(files: Files, resolve_extends: ResolveExtends | None) -> _Loaded:
    out = _Loaded()
    _load_layer(_as_list(files), resolve_extends, out, [])
    return out


def _load_layer(files: list[RulesSource], resolve: ResolveExtends | None, out: _Loaded, chain: list[str]) -> None:
    modules: list[A.Module] = []
    texts: list[tuple[str, str]] = []
    for src in files:
        try:
            name, text = _read(src)
        except TooBig as exc:
            out.diags.append(Diagnostic(Pos(str(src), 0, 0), f"rules file `{src}` is {exc.size:,} bytes; a rules file "
                                        f"may have {MAX_FILE_BYTES:,}", "split the rules, or write a long table as a data file"))
            continue
        except NotAFile as exc:
            out.diags.append(Diagnostic(Pos(str(src), 0, 0), f"rules file `{src}` is {exc.kind}, not a file"))
            continue
        except UnicodeDecodeError as exc:
            out.diags.append(Diagnostic(Pos(str(src), 0, 0), f"rules file `{src}` is not UTF-8 text (byte {exc.start})",
                                        "save it as UTF-8"))
            continue
        except OSError as exc:
            out.diags.append(Diagnostic(Pos(str(src), 0, 0), f"cannot read rules file `{src}`: {exc.strerror}"))
            continue
        size = len(text.encode("utf-8", "surrogatepass"))
        out.size += size
        if size > MAX_FILE_BYTES or out.size > MAX_TOTAL_BYTES:
            what = (f"is {size:,} bytes; a rules file may have {MAX_FILE_BYTES:,}" if size > MAX_FILE_BYTES else
                    f"brings the rules to {out.size:,} bytes; the files of a ruleset may have {MAX_TOTAL_BYTES:,} together")
            out.diags.append(Diagnostic(Pos(name, 0, 0), f"rules file `{name}` {what}",
                                        "split the rules, or write a long table as a data file"))
            continue
        texts.append((name, text))
        try:
            modules.append(parse_module(text, name))
        except RulesError as exc:
            out.diags.extend(exc.diagnostics)
    ext = [m.extends for m in modules if m.extends is not None]
    if ext:
        first = ext[0]
        for other in ext[1:]:
            if other.name != first.name:
                out.diags.append(Diagnostic(other.pos, f"files of one ruleset extend different bases: `{first.name}` and `{other.name}`"))
        if first.name in chain:
            out.diags.append(Diagnostic(first.pos, f"`extends {first.name}` makes a cycle: {' -> '.join(chain + [first.name])}"))
        elif resolve is None:
            out.diags.append(Diagnostic(first.pos, f"`extends {first.name}`: no way to find base rulesets was given",
                                        "pass resolve_extends=... to load_rules"))
        else:
            try:
                base = list(resolve(first.name))
            except (KeyError, LookupError, OSError, ValueError):
                base = []
            if not base:
                out.diags.append(Diagnostic(first.pos, f"unknown base ruleset `{first.name}`"))
            else:
                _load_layer(base, resolve, out, chain + [first.name])
    out.layers.append(modules)
    out.texts.extend(texts)


def _fingerprint(texts: list[tuple[str, str]]) -> str:
    h = hashlib.sha256()
    for _, text in texts:
        data = text.encode("utf-8")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def check_rules(files: Files, registry: Registry, resolve_extends: ResolveExtends | None = None,
                report_unread: bool = False) -> list[Diagnostic]:
    """Every problem in the rules (parse and check), without compiling. Empty when fine.
    With ``report_unread``, stats and tags that no rule reads come as warnings."""
    loaded = _load_layers(files, resolve_extends)
    diags = list(loaded.diags)
    try:
        program = check_program(loaded.layers, registry, report_unread)
        diags.extend(program.diagnostics)
        if not any(d.severity == "error" for d in diags):
            _compile(program, _fingerprint(loaded.texts), loaded)  # Python's own limits on nesting
    except RecursionError:
        diags.append(too_deep(_first_pos(loaded)))
    except RulesError as exc:
        diags.extend(exc.diagnostics)
    return _sorted(diags, loaded.texts)


def _compile(program: Program, fp: str, loaded: _Loaded) -> Artifact:
    try:
        return compile_program(program, fp)
    except (RecursionError, SyntaxError, MemoryError) as exc:
        # Python's own limits (200 nested parentheses, 100 indented blocks) in the generated code
        raise RulesError([too_deep(_compiled_pos(exc, program) or _first_pos(loaded))], dict(loaded.texts)) from None


def _first_pos(loaded: _Loaded) -> Pos:
    return Pos(loaded.texts[-1][0], 1, 1) if loaded.texts else _OPT_POS


def _sorted(diags: list[Diagnostic], texts: list[tuple[str, str]]) -> list[Diagnostic]:
    order = {name: i for i, (name, _) in enumerate(texts)}
    seen: set[tuple[Pos, str]] = set()
    unique = []
    for d in diags:
        if (d.pos, d.message) not in seen:
            seen.add((d.pos, d.message))
            unique.append(d)
    return sorted(unique, key=lambda d: (order.get(d.pos.file, -1), d.pos.line, d.pos.col))


def load_rules(
    files: Files,
    registry: Registry,
    *,
    resolve_extends: ResolveExtends | None = None,
    options: Mapping[str, Any] | None = None,
) -> CompiledRules:
    """Parse, check and compile rules files (a path, a list of paths, or ``(name, text)``
    pairs). Base layers named by ``extends`` come from ``resolve_extends(name)``.
    ``options`` overrides option values by name; strings are coerced to the option's type.
    Raises :class:`RulesError` with every diagnostic found."""
    registry.validate()
    loaded = _load_layers(files, resolve_extends)
    sources = dict(loaded.texts)
    try:
        program = check_program(loaded.layers, registry)
    except RecursionError:
        raise RulesError([too_deep(_first_pos(loaded))], sources) from None
    diags = _sorted(loaded.diags + program.diagnostics, loaded.texts)
    if any(d.severity == "error" for d in diags):
        raise RulesError(diags, sources)
    fp = _fingerprint(loaded.texts)
    artifact = _compile(program, fp, loaded)
    const_env = {n: c.value for n, c in program.registry.constants.items()}
    specs = {
        name: OptionSpec(name, o.type, o.default, o.doc, o.pos, o.bounds, o.status, o.source,
                         _layer_defaults(program.history.get(("option", name), []), o.default, const_env))
        for name, o in program.options.items()
    }
    values = _option_values(program.options, specs, options or {})
    declarations = _declarations(program, loaded.layers)
    return _build(artifact, specs, values, fp, [n for n, _ in loaded.texts], declarations)


def _layer_defaults(decls: list[A.OptionDecl], final: Any, env: dict[str, Any]) -> tuple[tuple[Pos, Any], ...]:
    """(where, default) for an option's declaration and each override of it, base first."""
    from .checker import NotStatic, static_eval

    out = []
    for i, d in enumerate(decls):
        if i == len(decls) - 1:
            value = final
        else:
            try:
                value = static_eval(d.value, env)
            except (NotStatic, ArithmeticError, LookupError, TypeError, ValueError):
                value = None
        out.append((d.pos, value))
    return tuple(out)


def _declarations(program: Program, layers: list[list[A.Module]]) -> dict[tuple[str, str], Declaration]:
    """Every declaration in force, with its source text and the layers that wrote it."""
    texts = {id(d): t for modules in layers for m in modules for d, t in zip(m.decls, m.texts)}
    out = {}
    for key, decls in program.history.items():
        if not decls:
            continue
        hook, doc, signature = False, "", ""
        procs = [d for d in decls if isinstance(d, A.ProcedureDecl)]
        if procs:
            # a hook stays one through its overrides, with the latest doc written
            hook = any(d.hook for d in procs)
            doc = next((d.doc for d in reversed(procs) if d.doc), "")
            first = procs[0]
            signature = f"{first.name}({', '.join(f'{p.name}: {p.type}' for p in first.params)})" \
                        + (f" -> {first.ret}" if first.ret is not None else "")
        out[key] = Declaration(key[0], key[1], texts.get(id(decls[-1]), ""), tuple(d.pos for d in decls),
                               hook, doc, signature)
    return out


def _compiled_pos(exc: BaseException, program: Program) -> Pos | None:
    """The rules position of a line of generated code Python could not compile."""
    line = getattr(exc, "lineno", None)
    linemap = getattr(exc, "linemap", None)
    if isinstance(line, int) and linemap is not None and 0 < line < len(linemap):
        return linemap[line]  # type: ignore[no-any-return]
    return None


# ------------------------------------------------------------------------------ options


def _teams(p: Any, powers: tuple[str, ...], given: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    """The teams `teams` gives with these options, each a run of powers next to each other
    in the turn order (RulesError otherwise)."""
    # an entry that is a list of powers (an option a scenario sets) is spliced in where it stands
    spliced = [[x for entry in team for x in (entry if isinstance(entry, (list, tuple)) else [entry])] for team in given]
    teams = tuple(tuple(team) for team in spliced if team)
    seen: list[str] = []
    for team in teams:
        problem = ""
        if any(x not in powers for x in team):
            problem = f"names {', '.join(f'`{x}`' for x in team if x not in powers)}, not in the turn order {list(powers)}"
        elif any(x in seen or team.count(x) > 1 for x in team):
            problem = f"names {', '.join(f'`{x}`' for x in team if x in seen or team.count(x) > 1)} twice"
        elif list(powers[powers.index(team[0]):powers.index(team[0]) + len(team)]) != list(team):
            problem = f"{list(team)} are not next to each other, in this order, in the turn order {list(powers)}"
        if problem:
            raise RulesError([Diagnostic(p.teams.pos, f"`teams` {problem} with these options")])
        seen += team
    return teams


def _option_values(infos: dict[str, OptionInfo], specs: dict[str, OptionSpec], overrides: Mapping[str, Any]) -> dict[str, Any]:
    values = {name: o.default for name, o in infos.items()}
    diags: list[Diagnostic] = []
    for name, raw in overrides.items():
        if name not in specs:
            diags.append(Diagnostic(_OPT_POS, f"unknown option `{name}`", did_you_mean(name, specs)))
            continue
        try:
            values[name] = coerce_option(specs[name].type, raw)
        except ValueError as exc:
            diags.append(Diagnostic(_OPT_POS, f"option `{name}` is `{specs[name].type}`: {exc}"))
            continue
        default = infos[name].default if name in infos else None
        if isinstance(default, Mapping) and isinstance(values[name], Mapping):
            # the rules look up the keys its default has: a map without one stops a game later
            missing = [k for k in default if k not in values[name]]
            if missing:
                diags.append(Diagnostic(_OPT_POS, f"option `{name}` has no `{missing[0]}`"
                                                  + (f" (nor {', '.join(f'`{k}`' for k in missing[1:])})" if missing[1:] else "")
                                                  + f": give every key of its default ({', '.join(map(str, default))})"))
                continue
        bounds = specs[name].bounds
        if bounds is not None:
            from .checker import out_of_bounds

            bad = out_of_bounds(values[name], *bounds)
            if bad is not None:
                diags.append(Diagnostic(_OPT_POS, f"option `{name}` must lie in {bounds[0]}..{bounds[1]}; "
                                                  f"{bad} is outside"))
    if diags:
        raise RulesError(diags)
    return values


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def coerce_option(t: Type, value: Any) -> Any:
    """Check ``value`` against type ``t``; strings (from a command line) are converted.
    Raises ValueError with a readable reason."""
    if isinstance(value, str) and t != STR:
        text = value.strip()
        if t == INT:
            try:
                return whole_number(text)
            except ValueError:
                raise ValueError(f"`{value}` is not a whole number") from None
        if t == FLOAT:
            try:
                if not text.isascii():
                    raise ValueError(text)
                return float(text)
            except ValueError:
                raise ValueError(f"`{value}` is not a number") from None
        if t == BOOL:
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise ValueError(f"`{value}` is not true/false/yes/no/1/0")
        if isinstance(t, (ListType, MapType)):
            try:
                value = json.loads(text)
            except ValueError:
                raise ValueError(f"`{value}` is not a JSON {t}") from None
            except RecursionError:
                raise ValueError(f"`{value}` nests too deeply for a {t}") from None
    try:
        return _check_value(t, value)
    except RecursionError:
        raise ValueError(f"the value nests too deeply for a {t}") from None


def _check_value(t: Type, v: Any) -> Any:
    if t == INT:
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    elif t == FLOAT:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
    elif t == BOOL:
        if isinstance(v, bool):
            return v
    elif t == STR:
        if isinstance(v, str):
            return v
    elif isinstance(t, ListType):
        if isinstance(v, (list, tuple)):
            return [_check_value(t.elem, x) for x in v]
    elif isinstance(t, MapType):
        if isinstance(v, dict):
            return {_check_value(t.key, k): _check_value(t.value, x) for k, x in v.items()}
    else:
        return v
    raise ValueError(f"got {type(v).__name__} {v!r}")


# ------------------------------------------------------------------------------ building


def _step_spec(st: A.StepDecl, ns: dict[str, Any], p: Program, wrap: Callable[..., Any],
               task: Callable[[str], TaskSpec | None], asking: frozenset[str]) -> StepSpec:
    n = st.name

    def fn(key: str) -> Any:
        return wrap(key) if ns.get(key) is not None else None

    asks = set()
    moves = []
    shared = {ns[f"m_{n}_{mv.name}_first_as"] for mv in st.moves if f"m_{n}_{mv.name}_first_as" in ns}
    for mv in st.moves:
        base = f"m_{n}_{mv.name}"
        mv_asks = base + "_do" in asking
        if mv_asks:
            asks.add("move:" + mv.name)
        params = tuple((prm.name, _param_type(prm, p)) for prm in mv.params)
        admits = fn(base + "_admits")
        moves.append(MoveSpec(mv.name, params, wrap(base + "_offers", True), fn(base + "_check"),
                              fn(base + "_do"), fn(base + "_label"), mv_asks, mv.pos,
                              fn(base + "_candidates"), admits, task(base + "_do_task"),
                              wrap(base + "_offers", first=True) if admits is not None else None,
                              fn(base + "_prior"), ns.get(base + "_first_as"), mv.name in shared))
    tasks = {}
    for part, blk in (("start", st.start), ("end", st.end), ("finish", st.finish.body if st.finish else None)):
        if blk is not None and f"s_{n}_{part}" in asking:
            asks.add(part)
            t = task(f"s_{n}_{part}_task")
            if t is not None:
                tasks[part] = t
    return StepSpec(n, fn(f"s_{n}_by"), fn(f"s_{n}_while"), fn(f"s_{n}_start"), fn(f"s_{n}_end"), tuple(moves),
                    fn(f"s_{n}_finish"), fn(f"s_{n}_finish_label"), frozenset(asks), st.pos, tasks,
                    bool(ns.get(f"s_{n}_listed")))


def _param_type(prm: A.MoveParam, p: Program) -> Type:
    from .types import parse_type_text

    def text(t: A.TypeExpr) -> str:
        return t.name + (f"[{', '.join(text(a) for a in t.args)}]" if t.args else "")

    try:
        return parse_type_text(text(prm.type), set(p.registry.records))
    except ValueError:
        return STR


def _build(artifact: Artifact, specs: dict[str, OptionSpec], values: dict[str, Any], fp: str, files: list[str],
           declarations: dict[tuple[str, str], Declaration]) -> CompiledRules:
    p: Program = artifact.program
    try:
        ns = instantiate(artifact, values)
    except RulesRuntimeError as exc:  # a unit's stat beyond the limits (with these options)
        raise RulesError([Diagnostic(exc.pos or _OPT_POS, exc.message)]) from None

    def wrap(name: str, generator: bool = False, first: bool = False) -> Callable[..., Any]:
        """An entry point into the compiled rules: errors translated, under the step budget.
        Offers are a generator: errors surface while it is consumed, so collect it inside
        (`first`: only its first row, or None); offers that are pairs (dsl.runtime.Pairs)
        are given as they are."""
        fn = ns[name]
        if generator and inspect.isgeneratorfunction(fn):
            gen = fn
            fn = lambda ctx, *given: list(gen(ctx, *given))  # noqa: E731
        elif first:
            gen = fn
            fn = lambda ctx, given: next(gen(ctx, given), None)  # noqa: E731
        cost, pos = artifact.costs.get(name, (1, None))
        return translate_errors(fn, artifact.filename, artifact.linemap, cost, pos, ns, on_state=not name.startswith("t_"))

    def task(name: str) -> TaskSpec | None:
        """The entries of a block compiled as a generator (see TaskSpec), if it was."""
        make = ns.get(name)
        if make is None:
            return None
        cost, pos = artifact.costs.get(name, (1, None))

        def begin(ctx: Any, *args: Any) -> tuple[Any, Any] | None:
            gen = make(ctx, *args)
            try:
                return gen, next(gen)
            except StopIteration:
                return None

        def resume(ctx: Any, gen: Any, answer: Any) -> Any:
            try:
                return gen.send((answer, ctx))
            except StopIteration:
                return None

        return TaskSpec(*(translate_errors(f, artifact.filename, artifact.linemap, cost, pos, ns, on_state=True)
                          for f in (begin, resume)))

    stats = {
        name: StatSpec(name, t, ns["_SD"][name], sd.doc, sd.pos) for name, (sd, t) in p.stats.items()
    }
    procedures = {name: wrap(f"f_{name}") for name in list(p.procedures) + list(p.sequences)}
    rounds = {name: wrap(f"f_{name}__round") for name, sq in p.sequences.items() if sq.while_ is not None}
    vars_ = {name: VarSpec(name, v.type, v.default, v.reset, v.doc, v.pos) for name, v in p.vars.items()}
    steps = {name: _step_spec(st, ns, p, wrap, task, artifact.asking) for name, st in p.steps.items()}
    tables = {name: wrap(f"t_{name}") for name in p.tables}
    handlers: dict[str, list[Callable[..., Any]]] = {}
    gates: dict[str, list[Callable[..., Any] | None]] = {}
    for r in p.rules:
        handlers.setdefault(r.event, []).append(wrap(f"r_{r.name}"))
        gates.setdefault(r.event, []).append(ns.get(f"rg_{r.name}"))
    sequence = None
    if p.turns is not None or p.powers is not None or p.phases:
        phases = tuple(
            PhaseSpec(ph.name, tuple(s for s, _ in ph.steps), ph.pos,
                      wrap(f"w_{ph.name}") if ph.when is not None else None)
            for ph in p.phases
        )
        powers = tuple(ns["SEQ_POWERS"])
        twice = sorted({x for x in powers if powers.count(x) > 1})
        if twice and p.powers is not None:
            # an entry that reads an option (`if swap then Blue else Red`) may, with some
            # options, give a power another entry gives
            word = "powers" if p.powers.mode == "shared" else "turn order"
            raise RulesError([Diagnostic(p.powers.pos, f"the {word} names {', '.join(f'`{x}`' for x in twice)} "
                                                       f"twice with these options: {list(powers)}")])
        teams = _teams(p, powers, ns["SEQ_TEAMS"])
        sequence = SequenceDecl(
            turns=p.turns.count if p.turns is not None else None,
            turn_names=tuple(ns["SEQ_TURN_NAMES"]),
            turn_word=p.turns.called if p.turns is not None else "Turn",
            mode=p.powers.mode if p.powers is not None else None,
            powers=powers,
            phases=phases,
            teams=teams,
            together=tuple(n for n, _ in p.teams.together) if p.teams is not None and teams else (),
        )

    def rebuild(new_values: Mapping[str, Any]) -> CompiledRules:
        infos = {n: OptionInfo(n, s.type, A.IntLit(s.pos, 0), s.doc, s.pos, s.default) for n, s in specs.items()}
        return _build(artifact, specs, _option_values(infos, specs, new_values), fp, files, declarations)

    return CompiledRules(
        units=dict(ns["U"]),
        stats=stats,
        options=dict(values),
        option_specs=dict(specs),
        tables=tables,
        sequence=sequence,
        constants={n: c.value for n, c in p.registry.constants.items()},
        fingerprint=fp,
        files=list(files),
        steps=steps,
        vars=vars_,
        declarations=declarations,
        _procedures=procedures,
        _rounds=rounds,
        _handlers=handlers,
        _bound={event: tuple(zip(gates[event], fns)) for event, fns in handlers.items()},
        _rebuild=rebuild,
        listing=ns.get("_LS"),
        weigh=translate_errors(priors_together(ns), artifact.filename, artifact.linemap, ns=ns, on_state=True),
    )
