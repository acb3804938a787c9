"""Dust Tactics attacks (RULES.md §1): weapon lines and artillery, phaser, salvo,
incendiary, armour-piercing incendiary and reactive fire.

The Dust die is read off a D6: faces 5 and 6 are its two hit (target) faces, faces 1–4
its four blanks, so P(hit) = 1/3 (RULES.md §1.1). Samplers apply that face rule to
natural D6 faces; the exact twins compute from the chance 1/3 with pmf algebra.

A weapon line resolves in the order of RULES.md §1.2: dice (×2 for burst fire), roll,
re-rolls (sustained attack, Berserk), the cover save cancels hits, damage = surviving
hits × D, Damage Resilient cancels damage points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from . import pmf as pmfs
from .dice import rerolled
from .dust_board import Cover
from .errors import InputError, choose, require
from .pool import Die, PoolRoll, roll_pool, uniform_faces

HIT_FACE = 5  # RULES.md §1.1, read off a D6: faces 5 and 6 are the two hit (target) faces
HIT = Fraction(7 - HIT_FACE, 6)  # P(hit) = 1/3
MAX_DICE = 50
MAX_DAMAGE = 10
MAX_MODELS = 50
MAX_PER_MODEL = 10
MAX_PHASER = 20


class Save(str, Enum):
    """The target's cover save (RULES.md §1.11)."""

    NONE = "none"
    HIT = "hit"  # each hit rolled cancels a hit: a hit survives 2/3 (usual in soft cover)
    MISS = "miss"  # each blank rolled cancels a hit: a hit survives 1/3 (usual in hard cover)


class Artillery(str, Enum):
    """How an artillery weapon (range A) fires (RULES.md §1.9)."""

    DIRECT = "direct"
    INDIRECT = "indirect"


class Success(str, Enum):
    """The face that makes an indirect artillery die a success (RULES.md §1.9, open)."""

    HIT = "hit"
    BLANK = "blank"


def cover_save(cover: Cover) -> Save:
    """Return the save a target makes for the cover of its square: soft cover is a hit-save (§1.11)."""
    return Save.HIT if Cover(cover) is Cover.SOFT else Save.NONE


def _count(value: Any, name: str, low: int, high: int, what: str) -> None:
    whole = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    require(whole and low <= value <= high, name, value, f"expected {low} to {high} {what}")


# --- face rules (the samplers) -----------------------------------------------------


def shows_hit(face: np.ndarray) -> np.ndarray:
    """Read a natural D6 as the Dust die: True on a hit face (5 or 6)."""
    return face >= HIT_FACE


@lru_cache(maxsize=64)
def attack_die(rerolls: int = 0, success: Success = Success.HIT, save: Save = Save.NONE, damage: int = 1) -> Die:
    """Return one attack die's life: the roll, its re-rolls, then the target's save.

    Fields: `damage` (D when the die ends as an unsaved hit) and `hits` (before saves).
    """

    def succeeds(face: np.ndarray) -> np.ndarray:
        return shows_hit(face) if success is Success.HIT else ~shows_hit(face)

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hit = succeeds(faces[0])
        for face in faces[1 : rerolls + 1]:  # RULES.md §1.3: a failed die is rolled again
            hit = hit | succeeds(face)
        if save is Save.HIT:  # §1.11: a hit on the save die cancels the hit
            kept = hit & ~shows_hit(faces[-1])
        elif save is Save.MISS:  # §1.11: a blank on the save die cancels the hit
            kept = hit & shows_hit(faces[-1])
        else:
            kept = hit
        return kept * damage, hit

    sides = (6,) * (1 + rerolls + (save is not Save.NONE))
    return Die(sides, rule, ("damage", "hits"))


def _blank(face: np.ndarray) -> np.ndarray:
    return ~shows_hit(face)  # Damage Resilient (§1.11): a blank lets the damage point through


RESILIENCE_DIE = Die((6,), _blank, ("damage",))
BLAST_DIE = Die((6,), shows_hit, ("damage",))  # phaser second stage (§1.5): each hit is 1 damage


def _resist(rng: np.random.Generator, points: np.ndarray, trials: int) -> np.ndarray:
    """Roll one Damage Resilient die per damage point; return the points that get through."""
    return roll_pool(rng, RESILIENCE_DIE, points, trials).total("damage")


# --- exact chances (the exact twins) ------------------------------------------------


def _number(fractions: bool):
    return (lambda x: x) if fractions else float


def _survive(save: Save) -> Fraction:
    """The chance a hit gets past the save (RULES.md §1.11)."""
    return {Save.NONE: Fraction(1), Save.HIT: 1 - HIT, Save.MISS: HIT}[save]


