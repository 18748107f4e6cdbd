"""The language reference, docs/rules-language.md, is checked against the language itself.

* Every ```rules block passes the checker (` ```rules ` is a complete file; ` ```rules NAME `
  one file of the ruleset NAME, checked with the other blocks of that name; ` ```text ` is a
  fragment and is not checked).
* The tables of primitives and events are those of `engine.primitives`.
* The Axis & Allies sketches compile and play on a small stand-in map (tests/dsl/sketches/)
  with fixed dice, and the outcome is checked unit by unit.

`python tests/dsl/test_docs.py` prints the primitives table to paste into the doc.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import dsl
from engine import flow, plugins
from engine.actions import Action, IllegalAction
from engine.chance import outcomes
from engine.game import Game
from engine.mapfile import MapFile, board_from
from engine.primitives import EVENTS, register_core
from engine.rules import structure_from_rules
from engine.rules_logic import RulesLogic
from engine.ruleset import LoadedRuleset, RulesetInfo, ScenarioInfo
from engine.scenario import ScenarioFile
from engine.state import GameState

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "rules-language.md"
SKETCHES = Path(__file__).parent / "sketches"
DUEL = ROOT / "tests" / "rulesets" / "duel"
KNOWN_LANGUAGES = {"rules", "text", "python", "json"}


# --------------------------------------------------------------------------- reading the doc
@dataclass(frozen=True)
class Block:
    lang: str
    name: str | None       # ```rules NAME: one file of the ruleset NAME
    line: int              # the doc line of the block's first line of code
    code: str

    def source(self) -> tuple[str, str]:
        """The block as a rules file whose line numbers are the doc's own."""
        return DOC.name, "\n" * (self.line - 1) + self.code


def doc_blocks() -> list[Block]:
    """Every fenced block of the doc, with its language and name (```rules NAME)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*(\S*)\s*$", lines[i])
        if m is None or not m.group(1):
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        assert j < len(lines), f"{DOC.name}:{i + 1}: a ``` block that never ends"
        out.append(Block(m.group(1), m.group(2) or None, start + 1, "\n".join(lines[start:j]) + "\n"))
        i = j + 1
    return out


def rules_blocks() -> list[Block]:
    return [b for b in doc_blocks() if b.lang == "rules"]


def ruleset_files(name: str) -> list[tuple[str, str]]:
    files = [b.source() for b in rules_blocks() if b.name == name]
    if not files:
        raise LookupError(name)
    return files


# --------------------------------------------------------------------------- the stand-in
def sea_zones_of(state: GameState, territory: str) -> list[str]:
    return [n for n in state.board.neighbours(territory) if state.board.space(n).kind == "sea"]


def registry() -> dsl.Registry:
    """The engine's primitives and the sketches' stand-in, with the type it would have."""
    reg = dsl.Registry()
    register_core(reg)
    reg.primitive("sea_zones_of", sea_zones_of, params=[("territory", "str")], returns="list[str]", context=True,
                  doc="stand-in: the sea zones next to a territory")
    return reg


def errors_of(files: list[tuple[str, str]]) -> list[str]:
    diags = dsl.check_rules(files, registry(), resolve_extends=ruleset_files)
    sources = {DOC.name: DOC.read_text(encoding="utf-8")}
    return [d.render(sources) for d in diags if d.severity == "error"]


# --------------------------------------------------------------------------- the doc's blocks
def test_the_doc_marks_every_block_and_has_the_promised_ones() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "```rules NAME" in text or "` ```rules NAME `" in text, "the doc must state how its blocks are marked"
    blocks = doc_blocks()
    unknown = [(b.line, b.lang) for b in blocks if b.lang not in KNOWN_LANGUAGES]
    assert unknown == [], f"blocks marked with an unknown language (doc line, language): {unknown}"
    named = {b.name for b in blocks if b.lang == "rules" and b.name}
    assert {"tour", "lhtr", "aarhe"} <= named
    assert len(rules_blocks()) >= 15
    assert "\n## 16. Sketches: Axis & Allies in this language\n" in text


CHECKED = [pytest.param([b.source()], id=f"line-{b.line}") for b in rules_blocks() if b.name is None] + \
          [pytest.param(ruleset_files(n), id=f"ruleset-{n}") for n in sorted({b.name for b in rules_blocks() if b.name})]


@pytest.mark.parametrize("files", CHECKED)
def test_every_rules_block_of_the_doc_passes_the_checker(files: list[tuple[str, str]]) -> None:
    problems = errors_of(files)
    assert problems == [], "\n\n".join(problems)


def test_a_mistake_in_a_block_is_reported_at_its_line_in_the_doc() -> None:
    """The harness itself: the positions the checker gives are the doc's lines."""
    block = next(b for b in rules_blocks() if b.name == "lhtr")
    broken = Block(block.lang, None, block.line, block.code.replace("stat defence", "stat defense", 1))
    problems = errors_of([broken.source()])
    line = block.line + next(i for i, text in enumerate(block.code.splitlines()) if text.startswith("unit Infantry"))
    assert problems[0].startswith(f"{DOC.name}:{line}:")
    assert "unknown stat `defence` in unit `Infantry`" in problems[0]
    assert "hint: did you mean `defense`?" in problems[0]


