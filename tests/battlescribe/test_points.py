"""A unit's points from its list's costs: single costs may be negative (a T9A base cost below its
models', an Epic size discount) and add up as the list gives them; a unit whose costs add up below
0 is imported without points and one line of the report says so, and the rest of the list imports
as it is. Real lists (tests/data/battlescribe/bsdata) with one unit's own cost edited in memory;
the unedited lists' figures are in test_corpus.py."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

from clirun import exact_json, run

from oddscalc.lists import battlescribe, games
from oddscalc.lists.battlescribe import reader

CORPUS = Path(__file__).parent.parent / "data" / "battlescribe" / "bsdata"
NAMESPACES = {"bs": reader.NAMESPACE}


def edited(tmp_path: Path, source: Path, unit: str, cost: float) -> Path:
    """A real list saved as a .ros with one top-level unit's own pts cost set (its selections' kept)."""
    ElementTree.register_namespace("", reader.NAMESPACE)  # written back as the apps write it
    root = ElementTree.fromstring(reader.read_bytes(source))
    selection = next(item for item in root.iterfind("bs:forces/bs:force/bs:selections/bs:selection", NAMESPACES)
                     if item.get("name") == unit)
    selection.find("bs:costs/bs:cost[@name='pts']", NAMESPACES).set("value", str(cost))
    path = tmp_path / f"{source.stem}.ros"
    path.write_bytes(ElementTree.tostring(root, encoding="utf-8", xml_declaration=True))
    return path


def assert_grid_ranks_by_mean(capsys, path: Path, pointless: str) -> None:
    """A grid of the list against itself: the unit without points has no figure per 100 points, and
    the grid ranks by the mean (not every attacker has points)."""
    rows = exact_json(capsys, "grid", path)["rows"]
    assert {row["attacker"] for row in rows} >= {pointless}
    assert all(row["points"] is None and "per_100_points" not in row for row in rows if row["attacker"] == pointless)
    assert [row["mean"] for row in rows] == sorted((row["mean"] for row in rows), reverse=True)
    result = run(capsys, "grid", path, "--trials", "2000", "--seed", "1")
    assert result.code == 0 and "ranked by mean" in result.out


def test_a_t9a_unit_whose_costs_add_up_below_zero_is_imported_without_points(capsys, tmp_path):
    # the Shabti Archers' base cost -58 made -248: -248 + 3 × 76 = -20
    path = edited(tmp_path, CORPUS / "undying_dynasties.rosz", "Shabti Archers", -248)
    imported = battlescribe.load(path)
    # the other units' points as the list gives them (test_corpus.py)
    assert [(unit["name"], unit.get("points")) for unit in imported.data["unit"]] == [
        ("Nomarch", 190), ("Skeleton Chariots", 250), ("Shabti Archers", None)]
    assert imported.report() == [
        *battlescribe.load(CORPUS / "undying_dynasties.rosz").report()[:4],
        "Shabti Archers: a total cost of -20 pts: points are 0 or more (imported without points)",
        "Shabti Archers, Great Aspen Bow: weapon rules 'This weapon always hits on a roll equal to or greater than "
        "its Aim' not modelled (imported without it)"]
    roster = games.load_roster(path)
    assert [unit.points for unit in roster.units] == [190, 250, None]
    assert_grid_ranks_by_mean(capsys, path, "Shabti Archers")


def test_an_epic_formation_whose_costs_add_up_below_zero_is_imported_without_points(capsys, tmp_path):
    # the Basilisk Battery's 225 made -25 (a size discount bigger than the formation)
    path = edited(tmp_path, CORPUS / "steel_legion.rosz", "Basilisk Battery", -25)
    imported = battlescribe.load(path)
    assert [(unit["name"], unit.get("points")) for unit in imported.data["unit"]] == [
        ("Infantry Company", 250), ("Mechanised Infantry Company", 400), ("Basilisk Battery", None),
        ("Super-heavy Tank Company", 500)]
    assert imported.report() == [
        *battlescribe.load(CORPUS / "steel_legion.rosz").report(),
        "Basilisk Battery: a total cost of -25 pts: points are 0 or more (imported without points)"]
    # the import command writes a roster that reads back without the formation's points, and says why
    result = run(capsys, "import", path, "--write", tmp_path / "army.toml")
    assert result.code == 0 and "note: Basilisk Battery: a total cost of -25 pts" in result.err
    saved = games.load_roster(tmp_path / "army.toml")
    assert [unit.points for unit in saved.units] == [250, 400, None, 500]
    assert "# Note: Basilisk Battery: a total cost of -25 pts: points are 0 or more (imported without points)" in \
        (tmp_path / "army.toml").read_text(encoding="utf-8")
    assert_grid_ranks_by_mean(capsys, path, "Basilisk Battery")
