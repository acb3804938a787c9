"""Epic engagements (docs/rules.md §2.9): both sides' attacks, the result roll's modifiers, more
rounds on a tie, the loser's extra hits, fearless and broken formations; figures worked by hand."""

from __future__ import annotations

import json
import shlex
from fractions import Fraction as F

import numpy as np
import pytest

from oddscalc.epic.assault import Assault
from oddscalc.epic.engagement import Side
from oddscalc.epic.rounds import modifiers, result_gaps
from oddscalc.epic.saves import Ability
from oddscalc.errors import InputError

# P(2D6 = s) = (6 − |s − 7|)/36; P(highest of 2D6 = k) = (2k − 1)/36
TIE_2D6 = sum(F(6 - abs(s - 7), 36) ** 2 for s in range(2, 13))  # 146/1296
WIN_2D6 = (1 - TIE_2D6) / 2  # 575/1296


def one_on_one(**more):
    """One unit a side, CC 4+, no save, no firefight: each kills the other with 1/2."""
    base = dict(units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_cc=4, enemy_ff=None, enemy_armour=None)
    return Assault(**{**base, **more})


def exact(attack, name):
    return list(attack.exact(fractions=True)[name])


def test_one_unit_against_one_worked_by_hand():
    """Both die (1/4): the attack stalled, the defender wins; only the enemy dies (1/4): a win without a roll;
    only ours (1/4): a loss; neither (1/4): the result roll, +1 each for no blast markers: a 2D6 tie is a draw
    after one round; the roll's loser takes its margin in extra hits, and has one unit to lose."""
    attack = one_on_one(rounds=1)
    assert exact(attack, "win") == [1 - (F(1, 4) + F(1, 4) * WIN_2D6), F(1, 4) + F(1, 4) * WIN_2D6]
    assert exact(attack, "draw")[1] == F(1, 4) * TIE_2D6 == F(73, 2592)
    assert exact(attack, "kills")[1] == F(1, 2) + F(1, 4) * WIN_2D6 == exact(attack, "destroyed")[1]
    assert exact(attack, "losses")[1] == F(1, 2) + F(1, 4) * WIN_2D6


def test_a_tie_fights_another_round_with_the_units_left():
    """Still tied after two rounds: both rounds without a kill, both rolls tied."""
    assert exact(one_on_one(rounds=2), "draw")[1] == (F(1, 4) * TIE_2D6) ** 2
    assert exact(one_on_one(rounds=3), "draw")[1] == (F(1, 4) * TIE_2D6) ** 3


def test_the_result_modifiers_of_the_marines_and_the_orks():
    """6 Marines and 8 Orks, 2 kills each: 4 Marines count +2 kills and +1 no blast markers (+3); 6 Orks +2 kills,
    +1 outnumbering, +1 no blast markers (+4); 6 is not more than twice 4."""
    marines = Side.of(units=6, cc=4, ff=3, in_contact=6, armour=4)
    orks = Side.of(units=8, cc=4, ff=6, in_contact=8, armour=6)
    assert modifiers(marines, orks, 2, 4, 6) == 3
    assert modifiers(orks, marines, 2, 6, 4) == 4
    assert modifiers(orks, marines, 0, 9, 4) == 3  # more than twice as many: +2, and +1 no blast markers
    assert modifiers(orks, marines, 0, 8, 4) == 2  # twice, not more
    shaken = Side.of(units=6, cc=4, ff=3, in_contact=6, armour=4, blast_markers=2)
    assert modifiers(shaken, orks, 0, 6, 6) == 0 and modifiers(orks, shaken, 0, 6, 6) == 2  # no markers, fewer
    broken = Side.of(units=5, cc=4, ff=4, in_contact=5, armour=5, broken=True)  # a marker per unit left
    assert modifiers(shaken, broken, 0, 6, 5) == 2 and modifiers(broken, shaken, 0, 5, 6) == 0


