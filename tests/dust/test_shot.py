"""A Dust attack on the board (docs/rules.md §1.9, §1.12, §1.13): ranges, where units may
stand, the line of sight each weapon needs. Quotes are seed 000, with the reading beside."""

import pytest

from oddscalc.dust import (
    Artillery,
    Board,
    CoverSave,
    Diagonal,
    Incendiary,
    Kind,
    Phaser,
    Reach,
    Shot,
    Square,
    WeaponLine,
    WeaponRange,
    distance,
    on_board,
    place,
)
from oddscalc.errors import InputError

# A (0) .. H (7) columns, rows 1..5:  '#' no dot, 't' deep water, 'x' rubble, 'd' smoke
MAP = Board.parse(
    "........\n"
    "..#.....\n"
    "..#..t..\n"
    "..#..x.d\n"
    "........\n", "test map")


def shot(source: str, goal: str, **options) -> Shot:
    return Shot(MAP, source, goal, **options)


# --- ranges ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, arcing, minimum, maximum, reach", [
    ("6", False, 1, 6, Reach.LINE),  # «Число обозначает количество квадратов» (a figure: squares it reaches)
    ("3-6", False, 3, 6, Reach.LINE),  # «цифра перед чёрточкой обозначает минимальную дальность»
    ("3–6", False, 3, 6, Reach.LINE),  # an en dash, as printed
    ("U", False, 1, None, Reach.LINE),  # «ДАЛЬНОБОЙНОЕ ОРУЖИЕ (дальность «U»)»: read as unlimited
    ("C", False, 1, 1, Reach.CLOSE),  # «находились на смежных квадратах» (adjacent squares)
    ("С", False, 1, 1, Reach.CLOSE),  # the Cyrillic С the seed prints
    ("A", False, 4, None, Reach.ARTILLERY),  # «минимальную дальность 4 и неограниченную максимальную»
    ("А", False, 4, None, Reach.ARTILLERY),  # the Cyrillic А
    ("2-8", True, 2, 8, Reach.ARCING),  # «навесное оружие ... дальностью X-Y»
])
def test_ranges_read_as_the_seed_writes_them(text, arcing, minimum, maximum, reach):
    weapon = WeaponRange.parse(text, arcing)
    assert (weapon.minimum, weapon.maximum, weapon.reach) == (minimum, maximum, reach)


@pytest.mark.parametrize("text, arcing", [("0", False), ("far", False), ("6-3", False), ("6", True), ("A", True),
                                           ("100", False), ("", False)])
def test_bad_ranges_are_refused(text, arcing):
    with pytest.raises(InputError) as error:
        WeaponRange.parse(text, arcing)
    assert error.value.name == "range"


def test_a_range_reaches_its_squares_both_ends_included():
    assert [WeaponRange.parse("3-6").reaches(d) for d in range(8)] == [False, False, False, True, True, True, True,
                                                                      False]
    assert not WeaponRange.parse("6").reaches(0)  # «вместо обычного «1»»: the usual minimum is 1
    assert [WeaponRange.parse("A").reaches(d) for d in (3, 4, 40)] == [False, True, True]


def test_distance_counts_a_diagonal_step_as_one_square_or_two():
    a, b = Square(0, 0), Square(3, 2)
    assert distance(a, b) == 3 and distance(a, b, Diagonal.TWO) == 5
    assert distance(a, Square(1, 1)) == 1  # the 8 squares around a unit are adjacent


# --- docs/rules.md §1.13: out of range ------------------------------------------------------------


def test_out_of_range_is_refused_with_the_distance():
    with pytest.raises(InputError) as error:
        place(shot("A1", "H1", range="6"))
    assert error.value.name == "to_square" and "H1 is 7 squares from A1" in error.value.allowed
    assert place(shot("A1", "G1", range="6")).distance == 6


def test_direct_artillery_keeps_its_minimum_range():
    """«артиллерийское оружие не может поразить цель в трёх квадратах от себя»: an artillery weapon cannot
    hit a target within three squares, however it fires (the issue's `--artillery direct` A1 → B1)."""
    with pytest.raises(InputError) as error:
        place(shot("A1", "B1"), Artillery.DIRECT)
    assert "range A reaches 4 squares or more" in error.value.allowed
    assert place(shot("A1", "E1"), Artillery.DIRECT).range.reach is Reach.ARTILLERY


