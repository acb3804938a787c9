"""The 9th Age combat's exact twin (oddscalc/t9a/fight_exact.py): a round's joint pmf over both sides' states, the
pursuit's tables; worked by hand on one model a side. (Against the sampler:
tests/test_agreement.py.)"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np

from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight_exact import _caught_tables, _fails, _reformed, round_joint

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)


def combat(**more) -> Combat:
    values = dict(models=1, width=1, **PLAIN, **{f"enemy_{key}": value for key, value in PLAIN.items()},
                  enemy_models=1, enemy_width=1)
    values["enemy_agility"] = 0  # it strikes last
    return Combat(**{**values, **more})


def test_one_round_of_one_model_a_side_worked_by_hand():
    """The charger strikes first (step 4) and kills with 1/4 (4+ to hit, 4+ to wound); else the charged model
    strikes at step 0 and kills with 1/4."""
    joint = round_joint(combat().fight, 0, 0, True, F)
    assert joint.shape == (2, 2) and joint.sum() == 1
    assert (joint[0, 1], joint[1, 0], joint[0, 0], joint[1, 1]) == (F(1, 4), F(3, 16), F(9, 16), 0)


def test_a_side_of_two_units_has_an_axis_each_with_its_flag():
    """A second unit of the charger's (one model): its state and fled flag multiply the charger's codes; a round
    never makes a unit flee (the Break Tests are after it)."""
    ally = ("models 1 width 1 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7 "
            "facing flank",)
    attack = combat(with_unit=ally, rounds=2)
    line = attack.fight.line
    joint = round_joint(attack.fight, 0, 0, True, F)
    # the charged unit, flanked, may turn to face its flanker between rounds (a Combat Reform bit: 2 states each);
    # in a fight of one round there is no between, and no bit
    assert joint.shape == (line.states, 4) and joint.sum() == 1 and joint[:, 2:].sum() == 0
    assert combat(with_unit=ally).fight.enemy_line.states == 2
    flags = [flag for flag, _ in line.split(np.arange(line.states))]
    assert all(joint[np.asarray(flag) != 0].sum() == 0 for flag in flags)
    # the charged model is struck twice at step 4 (1/4 each): it falls with 7/16, before it strikes
    assert joint[:, 1].sum() == 1 - F(3, 4) ** 2


def test_the_pursuit_tables_count_every_roll():
    """P(a broken unit is caught) by the winner's units that pursue it: none, one, both (each its own 2D6)."""
    attack = combat(with_unit=("models 1 width 1 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 "
                               "discipline 7 facing flank",))
    tables = _caught_tables(attack.fight, F)
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    one = F(sum(p >= f for f in rolls for p in rolls), 36 ** 2)
    both = F(sum(max(p, q) >= f for f in rolls for p in rolls for q in rolls), 36 ** 3)
    theirs = tables[1][0]  # the charged unit, fled, pursued by the charger's units
    assert theirs.shape == (4, 4) and theirs[0, 0] == 0
    assert theirs[0b01, 0] == theirs[0b10, 0] == one and theirs[0b11, 0] == both
    assert [table.shape for table in tables[0]] == [(2, 2), (2, 2)] and tables[0][1][1, 0] == one


def test_a_restrained_pursuit_pursues_on_a_failed_discipline_test():
    attack = combat(pursuit="restrain", enemy_discipline=8)
    chance = _caught_tables(attack.fight, F)[0][0][1, 0]  # the charger's unit pursued by the charged one
    fails = F(sum(a + b > 8 for a, b in itertools.product(range(1, 7), repeat=2)), 36)
    assert chance == fails * F(721, 1296)


def test_the_break_test_table_by_character_and_penalty():
    troop = combat(discipline=7, character="A1 O3 D3 S3 R3 I3 H1 V9").fight.troops[0]
    table = _fails(troop, 4, F)
    assert table.shape == (2, 5)
    # Discipline 7: fails above 7 (15/36), above 4 at penalty 3, above 3 at 4; the character's 9: above 9
    assert table[0, 0] == F(15, 36) and table[1, 0] == F(6, 36) and (table[0, 3], table[0, 4]) == (F(30, 36), F(33, 36))


def test_a_flanked_unit_that_lost_turns_on_its_discipline_test_none_of_the_penalty_when_steadfast():
    """One model charged in the flank by one, both standing, the round lost by 3: it turns to face on 2D6 <= 7 - 3
    (6/36), on 2D6 <= 7 when Steadfast (21/36); after a won round, always. Each state splits in two."""
    fight = combat(flank=True, rounds=2).fight
    reforms = [_fails(line.troops[0], 6, F, True) for line in fight.lines]
    one = (np.array([0]), np.array([0]))
    for lost, steady, turns in ((True, False, F(6, 36)), (True, True, F(21, 36)), (False, False, F(1))):
        cs, es, weights = _reformed(fight, one, np.array([F(1)], dtype=object), (np.array([False]), np.array([lost])),
                                    np.array([3]), [np.array([False]), np.array([steady])], reforms)
        faced = fight.enemy_line.faced(es) == 1
        assert weights[faced].sum() == turns and weights.sum() == 1 and not cs.any(), (lost, steady)

