"""Many attacks at once: each a cell with its own random stream, run on threads or Dask.

A cell's stream comes from the study's seed and the attack's stable key (its command and
the options off their defaults, `Attack.key`), so adding a row never changes another
row's numbers, adding a defaulted field to an attack changes no answer, and cells give
the same answers run in series, on threads, or on a Dask cluster.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ..core import engine, sampling
from ..core.options import SCHEDULER_TIMEOUT, Cancel, Cancelled, Method, RunOptions, Seed
from ..errors import InputError, require
from ..core.record import record

MAX_CELLS = 10_000
DASK_TIMEOUT = SCHEDULER_TIMEOUT
POLL = 0.5  # seconds between looks at a Dask run (and at Ctrl-C)


def cell_seed(seed: int, attack: Any) -> int:
    """The seed of one cell: a hash of the study's seed and the cell's stable key."""
    key = attack.key() if hasattr(attack, "key") else f"{type(attack).__module__}.{attack!r}"
    digest = hashlib.sha256(key.encode()).digest()
    words = np.frombuffer(digest, dtype=np.uint32)
    state = np.random.SeedSequence([seed, *words.tolist()]).generate_state(2, np.uint64)
    return int(state[0]) << 64 | int(state[1])


def run_cell(attack: Any, seed: int | None, options: RunOptions) -> engine.Result:
    """Run one cell on one thread, from its own stream (the unit of work a worker gets)."""
    cell = None if seed is None else cell_seed(seed, attack)
    return engine.run(attack, options=options.replace(seed=cell, threads=1))


class _ClusterCancel(Cancel):
    """A cell's `Cancel` on a Dask worker: set once the run's `distributed.Event` of this name is set (the
    client sets it when the run stops), looked at no more than once every POLL seconds. A running task
    cannot be taken from a worker; this stops it at its next chunk, so that no next run waits behind it."""

    __slots__ = ("_name", "_looked")

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name, self._looked = name, 0.0

    @property
    def cancelled(self) -> bool:
        import time

        if not super().cancelled and time.monotonic() - self._looked >= POLL:
            self._looked = time.monotonic()
            with contextlib.suppress(Exception):  # no scheduler to ask: the cell runs on, as it would
                from distributed import Event

                if Event(self._name).is_set():
                    self.cancel()
        return super().cancelled

    def check(self) -> None:
        if self.cancelled:
            raise Cancelled


def run_cell_on_cluster(attack: Any, seed: int | None, options: RunOptions, stop: str) -> engine.Result:
    """Run one cell on a Dask worker: `run_cell`, stopped when the run's Event named `stop` is set."""
    return run_cell(attack, seed, options.replace(cancel=_ClusterCancel(stop)))


def run_batch_on_cluster(attacks: list[Any], seed: int | None, options: RunOptions, stop: str) -> list[engine.Result]:
    """Run a batch of cells on a Dask worker, one after another (each from its own stream, as anywhere): a
    task of several cells, so that scheduling it and shipping its seed and options are paid once."""
    reuse_freed_memory()
    stopped = options.replace(cancel=_ClusterCancel(stop))
    return [run_cell(attack, seed, stopped) for attack in attacks]


@functools.cache
def reuse_freed_memory() -> None:
    """Let this process reuse the memory it frees, as a Python process does by default (glibc only; once).

    A Dask worker starts with MALLOC_TRIM_THRESHOLD_=65536 (so that its memory reads true), which also
    makes glibc map every allocation over 128 KiB afresh: a cell's arrays of trials are then zeroed page
    by page each time, and a cell runs 3 to 4 times slower than in process (measured: 400 cells, 2.4 s
    against 0.65 s). Raising the thresholds again gives the in-process speed back."""
    import ctypes
    import ctypes.util

    with contextlib.suppress(OSError, AttributeError, TypeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, 64 << 20)  # M_MMAP_THRESHOLD: arrays under 64 MiB come from the heap
        libc.mallopt(-1, 256 << 20)  # M_TRIM_THRESHOLD: freed memory is kept until 256 MiB of it


