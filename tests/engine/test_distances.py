"""`distances`: the breadth-first walk the world map's flights are measured with (LHTR's
landing reach, AARHE's flights over spaces a power may enter), as the rules wrote it before
it became a primitive: the same distances, found in the same order."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.runtime import BoardQuestion
from engine import graph
from engine.board import Board, Space
from engine.graph import hops, nearer, spread


def _walk_as_the_rules_wrote_it(board: Board, places: list[str], budget: int,
                                enters: Callable[[str], bool], goes_on: Callable[[str], bool]) -> dict[str, int]:
    d: dict[str, int] = {}
    for s in places:
        d[s] = 0
    frontier = places
    for k in range(1, budget + 1):
        further = []
        for a in frontier:
            for b in board.neighbours(a):
                if b not in d and enters(b):
                    d[b] = k
                    if goes_on(b):
                        further.append(b)
        frontier = further
    return d


def _line(n: int) -> Board:
    ids = [f"s{i}" for i in range(n)]
    return Board([Space(i, i) for i in ids], [(a, b, {}) for a, b in zip(ids, ids[1:])])


def test_a_walk_counts_a_space_it_may_not_go_on_from_but_stops_there() -> None:
    board = _line(6)
    d = spread(board, ["s0"], 10, lambda s: s != "s5", lambda s: s != "s2")
    assert d == {"s0": 0, "s1": 1, "s2": 2}


def test_the_budget_bounds_the_walk_and_every_place_starts_at_nought() -> None:
    board = _line(8)
    assert spread(board, ["s0", "s7"], 2, lambda s: True, lambda s: True) == \
        {"s0": 0, "s7": 0, "s1": 1, "s6": 1, "s2": 2, "s5": 2}


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n),
    st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]), max_size=30),
    st.lists(st.integers(0, n - 1), min_size=1, max_size=3),
    st.integers(-1, 6),
    st.sets(st.integers(0, n - 1)),
    st.sets(st.integers(0, n - 1)))))
def test_the_walk_finds_what_the_rules_loop_found_in_the_same_order(case: tuple) -> None:  # type: ignore[type-arg]
    n, edges, starts, budget, walls, stops = case
    ids = [f"s{i}" for i in range(n)]
    links = {frozenset((ids[a], ids[b])) for a, b in edges}
    board = Board([Space(i, i) for i in ids], [(*sorted(k), {}) for k in sorted(links, key=sorted)])
    places = [ids[i] for i in starts]

    def enters(s: str) -> bool:
        return int(s[1:]) not in walls

    def goes_on(s: str) -> bool:
        return int(s[1:]) not in stops

    got = spread(board, places, budget, enters, goes_on)
    want = _walk_as_the_rules_wrote_it(board, places, budget, enters, goes_on)
    assert list(got.items()) == list(want.items())
    # the same questions as board questions (their answers looked up, not asked) walk alike
    asks = [BoardQuestion(lambda state, s, f=f: f(s), None) for f in (enters, goes_on)]
    for e, g in ((asks[0], goes_on), (enters, asks[1]), (asks[0], asks[1])):
        assert list(spread(board, places, budget, e, g).items()) == list(want.items())



@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n),
    st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]), max_size=30),
    st.lists(st.integers(0, n - 1), min_size=1, max_size=3),
    st.lists(st.integers(0, n - 1), max_size=3),
    st.integers(-1, 6),
    st.sets(st.integers(0, n - 1)),
    st.sets(st.integers(0, n - 1)))))
def test_places_added_to_a_walk_give_the_distances_of_one_walk_from_all_of_them(case: tuple) -> None:  # type: ignore[type-arg]
    # (LHTR's fighters: the territories' distances, brought nearer by the carriers' zones)
    n, edges, first, more, budget, walls, stops = case
    ids = [f"s{i}" for i in range(n)]
    links = {frozenset((ids[a], ids[b])) for a, b in edges}
    board = Board([Space(i, i) for i in ids], [(*sorted(k), {}) for k in sorted(links, key=sorted)])
    asked: list[str] = []

    def enters(s: str) -> bool:
        asked.append(s)
        return int(s[1:]) not in walls

    def goes_on(s: str) -> bool:
        return int(s[1:]) not in stops

    old = spread(board, [ids[i] for i in first], budget, enters, goes_on)
    asked.clear()
    got = nearer(board, old, [ids[i] for i in more], budget, enters, goes_on)
    assert len(asked) == len(set(asked)) and not set(asked) & set(old)
    assert got == spread(board, [ids[i] for i in first + more], budget, enters, goes_on)
    assert list(got)[:len(old)] == list(old)        # the old spaces keep their places
    as_board = nearer(board, old, [ids[i] for i in more], budget, BoardQuestion(lambda state, s: enters(s), None),
                      BoardQuestion(lambda state, s: goes_on(s), None))
    assert list(as_board.items()) == list(got.items())


def test_a_place_added_next_to_the_old_ones_walks_only_what_comes_nearer() -> None:
    board = _line(8)
    old = spread(board, ["s0"], 10, lambda s: True, None)
    asked: list[str] = []

    def enters(s: str) -> bool:
        asked.append(s)
        return True

    assert nearer(board, old, ["s2"], 10, enters, None) == {"s0": 0, "s1": 1, "s2": 0, "s3": 1, "s4": 2, "s5": 3,
                                                            "s6": 4, "s7": 5}
    assert asked == []          # every space the walk reached was one the old walk had entered

def test_each_space_is_asked_once_and_the_same_question_is_not_asked_twice() -> None:
    board = Board([Space(i, i) for i in "abcde"],
                  [("a", "b", {}), ("a", "c", {}), ("b", "d", {}), ("c", "d", {}), ("d", "e", {}), ("b", "c", {})])
    asked: list[str] = []

    def enters(s: str) -> bool:
        asked.append(s)
        return s != "d"

    assert spread(board, ["a"], 5, enters, None) == {"a": 0, "b": 1, "c": 1}
    assert sorted(asked) == ["b", "c", "d"]     # d, reached from b and from c, is asked once


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["", "river", "road"])), max_size=20))
def test_a_link_reads_the_same_from_either_end_with_every_fact_given_for_it(links: list[tuple[int, int, str]]) -> None:
    # links are looked up by their two ends in either order (canals at every ship's step);
    # a link given twice holds the facts of both
    ids = [f"s{i}" for i in range(6)]
    board = Board([Space(i, i) for i in ids], [(ids[a], ids[b], {fact: True} if fact else {}) for a, b, fact in links])
    for a in ids:
        for b in ids:
            given_here = [fact for x, y, fact in links if {ids[x], ids[y]} == {a, b}]
            assert board.adjacent(a, b) == board.adjacent(b, a) == bool(given_here)
            assert dict(board.link(a, b)) == dict(board.link(b, a)) == {f: True for f in given_here if f}


def _fewest_links(board: Board, a: str, b: str) -> int:
    """The search `distance` made before its walks were kept: breadth first from a to b."""
    seen, frontier, k = {a}, [a], 0
    while frontier:
        if b in frontier:
            return k
        k += 1
        further = []
        for s in frontier:
            for n in board.neighbours(s):
                if n not in seen:
                    seen.add(n)
                    further.append(n)
        frontier = further
    return -1


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n),
    st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]), max_size=30),
    st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), min_size=1, max_size=40),
    st.integers(1, 4))))
def test_distance_from_kept_walks_is_the_fewest_links_whatever_is_asked_first(case: tuple) -> None:  # type: ignore[type-arg]
    """`distance` keeps the walks it makes, from either end of a pair, and forgets them all
    when it keeps too many: every answer is still the search's (n stands for an off-board area)."""
    n, edges, pairs, kept = case
    board = Board([Space(f"s{i}", f"s{i}") for i in range(n)], [(f"s{a}", f"s{b}", {}) for a, b in edges])
    old, graph.KEPT_WALKS = graph.KEPT_WALKS, kept
    try:
        for a, b in pairs:
            x, y = f"s{a}", f"s{b}"
            want = 0 if x == y else -1 if n in (a, b) else _fewest_links(board, x, y)
            assert hops(board, x, y) == want == hops(board, y, x)
            assert len(board.hop_walks) <= kept
    finally:
        graph.KEPT_WALKS = old


