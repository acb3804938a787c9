"""The 9th Age attacks (RULES.md §3.2–§3.8): melee and shooting, from the to-hit roll to
the Health Points lost, with the attack attributes.

The sampler rolls natural faces in staged pools per trial: one die per attack (to hit,
its re-roll, Battle Focus and Poison read off the natural 6), one per hit that rolls to
wound (its re-roll, Lethal Strike), one per wound (armour, the special save, Divine's
re-roll, the Multiple Wounds dice; Lethal Strike wounds in a pool of their own). Each
stage's count is the previous stage's per-trial total. The exact twin works from the chances of the same
stages (`Check.chance`, `rerolled`) with pmf algebra. Charges, Discipline tests and the
direction die live in `t9a_rolls.py`.

Readings taken where the rules leave a detail unsaid:
- A hopeless shot (7+: a 6, then 4+) hits "with a natural 6" when its first roll is a 6
  and its second roll passes: every hit of a hopeless shot then triggers Battle Focus
  and Poison (§3.8 says so for Poison; Battle Focus follows the same rule).
- A re-rolled to-hit or to-wound roll is a new roll: its natural 6 counts, the first
  roll's does not. A failed hopeless shot is re-rolled whole (a new 6, then a new 4+).
- When both Aegis and Fortitude may be taken, the defender takes the one more likely to
  save, Divine's re-roll counted (a 4+ Fortitude beats a 4+ Aegis against Divine).
- Multiple Wounds is capped per unsaved wound at the target's Health Points; with
  `models`, lost Health Points carry over from model to model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .. import pmf as pmfs
from ..attack import ROLL, Attack, read_rolls
from ..dice import (
    Check,
    DiceExpression,
    FaceReader,
    Natural,
    check_sides,
    expression_die,
    rerolled,
)
from ..errors import InputError, choose, require
from ..pool import Die, roll_pool

MAX_ATTACKS = 200
MAX_CHARACTERISTIC = 10
MAX_MODIFIER = 10
MAX_ARMOUR = 6
MAX_HEALTH = 20
MAX_MODELS = 500
MAX_MULTIPLE_WOUNDS_DICE = 3
TOXIC_STRENGTH, TOXIC_AP = 3, 10  # §3.8 Toxic Attacks
LETHAL_AP = 10  # §3.8 Lethal Strike


class Reroll(str, Enum):
    """Which failed rolls are rolled again (each die at most once, §3.1)."""

    NONE = "none"
    FAILED = "failed"


class Special(str, Enum):
    """The special saves of §3.7."""

    AEGIS = "aegis"
    FORTITUDE = "fortitude"


# --- the tables (RULES.md §3.3–§3.7) ------------------------------------------------------


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


def read_armour(value: int | str) -> int:
    """Read the target's Armour: a value (`2`), the save it gives (`5+` is Armour 2) or `none`."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    cleaned = str(value).strip().lower()
    if cleaned in ("none", "-"):
        return 0
    try:
        if cleaned.endswith("+"):  # the save: Armour 2 saves on 5+ (RULES.md §3.6)
            need = int(cleaned[:-1])
            if not 2 <= need <= 6:
                raise ValueError
            return 7 - need
        return int(cleaned)
    except ValueError:
        raise InputError("armour", value, ARMOUR_ALLOWED) from None


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
    """Everything one wound goes through after it is caused (§3.6, §3.7, §3.8)."""

    armour: Check | None
    special: SpecialSave | None
    divine: bool
    multiple_wounds: DiceExpression | None
    health: int


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
def hit_die(check: Check, reroll: bool, battle_focus: bool, poison: bool) -> Die:
    """Return one attack's to-hit die: hits that roll to wound, and Poison's auto-wounds."""

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read = FaceReader(faces)
        hit = six = None
        for _ in range(2 if reroll else 1):  # §3.1: a failed roll is rolled once more; the second stands
            first = read.take()
            passes = check.passes(first, *(read.take() for _ in range(check.faces - 1)))
            natural_six = passes & (first == 6)  # §3.8: a hopeless shot's first roll is its natural roll
            if hit is None:
                hit, six = passes, natural_six
            else:
                hit, six = hit | passes, np.where(hit, six, natural_six)
        poisoned = six & poison  # §3.8 Poison: the hit wounds without a roll
        extra = six & battle_focus  # §3.8 Battle Focus: one more hit, which rolls to wound
        return hit.astype(np.int64) - poisoned + extra, poisoned

    return Die(check_sides(check, int(reroll)), rule, ("rolled", "poisoned"))


