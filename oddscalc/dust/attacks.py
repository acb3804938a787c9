"""Dust Tactics attacks (docs/rules.md §1): weapon lines and artillery, phaser, salvo,
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
from ..attack import Attack, option
from ..dice import rerolled
from ..errors import InputError, choose, require
from ..pool import Die, PoolRoll, roll_pool, uniform_faces
from .board import Corner, Kind, check_shot
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
    attack_die,
    check_count,
    check_models_firing,
    cover_save,
    exact_line,
    resist,
    resisted,
    sample_line,
    shows_hit,
)

SUSTAINED = "Sustained attack: re-roll all misses once (takes both actions)."
BERSERK = "Berserk: one more re-roll pass of the failed dice (open rules question: stacks with --sustained)."
SAVE = "The target's cover save: hit (a hit survives 2/3, soft cover), miss (survives 1/3, hard cover) or none."
RESILIENT = "The target is Damage Resilient: one die per damage point, each hit cancels a point."
COUNT = "Models firing the weapon: their dice add up (1 to 20)."
MODELS = "Models M in the target unit."


def _target(save: CoverSave, resilient: bool) -> str:
    """The target's part of a description: its save and Damage Resilient."""
    words = ([f"into a {save.value}-save"] if save is not CoverSave.NONE else []) + (["resilient"] if resilient else [])
    return "".join(f", {word}" for word in words)


# --- weapon lines and artillery -----------------------------------------------------


