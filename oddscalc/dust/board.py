"""The Dust Tactics board (docs/rules.md §1.12): plain-text maps, line of sight, movement.

A map is a text file with one character per square:

    .  or  o   circle   (open ground)
    t          triangle (deep water)
    x          cross    (rubble)
    d          diamond  (smoke)
    #          none     (no symbol, no dot; also a terrain tile laid over the dot)

Letters may be upper or lower case. Columns are letters A, B, … (then AA, AB, …) from
left to right, rows numbers 1, 2, … from top to bottom: B2 is column B, row 2. Lines
starting with `;` are comments; comments and blank lines may come before and after the
grid, not inside it. Every row must have the same length.

Line of sight runs from the centre (the dot) of one square to the centre of another, as a
straight segment. It is blocked when the segment passes through the inside of a square
between them that is smoke or has no dot, when either end is in smoke (a unit in smoke
can neither attack nor be targeted), or when either end has no dot. Deep water and rubble
do not block it.

Corners: a segment can pass exactly through a point where four squares meet; it then
goes from one square straight into the diagonal one and only touches the other two at
that point. By default (`Corner.BOTH`) the line is blocked there only when both squares
it squeezes between block: one blocking square's corner does not hide a target (the line
slips past it, as it would past any single obstacle it does not enter), but two blocking
squares meeting diagonally form an unbroken wall with no gap to see through. The other
readings are switches: `Corner.EITHER` (any blocking square touched at a corner blocks,
the strictest) and `Corner.NEVER` (only squares whose inside the line enters count, the
purely geometric one, which sees through a diagonal wall).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError, require
from ..core.record import record
from .terrain import (BLOCKS_SIGHT, LEGEND, SYMBOLS, TERRAIN_WORD, Corner, Cover, Kind,
                      Terrain, cover)

if TYPE_CHECKING:
    from pathlib import Path


MAX_MAP_BYTES = 1 << 16  # a map file (a 100 by 100 map with comments is about 10 kB)
MAX_SIDE = 100  # squares a side (a game's board is a dozen or two)


# --- squares -------------------------------------------------------------------------

_SQUARE = re.compile(r"^\s*([A-Za-z]{1,3})\s*([0-9]{1,4})\s*$")


def column_name(column: int) -> str:
    """0 → A, 25 → Z, 26 → AA (spreadsheet style)."""
    name = ""
    column += 1
    while column:
        column, digit = divmod(column - 1, 26)
        name = chr(ord("A") + digit) + name
    return name


def column_number(name: str) -> int:
    """A → 0, Z → 25, AA → 26."""
    number = 0
    for letter in name.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number - 1


@dataclass(frozen=True, order=True)
class Square:
    """A square: `column` and `row` count from 0 (B2 is column 1, row 1)."""

    column: int
    row: int

    @property
    def name(self) -> str:
        return f"{column_name(self.column)}{self.row + 1}"

    def __str__(self) -> str:
        return self.name


# --- the board -----------------------------------------------------------------------


@record
class Board:
    """A map: the terrain of each square, row by row from the top."""

    name: str
    rows: tuple[tuple[Terrain, ...], ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def terrain(self, square: Square) -> Terrain:
        if not self.contains(square):
            raise InputError("square", square, f"off the map: {self.name} has {self.extent()}")
        return self.rows[square.row][square.column]

    def contains(self, square: Square) -> bool:
        return 0 <= square.column < self.width and 0 <= square.row < self.height

    def extent(self) -> str:
        return f"columns A–{column_name(self.width - 1)}, rows 1–{self.height}"

    def square(self, text: str, name: str = "square") -> Square:
        """Read a square like `B2`, refusing one off this map."""
        match = _SQUARE.match(str(text))
        if not match:
            raise InputError(name, text, f"expected a square like B2 (column letter, row number); "
                                         f"the map {self.name} has {self.extent()}")
        square = Square(column_number(match.group(1)), int(match.group(2)) - 1)
        if not self.contains(square):
            raise InputError(name, text, f"off the map: {self.name} has {self.extent()}")
        return square

    @classmethod
    def parse(cls, text: str, name: str = "map", parameter: str = "board") -> Board:
        """Read a map's text; errors name the file `name` and the option `parameter`."""
        lines = text.splitlines()
        grid = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(";")]
        if not grid:
            raise InputError(parameter, name, f"no squares: expected rows of one symbol per square ({LEGEND})")
        first, last = grid[0], grid[-1]
        rows: list[tuple[Terrain, ...]] = []
        for index in range(first, last + 1):
            line = lines[index].rstrip()
            where = f"line {index + 1}"
            if not line.strip() or line.lstrip().startswith(";"):
                raise InputError(parameter, name, f"{where}: a blank or comment line inside the grid; "
                                                  "comments and blank lines go before or after the rows")
            row = []
            for position, symbol in enumerate(line):
                terrain = SYMBOLS.get(symbol.lower())
                if terrain is None:
                    raise InputError(parameter, name, f"{where}, column {position + 1}: unknown symbol "
                                                      f"{symbol!r}; expected {LEGEND}")
                row.append(terrain)
            if rows and len(row) != len(rows[0]):
                column = min(len(row), len(rows[0])) + 1
                raise InputError(parameter, name, f"{where}, column {column}: this row has {len(row)} squares "
                                                  f"but the first has {len(rows[0])} (every row needs the same length)")
            rows.append(tuple(row))
            if len(rows) > MAX_SIDE or len(row) > MAX_SIDE:
                what = "rows" if len(rows) > MAX_SIDE else "squares in a row"
                raise InputError(parameter, name, f"{where}: more than {MAX_SIDE} {what}: a map is at most "
                                                  f"{MAX_SIDE} by {MAX_SIDE} squares")
        return cls(name, tuple(rows))

    @classmethod
    def load(cls, source: str | Path, parameter: str = "board") -> Board:
        """Load a map from a file, or a shipped map by name (`ruins`, `crossroads`)."""
        from pathlib import Path  # (a map's only: a first answer imports no pathlib)

        from ..core.files import read_capped

        path = Path(source)
        if path.is_file():
            data = read_capped(path, MAX_MAP_BYTES, "a map", parameter)
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise InputError(parameter, source, f"not UTF-8 text (byte {error.start})") from None
            return cls.parse(text, str(source), parameter)
        if str(source) in shipped_maps():
            return cls.shipped(str(source), parameter)
        raise InputError(parameter, source, f"no such file, and not a shipped map ({', '.join(shipped_maps())})")

    @classmethod
    def named(cls, name: str | Path, parameter: str = "board", files: Any = None) -> Board:
        """The map a query's word names (`--board`, `dust los MAP`), opened only as `files` allow (a
        `given.Files`; default: the files of the query being answered): a file of this machine
        (`LocalFiles`), else a shipped map by its name; nothing is looked at before that."""
        from ..core.given import current

        files = files if files is not None else current().files
        if files.local:
            return cls.load(name, parameter)
        if str(name) not in shipped_maps():
            raise InputError(parameter, name, f"{files.why}: expected a shipped map ({', '.join(shipped_maps())})")
        return cls.shipped(str(name), parameter)

    @classmethod
    def shipped(cls, name: str, parameter: str = "board") -> Board:
        """A map that comes with oddscalc, by its name (nothing else is opened)."""
        require(name in shipped_maps(), parameter, name, f"expected a shipped map ({', '.join(shipped_maps())})")
        return cls.parse((_data() / f"dust_{name}.txt").read_text(encoding="utf-8"), name, parameter)


