"""Exact mode on the command line: `--fractions` on every query, and sizes that answer or refuse.

Speed is measured by `python -m oddscalc.bench`; here only what a player reads is checked.
"""

import shlex
from fractions import Fraction

import numpy as np
import pytest
from clirun import assert_refused, run

from oddscalc.core import engine, roll
from oddscalc.query.registry import COMMANDS, QUERIES
from oddscalc.query.words import every_query as register_every_query

DROPPED = {"--plot": 1, "--trials": 1, "--format": 1, "--precision": 1, "--exact": 0, "--verify": 0}


def first_example(path: str) -> list[str]:
    """The first example of a query's --help, without the options this test chooses itself."""
    line = COMMANDS[path].examples[0]
    words, kept = shlex.split(line)[1:], []
    while words:
        word = words.pop(0)
        if word in DROPPED:
            del words[:DROPPED[word]]
        else:
            kept.append(word)
    return kept


def every_query() -> list[str]:
    register_every_query()
    return sorted(QUERIES)


@pytest.mark.parametrize("path", every_query())
def test_every_query_gives_exact_rationals_that_the_floats_agree_with(capsys, path):
    result = run(capsys, *first_example(path), "--exact", "--fractions", "--format", "json")
    assert result.code == 0, result.err
    outcomes = result.json()["outcomes"]
    for name, outcome in outcomes.items():
        rationals = [Fraction(text) for text in outcome["pmf_fractions"]]
        assert sum(rationals) == 1 and all(value >= 0 for value in rationals), name
        assert all("/" in text or text in ("0", "1") for text in outcome["pmf_fractions"])
        floats = np.array(outcome["pmf"])
        assert len(rationals) >= len(floats)
        assert np.abs(floats - np.array(rationals[: len(floats)], dtype=float)).max() < 1e-12, name


def test_two_dice_as_fractions(capsys):
    data = run(capsys, "roll", "2d6", "--exact", "--fractions", "--format", "json").json()
    assert data["outcomes"]["sum"]["pmf_fractions"] == ["0", "0", "1/36", "1/18", "1/12", "1/9", "5/36", "1/6",
                                                        "5/36", "1/9", "1/12", "1/18", "1/36"]
    table = run(capsys, "roll", "2d6", "--exact", "--fractions").out
    assert "exactly" in table and "at least" in table and "35/36" in table  # P(≥ 3)
    csv_out = run(capsys, "roll", "2d6", "--exact", "--fractions", "--format", "csv").out
    assert "probability_fraction" in csv_out.splitlines()[0] and "sum,7,0.166666666666667," in csv_out
    assert csv_out.splitlines()[8].endswith(",exact,,,1/6")


def test_fractions_need_exact(capsys):
    assert_refused(capsys, "roll", "2d6", "--fractions", mentions=("--fractions", "--exact"))
    assert_refused(capsys, "roll", "2d6", "--verify", "--fractions", mentions=("--fractions",))


@pytest.mark.parametrize("args", [
    ["roll", "200d6", "--exact"],
    ["roll", "200d6", "--maximised", "3", "--exact"],
    ["roll", "40d100", "--exact"],
    ["roll", "200d100", "--maximised", "20", "--exact"],
    ["roll", "200d100", "--minimised", "20", "--exact"],
])
def test_the_largest_rolls_are_answered_exactly_in_floats(capsys, args):
    outcome = run(capsys, *args, "--format", "json").json()["outcomes"]["sum"]
    assert abs(sum(outcome["pmf"]) - 1) < 1e-9
    count, sides = (int(part) for part in args[1].split("d"))
    expected = count * (sides + 1) / 2
    extra = 0 if "--exact" == args[2] else int(args[3]) * (1 if args[2] == "--maximised" else -1)
    assert (outcome["mean"] > expected) if extra > 0 else (outcome["mean"] < expected) if extra < 0 else \
        abs(outcome["mean"] - expected) < 1e-9


@pytest.mark.parametrize("args", [
    ["roll", "200d6", "--maximised", "3", "--exact", "--fractions"],
    ["roll", "40d100", "--maximised", "3", "--exact", "--fractions"],
    ["roll", "200d100", "--exact", "--fractions"],
])
def test_rationals_too_big_to_compute_are_refused_before_any_work(capsys, monkeypatch, args):
    from oddscalc.core import terms, totals

    def never(*_: object) -> None:
        raise AssertionError("the refusal came after the work started")

    monkeypatch.setattr(terms, "keep_weights", never)
    monkeypatch.setattr(terms, "sum_weights", never)
    monkeypatch.setattr(totals, "sum_pmf", never)
    assert_refused(capsys, *args, mentions=("--exact", args[1], "sample instead", "--fractions"))


def test_verify_honours_the_limit_before_sampling(capsys, monkeypatch):
    def never(*_: object, **__: object) -> None:
        raise AssertionError("sampled before the exact half was refused")

    monkeypatch.setattr(roll, "EXACT_SECONDS", 1e-9)
    monkeypatch.setattr(engine, "monte_carlo", never)
    assert_refused(capsys, "roll", "12d6", "--maximised", "3", "--verify", mentions=("--exact", "sample instead"))
