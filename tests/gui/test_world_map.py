"""The world map (LHTR, AARHE): every territory and sea zone drawn as its polygons, a click
on a space's label point selects it, counters stay inside their space at every zoom, the
turn order in the panel, and screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_support import require_gl

require_gl()         # skips this module, with the reason, when no window can be made here

from gui_support import draw, pixel  # noqa: E402

from clients.gui_map import MapView  # noqa: E402
from clients.gui_world import SEA, WorldView, map_view_for  # noqa: E402
from clients.world_geometry import geometry, inner_boxes, is_world, shapes_of, triangulate  # noqa: E402
from engine import plugins  # noqa: E402
from engine.game import Game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lhtr():  # type: ignore[no-untyped-def]
    return plugins.load("lhtr")


@pytest.fixture
def world(lhtr):  # type: ignore[no-untyped-def]
    return Game(lhtr, None, seed=1)


def near(c, want, tol=3) -> bool:  # type: ignore[no-untyped-def]
    return all(abs(a - b) <= tol for a, b in zip(c, want, strict=True))


# -- the geometry, without drawing ---------------------------------------------------------------
def test_a_square_with_a_hole_is_triangulated_and_hit_tested():
    outer = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    hole = [(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]
    vertices, indices = triangulate([[outer, hole]])
    assert len(vertices) == 16 and len(indices) == 8 * 3          # 8 triangles round the hole
    area = 0.0
    for i in range(0, len(indices), 3):
        (ax, ay), (bx, by), (cx, cy) = ((vertices[2 * k], vertices[2 * k + 1]) for k in indices[i:i + 3])
        area += abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    assert area == pytest.approx(100 - 4)
    # the boxes around a point beside the hole stay out of it and inside the square
    for x0, y0, x1, y1 in inner_boxes([[outer, hole]], (2.0, 5.0)):
        assert 0 <= x0 <= 2 <= x1 <= 4 + 1e-9 and 0 <= y0 <= 5 <= y1 <= 10


def test_every_label_point_is_in_its_own_space(lhtr):
    board = Game(lhtr, None, seed=1).state.board
    assert is_world(board)
    geo = geometry(board)
    assert set(geo.spaces) == {sid for sid, sp in board.spaces.items() if shapes_of(sp)}
    for sid, shape in geo.spaces.items():
        assert geo.space_at(*shape.label) == sid, sid
        for x0, y0, x1, y1 in shape.boxes:          # the boxes lie inside the space
            for fx, fy in ((0.02, 0.02), (0.98, 0.02), (0.98, 0.98), (0.02, 0.98), (0.5, 0.5)):
                assert shape.contains(x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy), sid


# -- in the window -----------------------------------------------------------------------------
def test_the_world_map_draws_every_space(world, make_window, tmp_path):
    win = make_window(world, width=1400, height=880)
    assert isinstance(win.map, WorldView)
    win.buying.folded = True                 # the purchase's box folded away from the map
    win.refresh()
    img = draw(win, tmp_path / "world.png")
    board = world.state.board
    shaped = [sid for sid, sp in board.spaces.items() if shapes_of(sp)]
    assert len(shaped) == len(board) == 143
    fills = win.layer.fills
    assert set(fills) == set(shaped)                       # one vertex list a space...
    polygons = sum(len(shapes_of(board.spaces[sid])) for sid in shaped)
    assert polygons == sum(len(win.map.geo.spaces[sid].polygons) for sid in shaped) > 143   # ...of all its polygons
    for sid in shaped:
        shape = win.map.geo.spaces[sid]
        assert fills[sid].count == len(shape.vertices) // 2 and len(shape.indices) >= 3
    # sampled inside each space, away from what is written in it, the map shows its colour
    ox, oy = win.map.offset
    s = win.map.size
    checked = 0
    for sid in shaped:
        shape = win.map.geo.spaces[sid]
        x0, y0, x1, y1 = max(shape.boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        if (x1 - x0) * s < 12 or (y1 - y0) * s < 12:
            continue
        corners = [(x * s + ox + dx, y * s + oy + dy) for x, dx in ((x0, 3), (x1, -3)) for y, dy in ((y0, 3), (y1, -3))]
        corners = [(px, py) for px, py in corners if win.in_map(px, py) and not win._inside(win.legend_rect, px, py)
                   and not win.buying.contains(px, py)]
        if not corners:
            continue
        want = win.layer.fill(world.state, sid, win.colours)
        hatched = tuple(int(c * 0.74) for c in want)
        got = [pixel(img, px, py) for px, py in corners]     # the content is in the middle: a corner is free
        assert any(near(c, want) or (board.spaces[sid].get("impassable") and near(c, hatched)) for c in got), \
            (sid, got, want)
        checked += 1
    assert checked > 60
    # the powers have the board's colours, sea zones are blue
    assert win.side_colour("Germany") == (0x6B, 0x6B, 0x6B) and win.colours.counter("USSR") == (0x6A, 0x1C, 0x12)
    assert win.layer.fill(world.state, "SZ 5", win.colours) == SEA
    texts = win.layer.texts
    assert "Greenland" in texts["Greenland"] and "12" in texts["SZ 12"]


def test_a_hex_map_keeps_the_hex_view(skirmish):
    board = Game(skirmish, "hill", seed=1).state.board
    assert not is_world(board) and isinstance(map_view_for(board), MapView)


def click(win, x, y):  # type: ignore[no-untyped-def]
    win.dispatch_event("on_mouse_press", int(x), int(y), 1, 0)
    win.dispatch_event("on_mouse_release", int(x), int(y), 1, 0)
    win.dispatch_events()


def test_a_click_on_a_label_point_selects_that_space(world, make_window):
    win = make_window(world, width=1400, height=880)
    draw(win)
    win.show_legend = False
    win.buying.folded = True                 # the purchase's box folded away from the map
    win.refresh(map_changed=False)
    for sid in ("Germany", "United Kingdom", "SZ 5", "Eastern United States", "Japan", "SZ 56", "Brazil"):
        win.map.centre_on(sid)               # the map fills the height: the Pacific is a pan away
        win.refresh(map_changed=False)
        x, y = win.map.screen(sid)
        assert win.in_map(x, y) and not win.buying.contains(x, y), sid
        assert win.map.space_at(int(x), int(y)) == sid, sid
        click(win, x, y)
        assert win.selected == sid
        click(win, x, y)                     # again: cleared
        assert win.selected is None
    # every space, at a zoom where each is at least a pixel wide, hit at its label point
    geo = win.map.geo
    for zoom in (1.0, 8.0):
        win.map.fit(win.map_area())
        win.map.zoom(zoom, (400, 400))
        for sid in geo.spaces:
            win.map.centre_on(sid)
            x, y = win.map.screen(sid)
            if win.map.space_at(int(x), int(y)) != sid and zoom == 1.0:
                continue                     # too small at this zoom: the next one
            assert win.map.space_at(int(x), int(y)) == sid, (sid, zoom)
    # a click on the sea selects the sea zone, between the land
    win.map.fit(win.map_area())
    win.refresh()
    draw(win)
    x, y = win.map.screen("SZ 12")
    click(win, x, y)
    assert win.selected == "SZ 12"


def test_options_narrow_to_a_territory_and_a_click_on_a_counter_picks_its_units(world, make_window):
    from clients.players import RandomPlayer

    win = make_window(world, width=1400, height=880)
    me = RandomPlayer(3)
    while world.decision.kind != "combat_move" and not world.over:
        win.choose(me.choose(world.ruleset, world.state, world.decision))
    draw(win)
    options = win.visible_options()
    here = next(p.space for p in world.state.pieces_of(world.decision.player)
                if any(a.args and p.id in [v for v in a.args.values() if isinstance(v, int)] for a in options))
    win.select_space(here)
    assert win.selected == here
    assert 0 < len(win.visible_options()) < len(options)
    win.select_space(None)
    # close in, a click on a counter takes its pieces, and the territories they can reach light up
    win.map.fit(win.map_area())
    win.map.zoom(8.0, win.map.screen(here))
    win.map.centre_on(here)
    win.refresh()
    draw(win)
    counter = next(c for c in win.layer.counters if c[0] == here and c[1] == world.decision.player and c[2])
    sid, owner, kind, x, y, w, h = counter
    ox, oy = win.map.offset
    renders = win.map.picture.renders
    click(win, x + w / 2 + ox, y + h / 2 + oy)
    # LHTR moves a unit by one option, then asks where: played, the unit marked while asked
    marked = win.pick or win.focus
    assert marked is not None and marked.pieces <= win.layer.counter_pieces(world.state, counter) | {
        a.args.get("u") for a in world.actions[-1:]}
    lit = win.targets()[0] if win.pick is not None else win.at_rest()[0]
    assert lit and all(t in win.map.hexes for t in lit)
    img = draw(win)
    assert win.map.picture.renders > renders                   # the lit territories are tinted with the map
    far = max(lit, key=lambda t: win.map.geo.spaces[t].area)
    box = max(win.map.geo.spaces[far].boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    s = win.map.size
    at = ((box[0] + box[2]) / 2 * s + ox, box[1] * s + oy + 3)
    if win.in_map(*at) and win.counter_at(*at) is None and not win._inside(win.legend_rect, *at):
        assert pixel(img, *at) != win.layer.fill(world.state, far, win.colours)   # tinted


def test_counters_stay_inside_their_space_at_every_zoom(world, make_window):
    win = make_window(world, width=1400, height=880)
    geo = win.map.geo
    for zoom in (1.0, 2.0, 4.0, 9.0):
        win.map.fit(win.map_area())
        win.map.zoom(zoom, win.map.screen("Germany"))
        win.map.centre_on("Germany")
        win.refresh()
        draw(win)
        s = win.map.size
        drawn = [c for c in win.layer.counters if c[2]]
        assert drawn, zoom
        for sid, _, kind, x, y, w, h in drawn:
            shape = geo.spaces[sid]
            for cx, cy in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
                assert shape.contains(cx / s, cy / s), (sid, kind, zoom)
        for sid, (x0, y0, x1, y1) in win.layer.names.items():
            shape = geo.spaces[sid]
            assert shape.contains(x0 / s, y0 / s) and shape.contains(x1 / s, y1 / s), (sid, zoom)
    # close in, Germany shows each kind of its units, with how many
    kinds = {kind for sid, _, kind, *_ in win.layer.counters if sid == "Germany"}
    assert {"Infantry", "Tank", "Fighter"} <= kinds
    assert {"Berlin", "10"} & set(win.layer.texts["Germany"])


def test_a_captured_territory_changes_colour_and_the_picture_is_redrawn(world, make_window):
    win = make_window(world, width=1400, height=880)
    draw(win)
    renders = win.map.picture.renders
    img = draw(win)
    assert win.map.picture.renders == renders                 # nothing changed: the picture is copied
    x, y = win.map.screen("Kazakh S.S.R.")
    box = max(win.map.geo.spaces["Kazakh S.S.R."].boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    s, (ox, oy) = win.map.size, win.map.offset
    at = (box[0] * s + ox + 3, box[1] * s + oy + 3)
    assert near(pixel(img, *at), win.side_colour("USSR"))
    world.state.control["Kazakh S.S.R."] = "Japan"
    win.refresh()
    img = draw(win)
    assert win.map.picture.renders == renders + 1
    assert near(pixel(img, *at), win.side_colour("Japan"))
    # copied as a textured quad (as onto a multisampled frame), or drawn directly, the frame
    # is the same
    points = [at, (x, y)] + [win.map.screen(s) for s in ("Germany", "SZ 12", "Japan", "Brazil")]
    win.map.picture.blit = False
    quad = draw(win)
    assert [pixel(quad, *p) for p in points] == [pixel(img, *p) for p in points]
    win.map.cache = False
    direct = draw(win)
    assert [pixel(direct, *p) for p in points] == [pixel(img, *p) for p in points]
    # the panel and the legend are drawn over the picture, not under it
    assert pixel(img, win.panel_x + 5, 5) == pixel(direct, win.panel_x + 5, 5) != pixel(img, *at)


def test_the_panel_shows_the_turn_order_treasuries_and_income(world, make_window):
    win = make_window(world, width=1400, height=880)
    draw(win)
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert "▶ USSR" in texts and "Germany" in texts and "US" in texts
    assert "24 IPC" in texts and "income 24" in texts and "income 40" in texts
    assert "purchase" in texts and "collect income" in texts
    order = [t for t in texts if t.lstrip("▶ ") in ("USSR", "Germany", "UK", "Japan", "US")]
    assert [t.lstrip("▶ ") for t in order][:5] == ["USSR", "Germany", "UK", "Japan", "US"]


def test_the_panel_marks_the_team_and_the_members_who_play_the_phase(make_window):
    # AARHE's team turns: the UK and the US play each phase in turn, conduct combat together
    game = Game(plugins.load("aarhe", {"team_turns": True}), None, seed=1)
    win = make_window(game, width=1400, height=880)
    structure = game.ruleset.structure
    phases = [p.name for p in structure.phases]

    def panel(power: str, phase: str) -> list[str]:
        game.state.power_index, game.state.phase_index, game.state.step_index = \
            structure.powers.index(power), phases.index(phase), 0
        win.refresh()
        draw(win)
        return [getattr(i, "text", "") for i in win._panel_items]

    texts = panel("US", "combat_move")
    assert "▷ UK" in texts and "▶ US" in texts and "Germany" in texts
    assert "Turn order — round 1 — team UK and US" in texts
    texts = panel("UK", "conduct_combat")
    assert "▶ UK" in texts and "▶ US" in texts
    assert "Turn order — round 1" in panel("USSR", "purchase") and "▶ USSR" in panel("USSR", "purchase")


@pytest.mark.parametrize("ruleset", ["lhtr", "aarhe"])
def test_world_screenshots(ruleset, make_window, tmp_path):
    """LHTR and AARHE at the whole map and two zooms; in docs/screenshots when
    GUI_SCREENSHOTS=1 (else to tmp)."""
    from clients import seats

    out = ROOT / "docs" / "screenshots" if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    rs = plugins.load(ruleset)
    game = Game(rs, None, seed=1)
    win = make_window(game, computer=seats.assign(rs, []), width=1400, height=880)
    draw(win)
    shots = [out / f"{ruleset}-window.png"]
    win.render_to_png(shots[0])
    for zoom, centre, name in ((2.6, "Germany", "europe"), (5.5, "Western Europe", "close")):
        win.map.fit(win.map_area())
        win.map.zoom(zoom, win.map.screen(centre))
        win.map.centre_on(centre)
        win.refresh()
        draw(win)
        shots.append(out / f"{ruleset}-window-{name}.png")
        win.render_to_png(shots[-1])
    for png in shots:
        assert png.exists() and 10_000 < png.stat().st_size < 900_000, png


def test_moving_the_mouse_over_lit_territories_does_not_redraw_the_map(world, make_window):
    win = make_window(world, computer={"Axis": None}, width=1400, height=880)
    draw(win)
    while world.decision.kind != "combat_move":
        assert win.finish()
    draw(win)
    direct, _ = win.at_rest()
    assert direct and len(win.layer._tints) == len(direct)          # the lit territories, tinted
    renders = win.map.picture.renders
    for sid in ("Russia", "Germany", "SZ 4", "Archangel", "Brazil"):
        x, y = win.map.screen(sid)
        win.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
        draw(win)
        assert win.hovered == sid
    assert win.map.picture.renders == renders and len(win.layer._tints) == len(direct)
    win.select_space("Russia")                                     # the lights change: drawn again
    draw(win)
    assert win.map.picture.renders > renders


# -- what AARHE adds: terrain, income losses, Lend-Lease, air missions ------------------------------
SHOTS = ROOT / "docs" / "screenshots"


def shots_dir(tmp_path: Path) -> Path:
    out = SHOTS if os.environ.get("GUI_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def walk(game: Game, power: str, step: str) -> None:
    """End every step until it is `power`'s `step` (nobody attacks on the way)."""
    structure = game.ruleset.structure
    for _ in range(400):
        if structure.power(game.state) == power and structure.step(game.state) == step:
            return
        assert game.decision is not None and game.decision.finish is not None, game.decision
        game.play(game.decision.finish)
    raise AssertionError(f"never reached {power}'s {step}")