def _data() -> Any:
    """The folder of oddscalc's data files (importlib.resources, imported when needed)."""
    from importlib import resources

    return resources.files("oddscalc") / "data"


def shipped_maps() -> list[str]:
    """The names of the example maps that come with oddscalc."""
    folder = _data()
    names = [entry.name for entry in folder.iterdir()] if folder.is_dir() else []
    return sorted(name[len("dust_"):-len(".txt")] for name in names
                  if name.startswith("dust_") and name.endswith(".txt"))


# --- line of sight -------------------------------------------------------------------


@record
class Trace:
    """What a centre-to-centre segment passes through: squares in order and corners."""

    squares: tuple[Square, ...]  # every square whose inside it passes through, both ends included
    corners: tuple[tuple[Square, Square], ...]  # the two squares touched at each corner it passes


def trace(source: Square, target: Square) -> Trace:
    """Trace the segment between two square centres, exactly (rational arithmetic).

    Coordinates are doubled so that centres are odd integers and grid lines even ones.
    """
    x0, y0 = 2 * source.column + 1, 2 * source.row + 1
    x1, y1 = 2 * target.column + 1, 2 * target.row + 1
    dx, dy = x1 - x0, y1 - y0
    vertical = {Fraction(k - x0, dx) for k in range(min(x0, x1) + 1, max(x0, x1)) if k % 2 == 0}
    horizontal = {Fraction(k - y0, dy) for k in range(min(y0, y1) + 1, max(y0, y1)) if k % 2 == 0}
    times = sorted({Fraction(0), Fraction(1)} | vertical | horizontal)
    squares = []
    for start, end in zip(times, times[1:]):
        middle = (start + end) / 2
        squares.append(Square(int((x0 + dx * middle) // 2), int((y0 + dy * middle) // 2)))
    corners = []
    for i, time in enumerate(times[1:-1]):
        if time in vertical and time in horizontal:  # exactly through a corner
            before, after = squares[i], squares[i + 1]
            corners.append((Square(after.column, before.row), Square(before.column, after.row)))
    return Trace(tuple(squares), tuple(corners))


@record
class Sight:
    """The line of sight from one square to another: open or not, and why."""

    source: Square
    target: Square
    crossed: tuple[Square, ...]  # the squares between, in order
    corners: tuple[tuple[Square, Square], ...]  # the pairs it passes between at corners
    blockers: tuple[str, ...]  # why it is blocked (empty when open)
    cover: Cover  # the cover the target gets from its square

    @property
    def open(self) -> bool:
        return not self.blockers


def line_of_sight(board: Board, source: Square, target: Square, kind: Kind = Kind.SOLDIER,
                  corner: Corner = Corner.BOTH, over_obstacles: bool = False) -> Sight:
    """Trace the line of sight from `source` to a target of `kind` at `target` (docs/rules.md §1.12).

    `over_obstacles`: the shot arcs over the squares between (an arcing weapon), so only the
    ends count: a unit in smoke, or on a square without a dot, still cannot attack or be targeted.
    """
    corner = Corner(corner)
    path = trace(source, target)
    blockers = []
    for square in dict.fromkeys((source, target)):
        terrain = board.terrain(square)
        if terrain is Terrain.DIAMOND:  # §1.12: a unit in smoke can neither attack nor be targeted
            blockers.append(f"{square} is smoke: a unit in it can neither attack nor be targeted")
        elif terrain is Terrain.NONE:  # §1.12: line of sight runs dot to dot
            blockers.append(f"{square} has no dot to trace line of sight from or to")
    crossed = path.squares[1:-1]
    for square in () if over_obstacles else crossed:
        if board.terrain(square) in BLOCKS_SIGHT:
            blockers.append(f"{square} ({TERRAIN_WORD[board.terrain(square)]})")
    for pair in () if over_obstacles else path.corners:
        blocking = sum(board.terrain(square) in BLOCKS_SIGHT for square in pair)
        if (corner is Corner.BOTH and blocking == 2) or (corner is Corner.EITHER and blocking):
            names = " and ".join(f"{square} ({TERRAIN_WORD[board.terrain(square)]})" for square in pair)
            blockers.append(f"the corner between {names} (corner rule: {corner.value})")
    return Sight(source, target, crossed, path.corners, tuple(blockers), cover(board.terrain(target), kind))


def sight_report(chart: Board, sight: Sight, kind: Kind, corner: Corner) -> str:
    """Say in words what a line of sight crosses and the cover the target gets."""

    def named(square: Square) -> str:
        return f"{square} ({TERRAIN_WORD[chart.terrain(square)]})"

    kind, corner = Kind(kind), Corner(corner)
    verdict = "open" if sight.open else "blocked"
    lines = [f"line of sight from {named(sight.source)} to {named(sight.target)} on {chart.name}: {verdict}"]
    lines += [f"  blocked by {reason}" for reason in sight.blockers]
    lines.append("  squares crossed: " + (", ".join(named(square) for square in sight.crossed) or "none"))
    if sight.corners:
        lines.append("  corners passed between: " + "; ".join(f"{named(a)} and {named(b)}" for a, b in sight.corners)
                     + f" (corner rule: {corner.value})")
    if sight.cover is Cover.SOFT:
        lines.append(f"  cover: soft, a {kind.value} in cross terrain (dust attack --board applies --save hit)")
    else:
        lines.append(f"  cover: none from the terrain for a {kind.value} ({TERRAIN_WORD[chart.terrain(sight.target)]})")
    return "\n".join(lines)


def sight_facts(chart: Board, sight: Sight, kind: Kind, corner: Corner) -> dict[str, Any]:
    """What a line of sight crosses, as data (for JSON and CSV)."""
    return {
        "map": chart.name, "from": str(sight.source), "to": str(sight.target), "target": Kind(kind).value,
        "corner_rule": Corner(corner).value, "open": sight.open, "blocked_by": list(sight.blockers),
        "crossed": [str(square) for square in sight.crossed],
        "corners": [f"{a} and {b}" for a, b in sight.corners], "cover": sight.cover.value,
    }
