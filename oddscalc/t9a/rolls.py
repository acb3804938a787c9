"""The 9th Age rolls that are not attacks (docs/rules.md §3.1): charge rolls and Discipline
tests on 2D6, maximised or minimised, and the direction die."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .. import pmf as pmfs
from ..attack import Attack, option
from ..dice import DiceExpression
from ..errors import require
from ..pool import Die, roll_pool
from ..roll import Roll

MAX_DISTANCE = 30
MAX_DISCIPLINE = 20
TWO_DICE = DiceExpression(2, 6)
DIRECTION_HIT_FACES = 2  # the direction die: 2 HIT faces and 4 arrows (§3.1)


@dataclass(frozen=True, kw_only=True)
class _TwoDice(Attack):
    """2D6, maximised or minimised K times (K extra dice, the K lowest or highest dropped)."""

    maximised: int = option("Roll K extra dice and drop the K lowest (0 to 20).", 0, metavar="K")
    minimised: int = option("Roll K extra dice and drop the K highest (0 to 20); one maximised and one minimised "
                            "cancel.", 0, metavar="K")

    outcomes = ("success", "sum")
    events = ("success",)

    def _kept(self) -> str:
        extra = self.maximised - self.minimised
        return f", maximised ×{extra}" if extra > 0 else f", minimised ×{-extra}" if extra < 0 else ""

    @property
    def roll(self) -> Roll:
        return Roll(TWO_DICE, self.maximised, self.minimised)  # §3.1: stacked; one of each cancel

    def succeeds(self, total: np.ndarray | int) -> np.ndarray | bool:
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        total = self.roll.sample(rng, trials)["sum"]
        return {"success": self.succeeds(total).astype(np.int64), "sum": total}

    def pmfs(self, number) -> dict[str, np.ndarray]:
        total = self.roll.pmfs(Fraction)["sum"]  # a handful of exact weights: summed exactly, then converted
        success = sum((p for value, p in enumerate(total) if self.succeeds(value)), Fraction(0))
        return {"success": pmfs.array([1 - success, success]), "sum": total}


@dataclass(frozen=True, kw_only=True)
class Charge(_TwoDice):
    """Roll 2D6 for a charge: does it reach the distance still to cover?

    Maximised: roll an extra D6 and drop the lowest; minimised: drop the highest. They
    stack, and one of each cancel (§3.1). Outcomes: success (2D6 >= distance), sum.
    """

    distance: int = option("The roll the charge needs, 1 to 30.", metavar="D")

    COMMAND = "t9a charge"

    def describe(self) -> str:
        return f"T9A charge: 2D6 reaching {self.distance}{self._kept()}"

    def __post_init__(self) -> None:
        require(1 <= self.distance <= MAX_DISTANCE, "distance", self.distance,
                f"expected the roll the charge needs, 1 to {MAX_DISTANCE} (2D6 reaches 2 to 12)")
        _ = self.roll  # Roll refuses a bad --maximised or --minimised

    def succeeds(self, total):
        return total >= self.distance


@dataclass(frozen=True, kw_only=True)
class DisciplineTest(_TwoDice):
    """Roll a Discipline test: 2D6 at most the Discipline passes.

    A minimised test (an extra D6, the highest dropped) is easier to pass; a maximised one
    harder (§3.1). Outcomes: success (2D6 <= discipline), sum.
    """

    discipline: int = option("The Discipline tested, 0 to 20.", metavar="V")

    COMMAND = "t9a test"

    def describe(self) -> str:
        return f"T9A Discipline test: 2D6 at most {self.discipline}{self._kept()}"

    def __post_init__(self) -> None:
        require(0 <= self.discipline <= MAX_DISCIPLINE, "discipline", self.discipline,
                f"expected the Discipline tested against, 0 to {MAX_DISCIPLINE}")
        _ = self.roll  # Roll refuses a bad --maximised or --minimised

    def succeeds(self, total):
        return total <= self.discipline


@lru_cache(maxsize=1)
def direction_die() -> Die:
    """Return a plain D6 read as the direction die: a 1 or a 6 is HIT (§3.1)."""
    return Die((6,), lambda face: (face == 1) | (face == 6), ("hit",))


@dataclass(frozen=True)
class Direction(Attack):
    """Roll the direction die: 2 of its 6 faces show HIT (with a plain D6, a 1 or a 6).

    Outcome: hit (§3.1).
    """

    COMMAND = "t9a direction"
    outcomes = ("hit",)
    events = ("hit",)

    def describe(self) -> str:
        return "T9A direction die"

    def sample(self, rng: np.random.Generator, trials: int):
        return roll_pool(rng, direction_die(), 1, trials)

    def pmfs(self, number) -> dict[str, np.ndarray]:
        hit = number(Fraction(DIRECTION_HIT_FACES, 6))
        return {"hit": pmfs.array([1 - hit, hit])}
