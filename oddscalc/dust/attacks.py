"""Dust Tactics attacks (RULES.md §1): weapon lines and artillery, phaser, salvo,
incendiary, armour-piercing incendiary and reactive fire. The Dust die and the stages
they share are in `die.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .. import pmf as pmfs
from ..attack import Attack
from ..dice import rerolled
from ..errors import InputError, choose, require
from ..pool import Die, PoolRoll, roll_pool, uniform_faces
from .die import (
    BLAST_DIE,
    HIT,
    MAX_DAMAGE,
    MAX_DICE,
    MAX_MODELS,
    MAX_PER_MODEL,
    MAX_PHASER,
    Artillery,
    CoverSave,
    Success,
    check_count,
    exact_line,
    check_models_firing,
    resist,
    resisted,
    sample_line,
    attack_die,
    shows_hit,
)


# --- weapon lines and artillery -----------------------------------------------------


@dataclass(frozen=True)
class WeaponLine(Attack):
    """Roll `dice` Dust dice; each hit that gets past the save does `damage` (`N/D`).

    `count` models fire the line (their dice add up). `artillery` (range A) ignores
    cover unless the target is `in_structure`; indirect fire allows no sustained attack,
    and its success face is open: `indirect_success` (default hit, 1/3; blank, 2/3;
    re-rolls then re-roll failures). Outcomes: `damage`, `hits` (after re-rolls, before
    saves).
    """

    dice: int
    damage: int = 1
    sustained: bool = False
    berserk: bool = False
    burst: bool = False
    save: CoverSave = CoverSave.NONE
    resilient: bool = False
    artillery: Artillery | None = None
    in_structure: bool = False
    indirect_success: Success = Success.HIT
    count: int = 1

    COMMAND = "dust attack"
    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        choose(self, "save", CoverSave)
        choose(self, "artillery", Artillery, optional=True)
        choose(self, "indirect_success", Success)
        check_count(self.dice, "dice", 0, MAX_DICE, "dice")
        check_count(self.damage, "damage", 1, MAX_DAMAGE, "damage per hit")
        check_models_firing(self.count)
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
        """The dice rolled: every firing model's, doubled by burst fire (RULES.md §1.4)."""
        return self.dice * self.count * (2 if self.burst else 1)

    @property
    def rerolls(self) -> int:
        """Re-roll passes: sustained attack one, Berserk one more (RULES.md §1.3)."""
        return int(self.sustained) + int(self.berserk)

    @property
    def success(self) -> Success:
        return self.indirect_success if self.artillery is Artillery.INDIRECT else Success.HIT

    @property
    def cover(self) -> CoverSave:
        """The save that applies: artillery ignores cover unless in a structure (§1.9)."""
        return self.save if self.artillery is None or self.in_structure else CoverSave.NONE

    @cached_property
    def _die(self) -> Die:
        return attack_die(self.rerolls, self.success, self.cover, self.damage)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return sample_line(rng, trials, self._die, self.rolled, self.resilient)

    def pmfs(self, number) -> dict[str, np.ndarray]:
        face = HIT if self.success is Success.HIT else 1 - HIT
        return exact_line(self.rolled, rerolled(face, self.rerolls), self.cover, self.damage, self.resilient,
                           number)


# --- phaser XzY (§1.5) --------------------------------------------------------------

