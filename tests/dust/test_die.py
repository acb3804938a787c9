"""The Dust die (docs/rules.md §1.1): its hit faces, and the cover save a square gives."""

from fractions import Fraction

import numpy as np
import pytest
from agreement import binomial, exact_list

from oddscalc.dust import CoverSave, WeaponLine, cover_save
from oddscalc.dust.terrain import Cover

F = Fraction


# --- docs/rules.md §1.1: the Dust die -------------------------------------------------------


def test_the_die_hits_on_one_third():
    assert exact_list(WeaponLine(1).exact(fractions=True)["hits"]) == [F(2, 3), F(1, 3)]
    assert exact_list(WeaponLine(5).exact(fractions=True)["hits"]) == binomial(5, F(1, 3))


def test_the_die_is_read_off_faces_5_and_6():
    from oddscalc.dust import shows_hit

    assert shows_hit(np.arange(1, 7)).tolist() == [False, False, False, False, True, True]


def test_cover_save_of_a_square():
    assert cover_save(Cover.SOFT) is CoverSave.HIT
    assert cover_save("none") is CoverSave.NONE


# --- a weapon line's exact answer without arrays: a binomial thinned is a binomial ---------------------------------


@pytest.mark.parametrize("save", list(CoverSave))
@pytest.mark.parametrize("dice, damage, resilient", [(4, 1, False), (7, 3, False), (5, 1, True), (6, 2, True)])
def test_a_line_s_damage_is_the_hits_thinned_by_the_save_times_damage_then_resilience(save, dice, damage, resilient):
    """The array algebra's steps one by one (binomial, thin, scale, thin), against `exact_line`: the same Fractions,
    floats within 1e-15; in tuples unless Damage Resilient thins points of several damage each."""
    from oddscalc.core import pmf as pmfs
    from oddscalc.dust.die import HIT, exact_line

    for number in (Fraction, float):
        hits = pmfs.binomial(dice, number(HIT))
        kept = {CoverSave.NONE: Fraction(1), CoverSave.HIT: 1 - HIT, CoverSave.MISS: HIT}[save]
        damaged = pmfs.scale(pmfs.thin(hits, number(kept)), damage)
        expected = pmfs.trim(pmfs.thin(damaged, number(1 - HIT)) if resilient else damaged)
        got = exact_line(dice, HIT, save, damage, resilient, number)
        assert isinstance(got["damage"], tuple) == (not resilient or damage == 1)
        if number is Fraction:
            assert list(got["damage"]) == list(expected) and list(got["hits"]) == list(hits)
        else:
            assert len(got["damage"]) == len(expected)
            assert np.abs(np.asarray(got["damage"]) - expected).max() < 1e-15
            assert np.abs(np.asarray(got["hits"]) - hits).max() < 1e-15
