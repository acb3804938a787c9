from fractions import Fraction

import numpy as np
import pytest
from clirun import run as run_cli

from oddscalc.core import engine
from oddscalc.studies import sweeps as studies
from oddscalc.core.dice import DiceExpression
from oddscalc.core.distribution import Distribution
from oddscalc.errors import InputError
from oddscalc.core.hits import HitAndSave
from oddscalc.core.roll import Roll
from oddscalc.output.style import clean

@pytest.mark.parametrize("text, values", [("1..4", ["1", "2", "3", "4"]), ("2..10:4", ["2", "6", "10"]),
                                          ("none,hit,miss", ["none", "hit", "miss"]), ("-2..0", ["-2", "-1", "0"])])
def test_parse_values(text, values):
    assert studies.parse_values(text) == values


@pytest.mark.parametrize("text", ["5..1", "1..", "a..b", "1,,2", "1..3:0"])
def test_bad_values(text):
    with pytest.raises(InputError):
        studies.parse_values(text)


@pytest.mark.parametrize("text", ["0..100000000000", "0..10000", "1..20001:2", ",".join(["1"] * 10_001),
                                  "0.." + "9" * 5000])
def test_too_many_values_are_refused_before_they_are_built(text):
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(InputError, match="at most 10,000 values|a range of whole numbers"):
        studies.parse_values(text)
    assert tracemalloc.get_traced_memory()[1] < 2_000_000  # bytes at the peak: nothing as long as the range
    tracemalloc.stop()
    assert len(studies.parse_values("1..10000")) == 10_000 == len(studies.parse_values("1..20000:2"))


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


@pytest.mark.parametrize("text, target", [("broken.at_least_1>=50%", 0.5), ("at_least_2>=0.5", 0.5),
                                          ("mean>=1e308", 1e308), ("mean<=2.5e+1", 25.0), ("p10>=-1", -1.0)])
def test_a_goal_reads_a_fraction_a_percentage_or_any_finite_number(text, target):
    assert studies.Goal.parse(text).target == pytest.approx(target)


@pytest.mark.parametrize("text, allowed", [
    ("mean>=1e999", "expected a finite number after >= or <="),
    ("p_kill>=half", "and P a number (a probability as a fraction, 0.5, or a percentage, 50%)"),
])
def test_a_goal_that_is_no_number_says_what_p_is(text, allowed):
    with pytest.raises(InputError) as refused:
        studies.Goal.parse(text)
    assert refused.value.allowed.endswith(allowed)


def test_a_goal_no_value_can_reach_is_one_line(capsys):
    from clirun import assert_refused

    result = run_cli(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean>=1e308", "--exact")
    assert result.code == 1 and result.err.strip() == (
        "error: --goal mean>=1e+308: no maximised in 0..2 reaches mean sum ≥ 1e308; the best is maximised = 2 with "
        "mean sum = 9.344")
    assert_refused(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean>=1e999",
                   mentions=("--goal mean>=1e999", "finite"))


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


def test_the_standard_error_of_p_greater_matches_its_spread_over_seeds():
    """Over many seeds, P(X > Y)'s standard error is the sd of the estimates, and ±1.96 of it covers 95 %."""
    px = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36  # 2d6
    py = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1]) / 6  # d6 + 3
    truth, exact_error = studies.probability_greater(Distribution.from_pmf(px), Distribution.from_pmf(py))
    assert truth == pytest.approx(sum(px[k] * py[:k].sum() for k in range(len(px)))) and exact_error == 0
    rng = np.random.default_rng(2026)
    estimates, errors = [], []
    for _ in range(400):
        x = Distribution.from_samples(rng.choice(len(px), size=2000, p=px))
        y = Distribution.from_samples(rng.choice(len(py), size=3000, p=py))
        p, error = studies.probability_greater(x, y)
        estimates.append(p)
        errors.append(error)
    estimates, errors = np.array(estimates), np.array(errors)
    assert np.mean(errors) / np.std(estimates) == pytest.approx(1, abs=0.15)
    assert 0.92 <= np.mean(np.abs(estimates - truth) <= 1.96 * errors) <= 0.98


