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

import math
import re
from dataclasses import dataclass, field

from .reader import Profile, RosterFile, Selection
from .report import Mapped, System, counted, items, lines, unique

SYSTEM = System("Epic Armageddon", ids=("8f10-ee06-8dc1-beb6",), names=("epic armageddon",),
                header=("Shots count every unit's copies of a weapon; a formation's barrages fire as one.",),
                entries="Epic Armageddon: formation entries")

KINDS = {"infantry": "infantry", "light vehicle": "light-vehicle", "armoured vehicle": "armoured-vehicle",
         "war engine": "war-engine"}
FLYING = {"aircraft": "aircraft", "spacecraft": "spacecraft", "spaceship": "spacecraft"}
CHARACTER = "character"  # joins a unit: its weapons fire with the formation, it is no target of its own
SPECIALS = {"disrupt": "disrupt", "lance": "lance", "ignore cover": "ignore-cover", "ignores cover": "ignore-cover",
            "sniper": "sniper", "macro weapon": "macro"}
TITAN_KILLER = re.compile(r"^(?:tk|titan[- ]?killer)\s*\(?\s*(\d*d?\d+(?:\s*\+\s*\d+)?)?\s*\)?$")
# notes that change no dice of one shot or barrage at a formation (docs/rules.md §2, §4.1)
NO_EFFECT = {
    "indirect fire", "indirect", "slow firing", "slow fire", "single shot", "one shot", "transport", "fearless",
    "jump packs", "jump pack", "jetpacks", "tau jetpacks", "tau jet packs", "walker", "scout", "scouts", "teleport",
    "planetfall", "self planetfall", "mounted", "mounted infantry", "inspiring", "commander", "supreme commander",
    "leader", "leaders", "skimmer", "infiltrator", "infiltrators", "expendable", "independent", "first strike",
    "extra attacks", "drop troops", "no units may enter", "may not take actions", "tunneller", "tunnellers",
    "may not march", "support craft", "normal shot or barrage", "choose weapon system at the start of the battle",
    "they shall know no fear",  # read for assaults (know_no_fear)
}
# unit notes that say a weapon has another mode: its "or" line, read as an alternative
OTHER_MODE = re.compile(r"^(normal shot or barrage|may only use the indirect fire when firing a barrage|choose "
                        r"(weapon system|launcher profile))", re.IGNORECASE)
ARC = re.compile(r"\barcs?\b|360|^fixed (forward|rear)|fixed forward fire|fire arc")
CLOSE = {"small arms", "assault weapons", "assault weapon", "(small arms)"}  # firefight and close combat only
NOTHING = {"", "-", "n/a", "*"}  # a Firepower cell without a weapon (`*`: see the war engine's weapon upgrades)
VALUE = re.compile(r"^(ap|at|aa|mw)\s*([2-6])\s*\+?$")
BARRAGE = re.compile(r"^(?:(\d+)\s*bp|bp\s*(\d+))$")
DICE_BARRAGE = re.compile(r"^(\d*d[36](?:\s*\+\s*\d+)?|\d+\s*\+\s*\d*d[36])\s*bp$")
COUNT = re.compile(r"^(\d+)\s*[x×]\s*(.+)$", re.IGNORECASE)
DICE_COUNT = re.compile(r"^(\d*d[36](?:\s*\+\s*\d+)?)\s*[x×]\s*(.+)$", re.IGNORECASE)
SHIELDS = re.compile(r"^(\d+)\s*sh$")
FIELDS = re.compile(r"^(\d*d[36](?:\s*\+\s*\d+)?|\d+)\s*power fields?$")
HALF = re.compile(r"^(?:one|1) unit in (?:every )?(?:two|2) has an? (.+?)(?:\.|$)|^every second unit has an? (.+?)(?:\.|$)",
                   re.IGNORECASE)
MAX_BP = 18
MAX_UNITS = 100  # the roster schema's caps
MAX_SHOTS = 200


def _key(text: str | None) -> str:
    return " ".join((text or "").casefold().replace("-", " ").split())


def _same(one: str, other: str) -> bool:
    """Two names of one thing: equal, one inside the other, or one the other's plural."""
    one, other = _key(one), _key(other)
    singular = lambda word: re.sub(r"(?:es|s|i)$", "", word)  # noqa: E731
    return one == other or one in other or other in one or singular(one) == singular(other)


