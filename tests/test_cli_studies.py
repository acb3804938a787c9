import csv
import io

import pytest
from clirun import assert_refused, run


def test_sweep_table_and_goal(capsys):
    result = run(capsys, "sweep", "roll 6d6 --success 5", "--vary", "success=4..6", "--goal", "at_least_2>=0.5",
                 "--exact")
    assert result.code == 0
    assert "goal P(successes ≥ 2) ≥ 50%: the smallest success is 4 (P(successes ≥ 2) = 89.06%)" in result.out


def test_sweep_json_rows_follow_the_varied_values(capsys):
    data = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact", "--format", "json").json()
    assert data["method"] == "exact" and data["seed"] is None
    assert [row["maximised"] for row in data["rows"]] == [0, 1, 2]  # typed, as the option reads them
    assert data["rows"][1]["mean"] == pytest.approx(203 / 24)


def test_sweep_two_options_csv(capsys):
    out = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..1", "--vary", "minimised=0..1", "--exact",
              "--format", "csv").out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["maximised"], r["minimised"]) for r in rows] == [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")]
    assert float(rows[3]["mean"]) == pytest.approx(7.0)  # one of each cancel


def test_sweep_a_switch(capsys):
    data = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0,1", "--trials", "2e4", "--seed", "3",
               "--format", "json").json()
    assert data["seed"] == 3 and data["trials"] == 20_000 and len(data["rows"]) == 2


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_sweep_and_compare_plots(capsys, tmp_path, suffix):
    line = tmp_path / f"line{suffix}"
    assert run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact", "--plot", line).code == 0
    heat = tmp_path / f"heat{suffix}"
    assert run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..1", "--vary", "minimised=0..1", "--exact",
               "--plot", heat).code == 0
    overlay = tmp_path / f"overlay{suffix}"
    assert run(capsys, "compare", "roll 2d6", "roll 3d6", "--trials", "1e4", "--seed", "1", "--plot",
               overlay).code == 0
    for path in (line, heat, overlay):
        assert path.stat().st_size > 1000


def test_compare_exact(capsys):
    data = run(capsys, "compare", "roll 2d6", "roll 2d6 --maximised 1", "--exact", "--format", "json").json()
    first, second = data["rows"]
    assert first["P(> #2)"] + second["P(> #1)"] < 1  # the rest are draws
    assert second["P(> #1)"] == pytest.approx(0.6188, abs=1e-4)


def test_compare_sampled_has_errors(capsys):
    out = run(capsys, "compare", "roll 2d6", "roll 3d6", "--trials", "1e4", "--seed", "5").out
    assert "P(> #2)" in out and "±" in out


