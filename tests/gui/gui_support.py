"""Helpers for the window tests: whether a window can be made here at all, a hidden window's
config, drawing it and reading its pixels.

Nothing here imports pyglet at import time: importing `pyglet.window` already makes a hidden
window, which fails without GL/EGL, and the tests must be able to skip before that.
"""

from __future__ import annotations

import functools
import gc
import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("PYGLET_HEADLESS", "1")   # before pyglet is first imported


@functools.cache
def gl_problem() -> str:
    """Why no window can be drawn here ("" when one can): pyglet, GL/EGL or fonts missing."""
    try:
        import pyglet
    except Exception as e:  # noqa: BLE001 - ImportError, or a missing shared library
        return f"pyglet cannot be imported ({type(e).__name__}: {e}); pip install pyglet"
    try:
        import pyglet.window

        win = pyglet.window.Window(16, 16, visible=False, config=config())
        try:
            width = pyglet.text.Label("x", font_size=8).content_width
        finally:
            win.close()
        if width <= 0:
            return "no fonts to draw text with; install fonts-dejavu-core"
    except Exception as e:  # noqa: BLE001 - no EGL, no libGL, no fonts...
        problem = (f"no OpenGL window can be made here ({type(e).__name__}: {e}); "
                   "install libgl1 libegl1 libfontconfig1 fonts-dejavu-core")
        del e
        gc.collect()     # collect pyglet's half-made display now, not in the middle of a later import
        return problem
    return ""


def require_gl() -> None:
    """Skip the calling test module (at its top) when no window can be made."""
    problem = gl_problem()
    if problem:
        pytest.skip(f"window tests skipped: {problem}", allow_module_level=True)


def config() -> Any:
    """8 bits a channel: headless EGL defaults to 16-bit colour, which dithers."""
    import pyglet

    return pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, depth_size=24)


def draw(win: Any, path: Path | None = None) -> Any:
    """Draw `win` (running its queued events first) and return the colour buffer as
    ImageData, saved as a PNG at `path` if given. Read before flip(), as a frame would be."""
    import pyglet

    win.switch_to()
    win.dispatch_event("on_draw")
    win.dispatch_events()
    img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    if path is not None:
        img.save(str(path))
    return img


def pixel(img: Any, x: float, y: float) -> tuple[int, int, int]:
    data = img.get_data("RGBA", img.width * 4)
    i = (int(y) * img.width + int(x)) * 4
    return tuple(data[i:i + 3])  # type: ignore[return-value]
