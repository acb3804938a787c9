"""Epic Armageddon (docs/rules.md §2): exact values from the rules, brute force over natural
faces for small cases, and every sampler against its exact twin."""

from fractions import Fraction

import cases
import pytest
from agreement import assert_marginals, enumerate_faces, exact_list

from oddscalc.core import pmf as pmfs
from oddscalc.epic import Assault, Barrage, EpicShoot, barrage_row
from oddscalc.epic.saves import Ability
from oddscalc.errors import InputError

F = Fraction

CASES = cases.EPIC


# --- §2.1 to hit -------------------------------------------------------------------------


def hit_chance(shoot: EpicShoot) -> Fraction:
    """P(one shot hits), from the exact twin's `hits` pmf."""
    assert shoot.shots == 1
    return shoot.exact(fractions=True)["hits"][1]


@pytest.mark.parametrize(
    "to_hit, modifier, in_cover, ignore_cover, expected",
    [
        (4, 0, False, False, F(1, 2)),
        (6, 0, False, False, F(1, 6)),
        (6, -1, False, False, F(1, 12)),  # 7+: a 6, then 4+
        (6, -2, False, False, F(1, 18)),  # 8+: a 6, then 5+
        (6, -3, False, False, F(1, 36)),  # 9+: a 6, then 6
        (6, -4, False, False, F(0)),  # 10+ cannot hit
        (5, -1, True, False, F(1, 12)),  # in cover: -1 more
        (5, -1, True, True, F(1, 6)),  # ignore cover cancels the cover -1
        (2, 1, False, False, F(5, 6)),  # needing 1: a natural 1 still misses
        (2, 4, False, False, F(5, 6)),
        (4, 1, False, False, F(2, 3)),  # sustained fire makes it easier
    ],
)
def test_to_hit_chain(to_hit, modifier, in_cover, ignore_cover, expected):
    shoot = EpicShoot(shots=1, to_hit=to_hit, modifier=modifier, in_cover=in_cover, ignore_cover=ignore_cover,
                  units=1, armour=None)
    assert hit_chance(shoot) == expected
    need = to_hit - modifier + (in_cover and not ignore_cover)

    def literal(first, second):  # docs/rules.md §2.1 as written
        if first == 1:
            return False
        if need <= 6:
            return first >= need
        return need <= 9 and first == 6 and second >= {7: 4, 8: 5, 9: 6}[need]

    assert enumerate_faces((6, 6), literal).get(True, F(0)) == expected


def test_macro_weapon_still_takes_the_cover_to_hit_penalty():
    covered = EpicShoot(shots=1, to_hit=4, units=1, armour=4, in_cover=True, weapon=Ability.MACRO)
    assert hit_chance(covered) == F(1, 3)
    ignoring = EpicShoot(shots=1, to_hit=4, units=1, armour=4, in_cover=True, ignore_cover=True, weapon=Ability.MACRO)
    assert hit_chance(ignoring) == F(1, 2)


def test_crossfire_is_not_a_to_hit_bonus():
    plain = EpicShoot(shots=9, to_hit=4, units=3, armour=4).exact(fractions=True)
    crossfire = EpicShoot(shots=9, to_hit=4, units=3, armour=4, crossfire=True).exact(fractions=True)
    assert list(plain["hits"]) == list(crossfire["hits"])
    assert pmfs.mean(crossfire["kills"]) > pmfs.mean(plain["kills"])


# --- §2.3 hit allocation, in a whole shot --------------------------------------------------


def test_whole_shot_against_brute_force():
    """3 shots at 2 units, to hit 4+, armour 4+, crossfire: every to-hit and save die."""
    shoot = EpicShoot(shots=3, to_hit=4, units=2, armour=4, crossfire=True, blast_markers=1, formation=3)

    def outcome(*faces):
        hit_saves = [faces[2 * i + 1] for i in range(3) if faces[2 * i] >= 4]  # hits in shot order
        dead = {j % 2 for j, save in enumerate(hit_saves) if save < 5}
        kills = len(dead)
        markers = 1 + 1 + kills + (1 if kills else 0)
        return kills, len(hit_saves), markers, int(markers >= 3 - kills)

    table = enumerate_faces((6,) * 6, outcome)
    assert_marginals(shoot.exact(fractions=True), shoot.outcomes, table)


# --- §2.4 blast markers and breaking -------------------------------------------------------


def test_a_formation_that_cannot_be_harmed_still_takes_a_blast_marker():
    exact = CASES["shoot 10+ cannot hit"].exact(fractions=True)
    assert exact_list(exact["blast_markers"]) == [0, 0, 1]  # 1 existing + 1 for coming under fire
    assert exact_list(exact["broken"]) == [0, 1]  # 2 BMs ≥ 2 units


def test_no_units_left_counts_as_broken():
    exact = EpicShoot(shots=4, to_hit=2, modifier=1, units=1, armour=None, formation=1).exact(fractions=True)
    assert exact_list(exact["broken"]) == [0, 1]  # 1 BM ≥ 1 unit, or no unit left


# --- §2.5 barrages -------------------------------------------------------------------------

BARRAGE_TABLE = {  # docs/rules.md §2.5: BP → (extra templates, extra BMs, AP, AT)
    1: (0, 0, 6, 6), 2: (0, 0, 5, 6), 3: (0, 0, 4, 5), 4: (1, 0, 4, 5), 5: (1, 0, 4, 5), 6: (1, 1, 4, 5),
    7: (1, 1, 4, 5), 8: (2, 1, 4, 5), 9: (2, 1, 4, 5), 10: (2, 2, 4, 5), 11: (2, 2, 4, 5), 12: (2, 2, 4, 5),
    13: (2, 3, 4, 5), 14: (2, 3, 4, 5), 15: (2, 3, 4, 5), 16: (2, 4, 4, 5), 17: (2, 4, 4, 5), 18: (2, 4, 4, 5),
}