BAD = [
    (["sweep", "roll 2d6", "--vary", "bogus=1..3"], ("--vary", "bogus", "is not an option of roll", "maximised")),
    (["sweep", "roll 2d6", "--vary", "maximised=3..1"], ("--vary", "3..1")),
    (["sweep", "roll 2d6", "--vary", "maximised=a..b"], ("--vary",)),
    (["sweep", "roll 2d6", "--vary", "maximised"], ("--vary", "NAME=")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..30"], ("--vary maximised=21:", "0 to 20")),
    (["sweep", "roll 2z", "--vary", "maximised=0..1"], ("QUERY", "2z")),
    (["sweep", "nothing here", "--vary", "maximised=0..1"], ("QUERY",)),
    (["sweep", "roll 2d6 --trials 5", "--vary", "maximised=0..1"], ("QUERY", "--trials")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean=>20"], ("--goal",)),
    (["sweep", "roll 2d6", "--vary", "maximised=0..2", "--at-least", "x"], ("--at-least",)),
    (["compare", "roll 2d6"], ("QUERY",)),
    (["compare", "roll 2d6", "roll 2q6"], ("QUERY", "2q6")),
    (["compare", "dust los ruins --from A1 --to B2", "roll 2d6"], ("QUERY", "dust los")),
    (["sweep", "profiles --game epic", "--vary", "game=epic,dust"], ("QUERY", "profiles")),
    (["compare", "roll 2d6 --help", "roll 2d6"], ("QUERY", "--help")),
]


def test_an_unreached_goal_still_prints_the_table(capsys):
    result = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean>=20", "--exact")
    assert result.code == 1
    assert "maximised" in result.out and "9.344" in result.out  # E[max 2 of 4d6] = 9.344 is in the table
    (line,) = result.err.strip().splitlines()
    assert line.startswith("error: --goal mean>=20:") and "the best is maximised = 2" in line


@pytest.mark.parametrize("args, mentions", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_study_input(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


def test_an_unreached_goal_still_draws_the_plot(capsys, tmp_path):
    path = tmp_path / "goal.png"
    result = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean>=20", "--exact",
                 "--plot", path)
    assert result.code == 1 and path.exists() and len(result.err.strip().splitlines()) == 1


ROSTER = '''
game = "epic"

[[unit]]
name = "Marines"
points = 300
kind = "infantry"
units = 6
armour = "4+"

[[unit.weapon]]
name = "Missiles"
shots = 6
ap = "5+"
at = "6+"

[[unit]]
name = "Tanks"
points = 250
kind = "armoured-vehicle"
units = 4
armour = "4+"

[[unit.weapon]]
name = "Cannons"
shots = 4
at = "4+"

[[unit]]
name = "Artillery"
points = 200
kind = "armoured-vehicle"
units = 3
armour = "5+"

[[unit.weapon]]
name = "Barrage"
bp = 3
'''


@pytest.fixture
def roster(tmp_path):
    path = tmp_path / "army.toml"
    path.write_text(ROSTER)
    return path


def test_grid_ranks_every_weapon_against_every_target(capsys, roster):
    data = run(capsys, "grid", roster, "--exact", "--format", "json").json()
    rows = data["rows"]
    assert len(rows) + len(data["cannot_hurt"]) == 9  # 3 weapons x 3 targets
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(a["per_100_points"] >= b["per_100_points"] for a, b in zip(rows, rows[1:]))
    # AT only: the cannons cannot shoot infantry, so that pair is listed apart, not ranked
    assert {"attacker": "Tanks", "weapon": "Cannons", "target": "Marines"} in data["cannot_hurt"]
    missiles_on_tanks = next(r for r in rows if r["weapon"] == "Missiles" and r["target"] == "Tanks")
    # 6 shots at AT 6+, armour 4+: each shot kills with 1/6 · 1/2, at most one kill per unit hit first
    assert missiles_on_tanks["per_100_points"] == pytest.approx(missiles_on_tanks["mean"] / 3)


def test_grid_selection_sort_and_settings(capsys, roster):
    data = run(capsys, "grid", roster, "--attackers", "Marines", "--targets", "Tanks,Artillery", "--sort", "p_kill",
               "--exact", "--format", "json").json()
    assert {(r["attacker"], r["target"]) for r in data["rows"]} == {("Marines", "Tanks"), ("Marines", "Artillery")}
    plain = {r["target"]: r["mean"] for r in data["rows"]}
    crossfire = run(capsys, "grid", roster, "--attackers", "Marines", "--targets", "Tanks,Artillery", "--set",
                    "crossfire=true", "--exact", "--format", "json").json()
    assert all(r["mean"] > plain[r["target"]] for r in crossfire["rows"])


def test_grid_all_outcomes_csv_and_heatmap(capsys, roster, tmp_path):
    plot = tmp_path / "grid.png"
    out = run(capsys, "grid", roster, "--all-outcomes", "--trials", "5000", "--seed", "3", "--format", "csv",
              "--plot", plot).out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"kills", "hits", "blast_markers", "broken"} <= {r["outcome"] for r in rows}
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_grid_markdown_for_forums(capsys, roster):
    out = run(capsys, "grid", roster, "--exact", "--format", "markdown").out
    assert out.startswith("`oddscalc grid ") and "| rank | attacker | weapon | target |" in out
    header = out.splitlines().index(next(line for line in out.splitlines() if line.startswith("| rank |")))
    assert out.splitlines()[header + 1].startswith("|---:|:---|:---|:---|---:|")  # names left, figures right


def test_grid_on_a_dask_cluster_equals_in_process(capsys, roster, cluster):
    local = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--format", "json").json()
    remote = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--format", "json", "--scheduler",
                 cluster.scheduler_address).json()
    assert local["rows"] == remote["rows"]


def test_grid_in_series_equals_in_parallel(capsys, roster):
    one = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--threads", "1", "--format", "json").json()
    two = run(capsys, "grid", roster, "--trials", "20000", "--seed", "9", "--threads", "2", "--format", "json").json()
    assert one["rows"] == two["rows"]


def test_profiles_lists_units(capsys, roster):
    data = run(capsys, "profiles", "--file", roster, "--format", "json").json()
    assert [unit["name"] for unit in data["units"]] == ["Marines", "Tanks", "Artillery"]
    assert data["units"][2]["weapons"][0]["bp"] == 3 and data["units"][0]["armour"] == 4  # the fields, not words
    text = run(capsys, "profiles", "--file", roster).out
    assert "BP 3" in text and "Marines" in text


@pytest.mark.parametrize(
    "change, mentions",
    [
        (('units = 6', 'units = = 6'), ("FILE", "TOML syntax error")),
        (('armour = "5+"', 'armour = "9+"'), ("FILE", "unit 'Artillery'", "armour")),
        (('bp = 3', 'bp = 3\nspecial = ["lucky"]'), ("FILE", "lucky")),
        (('kind = "infantry"\n', ''), ("FILE", "kind", "missing")),
    ],
)
def test_bad_roster_files(capsys, tmp_path, change, mentions):
    path = tmp_path / "bad.toml"
    path.write_text(ROSTER.replace(*change))
    plot = tmp_path / "never.png"
    assert_refused(capsys, "grid", path, "--exact", "--plot", plot, mentions=mentions)
    assert not plot.exists()
    assert_refused(capsys, "profiles", "--file", path, mentions=("--file",) + mentions[1:])


BAD_GRID = [
    (["grid", "--game", "chess"], ("--game", "chess")),
    (["grid", "/no/such.toml"], ("FILE", "no such file")),
    (["grid", "--game", "epic", "--targets", "Marinez"], ("--targets", "Marinez")),
    (["grid", "--game", "epic", "--sort", "luck", "--exact"], ("--sort", "luck")),
    (["grid", "--game", "epic", "--set", "luck=3", "--exact"], ("--set", "luck")),
    (["grid", "--game", "epic", "--set", "crossfire", "--exact"], ("--set",)),
]


@pytest.mark.parametrize("args, mentions", BAD_GRID, ids=[" ".join(a) for a, _ in BAD_GRID])
def test_bad_grid_input(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


def test_an_empty_roster(capsys, tmp_path):
    path = tmp_path / "empty.toml"
    path.write_text('game = "epic"\n')
    assert_refused(capsys, "grid", path, mentions=("FILE", "empty"))


@pytest.mark.parametrize("game", ["dust", "epic", "t9a"])
def test_every_game_has_a_bundled_grid(capsys, game):
    data = run(capsys, "grid", "--game", game, "--trials", "2000", "--seed", "1", "--format", "json").json()
    ranked = [row for row in data["rows"] if row["mean"] is not None]
    assert ranked and all(0 <= row["p_kill"] <= 1 for row in ranked)
    assert all(a["per_100_points"] >= b["per_100_points"] for a, b in zip(ranked, ranked[1:]))


def test_compare_across_games(capsys):
    data = run(capsys, "compare", "dust phaser 2z3", "epic barrage --bp 6 --units 3 --armour 4+", "--exact",
               "--format", "json").json()
    first, second = data["rows"]
    assert first["outcome"] == "damage" and second["outcome"] == "kills"
    assert 0 < first["P(> #2)"] < 1 and 0 < second["P(> #1)"] < 1


def test_exact_grids_stay_in_process(capsys, roster):
    data = run(capsys, "grid", roster, "--exact", "--scheduler", "tcp://127.0.0.1:1", "--format", "json").json()
    assert data["method"] == "exact" and data["rows"][0]["mean"] is not None


# --- --verify and --precision in studies ---------------------------------------------


def test_grid_verify_gives_every_cell_its_gap_and_bound(capsys):
    data = run(capsys, "grid", "--game", "epic", "--verify", "--trials", "2e4", "--seed", "3", "--format",
               "json").json()
    assert data["rows"] and all(row["cdf_gap"] <= row["dkw_bound"] and row["verified"] for row in data["rows"]
                                if row.get("mean") is not None)


def test_a_verification_that_fails_names_the_cells_and_keeps_the_table(capsys, monkeypatch):
    from oddscalc.epic import Barrage

    def wrong(self, number):  # a planted bug: the barrage's exact twin says it never kills
        right = Barrage.__dict__["_right"](self, number)
        kills = right["kills"] * 0
        kills[0] = number(1)
        return {**right, "kills": kills}

    monkeypatch.setattr(Barrage, "_right", Barrage.pmfs, raising=False)
    monkeypatch.setattr(Barrage, "pmfs", wrong)
    result = run(capsys, "grid", "--game", "epic", "--verify", "--trials", "2e4", "--seed", "3")
    assert result.code == 1
    assert "cdf_gap" in result.out and "dkw_bound" in result.out and "Whirlwind barrage" in result.out
    (line,) = result.err.strip().splitlines()
    assert line.startswith("verify: ") and "outside the DKW bound" in line and "Whirlwind barrage" in line


def test_sweep_and_compare_verify_every_cell(capsys):
    rows = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..1", "--verify", "--trials", "2e4", "--seed", "1",
               "--format", "json").json()["rows"]
    assert len(rows) == 2 and all(row["cdf_gap"] <= row["dkw_bound"] for row in rows)
    rows = run(capsys, "compare", "roll 2d6", "roll 3d6", "--verify", "--trials", "2e4", "--seed", "1",
               "--format", "json").json()["rows"]
    assert [row["verified"] for row in rows] == [True, True]


def test_studies_report_the_trials_each_cell_used(capsys):
    result = run(capsys, "sweep", "dust attack --dice 1", "--vary", "dice=1,40", "--precision", "0.003", "--trials",
                 "1e7", "--seed", "2", "--format", "json")
    rows = result.json()["rows"]
    damage = [row for row in rows if row["outcome"] == "damage"]
    assert all(row["precision_reached"] and row["mean_stderr"] <= 0.003 for row in damage)
    assert damage[0]["trials"] < damage[1]["trials"] < 10**7  # each cell stops at its own count
    capped = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..1", "--precision", "1e-4", "--trials", "1e4",
                 "--seed", "1", "--format", "json")
    assert capped.code == 0 and all(row["trials"] == 10_000 for row in capped.json()["rows"])
    assert "not reached" in capped.err and "2 of 2 cells" in capped.err