def test_the_json_blocks_are_valid_map_and_scenario_files() -> None:
    seen = set()
    for b in doc_blocks():
        if b.lang != "json":
            continue
        data = json.loads(b.code)
        if data.get("format") == "wargame-map/1":
            board_from(MapFile.model_validate(data), f"{DOC.name}:{b.line}")
        elif data.get("format") == "wargame-scenario/1":
            ScenarioFile.model_validate(data)
        else:
            raise AssertionError(f"{DOC.name}:{b.line}: a json block that is neither a map nor a scenario")
        seen.add(data["format"])
    assert seen == {"wargame-map/1", "wargame-scenario/1"}


def primitive_rows() -> list[str]:
    reg = dsl.Registry()
    register_core(reg)
    rows = []
    for p in reg.primitives.values():
        sig = f"{p.name}({', '.join(f'{n}: {t}' for n, t in p.params)})" + (f" -> {p.returns}" if p.returns != "none" else "")
        mark = " *(board)*" if p.board else " *(changes)*" if p.changes else " *(current)*" if p.current else ""
        rows.append(f"| `{sig}` | {p.doc}{mark} |")
    return rows


def test_the_table_of_primitives_is_register_core() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 6."):text.index("**Events**")]
    documented = [line for line in section.splitlines() if line.startswith("| `")]
    assert documented == primitive_rows(), (
        "the primitives table of docs/rules-language.md section 6 is not engine.primitives.register_core's; "
        "regenerate it with `python tests/dsl/test_docs.py`")


def test_the_table_of_events_is_the_engines() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("**Events**"):text.index("**Adding primitives.**")]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"^\| `(\w+)` \|\s*([^|]*?)\s*\|", line)
        if m:
            values = m.group(2).strip().strip("`")
            rows[m.group(1)] = values.split(", ") if values else []
    assert rows == {name: [f"{n}: {t}" for n, t in params] for name, params in EVENTS.items()}


# --------------------------------------------------------------------------- the sketches, played
def sketch_ruleset(name: str) -> LoadedRuleset:
    rules = dsl.load_rules(ruleset_files(name), registry(), resolve_extends=ruleset_files)
    info = RulesetInfo(name, f"{name} (docs sketch)", SKETCHES, (),
                       (ScenarioInfo("channel", "Across the Channel", path=SKETCHES / "scenario.json"),),
                       sides=("Axis", "Allies"))
    return LoadedRuleset(info, (info,), plugins._manager(), rules, RulesLogic(rules, info, structure_from_rules(rules)),
                         rules.options)


@pytest.fixture(scope="module")
def lhtr() -> LoadedRuleset:
    return sketch_ruleset("lhtr")


@pytest.fixture(scope="module")
def aarhe() -> LoadedRuleset:
    return sketch_ruleset("aarhe")


