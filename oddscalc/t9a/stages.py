"""The stages of The 9th Age attack sequence (docs/rules.md §3.3–§3.8), each twice: the
tables and chances the exact twin composes, and the dice the sampler rolls.

The sampler rolls natural faces in staged pools per trial: one die per attack (to hit,
its re-roll, Battle Focus and Poison read off the natural 6), one per hit that rolls to
wound (its re-roll, Lethal Strike), one per wound (armour, the special save, Divine's
re-roll, the Multiple Wounds dice; Lethal Strike wounds in a pool of their own). Each
stage's count is the previous stage's per-trial total.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from numbers import Integral
from functools import lru_cache
from typing import NamedTuple, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from ..core.pool import Die
    from ..core import pool
else:
    from ..core.lazy import numpy as np
    from ..core.lazy import Deferred

    pool = Deferred("oddscalc.core.pool")  # the sampler's: imported when dice are rolled

from ..core.dice import Check, DiceExpression, FaceReader, Natural, check_sides
from ..errors import InputError
from ..core.totals import expression_die


class Cover(str, Enum):
    """The cover a shot's target has (§3.4): soft −1 to hit, hard −2."""

    NONE = "none"
    SOFT = "soft"
    HARD = "hard"


COVER_MODIFIER = {Cover.NONE: 0, Cover.SOFT: -1, Cover.HARD: -2}


class Reroll(str, Enum):
    """Which rolls are rolled again (each die at most once, §3.1; the second result stands):
    every failed roll, only natural 1s (which always fail), or every successful roll (a re-roll
    a rule forces on the roller)."""

    NONE = "none"
    FAILED = "failed"
    ONES = "ones"
    SUCCESSES = "successes"

    def again(self, failed: np.ndarray, natural: np.ndarray) -> np.ndarray:
        """Which dice are rolled again, from which failed and what each die showed."""
        if self is Reroll.FAILED:
            return failed
        if self is Reroll.ONES:
            return np.asarray(failed & (natural == 1))
        if self is Reroll.SUCCESSES:
            return ~failed
        return np.zeros_like(failed)

    def chance(self, success: Fraction, also: Fraction = Fraction(0)) -> tuple[Fraction, Fraction]:
        """(P(success), P(`also`)) after the re-roll, `also` a part of the successes (a natural 6):
        a die rolled again succeeds as a first roll does."""
        if self is Reroll.SUCCESSES:  # only a success is rolled again, and the second roll stands
            return success * success, success * also
        again = {Reroll.NONE: Fraction(0), Reroll.FAILED: 1 - success, Reroll.ONES: Fraction(1, 6)}[self]
        return success + again * success, also + again * also

    def words(self, roll: str) -> str:
        """`re-roll failed armour saves`, `re-roll 1s to wound` ...: the policy in a description."""
        return {Reroll.FAILED: f"re-roll failed {roll}", Reroll.ONES: f"re-roll 1s ({roll})",
                Reroll.SUCCESSES: f"re-roll successful {roll}"}.get(self, "")


class Special(str, Enum):
    """The special saves of §3.7."""

    AEGIS = "aegis"
    FORTITUDE = "fortitude"


# --- the tables (docs/rules.md §3.3–§3.7) ------------------------------------------------------


def melee_need(offensive: int, defensive: int) -> int:
    """Return the to-hit roll needed in melee, before modifiers (§3.3)."""
    difference = offensive - defensive
    if difference >= 4:
        return 2
    if difference >= 1:
        return 3
    if difference >= -3:
        return 4
    if difference >= -7:
        return 5
    return 6


def wound_need(strength: int, resilience: int) -> int:
    """Return the to-wound roll needed (§3.5)."""
    return min(max(4 - (strength - resilience), 2), 6)


ARMOUR_ALLOWED = "expected the target's Armour, 0 to 6, or the save it gives written with a plus (4+ is Armour 3)"


