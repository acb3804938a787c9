"""Epic Armageddon attacks (RULES.md §2): shooting, barrages and the assault-result dice.

Saves, hit allocation and blast markers live in `epic_saves.py`. Each attack samples
natural faces (to-hit and save face rules, hits allocated front to back) and has an
exact twin built from chances and pmf algebra; both give the same outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

from . import pmf as pmfs
from .dice import Check, FaceReader, Natural, check_sides, keep_pmf
from .epic_saves import (
    BlastMarkers,
    SavePlan,
    Weapon,
    allocate_kills,
    failed_die,
    kills_given_hits,
    outcome_roll,
    save_plan,
)
from .errors import choose, require
from .pool import Die, PoolRoll, roll_pool

MAX_SHOTS = 200
MAX_UNITS = 100
MAX_BLAST_MARKERS = 100
MAX_MODIFIER = 6
MAX_BONUS = 20


class BarrageRow(NamedTuple):
    """One row of the barrage table (RULES.md §2.5)."""

    extra_templates: int
    extra_blast_markers: int
    anti_personnel: int  # AP to hit
    anti_tank: int  # AT to hit


def barrage_row(bp: int) -> BarrageRow:
    """Look up the barrage table for `bp` barrage points (1..18)."""
    require(1 <= bp <= 18, "bp", bp, "expected 1 to 18 barrage points (the barrage table stops at 18)")
    if bp <= 3:
        return BarrageRow(0, 0, {1: 6, 2: 5, 3: 4}[bp], {1: 6, 2: 6, 3: 5}[bp])
    templates = 1 if bp <= 7 else 2
    extra = 0 if bp <= 5 else 1 if bp <= 9 else 2 if bp <= 12 else 3 if bp <= 15 else 4
    return BarrageRow(templates, extra, 4, 5)


# --- the parts every attack on a formation shares ---------------------------------------


@dataclass(frozen=True, kw_only=True)
class _OnFormation:
    """A target formation's saves and blast markers, and the weapon's special abilities.

    `units` are the units the attack can reach (all of the formation's units unless
    `formation` says it is bigger). `armour` is the armour save (4 for 4+; None for
    no save), `cover_save` the infantry cover save, used instead of armour when better.
    `modifier` is the sum of to-hit modifiers (+1 makes hitting easier). `in_cover` adds
    the −1 to hit for a target in cover that `ignore_cover` cancels; with it, leave the
    cover −1 out of `modifier`. `ignore_cover` also negates cover saves. `sniper` is
    −1 to armour and cover saves (RULES.md §2.2), like crossfire but without its marker.
    """

    units: int
    armour: int | None
    modifier: int = 0
    cover_save: int | None = None
    weapon: Weapon = Weapon.normal
    reinforced: bool = False
    invulnerable: bool = False
    crossfire: bool = False
    disrupt: bool = False
    ignore_cover: bool = False
    in_cover: bool = False
    sniper: bool = False
    blast_markers: int = 0
    formation: int | None = None

    def __post_init__(self) -> None:
        require(1 <= self.units <= MAX_UNITS, "units", self.units, f"expected 1 to {MAX_UNITS} units")
        require(
            self.formation is None or self.units <= self.formation <= MAX_UNITS,
            "formation",
            self.formation,
            f"expected the formation's size, from --units ({self.units}) to {MAX_UNITS} units",
        )
        require(
            self.armour is None or 2 <= self.armour <= 6,
            "armour",
            self.armour,
            "expected an armour save from 2+ to 6+, or none",
        )
        require(
            self.cover_save is None or 2 <= self.cover_save <= 6,
            "cover_save",
            self.cover_save,
            "expected a cover save from 2+ to 6+",
        )
        require(
            abs(self.modifier) <= MAX_MODIFIER,
            "modifier",
            self.modifier,
            f"expected the sum of to-hit modifiers, from -{MAX_MODIFIER} to +{MAX_MODIFIER}",
        )
        require(
            0 <= self.blast_markers <= MAX_BLAST_MARKERS,
            "blast_markers",
            self.blast_markers,
            f"expected 0 to {MAX_BLAST_MARKERS} blast markers already on the formation",
        )
        choose(self, "weapon", Weapon)
        require(
            not self.reinforced or self.armour is not None,
            "armour",
            "none",
            "reinforced armour needs an armour value, 2+ to 6+",
        )

    def _need(self, to_hit: int) -> int:
        """The to-hit roll needed after modifiers (RULES.md §2.1)."""
        cover = 1 if self.in_cover and not self.ignore_cover else 0  # −1 to hit for cover; ignore cover cancels it
        return to_hit - self.modifier + cover

    @cached_property
    def saves(self) -> SavePlan:
        return save_plan(
            self.armour, self.cover_save, self.weapon, self.reinforced, self.invulnerable, self.crossfire,
            self.ignore_cover, self.sniper,
        )

    def _markers(self, extra: int = 0) -> BlastMarkers:
        formation = self.formation if self.formation is not None else self.units
        return BlastMarkers(self.blast_markers, extra, formation, self.crossfire, self.disrupt)


@lru_cache(maxsize=64)
def hit_die(check: Check) -> Die:
    """Return the die of one shot: 1 when it hits."""
    return Die(check_sides(check), check.passes, ("hits",))


@lru_cache(maxsize=64)
def barrage_die(check: Check, saves: SavePlan) -> Die:
    """Return the die of one unit under a barrage: its to-hit roll, then its saves if hit."""

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read = FaceReader(faces)
        hit = read.check(check)
        saved = saves.saved(*(read.take() for _ in saves.sides))
        return hit & ~saved, hit

    return Die(check_sides(check) + saves.sides, rule, ("kills", "hits"))


def _numbers(fractions: bool, *chances: Fraction) -> tuple:
    return chances if fractions else tuple(float(chance) for chance in chances)


def _padded(pmf: np.ndarray, size: int) -> np.ndarray:
    padded = pmfs.zeros(size, pmf)
    padded[: len(pmf)] = pmf
    return padded


def _finish(pmf_by_name: dict[str, np.ndarray], outcomes: tuple[str, ...], fractions: bool) -> dict[str, np.ndarray]:
    return {name: pmf_by_name[name] if fractions else pmfs.as_float(pmf_by_name[name]) for name in outcomes}


# --- shooting (RULES.md §2.1–§2.4) ------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Shoot(_OnFormation):
    """`shots` shots hitting on `to_hit`+ at a formation; hits allocated front to back.

    Outcomes: `kills`, `hits`, `blast_markers` (the formation's total after the
    attack, existing ones included) and `broken` (1 when the formation breaks).
    """

    shots: int
    to_hit: int

    outcomes = ("kills", "hits", "blast_markers", "broken")

    def __post_init__(self) -> None:
        require(1 <= self.shots <= MAX_SHOTS, "shots", self.shots, f"expected 1 to {MAX_SHOTS} shots")
        require(2 <= self.to_hit <= 6, "to_hit", self.to_hit, "expected the weapon's to-hit value, 2+ to 6+")
        super().__post_init__()

    @property
    def hit_check(self) -> Check:
        return Check(self._need(self.to_hit), Natural.EPIC)  # natural 1 misses; 7+ chains; 10+ never

    @property
    def markers(self) -> BlastMarkers:
        return self._markers()

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        hits = roll_pool(rng, hit_die(self.hit_check), self.shots, trials).total("hits").astype(np.int64)
        kills = allocate_kills(rng, failed_die(self.saves), hits, self.shots, self.units)
        index = hits * (self.units + 1) + kills
        return outcome_roll(self.markers, self.outcomes, index, self.units + 1, self.shots + 1)

    def joint(self, fractions: bool = False) -> np.ndarray:
        """Return the exact joint pmf of (hits, kills) as a matrix joint[hits, kills]."""
        hit, saved = _numbers(fractions, self.hit_check.chance(), self.saves.chance())
        hits = pmfs.binomial(self.shots, hit)
        rows = [weight * kills_given_hits(h, self.units, saved) for h, weight in enumerate(hits)]
        return np.array(rows, dtype=object if fractions else float)

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        return _finish(self.markers.outcome_pmfs(self.joint(fractions)), self.outcomes, fractions)


# --- barrages (RULES.md §2.5) -----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Barrage(_OnFormation):
    """A barrage of `bp` barrage points on `units` units under its templates.

    One to-hit roll per unit under the templates, at the table's AP value (AT with
    `at`); saves and blast markers as for shooting, plus the table's extra blast
    markers. Outcomes: `kills`, `blast_markers`, `broken`.
    """

    bp: int
    at: bool = False

    outcomes = ("kills", "blast_markers", "broken")

    def __post_init__(self) -> None:
        barrage_row(self.bp)
        super().__post_init__()

    @property
    def row(self) -> BarrageRow:
        return barrage_row(self.bp)

    @property
    def hit_check(self) -> Check:
        to_hit = self.row.anti_tank if self.at else self.row.anti_personnel
        return Check(self._need(to_hit), Natural.EPIC)

    @property
    def markers(self) -> BlastMarkers:
        return self._markers(self.row.extra_blast_markers)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        pool = roll_pool(rng, barrage_die(self.hit_check, self.saves), self.units, trials)
        kills_radix, hits_radix = pool.radices  # the pool's code is kills + kills_radix·hits
        return outcome_roll(self.markers, self.outcomes, pool.codes, kills_radix, hits_radix)

    def joint(self, fractions: bool = False) -> np.ndarray:
        """Return the exact joint pmf of (hits, kills) as a matrix joint[hits, kills]."""
        hit, saved = _numbers(fractions, self.hit_check.chance(), self.saves.chance())
        hits = pmfs.binomial(self.units, hit)  # one roll per unit, never more (§2.5)
        rows = [weight * _padded(pmfs.binomial(h, 1 - saved), self.units + 1) for h, weight in enumerate(hits)]
        return np.array(rows, dtype=object if fractions else float)

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        return _finish(self.markers.outcome_pmfs(self.joint(fractions)), self.outcomes, fractions)


# --- the assault result's dice (RULES.md §2.7) ------------------------------------------


@lru_cache(maxsize=64)
def assault_die(bonus: int, enemy_bonus: int) -> Die:
    """Return both sides' 2D6 as one die: who wins, a draw, and the margin."""

    def rule(mine_a, mine_b, theirs_a, theirs_b):
        mine = np.maximum(mine_a, mine_b) + bonus  # keep the highest die, add the bonus
        theirs = np.maximum(theirs_a, theirs_b) + enemy_bonus
        return mine > theirs, mine == theirs, np.abs(mine - theirs)

    return Die((6, 6, 6, 6), rule, ("win", "draw", "margin"))


