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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Sequence

import numpy as np

from .. import pmf as pmfs
from ..attack import option
from ..dice import Check, Natural
from ..errors import InputError, choose, require
from ..pool import PoolRoll, roll_pool
from ..style import plural
from .attacks import MAX_BLAST_MARKERS, MAX_SHOTS, MAX_UNITS, NOT_GIVEN, _OnFormation, hit_die
from .saves import Ability, BlastMarkers, SavePlan, allocate_kills, failed_die, kills_given_hits, outcome_roll, save_plan
from .war_engines import Engines, Front, HitKind, Reach, TkAllocation, TkSave, combine, pack, pmfs_of

MAX_MIXED_ENGINES = 6  # war engines that normal then macro-weapon hits can be followed over, exactly

_VOLLEY = re.compile(r"^\s*(\d{1,3})\s*@\s*(MW|AT|AP)?\s*([2-6])\s*\+?\s*$", re.IGNORECASE)
VOLLEY_ALLOWED = "expected N@X+ (normal), N@MW X+ (macro-weapon) or N@AT X+ (AT fire at --vehicles), like 4@3+"


@dataclass(frozen=True)
class Volley:
    """Shots of one weapon value: normal (AP, or the weapon's one value), macro-weapon, or AT
    fire at the vehicles of a mixed formation."""

    shots: int
    to_hit: int
    macro: bool = False
    anti_tank: bool = False

    @classmethod
    def parse(cls, text: str, name: str = "volley") -> Volley:
        """Read `4@3+`, `2@MW2+` or `3@AT5+`."""
        match = _VOLLEY.match(str(text))
        require(match is not None, name, text, VOLLEY_ALLOWED)
        kind = (match.group(2) or "").upper()
        shots = int(match.group(1))
        require(1 <= shots <= MAX_SHOTS, name, text, f"expected 1 to {MAX_SHOTS} shots in a volley")
        return cls(shots, int(match.group(3)), kind == "MW", kind == "AT")

    def __str__(self) -> str:
        return f"{self.shots}@{'MW' if self.macro else 'AT' if self.anti_tank else ''}{self.to_hit}+"


def _check_shots(value: int, name: str, low: int = 0) -> None:
    require(isinstance(value, int) and low <= value <= MAX_SHOTS, name, value, f"expected {low} to {MAX_SHOTS} shots")


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


def roll_hits(rng: np.random.Generator, pools: Sequence[tuple[int, Check]], trials: int) -> np.ndarray:
    """Each trial's hits of (dice, check) pools, every die rolled (an assault's attacks too)."""
    hits = np.zeros(trials, dtype=np.int64)
    for shots, check in pools:
        hits += roll_pool(rng, hit_die(check), shots, trials).total("hits").astype(np.int64)
    return hits


def hits_pmf(pools: Sequence[tuple[int, Check]], number) -> np.ndarray:
    """The exact pmf of the hits of (dice, check) pools: their binomials convolved."""
    hits = pmfs.point(0, number(0))
    for shots, check in pools:
        hits = pmfs.convolve(hits, pmfs.binomial(shots, number(check.chance())))
    return hits


def allocated(pools: Sequence[tuple[int, Check]], units: int, saves: SavePlan, number) -> np.ndarray:
    """joint[hits, kills] of pools of dice allocated front to back over `units` identical units (§2.3)."""
    hits, saved = hits_pmf(pools, number), number(saves.chance())
    return _matrix([weight * (kills_given_hits(h, units, saved) if units else pmfs.point(0, weight))
                    for h, weight in enumerate(hits)], units + 1, number)


def _matrix(rows: list[np.ndarray], width: int, number) -> np.ndarray:
    """Stack pmfs of different lengths into a matrix `width` wide (zeros after each)."""
    matrix = np.zeros((len(rows), width)) if number is float else np.array(
        [[number(0)] * width for _ in rows], dtype=object)
    for i, row in enumerate(rows):
        matrix[i, :len(row)] = row
    return matrix


