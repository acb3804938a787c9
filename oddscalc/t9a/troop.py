"""The 9th Age: one side of a combat as the engine counts it, a unit and the character joined to it (docs/rules.md
§3.11, Characters and Duels): two Health Pools, the rank-and-file's and the character's, held as one state code
(`code = rank-and-file Health Points lost * span + the character's`). A side with no character has span 1, so its
code is its Health Points lost, as before characters.

The character stands in the front rank (it takes one of its places and counts in its ranks), strikes with its own
profile, lends its Discipline to the unit's Break Test while it stands (the unit takes the highest), its Stubborn,
and as a Battle Standard Bearer +1 combat score and a re-rolled failed Break Test (Rally Around the Flag). In a Duel
its pool also counts Overkill: up to 3 Health Points past its last, for the combat score only.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from functools import cached_property, wraps
from typing import Any, Callable, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from .fighter import Fighter, break_chance

OVERKILL = 3  # the most a Duel's excess Health Points add to a combat score (rulebook, Combat Score: Overkill)
FLED, CAUGHT = 1, 2  # a unit's flag in its side's state (`Line`): it fled, or fled and was destroyed by the pursuit


class Challenge(str, Enum):
    """Whether the charger's character issues a Duel and how the charged unit's answers it (rulebook, Duels)."""

    NONE = "none"  # no Duel: every attack goes to the rank and file while one stands
    ACCEPTED = "accepted"  # the two characters fight each other, round after round, until one falls
    REFUSED = "refused"  # the charged unit's character refuses: no attacks, no Discipline, Stubborn or BSB +1


TABLE_MOST = 1 << 20  # codes a table holds at most (a side of several large units reads each code afresh)


def tabled(method: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A state's figure read, for an array of codes (a sampler's trials, the exact twin's end states), from a table
    of its value at every code, worked once per unit: a gather instead of the arithmetic on each."""
    name = method.__name__

    @wraps(method)
    def read(self: Any, code: Any) -> Any:
        if type(code) is not int and isinstance(code, np.ndarray) and self.states <= TABLE_MOST:
            tables = self.__dict__.setdefault("_tables", {})
            if name not in tables:
                every = np.arange(self.states)
                tables[name] = np.broadcast_to(np.asarray(method(self, every)), every.shape).copy()
            return tables[name][code]
        return method(self, code)
    return read


