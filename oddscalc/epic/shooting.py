"""Epic Armageddon shooting (docs/rules.md §2.1–§2.4): volleys of shots at a formation, hits
allocated front to back and saved, blast markers, broken.

Beyond one weapon's shots (seed 002):
- **Suppression**: «За каждый «Бласт», полученный формацией, один юнит имеющий линию огня и
  находящийся на дистанции стрельбы не может стрелять» (each blast marker on the firing
  formation stops one of its units in range and line of fire from shooting). `firing_units`
  share every volley equally; `suppressed` of them do not shoot.
- **Macro-weapons beside normal weapons**: «оппонент должен распределить и откинуть
  спас-броски сначала за обычное оружие, а затем ... за MW» (normal hits are allocated and
  saved first, then the macro-weapon hits, onto the units still there).
- **AP and AT fire at a mixed formation**: «Противопехотное АР оружие поражает только
  пехоту, противотанковое АТ только технику» (AP hits only infantry, AT hits only
  vehicles): each is allocated front to back over its own units.

`EpicShoot` declares every option and resolves the fire at units and at a mixed formation's
vehicles; its volleys are read in `volleys.py` (`_Volleys`), its fire at war engines is resolved
in `engine_fire.py` (`AtWarEngines`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from dataclasses import replace
from functools import cached_property

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
    from ..core.pool import PoolRoll
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.attack import option
from ..errors import InputError, require
from ..output.style import plural
from .engine_fire import AtWarEngines
from .joints import pmfs_of
from .saves import Ability, BlastMarkers, SavePlan, allocate_kills, failed_die, outcome_roll, save_plan
from .defences import NOT_GIVEN
from .plain import PLAIN_CELLS, plain_pmfs
from .target import MAX_UNITS
from .volleys import Volley, matrix_of, allocated, roll_hits
from .war_engines import Front, Reach, TkAllocation

DIRECT = 2e7  # products up to which a joint is convolved term by term (exact to the last bit); above: FFT
FFT_NOISE = 1e-16  # an FFT convolution's rounding (about 1e-17 here): chances below this are set to 0


def convolve2d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The joint pmf of (x + x', y + y') for independent joints a[x, y] and b[x', y']."""
    shape = (a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1)
    if np.count_nonzero(b) < np.count_nonzero(a):
        a, b = b, a  # loop over the sparser
    floats = a.dtype != object and b.dtype != object
    if floats and np.count_nonzero(a) * b.size > DIRECT:
        product = np.fft.irfft2(np.fft.rfft2(a, shape) * np.fft.rfft2(b, shape), shape)
        product[product < FFT_NOISE] = 0.0
        return product
    result = np.zeros(shape) if floats else np.array([[0 * b.flat[0]] * shape[1] for _ in range(shape[0])],
                                                     dtype=object)
    for i, j in zip(*np.nonzero(a)):
        result[i:i + b.shape[0], j:j + b.shape[1]] += a[i, j] * b
    return result



