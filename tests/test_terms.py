"""Pmfs as tuples of Python numbers (`terms`): the binomial's terms, exact and in floats, and
their reading in floats; the array algebra's binomial is the same terms."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from oddscalc.core import pmf as pmfs
from oddscalc.core import terms

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


@pytest.mark.parametrize("count, sides", [(1, 6), (2, 6), (3, 3), (4, 6), (5, 2), (7, 10)])
def test_sum_weights_count_every_sequence_of_faces(count, sides):
    brute = [0] * (count * sides + 1)
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        brute[sum(faces)] += 1
    assert terms.sum_weights(count, sides) == tuple(brute)


def test_convolve_adds_weights_of_independent_totals():
    assert terms.convolve([1, 1], [1, 2, 1]) == [1, 3, 3, 1]
    assert terms.convolve([0, 2], [3]) == [0, 6]


def test_shifted_adds_the_modifier_and_a_total_below_zero_counts_as_zero():
    assert terms.shifted((F(1, 2), F(1, 2)), 2) == (0, 0, F(1, 2), F(1, 2))
    assert all(isinstance(p, Fraction) for p in terms.shifted((F(1, 2), F(1, 2)), 2))
    assert terms.shifted((0.25, 0.25, 0.25, 0.25), -2) == (0.75, 0.25)
    assert terms.shifted((0.25, 0.25, 0.25, 0.25), -9) == (1.0,)
    assert terms.shifted((0.5, 0.5), 0) == (0.5, 0.5)


def test_transform_moves_each_weight_where_it_lands():
    assert terms.transform((F(1, 4), F(1, 4), F(1, 2)), lambda x: min(x, 1)) == (F(1, 4), F(3, 4))
    assert terms.transform((0.5, 0.0, 0.5, 0.0), lambda x: 3 - x) == (0.0, 0.5, 0.0, 0.5)  # a weightless x adds nothing
    assert terms.transform((0.5, 0.5, 0.0), lambda x: 2 * x) == (0.5, 0.0, 0.5)  # no trailing zero from a weightless x
    assert tuple(pmfs.transform(np.array([F(1, 4), F(3, 4)], dtype=object), lambda x: x + 1)) == (0, F(1, 4), F(3, 4))


def test_keep_weights_keeps_the_highest_of_d6_unless_told():
    assert terms.keep_weights(2) == terms.sum_weights(2, 6)  # six sides, nothing dropped: the plain sum
    assert terms.keep_weights(1, 6, 1) == (0, 1, 3, 5, 7, 9, 11)  # the higher of two D6
    assert terms.keep_weights(1, 6, -1) == (0, 11, 9, 7, 5, 3, 1)  # the lower


def test_transform_of_one_outcome_and_of_no_weight():
    assert terms.transform((F(1),), lambda x: x + 2) == (0, 0, F(1))
    assert terms.transform((0.0, 0.0), lambda x: x + 1) == (0.0,)
