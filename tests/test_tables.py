"""What a player reads in a table, checked against exact values: every cell of the query
tables, the JSON and CSV, and the statistics of the study rows."""

import csv
import io
import json
from fractions import Fraction

import numpy as np
import pytest

from oddscalc.core import distribution, engine
from oddscalc.output import style, tables
from oddscalc.core.dice import DiceExpression
from oddscalc.core.distribution import Distribution
from oddscalc.core.hits import HitAndSave
from oddscalc.core.roll import Roll
from oddscalc.studies.sweeps import Statistic, summary_row

TWO_D6 = Roll(DiceExpression.parse("2d6"))
WAYS = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]  # 2d6: ways of each total, of 36


def exact_2d6() -> engine.Result:
    return engine.run(TWO_D6, method="exact")


def sampled(attack=TWO_D6, trials=20_000, seed=3) -> engine.Result:
    return engine.run(attack, trials=trials, seed=seed)


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
    result = engine.run(TWO_D6, trials=1000, seed=1, precision=1e-6)
    assert tables.result_json(result, "c")["precision_reached"] is False
    assert tables.result_json(engine.run(TWO_D6, trials=10**6, seed=1, precision=0.05), "c")["precision_reached"] is True
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
    assert "\n  7   16.67%   58.33%\n" in bbcode  # the row as the terminal draws it


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
    assert len(table.notes) == 2 and table.notes[0].startswith("not shown: values below ")  # both notes kept
    shown, _ = tables.shown_values(distribution)
    bounds = [(int(row[0].partition("–")[0]), int(row[0].rpartition("–")[2])) for row in table.rows]
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
    from oddscalc.core.engine import Result

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


@pytest.mark.parametrize("p, text", [
    (5 / 32, "15.63%"),  # 15.625 %: half up, as a player rounds by hand (half-even would give 15.62)
    (1 / 8, "12.5%"), (0.0015 / 100, "0.0015%"), (1e-6, "0.0001%"), (1e-9, "1e-7%"),
    (9.095e-13, "9.095e-11%"),  # not 0.00000000009095%
    (0.0, "0%"), (1.0, "100%"),
])
def test_a_percentage_is_shown_as_a_player_reads_it(p, text):
    assert style.percent(p) == text


def test_shown_figures_round_half_up_and_json_keeps_every_digit():
    assert (style.number(2.675), style.number(0.12345), style.number(1.00005)) == ("2.675", "0.1235", "1")
    assert style.number(0.6845, 0.00046) == "0.68450 ± 0.00046" and style.percent(0.15625, 0.0001) == \
        "15.625% ± 0.010"
    assert style.number(-1.2345e-6) == "-1.235e-6" and style.number(float("inf")) == "inf"


def test_study_rows_as_csv_markdown_and_bbcode():
    rows = [{"n": 1, "mean": 0.5, "mean_stderr": 0.01}, {"n": 2, "mean": 1.25, "mean_stderr": 0.0}]
    header = {"command": "oddscalc sweep x", "method": "exact", "trials": None, "seed": None}
    assert tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.CSV, header) == \
        "n,mean,mean_stderr,method,seed\n1,0.5,0.01,exact,\n2,1.25,0.0,exact,\n"
    markdown = tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.MARKDOWN, header, ["ranked"])
    assert markdown.startswith("`oddscalc sweep x`  \noddscalc") and "| 1 | 0.500 ± 0.010 |" in markdown
    assert markdown.endswith("ranked") and "| 2 | 1.25 |" in markdown
    bbcode = tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.BBCODE, header)
    assert bbcode.startswith("[code]oddscalc sweep x[/code]") and "\n1   0.500 ± 0.010\n" in bbcode
    text = tables.render_rows(["n", "mean", "mean_stderr"], rows, tables.Format.TABLE, header, ["ranked"])
    assert text.splitlines()[:2] == ["oddscalc sweep x", f"oddscalc {tables.__version__} · exact"]
    assert text.splitlines()[-1] == "ranked" and "mean_stderr" not in text