def test_one_behind_by_one_wins_a_2d6_roll_by_two_or_more():
    gaps = dict(result_gaps(False))
    assert sum(p for gap, p in gaps.items() if gap >= 2) == F(435, 1296)  # summed 2D6: win, one behind
    assert gaps[1] == F(140, 1296)  # a tie
    highest = dict(result_gaps(True))
    assert sum(p for gap, p in highest.items() if gap >= 2) == F(290, 1296)
    assert highest[1] == F(215, 1296)


def test_units_out_of_contact_fight_by_firefight():
    """One unit in contact (CC 6+), one apart (FF 2+) against one unit with no attack: P(no hit) = 5/6 · 1/6."""
    attack = Assault(units=2, cc=6, ff=2, armour=None, in_contact=1, enemy_units=1, enemy_cc=None, enemy_ff=None,
                     enemy_armour=None, rounds=1)
    wiped = 1 - F(5, 6) * F(1, 6)  # a hit kills it: a win without a roll
    roll = F(5, 36) * sum(p for gap, p in result_gaps(False) if gap + 2 - 1 > 0)  # 2 units to 1: +1; both +1
    assert exact(attack, "win")[1] == wiped + roll == exact(attack, "kills")[1]  # a won roll's extra hits kill it


def test_supporting_fire_adds_its_dice_and_counts_no_units():
    """No unit of the assault can hurt; 2 supporting dice at 4+ kill the lone defender with 3/4 (a win without
    a roll); outnumbering counts the formation's own 1 unit against 1."""
    attack = Assault(units=1, cc=None, ff=None, armour=None, support=2, support_ff=4, enemy_units=1, enemy_cc=None,
                     enemy_ff=None, enemy_armour=None, rounds=1)
    assert exact(attack, "win")[1] == F(3, 4) + F(1, 4) * WIN_2D6
    assert exact(attack, "draw")[1] == F(1, 4) * TIE_2D6


def test_a_fearless_loser_takes_no_extra_hits_and_a_broken_one_is_destroyed():
    """No unit can hurt another: only the result roll decides; a margin of 1 would kill 1 of 3 units."""
    base = dict(units=3, cc=None, ff=None, armour=None, enemy_units=3, enemy_cc=None, enemy_ff=None,
                enemy_armour=None, rounds=1)
    plain, fearless, broken = Assault(**base), Assault(**base, enemy_fearless=True), Assault(**base, enemy_broken=True)
    assert exact(fearless, "kills") == [1]  # nothing kills a fearless enemy
    assert exact(plain, "kills")[0] == 1 - WIN_2D6 and exact(plain, "kills")[3] > 0
    # broken: it counts 3 markers (we, with none, +1 no markers, +1 fewer markers: +2 against 0)
    win = sum(p for gap, p in result_gaps(False) if gap + 2 > 0)
    assert exact(broken, "win")[1] == win
    assert exact(broken, "destroyed")[1] == win and exact(broken, "kills")[3] == win  # all 3 gone


def test_the_sampler_plays_the_same_engagement_as_the_exact_answer():
    """A small engagement, sampled: every outcome's mean within 5 standard errors of the exact one."""
    import numpy as np

    from oddscalc.core import engine

    attack = Assault(units=4, cc=4, ff=5, armour=5, in_contact=3, enemy_units=5, enemy_cc=5, enemy_ff=5,
                     enemy_armour=6, rounds=3)
    sampled = engine.run(attack, trials=200_000, seed=7)
    pmfs = attack.exact()
    for name in attack.outcomes:
        mean = float(np.dot(np.arange(len(pmfs[name])), pmfs[name]))
        assert abs(sampled[name].mean - mean) <= 5 * sampled[name].mean_stderr + 1e-12, name


def test_the_engagement_in_words():
    attack = Assault(units=6, cc=4, ff=3, armour=4, in_contact=4, blast_markers=1, enemy_units=8, enemy_cc=4,
                     enemy_ff=6, enemy_armour=6, enemy_cover_save=5, enemy_broken=True, support=2, support_ff=4)
    assert attack.describe() == (
        "Epic assault: (6 units (4 in contact), CC 4+, FF 3+, armour 4+, 1 blast marker, 2 supporting at FF 4+) "
        "against (8 units, CC 4+, FF 6+, armour 6+, cover save 5+, broken)")
    assert attack.outcomes == ("win", "draw", "kills", "losses", "margin", "destroyed", "blast_markers",
                               "enemy_blast_markers")
    assert Assault().outcomes == ("win", "draw", "margin")