def option(game: Game, label: str):  # type: ignore[no-untyped-def]
    assert game.decision is not None
    found = [a for a in game.decision.options if a.label == label]
    assert found, (label, [a.label for a in game.decision.options][:30])
    return found[0]


def zoom_on(win, sid: str, zoom: float) -> None:  # type: ignore[no-untyped-def]
    win.map.fit(win.map_area())
    win.map.zoom(zoom, win.map.screen(sid))
    win.map.centre_on(sid)
    win.refresh()


def share(img, win, sid: str, test) -> float:  # type: ignore[no-untyped-def]
    """The share of the pixels of `sid` on screen (sampled every 3, off the legend) for
    which `test(rgb)` holds."""
    s, (ox, oy) = win.map.size, win.map.offset
    shape = win.map.geo.spaces[sid]
    x0, y0, x1, y1 = shape.bbox
    hits = total = 0
    for px in range(int(x0 * s + ox), int(x1 * s + ox), 3):
        for py in range(int(y0 * s + oy), int(y1 * s + oy), 3):
            if win.in_map(px, py) and not win._inside(win.legend_rect, px, py) \
                    and shape.contains((px - ox) / s, (py - oy) / s):
                total += 1
                hits += bool(test(pixel(img, px, py)))
    assert total > 100, (sid, total)
    return hits / total


