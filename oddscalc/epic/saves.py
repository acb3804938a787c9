"""Epic Armageddon saves, hit allocation and blast markers (docs/rules.md §2.2–§2.4).

Each dice rule comes twice, as in `dice.py`: a face rule the samplers apply to natural
faces (`SavePlan.saved`, `allocate_kills`) and an exact chance or pmf the exact twins
compose (`SavePlan.chance`, `kills_given_hits`).

How the allocation sampler stays exact and fast: the j-th hit on a formation takes its
own save roll, so per trial it draws one failed-save flag per possible hit slot, packed
in a uint64 by `pool.roll_flags` (the save's face rule tabulated over every natural
face, exact by rejection). Hits are allocated front to back: slot j goes to unit j mod U (§2.3), so a unit's slots are U
bits apart; OR-ing the slot word onto itself shifted by U, 2U, 4U, ... folds every
round of U slots onto the first, and the popcount of the low U bits is the kills.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

import math
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
    from ..core.pool import Die, PoolRoll
    from ..core import pool
else:
    from ..core.lazy import numpy as np
    from ..core.lazy import Deferred

    pool = Deferred("oddscalc.core.pool")  # the sampler's: imported when dice are rolled

from ..core import pmf as pmfs
from ..core.dice import Check, Natural

INVULNERABLE = Check(6, Natural.SAVE)  # docs/rules.md §2.2: an unmodified 6+
BLOCK = 64  # units whose fates one uint64 holds


@cache
def low_bits() -> np.ndarray:
    """The words with the n lowest bits set, n = 0 to BLOCK (made when first sampled: numpy is not imported
    before)."""
    return np.array([(1 << n) - 1 for n in range(BLOCK + 1)], dtype=np.uint64)


@cache
def byte_ones() -> np.ndarray:
    """The set bits of each byte."""
    return np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint8)


class Ability(str, Enum):
    """A weapon's ability that changes the saves (docs/rules.md §2.2)."""

    NORMAL = "normal"
    MACRO = "macro"
    TITAN_KILLER = "titan-killer"
    LANCE = "lance"


# --- saves (docs/rules.md §2.2) -------------------------------------------------------------


@record
class SavePlan:
    """The saves one hit gets, in order: a first save, its re-roll, an invulnerable save.

    `first` is None when the hit allows no armour or cover save; `reroll` is the
    reinforced-armour re-roll of a failed first save (None when not allowed).
    """

    first: Check | None
    reroll: Check | None
    invulnerable: bool

    @property
    def sides(self) -> tuple[int, ...]:
        """The natural D6 one hit's saves use, in order (first, re-roll, invulnerable)."""
        return (6,) * ((self.first is not None) + (self.reroll is not None) + self.invulnerable)

    def saved(self, *faces: np.ndarray) -> np.ndarray:
        """Apply the saves to one hit's natural faces (one array per entry of `sides`)."""
        left = list(faces)
        saved = np.zeros(np.shape(faces[0]) if faces else (), dtype=bool)
        for check in (self.first, self.reroll, INVULNERABLE if self.invulnerable else None):
            if check is not None:
                saved = saved | check.passes(left.pop(0))  # each later save only matters if all before failed
        return saved

    def chance(self) -> Fraction:
        """Return the exact chance that one hit is saved."""
        saved = self.first.chance() if self.first is not None else Fraction(0)
        if self.reroll is not None:  # docs/rules.md §2.2: reinforced armour re-rolls a failed save
            saved += (1 - saved) * self.reroll.chance()
        if self.invulnerable:  # docs/rules.md §2.2: after every other save failed or was not allowed
            saved += (1 - saved) * INVULNERABLE.chance()
        return saved


