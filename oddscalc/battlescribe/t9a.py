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

import math
import re
from dataclasses import dataclass, field

from .reader import Profile, RosterFile, Selection
from .report import Mapped, System, items

FRONTAGE = 5
SYSTEM = System("The 9th Age (2nd edition)", ids=("aa64-1e8e-66fc-9abf",),
                names=("the 9th age: fantasy battles 2nd edition", "the 9th age: fantasy battles 2nd edition 2024"),
                header=(f"Melee attacks count a unit {FRONTAGE} models wide: the front rank and one rank of supporting "
                        "attacks (two with a Spear).",),
                other_editions=(("8c9a-3026-84b4-cf16", "The 9th Age: Fantasy Battles 3rd Edition"),),
                family="9th age", edition="The 9th Age lists built with the 2nd edition (2.0 rules) catalogues",
                catalogues="2nd-*.cat", entries="The 9th Age, 2nd edition: unit entries")
MAX_MODELS = 500  # the roster schema's caps
MAX_HEALTH = 20
SUPPORT = {"standard": 1, "large": 3, "gigantic": 5}
# The game system's shared profiles (BSData/The-9th-Age, 2nd-theNinthAge-FantasyBattles.gst, revision 56):
# equipment bought as an upgrade with no profile of its own is read from these by name.
ARMOUR = {"shield": ("shield", 1), "light armour": ("suit", 1), "heavy armour": ("suit", 2),
          "plate armour": ("suit", 3)}
# name: (Str, AP, Attack Value +, Offensive Skill +, extra ranks, two-handed, (what it does only at times, what
# the import does instead) or None)
CHARGE = "fights as a hand weapon"
MELEE = {
    "hand weapon": ("As User", "As User", 0, 0, 0, False, None),
    "great weapon": ("+2", "+2", 0, 0, 0, True, None),
    "halberd": ("+1", "+1", 0, 0, 0, True, None),
    "paired weapons": ("As User", "As User", 1, 1, 0, True, None),
    "spear": ("As User", "+1", 0, 0, 1, False, ("+1 Armour Penetration more in the first round of combat when not "
                                                "charging", "counted without it")),
    "lance": ("As User", "As User", 0, 0, 0, False, ("+2 Strength, +2 Armour Penetration on the charge only", CHARGE)),
    "light lance": ("As User", "As User", 0, 0, 0, False, ("+1 Strength, +1 Armour Penetration on the charge only",
                                                           CHARGE)),
}
RANGED = {  # name: (Shots, Str, AP, Attributes)
    "bow": ("1", "3", "0", "Volley Fire"), "longbow": ("1", "3", "0", "Volley Fire"),
    "crossbow": ("1", "4", "1", "Unwieldy"), "handgun": ("1", "4", "2", "Unwieldy"),
    "pistol": ("1", "4", "2", "Quick to Fire"), "throwing weapons": ("2", "As User", "As User", "Quick to Fire, Accurate"),
}
ATTRIBUTES = {"battle focus": "battle-focus", "poison attacks": "poison", "lethal strike": "lethal-strike",
              "divine attacks": "divine", "flaming attacks": "flaming", "toxic attacks": "toxic",
              "hatred": "hatred"}
# rules that change no dice of a standing attack or shot (movement, situational shooting modifiers,
# what the attribute only tells other rules)
NO_EFFECT = {"volley fire", "unwieldy", "quick to fire", "accurate", "move or fire", "reload!", "reload",
             "two-handed", "march and shoot", "magical attacks", "cannot be stomped", "harnessed", "inanimate",
             "swiftstride", "light troops", "parry"}
# upgrades that buy no dice of an attack: a command group, a wizard's level and path, a general
NON_DICE = re.compile(r"^(champion|standard bearer|musician|battle standard bearer|army general|wizard (apprentice|adept|"
                      r"master)|not a (wizard|leader)|unarmoured|none( \(.*\))?|thaumaturgy|divination|evocation|"
                      r"alchemy|occultism|witchcraft|shamanism|druidism|pyromancy|cosmology|necromancy|"
                      r".* archetype)$")
MULTIPLE_WOUNDS = re.compile(r"^multiple wounds \((\d*d?\d+(?:\s*\+\s*\d+)?)\)$")
AIMED = re.compile(r"^(.+?)\s*\((\d)\+\)$")  # "Aspen Bow (5+)", "Repeater Handbow [3] (2+)"
COUNTED = re.compile(r"\s*[\[(]\d+[\])]\s*")  # "[3]", "(2)" in a weapon's name
PART = re.compile(r"^(.*?)\s*(?:\((\d+)\))?\s*(?:offensive)?$", re.IGNORECASE)  # "Charioteer (2) Offensive"
DICE = re.compile(r"^(\d*)d(\d+)(?:\+(\d+))?$")
SWIFT = {"cavalry", "beast"}  # model types with Swiftstride (rulebook, Classification of Models)
HEIGHT_STOMP = {"large": "1", "gigantic": "d6"}  # Stomp Attacks (X) a Height gives (Classification of Models)
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\ufeff"), None)  # zero-width characters in names
SAVE = re.compile(r"^(aegis|fortitude) \((\d)\+\)$")
# "When shooting from Short Range, the weapon gains Armour Penetration 1" (a Repeater Handbow)
SHORT_RANGE_AP = re.compile(r"when shooting (?:from|at) short range, the weapon gains armou?r penetration (\d)")
# §3.10, hits with no to-hit roll: X from each model part in base contact, or a Breath Attack's 2D6
SPECIAL_HITS = re.compile(r"^(impact hits|stomp attacks|grind attacks) \((\d*d?\d+(?:\s*\+\s*\d+)?)\)$", re.IGNORECASE)
BREATH = re.compile(r"^breath attack \((.+)\)$", re.IGNORECASE)
NEEDS_TO_HIT = ("battle-focus", "poison", "hatred")  # attributes of a to-hit roll: not on automatic hits
NEEDS_TO_WOUND = ("lethal-strike", "reroll-wounds", "reroll-wound-ones")  # not on hits that wound automatically
# the catalogues' quotes, primes and hyphens, read as plain ones when a rule's text is compared
WORDS = {**INVISIBLE, **{ord(quote): "'" for quote in "‘’′"}, ord("‐"): "-", ord("‑"): "-"}


