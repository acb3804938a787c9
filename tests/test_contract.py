"""The game contract (oddscalc/contract.py, issue 35): every registered game provides what a game package
must, checked by one test; and a fourth game is its package and its registry line, nothing else. Toy, a
game of the tests' own (tests/games/toy: roll some D6, count the sixes; one query), is put beside the
package and registered, and shows up in the library, the command line (its one query keeps its group),
rosters and grids, and the benchmark."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import exact_json, run

import oddscalc
from oddscalc import contract, registry
from oddscalc.lists import games
from oddscalc.core.attack import Attack
from oddscalc.bench.core import Case, ExactCase
from oddscalc.cli import root_command
from oddscalc.query import registry as queries
from oddscalc.lists.roster import Game


def check_contract(name: str) -> None:
    """What every game provides: exports, its Game record, its queries, benchmark cases, and an importer if any."""
    exports = contract.package(name).EXPORTS
    assert exports and all(getattr(oddscalc, export).__module__.startswith(f"oddscalc.{name}.") for export in exports)
    game = contract.roster(name).GAME
    assert isinstance(game, Game) and game.name == name and game.main
    assert game.kind == "" or game.kind in game.schema.unit  # the field a balance study groups its entries by
    assert contract.commands(name).HELP == queries.GROUPS[name]
    assert [path for path in queries.COMMANDS if path.split()[0] == name], name
    benchmark = contract.benchmark(name)
    cases, exact_cases = benchmark.cases(), benchmark.exact_cases()
    assert cases and all(isinstance(case, Case) and isinstance(case.attack, Attack) for case in cases)
    assert exact_cases and all(isinstance(case, ExactCase) and case.outcome in case.attack.outcomes
                               for case in exact_cases)
    importer = contract.importer(name)
    assert importer is None or importer.SYSTEM.title.startswith(game.title)  # "The 9th Age (2nd edition)"


@pytest.mark.parametrize("name", contract.names())
def test_every_registered_game_keeps_the_contract(name):
    check_contract(name)


def test_a_part_that_breaks_the_contract_is_named(monkeypatch):
    monkeypatch.setitem(contract.WHERE, contract.GameBenchmark, "oddscalc.registry")  # no cases, no exact_cases
    with pytest.raises(TypeError, match=r"oddscalc.registry breaks the game contract .*: it lacks cases, exact_cases"):
        contract.benchmark("epic")
    monkeypatch.setitem(contract.WHERE, contract.GameBenchmark, "oddscalc.bench.core")  # cases, no exact_cases
    with pytest.raises(TypeError, match=r"oddscalc.bench.core breaks the game contract .*: it lacks exact_cases$"):
        contract.benchmark("epic")
    monkeypatch.setitem(contract.WHERE, contract.GameRoster, "oddscalc.{name}")  # a package without its GAME
    with pytest.raises(TypeError, match=r"oddscalc.epic breaks the game contract .*: it lacks GAME$"):
        contract.roster("epic")
    assert contract.members(contract.GamePackage) == ["EXPORTS"]
    assert contract.members(contract.GameImporter) == ["SYSTEM", "mapped_units"]


@pytest.fixture
def toy(monkeypatch):
    """Toy beside the package (found as `oddscalc.toy`) and on the registry; gone again afterwards."""
    monkeypatch.setattr(oddscalc, "__path__", [*oddscalc.__path__, str(Path(__file__).parent / "games")])
    monkeypatch.setattr(registry, "PACKAGES", (*registry.PACKAGES, "toy"))
    monkeypatch.delitem(games.__dict__, "GAMES", raising=False)  # built again, with Toy
    yield
    for table in (queries.COMMANDS, queries.QUERIES, queries.ABOUT, queries.GROUPS):  # Toy's queries, and only those
        for key in [key for key in table if key.split()[0] == "toy"]:
            del table[key]
    root_command().commands.pop("toy", None)  # the root command, built once, forgets Toy's group
    for module in [module for module in sys.modules if module == "oddscalc.toy" or module.startswith("oddscalc.toy.")]:
        del sys.modules[module]
    games.__dict__.pop("GAMES", None)


def test_a_fourth_game_is_its_package_and_its_registry_line(toy, capsys, tmp_path):
    check_contract("toy")
    # the library: its export, run exactly and sampled
    sixes = oddscalc.Sixes(dice=3)
    assert [Fraction(p) for p in sixes.exact(fractions=True)["sixes"]] == [Fraction(125, 216), Fraction(75, 216),
                                                                           Fraction(15, 216), Fraction(1, 216)]
    assert "toy" in games.GAMES and games.game("toy").title == "Toy"
    # the command line: listed, its one query keeps its group, its answer is the attack's
    assert "toy" in run(capsys, "--help").out
    data = exact_json(capsys, "toy", "shoot", "--dice", "3")
    assert data["outcomes"]["sixes"]["pmf"] == pytest.approx([125 / 216, 75 / 216, 15 / 216, 1 / 216])
    assert oddscalc.ask(["toy", "shoot", "--dice", "3", "--exact"]).answer.content.result["sixes"].mean == pytest.approx(0.5)
    # a roster of Toy, and a grid of it
    roster = tmp_path / "toy.toml"
    roster.write_text('game = "toy"\n\n[[unit]]\nname = "Rollers"\npoints = 50\nmodels = 2\n\n[[unit.weapon]]\n'
                      'name = "Bucket"\ndice = 6\n')
    rows = run(capsys, "grid", roster, "--exact", "--format", "json").json()["rows"]
    assert [(row["attacker"], row["weapon"], row["target"]) for row in rows] == [("Rollers", "Bucket", "Rollers")]
    assert rows[0]["mean"] == pytest.approx(1.0) and rows[0]["p_kill"] == pytest.approx(1 - (5 / 6) ** 6 - 6 * (5 / 6) ** 5 / 6)
    # the benchmark's cases
    from oddscalc.bench import exact, run as bench

    assert "toy sixes of 10 dice" in [case.name for case in bench.all_cases()]
    assert "toy sixes of 10 dice" in [case.name for case in exact.cases()]
