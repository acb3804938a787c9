"""A Dust attack placed on the board (docs/rules.md §1.9, §1.12, §1.13): the weapon's range,
who may stand where, the line of sight the weapon needs, and the cover the target gets.

Ranges (seed 000, «Дальность оружия»): a figure N reaches 1 to N squares (the usual
minimum is 1); a pair X-Y reaches X to Y; U is unlimited; C (close combat) reaches the
adjacent squares only; A (artillery) reaches 4 squares or more, direct or indirect fire;
an arcing weapon X-Y (a mortar) reaches X to Y over obstacles, like artillery.

Distance counts squares. The seeds do not say how a diagonal step counts: oddscalc's
reading is one square (the larger of the column and row differences, so the 8 squares
around a unit are adjacent); `Diagonal.TWO` counts only orthogonal steps.

Which line of sight a shot needs follows the weapon: its own (a straight line of fire,
close combat, direct artillery fire); an observer's (indirect artillery fire: a unit with
Artillery Strike sees the target, seed 000); or none between the ends (an arcing weapon
fires over obstacles, though a unit in smoke still can neither attack nor be targeted).
"""

from __future__ import annotations

import re
from enum import Enum

from ..core.attack import is_whole
from ..errors import InputError, require
from .board import Board, Sight, Square, line_of_sight
from .terrain import TERRAIN_WORD, Corner, Cover, Diagonal, Kind, Terrain, can_enter
from .die import Artillery
from ..core.record import record

MAX_RANGE = 99
ARTILLERY_MINIMUM = 4  # seed 000: «артиллерийское оружие всегда имеет минимальную дальность 4»
RANGE_ALLOWED = ("expected a range: a figure N (1 to N squares), a pair X-Y (X to Y), U (unlimited), C (close "
                 "combat: adjacent squares) or A (artillery: 4 squares or more)")


class Reach(str, Enum):
    """How a weapon gets to its target, which decides the line of sight it needs."""

    LINE = "line"  # a straight line of fire: its own line of sight
    CLOSE = "close"  # range C: an adjacent square
    ARTILLERY = "artillery"  # range A: direct (own sight) or indirect (an observer's)
    ARCING = "arcing"  # an arcing X-Y weapon (a mortar): over obstacles


_PAIR = re.compile(r"^\s*([0-9]{1,3})\s*[-–—]\s*([0-9]{1,3})\s*$")
_LETTERS = {"U": Reach.LINE, "C": Reach.CLOSE, "С": Reach.CLOSE, "A": Reach.ARTILLERY, "А": Reach.ARTILLERY}


@record
class WeaponRange:
    """A weapon's range: the nearest and farthest squares it reaches (None: no maximum)."""

    minimum: int
    maximum: int | None
    reach: Reach
    text: str

    @classmethod
    def parse(cls, text: str | int, arcing: bool = False, name: str = "range") -> WeaponRange:
        """Read `6`, `3-6`, `U`, `C` or `A` (Cyrillic С and А too, as the seeds print them).

        `arcing` marks an X-Y range as an arcing weapon's (a mortar); the seeds write both alike.
        """
        spelled = str(text).strip()
        letter = _LETTERS.get(spelled.upper())
        pair = _PAIR.match(spelled)
        if letter is not None and not arcing:
            minimum, maximum = {Reach.CLOSE: (1, 1), Reach.ARTILLERY: (ARTILLERY_MINIMUM, None)}.get(letter, (1, None))
            return cls(minimum, maximum, letter, spelled.upper())
        if is_whole(spelled) and not spelled.startswith(("+", "-")) and not arcing:
            figure = int(spelled)
            require(1 <= figure <= MAX_RANGE, name, text, f"expected a range of 1 to {MAX_RANGE} squares")
            return cls(1, figure, Reach.LINE, str(figure))
        if pair:
            low, high = int(pair.group(1)), int(pair.group(2))
            require(1 <= low <= high <= MAX_RANGE, name, text,
                    f"expected X-Y with 1 ≤ X ≤ Y ≤ {MAX_RANGE} (the nearest and farthest squares)")
            return cls(low, high, Reach.ARCING if arcing else Reach.LINE, f"{low}-{high}")
        if arcing:
            raise InputError(name, text, "an arcing weapon (a mortar) has a range X-Y, like 3-6")
        raise InputError(name, text, RANGE_ALLOWED)

    def reaches(self, distance: int) -> bool:
        return distance >= self.minimum and (self.maximum is None or distance <= self.maximum)

    def span(self) -> str:
        """The squares it reaches, in words."""
        if self.reach is Reach.CLOSE:
            return "adjacent squares only"
        if self.maximum is None:
            return f"{self.minimum} square{'s' * (self.minimum != 1)} or more"
        return f"{self.minimum} to {self.maximum} squares" if self.minimum != self.maximum else \
            f"{self.maximum} square{'s' * (self.maximum != 1)}"

    def __str__(self) -> str:
        return self.text + (" arcing" if self.reach is Reach.ARCING else "")


