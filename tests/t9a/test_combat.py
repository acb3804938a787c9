"""A round of close combat of The 9th Age (docs/rules.md §3.11): Initiative Steps, the combat score, the Break
Test with Steadfast, Flee and Pursuit; figures worked by hand."""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from fractions import Fraction as F

import pytest

from oddscalc.errors import InputError
from oddscalc.t9a.combat import Combat, read_part
from oddscalc.t9a.fight import EVENTS, Blow
from oddscalc.t9a.fight_exact import _caught_tables
from oddscalc.t9a.fighter import Fighter, Height, LineBonus, Part, break_chance

CAUGHT = F(721, 1296)  # P(2D6 pursuit >= 2D6 flee)
DUELLIST = dict(models=1, width=1, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3,
                discipline=7)


def steps(fight, first):
    """(Initiative Step, (the charger's attacks strike, the charged unit's)) as the fight's schedule gives them."""
    return [(step, (Blow(0, "melee") in blows, Blow(1, "melee") in blows)) for step, blows in fight.schedule(first)]


def duel(**more):
    """One model a side, to hit 4+, to wound 4+, no save: each attack kills with 1/4."""
    enemy = {f"enemy_{name}": value for name, value in DUELLIST.items()}
    return Combat(**{**DUELLIST, **enemy, **more})


def test_one_model_charges_one_worked_by_hand():
    """Agility 3 + 1 (Charging Momentum): the charger strikes first. It kills (1/4): it wins by 2 (1 Health Point
    and the Charge), no one left to test. It misses (3/4): the enemy strikes back and kills (1/4): 1 all, but the
    enemy stands alone and wins (No More Foes); or misses too: the charger wins by 1, the enemy (no Full Rank, not
    Steadfast) tests at 7 - 1 and fails on 7 or more (21/36), and is caught with 721/1296."""
    exact = duel().exact(fractions=True)
    assert exact["win"][1] == F(1, 4) + F(9, 16) == F(13, 16)
    assert exact["draw"][1] == 0
    assert exact["break"][1] == F(9, 16) * F(21, 36)
    assert exact["caught"][1] == F(9, 16) * F(21, 36) * CAUGHT
    # the charged unit is the only one that can break here: its break and catch are the loser's
    assert (exact["enemy_break"][1], exact["enemy_caught"][1]) == (exact["break"][1], exact["caught"][1])
    assert list(exact["score"]) == [F(3, 16), F(9, 16), F(1, 4)]
    assert list(exact["health_lost"]) == [F(13, 16), F(3, 16)] and list(exact["enemy_health_lost"]) == [F(3, 4),
                                                                                                          F(1, 4)]


def test_a_second_round_fights_on_from_a_held_break_test():
    """--rounds 2: a held Break Test fights again, without the Charge or its +1 Agility: both strike at once at
    step 3. In the second round both die (1/16): 1 all, a draw; neither does (9/16): a draw; one dies: the other
    wins, no one left to test."""
    one, two = duel().exact(fractions=True), duel(rounds=2).exact(fractions=True)
    held = F(9, 16) * F(15, 36)  # round 1: both standing, the enemy lost and held
    assert two["draw"][1] == held * (F(1, 16) + F(9, 16))
    assert two["win"][1] == F(1, 4) + F(9, 16) * F(21, 36) + held * F(3, 16)
    assert two["break"][1] == one["break"][1]  # no Break Test in the second round: someone died or a draw
    assert steps(duel().fight, True) == [(4, (True, False)), (3, (False, True))]
    assert steps(duel().fight, False) == [(3, (True, True))]


ONE_AGAINST_TWO = dict(models=1, width=1, attacks=1, offensive=4, defensive=4, strength=4, resilience=4, agility=2,
                       discipline=7, enemy_models=2, enemy_width=2, enemy_attacks=1, enemy_offensive=4,
                       enemy_defensive=4, enemy_strength=4, enemy_resilience=4, enemy_agility=3, enemy_discipline=7)


def test_a_unit_wiped_out_does_not_win_or_pursue():
    """One model charges two (all at step 3, each attack kills with 1/4). The charger dies (7/16): the enemy stands
    alone and wins (No More Foes), whatever the score (a charger that also killed one is ahead 2-1): no Break Test,
    so no pursuit by a unit with no model left. The charger stands and kills one (1/4 · 9/16): it wins 2-0, the
    enemy tests at -2 and breaks on 6 or more (26/36); neither kills (27/64): it wins 1-0, breaks on 7 or more."""
    exact = Combat(**ONE_AGAINST_TWO).exact(fractions=True)
    broke = F(1, 4) * F(9, 16) * F(26, 36) + F(27, 64) * F(21, 36)
    assert exact["win"][1] == F(9, 16) and exact["draw"][1] == 0
    assert exact["break"][1] == broke == F(89, 256)
    assert exact["caught"][1] == broke * CAUGHT == F(64169, 331776)  # 56959/248832 when the dead charger pursued


def test_a_standard_bearer_removed_is_not_engaged():
    """One model a side, the enemy's a Standard Bearer, both strike at step 3 (kills with 1/4 each). Both die
    (1/16): the charger's Health Point and Charge (2) beat the enemy's Health Point (1): its Standard is gone. The
    charger alone kills (3/16): it wins. The enemy alone (3/16): it wins, alone. Neither (9/16): 1 (the Charge)
    to 1 (the Standard), a draw."""
    one = dict(ONE_AGAINST_TWO, enemy_models=1, enemy_width=1, enemy_standard=True)
    exact = Combat(**one).exact(fractions=True)
    assert exact["win"][1] == F(1, 4) and exact["draw"][1] == F(9, 16)  # 3/16 and 3/16 when a dead Standard scored
    assert exact["break"][1] == 0  # no one stands to lose


