"""Where AARHE's aircraft may land, and how they fly there (RULES.md part B, Phase 3): the
spaces AARHE bars (Rome-Berlin-Tokyo co-operation, Stalinist xenophobia, neutrals) are no
landing places, and a way home through them does not count: the bars are on flying over a
space as well as on landing in it. Without this an aircraft was offered a step that looked
like it led home, and was lost at the end of the turn."""

from __future__ import annotations

from tests.aarhe.play import Play, at_aarhe
from tests.lhtr.play import choices, left, step

FIGHTER = "Japan Fighter French Equatorial Africa"


def japanese_fighter_in_africa(german_in_egypt: bool) -> tuple[Play, int]:
    """A Japanese fighter in French Equatorial Africa in non-combat move with 3 moves left.
    Germany holds Libya and Anglo Egypt, with artillery in Libya (and in Anglo Egypt if
    `german_in_egypt`); Japan holds Trans-Jordan, past Anglo Egypt."""
    pieces = [("Fighter", "Japan", "French Equatorial Africa", 1), ("Artillery", "Germany", "Libya", 1)]
    if german_in_egypt:
        pieces.append(("Artillery", "Germany", "Anglo Egypt", 1))
    g, ids = at_aarhe("Japan", pieces, control={"Anglo Egypt": "Germany", "Trans-Jordan": "Japan"},
                      step="noncombat_move")
    fighter = ids[FIGHTER][0]
    g.state.vars["spent"] = {**g.var("spent"), fighter: 1}
    assert left(g, fighter) == 3
    return g, fighter


def test_a_fighter_whose_way_home_crosses_a_barred_space_is_refused_the_step() -> None:
    g, fighter = japanese_fighter_in_africa(german_in_egypt=True)
    # Trans-Jordan is two moves from the Belgian Congo through Anglo Egypt, which co-operation
    # bars to Japan: the way round by sea is three, and the fighter would have two left.
    assert g.var("carrier_reach")["Belgian Congo"] == 3
    # No step leaves it a landing in reach, so the move is refused; each step gives its reason.
    assert g.why_not("go", u=fighter) == "the Fighter in French Equatorial Africa has nowhere to go"
    u = g.piece(fighter)
    assert g.proc("step_refusal", u, "Belgian Congo", False) == \
        "the Fighter in French Equatorial Africa could not reach a landing place from Belgian Congo"
    assert g.proc("step_refusal", u, "Anglo Egypt", False) == \
        "Rome-Berlin-Tokyo co-operation: Japan may not move units into Anglo Egypt, where other Axis units are"
    assert not any(g.proc("step_ok", u, n, False) for n in ("Belgian Congo", "French West Africa", "SZ 23", "Anglo Egypt"))


def test_the_same_step_is_allowed_when_a_legal_landing_is_in_reach() -> None:
    g, fighter = japanese_fighter_in_africa(german_in_egypt=False)
    # Anglo Egypt is German with no German units in it: Japan may land there, one move on.
    assert g.var("carrier_reach")["Belgian Congo"] == 1
    step(g, fighter, "Belgian Congo")
    assert g.piece(fighter).space == "Belgian Congo" and left(g, fighter) == 2
    step(g, fighter, "Anglo Egypt")
    assert g.piece(fighter).space == "Anglo Egypt"


def test_an_aircraft_is_never_offered_a_landing_in_a_barred_space() -> None:
    g, fighter = japanese_fighter_in_africa(german_in_egypt=True)
    places = set(g.proc("landing_places", "Japan", True)) | set(g.proc("landing_places", "Japan", False))
    assert not places & {"Libya", "Anglo Egypt"}                # German-held, with German units
    assert "Trans-Jordan" in places
    reach = g.var("carrier_reach")
    # Every space the rules count as a landing (0 moves away) is one Japan may enter.
    for s in reach:
        if reach[s] == 0:
            assert g.proc("power_barred", "Japan", s) == "" and not g.proc("neutral_land", s), s
    # The fighter, with its whole allowance, is offered no barred space, and where it may go
    # leads home with the moves it has left.
    g.state.vars["spent"] = {**g.var("spent"), fighter: 0}
    g.act("go", u=fighter)
    offered = [s for s in choices(g) if s != "French Equatorial Africa"]
    assert offered and not set(offered) & {"Libya", "Anglo Egypt"}
    assert all(reach[s] <= left(g, fighter) - 1 for s in offered)


def test_a_bomber_in_a_space_co_operation_now_bars_still_flies_home_over_spaces_it_may_enter() -> None:
    # The case found: a Japanese bomber in Libya, where Germany then moved artillery; German
    # units in Anglo Egypt and Algeria bar those too. The way home is by sea to Southern Europe.
    pieces = [("Bomber", "Japan", "Libya", 1)] + [("Artillery", "Germany", s, 1) for s in ("Libya", "Anglo Egypt", "Algeria")]
    g, ids = at_aarhe("Japan", pieces, control={"Anglo Egypt": "Germany"}, step="noncombat_move")
    bomber = ids["Japan Bomber Libya"][0]
    reach = g.var("land_reach")
    assert reach["Libya"] == 2 and reach["SZ 14"] == 1 and reach["Southern Europe"] == 0
    g.act("go", u=bomber)
    assert [s for s in choices(g) if s != "Libya"] == ["SZ 14"]
    g.choose("SZ 14")
    step(g, bomber, "Southern Europe")
    assert g.piece(bomber).space == "Southern Europe"


def test_missions_and_retreats_fly_only_over_spaces_the_power_may_enter() -> None:
    g, _ = japanese_fighter_in_africa(german_in_egypt=True)
    # Trans-Jordan is two moves from French Equatorial Africa only through Anglo Egypt.
    missions = g.proc("flight_steps", "French Equatorial Africa", 2)
    assert missions["Anglo Egypt"] == 1 and "Trans-Jordan" not in missions   # reached, never flown over
    retreat = g.proc("distances_from", ["French Equatorial Africa"])
    assert retreat["Anglo Egypt"] == 1 and retreat["Trans-Jordan"] == 4
