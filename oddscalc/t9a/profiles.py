"""The 9th Age: the profiles a `t9a combat` option reads in one value: a mount's model part (`--mount 'A1 O3 S3
I3'`) and a character joined to a unit (`--character 'attacks 3 offensive 5 … health 2'`: the query's own option
names without dashes, or the short form `A3 O5 D5 S4 R4 I5 H2`; docs/rules.md §3.11, Characters)."""

from __future__ import annotations

import re
from dataclasses import replace

from ..errors import InputError, require
from .attributes import game_dice
from .fighter import MAX_HEALTH, Fighter, Part
from .stages import read_armour
from ..core.record import record

PART_BOUNDS = {"a": ("Attack Value", 1), "o": ("Offensive Skill", 1), "s": ("Strength", 1), "i": ("Agility", 0),
               "ap": ("Armour Penetration", 0)}
MOUNT_EXAMPLE = ("a mount's profile like 'A1 O3 S3 I3': its Attack Value, Offensive Skill, Strength and Agility (I), "
                 "0 or 1 to 10, then AP<n> and harnessed if it has them")
MOUNT_FORM = f"expected {MOUNT_EXAMPLE}"


def read_part(text: Part | str, name: str) -> Part:
    """A mount's close combat profile from `A1 O3 S3 I3 [AP1] [harnessed]` (its order free), or a one-line
    error naming `name`."""
    if isinstance(text, Part):
        return text
    values: dict[str, int] = {}
    harnessed = False
    for token in str(text).replace(",", " ").lower().split():
        if token == "harnessed":
            harnessed = True
            continue
        found = re.fullmatch(r"(ap|agi|a|o|s|i)(\d+)", token, re.ASCII)
        if found is None:
            raise InputError(name, text, MOUNT_FORM)
        key = "i" if found.group(1) == "agi" else found.group(1)
        require(key not in values, name, text, f"{key.upper()} is given twice: each once, in {MOUNT_EXAMPLE}")
        what, low = PART_BOUNDS[key]
        require(low <= int(found.group(2)) <= 10, name, text, f"expected {what} {low} to 10 in {MOUNT_EXAMPLE}")
        values[key] = int(found.group(2))
    require(all(key in values for key in "aosi"), name, text, MOUNT_FORM)
    return Part(attacks=values["a"], offensive=values["o"], strength=values["s"], agility=values["i"],
                ap=values.get("ap", 0), harnessed=harnessed)


# a character's numbers: its key, (the short form's letter, the lowest, the highest); the required ones first
NUMBERS = {"attacks": ("a", 1, 10), "offensive": ("o", 1, 10), "defensive": ("d", 1, 10), "strength": ("s", 1, 10),
           "resilience": ("r", 1, 10), "agility": ("i", 0, 10), "health": ("h", 1, MAX_HEALTH),
           "discipline": ("v", 2, 10), "armour": ("", 0, 6), "ap": ("ap", 0, 10), "aegis": ("", 2, 6),
           "fortitude": ("", 2, 6)}
REQUIRED = ("attacks", "offensive", "defensive", "strength", "resilience", "agility")
ROLLS = ("aegis", "fortitude")  # written X+
FLAGS = {"great-weapon": "great_weapon", "lightning-reflexes": "lightning_reflexes", "parry": "parry",
         "distracting": "distracting", "stubborn": "stubborn", "flammable": "flammable"}
ATTRIBUTES = ("battle-focus", "poison", "lethal-strike", "divine", "flaming", "toxic", "auto-wound", "hatred",
              "ignores-parry")
CHARACTER_FORM = ("expected a character's profile like 'attacks 3 offensive 5 defensive 5 strength 4 resilience 4 "
                  "agility 5 health 2' (or 'A3 O5 D5 S4 R4 I5 H2'), each once: then discipline, armour, ap, aegis X+, "
                  "fortitude X+, multiple-wounds X and the words " + ", ".join((*FLAGS, *ATTRIBUTES, "battle-standard")))
SHORT = {letter: key for key, (letter, _, _) in NUMBERS.items() if letter}


