"""Mutated real lists: a figure of a list changed in a way that stays plausible (a digit of an
Armour, DC, Firepower, Off, Str, AP ... cell one up, or one down from 5 and more) must change
what the import writes or what it reports. An import that reads the mutant as it read the
list has read that figure wrong, or not at all, and said nothing: the fault the fuzzer's
mutants found. Each mutant that cannot change the import is listed below with why."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from oddscalc.lists import battlescribe
from oddscalc.errors import InputError

CORPUS = Path(__file__).parent.parent / "data" / "battlescribe" / "bsdata"
READ = {"Armour", "DC", "Firepower", "CC", "FF", "Off", "Str", "Def", "Res", "Arm", "HP", "Att", "AP", "Shots", "Save"}
CELL = re.compile(r'(<characteristic name="([^"]+)"[^>]*>)([^<]*)(</characteristic>)')
NOT_MODELLED = re.compile(r"AA$")  # anti-aircraft fire: no ground target, said in the report already

# (list, characteristic, value, mutated): why the import cannot change
UNCHANGED = {
    ("space_marines.rosz", "DC", "2", "3"): "a Thunderhawk's DC: an aircraft is no target of ground fire",
    ("space_marines.rosz", "CC", "6+", "5+"): "a Thunderhawk's CC: an aircraft fights no assault here",
    ("space_marines.rosz", "FF", "4+", "5+"): "a Thunderhawk's FF: likewise",
    ("dread_elves.rosz", "AP", "0", "1"): "a Repeater Handbow's AP: at short range it has AP 1 (§4.2), 0 or 1",
}


def xml_of(path: Path) -> str:
    data = path.read_bytes()
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.read(archive.namelist()[0]).decode("utf-8")
    return data.decode("utf-8")


def imported(text: str, name: str):
    result = battlescribe.read_xml(text.encode("utf-8"), name)
    return result.data, result.report()


def mutants(text: str):
    """(characteristic, value, mutated value, mutated list) for each digit of each cell the import reads."""
    for cell in CELL.finditer(text):
        name, value = cell.group(2), cell.group(3)
        if name not in READ:
            continue
        for digit in re.finditer(r"\d", value):
            if NOT_MODELLED.search(value[:digit.start()]):
                continue
            number = int(digit.group())
            changed = value[:digit.start()] + str(number + 1 if number < 5 else number - 1) + value[digit.end():]
            yield name, value, changed, text[:cell.start(3)] + changed + text[cell.end(3):]


LISTS = sorted(path.name for path in CORPUS.glob("*.ros*"))


@pytest.mark.parametrize("name", LISTS)
def test_a_figure_changed_in_a_real_list_changes_its_import_or_its_report(name):
    text = xml_of(CORPUS / name)
    try:
        battlescribe.load_xml(text.encode("utf-8"), name)
    except InputError:
        pytest.skip("a list with nothing to model (its refusal is tested in test_corpus)")
    original = imported(text, name)
    silent = [(name, cell, value, changed) for cell, value, changed, mutant in mutants(text)
              if imported(mutant, name) == original]
    assert [key for key in silent if key not in UNCHANGED] == []
    assert {key for key in UNCHANGED if key[0] == name} <= set(silent)  # each exception still holds


def test_the_mutants_reach_every_kind_of_figure():
    cells = {cell for name in LISTS for cell, *_ in mutants(xml_of(CORPUS / name))}
    assert cells == READ


BLANK_IS_A_VALUE = {"Arm": "no armour", "AP": "AP 0", "HP": "1 Health Point", "Str": "a weapon's: the wielder's",
                    "Res": "a mount's: the rider's", "Def": "a mount's: the rider's",
                    "Firepower": "a Titan's weapons, given by the entries chosen"}  # as the lists write them


def garbled(text: str):
    """(characteristic, value, garbled value, list) for each cell the import reads that holds a number: written
    `²` (not an ASCII number), left blank, and 0 where 0 is no figure a list gives (0 BP, 0x, Att 0)."""
    for cell in CELL.finditer(text):
        name, value = cell.group(2), cell.group(3)
        if name not in READ | {"Agi", "Dis"} or not re.search(r"[0-9]", value) or NOT_MODELLED.search(value):
            continue
        changes = ["²"] + ([""] if name not in BLANK_IS_A_VALUE else [])
        changes += [re.sub(r"[0-9]+(?=\s*(?:BP|x))", "0", value, count=1)] if re.search(r"[0-9]\s*(?:BP|x)", value) else []
        for changed in changes:
            yield name, value, changed, text[:cell.start(3)] + changed + text[cell.end(3):]


@pytest.mark.parametrize("name", LISTS)
def test_a_cell_that_is_not_a_number_is_said_in_the_report(name):
    """Issue 47's list mutants: Agility `²` dropped the agility, a blank Off counted 1, `0 BP` fired 0 barrage
    points, each with no word. Whatever the import makes of such a cell, its report says so."""
    text = xml_of(CORPUS / name)
    try:
        battlescribe.load_xml(text.encode("utf-8"), name)
    except InputError:
        pytest.skip("a list with nothing to model")
    data, report = imported(text, name)
    unsaid = []
    for cell, value, changed, mutant in garbled(text):
        try:
            new_data, new_report = imported(mutant, name)
        except InputError:
            continue  # refused whole: said
        if new_data != data and new_report == report or (new_data, new_report) == (data, report):
            unsaid.append((cell, value, changed))
    assert [key for key in unsaid if (name, *key[:2]) not in NO_TARGET] == []


NO_TARGET = {("space_marines.rosz", "DC", "2"): "a Thunderhawk's DC: an aircraft is no target of ground fire"}
