"""The 9th Age: another unit of the charger's in the same combat (`t9a combat --with-unit PROFILE`, repeatable;
docs/rules.md §3.11, Several units): a whole unit as this query's own option names write it, without dashes,
and where it strikes the charged unit: `'models 5 width 5 attacks 1 offensive 3 defensive 3 strength 3
resilience 3 agility 3 discipline 7 facing flank'`, and after the word `character` the character joined to it, if one is, as
`--character` writes it (`'… facing flank character attacks 3 offensive 5 …'`)."""

from __future__ import annotations

from dataclasses import replace

from ..errors import InputError, require
from .attributes import game_dice
from .fight import Ally
from .fighter import MAX_HEALTH, MAX_IMPACT, MAX_MODELS, MAX_WIDTH, Fighter, Height
from .profiles import CHARACTER_FORM, Hero, read_character, read_number, read_words
from ..core.record import record

MAX_ALLIES = 2  # the charger's other units in one combat, at most
NUMBERS = {"models": (1, MAX_MODELS), "width": (1, MAX_WIDTH), "health": (1, MAX_HEALTH), "attacks": (1, 10),
           "offensive": (1, 10), "defensive": (1, 10), "strength": (1, 10), "resilience": (1, 10),
           "agility": (0, 10), "discipline": (2, 10), "armour": (0, 6), "ap": (0, 10), "aegis": (2, 6),
           "extra-ranks": (0, 2), "charge-attacks": (0, 2), "charge-strength": (0, 3), "charge-ap": (0, 3)}
REQUIRED = ("models", "width", "attacks", "offensive", "defensive", "strength", "resilience", "agility",
            "discipline", "facing")
FLAGS = ("standard", "swiftstride", "great-weapon", "lightning-reflexes", "spear", "stubborn", "unbreakable",
         "cannot-be-stomped")
FACINGS = ("flank", "rear", "front")  # front: beside the main unit, sharing the enemy's front rank
UNIT_FORM = ("expected a unit like 'models 5 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 "
             "agility 3 discipline 7 facing flank' (facing flank, rear or front; each key once): then health, armour, ap, "
             "aegis X+, extra-ranks, charge-attacks, charge-strength, charge-ap, impact-hits X, stomp X, height and "
             "the words " + ", ".join(FLAGS) + "; then, after the word character, its character's profile")


@record
class WithUnit:
    """A --with-unit: the unit, where it strikes the charged unit, and its character."""

    fighter: Fighter
    facing: str
    hero: Hero | None = None

    @property
    def ally(self) -> Ally:
        hero = self.hero
        return Ally(self.fighter, self.facing, None if hero is None else hero.fighter,
                    hero is not None and hero.battle_standard)

    def __str__(self) -> str:
        """As --with-unit reads it."""
        unit = self.fighter
        words = [f"{key} {getattr(unit, key)}" for key in REQUIRED[:-1]]
        words += [f"{key} {getattr(unit, key)}" for key in ("health", "armour", "ap") if getattr(unit, key)
                  and not (key == "health" and unit.health == 1)]
        words += [f"aegis {unit.aegis}+"] if unit.aegis else []
        words += [f"extra-ranks {unit.extra_ranks}"] if unit.extra_ranks else []
        words += [f"charge-{what} {bonus}" for what, bonus in zip(("attacks", "strength", "ap"), unit.charge) if bonus]
        words += [f"{key} {dice}" for key, dice in (("impact-hits", unit.impact), ("stomp", unit.stomp)) if dice]
        words += [f"height {unit.height.value}"] if unit.height is not Height.STANDARD else []
        words += [flag for flag in FLAGS if getattr(unit, flag.replace("-", "_"))]
        return " ".join(words + [f"facing {self.facing}"] + ([f"character {self.hero}"] if self.hero else []))


def read_ally(text: WithUnit | str, name: str = "with_unit") -> WithUnit:
    """A --with-unit PROFILE, or a one-line error naming `name` and the whole PROFILE as given."""
    if isinstance(text, WithUnit):
        return text
    try:
        return _read_ally(str(text), name)
    except InputError as refused:
        raise InputError(name, text, refused.allowed) from None


