"""A combat drawn from its exact joint law (t9a/fight_joint.py): where its exact answer is quick, each trial draws
one way the combat ends, whole; the dice sampler stays checked against the exact twin on its own."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from agreement import assert_agrees
from cases import T9A
from oddscalc.core.drawn import Drawn
from oddscalc.t9a import Combat, fight_joint
from oddscalc.t9a.fight_exact import combat_pmfs
from oddscalc.t9a.fight_joint import combat_law, joint_law
from oddscalc.t9a.fight_sampled import combat_sample

COMBATS = {name: attack for name, attack in T9A.items() if isinstance(attack, Combat) and not attack.by_round}
DRAWN = [name for name, attack in COMBATS.items() if joint_law(attack.fight, attack.rounds, False) is not None]
BENCH = COMBATS["combat: 5 knights charge 20 spearmen (front, one round)"]


def test_the_quick_combats_are_drawn_and_the_others_rolled():
    assert BENCH.rounds == 1 and len(DRAWN) >= 5 and len(DRAWN) < len(COMBATS)  # some are costly: their dice
    assert isinstance(dataclasses.replace(BENCH).sample(np.random.default_rng(1), 10), Drawn)
    per_round = dataclasses.replace(BENCH, by_round=True)
    assert joint_law(per_round.fight, 1, True) is None and isinstance(per_round.sample(np.random.default_rng(1), 10),
                                                                      dict)


@pytest.mark.parametrize("name", DRAWN)
def test_the_law_s_outcomes_are_the_exact_pmfs(name):
    attack = COMBATS[name]
    law = combat_law(attack.fight, attack.rounds)
    chances = np.diff(law.cumulative, prepend=0)
    exact = combat_pmfs(attack.fight, attack.rounds, float)
    assert set(law.names) == set(exact)
    for row, name_ in enumerate(law.names):
        marginal = np.bincount(law.values[row], weights=chances)
        pmf = np.pad(exact[name_], (0, max(0, len(marginal) - len(exact[name_]))))
        assert np.abs(marginal - pmf[:len(marginal)]).max() < 1e-12 and pmf[len(marginal):].sum() < 1e-12, name_


@pytest.mark.parametrize("name", DRAWN)
def test_the_dice_sampler_of_a_drawn_combat_still_agrees_with_the_exact_twin(name, monkeypatch):
    monkeypatch.setattr(fight_joint, "JOINT_SECONDS", -1.0)
    attack = dataclasses.replace(COMBATS[name])  # (a fresh one: a combat keeps the law it drew from)
    assert not isinstance(attack.sample(np.random.default_rng(1), 10), Drawn)
    assert_agrees(attack)


@pytest.mark.parametrize("first, second", [("win", "enemy_break"), ("break", "caught"), ("win", "enemy_caught")])
def test_the_law_keeps_the_outcomes_together_as_the_dice_roll_them(first, second):
    """Two outcomes at once (a win and the enemy broken): the law's chance, against the dice sampler's count."""
    law = combat_law(BENCH.fight, BENCH.rounds)
    chances = np.diff(law.cumulative, prepend=0)
    both = chances[(law.values[law.names.index(first)] == 1) & (law.values[law.names.index(second)] == 1)].sum()
    trials = 200_000
    rolled = combat_sample(np.random.default_rng(7), BENCH.fight, BENCH.rounds, trials)
    seen = np.mean((rolled[first] == 1) & (rolled[second] == 1))
    assert 0 < both < 1 and abs(seen - both) <= 5 * np.sqrt(both * (1 - both) / trials)


def test_a_combat_whose_exact_answer_takes_just_the_bound_is_drawn_and_one_past_it_rolled(monkeypatch):
    monkeypatch.setattr(fight_joint, "exact_cost", lambda fight, rounds: fight_joint.JOINT_SECONDS)
    assert joint_law(BENCH.fight, BENCH.rounds, False) is not None
    monkeypatch.setattr(fight_joint, "exact_cost", lambda fight, rounds: fight_joint.JOINT_SECONDS * 1.01)
    assert joint_law(BENCH.fight, BENCH.rounds, False) is None
