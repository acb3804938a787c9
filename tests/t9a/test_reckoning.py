"""How a 9th Age round is reckoned (oddscalc/t9a/reckoning.py; docs/rules.md §3.11): Combat Reforms between rounds
(rulebook, Combat Reforms), worked by hand at one model a side, and which states may reform."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from clirun import assert_refused, run
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight import Blow
from oddscalc.t9a.readings import CombatReform

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
ONE = "models 1 width 1 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7"
RANKS = "models 10 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7"


def enemy(**fields):
    return {f"enemy_{name}": value for name, value in fields.items()}


def one_a_side(**more) -> Combat:
    """One model charges one in the flank, two rounds; every attack kills with 1/4 (4+ to hit, 4+ to wound)."""
    return Combat(**{**dict(models=1, width=1, **PLAIN, **enemy(models=1, width=1, **PLAIN), flank=True, rounds=2),
                     **more})


def passes(discipline: int) -> F:
    """P(2D6 <= discipline)."""
    return F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= discipline), 36)


@pytest.mark.parametrize("reform, stubborn", [("face", False), ("keep", False), ("face", True)])
def test_a_flanked_model_that_holds_turns_to_face_after_a_passed_test(reform, stubborn):
    """Round 1: the charger (Agility 3 + 1) kills first with 1/4; else the charged model kills with 1/4; else
    neither (9/16): the charger wins 2 to 0 (Charge +1, Flank +1) and the charged model holds on 2D6 <= 7 - 2 (7
    when Stubborn). It lost: it turns to face only when a Discipline test at the same penalty passes. Round 2, both
    at step 3: both fall (1/16, 1 to 1, the Flank bonus gone with its model: a draw), one falls (3/16 each), or
    neither (9/16): a draw where it faced, else the charger wins by the Flank +1 and it tests on 2D6 <= 6 (7)."""
    attack = one_a_side(combat_reform=reform, enemy_stubborn=stubborn)
    held = passes(7 if stubborn else 5)
    faced = 0 if reform == "keep" else held
    second = F(9, 16) * held
    got = attack.pmfs(F)
    assert got["draw"][1] == second * (faced * F(9, 16) + F(1, 16))
    assert got["enemy_break"][1] == F(9, 16) * (1 - held) + second * (1 - faced) * F(9, 16) * (1 - passes(
        7 if stubborn else 6))
    assert got["rounds"][2] == second


def test_a_won_round_lets_the_flanked_unit_turn_without_a_test():
    """One model in the flank of 10 (5 wide, 2 Full Ranks): once the 10 face it, the charger has no Flank bonus and
    the 10 strike with their front rank and supports, 5 + 5 attacks, where 1 (as many as the charger's front rank)
    struck it in its flank."""
    attack = Combat(models=1, width=1, **PLAIN, **enemy(models=10, width=5, **PLAIN), flank=True, rounds=2)
    fight = attack.fight
    ours, theirs = fight.lines
    assert (ours.reforms, theirs.reforms) == (False, True)
    blow = Blow(1, "melee", 0, 0, 0)
    assert fight.count(blow, 0, 0) == 1 and fight.count(blow, 0, theirs.face(0)) == 10
    # the charger's combat score: its Flank +1 while the charged unit has not faced it
    assert [int(fight.scores(0, code, 0, 0, False)[0]) for code in (0, theirs.face(0))] == [1, 0]
    may = fight.reforming(1, (np.array([0, 0]), np.array([0, theirs.face(0)])))
    assert may.tolist() == [True, False]  # once faced, never again


def test_the_charger_turns_to_face_the_unit_in_its_flank_once_the_charged_unit_is_gone():
    """The charged side's second unit (10 models, 2 Full Ranks) in the flank of 15 (3 Full Ranks): the charger may
    turn to it only when the charged unit is gone (two enemy units on two facings: it cannot); then it is Steadfast,
    no longer Disrupted, and the flanker's Flank +1 and its one more for 2 Full Ranks end (its Rank Bonus +1
    stays)."""
    attack = Combat(models=15, width=5, **PLAIN, **enemy(models=1, width=1, **PLAIN), rounds=3,
                    enemy_with_unit=(RANKS + " facing flank",))
    fight = attack.fight
    ours, theirs = fight.lines
    assert (ours.reforms, theirs.reforms) == (True, False)
    main_gone = theirs.join([(0, theirs.troops[0].code(1, 0)), (0, 0)])  # the charged model lost its Health Point
    both = (np.array([0, 0]), np.array([0, main_gone]))
    assert fight.reforming(0, both).tolist() == [False, True]
    fled = theirs.join([(1, 0), (0, 0)])  # the charged model fled instead: the same
    assert bool(fight.reforming(0, (0, fled)))
    assert [bool(fight.steadfast(code, main_gone)[0][0]) for code in (0, ours.face(0))] == [False, True]
    assert [int(fight.scores(code, main_gone, code, main_gone, False)[1]) for code in (0, ours.face(0))] == [3, 1]
    # the charger strikes it with 5 + 5 where it struck with 5 (as many as the flanker's front rank), no supports
    flanked = Blow(0, "melee", 0, 0, 1)
    assert [int(fight.count(flanked, code, main_gone)) for code in (0, ours.face(0))] == [5, 10]
    assert not bool(fight.reforming(0, (0, 0)))  # the charged model stands: two enemies, two facings


def test_two_enemy_units_standing_on_two_facings_forbid_it():
    attack = Combat(models=10, width=5, **PLAIN, **enemy(models=1, width=1, **PLAIN), rounds=3,
                    enemy_with_unit=(ONE + " facing flank", ONE + " facing rear"))
    fight = attack.fight
    theirs = fight.enemy_line
    gone = theirs.join([(1, 0), (0, 0), (0, 0)])
    one_left = theirs.join([(1, 0), (0, 0), (0, theirs.troops[2].code(1, 0))])
    assert [bool(fight.reforming(0, (0, code))) for code in (gone, one_left)] == [False, True]
    ours = fight.line.troops[0]
    assert not bool(fight.reforming(0, (ours.code(10, 0), one_left)))  # the charger's unit is gone itself


def test_a_unit_beside_left_alone_on_the_front_is_faced_already():
    """The charged side's units beside the charged one (front) and in the charger's flank: once the charged unit
    and the flanker are gone, the charger's one enemy stands on its front; nothing to reform."""
    fight = Combat(models=10, width=5, **PLAIN, **enemy(models=1, width=1, **PLAIN), rounds=3,
                   enemy_with_unit=(ONE + " facing front", ONE + " facing flank")).fight
    theirs = fight.enemy_line
    assert fight.line.reforms
    front_left = theirs.join([(1, 0), (0, 0), (2, 0)])
    flank_left = theirs.join([(1, 0), (2, 0), (0, 0)])
    assert [bool(fight.reforming(0, (0, code))) for code in (front_left, flank_left)] == [False, True]


