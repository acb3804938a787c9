"""War engines of another profile in one formation (epic/engine_profiles.py; `--engine`, a roster's
`other_engines`): a profile read from its words, written back the same, refused in one line."""

from __future__ import annotations

import pytest

from oddscalc.epic.engine_profiles import ENGINE_ALLOWED, EngineProfile
from oddscalc.epic.war_engines import Critical, Engines
from oddscalc.errors import InputError


@pytest.mark.parametrize("text", [
    "3 DC1 armour 5+", "1 DC8 armour 4+ shields 6 critical destroyed reinforced",
    "2 DC3 armour none critical damage-once invulnerable thick-rear-armour",
])
def test_a_profile_reads_back_as_written(text):
    assert str(EngineProfile.parse(text)) == text
    assert EngineProfile.parse(text.upper().replace("DC", "dc").replace(" ", "  ")) == EngineProfile.parse(text)


def test_a_profiles_words_come_in_any_order_and_give_its_war_engines():
    profile = EngineProfile.parse("2 DC4 critical wounded reinforced shields 2 armour 4+")
    assert profile == EngineProfile(2, 4, armour=4, shields=2, critical=Critical.WOUNDED, reinforced=True)
    assert profile.engines == Engines(2, 4, 2, Critical.WOUNDED)
    assert EngineProfile.parse("1 DC2").armour is None and str(EngineProfile.parse("1 DC2")) == "1 DC2 armour none"


@pytest.mark.parametrize("text, allowed", [
    ("", ENGINE_ALLOWED), ("3", ENGINE_ALLOWED), ("x DC1", ENGINE_ALLOWED), ("3 D1", ENGINE_ALLOWED),
    ("3 DC1 wings", ENGINE_ALLOWED), ("3 DC1 shields x", ENGINE_ALLOWED), ("3 DC1 armour", ENGINE_ALLOWED),
    ("3 DC1 armour 7+", "expected armour 2+ to 6+, or none"),
    ("3 DC1 critical maybe", "expected a critical hit of none, damage, damage-once, destroyed or wounded"),
    ("0 DC1", "count: expected 1 to 20"), ("21 DC1", "count: expected 1 to 20"),
    ("1 DC0", "damage capacity: expected 1 to 20"), ("1 DC21", "damage capacity: expected 1 to 20"),
    ("1 DC2 shields 21", "shields: expected 0 to 20"),
    ("1 DC2 armour 4+ armour 5+", "armour is given twice: each key once"),
])
def test_a_profile_is_refused_in_one_line_naming_its_option(text, allowed):
    with pytest.raises(InputError) as error:
        EngineProfile.parse(text, "other_engines")
    assert (error.value.name, error.value.value) == ("other_engines", text) and allowed in error.value.allowed
