"""Dust Tactics attacks (docs/rules.md §1): weapon lines and artillery, phaser and salvo,
and the re-rolls and burst fire every Dust attack may take. The incendiaries are in
`incendiary.py`, reactive fire in `reactive.py`, the board in `board.py` and `shot.py`;
the Dust die and the stages they share in `die.py`.
"""

from __future__ import annotations

import re
from dataclasses import KW_ONLY, field
from functools import cached_property
from numbers import Integral
from typing import Any, TYPE_CHECKING, overload

from ..core.record import record

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
from ..core.attack import Attack, option
from ..core.dice import rerolled
from ..errors import InputError, choose, require
from .die import (
    blast_die,
    HIT,
    MAX_DAMAGE,
    MAX_DICE,
    MAX_PHASER,
    Artillery,
    CoverSave,
    Stacking,
    Success,
    attack_die,
    check_count,
    check_models_firing,
    exact_line,
    reroll_passes,
    resist,
    resisted,
    sample_line,
)

SUSTAINED = "Sustained attack: re-roll all misses once (takes both actions)."
BERSERK = "Berserk: re-roll the failed dice once more (declared before rolling)."
STACKING = ("With --sustained and --berserk: stack (a second re-roll pass, the default) or once (one pass in all). "
            "An open rules question.")
BURST = "Burst fire at a target that has not moved this turn: double the dice."
SAVE = "The target's cover save: hit (a hit survives 2/3, soft cover), miss (survives 1/3, hard cover) or none."
RESILIENT = "The target is Damage Resilient: one die per damage point, each hit cancels a point."
COUNT = "Models firing the weapon: their dice add up (1 to 20)."
MODELS = "Models M in the target unit."


def target_words(save: CoverSave, resilient: bool) -> str:
    """The target's part of a description: its save and Damage Resilient."""
    words = ([f"into a {save.value}-save"] if save is not CoverSave.NONE else []) + (["resilient"] if resilient else [])
    return "".join(f", {word}" for word in words)


# --- re-rolls and burst fire, on every Dust attack (§1.3, §1.4) -------------------------


@record(kw_only=True)
class Fire(Attack):
    """What every Dust attack may take: re-rolls of the missed dice (a sustained attack,
    Berserk) and burst fire (double the dice). The seeds forbid only a sustained attack
    with indirect artillery fire (§1.9) and during reactive fire (§1.10)."""

    sustained: bool = option(SUSTAINED, False)
    berserk: bool = option(BERSERK, False)
    berserk_stacking: Stacking = option(STACKING, Stacking.STACK)
    burst: bool = option(BURST, False)

    @property
    def rerolls(self) -> int:
        """Re-roll passes: sustained attack one, Berserk one more, or one in all (docs/rules.md §1.3)."""
        return reroll_passes(self.sustained, self.berserk, self.berserk_stacking)

    def doubled(self, dice: int) -> int:
        """The dice rolled: doubled by burst fire (docs/rules.md §1.4)."""
        return dice * (2 if self.burst else 1)

    def check_fire(self) -> None:
        choose(self, "berserk_stacking", Stacking)
        require(self.berserk_stacking is Stacking.STACK or (self.sustained and self.berserk), "berserk_stacking",
                self.berserk_stacking.value, "only matters with both --sustained and --berserk (stack: two re-roll "
                                             "passes; once: one)")

    def fire_words(self) -> list[str]:
        """The modifiers' part of a description."""
        once = ["one re-roll pass in all"] if self.berserk_stacking is Stacking.ONCE else []
        return self.flags("sustained", "berserk") + once + self.flags("burst")


MAX_UNIT_HEALTH = 200  # damage points of a target unit in all (as reactive fire's --health)


