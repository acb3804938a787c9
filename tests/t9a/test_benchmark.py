"""The 9th Age's benchmark case (`oddscalc.t9a.benchmark`) is the attack of the issue, exactly."""

from fractions import Fraction

from oddscalc import pmf as pmfs
from oddscalc.t9a import benchmark as t9a


def test_bench_case_is_the_issue_attack():
    case = t9a.cases()[0]
    assert case.name.startswith("t9a melee 20 attacks")
    exact = case.attack.exact(fractions=True)
    # 20 · 1/2 · 2/3 · (2/3 · 2/3) unsaved wounds, each 5/3 Health Points
    assert pmfs.mean(exact["unsaved"]) == Fraction(80, 27) and pmfs.mean(exact["health_lost"]) == Fraction(80, 27) * Fraction(5, 3)


def test_the_combat_baseline_is_the_same_combat():
    """The plain numpy baseline of the combat plays what the exact twin computes: P(win) within 5 standard
    errors."""
    import numpy as np

    (case,) = [case for case in t9a.cases() if "combat" in case.name]
    wins = case.baseline(np.random.default_rng(7), 200_000)
    exact = case.attack.exact()["win"][1]
    assert abs(wins.mean() - exact) < 5 * np.sqrt(exact * (1 - exact) / len(wins))
