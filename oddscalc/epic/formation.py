"""Epic Armageddon: a side of an assault, declared once (`Formation`; the defender's, `Defender`, adds what only it
can have: a cover save, being broken). `Assault` has two of it, the attacker's options and the defender's as
`--enemy-…` (`core/attack.py:side`). Its saves, blast markers and critical hits are the `Defences` a shooting
attack's target has too (`defences.py`)."""

from __future__ import annotations


from ..core.attack import side_option
from ..core.dice import DiceExpression
from .defences import NOT_GIVEN, Covered, Defences
from .kinds import ExtraAt, Kind
from .saves import Ability
from .war_engines import tk_damage
from ..core.record import record


@record(kw_only=True)
class Formation(Defences):
    """One side of an Epic assault, declared once: its units and their values, its war engines and other kinds,
    its supporting fire."""

    units: int | None = side_option("{who}: its units in the assault (1 to 60): an engagement of both sides "
                                    "instead of the result roll alone (both sides' units given).", None, metavar="N",
                                    first=True)
    cc: int | None = side_option("{who}: its close-combat value, 2+ to 6+ (none: no close-combat attack).",
                                 NOT_GIVEN, roll=True, none=True, first=True)
    ff: int | None = side_option("{who}: its firefight value, 2+ to 6+ (none: units out of base contact do not "
                                 "attack).", NOT_GIVEN, roll=True, none=True, first=True)
    in_contact: int | None = side_option("{who}: how many of the --{side}units fight in base contact (CC); the rest "
                                         "by firefight (FF). Default: all of them.", None, metavar="K")
    extra_attacks: int = side_option("{who}: extra attacks of each of its units (+E A), rolled as its own attack "
                                     "is.", 0, metavar="E")
    fearless: bool = side_option("{who}: its units are fearless: no extra hits when it loses.", False)
    extra_at: ExtraAt = side_option("{who}: which value its extra attacks roll against (§2.9): own (each unit's own "
                                    "attack's, CC in contact and FF apart), cc (an assault weapon's: only units in "
                                    "contact) or ff (small arms': only units out of contact).", ExtraAt.OWN)
    first_strike: bool = side_option("{who}: its attacks strike first (2.2.4): the enemy units they kill do not "
                                     "attack (both sides with it: at once).", False)
    extra_ability: Ability = side_option("{who}: its extra attacks' weapon (2.2.6, 2.2.9): normal, macro (a "
                                         "macro-weapon: only reinforced armour or an invulnerable save, no re-roll) "
                                         "or titan-killer (only an invulnerable save); their hits are allocated "
                                         "after the others.", Ability.NORMAL)
    tk_damage: DiceExpression | str | None = side_option(
        "{who}: a titan killer's D-value against a war engine: points of damage per hit (d3, d6; default 1; needs "
        "--{side}extra-ability titan-killer).", None, metavar="D", reader=lambda name: lambda text: tk_damage(text, name))
    inspiring: bool = side_option("{who}: its units are Inspiring (2.1.5): +1 to its result for each of them left.",
                                  False)
    know_no_fear: bool = side_option("{who}: They Shall Know No Fear (Space Marines): half its blast markers count "
                                     "(rounded down; one is still not none), and half the extra hits when it loses.",
                                     False)
    damage_capacity: int | None = side_option("{who}: the --{side}units are war engines of this damage capacity, 1 "
                                              "to 20 (3.3): each rolls as many dice, takes as many hits in turn, "
                                              "counts as as many units and loses a point for each failed save, each "
                                              "point a kill.", None, metavar="DC")
    cc_dice: int | None = side_option("{who}: a war engine's dice at CC, the rest at FF (3.3.2; default: all of them "
                                      "in base contact, none apart).", None, metavar="K")
    other: tuple[Kind, ...] = side_option(
        "{who}: units of another profile in the formation, behind the --{side}units (vehicles beside infantry, a war "
        "engine): N [DC<d>] cc X+ ff X+ armour A+ [in-contact K] [cover C+] [extra-attacks E] [extra-at own|cc|ff] "
        "[cc-dice K] [critical C] [reinforced] [invulnerable] [fearless]; repeat for each profile.", (),
        metavar="PROFILE", many=lambda name: lambda text: Kind.parse(text, name))
    support: int = side_option("{who}: units of its other formations giving supporting fire (1.12.6), each one die "
                               "at --{side}support-ff.", 0, metavar="S")
    support_ff: int | None = side_option("{who}: the supporting units' firefight value, 2+ to 6+.", None, roll=True)


@record(kw_only=True)
class Defender(Formation, Covered):
    """The defending side: a formation, and what only the defender has."""

    broken: bool = side_option("{who}: it is broken: it counts a blast marker per unit, and is destroyed if it "
                               "loses.", False)
