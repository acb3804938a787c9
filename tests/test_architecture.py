"""docs/architecture.md is true: every module and `path:name` it names is there, and its claims about who imports
whom hold in the import graph (read from the source, lazy imports inside functions included)."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "oddscalc"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
GAMES = ("dust", "epic", "t9a")
SHELLS = ("oddscalc.cli", "oddscalc.web")
# The library modules that import a shell, each said in docs/architecture.md's first paragraph: the program's
# entry point starts it; the benchmark times its first answer.
IMPORT_A_SHELL = {"oddscalc.console", "oddscalc.bench.exact"}
PARSERS = ("typer", "click")  # imported by the command line only (the query grammar is the library's)
CORE = ("dice", "terms", "totals", "pool", "pmf", "distribution", "result", "engine", "sampling", "keyed", "options",
        "attack", "roll", "hits")  # the doc's engine, which "knows no game"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


MODULES = {_module(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@cache
def imports(module: str) -> frozenset[str]:
    """Every module or name a module imports, absolute (`from .x import y`: `oddscalc.x` and `oddscalc.x.y`)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1]) if node.level else ""
            source = ".".join(part for part in (base, node.module or "") if part)
            found |= {source} | {f"{source}.{alias.name}" for alias in node.names}
    return frozenset(found)


def _reaches(module: str, targets: tuple[str, ...]) -> list[str]:
    return sorted(name for name in imports(module) if any(name == t or name.startswith(t + ".") for t in targets))


def test_the_import_reader_sees_relative_lazy_and_absolute_imports():
    assert "oddscalc.query.registry.query" in imports("oddscalc.epic.commands")  # from ..query.registry import query
    assert "oddscalc.query.words" in imports("oddscalc.query.asking")  # inside a function
    assert "numpy" in imports("oddscalc.core.pmf")


def test_the_library_imports_a_shell_only_where_the_doc_says():
    importers = {module for module in MODULES if not module.startswith(SHELLS) and _reaches(module, SHELLS)}
    assert importers == IMPORT_A_SHELL, "update docs/architecture.md's first paragraph, and this list, together"
    said = DOC.split("```", 1)[0]  # the first paragraph names each
    assert all(f"`{module.removeprefix('oddscalc.').replace('.', '/')}.py`" in said for module in IMPORT_A_SHELL)


def test_no_click_or_typer_outside_the_command_line():
    """The query grammar is the library's: no module outside `cli/` imports Click or Typer (the page included), and
    none imports Click's own exceptions (`typer._click`): Click only prints help."""
    found = {module: _reaches(module, PARSERS) for module in MODULES if not module.startswith("oddscalc.cli")}
    assert {module: names for module, names in found.items() if names} == {}
    assert [module for module in MODULES if _reaches(module, ("typer._click", "click"))] == []


@pytest.mark.parametrize("game", GAMES)
def test_no_game_imports_another(game):
    others = tuple(f"oddscalc.{other}" for other in GAMES if other != game)
    found = {module: _reaches(module, others) for module in MODULES if module.startswith(f"oddscalc.{game}.")}
    assert {module: names for module, names in found.items() if names} == {}


# The library's packages, each with the packages it may import (besides itself, and the package's top: errors, the
# registry, the game contract, the version): the engine none; the outputs the engine; lists those and each game's
# profiles (a BattleScribe importer reads them); studies all of these (docs/architecture.md, "The house").
LAYERS = {"core": (), "output": ("core",), "lists": ("core", "output", *GAMES), "studies": ("core", "output", "lists")}
TOP = ("oddscalc.errors", "oddscalc.registry", "oddscalc.contract")


@pytest.mark.parametrize("package", LAYERS)
def test_each_package_imports_only_the_ones_beneath_it(package):
    allowed = tuple(f"oddscalc.{name}" for name in (package, *LAYERS[package])) + TOP
    found = {module: [name for name in imports(module) if name.startswith("oddscalc.") and name in MODULES
                      and not name.startswith(allowed)]
             for module in MODULES if module.startswith(f"oddscalc.{package}.") or module == f"oddscalc.{package}"}
    assert {module: names for module, names in found.items() if names} == {}