@pytest.mark.parametrize("bp", BARRAGE_TABLE)
def test_barrage_table(bp):
    templates, extra, ap, at = BARRAGE_TABLE[bp]
    assert tuple(barrage_row(bp)) == (templates, extra, ap, at)
    for column, to_hit in ((False, ap), (True, at)):
        exact = Barrage(bp=bp, units=1, armour=None, at=column).exact(fractions=True)
        assert exact_list(exact["kills"])[1] == F(7 - to_hit, 6)
        assert exact_list(exact["blast_markers"])[1 + extra] == F(to_hit - 1, 6)  # a miss: 1 + extra BMs


def test_barrage_worked_example():
    exact = CASES["barrage 6 BP at 3 (worked example)"].exact(fractions=True)
    one = Barrage(bp=6, units=1, armour=4).exact(fractions=True)
    assert exact_list(one["kills"]) == [F(3, 4), F(1, 4)]
    assert pmfs.mean(exact["kills"]) == F(3, 4)
    assert pmfs.mean(exact["blast_markers"]) == F(11, 4)
    assert exact_list(exact["broken"]) == [F(27, 64), F(37, 64)]


def test_barrage_against_brute_force():
    """10 BP AT at 2 of 4 units, armour 5+, reinforced, crossfire: every die."""
    barrage = Barrage(bp=10, units=2, armour=5, at=True, reinforced=True, crossfire=True, formation=4,
                      blast_markers=1)

    def outcome(*faces):
        kills = sum(faces[3 * i] >= 5 and faces[3 * i + 1] < 6 and faces[3 * i + 2] < 6 for i in range(2))
        markers = 1 + 1 + 2 + kills + (1 if kills else 0)
        return kills, markers, int(markers >= 4 - kills)

    table = enumerate_faces((6,) * 6, outcome)
    assert_marginals(barrage.exact(fractions=True), barrage.outcomes, table)


def test_barrage_rolls_once_per_unit():
    exact = Barrage(bp=18, units=3, armour=None).exact(fractions=True)
    assert exact_list(exact["kills"]) == exact_list(pmfs.binomial(3, F(1, 2)))


# --- §2.7 assault ---------------------------------------------------------------------------


@pytest.mark.parametrize("bonus, enemy_bonus, keep_highest", [(0, 0, False), (2, 1, False), (-1, 3, False),
                                                             (6, 0, False), (0, 0, True), (2, -3, True),
                                                             (6, 0, True), (11, 0, False), (0, 6, True)])
def test_assault_against_brute_force(bonus, enemy_bonus, keep_highest):
    """The rulebook adds each side's two dice (1.12.7); --keep-highest keeps each side's highest die."""
    kept = max if keep_highest else (lambda one, other: one + other)

    def outcome(a, b, c, d):
        mine, theirs = kept(a, b) + bonus, kept(c, d) + enemy_bonus
        return int(mine > theirs), int(mine == theirs), abs(mine - theirs)

    table = enumerate_faces((6,) * 4, outcome)
    assert_marginals(Assault(bonus=bonus, enemy_bonus=enemy_bonus, keep_highest=keep_highest).exact(fractions=True), Assault().outcomes, table)


def test_the_assault_says_which_reading_it_rolls():
    assert Assault().describe() == "Epic assault result: +0 against +0"
    assert Assault(bonus=2, enemy_bonus=-1, keep_highest=True).describe() == (
        "Epic assault result: +2 against -1, each side's highest die kept")


def test_assault_even_sides():
    added = Assault().exact(fractions=True)  # P(2D6 = s) = (6 − |s − 7|)/36
    assert exact_list(added["draw"])[1] == sum(F(6 - abs(s - 7), 36) ** 2 for s in range(2, 13)) == F(73, 648)
    assert exact_list(added["win"])[1] == (1 - F(73, 648)) / 2
    highest = Assault(keep_highest=True).exact(fractions=True)
    draw = sum(F(2 * k - 1, 36) ** 2 for k in range(1, 7))  # P(highest = k) = (2k − 1)/36
    assert exact_list(highest["draw"])[1] == draw
    assert exact_list(highest["win"])[1] == (1 - draw) / 2


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: EpicShoot(shots=3, to_hit=1, units=2, armour=4), "to_hit"),
        (lambda: EpicShoot(shots=3, to_hit=7, units=2, armour=4), "to_hit"),
        (lambda: EpicShoot(shots=0, to_hit=4, units=2, armour=4), "shots"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=0, armour=4), "units"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=7), "armour"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=1), "armour"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=None, reinforced=True), "armour"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=4, cover_save=7), "cover_save"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=4, modifier=-7), "modifier"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=4, blast_markers=-1), "blast_markers"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=4, armour=4, formation=3), "formation"),
        (lambda: EpicShoot(shots=3, to_hit=4, units=2, armour=4, weapon="laser"), "weapon"),
        (lambda: Barrage(bp=0, units=2, armour=4), "bp"),
        (lambda: Barrage(bp=19, units=2, armour=4), "bp"),
        (lambda: Barrage(bp=6, units=5, formation=4, armour=4), "formation"),
        (lambda: Assault(bonus=21), "bonus"),
    ],
)
def test_bad_input(make, name):
    with pytest.raises(InputError) as error:
        make()
    assert error.value.name == name


def test_weapon_by_name():
    assert EpicShoot(shots=1, to_hit=4, units=1, armour=4, weapon="titan-killer").weapon is Ability.TITAN_KILLER
