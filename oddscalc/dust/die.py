"""The Dust die and the stages every Dust Tactics attack shares (docs/rules.md §1.1–§1.3, §1.11).

The Dust die is read off a D6: faces 5 and 6 are its two hit (target) faces, faces 1–4
its four blanks, so P(hit) = 1/3 (docs/rules.md §1.1). Samplers apply that face rule to
natural D6 faces; the exact twins compute from the chance 1/3 with pmf algebra.

A weapon line resolves in the order of docs/rules.md §1.2: dice (×2 for burst fire), roll,
re-rolls (sustained attack, Berserk), the cover save cancels hits, damage = surviving
hits × D, Damage Resilient cancels damage points. `sample_line` and `exact_line`
are that order, both ways.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from numbers import Integral
from functools import cache, lru_cache
from typing import Any, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from ..core.pool import Die, PoolRoll
    from ..core import pool
else:
    from ..core.lazy import numpy as np
    from ..core.lazy import Deferred

    pool = Deferred("oddscalc.core.pool")  # the sampler's: imported when dice are rolled

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core import terms
from ..errors import require
from .terrain import Cover

HIT_FACE = 5  # docs/rules.md §1.1, read off a D6: faces 5 and 6 are the two hit (target) faces
HIT = Fraction(7 - HIT_FACE, 6)  # P(hit) = 1/3
MAX_DICE = 50
MAX_DAMAGE = 10
MAX_MODELS = 50
MAX_PER_MODEL = 10
MAX_PHASER = 20
MAX_COUNT = 20  # models firing one weapon


class CoverSave(str, Enum):
    """The target's cover save (docs/rules.md §1.11)."""

    NONE = "none"
    HIT = "hit"  # each hit rolled cancels a hit: a hit survives 2/3 (usual in soft cover)
    MISS = "miss"  # each blank rolled cancels a hit: a hit survives 1/3 (usual in hard cover)


class Artillery(str, Enum):
    """How an artillery weapon (range A) fires (docs/rules.md §1.9)."""

    DIRECT = "direct"
    INDIRECT = "indirect"


class Stacking(str, Enum):
    """How Berserk's re-roll meets a sustained attack's (docs/rules.md §1.3, open)."""

    STACK = "stack"  # a second re-roll pass: a die fails only after three misses (19/27 with both)
    ONCE = "once"  # one re-roll pass whichever gives it (5/9 with both)


def reroll_passes(sustained: bool, berserk: bool, stacking: Stacking = Stacking.STACK) -> int:
    """Re-roll passes of the failed dice: a sustained attack one, Berserk one (stacked or not)."""
    if Stacking(stacking) is Stacking.ONCE:
        return int(sustained or berserk)
    return int(sustained) + int(berserk)


class Success(str, Enum):
    """The face that makes an indirect artillery die a success (docs/rules.md §1.9, open)."""

    HIT = "hit"
    BLANK = "blank"


def cover_save(cover: Cover) -> CoverSave:
    """Return the save a target makes for the cover of its square: soft cover is a hit-save (§1.11)."""
    return CoverSave.HIT if Cover(cover) is Cover.SOFT else CoverSave.NONE


def check_count(value: Any, name: str, low: int, high: int, what: str) -> None:
    whole = isinstance(value, Integral) and not isinstance(value, bool)
    require(whole and low <= value <= high, name, value, f"expected {low} to {high} {what}")


def check_models_firing(count: Any) -> None:
    check_count(count, "count", 1, MAX_COUNT, "models firing the weapon (their dice add up)")


# --- face rules (the samplers) -----------------------------------------------------


def shows_hit(face: np.ndarray) -> np.ndarray:
    """Read a natural D6 as the Dust die: True on a hit face (5 or 6)."""
    return face >= HIT_FACE


