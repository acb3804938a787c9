"""An Epic engagement round after round (oddscalc/epic/rounds.py; docs/rules.md §2.9, rulebook 1.12.7): the result
roll face by face, the result modifiers worked into a table by the pair of states, and the sampler that reads
them, against the modifiers worked per trial and against its exact twin."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest

from oddscalc.epic import rounds
from oddscalc.epic.assault import Assault
from oddscalc.epic.rounds import _lead, _leads, engagement_sample, modifiers, result_faces, result_gaps


@pytest.mark.parametrize("keep_highest", [False, True])
def test_the_result_roll_s_faces_are_its_gaps_pmf(keep_highest):
    """Each face equally likely: 6^4 of them, and their gaps (2D6 − 2D6, or highest die − highest die) counted
    are the pmf the exact twin reads."""
    faces = result_faces(keep_highest)
    assert len(faces) == 6 ** 4
    counted = Counter(faces.tolist())
    assert {gap: F(count, len(faces)) for gap, count in counted.items()} == dict(result_gaps(keep_highest))
    assert (min(counted), max(counted)) == ((-5, 5) if keep_highest else (-10, 10))


ASSAULT = Assault(units=4, cc=4, ff=3, armour=4, enemy_units=6, enemy_cc=5, enemy_ff=5, enemy_armour=6,
                  blast_markers=1, enemy_inspiring=True, rounds=3)


def test_the_modifiers_table_holds_each_pair_of_states_modifiers():
    """lead[their code * my size + my code]: mine less theirs, each worked by `modifiers` (kills, outnumbering,
    blast markers, Inspiring) at that pair."""
    mine, theirs = ASSAULT.side(""), ASSAULT.side("enemy_")
    table = _leads(mine, theirs)
    assert table is not None and table.shape == (mine.size * theirs.size,)
    for yours in range(theirs.size):
        for ours in range(mine.size):
            expected = (modifiers(mine, theirs, theirs.casualties[yours], mine.left[ours], theirs.left[yours],
                                  mine.inspiring[ours])
                        - modifiers(theirs, mine, mine.casualties[ours], theirs.left[yours], mine.left[ours],
                                    theirs.inspiring[yours]))
            assert table[yours * mine.size + ours] == expected
    # at the start they outnumber us (+1), have no blast marker (+1) and fewer than our one (+1), and six Inspiring
    # units (+6); we have nothing: -9
    assert table[0] == 0 - (1 + 1 + 1 + 6)
    # all six of theirs lost, none of ours: our 6 kills, we outnumber them and more than twice (+1 +1); they have
    # no blast marker and fewer than our one (+1 +1), no Inspiring unit left: 8 - 2
    assert table[6 * mine.size + 0] == (6 + 1 + 1) - (1 + 1)


def test_the_table_and_the_modifiers_per_trial_sample_alike(monkeypatch):
    """Too many pairs of states for a table: the modifiers are worked per trial, and the same seed draws the same
    engagements."""
    mine, theirs = ASSAULT.side(""), ASSAULT.side("enemy_")
    tabled = engagement_sample(np.random.default_rng(7), mine, theirs, 3, False, 20000)
    monkeypatch.setattr(rounds, "TABLE_MOST", 0)
    assert _leads(mine, theirs) is None
    direct = engagement_sample(np.random.default_rng(7), mine, theirs, 3, False, 20000)
    assert tabled.keys() == direct.keys()
    for name in tabled:
        assert np.array_equal(tabled[name], direct[name]), name
    monkeypatch.undo()
    ours, yours = np.array([0, 1, 4]), np.array([2, 0, 6])
    assert list(_lead(mine, theirs, ours, yours)) == list(_leads(mine, theirs)[yours * mine.size + ours])


def test_a_sampled_engagement_agrees_with_its_exact_twin():
    """Three rounds, a draw going on: each outcome's mean within 5 standard errors of the exact one."""
    exact = ASSAULT.exact()
    sampled = engagement_sample(np.random.default_rng(11), ASSAULT.side(""), ASSAULT.side("enemy_"), 3, False,
                                200_000)
    for name in ("win", "draw", "kills", "losses", "margin", "blast_markers", "enemy_blast_markers", "destroyed"):
        pmf = np.asarray(exact[name], dtype=float)
        values = np.arange(len(pmf))
        mean, sd = (pmf * values).sum(), np.sqrt((pmf * values ** 2).sum() - (pmf * values).sum() ** 2)
        got = sampled[name].mean()
        assert abs(got - mean) <= 5 * sd / np.sqrt(len(sampled[name])) + 1e-12, name
