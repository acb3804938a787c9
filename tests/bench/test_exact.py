"""The exact benchmark (`oddscalc.bench.exact`): each query is the same question in oddscalc and in
icepool, and both give the same pmf."""

from fractions import Fraction

import numpy as np
import pytest

from oddscalc.core import pmf as pmfs
from oddscalc.bench import exact


@pytest.mark.parametrize("case", exact.cases(), ids=lambda case: case.name)
def test_the_exact_benchmark_compares_the_same_pmf_as_icepool(case):
    """Each query of the exact benchmark is the same question in both engines: equal pmfs, exactly."""
    icepool = pytest.importorskip("icepool")
    die = case.icepool(icepool)
    theirs = [Fraction(die.quantity(outcome), die.denominator()) for outcome in range(die.max_outcome() + 1)]
    ours = case.attack.exact(fractions=True)[case.outcome]
    assert list(pmfs.trim(ours)) == theirs
    floats = case.attack.exact()[case.outcome]
    assert np.abs(floats[: len(theirs)] - np.array(theirs, dtype=float)).max() < 1e-12