TASKS_PER_WORKER = 4  # a study's cells go to the cluster in this many tasks per worker: few enough that the
# scheduler's cost per task is paid rarely, enough that a slow task or a lost worker leaves the others work


def batches(items: Sequence[Any], workers: int) -> list[list[Any]]:
    """`items` in order, cut into at most TASKS_PER_WORKER × `workers` batches of (nearly) equal size."""
    count = max(1, min(len(items), TASKS_PER_WORKER * max(workers, 1)))
    size, extra = divmod(len(items), count)
    cuts = [i * size + min(i, extra) for i in range(count + 1)]
    return [list(items[cuts[i]:cuts[i + 1]]) for i in range(count)]


def run_cells(attacks: Sequence[Any], *, options: RunOptions | None = None, scheduler: str | Cluster | None = None,
              progress: engine.Progress | None = None, refused: list[str | None] | None = None,
              **settings: Any) -> tuple[list[Any], int | None]:
    """Run every cell; return the results in order and the seed used.

    `options` (or its fields as keywords, see `RunOptions`) say how; each cell runs on one
    thread, `threads` cells at once (default: every core), or on the Dask cluster at
    `scheduler` (an address, or a `Cluster` with its timeout). Exact cells always run in
    process. `progress(done, total)` is called as cells finish. With `refused` (a list), a cell
    whose exact answer is refused as too costly (an `InputError` of `exact`, said before any work)
    gives None, and `refused` gets its line at that cell's place (None for the others): the rest
    are answered.
    """
    options = RunOptions.of(options, **settings)
    require(len(attacks) <= MAX_CELLS, "cells", len(attacks), f"expected at most {MAX_CELLS:,} cells")
    options.afford(len(attacks))
    seed = None if options.method == Method.EXACT else study_seed(options.seed)
    if scheduler is not None and seed is not None:  # exact cells run in process
        cluster = scheduler if isinstance(scheduler, Cluster) else Cluster(scheduler)
        shipped = options.replace(seed=None, cancel=None)  # a Cancel stays here: the waiting thread watches it
        return _run_on_dask(cluster.address, attacks, seed, shipped, cluster.timeout, options.cancel), seed
    cancel = options.cancel or Cancel()  # every cell's, so that Ctrl-C stops them all
    options = options.replace(cancel=cancel)
    if seed is None and options.threads is None:  # an exact twin is Python, which two threads only share
        options = options.replace(threads=1)  # (measured: every Epic catalogue's study, 38 s on one, 56 s on two)
    if refused is None:
        return parallel_map(lambda attack: run_cell(attack, seed, options), attacks, options, progress), seed

    def answered(attack: Any) -> Any:
        try:
            return run_cell(attack, seed, options)
        except InputError as error:
            if error.name != "exact":
                raise
            return error.allowed

    found = parallel_map(answered, attacks, options, progress)
    refused[:] = [found_one if isinstance(found_one, str) else None for found_one in found]
    return [None if isinstance(found_one, str) else found_one for found_one in found], seed


def outside_bounds(labels: Sequence[str], results: Sequence[engine.Result | None]) -> str | None:
    """One line naming the cells whose sampled CDF is outside its DKW bound (None when every one is within)."""
    outside = [label for label, result in zip(labels, results) if result is not None and not result.verified]
    if not outside:
        return None
    shown = ", ".join(outside[:8]) + (f" and {len(outside) - 8} more" if len(outside) > 8 else "")
    return f"verify: {len(outside)} of {len(labels)} cells outside the DKW bound: {shown}"


def study_seed(seed: Seed) -> int:
    """A study's seed as one whole number (fresh when None), from which every cell's stream derives."""
    root = sampling.check_seed(seed)  # a seed RunOptions accepted
    if isinstance(root, int):
        return root
    state = root.generate_state(2, np.uint64)
    return int(state[0]) << 64 | int(state[1])


