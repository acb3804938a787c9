"""`oddscalc t9a …` commands: melee and shooting with the attack attributes, charges,
Discipline tests and the direction die (RULES.md §3)."""

from typing import Annotated, Optional

import typer

from ..t9a import Reroll
from .options import needed, query, shared_options, whole

app = typer.Typer(no_args_is_help=True)

# The options `melee` and `shoot` share, in the order --help lists them.
Strength = Annotated[
    Optional[int],
    typer.Option("--strength", metavar="S", help="The attack's Strength, 1 to 10 (required unless --toxic)."),
]
Resilience = Annotated[int, typer.Option("--resilience", metavar="R", help="The target's Resilience, 1 to 10.")]
Armour = Annotated[
    str,
    typer.Option("--armour", metavar="A", help="The target's Armour, 0 to 6 (Armour 2 saves on 5+), or the save "
                                               "it gives: 5+ is Armour 2. The save needs 7 - (A - AP), at best 2+; "
                                               "none when A - AP <= 0; a natural 1 fails."),
]
ArmourPenetration = Annotated[int, typer.Option("--ap", metavar="P", help="Armour Penetration, 0 to 10.")]
Aegis = Annotated[Optional[int], needed("Aegis save X+ (2+ to 6+), after a failed armour save.", "--aegis")]
Fortitude = Annotated[
    Optional[int],
    needed("Fortitude save X+ (2+ to 6+), after a failed armour save; not against --flaming nor a Lethal Strike "
           "wound. With both, each wound takes the one more likely to save (Divine counted).", "--fortitude"),
]
BattleFocus = Annotated[bool, typer.Option("--battle-focus", help="Battle Focus: a natural 6 to hit is one extra hit.")]
Poison = Annotated[
    bool,
    typer.Option("--poison", help="Poison Attacks: a natural 6 to hit wounds without a roll (with --battle-focus, "
                                  "one of the two hits; the other rolls to wound)."),
]
LethalStrike = Annotated[
    bool,
    typer.Option("--lethal-strike", help="Lethal Strike: a natural 6 to wound has AP 10 (no armour save) and "
                                         "ignores Fortitude. Poison's wounds rolled no wound, so are never lethal."),
]
Divine = Annotated[bool, typer.Option("--divine", help="Divine Attacks: a successful Aegis save is re-rolled.")]
Flaming = Annotated[bool, typer.Option("--flaming", help="Flaming Attacks: no Fortitude save.")]
Flammable = Annotated[
    bool,
    typer.Option("--flammable", help="The target is Flammable: Flaming Attacks re-roll failed wounds "
                                     "(no effect without --flaming)."),
]
Toxic = Annotated[
    bool,
    typer.Option("--toxic", help="Toxic Attacks: always Strength 3 and AP 10 (leave --strength and --ap out)."),
]
RerollHits = Annotated[
    Reroll,
    typer.Option("--reroll-hits", help="'failed' re-rolls failed to-hit rolls (Hatred); each die once.",
                 case_sensitive=False),
]
RerollWounds = Annotated[
    Reroll,
    typer.Option("--reroll-wounds", help="'failed' re-rolls failed to-wound rolls; each die once.",
                 case_sensitive=False),
]
MultipleWounds = Annotated[
    Optional[str],
    typer.Option("--multiple-wounds", metavar="X",
                 help="Multiple Wounds (X): each unsaved wound becomes X wounds (2, d3, d3+1, d6: rolled per "
                      "wound), capped at --health, which it needs."),
]
Health = Annotated[
    Optional[int],
    typer.Option("--health", metavar="H", help="Each target model's Health Points, 1 to 20 (default 1)."),
]
Models = Annotated[
    Optional[int],
    typer.Option("--models", metavar="M", help="Models in the target unit, 1 to 500 (needs --health): adds the "
                                               "outcome kills, and caps health_lost at M x H."),
]

READINGS = """Readings: a re-rolled die's natural 6 counts (the first roll's does not). A hopeless
shot's natural 6 is its first roll, and the second roll must pass: every hopeless hit
triggers Battle Focus and Poison; a failed hopeless shot is re-rolled whole. Multiple
Wounds is capped per wound at --health; with --models, lost Health Points carry over
from model to model (kills = lost // H, at most M).

Outcomes: health_lost (Health Points lost), hits (Battle Focus's extra hits and
Poison's included), wounds (Poison's auto-wounds included), unsaved (wounds past
every save, before Multiple Wounds), and kills with --models.
"""

MELEE_HELP = """Melee attacks of The 9th Age: to hit, to wound, armour, special saves, Health Points lost.

To hit from Offensive - Defensive Skill: >= 4: 2+; 1 to 3: 3+; 0 to -3: 4+; -4 to -7:
5+; <= -8: 6+; --hit-modifier applies to the roll; a natural 1 fails and a natural 6
hits. To wound from Strength - Resilience: >= 2: 2+; 1: 3+; 0: 4+; -1: 5+; <= -2: 6+
(natural 1 fails, 6 wounds). Then the armour save, the special save (Aegis or
Fortitude), and Multiple Wounds.

""" + READINGS

SHOOT_HELP = """Shooting of The 9th Age: to hit, to wound, armour, special saves, Health Points lost.

Each shot needs Aim - modifier (a natural 1 misses); needing 7+ is a hopeless shot, a 6
and then 4+ (1/12); 8+ cannot hit. Wounds, saves and Multiple Wounds as in melee.
""" + READINGS


