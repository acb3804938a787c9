"""Roster grids from the library: matchups, settings, ranking, the heatmap's matrix."""

import math
from pathlib import Path

import pytest

from oddscalc.core import engine
from oddscalc.lists import games
from oddscalc.errors import InputError
from oddscalc.core.options import RunOptions
from oddscalc.lists.roster import Weapon
from oddscalc.studies.grid import TOGETHER, adjuster, in_range, matchups, rank, read_settings, run_grid, sort_keys
from oddscalc.studies.sweeps import STAT_HELP

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
    assert read_settings([("crossfire", True), "in-cover=yes"], [p.attack for p in grid.pairs]) == [
        ("crossfire", True), ("in_cover", True)]
    with pytest.raises(InputError) as error:
        read_settings([("luck", 3)], [p.attack for p in grid.pairs])
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
    assert error.value.name == "set" and error.value.value == "suppressed=1"
    assert error.value.allowed.startswith("Guns: Lascannon → Tanks: 1 shot (1@4+) cannot be shared equally by 2")


# --- each refusal's name, value and message; the rows' figures exactly ---------------------------------------------


def _refusal(call) -> tuple:
    with pytest.raises(InputError) as error:
        call()
    return error.value.name, error.value.value, error.value.allowed


def test_together_is_refused_where_a_game_fires_each_weapon_on_its_own():
    roster = games.parse_roster(DUST, "squad.toml")
    assert _refusal(lambda: matchups(roster.game, roster.units, roster.units, together=True)) == (
        "together", "on", "Dust Tactics rosters fire each weapon on its own")


def test_the_cell_limit_counts_the_weapons_fired_together_and_allows_exactly_the_limit(monkeypatch):
    from oddscalc.studies import grid as grid_module

    roster = games.parse_roster(ROSTER, "grid.toml")  # two units of one weapon each, against two targets
    monkeypatch.setattr(grid_module, "MAX_CELLS", 4)
    assert len(matchups(roster.game, roster.units, roster.units)) == 4  # exactly the limit: accepted
    assert _refusal(lambda: matchups(roster.game, roster.units, roster.units, together=True)) == (
        "cells", "8", "expected at most 4 cells: choose fewer --attackers or --targets")  # (1 + 1) × 2 × 2
    two = games.parse_roster(ROSTER.replace('at = "4+"', 'at = "4+"\n\n[[unit.weapon]]\nname = "Missiles"\nat = "5+"'),
                             "two.toml")
    combined = matchups(two.game, two.units[:1], two.units[1:], together=True)
    assert [p.weapon for p in combined][2:] == [Weapon(TOGETHER, ())]  # after each weapon on its own


@pytest.mark.parametrize("distance, allowed", [
    (-1, "expected the distance in squares, 0 to 999"),
    (1000, "expected the distance in squares, 0 to 999"),
    ("4", "expected the distance in squares, 0 to 999"),
    (999, "no weapon reaches 999 squares"),
])
def test_a_distance_outside_the_board_or_beyond_every_weapon_is_refused(distance, allowed):
    squad = games.parse_roster(DUST.replace('name = "Knife"', 'name = "Knife"\nrange = "1"'), "squad.toml")
    assert _refusal(lambda: in_range(squad.game, squad.units, distance)) == ("distance", distance, allowed)


def test_distance_zero_is_a_distance():
    squad = games.parse_roster(DUST, "squad.toml")
    reach = in_range(squad.game, squad.units, 0)  # the same square: only a weapon without a range may fire
    assert [w.name for w in reach.units[0].weapons] == ["Knife"]
    assert reach.out_of_range == ("Squad: Rifle", "Squad: Mortar")


def test_a_distance_is_refused_for_games_without_ranges():
    roster = games.parse_roster(ROSTER, "grid.toml")
    assert _refusal(lambda: in_range(roster.game, roster.units, 5)) == (
        "distance", 5, "Epic Armageddon rosters have no weapon ranges; --distance is for Dust Tactics rosters")


def test_a_setting_from_the_attacker_needs_an_attacker():
    roster = games.parse_roster(ROSTER, "grid.toml")
    attack = matchups(roster.game, roster.units[1:], roster.units[:1])[0].attack
    adjust = adjuster([("suppressed", 1)], roster.game)
    assert adjust(attack, roster.units[1]).firing_units == 1  # the attacking Tanks: one unit
    # without an attacker only the setting applies, and the attack itself says what it lacks
    assert _refusal(lambda: adjust(attack)) == (
        "suppressed", 1, "needs --firing-units F: the firing formation's units in range and line of fire")