def _finish(pmf: np.ndarray, resilient: bool, fractions: bool) -> np.ndarray:
    """Apply Damage Resilient to a damage pmf: each point gets through on a blank (2/3)."""
    pmf = pmfs.thin(pmf, _number(fractions)(1 - HIT)) if resilient else pmf
    return pmf if fractions else pmfs.as_float(pmf)


# --- one weapon line, both ways (§1.2) ------------------------------------------------


def _sample_line(rng: np.random.Generator, trials: int, die: Die, dice: int,
                 resilient: bool) -> PoolRoll | dict[str, np.ndarray]:
    """Roll `dice` attack dice (each die's whole life), then the Damage Resilient dice."""
    roll = roll_pool(rng, die, dice, trials)
    if not resilient:
        return roll
    return {"damage": _resist(rng, roll.total("damage"), trials), "hits": roll.total("hits")}


def _exact_line(dice: int, chance: Fraction, save: Save, damage: int, resilient: bool,
                fractions: bool) -> dict[str, np.ndarray]:
    """Hits ~ Binomial(dice, chance), thinned by the save, times damage, then resilience."""
    number = _number(fractions)
    hits = pmfs.binomial(dice, number(chance))
    surviving = pmfs.thin(hits, number(_survive(save)))
    return {"damage": _finish(pmfs.scale(surviving, damage), resilient, fractions),
            "hits": hits if fractions else pmfs.as_float(hits)}


# --- weapon lines and artillery -----------------------------------------------------


@dataclass(frozen=True)
class WeaponLine:
    """Roll `dice` Dust dice; each hit that gets past the save does `damage` (`N/D`).

    `artillery` (range A) ignores cover unless the target is `in_structure`; indirect
    fire allows no sustained attack, and its success face is open: `indirect_success`
    (default hit, 1/3; blank, 2/3; re-rolls then re-roll failures). Outcomes: `damage`,
    `hits` (after re-rolls, before saves).
    """

    dice: int
    damage: int = 1
    sustained: bool = False
    berserk: bool = False
    burst: bool = False
    save: Save = Save.NONE
    resilient: bool = False
    artillery: Artillery | None = None
    in_structure: bool = False
    indirect_success: Success = Success.HIT

    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        choose(self, "save", Save)
        choose(self, "artillery", Artillery, optional=True)
        choose(self, "indirect_success", Success)
        _count(self.dice, "dice", 0, MAX_DICE, "dice")
        _count(self.damage, "damage", 1, MAX_DAMAGE, "damage per hit")
        require(
            not (self.sustained and self.artillery is Artillery.INDIRECT),
            "sustained", "with --artillery indirect",
            "indirect fire takes both of the unit's actions, so no sustained attack (RULES.md §1.9); "
            "drop --sustained or fire --artillery direct",
        )
        require(
            not self.in_structure or self.artillery is not None, "in_structure", "without --artillery",
            "only artillery ignores cover, so the structure only matters with --artillery direct|indirect",
        )
        require(
            self.indirect_success is Success.HIT or self.artillery is Artillery.INDIRECT,
            "indirect_success", self.indirect_success.value, "only applies with --artillery indirect",
        )

    @property
    def rolled(self) -> int:
        """The dice rolled: RULES.md §1.4, burst fire doubles them."""
        return self.dice * (2 if self.burst else 1)

    @property
    def rerolls(self) -> int:
        """Re-roll passes: sustained attack one, Berserk one more (RULES.md §1.3)."""
        return int(self.sustained) + int(self.berserk)

    @property
    def success(self) -> Success:
        return self.indirect_success if self.artillery is Artillery.INDIRECT else Success.HIT

    @property
    def cover(self) -> Save:
        """The save that applies: artillery ignores cover unless in a structure (§1.9)."""
        return self.save if self.artillery is None or self.in_structure else Save.NONE

    @cached_property
    def _die(self) -> Die:
        return attack_die(self.rerolls, self.success, self.cover, self.damage)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return _sample_line(rng, trials, self._die, self.rolled, self.resilient)

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        face = HIT if self.success is Success.HIT else 1 - HIT
        return _exact_line(self.rolled, rerolled(face, self.rerolls), self.cover, self.damage, self.resilient,
                           fractions)


# --- phaser XzY (§1.5) --------------------------------------------------------------