def read_armour(value: int | str, name: str = "armour") -> int:
    """Read the target's Armour: a value (`2`), the save it gives (`5+` is Armour 2) or `none`; a refusal names
    `name`."""
    if isinstance(value, Integral) and not isinstance(value, bool):
        return int(value)
    cleaned = str(value).strip().lower()
    if cleaned in ("none", "-"):
        return 0
    from ..core.attack import is_whole

    if cleaned.endswith("+") and is_whole(cleaned[:-1]) and 2 <= int(cleaned[:-1]) <= 6:
        return 7 - int(cleaned[:-1])  # the save: Armour 2 saves on 5+ (docs/rules.md §3.6)
    if not is_whole(cleaned):
        raise InputError(name, value, ARMOUR_ALLOWED)
    return int(cleaned)


def armour_need(armour: int, ap: int) -> int | None:
    """Return the armour save needed, or None when there is none (§3.6)."""
    left = armour - ap
    return None if left <= 0 else max(7 - left, 2)


class SpecialSave(NamedTuple):
    """The special save a wound is offered: Aegis or Fortitude, and the roll it needs."""

    save: Special
    need: int

    @property
    def check(self) -> Check:
        return Check(self.need, Natural.SAVE)  # a natural 1 fails


def special_save(aegis: int | None, fortitude: int | None, divine: bool, fortitude_allowed: bool) -> SpecialSave | None:
    """Pick the special save a wound gets: the eligible one more likely to save (§3.7)."""
    offered = []
    if aegis is not None:
        chance = Check(aegis, Natural.SAVE).chance()
        offered.append((chance * chance if divine else chance, SpecialSave(Special.AEGIS, aegis)))
    if fortitude is not None and fortitude_allowed:
        offered.append((Check(fortitude, Natural.SAVE).chance(), SpecialSave(Special.FORTITUDE, fortitude)))
    return max(offered, key=lambda pair: pair[0])[1] if offered else None


class WoundSaves(NamedTuple):
    """Everything one wound goes through after it is caused (§3.6, §3.7, §3.8), and the target's
    re-rolls of its saves."""

    armour: Check | None
    special: SpecialSave | None
    divine: bool
    multiple_wounds: DiceExpression | None
    health: int
    armour_reroll: Reroll = Reroll.NONE
    special_reroll: Reroll = Reroll.NONE


class Chances(NamedTuple):
    """The exact chances of each stage, as Fractions."""

    plain_hit: Fraction  # per attack: a hit without a natural 6 that counts
    six_hit: Fraction  # per attack: a hit with a natural 6 that counts (Battle Focus, Poison)
    wound: Fraction  # per hit rolled to wound: a wound without Lethal Strike
    lethal: Fraction  # per hit rolled to wound: a Lethal Strike wound
    unsaved: Fraction  # per ordinary wound (Poison's included)
    lethal_unsaved: Fraction  # per Lethal Strike wound


# --- the dice of the sampler ----------------------------------------------------------


@lru_cache(maxsize=128)
def hit_die(check: Check, reroll: Reroll, battle_focus: bool, poison: bool) -> Die:
    """Return one attack's to-hit die: hits that roll to wound, and Poison's auto-wounds."""
    reroll = Reroll(reroll)
    rolls = 1 if reroll is Reroll.NONE else 2

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read = FaceReader(faces)

        def roll() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """(hit, hit with a natural 6, the natural roll) of one roll to hit."""
            first = read.take()
            passes = check.passes(first, *(read.take() for _ in range(check.faces - 1)))
            return passes, passes & (first == 6), first  # §3.8: a hopeless shot's first roll is its natural roll

        hit, six, first_natural = roll()
        if reroll is not Reroll.NONE:  # §3.1: a failed roll is rolled once more; the second stands
            passes, natural_six, _ = roll()
            again = reroll.again(~hit, first_natural)
            hit, six = np.where(again, passes, hit), np.where(again, natural_six, six)
        poisoned = six & poison  # §3.8 Poison: the hit wounds without a roll
        extra = six & battle_focus  # §3.8 Battle Focus: one more hit, which rolls to wound
        return hit.astype(np.int64) - poisoned + extra, poisoned

    return pool.Die(check_sides(check, rolls - 1), rule, ("rolled", "poisoned"))


