"""The package's modules import one another in one direction: no circle, counting the imports
made inside functions too (a late import hides a circle; it does not break it)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "oddscalc"


def modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def imports(name: str, path: Path, package: bool, known: dict) -> set[str]:
    """The package's modules that `name` imports anywhere in its text."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = name.split(".") if package else name.split(".")[:-1]
            base = base[:len(base) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            named = (f"{module}.{alias.name}" for alias in node.names)  # a submodule, or a name in the module
            targets = [target if target in known else module for target in named]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_one_that_imports_it_back():
    known = modules()
    graph = {name: imports(name, path, package, known) for name, (path, package) in known.items()}
    assert len(graph) > 40 and "oddscalc.contract" in graph["oddscalc.lists.battlescribe"]  # the registry, by the contract
    assert circles(graph) == []


def test_a_circle_is_found_however_deep_the_import_hides():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    known = modules()
    graph = {name: imports(name, path, package, known) for name, (path, package) in known.items()}
    graph["oddscalc.registry"] = graph["oddscalc.registry"] | {"oddscalc.lists.games"}  # as if it read games.py
    assert ["oddscalc.lists.battlescribe", "oddscalc.lists.games", "oddscalc.registry"] in [
        [m for m in group if m in ("oddscalc.lists.battlescribe", "oddscalc.lists.games", "oddscalc.registry")]
        for group in circles(graph)]
