"""BattleScribe / New Recruit lists (.ros, .rosz) loaded as rosters: `battlescribe.load` and its
report, the `import` command and the header it writes, the game a list is for, and a grid cell of
real lists equal to the query typed by hand.

Lists built from the real catalogues are in tests/data/battlescribe/bsdata (test_corpus.py checks
them figure by figure); the importers' readings are in test_epic.py and test_t9a.py, the reader's
records and its refusals of hostile files in test_reader.py.
"""

from __future__ import annotations

import os
from fractions import Fraction as F
from pathlib import Path

import pytest
from clirun import assert_refused, exact_json, run

from oddscalc.lists import battlescribe, games
from oddscalc.core import pmf
from oddscalc.lists.battlescribe import reader
from oddscalc.query.words import parse_query
from oddscalc.errors import InputError
from oddscalc.studies.grid import matchups
from bslists import T9A_SYSTEM, model, profile, ros, selection

CORPUS = Path(__file__).parent.parent / "data" / "battlescribe" / "bsdata"
STEEL, TITANS, MARINES = CORPUS / "steel_legion.rosz", CORPUS / "titan_legions.rosz", CORPUS / "space_marines.rosz"
EMPIRE, ELVES = CORPUS / "sonnstahl.rosz", CORPUS / "dread_elves.rosz"
# --- one grid cell of real lists equals the same query typed by hand ------------------------------

@pytest.mark.parametrize("mine, theirs, attacker, weapon, target, query, expected", [
    # 4 Plasma Blastgun shots MW2+ at 13 infantry without armour: no save, every hit on another unit
    (TITANS, STEEL, "Warhound Titan Battlegroup", "Plasma Blastgun", "Infantry Company",
     "epic shoot --shots 4 --to-hit 2+ --units 13 --armour none --weapon macro", 4 * F(5, 6)),
    # 10 Great Weapon attacks (Off 4 vs Def 4: 4+; Str 6 vs Res 3: 2+; AP 3 past Armour 2: no save)
    (EMPIRE, ELVES, "Imperial Guard", "Great Weapon", "Corsairs",
     "t9a melee --attacks 10 --offensive 4 --defensive 4 --strength 6 --resilience 3 --armour 2 --ap 3 "
     "--models 10 --health 1", 10 * F(1, 2) * F(5, 6)),
    # 10 Repeater Handbow shots at Aim 3+, Poison: a natural 6 wounds; Str 3 vs Res 3 4+; AP 1 at short range:
    # Armour 3 - 1 saves on 5+
    (ELVES, EMPIRE, "Black Cloaks", "Repeater Handbow", "Imperial Guard",
     "t9a shoot --shots 10 --aim 3+ --strength 3 --ap 1 --resilience 3 --armour 3 --poison --models 20 --health 1",
     10 * (F(1, 6) + F(3, 6) * F(1, 2)) * F(2, 3)),
])
def test_a_grid_cell_of_a_real_list_is_the_query_typed_by_hand(capsys, mine, theirs, attacker, weapon, target,
                                                                query, expected):
    roster = games.load_roster(mine)
    targets = games.load_roster(theirs, roster.game.name)
    pair = next(pair for pair in matchups(roster.game, roster.units, targets.units, False)
                if (pair.attacker.name, pair.weapon.name, pair.target.name) == (attacker, weapon, target))
    typed = parse_query("oddscalc " + query).attack
    assert pair.attack == typed
    assert pmf.mean(pair.attack.exact(fractions=True)[roster.game.main]) == expected
    answer = exact_json(capsys, "grid", mine, "--against", theirs)
    row = next(row for row in answer["rows"] if (row["attacker"], row["weapon"], row["target"]) ==
               (attacker, weapon, target))
    assert row["mean"] == pytest.approx(float(expected), abs=1e-12)
    assert row["query"].endswith(" --exact")
    assert parse_query(row["query"].removesuffix(" --exact")).attack == typed


