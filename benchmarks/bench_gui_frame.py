"""How fast the window draws the Battle of the Bulge (or another ruleset's map), and what an
idle window costs.

    PYGLET_HEADLESS=1 python benchmarks/bench_gui_frame.py          # EGL, software rendering
    xvfb-run -a python benchmarks/bench_gui_frame.py                 # the same under an X server
    python benchmarks/bench_gui_frame.py --compare                   # also the old 60 Hz redraw timer
    python benchmarks/bench_gui_frame.py --ruleset lhtr              # the world map (Axis & Allies)
    python benchmarks/bench_gui_frame.py --ruleset lhtr --direct     # ... drawing every polygon each frame

Prints the time to draw one full frame of the opening position (the map's shapes already
built, as every frame but the first after a change), the time to build the map and draw
(after a move or a zoom), and the CPU the process uses while the window sits idle in the
event loop for 3 seconds. Each idle measurement runs in a process of its own (pyglet's
event loop runs once a process). A world map keeps a picture of itself, copied to each frame
while nothing on the map changes; `--direct` draws its polygons every frame instead.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).absolute().parent.parent
sys.path.insert(0, str(ROOT))
if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("PYGLET_HEADLESS", "1")


def make_window(ruleset: str, width: int, height: int):  # type: ignore[no-untyped-def]
    import pyglet

    from clients import seats
    from clients.gui import GameWindow
    from engine import plugins
    from engine.game import Game

    rs = plugins.load(ruleset)
    game = Game(rs, None, seed=1)
    config = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, double_buffer=True)
    return GameWindow(game, seats.assign(rs, []), None, width=width, height=height, config=config,
                      visible=not os.environ.get("PYGLET_HEADLESS"), autoplay=False)


def frame_times(ruleset: str, width: int, height: int, n: int, direct: bool = False) -> None:
    import pyglet

    win = make_window(ruleset, width, height)
    if direct and hasattr(win.map, "cache"):
        win.map.cache = False
    win.switch_to()
    win.dispatch_events()

    cpu: list[float] = []

    def frame() -> float:
        t, c = time.perf_counter(), time.process_time()
        win.on_draw()
        pyglet.gl.glFinish()
        cpu.append((time.process_time() - c) * 1000)
        return (time.perf_counter() - t) * 1000

    frame()
    cpu.clear()
    cached = [frame() for _ in range(n)]
    cached_cpu = list(cpu)
    moved, zoomed = [], []
    for _ in range(max(3, n // 5)):
        win.refresh()                 # as after an action: the panel, the hexes' colours, the counters
        moved.append(frame())
        win.layer = None              # as after a zoom: every shape of the map
        zoomed.append(frame())
    renderer = pyglet.gl.gl_info.get_renderer()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    kind = "hexes" if type(win.map).__name__ == "MapView" else "spaces (a world map)"
    print(f"renderer: {renderer}; window {width}x{height}; {len(win.game.state.board)} {kind}, "
          f"{len(win.layer.counters)} counters; load average {load:.1f} on {os.cpu_count()} cores")
    print(f"full frame, shapes built:     median {statistics.median(cached):6.2f} ms, "
          f"max {max(cached):6.2f} ms  ({n} frames; CPU time of the process, rendering threads "
          f"included: median {statistics.median(cached_cpu):6.2f} ms)")
    print(f"after an action (rebuild panel and counters, draw): median {statistics.median(moved):6.2f} ms")
    print(f"after a zoom (rebuild every map shape, draw):       median {statistics.median(zoomed):6.2f} ms")
    win.close()


def idle_cpu(ruleset: str, width: int, height: int, seconds: float, interval: float | None) -> None:
    """Run the event loop with the window idle; print the CPU % over `seconds`."""
    import pyglet

    from clients import gui

    win = make_window(ruleset, width, height)
    marks: dict[str, float] = {}

    def start(dt: float) -> None:
        marks["cpu"], marks["wall"], marks["frames"] = time.process_time(), time.perf_counter(), win.frames

    def stop(dt: float) -> None:
        cpu, wall = time.process_time() - marks["cpu"], time.perf_counter() - marks["wall"]
        frames = win.frames - marks["frames"]
        how = "redraw only on change (the window)" if interval is None else f"redraw timer every {interval:.4f} s"
        print(f"idle for {wall:.1f} s, {how}: CPU {100 * cpu / wall:5.1f} %, {frames:.0f} frames drawn")
        win.close()
        pyglet.app.exit()

    pyglet.clock.schedule_once(start, 0.5)
    pyglet.clock.schedule_once(stop, 0.5 + seconds)
    if interval is None:
        gui.run_event_loop()
    else:
        pyglet.app.run(interval)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ruleset", default="bulge")
    p.add_argument("--width", type=int, default=1400)
    p.add_argument("--height", type=int, default=880)
    p.add_argument("--frames", type=int, default=40)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--compare", action="store_true", help="also measure a 60 Hz redraw timer, as before")
    p.add_argument("--direct", action="store_true", help="a world map: draw every polygon each frame (no picture)")
    p.add_argument("--idle-only", choices=["window", "timer"], help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.idle_only:
        idle_cpu(args.ruleset, args.width, args.height, args.seconds, None if args.idle_only == "window" else 1 / 60)
        return 0
    frame_times(args.ruleset, args.width, args.height, args.frames, args.direct)
    sys.stdout.flush()
    modes = ["window"] + (["timer"] if args.compare else [])
    for mode in modes:
        subprocess.run([sys.executable, __file__, "--idle-only", mode, "--ruleset", args.ruleset,
                        "--width", str(args.width), "--height", str(args.height), "--seconds", str(args.seconds)],
                       check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