def parallel_map(function: Callable[[Any], Any], items: Sequence[Any], options: RunOptions,
                 progress: engine.Progress | None = None) -> list[Any]:
    """Map over items on `options.threads` local threads (numpy releases the GIL), in order;
    Ctrl-C in the waiting thread cancels `options.cancel` (every item's run)."""
    results = []
    workers = options.cores
    cancel = options.cancel or Cancel()
    if workers <= 1 or len(items) <= 1:  # one after another (an exact study's cells): each starts if not cancelled
        started, times = time.monotonic(), []
        for item in items:
            cancel.check()
            begun = time.monotonic()
            results.append(function(item))
            times.append(time.monotonic() - begun)
            if progress:
                progress(len(results), len(items))
            if options.seconds is not None and len(results) < len(items):
                afford_seconds(options, times, len(items), time.monotonic() - started)
        return results
    with ThreadPoolExecutor(max_workers=workers) as executor, sampling.stopping_on_interrupt(executor, cancel) as pool:
        for result in pool.map(function, items):
            results.append(result)
            if progress:
                progress(len(results), len(items))
    return results


def afford_seconds(options: RunOptions, times: Sequence[float], cells: int, elapsed: float) -> None:
    """Refuse a study whose cells, one after another, would take longer than `options.seconds`: projected
    once the cells done (`times`, each one's seconds) have taken a thirtieth of the allowance, each cell
    left taking as long as the last one or the mean, whichever is longer, and growing as they have grown
    from the first to the last (a sweep's cells grow costlier as its value grows)."""
    from ..output.style import plural

    allowed, done = options.seconds, len(times)
    if allowed is None or elapsed < allowed / 30:
        return
    left = cells - done
    growth = max(0.0, (times[-1] - times[0]) / (done - 1)) if done > 1 else 0.0
    projected = elapsed + left * max(times[-1], elapsed / done) + growth * left * (left + 1) / 2
    options.past_seconds(f"{cells:,} cells", projected, plural(done, "cell"), elapsed)


@record
class Cluster:
    """A Dask scheduler to run cells on, and how long to wait for it (or its workers) before giving up."""

    address: str
    timeout: float = DASK_TIMEOUT

    def __post_init__(self) -> None:
        require(isinstance(self.timeout, (int, float)) and 0 < self.timeout <= 3600, "scheduler_timeout",
                self.timeout, "expected seconds, above 0 and at most 3600")


# tcp://HOST:PORT: a host name, an IPv4 address or a bracketed IPv6 one, the port optional;
# inproc:// for a cluster in this process (tls:// and ucx:// need set-up that is not carried here)
_ADDRESS = re.compile(r"^(?:tcp://(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])"
                      r"(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9][0-9]|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?|"
                      r"inproc://[^\s]{1,200})$")


def _unfinished(client: Any, futures: list[Any], wait: Callable[..., Any]) -> bool:
    """Wait a little for the futures; say whether some are still running."""
    with client.as_current():
        try:
            return bool(wait(futures, timeout=POLL, return_when="ALL_COMPLETED").not_done)
        except TimeoutError:
            return True


def _alive() -> bool:
    """Run on the scheduler: its answer says it is still there."""
    return True


@dataclass
class _Session:
    """What the thread that talks to the cluster shares with the one that waits for it."""

    answered: float  # time.monotonic() of the scheduler's last answer
    stop: Any  # threading.Event: Ctrl-C or SIGTERM in the main thread: cancel the cells and leave
    outcome: Any  # queue.Queue of ("results", list) or ("error", exception)


