"""The 9th Age: one side of a round of close combat (docs/rules.md §3.11): the unit (`Fighter`), its models'
Height, its model parts (`Part`: a rider and its mount), its attacks on the other side (`t9a melee`'s and `t9a
hits`', through `sequence.attack_on`) and its Break Test. How two units meet is `fight.py`'s.

The state a side carries between Initiative Steps and rounds is the Health Points it has lost; models standing
are what is left of them (lost Health Points carry from model to model, as `t9a melee --models` reads).
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from functools import lru_cache
from typing import Any, Callable, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.attack import Attack
from ..core.dice import DiceExpression
from ..core.totals import keep_pmf
from .sequence import Defence, attack_on

MAX_MODELS = 60
MAX_HEALTH = 10  # a characteristic's most (a Gigantic monster's 6 to 8 Health Points fight)
MAX_WIDTH = 10  # a front rank of 10 with Attack Value 10 and its support: 110 attacks (t9a melee takes 200)
MAX_RANK_BONUS = 3
MAX_IMPACT = 200  # the automatic hits t9a hits takes: Impact Hits or Stomp Attacks of a front rank, in all
LINE_WIDTH = 8  # a unit in ranks of 8 models or more is in Line Formation (rulebook, Units), whatever its Height


class Height(str, Enum):
    """A model's Height (Classification of Models): how many make a Full Rank, how many Supporting Attacks each
    makes at most, and whether Stomp Attacks reach it (Standard only)."""

    STANDARD = "standard"
    LARGE = "large"
    GIGANTIC = "gigantic"

    @property
    def full_rank(self) -> int:
        return {"standard": 5, "large": 3, "gigantic": 1}[self.value]

    @property
    def support(self) -> int:
        return {"standard": 1, "large": 3, "gigantic": 5}[self.value]


class LastRank(str, Enum):
    """Whether an incomplete last rank of a Full Rank's models or more is a Full Rank (an open reading)."""

    COUNTS = "counts"
    IGNORED = "ignored"


class LineBonus(str, Enum):
    """Whether a unit in Line Formation keeps its Rank Bonus (an open reading: the rulebook's Units page found says
    it has none; no other source checked it)."""

    NONE = "none"
    KEPT = "kept"


@record
class Part:
    """A model part's close combat attacks: the model's own (a rider's) or its mount's, each striking at its own
    Agility (Multipart Models). A Harnessed part makes no Supporting Attacks."""

    attacks: int
    offensive: int
    strength: int
    agility: int
    ap: int = 0
    harnessed: bool = False
    great_weapon: bool = False
    lightning_reflexes: bool = False
    attributes: tuple[str, ...] = ()  # its attack attributes, as a roster names them (sequence.ATTRIBUTES)
    multiple_wounds: DiceExpression | None = None

    def step(self, charging: bool, top: int) -> int:
        """Its Initiative Step: its Agility (+1 Charging Momentum), at most `top`; a Great Weapon strikes at step 0,
        unless with Lightning Reflexes (which then gives no +1 to hit)."""
        if self.great_weapon and not self.lightning_reflexes:
            return 0
        return min(self.agility + (1 if charging else 0), top)

    @property
    def hit_modifier(self) -> int:
        return 1 if self.lightning_reflexes and not self.great_weapon else 0

    def __str__(self) -> str:
        """As --mount reads it: `A1 O3 S3 I3`, then `AP1` and `harnessed` when it has them."""
        return " ".join([f"A{self.attacks} O{self.offensive} S{self.strength} I{self.agility}"]
                        + [f"AP{self.ap}"] * bool(self.ap) + ["harnessed"] * self.harnessed)

    def describe(self) -> str:
        words = [f"A{self.attacks} O{self.offensive} S{self.strength}", f"Agility {self.agility}"]
        words += [f"AP {self.ap}"] if self.ap else []
        words += ["harnessed"] if self.harnessed else []
        return " ".join(words)


