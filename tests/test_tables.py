"""What a player reads in a table, checked against exact values: every cell of the query
tables, the JSON and CSV, and the statistics of the study rows."""

import csv
import io
import json
from fractions import Fraction

import pytest

from oddscalc import engine, style, tables
from oddscalc.dice import DiceExpression
from oddscalc.distribution import Distribution
from oddscalc.roll import HitAndSave, Roll
from oddscalc.studies import Statistic, summary_row

TWO_D6 = Roll(DiceExpression.parse("2d6"))
WAYS = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]  # 2d6: ways of each total, of 36


def exact_2d6() -> engine.Result:
    return engine.run(TWO_D6, method="exact")


def sampled(attack=TWO_D6, trials=20_000, seed=3) -> engine.Result:
    return engine.run(attack, trials, seed)


def numbers(text: str) -> float:
    """The number a cell shows, without its % and ± error."""
    return float(str(text).split(" ± ")[0].rstrip("%").replace(",", ""))


def test_the_pmf_table_shows_p_and_p_at_least_for_every_value():
    table = tables.pmf_table(exact_2d6())
    assert table.columns == ("sum", "P(= k)", "P(≥ k)")
    assert [row[0] for row in table.rows] == list(range(2, 13))
    for k, p, at_least in table.rows:
        assert numbers(p) == pytest.approx(100 * WAYS[k] / 36, abs=0.005)
        assert numbers(at_least) == pytest.approx(100 * sum(WAYS[k:]) / 36, abs=0.005)


def test_the_summary_table_shows_mean_sd_median_and_percentiles_in_order():
    table = tables.summary_table(exact_2d6())
    assert table.columns == ("outcome", "mean", "sd", "median", "p10", "p90")
    (row,) = table.rows
    # 2d6: P(≤ 3) = 3/36 < 0.1 ≤ P(≤ 4) = 6/36, P(≤ 9) = 30/36 < 0.9 ≤ P(≤ 10) = 33/36
    assert row[0] == "sum" and numbers(row[1]) == 7 and numbers(row[2]) == pytest.approx((35 / 6) ** 0.5, abs=5e-4)
    assert (row[3], row[4], row[5]) == (7, 4, 10)


def test_sampled_cells_carry_their_standard_errors():
    result = sampled()
    dist = result["sum"]
    (row,) = tables.summary_table(result).rows
    mean, error = row[1].split(" ± ")
    assert float(mean) == pytest.approx(dist.mean, abs=1e-3) and float(error) == pytest.approx(dist.mean_stderr, rel=0.05)
    k, p, at_least = tables.pmf_table(result).rows[5]
    assert float(p.split(" ± ")[1]) == pytest.approx(100 * dist.stderr(dist.probability(k)), rel=0.05)
    assert float(at_least.split(" ± ")[1]) == pytest.approx(100 * dist.at_least_stderr(k), rel=0.05)


def test_json_holds_the_contract_and_exact_values():
    data = tables.result_json(exact_2d6(), "oddscalc roll 2d6 --exact")
    assert data["method"] == "exact" and data["trials"] is None and data["seed"] is None
    sum_ = data["outcomes"]["sum"]
    assert sum_["pmf"] == [float(f"{w / 36:.15g}") for w in WAYS]  # exact floats without float noise
    assert sum_["at_least"] == [float(f"{sum(WAYS[k:]) / 36:.15g}") for k in range(13)]
    assert sum_["mean"] == 7.0 and sum_["at_least"][0] == 1.0 and sum_["mean_stderr"] == 0
    assert sum_["sd"] == pytest.approx((35 / 6) ** 0.5, abs=1e-12)


def test_json_says_when_the_precision_was_not_reached():
    result = engine.run(TWO_D6, 1000, 1, precision=1e-6)
    assert tables.result_json(result, "c")["precision_reached"] is False
    assert tables.result_json(engine.run(TWO_D6, 10**6, 1, precision=0.05), "c")["precision_reached"] is True
    assert "precision_reached" not in tables.result_json(exact_2d6(), "c")


