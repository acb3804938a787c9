"""`Distribution`: the value both the Monte Carlo and the exact path return.

It keeps its probabilities as a tuple of floats and reads its figures in plain Python (the mean
and variance as exactly rounded sums; P(≥ k) and P(≤ k) summed in order from either end, once):
an answer computed without arrays is read without numpy.
Its arrays (`pmf`, `cdf`, `at_least_all`, `outcomes`) are made when first asked for.
"""

from __future__ import annotations

import itertools
import math
from functools import cached_property
from typing import TYPE_CHECKING, Any, Sequence

from .record import record

if TYPE_CHECKING:
    import numpy as np


def interval(p: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a probability seen as a share `p` of `trials`
    trials; never seen, the one-sided bound (about 3/N); always seen, its mirror."""
    from scipy.stats import beta  # imported when a rare event is shown, not at start-up

    seen, tail = round(p * trials), (1 - confidence) / 2
    if seen == 0:  # one-sided: the chance that N trials all miss it is 1 − confidence (about 3/N)
        return 0.0, 1 - (1 - confidence) ** (1 / trials)
    if seen == trials:
        return (1 - confidence) ** (1 / trials), 1.0
    return float(beta.ppf(tail, seen, trials - seen + 1)), float(beta.ppf(1 - tail, seen + 1, trials - seen))


def _probabilities(pmf: Any) -> list[float]:
    """A pmf's values as floats (from an array, a tuple or a list; Fractions too)."""
    try:
        return [float(p) for p in (pmf.tolist() if hasattr(pmf, "tolist") else pmf)]  # tolist: an array's, at once
    except TypeError:  # nested (an array of 2 dimensions) or not a sequence (one of 0)
        raise ValueError("a pmf is a non-empty 1-D array") from None


BYTES_PER_VALUE = 112  # measured 104 with every figure read (tracemalloc): tests/test_distribution.py
OVERHEAD_BYTES = 1024  # the object and its cached figures' headers: measured 608 at 10 values


@record(eq=False, init=False)
class Distribution:
    """A probability mass function over the outcomes 0..k, and how it was made.

    `trials` is the number of Monte Carlo trials behind it, or None when it is exact.
    Standard errors are those of the Monte Carlo estimate (0 when exact).
    """

    probabilities: tuple[float, ...]  # P(0), P(1), ... P(highest): trailing zeros dropped
    trials: int | None

    def __init__(self, pmf: np.ndarray | Sequence[Any], trials: int | None = None) -> None:
        values = _probabilities(pmf)
        if not values:
            raise ValueError("a pmf is a non-empty 1-D array")
        if any(p < -1e-12 for p in values):
            raise ValueError("probabilities cannot be negative")
        values = [p if p > 0.0 else 0.0 for p in values]  # float round-off (1 - p as -2e-16) is not a probability
        while len(values) > 1 and values[-1] == 0.0:
            values.pop()
        object.__setattr__(self, "probabilities", tuple(values))
        object.__setattr__(self, "trials", trials)
        if trials is not None and trials < 1:
            raise ValueError("a sampled distribution needs at least one trial")

    @classmethod
    def from_counts(cls, counts: np.ndarray | Sequence[int]) -> Distribution:
        """Build from a histogram: counts[k] trials gave outcome k."""
        values = [int(c) for c in (counts.tolist() if hasattr(counts, "tolist") else counts)]
        trials = sum(values)
        return cls([c / trials for c in values], trials)

    @classmethod
    def from_samples(cls, samples: np.ndarray) -> Distribution:
        """Build from the outcomes of individual trials (non-negative integers)."""
        import numpy as np

        samples = np.asarray(samples)
        if samples.size and samples.min() < 0:
            raise ValueError("outcomes must be non-negative integers")
        return cls.from_counts(np.bincount(samples.astype(np.intp)))

    @classmethod
    def from_pmf(cls, pmf: np.ndarray | Sequence[Any]) -> Distribution:
        """Build an exact distribution (Fractions are converted to floats)."""
        return cls(pmf, None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.trials == other.trials and self.probabilities == other.probabilities

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"{self.trials} trials"
        return f"Distribution(mean={self.mean:.4g}, sd={self.sd:.4g}, max={self.highest}, {how})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as what makes it (not its arrays made on the way)
        return Distribution, (self.probabilities, self.trials)

    @cached_property
    def pmf(self) -> np.ndarray:
        """The probabilities as a read-only float array (index = outcome)."""
        import numpy as np

        values = np.array(self.probabilities, dtype=float)
        values.setflags(write=False)
        return values

    @property
    def exact(self) -> bool:
        return self.trials is None

    @property
    def nbytes(self) -> int:
        """About the memory it holds once every figure is read: three tuples of floats (the
        probabilities, the running sums from each end: 32 bytes a value each) and its array (8), with
        room to spare; a cache of answers counts this against its cap."""
        return OVERHEAD_BYTES + BYTES_PER_VALUE * len(self.probabilities)

    @property
    def highest(self) -> int:
        """The largest outcome with a non-zero probability."""
        return len(self.probabilities) - 1

    @property
    def outcomes(self) -> np.ndarray:
        import numpy as np

        return np.arange(len(self.probabilities))

    @cached_property
    def mean(self) -> float:
        return math.fsum(k * p for k, p in enumerate(self.probabilities))

    @cached_property
    def variance(self) -> float:
        mean = self.mean
        return max(math.fsum((k - mean) ** 2 * p for k, p in enumerate(self.probabilities)), 0.0)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def mean_stderr(self) -> float:
        """Standard error of the mean: sd/√trials (0 when exact)."""
        return 0.0 if self.trials is None else self.sd / math.sqrt(self.trials)

    def at_least(self, k: int) -> float:
        """P(outcome ≥ k): `tails[k]`, the figure the JSON and CSV formats list."""
        return 1.0 if k <= 0 else self.tails[k] if k < len(self.probabilities) else 0.0

    def at_most(self, k: int) -> float:
        """P(outcome ≤ k)."""
        return 0.0 if k < 0 else self._cumulative[min(k, self.highest)]

    def probability(self, k: int) -> float:
        """P(outcome = k)."""
        return self.probabilities[k] if 0 <= k < len(self.probabilities) else 0.0

    def stderr(self, p: float) -> float:
        """Standard error of an estimated probability p (0 when exact, or when p is 0 or 1)."""
        if self.trials is None or p <= 1e-12 or p >= 1 - 1e-12:
            return 0.0
        return math.sqrt(p * (1 - p) / self.trials)

    def interval(self, p: float, confidence: float = 0.95) -> tuple[float, float]:
        """The exact (Clopper-Pearson) interval of a probability seen as `p` in these trials: an
        honest range for a rare event (never seen in N trials: the one-sided bound, about 3/N).
        Exact: (p, p)."""
        return (p, p) if self.trials is None else interval(p, self.trials, confidence)

    def at_least_stderr(self, k: int) -> float:
        """Standard error of P(outcome ≥ k)."""
        return self.stderr(self.at_least(k))

    @cached_property
    def _cumulative(self) -> tuple[float, ...]:
        """P(outcome ≤ k) for k = 0..highest, summed in order (as numpy's cumsum), at most 1."""
        return tuple(min(total, 1.0) for total in itertools.accumulate(self.probabilities))

    @property
    def cdf(self) -> np.ndarray:
        """P(outcome ≤ k) for k = 0..highest."""
        import numpy as np

        return np.array(self._cumulative)

    @cached_property
    def tails(self) -> tuple[float, ...]:
        """P(outcome ≥ k) for k = 0..highest, summed from the top in order (as numpy's cumsum), at most 1."""
        return tuple([min(total, 1.0) for total in itertools.accumulate(reversed(self.probabilities))][::-1])

    @property
    def at_least_all(self) -> np.ndarray:
        """P(outcome ≥ k) for k = 0..highest, as an array (`tails`)."""
        import numpy as np

        return np.array(self.tails)

    def quantile(self, q: float) -> int:
        """The smallest k with P(outcome ≤ k) ≥ q."""
        if not 0 <= q <= 1:
            raise ValueError("q must be in [0, 1]")
        return next((k for k, total in enumerate(self._cumulative) if total >= q - 1e-12), self.highest)

    @property
    def median(self) -> int:
        return self.quantile(0.5)

    def cdf_gap(self, other: Distribution) -> float:
        """The largest absolute difference between the two CDFs."""
        mine, theirs = self.probabilities, other.probabilities
        size = max(len(mine), len(theirs))
        pairs = zip(itertools.accumulate(mine + (0.0,) * (size - len(mine))),
                    itertools.accumulate(theirs + (0.0,) * (size - len(theirs))))
        return max(abs(a - b) for a, b in pairs)


def dkw_bound(trials: int, alpha: float = 1e-3) -> float:
    """Dvoretzky–Kiefer–Wolfowitz: P(sup|F_n − F| > ε) ≤ α for this ε."""
    return math.sqrt(math.log(2 / alpha) / (2 * trials))