@record(kw_only=True, init=False)
class EpicShoot(AtWarEngines):
    """Shoot at an Epic formation: to hit, saves, hits front to back, blast markers, broken.

    Each shot hits on its to-hit value minus the modifier (a natural 1 misses; needing 7,
    8 or 9 means a 6 then 4+, 5+ or 6; 10+ cannot hit). Hits go front to back: hit j falls
    on unit j mod U, and a unit that fails any save dies. Saves: armour, or the cover save
    when better; crossfire and sniper -1 each (past 6+ is impossible); reinforced armour
    re-rolls; an invulnerable 6+ last. Macro-weapons allow only reinforced armour (no
    re-roll) and negate cover saves; titan killers allow no armour or cover save; lances
    stop the re-roll. Blast markers after the attack: existing + 1 for coming under fire
    + 1 per kill (per hit with disrupt) + 1 for the first kill under crossfire. Broken:
    blast markers >= units left (§2.1-§2.4).

    More weapons fire as volleys (N@X+), macro-weapon hits after the normal ones onto the
    units left (--mw-shots, N@MW X+), AT fire only at the --vehicles of a mixed formation
    while the other fire hits only its --units (--at-shots, N@AT X+); --suppressed of the
    --firing-units do not shoot (§2.3, §2.4).

    Outcomes: kills, hits, blast_markers, broken; with `war_engines`: kills, damage (points of
    damage done), shields (void shields taken down), hits, blast_markers, broken; with
    `other_armour`: kills (every unit destroyed), engine_kills (the war engines), other_kills
    (the other units), damage, shields, hits, blast_markers, broken.
    """

    shots: int = option("Shots fired at the formation (1 to 200; 0 when other volleys fire).")
    to_hit: int = option("The weapon's to-hit value, 2+ to 6+ (AP, AT or MW).", roll=True)
    units: int | None = option("Units the attack can reach (1 to 100). With --war-engines: the formation's other "
                               "units (0 to 100, default 0), which count toward breaking.", None, metavar="U",
                               first=True)
    mw_shots: int = option("Macro-weapon shots beside the normal ones: their hits are allocated and saved after "
                           "the normal hits, onto the units left (§2.3).", 0, metavar="N")
    mw_to_hit: int | None = option("The macro-weapon shots' to-hit value, 2+ to 6+.", None, roll=True)
    vehicles: int = option("A mixed formation: its armoured vehicles (the --units are its infantry). AP fire hits "
                           "only infantry, AT fire only vehicles (§2.3).", 0, metavar="V")
    vehicle_armour: int | None = option("The vehicles' armour save, 2+ to 6+, or none (needed with --vehicles).",
                                        NOT_GIVEN, roll=True, none=True)
    vehicle_reinforced: bool = option("The vehicles have reinforced armour.", False)
    at_shots: int = option("AT shots at the vehicles of a mixed formation (needs --vehicles).", 0, metavar="N")
    at_to_hit: int | None = option("The AT shots' to-hit value, 2+ to 6+.", None, roll=True)
    volley: tuple[Volley, ...] = option("More weapons firing in the same attack: N@X+ (normal), N@MW X+ "
                                         "(macro-weapon) or N@AT X+ (AT at --vehicles); repeat for each.", (),
                                         metavar="N@X+", many=Volley.parse)
    firing_units: int | None = option("Units of the firing formation in range and line of fire; every volley's "
                                      "shots are shared equally among them.", None, metavar="F")
    suppressed: int = option("Blast markers on the firing formation: each stops one of the --firing-units from "
                             "shooting (rear units first, §2.4).", 0, metavar="K")
    reach: Reach | None = option("With --war-engines and --other-armour: which units the fire can hurt (§2.8): "
                                 "engines (AT fire at war engines and infantry), others (AP fire: only the other "
                                 "units) or both (front to back over both); default both when --other-armour is "
                                 "given, else engines.", None)
    front: Front = option("With --reach both: which stand in front, engines or others. Hits go front to back, each "
                          "war engine taking its damage capacity in hits, each other unit one, round after round.",
                          Front.ENGINES)
    tk_allocation: TkAllocation = option("How a titan killer's hit counts when hits are allocated over --war-engines "
                                         "(§2.8): hit (one hit whatever its D-value rolls, the rulebook) or damage "
                                         "(its rolled points are that many hits, the NetEA pack).", TkAllocation.HIT)

    COMMAND = "epic shoot"
    events = ("broken",)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """kills, hits, blast markers, broken; at war engines also the damage done and shields taken down. When the
        fire reaches a war-engine formation's other units, kills are every unit destroyed, engine_kills the war
        engines and other_kills the other units."""
        if self.war_engines:
            others = ("engine_kills", "other_kills") if self.reaches is not Reach.ENGINES else ()
            return ("kills", *others, "damage", "shields", "hits", "blast_markers", "broken")
        return ("kills", "hits", "blast_markers", "broken")

    def describe(self) -> str:
        fire = ", ".join(f"{plural(v.shots, 'shot')} at {'MW ' if v.macro else 'AT ' if v.anti_tank else ''}"
                         f"{v.to_hit}+" for v in self.fire) or "no shots"
        if self.war_engines:
            others = f" (and {plural(self.units, 'other unit')})" if self.units else ""
            if self.reaches is not Reach.ENGINES:
                others = f" and {plural(self.units, 'other unit')} ({self._others_armour()})"
                others += {Reach.OTHERS: ", the fire reaching only the other units",
                           Reach.BOTH: f", {self.front.value} in front"}[self.reaches]
            points = ", each TK point allocated as a hit" if self.tk_allocation is TkAllocation.DAMAGE else ""
            return (f"Epic shooting: {fire} on {plural(self.engine_count, 'war engine')}{others}, {self._defence()}"
                    f"{points}")
        target = plural(self.units, "unit") + (f" and {plural(self.vehicles, 'vehicle')} (armour "
                                                f"{'none' if self.vehicle_armour is None else f'{self.vehicle_armour}+'}"
                                                f"{', reinforced' if self.vehicle_reinforced else ''})"
                                                if self.vehicles else "")
        firing = ""
        if self.suppressed and self.firing_units is not None:  # suppression needs firing units (`_check_firing`)
            # each marker silences one firing unit; past them, markers silence no more (§2.4)
            silent = (f"all {self.firing_units} firing units" if self.suppressed >= self.firing_units else
                      f"{self.suppressed} of {self.firing_units} firing units")
            firing = f", {silent} suppressed" + (f" ({plural(self.suppressed, 'blast marker')})"
                                                 if self.suppressed > self.firing_units else "")
        return f"Epic shooting: {fire} on {target}, {self._defence()}{firing}"

    def check(self) -> None:
        if self.units is None:
            require(bool(self.war_engines), "units", None, f"is required: the units the attack can reach, 1 to "
                                                            f"{MAX_UNITS} (or --war-engines W)")
            object.__setattr__(self, "units", 0)
        super().check()
        self._check_fire()
        self._check_vehicles()
        self._check_firing()
        self._check_engine_fire()

    def _check_vehicles(self) -> None:
        """A mixed formation's vehicles (§2.3): their armour, and the AT fire that only they take."""
        require(0 <= self.vehicles <= MAX_UNITS, "vehicles", self.vehicles, f"expected 0 to {MAX_UNITS} vehicles")
        require(self.vehicle_armour in (None, NOT_GIVEN) or 2 <= self.vehicle_armour <= 6, "vehicle_armour",
                self.vehicle_armour, "expected an armour save from 2+ to 6+, or none")
        if not self.vehicles:
            require(self.vehicle_armour == NOT_GIVEN, "vehicle_armour", self.vehicle_armour or "none",
                    "only applies with --vehicles V")
            require(not self.vehicle_reinforced, "vehicle_reinforced", True, "only applies with --vehicles V")
        else:
            require(self.vehicle_armour != NOT_GIVEN, "vehicle_armour", "(not given)",
                    "a mixed formation's vehicles need their armour save with --vehicles: 2+ to 6+, or none")
        require(not any(v.anti_tank for v in self.fire) or bool(self.vehicles), "at_shots", self.at_shots,
                "AT fire at a mixed formation needs its vehicles: --vehicles V")
        require(not self.vehicle_reinforced or self.vehicle_armour is not None, "vehicle_armour", "none",
                "reinforced armour needs an armour value, 2+ to 6+")
        macro = any(v.macro for v in self.fire)
        split = ("hits after a split AP/AT attack depend on where each unit stands (§2.3): give them as a separate "
                 "query")
        if self.vehicles and self.weapon in (Ability.MACRO, Ability.TITAN_KILLER):
            raise InputError("weapon", self.weapon.value, f"{self.weapon.value} {split}")
        require(not (macro and self.vehicles), "mw_shots", self.mw_shots or "a macro volley", f"macro-weapon {split}")

    @property
    def reached(self) -> int:
        return self.unit_count + self.vehicles

    @cached_property
    def vehicle_saves(self) -> SavePlan:
        """The vehicles' saves: their armour (no infantry cover save), the weapon's ability."""
        return save_plan(self.vehicle_armour, None, self.weapon, self.vehicle_reinforced, False, self.worse_saves,
                         self.ignore_cover, self.sniper)

    @property
    def markers(self) -> BlastMarkers:
        return replace(self._markers(), under_fire=any(v.shots for v in self.fired))

    # --- sampled ---------------------------------------------------------------------------

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        if self.war_engines:
            return self._engine_sample(rng, trials)
        normal, macro, anti_tank = (self._pools(kind) for kind in ("normal", "macro", "anti_tank"))
        hits = roll_hits(rng, normal, trials)
        kills = allocate_kills(rng, failed_die(self.normal_saves), hits, sum(s for s, _ in normal), self.unit_count)
        if macro:  # §2.3: then the macro-weapon hits, front to back over the units left
            more = roll_hits(rng, macro, trials)
            left = self.unit_count - kills
            for units in np.unique(left[left > 0]):
                where = np.flatnonzero(left == units)
                kills[where] += allocate_kills(rng, failed_die(self.macro_saves), more[where],
                                               sum(s for s, _ in macro), int(units))
            hits = hits + more
        if self.vehicles:  # §2.3: AT hits only on the vehicles
            more = roll_hits(rng, anti_tank, trials)
            kills = kills + allocate_kills(rng, failed_die(self.vehicle_saves), more, sum(s for s, _ in anti_tank),
                                           self.vehicles)
            hits = hits + more
        shots = sum(v.shots for v in self.fired)
        return outcome_roll(self.markers, self.outcomes, hits * (self.reached + 1) + kills, self.reached + 1,
                            shots + 1)

    # --- exact ------------------------------------------------------------------------------

    def joint(self, number: NumberType = float) -> np.ndarray:
        """Return the exact joint pmf of (hits, kills) as a matrix joint[hits, kills]."""
        normal, macro, anti_tank = (self._pools(kind) for kind in ("normal", "macro", "anti_tank"))
        joint = allocated(normal, self.unit_count, self.normal_saves, number)
        if macro:  # §2.3: the macro-weapon hits fall on the units the normal hits left
            after = []
            for kills in range(self.unit_count + 1):
                block = allocated(macro, self.unit_count - kills, self.macro_saves, number)
                after.append(convolve2d(joint[:, kills:kills + 1], block))
            width = max(kills + part.shape[1] for kills, part in enumerate(after))
            total = matrix_of([pmfs.zeros(width, number(0))] * max(part.shape[0] for part in after), width, number)
            for kills, part in enumerate(after):
                total[:part.shape[0], kills:kills + part.shape[1]] += part
            joint = total
        if self.vehicles:
            joint = convolve2d(joint, allocated(anti_tank, self.vehicles, self.vehicle_saves, number))
        return joint

    def pmfs(self, number: NumberType) -> Mapping[str, np.ndarray | tuple[Any, ...]]:
        if self.war_engines:
            under_fire = int(any(v.shots for v in self.fired))
            joint = self.mixed_joint(number) if self.engine else self.engine_joint(number)
            return pmfs_of(joint, self.outcomes,
                           lambda values: self._engine_outcomes(self._decoded(values), 0, under_fire), number)
        normal = self._pools("normal")
        cells = (sum(shots for shots, _ in normal) + 1) * (self.unit_count + 1)
        if not self._pools("macro") and not self.vehicles and (number is not float or cells <= PLAIN_CELLS):
            return plain_pmfs(normal, self.unit_count, number(self.normal_saves.chance()), self.markers, number)
        return self.markers.outcome_pmfs(self.joint(number))