def test_compare_p_greater_is_exact(capsys):
    rows = run(capsys, "compare", "roll 2d6", "roll d6+3", "--exact", "--format", "json").json()["rows"]
    # P(2d6 > d6+3) = Σ_y P(d6 = y) P(2d6 > y + 3)
    ways = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    p = sum(sum(ways[y + 4:]) / 36 / 6 for y in range(1, 7))
    assert rows[0]["P(> #2)"] == pytest.approx(p, abs=1e-12) and rows[0]["P(> #2)_stderr"] == 0


def test_a_goal_already_in_a_column_is_not_repeated_and_reads_as_the_table_does(capsys):
    out = run(capsys, "sweep", "epic shoot --shots 6 --to-hit 4+ --units 4 --armour 4+", "--vary", "shots=2..4:2",
              "--goal", "broken.at_least_1>=0.5", "--exact").out
    header = next(line for line in out.splitlines() if line.startswith("shots"))
    assert "broken.at_least_1" not in header and "probability" in header  # P(broken) is the probability column
    assert "reaches P(broken) ≥ 50%" in run(capsys, "sweep", "epic shoot --shots 6 --to-hit 4+ --units 4 --armour 4+",
                                            "--vary", "shots=2..4:2", "--goal", "broken.at_least_1>=0.5",
                                            "--exact").err


