"""One axis of an Epic Armageddon engagement side's state (`engagement.Side`; docs/rules.md §2.9): a kind of
units (its state: units lost) or one war engine (its damage), with its attacks, the slots it offers hits, and
its state after hits, exactly and sampled."""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any, Sequence, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from .kinds import NORMAL, ExtraAt, Kind, Strike
from .saves import Ability, allocate_kills, failed_die, kills_given_hits, save_plan
from .war_engines import Engines, HitKind, tk_damage

NO_SAVE = save_plan(None, None, Ability.NORMAL, False, False)  # the loser's extra hits (1.12.7)


@record
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

    def after(self, k: int, hits: Sequence[tuple[int, int]], hit: HitKind, number: NumberType) -> np.ndarray:
        """The pmf of its state after `hits`, (hits, slots) of each of its blocks, saved as `hit` says."""
        if self.kind.engine:
            state = self.engines.fresh(number)
            state[0, 0], state[0, k] = number(0), number(1)
            return np.asarray(self.engines.after(state, sum(h for h, _ in hits), hit, number)[0])
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


