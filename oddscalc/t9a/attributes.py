"""The 9th Age attack attributes and the target's profile (docs/rules.md §3.5–§3.8): the options every
attack sequence shares (Strength, AP, Battle Focus, Poison, Lethal Strike ..., the target's Resilience, Armour,
special saves, Health Points and models, the re-rolls), their checks, their words in a description, and what a
wound goes through. The attacks that roll them, melee, shooting and automatic hits, are `attacks.py`'s.
"""

from __future__ import annotations


from ..core.attack import Attack, option
from ..core.dice import Check, DiceExpression, Natural
from ..errors import InputError, choose, require
from ..output.style import plural
from .stages import Reroll, WoundSaves, armour_need, read_armour, special_save, wound_need
from ..core.record import record

MAX_CHARACTERISTIC = 10
MAX_ARMOUR = 6
MAX_HEALTH = 20
MAX_MODELS = 500
MAX_MULTIPLE_WOUNDS_DICE = 3
TOXIC_STRENGTH, TOXIC_AP = 3, 10  # §3.8 Toxic Attacks
LETHAL_AP = 10  # §3.8 Lethal Strike


GAME_DICE = (3, 6)  # The 9th Age rolls D6 and D3 (a D3 is a halved D6): no other die


def game_dice(value: DiceExpression | str | int, name: str) -> DiceExpression:
    """A number or dice expression of the game: D6 and D3 only (`2d10` is refused in one line)."""
    expression = value if isinstance(value, DiceExpression) else DiceExpression.parse(str(value), name)
    require(not expression.count or expression.sides in GAME_DICE, name, value,
            "The 9th Age rolls D6 and D3 only: expected dice like 2d6, d3+1 or a number")
    return expression


def checked_dice(value: DiceExpression | str | int) -> DiceExpression:
    """A dice option as an attack's `check` leaves it: read into dice (a number or text only before)."""
    assert isinstance(value, DiceExpression), value  # check() stores game_dice(value) in the field
    return value


def check_characteristic(value: int, name: str, what: str) -> None:
    """Refuse a characteristic (Strength, Resilience, a Skill) outside 1 to 10 in one line."""
    require(1 <= value <= MAX_CHARACTERISTIC, name, value, f"expected {what}, 1 to {MAX_CHARACTERISTIC}")


