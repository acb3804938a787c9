"""What a study reads off a distribution and what it seeks (goals.py): a statistic and a goal read from their words
(ASCII digits only), written back, put in words for the player, and refused in one line."""

from __future__ import annotations

import pytest

from oddscalc.core import engine
from oddscalc.core.dice import DiceExpression
from oddscalc.errors import InputError
from oddscalc.studies.goals import Goal, Statistic
from oddscalc.core.roll import Roll


@pytest.mark.parametrize("text, outcome, name", [
    ("mean", None, "mean"), ("at_least_3", None, "at_least_3"), ("broken.at_least_1", "broken", "at_least_1"),
    (" exactly_12 ", None, "exactly_12"), ("kills.p90", "kills", "p90"), ("at_most_0", None, "at_most_0"),
])
def test_a_statistic_is_read_and_written_back(text, outcome, name):
    statistic = Statistic.parse(text)
    assert (statistic.outcome, statistic.name) == (outcome, name) and Statistic.parse(str(statistic)) == statistic


@pytest.mark.parametrize("text", ["", "average", "at_least_", "exactly_٣", "at_most_３", "Kills.mean", "at_least_-1",
                                  "mean.sum", "p50"])
def test_a_statistic_that_is_not_one_is_refused_naming_its_option(text):
    with pytest.raises(InputError) as error:
        Statistic.parse(text, "stat")
    assert (error.value.name, error.value.value) == ("stat", text)
    assert error.value.allowed.startswith("expected mean, sd, median, p10, p90, at_least_K")


@pytest.mark.parametrize("text, words", [
    ("at_least_3>=0.8", ("at_least_3", True, 0.8)), ("mean <= 2.5", ("mean", False, 2.5)),
    ("at_least_1>=50%", ("at_least_1", True, 0.5)), ("mean>=1e1", ("mean", True, 10.0)),
])
def test_a_goal_is_read_its_percentage_a_fraction(text, words):
    goal = Goal.parse(text)
    assert (str(goal.statistic), goal.at_least, goal.target) == words and Goal.parse(str(goal)) == goal
    assert goal.reached(goal.target) and goal.reached(goal.target + (1 if goal.at_least else -1))
    assert not goal.reached(goal.target - (1 if goal.at_least else -1))


@pytest.mark.parametrize("text", ["mean", "mean>0.5", "mean>=", "mean>=x", "mean>=٠.٥", "mean>=1e999", "x>=1"])
def test_a_goal_that_is_not_one_is_refused_naming_goal(text):
    with pytest.raises(InputError) as error:
        Goal.parse(text)
    assert error.value.name == "goal" and error.value.value in (text, "x")


def test_statistics_and_goals_in_the_players_words():
    result = engine.run(Roll(DiceExpression.parse("2d6")), method="exact")
    assert [Statistic.parse(text).label(result) for text in ("at_least_7", "at_most_4", "exactly_7", "mean", "p90")] \
        == ["P(sum ≥ 7)", "P(sum ≤ 4)", "P(sum = 7)", "mean sum", "p90 sum"]
    assert Statistic.parse("at_least_7").value(result) == (pytest.approx(21 / 36), 0.0)
    assert Statistic.parse("median").value(result) == (7.0, 0.0)
    assert Goal.parse("at_least_7>=50%").words(result) == "P(sum ≥ 7) ≥ 50%"
    assert Goal.parse("mean>=6.5").words(result) == "mean sum ≥ 6.5"
    with pytest.raises(InputError) as error:
        Statistic.parse("kills.mean").value(result)
    assert error.value.allowed == "the query has no outcome kills; it has sum"
