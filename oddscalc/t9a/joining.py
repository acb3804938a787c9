"""The 9th Age: a character of an imported list joined to one of its units (`import LIST --join CHARACTER=UNIT`;
docs/rules.md §3.11, Characters): the character's roster entry becomes the unit's `character` (its profile as
`t9a combat --character` reads it) and `character_mount`, its points are added to the unit's, and what the
profile cannot carry (a Lance's charge bonus, Impact Hits, a shooting weapon) is said in a note."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import require
from .profiles import ATTRIBUTES, FLAGS, read_character

JOIN_FORM = "expected CHARACTER=UNIT: a character of the list (one model) and the unit it joins, by their names"


def join_characters(data: dict[str, Any], joins: Sequence[str]) -> list[str]:
    """Join each `CHARACTER=UNIT` of `joins` in the roster `data` (changed in place); the notes to print."""
    notes: list[str] = []
    for text in joins:
        require(data.get("game") == "t9a", "join", text, "only a 9th Age list's characters join its units")
        name, sep, unit_name = (part.strip() for part in str(text).partition("="))
        require(bool(sep and name and unit_name), "join", text, JOIN_FORM)
        hero, unit = (_named(data, each, text) for each in (name, unit_name))
        require(hero is not unit, "join", text, "a character joins another unit of the list")
        require(hero["models"] == 1, "join", text, f"{name!r} has {hero['models']} models: a character is one")
        require(unit.get("character") is None, "join", text, f"{unit_name!r} has a character already: one a unit")
        missing = [field for field in ("attack_value", "agility") if hero.get(field) is None]
        require(not missing, "join", text, f"{name!r} cannot fight a round of combat (no {', '.join(missing)})")
        unit["character"] = _profile(hero)
        read_character(unit["character"], "join")  # what the combat reads: refused here, in one line, if not
        if hero.get("mount") is not None:
            unit["character_mount"] = hero["mount"]
        unit["points"] = unit.get("points", 0) + hero.get("points", 0)
        data["unit"].remove(hero)
        lost = [what for field, what in (("charge_strength", "its charge bonus (a Lance)"),
                                         ("charge_ap", "its charge bonus (a Lance)"),
                                         ("charge_attacks", "its charge bonus"), ("impact_hits", "its Impact Hits"),
                                         ("stomp", "its Stomp Attacks")) if hero.get(field)]
        lost += ["its shooting"] if any(weapon["kind"] == "shooting" for weapon in hero.get("weapon", ())) else []
        notes.append(f"{name} joins {unit_name} (its points {unit['points']} together)"
                     + (f"; not carried: {', '.join(dict.fromkeys(lost))}" if lost else ""))
    return notes


def _named(data: dict[str, Any], name: str, text: str) -> dict[str, Any]:
    found = [unit for unit in data["unit"] if unit["name"] == name]
    names = ", ".join(unit["name"] for unit in data["unit"])
    require(len(found) == 1, "join", text, f"{'several units' if found else 'no unit'} named {name!r} in the list "
                                            f"({names})")
    chosen: dict[str, Any] = found[0]
    return chosen


def _profile(hero: dict[str, Any]) -> str:
    """A character's roster entry as a --character PROFILE: its characteristics, its first melee attack's
    Offensive Skill, Strength, AP, attributes and Multiple Wounds, its flags; a Standard Bearer is the Battle
    Standard Bearer."""
    melee: dict[str, Any] = next((weapon for weapon in hero.get("weapon", ()) if weapon["kind"] == "melee"), {})
    words = [f"attacks {hero['attack_value']}", f"offensive {melee.get('offensive') or hero['offensive']}",
             f"defensive {hero['defensive']}", f"strength {melee.get('strength') or hero['strength']}",
             f"resilience {hero['resilience']}", f"agility {hero['agility']}", f"health {hero.get('health', 1)}"]
    words += [f"{field} {hero[field]}" for field in ("discipline", "armour") if hero.get(field)]
    words += [f"ap {melee['ap']}"] if melee.get("ap") else []
    words += [f"{field} {hero[field]}+" for field in ("aegis", "fortitude") if hero.get(field)]
    words += [f"multiple-wounds {melee['multiple_wounds']}"] if melee.get("multiple_wounds") else []
    words += [word for word, field in FLAGS.items() if hero.get(field)]
    words += [word for word in melee.get("attributes", ()) if word in ATTRIBUTES]
    words += ["battle-standard"] if hero.get("standard") else []
    return " ".join(words)
