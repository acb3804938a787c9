"""Other games' words for our options: a player used to Warhammer's profiles types `--toughness` on a
9th Age query, or `--tsknf` on an Epic assault; the refusal then names the option this game calls it
(`hint`). The table is the library's (both shells refuse with it); each entry is a rulebook's term
and the options of ours that mean it.
"""

from __future__ import annotations

from typing import Callable, Collection, Sequence

# game (a query path's first word) → another game's word (as an option, without dashes) → (the term, our options)
OTHER_WORDS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "t9a": {
        "toughness": ("Toughness", ("resilience",)),
        "t": ("Toughness", ("resilience",)),
        "weapon-skill": ("Weapon Skill", ("offensive", "defensive")),
        "ws": ("Weapon Skill", ("offensive", "defensive")),
        "ballistic-skill": ("Ballistic Skill", ("aim",)),
        "bs": ("Ballistic Skill", ("aim",)),
        "initiative": ("Initiative", ("agility",)),
        "leadership": ("Leadership", ("discipline",)),
        "ld": ("Leadership", ("discipline",)),
        "wounds": ("Wounds", ("health",)),
        "ward-save": ("a ward save", ("aegis",)),
        "ward": ("a ward save", ("aegis",)),
        "regeneration": ("Regeneration", ("fortitude",)),
        "regen": ("Regeneration", ("fortitude",)),
        "armour-save": ("an armour save", ("armour",)),
        "armor": ("armour", ("armour",)),
        "rend": ("Rend", ("ap",)),
        "armour-piercing": ("Armour Piercing", ("ap",)),
        "lance": ("a Lance", ("charge-strength", "charge-ap")),
        "killing-blow": ("Killing Blow", ("lethal-strike",)),
        "poisoned-attacks": ("Poisoned Attacks", ("poison",)),
        "always-strikes-first": ("Always Strikes First", ("lightning-reflexes",)),
        "unit-strength": ("Unit Strength", ("models",)),
        "frontage": ("a frontage", ("width",)),
    },
    "epic": {
        "tsknf": ("They Shall Know No Fear", ("know-no-fear",)),
        "they-shall-know-no-fear": ("They Shall Know No Fear", ("know-no-fear",)),
        "close-combat": ("Close Combat", ("cc",)),
        "firefight": ("Firefight", ("ff",)),
        "save": ("a save", ("armour",)),
        "armor": ("armour", ("armour",)),
        "dc": ("Damage Capacity", ("damage-capacity",)),
        "void-shields": ("void shields", ("shields",)),
        "bm": ("blast markers", ("blast-markers",)),
        "titan-killer": ("Titan Killer", ("weapon", "extra-ability")),
        "macro-weapon": ("a macro-weapon", ("weapon", "extra-ability")),
        "mw": ("a macro-weapon", ("mw-shots", "weapon", "extra-ability")),
    },
    "dust": {
        "shots": ("shots", ("dice",)),
        "cover": ("cover", ("save",)),
        "armour": ("armour", ("save", "resilient")),
        "armor": ("armour", ("save", "resilient")),
        "wounds": ("wounds", ("health",)),
    },
}

ENEMY = "enemy-"


def hint(option: str, path: str, own: Collection[str], owners: Callable[[str], Sequence[str]]) -> str | None:
    """What the game of the query `path` ("t9a combat") calls another game's `option` (`--toughness`,
    `--enemy-toughness`): its options of that meaning among `own` (the query's), else the queries that have them
    (`owners(option)`); None where the word is no other game's."""
    word = option.lstrip("-").casefold()
    enemy = word.startswith(ENEMY)
    found = OTHER_WORDS.get(path.split()[0] if path else "", {}).get(word.removeprefix(ENEMY))
    if found is None:
        return None
    term, ours = found
    named = [f"--{ENEMY if enemy else ''}{name}" for name in ours]
    here = [name for name in named if name in own]
    if here:
        return f"{term} is {' or '.join(here)} here"
    elsewhere = sorted({query for name in named for query in owners(name)})
    return f"{term} is {' or '.join(named)}" + (f" (in {', '.join(elsewhere)})" if elsewhere else "")
