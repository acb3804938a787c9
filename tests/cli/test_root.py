"""The command line from its root (`oddscalc.cli`): a query's answer in every format, sampled, exact
or verified, the version, `python -m oddscalc`, and commands loaded only when run.

Plot files and the progress bar are in test_output.py, bad input in test_errors.py, help and
options in test_options.py."""

import csv
import io
import json
import subprocess
import sys

import pytest
from clirun import run

from oddscalc import __version__
from oddscalc.contract import names


def test_table_format(capsys):
    result = run(capsys, "roll", "2d6", "--maximised", "1", "--trials", "20000", "--seed", "7")
    assert result.code == 0
    assert "P(≥ k)" in result.out and "seed 7" in result.out and "± " in result.out
    assert "mean" in result.out and "p10" in result.out and "p90" in result.out and "median" in result.out


def test_json_schema(capsys):
    result = run(capsys, "roll", "2d6", "--maximised", "1", "--trials", "1e4", "--seed", "5", "--format", "json")
    data = result.json()
    assert set(data) == {"oddscalc", "command", "description", "method", "trials", "seed", "outcomes"}
    assert data["description"] == "Roll 2d6, maximised ×1"
    assert data["oddscalc"] == __version__
    assert data["command"] == "oddscalc roll 2d6 --maximised 1 --trials 1e4 --seed 5"
    assert data["method"] == "monte-carlo" and data["trials"] == 10_000 and data["seed"] == 5
    sum_ = data["outcomes"]["sum"]
    assert set(sum_) == {"mean", "sd", "mean_stderr", "pmf", "at_least"}
    assert sum(sum_["pmf"]) == pytest.approx(1.0)
    assert sum_["at_least"][0] == pytest.approx(1.0) and len(sum_["at_least"]) == len(sum_["pmf"]) == 13
    assert sum_["mean_stderr"] > 0


def test_exact_json(capsys):
    data = run(capsys, "roll", "2d6", "--maximised", "1", "--exact", "--format", "json").json()
    assert data["method"] == "exact" and data["trials"] is None and data["seed"] is None
    assert data["outcomes"]["sum"]["mean"] == pytest.approx(203 / 24)
    assert data["outcomes"]["sum"]["pmf"][12] == pytest.approx(16 / 216)
    assert data["outcomes"]["sum"]["mean_stderr"] == 0


def test_csv_format(capsys):
    out = run(capsys, "roll", "d6", "--exact", "--format", "csv").out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["k"] for r in rows] == [str(k) for k in range(7)]
    assert float(rows[3]["probability"]) == pytest.approx(1 / 6)
    assert float(rows[3]["at_least"]) == pytest.approx(4 / 6)


def test_markdown_format(capsys):
    out = run(capsys, "roll", "2d6", "--exact", "--format", "markdown").out
    assert "| sum | P(= k) | P(≥ k) |" in out
    assert "`oddscalc roll 2d6 --exact`" in out
    assert "| 7 | 16.67% | 58.33% |" in out


def test_bbcode_format(capsys):
    out = run(capsys, "roll", "2d6", "--exact", "--format", "bbcode").out
    assert "[table]" not in out and "[code]oddscalc roll 2d6 --exact[/code]" in out
    assert "\n  7   16.67%   58.33%\n" in out and out.count("[code]") == 3  # the command, the pmf, the summary


def test_tabletop_spellings(capsys):
    data = run(capsys, "roll", "3d6", "--success", "5", "--exact", "--format", "json").json()
    assert data["outcomes"]["successes"]["mean"] == pytest.approx(1.0)
    data = run(capsys, "roll", "2d6", "--trials", "2_000", "--seed", "1", "--format", "json").json()
    assert data["trials"] == 2000


def test_precision(capsys):
    data = run(capsys, "roll", "2d6", "--precision", "0.01", "--trials", "1e8", "--seed", "3",
               "--format", "json").json()
    assert data["outcomes"]["sum"]["mean_stderr"] <= 0.01
    assert data["trials"] < 10**8 and data["precision_reached"] is True


def test_a_precision_not_reached_still_answers_and_says_so(capsys):
    result = run(capsys, "roll", "2d6", "--precision", "1e-4", "--trials", "1e4", "--seed", "1", "--format", "json")
    assert result.code == 0 and result.json()["precision_reached"] is False and result.json()["trials"] == 10_000
    (line,) = result.err.strip().splitlines()
    assert "--precision 0.0001 was not reached" in line


