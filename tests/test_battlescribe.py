"""BattleScribe / New Recruit lists (.ros, .rosz): imported as rosters, studied like TOML files,
and hostile files refused with one line.

The fixtures in tests/data/battlescribe are written by hand to the roster schema, with the
figures of the public BSData catalogues (Space Marines and an Ork War Horde for Epic
Armageddon, Empire of Sonnstahl 2nd edition for The 9th Age). The expected rosters below
are worked out from those figures by hand.
"""

from __future__ import annotations

import io
import os
import shlex
import zipfile
from fractions import Fraction as F
from pathlib import Path

import pytest
from clirun import assert_refused, exact_json, run

from oddscalc import battlescribe, games
from oddscalc.battlescribe import epic as epic_list
from oddscalc.battlescribe import reader
from oddscalc.battlescribe.report import Mapped, cells, items
from oddscalc.cli import root_command
from oddscalc.cli.options import parse_query
from oddscalc.errors import InputError
from oddscalc.grid import matchups

DATA = Path(__file__).parent / "data" / "battlescribe"
MARINES, ORKS, EMPIRE = DATA / "marines.rosz", DATA / "orks.rosz", DATA / "empire.ros"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" '
        'name="x" gameSystemName="{system}" gameSystemRevision="{revision}"><forces><force name="f">'
        "<selections>{selections}</selections></force></forces></roster>")


def ros(tmp_path: Path, selections: str, system: str = "Epic Armageddon", revision: str = "38",
        name: str = "list.ros") -> Path:
    path = tmp_path / name
    path.write_text(HEAD.format(system=system, revision=revision, selections=selections), encoding="utf-8")
    return path


def unit_selection(name: str, number: int, **characteristics: str) -> str:
    cells_xml = "".join(f'<characteristic name="{key.replace("_", " ")}">{value}</characteristic>'
                        for key, value in characteristics.items())
    return (f'<selection name="{name}" number="1" type="unit"><costs><cost name="pts" value="100"/></costs>'
            f'<selections><selection name="{name}" number="{number}" type="model"><profiles>'
            f'<profile name="{name}" typeName="Unit"><characteristics>{cells_xml}</characteristics></profile>'
            "</profiles></selection></selections></selection>")


# --- the fixtures import as the catalogues' figures say ---------------------------------

def test_an_epic_formation_with_upgrades_counts_every_unit_and_weapon():
    imported = battlescribe.load(MARINES)
    assert imported.game == "epic"
    tactical = imported.data["unit"][0]
    # 6 Tactical units + a Pair of Land Raiders (2 units); 300 + 125 + a 50-point Captain
    assert tactical == {
        "name": "Tactical Detachment", "points": 475, "kind": "infantry", "units": 8, "armour": "4+",
        "reinforced": False, "invulnerable": False,
        "weapon": [
            {"name": "Missile Launcher", "shots": 6, "ap": "5+", "at": "6+", "special": []},
            {"name": "Twin Lascannon", "shots": 4, "at": "4+", "special": []},  # 2x on each of 2 Land Raiders
            {"name": "Heavy Bolter", "shots": 2, "ap": "4+", "special": []},
        ]}


def test_a_war_engine_and_its_macro_weapon_and_a_barrage():
    units = {unit["name"]: unit for unit in battlescribe.load(MARINES).data["unit"]}
    warhound = units["Warhound Titan"]
    assert (warhound["kind"], warhound["units"], warhound["armour"], warhound["reinforced"]) == \
        ("armoured-vehicle", 1, "5+", True)
    assert warhound["weapon"] == [
        {"name": "Vulcan Mega-bolter", "shots": 4, "ap": "3+", "at": "5+", "special": []},  # "4x AP3/AT5+"
        {"name": "Plasma Blastgun", "shots": 2, "mw": "2+", "special": []}]  # "2x MW2+"
    # four Whirlwinds of 1BP each fire one 4 BP barrage (docs/rules.md §2.5)
    assert units["Whirlwinds"]["weapon"] == [{"name": "Whirlwind", "bp": 4, "special": []}]
    assert units["Whirlwinds"]["points"] == 300