@dataclass(frozen=True)
class _Effect:
    """What a rule or an artefact gives a unit's attacks, or the unit: read only where its text has the
    words `says` (another text of the same name is left as before, or reported)."""

    says: str
    attacks: str = ""  # which: "close combat" (every close combat attack of the unit), "unit" (those of its
    # parts but Harnessed ones), "shooting" (the bearer's shots), "enchanted" (the bearer's weapon, when it
    # has one to choose), "hand weapon" (the bearer's Hand Weapon)
    attributes: tuple[str, ...] = ()
    multiple: str | None = None
    ap: int | None = None
    unit: tuple[tuple[str, str], ...] = ()  # the unit's roster fields


# Re-rolls and automatic wounds from the rules and artefacts of units in the 2nd edition catalogues
# (BSData/The-9th-Age, game system revision 56), by name, with the words of their text that give them.
EFFECTS = {
    # 2nd-empireOfSonnstahl.cat, an Inquisitor's Holy Alloy: "Attack Attribute - Shooting."
    "silver shots": _Effect("the attack gains multiple wounds (d3), lethal strike, and must reroll failed to-wound "
                            "rolls.", "shooting", ("lethal-strike", "reroll-wounds"), multiple="d3"),
    # 2nd-empireOfSonnstahl.cat, the Prelate's rule (its Bound Spells are spells, not its attacks)
    "blessings": _Effect("all models in the bearer's unit gain hatred. model parts with harnessed are not affected.",
                         "unit", ("hatred",)),
    # 2nd-dreadElves.cat, an artefact: its bearer's unit gains Fear and is within 6″ of itself
    "mask of the war crow": _Effect("the bearer and any friendly unit that contains one or more models with fear "
                                    "within 6'' of the bearer's unit must reroll natural to-wound rolls of '1' with "
                                    "its close combat attacks.", "close combat", ("reroll-wound-ones",)),
    # 2nd-warriorsOfTheDarkGods.cat, an artefact: a Melee Weapon Enchantment
    "blessed inscriptions": _Effect("attacks made with this enchanted weapon gain divine attacks and failed to-wound "
                                    "rolls must be rerolled.", "enchanted", ("divine", "reroll-wounds")),
    # 2nd-empireOfSonnstahl.cat, the Imperial Prince's artefact, a Hand Weapon enchantment (Magical Attacks
    # change no dice)
    "the light of sonnstahl": _Effect("attacks made with this weapon wound automatically, always have armour "
                                      "penetration 10, and magical attacks.", "hand weapon", ("auto-wound",), ap=10),
    # 2nd-dwarvenHolds.cat, an armour rune
    "rune of steel": _Effect("the wearer of an armour engraved with this rune must reroll failed armour saves.",
                             unit=(("reroll_armour", "failed"),)),
}


def _key(text: str | None) -> str:
    return " ".join((text or "").translate(INVISIBLE).casefold().split())


def _type(profile: Profile) -> str:
    """`2 Defensive (DL)` → "defensive": the catalogues number their profile types."""
    return _key(re.sub(r"^\d+\s*|\s*\(.*\)$", "", profile.type_name))


def _int(text: str | None, default: int = 0) -> int:
    match = re.search(r"-?\d+", text or "")
    return int(match.group()) if match else default


def _relative(text: str | None, base: int) -> int | None:
    """A weapon's Str or AP, in the forms the catalogues write: the wielder's (`As User`, `=`, `-`,
    blank), relative to it (`+2`, `-1`, and `C+1` as a mount's `C`), or a number (`5`, and `3 [7]`,
    whose bracket is reported apart); None for anything else."""
    key = _key(text).replace(" ", "")
    if key in ("", "asuser", "=", "-", "c"):
        return base
    relative = re.fullmatch(r"c?([+-]\d+)", key)
    if relative:
        return base + int(relative.group(1))
    number = re.fullmatch(r"(\d+)(?:\[\d+\])?", key)
    return int(number.group(1)) if number else None


def _named(text: str) -> tuple[str, int | None]:
    """A weapon name and its Aim: `Aspen Bow (5+)` → ("aspen bow", 5); `Halberd` → ("halberd", None);
    a count in its name is not part of it (`Repeater Handbow [3] (2+)` → "repeater handbow")."""
    clean = " ".join(text.translate(INVISIBLE).split())
    aimed = AIMED.match(clean)
    name = aimed.group(1) if aimed else clean
    return _key(COUNTED.sub(" ", name)), (int(aimed.group(2)) if aimed else None)


def _label(text: str) -> str:
    """A weapon's name as shown: no Aim, no count, no zero-width characters."""
    clean = " ".join(text.translate(INVISIBLE).split())
    aimed = AIMED.match(clean)
    return " ".join(COUNTED.sub(" ", aimed.group(1) if aimed else clean).split())


def _pieces(name: str) -> list[str]:
    """An upgrade's name split into the items it buys: `Halberd, Paired Weapons, and Shield` → three."""
    return [part for part in re.split(r"\s*(?:,\s*and\s+|,|\s+and\s+|&|\s\+\s)\s*", name.translate(INVISIBLE))
            if part.strip()]


@dataclass
class _Part:
    """One model part: its Offensive profile, how many of it a model has, and what it may use."""

    name: str
    profile: Profile
    count: int
    harnessed: bool
    inanimate: bool
    rules: list[str]
    rider: bool  # on the model's own selection (not its mount's)


@dataclass
class _Weapons:
    """The unit's equipment: melee weapons (name → profile or table row), ranged ones with their Aim."""

    melee: dict[str, tuple] = field(default_factory=dict)
    ranged: dict[str, tuple] = field(default_factory=dict)  # name → (label, aim or None, (shots, str, ap, attrs))
    armour: dict[str, tuple[str, int | None]] = field(default_factory=dict)  # name → (kind, +N or None)
    attributes: list[str] = field(default_factory=list)  # attack attributes bought for the unit (Poison Attacks)
    effects: dict[str, tuple[str, _Effect]] = field(default_factory=dict)  # of `EFFECTS`: key → (name, effect)