def test_a_list_works_wherever_a_roster_file_does(capsys):
    roster = games.load_roster(TITANS)
    assert roster.game.name == "epic" and len(roster.units) == 3 and len(roster.notes) == 2
    result = run(capsys, "profiles", "--file", EMPIRE)
    assert result.code == 0 and "Imperial Guard" in result.out and "Great Weapon (10 attacks, S 6, AP 3)" in result.out
    assert "note (sonnstahl.rosz): Marshal, Marshal: Lance" in result.err
    result = run(capsys, "grid", STEEL, "--against", TITANS, "--trials", "2000", "--seed", "1")
    assert result.code == 0 and "Warlord Battle Titan" in result.out
    assert result.err.count("note (steel_legion.rosz)") == 2 and result.err.count("note (titan_legions.rosz)") == 2  # none on assaults: a commander fights as its own kind
    assert_refused(capsys, "grid", STEEL, "--against", EMPIRE, mentions=("--against", "not epic"))


def test_strict_leaves_out_every_unit_with_a_line():
    strict = battlescribe.load(TITANS, strict=True)
    assert [unit["name"] for unit in strict.data["unit"]] == ["Warhound Titan Battlegroup"]
    assert strict.left_out == ("Warlord Battle Titan", "Reaver Battle Titan")
    assert all(line.endswith("(unit left out (--strict))") for line in strict.report())
    with pytest.raises(InputError, match=r"no unit of The 9th Age \(2nd edition\) that oddscalc can model \(4 left "
                                         r"out: Dread Prince: Shield: .* \(unit left out \(--strict\)\); 5 more lines in "
                                         r"the report; see the report without --strict\)"):
        battlescribe.load(CORPUS / "dread_elves.rosz", strict=True)


def test_a_renamed_formation_is_named_in_its_lines_as_imported(tmp_path):
    unit = profile("Guard", "Unit", Type="Infantry", Armour="5+", Weapons="Lasgun", Firepower="AP6+",
                   Unit_Notes="Bodyguard")
    imported = battlescribe.load(ros(tmp_path, selection("Platoon", unit) + selection("Platoon", unit)))
    assert [u["name"] for u in imported.data["unit"]] == ["Platoon", "Platoon (2)"]
    assert imported.report() == ["Platoon: Guard: unit note 'Bodyguard' not modelled (imported without it)",
                                 "Platoon (2): Guard: unit note 'Bodyguard' not modelled (imported without it)"]


# --- the import command -----------------------------------------------------------------------

def test_import_prints_a_roster_that_reads_back_the_same(capsys, tmp_path):
    result = run(capsys, "import", TITANS)
    assert result.code == 0 and result.err.count("note: ") == 2
    saved = tmp_path / "army.toml"
    saved.write_text(result.out, encoding="utf-8")
    assert games.load_roster(saved).units == games.load_roster(TITANS).units
    assert result.out.startswith("# Imported by oddscalc from titan_legions.rosz.")


def test_import_writes_the_file_or_nothing(capsys, tmp_path):
    target = tmp_path / "army.toml"
    result = run(capsys, "import", EMPIRE, "--write", target, "--strict")
    assert result.code == 0 and result.out == f"wrote 1 unit of t9a to {target}\n"
    assert [unit.name for unit in games.load_roster(target).units] == ["Imperial Guard"]
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "army.txt", mentions=("--write", ".toml"))
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "nowhere" / "a.toml",
                   mentions=("--write", "does not exist"))
    assert_refused(capsys, "import", CORPUS / "missing.rosz", mentions=("missing.rosz", "no such file"))
    assert sorted(os.listdir(tmp_path)) == ["army.toml"]  # no temporary file left behind


