import math
import pickle
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oddscalc.core.distribution import Distribution, dkw_bound, interval


def test_statistics_of_an_exact_pmf():
    d = Distribution.from_pmf([0.25, 0.5, 0.25])
    assert d.exact and d.trials is None
    assert d.mean == pytest.approx(1.0)
    assert d.sd == pytest.approx(math.sqrt(0.5))
    assert d.at_least(1) == pytest.approx(0.75)
    assert d.at_least(0) == 1.0 and d.at_least(3) == 0.0
    assert d.at_most(0) == pytest.approx(0.25)
    assert d.quantile(0.25) == 0 and d.quantile(0.26) == 1 and d.median == 1 and d.quantile(1) == 2
    assert d.mean_stderr == 0.0 and d.at_least_stderr(1) == 0.0


def test_statistics_of_samples():
    d = Distribution.from_samples(np.array([0, 1, 1, 3]))
    assert d.trials == 4
    assert list(d.pmf) == [0.25, 0.5, 0.0, 0.25]
    assert d.mean == pytest.approx(1.25)
    assert d.mean_stderr == pytest.approx(d.sd / 2)
    assert d.at_least_stderr(1) == pytest.approx(math.sqrt(0.75 * 0.25 / 4))


def test_immutable_and_trimmed():
    d = Distribution.from_pmf(np.array([0.5, 0.5, 0.0]))
    assert d.highest == 1
    with pytest.raises(ValueError):
        d.pmf[0] = 1.0
    with pytest.raises(AttributeError):
        d.trials = 5


def test_bad_pmfs_are_refused():
    with pytest.raises(ValueError):
        Distribution.from_pmf([])
    with pytest.raises(ValueError):
        Distribution.from_pmf([1.5, -0.5])
    with pytest.raises(ValueError):
        Distribution.from_samples(np.array([-1, 2]))


def test_cdf_gap_and_equality():
    a = Distribution.from_pmf([0.5, 0.5])
    b = Distribution.from_pmf([0.25, 0.5, 0.25])
    assert a.cdf_gap(b) == pytest.approx(0.25)
    assert a == Distribution.from_pmf([0.5, 0.5]) and a != b


def test_dkw_bound_shrinks_with_trials():
    assert dkw_bound(10_000, 0.05) == pytest.approx(math.sqrt(math.log(40) / 20_000))
    assert dkw_bound(40_000) == pytest.approx(dkw_bound(10_000) / 2)


@given(st.lists(st.integers(0, 1000), min_size=1, max_size=12).filter(lambda c: sum(c) > 0))
def test_counts_make_a_distribution(counts):
    d = Distribution.from_counts(np.array(counts))
    assert d.pmf.sum() == pytest.approx(1.0)
    at_least = d.at_least_all
    assert all(x >= y - 1e-12 for x, y in zip(at_least, at_least[1:]))
    assert 0 <= d.quantile(0.5) <= d.highest
    assert d.at_least(1) + d.at_most(0) == pytest.approx(1.0)


def test_a_certain_event_has_no_standard_error():
    d = Distribution.from_samples(np.array([2, 3, 3, 4] * 1000))
    assert d.at_least_stderr(2) == 0.0 and d.at_least_stderr(5) == 0.0 and d.at_least_stderr(3) > 0


def test_repr_says_how_it_was_made():
    assert repr(Distribution.from_pmf([0.25, 0.5, 0.25])) == "Distribution(mean=1, sd=0.7071, max=2, exact)"
    assert repr(Distribution.from_samples(np.array([0, 2]))) == "Distribution(mean=1, sd=1, max=2, 2 trials)"


def test_edges_of_at_most_probability_and_quantile():
    d = Distribution.from_pmf([0.25, 0.5, 0.25])
    assert d.at_most(-1) == 0.0 and d.at_most(1) == pytest.approx(0.75) and d.at_most(9) == pytest.approx(1.0)
    assert d.probability(-1) == 0.0 and d.probability(1) == 0.5 and d.probability(3) == 0.0
    assert list(d.cdf) == pytest.approx([0.25, 0.75, 1.0]) and list(d.outcomes) == [0, 1, 2]
    assert d.quantile(0) == 0
    with pytest.raises(ValueError):
        d.quantile(1.5)
    with pytest.raises(ValueError):
        Distribution(np.array([1.0]), trials=0)
    assert Distribution.from_pmf([0.0, 0.0]).highest == 0  # no probability anywhere: only the 0 outcome


