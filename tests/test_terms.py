"""Pmfs as tuples of Python numbers (`terms`): the binomial's terms, exact and in floats, and
their reading in floats; the array algebra's binomial is the same terms."""

import math
from fractions import Fraction

import numpy as np
import pytest

from oddscalc import pmf as pmfs
from oddscalc import terms

F = Fraction


@pytest.mark.parametrize("n, p", [(0, F(1, 2)), (1, F(1, 3)), (5, F(5, 6)), (12, F(2, 7)), (40, F(1, 36))])
def test_the_exact_terms_are_the_binomial_formula(n, p):
    expected = tuple(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))
    assert terms.binomial(n, p) == expected
    assert all(isinstance(term, Fraction) for term in terms.binomial(n, p))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 60, 1000])
@pytest.mark.parametrize("p", [F(1, 6), F(1, 2), F(2, 3), F(35, 36), F(1, 1000)])
def test_the_float_terms_are_the_exact_ones_to_within_rounding(n, p):
    floats, exact = terms.binomial(n, float(p)), terms.binomial(n, p)
    assert len(floats) == n + 1 and all(isinstance(term, float) for term in floats)
    largest = max(exact)
    for term, true in zip(floats, exact):  # relative to the term, or to the largest term where it underflows
        assert abs(term - float(true)) <= 1e-13 * max(float(true), 1e-300) or abs(term - float(true)) < 1e-16 * largest
    assert math.fsum(floats) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("p, point", [(0.0, 0), (1.0, 5), (F(0), 0), (F(1), 5)])
def test_a_certain_or_impossible_trial_gives_one_outcome(p, point):
    assert terms.binomial(5, p) == tuple(1 if k == point else 0 for k in range(6))


def test_the_array_algebra_s_binomial_is_these_terms():
    assert tuple(pmfs.binomial(30, 1 / 3).tolist()) == terms.binomial(30, 1 / 3)
    assert tuple(pmfs.binomial(30, F(1, 3))) == terms.binomial(30, F(1, 3))
    assert not pmfs.binomial(30, 1 / 3).flags.writeable  # shared between callers: read-only


def test_in_floats_keeps_a_tuple_a_tuple_and_an_array_an_array():
    assert terms.in_floats((F(1, 4), F(3, 4))) == (0.25, 0.75)
    assert terms.in_floats([F(1, 2), 0, F(1, 2)]) == (0.5, 0.0, 0.5)
    array = terms.in_floats(np.array([F(1, 4), F(3, 4)], dtype=object))
    assert isinstance(array, np.ndarray) and array.dtype == float and array.tolist() == [0.25, 0.75]
