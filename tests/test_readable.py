"""Answers a player reads at a glance: yes/no outcomes as probabilities, each attack in
words, tables that fit, one number style, goals both ways, formats the same everywhere."""

import csv
import io
import json

import pytest
from clirun import assert_refused, run

from oddscalc import Barrage
from oddscalc.core import engine
from oddscalc.output import tables
from oddscalc.core.dice import DiceExpression
from oddscalc.core.roll import Roll


def test_a_yes_no_answer_is_a_probability(capsys):
    result = run(capsys, "t9a", "charge", "--distance", "9", "--maximised", "1", "--exact")
    lines = result.out.splitlines()
    assert lines[0] == "T9A charge: 2D6 reaching 9, maximised ×1"
    # maximised 2D6 ≥ 9 (§3.1: 36, 34, 27, 16 of 216 for 9 to 12): 113/216
    assert "P(success)" in result.out and tables.percent(113 / 216) == "52.31%" and "52.31%" in result.out
    assert "success   P(= k)" not in result.out  # no 0/1 table
    data = run(capsys, "t9a", "charge", "--distance", "9", "--maximised", "1", "--exact", "--format", "json").json()
    success = data["outcomes"]["success"]
    assert success["probability"] == pytest.approx(113 / 216, abs=1e-15) and success["probability_stderr"] == 0
    assert success["pmf"] == [pytest.approx(103 / 216, abs=1e-15), pytest.approx(113 / 216, abs=1e-15)]


def test_the_chance_to_break_is_a_line_of_its_own(capsys):
    result = run(capsys, "epic", "barrage", "--bp", "6", "--units", "3", "--armour", "4+", "--exact")
    assert "P(broken)" in result.out and "57.81%" in result.out  # 37/64, the worked example of §2.5
    assert result.out.splitlines()[0] == "Epic barrage: 6 BP on 3 units, armour 4+"


def test_outcome_picks_what_the_detail_shows(capsys):
    result = run(capsys, "t9a", "charge", "--distance", "9", "--exact", "--outcome", "sum")
    assert "sum   P(= k)   P(≥ k)" in result.out
    assert_refused(capsys, "t9a", "charge", "--distance", "9", "--outcome", "kills",
                   mentions=("--outcome kills", "success, sum"))


def test_a_sampled_event_carries_its_standard_error(capsys):
    data = run(capsys, "dust", "reactive", "--trials", "1e5", "--seed", "1", "--format", "json").json()
    success = data["outcomes"]["success"]
    p = success["probability"]
    assert success["probability_stderr"] == pytest.approx((p * (1 - p) / 1e5) ** 0.5)
    assert abs(p - 1 / 3) <= 5 * success["probability_stderr"]


def test_negligible_tails_are_left_out_and_said_so():
    result = engine.run(Roll(DiceExpression.parse("20d6")), method="exact")
    table = tables.pmf_table(result)
    shown = [row[0] for row in table.rows]
    assert shown[0] > 20 and shown[-1] < 120
    low, high = shown[0], shown[-1]
    (note,) = table.notes
    left = result["sum"].at_most(low - 1) + result["sum"].at_least(high + 1)
    assert note == (f"not shown: values below {low} and above {high}, together {tables.percent(left)} "
                    "(each under 0.005%)")


def test_csv_says_how_it_was_made(capsys):
    rows = list(csv.DictReader(io.StringIO(run(capsys, "roll", "2d6", "--trials", "1e3", "--seed", "4", "--format",
                                                   "csv").out)))
    assert {row["method"] for row in rows} == {"monte-carlo"} and {row["seed"] for row in rows} == {"4"}
    exact = list(csv.DictReader(io.StringIO(run(capsys, "roll", "2d6", "--exact", "--format", "csv").out)))
    assert exact[7]["probability"] == repr(float(f"{6 / 36:.15g}")) and exact[0]["at_least"] == "1.0"


def test_exact_json_is_clean(capsys):
    data = run(capsys, "roll", "2d6", "--exact", "--format", "json").json()
    assert data["outcomes"]["sum"]["mean"] == 7.0 and data["outcomes"]["sum"]["at_least"][2] == 1.0


def test_every_attack_describes_itself_in_words():
    assert Barrage(bp=8, formation=10, armour="4+", in_cover=True).describe() == \
        "Epic barrage: 8 BP on 9 units (3 per template), armour 4+, in cover, formation of 10"  # 3 templates
    assert Roll(DiceExpression.parse("10d6"), success=5).describe() == "Roll 10d6, counting dice of 5+"


def test_a_grid_shows_its_key_columns_and_the_rest_on_request(capsys):
    text = run(capsys, "grid", "--game", "epic", "--exact").out
    header = text.splitlines()[3].split()
    assert header == ["rank", "attacker", "weapon", "target", "mean", "p_kill", "per_100_points"]
    wide = run(capsys, "grid", "--game", "epic", "--exact", "--wide").out.splitlines()[3].split()
    assert {"sd", "median", "p10", "p90", "at_least_1", "points", "query"} <= set(wide)
    chosen = run(capsys, "grid", "--game", "epic", "--exact", "--columns", "target,p_kill").out.splitlines()[3]
    assert chosen.split() == ["target", "p_kill"]
    assert_refused(capsys, "grid", "--game", "epic", "--columns", "nonsense", mentions=("--columns", "p_kill"))


