"""Monte Carlo in chunks (oddscalc/core/sampling.py): each chunk's own stream of a run's seed, the seed a result
records, one chunk's histograms, their sums of different lengths. (Runs through the engine, threads and progress:
tests/test_engine.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from oddscalc.core import sampling


def test_each_chunk_has_its_own_stream_and_the_same_seed_the_same_streams():
    first, again, other = (sampling.stream(7, 0).random(4), sampling.stream(7, 0).random(4),
                           sampling.stream(7, 1).random(4))
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert not np.array_equal(sampling.stream(8, 0).random(4), first)
    root = np.random.SeedSequence(7)
    assert np.array_equal(sampling.stream(root, 0).random(4), first)  # a SeedSequence of 7 is the seed 7


def test_the_seed_of_a_run_and_the_one_its_result_records():
    assert sampling.check_seed(12) == 12 and sampling.check_seed(np.int64(12)) == 12
    fresh = sampling.check_seed(None)
    assert isinstance(fresh, int) and 0 <= fresh < 1 << 63 and sampling.recorded(fresh) == fresh
    spawned = sampling.check_seed(np.random.default_rng(3))  # a Generator lends a child of its own
    assert isinstance(spawned, np.random.SeedSequence) and sampling.recorded(spawned) is None
    assert sampling.recorded(np.random.SeedSequence(5)) == 5


def test_one_chunk_counted_and_chunks_of_different_lengths_added():
    counts = sampling.histograms({"kills": np.array([0, 2, 2, 1]), "hits": np.array([1, 1, 1, 1])}, ("kills",))
    assert list(counts) == ["kills"] and counts["kills"].tolist() == [1, 1, 2]
    total: dict[str, np.ndarray] = {}
    sampling._add(total, {"kills": np.array([1, 1])})
    sampling._add(total, {"kills": np.array([0, 1, 5])})  # a longer one: the sum padded
    sampling._add(total, {"kills": np.array([2])})  # a shorter one: added at its start
    assert total["kills"].tolist() == [3, 2, 5] and total["kills"].dtype == np.int64


@pytest.mark.parametrize("trials", [1, sampling.CHUNK - 1, sampling.CHUNK + 1])
def test_a_run_takes_exactly_its_trials_and_records_its_seed(trials):
    from oddscalc.core.dice import DiceExpression
    from oddscalc.core.options import RunOptions
    from oddscalc.core.roll import Roll

    result = sampling.sample(Roll(DiceExpression.parse("d6")), RunOptions(trials=trials, seed=4, threads=1))
    assert result.trials == trials and result.seed == 4
    pmf = result.outcomes["sum"].pmf
    assert len(pmf) <= 7 and abs(sum(pmf) - 1) < 1e-12 and pmf[0] == 0  # a die's faces 1 to 6
    counts = np.asarray(pmf) * trials  # every trial counted once: whole counts that add up to the trials
    assert np.allclose(counts, np.round(counts), atol=1e-6) and round(counts.sum()) == trials
