"""Dust Tactics cases of the benchmark: attacks and plain numpy baselines of the same attacks."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import CoverSave, Phaser, WeaponLine
from .die import HIT_FACE
from ..bench.core import Case, ExactCase, count_outcomes


def _baseline_hits(rng: np.random.Generator, trials: int, dice: int, rerolls: int) -> np.ndarray:
    """Plain numpy: roll `dice` D6 per trial, re-roll the misses `rerolls` times; hit mask."""
    hit = rng.integers(1, 7, size=(trials, dice)) >= HIT_FACE
    for _ in range(rerolls):
        again = rng.integers(1, 7, size=(trials, dice)) >= HIT_FACE
        hit |= again
    return hit


def baseline_phaser(rng: np.random.Generator, trials: int) -> np.ndarray:
    """Phaser 2z3 sustained in plain numpy: 2 dice re-rolled once, then 3 dice per hit."""
    hits = _baseline_hits(rng, trials, 2, 1).sum(axis=1)
    blast = rng.integers(1, 7, size=(trials, 6)) >= HIT_FACE
    live = np.arange(6)[None, :] < (hits * 3)[:, None]
    damage = (blast & live).sum(axis=1)
    return count_outcomes(damage, hits)


def baseline_hard_cover(rng: np.random.Generator, trials: int) -> np.ndarray:
    """6 dice sustained into a miss-save in plain numpy: a hit survives on a hit face."""
    hit = _baseline_hits(rng, trials, 6, 1)
    saved = rng.integers(1, 7, size=(trials, 6)) < HIT_FACE
    return count_outcomes((hit & ~saved).sum(axis=1), hit.sum(axis=1))


def cases() -> list[Case]:
    """The Dust Tactics cases."""
    return [
        Case("dust phaser 2z3 sustained", Phaser(2, 3, sustained=True), baseline_phaser, 10, 5.0),
        Case("dust 6 dice sustained, miss-save (hard cover)", WeaponLine(6, sustained=True, save=CoverSave.MISS),
             baseline_hard_cover, 18, 5.0),
    ]


# --- exact, against icepool (bench/exact.py) ---------------------------------------


def _phaser(ip: Any) -> Any:
    hit = ip.d6.map(lambda face: int(face >= 5))
    return (2 @ hit).map(lambda hits: (3 * hits) @ hit)


def _line(ip: Any) -> Any:
    return 6 @ ip.map(lambda first, again, save: int((first >= 5 or again >= 5) and save >= 5), ip.d6, ip.d6, ip.d6)


def exact_cases() -> list[ExactCase]:
    """The exact comparison with icepool: a phaser's two stages, a sustained attack against a save."""
    return [ExactCase("dust phaser 2z3", Phaser(2, 3), "damage", _phaser),
            ExactCase("dust 6 dice sustained, miss-save", WeaponLine(6, sustained=True, save="miss"), "damage",
                      _line)]