def test_a_failed_verification_prints_the_answer_and_exits_1(capsys, monkeypatch):
    from oddscalc.core.roll import Roll

    right = Roll.pmfs
    monkeypatch.setattr(Roll, "pmfs", lambda self, number: {"sum": right(self, number)["sum"][::-1]})  # planted bug
    result = run(capsys, "roll", "2d6", "--maximised", "1", "--verify", "--trials", "1e5", "--seed", "3")
    assert result.code == 1 and "OUTSIDE the DKW bound" in result.out
    assert result.err.strip() == "verify: the sampled CDF is outside the DKW bound for sum"


def test_verify(capsys):
    result = run(capsys, "roll", "2d6", "--verify", "--trials", "1e5", "--seed", "3")
    assert "largest CDF gap" in result.out and "within the DKW bound" in result.out
    data = run(capsys, "roll", "2d6", "--verify", "--trials", "1e5", "--seed", "3", "--format", "json").json()
    assert data["verify"]["sum"]["within"] is True


def test_what_a_player_reads_is_english_and_cites_the_rulebooks(capsys):
    """`oddscalc rules` and every query's --help: no Russian quotation, no internal file name."""
    import re

    from oddscalc.query.registry import QUERIES

    for group in names():
        run(capsys, group, "--help")  # registers the game's queries
    texts = [run(capsys, "rules").out] + [run(capsys, *path.split(), "--help").out for path in sorted(QUERIES)]
    assert len(texts) > 15
    for text in texts:
        assert not re.search(r"[\u0400-\u04ff]|seed 00\d|\bthe seeds\b|[Ss]eed [0-9]{3}", text), text[:80]


def test_version(capsys):
    assert run(capsys, "--version").out.strip() == f"oddscalc {__version__}"


def test_module_runs_a_query():
    process = subprocess.run([sys.executable, "-m", "oddscalc", "roll", "2d6", "--maximised", "1", "--trials", "1e5",
                              "--seed", "11", "--format", "json"], capture_output=True, text=True)
    assert process.returncode == 0
    sum_ = json.loads(process.stdout)["outcomes"]["sum"]
    assert abs(sum_["mean"] - 203 / 24) <= 5 * sum_["mean_stderr"]


HEAVY = ("pandas", "matplotlib", "scipy", "pydantic", "oddscalc.cli.studies", "oddscalc.dust.commands",
         "oddscalc.epic.commands", "oddscalc.t9a.commands", "oddscalc.dust", "oddscalc.epic", "oddscalc.t9a")


def imported_by(*args: str) -> list[str]:
    """The heavy modules a fresh process has imported after running the command `args`."""
    code = (f"import sys\nfrom oddscalc.cli import main\nmain({list(args)!r})\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout.strip().splitlines()[-1].replace("'", '"'))


@pytest.mark.parametrize("args, loaded", [
    (("roll", "2d6", "--trials", "1000", "--format", "json"), []),
    (("roll", "2d6", "--exact", "--format", "json"), []),
    (("epic", "shoot", "--shots", "2", "--to-hit", "4", "--units", "1", "--armour", "4", "--exact", "--format", "json"),
     ["oddscalc.epic", "oddscalc.epic.commands"]),
    (("t9a", "charge", "--distance", "8", "--exact", "--format", "json"), ["oddscalc.t9a", "oddscalc.t9a.commands"]),
])
def test_a_query_imports_only_its_game_and_nothing_heavy(args, loaded):
    assert imported_by(*args) == loaded


def test_every_lazy_command_is_where_the_root_looks_for_it():
    from oddscalc.cli import STUDIES, root_command
    from oddscalc.lists.games import PACKAGES
    from oddscalc.query.registry import COMMANDS
    from oddscalc.query.words import STUDIES as LIBRARY_STUDIES
    from oddscalc.query.words import load

    load("sweep")  # the library's studies: every one is listed by the command line
    assert set(LIBRARY_STUDIES) == {path for path, command in COMMANDS.items() if command.kind == "study"}
    assert set(LIBRARY_STUDIES) <= set(STUDIES)
    root = root_command()
    assert all(root.get_command(None, name).name == name for name in (*STUDIES, *PACKAGES))
    assert root.list_commands(None) == ["roll", *STUDIES, "rules", "completion", "serve", *PACKAGES]  # every game
    assert root.get_command(None, "nothing") is None