@pytest.mark.parametrize("make, name", [
    (lambda: Assault(cc=4), "cc"),  # an engagement's option without --units
    (lambda: Assault(units=2, cc=4, ff=4, armour=4), "enemy_units"),
    (lambda: Assault(units=2, ff=4, armour=4, enemy_units=2, enemy_cc=4, enemy_ff=4, enemy_armour=4), "cc"),
    (lambda: Assault(units=2, cc=7, ff=4, armour=4, enemy_units=2, enemy_cc=4, enemy_ff=4, enemy_armour=4), "cc"),
    (lambda: Assault(units=61, cc=4, ff=4, armour=4, enemy_units=2, enemy_cc=4, enemy_ff=4, enemy_armour=4),
     "units"),
    (lambda: Assault(units=2, cc=4, ff=4, armour=4, in_contact=3, enemy_units=2, enemy_cc=4, enemy_ff=4,
                     enemy_armour=4), "in_contact"),
    (lambda: Assault(units=2, cc=4, ff=4, armour=4, support=2, enemy_units=2, enemy_cc=4, enemy_ff=4,
                     enemy_armour=4), "support"),
    (lambda: Assault(units=2, cc=4, ff=4, armour=4, enemy_units=2, enemy_cc=4, enemy_ff=4, enemy_armour=4,
                     enemy_support_ff=4), "enemy_support_ff"),
    (lambda: Assault(units=2, cc=4, ff=4, armour=4, enemy_units=2, enemy_cc=4, enemy_ff=4, enemy_armour=4,
                     rounds=6), "rounds"),
])
def test_an_engagement_refuses_by_name(make, name):
    with pytest.raises(InputError) as error:
        make()
    assert error.value.name == name


BOTH = ("epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ {mine} --enemy-units 8 --enemy-cc 4+ --enemy-ff 6+ "
        "--enemy-armour 6+ {theirs} --exact")


@pytest.mark.parametrize("mine, theirs, line", [
    ("", "", None),  # answered
    ("--in-contact 0", "--enemy-in-contact 8", None),  # the bounds themselves: answered
    ("--armour 9+", "", "error: --armour 9+: expected 2+ to 6+, or none"),
    ("--support 2 --support-ff 7+", "", "error: --support-ff 7+: expected 2+ to 6+"),
    ("--in-contact 7", "", "error: --in-contact 7: expected 0 to 6 (of the 6 units)"),
    ("", "--enemy-in-contact 9", "error: --enemy-in-contact 9: expected 0 to 8 (of the 8 units)"),
    ("", "--enemy-cover-save 7+", "error: --enemy-cover-save 7+: expected a cover save from 2+ to 6+"),
    ("--extra-attacks 4", "", "error: --extra-attacks 4: expected 0 to 3"),
    ("--blast-markers 101", "", "error: --blast-markers 101: expected 0 to 100 blast markers already on the "
                                "formation"),
    ("--support 61 --support-ff 4+", "", "error: --support 61: expected 0 to 60"),
    ("--support 2", "", "error: --support 2: needs --support-ff X+ (their firefight value)"),
    ("", "--enemy-support-ff 4+", "error: --enemy-support-ff 4+: only applies with --enemy-support S"),
    ("", "--enemy-support 3", "error: --enemy-support 3: needs --enemy-support-ff X+ (their firefight value)"),
    ("--rounds 6", "", "error: --rounds 6: expected 1 to 5 rounds"),
    ("", "--enemy-broken --enemy-blast-markers 2", "error: --enemy-blast-markers 2: a broken formation counts one "
                                                    "blast marker per unit (--enemy-broken): give no other"),
    ("--extra-at cc", "", "error: --extra-at cc: only applies with --extra-attacks E"),
    ("", "--enemy-extra-at ff", "error: --enemy-extra-at ff: only applies with --enemy-extra-attacks E"),
])
def test_an_engagement_s_options_in_one_line(capsys, mine, theirs, line):
    from clirun import run

    result = run(capsys, *BOTH.format(mine=mine, theirs=theirs).split())
    if line is None:
        assert result.code == 0 and "P(win)" in result.out
    else:
        assert (result.code, result.out, result.err.strip()) == (2, "", line)


