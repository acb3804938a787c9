"""`oddscalc dust …`: Dust Tactics attacks (RULES.md §1) and the board's line of sight."""

from typing import Annotated, Optional

import typer

from ..dust import Artillery, Corner, CoverSave, Kind, Success
from ..errors import InputError
from .errors import input_error
from .options import examples_epilog, query, whole

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)

DIE = "The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3)."
MAP_CODES = (
    "A map is a text file, one character per square: '.' or 'o' circle (open), 't' triangle "
    "(deep water), 'x' cross (rubble), 'd' diamond (smoke), '#' none (no dot, or a terrain tile "
    "over the dot). Columns are letters A, B, ... from the left, rows numbers 1, 2, ... from the "
    "top (B2 = column B, row 2). Lines starting with ';' are comments (before or after the grid). "
    "Shipped maps: ruins, crossroads."
)
SIGHT = (
    "Line of sight runs from square centre to square centre; smoke and squares without a dot "
    "block it, and a unit in smoke can neither attack nor be targeted. A line exactly through a "
    "corner is blocked, by default, only when both squares it passes between block (--corner)."
)

# --- options several commands take ---------------------------------------------------

Sustained = Annotated[bool, typer.Option("--sustained", help="Sustained attack: re-roll all misses once "
                                                             "(takes both actions).")]
Berserk = Annotated[bool, typer.Option("--berserk", help="Berserk: one more re-roll pass of the failed dice "
                                                         "(open rules question: stacks with --sustained).")]
SAVE = ("The target's cover save: hit (a hit survives 2/3, soft cover), miss (survives 1/3, hard cover) or "
        "none.")
SaveOption = Annotated[CoverSave, typer.Option("--save", help=SAVE)]
Resilient = Annotated[bool, typer.Option("--resilient", help="The target is Damage Resilient: one die per "
                                                             "damage point, each hit cancels a point.")]
Models = Annotated[int, whole("Models M in the target unit.", "--models", metavar="M")]
Count = Annotated[int, whole("Models firing the weapon: their dice add up (1 to 20).", "--count", metavar="C")]
CORNER = ("A line exactly through a corner is blocked when both (default) / either of the two squares it "
          "passes between block, or never.")


# --- queries ----------------------------------------------------------------------------


