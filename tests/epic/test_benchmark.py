"""Epic Armageddon's benchmark cases (`oddscalc.epic.benchmark`) run (speed is measured by
`python -m oddscalc.bench`, never in tests)."""

import numpy as np

from oddscalc import pmf as pmfs
from oddscalc.epic import benchmark as epic


def test_bench_cases_run():
    for case in epic.cases():
        rng = np.random.default_rng(1)
        case.baseline(rng, 1000)
        assert case.target == 5.0
        assert set(case.attack.outcomes) <= {"kills", "hits", "blast_markers", "broken"}
        assert not np.isnan(pmfs.mean(case.attack.exact()["kills"]))
