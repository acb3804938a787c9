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
        assert np.allclose(floats[outcome], np.asarray(pmf, dtype=float))