@lru_cache(maxsize=128)
def wound_die(check: Check, reroll: bool, lethal_strike: bool) -> Die:
    """Return the to-wound die of one hit: an ordinary wound, or a Lethal Strike wound."""

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        first = faces[0]
        wounded = check.passes(first)
        if reroll:  # §3.1: the re-roll's face is the natural roll that stands
            second = faces[1]
            natural = np.where(wounded, first, second)
            wounded = wounded | check.passes(second)
        else:
            natural = first
        lethal = wounded & (natural == 6) & lethal_strike  # §3.8 Lethal Strike: a natural 6 to wound
        return wounded & ~lethal, lethal

    return Die(check_sides(check, int(reroll)), rule, ("wounds", "lethal"))


@lru_cache(maxsize=128)
def save_die(saves: WoundSaves) -> Die:
    """Return the die of one wound: armour, special save, then the Health Points it takes."""
    multiple = saves.multiple_wounds
    sides = check_sides(saves.armour) if saves.armour is not None else ()
    if saves.special is not None:
        rolls = 2 if saves.divine and saves.special.save is Special.AEGIS else 1
        sides += check_sides(saves.special.check) * rolls
    wound_dice = expression_die(multiple.sides) if multiple is not None and multiple.count else None
    if wound_dice is not None:
        sides += wound_dice.sides * multiple.count

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read = FaceReader(faces)
        shape = np.broadcast_shapes(*(np.shape(face) for face in faces))
        saved = np.zeros(shape, dtype=bool)
        if saves.armour is not None:
            saved |= read.check(saves.armour)  # §3.6
        if saves.special is not None:  # §3.7: only after a failed armour save (its die is ignored otherwise)
            kept = read.check(saves.special.check)
            if saves.divine and saves.special.save is Special.AEGIS:
                kept &= read.check(saves.special.check)  # §3.7 Divine: a successful Aegis save is re-rolled
            saved |= kept
        if multiple is None:
            taken = 1
        else:  # §3.8 Multiple Wounds: rolled per unsaved wound, capped at the Health Points
            total = multiple.modifier + sum(
                (wound_dice.rule(read.take()) for _ in range(multiple.count)), np.zeros(shape, dtype=np.int64)
            )
            taken = np.minimum(np.maximum(total, 0), saves.health)
        unsaved = ~saved
        return unsaved, unsaved * taken

    return Die(sides, rule, ("unsaved", "health_lost"))


def roll_totals(rng: np.random.Generator, die: Die, dice: int | np.ndarray, trials: int) -> dict[str, np.ndarray]:
    """Roll `dice` such dice per trial; return each field's total."""
    pool = roll_pool(rng, die, dice, trials)
    return {name: pool.total(name).astype(np.int64) for name in die.fields}


# --- the attack sequence (RULES.md §3.2) -------------------------------------------------


def _expression(value: DiceExpression | str | int, name: str) -> DiceExpression:
    return value if isinstance(value, DiceExpression) else DiceExpression.parse(str(value), name)


def _characteristic(value: int, name: str, what: str) -> None:
    require(1 <= value <= MAX_CHARACTERISTIC, name, value, f"expected {what}, 1 to {MAX_CHARACTERISTIC}")


