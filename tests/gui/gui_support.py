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


# -- clicking the map ------------------------------------------------------------------------------
def click(win: Any, x: float, y: float, button: int | None = None) -> None:
    """A synthetic click (press and release) at a screen point, its events run."""
    from pyglet.window import mouse

    button = mouse.LEFT if button is None else button
    win.dispatch_event("on_mouse_press", int(x), int(y), button, 0)
    win.dispatch_event("on_mouse_release", int(x), int(y), button, 0)
    win.dispatch_events()


def counter_centre(win: Any, sid: str, owner: str, kind: str) -> tuple[int, int]:
    """The screen point in the middle of the counter of `owner`'s `kind` in `sid`."""
    ox, oy = win.map.offset
    for s, o, k, x, y, w, h in win.layer.counters:
        if (s, o, k) == (sid, owner, kind):
            return int(x + w / 2 + ox), int(y + h / 2 + oy)
    raise AssertionError(f"no counter of {owner} {kind} in {sid}: {[c[:3] for c in win.layer.counters if c[0] == sid]}")


def bare_point(win: Any, sid: str) -> tuple[int, int]:
    """A screen point inside hex `sid` on no counter (a click there takes the whole hex)."""
    cx, cy = win.map.screen(sid)
    size = win.map.size
    for fx, fy in ((-0.55, -0.2), (0.55, -0.2), (-0.6, 0.1), (0.6, 0.1), (0.0, -0.8), (-0.4, 0.45), (0.4, 0.45)):
        x, y = cx + fx * size, cy + fy * size
        if win.in_map(x, y) and win.map.space_at(x, y) == sid and win.counter_at(x, y) is None:
            return int(x), int(y)
    # a territory of a world map: the nearest such point round its label point
    around = sorted(((dx, dy) for dx in range(-60, 61, 3) for dy in range(-60, 61, 3)),
                    key=lambda d: d[0] * d[0] + d[1] * d[1])
    for dx, dy in around:
        x, y = int(cx + dx), int(cy + dy)
        if win.in_map(x, y) and win.map.space_at(x, y) == sid and win.counter_at(x, y) is None:
            return x, y
    raise AssertionError(f"no bare point in {sid} (is it in view?)")


def zoom_on(win: Any, sid: str, zoom: float = 3.0) -> None:
    """Zoom in on `sid` and centre it, counters big enough to click one by one."""
    draw(win)                 # first the events queued when the window was made (its resize refits)
    win.map.fit(win.map_area())
    win.map.zoom(zoom, win.map.screen(sid))
    win.map.centre_on(sid)
    win.refresh()
    draw(win)
