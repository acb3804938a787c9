"""Read a BattleScribe / New Recruit roster (`.ros` XML, `.rosz` the same zipped) safely into
plain records: forces, selections (nested), their profiles, rules and costs.

Safe to open what someone posted on a forum: the XML is parsed by `defusedxml` with no DTD,
no entity expansion and no external references; a zip is read with caps on its members,
their size and its compression ratio, checked in its directory before anything is unzipped;
a directory that understates a member's size is a damaged zip (zipfile reads no more than
it says, then checks the CRC). Every problem is one `InputError` naming the file (and the element).
"""

from __future__ import annotations

from typing import Any

import io
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from ...errors import InputError
from ...core.record import record

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
OTHER_FILES = {  # what a BattleScribe file that is not a roster is
    "catalogue": "a catalogue (.cat), not a roster",
    "gameSystem": "a game system (.gst), not a roster",
}
MAX_FILE_BYTES = 8 << 20  # a .ros or .rosz on disk
MAX_XML_BYTES = 16 << 20  # the roster's XML once unzipped
MAX_MEMBERS = 4  # a .rosz holds one .ros
MAX_RATIO = 100  # uncompressed / compressed; a roster's XML compresses about 10:1
CHUNK = 1 << 16  # bytes unzipped at a time
MAX_ELEMENTS = 200_000
MAX_DEPTH = 40  # selections within selections
MAX_NAME = 200  # characters of a name (the catalogues' longest is 75)
MAX_TEXT = 20_000  # characters of a characteristic or a rule's text (the catalogues' longest is about 600)


@record
class Profile:
    """A profile: its name, its type (`Unit`, `Weapon` ...) and its characteristics in order."""

    name: str
    type_name: str
    characteristics: tuple[tuple[str, str], ...]

    def get(self, name: str, default: str | None = None) -> str | None:
        """A characteristic's text by name (as the game system spells it: `HP`, `Unit Notes`), stripped."""
        for key, value in self.characteristics:
            if key == name:
                return value.strip()
        return default


@record
class Selection:
    """A selection of the roster: a unit, a model or an upgrade, with what it holds."""

    name: str
    type: str  # unit, model or upgrade
    number: int
    costs: tuple[tuple[str, float], ...]
    profiles: tuple[Profile, ...]
    rules: tuple[str, ...]
    categories: tuple[str, ...]
    children: tuple[Selection, ...]
    descriptions: tuple[str, ...] = ()  # each rule's text, in the order of `rules`

    def rule_text(self, name: str) -> str | None:
        """The text of the selection's rule of that name (case-insensitive), None when it has none."""
        for rule, text in zip(self.rules, self.descriptions):
            if rule.casefold() == name.casefold():
                return text
        return None

    def walk(self) -> Iterator[Selection]:
        """This selection and every selection inside it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def cost(self, name: str = "pts") -> float:
        """The selection's cost of that type, its nested selections' included."""
        return sum(value for selection in self.walk() for key, value in selection.costs
                   if key.casefold() == name.casefold())


@record
class Force:
    name: str
    catalogue: str
    selections: tuple[Selection, ...]


@record
class RosterFile:
    """A roster: its name, the game system it was built for, and its forces."""

    source: str
    name: str
    system_name: str
    system_id: str
    system_revision: str
    forces: tuple[Force, ...]

    def selections(self) -> Iterator[Selection]:
        for force in self.forces:
            yield from force.selections


def _fail(source: str, problem: str) -> InputError:
    return InputError("file", source, problem)


def read_bytes(path: Path) -> bytes:
    """The roster's XML: the file itself (.ros), or its one XML member (.rosz), within the caps."""
    from ...core.files import read_capped

    return xml_of(read_capped(path, MAX_FILE_BYTES, "a .ros or .rosz roster"), str(path))


