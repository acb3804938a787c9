"""Epic Armageddon's benchmark cases (`oddscalc.epic.benchmark`) run (speed is measured by
`python -m oddscalc.bench`, never in tests)."""

import numpy as np

from oddscalc.core import pmf as pmfs
from oddscalc.epic import benchmark as epic


def test_bench_cases_run():
    for case in epic.cases():
        rng = np.random.default_rng(1)
        case.baseline(rng, 1000)
        assert case.target == (6.0 if "assault" in case.name else 5.0)  # the targets
        assert set(case.attack.outcomes) <= {"kills", "hits", "blast_markers", "broken", "damage", "shields", "win",
                                             "draw", "losses", "margin", "destroyed", "enemy_blast_markers"}
        assert not np.isnan(pmfs.mean(case.attack.exact()["kills"]))


def test_the_assault_baseline_is_the_same_engagement():
    """The plain numpy baseline of the assault plays what the exact twin computes: P(win) within 5 standard
    errors."""
    (case,) = [case for case in epic.cases() if "assault" in case.name]
    wins = case.baseline(np.random.default_rng(7), 200_000)
    exact = case.attack.exact()["win"][1]
    assert abs(wins.mean() - exact) < 5 * wins.std() / np.sqrt(len(wins))


def test_the_war_engine_baseline_is_the_same_attack():
    """The plain numpy baseline of the war-engine case samples what the exact twin computes: its mean war
    engines destroyed within 5 standard errors."""
    (case,) = [case for case in epic.cases() if getattr(case.attack, "war_engines", 0)]
    kills = case.baseline(np.random.default_rng(7), 200_000)
    exact = pmfs.mean(case.attack.exact()["kills"])
    assert abs(kills.mean() - exact) < 5 * kills.std() / np.sqrt(len(kills))