def test_a_unit_beside_on_the_front_needs_no_reform_and_keep_has_no_bit():
    beside = Combat(models=10, width=5, **PLAIN, **enemy(models=1, width=1, **PLAIN), rounds=3,
                    enemy_with_unit=(ONE + " facing front",)).fight
    assert not beside.line.reforms and beside.line.states == beside.line.base
    kept = one_a_side(combat_reform="keep").fight
    assert kept.combat_reform is CombatReform.KEEP and not kept.enemy_line.reforms


def test_an_unbreakable_unit_still_tests_to_reform():
    """Unbreakable passes every Break Test, not the Combat Reform's Discipline test."""
    troop = one_a_side(enemy_unbreakable=True).fight.troops[1]
    assert troop.break_fails(0, 2, F) == 0 and troop.break_fails(0, 2, F, reform=True) == 1 - passes(5)


def test_the_switch_is_refused_where_it_changes_nothing(capsys):
    words = ["t9a", "combat", "--models", "1", "--width", "1"]
    for prefix in ("", "enemy-"):
        for key, value in dict(models=1, width=1, **PLAIN).items():
            words += [f"--{prefix}{key}", str(value)]
    assert_refused(capsys, *words, "--combat-reform", "keep", "--flank", mentions=("--combat-reform keep",
                                                                                 "--rounds 2"))
    assert_refused(capsys, *words, "--combat-reform", "keep", "--rounds", "2", mentions=("--combat-reform keep",
                                                                                        "--flank"))
    shown = run(capsys, *words, "--combat-reform", "keep", "--rounds", "2", "--flank", "--exact")
    assert shown.code == 0 and "combat reform keep" in shown.out
