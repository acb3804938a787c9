"""The formation as a target and in assaults, from the groups its profiles make (battlescribe/epic.py): its kind
and units, a mixed formation's vehicles, war engines of one profile or several and the units beside them, and
its CC and FF or the kinds of its `assault` list."""

from __future__ import annotations

from typing import Any

from dataclasses import replace

from .epic_common import FLYING, Reading, Group

MAX_UNITS = 100  # the roster schema's cap


class TargetReading(Reading):
    """The formation's target and assault fields; a part of the importer's reader (`epic._Reader`)."""

    def _target(self) -> None:
        groups = [group for group in self.groups if group.kind not in FLYING.values()]
        flying = [group for group in self.groups if group.kind in FLYING.values()]
        engines = [group for group in groups if group.kind == "war-engine"]
        table = self.mapped.table
        if not groups:
            lead = max(flying, key=lambda group: group.count)
            table.update(kind=lead.kind, units=self._capped(sum(group.count for group in flying), "units"),
                         armour=lead.armour)
            return
        for group in flying:
            self.note(f"{group.name} ({group.kind}) is not on the table with the formation",
                      action="not part of the target")
        if engines:
            lead = self._war_engines(engines, [group for group in groups if group.kind != "war-engine"])
            self._assault_part(groups, lead)
            return
        infantry = [group for group in groups if group.kind == "infantry"]
        vehicles = [group for group in groups if group.kind != "infantry"]
        if infantry and vehicles:
            main = self._part(infantry, "units", "infantry")
            lead = self._part(vehicles, "vehicles", "armoured-vehicle")
            table.update(vehicle_armour=lead.armour, vehicle_reinforced="reinforced" in lead.flags)
            self._assault_part(groups, main)
            return
        self._assault_part(groups, self._part(groups, "units", None))

    def _part(self, groups: list[Group], field_name: str, kind: str | None) -> Group:
        """One part of the target: its units, and the defence of its most numerous profile."""
        lead = max(groups, key=lambda group: group.count)
        kind = kind or lead.kind
        shown = {"units": "", "vehicles": "vehicle "}[field_name]
        for group in groups:
            if group.kind != kind or group.defence()[1:] != lead.defence()[1:]:
                self.note(f"{group.name} ({group.describe()}) counted as {lead.name} ({kind}, "
                          f"{lead.describe(kind=False)}): "
                          f"a roster formation's {shown or 'main '}part has one kind and one defence",
                          action="counted as stated")
        self.mapped.table[field_name] = self._capped(sum(group.count for group in groups), field_name)
        if field_name == "units":
            self.mapped.table.update(kind=kind, armour=lead.armour, reinforced="reinforced" in lead.flags,
                                     invulnerable="invulnerable" in lead.flags,
                                     thick_rear_armour="thick-rear-armour" in lead.flags)
        return lead

    def _assault_part(self, groups: list[Group], lead: Group) -> None:
        """The formation in assaults (docs/rules.md §2.9): the CC and FF of its main part's lead profile; where its
        profiles fight otherwise (its vehicles, a leader, the units beside its war engines), each of them a kind
        of the `assault` list, the lead's first; fearless by profile, and first strike when every profile has it.
        A profile without a CC or FF value, or more kinds than an assault takes, is counted as the lead, and
        said."""
        if lead.cc is None or lead.ff is None:
            return
        self.mapped.table.update(cc=lead.cc, ff=lead.ff)
        kinds: dict[str, int] = {}
        joined = self._joined(lead)
        for group in sorted(groups, key=lambda group: group is not lead):  # stable: the lead first
            if group.cc is not None and group.ff is not None:
                count = group.count - (len(joined) if group is lead else 0)
                if count > 0:
                    kinds[group.assault_profile()] = kinds.get(group.assault_profile(), 0) + count
        for unit in joined:
            kinds[unit.assault_profile()] = kinds.get(unit.assault_profile(), 0) + 1
        texts = [f"{count} {profile}" for profile, count in kinds.items()]
        special = any(group.extra_attacks or group.inspiring for group in [*groups, *joined])
        if (len(texts) > 1 or special) and self._fits(texts):
            self.mapped.table["assault"] = texts
        elif len(texts) > 1 or any(group.cc is None or group.ff is None for group in groups):
            for group in groups:
                if (group.cc, group.ff) != (lead.cc, lead.ff):
                    self.note(f"{group.name} (CC {group.cc}, FF {group.ff}) counted as {lead.name} (CC {lead.cc}, "
                              f"FF {lead.ff}) in assaults: a roster formation has one CC and one FF",
                              action="counted as stated")
        if all(group.fearless for group in groups):
            self.mapped.table["fearless"] = True
        if all(group.first_strike for group in groups):
            self.mapped.table["first_strike"] = True
        if any(group.know_no_fear for group in groups):
            self.mapped.table["know_no_fear"] = True

    def _joined(self, lead: Group) -> list[Group]:
        """The units of the lead profile that a character joins, one each (docs/rules.md §4.1: a character joins a
        unit; oddscalc's reading: one of its main part's most numerous profile): that unit's assaults with the
        character's close-combat weapons' extra attacks on top (at most 3), Inspiring and First Strike."""
        joined = []
        for character in self.characters[:lead.count]:
            own = replace(lead, extra_attacks=0, extra_at="own", extra_ability="normal", tk_damage=None)
            self.close, kept = list(character.close), self.close
            self._close_attacks(own, f"{character.name}: ")
            self.close = kept
            unit = replace(lead, inspiring=lead.inspiring or character.inspiring,
                           first_strike=lead.first_strike or character.first_strike or own.first_strike)
            if own.extra_attacks:
                if lead.extra_attacks and (lead.extra_ability, lead.tk_damage) != (own.extra_ability, own.tk_damage):
                    self.note(f"{character.name}: its extra attacks ({own.extra_ability}) beside {lead.name}'s "
                              f"({lead.extra_ability}) in assaults", action=f"counted as {own.extra_ability}")
                unit = replace(unit, extra_attacks=min(lead.extra_attacks + own.extra_attacks, 3),
                               extra_at=own.extra_at if own.extra_at == lead.extra_at or not lead.extra_attacks
                               else "own", extra_ability=own.extra_ability, tk_damage=own.tk_damage)
            joined.append(unit)
        for character in self.characters[lead.count:]:
            self.note(f"{character.name}: a character with no unit of {lead.name} left to join",
                      action="left out of assaults")
        return joined

    @staticmethod
    def _fits(texts: list[str]) -> bool:
        """Whether an assault takes these kinds: each within its bounds, at most MAX_PIECES on a side."""
        from ...epic.kinds import MAX_PIECES, Kind
        from ...errors import InputError

        try:
            kinds = [Kind.parse(text, "assault") for text in texts]
        except InputError:
            return False
        return sum(kind.count if kind.engine else 1 for kind in kinds) <= MAX_PIECES

    def _war_engines(self, engines: list[Group], others: list[Group]) -> Group:
        """War engines of one profile or several (docs/rules.md §2.8): the most numerous profile first, each
        other profile an `other_engines` entry behind it, with its own damage capacity, shields, armour and
        critical hit. Returns the lead war engine."""
        profiles: dict[tuple[Any, ...], list[Group]] = {}
        for group in engines:
            profiles.setdefault(group.defence(), []).append(group)
        parts = sorted(profiles.values(), key=lambda part: -sum(group.count for group in part))  # stable: list order
        lead = self._part(parts[0], "units", "war-engine")
        self.mapped.table.update(damage_capacity=lead.damage_capacity, shields=lead.shields,
                                 critical=lead.critical)
        if len(parts) > 1:
            behind = [self._engine_profile(part) for part in parts[1:]]
            self.mapped.table["other_engines"] = behind
            self.note(f"war engines of {len(parts)} profiles: {', '.join(part[0].name for part in parts)}",
                      action="each with its own damage capacity, shields, armour and critical hit, the most "
                             "numerous in front (§2.8); reorder other_engines and the first profile to change it")
        if not others:
            return lead
        count = self._capped(sum(group.count for group in others), "other_units")
        other = max(others, key=lambda group: group.count)
        for group in others:
            if group.defence() != other.defence():
                self.note(f"{group.name} ({group.describe()}) counted as {other.name} ({other.describe()}): the units "
                          "beside a roster formation's war engines have one kind and one defence",
                          action="counted as stated")
        self.mapped.table.update(other_units=count, other_armour=other.armour, other_kind=other.kind,
                                 other_reinforced="reinforced" in other.flags)
        self.note(f"{count} units beside the war engines ({', '.join(group.name for group in others)})",
                  action="hits go front to back, the war engines first, each unit taking what the fire can hurt "
                         "(§2.8); others_in_front = true puts them first")
        return lead

    @staticmethod
    def _engine_profile(part: list[Group]) -> str:
        """War engines of one profile as an `other_engines` entry: '2 DC1 armour 5+ shields 1'."""
        lead = part[0]
        words = [str(sum(group.count for group in part)), f"DC{lead.damage_capacity}", f"armour {lead.armour}"]
        words += [f"shields {lead.shields}"] if lead.shields else []
        words += [f"critical {lead.critical}"] if lead.critical != "none" else []
        return " ".join(words + sorted(lead.flags))

    def _capped(self, count: int, field_name: str) -> int:
        if count > MAX_UNITS:
            self.note(f"{count} {field_name.replace('_', ' ')}: a roster formation has at most {MAX_UNITS}",
                      action=f"counted as {MAX_UNITS}")
        return min(count, MAX_UNITS)