def test_a_setting_no_cell_has_is_refused_naming_the_fields_there_are(grid):
    attacks = [p.attack for p in grid.pairs]  # Epic shooting attacks, and None where a weapon cannot hurt
    assert _refusal(lambda: read_settings([("luck", 3)], attacks)) == (
        "set", "luck=3", "no attack in this grid has luck; they have armour, at-shots, at-to-hit, blast-markers, "
        "cover-save, critical, crossfire, damage-capacity, disrupt, engine, firing-units, formation, front, ignore-cover, "
        "in-cover, invulnerable, modifier, mw-shots, mw-to-hit, other-armour, other-reinforced, reach, reinforced, "
        "shields, shots, sniper, suppressed, thick-rear-armour, tk-allocation, tk-damage, tk-save, to-hit, units, "
        "vehicle-armour, vehicle-reinforced, vehicles, volley, war-engines, weapon")
    assert _refusal(lambda: read_settings(["shots=abc"], attacks)) == ("set", "shots=abc", "expected a whole number")
    assert _refusal(lambda: read_settings(["shots"], attacks))[:2] == ("set", "shots")


def test_grid_rows_carry_p_kill_points_and_per_100_points_with_their_errors():
    roster = games.parse_roster(ROSTER, "grid.toml")
    exact = {row["weapon"]: row for row in run_grid(roster, method="exact").rows()}
    # Lascannon (200 points) → 1 tank: 1 shot, 1/2 to hit, 1/2 to fail the save: E = P(kill) = 1/4, 0.125 per 100
    # Bolters (100 points) → 2 infantry units: 2 such shots, E = 1/2, P(both die) = 1/16, 0.5 per 100
    assert [(w, exact[w]["points"], exact[w]["p_kill"], exact[w]["per_100_points"], exact[w]["p_kill_stderr"],
             exact[w]["per_100_points_stderr"]) for w in ("Lascannon", "Bolters")] == \
        [("Lascannon", 200, 0.25, 0.125, 0, 0), ("Bolters", 100, 0.0625, 0.5, 0, 0)]
    grid = run_grid(roster, trials=4000, seed=3)
    assert grid.method == "monte-carlo" and grid.trials == 4000 and grid.seed == 3
    rows = {row["weapon"]: row for row in grid.rows()}
    for pair, result in zip(grid.pairs, grid.results):
        if result is None:
            continue
        row, dist = rows[pair.weapon.name], result[result.main]
        p_kill = dist.at_least(pair.target["units"])
        assert (row["p_kill"], row["p_kill_stderr"]) == (p_kill, dist.stderr(p_kill))
        assert row["points"] == pair.attacker.points
        assert row["per_100_points"] == dist.mean * 100 / pair.attacker.points
        assert row["per_100_points_stderr"] == dist.mean_stderr * 100 / pair.attacker.points > 0


def test_grid_defaults_are_a_million_trials_by_monte_carlo_as_every_run():
    roster = games.parse_roster(ROSTER, "grid.toml")
    calls = []
    grid = run_grid(roster, attackers=["Tanks"], target_names=["Guns"], seed=1, progress=lambda *a: calls.append(a))
    assert (grid.method, grid.trials, grid.seed) == ("monte-carlo", 1_000_000, 1) and calls[-1] == (1, 1)
    assert RunOptions().trials == 1_000_000 == engine.run(grid.pairs[0].attack, seed=1).trials
    precise = run_grid(roster, attackers=["Tanks"], target_names=["Guns"], seed=1, trials=1000, precision=1e-9)
    assert precise.results[0].precision_reached is False


def test_an_armour_piercing_incendiary_kills_when_it_destroys_the_unit():
    roster = games.parse_roster(DUST + '\n[[unit.weapon]]\nname = "Bomb"\nap_incendiary = 1\n', "squad.toml")
    grid = run_grid(roster, attackers=["Squad"], method="exact")
    (row,) = [row for row in grid.rows() if row["weapon"] == "Bomb"]
    result = grid.results[[p.weapon.name for p in grid.pairs].index("Bomb")]
    # 1 die per model, 3 models: destroyed unless all three dice miss (a Dust die hits on 2 faces of 6), 1 − (2/3)³;
    # not P(damage ≥ 3 models × 1 damage point)
    assert row["p_kill"] == pytest.approx(19 / 27, abs=1e-12) == result[result.main].at_least(1)


def test_sort_keys_leave_out_errors_ranks_and_words():
    rows = [{"rank": 1, "mean": 1.0, "mean_stderr": 0.1, "p_kill": 0.5, "ok": True, "attacker": "A"}]
    assert sort_keys(rows) == ["mean", "p_kill"]
    assert _refusal(lambda: rank(rows, "attacker")) == ("sort", "attacker", "expected a column to rank by: mean, p_kill")