def test_what_is_not_modelled_is_reported_by_unit_weapon_and_text():
    report = battlescribe.load(MARINES).report()
    assert any(line.startswith("Warhound Titan: a war engine (DC 3)") for line in report), report
    assert any("'Thick Rear Armour' not modelled" in line for line in report), report
    assert any("Land Raider (armoured-vehicle, armour 4+) counted as Tactical" in line for line in report)
    assert all(line.endswith("(imported without it)") for line in report)
    orks = battlescribe.load(ORKS)
    # the formation takes the armour of its largest group: six Boyz 5+, two Nobz counted as Boyz
    assert orks.data["unit"][0]["armour"] == "5+" and orks.data["unit"][0]["units"] == 8
    assert orks.report() == ["Warband: Nobz (infantry, armour 4+) counted as Boyz (infantry, armour 5+): a roster "
                             "formation has one kind and armour (imported without it)"]


def test_strict_leaves_out_every_unit_with_a_note():
    strict = battlescribe.load(MARINES, strict=True)
    assert [unit["name"] for unit in strict.data["unit"]] == ["Whirlwinds"]
    assert strict.left_out == ("Tactical Detachment", "Warhound Titan")
    assert all(line.endswith("(unit left out (--strict))") for line in strict.report())
    with pytest.raises(InputError, match="no unit of Epic Armageddon"):
        battlescribe.load(ORKS, strict=True)


def test_a_t9a_unit_and_a_character():
    imported = battlescribe.load(EMPIRE)
    assert imported.game == "t9a"
    marshal, infantry = imported.data["unit"]
    # Marshal: Plate Armour +3; Great Weapon Str +2, AP +2 on Str 4, AP 1; 140 + 10 points
    assert marshal == {"name": "Marshal", "points": 150, "models": 1, "health": 3, "defensive": 5, "resilience": 4,
                       "armour": 3, "flammable": False, "offensive": 5, "strength": 4,
                       "weapon": [{"name": "Great Weapon", "kind": "melee", "attacks": 3, "strength": 6, "ap": 3,
                                   "attributes": []}]}
    # 20 Heavy Infantry five wide: 5 front-rank attacks + 5 supporting + 5 from the Spear's extra rank
    assert infantry["models"] == 20 and infantry["armour"] == 2 and infantry["points"] == 160
    assert infantry["weapon"] == [{"name": "Spear", "kind": "melee", "attacks": 15, "ap": 1, "attributes": []}]
    assert imported.report() == ["Marshal, Marshal Offensive: offensive rule 'Weapon Master' not modelled "
                                 "(imported without it)"]


def test_t9a_shooting_attributes_and_saves(tmp_path):
    model = ('<selection name="Archers" number="1" type="unit"><selections><selection name="Archer" number="10" '
             'type="model"><profiles>'
             '<profile name="D" typeName="2 Defensive"><characteristics><characteristic name="HP">2</characteristic>'
             '<characteristic name="Def">4</characteristic><characteristic name="Res">3</characteristic>'
             '<characteristic name="Arm">1</characteristic><characteristic name="Rules">Aegis (5+), Flammable'
             '</characteristic></characteristics></profile>'
             '<profile name="O" typeName="3 Offensive"><characteristics><characteristic name="Att">2</characteristic>'
             '<characteristic name="Off">4</characteristic><characteristic name="Str">3</characteristic>'
             '<characteristic name="AP">0</characteristic><characteristic name="Rules">Longbow (3+), Lethal Strike, '
             'Multiple Wounds (D3)</characteristic></characteristics></profile>'
             '<profile name="Longbow" typeName="6 Ranged Weapon"><characteristics>'
             '<characteristic name="Shots">1</characteristic><characteristic name="Str">3</characteristic>'
             '<characteristic name="AP">1</characteristic><characteristic name="Attributes">Volley Fire, Flaming '
             'Attacks</characteristic></characteristics></profile>'
             '</profiles></selection></selections></selection>')
    path = ros(tmp_path, model, system="The 9th Age: Fantasy Battles 2nd Edition 2024", revision="56")
    unit = battlescribe.load(path).data["unit"][0]
    assert (unit["health"], unit["armour"], unit["aegis"], unit["flammable"]) == (2, 1, "5+", True)
    melee, shooting = unit["weapon"]
    # 10 models five wide, Attack Value 2: 5 × 2 in front + 5 supporting attacks of 1
    assert melee == {"name": "Hand weapon", "kind": "melee", "attacks": 15, "multiple_wounds": "d3",
                     "attributes": ["lethal-strike"]}
    assert shooting == {"name": "Longbow", "kind": "shooting", "attacks": 10, "aim": "3+", "ap": 1,
                        "multiple_wounds": "d3", "attributes": ["flaming", "lethal-strike"]}