def distance(source: Square, target: Square, diagonal: Diagonal = Diagonal.ONE) -> int:
    """Squares from one square to another (a diagonal step one square, or two)."""
    columns, rows = abs(source.column - target.column), abs(source.row - target.row)
    return max(columns, rows) if Diagonal(diagonal) is Diagonal.ONE else columns + rows


@record
class Shot:
    """Where an attack is made: the map, the attacker's and the target's squares, what they are,
    the weapon's range, and (for indirect artillery fire) the observer's square."""

    board: str | Board
    from_square: str | None = None
    to_square: str | None = None
    target: Kind = Kind.SOLDIER
    attacker: Kind = Kind.SOLDIER
    corner: Corner = Corner.BOTH
    range: str | None = None
    arcing: bool = False
    observer: str | None = None
    observer_kind: Kind = Kind.SOLDIER
    diagonal: Diagonal = Diagonal.ONE


@record
class Placed:
    """A shot checked on the board: how far, the line of sight that counts, the target's cover."""

    board: Board
    source: Square
    target: Square
    distance: int
    range: WeaponRange | None
    sight: Sight

    @property
    def cover(self) -> Cover:
        return self.sight.cover


def _stand(chart: Board, square: Square, kind: Kind, name: str, text: str) -> None:
    """Refuse a square a unit of `kind` cannot stand on (docs/rules.md §1.12, movement)."""
    terrain = chart.terrain(square)
    if not can_enter(terrain, kind):
        able = [place.value for place in TERRAIN_WORD if can_enter(place, kind)]
        raise InputError(name, text, f"a {kind.value} cannot stand on {square} ({TERRAIN_WORD[terrain]}): it "
                                     f"stands on {', '.join(able[:-1])} or {able[-1]} squares (docs/rules.md §1.12)")


def weapon_range(shot: Shot, artillery: Artillery | None) -> WeaponRange | None:
    """The weapon's range: `range`, or A for artillery; refuses a range that is not artillery's."""
    if shot.range is None:
        require(not shot.arcing, "arcing", "without --range", "marks an X-Y range as an arcing weapon's: give "
                                                             "--range X-Y too")
        return WeaponRange.parse("A") if artillery is not None else None
    weapon = WeaponRange.parse(shot.range, shot.arcing)
    if artillery is not None:
        require(weapon.reach is Reach.ARTILLERY, "range", shot.range,
                "artillery fires a range A weapon (4 squares or more): drop --range, or give --range A")
    else:
        require(weapon.reach is not Reach.ARTILLERY, "range", shot.range,
                "a range A weapon is artillery: say how it fires, --artillery direct or indirect")
    return weapon


