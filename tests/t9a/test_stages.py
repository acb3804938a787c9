"""The 9th Age's tables (docs/rules.md §3.3 to §3.7): the roll needed to hit in melee, to wound and
to save, and the special save a target takes."""

from oddscalc.t9a import armour_need, melee_need, wound_need
from oddscalc.t9a.stages import Special, SpecialSave, special_save


# --- the tables (§3.3–§3.6) -------------------------------------------------------------


def test_melee_to_hit_table():
    # §3.3: ≥ 4: 2+; 1 to 3: 3+; 0 to −3: 4+; −4 to −7: 5+; ≤ −8: 6+
    rows = [(4, 9, 2), (1, 3, 3), (-3, 0, 4), (-7, -4, 5), (-9, -8, 6)]
    for offensive in range(1, 11):
        for defensive in range(1, 11):
            difference = offensive - defensive
            expected = next(need for low, high, need in rows if low <= difference <= high)
            assert melee_need(offensive, defensive) == expected


def test_to_wound_chart():
    rows = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6}  # §3.5 (beyond ±2 the ends repeat)
    for strength in range(1, 11):
        for resilience in range(1, 11):
            difference = min(max(strength - resilience, -2), 2)
            assert wound_need(strength, resilience) == rows[difference]


def test_armour_save_table():
    for armour in range(7):
        for ap in range(11):
            left = armour - ap
            expected = None if left <= 0 else max(7 - left, 2)  # §3.6
            assert armour_need(armour, ap) == expected


def test_special_save_choice():
    # §3.7: the better eligible one; Divine's re-roll counted
    assert special_save(3, 4, divine=False, fortitude_allowed=True) == SpecialSave(Special.AEGIS, 3)
    assert special_save(5, 4, divine=False, fortitude_allowed=True) == SpecialSave(Special.FORTITUDE, 4)
    assert special_save(4, 4, divine=True, fortitude_allowed=True) == SpecialSave(Special.FORTITUDE, 4)
    assert special_save(2, 3, divine=True, fortitude_allowed=True) == SpecialSave(Special.AEGIS, 2)  # 25/36 > 24/36
    assert special_save(5, 2, divine=False, fortitude_allowed=False) == SpecialSave(Special.AEGIS, 5)
    assert special_save(None, 2, divine=False, fortitude_allowed=False) is None
