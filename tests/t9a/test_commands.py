"""`oddscalc t9a …`: the command-line contract (CLI.md) and its one-line errors."""

from fractions import Fraction as F

import pytest
from clirun import assert_refused, assert_same, exact_json, run

from oddscalc.t9a import Melee, T9AShoot
from oddscalc.t9a.rolls import Charge, Direction, DisciplineTest

MELEE = ("t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive", "4", "--strength", "4",
         "--resilience", "3")
SHOOT = ("t9a", "shoot", "--shots", "10", "--aim", "4+", "--strength", "4", "--resilience", "3")
HITS = ("t9a", "hits", "--hits", "2d6", "--strength", "4", "--resilience", "3")
MELEE_SETTINGS = dict(attacks=10, offensive=4, defensive=4, strength=4, resilience=3)
SHOOT_SETTINGS = dict(shots=10, aim=4, strength=4, resilience=3)


def test_melee_outcomes_and_worked_example(capsys):
    data = exact_json(capsys, *MELEE, "--armour", "2", "--aegis", "5+")
    assert list(data["outcomes"]) == ["health_lost", "hits", "wounds", "unsaved"]
    assert data["outcomes"]["unsaved"]["mean"] == pytest.approx(40 / 27)
    assert_same(data["outcomes"], Melee(**MELEE_SETTINGS, armour=2, aegis=5))


def test_models_add_kills(capsys):
    data = exact_json(capsys, *MELEE, "--multiple-wounds", "d3", "--health", "2", "--models", "3")
    assert list(data["outcomes"]) == ["health_lost", "hits", "wounds", "unsaved", "kills"]
    assert len(data["outcomes"]["health_lost"]["pmf"]) <= 3 * 2 + 1
    assert_same(data["outcomes"], Melee(**MELEE_SETTINGS, multiple_wounds="d3", health=2, models=3))


@pytest.mark.parametrize(
    "options, attack",
    [
        (("--armour", "5+", "--ap", "1"), dict(armour=2, ap=1)),
        (("--armour", "none", "--fortitude", "4"), dict(armour=0, fortitude=4)),
        (("--hit-modifier", "-2", "--battle-focus", "--poison"), dict(hit_modifier=-2, battle_focus=True,
                                                                      poison=True)),
        (("--lethal-strike", "--armour", "4", "--fortitude", "5+", "--reroll-wounds", "failed"),
         dict(lethal_strike=True, armour=4, fortitude=5, reroll_wounds="failed")),
        (("--divine", "--aegis", "3+", "--fortitude", "4+"), dict(divine=True, aegis=3, fortitude=4)),
        (("--flaming", "--flammable", "--fortitude", "4+"), dict(flaming=True, flammable=True, fortitude=4)),
        (("--reroll-hits", "failed", "--attacks", "2d6"), dict(reroll_hits="failed", attacks="2d6")),
        (("--multiple-wounds", "d3+1", "--health", "3"), dict(multiple_wounds="d3+1", health=3)),
    ],
)
def test_melee_options_reach_the_attack(capsys, options, attack):
    data = exact_json(capsys, *MELEE, *options)
    settings = dict(MELEE_SETTINGS)
    settings.update(attack)
    assert_same(data["outcomes"], Melee(**settings))


def test_toxic_needs_no_strength(capsys):
    args = ("t9a", "melee", "--attacks", "6", "--offensive", "3", "--defensive", "3", "--resilience", "3",
            "--toxic", "--armour", "6")
    data = exact_json(capsys, *args)
    assert_same(data["outcomes"], Melee(attacks=6, offensive=3, defensive=3, resilience=3, toxic=True, armour=6))


@pytest.mark.parametrize(
    "options, attack",
    [
        ((), {}),
        (("--modifier", "-3", "--poison", "--battle-focus"), dict(modifier=-3, poison=True, battle_focus=True)),
        (("--shots", "d6+1", "--modifier", "1", "--armour", "3"), dict(shots="d6+1", modifier=1, armour=3)),
    ],
)
def test_shoot_options_reach_the_attack(capsys, options, attack):
    data = exact_json(capsys, *SHOOT, *options)
    settings = dict(SHOOT_SETTINGS)
    settings.update(attack)
    assert_same(data["outcomes"], T9AShoot(**settings))


def test_hopeless_shots_in_the_table(capsys):
    data = exact_json(capsys, *SHOOT, "--modifier", "-3", "--shots", "1", "--resilience", "4")
    assert data["outcomes"]["hits"]["mean"] == pytest.approx(1 / 12)