def test_artillery_and_a_range_must_agree():
    with pytest.raises(InputError, match="artillery fires a range A weapon"):
        place(shot("A1", "E1", range="6"), Artillery.DIRECT)
    with pytest.raises(InputError, match="is artillery"):
        place(shot("A1", "E1", range="A"))


# --- line of sight by weapon -------------------------------------------------------------------------


def test_a_straight_weapon_needs_its_own_line_of_sight():
    with pytest.raises(InputError, match="no line of sight from B3"):
        place(shot("B3", "D3", range="4"))


def test_indirect_fire_needs_the_observers_sight_not_the_guns():
    """«Наблюдатели ... должны иметь до цели чистую линию прицела»: the observers must see the target."""
    placed = place(shot("A3", "E3", observer="E1"), Artillery.INDIRECT)  # the gun at A3 cannot see E3
    assert placed.sight.source == Square(4, 0) and placed.sight.open
    with pytest.raises(InputError) as error:
        place(shot("A1", "E3"), Artillery.INDIRECT)
    assert error.value.name == "observer" and "required" in error.value.allowed
    with pytest.raises(InputError) as error:
        place(shot("E1", "A3", observer="D3"), Artillery.INDIRECT)  # D3 to A3 passes C3 (no dot)
    assert error.value.name == "observer" and "C3" in error.value.allowed
    with pytest.raises(InputError, match="only indirect artillery fire needs an observer"):
        place(shot("A1", "E1", observer="B1"), Artillery.DIRECT)


def test_a_unit_in_smoke_makes_no_attack_indirect_fire_included():
    """«Любой отряд, занимающий этот квадрат, не может ... атаковать»: whoever sees for the gun."""
    with pytest.raises(InputError) as error:
        place(shot("H4", "A1", observer="E1"), Artillery.INDIRECT)  # E1 sees A1; the gun stands in smoke at H4
    assert error.value.name == "from_square" and "H4 is smoke" in error.value.allowed
    assert place(shot("H5", "A1", observer="E1"), Artillery.INDIRECT).sight.open  # the square beside it fires


def test_the_observer_stands_where_a_unit_of_its_kind_may():
    with pytest.raises(InputError) as error:  # F3 is deep water: no soldier stands there
        place(shot("A1", "H1", observer="F3"), Artillery.INDIRECT)
    assert error.value.name == "observer" and "a soldier cannot stand on F3" in error.value.allowed
    assert place(shot("A1", "H1", observer="F3", observer_kind=Kind.JUMP), Artillery.INDIRECT).sight.open
    with pytest.raises(InputError, match="give --observer SQ too"):
        place(shot("A1", "H1", observer_kind=Kind.JUMP), Artillery.INDIRECT)


def test_a_diagonal_rule_without_a_range_is_refused():
    with pytest.raises(InputError) as error:
        place(shot("A1", "B3", diagonal=Diagonal.TWO))
    assert error.value.name == "diagonal" and "give --range too" in error.value.allowed
    assert place(shot("A1", "B3", diagonal=Diagonal.TWO, range="4")).distance == 3
    assert place(shot("D1", "H5", diagonal=Diagonal.TWO), Artillery.DIRECT).distance == 8  # range A: its minimum


@pytest.mark.parametrize("artillery", [None, Artillery.DIRECT, Artillery.INDIRECT])
def test_a_unit_does_not_attack_its_own_square(artillery):
    with pytest.raises(InputError) as error:
        place(shot("B1", "B1", observer="E1" if artillery is Artillery.INDIRECT else None), artillery)
    assert error.value.name == "to_square" and "own square (B1)" in error.value.allowed


def test_an_arcing_weapon_fires_over_obstacles_but_not_into_smoke():
    """«артиллерия стреляет вверх и описывает дугу над всем между орудием и целью»: over everything between."""
    assert place(shot("B3", "D3", range="2-6", arcing=True)).sight.open
    with pytest.raises(InputError, match="smoke"):  # «Любой отряд, занимающий этот квадрат, не может стать целью»
        place(shot("E4", "H4", range="2-6", arcing=True))


def test_close_combat_reaches_the_adjacent_squares_only():
    assert place(shot("A1", "B2", range="C")).distance == 1
    with pytest.raises(InputError, match="adjacent squares only"):
        place(shot("A1", "C1", range="C"))


