"""`oddscalc dust …`: Dust Tactics attacks (docs/rules.md §1) and the board's line of sight.

Each query's options are its attack's fields (see `query.registry.field_options`); this module
adds the arguments, the board options of `dust attack` and the help. Each attack's module is imported when its
query is first asked for (`lambda: dust.WeaponLine`)."""

from typing import Any, Annotated, Optional

from .. import dust
from . import (
    MAP_FORMAT,
    SIGHT_RULES,
    Corner,
    CoverSave,
    Diagonal,
    Kind,
    on_board,
)
from ..output.tables import Format, Table
from ..query.answer import Answer
from ..query.grammar import Opt, argument, declared, option
from ..query.registry import group, look, query
from ..core.record import record

HELP = "Dust Tactics: weapon lines, phasers, salvo, artillery, sight."
group("dust", HELP)

CORNER = ("A line exactly through a corner is blocked when both (default) / either of the two squares it passes "
          "between block, or never.")

SAVE = declared("save", Annotated[Optional[CoverSave], option(
    "--save", help="The target's cover save: hit (a hit survives 2/3, soft cover), miss (survives 1/3, hard cover) or "
                   "none. With --board: the map's cover unless given.")], None)

BOARD = [  # docs/rules.md §1.12, §1.13: where the attack is made (dust/shot.py)
    declared("board", Annotated[Optional[str], option(
        "--board", metavar="MAP", help="Check the shot on this map (a file, or ruins / crossroads): the squares, "
                                       "the range and the line of sight; needs --from and --to.")], None),
    declared("from_square", Annotated[Optional[str], option(
        "--from", metavar="SQ", help="The attacking unit's square.")], None),
    declared("to_square", Annotated[Optional[str], option("--to", metavar="SQ", help="The target's square.")],
           None),
    declared("target", Annotated[Optional[Kind], option(
        "--target", help="What the target is: where it may stand, and its cover on the map (default soldier).")],
           None),
    declared("attacker", Annotated[Optional[Kind], option(
        "--attacker", help="What the attacking unit is: where it may stand (default soldier).")], None),
    declared("range", Annotated[Optional[str], option(
        "--range", metavar="R", help="The weapon's range in squares: N (1 to N), X-Y, U (unlimited), C (adjacent "
                                     "squares) or A (artillery, 4 or more; the default with --artillery).")], None),
    declared("arcing", Annotated[bool, option(
        "--arcing", help="An arcing weapon X-Y (a mortar): it fires over obstacles; only the two squares must allow "
                         "the attack.")], False),
    declared("observer", Annotated[Optional[str], option(
        "--observer", metavar="SQ", help="Indirect artillery fire: the square of the unit with Artillery Strike "
                                         "that sees the target.")], None),
    declared("observer_kind", Annotated[Optional[Kind], option(
        "--observer-kind", help="What the observer is: where it may stand (default soldier).")], None),
    declared("diagonal", Annotated[Optional[Diagonal], option(
        "--diagonal", help="How a diagonal step counts in a range: one square (default) or two (an open rules "
                           "question).")], None),
    declared("corner", Annotated[Optional[Corner], option("--corner", help=CORNER)], None),
]


def _argument(name: str, metavar: str, help: str) -> Opt:
    """The command's argument; `name` is what the attack's errors call it."""
    return declared(name, Annotated[str, argument(metavar, help)])


query("dust attack", lambda: dust.WeaponLine, title="Weapon line",
      about="One weapon line against a unit: hits and damage, sustained attack, burst fire, artillery, cover "
            "saves, a shot checked on a map",
      skip=["save"], extra=[SAVE, *BOARD],
      build=lambda **options: on_board(dust.WeaponLine, **options), examples=[
    "oddscalc dust attack --dice 4 --sustained --exact",
    "oddscalc dust attack --dice 3 --damage 2 --burst --save miss",
    "oddscalc dust attack --dice 2 --damage 3 --artillery indirect --indirect-success blank",
    "oddscalc dust attack --dice 5 --board ruins --from A9 --to C2 --range 8",
    "oddscalc dust attack --dice 2 --artillery indirect --board ruins --from A1 --to H8 --observer F6",
])

query("dust phaser", lambda: dust.Phaser, title="Phaser (XzY)",
      about="Two-stage dice: X dice, each hit rolls Y more",
      argument=_argument("phaser", "PHASER", "XzY: X dice; each hit rolls Y dice."),
      extra=BOARD, build=lambda phaser, **options: on_board(dust.Phaser, aim=phaser, **options), examples=[
    "oddscalc dust phaser 2z3 --exact",
    "oddscalc dust phaser 2z3 --sustained --plot phaser.png",
    "oddscalc dust phaser 1z4 --berserk --count 2 --format json",
    "oddscalc dust phaser 2z3 --health 3 --exact",
    "oddscalc dust phaser 2z3 --board crossroads --from A4 --to E4 --range 5",
])

