"""One reader of whole numbers for every option (`attack.read_whole`): what is not a whole number
written in ASCII digits with one sign at most is refused in one line naming the option, never
read as another number nor ending in an internal error."""

from __future__ import annotations

import shlex

import pytest

from oddscalc.query.asking import ask
from oddscalc.core.attack import is_whole, kind_of, option_fields, read_whole
from oddscalc.query.registry import ABOUT, QUERIES
from oddscalc.query.words import every_query
from oddscalc.errors import InputError, Refusal

NOT_WHOLE = ["²", "+-3", "--3", "٣", "1_0", "1e3", "3.0", "", " ", "0x10", "1,000", "¹²"]


def whole_options() -> list[tuple[str, str]]:
    every_query()
    found = []
    for path, query in QUERIES.items():
        for field in option_fields(query.attack):
            if (field.name in query.names and field.name not in query.attack.ARGUMENTS
                    and kind_of(query.attack, field)[0] is int and not field.metadata.get("roll")):
                found.append((path, "--" + field.name.replace("_", "-")))
    return found


@pytest.mark.parametrize("path, option", whole_options())
def test_every_whole_number_option_refuses_what_is_not_one(path, option):
    example = shlex.split(ABOUT[path].examples[0])[1:]
    for text in NOT_WHOLE:
        with pytest.raises(Refusal) as refused:
            ask([*example, option, text])
        assert refused.value.line.startswith(f"error: {option} "), (path, option, text, refused.value.line)


def test_the_options_tried_are_those_the_fuzzer_found():
    options = {option for _, option in whole_options()}
    assert {"--suppressed", "--war-engines", "--units", "--at-shots", "--dice", "--ap", "--strength",
            "--models"} <= options


@pytest.mark.parametrize("text, value", [("3", 3), ("-1", -1), ("+2", 2), (" 7 ", 7), ("000", 0)])
def test_a_whole_number_is_read(text, value):
    assert is_whole(text) and read_whole(text, "units") == value


@pytest.mark.parametrize("text", NOT_WHOLE)
def test_anything_else_is_refused(text):
    assert not is_whole(text)
    with pytest.raises(InputError) as refused:
        read_whole(text, "units")
    assert (refused.value.name, refused.value.allowed) == ("units", "expected a whole number")
