from fractions import Fraction

import numpy as np
from agreement import as_pmf, enumerate_faces, exact_list
from hypothesis import given
from hypothesis import strategies as st

from oddscalc.core import pmf as pmfs

F = Fraction


def test_binomial_exact_and_float_agree():
    exact = pmfs.binomial(5, F(1, 3))
    assert exact_list(exact) == [F(32, 243), F(80, 243), F(80, 243), F(40, 243), F(10, 243), F(1, 243)]
    assert np.allclose(pmfs.binomial(5, 1 / 3), np.array(exact, dtype=float))


def test_power_is_repeated_convolution():
    d6 = pmfs.array([F(0)] + [F(1, 6)] * 6)
    expected = as_pmf(enumerate_faces((6, 6, 6), lambda a, b, c: a + b + c))
    assert exact_list(pmfs.power(d6, 3)) == expected


def test_thin_is_binomial_of_a_binomial():
    # 4 dice hit on 1/2, each hit survives on 2/3: the same as 4 dice at 1/3
    assert exact_list(pmfs.thin(pmfs.binomial(4, F(1, 2)), F(2, 3))) == exact_list(pmfs.binomial(4, F(1, 3)))


def test_compound_sum():
    # N ~ 1 or 2 with equal odds, each item 0 or 1 with equal odds
    count = pmfs.array([F(0), F(1, 2), F(1, 2)])
    each = pmfs.array([F(1, 2), F(1, 2)])
    assert exact_list(pmfs.compound(count, each)) == [F(3, 8), F(1, 2), F(1, 8)]


def test_transform_and_scale():
    pmf = pmfs.array([F(1, 4), F(1, 4), F(1, 2)])
    assert exact_list(pmfs.scale(pmf, 3)) == [F(1, 4), 0, 0, F(1, 4), 0, 0, F(1, 2)]
    assert exact_list(pmfs.transform(pmf, lambda x: min(x, 1))) == [F(1, 4), F(3, 4)]


@given(st.integers(0, 12), st.fractions(min_value=0, max_value=1))
def test_binomial_sums_to_one_and_at_least_never_rises(n, p):
    pmf = pmfs.binomial(n, p)
    assert sum(pmf) == 1
    at_least = pmfs.at_least(pmf)
    assert all(a >= b for a, b in zip(at_least, at_least[1:]))


def test_trim():
    assert list(pmfs.trim(np.array([0.5, 0.5, 0.0, 0.0]))) == [0.5, 0.5]
    assert list(pmfs.trim(np.array([0.0]))) == [0.0]
