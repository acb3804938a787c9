"""How the command line routes its words (`oddscalc.cli.main`): every command's words to the query grammar, a word
naming no command refused in one line, and Click left to print help only."""

from __future__ import annotations

import pytest
from clirun import assert_refused, run

from oddscalc.cli.options import OWN
from oddscalc.query.help import help_text


@pytest.mark.parametrize("words, line", [
    (("nothing",), "error: No such command nothing; expected one of: roll, sweep, grid, profiles, balance, compare, "
                   "import, rules, completion, serve, dust, epic, t9a; see --help"),
    (("epic", "shot"), "error: No such command shot of epic (did you mean shoot?); expected one of: shoot, barrage, "
                       "assault; see --help"),
    (("--bogus",), "error: --bogus: no such option; see --help for the options"),
    (("epic", "--bogus"), "error: --bogus: no such option of epic; see --help for the options"),
    (("rules", "--section", "2"), "error: --section: no such option of rules; see --help for the options"),
    (("serve", "--port", "0"), "error: --port 0: expected a port from 1 to 65535"),
    (("import",), "error: FILE is required; see --help"),
])
def test_a_word_that_names_nothing_is_refused_in_one_line(capsys, words, line):
    assert assert_refused(capsys, *words).err.strip() == line


@pytest.mark.parametrize("words, code", [((), 2), (("epic",), 2), (("--help",), 0), (("t9a", "--help"), 0)])
def test_the_root_and_a_group_print_their_help(capsys, words, code):
    result = run(capsys, *words)
    assert result.code == code and result.out.startswith("Usage: oddscalc") and "Commands:" in result.out


def test_the_command_line_s_own_commands_are_read_by_the_grammar(capsys):
    from oddscalc.cli.commands import own_command

    for name in ("rules", "profiles", "import", "serve"):
        command = own_command(name)
        assert command is OWN[name] and command.kind == "own"
        assert run(capsys, name, "--help").out == help_text(command) + "\n"
    assert run(capsys, "rules", "2.5").out.startswith("### 2.5 Barrages")
    listed = run(capsys, "profiles", "--game", "epic", "--format", "CSV")  # a choice, whatever its case
    assert listed.code == 0 and listed.out.splitlines()[0].startswith("game,unit")


def test_the_library_knows_none_of_the_command_line_s_own_commands():
    from oddscalc.query.asking import ask
    from oddscalc.errors import Refusal

    with pytest.raises(Refusal) as refused:
        ask(["rules", "2.5"])
    assert refused.value.line.startswith("error: QUERY rules 2.5: expected a query (")


def test_a_program_that_invokes_the_typer_app_itself_gets_the_same_answers():
    """`typer.testing.CliRunner` on `oddscalc.cli.app`: a query's words reach the grammar through its listed command,
    never silently nothing."""
    import json

    from typer.testing import CliRunner

    from oddscalc.cli import app

    answered = CliRunner().invoke(app, ["roll", "2d6", "--exact", "--format", "json"])
    assert answered.exit_code == 0 and json.loads(answered.output)["outcomes"]["sum"]["pmf"][2] == pytest.approx(1 / 36)
    refused = CliRunner().invoke(app, ["epic", "shoot", "--shots", "x", "--to-hit", "4+", "--units", "3", "--armour",
                                       "4+"])
    assert refused.exit_code == 2 and refused.output.startswith("error: --shots x:")
    shown = CliRunner().invoke(app, ["t9a", "charge", "--help"])
    assert shown.exit_code == 0 and shown.output.startswith("Usage: oddscalc t9a charge [OPTIONS]")
