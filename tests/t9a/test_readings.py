"""The open readings of a 9th Age combat (oddscalc/t9a/readings.py): each a switch of `t9a combat` whose every
value the query takes, says in its help and names in its description when it is not the default."""

from __future__ import annotations

import pytest

from clirun import run
from oddscalc.t9a import readings
from oddscalc.t9a.combat import Combat

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
SWITCHES = {"facing_bonus": readings.FacingBonus, "charge_bonus": readings.ChargeBonus,
            "pursuit": readings.Pursuit, "chase": readings.Chase, "high_agility": readings.HighAgility,
            "mount_momentum": readings.MountMomentum, "flank_models": readings.FlankModels,
            "front_share": readings.FrontShare, "combat_reform": readings.CombatReform}


def test_every_reading_of_the_module_is_a_switch():
    found = {value for value in vars(readings).values() if isinstance(value, type) and issubclass(value, readings.Enum)
             and value is not readings.Enum}
    assert found == set(SWITCHES.values())


@pytest.mark.parametrize("name", SWITCHES)
def test_each_value_is_taken_and_named_when_not_the_default(name, capsys):
    choices = SWITCHES[name]
    default = Combat.__dataclass_fields__[name].default
    assert isinstance(default, choices)
    for value in choices:
        attack = Combat(models=5, width=5, **PLAIN, **{f"enemy_{key}": v for key, v in PLAIN.items()},
                        enemy_models=10, enemy_width=5, **{name: value})
        named = f"{name.replace('_', ' ')} {value.value}" in attack.describe()
        assert named == (value is not default), (name, value)
    shown = run(capsys, "t9a", "combat", "--help").out
    assert all(value.value in shown for value in choices) and f"--{name.replace('_', '-')}" in shown