def set_board(rs: LoadedRuleset, pieces: Iterable[tuple[str, str, str]], seed: int = 1) -> tuple[Game, list[int]]:
    """A game at Germany's first combat move, its pieces replaced by `pieces` (kind, owner, space)."""
    game = Game(rs, "channel", seed=seed)
    assert game.decision is not None and (game.decision.player, game.decision.kind) == ("Germany", "combat_move")
    s = game.state
    for p in list(s.pieces.values()):
        s.remove(p.id)
    return game, [s.add_piece(kind, owner, space).id for kind, owner, space in pieces]


def rolls(events: Iterable[tuple[str, dict[str, Any]]]) -> list[list[int]]:
    return [list(data["faces"]) for kind, data in events if kind == "roll"]


def until(game: Game, done: Callable[[Game], bool]) -> None:
    """Play every decision's finish until `done` (a battle or a question would stop with an error)."""
    for _ in range(200):
        if done(game):
            return
        assert game.decision is not None and game.decision.finish is not None, game.decision
        game.play(game.decision.finish)
    raise AssertionError("never got there")


def test_a_destroyer_turns_the_submarines_first_strike_into_an_ordinary_hit(lhtr: LoadedRuleset) -> None:
    game, (sub, destroyer, _) = set_board(lhtr, [("Submarine", "Germany", "SZ 7"), ("Destroyer", "UK", "SZ 7"),
                                                 ("Transport", "Germany", "SZ 6")])
    game.state.load_dice([2, 3])            # the submarine hits; the destroyer it hit still fires, and hits
    game.play(Action("finish"))
    assert [a.label for a in game.decision.options] == ["fight the battle in Sea Zone 7 (SZ 7)"]
    events = game.play(Action("resolve", {"where": "SZ 7"}))
    assert rolls(events) == [[2], [3]]
    assert sub not in game.state.pieces and destroyer not in game.state.pieces


def test_without_a_destroyer_the_submarines_victims_do_not_fire_back(lhtr: LoadedRuleset) -> None:
    game, (sub, transport, _) = set_board(lhtr, [("Submarine", "Germany", "SZ 7"), ("Transport", "UK", "SZ 7"),
                                                 ("Transport", "Germany", "SZ 6")])
    game.state.load_dice([2, 1])
    game.play(Action("finish"))
    events = game.play(Action("resolve", {"where": "SZ 7"}))
    assert rolls(events) == [[2]]           # the transport was sunk before it could roll its 1
    assert transport not in game.state.pieces and game.state.pieces[sub].space == "SZ 7"


def test_a_battleship_takes_two_hits_its_owner_places_them_and_it_is_repaired(lhtr: LoadedRuleset) -> None:
    game, (bb, dd, uk_bb, _, uk_tr) = set_board(lhtr, [
        ("Battleship", "Germany", "SZ 7"), ("Destroyer", "Germany", "SZ 7"), ("Battleship", "UK", "SZ 7"),
        ("Submarine", "Germany", "SZ 6"), ("Transport", "UK", "SZ 6")])
    game.state.load_dice([1, 2, 1])         # both German ships hit; the British battleship hits back
    game.play(Action("finish"))
    events = game.play(Action("resolve", {"where": "SZ 7"}))
    assert rolls(events) == [[1], [2], [1]]
    assert ("note", {"message": "UK Battleship damaged in Sea Zone 7 (SZ 7)"}) in events
    d = game.decision
    assert (d.player, d.kind, d.prompt) == ("Germany", "choose", "a hit in Sea Zone 7 (SZ 7): choose the casualty")
    assert [(a.label, a["choice"]) for a in d.options] == [("Battleship", bb), ("Destroyer", dd)]
    events = game.play(Action("choose", {"choice": bb}))      # the battleship soaks the hit
    assert ("destroyed", {"piece": uk_bb, "kind": "Battleship", "owner": "UK", "space": "SZ 7",
                          "where": "Sea Zone 7 (SZ 7)"}) in events
    assert game.state.pieces[bb].hits == 1 and game.state.pieces[dd].hits == 0
    assert [a.label for a in game.decision.options] == ["fight the battle in Sea Zone 6 (SZ 6)"]
    game.state.load_dice([2])
    game.play(Action("resolve", {"where": "SZ 6"}))
    assert uk_tr not in game.state.pieces
    # nothing is left to decide until Germany's next turn; at the end of this one its battleship was repaired
    assert (game.state.turn, game.decision.player, game.decision.kind) == (2, "Germany", "combat_move")
    assert game.state.pieces[bb].hits == 0


