"""The benchmark's canonical attack, a pool of D6 that hit then fail their saves: its exact twin
(two binomials, no arrays) against the two-stage reading and against its sampler."""

from fractions import Fraction

import pytest
from agreement import assert_agrees, exact_list

from oddscalc.core import pmf as pmfs
from oddscalc.core.dice import Check, Natural
from oddscalc.errors import InputError
from oddscalc.core.hits import HitAndSave

F = Fraction


@pytest.mark.parametrize("dice, to_hit, save", [(10, 4, 5), (3, 2, 2), (7, 6, 7), (0, 4, 4)])
def test_hit_and_save_agrees_with_exact(dice, to_hit, save):
    assert_agrees(HitAndSave(dice, to_hit, save))


def test_hit_and_save_exact_values():
    exact = HitAndSave(10, 4, 5).exact(fractions=True)
    # each die kills with 1/2 · 2/3 = 1/3
    assert sum(k * p for k, p in enumerate(exact["unsaved"])) == F(10, 3)
    assert exact_list(exact["hits"])[10] == F(1, 1024)
    assert exact_list(exact["unsaved"])[0] == F(2, 3) ** 10


@pytest.mark.parametrize("dice, to_hit, save", [(10, 4, 5), (6, 3, 2), (12, 2, 6), (5, 7, 4), (4, 4, 7), (1, 1, 1)])
def test_the_unsaved_hits_are_the_hits_thinned_by_the_failed_saves(dice, to_hit, save):
    """Rolled in two stages, as the sampler rolls them: hits, then each hit's save."""
    hit = Check(to_hit, Natural.SAVE).chance()
    fail = 1 - Check(save, Natural.SAVE).chance()
    hits = pmfs.binomial(dice, hit)
    exact = HitAndSave(dice, to_hit, save).exact(fractions=True)
    assert exact_list(exact["unsaved"]) == exact_list(pmfs.thin(hits, fail))
    assert exact_list(exact["hits"]) == exact_list(hits)


def test_the_float_answer_is_the_exact_one_in_floats():
    floats, exact = HitAndSave(30, 3, 4).exact(), HitAndSave(30, 3, 4).exact(fractions=True)
    for name in ("unsaved", "hits"):
        assert floats[name] == pytest.approx([float(p) for p in exact[name]], rel=1e-13, abs=1e-300)


def test_a_pool_of_0_to_1000_dice():
    assert HitAndSave(1000, 4, 5).dice == 1000 and HitAndSave(0, 4, 5).exact()["unsaved"] == (1.0,)
    for dice in (-1, 1001):
        with pytest.raises(InputError) as refused:
            HitAndSave(dice, 4, 5)
        assert str(refused.value) == f"dice {dice}: expected 0 to 1000 dice"
