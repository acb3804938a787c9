"""The first answer imports what it needs and nothing else (issue: start-up was most of a query's
time): checked in a fresh interpreter, by the modules loaded once the answer is given."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from oddscalc.contract import names

# what no first answer needs: the studies, plots, tables of rosters, the page, the importers, threads
NEVER = ("pandas", "matplotlib", "scipy", "dask", "distributed", "starlette", "jinja2", "oddscalc.output.plots",
         "oddscalc.studies.cells", "oddscalc.studies.grid", "oddscalc.studies.sweeps", "oddscalc.web", "oddscalc.lists.battlescribe",
         "concurrent.futures", "logging")
# and the library's exact answer needs no command line, no table, no random generator
LIBRARY = NEVER + ("typer", "click", "rich", "oddscalc.cli", "oddscalc.output.tables", "numpy.random", "secrets")

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


ANSWER = ("from oddscalc import HitAndSave, run\n"
          "result = run(HitAndSave(10, 4, 5), method='exact')\n"
          "unsaved = result['unsaved']\n"
          "print(unsaved.mean, unsaved.sd, unsaved.at_least(3), unsaved.at_most(2), unsaved.probability(4), "
          "unsaved.median, unsaved.cdf_gap(result['hits']))\n"
          "run(HitAndSave(10, 4, 5), method='exact', fractions=True)\n")


def test_an_exact_answer_without_arrays_imports_no_numpy_and_is_read_without_it():
    """The benchmark's first answer, set beside icepool's: a pool of dice that hit and save is two
    binomials (`terms`), and a `Distribution` reads its figures in plain Python."""
    assert forbidden(loaded(ANSWER), ("numpy",)) == []


@pytest.mark.parametrize("code", [
    f"from oddscalc import EpicShoot, run\nanswer = run({EPIC}, method='exact')['kills']",
    "from oddscalc import Melee, run\nanswer = run(Melee(attacks=10, offensive=4, defensive=4, strength=4, "
    "resilience=4, armour=2, models=5, health=1), method='exact')['kills']",
    "from oddscalc import WeaponLine, run\nanswer = run(WeaponLine(dice=4, health=2), method='exact')['destroyed']",
])
def test_each_game_s_first_exact_answer_imports_no_numpy_and_no_sampler(code):
    """Plain shooting, a melee of one wound an attack and a weapon line are worked in tuples (epic/plain.py,
    `_Sequence._binomials`, `dust/die.py:exact_line`); their modules name numpy and the dice sampler, imported the
    first time they are used (`core/lazy.py:Deferred`): an exact answer never does."""
    modules = loaded(f"{code}\nprint(answer.mean, answer.at_least(1))")
    assert forbidden(modules, ("numpy", "oddscalc.core.pool", "oddscalc.core.sampling")) == []


@pytest.mark.parametrize("words", [
    ["roll", "2d6", "--exact"],
    ["epic", "shoot", "--shots", "12", "--to-hit", "4+", "--units", "6", "--armour", "4+", "--exact"],
    ["t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive", "4", "--strength", "4", "--resilience",
     "4", "--exact"],
    ["dust", "attack", "--dice", "4", "--exact"],
])
def test_the_command_line_s_first_exact_answer_imports_no_click_and_no_numpy(words):
    """A query's words go to the library's grammar before Click could see them (`cli/main.py:_run`), and its
    answer is written without Click (`cli/output.py:echo`): Click, Typer and the Click app load only for the
    command line's own commands and the root's and groups' help."""
    code = (f"import contextlib, io\nfrom oddscalc.cli import main\nwith contextlib.redirect_stdout(io.StringIO()) as out:"
            f"\n    code = main({words!r})\nassert code == 0 and 'oddscalc' in out.getvalue(), out.getvalue()")
    assert forbidden(loaded(code), ("typer", "click", "numpy", "oddscalc.cli.commands")) == []


