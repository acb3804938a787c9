"""Dust weapons (docs/rules.md §1.2 to §1.11): weapon lines, phasers, salvos, artillery, cover saves
and Damage Resilient, exact values from the rules and brute force over natural faces."""

from fractions import Fraction

import cases
import pytest
from agreement import as_pmf, binomial, enumerate_faces, exact_list, mean

from oddscalc.dust import (
    ArmourPiercingIncendiary,
    CoverSave,
    Incendiary,
    Phaser,
    Salvo,
    WeaponLine,
)
from oddscalc.errors import InputError

F = Fraction

CASES = cases.DUST


# --- §1.2: weapon line N/D, order of resolution -----------------------------------------


def test_damage_per_hit():
    pmf = exact_list(WeaponLine(3, damage=2).exact(fractions=True)["damage"])
    assert pmf == [F(8, 27), 0, F(4, 9), 0, F(2, 9), 0, F(1, 27)]


def test_hits_are_counted_before_saves():
    line = WeaponLine(4, save=CoverSave.MISS).exact(fractions=True)
    assert exact_list(line["hits"]) == binomial(4, F(1, 3))
    assert exact_list(line["damage"]) == binomial(4, F(1, 9))


# --- §1.3: re-rolls -----------------------------------------------------------------------


def test_sustained_per_die_and_four_dice():
    assert exact_list(WeaponLine(1, sustained=True).exact(fractions=True)["hits"]) == [F(4, 9), F(5, 9)]
    assert exact_list(WeaponLine(4, sustained=True).exact(fractions=True)["damage"]) == binomial(4, F(5, 9))


def test_berserk_alone_and_with_sustained():
    assert WeaponLine(1, berserk=True).exact(fractions=True)["hits"][1] == F(5, 9)
    assert WeaponLine(1, sustained=True, berserk=True).exact(fractions=True)["hits"][1] == F(19, 27)
    assert exact_list(WeaponLine(3, sustained=True, berserk=True).exact(fractions=True)["hits"]) == binomial(
        3, F(19, 27))


# --- §1.4: burst fire ---------------------------------------------------------------------


def test_burst_doubles_the_dice():
    burst = WeaponLine(3, 2, burst=True, save="hit").exact(fractions=True)
    double = WeaponLine(6, 2, save="hit").exact(fractions=True)
    assert exact_list(burst["damage"]) == exact_list(double["damage"])
    assert exact_list(burst["hits"]) == binomial(6, F(1, 3))


# --- §1.5: phaser -----------------------------------------------------------------------


def test_phaser_2z3_whole_pmf():
    pmf = exact_list(Phaser(2, 3).exact(fractions=True)["damage"])
    assert pmf == [F(3844, 6561), F(496, 2187), F(296, 2187), F(268, 6561), F(20, 2187), F(4, 2187),
                   F(1, 6561)]
    assert mean(pmf) == F(2, 3)


@pytest.mark.parametrize("aim, blast, sustained", [(2, 3, False), (2, 3, True), (4, 1, True), (1, 5, False)])
def test_phaser_mean(aim, blast, sustained):
    p = F(5, 9) if sustained else F(1, 3)
    assert mean(Phaser(aim, blast, sustained=sustained).exact(fractions=True)["damage"]) == aim * p * blast / 3


def test_phaser_rerolls_only_the_first_stage():
    """1z2 sustained: the aim die and its re-roll, then two plain blast dice."""

    def outcome(aim, again, first, second):
        hit = aim >= 5 or again >= 5
        return (first >= 5) + (second >= 5) if hit else 0

    expected = as_pmf(enumerate_faces((6,) * 4, outcome))
    assert exact_list(Phaser(1, 2, sustained=True).exact(fractions=True)["damage"]) == expected


def test_phaser_two_aim_dice_by_brute_force():
    """2z1 sustained: each aim die and its re-roll; one blast die per hit."""

    def outcome(a, a_again, b, b_again, first, second):
        hits = (a >= 5 or a_again >= 5) + (b >= 5 or b_again >= 5)
        return ((first >= 5) if hits >= 1 else 0) + ((second >= 5) if hits == 2 else 0)

    expected = as_pmf(enumerate_faces((6,) * 6, outcome))
    assert exact_list(Phaser(2, 1, sustained=True).exact(fractions=True)["damage"]) == expected


