"""Many attacks at once: each a cell with its own random stream, run on threads or Dask.

A cell's stream comes from the study's seed and the attack's stable key (its command and
the options off their defaults, `Attack.key`), so adding a row never changes another
row's numbers, adding a defaulted field to an attack changes no answer, and cells give
the same answers run in series, on threads, or on a Dask cluster.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence

import numpy as np

from . import engine
from .errors import InputError, require

MAX_CELLS = 10_000
DASK_TIMEOUT = "10s"  # how long to wait for a scheduler to answer


def cell_seed(seed: int, attack: Any) -> int:
    """The seed of one cell: a hash of the study's seed and the cell's stable key."""
    key = attack.key() if hasattr(attack, "key") else f"{type(attack).__module__}.{attack!r}"
    digest = hashlib.sha256(key.encode()).digest()
    words = np.frombuffer(digest, dtype=np.uint32)
    state = np.random.SeedSequence([seed, *words.tolist()]).generate_state(2, np.uint64)
    return int(state[0]) << 64 | int(state[1])


def run_cell(attack: Any, seed: int | None, trials: int, method: str, precision: float | None) -> engine.Result:
    """Run one cell on one thread, from its own stream (the unit of work a worker gets)."""
    cell = None if seed is None else cell_seed(seed, attack)
    return engine.run(attack, trials, cell, method, precision, threads=1)


def run_cells(
    attacks: Sequence[Any],
    *,
    trials: int = 100_000,
    seed: int | None = None,
    method: str = "monte-carlo",
    precision: float | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: engine.Progress | None = None,
) -> tuple[list[engine.Result], int | None]:
    """Run every cell; return the results in order and the seed used.

    Cells run on `workers` local threads (default: every core), or on the Dask cluster at
    `scheduler`. Exact cells always run in process. `progress(done, total)` is called
    as cells finish.
    """
    require(len(attacks) <= MAX_CELLS, "cells", len(attacks), f"expected at most {MAX_CELLS:,} cells")
    engine.check_trials(trials)
    workers = engine.check_threads(workers)
    seed = None if method == "exact" else study_seed(seed)
    arguments = [(attack, seed, trials, method, precision) for attack in attacks]
    if scheduler and method != "exact":
        return _run_on_dask(scheduler, arguments), seed
    return parallel_map(lambda args: run_cell(*args), arguments, workers, progress), seed


def outside_bounds(labels: Sequence[str], results: Sequence[engine.Result | None]) -> str | None:
    """One line naming the cells whose sampled CDF is outside its DKW bound (None when every one is within)."""
    outside = [label for label, result in zip(labels, results) if result is not None and not result.verified]
    if not outside:
        return None
    shown = ", ".join(outside[:8]) + (f" and {len(outside) - 8} more" if len(outside) > 8 else "")
    return f"verify: {len(outside)} of {len(labels)} cells outside the DKW bound: {shown}"


def study_seed(seed: engine.Seed) -> int:
    """A study's seed as one whole number (fresh when None), from which every cell's stream derives."""
    root = engine.check_seed(seed)
    if isinstance(root, int):
        return root
    state = root.generate_state(2, np.uint64)
    return int(state[0]) << 64 | int(state[1])


def parallel_map(function: Callable[[Any], Any], items: Sequence[Any], workers: int | None = None,
                 progress: engine.Progress | None = None) -> list[Any]:
    """Map over items on local threads (numpy releases the GIL), in order."""
    workers = engine.check_threads(workers)
    results = []
    if workers <= 1 or len(items) <= 1:
        for item in items:
            results.append(function(item))
            if progress:
                progress(len(results), len(items))
        return results
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(function, items):
            results.append(result)
            if progress:
                progress(len(results), len(items))
    return results


def _run_on_dask(address: str, arguments: list[tuple]) -> list[engine.Result]:
    try:
        from distributed import Client
    except ImportError:
        raise InputError("scheduler", address, "Dask is not installed: pip install 'oddscalc[dask]'") from None
    try:
        client = Client(address, timeout=DASK_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError("scheduler", address, f"no Dask scheduler answered there ({error})") from None
    with client:
        futures = client.map(run_cell, *zip(*arguments), pure=False)
        return client.gather(futures)
