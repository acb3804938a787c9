import csv
import io

import pytest

from clirun import assert_refused, run


def test_sweep_table_and_goal(capsys):
    result = run(capsys, "sweep", "roll 6d6 --success 5", "--vary", "success=4..6", "--goal", "at_least_2>=0.5",
                 "--exact")
    assert result.code == 0
    assert "goal at_least_2>=0.5: the smallest success is 4" in result.out


def test_sweep_json_rows_follow_the_varied_values(capsys):
    data = run(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact", "--format", "json").json()
    assert data["method"] == "exact" and data["seed"] is None
    assert [row["maximised"] for row in data["rows"]] == ["0", "1", "2"]
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
    (["sweep", "roll 2d6", "--vary", "bogus=1..3"], ("--vary", "bogus", "--maximised")),
    (["sweep", "roll 2d6", "--vary", "maximised=3..1"], ("--vary", "3..1")),
    (["sweep", "roll 2d6", "--vary", "maximised=a..b"], ("--vary",)),
    (["sweep", "roll 2d6", "--vary", "maximised"], ("--vary", "NAME=")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..30"], ("--vary", "--maximised")),
    (["sweep", "roll 2z", "--vary", "maximised=0..1"], ("QUERY", "2z")),
    (["sweep", "nothing here", "--vary", "maximised=0..1"], ("QUERY",)),
    (["sweep", "roll 2d6 --trials 5", "--vary", "maximised=0..1"], ("QUERY", "--trials")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean>=20", "--exact"], ("--goal", "best")),
    (["sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean=>20"], ("--goal",)),
    (["sweep", "roll 2d6", "--vary", "maximised=0..2", "--at-least", "x"], ("--at-least",)),
    (["compare", "roll 2d6"], ("QUERY",)),
    (["compare", "roll 2d6", "roll 2q6"], ("QUERY", "2q6")),
]


@pytest.mark.parametrize("args, mentions", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_study_input(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


def test_an_unreached_goal_leaves_no_plot(capsys, tmp_path):
    path = tmp_path / "goal.png"
    assert_refused(capsys, "sweep", "roll 2d6", "--vary", "maximised=0..2", "--goal", "mean>=20", "--exact",
                   "--plot", path)
    assert not path.exists()
