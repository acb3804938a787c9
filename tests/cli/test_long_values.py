"""A refused value of any length is echoed cut: its start and how long it was (issue: an error line repeated a
pasted value of over 400 characters), on the command line and in what the page is answered (`ask`)."""

from __future__ import annotations

import pytest

from clirun import assert_refused
from oddscalc.query.asking import ask
from oddscalc.query.refusals import ECHO, cut
from oddscalc.errors import Refusal


@pytest.mark.parametrize("words", [
    ["dust", "attack", "--dice", "9" * 500],  # a whole number refused (the query's own reading)
    ["t9a", "combat", *(f"--{side}{key}={value}" for side in ("", "enemy-") for key, value in (
        ("models", 5), ("width", 5), ("attacks", 1), ("offensive", 3), ("defensive", 3), ("strength", 3),
        ("resilience", 3), ("agility", 3), ("discipline", 7))), "--character", "a " * 300],  # a profile refused
    ["epic", "assault", "--critical", "x" * 400],  # a choice refused (over 240 characters: cut)
])
def test_a_long_value_is_cut_in_its_one_line(capsys, words):
    value = words[-1]
    result = assert_refused(capsys, *words)
    line = result.err.strip()
    assert value not in line and cut(value) in line and f"({len(value):,} characters)" in line
    head = line[:line.index(" characters)") + len(" characters)")]  # "error: --option value… (N characters)"
    assert len(head) < ECHO + 60  # the value's share of the line is bounded, whatever was pasted
    with pytest.raises(Refusal) as refused:
        ask(words)
    assert value not in str(refused.value) and f"({len(value):,} characters)" in str(refused.value)


def test_a_short_value_is_shown_whole():
    assert cut("7+") == "7+" and cut("x" * ECHO) == "x" * ECHO
    assert cut("x" * (ECHO + 1)).endswith(f"… ({ECHO + 1} characters)")
