"""Epic Armageddon barrages (docs/rules.md §2.5): the barrage table, one to-hit roll per unit under
the templates, and war engines under a template's centre (§2.8). What every attack on a formation
shares is in `target.py`, shooting in `shooting.py`; saves, hit allocation and blast markers live
in `saves.py`. Each attack samples natural faces (to-hit and save face rules, hits allocated front
to back) and has an exact twin built from chances and pmf algebra; both give the same outcomes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.attack import option
from ..core.dice import Check, FaceReader, Natural, check_sides
from ..errors import require
from ..core.pool import Die, PoolRoll, roll_pool
from ..output.style import plural
from .joints import combine, pack, pmfs_of, zeros
from .saves import BlastMarkers, SavePlan, outcome_roll
from .defences import NOT_GIVEN
from .target import MAX_UNITS, OnFormation
from .volleys import hit_die

UNITS_PER_TEMPLATE = 3  # units a 7.4 cm template covers in a formation spread at 5 cm (a reading; --per-template)


class BarrageRow(NamedTuple):
    """One row of the barrage table (docs/rules.md §2.5)."""

    extra_templates: int
    extra_blast_markers: int
    anti_personnel: int  # AP to hit
    anti_tank: int  # AT to hit


def barrage_row(bp: int) -> BarrageRow:
    """Look up the barrage table for `bp` barrage points (1..18)."""
    require(1 <= bp <= 18, "bp", bp, "expected 1 to 18 barrage points (the barrage table stops at 18)")
    if bp <= 3:
        return BarrageRow(0, 0, {1: 6, 2: 5, 3: 4}[bp], {1: 6, 2: 6, 3: 5}[bp])
    templates = 1 if bp <= 7 else 2
    extra = 0 if bp <= 5 else 1 if bp <= 9 else 2 if bp <= 12 else 3 if bp <= 15 else 4
    return BarrageRow(templates, extra, 4, 5)


@lru_cache(maxsize=64)
def barrage_die(check: Check, saves: SavePlan) -> Die:
    """Return the die of one unit under a barrage: its to-hit roll, then its saves if hit."""

    def rule(*faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read = FaceReader(faces)
        hit = read.check(check)
        saved = saves.saved(*(read.take() for _ in saves.sides))
        return hit & ~saved, hit

    return Die(check_sides(check) + saves.sides, rule, ("kills", "hits"))


def _padded(pmf: np.ndarray, size: int) -> np.ndarray:
    padded = pmfs.zeros(size, pmf)
    padded[: len(pmf)] = pmf
    return padded


# --- barrages (docs/rules.md §2.5) -----------------------------------------------------------


@record(kw_only=True, init=False)
class Barrage(OnFormation):
    """Barrage an Epic formation: one to-hit roll per unit under the templates.

    The barrage table gives the to-hit roll (AP, or AT with `at`) and the extra blast
    markers: 1 BP 6+/6+; 2 BP 5+/6+; 3 BP 4+/5+; 4-18 BP 4+/5+ with 0 (4-5), 1 (6-9),
    2 (10-12), 3 (13-15) or 4 (16-18) extra blast markers. Each unit is rolled for once,
    however many templates cover it; modifier -1 in cover, +1 indirect. Saves and blast
    markers as for shooting, plus the extra ones. A special ability (macro, ignore cover)
    counts only if every weapon of the barrage has it. Without `units`, the templates cover
    `per_template` units each (default 3), at most the whole `formation`
    (§2.5).

    Outcomes: kills, blast_markers, broken; with `war_engines`: kills, damage (points of damage
    done), shields (void shields taken down), blast_markers, broken; with `other_armour`: kills
    (every unit destroyed), engine_kills (the war engines), other_kills (the other units),
    damage, shields, blast_markers, broken.
    """

    bp: int = option("Barrage points of the weapons that fire (1 to 18).", metavar="P")
    units: int | None = option("Units under the templates (1 to 100). Without it, give --formation: the templates "
                               "then cover --per-template units each.", None, metavar="U")
    at: bool = option("Use the table's AT column (armoured targets).", False)
    per_template: int | None = option(
        f"Without --units: units each template covers (default {UNITS_PER_TEMPLATE}), at most the formation; the "
        "first template plus the table's extra ones.", None, metavar="K")
    engines_under: int | None = option(
        "With --war-engines: how many are under the templates, each attacked half its damage capacity (rounded up) "
        "times (§2.8); default one per template (the firer centres each on a war engine), at most --war-engines.",
        None, metavar="N")
    others_under: int | None = option(
        "With --other-armour: the war engines' other units under the templates, each rolled for once on the AP "
        "column (--at: the AT column); default the templates past the war engines, 3 units each (§2.8).", None,
        metavar="N")

    COMMAND = "epic barrage"
    events = ("broken",)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """kills, blast markers, broken; at war engines also the damage done and shields taken down (and with
        --other-armour kills count the other units too, engine_kills and other_kills apart)."""
        if self.war_engines:
            others = ("engine_kills", "other_kills") if self.other_armour != NOT_GIVEN else ()
            return ("kills", *others, "damage", "shields", "blast_markers", "broken")
        return ("kills", "blast_markers", "broken")

    def describe(self) -> str:
        if self.war_engines:
            others = f" (and {plural(self.units, 'other unit')})" if self.units else ""
            if self.other_armour != NOT_GIVEN:
                others = (f" and {plural(self.units, 'other unit')} ({self._others_armour()}; {self.others_reached} "
                          f"under the templates, {'AT' if self.at else 'AP'} column)")
            return (f"Epic barrage: {self.bp} BP on {plural(self.engine_count, 'war engine')}{others}, "
                    f"{plural(self.centred, 'war engine')} under the templates, {self._defence()}")
        reached = plural(self.reached, "unit") + ("" if self.units is not None else
                                                    f" ({self.per_template or UNITS_PER_TEMPLATE} per template)")
        return f"Epic barrage: {self.bp} BP{' (AT)' if self.at else ''} on {reached}, {self._defence()}"

    def check(self) -> None:
        barrage_row(self.bp)
        require(self.units is not None or self.formation is not None or bool(self.war_engines), "units", None,
                "is required: the units under the templates (--units U), or the formation's size "
                f"(--formation F) with {UNITS_PER_TEMPLATE} units per template (--per-template)")
        require(self.per_template is None or not self.war_engines, "per_template", self.per_template,
                "does not apply to war engines: give how many are under the templates with --engines-under N (§2.8)")
        require(self.engines_under is None or bool(self.war_engines), "engines_under", self.engines_under,
                "only applies with --war-engines W")
        most = self.engine_count
        require(self.engines_under is None or 1 <= self.engines_under <= max(most, 1), "engines_under",
                self.engines_under, f"expected 1 to {most} war engines under the templates (--war-engines)" if most > 1
                else "expected 1: the formation has one war engine (--war-engines 1)")
        if self.war_engines:
            self._check_others()
        require(self.per_template is None or self.units is None, "per_template", self.per_template,
                "only applies without --units (it decides how many units the templates cover)")
        require(self.per_template is None or 1 <= self.per_template <= MAX_UNITS, "per_template",
                self.per_template, f"expected 1 to {MAX_UNITS} units under each template")
        super().check()

    def _check_others(self) -> None:
        """A barrage at war engines and the other units beside them (§2.8): which others are under it."""
        given = self.other_armour != NOT_GIVEN
        require(given or not self.at, "at", True, "with --war-engines: the other units' column, which needs "
                                                  "their armour (--other-armour); war engines always roll on AT")
        require(given or self.others_under is None, "others_under", self.others_under,
                "only applies with --other-armour A (the other units' armour save)")
        require(not given or (self.units or 0) > 0, "other_armour", self.other_armour or "none",
                "needs the formation's other units: --units U")
        require(self.others_under is None or 0 <= self.others_under <= (self.units or 0), "others_under",
                self.others_under, f"expected 0 to {self.units or 0} other units under the templates (--units)")

    @property
    def others_reached(self) -> int:
        """The war engines' other units under the templates: --others-under, else the templates past the war
        engines cover UNITS_PER_TEMPLATE each, at most the other units."""
        if self.other_armour == NOT_GIVEN:
            return 0
        if self.others_under is not None:
            return self.others_under
        return min(self.unit_count, max(self.templates - self.centred, 0) * UNITS_PER_TEMPLATE)

    @property
    def other_check(self) -> Check:
        """The other units' to-hit roll: the AP column, or AT with --at."""
        return Check(self._need(self.row.anti_tank if self.at else self.row.anti_personnel), Natural.EPIC)

    @property
    def centred(self) -> int:
        """War engines under the templates: --engines-under, else one per template (the firer's aim), at most all
        of them."""
        if self.engines_under is not None:
            return self.engines_under
        return min(self.templates, self.engine_count)

    @property
    def attacks_each(self) -> int:
        """Attacks on a war engine under a template's centre: half its damage capacity, rounded up (3.2.1)."""
        return -(-(self.damage_capacity or 1) // 2)

    @property
    def templates(self) -> int:
        """The first template and the table's extra ones (docs/rules.md §2.5)."""
        return 1 + self.row.extra_templates

    @property
    def reached(self) -> int:
        """The units under the templates: `units`, or `per_template` a template, at most the formation."""
        if self.war_engines:
            return self.centred
        if self.units is not None:
            return self.units
        assert self.formation is not None  # `check`: without --units or --war-engines, --formation is given
        return min(self.formation, (self.per_template or UNITS_PER_TEMPLATE) * self.templates)

    @property
    def row(self) -> BarrageRow:
        return barrage_row(self.bp)

    @property
    def hit_check(self) -> Check:
        to_hit = self.row.anti_tank if self.at or self.war_engines else self.row.anti_personnel  # war engines: AT
        return Check(self._need(to_hit), Natural.EPIC)

    @property
    def markers(self) -> BlastMarkers:
        return self._markers(self.row.extra_blast_markers)

    def _under(self) -> list[tuple[int, int, int]]:
        """(part, war engine, attacks) of each war engine under a template's centre, front to back: half its
        own damage capacity, rounded up (3.2.1); the --war-engines first, then each --engine profile."""
        formation = self.profiles
        engines = [(index, engine) for index, part in enumerate(formation.parts) for engine in range(part.count)]
        return [(index, engine, -(-formation.parts[index].capacity // 2)) for index, engine in engines[:self.centred]]

    def _mixed_sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        formation, kinds = self.profiles, self._part_kinds(self.weapon)
        states = formation.start(trials)
        hits = np.zeros(trials, dtype=np.int16)
        for index, engine, attacks in self._under():
            more = roll_pool(rng, hit_die(self.hit_check), attacks, trials).total("hits")
            formation.parts[index].strike(rng, states[index], more.astype(np.int64), kinds[index], standing=False,
                                          engine=engine)
            hits += more
        lost = np.zeros(trials, dtype=np.int16)
        if self.others_reached:
            pool = roll_pool(rng, barrage_die(self.other_check, self._other_saves(self.weapon)),
                             self.others_reached, trials)
            more, lost = np.divmod(pool.codes.astype(np.int16), pool.radices[0])
            hits = hits + more
        values = {**formation.tally(states), "hits": hits, "other_kills": lost}
        return pack(self._engine_outcomes(values, self.row.extra_blast_markers, 1), self.outcomes)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        if self.engine:
            return self._mixed_sample(rng, trials)
        if self.war_engines:
            engines = self.engines
            state = engines.start(trials)
            hits = np.zeros(trials, dtype=np.int16)  # as `Engines.tally`
            for engine in range(self.centred):
                more = roll_pool(rng, hit_die(self.hit_check), self.attacks_each, trials).total("hits")
                engines.strike(rng, state, more.astype(np.int64), self._hit_kind(self.saves, self.weapon),
                               standing=False, engine=engine)
                hits += more
            lost = np.zeros(trials, dtype=np.int16)
            if self.others_reached:  # each other unit under the templates: one roll, then its saves
                pool = roll_pool(rng, barrage_die(self.other_check, self._other_saves(self.weapon)),
                                 self.others_reached, trials)
                more, lost = np.divmod(pool.codes.astype(np.int16), pool.radices[0])  # kills + radix · hits
                hits = hits + more
            values = {**engines.tally(state), "hits": hits, "other_kills": lost}
            return pack(self._engine_outcomes(values, self.row.extra_blast_markers, 1), self.outcomes)
        pool = roll_pool(rng, barrage_die(self.hit_check, self.saves), self.reached, trials)
        kills_radix, hits_radix = pool.radices  # the pool's code is kills + kills_radix·hits
        return outcome_roll(self.markers, self.outcomes, pool.codes, kills_radix, hits_radix)

    def joint(self, number: NumberType = float) -> np.ndarray:
        """Return the exact joint pmf of (hits, kills) as a matrix joint[hits, kills]."""
        hit, saved = number(self.hit_check.chance()), number(self.saves.chance())
        units = self.reached
        hits = pmfs.binomial(units, hit)  # one roll per unit, never more (§2.5)
        rows = [weight * _padded(pmfs.binomial(h, 1 - saved), units + 1) for h, weight in enumerate(hits)]
        return np.array(rows, dtype=float if number is float else object)

    def mixed_joint(self, number: NumberType = float) -> np.ndarray:
        """joint[hits, kills + (W + 1) · fallen, damage, shields, other units killed] of a barrage at war engines
        of several profiles (exact): each under a template's centre attacked ⌈its DC / 2⌉ times."""
        formation, kinds = self.profiles, self._part_kinds(self.weapon)
        others = self.others_reached
        shields = sum(part.count * part.shields for part in formation.parts)
        cells = ((sum(attacks for _, _, attacks in self._under()) + others + 1) * (formation.count + 1) *
                 (formation.capacity + 1) ** 2 * (shields + 1) * (others + 1))
        self._check_exact(cells, (formation.count + others) * cells, 2e8, number)
        hit = number(self.hit_check.chance())
        under = {(index, engine): attacks for index, engine, attacks in self._under()}
        parts = []
        for index, part in enumerate(formation.parts):
            for engine in range(part.count):
                attacks, state, blocks = under.get((index, engine), 0), part.fresh(number), []
                for count, weight in enumerate(pmfs.binomial(attacks, hit)):
                    coded = formation.coded(index, state, number)
                    block = zeros((attacks + 1,) + coded.shape, number)
                    block[count] = weight * coded
                    blocks.append(block)
                    state = part.after(state, 1, kinds[index], number)
                parts.append(sum(blocks[1:], blocks[0])[..., None])
        if others:
            hit, saved = number(self.other_check.chance()), number(self._other_saves(self.weapon).chance())
            unit = zeros((2, 1, 1, 1, 2), number)
            unit[0, 0, 0, 0, 0], unit[1, 0, 0, 0, 0], unit[1, 0, 0, 0, 1] = 1 - hit, hit * saved, hit * (1 - saved)
            parts += [unit] * others
        return combine(parts, number)

    def engine_joint(self, number: NumberType = float) -> np.ndarray:
        """joint[hits, kills, damage, shields] of a barrage at war engines (exact): each war engine under a
        template's centre is attacked `attacks_each` times, the others not at all."""
        engines = self.engines
        others = self.others_reached
        cells = ((self.centred * self.attacks_each + others + 1) * (self.war_engines + 1) *
                 (self.war_engines * engines.capacity + 1) * (self.war_engines * engines.shields + 1) * (others + 1))
        self._check_exact(cells, (self.war_engines + others) * cells, 2e8, number)
        kind = self._hit_kind(self.saves, self.weapon)
        hits = pmfs.binomial(self.attacks_each, number(self.hit_check.chance()))
        state, one = engines.fresh(number), []
        for count, weight in enumerate(hits):
            block = engines.outcome(state, number)
            part = zeros((len(hits),) + block.shape, number)
            part[count] = block
            one.append(weight * part)
            state = engines.after(state, 1, kind, number)
        centred = sum(one[1:], one[0])[..., None]
        untouched = engines.outcome(engines.fresh(number), number)[None, ..., None]
        parts = [centred] * self.centred + [untouched] * (self.war_engines - self.centred)
        if self.others_reached:  # each other unit under the templates: missed, hit and saved, or destroyed
            hit, saved = number(self.other_check.chance()), number(self._other_saves(self.weapon).chance())
            unit = zeros((2, 1, 1, 1, 2), number)
            unit[0, 0, 0, 0, 0], unit[1, 0, 0, 0, 0], unit[1, 0, 0, 0, 1] = 1 - hit, hit * saved, hit * (1 - saved)
            parts += [unit] * self.others_reached
        return combine(parts, number)

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        if self.war_engines:
            joint = self.mixed_joint(number) if self.engine else self.engine_joint(number)
            return pmfs_of(joint, self.outcomes, lambda values: self._engine_outcomes(
                self._decoded(values), self.row.extra_blast_markers, 1), number)
        return self.markers.outcome_pmfs(self.joint(number))