class _Reader:
    """Reads one unit: its models' defence, parts and weapons, noting what it does not take as given."""

    ridden = False  # a ridden monster whose rider has no profile in the list: the monster alone

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self.mapped = Mapped.priced(selection.name, selection.cost("pts"))

    def note(self, text: str, weapon: str | None = None, action: str = "imported without it") -> None:
        self.mapped.note(text, weapon, action)

    def read(self) -> Mapped:
        bodies = [item for item in self.selection.walk() if self._defensive(item) is not None
                  and not _is_mount(self._defensive(item))]
        if not bodies:
            mount = next((item for item in self.selection.walk() if self._defensive(item) is not None), None)
            if mount is not None:  # a mount's profile (its C values are the rider's) without the rider's own
                return self.mapped.leave_out(f"the list gives the profile of its mount, {mount.name} (its 'C' values "
                                             f"are the rider's), but not the rider's own: the {self.selection.name}'s "
                                             "characteristics are missing")
            return self.mapped.leave_out("the list gives no Defensive profile for its models")
        body = max(bodies, key=lambda item: item.number)
        self.ridden = body is not self.selection and _ridden(body) and not any(
            self._offensive(item) for item in self.selection.walk() if id(item) not in set(map(id, body.walk())))
        if self.ridden:  # a ridden monster (its Discipline the rider's, "C") whose rider has no profile here
            self.note(f"{body.name} is ridden, but the list gives no profile for its rider (the "
                      f"{self.selection.name}'s own Offensive values)",
                      action=f"imported as the {body.name} alone, without the rider's attacks")
        models = sum(item.number for item in bodies if _same_profile(self._defensive(item),
                                                                      self._defensive(body)))
        for item in bodies:
            if not _same_profile(self._defensive(item), self._defensive(body)):
                self.note(f"{self._defensive(item).name}: another model's characteristics",
                          action=f"counted as {self._defensive(body).name}")
                models += item.number
        if models > MAX_MODELS:
            self.note(f"{models} models: a roster unit has at most {MAX_MODELS}", action=f"counted as {MAX_MODELS}")
        table = self.mapped.table
        table["models"] = min(models, MAX_MODELS)
        mount = next((item for item in body.walk() if item is not body and self._defensive(item) is not None
                      and _is_mount(self._defensive(item))), None)
        parts = self._parts(body, mount)
        equipment = self._equipment(body, mount, parts)
        self._defence(body, mount, equipment, parts)
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

    def _combat(self, body: Selection, first: _Part, parts: list[_Part], height: str, weapons: set[str]) -> None:
        """What a round of combat needs (docs/rules.md §3.11): the Attack Value (times its count: a crew of two)
        and Agility of the unit's fighting part, its Discipline, a Standard Bearer among its selections,
        Swiftstride among its rules, its Height and the Stomp Attacks it gives, its mount's attacks. A value that
        is not a plain number in bounds (D6 attacks, a rider's "C") is not written: the unit stays out of grid
        --combat, as its other studies are unchanged."""
        table = self.mapped.table
        found = next((profile for item in body.walk() for profile in item.profiles if _type(profile) == "global"),
                     None)
        cells = (("attack_value", first.profile.get("Att"), 1, first.count), ("agility", first.profile.get("Agi"), 0, 1),
                 ("discipline", found.get("Dis") if found is not None else None, 2, 1))
        for name, text, low, times in cells:
            key = (text or "").strip()
            if re.fullmatch(r"\d+", key) and low <= int(key) * times <= 10:
                table[name] = int(key) * times
        if any("standard bearer" in _key(item.name) for item in self.selection.walk() if item.number):
            table["standard"] = True
        rules = {_key(rule) for item in self.selection.walk() for rule in item.rules}
        own = {_key(rule) for rule in (*self.selection.rules, *first.rules, *items(first.profile.get("Rules")))}
        if "lightning reflexes" in own:  # the unit's or its fighting part's, not a handler's
            table["lightning_reflexes"] = True
        types = {_key(profile.get("Type")) for item in body.walk() for profile in item.profiles
                 if _type(profile) == "size"}
        for name, pattern, implied in (
                ("impact_hits", r"impact hits \((\w+)\)", None),  # when it charges (a chariot's, a mount's)
                ("stomp", r"stomp attacks \((\w+)\)", None if "construct" in types else HEIGHT_STOMP.get(height))):
            value = next((match.group(1) for rule in rules if (match := re.fullmatch(pattern, rule))), implied)
            if value is not None:
                table[name] = re.sub(r"^1d", "d", value)
        chosen = {_key(item.name) for item in self.selection.walk() if item.number}
        if any("great weapon" in name for name in chosen):
            table["great_weapon"] = True
        self._charge(chosen | weapons, own)
        if "spear" in chosen:
            table["spear"] = True
        elif "fight in extra rank" in own:  # the rule itself (a Spear's is the Spear's)
            table["extra_ranks"] = 1
        if types & SWIFT or "swiftstride" in rules:
            table["swiftstride"] = True  # the rule, or a type that has it (Cavalry, Beast: Classification of Models)
        if height != "standard":
            table["height"] = height
        for name, rule, kind in (("cannot_be_stomped", "cannot be stomped", "cavalry"), ("stubborn", "stubborn", None),
                                 ("unbreakable", "unbreakable", None)):
            if rule in rules or kind in types:
                table[name] = True
        self._mount(first, parts)

    def _charge(self, weapons: set[str], own: set[str]) -> None:
        """What its own attacks gain when it charges: a Lance's +2 Strength and AP, a Light Lance's +1, a
        Devastating Charge (+X Att, +X Str, +X AP) of the unit's or its fighting part's (its other effects, like
        +X Agi or Adv, are not read)."""
        bonus = dict.fromkeys(("att", "str", "ap"), 0)
        lance = 2 if "lance" in weapons else 1 if "light lance" in weapons else 0
        bonus.update(str=lance, ap=lance)
        for rule in own:
            found = re.fullmatch(r"devastating charge \((.*)\)", rule)
            for what, value in re.findall(r"\+\s*(\d+)\s*(att|str|ap)\b", found.group(1) if found else ""):
                bonus[value] += int(what)
        for name, key, high in (("charge_attacks", "att", 2), ("charge_strength", "str", 3), ("charge_ap", "ap", 3)):
            if bonus[key]:
                self.mapped.table[name] = min(bonus[key], high)

    def _mount(self, first: _Part, parts: list[_Part]) -> None:
        """The mount's attacks (a second model part that attacks: a horse, harnessed beasts, a ridden monster);
        a third is reported and left out of a round of combat."""
        fighting = [part for part in parts if part is not first and not part.inanimate
                    and re.fullmatch(r"\d+", (part.profile.get("Att") or "").strip())]
        if not fighting or not all(name in self.mapped.table for name in ("attack_value", "agility", "discipline")):
            return  # no round of combat for a unit without those (grid --combat lists it apart)
        for extra in fighting[1:]:
            self.note(f"{extra.name}: a third model part that attacks", action="left out of a round of combat "
                                                                               "(two parts a model)")
        part = fighting[0]
        values = [(part.profile.get(name) or "").strip() for name in ("Att", "Off", "Str", "Agi", "AP")]
        values[4] = values[4] if values[4] not in ("", "-", "0") else "0"
        if not all(re.fullmatch(r"\d+", value) for value in values):
            self.note(f"{part.name}: Att, Off, Str, Agi, AP {' '.join(values)!r}", action="left out of a round of combat "
                                                                                     "(not plain numbers)")
            return
        attacks, offensive, strength, agility, ap = map(int, values)
        attacks *= part.count
        if not (1 <= attacks <= 10 and 1 <= offensive <= 10 and 1 <= strength <= 10 and agility <= 10 and ap <= 10):
            self.note(f"{part.name}: {attacks} attacks, Off {offensive}, Str {strength}, Agi {agility}, AP {ap}",
                      action="left out of a round of combat (out of its bounds)")
            return
        self.mapped.table["mount"] = (f"A{attacks} O{offensive} S{strength} I{agility}" + (f" AP{ap}" if ap else "")
                                      + (" harnessed" if part.harnessed else ""))

    @staticmethod
    def _defensive(item: Selection) -> Profile | None:
        return next((profile for profile in item.profiles if _type(profile) == "defensive"), None)

    @staticmethod
    def _offensive(item: Selection) -> Profile | None:
        return next((profile for profile in item.profiles if _type(profile) == "offensive"), None)

    def _height(self, body: Selection, mount: Selection | None) -> str:
        for item in (mount, body):
            size = next((profile for profile in (item.profiles if item else ()) if _type(profile) == "size"), None)
            if size is not None and _key(size.get("Height")) in SUPPORT:
                return _key(size.get("Height"))
        return "standard"

    # --- parts --------------------------------------------------------------------------------
    def _parts(self, body: Selection, mount: Selection | None) -> list[_Part]:
        """The model's parts: its own Offensive profiles (and its upgrades'), then its mount's."""
        parts = []
        mounted = set(map(id, mount.walk())) if mount is not None else set()
        for owner, rider in ((body, True), (mount, False)):
            if owner is None:
                continue
            selections = [item for item in owner.walk() if rider is False or id(item) not in mounted]
            for item, profile in ((item, profile) for item in selections for profile in item.profiles):
                if _type(profile) != "offensive" or (item is not owner and self._defensive(item) is not None
                                                     and item is not mount):
                    continue
                match = PART.match(profile.name.translate(INVISIBLE).strip())
                name = (match.group(1) if match and match.group(1) else profile.name).strip()
                count = int(match.group(2)) if match and match.group(2) else 1
                rules = items(profile.get("Rules"))
                keys = {_key(rule) for rule in rules}
                parts.append(_Part(name, profile, count, "harnessed" in keys, "inanimate" in keys, rules,
                                   rider and not self.ridden))  # a ridden monster's attacks are its own
        return parts

    # --- equipment ----------------------------------------------------------------------------
    def _equipment(self, body: Selection, mount: Selection | None, parts: list[_Part]) -> _Weapons:
        """The unit's equipment from its profiles, the names in its models' rules, and bare upgrades."""
        found = _Weapons()
        for item in self.selection.walk():
            if item is mount:
                continue
            for profile in item.profiles:
                kind, name = _type(profile), _named(profile.name)
                if kind == "armour":
                    save = re.fullmatch(r"\s*\+\s*(\d)\s*", profile.get("Save") or "")
                    found.armour[name[0]] = (_key(profile.get("Type")), int(save.group(1)) if save else None)
                elif kind == "melee weapon":
                    found.melee[name[0]] = (profile.name, profile.get("Str"), profile.get("AP"),
                                            profile.get("Attributes"))
                elif kind == "ranged weapon":  # its Aim in its name, or in the name of the upgrade that bought it
                    aim = name[1] if name[1] is not None else _named(item.name)[1]
                    found.ranged[name[0]] = (_label(profile.name), aim, (profile.get("Shots"), profile.get("Str"),
                                                                         profile.get("AP"), profile.get("Attributes")))
            read = [self._effect(rule, text, found) for rule, text in zip(item.rules, item.descriptions)]
            unread = [kind for profile in item.profiles if (kind := _type(profile)) in ("artefact", "manifestation")
                      and not (kind == "artefact" and self._effect(profile.name, profile.get("Effect"), found))]
            if unread:
                self.note(f"{unread[0]} {_clean(item.name)!r} not modelled")
            if not item.profiles and item.type == "upgrade" and not item.children and not any(read):
                self._bought(item.name, found)
        defensive = self._defensive(body)
        for rule in items(defensive.get("Rules") if defensive else ""):
            if _named(rule)[0] in ARMOUR:
                self._by_name(rule, found)
        for part in parts:  # a Harnessed or Inanimate part's shooting weapons are used by the others
            if part.harnessed or part.inanimate:
                for rule in part.rules:
                    if AIMED.match(" ".join(rule.split())) and not SAVE.match(_key(rule)):
                        self._by_name(rule, found)
        return found

    @staticmethod
    def _effect(name: str, text: str | None, found: _Weapons) -> bool:
        """Read a rule or an artefact of `EFFECTS` whose text says what the table reads; False otherwise."""
        effect = EFFECTS.get(_key(name))
        if effect is None or effect.says not in _key((text or "").translate(WORDS)):
            return False
        found.effects[_key(name)] = (_clean(name), effect)
        return True

    def _bought(self, name: str, found: _Weapons) -> None:
        """An upgrade with no profile: equipment (one item, or several: `Spear and Shield`), an attack
        attribute, an option that buys no dice, or something not read (reported)."""
        key = _key(name)
        if NON_DICE.match(key):
            return
        pieces = [name] if self._known(name) else _pieces(name)
        if not all(self._known(piece) for piece in pieces):
            self.note(f"upgrade {_clean(name)!r} not read")
            return
        for piece in pieces:
            if _key(piece) in ATTRIBUTES or MULTIPLE_WOUNDS.match(_key(piece)):
                found.attributes.append(_key(piece))
            else:
                self._by_name(piece, found)

    @staticmethod
    def _known(text: str) -> bool:
        name, aim = _named(text)
        key = _key(text)
        return (name in ARMOUR or name in MELEE or name in RANGED or aim is not None or key in ATTRIBUTES
                or bool(MULTIPLE_WOUNDS.match(key)))

    def _by_name(self, text: str, found: _Weapons, listed: _Weapons | None = None) -> bool:
        """Read one equipment name from the game system's shared profiles into `found` (a profile in
        `found` or in the unit's `listed` equipment wins); False when it is none."""
        name, aim = _named(text)
        if name in ARMOUR:
            found.armour.setdefault(name, ARMOUR[name])
        elif name in MELEE:
            found.melee.setdefault(name, None)
        elif name in RANGED or (aim is not None and not SAVE.match(_key(text))):
            # a weapon and its Aim; a profile in the list wins over the game system's shared one
            known = found.ranged.get(name) or (listed.ranged.get(name) if listed else None)
            stats = known[2] if known and known[2] else RANGED.get(name)
            found.ranged[name] = (_label(text), aim if aim is not None else known and known[1], stats)
        else:
            return False
        return True

    # --- defence ------------------------------------------------------------------------------
    def _defence(self, body: Selection, mount: Selection | None, equipment: _Weapons, parts: list[_Part]) -> None:
        rider = self._defensive(body)
        profile = self._defensive(mount) if mount is not None else rider

        def value(name: str) -> int:
            own = self._stat(rider.get(name), 1 if name != "Arm" else 0, rider.name, name)
            text = (profile.get(name) or "").strip().upper().replace(" ", "")
            if mount is None or not text:
                return own
            if not text.startswith("C"):
                return self._stat(text, own, profile.name, name)
            return own + (_int(text[1:]) if len(text) > 1 else 0)  # C+2: the rider's value and 2 more

        table = self.mapped.table
        health = self._bounded(value("HP"), "Health Points", 1, MAX_HEALTH)
        massive = mount is not None and any(_key(rule) == "massive bulk" for rule in mount.rules)
        armour = value("Arm") + (0 if massive else self._suits(equipment))
        saves: dict[str, str] = {}
        flags = {"flammable": False, "parry": False, "distracting": False}
        hard_target = 0
        rules = items(rider.get("Rules")) + (items(profile.get("Rules")) if profile is not rider else [])
        rules += [rule for part in parts for rule in part.rules if SAVE.match(_key(rule))]  # the whole model's
        rules += [rule for rule in self.selection.rules if _key(rule).split(" (")[0] in (
            "aegis", "fortitude", "flammable", "hard target", "distracting")]
        aegis = (profile.get("Aeg") or rider.get("Aeg") or "").strip()  # the Daemon Legions' column
        if re.fullmatch(r"[2-6]\+", aegis):
            saves["aegis"] = aegis
        valued = {match.group(1) for match in (SAVE.match(_key(rule)) for rule in rules) if match}
        for rule in {_key(rule): rule for rule in rules}.values():  # once each, however spaced
            key = _key(rule)
            save = SAVE.match(key)
            if key in equipment.armour or key in ARMOUR:
                continue
            if save:
                kind = save.group(1)
                saves[kind] = min(saves.get(kind, "7+"), f"{save.group(2)}+")
            elif key in ("aegis", "fortitude") and (key in saves or key in valued):
                continue  # the save named again without its value: the one read with it
            elif key in ("aegis", "fortitude"):
                self.note(f"defensive rule {_clean(rule)!r} without its value")
            elif key == "flammable" or key == "distracting":
                flags[key] = True
            elif re.fullmatch(r"hard target \((\d)\)", key):
                hard_target += int(key[-2])
            elif key not in NO_EFFECT:
                self.note(f"defensive rule {_clean(rule)!r} not modelled")
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

    def _suits(self, equipment: _Weapons) -> int:
        """The armour the equipment gives: the best suit of armour, a shield, and other armour."""
        suits, other = [], 0
        for name, (kind, save) in equipment.armour.items():
            if save is None:
                self.note(f"armour {name!r}: its Save is not +N", action="imported without it")
            elif kind == "suit of armour" or kind == "suit":
                suits.append(save)
            else:
                other += save
        return max(suits, default=0) + other

    @staticmethod
    def _two_handed(name: str, equipment: _Weapons) -> bool:
        row = equipment.melee.get(name)
        if row is None:
            return MELEE.get(name, (0,) * 6)[5]
        return "two-handed" in _key(row[3])

    # --- attacks ------------------------------------------------------------------------------
    def _attacks(self, part: _Part, wielder: bool, equipment: _Weapons, models: int, height: str,
                 named: bool) -> list[dict]:
        """A part's close combat attacks (one per weapon it may choose) and its shooting."""
        attributes = _Attributes()
        for name in equipment.attributes if wielder else ():
            attributes.take(name)
        extra_ranks, modifier, own_melee, own_ranged, automatic = 0, 0, {}, {}, []
        support = None  # Extra Support (X): supporting attacks up to X, whatever the height
        entry = [rule for rule in self.selection.rules if _key(rule).startswith("extra support")] if wielder else []
        for rule in list(part.rules) + [rule for rule in entry if _key(rule) not in map(_key, part.rules)]:
            key = _key(rule)
            extra = re.fullmatch(r"extra support \((\d+)\)", key)
            if extra:
                support = int(extra.group(1))
                continue
            if attributes.take(key) or SAVE.match(key):  # a special save protects the model (read with its defence)
                continue
            special = SPECIAL_HITS.match(_clean(rule)) or BREATH.match(_clean(rule))
            if special:  # §3.10: hits with no to-hit roll
                automatic.append((_clean(rule), special))
                continue
            if key == "lightning reflexes":
                modifier = 1
            elif re.fullmatch(r"fight in extra ranks?", key):
                extra_ranks += 1
            elif key in NO_EFFECT:
                continue
            elif _named(rule)[0] in equipment.melee:  # a weapon whose profile the list gives
                own_melee[_named(rule)[0]] = equipment.melee[_named(rule)[0]]
            elif self._by_name(rule, part_equipment := _Weapons(), equipment):
                own_melee.update(part_equipment.melee)
                own_ranged.update({name: row for name, row in part_equipment.ranged.items()})
            else:
                self.note(f"offensive rule {_clean(rule)!r} not modelled", part.name)
        results = []
        if not part.inanimate:
            results += self._melee(part, wielder, equipment, own_melee, attributes, extra_ranks, modifier, models,
                                   support or SUPPORT.get(height, 1), named)
        if not part.harnessed and not part.inanimate:
            ranged = {**(equipment.ranged if wielder else {}), **own_ranged}
            for name, row in ranged.items():
                shot = self._shooting(part, wielder, name, row, equipment, attributes, models, named)
                if shot:
                    results.append(shot)
        for label, special in automatic:
            row = self._automatic(part, label, special, attributes, models, named)
            if row:
                results.append(row)
        return results

    def _automatic(self, part: _Part, label: str, special, attributes: _Attributes, models: int,
                   named: bool) -> dict | None:
        """Automatic hits (§3.10): Impact Hits, Stomp and Grind Attacks (X) from each model part in the
        front rank, at its Strength and AP; a Breath Attack's 2D6 from every model, at its brackets'."""
        strength = self._stat(part.profile.get("Str"), 1, part.name, "Str")
        ap = self._stat(part.profile.get("AP"), 0, part.name, "AP")
        its = _Attributes([name for name in attributes.names if name not in NEEDS_TO_HIT], attributes.multiple)
        title = f"{part.name}: {label}" if named else label
        if special.re is BREATH:  # its hits' attributes are those in its brackets, not the part's
            its = _Attributes()
            brackets = items(special.group(1))
            values = {key: _int(value) for key, value in (re.match(r"(str|ap)\s*(\d+)", _key(item)).groups()
                                                          for item in brackets
                                                          if re.match(r"(str|ap)\s*\d+", _key(item)))}
            unread = [item for item in brackets if not re.match(r"(str|ap)\s*\d+", _key(item))
                      and not its.take(_key(item))]
            if unread:
                self.note(f"breath attack rules {', '.join(unread)!r} not modelled", title)
            hits = _times((2, 6, 0), models * part.count)
            return self._row(title, "automatic", hits, values.get("str", strength), values.get("ap", ap), 1, 0, its)
        value = self._value(special.group(2), 0, part.name, what=special.group(1))
        if value is None:
            return None
        return self._row(title, "automatic", _times(value, min(models, FRONTAGE) * part.count), strength, ap, 1, 0,
                         its)

    def _melee(self, part: _Part, wielder: bool, equipment: _Weapons, own: dict, attributes: _Attributes,
               extra_ranks: int, modifier: int, models: int, cap: int, named: bool) -> list[dict]:
        profile = part.profile
        attack_text = (profile.get("Att") or "").strip()
        if not attack_text:
            return []
        strength, ap = (self._stat(profile.get("Str"), 1, part.name, "Str"),
                        self._stat(profile.get("AP"), 0, part.name, "AP"))
        offensive = self._stat(profile.get("Off"), 1, part.name, "Off")
        if part.harnessed:  # uses no weapons, makes no supporting attacks (Harnessed)
            count = self._count(attack_text, min(models, FRONTAGE) * part.count, part.name)
            its = _Attributes(list(attributes.names), attributes.multiple)
            set_ap = self._effects_on("melee", part, wielder, part.name, 1, its, equipment)
            return [self._row(part.name, "melee", count, strength, ap if set_ap is None else set_ap, offensive, 0,
                              its)] if count else []
        choices = dict(own)
        if wielder:
            choices.update({name: row for name, row in equipment.melee.items() if name not in choices})
        chosen = [name for name in choices if name != "hand weapon"] or ["hand weapon"]
        if wielder:
            self._unreached(chosen, equipment)
        rows = []
        for name in chosen:
            row = choices.get(name)
            if row is None:  # by name, from the game system's shared profiles
                row = (name.title(), *MELEE[name][:2], "") if name in MELEE else (name.title(), None, None, "")
            label, str_text, ap_text, attribute_text = row
            if self.ridden and not own and name == "hand weapon":
                label = part.name  # a ridden monster fights with its own attacks, not its rider's weapon
            its, table_row = self._weapon_rules(name, label, attribute_text, attributes)
            bonus_attacks, bonus_offensive, ranks, at_times = table_row[2], table_row[3], table_row[4], table_row[6]
            if at_times:
                self.note(f"{label}: {at_times[0]}", part.name if named else None, action=at_times[1])
            if table_row is MELEE["paired weapons"]:  # "Attacks made with Paired Weapons ignore Parry"
                its.names.append("ignores-parry")
            value = self._value(attack_text, bonus_attacks, part.name)
            if value is None:
                continue
            front = min(models, FRONTAGE) * part.count
            supporting = min(max(models - FRONTAGE, 0), FRONTAGE * (1 + extra_ranks + ranks)) * part.count
            count = _times(value, front) if supporting == 0 else _plus(_times(value, front),
                                                                     _times(_capped(value, cap), supporting))
            hit = modifier if name != "great weapon" else 0  # Lightning Reflexes: not with a Great Weapon
            title = f"{part.name}: {label}" if named else label
            values = self._weapon_values(label, str_text, ap_text, strength, ap)
            if values is None:
                continue
            set_ap = self._effects_on("melee", part, wielder, name, len(chosen), its, equipment)
            rows.append(self._row(title, "melee", count, values[0], values[1] if set_ap is None else set_ap,
                                  offensive + bonus_offensive, hit, its))
        return [row for row in rows if row]

    def _weapon_values(self, label: str, str_text: str | None, ap_text: str | None, strength: int,
                       ap: int) -> tuple[int, int] | None:
        """A weapon's Str and AP cells against its wielder's (`_relative`); None, reported, when one is not read."""
        values = []
        for what, text, base in (("Str", str_text, strength), ("AP", ap_text, ap)):
            value = _relative(text, base)
            if value is None:
                self.note(f"{what} {(text or '').strip()!r} not understood", label, action="left out")
            values.append(value)
        return None if None in values else (values[0], values[1])

    def _effects_on(self, kind: str, part: _Part, wielder: bool, weapon: str, choices: int, its: _Attributes,
                    equipment: _Weapons) -> int | None:
        """Add to an attack's attributes what the unit's rules and artefacts give it (`EFFECTS`); return the AP
        one sets, or None. `choices` counts the close combat weapons the part may choose."""
        ap = None
        for _, effect in equipment.effects.values():
            reaches = {"close combat": kind == "melee", "unit": kind == "melee" and not part.harnessed,
                       "shooting": kind == "shooting" and wielder,
                       "enchanted": kind == "melee" and wielder and choices == 1,
                       "hand weapon": kind == "melee" and wielder and weapon == "hand weapon"}.get(effect.attacks)
            if reaches:
                its.names += effect.attributes
                its.multiple = effect.multiple or its.multiple
                ap = effect.ap if effect.ap is not None else ap
        if "auto-wound" in its.names:  # it rolls no die to wound: no natural 6 to wound, nothing to re-roll
            its.names = [name for name in its.names if name not in NEEDS_TO_WOUND]
        return ap

    def _unreached(self, chosen: list[str], equipment: _Weapons) -> None:
        """Report a weapon enchantment the list does not put on one weapon the bearer fights with."""
        for name, effect in equipment.effects.values():
            if effect.attacks == "enchanted" and len(chosen) > 1:
                self.note(f"{name}: the list does not say which of its weapons it enchants")
            elif effect.attacks == "hand weapon" and "hand weapon" not in chosen:
                self.note(f"{name}: it enchants a Hand Weapon, which a model with another close combat weapon "
                          "cannot choose")

    def _weapon_rules(self, name: str, label: str, text: str | None, attributes: _Attributes) -> tuple:
        """A close combat weapon's attributes and its row of `MELEE`: its own, or the weapon whose rules
        its profile says it has (`Blades of Darag`: "Paired Weapons. …")."""
        its = _Attributes(list(attributes.names), attributes.multiple)
        table_row = MELEE.get(name, ("", "", 0, 0, 0, False, None))
        unread = []
        for sentence in re.split(r"(?<=\.)\s+", text or ""):
            for attribute in items(sentence.rstrip(".")):
                key = _key(attribute).strip(" .")
                if its.take(key) or key in NO_EFFECT:
                    continue
                if key in MELEE and name not in MELEE:
                    table_row = MELEE[key]
                elif name in MELEE and key.startswith(("the wielder gains", "infantry cannot", "only infantry",
                                                       "all models come", "attacks made with")):
                    continue  # the shared profile's own text, read through MELEE (its table row)
                else:
                    unread.append(attribute)
        if unread:
            text = ", ".join(unread)
            self.note(f"weapon rules {text[:70] + ('…' if len(text) > 70 else '')!r} not modelled", label)
        return its, table_row

    def _shooting(self, part: _Part, wielder: bool, name: str, row: tuple, equipment: _Weapons,
                  attributes: _Attributes, models: int, named: bool) -> dict | None:
        label, aim, stats = row
        if stats is None:
            known = equipment.ranged.get(name)
            stats = known[2] if known else None
        if stats is None:
            self.note(f"shooting weapon {label!r}: no Ranged Weapon profile in the list or the game system", label,
                      action="left out")
            return None
        if aim is None:
            self.note(f"shooting weapon {label!r}: the list gives no Aim", label, action="left out")
            return None
        shots_text, str_text, ap_text, attribute_text = stats
        strength, ap = (self._stat(part.profile.get("Str"), 1, part.name, "Str"),
                        self._stat(part.profile.get("AP"), 0, part.name, "AP"))
        if re.search(r"\[", f"{str_text}{ap_text}"):
            self.note(f"Str {str_text} / AP {ap_text}: a bracketed value for one hit", label,
                      action="counted with the value outside the brackets")
        shots = self._count(shots_text or "", models * part.count, label, what="Shots")
        if shots is None:
            return None
        values = self._weapon_values(label, str_text, ap_text, strength, ap)
        if values is None:
            return None
        # Hatred re-rolls to-hit rolls "during the first Round of Combat": never a shot's
        its = _Attributes([name for name in attributes.names if name != "hatred"], attributes.multiple)
        sentences = re.split(r"(?<=\.)\s+", attribute_text or "")
        for sentence in list(sentences):  # a roster cell shoots at short range (§4.2): what it gains there counts
            close = SHORT_RANGE_AP.fullmatch(_key(sentence).rstrip("."))
            if close:
                values = (values[0], max(values[1], int(close.group(1))))
                sentences.remove(sentence)
        unread = [attribute for sentence in sentences
                  for attribute in items(sentence.rstrip(".")) if not its.take(_key(attribute).strip(" .[]"))
                  and _key(attribute).strip(" .[]") not in NO_EFFECT]
        if unread:
            text = ", ".join(unread)
            self.note(f"weapon rules {text[:70] + ('…' if len(text) > 70 else '')!r} not modelled", label)
        self._effects_on("shooting", part, wielder, name, 0, its, equipment)
        title = f"{part.name}: {label}" if named else label
        return self._row(title, "shooting", shots, values[0], values[1],
                         self._stat(part.profile.get("Off"), 1, part.name, "Off"), 0, its, aim=f"{aim}+")

    def _bounded(self, value: int, what: str, low: int = 1, high: int = 10, note: str | None = None) -> int:
        """A characteristic within what a roster holds (1 to 10, unless said), or the nearest, reported."""
        if low <= value <= high:
            return value
        nearest = min(max(value, low), high)
        self.note(f"{what} {value}: a roster holds {low} to {high}", note, action=f"counted as {nearest}")
        return nearest

    def _stat(self, text: str | None, default: int, name: str, what: str) -> int:
        """A characteristic: a number; a random one (`D6+5`) at its mean, rounded, and reported."""
        key = (text or "").casefold().replace(" ", "")
        if not key or key in ("-", "*"):
            return default
        if re.fullmatch(r"-?\d+", key):
            return int(key)
        dice = DICE.match(key)
        if dice:
            count, sides, plus = int(dice.group(1) or 1), int(dice.group(2)), int(dice.group(3) or 0)
            mean = count * (sides + 1) / 2 + plus
            value = math.floor(mean + 0.5)
            self.note(f"{what} {text}: a random value", name, action=f"counted as {value}, its mean rounded")
            return value
        self.note(f"{what} {text!r} not understood", name, action=f"counted as {default}")
        return default

    def _value(self, text: str, bonus: int, name: str, what: str = "Attack Value"):
        """A number, or dice like `D6+1` as (dice, sides, plus), with a bonus added; None when not read."""
        key = text.casefold().replace(" ", "")
        if key.isdecimal():
            return int(key) + bonus
        dice = DICE.match(key)
        if dice:
            return (int(dice.group(1) or 1), int(dice.group(2)), int(dice.group(3) or 0) + bonus)
        self.note(f"{what} {text!r} not understood", name, action="left out")
        return None

    def _count(self, text: str, times: int, name: str, what: str = "Attack Value"):
        """`times` copies of a number or dice like `D6+1` (a number, or dice text); None when not read."""
        value = self._value(text, 0, name, what)
        return None if value is None else _times(value, times)

    def _row(self, name: str, kind: str, attacks, strength: int, ap: int, offensive: int, modifier: int,
             attributes: _Attributes, aim: str | None = None) -> dict | None:
        if not attacks:
            return None
        table = self.mapped.table
        attack = {"name": name, "kind": kind, "attacks": attacks, "aim": aim}
        toxic = "toxic" in attributes.names
        # a weapon's own value out of bounds is its line; the unit's own was reported with the unit
        strength = table["strength"] if strength == self.raw["Str"] else self._bounded(strength, "Str", note=name)
        offensive = table["offensive"] if offensive == self.raw["Off"] else self._bounded(offensive, "Off", note=name)
        ap = self._bounded(ap, "AP", 0, 10, note=name)
        if strength != table["strength"] and not toxic:
            attack["strength"] = strength
        if ap and not toxic:
            attack["ap"] = ap
        if kind == "melee" and offensive != table["offensive"]:
            attack["offensive"] = offensive
        if modifier:
            attack["modifier"] = modifier
        if attributes.multiple:
            attack["multiple_wounds"] = attributes.multiple.lower().replace(" ", "")
        attack["attributes"] = sorted(set(attributes.names))
        return attack


