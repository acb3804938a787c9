"""The 9th Age's rolls of two dice and the direction die (docs/rules.md §3.1, §3.9): charges,
Discipline tests and Combat Reform, and the scatter of a shot."""

from fractions import Fraction

import cases
import pytest
from agreement import as_pmf, enumerate_faces, exact_list, mean

from oddscalc.errors import InputError
from oddscalc.t9a.rolls import Charge, Direction, DisciplineTest

F = Fraction

CASES = cases.T9A


# --- a charge, a Discipline test and the direction die (§3.1, §3.8) --------------------


def test_worked_example_maximised_2d6():
    exact = CASES["charge 9, maximised"].exact(fractions=True)
    assert exact_list(exact["sum"])[2:] == [F(n, 216) for n in (1, 3, 7, 12, 19, 27, 34, 36, 34, 27, 16)]
    assert mean(exact["sum"]) == F(203, 24)
    assert exact["success"][1] == F(36 + 34 + 27 + 16, 216)  # 9 or more


def test_direction_die_brute_force():
    hits = enumerate_faces((6,), lambda face: int(face in (1, 6)))  # §3.1: a plain D6's 1 or 6
    assert exact_list(Direction().exact(fractions=True)["hit"]) == as_pmf(hits) == [F(2, 3), F(1, 3)]


@pytest.mark.parametrize("maximised, minimised", [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (2, 1), (1, 1)])
def test_charge_and_test_brute_force(maximised, minimised):
    extra = maximised - minimised  # §3.1: one maximised and one minimised cancel

    def kept(*faces):
        return sum(sorted(faces, reverse=extra >= 0)[:2])

    sums = as_pmf(enumerate_faces((6,) * (2 + abs(extra)), kept))
    for distance in (3, 7, 9, 12):
        charge = Charge(distance=distance, maximised=maximised, minimised=minimised).exact(fractions=True)
        assert exact_list(charge["sum"]) == sums
        assert charge["success"][1] == sum(p for total, p in enumerate(sums) if total >= distance)
    for discipline in (4, 7, 10):
        test = DisciplineTest(discipline=discipline, maximised=maximised, minimised=minimised).exact(fractions=True)
        assert test["success"][1] == sum(p for total, p in enumerate(sums) if total <= discipline)


@pytest.mark.parametrize(
    "make, name",
    [(lambda: Charge(distance=0), "distance"), (lambda: Charge(distance=31), "distance"),
     (lambda: Charge(distance=8, maximised=-1), "maximised"), (lambda: DisciplineTest(discipline=21), "discipline"),
     (lambda: DisciplineTest(discipline=7, minimised=21), "minimised")],
)
def test_bad_roll_options(make, name):
    with pytest.raises(InputError) as error:
        make()
    assert error.value.name == name


# --- §3.9 Combat Reform (seed 004, XIII.8 «Боевое реформирование») -------------------------------------


def two_dice_at_most(value: int) -> Fraction:
    return sum((Fraction(1, 36) for a in range(1, 7) for b in range(1, 7) if a + b <= value), Fraction(0))


def test_combat_reform_is_tested_at_the_break_tests_penalty():
    """«Этот тест также проходится с пенальти к Дисциплине, равным пенальти к тесту на Разгром в этот ход»:
    the losing side's reform test takes the Break test's penalty to its Discipline."""
    reform = DisciplineTest(discipline=8, penalty=3, combat_reform=True).exact(fractions=True)["success"][1]
    assert reform == two_dice_at_most(5) == Fraction(5, 18)


def test_steadfast_waives_the_penalty():
    """«подразделения, которые его могут использовать, проходят тест для реформирования без пенальти»:
    units that may use «Нас Рать!» test without the penalty."""
    waived = DisciplineTest(discipline=8, penalty=3, steadfast=True, combat_reform=True).exact(fractions=True)
    assert waived["success"][1] == two_dice_at_most(8)


