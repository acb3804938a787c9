"""The 9th Age importer's tables and small readers (battlescribe/t9a.py): the game system's shared equipment,
the rules it reads, names and numbers as the catalogues write them, a model part, a unit's weapons."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ...t9a.attributes import GAME_DICE
from .reader import Profile, Selection
from .report import Mapped
from ...core.record import record

FRONTAGE = 5
MAX_MODELS = 500  # the roster schema's caps
MAX_HEALTH = 20
SUPPORT = {"standard": 1, "large": 3, "gigantic": 5}
# The game system's shared profiles (BSData/The-9th-Age, 2nd-theNinthAge-FantasyBattles.gst, revision 56):
# equipment bought as an upgrade with no profile of its own is read from these by name.
ARMOUR = {"shield": ("shield", 1), "light armour": ("suit", 1), "heavy armour": ("suit", 2),
          "plate armour": ("suit", 3)}
# name: (Str, AP, Attack Value +, Offensive Skill +, extra ranks, two-handed, (what it does only at times, what
# the import does instead) or None)
Melee = tuple[str, str, int, int, int, bool, tuple[str, str] | None]
CHARGE = "fights as a hand weapon"
MELEE: dict[str, Melee] = {
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


def dice_mean(text: str) -> int | None:
    """Dice as a list writes them (`D6+1`, `2D3`; case and spaces ignored) at their mean, rounded half up (`D6+1`:
    5, a random characteristic a round of combat takes as a number); None when the text is no dice of the game
    (D6 and D3 only, `t9a.attributes.GAME_DICE`: a D10 in a list is reported as not understood)."""
    dice = DICE.match(text.casefold().replace(" ", ""))
    if not dice:
        return None
    count, sides, plus = int(dice.group(1) or 1), int(dice.group(2)), int(dice.group(3) or 0)
    return math.floor(count * (sides + 1) / 2 + plus + 0.5) if count and sides in GAME_DICE else None


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


@record
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


def key_of(text: str | None) -> str:
    return " ".join((text or "").translate(INVISIBLE).casefold().split())


def type_of(profile: Profile) -> str:
    """`2 Defensive (DL)` → "defensive": the catalogues number their profile types."""
    return key_of(re.sub(r"^\d+\s*|\s*\(.*\)$", "", profile.type_name))


def int_of(text: str | None, default: int = 0) -> int:
    match = re.search(r"-?\d+", text or "")
    return int(match.group()) if match else default


def relative_value(text: str | None, base: int) -> int | None:
    """A weapon's Str or AP, in the forms the catalogues write: the wielder's (`As User`, `=`, `-`,
    blank), relative to it (`+2`, `-1`, and `C+1` as a mount's `C`), or a number (`5`, and `3 [7]`,
    whose bracket is reported apart); None for anything else."""
    key = key_of(text).replace(" ", "")
    if key in ("", "asuser", "=", "-", "c"):
        return base
    relative = re.fullmatch(r"c?([+-]\d+)", key)
    if relative:
        return base + int(relative.group(1))
    number = re.fullmatch(r"(\d+)(?:\[\d+\])?", key)
    return int(number.group(1)) if number else None


def name_and_aim(text: str) -> tuple[str, int | None]:
    """A weapon name and its Aim: `Aspen Bow (5+)` → ("aspen bow", 5); `Halberd` → ("halberd", None);
    a count in its name is not part of it (`Repeater Handbow [3] (2+)` → "repeater handbow")."""
    clean = " ".join(text.translate(INVISIBLE).split())
    aimed = AIMED.match(clean)
    name = aimed.group(1) if aimed else clean
    return key_of(COUNTED.sub(" ", name)), (int(aimed.group(2)) if aimed else None)


def label_of(text: str) -> str:
    """A weapon's name as shown: no Aim, no count, no zero-width characters."""
    clean = " ".join(text.translate(INVISIBLE).split())
    aimed = AIMED.match(clean)
    return " ".join(COUNTED.sub(" ", aimed.group(1) if aimed else clean).split())


def pieces_of(name: str) -> list[str]:
    """An upgrade's name split into the items it buys: `Halberd, Paired Weapons, and Shield` → three."""
    return [part for part in re.split(r"\s*(?:,\s*and\s+|,|\s+and\s+|&|\s\+\s)\s*", name.translate(INVISIBLE))
            if part.strip()]


@dataclass
class Part:
    """One model part: its Offensive profile, how many of it a model has, and what it may use."""

    name: str
    profile: Profile
    count: int
    harnessed: bool
    inanimate: bool
    rules: list[str]
    rider: bool  # on the model's own selection (not its mount's)