@dataclass
class _Attributes:
    """The attack attributes read so far, and Multiple Wounds (X)."""

    names: list[str] = field(default_factory=list)
    multiple: str | None = None

    def take(self, key: str) -> bool:
        """Read one rule; False when it is not an attack attribute."""
        wounds = MULTIPLE_WOUNDS.match(key)
        if wounds:
            self.multiple = wounds.group(1)
        elif key in ATTRIBUTES:
            self.names.append(ATTRIBUTES[key])
        return bool(wounds) or key in ATTRIBUTES


def _times(value, count: int):
    """`count` copies of a number or dice (n, sides, plus): a number, or dice text like `5d6+5`."""
    if isinstance(value, int):
        return value * count
    dice, sides, plus = value
    if count == 0:
        return 0
    return f"{dice * count}d{sides}" + (f"+{plus * count}" if plus else "")


def _capped(value, cap: int):
    """A supporting attack's value: at most `cap` (dice are capped at their mean, rounded down)."""
    if isinstance(value, int):
        return min(value, cap)
    dice, sides, plus = value
    return min(math.floor(dice * (sides + 1) / 2 + plus), cap)


def _plus(one, other):
    """The sum of two counts (numbers, or dice text and a number)."""
    if isinstance(one, int) and isinstance(other, int):
        return one + other
    match = re.fullmatch(r"(\d+d\d+)(?:\+(\d+))?", str(one))
    return f"{match.group(1)}+{int(match.group(2) or 0) + other}" if match and isinstance(other, int) else one


