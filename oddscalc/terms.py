"""Pmfs as tuples of Python numbers (index = outcome), for exact answers that need no arrays:
an answer built from these alone imports no numpy, so a small query answers in a fresh process
as soon as Python can (issue: the first answer as fast as icepool's). `pmf` makes arrays of the
same terms for the array algebra; the engine and `Distribution` read either.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any


def binomial(n: int, p: float | Fraction) -> tuple[float, ...] | tuple[Fraction, ...]:
    """The terms P(k successes in `n` trials of chance `p`), k = 0..n: Fractions for a Fraction,
    else floats multiplied out from the mode by the ratios of neighbours and scaled to sum 1
    (relative error about n·2e-16, where log-gamma formulas lose n·log(n)·2e-16)."""
    if isinstance(p, Fraction):  # integer weights over one denominator: C(n,k)·a^k·b^(n-k) / d^n
        a, b, total = p.numerator, p.denominator - p.numerator, p.denominator**n  # 1 - a/d is (d - a)/d
        return tuple(Fraction(math.comb(n, k) * a**k * b ** (n - k), total) for k in range(n + 1))
    return _float_binomial(n, float(p))


def _float_binomial(n: int, p: float) -> tuple[float, ...]:
    terms = [0.0] * (n + 1)
    if p <= 0 or p >= 1:
        terms[n if p >= 1 else 0] = 1.0
        return tuple(terms)
    mode, odds = min(int((n + 1) * p), n), p / (1 - p)
    terms[mode] = value = 1.0
    for k in range(mode, n):  # above the mode: P(k + 1) / P(k) = (n - k) / (k + 1) · p / q
        value *= (n - k) / (k + 1) * odds
        terms[k + 1] = value
    value = 1.0
    for k in range(mode, 0, -1):  # below it: P(k - 1) / P(k) = k / (n - k + 1) · q / p
        value *= k / (n - k + 1) / odds
        terms[k - 1] = value
    total = math.fsum(terms)
    return tuple(term / total for term in terms)


def in_floats(pmf: Any) -> Any:
    """A pmf in floats: a tuple's (or list's) terms as a tuple of floats; an array of the pmf
    algebra as a float array (the array's own method: no numpy imported here)."""
    if isinstance(pmf, (tuple, list)):
        return tuple(float(p) for p in pmf)
    return pmf.astype(float, copy=False)
