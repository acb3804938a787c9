"""The benchmark runs (a smoke run; speed is measured by `python -m oddscalc.bench`, never in tests)."""

from fractions import Fraction

import numpy as np
import pytest

from oddscalc import engine
from oddscalc import pmf as pmfs
from oddscalc.bench import exact, run
from oddscalc.epic import benchmark as epic
from oddscalc.t9a import benchmark as t9a
from oddscalc.distribution import Distribution, dkw_bound


def test_quick_benchmark_prints_every_figure(capsys):
    run.main(["--quick", "--no-cluster"])
    out = capsys.readouterr().out
    for text in ("random generator", "canonical", "maximised 2d6", "scaling", "grid 4 x 4", "wall"):
        assert text in out


@pytest.mark.parametrize("case", run.all_cases(), ids=lambda case: case.name)
def test_each_baseline_runs_the_same_kind_of_attack(case):
    """The baselines are honest: they sample the same main outcome as the attack's exact twin."""
    exact = engine.run(case.attack, method="exact")
    main = exact[exact.main]
    values = case.baseline(np.random.default_rng(5), 200_000)
    assert values.shape == (200_000,)
    assert abs(values.mean() - main.mean) <= 5 * main.sd / np.sqrt(values.size) + 1e-12
    assert Distribution.from_samples(values).cdf_gap(main) <= dkw_bound(values.size, 1e-6)


def test_bench_cases_run():
    for case in epic.cases():
        rng = np.random.default_rng(1)
        case.baseline(rng, 1000)
        assert case.target == 5.0
        assert set(case.attack.outcomes) <= {"kills", "hits", "blast_markers", "broken"}
        assert not np.isnan(pmfs.mean(case.attack.exact()["kills"]))



def test_bench_case_is_the_issue_attack():
    (case,) = t9a.cases()
    assert case.name.startswith("t9a melee 20 attacks")
    exact = case.attack.exact(fractions=True)
    # 20 · 1/2 · 2/3 · (2/3 · 2/3) unsaved wounds, each 5/3 Health Points
    assert pmfs.mean(exact["unsaved"]) == Fraction(80, 27) and pmfs.mean(exact["health_lost"]) == Fraction(80, 27) * Fraction(5, 3)


@pytest.mark.parametrize("case", exact.cases(), ids=lambda case: case.name)
def test_the_exact_benchmark_compares_the_same_pmf_as_icepool(case):
    """Each query of the exact benchmark is the same question in both engines: equal pmfs, exactly."""
    icepool = pytest.importorskip("icepool")
    die = case.icepool(icepool)
    theirs = [Fraction(die.quantity(outcome), die.denominator()) for outcome in range(die.max_outcome() + 1)]
    ours = case.attack.exact(fractions=True)[case.outcome]
    assert list(pmfs.trim(ours)) == theirs
    floats = case.attack.exact()[case.outcome]
    assert np.abs(floats[: len(theirs)] - np.array(theirs, dtype=float)).max() < 1e-12
