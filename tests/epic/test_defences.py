"""What a formation saves with and carries (epic/defences.py), declared once: the target of a shot or a barrage and
both sides of an assault are made of it, their options its fields, each saying whose."""

from __future__ import annotations

import dataclasses

import pytest

from oddscalc.core.attack import option_fields
from oddscalc.epic import Assault, Barrage, EpicShoot
from oddscalc.epic.defences import NOT_GIVEN, Covered, Defences
from oddscalc.epic.formation import Defender, Formation
from oddscalc.epic.war_engines import Critical
from oddscalc.errors import InputError

SHARED = [field.name for field in dataclasses.fields(Defences)]
SHOT = dict(shots=6, to_hit=4, units=3, armour=4)
BOTH = dict(units=6, cc=4, ff=4, armour=4, enemy_units=6, enemy_cc=4, enemy_ff=4, enemy_armour=5)


def helps(kind: type, prefix: str) -> dict[str, str]:
    """Each shared option's help, less whose it says it is."""
    fields = {field.name: field for field in option_fields(kind)}
    return {name: fields[prefix + name].metadata["help"].split(": ", 1)[1] for name in SHARED + ["cover_save"]
            if prefix + name in fields}


def test_shooting_barrages_and_both_sides_of_an_assault_share_one_declaration():
    assert SHARED == ["armour", "reinforced", "invulnerable", "blast_markers", "critical"]
    assert issubclass(Formation, Defences) and issubclass(Defender, Covered) and not issubclass(Formation, Covered)
    shot, barrage = helps(EpicShoot, ""), helps(Barrage, "")
    attacker, defender = helps(Assault, ""), helps(Assault, "enemy_")
    assert shot == barrage == defender and set(shot) == set(SHARED) | {"cover_save"}
    assert attacker == {name: text for name, text in shot.items() if name != "cover_save"}  # the attacker: no cover
    fields = {field.name: field for field in option_fields(EpicShoot)}
    assert fields["armour"].metadata["help"] == "The target formation: its armour save, 2+ to 6+, or none."
    assert fields["critical"].metadata["owner"] == "target" and fields["critical"].default is Critical.NONE


def test_a_shot_needs_its_target_s_armour_where_an_assault_may_leave_it_out():
    assert {field.name: field for field in option_fields(EpicShoot)}["armour"].default is dataclasses.MISSING
    assert {field.name: field for field in option_fields(Assault)}["enemy_armour"].default == NOT_GIVEN
    with pytest.raises(TypeError, match="armour"):
        EpicShoot(shots=6, to_hit=4, units=3)
    assert Assault().enemy_armour == NOT_GIVEN  # the result roll alone


def test_the_target_s_options_are_read_as_attributes_and_changed_through_its_side():
    shot = EpicShoot(**SHOT, cover_save="4+", blast_markers=2, reinforced=True)
    assert shot.target == Covered(armour=4, cover_save=4, blast_markers=2, reinforced=True)
    assert (shot.armour, shot.cover_save, shot.blast_markers, shot.reinforced) == (4, 4, 2, True)
    changed = dataclasses.replace(shot, armour=5, shots=3)
    assert (changed.target.armour, changed.cover_save, changed.shots) == (5, 4, 3)
    assert "--armour 5+" in changed.query() and "--cover-save 4+" in changed.query()


@pytest.mark.parametrize("kind, base, prefix", [(EpicShoot, SHOT, ""), (Assault, BOTH, ""),
                                               (Assault, BOTH, "enemy_")])
@pytest.mark.parametrize("changes, name, line", [
    (dict(blast_markers=101), "blast_markers", "expected 0 to 100 blast markers already on the formation"),
    (dict(armour=None, reinforced=True), "armour", "reinforced armour needs an armour value, 2+ to 6+"),
])
def test_a_formation_s_defences_are_refused_in_its_own_option_s_name(kind, base, prefix, changes, name, line):
    with pytest.raises(InputError) as refused:
        kind(**{**base, **{prefix + key: value for key, value in changes.items()}})
    assert (refused.value.name, refused.value.allowed) == (prefix + name, line)


def test_a_cover_save_out_of_bounds_is_refused_for_the_target_and_the_defender():
    for kind, base, prefix in ((EpicShoot, SHOT, ""), (Assault, BOTH, "enemy_")):
        with pytest.raises(InputError) as refused:
            kind(**{**base, prefix + "cover_save": 7})
        assert (refused.value.name, refused.value.allowed) == (prefix + "cover_save",
                                                               "expected a cover save from 2+ to 6+")


@pytest.mark.parametrize("name, good, bad", [("armour", (2, 6, None), (0, 1, 7)), ("cover_save", (2, 6, None), (1, 7))])
def test_a_save_s_bounds_are_2_to_6_and_a_value_past_them_is_refused_as_written(name, good, bad):
    for value in good:
        assert getattr(EpicShoot(**{**SHOT, name: value}), name) == value
    for value in bad:
        with pytest.raises(InputError) as refused:
            EpicShoot(**{**SHOT, name: value})
        assert (refused.value.name, refused.value.value) == (name, f"{value}+")
        assert refused.value.allowed == {"armour": "expected an armour save from 2+ to 6+, or none",
                                         "cover_save": "expected a cover save from 2+ to 6+"}[name]


def test_a_hundred_blast_markers_are_allowed_and_reinforced_armour_of_none_is_refused_as_none():
    assert EpicShoot(**SHOT, blast_markers=100).blast_markers == 100
    with pytest.raises(InputError) as refused:
        EpicShoot(**{**SHOT, "armour": None, "reinforced": True})
    assert refused.value.value == "none"


@pytest.mark.parametrize("query", ["epic shoot --shots 6 --to-hit 4+ --units 3", "epic barrage --bp 3 --units 3"])
def test_a_shot_s_or_a_barrage_s_armour_of_0_is_refused_in_one_line(capsys, query):
    """0 is what an assault's side holds for an armour left out; a shot's target must have a save, or none."""
    from clirun import run

    result = run(capsys, *query.split(), "--armour", "0+", "--exact")
    assert (result.code, result.out, result.err.strip()) == (2, "", "error: --armour 0+: expected an armour save "
                                                                     "from 2+ to 6+, or none")
