"""The grammar's one-line refusals and the declarations they read (`oddscalc.query.refusals`, `query.grammar`): how
a refused value is shown and cut, whose option an error is, each kind's metavar, the rules between options."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import pytest

from oddscalc.errors import InputError, Refusal
from oddscalc.query.grammar import Command, Opt, Rule, declared, of_function, option, parse, plain_type, spec_of
from oddscalc.query.refusals import ECHO, OptionError, cut, input_error, refused, shown


def refusal(read, text: str) -> tuple:
    with pytest.raises(OptionError) as error:
        read(text)
    return error.value.value, error.value.allowed


class Side(Enum):
    FRONT = "front"


@pytest.mark.parametrize("value, metavar, text", [(True, "", "true"), (False, "", "false"), (7, "X+", "7+"),
                                                  (7, "N", "7"), (2.0, "", "2"), (0.25, "", "0.25"),
                                                  (Side.FRONT, "", "front"), ("x", "X+", "x")])
def test_a_refused_value_is_shown_as_typed(value, metavar, text):
    assert shown(value, metavar) == text


def test_a_refused_value_is_quoted_when_blank_and_cut_when_long():
    assert (cut(""), cut(" x"), cut("x "), cut("x")) == ("''", "' x'", "'x '", "x")
    assert cut("y" * ECHO) == "y" * ECHO
    assert cut("y" * (ECHO + 1)) == "y" * (ECHO - 20) + f"… ({ECHO + 1:,} characters)"


def test_a_refusal_names_its_option_and_its_value():
    assert refused(OptionError(7, "expected 1 to 6", "--to-hit", "X+")).line == "error: --to-hit 7+: expected 1 to 6"
    assert refused(OptionError(None, "use one", "--verify")).line == "error: --verify: use one"
    made = refused(OptionError("", "expected a name", "--store"))
    assert (made.line, made.option, made.value) == ("error: --store '': expected a name", "--store", "")
    assert refused(OptionError("x", "expected y")).line == "error: value x: expected y"  # blamed on no option yet
    assert refused(InputError("to_hit", "9+", "expected 2+ to 6+")).line == "error: --to-hit 9+: expected 2+ to 6+"
    assert refused(InputError("output_format", "x", "expected a format")).line == "error: --format x: expected a format"
    kept = Refusal("error: as said", "--x", 1)
    assert refused(kept) is kept
    with pytest.raises(TypeError):
        refused(ValueError("no refusal"))
    error = OptionError("x", "expected y")
    assert error.blamed("--a", "A").hint == "--a" and error.blamed("--a", "A").metavar == "A"
    assert OptionError("x", "y", "--b").blamed("--a") .hint == "--b"


def test_an_input_error_is_blamed_on_the_option_of_the_command_being_read():
    from oddscalc.query.refusals import READING

    command = Command("c", (Opt("from_square", "--from", "text", metavar="SQ"),), lambda **_: None)
    token = READING.set(command)
    try:
        error = input_error(InputError("from_square", "Z9", "expected a square"))
    finally:
        READING.reset(token)
    assert (error.hint, error.metavar) == ("--from", "SQ")
    assert input_error(InputError("from_square", "Z9", "x")).hint == "--from"  # (no command: the library's spelling)
    assert input_error(InputError("per_template", "0", "x")).hint == "--per-template"


@pytest.mark.parametrize("kind, metavar", [("whole", "INTEGER"), ("number", "FLOAT"), ("path", "PATH"),
                                           ("text", "TEXT"), ("switch", "")])
def test_an_option_without_a_metavar_shows_its_kind(kind, metavar):
    assert Opt("x", "--x", kind).shown_metavar() == metavar
    assert Opt("x", "--x", kind, metavar="M").shown_metavar() == "M"
    assert Opt("x", "--x", "choice", choices=Side).shown_metavar() == "<front>"


def test_a_reader_s_input_error_is_blamed_on_its_option():
    def strict(text: str) -> int:
        raise InputError("anything", 7, "expected less")

    with pytest.raises(OptionError) as error:
        Opt("x", "--x", "text", metavar="X+", read=strict).value("7")
    found = (error.value.value, error.value.allowed, error.value.hint, error.value.metavar)
    assert found == (7, "expected less", "--x", "X+")
    assert Opt("x", "--x", "path").value("a.png") == Path("a.png")
    assert Opt("x", "--x", "number").value("0.5") == 0.5 and Opt("x", "--x", "whole").value("1e3") == 1000


def test_the_type_of_a_declaration():
    assert plain_type(Optional[Annotated[int, option("--n")]]) == (int, True)
    assert plain_type(Annotated[int, option("--n")]) == (int, False)
    assert plain_type(Optional[str]) == (str, True) and plain_type(int | str) == (str, False)
    assert spec_of(Optional[Annotated[int, option("--n", metavar="N")]]).metavar == "N"
    assert spec_of(int).flags == () and spec_of(Annotated[int, "other"]).flags == ()
    made = declared("far", Annotated[float, option("--far", metavar="F", help="A factor.", show_default=False)], 2.0)
    assert (made.kind, made.flag, made.default, made.required, made.metavar, made.help, made.show_default) == (
        "number", "--far", 2.0, False, "F", "A factor.", False)
    assert declared("names", Optional[list[str]], None).default == () and declared("n", int).required
    assert declared("n", int).default is None and declared("rest", list[str]).many


def test_a_rule_says_what_it_needs_and_what_it_excludes():
    needs = Rule(("--a", "--b"))
    assert needs.broken(["--c"]) == "applies only with --a or --b" and needs.broken(["--b"]) is None
    excludes = Rule(excludes=("--a", "--b"))
    assert excludes.broken(["--b"]) == "not with --b: give one of them" and excludes.broken(["--c"]) is None
    assert Rule(("--a",), why="said so").broken([]) == "said so" and Rule().broken([]) is None

    def ruled(
        fast: Annotated[bool, option("--fast", excludes=("--slow", "--steady"))] = False,
        slow: Annotated[bool, option("--slow")] = False,
        steady: Annotated[bool, option("--steady")] = False,
        many: Annotated[Optional[list[str]], option("--many", needs=("--fast",))] = None,
    ) -> None:
        """Ruled."""

    command = Command("ruled", tuple(of_function(ruled)), ruled)
    for words, line in ((["--fast", "--steady"], "error: --fast on: not with --steady: give one of them"),
                        (["--many", "a", "--many", "b"], "error: --many a b: applies only with --fast")):
        with pytest.raises(Refusal) as error:
            parse(command, words)
        assert error.value.line == line
    assert parse(command, ["--fast", "--many", "a"]).values["many"] == ("a",)


def test_a_refusal_carries_its_option_and_value_and_dashes_end_the_options():
    def plain(
        first: Annotated[str, option("--first", metavar="X")] = "",
        loud: Annotated[bool, option("--loud")] = False,
        plot: Annotated[Optional[str], option("--plot", shell=True)] = None,
        rest: Annotated[Optional[list[str]], declared_argument()] = None,
    ) -> None:
        """Plain."""

    command = Command("plain", tuple(of_function(plain)), plain)
    for words, option_, value in ((["--loud=1"], "--loud", "1"), (["--first"], "--first", None),
                                  (["--nope"], "--nope", None)):
        with pytest.raises(Refusal) as error:
            parse(command, words)
        assert (error.value.option, error.value.value) == (option_, value)
    read = parse(command, ["a", "-", "--", "--loud", "-x"]).values
    assert read["rest"] == ("a", "-", "--loud", "-x") and read["loud"] is False
    from oddscalc.query.grammar import without_shell

    assert without_shell(command, ["a", "--plot", "p", "--", "--plot", "q"]) == ["a", "--", "--plot", "q"]
    assert without_shell(command, ["--loud", "--plot=p", "b"]) == ["--loud", "b"]
    assert command.opt("first").flag == "--first" and command.opt("none") is None


def declared_argument():
    from oddscalc.query.grammar import argument

    return argument("REST...", "The rest.")
