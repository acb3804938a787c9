"""`oddscalc epic …` commands: shooting, barrages and the assault-result dice (RULES.md §2)."""

from typing import Annotated, Optional

import typer

from ..epic import UNITS_PER_TEMPLATE, Ability
from .options import needed, query, shared_options, whole

app = typer.Typer(no_args_is_help=True)

# The options `shoot` and `barrage` share, in the order --help lists them.
Units = Annotated[int, typer.Option("--units", metavar="U", help="Units the attack can reach (1 to 100).")]
Armour = Annotated[str, typer.Option("--armour", metavar="A+", help="Armour save, 2+ to 6+, or none.")]
Modifier = Annotated[
    int,
    whole("Sum of to-hit modifiers: -1 cover, -1 double or marshal, +1 sustained fire (or indirect barrage). "
          "+1 makes hitting easier.", "--modifier", metavar="M"),
]
CoverSave = Annotated[
    Optional[int],
    needed("Infantry cover save (4+ buildings, jungle, ruins; 5+ woods; 6+ scrub, marsh, river; 3+ "
           "fortifications), used instead of armour when better. Count the -1 to hit for cover in "
           "--modifier, or give --in-cover. Negated by --ignore-cover, macro-weapons and titan killers.",
           "--cover-save"),
]
WeaponOption = Annotated[
    Ability,
    typer.Option("--weapon", help="normal, macro (macro-weapon), titan-killer or lance.", case_sensitive=False),
]
Reinforced = Annotated[
    bool,
    typer.Option("--reinforced", help="Reinforced armour: re-roll a failed save (a failed cover save with the "
                                      "armour value); not against macro-weapons, titan killers or lances."),
]
Invulnerable = Annotated[
    bool,
    typer.Option("--invulnerable", help="Invulnerable save: an unmodified 6+ after every other save failed or "
                                        "was not allowed."),
]
Crossfire = Annotated[
    bool,
    typer.Option("--crossfire", help="Crossfire: -1 to armour and cover saves (not to hit, not to the "
                                     "invulnerable save); the first kill gives 2 blast markers."),
]
Disrupt = Annotated[bool, typer.Option("--disrupt", help="Disrupt: 1 blast marker per hit instead of per kill.")]
IgnoreCover = Annotated[
    bool,
    typer.Option("--ignore-cover", help="Ignore cover: no cover saves, and cancels --in-cover's -1 to hit "
                                        "(it cannot see a cover -1 counted in --modifier)."),
]
InCover = Annotated[
    bool,
    typer.Option("--in-cover", help="The target is in cover: -1 to hit, applied here so that --ignore-cover "
                                    "can cancel it (then leave the cover -1 out of --modifier)."),
]
Sniper = Annotated[
    bool,
    typer.Option("--sniper", help="Sniper: -1 to armour and cover saves (adds up with --crossfire; not the "
                                  "invulnerable save)."),
]
BlastMarkersOption = Annotated[
    int,
    typer.Option("--blast-markers", metavar="B", help="Blast markers already on the formation (0 to 100)."),
]


DEFENCE = shared_options(
    ("modifier", Modifier, 0), ("cover_save", CoverSave, None), ("weapon", WeaponOption, Ability.NORMAL),
    ("reinforced", Reinforced, False), ("invulnerable", Invulnerable, False), ("crossfire", Crossfire, False),
    ("disrupt", Disrupt, False), ("ignore_cover", IgnoreCover, False), ("in_cover", InCover, False),
    ("sniper", Sniper, False), ("blast_markers", BlastMarkersOption, 0),
)


