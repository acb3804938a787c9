"""The pool sampler against exact answers, on both its paths, and its rejection step."""

import math
from fractions import Fraction

import numpy as np
from agreement import SEED, assert_agrees

from oddscalc.core import pmf as pmfs
from oddscalc.core import pool
from oddscalc.core.distribution import Distribution, dkw_bound
from oddscalc.core.pool import Die, atom_count, roll_pool, uniform_faces
from oddscalc.core.terms import in_floats

F = Fraction


def hit_then_save(attack, save):
    return ((attack >= 4) & (save < 5), attack >= 4)


CANONICAL = Die((6, 6), hit_then_save, ("kills", "hits"))


class PoolAttack:
    """A pool of `dice` copies of a die whose per-die chances are known exactly."""

    def __init__(self, die, dice, each):
        self.die, self.dice, self.each = die, dice, each
        self.outcomes = die.fields

    def sample(self, rng, trials):
        return roll_pool(rng, self.die, self.dice, trials)

    def exact(self, fractions=False):
        result = {name: pmfs.power(pmfs.array(each), self.dice) for name, each in zip(self.die.fields, self.each)}
        return {k: v if fractions else in_floats(v) for k, v in result.items()}


def test_atoms_merge_equal_outcomes():
    assert atom_count(CANONICAL) == 6  # miss 3, hit and saved 1, killed 2
    assert atom_count(Die((6,), lambda f: f, ("face",))) == 6


def test_canonical_pool_agrees_with_binomials():
    attack = PoolAttack(CANONICAL, 10, [[F(2, 3), F(1, 3)], [F(1, 2), F(1, 2)]])
    assert_agrees(attack)


def test_many_dice_and_many_words():
    attack = PoolAttack(Die((6,), lambda f: f, ("total",)), 37, [[0] + [F(1, 6)] * 6])
    assert_agrees(attack)


def test_direct_path_for_dice_with_too_many_atoms(monkeypatch):
    monkeypatch.setattr(pool, "ENUMERATE_LIMIT", 10)  # force face-by-face rolling
    attack = PoolAttack(Die((6, 6), hit_then_save, ("kills", "hits")), 10, [[F(2, 3), F(1, 3)], [F(1, 2), F(1, 2)]])
    assert_agrees(attack)


def test_variable_dice_per_trial_is_not_biased_by_rejection():
    # A die of 7 atoms: 7**5 = 16807 leaves 1/4 of the 16-bit words rejected, so a
    # sampler that rejected only the words in use would favour small counts.
    die = Die((7,), lambda f: f == 7, ("sevens",))
    rng = np.random.default_rng(SEED)
    trials = 400_000
    dice = rng.integers(0, 13, size=trials)
    totals = roll_pool(rng, die, dice, trials).total("sevens")
    for n in (0, 4, 12):
        chosen = totals[dice == n]
        expected = Distribution.from_pmf(pmfs.binomial(n, 1 / 7))
        sampled = Distribution.from_samples(chosen)
        assert sampled.cdf_gap(expected) <= dkw_bound(chosen.size, 1e-6)
        assert abs(sampled.mean - n / 7) <= 5 * math.sqrt(n * (1 / 7) * (6 / 7) / chosen.size) + 1e-12


def test_uniform_faces_are_uniform_and_in_range():
    faces = uniform_faces(np.random.default_rng(SEED), 6, 600_000)
    assert faces.min() == 1 and faces.max() == 6
    sampled = Distribution.from_samples(faces)
    expected = Distribution.from_pmf([0] + [1 / 6] * 6)
    assert sampled.cdf_gap(expected) <= dkw_bound(faces.size, 1e-6)


def test_uniform_faces_reject_instead_of_folding():
    # With 100 sides a biased modulo would make faces 1..56 more likely than 57..100.
    faces = uniform_faces(np.random.default_rng(SEED), 100, 1_000_000)
    low = np.mean(faces <= 56)
    assert abs(low - 0.56) <= 5 * math.sqrt(0.56 * 0.44 / faces.size)


def test_same_generator_state_gives_the_same_totals():
    a = roll_pool(np.random.default_rng(3), CANONICAL, 10, 1000).codes
    b = roll_pool(np.random.default_rng(3), CANONICAL, 10, 1000).codes
    assert np.array_equal(a, b)


def test_field_totals_unpack():
    rolled = roll_pool(np.random.default_rng(1), CANONICAL, 10, 5000)
    kills, hits = rolled.total("kills"), rolled.total("hits")
    assert (kills <= hits).all() and hits.max() <= 10
    assert np.array_equal(rolled.codes, kills * rolled.strides[0] + hits * rolled.strides[1])


def test_zero_dice():
    rolled = roll_pool(np.random.default_rng(1), CANONICAL, 0, 10)
    assert (rolled.total("hits") == 0).all()


def test_per_trial_counts_share_tables_across_chunks():
    die = Die((6,), lambda f: f >= 5, ("hits",))
    pool._table.cache_clear()
    rng = np.random.default_rng(SEED)
    for most in range(17, 33):  # chunks whose largest count differs
        counts = rng.integers(0, most + 1, size=1000)
        counts[0] = most
        roll_pool(rng, die, counts, 1000)
    assert pool._table.cache_info().currsize == 1


def test_a_die_without_natural_rolls_is_certain():
    die = Die((), lambda: (2, 1), ("damage", "hits"))
    rolled = roll_pool(np.random.default_rng(1), die, np.array([0, 3, 5]), 3)
    assert list(rolled.total("damage")) == [0, 6, 10] and list(rolled.total("hits")) == [0, 3, 5]
