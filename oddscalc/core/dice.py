"""Game-free dice rules: X+ checks with natural-roll rules, re-rolls, rolls needed and dice
expressions, in exact chances (`Fraction`s) and face rules that samplers apply to real faces.
This module needs no numpy: an exact answer of checks alone (a pool of dice that hit, then
save) imports none. The pmfs of kept and summed totals, and the dice samplers roll for them,
are in `totals`.
"""

from __future__ import annotations

import numbers
import re
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

from ..errors import InputError
from .record import record

if TYPE_CHECKING:
    import numpy as np


class Natural(Enum):
    """How natural rolls override the needed value: the flavours the games use."""

    EPIC = "epic"  # natural 1 fails; 7 → 6 then 4+, 8 → 6 then 5+, 9 → 6 then 6; 10+ never (§2.1)
    HOPELESS = "hopeless"  # T9A shooting: natural 1 fails; 7 → 6 then 4+; 8+ never (§3.4)
    ONE_AND_SIX = "one-and-six"  # T9A melee and wound: natural 1 fails, natural 6 succeeds (§3.3, §3.5)
    SAVE = "save"  # natural 1 fails; a save needing 7+ is impossible (§2.2, §3.6)


_CHAIN_LIMIT = {Natural.EPIC: 9, Natural.HOPELESS: 7}  # highest need a second die can reach


@record
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
        else:  # a roll that cannot pass: no natural face is above 6
            passed = first > 6
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


# --- keep highest / keep lowest (docs/rules.md §3.1): the totals' weights and cost in `terms` ----


def net_extra(maximised: int, minimised: int) -> int:
    """Combine maximised and minimised rolls: one of each cancel; >0 keeps the highest."""
    return maximised - minimised


EXACT_SECONDS = 2.0  # an exact answer that would take longer is refused at once: sample instead

# --- rolls needed ----------------------------------------------------------------------

_ROLL = re.compile(r"^\s*([0-9]{1,3})\s*\+?\s*$")


def parse_roll(value: int | str, name: str, allowed: str = "expected a roll like 4+ (or 4)",
               none: bool = False) -> int | None:
    """Read a roll needed, written 4 or "4+" (and "none" when `none` allows no roll at all)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):  # numpy's whole numbers too
        return int(value)
    text = str(value).strip()
    if none and text.lower() in ("none", "-"):
        return None
    match = _ROLL.match(text)
    if isinstance(value, bool) or not match:
        raise InputError(name, value, allowed)
    return int(match.group(1))


# --- dice expressions ------------------------------------------------------------------

_EXPRESSION = re.compile(r"^\s*([0-9]*)\s*[dD]\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*$")
_CONSTANT = re.compile(r"^\s*([0-9]+)\s*$")


@record
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
        from .totals import shifted, sum_pmf  # arrays: imported when a total is asked for

        return shifted(sum_pmf(self.count, self.sides, number), self.modifier)

    def sample(self, rng: np.random.Generator, trials: int) -> np.ndarray:
        """Roll the expression `trials` times."""
        import numpy as np

        from .pool import roll_pool
        from .totals import expression_die

        if self.count == 0:
            return np.full(trials, max(self.modifier, 0), dtype=np.int64)
        die = expression_die(self.sides)
        totals = roll_pool(rng, die, self.count, trials).codes.astype(np.int64)
        return np.maximum(totals + self.modifier, 0)
