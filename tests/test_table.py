"""One table of text cells and how each format draws it (oddscalc/output/table.py): the terminal's text within a width
(words left, numbers right, long cells folded, columns giving way), Markdown, BBCode, CSV, JSON; a table that fits
drawn here exactly as Rich draws it. (The tables of answers and study rows: tests/test_tables.py.)"""

import json
from fractions import Fraction

import pytest
from hypothesis import example, given, settings, strategies as st

from oddscalc.output import table as tables


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
    # BBCode: the table as the terminal draws it, in [code] (the forums players use render no [table])
    assert SMALL.bbcode() == ("[b]Title[/b]\n[code]unit   mean        P\n────────────────────\n"
                              "Orks    1.5   12.00%\na|b       -[/code]\n[i]a note[/i]")
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


def test_a_table_without_title_starts_with_its_header():
    table = tables.Table(("a",), ((1,),))
    assert table.markdown() == "| a |\n|---:|\n| 1 |"  # a column of numbers goes right
    assert table.bbcode() == "[code]a\n─\n1[/code]"


def test_figures_with_thousands_and_errors_are_right_aligned():
    table = tables.Table(("name", "count", "mean"), (("a", "1,234", "1.5 ± 0.2"), ("bb", "56", "10.25 ± 0.03")))
    assert table.text() == ("name   count           mean\n"
                            "───────────────────────────\n"
                            "a      1,234      1.5 ± 0.2\n"
                            "bb        56   10.25 ± 0.03")


# A grid's columns: two names, two figures. Naturally 18 + 19 + 15 + 16 = 68 wide, with 3 gaps of 3: 77 columns.
# The longest word of each: "Whirlwind" 9, "Detachment" 10, "± 0.0013" 8, "± 0.0091" 8.
GRID = tables.Table(("attacker", "target", "mean", "p_kill"),
                    (("Leman Russ Company", "Tactical Detachment", "2.4399 ± 0.0013", "0.8299% ± 0.0091"),
                     ("Whirlwind Battery", "Ork Warband", "1.3344 ± 0.0010", "0%")))


def fitted(width):
    cells = [list(row) for row in GRID.rows]
    return tables.fitted_widths(GRID.columns, cells, [False, False, True, True], width)


@pytest.mark.parametrize("width, widths", [
    (77, None),  # fits exactly: as it is
    (76, [18, 18, 15, 16]),  # one column to give: the widest name gives it
    (70, [15, 15, 15, 16]),  # names give in turn, the widest first (the first of equals)
    (50, [9, 10, 14, 8]),  # names at their longest word; then the last figure, then the one before
    (30, [9, 10, 8, 8]),  # nothing narrower than a word or a value with its error: the table stays 44 wide
])
def test_column_widths_give_way_names_first_then_figures_from_the_last(width, widths):
    assert fitted(width) == widths


def test_a_name_column_never_goes_below_its_longest_word():
    # "Detachments" (11) is one word; "a b c d e f" breaks anywhere: only the second column gives
    cells = [["Detachments", "a b c d e f"]]
    assert tables.fitted_widths(("unit", "who"), cells, [False, False], 20) == [11, 6]


def test_a_grid_fitted_to_70_50_and_30_columns():
    assert GRID.text(77) == GRID.text() and max(len(line) for line in GRID.text().splitlines()) == 77
    assert GRID.text(70) == (
        "attacker          target                       mean             p_kill\n"
        "──────────────────────────────────────────────────────────────────────\n"
        "Leman Russ        Tactical          2.4399 ± 0.0013   0.8299% ± 0.0091\n"
        "Company           Detachment\n"
        "Whirlwind         Ork Warband       1.3344 ± 0.0010                 0%\n"
        "Battery")
    assert GRID.text(50) == (
        "attacker    target                 mean     p_kill\n"
        "──────────────────────────────────────────────────\n"
        "Leman       Tactical           2.4399 ±    0.8299%\n"
        "Russ        Detachment           0.0013   ± 0.0091\n"
        "Company\n"
        "Whirlwind   Ork                1.3344 ±         0%\n"
        "Battery     Warband              0.0010")
    assert GRID.text(30) == (  # too wide for 30 columns: drawn whole at its least width, 44
        "attacker    target           mean     p_kill\n"
        "────────────────────────────────────────────\n"
        "Leman       Tactical     2.4399 ±    0.8299%\n"
        "Russ        Detachment     0.0013   ± 0.0091\n"
        "Company\n"
        "Whirlwind   Ork          1.3344 ±         0%\n"
        "Battery     Warband        0.0010")


TEXT = st.text(st.characters(blacklist_categories=("Cs",), max_codepoint=0x1FAFF), max_size=12)


CELLS = st.one_of(TEXT, st.floats(allow_nan=False, allow_infinity=False, width=32), st.integers(-10**6, 10**6),
                  st.none(), st.sampled_from(["97.85%", "0.09766%", "1.25 ± 0.01", "P(≥ k)", "−3", "⚔", "日本",
                                              "e\u0301", "tab\there", "a\nb"]))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(st.lists(TEXT, min_size=n, max_size=n),
                                                     st.lists(st.lists(CELLS, min_size=n, max_size=n), max_size=6))),
       st.sampled_from([None, 40, 80]))
@example((["䷀"], []), None)  # a character Rich draws two columns wide though Unicode calls it narrow
@example((["", "0000000000", "00000000000", "00000000000"], []), 40)  # an empty heading, no rows, too wide
@example((["0 "], [[""]]), None)  # a heading with a space at its end: Rich trims it, then aligns it on the right
def test_a_table_drawn_without_rich_is_the_table_rich_draws(table, width):
    columns, rows = table
    drawn = tables.Table(tuple(columns), tuple(map(tuple, rows)), title="t", notes=("n",))
    assert drawn.text(width) == drawn._rich(width)


def test_a_plain_table_is_drawn_without_importing_rich():
    import subprocess
    import sys

    code = ("import sys; from oddscalc.output.tables import Table; "
            "print(Table(('kills', 'P(= k)'), ((0, '97.85%'), (1, '2.15%'))).text()); print('rich' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["kills   P(= k)", "──────────────", "    0   97.85%", "    1    2.15%", "False"]