def test_a_unit_that_wiped_out_its_foes_wins_and_gives_no_standard_or_facing():
    """No More Foes: a unit no longer Engaged gives no Standard, Flank or Rank Bonus (the Charge and the Health
    Points count), and counts as winning; a unit with no model left gives none of them either."""
    fight = duel(models=10, width=5, health=2, standard=True, flank=True, enemy_standard=True, enemy_models=10,
                 enemy_width=5).fight
    # both engaged, 2 Full Ranks each: the charger's Charge, ranks +1, Standard, flank +1 and +1 (2 Full Ranks)
    assert fight.scores(0, 0, 0, 0, True) == (1 + 1 + 1 + 2, 1 + 1)
    assert fight.scores(2, 10, 0, 0, True) == (10 + 1, 2)  # the enemy wiped out: the charger's HP and Charge only
    assert fight.scores(20, 0, 0, 0, True) == (1, 20)  # the charger wiped out: the enemy's ranks and Standard gone
    won, tied, margin = fight.result(18, 10, 0, 0, False)  # 1 model left, 10 to 18: the charger stands alone
    assert (bool(won), bool(tied), int(margin)) == (True, False, 8)
    won, tied, _ = fight.result(20, 10, 0, 0, False)  # both gone: the scores decide, 10 to 20
    assert (bool(won), bool(tied)) == (False, False)
    won, tied, _ = fight.result(20, 5, 0, 0, False)  # 5 to 20, the enemy alone
    assert (bool(won), bool(tied)) == (False, False)
    won, tied, margin = Combat(**ONE_AGAINST_TWO).fight.result(1, 1, 0, 0, True)  # 2 to 1, but the enemy stands
    assert (bool(won), bool(tied), int(margin)) == (False, False, 1)
    won, tied, _ = duel().fight.result(1, 1, 0, 0, False)  # both gone, 1 to 1: a draw
    assert (bool(won), bool(tied)) == (False, True)


def test_agility_above_ten_strikes_at_step_ten():
    assert steps(duel(agility=10).fight, True) == [(10, (True, False)), (3, (False, True))]


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
    assert duel(enemy_standard=True).fight.scores(0, 0, 0, 0, True) == (1, 1)  # the Charge, the Standard
    assert duel(enemy_standard=True).fight.scores(0, 1, 0, 0, True) == (1 + 1, 0)  # the Standard Bearer removed


def test_steadfast_and_disrupted_ranks():
    """The loser with more Full Ranks ignores the difference; not when the charger in its flank has 2 Full
    Ranks or more."""
    def steadfast(attack):  # (the charger's main unit, the charged unit)
        ours, theirs = attack.fight.steadfast(0, 0)
        return bool(ours[0]), bool(theirs[0])

    blocks = dict(models=10, width=5)
    attack = duel(**blocks, enemy_models=15, enemy_width=5, flank=True)
    assert steadfast(attack) == (False, False)  # 2 ranks in its flank: disrupted
    assert steadfast(duel(**blocks, enemy_models=15, enemy_width=5)) == (False, True)
    assert steadfast(duel(models=5, width=5, enemy_models=15, enemy_width=5, flank=True)) == (False, True)


def test_the_break_test_and_the_pursuit():
    assert break_chance(7, 0, F) == F(15, 36) and break_chance(7, 3, F) == F(30, 36) and break_chance(10, 9, F) == 1

    def caught(fleeing: bool, pursuing: bool) -> F:  # the charged unit (Swiftstride or not) fled, the charger pursues
        tables = _caught_tables(duel(enemy_swiftstride=fleeing, swiftstride=pursuing).fight, F)
        return tables[1][0][0b1, 0]

    assert caught(False, False) == CAUGHT
    assert caught(False, True) == F(1877, 2592) and caught(True, False) == F(247, 648)


def test_supporting_attacks_and_a_flank():
    """Front rank: the Attack Value each; second rank: one Supporting Attack each; in its flank the charged unit
    fights with as many models as the charger's front rank, and without support."""
    unit = Fighter(models=12, width=5, health=1, attacks=2, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7)
    assert unit.strikes(unit.parts[0], 0, True) == 5 * 2 + 5 and unit.strikes(unit.parts[0], 5, True) == 5 * 2 + 2 and unit.strikes(unit.parts[0], 9, True) == 6
    fight = duel(enemy_models=12, enemy_width=5, enemy_attacks=2, models=3, width=3, flank=True).fight
    assert (fight.count(Blow(0, "melee"), 0, 0), fight.count(Blow(1, "melee"), 0, 0)) == (3, 3 * 2)


@pytest.mark.parametrize("more, name", [
    (dict(models=61), "models"), (dict(enemy_width=11), "enemy_width"), (dict(health=11), "health"),
    (dict(agility=11), "agility"), (dict(enemy_discipline=1), "enemy_discipline"), (dict(aegis=7), "aegis"),
    (dict(flank=True, rear=True), "rear"), (dict(rounds=11), "rounds"), (dict(rounds="ever"), "rounds"),
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
    from oddscalc.t9a.readings import FacingBonus, HighAgility
    from oddscalc.t9a.fighter import LastRank

    ranks = dict(models=10, width=5, flank=True)  # 2 Full Ranks: Rank Bonus +1
    assert duel(**ranks).fight.scores(0, 0, 0, 0, True) == (1 + 1 + 2, 0)
    assert duel(**ranks, facing_bonus=FacingBonus.FLAT).fight.scores(0, 0, 0, 0, True) == (1 + 1 + 1, 0)
    assert duel(models=10, width=5, rear=True).fight.scores(0, 0, 0, 0, False) == (1 + 3, 0)
    assert duel(models=9, width=5, rear=True).fight.scores(0, 0, 0, 0, False) == (0 + 2, 0)  # 1 Full Rank
    assert duel(models=23, width=6).fight.charger.full_ranks(0) == 4
    assert duel(models=23, width=6, last_rank=LastRank.IGNORED).fight.charger.full_ranks(0) == 3
    assert steps(duel(agility=10, high_agility=HighAgility.FIRST).fight, True) == [(11, (True, False)),
                                                                                   (3, (False, True))]
    words = duel(facing_bonus=FacingBonus.FLAT, last_rank=LastRank.IGNORED).describe()
    assert words.endswith(", facing bonus flat, last rank ignored")


def test_great_weapons_strike_last_and_lightning_reflexes_hit_more_often():
    """A Great Weapon strikes at Initiative Step 0 (the charged duellist strikes first); Lightning Reflexes is +1
    to hit (3+: the charger kills with 1/3, so P(win) = 1/3 + 2/3 · 3/4); both: its Agility's step, no +1."""
    assert steps(duel(great_weapon=True).fight, True) == [(3, (False, True)), (0, (True, False))]
    assert duel(lightning_reflexes=True).exact(fractions=True)["win"][1] == F(1, 3) + F(2, 3) * F(3, 4)
    both = duel(great_weapon=True, lightning_reflexes=True)
    assert steps(both.fight, True) == steps(duel().fight, True)
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
    ("models", 1, 60), ("width", 1, 10), ("health", 1, 10), ("attacks", 1, 10), ("offensive", 1, 10),
    ("defensive", 1, 10), ("strength", 1, 10), ("resilience", 1, 10), ("agility", 0, 10), ("discipline", 2, 10),
    ("ap", 0, 10), ("extra_ranks", 0, 2),
])
def test_a_combat_s_bounds_are_its_bounds(name, low, high):
    for prefix in ("", "enemy_"):
        unit = {} if name == "models" else {prefix + "models": 60}  # a unit as wide as its front rank can be
        for value in (low, high):
            duel(**{prefix + name: value, **unit}, rounds=1)  # the bounds themselves are answered
        for value in (low - 1, high + 1):
            with pytest.raises(InputError) as error:
                duel(**{prefix + name: value, **unit})
            assert (error.value.name, error.value.value) == (prefix + name, value)
            assert error.value.allowed == f"expected {low} to {high}"