@record(kw_only=True)
class _AtUnit(Fire):
    """A Dust attack that deals damage and hits; with the target unit's `health`, the outcome destroyed too
    (damage at least its damage points in all)."""

    health: int | None = option("The target unit's damage points in all: adds the outcome destroyed (damage at "
                                "least that), 1 to 200.", None, metavar="H")

    events = ("destroyed",)

    @property
    def outcomes(self) -> tuple[str, ...]:
        return ("damage", "hits") + (("destroyed",) if self.health is not None else ())

    def unit_words(self) -> list[str]:
        return [f"a unit of {self.health} damage points"] if self.health is not None else []

    def check_unit(self) -> None:
        if self.health is not None:
            check_count(self.health, "health", 1, MAX_UNIT_HEALTH, "damage points")

    @overload
    def destroyed_sample(self, rolled: dict[str, np.ndarray]) -> dict[str, np.ndarray]: ...

    @overload
    def destroyed_sample(self, rolled: PoolRoll) -> PoolRoll | dict[str, np.ndarray]: ...

    def destroyed_sample(self, rolled: PoolRoll | dict[str, np.ndarray]) -> PoolRoll | dict[str, np.ndarray]:
        """The sampled damage and hits, and whether the unit is destroyed."""
        if self.health is None:
            return rolled
        totals = {name: rolled.total(name) if isinstance(rolled, pool.PoolRoll) else rolled[name]
                  for name in ("damage", "hits")}
        return {**totals, "destroyed": (totals["damage"] >= self.health).astype(np.int64)}

    def destroyed_pmfs(self, exact: dict[str, Any], number: NumberType) -> dict[str, Any]:
        """The exact twin of `destroyed_sample`."""
        if self.health is not None:
            destroyed = sum(exact["damage"][self.health:], number(0))
            exact["destroyed"] = (1 - destroyed, destroyed)  # (a tuple: no arrays where the damage has none)
        return exact


# --- weapon lines and artillery -----------------------------------------------------


@record
class WeaponLine(_AtUnit):
    """Roll a weapon line N/D: N Dust dice, D damage for each hit that gets past the save.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Order (§1.2): dice (x2 burst), roll, re-rolls (sustained, then Berserk), the cover
    save cancels hits, damage = surviving hits x D, Damage Resilient. `count` models fire
    the line (their dice add up).

    Artillery ignores cover unless the target is in a structure; indirect fire allows no
    sustained attack; its success face is an open rules question (default hit, 1/3; with
    blank, 2/3, re-rolls re-roll the failures) (§1.9). Outcomes: damage, hits (after
    re-rolls, before saves), and with the target unit's `health`, destroyed (damage at
    least its damage points in all).
    """

    dice: int = option("Dice N of the weapon line N/D.")
    damage: int = option("Damage D per hit of the weapon line N/D.", 1, metavar="D")
    _: KW_ONLY
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

    def describe(self) -> str:
        line = f"{self.count} × {self.dice}/{self.damage}" if self.count > 1 else f"{self.dice}/{self.damage}"
        words = self.fire_words() + ([f"{self.artillery.value} artillery"] if self.artillery else [])
        words += self.flags("in_structure") + ([f"indirect success on a {self.indirect_success.value}"]
                                               if self.indirect_success is not Success.HIT else [])
        words += self.unit_words()
        return f"Dust weapon line {line}" + "".join(f", {w}" for w in words) + target_words(self.save, self.resilient)

    def check(self) -> None:
        choose(self, "save", CoverSave)
        choose(self, "artillery", Artillery, optional=True)
        choose(self, "indirect_success", Success)
        check_count(self.dice, "dice", 1, MAX_DICE, "dice")
        check_count(self.damage, "damage", 1, MAX_DAMAGE, "damage per hit")
        check_models_firing(self.count)
        self.check_unit()
        self.check_fire()
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
        return self.doubled(self.dice * self.count)

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
        return self.destroyed_sample(sample_line(rng, trials, self._die, self.rolled, self.resilient))

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        face = HIT if self.success is Success.HIT else 1 - HIT
        return self.destroyed_pmfs(exact_line(self.rolled, rerolled(face, self.rerolls), self.cover, self.damage,
                                              self.resilient, number), number)


# --- phaser XzY (§1.5) --------------------------------------------------------------

_PHASER = re.compile(r"^\s*([0-9]+)\s*[zZ]\s*([0-9]+)\s*$")


