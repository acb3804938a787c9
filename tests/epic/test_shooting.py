"""Epic Armageddon shooting beyond one weapon (docs/rules.md §2.3, §2.4): suppression, macro-weapon
hits after normal ones, AP and AT fire at a mixed formation, volleys. Quotes are seed 002, with the
reading beside; expected values are worked out by hand in Fractions."""

from fractions import Fraction as F

import numpy as np
import pytest

from oddscalc.core import pmf as pmfs
from oddscalc.epic import EpicShoot, Volley
from oddscalc.epic import shooting
from oddscalc.epic.saves import kills_given_hits
from oddscalc.errors import InputError


def exact(**fields):
    return EpicShoot(**fields).exact(fractions=True)


def same(a: dict, b: dict) -> bool:
    return all(list(pmfs.trim(a[k])) == list(pmfs.trim(b[k])) for k in a)


# --- suppression: «За каждый «Бласт», полученный формацией, один юнит ... не может стрелять» ---------------


def test_each_blast_marker_stops_one_firing_unit():
    """Each blast marker on the firing formation stops one unit (in range and line of fire) from shooting:
    3 units sharing 6 shots with 1 suppressed fire 4."""
    base = dict(to_hit=4, units=3, armour=4)
    assert same(exact(shots=6, firing_units=3, suppressed=1, **base), exact(shots=4, **base))
    assert same(exact(shots=6, firing_units=3, suppressed=2, **base), exact(shots=2, **base))


def test_a_fully_suppressed_formation_does_not_shoot():
    """No shot: no kill, no hit, and no blast marker for coming under fire."""
    outcomes = exact(shots=3, to_hit=4, units=2, armour=4, firing_units=3, suppressed=5, blast_markers=2)
    assert list(pmfs.trim(outcomes["kills"])) == [1] and list(pmfs.trim(outcomes["hits"])) == [1]
    assert list(pmfs.trim(outcomes["blast_markers"])) == [0, 0, 1]  # the 2 already there
    assert outcomes["broken"][1] == 1  # 2 blast markers ≥ 2 units


@pytest.mark.parametrize("fields, name", [
    (dict(shots=6, suppressed=1), "suppressed"),  # needs --firing-units
    (dict(shots=5, firing_units=3), "firing_units"),  # 5 shots are not shared equally by 3 units
    (dict(shots=6, firing_units=3, mw_shots=2, mw_to_hit=3), "firing_units"),
    (dict(shots=6, firing_units=0), "firing_units"),
    (dict(shots=6, firing_units=3, suppressed=-1), "suppressed"),
])
def test_suppression_refuses_what_it_cannot_share(fields, name):
    with pytest.raises(InputError) as error:
        EpicShoot(to_hit=4, units=3, armour=4, **fields)
    assert error.value.name == name


# --- macro-weapons: «сначала за обычное оружие, а затем ... за MW» -------------------------------------------


def normal_then_macro(units, normal_hits, macro_hits, normal_saved, macro_saved) -> dict:
    """The rule, by hand: kills of the normal hits, then of the macro-weapon hits on the units left."""
    kills = {}
    for h1, p1 in normal_hits.items():
        for k1, q1 in enumerate(kills_given_hits(h1, units, normal_saved)):
            for h2, p2 in macro_hits.items():
                left = units - k1
                for k2, q2 in enumerate(kills_given_hits(h2, left, macro_saved) if left else [F(1)]):
                    if p1 * q1 * p2 * q2:
                        kills[k1 + k2] = kills.get(k1 + k2, F(0)) + p1 * q1 * p2 * q2
    return kills


def test_macro_weapon_hits_are_allocated_after_the_normal_hits():
    """The opponent allocates and saves the normal hits first, then the macro-weapon hits, on the units
    still there. Reinforced armour 4+ saves a normal hit 3/4 and a macro hit 1/2 (no re-roll)."""
    attack = exact(shots=1, to_hit=2, units=3, armour=4, reinforced=True, mw_shots=3, mw_to_hit=2)
    hit = F(5, 6)
    one = {0: 1 - hit, 1: hit}
    three = {h: pmfs.binomial(3, hit)[h] for h in range(4)}
    expected = normal_then_macro(3, one, three, F(3, 4), F(1, 2))
    assert {k: p for k, p in enumerate(attack["kills"]) if p} == expected
    # the other order gives another answer: the test would notice it
    assert normal_then_macro(3, three, one, F(1, 2), F(3, 4)) != expected