def test_csv_rows_are_tidy_and_exact():
    text = tables.result_csv(engine.run(HitAndSave(2, 4, 4), method="exact"))
    rows = list(csv.DictReader(io.StringIO(text)))
    unsaved = {int(row["k"]): row for row in rows if row["outcome"] == "unsaved"}
    # each die: 1/2 to hit, then 1/2 to fail the save: unsaved ~ Binomial(2, 1/4)
    assert [float(unsaved[k]["probability"]) for k in range(3)] == pytest.approx([9 / 16, 6 / 16, 1 / 16])
    assert [float(unsaved[k]["at_least"]) for k in range(3)] == pytest.approx([1, 7 / 16, 1 / 16])


def test_text_markdown_and_bbcode_hold_the_same_cells():
    result = exact_2d6()
    text = tables.render_result(result, tables.Format.TABLE, "oddscalc roll 2d6 --exact")
    markdown = tables.render_result(result, tables.Format.MARKDOWN, "oddscalc roll 2d6 --exact")
    bbcode = tables.render_result(result, tables.Format.BBCODE, "oddscalc roll 2d6 --exact")
    for cell in ("16.67%", "58.33%", "2.778%"):  # P(= 7), P(≥ 7), P(= 2)
        assert cell in text and cell in markdown and cell in bbcode
    assert "| 7 | 16.67% | 58.33% |" in markdown and "| 2 | 2.778% | 100% |" in markdown
    assert "[td]7[/td][td]16.67%[/td][td]58.33%[/td]" in bbcode


def test_a_long_pmf_leaves_out_negligible_rows_and_says_so():
    table = tables.pmf_table(engine.run(Roll(DiceExpression.parse("20d6")), method="exact"))
    shown = [row[0] for row in table.rows]
    assert 70 in shown and 20 not in shown and 120 not in shown
    assert table.notes and "not shown" in table.notes[0]


def test_a_wide_pmf_is_shown_in_round_ranges_that_add_up():
    result = engine.run(Roll(DiceExpression.parse("200d6")), method="exact", fractions=True)
    distribution, rationals = result["sum"], result.rationals["sum"]
    table = tables.pmf_table(result)
    assert table.columns == ("sum", "P(in range)", "P(≥ k)", "exactly", "at least")
    assert len(table.rows) <= tables.MAX_ROWS and "values in ranges of 5" in table.notes[-1]
    shown, _ = tables.shown_values(distribution)
    bounds = [tuple(int(v) for v in row[0].split("–")) for row in table.rows]
    assert bounds[0][0] == shown[0] and bounds[-1][1] == shown[-1]
    assert all(b[0] == a[1] + 1 for a, b in zip(bounds, bounds[1:]))  # no value left out or shown twice
    assert all(high - low + 1 <= 5 for low, high in bounds) and all(low % 5 == 0 for low, _ in bounds[1:])
    for (low, high), row in zip(bounds, table.rows):
        inside = sum(rationals[low:high + 1], Fraction(0))
        assert row[3] == str(inside) and row[4] == str(sum(rationals[low:], Fraction(0)))
        assert row[1] == style.percent(float(inside)) and row[2] == style.percent(distribution.at_least(low))


@pytest.mark.parametrize("values, width", [(1, 1), (60, 1), (61, 2), (120, 2), (121, 5), (301, 10), (2031, 50)])
def test_range_widths_are_round(values, width):
    assert tables.range_width(values) == width




def test_study_rows_are_the_exact_statistics():
    row = summary_row(exact_2d6(), "sum", at_least=[9, 12])
    assert (row["median"], row["p10"], row["p90"]) == (7, 4, 10)
    assert row["at_least_9"] == pytest.approx(10 / 36) and row["at_least_12"] == pytest.approx(1 / 36)
    assert row["at_least_9_stderr"] == 0 and row["mean_stderr"] == 0


def test_study_statistics_are_read_off_the_right_distribution():
    result = exact_2d6()
    values = {name: Statistic.parse(name).value(result)[0] for name in
              ("mean", "median", "p10", "p90", "at_least_10", "at_most_4", "exactly_7", "sd")}
    assert values == pytest.approx({"mean": 7, "median": 7, "p10": 4, "p90": 10, "at_least_10": 6 / 36,
                                    "at_most_4": 6 / 36, "exactly_7": 6 / 36, "sd": (35 / 6) ** 0.5})
    assert Statistic.parse("at_least_3").label("sum") == "P(sum ≥ 3)"