def test_samples_of_a_zero_and_the_stderr_of_a_probability():
    d = Distribution.from_samples(np.zeros(10, dtype=int))
    assert d.pmf.tolist() == [1.0] and d.trials == 10 and d.sd == 0
    sampled = Distribution.from_counts(np.array([30, 70]))
    assert sampled.stderr(0.3) == pytest.approx(math.sqrt(0.3 * 0.7 / 100))
    assert sampled.stderr(0.0) == 0 and sampled.stderr(1.0) == 0


def test_dkw_bound_at_the_default_level():
    assert dkw_bound(1000) == pytest.approx(math.sqrt(math.log(2 / 1e-3) / 2000))


def test_a_rare_events_interval_is_exact_and_never_seen_gives_about_three_over_n():
    """Clopper-Pearson: at the upper end, seeing k or fewer has chance 2.5 %; at the lower, k or more."""
    from scipy.stats import binom

    trials = 1_000_000
    never = Distribution.from_counts(np.array([trials, 0]))
    low, high = never.interval(0.0)
    assert low == 0 and (1 - high) ** trials == pytest.approx(0.05) and high == pytest.approx(3 / trials, rel=0.01)
    seen = Distribution.from_counts(np.array([trials - 3, 3]))
    low, high = seen.interval(3 / trials)
    assert binom.cdf(3, trials, high) == pytest.approx(0.025) and binom.sf(2, trials, low) == pytest.approx(0.025)
    assert Distribution.from_pmf([0.5, 0.5]).interval(0.5) == (0.5, 0.5)  # exact: no range
    low, high = Distribution.from_counts(np.array([0, 50])).interval(1.0)  # always seen: the mirror of never
    assert high == 1 and low ** 50 == pytest.approx(0.05)
    low, high = interval(4 / 50, 50)  # a share of a study's cell: the same range
    assert binom.cdf(4, 50, high) == pytest.approx(0.025) and binom.sf(3, 50, low) == pytest.approx(0.025)


def test_a_tuple_an_array_and_fractions_make_the_same_distribution():
    values = (F(1, 6), F(1, 3), F(0), F(1, 2), F(0))
    from_fractions = Distribution.from_pmf(values)
    from_floats = Distribution.from_pmf(tuple(float(v) for v in values))
    from_array = Distribution.from_pmf(np.array([float(v) for v in values]))
    assert from_fractions == from_floats == from_array
    assert from_array.probabilities == (1 / 6, 1 / 3, 0.0, 0.5)  # trailing zero dropped
    assert from_array.pmf.tolist() == list(from_array.probabilities)


def test_figures_are_exactly_rounded_sums():
    values = [F(1, 7)] * 7
    d = Distribution.from_pmf(values)
    exact_mean = sum(k * F(1, 7) for k in range(7))
    assert abs(d.mean - float(exact_mean)) <= 2 * math.ulp(3.0)
    assert d.at_least(3) == d.tails[3] == d.at_least_all[3] == 1 / 7 + 1 / 7 + 1 / 7 + 1 / 7  # summed from the top
    assert d.at_most(2) == d.cdf[2] == 1 / 7 + 1 / 7 + 1 / 7
    assert d.variance == pytest.approx(float(sum((k - exact_mean) ** 2 * F(1, 7) for k in range(7))), rel=1e-15)


def test_the_arrays_are_the_running_sums():
    rng = np.random.default_rng(4)
    d = Distribution.from_counts(rng.integers(0, 50, size=40))
    assert d.cdf.tolist() == np.minimum(np.cumsum(d.pmf), 1.0).tolist()
    assert d.at_least_all.tolist() == np.minimum(np.cumsum(d.pmf[::-1])[::-1], 1.0).tolist()
    assert d.outcomes.tolist() == list(range(len(d.pmf)))
    for q in (0.0, 0.1, 0.5, 0.9, 1.0):
        assert d.quantile(q) == min(int(np.searchsorted(d.cdf, q - 1e-12)), d.highest)


def test_the_gap_between_two_cdfs():
    a, b = Distribution.from_pmf([0.5, 0.5]), Distribution.from_pmf([0.25, 0.25, 0.5])
    assert a.cdf_gap(b) == b.cdf_gap(a) == 0.5
    assert a.cdf_gap(a) == 0.0


