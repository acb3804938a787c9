import itertools
import random
from fractions import Fraction

import pytest

from oddscalc.dust.board import (
    Board,
    Square,
    column_name,
    column_number,
    line_of_sight,
    shipped_maps,
    trace,
)
from oddscalc.dust.terrain import Corner, Cover, Kind, Terrain, can_enter, cover
from oddscalc.errors import InputError

F = Fraction

MAP = """\
; a test map: 6 columns (A-F), 5 rows
; second comment line

......
.d#...
..tx..
.O..T.
#..X.D

; trailing comment
"""


@pytest.fixture
def board():
    return Board.parse(MAP, "test.txt")


def at(board, name):
    return board.square(name)


# --- the map file ------------------------------------------------------------------------


def test_codes_and_layout(board):
    assert (board.width, board.height) == (6, 5)
    terrain = {name: board.terrain(at(board, name)) for name in ("A1", "B2", "C2", "C3", "D3", "B4", "E4", "A5",
                                                                 "D5", "F5")}
    assert terrain == {"A1": Terrain.CIRCLE, "B2": Terrain.DIAMOND, "C2": Terrain.NONE, "C3": Terrain.TRIANGLE,
                       "D3": Terrain.CROSS, "B4": Terrain.CIRCLE, "E4": Terrain.TRIANGLE, "A5": Terrain.NONE,
                       "D5": Terrain.CROSS, "F5": Terrain.DIAMOND}


def test_squares_are_column_letter_then_row_number(board):
    assert at(board, "B2") == Square(1, 1)
    assert at(board, "f5") == Square(5, 4)
    assert str(Square(1, 1)) == "B2"


def test_column_names_round_trip():
    assert [column_name(i) for i in (0, 25, 26, 27, 51, 52, 701, 702)] == ["A", "Z", "AA", "AB", "AZ", "BA", "ZZ",
                                                                          "AAA"]
    assert all(column_number(column_name(i)) == i for i in range(2000))


@pytest.mark.parametrize("text", ["G1", "A6", "A0", "Z99"])
def test_square_off_the_map(board, text):
    with pytest.raises(InputError) as error:
        board.square(text, "to_square")
    assert error.value.name == "to_square" and "off the map" in error.value.allowed
    assert "columns A–F, rows 1–5" in error.value.allowed


@pytest.mark.parametrize("text", ["2B", "B", "", "B-2", "B2C"])
def test_square_malformed(board, text):
    with pytest.raises(InputError) as error:
        board.square(text, "from_square")
    assert error.value.name == "from_square" and "like B2" in error.value.allowed


@pytest.mark.parametrize(
    "text, where",
    [
        ("...\n.q.\n...\n", "line 2, column 2: unknown symbol 'q'"),
        ("; comment\n...\n.. \n", "line 3, column 3: this row has 2 squares"),  # trailing spaces dropped
        ("...\n....\n", "line 2, column 4: this row has 4 squares but the first has 3"),
        ("....\n..\n", "line 2, column 3: this row has 2 squares but the first has 4"),
        ("...\n\n...\n", "line 2: a blank or comment line inside the grid"),
        ("...\n; note\n...\n", "line 2: a blank or comment line inside the grid"),
        ("; only comments\n\n", "no squares"),
        (" ..\n...\n", "line 1, column 1: unknown symbol ' '"),
    ],
)
def test_bad_maps_are_refused_with_file_line_and_column(text, where):
    with pytest.raises(InputError) as error:
        Board.parse(text, "maps/bad.txt", "board")
    assert error.value.name == "board" and error.value.value == "maps/bad.txt"
    assert where in error.value.allowed


def test_shipped_maps_load_by_name_and_by_path(tmp_path):
    assert shipped_maps() == ["crossroads", "ruins"]
    ruins = Board.load("ruins")
    assert (ruins.width, ruins.height) == (12, 9)
    assert Board.load("crossroads").width == 14
    path = tmp_path / "mine.txt"
    path.write_text(MAP)
    assert Board.load(path).rows == Board.parse(MAP).rows
    assert Board.load(str(path)).name == str(path)