def _mean(dice: str) -> float:
    """The mean of `D6`, `2D3+1`, `3+D3` (BattleScribe's random shots and barrage points)."""
    total = 0.0
    for term in re.split(r"\s*\+\s*", dice.casefold().strip()):
        match = re.fullmatch(r"(\d*)d(\d+)", term)
        total += int(match.group(1) or 1) * (int(match.group(2)) + 1) / 2 if match else int(term)
    return total


def _dice(text: str) -> str:
    """A dice expression as oddscalc writes it: `D3+1` → `d3+1`, `1D3` → `d3`."""
    return re.sub(r"^1d", "d", text.casefold().replace(" ", ""))


@dataclass
class _Line:
    """One weapon line of the formation: its figures and how many copies fire."""

    name: str
    copies: int
    fields: dict
    special: list[str]
    bp: int | None = None
    alternative: str | None = None  # the weapon whose other mode this is
    owner: str = ""  # the unit profile it belongs to (halving "one unit in two has …")


@dataclass
class _Group:
    """Units of one profile: a part of the formation as a target."""

    name: str
    count: int
    kind: str
    armour: str
    flags: set[str] = field(default_factory=set)  # reinforced, invulnerable, thick-rear-armour
    damage_capacity: int | None = None
    shields: int = 0
    critical: str = "none"
    cc: str | None = None  # close-combat and firefight values ("4+", "none"), for assaults; None: not read
    ff: str | None = None
    fearless: bool = False
    first_strike: bool = False
    extra_attacks: int = 0  # its close-combat weapons' extra attacks (+NA), for assaults (docs/rules.md §2.9)
    extra_at: str = "own"  # cc: an assault weapon's, ff: small arms', own: both
    extra_ability: str = "normal"  # macro, titan-killer: the weapon of its extra attacks
    tk_damage: str | None = None
    inspiring: bool = False
    know_no_fear: bool = False

    def defence(self) -> tuple:
        return (self.kind, self.armour, frozenset(self.flags), self.damage_capacity, self.shields, self.critical)

    def assault_profile(self) -> str:
        """How its units fight in an assault, as an `assault` kind without its count (docs/rules.md §2.9)."""
        words = [f"DC{self.damage_capacity}"] if self.kind == "war-engine" and self.damage_capacity else []
        words += [f"cc {self.cc}", f"ff {self.ff}", f"armour {self.armour}"]
        words += [f"extra-attacks {self.extra_attacks}"] if self.extra_attacks else []
        words += [f"extra-at {self.extra_at}"] if self.extra_attacks and self.extra_at != "own" else []
        words += [f"extra-ability {self.extra_ability}"] if self.extra_attacks and self.extra_ability != "normal" else []
        words += [f"tk-damage {self.tk_damage}"] if self.extra_attacks and self.tk_damage else []
        words += [flag for flag in ("reinforced", "invulnerable") if flag in self.flags]
        words += ["fearless"] if self.fearless else []
        words += ["inspiring"] if self.inspiring else []
        if self.kind == "war-engine" and self.critical != "none":
            words += [f"critical {self.critical}"]
        return " ".join(words)

    def describe(self, kind: bool = True) -> str:
        words = ([self.kind] if kind else []) + [f"armour {self.armour}", *sorted(self.flags)]
        if self.damage_capacity is not None:
            words += [f"DC {self.damage_capacity}", f"{self.shields} shields", f"critical {self.critical}"]
        return ", ".join(words)