@pytest.mark.parametrize("units, line", [(60, None), (61, "error: --units 61: expected 1 to 60 units")])
def test_an_engagement_of_sixty_units_is_the_most(capsys, units, line):
    from clirun import run

    result = run(capsys, "epic", "assault", "--units", str(units), "--cc", "4+", "--ff", "none", "--armour", "none",
                 "--enemy-units", "1", "--enemy-cc", "none", "--enemy-ff", "none", "--enemy-armour", "none",
                 "--rounds", "1", "--exact")
    assert (result.err.strip() or None) == line


@pytest.mark.parametrize("field", ["cc", "ff", "armour"])
def test_a_side_s_missing_value_is_asked_for(capsys, field):
    from clirun import run

    words = BOTH.format(mine="", theirs="").split()
    at = words.index(f"--{field}")
    result = run(capsys, *words[:at], *words[at + 2:])
    assert result.err.strip() == f"error: --{field}: is required with --units and --enemy-units: 2+ to 6+, or none"


def test_every_switch_of_a_side_is_said():
    attack = Assault(units=3, cc=None, ff=2, armour=None, reinforced=False, invulnerable=True, fearless=True,
                     extra_attacks=1, bonus=2, rounds=2, enemy_units=2, enemy_cc=6, enemy_ff=None, enemy_armour=3,
                     enemy_reinforced=True, keep_highest=True)
    assert attack.describe() == (
        "Epic assault: (3 units, CC none, FF 2+, armour none, invulnerable, fearless, +1 A, result +2) against "
        "(2 units, CC 6+, FF none, armour 3+, reinforced), at most 2 rounds, each side's highest die kept")


def test_a_side_s_dice_lose_those_that_failed_or_those_in_contact_first():
    """5 units, 2 in contact (CC 3+), the rest by FF 5+. The unit that fails its save is removed (failed-save, the
    default): its state is (lost in contact, lost apart). In contact first: after 1 loss 1 in contact; after 3,
    none (2 by FF)."""
    side = Side.of(units=5, cc=3, ff=5, in_contact=2, armour=4)
    dice = lambda side, code: [(count, check.need) for count, check in side.dice(code)]  # noqa: E731
    assert dice(side, 0) == [(2, 3), (3, 5)]
    code = lambda lost_in_contact, lost_apart: int(side.code(np.array([[lost_in_contact, lost_apart]]))[0])  # noqa
    assert dice(side, code(1, 0)) == [(1, 3), (3, 5)] and dice(side, code(0, 1)) == [(2, 3), (2, 5)]
    assert dice(side, code(2, 1)) == [(2, 5)]
    first = Side.of(units=5, cc=3, ff=5, in_contact=2, armour=4, removal="in-contact-first")
    assert dice(first, 0) == [(2, 3), (3, 5)] and dice(first, 1) == [(1, 3), (3, 5)] and dice(first, 3) == [(2, 5)]


def test_two_hits_on_one_unit_in_contact_and_one_apart_by_each_reading():
    """Two units, one in contact (CC 3+), one apart (FF 5+), armour 4+, take 2 hits: one each (front to back), each
    saved with 1/2. The unit that fails is removed: the one in contact alone (1/4: the FF die is left) or the one
    apart alone (1/4: the CC die); in contact first, one loss (1/2) is always the one in contact."""
    def next_dice(removal):
        side = Side.of(units=2, cc=3, ff=5, in_contact=1, armour=4, removal=removal)
        after = side._after(0, 2, (Ability.NORMAL, None), F)
        found = {}
        for code in np.flatnonzero(after != 0):
            key = tuple((count, check.need) for count, check in side.dice(int(code)))
            found[key] = found.get(key, 0) + after[code]
        return found

    assert next_dice("failed-save") == {((1, 3), (1, 5)): F(1, 4), ((1, 5),): F(1, 4), ((1, 3),): F(1, 4), (): F(1, 4)}
    assert next_dice("in-contact-first") == {((1, 3), (1, 5)): F(1, 4), ((1, 5),): F(1, 2), (): F(1, 4)}


