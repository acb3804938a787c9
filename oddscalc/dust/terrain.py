"""The Dust Tactics map's words (docs/rules.md §1.12): its terrain symbols, what stands on a square (`Kind`) and
the cover it gives, and the two open readings of a line or a range (`Corner`, `Diagonal`). The attacks' and the
queries' options name them; the board itself (`board.py`) and a shot on it (`shot.py`) are imported only for a map.
"""

from __future__ import annotations

from enum import Enum


class Terrain(str, Enum):
    """The five terrain symbols of docs/rules.md §1.12."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    CROSS = "cross"
    DIAMOND = "diamond"
    NONE = "none"


SYMBOLS = {".": Terrain.CIRCLE, "o": Terrain.CIRCLE, "t": Terrain.TRIANGLE, "x": Terrain.CROSS,
           "d": Terrain.DIAMOND, "#": Terrain.NONE}
LEGEND = ". or o circle (open), t triangle (deep water), x cross (rubble), d diamond (smoke), # none (no dot)"
MAP_FORMAT = (
    "A map is a text file, one character per square: '.' or 'o' circle (open), 't' triangle (deep water), 'x' "
    "cross (rubble), 'd' diamond (smoke), '#' none (no dot, or a terrain tile over the dot). Columns are letters "
    "A, B, ... from the left, rows numbers 1, 2, ... from the top (B2 = column B, row 2). Lines starting with ';' "
    "are comments (before or after the grid). Shipped maps: ruins, crossroads.")
SIGHT_RULES = (
    "Line of sight runs from square centre to square centre; smoke and squares without a dot block it, and a unit "
    "in smoke can neither attack nor be targeted. A line exactly through a corner is blocked, by default, only "
    "when both squares it passes between block (--corner).")
TERRAIN_WORD = {Terrain.CIRCLE: "circle, open", Terrain.TRIANGLE: "triangle, deep water",
                Terrain.CROSS: "cross, rubble", Terrain.DIAMOND: "diamond, smoke", Terrain.NONE: "none, no dot"}


class Kind(str, Enum):
    """What moves or is targeted: a soldier, a vehicle, an aircraft, a unit with Jump."""

    SOLDIER = "soldier"
    VEHICLE = "vehicle"
    AIRCRAFT = "aircraft"
    JUMP = "jump"


class Corner(str, Enum):
    """When a line exactly through a corner is blocked by the two squares it passes between."""

    BOTH = "both"  # only when both of them block (default)
    EITHER = "either"  # when either of them blocks
    NEVER = "never"  # never: a line that only touches a square is not blocked by it


class Cover(str, Enum):
    """The cover a target gets from the square it stands in."""

    NONE = "none"
    SOFT = "soft"


# docs/rules.md §1.12, movement column: which kinds may enter each terrain
MOVEMENT = {
    Terrain.CIRCLE: frozenset(Kind),
    Terrain.TRIANGLE: frozenset({Kind.AIRCRAFT, Kind.JUMP}),
    Terrain.CROSS: frozenset({Kind.SOLDIER, Kind.AIRCRAFT, Kind.JUMP}),
    Terrain.DIAMOND: frozenset(Kind),
    Terrain.NONE: frozenset({Kind.AIRCRAFT}),
}
BLOCKS_SIGHT = frozenset({Terrain.DIAMOND, Terrain.NONE})  # §1.12, line of sight column


def can_enter(terrain: Terrain, kind: Kind) -> bool:
    """Say whether a unit of `kind` may move into a square of `terrain` (docs/rules.md §1.12)."""
    return Kind(kind) in MOVEMENT[Terrain(terrain)]


def cover(terrain: Terrain, kind: Kind) -> Cover:
    """Return the cover a target of `kind` gets from its square's terrain.

    docs/rules.md §1.11–1.12: a soldier unit (Jump units are soldiers) in cross terrain is in
    soft cover; vehicles and aircraft get none from terrain. Cover elements on a square
    are not part of the map: give the save yourself.
    """
    soldier = Kind(kind) in (Kind.SOLDIER, Kind.JUMP)
    return Cover.SOFT if soldier and Terrain(terrain) is Terrain.CROSS else Cover.NONE


class Diagonal(str, Enum):
    """How a diagonal step counts when a range is counted in squares (open: the rules do not say)."""

    ONE = "one"  # one square: distance = the larger of the column and row differences
    TWO = "two"  # two squares: only orthogonal steps count
