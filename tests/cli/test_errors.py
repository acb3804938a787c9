"""Bad input on the command line (`oddscalc.cli.errors`): one clear line naming the option, exit 2,
no traceback and no file left behind."""

import subprocess
import sys

import pytest
from clirun import assert_refused


BAD = [
    (["roll", "2z"], ("DICE", "2z")),
    (["roll", "2d6", "--trials", "0"], ("--trials", "0")),
    (["roll", "2d6", "--trials", "lots"], ("--trials", "lots")),
    (["roll", "2d6", "--trials", "1.5"], ("--trials",)),
    (["roll", "2d6", "--seed", "-3"], ("--seed", "-3")),
    (["roll", "2d6", "--format", "xml"], ("--format", "xml")),
    (["roll", "2d6", "--maximised", "-1"], ("--maximised", "-1")),
    (["roll", "2d6", "--maximised", "two"], ("--maximised", "two")),
    (["roll", "2d6", "--success", "7"], ("--success", "7")),
    (["roll", "2d6", "--precision", "0"], ("--precision",)),
    (["roll", "2d6", "--precision", "fine"], ("--precision", "fine")),
    (["roll", "2d6", "--plot", "out.gif"], ("--plot", "out.gif")),
    (["roll", "2d6", "--plot", "/no/such/folder/out.png"], ("--plot",)),
    (["roll", "2d6", "--exact", "--verify"], ("--verify",)),
    (["roll", "2d6", "--exact", "--precision", "0.1"], ("--precision",)),
    (["roll", "2d6", "--bogus"], ("--bogus",)),
    (["roll"], ("DICE",)),
    (["roll", "0d6"], ("DICE", "0d6")),
    (["roll", "2d6+1", "--success", "4"], ("--success",)),
    (["rol", "2d6"], ("rol", "roll")),
    (["roll", "2d6", "--threads", "0"], ("--threads", "0")),
    (["roll", "200d100", "--maximised", "20", "--exact", "--fractions"], ("--exact", "200d100", "sample instead")),
    (["roll", "d6+100000000000000000000"], ("DICE", "at most 1000")),
]


@pytest.mark.parametrize("args, mentions", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_gets_one_clear_line(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


# The whole line: the value as typed, and an example of what is wanted.
EXACT = [
    (["roll", "2d6", "--precision", "0"], "error: --precision 0: expected a standard error from 1e-9 up, e.g. 0.01"),
    (["roll", "2d6", "--seed", "x"], "error: --seed x: expected a whole number like 42 or 20261201"),
]


@pytest.mark.parametrize("args, line", EXACT, ids=[" ".join(a) for a, _ in EXACT])
def test_a_refusal_echoes_the_value_as_typed(capsys, args, line):
    assert assert_refused(capsys, *args).err == line + "\n"


def test_bad_input_leaves_no_plot_file(capsys, tmp_path):
    path = tmp_path / "never.png"
    assert_refused(capsys, "roll", "2z", "--plot", path)
    assert_refused(capsys, "roll", "2d6", "--trials", "0", "--plot", path)
    assert not path.exists()


def test_console_entry_point_exits_2_without_traceback():
    process = subprocess.run([sys.executable, "-m", "oddscalc", "roll", "2d6", "--trials", "0"],
                             capture_output=True, text=True)
    assert process.returncode == 2
    assert process.stdout == "" and process.stderr.count("\n") == 1 and "Traceback" not in process.stderr


@pytest.mark.parametrize("words, line", [
    (("dust", "attack", "--dice", "3", "--to-hit", "4"),
     "error: --to-hit: no such option of dust attack; it is an option of epic shoot; see --help for the options"),
    (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--aegis", "4"),
     "error: --aegis: no such option of epic shoot; it is an option of t9a melee, t9a shoot, t9a hits, t9a combat; "
     "see --help for the options"),
    (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--crosfire"),
     "error: --crosfire: no such option of epic shoot (did you mean --crossfire?); see --help for the options"),
    (("roll", "2d6", "--luck"), "error: --luck: no such option of roll; see --help for the options"),
])
def test_an_unknown_option_suggests_only_close_ones_and_names_the_queries_that_have_it(capsys, words, line):
    """A typo gets its close option; an option of another game's query says whose it is; an option merely
    sharing letters is never suggested (--to-hit was 'did you mean --to?', --aegis '--war-engines')."""
    result = assert_refused(capsys, *words)
    assert result.err.strip() == line


def test_the_library_call_is_the_package_s_ask():
    from oddscalc import Refusal, ask

    with pytest.raises(Refusal) as refusal:
        ask(["epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--sustained"])
    assert refusal.value.line.startswith("error: --sustained: no such option of epic shoot; it is an option of "
                                         "dust attack, dust phaser, dust salvo, dust incendiary and 1 more")
    assert ask(["roll", "2d6", "--exact"]).answer.attack is not None
