"""The 9th Age's benchmark case (`oddscalc.t9a.benchmark`) is the attack of the issue, exactly."""

from fractions import Fraction

from oddscalc.core import pmf as pmfs
from oddscalc.t9a import benchmark as t9a


def test_bench_case_is_the_issue_attack():
    case = t9a.cases()[0]
    assert case.name.startswith("t9a melee 20 attacks")
    exact = case.attack.exact(fractions=True)
    # 20 · 1/2 · 2/3 · (2/3 · 2/3) unsaved wounds, each 5/3 Health Points
    assert pmfs.mean(exact["unsaved"]) == Fraction(80, 27) and pmfs.mean(exact["health_lost"]) == Fraction(80, 27) * Fraction(5, 3)


def test_the_combat_baseline_is_the_same_combat():
    """The plain numpy baseline of the combat plays what the exact twin computes: P(win) within 5 standard
    errors."""
    import numpy as np

    (case,) = [case for case in t9a.cases() if "combat" in case.name]
    wins = case.baseline(np.random.default_rng(7), 200_000)
    exact = case.attack.exact()["win"][1]
    assert abs(wins.mean() - exact) < 5 * np.sqrt(exact * (1 - exact) / len(wins))


def test_the_fight_to_the_end_baseline_is_the_same_fight():
    """The plain numpy loop of the bench's fight to the end (a character each, a Duel, 10 rounds at most) plays what
    the exact twin computes, at 6 models a side: P(win) and each side's Health Points lost within 5 standard
    errors."""
    import numpy as np

    from oddscalc.bench.run import hero_fight
    from oddscalc.t9a.fight_exact import combat_pmfs

    win, enemy_lost, lost = t9a.fight_arrays(np.random.default_rng(11), 40_000, 6)
    exact = combat_pmfs(hero_fight(6, duel=True).fight, 10, float)
    for sampled, name in ((win, "win"), (enemy_lost, "enemy_health_lost"), (lost, "health_lost")):
        pmf = np.asarray(exact[name])
        values = np.arange(len(pmf))
        mean = (pmf * values).sum()
        sd = np.sqrt((pmf * values ** 2).sum() - mean ** 2)
        assert abs(sampled.mean() - mean) < 5 * sd / np.sqrt(len(sampled)), name