def place(shot: Shot, artillery: Artillery | None = None) -> Placed:
    """Check a shot on the board: squares the units can stand on, the range, and the line of
    sight the weapon needs. Anything that makes the attack impossible is a one-line error."""
    if shot.from_square is None or shot.to_square is None:
        raise InputError("board", getattr(shot.board, "name", shot.board),
                         "needs --from SQ and --to SQ (the attacker's and the target's squares)")
    chart = shot.board if isinstance(shot.board, Board) else Board.named(shot.board, "board")
    attacker, target, corner = Kind(shot.attacker), Kind(shot.target), Corner(shot.corner)
    source = chart.square(shot.from_square, "from_square")
    goal = chart.square(shot.to_square, "to_square")
    _stand(chart, source, attacker, "from_square", shot.from_square)
    _stand(chart, goal, target, "to_square", shot.to_square)
    if source == goal:
        raise InputError("to_square", shot.to_square, f"the attacker's own square ({source}): a unit attacks "
                                                      "another unit's square")
    weapon = weapon_range(shot, artillery)
    require(weapon is not None or Diagonal(shot.diagonal) is Diagonal.ONE, "diagonal", Diagonal(shot.diagonal).value,
            "says how a diagonal step counts in a weapon's range: give --range too")
    squares = distance(source, goal, shot.diagonal)
    if weapon is not None and not weapon.reaches(squares):
        raise InputError("to_square", shot.to_square,
                         f"out of range: {goal} is {squares} square{'s' * (squares != 1)} from {source}; range "
                         f"{weapon} reaches {weapon.span()}")
    indirect = artillery is Artillery.INDIRECT
    require(shot.observer is None or indirect, "observer", shot.observer,
            "only indirect artillery fire needs an observer (--artillery indirect)")
    require(shot.observer is not None or Kind(shot.observer_kind) is Kind.SOLDIER, "observer_kind",
            Kind(shot.observer_kind).value, "says what the observer is: give --observer SQ too")
    if indirect:
        if shot.observer is None:
            raise InputError("observer", None, "is required with --artillery indirect: the square of the unit with "
                                               "Artillery Strike that sees the target")
        spotter = chart.square(shot.observer, "observer")
        _stand(chart, spotter, Kind(shot.observer_kind), "observer", shot.observer)
        if chart.terrain(source) is Terrain.DIAMOND:  # §1.12: whoever sees for it, a unit in smoke cannot attack
            raise InputError("from_square", shot.from_square, f"{source} is smoke: a unit in it can make no attack, "
                                                              "indirect fire included")
        sight = line_of_sight(chart, spotter, goal, target, corner)
        if not sight.open:
            raise InputError("observer", shot.observer, f"the observer at {spotter} has no line of sight to "
                                                        f"{goal}: blocked by {'; '.join(sight.blockers)}")
        return Placed(chart, source, goal, squares, weapon, sight)
    over = weapon is not None and weapon.reach is Reach.ARCING
    sight = line_of_sight(chart, source, goal, target, corner, over_obstacles=over)
    if not sight.open:
        raise InputError("to_square", shot.to_square, f"no line of sight from {source}: blocked by "
                                                      f"{'; '.join(sight.blockers)}")
    return Placed(chart, source, goal, squares, weapon, sight)


def placed_line(placed: Placed, artillery: Artillery | None) -> str:
    """What the board check found, in one line: the distance, the range, the line of sight, the cover."""
    steps = f"{placed.distance} square{'s' * (placed.distance != 1)}"
    reach = (f"range {placed.range} reaches it" if placed.range is not None
             else "range not checked (give --range)")
    whose = "the observer's" if artillery is Artillery.INDIRECT else "its"
    sight = f"{whose} line of sight open" + (" (over the squares between: arcing)"
                                            if placed.range is not None and placed.range.reach is Reach.ARCING else "")
    return (f"board: {placed.board.name}, {placed.source} to {placed.target}: {steps}; {reach}; {sight}; "
            f"cover from the map: {placed.cover.value}")