def test_a_distribution_is_pickled_as_what_makes_it():
    d = Distribution.from_counts([3, 0, 5])
    d.pmf  # its array, made on the way, is not sent
    again = pickle.loads(pickle.dumps(d))
    assert again == d and again.trials == 8 and "pmf" not in vars(again)


def test_counts_are_read_exactly():
    d = Distribution.from_counts(np.array([1, 2, 0, 3]))
    assert d.probabilities == (1 / 6, 2 / 6, 0.0, 3 / 6) and d.trials == 6
    with pytest.raises(ValueError):
        Distribution.from_pmf([[0.5, 0.5]])
    with pytest.raises(ValueError):
        Distribution.from_pmf(np.array([[0.5], [0.5]]))


def test_what_is_not_a_pmf_is_refused_saying_so():
    for bad in ([], np.array([[0.5], [0.5]]), np.array(0.5), [[0.5, 0.5]], 0.5):
        with pytest.raises(ValueError, match="a pmf is a non-empty 1-D array"):
            Distribution.from_pmf(bad)
    with pytest.raises(ValueError, match="probabilities cannot be negative"):
        Distribution.from_pmf([0.5, -1e-11, 0.5])
    with pytest.raises(ValueError, match="needs at least one trial"):
        Distribution([1.0], 0)
    with pytest.raises(ValueError, match="outcomes must be non-negative integers"):
        Distribution.from_samples(np.array([1, -1]))
    with pytest.raises(ValueError, match=r"q must be in \[0, 1\]"):
        Distribution.from_pmf([1.0]).quantile(1.5)


def test_rounding_below_zero_is_no_probability():
    d = Distribution.from_pmf([-1e-12, 1.0, -1e-13])  # 1 - p computed as -1e-13: a zero
    assert d.probabilities == (0.0, 1.0) and d.probability(0) == 0.0
    assert Distribution([1.0], 1).trials == 1  # one trial is a sample


def test_outside_the_outcomes():
    d = Distribution.from_pmf([0.7, 0.2])  # (left short of 1: read as given)
    assert d.at_least(0) == d.at_least(-2) == 1.0  # every outcome is at least 0
    assert d.at_most(-1) == d.at_most(-2) == 0.0
    assert d.probability(0) == 0.7 and d.probability(-1) == 0.0 and d.probability(2) == 0.0
    assert d.quantile(0.95) == d.highest == 1  # never reached: the highest outcome


def test_a_cumulative_sum_past_one_by_rounding_is_one():
    d = Distribution.from_counts([14, 12, 20, 28, 35, 11, 4])  # summed in order: 1 + 2.2e-16
    assert d.cdf[-1] == 1.0 and d.at_least_all[0] == 1.0 and max(d.cdf) <= 1.0


def test_a_sampled_event_s_error_is_none_when_it_is_certain_within_rounding():
    d = Distribution.from_counts([500, 500])
    assert d.stderr(1e-13) == 0.0 and d.stderr(1 - 1e-13) == 0.0 and d.stderr(0.5) == pytest.approx(math.sqrt(0.25 / 1000))
    assert d.interval(0.5, 0.99) != d.interval(0.5) and d.interval(0.5, 0.99)[0] < d.interval(0.5)[0]


def test_what_it_says_it_holds_is_no_less_than_it_holds(values=10_000):
    """The page's cache of answers counts `nbytes` against its cap: a distribution of 10,000 values,
    every figure and array read, holds no more than it says (it held 4 times the old count of 24 a value)."""
    import gc
    import tracemalloc

    def read_all(d):
        d.mean, d.sd, d.median, d.quantile(0.1), d.at_least(5), d.at_most(5), d.pmf, d.at_least_all, d.cdf

    read_all(Distribution.from_counts(np.arange(1, 12)))  # any first-use import, outside the count
    counts = np.random.default_rng(1).integers(1, 1000, size=values)
    gc.collect()
    tracemalloc.start(64)
    try:
        d = Distribution.from_counts(counts)
        read_all(d)
        gc.collect()
        # only what this test's own calls hold: an xdist worker's other threads allocate meanwhile
        mine = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, __file__, all_frames=True)])
        held = sum(trace.size for trace in mine.traces)
    finally:
        tracemalloc.stop()
    assert 50 * values < held <= d.nbytes < 2 * held  # honest: not far above what it holds either
