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
(shields up, damage) through the same hits (`Engines.after`). War engines of several profiles
in one formation are in `engine_profiles.py`; the joints the exact twins add up, in `joints.py`.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from enum import Enum
from fractions import Fraction

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
    from ..core import pool
else:
    from ..core.lazy import numpy as np
    from ..core.lazy import Deferred

    pool = Deferred("oddscalc.core.pool")  # the sampler's: imported when dice are rolled

from ..core.pmf import NumberType
from ..core.dice import DiceExpression
from ..errors import require
from .joints import zeros
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


TK_DAMAGE = ("expected a titan killer's damage in D6s and D3s, like 2, d3, d6 or d3+1 (at most 3 dice, at most 20 "
             "points; Epic rolls no other dice)")


def tk_damage(value: DiceExpression | str | int, name: str) -> DiceExpression:
    """A titan killer's D-value (3.2.5: points of damage per hit) from its text, or a one-line refusal naming
    `name`: D6s and D3s only (docs/rules.md §2.8), at most 3 dice and 20 points."""
    damage = value if isinstance(value, DiceExpression) else DiceExpression.parse(str(value), name)
    require((damage.count == 0 or damage.sides in (3, 6)) and damage.count <= 3 and 1 <= damage.highest <= 20,
            name, damage, TK_DAMAGE)
    return damage


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


@record
class HitKind:
    """How a hit is resolved: its saves, or a titan killer's D-value (saved only by invulnerable saves)."""

    saves: SavePlan
    titan_killer: DiceExpression | None = None
    per_hit: bool = False  # a titan killer's hit saved once for all its points (`TkSave.HIT`)

    def point(self) -> HitKind:
        """One point of a titan killer's damage, allocated as a hit of its own (`TkAllocation.DAMAGE`): a hit with
        the titan killer's saves, which allow only the invulnerable save."""
        return HitKind(self.saves)