def test_phaser_ignores_cover():
    with pytest.raises(TypeError):
        Phaser(2, 3, save=CoverSave.HIT)


# --- §1.6: salvo -----------------------------------------------------------------------


def test_salvo_3_2():
    pmf = exact_list(Salvo.parse("3/2").exact(fractions=True)["damage"])
    assert pmf == [F(8, 27), 0, F(4, 9), 0, F(2, 9), 0, F(1, 27)]
    assert mean(pmf) == 2


@pytest.mark.parametrize("charges, dice, damage", [(1, 3, 2), (2, 5, 2), (3, 7, 3)])
def test_salvo_charges_pick_the_entry(charges, dice, damage):
    salvo = Salvo.parse("3/2 – 5/2 – 7/3", charges=charges, sustained=True, save="hit")
    assert salvo.exact(fractions=True)["damage"] == WeaponLine(
        dice, damage, sustained=True, save="hit").exact(fractions=True)["damage"]


def test_salvo_bare_count_means_one_damage():
    assert Salvo.parse("2-4").entries == ((2, 1), (4, 1))
    assert str(Salvo.parse("3/2 - 5/2")) == "3/2-5/2"
    with pytest.raises(InputError) as error:  # 3-2 is 3/1-2/1: two charges would roll fewer dice than one
        Salvo.parse("3-2")
    assert error.value.name == "salvo" and "for 3 dice of 2 damage write 3/2" in error.value.allowed
    with pytest.raises(InputError) as error:
        Salvo.parse("3/2-5/2-4/2")
    assert "3 charges roll fewer dice (4) than 2 (5)" in error.value.allowed
    assert Salvo.parse("3/1-3/2").entries == ((3, 1), (3, 2))  # as many dice, more damage: a salvo


# --- §1.9: artillery -----------------------------------------------------------------------


def test_artillery_ignores_cover():
    for save in ("hit", "miss"):
        for artillery in ("direct", "indirect"):
            shot = WeaponLine(4, 2, save=save, artillery=artillery).exact(fractions=True)
            assert exact_list(shot["damage"]) == exact_list(WeaponLine(4, 2).exact(fractions=True)["damage"])


def test_artillery_keeps_cover_in_a_structure():
    shot = WeaponLine(4, save="miss", artillery="direct", in_structure=True).exact(fractions=True)
    assert exact_list(shot["damage"]) == binomial(4, F(1, 9))


def test_direct_fire_allows_a_sustained_attack():
    assert WeaponLine(1, sustained=True, artillery="direct").exact(fractions=True)["hits"][1] == F(5, 9)


def test_indirect_success_face():
    assert WeaponLine(1, artillery="indirect").exact(fractions=True)["hits"][1] == F(1, 3)
    assert WeaponLine(1, artillery="indirect", indirect_success="blank").exact(fractions=True)["hits"][1] == F(2, 3)
    berserk = WeaponLine(1, berserk=True, artillery="indirect", indirect_success="blank")
    assert berserk.exact(fractions=True)["hits"][1] == F(8, 9)  # a failure (a hit face) is re-rolled


def test_indirect_blank_by_brute_force():
    """2 dice, damage 2, indirect, blank succeeds, Berserk: each die and its re-roll."""

    def outcome(a, a_again, b, b_again):
        return 2 * ((a <= 4 or a_again <= 4) + (b <= 4 or b_again <= 4))

    line = WeaponLine(2, 2, berserk=True, artillery="indirect", indirect_success="blank")
    assert exact_list(line.exact(fractions=True)["damage"]) == as_pmf(enumerate_faces((6,) * 4, outcome))


def test_indirect_fire_refuses_a_sustained_attack():
    with pytest.raises(InputError) as error:
        WeaponLine(3, sustained=True, artillery="indirect")
    assert error.value.name == "sustained"