def test_an_exact_combat_too_long_to_wait_for_is_refused_at_once(capsys):
    """Every pair of Health Points lost a round can reach, from each pair the first round reached: 60 × 5 against
    60 × 5 with riders of Attack Value 3 and mounts, 90 Health Points a round each way, is too many."""
    from clirun import run

    big = duel(models=60, width=10, health=5, enemy_models=60, enemy_width=10, enemy_health=5, rounds=2, attacks=3,
               enemy_attacks=3, mount="A2 O3 S3 I1", enemy_mount="A2 O3 S3 I2")
    # front, support (10 wide: Line Formation, two supporting ranks), the mount's front and support
    assert big.fight.reach() == (10 * 3 + 20 + 10 * 2 + 20, 90)
    assert big.exact_seconds() > 2 and duel(rounds=2).exact_seconds() < 0.01
    assert big.exact_seconds(fractions=True) > big.exact_seconds()
    words = shlex.split(big.query())[1:] + ["--exact"]
    result = run(capsys, *words)
    assert result.code == 2 and result.out == "" and result.err.startswith("error: --exact T9A combat: (60 models")
    assert "the exact answer would take about" in result.err and len(result.err.strip().splitlines()) == 1


def test_spears_strike_first_when_charged_in_front_and_fight_in_an_extra_rank():
    """A Spear charged in its front: +2 Agility in the first round (step 5, before the charger's 4): it kills
    first with 1/4 (1 all, the Charge against the Health Point, but it stands alone and wins), else the charger kills with 1/4 (wins by
    2) or neither (wins by 1): P(win) = 3/4 · 1/4 + 9/16. Not in a flank, not in the second round; its supporting
    ranks one more (Fight in Extra Rank), and --extra-ranks more."""
    spear = duel(enemy_spear=True)
    assert steps(spear.fight.in_round(True), True) == [(5, (False, True)), (4, (True, False))]
    assert steps(spear.fight.in_round(False), False) == [(3, (True, True))]
    assert steps(duel(enemy_spear=True, flank=True).fight.in_round(True), True) == steps(duel().fight, True)
    exact = spear.exact(fractions=True)
    assert exact["win"][1] == F(3, 4) * F(1, 4) + F(9, 16) and exact["draw"][1] == 0
    assert 1 - exact["win"][1] == F(1, 4)  # the spear's kill
    unit = Fighter(models=20, width=5, health=1, attacks=2, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7)
    assert unit.strikes(unit.parts[0], 0, True) == 10 + 5
    assert replace(unit, spear=True).strikes(unit.parts[0], 0, True) == 10 + 10
    assert replace(unit, spear=True, extra_ranks=1).strikes(unit.parts[0], 0, True) == 10 + 15
    assert "spears, 1 extra rank" in duel(spear=True, extra_ranks=1).describe()


def test_impact_hits_strike_at_step_ten_in_the_first_round():
    """One charging model with Impact Hits (1): an automatic hit at step 10 (4+ to wound, no save: 1/2), then its
    attack at step 4 if the enemy still stands (1/4), then the enemy's (1/4). Killed by the hit or the attack, the
    enemy loses by 2; else the enemy's kill makes it 1 all, the enemy alone wins; else the charger wins by 1."""
    attack = duel(impact_hits=1)
    assert attack.fight.schedule(True)[0] == (10, (Blow(0, "impact"),))
    not_charging = attack.fight.schedule(False)
    assert [step for step, blows in not_charging if Blow(0, "impact") in blows] == []
    dead = F(1, 2) + F(1, 2) * F(1, 4)
    exact = attack.exact(fractions=True)
    assert exact["win"][1] == dead + (1 - dead) * F(3, 4)
    assert exact["draw"][1] == 0 and 1 - exact["win"][1] == (1 - dead) * F(1, 4)
    assert "Impact Hits (1))" in attack.describe() and attack.query().endswith("--impact-hits 1")


def test_the_winner_may_restrain_its_pursuit():
    """--pursuit restrain: the winner pursues only when its Restrain Pursuit test (Discipline 7) fails: 15/36."""
    from oddscalc.t9a.readings import Pursuit

    exact = duel(pursuit=Pursuit.RESTRAIN).exact(fractions=True)
    assert exact["caught"][1] == F(9, 16) * F(21, 36) * CAUGHT * F(15, 36)
    assert exact["break"][1] == duel().exact(fractions=True)["break"][1]
    assert duel(pursuit=Pursuit.RESTRAIN).describe().endswith(", pursuit restrain")


@pytest.mark.parametrize("value", ["0", "100d6", "41"])
def test_impact_hits_a_front_rank_cannot_make_are_refused_by_their_option(value):
    with pytest.raises(InputError) as error:
        duel(models=5, width=5, impact_hits=value)
    assert error.value.name == "impact_hits" and "hits at most" in error.value.allowed


def test_heights_set_full_ranks_and_the_supporting_attacks_cap():
    """Large: a Full Rank of 3, up to 3 Supporting Attacks each; Gigantic: a Full Rank of 1, up to 5."""
    large = Fighter(models=6, width=3, health=3, attacks=4, offensive=3, defensive=3, strength=5, resilience=4,
                    agility=2, discipline=7, height=Height.LARGE)
    assert large.full_ranks(0) == 2 and large.rank_bonus(0) == 1 and large.full_ranks(9 + 1) == 1
    assert large.strikes(large.parts[0], 0, True) == 3 * 4 + 3 * 3
    assert replace(large, height=Height.STANDARD).full_ranks(0) == 0  # 3 wide: no Full Rank of 5
    giant = replace(large, models=2, width=1, attacks=6, height=Height.GIGANTIC)
    assert giant.full_ranks(0) == 2 and giant.strikes(giant.parts[0], 0, True) == 6 + 5
    assert "large height" in duel(height="large").describe()