def xml_of(data: bytes, source: str) -> bytes:
    """The roster's XML from a list's bytes (read from a file, or uploaded), within the caps: the
    bytes themselves (.ros), or the one XML member of a zip (.rosz)."""
    if len(data) > MAX_FILE_BYTES:
        raise _fail(source, f"{len(data):,} bytes: a .ros or .rosz roster is at most {MAX_FILE_BYTES:,} bytes")
    if not data.startswith(b"PK"):
        # some apps save a .rosz unzipped: XML is read whatever the name says
        if source.lower().endswith(".rosz") and not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
            raise _fail(source, "neither a zip file nor XML: a .rosz is a zipped .ros")
        return data
    return _unzipped(data, source)


def _unzipped(data: bytes, source: str) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if not 1 <= len(members) <= MAX_MEMBERS:
                raise _fail(source, f"a zip of {len(members)} files: a .rosz holds one .ros")
            rosters = [info for info in members if info.filename.lower().endswith(".ros")] or members[:1]
            if len(rosters) != 1:
                raise _fail(source, "a zip of several .ros files: a .rosz holds one")
            info = rosters[0]
            if info.file_size > MAX_XML_BYTES:
                raise _fail(source, f"{info.filename} unzips to {info.file_size:,} bytes: at most "
                                    f"{MAX_XML_BYTES:,}")
            if info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise _fail(source, f"{info.filename} is compressed {info.file_size // max(info.compress_size, 1):,}"
                                    f" to 1: more than {MAX_RATIO} to 1 is not a roster (a zip bomb?)")
            with archive.open(info) as handle:  # zipfile reads no more than the directory's size, then
                chunks = []                         # checks the CRC: a directory that lies is a damaged zip;
                while chunk := handle.read(CHUNK):  # in chunks, so a lie costs no more memory than the truth
                    chunks.append(chunk)
                return b"".join(chunks)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:  # a bad directory; a corrupt or cut stream
        raise _fail(source, f"a damaged zip ({error})") from None
    except UnicodeDecodeError:  # a member name flagged UTF-8 that is not
        raise _fail(source, "a damaged zip (a file name that is not UTF-8)") from None
    except NotImplementedError as error:  # a compression method zipfile does not read (a RuntimeError too)
        raise _fail(source, f"cannot be unzipped ({error})") from None
    except RuntimeError:  # an encrypted member
        raise _fail(source, "cannot be unzipped (encrypted: the apps save a list without a password)") from None


