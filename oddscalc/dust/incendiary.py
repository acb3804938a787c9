"""Dust Tactics incendiaries (docs/rules.md §1.7, §1.8): X dice per model of the target
unit; an incendiary X/+ does 1 damage a hit, an armour-piercing incendiary X/skull removes
the whole unit on one hit."""

from __future__ import annotations

from typing import TYPE_CHECKING

import re
from dataclasses import KW_ONLY, field
from functools import cached_property

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.attack import option
from ..core.dice import rerolled
from ..errors import InputError, choose
from ..core.pool import Die, PoolRoll, roll_pool
from .attacks import COUNT, MODELS, RESILIENT, SAVE, Fire, target_words
from .die import (
    HIT,
    MAX_MODELS,
    MAX_PER_MODEL,
    CoverSave,
    Success,
    attack_die,
    check_count,
    check_models_firing,
    exact_line,
    sample_line,
)

_PER_MODEL = re.compile(r"^\s*([0-9]+)\s*(?:/\s*(\+|skull|☠|череп)\s*)?$", re.IGNORECASE)


def parse_per_model(text: str, name: str = "dice") -> int:
    """Read the X of `X/+` or `X/skull` (the bare `X` too)."""
    match = _PER_MODEL.match(str(text))
    if not match:
        raise InputError(name, text, "expected the dice per model X, like 1 (or 1/+, 1/skull)")
    return int(match.group(1))


@record
class _PerModel(Fire):
    """X dice per model of the target unit, for every firing model (docs/rules.md §1.7, §1.8)."""

    dice: int = field(metadata={"reader": parse_per_model})  # X, or "X/+", "X/skull"
    models: int = option(MODELS, 1, metavar="M")
    _: KW_ONLY
    count: int = option(COUNT, 1, metavar="C")

    ARGUMENTS = ("dice",)

    def _fired(self, pattern: str) -> str:
        """The description's start: `2 × 1/+ on 3 models, sustained`."""
        return (f"{'%d × ' % self.count if self.count > 1 else ''}{self.dice}/{pattern} on {self.models} "
                f"model{'s' * (self.models != 1)}" + "".join(f", {w}" for w in self.fire_words()))

    def check(self) -> None:
        check_count(self.dice, "dice", 1, MAX_PER_MODEL, "dice per model")
        check_count(self.models, "models", 1, MAX_MODELS, "models in the target unit")
        check_models_firing(self.count)
        self.check_fire()

    @property
    def rolled(self) -> int:
        """X dice per target model, for every firing model, doubled by burst fire."""
        return self.doubled(self.dice * self.models * self.count)


@record
class Incendiary(_PerModel):
    """Fire an incendiary X/+: X dice per model in the target unit, each hit 1 damage.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Whether cover saves apply is an open rules question (§1.7): by default the save
    applies; `ignore_cover` turns it off. Re-rolls re-roll the missed dice and burst fire
    doubles them, as on any weapon (the rulebook names no exception). `count` models fire it.
    Outcomes: damage, hits (after re-rolls, before saves).
    """

    _: KW_ONLY
    save: CoverSave = option(SAVE, CoverSave.NONE)
    ignore_cover: bool = option("Incendiary ignores the cover save (an open rules question; by default the --save "
                                "applies).", False)
    resilient: bool = option(RESILIENT, False)

    COMMAND = "dust incendiary"
    outcomes = ("damage", "hits")

    def describe(self) -> str:
        return "Dust incendiary " + self._fired("+") + target_words(self.cover, self.resilient)

    def check(self) -> None:
        choose(self, "save", CoverSave)
        super().check()

    @property
    def cover(self) -> CoverSave:
        """The save that applies (the open switch of docs/rules.md §1.7)."""
        return CoverSave.NONE if self.ignore_cover else self.save

    @cached_property
    def _die(self) -> Die:
        return attack_die(self.rerolls, Success.HIT, self.cover, 1)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return sample_line(rng, trials, self._die, self.rolled, self.resilient)

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        return exact_line(self.rolled, rerolled(HIT, self.rerolls), self.cover, 1, self.resilient, number)


@record
class ArmourPiercingIncendiary(_PerModel):
    """Fire an armour-piercing incendiary X/skull: X dice per model; one hit removes the unit.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    P(destroyed) = 1 - (2/3)^(X*M*C) for C weapons on M models (§1.8); re-rolls re-roll the
    missed dice (1 - (1 - p)^n with p = 5/9 sustained) and burst fire doubles them.
    Outcome: destroyed (0 or 1).
    """

    COMMAND = "dust ap-incendiary"
    outcomes = ("destroyed",)
    events = ("destroyed",)

    def describe(self) -> str:
        return "Dust AP incendiary " + self._fired("skull")

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hits = roll_pool(rng, attack_die(self.rerolls), self.rolled, trials).total("hits")
        return {"destroyed": hits > 0}  # §1.8: one hit or more removes the unit

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        missed = (1 - number(rerolled(HIT, self.rerolls))) ** self.rolled
        return {"destroyed": pmfs.array([missed, 1 - missed])}