# --- §1.11: cover saves and Damage Resilient ------------------------------------------------


def test_cover_per_die():
    assert WeaponLine(1, save="hit").exact(fractions=True)["damage"][1] == F(2, 9)  # soft
    assert WeaponLine(1, save="miss").exact(fractions=True)["damage"][1] == F(1, 9)  # hard


def test_saves_by_brute_force():
    """2 dice sustained into a hit-save: roll, re-roll, save die, per die."""

    def outcome(a, a_again, a_save, b, b_again, b_save):
        return sum(int((face >= 5 or again >= 5) and save <= 4)
                   for face, again, save in ((a, a_again, a_save), (b, b_again, b_save)))

    line = WeaponLine(2, sustained=True, save="hit")
    assert exact_list(line.exact(fractions=True)["damage"]) == as_pmf(enumerate_faces((6,) * 6, outcome))


def test_resilient_cancels_damage_points():
    assert exact_list(WeaponLine(1, resilient=True).exact(fractions=True)["damage"]) == [F(7, 9), F(2, 9)]
    two = exact_list(WeaponLine(1, 2, resilient=True).exact(fractions=True)["damage"])
    assert two == [F(19, 27), F(4, 27), F(4, 27)]


def test_whole_line_by_brute_force():
    """1 die, damage 2, sustained and Berserk into a miss-save, Damage Resilient."""

    def outcome(face, again, third, save, first_point, second_point):
        hit = face >= 5 or again >= 5 or third >= 5
        if not (hit and save >= 5):
            return 0
        return (first_point <= 4) + (second_point <= 4)

    line = WeaponLine(1, 2, sustained=True, berserk=True, save="miss", resilient=True)
    assert exact_list(line.exact(fractions=True)["damage"]) == as_pmf(enumerate_faces((6,) * 6, outcome))


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: WeaponLine(-1), "dice"),
        (lambda: WeaponLine(51), "dice"),
        (lambda: WeaponLine(2, 11), "damage"),
        (lambda: WeaponLine(True), "dice"),
        (lambda: WeaponLine(2, 0), "damage"),
        (lambda: WeaponLine(2, save="maybe"), "save"),
        (lambda: WeaponLine(2, artillery="mortar"), "artillery"),
        (lambda: WeaponLine(2, sustained=True, artillery="indirect"), "sustained"),
        (lambda: WeaponLine(2, in_structure=True), "in_structure"),
        (lambda: WeaponLine(2, indirect_success="blank"), "indirect_success"),
        (lambda: WeaponLine(2, artillery="direct", indirect_success="blank"), "indirect_success"),
        (lambda: Phaser.parse("2z"), "phaser"),
        (lambda: Phaser.parse("z3"), "phaser"),
        (lambda: Phaser.parse("0z3"), "phaser"),
        (lambda: Phaser.parse("2z21"), "phaser"),
        (lambda: Phaser.parse("2x3"), "phaser"),
        (lambda: Salvo.parse("3/2-5/2-7/2", charges=4), "charges"),
        (lambda: Salvo.parse("3/2", charges=0), "charges"),
        (lambda: Salvo.parse("3/2-"), "salvo"),
        (lambda: Salvo.parse(""), "salvo"),
        (lambda: Salvo.parse("3/0"), "salvo"),
        (lambda: Salvo.parse("three"), "salvo"),
        (lambda: Incendiary(1, 0), "models"),
        (lambda: Incendiary(0, 3), "dice"),
        (lambda: Incendiary(1, 3, save="soft"), "save"),
        (lambda: ArmourPiercingIncendiary(1, 0), "models"),
        (lambda: ArmourPiercingIncendiary(11, 1), "dice"),
    ],
)
def test_bad_input_names_the_parameter(make, name):
    with pytest.raises(InputError) as error:
        make()
    assert error.value.name == name


# --- docs/rules.md §1.3, §1.4: re-rolls and burst fire on every attack ------------------------------


