"""Core cases of the benchmark: the canonical attack and a maximised roll, with plain numpy
baselines; and `Case`, what every game's cases are made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..dice import DiceExpression
from ..roll import HitAndSave, Roll


@dataclass(frozen=True)
class Case:
    """An attack, a plain numpy baseline for the same attack, and the ratio to reach."""

    name: str
    attack: object
    baseline: Callable[[np.random.Generator, int], np.ndarray]  # returns the main outcome per trial
    dice: int  # dice per trial, for the effective dice rate
    target: float | None = None


def count_outcomes(*outcomes: np.ndarray) -> np.ndarray:
    """Histogram every outcome, as the engine does; return the main one's values (for checks)."""
    for values in outcomes:
        np.bincount(values)
    return outcomes[0]


def baseline_canonical(rng: np.random.Generator, trials: int) -> np.ndarray:
    """10 dice hit on 4+, then a 5+ save per hit: plain numpy, stage by stage."""
    hit = rng.integers(1, 7, size=(trials, 10)) >= 4
    saved = rng.integers(1, 7, size=(trials, 10)) >= 5
    return count_outcomes((hit & ~saved).sum(axis=1), hit.sum(axis=1))


def baseline_maximised_2d6(rng: np.random.Generator, trials: int) -> np.ndarray:
    faces = np.sort(rng.integers(1, 7, size=(trials, 3)), axis=1)
    return count_outcomes(faces[:, 1:].sum(axis=1))


def cases() -> list[Case]:
    """The game-free cases."""
    return [
        Case("canonical: 10 dice hit 4+, save 5+", HitAndSave(10, 4, 5), baseline_canonical, 10, 10.0),
        Case("maximised 2d6", Roll(DiceExpression.parse("2d6"), maximised=1), baseline_maximised_2d6, 3),
    ]


