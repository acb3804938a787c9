"""Exact probability-mass-function algebra for the exact twins.

A pmf is a 1-D array whose index is the outcome (0, 1, 2, ...). Every function works
on float arrays (fast, for answers) and on object arrays of `Fraction` (exact, for
tests): give it Fractions and it stays in Fractions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from .lazy import numpy as np

from . import terms

Number = float | Fraction
NumberType = Callable[[Any], Any]  # float or Fraction: the kind of number a pmf holds (called on a value)


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
    """Return the pmf of the number of successes in `n` trials of chance `p` (floats are shared:
    read-only); the terms are `terms.binomial`'s."""
    if isinstance(p, Fraction):
        return array(terms.binomial(n, p))
    return _float_binomial(int(n), float(p))


@lru_cache(maxsize=4096)
def _float_binomial(n: int, p: float) -> np.ndarray:
    pmf = np.array(terms.binomial(n, p))
    pmf.setflags(write=False)
    return pmf


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the pmf of the sum of two independent outcomes."""
    return np.convolve(a, b)


def power(pmf: np.ndarray, n: int) -> np.ndarray:
    """Return the pmf of the sum of `n` independent copies (repeated squaring: `terms.power`)."""
    return terms.power(pmf, n, convolve, point(0, pmf))


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


NEGLIGIBLE = 1e-18  # float weights below this share of the largest add less than 1e-15 to any answer


def weighty(pmf: np.ndarray) -> list[tuple[int, Number]]:
    """The (value, weight) pairs that matter: all non-zero ones of an exact pmf; of a float pmf,
    those above NEGLIGIBLE of the largest (a 2,000-dice pool has hundreds, not thousands)."""
    if not _exact(pmf) and len(pmf):
        floor = NEGLIGIBLE * float(np.max(pmf))
        return [(int(x), weight) for x in np.flatnonzero(pmf > floor) for weight in (pmf[x],)]
    return [(x, weight) for x, weight in enumerate(pmf) if weight]


def thin(pmf: np.ndarray, keep: Number) -> np.ndarray:
    """Return the pmf of how many of X items survive, each kept with chance `keep`."""
    if not _exact(pmf, keep):
        return _float_thin(np.asarray(pmf, dtype=float), float(keep))
    return mixture([(weight, binomial(n, keep)) for n, weight in weighty(pmf)] or [(1, point(0, pmf))])


def _float_thin(pmf: np.ndarray, keep: float) -> np.ndarray:
    """`thin` in floats: the weighty rows of the binomial table at once."""
    if keep >= 1 or not len(pmf):
        return pmf.copy() if len(pmf) else point(0)
    if keep <= 0:
        return np.asarray(point(0, 1.0) * pmf.sum())
    ns = np.flatnonzero(pmf > NEGLIGIBLE * pmf.max())
    size = ns[-1] + 1 if len(ns) else 1
    rows = _binomial_table(_SHARED_TABLE, keep)[ns, :size] if size <= _SHARED_TABLE else _binomial_rows(ns, size, keep)
    return np.asarray(pmf[ns] @ rows)


_SHARED_TABLE = 64  # pools up to this size read one shared binomial table per chance


@lru_cache(maxsize=256)
def _binomial_table(size: int, keep: float) -> np.ndarray:
    """B[n, k] = P(Binomial(n, keep) = k) for n, k < size (read-only, shared)."""
    table = _binomial_rows(np.arange(size), size, keep)
    table.setflags(write=False)
    return table


def _binomial_rows(ns: np.ndarray, size: int, keep: float) -> np.ndarray:
    """The rows `ns` of the binomial table of chance `keep`, `size` columns."""
    rows = np.zeros((len(ns), size))
    for row, n in enumerate(ns):
        rows[row, :n + 1] = _float_binomial(int(n), keep)
    return rows


def then(pmf: np.ndarray, stage: Callable[[int], np.ndarray]) -> np.ndarray:
    """Return the pmf of Y where Y given X = x has the pmf `stage(x)`."""
    return mixture([(weight, stage(x)) for x, weight in weighty(pmf)])


def transform(pmf: np.ndarray, function: Callable[[int], int]) -> np.ndarray:
    """Return the pmf of f(X) for a function to non-negative integers."""
    if not _exact(pmf):  # floats: one pass, every value at once
        values = np.array([function(x) for x in range(len(pmf))], dtype=np.intp)
        return np.bincount(values, weights=np.asarray(pmf, dtype=float), minlength=1)
    return array(terms.transform(pmf, function))


def scale(pmf: np.ndarray, factor: int) -> np.ndarray:
    """Return the pmf of factor·X."""
    return transform(pmf, lambda x: factor * x)


def at_least(pmf: np.ndarray) -> np.ndarray:
    """Return P(X ≥ k) for each k."""
    return np.cumsum(pmf[::-1])[::-1]


def mean(pmf: np.ndarray) -> Number:
    """Return the expected value."""
    total: Number = sum(k * p for k, p in enumerate(pmf))
    return total


def trim(pmf: np.ndarray) -> np.ndarray:
    """Drop trailing zero probabilities (keeping at least the 0 outcome)."""
    pmf = np.asarray(pmf) if not isinstance(pmf, np.ndarray) else pmf
    nonzero = np.flatnonzero(pmf != 0)
    return pmf[: (nonzero[-1] + 1 if nonzero.size else 1)]
