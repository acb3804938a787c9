"""A kind of units on one side of an Epic Armageddon engagement (docs/rules.md §2.9): how many, their CC, FF
and saves, how many fight in base contact, their extra attacks and their weapon, or war engines of one damage
capacity (3.3); read from `--other '2 cc 6+ ff 5+ armour 5+'` and a roster's `assault` list, and written back."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from ..errors import InputError, once
from .saves import Ability
from .war_engines import Critical, tk_damage
from ..core.record import record

Strike = tuple[Any, Any]  # how an attack's hits are saved: (Ability, a titan killer's D-value or None)
NORMAL: Strike = (Ability.NORMAL, None)

MAX_UNITS = 60  # a kind's units in an engagement (a company of Epic units is 10 to 30)
MAX_CAPACITY = 20  # a war engine's damage capacity (as --damage-capacity of a shooting attack)
MAX_EXTRA = 3
MAX_PIECES = 8  # kinds, and war engines one by one, on one side


class ExtraAt(str, Enum):
    """Which value a unit's extra attacks roll against (2.2.3; rules §2.9, an open reading)."""

    OWN = "own"  # the unit's own attack's: CC in base contact, FF apart (oddscalc's reading)
    CC = "cc"  # close combat always: an assault weapon's extra attacks (only units in base contact make them)
    FF = "ff"  # firefight always: a small arms' extra attacks (only units out of base contact make them; a war
    #            engine in base contact too, 2.2.3)


KIND_ALLOWED = ("expected units of another profile: N [DC<d>] cc X+|none ff X+|none armour A+|none [in-contact K] "
                "[cover C+] [extra-attacks E] [extra-at own|cc|ff] [extra-ability macro|titan-killer] [tk-damage D] "
                "[cc-dice K] [critical C] [reinforced] [invulnerable] [fearless] [inspiring], like '2 cc 6+ ff 5+ "
                "armour 5+' (two Rhinos) or '1 DC3 cc 4+ ff 4+ armour 4+ reinforced' (a war engine)")
EXTRA_ABILITIES = (Ability.MACRO, Ability.TITAN_KILLER)