@lru_cache(maxsize=128)
def wound_die(check: Check, reroll: Reroll, lethal_strike: bool) -> Die:
    """Return the to-wound die of one hit: an ordinary wound, or a Lethal Strike wound."""
    reroll = Reroll(reroll)

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        first = faces[0]
        wounded = check.passes(first)
        natural = first
        if reroll is not Reroll.NONE:  # §3.1: the re-roll's face is the natural roll that stands
            again = reroll.again(~wounded, first)
            natural = np.where(again, faces[1], first)
            wounded = np.where(again, check.passes(faces[1]), wounded)
        lethal = wounded & (natural == 6) & lethal_strike  # §3.8 Lethal Strike: a natural 6 to wound
        return wounded & ~lethal, lethal

    return pool.Die(check_sides(check, int(reroll is not Reroll.NONE)), rule, ("wounds", "lethal"))


def rerolled_check(read: FaceReader, check: Check, reroll: Reroll) -> np.ndarray:
    """A one-die check (a save), rolled again as `reroll` says; the second result stands."""
    first = read.take()
    passes = check.passes(first)
    if reroll is Reroll.NONE:
        return passes
    second = read.take()
    return np.where(reroll.again(~passes, first), check.passes(second), passes)


@lru_cache(maxsize=128)
def save_die(saves: WoundSaves) -> Die:
    """Return the die of one wound: armour, special save, then the Health Points it takes."""
    multiple = saves.multiple_wounds
    armour_rolls = 1 + (saves.armour_reroll is not Reroll.NONE)
    special_rolls = 1 + (saves.special_reroll is not Reroll.NONE)
    sides = check_sides(saves.armour) * armour_rolls if saves.armour is not None else ()
    if saves.special is not None:
        rolls = 2 if saves.divine and saves.special.save is Special.AEGIS else special_rolls
        sides += check_sides(saves.special.check) * rolls
    wound_dice: Die | None = None  # the die of Multiple Wounds (X) when X is rolled
    if multiple is not None and multiple.count:
        wound_dice = expression_die(multiple.sides)
        sides += wound_dice.sides * multiple.count

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read = FaceReader(faces)
        shape = np.broadcast_shapes(*(np.shape(face) for face in faces))
        saved = np.zeros(shape, dtype=bool)
        if saves.armour is not None:
            saved |= rerolled_check(read, saves.armour, saves.armour_reroll)  # §3.6
        if saves.special is not None:  # §3.7: only after a failed armour save (its die is ignored otherwise)
            if saves.divine and saves.special.save is Special.AEGIS:
                kept = read.check(saves.special.check)
                kept &= read.check(saves.special.check)  # §3.7 Divine: a successful Aegis save is re-rolled
            else:
                kept = rerolled_check(read, saves.special.check, saves.special_reroll)
            saved |= kept
        taken: int | np.ndarray = 1
        if multiple is not None:  # §3.8 Multiple Wounds: rolled per unsaved wound, capped at the Health Points
            rolled = [wound_dice.rule(read.take()) for _ in range(multiple.count)] if wound_dice is not None else []
            total = multiple.modifier + sum((np.asarray(dice) for dice in rolled), np.zeros(shape, dtype=np.int64))
            taken = np.minimum(np.maximum(total, 0), saves.health)
        unsaved = ~saved
        return unsaved, unsaved * taken

    return pool.Die(sides, rule, ("unsaved", "health_lost"))


def roll_totals(rng: np.random.Generator, die: Die, dice: int | np.ndarray, trials: int) -> dict[str, np.ndarray]:
    """Roll `dice` such dice per trial; return each field's total."""
    rolled = pool.roll_pool(rng, die, dice, trials)
    return {name: rolled.total(name).astype(np.int64) for name in die.fields}