def pale_sand(c) -> bool:  # type: ignore[no-untyped-def]
    return c[0] > 215 and c[1] > 190 and c[2] < 175


def white(c) -> bool:  # type: ignore[no-untyped-def]
    return min(c) > 180


def test_aarhe_terrain_is_drawn_where_its_map_changes_put_it_and_lhtr_has_none(lhtr, make_window, tmp_path):
    out = shots_dir(tmp_path)
    game = Game(plugins.load("aarhe"), None, seed=1)
    nobody = {"Allies": None, "Axis": None}                         # no person to play: nothing lit
    win = make_window(game, computer=nobody, width=1400, height=880)
    draw(win)
    terrain = win.map.terrain
    assert terrain["Libya"] == terrain["Persia"] == ("dunes",)
    assert terrain["Karelia S.S.R."] == terrain["Alaska"] == ("snow",)
    assert terrain["Caucasus"] == terrain["Norway"] == ("peaks",)
    assert terrain["Wake Island"] == terrain["Okinawa"] == ("atoll",)
    assert "Germany" not in terrain and "Russia" not in terrain and "SZ 5" not in terrain
    # desert, snow and mountains are patterns over the ground; a small island is ringed
    assert set(win.map.polygons.patterns) == {sid for sid, names in terrain.items() if names != ("atoll",)}
    assert win.map.views.errors == []
    rows = win.map.legend_rows
    assert {"desert", "snow", "mountains", "small island", "IPCs lost at next income", "air mission target",
            "mission aircraft's flight"} <= set(rows)
    assert rows.index("sea zone") < rows.index("desert") < rows.index("snow") < rows.index("mountains")
    zoom_on(win, "Libya", 4.0)
    img = draw(win, out / "aarhe-terrain.png")
    # in the deserts the dunes' pale sand shows on the holder's colour; in snow, a white hatch
    assert share(img, win, "Libya", pale_sand) > 0.03 and share(img, win, "Anglo Egypt", pale_sand) > 0.03
    assert share(img, win, "French West Africa", pale_sand) == 0           # no desert there
    zoom_on(win, "Karelia S.S.R.", 4.0)
    img = draw(win, out / "aarhe-terrain-north.png")
    assert share(img, win, "Archangel", white) > 0.15                       # snow
    assert share(img, win, "Caucasus", white) > 0.06                        # the peaks' lit faces
    assert share(img, win, "Russia", white) < 0.04                          # only its marks and counters

    # LHTR: the same map without terrain, as before
    plain = Game(lhtr, None, seed=1)
    win = make_window(plain, computer=nobody, width=1400, height=880)
    draw(win)
    zoom_on(win, "Libya", 4.0)
    img = draw(win)
    assert win.map.terrain == {} and win.map.polygons.patterns == {} and win.layer.rule_marks == {}
    assert win.map.legend_rows[:8] == ["USSR", "Germany", "UK", "Japan", "US", "neutral", "impassable", "sea zone"]
    assert "desert" not in win.map.legend_rows and "capital" in win.map.legend_rows
    assert win.layer.rule_lines == ()
    assert share(img, win, "Libya", pale_sand) == 0


