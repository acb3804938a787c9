"""Game-free dice rules: X+ checks with natural-roll rules, re-rolls, keep-highest and
keep-lowest, and dice expressions. Each comes twice: an exact chance or pmf (in
`Fraction`s) and a face rule that samplers apply to real faces.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache

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
        if self.natural is Natural.ONE_AND_SIX:
            return (first != 1) & ((first == 6) | (first >= need))
        if need <= 6:
            return (first != 1) & (first >= need)
        if self.chains:
            return (first == 6) & (second >= need - 3)
        return np.zeros(np.shape(first), dtype=bool)


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
        success = None
        for _ in range(rerolls + 1):
            faces = [self.take() for _ in range(check.faces)]
            attempt = check.passes(*faces)
            success = attempt if success is None else success | attempt
        return success


def check_sides(check: Check, rerolls: int = 0) -> tuple[int, ...]:
    """Return the natural D6 a check with re-rolls uses (for `Die.sides`)."""
    return (6,) * (check.faces * (rerolls + 1))


# --- keep highest / keep lowest (docs/rules.md §3.1) -------------------------------------


def net_extra(maximised: int, minimised: int) -> int:
    """Combine maximised and minimised rolls: one of each cancel; >0 keeps the highest."""
    return maximised - minimised


def keep_pmf(dice: int, sides: int = 6, extra: int = 0) -> np.ndarray:
    """Return the exact pmf (Fractions, index = total) of `dice` kept of `dice + |extra|`.

    extra > 0 keeps the highest (maximised), extra < 0 the lowest (minimised).
    Dynamic programme over face values from the favoured end: how many dice show each
    face, weighted by the multinomial count, and how many of them are kept.
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
    pmf = [Fraction(0)] * (dice * sides + 1)
    for (placed, kept_total), count in ways.items():
        if placed == total_dice:
            pmf[kept_total] += Fraction(count, sides**total_dice)
    return pmfs.array(pmf)


@lru_cache(maxsize=64)
def keep_cost(dice: int, sides: int = 6, extra: int = 0) -> int:
    """Rough work of `keep_pmf` (states × choices): to refuse what would take minutes."""
    total_dice = dice + abs(extra)
    return sides * total_dice * total_dice * dice * sides


@lru_cache(maxsize=64)
def keep_die(dice: int, sides: int = 6, extra: int = 0, success: int | None = None) -> Die:
    """Return the die (all `dice + |extra|` faces at once) whose count is the kept sum.

    extra > 0 keeps the highest `dice`, extra < 0 the lowest. With `success`, the count
    is how many kept dice show `success` or more (field `successes`) instead of the sum.
    """

    def rule(*faces: np.ndarray) -> np.ndarray:
        ordered = np.sort(np.stack(np.broadcast_arrays(*faces)), axis=0)
        kept = ordered[len(faces) - dice :] if extra >= 0 else ordered[:dice]
        return kept.sum(axis=0) if success is None else (kept >= success).sum(axis=0)

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

    def pmf(self, number=Fraction) -> np.ndarray:
        """Return the exact pmf of the total, in the number type `number` (Fractions by default)."""
        face = pmfs.array([number(0)] + [number(Fraction(1, self.sides))] * self.sides)
        total = pmfs.power(face, self.count)
        return pmfs.transform(total, lambda x: max(x + self.modifier, 0))

    def sample(self, rng: np.random.Generator, trials: int) -> np.ndarray:
        """Roll the expression `trials` times."""
        if self.count == 0:
            return np.full(trials, max(self.modifier, 0), dtype=np.int64)
        die = expression_die(self.sides)
        totals = roll_pool(rng, die, self.count, trials).codes.astype(np.int64)
        return np.maximum(totals + self.modifier, 0)


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