def test_the_casualties_reading_is_a_switch_that_counts_only_where_a_kind_is_split(capsys):
    from clirun import run

    words = shlex.split(BOTH.format(mine="--in-contact 3 --rounds 2", theirs="--enemy-in-contact 5"))
    first = run(capsys, *words, "--casualties", "in-contact-first", "--format", "json")
    failed = run(capsys, *words, "--format", "json")
    assert first.code == failed.code == 0
    assert json.loads(first.out)["outcomes"]["win"]["mean"] != json.loads(failed.out)["outcomes"]["win"]["mean"]
    pair = dict(units=2, cc=4, ff=5, armour=None, in_contact=1, enemy_units=1, enemy_cc=4, enemy_ff=None,
                enemy_armour=None)
    split = Assault(**pair, casualties="in-contact-first")
    assert split.describe().endswith("losses in contact first") and split.idle() == {}
    whole = run(capsys, *shlex.split(BOTH.format(mine="", theirs="")), "--casualties", "in-contact-first")
    assert whole.code == 2 and whole.err.strip() == (
        "error: --casualties in-contact-first: only applies when some units of a kind are in base contact and some "
        "are not (--in-contact K, or in-contact K in --other)")


def test_a_result_bonus_is_added_to_its_own_side():
    """No unit can hurt another: the roll alone decides, this side +1 more (no markers +1 each)."""
    base = dict(units=3, cc=None, ff=None, armour=None, enemy_units=3, enemy_cc=None, enemy_ff=None,
                enemy_armour=None, rounds=1)
    gaps = result_gaps(False)
    assert exact(Assault(**base, bonus=1), "win")[1] == sum(p for gap, p in gaps if gap + 1 > 0)
    assert exact(Assault(**base, enemy_bonus=2), "win")[1] == sum(p for gap, p in gaps if gap - 2 > 0)


def test_a_loser_that_was_not_broken_loses_as_many_units_as_the_margin():
    base = dict(units=3, cc=None, ff=None, armour=None, enemy_units=3, enemy_cc=None, enemy_ff=None,
                enemy_armour=None, rounds=1)
    gaps = dict(result_gaps(False))
    kills = exact(Assault(**base), "kills")
    assert kills[1] == gaps[1] and kills[2] == gaps[2] and kills[3] == sum(p for gap, p in gaps.items() if gap >= 3)


