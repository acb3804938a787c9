"""A kind of units on one side of an Epic assault (epic/kinds.py): `--other` and a roster's `assault` entries read,
written back word for word, and refused in one line saying what is allowed."""

from __future__ import annotations

import pytest

from oddscalc.epic.kinds import ExtraAt, Kind
from oddscalc.errors import InputError


@pytest.mark.parametrize("text, line", [
    ("2 cc 6+ ff 5+", "needs armour (2+ to 6+, or none)"),
    ("two cc 6+", "expected units of another profile"),
    ("2 cc 7+ ff 5+ armour 5+", "expected cc 2+ to 6+, or none"),
    ("2 cc 6+ ff 5+ armour 5+ in-contact 3", "in-contact: expected 0 to 2"),
    ("2 cc 6+ ff 5+ armour 5+ cc-dice 1", "cc-dice and critical are a war engine's (DC<d>)"),
    ("1 DC21 cc 4+ ff 4+ armour 4+", "damage capacity: expected 1 to 20"),
    ("1 DC3 cc 4+ ff 4+ armour 4+ cc-dice 4", "cc-dice: expected 0 to 3"),
    ("9 DC3 cc 4+ ff 4+ armour 4+", "count: expected 1 to 8"),
    ("2 cc 6+ ff 5+ armour 5+ wings", "expected units of another profile"),
    ("2 cc 6+ ff 5+ armour 5+ extra-at cc", "extra-at only applies with extra-attacks E"),
    ("", "expected units of another profile"),
    ("2", "needs cc (2+ to 6+, or none)"),
    ("2 cc 4+", "needs ff (2+ to 6+, or none)"),
    ("2 cc 4+ ff 4+ cover none armour 4+", "expected cover 2+ to 6+"),
    ("2 cc 4+ ff 4+ armour 4+ in-contact", "expected units of another profile"),
    ("2 cc 4+ ff 4+ armour 4+ in-contact x", "expected units of another profile"),
    ("2 cc 4+ ff 4+ armour 4+ extra-at both", "expected units of another profile"),
    ("2 cc 4+ ff 4+ armour 4+ critical maybe", "expected units of another profile"),
    ("2 cc 4+ ff 4+ armour 4+ extra-ability lance", "expected units of another profile"),
    ("0 cc 4+ ff 4+ armour 4+", "count: expected 1 to 60"),
    ("61 cc 4+ ff 4+ armour 4+", "count: expected 1 to 60"),
    ("2 cc 4+ ff 4+ armour 4+ extra-attacks 4", "extra-attacks: expected 0 to 3"),
    ("1 DC0 cc 4+ ff 4+ armour 4+", "damage capacity: expected 1 to 20"),
    ("2 cc 4+ ff 4+ armour 4+ critical damage", "cc-dice and critical are a war engine's (DC<d>)"),
    ("2 cc 4+ ff 4+ armour 4+ extra-attacks 1 tk-damage d3", "tk-damage only applies with extra-ability titan-killer"),
])
@pytest.mark.parametrize("name", ["other", "enemy_other"])
def test_a_kind_is_refused_in_one_line_saying_what_is_allowed(text, line, name):
    with pytest.raises(InputError) as error:
        Kind.parse(text, name)
    assert (error.value.name, error.value.value) == (name, text) and line in error.value.allowed


def test_a_kind_reads_back_as_written():
    for text in ("2 cc 6+ ff 5+ armour 5+", "1 DC3 cc 4+ ff none armour 4+ in-contact 0 cc-dice 2 critical damage",
                 "3 cc 4+ ff 4+ armour none cover 5+ extra-attacks 1 extra-at ff reinforced invulnerable fearless"):
        assert str(Kind.parse(text)) == text


def _kinds():
    """Kinds with every field set in turn (and war engines with theirs)."""
    from oddscalc.epic.saves import Ability
    from oddscalc.epic.war_engines import Critical

    base = dict(count=3, cc=4, ff=5, armour=6)
    yield Kind(**base)
    yield Kind(3, None, 2, None)
    yield Kind(**base, in_contact=0)
    yield Kind(**base, in_contact=2, cover_save=5)
    yield Kind(**base, reinforced=True, invulnerable=True, fearless=True, inspiring=True)
    yield Kind(**base, extra_attacks=2, extra_at=ExtraAt.CC, extra_ability=Ability.MACRO)
    yield Kind(**base, extra_attacks=3, extra_at=ExtraAt.FF, extra_ability=Ability.TITAN_KILLER, tk_damage="1d3")
    yield Kind(2, 3, 4, 4, capacity=4, critical=Critical.WOUNDED, cc_dice=1, in_contact=1)
    yield Kind(1, 3, 4, 4, capacity=12, critical=Critical.DAMAGE_ONCE, cc_dice=0)


@pytest.mark.parametrize("kind", list(_kinds()), ids=str)
def test_every_word_of_a_kind_reads_back_to_the_same_kind(kind):
    """What `--other` and a roster's `assault` take is what a kind writes: each field has its word."""
    assert Kind.parse(str(kind)) == kind
    assert Kind.parse(str(kind).replace(" ", "  ").upper().replace("DC", "dc")) == kind  # any case, any spacing
