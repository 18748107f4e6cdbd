"""What the window's clicks rest on, without a window: reading what options name from the
state (never from their parameters' names), the last battle read from the log, and the
launcher that starts and loads games for the new-game screen."""

from __future__ import annotations

from clients.battles import BattleLog
from clients.clicks import PIECE, PIECES, SPACE, Pick, Reader
from clients.launch import Launcher
from engine.actions import Action, Decision
from engine.game import Game


def test_what_an_option_names_is_read_from_the_state_not_from_names(skirmish):
    game = Game(skirmish, "hill", seed=1)
    st = game.state
    a, b = [p for p in st.pieces.values() if p.owner == "Red"][:2]
    opts = [Action("zz", {"x": a.id, "y": "1,0", "count": b.id, "group": (a.id,)}),
            Action("zz", {"x": b.id, "y": "1,2", "count": 999, "group": (a.id, b.id)}),
            Action("done")]
    r = Reader(Decision("Red", "k", "p", opts), st, set(st.board.spaces))
    # `count` holds a piece's id once, and 999 once: an amount, not a piece
    assert r.kinds["zz"] == {"x": PIECE, "y": SPACE, "group": PIECES}
    assert r.named(opts[0]) == ({a.id}, {"1,0"})
    assert r.places(opts[1]) == {"1,2", a.space, b.space}
    first = Pick(a.space, frozenset({a.id}), ("Red", a.kind))
    assert r.candidates(first) == opts[:2]                  # both name piece a (the second in its group)
    spaces, pieces = r.targets(r.candidates(first), first)
    assert set(spaces) >= {"1,0", "1,2"} and b.id in pieces
    assert r.second(opts[:2], first, Pick("1,0")) == [opts[0]]
    assert not r.settled(opts[:1], first)                   # it names 1,0 too: a second click
    # a space nobody names: the probes put the selected piece and the clicked space in
    probes = r.probes(first, Pick("3,3"), own=lambda pid: True)
    assert Action("zz", {"x": a.id, "y": "3,3", "count": b.id, "group": (a.id,)}) in probes
    assert all(p not in opts for p in probes)


def test_a_click_on_a_space_alone_selects_by_space(skirmish):
    game = Game(skirmish, "hill", seed=1)
    st = game.state
    opts = [Action("attack", {"from": "0,0", "to": "1,0"}), Action("attack", {"from": "0,1", "to": "1,0"}),
            Action("pass")]
    r = Reader(Decision("Red", "attack", "p", opts), st, set(st.board.spaces))
    # the pieces in 0,0 are named by no option: its space is
    first = Pick("0,0", frozenset(st.ids_at("0,0")))
    assert r.by_pieces(first) == [] and r.candidates(first) == [opts[0]]
    assert r.second(r.candidates(first), first, Pick("1,0")) == [opts[0]]
    direct, sources = r.at_rest()
    assert direct == set() and sources == {"0,0", "0,1", "1,0"}


def test_the_last_battle_from_the_log():
    def narrate(event):  # type: ignore[no-untyped-def]
        kind, data = event
        return {"note": data.get("message"), "destroyed": f"{data.get('kind')} destroyed"}.get(kind)

    log = BattleLog(narrate)
    log.feed([("note", {"message": "A attacks B"}), ("roll", {"n": 2, "sides": 6, "faces": [3, 5], "why": ""}),
              ("destroyed", {"kind": "Tank"})], 0, ("attacks", "Red", "attack B from A"))
    b = log.battle
    assert b is not None and b.title == "attack B from A" and b.who == "Red"
    assert [r.faces for r in b.rolls] == [(3, 5)] and b.lines == ["A attacks B", "Tank destroyed"]
    # the answer to a question the rules asked on the way goes on with the same battle
    log.feed([("roll", {"n": 1, "sides": 6, "faces": [6]}), ("destroyed", {"kind": "Infantry"})], 3,
             ("choose", "Blue", "press on"))
    assert log.battle is b and [r.faces for r in b.rolls] == [(3, 5), (6,)]
    # an undo back to before the answer forgets it
    log.forget_from(3)
    assert [r.faces for r in b.rolls] == [(3, 5)] and b.lines == ["A attacks B", "Tank destroyed"]
    # another action's dice are another battle
    log.feed([("roll", {"n": 1, "sides": 6, "faces": [1]})], 3, ("attacks", "Red", "attack C"))
    assert log.battle is not b and log.battle.title == "attack C"
    # a whole log read at once: a roll after words about the last one begins another battle
    whole = BattleLog(narrate)
    whole.feed([("note", {"message": "first"}), ("roll", {"faces": [1]}), ("note", {"message": "hits 1"}),
                ("note", {"message": "second"}), ("roll", {"faces": [2]}), ("roll", {"faces": [4]})], 0)
    assert whole.battle.title == "second" and [r.faces for r in whole.battle.rolls] == [(2,), (4,)]


def test_the_launcher_lists_starts_and_loads(tmp_path):
    launcher = Launcher(save_path=tmp_path / "new.json")
    names = [i.name for i in launcher.rulesets()]
    assert {"bulge", "lhtr"} <= set(names) and launcher.default_ruleset() == "bulge"
    assert launcher.sides("bulge") == ["Axis", "Allies"] and launcher.default_computer("bulge") == {"Allies"}
    game, computer, saver = launcher.new_game("bulge", None, {"Axis"}, seed=3)
    assert set(computer) == {"Axis"} and game.seed == 3
    assert saver is not None
    saver(game)
    assert launcher.load(tmp_path / "new.json").state.signature() == game.state.signature()
    _, nobody, _ = launcher.new_game("bulge", None, set(), seed=3)
    assert nobody == {}                                      # people at every side


def test_the_launcher_offers_every_layer_and_says_which_it_cannot(tmp_path):
    from pathlib import Path

    house = Path(__file__).parent / "rulesets" / "skirmish_house"
    broken = tmp_path / "orphan"
    broken.mkdir()
    (broken / "orphan.rules").write_text("")
    (broken / "ruleset.json").write_text('{"name": "orphan", "title": "An orphan", "extends": "nowhere", '
                                         '"rules": ["orphan.rules"]}')
    launcher = Launcher(mods=[house.parent / "skirmish", house, broken], trust_code=True)
    infos = {i.name: i for i in launcher.rulesets()}
    # AARHE plays LHTR's scenarios, the test house rule its base's: both are offered
    assert {"aarhe", "lhtr", "bulge", "skirmish-house"} <= set(infos)
    assert [s.name for s in infos["aarhe"].scenarios] == [s.name for s in infos["lhtr"].scenarios]
    assert launcher.sides("aarhe") == launcher.sides("lhtr")
    # the mod whose base is missing is named with the reason, not dropped without a word
    assert "orphan" not in infos
    assert len(launcher.problems) == 1 and launcher.problems[0].startswith("orphan cannot be played:")
    assert "nowhere" in launcher.problems[0]