def test_the_defender_chooses_its_own_casualties(lhtr: LoadedRuleset) -> None:
    game, (dd, uk_dd, uk_tr, _) = set_board(lhtr, [("Destroyer", "Germany", "SZ 7"), ("Destroyer", "UK", "SZ 7"),
                                                   ("Transport", "UK", "SZ 7"), ("Transport", "Germany", "SZ 6")])
    game.state.load_dice([3, 6, 6, 1, 6])   # round 1: one German hit; round 2: another, and the British miss
    game.play(Action("finish"))
    game.play(Action("resolve", {"where": "SZ 7"}))
    d = game.decision
    assert (d.player, d.kind) == ("UK", "choose")
    assert [a.label for a in d.options] == ["Destroyer", "Transport"]
    with pytest.raises(IllegalAction, match="answer the question first"):
        game.play(Action("finish"))
    with pytest.raises(IllegalAction, match="is not one of the choices"):
        game.play(Action("choose", {"choice": dd}))
    game.play(Action("choose", {"choice": uk_tr}))
    # the transport was lost, the destroyer fought a second round (nobody asked: one unit a side) and sank
    assert uk_tr not in game.state.pieces and uk_dd not in game.state.pieces
    assert game.state.pieces[dd].space == "SZ 7"


def test_the_attacker_retreats_to_where_it_came_from(lhtr: LoadedRuleset) -> None:
    game, (dd, uk_tr, _) = set_board(lhtr, [("Destroyer", "Germany", "SZ 6"), ("Transport", "UK", "SZ 7"),
                                            ("Infantry", "Germany", "Western Europe")])
    game.play(Action("advance", {"u": dd, "to": "SZ 7"}))
    game.state.load_dice([6, 6])            # both miss
    game.play(Action("finish"))
    events = game.play(Action("resolve", {"where": "SZ 7"}))
    assert rolls(events) == [[6], [6]]
    d = game.decision
    assert (d.player, d.prompt) == ("Germany", "the battle in Sea Zone 7 (SZ 7) goes on")
    assert [a["choice"] for a in d.options] == ["press on", "retreat"]
    events = game.play(Action("choose", {"choice": "retreat"}))
    assert rolls(events) == []              # nobody was asked where: SZ 6 is the only way back
    assert game.state.pieces[dd].space == "SZ 6" and game.state.pieces[uk_tr].space == "SZ 7"


def test_a_full_transport_refuses_a_tank_in_the_guards_words(lhtr: LoadedRuleset) -> None:
    game, (tr, i1, i2, tank) = set_board(lhtr, [("Transport", "UK", "SZ 7"), ("Infantry", "UK", "United Kingdom"),
                                                ("Infantry", "UK", "United Kingdom"), ("Tank", "UK", "United Kingdom")])
    game.play(Action("finish"))
    until(game, lambda g: g.decision.player == "UK")
    assert Action("load", {"u": tank, "t": tr}) in game.decision.options
    game.play(Action("load", {"u": i1, "t": tr}))
    game.play(Action("load", {"u": i2, "t": tr}))
    too_much = Action("load", {"u": tank, "t": tr})
    assert too_much not in game.decision.options
    reason = "the transport has room for 1 more, and a Tank takes 3"
    assert flow.why_not(game.ruleset, game.state, too_much) == reason
    assert game.ruleset.logic.why_not(game.state, too_much) == reason
    with pytest.raises(IllegalAction, match=reason):
        game.play(too_much)
    assert flow.why_not(game.ruleset, game.state, Action("load", {"u": i1, "t": tr})) == \
        f"Infantry #{i1} is not one of the choices for `u`"         # it is aboard already
    assert sorted(c.id for c in game.state.pieces.values() if c.carrier == tr) == [i1, i2]
    game.play(Action("advance", {"u": tr, "to": "SZ 6"}))
    assert {game.state.pieces[i].space for i in (tr, i1, i2)} == {"SZ 6"}     # the cargo sails along


