"""Where a simulation's games run: in this process, in a pool of local processes (every core
by default), or on a Dask distributed cluster. Each finished game's record is handed to
`done` as it comes, in whatever order the games finish; a game is a pure function of its
setup and seed, so where it ran changes nothing in it."""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from clients.simulate import SimulateError
from clients.simulate.games import Setup, play_game

#: one game to play: its setup, its seed, and which rules it tries ("tried" or "base")
Job = tuple[Setup, int, str]
Done = Callable[[dict[str, Any]], None]

#: seconds to wait for a cluster's scheduler to answer, and for it to have a worker
CLUSTER_TIMEOUT = 10.0

#: prctl's option: the signal a process gets when its parent dies (linux/prctl.h)
PR_SET_PDEATHSIG = 1


def local_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_here(jobs: Sequence[Job], done: Done) -> None:
    for setup, seed, rules in jobs:
        done(play_game(setup, seed, rules))


def run_local(jobs: Sequence[Job], workers: int, done: Done) -> None:
    """The games on `workers` processes (in this one for a single worker or game). A worker
    that dies (killed, out of memory) fails its game, which is recorded as failed."""
    workers = min(workers, len(jobs))
    if workers <= 1:
        run_here(jobs, done)
        return
    pool = ProcessPoolExecutor(workers, initializer=_worker_start)
    stopped = True
    try:
        # a few games queued ahead of each worker, not all of them: a stopped run cancels the rest at once
        pending: dict[Future[dict[str, Any]], Job] = {}
        queue = iter(jobs)
        gc.freeze()   # (the workers fork at the first game: their collector leaves the rules they share alone)
        try:
            for job in queue:
                pending[pool.submit(play_game, *job)] = job
                if len(pending) >= 2 * workers:
                    break
        finally:
            gc.unfreeze()
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                job = pending.pop(future)
                done(_record(future, job))
                nxt = next(queue, None)
                if nxt is not None:
                    pending[pool.submit(play_game, *nxt)] = nxt
        stopped = False
    finally:
        if stopped:       # interrupted: the games being played are given up, their workers ended
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(5)
        else:
            pool.shutdown(wait=True)


def _worker_start() -> None:
    """A pool's worker leaves Ctrl+C to the command, which ends the workers itself; and it
    ends when the command's process dies however it dies (killed outright too), not playing on
    alone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)      # not the command's handler, inherited by the fork
    _end_with_parent()


def _end_with_parent() -> None:
    """Linux: ask for SIGTERM when the process that started this one dies (prctl's
    PR_SET_PDEATHSIG); elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:           # it died before the request was made
        os._exit(1)


def _record(future: Any, job: Job) -> dict[str, Any]:
    """A finished game's record; a worker lost with its game gives a failed game's record."""
    try:
        record: dict[str, Any] = future.result()
        return record
    except Exception as e:  # noqa: BLE001
        setup, seed, rules = job
        return {"rules": rules, "seed": seed, "options": dict(setup.options), "players": dict(setup.players),
                "error": f"the worker playing it was lost: {type(e).__name__}: {e}", "turns": 0, "actions": 0,
                "seconds": 0.0, "curves": {}}


def start_hint(address: str) -> str:
    return (f"start a scheduler with `dask scheduler` and workers with `dask worker {address}` "
            f"(pip install 'wargame[cluster]' on every machine), or leave out --cluster to use this machine's cores")


def run_cluster(address: str, jobs: Sequence[Job], done: Done, timeout: float | None = None) -> None:
    """The games on the Dask cluster whose scheduler is at `address` (tcp://HOST:PORT); a
    scheduler that does not answer, or has no worker, within `timeout` seconds
    (CLUSTER_TIMEOUT) is said in one line."""
    timeout = CLUSTER_TIMEOUT if timeout is None else timeout
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise SimulateError("--cluster needs Dask: pip install 'wargame[cluster]'") from None
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)       # its own retries and warnings, said once below instead
    try:
        try:
            client = Client(address, timeout=timeout, set_as_default=True)
        except (OSError, TimeoutError) as e:
            why = f"waited {timeout:g} s" if "Timed out" in str(e) or isinstance(e, TimeoutError) else _short(e)
            raise SimulateError(f"no Dask scheduler answers at {address} ({why}): {start_hint(address)}") from None
        except (ValueError, TypeError) as e:
            raise SimulateError(f"--cluster {address}: not a scheduler's address ({_short(e)}); "
                                f"give tcp://HOST:PORT") from None
    finally:
        quiet.setLevel(level)
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            raise SimulateError(f"the Dask scheduler at {address} has no workers: start one with "
                                f"`dask worker {address}`") from None
        futures = client.map(play_game, [j[0] for j in jobs], [j[1] for j in jobs], [j[2] for j in jobs],
                             pure=False)
        job_of = {f.key: j for f, j in zip(futures, jobs)}
        try:
            for future in as_completed(futures):
                done(_record(future, job_of[future.key]))
        finally:
            unfinished = [f for f in futures if not f.done()]
            if unfinished:          # stopped: the games not yet played are taken off the cluster
                client.cancel(unfinished)
    finally:
        client.close()


def _short(e: BaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text if len(text) <= 120 else text[:117] + "..."
