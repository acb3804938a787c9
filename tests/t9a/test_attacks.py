"""The 9th Age (docs/rules.md §3): the tables and worked examples exactly, a tabletop-style
player over every combination of natural faces for small cases, and every sampler
against its exact twin."""

from fractions import Fraction

import cases
import pytest
from agreement import assert_marginals, enumerate_faces, exact_list, mean

from oddscalc.core import pmf as pmfs
from oddscalc.errors import InputError
from oddscalc.t9a import Melee, T9AHits, T9AShoot, armour_need, melee_need, wound_need
from oddscalc.t9a.rolls import Direction

F = Fraction

BASE = cases.T9A_BASE  # 4+ to hit (OS = DS), 3+ to wound (S - R = 1)

CASES = cases.T9A


# --- the tables in play: natural 1s and 6s (§3.3–§3.6) ---------------------------------


@pytest.mark.parametrize("modifier", range(-7, 8))
@pytest.mark.parametrize("offensive, defensive", [(8, 2), (5, 3), (4, 4), (2, 6), (1, 10)])
def test_melee_natural_one_fails_and_six_hits(offensive, defensive, modifier):
    attack = Melee(attacks=1, offensive=offensive, defensive=defensive, strength=3, resilience=3,
                   hit_modifier=modifier)
    need = melee_need(offensive, defensive) - modifier
    expected = min(max(F(7 - need, 6), F(1, 6)), F(5, 6))  # §3.3: clamp((7 − need)/6, 1/6, 5/6)
    assert exact_list(attack.exact(fractions=True)["hits"]) == [1 - expected, expected]


@pytest.mark.parametrize("modifier", range(-6, 5))
@pytest.mark.parametrize("aim", range(2, 7))
def test_shooting_to_hit(aim, modifier):
    attack = T9AShoot(shots=1, aim=aim, modifier=modifier, strength=3, resilience=3)
    need = aim - modifier
    # §3.4: a natural 1 misses; 7+ is a 6 then 4+ (1/12); 8+ cannot hit
    expected = F(7 - max(need, 2), 6) if need <= 6 else F(1, 12) if need == 7 else F(0)
    assert attack.exact(fractions=True)["hits"][1] == expected


@pytest.mark.parametrize("strength, resilience", [(6, 3), (4, 3), (3, 3), (3, 4), (1, 8)])
def test_to_wound_natural_one_and_six(strength, resilience):
    attack = Melee(attacks=1, offensive=10, defensive=1, strength=strength, resilience=resilience, hit_modifier=5)
    need = wound_need(strength, resilience)
    wound = F(7 - need, 6)
    assert attack.exact(fractions=True)["wounds"][1] == F(5, 6) * wound


@pytest.mark.parametrize("armour, ap", [(0, 0), (1, 0), (2, 0), (3, 1), (5, 0), (6, 0), (6, 3), (2, 2)])
def test_armour_save_chance(armour, ap):
    attack = Melee(attacks=1, offensive=10, defensive=1, strength=10, resilience=1, hit_modifier=5, armour=armour,
                   ap=ap)
    need = armour_need(armour, ap)
    saved = F(0) if need is None else F(7 - need, 6)  # a natural 1 fails: 2+ is 5/6 at best
    assert attack.chances().unsaved == 1 - saved


# --- the worked examples (§3.1, §3.8) ----------------------------------------------------


def test_worked_example_unsaved_wounds():
    # 10 attacks, 4+ to hit, 3+ to wound, 5+ armour save, Aegis 5+: 10 · 1/2 · 2/3 · 2/3 · 2/3
    exact = CASES["melee worked example (4+/3+/5+/Aegis 5+)"].exact(fractions=True)
    assert mean(exact["unsaved"]) == F(40, 27)
    assert exact_list(exact["unsaved"]) == exact_list(pmfs.binomial(10, F(4, 27)))


def test_worked_example_lethal_strike():
    # Lethal Strike, 5+ to wound, 3+ armour save: P(unsaved per hit) = 1/6 + 1/6 · 1/3 = 2/9
    attack = CASES["melee Lethal Strike"]
    chances = attack.chances()
    assert chances.wound * chances.unsaved + chances.lethal * chances.lethal_unsaved == F(2, 9)
    exact = attack.exact(fractions=True)
    assert mean(exact["unsaved"]) == mean(exact["hits"]) * F(2, 9)


