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
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, Sequence

import numpy as np

from .. import pmf as pmfs
from ..dice import Check, Natural
from .saves import Ability, allocate_kills, failed_die, kills_given_hits, save_plan
from .volleys import hits_pmf, roll_hits
from .kinds import NORMAL, ExtraAt, Kind, Strike
from .war_engines import Engines, HitKind, tk_damage

ORDER = {Ability.NORMAL: 0, Ability.MACRO: 1, Ability.TITAN_KILLER: 2}  # normal hits first, then the others (2.2.6)

NO_SAVE = save_plan(None, None, Ability.NORMAL, False, False)  # the loser's extra hits (1.12.7)


@dataclass(frozen=True)
class Piece:
    """One axis of a side's state: a kind of units (state: units lost) or one war engine (state: its damage)."""

    kind: Kind
    contact: int  # units of the kind in base contact; a war engine: 1 in contact, 0 apart

    @property
    def top(self) -> int:
        """The state's highest value: every unit lost, or the war engine destroyed."""
        return self.kind.capacity if self.kind.capacity is not None else self.kind.count

    def alive(self, k: Any) -> Any:
        return (k < self.top) * 1 if self.kind.engine else self.kind.count - k

    def counted(self, k: Any, remaining: bool = False) -> Any:
        """Units it counts as, for outnumbering and a broken formation's blast markers: a war engine standing as
        many as its starting damage capacity (3.3.3), or with `remaining` as its damage capacity left (the open
        reading's other side)."""
        if remaining and self.kind.engine:
            return self.alive(k) * (self.top - k)
        return self.alive(k) * (self.kind.capacity or 1)

    def near(self, k: int) -> int:
        """Its units in base contact: those of the kind's still standing (those in contact fall first)."""
        return self.contact * self.alive(k) if self.kind.engine else max(0, self.contact - k)

    def widths(self, k: int) -> tuple[int, int]:
        """(slots in contact, slots apart) in one round of hits (3.2.1): one a unit, a war engine its capacity."""
        near = self.near(k)
        slots = self.kind.capacity or 1
        return near * slots, (self.alive(k) - near) * slots

    def pools(self, k: int) -> list[tuple[int, int | None, Strike]]:
        """(dice, value, strike) of its attacks (1.12.5; its extra attacks 2.2.3, with their weapon's ability,
        2.2.6; a war engine 3.3.2)."""
        kind, extra, strike = self.kind, self.kind.extra_attacks, self.kind.extra_strike
        if kind.capacity is not None:
            if k >= self.top:
                return []
            near = kind.cc_dice if kind.cc_dice is not None else kind.capacity * self.contact
            dice = [(near, kind.cc, NORMAL), (kind.capacity - near, kind.ff, NORMAL)]
            at_cc = extra if self.contact and kind.extra_at is not ExtraAt.FF else 0
            at_ff = extra if kind.extra_at is ExtraAt.FF or (kind.extra_at is ExtraAt.OWN and not self.contact) else 0
            return dice + [(at_cc, kind.cc, strike), (at_ff, kind.ff, strike)]
        near = self.near(k)
        apart = self.alive(k) - near
        dice = [(near, kind.cc, NORMAL), (apart, kind.ff, NORMAL)]
        extras = {ExtraAt.OWN: [(near * extra, kind.cc), (apart * extra, kind.ff)],
                  ExtraAt.CC: [(near * extra, kind.cc)], ExtraAt.FF: [(apart * extra, kind.ff)]}[kind.extra_at]
        return dice + [(count, value, strike) for count, value in extras]

    def hit_kind(self, strike: Strike | None) -> HitKind:
        """How a hit of `strike` is saved by it (None: the loser's extra hits, no save)."""
        return _hit_kind(self.kind, strike)

    @cached_property
    def engines(self) -> Engines:
        return Engines(1, self.top, 0, self.kind.critical)

    def after(self, k: int, hits: Sequence[tuple[int, int]], hit: HitKind, number) -> np.ndarray:
        """The pmf of its state after `hits`, (hits, slots) of each of its blocks, saved as `hit` says."""
        if self.kind.engine:
            state = self.engines.fresh(number)
            state[0, 0], state[0, k] = number(0), number(1)
            return self.engines.after(state, sum(h for h, _ in hits), hit, number)[0]
        kills = pmfs.point(0, number(1))
        saved = number(hit.saves.chance())
        for h, width in hits:
            if width:
                kills = pmfs.convolve(kills, kills_given_hits(h, width, saved))
        out = pmfs.zeros(self.top + 1, number(0))
        out[k:k + len(kills)] = kills
        return out

    def sampled(self, rng: np.random.Generator, k: np.ndarray, hits: Sequence[tuple[np.ndarray, int]],
                strike: Strike | None) -> np.ndarray:
        """Each trial's state after its `hits`, every save rolled; `strike` None: no save (the extra hits)."""
        hit = self.hit_kind(strike)
        if self.kind.engine:
            state = self.engines.start(len(k))
            state[1][:, 0] = k
            struck = sum((h for h, _ in hits[1:]), hits[0][0])  # one block at least (`Side.struck_sample`)
            self.engines.strike(rng, state, struck, hit, standing=False, engine=0)
            return state[1][:, 0].astype(np.int64)
        k = k.copy()
        for h, width in hits:
            if width:
                k += (np.minimum(h, width) if strike is None else
                      allocate_kills(rng, failed_die(hit.saves), h, max(int(h.max(initial=0)), 1), width))
        return k


