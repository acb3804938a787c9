"""Work that is Python, not numpy, on every core: a map over worker processes (docs/architecture.md).

Threads share one interpreter, so an exact twin or a catalogue's import, which are Python through and through,
runs no faster on two of them (measured: a balance study's exact cells 38 s on one thread, 56 s on two). A
study hands such work to `in_processes`, which yields each item's answer in order as it comes. The workers are
forked from this process, so they start at once with everything it imported, and only from a process with no
other thread (a thread's locks would be copied held: a server's study runs in process instead; a `spawn`ed
worker would import the caller's script again, which a notebook or a plain script cannot take). They ignore
Ctrl-C, and are stopped by the caller when it is interrupted or fails, so that a stopped study leaves no worker
behind and prints one line, as every other study does.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterator, Sequence


def _quiet() -> None:
    """A worker leaves Ctrl-C to the study that started it (which stops it), and a stop ends it quietly (not
    through the command line's handlers, which it was forked with)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
        signal.signal(number, signal.SIG_DFL)


def in_processes(function: Callable[[Any], Any], items: Sequence[Any], workers: int) -> Iterator[Any]:
    """`function(item)` of each item, in order, on up to `workers` processes (in this one when one is enough).
    `function` and the items travel by pickle: a module's function, and plain data. Read it to its end (a
    generator left before its end stops its workers)."""
    workers = min(workers, len(items))
    if workers <= 1 or threading.active_count() > 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(function, items)
        return
    context = multiprocessing.get_context("fork")
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_quiet)
    try:
        yield from executor.map(function, items)
    except BaseException:
        for process in list(getattr(executor, "_processes", {}).values()):  # a worker busy with a long item
            process.kill()  # (SIGKILL: one forked a moment ago may not have run `_quiet` yet, and a SIGTERM then
            # went to the command line's handler it was forked with, which printed a traceback of the worker)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