def test_worked_example_multiple_wounds():
    # Multiple Wounds (D3) against 2 Health Points: (1 + 2 + 2)/3 = 5/3 per unsaved wound
    exact = CASES["melee Multiple Wounds (D3) vs 2 Health"].exact(fractions=True)
    assert mean(exact["health_lost"]) == mean(exact["unsaved"]) * F(5, 3)


def test_rerolls_each_die_once():
    # §3.1: Hatred turns 4+ into 3/4; Flaming against Flammable plus --reroll-wounds still re-rolls once
    hatred = Melee(attacks=1, **BASE, reroll_hits="failed").exact(fractions=True)
    assert hatred["hits"][1] == F(3, 4)
    both = Melee(attacks=1, offensive=10, defensive=1, hit_modifier=5, strength=3, resilience=4, flaming=True,
                 flammable=True, reroll_wounds="failed")
    assert both.exact(fractions=True)["wounds"][1] == F(5, 6) * (1 - F(4, 6) ** 2)


def test_flaming_without_flammable_does_not_reroll():
    attack = Melee(attacks=1, offensive=10, defensive=1, hit_modifier=5, strength=3, resilience=4, flaming=True)
    assert attack.exact(fractions=True)["wounds"][1] == F(5, 6) * F(2, 6)


def test_toxic_is_strength_3_and_ap_10():
    toxic = Melee(attacks=5, offensive=4, defensive=4, resilience=4, toxic=True, armour=6, aegis=5)
    plain = Melee(attacks=5, offensive=4, defensive=4, strength=3, resilience=4, ap=10, armour=6, aegis=5)
    for name in toxic.outcomes:
        assert exact_list(toxic.exact(fractions=True)[name]) == exact_list(plain.exact(fractions=True)[name])


def test_flaming_denies_fortitude():
    flaming = CASES["melee Flaming: no Fortitude"]
    aegis_only = Melee(attacks=10, **BASE, armour=2, aegis=6)
    for name in flaming.outcomes:
        assert exact_list(flaming.exact(fractions=True)[name]) == exact_list(aegis_only.exact(fractions=True)[name])


# --- brute force: a tabletop player over every combination of natural faces ---------------


