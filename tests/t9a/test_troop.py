"""A side of a combat as the engine counts it (t9a/troop.py): a unit and its character as two Health Pools in one
state code, and the charger's units with their fled flags in one mixed-radix code (Line); every code splits back
into what made it, for ints and for arrays of a million trials alike."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from oddscalc.t9a.fighter import Fighter
from oddscalc.t9a.troop import CAUGHT, FLED, OVERKILL, Line, Troop

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
UNIT = Fighter(models=10, width=5, health=1, **PLAIN)
HERO = Fighter(models=1, width=1, health=3, **{**PLAIN, "discipline": 9})


@pytest.mark.parametrize("troop", [Troop(UNIT), Troop(UNIT, HERO), Troop(UNIT, HERO, duel=True)],
                         ids=["alone", "a character", "a character in a Duel"])
def test_a_code_splits_into_its_two_pools_and_back(troop):
    most = HERO.health + (OVERKILL if troop.duel else 0) if troop.hero else 0
    assert troop.span == (1 if troop.hero is None else 1 << most.bit_length()) and troop.span > most
    pairs = list(itertools.product(range(UNIT.total + 1), range(most + 1)))
    for lost, hero in pairs:
        assert troop.pools(troop.code(lost, hero)) == (lost, hero)
    codes = np.array([troop.code(lost, hero) for lost, hero in pairs])
    split = troop.pools(codes)
    assert list(zip(*(np.broadcast_to(part, codes.shape) for part in split))) == pairs  # arrays as ints
    assert troop.states == (UNIT.total + 1) * troop.span and codes.max() < troop.states


def test_a_character_stands_counts_and_lends_until_its_health_is_gone():
    troop = Troop(UNIT, HERO, duel=True)
    for hero in range(HERO.health + OVERKILL + 1):
        code = troop.code(4, hero)
        assert troop.alive(code) == (hero < HERO.health)
        assert troop.left(code) == 6 + (hero < HERO.health)  # 10 models, 4 lost, and the character
        assert troop.lost(code) == 4 + min(hero, HERO.health)  # Overkill is no Health Point lost
        assert troop.scored(code) == 4 + hero  # but counts for the combat score
        assert troop.pools(troop.settled(code)) == (4, min(hero, HERO.health))  # dropped at the round's end
    refused = Troop(UNIT, HERO, refused=True)
    assert refused.alive(refused.code(0, 0)) == 1 and refused.active(refused.code(0, 0)) == 0


def test_a_line_of_units_codes_each_units_flag_and_state():
    line = Line((Troop(UNIT, HERO), Troop(Fighter(models=3, width=3, health=2, **PLAIN))))
    assert line.flagged and line.flags == 3 and line.states == line.sizes[0] * line.sizes[1]
    parts = [[(flag, own) for flag in (0, FLED, CAUGHT) for own in range(troop.states)] for troop in line.troops]
    for first, second in itertools.product(*parts):
        code = line.join([first, second])
        assert 0 <= code < line.states and [tuple(map(int, part)) for part in line.split(code)] == [first, second]
    codes = np.arange(line.states)
    assert [tuple(map(int, part)) for part in zip(*line.split(codes)[1])][:3] == [(0, 0), (0, 1), (0, 2)]
    alone = Line((Troop(UNIT),))
    assert not alone.flagged and alone.states == UNIT.total + 1 and alone.join(alone.split(7)) == 7