# --- one grid cell equals the same query typed by hand ----------------------------------

@pytest.mark.parametrize("grid, attacker, weapon, target, query, expected", [
    ((MARINES, "--against", ORKS), "Warhound Titan", "Vulcan Mega-bolter", "Warband",
     "epic shoot --shots 4 --to-hit 3+ --units 8 --armour 5+", F(4) * F(2, 3) * F(2, 3)),
    ((MARINES, "--against", ORKS), "Whirlwinds", "Whirlwind", "Warband",
     "epic barrage --bp 4 --formation 8 --armour 5+", F(6) * F(1, 2) * F(2, 3)),  # 2 templates × 3 units
    ((MARINES, "--against", ORKS), "Warhound Titan", "Plasma Blastgun", "Warband",
     "epic shoot --shots 2 --to-hit 2+ --units 8 --armour 5+ --weapon macro", F(2) * F(5, 6)),
    ((EMPIRE,), "Heavy Infantry", "Spear", "Heavy Infantry",
     "t9a melee --attacks 15 --offensive 3 --defensive 3 --strength 3 --resilience 3 --armour 2 --ap 1 "
     "--models 20 --health 1", F(15) * F(1, 2) * F(1, 2) * F(5, 6)),
    ((EMPIRE,), "Marshal", "Great Weapon", "Heavy Infantry",
     "t9a melee --attacks 3 --offensive 5 --defensive 3 --strength 6 --resilience 3 --armour 2 --ap 3 "
     "--models 20 --health 1", F(3) * F(2, 3) * F(5, 6)),
])
def test_a_grid_cell_of_a_list_is_the_query_typed_by_hand(capsys, grid, attacker, weapon, target, query, expected):
    """The cell's attack has the exact rationals of the query typed by hand, and the grid
    prints the mean that the rules give."""
    roster = games.load_roster(grid[0])
    targets = games.load_roster(grid[2], roster.game.name) if len(grid) > 1 else roster
    pair = next(pair for pair in matchups(roster.game, roster.units, targets.units, False)
                if (pair.attacker.name, pair.weapon.name, pair.target.name) == (attacker, weapon, target))
    typed = parse_query(root_command(), "oddscalc " + query).attack
    cell, hand = pair.attack.exact(fractions=True), typed.exact(fractions=True)
    assert list(cell) == list(hand) and all(list(cell[name]) == list(hand[name]) for name in cell)
    main = roster.game.main
    assert sum(k * p for k, p in enumerate(cell[main])) == expected
    answer = exact_json(capsys, "grid", *grid)
    row = next(row for row in answer["rows"]
               if (row["attacker"], row["weapon"], row["target"]) == (attacker, weapon, target))
    assert row["mean"] == pytest.approx(float(expected), abs=1e-12)
    assert row["query"] == "oddscalc " + query or shlex.split(row["query"])[1:3] == shlex.split(query)[:2]


def test_a_list_works_wherever_a_roster_file_does(capsys):
    roster = games.load_roster(MARINES)
    assert roster.game.name == "epic" and len(roster.units) == 3 and roster.notes
    result = run(capsys, "profiles", "--file", EMPIRE)
    assert result.code == 0 and "Heavy Infantry" in result.out and "Spear (15 attacks, AP 1)" in result.out
    assert "note (empire.ros): Marshal" in result.err
    result = run(capsys, "grid", MARINES, "--against", ORKS, "--trials", "2000", "--seed", "1")
    assert result.code == 0 and "Warband" in result.out
    assert result.err.count("note (marines.rosz)") == 5 and result.err.count("note (orks.rosz)") == 1
    assert_refused(capsys, "grid", MARINES, "--against", EMPIRE, mentions=("--against", "not epic"))


# --- the import command -----------------------------------------------------------------

