"""The totals of dice (docs/rules.md §3.1): the exact pmfs of kept (maximised, minimised) and
summed rolls, what computing one costs, and the dice samplers roll for them.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from . import pool
    from .pool import Die
else:
    from .lazy import numpy as np
    from .lazy import Deferred

    pool = Deferred("oddscalc.core.pool")  # the sampler's: imported when dice are rolled

from . import pmf as pmfs
from . import terms
from .terms import enumerable, fft_size


NEGLIGIBLE = 1e-21  # a term W(v, c) left out of a kept total's pmf: at most 20,100 of them (100 faces × 201 counts
# of the 200 dice kept) move no chance by more than 2e-17, less than the transforms' own rounding (1e-17 or so)


@lru_cache(maxsize=32)
def _multisets(total: int, sides: int) -> tuple[np.ndarray, np.ndarray]:
    """Every multiset of `total` faces of 1..sides, as counts per face (rows), and its chance."""
    # stars and bars: sides - 1 bars among total + sides - 1 places
    bars = np.array(list(itertools.combinations(range(total + sides - 1), sides - 1)), dtype=np.int64)
    bars = bars.reshape(math.comb(total + sides - 1, sides - 1), sides - 1)
    edges = np.concatenate([np.full((len(bars), 1), -1), bars, np.full((len(bars), 1), total + sides - 1)], axis=1)
    counts = np.diff(edges, axis=1) - 1
    logs = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, total + 1)))])
    chances = np.exp(logs[total] - logs[counts].sum(axis=1) - total * math.log(sides))
    return counts, chances


@lru_cache(maxsize=64)
def _enumerated(dice: int, sides: int, extra: int) -> tuple[np.ndarray, np.ndarray]:
    """The kept total of every multiset of faces, and its chance (for small pools: the quickest way)."""
    counts, chances = _multisets(dice + abs(extra), sides)
    ordered = counts[:, ::-1] if extra >= 0 else counts  # from the favoured end
    before = np.cumsum(ordered, axis=1) - ordered  # dice at better faces than this one
    kept = np.clip(dice - before, 0, ordered)
    faces = np.arange(sides, 0, -1) if extra >= 0 else np.arange(1, sides + 1)
    return kept @ faces, chances


def keep_probabilities(dice: int, sides: int = 6, extra: int = 0) -> np.ndarray:
    """The float pmf of the kept total of `dice` of `dice + |extra|` dice (as `keep_weights`).

    Order statistics: condition on v, the value of the highest dropped die (maximised). Of
    the n = dice + k dice, a < k show less than v, b show v (a + b ≥ k) and c show more;
    whatever a and b, the kept total is (n - k)·v plus the c higher dice less v each, so
    P(total) = Σ_v Σ_c W(v, c) · [c dice uniform on 1..S-v, shifted by (n - k)·v], where
    W(v, c) sums the multinomial chances over a. The inner sum is a polynomial in the
    uniform die's pmf: evaluated on its Fourier transform (Horner), one inverse transform
    per v. A minimised roll is the maximised roll of the faces turned over (x → S + 1 - x).
    """
    total, drop = dice + abs(extra), abs(extra)
    if enumerable(total, sides):
        totals, chances = _enumerated(dice, sides, extra)
        return np.bincount(totals, weights=chances, minlength=dice * sides + 1)
    if extra < 0:  # keep the lowest: the highest of the reversed faces, t ↔ dice·(S + 1) - t
        highest = keep_probabilities(dice, sides, -extra)
        return np.concatenate([np.zeros(dice), highest[::-1][: len(highest) - dice]])
    logs = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, total + 1)))])
    most = total - drop  # c runs to n - k: at least k dice are at v or below
    c = np.arange(most + 1)
    result = np.zeros(dice * sides + 1)
    for v in range(1, sides + 1):
        low, high = (v - 1) / sides, (sides - v) / sides
        weights = np.zeros(most + 1)
        for a in range(drop):
            if a and low == 0:
                break
            b = total - c - a
            log_weight = (logs[total] - logs[a] - logs[b] - logs[c] + a * (math.log(low) if a else 0.0)
                          + b * math.log(1 / sides) + (c * math.log(high) if high else np.where(c, -np.inf, 0.0)))
            weights += np.exp(log_weight)
        start, upper = most * v, sides - v
        if not upper:  # every die at the top face
            result[start] += weights[0]
            continue
        kept = np.flatnonzero(weights >= NEGLIGIBLE)  # most faces v, and most c of one, weigh next to nothing
        if not len(kept):
            continue
        first, last = int(kept[0]), int(kept[-1])
        length = most * upper + 1
        size = fft_size(length)
        uniform = np.zeros(size)
        uniform[1:upper + 1] = 1.0 / upper
        transform = np.fft.rfft(uniform)
        polynomial = np.full(transform.shape, weights[last], dtype=complex)
        for weight in weights[first:last][::-1]:
            polynomial *= transform
            polynomial += weight
        polynomial *= power(transform, first)  # the c below the first kept one: T^first factored out
        result[start:start + length] += np.fft.irfft(polynomial, size)[:length]
    return np.maximum(result, 0.0)  # rounding leaves ±1e-17 where a chance is 0


def power(values: np.ndarray, exponent: int) -> np.ndarray:
    """`values` (complex) to a whole power, by squaring: a dozen products, not `exponent` of them, and as close as
    Horner's own products (numpy's complex `**` goes through log and exp: 2.6e-14 off at 200, squaring 7e-15)."""
    result = np.ones_like(values)
    while exponent:
        if exponent & 1:
            result = result * values
        values = values * values
        exponent >>= 1
    return result


def keep_pmf(dice: int, sides: int = 6, extra: int = 0, number: Callable[[Any], Any] = Fraction) -> np.ndarray:
    """The exact pmf (index = total) of `dice` kept of `dice + |extra|`: floats, or Fractions."""
    if not extra:
        return sum_pmf(dice, sides, number)
    if number is float:
        return keep_probabilities(dice, sides, extra)
    denominator = sides ** (dice + abs(extra))
    return pmfs.array([Fraction(weight, denominator) for weight in terms.keep_weights(dice, sides, extra)])


def sum_pmf(count: int, sides: int, number: Callable[[Any], Any] = Fraction) -> np.ndarray:
    """The pmf of the total of `count` dice of `sides` faces: floats by convolution, or exact
    rationals from integer weights over one denominator, sides**count."""
    if number is float:
        return pmfs.power(np.concatenate([[0.0], np.full(sides, 1.0 / sides)]), count)
    denominator = sides**count
    return pmfs.array([Fraction(weight, denominator) for weight in terms.sum_weights(count, sides)])


@lru_cache(maxsize=64)
def keep_die(dice: int, sides: int = 6, extra: int = 0, success: int | None = None) -> Die:
    """Return the die (all `dice + |extra|` faces at once) whose count is the kept sum.

    extra > 0 keeps the highest `dice`, extra < 0 the lowest. With `success`, the count
    is how many kept dice show `success` or more (field `successes`) instead of the sum.
    """

    def rule(*faces: np.ndarray) -> np.ndarray:
        ordered = np.sort(np.stack(np.broadcast_arrays(*faces)), axis=0)
        kept = ordered[len(faces) - dice :] if extra >= 0 else ordered[:dice]
        total: np.ndarray = kept.sum(axis=0) if success is None else (kept >= success).sum(axis=0)
        return total

    return pool.Die((sides,) * (dice + abs(extra)), rule, ("sum" if success is None else "successes",))


def shifted(pmf: np.ndarray, modifier: int) -> np.ndarray:
    """The pmf of max(X + modifier, 0), as an array (`terms.shifted`'s)."""
    return np.asarray(terms.shifted(pmf, modifier))


def _d3_rule(face: np.ndarray) -> np.ndarray:
    return (face + 1) // 2  # D3 = ⌈D6/2⌉ (§3.1)


def _face_rule(face: np.ndarray) -> np.ndarray:
    return face


@lru_cache(maxsize=64)
def expression_die(sides: int) -> Die:
    """Return the die of one `dS` (D3 read off a D6)."""
    if sides == 3:
        return pool.Die((6,), _d3_rule, ("total",))
    return pool.Die((sides,), _face_rule, ("total",))
