"""The list builder (`oddscalc.lists.battlescribe.builder`), on a small game system and catalogue in
BSData's shape (tests/data/battlescribe/mini/): each construct the real catalogues use, with the
figures worked out by hand in the comments. The catalogue sweep is in test_sweep.py; the builder on
the real catalogues is tested by tests/battlescribe/test_corpus.py (the lists it built, and
rebuilding them)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from oddscalc.lists.battlescribe import builder, read_xml, reader
from oddscalc.lists.battlescribe.builder import BuildError, Pick

MINI = Path(__file__).parent.parent / "data" / "battlescribe" / "mini"
CATALOGUE = MINI / "mini.cat"


def built(*picks, cost_limit=None) -> reader.RosterFile:
    xml = builder.build(CATALOGUE, "Test", picks, cost_limit=cost_limit)
    return reader.parse(xml, "built.ros")


def tree(roster: reader.RosterFile) -> list[tuple]:
    """(depth, name, number, points) of every selection, depth first."""
    found = []

    def visit(selection, depth):
        found.append((depth, selection.name, selection.number, dict(selection.costs)["pts"]))
        for child in selection.children:
            visit(child, depth + 1)

    for selection in roster.selections():
        visit(selection, 0)
    return found


def profile(roster: reader.RosterFile, name: str) -> dict:
    selection = next(item for top in roster.selections() for item in top.walk() if item.name == name)
    return dict(selection.profiles[0].characteristics)


def test_a_formation_with_what_it_requires_and_its_costs_per_item_times_number():
    roster = built(Pick("Tactical", picks=(Pick("Captain"), Pick("Rhino", 3))))
    assert tree(roster) == [
        (0, "Tactical", 1, 325.0),            # 300, and 25 for each full two Rhinos: 3 // 2 = 1
        (1, "Captain", 1, 50.0),              # through a linked group, then a link
        (1, "Rhino", 3, 0.0),
        (1, "Tactical Squad", 6, 0.0),        # the link's min 6 adds them
        (1, "Lascannons", 2, 20.0),           # the group's min 3: its default first, up to its max 2 ...
        (1, "Missile Launchers", 1, 5.0)]     # ... then the next entry; 10 and 5 points each
    assert sum(top.cost() for top in roster.selections()) == 400
    assert profile(roster, "Tactical Squad")["Armour"] == "3+"  # set by the Captain in the parent
    rhino = next(item for item in roster.selections().__next__().walk() if item.name == "Rhino")
    assert rhino.rules == ("Transport",) and rhino.descriptions == ("Carries two infantry units.",)
    top = next(roster.selections())
    assert top.categories == ("Formations", "Veterans")  # a category added by an "or" condition group


def test_a_childs_number_is_per_parent_copy_times_the_parents():
    roster = built(Pick("Tactical", 2))
    # two formations at 300; each holds 6 squads, 2 Lascannons and 1 Missile Launcher
    assert tree(roster) == [(0, "Tactical", 2, 600.0), (1, "Tactical Squad", 12, 0.0), (1, "Lascannons", 4, 40.0),
                            (1, "Missile Launchers", 2, 10.0)]
    assert profile(roster, "Tactical Squad")["Armour"] == "4+"  # no Captain: the profile as written


def test_a_negative_cost_and_the_roster_cost_limit():
    roster = built(Pick("Tactical", picks=(Pick("Chaplain"),)), cost_limit=1000)
    # 300 − 10 (a game of at most 1,000 points), the Chaplain −15, the heavy weapons 25
    assert [row[3] for row in tree(roster)] == [290.0, -15.0, 0.0, 20.0, 5.0]
    assert next(roster.selections()).categories == ("Formations", "Veterans")
    assert tree(built(Pick("Tactical"), cost_limit=2000))[0][3] == 300.0  # over 1,000: no discount


def test_an_entry_hidden_until_a_choice_in_the_force_shows_it():
    with pytest.raises(BuildError, match=r"^'Veterans' is hidden here; offered: -Community-, Tactical$"):
        built(Pick("Veterans"))
    with pytest.raises(BuildError, match=r"'Terminators' is not offered here"):
        built(Pick("Terminators"))
    roster = built(Pick("-Community-", picks=(Pick("NetEA"),)), Pick("Veterans"))
    assert tree(roster)[2:] == [(0, "Veterans", 1, 175.0), (1, "Veteran Squad", 4, 0.0)]
    # the link's modifiers: a name, and text appended as the data give it
    assert profile(roster, "Veteran Squad")["Notes"] == "- (Veteran)"
    assert profile(roster, "Veteran Squad")["Armour"] == "4+"  # the instanceOf condition fails here


def test_the_force_entry_hidden_by_default_is_skipped_and_a_missing_one_is_named():
    xml = builder.build(CATALOGUE, "Test", ["Tactical"])
    assert b'name="Epic Armageddon" entryId="force-epic"' in xml
    with pytest.raises(BuildError, match=r"no force entry 'Detachment': Hidden Force, Epic Armageddon"):
        builder.build(CATALOGUE, "Test", ["Tactical"], force="Detachment")


def test_a_saved_list_is_the_same_bytes_each_time_and_imports():
    xml = builder.build(CATALOGUE, "Test", [Pick("Tactical", picks=(Pick("Captain"), Pick("Rhino", 3)))])
    assert xml == builder.build(CATALOGUE, "Test", [Pick("Tactical", picks=(Pick("Captain"), Pick("Rhino", 3)))])
    imported = read_xml(xml, "built.ros")
    assert imported.report() == []
    assert imported.data["unit"] == [{
        "name": "Tactical", "points": 400, "units": 6, "kind": "infantry", "armour": "3+", "reinforced": False,
        "invulnerable": False, "thick_rear_armour": False, "vehicles": 3, "vehicle_armour": "5+",
        "vehicle_reinforced": False,
        "weapon": [{"name": "Missile Launcher", "shots": 6, "ap": "5+", "at": "6+", "special": []}]}]


def test_write_zips_a_rosz_as_the_apps_do(tmp_path):
    xml = builder.build(CATALOGUE, "Test", ["Tactical"])
    builder.write(tmp_path / "list.rosz", xml)
    builder.write(tmp_path / "list.ros", xml)
    with zipfile.ZipFile(tmp_path / "list.rosz") as archive:
        assert [(info.filename, info.date_time) for info in archive.infolist()] == [("list.ros", (2026, 1, 1, 0, 0, 0))]
    assert reader.read_bytes(tmp_path / "list.rosz") == xml == (tmp_path / "list.ros").read_bytes()


def test_the_spec_command_builds_and_checks_lists(tmp_path, capsys):
    spec = tmp_path / "lists.toml"
    spec.write_text('[[list]]\nfile = "one.rosz"\nname = "One"\ncatalogue = "mini.cat"\ncost_limit = 1000\n'
                    'select = [{ entry = "Tactical", select = [{ entry = "Rhino", number = 2 }] }]\n')
    arguments = [str(spec), "--data", str(tmp_path), "--data", str(MINI), "--out", str(tmp_path)]
    assert builder.main([*arguments, "--check"]) == 1
    assert capsys.readouterr().out.splitlines() == ["differs: one.rosz", "0 of 1 lists as built"]
    assert builder.main(arguments) == 0
    roster = reader.parse(reader.read_bytes(tmp_path / "one.rosz"), "one.rosz")
    assert tree(roster)[0] == (0, "Tactical", 1, 315.0)  # 300 + 25 − 10
    assert builder.main([*arguments, "--check"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 of 1 lists as built"
    spec.write_text(spec.read_text().replace("mini.cat", "other.cat"))
    with pytest.raises(BuildError, match="other.cat: not in"):
        builder.main(arguments)
