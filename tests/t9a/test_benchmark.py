"""The 9th Age's benchmark case (`oddscalc.t9a.benchmark`) is the attack of the issue, exactly."""

from fractions import Fraction

from oddscalc import pmf as pmfs
from oddscalc.t9a import benchmark as t9a


def test_bench_case_is_the_issue_attack():
    (case,) = t9a.cases()
    assert case.name.startswith("t9a melee 20 attacks")
    exact = case.attack.exact(fractions=True)
    # 20 · 1/2 · 2/3 · (2/3 · 2/3) unsaved wounds, each 5/3 Health Points
    assert pmfs.mean(exact["unsaved"]) == Fraction(80, 27) and pmfs.mean(exact["health_lost"]) == Fraction(80, 27) * Fraction(5, 3)