def test_an_air_mission_is_marked_on_its_target_until_flown_then_its_damage(make_window, tmp_path):
    out = shots_dir(tmp_path)
    game = Game(plugins.load("aarhe"), None, seed=1)
    win = make_window(game, width=1400, height=880)
    walk(game, "Germany", "declare_missions")
    win.choose(option(game, "strategic bombing run on Russia with the Germany Bomber in Germany"))
    win.choose(option(game, "counter air on Karelia S.S.R. with the Germany Fighter in Balkans"))
    win.choose(option(game, "counter air on Karelia S.S.R. with the Germany Fighter in Eastern Europe"))
    draw(win, out / "aarhe-missions-world.png")
    layer = win.layer
    assert layer.rule_marks == {"Russia": (("target", "SBR 1"),), "Karelia S.S.R.": (("target", "counter air 2"),)}
    assert set(layer.rule_lines) == {("Germany", "Russia", "flight"), ("Balkans", "Karelia S.S.R.", "flight"),
                                     ("Eastern Europe", "Karelia S.S.R.", "flight")}
    # the target is drawn inside Russia, and the line ends at it
    (kind, _, (x, y, w, h)), = layer.mark_boxes["Russia"]
    s = win.map.size
    assert kind == "target" and win.map.geo.spaces["Russia"].contains((x + h / 2) / s, (y + h / 2) / s)
    zoom_on(win, "Eastern Europe", 2.6)
    draw(win, out / "aarhe-missions.png")
    assert "SBR 1" in win.layer.texts["Russia"]           # close enough in, with its words
    # the text says it too: the status line (the terminal's) and the tooltip
    assert "Germany 40 (air missions: counter air on Karelia S.S.R.; SBR on Russia)" in game.status()
    assert win.status_label.text == game.status()
    assert "Germany's air missions to fly: strategic bombing run (1 Bomber) on Russia" in win.describe("Russia")

    # declared: the USSR sends no interceptors; flown: the AA gun misses, the bomber rolls a 5
    win.choose(game.decision.finish)
    while game.decision.kind == "choose":
        win.choose(option(game, "no (more) interceptors") if "intercept" in game.decision.prompt
                   else game.decision.options[-1])
    walk(game, "Germany", "resolve_missions")
    game.state.load_dice([6, 5])
    win.choose(option(game, "resolve the air missions over Russia"))
    win.refresh()
    draw(win, out / "aarhe-raid-flown.png")
    assert win.layer.rule_marks["Russia"] == (("loss", "-5"),)     # the target mark is gone
    assert "-5" in win.layer.texts["Russia"]
    assert not any(b == "Russia" for _, b, _ in win.layer.rule_lines)
    assert "Germany's bombers take 5 from the income of Russia" in win.narration
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert "next income -5: Russia -5 (strategic bombing run)" in texts       # under the USSR, in the turn order
    assert "income 19" in texts                                                # 24 less the damage
    assert "USSR 24 (next income -5)" in game.status()
    assert "USSR loses 5 IPCs: strategic bombing run (at its next collect income)" in win.describe("Russia")
    # at the whole map the loss still shows, as a badge over Russia's label
    win.map.fit(win.map_area())
    win.refresh()
    draw(win, out / "aarhe-raid-world.png")
    (kind, label, (x, y, w, h)), = win.layer.mark_boxes["Russia"]
    assert (kind, label) == ("loss", "-5") and h >= 12
    assert win.map.geo.spaces["Russia"].contains((x + w / 2) / win.map.size, (y + h / 2) / win.map.size)


