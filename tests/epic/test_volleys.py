"""An Epic shooting attack's volleys (oddscalc/epic/volleys.py; docs/rules.md §2.2-2.3): a volley's words, the
hits of pools of dice rolled and exactly (their binomials convolved, 7+ chains included), hits allocated front to
back over identical units; worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from oddscalc.core import pmf as pmfs
from oddscalc.core.dice import Check, Natural
from oddscalc.epic.saves import save_plan
from oddscalc.epic.volleys import Volley, allocated, hits_pmf, matrix_of, roll_hits
from oddscalc.errors import InputError


@pytest.mark.parametrize("text, volley", [("4@3+", Volley(4, 3)), (" 2 @ MW 2 ", Volley(2, 2, macro=True)),
                                          ("3@at5+", Volley(3, 5, anti_tank=True)), ("12@AP4+", Volley(12, 4))])
def test_a_volley_reads_and_writes_back(text, volley):
    assert Volley.parse(text) == volley and Volley.parse(str(volley)) == volley


@pytest.mark.parametrize("text, says", [("4@7+", "expected N@X+"), ("0@3+", "expected 1 to"), ("4@", "expected N@X+"),
                                        ("٤@3+", "expected N@X+"), ("4@XX3+", "expected N@X+")])
def test_a_bad_volley_is_one_line_naming_it(text, says):
    with pytest.raises(InputError) as refused:
        Volley.parse(text, "volley")
    assert refused.value.name == "volley" and says in refused.value.allowed


def test_the_hits_of_pools_are_their_binomials_convolved():
    """3 dice at 4+ and 2 at 6+: P(no hit) = (1/2)^3 (5/6)^2; a 7+ (6, then 4+) hits with 1/12 a die."""
    pools = [(3, Check(4, Natural.EPIC)), (2, Check(6, Natural.EPIC))]
    pmf = hits_pmf(pools, F)
    assert len(pmf) == 6 and sum(pmf) == 1 and pmf[0] == F(1, 8) * F(25, 36)
    assert pmf[5] == F(1, 8) * F(1, 36)
    chain = hits_pmf([(2, Check(7, Natural.EPIC))], F)
    assert list(chain) == [F(11, 12) ** 2, 2 * F(1, 12) * F(11, 12), F(1, 144)]


def test_rolled_hits_agree_with_the_exact_pmf():
    """Every die rolled: each value's count within 5 standard errors of its exact share, at a fixed seed."""
    pools = [(6, Check(3, Natural.EPIC)), (4, Check(7, Natural.EPIC))]
    trials = 40_000
    hits = roll_hits(np.random.default_rng(9), pools, trials)
    pmf = np.asarray(hits_pmf(pools, float))
    counts = np.bincount(hits, minlength=len(pmf))
    assert len(counts) == len(pmf)
    for value, p in enumerate(pmf):
        assert abs(counts[value] / trials - p) <= 5 * np.sqrt(p * (1 - p) / trials) + 1e-12, value


def test_hits_allocated_over_identical_units():
    """joint[hits, kills]: 2 dice at 4+ on 2 units saving on 4+: one hit kills one unit half the time; two hits
    go one to each unit (§2.3), each killed half the time."""
    joint = allocated([(2, Check(4, Natural.EPIC))], 2, save_plan(4), F)
    assert joint.shape == (3, 3) and joint.sum() == 1
    assert list(joint[0]) == [F(1, 4), 0, 0]
    assert list(joint[1]) == [F(1, 4), F(1, 4), 0]
    assert list(joint[2]) == [F(1, 16), F(1, 8), F(1, 16)]
    assert list(joint.sum(axis=1)) == list(hits_pmf([(2, Check(4, Natural.EPIC))], F))


def test_rows_of_different_lengths_stand_in_one_matrix():
    matrix = matrix_of([pmfs.point(1, F(1)), np.array([F(1, 2), F(1, 2)], dtype=object)], 3, F)
    assert matrix.tolist() == [[0, 1, 0], [F(1, 2), F(1, 2), 0]]
    assert matrix_of([np.array([0.5, 0.5])], 3, float).tolist() == [[0.5, 0.5, 0.0]]
