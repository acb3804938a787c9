"""Plain shooting's exact answer without arrays (epic/plain.py): the same law as the array path, term for term,
and taken only where it applies."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from oddscalc.epic import EpicShoot, shooting
from oddscalc.epic.plain import PLAIN_CELLS, kill_terms
from oddscalc.epic.saves import kills_given_hits

SHOTS = [
    dict(shots=12, to_hit="4+", units=6, armour="4+"),
    dict(shots=3, to_hit="5+", units=8, armour="none", blast_markers=2),  # fewer hits than units
    dict(shots=20, to_hit="3+", units=4, armour="5+", reinforced=True, crossfire=True),  # hits wrap round
    dict(shots=6, to_hit="4+", units=3, armour="6+", cover_save="4+", invulnerable=True, disrupt=True, formation=7),
    dict(shots=8, to_hit="4+", units=5, armour="3+", volley=("4@6+", "2@2+"), sniper=True, in_cover=True),
    dict(shots=8, to_hit="4+", units=5, armour="4+", firing_units=4, suppressed=1, weapon="lance"),
    dict(shots=0, to_hit="4+", units=2, armour="4+", volley=("3@5+",)),
]


def arrays(attack: EpicShoot, number) -> dict:
    return attack.markers.outcome_pmfs(attack.joint(number))


@pytest.mark.parametrize("options", SHOTS)
def test_the_plain_answer_is_the_array_path_s_term_for_term(options):
    attack = EpicShoot(**options)
    plain, exact = attack.pmfs(Fraction), arrays(attack, Fraction)
    assert all(isinstance(pmf, tuple) for pmf in plain.values()) and set(plain) == set(exact)
    for name, pmf in exact.items():
        assert plain[name] == tuple(pmf), name  # Fractions: the very same terms
    floats = attack.pmfs(float)
    for name, pmf in arrays(attack, float).items():
        assert len(floats[name]) == len(pmf) and np.abs(np.asarray(floats[name]) - pmf).max() < 1e-15, name


@pytest.mark.parametrize("hits, units", [(0, 3), (2, 5), (5, 5), (7, 3), (12, 4)])
def test_kills_given_hits_in_tuples_are_the_array_s(hits, units):
    saved = Fraction(1, 3)
    assert tuple(kill_terms(hits, units, saved)) == tuple(kills_given_hits(hits, units, saved))


def test_war_engines_macro_weapons_vehicles_and_long_float_answers_take_the_arrays():
    for options in (dict(shots=6, to_hit="4+", units=3, armour="4+", mw_shots=2, mw_to_hit="5+"),
                    dict(shots=6, to_hit="4+", units=3, armour="4+", vehicles=2, vehicle_armour="4+", at_shots=2,
                         at_to_hit="5+"),
                    dict(shots=6, to_hit="4+", war_engines=1, damage_capacity=3, armour="4+")):
        assert not isinstance(EpicShoot(**options).pmfs(float)["kills"], tuple)
    big = EpicShoot(shots=100, to_hit="4+", units=40, armour="4+")
    assert 101 * 41 > PLAIN_CELLS and not isinstance(big.pmfs(float)["kills"], tuple)
    assert isinstance(big.pmfs(Fraction)["kills"], tuple)  # Fractions: plain at every size (the quicker)


def test_the_float_bound_is_the_one_the_answer_reads(monkeypatch):
    attack = EpicShoot(**SHOTS[0])
    monkeypatch.setattr(shooting, "PLAIN_CELLS", 13 * 7)
    assert isinstance(attack.pmfs(float)["kills"], tuple)
    monkeypatch.setattr(shooting, "PLAIN_CELLS", 13 * 7 - 1)
    assert not isinstance(attack.pmfs(float)["kills"], tuple)
