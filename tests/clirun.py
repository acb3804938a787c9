"""Run the command line in-process and capture what it prints."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from oddscalc.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


def run(capsys, *args: str) -> Run:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def assert_refused(capsys, *args: str, mentions: tuple[str, ...] = ()) -> Run:
    """Bad input: exit 2, one line on stderr naming the option, nothing on stdout."""
    result = run(capsys, *args)
    assert result.code == 2, (args, result)
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.err
    for word in mentions:
        assert word in lines[0], (word, lines[0])
    return result


def exact_json(capsys, *args: str) -> dict:
    """Run a query with --exact --format json; return the parsed answer."""
    result = run(capsys, *args, "--exact", "--format", "json")
    assert result.code == 0, result.err
    return result.json()


def assert_same(outcomes: dict, attack) -> None:
    """The JSON outcomes of a query equal the library attack's exact pmfs."""
    expected = attack.exact()
    assert list(outcomes) == list(attack.outcomes)
    for name, pmf in expected.items():
        assert outcomes[name]["pmf"] == pytest.approx(list(pmf[: len(outcomes[name]["pmf"])]), abs=1e-12)
        assert sum(pmf[len(outcomes[name]["pmf"]):]) == pytest.approx(0, abs=1e-12)
