"""Characters joined to units and Duels in a 9th Age combat (docs/rules.md §3.11, Characters and Duels): where a
character stands and strikes, what it lends the Break Test, Overkill, a refused Duel; figures worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clirun import assert_refused, run
from oddscalc.errors import InputError
from oddscalc.t9a.combat import Combat
from oddscalc.t9a.fight import Blow
from oddscalc.t9a.fight_exact import _step_dealt
from oddscalc.t9a.fighter import Fighter
from oddscalc.t9a.profiles import Hero, read_character
from oddscalc.t9a.troop import OVERKILL, Troop

PLAIN = dict(attacks=1, offensive=3, defensive=3, strength=3, resilience=3)  # to hit 4+, to wound 4+, no save
LONE = dict(models=1, width=1, agility=0, discipline=7, **PLAIN)
HERO = "attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 5 health 1"


def enemy(**fields):
    return {f"enemy_{name}": value for name, value in fields.items()}


def lone_pair(**more) -> Combat:
    """One rank-and-file model a side (Agility 0) and a character each (Agility 5): each attack kills with 1/4."""
    return Combat(**LONE, **enemy(**LONE), **{"character": HERO, "enemy_character": HERO, **more})


# --- the profile ------------------------------------------------------------------------


def test_the_long_and_the_short_form_read_alike():
    long = read_character("attacks 3 offensive 5 defensive 5 strength 4 resilience 4 agility 5 health 2 "
                          "discipline 9 armour 5+ ap 1 aegis 5+ great-weapon battle-standard poison", "character")
    short = read_character("A3 O5 D5 S4 R4 I5 H2 V9 armour 2 AP1 aegis 5 great-weapon poison battle-standard",
                           "character")
    assert long == short
    hero = long.fighter
    assert (hero.models, hero.width, hero.attacks, hero.health, hero.discipline, hero.armour, hero.ap) == (
        1, 1, 3, 2, 9, 2, 1)
    assert hero.aegis == 5 and hero.great_weapon and hero.attributes == ("poison",) and long.battle_standard
    assert read_character(str(long), "character") == long  # what a cell's query writes back reads the same


@pytest.mark.parametrize("text, why", [
    ("attacks 3 offensive 5 defensive 5 strength 4 resilience 4", "no agility"),
    ("A3 O5 D5 S4 R4 I5 A2", "attacks twice"),
    ("A3 O5 D5 S4 R4 I5 H11", "Health Points above 10"),
    ("A3 O5 D5 S4 R4 I5 discipline 1", "Discipline below 2"),
    ("A3 O5 D5 S4 R4 I5 aegis 1+", "Aegis 1+"),
    ("A3 O5 D5 S4 R4 I5 lance", "a word it does not know"),
    ("A3 O5 D5 S4 R4 I5 poison poison", "a word twice"),
    ("A3 O5 D5 S4 R4 I5 health", "a number missing"),
    ("A3 O5 D5 S4 R4 I٣", "a digit that is not ASCII"),
])
def test_a_bad_profile_is_refused_in_one_line_naming_the_option(text, why):
    with pytest.raises(InputError) as refused:
        read_character(text, "enemy_character")
    assert refused.value.name == "enemy_character" and refused.value.value == text, why
    assert "\n" not in str(refused.value) and "attacks 3 offensive 5" in refused.value.allowed


NUMBER = st.integers(1, 10)


@given(st.fixed_dictionaries({"attacks": NUMBER, "offensive": NUMBER, "defensive": NUMBER, "strength": NUMBER,
                              "resilience": NUMBER, "agility": st.integers(0, 10), "health": NUMBER}),
       st.sampled_from(["", " discipline 8", " armour 3 ap 2", " aegis 4+ fortitude 6+", " multiple-wounds d3"]),
       st.lists(st.sampled_from(["great-weapon", "parry", "stubborn", "hatred", "battle-standard"]), unique=True),
       st.booleans())
def test_every_profile_written_back_reads_the_same(numbers, more, words, short):
    """A profile in either form, its keys in any order, reads to the hero whose text (a cell's query) reads back."""
    letters = {"attacks": "A", "offensive": "O", "defensive": "D", "strength": "S", "resilience": "R",
               "agility": "I", "health": "H"}
    keys = [f"{letters[key]}{value}" if short else f"{key} {value}" for key, value in numbers.items()]
    hero = read_character(" ".join(keys[::-1]) + more + " " + " ".join(words), "character")
    assert all(getattr(hero.fighter, key) == value for key, value in numbers.items())
    assert hero.battle_standard == ("battle-standard" in words)
    assert read_character(str(hero), "character") == hero


# --- where it stands and what it strikes --------------------------------------------------


def test_a_character_takes_a_front_rank_place_and_counts_in_the_ranks():
    """Nine rank and file 5 wide and a character: 4 of them beside it in front, 5 supporting behind; ten models
    make two Full Ranks (one with the rank and file alone)."""
    combat = Combat(models=9, width=5, agility=3, discipline=7, **PLAIN, **enemy(**LONE), character=HERO)
    fight = combat.fight
    mine = fight.troops[0]
    assert fight.count(Blow(0, "melee"), 0, 0) == 4 + 5
    assert fight.count(Blow(0, "hero"), 0, 0) == 1
    assert mine.full_ranks(0) == 2 and mine.unit.full_ranks(0) == 1
    dead = mine.code(0, 1)  # the character fallen
    assert fight.count(Blow(0, "melee"), dead, 0) == 5 + 4 and mine.left(dead) == 9
    assert fight.count(Blow(0, "hero"), dead, 0) == 0


def test_attacks_go_to_the_rank_and_file_then_to_the_character():
    """Without a Duel every blow strikes the rank and file while one stands (an open reading), then the
    character; in a Duel the characters strike each other and no one else strikes them."""
    plain, duel = lone_pair().fight, lone_pair(challenge=True).fight
    theirs = plain.troops[1]
    gone = theirs.code(1, 0)  # the enemy's rank and file dead, its character standing
    for blow in (Blow(0, "melee"), Blow(0, "hero")):
        assert plain.target(blow, 0, 0) == (0, 0) and plain.target(blow, 0, gone) == (0, 1)
    assert duel.target(Blow(0, "hero"), 0, 0) == (0, 1) and duel.target(Blow(0, "melee"), 0, 0) == (0, 0)
    gone = duel.troops[1].code(1, 0)  # (a Duel's codes count Overkill too)
    assert duel.target(Blow(0, "melee"), 0, gone) is None  # only its duellist is left: no one else strikes it
    fallen = duel.troops[1].code(0, 1)  # its duellist fallen: the Duel is over, our character strikes the unit
    assert duel.target(Blow(0, "hero"), 0, fallen) == (0, 0)


def test_a_duel_worked_by_hand():
    """One round, a Duel. Step 6: the charger's character (Agility 5 + 1) kills the other (1/4); step 5: the
    other, still standing (3/4), kills back (1/4); steps 1 and 0 the rank and file alike. The two fights are
    independent: the charged unit loses each of its two models with 1/4, the charger each with 3/4 · 1/4."""
    exact = lone_pair(challenge=True).exact(fractions=True)
    assert list(exact["enemy_health_lost"]) == [F(9, 16), F(6, 16), F(1, 16)]
    first = F(3, 16)
    assert list(exact["health_lost"]) == [(1 - first) ** 2, 2 * first * (1 - first), first ** 2]
    # a character falls in its Duel, or flees with its unit and is caught
    assert F(1, 4) <= exact["enemy_character_slain"][1] <= F(1, 4) + exact["enemy_caught"][1]
    caught = exact["caught"][1] - exact["enemy_caught"][1]  # the charger's unit caught
    assert first <= exact["character_slain"][1] <= first + caught


def test_overkill_counts_only_in_a_duel_and_at_most_three():
    """The charger's character with four attacks strikes a character of 1 Health Point: each kills with 1/4.
    In the Duel the wounds past the first count as Overkill (at most 3): the pmf of what it takes is
    Binomial(4, 1/4); outside a Duel (the rank and file gone) the excess is lost."""
    hero = HERO.replace("attacks 1", "attacks 4")
    duel = lone_pair(challenge=True, character=hero).fight.in_round(True)
    plain = lone_pair(character=hero).fight.in_round(True)
    step = [(at, blows) for at, blows in duel.schedule(True) if Blow(0, "hero") in blows][0][1]
    binomial = [F(1 * 3 ** (4 - k) * [1, 4, 6, 4, 1][k], 4 ** 4) for k in range(5)]
    to_charged = _step_dealt(duel, step, 0, 0, F)[-1]  # the charged unit's character's pool (the last axis)
    assert list(to_charged) == binomial  # 0, 1, then 1 and Overkill 1, 2, 3: five states
    gone = plain.troops[1].code(1, 0)
    to_charged = _step_dealt(plain, step, 0, gone, F)[-1]
    assert list(to_charged) == [binomial[0], 1 - binomial[0]]  # no Duel: one Health Point, the rest lost
    troop = duel.troops[1]
    assert troop.scored(troop.code(0, 1 + OVERKILL)) == 4 and troop.lost(troop.code(0, 1 + OVERKILL)) == 1


def test_a_character_lends_its_discipline_its_stubborn_and_its_battle_standard():
    unit = Fighter(models=5, width=5, health=1, discipline=6, **PLAIN, agility=3)
    hero = read_character(HERO + " discipline 9 stubborn", "character").fighter
    troop = Troop(unit, hero)
    assert troop.break_fails(0, 2, F) == F(30, 36)  # Discipline 6 - 2: fails above 4
    assert troop.break_fails(1, 2, F) == F(6, 36)  # its Discipline 9 and Stubborn (no penalty): fails above 9
    bsb = Troop(unit, read_character(HERO + " discipline 8 battle-standard", "character").fighter, bsb=True)
    assert bsb.break_fails(1, 2, F) == F(21, 36) ** 2  # Discipline 8 - 2: fails above 6, and again re-rolled
    assert bsb.standards(bsb.code(0, 0)) == 1 and bsb.standards(bsb.code(0, 1)) == 0
    refused = Troop(unit, hero, refused=True)
    standing = refused.code(0, 0)  # its character stands, but refused a Duel: it lends no Discipline, no Stubborn
    assert refused.alive(standing) == 1 and refused.break_fails(refused.active(standing), 2, F) == F(30, 36)


def test_a_refused_duel_silences_the_character():
    fight = lone_pair(challenge_refused=True).fight
    assert fight.count(Blow(1, "hero"), 0, 0) == 0 and fight.count(Blow(0, "hero"), 0, 0) == 1
    exact = lone_pair(challenge_refused=True, rounds=1).exact(fractions=True)
    # the charged unit's character makes no attacks: the charger's character dies only if its unit is caught
    assert exact["character_slain"][1] == exact["caught"][1] - exact["enemy_caught"][1]


def test_the_rank_and_file_gone_the_character_fights_on_alone():
    """One rank-and-file model a side, each side's character: the enemy's rank and file at step 1 may kill ours
    first; later steps strike our character, and the fight goes on while it stands."""
    exact = lone_pair(rounds=10).exact()
    assert exact["rounds"][2:].sum() > 0  # a second round is fought with the rank and file gone
    assert abs(sum(exact["health_lost"]) - 1) < 1e-12 and len(exact["health_lost"]) == 3


@pytest.mark.parametrize("options, name, allowed", [
    (dict(challenge=True, character=HERO), "challenge", "a Duel needs a character on each side"),
    (dict(challenge_refused=True, enemy_character=HERO), "challenge_refused", "a Duel needs a character"),
    (dict(challenge=True, challenge_refused=True, character=HERO, enemy_character=HERO), "challenge_refused",
     "accepted (--challenge) or refused"),
])
def test_a_duel_without_two_characters_is_refused(options, name, allowed):
    with pytest.raises(InputError) as refused:
        Combat(**LONE, **enemy(**LONE), **options).check()
    assert refused.value.name == name and allowed in refused.value.allowed


def test_the_command_line_answers_with_the_characters(capsys):
    """The query typed: the answer names the Duel and each character's fall; a bad profile is one line."""
    words = ["t9a", "combat"]
    for key, value in LONE.items():
        words += [f"--{key}", str(value), f"--enemy-{key}", str(value)]
    hero = ["--character", HERO, "--enemy-character", HERO.replace("health 1", "health 2")]
    result = run(capsys, *words, *hero, "--challenge", "--exact", "--format", "json")
    assert result.code == 0, result.err
    answer = result.json()
    assert answer["description"].endswith(", a Duel") and "--challenge" in answer["command"]
    exact = lone_pair(challenge=True, enemy_character=HERO.replace("health 1", "health 2")).exact()
    assert answer["outcomes"]["enemy_character_slain"]["mean"] == pytest.approx(exact["enemy_character_slain"][1])
    assert_refused(capsys, *words, "--character", "A1 O3 lance", mentions=("--character A1 O3 lance",
                                                                          "attacks 3 offensive 5"))
    assert_refused(capsys, *words, "--character", HERO, "--challenge", mentions=("--challenge",))


def test_outcomes_name_the_characters_only_when_there_are_some():
    assert "character_slain" not in Combat(**LONE, **enemy(**LONE)).outcomes
    assert lone_pair().outcomes[-2:] == ("character_slain", "enemy_character_slain")
    assert isinstance(lone_pair().hero(""), Hero)
    assert np.isclose(sum(lone_pair().exact()["enemy_character_slain"]), 1)


def test_a_mounted_character_strikes_with_its_mount_at_the_mount_s_agility():
    """--character-mount: the mount's attacks are a second part of the character, at their own Agility (+1 when
    charging, Charging Momentum, as --mount-momentum says); none once the character falls."""
    fight = lone_pair(character_mount="A2 O3 S3 I2").fight
    steps = {blow: step for step, blows in fight.schedule(True) for blow in blows}
    assert steps[Blow(0, "hero", 0)] == 6 and steps[Blow(0, "hero", 1)] == 3
    rider = lone_pair(character_mount="A2 O3 S3 I2", mount_momentum="rider").fight
    assert {blow: step for step, blows in rider.schedule(True) for blow in blows}[Blow(0, "hero", 1)] == 2
    assert fight.count(Blow(0, "hero", 1), 0, 0) == 2
    assert fight.count(Blow(0, "hero", 1), fight.troops[0].code(0, 1), 0) == 0
    with pytest.raises(InputError) as refused:
        Combat(**LONE, **enemy(**LONE), enemy_character_mount="A1 O3 S3 I3").check()
    assert refused.value.name == "enemy_character_mount" and "--enemy-character" in refused.value.allowed


def test_a_unit_s_standard_stands_with_its_rank_and_file_not_with_its_character():
    unit = Fighter(models=2, width=2, health=1, discipline=7, standard=True, **PLAIN, agility=3)
    troop = Troop(unit, read_character(HERO, "character").fighter)
    assert troop.standards(troop.code(0, 0)) == 1 and troop.standards(troop.code(2, 0)) == 0
    assert troop.left(troop.code(2, 0)) == 1  # its character still stands