_PHASER = re.compile(r"^\s*(\d+)\s*[zZ]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Phaser(Attack):
    """Phaser `XzY`: roll X (`aim`) dice; each hit rolls Y (`blast`) dice, each hit 1 damage.

    `count` phasers fire together (their X dice add up). It ignores cover; a sustained
    attack or Berserk re-rolls only the X stage. Outcomes: `damage`, `hits` (first
    stage, after re-rolls).
    """

    aim: int
    blast: int
    sustained: bool = False
    berserk: bool = False
    resilient: bool = False
    count: int = 1

    COMMAND = "dust phaser"
    ARGUMENTS = ("aim", "blast")
    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        for name in ("aim", "blast"):
            value = getattr(self, name)
            whole = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
            require(whole and 1 <= value <= MAX_PHASER, "phaser", f"{self.aim}z{self.blast}",
                    f"X and Y must be whole numbers from 1 to {MAX_PHASER}, like 2z3")
        check_models_firing(self.count)

    @classmethod
    def parse(cls, text: str, **options: Any) -> Phaser:
        """Read `2z3`."""
        match = _PHASER.match(str(text))
        if not match:
            raise InputError("phaser", text, "expected XzY with whole numbers X, Y ≥ 1, like 2z3")
        return cls(int(match.group(1)), int(match.group(2)), **options)

    def __str__(self) -> str:
        return f"{self.aim}z{self.blast}"

    def arguments(self) -> list[str]:
        return [str(self)]

    @property
    def rerolls(self) -> int:
        return int(self.sustained) + int(self.berserk)

    @cached_property
    def _die(self) -> Die:
        return attack_die(self.rerolls)

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hits = roll_pool(rng, self._die, self.aim * self.count, trials).total("hits")
        # §1.5: only the X stage is re-rolled; each hit rolls Y plain dice
        damage = roll_pool(rng, BLAST_DIE, hits * self.blast, trials).total("damage")
        if self.resilient:
            damage = resist(rng, damage, trials)
        return {"damage": damage, "hits": hits}

    def pmfs(self, number) -> dict[str, np.ndarray]:
        hits = pmfs.binomial(self.aim * self.count, number(rerolled(HIT, self.rerolls)))
        damage = pmfs.then(hits, lambda h: pmfs.binomial(h * self.blast, number(HIT)))
        return {"damage": resisted(damage, self.resilient, number), "hits": hits}


# --- salvo A/X – B/X – … (§1.6) -----------------------------------------------------

_SALVO_ENTRY = re.compile(r"^\s*(\d+)\s*(?:/\s*(\d+)\s*)?$")
_SALVO_ALLOWED = "expected entries N/D joined by '-', one per charge, like 3/2-5/2-7/2"


@dataclass(frozen=True)
class Salvo(Attack):
    """Salvo `A/X-B/X-…`: spending `charges` K rolls the K-th entry's dice, X damage per hit.

    `count` models fire it (their dice add up). A weapon line like any other: re-rolls
    and the cover save apply. Outcomes: `damage`, `hits`.
    """

    entries: tuple[tuple[int, int], ...]
    charges: int = 1
    sustained: bool = False
    berserk: bool = False
    save: CoverSave = CoverSave.NONE
    resilient: bool = False
    count: int = 1

    COMMAND = "dust salvo"
    ARGUMENTS = ("entries",)
    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", tuple(tuple(entry) for entry in self.entries))
        require(len(self.entries) >= 1, "salvo", str(self), _SALVO_ALLOWED)
        for dice, damage in self.entries:
            require(1 <= dice <= MAX_DICE and 1 <= damage <= MAX_DAMAGE, "salvo", str(self),
                    f"each entry needs 1 to {MAX_DICE} dice and 1 to {MAX_DAMAGE} damage, like 3/2")
        entries = len(self.entries)
        whole = isinstance(self.charges, (int, np.integer)) and not isinstance(self.charges, bool)
        require(whole and 1 <= self.charges <= entries, "charges", self.charges,
                f"expected 1 to {entries} charges (the salvo {self} has {entries} "
                f"entr{'y' if entries == 1 else 'ies'})")
        check_models_firing(self.count)
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

    def arguments(self) -> list[str]:
        return [str(self)]

    @cached_property
    def line(self) -> WeaponLine:
        """The weapon line that the spent charges fire."""
        dice, damage = self.entries[self.charges - 1]
        return WeaponLine(dice, damage, self.sustained, self.berserk, save=self.save, resilient=self.resilient,
                          count=self.count)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return self.line.sample(rng, trials)

    def pmfs(self, number) -> dict[str, np.ndarray]:
        return self.line.pmfs(number)


# --- incendiary X/+ and armour-piercing incendiary X/skull (§1.7, §1.8) -------------

_PER_MODEL = re.compile(r"^\s*(\d+)\s*(?:/\s*(\+|skull|☠)\s*)?$", re.IGNORECASE)


def parse_per_model(text: str, name: str = "dice") -> int:
    """Read the X of `X/+` or `X/skull` (the bare `X` too)."""
    match = _PER_MODEL.match(str(text))
    if not match:
        raise InputError(name, text, "expected the dice per model X, like 1 (or 1/+, 1/skull)")
    return int(match.group(1))


@dataclass(frozen=True)
class Incendiary(Attack):
    """Incendiary `X/+`: X dice per model in the target unit, each hit 1 damage.

    `count` models fire it (their dice add up). Whether cover saves apply is open
    (RULES.md §1.7): by default the `save` applies; `ignore_cover` turns it off.
    Outcomes: `damage`, `hits`.
    """

    dice: int
    models: int
    save: CoverSave = CoverSave.NONE
    ignore_cover: bool = False
    resilient: bool = False
    count: int = 1

    COMMAND = "dust incendiary"
    ARGUMENTS = ("dice",)
    outcomes = ("damage", "hits")

    def __post_init__(self) -> None:
        choose(self, "save", CoverSave)
        check_count(self.dice, "dice", 1, MAX_PER_MODEL, "dice per model")
        check_count(self.models, "models", 1, MAX_MODELS, "models in the target unit")
        check_models_firing(self.count)

    @property
    def cover(self) -> CoverSave:
        """The save that applies (the open switch of RULES.md §1.7)."""
        return CoverSave.NONE if self.ignore_cover else self.save

    @property
    def rolled(self) -> int:
        """X dice per target model, for every firing model (RULES.md §1.7)."""
        return self.dice * self.models * self.count

    @cached_property
    def _die(self) -> Die:
        return attack_die(0, Success.HIT, self.cover, 1)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return sample_line(rng, trials, self._die, self.rolled, self.resilient)

    def pmfs(self, number) -> dict[str, np.ndarray]:
        return exact_line(self.rolled, HIT, self.cover, 1, self.resilient, number)


@dataclass(frozen=True)
class ArmourPiercingIncendiary(Attack):
    """Armour-piercing incendiary `X/skull`: X dice per model; any hit removes the whole unit.

    `count` models fire it (their dice add up). Outcome: `destroyed` (0 or 1).
    """

    dice: int
    models: int
    count: int = 1

    COMMAND = "dust ap-incendiary"
    ARGUMENTS = ("dice",)
    outcomes = ("destroyed",)

    def __post_init__(self) -> None:
        check_count(self.dice, "dice", 1, MAX_PER_MODEL, "dice per model")
        check_count(self.models, "models", 1, MAX_MODELS, "models in the target unit")
        check_models_firing(self.count)

    @property
    def rolled(self) -> int:
        return self.dice * self.models * self.count

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hits = roll_pool(rng, attack_die(), self.rolled, trials).total("hits")
        return {"destroyed": hits > 0}  # §1.8: one hit or more removes the unit

    def pmfs(self, number) -> dict[str, np.ndarray]:
        missed = number(1 - HIT) ** self.rolled
        return {"destroyed": pmfs.array([missed, 1 - missed])}


# --- reactive fire (§1.10) ----------------------------------------------------------


@dataclass(frozen=True)
class Reactive(Attack):
    """Reactive fire: one die; on a hit the unit fires. Outcome: `success` (0 or 1)."""

    COMMAND = "dust reactive"
    outcomes = ("success",)

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        return {"success": shows_hit(uniform_faces(rng, 6, trials))}

    def pmfs(self, number) -> dict[str, np.ndarray]:
        return {"success": pmfs.array([number(1 - HIT), number(HIT)])}