@record
class Fighter:
    """One side's unit: its models and their profile (one model part, or a rider and its `mount`)."""

    models: int
    width: int
    health: int
    attacks: int
    offensive: int
    defensive: int
    strength: int
    resilience: int
    agility: int
    discipline: int
    armour: int = 0
    ap: int = 0
    aegis: int | None = None
    standard: bool = False
    swiftstride: bool = False
    great_weapon: bool = False
    lightning_reflexes: bool = False
    spear: bool = False  # Fight in Extra Rank; +2 Agility and +1 AP in the first round, charged in its front
    extra_ranks: int = 0  # Fight in Extra Rank from other rules: one more supporting rank each
    impact: DiceExpression | None = None  # Impact Hits (X) of each front-rank model, when it charges
    charge: tuple[int, int, int] = (0, 0, 0)  # + Attack Value, Strength, AP of its own attacks when it charges
    stomp: DiceExpression | None = None  # Stomp Attacks (X) of each model in base contact, at step 0
    height: Height = Height.STANDARD
    cannot_be_stomped: bool = False
    stubborn: bool = False
    unbreakable: bool = False
    mount: Part | None = None
    attributes: tuple[str, ...] = ()  # its own (the rider's) attack attributes
    multiple_wounds: DiceExpression | None = None
    fortitude: int | None = None  # what it brings as a target, besides its profile (sequence.Defence)
    flammable: bool = False
    parry: bool = False
    distracting: bool = False
    reroll_armour: str = "none"
    reroll_special: str = "none"
    last_rank: LastRank = LastRank.COUNTS
    line_bonus: LineBonus = LineBonus.NONE

    @property
    def line_formation(self) -> bool:
        """In Line Formation (ranks of 8 models or more): Fight in Extra Rank, and no Rank Bonus (`line_bonus`)."""
        return self.width >= LINE_WIDTH

    @property
    def parts(self) -> tuple[Part, ...]:
        """Its model parts that attack: its own (the rider's), then its mount's."""
        own = Part(self.attacks, self.offensive, self.strength, self.agility, self.ap,
                   great_weapon=self.great_weapon, lightning_reflexes=self.lightning_reflexes,
                   attributes=self.attributes, multiple_wounds=self.multiple_wounds)
        return (own,) if self.mount is None else (own, self.mount)

    @property
    def special(self) -> Part:
        """The part whose Strength and AP its Impact Hits and Stomp Attacks have: the mount's, when it has one
        (in multipart models only parts with Restraints or Inanimate make them)."""
        return self.mount or self.parts[0]

    def stompable(self) -> bool:
        """Whether Stomp Attacks reach it: Standard Height, without Cannot be Stomped."""
        return self.height is Height.STANDARD and not self.cannot_be_stomped

    def defence(self, lost: int) -> Defence:
        """What it brings as a target with `lost` Health Points lost."""
        return Defence(self.defensive, self.resilience, self.armour, self.aegis, self.fortitude, self.health,
                       self.left(lost), self.flammable, self.parry, self.distracting,
                       reroll_armour=self.reroll_armour, reroll_special=self.reroll_special)

    def automatic(self, kind: str, count: int, target: Fighter, lost: int) -> Attack:
        """The Impact Hits or Stomp Attacks (X each) of its `count` models in contact on `target` (t9a hits)."""
        each = self.automatic_dice(kind)
        hits = DiceExpression(each.count * count, each.sides, each.modifier * count)
        return attack_on("automatic", hits, offensive=None, strength=self.special.strength, ap=self.special.ap,
                         attributes=(), multiple_wounds=None, target=target.defence(lost))

    def automatic_dice(self, kind: str) -> DiceExpression:
        """Each model's Impact Hits (X) or Stomp Attacks (X), by the blow's `kind`."""
        each = self.impact if kind == "impact" else self.stomp
        assert each is not None, kind  # Fight.schedule gives a side such a blow only when it has them
        return each

    @property
    def total(self) -> int:
        """Its Health Points in all."""
        return self.models * self.health

    def left(self, lost: Any) -> Any:
        """Models standing with `lost` Health Points lost (lost points carry from model to model)."""
        return self.total - lost if self.health == 1 else -(-(self.total - lost) // self.health)

    def full_ranks(self, lost: Any) -> Any:
        return self.ranks_of(self.left(lost))

    def ranks_of(self, left: Any) -> Any:
        """Full Ranks of `left` models: of 5, 3 or 1 models or more by Height, the last one too when it still holds
        that many (an open reading); none when the unit is narrower than a full rank."""
        size = self.height.full_rank
        if self.width < size:
            return left * 0
        return left // self.width + (left % self.width >= size) * (self.last_rank is LastRank.COUNTS)

    def rank_bonus(self, lost: Any) -> Any:
        return self.bonus_of(self.full_ranks(lost))

    def bonus_of(self, ranks: Any) -> Any:
        """+1 for each Full Rank after the first, at most +3; none in Line Formation (`line_bonus`)."""
        if self.line_formation and self.line_bonus is LineBonus.NONE:
            return ranks * 0
        if isinstance(ranks, np.ndarray):
            return np.clip(ranks - 1, 0, MAX_RANK_BONUS)
        return min(max(int(ranks) - 1, 0), MAX_RANK_BONUS)

    def in_contact(self, lost: Any, facing: Any = None, hero: Any = 0) -> Any:
        """Its rank-and-file front-rank models in base contact (at most `facing`, in a flank or rear), beside its
        character (`hero` 1), which takes one of those places; for whole numbers or arrays of them."""
        left = self.left(lost)
        reach = (facing if facing is not None else left + hero) - hero
        return np.maximum(np.minimum(np.minimum(left, self.width - hero), reach), 0)

    def supporters(self, lost: Any, hero: Any = 0) -> Any:
        """Its models that make Supporting Attacks: the second rank's, one rank more for each Fight in Extra
        Rank (a Spear's) and for Line Formation; casualties come off the back (a character stands in front)."""
        ranks = 1 + self.extra_ranks + self.spear + self.line_formation
        return np.minimum(np.maximum(self.left(lost) - (self.width - hero), 0), self.width * ranks)

    def strikes(self, part: Part, lost: Any, supporting: Any, facing: Any = None, hero: Any = 0) -> Any:
        """A part's attacks: its Attack Value from each model in base contact, its Supporting Attacks (at most its
        Height's cap each, none when Harnessed) from the ranks behind, front facing only."""
        support = 0 if part.harnessed else self.supporters(lost, hero) * supporting  # (`supporting`: bools too)
        return (self.in_contact(lost, facing, hero) * part.attacks
                + support * min(part.attacks, self.height.support))

    def melee(self, part: Part, count: int, target: Fighter, lost: int) -> Attack:
        """A part's `count` attacks on `target` that has lost `lost` Health Points (t9a melee)."""
        return attack_on("melee", count, offensive=part.offensive, strength=part.strength, ap=part.ap,
                         attributes=part.attributes, multiple_wounds=part.multiple_wounds,
                         target=target.defence(lost), modifier=part.hit_modifier)

    def charging(self) -> Fighter:
        """It in the first round, Charging: its own attacks with their charge bonus (a Lance, Devastating Charge),
        each at most 10."""
        attacks, strength, ap = self.charge
        return replace(self, attacks=min(self.attacks + attacks, 10), strength=min(self.strength + strength, 10),
                       ap=min(self.ap + ap, 10), charge=(0, 0, 0))

    def break_fails(self, penalty: int, number: Callable[[Any], Any] = float) -> Any:
        """P(its Break Test fails): none when Unbreakable; no penalty when Stubborn."""
        if self.unbreakable:
            return number(0)
        return break_chance(self.discipline, 0 if self.stubborn else penalty, number)


@lru_cache(maxsize=8192)
def lost_pmf(attack: Attack, number: Callable[[Any], Any]) -> np.ndarray:
    """The pmf of the Health Points an attack takes (t9a melee's, t9a hits')."""
    return np.asarray(attack.pmfs(number)["health_lost"])  # (a tuple where each attack gives at most one)


def capped(pmf: np.ndarray, room: int, number: Callable[[Any], Any]) -> np.ndarray:
    """A pmf of Health Points lost, at most `room`."""
    if len(pmf) <= room + 1:
        return pmf
    capped = pmf[:room + 1].copy()
    capped[room] += sum(pmf[room + 1:], number(0))
    return capped


def two_d6(maximised: bool, number: Callable[[Any], Any] = float) -> np.ndarray:
    """2D6, Maximised (an extra die, the lowest dropped) or not: pmf by total."""
    return keep_pmf(2, 6, 1 if maximised else 0, number)


@lru_cache(maxsize=1024)
def break_chance(discipline: int, penalty: int, number: Callable[[Any], Any] = float) -> Any:
    """P(a Break Test fails): 2D6 above the Discipline less the penalty (no automatic pass); certain failure is
    exactly 1, in floats too (a sum of 36ths can round above it)."""
    if discipline - penalty < 2:
        return number(1)
    return sum((p for total, p in enumerate(two_d6(False, number)) if total > discipline - penalty), number(0))