def test_stomp_attacks_strike_at_step_zero_on_standard_height_only():
    """The duel, the charger with Stomp Attacks (1): it strikes first (1/4 kills); else the enemy kills (1/4), wins
    alone, and no stomp comes from the dead; else the stomp hits at step 0 and wounds 4+ with no save (1/2): a kill, won by 2.
    Not on Large models, nor on those that cannot be stomped."""
    exact = duel(stomp=1).exact(fractions=True)
    assert exact["win"][1] == F(13, 16) and exact["draw"][1] == 0
    assert exact["enemy_health_lost"][1] == F(1, 4) + F(9, 16) * F(1, 2)
    assert list(exact["score"]) == [F(3, 16), F(9, 32), F(1, 4) + F(9, 32)]
    assert duel(stomp=1).fight.schedule(False)[-1] == (0, (Blow(0, "stomp"),))  # every round
    for shielded in (dict(enemy_height="large"), dict(enemy_cannot_be_stomped=True)):
        plain = duel(**shielded).exact(fractions=True)
        assert list(duel(stomp=1, **shielded).exact(fractions=True)["score"]) == list(plain["score"])
    # the enemy stomps back from its front rank, also in a later round
    assert duel(enemy_stomp="d3", rounds=2).fight.schedule(True)[-1] == (0, (Blow(1, "stomp"),))


def test_a_mount_strikes_at_its_own_agility():
    """Rider and mount, one attack each at step 4: the enemy dies with 1 - (3/4)² = 7/16, else it strikes back
    (1/4: it wins alone), else the charger wins by 1. A mount of Agility 1 strikes at step 2, after the enemy."""
    exact = duel(mount="A1 O3 S3 I3").exact(fractions=True)
    assert exact["win"][1] == F(7, 16) + F(9, 16) * F(3, 4) and 1 - exact["win"][1] == F(9, 16) * F(1, 4)
    slow = duel(mount="A1 O3 S3 I1")
    assert slow.fight.schedule(True) == [(4, (Blow(0, "melee", 0),)), (3, (Blow(1, "melee"),)),
                                         (2, (Blow(0, "melee", 1),))]
    first = F(1, 4) + F(3, 4) * F(3, 4) * F(1, 4)  # the rider kills, or the mount after the enemy missed
    assert slow.exact(fractions=True)["enemy_health_lost"][1] == first
    assert "mount A1 O3 S3 Agility 1" in slow.describe() and "--mount 'A1 O3 S3 I1'" in slow.query()


def test_a_harnessed_mount_makes_no_supporting_attacks():
    unit = Fighter(models=10, width=5, health=1, attacks=1, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7, mount=read_part("A2 O3 S4 I2 AP1 harnessed", "mount"))
    rider, mount = unit.parts
    assert unit.strikes(rider, 0, True) == 5 + 5 and unit.strikes(mount, 0, True) == 5 * 2
    assert unit.strikes(replace(mount, harnessed=False), 0, True) == 5 * 2 + 5
    assert unit.special is mount  # Impact Hits and Stomp Attacks at the mount's Strength and AP


@pytest.mark.parametrize("text", ["A1 O3 S3", "A1 O3 S3 I3 X2", "A0 O3 S3 I3", "A1 A2 O3 S3 I3", "A1 O3 S3 I11",
                                  "harness"])
def test_a_mount_profile_that_cannot_be_read_is_one_line(text):
    with pytest.raises(InputError) as caught:
        duel(enemy_mount=text)
    assert "enemy_mount" in str(caught.value) and "\n" not in str(caught.value) and "A1 O3 S3 I3" in str(
        caught.value)


def test_stubborn_and_unbreakable_break_tests():
    """The duel's loser (9/16 of the time it loses by 1): it breaks on 7 or more, Stubborn on 8 or more (no
    penalty), Unbreakable never."""
    assert duel(enemy_stubborn=True).exact(fractions=True)["break"][1] == F(9, 16) * F(15, 36)
    assert duel(enemy_unbreakable=True).exact(fractions=True)["break"][1] == 0
    assert duel(enemy_unbreakable=True).exact(fractions=True)["win"][1] == F(13, 16)


def test_line_formation_supports_from_the_third_rank_without_a_rank_bonus():
    """Ranks of 8 or more: Line Formation, Fight in Extra Rank; no Rank Bonus unless --line-bonus kept."""
    line = Fighter(models=24, width=8, health=1, attacks=1, offensive=3, defensive=3, strength=3, resilience=3,
                   agility=3, discipline=7)
    assert line.line_formation and line.strikes(line.parts[0], 0, True) == 8 + 16
    assert line.rank_bonus(0) == 0 and replace(line, line_bonus=LineBonus.KEPT).rank_bonus(0) == 2
    column = replace(line, width=7)
    assert not column.line_formation and column.strikes(column.parts[0], 0, True) == 7 + 7


def test_flank_models_matched_or_the_engaged_edge():
    """12 models 5 wide (3 ranks) charged by 5 in the flank: matched, 5 fight back; edge, one a rank: 3. In the
    rear, edge: its last rank's 2."""
    base = dict(enemy_models=12, enemy_width=5, models=5, width=5)
    assert duel(**base, flank=True).fight.facing(0, 0, 0) == 5
    assert duel(**base, flank=True, flank_models="edge").fight.facing(0, 0, 0) == 3
    assert duel(**base, rear=True, flank_models="edge").fight.facing(0, 0, 0) == 2
    assert duel(**base, rear=True, flank_models="edge").fight.facing(0, 0, 2) == 5  # 10 left: the last rank full
    assert duel(**base).fight.facing(0, 0, 0) is None
    assert "flank models edge" in duel(**base, flank=True, flank_models="edge").describe()


def test_hatred_re_rolls_failed_hits_in_the_first_round_only():
    """The duel with Hatred: the charger hits on 4+ re-rolled (3/4), wounds 4+: it kills first with 3/8, else the
    enemy kills (1/4: it wins alone), else it wins by 1. In a second round it has no Hatred; --reroll-hits failed
    re-rolls every round."""
    exact = duel(hatred=True).exact(fractions=True)
    assert exact["win"][1] == F(3, 8) + F(5, 8) * F(3, 4) and 1 - exact["win"][1] == F(5, 8) * F(1, 4)
    fight = duel(hatred=True, rounds=2).fight
    assert fight.in_round(True).charger.attributes == ("hatred",) and fight.in_round(False).charger.attributes == ()
    always = duel(reroll_hits="failed").fight
    assert always.in_round(False).charger.attributes == ("reroll-hits",)
    assert duel(reroll_hits="failed").exact(fractions=True)["win"][1] == exact["win"][1]
    assert "hatred" in duel(hatred=True).describe() and duel(hatred=True).query().endswith("--hatred")


