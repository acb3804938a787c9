"""The 9th Age cases of the benchmark: attacks and plain numpy baselines of the same attacks."""

from __future__ import annotations

import numpy as np

from . import Melee
from ..bench.core import Case, ExactCase, count_outcomes


def baseline_melee(rng: np.random.Generator, trials: int) -> np.ndarray:
    """20 attacks 4+ to hit, 3+ to wound, 5+ armour, Aegis 5+, Multiple Wounds (D3) vs 2 Health: plain numpy."""
    hit = rng.integers(1, 7, size=(trials, 20)) >= 4
    wounded = hit & (rng.integers(1, 7, size=(trials, 20)) >= 3)
    unsaved = wounded & (rng.integers(1, 7, size=(trials, 20)) < 5) & (rng.integers(1, 7, size=(trials, 20)) < 5)
    taken = np.minimum((rng.integers(1, 7, size=(trials, 20)) + 1) // 2, 2)  # D3, capped at 2 Health Points
    return count_outcomes((unsaved * taken).sum(axis=1), hit.sum(axis=1), wounded.sum(axis=1), unsaved.sum(axis=1))


def cases() -> list[Case]:
    """The 9th Age cases."""
    melee = Melee(attacks=20, offensive=4, defensive=4, strength=4, resilience=3, armour=2, aegis=5,
                  multiple_wounds="d3", health=2)
    return [Case("t9a melee 20 attacks 4+/3+/5+ save/Aegis 5+/MW D3 vs 2 health", melee, baseline_melee, 100, 5.0)]


# --- exact, against icepool (bench/exact.py) ---------------------------------------


def _melee(ip):
    # 4+ to hit, 3+ to wound, 5+ armour and Aegis 5+ both failed, Multiple Wounds (D3) capped at 2 Health Points
    def one(hit, wound, armour, aegis, multiple):
        return min((multiple + 1) // 2, 2) if hit >= 4 and wound >= 3 and armour < 5 and aegis < 5 else 0

    return 20 @ ip.map(one, ip.d6, ip.d6, ip.d6, ip.d6, ip.d6)


def exact_cases() -> list[ExactCase]:
    """The exact comparison with icepool: a sequence of rolls."""
    return [ExactCase("t9a melee, 20 attacks, Multiple Wounds (D3)",
                      Melee(attacks=20, offensive=4, defensive=4, strength=4, resilience=3, armour=2, aegis=5,
                            multiple_wounds="d3", health=2), "health_lost", _melee)]
