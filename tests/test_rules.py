"""The rules reference in the repository: every section the code cites exists, and
`oddscalc rules` prints it."""

import re
from pathlib import Path

import pytest
from clirun import assert_refused, run

from oddscalc.output import rules

PACKAGE = Path(__file__).resolve().parent.parent / "oddscalc"


def test_every_cited_section_exists():
    known = set(rules.sections())
    cited = set()
    for path in PACKAGE.rglob("*.py"):
        cited |= set(re.findall(r"§\s?(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")))
    assert cited, "the code cites its rules"
    assert cited <= known, f"cited but missing from docs/rules.md: {sorted(cited - known)}"


def test_the_package_carries_the_reference_of_the_repository():
    assert rules.text() == (PACKAGE.parent / "docs" / "rules.md").read_text(encoding="utf-8")


def test_rules_prints_a_section(capsys):
    result = run(capsys, "rules", "2.5")
    assert result.code == 0 and result.out.startswith("### 2.5 Barrages")
    assert "| 6–7 | 1 | 1 | 4+ | 5+ |" in result.out and "### 2.6" not in result.out
    assert run(capsys, "rules", "§3").out.startswith("## 3. The 9th Age")


def test_rules_refuses_an_unknown_section(capsys):
    assert_refused(capsys, "rules", "9.9", mentions=("SECTION", "9.9", "2.5"))


@pytest.mark.parametrize("section", ["1.3", "1.7", "1.9", "1.12", "2.5", "3.7", "3.8"])
def test_each_open_question_names_its_reading(section):
    text = rules.section(section)
    assert "**Open" in text and "oddscalc" in text
