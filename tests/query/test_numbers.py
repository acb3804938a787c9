"""The readers of the tabletop spellings of a number (`oddscalc.query.numbers`)."""

from __future__ import annotations

import pytest

from oddscalc.query.numbers import parse_count, parse_number, parse_seed, whole
from oddscalc.query.refusals import OptionError


def refusal(read, text: str) -> tuple:
    with pytest.raises(OptionError) as error:
        read(text)
    return error.value.value, error.value.allowed


@pytest.mark.parametrize("text, value", [("1000000", 10**6), ("1e6", 10**6), ("2_000_000", 2 * 10**6),
                                         ("1,000", 1000), (" 12 ", 12), ("1.5e1", 15), ("-3", -3), ("1e40", 10**40)])
def test_a_count_reads_every_tabletop_spelling_exactly(text, value):
    assert parse_count(text) == value and type(parse_count(text)) is int


@pytest.mark.parametrize("text", ["1.5", "x", "", "inf", "nan", "1e41", "1e-41", "٣", "１"])
def test_a_count_that_is_no_whole_number_is_refused(text):
    assert refusal(parse_count, text) == (text, "expected a whole number like 1000000, 1e6 or 2_000_000")


def test_a_long_count_is_refused_by_its_start():
    assert refusal(parse_count, "9" * 61) == ("9" * 40 + "...",
                                              "expected a whole number like 1000000, 1e6 or 2_000_000")
    assert parse_count("9" * 40) == int("9" * 40)
    assert refusal(whole("a port number like 8000"), "x") == ("x", "expected a port number like 8000")
    assert refusal(parse_seed, "x") == ("x", "expected a whole number like 42 or 20261201")


@pytest.mark.parametrize("text, value", [("0.01", 0.01), (" 2 ", 2.0), ("1e-3", 0.001), ("-1", -1.0)])
def test_a_number_reads_a_decimal(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text, allowed", [("x", "expected a number like 0.01"), ("٣", "expected a number like 0.01"),
                                           ("inf", "expected a finite number like 0.01"),
                                           ("-inf", "expected a finite number like 0.01"),
                                           ("nan", "expected a finite number like 0.01")])
def test_a_number_that_is_no_finite_decimal_is_refused(text, allowed):
    assert refusal(parse_number, text) == (text, allowed)
