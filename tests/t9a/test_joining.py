"""An imported 9th Age list's character joined to one of its units (oddscalc/t9a/joining.py): the unit gets the
character's profile as `--character` reads it, its mount, its points; what the profile cannot carry is said; a bad
join is one line naming --join. (The command line's `import --join` on real lists: tests/cli/test_join.py.)"""

from __future__ import annotations

import copy

import pytest

from oddscalc.errors import InputError
from oddscalc.t9a.joining import join_characters
from oddscalc.t9a.profiles import read_character

HERO = dict(name="Marshal", models=1, points=150, attack_value=3, offensive=5, defensive=5, strength=4,
            resilience=4, agility=5, health=3, discipline=9, armour=2, weapon=[
                dict(kind="melee", offensive=None, strength=6, ap=3, attributes=["lethal-strike"]),
                dict(kind="shooting")], charge_strength=2)
UNIT = dict(name="Knights", models=5, points=300, attack_value=1, offensive=4, defensive=4, strength=4,
            resilience=3, agility=3)


def roster(*units):
    return {"game": "t9a", "unit": [copy.deepcopy(unit) for unit in units]}


def test_a_character_joins_with_its_profile_points_and_notes():
    data = roster(HERO, UNIT)
    notes = join_characters(data, ["Marshal = Knights"])
    (unit,) = data["unit"]
    assert unit["name"] == "Knights" and unit["points"] == 450
    hero = read_character(unit["character"], "join")
    assert (hero.fighter.attacks, hero.fighter.offensive, hero.fighter.strength, hero.fighter.ap,
            hero.fighter.health, hero.fighter.discipline, hero.fighter.armour) == (3, 5, 6, 3, 3, 9, 2)
    assert hero.fighter.attributes == ("lethal-strike",) and not hero.battle_standard
    assert notes == ["Marshal joins Knights (its points 450 together); not carried: its charge bonus (a Lance), "
                     "its shooting"]


def test_a_mount_and_a_standard_go_with_the_character():
    bearer = dict(HERO, name="Bearer", standard=True, mount="A2 O3 S4 I3", weapon=[], charge_strength=0)
    data = roster(bearer, UNIT)
    assert join_characters(data, ["Bearer=Knights"]) == ["Bearer joins Knights (its points 450 together)"]
    (unit,) = data["unit"]
    assert unit["character_mount"] == "A2 O3 S4 I3" and read_character(unit["character"], "join").battle_standard


@pytest.mark.parametrize("units, join, says", [
    ((HERO, UNIT), "Marshal", "expected CHARACTER=UNIT"),
    ((HERO, UNIT), "Marshal=Nobody", "no unit named 'Nobody'"),
    ((HERO, UNIT, UNIT), "Marshal=Knights", "several units named 'Knights'"),
    ((HERO, UNIT), "Knights=Marshal", "'Knights' has 5 models: a character is one"),
    ((HERO,), "Marshal=Marshal", "a character joins another unit"),
    ((dict(HERO, agility=None), UNIT), "Marshal=Knights", "cannot fight a round of combat (no agility)"),
    ((HERO, dict(UNIT, character="A1 O1 D1 S1 R1 I1")), "Marshal=Knights", "has a character already"),
])
def test_a_bad_join_is_one_line_naming_join(units, join, says):
    with pytest.raises(InputError) as refused:
        join_characters(roster(*units), [join])
    assert refused.value.name == "join" and says in refused.value.allowed


def test_only_a_9th_age_list_joins():
    with pytest.raises(InputError) as refused:
        join_characters({"game": "epic", "unit": []}, ["Warlord=Boyz"])
    assert refused.value.name == "join" and "9th Age" in refused.value.allowed