def test_a_landing_meets_aa_fire_and_bombardment_and_takes_the_territory(lhtr: LoadedRuleset) -> None:
    game, ids = set_board(lhtr, [
        ("Battleship", "UK", "SZ 7"), ("Transport", "UK", "SZ 7"), ("Infantry", "UK", "United Kingdom"),
        ("Infantry", "UK", "United Kingdom"), ("Fighter", "UK", "United Kingdom"),
        ("Infantry", "Germany", "Western Europe"), ("AAGun", "Germany", "Western Europe")])
    bb, tr, i1, i2, fighter, german, aa = ids
    game.play(Action("finish"))
    until(game, lambda g: g.decision.player == "UK")
    with pytest.raises(IllegalAction, match="a ship bombards only a landing of your own"):
        game.play(Action("bombard", {"b": bb, "at": "Western Europe"}))
    for a in [Action("load", {"u": i1, "t": tr}), Action("load", {"u": i2, "t": tr}),
              Action("advance", {"u": fighter, "to": "SZ 7"}), Action("advance", {"u": fighter, "to": "Western Europe"}),
              Action("land", {"u": i1, "to": "Western Europe"}), Action("land", {"u": i2, "to": "Western Europe"}),
              Action("bombard", {"b": bb, "at": "Western Europe"})]:
        game.play(a)
    assert flow.why_not(game.ruleset, game.state, Action("advance", {"u": tr, "to": "SZ 6"})) == \
        "a transport that has unloaded stays where it is"
    game.play(Action("finish"))
    game.state.load_dice([1, 3])            # the AA gun downs the fighter; the battleship hits
    events = game.play(Action("resolve", {"where": "Western Europe"}))
    assert rolls(events) == [[1], [3]]      # the infantry never had to roll
    assert fighter not in game.state.pieces and german not in game.state.pieces
    assert game.state.control["Western Europe"] == "UK"
    assert game.state.pieces[aa].owner == "UK"                      # the AA gun is captured
    assert {game.state.pieces[i].space for i in (i1, i2)} == {"Western Europe"}


def test_a_battle_with_questions_replays_exactly(lhtr: LoadedRuleset) -> None:
    pieces = [("Battleship", "Germany", "SZ 7"), ("Destroyer", "Germany", "SZ 7"), ("Battleship", "UK", "SZ 7"),
              ("Destroyer", "UK", "SZ 7"), ("Transport", "Germany", "SZ 6")]
    game, _ = set_board(lhtr, pieces, seed=5)
    rnd = random.Random(5)
    asked = 0
    while game.decision is not None and game.state.turn == 1:
        asked += game.decision.kind == "choose"
        game.play(rnd.choice(game.decision.options))
    assert asked > 0
    again, _ = set_board(lhtr, pieces, seed=5)
    for a in game.actions:
        again.play(a)
    assert again.state.signature() == game.state.signature()


def test_chance_enumerates_a_procedure_of_the_sketch(lhtr: LoadedRuleset) -> None:
    game, (sub, dd) = set_board(lhtr, [("Submarine", "Germany", "SZ 7"), ("Destroyer", "Germany", "SZ 7")])
    units = [game.state.pieces[sub], game.state.pieces[dd]]
    hits = lhtr.rules.procedure("hits")
    # as section 10 of the doc says: a submarine (attack 2) hits on a third of the rolls
    assert outcomes(lambda s: hits(s, units[:1], True), game.state) == [(Fraction(2, 3), 0), (Fraction(1, 3), 1)]
    # with a destroyer (attack 3): no hit 2/3 * 1/2, one hit 1/3 * 1/2 + 2/3 * 1/2, two 1/3 * 1/2
    assert outcomes(lambda s: hits(s, units, True), game.state) == [
        (Fraction(1, 2), 1), (Fraction(1, 3), 0), (Fraction(1, 6), 2)]


