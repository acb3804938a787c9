"""The Epic Armageddon import, rule by rule (docs/rules.md §4.1), on lists written by hand: each
formation's roster fields and its whole report, with the arithmetic in the comments. The real
catalogues' lists are in tests/test_bsdata_corpus.py."""

from __future__ import annotations

import itertools

from bslists import profile, ros, selection

from oddscalc import battlescribe

NUMBER = itertools.count()
FLAGS = {"reinforced": False, "invulnerable": False, "thick_rear_armour": False}


def unit(name: str, **cells: str) -> str:
    """A Unit profile: its cells, empty unless given."""
    return profile(name, "Unit", **{"Type": "Infantry", "Armour": "5+", "Weapons": "", "Firepower": "", "Notes": "",
                                    "Unit_Notes": "", **cells})


def imported(tmp_path, formation: str):
    path = ros(tmp_path, formation, name=f"list{next(NUMBER)}.ros")
    return battlescribe.read_xml(path.read_bytes(), path.name)


def test_counts_in_a_name_go_to_the_profiles_in_order(tmp_path):
    coven = selection("Coven", children=selection(
        "2x Haemonculi, 4x Grotesques", unit("Haemonculus", Armour="4+", Weapons="Pistol", Firepower="AP5+"),
        unit("Grotesque", Armour="4+", Weapons="Cleaver", Firepower="AP6+"), kind="model")
        + selection("Wracks", unit("Wrack", Armour="6+", Weapons="Splinter", Firepower="AP6+"),
                    unit("Wrack Leader", Armour="6+"), kind="model"))
    result = imported(tmp_path, coven)
    # "2x Haemonculi, 4x Grotesques": 2 and 4 (the plural is not the profile's name); "Wracks" names no
    # count: one of each profile. 2 + 4 + 1 + 1 units, the most numerous part's defence
    assert result.data["unit"] == [{
        "name": "Coven", "units": 8, "kind": "infantry", "armour": "4+", **FLAGS,
        "weapon": [{"name": "Pistol", "shots": 2, "ap": "5+", "special": []},
                   {"name": "Cleaver", "shots": 4, "ap": "6+", "special": []},
                   {"name": "Splinter", "shots": 1, "ap": "6+", "special": []}]}]
    assert result.report() == [
        "Coven: Wrack (infantry, armour 6+) counted as Grotesque (infantry, armour 4+): a roster formation's main "
        "part has one kind and one defence (counted as stated)",
        "Coven: Wrack Leader (infantry, armour 6+) counted as Grotesque (infantry, armour 4+): a roster formation's "
        "main part has one kind and one defence (counted as stated)"]


def test_counts_that_name_no_profile_are_reported(tmp_path):
    mixed = selection("Mixed", children=selection("2x Foo, 3x Bar", unit("Alpha", Weapons="Gun", Firepower="AP5+"),
                                                  unit("Beta"), unit("Gamma"), kind="model"))
    result = imported(tmp_path, mixed)
    assert result.data["unit"][0]["units"] == 3
    assert result.report() == [f"Mixed: the name '2x Foo, 3x Bar' gives no count for {name} (counted once per "
                               "selection)" for name in ("Alpha", "Beta", "Gamma")]


def test_weapon_profiles_structures_other_types_and_characters(tmp_path):
    tank = selection("Predator", unit("Predator", Type="Armoured Vehicle", Armour="4+"),
                     profile("Lascannon", "Weapon", Range="45cm", Firepower="2x AT4+&lt;BR&gt;and Small Arms",
                             Notes="-&lt;BR&gt;-"),
                     profile("Heavy Bolter", "Weapon", Range="30cm", Firepower="AP5+&lt;BR&gt;or AT6+",
                             Notes="&lt;BR&gt;"), kind="model", number=3)
    others = (selection("Bunker", profile("Bunker", "Structure", Armour="3+"))
              + selection("Shrine", unit("Shrine", Type="Building"))
              + selection("Chaplain", unit("Chaplain", Type="Character", Weapons="Crozius",
                                           Firepower="(Assault Weapons), MW",
                                           Unit_Notes="Invulnerable Save, Inspiring, Reinforced Armour"),
                          kind="upgrade"))
    result = imported(tmp_path, selection("Predators", children=tank + others))
    # three tanks: Lascannon 3 × 2 AT4+ (its Small Arms line is for firefights); the Heavy Bolter's "or"
    # line is its own weapon, the other mode of the first
    assert result.data["unit"] == [{
        "name": "Predators", "units": 3, "kind": "armoured-vehicle", "armour": "4+", **FLAGS,
        "weapon": [{"name": "Lascannon", "shots": 6, "at": "4+", "special": []},
                   {"name": "Heavy Bolter", "shots": 3, "ap": "5+", "special": []},
                   {"name": "Heavy Bolter (or AT6+)", "shots": 3, "at": "6+", "special": [],
                    "alternative": "Heavy Bolter"}]}]
    assert result.report() == [
        "Predators: structure 'Bunker' (fortifications, trenches) (not part of the target)",
        "Predators: Shrine: type 'Building' is not a target here (not a target)",
        "Predators: Chaplain: a character's invulnerable save (it protects the character alone) not modelled "
        "(imported without it)",
        "Predators: Chaplain: a character's reinforced save (it protects the character alone) not modelled "
        "(imported without it)"]


