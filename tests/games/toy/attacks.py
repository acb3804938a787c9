"""Toy's one attack: `dice` D6 rolled, the sixes counted (a binomial: its exact twin is one line)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar, Mapping

import numpy as np

from oddscalc.core import pmf
from oddscalc.core.attack import Attack, option
from oddscalc.errors import require


@dataclass(frozen=True)
class Sixes(Attack):
    """Roll `dice` D6 and count the sixes."""

    COMMAND: ClassVar[str] = "toy shoot"
    outcomes = ("sixes",)
    dice: int = option("Dice to roll.", 1)

    def check(self) -> None:
        require(1 <= self.dice <= 100, "dice", self.dice, "expected 1 to 100 dice")

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        return {"sixes": rng.binomial(self.dice, 1 / 6, size=trials)}

    def pmfs(self, number: Callable[[Any], Any]) -> Mapping[str, np.ndarray]:
        return {"sixes": pmf.binomial(self.dice, number(Fraction(1, 6)))}
