"""A run's result (result.py): each outcome's distribution, the main one first, how it was made, and its
verification against the DKW bound."""

from __future__ import annotations

from fractions import Fraction

import pytest

from oddscalc.core import engine
from oddscalc.core.dice import DiceExpression
from oddscalc.core.hits import HitAndSave
from oddscalc.core.result import Result, Verification
from oddscalc.core.roll import Roll


def test_an_exact_result_names_its_outcomes_main_first_and_its_events():
    attack = HitAndSave(dice=4, to_hit=4, save=5)
    result = engine.run(attack, method="exact", fractions=True)
    assert list(result.outcomes) == list(attack.outcomes) and result.main == attack.outcomes[0]
    assert result[result.main] is result.outcomes[result.main]
    assert (result.method, result.trials, result.seed, result.verification) == ("exact", None, None, None)
    assert result.verified  # nothing to check: nothing failed
    assert result.rationals is not None and sum(result.rationals[result.main]) == Fraction(1)


def test_a_verified_result_is_verified_only_while_every_gap_is_within_its_bound():
    result = engine.run(Roll(DiceExpression.parse("2d6")), method="verify", trials=20_000, seed=3)
    assert result.verification and all(check.within for check in result.verification.values()) and result.verified
    assert result.trials == 20_000 and result.seed == 3
    assert Verification(0.01, 0.02, 0.001).within and Verification(0.02, 0.02, 0.001).within
    assert not Verification(0.021, 0.02, 0.001).within
    failed = Result(result.outcomes, result.method, result.trials, result.seed,
                    {**result.verification, "sum": Verification(0.5, 0.01, 0.001)})
    assert not failed.verified
    with pytest.raises(KeyError):
        result["nothing"]