def test_a_unit_engaged_on_two_facings_cannot_reform():
    """«Если подразделение атаковано противниками с двух и более направлений ... реформироваться не может»."""
    for facings in (2, 3):
        test = DisciplineTest(discipline=10, combat_reform=True, facings=facings).exact(fractions=True)
        assert test["success"][1] == 0
    assert DisciplineTest(discipline=10, combat_reform=True, facings=1).exact(fractions=True)["success"][1] == \
        two_dice_at_most(10)


@pytest.mark.parametrize("discipline", [11, 13, 20, -1])
def test_a_discipline_above_ten_is_refused(discipline):
    """A characteristic is at most 10 after its modifiers (docs/rules.md §3.9): a Discipline of 13 is no test."""
    with pytest.raises(InputError) as error:
        DisciplineTest(discipline=discipline)
    assert (error.value.name, error.value.value) == ("discipline", discipline)
    assert error.value.allowed.startswith("expected the Discipline tested against, 0 to 10")


@pytest.mark.parametrize("fields, name", [
    (dict(steadfast=True), "steadfast"), (dict(facings=2), "facings"), (dict(penalty=21), "penalty"),
    (dict(combat_reform=True, facings=5), "facings"), (dict(penalty=-1), "penalty"),
])
def test_discipline_test_refusals(fields, name):
    with pytest.raises(InputError) as error:
        DisciplineTest(discipline=8, **fields)
    assert error.value.name == name


# --- §3.1 the direction die's scatter (seed 003, III.2.B «Кубик направлений») --------------------------------


def test_an_arrow_scatters_the_shot_a_hit_stays():
    """«на две стороны которого нанесены значки HIT, а на четыре другие – стрелки»: 2 HIT faces stay on the
    aim point; 4 arrows move it by the scatter distance."""
    outcomes = Direction(scatter="d6").exact(fractions=True)
    assert exact_list(outcomes["distance"]) == [Fraction(1, 3)] + [Fraction(2, 3) * Fraction(1, 6)] * 6


def test_a_fixed_scatter_distance_is_a_number():
    """The help allows a number: an arrow moves the shot exactly that far."""
    outcomes = Direction(scatter="4", radius=3).exact(fractions=True)
    assert exact_list(outcomes["distance"]) == [Fraction(1, 3), 0, 0, 0, Fraction(2, 3)]
    assert outcomes["within"][1] == Fraction(1, 3)  # 4 inches is outside a radius of 3: only a HIT stays


def test_within_the_radius_counts_an_equal_distance():
    """«даже если расстояние меньше необходимого или равно ему, считается, что объект находится «в пределах»»
    (seed 003: a distance equal to the limit is within it)."""
    within = Direction(scatter="2d6", radius=3).exact(fractions=True)["within"][1]
    assert within == Fraction(1, 3) + Fraction(2, 3) * two_dice_at_most(3)
    assert Direction(scatter="d6", radius=0).exact(fractions=True)["within"][1] == Fraction(1, 3)


def test_direction_refusals():
    with pytest.raises(InputError) as error:
        Direction(radius=3)
    assert error.value.name == "radius" and "--scatter" in error.value.allowed
    with pytest.raises(InputError) as error:
        Direction(scatter="2z6")
    assert error.value.name == "scatter"
    assert Direction().outcomes == ("hit",) and Direction(scatter="d6", radius=2).outcomes == ("hit", "distance",
                                                                                                "within")


def test_a_roll_maximised_five_times_is_answered():
    """Maximised Roll "can stack" (docs/rules.md §3.1): five instances roll 7 dice and keep the highest 2, so a
    charge of 12 needs two sixes among seven."""
    at_least_two_sixes = 1 - Fraction(5, 6) ** 7 - 7 * Fraction(1, 6) * Fraction(5, 6) ** 6
    assert Charge(distance=12, maximised=5).exact(fractions=True)["success"][1] == at_least_two_sixes
