"""Run any attack, Monte Carlo or exact, and return one `Distribution` per outcome.

An attack is anything with `outcomes` (names, the main one first), `sample(rng,
trials)` and `exact(fractions=False)`. The engine knows no game.

Monte Carlo runs in fixed chunks of trials. Chunk i always draws from the stream
SeedSequence(seed, spawn_key=(i,)), so a seed gives the same histogram whatever the
number of threads, and memory stays bounded whatever the number of trials: only the
histograms grow, never with the trial count. The seed may be given the way numpy takes
one: an int, a `SeedSequence`, a `Generator` (a child stream is spawned from it) or
None (fresh entropy, recorded in the result).
"""

from __future__ import annotations

import dataclasses
import math
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol

import numpy as np

from .distribution import Distribution, dkw_bound
from .errors import InputError
from .pool import PoolRoll

CHUNK = 1 << 18  # trials per chunk: fits the working set in a core's cache
JOINT_LIMIT = 1 << 14  # pools with fewer joint values are counted in one pass
MAX_TRIALS = 10**12
VERIFY_ALPHA = 1e-3
METHODS = ("monte-carlo", "exact", "verify")

Sample = Mapping[str, np.ndarray] | PoolRoll
Progress = Callable[[int, int], None]


class Attack(Protocol):
    @property
    def outcomes(self) -> tuple[str, ...]: ...

    def sample(self, rng: np.random.Generator, trials: int) -> Sample: ...

    def exact(self, fractions: bool = False) -> Mapping[str, np.ndarray]: ...


@dataclass(frozen=True)
class Verification:
    """How far the sampled CDF is from the exact one, against the DKW bound."""

    gap: float
    bound: float
    alpha: float

    @property
    def within(self) -> bool:
        return self.gap <= self.bound


@dataclass(frozen=True)
class Result:
    """The distributions of an attack's outcomes (the main one first) and how they were made."""

    outcomes: dict[str, Distribution]
    method: str  # "monte-carlo" or "exact"
    trials: int | None
    seed: int | None
    verification: dict[str, Verification] | None = field(default=None)
    precision_reached: bool | None = None  # with a precision asked for: whether it was reached in the trials
    events: tuple[str, ...] = ()  # the outcomes that are yes/no events (read as probabilities)
    rationals: dict[str, tuple] | None = None  # with fractions: each outcome's exact pmf as Fractions

    @property
    def verified(self) -> bool:
        """False when a verified outcome's CDF gap is outside its bound."""
        return all(check.within for check in (self.verification or {}).values())

    @property
    def main(self) -> str:
        return next(iter(self.outcomes))

    def __getitem__(self, name: str) -> Distribution:
        return self.outcomes[name]


Seed = int | np.random.SeedSequence | np.random.Generator | None
MAX_SEED = 2**128 - 1


def stream(seed: int | np.random.SeedSequence, index: int) -> np.random.Generator:
    """Return the generator of chunk `index` for `seed`."""
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    child = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, index), pool_size=root.pool_size)
    return np.random.Generator(np.random.PCG64(child))


def fresh_seed() -> int:
    """A new seed from the operating system's entropy, short enough to type back."""
    return secrets.randbits(63)


def validate_seed(seed: Seed) -> None:
    """Refuse a seed numpy would not take: it is None, an int ≥ 0, a SeedSequence or a Generator."""
    if seed is None or isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        return
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise InputError("seed", seed, "expected a whole number from 0 to 2^128 - 1")


def check_seed(seed: Seed) -> int | np.random.SeedSequence:
    """Return the root of a run's streams: a whole-number seed (fresh when None) or a SeedSequence."""
    validate_seed(seed)
    if seed is None:
        return fresh_seed()
    if isinstance(seed, np.random.Generator):
        return seed.spawn(1)[0].bit_generator.seed_seq
    return seed if isinstance(seed, np.random.SeedSequence) else int(seed)


def recorded(seed: int | np.random.SeedSequence) -> int | None:
    """The seed a result records: the number that reproduces it, when there is one."""
    if isinstance(seed, np.random.SeedSequence):
        plain = not seed.spawn_key and isinstance(seed.entropy, int)
        return seed.entropy if plain else None
    return seed


