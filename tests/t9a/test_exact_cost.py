"""How long The 9th Age combat's exact twin takes, told before any work (oddscalc/t9a/exact_cost.py): it grows with
rounds, fractions, models, several units a side, and a Combat Reform's bit; and a query past the cap is refused in
one line before any work."""

from __future__ import annotations

import pytest

from clirun import assert_refused
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.exact_cost import (ALLIED_ROUND, BOTH_LINES_FRACTIONS, ENEMY_LINE, FIRST_ROUND, PER_STATE, REFORMS,
                                     exact_cost)

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)


def combat(**more) -> Combat:
    values = dict(models=1, width=1, **PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()},
                  enemy_models=1, enemy_width=1)
    return Combat(**{**values, **more})


def test_the_cost_is_told_before_any_work_and_grows_with_rounds_and_fractions():
    small, big = combat().fight, combat(models=20, width=5, enemy_models=20, enemy_width=5).fight
    assert 0 < exact_cost(small, 1) < exact_cost(small, 3) < exact_cost(small, 3, fractions=True)
    assert exact_cost(small, 3) < exact_cost(big, 3)
    allied = combat(with_unit=("models 5 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 "
                               "agility 3 discipline 7 facing flank",)).fight
    both = combat(with_unit=("models 5 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 "
                             "discipline 7 facing flank",),
                  enemy_with_unit=("models 5 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 "
                                   "agility 3 discipline 7 facing flank",)).fight
    assert exact_cost(allied, 2) < exact_cost(both, 2)


def test_a_combat_reform_s_bit_costs_more_in_later_rounds_only():
    flank, kept = (combat(models=10, width=5, enemy_models=20, enemy_width=5, flank=True, combat_reform=reform,
                          rounds=3).fight for reform in ("face", "keep"))
    assert exact_cost(flank, 1) == exact_cost(kept, 1) and exact_cost(flank, 3) > exact_cost(kept, 3)


def test_too_costly_is_refused_before_any_work(capsys, monkeypatch):
    from oddscalc.t9a import combat as combat_module

    words = ["t9a", "combat", "--models", "60", "--width", "10", "--enemy-models", "60", "--enemy-width", "10"]
    for prefix in ("", "enemy-"):
        words += [word for key, value in PLAIN.items() for word in (f"--{prefix}{key}", str(value))]
    monkeypatch.setattr(combat_module, "combat_pmfs", lambda *args, **kwargs: pytest.fail("the work began"))
    assert_refused(capsys, *words, "--rounds", "end", "--exact", "--fractions", mentions=("sample instead",))


ONE = "models 1 width 1 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7 facing flank"


@pytest.mark.parametrize("fractions", [False, True])
def test_the_estimate_worked_by_hand_at_one_model_a_side(fractions):
    """One model a side: each can lose its one Health Point (2 x 2 pairs), at two steps (the charger's 4, the
    enemy's 3); the first round a tenth of a later one; charged in the flank, a later round twice (the reform bit)."""
    per_step = PER_STATE[fractions] * 2
    assert exact_cost(combat().fight, 1, fractions) == pytest.approx(per_step * 4 * FIRST_ROUND)
    assert exact_cost(combat().fight, 3, fractions) == pytest.approx(per_step * 4 * (2 + FIRST_ROUND))
    flank = combat(flank=True, rounds=3).fight
    assert exact_cost(flank, 3, fractions) == pytest.approx(per_step * 4 * (2 * REFORMS + FIRST_ROUND))


def test_the_estimate_of_a_duel_and_of_a_second_unit_worked_by_hand():
    """A Duel of characters of 3 and 1 Health Points: the pairs grow by the root of each one's states, sqrt(4 * 2).
    A second unit of one model in the flank: the charger's side can lose 2 (pairs 2 x 3), and its later rounds walk
    every state of both sides: (1 + 1) x 2 flags for each of its two units, times the charged model's 2 states."""
    duel = combat(character="A1 O3 D3 S3 R3 I3 H3", enemy_character="A1 O3 D3 S3 R3 I3 H1", challenge=True).fight
    assert exact_cost(duel, 2) == pytest.approx(PER_STATE[False] * 2 * 4 * 8 ** 0.5 * (1 + FIRST_ROUND))
    allied = combat(with_unit=(ONE,)).fight
    assert allied.reach() == (1, 2)
    assert exact_cost(allied, 3) == pytest.approx(PER_STATE[False] * 2 * (6 * FIRST_ROUND + 4 * 4 * 2 * 2 * ALLIED_ROUND))


@pytest.mark.parametrize("fractions", [False, True])
def test_the_estimate_of_units_on_both_sides_and_of_an_ally_s_character_worked_by_hand(fractions):
    """The charged side's second unit: pairs 3 x 2, states 2 (the charger) x 4 x 4 (two units, each 2 states and 2
    flags), times `ENEMY_LINE`; a second unit each side: pairs 3 x 3, states 16 x 16, times `ENEMY_LINE` and, in
    fractions, `BOTH_LINES_FRACTIONS`; a character of 2 Health Points in the charger's second unit: its 3 states
    too, in fractions only (pairs 2 x 3, states 4 x 4 x 2, and x 3)."""
    step = PER_STATE[fractions] * 2
    theirs = combat(enemy_with_unit=(ONE,)).fight
    assert exact_cost(theirs, 2, fractions) == pytest.approx(
        step * (6 * FIRST_ROUND + 2 * 16 * ENEMY_LINE[fractions] * ALLIED_ROUND))
    both = combat(with_unit=(ONE,), enemy_with_unit=(ONE,)).fight
    assert exact_cost(both, 2, fractions) == pytest.approx(step * (9 * FIRST_ROUND + 256 * ENEMY_LINE[fractions] * (
        BOTH_LINES_FRACTIONS if fractions else 1) * ALLIED_ROUND))
    hero = combat(with_unit=(ONE + " character A1 O3 D3 S3 R3 I3 H2",)).fight
    assert exact_cost(hero, 2, fractions) == pytest.approx(step * (6 * FIRST_ROUND + 32 * (3 if fractions else 1)
                                                                   * ALLIED_ROUND))

