"""An engagement's sides kind by kind (docs/rules.md §2.9; rulebook 1.12.5, 1.12.7, 3.3): where hits fall in a
formation of several kinds, war engines in assaults, the loser's extra hits past fearless units; worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from oddscalc.epic.assault import Assault
from oddscalc.epic.rounds import result_gaps
from oddscalc.epic.engagement import Side, spread
from oddscalc.epic.kinds import NORMAL, ExtraAt, Kind
from oddscalc.epic.war_engines import Critical
from oddscalc.errors import InputError


def after(side: Side, hits: int, extra: bool = False) -> dict[tuple[int, ...], F]:
    """The side's piece states after `hits` from its first state, as {states: chance}."""
    pmf = side._after(0, hits, None if extra else NORMAL, F)
    return {tuple(int(k) for k in side.states[code]): p for code, p in enumerate(pmf) if p}


def p_gap(test) -> F:
    """P(test(my 2D6 − the enemy's 2D6))."""
    return sum((p for gap, p in result_gaps(False) if test(gap)), F(0))


def test_hits_go_round_blocks_front_to_back():
    """Hit j on slot j mod S: a unit one slot, a war engine its damage capacity (3.2.1)."""
    assert spread(5, [2, 3]) == [2, 3] and spread(7, [2, 3]) == [4, 3] and spread(1, [2, 3]) == [1, 0]
    assert spread(6, [1, 3]) == [2, 4]  # a unit, then a war engine of DC3: 1 + 3 a round
    assert spread(4, [0, 0]) == [0, 0]
    hits = np.arange(40)  # arrays: the blocks' rounds; one block of slots (the rest empty) takes every hit
    assert [list(block) for block in spread(hits, [3, 0])] == [list(hits), [0] * 40]
    assert [list(block) for block in spread(hits, [0, 3])] == [[0] * 40, list(hits)]
    assert [list(block) for block in spread(hits, [2, 3])] == [[2 * (h // 5) + min(h % 5, 2) for h in hits],
                                                               [3 * (h // 5) + max(h % 5 - 2, 0) for h in hits]]


def test_the_units_in_base_contact_take_the_first_hits_whatever_their_kind():
    """Two kinds: 2 units apart (armour 6+) given first, 1 in contact (no save) second. The first hit falls on the
    unit in contact; the second and third on the units apart, each saved on a 6."""
    side = Side((Kind(2, 4, 4, 6, in_contact=0), Kind(1, 4, 4, None)))
    assert after(side, 1) == {(0, 1): 1}
    assert after(side, 2) == {(0, 1): F(1, 6), (1, 1): F(5, 6)}
    assert after(side, 3) == {(0, 1): F(1, 36), (1, 1): F(10, 36), (2, 1): F(25, 36)}
    # the fourth hit is the unit in contact's second: dead already, nothing changes
    assert after(side, 4) == after(side, 3)


def test_a_war_engine_takes_its_damage_capacity_in_hits_each_round():
    """A unit in contact (no save) and a war engine of DC2 in contact behind it (armour 4+): hits 2 and 3 go to
    the war engine, hit 4 to the unit again; each failed save is a point of damage."""
    side = Side((Kind(1, 4, 4, None), Kind(1, 4, 4, 4, capacity=2)))
    assert after(side, 1) == {(1, 0): 1}
    assert after(side, 3) == {(1, 0): F(1, 4), (1, 1): F(1, 2), (1, 2): F(1, 4)}
    assert after(side, 4) == after(side, 3)
    assert side.units == 3 and side.most == 3  # the war engine counts as 2 units, its 2 points as 2 kills


def test_extra_hits_pass_over_the_fearless():
    """A fearless kind in contact and another kind: the loser's 2 extra hits, unsaved, both fall on the other."""
    side = Side((Kind(2, 4, 4, 3, fearless=True), Kind(3, 4, 4, 3)))
    assert after(side, 2, extra=True) == {(0, 2): 1}
    assert after(side, 9, extra=True) == {(0, 3): 1}
    assert after(side, 2) != {(0, 2): 1}  # the attacks' hits fall on the fearless too, and are saved


def test_a_war_engine_s_extra_hits_are_points_of_damage_with_critical_hits():
    """DC3, critical damage: 1 extra hit is a point, and on a 6 one more, which rolls again."""
    side = Side((Kind(1, 4, 4, 4, capacity=3, critical=Critical.DAMAGE),))
    assert after(side, 1, extra=True) == {(1,): F(5, 6), (2,): F(5, 36), (3,): F(1, 36)}


def test_a_war_engine_rolls_its_damage_capacity_in_dice():
    """3.3.2: as many dice as its damage capacity, at CC in base contact; --cc-dice splits them; extra attacks on
    top (at CC in contact, FF apart; small arms' at FF even in contact)."""
    def dice(**kind):
        side = Side((Kind(1, 3, 5, 4, capacity=4, **kind),))
        return sorted((count, check.need) for count, check in side.dice(0))

    assert dice() == [(4, 3)]
    assert dice(in_contact=0) == [(4, 5)]
    assert dice(cc_dice=1, extra_attacks=2) == [(3, 3), (3, 5)]
    assert dice(extra_attacks=1, extra_at=ExtraAt.FF) == [(1, 5), (4, 3)]
    assert Side((Kind(1, 3, 5, 4, capacity=4),)).dice(4) == ()  # destroyed: no dice


def test_an_assault_on_a_war_engine_worked_by_hand():
    """One unit (CC 4+) charges a DC2 war engine that has no attack and no save, one round. Half the time the
    unit's hit does a point (a kill: +1). The war engine counts as 2 units (3.3.3): +1 for outnumbering. So the
    unit is level (hit) or behind by 1 (miss) before the dice; winning by m does m points of damage, and 2 points
    destroy it."""
    attack = Assault(units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_damage_capacity=2, enemy_cc=None,
                     enemy_ff=None, enemy_armour=None, rounds=1)
    exact = attack.exact(fractions=True)
    win = F(1, 2) * p_gap(lambda g: g > 0) + F(1, 2) * p_gap(lambda g: g > 1)
    assert exact["win"][1] == win == F(1, 2) * F(575, 1296) + F(1, 2) * F(435, 1296) == F(505, 1296)  # rules §2.9
    # a hit: destroyed when winning by 1 or more (its last point); a miss: by 2 or more (margin = gap − 1)
    assert exact["destroyed"][1] == F(1, 2) * p_gap(lambda g: g >= 1) + F(1, 2) * p_gap(lambda g: g - 1 >= 2)
    assert exact["kills"][0] == F(1, 2) * (1 - p_gap(lambda g: g > 1))


def test_a_critical_hit_that_destroys_wins_without_a_roll():
    """As above with critical destroyed: a point of damage destroys it on a 6, and the assault is won outright."""
    attack = Assault(units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_damage_capacity=2, enemy_cc=None,
                     enemy_ff=None, enemy_armour=None, enemy_critical="destroyed", rounds=1)
    exact = attack.exact(fractions=True)
    rolled = F(1, 2) * F(5, 6) * p_gap(lambda g: g > 0) + F(1, 2) * p_gap(lambda g: g > 1)
    assert exact["win"][1] == F(1, 12) + rolled
    assert exact["margin"][0] >= F(1, 12)  # a win without a roll has no margin


def test_a_formation_s_other_kinds_count_for_outnumbering():
    """2 units of two kinds, neither attacking, against 1: +1 for more units; both +1 for no blast markers."""
    attack = Assault(units=1, cc=None, ff=None, armour=None, other=(Kind.parse("1 cc none ff none armour none"),),
                     enemy_units=1, enemy_cc=None, enemy_ff=None, enemy_armour=None, rounds=1)
    assert attack.exact(fractions=True)["win"][1] == p_gap(lambda g: g + 1 > 0)


def test_the_rhinos_stay_out_of_the_fight_but_count():
    """6 Tactical (CC 4+, armour 4+) and 2 Rhinos out of contact with no attack against 8 Ork Boyz: the same
    engagement as the Tactical alone, but for outnumbering and the Rhinos' share of the hits."""
    alone = Assault(units=6, cc=4, ff=3, armour=4, enemy_units=8, enemy_cc=4, enemy_ff=6, enemy_armour=6, rounds=1)
    rhinos = Assault(units=6, cc=4, ff=3, armour=4, other=(Kind.parse("2 cc none ff none armour 5+ in-contact 0"),),
                     enemy_units=8, enemy_cc=4, enemy_ff=6, enemy_armour=6, rounds=1)
    a, b = alone.exact(), rhinos.exact()
    assert b["win"][1] > a["win"][1]  # more units left: outnumbering is easier, and hits 7 and 8 fall on Rhinos
    assert rhinos.side("").units == 8 and rhinos.side("").dice(0) == alone.side("").dice(0)


@pytest.mark.parametrize("words, line", [
    ("--other '2 cc 9+ ff 5+ armour 5+'", "error: --other 2 cc 9+ ff 5+ armour 5+: expected cc 2+ to 6+, or none"),
    ("--cc-dice 2", "error: --cc-dice 2: only applies with --damage-capacity DC"),
    ("--critical damage", "error: --critical damage: only applies with --damage-capacity DC"),
    ("--damage-capacity 21", "error: --damage-capacity 21: expected 1 to 20"),
    ("--extra-ability macro", "error: --extra-ability macro: only applies with --extra-attacks E (2.2.6: a "
                              "macro-weapon or titan killer attacks in an assault with its extra attacks only)"),
    ("--extra-attacks 1 --extra-ability lance", "error: --extra-ability lance: expected normal, macro or "
                                                "titan-killer"),
    ("--extra-attacks 1 --tk-damage d3", "error: --tk-damage 1d3: only applies with --extra-ability titan-killer"),
    ("--enemy-extra-attacks 1 --enemy-extra-ability titan-killer --enemy-tk-damage lots",
     "error: --enemy-tk-damage lots: expected"),
    ("--other '2 cc 6+ ff 5+ armour 5+ extra-ability macro'", "error: --other 2 cc 6+ ff 5+ armour 5+ extra-ability "
     "macro: extra-ability only applies with extra-attacks E (2.2.6: a macro-weapon or titan killer attacks in an "
     "assault with its extra attacks only)"),
    ("--damage-capacity 3 --cc-dice 4", "error: --cc-dice 4: expected 0 to 3 (the war engine's dice: its damage "
                                        "capacity)"),
    ("--damage-capacity 3 --units 9", "error: --units 9: expected 1 to 8 war engines (with --damage-capacity)"),
    ("--other '1 cc 4+ ff 4+ armour 4+' " * 8, "error: --other 1 cc 4+ ff 4+ armour 4+; 1 cc 4+ ff 4+ armour 4+; "
     "1 cc 4+ ff 4+ armour 4+; 1 cc 4+ ff 4+ armour 4+; 1 cc 4+ ff 4+ armour 4+; 1 cc 4+ ff 4+ armour 4+; 1 cc 4+ "
     "ff 4+ armour 4+; 1 cc 4+ ff 4+ armour 4+: expected at most 8 kinds and war engines on a side (there are 9)"),
])
def test_an_engagement_s_kinds_refused_in_one_line(capsys, words, line):
    import shlex

    from clirun import run

    result = run(capsys, *shlex.split("epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ --enemy-units 8 "
                                      f"--enemy-cc 4+ --enemy-ff 6+ --enemy-armour 6+ {words}"))
    assert (result.code, result.out) == (2, "") and result.err.strip().startswith(line)
    assert len(result.err.strip().splitlines()) == 1


def test_the_done_when_question_answered(capsys):
    """The issue's question: 6 Tactical and 2 Rhinos assault 12 Ork Boyz with 3 blast markers: P(win), P(draw),
    both sides' kills, as the engine's exact answer."""
    import json
    import shlex

    from clirun import run

    rhinos = "2 cc 6+ ff 6+ armour 5+ in-contact 0"
    result = run(capsys, *shlex.split(
        f"epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ --other '{rhinos}' --enemy-units 12 --enemy-cc 4+ "
        "--enemy-ff 6+ --enemy-armour 6+ --enemy-blast-markers 3 --exact --format json"))
    answer = json.loads(result.out)
    exact = Assault(units=6, cc=4, ff=3, armour=4, other=(Kind.parse(rhinos),), enemy_units=12, enemy_cc=4,
                    enemy_ff=6, enemy_armour=6, enemy_blast_markers=3).exact()
    assert result.code == 0 and f"and {rhinos}" in answer["description"]
    for name in ("win", "draw", "kills", "losses", "destroyed"):
        assert answer["outcomes"][name]["mean"] == pytest.approx(sum(k * p for k, p in enumerate(exact[name])),
                                                                 abs=1e-12)


def test_extra_attacks_of_a_macro_weapon_or_titan_killer_are_rolled_after_the_others():
    """2.2.6: in an assault a macro-weapon (or titan killer) attacks with its extra attacks only; their hits are
    allocated after the normal ones: a strike of their own, after the normal one."""
    from oddscalc.epic.saves import Ability

    side = Side.of(units=2, cc=4, ff=5, armour=4, in_contact=1, extra_attacks=1, extra_ability=Ability.MACRO)
    assert [(strike, sorted((n, check.need) for n, check in pools)) for strike, pools in side.attacks(0)] == [
        (NORMAL, [(1, 4), (1, 5)]), ((Ability.MACRO, None), [(1, 4), (1, 5)])]


def test_a_macro_weapon_s_hit_allows_only_reinforced_armour_without_its_re_roll():
    """One unit of armour 3+ hit on a 2+ (5/6): by a macro-weapon it dies with 5/6 (no save); with reinforced
    armour 5/6 · 1/3 (the save, no re-roll); a normal hit on reinforced armour 5/6 · 1/3 · 1/3 (re-rolled)."""
    from oddscalc.core.dice import Check, Natural
    from oddscalc.epic.saves import Ability

    two_up = ((1, Check(2, Natural.EPIC)),)
    for reinforced, strike, dead in ((False, (Ability.MACRO, None), F(5, 6)), (True, (Ability.MACRO, None), F(5, 18)),
                                     (True, NORMAL, F(5, 54))):
        side = Side.of(units=1, cc=None, ff=None, armour=3, reinforced=reinforced)
        assert side.attacked(0, ((strike, two_up),), F)[1] == dead


def test_a_titan_killer_s_hit_on_a_war_engine_does_its_d_value():
    """A titan killer's hit (D3, no armour save) on a DC3 war engine: 1, 2 or 3 points with 1/3 each."""
    from oddscalc.core.dice import Check, Natural
    from oddscalc.epic.saves import Ability

    side = Side((Kind(1, 4, 4, 4, capacity=3),))
    assert list(side.attacked(0, (((Ability.TITAN_KILLER, "d3"), ((1, Check(2, Natural.EPIC)),)),), F)) == [
        F(1, 6), F(5, 18), F(5, 18), F(5, 18)]


def test_an_inspiring_unit_left_adds_one_to_its_side_s_result():
    """One unit a side, CC 4+, no save, one round: ours Inspiring (2.1.5). Only the roll's quarter changes: ours +2
    (no blast markers, inspiring) against +1, so a tie of the dice wins too."""
    attack = Assault(units=1, cc=4, ff=None, armour=None, inspiring=True, enemy_units=1, enemy_cc=4, enemy_ff=None,
                     enemy_armour=None, rounds=1)
    assert attack.exact(fractions=True)["win"][1] == F(1, 4) + F(1, 4) * p_gap(lambda g: g + 1 > 0)
    assert "inspiring" in attack.describe()


def test_they_shall_know_no_fear():
    """Half the blast markers count (3 count 1: fewer than the enemy's 2), one is still not none, and half the
    extra hits (rounded down)."""
    from oddscalc.epic.rounds import modifiers

    marines = Side.of(units=2, cc=4, ff=4, armour=4, blast_markers=3, know_no_fear=True)
    enemy = Side.of(units=2, cc=4, ff=4, armour=4, blast_markers=2)
    assert modifiers(marines, enemy, 0, 2, 2) == 1 and modifiers(enemy, marines, 0, 2, 2) == 0
    one = Side.of(units=2, cc=4, ff=4, armour=4, blast_markers=1, know_no_fear=True)
    clean = Side.of(units=2, cc=4, ff=4, armour=4)
    assert modifiers(one, clean, 0, 2, 2) == 0 and modifiers(clean, one, 0, 2, 2) == 1
    rows, codes, chances = one.extra(np.array([0, 0]), np.array([3, 1]), F)
    assert rows.tolist() == [0, 1] and [one.casualties[c] for c in codes] == [1, 0] and chances.tolist() == [1, 1]


def test_the_defending_formation_s_blast_markers_after_the_assault():
    """Two units a side, no attacks, one blast marker on theirs: ours +2 (no markers, fewer). Held (won or
    drawn): it keeps its 1; lost by 1: broken with 1 unit left (1 marker); by 2 or more: none left."""
    attack = Assault(units=2, cc=None, ff=None, armour=None, enemy_units=2, enemy_cc=None, enemy_ff=None,
                     enemy_armour=None, enemy_blast_markers=1, rounds=1)
    exact = attack.exact(fractions=True)
    assert list(exact["enemy_blast_markers"]) == [p_gap(lambda g: g + 2 >= 2), p_gap(lambda g: g + 2 <= 1)]


def test_a_side_of_one_kind_takes_the_side_s_fields_and_the_kind_s():
    side = Side.of(units=3, cc=4, ff=5, armour=6, in_contact=1, blast_markers=2, support=2, support_ff=4, bonus=1,
                   first_strike=True, know_no_fear=True, fearless=True, extra_attacks=1)
    assert (side.blast_markers, side.support, side.support_ff, side.bonus, side.first_strike, side.know_no_fear) == (
        2, 2, 4, 1, True, True)
    assert side.kinds == (Kind(3, 4, 5, 6, 1, fearless=True, extra_attacks=1),)


def test_blast_markers_the_result_compares():
    """They Shall Know No Fear: 4 count 2, 5 count 2 (rounded down); a broken formation one per unit left, and a
    broken formation with a unit left has markers: no +1 for none."""
    from oddscalc.epic.rounds import modifiers

    def side(**more):
        return Side.of(units=3, cc=4, ff=4, armour=4, **more)

    assert side(blast_markers=4, know_no_fear=True).markers(3) == 2 == side(blast_markers=5, know_no_fear=True).markers(3)
    broken = side(broken=True)
    assert broken.markers(2) == 2 and not broken.unmarked(1) and broken.unmarked(0)
    assert modifiers(broken, side(), 0, 1, 1) == 0  # one unit left: one marker, and the enemy has none


def test_a_broken_loser_is_destroyed_but_its_fearless_units():
    """1.12.8 and 2.1.3: a formation broken before the assault that loses is destroyed, except its fearless units."""
    side = Side((Kind(2, 4, 4, 4, fearless=True), Kind(3, 4, 4, 4)), broken=True)
    rows, codes, chances = side.extra(np.array([0]), np.array([1]), F)
    assert rows.tolist() == [0] and [tuple(int(k) for k in side.states[c]) for c in codes] == [(0, 3)]
    assert list(chances) == [1]
    sampled = side.extra_sample(np.random.default_rng(1), np.array([0, 0]), np.array([1, 5]))
    assert [tuple(int(k) for k in side.states[c]) for c in sampled] == [(0, 3), (0, 3)]


def test_the_enemy_s_inspiring_units_count_for_it():
    """As the Inspiring test above, the other way round: the enemy's +1 makes a tie of the dice its win."""
    attack = Assault(units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_cc=4, enemy_ff=None,
                     enemy_armour=None, enemy_inspiring=True, rounds=1)
    assert attack.exact(fractions=True)["win"][1] == F(1, 4) + F(1, 4) * p_gap(lambda g: g - 1 > 0)


def test_a_broken_defender_that_holds_stays_broken():
    """Two units a side, no attacks, the defender broken (a marker per unit: 2 against none): ours +2 (no
    markers, fewer). The defender that holds (wins or draws) keeps one marker per unit left: 2."""
    attack = Assault(units=2, cc=None, ff=None, armour=None, enemy_units=2, enemy_cc=None, enemy_ff=None,
                     enemy_armour=None, enemy_broken=True, rounds=1)
    exact = attack.exact(fractions=True)
    # held: ours + 2 <= theirs; lost: destroyed (broken before the assault), no markers left
    assert list(exact["enemy_blast_markers"]) == [p_gap(lambda g: g + 2 > 0), 0, p_gap(lambda g: g + 2 <= 0)]


def test_a_damaged_war_engine_counts_its_starting_capacity_or_what_it_has_left():
    """--engines-count remaining (the other side of 3.3.3's open reading): the DC2 war engine hit once counts 1,
    level with the unit; missed, it still counts 2. P(win) = 1/2 · P(ahead by 0 or more) + 1/2 · P(by 2 or more)."""
    from oddscalc.epic.assault import EnginesCount

    attack = Assault(units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_damage_capacity=2, enemy_cc=None,
                     enemy_ff=None, enemy_armour=None, rounds=1, engines_count=EnginesCount.REMAINING)
    assert attack.exact(fractions=True)["win"][1] == F(1, 2) * p_gap(lambda g: g >= 0) + F(1, 2) * p_gap(lambda g: g > 1)
    assert attack.describe().endswith(", a damaged war engine counts what it has left")
    with pytest.raises(InputError) as error:
        Assault(units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_cc=4, enemy_ff=None, enemy_armour=None,
                engines_count=EnginesCount.REMAINING)
    assert error.value.name == "engines_count" and "only applies with war engines" in error.value.allowed


def test_a_side_of_too_many_combinations_of_losses_is_refused_in_one_line(capsys):
    """Every combination of a side's losses is a row of its arrays: more than a million is refused, not tried."""
    import shlex

    from clirun import run

    many = " ".join(["--other '60 cc 4+ ff 4+ armour 4+'"] * 3)
    result = run(capsys, *shlex.split(f"epic assault --units 6 --cc 4+ --ff 3+ --armour 4+ {many} --enemy-units 8 "
                                      "--enemy-cc 4+ --enemy-ff 6+ --enemy-armour 6+"))
    assert (result.code, result.out) == (2, "") and len(result.err.strip().splitlines()) == 1
    assert "expected at most 1,000,000 combinations of losses on a side (--units 6 and these kinds make " \
           "1,588,867)" in result.err


def test_the_worked_pmfs_kept_stay_within_their_budget_and_change_no_answer(monkeypatch):
    """Every side's memo together holds at most MEMO_BYTES of arrays (a server answers assault after assault):
    past it the oldest sides' pmfs go, then the side's own, and the answer is the same to the last digit."""
    from oddscalc.epic import engagement
    from oddscalc.epic.assault import Assault

    def fights():  # made afresh after each forget(): an assault keeps the sides (and memos) it was made with
        return [Assault(units=units, cc=4, ff=5, armour=4, enemy_units=8, enemy_cc=5, enemy_ff=4, enemy_armour=5,
                        rounds=3) for units in (4, 6, 8)]
    engagement.forget()
    free = [fight.exact(fractions=True) for fight in fights()]
    unbounded = engagement._HELD[0]
    assert unbounded == sum(memo[engagement.SIZE] for memo in engagement._MEMOS.values()) > 0
    monkeypatch.setattr(engagement, "MEMO_BYTES", unbounded // 10)
    engagement.forget()
    tight = [fight.exact(fractions=True) for fight in fights()]
    held = sum(memo[engagement.SIZE] for memo in engagement._MEMOS.values())
    assert tight == free and held == engagement._HELD[0] <= unbounded // 10
    engagement.forget()
