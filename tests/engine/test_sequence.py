"""The turn sequence walks turns, powers, phases and steps, and reports every boundary."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board, Space
from engine.sequence import PhaseSpec, TurnStructure
from engine.state import GameState


def state() -> GameState:
    return GameState(Board([Space("a", "a")]))


def names(boundaries):
    return [(n, *a.values()) for n, a in list(boundaries)]


def test_shared_phases_with_a_skipped_phase_and_game_end():
    ts = TurnStructure(
        phases=(PhaseSpec("air", ("place",), when=lambda s: s.turn >= 2), PhaseSpec("ground", ("attack", "move"))),
        powers=("Axis", "Allies"), turns=2)
    s = state()
    assert names(ts.begin(s)) == [("turn_start", 1), ("phase_skipped", "air"), ("phase_start", "ground"),
                                  ("step_start", "ground", "attack")]
    assert names(ts.advance(s)) == [("step_end", "ground", "attack"), ("step_start", "ground", "move")]
    assert names(ts.advance(s)) == [("step_end", "ground", "move"), ("phase_end", "ground"), ("turn_end", 1),
                                    ("turn_start", 2), ("phase_start", "air"), ("step_start", "air", "place")]
    list(ts.advance(s))
    list(ts.advance(s))
    last = names(ts.advance(s))
    assert last[-2:] == [("turn_end", 2), ("game_end",)]


def test_each_power_plays_all_phases_in_order():
    ts = TurnStructure(phases=(PhaseSpec("purchase", ("buy",)), PhaseSpec("combat", ("fight",))),
                       powers=("USSR", "Germany"), per_power=True, turns=None, turn_names=())
    s = state()
    list(ts.begin(s))
    seen = []
    for _ in range(6):
        seen.append((s.turn, ts.power(s), ts.phase(s).name))
        list(ts.advance(s))
    assert seen == [(1, "USSR", "purchase"), (1, "USSR", "combat"), (1, "Germany", "purchase"),
                    (1, "Germany", "combat"), (2, "USSR", "purchase"), (2, "USSR", "combat")]
    assert "Turn 3" == ts.turn_name(3)


def test_a_team_plays_each_phase_member_by_member_and_a_together_phase_once():
    # Red alone, then Blue and Green as a team that fights together
    ts = TurnStructure(phases=(PhaseSpec("move", ("advance",)), PhaseSpec("combat", ("fight",)),
                               PhaseSpec("muster", ("place",), when=lambda s: s.power_index != 1)),
                       powers=("Red", "Blue", "Green"), per_power=True, turns=1,
                       spans=((0, 0), (1, 2), (1, 2)), together=("combat",))
    s = state()
    seen = [b for b in names(ts.begin(s)) if b[0] != "step_start"]
    played = []
    while not seen or seen[-1] != ("game_end",):
        played.append((ts.power(s), ts.phase(s).name, ts.acting(s)))
        seen += [b for b in names(ts.advance(s)) if b[0] not in ("step_start", "step_end")]
    assert played == [("Red", "move", ("Red",)), ("Red", "combat", ("Red",)), ("Red", "muster", ("Red",)),
                      ("Blue", "move", ("Blue",)), ("Green", "move", ("Green",)),
                      ("Blue", "combat", ("Blue", "Green")), ("Green", "muster", ("Green",))]
    team_turn = seen[seen.index(("power_end", 1, "Red")) + 1:]
    assert team_turn == [("power_start", 1, "Blue"), ("power_start", 1, "Green"),
                         ("phase_start", "move"), ("phase_end", "move"), ("phase_start", "move"), ("phase_end", "move"),
                         ("phase_start", "combat"), ("phase_end", "combat"),
                         ("phase_skipped", "muster"), ("phase_start", "muster"), ("phase_end", "muster"),
                         ("power_end", 1, "Blue"), ("power_end", 1, "Green"), ("turn_end", 1, "Green"), ("game_end",)]
    s.power_index, s.phase_index = 1, 1
    assert ts.where(s) == "Turn 1 of 1, the Blue and Green team's turn, together, combat: fight"
    s.power_index, s.phase_index = 2, 0
    assert ts.where(s) == "Turn 1 of 1, the Blue and Green team's turn, Green playing, move: advance"


def test_without_teams_each_power_is_a_team_of_its_own():
    ts = TurnStructure(phases=(PhaseSpec("combat", ("fight",)),), powers=("Red", "Blue"), per_power=True, turns=1,
                       together=("combat",))
    s = state()
    list(ts.begin(s))
    assert (ts.power(s), ts.team(s), ts.acting(s)) == ("Red", ("Red",), ("Red",))
    assert names(ts.advance(s))[2:5] == [("power_end", 1, "Red"), ("power_start", 1, "Blue"), ("phase_start", "combat")]


@st.composite
def team_sequences(draw):
    """A turn order of 1-5 powers cut into runs (teams), 1-4 phases, some played together and
    some skipped for some powers."""
    n = draw(st.integers(1, 5))
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) if n > 1 else []
    bounds = [0, *cuts, n]
    spans = tuple(span for a, b in zip(bounds, bounds[1:]) for span in [(a, b - 1)] * (b - a))
    names = [f"ph{i}" for i in range(draw(st.integers(1, 4)))]
    together = tuple(draw(st.sets(st.sampled_from(names))))
    skipped = draw(st.sets(st.tuples(st.integers(0, n - 1), st.sampled_from(names))))
    phases = tuple(PhaseSpec(ph, ("a", "b"), when=lambda s, ph=ph: (s.power_index, ph) not in skipped) for ph in names)
    return TurnStructure(phases=phases, powers=tuple(f"P{i}" for i in range(n)), per_power=True, turns=2,
                         spans=spans, together=together)


@given(team_sequences())
@settings(max_examples=60, deadline=None)
def test_every_member_plays_each_phase_once_a_turn_and_a_team_once_what_it_plays_together(ts):
    s = state()
    events = list(ts.begin(s))
    played = []
    while events[-1][0] != "game_end":
        if events[-1][0] == "step_start" and events[-1][1]["step"] == "a":
            played.append((s.turn, ts.power(s), ts.phase(s).name, ts.acting(s)))
        events += list(ts.advance(s))
    spans = ts.spans
    for turn in (1, 2):
        for first, last in dict.fromkeys(spans):
            team = ts.powers[first:last + 1]
            # the team's turn: its members' power_start, its phases in order, its members' power_end
            mine = [(p, ph, acting) for t, p, ph, acting in played if t == turn and p in team]
            assert [ph for _, ph, _ in mine] == sorted((ph for _, ph, _ in mine), key=lambda ph: int(ph[2:]))
            for spec in ts.phases:
                by = [(p, acting) for p, ph, acting in mine if ph == spec.name]
                if spec.name in ts.together:
                    # once, by the first member, for all of them (unless its condition says no)
                    assert by == ([(team[0], team)] if spec.when(_at(ts, team[0])) else [])
                else:
                    assert by == [(p, (p,)) for p in team if spec.when is None or spec.when(_at(ts, p))]
    starts = [(e[1]["turn"], e[1]["power"]) for e in events if e[0] == "power_start"]
    ends = [(e[1]["turn"], e[1]["power"]) for e in events if e[0] == "power_end"]
    assert starts == ends == [(t, p) for t in (1, 2) for p in ts.powers]


def _at(ts, power):
    s = state()
    s.power_index = ts.powers.index(power)
    return s