def play(attack, faces):
    """Fight the attack the tabletop way, reading natural D6 faces in order.

    Returns (health_lost, hits, wounds, unsaved[, kills]). Written from docs/rules.md §3
    directly, one die at a time, to check the exact twin.
    """
    dice = iter(faces)

    def roll():
        return next(dice)

    def d3_or_d6(sides):
        face = roll()
        return (face + 1) // 2 if sides == 3 else face

    melee = isinstance(attack, Melee)
    automatic = isinstance(attack, T9AHits)
    need = None if automatic else attack.hit_check.need

    def one_hit():
        first = roll()
        if melee:
            hit = first != 1 and (first == 6 or first >= need)
        elif need <= 6:
            hit = first != 1 and first >= need
        elif need == 7:
            hit = first == 6 and roll() >= 4
        else:
            hit = False
        return hit, hit and first == 6, first

    def to_hit():
        if automatic:  # no roll: a hit, never a natural 6
            return True, False
        hit, six, first = one_hit()
        if again(attack.reroll_hits.value, hit, first):
            hit, six, _ = one_hit()
        return hit, six

    strength = 3 if attack.toxic else attack.strength
    difference = strength - attack.resilience
    wound = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6}[min(max(difference, -2), 2)]
    rerolls_wounds = attack.reroll_wounds.value == "failed" or (attack.flaming and attack.flammable)

    def to_wound():
        if attack.auto_wound:  # no roll: a wound, never a natural 6
            return True, False
        face = roll()
        wounded = face != 1 and (face == 6 or face >= wound)
        if again("failed" if rerolls_wounds else attack.reroll_wounds.value, wounded, face):
            face = roll()
            wounded = face != 1 and (face == 6 or face >= wound)
        return wounded, wounded and face == 6 and attack.lethal_strike

    def passes(need, policy="none"):
        face = roll()
        success = face != 1 and face >= need
        if again(policy, success, face):
            face = roll()
            success = face != 1 and face >= need
        return success

    def saved(lethal):
        ap = 10 if lethal or attack.toxic else attack.ap
        left = attack.armour - ap
        if left > 0 and passes(max(7 - left, 2), attack.reroll_armour.value):
            return True
        offered = []
        if attack.aegis is not None:
            chance = F(7 - attack.aegis, 6)
            offered.append((chance**2 if attack.divine else chance, "aegis"))
        if attack.fortitude is not None and not lethal and not attack.flaming:
            offered.append((F(7 - attack.fortitude, 6), "fortitude"))
        if not offered:
            return False
        kind = max(offered, key=lambda pair: pair[0])[1]
        if kind == "fortitude":
            return passes(attack.fortitude, attack.reroll_special.value)
        if attack.divine:
            return passes(attack.aegis) and passes(attack.aegis)
        return passes(attack.aegis, attack.reroll_special.value)

    health = attack.health or 1
    count = attack.count
    attacks = count.modifier + sum(d3_or_d6(count.sides) for _ in range(count.count))
    hits = rolled = wounds = unsaved = lost = 0
    for _ in range(max(attacks, 0)):
        hit, six = to_hit()
        if six and attack.poison:
            hits, wounds = hits + 1, wounds + 1
            unsaved_now = not saved(False)
            unsaved += unsaved_now
            if unsaved_now:
                lost += multiple_wounds(attack, d3_or_d6, health)
        if hit and not (six and attack.poison):
            rolled += 1
        if six and attack.battle_focus:
            rolled += 1
    hits += rolled
    for _ in range(rolled):
        wounded, lethal = to_wound()
        if wounded:
            wounds += 1
            if not saved(lethal):
                unsaved += 1
                lost += multiple_wounds(attack, d3_or_d6, health)
    if attack.models is None:
        return lost, hits, wounds, unsaved
    return min(lost, attack.models * health), hits, wounds, unsaved, min(lost // health, attack.models)


def again(policy: str, success: bool, face: int) -> bool:
    """Whether a die is rolled again: §3.1, as the rule in force says (each die once)."""
    return {"failed": not success, "ones": not success and face == 1, "successes": success}.get(policy, False)


def multiple_wounds(attack, d3_or_d6, health):
    expression = attack.multiple_wounds
    if expression is None:
        return 1
    total = expression.modifier + sum(d3_or_d6(expression.sides) for _ in range(expression.count))
    return min(max(total, 0), health)


BRUTE_FORCE = {
    # name: (attack, natural D6 enough for the longest path)
    "Battle Focus and Poison": (Melee(attacks=1, **BASE, battle_focus=True, poison=True, armour=1), 5),
    "Battle Focus and Poison, re-rolled hits": (
        Melee(attacks=1, offensive=4, defensive=4, strength=3, resilience=3, battle_focus=True, poison=True,
              reroll_hits="failed"), 4),
    "Battle Focus and Poison, 2 attacks": (
        Melee(attacks=2, offensive=4, defensive=4, strength=3, resilience=4, battle_focus=True, poison=True), 6),
    "Poison and Lethal Strike": (Melee(attacks=1, **BASE, poison=True, lethal_strike=True, armour=5), 3),
    "Lethal Strike and Fortitude": (Melee(attacks=1, **BASE, lethal_strike=True, armour=4, fortitude=4), 4),
    "Lethal Strike, Fortitude and Aegis": (
        Melee(attacks=1, **BASE, lethal_strike=True, armour=2, fortitude=3, aegis=5), 4),
    "Lethal Strike, re-rolled wounds, Fortitude": (
        Melee(attacks=1, offensive=4, defensive=4, strength=3, resilience=4, lethal_strike=True,
              reroll_wounds="failed", armour=3, fortitude=5), 5),
    "Divine: Aegis taken and re-rolled": (Melee(attacks=1, **BASE, armour=2, aegis=2, fortitude=4, divine=True), 5),
    "Divine: Fortitude taken": (Melee(attacks=1, **BASE, armour=1, aegis=4, fortitude=4, divine=True), 4),
    "Flaming, Flammable, Fortitude": (
        Melee(attacks=1, offensive=4, defensive=4, strength=3, resilience=4, flaming=True, flammable=True,
              armour=2, fortitude=3), 5),
    "Toxic against Armour 6": (Melee(attacks=1, offensive=4, defensive=4, resilience=3, toxic=True, armour=6,
                                     aegis=5), 3),
    "hopeless shot, Battle Focus and Poison, re-rolled": (
        T9AShoot(shots=1, aim=5, modifier=-2, strength=4, resilience=4, battle_focus=True, poison=True,
              reroll_hits="failed"), 6),
    "hopeless shot, Poison, armour": (T9AShoot(shots=1, aim=4, modifier=-3, strength=4, resilience=4, poison=True,
                                           armour=3), 3),
    "shot at -1, Battle Focus": (T9AShoot(shots=1, aim=3, modifier=-1, strength=4, resilience=4, battle_focus=True,
                                       armour=1), 5),
    "Multiple Wounds (D3+1) vs 3 Health": (Melee(attacks=1, **BASE, armour=2, multiple_wounds="d3+1", health=3), 4),
    "Multiple Wounds (2D6) vs 5 Health": (Melee(attacks=1, **BASE, multiple_wounds="2d6", health=5), 4),
    "2 attacks, D3 wounds, 2 models of 2": (
        Melee(attacks=2, **BASE, multiple_wounds="d3", health=2, models=2), 6),
    "D3-1 attacks, 2 models of 1": (
        Melee(attacks="d3-1", offensive=4, defensive=4, strength=3, resilience=3, health=1, models=2), 5),
    # re-rolling only natural 1s (§3.1), to hit and to wound
    "re-roll 1s to hit, Battle Focus": (Melee(attacks=1, **BASE, reroll_hits="ones", battle_focus=True, armour=1), 6),
    "re-roll 1s to wound, Lethal Strike": (Melee(attacks=1, **BASE, reroll_wounds="ones", lethal_strike=True,
                                                 armour=3), 4),
    "hopeless shot, re-roll 1s": (T9AShoot(shots=1, aim=4, modifier=-3, strength=4, resilience=4,
                                           reroll_hits="ones", poison=True), 5),
    "Flaming against Flammable over re-roll 1s": (
        Melee(attacks=1, **BASE, flaming=True, flammable=True, reroll_wounds="ones", fortitude=4), 4),
    # forced re-rolls of successes, and the target's re-rolls of its saves (§3.1)
    "re-roll successful hits and wounds": (Melee(attacks=1, **BASE, reroll_hits="successes",
                                                 reroll_wounds="successes", lethal_strike=True), 5),
    "target re-rolls failed armour and Fortitude saves": (
        Melee(attacks=1, **BASE, armour=3, fortitude=5, reroll_armour="failed", reroll_special="failed"), 6),
    "target re-rolls 1s on armour, successful Aegis": (
        Melee(attacks=1, **BASE, armour=2, aegis=4, reroll_armour="ones", reroll_special="successes"), 6),
    "wounds automatically, Poison": (Melee(attacks=2, **BASE, auto_wound=True, poison=True, armour=2), 4),
    # automatic hits (§3.10): no to-hit roll
    "2 automatic hits, Lethal Strike, Aegis": (T9AHits(hits=2, strength=4, resilience=4, lethal_strike=True,
                                                       armour=3, aegis=5), 6),
    "D3 automatic hits, Multiple Wounds (2)": (T9AHits(hits="d3", strength=5, resilience=4, multiple_wounds=2,
                                                       health=2, models=2), 7),
}


@pytest.mark.parametrize("name", BRUTE_FORCE)
def test_exact_matches_tabletop_brute_force(name):
    attack, dice = BRUTE_FORCE[name]
    joint = enumerate_faces((6,) * dice, lambda *faces: play(attack, faces))
    assert_marginals(attack.exact(fractions=True), attack.outcomes, joint)


def test_exact_rationals_that_would_take_long_are_refused_before_any_work(monkeypatch):
    """200 attacks of Multiple Wounds (3d6) on 20 HP models: rationals of 3,600 values, their
    denominators growing with each attack (measured 114 s): refused at once; floats answer."""
    import oddscalc.core.pmf as pmf_module

    big = Melee(attacks="200", offensive=4, defensive=4, strength=4, resilience=4, models=500, health=20,
                multiple_wounds="3d6")
    assert big.exact()["health_lost"].sum() == pytest.approx(1)  # floats: quick

    def no_work(*_):
        raise AssertionError("a convolution ran before the refusal")

    monkeypatch.setattr(pmf_module, "convolve", no_work)
    with pytest.raises(InputError) as error:
        big.exact(fractions=True)
    assert error.value.name == "exact" and "drop --fractions (exact floats are quick)" in error.value.allowed
    monkeypatch.undo()
    small = Melee(attacks="10", offensive=4, defensive=4, strength=4, resilience=4, models=500, health=3,
                  multiple_wounds="3d6")
    assert sum(small.exact(fractions=True)["health_lost"]) == 1  # 31 values: answered


def test_battle_focus_and_poison_one_attack_exactly():
    # 4+ to hit, 3+ to wound, Armour 1 (6+): a natural 6 is one auto-wound and one hit that rolls
    exact = BRUTE_FORCE["Battle Focus and Poison"][0].exact(fractions=True)
    assert exact_list(exact["hits"]) == [F(1, 2), F(1, 3), F(1, 6)]
    assert exact_list(exact["wounds"]) == [F(1, 2) + F(1, 3) * F(1, 3), F(1, 3) * F(2, 3) + F(1, 6) * F(1, 3),
                                           F(1, 6) * F(2, 3)]


def test_lethal_strike_ignores_fortitude_exactly():
    # 3+ to wound; Armour 4 (3+ save), Fortitude 4+: an ordinary wound gets through with 1/3 · 1/2;
    # a Lethal Strike wound (a natural 6) has neither the armour save nor Fortitude
    attack = BRUTE_FORCE["Lethal Strike and Fortitude"][0]
    chances = attack.chances()
    assert (chances.wound, chances.lethal) == (F(3, 6), F(1, 6))
    assert chances.unsaved == F(1, 3) * F(1, 2)
    assert chances.lethal_unsaved == 1


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, name",
    [
        (dict(offensive=0), "offensive"),
        (dict(defensive=11), "defensive"),
        (dict(strength=11), "strength"),
        (dict(strength=None), "strength"),
        (dict(resilience=0), "resilience"),
        (dict(aegis=1), "aegis"),
        (dict(fortitude=7), "fortitude"),
        (dict(health=0), "health"),
        (dict(models=3), "models"),
        (dict(multiple_wounds="d3"), "multiple_wounds"),
        (dict(multiple_wounds="4d6", health=3), "multiple_wounds"),
        (dict(multiple_wounds="2q", health=3), "multiple_wounds"),
        (dict(attacks="2z"), "attacks"),
        (dict(attacks=0), "attacks"),
        (dict(attacks=201), "attacks"),
        (dict(armour=7), "armour"),
        (dict(ap=11), "ap"),
        (dict(hit_modifier=11), "hit_modifier"),
        (dict(reroll_hits="all"), "reroll_hits"),
        (dict(toxic=True), "strength"),
        (dict(toxic=True, strength=None, ap=2), "ap"),
        (dict(models=0, health=2), "models"),
    ],
)
def test_bad_melee_options(options, name):
    settings = dict(attacks=10, **BASE)
    settings.update(options)
    with pytest.raises(InputError) as error:
        Melee(**settings)
    assert error.value.name == name


