"""The study commands (`oddscalc.cli.studies`): `sweep` varies a query's options and `compare` sets
queries side by side, with goals, plots, and --verify and --precision in every cell; bad input gets
one line. The `grid` of a roster is in test_rosters.py."""

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


def test_compare_across_games(capsys):
    data = run(capsys, "compare", "dust phaser 2z3", "epic barrage --bp 6 --units 3 --armour 4+", "--exact",
               "--format", "json").json()
    first, second = data["rows"]
    assert first["outcome"] == "damage" and second["outcome"] == "kills"
    assert 0 < first["P(> #2)"] < 1 and 0 < second["P(> #1)"] < 1


# --- --verify and --precision in studies ---------------------------------------------


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
    from oddscalc.query.studies import without_options
    from oddscalc.epic import EpicShoot

    varied = ["shots", "crossfire"]  # a switch (--crossfire) takes no value to leave out
    assert without_options("epic shoot --shots 6 --to-hit 4+ --crossfire --units 4", EpicShoot, varied) == \
        "epic shoot --to-hit 4+ --units 4"
    assert without_options("epic shoot --shots=6 --to-hit 4+", EpicShoot, varied) == "epic shoot --to-hit 4+"
