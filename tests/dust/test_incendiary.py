"""Incendiary and armour-piercing incendiary weapons (docs/rules.md §1.7, §1.8): dice per model,
cover as a switch, re-rolls and burst fire."""

from fractions import Fraction

import pytest
from agreement import as_pmf, assert_agrees, binomial, enumerate_faces, exact_list

from oddscalc.dust import ArmourPiercingIncendiary, Incendiary
from oddscalc.errors import InputError

F = Fraction


# --- §1.7, §1.8: incendiary ----------------------------------------------------------------


@pytest.mark.parametrize("dice, models", [(1, 4), (2, 3), (1, 1)])
def test_incendiary_is_binomial_in_dice_times_models(dice, models):
    pmf = exact_list(Incendiary(dice, models).exact(fractions=True)["damage"])
    assert pmf == binomial(dice * models, F(1, 3))


def test_incendiary_cover_is_a_switch():
    assert exact_list(Incendiary(1, 3, save="hit").exact(fractions=True)["damage"]) == binomial(3, F(2, 9))
    ignored = Incendiary(1, 3, save="hit", ignore_cover=True).exact(fractions=True)["damage"]
    assert exact_list(ignored) == binomial(3, F(1, 3))


@pytest.mark.parametrize("dice, models", [(1, 3), (1, 1), (2, 5), (3, 2)])
def test_ap_incendiary(dice, models):
    destroyed = ArmourPiercingIncendiary(dice, models).exact(fractions=True)["destroyed"]
    assert exact_list(destroyed) == [F(2, 3) ** (dice * models), 1 - F(2, 3) ** (dice * models)]


def test_ap_incendiary_by_brute_force():
    expected = as_pmf(enumerate_faces((6,) * 4, lambda *faces: int(any(face >= 5 for face in faces))))
    assert exact_list(ArmourPiercingIncendiary(2, 2).exact(fractions=True)["destroyed"]) == expected


def test_parse_per_model():
    from oddscalc.dust import parse_per_model

    assert [parse_per_model(text) for text in ("1", "2/+", "3/skull", " 1 / + ")] == [1, 2, 3, 1]
    with pytest.raises(InputError):
        parse_per_model("1/x")


def test_the_largest_incendiary_agrees():
    """10 dice per model against 50 models: 500 dice, beyond a weapon line's own limit."""
    assert_agrees(Incendiary(10, 50, save="miss", resilient=True), trials=50_000)


def test_incendiary_re_rolls_its_misses():
    """«Поддерживающая атака – отряд может перебросить все промахи один раз для каждой линейки оружия»
    (seed 000: a sustained attack re-rolls all misses once per weapon line): every incendiary die is one."""
    assert exact_list(Incendiary(1, 3, sustained=True).exact(fractions=True)["hits"]) == binomial(3, F(5, 9))
    assert exact_list(Incendiary(1, 2, berserk=True, sustained=True).exact(fractions=True)["damage"]) == \
        binomial(2, F(19, 27))


def test_ap_incendiary_re_rolls_and_burst():
    destroyed = ArmourPiercingIncendiary(1, 2, sustained=True).exact(fractions=True)["destroyed"][1]
    assert destroyed == 1 - F(4, 9) ** 2
    assert ArmourPiercingIncendiary(1, 2, burst=True).exact(fractions=True)["destroyed"][1] == 1 - F(2, 3) ** 4