# --- docs/rules.md §1.12: where a unit may stand -----------------------------------------------------


@pytest.mark.parametrize("source, target, attacker, target_kind, name, where", [
    ("F3", "F1", Kind.SOLDIER, Kind.SOLDIER, "from_square", "a soldier cannot stand on F3"),  # deep water
    ("F1", "F3", Kind.SOLDIER, Kind.VEHICLE, "to_square", "a vehicle cannot stand on F3"),  # «Отряды не могут ходить»
    ("F1", "F4", Kind.SOLDIER, Kind.VEHICLE, "to_square", "a vehicle cannot stand on F4"),  # rubble: «движение машин»
    ("C2", "E2", Kind.SOLDIER, Kind.SOLDIER, "from_square", "a soldier cannot stand on C2"),  # no dot
    ("C2", "E2", Kind.JUMP, Kind.SOLDIER, "from_square", "a jump cannot stand on C2"),  # «не даёт ... «Прыжок»»
])
def test_a_unit_cannot_stand_where_it_cannot_move(source, target, attacker, target_kind, name, where):
    with pytest.raises(InputError) as error:
        place(shot(source, target, attacker=attacker, target=target_kind))
    assert error.value.name == name and where in error.value.allowed


def test_aircraft_and_jump_units_stand_over_deep_water():
    assert place(shot("F3", "F1", attacker=Kind.AIRCRAFT)).distance == 2
    assert place(shot("F1", "F3", target=Kind.JUMP)).distance == 2


# --- the attack built on the board -------------------------------------------------------------------


def test_every_attack_is_checked_on_the_board_and_takes_the_maps_cover():
    line, notes = on_board(WeaponLine, board=MAP, from_square="F5", to_square="F4", dice=3)
    assert line.save is CoverSave.HIT and notes == (
        "board: test map, F5 to F4: 1 square; range not checked (give --range); its line of sight open; cover from "
        "the map: soft",
        "note: the target's hit-save comes from the map: it stands in cross terrain (soft cover); --save none would "
        "remove it")
    fire, _ = on_board(Incendiary, board=MAP, from_square="F5", to_square="F4",
                       dice="1/+", models=3)
    assert fire.save is CoverSave.HIT
    phaser, notes = on_board(Phaser, board=MAP, from_square="F5", to_square="F4", aim="2z3")
    assert len(notes) == 1 and not hasattr(phaser, "save")  # a phaser ignores cover: the board's line only
    with pytest.raises(InputError, match="out of range"):
        on_board(Phaser, board=MAP, from_square="A1", to_square="H1", range="4", aim=2, blast=3)


def test_artillery_on_the_board_ignores_the_maps_cover_without_a_note():
    line, notes = on_board(WeaponLine, board=MAP, from_square="F1", to_square="F5", observer=None, dice=2,
                           artillery="direct")
    assert line.cover is CoverSave.NONE and notes == (
        "board: test map, F1 to F5: 4 squares; range A reaches it; its line of sight open; cover from the map: none",)
    arcing, notes = on_board(WeaponLine, board=MAP, from_square="B3", to_square="D3", range="2-6", arcing=True, dice=1)
    assert notes == ("board: test map, B3 to D3: 2 squares; range 2-6 arcing reaches it; its line of sight open (over "
                     "the squares between: arcing); cover from the map: none",)
    indirect, notes = on_board(WeaponLine, board=MAP, from_square="A3", to_square="E3", observer="E1", dice=2,
                               artillery="indirect")
    assert notes[0].startswith("board: test map, A3 to E3: 4 squares; range A reaches it; the observer's line of "
                               "sight open")


@pytest.mark.parametrize("name, value, spelled, said", [("range", "6", "--range", "6"),
                                                         ("observer", "B2", "--observer", "B2"),
                                                         ("arcing", True, "--arcing", True),
                                                         ("attacker", Kind.VEHICLE, "--attacker", "vehicle")])
def test_the_boards_options_need_a_board(name, value, spelled, said):
    with pytest.raises(InputError) as error:
        on_board(WeaponLine, dice=2, **{name: value})
    assert error.value.name == name and f"{spelled} only applies with --board" in error.value.allowed
    assert repr(error.value.value) == repr(said)  # the value as its option spells it (a kind by its word)
