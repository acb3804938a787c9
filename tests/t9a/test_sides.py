"""A side of a `t9a combat` (t9a/sides.py), declared once: the charger and the charged unit are two of it, the query
has its fields twice (the charged unit's as `--enemy-…`, from `core/attack.py:side`), each saying whose it is, each
reader refusing in the name of its own side's option."""

from __future__ import annotations

import dataclasses

import pytest

from oddscalc.core.attack import option_fields
from oddscalc.errors import InputError
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.sides import CHARGER_NAMES, SIDE_NAMES, SIDES, Charger, Side, dashed

FIELDS = {field.name: field for field in option_fields(Combat)}
PLAIN = dict(models=5, width=5, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)


def test_a_side_is_declared_once_and_the_query_has_it_twice_saying_whose_it_is():
    assert [field.name for field in dataclasses.fields(Combat)][:2] == ["charger", "charged"]
    assert {"models", "mount", "stomp", "character", "character_mount", "hatred", "parry"} <= SIDE_NAMES
    assert CHARGER_NAMES - SIDE_NAMES == {"impact_hits", "charge_attacks", "charge_strength", "charge_ap"}
    for prefix, who in SIDES:
        names = SIDE_NAMES if prefix else CHARGER_NAMES
        assert {name for name in FIELDS if name.startswith(prefix) and name[len(prefix):] in names} >= {
            prefix + name for name in names}
        for name in names:
            assert FIELDS[prefix + name].metadata["help"].startswith(f"{who}: "), prefix + name
    assert "enemy_impact_hits" not in FIELDS and FIELDS["mount"].default == FIELDS["enemy_mount"].default is None
    assert "--enemy-strength and --enemy-ap" in FIELDS["enemy_great_weapon"].metadata["help"]
    assert "its --strength and --ap" in FIELDS["great_weapon"].metadata["help"]
    assert (dashed(""), dashed("enemy_")) == ("", "enemy-")


@pytest.mark.parametrize("prefix", ["", "enemy_"])
@pytest.mark.parametrize("name, bad", [("mount", "A9 O3"), ("stomp", "d7"), ("character", "attacks x"),
                                       ("character_mount", "harnessed"), ("armour", "x")])
def test_a_sides_reader_refuses_in_that_sides_name(prefix, name, bad):
    with pytest.raises(InputError) as error:
        FIELDS[prefix + name].metadata["reader"](bad)
    assert error.value.name == prefix + name


def test_a_combat_is_made_of_its_options_by_name_and_reads_each_side_whole():
    combat = Combat(**PLAIN, **{f"enemy_{key}": value for key, value in {**PLAIN, "models": 20}.items()},
                    stomp="d3", enemy_stubborn="true", flank=True)
    assert isinstance(combat.charger, Charger) and type(combat.charged) is Side
    assert (combat.models, combat.enemy_models, combat.charged.models, combat.charged.stubborn) == (5, 20, 20, True)
    assert str(combat.stomp) == "1d3" and combat.charger.stomp == combat.stomp and combat.enemy_stomp is None
    changed = dataclasses.replace(combat, enemy_models=10, impact_hits="1")
    assert (changed.enemy_models, changed.models, changed.charged.stubborn, str(changed.impact_hits)) == (
        10, 5, True, "1")
    assert Combat(charger=combat.charger, charged=combat.charged, flank=True) == combat
    with pytest.raises(AttributeError, match="'Combat' object has no attribute 'enemy_impact_hits'"):
        combat.enemy_impact_hits  # noqa: B018 (the charged unit does not charge)
    bare = Combat.__new__(Combat)  # (as a copy or an unpickling makes it, before its fields are set)
    assert not hasattr(bare, "models") and not hasattr(bare, "charger")
    with pytest.raises(TypeError, match="enemy_charge_ap"):
        Combat(**PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()}, enemy_charge_ap=1)
    with pytest.raises(InputError) as refused:
        Combat(**PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()}, enemy_armour="x")
    assert refused.value.name == "enemy_armour"


def test_a_combat_travels_whole():
    import pickle

    combat = Combat(**PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()}, enemy_character="A2 O5 D4 S4 "
                    "R4 I5 H2", rounds=3)
    again = pickle.loads(pickle.dumps(combat))
    assert again == combat and again.key() == combat.key() and again.enemy_character == combat.enemy_character
