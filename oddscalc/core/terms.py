"""Pmfs as tuples of Python numbers (index = outcome), for exact answers that need no arrays:
an answer built from these alone imports no numpy, so a small query answers in a fresh process
as soon as Python can (issue: the first answer as fast as icepool's). Here: a binomial's terms,
the integer weights of summed and of kept (maximised, minimised) dice, a total's modifier and
a function of an outcome. `pmf` and `totals` make arrays of the same terms for the array algebra;
the engine and `Distribution` read either.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


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


def convolve(a: Sequence[Any], b: Sequence[Any]) -> list[Any]:
    """The weights of the sum of two independent totals, from their weights (integers, or a pmf's terms)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def power(base: T, n: int, convolve: Callable[[T, T], T], one: T) -> T:
    """The sum of `n` independent copies of `base` by repeated squaring, for any kind of pmf and its
    `convolve` (`one`: the pmf of a certain 0)."""
    result = one
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def sum_weights(count: int, sides: int) -> tuple[int, ...]:
    """How many of the sides**count face sequences of `count` dice give each total (index = total)."""
    weights: list[int] = power([0] + [1] * sides, count, convolve, [1])
    return tuple(weights)


def keep_weights(dice: int, sides: int = 6, extra: int = 0) -> tuple[int, ...]:
    """The number of face sequences (of sides**(dice + |extra|)) giving each kept total, exactly.

    extra > 0 keeps the highest (maximised), extra < 0 the lowest (minimised).
    Dynamic programme over face values from the favoured end: how many dice show each
    face, weighted by the binomial count, and how many of them are kept.
    """
    total_dice = dice + abs(extra)
    faces = range(sides, 0, -1) if extra >= 0 else range(1, sides + 1)
    ways = {(0, 0): 1}  # (dice placed so far, kept total) → number of face sequences
    for face in faces:
        grown: dict[tuple[int, int], int] = {}
        for (placed, kept_total), count in ways.items():
            for showing in range(total_dice - placed + 1):
                kept = min(showing, max(dice - placed, 0))
                key = (placed + showing, kept_total + kept * face)
                grown[key] = grown.get(key, 0) + count * math.comb(total_dice - placed, showing)
        ways = grown
    weights = [0] * (dice * sides + 1)
    for (placed, kept_total), count in ways.items():
        if placed == total_dice:
            weights[kept_total] += count
    return tuple(weights)


def shifted(pmf: Sequence[Any] | np.ndarray, modifier: int) -> Any:
    """The pmf of max(X + modifier, 0): a total below 0 counts as 0 (without a modifier, `pmf` itself)."""
    if not modifier:
        return pmf
    terms = tuple(pmf)
    if modifier >= 0:
        return (terms[0] * 0,) * modifier + terms  # the number type's zero
    cut = -modifier + 1
    return (sum(terms[1:cut], terms[0]),) + terms[cut:]


def transform(pmf: Sequence[Any] | np.ndarray, function: Callable[[int], int]) -> tuple[Any, ...]:
    """The pmf of f(X), for a function to non-negative integers (each weight added where it lands, in order)."""
    weighty = [(x, weight) for x, weight in enumerate(pmf) if weight]
    out = [pmf[0] * 0] * (max((function(x) for x, _ in weighty), default=0) + 1)
    for x, weight in weighty:
        out[function(x)] += weight
    return tuple(out)


# --- what an exact total costs ----------------------------------------------------------

_WEIGHT_RATE = 2e6  # (state, choice) steps per second by keep_weights (measured)


def exact_seconds(dice: int, sides: int, extra: int, fractions: bool) -> float:
    """Estimated seconds of an exact kept or summed roll: a cost model fitted to measured times
    (`python -m oddscalc.bench` prints both), 1.5 times on the safe side."""
    total, drop = dice + abs(extra), abs(extra)
    if not extra:  # the largest convolutions dominate: about size² float or integer products
        size = dice * sides
        return size * size / (2e7 if fractions else 5e9)
    if fractions:
        return sides * total * total * dice * sides / 4 / _WEIGHT_RATE
    if enumerable(total, sides):
        return math.comb(total + sides - 1, sides - 1) * 2.5e-6  # building the table (measured 1.6 to 2.2 µs a row)
    # keep_probabilities, per face v: the weights (about 2e-5 s per dropped die), Horner's steps
    # (2.4e-6 s each, dice of them) and their products on the transform (1.7e-9 s each)
    products = sum(dice * fft_size(dice * (sides - v) + 1) / 2 for v in range(1, sides))
    return 1.5 * (sides * drop * 2.1e-5 + sides * dice * 2.4e-6 + products * 1.7e-9)


ENUMERATE = 500_000  # pools whose face multisets fill fewer cells than this are counted one multiset at a time


def enumerable(total: int, sides: int) -> bool:
    """Whether the table of every multiset (one row of `sides` counts each) is small."""
    return math.comb(total + sides - 1, sides - 1) * sides <= ENUMERATE


def fft_size(length: int) -> int:
    """The power of two at or above `length` (no wrap-around in the circular convolution)."""
    return 1 << (length - 1).bit_length()
