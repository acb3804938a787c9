"""One number style: errors with two significant digits and the value rounded to their
place, four significant digits without an error, scientific notation only below 0.00001,
halves rounded up, clean exact floats."""

import pytest

from oddscalc.output.style import clean, is_probability, number, percent


@pytest.mark.parametrize("value, stderr, text", [
    (8.4623, 0.0221, "8.462 ± 0.022"), (0.29391, 0.00048, "0.29391 ± 0.00048"), (5, 0.0016, "5.0000 ± 0.0016"),
    (1234.5, 12.3, "1235 ± 12"), (3.3333333, None, "3.333"), (12345.678, None, "12346"), (1.5e-5, None, "0.000015"),
    (7.0, None, "7"), (0.5, 0.0, "0.5"), (-1.25, None, "-1.25"), (0, None, "0"), (-0.00001, 0.1, "0.00 ± 0.10"),
    (1e308, None, "1e308"), (123456789012345.0, None, "123456789012345"), (2.5e15, None, "2.5e15"),
])
def test_numbers(value, stderr, text):
    assert number(value, stderr) == text


@pytest.mark.parametrize("p, stderr, text", [
    (0.5778, 0.0005, "57.780% ± 0.050"), (1 / 6, None, "16.67%"), (1 / 36, None, "2.778%"), (1.5e-5, None, "0.0015%"), (7.606e-7, None, "7.606e-5%"), (1e-6, None, "0.0001%"),
    (1.5e-5, 1.2e-6, "0.00150% ± 0.00012"), (1, None, "100%"), (0, None, "0%"), (0.0035, None, "0.35%"),
    (0.0019, 0.00004, "0.1900% ± 0.0040"), (0.123456, 0.00012, "12.346% ± 0.012"),
])
def test_percentages(p, stderr, text):
    assert percent(p, stderr) == text


def test_exact_floats_come_out_clean():
    assert clean(6.999999999999999) == 7.0 and clean(0.9999999999999999) == 1.0
    assert clean(1 / 3) == 0.333333333333333 and clean(2.5e-20) == 2.5e-20 and clean(0.0) == 0.0


@pytest.mark.parametrize("column, probability", [("at_least_3", True), ("p_kill", True), ("P(> #2)", True),
                                                 ("broken.at_least_1", True), ("mean", False), ("points", False),
                                                 ("per_100_points", False), ("exactly_0", True)])
def test_which_columns_are_probabilities(column, probability):
    assert is_probability(column) is probability