def test_provenance_is_one_line_for_every_method():
    assert tables.provenance("exact", None, None) == f"oddscalc {tables.__version__} · exact"
    assert tables.provenance("monte-carlo", 1_000_000, 7) == \
        f"oddscalc {tables.__version__} · Monte Carlo, 1,000,000 trials, seed 7"
    assert tables.provenance("monte-carlo", 1000, 7, per_cell=True).endswith("1,000 trials per cell, seed 7")


def test_the_verification_notes_say_within_or_outside():
    result = engine.run(TWO_D6, trials=10_000, seed=3, method="verify")
    (note,) = tables.verification_notes(result)
    check = result.verification["sum"]
    assert note == (f"verify sum: largest CDF gap {check.gap:.2e}, within the DKW bound {check.bound:.2e} "
                    f"(α = 0.001)")
    assert tables.verification_notes(exact_2d6()) == ()


def test_the_precision_note():
    short = engine.run(TWO_D6, trials=1000, seed=1, precision=1e-6)
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


# --- exact text: the tail rule, ranges, fitted widths and the study renderers ------------------------------------------


def exact_result(pmf, name="x", events=()) -> engine.Result:
    return engine.Result({name: Distribution.from_pmf(pmf)}, "exact", None, None, events=events)


TAIL_NOTE = "(each under " + style.percent(tables.TAIL) + ")"


@pytest.mark.parametrize("pmf, shown, note", [
    ([0, 0, 0.5, 0.5], [2, 3], None),  # values that cannot happen are not values
    ([tables.TAIL, 1 - tables.TAIL], [0, 1], None),  # exactly the tail is still shown
    ([1e-5, 0.5, 0.5 - 1e-5], [1, 2], f"not shown: values below 1, together {style.percent(1e-5)} {TAIL_NOTE}"),
    ([0.5, 0.5 - 1e-5, 1e-5], [0, 1], f"not shown: values above 1, together {style.percent(1e-5)} {TAIL_NOTE}"),
    ([1e-5, 2e-5, 0.5, 0.5 - 5e-5, 2e-5], [2, 3],
     f"not shown: values below 2 and above 3, together {style.percent(5e-5)} {TAIL_NOTE}"),
])
def test_the_tail_rule_leaves_out_exactly_the_rare_ends_and_names_them(pmf, shown, note):
    assert tables.shown_values(Distribution.from_pmf(pmf)) == (shown, note)
    table = tables.pmf_table(exact_result(pmf))
    assert [row[0] for row in table.rows] == shown and table.notes == ((note,) if note else ())


def test_a_pmf_with_gaps_shows_only_the_values_that_can_happen():
    table = tables.pmf_table(exact_result([0.5, 0, 0.25, 0, 0.25]))
    assert table.rows == ((0, "50%", "100%"), (2, "25%", "50%"), (4, "25%", "25%")) and table.notes == ()


def test_sixty_values_are_sixty_rows():
    table = tables.pmf_table(exact_result([1 / 60] * 60))
    assert table.columns == ("x", "P(= k)", "P(≥ k)") and [row[0] for row in table.rows] == list(range(60))
    assert table.notes == ()


@pytest.mark.parametrize("values, labels", [
    (61, [f"{k}–{k + 1}" for k in range(0, 60, 2)] + ["60"]),  # the last range holds one value: shown as the value
    (120, [f"{k}–{k + 1}" for k in range(0, 120, 2)]),
])
def test_more_than_sixty_values_are_ranges_of_two_that_add_up(values, labels):
    table = tables.pmf_table(exact_result([1 / values] * values))
    assert table.columns == ("x", "P(in range)", "P(≥ k)") and [row[0] for row in table.rows] == labels
    for label, p, at_least in table.rows:
        low = int(label.partition("–")[0])
        size = 1 if low == values - 1 else 2
        assert p == style.percent(size / values) and at_least == style.percent((values - low) / values)
    assert table.notes == (f"values in ranges of 2 ({values} values; the JSON and CSV formats list each)",)


