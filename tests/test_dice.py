from fractions import Fraction

import numpy as np
import pytest
from agreement import as_pmf, enumerate_faces, exact_list
from hypothesis import given
from hypothesis import strategies as st

from oddscalc.core import pmf as pmfs
from oddscalc.core.dice import EXACT_SECONDS, Check, DiceExpression, FaceReader, Natural, net_extra, rerolled
from oddscalc.errors import InputError
from oddscalc.core.terms import exact_seconds
from oddscalc.core.totals import keep_pmf, sum_pmf

F = Fraction


def brute_chance(check: Check, rerolls: int = 0) -> Fraction:
    sides = (6,) * (check.faces * (rerolls + 1))
    table = enumerate_faces(sides, lambda *faces: bool(FaceReader(tuple(np.array([f]) for f in faces))
                                                         .check(check, rerolls)[0]))
    return table.get(True, F(0))


@pytest.mark.parametrize("natural", list(Natural))
@pytest.mark.parametrize("need", range(-1, 12))
def test_chance_matches_the_faces(natural, need):
    check = Check(need, natural)
    assert check.chance() == brute_chance(check)


@pytest.mark.parametrize(
    "need, natural, expected",
    [
        (1, Natural.EPIC, F(5, 6)),  # a natural 1 always misses (§2.1)
        (0, Natural.EPIC, F(5, 6)),
        (4, Natural.EPIC, F(1, 2)),
        (7, Natural.EPIC, F(1, 12)),  # 6 then 4+
        (8, Natural.EPIC, F(1, 18)),  # 6 then 5+
        (9, Natural.EPIC, F(1, 36)),  # 6 then 6
        (10, Natural.EPIC, F(0)),  # 10+ cannot hit
        (7, Natural.HOPELESS, F(1, 12)),  # hopeless shot (§3.4)
        (8, Natural.HOPELESS, F(0)),
        (1, Natural.HOPELESS, F(5, 6)),
        (1, Natural.ONE_AND_SIX, F(5, 6)),  # natural 1 fails (§3.3)
        (9, Natural.ONE_AND_SIX, F(1, 6)),  # natural 6 succeeds
        (2, Natural.SAVE, F(5, 6)),
        (7, Natural.SAVE, F(0)),  # a save pushed past 6+ is impossible (§2.2)
    ],
)
def test_chance_values_from_the_rules(need, natural, expected):
    assert Check(need, natural).chance() == expected


@pytest.mark.parametrize("rerolls", [1, 2])
@pytest.mark.parametrize("check", [Check(5, Natural.SAVE), Check(4, Natural.ONE_AND_SIX), Check(7, Natural.EPIC)])
def test_rerolls_match_the_faces(check, rerolls):
    assert rerolled(check.chance(), rerolls) == brute_chance(check, rerolls)


def test_sustained_and_berserk_chances():
    dust_hit = F(1, 3)
    assert rerolled(dust_hit, 1) == F(5, 9)  # sustained attack (§1.3)
    assert rerolled(dust_hit, 2) == F(19, 27)  # with Berserk


@pytest.mark.parametrize("dice, extra", [(1, 0), (2, 0), (2, 1), (2, 2), (2, -1), (3, -2), (1, 3), (3, 1)])
def test_keep_pmf_matches_brute_force(dice, extra):
    def kept(*faces):
        ordered = sorted(faces, reverse=extra >= 0)
        return sum(ordered[:dice])

    expected = as_pmf(enumerate_faces((6,) * (dice + abs(extra)), kept))
    assert exact_list(keep_pmf(dice, 6, extra)) == expected


def test_keep_pmf_other_dice():
    expected = as_pmf(enumerate_faces((3, 3, 3), lambda *f: sum(sorted(f)[1:])))
    assert exact_list(keep_pmf(2, 3, 1)) == expected


def test_maximised_2d6_table():
    # docs/rules.md §3.1: P(2..12) = 1, 3, 7, 12, 19, 27, 34, 36, 34, 27, 16 (/216), E = 203/24
    pmf = exact_list(keep_pmf(2, 6, 1))
    assert pmf[2:] == [F(n, 216) for n in (1, 3, 7, 12, 19, 27, 34, 36, 34, 27, 16)]
    assert pmfs.mean(keep_pmf(2, 6, 1)) == F(203, 24)


def test_maximised_and_minimised_cancel():
    assert net_extra(1, 1) == 0
    assert net_extra(2, 1) == 1
    assert exact_list(keep_pmf(2, 6, net_extra(3, 3))) == exact_list(keep_pmf(2, 6, 0))


@pytest.mark.parametrize(
    "text, count, sides, modifier",
    [("2d6", 2, 6, 0), ("d3", 1, 3, 0), ("3d6+1", 3, 6, 1), ("d6-1", 1, 6, -1), ("D6 + 2", 1, 6, 2), ("7", 0, 6, 7)],
)
def test_parse_expressions(text, count, sides, modifier):
    assert DiceExpression.parse(text) == DiceExpression(count, sides, modifier)


