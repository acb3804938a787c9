"""The query grammar (`oddscalc.query.grammar`): one parser for every command's words, its refusals in one line,
and the declarations that --help, the page's form and the command line's listing are all written from."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import pytest
from clirun import run

from oddscalc.errors import Refusal
from oddscalc.query.grammar import Command, argument, of_function, option, parse, without_shell
from oddscalc.query.help import help_text
from oddscalc.query.numbers import whole


class Colour(Enum):
    RED = "red"
    DARK_BLUE = "dark-blue"


def answer(
    dice: Annotated[str, argument("DICE", "The dice.")],
    rest: Annotated[Optional[list[str]], argument("MORE...", "More words.")] = None,
    colour: Annotated[Colour, option("--colour", help="A colour.")] = Colour.RED,
    top: Annotated[int, option("--top", metavar="N", parser=whole("a whole number like 10"), help="Rows.")] = 10,
    far: Annotated[float, option("--far", metavar="F", help="A factor.")] = 2.0,
    tag: Annotated[Optional[list[str]], option("--tag", metavar="T", help="Tags, repeated.")] = None,
    engage: Annotated[bool, option("--engage/--no-engage", help="Engage.")] = True,
    loud: Annotated[bool, option("--loud", help="Loud.")] = False,
    plot: Annotated[Optional[Path], option("--plot", metavar="PATH", help="A plot.", shell=True)] = None,
    needed: Annotated[str, option("--needed", metavar="X", help="Needed.")] = "",
) -> None:
    """Do a thing."""


def toy() -> Command:
    """The toy command, declared when a test runs (so that a mutant of the declaring code is seen)."""
    return Command("toy", tuple(of_function(answer)), answer, "Do a thing.\n\nAt length.", ("oddscalc toy 2d6 --loud",))


def values(*words: str, shell: bool = False) -> dict:
    return parse(toy(), words, shell=shell).values


def refusal(*words: str, shell: bool = False) -> str:
    with pytest.raises(Refusal) as refused:
        parse(toy(), words, shell=shell)
    line = refused.value.line
    assert line.startswith("error: ") and "\n" not in line
    return line


def test_the_declaration_reads_each_kind_from_its_type():
    kinds = {opt.name: (opt.kind, opt.flag, opt.required, opt.many, opt.argument) for opt in toy().options}
    assert kinds == {
        "dice": ("text", "DICE", True, False, True), "rest": ("text", "MORE...", False, True, True),
        "colour": ("choice", "--colour", False, False, False), "top": ("whole", "--top", False, False, False),
        "far": ("number", "--far", False, False, False), "tag": ("text", "--tag", False, True, False),
        "engage": ("switch", "--engage", False, False, False), "loud": ("switch", "--loud", False, False, False),
        "plot": ("path", "--plot", False, False, False), "needed": ("text", "--needed", False, False, False)}
    declared = toy()
    assert declared.opt("engage").negative == "--no-engage" and declared.opt("plot").shell
    assert declared.opt("top").metavar == "N" and declared.opt("top").help == "Rows." and declared.opt("dice").help
    assert declared.opt("colour").choices is Colour and declared.opt("tag").choices is None
    assert declared.opt("needed").show_default and declared.opt("top").read("7") == 7


def test_each_spelling_of_a_value_reads_the_same():
    plain = values("2d6", "--colour", "dark-blue", "--top", "1e3", "--far", "0.5", "--needed", "x")
    assert plain == values("2d6", "--colour=DARK-BLUE", "--top=1_000", "--far=.5", "--needed=x")
    assert plain["colour"] is Colour.DARK_BLUE and plain["top"] == 1000 and plain["far"] == 0.5
    assert plain["tag"] == () and plain["rest"] == () and plain["engage"] is True and plain["loud"] is False


def test_defaults_switches_lists_and_arguments():
    assert values("2d6") == {"dice": "2d6", "rest": (), "colour": Colour.RED, "top": 10, "far": 2.0, "tag": (),
                             "engage": True, "loud": False, "plot": None, "needed": ""}
    read = values("--tag", "a", "2d6", "--no-engage", "--tag=b", "x", "y", "--loud")
    assert (read["dice"], read["rest"], read["tag"], read["engage"], read["loud"]) == ("2d6", ("x", "y"), ("a", "b"),
                                                                                       False, True)
    assert values("--", "-1", "--loud")["dice"] == "-1" and values("--", "-1", "--loud")["rest"] == ("--loud",)
    assert values("2d6", "--needed", "-3")["needed"] == "-3"  # a value may start with a dash: it follows its option
    assert values("2d6", "--top", "3", "--top", "4")["top"] == 4  # given twice: the last (a sweep's varied value)
    assert parse(toy(), ["2d6", "--top", "3"]).given == {"dice", "top"}


@pytest.mark.parametrize("words, line", [
    ((), "error: DICE is required; see --help"),
    (("2d6", "--colour", "green"), "error: --colour green: expected one of red, dark-blue"),
    (("2d6", "--top", "٣"), "error: --top ٣: expected a whole number like 10"),
    (("2d6", "--top", ""), "error: --top '': expected a whole number like 10"),
    (("2d6", "--far", "inf"), "error: --far inf: expected a finite number like 0.01"),
    (("2d6", "--top"), "error: --top: expected a value after it; see --help"),
    (("2d6", "--loud=yes"), "error: --loud: a switch, given without a value (--loud, not --loud=yes); see --help"),
    (("2d6", "--lound"), "error: --lound: no such option of toy (did you mean --loud?); see --help for the options"),
    (("2d6", "--plot", "p.png"), "error: --plot: an option of the command line (where its plot is saved), not a "
                                 "word of a query: the page decides it itself"),
])
def test_a_refusal_is_one_line_naming_the_option_and_the_value(words, line):
    assert refusal(*words) == line


def test_the_command_lines_own_options_are_read_on_the_command_line_and_left_out_of_the_query():
    assert values("2d6", "--plot", "p.png", shell=True)["plot"] == Path("p.png")
    assert without_shell(toy(), ["2d6", "--plot", "p.png", "--loud", "--plot=q.svg", "--top", "3"]) == [
        "2d6", "--loud", "--top", "3"]


def test_a_word_no_option_takes_is_refused():
    one = Command("toy", tuple(opt for opt in toy().options if opt.name != "rest"), answer)
    with pytest.raises(Refusal) as refused:
        parse(one, ["2d6", "extra", " "])
    assert refused.value.line.startswith("error: extra ' ': no option takes it")


def test_help_shows_every_option_with_its_metavar_default_and_examples():
    text = help_text(toy())
    assert text.startswith("Usage: oddscalc toy [OPTIONS] DICE [MORE...]\n\n  Do a thing.\n\n  At length.\n")
    for shown in ("DICE     The dice.  [required]", "--colour <red|dark-blue>", "[default: red]", "--top N",
                  "[default: 10]", "--engage / --no-engage", "[default: engage]", "--tag T", "-h, --help",
                  "  Examples:\n\n    oddscalc toy 2d6 --loud"):
        assert shown in text, shown
    assert "[default: False]" not in text and "--loud  " in text


def test_every_command_s_help_form_and_listing_come_from_one_declaration(capsys):
    """Every command of the grammar: its --help lists exactly its declared options, the page's form exactly those
    that are words of a query, and the command line lists the command in its group."""
    from oddscalc.query.registry import COMMANDS
    from oddscalc.query.words import every_command
    from oddscalc.web import forms

    every_command()
    assert len(COMMANDS) >= 20
    for path, command in COMMANDS.items():
        text = run(capsys, *path.split(), "--help").out
        assert text == help_text(command) + "\n"
        listed = re.findall(r"^  (-[-\w]+)", text.split("\nOptions:\n")[1], flags=re.MULTILINE)
        assert listed == [opt.flag for opt in command.options if not opt.argument] + ["-h"], path
        if command.kind != "study":
            form = [field.name for field in forms.fields(path)]
            assert form == [opt.flag for opt in command.words_options()], path
        group = run(capsys, *path.split()[:-1], "--help").out if " " in path else run(capsys, "--help").out
        assert f"  {path.split()[-1]} " in group, path


def test_an_option_s_rule_is_read_from_its_declaration():
    """`needs` and `excludes` are the declaration's: one rule refuses an option that changes nothing without another,
    or one given beside its alternative, before any work."""
    def ruled(
        scheduler: Annotated[Optional[str], option("--scheduler", metavar="A")] = None,
        wait: Annotated[Optional[str], option("--wait", metavar="S", needs=("--scheduler",))] = None,
        exact: Annotated[bool, option("--exact")] = False,
        verify: Annotated[bool, option("--verify", excludes=("--exact",), why="use one")] = False,
    ) -> None:
        """Ruled."""

    command = Command("ruled", tuple(of_function(ruled)), ruled)
    assert parse(command, ["--scheduler", "tcp://x", "--wait", "3", "--verify"]).values["wait"] == "3"
    for words, line in ((["--wait", "3"], "error: --wait 3: applies only with --scheduler"),
                        (["--exact", "--verify"], "error: --verify on: use one")):
        with pytest.raises(Refusal) as refused:
            parse(command, words)
        assert refused.value.line == line


@pytest.mark.parametrize("words, line", [
    (("roll", "2d6", "--exact", "--verify"), "error: --verify on: use --exact or --verify, not both (--verify "
                                             "already computes the exact answer)"),
    (("grid", "--game", "epic", "--scheduler-timeout", "10"), "error: --scheduler-timeout 10: applies only with "
                                                              "--scheduler ADDRESS"),
])
def test_the_rules_of_the_common_options_hold_on_the_command_line(capsys, words, line):
    result = run(capsys, *words)
    assert (result.code, result.out, result.err.strip()) == (2, "", line)
