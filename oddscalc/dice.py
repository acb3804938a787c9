"""Game-free dice rules: X+ checks with natural-roll rules, re-rolls, keep-highest and
keep-lowest, and dice expressions. Each comes twice: an exact chance or pmf (in
`Fraction`s) and a face rule that samplers apply to real faces.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from . import pmf as pmfs
from .errors import InputError
from .pool import Die, roll_pool


class Natural(Enum):
    """How natural rolls override the needed value: the flavours the games use."""

    EPIC = "epic"  # natural 1 fails; 7 → 6 then 4+, 8 → 6 then 5+, 9 → 6 then 6; 10+ never (§2.1)
    HOPELESS = "hopeless"  # T9A shooting: natural 1 fails; 7 → 6 then 4+; 8+ never (§3.4)
    ONE_AND_SIX = "one-and-six"  # T9A melee and wound: natural 1 fails, natural 6 succeeds (§3.3, §3.5)
    SAVE = "save"  # natural 1 fails; a save needing 7+ is impossible (§2.2, §3.6)


_CHAIN_LIMIT = {Natural.EPIC: 9, Natural.HOPELESS: 7}  # highest need a second die can reach


@dataclass(frozen=True)
class Check:
    """One D6 that needs `need`+ (after modifiers) under a game's natural-roll rules."""

    need: int
    natural: Natural

    @property
    def chains(self) -> bool:
        """Whether this check rolls a 6 and then a second die (needs 7+ and can reach it)."""
        return 7 <= self.need <= _CHAIN_LIMIT.get(self.natural, 6)

    @property
    def faces(self) -> int:
        """How many natural D6 one attempt uses."""
        return 2 if self.chains else 1

    def chance(self) -> Fraction:
        """Return the exact chance that one attempt succeeds."""
        need, natural = self.need, self.natural
        if natural is Natural.ONE_AND_SIX:
            return Fraction(7 - min(max(need, 2), 6), 6)
        if need <= 6:
            return Fraction(7 - max(need, 2), 6)
        if self.chains:
            return Fraction(1, 6) * Fraction(10 - need, 6)
        return Fraction(0)

    def passes(self, first: np.ndarray, second: np.ndarray | None = None) -> np.ndarray:
        """Apply the check to natural faces (`second` only when it chains)."""
        need = self.need
        passed: np.ndarray
        if self.natural is Natural.ONE_AND_SIX:
            passed = (first != 1) & ((first == 6) | (first >= need))
        elif need <= 6:
            passed = (first != 1) & (first >= need)
        elif self.chains:
            assert second is not None, "a chained roll reads a second die"
            passed = (first == 6) & (second >= need - 3)
        else:
            passed = np.zeros(np.shape(first), dtype=bool)
        return passed


def rerolled(chance: Fraction, rerolls: int = 1) -> Fraction:
    """Return the chance of success when a failure is rolled again up to `rerolls` times."""
    return 1 - (1 - chance) ** (rerolls + 1)


class FaceReader:
    """Hand out a die rule's natural faces in order (rules read them like real dice)."""

    def __init__(self, faces: tuple[np.ndarray, ...]) -> None:
        self._faces = iter(faces)

    def take(self) -> np.ndarray:
        return next(self._faces)

    def check(self, check: Check, rerolls: int = 0) -> np.ndarray:
        """Roll `check`, re-rolling a failure up to `rerolls` times; return success."""
        success = check.passes(*[self.take() for _ in range(check.faces)])
        for _ in range(rerolls):
            success = success | check.passes(*[self.take() for _ in range(check.faces)])
        return success


def check_sides(check: Check, rerolls: int = 0) -> tuple[int, ...]:
    """Return the natural D6 a check with re-rolls uses (for `Die.sides`)."""
    return (6,) * (check.faces * (rerolls + 1))


# --- keep highest / keep lowest (docs/rules.md §3.1) -------------------------------------


def net_extra(maximised: int, minimised: int) -> int:
    """Combine maximised and minimised rolls: one of each cancel; >0 keeps the highest."""
    return maximised - minimised


def keep_weights(dice: int, sides: int = 6, extra: int = 0) -> list[int]:
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
    return weights


ENUMERATE = 500_000  # pools whose face multisets fill fewer cells than this are counted one multiset at a time


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


def _enumerable(total: int, sides: int) -> bool:
    """Whether the table of every multiset (one row of `sides` counts each) is small."""
    return math.comb(total + sides - 1, sides - 1) * sides <= ENUMERATE


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
    if _enumerable(total, sides):
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
        length = most * upper + 1
        size = _fft_size(length)
        uniform = np.zeros(size)
        uniform[1:upper + 1] = 1.0 / upper
        transform = np.fft.rfft(uniform)
        polynomial = np.full(transform.shape, weights[most], dtype=complex)
        for weight in weights[-2::-1]:
            polynomial *= transform
            polynomial += weight
        result[start:start + length] += np.fft.irfft(polynomial, size)[:length]
    return np.maximum(result, 0.0)  # rounding leaves ±1e-17 where a chance is 0


def _fft_size(length: int) -> int:
    """The power of two at or above `length` (no wrap-around in the circular convolution)."""
    return 1 << (length - 1).bit_length()


def keep_pmf(dice: int, sides: int = 6, extra: int = 0, number: Callable[[Any], Any] = Fraction) -> np.ndarray:
    """The exact pmf (index = total) of `dice` kept of `dice + |extra|`: floats, or Fractions."""
    if not extra:
        return sum_pmf(dice, sides, number)
    if number is float:
        return keep_probabilities(dice, sides, extra)
    denominator = sides ** (dice + abs(extra))
    return pmfs.array([Fraction(weight, denominator) for weight in keep_weights(dice, sides, extra)])


