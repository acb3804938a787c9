"""Pieces small enough to read in one sitting (issue 35): no module of the package over 450 lines, no function over
60. The modules still over it are listed with their size now; each may only shrink, and leaves the list once split."""

from __future__ import annotations

import ast
from pathlib import Path

import oddscalc

LIMIT = 450
PACKAGE = Path(oddscalc.__file__).parent
OVER: dict[str, int] = {  # path in the package: its lines now (split along its seams, then drop it from here)
}
FUNCTION_LIMIT = 60


def sizes() -> dict[str, int]:
    return {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
            for path in PACKAGE.rglob("*.py")}


def test_no_module_grows_past_the_limit():
    grown = {path: lines for path, lines in sizes().items() if lines > OVER.get(path, LIMIT)}
    assert grown == {}, f"over {LIMIT} lines (or over its listed size): split along its seams"


def test_the_list_of_modules_over_the_limit_is_current():
    now = sizes()
    assert {path: now.get(path) for path in OVER if now.get(path, 0) <= LIMIT} == {}, "split: drop it from OVER"


def test_no_function_is_longer_than_the_limit():
    """Every function and method, from its `def` (or decorator) to its last line."""
    long = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - min([node.lineno, *(d.lineno for d in node.decorator_list)]) + 1
                if lines > FUNCTION_LIMIT:
                    long[f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"] = lines
    assert long == {}, f"over {FUNCTION_LIMIT} lines: split it into named steps"
