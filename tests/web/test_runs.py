"""What a request may ask of the page (web/runs.py): a query's words, or the one line that refuses
it, before anything runs."""

from __future__ import annotations

import shlex

import pytest

from oddscalc.web.runs import NOT_HERE, Refused, check, words_of


def refused(query: str, limit: int = 4000) -> str:
    with pytest.raises(Refused) as error:
        check(words_of(query, limit))
    return error.value.line


@pytest.mark.parametrize("query, words", [
    ("roll 2d6 --exact", ["roll", "2d6", "--exact"]),
    ("oddscalc roll 2d6", ["roll", "2d6"]),  # the whole command line, pasted
    ("  epic shoot --shots 3 --to-hit '4+'  ", ["epic", "shoot", "--shots", "3", "--to-hit", "4+"]),
    ("sweep 'roll 2d6' --vary maximised=0..2", ["sweep", "roll 2d6", "--vary", "maximised=0..2"]),
    ("compare 'roll 2d6' 'roll d6 --maximised 1'", ["compare", "roll 2d6", "roll d6 --maximised 1"]),
    ("grid --game epic --exact", ["grid", "--game", "epic", "--exact"]),
    ("dust attack --dice 5 --board ruins --from A9 --to C2", ["dust", "attack", "--dice", "5", "--board", "ruins",
                                                              "--from", "A9", "--to", "C2"]),
    ("dust attack --dice 5 --board=crossroads --from A1 --to A2", ["dust", "attack", "--dice", "5",
                                                                   "--board=crossroads", "--from", "A1", "--to", "A2"]),
])
def test_a_query_is_its_words(query, words):
    assert words_of(query, 4000) == words
    check(words)  # and the page runs it


@pytest.mark.parametrize("query, line", [
    ("x" * 41, "error: QUERY: at most 40 characters"),
    ("", "error: QUERY: expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+"),
    ("oddscalc", "error: QUERY: expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+"),
    ("roll '2d6", "error: QUERY roll '2d6: the query does not parse (No closing quotation)"),
    ("roll 2d6 --plot x.png", "error: --plot: " + NOT_HERE["--plot"]),
    ("roll 2d6 --format=json", "error: --format: " + NOT_HERE["--format"]),
    ("grid --game epic --scheduler tcp://x:8786", "error: --scheduler: " + NOT_HERE["--scheduler"]),
    ("sweep 'roll 2d6 --threads 2' --vary maximised=0..2", "error: --threads: " + NOT_HERE["--threads"]),
    (shlex.join(["compare", "roll 2d6 'x", "roll d6"]),
     "error: QUERY roll 2d6 'x: the query does not parse (No closing quotation)"),
    ("compare 'roll 2d6' 'roll d6 --seed 3'",
     "error: QUERY roll d6 --seed 3: put --seed after the quoted query: it applies to every cell"),
    ("sweep 'roll 2d6 --plot=x.png' --vary maximised=0..2", "error: --plot: " + NOT_HERE["--plot"]),
    ("rules 2.5", "error: QUERY rules 2.5: expected a query"),
    ("import army.ros", "error: QUERY import army.ros: expected a query"),
    ("grid army.toml", "error: FILE: the page reads no file on the server: upload a roster on the grid page, or "
                       "name a bundled one with --game"),
    ("grid --game epic --against theirs.toml", "error: FILE: the page reads no file on the server"),
    ("dust attack --dice 5 --board /etc/passwd --from A1 --to A2",
     "error: --board /etc/passwd: the page reads no file on the server: expected a shipped map (crossroads, ruins)"),
    ("dust attack --dice 5 --board=my.map --from A1 --to A2", "error: --board my.map: the page reads no file"),
    ("dust attack --dice 5 --board", "error: --board : the page reads no file"),
])
def test_what_the_page_does_not_run_is_refused_in_one_line(query, line):
    assert refused(query, 40 if line.endswith("40 characters") else 4000).startswith(line)


def test_a_query_of_exactly_the_limit_is_read():
    assert words_of("roll 2d6" + " " * 32, 40) == ["roll", "2d6"]


@pytest.mark.parametrize("line, option", [
    ("error: --to-hit 9+: expected ...", "--to-hit"), ("error: PHASER 2x: expected XzY", "PHASER"),
    ("error: --board: the page draws", "--board"), ("error: QUERY: at most 4,000 characters", "QUERY"),
    ("error: the server is busy", None), ("error: FILE2: x", None), ("", None), ("error: Foo: x", None),
])
def test_a_refusal_names_the_field_it_is_about(line, option):
    assert Refused(line).option == option and Refused(line).line == line and str(Refused(line)) == line
