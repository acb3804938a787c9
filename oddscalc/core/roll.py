"""Game-free queries: a dice expression, maximised or minimised, summed or counted as
successes (docs/rules.md §3.1). (A pool of dice that must hit, then get past a save, is `hits`.)

An exact roll is computed in integer weights over one denominator where that is quick (always
for Fractions; in floats for rolls like 2d6, 10d6, 2d6 maximised or 4d6 minimised twice, each
probability an exactly rounded quotient), with no numpy; a large roll in floats (10d6 maximised,
200d6) is numpy's (`totals`), as is sampling.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Callable

from . import terms
from .attack import Attack, option
from .dice import EXACT_SECONDS, DiceExpression, net_extra
from ..errors import require
from .hits import HitAndSave  # noqa: F401  (its home before it had its own module: old imports keep working)
from .terms import exact_seconds
from .record import record

if TYPE_CHECKING:
    import numpy as np

    from .pool import Die

MAX_EXTRA = 20
QUICK = 1e-3  # seconds: a roll whose integer weights take less (by `exact_seconds`) is answered in them, floats too


def _weights(count: int, sides: int, extra: int) -> tuple[int, ...]:
    """How many face sequences give each kept (or summed) total."""
    return terms.keep_weights(count, sides, extra) if extra else terms.sum_weights(count, sides)


# a quick roll's weights are kept (a few hundred whole numbers at most); a large one's, which a server
# could be asked for many times over, are not
_quick_weights = lru_cache(maxsize=256)(_weights)


@record
class Roll(Attack):
    """Roll dice: the sum (or the number of successes), maximised or minimised.

    Maximised and minimised rolls stack, and one of each cancel (The 9th Age rules, §3.1).
    A total below 0 counts as 0. With `success`, count the kept dice showing it or more
    instead of summing. Outcome: sum (or successes).
    """

    dice: DiceExpression = field(metadata={"reader": lambda text: DiceExpression.parse(text, "dice")})
    maximised: int = option("Roll K extra dice and discard the K lowest.", 0, metavar="K")
    minimised: int = option("Roll K extra dice and discard the K highest.", 0, metavar="K")
    success: int | None = option("Count dice showing X or more instead of summing.", None, metavar="X")

    COMMAND = "roll"
    ARGUMENTS = ("dice",)

    def describe(self) -> str:
        extra = self.extra
        kept = f", maximised ×{extra}" if extra > 0 else f", minimised ×{-extra}" if extra < 0 else ""
        counted = f", counting dice of {self.success}+" if self.success is not None else ""
        return f"Roll {self.dice}{kept}{counted}"

    def check(self) -> None:
        for name in ("maximised", "minimised"):
            value = getattr(self, name)
            require(0 <= value <= MAX_EXTRA, name, value, f"expected 0 to {MAX_EXTRA} extra dice")
        require(self.dice.count > 0, "dice", self.dice, "expected at least one die, like 2d6")
        if self.success is not None:
            require(
                1 <= self.success <= self.dice.sides,
                "success",
                self.success,
                f"expected a face from 1 to {self.dice.sides}",
            )
            require(
                self.dice.modifier == 0,
                "success",
                self.success,
                "counting successes needs dice without a +/- modifier (drop it from the expression)",
            )

    @property
    def outcomes(self) -> tuple[str, ...]:
        return ("successes",) if self.success is not None else ("sum",)

    @property
    def extra(self) -> int:
        """Net extra dice: > 0 keeps the highest, < 0 the lowest (one of each cancel)."""
        return net_extra(self.maximised, self.minimised)

    @cached_property
    def _pool(self) -> tuple[Die, int]:
        """The die to roll and how many of it per trial."""
        from .pool import Die  # the sampler's: imported when the dice are rolled
        from .totals import expression_die, keep_die

        count, sides, extra, need = self.dice.count, self.dice.sides, self.extra, self.success
        if extra:
            return keep_die(count, sides, extra, need), 1
        if need is None:
            return expression_die(sides), count
        return Die((sides,), lambda face: face >= need, ("successes",)), count

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        import numpy as np

        from .pool import roll_pool

        die, count = self._pool
        totals = roll_pool(rng, die, count, trials).codes.astype(np.int64)
        if self.success is None:
            totals = np.maximum(totals + self.dice.modifier, 0)
        return {self.outcomes[0]: totals}

    def exact_seconds(self, fractions: bool = False) -> float:
        """Estimated seconds of the exact answer (the successes' binomials are always quick)."""
        if self.success is not None:
            return 0.0
        return exact_seconds(self.dice.count, self.dice.sides, self.extra, fractions)

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, Any]:
        count, sides, extra = self.dice.count, self.dice.sides, self.extra
        if self.success is None:
            seconds = self.exact_seconds(number is not float)
            require(seconds <= EXACT_SECONDS, "exact", self.describe(),
                    f"the exact answer would take about {seconds:.0f} s; sample instead (drop --exact"
                    f"{' and --fractions' if number is not float else ''}, or use --trials)")
            return {"sum": terms.shifted(self._kept(number), self.dice.modifier)}
        chance = number(Fraction(sides - self.success + 1, sides))
        showing = terms.binomial(count + abs(extra), chance)
        if extra >= 0:  # successes are the highest faces: keep at most `count` of them
            return {"successes": terms.transform(showing, lambda b: min(b, count))}
        return {"successes": terms.transform(showing, lambda b: max(b + extra, 0))}  # the |extra| highest go first

    def _kept(self, number: Callable[[Any], Any]) -> Any:
        """The pmf of the kept (or summed) total before the modifier: integer weights over
        sides**(dice rolled) where they are quick, else numpy's floats."""
        count, sides, extra = self.dice.count, self.dice.sides, self.extra
        quick = exact_seconds(count, sides, extra, True) <= QUICK
        if number is float and not quick:
            from .totals import keep_pmf

            return keep_pmf(count, sides, extra, float)
        weights = (_quick_weights if quick else _weights)(count, sides, extra)
        denominator = sides ** (count + abs(extra))
        if number is float:  # a quotient of whole numbers is exactly rounded (as float(Fraction(w, d)))
            return tuple(weight / denominator for weight in weights)
        return tuple(number(Fraction(weight, denominator)) for weight in weights)