def test_macro_weapon_hits_only_add_hits_when_the_normal_fire_killed_everyone():
    outcomes = exact(shots=1, to_hit=2, units=1, armour=None, mw_shots=1, mw_to_hit=2)
    assert outcomes["kills"][1] == 1 - F(1, 6) ** 2  # killed by either
    assert pmfs.mean(outcomes["hits"]) == 2 * F(5, 6)  # a macro hit on a dead formation still counts as a hit


@pytest.mark.parametrize("fields, name", [
    (dict(mw_shots=2), "mw_to_hit"), (dict(mw_to_hit=3), "mw_to_hit"),
    (dict(mw_shots=2, mw_to_hit=3, vehicles=1, vehicle_armour=4), "mw_shots"),
    (dict(volley=("1@MW3+",), vehicles=1, vehicle_armour=4), "mw_shots"),
    (dict(weapon="macro", vehicles=1, vehicle_armour=4), "weapon"),  # §2.3: as --mw-shots is refused there
    (dict(weapon="titan-killer", vehicles=1, vehicle_armour=4), "weapon"),
])
def test_macro_fire_refusals(fields, name):
    with pytest.raises(InputError) as error:
        EpicShoot(shots=2, to_hit=4, units=2, armour=4, **fields)
    assert error.value.name == name


def test_weapon_macro_makes_only_the_shots_macro_hits_after_the_normal_volleys():
    """--volley N@X+ stays a normal volley beside --weapon macro: its hits are allocated and saved first
    (reinforced 4+ re-rolls them), then the macro hits, whose save has no re-roll (§2.2, §2.3)."""
    attack = EpicShoot(shots=1, to_hit=2, weapon="macro", volley=("1@2+",), units=1, armour=4, reinforced=True)
    normal_kill = F(5, 6) * F(1, 2) ** 2  # hit, then both the save and its re-roll fail
    macro_kill = F(5, 6) * F(1, 2)  # hit, then the one save fails
    assert attack.exact(fractions=True)["kills"][1] == 1 - (1 - normal_kill) * (1 - macro_kill)
    both = EpicShoot(shots=1, to_hit=2, weapon="macro", mw_shots=1, mw_to_hit=2, units=1, armour=4, reinforced=True)
    assert both.exact(fractions=True)["kills"][1] == 1 - (1 - macro_kill) ** 2  # both macro: no re-roll at all


# --- AP and AT: «Противопехотное АР оружие поражает только пехоту, противотанковое АТ только технику» -----------


def test_ap_hits_only_infantry_and_at_hits_only_vehicles():
    """2 AP shots at 2 infantry (5+ armour) and 1 AT shot at 1 vehicle (4+ armour): independent kills."""
    outcomes = exact(shots=2, to_hit=4, units=2, armour=5, vehicles=1, vehicle_armour=4, at_shots=1, at_to_hit=5)
    infantry = [F(4, 9), F(4, 9), F(1, 9)]  # each AP shot kills an infantry unit with 1/2 · 2/3 = 1/3
    vehicle = [F(5, 6), F(1, 6)]  # 1/3 · 1/2
    assert list(outcomes["kills"]) == list(pmfs.convolve(pmfs.array(infantry), pmfs.array(vehicle)))


def test_at_fire_never_kills_the_infantry():
    outcomes = exact(shots=0, to_hit=4, units=5, armour=None, vehicles=1, vehicle_armour=None, at_shots=6,
                     at_to_hit=2)
    assert sum(outcomes["kills"][2:], F(0)) == 0 and outcomes["kills"][1] == 1 - F(1, 6) ** 6


def test_a_mixed_formation_breaks_on_all_its_units():
    """Broken counts every unit left, infantry and vehicles: 1 marker for coming under fire ≥ 1 unit left?"""
    outcomes = exact(shots=1, to_hit=4, units=1, armour=None, vehicles=1, vehicle_armour=None, at_shots=1,
                     at_to_hit=4)
    # kills 0: 1 marker < 2 units; kills 1: 2 markers ≥ 1 unit; kills 2: none left
    assert outcomes["broken"][1] == 1 - F(1, 2) ** 2


@pytest.mark.parametrize("fields, name", [
    (dict(at_shots=2, at_to_hit=5), "at_shots"),  # AT fire needs --vehicles
    (dict(vehicle_armour=4), "vehicle_armour"), (dict(vehicle_reinforced=True), "vehicle_reinforced"),
    (dict(vehicle_armour=None), "vehicle_armour"), (dict(vehicles=1), "vehicle_armour"),
    (dict(vehicles=1, vehicle_reinforced=True), "vehicle_armour"), (dict(vehicles=101), "vehicles"),
])
def test_mixed_formation_refusals(fields, name):
    with pytest.raises(InputError) as error:
        EpicShoot(shots=2, to_hit=4, units=2, armour=4, **fields)
    assert error.value.name == name