def test_a_comparison_reads_p_greater_both_ways():
    found = studies.compare([HitAndSave(4, 4, 4), HitAndSave(2, 4, 4)], method="exact")
    p, _ = found.greater(0, 1)
    q, _ = found.greater(1, 0)
    ties = sum(found.distribution(0).probability(k) * found.distribution(1).probability(k) for k in range(5))
    assert p + q + ties == pytest.approx(1)
    rows = found.rows([1])
    assert rows[0]["P(> #2)"] == pytest.approx(p) and rows[1]["P(> #1)"] == pytest.approx(q)
    assert rows[0]["query"] == "HitAndSave(dice=4, to_hit=4, save=4)"  # a library attack has no command


def test_study_rows_report_verification_and_trials_used():
    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": [2, 3]}, trials=20_000, seed=1, method="verify")
    for row in found.rows([1]):
        assert row["cdf_gap"] <= row["dkw_bound"] and row["verified"] is True
    capped = studies.sweep(HitAndSave(1, 4, 5), {"dice": [2, 3]}, trials=1000, seed=1, precision=1e-4)
    assert all(row["trials"] == 1000 and row["precision_reached"] is False for row in capped.rows())


@pytest.mark.parametrize("text, outcome, name", [("mean", None, "mean"), (" broken.at_least_1 ", "broken", "at_least_1"),
                                                 ("p90", None, "p90"), ("kills.exactly_0", "kills", "exactly_0")])
def test_statistics_parse(text, outcome, name):
    statistic = studies.Statistic.parse(text)
    assert (statistic.outcome, statistic.name) == (outcome, name)
    assert str(statistic) == text.strip()


@pytest.mark.parametrize("text", ["Mean", "at_least_", "broken.", ".mean", "p50", "at_least_x", "mean.mean.mean"])
def test_bad_statistics_are_refused_naming_the_option(text):
    with pytest.raises(InputError) as error:
        studies.Statistic.parse(text, "stat")
    assert error.value.name == "stat" and "at_least_K" in error.value.allowed


@pytest.mark.parametrize("text, at_least, target, shown", [
    ("at_least_3>=0.8", True, 0.8, "at_least_3>=0.8"), (" mean <= 2.5 ", False, 2.5, "mean<=2.5"),
    ("p_x.mean>=-1", True, -1.0, "p_x.mean>=-1"), ("sd<=1e-3", False, 0.001, "sd<=0.001")])
def test_goals_parse(text, at_least, target, shown):
    goal = studies.Goal.parse(text)
    assert (goal.at_least, goal.target, str(goal)) == (at_least, target, shown)
    assert goal.reached(target) and goal.reached(target + (1 if at_least else -1))
    assert not goal.reached(target + (-1 if at_least else 1))


@pytest.mark.parametrize("text", ["mean>0.5", "mean>=", "mean>=1.2.3", ">=0.5", "mean=>0.5", "average>=1"])
def test_bad_goals_are_refused(text):
    with pytest.raises(InputError) as error:
        studies.Goal.parse(text)
    assert error.value.name == "goal"


def test_a_statistic_of_an_outcome_the_attack_lacks():
    result = engine.run(HitAndSave(2, 4, 4), method="exact")
    with pytest.raises(InputError) as error:
        studies.Statistic.parse("kills.mean").value(result)
    assert "has no outcome kills; it has unsaved, hits" in error.value.allowed


