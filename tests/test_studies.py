
import numpy as np
import pytest

from oddscalc import cells, engine, studies
from oddscalc.dice import DiceExpression
from oddscalc.distribution import Distribution
from oddscalc.errors import InputError
from oddscalc.roll import HitAndSave, Roll

ATTACKS = [HitAndSave(n, 4, 5) for n in range(1, 6)]


def same(a: engine.Result, b: engine.Result) -> bool:
    return a.outcomes.keys() == b.outcomes.keys() and all(a[k] == b[k] for k in a.outcomes)


def test_cell_seed_depends_on_the_seed_and_the_attack_only():
    assert cells.cell_seed(1, HitAndSave(3, 4, 5)) == cells.cell_seed(1, HitAndSave(3, 4, 5))
    assert cells.cell_seed(1, HitAndSave(3, 4, 5)) != cells.cell_seed(2, HitAndSave(3, 4, 5))
    assert cells.cell_seed(1, HitAndSave(3, 4, 5)) != cells.cell_seed(1, HitAndSave(3, 4, 4))


def test_threads_give_the_same_table_as_series():
    series, seed = cells.run_cells(ATTACKS, trials=20_000, seed=7, workers=1)
    parallel, _ = cells.run_cells(ATTACKS, trials=20_000, seed=7, workers=2)
    assert seed == 7
    assert all(same(a, b) for a, b in zip(series, parallel))


def test_adding_a_cell_does_not_change_the_others():
    fewer, _ = cells.run_cells(ATTACKS[:3], trials=20_000, seed=7)
    more, _ = cells.run_cells([HitAndSave(9, 3, 3)] + ATTACKS, trials=20_000, seed=7)
    assert all(same(a, b) for a, b in zip(fewer, more[1:4]))


def test_exact_cells_have_no_seed():
    results, seed = cells.run_cells(ATTACKS[:2], method="exact")
    assert seed is None and results[0].method == "exact"


@pytest.mark.parametrize("text, values", [("1..4", ["1", "2", "3", "4"]), ("2..10:4", ["2", "6", "10"]),
                                          ("none,hit,miss", ["none", "hit", "miss"]), ("-2..0", ["-2", "-1", "0"])])
def test_parse_values(text, values):
    assert studies.parse_values(text) == values


@pytest.mark.parametrize("text", ["5..1", "1..", "a..b", "1,,2", "1..3:0"])
def test_bad_values(text):
    with pytest.raises(InputError):
        studies.parse_values(text)


def test_goals_and_statistics():
    goal = studies.Goal.parse("at_least_3>=0.8")
    assert goal.at_least and goal.target == 0.8 and str(goal.statistic) == "at_least_3"
    assert studies.Goal.parse("damage.mean<=2").statistic.outcome == "damage"
    result = engine.run(Roll(DiceExpression.parse("2d6")), method="exact")
    assert studies.Statistic.parse("at_least_7").value(result)[0] == pytest.approx(21 / 36)
    assert studies.Statistic.parse("exactly_7").value(result)[0] == pytest.approx(6 / 36)
    assert studies.Statistic.parse("mean").value(result) == (pytest.approx(7.0), 0.0)
    with pytest.raises(InputError):
        studies.Goal.parse("at_least_3 > 0.8")
    with pytest.raises(InputError):
        studies.Statistic.parse("average")


def test_sweep_seeks_the_smallest_value_and_the_best():
    goal = studies.Goal.parse("at_least_2>=0.5")
    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 8)}, goal=goal, method="exact")
    # P(≥ 2 unsaved) with n dice at 1/3 each: first above 1/2 at n = 5
    chances = [1 - (2 / 3) ** n - n * (1 / 3) * (2 / 3) ** (n - 1) for n in range(1, 8)]
    assert found.reached == next(i for i, c in enumerate(chances) if c >= 0.5) and found.best == 6
    assert found.cells[found.reached] == (5,) and found.attacks[found.reached] == HitAndSave(5, 4, 5)
    assert found.scores() == pytest.approx(chances)


def test_sweep_seeks_the_largest_value_below_a_ceiling():
    goal = studies.Goal.parse("at_least_2<=0.3")
    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 8)}, goal=goal, seek="largest", method="exact")
    chances = [1 - (2 / 3) ** n - n * (1 / 3) * (2 / 3) ** (n - 1) for n in range(1, 8)]
    assert found.reached == max(i for i, c in enumerate(chances) if c <= 0.3) and found.best == 0


def test_probability_greater_exact_and_its_standard_error():
    d6 = Distribution.from_pmf([0] + [1 / 6] * 6)
    p, error = studies.probability_greater(d6, d6)
    assert p == pytest.approx(15 / 36) and error == 0
    # sampled: the standard error shrinks like 1/√n and the estimate is within 5 of it
    rng = np.random.default_rng(3)
    x = Distribution.from_samples(rng.integers(1, 7, 40_000))
    y = Distribution.from_samples(rng.integers(1, 7, 40_000))
    p, error = studies.probability_greater(x, y)
    assert 0 < error < 0.01 and abs(p - 15 / 36) <= 5 * error


def test_summary_row():
    result = engine.run(HitAndSave(4, 4, 4), method="exact")
    row = studies.summary_row(result, "unsaved", [1, 2])
    assert row["mean"] == pytest.approx(1.0) and row["at_least_1"] == pytest.approx(1 - (3 / 4) ** 4)
    assert row["at_least_2_stderr"] == 0


def test_a_dask_cluster_gives_the_same_table(cluster):
    local, _ = cells.run_cells(ATTACKS, trials=30_000, seed=11)
    remote, _ = cells.run_cells(ATTACKS, trials=30_000, seed=11, scheduler=cluster.scheduler_address)
    assert all(same(a, b) for a, b in zip(local, remote))


def test_no_scheduler_there_is_a_clear_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cells, "DASK_TIMEOUT", "1s")
    with pytest.raises(InputError) as error:
        cells.run_cells(ATTACKS[:1], trials=1000, seed=1, scheduler="tcp://127.0.0.1:1")
    assert error.value.name == "scheduler"