def test_the_defence_of_each_side_acts_on_the_other_sides_attacks():
    """Parry: the charger's Offensive Skill 5 against Defensive Skill 3 hits on 3+; against a Parry, Defensive
    Skill max(3 + 1, 5) = 5: 4+. Fortitude 4+ saves half the wounds that pass."""
    plain, parried = duel(offensive=5).exact(fractions=True), duel(offensive=5, enemy_parry=True).exact(fractions=True)
    assert plain["enemy_health_lost"][1] == F(2, 3) * F(1, 2) and parried["enemy_health_lost"][1] == F(1, 4)
    assert duel(ignores_parry=True, offensive=5, enemy_parry=True).exact(fractions=True)["enemy_health_lost"][1] == \
        F(1, 3)
    assert duel(enemy_fortitude=4).exact(fractions=True)["enemy_health_lost"][1] == F(1, 8)
    assert list(duel(multiple_wounds="d3", enemy_health=2).exact(fractions=True)["enemy_health_lost"]) == [
        F(3, 4), F(1, 4) * F(1, 3), F(1, 4) * F(2, 3)]


@pytest.mark.parametrize("more, name, allowed", [
    (dict(enemy_reroll_special="failed"), "enemy_reroll_special", "--enemy-aegis X+ or --enemy-fortitude X+"),
    (dict(enemy_lethal_strike=True, enemy_auto_wound=True), "enemy_lethal_strike", "--enemy-auto-wound"),
    (dict(reroll_hits="successes"), "reroll_hits", "expected none, failed or ones"),
    (dict(enemy_multiple_wounds="2d10"), "enemy_multiple_wounds", "D6 and D3 only"),
])
def test_an_attack_t9a_melee_refuses_is_refused_naming_this_querys_option(more, name, allowed):
    with pytest.raises(InputError) as error:
        duel(**more)
    assert error.value.name == name and allowed in error.value.allowed


@pytest.mark.parametrize("name, good, bad, allowed", [
    ("aegis", (2, 6), (1, 7), "expected 2+ to 6+"), ("armour", (0, 6), (7, "x"), "Armour"),
])
def test_saves_out_of_bounds_are_refused_naming_the_side(name, good, bad, allowed):
    for prefix in ("", "enemy_"):
        for value in good:
            duel(**{prefix + name: value})
        for value in bad:
            with pytest.raises(InputError) as error:
                duel(**{prefix + name: value})
            assert error.value.name == prefix + name and allowed in str(error.value)


def test_a_steadfast_or_stubborn_loser_tests_on_its_discipline_alone():
    """15 charging models in 3 ranks that hardly hurt 5 elite (1 Full Rank, Unbreakable: every break is the
    charger's), who kill at most 5: when the charger loses, by any margin, it still has 2 Full Ranks or more
    (Steadfast) and breaks on 8 or more, 15/36 of the times it loses. Ten in one rank of 10 (no more Full Ranks
    than the enemy) break as often only when Stubborn."""
    weak = dict(models=15, width=5, offensive=1, strength=1, enemy_models=5, enemy_width=5, enemy_offensive=6,
                enemy_strength=6, enemy_defensive=10, enemy_resilience=10, enemy_unbreakable=True)
    for more in (dict(), dict(models=10, width=10, stubborn=True)):
        exact = duel(**{**weak, **more}).exact(fractions=True)
        lost = 1 - exact["win"][1] - exact["draw"][1]
        assert lost > F(1, 4) and exact["break"][1] == lost * F(15, 36)
    plain = duel(**{**weak, "models": 10, "width": 10}).exact(fractions=True)  # the margin counts
    assert plain["break"][1] > (1 - plain["win"][1] - plain["draw"][1]) * F(15, 36)


def test_reach_is_the_most_a_round_can_take():
    """15 attacks (5 × A2 in front, 5 supporting), each two hits with Battle Focus and d3 Multiple Wounds capped at
    2 Health Points: 60, at most what the enemy has; the exact answer reaches it."""
    attack = duel(models=10, width=5, attacks=2, battle_focus=True, multiple_wounds="d3", enemy_models=40,
                  enemy_health=2, enemy_width=5, offensive=10, strength=10)
    assert attack.fight.reach() == (15 * 2 * 2, 10)  # and 10 attacks back, at most all 10 of it
    assert duel(models=10, width=5, attacks=2, enemy_models=8, enemy_width=4).fight.reach() == (8, 4 + 4)
    small = duel(models=3, width=3, attacks=2, battle_focus=True, enemy_models=20, enemy_width=5)
    exact = small.exact()
    assert small.fight.reach()[0] == 3 * 2 * 2 == len(exact["enemy_health_lost"]) - 1


def test_a_mount_profile_is_read_in_any_order_with_its_ap():
    assert read_part("harnessed, AP2 Agi4 s5 O3 A2", "mount") == Part(attacks=2, offensive=3, strength=5, agility=4,
                                                                       ap=2, harnessed=True)
    assert read_part("A10 O10 S10 I10 AP10", "mount") == Part(10, 10, 10, 10, 10)
    assert str(read_part("A1 O3 S3 I0", "mount")) == "A1 O3 S3 I0"
    # the mount's AP is its attacks': Armour 2 (5+) saved against AP 0, not against AP 3
    plain, piercing = (duel(attacks=1, mount=f"A1 O3 S3 I1{ap}", enemy_armour=2).exact(fractions=True)
                       for ap in ("", " AP3"))
    assert piercing["enemy_health_lost"][1] > plain["enemy_health_lost"][1]
    with pytest.raises(InputError) as error:
        read_part("A1 O3 S3 I3 A2", "enemy_mount")
    assert error.value.value == "A1 O3 S3 I3 A2" and error.value.name == "enemy_mount"


@pytest.mark.parametrize("name, bad, good, what", [
    ("impact_hits", "21", "20", "Impact Hits"), ("stomp", "4d6", "3d6", "Stomp Attacks"),
    ("enemy_stomp", "0", "1", "Stomp Attacks"),
])
def test_automatic_hits_a_front_rank_cannot_make_are_refused(name, bad, good, what):
    """At most 200 hits from a front rank of 10, as t9a hits takes, and at least 1 each."""
    ten = dict(width=10, models=10, enemy_width=10, enemy_models=10)
    with pytest.raises(InputError) as error:
        duel(**{name: bad}, **ten)
    assert error.value.name == name and error.value.value == bad
    assert error.value.allowed.startswith(f"expected {what} that can reach 1 to 20 a model")
    assert "(10 in the front rank: 200 hits at most" in error.value.allowed
    duel(**{name: good}, **ten)