@query(
    app,
    "epic shoot",
    examples=[
        "oddscalc epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --crossfire",
        "oddscalc epic shoot --shots 6 --to-hit 5+ --units 4 --armour 6+ --cover-save 4+ --modifier -1 --exact",
        "oddscalc epic shoot --shots 2 --to-hit 2+ --units 1 --armour 4+ --reinforced --weapon macro --exact",
        "oddscalc epic shoot --shots 8 --to-hit 4+ --units 5 --armour none --disrupt --blast-markers 2 "
        "--formation 8",
    ],
    shared=DEFENCE,
)
def shoot(
    shots: Annotated[int, typer.Option("--shots", metavar="N", help="Shots fired at the formation (1 to 200).")],
    to_hit: Annotated[int, needed("The weapon's to-hit value, 2+ to 6+ (AP, AT or MW).", "--to-hit")],
    units: Units,
    armour: Armour,
    formation: Annotated[
        Optional[int],
        typer.Option("--formation", metavar="F", help="The formation's size when it is bigger than --units "
                                                      "(default: --units)."),
    ] = None,
    **defence,
):
    """Shoot at an Epic formation: to hit, saves, hits front to back, blast markers, broken.

    Each shot hits on its to-hit value minus --modifier (a natural 1 misses; needing 7,
    8 or 9 means a 6 then 4+, 5+ or 6; 10+ cannot hit). Hits go front to back: hit j
    falls on unit j mod U, and a unit that fails any save dies. Saves: armour, or the
    cover save when better; crossfire and sniper -1 each (past 6+ is impossible);
    reinforced armour re-rolls; an invulnerable 6+ last. Macro-weapons allow only
    reinforced armour (no re-roll) and negate cover saves; titan killers allow no armour
    or cover save; lances stop the re-roll. Blast markers after the attack: existing +
    1 for coming under fire + 1 per kill (per hit with --disrupt) + 1 for the first kill
    under crossfire. Broken: blast markers >= units left.

    Outcomes: kills, hits, blast_markers, broken.
    """
    from ..epic import EpicShoot

    return EpicShoot(shots=shots, to_hit=to_hit, units=units, armour=armour, formation=formation, **defence)


@query(
    app,
    "epic barrage",
    examples=[
        "oddscalc epic barrage --bp 6 --units 3 --armour 4+ --exact",
        "oddscalc epic barrage --bp 8 --units 5 --armour 4+ --formation 8 --crossfire",
        "oddscalc epic barrage --bp 3 --units 2 --armour 5+ --at --modifier 1",
        "oddscalc epic barrage --bp 8 --formation 10 --armour 4+ --per-template 4",
    ],
    shared=DEFENCE,
)
def barrage(
    bp: Annotated[int, typer.Option("--bp", metavar="P", help="Barrage points of the weapons that fire (1 to 18).")],
    armour: Armour,
    units: Annotated[Optional[int], typer.Option(
        "--units", metavar="U", help="Units under the templates (1 to 100). Without it, give --formation: the "
                                     "templates then cover --per-template units each.")] = None,
    at: Annotated[bool, typer.Option("--at", help="Use the table's AT column (armoured targets).")] = False,
    formation: Annotated[
        Optional[int],
        typer.Option("--formation", metavar="F", help="The formation's size when only some of its units are under "
                                                      "the templates (default: --units)."),
    ] = None,
    per_template: Annotated[Optional[int], typer.Option(
        "--per-template", metavar="K",
        help=f"Without --units: units each template covers (default {UNITS_PER_TEMPLATE}), at most the "
             "formation; the first template plus the table's extra ones.")] = None,
    **defence,
):
    """Barrage an Epic formation: one to-hit roll per unit under the templates.

    The barrage table gives the to-hit roll (AP, or AT with --at) and the extra blast
    markers: 1 BP 6+/6+; 2 BP 5+/6+; 3 BP 4+/5+; 4-18 BP 4+/5+ with 0 (4-5), 1 (6-9),
    2 (10-12), 3 (13-15) or 4 (16-18) extra blast markers. Each unit is rolled for once,
    however many templates cover it; --modifier -1 in cover, +1 indirect. Saves and
    blast markers as for `epic shoot`, plus the extra ones. A special ability (macro,
    ignore cover) counts only if every weapon in the barrage has it.

    Outcomes: kills, blast_markers, broken.
    """
    from ..epic import Barrage

    return Barrage(bp=bp, units=units, armour=armour, at=at, formation=formation, per_template=per_template,
                   **defence)


@query(
    app,
    "epic assault",
    examples=[
        "oddscalc epic assault --exact",
        "oddscalc epic assault --bonus 2 --enemy-bonus 1 --format markdown",
    ],
)
def assault(
    bonus: Annotated[int, whole("This side's assault-result modifiers (may be negative).", "--bonus")] = 0,
    enemy_bonus: Annotated[int, whole("The enemy's assault-result modifiers (may be negative).", "--enemy-bonus")] = 0,
):
    """Roll the assault result: each side 2D6, keep the highest die, add its bonus.

    Outcomes: win (this side strictly higher), draw, margin (the absolute difference:
    the hits the loser takes).
    """
    from ..epic import Assault

    return Assault(bonus=bonus, enemy_bonus=enemy_bonus)