@record
class Phaser(_AtUnit):
    """Fire a phaser XzY: roll X dice, then Y dice per hit, each hit 1 damage.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    The phaser ignores cover (no save); a sustained attack and Berserk re-roll only the X
    stage (§1.5), and burst fire doubles only the X dice (a reading: the Y dice are the
    blast, not the fire). `count` phasers fire together. Outcomes: damage, hits (first
    stage, after re-rolls), and with the target unit's `health`, destroyed.
    """

    aim: int | str  # X, or the whole "XzY"
    blast: int | None = None
    _: KW_ONLY
    resilient: bool = option(RESILIENT, False)
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust phaser"
    ARGUMENTS = ("aim", "blast")

    def describe(self) -> str:
        words = self.fire_words() + self.unit_words()
        return (f"Dust phaser {'%d × ' % self.count if self.count > 1 else ''}{self}"
                + "".join(f", {w}" for w in words) + target_words(CoverSave.NONE, self.resilient))

    def check(self) -> None:
        if isinstance(self.aim, str):
            match = _PHASER.match(self.aim)
            if match is None or self.blast is not None:
                raise InputError("phaser", self.aim if self.blast is None else f"{self.aim}, {self.blast}",
                                 "expected XzY with whole numbers X, Y ≥ 1, like 2z3")
            object.__setattr__(self, "aim", int(match.group(1)))
            object.__setattr__(self, "blast", int(match.group(2)))
        for name in ("aim", "blast"):
            value = getattr(self, name)
            whole = isinstance(value, Integral) and not isinstance(value, bool)
            require(whole and 1 <= value <= MAX_PHASER, "phaser", f"{self.aim}z{self.blast}",
                    f"X and Y must be whole numbers from 1 to {MAX_PHASER}, like 2z3")
        check_models_firing(self.count)
        self.check_unit()
        self.check_fire()

    @classmethod
    def parse(cls, text: str, **options: Any) -> Phaser:
        """Read `2z3` (as `Phaser("2z3")` does)."""
        return cls(str(text), **options)

    def __str__(self) -> str:
        return f"{self.aim}z{self.blast}"

    def arguments(self) -> list[str]:
        return [str(self)]

    @property
    def stages(self) -> tuple[int, int]:
        """(X, Y): whole numbers once `check` has read them (from `XzY`, or given apart)."""
        aim, blast = self.aim, self.blast
        assert not isinstance(aim, str) and blast is not None  # check() reads XzY and refuses a missing Y
        return aim, blast

    @property
    def rolled(self) -> int:
        """The X dice of every phaser firing, doubled by burst fire."""
        return self.doubled(self.stages[0] * self.count)

    @cached_property
    def _die(self) -> Die:
        return attack_die(self.rerolls)

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        hits = pool.roll_pool(rng, self._die, self.rolled, trials).total("hits")
        # §1.5: only the X stage is re-rolled; each hit rolls Y plain dice
        damage = pool.roll_pool(rng, blast_die(), hits * self.stages[1], trials).total("damage")
        if self.resilient:
            damage = resist(rng, damage, trials)
        return self.destroyed_sample({"damage": damage, "hits": hits})

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        hits = pmfs.binomial(self.rolled, number(rerolled(HIT, self.rerolls)))
        blast = self.stages[1]
        damage = pmfs.then(hits, lambda h: pmfs.binomial(h * blast, number(HIT)))
        return self.destroyed_pmfs({"damage": resisted(damage, self.resilient, number), "hits": hits}, number)


# --- salvo A/X – B/X – … (§1.6) -----------------------------------------------------

_SALVO_ENTRY = re.compile(r"^\s*([0-9]+)\s*(?:/\s*([0-9]+)\s*)?$")
_SALVO_ALLOWED = "expected entries N/D joined by '-', one per charge, like 3/2-5/2-7/2"


