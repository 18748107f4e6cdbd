"""Fixtures for the window tests: a headless pyglet (EGL + Mesa), the skirmish game, and a
helper that draws a window and returns its pixels.

The whole folder is skipped, with the reason, when pyglet or the GL/EGL libraries are
missing. PYGLET_HEADLESS must be set before pyglet is first imported, hence its place here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("PYGLET_HEADLESS", "1")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "tests" / "rulesets" / "skirmish"
sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    import pyglet  # noqa: E402
except Exception as e:  # noqa: BLE001 - ImportError, or a missing shared library
    pyglet = None
    _PYGLET_PROBLEM = f"pyglet cannot be imported: {e}"
else:
    _PYGLET_PROBLEM = ""

_SOURCE: dict[str, str] = {}


def _gl_problem() -> str:
    if pyglet is None:
        return _PYGLET_PROBLEM
    try:
        cfg = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, depth_size=24)
        win = pyglet.window.Window(16, 16, visible=False, config=cfg)
        pyglet.text.Label("x", font_size=8).content_width  # noqa: B018 - fonts installed?
        win.close()
    except Exception as e:  # noqa: BLE001 - no EGL, no libGL, no fonts...
        return f"no OpenGL window possible here ({type(e).__name__}: {e}); " \
               "install libgl1 libegl1 libfontconfig1 fonts-dejavu-core"
    return ""


_PROBLEM = _gl_problem() if pyglet is not None else _PYGLET_PROBLEM


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(here):
            item.add_marker(pytest.mark.gui)
            if _PROBLEM:
                item.add_marker(pytest.mark.skip(reason=f"window tests skipped: {_PROBLEM}"))


def load_skirmish():  # type: ignore[no-untyped-def]
    """The skirmish ruleset: the real one when its rules compile, else the Python stand-in."""
    from engine import plugins

    try:
        rs = plugins.load(str(SKIRMISH))
        _SOURCE["skirmish"] = "real rules"
    except Exception as e:  # noqa: BLE001 - the rules language may be unfinished
        from fake_skirmish import load_fake

        rs = load_fake()
        _SOURCE["skirmish"] = f"stand-in (plugins.load failed: {type(e).__name__}: {e})"
    return rs


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"gui: {'skipped — ' + _PROBLEM if _PROBLEM else 'headless pyglet ' + pyglet.version}"]
    return lines


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    if "skirmish" in _SOURCE:
        terminalreporter.write_line(f"gui tests played skirmish with: {_SOURCE['skirmish']}")


@pytest.fixture(scope="session")
def skirmish_rs():  # type: ignore[no-untyped-def]
    return load_skirmish()


@pytest.fixture
def game(skirmish_rs):  # type: ignore[no-untyped-def]
    from engine.game import Game

    return Game(skirmish_rs, "hill", seed=1)


@pytest.fixture
def make_window():  # type: ignore[no-untyped-def]
    """make_window(game, computer=None, saver=None, **kw) -> a hidden GameWindow, closed after
    the test."""
    from clients.gui import GameWindow

    made = []

    def make(game, computer=None, saver=None, width=1280, height=800, **kw):  # type: ignore[no-untyped-def]
        cfg = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, depth_size=24)
        kw.setdefault("autoplay", False)
        win = GameWindow(game, computer, saver, width=width, height=height, visible=False, config=cfg, **kw)
        made.append(win)
        return win

    yield make
    for win in made:
        try:
            win.close()
        except Exception:  # noqa: BLE001 - already closed
            pass


def draw(win, path: Path | None = None):  # type: ignore[no-untyped-def]
    """Draw `win` (running any queued events) and return its colour buffer as ImageData,
    saving it as a PNG at `path` if given."""
    win.switch_to()
    win.dispatch_event("on_draw")
    win.dispatch_events()
    img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    if path is not None:
        img.save(str(path))
    return img


def pixel(img, x: int, y: int) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    data = img.get_data("RGBA", img.width * 4)
    i = (int(y) * img.width + int(x)) * 4
    return tuple(data[i:i + 3])
