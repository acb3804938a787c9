"""Kept and summed totals of dice (totals.py): the float pmfs (by enumeration of multisets, or by order statistics
on Fourier transforms) against every roll counted by brute force and against the exact rationals of terms.py."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from oddscalc.core import totals
from oddscalc.core.terms import enumerable


def brute(dice: int, sides: int, extra: int) -> list[Fraction]:
    """P(total) of `dice` kept of `dice + |extra|`: every roll counted."""
    counted: Counter[int] = Counter()
    for roll in itertools.product(range(1, sides + 1), repeat=dice + abs(extra)):
        ordered = sorted(roll)
        counted[sum(ordered[len(ordered) - dice:] if extra >= 0 else ordered[:dice])] += 1
    rolls = sides ** (dice + abs(extra))
    return [Fraction(counted[total], rolls) for total in range(dice * sides + 1)]


@pytest.mark.parametrize("dice, sides, extra", [(1, 6, 0), (2, 6, 1), (3, 6, -1), (2, 4, 2), (1, 3, -2), (3, 6, 2)])
def test_a_kept_total_is_every_roll_counted(dice, sides, extra):
    expected = brute(dice, sides, extra)
    assert list(totals.keep_pmf(dice, sides, extra)) == expected
    if extra:
        assert totals.keep_probabilities(dice, sides, extra) == pytest.approx([float(p) for p in expected], abs=1e-15)
    assert totals.keep_pmf(dice, sides, extra, float) == pytest.approx([float(p) for p in expected], abs=1e-15)


@pytest.mark.parametrize("dice, extra", [(24, 4), (20, 3), (24, -4)])
def test_the_order_statistics_path_agrees_with_the_exact_rationals(dice, extra):
    assert not enumerable(dice + abs(extra), 6)  # the Fourier path, not the multisets'
    fast = totals.keep_probabilities(dice, 6, extra)
    exact = [float(p) for p in totals.keep_pmf(dice, 6, extra)]
    assert fast == pytest.approx(exact, abs=1e-13) and fast.sum() == pytest.approx(1) and (fast >= 0).all()


def test_a_sum_and_a_shift():
    assert list(totals.sum_pmf(2, 6)) == brute(2, 6, 0)
    assert totals.sum_pmf(3, 4, float) == pytest.approx([float(p) for p in brute(3, 4, 0)])
    pmf = np.array([0.1, 0.2, 0.3, 0.4])
    assert list(totals.shifted(pmf, 1)) == pytest.approx([0, 0.1, 0.2, 0.3, 0.4])
    assert list(totals.shifted(pmf, -2)) == pytest.approx([0.6, 0.4])  # max(X - 2, 0)


def test_the_terms_left_out_of_a_large_kept_total_move_no_chance_beyond_rounding(monkeypatch):
    """`NEGLIGIBLE`: the faces v and counts c whose weight is below it are left out (200d100 keep 200 of 220: 0.39 s
    to 0.07 s). Against every term kept, no chance moves by more than 2e-17; both agree with the exact rationals."""
    dice, sides, extra = 24, 10, 6
    assert not enumerable(dice + extra, sides)
    exponents = []
    real_power = totals.power
    monkeypatch.setattr(totals, "power", lambda values, exponent: exponents.append(exponent) or real_power(values,
                                                                                                        exponent))
    quick = totals.keep_probabilities(dice, sides, extra)
    assert max(exponents) > 0  # terms were left out: the lowest c kept is above 0 for some face
    monkeypatch.setattr(totals, "NEGLIGIBLE", 0.0)
    exponents.clear()
    whole = totals.keep_probabilities(dice, sides, extra)
    assert set(exponents) == {0}
    assert np.abs(quick - whole).max() <= 2e-17
    exact = [float(p) for p in totals.keep_pmf(dice, sides, extra)]
    assert quick == pytest.approx(exact, abs=1e-13) and whole == pytest.approx(exact, abs=1e-13)


@pytest.mark.parametrize("dice, sides, extra", [(10, 100, 30), (10, 100, -30), (200, 100, 20)])
def test_faces_that_weigh_nothing_are_passed_over_wherever_they_are(monkeypatch, dice, sides, extra):
    """With 30 of 40 d100 dropped, the lowest faces weigh nothing (30 ones: 1e-51) but the higher ones do: each
    face is passed over on its own."""
    quick = totals.keep_probabilities(dice, sides, extra)
    monkeypatch.setattr(totals, "NEGLIGIBLE", 0.0)
    whole = totals.keep_probabilities(dice, sides, extra)
    assert np.abs(quick - whole).max() <= 2e-17 and quick.sum() == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("exponent", [0, 1, 2, 7, 200])
def test_a_power_by_squaring_is_the_power(exponent):
    values = np.exp(1j * np.linspace(0, 3, 9)) * np.linspace(0.5, 1, 9)
    assert totals.power(values, exponent) == pytest.approx(values ** exponent, rel=1e-12, abs=1e-300)
