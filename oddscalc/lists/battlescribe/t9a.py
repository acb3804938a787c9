"""The 9th Age units from a BSData/The-9th-Age roster built with the 2nd edition (2.0 rules)
catalogues (docs/rules.md §4.2).

A unit is a top-level selection; its models are the selections with a `Defensive` profile
(the one with the most models gives the unit's characteristics). A model can have several
model parts, each with its own `Offensive` profile (The 9th Age rulebook, Model Rules:
multipart models): a rider and its mount, a chariot's crew, beasts and chassis. The model
has one set of Defensive characteristics: a mount's values, where `C` is the rider's value
and `C+X` the rider's plus X. `Charioteer (2)` is two parts of that profile. A part with
Harnessed uses no weapons and makes no supporting attacks; one with Inanimate makes no
close combat attacks.

Equipment comes as profiles in the list (`Armour`, `Melee Weapon`, `Ranged Weapon`), as
names in a profile's rules (`Plate Armour`, `Halberd`, `Bow (4+)`: the weapon and its Aim),
or as an upgrade with no profile (`Shield`, `Great Weapon`, `Throwing Weapons (5+)`): those
are read by name from the game system's shared profiles (`EQUIPMENT`). The wielder of the
unit's equipment is its first part that can use weapons. A weapon's Str and AP are read in
the forms the catalogues write (a number, `+1`, `As User`); any other is reported and the
weapon left out.

The rules and artefacts in `EFFECTS` give re-rolls or automatic wounds (Silver Shots,
Blessings, the Mask of the War Crow …): each is read only where its text is the one the
table was written from; the others are reported as before.

A roster has no formation on the table, so melee attacks are counted for a unit
`FRONTAGE` models wide: the front rank with its Attack Value, one rank of supporting
attacks (up to 1 each; 3 for Large, 5 for Gigantic models), one rank more for each Fight
in Extra Rank (a Spear's). Harnessed parts fight in the front rank only. Each close combat
weapon a part may choose is its own roster weapon. Every model shoots.
"""


from __future__ import annotations

import re

from .reader import Profile, RosterFile, Selection
from .report import Mapped, System, items
from .t9a_attacks import AttackReading
from .t9a_combat import CombatReading
from .t9a_common import (
    AIMED,
    ARMOUR,
    ATTRIBUTES,
    EFFECTS,
    FRONTAGE,
    INVISIBLE,
    MAX_HEALTH,
    MAX_MODELS,
    MELEE,
    MULTIPLE_WOUNDS,
    NO_EFFECT,
    NON_DICE,
    PART,
    RANGED,
    SAVE,
    SUPPORT,
    WORDS,
    cleaned,
    int_of,
    is_mount,
    key_of,
    label_of,
    name_and_aim,
    Part,
    pieces_of,
    is_ridden,
    same_profile,
    type_of,
    by_name,
    Equipment,
)

SYSTEM = System("The 9th Age (2nd edition)", ids=("aa64-1e8e-66fc-9abf",),
                names=("the 9th age: fantasy battles 2nd edition", "the 9th age: fantasy battles 2nd edition 2024"),
                header=(f"Melee attacks count a unit {FRONTAGE} models wide: the front rank and one rank of supporting "
                        "attacks (two with a Spear).",),
                other_editions=(("8c9a-3026-84b4-cf16", "The 9th Age: Fantasy Battles 3rd Edition"),),
                family="9th age", edition="The 9th Age lists built with the 2nd edition (2.0 rules) catalogues",
                catalogues=("2nd-*.cat", "*.cat"), entries="The 9th Age, 2nd edition: unit entries")
