"""Several units of the charger's in one 9th Age combat (`--with-unit`; docs/rules.md §3.11, Several units): the
side's combat score, Steadfast against every unit, each losing unit's Break Test, the pursuit by any pursuer;
figures worked by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from clirun import assert_refused, run
from oddscalc.errors import InputError
from oddscalc.t9a.allies import WithUnit, read_ally
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight import Blow
from oddscalc.t9a.fight_exact import _caught_tables

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7)
FLANKER = "models 10 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7"


def enemy(**fields):
    return {f"enemy_{name}": value for name, value in fields.items()}


def combat(*allies: str, **more) -> Combat:
    """Five models 5 wide charge the front of 15 (5 wide, 3 Full Ranks); `allies` join the charge."""
    values = dict(models=5, width=5, **PLAIN, **enemy(models=15, width=5, **PLAIN), with_unit=allies)
    return Combat(**{**values, **more})


def command_words() -> list[str]:
    """`combat()` without allies as the command line writes it."""
    words = ["t9a", "combat"]
    for prefix, models in (("", 5), ("enemy-", 15)):
        for key, value in dict(models=models, width=5, **PLAIN).items():
            words += [f"--{prefix}{key}", str(value)]
    return words


def test_a_unit_profile_reads_and_writes_back():
    ally = read_ally(FLANKER + " health 2 armour 5+ standard swiftstride charge-strength 1 facing rear")
    unit = ally.fighter
    assert (unit.models, unit.width, unit.health, unit.armour, unit.charge, ally.facing) == (10, 5, 2, 2, (0, 1, 0),
                                                                                             "rear")
    assert unit.standard and unit.swiftstride
    assert read_ally(str(ally)) == ally and isinstance(ally, WithUnit)


@pytest.mark.parametrize("text, says", [
    (FLANKER, "facing"),
    (FLANKER + " facing side", "expected facing flank, rear or front"),
    (FLANKER.replace("width 5", "width 11") + " facing flank", "expected width 1 to 10"),
    (FLANKER.replace("models 10", "models 3") + " facing flank", "no wider than its models"),
    (FLANKER + " facing flank lance", "expected a unit like"),
])
def test_a_bad_unit_profile_is_one_line_naming_the_option(text, says):
    with pytest.raises(InputError) as refused:
        read_ally(text)
    assert refused.value.name == "with_unit" and says in refused.value.allowed


def test_each_side_has_one_rear_and_two_flanks():
    flank, rear = FLANKER + " facing flank", FLANKER + " facing rear"
    combat(flank, flank).check()  # both flanks
    for allies, more in (((rear, rear), {}), ((flank, flank), {"flank": True}), ((flank, flank, rear), {})):
        with pytest.raises(InputError) as refused:
            combat(*allies, **more).check()
        assert refused.value.name == "with_unit"


def test_a_flanker_adds_its_flank_bonus_and_disrupts_steadfast():
    """The front charger has 1 Full Rank, the charged unit 3: Steadfast alone; a flanker with 2 Full Ranks
    disrupts its ranks."""
    alone, flanked = combat().fight, combat(FLANKER + " facing flank").fight
    ours, theirs = alone.steadfast(0, 0)
    assert (bool(ours[0]), bool(theirs[0])) == (False, True) and len(theirs) == 1
    ours, theirs = flanked.steadfast(0, 0)
    assert [bool(one) for one in ours] == [False, False] and not theirs[0]
    # the side's highest Rank Bonus (the flanker's 2 Full Ranks: +1; the front unit's 1: none), the Flank +1,
    # and +1 more as the flanker has 2 Full Ranks (ranked): +3
    assert flanked.scores(0, 0, 0, 0, False)[0] - alone.scores(0, 0, 0, 0, False)[0] == 1 + 1 + 1
    flat = combat(FLANKER + " facing flank", facing_bonus="flat").fight
    assert flat.scores(0, 0, 0, 0, False)[0] - alone.scores(0, 0, 0, 0, False)[0] == 1 + 1
    rear = combat(FLANKER + " facing rear").fight
    assert rear.scores(0, 0, 0, 0, False)[0] - alone.scores(0, 0, 0, 0, False)[0] == 1 + 2 + 1
    shallow = combat(FLANKER.replace("models 10", "models 5") + " facing flank").fight  # 1 Full Rank: +1 alone
    assert shallow.scores(0, 0, 0, 0, False)[0] - alone.scores(0, 0, 0, 0, False)[0] == 1
    assert shallow.steadfast(0, 0)[1][0]  # and no disruption: still Steadfast


def test_the_charged_unit_fights_each_charger_with_the_models_facing_it():
    """Front: its front rank and its second rank's supports (5 + 5); the flanker (matched: its own front of 5),
    no supports; the flanker strikes with its front and second ranks."""
    fight = combat(FLANKER + " facing flank").fight
    assert fight.count(Blow(1, "melee", 0, 0), 0, 0) == 10
    assert fight.count(Blow(1, "melee", 0, 1), 0, 0) == 5
    assert fight.count(Blow(0, "melee", 0, 1), 0, 0) == 10
    gone = fight.line.join([(0, 5), (0, 0)])  # the front charger wiped out
    assert fight.count(Blow(1, "melee", 0, 0), gone, 0) == 0 and fight.target(Blow(1, "melee", 0, 0), gone, 0) is None
    assert fight.count(Blow(0, "melee", 0, 1), gone, 0) == 10


def test_a_broken_unit_is_caught_by_any_pursuer():
    """Two plain pursuers (2D6 each) against a plain 2D6 flee: caught when either roll is as high, counted
    over every roll."""
    table = _caught_tables(combat(FLANKER + " facing flank").fight, F)[1][0]  # the charged unit, fleeing
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    both = F(sum(max(p, q) >= f for f in rolls for p in rolls for q in rolls), 36 ** 3)
    one = F(sum(p >= f for f in rolls for p in rolls), 36 ** 2)
    assert table[0b11, 0] == both and table[0b01, 0] == table[0b10, 0] == one == F(721, 1296)
    assert table[0b00, 0] == 0


def test_each_losing_unit_tests_and_the_first_broken_is_pursued():
    """Two units of the charger's lose: each tests apart; `break` is that a losing unit broke, `caught` that the
    pursued one was caught. With both Unbreakable only the charged unit can break; with only the flanker
    Unbreakable, the main unit breaks (one round: the fight ends) and is caught with 721/1296."""
    strong = dict(**enemy(models=15, width=5, attacks=3, offensive=6, defensive=6, strength=5, resilience=4,
                          agility=5, discipline=9))
    both = combat(FLANKER + " facing flank unbreakable", unbreakable=True, **strong).exact(fractions=True)
    assert both["break"][1] == both["enemy_break"][1] and both["caught"][1] == both["enemy_caught"][1]
    assert both["win"][0] > F(1, 2)
    one = combat(FLANKER + " facing flank unbreakable", **strong).exact(fractions=True)
    ours = one["break"][1] - one["enemy_break"][1]  # one of the charger's units broke: the main one
    assert ours > 0  # (the main unit, 5 models at Agility 4, is mostly wiped out first: no test)
    assert one["caught"][1] - one["enemy_caught"][1] == ours * F(721, 1296)


def test_the_command_line_takes_several_units(capsys):
    words = command_words()
    flank = FLANKER + " facing flank"
    result = run(capsys, *words, "--with-unit", flank, "--exact", "--format", "json")
    assert result.code == 0, result.err
    answer = result.json()
    assert f"with ({flank})" in answer["description"]
    assert answer["outcomes"]["win"]["probability"] == pytest.approx(combat(flank).exact()["win"][1], abs=1e-12)
    assert_refused(capsys, *words, "--with-unit", FLANKER + " facing side", mentions=("--with-unit",
                                                                                      "facing flank, rear or front"))
    assert_refused(capsys, *words, "--chase", "ally", mentions=("--chase", "only applies with --with-unit"))


def test_the_side_counts_one_rank_bonus_and_a_spear_flanked_gets_no_first_round_bonus():
    """Two units of 10 (2 Full Ranks each): the side's Rank Bonus is the highest, +1, not their sum; a Spear
    charged in its front with a unit in its flank has no +2 Agility."""
    deep = combat(FLANKER + " facing flank", models=10, facing_bonus="flat").fight
    ranks = combat(models=10).fight  # the same front unit alone: +1 Rank Bonus
    assert deep.scores(0, 0, 0, 0, False)[0] - ranks.scores(0, 0, 0, 0, False)[0] == 1  # the flank, no second +1
    spear = dict(enemy_spear=True)
    assert combat(**spear).fight.in_round(True).charged.agility == PLAIN["agility"] + 2
    assert combat(FLANKER + " facing flank", **spear).fight.in_round(True).charged.agility == PLAIN["agility"]


def both_broken(**more):
    """Both of the charger's units lose a round with a difference of 3 and break (Discipline 2): (the fight, the
    exact twin's branches in which one of them was caught as (weight, each unit's flag), each unit's catch by the
    charged unit, and the sampler's (broke, caught, each unit's flag) in 2000 trials)."""
    import numpy as np

    from oddscalc.t9a.fight_exact import _caught_tables, _fails, _tests
    from oddscalc.t9a.fight_sampled import _tests as sampled_tests

    fight = combat(FLANKER.replace("discipline 7", "discipline 2") + " swiftstride facing flank", discipline=2,
                   **more).fight
    line = fight.line
    catch = _caught_tables(fight, F)
    fails = [[_fails(troop, 20, F) for troop in side.troops] for side in fight.lines]
    branches = _tests(fight, np.array([0]), np.array([0]), np.array([False]), np.array([False]), np.array([3]),
                      np.array([F(1)], dtype=object), fails, catch, F(0))
    taken = [(weight[0], [int(flag[0]) for flag, _ in line.split(ours)]) for weight, ours, _, _, caught in branches
             if caught[0][0] and weight[0]]
    each = [table[0b1, 0] for table in catch[0]]  # pursued by the charged unit (no character)
    codes = [np.zeros(2000, dtype=np.int64), np.zeros(2000, dtype=np.int64)]
    broke, caught, after = sampled_tests(np.random.default_rng(5), fight, 0, codes, np.arange(2000),
                                         np.full(2000, 3), [np.zeros(2000, dtype=bool)] * 2)
    return fight, taken, each, (broke, caught, [flag for flag, _ in line.split(after)])


def test_of_two_broken_units_the_main_one_is_pursued():
    """Both of the charger's units lose and break (Discipline 2): the charged unit pursues the main one; the ally
    (Swiftstride: its Flee Maximised) is never the one caught, in the exact twin and in the sampler."""
    from oddscalc.t9a.troop import CAUGHT, FLED

    _, taken, each, (broke, caught, flags) = both_broken()
    assert len(taken) == 1 and taken[0][0] == each[0] != each[1]
    assert taken[0][1] == [CAUGHT, FLED]
    assert broke.all() and 0 < caught.mean() < 1
    assert (flags[1] == FLED).all() and set(flags[0].tolist()) == {FLED, CAUGHT}


@pytest.mark.parametrize("more, says", [("impact-hits 300", "impact-hits that can reach 1 to 40 a model"),
                                        ("stomp 50", "stomp that can reach 1 to 40 a model")])
def test_a_unit_s_automatic_hits_are_bounded_and_the_option_named(more, says):
    """(They reached t9a hits whole, which named its own --hits.)"""
    with pytest.raises(InputError) as refused:
        read_ally(FLANKER + f" {more} facing flank")
    assert refused.value.name == "with_unit" and says in refused.value.allowed


def test_the_charged_unit_may_pursue_the_ally_first():
    """--chase ally: of the two broken units the ally (Swiftstride: Maximised Flee) is the one pursued and caught,
    never the main one, in the exact twin (the branch's weight is its own catch, 247/648) and in the sampler."""
    from oddscalc.t9a.troop import CAUGHT, FLED

    fight, taken, each, (_, caught, flags) = both_broken(chase="ally")
    assert len(taken) == 1 and taken[0][0] == each[1] == F(247, 648)
    assert taken[0][1] == [FLED, CAUGHT]
    assert (flags[0] == FLED).all() and set(flags[1].tolist()) == {FLED, CAUGHT} and 0 < caught.mean() < 1
    attack = combat(FLANKER.replace("discipline 7", "discipline 2") + " swiftstride facing flank", discipline=2,
                    chase="ally")
    assert "chase ally" in attack.describe()
    assert "only applies with --with-unit" in combat(chase="ally").idle()["chase"]  # no ally: nothing to choose
    assert "chase" not in attack.idle()


HERO = "character A2 O5 D4 S4 R4 I5 H2 V9"  # a character joined to a --with-unit


def test_a_unit_s_character_reads_and_writes_back():
    ally = read_ally(FLANKER + " facing rear " + HERO + " battle-standard")
    assert ally.hero is not None and ally.hero.battle_standard
    assert (ally.hero.fighter.attacks, ally.hero.fighter.health, ally.hero.fighter.discipline) == (2, 2, 9)
    assert ally.facing == "rear" and ally.fighter.models == 10
    assert read_ally(str(ally)) == ally and " character attacks 2 " in str(ally)
    assert ally.ally.hero == ally.hero.fighter and ally.ally.bsb


@pytest.mark.parametrize("text, says", [
    (FLANKER + " facing flank character", "expected the character's profile after the word character"),
    (FLANKER + " facing flank " + HERO + " character A1 O1 D1 S1 R1 I1", "one character a unit"),
    (FLANKER + " facing flank character A2 O5", "expected a character's profile like"),
    (FLANKER + " " + HERO + " facing flank", "expected a character's profile like"),  # the unit's words first
])
def test_a_bad_character_of_a_unit_is_one_line_naming_the_option(text, says):
    with pytest.raises(InputError) as refused:
        read_ally(text)
    assert refused.value.name == "with_unit" and says in refused.value.allowed


def test_a_side_has_one_battle_standard_bearer():
    bearer = FLANKER + " facing flank " + HERO + " battle-standard"
    combat(bearer).check()
    for allies, more in (((bearer,), dict(character="A2 O5 D4 S4 R4 I5 H2 battle-standard")), ((bearer, bearer), {})):
        with pytest.raises(InputError) as refused:
            combat(*allies, **more).check()
        assert refused.value.name == "with_unit" and "one Battle Standard Bearer" in refused.value.allowed


def test_an_ally_s_character_strikes_at_its_agility_and_lends_its_discipline():
    """The flanker's character (Agility 5, +1 charging) strikes at step 6 with its 2 attacks, on the charged unit's
    rank and file; it stands in its unit's front rank, so 4 of its 10 models are in contact beside it; its
    Discipline 9 is its unit's while it stands."""
    fight = combat(FLANKER + " facing flank " + HERO).fight
    steps = dict(fight.schedule(True))
    assert Blow(0, "hero", 0, 1) in steps[6]
    assert fight.count(Blow(0, "hero", 0, 1), 0, 0) == 2 and fight.target(Blow(0, "hero", 0, 1), 0, 0) == (0, 0)
    assert fight.count(Blow(0, "melee", 0, 1), 0, 0) == 4 + 5  # beside the character, and the second rank's
    ally = fight.line.troops[1]
    assert (int(ally.discipline(1)), int(ally.discipline(0))) == (9, 7)


def test_the_charged_unit_strikes_an_ally_s_character_once_its_rank_and_file_fell_even_in_a_duel():
    duel = dict(character="A1 O3 D3 S3 R3 I3 H2", enemy_character="A1 O3 D3 S3 R3 I3 H2", challenge=True)
    fight = combat(FLANKER.replace("models 10", "models 1").replace("width 5", "width 1") + " facing flank " + HERO,
                   **duel).fight
    line = fight.line
    ally = line.troops[1]
    gone = line.join([(0, 0), (0, ally.code(1, 0))])  # the ally's one rank-and-file model fell, its character stands
    assert fight.target(Blow(1, "melee", 0, 1), gone, 0) == (1, 1)  # no Duel protects it
    assert fight.target(Blow(0, "hero", 0, 1), 0, 0) == (0, 0)  # it strikes the rank and file, not the duellist
    assert fight.target(Blow(0, "hero", 0, 0), 0, 0) == (0, 1)  # the main unit's character fights the Duel
    theirs = fight.troops[1]
    alone = theirs.code(5 * 3, 0)  # the charged unit's rank and file gone: its character is in the Duel
    assert fight.target(Blow(0, "hero", 0, 1), 0, alone) is None
    assert fight.room(0, 1, 1, 0, True) == 2  # an ally's character has no Overkill room
    assert fight.room(0, 0, 1, 0, True) == 2 + 3


def test_the_charged_unit_s_character_fights_on_while_one_of_the_charger_s_units_stands():
    """The main unit fled; the flanker stands: the charged unit's character strikes it (it struck no one before)."""
    from oddscalc.t9a.troop import FLED

    fight = combat(FLANKER + " facing flank", enemy_character="A3 O5 D4 S4 R4 I5 H2").fight
    fled = fight.line.join([(FLED, 0), (0, 0)])
    assert fight.count(Blow(1, "hero", 0, 0), fled, 0) == 3 and fight.target(Blow(1, "hero", 0, 0), fled, 0) == (1, 0)
    both = fight.line.join([(FLED, 0), (FLED, 0)])
    assert fight.count(Blow(1, "hero", 0, 0), both, 0) == 0


def test_an_ally_s_character_kills_a_lone_model_worked_by_hand():
    """One model (D3 R3, Health 1, Agility 0: it strikes last) is charged by one model in front and, in its flank,
    two models with a character: 3 rank-and-file attacks at 1/4 each (4+ to hit, 4+ to wound) and the character's
    2 at 4/9 (3+, 3+): it falls in the first round with 1 - (3/4)^3 (5/9)^2 = 167/192."""
    lone = dict(models=1, width=1, **PLAIN, **enemy(models=1, width=1, **{**PLAIN, "agility": 0}))
    ally = ("models 2 width 2 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7 "
            "facing flank character A2 O5 D4 S4 R4 I5 H1")
    attack = Combat(**lone, with_unit=(ally,))
    fight = attack.fight
    assert fight.count(Blow(0, "melee", 0, 1), 0, 0) == 2 and fight.count(Blow(0, "melee", 0, 0), 0, 0) == 1
    assert attack.exact(fractions=True)["enemy_health_lost"][1] == F(167, 192)
    without = Combat(**lone, with_unit=(ally.split(" character")[0],))
    assert without.exact(fractions=True)["enemy_health_lost"][1] == 1 - F(3, 4) ** 3


def test_the_command_line_takes_a_unit_with_its_character(capsys):
    words = command_words()
    flank = FLANKER.replace("models 10", "models 4").replace("width 5", "width 4") + " facing flank " + HERO
    result = run(capsys, *words, "--with-unit", flank, "--exact", "--format", "json")
    assert result.code == 0, result.err
    answer = result.json()
    assert "character attacks 2 offensive 5" in answer["description"]
    assert answer["outcomes"]["win"]["probability"] == pytest.approx(combat(flank).exact()["win"][1], abs=1e-12)
    assert combat(flank).exact()["win"][1] > combat(flank.split(" character")[0]).exact()["win"][1]
    assert_refused(capsys, *words, "--with-unit", flank + " character A1", mentions=("--with-unit",
                                                                                     "one character a unit"))


# --- the charged side's other units (--enemy-with-unit) -------------------------------------------------------


def test_the_charged_side_s_unit_in_the_charger_s_flank_scores_and_disrupts():
    """A unit of 10 (2 Full Ranks) in the charger's flank: the charged side's highest Rank Bonus +1 (the main unit's
    3 Full Ranks give +2 already: no more), the Flank +1 and +1 more ranked; the charger (2 Full Ranks, 10 models 5
    wide) is no longer Steadfast... and the charged unit's own Steadfast is against every enemy unit."""
    alone = combat(models=10).fight
    flanked = combat(models=10, enemy_with_unit=(FLANKER + " facing flank",)).fight
    assert flanked.scores(0, 0, 0, 0, False)[1] - alone.scores(0, 0, 0, 0, False)[1] == 1 + 1
    assert flanked.scores(0, 0, 0, 0, False)[0] == alone.scores(0, 0, 0, 0, False)[0]
    flat = combat(models=10, enemy_with_unit=(FLANKER + " facing flank",), facing_bonus="flat").fight
    assert flat.scores(0, 0, 0, 0, False)[1] - alone.scores(0, 0, 0, 0, False)[1] == 1
    rear = combat(models=10, enemy_with_unit=(FLANKER + " facing rear",)).fight
    assert rear.scores(0, 0, 0, 0, False)[1] - alone.scores(0, 0, 0, 0, False)[1] == 2 + 1
    deep = dict(models=20, width=5)  # the charger: 4 Full Ranks, more than the charged side's 3 and 2
    ours, theirs = combat(**deep).fight.steadfast(0, 0)
    assert bool(ours[0]) and not theirs[0]
    ours, theirs = combat(**deep, enemy_with_unit=(FLANKER + " facing flank",)).fight.steadfast(0, 0)
    assert not ours[0] and [bool(one) for one in theirs] == [False, False]  # disrupted: 2 Full Ranks in its flank
    shallow = FLANKER.replace("models 10", "models 5")  # 1 Full Rank: no disruption
    ours, _ = combat(**deep, enemy_with_unit=(shallow + " facing flank",)).fight.steadfast(0, 0)
    assert bool(ours[0])


def test_the_charger_s_main_unit_fights_the_charged_side_s_other_unit_with_the_models_facing_it():
    """The charged side's unit (10, 5 wide) in the charger's flank strikes with its front rank and supports (5 +
    5), does not charge (no Charging Momentum: its Agility 3 at step 3); the charger's main unit (5 wide) strikes
    back with as many models as that unit's front rank (matched: 5), no supports, at its charging step 4."""
    fight = combat(models=10, enemy_with_unit=(FLANKER + " facing flank",)).fight
    steps = dict(fight.schedule(True))
    assert Blow(1, "melee", 0, 0, 1) in steps[3] and Blow(0, "melee", 0, 0, 1) in steps[4]
    assert fight.count(Blow(1, "melee", 0, 0, 1), 0, 0) == 10
    assert fight.count(Blow(0, "melee", 0, 0, 1), 0, 0) == 5
    assert fight.count(Blow(0, "melee", 0, 0, 0), 0, 0) == 10  # and its front and second rank at the main unit
    assert fight.target(Blow(1, "melee", 0, 0, 1), 0, 0) == (0, 0) and fight.target(Blow(0, "melee", 0, 0, 1), 0,
                                                                                     0) == (1, 0)
    edge = combat(models=10, enemy_with_unit=(FLANKER + " facing flank",), flank_models="edge").fight
    assert edge.count(Blow(0, "melee", 0, 0, 1), 0, 0) == 2  # one a rank on the engaged edge: its 2 ranks
    spear = combat(models=10, enemy_with_unit=(FLANKER + " spear facing flank",)).fight.in_round(True)
    assert spear.enemy_allies[0].unit.agility == PLAIN["agility"] + 2  # not charging: a Spear's first-round +2


def test_a_lone_charger_between_two_units_worked_by_hand():
    """One model (D3 R3, Health 1, Agility 3: step 4 charging) charges one model (Agility 0) and is struck in its
    flank by two models (Agility 5). At step 5 their 2 attacks (1/4 each: 4+ to hit, 4+ to wound); at step 4 it
    strikes each unit once; at step 0 the charged model strikes once if the charger's blow did not kill it:
    it falls with 1 - (3/4)^2 (1 - 3/4 * 1/4) = 139/256."""
    lone = dict(models=1, width=1, **PLAIN, **enemy(models=1, width=1, **{**PLAIN, "agility": 0}))
    side = ("models 2 width 2 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 5 discipline 7 "
            "facing flank")
    attack = Combat(**lone, enemy_with_unit=(side,))
    fight = attack.fight
    assert [fight.count(blow, 0, 0) for blow in (Blow(1, "melee", 0, 0, 1), Blow(0, "melee", 0, 0, 0),
                                                 Blow(0, "melee", 0, 0, 1), Blow(1, "melee", 0, 0, 0))] == [2, 1, 1, 1]
    exact = attack.exact(fractions=True)
    assert exact["health_lost"][1] == F(139, 256)
    # the charged side's Health Points lost, its two units' together: both fall at step 4 when the charger stood
    # through step 5 (9/16) and both its blows kill (1/16)
    assert exact["enemy_health_lost"][2] == F(9, 16) * F(1, 16) and len(exact["enemy_health_lost"]) == 3
    alone = Combat(**lone).exact(fractions=True)  # without the flankers: struck once, at step 0, if its foe stands
    assert alone["health_lost"][1] == F(3, 4) * F(1, 4)


def test_the_charged_side_s_broken_units_are_pursued_by_the_charger_s_units_in_contact():
    """The charged side loses by 3 to a charger of 4 Full Ranks (no Steadfast) and both its units break (Discipline
    2): the charger's main unit, in contact with both, pursues the main one (721/1296, one pursuer); the other is
    not pursued; with --chase ally, the other."""
    import numpy as np

    from oddscalc.t9a.fight_exact import _caught_tables, _fails, _tests
    from oddscalc.t9a.troop import CAUGHT, FLED

    def caught(**more):
        fight = combat(enemy_with_unit=(FLANKER.replace("discipline 7", "discipline 2") + " facing flank",),
                       **{**enemy(discipline=2), "models": 20, **more}).fight
        catch = _caught_tables(fight, F)
        fails = [[_fails(troop, 20, F) for troop in side.troops] for side in fight.lines]
        branches = _tests(fight, np.array([0]), np.array([0]), np.array([True]), np.array([False]), np.array([3]),
                          np.array([F(1)], dtype=object), fails, catch, F(0))
        return [(weight[0], [int(flag[0]) for flag, _ in fight.enemy_line.split(theirs)])
                for weight, _, theirs, _, gone in branches if gone[1][0] and weight[0]]

    assert caught() == [(F(721, 1296), [CAUGHT, FLED])]
    assert caught(chase="ally") == [(F(721, 1296), [FLED, CAUGHT])]


def test_the_command_line_takes_the_charged_side_s_other_unit(capsys):
    words = command_words()
    side = FLANKER.replace("models 10", "models 4").replace("width 5", "width 4") + " facing flank"
    result = run(capsys, *words, "--enemy-with-unit", side, "--exact", "--format", "json")
    assert result.code == 0, result.err
    answer = result.json()
    assert f"its other unit ({side})" in answer["description"]
    expected = combat(enemy_with_unit=(side,)).exact()["win"][1]
    assert answer["outcomes"]["win"]["probability"] == pytest.approx(expected, abs=1e-12)
    assert expected < combat().exact()["win"][1]
    assert_refused(capsys, *words, "--enemy-with-unit", side.replace("flank", "side"),
                   mentions=("--enemy-with-unit", "facing flank, rear or front"))
    rear = side.replace("flank", "rear")
    assert_refused(capsys, *words, "--enemy-with-unit", rear, "--enemy-with-unit", rear,
                   mentions=("--enemy-with-unit", "two flanks and one rear"))


# --- two units on one front ------------------------------------------------------------------------------------


FRONT = "models 3 width 3 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7 facing front"


def test_two_units_on_one_front_share_the_enemy_s_front_rank_and_its_supports():
    """Ten models 5 wide charged in front by 3 and, beside them, 3 more: the second unit faces as many as its own
    front rank (3), the main one the rest (2); the second rank's 5 supports go with the models they stand
    behind (3 and 2); together all 10 attacks, as against one unit. The chargers each strike with all they
    have; no flank bonus, no disruption, a Spear still braced."""
    attack = combat(FRONT, models=3, width=3, **enemy(models=10, width=5))
    fight = attack.fight
    assert [int(fight.count(Blow(1, "melee", 0, unit), 0, 0)) for unit in (0, 1)] == [2 + 2, 3 + 3]
    assert [int(fight.count(Blow(0, "melee", 0, unit), 0, 0)) for unit in (0, 1)] == [3, 3]
    alone = combat(models=3, width=3, **enemy(models=10, width=5)).fight
    assert int(alone.count(Blow(1, "melee", 0, 0), 0, 0)) == 10
    assert fight.scores(0, 0, 0, 0, False)[0] == alone.scores(0, 0, 0, 0, False)[0]
    assert bool(fight.steadfast(0, 0)[1][0]) == bool(alone.steadfast(0, 0)[1][0])
    spear = combat(FRONT, models=3, width=3, **enemy(models=10, width=5, spear=True)).fight.in_round(True)
    assert spear.charged.agility == PLAIN["agility"] + 2
    gone = fight.line.join([(0, 0), (0, 3)])  # the second unit wiped out: the main one faces the whole front
    assert [int(fight.count(Blow(1, "melee", 0, unit), gone, 0)) for unit in (0, 1)] == [10, 0]
    wide = combat(FRONT.replace("models 3 width 3", "models 6 width 6"), models=3, width=3,
                  **enemy(models=10, width=5)).fight  # wider than the front: the main one keeps one model's worth
    assert [int(wide.count(Blow(1, "melee", 0, unit), 0, 0)) for unit in (0, 1)] == [1 + 1, 4 + 4]


def test_a_character_in_a_shared_front_stands_in_the_main_unit_s_part():
    fight = combat(FRONT, models=3, width=3, **enemy(models=10, width=5),
                   enemy_character="A1 O3 D3 S3 R3 I3 H2").fight
    counts = [int(fight.count(Blow(1, "melee", 0, unit), 0, 0)) for unit in (0, 1)]
    assert counts == [(2 - 1) + 2, 3 + 3]  # the character takes one of the main unit's two places


def test_the_charged_side_s_second_unit_on_the_charger_s_front():
    """The charger (5 wide, 10 models) faces the charged unit and, beside it, another of 3: its front rank and its
    supports split 2 + 2 and 3 + 3; the other unit strikes it with its front rank and supports."""
    fight = combat(models=10, width=5, enemy_with_unit=(FRONT,)).fight
    assert [int(fight.count(Blow(0, "melee", 0, 0, enemy), 0, 0)) for enemy in (0, 1)] == [2 + 2, 3 + 3]
    assert int(fight.count(Blow(1, "melee", 0, 0, 1), 0, 0)) == 3


def test_one_unit_beside_the_main_one_on_a_front():
    two = (FRONT, FRONT)
    with pytest.raises(InputError) as refused:
        combat(*two).check()
    assert refused.value.name == "with_unit" and "one more beside the main unit" in refused.value.allowed


def test_two_units_on_one_front_may_share_it_evenly():
    """--front-share even: the unit beside faces half the front (2 of 5, at most its own front rank of 3), the main
    one the larger half (3), the supports alike (2 and 3)."""
    fight = combat(FRONT, models=3, width=3, front_share="even", **enemy(models=10, width=5)).fight
    assert [int(fight.count(Blow(1, "melee", 0, unit), 0, 0)) for unit in (0, 1)] == [3 + 3, 2 + 2]
    narrow = combat(FRONT.replace("models 3 width 3", "models 1 width 1"), models=3, width=3, front_share="even",
                    **enemy(models=10, width=5)).fight  # one model beside: it faces one
    assert [int(narrow.count(Blow(1, "melee", 0, unit), 0, 0)) for unit in (0, 1)] == [4 + 4, 1 + 1]
    assert "front share even" in combat(FRONT, front_share="even").describe()
    assert "only applies with a unit facing front" in combat(FLANKER + " facing flank", front_share="even").idle()[
        "front_share"]


def test_a_lone_model_and_one_beside_it_against_two_worked_by_hand():
    """Two models (Agility 0) charged in front by one model and, beside it, another: each charger strikes once at
    step 4 (1/4 each); the charged models left strike back at step 0, one each at the unit it faces, and the one
    left alone strikes the main charger. The charger's side loses 0, 1 or 2 Health Points with 169, 78 and 9 in
    256, whichever way the front is shared."""
    lone = dict(models=1, width=1, **PLAIN, **enemy(models=2, width=2, **{**PLAIN, "agility": 0}))
    beside = FRONT.replace("models 3 width 3", "models 1 width 1")
    for share in ("beside", "even"):
        lost = Combat(**lone, with_unit=(beside,), front_share=share).exact(fractions=True)["health_lost"]
        assert tuple(lost) == (F(169, 256), F(78, 256), F(9, 256))
    # 0 kills (9/16): two attacks back, 1/4 each; 1 kill (6/16): one back at the main charger; 2 kills: none
    assert F(9, 16) * F(3, 4) ** 2 + F(6, 16) * F(3, 4) + F(1, 16) == F(169, 256)


def test_a_unit_facing_front_alone_leaves_the_flank_readings_idle():
    """Nothing in a flank or rear: --flank-models and --facing-bonus change nothing and are refused."""
    idle = combat(FRONT, flank_models="edge", facing_bonus="flat").idle()
    assert "flank_models" in idle and "facing_bonus" in idle
    assert "flank_models" not in combat(FLANKER + " facing flank", flank_models="edge").idle()


def test_the_rank_readings_reach_the_other_units():
    """--last-rank and --line-bonus are the whole fight's: an ally of 11 models 6 wide has 2 Full Ranks (its last
    rank of 5 counts) or 1 (ignored); the option is taken though no main unit could use it."""
    wide = FLANKER.replace("models 10 width 5", "models 11 width 6") + " facing flank"
    counts = combat(wide).fight.line.troops[1]
    ignored = combat(wide, last_rank="ignored")
    assert int(counts.full_ranks(0)) == 2 and int(ignored.fight.line.troops[1].full_ranks(0)) == 1
    assert "last_rank" not in ignored.idle() and "last_rank" in combat(last_rank="ignored").idle()
    line = FLANKER.replace("models 10 width 5", "models 8 width 8") + " facing rear"
    assert "line_bonus" not in combat(line, line_bonus="kept").idle()
    assert combat(line, line_bonus="kept").fight.line.troops[1].unit.line_bonus.value == "kept"


from hypothesis import example, given, strategies as st  # noqa: E402

TOKENS = st.sampled_from(["models", "width", "attacks", "facing", "flank", "rear", "front", "side", "character",
                          "A2", "O5", "battle-standard", "spear", "great-weapon", "0", "3", "11", "٣", "", "+", "5+",
                          "health", "stomp", "d6", "impact-hits", "height", "large", "discipline"])


@given(st.lists(TOKENS, max_size=24), st.sampled_from(["with_unit", "enemy_with_unit"]))
@example(["character", "models"], "with_unit")  # a bad character's refusal named only the words after character
def test_any_words_read_as_a_unit_or_are_refused_in_one_line_naming_the_option(tokens, name):
    """Words of every kind in every order, alone or after a whole profile: a unit that writes itself back, or a
    one-line refusal naming the option and the text."""
    for text in (" ".join(tokens), FLANKER + " " + " ".join(tokens)):
        try:
            ally = read_ally(text, name)
        except InputError as refused:
            assert refused.name == name and refused.value == text and "\n" not in refused.allowed
        else:
            assert read_ally(str(ally), name) == ally and ally.facing in ("flank", "rear", "front")
