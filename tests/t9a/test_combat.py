"""A round of close combat of The 9th Age (docs/rules.md §3.11): Initiative Steps, the combat score, the Break
Test with Steadfast, Flee and Pursuit; figures worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from oddscalc.errors import InputError
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight import Fighter, break_chance, caught_chance

CAUGHT = F(721, 1296)  # P(2D6 pursuit >= 2D6 flee)
DUELLIST = dict(models=1, width=1, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3,
                discipline=7)


def duel(**more):
    """One model a side, to hit 4+, to wound 4+, no save: each attack kills with 1/4."""
    enemy = {f"enemy_{name}": value for name, value in DUELLIST.items()}
    return Combat(**{**DUELLIST, **enemy, **more})


def test_one_model_charges_one_worked_by_hand():
    """Agility 3 + 1 (Charging Momentum): the charger strikes first. It kills (1/4): it wins by 2 (1 Health Point
    and the Charge), no one left to test. It misses (3/4): the enemy strikes back and kills (1/4): 1 all, a draw
    (both winners); or misses too: the charger wins by 1, the enemy (no Full Rank, not Steadfast) tests at 7 - 1
    and fails on 7 or more (21/36), and is caught with 721/1296."""
    exact = duel().exact(fractions=True)
    assert exact["win"][1] == F(1, 4) + F(9, 16) == F(13, 16)
    assert exact["draw"][1] == F(3, 16)
    assert exact["break"][1] == F(9, 16) * F(21, 36)
    assert exact["caught"][1] == F(9, 16) * F(21, 36) * CAUGHT
    assert list(exact["score"]) == [F(3, 16), F(9, 16), F(1, 4)]
    assert list(exact["health_lost"]) == [F(13, 16), F(3, 16)] and list(exact["enemy_health_lost"]) == [F(3, 4),
                                                                                                          F(1, 4)]


def test_a_second_round_fights_on_from_a_draw_or_a_held_break_test():
    """--rounds 2: a held Break Test fights again, without the Charge or its +1 Agility: both strike at once at
    step 3. The first round's draw left the charger dead: no second round. In the second round both die (1/16)
    or neither does (9/16): a draw; one dies: no one left to test."""
    one, two = duel().exact(fractions=True), duel(rounds=2).exact(fractions=True)
    held = F(9, 16) * F(15, 36)  # round 1: both standing, the enemy lost and held
    assert two["draw"][1] == F(3, 16) + held * (F(1, 16) + F(9, 16))
    assert two["break"][1] == one["break"][1]  # no Break Test in the second round: someone died or a draw
    assert duel().fight.steps(True) == [(4, (True, False)), (3, (False, True))]
    assert duel().fight.steps(False) == [(3, (True, True))]


def test_agility_above_ten_strikes_at_step_ten():
    assert duel(agility=10).fight.steps(True) == [(10, (True, False)), (3, (False, True))]


def test_the_combat_score_counts_ranks_standard_charge_and_facing():
    """Rank Bonus: +1 per Full Rank (5 models) after the first, at most 3; an incomplete last rank of 5 or more
    counts; a unit narrower than 5 has none."""
    unit = Fighter(models=23, width=6, health=1, attacks=1, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7)
    assert unit.full_ranks(0) == 3 + 1 and unit.rank_bonus(0) == 3  # 6, 6, 6 and 5
    assert unit.full_ranks(1) == 3 and unit.full_ranks(18) == 1 and unit.rank_bonus(12) == 1  # 5 left: one rank
    assert unit.full_ranks(19) == 0
    narrow = Fighter(**{**unit.__dict__, "width": 4})
    assert narrow.full_ranks(0) == 0
    fight = duel(flank=True).fight
    assert fight.scores(0, 0, 0, 0, True) == (1 + 1, 0)  # the Charge and the flank
    assert duel(rear=True).fight.scores(0, 0, 0, 0, False) == (2, 0)  # the rear, no Charge in a later round
    assert duel(enemy_standard=True).fight.scores(0, 1, 0, 0, True) == (1 + 1, 1)  # a point lost, the standard


def test_steadfast_and_disrupted_ranks():
    """The loser with more Full Ranks ignores the difference; not when the charger in its flank has 2 Full
    Ranks or more."""
    blocks = dict(models=10, width=5)
    attack = duel(**blocks, enemy_models=15, enemy_width=5, flank=True)
    assert attack.fight.steadfast(0, 0) == (False, False)  # 2 ranks in its flank: disrupted
    assert duel(**blocks, enemy_models=15, enemy_width=5).fight.steadfast(0, 0) == (False, True)
    assert duel(models=5, width=5, enemy_models=15, enemy_width=5, flank=True).fight.steadfast(0, 0) == (False, True)


def test_the_break_test_and_the_pursuit():
    assert break_chance(7, 0, F) == F(15, 36) and break_chance(7, 3, F) == F(30, 36) and break_chance(10, 9, F) == 1
    plain = Fighter(**DUELLIST, health=1)
    fast = Fighter(**DUELLIST, health=1, swiftstride=True)
    assert caught_chance(plain, plain, F) == CAUGHT
    assert caught_chance(plain, fast, F) == F(1877, 2592) and caught_chance(fast, plain, F) == F(247, 648)


def test_supporting_attacks_and_a_flank():
    """Front rank: the Attack Value each; second rank: one Supporting Attack each; in its flank the charged unit
    fights with as many models as the charger's front rank, and without support."""
    unit = Fighter(models=12, width=5, health=1, attacks=2, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7)
    assert unit.strikes(0, True) == 5 * 2 + 5 and unit.strikes(5, True) == 5 * 2 + 2 and unit.strikes(9, True) == 6
    fight = duel(enemy_models=12, enemy_width=5, enemy_attacks=2, models=3, width=3, flank=True).fight
    assert fight.strikes(0, 0) == (3, 3 * 2)