def _run_on_dask(address: str, attacks: Sequence[Any], seed: int, options: RunOptions, timeout: float,
                 cancel: Cancel | None) -> list[engine.Result]:
    """Run the cells on a Dask cluster; fail fast and in one line when it cannot or stops answering.

    The connection and the first worker must come within `timeout` seconds; the cluster
    re-runs the cells of a lost worker on the others; when every worker or the scheduler
    is gone, or the scheduler is silent (stopped, or beyond a broken network), for `timeout`
    seconds, the run stops with one line. A thread talks to the cluster (a silent scheduler
    can block any call); this one waits for it, and on Ctrl-C, or when `cancel` is set, asks
    it to cancel the cells.
    """
    import queue
    import threading

    require(bool(_ADDRESS.match(address)), "scheduler", address[:80] or "''",
            "expected a scheduler address like tcp://host:8786")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError("scheduler", address, "Dask is not installed: pip install 'oddscalc[dask]'") from None
    session = _Session(time.monotonic(), threading.Event(), queue.Queue())
    thread = threading.Thread(target=_talk, args=(address, (list(attacks), seed, options), timeout, session), daemon=True)
    thread.start()
    try:
        while True:
            try:
                kind, value = session.outcome.get(timeout=POLL)
            except queue.Empty:
                if cancel is not None and cancel.cancelled:
                    raise Cancelled
                if time.monotonic() - session.answered > timeout + POLL:  # its own waits are `timeout` long
                    session.stop.set()  # the thread is stuck in a call: leave it (a daemon) and say so
                    raise InputError("scheduler", address, f"the scheduler was silent for {timeout:g} s (stopped, "
                                                           "or out of reach)") from None
                continue
            if kind == "results":
                return list(value)
            raise value
    finally:
        if not session.stop.is_set():  # Ctrl-C or SIGTERM: the thread cancels the cells left, then closes
            session.stop.set()
            thread.join(timeout=2 * POLL)


def _talk(address: str, arguments: tuple[list[Any], int, RunOptions], timeout: float, session: _Session) -> None:
    """The thread that talks to the cluster: every answer it gets counts as the scheduler's."""
    import time

    import uuid

    from distributed import Client, Event, wait

    quiet = {name: logging.getLogger(name) for name in ["distributed", *logging.root.manager.loggerDict]
             if name.split(".")[0] in ("distributed", "tornado")}
    levels = {name: logger.level for name, logger in quiet.items()}
    for logger in quiet.values():  # one line of ours, not the cluster's logs and tracebacks
        logger.setLevel(logging.CRITICAL + 1)

    def answered() -> None:
        session.answered = time.monotonic()

    client = None
    try:
        try:
            client = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except Exception as error:  # refused, timed out, a protocol not installed (ucx) or not set up (tls)
            raise InputError("scheduler", address, f"no Dask scheduler answered there within {timeout:g} s "
                                                   f"({type(error).__name__})") from None
        answered()
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise InputError("scheduler", address, f"no Dask worker joined within {timeout:g} s") from None
        answered()
        stop = f"oddscalc-stop-{uuid.uuid4().hex}"
        attacks, seed, options = arguments
        tasks = batches(attacks, len(client.scheduler_info().get("workers", {})))
        futures = [client.submit(run_batch_on_cluster, batch, seed, options, stop, pure=False) for batch in tasks]
        alone = 0.0  # seconds without a worker or a scheduler
        while _unfinished(client, futures, wait):
            if session.stop.is_set():  # nothing left computing on the cluster for the next run to wait behind:
                Event(stop, client=client).set()  # the cells running stop at their next chunk,
                client.cancel(futures)  # the others never start
                return
            client.run_on_scheduler(_alive)  # blocks while the scheduler is silent: the waiting thread sees it
            answered()
            if client.status != "running" or not client.scheduler_info().get("workers"):
                alone += POLL
                if alone >= timeout:
                    raise InputError("scheduler", address, f"lost every worker or the scheduler for {timeout:g} s")
            else:
                alone = 0.0
        session.outcome.put(("results", [result for batch in client.gather(futures) for result in batch]))
    except InputError as error:
        session.outcome.put(("error", error))
    except Exception as error:  # the scheduler went (a closed connection, a cancelled future, ...)
        session.outcome.put(("error", InputError("scheduler", address, f"the scheduler stopped answering "
                                                                       f"({type(error).__name__})")))
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=2)
        for name, level in levels.items():
            quiet[name].setLevel(level)