def _read_ally(text: str, name: str) -> WithUnit:
    tokens = str(text).replace(",", " ").split()
    split = [index for index, token in enumerate(tokens) if token.lower() == "character"]
    require(len(split) <= 1, name, text, "expected one character a unit, after the word character")
    hero = None
    if split:
        at = split[0]
        require(at + 1 < len(tokens), name, text, f"expected the character's profile after the word character: "
                                                  f"{CHARACTER_FORM[9:]}")
        hero = read_character(" ".join(tokens[at + 1:]), name)
        text = " ".join(tokens[:at])
    values, words = read_words(text, name, UNIT_FORM, {*NUMBERS, "facing", "height", "impact-hits", "stomp"},
                               set(FLAGS))
    require(all(key in values for key in REQUIRED), name, text, UNIT_FORM)
    require(values["facing"] in FACINGS, name, text, f"expected facing flank, rear or front (the main unit's is --flank "
                                                      f"or --rear, else front) in {UNIT_FORM[9:]}")
    require(values.get("height", "standard") in {height.value for height in Height}, name, text,
            f"expected height standard, large or gigantic in {UNIT_FORM[9:]}")
    numbers = {key: read_number(key, values[key], name, text, low, high, UNIT_FORM)
               for key, (low, high) in NUMBERS.items() if key in values}
    require(numbers["width"] <= numbers["models"], name, text, "expected a front rank (width) no wider than its models")
    dice = {key: game_dice(values[key], name) for key in ("impact-hits", "stomp") if key in values}
    for key, each in dice.items():  # as t9a combat's own --impact-hits and --stomp: what t9a hits takes in all
        require(1 <= each.highest and each.highest * numbers["width"] <= MAX_IMPACT, name, text,
                f"expected {key} that can reach 1 to {MAX_IMPACT // numbers['width']} a model ({numbers['width']} in "
                f"the front rank: {MAX_IMPACT} hits at most)")
    fighter = Fighter(models=numbers["models"], width=numbers["width"], health=numbers.get("health", 1),
                      attacks=numbers["attacks"], offensive=numbers["offensive"], defensive=numbers["defensive"],
                      strength=numbers["strength"], resilience=numbers["resilience"], agility=numbers["agility"],
                      discipline=numbers["discipline"], armour=numbers.get("armour", 0), ap=numbers.get("ap", 0),
                      aegis=numbers.get("aegis"), extra_ranks=numbers.get("extra-ranks", 0),
                      charge=(numbers.get("charge-attacks", 0), numbers.get("charge-strength", 0),
                              numbers.get("charge-ap", 0)),
                      impact=dice.get("impact-hits"), stomp=dice.get("stomp"),
                      height=Height(values.get("height", "standard")))
    fighter = replace(fighter, **{flag.replace("-", "_"): True for flag in words})  # type: ignore[arg-type]
    require(not (fighter.great_weapon and fighter.spear), name, text, "a model fights with one weapon: great-weapon "
                                                                       "or spear")
    return WithUnit(fighter, values["facing"], hero)


def check_side(allies: tuple[WithUnit, ...], main_facings: list[str], main_hero: Hero | None, name: str,
               whose: str) -> None:
    """A side's other units (the option `name`), or a one-line error: at most MAX_ALLIES, one on each flank and the
    rear of the main unit they touch (`main_facings`: the main unit's own, in the enemy's flank or rear) and one
    beside it on its front, one Battle Standard Bearer a side (the main unit's character's `main_hero` too)."""
    last = str(allies[-1]) if allies else ""
    require(len(allies) <= MAX_ALLIES, name, last, f"expected at most {MAX_ALLIES} other units of {whose}")
    facings = [ally.facing for ally in allies] + main_facings
    require(facings.count("flank") <= 2 and facings.count("rear") <= 1 and facings.count("front") <= 1, name, last,
            "a unit has two flanks and one rear: one unit on each, and one more beside the main unit")
    bearers = [ally for ally in allies if ally.hero is not None and ally.hero.battle_standard]
    require(len(bearers) + bool(main_hero is not None and main_hero.battle_standard) <= 1, name,
            str(bearers[-1]) if bearers else "", f"an army has one Battle Standard Bearer: battle-standard on one of "
                                                 f"{whose} characters")