@record
class Troop:
    """A unit, its character (a Fighter of one model) if one is joined, and what the character brings."""

    unit: Fighter
    hero: Fighter | None = None
    bsb: bool = False  # the character is the Battle Standard Bearer
    refused: bool = False  # the character refused a Duel (rulebook, Accepting or Refusing a Duel)
    duel: bool = False  # the character fights a Duel: its pool counts Overkill past its last Health Point

    @cached_property
    def health(self) -> int:
        """The character's Health Points (0 without one)."""
        return 0 if self.hero is None else self.hero.health

    @cached_property
    def bits(self) -> int:
        """Bits of a code that hold the character's Health Points lost: 0 to its Health (and a Duel's Overkill),
        a power of two so that a code splits by shifts (a million trials' codes split at once, cheaply)."""
        return 0 if self.hero is None else (self.health + (OVERKILL if self.duel else 0)).bit_length()

    @cached_property
    def span(self) -> int:
        """Codes per rank-and-file state (some never reached: more than the character's Health and Overkill)."""
        return 1 << self.bits

    @cached_property
    def duellist(self) -> Fighter | None:
        """Its character as its Duel's enemy strikes it: Health Points past its last still counted (Overkill), as if
        more models of it stood behind."""
        if self.hero is None:
            return None
        return replace(self.hero, models=1 + -(-OVERKILL // self.hero.health))

    @cached_property
    def states(self) -> int:
        return (self.unit.total + 1) * self.span

    def pools(self, code: Any) -> tuple[Any, Any]:
        """(the rank and file's Health Points lost, the character's) of a code (ints or arrays)."""
        return (code, 0) if self.hero is None else (code >> self.bits, code & (self.span - 1))

    def code(self, rank_and_file: Any, hero: Any) -> Any:
        return rank_and_file if self.hero is None else (rank_and_file << self.bits) + hero

    @tabled
    def alive(self, code: Any) -> Any:
        """1 where its character stands (0 without one)."""
        if self.hero is None:
            return 0
        return ((code & (self.span - 1)) < self.health) * 1

    @tabled
    def active(self, code: Any) -> Any:
        """1 where its character stands and did not refuse a Duel: it lends Discipline, Stubborn and Rally."""
        return self.alive(code) * (not self.refused)

    @tabled
    def rank_and_file(self, code: Any) -> Any:
        """Its rank-and-file models standing."""
        return self.unit.left(code if self.hero is None else code >> self.bits)

    @tabled
    def left(self, code: Any) -> Any:
        """Its models standing: the rank and file and the character."""
        return self.unit.left(code) if self.hero is None else self.rank_and_file(code) + self.alive(code)

    @tabled
    def lost(self, code: Any) -> Any:
        """Health Points it lost (Overkill is not a Health Point)."""
        if self.hero is None:
            return code
        rank_and_file, hero = self.pools(code)
        return rank_and_file + np.minimum(hero, self.health)

    @tabled
    def settled(self, code: Any) -> Any:
        """The code a round ends in, its Overkill dropped: it counted in the round the character fell, never after."""
        if self.hero is None or not self.duel:
            return code
        rank_and_file, hero = self.pools(code)
        return self.code(rank_and_file, np.minimum(hero, self.health))

    @tabled
    def scored(self, code: Any) -> Any:
        """What its losses give the enemy's combat score: its Health Points lost and the Overkill on its character."""
        if self.hero is None:
            return code
        rank_and_file, hero = self.pools(code)
        return rank_and_file + hero

    @tabled
    def full_ranks(self, code: Any) -> Any:
        return self.unit.ranks_of(self.left(code))

    @tabled
    def rank_bonus(self, code: Any) -> Any:
        return self.unit.bonus_of(self.full_ranks(code))

    def front(self, code: Any) -> Any:
        """Its front-rank models: the character and the rank and file beside it."""
        return np.minimum(self.left(code), self.unit.width)

    @tabled
    def standards(self, code: Any) -> Any:
        """Its Standard (a rank-and-file model: while one stands) and Battle Standard (its character), where it is
        Engaged (its models standing)."""
        if self.hero is None:
            return int(self.unit.standard)
        return self.unit.standard * (self.rank_and_file(code) > 0) + self.bsb * self.active(code)

    def break_fails(self, active: int, penalty: int, number: Callable[[Any], Any] = float, reform: bool = False) -> Any:
        """P(its Break Test fails), with its character standing (`active` 1) or not: the highest Discipline, the
        character's Stubborn too, and its Battle Standard's re-roll of a failed test; or its Combat Reform's
        Discipline test (`reform`: at the same penalty, Unbreakable or not)."""
        unit, hero = self.unit, self.hero
        if unit.unbreakable and not reform:
            return number(0)
        lends = bool(active) and hero is not None
        discipline = max(unit.discipline, hero.discipline) if lends and hero is not None else unit.discipline
        stubborn = unit.stubborn or (lends and hero is not None and hero.stubborn)
        fails = break_chance(discipline, 0 if stubborn else penalty, number)
        return fails * fails if lends and self.bsb else fails

    def discipline(self, active: Any) -> Any:
        """Its Discipline: the highest of its models' standing (the character's where `active`)."""
        if self.hero is None:
            return self.unit.discipline + active * 0
        return self.unit.discipline + active * max(self.hero.discipline - self.unit.discipline, 0)

    def stubborn(self, active: Any) -> Any:
        return self.unit.stubborn | (active * (self.hero is not None and self.hero.stubborn) > 0)

    def rally(self, active: Any) -> Any:
        """Where its Battle Standard Bearer re-rolls a failed Break Test (Rally Around the Flag)."""
        return active * self.bsb > 0


@record
class Line:
    """The charger's side as the states count it: its units (`Troop`s, the first the main one, the others its
    --with-unit allies), each with a flag that it fled (kept only when there are several: a lone unit that flees
    ends the fight). A state's code is mixed-radix over the units, the main one most significant; each unit's
    part is `fled * its states + its code`. Where its main unit may Combat Reform (`reforms`), a bit above them all
    says it did: it turned to face its one enemy in its flank or rear (`Fight.reforming`)."""

    troops: tuple[Troop, ...]
    reforms: bool = False

    @cached_property
    def flagged(self) -> bool:
        return len(self.troops) > 1

    @cached_property
    def flags(self) -> int:
        """A unit's flag: 0 in the fight, FLED, CAUGHT (fled and destroyed by the pursuit); kept when flagged."""
        return 3 if self.flagged else 1

    @cached_property
    def sizes(self) -> tuple[int, ...]:
        return tuple(troop.states * self.flags for troop in self.troops)

    @cached_property
    def base(self) -> int:
        """The codes of its units' states, below the Combat Reform bit."""
        total = 1
        for size in self.sizes:
            total *= size
        return total

    @cached_property
    def states(self) -> int:
        return self.base * (2 if self.reforms else 1)

    @cached_property
    def dims(self) -> tuple[int, ...]:
        """The exact twin's axes for this side: its main unit's Combat Reform (when it may), each unit's fled flag
        (when flagged), its rank and file's Health Points lost, its character's; the code is their C-order index."""
        return (2,) * self.reforms + tuple(axis for troop in self.troops for axis in
                                           ((self.flags,) if self.flagged else ()) + (troop.unit.total + 1, troop.span))

    def faced(self, code: Any) -> Any:
        """1 where its main unit made a Combat Reform to face its enemy (codes or arrays of them)."""
        return code // self.base if self.reforms else np.int64(0)  # never reforms: a numpy 0 (`~(faced > 0)` True)

    def face(self, code: Any) -> Any:
        """The code after its main unit's Combat Reform."""
        return code % self.base + self.base

    def split(self, code: Any) -> list[tuple[Any, Any]]:
        """Each unit's (flag, code) of a side's code (ints or arrays): flag 0 in the fight, FLED or CAUGHT."""
        if not self.flagged:  # a lone unit never flees in the fight: flag 0
            return [(0, code % self.base if self.reforms else code)]
        if isinstance(code, np.ndarray) and self.states <= TABLE_MOST:  # gathered from tables
            tables = self.__dict__.get("_split_tables")
            if tables is None:
                tables = self.__dict__["_split_tables"] = self._split(np.arange(self.states))
            return [(flag[code], own[code]) for flag, own in tables]
        return self._split(code)

    def _split(self, code: Any) -> list[tuple[Any, Any]]:
        parts = []
        for troop, size in zip(self.troops[::-1], self.sizes[::-1]):
            code, sub = divmod(code, size)
            parts.append(divmod(sub, troop.states))
        return parts[::-1]

    def join(self, parts: list[tuple[Any, Any]], faced: Any = 0) -> Any:
        """The side's code of each unit's (fled, code), and its main unit's Combat Reform (`faced`)."""
        if not self.flagged:
            return parts[0][1] + faced * self.base
        code: Any = faced
        for troop, size, (fled, own) in zip(self.troops, self.sizes, parts):
            code = code * size + fled * troop.states + own
        return code

    def left(self, code: Any) -> list[Any]:
        """Each unit's models standing in the fight (none once it fled)."""
        return [troop.left(own) * (fled == 0) for troop, (fled, own) in zip(self.troops, self.split(code))]

    def lost(self, code: Any) -> Any:
        """The Health Points its units lost, together (Overkill is not a Health Point)."""
        return np.asarray(sum(troop.lost(own) for troop, (_, own) in zip(self.troops, self.split(code))))

    def settled(self, code: Any) -> Any:
        """The code a round ends in, each unit's Overkill dropped (`Troop.settled`)."""
        return self.join([(fled, troop.settled(own)) for troop, (fled, own) in zip(self.troops, self.split(code))],
                         self.faced(code))
