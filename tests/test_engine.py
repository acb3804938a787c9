import numpy as np
import pytest
from agreement import SEED, agreement_failures

from oddscalc.core import engine, sampling
from oddscalc.core.dice import DiceExpression
from oddscalc.core.distribution import dkw_bound
from oddscalc.errors import InputError
from oddscalc.core.roll import Roll

TWO_D6 = Roll(DiceExpression.parse("2d6"), maximised=1)


class WrongTwin:
    """A sampler that rolls 3+ while its exact twin says 4+: the check must catch it."""

    outcomes = ("hits",)

    def sample(self, rng, trials):
        return {"hits": (rng.integers(1, 7, size=(trials, 10)) >= 3).sum(axis=1)}

    def exact(self, fractions=False):
        from oddscalc.core import pmf

        return {"hits": pmf.binomial(10, 0.5)}


def test_the_agreement_check_catches_a_wrong_sampler():
    assert agreement_failures(WrongTwin(), trials=20_000)


def test_the_result_does_not_depend_on_the_number_of_threads():
    trials = 3 * sampling.CHUNK + 17
    one = engine.monte_carlo(TWO_D6, trials=trials, seed=SEED, threads=1)
    two = engine.monte_carlo(TWO_D6, trials=trials, seed=SEED, threads=2)
    assert one["sum"] == two["sum"]
    assert one.trials == two.trials == trials


def test_every_trial_is_counted():
    result = engine.monte_carlo(TWO_D6, trials=sampling.CHUNK + 5, seed=SEED)
    counts = np.rint(result["sum"].pmf * result.trials)
    assert counts.sum() == sampling.CHUNK + 5


def test_a_different_seed_gives_a_different_sample():
    a = engine.monte_carlo(TWO_D6, trials=10_000, seed=1)
    b = engine.monte_carlo(TWO_D6, trials=10_000, seed=2)
    assert a["sum"] != b["sum"]
    assert engine.monte_carlo(TWO_D6, trials=10_000, seed=1)["sum"] == a["sum"]


def test_a_fresh_seed_is_recorded_and_reproduces():
    first = engine.monte_carlo(TWO_D6, trials=5000)
    assert isinstance(first.seed, int)
    assert engine.monte_carlo(TWO_D6, trials=5000, seed=first.seed)["sum"] == first["sum"]


def test_precision_stops_once_the_standard_error_is_small_enough():
    result = engine.monte_carlo(TWO_D6, trials=10**8, seed=SEED, precision=0.002)
    assert result["sum"].mean_stderr <= 0.002
    assert result.trials < 10**8
    again = engine.monte_carlo(TWO_D6, trials=10**8, seed=SEED, precision=0.002, threads=1)
    assert again.trials == result.trials and again["sum"] == result["sum"]


def test_precision_is_capped_by_trials():
    result = engine.monte_carlo(TWO_D6, trials=1000, seed=SEED, precision=1e-6)
    assert result.trials == 1000


def test_exact_and_verify():
    exact = engine.run(TWO_D6, method="exact")
    assert exact.method == "exact" and exact.trials is None and exact.seed is None
    verified = engine.run(TWO_D6, trials=100_000, seed=SEED, method="verify")
    check = verified.verification["sum"]
    assert check.within and check.bound > check.gap >= 0


@pytest.mark.parametrize(
    "options, name",
    [({"trials": 0}, "trials"), ({"trials": 2.5}, "trials"), ({"seed": -1}, "seed"), ({"precision": 0}, "precision"),
     ({"method": "guess"}, "method"), ({"threads": 0}, "threads"), ({"threads": -2}, "threads")],
)
def test_bad_run_options(options, name):
    with pytest.raises(InputError) as error:
        engine.run(TWO_D6, **options)
    assert error.value.name == name


def test_pool_rolls_become_joint_histograms():
    from oddscalc.core.pool import Die, roll_pool

    die = Die((6, 6), lambda a, s: ((a >= 4) & (s < 5), a >= 4), ("kills", "hits"))
    rolled = roll_pool(np.random.default_rng(1), die, 10, 5000)
    counts = sampling.histograms(rolled, ("hits", "kills"))
    assert np.array_equal(counts["hits"], np.bincount(rolled.total("hits")))
    assert np.array_equal(counts["kills"][: rolled.total("kills").max() + 1], np.bincount(rolled.total("kills")))


def test_pools_with_many_joint_values_are_counted_field_by_field(monkeypatch):
    from oddscalc.core.pool import Die, roll_pool

    die = Die((6, 6), lambda a, s: ((a >= 4) & (s < 5), a >= 4), ("kills", "hits"))
    rolled = roll_pool(np.random.default_rng(1), die, 10, 5000)
    joint = sampling.histograms(rolled, ("hits", "kills"))
    monkeypatch.setattr(sampling, "JOINT_LIMIT", 4)
    separate = sampling.histograms(rolled, ("hits", "kills"))
    for name in ("hits", "kills"):
        size = max(len(joint[name]), len(separate[name]))
        assert np.array_equal(np.pad(joint[name], (0, size - len(joint[name]))),
                              np.pad(separate[name], (0, size - len(separate[name]))))


def test_an_exact_result_carries_fractions_only_when_asked_and_the_attack_s_events():
    from oddscalc.core.hits import HitAndSave

    plain, rational = engine.exact(HitAndSave(3, 4, 5)), engine.exact(HitAndSave(3, 4, 5), fractions=True)
    assert plain.rationals is None and rational.rationals is not None
    assert rational.rationals["unsaved"] == HitAndSave(3, 4, 5).exact(fractions=True)["unsaved"]
    assert plain.events == () and plain["unsaved"].probabilities == pytest.approx(rational["unsaved"].probabilities)

    class Event(WrongTwin):
        events = ("hits",)

    assert engine.exact(Event()).events == ("hits",)


def test_verify_measures_the_gap_against_the_bound_of_its_trials_and_alpha():
    verified = engine.verify(engine.run(TWO_D6, trials=5000, seed=SEED), engine.run(TWO_D6, method="exact"),
                             alpha=0.01)
    check = verified["sum"]
    assert check.alpha == 0.01 and check.bound == dkw_bound(5000, 0.01)


def test_a_sampled_run_computes_no_exact_half_and_reports_progress():
    seen = []

    class NoTwin(WrongTwin):
        def exact(self, fractions=False):
            raise AssertionError("a Monte Carlo run computed the exact twin")

    engine.run(NoTwin(), trials=3 * sampling.CHUNK, seed=1, threads=1, progress=lambda done, total: seen.append(done))
    assert seen == [sampling.CHUNK, 2 * sampling.CHUNK, 3 * sampling.CHUNK]
    seen.clear()
    engine.monte_carlo(NoTwin(), trials=2 * sampling.CHUNK, seed=1, threads=1, progress=lambda d, t: seen.append(t))
    assert seen == [2 * sampling.CHUNK] * 2