def test_a_sweeps_plot_title_leaves_out_the_varied_options_own_values():
    from oddscalc.cli.studies import without_options
    from oddscalc.epic import EpicShoot

    varied = ["shots", "crossfire"]  # a switch (--crossfire) takes no value to leave out
    assert without_options("epic shoot --shots 6 --to-hit 4+ --crossfire --units 4", EpicShoot, varied) == \
        "epic shoot --to-hit 4+ --units 4"
    assert without_options("epic shoot --shots=6 --to-hit 4+", EpicShoot, varied) == "epic shoot --to-hit 4+"


def test_identical_attacks_in_a_grid_are_said_to_share_a_stream(capsys, tmp_path):
    roster = tmp_path / "twins.toml"
    roster.write_text('game = "epic"\n\n[[unit]]\nname = "A"\nkind = "infantry"\nunits = 2\narmour = "4+"\n\n'
                      '[[unit.weapon]]\nname = "Gun"\nshots = 3\nap = "4+"\n\n'
                      '[[unit]]\nname = "B"\nkind = "infantry"\nunits = 2\narmour = "4+"\n\n'
                      '[[unit.weapon]]\nname = "Gun"\nshots = 3\nap = "4+"\n')
    sampled = run(capsys, "grid", roster, "--trials", "1e4", "--seed", "1").out
    # the two units are alike as attackers and as targets: all four cells are one attack
    assert ("the same attack, so one random stream and the very same figures: A: Gun → A = A: Gun → B = "
            "B: Gun → A = B: Gun → B") in sampled
    assert "same random stream" not in run(capsys, "grid", roster, "--exact").out  # exact figures have no stream


def test_a_missing_file_reads_the_same_from_import_and_from_grid(capsys):
    """One refusal, one line, whichever command reads the file."""
    imported = run(capsys, "import", "/no/such.rosz")
    gridded = run(capsys, "grid", "/no/such.rosz")
    assert imported.code == gridded.code == 2 and imported.err == gridded.err == "error: FILE /no/such.rosz: no such file\n"