def test_import_prints_a_roster_that_reads_back_the_same(capsys, tmp_path):
    result = run(capsys, "import", MARINES)
    assert result.code == 0
    assert result.err.count("note: ") == 5
    saved = tmp_path / "army.toml"
    saved.write_text(result.out, encoding="utf-8")
    assert games.load_roster(saved).units == games.load_roster(MARINES).units
    assert result.out.startswith("# Imported by oddscalc from marines.rosz.")


def test_import_writes_the_file_or_nothing(capsys, tmp_path):
    target = tmp_path / "army.toml"
    result = run(capsys, "import", EMPIRE, "--write", target, "--strict")
    assert result.code == 0 and result.out == f"wrote 1 unit of t9a to {target}\n"
    assert [unit.name for unit in games.load_roster(target).units] == ["Heavy Infantry"]
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "army.txt", mentions=("--write", ".toml"))
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "nowhere" / "a.toml",
                   mentions=("--write", "does not exist"))
    assert_refused(capsys, "import", DATA / "missing.rosz", mentions=("missing.rosz", "no such file"))
    assert sorted(os.listdir(tmp_path)) == ["army.toml"]  # no temporary file left behind


# --- the Epic Firepower notation --------------------------------------------------------

@pytest.mark.parametrize("firepower, notes, expected", [
    ("AP5+/AT6+", "", ({"ap": "5+", "at": "6+"}, [], None, 1)),
    ("4x AP3/AT5+", "", ({"ap": "3+", "at": "5+"}, [], None, 4)),
    ("2x MW2+", "Slow Firing, Forward Arc", ({"mw": "2+"}, [], None, 2)),
    ("MW2+", "Titan Killer (D3)", ({"mw": "2+"}, ["titan-killer"], None, 1)),
    ("MW3+, TK(D3)", "", ({"mw": "3+"}, ["titan-killer"], None, 1)),
    ("1BP", "Indirect Fire", ({}, [], 1, 1)),
    ("BP 3, Disrupt", "", ({}, ["disrupt"], 3, 1)),
    ("3BP", "Macro-weapon", ({}, ["macro"], 3, 1)),
    ("AT4+", "Lance", ({"at": "4+"}, ["lance"], None, 1)),
    ("AP4+", "Sniper, Ignore Cover", ({"ap": "4+"}, ["sniper", "ignore-cover"], None, 1)),
    ("AP4+/AT4+", "Macro-weapon", ({"mw": "4+"}, [], None, 1)),
    ("AP5+/AA5+", "", ({"ap": "5+"}, [], None, 1)),
])
def test_the_firepower_notation(firepower, notes, expected):
    mapped = Mapped({"name": "Formation"})
    line = epic_list._line("Gun", 1, firepower, notes, mapped)
    assert (line.fields, line.special, line.bp, line.copies) == expected
    assert [note.text for note in mapped.notes if "D-value" not in note.text] == []


@pytest.mark.parametrize("firepower, notes, note", [
    ("AP5+, Wibble", "", "Firepower 'Wibble' not understood"),
    ("AP5+", "Heat Ray", "note 'Heat Ray' not modelled"),
    ("MW2+", "TK(D3)", "TK(D3): the D-value counts only against a war engine"),
    ("Special", "", "no AP, AT, MW or BP value"),
])
def test_what_the_notation_cannot_say_is_a_note(firepower, notes, note):
    mapped = Mapped({"name": "Formation"})
    epic_list._line("Gun", 1, firepower, notes, mapped)
    assert any(note in item.text and item.weapon == "Gun" for item in mapped.notes), mapped.notes


@pytest.mark.parametrize("firepower", ["Small Arms", "Assault Weapons", "Assault Weapon", "AA5+"])
def test_firefight_close_combat_and_anti_aircraft_weapons_do_not_shoot(firepower):
    mapped = Mapped({"name": "Formation"})
    assert epic_list._line("Gun", 1, firepower, "Extra Attacks (+1)", mapped) is None
    assert mapped.notes == []


def test_cells_and_items_split_as_battlescribe_writes_them():
    assert cells("Bolters<BR><BR>Missile Launcher") == ["Bolters", "Missile Launcher"]
    assert cells("30cm<br/>and (15cm)") == ["30cm", "and (15cm)"]
    assert items("Multiple Wounds (D3, Clipped), Poison Attacks, -") == ["Multiple Wounds (D3, Clipped)",
                                                                       "Poison Attacks"]