@query(
    app,
    "dust attack",
    examples=[
        "oddscalc dust attack --dice 4 --sustained --exact",
        "oddscalc dust attack --dice 3 --damage 2 --burst --save miss",
        "oddscalc dust attack --dice 2 --damage 3 --artillery indirect --indirect-success blank",
        "oddscalc dust attack --dice 5 --board ruins --from A9 --to C2",
    ],
)
def attack(
    dice: Annotated[int, whole("Dice N of the weapon line N/D.", "--dice")],
    damage: Annotated[int, whole("Damage D per hit of the weapon line N/D.", "--damage", metavar="D")] = 1,
    sustained: Sustained = False,
    berserk: Berserk = False,
    burst: Annotated[bool, typer.Option("--burst", help="Burst fire at a target that has not moved this "
                                                        "round: double the dice.")] = False,
    save: Annotated[Optional[CoverSave], typer.Option("--save", help=SAVE + " With --board: the map's cover.")]
    = None,
    resilient: Resilient = False,
    artillery: Annotated[Optional[Artillery], typer.Option(
        "--artillery", help="Artillery (range A): direct (own line of sight, sustained allowed) or indirect "
                            "(an observer's, no sustained attack). Artillery ignores cover.")] = None,
    in_structure: Annotated[bool, typer.Option("--in-structure", help="The target is inside a structure: "
                                                                      "artillery does not ignore its cover.")] = False,
    indirect_success: Annotated[Success, typer.Option(
        "--indirect-success", help="The face an indirect artillery die succeeds on: hit (1/3) or blank (2/3). "
                                   "An open rules question; hit is the default.")] = Success.HIT,
    count: Count = 1,
    board: Annotated[Optional[str], typer.Option("--board", metavar="MAP", help="Check the shot on this map "
                                                 "(a file, or ruins / crossroads); needs --from and --to.")] = None,
    from_square: Annotated[Optional[str], typer.Option("--from", metavar="SQ", help="The attacker's square "
                                                       "(the observer's for indirect artillery).")] = None,
    to_square: Annotated[Optional[str], typer.Option("--to", metavar="SQ", help="The target's square.")] = None,
    target: Annotated[Optional[Kind], typer.Option(
        "--target", help="What the target is, for its cover on the map (default soldier).")] = None,
    corner: Annotated[Optional[Corner], typer.Option("--corner", help=CORNER)] = None,
):
    """Roll a weapon line N/D: N Dust dice, D damage for each hit that gets past the save.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Order (RULES.md §1.2): dice (x2 burst), roll, re-rolls (--sustained, then --berserk),
    the cover save cancels hits, damage = surviving hits x D, Damage Resilient.

    Artillery ignores cover unless --in-structure; indirect fire allows no --sustained;
    --indirect-success is an open rules question (default hit; with blank, re-rolls
    re-roll the failures).

    With --board MAP --from SQ --to SQ the shot is checked first: a blocked line of sight
    is refused, and a soldier (or Jump) target in cross terrain gets soft cover (--save
    hit) unless you give --save yourself. Outcomes: damage, hits (after re-rolls, before
    saves).
    """
    from ..dust import WeaponLine, check_shot, cover_save

    if board is not None:
        _, sight = check_shot(board, from_square, to_square, target or Kind.SOLDIER, corner or Corner.BOTH)
        save = cover_save(sight.cover) if save is None else save  # an explicit --save wins
    else:
        for name, value, option in (("from_square", from_square, "--from"), ("to_square", to_square, "--to"),
                                    ("target", target, "--target"), ("corner", corner, "--corner")):
            if value is not None:
                raise InputError(name, getattr(value, "value", value), f"{option} only applies with --board MAP")
    return WeaponLine(dice, damage, sustained, berserk, burst, save or CoverSave.NONE, resilient, artillery,
                      in_structure, indirect_success, count)


@query(
    app,
    "dust phaser",
    examples=[
        "oddscalc dust phaser 2z3 --exact",
        "oddscalc dust phaser 2z3 --sustained --plot phaser.png",
        "oddscalc dust phaser 1z4 --berserk --count 2 --format json",
    ],
)
def phaser(
    phaser: Annotated[str, typer.Argument(metavar="PHASER", help="XzY: X dice; each hit rolls Y dice.")],
    sustained: Sustained = False,
    berserk: Berserk = False,
    resilient: Resilient = False,
    count: Count = 1,
):
    """Fire a phaser XzY: roll X dice, then Y dice per hit, each hit 1 damage.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    The phaser ignores cover (no --save); --sustained and --berserk re-roll only the X
    stage (RULES.md §1.5). --count phasers fire together. Outcomes: damage, hits (first
    stage, after re-rolls).
    """
    from ..dust import Phaser

    return Phaser.parse(phaser, sustained=sustained, berserk=berserk, resilient=resilient, count=count)


@query(
    app,
    "dust salvo",
    examples=[
        "oddscalc dust salvo 3/2-5/2-7/2 --charges 2 --exact",
        "oddscalc dust salvo 3/2 --sustained --save hit",
        "oddscalc dust salvo 2/1-4/1 --charges 2 --plot salvo.png",
    ],
)
def salvo(
    salvo: Annotated[str, typer.Argument(metavar="SALVO", help="A/X-B/X-...: the dice and damage per hit "
                                                               "for 1, 2, ... charges.")],
    charges: Annotated[int, whole("Charges K spent (1 rolls the first entry).", "--charges", metavar="K")] = 1,
    sustained: Sustained = False,
    berserk: Berserk = False,
    save: SaveOption = CoverSave.NONE,
    resilient: Resilient = False,
    count: Count = 1,
):
    """Fire a salvo A/X-B/X-...: K charges roll the K-th entry's dice, X damage per hit.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Otherwise a weapon line (RULES.md §1.6): re-rolls, then the cover save. Outcomes:
    damage, hits (after re-rolls, before saves).
    """
    from ..dust import Salvo

    return Salvo.parse(salvo, charges=charges, sustained=sustained, berserk=berserk, save=save,
                       resilient=resilient, count=count)


