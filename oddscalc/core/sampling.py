"""Monte Carlo: an attack sampled in fixed chunks of trials, counted into histograms.

Chunk i always draws from the stream SeedSequence(seed, spawn_key=(i,)), so a seed gives the
same histogram whatever the number of threads, and memory stays bounded whatever the number
of trials: only the histograms grow, never with the trial count. The seed may be given the
way numpy takes one: an int, a `SeedSequence`, a `Generator` (a child stream is spawned from
it) or None (fresh entropy, recorded in the result).

`engine.run` and `engine.monte_carlo` are the doors to it; this module (and numpy) is imported when
a run samples, never for an exact answer.
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .distribution import Distribution
from .options import MAX_TRIALS, Cancel, Method, RunOptions, Seed
from .drawn import Drawn
from .pool import PoolRoll
from .result import Attack, Progress, Result

if TYPE_CHECKING:
    from collections.abc import Iterator
    from concurrent.futures import ThreadPoolExecutor

    from .result import Sample

CHUNK = 1 << 18  # trials per chunk: fits the working set in a core's cache
JOINT_LIMIT = 1 << 14  # pools with fewer joint values are counted in one pass


def stream(seed: int | np.random.SeedSequence, index: int) -> np.random.Generator:
    """Return the generator of chunk `index` for `seed`."""
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    child = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, index), pool_size=root.pool_size)
    return np.random.Generator(np.random.PCG64(child))


def fresh_seed() -> int:
    """A new seed from the operating system's entropy, short enough to type back."""
    import secrets

    return secrets.randbits(63)


def check_seed(seed: Seed) -> int | np.random.SeedSequence:
    """Return the root of a run's streams: a whole-number seed (fresh when None) or a SeedSequence."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, np.random.Generator):
        child = seed.spawn(1)[0].bit_generator.seed_seq
        assert isinstance(child, np.random.SeedSequence)  # a spawned Generator's is always one
        return child
    return seed if isinstance(seed, np.random.SeedSequence) else int(seed)


def recorded(seed: int | np.random.SeedSequence) -> int | None:
    """The seed a result records: the number that reproduces it, when there is one."""
    if isinstance(seed, np.random.SeedSequence):
        entropy = seed.entropy
        return entropy if not seed.spawn_key and isinstance(entropy, int) else None
    return seed


def histograms(sample: Sample, outcomes: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Count how often each outcome value occurred in one chunk."""
    if isinstance(sample, Drawn):
        return sample.counts(outcomes)
    if isinstance(sample, PoolRoll) and math.prod(sample.radices) > JOINT_LIMIT:
        return {name: np.bincount(sample.total(name).astype(np.intp, copy=False)) for name in outcomes}
    if isinstance(sample, PoolRoll):
        codes = sample.codes if sample.codes.dtype != np.uint64 else sample.codes.astype(np.intp)
        joint = np.bincount(codes, minlength=math.prod(sample.radices))
        joint = joint.reshape(sample.radices[::-1])
        axes = range(len(sample.radices))
        counts = {}
        for i, name in enumerate(sample.fields):
            keep = len(sample.radices) - 1 - i
            counts[name] = joint.sum(axis=tuple(a for a in axes if a != keep))
        return {name: counts[name] for name in outcomes}
    return {name: np.bincount(np.asarray(sample[name]).astype(np.intp, copy=False)) for name in outcomes}


def _add(total: dict[str, np.ndarray], part: dict[str, np.ndarray]) -> None:
    for name, counts in part.items():
        have = total.get(name)
        if have is None:
            total[name] = counts.astype(np.int64)
            continue
        if len(counts) > len(have):
            have = np.pad(have, (0, len(counts) - len(have)))
        have[: len(counts)] += counts
        total[name] = have


@contextmanager
def stopping_on_interrupt(pool: ThreadPoolExecutor, cancel: Cancel) -> Iterator[ThreadPoolExecutor]:
    """On Ctrl-C (or any error) in the waiting thread, cancel this run: its threads stop at their next chunk."""
    try:
        yield pool
    except BaseException:
        cancel.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        raise


def _chunk(attack: Attack, seed: int | np.random.SeedSequence, index: int, size: int,
           cancel: Cancel) -> dict[str, np.ndarray]:
    cancel.check()
    return histograms(attack.sample(stream(seed, index), size), tuple(attack.outcomes))


@dataclass
class _Sampling:
    """One Monte Carlo run in progress: its attack, streams, settings and counts so far."""

    attack: Attack
    root: int | np.random.SeedSequence
    options: RunOptions
    cancel: Cancel
    progress: Progress | None
    counts: dict[str, np.ndarray] = field(default_factory=dict)
    done: int = 0
    started: float = field(default_factory=time.monotonic)

    def add(self, trials: int) -> None:
        """Add `trials` trials: chunks done // CHUNK, and on (`done` is a whole number of chunks)."""
        start, chunks = self.done // CHUNK, -(-trials // CHUNK)
        sizes = (min(CHUNK, trials - i * CHUNK) for i in range(chunks))  # lazily: 10^12 trials are 3.8M chunks
        threads = self.options.cores  # more threads than cores only add chunks in flight (memory)
        if threads <= 1 or chunks == 1:
            for i, size in enumerate(sizes):
                self._count(size, _chunk(self.attack, self.root, start + i, size, self.cancel))
            return
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=threads) as executor, \
                stopping_on_interrupt(executor, self.cancel) as pool:
            window = 4 * threads  # chunks in flight: bounded memory for any trial count
            pending = []
            for i, size in enumerate(sizes):
                pending.append((size, pool.submit(_chunk, self.attack, self.root, start + i, size, self.cancel)))
                if len(pending) >= window:
                    size, future = pending.pop(0)
                    self._count(size, future.result())
            for size, future in pending:
                self._count(size, future.result())

    def _count(self, size: int, counts: dict[str, np.ndarray]) -> None:
        _add(self.counts, counts)
        self.done += size
        if self.progress:
            self.progress(self.done, self.options.trials)
        options = self.options
        if options.seconds is not None and options.precision is None and self.done < options.trials:
            elapsed = time.monotonic() - self.started  # projected once a thirtieth of the allowance is spent
            if elapsed >= options.seconds / 30:
                options.past_seconds(f"{options.trials:,}", elapsed * options.trials / self.done,
                                     f"{self.done:,} trials", elapsed)


def sample(attack: Attack, options: RunOptions, progress: Progress | None = None) -> Result:
    """Sample the attack as `options` say (`engine.monte_carlo` is the door to this)."""
    trials, precision = options.trials, options.precision
    sampling = _Sampling(attack, check_seed(options.seed), options, options.cancel or Cancel(), progress)
    outcomes = tuple(attack.outcomes)
    reached = None
    if precision is None:
        sampling.add(trials)
    else:
        reached, batch = False, min(CHUNK, trials)
        while sampling.done < trials:
            sampling.add(batch)
            distribution = Distribution.from_counts(sampling.counts[outcomes[0]])
            if distribution.mean_stderr <= precision:
                reached = True
                break
            done = sampling.done
            needed = done * (distribution.mean_stderr / precision) ** 2 * 1.05 - done
            batch = min(max(CHUNK, -(-int(min(needed, 2 * MAX_TRIALS)) // CHUNK) * CHUNK), trials - done)
    counts = sampling.counts
    return Result({name: Distribution.from_counts(counts[name]) for name in outcomes}, Method.MONTE_CARLO, sampling.done,
                  recorded(sampling.root), precision_reached=reached, events=tuple(getattr(attack, "events", ())))