def histograms(sample: Sample, outcomes: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Count how often each outcome value occurred in one chunk."""
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


def threads_default() -> int:
    return os.cpu_count() or 1


STOP = threading.Event()  # set when a run is interrupted: every sampling thread stops at its next chunk


class Stopped(Exception):
    """A run stopped because another part of it was interrupted."""


@contextmanager
def stopping_on_interrupt(pool: ThreadPoolExecutor):
    """On Ctrl-C (or any error) in the waiting thread, stop the pool's threads at their next chunk."""
    try:
        yield pool
    except BaseException:
        STOP.set()
        pool.shutdown(wait=True, cancel_futures=True)
        STOP.clear()
        raise


def _chunk(attack: Attack, seed: int | np.random.SeedSequence, index: int, size: int) -> dict[str, np.ndarray]:
    if STOP.is_set():
        raise Stopped
    return histograms(attack.sample(stream(seed, index), size), tuple(attack.outcomes))


def _sample(
    attack: Attack,
    seed: int | np.random.SeedSequence,
    start: int,
    trials: int,
    threads: int,
    progress: Progress | None,
    counts: dict[str, np.ndarray],
    done_before: int,
    total: int,
) -> None:
    """Add `trials` trials, chunks start, start+1, ..., to `counts`."""
    chunks = -(-trials // CHUNK)
    sizes = (min(CHUNK, trials - i * CHUNK) for i in range(chunks))  # lazily: 10^12 trials are 3.8M chunks
    done = done_before

    def report(size: int) -> None:
        nonlocal done
        done += size
        if progress:
            progress(done, total)

    threads = min(threads, threads_default())  # more threads than cores only add chunks in flight (memory)
    if threads <= 1 or chunks == 1:
        for i, size in enumerate(sizes):
            _add(counts, _chunk(attack, seed, start + i, size))
            report(size)
        return
    with ThreadPoolExecutor(max_workers=threads) as executor, stopping_on_interrupt(executor) as pool:
        window = 4 * threads  # chunks in flight: bounded memory for any trial count
        pending = []
        for i, size in enumerate(sizes):
            pending.append((size, pool.submit(_chunk, attack, seed, start + i, size)))
            if len(pending) >= window:
                size, future = pending.pop(0)
                _add(counts, future.result())
                report(size)
        for size, future in pending:
            _add(counts, future.result())
            report(size)


def check_threads(threads: int | None) -> int:
    """Every core by default; otherwise at least one thread."""
    if threads is None:
        return threads_default()
    if not isinstance(threads, (int, np.integer)) or not 1 <= threads <= 1024:
        raise InputError("threads", threads, "expected 1 or more threads (default: every core)")
    return int(threads)


def check_trials(trials: int) -> int:
    if not isinstance(trials, (int, np.integer)) or not 1 <= trials <= MAX_TRIALS:
        raise InputError("trials", trials, f"expected a whole number of trials from 1 to {MAX_TRIALS:.0e}")
    return int(trials)


def check_precision(precision: float | None) -> float | None:
    if precision is not None and not (isinstance(precision, (int, float)) and 1e-9 <= precision < math.inf):
        raise InputError("precision", precision, "expected a standard error from 1e-9 up, e.g. 0.01")
    return precision


def monte_carlo(
    attack: Attack,
    trials: int = 1_000_000,
    seed: Seed = None,
    precision: float | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Result:
    """Sample the attack; with `precision`, stop once the main mean's standard error ≤ it.

    When `trials` run out first, the result says so (`precision_reached` is False).
    """
    trials = check_trials(trials)
    root = check_seed(seed)
    threads = check_threads(threads)
    precision = check_precision(precision)
    outcomes = tuple(attack.outcomes)
    counts: dict[str, np.ndarray] = {}
    reached = None
    if precision is None:
        _sample(attack, root, 0, trials, threads, progress, counts, 0, trials)
        done = trials
    else:
        done, reached = 0, False
        batch = min(CHUNK, trials)
        while done < trials:
            _sample(attack, root, done // CHUNK, batch, threads, progress, counts, done, trials)
            done += batch
            distribution = Distribution.from_counts(counts[outcomes[0]])
            if distribution.mean_stderr <= precision:
                reached = True
                break
            needed = done * (distribution.mean_stderr / precision) ** 2 * 1.05 - done
            batch = min(max(CHUNK, -(-int(min(needed, 2 * MAX_TRIALS)) // CHUNK) * CHUNK), trials - done)
    return Result({name: Distribution.from_counts(counts[name]) for name in outcomes}, "monte-carlo", done,
                  recorded(root), precision_reached=reached, events=tuple(getattr(attack, "events", ())))


def exact(attack: Attack, fractions: bool = False) -> Result:
    """Compute the attack's distributions exactly: in floats, or as exact rationals with `fractions`."""
    pmfs = attack.exact(fractions=fractions)
    rationals = {name: tuple(pmfs[name]) for name in attack.outcomes} if fractions else None
    return Result({name: Distribution.from_pmf(pmfs[name]) for name in attack.outcomes}, "exact", None, None,
                  events=tuple(getattr(attack, "events", ())), rationals=rationals)


def verify(sampled: Result, computed: Result, alpha: float = VERIFY_ALPHA) -> dict[str, Verification]:
    """Compare each sampled outcome's CDF with the exact one, against the DKW bound."""
    return {
        name: Verification(sampled[name].cdf_gap(computed[name]), dkw_bound(sampled.trials, alpha), alpha)
        for name in sampled.outcomes
    }


def run(
    attack: Attack,
    trials: int = 1_000_000,
    seed: Seed = None,
    method: str = "monte-carlo",
    precision: float | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    fractions: bool = False,
) -> Result:
    """Run an attack by `method`: "monte-carlo", "exact", or "verify" (both, compared).

    Every argument is checked whatever the method (`trials=0` is refused with "exact" too).
    With `fractions`, the exact answer also carries exact rationals (`Result.rationals`).
    """
    if method not in METHODS:
        raise InputError("method", method, f"expected one of {', '.join(METHODS)}")
    check_trials(trials)
    check_threads(threads)
    check_precision(precision)
    validate_seed(seed)
    if fractions and method != "exact":
        raise InputError("fractions", "with --" + method, "exact rationals come with --exact only")
    if method == "exact":
        return exact(attack, fractions)
    computed = exact(attack) if method == "verify" else None  # first: an exact half too big is refused at once
    sampled = monte_carlo(attack, trials, seed, precision, threads, progress)
    if computed is not None:
        return dataclasses.replace(sampled, verification=verify(sampled, computed))
    return sampled