@pytest.mark.parametrize("options, name", [(dict(aim=1), "aim"), (dict(aim=7), "aim"), (dict(shots="x"), "shots"),
                                           (dict(modifier=-11), "modifier")])
def test_bad_shoot_options(options, name):
    settings = dict(shots=10, aim=4, strength=3, resilience=3)
    settings.update(options)
    with pytest.raises(InputError) as error:
        T9AShoot(**settings)
    assert error.value.name == name


def test_descriptions_count_in_the_singular_and_the_plural():
    one = Melee(attacks="1", offensive=3, defensive=3, strength=3, resilience=3, models=1, health=1)
    assert one.describe() == "T9A melee: 1 attack, OS 3 vs DS 3, S 3 vs R 3, Armour 0, 1 model of 1 HP"
    many = T9AShoot(shots="2d6", aim=3, strength=3, resilience=3, models=2, health=1)
    assert many.describe() == "T9A shooting: 2d6 shots at Aim 3+, S 3 vs R 3, Armour 0, 2 models of 1 HP"


@pytest.mark.parametrize("make, name, value", [
    (lambda: Melee(attacks="2d10", offensive=3, defensive=3, strength=3, resilience=3), "attacks", "2d10"),
    (lambda: T9AShoot(shots="d8", aim=3, strength=3, resilience=3), "shots", "d8"),
    (lambda: Melee(attacks="5", offensive=3, defensive=3, strength=3, resilience=3, health=2, multiple_wounds="d4"),
     "multiple_wounds", "d4"),
    (lambda: Direction(scatter="2d10"), "scatter", "2d10"),
])
def test_dice_the_game_does_not_roll_are_refused(make, name, value):
    with pytest.raises(InputError) as error:
        make()
    assert (error.value.name, str(error.value.value)) == (name, value)
    assert error.value.allowed == "The 9th Age rolls D6 and D3 only: expected dice like 2d6, d3+1 or a number"