def test_melee_samples_with_a_seed(capsys):
    data = run(capsys, *MELEE, "--trials", "2e4", "--seed", "3", "--format", "json").json()
    assert data["method"] == "monte-carlo" and data["trials"] == 20_000 and data["seed"] == 3
    assert data["outcomes"]["hits"]["mean"] == pytest.approx(5, abs=0.1)


@pytest.mark.parametrize(
    "args, attack",
    [
        (("t9a", "charge", "--distance", "9", "--maximised", "1"), Charge(distance=9, maximised=1)),
        (("t9a", "charge", "--distance", "7", "--maximised", "1", "--minimised", "2"),
         Charge(distance=7, maximised=1, minimised=2)),
        (("t9a", "test", "--discipline", "8", "--minimised", "1"), DisciplineTest(discipline=8, minimised=1)),
        (("t9a", "direction"), Direction()),
    ],
)
def test_rolls(capsys, args, attack):
    data = exact_json(capsys, *args)
    assert_same(data["outcomes"], attack)


def test_charge_outcomes(capsys):
    data = exact_json(capsys, "t9a", "charge", "--distance", "9", "--maximised", "1")
    assert list(data["outcomes"]) == ["success", "sum"]
    assert data["outcomes"]["success"]["mean"] == pytest.approx(113 / 216)
    assert data["outcomes"]["sum"]["mean"] == pytest.approx(203 / 24)


def test_direction_outcome(capsys):
    data = exact_json(capsys, "t9a", "direction")
    assert list(data["outcomes"]) == ["hit"] and data["outcomes"]["hit"]["mean"] == pytest.approx(1 / 3)


def test_help_says_the_readings(capsys):
    for command in ("melee", "shoot"):
        result = run(capsys, "t9a", command, "--help")
        assert result.code == 0
        text = " ".join(result.out.split())
        for words in ("hopeless", "Battle Focus", "Poison", "capped", "carry over", "kills"):
            assert words in text, (command, words)


def fractions(outcome: dict) -> list[F]:
    return [F(text) for text in outcome["pmf_fractions"]]


def test_hits_worked_example(capsys):
    """2D6 automatic hits at Strength 4 on Resilience 3 and Armour 2, by hand: P(k hits) = (6 - |k - 7|)/36;
    each hit wounds on 3+ (2/3), and a wound is saved on 5+ (Armour 2): through 2/3 of the time."""
    outcomes = exact_json(capsys, *HITS, "--armour", "2", "--fractions")["outcomes"]
    two_d6 = {k: F(6 - abs(k - 7), 36) for k in range(2, 13)}
    assert list(outcomes) == ["health_lost", "hits", "wounds", "unsaved"]
    assert fractions(outcomes["hits"]) == [0, 0] + [two_d6[k] for k in range(2, 13)]  # no to-hit roll
    assert outcomes["wounds"]["mean"] == pytest.approx(7 * 2 / 3, abs=1e-12)
    assert outcomes["unsaved"]["mean"] == pytest.approx(7 * 4 / 9, abs=1e-12)  # 28/9
    # nothing lost: each of the k hits fails to wound or is saved, 1 - 4/9 = 5/9
    assert fractions(outcomes["health_lost"])[0] == sum(p * F(5, 9) ** k for k, p in two_d6.items())


def test_hits_rerolls_of_wounds_and_of_the_targets_saves(capsys):
    # 6 hits at Strength 4 on Resilience 4: 4+, 1s re-rolled: 1/2 + 1/6 × 1/2 = 7/12
    wounds = exact_json(capsys, "t9a", "hits", "--hits", "6", "--strength", "4", "--resilience", "4",
                        "--reroll-wounds", "ones", "--fractions")["outcomes"]["wounds"]
    assert fractions(wounds)[6] == F(7, 12) ** 6 and wounds["mean"] == pytest.approx(6 * 7 / 12, abs=1e-12)
    # Armour 3 saves on 4+, its 1s re-rolled: 7/12; Aegis 5+, its successes re-rolled: 1/3 × 1/3 = 1/9;
    # a hit goes through 1/2 × 5/12 × 8/9 = 5/27
    unsaved = exact_json(capsys, "t9a", "hits", "--hits", "6", "--strength", "4", "--resilience", "4", "--armour",
                         "3", "--reroll-armour", "ones", "--aegis", "5+", "--reroll-special", "successes",
                         "--fractions")["outcomes"]["unsaved"]
    assert fractions(unsaved)[0] == (1 - F(5, 27)) ** 6 and fractions(unsaved)[6] == F(5, 27) ** 6
    assert unsaved["mean"] == pytest.approx(6 * 5 / 27, abs=1e-12)