@record
class Hero:
    """A character joined to a unit: its profile (a Fighter of one model) and whether it is the Battle Standard
    Bearer (+1 combat score, a failed Break Test re-rolled)."""

    fighter: Fighter
    battle_standard: bool = False

    def __str__(self) -> str:
        """As --character reads it: the long form."""
        hero = self.fighter
        words = [f"{key} {getattr(hero, key)}" for key in (*REQUIRED, "health")]
        words += [f"discipline {hero.discipline}"] if hero.discipline else []
        words += [f"armour {hero.armour}"] if hero.armour else []
        words += [f"ap {hero.ap}"] if hero.ap else []
        words += [f"{key} {getattr(hero, key)}+" for key in ROLLS if getattr(hero, key)]
        words += [f"multiple-wounds {hero.multiple_wounds}"] if hero.multiple_wounds is not None else []
        words += [word for word, name in FLAGS.items() if getattr(hero, name)]
        words += list(hero.attributes) + ["battle-standard"] * self.battle_standard
        return " ".join(words)


def read_character(text: Hero | str, name: str) -> Hero:
    """A character's profile (CLI.md: `t9a combat`'s option names without dashes, flags as bare words), or a
    one-line error naming `name`."""
    if isinstance(text, Hero):
        return text
    values, words = read_words(text, name, CHARACTER_FORM, {*NUMBERS, "multiple-wounds"},
                               {*FLAGS, *ATTRIBUTES, "battle-standard"}, SHORT)
    require(all(key in values for key in REQUIRED), name, text, CHARACTER_FORM)
    numbers = {key: _number(key, str(values[key]), name, text) for key in NUMBERS if key in values}
    wounds = values.get("multiple-wounds")
    fighter = Fighter(models=1, width=1, health=numbers.get("health", 1), attacks=numbers["attacks"],
                      offensive=numbers["offensive"], defensive=numbers["defensive"], strength=numbers["strength"],
                      resilience=numbers["resilience"], agility=numbers["agility"],
                      discipline=numbers.get("discipline", 0), armour=numbers.get("armour", 0),
                      ap=numbers.get("ap", 0), aegis=numbers.get("aegis"), fortitude=numbers.get("fortitude"),
                      multiple_wounds=None if wounds is None else game_dice(str(wounds), name),
                      attributes=tuple(word for word in words if word in ATTRIBUTES))
    fighter = replace(fighter, **{FLAGS[word]: True for word in words if word in FLAGS})  # type: ignore[arg-type]
    return Hero(fighter, "battle-standard" in words)


def read_words(text: object, name: str, form: str, valued: set[str], flags: set[str],
               short: dict[str, str] | None = None) -> tuple[dict[str, str], list[str]]:
    """A profile's words: `key value` pairs of `valued` keys (or the short form `A3`, by `short`'s letters), and
    bare `flags`, each once, or a one-line error naming `name` that says `form`."""
    tokens = str(text).replace(",", " ").lower().split()
    values: dict[str, str] = {}
    words: list[str] = []

    def have(key: str, value: str) -> None:
        require(key not in values, name, text, form)
        values[key] = value

    while tokens:
        token = tokens.pop(0)
        found = re.fullmatch(r"(ap|agi|[a-z])(\d+)", token, re.ASCII) if short else None
        if found is not None and (found.group(1) in short or found.group(1) == "agi"):  # type: ignore[operator]
            have(short.get(found.group(1), "agility"), found.group(2))  # type: ignore[union-attr]
        elif token in valued:
            require(bool(tokens), name, text, form)
            have(token, tokens.pop(0))
        elif token in flags:
            require(token not in words, name, text, form)
            words.append(token)
        else:
            raise InputError(name, text, form)
    return values, words


def _number(key: str, value: str, name: str, text: object) -> int:
    """A number of a character's profile within its bounds (`read_number`)."""
    _, low, high = NUMBERS[key]
    return read_number(key, value, name, text, low, high, CHARACTER_FORM)


def read_number(key: str, value: str, name: str, text: object, low: int, high: int, form: str) -> int:
    """A number of a profile (`text`, the option `name`'s) within its bounds: Armour as a value or the save it
    gives, Aegis and Fortitude as X+; a one-line error that says `form` (an "expected …" sentence)."""
    what = f"expected {key} {low}{'+' if key in ROLLS else ''} to {high}{'+' if key in ROLLS else ''}"
    if key == "armour":
        number = read_armour(value, name)
    else:
        cleaned = value[:-1] if key in ROLLS and value.endswith("+") else value
        require(re.fullmatch(r"\d+", cleaned, re.ASCII) is not None, name, text, f"{what} in {form[9:]}")
        number = int(cleaned)
    require(low <= number <= high, name, text, f"{what} in {form[9:]}")
    return number