def test_a_count_over_the_cap_is_refused_with_the_counts_own_limit():
    for attacks in ("500", "100000"):  # not the dice parser's "at most 1000" for one and "1 to 200" for the other
        with pytest.raises(InputError) as error:
            Melee(attacks=attacks, offensive=3, defensive=3, strength=3, resilience=3)
        assert error.value.allowed == "expected a number or dice (10, 2d6, d6+1) that can reach 1 to 200"


def test_the_shooting_modifiers_by_name_add_up_as_the_sum_given_as_a_number():
    """§3.4: long range −1, moving −1, stand and shoot −1, soft cover −1, hard cover −2, Hard Target (X) −X."""
    base = dict(shots="6", aim=3, strength=4, resilience=3)
    named = T9AShoot(**base, long_range=True, moving=True, cover="hard", hard_target=1, modifier=1)
    assert named.total_modifier == -1 - 1 - 2 - 1 + 1
    assert named.exact(fractions=True)["hits"] == T9AShoot(**base, modifier=-4).exact(
        fractions=True)["hits"]
    # Aim 3+ at −4 is 7+: a hopeless shot, a 6 then 4+ (1/12)
    assert named.chances().plain_hit + named.chances().six_hit == Fraction(1, 12)
    assert T9AShoot(**base, stand_and_shoot=True, cover="soft").total_modifier == -2
    with pytest.raises(InputError) as error:
        T9AShoot(**base, hard_target=4)
    assert error.value.name == "hard_target"