@record
class Kind:
    """Units of one profile on one side of an engagement; with `capacity`, war engines of that damage capacity."""

    count: int
    cc: int | None
    ff: int | None
    armour: int | None
    in_contact: int | None = None  # of the `count`, those in base contact (default: all)
    cover_save: int | None = None
    reinforced: bool = False
    invulnerable: bool = False
    fearless: bool = False
    extra_attacks: int = 0
    extra_at: ExtraAt = ExtraAt.OWN
    capacity: int | None = None  # a war engine's damage capacity (3.3)
    critical: Critical = Critical.NONE
    cc_dice: int | None = None  # a war engine's dice at CC, the rest at FF (3.3.2; default: all in contact, none apart)
    extra_ability: Ability = Ability.NORMAL  # its extra attacks' weapon: a macro-weapon or a titan killer (2.2.6, 2.2.9)
    tk_damage: str | None = None  # the titan killer's D-value against a war engine (d3, d6; default 1)
    inspiring: bool = False  # +1 to the result for each of its units left (2.1.5)

    @property
    def extra_strike(self) -> Strike:
        """How its extra attacks' hits are saved."""
        return (self.extra_ability, self.tk_damage if self.extra_ability is Ability.TITAN_KILLER else None)

    @property
    def contact(self) -> int:
        return self.count if self.in_contact is None else self.in_contact

    @property
    def engine(self) -> bool:
        return self.capacity is not None

    @classmethod
    def parse(cls, text: str, name: str = "other") -> Kind:
        """Read `2 cc 6+ ff 5+ armour 5+ reinforced` or `1 DC3 cc 4+ ff 4+ armour 4+ critical damage`."""
        from ..core.attack import is_whole

        words = str(text).replace("=", " ").split()
        if not words or not is_whole(words[0]):
            raise InputError(name, text, KIND_ALLOWED)
        values: dict[str, Any] = {"count": int(words[0])}
        rest = words[1:]
        capacity = re.fullmatch(r"dc([0-9]{1,2})", rest[0], re.IGNORECASE) if rest else None
        if capacity:
            values["capacity"] = int(capacity[1])
            rest.pop(0)
        seen: set[str] = set()
        while rest:
            word = rest.pop(0).casefold()
            once(word, seen, name, text)
            if word in ("reinforced", "invulnerable", "fearless", "inspiring"):
                values[word] = True
            elif word == "extra-ability" and rest and rest[0].casefold() in {"normal", "macro", "titan-killer"}:
                values["extra_ability"] = Ability(rest.pop(0).casefold())
            elif word == "tk-damage" and rest:
                try:
                    values["tk_damage"] = str(tk_damage(rest.pop(0), name))
                except InputError as error:
                    raise InputError(name, text, f"tk-damage: {error.allowed}") from None
            elif word in ("cc", "ff", "armour", "cover") and rest:
                value = rest.pop(0).casefold()
                roll = re.fullmatch(r"([2-6])\+?", value)
                if roll is None and not (value == "none" and word != "cover"):
                    raise InputError(name, text, f"expected {word} 2+ to 6+" + ("" if word == "cover" else ", or none"))
                values["cover_save" if word == "cover" else word] = int(roll[1]) if roll else None
            elif word in ("in-contact", "extra-attacks", "cc-dice") and rest and is_whole(rest[0]):
                values[word.replace("-", "_")] = int(rest.pop(0))
            elif word == "extra-at" and rest and rest[0].casefold() in {e.value for e in ExtraAt}:
                values["extra_at"] = ExtraAt(rest.pop(0).casefold())
            elif word == "critical" and rest and rest[0].casefold() in {c.value for c in Critical}:
                values["critical"] = Critical(rest.pop(0).casefold())
            else:
                raise InputError(name, text, KIND_ALLOWED)
        for needed in ("cc", "ff", "armour"):
            if needed not in values:
                raise InputError(name, text, f"needs {needed} (2+ to 6+, or none): " + KIND_ALLOWED[9:])
        kind = cls(**values)
        kind.check(name, text)
        return kind

    def check(self, name: str, text: Any) -> None:
        """Refuse a kind out of bounds, in one line naming `name`."""
        most = MAX_PIECES if self.engine else MAX_UNITS
        limits = [("count", self.count, 1, most), ("in-contact", self.contact, 0, self.count),
                  ("extra-attacks", self.extra_attacks, 0, MAX_EXTRA)]
        if self.capacity is not None:  # a war engine (`engine`)
            limits += [("damage capacity", self.capacity, 1, MAX_CAPACITY)]
            limits += [("cc-dice", self.cc_dice, 0, self.capacity)] if self.cc_dice is not None else []
        for what, value, low, high in limits:
            if not low <= value <= high:
                raise InputError(name, text, f"{what}: expected {low} to {high}")
        if not self.engine and (self.cc_dice is not None or self.critical is not Critical.NONE):
            raise InputError(name, text, "cc-dice and critical are a war engine's (DC<d>)")
        if self.extra_at is not ExtraAt.OWN and not self.extra_attacks:
            raise InputError(name, text, "extra-at only applies with extra-attacks E")
        if self.extra_ability is not Ability.NORMAL and not self.extra_attacks:
            raise InputError(name, text, "extra-ability only applies with extra-attacks E (2.2.6: a macro-weapon or "
                                         "titan killer attacks in an assault with its extra attacks only)")
        if self.extra_ability not in (Ability.NORMAL, *EXTRA_ABILITIES):
            raise InputError(name, text, "extra-ability: expected normal, macro or titan-killer")
        if self.tk_damage is not None and self.extra_ability is not Ability.TITAN_KILLER:
            raise InputError(name, text, "tk-damage only applies with extra-ability titan-killer")
        if self.tk_damage is not None:
            try:
                tk_damage(self.tk_damage, name)
            except InputError as error:
                raise InputError(name, text, f"tk-damage: {error.allowed}") from None

    def __str__(self) -> str:
        def value(v: int | None) -> str:
            return "none" if v is None else f"{v}+"

        words = [str(self.count)] + ([f"DC{self.capacity}"] if self.engine else [])
        words += [f"cc {value(self.cc)}", f"ff {value(self.ff)}", f"armour {value(self.armour)}"]
        words += [f"in-contact {self.contact}"] if self.contact != self.count else []
        words += [f"cover {self.cover_save}+"] if self.cover_save else []
        words += [f"extra-attacks {self.extra_attacks}"] if self.extra_attacks else []
        words += [f"extra-at {self.extra_at.value}"] if self.extra_at is not ExtraAt.OWN else []
        words += [f"extra-ability {self.extra_ability.value}"] if self.extra_ability is not Ability.NORMAL else []
        words += [f"tk-damage {self.tk_damage}"] if self.tk_damage is not None else []
        words += [f"cc-dice {self.cc_dice}"] if self.cc_dice is not None else []
        words += [f"critical {self.critical.value}"] if self.critical is not Critical.NONE else []
        words += [word for word, on in (("reinforced", self.reinforced), ("invulnerable", self.invulnerable),
                                        ("fearless", self.fearless), ("inspiring", self.inspiring)) if on]
        return " ".join(words)