def test_berserk_stacks_as_a_second_pass_or_once_by_the_switch():
    """Seed 000 never combines Berserk with a sustained attack (RULES.md §1.3: open, keep a switch)."""
    stacked = WeaponLine(1, sustained=True, berserk=True).exact(fractions=True)["hits"][1]
    once = WeaponLine(1, sustained=True, berserk=True, berserk_stacking="once").exact(fractions=True)["hits"][1]
    assert (stacked, once) == (F(19, 27), F(5, 9))
    phaser = Phaser(1, 1, sustained=True, berserk=True, berserk_stacking="once").exact(fractions=True)["hits"]
    assert phaser[1] == F(5, 9)


@pytest.mark.parametrize("attack", [
    lambda: WeaponLine(2, berserk_stacking="once"), lambda: WeaponLine(2, sustained=True, berserk_stacking="once"),
    lambda: Incendiary(1, 2, berserk=True, berserk_stacking="once"),
])
def test_berserk_stacking_once_needs_both_re_rolls(attack):
    with pytest.raises(InputError) as error:
        attack()
    assert error.value.name == "berserk_stacking" and "--sustained and --berserk" in error.value.allowed


def test_burst_doubles_the_dice_of_every_attack():
    """«Ведя огонь из оружия, стреляющего очередями, по цели, которая не двигалась в этот ход, удвойте
    количество бросаемых кубиков» (seed 001: at a target that has not moved, double the dice)."""
    assert exact_list(Incendiary(1, 3, burst=True).exact(fractions=True)["damage"]) == binomial(6, F(1, 3))
    burst = Salvo.parse("2/2-3/2", charges=2, burst=True).exact(fractions=True)["damage"]
    assert exact_list(burst) == exact_list(WeaponLine(6, 2).exact(fractions=True)["damage"])
    # a phaser's burst doubles the X dice only: 2z3 in a burst is 4z3
    assert exact_list(Phaser(2, 3, burst=True).exact(fractions=True)["damage"]) == exact_list(
        Phaser(4, 3).exact(fractions=True)["damage"])


def test_fields_after_the_dice_are_keywords():
    """A positional third argument would silently set another field: it is refused."""
    with pytest.raises(TypeError):
        Phaser(2, 3, True)
    with pytest.raises(TypeError):
        WeaponLine(2, 1, True)


def test_a_weapon_line_destroys_a_unit_of_its_damage_points():
    """P(destroyed) = P(damage ≥ H): 4/2 against 3 damage points needs 2 hits of 4 dice."""
    exact = WeaponLine(4, 2, health=3).exact(fractions=True)
    assert exact["destroyed"][1] == 1 - F(2, 3) ** 4 - 4 * F(1, 3) * F(2, 3) ** 3 == F(11, 27)
    assert "destroyed" not in WeaponLine(4, 2).outcomes
    with pytest.raises(InputError) as error:
        WeaponLine(4, 2, health=201)
    assert error.value.name == "health"


def test_a_phaser_and_a_salvo_destroy_a_unit_of_their_damage_points():
    """Which one wipes my squad: P(destroyed) = P(damage ≥ H), the same outcome as the weapon line's.
    1z2 at 2 damage points: the one die hits, then both blast dice (1/3 · 1/9); 3/2-5/2 with 2 charges at
    4 damage points: two hits of five dice."""
    phaser = Phaser(1, 2, health=2).exact(fractions=True)
    assert list(phaser["destroyed"]) == [F(26, 27), F(1, 27)]
    salvo = Salvo.parse("3/2-5/2", charges=2, health=4).exact(fractions=True)
    assert salvo["destroyed"][1] == 1 - F(2, 3) ** 5 - 5 * F(1, 3) * F(2, 3) ** 4
    assert salvo.get("destroyed") is not None and "destroyed" not in Salvo.parse("3/2").outcomes
    assert "a unit of 4 damage points" in Salvo.parse("3/2-5/2", charges=2, health=4).describe()
    assert "a unit of 2 damage points" in Phaser(1, 2, health=2).describe()
    for attack in (lambda: Phaser(1, 2, health=0), lambda: Salvo.parse("3/2", health=201)):
        with pytest.raises(InputError) as error:
            attack()
        assert error.value.name == "health"
