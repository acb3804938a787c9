"""The 9th Age rolls that are not attacks (docs/rules.md §3.1): charge rolls and Discipline
tests on 2D6, maximised or minimised, and the direction die."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core import pmf as pmfs
from ..core.attack import Attack, option
from ..core.dice import DiceExpression
from ..errors import require
from ..core.pool import Die, roll_pool
from ..core.roll import Roll
from .attributes import checked_dice, game_dice

MAX_DISTANCE = 30
MAX_DISCIPLINE = 10  # a characteristic is at most 10 after every modifier (a Break Test's penalty apart)
MAX_PENALTY = 20
TWO_DICE = DiceExpression(2, 6)
DIRECTION_HIT_FACES = 2  # the direction die: 2 HIT faces and 4 arrows (§3.1)


@record(kw_only=True)
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
        return {"success": np.asarray(self.succeeds(total)).astype(np.int64), "sum": total}

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, np.ndarray]:
        total = self.roll.pmfs(Fraction)["sum"]  # a handful of exact weights: summed exactly, then converted
        success = sum((p for value, p in enumerate(total) if self.succeeds(value)), Fraction(0))
        return {"success": pmfs.array([1 - success, success]), "sum": total}


@record(kw_only=True)
class Charge(_TwoDice):
    """Roll 2D6 for a charge: does it reach the distance still to cover?

    Maximised: roll an extra D6 and drop the lowest; minimised: drop the highest. They
    stack, and one of each cancel (§3.1). Outcomes: success (2D6 >= distance), sum.
    """

    distance: int = option("The roll the charge needs, 1 to 30.", metavar="D")

    COMMAND = "t9a charge"

    def describe(self) -> str:
        return f"T9A charge: 2D6 reaching {self.distance}{self._kept()}"

    def check(self) -> None:
        require(1 <= self.distance <= MAX_DISTANCE, "distance", self.distance,
                f"expected the roll the charge needs, 1 to {MAX_DISTANCE} (2D6 reaches 2 to 12)")
        _ = self.roll  # Roll refuses a bad --maximised or --minimised

    def succeeds(self, total: Any) -> Any:
        return total >= self.distance


@record(kw_only=True)
class DisciplineTest(_TwoDice):
    """Roll a Discipline test: 2D6 at most the Discipline (less any penalty) passes.

    A minimised test (an extra D6, the highest dropped) is easier to pass; a maximised one
    harder (§3.1). A penalty lowers the Discipline tested (a Break test's: the combat score
    lost by), unless the unit may ignore it (Steadfast). A Combat Reform test
    (§3.9) is the losing side's, at the Break test's penalty; a unit engaged from two or more
    facings cannot reform at all. Outcomes: success, sum.
    """

    discipline: int = option("The Discipline tested, 0 to 10 (a characteristic after its modifiers; a test's "
                             "penalty is --penalty).", metavar="V")
    penalty: int = option("A penalty to the Discipline (a Break test's, or Combat Reform's: the combat score "
                          "lost by), 0 to 20.", 0, metavar="P")
    steadfast: bool = option("The unit ignores the penalty (Steadfast).", False)
    combat_reform: bool = option("A Combat Reform test of a unit on the losing side (§3.9): at the Break test's "
                                 "--penalty.", False)
    facings: int = option("Combat Reform: the facings the unit is engaged on; from two or more it cannot reform.",
                          1, metavar="N")

    COMMAND = "t9a test"

    def describe(self) -> str:
        words = ([f"penalty {self.penalty}" + (" ignored (Steadfast)" if self.steadfast else "")]
                 if self.penalty else [])
        words += [f"engaged on {self.facings} facings: cannot reform"] if self.facings > 1 else []
        kind = "Combat Reform test" if self.combat_reform else "Discipline test"
        return f"T9A {kind}: 2D6 at most {self.discipline}{self._kept()}" + "".join(f", {w}" for w in words)

    def check(self) -> None:
        require(0 <= self.discipline <= MAX_DISCIPLINE, "discipline", self.discipline,
                f"expected the Discipline tested against, 0 to {MAX_DISCIPLINE} (a characteristic is at most 10 "
                "after its modifiers; give a test's penalty as --penalty)")
        require(0 <= self.penalty <= MAX_PENALTY, "penalty", self.penalty, f"expected a penalty of 0 to {MAX_PENALTY}")
        require(not self.steadfast or self.penalty > 0, "steadfast", "without --penalty",
                "Steadfast ignores a penalty: give the test's --penalty P")
        require(1 <= self.facings <= 4, "facings", self.facings, "expected 1 to 4 facings (front, flanks, rear)")
        require(self.facings == 1 or self.combat_reform, "facings", self.facings,
                "only matters for a Combat Reform test (--combat-reform)")
        _ = self.roll  # Roll refuses a bad --maximised or --minimised

    @property
    def tested(self) -> int:
        """The Discipline the roll must not exceed: less the penalty unless it is ignored."""
        return self.discipline - (0 if self.steadfast else self.penalty)

    def succeeds(self, total: Any) -> Any:
        if self.combat_reform and self.facings > 1:  # §3.9: engaged from two or more facings: no reform
            return total < 0
        return total <= self.tested


@lru_cache(maxsize=1)
def direction_die() -> Die:
    """Return a plain D6 read as the direction die: a 1 or a 6 is HIT (§3.1)."""
    return Die((6,), lambda face: (face == 1) | (face == 6), ("hit",))


@record(kw_only=True)
class Direction(Attack):
    """Roll the direction die: 2 of its 6 faces show HIT (with a plain D6, a 1 or a 6), the
    other 4 an arrow. With a scatter distance (a dice expression the weapon or spell gives),
    an arrow moves the shot that far, a HIT leaves it on the aim point; with a template's
    radius, whether it lands within that distance of the aim point (a distance equal to it
    counts as within, The 9th Age rulebook). Outcomes: hit, then distance and within when
    given (§3.1).
    """

    scatter: DiceExpression | str | None = option("The scatter distance on an arrow: dice like 2d6, d6+1 or a "
                                                  "number (the weapon's or spell's rules give it).", None,
                                                  metavar="DICE",
                                                  reader=lambda text: game_dice(text, "scatter"))
    radius: int | None = option("A template's radius (inches): P(the shot lands within it of the aim point).",
                                None, metavar="R")

    COMMAND = "t9a direction"

    @property
    def outcomes(self) -> tuple[str, ...]:
        return ("hit",) + (("distance",) if self.scatter is not None else ()) + (
            ("within",) if self.radius is not None else ())

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(name for name in ("hit", "within") if name in self.outcomes)

    def describe(self) -> str:
        words = ([f"scatter {self.scatter} on an arrow"] if self.scatter is not None else []) + (
            [f"template radius {self.radius}"] if self.radius is not None else [])
        return "T9A direction die" + "".join(f", {w}" for w in words)

    def check(self) -> None:
        if self.scatter is not None and not isinstance(self.scatter, DiceExpression):
            object.__setattr__(self, "scatter", game_dice(self.scatter, "scatter"))
        require(self.radius is None or 0 <= self.radius <= MAX_DISTANCE, "radius", self.radius,
                f"expected a radius of 0 to {MAX_DISTANCE} inches")
        require(self.radius is None or self.scatter is not None, "radius", self.radius,
                "needs the scatter distance: --scatter DICE")

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hit = roll_pool(rng, direction_die(), 1, trials).total("hit").astype(np.int64)
        outcomes = {"hit": hit}
        if self.scatter is not None:
            distance = np.where(hit == 1, 0, checked_dice(self.scatter).sample(rng, trials))
            outcomes["distance"] = distance
            if self.radius is not None:
                outcomes["within"] = (distance <= self.radius).astype(np.int64)
        return outcomes

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, np.ndarray]:
        hit = number(Fraction(DIRECTION_HIT_FACES, 6))
        outcomes = {"hit": pmfs.array([1 - hit, hit])}
        if self.scatter is not None:
            rolled = checked_dice(self.scatter).pmf(number)
            distance = pmfs.mixture([(hit, pmfs.point(0, rolled)), (1 - hit, rolled)])
            outcomes["distance"] = distance
            if self.radius is not None:
                within = sum(distance[: self.radius + 1], number(Fraction(0)))
                outcomes["within"] = pmfs.array([1 - within, within])
        return outcomes
