"""One attack on a unit's defence as rosters and combats name it (oddscalc/t9a/sequence.py, docs/rules.md §3):
Parry, Distracting, Flammable, the re-rolls and Toxic Attacks by name."""

from __future__ import annotations

import pytest

from oddscalc.t9a.attacks import Melee, T9AHits, T9AShoot
from oddscalc.t9a.sequence import Defence, attack_on

TARGET = Defence(defensive=3, resilience=3)


def melee(offensive: int = 3, attributes=(), modifier: int = 0, **defence) -> Melee:
    return attack_on("melee", 5, offensive=offensive, strength=3, ap=0, attributes=attributes, multiple_wounds=None,
                     target=Defence(**{"defensive": 3, "resilience": 3, **defence}), modifier=modifier)


@pytest.mark.parametrize("offensive, defensive, parried", [(2, 6, 7), (5, 3, 5), (1, 3, 4), (4, 3, 4), (3, 10, 10)])
def test_parry_is_defensive_skill_plus_one_or_the_attackers_offensive_skill(offensive, defensive, parried):
    assert melee(offensive, defensive=defensive, parry=True).defensive == parried
    assert melee(offensive, ["ignores-parry"], defensive=defensive, parry=True).defensive == defensive
    assert melee(offensive, defensive=defensive).defensive == defensive


@pytest.mark.parametrize("modifier, distracted", [(0, -1), (1, 0), (-1, -1), (-2, -2)])
def test_distracting_is_minus_one_unless_another_negative_modifier(modifier, distracted):
    assert melee(modifier=modifier, distracting=True).hit_modifier == distracted


@pytest.mark.parametrize("attributes, hits, wounds", [
    ((), "none", "none"), (("hatred",), "failed", "none"), (("reroll-hits",), "failed", "none"),
    (("reroll-hit-ones", "reroll-wounds"), "ones", "failed"), (("reroll-wound-ones",), "none", "ones"),
])
def test_re_rolls_by_name(attributes, hits, wounds):
    attack = melee(attributes=attributes)
    assert (attack.reroll_hits.value, attack.reroll_wounds.value) == (hits, wounds)


def test_flammable_toxic_and_the_kinds():
    assert melee(attributes=["flaming"], flammable=True).flammable
    assert not melee(attributes=["auto-wound"], flammable=True).flammable
    toxic = melee(attributes=["toxic"])
    assert toxic.toxic and toxic.strength is None and toxic.ap == 0
    hits = attack_on("automatic", 4, offensive=None, strength=4, ap=1, attributes=(), multiple_wounds=None,
                     target=TARGET)
    assert isinstance(hits, T9AHits) and hits.ap == 1
    shots = attack_on("shooting", 4, offensive=None, strength=4, ap=0, attributes=(), multiple_wounds=None,
                      target=Defence(3, 3, hard_target=1), aim=4, modifier=-1)
    assert isinstance(shots, T9AShoot) and shots.modifier == -2
