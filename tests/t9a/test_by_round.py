"""A fight of rounds seen round by round (`t9a combat --by-round`; docs/rules.md §3.11): in which round it is
decided, what each side has lost by the end of each round, and its picture."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from clirun import assert_refused, run
from oddscalc.core import engine
from oddscalc.output.plot_rounds import describe, rounds_data
from oddscalc.t9a.combat import Combat

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)


def fight(**more) -> Combat:
    values = dict(models=4, width=4, **PLAIN, **{f"enemy_{k}": v for k, v in PLAIN.items()}, enemy_models=6,
                  enemy_width=3, enemy_stubborn=True, rounds=4, by_round=True)
    return Combat(**{**values, **more})


def test_the_last_round_s_losses_are_the_fight_s_and_the_rounds_add_up():
    exact = fight().exact(fractions=True)
    assert exact["health_lost_by_round_4"] == exact["health_lost"]
    assert exact["enemy_health_lost_by_round_4"] == exact["enemy_health_lost"]
    # by the end of round 1 no more than one round's worth is lost: each side's losses only grow
    means = [sum(k * p for k, p in enumerate(exact[f"health_lost_by_round_{r}"])) for r in range(1, 5)]
    assert means == sorted(means) and means[0] < means[-1]
    # a fight not decided ran to the last round: P(undecided) <= P(4 rounds fought)
    assert 1 - exact["decided"][1] <= exact["rounds"][4] and exact["decided"][1] > F(1, 2)
    # rounds before the last end only when decided
    assert exact["decided"][1] - sum(exact["rounds"][1:4]) >= 0


def test_the_picture_s_figures_are_the_result_s():
    attack = fight()
    result = engine.exact(attack)
    data = rounds_data(result)
    assert data.rounds == [1, 2, 3, 4]
    assert sum(data.decided) == pytest.approx(100 * result["decided"].at_least(1), abs=1e-9)
    assert data.decided[0] == pytest.approx(100 * result["rounds"].probabilities[1], abs=1e-9)
    assert data.undecided == pytest.approx(100 - sum(data.decided), abs=1e-9)
    assert [label for label, _, _ in data.lost] == ["the charger's side", "the charged unit"]
    assert data.lost[0][1][-1] == pytest.approx(result["health_lost"].mean, abs=1e-12)
    assert data.lost[1][1][0] == pytest.approx(result["enemy_health_lost_by_round_1"].mean, abs=1e-12)
    assert not any(data.decided_errors)  # exact: no error bars
    assert describe(data).startswith("round 1: ")


def test_the_command_line_draws_the_rounds(capsys, tmp_path):
    words = ["t9a", "combat"]
    for key, value in dict(models=4, width=4, **PLAIN).items():
        words += [f"--{key}", str(value)]
    for key, value in dict(models=6, width=3, **PLAIN).items():
        words += [f"--enemy-{key}", str(value)]
    picture = tmp_path / "rounds.png"
    result = run(capsys, *words, "--rounds", "4", "--by-round", "--trials", "2e4", "--seed", "3", "--plot",
                 picture, "--outcome", "rounds", "--format", "json")
    assert result.code == 0, result.err
    outcomes = result.json()["outcomes"]
    assert {"decided", "health_lost_by_round_4", "enemy_health_lost_by_round_1"} <= set(outcomes)
    assert outcomes["health_lost_by_round_4"]["mean"] == outcomes["health_lost"]["mean"]
    assert picture.stat().st_size > 10_000 and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert_refused(capsys, *words, "--by-round", mentions=("--by-round", "--rounds 2 or more"))