@pytest.mark.parametrize("values, width", [(6000, 100), (6001, 200), (12001, 500), (30001, 1000)])
def test_range_widths_keep_the_one_two_and_a_half_two_rhythm(values, width):
    assert tables.range_width(values) == width


def test_the_event_table_lists_every_yes_no_outcome_with_its_error():
    exact = engine.Result({"kills": Distribution.from_pmf([0.5, 0.5]), "broken": Distribution.from_pmf([0.25, 0.75]),
                           "shaken": Distribution.from_pmf([0.9, 0.1])}, "exact", None, None,
                          events=("broken", "shaken"))
    table = tables.event_table(exact)
    assert table.columns == ("event", "probability")
    assert table.rows == (("P(broken)", "75%"), ("P(shaken)", "10%"))
    assert tables.event_table(exact, ["shaken"]).rows == (("P(shaken)", "10%"),)
    counts = Distribution.from_counts(np.array([250, 750]))
    sampled_ = engine.Result({"broken": counts}, "monte-carlo", 1000, 1, events=("broken",))
    assert tables.event_table(sampled_).rows == (("P(broken)", style.percent(0.75, (0.75 * 0.25 / 1000) ** 0.5)),)
    never = engine.Result({"broken": Distribution.from_counts(np.array([10**6, 0]))}, "monte-carlo", 10**6, 1,
                          events=("broken",))
    assert tables.event_table(never).rows == (("P(broken)", "0% (under 0.0002996%, 95 %)"),)  # 1 − 0.05^(1/N)
    thrice = engine.Result({"broken": Distribution.from_counts(np.array([10**6 - 3, 3]))}, "monte-carlo", 10**6, 1,
                           events=("broken",))
    low, high = thrice["broken"].interval(3e-6)
    assert tables.event_table(thrice).rows == (
        ("P(broken)", f"0.0003% ({style.percent(low).rstrip('%')}–{style.percent(high)}, 95 %)"),)
    from oddscalc.t9a import Charge

    rational = engine.run(Charge(distance=7), method="exact", fractions=True)  # P(2D6 ≥ 7) = 21/36
    table = tables.event_table(rational)
    assert table.columns == ("event", "probability", "exactly") and table.rows == (("P(success)", "58.33%", "7/12"),)


def test_the_summary_table_skips_events_wherever_they_stand():
    result = engine.Result({"broken": Distribution.from_pmf([0.25, 0.75]), "kills": Distribution.from_pmf([0.5, 0.5])},
                           "exact", None, None, events=("broken",))
    assert tables.summary_table(result).rows == (("kills", "0.5", "0.5", 0, 0, 1),)


def test_a_check_outside_its_bound_says_so_in_capitals():
    result = engine.Result({"x": Distribution.from_pmf([1.0])}, "monte-carlo", 10, 1,
                           verification={"x": engine.Verification(0.5, 0.125, 0.001)})
    assert tables.verification_notes(result) == (
        "verify x: largest CDF gap 5.00e-01, OUTSIDE the DKW bound 1.25e-01 (α = 0.001)",)


def test_describe_is_the_provenance_of_a_result():
    assert tables.describe(sampled(trials=2000, seed=11)) == \
        f"oddscalc {tables.__version__} · Monte Carlo, 2,000 trials, seed 11"


def test_render_passes_the_width_and_indents_json():
    table = tables.Table(("name", "query"), (("cell", "oddscalc epic shoot --shots 12 --to-hit 4+ --units 6"),))
    assert table.render(tables.Format.TABLE, 40) == table.text(40) != table.text()
    assert tables.Table(("k",), ((1,),)).render(tables.Format.JSON) == '[\n  {\n    "k": 1\n  }\n]'