def test_the_goal_report_reads_the_found_value():
    goal = studies.Goal.parse("at_least_2>=0.5")
    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 8)}, goal=goal, method="exact")
    note, failed = found.goal_report("1..7")
    assert failed is None and note == "goal P(unsaved ≥ 2) ≥ 50%: the smallest dice is 5 (P(unsaved ≥ 2) = 53.91%)"
    unreachable = studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 4)}, goal=studies.Goal.parse("mean>=5"),
                                method="exact")
    note, failed = unreachable.goal_report("1..3")
    assert note is None and failed == ("error: --goal mean>=5: no dice in 1..3 reaches mean unsaved ≥ 5; the best is "
                                       "dice = 3 with mean unsaved = 1")
    plain = studies.sweep(HitAndSave(1, 4, 5), {"dice": [1]}, method="exact")
    assert plain.goal_report() == (None, None) and plain.reached is None
    with pytest.raises(InputError):
        plain.scores()


def test_a_sweep_refuses_what_it_cannot_vary():
    for vary, name in [({}, "vary"), ({"nothing": [1]}, "vary"), ({"dice": []}, "vary"),
                       ({"dice": [1], "to_hit": [4], "save": [5]}, "vary")]:
        with pytest.raises(InputError) as error:
            studies.sweep(HitAndSave(1, 4, 5), vary, method="exact")
        assert error.value.name == name
    with pytest.raises(InputError) as error:
        studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 200), "to_hit": range(2, 200)}, method="exact")
    assert "cells" in str(error.value.value) and "at most 10,000" in error.value.allowed
    with pytest.raises(InputError):
        studies.sweep(HitAndSave(1, 4, 5), {"dice": [1, 2]}, seek="middle", method="exact")


def test_two_options_swept_make_every_combination():
    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": [1, 2], "to_hit": [3, 6]}, method="exact")
    assert found.cells == ((1, 3), (1, 6), (2, 3), (2, 6))
    rows = found.rows([1], outcomes=["unsaved"])
    assert [(row["dice"], row["to_hit"]) for row in rows] == [(1, 3), (1, 6), (2, 3), (2, 6)]
    # 2 dice at 6+ (1/6) then a 5+ save failed (2/3): E = 2 · 1/6 · 2/3
    assert rows[3]["mean"] == pytest.approx(2 / 9)


# --- every refusal of the study functions, called from Python: name, value and message --

def _roll():
    return Roll(DiceExpression.parse("2d6"))


def _t9a_charge():
    from oddscalc.t9a import Charge

    return Charge(distance=7)


REFUSALS = [
    (lambda: studies.parse_values("5..2"), ("vary", "5..2", "expected a range low..high (like 1..18 or 2..12:2)")),
    (lambda: studies.parse_values("1..4:0", "bp"), ("bp", "1..4:0", "expected a range low..high (like 1..18 or "
                                                                    "2..12:2)")),
    (lambda: studies.parse_values("1..10001"), ("vary", "1..10001", "expected at most 10,000 values")),
    (lambda: studies.parse_values("1..x", "dice"), ("dice", "1..x", "expected a range of whole numbers like 1..18 "
                                                                    "(or a list like 2,4,6)")),
    (lambda: studies.parse_values("2,,4"), ("vary", "2,,4", "expected a range like 1..18 or a list like 2,4,6")),
    (lambda: studies.sweep(_roll(), {}), ("vary", 0, "vary one or two options")),
    (lambda: studies.sweep(_roll(), {"a": [1], "b": [1], "c": [1]}), ("vary", 3, "vary one or two options")),
    (lambda: studies.sweep(_roll(), {"maximised": ["x"]}), ("vary", "maximised=x", "expected a whole number")),
    (lambda: studies.sweep(_roll(), {"maximised": [0, 30]}), ("vary", "maximised=30", "expected 0 to 20 extra dice")),
    (lambda: studies.sweep(_roll(), {"luck": [1]}), ("vary", "luck", "is not an option of roll; it has dice, maximised, "
                                                                       "minimised, success")),
    (lambda: studies.sweep(_roll(), {"maximised": []}), ("vary", "maximised", "expected at least one value")),
    (lambda: studies.read_vary(Roll, ["maximised=0..100000000000"]),  # echoed whole, as typed
     ("vary", "maximised=0..100000000000", "expected at most 10,000 values")),
    (lambda: studies.read_vary(Roll, ["maximised=5..2"]),
     ("vary", "maximised=5..2", "expected a range low..high (like 1..18 or 2..12:2)")),
    (lambda: studies.sweep(_roll(), {"maximised": [0, 1], "minimised": [0]},
                           goal=studies.Goal.parse("mean>=7")),
     ("goal", studies.Goal.parse("mean>=7"), "a goal needs exactly one varied option")),
    (lambda: studies.sweep(_roll(), {"maximised": [0, 1]}, seek="middle"),
     ("seek", "middle", "expected smallest or largest")),
    (lambda: studies.sweep(_roll(), {"maximised": list(range(101)), "minimised": list(range(100))}),
     ("vary", "10,100 cells", "expected at most 10,000 cells; vary fewer values")),
    (lambda: studies.sweep(_roll(), {"maximised": [0, 1]}, goal=studies.Goal.parse("hits.mean>=7")),
     ("goal", "hits.mean", "the query has no outcome hits; it has sum")),
    (lambda: studies.compare([_roll()]), ("attacks", 1, "expected at least two attacks to compare")),
    (lambda: studies.compare([_roll(), _roll()], outcome="kills"),
     ("outcome", "kills", "Roll 2d6 has the outcomes sum")),
    (lambda: studies.compare([_roll(), _t9a_charge()]),
     ("outcome", "the main outcomes", "compares a yes/no outcome with a count: #1 sum (a count); #2 success "
                                      "(yes/no); give --outcome to compare outcomes of one kind")),
]