def sum_pmf(count: int, sides: int, number: Callable[[Any], Any] = Fraction) -> np.ndarray:
    """The pmf of the total of `count` dice of `sides` faces: floats by convolution, or exact
    rationals from integer weights over one denominator, sides**count."""
    if number is float:
        return pmfs.power(np.concatenate([[0.0], np.full(sides, 1.0 / sides)]), count)
    weights, base, n = np.array([1], dtype=object), np.array([0] + [1] * sides, dtype=object), count
    while n:  # repeated squaring, on Python integers
        if n & 1:
            weights = np.convolve(weights, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    denominator = sides**count
    return pmfs.array([Fraction(int(weight), denominator) for weight in weights])


EXACT_SECONDS = 2.0  # an exact answer that would take longer is refused at once: sample instead
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
    if _enumerable(total, sides):
        return math.comb(total + sides - 1, sides - 1) * 2.5e-6  # building the table (measured 1.6 to 2.2 µs a row)
    # keep_probabilities, per face v: the weights (about 2e-5 s per dropped die), Horner's steps
    # (2.4e-6 s each, dice of them) and their products on the transform (1.7e-9 s each)
    products = sum(dice * _fft_size(dice * (sides - v) + 1) / 2 for v in range(1, sides))
    return 1.5 * (sides * drop * 2.1e-5 + sides * dice * 2.4e-6 + products * 1.7e-9)


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

    return Die((sides,) * (dice + abs(extra)), rule, ("sum" if success is None else "successes",))


# --- rolls needed ----------------------------------------------------------------------

_ROLL = re.compile(r"^\s*(\d{1,3})\s*\+?\s*$")


def parse_roll(value: int | str, name: str, allowed: str = "expected a roll like 4+ (or 4)",
               none: bool = False) -> int | None:
    """Read a roll needed, written 4 or "4+" (and "none" when `none` allows no roll at all)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    text = str(value).strip()
    if none and text.lower() in ("none", "-"):
        return None
    match = _ROLL.match(text)
    if isinstance(value, bool) or not match:
        raise InputError(name, value, allowed)
    return int(match.group(1))


# --- dice expressions ------------------------------------------------------------------

_EXPRESSION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_CONSTANT = re.compile(r"^\s*(\d+)\s*$")


@dataclass(frozen=True)
class DiceExpression:
    """`NdS+C`: the sum of N dice with S sides plus C (C may be negative).

    D3 is ⌈D6/2⌉ (§3.1). A total below 0 counts as 0 (a count of attacks or wounds
    cannot be negative). A bare number is a constant.
    """

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str, name: str = "dice") -> DiceExpression:
        """Read `2d6`, `d3`, `3d6+1`, `d6-1` or a plain number."""
        text = str(text)
        constant = _CONSTANT.match(text)
        if constant:
            if len(constant.group(1)) > 4 or int(constant.group(1)) > 1000:
                raise InputError(name, text, "a constant must be at most 1000")
            return cls(0, 6, int(constant.group(1)))
        match = _EXPRESSION.match(text)
        allowed = "expected a dice expression like 2d6, d3, 3d6+1, d6-1 or a whole number"
        if not match:
            raise InputError(name, text, allowed)
        count = int(match.group(1) or 1)
        if len(match.group(4) or "") > 4:
            raise InputError(name, text, "the +/- modifier must be at most 1000")
        sides = int(match.group(2))
        modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if count < 1 or count > 200:
            raise InputError(name, text, "the number of dice must be 1 to 200")
        if not 2 <= sides <= 100:
            raise InputError(name, text, "dice must have 2 to 100 sides (d3, d6, ...)")
        return cls(count, sides, modifier)

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        sign = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{sign}"

    @property
    def highest(self) -> int:
        return max(self.count * self.sides + self.modifier, 0)

    def pmf(self, number: Callable[[Any], Any] = Fraction) -> np.ndarray:
        """Return the exact pmf of the total, in the number type `number` (Fractions by default)."""
        return shifted(sum_pmf(self.count, self.sides, number), self.modifier)

    def sample(self, rng: np.random.Generator, trials: int) -> np.ndarray:
        """Roll the expression `trials` times."""
        if self.count == 0:
            return np.full(trials, max(self.modifier, 0), dtype=np.int64)
        die = expression_die(self.sides)
        totals = roll_pool(rng, die, self.count, trials).codes.astype(np.int64)
        return np.maximum(totals + self.modifier, 0)


def shifted(pmf: np.ndarray, modifier: int) -> np.ndarray:
    """The pmf of max(X + modifier, 0): a total below 0 counts as 0."""
    if modifier >= 0:
        return np.concatenate([pmfs.zeros(modifier, pmf), pmf])
    return np.concatenate([[pmf[: -modifier + 1].sum()], pmf[-modifier + 1:]])


def _d3_rule(face: np.ndarray) -> np.ndarray:
    return (face + 1) // 2  # D3 = ⌈D6/2⌉ (§3.1)


def _face_rule(face: np.ndarray) -> np.ndarray:
    return face


@lru_cache(maxsize=64)
def expression_die(sides: int) -> Die:
    """Return the die of one `dS` (D3 read off a D6)."""
    if sides == 3:
        return Die((6,), _d3_rule, ("total",))
    return Die((sides,), _face_rule, ("total",))