@pytest.mark.parametrize("words, line", [
    ("epic assault --cc none", "error: --cc none: only applies with --units N and --enemy-units N (an engagement of "
                               "both sides)"),
    ("epic assault --units 3 --cc 4+ --ff 4+ --armour 4+", "error: --enemy-units: is required with --units: the "
                                                            "defending formation's units, 1 to 60"),
    (BOTH.format(mine="--cc 7+", theirs=""), "error: --cc 7+: expected 2+ to 6+, or none"),
    (BOTH.format(mine="", theirs="--enemy-ff 1+"), "error: --enemy-ff 1+: expected 2+ to 6+, or none"),
    (BOTH.format(mine="--bonus 21", theirs=""), "error: --bonus 21: expected a whole number from -20 to 20"),
    (BOTH.format(mine="--bonus 20 --extra-attacks 3 --rounds 5", theirs=""), None),  # the bounds: answered
    ("epic assault --units 2 --cc none --ff none --armour 4+ --enemy-units 3 --enemy-cc none --enemy-ff none "
     "--enemy-armour 5+", "error: --cc none: neither side rolls an attack (no CC or FF value its units fight with, "
                          "no supporting fire): give one a value, or leave out --units and --enemy-units for the "
                          "result roll alone"),
    ("epic assault --units 2 --cc 4+ --ff none --in-contact 0 --armour 4+ --enemy-units 3 --enemy-cc none "
     "--enemy-ff 4+ --enemy-armour 5+", "error: --cc 4+: neither side rolls an attack (no CC or FF value its units "
                                        "fight with, no supporting fire): give one a value, or leave out --units "
                                        "and --enemy-units for the result roll alone"),
    ("epic assault --units 2 --cc none --ff none --armour 4+ --enemy-units 3 --enemy-cc none --enemy-ff none "
     "--enemy-armour 5+ --support 1 --support-ff 5+", None),  # supporting fire is an attack
    (BOTH.format(mine="--extra-attacks 1 --extra-ability titan-killer --tk-damage 2d10", theirs=""),
     "error: --tk-damage 2d10: expected a titan killer's damage in D6s and D3s, like 2, d3, d6 or d3+1 (at most 3 "
     "dice, at most 20 points; Epic rolls no other dice)"),
    (BOTH.format(mine="", theirs="--enemy-extra-attacks 1 --enemy-extra-ability titan-killer --enemy-tk-damage d8"),
     "error: --enemy-tk-damage 1d8: expected a titan killer's damage in D6s and D3s, like 2, d3, d6 or d3+1 (at "
     "most 3 dice, at most 20 points; Epic rolls no other dice)"),
    (BOTH.format(mine="--other '1 cc 4+ ff 4+ armour 4+ extra-attacks 1 extra-ability titan-killer tk-damage 2d10'",
                 theirs=""), "error: --other 1 cc 4+ ff 4+ armour 4+ extra-attacks 1 extra-ability titan-killer "
                             "tk-damage 2d10: tk-damage: expected a titan killer's damage in D6s and D3s, like 2, d3, "
                             "d6 or d3+1 (at most 3 dice, at most 20 points; Epic rolls no other dice)"),
    (BOTH.format(mine="--extra-attacks 1 --extra-ability titan-killer --tk-damage d3+1", theirs=""), None),
])
def test_more_refusals_of_an_assault_in_one_line(capsys, words, line):
    from clirun import run

    result = run(capsys, *shlex.split(words))
    assert (result.err.strip() or None) == line and result.code == (2 if line else 0)


def test_first_strike_kills_before_the_enemy_attacks():
    """One unit a side, CC 4+, no save, one round. Ours first: a hit (1/2) wins before the enemy rolls; else
    the enemy kills ours with 1/2 (a stall), else the roll. Theirs first: ours dies first with 1/2, else ours
    kills with 1/2, else the roll; both sides first: at once, as without it."""
    ours = one_on_one(rounds=1, first_strike=True)
    assert exact(ours, "win")[1] == F(1, 2) + F(1, 4) * WIN_2D6
    assert exact(ours, "losses")[1] == F(1, 4) + F(1, 4) * WIN_2D6  # killed only when ours missed
    theirs = one_on_one(rounds=1, enemy_first_strike=True)
    assert exact(theirs, "kills")[1] == F(1, 4) + F(1, 4) * WIN_2D6
    assert exact(theirs, "losses")[1] == F(1, 2) + F(1, 4) * WIN_2D6
    both = one_on_one(rounds=1, first_strike=True, enemy_first_strike=True)
    assert exact(both, "win") == exact(one_on_one(rounds=1), "win")
    assert "first strike" in ours.describe()


def test_the_assaulting_formation_s_blast_markers_after_the_assault():
    """Two units a side, no attacks, one blast marker on ours: the enemy +2 (no markers, fewer markers). Won or
    drawn: ours keeps its 1 and loses none; lost by 1: broken with its 1 unit left (1 marker), by 2 or more: 0."""
    attack = Assault(units=2, cc=None, ff=None, armour=None, blast_markers=1, enemy_units=2, enemy_cc=None,
                     enemy_ff=None, enemy_armour=None, rounds=1)
    gaps = dict(result_gaps(False))
    ahead = {gap - 2: p for gap, p in gaps.items()}
    assert exact(attack, "blast_markers") == [sum(p for gap, p in ahead.items() if gap <= -2),
                                              sum(p for gap, p in ahead.items() if gap >= -1)]