class _Reader:
    """Reads one formation: its target groups and weapon lines, noting what it does not take as given."""

    described: dict[str, str] = {}  # the weapons a selection's own unit profiles name, with their Firepower

    def __init__(self, selection: Selection) -> None:
        self.mapped = Mapped.priced(selection.name, selection.cost("pts"))
        self.groups: list[_Group] = []
        self.lines: list[_Line] = []
        self.halves: list[tuple[str, str]] = []  # (owner profile, weapon) that one unit in two carries
        self.selection = selection
        self.close: list[tuple] = []  # a profile's close-combat weapon lines (`_close_line`), while it is read

    def note(self, text: str, weapon: str | None = None, action: str = "imported without it") -> None:
        self.mapped.note(text, weapon, action)

    # --- units ------------------------------------------------------------------------------
    def read(self) -> Mapped:
        for item in self.selection.walk():
            counts = counted(item.name)
            units = [profile for profile in item.profiles if _key(profile.type_name) in ("unit", "war engine")]
            weapons = [profile for profile in item.profiles if _key(profile.type_name) == "weapon"]
            self.described = {_key(_counted(name)[1]): " ".join(fire.split()) for profile in units
                              if not _is_character(profile)  # the model's own guns and their first Firepower
                              for name, fire in zip(lines(profile.get("Weapons")),
                                                    lines(profile.get("Firepower")) + [""] * 50) if name}
            for profile in item.profiles:
                kind = _key(profile.type_name)
                if kind in ("unit", "war engine"):
                    self._unit(item, profile, item.number * self._times(item, profile, counts, units))
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
            if _same(name, profile.name):
                return number
        if len(counts) == len(profiles):  # "2x Haemonculi, 4x Grotesques": in the order of the profiles
            return list(counts.values())[profiles.index(profile)]
        self.note(f"the name {item.name!r} gives no count for {profile.name}", action="counted once per selection")
        return 1

    def _unit(self, item: Selection, profile: Profile, count: int) -> None:
        kinds = [_key(part) for part in (profile.get("Type") or "").split(",")]
        notes = items(profile.get("Unit Notes"))
        who = "" if _key(profile.name) == _key(self.selection.name) else f"{profile.name}: "
        flags, shields, sniper = set(), 0, False
        for note in notes:
            key = _key(note)
            if key in ("reinforced armour", "invulnerable save", "invulnerable save (6+)", "thick rear armour"):
                flags.add({"reinforced armour": "reinforced", "thick rear armour": "thick-rear-armour"}.get(
                    key, "invulnerable"))
            elif SHIELDS.match(key):
                shields = int(SHIELDS.match(key).group(1))
            elif FIELDS.match(key):  # power fields work as void shields within an attack
                number = FIELDS.match(key).group(1)
                shields = int(number) if number.isdecimal() else self._random(number, None, "power fields")
            elif key == "sniper":
                sniper = True
            elif HALF.match(note):
                self.halves.append((profile.name, next(group for group in HALF.match(note).groups() if group)))
            elif key.startswith("halve units") or OTHER_MODE.match(note):
                continue
            elif not self._no_effect(key):
                self.note(f"{who}unit note {note!r} not modelled")
        flying = next((FLYING[kind] for kind in kinds if kind in FLYING), None)
        kind = flying or next((KINDS[kind] for kind in kinds if kind in KINDS), None)
        if kind is None and CHARACTER in kinds:
            for flag in sorted(flags - {"thick-rear-armour"}):
                self.note(f"{who}a character's {flag.replace('-', ' ')} save (it protects the character alone) not "
                          "modelled")
        elif kind is None:
            self.note(f"{who}type {profile.get('Type')!r} is not a target here", action="not a target")
        else:
            armour = self._armour(profile.get("Armour"), who)
            if armour == "none" and "reinforced" in flags:  # nothing to re-roll: the roster refuses the pair
                self.note(f"{who}reinforced armour without an armour save", action="imported without it")
                flags = flags - {"reinforced"}
            keys = {re.sub(r"\s*\(.*\)$", "", _key(note)) for note in notes}
            group = _Group(profile.name, count, kind, armour, flags,
                           cc=self._assault_value(profile.get("CC"), "CC", who),
                           ff=self._assault_value(profile.get("FF"), "FF", who),
                           fearless="fearless" in keys, first_strike="first strike" in keys,
                           inspiring="inspiring" in keys, know_no_fear="they shall know no fear" in keys)
            if kind == "war-engine":
                self._war_engine(item, profile, group, shields, who)
            self.groups.append(group)
        self.close = []
        self._weapons_of(profile, count, sniper)
        if kind is not None and self.groups and self.groups[-1].name == profile.name:
            self._close_attacks(self.groups[-1], who)

    def _assault_value(self, text: str | None, name: str, who: str) -> str | None:
        """A CC or FF cell: `4+`, or none (`-`, `n/a`: no such attack); anything else is reported and not
        read (the formation then has no assault)."""
        match = re.fullmatch(r"\s*([2-6])\s*\+?\s*", text or "")
        if match:
            return f"{match.group(1)}+"
        if text is None:  # no such characteristic: nothing to read (a profile made without assault values)
            return None
        if not text.strip():
            self.note(f"{who}no {name} value in its profile", action="its assaults not modelled")
            return None
        if text.strip().casefold() in NOTHING | {"none"}:
            return "none"
        self.note(f"{who}{name} {text!r} not understood", action="its assaults not modelled")
        return None

    def _armour(self, text: str | None, who: str) -> str:
        """An Armour cell: `4+`, or no save (`-`, `none`); an empty or missing cell, and anything else,
        is reported."""
        match = re.fullmatch(r"\s*([2-6])\s*\+?\s*", text or "")
        if match:
            return f"{match.group(1)}+"
        if not (text or "").strip():
            self.note(f"{who}no Armour value in its profile", action="counted as no armour save")
        elif text.strip().casefold() not in NOTHING | {"none", "n/a"}:
            self.note(f"{who}Armour {text!r} not understood", action="counted as no armour save")
        return "none"

    def _war_engine(self, item: Selection, profile: Profile, group: _Group, shields: int, who: str) -> None:
        capacity = re.match(r"\s*(\d+)", profile.get("DC") or "")
        if capacity is None or int(capacity.group(1)) < 1:
            self.note(f"{who}damage capacity {profile.get('DC')!r} not understood", action="counted as 1")
        group.damage_capacity = max(int(capacity.group(1)) if capacity else 1, 1)
        group.shields = shields
        crit = (profile.get("Crit") or "").strip()
        if crit and crit != "-":
            text = item.rule_text(f"Critical Hit: {crit}")
            group.critical = critical_effect(crit, text)
            table = table_effects(text or "") if text and re.match(r"roll (?:a|1)\s*d6 and consult", text.strip(),
                                                                   re.IGNORECASE) else None
            if table and group.critical == "none":  # a table at once whose faces oddscalc has no value for
                faces = ", ".join(f"{face}: {effect}" for face, effect in sorted(table.items()))
                self.note(f"{who}critical hit {crit!r}: a D6 table at once ({faces}) that oddscalc does not model",
                          action="counted as no effect beyond the hit's damage")
            elif group.critical == "none":
                self.note(f"{who}critical hit {crit!r}: its effect is not a point of damage or the war engine "
                          "destroyed during the attack", action="counted as no effect beyond the hit's damage")
            elif group.critical == "wounded":
                self.note(f"{who}critical hit {crit!r}: a 1 on its D6 attacks the other units in base contact",
                          action="not modelled; 2-5, one more point, and 6, destroyed, are")

    @staticmethod
    def _no_effect(key: str) -> bool:
        base = re.sub(r"\s*\(.*\)$", "", key)  # Transport (SM), Walker (Titan), Extra Attacks (+1)
        return key in NO_EFFECT or base in NO_EFFECT

    # --- weapons ----------------------------------------------------------------------------
    def _weapons_of(self, profile: Profile, copies: int, sniper: bool) -> None:
        """A unit profile's weapons: its cells read line by line, aligned (an empty name continues a weapon)."""
        names, fire, notes = lines(profile.get("Weapons")), lines(profile.get("Firepower")), lines(profile.get("Notes"))
        blocks: list[tuple[str, list[tuple[str, str]]]] = []
        for index, firepower in enumerate(fire):
            name = names[index] if index < len(names) else ""
            note = notes[index] if index < len(notes) else ""
            if not firepower and not name:
                continue
            if name and name != "*" and not re.match(r"^(and|or)\b", firepower, re.IGNORECASE) or not blocks:
                blocks.append((name.lstrip("* ").strip() or profile.name, []))
            blocks[-1][1].append((firepower, note))
        for name, modes in blocks:
            own = self.described.get(_key(_counted(name)[1])) if _is_character(profile) else None
            if own is not None:  # a character upgrade that describes its gun again (Oddboyz)
                here = " ".join(modes[0][0].split())
                differ = f" ({here} here, {own} there)" if here != own else ""
                self.note(f"{profile.name}: {name!r} is the gun the model's own profile gives{differ}", name,
                          action="counted once, as the model's own profile gives it")
                continue
            self._block(name, modes, copies, profile.name, sniper)

    def _weapon(self, name: str, profile: Profile, copies: int) -> None:
        modes = list(zip(lines(profile.get("Firepower")), lines(profile.get("Notes")) + [""] * 50))
        self._block(name, [mode for mode in modes if mode[0] or mode[1]], copies, "", False)

    def _block(self, name: str, modes: list[tuple[str, str]], copies: int, owner: str, sniper: bool) -> None:
        """One weapon's lines: the first and its `and` lines fire together; an `or` line is another mode."""
        times, name = _counted(name)
        main = None
        for index, (firepower, note) in enumerate(modes):
            prefix = re.match(r"^(and|or)\b\s*", firepower, re.IGNORECASE)
            word = prefix.group(1).casefold() if prefix else ("and" if index else "")
            firepower = firepower[prefix.end():] if prefix else firepower
            note = re.sub(r"^(and|or)\b\s*", "", note, flags=re.IGNORECASE)
            label = name if index == 0 else f"{name} ({'or ' if word == 'or' else ''}{firepower})"
            if _key(" ".join(firepower.split())).strip("()") in CLOSE:  # fights only in assaults
                if word != "or":  # another mode's extra attacks are instead of the first's, not beside them
                    self._close_line(label, firepower, note)
                continue
            line = self._line(label, copies * times, firepower, note, owner, sniper)
            if line is None:
                continue
            if word == "or" and main is not None:
                line.alternative = main
            elif main is None:
                main = line.name
            self.lines.append(line)

    def _line(self, name: str, copies: int, firepower: str, notes: str, owner: str, sniper: bool) -> _Line | None:
        """One weapon line from its Firepower and Notes; None for a firefight, close combat or AA-only line."""
        text = " ".join(firepower.split())
        if _key(text) in NOTHING or _key(text).strip("()") in CLOSE:
            return None
        dice = DICE_COUNT.match(text)
        times, text = _counted(text) if not dice else (self._random(dice.group(1), name, "shots"), dice.group(2))
        fields, special, bp, close, anti_aircraft, unknown = {}, [], None, False, False, []
        for token in re.split(r"[,/]|\s+and\s+", text):
            token = token.strip()
            key = _key(token)
            value, barrage, random_bp = VALUE.match(key), BARRAGE.match(key), DICE_BARRAGE.match(key)
            if not token:
                continue
            if value:
                if value.group(1) == "aa":  # anti-aircraft fire has no target on the ground
                    anti_aircraft = True
                else:
                    fields[value.group(1)] = f"{value.group(2)}+"
            elif barrage:
                bp = int(barrage.group(1) or barrage.group(2))
            elif random_bp:
                bp = self._random(random_bp.group(1), name, "BP")
            elif key in CLOSE or key.strip("()") in CLOSE or key.startswith("+"):
                close = True
            elif not self._special(token, name, special):
                unknown.append(token)
        if bp is None and not fields:  # one note for the whole line, not one more for each of its words
            if not close and not anti_aircraft:
                self.note(f"Firepower {text!r}: no AP, AT, MW or BP value", name, action="not a shooting weapon")
            return None
        for token in unknown:
            self.note(f"Firepower {token!r} not understood", name)
        for token in items(notes):
            if not self._special(token, name, special):
                self.note(f"note {token!r} not modelled", name)
        if "titan-killer" in special and bp is None and "mw" not in fields:
            special.append("macro")  # in all other ways, titan killers are treated as macro-weapons (§2.2)
        if "macro" in special and bp is None and "mw" not in fields:
            fields = {"mw": min(fields.values())}  # a macro-weapon written with its AP/AT value
        if "mw" in fields:
            fields = {"mw": fields["mw"]}  # a macro-weapon hits anything at its MW value
        if bp is None:
            special = [item for item in special if item != "macro"]
        if sniper:
            special.append("sniper")
        return _Line(name, copies * times, fields, special, bp, owner=owner)

    def _close_line(self, name: str, firepower: str, notes: str) -> None:
        """An assault weapon's or small arms' line (docs/rules.md §2.9): its extra attacks (+NA, 2.2.3) and their
        weapon's ability (a macro-weapon, a titan killer and its D-value, 2.2.6, 2.2.9), kept for its profile."""
        extra, ability, damage, first = 0, "normal", None, False
        for token in items(notes):
            key = _key(token)
            attacks = re.fullmatch(r"\+\s*(\d+|d\d(?:\s*\+\s*\d+)?)\s*a(ttacks?)?", key)
            killer = TITAN_KILLER.match(key.replace(" (", "("))
            if attacks:
                count = attacks.group(1)
                mean = int(count) if count.isdecimal() else math.floor(_mean(count) + 0.5)
                if not count.isdecimal():  # an assault's figure, not a shooting one: no weapon line named
                    self.note(f"{name}: {count.upper()} extra attacks in assaults: a random number",
                              action=f"counted as {mean}, its mean rounded")
                extra += mean
            elif key in ("macro weapon", "macro weapons"):
                ability = "macro"
            elif killer or key.startswith("titan killer"):
                ability = "titan-killer"
                damage = _dice(killer.group(1)) if killer and killer.group(1) not in (None, "1") else None
            elif key == "first strike":
                first = True
        at = "cc" if "assault" in _key(firepower) else "ff"
        self.close.append((name, at, extra, ability, damage, first))

    def _close_attacks(self, group: _Group, who: str) -> None:
        """Its close-combat weapons' extra attacks on the profile's group: added up, at CC (assault weapons), FF
        (small arms) or both; a weapon's First Strike the unit's (§2.9's reading); weapons whose extra attacks
        differ in ability are counted as the one with most, and said."""
        armed = [line for line in self.close if line[2]]
        group.first_strike = group.first_strike or any(line[5] for line in self.close)
        if not armed:
            return
        group.extra_attacks = min(sum(line[2] for line in armed), 3)
        ats = {line[1] for line in armed}
        group.extra_at = ats.pop() if len(ats) == 1 else "own"
        lead = max(armed, key=lambda line: line[2])
        group.extra_ability, group.tk_damage = lead[3], lead[4]
        others = [line[0] for line in armed if (line[3], line[4]) != (lead[3], lead[4])]
        if others:
            self.note(f"{who}extra attacks of {', '.join(others)} counted as {lead[0]}'s ({lead[3]}) in assaults",
                      action="counted as stated")
        if sum(line[2] for line in armed) > 3:
            self.note(f"{who}{sum(line[2] for line in armed)} extra attacks in assaults", action="counted as 3")

    def _random(self, dice: str, name: str | None, what: str) -> int:
        count = math.floor(_mean(dice) + 0.5)
        self.note(f"{dice.upper()} {what}: a random number", name, action=f"counted as {count}, its mean rounded")
        return count

    def _special(self, token: str, weapon: str, special: list[str]) -> bool:
        """Read a special ability or a no-effect note into `special`; False when it is unknown."""
        key = _key(token)
        killer = TITAN_KILLER.match(key.replace(" (", "("))
        if killer or key.startswith("titan killer"):
            damage = _dice(killer.group(1)) if killer and killer.group(1) else "1"
            special.append("titan-killer")
            if damage != "1":
                special.append(f"tk:{damage}")
            return bool(killer) or self._unread(token, weapon)
        if key in SPECIALS:
            special.append(SPECIALS[key])
            return True
        return self._no_effect(key) or bool(ARC.search(key))

    def _unread(self, token: str, weapon: str) -> bool:
        self.note(f"note {token!r} not understood", weapon)
        return True

    # --- the formation ------------------------------------------------------------------------
    def _finish(self) -> Mapped:
        mapped = self.mapped
        if not self.groups:
            return mapped.leave_out("no unit that can be a target or fire")
        self._halve()
        self._target()
        mapped.table["weapon"] = self._merged()
        return mapped

    def _halve(self) -> None:
        """"One unit in every two has an autocannon": that weapon fires from half the units, rounded up."""
        for owner, weapon in self.halves:
            matched = [line for line in self.lines if line.owner == owner and _same(line.name.split(" (")[0], weapon)]
            for line in matched:
                line.copies = -(-line.copies // 2)
            if not matched:
                self.note(f"{owner}: one unit in two has {weapon!r}, but no weapon of that name",
                          action="imported without it")

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

    def _part(self, groups: list[_Group], field_name: str, kind: str | None) -> _Group:
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

    def _assault_part(self, groups: list[_Group], lead: _Group) -> None:
        """The formation in assaults (docs/rules.md §2.9): the CC and FF of its main part's lead profile; where its
        profiles fight otherwise (its vehicles, a leader, the units beside its war engines), each of them a kind
        of the `assault` list, the lead's first; fearless by profile, and first strike when every profile has it.
        A profile without a CC or FF value, or more kinds than an assault takes, is counted as the lead, and
        said."""
        if lead.cc is None or lead.ff is None:
            return
        self.mapped.table.update(cc=lead.cc, ff=lead.ff)
        kinds: dict[str, int] = {}
        for group in sorted(groups, key=lambda group: group is not lead):  # stable: the lead first
            if group.cc is not None and group.ff is not None:
                kinds[group.assault_profile()] = kinds.get(group.assault_profile(), 0) + group.count
        texts = [f"{count} {profile}" for profile, count in kinds.items()]
        special = any(group.extra_attacks or group.inspiring for group in groups)
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

    @staticmethod
    def _fits(texts: list[str]) -> bool:
        """Whether an assault takes these kinds: each within its bounds, at most MAX_PIECES on a side."""
        from ..epic.kinds import MAX_PIECES, Kind
        from ..errors import InputError

        try:
            kinds = [Kind.parse(text, "assault") for text in texts]
        except InputError:
            return False
        return sum(kind.count if kind.engine else 1 for kind in kinds) <= MAX_PIECES

    def _war_engines(self, engines: list[_Group], others: list[_Group]) -> _Group:
        """War engines of one profile or several (docs/rules.md §2.8): the most numerous profile first, each
        other profile an `other_engines` entry behind it, with its own damage capacity, shields, armour and
        critical hit. Returns the lead war engine."""
        profiles: dict[tuple, list[_Group]] = {}
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
    def _engine_profile(part: list[_Group]) -> str:
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

    def _merged(self) -> list[dict]:
        """Lines with the same figures as one weapon of all their shots; barrages as one summed barrage
        (an alternative mode's barrage as its own)."""
        weapons: dict[tuple, dict] = {}
        barrages: dict[str | None, list[_Line]] = {}
        owners: dict[int, str] = {}  # each weapon's unit profile (an "or" mode's main weapon is its own unit's)
        moded = {line.alternative for line in self.lines if line.alternative}  # weapons with another mode
        for line in self.lines:
            if line.bp is not None:
                barrages.setdefault(line.alternative and line.name, []).append(line)
                continue
            special = sorted(set(line.special))
            key = (tuple(sorted(line.fields.items())), tuple(special), line.alternative,  # the figures, whatever the
                   line.name.casefold() if line.name in moded or line.alternative else None)  # name, but a mode's
            if key in weapons:
                weapons[key]["shots"] += line.copies
                if _key(line.name) not in [_key(name) for name in weapons[key]["name"].split(" + ")]:
                    weapons[key]["name"] += f" + {line.name}"  # "Battlecannon + Turret Battlecannon"
            else:
                weapons[key] = {"name": line.name, "shots": line.copies, **line.fields, "special": special,
                                "alternative": line.alternative}
                owners[id(weapons[key])] = line.owner
        merged = list(weapons.values())
        for alternative, group in barrages.items():
            merged.append(self._barrage(group, alternative))
            owners[id(merged[-1])] = group[0].owner
        names: set[str] = set()
        renamed = {}
        for weapon in merged:  # weapon names are unique within a unit
            old = weapon["name"]
            weapon["name"] = unique(old, names)
            renamed.setdefault((old, owners[id(weapon)]), weapon["name"])  # a mode's main weapon is its unit's
        for weapon in merged:
            main = weapon.get("alternative")
            weapon["alternative"] = renamed.get((main, owners[id(weapon)]), main)
            self._special_fields(weapon)
            if weapon.get("shots") is not None and weapon["shots"] > MAX_SHOTS:
                self.note(f"{weapon['shots']} shots: a roster weapon fires at most {MAX_SHOTS}", weapon["name"],
                          action=f"counted as {MAX_SHOTS}")
                weapon["shots"] = MAX_SHOTS
        return merged

    def _barrage(self, group: list[_Line], alternative: str | None) -> dict:
        bp = sum(line.bp * line.copies for line in group)
        if bp > MAX_BP:
            self.note(f"{bp} BP in one barrage: the table ends at {MAX_BP} BP", group[0].name,
                      action=f"fired as {MAX_BP}")
        common = set.intersection(*(set(line.special) for line in group))  # §2.5: only if every weapon has it
        for line in group:
            for special in sorted(set(line.special) - common):
                self.note(f"{special}: not on every barrage weapon, so not on the barrage", line.name)
        names = list(dict.fromkeys(line.name for line in group))
        return {"name": " + ".join(names), "bp": min(bp, MAX_BP), "special": sorted(common),
                "alternative": group[0].alternative if alternative else None}

    @staticmethod
    def _special_fields(weapon: dict) -> None:
        """`tk:d3` in the specials is the weapon's titan-killer damage (tk_damage)."""
        damage = [item[3:] for item in weapon["special"] if item.startswith("tk:")]
        weapon["special"] = [item for item in weapon["special"] if not item.startswith("tk:")]
        if damage:
            weapon["tk_damage"] = damage[0]


def _is_character(profile: Profile) -> bool:
    return CHARACTER in [_key(part) for part in (profile.get("Type") or "").split(",")]


def critical_effect(name: str, text: str | None) -> str:
    """A war engine's critical hit during the attack (§2.8): `destroyed`, one more point of `damage`,
    `wounded` (a D6 at once: 2-5 one more point, 6 destroyed), or `none` (an effect after the attack,
    a roll of its own later, or one on other units). Read from the rule's text where the list has
    it, else from its name."""
    if not text:
        key = _key(name)
        if key in ("destroyed", "crash") or key.endswith("explosion"):
            return "destroyed"
        return "damage" if key in ("damaged", "extra damage", "+1 damage") else "none"
    first = re.split(r"(?<=[.;:])\s", text.strip(), maxsplit=1)[0].casefold()
    if re.search(r"\band (?:then )?(?:tips over and )?is destroyed\b", first):  # "Destabilised": rolls, then destroyed
        return "destroyed"
    if re.match(r"roll (?:a|1)\s*d6 and consult", first):  # a table rolled at once
        return "wounded" if table_effects(text) == WOUNDED_TABLE else "none"
    if re.match(r"(roll|on a roll|rolls? a d6|roll 1d6)", first) or "subsequent" in first or "further" in first:
        return "none"
    if re.match(r"(the unit(?: and all units being carried)? (?:is|are) destroyed|destroyed\b)", first):
        return "destroyed"
    if re.search(r"(?:point|pt)s? of (?:damage|dc)|(?:additional|extra|another) (?:point|damage|dc|1\s*dc)|"
                 r"loses? an extra|1 additional point", first):
        return "damage"
    return "none"


WOUNDED_TABLE = {1: "none", 2: "damage", 3: "damage", 4: "damage", 5: "damage", 6: "destroyed"}


def table_effects(text: str) -> dict[int, str]:
    """A critical hit's D6 table ("1: ... 2-5: The creature loses 1DC. 6: ... killed"), each face's effect
    on the war engine itself: `destroyed`, `damage` (one more point) or `none`."""
    effects: dict[int, str] = {}
    marks = list(re.finditer(r"(?<![\w+])([1-6])\s*(?:[-–]\s*([1-6]))?\s*:", text))  # "2-5:", not "MW6+" or "D6"
    for mark, after in zip(marks, [*marks[1:], None]):
        low, high = mark.group(1), mark.group(2)
        said = text[mark.end():after.start() if after else len(text)].casefold()
        if re.search(r"\b(?:is|are) (?:instantly )?(?:killed|destroyed)\b|\bdies\b", said):
            kind = "destroyed"
        elif re.search(r"loses? (?:1|one|an? extra)\s*(?:dc|point)|(?:point|pt) of damage", said):
            kind = "damage"
        else:
            kind = "none"
        for face in range(int(low), int(high or low) + 1):
            effects[face] = kind
    return effects


def _counted(name: str) -> tuple[int, str]:
    """`2x Lascannon` → (2, "Lascannon"); `Pair of Land Raiders` → (2, …)."""
    match = COUNT.match(name.strip())
    if match:
        return int(match.group(1)), match.group(2).strip()
    if name.strip().casefold().startswith("pair of "):
        return 2, name.strip()[8:]
    return 1, name.strip()


def formation(selection: Selection) -> Mapped | None:
    """A roster formation from a top-level selection, or None when it is no formation (a list option)."""
    kinds = {_key(profile.type_name) for item in selection.walk() for profile in item.profiles}
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
