"""`Distribution`: the value both the Monte Carlo and the exact path return."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def _frozen(values: np.ndarray) -> np.ndarray:
    values = np.array(values, dtype=float)
    values.setflags(write=False)
    return values


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


@dataclass(frozen=True, eq=False)
class Distribution:
    """A probability mass function over the outcomes 0..k, and how it was made.

    `trials` is the number of Monte Carlo trials behind it, or None when it is exact.
    Standard errors are those of the Monte Carlo estimate (0 when exact).
    """

    pmf: np.ndarray
    trials: int | None = None

    def __post_init__(self) -> None:
        pmf = np.asarray(self.pmf, dtype=float)
        if pmf.ndim != 1 or pmf.size == 0:
            raise ValueError("a pmf is a non-empty 1-D array")
        if (pmf < -1e-12).any():
            raise ValueError("probabilities cannot be negative")
        pmf = np.maximum(pmf, 0.0)  # float round-off (1 - p computed as -2e-16) is not a probability
        nonzero = np.flatnonzero(pmf)
        pmf = pmf[: nonzero[-1] + 1] if nonzero.size else pmf[:1]
        object.__setattr__(self, "pmf", _frozen(pmf))
        if self.trials is not None and self.trials < 1:
            raise ValueError("a sampled distribution needs at least one trial")

    @classmethod
    def from_counts(cls, counts: np.ndarray) -> Distribution:
        """Build from a histogram: counts[k] trials gave outcome k."""
        counts = np.asarray(counts)
        trials = int(counts.sum())
        return cls(counts / trials, trials)

    @classmethod
    def from_samples(cls, samples: np.ndarray) -> Distribution:
        """Build from the outcomes of individual trials (non-negative integers)."""
        samples = np.asarray(samples)
        if samples.size and samples.min() < 0:
            raise ValueError("outcomes must be non-negative integers")
        return cls.from_counts(np.bincount(samples.astype(np.intp)))

    @classmethod
    def from_pmf(cls, pmf: np.ndarray) -> Distribution:
        """Build an exact distribution (Fractions are converted to floats)."""
        return cls(np.asarray(pmf, dtype=float), None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.trials == other.trials and np.array_equal(self.pmf, other.pmf)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"{self.trials} trials"
        return f"Distribution(mean={self.mean:.4g}, sd={self.sd:.4g}, max={self.highest}, {how})"

    @property
    def exact(self) -> bool:
        return self.trials is None

    @property
    def highest(self) -> int:
        """The largest outcome with a non-zero probability."""
        return len(self.pmf) - 1

    @property
    def outcomes(self) -> np.ndarray:
        return np.arange(len(self.pmf))

    @property
    def mean(self) -> float:
        return float(self.outcomes @ self.pmf)

    @property
    def variance(self) -> float:
        return max(float((self.outcomes - self.mean) ** 2 @ self.pmf), 0.0)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def mean_stderr(self) -> float:
        """Standard error of the mean: sd/√trials (0 when exact)."""
        return 0.0 if self.trials is None else self.sd / math.sqrt(self.trials)

    def at_least(self, k: int) -> float:
        """P(outcome ≥ k)."""
        if k <= 0:
            return 1.0
        return float(self.pmf[k:].sum()) if k < len(self.pmf) else 0.0

    def at_most(self, k: int) -> float:
        """P(outcome ≤ k)."""
        if k < 0:
            return 0.0
        return float(self.pmf[: k + 1].sum())

    def probability(self, k: int) -> float:
        """P(outcome = k)."""
        return float(self.pmf[k]) if 0 <= k < len(self.pmf) else 0.0

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

    @property
    def cdf(self) -> np.ndarray:
        """P(outcome ≤ k) for k = 0..highest."""
        return np.asarray(np.minimum(np.cumsum(self.pmf), 1.0))

    @property
    def at_least_all(self) -> np.ndarray:
        """P(outcome ≥ k) for k = 0..highest."""
        return np.asarray(np.minimum(np.cumsum(self.pmf[::-1])[::-1], 1.0))

    def quantile(self, q: float) -> int:
        """The smallest k with P(outcome ≤ k) ≥ q."""
        if not 0 <= q <= 1:
            raise ValueError("q must be in [0, 1]")
        return min(int(np.searchsorted(self.cdf, q - 1e-12)), self.highest)

    @property
    def median(self) -> int:
        return self.quantile(0.5)

    def cdf_gap(self, other: Distribution) -> float:
        """The largest absolute difference between the two CDFs."""
        size = max(len(self.pmf), len(other.pmf))
        mine = np.cumsum(np.pad(self.pmf, (0, size - len(self.pmf))))
        theirs = np.cumsum(np.pad(other.pmf, (0, size - len(other.pmf))))
        return float(np.abs(mine - theirs).max())


def dkw_bound(trials: int, alpha: float = 1e-3) -> float:
    """Dvoretzky–Kiefer–Wolfowitz: P(sup|F_n − F| > ε) ≤ α for this ε."""
    return math.sqrt(math.log(2 / alpha) / (2 * trials))
