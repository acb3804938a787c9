"""Fast, exact samplers for pools of dice.

A `Die` describes one die's whole life: the natural rolls it takes (a to-hit D6, its
re-roll, the save D6 ...) and a vectorised `rule` that turns those faces into small
non-negative counts (hits, damage ...). `roll_pool` rolls many such dice per trial and
returns their totals.

How it stays exact and fast: the rule is run once on every combination of faces; the
combinations that give the same counts are merged into D equally likely atoms (a 4+
hit then 5+ save is 3 atoms of 6, not 36). A 16-bit random word chooses `per_word`
atoms at once through a lookup table that holds their summed counts, packed in one
integer (mixed radix). Words at or above the largest multiple of D**per_word are
rejected, never folded back with a biased modulo: a trial that drew any rejected word
is rolled again from scratch. Every trial draws the same number of words, so whether
it is rejected does not depend on the dice, and the accepted trials have exactly the
distribution of real dice. When a die has too many atoms for a 16-bit word, the dice
are rolled face by face (`uniform_faces`) and the rule is applied directly.

`roll_flags` is the same idea for yes/no dice whose order matters (which of a unit's
hits failed its save): the table holds bits instead of counts.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Callable, TYPE_CHECKING

from .record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from .lazy import numpy as np

WORD = 1 << 16  # atoms are chosen by 16-bit random words
MAX_PER_WORD = 16
ENUMERATE_LIMIT = 1 << 20  # dice with more face combinations than this are rolled face by face


@record
class Die:
    """One die's life: the sizes of its natural rolls and what they give.

    `rule(*faces)` receives one integer array per natural roll (faces 1..sides) and
    returns one array of non-negative counts per name in `fields` (a single array
    when there is one field).
    """

    sides: tuple[int, ...]
    rule: Callable[..., Any]
    fields: tuple[str, ...]

    def apply(self, faces: list[np.ndarray]) -> list[np.ndarray]:
        """Run the rule on arrays of faces; return one int64 array per field."""
        computed = self.rule(*faces)
        values = (computed,) if len(self.fields) == 1 else tuple(computed)
        shape = np.broadcast_shapes(*(np.shape(face) for face in faces))
        return [np.broadcast_to(np.asarray(value, dtype=np.int64), shape) for value in values]


@record
class PoolRoll:
    """Per-trial totals of a pool, packed: code = Σ total[field]·stride[field]."""

    codes: np.ndarray
    fields: tuple[str, ...]
    radices: tuple[int, ...]

    @property
    def strides(self) -> tuple[int, ...]:
        return tuple(math.prod(self.radices[:i]) for i in range(len(self.radices)))

    def total(self, field: str) -> np.ndarray:
        """Return the per-trial total of one field."""
        i = self.fields.index(field)
        stride = self.strides[i]
        values = self.codes // stride if stride > 1 else self.codes
        return values % self.radices[i] if i < len(self.radices) - 1 else values


@record
class _Atoms:
    """A die reduced to D equally likely atoms, each with its counts per field."""

    values: np.ndarray  # (D, fields) int64

    @property
    def size(self) -> int:
        return len(self.values)


@lru_cache(maxsize=256)
def _atoms(die: Die) -> _Atoms:
    grid = np.indices(die.sides).reshape(len(die.sides), -1) + 1
    values = np.stack(die.apply(list(grid)), axis=1)
    if values.min() < 0:
        raise ValueError(f"die rule gave a negative count for fields {die.fields}")
    rows, counts = np.unique(values, axis=0, return_counts=True)
    common = math.gcd(*counts.tolist())
    return _Atoms(np.repeat(rows, counts // common, axis=0))


def atom_count(die: Die) -> int:
    """Return D, the number of equally likely atoms the die reduces to."""
    return _atoms(die).size


def _per_word(atoms: int, dice: int) -> int:
    """Choose how many dice one 16-bit word rolls: fewest expected words per trial."""
    best, best_cost = 1, math.inf
    for per_word in range(1, min(MAX_PER_WORD, max(dice, 1)) + 1):
        span = atoms**per_word
        if span > WORD:
            break
        accept = (WORD // span) * span / WORD
        words = math.ceil(dice / per_word)
        cost = words / accept**words
        if cost < best_cost:
            best, best_cost = per_word, cost
    return best


@record
class _Table:
    per_word: int
    words: int
    radices: tuple[int, ...]
    reject: int  # code value of one rejected word
    table: np.ndarray  # (per_word + 1, WORD): packed totals of the first j dice of a word
    live: np.ndarray  # (words, dice + 1): how many dice word w rolls for a trial of n dice


def _dtype_for(largest: int) -> np.dtype:
    for dtype in (np.uint16, np.uint32, np.uint64):
        if largest <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    raise OverflowError("pool totals do not fit in 64 bits; split the pool")


@lru_cache(maxsize=32)
def _table(die: Die, dice: int) -> _Table:
    atoms = _atoms(die)
    per_word = _per_word(atoms.size, dice)
    words = math.ceil(dice / per_word)
    radices = tuple(int(top) * dice + 1 for top in atoms.values.max(axis=0))
    strides = np.array([math.prod(radices[:i]) for i in range(len(radices))], dtype=np.uint64)
    reject = math.prod(radices)
    dtype = _dtype_for(reject * (words + 1) - 1)
    packed = (atoms.values.astype(np.uint64) * strides).sum(axis=1)  # (D,)
    span = atoms.size**per_word
    limit = (WORD // span) * span
    word = np.arange(WORD, dtype=np.int64)
    table = np.zeros((per_word + 1, WORD), dtype=np.uint64)
    for j in range(1, per_word + 1):
        digit = (word // atoms.size ** (j - 1)) % atoms.size
        table[j] = table[j - 1] + packed[digit]
    table[:, limit:] = reject
    n = np.arange(dice + 1)
    live = np.clip(n[None, :] - per_word * np.arange(words)[:, None], 0, per_word)
    return _Table(per_word, words, radices, reject, table.astype(dtype), live)


@record(eq=False)
class FlagTable:
    """Words of independent yes/no dice: bit i of table[word] is the i-th die's flag."""

    per_word: int
    limit: int  # words at or above this are drawn again
    table: np.ndarray  # (WORD,) uint64
    constant: int | None  # every die's flags when no randomness is needed (0 or all ones)