def test_a_grid_fits_a_narrow_terminal(capsys):
    rows = tables.Table(("rank", "attacker", "weapon", "target", "mean"),
                        ((1, "Devastator Detachment", "Missile launchers", "Guard Infantry Company", 1.25),))
    assert max(len(line) for line in rows.text(width=60).splitlines()) <= 60


@pytest.mark.parametrize("command, wide", [
    (("grid", "--game", "epic", "--trials", "2000", "--seed", "1"), True),
    (("sweep", "epic barrage --units 4 --armour 4", "--vary", "bp=1..6", "--exact"), False),
    (("compare", "dust phaser 2z3", "dust salvo 3/2-5/2-7/2", "--exact"), True)])
def test_a_study_on_a_terminal_fits_its_width(capsys, monkeypatch, command, wide):
    """What the command prints, not only the table layer: every table line within 100 columns."""
    from oddscalc.query import answer as output

    monkeypatch.setattr(output, "width", lambda: 100)
    text = run(capsys, *command).out
    table = text.split("\n\n")[1]  # between the provenance and the notes
    assert max(len(line) for line in table.splitlines()) <= 100, table
    monkeypatch.setattr(output, "width", lambda: None)
    piped = run(capsys, *command).out
    monkeypatch.setattr(output, "width", lambda: 10_000)
    assert piped == run(capsys, *command).out  # piped, a study keeps its natural width, as on a wide terminal
    natural = max(len(line) for line in piped.split("\n\n")[1].splitlines())
    assert (natural > 100) == wide  # whether the table had to be fitted to 100 columns at all


def test_every_sort_key_is_a_heatmap_statistic(capsys, tmp_path):
    for stat in ("p_kill", "per_100_points", "at_least_1", "median"):
        assert run(capsys, "grid", "--game", "epic", "--exact", "--stat", stat, "--plot", tmp_path / "h.png").code == 0
    assert_refused(capsys, "grid", "--game", "epic", "--sort", "luck", mentions=("--sort luck", "p_kill"))


def test_unit_names_match_whatever_their_case_and_ties_go_by_name(capsys):
    data = run(capsys, "grid", "--game", "epic", "--exact", "--attackers", "predator destructors,LAND RAIDERS",
               "--targets", "tactical detachment", "--format", "json").json()
    assert {row["attacker"] for row in data["rows"]} == {"Predator Destructors", "Land Raiders"}
    assert data["cannot_hurt"] == [{"attacker": "Land Raiders", "weapon": "Twin lascannons",
                                    "target": "Tactical Detachment"}]  # AT only, at infantry
    tied = run(capsys, "grid", "--game", "epic", "--exact", "--format", "json").json()["rows"]
    for first, second in zip(tied, tied[1:]):
        if first["per_100_points"] == second["per_100_points"]:
            assert (first["attacker"].casefold(), first["weapon"].casefold(), first["target"].casefold()) <= \
                (second["attacker"].casefold(), second["weapon"].casefold(), second["target"].casefold())


def test_compare_refuses_a_sum_against_a_yes_no_answer(capsys):
    assert_refused(capsys, "compare", "roll 2d6", "t9a charge --distance 7",
                   mentions=("--outcome", "#1 sum (a count)", "#2 success (yes/no)"))
    rows = run(capsys, "compare", "roll 2d6", "t9a charge --distance 7", "--outcome", "sum", "--exact", "--format",
               "json").json()["rows"]
    assert rows[0]["P(> #2)"] == pytest.approx(rows[1]["P(> #1)"])  # the same 2D6 both ways


def test_a_sweep_table_shows_the_goal_s_statistic(capsys):
    data = run(capsys, "sweep", "roll 6d6 --success 5", "--vary", "success=4..6", "--goal", "at_least_3>=0.3",
               "--exact", "--format", "json").json()
    # P(at least 3 of 6 dice) at 4+, 5+, 6+: 65.6%, 32.0%, 6.2%: the smallest success reaching 30 % is 4
    assert all("at_least_3" in row for row in data["rows"]) and data["goal"]["value"] == 4
    largest = run(capsys, "sweep", "roll 6d6 --success 5", "--vary", "success=4..6", "--goal", "at_least_3>=0.3",
                  "--seek", "largest", "--exact", "--format", "json").json()
    assert largest["goal"]["value"] == 5 and largest["goal"]["seek"] == "largest"


def test_board_cover_is_stated(capsys):
    result = run(capsys, "dust", "attack", "--dice", "5", "--board", "ruins", "--from", "A9", "--to", "C2",
                 "--exact")
    assert result.out.splitlines()[0] == "Dust weapon line 5/1, into a hit-save"
    assert "note: the target's hit-save comes from the map" in result.out


def test_line_of_sight_in_every_format(capsys):
    data = json.loads(run(capsys, "dust", "los", "ruins", "--from", "A1", "--to", "L9", "--format", "json").out)
    assert data["open"] is False and "D3 (none, no dot)" in data["blocked_by"]
    markdown = run(capsys, "dust", "los", "ruins", "--from", "C5", "--to", "D4", "--format", "markdown").out
    assert "| ruins | C5 | D4 |" in markdown