def test_aarhe_convoy_raid_and_lend_lease(aarhe: LoadedRuleset) -> None:
    assert [p.name for p in aarhe.rules.sequence.phases] == [
        "collect_income", "lend_lease", "combat_move", "conduct_combat", "noncombat_move"]
    game, _ = set_board(aarhe, [("Submarine", "Germany", "SZ 2"), ("Submarine", "Germany", "SZ 7"),
                                ("Transport", "Germany", "SZ 7")])
    until(game, lambda g: g.decision.kind == "choose")
    r = game.state.resources
    # UK: 8 + 1 (Iceland) - 1 (a submarine off Iceland) - 1 (a submarine in convoy zone 7; the transport does not count)
    assert r[("UK", "IPC")] == 7
    d = game.decision
    assert (d.player, d.prompt) == ("US", "Lend-Lease: IPCs for the USSR")
    assert [a["choice"] for a in d.options] == list(range(13))          # the cap, 12
    game.play(Action("choose", {"choice": 8}))
    assert [a["choice"] for a in game.decision.options] == list(range(5))
    game.play(Action("choose", {"choice": 4}))
    r = game.state.resources
    # 12 sent; the submarine in SZ 2 (a Lend-Lease zone) sinks 1 of the USSR's share
    assert (r[("US", "IPC")], r[("USSR", "IPC")], r[("UK", "IPC")]) == (30 - 12, 7, 7 + 4)
    assert game.state.turn == 2                 # the round went on to its end by itself


def test_the_tour_and_its_house_rules_play_whole_games() -> None:
    for name, files in (("tour", ruleset_files("tour")), ("house", [next(
            b.source() for b in rules_blocks() if b.name is None and "extends tour" in b.code)])):
        rules = dsl.load_rules(files, registry(), resolve_extends=ruleset_files)
        info = RulesetInfo(name, name, DUEL, (), (ScenarioInfo("road", "road", path=DUEL / "scenario.json"),),
                           sides=("Red", "Blue"))
        rs = LoadedRuleset(info, (info,), plugins._manager(), rules, RulesLogic(rules, info, structure_from_rules(rules)),
                           rules.options)
        asked = set()
        for seed in range(4):
            game = Game(rs, "road", seed=seed)
            rnd = random.Random(seed)
            for _ in range(3000):
                if game.decision is None:
                    break
                asked.add(game.decision.kind)
                game.play(rnd.choice(game.decision.options))
            assert game.result is not None
        assert {"advance", "choose"} <= asked
    assert rules.units["Guard"].attack == 4 and rules.options["die"] == 8


# --------------------------------------------------------------------------- fixes found on the way
def test_checking_rules_leaves_the_registry_as_it_was() -> None:
    """Powers named by `turn order` become constants of the rules, not of the host's registry:
    checking one ruleset must not leak them into the next one checked with the same registry."""
    reg = registry()
    assert dsl.check_rules([("a.rules", "turn order [Red, Blue]\nphase p { steps [s] }\nstep s { }\n")], reg) == []
    assert "Red" not in reg.constants
    diags = dsl.check_rules([("b.rules", "unit Red { }\nprocedure f() -> str { return Blue }\n")], reg)
    assert [d.message for d in diags] == ["unknown name `Blue`"]


def test_a_repeat_while_that_never_ends_is_a_runtime_error() -> None:
    """A `repeat while` sequence used to stop silently after its 10000th round."""
    text = 'procedure tick(n: int) { note("round") }\nsequence forever(n: int) repeat while n > 0 { steps [tick] }\n'
    rules = dsl.load_rules([("r.rules", text)], registry())
    state = GameState(board_from(MapFile.model_validate({"spaces": [{"id": "A"}]})), rules)
    with pytest.raises(dsl.RulesRuntimeError, match=r"r\.rules:2:41: sequence `forever` went round 10000 times"):
        rules.procedure("forever")(state, 1)
    rules.procedure("forever")(state, 0)


if __name__ == "__main__":
    print("\n".join(primitive_rows()))


def test_the_aarhe_sketch_names_the_options_of_the_real_layer() -> None:
    """A modder copies the sketch's option names into `--option`: they are the shipped AARHE's."""
    sketch = dsl.parse_module(ruleset_files("aarhe")[0][1], DOC.name)
    declared = {d.name: str(d.type) for d in sketch.decls if isinstance(d, dsl.ast.OptionDecl) and not d.override}
    real = plugins.load("aarhe").rules.option_specs
    assert declared and {name: str(real[name].type) if name in real else None for name in declared} == declared