@pytest.mark.parametrize("call, expected", REFUSALS, ids=[str(i) for i in range(len(REFUSALS))])
def test_a_study_function_refuses_with_name_value_and_message(call, expected):
    with pytest.raises(InputError) as error:
        call()
    assert (error.value.name, error.value.value, error.value.allowed) == expected


def test_the_edges_of_what_a_study_accepts():
    assert studies.parse_values("3..3") == ["3"]
    assert len(studies.parse_values("1..10000")) == 10_000
    assert studies.parse_values("2, 4 ,6") == ["2", "4", "6"]
    assert studies.parse_values("0..6:3") == ["0", "3", "6"]
    swept = studies.sweep(_roll(), {"maximised": [0, 1]}, method="exact")
    assert [attack.maximised for attack in swept.attacks] == [0, 1]
    assert swept.results[1].outcomes["sum"].mean == pytest.approx(203 / 24)  # docs/rules.md §3.1
    found = studies.compare([_roll(), Roll(DiceExpression.parse("2d6"), maximised=1)], method="exact")
    assert found.outcomes == ("sum", "sum")
    # a maximised 2D6 (3D6, the highest two) beats a plain 2D6: counted over all 6⁵ rolls
    assert found.greater(1, 0) == (pytest.approx(float(_p_greater(_sums(3, 2), _sums(2, 2))), abs=1e-12), 0)


def _exact(attack):
    return engine.run(attack, method="exact")


def _sums(dice: int, keep: int) -> list[int]:
    """Every equally likely total of `dice` d6 keeping the `keep` highest, by enumeration."""
    from itertools import product

    return [sum(sorted(faces)[dice - keep:]) for faces in product(range(1, 7), repeat=dice)]


def _p_greater(first: list[int], second: list[int]) -> Fraction:
    return Fraction(sum(a > b for a in first for b in second), len(first) * len(second))


