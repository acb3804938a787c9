"""The picture of a fight's rounds (plot_rounds.py): its figures from the per-round outcomes of a fight's result,
the same for the command line's plot and the page's (web/chart.py); and the command line's drawing of them."""

from __future__ import annotations

import pytest

from oddscalc.query.asking import ask
from oddscalc.output.plot_rounds import describe, rounds, rounds_data
from oddscalc.output.style import number, percent

FIGHT = ["t9a", "combat", "--models", "10", "--width", "5", "--attacks", "2", "--offensive", "5", "--defensive", "4",
         "--strength", "4", "--resilience", "4", "--agility", "5", "--discipline", "8", "--armour", "3",
         "--enemy-models", "15", "--enemy-width", "5", "--enemy-attacks", "1", "--enemy-offensive", "3",
         "--enemy-defensive", "3", "--enemy-strength", "3", "--enemy-resilience", "3", "--enemy-agility", "3",
         "--enemy-discipline", "7", "--rounds", "3", "--by-round", "--outcome", "rounds"]


@pytest.fixture(scope="module")
def exact():
    return ask([*FIGHT, "--exact"]).answer.content.result


def test_the_rounds_figures_are_the_fights_own(exact):
    data = rounds_data(exact)
    fought, decided = exact["rounds"].probabilities, exact["decided"].at_least(1)
    assert data.rounds == [1, 2, 3]
    assert data.decided == pytest.approx([100 * fought[1], 100 * fought[2], 100 * (decided - fought[1] - fought[2])])
    assert sum(data.decided) + data.undecided == pytest.approx(100) and data.decided_errors == [0, 0, 0]  # exact
    assert [label for label, _, _ in data.lost] == ["the charger's side", "the charged unit"]
    for (_, means, errors), prefix in zip(data.lost, ("health_lost", "enemy_health_lost")):
        assert means == [exact[f"{prefix}_by_round_{k}"].mean for k in (1, 2, 3)] and errors == [0, 0, 0]
        assert means == sorted(means)  # lost by the end of each round: never fewer later


def test_a_sampled_fight_has_error_bars_of_95_percent():
    sampled = ask([*FIGHT, "--trials", "20000", "--seed", "5"]).answer.content.result
    data = rounds_data(sampled)
    assert all(error > 0 for share, error in zip(data.decided, data.decided_errors) if 0 < share < 100)
    fought = sampled["rounds"]
    assert data.decided_errors[0] == pytest.approx(1.96 * fought.stderr(data.decided[0] / 100) * 100)


def test_the_picture_in_words_and_drawn(exact):
    data = rounds_data(exact)
    said = describe(data)
    assert said.startswith(f"round 1: {percent(data.decided[0] / 100)} decided, round 2: ")
    assert said.endswith(f"the charged unit {number(data.lost[1][1][-1])} Health Points by the end")
    top = rounds(exact, heading="a fight")
    assert [round(bar.get_height(), 9) for bar in top.patches] == [round(value, 9) for value in data.decided]
    assert top.get_title(loc="left").startswith("a fight\nin which round the fight is decided")
