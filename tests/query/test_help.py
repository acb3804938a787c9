"""A command's --help from its declaration (`oddscalc.query.help`): defaults, paragraphs, columns, width."""

from __future__ import annotations

from enum import Enum

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
    monkeypatch.setattr(helping.shutil, "get_terminal_size", lambda fallback: type("S", (), {"columns": 200})())
    assert helping.width() == helping.WIDTH - 2
    monkeypatch.setattr(helping.shutil, "get_terminal_size", lambda fallback: type("S", (), {"columns": 10})())
    assert helping.width() == 40
