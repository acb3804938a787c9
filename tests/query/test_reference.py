"""The command reference (docs/commands.md), written from the grammar's declarations (`oddscalc.query.reference`)."""

from __future__ import annotations

from pathlib import Path


def test_the_command_reference_is_written_from_the_declarations():
    """docs/commands.md is what `python -m oddscalc.query.reference` writes now (run it after changing an option)."""
    from oddscalc.query.reference import markdown

    written = (Path(__file__).parent.parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    assert written == markdown(), "docs/commands.md is stale: python -m oddscalc.query.reference > docs/commands.md"
    assert "| `--to-hit X+` | " in written and "## oddscalc t9a combat" in written and "## oddscalc balance" in written
    lines = written.splitlines()
    assert "| `--maximised K` | Roll K extra dice and discard the K lowest. | default: 0 |" in lines
    assert "| `DICE` | NdS, NdS+C or NdS-C: 2d6, 3d6+1, d3, d6+2. | required |" in lines
    assert "| `--engage / --no-engage` | Each entry's engagement of each target too (the default): P(win) of an Epic " \
           "assault, of a 9th Age charge, a column per target; --no-engage: what entries shoot only. | " \
           "default: engage |" in lines
    assert "| `--enemy-models N` | The charged unit: models in the unit, 1 to 60. | required |" in lines