def test_shoot_rerolls_its_ones_and_the_target_its_failed_fortitude(capsys):
    # 12 shots at 4+, 1s re-rolled: 1/2 + 1/6 × 1/2 = 7/12; Strength 3 on Resilience 3: 4+; Fortitude 4+, the
    # failures re-rolled: 3/4 saved
    outcomes = exact_json(capsys, "t9a", "shoot", "--shots", "12", "--aim", "4+", "--strength", "3", "--resilience",
                          "3", "--reroll-hits", "ones", "--fortitude", "4+", "--reroll-special", "failed")["outcomes"]
    assert outcomes["hits"]["mean"] == pytest.approx(12 * 7 / 12, abs=1e-12)
    assert outcomes["unsaved"]["mean"] == pytest.approx(7 * 1 / 2 * 1 / 4, abs=1e-12)


def test_help_of_automatic_hits_and_of_shooting_a_breath_attack(capsys):
    shoot = " ".join(run(capsys, "t9a", "shoot", "--help").out.split())
    assert "A Breath Attack is not 2D6 shots" in shoot and "oddscalc t9a hits --hits 2d6" in shoot
    assert "--shots 2d6" not in shoot  # no example rolls a breath's hits to hit
    hits = " ".join(run(capsys, "t9a", "hits", "--help").out.split())
    assert "no die is rolled to hit" in hits and "capped" in hits and "carry over" in hits
    for words in ("hopeless", "Battle Focus's extra hits", "Poison's auto-wounds"):  # shooting's readings
        assert words not in hits, words


@pytest.mark.parametrize(
    "args, mentions",
    [
        ((*HITS, "--reroll-armour", "always"), ("--reroll-armour", "always", "none, failed, ones, successes")),
        ((*HITS, "--reroll-special", "1s"), ("--reroll-special", "1s")),
        ((*MELEE, "--reroll-wounds", "sixes"), ("--reroll-wounds", "sixes")),
        ((*SHOOT, "--reroll-hits", "FAILED!"), ("--reroll-hits", "FAILED!")),
        ((*HITS, "--reroll-hits", "ones"), ("--reroll-hits", "no die to hit")),
        ((*HITS, "--battle-focus"), ("--battle-focus", "automatic hits")),
        ((*HITS, "--auto-wound", "--reroll-wounds", "ones"), ("--reroll-wounds", "--auto-wound")),
        ((*MELEE, "--divine", "--aegis", "4+", "--reroll-special", "failed"), ("--reroll-special", "--divine")),
        (("t9a", "hits", "--hits", "2d10", "--strength", "4", "--resilience", "3"), ("--hits", "2d10", "D6 and D3")),
    ],
)
def test_a_bad_reroll_or_a_roll_that_is_not_there_is_one_line(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


@pytest.mark.parametrize(
    "args, mentions",
    [
        ((*MELEE, "--offensive", "0"), ("--offensive", "0")),
        ((*MELEE, "--strength", "11"), ("--strength", "11")),
        (("t9a", "shoot", "--shots", "10", "--aim", "1", "--strength", "3", "--resilience", "3"), ("--aim", "1")),
        ((*MELEE, "--aegis", "1"), ("--aegis", "1")),
        ((*MELEE, "--health", "0"), ("--health", "0")),
        (("t9a", "melee", "--attacks", "2z", "--offensive", "4", "--defensive", "4", "--strength", "4",
          "--resilience", "3"), ("--attacks", "2z")),
        (("t9a", "shoot", "--shots", "d", "--aim", "4", "--strength", "3", "--resilience", "3"), ("--shots",)),
        ((*MELEE, "--models", "5"), ("--models", "5", "--health")),
        ((*MELEE, "--multiple-wounds", "d3"), ("--multiple-wounds", "--health")),
        ((*MELEE, "--multiple-wounds", "x", "--health", "2"), ("--multiple-wounds", "x")),
        ((*MELEE, "--armour", "8+"), ("--armour", "8+")),
        ((*MELEE, "--armour", "9"), ("--armour", "9")),
        ((*MELEE, "--fortitude", "7"), ("--fortitude", "7")),
        ((*MELEE, "--reroll-hits", "all"), ("--reroll-hits", "all")),
        ((*MELEE, "--toxic"), ("--strength", "Toxic")),
        (("t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive", "4", "--resilience", "3"),
         ("--strength",)),
        ((*MELEE, "--defensive", "11"), ("--defensive", "11")),
        (("t9a", "charge", "--distance", "0"), ("--distance", "0")),
        (("t9a", "charge", "--distance", "8", "--maximised", "-1"), ("--maximised", "-1")),
        (("t9a", "test", "--discipline", "25"), ("--discipline", "25")),
        (("t9a", "test"), ("--discipline",)),
    ],
)
def test_bad_input_is_one_line(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)
