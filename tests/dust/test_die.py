"""The Dust die (docs/rules.md §1.1): its hit faces, and the cover save a square gives."""

from fractions import Fraction

import numpy as np
from agreement import binomial, exact_list

from oddscalc.dust import CoverSave, WeaponLine, cover_save
from oddscalc.dust.board import Cover

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