@pytest.mark.parametrize("more, name", [
    (dict(models=61), "models"), (dict(enemy_width=11), "enemy_width"), (dict(health=6), "health"),
    (dict(agility=11), "agility"), (dict(enemy_discipline=1), "enemy_discipline"), (dict(aegis=7), "aegis"),
    (dict(flank=True, rear=True), "rear"), (dict(rounds=3), "rounds"),
])
def test_a_combat_refuses_by_name(more, name):
    with pytest.raises(InputError) as error:
        duel(**more)
    assert error.value.name == name


def test_a_combat_from_the_command_line(capsys):
    from clirun import run

    words = ["t9a", "combat"] + [word for name, value in DUELLIST.items()
                                 for word in (f"--{name}", str(value), f"--enemy-{name}", str(value))]
    result = run(capsys, *words, "--exact", "--format", "json")
    assert result.code == 0
    import json

    outcomes = json.loads(result.out)["outcomes"]
    assert outcomes["win"]["probability"] == pytest.approx(13 / 16, abs=1e-12)
    refused = run(capsys, *words, "--flank", "--rear")
    assert (refused.code, refused.out) == (2, "") and refused.err.strip() == (
        "error: --rear on: the charger strikes one facing: --flank or --rear")


def test_the_open_readings_are_switches():
    """§3.11's open readings: the flank or rear bonus ranked (one more with 2 Full Ranks) or flat, an incomplete
    last rank counted or not, an Agility above 10 at step 10 or first."""
    from oddscalc.t9a.fight import FacingBonus, HighAgility, LastRank

    ranks = dict(models=10, width=5, flank=True)  # 2 Full Ranks: Rank Bonus +1
    assert duel(**ranks).fight.scores(0, 0, 0, 0, True) == (1 + 1 + 2, 0)
    assert duel(**ranks, facing_bonus=FacingBonus.FLAT).fight.scores(0, 0, 0, 0, True) == (1 + 1 + 1, 0)
    assert duel(models=10, width=5, rear=True).fight.scores(0, 0, 0, 0, False) == (1 + 3, 0)
    assert duel(models=9, width=5, rear=True).fight.scores(0, 0, 0, 0, False) == (0 + 2, 0)  # 1 Full Rank
    assert duel(models=23, width=6).fight.charger.full_ranks(0) == 4
    assert duel(models=23, width=6, last_rank=LastRank.IGNORED).fight.charger.full_ranks(0) == 3
    assert duel(agility=10, high_agility=HighAgility.FIRST).fight.steps(True) == [(11, (True, False)),
                                                                                   (3, (False, True))]
    words = duel(facing_bonus=FacingBonus.FLAT, last_rank=LastRank.IGNORED).describe()
    assert words.endswith(", facing bonus flat, last rank ignored")


def test_great_weapons_strike_last_and_lightning_reflexes_hit_more_often():
    """A Great Weapon strikes at Initiative Step 0 (the charged duellist strikes first); Lightning Reflexes is +1
    to hit (3+: the charger kills with 1/3, so P(win) = 1/3 + 2/3 · 3/4); both: its Agility's step, no +1."""
    assert duel(great_weapon=True).fight.steps(True) == [(3, (False, True)), (0, (True, False))]
    assert duel(lightning_reflexes=True).exact(fractions=True)["win"][1] == F(1, 3) + F(2, 3) * F(3, 4)
    both = duel(great_weapon=True, lightning_reflexes=True)
    assert both.fight.steps(True) == duel().fight.steps(True)
    assert both.exact(fractions=True)["win"][1] == F(13, 16)
    assert "great weapons, lightning reflexes" in both.describe()


def test_a_combat_in_words():
    attack = duel(models=10, width=5, health=2, armour=3, ap=1, aegis=5, standard=True, swiftstride=True,
                  enemy_attacks=2, flank=True, rounds=2)
    assert attack.describe() == (
        "T9A combat: (10 models 5 wide, H2, A1, O3 D3 S3 R3, Agility 3, Discipline 7, armour 3, AP 1, aegis 5+, "
        "standard, swiftstride) charge (1 model 1 wide, H1, A2, O3 D3 S3 R3, Agility 3, Discipline 7) in the flank, "
        "at most 2 rounds")
    assert duel(rear=True).describe().endswith(") in the rear")


