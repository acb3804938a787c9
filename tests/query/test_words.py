"""Which command words ask for, and a study's quoted queries (`oddscalc.query.words`)."""

from __future__ import annotations

import pytest

from oddscalc.query.refusals import OptionError


@pytest.mark.parametrize("text, allowed", [
    ("roll 2d6 --trials 100", "put --trials after the quoted query: it applies to every cell"),
    ("roll 2d6 --seed=3", "put --seed after the quoted query: it applies to every cell"),
    ("roll 2d6 --help", "a query, not --help or --version"),
    ("roll 2d6 -h", "a query, not --help or --version"),
    ("roll '2d6", "the query does not parse (No closing quotation)"),
])
def test_a_quoted_query_keeps_to_its_own_words(text, allowed):
    from oddscalc.query.words import query_args

    with pytest.raises(OptionError) as error:
        query_args(text)
    assert (error.value.value, error.value.allowed) == (text, allowed)


def test_a_quoted_query_is_read_as_the_query_reads_it():
    from oddscalc.query.words import parse_query, query_args

    assert query_args("oddscalc roll 2d6 --maximised 1") == ["roll", "2d6", "--maximised", "1"]
    quoted = parse_query("oddscalc roll 2d6", extra=["--maximised", "2"])
    assert quoted.query.path == "roll" and quoted.parsed.values["maximised"] == "2" and quoted.attack.maximised == 2
    with pytest.raises(OptionError) as error:
        parse_query("roll 2d6 --maximised x", blame="--vary")
    assert (error.value.hint, error.value.value) == ("--vary", "roll 2d6 --maximised x")
    assert error.value.allowed.startswith("--maximised x: ")
    for text in ("grid --game epic", "nothing at all", ""):
        with pytest.raises(OptionError) as error:
            parse_query(text)
        assert error.value.hint == "QUERY" and error.value.allowed.startswith("expected a query command such as")


def test_the_words_name_their_command():
    from oddscalc.query.registry import COMMANDS
    from oddscalc.query.words import language, module_of

    assert (module_of("sweep"), module_of("roll"), module_of("epic"), module_of("rules")) == (
        "oddscalc.query.studies", "oddscalc.query.dice", "oddscalc.epic.commands", None)
    command, rest = language(["epic", "shoot", "--shots", "3"])
    assert command is COMMANDS["epic shoot"] and rest == ["--shots", "3"]
    assert language(["roll", "2d6"])[0] is COMMANDS["roll"] and language(["grid"])[1] == []
    for words in ([], ["epic"], ["epic", "shot"], ["rules"]):
        with pytest.raises(OptionError) as error:
            language(words)
        assert error.value.hint == "QUERY"