@dataclass(frozen=True)
class WeaponLine(Attack):
    """Roll a weapon line N/D: N Dust dice, D damage for each hit that gets past the save.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Order (§1.2): dice (x2 burst), roll, re-rolls (sustained, then Berserk), the cover
    save cancels hits, damage = surviving hits x D, Damage Resilient. `count` models fire
    the line (their dice add up).

    Artillery ignores cover unless the target is in a structure; indirect fire allows no
    sustained attack; its success face is an open rules question (default hit, 1/3; with
    blank, 2/3, re-rolls re-roll the failures) (§1.9). Outcomes: damage, hits (after
    re-rolls, before saves).
    """

    dice: int = option("Dice N of the weapon line N/D.")
    damage: int = option("Damage D per hit of the weapon line N/D.", 1, metavar="D")
    sustained: bool = option(SUSTAINED, False)
    berserk: bool = option(BERSERK, False)
    burst: bool = option("Burst fire at a target that has not moved this round: double the dice.", False)
    save: CoverSave = option(SAVE, CoverSave.NONE)
    resilient: bool = option(RESILIENT, False)
    artillery: Artillery | None = option(
        "Artillery (range A): direct (own line of sight, sustained allowed) or indirect (an observer's, no "
        "sustained attack). Artillery ignores cover.", None)
    in_structure: bool = option("The target is inside a structure: artillery does not ignore its cover.", False)
    indirect_success: Success = option(
        "The face an indirect artillery die succeeds on: hit (1/3) or blank (2/3). An open rules question; hit is "
        "the default.", Success.HIT)
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust attack"
    outcomes = ("damage", "hits")

    def describe(self) -> str:
        line = f"{self.count} × {self.dice}/{self.damage}" if self.count > 1 else f"{self.dice}/{self.damage}"
        words = self.flags("sustained", "berserk", "burst") + ([f"{self.artillery.value} artillery"]
                                                                if self.artillery else [])
        words += self.flags("in_structure") + ([f"indirect success on a {self.indirect_success.value}"]
                                               if self.indirect_success is not Success.HIT else [])
        return f"Dust weapon line {line}" + "".join(f", {w}" for w in words) + _target(self.save, self.resilient)

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
            "indirect fire takes both of the unit's actions, so no sustained attack (docs/rules.md §1.9); "
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
        """The dice rolled: every firing model's, doubled by burst fire (docs/rules.md §1.4)."""
        return self.dice * self.count * (2 if self.burst else 1)

    @property
    def rerolls(self) -> int:
        """Re-roll passes: sustained attack one, Berserk one more (docs/rules.md §1.3)."""
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
    """Fire a phaser XzY: roll X dice, then Y dice per hit, each hit 1 damage.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    The phaser ignores cover (no save); a sustained attack and Berserk re-roll only the X
    stage (§1.5). `count` phasers fire together. Outcomes: damage, hits (first stage,
    after re-rolls).
    """

    aim: int
    blast: int
    sustained: bool = option(SUSTAINED, False)
    berserk: bool = option(BERSERK, False)
    resilient: bool = option(RESILIENT, False)
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust phaser"
    ARGUMENTS = ("aim", "blast")
    outcomes = ("damage", "hits")

    def describe(self) -> str:
        words = self.flags("sustained", "berserk")
        return (f"Dust phaser {'%d × ' % self.count if self.count > 1 else ''}{self}"
                + "".join(f", {w}" for w in words) + _target(CoverSave.NONE, self.resilient))

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
    """Fire a salvo A/X-B/X-...: K charges roll the K-th entry's dice, X damage per hit.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Otherwise a weapon line (§1.6): re-rolls, then the cover save; `count` models fire it.
    Outcomes: damage, hits (after re-rolls, before saves).
    """

    entries: tuple[tuple[int, int], ...]
    charges: int = option("Charges K spent (1 rolls the first entry).", 1, metavar="K")
    sustained: bool = option(SUSTAINED, False)
    berserk: bool = option(BERSERK, False)
    save: CoverSave = option(SAVE, CoverSave.NONE)
    resilient: bool = option(RESILIENT, False)
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust salvo"
    ARGUMENTS = ("entries",)
    outcomes = ("damage", "hits")

    def describe(self) -> str:
        words = [f"{self.charges} charge{'s' * (self.charges != 1)}"] + self.flags("sustained", "berserk")
        return (f"Dust salvo {'%d × ' % self.count if self.count > 1 else ''}{self}"
                + "".join(f", {w}" for w in words) + _target(self.save, self.resilient))

    def __post_init__(self) -> None:
        choose(self, "save", CoverSave)
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
    """Fire an incendiary X/+: X dice per model in the target unit, each hit 1 damage.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Whether cover saves apply is an open rules question (§1.7): by default the save
    applies; `ignore_cover` turns it off. `count` models fire it. Outcomes: damage, hits
    (before saves).
    """

    dice: int
    models: int = option(MODELS, 1, metavar="M")
    save: CoverSave = option(SAVE, CoverSave.NONE)
    ignore_cover: bool = option("Incendiary ignores the cover save (an open rules question; by default the --save "
                                "applies).", False)
    resilient: bool = option(RESILIENT, False)
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust incendiary"
    ARGUMENTS = ("dice",)
    outcomes = ("damage", "hits")

    def describe(self) -> str:
        return (f"Dust incendiary {'%d × ' % self.count if self.count > 1 else ''}{self.dice}/+ on {self.models} "
                f"model{'s' * (self.models != 1)}" + _target(self.cover, self.resilient))

    def __post_init__(self) -> None:
        choose(self, "save", CoverSave)
        check_count(self.dice, "dice", 1, MAX_PER_MODEL, "dice per model")
        check_count(self.models, "models", 1, MAX_MODELS, "models in the target unit")
        check_models_firing(self.count)

    @property
    def cover(self) -> CoverSave:
        """The save that applies (the open switch of docs/rules.md §1.7)."""
        return CoverSave.NONE if self.ignore_cover else self.save

    @property
    def rolled(self) -> int:
        """X dice per target model, for every firing model (docs/rules.md §1.7)."""
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
    """Fire an armour-piercing incendiary X/skull: X dice per model; one hit removes the unit.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    P(destroyed) = 1 - (2/3)^(X*M*C) for C weapons on M models (§1.8). Outcome: destroyed
    (0 or 1).
    """

    dice: int
    models: int = option(MODELS, 1, metavar="M")
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust ap-incendiary"
    ARGUMENTS = ("dice",)
    outcomes = ("destroyed",)
    events = ("destroyed",)

    def describe(self) -> str:
        return (f"Dust AP incendiary {'%d × ' % self.count if self.count > 1 else ''}{self.dice}/skull on "
                f"{self.models} model{'s' * (self.models != 1)}")

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
    """Try reactive fire: one die, a hit lets the unit fire (§1.10).

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Outcome: success (0 or 1).
    """

    COMMAND = "dust reactive"
    outcomes = ("success",)
    events = ("success",)

    def describe(self) -> str:
        return "Dust reactive fire"

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        return {"success": shows_hit(uniform_faces(rng, 6, trials))}

    def pmfs(self, number) -> dict[str, np.ndarray]:
        return {"success": pmfs.array([number(1 - HIT), number(HIT)])}


def on_board(save: CoverSave | None = None, board: str | None = None, from_square: str | None = None,
             to_square: str | None = None, target: Kind | None = None, corner: Corner | None = None,
             **line: Any) -> WeaponLine:
    """A weapon line whose shot is first checked on a map when `board` is given (§1.12).

    A blocked line of sight is refused; a soldier in rubble gets soft cover (a hit-save)
    unless `save` is given. Without a board, the board's options are refused.
    """
    if board is not None:
        _, sight = check_shot(board, from_square, to_square, target or Kind.SOLDIER, corner or Corner.BOTH)
        save = cover_save(sight.cover) if save is None else save  # an explicit save wins
    else:
        for name, value, spelled in (("from_square", from_square, "--from"), ("to_square", to_square, "--to"),
                                     ("target", target, "--target"), ("corner", corner, "--corner")):
            if value is not None:
                raise InputError(name, getattr(value, "value", value), f"{spelled} only applies with --board MAP")
    return WeaponLine(save=save or CoverSave.NONE, **line)