def test_without_points_everywhere_the_grid_ranks_by_the_mean():
    roster = games.parse_roster(ROSTER.replace("points = 100\n", ""), "grid.toml")
    grid = run_grid(roster, method="exact")
    assert grid.default_sort() == "mean" and [row["weapon"] for row in grid.rows()] == ["Bolters", "Lascannon"]
    values, _, _, label = grid.matrix("per_100_points")  # the Tanks have no points: no value
    assert label == "kills per 100 points" and math.isnan(values[1, 0]) and values[0, 1] == pytest.approx(0.125)


def test_the_matrix_of_a_column_and_its_labels(grid):
    values, rows, columns, label = grid.matrix("p_kill")
    assert label == "P(kill the target)" and values[1, 0] == pytest.approx(1 / 16) and values[0, 1] == 0.25
    values, _, _, label = grid.matrix("sd")  # a column without a label of its own: its name
    assert label == "sd" and values[0, 1] == pytest.approx((3 / 16) ** 0.5)
    assert _refusal(lambda: grid.matrix("luck")) == ("stat", "luck", f"expected a statistic ({STAT_HELP}) or a "
                                                     "column: mean, median, p10, p90, p_kill, per_100_points, points, sd")


def test_run_grid_refusals_name_the_option_the_value_and_what_is_allowed():
    roster = games.parse_roster(ROSTER, "grid.toml")
    dust = games.load_roster(None, "dust")
    assert _refusal(lambda: run_grid(roster, dust, method="exact")) == (
        "against", "bundled dust_example.toml", "holds dust units, not epic")
    assert _refusal(lambda: run_grid(roster, attackers=["Gunz"], method="exact")) == (
        "attackers", "Gunz", "no such unit in grid.toml (did you mean Guns?); it has Guns, Tanks")
    assert _refusal(lambda: run_grid(roster, target_names=["Tank"], method="exact")) == (
        "targets", "Tank", "no such unit in grid.toml (did you mean Tanks?); it has Guns, Tanks")
    assert _refusal(lambda: run_grid(roster, attackers=["Guns"], target_names=["Guns"], method="exact")) == (
        "file", "grid.toml", "no weapon here can attack these targets")


def test_a_setting_a_cell_refuses_is_named_with_the_cell():
    roster = games.parse_roster(ROSTER, "grid.toml")
    assert _refusal(lambda: run_grid(roster, method="exact", settings=[("units", 0)])) == (
        "set", "units=0", "Guns: Lascannon → Tanks: expected 1 to 100 units")


def test_a_grid_at_war_engines_ranks_by_the_outcome_asked_for_and_says_so(capsys):
    """`--outcome damage`: each cell's figures are of the damage it does (where the cell has it), ranked so,
    the outcome named in the rows and in a note; P(kill) stays P(destroyed)."""
    from clirun import run

    from oddscalc.query.words import parse_query

    corpus = Path(__file__).parent / "data" / "battlescribe" / "bsdata"
    result = run(capsys, "grid", corpus / "steel_legion.rosz", "--against", corpus / "titan_legions.rosz", "--exact",
                 "--outcome", "damage", "--format", "json")
    assert result.code == 0, result.err
    answer = result.json()
    table = run(capsys, "grid", corpus / "steel_legion.rosz", "--against", corpus / "titan_legions.rosz", "--exact",
                "--outcome", "damage")
    assert table.out.endswith("\nthe figures are of damage\n")  # every cell is at a titan: all have it
    rows = [row for row in answer["rows"] if row["outcome"] == "damage"]
    assert rows and [row["per_100_points"] for row in answer["rows"]] == sorted(
        (row["per_100_points"] for row in answer["rows"]), reverse=True)
    default = run(capsys, "grid", corpus / "steel_legion.rosz", "--against", corpus / "titan_legions.rosz", "--exact",
                  "--format", "json").json()["rows"]
    killed = {(row["attacker"], row["weapon"], row["target"]): row["p_kill"] for row in default}
    for row in rows[:5]:
        assert row["query"].endswith(" --exact")
        exact = parse_query(row["query"].removesuffix(" --exact")).attack.exact()
        damage = sum(k * p for k, p in enumerate(exact["damage"]))
        assert row["mean"] == pytest.approx(damage, abs=1e-12)
        assert row["p_kill"] == killed[(row["attacker"], row["weapon"], row["target"])]  # P(destroyed), as before
    refused = run(capsys, "grid", "--game", "dust", "--exact", "--outcome", "shields")
    assert refused.code == 2 and refused.err.startswith("error: --outcome shields: no cell of this grid has it")


