"""The registry of games (registry.py): one line per game, each a package of oddscalc with the parts the contract
asks for, read by everything that lists games; and it imports nothing, so that any module may read it."""

from __future__ import annotations

import ast
from pathlib import Path

from oddscalc import contract
from oddscalc.registry import PACKAGES

PACKAGE = Path(__file__).parent.parent / "oddscalc"


def test_each_registered_game_is_a_package_with_its_parts_and_every_game_package_is_registered():
    found = {path.parent.name for path in PACKAGE.glob("*/roster.py") if (path.parent / "commands.py").is_file()}
    assert set(PACKAGES) == found and len(PACKAGES) == len(set(PACKAGES)) == 3
    assert tuple(contract.names()) == PACKAGES  # everything that lists games reads it
    for name in PACKAGES:
        assert (PACKAGE / name / "commands.py").is_file() and (PACKAGE / name / "benchmark.py").is_file()


def test_the_registry_imports_nothing():
    tree = ast.parse((PACKAGE / "registry.py").read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