@dataclass(frozen=True, kw_only=True)
class Assault:
    """Each side rolls 2D6, keeps the highest and adds its bonus (RULES.md §2.7).

    Outcomes: `win` (this side strictly higher), `draw`, `margin` (the difference).
    """

    bonus: int = 0
    enemy_bonus: int = 0

    outcomes = ("win", "draw", "margin")

    def __post_init__(self) -> None:
        for name in ("bonus", "enemy_bonus"):
            value = getattr(self, name)
            require(abs(value) <= MAX_BONUS, name, value, f"expected a whole number from -{MAX_BONUS} to {MAX_BONUS}")

    def sample(self, rng: np.random.Generator, trials: int):
        return roll_pool(rng, assault_die(self.bonus, self.enemy_bonus), 1, trials)

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        highest = keep_pmf(1, 6, 1)  # the highest of 2D6
        difference: dict[int, Fraction] = {}
        for mine, p in enumerate(highest):
            for theirs, q in enumerate(highest):
                if p and q:
                    gap = (mine + self.bonus) - (theirs + self.enemy_bonus)
                    difference[gap] = difference.get(gap, Fraction(0)) + p * q
        win = sum((p for gap, p in difference.items() if gap > 0), Fraction(0))
        draw = difference.get(0, Fraction(0))
        margin: dict[int, Fraction] = {}
        for gap, p in difference.items():
            margin[abs(gap)] = margin.get(abs(gap), Fraction(0)) + p
        result = {
            "win": pmfs.array([1 - win, win]),
            "draw": pmfs.array([1 - draw, draw]),
            "margin": pmfs.array([margin.get(k, Fraction(0)) for k in range(max(margin) + 1)]),
        }
        return _finish(result, self.outcomes, fractions)


