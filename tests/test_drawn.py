"""A sample drawn from a joint law (core/drawn.py): rows merged, drawn by their chances, read per trial, counted
over the rows."""

from __future__ import annotations

import numpy as np
import pytest

from agreement import dkw_bound
from oddscalc.core.drawn import Drawn, JointLaw
from oddscalc.core.sampling import histograms

NAMES = ("win", "kills")
TABLE = np.array([[1, 3], [0, 0], [1, 3], [0, 1], [1, 2]])
CHANCES = np.array([0.25, 0.25, 0.125, 0.0, 0.375])


def test_the_same_ways_are_merged_their_chances_summed_and_the_impossible_left_out():
    law = JointLaw.of(NAMES, TABLE, CHANCES)
    ways = {tuple(column): chance for column, chance in zip(law.values.T, np.diff(law.cumulative, prepend=0))}
    assert ways == {(0, 0): 0.25, (1, 2): 0.375, (1, 3): 0.375}
    assert law.cumulative[-1] == 1.0 and law.values.shape == (2, 3)


def test_each_trial_reads_its_way_and_the_counts_are_those_of_the_per_trial_values():
    law = JointLaw.of(NAMES, TABLE, CHANCES)
    drawn = law.draw(np.random.default_rng(5), 20_000)
    assert isinstance(drawn, Drawn) and list(drawn) == list(NAMES) and len(drawn) == 2
    for name in NAMES:
        assert np.array_equal(drawn[name], law.values[NAMES.index(name)][drawn.rows])
        assert np.array_equal(histograms(drawn, NAMES)[name], np.bincount(drawn[name]))
    # a win always comes with 2 or 3 kills, a loss with none: the ways are drawn whole
    assert set(zip(drawn["win"].tolist(), drawn["kills"].tolist())) == {(0, 0), (1, 2), (1, 3)}


@pytest.mark.parametrize("trials", [1, 1000, 200_000])
def test_the_draws_follow_the_law(trials):
    law = JointLaw.of(NAMES, TABLE, CHANCES)
    counts = histograms(law.draw(np.random.default_rng(11), trials), ("kills",))["kills"]
    assert counts.sum() == trials and counts[1] == 0  # an impossible way is never drawn
    exact = np.array([0.25, 0.0, 0.375, 0.375])
    sampled = np.cumsum(np.pad(counts, (0, 4 - len(counts)))) / trials
    assert np.abs(sampled - np.cumsum(exact)).max() <= dkw_bound(trials, 1e-6)


class Highest:
    """A generator whose every uniform number is past a law's last cumulative chance (as a float sum a hair under 1
    would leave one)."""

    @staticmethod
    def random(trials):
        return np.full(trials, 0.95)


def test_a_float_sum_short_of_one_never_draws_past_the_last_way():
    law = JointLaw(NAMES, TABLE[:2].T.copy(), np.array([0.5, 0.9]))
    assert law.draw(Highest(), 3).rows.tolist() == [1, 1, 1]


def test_chances_that_do_not_sum_to_one_are_read_as_shares():
    law = JointLaw.of(NAMES, TABLE, CHANCES * 4)
    assert law.cumulative.tolist() == [0.25, 0.625, 1.0]


class Half:
    """A generator whose every uniform number is exactly 0.5."""

    @staticmethod
    def random(trials):
        return np.full(trials, 0.5)


def test_a_number_on_a_boundary_draws_the_way_above_it_and_counts_are_whole_numbers():
    """Way k is drawn for u in [F(k-1), F(k)): each its chance's share of [0, 1)."""
    law = JointLaw(NAMES, TABLE[:2].T.copy(), np.array([0.5, 1.0]))
    drawn = law.draw(Half(), 4)
    assert drawn.rows.tolist() == [1, 1, 1, 1]
    counts = drawn.counts(NAMES)
    assert counts["win"].dtype == np.int64 and counts["win"].tolist() == [4, 0]  # no win, four times
