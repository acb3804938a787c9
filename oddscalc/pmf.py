"""Exact probability-mass-function algebra for the exact twins.

A pmf is a 1-D array whose index is the outcome (0, 1, 2, ...). Every function works
on float arrays (fast, for answers) and on object arrays of `Fraction` (exact, for
tests): give it Fractions and it stays in Fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Iterable, Sequence

import numpy as np

Number = float | Fraction


def _exact(*values: object) -> bool:
    """Say whether any value is a Fraction or an array of them."""
    for value in values:
        if isinstance(value, Fraction):
            return True
        if isinstance(value, np.ndarray) and value.dtype == object:
            return True
    return False


def array(values: Iterable[Number]) -> np.ndarray:
    """Make a pmf array, keeping Fractions exact."""
    values = list(values)
    return np.array(values, dtype=object if _exact(*values) else float)


def zeros(size: int, like: object) -> np.ndarray:
    """Return `size` zeros in the number type of `like`."""
    if _exact(like):
        return np.array([Fraction(0)] * size, dtype=object)
    return np.zeros(size)


def point(value: int, like: object = 1.0) -> np.ndarray:
    """Return the pmf of a certain outcome `value`."""
    pmf = zeros(value + 1, like)
    pmf[value] = Fraction(1) if _exact(like) else 1.0
    return pmf


def binomial(n: int, p: Number) -> np.ndarray:
    """Return the pmf of the number of successes in `n` trials of chance `p`."""
    if isinstance(p, Fraction):
        q = 1 - p
        return array(math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))
    p = float(p)
    if p <= 0 or p >= 1:
        certain = np.zeros(n + 1)
        certain[n if p >= 1 else 0] = 1.0
        return certain
    k = np.arange(n + 1)
    steps = np.log(np.arange(n, 0, -1)) - np.log(np.arange(1, n + 1))  # log C(n, k) = Σ log((n-i+1)/i)
    log_comb = np.concatenate([[0.0], np.cumsum(steps)])
    return np.exp(log_comb + k * math.log(p) + (n - k) * math.log1p(-p))


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the pmf of the sum of two independent outcomes."""
    return np.convolve(a, b)


def power(pmf: np.ndarray, n: int) -> np.ndarray:
    """Return the pmf of the sum of `n` independent copies (repeated squaring)."""
    result = point(0, pmf)
    base = pmf
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def compound(count: np.ndarray, each: np.ndarray) -> np.ndarray:
    """Return the pmf of a sum of `N` independent copies of `each`, N ~ `count`."""
    pieces = []
    partial = point(0, each)
    for n, weight in enumerate(count):
        if n:
            partial = convolve(partial, each)
        pieces.append((weight, partial))
    return mixture(pieces)


def mixture(pieces: Sequence[tuple[Number, np.ndarray]]) -> np.ndarray:
    """Return Σ weight·pmf over pmfs of different lengths."""
    size = max(len(pmf) for _, pmf in pieces)
    total = zeros(size, pieces[0][1])
    for weight, pmf in pieces:
        if weight:
            total[: len(pmf)] += weight * pmf
    return total


def thin(pmf: np.ndarray, keep: Number) -> np.ndarray:
    """Return the pmf of how many of X items survive, each kept with chance `keep`."""
    return mixture([(weight, binomial(n, keep)) for n, weight in enumerate(pmf)])


def then(pmf: np.ndarray, stage: Callable[[int], np.ndarray]) -> np.ndarray:
    """Return the pmf of Y where Y given X = x has the pmf `stage(x)`."""
    return mixture([(weight, stage(x)) for x, weight in enumerate(pmf) if weight])


def transform(pmf: np.ndarray, function: Callable[[int], int]) -> np.ndarray:
    """Return the pmf of f(X) for a function to non-negative integers."""
    return mixture([(weight, point(function(x), pmf)) for x, weight in enumerate(pmf) if weight])


def scale(pmf: np.ndarray, factor: int) -> np.ndarray:
    """Return the pmf of factor·X."""
    return transform(pmf, lambda x: factor * x)


def at_least(pmf: np.ndarray) -> np.ndarray:
    """Return P(X ≥ k) for each k."""
    return np.cumsum(pmf[::-1])[::-1]


def mean(pmf: np.ndarray) -> Number:
    """Return the expected value."""
    return sum(k * p for k, p in enumerate(pmf))


def trim(pmf: np.ndarray) -> np.ndarray:
    """Drop trailing zero probabilities (keeping at least the 0 outcome)."""
    nonzero = np.flatnonzero(pmf != 0)
    return pmf[: (nonzero[-1] + 1 if nonzero.size else 1)]


def as_float(pmf: np.ndarray) -> np.ndarray:
    """Return a float copy of a pmf."""
    return np.asarray(pmf, dtype=float)


def convert(pmf: np.ndarray, number: Callable) -> np.ndarray:
    """Return the pmf in the number type `number` (float, or Fraction for exact rationals)."""
    if number is float:
        return as_float(pmf)
    if any(isinstance(value, (float, np.floating)) for value in pmf):
        raise TypeError("an exact pmf was computed in floats: pass every chance through `number`")
    return np.array([number(value) for value in pmf], dtype=object)
