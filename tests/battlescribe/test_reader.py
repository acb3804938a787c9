"""The roster reader (`oddscalc.lists.battlescribe.reader`): the records it keeps from a .ros or .rosz,
the lists the apps saved, and hostile or wrong files refused with one line, at its caps exactly."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest
from clirun import assert_refused

from oddscalc.lists import battlescribe
from oddscalc.lists.battlescribe import reader
from oddscalc.errors import InputError
from bslists import profile, ros, selection

CORPUS = Path(__file__).parent.parent / "data" / "battlescribe" / "bsdata"
STEEL, TITANS = CORPUS / "steel_legion.rosz", CORPUS / "titan_legions.rosz"


# --- hostile and wrong files: one line each -----------------------------------------------------


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


def damaged(tmp_path: Path, how: str) -> Path:
    """A .rosz whose deflate stream is corrupt ("stream"), or whose member name is flagged UTF-8
    but is not ("name")."""
    import random

    rng = random.Random(1)
    text = ("<roster>" + "".join(rng.choice("abcdefghij ") for _ in range(20_000)) + "</roster>").encode()
    data = bytearray(zipped(tmp_path, {"abc.ros": text}).read_bytes())
    if how == "stream":
        start = 30 + len("abc.ros")  # the local header, then the compressed bytes
        data[start + 100:start + 400] = b"\xff" * 300
    else:
        for at in [index for index in range(len(data)) if data[index:index + 7] == b"abc.ros"]:
            data[at] = 0xFF
        data[7] |= 0x08  # general purpose flag bit 11: the name is UTF-8, in the local header ...
        data[data.find(b"PK\x01\x02") + 9] |= 0x08  # ... and in the central directory
    path = tmp_path / f"{how}.rosz"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make, mentions", [
    (lambda tmp: (tmp / "bomb.ros").write_text(BOMB) and tmp / "bomb.ros", ("bomb.ros", "entit")),
    (lambda tmp: zipped(tmp, {"list.ros": b"<" + b" " * 5_000_000 + b"/>"}), ("to 1", "zip bomb")),
    (lambda tmp: zipped(tmp, {f"{i}.ros": b"<x/>" for i in range(6)}), ("a zip of 6 files",)),
    (lambda tmp: zipped(tmp, {"a.ros": b"<x/>", "b.ros": b"<x/>"}), ("several .ros",)),
    (lambda tmp: (tmp / "list.rosz").write_bytes(b"not a zip") and tmp / "list.rosz", ("neither a zip file nor XML",)),
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
    (lambda tmp: ros(tmp, "", system="Epic 40,000", revision="3"),  # a name with "Epic" in it is not Epic Armageddon
     ("'Epic 40,000'", "Epic Armageddon and The 9th Age")),
    (lambda tmp: ros(tmp, "", system="BS2.0 Fantasy Battles: The 9th Age", revision="25"),
     ("'BS2.0 Fantasy Battles: The 9th Age' revision 25", "2nd edition (2.0 rules)")),
    (lambda tmp: ros(tmp, ""), ("no unit of Epic Armageddon",)),
    (lambda tmp: (tmp / "fifo.ros", os.mkfifo(tmp / "fifo.ros"))[0], ("not a regular file",)),
    (lambda tmp: (tmp / "k.ros").write_text('<?xml version="1.0" encoding="klingon"?><roster/>') and tmp / "k.ros",
     ("the XML declares 'klingon' as its encoding",)),
    (lambda tmp: damaged(tmp, "stream"), ("a damaged zip (Error -3 while decompressing data",)),
    (lambda tmp: damaged(tmp, "name"), ("a damaged zip (a file name that is not UTF-8)",)),
])
def test_a_hostile_or_wrong_file_gets_one_line(capsys, tmp_path, make, mentions):
    path = make(tmp_path)
    assert_refused(capsys, "import", path, mentions=(str(path.name), *mentions))
    assert_refused(capsys, "grid", path, mentions=(str(path.name),))


APPS = sorted((Path(__file__).parent.parent / "data" / "battlescribe" / "apps").glob("*.rosz"))


BUILT = sorted(CORPUS.glob("*.rosz"))


@pytest.mark.parametrize("path", APPS + BUILT, ids=lambda path: path.name)
def test_the_costs_read_add_up_to_the_totals_the_app_wrote(path):
    """Lists saved by BattleScribe (and by our builder, which must write as it does): a selection's
    cost already counts its `number`, forces may hold forces, and the roster states the sums."""
    import xml.etree.ElementTree as ET

    data = reader.read_bytes(path)
    roster = reader.parse(data, str(path))
    namespace = f"{{{reader.NAMESPACE}}}"
    totals = {cost.get("name").strip(): float(cost.get("value"))
              for cost in ET.fromstring(data).findall(f"{namespace}costs/{namespace}cost")}
    assert "pts" in totals or "Points" in totals or "Point(s)" in totals
    for name, total in totals.items():
        assert sum(selection.cost(name) for selection in roster.selections()) == pytest.approx(total), name


@pytest.mark.parametrize("name, forces", [("belakor_and_fiends.rosz", 3), ("death_guard_and_1000_sons.rosz", 2)])
def test_forces_within_a_force_are_read(name, forces):
    path = APPS[0].parent / name
    assert len(reader.parse(reader.read_bytes(path), name).forces) == forces


def test_a_list_of_another_game_saved_by_the_app_gets_one_line(capsys):
    path = APPS[0].parent / "not_zipped.rosz"  # an unzipped .rosz, as one app saves it: read as XML
    assert_refused(capsys, "import", path, mentions=(path.name, "'Warhammer 40,000 8th Edition'",
                                                     "Epic Armageddon and The 9th Age"))


def test_a_zip_whose_directory_lies_is_refused_as_damaged_having_read_no_more_than_it_says(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_XML_BYTES", 1000)
    path = zipped(tmp_path, {"list.ros": b"<" + b"a" * 50_000 + b"/>"})
    with pytest.raises(InputError, match="list.ros unzips to 50,003 bytes: at most 1,000$"):
        reader.read_bytes(path)  # a truthful directory: refused before unzipping
    truthful = zipfile.ZipFile.infolist

    def lying(archive):  # the directory says 500 bytes, under the cap and the ratio
        infos = truthful(archive)
        for info in infos:
            info.file_size = 500
        return infos

    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    assert str(pytest.raises(InputError, reader.read_bytes, path).value) == (
        f"file {path}: a damaged zip (Bad CRC-32 for file 'list.ros')")


def test_a_lying_directory_costs_no_more_memory_than_the_truth(tmp_path, monkeypatch):
    import tracemalloc

    path = zipped(tmp_path, {"list.ros": b"<" + b"a" * 30_000_000 + b"/>"})  # 30 MB of XML in about 30 kB
    assert path.stat().st_size < 100_000
    truthful = zipfile.ZipFile.infolist

    def lying(archive):  # 500 bytes, says the directory
        infos = truthful(archive)
        for info in infos:
            info.file_size = 500
        return infos

    def peak(match: str) -> int:
        tracemalloc.start()
        with pytest.raises(InputError, match=match):
            reader.read_bytes(path)
        used = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return used

    truth = peak("unzips to 30,000,003 bytes")  # refused before unzipping: reading the file is all it costs
    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    assert peak("a damaged zip") < truth + 1_000_000  # a chunk more, not the 30 MB it inflates to


# --- the reader: records, and its limits -----------------------------------------------------------


def test_the_reader_keeps_forces_selections_costs_rules_and_their_text():
    roster = reader.parse(reader.read_bytes(TITANS), "titan_legions.rosz")
    assert (roster.system_name, roster.system_id, roster.system_revision) == \
        ("Epic Armageddon", "8f10-ee06-8dc1-beb6", "38")
    force = roster.forces[0]
    assert (force.name, force.catalogue, len(force.selections)) == (
        "Epic Armageddon", "Adeptus Mechanicus: Titan Legions", 4)
    warhounds = force.selections[2]
    assert (warhounds.name, warhounds.type, warhounds.number, warhounds.cost(), warhounds.cost("PTS")) == \
        ("Warhound Titan Battlegroup", "unit", 1, 500.0, 500.0)
    titan = warhounds.children[0]
    assert titan.number == 2 and [child.number for child in titan.children] == [2, 2, 2]
    assert titan.rule_text("critical hit: staggering blow").startswith("The unit takes a point of damage")
    assert titan.rule_text("Nothing") is None
    assert titan.profiles[0].get("DC") == "3" and titan.profiles[0].get("dc") is None  # as the game system spells it
    assert titan.profiles[0].get("Nothing", "none") == "none"


def test_negative_costs_are_read_and_a_units_points_are_its_sum():
    roster = reader.parse(reader.read_bytes(CORPUS / "undying_dynasties.rosz"), "x")
    archers = roster.forces[0].selections[2]
    assert [cost for _, cost in archers.costs] == [-58.0] and archers.cost() == 170.0


def test_a_rosz_of_four_members_at_the_file_cap_is_read(tmp_path, monkeypatch):
    xml = reader.read_bytes(STEEL)
    path = zipped(tmp_path, {"list.ros": xml, "a.png": b"x", "b.png": b"y", "c.txt": b"z"})
    assert battlescribe.load(path).data["unit"][0]["name"] == "Infantry Company"  # 4 members, one .ros
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", path.stat().st_size)  # one byte over: test_the_caps_are_inclusive
    assert reader.read_bytes(path) == xml


def test_the_reader_refuses_deep_nesting_odd_numbers_and_a_root_without_a_namespace(tmp_path):
    deep = "".join(f'<selection name="s{i}"><selections>' for i in range(41))
    deep += "".join("</selections></selection>" for _ in range(41))
    with pytest.raises(InputError, match="selection 's40': selections nested more than 40 deep"):
        battlescribe.load(ros(tmp_path, deep))
    with pytest.raises(InputError, match="selection 'Big': number '2000000' is out of range"):
        battlescribe.load(ros(tmp_path, '<selection name="Big" number="2000000"/>'))
    for text, problem in (("inf", "is out of range"), ("1e400", "is out of range"), ("nan", "is out of range"),
                          ("1.5", "is not a whole number"), ("-1", "is out of range")):
        with pytest.raises(InputError, match=f"selection 'Odd': number '{text}' {problem}$"):
            battlescribe.load(ros(tmp_path, f'<selection name="Odd" number="{text}"/>'))
    for text in ("inf", "-2000000"):
        with pytest.raises(InputError, match=f"selection 'Dear': cost value '{text}' is out of range"):
            battlescribe.load(ros(tmp_path, f'<selection name="Dear"><costs><cost name="pts" value="{text}"/>'
                                            "</costs></selection>"))
    with pytest.raises(InputError, match="selection 'Dear': cost value 'lots' is not a number"):
        battlescribe.load(ros(tmp_path, '<selection name="Dear"><costs><cost name="pts" value="lots"/></costs>'
                                        "</selection>"))
    (tmp_path / "bare.ros").write_text("<roster/>")
    with pytest.raises(InputError, match="<roster> without a namespace: expected a BattleScribe <roster>"):
        battlescribe.load(tmp_path / "bare.ros")
    (tmp_path / "cut.ros").write_text("<roster>\n  <forces>")
    with pytest.raises(InputError, match="not well-formed XML at line 2, column 11"):
        battlescribe.load(tmp_path / "cut.ros")


def test_any_dtd_is_refused_even_without_entities(tmp_path):
    (tmp_path / "dtd.ros").write_text('<?xml version="1.0"?><!DOCTYPE roster><roster xmlns="http://www.'
                                      'battlescribe.net/schema/rosterSchema" gameSystemName="Epic Armageddon"/>')
    with pytest.raises(InputError, match=r"refused: the XML declares dtd \(a roster has none; entity expansion is "
                                         "how XML bombs work\\)"):
        battlescribe.load(tmp_path / "dtd.ros")


def refused_with(path: Path, message: str) -> None:
    """Loading `path` gives exactly `file PATH: message` (the one line a user reads)."""
    with pytest.raises(InputError) as error:
        battlescribe.load(path)
    assert str(error.value) == f"file {path}: {message}"


def test_the_reader_says_exactly_which_file_and_what(tmp_path, monkeypatch):
    roster_xml = reader.read_bytes(STEEL)
    path = zipped(tmp_path, {f"{i}.png": b"x" for i in range(5)})
    refused_with(path, "a zip of 5 files: a .rosz holds one .ros")
    whole = zipped(tmp_path, {"steel.ros": roster_xml}, name="whole.rosz")
    (tmp_path / "cut.rosz").write_bytes(whole.read_bytes()[:-30])
    assert str(pytest.raises(InputError, battlescribe.load, tmp_path / "cut.rosz").value).startswith(
        f"file {tmp_path / 'cut.rosz'}: a damaged zip (")
    bomb = zipped(tmp_path, {"list.ros": b" " * 1_000_000}, name="bomb.rosz")
    ratio = 1_000_000 // zipfile.ZipFile(bomb).infolist()[0].compress_size
    refused_with(bomb, f"list.ros is compressed {ratio:,} to 1: more than 100 to 1 is not a roster (a zip bomb?)")
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(roster_xml) - 1)
    refused_with(whole, f"steel.ros unzips to {len(roster_xml):,} bytes: at most {len(roster_xml) - 1:,}")
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(roster_xml))  # at the cap: read
    assert battlescribe.load(whole).data["unit"][0]["name"] == "Infantry Company"
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", whole.stat().st_size - 1)
    refused_with(whole, f"{whole.stat().st_size:,} bytes: a .ros or .rosz roster is at most {whole.stat().st_size - 1:,} bytes")


def test_the_caps_are_inclusive(tmp_path, monkeypatch):
    """A file exactly at a cap is read; one over it is refused."""
    import xml.etree.ElementTree as ElementTree

    roster_xml = reader.read_bytes(STEEL)
    elements = sum(1 for _ in ElementTree.fromstring(roster_xml).iter())
    path = tmp_path / "steel.ros"
    path.write_bytes(roster_xml)
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements)
    assert battlescribe.load(path).game == "epic"
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements - 1)
    refused_with(path, f"more than {elements - 1:,} XML elements: not a roster")
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements)
    zipped_path = zipped(tmp_path, {"steel.ros": roster_xml})
    compressed = zipfile.ZipFile(zipped_path).infolist()[0].compress_size
    monkeypatch.setattr(reader, "MAX_RATIO", len(roster_xml) / compressed)  # exactly the file's ratio: read
    assert battlescribe.load(zipped_path).game == "epic"
    monkeypatch.setattr(reader, "MAX_RATIO", len(roster_xml) / compressed - 1e-9)  # just under it: refused
    with pytest.raises(InputError, match="more than .* to 1 is not a roster"):
        battlescribe.load(zipped_path)


def test_a_name_or_a_text_over_its_cap_is_refused(tmp_path):
    long = selection("x" * 201, profile("Guard", "Unit", Type="Infantry", Armour="5+"))
    refused_with(ros(tmp_path, long), "a name of 201 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…): at most 200")
    assert battlescribe.load(ros(tmp_path, selection("x" * 200, profile(
        "Guard", "Unit", Type="Infantry", Armour="5+", Weapons="Lasgun", Firepower="AP6+")))).data["unit"][0][
        "name"] == "x" * 200
    wordy = selection("Guards", profile("Guard", "Unit", Type="Infantry", Armour="5+", Notes="n" * 20_001))
    refused_with(ros(tmp_path, wordy), "a <characteristic> text of 20,001 characters: at most 20,000")


def test_the_reader_takes_what_an_app_may_leave_out_and_refuses_forces_nested_too_deep(tmp_path, monkeypatch):
    xml = ('\ufeff \n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="My List"><forces><force>'
           "<selections><selection><costs><cost/></costs><profiles><profile><characteristics><characteristic/>"
           "</characteristics></profile></profiles><rules><rule/></rules><categories><category/></categories>"
           "</selection></selections></force></forces></roster>")
    path = tmp_path / "saved.rosz"  # a .rosz saved unzipped, with a byte-order mark and blank lines first
    path.write_bytes(xml.encode("utf-8"))
    roster = reader.parse(reader.read_bytes(path), str(path))
    assert roster.name == "My List"
    bare = roster.forces[0].selections[0]
    assert (bare.name, bare.type, bare.number, bare.costs, bare.rules, bare.descriptions, bare.categories) == (
        "", "", 1, (("", 0.0),), ("",), ("",), ("",))
    assert bare.profiles == (reader.Profile("", "", (("", ""),)),) and bare.cost() == 0
    monkeypatch.setattr(reader, "MAX_DEPTH", 3)  # the roster's forces, theirs, and theirs: three levels
    nested = ('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force name="a"><forces>'
              '<force name="b"><forces><force name="c"/></forces></force></forces></force></forces></roster>')
    with pytest.raises(InputError, match="forces nested more than 3 deep$"):
        reader.parse(nested.encode(), "nested.ros")
    monkeypatch.setattr(reader, "MAX_DEPTH", 4)
    assert [force.name for force in reader.parse(nested.encode(), "nested.ros").forces] == ["a", "b", "c"]


def test_a_zip_of_a_member_not_named_ros_is_read_and_an_encrypted_one_refused(tmp_path, monkeypatch):
    roster_xml = reader.read_bytes(STEEL)
    assert reader.read_bytes(zipped(tmp_path, {"export.xml": roster_xml, "notes.txt": b"x"})) == roster_xml
    path = zipped(tmp_path, {"list.ros": roster_xml}, name="locked.rosz")
    data = bytearray(path.read_bytes())
    data[6] |= 0x01  # the encryption flag, in the local header and the central directory
    data[data.find(b"PK\x01\x02") + 8] |= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"locked.rosz: cannot be unzipped \(encrypted: the apps save a list without "
                                         r"a password\)$"):
        reader.read_bytes(path)
    data[8] = 99  # a compression method zipfile does not know, both places
    data[data.find(b"PK\x01\x02") + 10] = 99
    data[6] &= 0xFE
    data[data.find(b"PK\x01\x02") + 8] &= 0xFE
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"locked.rosz: cannot be unzipped \(.*compression"):
        reader.read_bytes(path)


def test_a_roster_without_names_reads_as_empty_text(tmp_path):
    path = tmp_path / "bare.ros"
    path.write_text('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force>'
                    "<selections/></force></forces></roster>")
    roster = reader.parse(path.read_bytes(), str(path))
    assert (roster.source, roster.name, roster.system_name, roster.system_id, roster.system_revision) == \
        (str(path), "", "", "", "")
    assert roster.forces[0].name == "" and roster.forces[0].catalogue == ""
    refused_with(path, "built with game system '(none named)': oddscalc imports Epic Armageddon and The 9th Age "
                       "(2nd edition) lists")
    refused_with(ros(tmp_path, "", system="The 9th Age: Fantasy Battles", revision=""),
                 "built with game system 'The 9th Age: Fantasy Battles' revision ?: oddscalc imports The 9th Age "
                 "lists built with the 2nd edition (2.0 rules) catalogues only")
    refused_with(ros(tmp_path, ""), "no unit of Epic Armageddon that oddscalc can model")


def test_the_readers_numbers_at_their_bounds_and_its_messages_whole(tmp_path, monkeypatch):
    def selection_xml(number: str, cost: str) -> bytes:
        return (f'<roster xmlns="{reader.NAMESPACE}"><forces><force><selections><selection name="S" '
                f'number="{number}"><costs><cost name="pts" value="{cost}"/></costs></selection></selections></force>'
                "</forces></roster>").encode()

    bare = reader.parse(selection_xml("0", "-1000000"), "edge.ros").forces[0].selections[0]
    assert (bare.number, bare.costs) == (0, (("pts", -1_000_000.0),)) and type(bare.number) is int
    top = reader.parse(selection_xml("1000000", "1000000"), "edge.ros").forces[0].selections[0]
    assert (top.number, top.cost()) == (1_000_000, 1_000_000.0)
    for number, cost, message in (("1000001", "0", "number '1000001' is out of range"),
                                  ("1", "-1000001", "cost value '-1000001' is out of range"),
                                  ("1", "1000001", "cost value '1000001' is out of range")):
        with pytest.raises(InputError) as error:
            reader.parse(selection_xml(number, cost), "edge.ros")
        assert str(error.value) == f"file edge.ros: selection 'S': {message}"
    monkeypatch.setattr(reader, "MAX_TEXT", 10)
    for text, refused in (("x" * 10, False), ("x" * 11, True)):  # the cap itself is allowed
        xml = selection_xml("1", "0").replace(b'number="1">', f'number="1"><rules><rule name="R"><description>'
                                                                f'{text}</description></rule></rules>'.encode())
        if refused:
            with pytest.raises(InputError, match="a <description> text of 11 characters: at most 10$"):
                reader.parse(xml, "e.ros")
        else:
            assert reader.parse(xml, "e.ros").forces[0].selections[0].descriptions == (text,)
    two = zipped(tmp_path, {"a.ros": b"<x/>", "b.ros": b"<x/>"}, name="two.rosz")
    with pytest.raises(InputError) as error:
        reader.read_bytes(two)
    assert str(error.value) == f"file {two}: a zip of several .ros files: a .rosz holds one"
    (tmp_path / "junk.rosz").write_bytes(b"\xef\xbb\xbf  junk")
    with pytest.raises(InputError) as error:
        reader.read_bytes(tmp_path / "junk.rosz")
    assert str(error.value) == f"file {tmp_path / 'junk.rosz'}: neither a zip file nor XML: a .rosz is a zipped .ros"