def test_re_rolling_1s_and_automatic_hits_by_hand():
    """§3.1: a natural 1 rolled again: 3+ to wound becomes 2/3 + 1/6 × 2/3 = 7/9, and a natural 6
    1/6 + 1/36 (Lethal Strike). §3.10: 2D6 automatic hits (a Breath Attack, Str 4 AP 1) on R 4 and
    Armour 2: 7 × 1/2 × 5/6 = 35/12 Health Points lost."""
    chances = Melee(attacks=1, **BASE, reroll_wounds="ones", lethal_strike=True).chances()
    assert chances.wound + chances.lethal == F(7, 9) and chances.lethal == F(7, 36)
    breath = T9AHits(hits="2d6", strength=4, ap=1, resilience=4, armour=2, flaming=True)
    assert sum(k * p for k, p in enumerate(breath.exact(fractions=True)["health_lost"])) == F(35, 12)
    assert breath.describe() == "T9A automatic hits: 2d6 hits, S 4 vs R 4, Armour 2 AP 1, flaming"
    for field in ("battle_focus", "poison"):
        with pytest.raises(InputError) as error:
            T9AHits(hits=2, strength=4, resilience=4, **{field: True})
        assert error.value.name == field
    with pytest.raises(InputError) as error:
        T9AHits(hits=2, strength=4, resilience=4, reroll_hits="ones")
    assert error.value.name == "reroll_hits"