def read_entries(text: str) -> tuple[tuple[int, int], ...]:
    """Read a salvo's entries `3/2-5/2-7/2` (en dashes and spaces allowed; a bare `N` means N/1)."""
    entries = []
    for part in re.split(r"[-–—]", str(text)):
        match = _SALVO_ENTRY.match(part)
        if not match:
            raise InputError("salvo", text, _SALVO_ALLOWED)
        entries.append((int(match.group(1)), int(match.group(2) or 1)))
    for charges, ((before, _), (dice, _)) in enumerate(zip(entries, entries[1:]), start=2):
        if dice < before:  # more charges spend more ammunition: never fewer dice
            bare = re.fullmatch(r"\s*([0-9]+)\s*[-–—]\s*([0-9]+)\s*", str(text))
            meant = f"; for {bare[1]} dice of {bare[2]} damage write {bare[1]}/{bare[2]}" if bare else ""
            raise InputError("salvo", text, f"{charges} charges roll fewer dice ({dice}) than {charges - 1} "
                                            f"({before}): entries are N/D for 1, 2, ... charges, like 3/2-5/2{meant}")
    return tuple(entries)


@record
class Salvo(_AtUnit):
    """Fire a salvo A/X-B/X-...: K charges roll the K-th entry's dice, X damage per hit.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Otherwise a weapon line (§1.6): re-rolls, then the cover save; `count` models fire it.
    Outcomes: damage, hits (after re-rolls, before saves), and with the target unit's `health`, destroyed.
    """

    entries: tuple[tuple[int, int], ...] = field(metadata={"reader": lambda text: read_entries(text)})
    _: KW_ONLY
    charges: int = option("Charges K spent (1 rolls the first entry).", 1, metavar="K")
    save: CoverSave = option(SAVE, CoverSave.NONE)
    resilient: bool = option(RESILIENT, False)
    count: int = option(COUNT, 1, metavar="C")

    COMMAND = "dust salvo"
    ARGUMENTS = ("entries",)

    def describe(self) -> str:
        words = [f"{self.charges} charge{'s' * (self.charges != 1)}"] + self.fire_words() + self.unit_words()
        return (f"Dust salvo {'%d × ' % self.count if self.count > 1 else ''}{self}"
                + "".join(f", {w}" for w in words) + target_words(self.save, self.resilient))

    def check(self) -> None:
        choose(self, "save", CoverSave)
        object.__setattr__(self, "entries", tuple(tuple(entry) for entry in self.entries))
        require(len(self.entries) >= 1, "salvo", str(self), _SALVO_ALLOWED)
        for dice, damage in self.entries:
            require(1 <= dice <= MAX_DICE and 1 <= damage <= MAX_DAMAGE, "salvo", str(self),
                    f"each entry needs 1 to {MAX_DICE} dice and 1 to {MAX_DAMAGE} damage, like 3/2")
        entries = len(self.entries)
        whole = isinstance(self.charges, Integral) and not isinstance(self.charges, bool)
        require(whole and 1 <= self.charges <= entries, "charges", self.charges,
                f"expected 1 to {entries} charges (the salvo {self} has {entries} "
                f"entr{'y' if entries == 1 else 'ies'})")
        check_models_firing(self.count)
        self.check_unit()
        self.line  # build the fired line now, not in a sampling thread

    @classmethod
    def parse(cls, text: str, **options: Any) -> Salvo:
        """Read `3/2-5/2-7/2` (as `Salvo("3/2-5/2-7/2")` does)."""
        return cls(read_entries(str(text)), **options)

    def __str__(self) -> str:
        return "-".join(f"{dice}/{damage}" for dice, damage in self.entries)

    def arguments(self) -> list[str]:
        return [str(self)]

    @cached_property
    def line(self) -> WeaponLine:
        """The weapon line that the spent charges fire."""
        dice, damage = self.entries[self.charges - 1]
        return WeaponLine(dice, damage, sustained=self.sustained, berserk=self.berserk,
                          berserk_stacking=self.berserk_stacking, burst=self.burst, save=self.save,
                          resilient=self.resilient, count=self.count, health=self.health)

    @property
    def cover(self) -> CoverSave:
        return self.line.cover

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll | dict[str, np.ndarray]:
        return self.line.sample(rng, trials)

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        return self.line.pmfs(number)
