"""War engines as targets (docs/rules.md §2.8; Epic Armageddon rulebook 3.2 and the Titan
Legions' void shields): damage capacity, void shields, saves per hit, critical hits, titan
killers' D-values, blast markers per point of damage, breaking.

One war engine's life under a sequence of hits (3.2.2, 3.2.3, 3.2.5, void shields):
- a hit on a war engine with a void shield up takes the shield down, with no save and no
  damage; a titan killer's hit takes one shield down per point of damage, the rest damage;
- otherwise the hit gets its saves (armour, the reinforced re-roll, the invulnerable save),
  and a failed one does one point of damage; a titan killer's hit does D points, each
  saved only by an invulnerable save;
- each point of damage rolls for a critical hit (a 6): `damage` is one more point (which
  rolls again), `damage-once` one more point (which does not), `destroyed` destroys the war
  engine, `wounded` rolls a D6 at once (2-5 one more point, which rolls again; 6 destroyed;
  1 nothing to the war engine: the Tyranid bio-titans' "Wounded"), `none` changes nothing now
  (its effect comes later, or acts on other units);
- the war engine is destroyed when its damage reaches its damage capacity.

Hits are allocated to the war engines in blocks of their damage capacity (3.2.1): hit j goes
to war engine ⌊j / DC⌋ mod W. With `TkAllocation.DAMAGE` a titan killer's hit is first
rolled for its points, and each point is allocated as a hit of its own (`HitKind.point`). Macro-weapon hits beside normal ones come after them, onto the
war engines still standing (2.2.6).

Each rule comes twice, as elsewhere: the sampler updates every trial's war engines hit by
hit (`Engines.strike`), and the exact twin carries one war engine's distribution over
(shields up, damage) through the same hits (`Engines.after`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Sequence
from fractions import Fraction

import numpy as np

from ..dice import DiceExpression
from ..pool import uniform_faces
from .saves import SavePlan

CRITICAL = Fraction(1, 6)  # a critical hit on a 6 (3.2.3)
INVULNERABLE = Fraction(1, 6)  # an invulnerable save is a 6+


class Critical(str, Enum):
    """What a critical hit does during the attack (3.2.3; the war engine's datasheet)."""

    NONE = "none"
    DAMAGE = "damage"  # one more point, which rolls for a critical hit too (3.2.3: "each point of damage")
    DAMAGE_ONCE = "damage-once"  # one more point, which does not roll again (the other reading)
    DESTROYED = "destroyed"
    WOUNDED = "wounded"  # a D6 at once: 2-5 one more point (which rolls again), 6 destroyed, 1 none (bio-titans)


WOUNDED_POINT = Fraction(4, 6)  # "Wounded": 2-5 on its D6, one more point
WOUNDED_KILLED = Fraction(1, 6)  # 6: the creature is killed (1: an attack on other units, nothing to it)


class TkAllocation(str, Enum):
    """How a titan killer's hit counts when hits are allocated over war engines (3.2.1, 3.2.5)."""

    HIT = "hit"  # one hit, whatever its D-value rolls (the rulebook)
    DAMAGE = "damage"  # its rolled points are that many hits, each a point on its own (the NetEA pack)


class TkSave(str, Enum):
    """How an invulnerable save meets a titan killer's hit on a war engine (rulebook 1.9.7 with 3.2.5; rules §2.8)."""

    POINT = "point"  # a save for each point of damage (each point is saved on its own, as it rolls its critical)
    HIT = "hit"  # one save for the whole hit: saved, none of its points that pass the shields does damage


class Reach(str, Enum):
    """Which units of a formation mixing war engines and other units the fire can hurt (3.2.1)."""

    ENGINES = "engines"  # the war engines (AT fire at a titan and its infantry); the others count toward breaking
    OTHERS = "others"  # the other units only (AP fire at a titan's infantry)
    BOTH = "both"  # both (a macro-weapon, a titan killer, AT fire at war engines and vehicles): front to back


class Front(str, Enum):
    """Which stand in front of a formation mixing war engines and other units (hits go front to back)."""

    ENGINES = "engines"
    OTHERS = "others"


@dataclass(frozen=True)
class HitKind:
    """How a hit is resolved: its saves, or a titan killer's D-value (saved only by invulnerable saves)."""

    saves: SavePlan
    titan_killer: DiceExpression | None = None
    per_hit: bool = False  # a titan killer's hit saved once for all its points (`TkSave.HIT`)

    def point(self) -> HitKind:
        """One point of a titan killer's damage, allocated as a hit of its own (`TkAllocation.DAMAGE`): a hit with
        the titan killer's saves, which allow only the invulnerable save."""
        return HitKind(self.saves)


@dataclass(frozen=True)
class Engines:
    """`count` identical war engines: damage capacity, void shields, critical hit effect."""

    count: int
    capacity: int
    shields: int = 0
    critical: Critical = Critical.NONE

    # --- allocation (3.2.1) ---------------------------------------------------------------
    def allocation(self, hits: int, engines: int | None = None) -> list[int]:
        """Hits each of `engines` standing war engines takes (blocks of the damage capacity, in turn)."""
        engines = self.count if engines is None else engines
        block = self.capacity * engines
        rounds, rest = divmod(hits, block)
        return [rounds * self.capacity + min(max(rest - i * self.capacity, 0), self.capacity) for i in range(engines)]

    def beside(self, hits, others: int, reach: Reach, front: Front):
        """(hits on the war engines, hits on the other units) when `hits` hits (a number, or an array of them) are
        allocated front to back over the war engines, each taking its damage capacity in hits, and `others`
        units taking one each, round after round (3.2.1)."""
        hits = np.asarray(hits)
        if reach is Reach.ENGINES:
            return hits, hits * 0
        if reach is Reach.OTHERS:
            return hits * 0, hits
        block = self.capacity * self.count
        first, second = (block, others) if front is Front.ENGINES else (others, block)
        rounds, rest = np.divmod(hits, first + second)
        ahead, behind = rounds * first + np.minimum(rest, first), rounds * second + np.maximum(rest - first, 0)
        return (ahead, behind) if front is Front.ENGINES else (behind, ahead)

    # --- exact ------------------------------------------------------------------------------
    def fresh(self, number) -> np.ndarray:
        """One war engine before the attack: state[s, k] = P(s shields up, k damage); k = DC is destroyed."""
        state = _zeros((self.shields + 1, self.capacity + 1), number)
        state[self.shields, 0] = number(1)
        return state

    def after(self, state: np.ndarray, hits: int, kind: HitKind, number) -> np.ndarray:
        """The distribution of one war engine after `hits` more hits of one kind."""
        saved = number(kind.saves.chance())
        points = kind.titan_killer.pmf(number) if kind.titan_killer is not None else None
        invulnerable = number(INVULNERABLE) if kind.saves.invulnerable else number(0)
        for _ in range(hits):
            if points is None:
                state = self._hit(state, saved, number)
            elif kind.per_hit:  # one save for the hit: saved, its points only take shields down
                state = ((1 - invulnerable) * self._points(state, points, number(0), number)
                         + invulnerable * self._points(state, points, number(1), number))
            else:
                state = self._points(state, points, invulnerable, number)  # a point: only an invulnerable save
        return state

    def _points(self, state: np.ndarray, points: np.ndarray, saved, number) -> np.ndarray:
        """A titan killer's hit of `points` (its pmf) points, each a hit with this chance of being saved."""
        total = _zeros(state.shape, number)
        current = state
        for count, weight in enumerate(points):
            if count:
                current = self._hit(current, saved, number)
            if weight:
                total += weight * current
        return total

    def _hit(self, state: np.ndarray, saved, number) -> np.ndarray:
        """One hit (or one point of a titan killer's damage): a shield takes it, else a save (`saved`
        is its chance), else one point of damage."""
        new = _zeros(state.shape, number)
        top = self.capacity
        new[:-1, :] += state[1:, :]  # a shield up stops the hit and goes down
        hull = state[0, :].copy()
        new[0, top] += hull[top]  # a destroyed war engine takes no more
        hull[top] = number(0)
        new[0, :] += saved * hull
        new[0, :] += self._damage(hull * (1 - saved), number)
        return new

    def _damage(self, hull: np.ndarray, number) -> np.ndarray:
        """The hull's damage after one point of damage with its critical hit roll (k = DC: destroyed)."""
        top = self.capacity
        after = _zeros(hull.shape, number)
        crit = number(CRITICAL)
        for k, weight in enumerate(hull[:top]):
            if not weight:
                continue
            if self.critical is Critical.DESTROYED:
                after[top] += weight * crit
                after[min(k + 1, top)] += weight * (1 - crit)
            elif self.critical is Critical.DAMAGE:  # each extra point rolls again: 1, 2, 3 ... points
                for extra in range(1, top - k):
                    after[k + extra] += weight * (1 - crit) * crit ** (extra - 1)
                after[top] += weight * crit ** (top - k - 1)
            elif self.critical is Critical.DAMAGE_ONCE:  # one more point on a 6, and no roll for it
                after[min(k + 2, top)] += weight * crit
                after[k + 1] += weight * (1 - crit)
            elif self.critical is Critical.WOUNDED:  # a 6, then its own D6: 2-5 one more point (again), 6 destroyed
                more, killed = crit * number(WOUNDED_POINT), crit * number(WOUNDED_KILLED)
                for extra in range(1, top - k):
                    after[k + extra] += weight * more ** (extra - 1) * (1 - more - killed)
                    after[top] += weight * more ** (extra - 1) * killed
                after[top] += weight * more ** (top - k - 1)
            else:
                after[k + 1] += weight
        return after

    def outcome(self, state: np.ndarray, number) -> np.ndarray:
        """joint[destroyed, damage lost, shields down] of one war engine (a destroyed one lost all its DC)."""
        top = self.capacity
        joint = _zeros((2, top + 1, self.shields + 1), number)
        for s in range(self.shields + 1):
            for k in range(top + 1):
                if state[s, k]:
                    joint[int(k == top), k, self.shields - s] += state[s, k]
        return joint

    # --- sampled ----------------------------------------------------------------------------
    # Each trial's war engines are two column-major int8 arrays (trials, count): the hits of one
    # war engine in every trial are one contiguous column, and a hit is addressed by its flat
    # index engine · trials + trial, so each rule below reads and writes 1-D gathers.
    def start(self, trials: int) -> tuple[np.ndarray, np.ndarray]:
        """(shields up, damage) of every war engine in every trial, before the attack."""
        return (np.full((trials, self.count), self.shields, dtype=np.int8, order="F"),
                np.zeros((trials, self.count), dtype=np.int8, order="F"))

    def strike(self, rng: np.random.Generator, state, hits: np.ndarray, kind: HitKind, *, standing: bool,
               engine: int | None = None) -> None:
        """Resolve each trial's hits of one kind on its war engines, in place.

        Hits are allocated over every war engine, or with `standing` over those still
        standing (the macro-weapon hits after the normal ones), or all on `engine`."""
        shields, damage = state
        trials = len(hits)
        assert shields.flags.f_contiguous and damage.flags.f_contiguous  # from `start`: the flat arrays are views
        flat = (shields.ravel(order="F"), damage.ravel(order="F"))  # flat[engine · trials + trial]
        alive = damage < self.capacity
        count = alive.sum(axis=1) if standing else None
        order = np.argsort(~alive, axis=1, kind="stable") if standing else None
        rows = np.flatnonzero(hits > 0) if not standing else np.flatnonzero((hits > 0) & (count > 0))
        for j in range(int(hits.max(initial=0))):
            rows = rows[hits[rows] > j]  # the trials with a (j+1)-th hit
            if not rows.size:
                break
            if standing:
                target = order[rows, (j // self.capacity) % count[rows]]
            else:  # the same war engine in every trial: a column
                target = engine if engine is not None else (j // self.capacity) % self.count
            self._resolve(rng, flat, target * trials + rows, kind)

    def _resolve(self, rng, flat, at: np.ndarray, kind: HitKind) -> None:
        """One hit on each of these war engines (flat indices)."""
        if kind.titan_killer is None:
            self._struck(rng, flat, at, kind.saves)
            return
        points = kind.titan_killer.sample(rng, at.size)
        saved = np.zeros(at.size, dtype=bool)
        if kind.per_hit and kind.saves.invulnerable:  # one save for the whole hit
            saved = uniform_faces(rng, 6, at.size) == 6
        each = kind.saves.invulnerable and not kind.per_hit
        for _ in range(int(points.max(initial=0))):
            self._pierced(rng, flat, at[(points > 0) & ~saved], each)
            self._through(flat, at[(points > 0) & saved])  # a saved hit's points still take shields down
            points = points - 1

    def _through(self, flat, at: np.ndarray) -> np.ndarray:
        """The hits that a shield does not stop (it goes down instead) on a standing war engine."""
        shields, damage = flat
        up = shields[at] > 0
        shields[at[up]] -= 1
        at = at[~up]
        return at[damage[at] < self.capacity]

    def _struck(self, rng, flat, at: np.ndarray, saves: SavePlan) -> None:
        at = self._through(flat, at)
        faces = [uniform_faces(rng, side, at.size) for side in saves.sides]
        failed = ~saves.saved(*faces) if faces else np.ones(at.size, dtype=bool)
        self._harm(rng, flat[1], at[failed])

    def _pierced(self, rng, flat, at: np.ndarray, invulnerable: bool) -> None:
        at = self._through(flat, at)
        if invulnerable:
            at = at[uniform_faces(rng, 6, at.size) < 6]
        self._harm(rng, flat[1], at)

    def _harm(self, rng, damage: np.ndarray, at: np.ndarray) -> None:
        """One point of damage each, and its critical hit roll (more points while they roll 6s)."""
        top = self.capacity
        while at.size:
            damage[at] = np.minimum(damage[at] + 1, top)
            critical = uniform_faces(rng, 6, at.size) == 6
            if self.critical is Critical.DESTROYED:
                damage[at[critical]] = top
                return
            if self.critical is Critical.DAMAGE_ONCE:
                at = at[critical]
                damage[at] = np.minimum(damage[at] + 1, top)
                return
            if self.critical is Critical.WOUNDED:  # its own D6: 2-5 one more point (rolling again), 6 destroyed
                table = uniform_faces(rng, 6, at.size)
                damage[at[critical & (table == 6)]] = top
                critical &= (table >= 2) & (table <= 5)
            elif self.critical is not Critical.DAMAGE:
                return
            at = at[critical & (damage[at] < top)]

    def tally(self, state) -> dict[str, np.ndarray]:
        """Each trial's war engines destroyed, damage lost (a destroyed one: its DC) and shields down."""
        shields, damage = state
        destroyed = damage >= self.capacity
        small = np.int16  # at most 20 war engines of DC 20: the sums fit, and the outcomes that follow run faster
        return {"kills": destroyed.sum(axis=1, dtype=small), "damage": damage.sum(axis=1, dtype=small),
                "shields": (self.shields - shields).sum(axis=1, dtype=small)}


ENGINE_ALLOWED = ("expected war engines of another profile: N DC<d> [armour A+|none] [shields S] [critical C] "
                  "[reinforced] [invulnerable] [thick-rear-armour], like '3 DC1 armour 5+ shields 1'")
MAX_PROFILE = 20  # war engines, damage capacity, shields of one profile (as --war-engines, --damage-capacity)


@dataclass(frozen=True)
class EngineProfile:
    """War engines of one profile in a formation of several (`--engine`): how many, their damage capacity,
    armour, shields and critical hit, and their armour's abilities."""

    count: int
    capacity: int
    armour: int | None = None
    shields: int = 0
    critical: Critical = Critical.NONE
    reinforced: bool = False
    invulnerable: bool = False
    thick_rear_armour: bool = False

    @classmethod
    def parse(cls, text: str, name: str = "engine") -> EngineProfile:
        """Read `3 DC1 armour 5+ shields 1 critical destroyed reinforced` (words in any order after N DC<d>)."""
        from ..attack import is_whole
        from ..errors import InputError

        words = str(text).replace("=", " ").split()
        capacity = re.fullmatch(r"dc(\d{1,2})", words[1], re.IGNORECASE) if len(words) >= 2 else None
        if len(words) < 2 or not is_whole(words[0]) or capacity is None:
            raise InputError(name, text, ENGINE_ALLOWED)
        values: dict = {"count": int(words[0]), "capacity": int(capacity[1])}
        rest = words[2:]
        while rest:
            word = rest.pop(0).casefold()
            if word in ("reinforced", "invulnerable", "thick-rear-armour"):
                values[word.replace("-", "_")] = True
            elif word in ("armour", "shields", "critical") and rest:
                value = rest.pop(0).casefold()
                if word == "armour":
                    roll = re.fullmatch(r"([2-6])\+?", value)
                    if roll is None and value != "none":
                        raise InputError(name, text, "expected armour 2+ to 6+, or none")
                    values["armour"] = int(roll[1]) if roll else None
                elif word == "shields":
                    if not is_whole(value):
                        raise InputError(name, text, ENGINE_ALLOWED)
                    values["shields"] = int(value)
                else:
                    try:
                        values["critical"] = Critical(value)
                    except ValueError:
                        raise InputError(name, text, "expected a critical hit of none, damage, damage-once, "
                                                     "destroyed or wounded") from None
            else:
                raise InputError(name, text, ENGINE_ALLOWED)
        profile = cls(**values)
        for field_name, low in (("count", 1), ("capacity", 1), ("shields", 0)):
            if not low <= getattr(profile, field_name) <= MAX_PROFILE:
                raise InputError(name, text, f"{field_name.replace('capacity', 'damage capacity')}: expected {low} "
                                             f"to {MAX_PROFILE}")
        return profile

    def __str__(self) -> str:
        words = [str(self.count), f"DC{self.capacity}", "armour " + ("none" if self.armour is None else
                                                                    f"{self.armour}+")]
        words += [f"shields {self.shields}"] if self.shields else []
        words += [f"critical {self.critical.value}"] if self.critical is not Critical.NONE else []
        words += [word for word, on in (("reinforced", self.reinforced), ("invulnerable", self.invulnerable),
                                        ("thick-rear-armour", self.thick_rear_armour)) if on]
        return " ".join(words)

    @property
    def engines(self) -> Engines:
        return Engines(self.count, self.capacity, self.shields, self.critical)


@dataclass(frozen=True)
class Formation:
    """War engines of several profiles in one formation, front to back in the order given (`parts`): each
    takes its own damage capacity in hits, round after round (3.2.1), and resolves them with its own saves.

    Its outcomes add `fallen`, the damage capacity of the war engines destroyed (what breaking needs); the
    exact joint carries kills and fallen on one axis, kills + (W + 1) · fallen."""

    parts: tuple[Engines, ...]

    @property
    def count(self) -> int:
        return sum(part.count for part in self.parts)

    @property
    def capacity(self) -> int:
        """The damage capacity of every war engine together."""
        return sum(part.count * part.capacity for part in self.parts)

    def order(self) -> list[tuple[int, int]]:
        """(part, war engine) of each hit of one round, front to back: each war engine its DC of them."""
        return [(index, engine) for index, part in enumerate(self.parts) for engine in range(part.count)
                for _ in range(part.capacity)]

    def allocation(self, hits: int) -> list[list[int]]:
        """Hits each war engine of each part takes (blocks of each one's damage capacity, round after round)."""
        rounds, rest = divmod(hits, self.capacity)
        shares = [[rounds * part.capacity] * part.count for part in self.parts]
        for index, engine in self.order()[:rest]:
            shares[index][engine] += 1
        return shares

    # --- exact ------------------------------------------------------------------------------
    def coded(self, index: int, state: np.ndarray, number) -> np.ndarray:
        """joint[kills + (W + 1) · fallen, damage lost, shields down] of one war engine of part `index`."""
        part = self.parts[index]
        joint = part.outcome(state, number)
        code = 1 + (self.count + 1) * part.capacity
        result = _zeros((code + 1,) + joint.shape[1:], number)
        result[0], result[code] = joint[0], joint[1]
        return result

    def decode(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(kills, fallen) of the joint's first axis."""
        return np.divmod(codes, self.count + 1)[::-1]

    # --- sampled ----------------------------------------------------------------------------
    def start(self, trials: int) -> list:
        return [part.start(trials) for part in self.parts]

    def strike(self, rng: np.random.Generator, states: list, hits: np.ndarray, kinds: Sequence[HitKind]) -> None:
        """Resolve each trial's hits, allocated front to back, each with its war engine's own saves."""
        order = self.order()
        trials = len(hits)
        flats = [(shields.ravel(order="F"), damage.ravel(order="F")) for shields, damage in states]
        rows = np.flatnonzero(hits > 0)
        for j in range(int(hits.max(initial=0))):
            rows = rows[hits[rows] > j]
            if not rows.size:
                break
            index, engine = order[j % len(order)]
            self.parts[index]._resolve(rng, flats[index], engine * trials + rows, kinds[index])

    def tally(self, states: list) -> dict[str, np.ndarray]:
        tallies = [part.tally(state) for part, state in zip(self.parts, states)]
        total = {name: sum(one[name] for one in tallies) for name in tallies[0]}
        total["fallen"] = sum((one["kills"] * part.capacity).astype(np.int16)
                              for one, part in zip(tallies, self.parts))
        return total


def _zeros(shape, number) -> np.ndarray:
    if number is float:
        return np.zeros(shape)
    return np.full(shape, Fraction(0), dtype=object)


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The joint pmf of the sums of two independent n-dimensional outcomes."""
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape))
    exact = a.dtype == object or b.dtype == object
    result = np.full(shape, Fraction(0), dtype=object) if exact else np.zeros(shape)
    if np.count_nonzero(b) < np.count_nonzero(a):
        a, b = b, a
    for index in zip(*np.nonzero(a)):
        result[tuple(slice(i, i + n) for i, n in zip(index, b.shape))] += a[index] * b
    return result


def combine(outcomes: list[np.ndarray], number) -> np.ndarray:
    """The joint pmf of the sums of several independent outcomes (all of one dimension)."""
    total = np.ones((1,) * outcomes[0].ndim, dtype=object if number is not float else float)
    if number is not float:
        total[(0,) * outcomes[0].ndim] = Fraction(1)
    for one in outcomes:
        total = convolve(total, one)
    return total


AXES = ("hits", "kills", "damage", "shields", "other_kills")  # a war-engine attack's joint, axis by axis


def pmfs_of(joint: np.ndarray, names: tuple[str, ...], outcomes, number) -> dict[str, np.ndarray]:
    """The pmf of every outcome from joint[hits, kills, damage, shields(, other units killed)]: `outcomes(values)`
    adds blast markers and broken to the arrays of those."""
    from .. import pmf as pmfs

    values = outcomes(dict(zip(AXES, np.indices(joint.shape))))
    where = np.nonzero(joint)
    weights = joint[where]
    result = {}
    for name in names:
        found = values[name][where].astype(np.int64)
        if number is float:
            result[name] = np.bincount(found, weights=weights.astype(float), minlength=2 if name == "broken" else 1)
        else:
            pmf = [Fraction(0)] * (int(found.max(initial=0)) + 1 if name != "broken" else 2)
            for value, weight in zip(found, weights):
                pmf[value] += weight
            result[name] = pmfs.array(pmf)
    return result


def pack(values: dict[str, np.ndarray], names: tuple[str, ...]):
    """Each trial's outcomes packed for the engine, in the order of `names`."""
    from ..pool import PoolRoll

    radices = tuple(int(values[name].max(initial=0)) + 1 if name != "broken" else 2 for name in names)
    codes = np.zeros(len(values[names[0]]), dtype=np.int64)
    stride = 1
    for name, radix in zip(names, radices):
        codes += values[name].astype(np.int64) * stride
        stride *= radix
    return PoolRoll(codes, names, radices)
