"""Types that check (issue 35): mypy passes on the whole package with the settings in pyproject.toml (the
modules a user imports held to the strict flags), and the package says it is typed (py.typed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import oddscalc

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_ships_its_types():
    assert (Path(oddscalc.__file__).parent / "py.typed").is_file()


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="mypy's settings are in the source tree")
def test_mypy_passes_on_the_package(tmp_path):
    checked = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]
    assert checked.stdout.startswith("Success: no issues found"), checked.stdout
