"""Toy's benchmark cases: the sixes of ten dice, against plain numpy and icepool."""

from __future__ import annotations

import numpy as np

from oddscalc.bench.core import Case, ExactCase

from .attacks import Sixes


def _baseline(rng: np.random.Generator, trials: int) -> np.ndarray:
    return (rng.integers(1, 7, size=(trials, 10)) == 6).sum(axis=1)


def cases() -> list[Case]:
    return [Case("toy sixes of 10 dice", Sixes(dice=10), _baseline, 10)]


def exact_cases() -> list[ExactCase]:
    return [ExactCase("toy sixes of 10 dice", Sixes(dice=10), "sixes", lambda ip: 10 @ ip.d6.map(lambda f: int(f == 6)))]