def test_the_query_passes_each_sides_options_to_its_unit():
    line = duel(models=16, width=8, reroll_armour="ones", enemy_reroll_special="failed", enemy_aegis=5)
    assert line.fight.charger.rank_bonus(0) == 0 and line.fight.charger.reroll_armour == "ones"
    assert duel(models=16, width=8, line_bonus="kept").fight.charger.rank_bonus(0) == 1
    assert line.fight.charged.reroll_special == "failed" and line.fight.charger.reroll_special == "none"


def test_a_lance_or_a_devastating_charge_counts_in_the_first_round_only():
    """Charging with +2 Strength (a Lance): the charger wounds on 2+ (5/6) in the first round, so it kills first
    with 1/2 · 5/6 = 5/12, else the enemy kills (1/4: it wins alone), else it wins by 1. In the second round no bonus."""
    exact = duel(charge_strength=2).exact(fractions=True)
    assert exact["win"][1] == F(5, 12) + F(7, 12) * F(3, 4) and 1 - exact["win"][1] == F(7, 12) * F(1, 4)
    fight = duel(charge_attacks=1, charge_strength=2, charge_ap=1, strength=9, rounds=2).fight
    first, later = fight.in_round(True).charger, fight.in_round(False).charger
    assert (first.attacks, first.strength, first.ap) == (2, 10, 1) and (later.attacks, later.strength) == (1, 9)
    assert fight.in_round(True).charged == fight.charged  # the charged unit is not charging
    assert "charging +1 Attack Value, charging +2 Strength" in duel(charge_attacks=1, charge_strength=2).describe()
    with pytest.raises(InputError) as error:
        duel(charge_ap=4)
    assert (error.value.name, error.value.allowed) == ("charge_ap", "expected 0 to 3")


def test_a_later_rounds_score_counts_that_rounds_losses_with_ranks_and_standards():
    """In the second round each side scores the Health Points the other lost in it (not before), its Rank Bonus
    and its Standard, no Charge: 15 models 5 wide with a standard, having lost 3 by then and 5 after, against 12 in
    4 ranks of 3 (Large: Full Ranks of 3), 2 lost before and 4 after."""
    fight = duel(models=15, width=5, standard=True, enemy_models=12, enemy_width=3, enemy_height="large").fight
    mine = (4 - 2) + 1 + 1  # Health Points it took this round; 10 left: 2 Full Ranks (+1); its Standard
    theirs = (5 - 3) + 1  # 8 left: 2 Full Ranks of 3 (the last 2 models are no Full Rank): +1
    assert fight.scores(5, 4, 3, 2, False) == (mine, theirs)
    assert fight.scores(5, 4, 3, 2, True) == (mine + 1, theirs)  # the Charge, in the first round


def test_a_spear_gives_one_more_ap_in_the_first_round_when_charged_in_front():
    spear = duel(enemy_spear=True, enemy_ap=1).fight
    assert spear.in_round(True).charged.ap == 2 and spear.in_round(False).charged.ap == 1
    assert duel(enemy_spear=True, enemy_ap=1, flank=True).fight.in_round(True).charged.ap == 1


def test_a_charging_mounts_momentum_is_a_switch():
    """A mount of Agility 3 strikes at step 4 with its charging rider (all), or at step 3 with the enemy (rider):
    then the enemy's 1/4 comes at once with the mount's blow, after the rider's."""
    both = duel(mount="A1 O3 S3 I3")
    rider = duel(mount="A1 O3 S3 I3", mount_momentum="rider")
    assert both.fight.schedule(True)[0] == (4, (Blow(0, "melee", 0), Blow(0, "melee", 1)))
    assert rider.fight.schedule(True) == [(4, (Blow(0, "melee", 0),)), (3, (Blow(0, "melee", 1), Blow(1, "melee")))]
    assert rider.fight.schedule(False) == both.fight.schedule(False)  # no one charges in a later round
    # rider: the rider kills first (1/4); else the mount and the enemy at once (1/4 each): the charger loses only
    # when the enemy kills and the mount does not (1 against the Charge's 1, the enemy alone; both killing is 2 to 1)
    exact = rider.exact(fractions=True)
    assert 1 - exact["win"][1] == F(3, 4) * F(3, 4) * F(1, 4)
    assert 1 - both.exact(fractions=True)["win"][1] == F(9, 16) * F(1, 4)  # the enemy strikes back after both
    assert "mount momentum rider" in rider.describe()


def test_the_charged_units_break_is_apart_from_the_chargers():
    """15 weak chargers that lose to 5 elite: P(break) counts the charger breaking too; enemy_break
    only the charged unit's, P(win and the loser breaks)."""
    weak = duel(models=15, width=5, offensive=1, strength=1, enemy_models=5, enemy_width=5, enemy_offensive=6,
                enemy_strength=6, enemy_defensive=10, enemy_resilience=10).exact(fractions=True)
    assert 0 < weak["enemy_break"][1] < weak["break"][1] and weak["enemy_caught"][1] < weak["enemy_break"][1]
    unbreakable = duel(models=15, width=5, offensive=1, strength=1, enemy_models=5, enemy_width=5, enemy_offensive=6,
                       enemy_strength=6, enemy_defensive=10, enemy_resilience=10, enemy_unbreakable=True)
    assert unbreakable.exact(fractions=True)["enemy_break"][1] == 0


@pytest.mark.parametrize("prefix", ["", "enemy_"])
def test_a_front_rank_wider_than_the_unit_or_two_weapons_are_refused(prefix):
    with pytest.raises(InputError) as error:
        duel(**{prefix + "models": 5, prefix + "width": 6})
    assert (error.value.name, error.value.value) == (prefix + "width", 6)
    assert error.value.allowed == (f"expected 1 to 5: a front rank no wider than the unit's 5 models "
                                   f"(--{prefix.replace('_', '-')}models 5)")
    duel(**{prefix + "models": 5, prefix + "width": 5})
    with pytest.raises(InputError) as error:
        duel(**{prefix + "great_weapon": True, prefix + "spear": True})
    dashes = prefix.replace("_", "-")
    assert error.value.name == prefix + "spear"
    assert error.value.allowed == f"a model fights with one weapon: --{dashes}great-weapon or --{dashes}spear"


