"""The options each side of a `t9a combat` has (t9a/sides.py), declared once and set twice: the charger's, then the
charged unit's as `--enemy-…`, each saying whose it is, each reader refusing in the name of its own side."""

from __future__ import annotations

import dataclasses

import pytest

from oddscalc.errors import InputError
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.sides import SIDES, _side_options, dashed

FIELDS = {field.name: field for field in dataclasses.fields(Combat)}


def test_every_side_option_is_on_the_query_twice_saying_whose_it_is():
    names = _side_options("", "").keys()
    assert {"mount", "stomp", "character", "character_mount", "hatred", "parry"} <= set(names)
    for prefix, who in SIDES:
        for name in names:
            assert FIELDS[prefix + name].metadata["help"].startswith(f"{who}: "), prefix + name
    assert FIELDS["mount"].default == FIELDS["enemy_mount"].default is None
    assert (dashed(""), dashed("enemy_")) == ("", "enemy-")


@pytest.mark.parametrize("prefix", ["", "enemy_"])
@pytest.mark.parametrize("name, bad", [("mount", "A9 O3"), ("stomp", "d7"), ("character", "attacks x"),
                                       ("character_mount", "harnessed")])
def test_a_sides_reader_refuses_in_that_sides_name(prefix, name, bad):
    with pytest.raises(InputError) as error:
        FIELDS[prefix + name].metadata["reader"](bad)
    assert error.value.name == prefix + name