def test_forced_and_defensive_re_rolls_by_hand():
    """§3.1: successes rolled again: 4+ to hit stands at 1/2 × 1/2; a target re-rolling failed 4+ armour
    saves keeps 1 − (1/2)² = 3/4; Divine and a re-rolled special save together are refused."""
    forced = Melee(attacks=1, offensive=4, defensive=4, strength=4, resilience=4, reroll_hits="successes").chances()
    assert forced.plain_hit + forced.six_hit == F(1, 4) and forced.six_hit == F(1, 2) * F(1, 6)
    guarded = Melee(attacks=1, offensive=4, defensive=4, strength=4, resilience=4, armour=3, reroll_armour="failed")
    assert guarded.chances().unsaved == F(1, 4)
    with pytest.raises(InputError) as error:
        Melee(attacks=1, offensive=4, defensive=4, strength=4, resilience=4, aegis=4, divine=True,
              reroll_special="failed")
    assert error.value.name == "reroll_special"
    assert "re-roll failed armour saves" in guarded.describe()
    with pytest.raises(InputError) as error:  # nothing to re-roll: refused, not ignored
        Melee(attacks=1, offensive=4, defensive=4, strength=4, resilience=4, armour=3, reroll_special="failed")
    assert (error.value.name, error.value.value) == ("reroll_special", "failed")
    assert "--aegis X+ or --fortitude X+" in error.value.allowed


# --- the exact answer without arrays: a binomial per outcome where each attack gives at most 1 of it -----------

BERNOULLI = [
    Melee(attacks=10, offensive=4, defensive=4, strength=4, resilience=4),
    Melee(attacks=7, offensive=6, defensive=3, strength=5, resilience=3, armour=2, aegis=5, lethal_strike=True,
          reroll_hits="failed", models=3, health=2),
    Melee(attacks=12, offensive=2, defensive=9, strength=3, resilience=6, fortitude=4, reroll_wounds="ones",
          models=20, health=1),
    T9AShoot(shots=8, aim=4, long_range=True, strength=4, resilience=3, armour=3, modifier=-2),
    T9AHits(hits=6, strength=5, resilience=4, ap=1, armour=3, models=4, health=3),
    Melee(attacks=6, offensive=4, defensive=4, strength=4, resilience=4, auto_wound=True, aegis=4, divine=True),
    Melee(attacks=9, offensive=5, defensive=3, strength=3, resilience=4, flaming=True, flammable=True,
          armour=3, ap=1, reroll_armour="failed", reroll_special="ones", fortitude=5, hit_modifier=-1),
    Melee(attacks=1, offensive=1, defensive=10, strength=1, resilience=10, models=1, health=1),  # one attack
]


@pytest.mark.parametrize("attack", BERNOULLI, ids=lambda attack: attack.describe())
def test_an_attack_of_at_most_one_of_each_outcome_is_binomials_the_array_path_s_term_for_term(attack, monkeypatch):
    assert attack._bernoulli()
    plain = {number: attack.pmfs(number) for number in (Fraction, float)}
    monkeypatch.setattr(type(attack), "_bernoulli", lambda self: False)
    arrays = {number: attack.pmfs(number) for number in (Fraction, float)}
    assert all(isinstance(pmf, tuple) for pmf in plain[float].values())
    assert list(plain[Fraction]) == list(arrays[Fraction]) == list(attack.outcomes)
    for name, pmf in arrays[Fraction].items():
        assert plain[Fraction][name] == tuple(pmfs.trim(pmf)), name  # the very same Fractions
        floats = list(plain[float][name]) + [0.0] * (len(arrays[float][name]) - len(plain[float][name]))
        assert max(abs(a - b) for a, b in zip(floats, arrays[float][name])) < 1e-15, name


@pytest.mark.parametrize("changes", [dict(attacks="2d6"), dict(poison=True), dict(battle_focus=True),
                                     dict(multiple_wounds="d3", health=3)])
def test_more_than_one_of_an_outcome_from_an_attack_takes_the_arrays(changes):
    attack = Melee(**{**dict(attacks=10, offensive=4, defensive=4, strength=4, resilience=4), **changes})
    assert not attack._bernoulli() and not isinstance(attack.pmfs(float)["hits"], tuple)