IDLE = [  # (options, the option refused, what it needs): each changes nothing in the query given
    (dict(facing_bonus="flat"), "facing_bonus", "only applies with --flank, --rear, --with-unit or --enemy-with-unit"),
    (dict(flank_models="edge"), "flank_models", "only applies with --flank, --rear, --with-unit or --enemy-with-unit"),
    (dict(mount_momentum="rider"), "mount_momentum", "only applies with --mount"),
    (dict(high_agility="first"), "high_agility", "only applies when an Agility goes above 10"),
    (dict(high_agility="first", agility=9), "high_agility", "only applies when an Agility goes above 10"),  # 10
    (dict(line_bonus="kept", models=10, width=7), "line_bonus", "only applies to a unit in Line Formation"),
    (dict(last_rank="ignored", models=10, width=5), "last_rank", "only applies where an incomplete last rank"),
    (dict(hatred=True, reroll_hits="failed"), "hatred", "changes nothing with --reroll-hits failed"),
    (dict(enemy_hatred=True, enemy_reroll_hits="failed"), "enemy_hatred",
     "changes nothing with --enemy-reroll-hits failed"),
    (dict(stubborn=True, unbreakable=True), "stubborn", "changes nothing beside --unbreakable"),
    (dict(stomp=1, enemy_height="large"), "stomp", "reaches only an enemy of Standard Height"),
    (dict(enemy_stomp="d6", cannot_be_stomped=True), "enemy_stomp", "reaches only an enemy of Standard Height"),
    (dict(cannot_be_stomped=True), "cannot_be_stomped", "only applies against --enemy-stomp"),
    (dict(enemy_flammable=True), "enemy_flammable", "only applies against Flaming Attacks (--flaming)"),
    (dict(flaming=True), "flaming", "only applies against --enemy-fortitude or --enemy-flammable"),
    (dict(divine=True), "divine", "only applies against an Aegis save (--enemy-aegis)"),
    (dict(enemy_ignores_parry=True), "enemy_ignores_parry", "only applies against --parry"),
    (dict(parry=True, enemy_ignores_parry=True), "parry", "changes nothing against --enemy-ignores-parry"),
]


@pytest.mark.parametrize("options, name, needs", IDLE)
def test_an_option_that_changes_nothing_is_refused_or_noted_on_the_command_line(options, name, needs, capsys):
    """Each option off its default that changes nothing in the combat given. A setting of the query is refused in
    one line naming it (exit 2); a unit's trait (what its profile has: Cannot be Stomped where no one stomps) is
    answered, saying so in a note. The same combat built as a roster builds it is answered, and the query it
    writes leaves the option out."""
    from oddscalc.cli.main import main

    attack = duel(**options)
    assert list(attack.idle())[:1] == [name] and attack.idle()[name].startswith(needs)
    option = f"--{name.replace('_', '-')}"
    assert option not in attack.query()
    typed = shlex.split(attack.query())[1:] + [option] + ([] if options[name] is True else [str(options[name])])
    code = main(typed + ["--exact", "--format", "json"])
    out, err = capsys.readouterr()
    if name in Combat.TRAITS:
        assert code == 0 and any(line.startswith(option) and f" changes nothing here: it {needs}" in line
                                 for line in json.loads(out)["notes"])
        assert json.loads(out)["outcomes"]["win"]["mean"] == float(attack.exact()["win"][1])
    else:
        assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith(f"error: {option} ")
        assert needs in err


def test_the_settings_refused_and_the_traits_noted():
    """What a combat refuses when it changes nothing, against what it only notes: the unit's own traits."""
    refused = {name for _, name, _ in IDLE} - Combat.TRAITS
    assert refused == {"facing_bonus", "flank_models", "mount_momentum", "high_agility", "line_bonus", "last_rank",
                       "hatred", "enemy_hatred"}


@pytest.mark.parametrize("options", [
    dict(facing_bonus="flat", flank=True), dict(flank_models="edge", rear=True),
    dict(mount_momentum="rider", mount="A1 O3 S3 I3"), dict(high_agility="first", agility=10),
    dict(high_agility="first", enemy_agility=9, enemy_spear=True), dict(line_bonus="kept", models=16, width=8),
    dict(last_rank="ignored", models=12, width=6), dict(hatred=True, reroll_hits="ones"),
    dict(stomp=1), dict(enemy_stomp=1),
    dict(flaming=True, enemy_fortitude=5),
    dict(flaming=True, enemy_flammable=True), dict(divine=True, enemy_aegis=5), dict(parry=True),
])
def test_an_option_that_counts_is_not_idle(options):
    assert duel(**options).idle() == {}
    # Cannot be Stomped counts against a stomp: the stomp it stops is what changes nothing
    assert list(duel(cannot_be_stomped=True, enemy_stomp=1).idle()) == ["enemy_stomp"]


BREAKS = F(21, 36)  # 2D6 above 7 - 1: the duellist beaten by 1 breaks
PLAIN = F(1, 4)  # the duel's kill with one attack: 4+ to hit, 4+ to wound, no save


def duel_odds(p, q, enemy_first=False):
    """(P(win), P(break)) of the duel (one model a side, 1 Health Point) when the charger's attack kills with p and
    the enemy's with q: the first to strike kills and wins alone (No More Foes); both miss: the charger wins by 1
    (the Charge) and the enemy breaks on 7 or more."""
    both_miss = (1 - p) * (1 - q)
    return (1 - q if enemy_first else p + both_miss), both_miss * BREAKS


# each option of a side's attacks or defence, worked by hand through the duel: (options, p, q)
BY_HAND = [
    (dict(reroll_wounds="failed"), F(1, 2) * F(3, 4), PLAIN),
    (dict(enemy_reroll_wounds="failed"), PLAIN, F(1, 2) * F(3, 4)),
    (dict(poison=True), F(1, 6) + F(2, 6) * F(1, 2), PLAIN),  # a 6 wounds; a 4 or 5 wounds on 4+
    (dict(enemy_poison=True), PLAIN, F(1, 3)),
    (dict(battle_focus=True), F(2, 6) * F(1, 2) + F(1, 6) * F(3, 4), PLAIN),  # a 6: two hits, either wounds
    (dict(enemy_battle_focus=True), PLAIN, F(7, 24)),
    (dict(lethal_strike=True, enemy_armour=3), F(1, 2) * (F(2, 6) * F(1, 2) + F(1, 6)), PLAIN),  # a 6: no save
    (dict(enemy_armour=3), F(1, 2) * F(1, 2) * F(1, 2), PLAIN),
    (dict(toxic=True, enemy_armour=2), PLAIN, PLAIN),  # Strength 3, AP 10: no save
    (dict(enemy_armour=2), PLAIN * F(2, 3), PLAIN),
    (dict(enemy_toxic=True, armour=2), PLAIN, PLAIN),
    (dict(auto_wound=True), F(1, 2), PLAIN),
    (dict(fortitude=5), PLAIN, PLAIN * F(2, 3)),
    (dict(enemy_fortitude=5), PLAIN * F(2, 3), PLAIN),
    (dict(flammable=True, enemy_flaming=True), PLAIN, F(1, 2) * F(3, 4)),  # failed wounds re-rolled
    (dict(enemy_flaming=True, fortitude=5), PLAIN, PLAIN),  # no Fortitude against Flaming Attacks
    (dict(distracting=True), PLAIN, F(1, 3) * F(1, 2)),  # the enemy hits on 5+
    (dict(enemy_distracting=True), F(1, 3) * F(1, 2), PLAIN),
    (dict(enemy_reroll_armour="failed", enemy_armour=2), PLAIN * F(4, 9), PLAIN),  # 5+ re-rolled: saves 5/9
    (dict(enemy_divine=True, aegis=4), PLAIN, PLAIN * F(3, 4)),  # a saved Aegis re-rolled: saves 1/4
    (dict(aegis=4), PLAIN, PLAIN * F(1, 2)),
    (dict(enemy_lightning_reflexes=True), PLAIN, F(2, 3) * F(1, 2)),
    (dict(lightning_reflexes=True), F(2, 3) * F(1, 2), PLAIN),
]


