"""Reactive fire (docs/rules.md §1.10): alone, and chained before or after the enemy's attack."""

from fractions import Fraction

import pytest
from agreement import binomial, exact_list, mean

from oddscalc.dust import Reactive, WeaponLine
from oddscalc.errors import InputError

F = Fraction


# --- §1.10: reactive fire ------------------------------------------------------------------


def test_reactive_fire():
    assert exact_list(Reactive().exact(fractions=True)["success"]) == [F(2, 3), F(1, 3)]


# --- docs/rules.md §1.10: reactive fire, chained ----------------------------------------------------


def test_reactive_fire_before_the_attack_can_destroy_the_attacker():
    """«если отряд совершает действия «движение + атака», ответный огонь должен быть открыт сразу после
    действия движения» (seed 000: move + attack: the reaction comes right after the move, before the attack)."""
    chained = Reactive(dice=3, damage=2, health=4, enemy_dice=4).exact(fractions=True)
    line = exact_list(WeaponLine(3, 2).exact(fractions=True)["damage"])
    destroyed = F(1, 3) * sum(line[4:])
    assert chained["success"][1] == F(1, 3)
    assert chained["destroyed"][1] == destroyed
    assert mean(chained["damage"]) == F(1, 3) * mean(line)
    assert mean(chained["damage_taken"]) == (1 - destroyed) * 4 * F(1, 3)  # a destroyed attacker never shoots


def test_reactive_fire_after_the_attack_needs_a_survivor():
    """«если отряд совершает действия «атака + движение», ответный огонь должен быть открыт сразу после
    действия атаки» (seed 000: attack + move: after the attack); a unit the attack destroyed cannot react."""
    chained = Reactive(dice=2, timing="attack-move", enemy_dice=3, own_health=2).exact(fractions=True)
    survives = sum(binomial(3, F(1, 3))[:2])
    assert chained["success"][1] == F(1, 3) * survives
    assert mean(chained["damage_taken"]) == 1  # the enemy's attack always happens first
    assert mean(chained["damage"]) == F(1, 3) * survives * 2 * F(1, 3)


def test_reactive_fire_cannot_interrupt_a_sustained_attack():
    with pytest.raises(InputError) as error:
        Reactive(dice=2, timing="sustained")
    assert error.value.name == "timing" and "cannot interrupt a sustained attack (Dust Tactics rules, Reactive Fire)" in error.value.allowed


@pytest.mark.parametrize("options, name", [
    ({"health": 2}, "health"), ({"enemy_dice": 2}, "enemy_dice"),
    ({"dice": 2, "timing": "move-move", "enemy_dice": 2}, "enemy_dice"),
    ({"dice": 2, "enemy_dice": 2, "own_health": 2}, "own_health"),
    ({"dice": 2, "timing": "attack-move", "own_health": 2}, "own_health"),
    ({"dice": 2, "health": 0}, "health"),
])
def test_reactive_fire_refuses_what_it_would_ignore(options, name):
    with pytest.raises(InputError) as error:
        Reactive(**options)
    assert error.value.name == name


def test_reactive_fire_alone_keeps_its_one_outcome():
    assert Reactive().outcomes == ("success",) and Reactive().query() == "oddscalc dust reactive"
    assert Reactive(dice=2, health=1, enemy_dice=1).outcomes == ("success", "damage", "destroyed", "damage_taken")