@pytest.mark.parametrize("extra_at, dice", [
    ("own", [(4, 3), (6, 5)]),  # 2 in contact at CC 3+ and their extra attack; 3 apart at FF 5+ and theirs
    ("cc", [(4, 3), (3, 5)]),  # an assault weapon's: only the units in contact make them
    ("ff", [(2, 3), (6, 5)]),  # small arms': only the units out of contact
])
def test_extra_attacks_roll_against_the_value_the_switch_says(extra_at, dice):
    from oddscalc.epic.kinds import ExtraAt

    side = Side.of(units=5, cc=3, ff=5, in_contact=2, armour=4, extra_attacks=1, extra_at=ExtraAt(extra_at))
    assert [(count, check.need) for count, check in side.dice(0)] == dice
    assault = Assault(units=5, cc=3, ff=5, in_contact=2, armour=4, extra_attacks=1, extra_at=extra_at,
                      enemy_units=1, enemy_cc=None, enemy_ff=None, enemy_armour=None, rounds=1)
    hits = 1 - F(1, 3) ** dice[0][0] * F(2, 3) ** dice[1][0]  # the lone enemy dies at any hit
    assert exact(assault, "destroyed")[1] >= hits and exact(assault, "win")[1] >= hits
    assert exact(assault, "win")[1] == hits + (1 - hits) * sum(p for gap, p in result_gaps(False) if gap + 2 > 0)


@pytest.mark.parametrize("words, seconds", [
    ("--units 60 --cc 4+ --ff 4+ --armour 5+ --enemy-units 60 --enemy-cc 4+ --enemy-ff 4+ --enemy-armour 5+ --exact "
     "--rounds 5", 5),
    ("--units 30 --cc 4+ --ff 4+ --armour 5+ --enemy-units 30 --enemy-cc 4+ --enemy-ff 4+ --enemy-armour 5+ --exact "
     "--fractions", 11),
])
def test_an_exact_engagement_too_long_to_wait_for_is_refused_at_once(capsys, words, seconds):
    """Each round after the first goes from every pair of states through every pair: 60 against 60 in five
    rounds would take about 5 s, 30 against 30 in fractions about 11 s."""
    from clirun import run

    result = run(capsys, "epic", "assault", *words.split())
    assert result.code == 2 and result.out == ""
    assert result.err.strip().startswith("error: --exact Epic assault: (") and \
        f"the exact answer would take about {seconds} s; sample instead (leave out --exact" in result.err


def test_the_exact_estimate_lets_a_company_against_a_company_through():
    from oddscalc.epic.rounds import exact_seconds

    company = Side.of(units=20, cc=4, ff=4, in_contact=20, armour=5)
    assert exact_seconds(company, company, 3, rational=False) < 2 < exact_seconds(company, company, 5, rational=True)


def gap_over(x):
    """P(our 2D6 - theirs > x)."""
    return sum(p for gap, p in result_gaps(False) if gap > x)


def odds(p, q):
    """(P(win), P(the enemy's unit destroyed)) of one round, one unit a side with no save: ours kills with p, theirs
    with q, at once. Both die: a stall, the defender wins; one alone: it wins without a roll; neither: the roll, +1
    each for no blast markers, and the loser's margin in extra hits destroys its one unit."""
    neither = (1 - p) * (1 - q)
    return p * (1 - q) + neither * WIN_2D6, p + neither * WIN_2D6


