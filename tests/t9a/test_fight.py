"""How the two sides of a 9th Age combat meet (oddscalc/t9a/fight.py; docs/rules.md §3.11): which units touch
which, who flanks whom, the order of the Initiative Steps, the rounds asked, the pursuit's odds; worked by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from oddscalc.errors import InputError
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight import MAX_ROUNDS, MAX_STEP, Blow, by_round, read_rounds

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
UNIT = "models 4 width 4 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7"


def fight(**more):
    values = dict(models=5, width=5, **PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()},
                  enemy_models=10, enemy_width=5)
    return Combat(**{**values, **more}).fight


def test_main_units_touch_every_unit_of_the_other_side_and_allies_only_the_main_one():
    both = fight(with_unit=(UNIT + " facing flank",), enemy_with_unit=(UNIT + " facing rear", UNIT + " facing flank"))
    assert both.foes(0, 0) == (0, 1, 2) and both.foes(0, 1) == (0,)
    assert both.foes(1, 0) == (0, 1) and both.foes(1, 2) == (0,)
    assert both.flanking(1, 0) == ((1, "flank"),)  # the charger's ally in the charged unit's flank
    assert both.flanking(0, 0) == ((1, "rear"), (2, "flank"))  # the charged side's allies in the charger's
    assert both.flanking(0, 1) == () and both.flanking(1, 1) == ()
    assert both.facings == ("front", "flank") and both.enemy_facings == ("front", "rear", "flank")
    assert fight(flank=True).flanking(1, 0) == ((0, "flank"),)


def test_a_blow_names_its_striker_and_the_unit_it_strikes():
    assert fight().ends(Blow(0, "melee", 0, 2, 1)) == (2, 1)  # the charger's unit 2 strikes the charged side's 1
    assert fight().ends(Blow(1, "melee", 0, 2, 1)) == (1, 2)  # the charged side's unit 1 strikes the charger's 2


@pytest.mark.parametrize("chase, order", [("main", (0, 1, 2)), ("ally", (2, 1, 0))])
def test_the_chase_order(chase, order):
    assert fight(chase=chase).chase_order(3) == order and fight(chase=chase).chase_order(1) == (0,)


def test_the_steps_run_down_with_charging_momentum_and_impact_hits_first():
    """The charger (Agility 3) strikes at 4 in the first round, at 3 after; its Impact Hits at 10, first round only;
    the charged unit (Agility 5) at 5 each round; a Great Weapon at 0."""
    charging = fight(impact_hits="1", enemy_agility=5, enemy_great_weapon=False)
    first = dict(charging.in_round(True).schedule(True))
    assert list(first) == sorted(first, reverse=True)
    assert first[MAX_STEP] == (Blow(0, "impact"),) and Blow(0, "melee") in first[4] and Blow(1, "melee") in first[5]
    later = dict(charging.in_round(False).schedule(False))
    assert MAX_STEP not in later and Blow(0, "melee") in later[3] and Blow(1, "melee") in later[5]
    great = dict(fight(enemy_great_weapon=True).schedule(True))
    assert Blow(1, "melee") in great[0]


def test_the_rounds_asked():
    assert read_rounds("end") == read_rounds(" END ") == MAX_ROUNDS and read_rounds("3") == 3
    with pytest.raises(InputError) as refused:
        read_rounds("three")
    assert refused.value.name == "rounds"
    assert by_round(2) == ("decided", "health_lost_by_round_1", "health_lost_by_round_2",
                           "enemy_health_lost_by_round_1", "enemy_health_lost_by_round_2")


def test_a_pursuit_catches_with_the_2d6_at_least_the_flee_2d6():
    """Counted over every roll; a Maximised roll (Swiftstride: three dice, the lowest dropped) catches more, and
    flees better (the exact twin's table: the charged unit fled, the charger pursues)."""
    from oddscalc.t9a.fight_exact import _caught_tables

    def caught(fleeing: bool, pursuing: bool) -> F:
        return _caught_tables(fight(enemy_swiftstride=fleeing, swiftstride=pursuing), F)[1][0][0b1, 0]

    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    maximised = [sum(sorted(dice)[1:]) for dice in itertools.product(range(1, 7), repeat=3)]
    assert caught(False, False) == F(sum(p >= f for f in rolls for p in rolls), 36 ** 2) == F(721, 1296)
    assert caught(False, True) == F(sum(p >= f for f in rolls for p in maximised), 36 * 216)
    assert caught(True, False) == F(sum(p >= f for f in maximised for p in rolls), 216 * 36)
    assert caught(True, False) < F(721, 1296) < caught(False, True)