# --- benchmark ---------------------------------------------------------------------------


def baseline_shoot(rng: np.random.Generator, trials: int) -> np.ndarray:
    """12 shots AP 4+ at 6 units, armour 4+, crossfire: plain numpy, stage by stage."""
    from .bench import count_outcomes

    hit = rng.integers(1, 7, size=(trials, 12)) >= 4
    saved = rng.integers(1, 7, size=(trials, 12)) >= 5  # 4+ armour at −1 for crossfire
    unit = (np.cumsum(hit, axis=1) - 1) % 6  # the j-th hit goes to unit j mod 6
    failed = hit & ~saved
    kills = sum((failed & (unit == u)).any(axis=1) for u in range(6)).astype(np.int64)
    markers = 1 + kills + (kills > 0)
    broken = markers >= 6 - kills
    return count_outcomes(kills, hit.sum(axis=1), markers, broken)


def baseline_barrage(rng: np.random.Generator, trials: int) -> np.ndarray:
    """8 BP (AP 4+, 1 extra BM) at 5 units, armour 4+: plain numpy, stage by stage."""
    from .bench import count_outcomes

    hit = rng.integers(1, 7, size=(trials, 5)) >= 4
    saved = rng.integers(1, 7, size=(trials, 5)) >= 4
    kills = (hit & ~saved).sum(axis=1)
    markers = 1 + 1 + kills
    broken = markers >= 5 - kills
    return count_outcomes(kills, markers, broken)


def bench_cases() -> list:
    """The Epic cases of `python -m oddscalc.bench`."""
    from .bench import Case

    return [
        Case("epic shoot 12 shots AP 4+ at 6 units, armour 4+, crossfire",
             Shoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True), baseline_shoot, 24, 5.0),
        Case("epic barrage 8 BP at 5 units, armour 4+", Barrage(bp=8, units=5, armour=4), baseline_barrage, 10, 5.0),
    ]
