"""An Epic Armageddon engagement's sides, unit by kind (docs/rules.md §2.9; rulebook 1.12 and 3.3): who attacks
with which dice, where hits fall, what a side has left and counts in the result, and the loser's extra hits.

A side is one or more kinds of units (`kinds.Kind`: how many, CC, FF, saves, how many in base contact; or war engines,
each with its damage capacity). Its state is one number per piece: units lost of a kind, or the damage on one war
engine (a kind of N war engines is N pieces). The state's code (`Side.code`) runs over every combination, so the
exact engagement (`rounds.engagement_pmfs`) walks pmfs over codes and the sampler groups its trials by code.

Hits on a side go front to back (1.12.5, "as for shooting"; 3.2.1): over the units in base contact first, kind by
kind in the order given, then the others; each unit takes one hit in turn, each war engine as many as its damage
capacity, round after round. A unit that fails its save is destroyed; a war engine loses a point of damage capacity
for each failed save, each point rolling for a critical hit (§2.8). Losses of a kind come from its units in contact
first (an open reading, §2.9).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import field, replace
from functools import cached_property
from typing import Any, Callable, Sequence, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.dice import Check, Natural
from ..core.keyed import groups
from .kinds import NORMAL, Kind, Strike
from .pieces import Piece
from .saves import Ability
from .volleys import hits_pmf, roll_hits

ORDER = {Ability.NORMAL: 0, Ability.MACRO: 1, Ability.TITAN_KILLER: 2}  # normal hits first, then the others (2.2.6)


class Attacks(tuple[Any, ...]):
    """A side's attacks in one state (`Side.attacks`): a tuple whose hash is worked once, as the enemy's memo
    is asked by it for every pair of states."""

    def __hash__(self) -> int:
        if "hash" not in self.__dict__:
            self.__dict__["hash"] = tuple.__hash__(self)
        kept: int = self.__dict__["hash"]
        return kept


MEMO_SIDES = 64  # the sides whose worked pmfs are kept: a study meets the same reference targets cell after cell
MEMO_BYTES = 512 << 20  # and the most their arrays hold together (a server answers assault after assault)
SIZE, KEPT = "bytes", "kept"  # a memo's own entries: the bytes of its arrays; whether the shared list holds it
_MEMOS: OrderedDict[Any, dict[Any, Any]] = OrderedDict()
_MEMOS_LOCK = threading.Lock()
_HELD = [0]  # the bytes the memos of that list keep, together


def forget() -> None:
    """Drop every side's worked pmfs (a benchmark's cold start)."""
    with _MEMOS_LOCK:
        while _MEMOS:
            _let_go(_MEMOS.popitem(last=False)[1])


def _let_go(memo: dict[Any, Any]) -> None:
    """A memo leaves the shared list: its bytes no longer count (a side still working keeps it until done)."""
    memo[KEPT] = False
    _HELD[0] -= memo[SIZE]


def _shared_memo(side: Any) -> dict[Any, Any]:
    """The one memo of every side equal to `side` (its pmfs depend on its fields only), the latest sides kept."""
    with _MEMOS_LOCK:
        memo = _MEMOS.pop(side, None)
        _MEMOS[side] = {SIZE: 0, KEPT: True} if memo is None or not memo[KEPT] else memo
        while len(_MEMOS) > MEMO_SIDES:
            _let_go(_MEMOS.popitem(last=False)[1])
        return _MEMOS[side]


def _held(memo: dict[Any, Any], change: int) -> None:
    """Count `change` bytes more (or fewer) in `memo`; past MEMO_BYTES, the oldest sides' memos go first, then
    this one's own pmfs (each is worked again when asked)."""
    if not change:
        return
    with _MEMOS_LOCK:
        memo[SIZE] += change
        if not memo[KEPT]:
            return
        _HELD[0] += change
        if _HELD[0] <= MEMO_BYTES:
            return
        for side in list(_MEMOS):
            if _HELD[0] <= MEMO_BYTES or _MEMOS[side] is memo:
                break
            _let_go(_MEMOS.pop(side))
        if _HELD[0] > MEMO_BYTES:
            _HELD[0] -= memo[SIZE]
            memo.clear()
            memo.update({SIZE: 0, KEPT: True})


