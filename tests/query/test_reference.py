"""The command reference (docs/commands.md), written from the grammar's declarations (`oddscalc.query.reference`)."""

from __future__ import annotations

from pathlib import Path


def test_the_command_reference_is_written_from_the_declarations():
    """docs/commands.md is what `python -m oddscalc.query.reference` writes now (run it after changing an option)."""
    from oddscalc.query.reference import markdown

    written = (Path(__file__).parent.parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    assert written == markdown(), "docs/commands.md is stale: python -m oddscalc.query.reference > docs/commands.md"
    assert "| `--to-hit X+` | " in written and "## oddscalc t9a combat" in written and "## oddscalc balance" in written
