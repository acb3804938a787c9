"""A pool of D6 that must hit, then get past a save: the benchmark's canonical attack, side by
side with plain numpy and icepool. Its exact twin is two binomials (a die's chance of an unsaved
hit is its chance to hit times its save's to fail), so its exact answer needs no arrays and
imports no numpy; its sampler rolls the real dice (`pool`)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable

from . import terms
from .attack import Attack
from .dice import Check, FaceReader, Natural, check_sides
from ..errors import require
from .record import record

if TYPE_CHECKING:
    import numpy as np

    from .pool import Die, PoolRoll


@record
class HitAndSave(Attack):
    """`dice` D6 hit on `to_hit`+; each hit is then saved on `save`+ (natural 1s fail).

    The benchmark's canonical attack. Outcomes: `unsaved`, `hits`.
    """

    dice: int
    to_hit: int
    save: int

    outcomes = ("unsaved", "hits")

    def check(self) -> None:
        require(0 <= self.dice <= 1000, "dice", self.dice, "expected 0 to 1000 dice")

    @cached_property
    def _die(self) -> Die:
        from .pool import Die  # the sampler's: imported when the dice are rolled

        hit, save = Check(self.to_hit, Natural.SAVE), Check(self.save, Natural.SAVE)

        def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            read = FaceReader(faces)
            hits = read.check(hit)
            return hits & ~read.check(save), hits

        return Die(check_sides(hit) + check_sides(save), rule, self.outcomes)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        from .pool import roll_pool

        return roll_pool(rng, self._die, self.dice, trials)

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, tuple[Any, ...]]:
        hit = Check(self.to_hit, Natural.SAVE).chance()
        unsaved = hit * (1 - Check(self.save, Natural.SAVE).chance())  # hits, then fails its save
        return {"unsaved": terms.binomial(self.dice, number(unsaved)), "hits": terms.binomial(self.dice, number(hit))}