def test_lend_lease_sent_is_shown_under_the_powers(make_window, tmp_path):
    out = shots_dir(tmp_path)
    game = Game(plugins.load("aarhe"), None, seed=1)
    walk(game, "US", "lend_lease")
    win = make_window(game, width=1400, height=880)
    win.choose(option(game, "Lend-Lease: send 8 IPCs to USSR"))
    draw(win)
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert "Lend-Lease this turn: USSR 8 so far" in texts                       # under the US
    assert "Lend-Lease from the US this turn: 8 so far" in texts                # under the USSR
    win.choose(option(game, "Lend-Lease: send 4 IPCs to UK"))                   # the cap: sent
    assert game.ruleset.structure.step(game.state) != "lend_lease"
    draw(win, out / "aarhe-lend-lease.png")
    texts = [getattr(i, "text", "") for i in win._panel_items]
    arrived = game.state.vars["lend_lease_arrived"]
    assert arrived["USSR"][0] == 8 and arrived["UK"][0] == 4
    words = {p: f"Lend-Lease from the US this turn: {a[0]} sent" + (f", {a[1]} arrived" if a[1] != a[0] else "")
             for p, a in arrived.items()}
    assert words["USSR"] in texts and words["UK"] in texts
    assert "Lend-Lease this turn: USSR 8" in game.status()