def spread(hits: Any, widths: Sequence[int]) -> list[Any]:
    """Hits on each block of slots, front to back, one slot after another, round after round (§2.3, 3.2.1)."""
    total = sum(widths)
    if not total:
        return [hits * 0 for _ in widths]
    if isinstance(hits, (int, np.integer)):  # one number of hits: the exact engagement's, worked without arrays
        whole, left, out = *divmod(int(hits), total), []
        for width in widths:
            out.append(whole * width + min(max(left, 0), width))
            left -= width
        return out
    if sum(1 for width in widths if width) == 1:  # one block holds every slot: it takes every hit
        return [hits if width else np.zeros_like(hits) for width in widths]
    rounds, rest = np.divmod(hits, total)
    out, offset = [], 0
    for width in widths:
        out.append(rounds * width + np.clip(rest - offset, 0, width))
        offset += width
    return out


@record
class Side:
    """One side of an engagement: its kinds of units, and how it counts in the result (1.12.7)."""

    kinds: tuple[Kind, ...]
    blast_markers: int = 0
    broken: bool = False
    support: int = 0
    support_ff: int | None = None
    bonus: int = 0
    first_strike: bool = False
    know_no_fear: bool = False  # They Shall Know No Fear: half its blast markers count, half its extra hits
    engines_count: str = "starting"  # a damaged war engine counts its starting damage capacity, or "remaining"
    removal: str = "failed-save"  # which units fall: those that failed their save, or "in-contact-first"
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "memo", _shared_memo(self))

    def kept(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """What `make` works out for `key`, worked once and kept in the side's memo (within MEMO_BYTES)."""
        if key not in self.memo:
            value = make()
            _held(self.memo, getattr(value, "nbytes", 0))
            self.memo[key] = value
        return self.memo[key]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without its memo: made again where it lands, with that process's memo of equal sides."""
        return Side, tuple(getattr(self, name) for name in self.__dataclass_fields__ if name != "memo")

    @classmethod
    def of(cls, units: int, cc: int | None, ff: int | None, armour: int | None, in_contact: int | None = None,
           **values: Any) -> Side:
        """A side of one kind: the kind's fields and the side's in one call."""
        side_fields = {"blast_markers", "broken", "support", "support_ff", "bonus", "first_strike", "know_no_fear",
                       "engines_count", "removal"}
        kind = Kind(units, cc, ff, armour, in_contact, **{k: v for k, v in values.items() if k not in side_fields})
        return cls((kind,), **{k: v for k, v in values.items() if k in side_fields})

    @cached_property
    def pieces(self) -> tuple[Piece, ...]:
        """The axes of its state: a war engine each; a kind of units one, or, when only some of it is in base
        contact and a unit that fails its save is the one removed (1.12.5 "as for shooting", 1.9.6: the default
        reading), two: those in contact and those apart, each losing its own units."""
        out: list[Piece] = []
        for kind in self.kinds:
            if kind.engine:
                out += [Piece(kind, int(i < kind.contact)) for i in range(kind.count)]
            elif self.removal == "failed-save" and 0 < kind.contact < kind.count:
                out += [Piece(replace(kind, count=kind.contact, in_contact=None), kind.contact),
                        Piece(replace(kind, count=kind.count - kind.contact, in_contact=0), 0)]
            else:
                out.append(Piece(kind, kind.contact))
        return tuple(out)

    @property
    def parts(self) -> int:
        """Its kinds and war engines as a player counts them (a war engine each, a kind one)."""
        return sum(kind.count if kind.engine else 1 for kind in self.kinds)

    @property
    def split(self) -> bool:
        """Whether a kind has units both in base contact and apart (where the two readings of losses differ)."""
        return any(not kind.engine and 0 < kind.contact < kind.count for kind in self.kinds)

    @cached_property
    def dims(self) -> tuple[int, ...]:
        return tuple(piece.top + 1 for piece in self.pieces)

    @cached_property
    def size(self) -> int:
        return math.prod(self.dims)

    @cached_property
    def states(self) -> np.ndarray:
        """states[code] = each piece's state (units lost, or a war engine's damage)."""
        return np.indices(self.dims).reshape(len(self.dims), -1).T

    def code(self, states: np.ndarray) -> np.ndarray:
        """The code of each row of piece states."""
        if len(self.dims) == 1:  # one piece: its state is the code
            return np.asarray(states)[:, 0].copy()
        return np.asarray(np.ravel_multi_index(tuple(np.asarray(states).T), self.dims))

    @cached_property
    def left(self) -> np.ndarray:
        """left[code]: the units it counts as in the result (1.12.7; war engines 3.3.3)."""
        remaining = self.engines_count == "remaining"
        return sum((piece.counted(self.states[:, i], remaining) for i, piece in enumerate(self.pieces)),
                   np.zeros(self.size, dtype=np.int64))

    @cached_property
    def casualties(self) -> np.ndarray:
        """casualties[code]: the kills the enemy counts (1.12.7): units lost, each point of damage on a war engine
        one (3.3.3)."""
        return np.asarray(self.states.sum(axis=1))

    @property
    def units(self) -> int:
        """The units it counts as before the assault."""
        return int(self.left[0])

    @property
    def most(self) -> int:
        """The most kills it can suffer."""
        return int(self.casualties[-1])

    def markers(self, left: Any) -> Any:
        """The blast markers the result compares (1.12.7): a broken formation one per unit left; They Shall Know
        No Fear, half of them rounded down (a broken one still one per unit)."""
        if self.broken:
            return left
        return (self.blast_markers // 2 if self.know_no_fear else self.blast_markers) + 0 * left

    def unmarked(self, left: Any) -> Any:
        """Whether it has no blast markers for the result's +1 (1.12.7): none at all (one marker halved to none
        still counts, They Shall Know No Fear)."""
        if self.broken:
            return left == 0
        return (self.blast_markers == 0) + 0 * left

    def attacks(self, code: int) -> tuple[tuple[Strike, tuple[tuple[int, Check], ...]], ...]:
        """(strike, (dice, check) pools) it rolls in state `code`, its supporting fire included (1.12.6): the
        normal attacks first, then its macro-weapons' and titan killers' (their hits allocated after, 2.2.6)."""
        attacks: tuple[tuple[Strike, tuple[tuple[int, Check], ...]], ...] = self.kept(
            ("attacks", code), lambda: self._worked_attacks(code))
        return attacks

    def _worked_attacks(self, code: int) -> Attacks:
        merged: dict[Strike, dict[int, int]] = {}
        pools = [pool for i, piece in enumerate(self.pieces) for pool in piece.pools(int(self.states[code, i]))]
        for count, value, strike in pools + [(self.support, self.support_ff, NORMAL)]:
            if count and value is not None:
                merged.setdefault(strike, {})[value] = merged.setdefault(strike, {}).get(value, 0) + count
        return Attacks(
            (strike, tuple((count, Check(value, Natural.EPIC)) for value, count in merged[strike].items()))
            for strike in sorted(merged, key=lambda strike: (ORDER[strike[0]], str(strike[1]))))

    def dice(self, code: int) -> tuple[tuple[int, Check], ...]:
        """(dice, check) of every attack it rolls in state `code`, whatever their hits' saves."""
        return tuple(pool for _, pools in self.attacks(code) for pool in pools)

    @cached_property
    def inspiring(self) -> np.ndarray:
        """inspiring[code]: its Inspiring units left, each +1 to its result (2.1.5)."""
        return sum((piece.alive(self.states[:, i]) for i, piece in enumerate(self.pieces) if piece.kind.inspiring),
                   np.zeros(self.size, dtype=np.int64))

    def _blocks(self, code: int, extra: bool) -> list[tuple[int, int]]:
        """(piece, slots) front to back: the units in base contact first, kind by kind, then the others; the
        fearless skipped by the extra hits (2.1.3)."""
        widths = [piece.widths(int(self.states[code, i])) for i, piece in enumerate(self.pieces)]
        chosen = [i for i, piece in enumerate(self.pieces) if not (extra and piece.kind.fearless)]
        return [(i, widths[i][0]) for i in chosen] + [(i, widths[i][1]) for i in chosen]

    def _after(self, code: int, hits: int, strike: Strike | None, number: NumberType) -> np.ndarray:
        """The pmf over codes after `hits` of `strike` on the side in state `code` (None: the loser's extra hits,
        unsaved): what the enemy rolled to get them does not matter, so each is worked once."""
        return np.asarray(self.kept(("after", code, hits, strike, number),
                                    lambda: self._worked_after(code, hits, strike, number)))

    def _worked_after(self, code: int, hits: int, strike: Strike | None, number: NumberType) -> np.ndarray:
        blocks = self.kept(("blocks", code, strike is None), lambda: self._blocks(code, strike is None))
        struck = spread(hits, [width for _, width in blocks])
        joint = pmfs.point(0, number(1))
        for i, piece in enumerate(self.pieces):
            mine = tuple((h, width) for (j, width), h in zip(blocks, struck) if j == i)
            k = int(self.states[code, i])
            after = self.kept(("piece", i, k, mine, strike, number),  # many codes share a piece's state and hits
                              lambda: self._piece_after(piece, k, mine, strike, number))
            joint = after if i == 0 else np.multiply.outer(joint, after).ravel()
        return joint

    @staticmethod
    def _piece_after(piece: Piece, k: int, mine: tuple[tuple[int, int], ...], strike: Strike | None,
                     number: NumberType) -> np.ndarray:
        """The pmf of one piece's state after its `mine` (hits, slots) blocks of hits, from state `k`."""
        if not any(h for h, _ in mine):
            after = pmfs.zeros(piece.top + 1, number(0))
            after[k] = number(1)
            return after
        return piece.after(k, mine, piece.hit_kind(strike), number)

    def attacked(self, code: int, attacks: Any, number: NumberType) -> np.ndarray:
        """The pmf over its codes after the enemy's `attacks` (`Side.attacks`) in state `code`: the normal hits,
        then the macro-weapons' and titan killers' on the units left (2.2.6)."""
        return np.asarray(self.kept(("attacked", code, attacks, number),
                                    lambda: self._worked_attacked(code, attacks, number)))

    def _worked_attacked(self, code: int, attacks: Any, number: NumberType) -> np.ndarray:
        if not attacks:
            dist = pmfs.zeros(self.size, number(0))
            dist[code] = number(1)
            return dist
        dist = self.struck(code, attacks[0][1], attacks[0][0], number)
        for strike, pools in attacks[1:]:  # each state the earlier strikes left, struck again
            at = np.flatnonzero(dist != 0)
            dist = dist[at] @ np.stack([self.struck(int(state), pools, strike, number) for state in at])
        return dist

    def struck(self, code: int, pools: tuple[tuple[int, Check], ...], strike: Strike, number: NumberType) -> np.ndarray:
        """The pmf over its codes after `pools` of dice of one strike attack it in state `code`."""
        def worked() -> np.ndarray:
            hits = hits_pmf(pools, number)
            return np.asarray(hits @ self._after_rows(code, strike, number, len(hits)))
        return np.asarray(self.kept(("struck", code, pools, strike, number), worked))

    def _after_rows(self, code: int, strike: Strike | None, number: NumberType, count: int) -> np.ndarray:
        """rows[h] = the pmf over codes after h hits (`_after`), for h below `count` at least: one matrix, so
        that a roll's pmf of hits weighs them all at once."""
        key = ("rows", code, strike, number)
        rows = self.memo.get(key)
        if rows is None or len(rows) < count:
            have = [] if rows is None else list(rows)
            made = np.stack(have + [self._after(code, h, strike, number) for h in range(len(have), count)])
            if rows is not None and self.memo.pop(key, None) is not None:
                _held(self.memo, -rows.nbytes)  # (a longer matrix takes its place)
            rows = self.kept(key, lambda: made)
        return np.asarray(rows[:count])

    def extra(self, codes: np.ndarray, margins: np.ndarray,
              number: NumberType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(row, code, chance) of each branch of each loser in state `codes[row]` taking `margins[row]` extra hits
        (1.12.7: no save of any kind; a war engine a point of damage each, 3.3.3), or destroyed when it was broken
        before the assault (1.12.8); the fearless take none (2.1.3)."""
        margins = np.asarray(margins) // 2 if self.know_no_fear else np.asarray(margins)  # They Shall Know No Fear
        margins = np.minimum(margins, self.most)
        parts = []
        for code, chosen in groups(np.asarray(codes, dtype=np.int64)):
            rows = margins[chosen]
            dense = self._extra_rows(code, number, int(rows.max()) + 1)[rows]  # a loser's row of codes each
            row, branch = np.nonzero(dense)  # each loser's branches: the codes it may end in
            parts.append((chosen[row], branch, dense[row, branch]))
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), pmfs.zeros(0, number(0))
        return tuple(np.concatenate(column) for column in zip(*parts))  # type: ignore[return-value]

    def _extra_rows(self, code: int, number: NumberType, count: int) -> np.ndarray:
        """rows[margin] = the pmf over codes after `margin` extra hits on the side in state `code`, margins
        below `count` at least."""
        if not self.broken:
            return self._after_rows(code, None, number, count)
        destroyed = pmfs.zeros(self.size, number(0))
        destroyed[self.destroyed(code)] = number(1)
        return np.stack([destroyed] * count)

    def destroyed(self, code: int) -> int:
        """The code of a broken side that lost the assault (1.12.8): every unit destroyed but the fearless."""
        return int(self.code(np.array([[k if piece.kind.fearless else piece.top
                                        for piece, k in zip(self.pieces, self.states[code])]]))[0])

    # --- sampled ----------------------------------------------------------------------------
    def attacked_sample(self, rng: np.random.Generator, code: int, attacks: Any, trials: int) -> np.ndarray:
        """Each trial's piece states after the enemy's `attacks` in state `code` (as `attacked`), every die
        rolled."""
        states = None
        for strike, pools in attacks:
            hits = roll_hits(rng, pools, trials)
            if states is None:  # every trial still in state `code`: no grouping
                states = self.struck_sample(rng, code, hits, strike)
                continue
            for at, chosen in groups(self.code(states)):
                states[chosen] = self.struck_sample(rng, at, hits[chosen], strike)
        return np.repeat(self.states[code][None, :], trials, axis=0) if states is None else states

    def struck_sample(self, rng: np.random.Generator, code: int, hits: np.ndarray,
                      strike: Strike | None = NORMAL) -> np.ndarray:
        """Each trial's piece states after its `hits` of `strike` on the side in state `code`, every save rolled
        (None: the extra hits, no save)."""
        blocks = self._blocks(code, strike is None)
        struck = spread(hits, [width for _, width in blocks])
        states = np.repeat(self.states[code][None, :], len(hits), axis=0)
        for i, piece in enumerate(self.pieces):
            mine = [(h, width) for (j, width), h in zip(blocks, struck) if j == i and width]
            if mine:
                states[:, i] = piece.sampled(rng, states[:, i], mine, strike)
        return states

    def extra_sample(self, rng: np.random.Generator, codes: np.ndarray, margins: np.ndarray) -> np.ndarray:
        """Each loser's codes after its extra hits (as `extra`, every critical hit rolled)."""
        out = codes.copy()
        for code, chosen in groups(codes):
            if self.broken:
                out[chosen] = self.destroyed(code)
                continue
            hits = margins[chosen] // 2 if self.know_no_fear else margins[chosen]  # They Shall Know No Fear
            out[chosen] = self.code(self.struck_sample(rng, code, hits, None))
        return out