@dataclass(frozen=True, kw_only=True)
class EpicShoot(_OnFormation):
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
        if self.suppressed:  # each marker silences one firing unit; past them, markers silence no more (§2.4)
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
        _check_shots(self.shots, "shots")
        require(2 <= self.to_hit <= 6, "to_hit", self.to_hit, "expected the weapon's to-hit value, 2+ to 6+")
        for shots, to_hit, spelled in (("mw_shots", "mw_to_hit", "--mw-shots"), ("at_shots", "at_to_hit",
                                                                                    "--at-shots")):
            _check_shots(getattr(self, shots), shots)
            value = getattr(self, to_hit)
            if getattr(self, shots):
                require(value is not None and 2 <= value <= 6, to_hit, value, "expected a to-hit value, 2+ to 6+")
            else:
                require(value is None, to_hit, value, f"only applies with {spelled} N")
        require(any(v.shots for v in self.fire), "shots", self.shots,
                f"expected 1 to {MAX_SHOTS} shots (0 only beside --mw-shots, --at-shots or --volley)")
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
        require(not any(v.anti_tank for v in self.fire) or self.vehicles, "at_shots", self.at_shots,
                "AT fire at a mixed formation needs its vehicles: --vehicles V")
        require(not self.vehicle_reinforced or self.vehicle_armour is not None, "vehicle_armour", "none",
                "reinforced armour needs an armour value, 2+ to 6+")
        macro = any(v.macro for v in self.fire)
        split = ("hits after a split AP/AT attack depend on where each unit stands (§2.3): give them as a separate "
                 "query")
        if self.vehicles and self.weapon in (Ability.MACRO, Ability.TITAN_KILLER):
            raise InputError("weapon", self.weapon.value, f"{self.weapon.value} {split}")
        require(not (macro and self.vehicles), "mw_shots", self.mw_shots or "a macro volley", f"macro-weapon {split}")
        self._check_firing()
        choose(self, "tk_allocation", TkAllocation)
        require(self.tk_allocation is TkAllocation.HIT or (self.war_engines and self.weapon is Ability.TITAN_KILLER),
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
        require(self.war_engines or self.reach is None, "reach", self.reach, "only applies with --war-engines W")
        require(self.front is Front.ENGINES or self.reaches is Reach.BOTH, "front", self.front,
                "only applies with --reach both (the fire reaches the war engines and the other units)")
        if self.reaches is Reach.ENGINES:
            require(not given, "other_armour", self.other_armour or "none",
                    "only applies when the fire reaches the other units: --reach others or both")
            return
        require(given, "reach", self.reaches, "needs the other units' armour save: --other-armour A+ (or none)")
        require(self.units > 0, "reach", self.reaches, "needs the formation's other units: --units U")
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

    def _check_firing(self) -> None:
        """Suppression: the firing units share every volley equally (§2.4)."""
        require(0 <= self.suppressed <= MAX_BLAST_MARKERS, "suppressed", self.suppressed,
                f"expected 0 to {MAX_BLAST_MARKERS} blast markers on the firing formation")
        if self.firing_units is None:
            require(not self.suppressed, "suppressed", self.suppressed,
                    "needs --firing-units F: the firing formation's units in range and line of fire")
            return
        require(1 <= self.firing_units <= MAX_UNITS, "firing_units", self.firing_units,
                f"expected 1 to {MAX_UNITS} firing units")
        for volley in self.fire:
            require(volley.shots % self.firing_units == 0, "firing_units", self.firing_units,
                    f"{plural(volley.shots, 'shot')} ({volley}) cannot be shared equally by {self.firing_units} "
                    "units; give each weapon's shots so that every unit fires the same")

    # --- the fire ---------------------------------------------------------------------------

    @property
    def fire(self) -> list[Volley]:
        """Every volley of the attack, before suppression: --shots, --mw-shots, --at-shots, then --volley."""
        named = [Volley(self.shots, self.to_hit, macro=self.weapon is Ability.MACRO),  # --weapon is the --shots'
                 Volley(self.mw_shots, self.mw_to_hit or 0, macro=True),
                 Volley(self.at_shots, self.at_to_hit or 0, anti_tank=True)]
        return [volley for volley in named if volley.shots] + list(self.volley)

    @property
    def fired(self) -> list[Volley]:
        """The volleys fired: the suppressed units' share of every volley does not shoot (§2.4)."""
        if not self.suppressed:
            return self.fire
        shooting = max(self.firing_units - self.suppressed, 0)
        return [replace(v, shots=v.shots * shooting // self.firing_units) for v in self.fire]

    @property
    def reached(self) -> int:
        return self.units + self.vehicles

    @property
    def hit_check(self) -> Check:
        """The check of the --shots (the first volley)."""
        return self._check(self.to_hit)

    def _check(self, to_hit: int) -> Check:
        return Check(self._need(to_hit), Natural.EPIC)  # natural 1 misses; 7+ chains; 10+ never

    def _pools(self, kind: str) -> list[tuple[int, Check]]:
        """(shots, check) of the fired volleys of one kind: normal, macro or anti_tank."""
        chosen = {"normal": lambda v: not v.macro and not v.anti_tank, "macro": lambda v: v.macro,
                  "anti_tank": lambda v: v.anti_tank}[kind]
        return [(v.shots, self._check(v.to_hit)) for v in self.fired if chosen(v) and v.shots]

    @cached_property
    def normal_saves(self) -> SavePlan:
        """The saves of the normal hits: the weapon's, unless --weapon macro made only the --shots macro hits."""
        if self.weapon is Ability.MACRO:
            return save_plan(self.armour, self.cover_save, Ability.NORMAL, self.reinforced, self.invulnerable,
                             self.worse_saves, self.ignore_cover, self.sniper)
        return self.saves

    @cached_property
    def macro_saves(self) -> SavePlan:
        return save_plan(self.armour, self.cover_save, Ability.MACRO, self.reinforced, self.invulnerable,
                         self.worse_saves, self.ignore_cover, self.sniper)

    @cached_property
    def vehicle_saves(self) -> SavePlan:
        """The vehicles' saves: their armour (no infantry cover save), the weapon's ability."""
        return save_plan(self.vehicle_armour, None, self.weapon, self.vehicle_reinforced, False, self.worse_saves,
                         self.ignore_cover, self.sniper)

    @property
    def markers(self) -> BlastMarkers:
        return replace(self._markers(), under_fire=any(v.shots for v in self.fired))

    # --- sampled ---------------------------------------------------------------------------

    # --- war engines (§2.8) -----------------------------------------------------------------

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
        formation, kinds = self.mixed, self._batch_kinds()
        states = formation.start(trials)
        pools, kind = self._one_batch()
        hits = roll_hits(rng, pools, trials)
        if pools:
            if self._by_points(kind):  # each hit's rolled points are allocated as hits of their own
                formation.strike(rng, states, _points(rng, kind.titan_killer, hits), [k.point() for k in kinds])
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

    def mixed_joint(self, number=float) -> np.ndarray:
        """joint[hits, kills + (W + 1) · fallen, damage, shields, 0] of an attack on war engines of several
        profiles (exact): each war engine's hits, allocated front to back, resolved on its own saves."""
        formation, kinds = self.mixed, self._batch_kinds()
        pools, kind = self._one_batch()
        before = hits_pmf(pools, number)
        codes = (formation.count + 1) * (formation.capacity + 1)
        shields = sum(part.count * part.shields for part in formation.parts)
        block = codes * (formation.capacity + 1) * (shields + 1)
        most = kind.titan_killer.highest if self._by_points(kind) else 1
        self._check_exact(len(before) * block, len(before) * most * block * formation.count, 1e8, number)
        joint = _zeros4((len(before), codes, formation.capacity + 1, shields + 1, 1), number)
        by_points = self._by_points(kind)
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
            mine, theirs = engines.beside(more, self.units, self.reaches, self.front)
            if self._by_points(kind):  # each hit's rolled points are allocated as hits of their own
                engines.strike(rng, state, _points(rng, kind.titan_killer, mine), kind.point(), standing=index > 0)
            else:
                engines.strike(rng, state, mine, kind, standing=index > 0)
            if self.reaches is not Reach.ENGINES:  # one batch only (§2.8): the other units' hits, front to back
                lost += allocate_kills(rng, failed_die(self.other_saves), theirs, sum(s for s, _ in pools), self.units)
            hits += more
        values = {**engines.tally(state), "hits": hits, "other_kills": lost}
        return pack(self._engine_outcomes(values, 0, int(any(v.shots for v in self.fired))), self.outcomes)

    def engine_joint(self, number=float) -> np.ndarray:
        """joint[hits, kills, damage, shields, other units killed] of an attack on war engines (exact)."""
        engines = self.engines
        (normal, first), (macro, second) = (self._batches() + [([], None)])[:2]
        before = hits_pmf(normal, number)
        after = hits_pmf(macro, number)
        top, shields, count = engines.capacity, engines.shields, engines.count
        others = self.units if self.reaches is not Reach.ENGINES else 0
        block = (count + 1) * (count * top + 1) * (count * shields + 1) * (others + 1)
        most = first.titan_killer.highest if self._by_points(first) else 1  # points a hit can be allocated as
        steps = len(before) * (1 + (len(before) * most) // 2 if most > 1 else 1)
        if len(after) > 1:  # macro-weapon hits after: every way the war engines stand, every number of them
            steps *= 2 ** count * len(after)
        self._check_exact((len(before) + len(after) - 1) * block, steps * block * count,
                          1e9 if len(after) > 1 else 1e8, number)
        joint = _zeros4((len(before) + len(after) - 1, count + 1, count * top + 1, count * shields + 1, others + 1),
                        number)
        fresh = engines.fresh(number)
        states = _Progress(engines, fresh, first.point() if self._by_points(first) else first, number)
        saved = number(self.other_saves.chance()) if others else None
        for h1, slots, w1 in self._slots(before, first, number):
            mine, theirs = (int(n) for n in engines.beside(slots, others, self.reaches, self.front))
            own = [states.at(n) for n in engines.allocation(mine)]
            if len(after) == 1:  # no macro-weapon hits
                block = combine([engines.outcome(state, number) for state in own], number)
                lost = kills_given_hits(theirs, others, saved) if others else pmfs.point(0, number(1))
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

    def _by_points(self, kind: HitKind) -> bool:
        """Whether a titan killer's rolled points are allocated as hits of their own (--tk-allocation damage)."""
        return kind.titan_killer is not None and self.tk_allocation is TkAllocation.DAMAGE

    def _slots(self, hits: np.ndarray, kind: HitKind, number):
        """(hits, hits allocated, chance) of the hits of one kind: each hit, or with --tk-allocation damage each
        point that the hits' D-values roll."""
        if not self._by_points(kind):
            yield from ((h, h, weight) for h, weight in enumerate(hits) if weight)
            return
        each, points = kind.titan_killer.pmf(number), pmfs.point(0, number(1))
        for h, weight in enumerate(hits):
            if weight:
                yield from ((h, n, weight * chance) for n, chance in enumerate(points) if chance)
            points = pmfs.convolve(points, each)

    def sample(self, rng: np.random.Generator, trials: int) -> PoolRoll:
        if self.war_engines:
            return self._engine_sample(rng, trials)
        normal, macro, anti_tank = (self._pools(kind) for kind in ("normal", "macro", "anti_tank"))
        hits = roll_hits(rng, normal, trials)
        kills = allocate_kills(rng, failed_die(self.normal_saves), hits, sum(s for s, _ in normal), self.units)
        if macro:  # §2.3: then the macro-weapon hits, front to back over the units left
            more = roll_hits(rng, macro, trials)
            left = self.units - kills
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

    def joint(self, number=float) -> np.ndarray:
        """Return the exact joint pmf of (hits, kills) as a matrix joint[hits, kills]."""
        normal, macro, anti_tank = (self._pools(kind) for kind in ("normal", "macro", "anti_tank"))
        joint = allocated(normal, self.units, self.normal_saves, number)
        if macro:  # §2.3: the macro-weapon hits fall on the units the normal hits left
            after = []
            for kills in range(self.units + 1):
                block = allocated(macro, self.units - kills, self.macro_saves, number)
                after.append(convolve2d(joint[:, kills:kills + 1], block))
            width = max(kills + part.shape[1] for kills, part in enumerate(after))
            total = _matrix([pmfs.zeros(width, number(0))] * max(part.shape[0] for part in after), width, number)
            for kills, part in enumerate(after):
                total[:part.shape[0], kills:kills + part.shape[1]] += part
            joint = total
        if self.vehicles:
            joint = convolve2d(joint, allocated(anti_tank, self.vehicles, self.vehicle_saves, number))
        return joint

    def pmfs(self, number) -> dict[str, np.ndarray]:
        if self.war_engines:
            under_fire = int(any(v.shots for v in self.fired))
            joint = self.mixed_joint(number) if self.engine else self.engine_joint(number)
            return pmfs_of(joint, self.outcomes,
                           lambda values: self._engine_outcomes(self._decoded(values), 0, under_fire), number)
        return self.markers.outcome_pmfs(self.joint(number))


class _Progress:
    """One war engine's distributions after 0, 1, 2 ... more hits of one kind (computed as needed)."""

    def __init__(self, engines: Engines, start: np.ndarray, kind: HitKind, number) -> None:
        self.engines, self.kind, self.number = engines, kind, number
        self.states = [start]

    def at(self, hits: int) -> np.ndarray:
        while len(self.states) <= hits:
            self.states.append(self.engines.after(self.states[-1], 1, self.kind, self.number))
        return self.states[hits]


def _points(rng: np.random.Generator, damage, hits: np.ndarray) -> np.ndarray:
    """Each trial's points of damage: its hits' D-values rolled and added up."""
    total = np.zeros(len(hits), dtype=np.int64)
    for j in range(int(hits.max(initial=0))):
        rows = np.flatnonzero(hits > j)
        total[rows] += damage.sample(rng, rows.size)
    return total


def _standing(states: list[np.ndarray], top: int, number):
    """Every way the war engines can stand after the normal hits: (weight, [(state, standing)]), each state
    conditioned on standing or not (its damage below the capacity, or at it)."""
    from itertools import product

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


def _zeros4(shape, number) -> np.ndarray:
    return np.zeros(shape) if number is float else np.full(shape, Fraction(0), dtype=object)
