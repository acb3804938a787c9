"""A side of an Epic assault (epic/formation.py), declared once: the attacker and the defender are two of it, the
query has its fields twice (the defender's as `--enemy-…`), each saying whose it is, each reader refusing in the name
of its own side's option."""

from __future__ import annotations

import dataclasses

import pytest

from oddscalc.core.attack import option_fields
from oddscalc.epic import Assault
from oddscalc.epic.formation import Defender, Formation
from oddscalc.errors import InputError

FIELDS = {field.name: field for field in option_fields(Assault)}
MINE = dict(units=6, cc="4+", ff="3+", armour="4+")
THEIRS = dict(enemy_units=12, enemy_cc="4+", enemy_ff="6+", enemy_armour="6+")


def test_a_formation_is_declared_once_and_the_query_has_it_twice_saying_whose_it_is():
    names = {field.name for field in dataclasses.fields(Formation)}
    assert {field.name for field in dataclasses.fields(Defender)} - names == {"cover_save", "broken"}
    for prefix, who, kind in (("", "The assaulting formation", Formation), ("enemy_", "The defending formation",
                                                                           Defender)):
        for field in dataclasses.fields(kind):
            assert FIELDS[prefix + field.name].metadata["help"].startswith(f"{who}: "), field.name
    assert "cover_save" not in FIELDS and "broken" not in FIELDS and "enemy_broken" in FIELDS
    assert "--enemy-units fight in base contact" in FIELDS["enemy_in_contact"].metadata["help"]
    assert FIELDS["units"].metadata["first"] and FIELDS["enemy_armour"].metadata["first"]


@pytest.mark.parametrize("prefix", ["", "enemy_"])
def test_a_formation_s_readers_refuse_in_that_side_s_name(prefix):
    with pytest.raises(InputError) as error:
        FIELDS[prefix + "tk_damage"].metadata["reader"]("x")
    assert error.value.name == prefix + "tk_damage"
    with pytest.raises(InputError) as error:
        FIELDS[prefix + "other"].metadata["many"]("2 cc 9+")
    assert error.value.name == prefix + "other"


def test_an_assault_is_made_of_its_options_by_name():
    assault = Assault(**MINE, **THEIRS, enemy_broken=True, other=["2 cc 6+ ff 6+ armour 5+"])
    assert type(assault.attacker) is Formation and type(assault.defender) is Defender
    assert (assault.units, assault.enemy_units, assault.defender.broken, assault.cc, assault.enemy_ff) == (
        6, 12, True, 4, 6)
    assert len(assault.other) == 1 and assault.enemy_other == ()
    changed = dataclasses.replace(assault, enemy_units=8)
    assert (changed.enemy_units, changed.units, changed.enemy_broken) == (8, 6, True)
    assert Assault(attacker=assault.attacker, defender=assault.defender) == assault
    with pytest.raises(TypeError, match="cover_save"):
        Assault(**MINE, **THEIRS, cover_save="4+")  # the assaulting side takes no cover save
    assert Assault().outcomes == ("win", "draw", "margin") and Assault().units is None  # the result roll alone
    assert assault.key() == Assault.from_options({**MINE, **THEIRS, "enemy_broken": True,
                                                  "other": ["2 cc 6+ ff 6+ armour 5+"]}).key()