def test_the_toml_header_says_how_the_list_was_read():
    assert battlescribe.load(EMPIRE).header()[:3] == [
        "Imported by oddscalc from sonnstahl.rosz.",
        "Edit freely: every field is documented in `oddscalc profiles --help` and docs/rules.md.",
        "Melee attacks count a unit 5 models wide: the front rank and one rank of supporting attacks (two with "
        "a Spear)."]
    assert battlescribe.load(TITANS).header()[2] == ("Shots count every unit's copies of a weapon; a formation's "
                                                     "barrages fire as one.")
    assert battlescribe.load(TITANS).header()[3].startswith("Note: Warlord Battle Titan: Warlord Titan: critical")


# --- the game a list is for, and figures a roster cannot hold ---------------------------------

def test_roster_reads_a_list_for_the_game_asked_and_passes_strict(tmp_path):
    assert games.imported_roster(STEEL, "epic").game.name == "epic"
    with pytest.raises(InputError) as error:
        games.imported_roster(STEEL, "t9a")
    assert (error.value.name, error.value.value, error.value.allowed) == ("file", str(STEEL),
                                                                          "holds epic units, not t9a")
    strict = games.imported_roster(TITANS, strict=True)
    assert [unit.name for unit in strict.units] == ["Warhound Titan Battlegroup"]
    assert [unit["name"] for unit in battlescribe.load_xml(reader.read_bytes(TITANS), "t").data["unit"]] == [
        "Warlord Battle Titan", "Warhound Titan Battlegroup", "Reaver Battle Titan"]  # strict is off by default


def test_the_game_system_is_matched_by_its_id_before_its_name(tmp_path):
    third = ('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" gameSystemId="8c9a-3026-84b4-cf16" '
             'gameSystemName="Epic Armageddon" gameSystemRevision="9"><forces/></roster>')
    (tmp_path / "third.ros").write_text(third)
    with pytest.raises(InputError, match="2nd edition"):  # the 3rd edition's id, whatever its name says
        battlescribe.load(tmp_path / "third.ros")
    assert battlescribe.load(STEEL).game == "epic"  # the real lists carry the id


def test_characteristics_out_of_bounds_or_unread_are_reported_never_written_silently(tmp_path):
    archers = selection("Archers", children=model(
        "Archer", 10, defensive={"HP": "1000000", "Def": "abc", "Res": "0", "Arm": "9"},
        offensive=[{"Att": "2", "Off": "4", "Str": "1000000", "AP": "11", "Rules": ""}]))
    imported = battlescribe.load(ros(tmp_path, archers, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    assert (unit["health"], unit["defensive"], unit["resilience"], unit["armour"], unit["strength"]) == (20, 1, 1, 6, 10)
    assert unit["weapon"][0]["ap"] == 10
    assert imported.report() == [
        "Archers: Health Points 1000000: a roster holds 1 to 20 (counted as 20)",
        "Archers, Archer Defensive: Def 'abc' not understood (counted as 1)",
        "Archers: Res 0: a roster holds 1 to 10 (counted as 1)",
        "Archers: Armour 9: a roster holds 0 to 6 (counted as 6)",
        "Archers: Str 1000000: a roster holds 1 to 10 (counted as 10)",
        "Archers, Hand Weapon: AP 11: a roster holds 0 to 10 (counted as 10)"]
    games.imported_roster(ros(tmp_path, archers, **T9A_SYSTEM, name="again.ros"))  # and the roster it makes loads
    guards = [selection(f"Guards {armour}", profile("Guard", "Unit", Type="Infantry", Armour=armour, Weapons="Lasgun",
                                                    Firepower="AP6+")) for armour in ("abc", "9+", "-", "4+")]
    imported = battlescribe.load(ros(tmp_path, "".join(guards), name="epic.ros"))
    assert [unit["armour"] for unit in imported.data["unit"]] == ["none", "none", "none", "4+"]
    assert imported.report() == ["Guards abc: Guard: Armour 'abc' not understood (counted as no armour save)",
                                 "Guards 9+: Guard: Armour '9+' not understood (counted as no armour save)"]