@query(
    app,
    "dust incendiary",
    examples=[
        "oddscalc dust incendiary 1 --models 4 --exact",
        "oddscalc dust incendiary 1/+ --models 5 --save hit",
        "oddscalc dust incendiary 2 --models 3 --save miss --ignore-cover",
    ],
)
def incendiary(
    dice: Annotated[str, typer.Argument(metavar="X", help="Dice per model (X of X/+).")],
    models: Models = 1,
    save: SaveOption = CoverSave.NONE,
    ignore_cover: Annotated[bool, typer.Option(
        "--ignore-cover", help="Incendiary ignores the cover save (an open rules question; by default the "
                               "--save applies).")] = False,
    resilient: Resilient = False,
    count: Count = 1,
):
    """Fire an incendiary X/+: X dice per model in the target unit, each hit 1 damage.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Whether cover saves apply is an open rules question (RULES.md §1.7): by default the
    --save applies; --ignore-cover turns it off. Outcomes: damage, hits (before saves).
    """
    from ..dust import Incendiary, parse_per_model

    return Incendiary(parse_per_model(dice, "dice"), models, save, ignore_cover, resilient, count)


@query(
    app,
    "dust ap-incendiary",
    examples=[
        "oddscalc dust ap-incendiary 1 --models 3 --exact",
        "oddscalc dust ap-incendiary 1/skull --models 1",
    ],
)
def ap_incendiary(
    dice: Annotated[str, typer.Argument(metavar="X", help="Dice per model (X of X/skull).")],
    models: Models = 1,
    count: Count = 1,
):
    """Fire an armour-piercing incendiary X/skull: X dice per model; one hit removes the unit.

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    P(destroyed) = 1 - (2/3)^(X*M*C) (RULES.md §1.8). Outcome: destroyed (0 or 1).
    """
    from ..dust import ArmourPiercingIncendiary, parse_per_model

    return ArmourPiercingIncendiary(parse_per_model(dice, "dice"), models, count)


@query(app, "dust reactive", examples=["oddscalc dust reactive --exact"])
def reactive():
    """Try reactive fire: one die, a hit lets the unit fire (RULES.md §1.10).

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Outcome: success (0 or 1).
    """
    from ..dust import Reactive

    return Reactive()


# --- the board ---------------------------------------------------------------------------


@app.command(
    "los",
    help="Trace the line of sight between two squares of a map; print the verdict, the squares "
         f"crossed and the cover the target gets.\n\n{SIGHT}\n\n{MAP_CODES}\n\nExit code 0 whether "
         "the line is open or blocked.",
    epilog=examples_epilog([
        "oddscalc dust los ruins --from A1 --to L9",
        "oddscalc dust los ruins --from C5 --to D4 --corner either",
        "oddscalc dust los my_map.txt --from B2 --to F5 --target vehicle",
    ]),
)
def los(
    board: Annotated[str, typer.Argument(metavar="MAP", help="A map file, or a shipped map: ruins, crossroads.")],
    from_square: Annotated[str, typer.Option("--from", metavar="SQ", help="The attacker's square, like B2.")],
    to_square: Annotated[str, typer.Option("--to", metavar="SQ", help="The target's square, like F5.")],
    target: Annotated[Kind, typer.Option("--target", help="What the target is, for its cover.")] = Kind.SOLDIER,
    corner: Annotated[Corner, typer.Option("--corner", help=CORNER)] = Corner.BOTH,
) -> None:
    from ..dust import Board, line_of_sight
    from ..dust.board import sight_report

    try:
        chart = Board.load(board, "board")
        source, goal = chart.square(from_square, "from_square"), chart.square(to_square, "to_square")
        typer.echo(sight_report(chart, line_of_sight(chart, source, goal, target, corner), target, corner))
    except InputError as error:
        raise input_error(error) from None