_PHASER = re.compile(r"^\s*(\d+)\s*[zZ]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Phaser:
    """Phaser `XzY`: roll X (`aim`) dice; each hit rolls Y (`blast`) dice, each hit 1 damage.

    It ignores cover; a sustained attack or Berserk re-rolls only the X stage. Outcomes:
    `damage`, `hits` (first stage, after re-rolls).
    """

    aim: int
    blast: int
    sustained: bool = False
    berserk: bool = False
    resilient: bool = False

    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        for name in ("aim", "blast"):
            value = getattr(self, name)
            whole = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
            require(whole and 1 <= value <= MAX_PHASER, "phaser", f"{self.aim}z{self.blast}",
                    f"X and Y must be whole numbers from 1 to {MAX_PHASER}, like 2z3")

    @classmethod
    def parse(cls, text: str, **options: Any) -> Phaser:
        """Read `2z3`."""
        match = _PHASER.match(str(text))
        if not match:
            raise InputError("phaser", text, "expected XzY with whole numbers X, Y ≥ 1, like 2z3")
        return cls(int(match.group(1)), int(match.group(2)), **options)

    def __str__(self) -> str:
        return f"{self.aim}z{self.blast}"

    @property
    def rerolls(self) -> int:
        return int(self.sustained) + int(self.berserk)

    @cached_property
    def _die(self) -> Die:
        return attack_die(self.rerolls)

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hits = roll_pool(rng, self._die, self.aim, trials).total("hits")
        # §1.5: only the X stage is re-rolled; each hit rolls Y plain dice
        damage = roll_pool(rng, BLAST_DIE, hits * self.blast, trials).total("damage")
        if self.resilient:
            damage = _resist(rng, damage, trials)
        return {"damage": damage, "hits": hits}

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        number = _number(fractions)
        hits = pmfs.binomial(self.aim, number(rerolled(HIT, self.rerolls)))
        damage = pmfs.then(hits, lambda h: pmfs.binomial(h * self.blast, number(HIT)))
        return {"damage": _finish(damage, self.resilient, fractions),
                "hits": hits if fractions else pmfs.as_float(hits)}


# --- salvo A/X – B/X – … (§1.6) -----------------------------------------------------

_SALVO_ENTRY = re.compile(r"^\s*(\d+)\s*(?:/\s*(\d+)\s*)?$")
_SALVO_ALLOWED = "expected entries N/D joined by '-', one per charge, like 3/2-5/2-7/2"


@dataclass(frozen=True)
class Salvo:
    """Salvo `A/X-B/X-…`: spending `charges` K rolls the K-th entry's dice, X damage per hit.

    A weapon line like any other: re-rolls and the cover save apply. Outcomes: `damage`,
    `hits`.
    """

    entries: tuple[tuple[int, int], ...]
    charges: int = 1
    sustained: bool = False
    berserk: bool = False
    save: Save = Save.NONE
    resilient: bool = False

    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", tuple(tuple(entry) for entry in self.entries))
        require(len(self.entries) >= 1, "salvo", str(self), _SALVO_ALLOWED)
        for dice, damage in self.entries:
            require(1 <= dice <= MAX_DICE and 1 <= damage <= MAX_DAMAGE, "salvo", str(self),
                    f"each entry needs 1 to {MAX_DICE} dice and 1 to {MAX_DAMAGE} damage, like 3/2")
        count = len(self.entries)
        whole = isinstance(self.charges, (int, np.integer)) and not isinstance(self.charges, bool)
        require(whole and 1 <= self.charges <= count, "charges", self.charges,
                f"expected 1 to {count} charges (the salvo {self} has {count} "
                f"entr{'y' if count == 1 else 'ies'})")
        self.line  # build the fired line now, not in a sampling thread

    @classmethod
    def parse(cls, text: str, **options: Any) -> Salvo:
        """Read `3/2-5/2-7/2` (en dashes and spaces allowed; a bare `N` means N/1)."""
        entries = []
        for part in re.split(r"[-–—]", str(text)):
            match = _SALVO_ENTRY.match(part)
            if not match:
                raise InputError("salvo", text, _SALVO_ALLOWED)
            entries.append((int(match.group(1)), int(match.group(2) or 1)))
        return cls(tuple(entries), **options)

    def __str__(self) -> str:
        return "-".join(f"{dice}/{damage}" for dice, damage in self.entries)

    @cached_property
    def line(self) -> WeaponLine:
        """The weapon line that the spent charges fire."""
        dice, damage = self.entries[self.charges - 1]
        return WeaponLine(dice, damage, self.sustained, self.berserk, save=self.save, resilient=self.resilient)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return self.line.sample(rng, trials)

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        return self.line.exact(fractions)


# --- incendiary X/+ and armour-piercing incendiary X/skull (§1.7, §1.8) -------------

_PER_MODEL = re.compile(r"^\s*(\d+)\s*(?:/\s*(\+|skull|☠)\s*)?$", re.IGNORECASE)


def parse_per_model(text: str, name: str = "dice") -> int:
    """Read the X of `X/+` or `X/skull` (the bare `X` too)."""
    match = _PER_MODEL.match(str(text))
    if not match:
        raise InputError(name, text, "expected the dice per model X, like 1 (or 1/+, 1/skull)")
    return int(match.group(1))


@dataclass(frozen=True)
class Incendiary:
    """Incendiary `X/+`: X dice per model in the target unit, each hit 1 damage.

    Whether cover saves apply is open (RULES.md §1.7): by default the `save` applies;
    `ignore_cover` turns it off. Outcomes: `damage`, `hits`.
    """

    dice: int
    models: int
    save: Save = Save.NONE
    ignore_cover: bool = False
    resilient: bool = False

    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        choose(self, "save", Save)
        _count(self.dice, "dice", 1, MAX_PER_MODEL, "dice per model")
        _count(self.models, "models", 1, MAX_MODELS, "models in the target unit")

    @property
    def cover(self) -> Save:
        """The save that applies (the open switch of RULES.md §1.7)."""
        return Save.NONE if self.ignore_cover else self.save

    @cached_property
    def _die(self) -> Die:
        return attack_die(0, Success.HIT, self.cover, 1)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return _sample_line(rng, trials, self._die, self.dice * self.models, self.resilient)

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        return _exact_line(self.dice * self.models, HIT, self.cover, 1, self.resilient, fractions)


@dataclass(frozen=True)
class ArmourPiercingIncendiary:
    """Armour-piercing incendiary `X/skull`: X dice per model; any hit removes the whole unit.

    Outcome: `destroyed` (0 or 1).
    """

    dice: int
    models: int

    outcomes = ("destroyed",)

    def __post_init__(self) -> None:
        _count(self.dice, "dice", 1, MAX_PER_MODEL, "dice per model")
        _count(self.models, "models", 1, MAX_MODELS, "models in the target unit")

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hits = roll_pool(rng, attack_die(), self.dice * self.models, trials).total("hits")
        return {"destroyed": hits > 0}  # §1.8: one hit or more removes the unit

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        missed = (1 - HIT) ** (self.dice * self.models)
        pmf = pmfs.array([missed, 1 - missed])
        return {"destroyed": pmf if fractions else pmfs.as_float(pmf)}


# --- reactive fire (§1.10) ----------------------------------------------------------


@dataclass(frozen=True)
class Reactive:
    """Reactive fire: one die; on a hit the unit fires. Outcome: `success` (0 or 1)."""

    outcomes = ("success",)

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        return {"success": shows_hit(uniform_faces(rng, 6, trials))}

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        pmf = pmfs.array([1 - HIT, HIT])
        return {"success": pmf if fractions else pmfs.as_float(pmf)}


# --- benchmark ----------------------------------------------------------------------


def _baseline_hits(rng: np.random.Generator, trials: int, dice: int, rerolls: int) -> np.ndarray:
    """Plain numpy: roll `dice` D6 per trial, re-roll the misses `rerolls` times; hit mask."""
    hit = rng.integers(1, 7, size=(trials, dice)) >= HIT_FACE
    for _ in range(rerolls):
        again = rng.integers(1, 7, size=(trials, dice)) >= HIT_FACE
        hit |= again
    return hit


def baseline_phaser(rng: np.random.Generator, trials: int) -> np.ndarray:
    """Phaser 2z3 sustained in plain numpy: 2 dice re-rolled once, then 3 dice per hit."""
    from .bench import count_outcomes

    hits = _baseline_hits(rng, trials, 2, 1).sum(axis=1)
    blast = rng.integers(1, 7, size=(trials, 6)) >= HIT_FACE
    live = np.arange(6)[None, :] < (hits * 3)[:, None]
    damage = (blast & live).sum(axis=1)
    return count_outcomes(damage, hits)


def baseline_hard_cover(rng: np.random.Generator, trials: int) -> np.ndarray:
    """6 dice sustained into a miss-save in plain numpy: a hit survives on a hit face."""
    from .bench import count_outcomes

    hit = _baseline_hits(rng, trials, 6, 1)
    saved = rng.integers(1, 7, size=(trials, 6)) < HIT_FACE
    return count_outcomes((hit & ~saved).sum(axis=1), hit.sum(axis=1))


def bench_cases() -> list:
    """The Dust cases of `python -m oddscalc.bench`."""
    from .bench import Case

    return [
        Case("dust phaser 2z3 sustained", Phaser(2, 3, sustained=True), baseline_phaser, 10, 5.0),
        Case("dust 6 dice sustained, miss-save (hard cover)", WeaponLine(6, sustained=True, save=Save.MISS),
             baseline_hard_cover, 18, 5.0),
    ]
