"""Abuse the `wargame` command with damaged saves, broken mod manifests, bad command lines and
hostile rules files, and count how it copes.

    python scripts/fuzz_inputs.py --cases 200 --seed 0 [--json] [--timeout 20] [--memory-mb 1024] [--family rules]

Each case runs `clients.cli.main([...])` in a forked child (so that a hang can be stopped and
memory capped with an address-space limit), with stdout and stderr captured; the closed-pipe
case runs `python -m clients ... | head -1` as a real subprocess. The hostile rules are mods
whose rules try to hang the game or exhaust its memory (a loop that never ends, a string
doubled in a loop, a 4,301-digit number...): each must end in a clean error, quickly.

A case ends as one of: `ok` (the input was accepted: the mutation left it valid), `clean`
(refused with a `wargame: ...` message or the rules compiler's `file:line:col` block),
`unclear` (refused without saying why), `internal` (the catch-all "internal error" message:
clean, but a bug to look at), or a failure: `traceback`, `hang` (over the per-case timeout),
`memory` (out of memory under the cap), `crash` (the child died), `code_ran` (a mod's
Python plugin ran without --trust-code). The bar is zero failures. Exit 1 if there was one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FAILURES = ("traceback", "hang", "memory", "crash", "code_ran")
OUTCOMES = ("ok", "clean", "unclear", "internal", *FAILURES)
TRACEBACK = "Traceback (most recent call last)"


@dataclass
class Case:
    family: str
    what: str
    argv: list[str]
    pipe: bool = False
    marker: Path | None = None          # a file the mod's plugin would write if it ran


@dataclass
class Outcome:
    case: Case
    kind: str
    code: int | None = None
    out: str = ""
    err: str = ""
    seconds: float = 0.0
    peak_mb: float = 0.0


@dataclass
class Fixtures:
    """Valid inputs to damage: a Bulge save, a mod folder and a save made with it."""

    tmp: Path
    save_text: str = ""
    mod_dir: Path = field(default_factory=Path)
    mod_save_text: str = ""
    n: int = 0

    def path(self, suffix: str) -> Path:
        self.n += 1
        return self.tmp / f"case{self.n}{suffix}"


def make_fixtures(tmp: Path, seed: int) -> Fixtures:
    from clients.players import RandomPlayer
    from engine import plugins, save
    from engine.game import Game

    fx = Fixtures(tmp)
    rs = plugins.load("bulge")
    game = Game(rs, None, seed)
    player = RandomPlayer(seed)
    for _ in range(80):
        game.play(player.choose(rs, game.state, game.decision))
    path = tmp / "base.json"
    save.save(game, path)
    fx.save_text = path.read_text(encoding="utf-8")
    fx.mod_dir = tmp / "house"
    shutil.copytree(ROOT / "examples" / "bulge-house-rules", fx.mod_dir)
    mod_rs = plugins.load(fx.mod_dir)
    game = Game(mod_rs, None, seed)
    for _ in range(20):
        game.play(player.choose(mod_rs, game.state, game.decision))
    path = tmp / "mod-base.json"
    save.save(game, path)
    fx.mod_save_text = path.read_text(encoding="utf-8")
    return fx


# -- damaged saves ----------------------------------------------------------------------------------
JUNK: list[Any] = [5, -1, 0, 3.5, "x", "", None, True, {}, {"a": 1}, [], [None], [[1]], ["1709"],
                   [10**6], 10**30, "9" * 5000, [1] * 20_000, {"pieces": {"pieces": 1}}]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _save_mutations(r: random.Random, text: str) -> tuple[str, bytes | str]:
    """(what, new content) for one damaged save."""
    data = json.loads(text)
    actions = data["actions"]

    def dumped(what: str) -> tuple[str, str]:
        return what, json.dumps(data)

    choice = r.randrange(22)
    if choice == 0:
        cut = r.randrange(len(text))
        return f"truncated at {cut}", text[:cut]
    if choice == 1:
        depth = r.choice([50, 65, 100, 1000, 100_000, 1_000_000])
        key = r.choice(["state", "options", "result", "actions"])
        raw = json.dumps({**data, key: "@@"}).replace('"@@"', _nested(depth))
        return f"{key} nested {depth} deep", raw
    if choice == 2:
        digits = r.choice([20, 30, 4300, 5000, 100_000])
        raw = json.dumps({**data, "seed": 0}).replace('"seed": 0', '"seed": ' + "9" * digits)
        return f"a {digits}-digit seed", raw
    if choice == 3:
        data["seed"] = r.choice([-1, 1 << 64, 1.5, "five", None, [], 1e300])
        return dumped(f"seed {data['seed']!r:.30}")
    if choice in (4, 5):
        with_pieces = [a for a in actions if "pieces" in a["args"]] or actions
        a = r.choice(with_pieces)
        a["args"]["pieces"] = r.choice(JUNK)
        return dumped(f"an action's pieces = {a['args']['pieces']!r:.40}")
    if choice == 6:
        a = r.choice(actions)
        key = r.choice([*a["args"], "to", "piece", "hex", "from", "truck", "side", "kind", "blitz", "zz"])
        a["args"][key] = r.choice(JUNK)
        return dumped(f"an action's {key} = {a['args'][key]!r:.40}")
    if choice == 7:
        a = r.choice(actions)
        a["kind"] = r.choice(["", "fly", "x" * 300, 5, None, "move"])
        if r.random() < 0.5:
            a["args"] = r.choice([5, "x", [], None])
        return dumped(f"an action's kind {a['kind']!r:.20}, args {a['args']!r:.20}")
    if choice == 8:
        raw = text.encode("utf-8")
        at = r.randrange(len(raw))
        return f"non-UTF-8 byte at {at}", raw[:at] + bytes([r.choice([0x80, 0xC3, 0xFF, 0xFE])]) + raw[at + 1:]
    if choice == 9:
        raw = bytearray(text.encode("utf-8"))
        for _ in range(r.randint(1, 20)):
            raw[r.randrange(len(raw))] = r.randrange(256)
        return "random bytes flipped", bytes(raw)
    if choice == 10:
        data["schema_version"] = r.choice([1, 3, 99, "2", None, -1, 1e100, True, [2]])
        return dumped(f"schema_version {data['schema_version']!r}")
    if choice == 11:
        key = r.choice(list(data))
        del data[key]
        return dumped(f"no `{key}`")
    if choice == 12:
        data[r.choice(["extra", "mods_folder", "Seed"])] = 1
        return dumped("an unknown key")
    if choice == 13:
        name = r.choice(["die", "hit_on", "stacking_limit", "supply_income", "victory_vp", "last_turn",
                         "no_such_option", "custom_setup"])
        data["options"] = {name: r.choice([*JUNK, 10**7, -(10**7), {"Axis": 10**9, "Allies": 1},
                                           {"Axis": 100000, "Allies": 11}, 1, 0])}
        return dumped(f"option {name} = {data['options'][name]!r:.40}")
    if choice == 14:
        data["mods"] = r.choice([["/tmp/evil"], [{"name": "evil", "fingerprint": "0" * 64}],
                                 [{"name": "bulge", "fingerprint": "0" * 64}], "house", [5],
                                 [{"name": "x"}]])
        return dumped(f"mods {data['mods']!r:.40}")
    if choice == 15:
        data["state"]["turn"] = r.choice([99, -1, "x", None, 10**40])
        return dumped(f"state.turn {data['state']['turn']!r:.20}")
    if choice == 16:
        data["ruleset"] = r.choice(["chess", "../../etc/passwd", "", "x" * 300, 5, "bulge-house-rules"])
        return dumped(f"ruleset {data['ruleset']!r:.20}")
    if choice == 17:
        data["scenario"] = r.choice(["nowhere", "", 5, None, "x" * 1000])
        return dumped(f"scenario {data['scenario']!r:.20}")
    if choice == 18:
        data["actions"] = r.choice([5, {}, "x", None, [{"kind": "pass"}] * 10_000, [[]], [{}]])
        return dumped(f"actions {str(data['actions'])[:30]}")
    if choice == 19:
        return "empty file", r.choice(["", " ", "null", "[]", "{}", '"wargame-save"'])
    if choice == 20:
        return "random bytes", bytes(r.randrange(256) for _ in range(r.randint(1, 400)))
    data["result"] = r.choice([5, "x", [], {"winner": 5}, {"a": {"b": {}}}])
    return dumped(f"result {data['result']!r:.20}")


def save_case(r: random.Random, fx: Fixtures) -> Case:
    modded = r.random() < 0.25
    what, content = _save_mutations(r, fx.mod_save_text if modded else fx.save_text)
    path = fx.path(".json")
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    mods = ["--mod", str(fx.mod_dir)] if modded and r.random() < 0.8 else []
    if r.random() < 0.2:
        argv = [*mods, "play", "--load", str(path), "--ai", "all=random", "--quiet"]
    else:
        argv = [*mods, "replay", str(path)]
    return Case("save", ("mod save: " if modded else "") + what, argv)


#: the commands that read a save
_READERS = (["replay"], ["play", "--ai", "all", "--quiet", "--load"])


def odd_file_case(r: random.Random, fx: Fixtures) -> Case:
    """A save that is not a file one can read: a folder, a huge file, a missing one, a FIFO
    (whose reader would wait for ever), a device that never ends."""
    path = fx.path(".json")
    choice = r.randrange(5)
    if choice == 3:
        os.mkfifo(path)
        return Case("save", "a FIFO", [*r.choice(_READERS), str(path)])
    if choice == 4:
        return Case("save", "/dev/zero", [*r.choice(_READERS), "/dev/zero"])
    if choice == 0:
        path.mkdir()
        what = "a folder"
    elif choice == 1:
        with path.open("wb") as f:        # sparse: costs no disk
            f.truncate(r.choice([65 << 20, 1 << 30]))
        what = "a huge file"
    else:
        what = "no file"
    return Case("save", what, [*r.choice(_READERS), str(path)] if choice != 2 else
                ["replay", str(path)])


# -- broken manifests ----------------------------------------------------------------------------------
def _manifest_mutations(r: random.Random, folder: Path, marker: Path) -> tuple[str, dict[str, Any] | bytes | str]:
    base: dict[str, Any] = {"name": "fuzz-mod", "extends": "bulge", "rules": ["house.rules"]}
    m = dict(base)
    choice = r.randrange(20)
    if choice == 0:
        m["rules"] = r.choice([5, "house.rules", [], [5], None, {"a": 1}, ["house.rules"] * 2000])
        return f"rules {str(m['rules'])[:30]}", m
    if choice == 1:
        m["extends"] = r.choice([["bulge"], 5, "nosuch", "", "fuzz-mod", {"x": 1}, "bulge; rm -rf /"])
        return f"extends {m['extends']!r:.30}", m
    if choice == 2:
        m["name"] = r.choice([5, "", "bad name!", "x" * 500, None, "bulge", ["a"]])
        return f"name {m['name']!r:.30}", m
    if choice == 3:
        key = r.choice(["rules", "name"])
        del m[key]
        return f"no {key}", m
    if choice == 4:
        m[r.choice(["rulez", "extend", "plugins", "Name", "x"])] = 1
        return "an unknown key", m
    if choice == 5:
        raw = json.dumps(m).encode()
        at = r.randrange(len(raw))
        return "non-UTF-8 manifest", raw[:at] + b"\xff\xfe" + raw[at:]
    if choice == 6:
        text = json.dumps(m)
        return "truncated manifest", text[: r.randrange(len(text))]
    if choice == 7:
        return "not an object", r.choice(["[]", "5", '"x"', "null", _nested(r.choice([10, 100_000]))])
    if choice == 8:
        m["rules"] = [r.choice(["missing.rules", "../house.rules", "/etc/passwd", "", ".", "sub/",
                                "house.rules\x00x", "a" * 300])]
        return f"rules file {m['rules'][0]!r:.30}", m
    if choice == 9:
        m["scenarios"] = r.choice([5, [{"nam": "x"}], [{"name": 5}], [None], "all", [{}]])
        return f"scenarios {m['scenarios']!r:.30}", m
    if choice == 10:
        (folder / "p.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n", encoding="utf-8")
        m["plugin"] = "p.py"
        return "a Python plugin (must not run)", m
    if choice == 11:
        m["plugin"] = r.choice(["missing.py", "../p.py", 5, "/etc/passwd"])
        return f"plugin {m['plugin']!r:.20}", m
    if choice == 12:
        m["data"] = r.choice([["missing.json"], "x", [5], ["bad.json"]])
        (folder / "bad.json").write_text("{not json", encoding="utf-8")
        return f"data {m['data']!r:.20}", m
    if choice == 13:
        (folder / "house.rules").write_bytes(b"extends bulge\n\xff\xfe override option x = 1\n")
        return "non-UTF-8 rules file", m
    if choice == 14:
        (folder / "house.rules").write_text(r.choice(["", "override option stacking_limit = 6\n",
                                                      "extends nosuch\n"]), encoding="utf-8")
        return "rules file without the right extends line", m
    if choice == 15:
        m["version"] = r.choice([[1], {"a": 1}, None, 10**400 if False else 1e308])
        return f"version {m['version']!r:.20}", m
    if choice == 16:
        m["sides"] = r.choice([5, [5], "Axis", [None]])
        return f"sides {m['sides']!r:.20}", m
    if choice == 17:
        raw = json.dumps(m).replace('"rules"', '"n": ' + "9" * 5000 + ', "rules"')
        return "a 5000-digit number", raw
    if choice == 18:
        (folder / "ruleset.json").mkdir()
        return "ruleset.json is a folder", b""
    return "valid manifest", m


def manifest_case(r: random.Random, fx: Fixtures) -> Case:
    folder = fx.path("-mod")
    folder.mkdir()
    (folder / "house.rules").write_text((fx.mod_dir / "house.rules").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    marker = folder.with_name(folder.name + ".ran")
    what, content = _manifest_mutations(r, folder, marker)
    manifest = folder / "ruleset.json"
    if not manifest.is_dir():
        if isinstance(content, bytes):
            manifest.write_bytes(content)
        elif isinstance(content, str):
            manifest.write_text(content, encoding="utf-8")
        else:
            manifest.write_text(json.dumps(content), encoding="utf-8")
    mod = ["--mod", str(folder)]
    argv = r.choice([
        [*mod, "check", str(folder)],
        [*mod, "info", "fuzz-mod"],
        [*mod, "rulesets"],
        [*mod, "play", "fuzz-mod", "--ai", "all=random", "--quiet", "--seed", "1", "--option", "last_turn=1"],
        ["check", str(folder)],
    ])
    return Case("manifest", what, argv, marker=marker)


# -- bad command lines ----------------------------------------------------------------------------------
OPTION_VALUES = ["1", "0", "-5", "abc", "", "1e9", "1.5", "true", "9" * 5000, "9" * 20_000, "[]", "{}",
                 '{"Axis": 100000, "Allies": 11}', '{"Axis": 10000000, "Allies": 11}', '{"Axis": -1}',
                 '{"Axis": 1e999}', "[" * 5000 + "]" * 5000, "[1," * 3000 + "1" + "]" * 3000,
                 "NaN", "Infinity", '{"Axis": "x"}', "\x00", "null", "١٢", "²", '{"Axis": 9}', "\x1b]0;x\x07"]


def command_line_case(r: random.Random, fx: Fixtures) -> Case:
    choice = r.randrange(10)
    if choice <= 2:
        name = r.choice(["die", "hit_on", "stacking_limit", "supply_income", "victory_vp", "last_turn",
                         "custom_setup", "air_from_turn", "no_such", ""])
        value = r.choice(OPTION_VALUES)
        item = r.choice([f"{name}={value}", f"{name}={value}", name, f"={value}"])
        if name == "die" and r.random() < 0.5:
            argv = ["play", "bulge", "--ai", "all=random", "--quiet", "--seed", "1", "--option", "last_turn=1", "--option", item]
        elif r.random() < 0.2:
            flag = r.choice(["--option", "--against-option"])
            argv = ["simulate", "bulge", "--games", "1", "--workers", "1", "--max-turns", "1", "--ai", "all=random",
                    flag, item]
        else:
            argv = ["info", "bulge", "--option", item]
        return Case("command line", f"--option {item[:40]!r}", argv)
    if choice == 3:
        seed = r.choice(["-1", str(1 << 64), "9" * 5000, "abc", "1e5", "", "0x10", " 5", "١٢", "1_000"])
        if r.random() < 0.3:      # simulate's numbers: its seeds, games and workers
            flag = r.choice(["--seed", "--games", "--workers", "--max-turns"])
            return Case("command line", f"simulate {flag} {seed[:30]!r}",
                        ["simulate", "bulge", "--games", "1", "--max-turns", "1", "--ai", "all=random", flag, seed])
        return Case("command line", f"--seed {seed[:30]!r}",
                    ["play", "bulge", "--ai", "all=random", "--quiet", "--seed", seed, "--option", "last_turn=1"])
    if choice == 4 and r.random() < 0.3:
        turns = r.choice(["-5", "0", "٣", "9" * 100])
        return Case("command line", f"--max-turns {turns[:20]!r}",
                    ["play", "bulge", "--ai", "all=random", "--quiet", "--seed", "1", "--max-turns", turns])
    if choice == 4:
        name = r.choice(["lhtr", "aarhe", "chess", "", "../bulge", "x" * 1000, "bulge\x00"])
        return Case("command line", f"unknown ruleset {name[:20]!r}", [r.choice(["info", "play"]), name])
    if choice == 5:
        scen = r.choice(["nowhere", "", "x" * 1000, "ardennes"])
        return Case("command line", f"unknown scenario {scen[:20]!r}",
                    [r.choice(["info", "play"]), "bulge", "--scenario", scen, *(["--ai", "all"] * r.randint(0, 1))])
    if choice == 6:
        ai = r.choice(["green", "axis=nobody", "all=", "=random", "", "all=heuristic,x"])
        return Case("command line", f"--ai {ai!r}", ["play", "bulge", "--ai", ai, "--hotseat"][: r.choice([4, 5])])
    if choice == 7:
        path = r.choice([str(fx.tmp / "nowhere"), str(fx.tmp), "/dev/null", str(ROOT / "README.md"), ""])
        return Case("command line", f"paths {path[-20:]!r}",
                    r.choice([["check", path], ["replay", path], ["--mod", path, "rulesets"],
                              ["play", "--load", path, "--ai", "all"]]))
    vocab = ["play", "info", "check", "replay", "rulesets", "bulge", "--ai", "all", "--seed", "1",
             "--option", "die=2", "--mod", "--json", "--quiet", "--load", "--save", "--hotseat",
             "--scenario", "-x", "--", "--debug", "ardennes-1944", "--no-gui"]
    argv = [r.choice(vocab) for _ in range(r.randint(0, 7))]
    if "--save" in argv:          # never write outside the scratch folder
        argv[argv.index("--save")] = "--quiet"
    if "play" in argv:
        argv += ["--ai", "all=random", "--option", "last_turn=1"]
    if "--debug" in argv:
        argv.remove("--debug")    # --debug prints tracebacks on purpose
    return Case("command line", "random words " + " ".join(argv)[:50], argv)


# -- hostile rules ---------------------------------------------------------------------------------
def _nest(depth: int) -> str:
    return "1" + " + (1" * depth + ")" * depth


#: rules that try to hang a game or exhaust its memory; `{}` is where they run from
HOSTILE_RULES: dict[str, str] = {
    "a list extended while it is iterated": "let xs = [1]\n    for x in xs {\n        xs += [x]\n    }",
    "a string doubled in a loop": "let s = \"ab\"\n    for i in range(100) {\n        s = s + s\n    }",
    "a list doubled in a loop": "let s = [1]\n    for i in range(100) {\n        s = s + s\n    }",
    "a string grown by += in a loop": "let s = \"\"\n    for i in range(100000) {\n        for j in range(100000) {\n"
                                      "            s += \"abcdefgh\"\n        }\n    }",
    "two nested range(0, 100000)": "let n = 0\n    for i in range(0, 100000) {\n        for j in range(0, 100000) {\n"
                                   "            n += 1\n        }\n    }",
    "nested comprehensions": "let n = count(i in range(100000) where count(j in range(100000) where j == i) > 0)",
    "a search of a long list in a loop": "let xs = range(100000)\n    let n = 0\n    for i in range(100000) {\n"
                                         "        for j in range(100000) {\n            if j in xs {\n                n += 1\n"
                                         "            }\n        }\n    }",
    "two long lists compared in a loop": "let a = range(100000)\n    let b = range(100000)\n    let n = 0\n"
                                         "    for i in range(100000) {\n        if a == b {\n            n += 1\n        }\n    }",
    "two long maps compared in a loop": "let a: map[int, int] = {}\n    for k in range(100000) {\n        a[k] = k\n    }\n"
                                        "    let n = 0\n    for i in range(100000) {\n        if a != a {\n            n += 1\n"
                                        "        }\n    }",
    "roll(100000000, 6)": "let r = roll(100000000, 6)",
    "neighbours of a space not on the board": "let n = neighbours(\"nowhere\")",
    "space_int of a space not on the board": "let n = space_int(\"nowhere\", \"vp\")",
    "space_flag of a space not on the board": "let n = space_flag(\"nowhere\", \"town\")",
    "a die of 1 side": "let r = roll(3, 1)",
    "an integer squared in a loop": "let x = 3\n    for i in range(100) {\n        x = x * x\n    }",
    "an integer doubled in a loop": "let x = 3\n    for i in range(100000) {\n        x += x\n    }",
    "a map filled in a loop": "let m: map[int, int] = {}\n    for i in range(100000) {\n        for j in range(100000) {\n"
                              "            m[i * 100000 + j] = 1\n        }\n    }",
    "int() of a long text": "let x = int(\"" + "9" * 5000 + "\")",
    "pieces created in a loop": "for i in range(100000) {\n        for j in range(100000) {\n"
                                "            create(\"Infantry\", \"Axis\", \"offboard:Axis\")\n        }\n    }",
}
_INFANTRY = ("override unit Infantry [ground, combat, zoc, cargo] { attack: 1  move: 1  crosses_river: true  strip: 1  "
             "short: \"I\"  stack_slots: 1  stack_limit: 6 }\n")
#: whole files of hostile rules (no `rule` to run them from: the checker must refuse them)
HOSTILE_FILES: dict[str, str] = {
    "a recursive procedure with no base case": "procedure boom() {\n    boom()\n}\n",
    "procedures that call each other": "procedure ping() {\n    pong()\n}\nprocedure pong() {\n    ping()\n}\n",
    "\"a\" * 1000000000": "option huge: str = \"a\" * 1000000000\n",
    "a 4,301-digit integer literal": "option huge: int = " + "7" * 4301 + "\n",
    "an integer constant too big": "option huge: int = 9223372036854775807 * 9223372036854775807\n",
    "a long chain of +": "option s: str = " + " + ".join(['"xxxxxxxxxx"'] * 20_000) + "\n",
    "parentheses 300 deep": "procedure deep() -> int {\n    return " + _nest(300) + "\n}\n",
    "blocks 200 deep": "procedure deep() {\n" + "if true {\n" * 200 + "}\n" * 200 + "}\n",
    "calls that double 60 times": "".join(f"procedure p{i}() {{\n    p{i - 1}()\n    p{i - 1}()\n}}\n"
                                          for i in range(1, 61)) + "procedure p0() {\n}\n"
                                  "rule boom on turn_start(t) {\n    p60()\n}\n",
    "supply_income out of its range": "override option supply_income = { Axis: 100000, Allies: 11 }\n",
    "a unit stat beyond the integers": _INFANTRY.replace("attack: 1 ", "attack: 9223372036854775807 + 1 "),
    "a unit attacking with 100000000 dice": _INFANTRY.replace("attack: 1 ", "attack: 100000000 "),
}


def rules_case(r: random.Random, fx: Fixtures) -> Case:
    folder = fx.path("-rules")
    folder.mkdir()
    names = sorted(HOSTILE_RULES) + sorted(HOSTILE_FILES)
    what = r.choice(names)
    if what in HOSTILE_RULES:
        where = r.choice(["rule boom on turn_start(t) {\n    {}\n}\n",
                          "rule boom on phase_start(phase) {\n    {}\n}\n",
                          "procedure boom() {\n    {}\n}\nrule go on turn_start(t) {\n    boom()\n}\n"])
        text = where.replace("{}", HOSTILE_RULES[what])
    else:
        text = HOSTILE_FILES[what]
    (folder / "house.rules").write_text("extends bulge\n\n" + text, encoding="utf-8")
    (folder / "ruleset.json").write_text(json.dumps({"name": "hostile", "extends": "bulge", "rules": ["house.rules"]}),
                                         encoding="utf-8")
    mod = ["--mod", str(folder)]
    argv = r.choice([[*mod, "check", str(folder)],
                     [*mod, "play", "hostile", "--ai", "all=random", "--quiet", "--seed", "1", "--max-turns", "1"],
                     [*mod, "play", "hostile", "--ai", "all=random", "--quiet", "--seed", "1", "--max-turns", "1"]])
    return Case("rules", what, argv)


def pipe_case(r: random.Random, fx: Fixtures) -> Case:
    argv = r.choice([["info", "bulge"], ["info", "bulge", "--json"], ["rulesets"],
                     ["--mod", str(fx.mod_dir), "info", "bulge-house-rules"]])
    return Case("pipe", "| head -1: " + " ".join(argv), argv, pipe=True)


FAMILIES: list[tuple[Callable[[random.Random, Fixtures], Case], int]] = [
    (save_case, 10), (odd_file_case, 1), (manifest_case, 8), (command_line_case, 8), (rules_case, 6),
]


FAMILY_NAMES = {"save": (save_case, odd_file_case), "manifest": (manifest_case,), "command line": (command_line_case,),
                "rules": (rules_case,)}


def generate(n: int, seed: int, fx: Fixtures, families: set[str] | None = None) -> list[Case]:
    cases = []
    wanted = {m for name in (families or FAMILY_NAMES) for m in FAMILY_NAMES[name]}
    makers = [m for m, w in FAMILIES for _ in range(w) if m in wanted]
    for i in range(n):
        r = random.Random(f"{seed}:{i}")
        # one closed pipe in every 20 cases (and in any run of at least 10)
        maker = pipe_case if i % 20 == 9 and families is None else r.choice(makers)
        cases.append(maker(r, fx))
    return cases


# -- running -------------------------------------------------------------------------------------------
def classify(code: int | None, out: str, err: str) -> str:
    from clients.cli import OUT_OF_MEMORY

    if OUT_OF_MEMORY in err or "MemoryError" in err:
        return "memory"
    if TRACEBACK in out or TRACEBACK in err:
        return "traceback"
    if code == 0:
        return "ok"
    if "wargame: internal error" in err:
        return "internal"
    lines = [line.strip() for line in (err + "\n" + out).splitlines() if line.strip()]
    said = any(SAID.search(line) for line in lines)
    return "clean" if said else "unclear"


#: a line that tells the player why: `wargame: ...`, a rules diagnostic, the error count of
#: `check`, replay's verdict, or the usage shown for a command line with no command
SAID = re.compile(r"^(?:wargame: |\S+:\d+:\d+: |\d+ errors?$|usage: )|the state DIFFERS from the save")


def _vm_bytes() -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _child(case: Case, memory_mb: int, write_fd: int) -> None:
    """In the forked child: cap memory, run the CLI with captured output, report, exit."""
    import builtins
    import resource

    from clients.cli import main

    vm = _vm_bytes()
    if vm is not None:
        limit = vm + memory_mb * (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def no_input(prompt: str = "") -> str:
        raise EOFError

    builtins.input = no_input
    out, err = io.StringIO(), io.StringIO()
    code: int | None = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(case.argv)
    except BaseException as e:  # anything escaping main is a failure of the command
        import traceback

        err.write("".join(traceback.format_exception(e)))
        code = None if not isinstance(e, SystemExit) else (e.code if isinstance(e.code, int) else 1)
        if isinstance(e, SystemExit):
            err.write(f"\n{TRACEBACK} -- SystemExit escaped main\n")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report = json.dumps({"code": code, "out": out.getvalue()[-4000:], "err": err.getvalue()[-4000:],
                         "peak_mb": peak}).encode()
    with os.fdopen(write_fd, "wb") as f:
        f.write(report)
    os._exit(0)


def run_forked(case: Case, timeout: float, memory_mb: int) -> Outcome:
    read_fd, write_fd = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read_fd)
        try:
            _child(case, memory_mb, write_fd)
        finally:
            os._exit(3)
    os.close(write_fd)
    chunks = []
    deadline = t0 + timeout
    hung = False
    with os.fdopen(read_fd, "rb") as f:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                hung = True
                break
            ready, _, _ = select.select([f], [], [], left)
            if not ready:
                continue
            chunk = os.read(f.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    if hung:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    seconds = time.perf_counter() - t0
    if hung:
        return Outcome(case, "hang", seconds=seconds)
    try:
        data = json.loads(b"".join(chunks))
    except ValueError:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        return Outcome(case, "memory" if sig == signal.SIGKILL else "crash", err=f"child status {status}",
                       seconds=seconds)
    out = Outcome(case, classify(data["code"], data["out"], data["err"]), data["code"], data["out"],
                  data["err"], seconds, data["peak_mb"])
    return out


def run_pipe(case: Case, timeout: float, memory_mb: int) -> Outcome:
    import resource

    def cap() -> None:
        limit = 1 << 31 if memory_mb <= 0 else (memory_mb + 512) << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "clients", *case.argv], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=cap)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()         # `head -1`: read a line, then hang up
    proc.stdout.close()
    try:
        err = proc.stderr.read().decode("utf-8", "replace")
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return Outcome(case, "hang", seconds=time.perf_counter() - t0)
    seconds = time.perf_counter() - t0
    kind = classify(code, first.decode("utf-8", "replace"), err)
    if code not in (0, 141) or err.strip():
        kind = "traceback" if TRACEBACK in err else "unclear"
    else:
        kind = "ok"
    return Outcome(case, kind, code, first.decode("utf-8", "replace"), err, seconds)


def run_case(case: Case, timeout: float, memory_mb: int) -> Outcome:
    outcome = (run_pipe if case.pipe else run_forked)(case, timeout, memory_mb)
    if case.marker is not None and case.marker.exists():
        outcome.kind = "code_ran"
    return outcome


def fuzz(n: int, seed: int, timeout: float = 20.0, memory_mb: int = 1024,
         progress: Callable[[Outcome], None] | None = None, families: set[str] | None = None) -> dict[str, Any]:
    """Run `n` cases (of some families only, if given); the counts and every case that did not
    end `ok` or `clean`."""
    with tempfile.TemporaryDirectory(prefix="wargame-fuzz-") as tmp:
        fx = make_fixtures(Path(tmp), seed)
        cases = generate(n, seed, fx, families)
        outcomes = []
        for case in cases:
            outcome = run_case(case, timeout, memory_mb)
            outcomes.append(outcome)
            if progress:
                progress(outcome)
    counts = Counter(o.kind for o in outcomes)
    by_family: dict[str, dict[str, int]] = {}
    for o in outcomes:
        by_family.setdefault(o.case.family, {}).setdefault(o.kind, 0)
        by_family[o.case.family][o.kind] += 1
    return {
        "cases": len(outcomes),
        "seed": seed,
        "ok": counts["ok"],
        "clean_errors": counts["clean"],
        "unclear": counts["unclear"],
        "internal_errors": counts["internal"],
        "tracebacks": counts["traceback"],
        "hangs": counts["hang"],
        "memory_blowups": counts["memory"],
        "crashes": counts["crash"],
        "code_ran": counts["code_ran"],
        "failures": sum(counts[k] for k in FAILURES),
        "slowest_s": round(max((o.seconds for o in outcomes), default=0.0), 3),
        "peak_mb": round(max((o.peak_mb for o in outcomes), default=0.0), 1),
        "by_family": by_family,
        "problems": [{"family": o.case.family, "what": o.case.what, "argv": [a[:80] for a in o.case.argv],
                      "kind": o.kind, "code": o.code, "stderr": o.err[-1500:]}
                     for o in outcomes if o.kind not in ("ok", "clean")],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a case may take")
    ap.add_argument("--memory-mb", type=int, default=1024, help="memory a case may add")
    ap.add_argument("--family", action="append", choices=sorted(FAMILY_NAMES),
                    help="only cases of this family (may be repeated)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="a line per case")
    a = ap.parse_args(argv)

    def progress(o: Outcome) -> None:
        if a.verbose:
            print(f"{o.kind:9} {o.seconds:6.2f}s {o.case.family:12} {o.case.what}", file=sys.stderr)

    summary = fuzz(a.cases, a.seed, a.timeout, a.memory_mb, progress, set(a.family) if a.family else None)
    if a.json:
        print(json.dumps(summary, indent=1))
    else:
        for key in ("cases", "ok", "clean_errors", "unclear", "internal_errors", "tracebacks", "hangs",
                    "memory_blowups", "crashes", "code_ran", "slowest_s", "peak_mb"):
            print(f"{key:16} {summary[key]}")
        for p in summary["problems"]:
            print(f"\n[{p['kind']}] {p['family']}: {p['what']}\n  wargame {' '.join(p['argv'])}\n"
                  + "\n".join("  | " + line for line in p["stderr"].splitlines()[-12:]))
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