ROWS = [{"n": 1, "mean": 0.5, "label": "one"}, {"n": 2, "label": "two"}]


def test_study_rows_in_json_keep_the_header_order_and_indent():
    header = {"command": "oddscalc sweep x", "method": "exact", "trials": None, "seed": None}
    text = tables.render_rows(["n", "mean", "label"], ROWS, tables.Format.JSON, header, extra={"ranked_by": "mean"})
    assert text.startswith('{\n  "oddscalc": "' + tables.__version__ + '",\n  "command": "oddscalc sweep x",')
    assert list(json.loads(text)) == ["oddscalc", "command", "method", "trials", "seed", "rows", "ranked_by"]


def test_study_rows_in_csv_carry_the_seed_and_leave_missing_cells_empty():
    header = {"command": "c", "method": "monte-carlo", "trials": 100, "seed": 5}
    assert tables.render_rows(["n", "mean", "label"], ROWS, tables.Format.CSV, header) == \
        "n,mean,label,method,seed\n1,0.5,one,monte-carlo,5\n2,,two,monte-carlo,5\n"


def test_study_rows_as_text_wrap_long_notes_and_end_with_the_table():
    header = {"command": "c", "method": "exact", "trials": None, "seed": None}
    text = tables.render_rows(["n", "label"], ROWS, tables.Format.TABLE, header)
    assert text.endswith("\n2   two")  # no notes: nothing after the table
    note = "cannot hurt (not ranked): Leman Russ Company: Lascannons → Tactical Detachment"
    lines = tables.render_rows(["n", "label"], ROWS, tables.Format.TABLE, header, [note], width=40).splitlines()
    assert lines[-4:] == ["", "cannot hurt (not ranked): Leman Russ", "  Company: Lascannons → Tactical",
                          "  Detachment"]


def test_study_rows_as_markdown_and_bbcode_exactly():
    header = {"command": "c", "method": "exact", "trials": None, "seed": None}
    line = f"oddscalc {tables.__version__} · exact"
    assert tables.render_rows(["n", "label"], ROWS, tables.Format.MARKDOWN, header, ["ranked"]) == (
        f"`c`  \n{line}\n\n| n | label |\n|---:|:---|\n| 1 | one |\n| 2 | two |\n\nranked")
    assert tables.render_rows(["n", "label"], ROWS, tables.Format.BBCODE, header, ["ranked"]) == (
        f"[code]c[/code]\n{line}\n\n[code]n   label\n─────────\n1   one\n2   two[/code]\n\nranked")


def test_readable_rows_join_errors_and_keep_other_values_as_they_are():
    columns = ["unit", "n", "k", "mean", "mean_stderr", "p_kill", "p_kill_stderr", "flag", "missing"]
    row = {"unit": "Orks", "n": 3, "k": 4, "k_stderr": 0.1, "mean": 0.5, "mean_stderr": 0.0, "p_kill": 0.25,
           "p_kill_stderr": 0.0, "flag": True}
    table = tables.readable(columns, [row])
    assert table.columns == ("unit", "n", "k", "mean", "p_kill", "flag", "missing")  # errors join their value
    assert table.rows == (("Orks", 3, "4.00 ± 0.10", "0.5", "25%", True, ""),)


def test_an_error_column_without_its_value_column_is_shown():
    table = tables.readable(["spread_stderr", "mean", "mean_stderr"], [{"spread_stderr": 0.5, "mean": 1.0}])
    assert table.columns == ("spread_stderr", "mean") and table.rows == (("0.5", "1"),)


