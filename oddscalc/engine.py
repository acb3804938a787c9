"""Run any attack, Monte Carlo or exact, and return one `Distribution` per outcome.

An attack is anything with `outcomes` (names, the main one first), `sample(rng,
trials)` and `exact(fractions=False)`. The engine knows no game.

Monte Carlo runs in fixed chunks of trials. Chunk i always draws from the stream
SeedSequence(seed, spawn_key=(i,)), so a seed gives the same histogram whatever the
number of threads, and memory stays bounded whatever the number of trials: only the
histograms grow, never with the trial count. The seed may be given the way numpy takes
one: an int, a `SeedSequence`, a `Generator` (a child stream is spawned from it) or
None (fresh entropy, recorded in the result).

How to run comes as one `options.RunOptions` value, checked when it is made; its
`Cancel` stops that run alone (from another thread, or on Ctrl-C in the waiting one).
"""

from __future__ import annotations

import dataclasses
import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

import numpy as np

from .distribution import Distribution, dkw_bound
from .options import MAX_TRIALS, Cancel, Method, RunOptions, Seed
from .pool import PoolRoll

if TYPE_CHECKING:
    from collections.abc import Iterator
    from concurrent.futures import ThreadPoolExecutor
    from fractions import Fraction

CHUNK = 1 << 18  # trials per chunk: fits the working set in a core's cache
JOINT_LIMIT = 1 << 14  # pools with fewer joint values are counted in one pass
VERIFY_ALPHA = 1e-3

Sample = Mapping[str, np.ndarray] | PoolRoll
Progress = Callable[[int, int], None]


class Attack(Protocol):
    @property
    def outcomes(self) -> tuple[str, ...]: ...

    def sample(self, rng: np.random.Generator, trials: int) -> Sample: ...

    def exact(self, fractions: bool = False) -> Mapping[str, Any]: ...  # float arrays, or tuples of Fractions


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
    method: Method  # Method.MONTE_CARLO or Method.EXACT
    trials: int | None
    seed: int | None
    verification: dict[str, Verification] | None = field(default=None)
    precision_reached: bool | None = None  # with a precision asked for: whether it was reached in the trials
    events: tuple[str, ...] = ()  # the outcomes that are yes/no events (read as probabilities)
    rationals: dict[str, tuple[Fraction, ...]] | None = None  # with fractions: each outcome's exact pmf as Fractions

    @property
    def verified(self) -> bool:
        """False when a verified outcome's CDF gap is outside its bound."""
        return all(check.within for check in (self.verification or {}).values())

    @property
    def main(self) -> str:
        return next(iter(self.outcomes))

    def __getitem__(self, name: str) -> Distribution:
        return self.outcomes[name]


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


def monte_carlo(attack: Attack, *, options: RunOptions | None = None, progress: Progress | None = None,
                **settings: Any) -> Result:
    """Sample the attack; with a `precision`, stop once the main mean's standard error ≤ it.

    `options` (or its fields as keywords, see `RunOptions`) say how. When the trials run
    out before the precision is reached, the result says so (`precision_reached` is False).
    """
    options = RunOptions.of(options, **settings)
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


def exact(attack: Attack, fractions: bool = False) -> Result:
    """Compute the attack's distributions exactly: in floats, or as exact rationals with `fractions`."""
    pmfs = attack.exact(fractions=fractions)
    rationals = {name: tuple(pmfs[name]) for name in attack.outcomes} if fractions else None
    return Result({name: Distribution.from_pmf(pmfs[name]) for name in attack.outcomes}, Method.EXACT, None, None,
                  events=tuple(getattr(attack, "events", ())), rationals=rationals)


def verify(sampled: Result, computed: Result, alpha: float = VERIFY_ALPHA) -> dict[str, Verification]:
    """Compare each sampled outcome's CDF with the exact one, against the DKW bound."""
    trials = sampled.trials
    assert trials is not None, "a sampled result counts its trials"
    return {
        name: Verification(sampled[name].cdf_gap(computed[name]), dkw_bound(trials, alpha), alpha)
        for name in sampled.outcomes
    }


def run(attack: Attack, *, options: RunOptions | None = None, progress: Progress | None = None,
        **settings: Any) -> Result:
    """Run an attack as `options` say (or its fields as keywords: `trials`, `seed`, `method`,
    `precision`, `threads`, `fractions`, `cancel`; see `RunOptions`).

    The method is "monte-carlo", "exact", or "verify" (both, compared). Every setting is
    checked whatever the method (`trials=0` is refused with "exact" too). With `fractions`,
    the exact answer also carries exact rationals (`Result.rationals`). A cancelled run
    raises `Cancelled`.
    """
    options = RunOptions.of(options, **settings)
    if options.method == Method.EXACT:
        return exact(attack, options.fractions)
    computed = exact(attack) if options.method == Method.VERIFY else None  # first: an exact half too big is refused at once
    sampled = monte_carlo(attack, options=options, progress=progress)
    if computed is not None:
        return dataclasses.replace(sampled, verification=verify(sampled, computed))
    return sampled