def save_plan(
    armour: int | None,
    cover_save: int | None = None,
    weapon: Ability = Ability.NORMAL,
    reinforced: bool = False,
    invulnerable: bool = False,
    crossfire: bool = False,
    ignore_cover: bool = False,
    sniper: bool = False,
) -> SavePlan:
    """Decide which saves a hit gets under docs/rules.md §2.2.

    The armour and cover values are what the data card and terrain give (4 for 4+).
    """
    # save modifiers add up (crossfire −1, sniper −1) on armour and cover saves, never on the invulnerable
    worse = int(crossfire) + int(sniper)
    armour_save = Check(armour + worse, Natural.SAVE) if armour is not None else None  # 7+ is impossible
    cover_allowed = not ignore_cover and weapon in (Ability.NORMAL, Ability.LANCE)
    # MW, TK and ignore cover negate the cover save
    cover = Check(cover_save + worse, Natural.SAVE) if cover_save is not None and cover_allowed else None
    if weapon is Ability.TITAN_KILLER:  # no armour or cover save, even with reinforced armour
        first = None
    elif weapon is Ability.MACRO:  # only reinforced armour saves (without the re-roll)
        first = armour_save if reinforced else None
    else:  # the infantry cover save is used instead of armour when it is better
        candidates = [check for check in (armour_save, cover) if check is not None]
        first = min(candidates, key=lambda check: check.need) if candidates else None
    # reinforced armour re-rolls a failed save (a failed cover save too) with its armour value;
    # not against macro-weapons, titan killers or lances
    reroll = armour_save if reinforced and weapon is Ability.NORMAL and first is not None else None
    return SavePlan(first, reroll, invulnerable)


# --- failed-save flags ---------------------------------------------------------------


@lru_cache(maxsize=128)
def failed_die(plan: SavePlan) -> Die:
    """Return the die of one hit's saves: 1 when every save it gets fails."""
    return pool.Die(plan.sides, lambda *faces: ~plan.saved(*faces), ("failed",))


# --- hit allocation (docs/rules.md §2.3) -----------------------------------------------------