@pytest.mark.parametrize("text, message", [
    ("." * 101, "line 1: more than 100 squares in a row: a map is at most 100 by 100 squares"),
    (".\n" * 101, "line 101: more than 100 rows: a map is at most 100 by 100 squares"),
    ("." * 70_000, "70,000 bytes: a map is at most 65,536 bytes"),
    ("\udcff.", "not UTF-8 text (byte 0)"),
])
def test_a_map_file_is_capped_before_it_is_read(tmp_path, text, message):
    path = tmp_path / "map.txt"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(InputError) as error:
        Board.load(path, "board")
    assert (error.value.name, error.value.allowed) == ("board", message)
    path.write_text((("." * 100) + "\n") * 100)
    assert (Board.load(path).width, Board.load(path).height) == (100, 100)  # at the caps: read


def test_unknown_map_is_refused():
    with pytest.raises(InputError) as error:
        Board.load("nowhere", "board")
    assert error.value.name == "board" and "crossroads, ruins" in error.value.allowed


# --- movement (docs/rules.md §1.12) ----------------------------------------------------------------

MOVEMENT = {  # terrain → (soldier, vehicle, aircraft, jump)
    Terrain.CIRCLE: (True, True, True, True),
    Terrain.TRIANGLE: (False, False, True, True),
    Terrain.CROSS: (True, False, True, True),
    Terrain.DIAMOND: (True, True, True, True),
    Terrain.NONE: (False, False, True, False),
}


@pytest.mark.parametrize("terrain", list(Terrain))
def test_movement_table(terrain):
    kinds = (Kind.SOLDIER, Kind.VEHICLE, Kind.AIRCRAFT, Kind.JUMP)
    assert tuple(can_enter(terrain, kind) for kind in kinds) == MOVEMENT[terrain]
    assert can_enter(terrain.value, "aircraft")


# --- cover ------------------------------------------------------------------------------------


def test_soldiers_in_cross_terrain_get_soft_cover():
    assert cover(Terrain.CROSS, Kind.SOLDIER) is Cover.SOFT
    assert cover(Terrain.CROSS, Kind.JUMP) is Cover.SOFT
    assert cover(Terrain.CROSS, Kind.VEHICLE) is Cover.NONE
    assert cover(Terrain.CROSS, Kind.AIRCRAFT) is Cover.NONE
    for terrain in (Terrain.CIRCLE, Terrain.TRIANGLE, Terrain.DIAMOND, Terrain.NONE):
        assert cover(terrain, Kind.SOLDIER) is Cover.NONE


def test_line_of_sight_reports_the_targets_cover(board):
    assert line_of_sight(board, at(board, "A3"), at(board, "D3")).cover is Cover.SOFT
    assert line_of_sight(board, at(board, "A3"), at(board, "D3"), Kind.VEHICLE).cover is Cover.NONE


# --- line of sight ---------------------------------------------------------------------------


def sight(board, source, target, corner=Corner.BOTH):
    return line_of_sight(board, at(board, source), at(board, target), corner=corner)


def names(squares):
    return [str(square) for square in squares]


def test_deep_water_and_rubble_do_not_block(board):
    result = sight(board, "A3", "F3")
    assert result.open and names(result.crossed) == ["B3", "C3", "D3", "E3"]


def test_smoke_between_blocks(board):
    result = sight(board, "A2", "D1")
    assert "B2" in names(result.crossed) and not result.open
    assert any("B2" in reason for reason in result.blockers)


def test_no_dot_between_blocks(board):
    result = sight(board, "B1", "D3")  # the diagonal passes through the middle of C2
    assert names(result.crossed) == ["C2"] and not result.open


@pytest.mark.parametrize("source, target", [("B2", "B4"), ("B4", "B2"), ("F5", "F1"), ("A1", "F5")])
def test_a_unit_in_smoke_can_neither_attack_nor_be_targeted(board, source, target):
    result = sight(board, source, target)
    assert not result.open and any("smoke" in reason for reason in result.blockers)


def test_an_end_without_a_dot_blocks(board):
    assert not sight(board, "A5", "C5").open
    assert not sight(board, "C5", "A5").open


def test_adjacent_and_same_square(board):
    assert sight(board, "A1", "B1").open and sight(board, "A1", "B1").crossed == ()
    assert sight(board, "A1", "A1").open