def test_barrages_of_a_formation_add_up_and_keep_only_shared_abilities(tmp_path):
    selections = (unit_selection("Battery", 3, Type="Armoured Vehicle", Armour="5+", Weapons="Basilisk",
                                 Firepower="AP4+/AT4+ or 1BP", Notes="-")
                  .replace("</profiles>", '<profile name="Earthshaker" typeName="Weapon"><characteristics>'
                                          '<characteristic name="Firepower">2BP, Disrupt</characteristic>'
                                          '<characteristic name="Notes">Indirect Fire</characteristic>'
                                          "</characteristics></profile></profiles>"))
    imported = battlescribe.load(ros(tmp_path, selections))
    weapons = imported.data["unit"][0]["weapon"]
    # three Earthshakers of 2 BP: one 6 BP barrage, disrupt on every weapon of it
    assert {"name": "Earthshaker", "bp": 6, "special": ["disrupt"]} in weapons
    assert any("'AT4+ or 1BP' not understood" in line for line in imported.report()), imported.report()


# --- hostile and wrong files: one line each ---------------------------------------------

BOMB = ('<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa">'
        + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
        + ']><roster xmlns="http://www.battlescribe.net/schema/rosterSchema">&i;</roster>')


def zipped(tmp_path: Path, members: dict[str, bytes], name: str = "list.rosz") -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    path = tmp_path / name
    path.write_bytes(buffer.getvalue())
    return path


@pytest.mark.parametrize("make, mentions", [
    (lambda tmp: (tmp / "bomb.ros").write_text(BOMB) and tmp / "bomb.ros", ("bomb.ros", "entit")),
    (lambda tmp: zipped(tmp, {"list.ros": b"<" + b" " * 5_000_000 + b"/>"}), ("to 1", "zip bomb")),
    (lambda tmp: zipped(tmp, {f"{i}.ros": b"<x/>" for i in range(6)}), ("a zip of 6 files",)),
    (lambda tmp: zipped(tmp, {"a.ros": b"<x/>", "b.ros": b"<x/>"}), ("several .ros",)),
    (lambda tmp: (tmp / "list.rosz").write_bytes(b"not a zip") and tmp / "list.rosz", ("not a zip file",)),
    (lambda tmp: (tmp / "list.ros").write_text('<roster xmlns="http://example.com/other"/>') and tmp / "list.ros",
     ("namespace http://example.com/other", "expected a BattleScribe <roster>")),
    (lambda tmp: (tmp / "sm.cat.ros").write_text('<catalogue xmlns="http://www.battlescribe.net/schema/'
                                                 'catalogueSchema" name="x"/>') and tmp / "sm.cat.ros",
     ("a catalogue (.cat), not a roster",)),
    (lambda tmp: (tmp / "list.ros").write_text("<roster><forces>") and tmp / "list.ros",
     ("not well-formed XML at line 1",)),
    (lambda tmp: ros(tmp, '<selection name="Odd" number="many" type="unit"/>'),
     ("selection 'Odd'", "number 'many' is not a number")),
    (lambda tmp: ros(tmp, "", system="Warhammer 40,000 10th Edition", revision="3"),
     ("'Warhammer 40,000 10th Edition'", "Epic Armageddon and The 9th Age")),
    (lambda tmp: ros(tmp, "", system="BS2.0 Fantasy Battles: The 9th Age", revision="25"),
     ("'BS2.0 Fantasy Battles: The 9th Age' revision 25", "2nd edition (2.0 rules)")),
    (lambda tmp: ros(tmp, ""), ("no unit of Epic Armageddon",)),
    (lambda tmp: (tmp / "fifo.ros", os.mkfifo(tmp / "fifo.ros"))[0], ("not a regular file",)),
])
def test_a_hostile_or_wrong_file_gets_one_line(capsys, tmp_path, make, mentions):
    path = make(tmp_path)
    assert_refused(capsys, "import", path, mentions=(str(path.name), *mentions))
    assert_refused(capsys, "grid", path, mentions=(str(path.name),))


def test_a_zip_whose_directory_lies_is_read_only_up_to_the_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_XML_BYTES", 1000)
    path = zipped(tmp_path, {"list.ros": b"<" + b"a" * 50_000 + b"/>"})
    with pytest.raises(InputError, match="unzips to"):
        reader.read_bytes(path)
