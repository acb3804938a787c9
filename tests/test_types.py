"""Types that check (issues 35, 50): `mypy --strict` passes on the whole package (pyproject.toml: strict = true),
and the package says it is typed (py.typed)."""

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


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="mypy's settings are in the source tree")
def test_the_settings_are_strict():
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert settings["strict"] is True and settings["files"] == ["oddscalc"]
    loosened = [override for override in settings.get("overrides", []) if set(override) - {"module",
                                                                                            "ignore_missing_imports"}]
    assert loosened == []  # no module let off a strict flag