@pytest.mark.parametrize("module", CORE)
def test_the_engine_knows_no_game_and_no_shell(module):
    assert _reaches(f"oddscalc.core.{module}", tuple(f"oddscalc.{game}" for game in GAMES) + SHELLS) == []


def _files(named: str) -> list[Path]:
    """The files a path in the doc may mean: from the repository's root, the package's, or any of its folders."""
    return [path for path in [ROOT / named, PACKAGE / named, *PACKAGE.glob(f"*/{named}"), *PACKAGE.glob(f"*/*/{named}")]
            if path.is_file()]


PATHS = sorted(set(re.findall(r"(?<![\w/.-])((?:[\w<>]+/)*[\w<>]+\.py)(?::([\w.]+))?", DOC)))


def test_the_doc_names_modules_and_names_in_them():
    assert len(PATHS) > 40 and ("query/registry.py", "field_options") in PATHS


@pytest.mark.parametrize(("named", "name"), PATHS, ids=[f"{p}:{n}" if n else p for p, n in PATHS])
def test_every_path_the_doc_names_is_there_and_every_name_in_it(named, name):
    named = named.replace("<game>", "epic")
    files = _files(named)
    assert files, f"docs/architecture.md names {named}, which is not in the repository"
    if name:
        modules = [importlib.import_module(_module(path)) for path in files if path.is_relative_to(PACKAGE)]
        assert any(_attribute(module, name) for module in modules), f"{named} has no {name}"


def _attribute(module: object, dotted: str) -> bool:
    found: object = module
    for part in dotted.split("."):
        if not hasattr(found, part):
            return False
        found = getattr(found, part)
    return True


DOTTED = sorted({name for name in re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)+)`", DOC)
                 if f"oddscalc.{name.split('.')[0]}" in MODULES and not name.endswith(".py")})


@pytest.mark.parametrize("dotted", DOTTED)
def test_every_module_dot_name_the_doc_names_is_there(dotted):
    """`processes.in_processes`, `query.registry.query`: the longest module prefix, then the names in it."""
    parts = dotted.split(".")
    cut = max(n for n in range(1, len(parts) + 1) if "oddscalc." + ".".join(parts[:n]) in MODULES)
    module = importlib.import_module("oddscalc." + ".".join(parts[:cut]))
    assert cut == len(parts) or _attribute(module, ".".join(parts[cut:])), f"oddscalc.{dotted} is not there"


def test_no_module_imports_a_private_name_of_another():
    """Siblings share through public names (issue 50 found 59 `_names` imported across modules, splits made for a
    line limit): a name another module needs is public in the module that defines it."""
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("oddscalc")):
                found += [f"{module}: {alias.name}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert found == []


def test_tests_mirror_the_modules():
    """A newcomer finds a module's tests by its name (`test_<module>.py`): at least 80 % of the library's modules
    have theirs."""
    tested = {path.stem.removeprefix("test_") for path in (ROOT / "tests").rglob("test_*.py")}
    modules = [path for path in PACKAGE.rglob("*.py") if path.name not in ("__init__.py", "__main__.py")]
    mirrored = [path for path in modules if path.stem in tested]
    assert len(mirrored) >= 0.8 * len(modules), sorted(str(path) for path in modules if path not in mirrored)


def test_every_frozen_value_is_a_record():
    """One way of making a value (`core/record.py:record`): a `dataclass(frozen=True)` compiles three more methods
    for each class. Ordering is the one thing a record does not offer (`order=True`, one class: a board's square)."""
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for decorator in node.decorator_list:
                    keywords = {word.arg: word.value for word in getattr(decorator, "keywords", [])}
                    frozen = keywords.get("frozen")
                    if isinstance(frozen, ast.Constant) and frozen.value is True and "order" not in keywords:
                        found.append(f"{module}: {node.name}")
    assert found == []
