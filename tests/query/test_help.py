"""A command's --help from its declaration (`oddscalc.query.help`): defaults, paragraphs, columns, width."""

from __future__ import annotations

import shutil
from enum import Enum

import pytest

from oddscalc.query import help as helping
from oddscalc.query.grammar import Opt


class Side(Enum):
    FRONT = "front"


def test_help_s_defaults_paragraphs_and_columns(monkeypatch):
    assert helping.default_shown(Opt("x", "--x", "text", required=True)) == "  [required]"
    assert helping.default_shown(Opt("x", "--x", "choice", Side.FRONT)) == "  [default: front]"
    assert helping.default_shown(Opt("x", "--x", "whole", 0)) == "  [default: 0]"
    for quiet in (Opt("x", "--x", "whole", 3, show_default=False), Opt("x", "--x", "text", None),
                  Opt("x", "--x", "text", ()), Opt("x", "--x", "switch", False), Opt("x", "--x", "switch", True)):
        assert helping.default_shown(quiet) == ""
    assert helping.default_shown(Opt("x", "--x", "switch", True, negative="--no-x")) == "  [default: x]"
    assert helping.paragraphs("One\ntwo.\n\n\b\nkept  as\nwritten", "  ", 40) == ["  One two.", "", "  kept  as",
                                                                                 "  written"]
    assert helping.paragraphs("a " * 30, "", 20) == ["a a a a a a a a a a"] * 3
    rows = helping.table([("--short", "Help."), ("-" * 40, "Below its long name.")], 80)
    assert rows == ["  " + "--short".ljust(helping.COLUMN) + "  Help.", "  " + "-" * 40,
                    "  " + " " * helping.COLUMN + "  Below its long name."]
    assert helping.table([("--a", "Help.")], 80) == ["  --a  Help."]
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback: type("S", (), {"columns": 200})())
    assert helping.width() == helping.WIDTH - 2
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback: type("S", (), {"columns": 10})())
    assert helping.width() == 40


def test_a_command_s_help_as_a_player_reads_it(monkeypatch):
    """`oddscalc roll --help`, whole, at 80 columns: the usage, the help's paragraphs rewrapped, its argument, its
    options with their metavars and defaults, and its examples."""
    from oddscalc.query.registry import COMMANDS
    from oddscalc.query.words import load

    load("roll")
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback: type("S", (), {"columns": 80})())
    assert helping.help_text(COMMANDS["roll"]) == """Usage: oddscalc roll [OPTIONS] DICE

  Roll dice: the sum (or the number of successes), maximised or minimised.

  Maximised and minimised rolls stack, and one of each cancel (The 9th Age
  rules, §3.1). A total below 0 counts as 0. With --success, count the kept
  dice showing it or more instead of summing. Outcome: sum (or successes).

Arguments:
  DICE  NdS, NdS+C or NdS-C: 2d6, 3d6+1, d3, d6+2.  [required]

Options:
  --maximised K   Roll K extra dice and discard the K lowest.  [default: 0]
  --minimised K   Roll K extra dice and discard the K highest.  [default: 0]
  --success X     Count dice showing X or more instead of summing.
  --trials N      Monte Carlo trials (1e6, 2_000_000).  [default: 1000000]
  --seed S        Seed of the random stream (default: fresh; the answer
                  records the seed used).
  --exact         Compute the exact distribution instead of sampling.
  --fractions     With --exact: exact rationals too (JSON pmf_fractions,
                  "1/36"; table columns).
  --format F      table, json, csv, markdown or bbcode.  [default: table]
  --plot PATH     Also save a plot of the main outcome (.png, .svg or .pdf).
  --precision E   Sample until the main mean's standard error is at most E
                  (--trials is the cap).
  --verify        Run both ways; report the largest CDF gap against the DKW
                  bound.
  --threads T     Threads to sample with (default: every core).
  --outcome NAME  The outcome the table's detail and the plot show (default:
                  the main one).
  -h, --help      Show this message and exit.

  Examples:

    oddscalc roll 2d6 --maximised 1
    oddscalc roll 3d6+1 --exact --format markdown
    oddscalc roll 10d6 --success 5 --plot hits.png"""


@pytest.mark.parametrize("text, line", [
    ("Roll dice.\n\nMore.", "Roll dice"),
    ("One; two.", "One"),
    ("a" * helping.SHORT + ". More.", "a" * helping.SHORT),  # a sentence of exactly SHORT characters is kept
    ("Short clause: " + "b " * 40, "Short clause"),
    ("x" * 30 + " " + "y" * 30 + " zzzz, and more words here.", "x" * 30 + " " + "y" * 30 + " …"),
])
def test_a_command_s_line_in_its_group(text, line):
    assert helping.short_help(text) == line
