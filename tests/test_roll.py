from fractions import Fraction

import cases
import pytest
from agreement import as_pmf, enumerate_faces, exact_list

from oddscalc.core.dice import DiceExpression
from oddscalc.core.terms import exact_seconds
from oddscalc.errors import InputError
from oddscalc.core.roll import Roll

F = Fraction

CASES = cases.ROLL



@pytest.mark.parametrize("extra, need", [(1, 4), (2, 5), (-1, 4), (-2, 3), (0, 6)])
def test_successes_exact_matches_brute_force(extra, need):
    roll = Roll(DiceExpression.parse("2d6"), max(extra, 0), max(-extra, 0), need)

    def successes(*faces):
        kept = sorted(faces, reverse=extra >= 0)[:2]
        return sum(face >= need for face in kept)

    expected = as_pmf(enumerate_faces((6,) * (2 + abs(extra)), successes))
    assert exact_list(roll.exact(fractions=True)["successes"]) == expected


def test_maximised_2d6_exactly():
    pmf = exact_list(CASES["2d6 maximised"].exact(fractions=True)["sum"])
    assert pmf[2:] == [F(n, 216) for n in (1, 3, 7, 12, 19, 27, 34, 36, 34, 27, 16)]


def test_negative_totals_count_as_zero():
    pmf = exact_list(CASES["d6-2"].exact(fractions=True)["sum"])
    assert pmf == [F(2, 6), F(1, 6), F(1, 6), F(1, 6), F(1, 6)]


@pytest.mark.parametrize(
    "options, name",
    [({"maximised": -1}, "maximised"), ({"minimised": 21}, "minimised"), ({"success": 7}, "success"),
     ({"success": 0}, "success")],
)
def test_bad_roll_options(options, name):
    with pytest.raises(InputError) as error:
        Roll(DiceExpression.parse("2d6"), **options)
    assert error.value.name == name


def test_successes_refuse_a_modifier():
    with pytest.raises(InputError):
        Roll(DiceExpression.parse("2d6+1"), success=4)


@pytest.mark.parametrize("text, maximised, minimised", [
    ("2d6", 0, 0), ("2d6", 1, 0), ("10d6", 3, 0), ("4d6", 0, 2), ("3d3+1", 0, 0), ("2d10-3", 1, 0), ("12d6", 0, 0),
    ("40d100", 0, 0)])
def test_a_roll_in_integer_weights_is_numpy_s_floats_to_within_rounding(text, maximised, minimised):
    """Small rolls are exactly rounded quotients of integer weights (no numpy); large ones numpy's
    floats: the two ways agree wherever both can answer."""
    from oddscalc.core import totals
    from oddscalc.core.roll import QUICK

    roll = Roll(DiceExpression.parse(text), maximised=maximised, minimised=minimised)
    dice = roll.dice
    weights = tuple(float(p) for p in roll._kept(F))  # always the integer weights
    floats = totals.keep_pmf(dice.count, dice.sides, roll.extra, float)
    assert weights == pytest.approx(list(floats), rel=1e-12, abs=1e-15)
    small = exact_seconds(dice.count, dice.sides, roll.extra, True) <= QUICK
    assert isinstance(roll._kept(float), tuple) is small  # the integer weights where they are quick, else an array
    answer = roll.exact()["sum"]
    assert list(answer) == pytest.approx(list(totals.shifted(floats, dice.modifier)), rel=1e-12, abs=1e-15)


def test_only_a_quick_roll_s_weights_are_kept_in_memory():
    """A server asked for many large exact rolls keeps none of their weights (a 60d100's are 6,000 big
    whole numbers); a quick roll's, a few hundred small ones at most, are kept for the next ask."""
    from oddscalc.core import roll

    roll._quick_weights.cache_clear()
    Roll(DiceExpression.parse("30d20")).exact(fractions=True)
    Roll(DiceExpression.parse("30d20")).exact()
    assert roll._quick_weights.cache_info().currsize == 0
    Roll(DiceExpression.parse("2d6"), maximised=1).exact()
    Roll(DiceExpression.parse("2d6"), maximised=1).exact(fractions=True)
    assert roll._quick_weights.cache_info().currsize == 1 and roll._quick_weights.cache_info().hits == 1
