"""How long The 9th Age combat's exact twin takes, told before any work (oddscalc/t9a/exact_cost.py): it grows with
rounds, fractions, models, several units a side, and a Combat Reform's bit; and a query past the cap is refused in
one line before any work."""

from __future__ import annotations

import time

from clirun import assert_refused
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.exact_cost import exact_cost

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
    flank, kept = (combat(models=10, width=5, enemy_models=20, enemy_width=5, flank=True, combat_reform=reform).fight
                   for reform in ("face", "keep"))
    assert exact_cost(flank, 1) == exact_cost(kept, 1) and exact_cost(flank, 3) > exact_cost(kept, 3)


def test_too_costly_is_refused_before_any_work(capsys):
    words = ["t9a", "combat", "--models", "60", "--width", "10", "--enemy-models", "60", "--enemy-width", "10"]
    for prefix in ("", "enemy-"):
        words += [word for key, value in PLAIN.items() for word in (f"--{prefix}{key}", str(value))]
    started = time.perf_counter()
    assert_refused(capsys, *words, "--rounds", "end", "--exact", "--fractions", mentions=("sample instead",))
    assert time.perf_counter() - started < 5