def test_a_rare_value_of_a_sampled_table_shows_its_exact_range():
    """Seen fewer than 10 times in N trials: P(= k) and P(≥ k) show the Clopper-Pearson range."""
    counts = np.array([234, 60, 6])  # 300 trials: 0 kills 234 times, 1 kill 60 times, 2 kills 6 times
    result = engine.Result({"kills": Distribution.from_counts(counts)}, "monte-carlo", 300, 2)
    low, high = distribution.interval(6 / 300, 300)
    ranged = f"2% ({style.percent(low).rstrip('%')}–{style.percent(high)}, 95 %)"
    assert tables.pmf_table(result).rows == (
        (0, style.percent(0.78, (0.78 * 0.22 / 300) ** 0.5), "100%"),  # from the least value seen: every trial
        (1, style.percent(0.2, (0.2 * 0.8 / 300) ** 0.5), style.percent(0.22, (0.22 * 0.78 / 300) ** 0.5)),
        (2, ranged, ranged))
    assert tables.pmf_table(engine.run(Roll("d6"), method="exact")).rows[0] == (1, "16.67%", "100%")


def test_a_rare_share_of_a_studys_cell_shows_its_exact_range():
    rows = [{"at_least_1": 4 / 50, "at_least_1_stderr": 0.038, "P(> #2)": 0.0, "P(> #2)_stderr": 0.0,
             "mean": 0.08, "mean_stderr": 0.038},
            {"at_least_1": 1.0, "at_least_1_stderr": 0.0, "P(> #2)": 0.9856, "P(> #2)_stderr": 0.0082,
             "mean": 3.4, "mean_stderr": 0.23}]
    columns = list(rows[0])
    low, high = distribution.interval(4 / 50, 50)
    table = tables.readable(columns, rows, trials=50)
    assert table.rows[0][0] == f"8% ({style.percent(low).rstrip('%')}–{style.percent(high)}, 95 %)"
    assert table.rows[1][0] == "100% (over 94.2%, 95 %)"  # 0.05^(1/50) = 0.94184
    assert tables.readable(columns, rows, trials=10**5).rows[1][0] == "100% (over 99.997%, 95 %)"  # not "over 100%"
    assert table.rows[0][1] == "0%" and table.rows[1][1] == style.percent(0.9856, 0.0082)  # P(A > B): no count of trials
    assert tables.readable(columns, rows).rows[0][0] == style.percent(0.08, 0.038)  # trials unknown: ± its error
    assert tables.readable(columns, rows, trials=5000).rows[0][0] == style.percent(0.08, 0.038)  # 400 seen: not rare
    answer = tables.StudyAnswer(tuple(rows), {"command": "c", "method": "monte-carlo", "trials": 50, "seed": 1},
                                trials=50)
    assert "8% (" in answer.render(tables.Format.TABLE) and "8% (" in answer.tables()[0].rows[0][0]
    assert '"at_least_1": 0.08' in answer.render(tables.Format.JSON)  # JSON keeps the raw figure


def test_a_study_ranges_rare_shares_only_when_its_cells_ran_alike(capsys):
    from types import SimpleNamespace

    from oddscalc.query.answer import study_answer

    def cells(*trials, method="monte-carlo"):
        return [SimpleNamespace(method=method, trials=n) for n in trials]

    assert study_answer([], cells(50, 50), 1).trials == 50
    assert study_answer([], cells(50, 80), 1).trials is None  # --precision stopped them apart: no one N
    assert study_answer([], cells(None, None, method="exact"), None).trials is None
    assert study_answer([], cells(50, 50), 1).header["trials"] == 50


@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
def test_a_forum_post_starts_with_the_pages_sentence(fmt):
    """Markdown and BBCode start with the answer in one sentence, the one the page shows (`sentence.of_query`
    of the same answer, worked here again), then the title; a plain table has none."""
    from oddscalc.query import asking
    from oddscalc.output import sentence

    asked = asking.ask(["epic", "shoot", "--shots", "12", "--to-hit", "4+", "--units", "6", "--armour", "4+",
                        "--exact"])
    content = asked.answer.content
    said = sentence.of_query(asked.attack, content.result, content.outcome)
    post = content.render(tables.Format(fmt))
    assert post.split("\n\n", 1)[0] == said and said.startswith("Kills ") and said.endswith(".")
    assert said not in content.render(tables.Format.TABLE)