SEQUENCE = shared_options(
    ("strength", Strength, None), ("armour", Armour, "0"), ("ap", ArmourPenetration, 0), ("aegis", Aegis, None),
    ("fortitude", Fortitude, None), ("battle_focus", BattleFocus, False), ("poison", Poison, False),
    ("lethal_strike", LethalStrike, False), ("divine", Divine, False), ("flaming", Flaming, False),
    ("flammable", Flammable, False), ("toxic", Toxic, False), ("reroll_hits", RerollHits, Reroll.NONE),
    ("reroll_wounds", RerollWounds, Reroll.NONE), ("multiple_wounds", MultipleWounds, None),
    ("health", Health, None), ("models", Models, None),
)


@query(
    app,
    "t9a melee",
    examples=[
        "oddscalc t9a melee --attacks 10 --offensive 4 --defensive 4 --strength 4 --resilience 3 --armour 2 "
        "--aegis 5 --exact",
        "oddscalc t9a melee --attacks 20 --offensive 5 --defensive 3 --strength 5 --resilience 4 --armour 5+ "
        "--battle-focus --poison --reroll-hits failed",
        "oddscalc t9a melee --attacks d6+1 --offensive 4 --defensive 4 --strength 6 --resilience 5 --armour 3 "
        "--multiple-wounds d3 --health 3 --models 4 --lethal-strike",
    ],
    help=MELEE_HELP,
    shared=SEQUENCE,
)
def melee(
    attacks: Annotated[str, typer.Option("--attacks", metavar="N", help="Attacks: a number or dice (10, 2d6, d6+1).")],
    offensive: Annotated[
        int, typer.Option("--offensive", metavar="O", help="The attacker's Offensive Skill, 1 to 10.")
    ],
    defensive: Annotated[int, typer.Option("--defensive", metavar="D", help="The target's Defensive Skill, 1 to 10.")],
    resilience: Resilience,
    hit_modifier: Annotated[
        int, whole("Sum of to-hit modifiers, -10 to 10 (+1 is easier).", "--hit-modifier", metavar="M")
    ] = 0,
    **sequence,
):
    """Build the melee attack from the options."""
    from ..t9a import Melee

    return Melee(attacks=attacks, offensive=offensive, defensive=defensive, hit_modifier=hit_modifier,
                 resilience=resilience, **sequence)


@query(
    app,
    "t9a shoot",
    examples=[
        "oddscalc t9a shoot --shots 10 --aim 4+ --modifier -1 --strength 3 --resilience 3 --armour 1",
        "oddscalc t9a shoot --shots 2d6 --aim 4+ --strength 4 --resilience 4 --flaming --flammable --exact",
        "oddscalc t9a shoot --shots 5 --aim 5+ --modifier -2 --strength 4 --resilience 3 --poison --battle-focus",
    ],
    help=SHOOT_HELP,
    shared=SEQUENCE,
)
def shoot(
    shots: Annotated[str, typer.Option("--shots", metavar="N", help="Shots: a number or dice (10, 2d6 for a "
                                                                      "Breath Attack, d6+1).")],
    aim: Annotated[int, needed("The shooter's Aim, 2+ to 6+.", "--aim")],
    resilience: Resilience,
    modifier: Annotated[
        int, whole("Sum of to-hit modifiers, -10 to 10: -1 long range, -1 moving, -1 stand and shoot, -1 soft "
                   "cover, -2 hard cover, -X Hard Target (X).", "--modifier", metavar="M")
    ] = 0,
    **sequence,
):
    """Build the shooting attack from the options."""
    from ..t9a import T9AShoot

    return T9AShoot(shots=shots, aim=aim, modifier=modifier, resilience=resilience, **sequence)


Maximised = Annotated[int, whole("Roll K extra dice and drop the K lowest (0 to 20).", "--maximised", metavar="K")]
Minimised = Annotated[int, whole("Roll K extra dice and drop the K highest (0 to 20); one maximised and one "
                                 "minimised cancel.", "--minimised", metavar="K")]


@query(
    app,
    "t9a charge",
    examples=[
        "oddscalc t9a charge --distance 9 --maximised 1 --exact",
        "oddscalc t9a charge --distance 7 --minimised 1",
    ],
)
def charge(
    distance: Annotated[int, typer.Option("--distance", metavar="D", help="The roll the charge needs, 1 to 30.")],
    maximised: Maximised = 0,
    minimised: Minimised = 0,
):
    """Roll 2D6 for a charge: does it reach the distance still to cover?

    Maximised: roll an extra D6 and drop the lowest; minimised: drop the highest. They
    stack, and one of each cancel. Outcomes: success (2D6 >= D), sum.
    """
    from ..t9a import Charge

    return Charge(distance=distance, maximised=maximised, minimised=minimised)


@query(
    app,
    "t9a test",
    examples=[
        "oddscalc t9a test --discipline 7 --exact",
        "oddscalc t9a test --discipline 8 --minimised 1 --exact",
    ],
)
def test(
    discipline: Annotated[int, typer.Option("--discipline", metavar="V", help="The Discipline tested, 0 to 20.")],
    maximised: Maximised = 0,
    minimised: Minimised = 0,
):
    """Roll a Discipline test: 2D6 at most the Discipline passes.

    A minimised test (an extra D6, the highest dropped) is easier to pass; a maximised one
    harder. Outcomes: success (2D6 <= V), sum.
    """
    from ..t9a import DisciplineTest

    return DisciplineTest(discipline=discipline, maximised=maximised, minimised=minimised)


@query(
    app,
    "t9a direction",
    examples=["oddscalc t9a direction --exact"],
)
def direction():
    """Roll the direction die: 2 of its 6 faces show HIT (with a plain D6, a 1 or a 6).

    Outcome: hit.
    """
    from ..t9a import Direction

    return Direction()