def test_units_and_shots_over_the_rosters_caps_are_counted_at_them(tmp_path):
    horde = selection("Horde", children=selection("Boyz", unit("Boy", Armour="6+", Weapons="3x Shoota",
                                                               Firepower="AP6+"), number=101, kind="model"))
    result = imported(tmp_path, horde)
    # 101 units, 3 Shootas each: 303 shots; a roster holds 100 units and 200 shots a weapon
    assert result.data["unit"] == [{
        "name": "Horde", "units": 100, "kind": "infantry", "armour": "6+", **FLAGS,
        "weapon": [{"name": "Shoota", "shots": 200, "ap": "6+", "special": []}]}]
    assert result.report() == ["Horde: 101 units: a roster formation has at most 100 (counted as 100)",
                               "Horde, Shoota: 303 shots: a roster weapon fires at most 200 (counted as 200)"]


def test_a_war_engine_whose_capacity_is_not_a_number_counts_one(tmp_path):
    stompa = profile("Stompa", "War Engine", Type="War Engine", Armour="4+", Weapons="Gun", Firepower="AP5+", Notes="",
                     Unit_Notes="Reinforced Armour", DC="lots", Crit="-")
    result = imported(tmp_path, selection("Stompa", stompa))
    assert result.data["unit"] == [{
        "name": "Stompa", "units": 1, "kind": "war-engine", "armour": "4+", **FLAGS, "reinforced": True,
        "damage_capacity": 1, "shields": 0, "critical": "none",
        "weapon": [{"name": "Gun", "shots": 1, "ap": "5+", "special": []}]}]
    assert result.report() == ["Stompa: damage capacity 'lots' not understood (counted as 1)"]


def test_a_sniper_note_marks_only_its_own_units_weapons(tmp_path):
    snipers = selection("Scouts", children=selection("Sniper", unit("Sniper", Weapons="Rifle", Firepower="AP5+",
                                                                    Unit_Notes="Sniper"), kind="model", number=2)
                        + selection("Gunners", unit("Gunner", Weapons="Rifle", Firepower="AP5+"), kind="model",
                                    number=2))
    result = imported(tmp_path, snipers)
    assert result.data["unit"][0]["weapon"] == [{"name": "Rifle", "shots": 2, "ap": "5+", "special": ["sniper"]},
                                                {"name": "Rifle (2)", "shots": 2, "ap": "5+", "special": []}]
    assert result.report() == []


def test_one_unit_in_two_without_that_weapon_is_reported(tmp_path):
    squad = selection("Squad", unit("Trooper", Weapons="Lasgun", Firepower="AP6+",
                                    Unit_Notes="One unit in every two has a Plasma Gun."), number=4, kind="model")
    result = imported(tmp_path, selection("Platoon", children=squad))
    assert result.data["unit"][0]["weapon"] == [{"name": "Lasgun", "shots": 4, "ap": "6+", "special": []}]
    assert result.report() == ["Platoon: Trooper: one unit in two has 'Plasma Gun', but no weapon of that name "
                               "(imported without it)"]


def test_aircraft_alone_are_the_target_and_beside_ground_units_are_not(tmp_path):
    jets = selection("Thunderbolts", unit("Thunderbolt", Type="Aircraft", Armour="6+", Weapons="Cannon",
                                          Firepower="AP4+/AT6+"), number=2, kind="model")
    result = imported(tmp_path, selection("Flight", children=jets))
    assert result.data["unit"] == [{"name": "Flight", "units": 2, "kind": "aircraft", "armour": "6+",
                                    "weapon": [{"name": "Cannon", "shots": 2, "ap": "4+", "at": "6+",
                                                "special": []}]}]
    escort = selection("Guards", unit("Guard", Weapons="Lasgun", Firepower="AP6+"), number=3, kind="model")
    result = imported(tmp_path, selection("Company", children=escort + jets))
    assert (result.data["unit"][0]["kind"], result.data["unit"][0]["units"]) == ("infantry", 3)
    assert result.report() == ["Company: Thunderbolt (aircraft) is not on the table with the formation (not part of "
                               "the target)"]


