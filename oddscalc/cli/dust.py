"""`oddscalc dust …`: Dust Tactics attacks (docs/rules.md §1) and the board's line of sight.

Each query's options are its attack's fields (see `options.field_options`); this module
adds the arguments, the board options of `dust attack` and the help."""

import json
from typing import Annotated, Optional

import typer

from ..dust import (
    MAP_FORMAT,
    SIGHT_RULES,
    ArmourPiercingIncendiary,
    Corner,
    CoverSave,
    Incendiary,
    Kind,
    Phaser,
    Reactive,
    Salvo,
    WeaponLine,
    on_board,
    parse_per_model,
)
from ..errors import InputError
from ..tables import Format, Table
from .errors import input_error
from .options import examples_epilog, option, query

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, add_completion=False,
                  help="Dust Tactics: weapon lines, phasers, salvo, incendiary, artillery, line of sight.")

CORNER = ("A line exactly through a corner is blocked when both (default) / either of the two squares it passes "
          "between block, or never.")

BOARD = [
    option("save", Annotated[Optional[CoverSave], typer.Option(
        "--save", help="The target's cover save: hit (a hit survives 2/3, soft cover), miss (survives 1/3, hard "
                       "cover) or none. With --board: the map's cover unless given.")], None),
    option("board", Annotated[Optional[str], typer.Option(
        "--board", metavar="MAP", help="Check the shot on this map (a file, or ruins / crossroads); needs --from "
                                       "and --to.")], None),
    option("from_square", Annotated[Optional[str], typer.Option(
        "--from", metavar="SQ", help="The attacker's square (the observer's for indirect artillery).")], None),
    option("to_square", Annotated[Optional[str], typer.Option("--to", metavar="SQ", help="The target's square.")],
           None),
    option("target", Annotated[Optional[Kind], typer.Option(
        "--target", help="What the target is, for its cover on the map (default soldier).")], None),
    option("corner", Annotated[Optional[Corner], typer.Option("--corner", help=CORNER)], None),
]


def _argument(name: str, metavar: str, help: str) -> object:
    """The command's argument; `name` is what the attack's errors call it."""
    return option(name, Annotated[str, typer.Argument(metavar=metavar, help=help)])


def attack_on_board(**options) -> tuple[WeaponLine, tuple[str, ...]]:
    """The weapon line (docs/rules.md §1.12), and a note when the map gave the target its cover."""
    line = on_board(**options)
    taken = options.get("board") is not None and options.get("save") is None and line.save is not CoverSave.NONE
    return line, ((f"note: the target's {line.save.value}-save comes from the map: it stands in cross terrain "
                   "(soft cover); --save none would remove it",) if taken else ())


query(app, "dust attack", WeaponLine, skip=["save"], extra=BOARD, build=attack_on_board, examples=[
    "oddscalc dust attack --dice 4 --sustained --exact",
    "oddscalc dust attack --dice 3 --damage 2 --burst --save miss",
    "oddscalc dust attack --dice 2 --damage 3 --artillery indirect --indirect-success blank",
    "oddscalc dust attack --dice 5 --board ruins --from A9 --to C2",
])

query(app, "dust phaser", Phaser, argument=_argument("phaser", "PHASER", "XzY: X dice; each hit rolls Y dice."),
      build=lambda phaser, **options: Phaser.parse(phaser, **options), examples=[
    "oddscalc dust phaser 2z3 --exact",
    "oddscalc dust phaser 2z3 --sustained --plot phaser.png",
    "oddscalc dust phaser 1z4 --berserk --count 2 --format json",
])

query(app, "dust salvo", Salvo, argument=_argument("salvo", "SALVO", "A/X-B/X-...: the dice and damage per hit for 1, 2, "
                                                   "... charges."),
      build=lambda salvo, **options: Salvo.parse(salvo, **options), examples=[
    "oddscalc dust salvo 3/2-5/2-7/2 --charges 2 --exact",
    "oddscalc dust salvo 3/2 --sustained --save hit",
    "oddscalc dust salvo 2/1-4/1 --charges 2 --plot salvo.png",
])

query(app, "dust incendiary", Incendiary, argument=_argument("dice", "X", "Dice per model (X of X/+)."),
      build=lambda dice, **options: Incendiary(parse_per_model(dice, "dice"), **options), examples=[
    "oddscalc dust incendiary 1 --models 4 --exact",
    "oddscalc dust incendiary 1/+ --models 5 --save hit",
    "oddscalc dust incendiary 2 --models 3 --save miss --ignore-cover",
])

query(app, "dust ap-incendiary", ArmourPiercingIncendiary, argument=_argument("dice", "X", "Dice per model (X of X/skull)."),
      build=lambda dice, **options: ArmourPiercingIncendiary(parse_per_model(dice, "dice"), **options),
      examples=["oddscalc dust ap-incendiary 1 --models 3 --exact", "oddscalc dust ap-incendiary 1/skull --models 1"])

query(app, "dust reactive", Reactive, examples=["oddscalc dust reactive --exact"])


# --- the board ---------------------------------------------------------------------------


@app.command(
    "los",
    help="Trace the line of sight between two squares of a map; print the verdict, the squares "
         f"crossed and the cover the target gets.\n\n{SIGHT_RULES}\n\n{MAP_FORMAT}\n\nExit code 0 whether "
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
    output_format: Annotated[Format, typer.Option("--format", metavar="F", help="table (words), json, csv, "
                                                                                "markdown or bbcode.")] = Format.TABLE,
) -> None:
    from ..dust import Board, line_of_sight
    from ..dust.board import sight_facts, sight_report

    try:
        chart = Board.load(board, "board")
        source, goal = chart.square(from_square, "from_square"), chart.square(to_square, "to_square")
        sight = line_of_sight(chart, source, goal, target, corner)
    except InputError as error:
        raise input_error(error) from None
    if output_format is Format.TABLE:
        typer.echo(sight_report(chart, sight, target, corner))
    elif output_format is Format.JSON:
        typer.echo(json.dumps(sight_facts(chart, sight, target, corner), indent=2))
    else:
        facts = {key: "; ".join(value) if isinstance(value, list) else value
                 for key, value in sight_facts(chart, sight, target, corner).items()}
        typer.echo(Table(tuple(facts), (tuple(facts.values()),)).render(output_format))