def test_a_statistic_names_itself_for_the_outcome_it_reads():
    charge, roll = _exact(_t9a_charge()), _exact(_roll())
    labels = {text: studies.Statistic.parse(text).label(charge) for text in
              ("mean", "at_least_1", "exactly_1", "at_least_2", "sd", "sum.at_most_7", "sum.exactly_7", "sum.median")}
    assert labels == {"mean": "P(success)", "at_least_1": "P(success)", "exactly_1": "P(success)",
                      "at_least_2": "P(success ≥ 2)", "sd": "sd success", "sum.at_most_7": "P(sum ≤ 7)",
                      "sum.exactly_7": "P(sum = 7)", "sum.median": "median sum"}
    assert studies.Statistic.parse("mean").label(roll) == "mean sum"  # a count: no probability
    assert studies.Statistic.parse("mean").label("success") == "mean success"  # by name: no events known
    assert [studies.Statistic.parse(text).is_probability(charge) for text in
            ("mean", "sd", "at_most_0", "exactly_1", "sum.mean")] == [True, False, True, True, False]
    assert [studies.Statistic.parse(text).is_probability(roll) for text in ("mean", "exactly_7")] == [False, True]


def test_a_statistic_reads_its_value_and_error():
    exact = _exact(_roll())  # 2d6: sd √(35/6); P(≤ 9) = 30/36 < 0.9 ≤ P(≤ 10): p90 = 10; P(≤ 4) = 6/36
    values = {text: studies.Statistic.parse(text).value(exact) for text in ("sd", "p90", "at_most_4")}
    assert values == {"sd": (pytest.approx((35 / 6) ** 0.5, abs=1e-12), 0.0), "p90": (10.0, 0.0),
                      "at_most_4": (pytest.approx(6 / 36, abs=1e-12), 0.0)}
    roll = engine.run(_roll(), trials=20_000, seed=3)
    assert studies.Statistic.parse("sd").value(roll)[1] == 0.0  # no error is given for a spread
    p, error = studies.Statistic.parse("at_most_4").value(roll)
    assert p == roll["sum"].at_most(4) and error == pytest.approx((p * (1 - p) / 20_000) ** 0.5, rel=1e-12)
    with pytest.raises(InputError) as refused:
        studies.Statistic.parse("hits.sd").value(roll)
    assert (refused.value.name, refused.value.value) == ("stat", "hits.sd")


def test_a_yes_no_row_is_its_probability_and_a_comparison_row_is_numbered():
    charge = _exact(_t9a_charge())
    # exact figures as the query's JSON writes them (15 significant digits: no float noise)
    assert studies.summary_row(charge, "success") == {"outcome": "success", "mean": clean(charge["success"].mean),
                                                      "mean_stderr": 0.0,
                                                      "probability": clean(charge["success"].at_least(1)),
                                                      "probability_stderr": 0.0}
    assert charge["success"].mean == charge["success"].at_least(1)  # a yes/no outcome's mean is its probability
    assert charge["success"].at_least(1) == pytest.approx(21 / 36)  # 2D6 ≥ 7
    row = studies.summary_row(_exact(_roll()), "sum", [11])
    assert list(row) == ["outcome", "mean", "mean_stderr", "sd", "median", "p10", "p90", "at_least_11",
                         "at_least_11_stderr"]
    assert row["at_least_11"] == pytest.approx(3 / 36)
    found = studies.compare([_roll(), Roll(DiceExpression.parse("3d6"))], method="exact")
    rows = found.rows()
    assert [(row["#"], row["query"]) for row in rows] == [(1, "roll 2d6"), (2, "roll 3d6")]
    assert "P(> #1)" not in rows[0] and "P(> #2)" not in rows[1]  # a query is not compared with itself
    two, three = _sums(2, 2), _sums(3, 3)
    assert rows[0]["P(> #2)"] == pytest.approx(float(_p_greater(two, three)), abs=1e-12)
    assert rows[1]["P(> #1)"] == pytest.approx(float(_p_greater(three, two)), abs=1e-12)


def test_p_greater_counts_both_samples_in_its_error():
    first, second = engine.run(_roll(), trials=4_000, seed=1), engine.run(_roll(), trials=4_000, seed=2)
    one_sided = studies.probability_greater(first["sum"], _exact(_roll())["sum"])[1]
    both = studies.probability_greater(first["sum"], second["sum"])[1]
    assert both > one_sided * 1.3  # the second sample's variance adds (about √2 times the one-sided error)