def test_every_sampled_cells_query_gives_its_very_figures():
    """A sampled grid's cell runs from its own stream (the study's seed and the attack): its query carries
    that stream's seed and its trials, so rerunning it gives the very same mean, not one near it."""
    from oddscalc.query.asking import ask

    grid = ask(["grid", "--game", "epic", "--trials", "3000", "--seed", "11", "--attackers", "Whirlwind Battery"])
    rows = grid.answer.content.rows
    assert rows and all(" --trials 3000 --seed " in row["query"] for row in rows)
    for row in rows:
        alone = ask(row["query"].split()[1:]).answer.content.result
        assert alone[alone.main].mean == row["mean"] and alone.seed != 11
    exact = ask(["grid", "--game", "epic", "--exact", "--attackers", "Whirlwind Battery"]).answer.content.rows
    assert all("--seed" not in row["query"] for row in exact)  # an exact cell needs none


def test_a_refused_unit_field_is_named_on_the_unit_that_holds_the_value():
    """A value of a unit's (not a weapon's) that the attack refuses: named on the unit holding it, in its file."""
    from types import SimpleNamespace

    from oddscalc.studies.grid import _attack
    from oddscalc.lists.roster import Unit, Weapon

    def matchup(attacker, weapon, target):
        raise InputError("armour", 9, "expected the target's Armour, 0 to 6")

    game = SimpleNamespace(schema=SimpleNamespace(unit={"armour": None}, weapon={"attacks": None}), matchup=matchup)
    attacker, target = Unit("A", 10, (("armour", 1),)), Unit("T", None, (("armour", 9),))
    with pytest.raises(InputError) as error:
        _attack(game, attacker, Weapon("Club", ()), target, ("a.toml", "t.toml"))
    assert (error.value.name, error.value.value, error.value.allowed) == (
        "file", "t.toml", "unit 'T', field 'armour': 9: expected the target's Armour, 0 to 6")


def test_an_assault_grid_of_two_real_lists_ranks_formations_and_each_cell_is_its_query():
    """Issue 33's study: the Space Marines' formations assault the Orks' (lists built from the catalogues), mixed
    formations kind by kind and the Gargant as a war engine; ranked by P(win), each sampled cell rerun from its
    query gives its very figures."""
    import shlex
    from pathlib import Path

    from oddscalc.query.asking import ask
    from oddscalc.core.given import LIBRARY

    corpus = Path(__file__).parent / "data" / "battlescribe" / "bsdata"
    grid = ask(["grid", str(corpus / "space_marines.rosz"), "--against", str(corpus / "ork_war_horde.rosz"),
                "--assault", "--trials", "2000", "--seed", "3"], LIBRARY)
    rows = grid.answer.content.rows
    assert {row["target"] for row in rows} == {"Warband", "Gargant"} and len(rows) == 8  # 4 formations each
    assert [row["probability"] for row in rows] == sorted((row["probability"] for row in rows), reverse=True)
    tactical = next(row for row in rows if (row["attacker"], row["target"]) == ("Tactical", "Warband"))
    assert "--other" in tactical["query"] and "--enemy-other" in tactical["query"]
    gargant = next(row for row in rows if (row["attacker"], row["target"]) == ("Tactical", "Gargant"))
    assert "--enemy-damage-capacity" in gargant["query"]
    for row in (tactical, gargant):
        alone = ask(shlex.split(row["query"])[1:]).answer.content.result
        assert alone["win"].mean == row["probability"]


def test_a_combat_grid_of_two_real_lists_ranks_units_and_each_cell_is_its_query():
    """Issue 34's study: Sonnstahl's units charge the Warriors of the Dark Gods' (lists built from the
    catalogues), ranked by P(win); each sampled cell rerun from its query gives its very figures."""
    import shlex
    from pathlib import Path

    from oddscalc.query.asking import ask
    from oddscalc.core.given import LIBRARY

    corpus = Path(__file__).parent / "data" / "battlescribe" / "bsdata"
    grid = ask(["grid", str(corpus / "sonnstahl.rosz"), "--against", str(corpus / "dark_gods.rosz"), "--combat",
                "--trials", "2000", "--seed", "5"], LIBRARY)
    rows = grid.answer.content.rows
    assert {row["attacker"] for row in rows} >= {"Knightly Orders", "Imperial Guard"} and rows
    assert [row["probability"] for row in rows] == sorted((row["probability"] for row in rows), reverse=True)
    for row in rows[:2] + rows[-1:]:
        alone = ask(shlex.split(row["query"])[1:]).answer.content.result
        assert alone["win"].mean == row["probability"] and alone["enemy_break"].mean == row["p_break"]
