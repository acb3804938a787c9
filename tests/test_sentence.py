"""An answer in one sentence (oddscalc/output/sentence.py), its figures checked against hand counts."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from oddscalc.output import sentence
from oddscalc.query.asking import ask


def said(query: str, subject: bool = False) -> str:
    asked = ask(query.split())
    content = asked.answer.content
    return sentence.of_query(asked.attack, content.result, content.outcome, subject)


def best_two_of_three() -> list[int]:
    return [sum(sorted(roll)[-2:]) for roll in product(range(1, 7), repeat=3)]


def test_a_roll_says_its_mean_and_median():
    totals = best_two_of_three()  # 2d6 maximised once: an extra die, the lowest discarded
    mean = Fraction(sum(totals), len(totals))
    median = min(k for k in range(2, 13) if Fraction(sum(t <= k for t in totals), len(totals)) >= Fraction(1, 2))
    assert said("roll 2d6 --maximised 1 --exact") == \
        f"Totals {float(mean):.3g} on average ({median} or more half the time)."
    assert (float(mean), median) == pytest.approx((8.458, 9), abs=1e-3)


def test_yes_no_outcomes_say_their_chance():
    assert said("dust reactive --exact") == "33.3% to succeed."  # 1 in 3
    assert said("t9a direction --exact") == "33.3% to hit."  # two hit faces of six
    # the assault's result: both sides add two dice; a draw is a tie (73 of 648), a win half of the rest
    draw = Fraction(sum(a + b == c + d for a, b, c, d in product(range(1, 7), repeat=4)), 6 ** 4)
    assert draw == Fraction(73, 648)
    assert said("epic assault --exact") == f"{float((1 - draw) / 2) * 100:.3g}% to win; {float(draw) * 100:.3g}% to draw."


def test_a_formations_kills_and_breaking():
    exact = ask("epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --exact".split()).answer.content.result
    assert said("epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --exact") == (
        f"Kills {exact['kills'].mean:.3g} of 6 units on average; {100 * exact['broken'].at_least(1):.3g}% to break "
        "the formation.")
    assert said("epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --exact", subject=True).startswith(
        "Epic shooting: 12 shots at 4+ on 6 units, armour 4+: kills ")


def test_a_sampled_answer_says_about():
    words = said("dust attack --dice 3 --trials 2000 --seed 1")
    assert words.startswith("Deals about ") and "(about " not in words


def test_a_war_engine_is_destroyed_not_killed_and_its_damage_said():
    words = said("epic shoot --shots 4 --to-hit 2+ --weapon macro --war-engines 1 --damage-capacity 3 --shields 2 "
                 "--armour 5+ --exact")
    assert words.startswith("Destroys 0 of 1 war engines on average; deals ")  # 2 hits past 2 shields: DC 3 stands
    assert "damage on average" in words and "to break the formation" in words


def test_a_comparison_says_who_beats_whom():
    beats = Fraction(sum(a + b > c for a, b, c in product(range(1, 7), repeat=3)), 216)
    content = ask(["compare", "roll 2d6", "roll d6", "--exact"]).answer.content
    assert sentence.of_study(content) == (f"#1 (roll 2d6) beats #2 (roll d6) {float(beats) * 100:.3g}% of the time; "
                                          "mean sum 7 against 3.5.")


def test_a_sweep_says_its_goal_and_a_grid_its_first_row():
    content = ask(["sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact", "--goal", "mean>=8"]).answer.content
    assert sentence.of_study(content).startswith("Goal mean sum ≥ 8: the smallest maximised is 1")
    plain = ask(["sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact"]).answer.content
    assert sentence.of_study(plain) == (f"3 values of maximised: the mean sum goes from 7 to "
                                        f"{sum(best_two_of(4)) / 6 ** 4:.3g}.")
    grid = ask(["grid", "--game", "epic", "--exact", "--attackers", "Whirlwind Battery"]).answer.content
    first = grid.rows[0]
    assert sentence.of_study(grid) == (f"{len(grid.rows)} cells; first by per_100_points: Whirlwind Battery's "
                                       f"{first['weapon']} against {first['target']}, per 100 points "
                                       f"{first['per_100_points']:.3g}.")


def best_two_of(dice: int) -> list[int]:
    return [sum(sorted(roll)[-2:]) for roll in product(range(1, 7), repeat=dice)]


@pytest.mark.parametrize("value, shown", [(0, "0"), (3.0, "3"), (2.8310, "2.83"), (1234.4, "1234"), (99.95, "100"),
                                          (0.000123, "0.000123"), (0.0000123, "0.000012"), (12, "12"), (-0.5, "-0.5")])
def test_a_figure_in_a_sentence(value, shown):
    assert sentence.short(value) == shown


@pytest.mark.parametrize("p, shown", [(1.0, "100%"), (0.9999999, "100%"), (0.0, "0%"), (0.5924, "59.2%"),
                                      (1.23e-6, "0.000123%")])
def test_a_chance_in_a_sentence(p, shown):
    assert sentence.chance(p) == shown


def test_an_engagement_counts_its_kills_of_the_enemy_and_its_own_losses():
    """One unit a side, CC 4+, no save, one round: P(win) = 1/4 + 1/4 · 575/1296, and each side loses its unit
    with 1/2 + 1/4 · 575/1296 (docs/rules.md §2.9's worked example)."""
    query = ("epic assault --units 1 --cc 4+ --ff none --armour none --enemy-units 1 --enemy-cc 4+ --enemy-ff none "
             "--enemy-armour none --rounds 1 --exact")
    win = Fraction(1, 4) + Fraction(1, 4) * Fraction(575, 1296)
    lost = Fraction(1, 2) + Fraction(1, 4) * Fraction(575, 1296)
    draw = Fraction(1, 4) * Fraction(146, 1296)
    events = f"{float(win) * 100:.3g}% to win; {float(draw) * 100:.3g}% to draw; {float(lost) * 100:.3g}% to destroy " \
             "the target."
    assert said(query) == events[:1].upper() + events[1:]
    assert said(query + " --outcome kills") == f"Kills {float(lost):.3g} of 1 units on average; {events}"
    assert said(query + " --outcome losses") == f"Loses {float(lost):.3g} of its own units on average; {events}"


def test_a_combat_says_its_win_draw_break_and_caught():
    """One model a side, to hit and to wound 4+, no save (docs/rules.md §3.11's worked example): 13/16 to win,
    never a draw (the enemy that kills the charger stands alone: No More Foes), 9/16 · 21/36 that the loser breaks,
    and that times 721/1296 that it is caught."""
    duel = " ".join(f"--{prefix}{name} {value}" for prefix in ("", "enemy-") for name, value in (
        ("models", 1), ("width", 1), ("attacks", 1), ("offensive", 3), ("defensive", 3), ("strength", 3),
        ("resilience", 3), ("agility", 3), ("discipline", 7)))
    broke = Fraction(9, 16) * Fraction(21, 36)
    assert said(f"t9a combat {duel} --exact") == (
        f"{13 / 16 * 100:.3g}% to win; 0% to draw; {float(broke) * 100:.3g}% to break the charged unit; "
        f"{float(broke * Fraction(721, 1296)) * 100:.3g}% to catch it; 0% that the charger breaks; 0% that the "
        "charger is caught.")  # the loser is always the charged unit here: the charger never tests
    # the enemy strikes first (Agility 5 against 3 + 1) with a Standard, on a charger of 2 Health Points: it
    # wounds (1/4), the charger misses back (3/4): 1 + the Standard against the Charge, lost by 1, broken on 7 or
    # more (21/36); a charger that kills back stands alone, and both missing is 1 all (no test)
    stronger = duel.replace("--enemy-agility 3", "--enemy-agility 5") + " --enemy-standard --health 2"
    lost = Fraction(1, 4) * Fraction(3, 4) * Fraction(21, 36)
    assert f"{float(lost) * 100:.3g}% that the charger breaks" in said(f"t9a combat {stronger} --exact")


def test_a_sweep_of_a_query_with_several_outcomes_counts_its_values_and_reads_its_main_outcome():
    """A barrage answers kills, blast markers and broken: a row each per value; the sentence counts the values
    (not the rows) and follows kills from the first value to the last (each its own query's exact mean)."""
    content = ask(["sweep", "epic barrage --units 4 --armour 4+", "--vary", "bp=1..18", "--exact"]).answer.content
    first, last = (ask(["epic", "barrage", "--units", "4", "--armour", "4+", "--bp", str(bp), "--exact"])
                   .answer.content.result["kills"].mean for bp in (1, 18))
    assert len(content.rows) == 54 and sentence.of_study(content) == (
        f"18 values of bp: the mean kills goes from {sentence.short(first)} to {sentence.short(last)}.")


def test_a_duel_says_who_falls():
    """One model a side and a character each (Agility 5, one attack, each kills with 1/4), in a Duel, one round:
    the charger's character strikes first (6): the charged unit's falls with 1/4 at least; the other strikes back
    only if it stands: 3/4 · 1/4 = 3/16 at least (more when its unit breaks and is caught); the sentence says each
    exact figure in the charger's words."""
    sides = " ".join(f"--{prefix}{name} {value}" for prefix in ("", "enemy-") for name, value in (
        ("models", 1), ("width", 1), ("attacks", 1), ("offensive", 3), ("defensive", 3), ("strength", 3),
        ("resilience", 3), ("agility", 0), ("discipline", 7)))
    hero = "attacks=1,offensive=3,defensive=3,strength=3,resilience=3,agility=5,health=1"
    words = ["t9a", "combat", *sides.split(), "--character", hero.replace("=", " ").replace(",", " "),
             "--enemy-character", hero.replace("=", " ").replace(",", " "), "--challenge", "--exact"]
    asked = ask(words)
    content = asked.answer.content
    text = sentence.of_query(asked.attack, content.result, content.outcome)
    exact = asked.attack.exact(fractions=True)
    assert f"{float(exact['character_slain'][1]) * 100:.3g}% that the charger's character falls" in text
    assert f"{float(exact['enemy_character_slain'][1]) * 100:.3g}% to slay the charged unit's character" in text
    assert exact["character_slain"][1] >= Fraction(3, 16) and exact["enemy_character_slain"][1] >= Fraction(1, 4)
    assert sentence.words("enemy_character_slain") == "the charged unit's character falls"
