"""Fixtures for the window tests: a headless pyglet (EGL + Mesa llvmpipe), the skirmish game
and hidden game windows.

PYGLET_HEADLESS must be set before pyglet is first imported, hence its place at the top.
Every test here is skipped, with the reason, when pyglet or the GL/EGL libraries or fonts
are missing.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGLET_HEADLESS", "1")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.path)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.gui)


@pytest.fixture(scope="session", autouse=True)
def gl_window_ok() -> None:
    """Skip every test in this folder when no window can be made (tried once)."""
    from gui_support import gl_problem

    problem = gl_problem()
    if problem:
        pytest.skip(f"window tests skipped: {problem}")


@pytest.fixture
def game(skirmish):  # type: ignore[no-untyped-def]
    """A fresh game of the skirmish test ruleset's `hill` scenario."""
    from engine.game import Game

    return Game(skirmish, "hill", seed=1)


@pytest.fixture
def make_window():  # type: ignore[no-untyped-def]
    """make_window(game, computer=None, saver=None, **kw) -> a hidden GameWindow that does not
    play the computer's turns by itself (autoplay=False) unless asked; closed after the test."""
    from gui_support import config

    from clients.gui import GameWindow

    made = []

    def make(game, computer=None, saver=None, width=1280, height=800, **kw):  # type: ignore[no-untyped-def]
        kw.setdefault("autoplay", False)
        win = GameWindow(game, computer, saver, width=width, height=height, visible=False,
                         config=config(), **kw)
        made.append(win)
        return win

    yield make
    for win in made:
        if not win.has_exit:
            win.close()


@pytest.fixture(scope="module")
def bulge_rs():  # type: ignore[no-untyped-def]
    """Battle of the Bulge, loaded once a test module."""
    from engine import plugins

    return plugins.load("bulge")


@pytest.fixture(scope="module")
def lhtr_rs():  # type: ignore[no-untyped-def]
    """LHTR, loaded once a test module."""
    from engine import plugins

    return plugins.load("lhtr")