def parse(data: bytes, source: str) -> RosterFile:
    """Parse roster XML (defusedxml: no DTD, no entities, no external references)."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as error:
        raise _fail(source, f"refused: the XML declares {type(error).__name__.removesuffix('Forbidden').lower()} "
                            "(a roster has none; entity expansion is how XML bombs work)") from None
    except ParseError as error:
        line, column = getattr(error, "position", (0, 0))
        raise _fail(source, f"not well-formed XML at line {line}, column {column + 1}") from None
    except LookupError as error:  # an encoding Python does not know: "unknown encoding: klingon"
        raise _fail(source, f"the XML declares {str(error).removeprefix('unknown encoding: ')!r} as its "
                            "encoding: not one Python reads (BattleScribe writes UTF-8)") from None
    namespace, _, tag = root.tag.rpartition("}")
    namespace = namespace.lstrip("{")
    if tag in OTHER_FILES:
        raise _fail(source, f"{OTHER_FILES[tag]}: export the list itself from BattleScribe or New Recruit "
                            "(.ros or .rosz)")
    if tag != "roster" or namespace != NAMESPACE:
        found = f"<{tag}>" + (f" in namespace {namespace}" if namespace else " without a namespace")
        raise _fail(source, f"{found}: expected a BattleScribe <roster> in namespace {NAMESPACE}")
    for count, element in enumerate(root.iter(), 1):
        if count > MAX_ELEMENTS:
            raise _fail(source, f"more than {MAX_ELEMENTS:,} XML elements: not a roster")
        name, text = element.get("name") or "", element.text or ""
        if len(name) > MAX_NAME:  # a name is copied into every row, cell and label that shows it
            raise _fail(source, f"a name of {len(name):,} characters ({name[:30]!r}…): at most {MAX_NAME:,}")
        if len(text) > MAX_TEXT:
            tag = element.tag.rpartition("}")[2]
            raise _fail(source, f"a <{tag}> text of {len(text):,} characters: at most {MAX_TEXT:,}")
    reader = _Reader(source)
    forces = tuple(reader.forces(root))
    return RosterFile(source, root.get("name", ""), root.get("gameSystemName", ""), root.get("gameSystemId", ""),
                      root.get("gameSystemRevision", ""), forces)


class _Reader:
    """Turns roster elements into records; errors name the element."""

    def __init__(self, source: str) -> None:
        self.source = source

    @staticmethod
    def children(element: Any, group: str, tag: str) -> list[Any]:
        """The `<tag>` children of `element`'s `<group>` (e.g. selections/selection)."""
        found = element.find(f"{{{NAMESPACE}}}{group}")
        return [] if found is None else found.findall(f"{{{NAMESPACE}}}{tag}")

    def forces(self, element: Any, depth: int = 1) -> list[Force]:
        """The forces of a roster or a force, each followed by the forces within it (New Recruit and
        some game systems nest them)."""
        if depth > MAX_DEPTH:
            raise _fail(self.source, f"forces nested more than {MAX_DEPTH} deep")
        found = []
        for force in self.children(element, "forces", "force"):
            selections = tuple(self.selection(child, 1) for child in self.children(force, "selections", "selection"))
            found.append(Force(force.get("name", ""), force.get("catalogueName", ""), selections))
            found += self.forces(force, depth + 1)
        return found

    def selection(self, element: Any, depth: int) -> Selection:
        name = element.get("name", "")
        where = f"selection {name!r}"
        if depth > MAX_DEPTH:
            raise _fail(self.source, f"{where}: selections nested more than {MAX_DEPTH} deep")
        number = self.number(element.get("number", "1"), where, "number")
        costs = tuple((cost.get("name", "").strip(), self.number(cost.get("value", "0"), where, "cost value", float))
                      for cost in self.children(element, "costs", "cost"))
        profiles = tuple(Profile(profile.get("name", ""), profile.get("typeName", ""),
                                 tuple((characteristic.get("name", ""), characteristic.text or "")
                                       for characteristic in self.children(profile, "characteristics",
                                                                           "characteristic")))
                         for profile in self.children(element, "profiles", "profile"))
        elements = self.children(element, "rules", "rule")
        rules = tuple(rule.get("name", "") for rule in elements)
        descriptions = tuple(" ".join(rule.findtext(f"{{{NAMESPACE}}}description", "").split()) for rule in elements)
        categories = tuple(category.get("name", "") for category in self.children(element, "categories", "category"))
        children = tuple(self.selection(child, depth + 1) for child in self.children(element, "selections",
                                                                                     "selection"))
        return Selection(name, element.get("type", ""), int(number), costs, profiles, rules, categories, children,
                         descriptions)

    def number(self, text: str, where: str, what: str, kind: Any = int) -> Any:
        """A count (`kind=int`: a whole number, 0 to 1,000,000) or a cost (-1,000,000 to 1,000,000: the
        catalogues give negative costs, a base cost below a unit's models or a size discount)."""
        try:
            value = float(text)
        except ValueError:
            raise _fail(self.source, f"{where}: {what} {text!r} is not a number") from None
        if not (0 if kind is int else -1_000_000) <= value <= 1_000_000:  # NaN and infinities too
            raise _fail(self.source, f"{where}: {what} {text!r} is out of range")
        if kind is int and not value.is_integer():
            raise _fail(self.source, f"{where}: {what} {text!r} is not a whole number")
        return int(value) if kind is int else value
