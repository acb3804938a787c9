"""What a shell gives a query (given.py): the files its words may open, carried to the code that opens them by a
context variable; a program's own calls may open their own files, `ask` nothing unless given them."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddscalc import ask
from oddscalc.errors import InputError, Refusal
from oddscalc.lists.games import roster_named
from oddscalc.core.given import GIVEN, LIBRARY, NO_FILE, ROSTER, Files, Given, LocalFiles, current

EXAMPLE = Path(__file__).parent.parent / "oddscalc" / "data" / "epic_example.toml"


def test_a_programs_own_calls_open_its_files_and_a_query_what_it_was_given():
    assert current() is LIBRARY and current().files.local  # a notebook's roster_named opens its own files
    assert roster_named(str(EXAMPLE), None).game.name == "epic"
    token = GIVEN.set(Given(files=Files({"club.toml": EXAMPLE.read_bytes()})))
    try:
        assert not current().files.local
        assert roster_named("club.toml", None).source == "club.toml"  # an upload, by its name
        assert roster_named("epic", None).game.name == "epic"  # a bundled example, by its game's name
        with pytest.raises(InputError) as refused:
            roster_named(str(EXAMPLE), None, "against")  # a path of this machine: never opened
        assert (refused.value.name, refused.value.allowed) == ("against", f"{NO_FILE}: {ROSTER}")
    finally:
        GIVEN.reset(token)
    assert current() is LIBRARY


def test_ask_opens_no_file_unless_given_local_files():
    words = ["grid", str(EXAMPLE), "--exact", "--attackers", "Whirlwind Battery"]
    with pytest.raises(Refusal) as refused:
        ask(words)
    assert NO_FILE in refused.value.line and str(EXAMPLE) in refused.value.line
    assert ask(words, Given(files=LocalFiles())).answer is not None
    assert Given().files.uploads == {} and not Given().files.local and Given().budget is None
