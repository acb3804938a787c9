"""The command line's options and help (`oddscalc.cli.options`): examples, options named as a player
types them, and each command listed by its first sentence."""

import pytest
from clirun import run

from oddscalc.contract import names


def test_help_lists_examples(capsys):
    result = run(capsys, "roll", "--help")
    assert result.code == 0
    assert "Examples:" in result.out and "oddscalc roll 2d6 --maximised 1" in result.out


def test_every_querys_help_names_options_not_code(capsys):
    """A field in backticks is shown as the option a player types; no constant of the code shows."""
    import re

    from oddscalc.cli import root_command
    from oddscalc.query.registry import QUERIES

    root_command()
    for group in names():
        run(capsys, group, "--help")  # registers the game's queries
    assert len(QUERIES) >= 15
    for path in QUERIES:
        text = run(capsys, *path.split(), "--help").out
        assert not re.search(r"`[a-z]+_[a-z_]+`|\b[A-Z]+_[A-Z_]+\b", text), (path, text)


def test_a_groups_list_shows_each_command_by_its_first_sentence_or_clause(capsys):
    from oddscalc.query.help import short_help

    assert short_help("Fire a salvo A/X-B/X-...: K charges roll the K-th entry's dice, each hit doing X damage. "
                      "More.") == "Fire a salvo A/X-B/X-..."  # a long sentence: its first clause, whole
    assert short_help("Roll dice.\n\nMore text.") == "Roll dice"
    assert short_help("Print the rules reference that oddscalc computes (docs/rules.md), or one section of it.") \
        == "Print the rules reference that oddscalc computes …"  # cut at a word, within 64 characters
    listed = run(capsys, "dust", "--help").out.split("Commands:")[1]
    assert "  salvo          Fire a salvo A/X-B/X-...\n" in listed and "..." not in listed.replace("X-...", "")


def test_every_example_in_a_querys_help_runs(capsys):
    """The examples under each query's --help are commands a player copies: each answers (exit 0)."""
    import shlex

    from oddscalc.cli import root_command
    from oddscalc.query.registry import QUERIES

    root_command()
    for group in names():
        run(capsys, group, "--help")  # registers the game's queries
    ran = 0
    for path in QUERIES:
        text = run(capsys, *path.split(), "--help").out
        examples = [line.strip() for line in text.split("Examples:", 1)[-1].splitlines()
                    if line.strip().startswith("oddscalc ")]
        for example in examples:
            words = shlex.split(example)[1:]
            if "--exact" not in words:
                words += ["--trials", "2000"]  # sampled: a quick run answers the same way
            result = run(capsys, *words)
            assert result.code == 0, (example, result.err)
            ran += 1
    assert ran >= 30


@pytest.mark.parametrize("words, said", [
    (("roll", "2d6", "--exact", "--trials", "1e5", "--seed", "3", "--threads", "2"),
     "note: --exact rolls no dice: --trials, --seed and --threads are not used"),
    (("roll", "2d6", "--exact", "--seed", "3"), "note: --exact rolls no dice: --seed is not used"),
    (("sweep", "epic shoot --shots 4 --to-hit 4+ --units 3 --armour 4+", "--vary", "shots=2,4", "--exact",
      "--trials", "1000"), "note: --exact rolls no dice: --trials is not used"),
    (("roll", "2d6", "--exact"), None),
    (("roll", "2d6", "--verify", "--trials", "1000", "--seed", "3"), None),  # verify samples: they are used
])
def test_sampling_options_beside_exact_are_said_once_to_be_unused(capsys, words, said):
    result = run(capsys, *words)
    assert result.code == 0, result.err
    notes = [line for line in result.err.splitlines() if "rolls no dice" in line]
    assert notes == ([said] if said else [])