@record
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

    def beside(self, hits: Any, others: int, reach: Reach, front: Front) -> Any:
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
    def fresh(self, number: NumberType) -> np.ndarray:
        """One war engine before the attack: state[s, k] = P(s shields up, k damage); k = DC is destroyed."""
        state = zeros((self.shields + 1, self.capacity + 1), number)
        state[self.shields, 0] = number(1)
        return state

    def after(self, state: np.ndarray, hits: int, kind: HitKind, number: NumberType) -> np.ndarray:
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

    def _points(self, state: np.ndarray, points: np.ndarray, saved: Any, number: NumberType) -> np.ndarray:
        """A titan killer's hit of `points` (its pmf) points, each a hit with this chance of being saved."""
        total = zeros(state.shape, number)
        current = state
        for count, weight in enumerate(points):
            if count:
                current = self._hit(current, saved, number)
            if weight:
                total += weight * current
        return total

    def _hit(self, state: np.ndarray, saved: Any, number: NumberType) -> np.ndarray:
        """One hit (or one point of a titan killer's damage): a shield takes it, else a save (`saved`
        is its chance), else one point of damage."""
        new = zeros(state.shape, number)
        top = self.capacity
        new[:-1, :] += state[1:, :]  # a shield up stops the hit and goes down
        hull = state[0, :].copy()
        new[0, top] += hull[top]  # a destroyed war engine takes no more
        hull[top] = number(0)
        new[0, :] += saved * hull
        new[0, :] += self._damage(hull * (1 - saved), number)
        return new

    def _damage(self, hull: np.ndarray, number: NumberType) -> np.ndarray:
        """The hull's damage after one point of damage with its critical hit roll (k = DC: destroyed)."""
        top = self.capacity
        after = zeros(hull.shape, number)
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

    def outcome(self, state: np.ndarray, number: NumberType) -> np.ndarray:
        """joint[destroyed, damage lost, shields down] of one war engine (a destroyed one lost all its DC)."""
        top = self.capacity
        joint = zeros((2, top + 1, self.shields + 1), number)
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

    def strike(self, rng: np.random.Generator, state: Any, hits: np.ndarray, kind: HitKind, *, standing: bool,
               engine: int | None = None) -> None:
        """Resolve each trial's hits of one kind on its war engines, in place.

        Hits are allocated over every war engine, or with `standing` over those still
        standing (the macro-weapon hits after the normal ones), or all on `engine`."""
        shields, damage = state
        trials = len(hits)
        assert shields.flags.f_contiguous and damage.flags.f_contiguous  # from `start`: the flat arrays are views
        flat = (shields.ravel(order="F"), damage.ravel(order="F"))  # flat[engine · trials + trial]
        alive = damage < self.capacity
        count = alive.sum(axis=1) if standing else None  # each trial's war engines still standing
        order = np.argsort(~alive, axis=1, kind="stable") if standing else None  # those first
        rows = np.flatnonzero(hits > 0) if count is None else np.flatnonzero((hits > 0) & (count > 0))
        for j in range(int(hits.max(initial=0))):
            rows = rows[hits[rows] > j]  # the trials with a (j+1)-th hit
            if not rows.size:
                break
            target: np.ndarray | int
            if order is not None and count is not None:  # `standing`: over the war engines still standing
                target = order[rows, (j // self.capacity) % count[rows]]
            else:  # the same war engine in every trial: a column
                target = engine if engine is not None else (j // self.capacity) % self.count
            self._resolve(rng, flat, target * trials + rows, kind)

    def _resolve(self, rng: np.random.Generator, flat: Any, at: np.ndarray, kind: HitKind) -> None:
        """One hit on each of these war engines (flat indices)."""
        if kind.titan_killer is None:
            self._struck(rng, flat, at, kind.saves)
            return
        points = kind.titan_killer.sample(rng, at.size)
        saved = np.zeros(at.size, dtype=bool)
        if kind.per_hit and kind.saves.invulnerable:  # one save for the whole hit
            saved = pool.uniform_faces(rng, 6, at.size) == 6
        each = kind.saves.invulnerable and not kind.per_hit
        for _ in range(int(points.max(initial=0))):
            self._pierced(rng, flat, at[(points > 0) & ~saved], each)
            self._through(flat, at[(points > 0) & saved])  # a saved hit's points still take shields down
            points = points - 1

    def _through(self, flat: Any, at: np.ndarray) -> np.ndarray:
        """The hits that a shield does not stop (it goes down instead) on a standing war engine."""
        shields, damage = flat
        up = shields[at] > 0
        shields[at[up]] -= 1
        at = at[~up]
        return np.asarray(at[damage[at] < self.capacity])

    def _struck(self, rng: np.random.Generator, flat: Any, at: np.ndarray, saves: SavePlan) -> None:
        at = self._through(flat, at)
        faces = [pool.uniform_faces(rng, side, at.size) for side in saves.sides]
        failed = ~saves.saved(*faces) if faces else np.ones(at.size, dtype=bool)
        self._harm(rng, flat[1], at[failed])

    def _pierced(self, rng: np.random.Generator, flat: Any, at: np.ndarray, invulnerable: bool) -> None:
        at = self._through(flat, at)
        if invulnerable:
            at = at[pool.uniform_faces(rng, 6, at.size) < 6]
        self._harm(rng, flat[1], at)

    def _harm(self, rng: np.random.Generator, damage: np.ndarray, at: np.ndarray) -> None:
        """One point of damage each, and its critical hit roll (more points while they roll 6s)."""
        top = self.capacity
        while at.size:
            damage[at] = np.minimum(damage[at] + 1, top)
            critical = pool.uniform_faces(rng, 6, at.size) == 6
            if self.critical is Critical.DESTROYED:
                damage[at[critical]] = top
                return
            if self.critical is Critical.DAMAGE_ONCE:
                at = at[critical]
                damage[at] = np.minimum(damage[at] + 1, top)
                return
            if self.critical is Critical.WOUNDED:  # its own D6: 2-5 one more point (rolling again), 6 destroyed
                table = pool.uniform_faces(rng, 6, at.size)
                damage[at[critical & (table == 6)]] = top
                critical &= (table >= 2) & (table <= 5)
            elif self.critical is not Critical.DAMAGE:
                return
            at = at[critical & (damage[at] < top)]

    def tally(self, state: Any) -> dict[str, np.ndarray]:
        """Each trial's war engines destroyed, damage lost (a destroyed one: its DC) and shields down."""
        shields, damage = state
        destroyed = damage >= self.capacity
        small = np.int16  # at most 20 war engines of DC 20: the sums fit, and the outcomes that follow run faster
        return {"kills": destroyed.sum(axis=1, dtype=small), "damage": damage.sum(axis=1, dtype=small),
                "shields": (self.shields - shields).sum(axis=1, dtype=small)}
