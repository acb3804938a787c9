"""Execute every notebook in notebooks/ with few trials (ODDSCALC_NOTEBOOK_TRIALS)."""

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("ODDSCALC_NOTEBOOK_TRIALS", "20000")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


def test_the_notebooks_text_names_only_functions_that_exist():
    """A call a notebook's text tells the reader to make (`load_roster("my_army.toml")`) is in the
    public API."""
    import json
    import re

    import oddscalc

    for path in NOTEBOOKS:
        text = "".join("".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
                       if cell["cell_type"] == "markdown")
        for dotted in re.findall(r"`([a-z_][a-z_.]+)\(", text):  # a call in code style, not `P(kill)`
            value = oddscalc
            for part in dotted.split("."):
                assert hasattr(value, part), (path.name, dotted)
                value = getattr(value, part)