def test_quantiles_of_a_skewed_distribution():
    # P(0) = 0.05, P(1) = 0.1, P(2) = 0.7, P(3) = 0.15: p10 = 1, p20 = 2, p90 = 3
    dist = Distribution.from_pmf([0.05, 0.1, 0.7, 0.15])
    assert (dist.quantile(0.1), dist.quantile(0.2), dist.median, dist.quantile(0.9)) == (1, 2, 2, 3)
    from oddscalc.engine import Result

    row = summary_row(Result({"x": dist}, "exact", None, None), "x")
    assert (row["p10"], row["median"], row["p90"]) == (1, 2, 3)


def test_rendered_study_rows_keep_every_cell():
    rows = [{"n": 1, "mean": 0.5, "mean_stderr": 0.01, "at_least_1": 0.25, "at_least_1_stderr": 0.002},
            {"n": 2, "mean": 1.0, "mean_stderr": 0.0, "at_least_1": Fraction(1, 2), "at_least_1_stderr": 0}]
    header = {"command": "oddscalc test", "method": "monte-carlo", "trials": 1000, "seed": 5}
    data = json.loads(tables.render_rows(list(rows[0]), rows, tables.Format.JSON, header))
    assert data["rows"][0]["mean"] == 0.5 and data["seed"] == 5 and data["trials"] == 1000
    text = tables.render_rows(list(rows[0]), rows, tables.Format.TABLE, header)
    assert "0.500 ± 0.010" in text and "25.00% ± 0.20" in text and "1,000 trials per cell, seed 5" in text


SMALL = tables.Table(("unit", "mean", "P"), (("Orks", 1.5, "12.00%"), ("a|b", None, float("nan"))), title="Title",
                     notes=("a note",))


def test_a_table_as_text_aligns_words_left_and_numbers_right():
    assert SMALL.text() == ("Title\n"
                            "unit   mean        P\n"
                            "────────────────────\n"
                            "Orks    1.5   12.00%\n"
                            "a|b       -\n"
                            "a note")


def test_a_long_cell_folds_to_fit_the_width():
    table = tables.Table(("name", "query"), (("cell", "oddscalc epic shoot --shots 12 --to-hit 4+ --units 6"),))
    lines = table.text(width=40).splitlines()
    assert max(len(line) for line in lines) <= 40 and len(lines) > 3
    folded = "".join(line[7:].strip() for line in lines[2:])
    assert folded.replace(" ", "") == "oddscalcepicshoot--shots12--to-hit4+--units6"
    assert table.text().splitlines()[2].endswith("--units 6")  # not to a terminal: no folding


def test_a_table_as_markdown_and_bbcode():
    assert SMALL.markdown() == ("**Title**\n\n| unit | mean | P |\n|:---|---:|---:|\n| Orks | 1.5 | 12.00% |\n"
                                "| a\\|b | - |  |\n\n_a note_")
    assert SMALL.bbcode() == ("[b]Title[/b]\n[table]\n[tr][th]unit[/th][th]mean[/th][th]P[/th][/tr]\n"
                              "[tr][td]Orks[/td][td]1.5[/td][td]12.00%[/td][/tr]\n"
                              "[tr][td]a|b[/td][td]-[/td][td][/td][/tr]\n[/table]\n[i]a note[/i]")
    assert SMALL.csv() == "unit,mean,P\nOrks,1.5,12.00%\na|b,,nan\n"


def test_a_table_as_json_rows():
    import numpy as np

    table = tables.Table(("k", "p"), ((np.int64(2), np.float64(0.5)), (3, Fraction(1, 4))))
    assert json.loads(table.render(tables.Format.JSON)) == [{"k": 2, "p": 0.5}, {"k": 3, "p": "1/4"}]
    assert table.render(tables.Format.CSV) == "k,p\n2,0.5\n3,1/4\n"


@pytest.mark.parametrize("value, text", [(3.14159, "3.142"), (12345.678, "12346"), (0.00012346, "0.0001235"),
                                         (2.0, "2"), (float("nan"), ""), (None, "-"), (7, "7"), ("x", "x")])
