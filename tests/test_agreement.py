"""Every sampler against its exact twin, over the one table of named cases (cases.py)."""

import numpy as np
import pytest
from agreement import assert_agrees
from cases import ALL


@pytest.mark.parametrize("name", ALL)
def test_sampler_agrees_with_exact(name):
    assert_agrees(ALL[name])


@pytest.mark.parametrize("name", ALL)
def test_exact_pmfs_are_distributions(name):
    attack = ALL[name]
    exact = attack.exact(fractions=True)
    assert tuple(exact) == tuple(attack.outcomes)
    floats = attack.exact()
    for outcome, pmf in exact.items():
        assert sum(pmf) == 1 and all(p >= 0 for p in pmf)
        got = np.asarray(floats[outcome])  # an array, or a tuple where the twin needs none: floats either way
        assert got.dtype == float and len(got) <= len(pmf)
        rational = np.asarray(pmf, dtype=float)
        # the float path agrees with the rational one to 1e-12 (anything it trims is below that)
        assert np.abs(got - rational[: len(got)]).max() < 1e-12
        assert rational[len(got):].sum() < 1e-12