def test_a_view_procedure_that_fails_leaves_the_rest_of_the_map_drawn(make_window, tmp_path, caplog):
    import json

    mod = tmp_path / "broken-marks"
    mod.mkdir()
    (mod / "ruleset.json").write_text(json.dumps({"name": "broken-marks", "title": "AARHE, a mark that fails",
                                                  "extends": "aarhe", "rules": ["marks.rules"]}))
    (mod / "marks.rules").write_text('extends aarhe\n'
                                     'override procedure map_marks() -> map[str, map[str, str]] {\n'
                                     '    let none: list[str] = []\n'
                                     '    return {"Russia": {"loss": none[2]}}\n'
                                     '}\n')
    game = Game(plugins.load(mod), None, seed=1)
    win = make_window(game, width=1400, height=880)
    draw(win)
    assert win.layer.rule_marks == {}
    assert len(win.map.views.errors) == 1 and win.map.views.errors[0].startswith("procedure `map_marks`: "), \
        win.map.views.errors
    assert "the map leaves out what procedure `map_marks`: " in caplog.text and "index out of range" in caplog.text
    assert win.map.terrain["Libya"] == ("dunes",) and win.layer.texts["Russia"]     # the rest is drawn
    texts = [getattr(i, "text", "") for i in win._panel_items]
    assert any(t.startswith("next income -1: convoy raid -1") for t in texts)       # and the panel