@record(kw_only=True)
class Attributes(Attack):
    """What every attack sequence is asked (§3.5–§3.8): the attack's Strength, AP and attack attributes, the
    target's profile and saves, the re-rolls; melee, shooting and automatic hits add their count and to-hit roll.

    `armour` is the target's Armour value (0 to 6: Armour 2 saves on 5+), `ap` the
    attack's Armour Penetration, `aegis` and `fortitude` the special saves (4 for 4+).
    `multiple_wounds` is Multiple Wounds (X), X a number or dice (`d3`, `d3+1`), and
    needs `health`. `health` is each model's Health Points (1 when not given); `models`
    the models in the unit (needs `health`), which adds the outcome `kills` and caps
    `health_lost` at models × health. Toxic Attacks have Strength 3 and AP 10: leave
    `strength` and `ap` out. `flammable` (the target) re-rolls failed wounds of
    Flaming Attacks.
    """

    resilience: int = option("The target's Resilience, 1 to 10.", metavar="R")
    strength: int | None = option("The attack's Strength, 1 to 10 (required unless --toxic).", None, metavar="S")
    armour: int = option("The target's Armour, 0 to 6 (Armour 2 saves on 5+), or the save it gives: 5+ is Armour 2. "
                         "The save needs 7 - (A - AP), at best 2+; none when A - AP <= 0; a natural 1 fails.", 0,
                         metavar="A", reader=read_armour)
    ap: int = option("Armour Penetration, 0 to 10.", 0, metavar="P")
    aegis: int | None = option("Aegis save X+ (2+ to 6+), after a failed armour save.", None, roll=True)
    fortitude: int | None = option(
        "Fortitude save X+ (2+ to 6+), after a failed armour save; not against --flaming nor a Lethal Strike wound. "
        "With both, each wound takes the one more likely to save (Divine counted).", None, roll=True)
    battle_focus: bool = option("Battle Focus: a natural 6 to hit is one extra hit.", False)
    poison: bool = option("Poison Attacks: a natural 6 to hit wounds without a roll (with --battle-focus, one of "
                          "the two hits; the other rolls to wound).", False)
    lethal_strike: bool = option("Lethal Strike: a natural 6 to wound has AP 10 (no armour save) and ignores "
                                 "Fortitude. Poison's wounds rolled no wound, so are never lethal.", False)
    divine: bool = option("Divine Attacks: a successful Aegis save is re-rolled.", False)
    auto_wound: bool = option("Every hit wounds without a roll (\"wound automatically\"): no Lethal Strike, no "
                              "to-wound re-roll.", False)
    flaming: bool = option("Flaming Attacks: no Fortitude save.", False)
    flammable: bool = option("The target is Flammable: Flaming Attacks re-roll failed wounds (no effect without "
                             "--flaming).", False)
    toxic: bool = option("Toxic Attacks: always Strength 3 and AP 10 (leave --strength and --ap out).", False)
    reroll_hits: Reroll = option("'failed' re-rolls failed to-hit rolls (Hatred), 'ones' only natural 1s, "
                                 "'successes' every successful one (a forced re-roll); each die once.", Reroll.NONE)
    reroll_wounds: Reroll = option("'failed' re-rolls failed to-wound rolls, 'ones' only natural 1s, 'successes' "
                                   "every successful one (a forced re-roll); each die once.", Reroll.NONE)
    reroll_armour: Reroll = option("The target re-rolls its failed armour saves ('failed'), only 1s ('ones'), or must "
                                   "re-roll its successful ones ('successes'); each die once.", Reroll.NONE)
    reroll_special: Reroll = option("The same for the target's special save (Aegis or Fortitude); not with "
                                    "--divine, whose own re-roll it would be.", Reroll.NONE)
    multiple_wounds: DiceExpression | str | int | None = option(
        "Multiple Wounds (X): each unsaved wound becomes X wounds (2, d3, d3+1, d6: rolled per wound), capped at "
        "--health, which it needs.", None, metavar="X",
        reader=lambda text: game_dice(text, "multiple_wounds"))
    health: int | None = option("Each target model's Health Points, 1 to 20 (default 1).", None, metavar="H")
    models: int | None = option("Models in the target unit, 1 to 500 (needs --health): adds the outcome kills, "
                                "and caps health_lost at M x H.", None, metavar="M")

    def check(self) -> None:
        object.__setattr__(self, "armour", read_armour(self.armour))
        if self.toxic:
            allowed = "Toxic Attacks always have Strength 3 and AP 10: leave --strength and --ap out"
            require(self.strength is None, "strength", self.strength, allowed)
            require(self.ap == 0, "ap", self.ap, allowed)
        elif self.strength is None:
            raise InputError("strength", None,
                             f"is required: the attack's Strength, 1 to {MAX_CHARACTERISTIC} (or --toxic)")
        else:
            check_characteristic(self.strength, "strength", "the attack's Strength")
        check_characteristic(self.resilience, "resilience", "the target's Resilience")
        require(0 <= self.armour <= MAX_ARMOUR, "armour", self.armour,
                f"expected the target's Armour, 0 to {MAX_ARMOUR} (Armour 2 saves on 5+)")
        require(0 <= self.ap <= MAX_CHARACTERISTIC, "ap", self.ap,
                f"expected the attack's Armour Penetration, 0 to {MAX_CHARACTERISTIC}")
        for name in ("aegis", "fortitude"):
            value = getattr(self, name)
            require(value is None or 2 <= value <= 6, name, value, "expected a special save from 2+ to 6+")
        for name in ("reroll_hits", "reroll_wounds", "reroll_armour", "reroll_special"):
            choose(self, name, Reroll)
        if self.auto_wound:
            for name in ("lethal_strike", "flammable"):
                require(not getattr(self, name), name, None, "needs a to-wound roll: --auto-wound rolls none")
            require(self.reroll_wounds is Reroll.NONE, "reroll_wounds", self.reroll_wounds.value,
                    "needs a to-wound roll: --auto-wound rolls none")
        require(not (self.divine and self.reroll_special is not Reroll.NONE), "reroll_special",
                self.reroll_special.value, "not with --divine: a die is re-rolled once, and Divine re-rolls an Aegis "
                                           "save already")
        require(self.reroll_special is Reroll.NONE or self.aegis is not None or self.fortitude is not None,
                "reroll_special", self.reroll_special.value, "needs the target's special save: --aegis X+ or "
                                                             "--fortitude X+")
        require(self.health is None or 1 <= self.health <= MAX_HEALTH, "health", self.health,
                f"expected each model's Health Points, 1 to {MAX_HEALTH}")
        require(self.models is None or 1 <= self.models <= MAX_MODELS, "models", self.models,
                f"expected 1 to {MAX_MODELS} models")
        require(self.models is None or self.health is not None, "models", self.models,
                "needs --health H, each model's Health Points")
        if self.multiple_wounds is not None:
            multiple = game_dice(self.multiple_wounds, "multiple_wounds")
            allowed = f"expected Multiple Wounds like 2, d3, d3+1 or 2d6 (at most {MAX_MULTIPLE_WOUNDS_DICE} dice)"
            require(multiple.count <= MAX_MULTIPLE_WOUNDS_DICE and multiple.highest >= 1, "multiple_wounds",
                    self.multiple_wounds, allowed)
            require(self.health is not None, "multiple_wounds", self.multiple_wounds,
                    "needs --health H: Multiple Wounds is capped at the target's Health Points")
            object.__setattr__(self, "multiple_wounds", multiple)

    @property
    def outcomes(self) -> tuple[str, ...]:
        names = ("health_lost", "hits", "wounds", "unsaved")
        return names + ("kills",) if self.models is not None else names

    def _defence(self) -> str:
        """The wound, saves and target part of a description."""
        strength = "Toxic" if self.toxic else f"S {self.strength}"
        words = [f"{strength} vs R {self.resilience}", f"Armour {self.armour}" + (f" AP {self.ap}" if self.ap else "")]
        words += [f"{name.capitalize()} {getattr(self, name)}+" for name in ("aegis", "fortitude")
                  if getattr(self, name) is not None]
        words += self.flags("battle_focus", "poison", "lethal_strike", "divine", "flaming", "flammable", "auto_wound")
        words += [reroll.words(roll) for roll, reroll in (
            ("to hit", self.reroll_hits), ("to wound", self.reroll_wounds), ("armour saves", self.reroll_armour),
            ("special saves", self.reroll_special)) if reroll is not Reroll.NONE]
        words += [f"Multiple Wounds ({self.multiple_wounds})"] if self.multiple_wounds is not None else []
        if self.models is not None:
            words.append(f"{plural(self.models, 'model')} of {self.health_points} HP")
        elif self.health is not None:
            words.append(f"{self.health} HP")
        return ", ".join(words)

    @property
    def health_points(self) -> int:
        return self.health if self.health is not None else 1

    @property
    def multiple(self) -> DiceExpression | None:
        """Multiple Wounds (X) as dice, or None."""
        return None if self.multiple_wounds is None else checked_dice(self.multiple_wounds)

    @property
    def wound_strength(self) -> int:
        """The Strength it wounds with: its own, or Toxic Attacks' 3 (§3.8)."""
        if self.toxic:
            return TOXIC_STRENGTH
        assert self.strength is not None  # check() refuses an attack without a Strength unless it is Toxic
        return self.strength

    @property
    def wound_check(self) -> Check:
        return Check(wound_need(self.wound_strength, self.resilience), Natural.ONE_AND_SIX)  # §3.5

    @property
    def wound_reroll(self) -> Reroll:
        """Which wounds are re-rolled: as asked, and every failed one with Flaming Attacks against a
        Flammable target (§3.8)."""
        return Reroll.FAILED if self.flaming and self.flammable else self.reroll_wounds

    def wound_saves(self, lethal: bool) -> WoundSaves:
        """What an ordinary (or a Lethal Strike) wound goes through."""
        ap = LETHAL_AP if lethal else TOXIC_AP if self.toxic else self.ap  # §3.8 Lethal Strike, Toxic Attacks
        need = armour_need(self.armour, ap)
        armour = Check(need, Natural.SAVE) if need is not None else None
        fortitude_allowed = not (lethal or self.flaming)  # §3.7
        special = special_save(self.aegis, self.fortitude, self.divine, fortitude_allowed)
        return WoundSaves(armour, special, self.divine, self.multiple, self.health_points, self.reroll_armour,
                          self.reroll_special)