@dataclass(frozen=True, kw_only=True)
class _Sequence(Attack):
    """Wound, save and remove wounds (§3.5–§3.8): what melee and shooting share.

    `armour` is the target's Armour value (0 to 6: Armour 2 saves on 5+), `ap` the
    attack's Armour Penetration, `aegis` and `fortitude` the special saves (4 for 4+).
    `multiple_wounds` is Multiple Wounds (X), X a number or dice (`d3`, `d3+1`), and
    needs `health`. `health` is each model's Health Points (1 when not given); `models`
    the models in the unit (needs `health`), which adds the outcome `kills` and caps
    `health_lost` at models × health. Toxic Attacks have Strength 3 and AP 10: leave
    `strength` and `ap` out. `flammable` (the target) re-rolls failed wounds of
    Flaming Attacks.
    """

    resilience: int
    strength: int | None = None
    armour: int = 0
    ap: int = 0
    aegis: int | None = field(default=None, metadata=ROLL)
    fortitude: int | None = field(default=None, metadata=ROLL)
    battle_focus: bool = False
    poison: bool = False
    lethal_strike: bool = False
    divine: bool = False
    flaming: bool = False
    flammable: bool = False
    toxic: bool = False
    reroll_hits: Reroll = Reroll.NONE
    reroll_wounds: Reroll = Reroll.NONE
    multiple_wounds: DiceExpression | str | int | None = None
    health: int | None = None
    models: int | None = None

    def __post_init__(self) -> None:
        read_rolls(self)
        object.__setattr__(self, "armour", read_armour(self.armour))
        if self.toxic:
            allowed = "Toxic Attacks always have Strength 3 and AP 10: leave --strength and --ap out"
            require(self.strength is None, "strength", self.strength, allowed)
            require(self.ap == 0, "ap", self.ap, allowed)
        else:
            require(self.strength is not None, "strength", None,
                    f"is required: the attack's Strength, 1 to {MAX_CHARACTERISTIC} (or --toxic)")
            _characteristic(self.strength, "strength", "the attack's Strength")
        _characteristic(self.resilience, "resilience", "the target's Resilience")
        require(0 <= self.armour <= MAX_ARMOUR, "armour", self.armour,
                f"expected the target's Armour, 0 to {MAX_ARMOUR} (Armour 2 saves on 5+)")
        require(0 <= self.ap <= MAX_CHARACTERISTIC, "ap", self.ap,
                f"expected the attack's Armour Penetration, 0 to {MAX_CHARACTERISTIC}")
        for name in ("aegis", "fortitude"):
            value = getattr(self, name)
            require(value is None or 2 <= value <= 6, name, value, "expected a special save from 2+ to 6+")
        for name in ("reroll_hits", "reroll_wounds"):
            choose(self, name, Reroll)
        require(self.health is None or 1 <= self.health <= MAX_HEALTH, "health", self.health,
                f"expected each model's Health Points, 1 to {MAX_HEALTH}")
        require(self.models is None or 1 <= self.models <= MAX_MODELS, "models", self.models,
                f"expected 1 to {MAX_MODELS} models")
        require(self.models is None or self.health is not None, "models", self.models,
                "needs --health H, each model's Health Points")
        if self.multiple_wounds is not None:
            multiple = _expression(self.multiple_wounds, "multiple_wounds")
            allowed = f"expected Multiple Wounds like 2, d3, d3+1 or 2d6 (at most {MAX_MULTIPLE_WOUNDS_DICE} dice)"
            require(multiple.count <= MAX_MULTIPLE_WOUNDS_DICE and multiple.highest >= 1, "multiple_wounds",
                    self.multiple_wounds, allowed)
            require(self.health is not None, "multiple_wounds", self.multiple_wounds,
                    "needs --health H: Multiple Wounds is capped at the target's Health Points")
            object.__setattr__(self, "multiple_wounds", multiple)

    # -- what the subclasses give

    @property
    def count(self) -> DiceExpression:
        """The number of attacks (or shots), maybe rolled."""
        raise NotImplementedError

    @property
    def hit_check(self) -> Check:
        raise NotImplementedError

    # -- the stages

    @property
    def outcomes(self) -> tuple[str, ...]:
        names = ("health_lost", "hits", "wounds", "unsaved")
        return names + ("kills",) if self.models is not None else names

    @property
    def health_points(self) -> int:
        return self.health if self.health is not None else 1

    @property
    def wound_check(self) -> Check:
        strength = TOXIC_STRENGTH if self.toxic else self.strength
        return Check(wound_need(strength, self.resilience), Natural.ONE_AND_SIX)  # §3.5

    @property
    def rerolls_wounds(self) -> bool:
        """Failed wounds are re-rolled: asked for, or Flaming Attacks against a Flammable target (§3.8)."""
        return self.reroll_wounds is Reroll.FAILED or (self.flaming and self.flammable)

    def wound_saves(self, lethal: bool) -> WoundSaves:
        """What an ordinary (or a Lethal Strike) wound goes through."""
        ap = LETHAL_AP if lethal else TOXIC_AP if self.toxic else self.ap  # §3.8 Lethal Strike, Toxic Attacks
        need = armour_need(self.armour, ap)
        armour = Check(need, Natural.SAVE) if need is not None else None
        fortitude_allowed = not (lethal or self.flaming)  # §3.7
        special = special_save(self.aegis, self.fortitude, self.divine, fortitude_allowed)
        return WoundSaves(armour, special, self.divine, self.multiple_wounds, self.health_points)

    def _removed(self, totals: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Cap the Health Points lost at the unit's and count the models removed."""
        if self.models is not None:
            lost = totals["health_lost"]
            totals["kills"] = np.minimum(lost // self.health_points, self.models)
            totals["health_lost"] = np.minimum(lost, self.models * self.health_points)
        return totals

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        count = self.count
        attacks = count.sample(rng, trials) if count.count else count.modifier
        hits = roll_totals(rng, hit_die(self.hit_check, self.reroll_hits is Reroll.FAILED, self.battle_focus,
                                        self.poison), attacks, trials)
        wounds = roll_totals(rng, wound_die(self.wound_check, self.rerolls_wounds, self.lethal_strike),
                             hits["rolled"], trials)
        ordinary = wounds["wounds"] + hits["poisoned"]
        saves = roll_totals(rng, save_die(self.wound_saves(lethal=False)), ordinary, trials)
        unsaved, lost = saves["unsaved"], saves["health_lost"]
        if self.lethal_strike:
            lethal = roll_totals(rng, save_die(self.wound_saves(lethal=True)), wounds["lethal"], trials)
            unsaved, lost = unsaved + lethal["unsaved"], lost + lethal["health_lost"]
        totals = {
            "health_lost": lost,
            "hits": hits["rolled"] + hits["poisoned"],
            "wounds": ordinary + wounds["lethal"],
            "unsaved": unsaved,
        }
        return self._removed(totals)

    # -- the exact twin

    def chances(self) -> Chances:
        """Return the exact chance of each stage (§3.3–§3.8)."""
        check = self.hit_check
        hit = check.chance()
        # §3.8: a natural 6 always hits when the attack can hit; every hopeless hit began with a 6
        six = hit if check.chains else Fraction(1, 6) if hit else Fraction(0)
        if self.reroll_hits is Reroll.FAILED:  # §3.1: a failed roll is rolled again, once
            six, hit = six + (1 - hit) * six, rerolled(hit)
        wound = self.wound_check.chance()
        lethal = Fraction(1, 6) if self.lethal_strike else Fraction(0)  # a natural 6 always wounds (§3.5)
        if self.rerolls_wounds:
            lethal, wound = lethal + (1 - wound) * lethal, rerolled(wound)
        return Chances(hit - six, six, wound - lethal, lethal,
                       _unsaved_chance(self.wound_saves(lethal=False)), _unsaved_chance(self.wound_saves(lethal=True)))

    def pmfs(self, number) -> dict[str, np.ndarray]:
        chances = self.chances()
        one = number(1)
        zero = pmfs.point(0, one)

        def bernoulli(p: Fraction) -> np.ndarray:
            return pmfs.array([number(1 - p), number(p)])

        def lost(saves: WoundSaves, unsaved: Fraction) -> np.ndarray:
            taken = pmfs.point(1, one)
            if saves.multiple_wounds is not None:  # §3.8: capped at the Health Points, per wound
                taken = pmfs.transform(saves.multiple_wounds.pmf(number), lambda x: min(x, saves.health))
            return pmfs.mixture([(number(1 - unsaved), zero), (number(unsaved), taken)])

        wounded = chances.wound + chances.lethal
        lost_ordinary = lost(self.wound_saves(lethal=False), chances.unsaved)
        lost_lethal = lost(self.wound_saves(lethal=True), chances.lethal_unsaved)
        # per outcome: (what one hit that rolls to wound gives, what one Poison auto-wound gives)
        per_hit = {
            "hits": (pmfs.point(1, one), pmfs.point(1, one)),
            "wounds": (bernoulli(wounded), pmfs.point(1, one)),
            "unsaved": (
                bernoulli(chances.wound * chances.unsaved + chances.lethal * chances.lethal_unsaved),
                bernoulli(chances.unsaved),
            ),
            "health_lost": (
                pmfs.mixture([(number(1 - wounded), zero), (number(chances.wound), lost_ordinary),
                              (number(chances.lethal), lost_lethal)]),
                lost_ordinary,
            ),
        }
        count = self.count.pmf(number)
        rolled_on_six = 1 - self.poison + self.battle_focus  # §3.8 Battle Focus and Poison
        miss = 1 - chances.plain_hit - chances.six_hit
        totals = {}
        for name, (rolled, poisoned) in per_hit.items():
            on_six = pmfs.convolve(pmfs.power(rolled, rolled_on_six), pmfs.power(poisoned, int(self.poison)))
            attack = pmfs.mixture([(number(miss), zero), (number(chances.plain_hit), rolled),
                                   (number(chances.six_hit), on_six)])
            constant = not self.count.count  # a fixed number of attacks: repeated squaring
            totals[name] = pmfs.power(attack, self.count.modifier) if constant else pmfs.compound(count, attack)
        if self.models is not None:
            health, models = self.health_points, self.models
            lost_total = totals["health_lost"]
            totals["kills"] = pmfs.transform(lost_total, lambda x: min(x // health, models))
            totals["health_lost"] = pmfs.transform(lost_total, lambda x: min(x, models * health))
        return {name: totals[name] for name in self.outcomes}


def _unsaved_chance(saves: WoundSaves) -> Fraction:
    """Return the chance that a wound gets past its armour and special saves (§3.6, §3.7)."""
    armour = saves.armour.chance() if saves.armour is not None else Fraction(0)
    special = Fraction(0)
    if saves.special is not None:
        special = saves.special.check.chance()
        if saves.divine and saves.special.save is Special.AEGIS:
            special *= saves.special.check.chance()  # §3.7 Divine: the save must succeed twice
    return (1 - armour) * (1 - special)


@dataclass(frozen=True, kw_only=True)
class Melee(_Sequence):
    """`attacks` melee attacks (a number or dice) from Offensive against Defensive Skill.

    To hit from the §3.3 table, `hit_modifier` added to the roll (+1 easier); a natural
    1 fails and a natural 6 hits. Then wound, saves and Multiple Wounds as `_Sequence`
    says. Outcomes: `health_lost`, `hits`, `wounds`, `unsaved` (and `kills` with `models`).
    """

    attacks: DiceExpression | str | int
    offensive: int
    defensive: int
    hit_modifier: int = 0

    COMMAND = "t9a melee"

    def __post_init__(self) -> None:
        object.__setattr__(self, "attacks", _attack_count(self.attacks, "attacks"))
        _characteristic(self.offensive, "offensive", "the attacker's Offensive Skill")
        _characteristic(self.defensive, "defensive", "the target's Defensive Skill")
        _modifier(self.hit_modifier, "hit_modifier")
        super().__post_init__()

    @property
    def count(self) -> DiceExpression:
        return self.attacks

    @property
    def hit_check(self) -> Check:
        need = melee_need(self.offensive, self.defensive) - self.hit_modifier  # modifiers apply to the roll
        return Check(need, Natural.ONE_AND_SIX)


@dataclass(frozen=True, kw_only=True)
class T9AShoot(_Sequence):
    """`shots` shots (a number or dice) hitting on `aim`+, `modifier` added (−1 harder).

    A natural 1 misses; needing 7+ is a hopeless shot (a 6, then 4+); 8+ cannot hit
    (§3.4). Then as melee. Outcomes: `health_lost`, `hits`, `wounds`, `unsaved` (and
    `kills` with `models`).
    """

    shots: DiceExpression | str | int
    aim: int = field(metadata=ROLL)
    modifier: int = 0

    COMMAND = "t9a shoot"

    def __post_init__(self) -> None:
        read_rolls(self)
        object.__setattr__(self, "shots", _attack_count(self.shots, "shots"))
        require(2 <= self.aim <= 6, "aim", self.aim, "expected the model's Aim, 2+ to 6+ (modifiers go in --modifier)")
        _modifier(self.modifier, "modifier")
        super().__post_init__()

    @property
    def count(self) -> DiceExpression:
        return self.shots

    @property
    def hit_check(self) -> Check:
        return Check(self.aim - self.modifier, Natural.HOPELESS)  # §3.4: −1 long range, moving, cover ...


def _attack_count(value: DiceExpression | str | int, name: str) -> DiceExpression:
    count = _expression(value, name)
    require(1 <= count.highest <= MAX_ATTACKS, name, count,
            f"expected a number or dice (10, 2d6, d6+1) that can reach 1 to {MAX_ATTACKS}")
    return count


def _modifier(value: int, name: str) -> None:
    require(-MAX_MODIFIER <= value <= MAX_MODIFIER, name, value,
            f"expected the sum of to-hit modifiers, -{MAX_MODIFIER} to +{MAX_MODIFIER} (negative is harder)")