def _segments(slots: int, units: int) -> list[tuple[int, int, int, int]]:
    """Cut slots 0..slots-1 into (first slot, bits, block, block width) pieces of ≤ 64 bits.

    With U ≤ 64 a piece holds whole rounds of U slots (folded onto units 0..U-1); with
    U > 64 a piece is one round's slots for one block of 64 units.
    """
    pieces = []
    if units <= BLOCK:
        span = (BLOCK // units) * units
        for start in range(0, slots, span):
            pieces.append((start, min(span, slots - start), 0, units))
        return pieces
    for round_start in range(0, slots, units):
        for block in range(-(-units // BLOCK)):
            start = round_start + block * BLOCK
            width = min(BLOCK, units - block * BLOCK)
            if start < slots:
                pieces.append((start, min(width, slots - start), block, width))
    return pieces


def allocate_kills(rng: np.random.Generator, failed: Die, hits: np.ndarray, slots: int, units: int) -> np.ndarray:
    """Allocate each trial's hits front to back and count the units that failed a save.

    docs/rules.md §2.3: hit j (0, 1, ...) goes to unit j mod U, so no unit takes a second hit
    before every unit has one; a unit that fails any of its saves is destroyed. `slots`
    is the most hits a trial can have.
    """
    trials = len(hits)
    dead = [np.zeros(trials, dtype=np.uint64) for _ in range(-(-units // BLOCK))]
    for start, width, block, block_width in _segments(slots, units):
        live = np.clip(hits - start, 0, width)  # slots of this piece that hold a hit
        flags = pool.roll_flags(rng, failed, width, trials) & low_bits()[live]
        shift = block_width if units <= BLOCK else width
        while shift < width:  # fold every round of U slots onto the first
            flags |= flags >> np.uint64(shift)
            shift *= 2
        dead[block] |= flags & low_bits()[block_width]
    kills = popcount(dead[0]).astype(np.int64)
    for more in dead[1:]:
        kills += popcount(more)
    return kills


def popcount(words: np.ndarray, native: bool = True) -> np.ndarray:
    """Count the set bits of each uint64 (numpy ≥ 2 has it built in; else a byte table)."""
    if native and hasattr(np, "bitwise_count"):
        return np.asarray(np.bitwise_count(words))
    return np.asarray(byte_ones()[np.ascontiguousarray(words).view(np.uint8).reshape(-1, 8)].sum(axis=1, dtype=np.uint8))


def kills_given_hits(hits: int, units: int, saved: Fraction | float) -> np.ndarray:
    """Return the exact pmf of kills when `hits` hits fall on `units` identical units.

    docs/rules.md §2.3: H mod U units take ⌈H/U⌉ hits, the rest ⌊H/U⌋; a unit with k hits
    dies with 1 − s^k. (Not min(Binomial(H, 1 − s), U) when H > U.)
    """
    more, fewer = hits % units, units - hits % units
    base = hits // units
    return pmfs.convolve(pmfs.binomial(more, 1 - saved ** (base + 1)), pmfs.binomial(fewer, 1 - saved**base))


# --- blast markers and breaking (docs/rules.md §2.4) -----------------------------------------


@record
class BlastMarkers:
    """How a formation of `formation` units collects blast markers and breaks."""

    existing: int = 0  # already on the formation before the attack
    extra: int = 0  # a barrage's extra blast markers (§2.5)
    formation: int = 1
    crossfire: bool = False
    disrupt: bool = False
    under_fire: bool = True  # False when no shot was fired (every firing unit suppressed)

    def total(self, hits: Any, kills: Any) -> Any:
        """Return the formation's blast markers after the attack (ints or arrays)."""
        first_kill = (kills > 0) * int(self.crossfire)  # crossfire: the first kill gives 2 BMs
        per = hits if self.disrupt else kills  # disrupt: one per hit instead of one per kill
        return self.existing + int(self.under_fire) + self.extra + per + first_kill  # +1 for coming under fire

    def broken(self, hits: Any, kills: Any) -> Any:
        """Return 1 where the formation breaks: BMs ≥ units left, or no units left."""
        left = self.formation - kills
        return ((self.total(hits, kills) >= left) | (left <= 0)) * 1

    def outcome_pmfs(self, joint: np.ndarray) -> dict[str, np.ndarray]:
        """Return the pmfs of kills, hits, blast markers and broken from joint[hits, kills]."""
        if joint.dtype != object:  # floats: every (hits, kills) pair at once
            hits, kills = np.indices(joint.shape)
            weights = joint.ravel()
            return {"kills": joint.sum(axis=0), "hits": joint.sum(axis=1),
                    "blast_markers": pmfs.trim(np.bincount(self.total(hits, kills).ravel(), weights=weights)),
                    "broken": np.bincount(self.broken(hits, kills).ravel(), weights=weights, minlength=2)}
        markers: dict[int, pmfs.Number] = {}
        broken = [0 * joint[0, 0], 0 * joint[0, 0]]
        for (hits, kills), weight in np.ndenumerate(joint):
            if weight:
                total = int(self.total(hits, kills))
                markers[total] = markers.get(total, 0 * weight) + weight
                broken[int(self.broken(hits, kills))] += weight
        highest = max(markers)
        zero = 0 * joint[0, 0]
        return {
            "kills": joint.sum(axis=0),
            "hits": joint.sum(axis=1),
            "blast_markers": pmfs.array([markers.get(k, zero) for k in range(highest + 1)]),
            "broken": pmfs.array(broken),
        }


@lru_cache(maxsize=128)
def _outcome_table(
    markers: BlastMarkers, kills_radix: int, hits_radix: int, outcomes: tuple[str, ...]
) -> tuple[np.ndarray, tuple[int, ...]]:
    """Tabulate every (hits, kills) pair's outcomes packed as one code (index hits·kills_radix + kills)."""
    hits, kills = np.divmod(np.arange(kills_radix * hits_radix, dtype=np.int64), kills_radix)
    values = {
        "kills": kills,
        "hits": hits,
        "blast_markers": markers.total(hits, kills),
        "broken": markers.broken(hits, kills),
    }
    radices = tuple(int(values[name].max()) + 1 for name in outcomes)
    codes = sum(values[name] * math.prod(radices[:i]) for i, name in enumerate(outcomes))
    dtype = np.uint16 if math.prod(radices) <= 1 << 16 else np.uint32 if math.prod(radices) <= 1 << 32 else np.uint64
    return codes.astype(dtype), radices


def outcome_roll(
    markers: BlastMarkers, outcomes: tuple[str, ...], index: np.ndarray, kills_radix: int, hits_radix: int
) -> PoolRoll:
    """Pack each trial's outcomes for the engine, from index = hits·kills_radix + kills per trial.

    Blast markers and breaking are read from a table of every (hits, kills) pair, built
    once by `BlastMarkers.total` and `.broken`, so a trial costs one look-up.
    """
    table, radices = _outcome_table(markers, kills_radix, hits_radix, outcomes)
    return pool.PoolRoll(table[index], outcomes, radices)