@lru_cache(maxsize=32)
def flag_table(die: Die) -> FlagTable:
    """Tabulate a one-field die whose count is 0 or 1 as words of flags, `per_word` dice a word."""
    if not die.sides:  # no natural roll: the flag is certain
        value = int(np.asarray(die.apply([])[0]))
        return FlagTable(MAX_PER_WORD, WORD, np.zeros(0, dtype=np.uint64), (1 << 64) - 1 if value else 0)
    atoms = _atoms(die)
    flags = atoms.values[:, 0]
    if flags.max() > 1:
        raise ValueError(f"a flag die's {die.fields[0]} must be 0 or 1")
    if atoms.size == 1:
        return FlagTable(MAX_PER_WORD, WORD, np.zeros(0, dtype=np.uint64), (1 << 64) - 1 if flags[0] else 0)
    per_word = _per_word(atoms.size, MAX_PER_WORD)
    span = atoms.size**per_word
    word = np.arange(WORD, dtype=np.int64)
    table = np.zeros(WORD, dtype=np.uint64)
    for i in range(per_word):
        digit = (word // atoms.size**i) % atoms.size
        table |= flags[digit].astype(np.uint64) << np.uint64(i)
    return FlagTable(per_word, (WORD // span) * span, table, None)


def roll_flags(rng: np.random.Generator, die: Die, bits: int, trials: int) -> np.ndarray:
    """Roll `bits` ≤ 64 yes/no dice per trial; return one uint64 per trial, die i in bit i.

    Each rejected word is drawn again on its own: every trial draws the same number of
    words, so an accepted word is uniform and independent of all the others. Bits above
    `bits` are not cleared: callers mask them.
    """
    plan = flag_table(die)
    if plan.constant is not None:
        return np.full(trials, plan.constant, dtype=np.uint64)
    words = -(-bits // plan.per_word)
    drawn = random_words(rng, words * trials)
    bad = np.flatnonzero(drawn >= plan.limit)
    while bad.size:
        again = random_words(rng, bad.size)
        drawn[bad] = again
        bad = bad[again >= plan.limit]
    drawn = drawn.reshape(words, trials)
    flags = plan.table[drawn[0]]
    for w in range(1, words):
        flags |= plan.table[drawn[w]] << np.uint64(w * plan.per_word)
    return np.asarray(flags)


def random_words(rng: np.random.Generator, count: int) -> np.ndarray:
    """Draw `count` uniform 16-bit words straight from the bit generator."""
    raw = rng.bit_generator.random_raw(-(-count // 4))
    return raw.view(np.uint16)[:count]


def uniform_faces(rng: np.random.Generator, sides: int, shape: int | tuple[int, ...]) -> np.ndarray:
    """Roll dice with `sides` faces (1..sides), exactly uniform.

    One random byte per die; bytes at or above the largest multiple of `sides` are drawn
    again (rejection), never folded with a biased modulo.
    """
    if not 2 <= sides <= 256:
        raise ValueError(f"sides must be 2..256, not {sides}")
    size = math.prod(shape) if isinstance(shape, tuple) else shape
    limit = 256 - 256 % sides
    raw = rng.bit_generator.random_raw(-(-size // 8)).view(np.uint8)[:size].copy()
    bad = np.flatnonzero(raw >= limit)
    while bad.size:
        again = rng.bit_generator.random_raw(-(-bad.size // 8)).view(np.uint8)[: bad.size]
        raw[bad] = again
        bad = bad[again >= limit]
    return (raw % sides + 1).reshape(shape)


def _roll_table(rng: np.random.Generator, plan: _Table, dice: int | np.ndarray, trials: int) -> np.ndarray:
    words = random_words(rng, plan.words * trials).reshape(plan.words, trials)
    if isinstance(dice, (int, np.integer)):
        codes = plan.table[plan.live[0, dice]][words[0]]
        for w in range(1, plan.words):
            codes += plan.table[plan.live[w, dice]][words[w]]
    else:
        flat = plan.table.ravel()
        codes = flat[plan.live[0][dice] * WORD + words[0]]
        for w in range(1, plan.words):
            codes += flat[plan.live[w][dice] * WORD + words[w]]
    bad = np.flatnonzero(codes >= plan.reject)
    if bad.size:
        again = dice if isinstance(dice, (int, np.integer)) else dice[bad]
        codes[bad] = _roll_table(rng, plan, again, bad.size)
    return np.asarray(codes)


def _roll_direct(rng: np.random.Generator, die: Die, dice: int | np.ndarray, most: int, trials: int) -> PoolRoll:
    faces = [uniform_faces(rng, sides, (most, trials)) for sides in die.sides]
    values = die.apply(faces)
    live = np.arange(most)[:, None] < np.asarray(dice)
    totals = [np.where(live, value, 0).sum(axis=0) for value in values]
    radices = tuple(int(total.max(initial=0)) + 1 for total in totals)
    strides = [math.prod(radices[:i]) for i in range(len(radices))]
    codes = sum(total.astype(np.uint64) * np.uint64(stride) for total, stride in zip(totals, strides))
    return PoolRoll(np.asarray(codes), die.fields, radices)


def roll_pool(rng: np.random.Generator, die: Die, dice: int | np.ndarray, trials: int) -> PoolRoll:
    """Roll `dice` copies of `die` per trial (a number, or an array of one per trial).

    Returns the totals of each field per trial, packed as a `PoolRoll`.
    """
    most = int(dice) if np.ndim(dice) == 0 else int(np.max(dice, initial=0))
    if np.ndim(dice) and np.shape(dice) != (trials,):
        raise ValueError("dice must be a number or one count per trial")
    if most == 0:
        radices = tuple(1 for _ in die.fields)
        return PoolRoll(np.zeros(trials, dtype=np.uint16), die.fields, radices)
    if not die.sides:  # no natural roll: every die gives the same counts
        values = [int(value) for value in die.apply([])]
        counts = np.broadcast_to(np.asarray(dice, dtype=np.int64), (trials,))
        radices = tuple(value * most + 1 for value in values)
        strides = [math.prod(radices[:i]) for i in range(len(radices))]
        codes = sum(counts * value * stride for value, stride in zip(values, strides))
        return PoolRoll(np.asarray(codes, dtype=np.uint64), die.fields, radices)
    if math.prod(die.sides) > ENUMERATE_LIMIT or atom_count(die) > WORD:
        return _roll_direct(rng, die, dice, most, trials)
    if np.ndim(dice):  # per-trial counts: one table for every chunk whose largest count rounds the same
        most = max(1 << (most - 1).bit_length(), 1)
    plan = _table(die, most)
    return PoolRoll(_roll_table(rng, plan, dice if np.ndim(dice) == 0 else np.asarray(dice, dtype=np.intp), trials), die.fields, plan.radices)