@pytest.mark.parametrize("words", [
    ["epic", "shoot", "--shots", "12", "--to-hit", "4+", "--units", "6", "--armour", "4+", "--exact"],
    ["t9a", "melee", "--attacks", "10", "--offensive", "4", "--defensive", "4", "--strength", "4", "--resilience", "4",
     "--exact"],
    ["dust", "attack", "--dice", "4", "--exact"], ["roll", "2d6", "--exact", "--format", "json"],
])
def test_a_query_that_saves_no_file_imports_no_pathlib_and_no_threading(words):
    """Each is a cost of a first answer that none needs (pathlib alone is 3 ms of icepool's 45): a plot's path is
    read as a `pathlib.Path` when given (`grammar.read_path`), and a stop is one flag (`Cancel`). Probed without site's start-up (`-S`), whose editable-install hook imports pathlib itself."""
    import site
    from pathlib import Path

    import oddscalc

    paths = [str(Path(oddscalc.__file__).parents[1]), *site.getsitepackages()]
    code = (f"import sys\nsys.path[:0] = {paths!r}\nimport contextlib, io\nfrom oddscalc.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()) as out:\n    code = main({words!r})\n"
            "assert code == 0 and out.getvalue(), out.getvalue()\nimport json\nprint(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True).stdout
    modules = set(json.loads(out.splitlines()[-1]))
    assert forbidden(modules, ("pathlib", "threading")) == [] and "oddscalc.query.grammar" in modules


def test_a_dust_shot_without_a_map_imports_no_board_and_one_with_a_map_does():
    """The map's words (`dust/terrain.py`) name the query's options; the board and the shot on it are a map's."""
    code = ("import contextlib, io\nfrom oddscalc.cli import main\nwith contextlib.redirect_stdout(io.StringIO()) as out:"
            "\n    code = main({})\nassert code == 0 and 'damage' in out.getvalue(), out.getvalue()")
    plain = loaded(code.format(["dust", "attack", "--dice", "4", "--exact"]))
    assert forbidden(plain, ("oddscalc.dust.board", "oddscalc.dust.shot")) == [] and "oddscalc.dust.die" in plain
    mapped = loaded(code.format(["dust", "attack", "--dice", "4", "--exact", "--board", "ruins", "--from", "A9", "--to",
                                 "C2", "--range", "8"]))
    assert {"oddscalc.dust.board", "oddscalc.dust.shot"} <= mapped


def test_a_plot_s_path_is_read_as_a_path_when_given():
    from pathlib import Path

    from oddscalc.query.common import COMMON

    plot = next(opt for opt in COMMON if opt.name == "plot")
    assert (plot.kind, plot.value("out/kills.png")) == ("path", Path("out/kills.png"))


def test_the_figures_read_without_numpy_are_those_read_with_it():
    code = f"{ANSWER}\nimport numpy\nprint(unsaved.pmf @ unsaved.outcomes, unsaved.at_least_all[3], unsaved.cdf[2])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    mean, sd, at_least, at_most, probability, median, gap, dot, tail, head = map(float, out)
    assert mean == pytest.approx(10 / 3, rel=1e-15) and mean == pytest.approx(dot, rel=1e-15)
    assert sd == pytest.approx((10 * (1 / 3) * (2 / 3)) ** 0.5, rel=1e-15)
    assert at_least == pytest.approx(tail, rel=1e-15) and at_most == pytest.approx(head, rel=1e-15)
    assert probability == pytest.approx(210 * 2**6 / 3**10, rel=1e-15) and median == 3
    assert 0 < gap < 1


def test_a_run_samples_after_an_exact_answer_without_numpy():
    """The seed is checked without numpy (none of its generators can exist before it is imported),
    and a Generator given once it is, is taken."""
    code = (f"{ANSWER}\nsampled = run(HitAndSave(10, 4, 5), trials=1000, seed=3)\n"
            "import numpy\nagain = run(HitAndSave(10, 4, 5), trials=1000, seed=numpy.random.default_rng(3))\n"
            "print(sampled.trials, sampled.seed, again.trials)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[-3:] == ["1000", "3", "1000"]


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


@pytest.mark.parametrize("words", [["roll", "2d6", "--exact"], ["roll", "2d6", "--maximised", "1", "--exact", "--format", "json"],
                                   ["roll", "10d6", "--success", "5", "--minimised", "2", "--exact", "--format", "csv"],
                                   ["roll", "3d6-2", "--exact", "--fractions", "--format", "markdown"]])
def test_a_small_roll_s_exact_answer_on_the_command_line_imports_no_numpy(words):
    """Integer weights (`terms`) and a table read from the distribution's tuple: no arrays at all."""
    code = f"import sys\nsys.argv = ['oddscalc', *{words!r}]\nfrom oddscalc.cli import main\nmain()"
    modules = loaded(code)
    assert forbidden(modules, ("numpy",)) == [] and "oddscalc.core.roll" in modules