@pytest.mark.parametrize("options, p, q", BY_HAND)
def test_each_sides_attack_options_worked_by_hand(options, p, q):
    """An option lost on its way from the query to its side would leave p and q as they were: each is checked
    against the figure worked by hand, through the whole combat."""
    exact = duel(**options).exact(fractions=True)
    win, broke = duel_odds(p, q)
    assert (exact["win"][1], exact["enemy_break"][1]) == (win, broke)
    assert exact["caught"][1] == broke * CAUGHT


def test_the_charged_units_great_weapon_swiftstride_and_extra_ranks_worked_by_hand():
    """Agility 5: the charged duellist strikes first (step 5 against 4); with a Great Weapon it strikes at step 0,
    after the charger. With Swiftstride its Flee is Maximised: caught with 247/648. An extra rank: its third rank
    supports too (15 models 5 wide: 5 front, 10 supporting)."""
    assert duel(enemy_agility=5).exact(fractions=True)["win"][1] == duel_odds(PLAIN, PLAIN, enemy_first=True)[0]
    assert duel(enemy_agility=5, enemy_great_weapon=True).exact(fractions=True)["win"][1] == duel_odds(PLAIN, PLAIN)[0]
    fleeing = duel(enemy_swiftstride=True).exact(fractions=True)
    assert fleeing["caught"][1] == duel_odds(PLAIN, PLAIN)[1] * F(247, 648)
    wide = dict(enemy_models=15, enemy_width=5)
    assert duel(**wide).fight.count(Blow(1, "melee"), 0, 0) == 5 + 5
    assert duel(**wide, enemy_extra_ranks=1).fight.count(Blow(1, "melee"), 0, 0) == 5 + 10


@pytest.mark.parametrize("name, high", [("charge_attacks", 2), ("charge_strength", 3), ("charge_ap", 3)])
def test_a_charges_bonus_is_refused_past_its_bound_saying_the_value(name, high):
    duel(**{name: high})  # the bound itself is answered
    with pytest.raises(InputError) as error:
        duel(**{name: high + 1})
    assert (error.value.name, error.value.value, error.value.allowed) == (name, high + 1, f"expected 0 to {high}")


@pytest.mark.parametrize("more, name, value, allowed", [
    (dict(rounds=11), "rounds", 11, "expected 1 to 10 rounds"),
    (dict(enemy_aegis=7), "enemy_aegis", 7, "expected 2+ to 6+"),
    (dict(reroll_hits="successes"), "reroll_hits", "successes", "expected none, failed or ones"),
    (dict(enemy_great_weapon=True, enemy_spear=True), "enemy_spear", "on",
     "a model fights with one weapon: --enemy-great-weapon or --enemy-spear"),
])
def test_a_combats_refusal_names_the_option_its_value_and_what_is_allowed(more, name, value, allowed):
    with pytest.raises(InputError) as error:
        duel(**more)
    assert (error.value.name, error.value.value, error.value.allowed) == (name, value, allowed)


def test_the_charge_bonus_of_a_charger_wiped_out_is_an_open_reading():
    """Agility 3 + 1 against 4: both strike at step 4, and both die with 1/4 · 1/4. Then the scores decide (No More
    Foes needs one left standing): 1 Health Point each, and the Charge +1 makes the charger's 2 with --charge-bonus
    side (the default: it charged); with models (no Charging model stands) it is 1 all, a draw. Else as before."""
    side = duel(enemy_agility=4).exact(fractions=True)
    models = duel(enemy_agility=4, charge_bonus="models").exact(fractions=True)
    both_die = F(1, 4) * F(1, 4)
    assert side["draw"][1] == 0 and models["draw"][1] == both_die
    assert side["win"][1] - models["win"][1] == both_die
    assert [side[name] for name in ("break", "health_lost")] == [models[name] for name in ("break", "health_lost")]
    alone, plain = duel(charge_bonus="models").exact(fractions=True), duel().exact(fractions=True)
    assert [alone[name] for name in EVENTS] == [plain[name] for name in EVENTS]  # never both at once: No More Foes
    # but the charger killed first scores its Health Point only: 0 against 1 (3/16), no longer 1 all
    assert list(alone["score"]) == [0, F(3, 16) + F(9, 16), F(1, 4)] and list(plain["score"])[0] == F(3, 16)
    assert "charge bonus models" in duel(charge_bonus="models").describe()


def test_a_fight_goes_on_round_after_round_and_says_how_many_were_fought():
    """The duel: round 1 ends unless the enemy held (9/16 · 15/36); round 2 (both at step 3, no Charge) ends
    unless both miss (9/16: 0 all, a draw, fought on). --rounds end is 10 rounds."""
    held = F(9, 16) * F(15, 36)
    assert list(duel().exact(fractions=True)["rounds"]) == [0, 1]
    assert list(duel(rounds=2).exact(fractions=True)["rounds"]) == [0, 1 - held, held]
    assert list(duel(rounds=3).exact(fractions=True)["rounds"]) == [0, 1 - held, held * F(7, 16), held * F(9, 16)]
    end = duel(rounds="end")
    assert end.rounds == 10 and end.exact(fractions=True) == duel(rounds=10).exact(fractions=True)
    # a draw: both die at once in a later round (1/16: 1 all, no Charge), or still 0 all after the tenth
    draw = held * sum(F(9, 16) ** (k - 2) * F(1, 16) for k in range(2, 11)) + held * F(9, 16) ** 9
    assert end.exact(fractions=True)["draw"][1] == draw
    with pytest.raises(InputError, match="rounds 11"):
        duel(rounds=11)