@pytest.mark.parametrize("text", ["2z", "d", "2d", "d6+", "0d6", "2d1", "2d6*2", "", "-1", "1e3"])
def test_bad_expressions_are_refused(text):
    with pytest.raises(InputError) as error:
        DiceExpression.parse(text, "attacks")
    assert error.value.name == "attacks"


@pytest.mark.parametrize("text", ["2d6", "d3", "3d3+1", "d6-2", "2d4-1", "4"])
def test_expression_pmf_matches_brute_force(text):
    expression = DiceExpression.parse(text)
    if expression.count == 0:
        assert exact_list(expression.pmf()) == [F(0)] * expression.modifier + [F(1)]
        return
    # D3 is read off a D6 as ⌈D6/2⌉ (§3.1)
    sides = 6 if expression.sides == 3 else expression.sides
    face = (lambda f: (f + 1) // 2) if expression.sides == 3 else (lambda f: f)
    table = enumerate_faces((sides,) * expression.count, lambda *fs: max(sum(map(face, fs)) + expression.modifier, 0))
    assert exact_list(expression.pmf()) == as_pmf(table)


needs = st.integers(min_value=-2, max_value=12)
flavours = st.sampled_from(list(Natural))


@given(needs, flavours)
def test_an_easier_roll_never_lowers_the_chance(need, natural):
    assert Check(need, natural).chance() >= Check(need + 1, natural).chance()


@given(needs, flavours, st.integers(0, 3))
def test_rerolls_never_lower_the_chance(need, natural, rerolls):
    chance = Check(need, natural).chance()
    assert rerolled(chance, rerolls + 1) >= rerolled(chance, rerolls) >= chance


@given(st.integers(1, 4), st.integers(-3, 3))
def test_keep_pmf_is_a_distribution_and_more_maximised_is_better(dice, extra):
    pmf = keep_pmf(dice, 6, extra)
    assert sum(pmf) == 1
    assert all(p >= 0 for p in pmf)
    assert pmfs.mean(keep_pmf(dice, 6, extra + 1)) >= pmfs.mean(pmf)


@pytest.mark.parametrize("dice, sides, extra", [
    (2, 6, 1), (10, 6, 3), (3, 10, -2), (1, 2, 4), (7, 3, -5),  # few multisets: counted one by one
    (20, 6, 3), (8, 10, -2), (12, 6, 8), (5, 20, 2), (30, 4, -6), (3, 100, 2), (2, 100, -3),  # order statistics
])
def test_float_keep_pmf_agrees_with_integer_weights(dice, sides, extra):
    """Both float methods (counting multisets, order statistics) against exact integer counts: 1e-12."""
    floats = keep_pmf(dice, sides, extra, number=float)
    exact = keep_pmf(dice, sides, extra)
    assert floats.dtype == float and len(floats) == len(exact) == dice * sides + 1
    assert np.abs(floats - np.asarray(exact, dtype=float)).max() < 1e-12
    assert sum(exact) == 1


@pytest.mark.parametrize("count, sides", [(1, 6), (7, 3), (200, 6), (40, 100)])
def test_float_sum_pmf_agrees_with_integer_weights(count, sides):
    floats, exact = sum_pmf(count, sides, number=float), sum_pmf(count, sides)
    assert sum(exact) == 1 and exact[count] == F(1, sides**count)
    assert np.abs(floats - np.asarray(exact, dtype=float)).max() < 1e-12


@pytest.mark.parametrize("dice, sides, extra, fractions", [
    (200, 6, 0, False), (200, 6, 3, False), (200, 100, 0, False), (40, 100, 3, False),
    (10, 6, 3, True),
    (6, 10, 3, False), (20, 6, 3, True),
])
def test_the_cost_model_admits_what_answers_within_the_limit(dice, sides, extra, fractions):
    """What the model admits (docs: under EXACT_SECONDS) it computes; the timing lives in the benchmark."""
    assert exact_seconds(dice, sides, extra, fractions) <= EXACT_SECONDS
    assert len(keep_pmf(dice, sides, extra, number=Fraction if fractions else float)) == dice * sides + 1


@pytest.mark.parametrize("dice, sides, extra, fractions", [
    (200, 6, 3, True), (100, 100, 0, True), (200, 100, 0, True), (40, 100, 3, True), (200, 100, 100, True),
])
def test_the_cost_model_refuses_hostile_sizes(dice, sides, extra, fractions):
    assert exact_seconds(dice, sides, extra, fractions) > EXACT_SECONDS


def test_in_floats_the_largest_roll_allowed_is_answered():
    """200 dice of 100 sides, 100 extra: floats by order statistics stay within the limit."""
    assert exact_seconds(200, 100, 100, False) <= EXACT_SECONDS
    assert exact_seconds(200, 100, -100, False) <= EXACT_SECONDS
