"""The first answer imports what it needs and nothing else (issue: start-up was most of a query's
time): checked in a fresh interpreter, by the modules loaded once the answer is given."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from oddscalc.contract import names

# what no first answer needs: the studies, plots, tables of rosters, the page, the importers, threads
NEVER = ("pandas", "matplotlib", "scipy", "dask", "distributed", "starlette", "jinja2", "oddscalc.plots",
         "oddscalc.cells", "oddscalc.grid", "oddscalc.studies", "oddscalc.web", "oddscalc.battlescribe",
         "concurrent.futures", "logging")
# and the library's exact answer needs no command line, no table, no random generator
LIBRARY = NEVER + ("typer", "click", "rich", "oddscalc.cli", "oddscalc.tables", "numpy.random", "secrets")

EPIC = "EpicShoot(shots=12, to_hit='4+', units=6, armour='4+')"


def loaded(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after `code`."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def forbidden(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(module for module in modules if any(module == name or module.startswith(name + ".")
                                                      for name in names))


@pytest.mark.parametrize("code, game", [
    (f"from oddscalc import {EPIC.split('(')[0]}, run; run({EPIC}, method='exact')", "epic"),
    ("from oddscalc import HitAndSave, run; run(HitAndSave(10, 4, 5), method='exact')", None),
    ("from oddscalc import Melee; Melee(attacks=10, offensive=4, defensive=4, strength=4, resilience=4).exact()",
     "t9a"),
    ("from oddscalc import WeaponLine, run; run(WeaponLine(dice=4), method='exact')", "dust"),
])
def test_the_library_s_first_exact_answer_imports_the_attack_s_own_modules_only(code, game):
    modules = loaded(code)
    others = tuple(f"oddscalc.{other}." for other in names() if other != game)  # every registered game
    assert forbidden(modules, LIBRARY) == []
    assert [module for module in modules if module.startswith(others)] == []  # another game's modules


def test_the_command_line_s_first_answer_imports_no_study_no_plot_and_one_game():
    code = ("import sys\nsys.argv = ['oddscalc', 'epic', 'shoot', '--shots', '12', '--to-hit', '4+', '--units', '6', "
            "'--armour', '4+', '--exact']\nfrom oddscalc.cli import main\nmain()")
    modules = loaded(code)
    assert forbidden(modules, NEVER + ("numpy.random", "secrets")) == []
    assert [module for module in modules if module.startswith(("oddscalc.dust.", "oddscalc.t9a."))] == []
    assert "oddscalc.epic.shooting" in modules  # the probe did answer


def test_a_plain_table_needs_no_rich():
    code = ("import sys\nsys.argv = ['oddscalc', 'roll', '2d6', '--exact']\nfrom oddscalc.cli import main\nmain()")
    assert forbidden(loaded(code), ("rich",) + NEVER) == []
