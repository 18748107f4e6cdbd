"""What AARHE shows its players (rulesets/aarhe/aarhe/views.rules): the terrain the map draws,
each territory's pending income loss and its cause, the air missions declared, in the
rules' view procedures and in the terminal (the status line and `look`). The window's side
of it is in tests/gui/test_world_map.py."""

from __future__ import annotations

import json

from clients import terminal
from engine import plugins
from engine.actions import Action
from engine.game import Game
from tests.aarhe.play import at_aarhe
from tests.lhtr.play import ROOT

MAP_CHANGES = ROOT / "rulesets" / "aarhe" / "aarhe" / "map-changes.json"


def test_the_map_draws_the_terrain_its_map_changes_give() -> None:
    g, _ = at_aarhe("Germany", [], step="purchase")
    patterns = {"desert": "dunes", "snow": "snow", "mountain": "peaks"}
    want: dict[str, list[str]] = {}
    for entry in json.loads(MAP_CHANGES.read_text(encoding="utf-8"))["spaces"]:
        attrs = entry["attrs"]
        shown = ([patterns[attrs["terrain"]]] if "terrain" in attrs else []) + (["atoll"] if attrs.get("small_island") else [])
        if shown:
            want[entry["id"]] = shown
    got = {s: g.proc("map_terrain", s) for s in g.state.board.spaces if g.proc("map_terrain", s)}
    assert got == want and len(got) > 15
    assert set(g.proc("map_legend")) >= {"dunes", "snow", "peaks", "atoll", "loss", "target", "flight"}
    assert g.proc("space_notes", "Libya")[0].startswith("desert: no blitz in; each unit there costs its power 1 IPC")


def test_partisans_and_island_raids_are_losses_marked_with_their_cause() -> None:
    g, _ = at_aarhe("Germany", [("Submarine", "US", "SZ 58", 2)], control={"Karelia S.S.R.": "Germany"},
                    step="purchase")
    marks = g.proc("map_marks")
    assert marks["Karelia S.S.R."] == {"loss": "-2"}              # no German land unit there: nothing
    assert marks["Okinawa"] == {"loss": "-1"}                     # an island of 1 IPC, 2 US submarines by it
    assert g.proc("losses_at", "Okinawa") == {"convoy raid: 2 enemy submarines in its sea zones": 1}
    notes = g.proc("power_notes", "Germany")
    assert notes == ["next income -2: Karelia S.S.R. -2 (Soviet partisans: no German land unit there)"]
    assert "Germany 40 (next income -2)" in g.rs.logic.status(g.state)
    assert g.proc("income", "Germany") == 40 + 2 - 2                # what the marks say is what is collected
    # a German land unit ends the partisans' hold
    g.add("Infantry", "Germany", "Karelia S.S.R.")
    assert "Karelia S.S.R." not in g.proc("map_marks")
    assert g.proc("power_notes", "Germany") == []


def test_a_mission_is_marked_until_flown_then_its_damage() -> None:
    g, ids = at_aarhe("UK", [("Bomber", "UK", "United Kingdom", 2), ("Fighter", "UK", "United Kingdom", 1)],
                      step="declare_missions")
    b1, b2 = ids["UK Bomber United Kingdom"]
    g.act("fly_mission", u=b1, kind="sbr", to="Western Europe")
    g.act("fly_mission", u=b2, kind="night", to="Western Europe")
    assert g.proc("map_marks") == {"Western Europe": {"target": "SBR 1, night 1"}}
    assert g.proc("map_lines") == [["United Kingdom", "Western Europe", "flight"]]       # one line a base
    assert g.proc("mission_words", "Western Europe") == ("strategic bombing run (1 Bomber), night bombing (1 Bomber)"
                                                         " on Western Europe")
    if g.step == "declare_missions":
        g.finish()
    g.walk_to("UK", "resolve_missions")
    g.state.load_dice([4, 5])               # no AA gun, no interceptor: the bombers' dice, the night one halved
    g.act("resolve", where="Western Europe")
    assert g.proc("map_lines") == []
    assert g.proc("map_marks") == {"Western Europe": {"loss": "-6"}}        # 4 + 5 // 2
    assert g.proc("losses_at", "Western Europe") == {"strategic bombing run and night bombing": 6}
    assert "Germany 40 (next income -6)" in g.rs.logic.status(g.state)
    # the cause stays when the bombers have flown home
    g.walk_to("Japan", "purchase")
    assert not [u for u in g.state.pieces.values() if u.space == "Western Europe" and u.owner == "UK"]
    assert g.proc("losses_at", "Western Europe") == {"strategic bombing run and night bombing": 6}
    # Germany's collect income takes it: the mark goes, the status line says what was lost and why
    g.walk_to("Germany", "purchase", turn=2)
    assert "Western Europe" not in g.proc("map_marks")
    assert "Germany income -6: economic damage to Western Europe" in g.rs.logic.status(g.state)


# -- in the terminal --------------------------------------------------------------------------------
class Console:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def write(self, text: str) -> None:
        self.out.append(text)

    def play(self, game: Game) -> str:
        terminal.play_terminal(game, {}, None, read=self.read, write=self.write)
        return "\n".join(self.out)


def walk(game: Game, power: str, step: str) -> None:
    structure = game.ruleset.structure
    while not (structure.power(game.state) == power and structure.step(game.state) == step):
        assert game.decision is not None and game.decision.finish is not None, game.decision
        game.play(game.decision.finish)


def test_the_terminal_tells_the_missions_declared_and_the_damage_done() -> None:
    game = Game(plugins.load("aarhe"), None, seed=1)
    walk(game, "Germany", "declare_missions")
    text = Console(["strategic bombing run on Russia with the Germany Bomber in Germany", "y", "look Russia",
                    "quit"]).play(game)
    assert "IPCs: USSR 24, Germany 40 (air missions: SBR on Russia), UK 30" in text
    assert "Germany's air missions to fly: strategic bombing run (1 Bomber) on Russia" in text
    # flown: no interceptor goes up, the AA gun misses and the bomber rolls 4
    game.play(game.decision.finish)
    while game.decision.kind == "choose":
        game.play(next(a for a in game.decision.options if a.label == "no (more) interceptors"))
    walk(game, "Germany", "resolve_missions")
    game.state.load_dice([6, 4])
    game.play(Action("resolve", {"where": "Russia"}))
    text = Console(["log", "look Russia", "quit"]).play(game)
    assert "IPCs: USSR 24 (next income -4), Germany 40" in text
    assert "Germany's bombers take 4 from the income of Russia" in text
    assert "USSR loses 4 IPCs: strategic bombing run (at its next collect income)" in text