query("dust salvo", lambda: dust.Salvo, title="Salvo",
      about="Dice and damage for each number of charges spent (A/X-B/X-...)",
      argument=_argument("salvo", "SALVO", "A/X-B/X-...: the dice and damage per hit for 1, 2, ... charges."),
      skip=["save"], extra=[SAVE, *BOARD],
      build=lambda salvo, **options: on_board(dust.Salvo, entries=salvo, **options),
      examples=[
    "oddscalc dust salvo 3/2-5/2-7/2 --charges 2 --exact",
    "oddscalc dust salvo 3/2 --sustained --save hit",
    "oddscalc dust salvo 3/2-5/2-7/2 --charges 3 --health 6 --exact",
    "oddscalc dust salvo 2/1-4/1 --charges 2 --burst --plot salvo.png",
])

query("dust incendiary", lambda: dust.Incendiary, title="Incendiary (X/+)",
      about="Flamethrowers: dice for every model of the unit, cover or not",
      argument=_argument("dice", "X", "Dice per model (X of X/+)."),
      skip=["save"], extra=[SAVE, *BOARD], build=lambda **options: on_board(dust.Incendiary, **options), examples=[
    "oddscalc dust incendiary 1 --models 4 --exact",
    "oddscalc dust incendiary 1/+ --models 5 --save hit --sustained",
    "oddscalc dust incendiary 2 --models 3 --save miss --ignore-cover",
    "oddscalc dust incendiary 1 --models 4 --board ruins --from B3 --to C2 --range 2",
])

query("dust ap-incendiary", lambda: dust.ArmourPiercingIncendiary, title="Armour-piercing incendiary (X/skull)",
      about="Models destroyed on a skull",
      argument=_argument("dice", "X", "Dice per model (X of X/skull)."),
      extra=BOARD, build=lambda **options: on_board(dust.ArmourPiercingIncendiary, **options),
      examples=["oddscalc dust ap-incendiary 1 --models 3 --exact",
                "oddscalc dust ap-incendiary 1/skull --models 1 --berserk"])

query("dust reactive", lambda: dust.Reactive, title="Reactive fire",
      about="Firing before the enemy's attack: do you stop them first?",
      examples=[
    "oddscalc dust reactive --exact",
    "oddscalc dust reactive --dice 4 --health 3 --enemy-dice 5 --exact",
    "oddscalc dust reactive --dice 3 --damage 2 --timing attack-move --enemy-dice 4 --own-health 2 --exact",
])


# --- the board ---------------------------------------------------------------------------


@record
class Sighted:
    """A line of sight traced, kept to render in any format: the verdict in words (table), its facts
    (JSON, CSV, Markdown, BBCode)."""

    title: str
    report: str
    facts: dict[str, Any]

    @property
    def sentence(self) -> str:
        first = self.report.splitlines()[0]
        return first[:1].upper() + first[1:] + "."

    def render(self, fmt: Format, width: Optional[int] = None) -> str:
        if fmt is Format.TABLE:
            return self.report
        if fmt is Format.JSON:
            import json

            return json.dumps(self.facts, indent=2)
        return self.tables()[0].render(fmt)

    def tables(self) -> list[Table]:
        shown = {key: "; ".join(value) if isinstance(value, list) else value for key, value in self.facts.items()}
        return [Table(tuple(shown), (tuple(shown.values()),))]


def los(
    board: Annotated[str, argument("MAP", "A map file, or a shipped map: ruins, crossroads.")],
    from_square: Annotated[str, option("--from", metavar="SQ", help="The attacker's square, like B2.")],
    to_square: Annotated[str, option("--to", metavar="SQ", help="The target's square, like F5.")],
    target: Annotated[Kind, option("--target", help="What the target is, for its cover.")] = Kind.SOLDIER,
    corner: Annotated[Corner, option("--corner", help=CORNER)] = Corner.BOTH,
) -> Answer:
    from . import Board, line_of_sight
    from .board import sight_facts, sight_report

    chart = Board.named(board, "board")
    source, goal = chart.square(from_square, "from_square"), chart.square(to_square, "to_square")
    sight = line_of_sight(chart, source, goal, target, corner)
    title = f"Dust line of sight on {chart.name}: {source} to {goal}"
    content = Sighted(title, sight_report(chart, sight, target, corner), sight_facts(chart, sight, target, corner))
    return Answer(content, Format.TABLE, None)


look("dust los", los, title="Line of sight",
      about="On a map: open or blocked, the squares crossed, the cover the target gets",
     help="Trace the line of sight between two squares of a map; print the verdict, the "
     f"squares crossed and the cover the target gets.\n\n{SIGHT_RULES}\n\n{MAP_FORMAT}\n\nExit code 0 whether "
     "the line is open or blocked.", examples=[
    "oddscalc dust los ruins --from A1 --to L9",
    "oddscalc dust los ruins --from C5 --to D4 --corner either",
    "oddscalc dust los my_map.txt --from B2 --to F5 --target vehicle",
])