# --- volleys -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, volley", [("4@3+", Volley(4, 3)), ("2@MW2+", Volley(2, 2, macro=True)),
                                         ("3 @ at 5", Volley(3, 5, anti_tank=True)), ("1@AP6+", Volley(1, 6))])
def test_volleys_read(text, volley):
    assert Volley.parse(text) == volley and Volley.parse(str(volley)) == volley


@pytest.mark.parametrize("text", ["4@7+", "0@3+", "4@", "@3+", "4@XX3+", "201@3+"])
def test_bad_volleys(text):
    with pytest.raises(InputError) as error:
        EpicShoot(shots=2, to_hit=4, units=2, armour=4, volley=(text,))
    assert error.value.name == "volley"


def test_volleys_add_their_hits_before_allocation():
    """Two weapons' hits are allocated together: 1 shot at 2+ and 1 at 6+ on 1 unit with no save."""
    outcomes = exact(shots=1, to_hit=2, units=1, armour=None, volley=("1@6+",))
    assert outcomes["kills"][1] == 1 - F(1, 6) * F(5, 6)
    assert pmfs.mean(outcomes["hits"]) == F(5, 6) + F(1, 6)


def test_the_fft_convolution_agrees_with_the_direct_one(monkeypatch):
    rng = np.random.default_rng(3)
    a, b = rng.random((40, 9)), rng.random((30, 7))
    direct = shooting.convolve2d(a / a.sum(), b / b.sum())
    monkeypatch.setattr(shooting, "DIRECT", 0)
    assert np.abs(shooting.convolve2d(a / a.sum(), b / b.sum()) - direct).max() < 1e-15


@pytest.mark.parametrize("attack, words", [
    (EpicShoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True),
     "Epic shooting: 12 shots at 4+ on 6 units, armour 4+, crossfire"),
    (EpicShoot(shots=2, to_hit=3, units=3, armour=5, mw_shots=2, mw_to_hit=2, volley=("3@4+",)),
     "Epic shooting: 2 shots at 3+, 2 shots at MW 2+, 3 shots at 4+ on 3 units, armour 5+"),
    (EpicShoot(shots=4, to_hit=4, units=3, armour=None, vehicles=2, vehicle_armour=4, vehicle_reinforced=True,
               at_shots=2, at_to_hit=5),
     "Epic shooting: 4 shots at 4+, 2 shots at AT 5+ on 3 units and 2 vehicles (armour 4+, reinforced), no armour"),
    (EpicShoot(shots=4, to_hit=4, units=3, armour=6, vehicles=1, vehicle_armour=None),
     "Epic shooting: 4 shots at 4+ on 3 units and 1 vehicle (armour none), armour 6+"),
    (EpicShoot(shots=4, to_hit=4, units=2, armour=3, mw_shots=2, mw_to_hit=2, firing_units=2, suppressed=1),
     "Epic shooting: 4 shots at 4+, 2 shots at MW 2+ on 2 units, armour 3+, 1 of 2 firing units suppressed"),
    (EpicShoot(shots=6, to_hit=4, units=3, armour=4, firing_units=3, suppressed=5),
     "Epic shooting: 6 shots at 4+ on 3 units, armour 4+, all 3 firing units suppressed (5 blast markers)"),
    (EpicShoot(shots=6, to_hit=4, units=3, armour=4, firing_units=3, suppressed=3),
     "Epic shooting: 6 shots at 4+ on 3 units, armour 4+, all 3 firing units suppressed"),
    (EpicShoot(shots=0, to_hit=4, units=2, armour=3, at_shots=2, at_to_hit=5, vehicles=2, vehicle_armour=5),
     "Epic shooting: 2 shots at AT 5+ on 2 units and 2 vehicles (armour 5+), armour 3+"),
    (EpicShoot(shots=4, to_hit=4, war_engines=1, damage_capacity=3, armour=4, units=3),
     "Epic shooting: 4 shots at 4+ on 1 war engine (and 3 other units), armour 4+, DC 3, 0 void shields"),
])
def test_a_shooting_attack_says_what_it_computes(attack, words):
    """The words over an answer and a plot's title: every volley, the target's parts, the firing units."""
    assert attack.describe() == words