# each option of a side's attacks and saves, through the query, worked by hand: (options, p, q)
BY_HAND = [
    (dict(), F(1, 2), F(1, 2)),
    (dict(extra_attacks=1), 1 - F(1, 2) ** 2, F(1, 2)),
    (dict(enemy_extra_attacks=1), F(1, 2), 1 - F(1, 2) ** 2),
    # armour 4+ reinforced: a hit fails both saves with 1/4; a macro-weapon's allows the save without its re-roll
    (dict(enemy_armour=4, enemy_reinforced=True, extra_attacks=1), 1 - (1 - F(1, 8)) ** 2, F(1, 2)),
    (dict(enemy_armour=4, enemy_reinforced=True, extra_attacks=1, extra_ability="macro"),
     1 - (1 - F(1, 8)) * (1 - F(1, 4)), F(1, 2)),
    # armour 4+ and an invulnerable 6+: a hit kills with 1/2 · 5/12; a titan killer's allows only the 6+
    (dict(enemy_armour=4, enemy_invulnerable=True), F(1, 2) * F(1, 2) * F(5, 6), F(1, 2)),
    (dict(enemy_armour=4, enemy_invulnerable=True, extra_attacks=1, extra_ability="titan-killer"),
     1 - (1 - F(5, 24)) * (1 - F(5, 12)), F(1, 2)),
    (dict(armour=4, invulnerable=True, enemy_extra_attacks=1, enemy_extra_ability="titan-killer"), F(1, 2),
     1 - (1 - F(5, 24)) * (1 - F(5, 12))),
    (dict(armour=4, reinforced=True, enemy_extra_attacks=1, enemy_extra_ability="macro"), F(1, 2),
     1 - (1 - F(1, 8)) * (1 - F(1, 4))),
]


@pytest.mark.parametrize("options, p, q", BY_HAND)
def test_each_sides_attack_and_save_options_worked_by_hand(options, p, q):
    """An option lost between the query and its side would leave p or q as they were."""
    exact = one_on_one(rounds=1, **options).exact(fractions=True)
    win, destroyed = odds(p, q)
    assert (exact["win"][1], exact["destroyed"][1]) == (win, destroyed)


def test_the_defenders_war_engine_dice_at_cc_and_other_kinds_worked_by_hand():
    """Ours: one unit, no attack, no save. Theirs: a war engine of DC2 (CC 4+, no FF) rolls 2 dice at CC (kills
    ours with 3/4), or 1 with --enemy-cc-dice 1 (1/2). Ours standing, the roll: the war engine counts as 2 units
    (+1 to it), both +1 for no blast markers: ours loses on a 2D6 gap of 0 or less and its one unit goes."""
    base = dict(units=1, cc=None, ff=None, armour=None, enemy_units=1, enemy_damage_capacity=2, enemy_cc=4,
                enemy_ff=None, enemy_armour=None, rounds=1)
    lose_roll = 1 - gap_over(0)
    for options, q in ((dict(), F(3, 4)), (dict(enemy_cc_dice=1), F(1, 2))):
        assert Assault(**base, **options).exact(fractions=True)["losses"][1] == q + (1 - q) * lose_roll
    # another kind behind the enemy's: a second unit CC 4+ (ours dies with 3/4); our hit (1/2) kills its first
    # unit: 1 kill (+1) and 1 unit each, else it has 2 to our 1 (+1 to it)
    other = one_on_one(rounds=1, enemy_other=("1 cc 4+ ff none armour none",)).exact(fractions=True)
    assert other["win"][1] == F(1, 4) * (F(1, 2) * gap_over(-1) + F(1, 2) * gap_over(1))


def test_the_enemys_they_shall_know_no_fear_worked_by_hand():
    """Two units a side, no attacks, one blast marker on theirs. Ours +1 (no markers) and +1 (fewer): the enemy's
    units go with its margin. With They Shall Know No Fear its marker halves to none (ours loses the +1 for fewer,
    it is still not 'none' for the enemy) and it takes half the margin, rounded down."""
    base = dict(units=2, cc=None, ff=None, armour=None, enemy_units=2, enemy_cc=None, enemy_ff=None,
                enemy_armour=None, enemy_blast_markers=1, rounds=1)
    plain = Assault(**base).exact(fractions=True)
    fearless = Assault(**base, enemy_know_no_fear=True).exact(fractions=True)
    assert (plain["win"][1], plain["kills"][0]) == (gap_over(-2), 1 - gap_over(-2))
    assert (fearless["win"][1], fearless["kills"][0]) == (gap_over(-1), 1 - gap_over(0))
