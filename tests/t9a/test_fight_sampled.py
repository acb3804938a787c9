"""The 9th Age combat sampled (oddscalc/t9a/fight_sampled.py): each blow's Health Points drawn from its attack's
cdf, its rows (the attacks of each state) searched at once, end to end; checked here draw by draw against each
row's own cdf (the sampler against the exact twin is tests/test_agreement.py's)."""

from __future__ import annotations

import numpy as np

from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight import Blow
from oddscalc.t9a.fight_sampled import _cdf, _drawn, _reform, combat_sample

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
FIGHT = Combat(models=10, width=5, **PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()},
               enemy_models=10, enemy_width=5).fight


class Uniforms:
    """A generator whose uniforms are given."""

    def __init__(self, values):
        self.values = np.asarray(values, dtype=float)

    def random(self, size):
        assert size == len(self.values)
        return self.values


def test_each_trial_draws_from_its_own_row_s_cdf():
    blow, pools = Blow(0, "melee", 0), 2
    keys = np.array([0 * pools, 5 * pools, 10 * pools])  # no attacks, 5 attacks, 10, on the rank and file
    cdfs = [_cdf(FIGHT, blow, count, (0, 0)) for count in (0, 5, 10)]
    assert list(cdfs[0]) == [1.0] and all(cdf[-1] == 1.0 for cdf in cdfs)
    top = 1 - 2 ** -53  # the largest uniform: row + it rounds up to row + 1, and stays in its row
    u = np.array([0.0, 0.3, 0.999, top, 0.0, 0.5, top, 0.25, cdfs[2][1], cdfs[1][0]])
    rows = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 1])
    lost, wheres = _drawn(Uniforms(u), FIGHT, blow, keys, rows, pools, len(u))
    expected = [int(np.searchsorted(cdfs[row], value, side="right")) for row, value in zip(rows, u)]
    assert list(lost) == expected and list(wheres) == [0, 0, 0]
    assert expected[:4] == [0, 0, 0, 0] and expected[6] == len(cdfs[1]) - 1 and expected[8] == 2


def test_one_row_draws_a_value_for_every_trial():
    blow, pools = Blow(0, "melee", 0), 2
    lost, _ = _drawn(np.random.default_rng(3), FIGHT, blow, np.array([10 * pools]), None, pools, 5000)
    pmf = np.diff(np.concatenate([[0.0], _cdf(FIGHT, blow, 10, (0, 0))]))
    assert lost.shape == (5000,) and len(set(lost.tolist())) > 3
    mean, sd = (pmf * np.arange(len(pmf))).sum(), np.sqrt((pmf * np.arange(len(pmf)) ** 2).sum()
                                                           - (pmf * np.arange(len(pmf))).sum() ** 2)
    assert abs(lost.mean() - mean) <= 5 * sd / np.sqrt(5000)


def test_a_decided_fight_is_not_fought_on():
    """A fight decided in its first round keeps that round's figures: no later round changes it."""
    rounds = combat_sample(np.random.default_rng(5), FIGHT, 5, 4000)
    one = rounds["rounds"] == 1
    assert one.any() and (rounds["rounds"] > 1).any()
    first = combat_sample(np.random.default_rng(5), FIGHT, 1, 4000)
    for name in ("win", "draw", "health_lost", "enemy_health_lost", "score", "enemy_break", "enemy_caught"):
        assert np.array_equal(rounds[name][one], first[name][one]), name


def test_a_flanked_unit_that_lost_turns_to_face_on_its_discipline_test_unbreakable_or_not():
    """One model charged in the flank by one, both standing: after a lost round (by 2) it turns on 2D6 <= 5, 10/36,
    though Unbreakable (its rule passes Break Tests only), or 21/36 when Steadfast (no penalty); after a won one
    always; the charger never (no flanker)."""
    fight = Combat(models=1, width=1, **PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()},
                   enemy_models=1, enemy_width=1, enemy_unbreakable=True, flank=True, rounds=2).fight
    trials = 200_000
    for lost, steady, share in ((True, False, 10 / 36), (True, True, 21 / 36), (False, False, 1.0)):
        codes = [np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)]
        flags = np.full(trials, lost)
        _reform(np.random.default_rng(5), fight, codes, np.arange(trials), ~flags, flags, np.full(trials, 2),
                [np.zeros(trials, dtype=bool), np.full(trials, steady)])  # Steadfast: no penalty, 2D6 <= 7
        turned = fight.enemy_line.faced(codes[1]).mean()
        assert abs(turned - share) <= 5 * np.sqrt(share * (1 - share) / trials) + 1e-12, (lost, turned)
        assert not codes[0].any()  # the charger has no enemy in its flank: its codes stay

