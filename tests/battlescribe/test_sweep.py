"""The catalogue sweep (`oddscalc.lists.battlescribe.sweep`), on the small game system and catalogue in
BSData's shape (tests/data/battlescribe/mini/): every entry built and imported, and its table."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddscalc.lists import battlescribe
from oddscalc.lists.battlescribe import sweep

MINI = Path(__file__).parent.parent / "data" / "battlescribe" / "mini"
CATALOGUE = MINI / "mini.cat"


def test_the_sweep_builds_every_entry_with_the_choice_that_shows_it():
    entries = sweep.sweep_catalogue(CATALOGUE)
    assert [(entry.name, entry.status, entry.choice) for entry in entries] == [
        ("Tactical", "clean", ""), ("Veterans", "notes", "-Community-: NetEA")]
    assert entries[1].lines == ["Veterans, Missile Launcher: note '- (Veteran)' not modelled (imported without it)"]
    assert entries[1].shooting and not entries[0].shooting


def test_the_sweep_counts_a_crash_and_exits_1(tmp_path, monkeypatch):
    def crash(xml, source):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(sweep, "read_xml", crash)
    for name in ("mini.gst", "mini.cat"):
        (tmp_path / name).write_bytes((MINI / name).read_bytes())
    markdown = tmp_path / "sweep.md"
    assert sweep.main(["--epic", str(tmp_path), "--markdown", str(markdown), "--details",
                       str(tmp_path / "details.txt")]) == 1
    text = markdown.read_text()
    assert "| mini.cat | 2 | 0 | 0 | 0 | 0 | 2 | 0 |" in text and "- 2 × ZeroDivisionError: boom" in text
    assert (tmp_path / "details.txt").read_text().splitlines()[:2] == [
        "mini.cat | Tactical | crash", "    ZeroDivisionError: boom"]


def test_the_sweep_table_counts_by_status_and_shooting_notes():
    entries = [sweep.Entry("a.cat", "A", "clean"), sweep.Entry("a.cat", "B", "notes", ["B: x"], shooting=True),
               sweep.Entry("b.cat", "C", "left out", ["C: y"]), sweep.Entry("b.cat", "D", "notes", ["D: x"])]
    assert sweep.table(entries, "T", shooting=True)[4:] == [
        "| a.cat | 2 | 1 | 1 | 0 | 0 | 0 | 1 |", "| b.cat | 2 | 0 | 1 | 1 | 0 | 0 | 0 |",
        "| **all** | 4 | 1 | 2 | 1 | 0 | 0 | 1 |", "",
        "Of 3 entries imported, 2 (66.7 %) have no note about a shooting figure: 50.0 % of all 4 entries."]
    assert sweep.reasons(entries) == ["- 2 × x", "- 1 × y"]


def test_the_sweep_counts_war_engine_formations_of_several_profiles():
    entries = [sweep.Entry("a.cat", "Titan", "clean", engine_profiles=1),
               sweep.Entry("a.cat", "Land Train", "notes", ["x"], engine_profiles=3),
               sweep.Entry("a.cat", "Hierophant", "notes", ["x"], engine_profiles=2),
               sweep.Entry("a.cat", "Tactical", "clean")]
    assert sweep.table(entries, "T", shooting=True)[-2:] == [
        "", "Of 3 war-engine formations imported, 2 have war engines of several profiles (up to 3), each modelled "
            "with its own damage capacity, shields, armour and critical hit (docs/rules.md §2.8)."]


def test_the_sweep_reads_the_profiles_of_an_imported_war_engine_formation():
    corpus = Path(__file__).parent.parent / "data" / "battlescribe" / "bsdata"
    assert [sweep.engine_profiles(battlescribe.load(corpus / name).data["unit"]) for name in (
        "squat_land_train.rosz", "hierophant_hierodules.rosz", "bio_titans.rosz", "space_marines.rosz")] == [2, 2, 1, 0]


def test_the_sweep_counts_the_formations_an_assault_grid_fights():
    entries = [sweep.Entry("a.cat", "Tactical", "clean", assaults=True), sweep.Entry("a.cat", "Titan", "clean"),
               sweep.Entry("a.cat", "Rhinos", "notes", ["x"], assaults=True), sweep.Entry("a.cat", "Bunker", "left out")]
    assert ("Of 3 entries imported, 2 (66.7 %) are formations grid --assault fights (their CC and FF read, each "
            "profile that fights otherwise a kind of its own, war engines too; no aircraft; docs/rules.md §2.9).") in \
        sweep.table(entries, "T", shooting=True)
    assert ("Of 3 entries imported, 2 (66.7 %) are units grid --combat charges with (their Attack Value, Agility "
            "and Discipline read; at most 60 models and 10 Health Points each; docs/rules.md §3.11).") in \
        sweep.table(entries, "T", shooting=False, fights=sweep.FIGHTS["t9a"])


@pytest.mark.parametrize("name, fights", [
    ("space_marines.rosz", True), ("riot.rosz", False),  # Spyrers without CC and FF: no assault
    ("sonnstahl.rosz", True), ("highborn_elves.rosz", True),
])
def test_the_sweep_counts_what_the_grid_fights(name, fights):
    """The sweep asks the roster's own engagement (grid --assault, grid --combat) of each import's units."""
    corpus = Path(__file__).parent.parent / "data" / "battlescribe" / "bsdata"
    data = battlescribe.load(corpus / name).data
    assert sweep.engages(data, name) == (fights, "")
    alone = [unit for unit in data["unit"] if unit["name"] == "Thunderhawk"]  # an aircraft: no assault
    if alone:
        assert sweep.engages({**data, "unit": alone}, name) == (False, "")


def test_the_sweep_counts_an_import_the_roster_loader_refuses_as_a_crash(monkeypatch):
    """What an import writes must load (a Warp Palace's reinforced armour without a save once did not)."""
    from oddscalc.errors import InputError

    def refuse(data, source, game):
        raise InputError("reinforced", True, "reinforced armour needs an armour save")

    monkeypatch.setattr("oddscalc.lists.roster.build", refuse)
    entries = sweep.sweep_catalogue(CATALOGUE)
    assert [(entry.name, entry.status) for entry in entries] == [("Tactical", "crash"), ("Veterans", "crash")]
    assert entries[0].lines == ["the roster loader refuses the import: reinforced True: reinforced armour needs an "
                                "armour save"]
    monkeypatch.undo()
    assert sweep.engages(battlescribe.load(MINI.parent / "bsdata" / "riot.rosz").data, "riot")[1] == ""


def test_a_folder_holding_a_file_that_is_not_a_catalogue_is_one_line(tmp_path, capsys):
    for name in ("mini.gst", "mini.cat"):
        (tmp_path / name).write_bytes((MINI / name).read_bytes())
    (tmp_path / "broken.cat").write_text("<catalogue unclosed", encoding="utf-8")
    markdown = tmp_path / "sweep.md"
    assert sweep.main(["--epic", str(tmp_path), "--markdown", str(markdown)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --epic {tmp_path / 'broken.cat'}: not a BattleScribe "
                                                   "catalogue (") and not markdown.exists()