@pytest.mark.parametrize("name, low, high", [
    ("models", 1, 60), ("width", 1, 10), ("health", 1, 5), ("attacks", 1, 10), ("offensive", 1, 10),
    ("defensive", 1, 10), ("strength", 1, 10), ("resilience", 1, 10), ("agility", 0, 10), ("discipline", 2, 10),
    ("ap", 0, 10),
])
def test_a_combat_s_bounds_are_its_bounds(name, low, high):
    for prefix in ("", "enemy_"):
        for value in (low, high):
            duel(**{prefix + name: value}, rounds=1)  # the bounds themselves are answered
        for value in (low - 1, high + 1):
            with pytest.raises(InputError) as error:
                duel(**{prefix + name: value})
            assert (error.value.name, error.value.value) == (prefix + name, value)
            assert error.value.allowed == f"expected {low} to {high}"


def test_an_exact_combat_too_long_to_wait_for_is_refused_at_once(capsys):
    """Every pair of Health Points lost a second round may start from: 60 × 5 against 60 × 5 is too many."""
    from clirun import run

    big = duel(models=60, width=10, health=5, enemy_models=60, enemy_width=10, enemy_health=5, rounds=2)
    assert big.exact_seconds() > 2 and duel(rounds=2).exact_seconds() < 0.01
    assert big.exact_seconds(fractions=True) > big.exact_seconds()
    words = big.query().split()[1:] + ["--exact"]
    result = run(capsys, *words)
    assert result.code == 2 and result.out == "" and result.err.startswith("error: --exact T9A combat: (60 models")
    assert "the exact answer would take about" in result.err and len(result.err.strip().splitlines()) == 1


def test_spears_strike_first_when_charged_in_front_and_fight_in_an_extra_rank():
    """A Spear charged in its front: +2 Agility in the first round (step 5, before the charger's 4): it kills
    first with 1/4 (1 all: a draw, the Charge against the Health Point), else the charger kills with 1/4 (wins by
    2) or neither (wins by 1): P(win) = 3/4 · 1/4 + 9/16. Not in a flank, not in the second round; its supporting
    ranks one more (Fight in Extra Rank), and --extra-ranks more."""
    spear = duel(enemy_spear=True)
    assert spear.fight.in_round(True).steps(True) == [(5, (False, True)), (4, (True, False))]
    assert spear.fight.in_round(False).steps(False) == [(3, (True, True))]
    assert duel(enemy_spear=True, flank=True).fight.in_round(True).steps(True) == duel().fight.steps(True)
    exact = spear.exact(fractions=True)
    assert exact["win"][1] == F(3, 4) * F(1, 4) + F(9, 16) and exact["draw"][1] == F(1, 4)
    unit = Fighter(models=20, width=5, health=1, attacks=2, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7)
    assert unit.strikes(0, True) == 10 + 5
    assert Fighter(**{**unit.__dict__, "spear": True}).strikes(0, True) == 10 + 10
    assert Fighter(**{**unit.__dict__, "spear": True, "extra_ranks": 1}).strikes(0, True) == 10 + 15
    assert "spears, 1 extra rank" in duel(spear=True, extra_ranks=1).describe()


def test_impact_hits_strike_at_step_ten_in_the_first_round():
    """One charging model with Impact Hits (1): an automatic hit at step 10 (4+ to wound, no save: 1/2), then its
    attack at step 4 if the enemy still stands (1/4), then the enemy's (1/4). Killed by the hit or the attack, the
    enemy loses by 2; else the enemy's kill makes it 1 all; else the charger wins by 1."""
    attack = duel(impact_hits=1)
    assert attack.fight.all_steps(True)[0] == (10, (False, False), True)
    assert [step for step, _, impact in attack.fight.all_steps(False) if impact] == []  # not when not charging
    dead = F(1, 2) + F(1, 2) * F(1, 4)
    exact = attack.exact(fractions=True)
    assert exact["win"][1] == dead + (1 - dead) * F(3, 4)
    assert exact["draw"][1] == (1 - dead) * F(1, 4)
    assert "Impact Hits (1))" in attack.describe() and attack.query().endswith("--impact-hits 1")


def test_the_winner_may_restrain_its_pursuit():
    """--pursuit restrain: the winner pursues only when its Restrain Pursuit test (Discipline 7) fails: 15/36."""
    from oddscalc.t9a.fight import Pursuit

    exact = duel(pursuit=Pursuit.RESTRAIN).exact(fractions=True)
    assert exact["caught"][1] == F(9, 16) * F(21, 36) * CAUGHT * F(15, 36)
    assert exact["break"][1] == duel().exact(fractions=True)["break"][1]
    assert duel(pursuit=Pursuit.RESTRAIN).describe().endswith(", pursuit restrain")


@pytest.mark.parametrize("value", ["0", "100d6", "41"])
def test_impact_hits_a_front_rank_cannot_make_are_refused_by_their_option(value):
    with pytest.raises(InputError) as error:
        duel(models=5, width=5, impact_hits=value)
    assert error.value.name == "impact_hits" and "hits at most" in error.value.allowed
