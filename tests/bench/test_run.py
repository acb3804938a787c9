"""The benchmark runs (a smoke run; speed is measured by `python -m oddscalc.bench`, never in tests).

The exact benchmark's queries against icepool are in test_exact.py; each game's own cases in
tests/<game>/test_benchmark.py."""

import numpy as np
import pytest

from oddscalc import engine
from oddscalc.bench import run
from oddscalc.distribution import Distribution, dkw_bound


def test_quick_benchmark_prints_every_figure(capsys):
    run.main(["--quick", "--no-cluster"])
    out = capsys.readouterr().out
    for text in ("random generator", "canonical", "maximised 2d6", "scaling", "end to end", "grid 4 x 4", "wall",
                 "server time of exact queries", "first paint", "load: 20 requests from 8 clients"):
        assert text in out
    # the load test's mix: 2 of its 20 requests are refused, the rest answered, none lost (each client its own)
    assert "answered 18, refused 2, told to wait 0, busy 0, errors 0" in out and "server memory" in out


@pytest.mark.parametrize("case", run.all_cases(), ids=lambda case: case.name)
def test_each_baseline_runs_the_same_kind_of_attack(case):
    """The baselines are honest: they sample the same main outcome as the attack's exact twin."""
    exact = engine.run(case.attack, method="exact")
    main = exact[exact.main]
    values = case.baseline(np.random.default_rng(5), 200_000)
    assert values.shape == (200_000,)
    assert abs(values.mean() - main.mean) <= 5 * main.sd / np.sqrt(values.size) + 1e-12
    assert Distribution.from_samples(values).cdf_gap(main) <= dkw_bound(values.size, 1e-6)