def test_counts_name_plurals_lines_start_in_any_case_and_a_star_marks_an_upgrade(tmp_path):
    raider = unit("Land Raider", Type="Armoured Vehicle", Armour="4+",
                  Weapons="*Twin Lascannon&lt;BR&gt;&lt;BR&gt;Hurricane",
                  Firepower="AT4+&lt;BR&gt;OR AP5+&lt;BR&gt;2x AP4+&lt;BR&gt;AND AT6+",
                  Notes="&lt;BR&gt;&lt;BR&gt;&lt;BR&gt;")
    tanks = selection("3x Land Raiders, 2x Lascannon", raider,
                      profile("Lascannons", "Weapon", Range="45cm", Firepower="AT5+", Notes=""), kind="model")
    result = imported(tmp_path, selection("Raiders", children=tanks))
    # "3x Land Raiders" names the Land Raider, "2x Lascannon" the Weapon profile "Lascannons"; "OR" and
    # "AND" lines continue the weapon above them, whatever their case
    assert result.data["unit"][0]["units"] == 3
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Twin Lascannon", "shots": 3, "at": "4+", "special": []},
        {"name": "Twin Lascannon (or AP5+)", "shots": 3, "ap": "5+", "special": [], "alternative": "Twin Lascannon"},
        {"name": "Hurricane", "shots": 6, "ap": "4+", "special": []},
        {"name": "Hurricane (AT6+)", "shots": 3, "at": "6+", "special": []},
        {"name": "Lascannons", "shots": 2, "at": "5+", "special": []}]
    assert result.report() == []


def test_a_war_engines_notes_and_a_capacity_below_one(tmp_path):
    knight = profile("Knight", "War Engine", Type="War Engine", Armour="5+", Weapons="Gun", Firepower="AP5+", Notes="",
                     Unit_Notes="Invulnerable Save (6+), 2 Power Fields, Halve units for the purpose of", DC="0",
                     Crit="Damaged")
    result = imported(tmp_path, selection("Knights", knight))
    # 2 power fields work as shields within an attack; "Damaged" with no text: one more point of damage
    assert result.data["unit"] == [{
        "name": "Knights", "units": 1, "kind": "war-engine", "armour": "5+", **FLAGS, "invulnerable": True,
        "damage_capacity": 1, "shields": 2, "critical": "damage",
        "weapon": [{"name": "Gun", "shots": 1, "ap": "5+", "special": []}]}]
    assert result.report() == ["Knights: Knight: damage capacity '0' not understood (counted as 1)"]


def test_an_other_mode_points_at_its_own_units_weapon_when_names_repeat(tmp_path):
    scouts = selection("Scouts", unit("Scout", Weapons="Gun", Firepower="AP6+"), kind="model")
    tanks = selection("Tanks", unit("Tank", Type="Armoured Vehicle", Armour="4+", Weapons="Gun&lt;BR&gt;",
                                    Firepower="AP4+&lt;BR&gt;or AT5+", Notes="&lt;BR&gt;"), kind="model")
    result = imported(tmp_path, selection("Mixed", children=scouts + tanks))
    # two weapons named Gun: the tank's is Gun (2), and its AT mode is that Gun's, not the scout's
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Gun", "shots": 1, "ap": "6+", "special": []},
        {"name": "Gun (2)", "shots": 1, "ap": "4+", "special": []},
        {"name": "Gun (or AT5+)", "shots": 1, "at": "5+", "special": [], "alternative": "Gun (2)"}]


def test_what_is_not_a_formation_is_a_list_option_or_left_out_with_its_points(tmp_path):
    community = selection("-Community-", kind="upgrade", children=selection("NetEA", kind="upgrade"))
    trenches = selection("Trenches", profile("Trench", "Structure", Armour="-"), points=25)
    spare = selection("Spare Parts", kind="unit", points=10)
    result = imported(tmp_path, community + trenches + spare + selection("Guard", unit(
        "Guard", Weapons="Lasgun", Firepower="AP6+"), points=100))
    assert [(unit["name"], unit["points"]) for unit in result.data["unit"]] == [("Guard", 100)]
    assert result.left_out == ("Trenches", "Spare Parts")
    assert result.report() == ["Trenches: structures (fortifications, trenches) only: not units (left out)",
                               "Spare Parts: the list gives no unit profile (left out)"]