@lru_cache(maxsize=64)
def attack_die(rerolls: int = 0, success: Success = Success.HIT, save: CoverSave = CoverSave.NONE, damage: int = 1) -> Die:
    """Return one attack die's life: the roll, its re-rolls, then the target's save.

    Fields: `damage` (D when the die ends as an unsaved hit) and `hits` (before saves).
    """

    def succeeds(face: np.ndarray) -> np.ndarray:
        return shows_hit(face) if success is Success.HIT else ~shows_hit(face)

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hit = succeeds(faces[0])
        for face in faces[1 : rerolls + 1]:  # docs/rules.md §1.3: a failed die is rolled again
            hit = hit | succeeds(face)
        if save is CoverSave.HIT:  # §1.11: a hit on the save die cancels the hit
            kept = hit & ~shows_hit(faces[-1])
        elif save is CoverSave.MISS:  # §1.11: a blank on the save die cancels the hit
            kept = hit & shows_hit(faces[-1])
        else:
            kept = hit
        return kept * damage, hit

    sides = (6,) * (1 + rerolls + (save is not CoverSave.NONE))
    return pool.Die(sides, rule, ("damage", "hits"))


def _blank(face: np.ndarray) -> np.ndarray:
    return ~shows_hit(face)  # Damage Resilient (§1.11): a blank lets the damage point through


@cache
def resilience_die() -> Die:
    """The Damage Resilient die (§1.11): a blank lets a damage point through."""
    return pool.Die((6,), _blank, ("damage",))


@cache
def blast_die() -> Die:
    """A phaser's second-stage die (§1.5): each hit is 1 damage."""
    return pool.Die((6,), shows_hit, ("damage",))


def resist(rng: np.random.Generator, points: np.ndarray, trials: int) -> np.ndarray:
    """Roll one Damage Resilient die per damage point; return the points that get through."""
    return pool.roll_pool(rng, resilience_die(), points, trials).total("damage")


# --- exact chances (the exact twins) ------------------------------------------------


def _survive(save: CoverSave) -> Fraction:
    """The chance a hit gets past the save (docs/rules.md §1.11)."""
    return {CoverSave.NONE: Fraction(1), CoverSave.HIT: 1 - HIT, CoverSave.MISS: HIT}[save]


def resisted(pmf: np.ndarray, resilient: bool, number: NumberType) -> np.ndarray:
    """Apply Damage Resilient to a damage pmf: each point gets through on a blank (2/3)."""
    return pmfs.thin(pmf, number(1 - HIT)) if resilient else pmf


# --- one weapon line, both ways (§1.2) ------------------------------------------------


def sample_line(rng: np.random.Generator, trials: int, die: Die, dice: int,
                 resilient: bool) -> PoolRoll | dict[str, np.ndarray]:
    """Roll `dice` attack dice (each die's whole life), then the Damage Resilient dice."""
    roll = pool.roll_pool(rng, die, dice, trials)
    if not resilient:
        return roll
    return {"damage": resist(rng, roll.total("damage"), trials), "hits": roll.total("hits")}


def exact_line(dice: int, chance: Fraction, save: CoverSave, damage: int, resilient: bool,
                number: NumberType) -> dict[str, Any]:
    """Hits ~ Binomial(dice, chance), thinned by the save, times damage, then resilience. A binomial thinned is a
    binomial, so the hits that get through are Binomial(dice, chance · the save's · the resilience's) when each
    does 1 damage: worked in tuples (`terms`: no arrays, and a first answer imports no numpy); Damage Resilient
    thinning points of several damage each is worked in arrays."""
    if resilient and damage > 1:
        hits = pmfs.binomial(dice, number(chance))
        surviving = pmfs.thin(hits, number(_survive(save)))
        return {"damage": resisted(pmfs.scale(surviving, damage), resilient, number), "hits": hits}
    kept = chance * _survive(save) * ((1 - HIT) if resilient else 1)
    return {"damage": terms.transform(terms.binomial(dice, number(kept)), lambda hit: hit * damage),
            "hits": terms.binomial(dice, number(chance))}