def test_a_board_question_is_asked_once_a_space_for_every_walk_of_its_board() -> None:
    """A procedure that reads only the board (`passable`), passed to the walks, is asked of
    each space once per board, however many walks there are, and per given arguments."""
    board = _line(6)
    asked: list[tuple[str, str]] = []

    def open_to(state: object, side: str, s: str) -> bool:
        asked.append((side, s))
        return s != "s4"

    for start in ("s0", "s1", "s5"):
        assert spread(board, [start], 9, BoardQuestion(open_to, "a state", "A"), None) == \
            spread(board, [start], 9, lambda s: s != "s4", None)
    assert sorted(asked) == [("A", f"s{i}") for i in range(6)]
    spread(board, ["s0"], 9, BoardQuestion(open_to, "another state", "B"), None)
    assert len(asked) == 12                         # other given arguments: other answers
    assert len(board.kept_answers) == 2
    spread(_line(6), ["s0"], 9, BoardQuestion(open_to, "a state", "A"), None)
    assert len(asked) == 18                         # another board: asked again
    unhashable = BoardQuestion(lambda state, xs, s: True, None, [1])
    assert spread(board, ["s0"], 2, unhashable, None) == {"s0": 0, "s1": 1, "s2": 2}     # (asked as it walks)


def test_a_board_question_that_fails_where_no_walk_goes_is_asked_as_the_walk_goes() -> None:
    board = _line(6)

    def open_to(state: object, s: str) -> bool:
        if s == "s5":
            raise KeyError("no entry for s5")        # (a table a mod wrote for the spaces it walks)
        return True

    assert spread(board, ["s0"], 3, BoardQuestion(open_to, None), None) == {"s0": 0, "s1": 1, "s2": 2, "s3": 3}
    with pytest.raises(KeyError):                    # (a walk that reaches it fails as it did)
        spread(board, ["s0"], 9, BoardQuestion(open_to, None), None)
