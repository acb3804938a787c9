"""Epic Armageddon formations from a BSData/wh40k-epic-armageddon roster (docs/rules.md §4.1).

A formation is a force's top-level selection. Each `Unit` or `War Engine` profile in it is
as many units as its selection's `number` (the apps save the total, not a number per parent
copy), times the count its selection's name gives the profile (`3x Chimera`, `8x Vanguard,
4x Dunerider`, `Pair of …`). Its Weapons, Firepower and Notes cells, read line by line, are
its weapons: a line starting `and` fires with the weapon, one starting `or` is another mode
of it (its own roster weapon, marked `alternative`); a `Weapon` profile of an upgrade is a
weapon of the same kind, its lines read the same way. A war engine's Firepower `*` points to
such upgrades. Weapons with the same figures are merged into one roster weapon whose shots
count every copy; a formation's barrages fire as one barrage of their summed BP (§2.5).
Small Arms and Assault Weapons fight only in firefights and close combat, which a roster
cell does not model: they are not shooting weapons.

The formation as a target: infantry and armoured vehicles together are a mixed formation
(AP fire at the infantry, AT fire at the vehicles, §2.3); war engines are a war-engine target
(damage capacity, void shields `N Sh`, the critical hit its rule describes, §2.8); aircraft
and spacecraft are no target of ground fire. Whatever is read otherwise than the catalogue
gives it is one line of the report.
"""

from __future__ import annotations

from .epic_common import Character, counted_name, is_character, key_of, same_name
from .epic_profiles import ProfileReading
from .epic_profiles import critical_effect as critical_effect
from .epic_profiles import table_effects as table_effects
from .epic_target import TargetReading
from .epic_weapons import WeaponReading
from .reader import Profile, RosterFile, Selection
from .report import Mapped, System, counted, items, lines

SYSTEM = System("Epic Armageddon", ids=("8f10-ee06-8dc1-beb6",), names=("epic armageddon",),
                header=("Shots count every unit's copies of a weapon; a formation's barrages fire as one.",),
                entries="Epic Armageddon: formation entries")


class _Reader(ProfileReading, WeaponReading, TargetReading):
    """Reads one formation: its target groups and weapon lines, noting what it does not take as given."""

    def read(self) -> Mapped:
        for item in self.selection.walk():
            counts = counted(item.name)
            units = [profile for profile in item.profiles if key_of(profile.type_name) in ("unit", "war engine")]
            weapons = [profile for profile in item.profiles if key_of(profile.type_name) == "weapon"]
            self.described = {key_of(counted_name(name)[1]): " ".join(fire.split()) for profile in units
                              if not is_character(profile)  # the model's own guns and their first Firepower
                              for name, fire in zip(lines(profile.get("Weapons")),
                                                    lines(profile.get("Firepower")) + [""] * 50) if name}
            for profile in item.profiles:
                kind = key_of(profile.type_name)
                if kind in ("unit", "war engine"):
                    self._unit_profile(item, profile, item.number * self._times(item, profile, counts, units))
                elif kind == "weapon":
                    self._weapon(profile.name, profile, item.number * self._times(item, profile, counts, weapons))
                elif kind == "structure":
                    self.note(f"structure {profile.name!r} (fortifications, trenches)", action="not part of the target")
        return self._finish()

    def _times(self, item: Selection, profile: Profile, counts: dict[str, int], profiles: list[Profile]) -> int:
        """How many units (or weapons) one copy of the selection holds of this profile, from its name."""
        if not counts:
            return 1
        for name, number in counts.items():
            if same_name(name, profile.name):
                return number
        if len(counts) == len(profiles):  # "2x Haemonculi, 4x Grotesques": in the order of the profiles
            return list(counts.values())[profiles.index(profile)]
        self.note(f"the name {item.name!r} gives no count for {profile.name}", action="counted once per selection")
        return 1

    def _unit_profile(self, item: Selection, profile: Profile, count: int) -> None:
        """A unit profile: its units as a part of the target, then its weapons, whose close combat weapons give
        its units' extra attacks in assaults."""
        group, sniper = self._unit(item, profile, count)
        self.close = []
        self._weapons_of(profile, count, sniper)
        if group is not None:
            self._close_attacks(group, self._who(profile))
        elif is_character(profile):  # it joins a unit: its close-combat weapons and Inspiring are that unit's
            keys = {key_of(note) for note in items(profile.get("Unit Notes"))}
            self.characters += [Character(profile.name, tuple(self.close), "inspiring" in keys,
                                           "first strike" in keys)] * count

    def _finish(self) -> Mapped:
        mapped = self.mapped
        if not self.groups:
            return mapped.leave_out("no unit that can be a target or fire")
        self._halve()
        self._target()
        mapped.table["weapon"] = self._merged()
        return mapped


def formation(selection: Selection) -> Mapped | None:
    """A roster formation from a top-level selection, or None when it is no formation (a list option)."""
    kinds = {key_of(profile.type_name) for item in selection.walk() for profile in item.profiles}
    if kinds & {"unit", "war engine", "weapon"}:
        return _Reader(selection).read()
    if selection.type == "upgrade" and not kinds:
        return None  # -Community-, a language: the list's options
    mapped = Mapped({"name": selection.name})  # left out: its name is all the report needs
    if "structure" in kinds:
        return mapped.leave_out("structures (fortifications, trenches) only: not units")
    return mapped.leave_out("the list gives no unit profile")


def mapped_units(roster: RosterFile) -> list[Mapped]:
    return [mapped for selection in roster.selections() if (mapped := formation(selection)) is not None]