class _Reader(AttackReading, CombatReading):
    """Reads one unit: its models' defence, parts and weapons, noting what it does not take as given."""

    def read(self) -> Mapped:
        bodies = [(item, defensive) for item in self.selection.walk()  # each model and its Defensive profile
                  if (defensive := self._defensive(item)) is not None and not is_mount(defensive)]
        if not bodies:
            mount = next((item for item in self.selection.walk() if self._defensive(item) is not None), None)
            if mount is not None:  # a mount's profile (its C values are the rider's) without the rider's own
                return self.mapped.leave_out(f"the list gives the profile of its mount, {mount.name} (its 'C' values "
                                             f"are the rider's), but not the rider's own: the {self.selection.name}'s "
                                             "characteristics are missing")
            return self.mapped.leave_out("the list gives no Defensive profile for its models")
        body, own = max(bodies, key=lambda pair: pair[0].number)
        self.ridden = body is not self.selection and is_ridden(body) and not any(
            self._offensive(item) for item in self.selection.walk() if id(item) not in set(map(id, body.walk())))
        if self.ridden:  # a ridden monster (its Discipline the rider's, "C") whose rider has no profile here
            self.note(f"{body.name} is ridden, but the list gives no profile for its rider (the "
                      f"{self.selection.name}'s own Offensive values)",
                      action=f"imported as the {body.name} alone, without the rider's attacks")
        models = sum(item.number for item, defensive in bodies if same_profile(defensive, own))
        for item, defensive in bodies:
            if not same_profile(defensive, own):
                self.note(f"{defensive.name}: another model's characteristics", action=f"counted as {own.name}")
                models += item.number
        if models > MAX_MODELS:
            self.note(f"{models} models: a roster unit has at most {MAX_MODELS}", action=f"counted as {MAX_MODELS}")
        table = self.mapped.table
        table["models"] = min(models, MAX_MODELS)
        mount = next((item for item in body.walk() if item is not body
                      and (defensive := self._defensive(item)) is not None and is_mount(defensive)), None)
        parts = self._parts(body, mount)
        equipment = self._equipment(body, mount, parts)
        self._defence(own, mount, equipment, parts)
        for _, effect in equipment.effects.values():
            table.update(effect.unit)  # the saves the unit re-rolls
        wielder = next((part for part in parts if not part.harnessed and not part.inanimate and (
            part.rider or mount is None and not self.ridden)), None)  # the rider wields the unit's weapons
        first = wielder or (parts[0] if parts else None)
        if first is None:
            return self.mapped.leave_out("the list gives no Offensive profile for its models")
        self.raw = {what: self._stat(first.profile.get(what), 1, first.name, what) for what in ("Off", "Str")}
        table.update(offensive=self._bounded(self.raw["Off"], "Off"), strength=self._bounded(self.raw["Str"], "Str"))
        height = self._height(body, mount)
        self._combat(body, first, parts, height, set(equipment.melee))
        weapons = []
        for part in parts:
            weapons += self._attacks(part, part is wielder, equipment, table["models"], height, len(parts) > 1)
        table["weapon"] = weapons
        return self.mapped

    @staticmethod
    def _defensive(item: Selection) -> Profile | None:
        return next((profile for profile in item.profiles if type_of(profile) == "defensive"), None)

    @staticmethod
    def _offensive(item: Selection) -> Profile | None:
        return next((profile for profile in item.profiles if type_of(profile) == "offensive"), None)

    def _height(self, body: Selection, mount: Selection | None) -> str:
        for item in (mount, body):
            size = next((profile for profile in (item.profiles if item else ()) if type_of(profile) == "size"), None)
            if size is not None and key_of(size.get("Height")) in SUPPORT:
                return key_of(size.get("Height"))
        return "standard"

    # --- parts --------------------------------------------------------------------------------
    def _parts(self, body: Selection, mount: Selection | None) -> list[Part]:
        """The model's parts: its own Offensive profiles (and its upgrades'), then its mount's."""
        parts: list[Part] = []
        mounted = set(map(id, mount.walk())) if mount is not None else set()
        for owner, rider in ((body, True), (mount, False)):
            if owner is None:
                continue
            selections = [item for item in owner.walk() if rider is False or id(item) not in mounted]
            for item, profile in ((item, profile) for item in selections for profile in item.profiles):
                if type_of(profile) != "offensive" or (item is not owner and self._defensive(item) is not None
                                                     and item is not mount):
                    continue
                match = PART.match(profile.name.translate(INVISIBLE).strip())
                name = (match.group(1) if match and match.group(1) else profile.name).strip()
                count = int(match.group(2)) if match and match.group(2) else 1
                rules = items(profile.get("Rules"))
                keys = {key_of(rule) for rule in rules}
                parts.append(Part(name, profile, count, "harnessed" in keys, "inanimate" in keys, rules,
                                   rider and not self.ridden))  # a ridden monster's attacks are its own
        return parts

    # --- equipment ----------------------------------------------------------------------------
    def _equipment(self, body: Selection, mount: Selection | None, parts: list[Part]) -> Equipment:
        """The unit's equipment from its profiles, the names in its models' rules, and bare upgrades."""
        found = Equipment()
        for item in self.selection.walk():
            if item is mount:
                continue
            for profile in item.profiles:
                kind, name = type_of(profile), name_and_aim(profile.name)
                if kind == "armour":
                    save = re.fullmatch(r"\s*\+\s*(\d)\s*", profile.get("Save") or "")
                    found.armour[name[0]] = (key_of(profile.get("Type")), int(save.group(1)) if save else None)
                elif kind == "melee weapon":
                    found.melee[name[0]] = (profile.name, profile.get("Str"), profile.get("AP"),
                                            profile.get("Attributes"))
                elif kind == "ranged weapon":  # its Aim in its name, or in the name of the upgrade that bought it
                    aim = name[1] if name[1] is not None else name_and_aim(item.name)[1]
                    found.ranged[name[0]] = (label_of(profile.name), aim, (profile.get("Shots"), profile.get("Str"),
                                                                         profile.get("AP"), profile.get("Attributes")))
            read = [self._effect(rule, text, found) for rule, text in zip(item.rules, item.descriptions)]
            unread = [kind for profile in item.profiles if (kind := type_of(profile)) in ("artefact", "manifestation")
                      and not (kind == "artefact" and self._effect(profile.name, profile.get("Effect"), found))]
            if unread:
                self.note(f"{unread[0]} {cleaned(item.name)!r} not modelled")
            if not item.profiles and item.type == "upgrade" and not item.children and not any(read):
                self._bought(item.name, found)
        defensive = self._defensive(body)
        for rule in items(defensive.get("Rules") if defensive else ""):
            if name_and_aim(rule)[0] in ARMOUR:
                by_name(rule, found)
        for part in parts:  # a Harnessed or Inanimate part's shooting weapons are used by the others
            if part.harnessed or part.inanimate:
                for rule in part.rules:
                    if AIMED.match(" ".join(rule.split())) and not SAVE.match(key_of(rule)):
                        by_name(rule, found)
        return found

    @staticmethod
    def _effect(name: str, text: str | None, found: Equipment) -> bool:
        """Read a rule or an artefact of `EFFECTS` whose text says what the table reads; False otherwise."""
        effect = EFFECTS.get(key_of(name))
        if effect is None or effect.says not in key_of((text or "").translate(WORDS)):
            return False
        found.effects[key_of(name)] = (cleaned(name), effect)
        return True

    def _bought(self, name: str, found: Equipment) -> None:
        """An upgrade with no profile: equipment (one item, or several: `Spear and Shield`), an attack
        attribute, an option that buys no dice, or something not read (reported)."""
        key = key_of(name)
        if NON_DICE.match(key):
            return
        pieces = [name] if self._known(name) else pieces_of(name)
        if not all(self._known(piece) for piece in pieces):
            self.note(f"upgrade {cleaned(name)!r} not read")
            return
        for piece in pieces:
            if key_of(piece) in ATTRIBUTES or MULTIPLE_WOUNDS.match(key_of(piece)):
                found.attributes.append(key_of(piece))
            else:
                by_name(piece, found)

    @staticmethod
    def _known(text: str) -> bool:
        name, aim = name_and_aim(text)
        key = key_of(text)
        return (name in ARMOUR or name in MELEE or name in RANGED or aim is not None or key in ATTRIBUTES
                or bool(MULTIPLE_WOUNDS.match(key)))

    # --- defence ------------------------------------------------------------------------------
    def _defence(self, rider: Profile, mount: Selection | None, equipment: Equipment, parts: list[Part]) -> None:
        """The model's defence from its own Defensive profile (`rider`) and its mount's, its equipment and rules."""
        mounted = self._defensive(mount) if mount is not None else None
        profile = mounted or rider  # the mount's values where it has one (`C` in them is the rider's)

        def value(name: str) -> int:
            own = self._stat(rider.get(name), 1 if name != "Arm" else 0, rider.name, name)
            text = (profile.get(name) or "").strip().upper().replace(" ", "")
            if mount is None or not text:
                return own
            if not text.startswith("C"):
                return self._stat(text, own, profile.name, name)
            return own + (int_of(text[1:]) if len(text) > 1 else 0)  # C+2: the rider's value and 2 more

        table = self.mapped.table
        health = self._bounded(value("HP"), "Health Points", 1, MAX_HEALTH)
        massive = mount is not None and any(key_of(rule) == "massive bulk" for rule in mount.rules)
        armour = value("Arm") + (0 if massive else self._suits(equipment))
        saves: dict[str, str] = {}
        flags = {"flammable": False, "parry": False, "distracting": False}
        hard_target = 0
        rules = items(rider.get("Rules")) + (items(profile.get("Rules")) if profile is not rider else [])
        rules += [rule for part in parts for rule in part.rules if SAVE.match(key_of(rule))]  # the whole model's
        rules += [rule for rule in self.selection.rules if key_of(rule).split(" (")[0] in (
            "aegis", "fortitude", "flammable", "hard target", "distracting")]
        aegis = (profile.get("Aeg") or rider.get("Aeg") or "").strip()  # the Daemon Legions' column
        if re.fullmatch(r"[2-6]\+", aegis):
            saves["aegis"] = aegis
        valued = {match.group(1) for match in (SAVE.match(key_of(rule)) for rule in rules) if match}
        for rule in {key_of(rule): rule for rule in rules}.values():  # once each, however spaced
            key = key_of(rule)
            save = SAVE.match(key)
            if key in equipment.armour or key in ARMOUR:
                continue
            if save:
                kind = save.group(1)
                saves[kind] = min(saves.get(kind, "7+"), f"{save.group(2)}+")
            elif key in ("aegis", "fortitude") and (key in saves or key in valued):
                continue  # the save named again without its value: the one read with it
            elif key in ("aegis", "fortitude"):
                self.note(f"defensive rule {cleaned(rule)!r} without its value")
            elif key == "flammable" or key == "distracting":
                flags[key] = True
            elif re.fullmatch(r"hard target \((\d)\)", key):
                hard_target += int(key[-2])
            elif key not in NO_EFFECT:
                self.note(f"defensive rule {cleaned(rule)!r} not modelled")
        on_foot = mount is None and not self.ridden and not any(part.harnessed for part in parts)  # never mounted
        shield = any(kind == "shield" for kind, _ in equipment.armour.values())
        weapons = [name for name in equipment.melee if name != "hand weapon"]
        if shield and on_foot and not weapons:
            flags["parry"] = True  # a Hand Weapon alongside a Shield, on foot (Close Combat Weapons: Hand Weapon)
        two_handed = [(equipment.melee[name] or (name.title(),))[0] for name in weapons
                      if self._two_handed(name, equipment)]
        if shield and two_handed:
            self.note(f"Shield: a model fighting with {' or '.join(two_handed)} (Two-Handed) cannot use it against "
                      "melee attacks", action="counted: armour is one value for shooting and melee")
        table.update(health=health, defensive=self._bounded(value("Def"), "Def"),
                     resilience=self._bounded(value("Res"), "Res"), armour=self._bounded(armour, "Armour", 0, 6),
                     **saves, **flags, hard_target=min(hard_target, 3))

    def _suits(self, equipment: Equipment) -> int:
        """The armour the equipment gives: the best suit of armour, a shield, and other armour."""
        suits: list[int] = []
        other = 0
        for name, (kind, save) in equipment.armour.items():
            if save is None:
                self.note(f"armour {name!r}: its Save is not +N", action="imported without it")
            elif kind == "suit of armour" or kind == "suit":
                suits.append(save)
            else:
                other += save
        return max(suits, default=0) + other

    @staticmethod
    def _two_handed(name: str, equipment: Equipment) -> bool:
        row = equipment.melee.get(name)
        if row is None:
            return name in MELEE and MELEE[name][5]
        return "two-handed" in key_of(row[3])


def unit(selection: Selection) -> Mapped | None:
    """A roster unit from a top-level selection, or None when it is not a unit (an army option)."""
    has_profiles = any(item.profiles for item in selection.walk())
    if selection.type == "upgrade" and not any(type_of(profile) == "defensive" for item in selection.walk()
                                               for profile in item.profiles):
        return None
    if not has_profiles and selection.type not in ("unit", "model"):
        return None
    return _Reader(selection).read()


def mapped_units(roster: RosterFile) -> list[Mapped]:
    return [mapped for selection in roster.selections() if (mapped := unit(selection)) is not None]