@lru_cache(maxsize=256)
def _hit_kind(kind: Kind, strike: Strike | None) -> HitKind:
    """How a hit of `strike` is saved by units of `kind` (2.2.6 a macro-weapon's, 2.2.9 a titan killer's;
    None: the loser's extra hits, no save)."""
    if strike is None:
        return HitKind(NO_SAVE)
    ability, points = strike
    saves = save_plan(kind.armour, kind.cover_save, ability, kind.reinforced, kind.invulnerable)
    return HitKind(saves, tk_damage(points, "tk_damage") if points else None)


def groups(keys: np.ndarray):
    """(key, the indices holding it) for each distinct key: one sort, not one comparison per key."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.diff(ordered)) + 1
    for chunk in np.split(order, starts) if len(order) else []:
        yield int(keys[chunk[0]]), chunk


def spread(hits: Any, widths: Sequence[int]) -> list[Any]:
    """Hits on each block of slots, front to back, one slot after another, round after round (§2.3, 3.2.1)."""
    total = sum(widths)
    if not total:
        return [hits * 0 for _ in widths]
    rounds, rest = np.divmod(hits, total)
    out, offset = [], 0
    for width in widths:
        out.append(rounds * width + np.clip(rest - offset, 0, width))
        offset += width
    return out


@dataclass(frozen=True)
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
    memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

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
        return np.ravel_multi_index(tuple(np.asarray(states).T), self.dims)

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
        return self.states.sum(axis=1)

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
        key = ("attacks", code)
        if key not in self.memo:
            merged: dict[Strike, dict[int, int]] = {}
            pools = [pool for i, piece in enumerate(self.pieces) for pool in piece.pools(int(self.states[code, i]))]
            for count, value, strike in pools + [(self.support, self.support_ff, NORMAL)]:
                if count and value is not None:
                    merged.setdefault(strike, {})[value] = merged.setdefault(strike, {}).get(value, 0) + count
            self.memo[key] = tuple(
                (strike, tuple((count, Check(value, Natural.EPIC)) for value, count in merged[strike].items()))
                for strike in sorted(merged, key=lambda strike: (ORDER[strike[0]], str(strike[1]))))
        return self.memo[key]

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

    def _after(self, code: int, hits: int, strike: Strike | None, number) -> np.ndarray:
        """The pmf over codes after `hits` of `strike` on the side in state `code` (None: the loser's extra hits,
        unsaved)."""
        extra = strike is None
        blocks = self._blocks(code, extra)
        struck = spread(hits, [width for _, width in blocks])
        joint = pmfs.point(0, number(1))
        for i, piece in enumerate(self.pieces):
            mine = [(int(h), width) for (j, width), h in zip(blocks, struck) if j == i]
            k = int(self.states[code, i])
            if not mine or not sum(h for h, _ in mine):
                after = pmfs.zeros(piece.top + 1, number(0))
                after[k] = number(1)
            else:
                after = piece.after(k, mine, piece.hit_kind(strike), number)
            joint = np.multiply.outer(joint, after).ravel()
        return joint

    def attacked(self, code: int, attacks, number) -> np.ndarray:
        """The pmf over its codes after the enemy's `attacks` (`Side.attacks`) in state `code`: the normal hits,
        then the macro-weapons' and titan killers' on the units left (2.2.6)."""
        dist = pmfs.zeros(self.size, number(0))
        dist[code] = number(1)
        for strike, pools in attacks:
            after = pmfs.zeros(self.size, number(0))
            for at in np.flatnonzero(dist != 0):
                after = after + dist[at] * self.struck(int(at), pools, strike, number)
            dist = after
        return dist

    def struck(self, code: int, pools: tuple[tuple[int, Check], ...], strike: Strike, number) -> np.ndarray:
        """The pmf over its codes after `pools` of dice of one strike attack it in state `code`."""
        key = ("struck", code, pools, strike, number)
        if key not in self.memo:
            total = pmfs.zeros(self.size, number(0))
            for h, weight in enumerate(hits_pmf(pools, number)):
                if weight:
                    total = total + weight * self._after(code, h, strike, number)
            self.memo[key] = total
        return self.memo[key]

    def extra(self, codes: np.ndarray, margins: np.ndarray, number) -> tuple[np.ndarray, np.ndarray]:
        """(codes, chances), a row of branches for each loser in state `codes` taking `margins` extra hits
        (1.12.7: no save of any kind; a war engine a point of damage each, 3.3.3), or destroyed when it was broken
        before the assault (1.12.8); the fearless take none (2.1.3). Rows are padded with chance 0."""
        span = self.most + 1
        margins = np.asarray(margins) // 2 if self.know_no_fear else np.asarray(margins)  # They Shall Know No Fear
        keys = np.asarray(codes, dtype=np.int64) * span + np.minimum(margins, self.most)
        unique, inverse = np.unique(keys, return_inverse=True)
        rows = [self._extra_row(int(key // span), int(key % span), number) for key in unique]
        width = max(len(row[0]) for row in rows) if rows else 1
        out_codes = np.zeros((len(rows), width), dtype=np.int64)
        chances = np.zeros((len(rows), width)) if number is float else np.full((len(rows), width), number(0),
                                                                                dtype=object)
        for r, (branch, chance) in enumerate(rows):
            out_codes[r, :len(branch)], chances[r, :len(chance)] = branch, chance
        return out_codes[inverse.ravel()], chances[inverse.ravel()]

    def _extra_row(self, code: int, margin: int, number) -> tuple[np.ndarray, np.ndarray]:
        key = ("extra", code, min(margin, self.most), number)
        if key not in self.memo:
            if self.broken:
                state = [k if piece.kind.fearless else piece.top for piece, k in zip(self.pieces, self.states[code])]
                pmf = pmfs.zeros(self.size, number(0))
                pmf[int(self.code(np.array([state]))[0])] = number(1)
            else:
                pmf = self._after(code, key[2], None, number)
            branches = np.flatnonzero(pmf != 0)
            self.memo[key] = branches, pmf[branches]
        return self.memo[key]

    # --- sampled ----------------------------------------------------------------------------
    def attacked_sample(self, rng: np.random.Generator, code: int, attacks, trials: int) -> np.ndarray:
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
                out[chosen] = self._extra_row(code, 0, float)[0][0]
                continue
            hits = margins[chosen] // 2 if self.know_no_fear else margins[chosen]  # They Shall Know No Fear
            out[chosen] = self.code(self.struck_sample(rng, code, hits, None))
        return out