def _clean(text: str) -> str:
    """A name as the report shows it: single spaces, no zero-width characters."""
    return " ".join(text.translate(INVISIBLE).split())


def _ridden(item: Selection) -> bool:
    """A ridden monster: its Global profile's Discipline is its rider's (`C`)."""
    return any(_type(profile) == "global" and (profile.get("Dis") or "").strip().upper().startswith("C")
               for profile in item.profiles)


def _is_mount(profile: Profile) -> bool:
    """A mount's Defensive profile refers to its rider's values: `C`, `C+2`."""
    return any(re.match(r"^\s*C\b", value or "") for _, value in profile.characteristics)


def _same_profile(one: Profile, other: Profile) -> bool:
    return [(key, value) for key, value in one.characteristics] == [(key, value) for key, value in
                                                                    other.characteristics]


def unit(selection: Selection) -> Mapped | None:
    """A roster unit from a top-level selection, or None when it is not a unit (an army option)."""
    has_profiles = any(item.profiles for item in selection.walk())
    if selection.type == "upgrade" and not any(_type(profile) == "defensive" for item in selection.walk()
                                               for profile in item.profiles):
        return None
    if not has_profiles and selection.type not in ("unit", "model"):
        return None
    return _Reader(selection).read()


def mapped_units(roster: RosterFile) -> list[Mapped]:
    return [mapped for selection in roster.selections() if (mapped := unit(selection)) is not None]
