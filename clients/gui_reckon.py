"""Work worked out away from the window: one job at a time in a forked process, so that a
battle's odds, which may take a second of CPU, never freeze the window's drawing or input.

`Reckoner.ask(job)` starts `job()` in a child process (forked: the child has the ruleset and
the game already, nothing is pickled but the answer); a job asked while another runs replaces
it (the older is stopped: its answer would be stale). `poll()` gives the answer once it is
there. Where processes are not forked (but on Linux), the job runs in a thread instead: the
window still draws between its slices of time. No pyglet here.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

Job = Callable[[], Any]


def _child(job: Job, conn: Any) -> None:
    try:
        conn.send(("ok", job()))
    except BaseException as e:  # noqa: BLE001 - any failure is told to the window as one line
        if os.environ.get("WARGAME_DEBUG"):
            traceback.print_exc()
        conn.send(("error", str(e) or type(e).__name__))
    finally:
        conn.close()


class Reckoner:
    """One job at a time, away from the caller's thread (see the module's docstring)."""

    def __init__(self) -> None:
        self._ctx: Any = None
        if sys.platform.startswith("linux"):     # (macOS forbids a forked child its GUI frameworks)
            self._ctx = multiprocessing.get_context("fork")
        self._proc: Any = None
        self._conn: Any = None
        self._thread_box: list[tuple[str, Any]] | None = None
        self.asked = 0          # jobs asked, and answered (for a caller that waits on one)
        self.answered = 0

    @property
    def busy(self) -> bool:
        return self.asked != self.answered

    def ask(self, job: Job) -> None:
        """Start `job`, stopping the one still running."""
        self.stop()
        self.asked += 1
        if self._ctx is not None:
            parent, child = self._ctx.Pipe(duplex=False)
            self._proc = self._ctx.Process(target=_child, args=(job, child), daemon=True)
            self._proc.start()
            child.close()
            self._conn = parent
            return
        box: list[tuple[str, Any]] = []
        self._thread_box = box

        def run() -> None:
            try:
                box.append(("ok", job()))
            except Exception as e:  # noqa: BLE001
                box.append(("error", str(e) or type(e).__name__))

        threading.Thread(target=run, daemon=True).start()

    def poll(self) -> tuple[str, Any] | None:
        """("ok", answer) or ("error", words) once the job is done; None while it runs or
        when nothing was asked."""
        if self._conn is not None:
            try:
                if not self._conn.poll():
                    if self._proc is not None and not self._proc.is_alive() and not self._conn.poll():
                        self._finish()
                        return ("error", "the calculation stopped without an answer")
                    return None
                got = self._conn.recv()
            except (EOFError, OSError):
                got = ("error", "the calculation stopped without an answer")
            self._finish()
            return tuple(got)  # type: ignore[return-value]
        if self._thread_box:
            got = self._thread_box[0]
            self._thread_box = None
            self.answered = self.asked
            return got
        return None

    def wait(self, timeout: float = 30.0) -> tuple[str, Any] | None:
        """The answer, waiting for it at most `timeout` seconds (for tests and scripts)."""
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.poll()
            if got is not None:
                return got
            if not self.busy:
                return None
            if self._conn is not None:
                self._conn.poll(0.05)
            else:
                time.sleep(0.02)
        return None

    def _finish(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        if self._proc is not None:
            self._proc.join(timeout=1)
        self._proc = None
        self.answered = self.asked

    def stop(self) -> None:
        """Stop the job running, if any (its answer is not wanted)."""
        if self._proc is not None and self._proc.is_alive():
            self._proc.kill()
            self._proc.join(timeout=1)
        if self._conn is not None:
            self._conn.close()
        self._proc, self._conn, self._thread_box = None, None, None
        self.answered = self.asked
