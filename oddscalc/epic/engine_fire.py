"""Shooting at war engines (docs/rules.md §2.8): the hits of each kind (the normal ones, then the
macro-weapon ones onto the war engines still standing, 2.2.6), a titan killer's points allocated
as hits of their own (`TkAllocation.DAMAGE`), the formation's other units that the fire reaches
(`Reach`, `Front`), and war engines of several profiles; sampled and exact.

`AtWarEngines` is the part of `EpicShoot` (`shooting.py`) that resolves its fire on war
engines; `EpicShoot` declares the options.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from functools import cached_property
from itertools import product

if TYPE_CHECKING:
    import numpy as np
    from ..core.pool import PoolRoll
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.dice import Check, DiceExpression
from ..errors import choose, require
from .joints import combine, pack, zeros
from .saves import Ability, SavePlan, allocate_kills, failed_die, kills_given_hits
from .defences import NOT_GIVEN
from .volleys import Volleys, hits_pmf, roll_hits
from .war_engines import Engines, Front, HitKind, Reach, TkAllocation, TkSave

MAX_MIXED_ENGINES = 6  # war engines that normal then macro-weapon hits can be followed over, exactly


class AtWarEngines(Volleys):
    """Fire at a formation's war engines and, where it reaches them, the other units beside them (§2.8)."""

    vehicles: int
    reach: Reach | None
    front: Front
    tk_allocation: TkAllocation

    def _check_engine_fire(self) -> None:
        """What the fire at war engines allows: a titan killer's points as hits, the units it reaches, war
        engines of several profiles, macro-weapon hits after normal ones."""
        macro = any(v.macro for v in self.fire)
        choose(self, "tk_allocation", TkAllocation)
        titan_killer = bool(self.war_engines) and self.weapon is Ability.TITAN_KILLER
        require(self.tk_allocation is TkAllocation.HIT or titan_killer,
                "tk_allocation", self.tk_allocation, "only applies with --weapon titan-killer at --war-engines W")
        require(self.tk_allocation is TkAllocation.HIT or self.tk_save is TkSave.POINT, "tk_save", self.tk_save,
                "with --tk-allocation damage each point is a hit of its own, saved on its own: leave out --tk-save")
        self._check_others()
        if self.engine:
            require(self.reaches is Reach.ENGINES, "engine", str(self.engine[0]),
                    "war engines of several profiles with other units the fire reaches are not modelled: give the "
                    "other units as a query of their own")
            require(len(self._batches()) <= 1, "mw_shots", self.mw_shots or "a macro volley",
                    "macro-weapon hits after normal hits at war engines of several profiles: give them as separate "
                    "queries")
        if self.war_engines:
            require(not self.vehicles, "vehicles", self.vehicles, "a formation with war engines: give its other units "
                                                                  "as --units, their armour as --other-armour (§2.8)")
            require(not (macro and self.war_engines > MAX_MIXED_ENGINES and any(
                not v.macro for v in self.fire)), "war_engines", self.war_engines,
                f"macro-weapon hits after normal hits: at most {MAX_MIXED_ENGINES} war engines (which are still "
                "standing decides where they go); give them as separate queries")

    def _check_others(self) -> None:
        """A formation mixing war engines and other units (§2.8): which the fire reaches, and their order."""
        choose(self, "reach", Reach, optional=True)
        choose(self, "front", Front)
        given = self.other_armour != NOT_GIVEN
        require(bool(self.war_engines) or self.reach is None, "reach", self.reach,
                "only applies with --war-engines W")
        require(self.front is Front.ENGINES or self.reaches is Reach.BOTH, "front", self.front,
                "only applies with --reach both (the fire reaches the war engines and the other units)")
        if self.reaches is Reach.ENGINES:
            require(not given, "other_armour", self.other_armour or "none",
                    "only applies when the fire reaches the other units: --reach others or both")
            return
        require(given, "reach", self.reaches, "needs the other units' armour save: --other-armour A+ (or none)")
        require(self.unit_count > 0, "reach", self.reaches, "needs the formation's other units: --units U")
        require(len(self._batches()) == 1, "mw_shots", self.mw_shots or "a macro volley",
                "macro-weapon hits after normal hits on war engines and other units: give them as separate queries")
        require(self.tk_allocation is TkAllocation.HIT, "tk_allocation", self.tk_allocation,
                "a titan killer's points as hits: only when the fire reaches the war engines alone (--reach engines)")

    @property
    def reaches(self) -> Reach:
        """Which units the fire can hurt: --reach, else both when the other units' armour is given."""
        if self.reach is not None:
            return self.reach
        return Reach.BOTH if self.war_engines and self.other_armour != NOT_GIVEN else Reach.ENGINES

    def _batches(self) -> list[tuple[list[tuple[int, Check]], HitKind]]:
        """The hits on war engines, each kind with its volleys: the normal ones, then the macro-weapon ones (§2.3)."""
        batches = [(self._pools("normal"), self._hit_kind(self.normal_saves, self.weapon)),
                   (self._pools("macro"), HitKind(self.macro_saves))]
        return [(pools, kind) for pools, kind in batches if pools]

    @cached_property
    def other_saves(self) -> SavePlan:
        """The saves of the other units of a formation with war engines (their armour; the fire's ability)."""
        return self._other_saves(Ability.MACRO if self._pools("macro") else self.weapon)

    def _mixed_sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        """War engines of several profiles (--engine): one kind of hits, each on its war engine's own saves."""
        formation, kinds = self.profiles, self._batch_kinds()
        states = formation.start(trials)
        pools, kind = self._one_batch()
        hits = roll_hits(rng, pools, trials)
        if pools:
            if (damage := self._tk_points(kind)) is not None:  # each hit's rolled points are allocated as hits
                formation.strike(rng, states, _points(rng, damage, hits), [k.point() for k in kinds])
            else:
                formation.strike(rng, states, hits, kinds)
        values = {**formation.tally(states), "hits": hits, "other_kills": np.zeros(trials, dtype=np.int16)}
        return pack(self._engine_outcomes(values, 0, int(any(v.shots for v in self.fired))), self.outcomes)

    def _batch_kinds(self) -> list[HitKind]:
        """Each profile's way to resolve the one kind of hits fired at a mixed formation (normal or macro)."""
        normal = Ability.NORMAL if self.weapon is Ability.MACRO else self.weapon
        return self._part_kinds(normal if self._pools("normal") or not self._pools("macro") else Ability.MACRO)

    def _one_batch(self) -> tuple[list[tuple[int, Check]], HitKind]:
        """The one kind of hits at a mixed formation (none when every firing unit is suppressed)."""
        return (self._batches() or [([], self._batch_kinds()[0])])[0]

    def mixed_joint(self, number: NumberType = float) -> np.ndarray:
        """joint[hits, kills + (W + 1) · fallen, damage, shields, 0] of an attack on war engines of several
        profiles (exact): each war engine's hits, allocated front to back, resolved on its own saves."""
        formation, kinds = self.profiles, self._batch_kinds()
        pools, kind = self._one_batch()
        before = hits_pmf(pools, number)
        codes = (formation.count + 1) * (formation.capacity + 1)
        shields = sum(part.count * part.shields for part in formation.parts)
        block = codes * (formation.capacity + 1) * (shields + 1)
        damage = self._tk_points(kind)
        most = damage.highest if damage is not None else 1
        self._check_exact(len(before) * block, len(before) * most * block * formation.count, 1e8, number)
        joint = zeros((len(before), codes, formation.capacity + 1, shields + 1, 1), number)
        by_points = damage is not None
        progress = [_Progress(part, part.fresh(number), each.point() if by_points else each, number)
                    for part, each in zip(formation.parts, kinds)]
        for h, slots, weight in self._slots(before, kind, number):
            shares = formation.allocation(slots)
            one = combine([formation.coded(index, progress[index].at(n), number)
                           for index, engines in enumerate(shares) for n in engines], number)
            joint[h, :one.shape[0], :one.shape[1], :one.shape[2], 0] += weight * one
        return joint

    def _engine_sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        if self.engine:
            return self._mixed_sample(rng, trials)
        engines = self.engines
        state = engines.start(trials)
        hits, lost = np.zeros(trials, dtype=np.int16), np.zeros(trials, dtype=np.int16)  # as `Engines.tally`
        for index, (pools, kind) in enumerate(self._batches()):
            more = roll_hits(rng, pools, trials)
            mine, theirs = engines.beside(more, self.unit_count, self.reaches, self.front)
            if (damage := self._tk_points(kind)) is not None:  # each hit's rolled points are allocated as hits
                engines.strike(rng, state, _points(rng, damage, mine), kind.point(), standing=index > 0)
            else:
                engines.strike(rng, state, mine, kind, standing=index > 0)
            if self.reaches is not Reach.ENGINES:  # one batch only (§2.8): the other units' hits, front to back
                lost += allocate_kills(rng, failed_die(self.other_saves), theirs, sum(s for s, _ in pools),
                                       self.unit_count)
            hits += more
        values = {**engines.tally(state), "hits": hits, "other_kills": lost}
        return pack(self._engine_outcomes(values, 0, int(any(v.shots for v in self.fired))), self.outcomes)

    def engine_joint(self, number: NumberType = float) -> np.ndarray:
        """joint[hits, kills, damage, shields, other units killed] of an attack on war engines (exact)."""
        engines = self.engines
        batches = self._batches() or [([], self._hit_kind(self.normal_saves, self.weapon))]  # none fired (§2.4)
        normal, first = batches[0]
        macro, second = batches[1] if len(batches) > 1 else ([], first)  # no macro-weapon hits: `second` unused
        before = hits_pmf(normal, number)
        after = hits_pmf(macro, number)
        top, shields, count = engines.capacity, engines.shields, engines.count
        others = self.unit_count if self.reaches is not Reach.ENGINES else 0
        cells = (count + 1) * (count * top + 1) * (count * shields + 1) * (others + 1)
        damage = self._tk_points(first)
        most = damage.highest if damage is not None else 1  # points a hit can be allocated as
        steps = len(before) * (1 + (len(before) * most) // 2 if most > 1 else 1)
        if len(after) > 1:  # macro-weapon hits after: every way the war engines stand, every number of them
            steps *= 2 ** count * len(after)
        self._check_exact((len(before) + len(after) - 1) * cells, steps * cells * count,
                          1e9 if len(after) > 1 else 1e8, number)
        joint = zeros((len(before) + len(after) - 1, count + 1, count * top + 1, count * shields + 1, others + 1),
                        number)
        fresh = engines.fresh(number)
        states = _Progress(engines, fresh, first.point() if damage is not None else first, number)
        saved = number(self.other_saves.chance()) if others else None
        for h1, slots, w1 in self._slots(before, first, number):
            mine, theirs = (int(n) for n in engines.beside(slots, others, self.reaches, self.front))
            own = [states.at(n) for n in engines.allocation(mine)]
            if len(after) == 1:  # no macro-weapon hits
                block = combine([engines.outcome(state, number) for state in own], number)
                lost = kills_given_hits(theirs, others, saved) if saved is not None else pmfs.point(0, number(1))
                block = np.multiply.outer(block, lost)
                joint[h1, :block.shape[0], :block.shape[1], :block.shape[2], :block.shape[3]] += w1 * block
                continue
            for weight, parts in _standing(own, top, number):
                alive = [state for state, standing in parts if standing]
                later = [_Progress(engines, state, second, number) for state in alive]
                dead = [engines.outcome(state, number) for state, standing in parts if not standing]
                for h2, w2 in enumerate(after):
                    if not w2:
                        continue
                    shares = engines.allocation(h2, len(alive)) if alive else []
                    block = combine(dead + [engines.outcome(progress.at(n), number)
                                            for progress, n in zip(later, shares)], number)
                    joint[h1 + h2, :block.shape[0], :block.shape[1], :block.shape[2], 0] += w1 * weight * w2 * block
        return joint

    def _tk_points(self, kind: HitKind) -> DiceExpression | None:
        """The D-value whose rolled points are allocated as hits of their own: a titan killer's with --tk-allocation
        damage; else None (each hit is one hit)."""
        return kind.titan_killer if self.tk_allocation is TkAllocation.DAMAGE else None

    def _slots(self, hits: np.ndarray, kind: HitKind, number: NumberType) -> Any:
        """(hits, hits allocated, chance) of the hits of one kind: each hit, or with --tk-allocation damage each
        point that the hits' D-values roll."""
        damage = self._tk_points(kind)
        if damage is None:
            yield from ((h, h, weight) for h, weight in enumerate(hits) if weight)
            return
        each, points = damage.pmf(number), pmfs.point(0, number(1))
        for h, weight in enumerate(hits):
            if weight:
                yield from ((h, n, weight * chance) for n, chance in enumerate(points) if chance)
            points = pmfs.convolve(points, each)


class _Progress:
    """One war engine's distributions after 0, 1, 2 ... more hits of one kind (computed as needed)."""

    def __init__(self, engines: Engines, start: np.ndarray, kind: HitKind, number: NumberType) -> None:
        self.engines, self.kind, self.number = engines, kind, number
        self.states = [start]

    def at(self, hits: int) -> np.ndarray:
        while len(self.states) <= hits:
            self.states.append(self.engines.after(self.states[-1], 1, self.kind, self.number))
        return self.states[hits]


def _points(rng: np.random.Generator, damage: Any, hits: np.ndarray) -> np.ndarray:
    """Each trial's points of damage: its hits' D-values rolled and added up."""
    total = np.zeros(len(hits), dtype=np.int64)
    for j in range(int(hits.max(initial=0))):
        rows = np.flatnonzero(hits > j)
        total[rows] += damage.sample(rng, rows.size)
    return total


def _standing(states: list[np.ndarray], top: int, number: NumberType) -> Any:
    """Every way the war engines can stand after the normal hits: (weight, [(state, standing)]), each state
    conditioned on standing or not (its damage below the capacity, or at it)."""
    for pattern in product((True, False), repeat=len(states)):
        weight, parts = number(1), []
        for state, standing in zip(states, pattern):
            part = state.copy()
            if standing:
                part[:, top] = number(0)
            else:
                part[:, :top] = number(0)
            mass = part.sum()
            if not mass:
                weight = number(0)
                break
            weight *= mass
            parts.append((part / mass, standing))
        if weight:
            yield weight, parts