def test_a_line_between_squares_without_corners():
    path = trace(Square(0, 0), Square(2, 1))  # A1 → C2
    assert names(path.squares) == ["A1", "B1", "B2", "C2"] and path.corners == ()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("..\n..\n", {Corner.BOTH: True, Corner.EITHER: True, Corner.NEVER: True}),
        (".#\n..\n", {Corner.BOTH: True, Corner.EITHER: False, Corner.NEVER: True}),
        (".d\n..\n", {Corner.BOTH: True, Corner.EITHER: False, Corner.NEVER: True}),
        (".#\nd.\n", {Corner.BOTH: False, Corner.EITHER: False, Corner.NEVER: True}),
        (".t\nx.\n", {Corner.BOTH: True, Corner.EITHER: True, Corner.NEVER: True}),
    ],
)
def test_a_line_exactly_through_a_corner(text, expected):
    """A1 → B2 passes the corner where B1 and A2 meet it."""
    board = Board.parse(text)
    for corner, open_ in expected.items():
        result = line_of_sight(board, Square(0, 0), Square(1, 1), corner=corner)
        assert result.open is open_, corner
        assert result.crossed == () and result.corners == ((Square(1, 0), Square(0, 1)),)


def test_a_long_diagonal_slips_past_one_blocker_per_corner():
    board = Board.parse(".#.\n...\n.#.\n")  # A1 → C3: corners B1|A2 and C2|B3
    assert line_of_sight(board, Square(0, 0), Square(2, 2)).open
    assert not line_of_sight(board, Square(0, 0), Square(2, 2), corner=Corner.EITHER).open


# --- the tracer against an independent oracle (clipping the segment to each square) ---------


def passes_inside(source: Square, target: Square, square: Square):
    """Return the entry parameter if the centre-to-centre segment passes the square's inside."""
    x0, y0 = source.column + F(1, 2), source.row + F(1, 2)
    dx, dy = target.column - source.column, target.row - source.row
    low, high = F(0), F(1)
    for p, q in ((-dx, x0 - square.column), (dx, square.column + 1 - x0),
                 (-dy, y0 - square.row), (dy, square.row + 1 - y0)):
        if p == 0:
            if q <= 0:
                return None
        elif p < 0:
            low = max(low, F(q, 1) / p)
        else:
            high = min(high, F(q, 1) / p)
    if low >= high:
        return None
    middle = (low + high) / 2
    x, y = x0 + dx * middle, y0 + dy * middle
    inside = square.column < x < square.column + 1 and square.row < y < square.row + 1
    return low if inside else None


def corners_touched(source: Square, target: Square):
    """The squeezed pairs at every grid point strictly inside the segment."""
    x0, y0 = source.column + F(1, 2), source.row + F(1, 2)
    dx, dy = target.column - source.column, target.row - source.row
    pairs = set()
    for i in range(min(source.column, target.column), max(source.column, target.column) + 2):
        for j in range(min(source.row, target.row), max(source.row, target.row) + 2):
            if dx and dy and F(i - x0, dx) == F(j - y0, dy) and 0 < F(i - x0, dx) < 1:
                around = {Square(i - 1, j - 1), Square(i, j - 1), Square(i - 1, j), Square(i, j)}
                passed = {s for s in around if passes_inside(source, target, s) is not None}
                pairs.add(frozenset(around - passed))
    return pairs


def test_trace_matches_clipping_on_every_pair_of_a_grid():
    grid = [Square(c, r) for c in range(6) for r in range(5)]
    for source, target in itertools.product(grid, grid):
        if source == target:
            continue
        path = trace(source, target)
        entries = {s: passes_inside(source, target, s) for s in grid}
        expected = sorted((t, s) for s, t in entries.items() if t is not None)
        assert list(path.squares) == [s for _, s in expected], (source, target)
        assert {frozenset(pair) for pair in path.corners} == corners_touched(source, target), (source, target)


def test_line_of_sight_is_symmetric():
    rng = random.Random(11)
    text = "\n".join("".join(rng.choice("....txd#") for _ in range(7)) for _ in range(6))
    board = Board.parse(text)
    grid = [Square(c, r) for c in range(7) for r in range(6)]
    for corner in Corner:
        for source, target in itertools.combinations(grid, 2):
            there = line_of_sight(board, source, target, corner=corner)
            back = line_of_sight(board, target, source, corner=corner)
            assert there.open == back.open, (source, target, corner)
            assert there.crossed == back.crossed[::-1]


def test_squares_off_the_board_are_refused(board):
    with pytest.raises(InputError):
        line_of_sight(board, Square(0, 0), Square(6, 0))
    with pytest.raises(InputError):
        board.terrain(Square(-1, 0))
