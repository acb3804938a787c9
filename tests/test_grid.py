"""Roster grids from the library: matchups, settings, ranking, the heatmap's matrix."""

import math

import pytest

from oddscalc import games
from oddscalc.errors import InputError
from oddscalc.grid import check_settings, matchups, rank, run_grid

ROSTER = '''game = "epic"

[[unit]]
name = "Guns"
points = 200
kind = "infantry"
units = 2
armour = "4+"

[[unit.weapon]]
name = "Lascannon"
at = "4+"

[[unit]]
name = "Tanks"
points = 100
kind = "armoured-vehicle"
units = 1
armour = "4+"

[[unit.weapon]]
name = "Bolters"
ap = "4+"
shots = 2
'''


@pytest.fixture
def grid():
    roster = games.parse_roster(ROSTER, "grid.toml")
    return run_grid(roster, method="exact")


def test_every_weapon_meets_every_target_in_order(grid):
    assert [(p.attacker.name, p.weapon.name, p.target.name) for p in grid.pairs] == [
        ("Guns", "Lascannon", "Guns"), ("Guns", "Lascannon", "Tanks"), ("Tanks", "Bolters", "Guns"),
        ("Tanks", "Bolters", "Tanks")]
    # AT cannot hurt infantry and AP cannot hurt armour: those cells are None
    assert [r is None for r in grid.results] == [True, False, False, True]
    assert grid.method == "exact" and grid.trials is None and grid.seed is None


def test_rows_rank_by_per_100_points_and_put_cells_that_cannot_hurt_last(grid):
    rows = grid.rows()
    assert [row["rank"] for row in rows] == [1, 2]
    # Bolters: 2 shots at 4+ on 2 infantry, 4+ save: E[kills] = 2 · 1/4 = 1/2, per 100 of 100 points = 0.5
    # Lascannon: 1 shot at 4+ on 1 tank, 4+ save: 1/4, per 100 of 200 points = 0.125
    assert [(row["weapon"], row["per_100_points"]) for row in rows[:2]] == [("Bolters", pytest.approx(0.5)),
                                                                             ("Lascannon", pytest.approx(0.125))]
    assert grid.cannot_hurt() == [{"attacker": "Guns", "weapon": "Lascannon", "target": "Guns"},
                                  {"attacker": "Tanks", "weapon": "Bolters", "target": "Tanks"}]
    assert rows[0]["p_kill"] == pytest.approx(1 / 16)  # both units must die: each gets one 1/4 shot
    assert grid.default_sort() == "per_100_points"
    assert [row["weapon"] for row in grid.rows(sort="p_kill")[:2]] == ["Lascannon", "Bolters"]


def test_the_matrix_of_the_heatmap(grid):
    values, rows, columns, label = grid.matrix()
    assert rows == ["Guns: Lascannon", "Tanks: Bolters"] and columns == ["Guns", "Tanks"] and label == "mean kills"
    assert math.isnan(values[0, 0]) and math.isnan(values[1, 1])
    assert values[0, 1] == pytest.approx(0.25) and values[1, 0] == pytest.approx(0.5)
    frame = grid.frame(sort="mean")
    assert list(frame["weapon"][:2]) == ["Bolters", "Lascannon"]


def test_rank_refuses_a_column_it_cannot_sort_by():
    with pytest.raises(InputError) as error:
        rank([{"mean": 1.0, "weapon": "x"}], "weapon")
    assert error.value.name == "sort" and "mean" in error.value.allowed


def test_settings_must_name_an_option_of_some_cell(grid):
    check_settings([("crossfire", True)], [p.attack for p in grid.pairs])
    with pytest.raises(InputError) as error:
        check_settings([("luck", 3)], [p.attack for p in grid.pairs])
    assert error.value.name == "set" and "no attack in this grid has luck" in error.value.allowed
    crossfire = run_grid(games.parse_roster(ROSTER, "g"), settings=[("crossfire", True)], method="exact")
    assert all(r is None or p.attack.crossfire for p, r in zip(crossfire.pairs, crossfire.results))


def test_targets_come_from_a_roster_of_the_same_game():
    roster = games.parse_roster(ROSTER, "grid.toml")
    with pytest.raises(InputError) as error:
        run_grid(roster, games.load_roster(None, "dust"), method="exact")
    assert error.value.name == "against"


def test_the_cell_limit_is_checked_before_any_attack_is_built():
    roster = games.parse_roster(ROSTER, "grid.toml")
    many = roster.units * 80
    with pytest.raises(InputError) as error:
        matchups(roster.game, many, many)
    assert error.value.name == "cells" and "25,600" in str(error.value.value)
    assert len(matchups(roster.game, roster.units, roster.units)) == 4


DUST = '''game = "dust"

[[unit]]
name = "Squad"
kind = "soldier"
armour = 1
models = 3

[[unit.weapon]]
name = "Rifle"
soldier = ["2/1", "2/1", "1/1", "1/1"]
range = "4"

[[unit.weapon]]
name = "Mortar"
soldier = ["1/2", "1/2", "1/2", "1/2"]
range = "3-8"
arcing = true

[[unit.weapon]]
name = "Knife"
soldier = ["1/1", "1/1", "1/1", "1/1"]
'''


@pytest.mark.parametrize("distance, kept, out", [
    (2, ["Rifle", "Knife"], ["Squad: Mortar"]),
    (4, ["Rifle", "Mortar", "Knife"], []),
    (8, ["Mortar", "Knife"], ["Squad: Rifle"]),
])
def test_a_distance_keeps_the_weapons_that_reach_it(distance, kept, out):
    roster = games.parse_roster(DUST, "squad.toml")
    grid = run_grid(roster, method="exact", distance=distance)
    assert [pair.weapon.name for pair in grid.pairs] == kept
    assert list(grid.reach.out_of_range) == out and list(grid.reach.no_range) == ["Squad: Knife"]


def test_no_distance_keeps_every_weapon():
    grid = run_grid(games.parse_roster(DUST, "squad.toml"), method="exact")
    assert len(grid.pairs) == 3 and grid.reach.out_of_range == () and grid.reach.no_range == ()


def test_set_suppressed_takes_the_attackers_own_units():
    """`--set suppressed=K` silences K of the attacking formation's own units (docs/rules.md §2.4)."""
    roster = games.parse_roster(ROSTER, "epic.toml")
    grid = run_grid(roster, attackers=["Tanks"], method="exact", settings=[("suppressed", 1)])
    attacks = [pair.attack for pair in grid.pairs if pair.attack is not None]
    assert attacks and all(attack.firing_units == 1 and attack.suppressed == 1 for attack in attacks)
    assert all(list(result["hits"].pmf) == [1.0] for result in grid.results if result is not None)  # silenced
    plain = run_grid(roster, attackers=["Guns"], method="exact", settings=[("crossfire", True)])
    assert all(pair.attack.firing_units is None for pair in plain.pairs if pair.attack is not None)


def test_a_cell_that_refuses_a_setting_is_named():
    roster = games.parse_roster(ROSTER, "epic.toml")
    with pytest.raises(InputError) as error:
        run_grid(roster, attackers=["Guns"], method="exact", settings=[("suppressed", 1)])
    assert error.value.name == "suppressed" and error.value.value == 1
    assert error.value.allowed.startswith("Guns: Lascannon → Tanks: 1 shot (1@4+) cannot be shared equally by 2")
