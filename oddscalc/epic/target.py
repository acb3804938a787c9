"""The target of an Epic attack (docs/rules.md §2): what every attack on a formation shares, its
saves and blast markers, the weapon's special abilities, and its war engines (§2.8) with the other
units beside them. Shooting (`shooting.py`) and barrages (`attacks.py`) build on `OnFormation`;
saves, hit allocation and blast markers live in `saves.py`.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from functools import cached_property

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core.attack import Attack, option, side
from ..core.sided import Sided
from ..core.dice import EXACT_SECONDS, DiceExpression
from ..errors import choose, require
from ..output.style import plural
from .defences import NOT_GIVEN, Covered
from .engine_profiles import EngineProfile, Formation
from .saves import Ability, BlastMarkers, SavePlan, save_plan
from .war_engines import Critical, Engines, HitKind, TkSave, tk_damage

MAX_SHOTS = 200
MAX_UNITS = 100
MAX_MODIFIER = 6
MAX_WAR_ENGINES = 20
MAX_CAPACITY = 20
MAX_JOINT_GIB = 1.0  # an exact war-engine joint larger than this is refused: sample instead
JOINT_RATIONAL_BYTES = 100  # about, per cell of a joint of Fractions
RATIONAL_SLOWDOWN = 50  # exact rationals against floats, about


# --- the parts every attack on a formation shares ---------------------------------------


@record(kw_only=True, init=False)
class OnFormation(Sided, Attack):
    """A target formation's saves and blast markers, and the weapon's special abilities.

    `units` are the units the attack can reach (all of the formation's units unless
    `formation` says it is bigger; `reached` is that number). `target` is what the formation saves with and
    carries, the parts an assault's sides share (`defences.py:Covered`: armour, cover save, reinforced,
    invulnerable, blast markers, critical hits), its options unprefixed (`--armour`) and read as attributes.
    `modifier` is the sum of to-hit modifiers (+1 makes hitting easier). `in_cover` adds
    the −1 to hit for a target in cover that `ignore_cover` cancels; with it, leave the
    cover −1 out of `modifier`. `ignore_cover` also negates cover saves. `sniper` is
    −1 to armour and cover saves (docs/rules.md §2.2), like crossfire but without its marker.
    """

    units: int | None = option("Units the attack can reach (1 to 100).", metavar="U")
    target: Covered = side("", "The target formation", required=("armour",))
    modifier: int = option("Sum of to-hit modifiers: -1 cover, -1 double or marshal, +1 sustained fire (or "
                           "indirect barrage). +1 makes hitting easier.", 0, metavar="M")
    weapon: Ability = option("normal, macro (macro-weapon), titan-killer or lance.", Ability.NORMAL)
    crossfire: bool = option("Crossfire: -1 to armour and cover saves (not to hit, not to the invulnerable save); "
                             "the first kill gives 2 blast markers.", False)
    disrupt: bool = option("Disrupt: 1 blast marker per hit instead of per kill.", False)
    ignore_cover: bool = option("Ignore cover: no cover saves, and cancels --in-cover's -1 to hit (it cannot see "
                                "a cover -1 counted in --modifier).", False)
    in_cover: bool = option("The target is in cover: -1 to hit, applied here so that --ignore-cover can cancel it "
                            "(then leave the cover -1 out of --modifier).", False)
    sniper: bool = option("Sniper: -1 to armour and cover saves (adds up with --crossfire; not the invulnerable "
                          "save).", False)
    thick_rear_armour: bool = option("Thick rear armour: crossfire's -1 to saves does not apply (its second "
                                     "blast marker does).", False)
    formation: int | None = option("The formation's size when it is bigger than the units the attack reaches "
                                   "(default: those).", None, metavar="F")
    war_engines: int = option("War engines of the target formation, the attack's target (1 to 20; §2.8): hits go "
                              "in blocks of their damage capacity; --units are then the formation's other units, "
                              "which count toward breaking.", 0, metavar="W")
    damage_capacity: int | None = option("Each war engine's damage capacity, 1 to 20 (needs --war-engines).", None,
                                         metavar="DC")
    shields: int = option("Each war engine's void shields (or power fields), 0 to 20: each stops one hit, with no "
                          "save, and stays down.", 0, metavar="S")
    other_armour: int | None = option("A formation of war engines and other units: the other units' armour save, 2+ "
                                      "to 6+, or none. Given, the attack reaches them too (§2.8).", NOT_GIVEN,
                                      roll=True, none=True)
    other_reinforced: bool = option("The other units of a formation with war engines have reinforced armour.", False)
    tk_damage: DiceExpression | str | int | None = option("A titan killer's D-value against a war engine: points "
                                                          "of damage per hit (d3, d6, d3+1; default 1; needs "
                                                          "--weapon titan-killer).", None, metavar="D",
                                                          reader=lambda text: tk_damage(text, "tk_damage"))
    engine: tuple[EngineProfile, ...] = option(
        "War engines of another profile in the same formation, behind the --war-engines (§2.8): N DC<d> [armour "
        "A+|none] [shields S] [critical C] [reinforced] [invulnerable] [thick-rear-armour]; repeat for each "
        "profile.", (), metavar="PROFILE", many=EngineProfile.parse)
    tk_save: TkSave = option("A titan killer's hit on a war engine with --invulnerable (§2.8): point (an "
                             "invulnerable save for each point of damage, the default) or hit (one save for the "
                             "whole hit).", TkSave.POINT)

    @property
    def reached(self) -> int:
        """The units the attack can reach."""
        return self.unit_count

    @property
    def unit_count(self) -> int:
        """--units as a number: 0 when not given (a shooting attack at war engines with no other units; a
        barrage whose templates decide how many they cover)."""
        return self.units or 0

    def check(self) -> None:
        least = 0 if self.war_engines else 1
        require(self.units is None or least <= self.units <= MAX_UNITS, "units", self.units,
                f"expected {least} to {MAX_UNITS} units" + (" beside the war engines" if self.war_engines else ""))
        require(self.formation is None or 1 <= self.formation <= MAX_UNITS, "formation", self.formation,
                f"expected the formation's size, 1 to {MAX_UNITS} units")
        require(self.formation is None or self.formation >= self.reached, "formation", self.formation,
                f"expected the formation's size, at least --units ({self.reached})")
        self.target.check_defences("", armour_required=True)  # (0+, the assault's "left out", is no save)
        require(
            abs(self.modifier) <= MAX_MODIFIER,
            "modifier",
            self.modifier,
            f"expected the sum of to-hit modifiers, from -{MAX_MODIFIER} to +{MAX_MODIFIER}",
        )
        choose(self, "weapon", Ability)
        self._check_war_engines()

    def _check_war_engines(self) -> None:
        choose(self, "tk_save", TkSave)
        require(self.tk_save is TkSave.POINT or bool(self.war_engines and self.weapon is Ability.TITAN_KILLER
                                                      and self.invulnerable), "tk_save", self.tk_save,
                "only applies to a titan killer (--weapon titan-killer) at war engines (--war-engines W) with "
                "--invulnerable")
        if self.tk_damage is not None:
            object.__setattr__(self, "tk_damage", tk_damage(self.tk_damage, "tk_damage"))
            require(self.weapon is Ability.TITAN_KILLER, "tk_damage", self.tk_damage,
                    "only applies with --weapon titan-killer")
        require(0 <= self.war_engines <= MAX_WAR_ENGINES, "war_engines", self.war_engines,
                f"expected 0 to {MAX_WAR_ENGINES} war engines")
        require(self.engine_count <= MAX_WAR_ENGINES, "engine", " ; ".join(map(str, self.engine)),
                f"expected at most {MAX_WAR_ENGINES} war engines in all (with --war-engines {self.war_engines})")
        if not self.war_engines:
            for name, default in (("damage_capacity", None), ("shields", 0), ("critical", Critical.NONE),
                                  ("other_armour", NOT_GIVEN), ("other_reinforced", False), ("engine", ())):
                require(getattr(self, name) == default, name, getattr(self, name) or "none",
                        "only applies with --war-engines W")
            return
        require(self.damage_capacity is not None and 1 <= self.damage_capacity <= MAX_CAPACITY, "damage_capacity",
                self.damage_capacity, f"is needed with --war-engines: each war engine's damage capacity, 1 to "
                                      f"{MAX_CAPACITY}")
        require(0 <= self.shields <= MAX_CAPACITY, "shields", self.shields,
                f"expected 0 to {MAX_CAPACITY} void shields per war engine")
        require(self.cover_save is None, "cover_save", self.cover_save,
                "war engines take no infantry cover save (§2.8)")
        require(self.formation is None, "formation", self.formation,
                "with --war-engines, give the formation's other units as --units")
        require(self.other_armour in (None, NOT_GIVEN) or 2 <= self.other_armour <= 6, "other_armour",
                self.other_armour, "expected an armour save from 2+ to 6+, or none")
        require(not self.other_reinforced or self.other_armour not in (None, NOT_GIVEN), "other_reinforced", True,
                "reinforced armour needs the other units' armour value: --other-armour 2+ to 6+")

    @property
    def engines(self) -> Engines:
        return Engines(self.war_engines, self.damage_capacity or 1, self.shields, self.critical)

    @property
    def engine_count(self) -> int:
        """The formation's war engines, of every profile."""
        return self.war_engines + sum(profile.count for profile in self.engine)

    @property
    def profiles(self) -> Formation:
        """The war engines as a formation of profiles: the --war-engines in front, then each --engine profile
        (war engines of several profiles when there are any)."""
        return Formation((self.engines, *(profile.engines for profile in self.engine)))

    def _part_kinds(self, weapon: Ability) -> list[HitKind]:
        """How a hit of this weapon is resolved on each profile of a mixed formation: its own saves."""
        first = (self.armour, self.reinforced, self.invulnerable, self.thick_rear_armour)
        defences = [first, *((p.armour, p.reinforced, p.invulnerable, p.thick_rear_armour) for p in self.engine)]
        return [self._hit_kind(save_plan(armour, None, weapon, reinforced, invulnerable,
                                         self.crossfire and not thick, self.ignore_cover, self.sniper), weapon)
                for armour, reinforced, invulnerable, thick in defences]

    def _decoded(self, values: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """A mixed formation's exact outcomes: its joint's kills axis read as kills and fallen."""
        if not self.engine:
            return values
        kills, fallen = self.profiles.decode(values["kills"])
        return {**values, "kills": kills, "fallen": fallen}

    def _hit_kind(self, saves: SavePlan, weapon: Ability) -> HitKind:
        """How a hit of this weapon is resolved on a war engine: a titan killer's D-value, or its saves."""
        damage = tk_damage(self.tk_damage, "tk_damage") if self.tk_damage is not None else DiceExpression(0, 6, 1)
        if weapon is not Ability.TITAN_KILLER:
            return HitKind(saves)
        return HitKind(saves, damage, per_hit=self.tk_save is TkSave.HIT)

    def _check_exact(self, cells: int, work: int, rate: float, number: NumberType) -> None:
        """Refuse at once an exact war-engine answer whose joint would not fit in memory or would take longer than
        EXACT_SECONDS: `cells` of the joint, `work` cell updates at about `rate` a second (measured, on the quick
        side; rationals are far slower)."""
        rational = number is not float
        gib = cells * (JOINT_RATIONAL_BYTES if rational else 8) / 2**30
        seconds = work / rate * (RATIONAL_SLOWDOWN if rational else 1)
        require(gib <= MAX_JOINT_GIB and seconds <= EXACT_SECONDS, "exact", self.describe(),
                f"the exact answer would need about {gib:,.1f} GiB and {seconds:,.0f} s; sample instead (leave out "
                "--exact)")

    def _others_armour(self) -> str:
        """The other units' defence in an attack's words: `armour 5+, reinforced`, or `no armour`."""
        armour = "no armour" if self.other_armour is None else f"armour {self.other_armour}+"
        return armour + (", reinforced" if self.other_reinforced else "")

    def _other_saves(self, weapon: Ability) -> SavePlan:
        """The saves of a war-engine formation's other units: their armour (no cover save), this weapon."""
        return save_plan(self.other_armour, None, weapon, self.other_reinforced, False, self.worse_saves,
                         self.ignore_cover, self.sniper)

    def _engine_outcomes(self, values: dict[str, np.ndarray], extra: int, under_fire: Any) -> dict[str, np.ndarray]:
        """Blast markers and breaking of a war-engine target (§2.8): a marker per point of damage and per other
        unit killed (per hit not stopped by a shield with disrupt), +1 under fire, the first kill +1 in a
        crossfire; broken when the markers reach the damage capacity of the war engines left plus the other
        units left."""
        kills, hits, lost = values["kills"], values["hits"], values.get("other_kills", 0)
        per = np.maximum(hits - values["shields"], 0) if self.disrupt else values["damage"] + lost
        markers = self.blast_markers + under_fire + extra + per + (kills + lost > 0) * int(self.crossfire)
        others = self.unit_count - lost
        fallen = values["fallen"] if "fallen" in values else self.damage_capacity * kills
        capacity = (self.damage_capacity or 0) * self.war_engines + sum(p.count * p.capacity for p in self.engine)
        left = capacity - fallen + others
        broken = (markers >= left) * 1  # nothing left (0) is broken too
        if "other_kills" in self.outcomes:  # the fire reaches the other units: kills are every unit destroyed
            values = {**values, "kills": kills + lost, "engine_kills": kills}
        return {**values, "blast_markers": markers, "broken": broken}

    def _need(self, to_hit: int) -> int:
        """The to-hit roll needed after modifiers (docs/rules.md §2.1)."""
        cover = 1 if self.in_cover and not self.ignore_cover else 0  # −1 to hit for cover; ignore cover cancels it
        return to_hit - self.modifier + cover

    @property
    def worse_saves(self) -> bool:
        """Crossfire's -1 to saves, which thick rear armour ignores."""
        return self.crossfire and not self.thick_rear_armour

    @cached_property
    def saves(self) -> SavePlan:
        return save_plan(
            self.armour, self.cover_save, self.weapon, self.reinforced, self.invulnerable, self.worse_saves,
            self.ignore_cover, self.sniper,
        )

    def _defence(self) -> str:
        """The target's part of a description: units, armour, cover, saves and what the weapon does."""
        armour = "no armour" if self.armour is None else f"armour {self.armour}+"
        words = [armour] + ([f"cover save {self.cover_save}+"] if self.cover_save else [])
        words += self.flags("reinforced", "invulnerable", "in_cover", "crossfire", "sniper", "disrupt", "ignore_cover")
        words += [f"{self.weapon.value} weapon"] if self.weapon is not Ability.NORMAL else []
        words += [f"modifier {self.modifier:+d}"] if self.modifier else []
        words += [f"{plural(self.blast_markers, 'blast marker')} already"] if self.blast_markers else []
        words += [f"formation of {self.formation}"] if self.formation is not None else []
        words += self.flags("thick_rear_armour")
        if self.war_engines:
            words += [f"DC {self.damage_capacity}", f"{plural(self.shields, 'void shield')}"]
            words += [f"critical hit: {self.critical.value}"] if self.critical is not Critical.NONE else []
            words += [f"behind them {p.count} × {str(p).split(' ', 1)[1]}" for p in self.engine]
        if self.tk_damage is not None:
            words.append(f"TK({self.tk_damage})")
        words += ["one invulnerable save per TK hit"] if self.tk_save is TkSave.HIT else []
        return ", ".join(words)

    def _markers(self, extra: int = 0) -> BlastMarkers:
        formation = self.formation if self.formation is not None else self.reached
        return BlastMarkers(self.blast_markers, extra, formation, self.crossfire, self.disrupt)