def test_a_cell_shows_four_significant_digits(value, text):
    assert tables.cell(value) == text


def test_study_rows_as_csv_markdown_and_bbcode():
    rows = [{"n": 1, "mean": 0.5, "mean_stderr": 0.01}, {"n": 2, "mean": 1.25, "mean_stderr": 0.0}]
    header = {"command": "oddscalc sweep x", "method": "exact", "trials": None, "seed": None}
    assert tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.CSV, header) == \
        "n,mean,mean_stderr,method,seed\n1,0.5,0.01,exact,\n2,1.25,0.0,exact,\n"
    markdown = tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.MARKDOWN, header, ["ranked"])
    assert markdown.startswith("`oddscalc sweep x`  \noddscalc") and "| 1 | 0.500 ± 0.010 |" in markdown
    assert markdown.endswith("ranked") and "| 2 | 1.25 |" in markdown
    bbcode = tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.BBCODE, header)
    assert bbcode.startswith("[code]oddscalc sweep x[/code]") and "[td]0.500 ± 0.010[/td]" in bbcode
    text = tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.TABLE, header, ["ranked"])
    assert text.splitlines()[:2] == ["oddscalc sweep x", f"oddscalc {tables.__version__} · exact"]
    assert text.splitlines()[-1] == "ranked" and "mean_stderr" not in text


def test_provenance_is_one_line_for_every_method():
    assert tables.provenance("exact", None, None) == f"oddscalc {tables.__version__} · exact"
    assert tables.provenance("monte-carlo", 1_000_000, 7) == \
        f"oddscalc {tables.__version__} · Monte Carlo, 1,000,000 trials, seed 7"
    assert tables.provenance("monte-carlo", 1000, 7, per_cell=True).endswith("1,000 trials per cell, seed 7")


def test_the_verification_notes_say_within_or_outside():
    result = engine.run(TWO_D6, 10_000, 3, method="verify")
    (note,) = tables.verification_notes(result)
    check = result.verification["sum"]
    assert note == (f"verify sum: largest CDF gap {check.gap:.2e}, within the DKW bound {check.bound:.2e} "
                    f"(α = 0.001)")
    assert tables.verification_notes(exact_2d6()) == ()


def test_the_precision_note():
    short = engine.run(TWO_D6, 1000, 1, precision=1e-6)
    assert tables.precision_note([short], 1e-6) == (
        "note: --precision 1e-06 was not reached within --trials for the answer; the figures carry their "
        "standard errors (raise --trials to go further)",)
    assert "for 1 of 2 cells" in tables.precision_note([short, exact_2d6()], 1e-6)[0]
    assert tables.precision_note([exact_2d6()], None) == ()


def test_a_frame_of_rows():
    frame = tables.frame([{"a": 1, "b": 2.5}, {"a": 2, "b": 3.5}])
    assert list(frame.columns) == ["a", "b"] and frame["b"].sum() == 6.0


def test_a_result_in_csv_is_every_value_with_its_figures_exactly():
    exact = engine.run(Roll(DiceExpression.parse("d3")), method="exact", fractions=True)
    assert tables.result_csv(exact).splitlines() == [
        "outcome,k,probability,at_least,probability_stderr,at_least_stderr,method,trials,seed,probability_fraction",
        "sum,0,0.0,1.0,0.0,0.0,exact,,,0",
        "sum,1,0.333333333333333,1.0,0.0,0.0,exact,,,1/3",  # exact floats cleaned to 15 digits
        "sum,2,0.333333333333333,0.666666666666667,0.0,0.0,exact,,,1/3",
        "sum,3,0.333333333333333,0.333333333333333,0.0,0.0,exact,,,1/3"]
    sampled = engine.run(Roll(DiceExpression.parse("d3")), trials=300, seed=5)
    lines = tables.result_csv(sampled).splitlines()
    assert lines[0] == "outcome,k,probability,at_least,probability_stderr,at_least_stderr,method,trials,seed"
    first = lines[2].split(",")
    p = sampled["sum"].probability(1)
    assert first[:4] == ["sum", "1", repr(p), "1.0"] and first[-3:] == ["monte-carlo", "300", "5"]
    assert float(first[4]) == sampled["sum"].stderr(p) > 0
