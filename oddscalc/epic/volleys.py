"""The weapons an Epic shooting attack fires (docs/rules.md §2.3, §2.4): volleys of shots (N@X+,
normal, macro-weapon or AT), what suppression leaves of them, each kind's pools of dice and the
target's saves against each kind. The hits of (dice, check) pools are rolled (`roll_hits`) or
convolved exactly (`hits_pmf`, `allocated`) here for shooting and for an assault's attacks.

`Volleys` is the part of `EpicShoot` (`shooting.py`) that reads its fire; `EpicShoot`
declares the options.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cached_property, lru_cache
from typing import Callable, Sequence, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
    from ..core.pool import Die
    from ..core import pool
else:
    from ..core.lazy import numpy as np
    from ..core.lazy import Deferred

    pool = Deferred("oddscalc.core.pool")  # the sampler's: imported when dice are rolled

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.dice import Check, Natural, check_sides
from ..errors import InputError, require
from ..output.style import plural
from .saves import Ability, SavePlan, kills_given_hits, save_plan
from .defences import MAX_BLAST_MARKERS
from .target import MAX_SHOTS, MAX_UNITS, OnFormation

_VOLLEY = re.compile(r"^\s*([0-9]{1,3})\s*@\s*(MW|AT|AP)?\s*([2-6])\s*\+?\s*$", re.IGNORECASE)
VOLLEY_ALLOWED = "expected N@X+ (normal), N@MW X+ (macro-weapon) or N@AT X+ (AT fire at --vehicles), like 4@3+"


@record
class Volley:
    """Shots of one weapon value: normal (AP, or the weapon's one value), macro-weapon, or AT
    fire at the vehicles of a mixed formation."""

    shots: int
    to_hit: int
    macro: bool = False
    anti_tank: bool = False

    @classmethod
    def parse(cls, text: str, name: str = "volley") -> Volley:
        """Read `4@3+`, `2@MW2+` or `3@AT5+`."""
        match = _VOLLEY.match(str(text))
        if match is None:
            raise InputError(name, text, VOLLEY_ALLOWED)
        kind = (match.group(2) or "").upper()
        shots = int(match.group(1))
        require(1 <= shots <= MAX_SHOTS, name, text, f"expected 1 to {MAX_SHOTS} shots in a volley")
        return cls(shots, int(match.group(3)), kind == "MW", kind == "AT")

    def __str__(self) -> str:
        return f"{self.shots}@{'MW' if self.macro else 'AT' if self.anti_tank else ''}{self.to_hit}+"


def _check_shots(value: int, name: str, low: int = 0) -> None:
    require(isinstance(value, int) and low <= value <= MAX_SHOTS, name, value, f"expected {low} to {MAX_SHOTS} shots")


def roll_hits(rng: np.random.Generator, pools: Sequence[tuple[int, Check]], trials: int) -> np.ndarray:
    """Each trial's hits of (dice, check) pools, every die rolled (an assault's attacks too)."""
    hits = np.zeros(trials, dtype=np.int64)
    for shots, check in pools:
        hits += pool.roll_pool(rng, hit_die(check), shots, trials).total("hits").astype(np.int64)
    return hits


def hits_pmf(pools: Sequence[tuple[int, Check]], number: NumberType) -> np.ndarray:
    """The exact pmf of the hits of (dice, check) pools: their binomials convolved."""
    hits = pmfs.point(0, number(0))
    for shots, check in pools:
        hits = pmfs.convolve(hits, pmfs.binomial(shots, number(check.chance())))
    return hits


def allocated(pools: Sequence[tuple[int, Check]], units: int, saves: SavePlan, number: NumberType) -> np.ndarray:
    """joint[hits, kills] of pools of dice allocated front to back over `units` identical units (§2.3)."""
    hits, saved = hits_pmf(pools, number), number(saves.chance())
    return matrix_of([weight * (kills_given_hits(h, units, saved) if units else pmfs.point(0, weight))
                    for h, weight in enumerate(hits)], units + 1, number)


def matrix_of(rows: list[np.ndarray], width: int, number: NumberType) -> np.ndarray:
    """Stack pmfs of different lengths into a matrix `width` wide (zeros after each)."""
    matrix = np.zeros((len(rows), width)) if number is float else np.array(
        [[number(0)] * width for _ in rows], dtype=object)
    for i, row in enumerate(rows):
        matrix[i, :len(row)] = row
    return matrix


@lru_cache(maxsize=64)
def hit_die(check: Check) -> Die:
    """Return the die of one shot: 1 when it hits."""
    return pool.Die(check_sides(check), check.passes, ("hits",))



class Volleys(OnFormation):
    """The volleys of a shooting attack: every weapon's shots (--shots, --mw-shots, --at-shots, --volley),
    what the --suppressed of the --firing-units leave of them (§2.4), and the saves of each kind of hit."""

    shots: int
    to_hit: int
    mw_shots: int
    mw_to_hit: int | None
    at_shots: int
    at_to_hit: int | None
    volley: tuple[Volley, ...]
    firing_units: int | None
    suppressed: int

    def _check_fire(self) -> None:
        """Each volley's shots and to-hit value."""
        _check_shots(self.shots, "shots")
        require(2 <= self.to_hit <= 6, "to_hit", self.to_hit, "expected the weapon's to-hit value, 2+ to 6+")
        for shots, to_hit, spelled in (("mw_shots", "mw_to_hit", "--mw-shots"), ("at_shots", "at_to_hit",
                                                                                    "--at-shots")):
            _check_shots(getattr(self, shots), shots)
            value = getattr(self, to_hit)
            if getattr(self, shots):
                require(value is not None and 2 <= value <= 6, to_hit, value, "expected a to-hit value, 2+ to 6+"
                        + (f", for {spelled} {getattr(self, shots)}" if value is None else ""))
            else:
                require(value is None, to_hit, value, f"only applies with {spelled} N")
        require(any(v.shots for v in self.fire), "shots", self.shots,
                f"expected 1 to {MAX_SHOTS} shots (0 only beside --mw-shots, --at-shots or --volley)")

    def _check_firing(self) -> None:
        """Suppression: the firing units share every volley equally (§2.4)."""
        require(0 <= self.suppressed <= MAX_BLAST_MARKERS, "suppressed", self.suppressed,
                f"expected 0 to {MAX_BLAST_MARKERS} blast markers on the firing formation")
        if self.firing_units is None:
            require(not self.suppressed, "suppressed", self.suppressed,
                    "needs --firing-units F: the firing formation's units in range and line of fire")
            return
        require(1 <= self.firing_units <= MAX_UNITS, "firing_units", self.firing_units,
                f"expected 1 to {MAX_UNITS} firing units")
        for volley in self.fire:
            require(volley.shots % self.firing_units == 0, "firing_units", self.firing_units,
                    f"{plural(volley.shots, 'shot')} ({volley}) cannot be shared equally by {self.firing_units} "
                    "units; give each weapon's shots so that every unit fires the same")

    @property
    def fire(self) -> list[Volley]:
        """Every volley of the attack, before suppression: --shots, --mw-shots, --at-shots, then --volley."""
        named = [Volley(self.shots, self.to_hit, macro=self.weapon is Ability.MACRO),  # --weapon is the --shots'
                 Volley(self.mw_shots, self.mw_to_hit or 0, macro=True),
                 Volley(self.at_shots, self.at_to_hit or 0, anti_tank=True)]
        return [volley for volley in named if volley.shots] + list(self.volley)

    @property
    def fired(self) -> list[Volley]:
        """The volleys fired: the suppressed units' share of every volley does not shoot (§2.4)."""
        if not self.suppressed or self.firing_units is None:  # `_check_firing`: suppression needs firing units
            return self.fire
        shooting = max(self.firing_units - self.suppressed, 0)
        return [replace(v, shots=v.shots * shooting // self.firing_units) for v in self.fire]

    @property
    def hit_check(self) -> Check:
        """The check of the --shots (the first volley)."""
        return self._check(self.to_hit)

    def _check(self, to_hit: int) -> Check:
        return Check(self._need(to_hit), Natural.EPIC)  # natural 1 misses; 7+ chains; 10+ never

    def _pools(self, kind: str) -> list[tuple[int, Check]]:
        """(shots, check) of the fired volleys of one kind: normal, macro or anti_tank."""
        chosen: Callable[[Volley], bool] = {"normal": lambda v: not v.macro and not v.anti_tank,
                                            "macro": lambda v: v.macro, "anti_tank": lambda v: v.anti_tank}[kind]
        return [(v.shots, self._check(v.to_hit)) for v in self.fired if chosen(v) and v.shots]

    @cached_property
    def normal_saves(self) -> SavePlan:
        """The saves of the normal hits: the weapon's, unless --weapon macro made only the --shots macro hits."""
        if self.weapon is Ability.MACRO:
            return save_plan(self.armour, self.cover_save, Ability.NORMAL, self.reinforced, self.invulnerable,
                             self.worse_saves, self.ignore_cover, self.sniper)
        return self.saves

    @cached_property
    def macro_saves(self) -> SavePlan:
        return save_plan(self.armour, self.cover_save, Ability.MACRO, self.reinforced, self.invulnerable,
                         self.worse_saves, self.ignore_cover, self.sniper)