# a Melee Weapon profile in the list: (name, Str, AP, Attributes); None for one read by name from `MELEE`
Profiled = tuple[str, str | None, str | None, str | None]
# a shooting weapon's (Shots, Str, AP, Attributes): a Ranged Weapon profile in the list, or a row of `RANGED`
Shots = tuple[str | None, str | None, str | None, str | None]
Aimed = tuple[str, int | None, Shots | None]  # a shooting weapon: its label, its Aim, its values (when known)


@dataclass
class Equipment:
    """The unit's equipment: melee weapons (name → profile or table row), ranged ones with their Aim."""

    melee: dict[str, Profiled | None] = field(default_factory=dict)
    ranged: dict[str, Aimed] = field(default_factory=dict)  # name → (label, aim or None, (shots, str, ap, attrs))
    armour: dict[str, tuple[str, int | None]] = field(default_factory=dict)  # name → (kind, +N or None)
    attributes: list[str] = field(default_factory=list)  # attack attributes bought for the unit (Poison Attacks)
    effects: dict[str, tuple[str, _Effect]] = field(default_factory=dict)  # of `EFFECTS`: key → (name, effect)


@dataclass
class ReadAttributes:
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


Count = int | tuple[int, int, int]  # a number, or dice (n, sides, plus): `D6+1` is (1, 6, 1)


def count_times(value: Count, count: int) -> int | str:
    """`count` copies of a number or dice (n, sides, plus): a number, or dice text like `5d6+5`."""
    if isinstance(value, int):
        return value * count
    dice, sides, plus = value
    if count == 0:
        return 0
    return f"{dice * count}d{sides}" + (f"+{plus * count}" if plus else "")


def capped_count(value: Count, cap: int) -> int:
    """A supporting attack's value: at most `cap` (dice are capped at their mean, rounded down)."""
    if isinstance(value, int):
        return min(value, cap)
    dice, sides, plus = value
    return min(math.floor(dice * (sides + 1) / 2 + plus), cap)


def count_plus(one: int | str, other: int | str) -> int | str:
    """The sum of two counts (numbers, or dice text and a number)."""
    if isinstance(one, int) and isinstance(other, int):
        return one + other
    match = re.fullmatch(r"(\d+d\d+)(?:\+(\d+))?", str(one))
    return f"{match.group(1)}+{int(match.group(2) or 0) + other}" if match and isinstance(other, int) else one


def cleaned(text: str) -> str:
    """A name as the report shows it: single spaces, no zero-width characters."""
    return " ".join(text.translate(INVISIBLE).split())


def is_ridden(item: Selection) -> bool:
    """A ridden monster: its Global profile's Discipline is its rider's (`C`)."""
    return any(type_of(profile) == "global" and (profile.get("Dis") or "").strip().upper().startswith("C")
               for profile in item.profiles)


def is_mount(profile: Profile) -> bool:
    """A mount's Defensive profile refers to its rider's values: `C`, `C+2`."""
    return any(re.match(r"^\s*C\b", value or "") for _, value in profile.characteristics)


def same_profile(one: Profile, other: Profile) -> bool:
    return [(key, value) for key, value in one.characteristics] == [(key, value) for key, value in
                                                                    other.characteristics]


def by_name(text: str, found: Equipment, listed: Equipment | None = None) -> bool:
    """Read one equipment name from the game system's shared profiles into `found` (a profile in
    `found` or in the unit's `listed` equipment wins); False when it is none."""
    name, aim = name_and_aim(text)
    if name in ARMOUR:
        found.armour.setdefault(name, ARMOUR[name])
    elif name in MELEE:
        found.melee.setdefault(name, None)
    elif name in RANGED or (aim is not None and not SAVE.match(key_of(text))):
        # a weapon and its Aim; a profile in the list wins over the game system's shared one
        known = found.ranged.get(name) or (listed.ranged.get(name) if listed else None)
        stats = known[2] if known and known[2] else RANGED.get(name)
        found.ranged[name] = (label_of(text), aim if aim is not None else known and known[1], stats)
    else:
        return False
    return True


class Reading:
    """What each part of the importer's reader (`t9a._Reader`) holds: the unit's selection, its roster
    table and report, whether it is a ridden monster read alone, and its fighting part's raw values."""

    ridden = False  # a ridden monster whose rider has no profile in the list: the monster alone
    raw: dict[str, int]  # the Off and Str of the part that wields the unit's weapons, before they are bounded

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self.mapped = Mapped.priced(selection.name, selection.cost("pts"))

    def note(self, text: str, weapon: str | None = None, action: str = "imported without it") -> None:
        self.mapped.note(text, weapon, action)
